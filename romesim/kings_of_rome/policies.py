"""Decision points of the Kings of Rome procedures (spec section 3) and their built-in policies.

Each ``decide_*`` function is what a kernel calls at a decision point: the user's ``@njit`` function when one was
given (``code == USER``; ``call(slots, slot, ...)`` calls the function in the point's slot), otherwise the
built-in selected by ``code``.
The state vector a user function receives is documented on each ``DecisionPoint``.
"""
import math

import numpy as np

from ..core.jit import njit
from ..core import rng  # noqa: E402  (the `random` target draws from the game's stream)
from ..core.policy import USER, Builtin, DecisionPoint, call

# ------------------------------------------------------------------ siege (5.5), DP-S02 .. DP-S05
FIRST_TARGET = DecisionPoint(
    "first_target", "DP-S02",
    "Target of siege roll a when garrison and leader are both present "
    "(asked only with siege_first_roll_target = player_choice).",
    state=("garrison", "leader", "ge_test", "omen"),
    actions="0 = the garrison's Virtus, 1 = the leader's Virtus",
    builtins={"best": Builtin(0, "the target with the higher chance of success (the lower Virtus)"),
              "garrison": Builtin(1, "always the garrison"),
              "leader": Builtin(2, "always the leader")},
    default="best")

SECOND_CRITERION = DecisionPoint(
    "second_criterion", "DP-S03",
    "Criterion of siege roll b declared before the roll (asked only with siege_second_roll_choice = "
    "declare_before_roll, when garrison and leader are both present).",
    state=("garrison_plus_1", "leader", "eq_test", "omen"),
    actions="0 = garrison criterion (double of garrison + 1), 1 = leader criterion (exceed his Virtus)",
    builtins={"best": Builtin(0, "the criterion with the higher chance of success (garrison on a tie)"),
              "garrison": Builtin(1, "always the garrison criterion"),
              "leader": Builtin(2, "always the leader criterion")},
    default="best")

REROLL = DecisionPoint(
    "reroll", "DP-S05",
    "Spend one Astutia point of the besieging commander to reroll a failed siege roll (glossary, KOR-A22). "
    "A failed roll is rerolled at most once (5.7.9, KOR-A22 astutia_reroll=once); with chained the kernel asks "
    "again after each failed reroll while points last.",
    state=("roll", "die", "points_left", "can_succeed", "faces", "faces_b", "chained"),
    actions="0 = keep the failed roll, 1 = reroll it (roll: 0 = roll a, 1 = roll b; can_succeed: 1 if some "
            "face of a reroll would succeed; faces: how many faces would; faces_b: on roll a, how many faces "
            "would succeed on roll b under its best criterion, 0 on roll b; chained: 1 with "
            "astutia_reroll=chained)",
    builtins={"greedy": Builtin(0, "reroll every failed roll that a reroll could still win, except a roll a whose "
                                   "reroll would take from roll b a point it would use on better odds (the "
                                   "highest p_win)"),
              "never": Builtin(1, "never reroll"),
              "reserve": Builtin(2, "reroll like greedy on roll b; on roll a only while more than `keep` points "
                                    "are left",
                                 params=("keep",), defaults=(1.0,))},
    default="greedy")

LOSSES = DecisionPoint(
    "losses", "DP-S04",
    "Which besieged token is lost on a successful roll b (one loss, two with the King; one of the two must be "
    "the NR leader if present, 5.5 b).",
    state=("garrison", "leader", "units", "losses_left", "leader_required"),
    actions="0 = the garrison (flipped to Rome), 1 = one NR unit (to the NR container), 2 = the leader (captured)",
    builtins={"garrison_first": Builtin(0, "garrison, then units, then the leader (the leader first when required)"),
              "leader_first": Builtin(1, "the leader, then the garrison, then units"),
              "units_first": Builtin(2, "units, then the garrison, then the leader (the leader when required)")},
    default="garrison_first", candidates=3)

SIEGE_POINTS = (FIRST_TARGET, SECOND_CRITERION, REROLL, LOSSES)
DP_FIRST_TARGET, DP_SECOND_CRITERION, DP_REROLL, DP_LOSSES = range(4)

# ------------------------------------------------------------------ treason (6.3), DP-T01
IP_SPENT = DecisionPoint(
    "ip_spent", "DP-T01",
    "Influence points the Roman player spends for a -1 DRM each on the NR treason roll (at most 3).",
    state=("garrison", "ip_available", "ip_spent_param"),
    actions="k in 0..min(3, ip_available); k = ip_available brings IP to 0 and loses the game (C7)",
    builtins={"fixed": Builtin(0, "spend the scenario's ip_spent, never down to 0 IP"),
              "none": Builtin(1, "spend nothing"),
              "max": Builtin(2, "spend as much as possible (at most 3), never down to 0 IP")},
    default="fixed", candidates=4)

TREASON_POINTS = (IP_SPENT,)


@njit(cache=True, inline="always")
def decide_first_target(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    if code == 1:
        return 0
    if code == 2:
        return 1
    return 1 if state[1] < state[0] else 0


@njit(cache=True, inline="always")
def decide_second_criterion(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    if code == 1:
        return 0
    if code == 2:
        return 1
    omen, g2 = state[3], 2 * state[0]
    garrison_faces = 0
    leader_faces = 0
    for face in range(1, 7):
        total = face + omen
        if (total == g2) if state[2] else (total >= g2):
            garrison_faces += 1
        if total > state[1]:
            leader_faces += 1
    return 1 if leader_faces > garrison_faces else 0


@njit(cache=True, inline="always")
def decide_reroll(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    if code == 1 or state[3] == 0:
        return 0
    if state[0] == 1:
        return 1  # roll b: nothing is left to save a point for
    if code == 2:
        return 1 if state[2] > params[0] else 0
    # greedy on roll a. P(the siege fails) is the product of the failure chances of every die rolled, so a point
    # belongs to the roll with the more winning faces; under `once` a point beyond the first still leaves roll b
    # its single reroll
    return 1 if state[4] >= state[5] or (not state[6] and state[2] >= 2) else 0


@njit(cache=True, inline="always")
def decide_losses(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    garrison, leader, units = state[0], state[1], state[2]
    if state[4]:
        return 2
    if code == 1 and leader:
        return 2
    if code == 2 and units:
        return 1
    if garrison:
        return 0
    if units:
        return 1
    return 2


@njit(cache=True, inline="always")
def decide_ip_spent(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    if code == 1:
        return 0
    want = 3 if code == 2 else state[2]
    return min(want, state[1] - 1)


# ------------------------------------------------------------------ pillage (5.4, 5.4.1), DP-P02, DP-P03
PILLAGE_SECOND = DecisionPoint(
    "second_token", "DP-P02",
    "Second NR token eliminated when the King's pillage roll succeeds (asked only with pillage_second_unit = "
    "player_choice, when another token is in the city; KOR-A4). The roll beat the strongest token, so it beats "
    "any of them.",
    state=("garrison", "units", "unit_1", "unit_2", "unit_3", "unit_4", "unit_5", "unit_6"),
    actions="0 = the garrison, i = unit i (1-based, in the scenario's order), only a token still in the city "
            "(garrison and unit_i hold the Virtus of each token still there, 0 when absent or already eliminated)",
    builtins={"next_strongest": Builtin(0, "the strongest token left (the garrison first among equals, then "
                                           "units in order)"),
              "garrison_first": Builtin(1, "the garrison if it is still there (it flips to Rome), else the next "
                                           "strongest"),
              "units_first": Builtin(2, "the strongest unit left; the garrison only when no unit is left")},
    default="next_strongest", candidates=7)  # the garrison or one of at most 6 units

UNDEFENDED_CITY = DecisionPoint(
    "undefended", "DP-P03",
    "An undefended NR city (5.4.1): occupy it with an infantry unit of the army (romanized, no reward) or pillage "
    "it (the 5.4 success rewards, the city left empty).",
    state=("king", "side_effects"),
    actions="0 = occupy, 1 = pillage (king: 1 if the King leads the army; side_effects: 1 with KOR-A5 "
            "inherit_pillage)",
    builtins={"occupy": Builtin(0, "leave an infantry unit as the city's garrison"),
              "pillage": Builtin(1, "take the rewards and leave the city empty")},
    default="occupy")

PILLAGE_POINTS = (PILLAGE_SECOND, UNDEFENDED_CITY)
DP_PILLAGE_SECOND, DP_PILLAGE_UNDEFENDED = range(2)


@njit(cache=True, inline="always")
def decide_pillage_second(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    if code == 1 and state[0] > 0:
        return 0
    best, pick = 0, -1
    for i in range(state[1]):
        if state[2 + i] > best:  # strict: the first unit among equals; eliminated units read 0
            best, pick = state[2 + i], 1 + i
    if code == 2 and pick > 0:
        return pick
    if state[0] > 0 and state[0] >= best:
        return 0
    return pick


@njit(cache=True, inline="always")
def decide_undefended_city(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    return 1 if code == 1 else 0


# ------------------------------------------------------------------ intimidation (5.3), DP-I01, DP-I02
# Both points read one state vector: the kernel fills one buffer for both, which keeps a game to a single array
INTIMIDATION_STATE = ("units", "unit_1", "unit_2", "unit_3", "unit_4", "unit_5", "unit_6", "has_cavalry")

FIDES_RELEASE = DecisionPoint(
    "released", "DP-I01",
    "The Roman unit released as a sign of Fides before the intimidation roll (5.3): flipped to its NR face and "
    "placed in the city printed on it. The scenario does not model the army's units, so no metric depends on it.",
    state=INTIMIDATION_STATE,
    actions="0 = an infantry unit, 1 = a cavalry unit (5.3 requires cavalry when the army enters, not after; "
            "has_cavalry: 1, the army has cavalry; units, unit_i: the NR units, as for DP-I02)",
    builtins={"infantry": Builtin(0, "release an infantry unit, keeping the cavalry"),
              "cavalry": Builtin(1, "release a cavalry unit")},
    default="infantry")

INTIMIDATION_TARGET = DecisionPoint(
    "target", "DP-I02",
    "The NR military unit the intimidation roll is made against (5.3; garrisons are not military units, KOR-A3).",
    state=INTIMIDATION_STATE,
    actions="i in 0 .. units - 1: the index of the unit in the scenario's list (unit_i holds its Virtus, 0 beyond "
            "`units`; has_cavalry: 1)",
    builtins={"weakest": Builtin(0, "the lowest Virtus (the first among equals): the best chance"),
              "strongest": Builtin(1, "the highest Virtus (the first among equals)"),
              "random": Builtin(2, "uniformly at random: one die of `units` faces from the game's stream")},
    default="weakest", candidates=6)  # at most 6 units

INTIMIDATION_POINTS = (FIDES_RELEASE, INTIMIDATION_TARGET)
DP_INTIM_RELEASED, DP_INTIM_TARGET = range(2)


@njit(cache=True, inline="always")
def decide_fides_release(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    return 1 if code == 1 else 0


@njit(cache=True, inline="always")
def decide_intimidation_target(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    n = state[0]
    if code == 2:
        return rng.dn(stream, n) - 1
    pick = 0
    for i in range(1, n):
        if (state[1 + i] > state[1 + pick]) if code == 1 else (state[1 + i] < state[1 + pick]):
            pick = i
    return pick


# ------------------------------------------------------------------ corruption (5.6), DP-C02
CORRUPTION_TAKEN = DecisionPoint(
    "garrison_or_pillage", "DP-C02",
    "After corrupting a garrison that stood alone in its city (5.6): garrison the city with a unit of the army "
    "(+1 VP) or pillage it (+2 IP, the city left without defenders). Not asked when other NR units were there.",
    state=("garrison",),
    actions="0 = garrison the city, 1 = pillage it (garrison: the bribed garrison's Virtus)",
    builtins={"garrison": Builtin(0, "garrison the city (+1 VP, the city becomes Roman)"),
              "pillage": Builtin(1, "pillage it (+2 IP)")},
    default="garrison")

CORRUPTION_POINTS = (CORRUPTION_TAKEN,)
DP_CORRUPTION_TAKEN = 0


@njit(cache=True, inline="always")
def decide_corruption_taken(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    return 1 if code == 1 else 0


# ------------------------------------------------------------------ naval battle (5.8), DP-N01

# layout of the DP-N01 state vector: seven scalars, then the Virtus of each ship afloat (0 = sunk or no ship)
NAVAL_STATE_NR = 7
NAVAL_STATE_ROMAN = NAVAL_STATE_NR + 6
NAVAL_STATE_SIZE = NAVAL_STATE_ROMAN + 6

NAVAL_TARGET = DecisionPoint(
    "target", "DP-N01",
    "The NR ship each Roman ship afloat fires at (5.8). Asked for every Roman ship, in the order of the scenario's "
    "`roman` list, at the start of each round before any die is rolled. The NR ships fire at Roman ships drawn "
    "uniformly among those afloat (the rules' bot), which is not a policy.",
    state=("round", "shooter", "rank", "roman_afloat", "nr_afloat", "die_bonus", "rerolls_left",
           "nr_virtus_0", "nr_virtus_1", "nr_virtus_2", "nr_virtus_3", "nr_virtus_4", "nr_virtus_5",
           "roman_virtus_0", "roman_virtus_1", "roman_virtus_2", "roman_virtus_3", "roman_virtus_4",
           "roman_virtus_5"),
    actions="i = the index (0-based, in the scenario's `nr` list) of an NR ship afloat (nr_virtus_i > 0). "
            "round: 1..3; shooter: the firing ship's index in `roman`; rank: its position among the Roman ships "
            "afloat (0-based); die_bonus: added to every Roman die (Good Omen, and Astutia with KOR-A41 "
            "additive_astutia); rerolls_left: the leader's rerolls at the start of the round",
    builtins={"spread": Builtin(0, "each Roman ship a different NR ship, weakest first (then the first in the "
                                   "list among equals), cycling from the weakest when Roman ships outnumber them"),
              "focus": Builtin(1, "every Roman ship at the weakest NR ship afloat (the first among equals)"),
              "random": Builtin(2, "uniformly at random among the NR ships afloat (one die of `nr_afloat` faces "
                                   "from the game's stream per Roman ship)")},
    default="spread", candidates=6)  # at most 6 NR ships

NAVAL_POINTS = (NAVAL_TARGET,)


@njit(cache=True, inline="always")
def decide_naval_target(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    afloat = state[4]
    if code == 2:
        k = rng.dn(stream, afloat)
        for i in range(6):
            if state[NAVAL_STATE_NR + i] > 0:
                k -= 1
                if k == 0:
                    return i
        return -1
    want = 0 if code == 1 else state[2] % afloat
    # the ship whose place in the order (Virtus, then list index) is `want`
    for i in range(6):
        v = state[NAVAL_STATE_NR + i]
        if v == 0:
            continue
        place = 0
        for j in range(6):
            w = state[NAVAL_STATE_NR + j]
            if w > 0 and (w < v or (w == v and j < i)):
                place += 1
        if place == want:
            return i
    return -1

# ------------------------------------------------------------------ Spolia Opima duel (5.7.2.1)
# No decision point: the challenge itself (DP-B03) comes before the duel, and once it starts each leader just
# rolls, without rerolls (5.7.2.1).
SPOLIA_POINTS = ()

# ------------------------------------------------------------------ Horatii and Curiatii (9.3.7.2), DP-H03

# layout of the DP-H03 state vector: five scalars, then the Virtus of each unit slot (0 = eliminated or no unit)
HORATII_STATE_LATIN = 5
HORATII_STATE_ROMAN = HORATII_STATE_LATIN + 6
HORATII_STATE_SIZE = HORATII_STATE_ROMAN + 6

HORATII_TARGET = DecisionPoint(
    "target", "DP-H03",
    "The Latin unit each Roman die is rolled against (9.3.7.2), asked before every Roman die. Which Roman unit "
    "rolls does not matter (no die depends on the shooter). Alba Longa's dice aim at a Roman unit drawn uniformly "
    "among the survivors (the rules' NR bot), which is not a policy. Under duel_alternation = single_shot the "
    "choice changes only latin_survivors; under volley it also changes the win chance.",
    state=("latin_units", "latin_alive", "roman_alive", "shots", "volley",
           "latin_0", "latin_1", "latin_2", "latin_3", "latin_4", "latin_5",
           "roman_0", "roman_1", "roman_2", "roman_3", "roman_4", "roman_5"),
    actions="i = the index (0-based, in the scenario's `latin` list) of a surviving Latin unit (latin_i > 0 is "
            "its Virtus, 0 once eliminated; roman_i likewise for `roman`). latin_units: the length of `latin`; "
            "shots: dice rolled so far in the duel; volley: 1 under duel_alternation = volley",
    builtins={"weakest": Builtin(0, "the lowest Virtus, the easiest to hit (the first in the list among equals)"),
              "strongest": Builtin(1, "the highest Virtus (the first in the list among equals)"),
              "random": Builtin(2, "uniformly at random among the survivors (one die of `latin_alive` faces from "
                                   "the game's stream, drawn before the attack die)")},
    default="weakest", candidates=6)  # at most 6 Latin units

HORATII_POINTS = (HORATII_TARGET,)
DP_HORATII_TARGET = 0
HORATII_WEAKEST = 0  # the built-in code the Cocles raid uses for Rome's dice


@njit(cache=True, inline="always")
def decide_horatii_target(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    n = state[0]
    if code == 2:
        k = rng.dn(stream, state[1])
        for i in range(n):
            if state[HORATII_STATE_LATIN + i] > 0:
                k -= 1
                if k == 0:
                    return i
        return -1
    pick = -1
    for i in range(n):
        v = state[HORATII_STATE_LATIN + i]
        if v > 0 and (pick < 0 or (v > state[HORATII_STATE_LATIN + pick] if code == 1
                                   else v < state[HORATII_STATE_LATIN + pick])):
            pick = i
    return pick


# ------------------------------------------------------------------ Horatius Cocles (9.7.7.2), DP-HC01
COCLES_ATTEMPT = DecisionPoint(
    "attempt", "DP-HC01",
    "How Horatius tries to destroy the Sublicius bridge (9.7.7.2): directly (a 5 or 6, no VP) or by a raid with "
    "the scenario's `raid_units` against the NR group nearest to Rome (+2 VP if won, -1 VP if lost). The raid's "
    "dice follow the Horatii duel's defaults: Roman dice at the weakest NR unit, NR dice at a random Roman.",
    state=("attempt", "raid_units", "nr_units"),
    actions="0 = direct attempt, 1 = raid (attempt: the scenario's choice, 0 direct, 1 raid; raid_units: Rome-"
            "reserve units beside Horatius; nr_units: units of the NR group)",
    builtins={"fixed": Builtin(0, "the scenario's `attempt`"),
              "direct": Builtin(1, "always the direct attempt"),
              "raid": Builtin(2, "always the raid")},
    default="fixed")

COCLES_POINTS = (COCLES_ATTEMPT,)
DP_COCLES_ATTEMPT = 0


@njit(cache=True, inline="always")
def decide_cocles_attempt(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    if code == 1:
        return 0
    if code == 2:
        return 1
    return state[0]

# ------------------------------------------------------------------ senate (9.3.4), DP-SE01

# people codes: the order of the Senate scenario's `people` choices
PEOPLE_LATIN, PEOPLE_VOLSCI, PEOPLE_SABINE, PEOPLE_ETRUSCAN = range(4)

FALLBACK_ORDER = DecisionPoint(
    "fallback_order", "DP-SE01",
    "The next Curia people the Senate is asked about after a refusal (9.3.4: each of the other three peoples, one "
    "roll each, until one is approved). Asked only with senate_fallback_order = player_choice (KOR-A51).",
    state=("first", "asked_latin", "asked_volsci", "asked_sabine", "asked_etruscan", "requests"),
    actions="a people not asked yet: 0 = Latins, 1 = Volsci, 2 = Sabines, 3 = Etruscans (first: the people of the "
            "refused first request; asked_*: 1 once requested; requests: rolls made so far)",
    # the Etruscans last: 9.3.4 names Volsci, Latins, Sabines, and an Etruscan war is approved only on 5-6
    builtins={"volsci_latin_sabine": Builtin(0, "Volsci, Latins, Sabines, then the Etruscans (KOR-A51)"),
              "etruscans_first": Builtin(1, "the Etruscans first, then Volsci, Latins, Sabines"),
              "random": Builtin(2, "uniformly at random among the peoples not asked yet (one die from the game's "
                                   "stream, rolled only when more than one remains)")},
    default="volsci_latin_sabine", candidates=4)

SENATE_POINTS = (FALLBACK_ORDER,)
DP_FALLBACK_ORDER = 0


@njit(cache=True)
def fallback_in_order(state, etruscans_first):
    """The first people not asked yet among Volsci, Latins, Sabines, with the Etruscans first or last."""
    if etruscans_first and not state[1 + PEOPLE_ETRUSCAN]:
        return PEOPLE_ETRUSCAN
    for people in (PEOPLE_VOLSCI, PEOPLE_LATIN, PEOPLE_SABINE, PEOPLE_ETRUSCAN):
        if not state[1 + people]:
            return people
    return -1


@njit(cache=True, inline="always")
def decide_fallback_order(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    if code == 2:
        left = 4 - (state[1] + state[2] + state[3] + state[4])
        pick = rng.dn(stream, left) if left > 1 else 1
        for people in range(4):
            if not state[1 + people]:
                pick -= 1
                if pick == 0:
                    return people
        return -1
    return fallback_in_order(state, code == 1)


# ------------------------------------------------------------------ battle (5.7), DP-B01 .. DP-B15
# Every battle decision point gets the same state header: entries 0..7 are the legal mask of actions 0..7, then
# the phase, the round and the track (BS_*), then the point's own entries from BS_OWN (see the contract).
BATTLE_STATE_SIZE = 32
BS_PHASE, BS_ROUND, BS_ROMAN_PEN, BS_NR_PEN, BS_ASTUTIA, BS_ROMAN_ALIVE, BS_NR_ALIVE, BS_OWN = range(8, 16)
PHASE_SETUP, PHASE_TACTICS, PHASE_CLASH, PHASE_RETREAT, PHASE_3 = range(5)
BATTLE_CODE_DEFAULT, BATTLE_CODE_RANDOM, BATTLE_CODE_PARAMETRIC, BATTLE_CODE_ATTACK, BATTLE_CODE_DEFENCE = range(5)
NR_TACTIC_RULES, NR_TACTIC_ATTACK, NR_TACTIC_DEFENCE = range(3)

_HEADER = ("legal_0", "legal_1", "legal_2", "legal_3", "legal_4", "legal_5", "legal_6", "legal_7", "phase", "round",
           "roman_penalty", "nr_penalty", "astutia_left", "roman_alive", "nr_alive")
_SLOTS = tuple(f"roman_virtus_{i}" for i in range(8))


def _roman_point(name, rule, doc, own, actions, default_doc, parametric_doc, params, defaults, extra=None):
    builtins = {"default": Builtin(BATTLE_CODE_DEFAULT, default_doc, (), defaults),
                "random": Builtin(BATTLE_CODE_RANDOM, "uniformly at random among the legal actions (one die)"),
                "parametric": Builtin(BATTLE_CODE_PARAMETRIC, parametric_doc, params, defaults)}
    builtins.update(extra or {})
    return DecisionPoint(name, rule, doc, state=_HEADER + own, actions=actions, builtins=builtins, default="default",
                         candidates=8)  # a slot of the battle's 8, a box or 0/1


BATTLE_POINTS = (
    _roman_point("commander", "DP-B01", "Which Roman leader commands the battle (5.7.6); the others withdraw.",
                 ("rank_0", "virtus_0", "astutia_0", "rank_1", "virtus_1", "astutia_1", "rank_2", "virtus_2",
                  "astutia_2"),
                 "the slot of a leader in roman_leaders whose capacity (table 5.1) can field the units the battle "
                 "needs", "highest rank of table 5.1, then Virtus, then Astutia",
                 "argmax of w_virtus*Virtus + w_astutia*Astutia - w_rank*rank",
                 ("w_virtus", "w_astutia", "w_rank"), (0.0, 0.0, 1.0)),
    _roman_point("participants", "DP-B02", "Whether a Roman unit that fits the commander's capacity takes part "
                 "(asked strongest first; a unit needed to reach 3 units in a Roman-initiated battle is not asked).",
                 ("kind", "virtus", "roman_class", "infantry_room", "cavalry_room", "chosen"),
                 "0 = stays out, 1 = takes part", "takes part", "takes part iff virtus >= min_virtus",
                 ("min_virtus",), (1.0,)),
    _roman_point("spolia", "DP-B03", "Challenge the NR commander to the Spolia Opima duel (5.7.2.1).",
                 ("roman_virtus", "roman_astutia", "nr_virtus", "nr_astutia", "omen"),
                 "0 = no, 1 = challenge",
                 "challenge iff the Roman has at least one more hitting face than the NR leader",
                 "challenge iff Roman hitting faces - NR hitting faces >= threshold", ("threshold",), (1.0,)),
    _roman_point("tactic", "DP-B04", "The Roman tactic marker (5.7.3).",
                 ("roman_strength", "nr_strength", "roman_cavalry", "nr_cavalry", "attack_estimate",
                  "defence_estimate"),
                 "0 = DEFENCE, 1 = ATTACK (attack_estimate, defence_estimate: the expected P(win) - P(loss) of "
                 "each marker, in thousandths, as tactic_estimates reckons it)",
                 "the marker with the better estimate (tactic_estimates: the vanguard clash solved pair by pair, "
                 "phase 3 estimated from the front units' hit rates and the track); on a tie ATTACK iff Rome's "
                 "strength (sum of Virtus + class DRM of its participants) >= the NR's",
                 "ATTACK with probability p_attack (one die)", ("p_attack",), (0.5,),
                 {"attack": Builtin(BATTLE_CODE_ATTACK, "always ATTACK"),
                  "defence": Builtin(BATTLE_CODE_DEFENCE, "always DEFENCE")}),
    DecisionPoint("nr_tactic", "KOR-A19", "The NR tactic marker, drawn after the Roman's (5.7.3): a coin flip, or "
                  "one of the pool's markers left (nr_tactic_draw).",
                  state=_HEADER + ("roman_tactic", "attack_markers", "defence_markers"),
                  actions="0 = DEFENCE, 1 = ATTACK",
                  builtins={"nr_rules": Builtin(NR_TACTIC_RULES, "the rules' draw per nr_tactic_draw (KOR-A19)"),
                            "attack": Builtin(NR_TACTIC_ATTACK, "always ATTACK"),
                            "defence": Builtin(NR_TACTIC_DEFENCE, "always DEFENCE")},
                  default="nr_rules"),
    _roman_point("vanguard_pairing", "DP-B05", "Which Roman cavalry faces an NR cavalry in the vanguard clash, "
                 "asked for each NR cavalry of the clash, strongest first (5.7.4).",
                 ("nr_virtus",) + _SLOTS, "the slot of a Roman cavalry of the clash not paired yet",
                 "the strongest", "argmax of sign*Virtus", ("sign",), (1.0,)),
    _roman_point("continue_after_clash", "DP-B06", "After winning an attack-vs-defence vanguard clash: go on to "
                 "phase 3 or stop (5.7.4).", (), "0 = stop, 1 = phase 3",
                 "phase 3 iff Roman units alive - NR units alive >= 0",
                 "phase 3 iff Roman units alive - NR units alive >= threshold", ("threshold",), (0.0,)),
    _roman_point("fight_phase3", "DP-B07", "Fight phase 3 or decline it (5.7.5, KOR-A24).", (),
                 "0 = decline, 1 = fight", "fight iff Roman units alive - NR units alive >= 0",
                 "fight iff Roman units alive - NR units alive >= threshold", ("threshold",), (0.0,)),
    _roman_point("retreat_pairing", "DP-B08", "Which Roman infantry faces an NR infantry in the retreat round, "
                 "asked for each NR infantry taking part, strongest first (5.7.4).",
                 ("nr_virtus",) + _SLOTS, "the slot of a Roman infantry not paired yet", "the strongest",
                 "argmax of sign*Virtus", ("sign",), (1.0,)),
    _roman_point("deployment", "DP-B09", "Which Roman unit goes into a front box, asked for RIGHT, CENTRE, LEFT "
                 "(5.7.6: infantry while any is unplaced).", ("box",) + _SLOTS,
                 "the slot of a legal unit (roman_virtus_i > 0)", "the strongest", "argmax of sign*Virtus",
                 ("sign",), (1.0,)),
    _roman_point("leader_position", "DP-B10", "Where the Roman commander stands in phase 3 (5.7.6).",
                 ("astutia", "box_virtus_0", "box_virtus_1", "box_virtus_2"),
                 "0..2 = the front box of a Roman unit, 3 = the battle reserve",
                 "front (box of the strongest unit) iff Astutia >= 1, else reserve",
                 "front iff Astutia >= min_astutia", ("min_astutia",), (1.0,)),
    _roman_point("reroll", "DP-B11", "Spend an Astutia point to reroll a failed Roman roll (5.7.9, C3).",
                 ("die", "unit_virtus", "target_virtus", "drm"), "0 = keep, 1 = reroll",
                 "reroll (greedy)", "reroll iff points left > keep", ("keep",), (0.0,)),
    _roman_point("reserve_infantry", "DP-B12", "Move a Roman reserve infantry into a vacated box (5.7.9 a).",
                 ("unit_virtus", "nr_leader_at_front"), "0 = keep in reserve, 1 = move", "move",
                 "move iff virtus >= min_virtus", ("min_virtus",), (1.0,)),
    _roman_point("reserve_cavalry", "DP-B13", "What a Roman reserve cavalry does in the reserve step (5.7.10).",
                 ("unit_virtus", "nr_leader_at_front"),
                 "0 = fill a vacated box, 1 = attack the NR leader in a front box, 2 = nothing",
                 "fill a box if one is vacated, else attack the leader if he is at the front",
                 "as default, but attack the leader first iff prefer_leader >= 0.5", ("prefer_leader",), (0.0,)),
    _roman_point("fill_box", "DP-B14", "Which vacated box a moving Roman reserve unit fills (5.7.9).",
                 ("unit_virtus", "facing_0", "facing_1", "facing_2"), "box 0..2 among the legal ones",
                 "the box facing the weakest NR unit (an empty box counts as 0)",
                 "argmin of sign*facing Virtus", ("sign",), (1.0,)),
    _roman_point("triumph", "DP-B15", "Claim the Triumph after a victory (5.7.11).", (),
                 "0 = decline, 1 = claim", "claim", "claim iff claim >= 0.5", ("claim",), (1.0,),
                 extra={"decline": Builtin(BATTLE_CODE_DEFAULT, "decline: the leader stays on the map with his "
                                           "army (5.7.11)", (), (0.0,))}),
)
(DP_B_COMMANDER, DP_B_PARTICIPANTS, DP_B_SPOLIA, DP_B_TACTIC, DP_B_NR_TACTIC, DP_B_VANGUARD, DP_B_CONTINUE,
 DP_B_FIGHT, DP_B_RETREAT, DP_B_DEPLOY, DP_B_LEADER, DP_B_REROLL, DP_B_RESERVE_INF, DP_B_RESERVE_CAV, DP_B_FILL,
 DP_B_TRIUMPH) = range(16)


@njit(cache=True)
def random_legal(state, stream):
    """Uniform among the actions the legal mask allows (one die); -1 if none is legal."""
    count = 0
    for a in range(8):
        count += state[a] != 0
    if count == 0:
        return -1
    k = rng.dn(stream, count)
    for a in range(8):
        if state[a]:
            k -= 1
            if k == 0:
                return a
    return -1


@njit(cache=True)
def _argbest(state, first, weight, lowest):
    """The legal action a (0..7) with the best weight*state[first + a] (first among equals)."""
    pick, best = -1, 0.0
    for a in range(8):
        if not state[a]:
            continue
        value = weight * state[first + a]
        if pick < 0 or (value < best if lowest else value > best):
            pick, best = a, value
    return pick


@njit(cache=True, inline="always")
def _faces(drm, target):
    """Faces of a d6 with ``d6 + drm > target`` (C1)."""
    return max(0, min(6, 6 + drm - target))


@njit(cache=True)
def _front(virtus, cavalry, n, out):
    """The units a side puts in its three front boxes at the default deployment (5.7.6, DP-B09): its strongest
    infantry, then its strongest cavalry while boxes are left; their indices in ``out``, their number returned."""
    count = 0
    for want in range(2):
        while count < 3:
            best = -1
            for i in range(n):
                if cavalry[i] != want:
                    continue
                taken = False
                for k in range(count):
                    taken = taken or out[k] == i
                if not taken and (best < 0 or virtus[i] > virtus[best]):
                    best = i
            if best < 0:
                break
            out[count] = best
            count += 1
    return count


@njit(cache=True)
def phase3_edge(rv, rcav, rdrm, rpts, rshield, n_r, nv, ncav, npts, n_n, omen, lead):
    """A cheap estimate of P(Rome wins) - P(Rome loses) once phase 3 is fought (5.7.6-5.7.11), ``lead`` penalty
    points ahead on the track: each front box pairs a Roman unit with an NR unit (the strongest of each side in
    front, the NR box order random, so every pairing is averaged); per round each side deals penalty points at the
    rate of its hits (Roman dice with the class DRM and the Good Omen; NR cavalry does not roll against the units
    in ``rshield``); the battle lasts until a side has lost more units than its reserve can replace; the track gap
    then, over its spread, through tanh."""
    fr = np.zeros(3, np.int64)
    fn = np.zeros(3, np.int64)
    a = _front(rv, rcav, n_r, fr)
    b = _front(nv, ncav, n_n, fn)
    if a == 0 or b == 0:
        return 0.0
    rate_r, rate_n, kill_r, kill_n = 0.0, 0.0, 0.0, 0.0
    for x in range(a):
        i = fr[x]
        for y in range(b):
            j = fn[y]
            hit_r = _faces(rdrm[i] + omen, nv[j]) / 6.0
            hit_n = 0.0 if ncav[j] and rshield[i] else _faces(0, rv[i]) / 6.0
            rate_r += hit_r * npts[j]
            kill_r += hit_r
            rate_n += hit_n * rpts[i]
            kill_n += hit_n
    boxes = min(a, b) / (a * b)
    rate_r, rate_n, kill_r, kill_n = rate_r * boxes, rate_n * boxes, kill_r * boxes, kill_n * boxes
    if kill_r == 0.0 and kill_n == 0.0:
        return 0.0
    rounds = 99.0
    if kill_r > 0.0:
        rounds = min(rounds, (n_n - b + 1) / kill_r)
    if kill_n > 0.0:
        rounds = min(rounds, (n_r - a + 1) / kill_n)
    rounds = max(1.0, rounds)
    gap = lead + (rate_r - rate_n) * rounds
    return math.tanh(gap / (1.0 + math.sqrt((rate_r + rate_n) * rounds)))


@njit(cache=True)
def sort_descending(a, m):
    """``a[:m]`` sorted from largest to smallest, in place: an insertion sort of a few Virtus values. numba's
    ``np.sort`` was a second of every cold compile of a battle, for at most eight numbers."""
    for i in range(1, m):
        v = a[i]
        j = i
        while j > 0 and a[j - 1] < v:
            a[j] = a[j - 1]
            j -= 1
        a[j] = v


@njit(cache=True)
def tactic_estimates(rv, rcav, rdrm, rpts, rshield, n_r, nv, ncav, npts, n_n, omen, pen_r, pen_n, nr_astutia,
                     rome_first_attack, rome_first_defence, p_nr_attack_if_attack, p_nr_attack_if_defence,
                     may_decline, retreat_without_cavalry):
    """DP-B04 state entries ``attack_estimate`` and ``defence_estimate``: the expected P(win) - P(loss) of each
    Roman marker, from what the Roman player sees (both armies, the track, the NR commander's Astutia) and the
    rules' NR draw (5.7.3-5.7.5, KOR-A19..A24).

    ATTACK/ATTACK is phase 3 (``phase3_edge``); DEFENCE/DEFENCE ends with no winner. When one side defends and
    both have cavalry, the vanguard clash is solved pair by pair (strongest against strongest, the first roller
    of KOR-A20 rolling first; no DRM but the Good Omen): each number of pairs won moves the track by 3 per cavalry
    lost; the side that chose DEFENCE with no cavalry left retreats (no winner); otherwise a clash won by Rome, or
    won by the NR and pursued (d6 > its commander's Astutia), leads to phase 3 with that track, a drawn clash to
    no winner. Without a clash both markers lead to phase 3 (KOR-A23 ``cavalry_lost``). Rome fights a phase 3 it
    may decline only with at least as many units as the NR (DP-B06, DP-B07 defaults)."""
    cr = np.zeros(8, np.int64)
    cn = np.zeros(8, np.int64)
    m_r, m_n = 0, 0
    for i in range(n_r):
        if rcav[i]:
            cr[m_r] = rv[i]
            m_r += 1
    for j in range(n_n):
        if ncav[j]:
            cn[m_n] = nv[j]
            m_n += 1
    sort_descending(cr, m_r)
    sort_descending(cn, m_n)
    m = min(m_r, m_n)
    base = phase3_edge(rv, rcav, rdrm, rpts, rshield, n_r, nv, ncav, npts, n_n, omen, pen_n - pen_r)
    both = base if (not may_decline or n_r >= n_n) else 0.0
    if m == 0:
        attack_defend = 0.0 if (m_n == 0 and retreat_without_cavalry) else both
        defend_attack = 0.0 if (m_r == 0 and retreat_without_cavalry) else both
        return (p_nr_attack_if_attack * both + (1.0 - p_nr_attack_if_attack) * attack_defend,
                p_nr_attack_if_defence * defend_attack)
    go = _faces(0, nr_astutia) / 6.0
    result = np.zeros(2)
    for who in range(2):  # 0: Rome attacks, the NR defends; 1: Rome defends, the NR attacks
        first = rome_first_attack if who == 0 else rome_first_defence
        dist = np.zeros(m + 1)
        dist[0] = 1.0
        for k in range(m):
            hit_r = _faces(omen, cn[k]) / 6.0
            hit_n = _faces(0, cr[k]) / 6.0
            miss = (1.0 - hit_r) * (1.0 - hit_n)
            win = 0.5 if miss >= 1.0 else (hit_r if first else (1.0 - hit_n) * hit_r) / (1.0 - miss)
            for j in range(k + 1, 0, -1):
                dist[j] = dist[j] * (1.0 - win) + dist[j - 1] * win
            dist[0] *= 1.0 - win
        for k in range(m + 1):
            track_r, track_n = pen_r + 3 * (m - k), pen_n + 3 * k
            left = (m_n - k) if who == 0 else (m_r - (m - k))
            if left == 0 or track_r == track_n:
                continue  # the defender retreats, or a drawn clash stops the battle: no winner
            edge = phase3_edge(rv, rcav, rdrm, rpts, rshield, n_r, nv, ncav, npts, n_n, omen, track_n - track_r)
            if may_decline and n_r - (m - k) < n_n - k:
                edge = 0.0
            result[who] += dist[k] * (edge if track_r < track_n else go * edge)
    return (p_nr_attack_if_attack * both + (1.0 - p_nr_attack_if_attack) * result[0],
            p_nr_attack_if_defence * result[1])


@njit(cache=True)
def default_tactic(state):
    """DP-B04 ``default`` (5.7.3): the marker with the better estimate of P(win) - P(loss) (``tactic_estimates``,
    state entries ``attack_estimate`` and ``defence_estimate``); on equal estimates ATTACK iff Rome's front
    strength is at least the NR's. In the contract's default battle it defends (exactly: DEFENCE wins 0.3947 and
    loses 0.0013, ATTACK wins 0.2145 and loses 0.2025): with cavalry on both sides DEFENCE fights phase 3 only
    after Rome has won the vanguard clash, and an NR DEFENCE ends the battle after the clash with no winner."""
    if state[BS_OWN + 4] != state[BS_OWN + 5]:
        return 1 if state[BS_OWN + 4] > state[BS_OWN + 5] else 0
    return 1 if state[BS_OWN] >= state[BS_OWN + 1] else 0


@njit(cache=True)
def battle_builtin(point, code, par, state, stream):
    """The built-in policies of the battle decision points (DP-B01..B15, and the NR tactic's draw)."""
    if point == DP_B_NR_TACTIC:
        if code == NR_TACTIC_ATTACK:
            return 1
        if code == NR_TACTIC_DEFENCE:
            return 0
        # the rules' draw: one marker from those the state shows (a coin flip is one of each)
        attack = state[BS_OWN + 1]
        return 1 if rng.dn(stream, attack + state[BS_OWN + 2]) <= attack else 0
    if code == BATTLE_CODE_RANDOM:
        return random_legal(state, stream)
    own = BS_OWN
    if point == DP_B_COMMANDER:
        pick, best = -1, 0.0
        for a in range(3):
            if not state[a]:
                continue
            rank, virtus, astutia = state[own + 3 * a], state[own + 3 * a + 1], state[own + 3 * a + 2]
            if code == BATTLE_CODE_DEFAULT:
                value = -100.0 * rank + 10.0 * virtus + astutia
            else:
                value = par[0] * virtus + par[1] * astutia - par[2] * rank
            if pick < 0 or value > best:
                pick, best = a, value
        return pick
    if point == DP_B_PARTICIPANTS or point == DP_B_RESERVE_INF:
        return 1 if state[own + (1 if point == DP_B_PARTICIPANTS else 0)] >= par[0] else 0
    if point == DP_B_SPOLIA:
        roman_faces, nr_faces = 0, 0
        for die in range(1, 7):
            roman_faces += die + state[own + 1] + state[own + 4] > state[own + 2]
            nr_faces += die + state[own + 3] > state[own]
        return 1 if roman_faces - nr_faces >= par[0] else 0
    if point == DP_B_TACTIC:
        if code == BATTLE_CODE_ATTACK:
            return 1
        if code == BATTLE_CODE_DEFENCE:
            return 0
        if code == BATTLE_CODE_PARAMETRIC:
            return 1 if rng.dn(stream, 1_000_000) <= par[0] * 1_000_000 else 0
        return default_tactic(state)
    if point == DP_B_VANGUARD or point == DP_B_RETREAT or point == DP_B_DEPLOY:
        return _argbest(state, own + 1, par[0], False)
    if point == DP_B_CONTINUE or point == DP_B_FIGHT:
        return 1 if state[BS_ROMAN_ALIVE] - state[BS_NR_ALIVE] >= par[0] else 0
    if point == DP_B_LEADER:
        if state[own] >= par[0]:
            pick = -1
            for box in range(3):
                if state[box] and (pick < 0 or state[own + 1 + box] > state[own + 1 + pick]):
                    pick = box
            if pick >= 0:
                return pick
        return 3
    if point == DP_B_REROLL:
        return 1 if state[BS_ASTUTIA] > par[0] else 0
    if point == DP_B_RESERVE_CAV:
        if par[0] >= 0.5 and state[1]:
            return 1
        if state[0]:
            return 0
        return 1 if state[1] else 2
    if point == DP_B_FILL:
        return _argbest(state, own + 1, par[0], True)
    if point == DP_B_TRIUMPH:
        return 1 if par[0] >= 0.5 else 0
    return -1


@njit(cache=True, inline="always")
def decide_battle(offset, point, codes, params, slots, state, stream):
    """A Roman battle decision: the user's function in the point's slot (``code == USER``), else the built-in
    selected by its code.

    ``offset`` is the index of the battle's first decision point in ``codes``/``params``/``slots``, so one
    compiled battle serves any game that lists the battle's decision points after its own.
    """
    i = offset + point
    if codes[i] == USER:
        return call(slots, i, state, params[i], stream)
    return battle_builtin(point, codes[i], params[i], state, stream)
