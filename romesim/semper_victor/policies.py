"""Decision points of the Semper Victor procedures (spec section 4) and their built-in policies."""

# ------------------------------------------------------------------ procedures: D1 initiative, D3 Constantinopolis,
# D13 Assassinat and Foyer de peste (spec section 4)
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.policy import USER, Builtin, DecisionPoint, call
from .empire import MAX_LEADERS, N_DIOCESES

PLAY_INITIATIVE = DecisionPoint(
    "play_initiative", "D1",
    "Play an Initiative stratagem to take the initiative (spec 2.3, 2.12). Asked of the player without the "
    "initiative who holds one: the roll's loser once; with initiative_counterplay = true (SV-A4) each play may be "
    "answered by the player who just lost the initiative, while counters last.",
    state=("player", "held", "opponent_held", "die", "pc", "mcs_total", "plays"),
    actions="0 = keep the counter, 1 = play it (player: 0 = PRIMUS, 1 = SECONDUS; held >= 1: the asked player's "
            "Initiative counters, opponent_held: the other's; die: the initiative d6; pc: the Primus Augustus' PC; "
            "mcs_total: the turn's M/CS total, -1 where the scenario does not model Phase D; plays: Initiative "
            "stratagems already played this Phase B)",
    builtins={"always": Builtin(0, "play whenever asked"),
              "never": Builtin(1, "keep every counter"),
              "random": Builtin(2, "play or keep with probability 1/2 each (one d2 from the game's stream)"),
              "odd_mcs": Builtin(3, "play only while holding more than `keep` counters and when the M/CS total "
                                    "is odd, so that the initiative also brings the extra M/CS (spec 2.5.1); where the "
                                    "total is not modelled, only the `keep` test applies",
                                 params=("keep",), defaults=(0.0,))},
    default="always")

START_CONSTANTINOPLE = DecisionPoint(
    "start_constantinople", "D3",
    "Start building Constantinopolis in Phase C (spec 2.4.3). Asked only when it is legal: PRIMUS controls "
    "Thracia, Constantin is Primus Augustus and no construction is under way.",
    state=("turn", "turns_left", "duration", "attempts", "interruptions"),
    actions="0 = not this turn, 1 = start (turn: 1-based; turns_left: turns of the scenario from this one, this "
            "one included; duration: turns from the start to the completion Phase F, both included: 6, or 7 with "
            "SV-A8 end_of_box_year; attempts, interruptions: so far)",
    builtins={"always": Builtin(0, "start whenever it is legal"),
              "never": Builtin(1, "never start"),
              "random": Builtin(2, "start with probability 1/2 in each Phase C where it is legal (one d2)"),
              "if_time": Builtin(3, "start only when the completion Phase F falls within the scenario "
                                    "(turns_left >= duration)")},
    default="always")

ASSASSINATE = DecisionPoint(
    "assassinate", "D13",
    "Play the next Assassinat stratagem on the target now (spec 2.12). Asked before each attempt while the target "
    "lives and the player holds a counter; keeping the rest ends the attempts.",
    state=("attempt", "held", "protected", "kill_faces"),
    actions="0 = keep the remaining counters, 1 = play one (attempt: 1-based; held: counters still held, this one "
            "included; protected: 1 if the bodyguard's modifier applies to the target; kill_faces: the d10 faces "
            "out of 10 that kill)",
    builtins={"all": Builtin(0, "play every counter until the target dies"),
              "once": Builtin(1, "play one counter and keep the rest"),
              "random": Builtin(2, "play or keep with probability 1/2 before each attempt (one d2)"),
              "worthwhile": Builtin(3, "play every counter while the kill chance is at least `min_chance`, none "
                                       "otherwise (spares counters on a guarded target)",
                                    params=("min_chance",), defaults=(0.15,))},
    default="all")

PLAGUE_MAX_ZONES = 4
PLAGUE_STATE_ZONE = 1  # the state's first zone block; each zone has the four entries named below
PLAGUE_ZONE = DecisionPoint(
    "plague_zone", "D13",
    "The zone where Foyer de peste is put (spec 2.12), among the scenario's candidate zones.",
    state=("zones",) + tuple(f"z{i}_{f}" for i in range(1, PLAGUE_MAX_ZONES + 1)
                             for f in ("enemy_rolls", "own_rolls", "enemy_steps", "own_steps")),
    actions="a zone number 1..zones (zi_enemy_rolls, zi_own_rolls: leaders of the holder's enemy and of the "
            "holder who would roll for survival there; zi_enemy_steps, zi_own_steps: their units, each losing "
            "one step)",
    builtins={"greedy": Builtin(0, "the zone with the highest leader_weight * (enemy_rolls - own_rolls) + "
                                   "step_weight * (enemy_steps - own_steps), the first among equals",
                                params=("leader_weight", "step_weight"), defaults=(1.0, 1.0)),
              "fixed": Builtin(1, "the zone numbered `zone`", params=("zone",), defaults=(1.0,)),
              "random": Builtin(2, "a zone drawn uniformly (one die of `zones` faces)")},
    default="greedy", candidates=PLAGUE_MAX_ZONES + 1)  # zones are numbered from 1

INITIATIVE_POINTS = (PLAY_INITIATIVE,)
CONSTANTINOPLE_POINTS = (START_CONSTANTINOPLE,)
ASSASSINATION_POINTS = (ASSASSINATE,)
PLAGUE_POINTS = (PLAGUE_ZONE,)


@njit(cache=True)
def decide_play_initiative(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    if code == 1:
        return 0
    if code == 2:
        return rng.dn(stream, 2) - 1
    if code == 3 and (state[1] <= params[0] or (state[5] >= 0 and state[5] % 2 == 0)):
        return 0
    return 1


@njit(cache=True)
def decide_start_constantinople(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    if code == 1:
        return 0
    if code == 2:
        return rng.dn(stream, 2) - 1
    if code == 3 and state[1] < state[2]:
        return 0
    return 1


@njit(cache=True)
def decide_assassinate(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    if code == 1:
        return 1 if state[0] == 1 else 0
    if code == 2:
        return rng.dn(stream, 2) - 1
    if code == 3 and state[3] / 10.0 < params[0]:
        return 0
    return 1


@njit(cache=True)
def decide_plague_zone(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    if code == 1:
        return np.int64(params[0])
    if code == 2:
        return rng.dn(stream, state[0])
    best, best_score = 1, 0.0
    for z in range(state[0]):
        at = PLAGUE_STATE_ZONE + 4 * z
        score = params[0] * (state[at] - state[at + 1]) + params[1] * (state[at + 2] - state[at + 3])
        if z == 0 or score > best_score:
            best, best_score = z + 1, score
    return best
# ------------------------------------------------------------------ succession and usurpation (seed 3.5.2, 3.6): D5-D8


# D5 state: four scalars, then the candidates' leader indices, PCs and pieces in their zones
TGT_N, TGT_ATTEMPT, TGT_STRATAGEM, TGT_BONUS, TGT_LEADER = range(5)
TGT_PC = TGT_LEADER + MAX_LEADERS
TGT_PIECES = TGT_PC + MAX_LEADERS
# D6 state: six scalars, then per candidate Diocese its index, modifier, expected gain, victim leaders and units
DIO_N, DIO_USURPER, DIO_PC, DIO_BONUS, DIO_FROM, DIO_LITERAL, DIO_LIST = range(7)
DIO_M = DIO_LIST + N_DIOCESES
DIO_GAIN = DIO_M + N_DIOCESES
DIO_LEADERS = DIO_GAIN + N_DIOCESES
DIO_UNITS = DIO_LEADERS + N_DIOCESES
# D7 state: four scalars, then the candidates' leader indices, PC, CC, SR, TB and zone index
GEN_N, GEN_ROLE, GEN_CASE, GEN_DEAD, GEN_LEADER = range(5)
GEN_PC = GEN_LEADER + MAX_LEADERS
GEN_CC = GEN_PC + MAX_LEADERS
GEN_SR = GEN_CC + MAX_LEADERS
GEN_TB = GEN_SR + MAX_LEADERS
GEN_ZONE = GEN_TB + MAX_LEADERS
# D8 state: the context, the two leaders, then their PC, CC, SR and TB in pairs
TIE_CONTEXT, TIE_A, TIE_B, TIE_PC, TIE_CC, TIE_SR, TIE_TB = 0, 1, 2, 3, 5, 7, 9
SV_STATE_SIZE = GEN_ZONE + MAX_LEADERS
STRATAGEM_CODES = ("augustus", "caesar", "leader", "succession")


def _per(name, n):
    return tuple(f"{name}_{i}" for i in range(n))


USURPATION_TARGET = DecisionPoint(
    "target", "D5",
    "The enemy Roman leader a usurpation stratagem is played on, when the scenario leaves it open (target = -1). "
    "Asked for each attempt in order, before any validation roll; the candidates obey the stratagem's "
    "precondition and the status-zone rule (seed 3.6, SV-A28, SV-A38) and, for a double usurpation, the second "
    "must stand in a Diocese neither the first's nor adjacent to it (while the first is chosen only among leaders "
    "that leave such a second choice).",
    state=("candidates", "attempt", "stratagem", "bonus") + _per("leader", MAX_LEADERS) + _per("pc", MAX_LEADERS)
    + _per("pieces", MAX_LEADERS),
    actions="the index (position in `leaders`, from 0) of one of the candidates leader_0 .. leader_{n-1}. "
            "attempt: 0 or 1; stratagem: 0 augustus, 1 caesar, 2 leader; bonus: b of seed 3.6.3; pc_i: the "
            "candidate's PC; pieces_i: leaders (himself excluded) and units in his zone, who join him in step A",
    builtins={"best": Builtin(0, "the highest PC (validation, step C and rallies all improve with it), then the "
                                 "most pieces in his zone, then the first in the list"),
              "random": Builtin(1, "uniformly among the candidates (one die of `candidates` faces, rolled only "
                                   "when there are two or more)")},
    default="best", candidates=24)  # a leader index (empire.MAX_LEADERS)

USURPATION_DIOCESE = DecisionPoint(
    "diocese", "D6",
    "The Diocese D2 a Usurper extends the civil war to in step C (seed 3.6.3 C): one with a zone adjacent to his "
    "Diocese (straits count), not his own, and not the one the other Usurper of a double usurpation chose. "
    "Asked when there is at least one; the Usurper always tries, a failed roll costing nothing.",
    state=("candidates", "usurper", "pc", "bonus", "from_diocese", "literal") + _per("diocese", N_DIOCESES)
    + _per("m", N_DIOCESES) + _per("gain", N_DIOCESES) + _per("victim_leaders", N_DIOCESES)
    + _per("victim_units", N_DIOCESES),
    actions="a Diocese index (0 Hispaniae .. 11 Oriens, the order of seed 3.1) among diocese_0 .. diocese_{n-1}. "
            "usurper: his leader index; literal: 1 under SV-A1 literal_add; m_i: the die modifier there (SV-A19); "
            "gain_i: 60 x the expected leaders and units that would join (chance of the d10 roll times, per zone, "
            "the chance of its loyalty roll times the pieces that would follow); victim_leaders_i, "
            "victim_units_i: the victim side's leaders and units in that Diocese",
    builtins={"best": Builtin(0, "the highest gain, then the first in the order of seed 3.1"),
              "random": Builtin(1, "uniformly among the candidates (one die, rolled only when there are two or "
                                   "more)")},
    default="best", candidates=12)  # the 12 Dioceses

SUCCESSION_GENERAL = DecisionPoint(
    "general", "D7",
    "The general a player picks on the map in a succession without heir (seed 3.5.2): PRIMUS his new Primus "
    "Augustus (Primus case 5), then SECONDUS the leader who receives the Usurper marker (Primus case 5, Secondus "
    "case 4). Any Roman leader of that player but a Dux (SV-A35); the dead Augustus is not on the map.",
    state=("candidates", "role", "case", "dead") + _per("leader", MAX_LEADERS) + _per("pc", MAX_LEADERS)
    + _per("cc", MAX_LEADERS) + _per("sr", MAX_LEADERS) + _per("tb", MAX_LEADERS) + _per("zone", MAX_LEADERS),
    actions="the index of one of the candidates leader_0 .. leader_{n-1}. role: 0 = PRIMUS names his Primus "
            "Augustus, 1 = SECONDUS names his Usurper; case: the succession case (4 or 5); dead: the dead "
            "Augustus' index; zone_i: the candidate's zone as its position in `zones`",
    builtins={"best": Builtin(0, "the highest PC (initiative for an Augustus; step C and rallies for a Usurper), "
                                 "then the highest CC, SR, TB, then the first in the list"),
              "random": Builtin(1, "uniformly among the candidates (one die, rolled only when there are two or "
                                   "more)")},
    default="best", candidates=24)  # a leader index (empire.MAX_LEADERS)

EMPEROR_TIE = DecisionPoint(
    "tie", "D8",
    "The controller's pick between two leaders the rules leave tied: the two Caesars of succession case 3 equal "
    "in CC, SR and TB (asked only with tiebreak_final = controller, SV-A13), or the two living Usurpers of a "
    "successful double usurpation with equal PC (seed 3.6, 'the player chooses').",
    state=("context", "a", "b", "pc_a", "pc_b", "cc_a", "cc_b", "sr_a", "sr_b", "tb_a", "tb_b"),
    actions="a or b, the index of the leader who takes the senior title (context: 0 succession case 3, 1 double "
            "usurpation)",
    builtins={"best": Builtin(0, "the higher PC, then CC, SR, TB, then a (the first in the list)"),
              "random": Builtin(1, "either with probability 1/2 (one d2 from the game's stream)")},
    default="best", candidates=24)  # a leader index (empire.MAX_LEADERS)

SUCCESSION_POINTS = (SUCCESSION_GENERAL, EMPEROR_TIE)
SUCC_DP_GENERAL, SUCC_DP_TIE = range(2)
USURPATION_POINTS = (USURPATION_TARGET, USURPATION_DIOCESE, EMPEROR_TIE)
USURP_DP_TARGET, USURP_DP_DIOCESE, USURP_DP_TIE = range(3)
SV_RANDOM = 1  # the built-in code of `random` at D5-D8


@njit(cache=True)
def _random_pick(stream, n):
    return rng.dn(stream, n) - 1 if n > 1 else 0


@njit(cache=True)
def decide_usurpation_target(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    n = state[TGT_N]
    if code == SV_RANDOM:
        return state[TGT_LEADER + _random_pick(stream, n)]
    best = 0
    for i in range(1, n):
        if state[TGT_PC + i] > state[TGT_PC + best] or (
                state[TGT_PC + i] == state[TGT_PC + best] and state[TGT_PIECES + i] > state[TGT_PIECES + best]):
            best = i
    return state[TGT_LEADER + best]


@njit(cache=True)
def decide_usurpation_diocese(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    n = state[DIO_N]
    if code == SV_RANDOM:
        return state[DIO_LIST + _random_pick(stream, n)]
    best = 0
    for i in range(1, n):
        if state[DIO_GAIN + i] > state[DIO_GAIN + best]:
            best = i
    return state[DIO_LIST + best]


@njit(cache=True)
def decide_succession_general(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    n = state[GEN_N]
    if code == SV_RANDOM:
        return state[GEN_LEADER + _random_pick(stream, n)]
    best = 0
    for i in range(1, n):
        for row in (GEN_PC, GEN_CC, GEN_SR, GEN_TB):
            if state[row + i] != state[row + best]:
                if state[row + i] > state[row + best]:
                    best = i
                break
    return state[GEN_LEADER + best]


@njit(cache=True)
def decide_emperor_tie(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    if code == SV_RANDOM:
        return state[TIE_A] if rng.dn(stream, 2) == 1 else state[TIE_B]
    for row in (TIE_PC, TIE_CC, TIE_SR, TIE_TB):
        if state[row] != state[row + 1]:
            return state[TIE_A] if state[row] > state[row + 1] else state[TIE_B]
    return state[TIE_A]
# ------------------------------------------------------------------ battle: PROPOSAL P8 (spec 3.2) and D14


BATTLE_MAX_UNITS = 6  # per side
BATTLE_MAX_LEADERS = 4  # per side
BATTLE_MAX_ZONES = 4  # retreat zones per side
BATTLE_ROLES = ("general", "caesar", "augustus", "usurper", "civil_war", "dux")
ROLE_GENERAL, ROLE_CAESAR, ROLE_AUGUSTUS, ROLE_USURPER, ROLE_CIVIL_WAR, ROLE_DUX = range(6)

# D14 losses state: six scalars, then one block of LOSS_FIELDS per unit slot of the side
LOSS_FIELDS = ("alive", "weakened", "sp", "full_sp", "weak_sp", "qu", "tb", "eligible")
LOSS_UNIT0 = 6
LOSS_STATE_SIZE = LOSS_UNIT0 + len(LOSS_FIELDS) * BATTLE_MAX_UNITS
# D14 retreat state: five scalars, then RETREAT_UNIT_FIELDS per unit slot, then RETREAT_LEADER_FIELDS per leader
RETREAT_UNIT_FIELDS = ("alive", "sp", "barred")
RETREAT_LEADER_FIELDS = ("leader_alive", "leader_barred", "leader_role")
RETREAT_UNIT0 = 5
RETREAT_LEADER0 = RETREAT_UNIT0 + len(RETREAT_UNIT_FIELDS) * BATTLE_MAX_UNITS
RETREAT_STATE_SIZE = RETREAT_LEADER0 + len(RETREAT_LEADER_FIELDS) * BATTLE_MAX_LEADERS
# D14 commander state: three scalars, then COMMANDER_FIELDS per leader of the side
COMMANDER_FIELDS = ("tb", "cc", "sr", "role")
COMMANDER_LEADER0 = 3
COMMANDER_STATE_SIZE = COMMANDER_LEADER0 + len(COMMANDER_FIELDS) * BATTLE_MAX_LEADERS
# the battle hook's state: the battle's four tables in one buffer (romesim.semper_victor.battle reads them back as
# tables with battle_tables): the context, the result, the two row counts, then the unit rows and the leader rows
HOOK_CONTEXT_FIELDS = ("attacker", "threshold", "dice", "pursuit", "death_from", "civil_kills", "commander_choice",
                       "zones_0", "zones_1", "losses_code", "retreat_code", "commander_code")
HOOK_OUT_FIELDS = ("winner", "hits_0", "hits_1", "error")
HOOK_UNIT_FIELDS = ("side", "sp", "qu", "tb", "weak_sp", "weak_qu", "weak_tb", "barred", "weakened", "alive",
                    "retreated")
HOOK_LEADER_FIELDS = ("side", "tb", "cc", "sr", "role", "barred", "alive", "retreated", "commander")
HOOK_CONTEXT = 0
HOOK_OUT = HOOK_CONTEXT + len(HOOK_CONTEXT_FIELDS)
HOOK_UNITS = HOOK_OUT + len(HOOK_OUT_FIELDS)  # the number of unit rows, then of leader rows
HOOK_LEADERS = HOOK_UNITS + 1
HOOK_UNIT0 = HOOK_LEADERS + 1
HOOK_LEADER0 = HOOK_UNIT0 + len(HOOK_UNIT_FIELDS) * 2 * BATTLE_MAX_UNITS
HOOK_STATE_SIZE = HOOK_LEADER0 + len(HOOK_LEADER_FIELDS) * 2 * BATTLE_MAX_LEADERS


def _slots(fields, n):
    return tuple(f"{f}_{i}" for i in range(n) for f in fields)


def _rows(prefix, fields, n):
    return tuple(f"{prefix}{i}_{f}" for i in range(n) for f in fields)


BATTLE_HOOK = DecisionPoint(
    "battle", "PROPOSAL P8 (spec 3.2)",
    "The battle procedure itself. Section 8 of the published rules was not found: the only built-in, "
    "`p8_proposal`, is the specification's PROPOSAL P8, not a rule of the game. A user @njit function "
    "fn(state, params, stream) replaces it: `state` holds the battle's tables (context, out, then the unit and "
    "leader rows), which romesim.semper_victor.battle.battle_tables(state) returns as the arrays (units, leaders, "
    "context, out) documented there. It plays one battle by changing the `weakened`, `alive` and `retreated` "
    "columns of `units`, the `alive`, `retreated` and `commander` columns of `leaders`, and writing `out` "
    "(winner side, hits per side); its return value is ignored.",
    state=HOOK_CONTEXT_FIELDS + HOOK_OUT_FIELDS + ("units", "leaders")
    + _rows("unit", HOOK_UNIT_FIELDS, 2 * BATTLE_MAX_UNITS)
    + _rows("leader", HOOK_LEADER_FIELDS, 2 * BATTLE_MAX_LEADERS),
    actions="a battle result the tables cannot hold stops the run; the action reported locates the first bad "
            "entry: 100 * row + column of `units`, 10000 + 100 * row + column of `leaders`, 20000 + index of "
            "`out` (a changed rating, a state outside 0/1, a unit or leader brought back, a winner other than "
            "side 0 or 1, negative hits, or out[error] set)",
    builtins={"p8_proposal": Builtin(0, "PROPOSAL P8 — not from the published rules: one round of simultaneous "
                                        "d10 fire, hits as steps, loser by hits then SP then the attacker, "
                                        "retreat, loser's leaders die on a 9 (spec 3.2)")},
    default="p8_proposal", hook=True)

BATTLE_LOSSES = DecisionPoint(
    "losses", "D14 (P8.4)",
    "Which unit takes a hit (PROPOSAL P8.4): a full unit is weakened, a weakened one eliminated. Asked once per "
    "hit, for the attacker's losses first, then the defender's; surplus hits (no unit left) are lost. With "
    "p8_pursuit the winner's pursuit hits are asked too (pursuit = 1), only retreated units being eligible.",
    state=("side", "attacker", "hits_left", "hits_total", "pursuit", "units")
    + _slots(LOSS_FIELDS, BATTLE_MAX_UNITS),
    actions="i = the index (0-based, in the side's unit list) of a unit with eligible_i = 1 (alive, and retreated "
            "under pursuit). side: 0 or 1; attacker: 1 if that side attacks; hits_left: this hit included; "
            "sp, qu, tb: the unit's current face; full_sp, weak_sp: its two faces' SP",
    builtins={"preserve_sp": Builtin(0, "the step that costs the fewest SP (a full unit: SP - weakened SP; a "
                                        "weakened one: its SP), a full unit before a weakened one at equal cost, "
                                        "then the first in the list"),
              "weakest_first": Builtin(1, "the unit with the lowest current SP (the first in the list among "
                                          "equals): losses concentrate on the weak units"),
              "strongest_first": Builtin(2, "the unit with the highest current SP (the first among equals)"),
              "random": Builtin(3, "uniformly among the eligible units (one die of as many faces per hit)")},
    default="preserve_sp", candidates=BATTLE_MAX_UNITS)

BATTLE_RETREAT = DecisionPoint(
    "retreat", "D14 (P8.6)",
    "The zone the loser's surviving units and leaders retreat into together (PROPOSAL P8.6), among its side's "
    "retreat zones; a piece barred from that zone is eliminated (a leader killed). Asked when the loser has "
    "survivors and at least one retreat zone (with none, every survivor is lost).",
    state=("side", "attacker", "zones", "units", "leaders") + _slots(RETREAT_UNIT_FIELDS, BATTLE_MAX_UNITS)
    + _slots(RETREAT_LEADER_FIELDS, BATTLE_MAX_LEADERS),
    actions="z = a zone index 0 .. zones-1. barred_i, leader_barred_j: bit z set = that piece may not enter "
            "zone z; sp_i: the unit's current SP; leader_role_j: 0 general, 1 caesar, 2 augustus, 3 usurper, "
            "4 civil_war, 5 dux",
    builtins={"safest": Builtin(0, "the zone that loses the fewest leaders, then the fewest SP, then the lowest "
                                   "index"),
              "first": Builtin(1, "always zone 0"),
              "random": Builtin(2, "uniformly among the zones (one die of `zones` faces)")},
    default="safest", candidates=BATTLE_MAX_ZONES)

BATTLE_COMMANDER = DecisionPoint(
    "commander", "D14 (P8.2)",
    "The leader commanding a side, whose TB is added to every unit's threshold (PROPOSAL P8.2). Asked only with "
    "p8_commander = choice, for each side with a leader, the attacker first; otherwise P8.2's own rule applies "
    "(the built-in best_tb).",
    state=("side", "attacker", "leaders") + _slots(COMMANDER_FIELDS, BATTLE_MAX_LEADERS),
    actions="j = the index (0-based, in the side's leader list) of one of its leaders (j < leaders); role_j as in "
            "`retreat`",
    builtins={"best_tb": Builtin(0, "P8.2: the highest TB, then CC, then SR, then the first in the list"),
              "random": Builtin(1, "uniformly among the side's leaders (one die of `leaders` faces)")},
    default="best_tb", candidates=BATTLE_MAX_LEADERS)

BATTLE_POINTS = (BATTLE_HOOK, BATTLE_LOSSES, BATTLE_RETREAT, BATTLE_COMMANDER)
BATTLE_DP_HOOK, BATTLE_DP_LOSSES, BATTLE_DP_RETREAT, BATTLE_DP_COMMANDER = range(4)
LOSSES_RANDOM = 3
RETREAT_RANDOM = 2
COMMANDER_RANDOM = 1


# Each point's decide asks the user's function (``call``), else its built-in (``builtin_*``), which takes no slots:
# compiled once, for every variant of the kernel, a first user bot's variant loads it from the cache
@njit(cache=True)
def decide_battle_losses(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    return builtin_battle_losses(code, params, state, stream)


@njit(cache=True, inline="llvm")
def builtin_battle_losses(code, params, state, stream):
    n = state[5]
    if code == LOSSES_RANDOM:
        eligible = 0
        for i in range(n):
            eligible += state[LOSS_UNIT0 + 8 * i + 7]
        k = rng.dn(stream, eligible)
        for i in range(n):
            if state[LOSS_UNIT0 + 8 * i + 7]:
                k -= 1
                if k == 0:
                    return i
        return -1
    best, best_a, best_b = -1, 0, 0
    for i in range(n):
        base = LOSS_UNIT0 + 8 * i
        if not state[base + 7]:
            continue
        weakened = state[base + 1]
        if code == 0:
            a = state[base + 4] if weakened else state[base + 3] - state[base + 4]
            b = weakened  # at equal cost, keep the unit alive
        elif code == 1:
            a, b = state[base + 2], 0
        else:
            a, b = -state[base + 2], 0
        if best < 0 or a < best_a or (a == best_a and b < best_b):
            best, best_a, best_b = i, a, b
    return best


@njit(cache=True)
def decide_battle_retreat(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    return builtin_battle_retreat(code, params, state, stream)


@njit(cache=True, inline="llvm")
def builtin_battle_retreat(code, params, state, stream):
    zones = state[2]
    if code == 1:
        return 0
    if code == RETREAT_RANDOM:
        return rng.dn(stream, zones) - 1
    best, best_leaders, best_sp = -1, 0, 0
    for z in range(zones):
        leaders_lost, sp_lost = 0, 0
        for i in range(state[3]):
            base = RETREAT_UNIT0 + 3 * i
            if state[base] and (state[base + 2] >> z) & 1:
                sp_lost += state[base + 1]
        for j in range(state[4]):
            base = RETREAT_LEADER0 + 3 * j
            if state[base] and (state[base + 1] >> z) & 1:
                leaders_lost += 1
        if best < 0 or leaders_lost < best_leaders or (leaders_lost == best_leaders and sp_lost < best_sp):
            best, best_leaders, best_sp = z, leaders_lost, sp_lost
    return best


@njit(cache=True)
def decide_battle_commander(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    return builtin_battle_commander(code, params, state, stream)


@njit(cache=True, inline="llvm")
def builtin_battle_commander(code, params, state, stream):
    n = state[2]
    if code == COMMANDER_RANDOM:
        return rng.dn(stream, n) - 1
    best = -1
    for j in range(n):
        base = COMMANDER_LEADER0 + 4 * j
        if best < 0:
            best = j
            continue
        top = COMMANDER_LEADER0 + 4 * best
        for f in range(3):  # TB, then CC, then SR
            if state[base + f] != state[top + f]:
                if state[base + f] > state[top + f]:
                    best = j
                break
    return best
