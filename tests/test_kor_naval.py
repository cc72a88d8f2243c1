"""KoR 5.8 naval battle: exact values worked by hand from the rules, Monte Carlo against exact, kernel against
reference, and a user targeting policy (DP-N01).

Every expected fraction below is derived in its comment from the rule text (spec section 2.6, KOR-A41), not taken
from the code's output. A ship sinks an enemy ship when its die exceeds that ship's Virtus (C1); Roman dice get +1
with the Good Omen (KOR-A58); at most three rounds, the hits of a round landing together; Roman victory +2 IP +1 VP,
defeat (every Roman ship sunk, or both fleets afloat after three rounds, or by default both sunk) -2 VP.
"""
import time
from fractions import Fraction as F

import numpy as np
import pytest
from numba import njit

import romesim
from helpers import assert_matches_exact, assert_reference_equal
from romesim.kings_of_rome.policies import NAVAL_TARGET

NAVAL = "kings_of_rome.naval"


def exact(policies=None, **params):
    return romesim.exact(romesim.scenario(NAVAL, **params), policies=policies).exact_values


# ------------------------------------------------------------------ 1 v 1 and 2 v 1 by hand (KoR 5.8)
def test_one_against_one():
    # Roman V3 vs NR V3: each hits on 4-6, 1/2. A round: Roman only 1/4 (win), NR only 1/4 (loss), both 1/4
    # (mutual wipe: loss by default, KOR-A41), nobody 1/4 (next round). Three rounds at most:
    # win = 1/4 (1 + 1/4 + 1/16) = 21/64, each kind of sinking the same, both afloat at the end (1/4)^3 = 1/64
    e = exact(roman=[3], nr=[3])
    assert e["p_win"] == F(21, 64)
    assert e["p_loss"] == F(21, 64) + F(21, 64) + F(1, 64)
    assert e["ip"] == 2 * F(21, 64)
    assert e["vp"] == F(21, 64) - 2 * F(43, 64)
    # a ship is sunk when the other's die hits in a round that is fought: 1/2 (1 + 1/4 + 1/16)
    assert e["roman_ships_lost"] == e["nr_ships_lost"] == F(21, 32)
    assert e["rounds"] == 1 + F(1, 4) + F(1, 16)


def test_kor_a41_mutual_wipe_no_result():
    # the 21/64 of mutual wipes are no longer defeats: p_loss = 21/64 + 1/64; VP = 21/64 - 2 * 22/64
    e = exact(roman=[3], nr=[3], naval_mutual_wipe="no_result")
    assert e["p_loss"] == F(22, 64)
    assert e["vp"] == F(21, 64) - 2 * F(22, 64)
    assert e["p_win"] == F(21, 64)


def test_good_omen_on_every_roman_die():
    # Roman d6 + 1 > 3 -> 2/3, NR 1/2: a round is won 2/3 * 1/2 = 1/3 and goes on (1/3) * (1/2) = 1/6:
    # win = 1/3 (1 + 1/6 + 1/36) = 43/108
    assert exact(roman=[3], nr=[3], good_omen=True)["p_win"] == F(43, 108)


def test_two_against_one():
    # Roman [3, 3] vs NR [3] (spread cycles both Roman ships onto the one NR ship): the NR ship sinks with
    # 1 - (1/2)^2 = 3/4; the one NR die sinks a Roman ship with 1/2, so one Roman ship always survives round 1.
    # W(r, k) = P(win) with r Roman ships and k rounds left: W(1, k) = 1/4 + 1/4 W(1, k-1) (win when Rome hits
    # and the NR misses; go on when both miss), W(2, k) = 3/4 + 1/4 (1/2 W(2, k-1) + 1/2 W(1, k-1)).
    # W(1, 1) = 1/4, W(1, 2) = 5/16, W(2, 1) = 3/4, W(2, 2) = 3/4 + 1/4 * 1/2 = 7/8,
    # W(2, 3) = 3/4 + 1/4 (7/16 + 5/32) = 115/128
    e = exact()  # the defaults are this fleet
    assert e["p_win"] == F(115, 128)
    assert e["p_loss"] == F(13, 128)
    # the battle goes on after round 1 with 1/4, after round 2 with 1/8 * 1/4 + 1/8 * 1/4 = 1/16
    assert e["rounds"] == 1 + F(1, 4) + F(1, 16)
    # one NR die per round fought: 1/2 (1 + 1/4 + 1/16)
    assert e["roman_ships_lost"] == F(21, 32)
    # mutual wipes need a lone Roman ship: in round 2 (1/8) * 1/4 = 1/32; in round 3 the lone ships come from
    # [3, 3] (1/8 * 1/4 * 1/2 = 1/64) and [3] (1/8 * 1/4 = 1/32), times 1/4: 3/256. Total 11/256
    assert e["nr_ships_lost"] == F(115, 128) + F(11, 256)
    assert exact(naval_mutual_wipe="no_result")["p_loss"] == F(13, 128) - F(11, 256)


# ------------------------------------------------------------------ DP-N01 targets
def test_dp_n01_spread_focus_random():
    # Roman [6, 6] can never be hit (d6 > 6), NR [3, 3]: each Roman shot hits with 1/2; Rome wins iff both NR
    # ships sink within three rounds.
    # spread: two afloat -> each takes one: 0 left 1/4, 1 left 1/2, 2 left 1/4; one afloat -> both fire at it: 3/4.
    # S(1, k) = 1 - (1/4)^k; S(2, 1) = 1/4; S(2, 2) = 1/4 + 1/2 * 3/4 + 1/4 * 1/4 = 11/16;
    # S(2, 3) = 1/4 + 1/2 * 15/16 + 1/4 * 11/16 = 57/64
    base = dict(roman=[6, 6], nr=[3, 3])
    assert exact(**base)["p_win"] == F(57, 64)
    # focus: one sinking per round with 3/4; two in three rounds: 1 - (1/4)^3 - 3 * 3/4 * (1/4)^2 = 27/32
    assert exact({"target": "focus"}, **base)["p_win"] == F(27, 32)
    # random: the two Roman ships pick the same ship with 1/2 (one sinks with 3/4) or different ones (as spread):
    # from two afloat, 0 left 1/8, 1 left 1/4 + 3/8 = 5/8, 2 left 1/4. R(2, 1) = 1/8,
    # R(2, 2) = 1/8 + 5/8 * 3/4 + 1/4 * 1/8 = 5/8, R(2, 3) = 1/8 + 5/8 * 15/16 + 1/4 * 5/8 = 111/128
    assert exact({"target": "random"}, **base)["p_win"] == F(111, 128)
    # Rome never loses a ship, so every other outcome is an NR ship afloat after three rounds: 1 - p_win
    assert exact(**base)["p_loss"] == F(7, 64) and exact(**base)["roman_ships_lost"] == 0


# ------------------------------------------------------------------ KOR-A41 leader bonus (C3 rerolls)
def test_kor_a41_rerolls_one_pool_for_the_battle():
    # Roman [3] vs [3], Astutia 1: round 1 hits with 1 - (1/2)^2 = 3/4 using the reroll when needed; the NR hits
    # 1/2. Win in round 1: 3/4 * 1/2 = 3/8. Going on (1/4 * 1/2 = 1/8) means the reroll is spent: then
    # 1/4 + 1/4 * 1/4 = 5/16 as without Astutia. Total 3/8 + 1/8 * 5/16 = 53/128
    assert exact(roman=[3], nr=[3], roman_astutia=1)["p_win"] == F(53, 128)
    # additive_astutia: d6 + 1 > 3 on every Roman die, like the Good Omen: 43/108
    assert exact(roman=[3], nr=[3], roman_astutia=1, naval_leader_bonus="additive_astutia")["p_win"] == F(43, 108)


def test_rerolls_last_across_rounds_and_are_kept_when_no_face_can_win():
    # Roman [6] (never hit) vs NR [6] with the Good Omen: only a 6 hits (1/6). One reroll per failed die (5.7.9):
    # two dice in each of the three rounds, six dice in all, win = 1 - (5/6)^6; round 2 after two misses, round 3
    # after four
    e = exact(roman=[6], nr=[6], roman_astutia=3, good_omen=True)
    assert e["p_win"] == 1 - F(5, 6) ** 6
    assert e["rounds"] == 1 + F(5, 6) ** 2 + F(5, 6) ** 4
    # chained: the three rerolls go on the first round's die, then one die per round: six dice again
    e = exact(roman=[6], nr=[6], roman_astutia=3, good_omen=True, astutia_reroll="chained")
    assert e["p_win"] == 1 - F(5, 6) ** 6
    assert e["rounds"] == 1 + F(5, 6) ** 4 + F(5, 6) ** 5
    # without the omen no face can hit: no reroll helps, Rome loses after three rounds
    e = exact(roman=[6], nr=[6], roman_astutia=3)
    assert (e["p_win"], e["p_loss"], e["rounds"], e["vp"]) == (0, 1, 3, -2)
    # additive Astutia 3: d6 + 3 > 6 with 1/2 per round: 1 - (1/2)^3
    assert exact(roman=[6], nr=[6], roman_astutia=3, naval_leader_bonus="additive_astutia")["p_win"] == F(7, 8)


def test_5_7_9_a_die_is_rerolled_at_most_once():
    """KoR 5.7.9: « Les chefs peuvent affecter de 1 à 3 attaques, en fonction de leur valeur d'Astutia, en
    permettant à l'une de leurs unités de relancer les Dés » (leaders may affect 1 to 3 attacks, according to their
    Astutia, by letting one of their units reroll the dice): one point, one attack, so a missed Roman die is
    rerolled once (KOR-A22 astutia_reroll = once); chained rerolls it again while points last."""
    # Roman [3] vs NR [3], Astutia 2: each die hits on 4-6 (1/2), the NR die too. W(k, r): P(win) with k points
    # and r rounds left. With a point the Roman shot hits 3/4: win now 3/4 * 1/2, go on (1/4 * 1/2) with a point
    # fewer; without one 1/4 and 1/4 * 1/4 (W(0, 2) = 5/16, W(0, 1) = 1/4).
    # once: W(1, 2) = 3/8 + 1/8 * 1/4 = 13/32, W(2, 3) = 3/8 + 1/8 * 13/32 = 109/256
    assert exact(roman=[3], nr=[3], roman_astutia=2)["p_win"] == F(109, 256)
    # chained: round 1 hits 1 - (1/2)^3 = 7/8 and a round-1 miss spends both points: 7/16 + 1/16 * 5/16 = 117/256
    assert exact(roman=[3], nr=[3], roman_astutia=2, astutia_reroll="chained")["p_win"] == F(117, 256)
    # one point: the readings agree (53/128, test above)
    assert exact(roman=[3], nr=[3], roman_astutia=1, astutia_reroll="chained")["p_win"] == F(53, 128)
    # additive_astutia has no rerolls: the option changes nothing
    additive = dict(roman=[3, 3], nr=[4, 4], roman_astutia=3, naval_leader_bonus="additive_astutia")
    assert exact(**additive) == exact(**additive, astutia_reroll="chained")


def test_kor_a41_troops_option_changes_nothing():
    # a single value, accepted; no troops are modelled aboard
    assert exact(naval_troops_on_sunk_ship="eliminated_c4") == exact()


def test_largest_exact_case_is_fast():
    # 6 v 6 ships of six different Virtus, random targets, three rerolls: about 2 s alone on one core
    scenario = romesim.scenario(NAVAL, roman=[1, 2, 3, 4, 5, 6], nr=[6, 5, 4, 3, 2, 1], roman_astutia=3,
                                good_omen=True)
    start = time.perf_counter()
    e = romesim.exact(scenario, policies={"target": "random"}).exact_values
    assert time.perf_counter() - start < 30
    assert e["p_win"] + e["p_loss"] == 1
    assert 0 < e["p_win"] < 1 and 1 <= e["rounds"] <= 3


# ------------------------------------------------------------------ validation
@pytest.mark.parametrize("params, words", [
    (dict(roman=[]), r"roman: \[\] is not allowed"),
    (dict(nr=[3] * 7), "nr: "),
    (dict(roman=[0, 3]), r"roman: \[0, 3\]"),
    (dict(nr=[3, 7]), r"nr: \[3, 7\]"),
    (dict(roman=3), "roman: 3"),
    (dict(roman_astutia=4), "roman_astutia: 4"),
    (dict(good_omen="yes"), "good_omen: 'yes'"),
    (dict(naval_leader_bonus="plus"), "naval_leader_bonus: 'plus'"),
    (dict(naval_mutual_wipe="draw"), "naval_mutual_wipe: 'draw'"),
    (dict(naval_troops_on_sunk_ship="captured"), "naval_troops_on_sunk_ship: 'captured'"),
    (dict(astutia_reroll="twice"), "astutia_reroll: 'twice'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(NAVAL, **params)


def test_unknown_parameter():
    with pytest.raises(romesim.ScenarioError, match="unknown parameter 'spolia_round_mode'"):
        romesim.scenario(NAVAL, spolia_round_mode="simultaneous_repeat")


# ------------------------------------------------------------------ a user DP-N01 policy
# one module-level function serves every test (compiled once per process); params[0] is the mode
CHECKED_FOCUS, CHECKED_SPREAD, CONSTANT = range(3)
BAD_STATE = 100


@njit
def aim(state, params, stream):
    """CHECKED_*: check the documented state vector (params[1] = die_bonus, params[2] = rerolls at the start),
    then play like the built-in focus / spread; CONSTANT: always the NR ship params[1]."""
    if params[0] == CONSTANT:
        return int(params[1])
    nr_afloat, roman_afloat = 0, 0
    for i in range(6):
        nr_afloat += state[7 + i] > 0
        roman_afloat += state[13 + i] > 0
    if state[0] < 1 or state[0] > 3 or state[3] != roman_afloat or state[4] != nr_afloat:
        return BAD_STATE
    if state[13 + state[1]] == 0 or state[2] < 0 or state[2] >= state[3] or state[2] > state[1]:
        return BAD_STATE + 1
    if state[5] != params[1] or state[6] < 0 or state[6] > params[2]:
        return BAD_STATE + 2
    want = 0 if params[0] == CHECKED_FOCUS else state[2] % nr_afloat
    for i in range(6):
        v = state[7 + i]
        if v == 0:
            continue
        place = 0
        for j in range(6):
            w = state[7 + j]
            if w > 0 and (w < v or (w == v and j < i)):
                place += 1
        if place == want:
            return i
    return BAD_STATE + 3


USER = dict(roman=[2, 4, 4, 1], nr=[3, 1, 3, 5, 2], roman_astutia=2, good_omen=True)


@pytest.mark.parametrize("mode, builtin", [(CHECKED_FOCUS, "focus"), (CHECKED_SPREAD, "spread")])
def test_user_njit_policy_plays_like_the_builtin(mode, builtin):
    scenario = romesim.scenario(NAVAL, **USER)
    mine = romesim.simulate(scenario, 20_000, seed=11, keep=True, policies={"target": (aim, [mode, 1, 2])})
    theirs = romesim.simulate(scenario, 20_000, seed=11, keep=True, policies={"target": builtin})
    np.testing.assert_array_equal(mine.outcomes.to_numpy(), theirs.outcomes.to_numpy())


@pytest.mark.parametrize("ship", [5, -1, 1])
def test_illegal_target_is_a_policy_error(ship):
    # 5: no such ship (five NR ships: 0..4); -1; 1: the V1 ship, sunk in most games long before round 3
    scenario = romesim.scenario(NAVAL, **USER)
    with pytest.raises(romesim.PolicyError, match=rf"'target' \(DP-N01\): illegal action {ship}"):
        romesim.simulate(scenario, 20_000, seed=3, policies={"target": (aim, [CONSTANT, ship])})


# ------------------------------------------------------------------ Monte Carlo vs exact, kernel vs reference
SETTINGS = [
    dict(),
    dict(roman=[3], nr=[3], naval_mutual_wipe="no_result"),
    dict(roman=[2, 5], nr=[4, 1, 3], roman_astutia=2),
    dict(roman=[1, 2, 3, 4, 5, 6], nr=[6, 5, 4, 3, 2, 1], roman_astutia=3, good_omen=True),
    dict(roman=[4, 4, 2], nr=[2, 2, 5, 3], roman_astutia=2, naval_leader_bonus="additive_astutia",
         naval_mutual_wipe="no_result"),
    # one Roman ship sinks at most three NR ships in three rounds: never a victory (exactly 0)
    dict(roman=[5], nr=[1, 1, 1, 1, 1, 1], roman_astutia=1, good_omen=True),
    # KOR-A22 astutia_reroll, both readings
    dict(roman=[3, 3], nr=[4, 4], roman_astutia=3),
    dict(roman=[3, 3], nr=[4, 4], roman_astutia=3, astutia_reroll="chained"),
]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(NAVAL, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=2024), romesim.exact(scenario))


@pytest.mark.parametrize("policy", ["focus", "random"])
@pytest.mark.parametrize("params", [SETTINGS[2], SETTINGS[3], SETTINGS[4],
                                    dict(roman=[3, 3, 2, 3], nr=[2, 3], roman_astutia=1)])
def test_monte_carlo_within_5_sigma_of_exact_each_policy(params, policy):
    scenario = romesim.scenario(NAVAL, **params)
    policies = {"target": policy}
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=99, policies=policies),
                         romesim.exact(scenario, policies=policies))


@pytest.mark.parametrize("policy", ["spread", "focus", "random"])
@pytest.mark.parametrize("params", SETTINGS)
def test_kernel_equals_reference_game_by_game(params, policy):
    assert_reference_equal(romesim.scenario(NAVAL, **params), policies={"target": policy})


# ------------------------------------------------------------------ the DP-N01 state read by its documented names
ROUND, SHOOTER, RANK, ROMAN_AFLOAT, NR_AFLOAT, DIE_BONUS, REROLLS_LEFT = (
    NAVAL_TARGET.state.index(name)
    for name in ("round", "shooter", "rank", "roman_afloat", "nr_afloat", "die_bonus", "rerolls_left"))
NR_VIRTUS = np.array([NAVAL_TARGET.state.index(f"nr_virtus_{i}") for i in range(6)])
ROMAN_VIRTUS = np.array([NAVAL_TARGET.state.index(f"roman_virtus_{i}") for i in range(6)])


@njit
def spread_by_name(state, params, stream):
    """The built-in `spread`; 99 unless the state is consistent, die_bonus is params[0] and rerolls_left at most
    params[1]."""
    nr_afloat, roman_afloat = 0, 0
    for i in range(6):
        nr_afloat += state[NR_VIRTUS[i]] > 0
        roman_afloat += state[ROMAN_VIRTUS[i]] > 0
    if state[ROUND] < 1 or state[ROUND] > 3 or state[ROMAN_AFLOAT] != roman_afloat or state[NR_AFLOAT] != nr_afloat:
        return 99
    if state[ROMAN_VIRTUS[state[SHOOTER]]] == 0 or state[RANK] < 0 or state[RANK] > state[SHOOTER]:
        return 99
    if state[DIE_BONUS] != params[0] or state[REROLLS_LEFT] < 0 or state[REROLLS_LEFT] > params[1]:
        return 99
    want = state[RANK] % nr_afloat  # the place in the order of Virtus, then list index
    for i in range(6):
        v = state[NR_VIRTUS[i]]
        if v == 0:
            continue
        place = 0
        for j in range(6):
            w = state[NR_VIRTUS[j]]
            if w > 0 and (w < v or (w == v and j < i)):
                place += 1
        if place == want:
            return i
    return 99


def test_user_function_reading_the_state_by_name_plays_like_spread():
    scenario = romesim.scenario(NAVAL, roman=[2, 4, 4, 1], nr=[3, 1, 3, 5, 2], roman_astutia=2, good_omen=True)
    user = romesim.simulate(scenario, 2000, seed=7, keep=True, policies={"target": (spread_by_name, [1, 2])})
    ours = romesim.simulate(scenario, 2000, seed=7, keep=True, policies={"target": "spread"})
    np.testing.assert_array_equal(user.outcomes.to_numpy(), ours.outcomes.to_numpy())
