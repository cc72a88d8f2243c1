"""KoR 9.3.7.2 Horatii and Curiatii: WE-3, hand-derived values, KOR-A45, DP-H03, Monte Carlo against exact, kernel
against reference, validation and a user targeting policy.

Expected fractions are worked in the comments from the rule text (spec 2.9, WE-3; a die eliminates its target iff
d6 >= Virtus, C1), not taken from the code's output. p = Alba's chance to hit a Roman, q = Rome's to hit a Latin.
"""
import time
from fractions import Fraction as F

import numpy as np
import pytest
from numba import njit

import romesim
from helpers import assert_matches_exact, assert_reference_equal
from romesim.core import rng
from romesim.kings_of_rome.policies import HORATII_TARGET

HORATII = "kings_of_rome.horatii"


def exact(policies=None, **params):
    return romesim.exact(romesim.scenario(HORATII, **params), policies=policies).exact_values


# ------------------------------------------------------------------ WE-3 (spec section 6)
def test_we3_kor_9_3_7_2_three_v3_against_three_v2_alba_first():
    # p = P(d6 >= 3) = 2/3, q = P(d6 >= 2) = 5/6; Rome wins iff its 3rd hit comes before Alba's 3rd
    assert exact()["p_win"] == F(778625, 1419857)


def test_we3_one_against_one():
    # Alba first: Rome wins iff Alba misses, then Rome hits, before the reverse: (1-p) q / (1 - (1-p)(1-q))
    # = (1/3 * 5/6) / (17/18) = 5/17. The game lasts k shots with P(T >= k) = 1, 1/3, 1/3 * 1/6, ... so
    # E[shots] = (1 + 1/3) / (1 - 1/18) = 24/17.
    e = exact(roman=[3], latin=[2])
    assert e == {"p_win": F(5, 17), "roman_survivors": F(5, 17), "latin_survivors": F(12, 17), "shots": F(24, 17)}


def test_we3_symmetric_virtus_3():
    # p = q = 2/3, Alba first: 197/512
    assert exact(roman=[3, 3, 3], latin=[3, 3, 3])["p_win"] == F(197, 512)


def test_we3_kor_a45_volley():
    # every surviving unit rolls each turn; a hit removes its target before the next die (not simultaneous)
    assert exact(duel_alternation="volley")["p_win"] == F(24944373011242894625, 123474841364020382369)


# ------------------------------------------------------------------ `first` and KOR-A45
def test_rome_first_one_against_one():
    # Rome first: q / (1 - (1-p)(1-q)) = (5/6) / (17/18) = 15/17
    assert exact(roman=[3], latin=[2], first="rome")["p_win"] == F(15, 17)


def test_kor_a45_volley_is_single_shot_with_one_unit_a_side():
    for first in ("alba", "rome"):
        assert exact(roman=[4], latin=[5], first=first, duel_alternation="volley") == exact(
            roman=[4], latin=[5], first=first)


def test_kor_a45_volley_with_certain_hits():
    # Virtus 1 is hit by every face. Rome first, two against two: a volley of two dice kills both Latins
    # (2 shots, both Romans left); one die per turn: Rome kills one, Alba one, Rome the last (3 shots)
    assert exact(roman=[1, 1], latin=[1, 1], first="rome", duel_alternation="volley") == {
        "p_win": 1, "roman_survivors": 2, "latin_survivors": 0, "shots": 2}
    assert exact(roman=[1, 1], latin=[1, 1], first="rome") == {
        "p_win": 1, "roman_survivors": 1, "latin_survivors": 0, "shots": 3}
    # Alba first with a volley: two dice, two dead Romans
    assert exact(roman=[1, 1], latin=[1, 1], duel_alternation="volley") == {
        "p_win": 0, "roman_survivors": 0, "latin_survivors": 2, "shots": 2}
    # a volley stops when the enemy side is wiped out: three Roman dice, the first kills the only Latin
    assert exact(roman=[1, 1, 1], latin=[1], first="rome", duel_alternation="volley")["shots"] == 1


def test_kor_a45_loser_destination_changes_no_metric():
    for alternation in ("single_shot", "volley"):
        base = dict(roman=[2, 4, 6], latin=[3, 1], duel_alternation=alternation)
        assert exact(**base, duel_loser_destination="opponent_container") == exact(**base)
        a = romesim.simulate(romesim.scenario(HORATII, **base), 5000, seed=3, keep=True).outcomes
        b = romesim.simulate(romesim.scenario(HORATII, **base, duel_loser_destination="opponent_container"),
                             5000, seed=3, keep=True).outcomes
        assert a.equals(b)


# ------------------------------------------------------------------ DP-H03: Rome's target
def test_dp_h03_single_shot_target_changes_only_latin_survivors():
    # Roman [6] (Alba hits on a 6) against Latins [1, 6], Alba first.
    # weakest: Alba's first die (1/6) wins with both Latins alive; else Rome kills the Virtus-1 unit for sure,
    # then a 1 v 1 with p = q = 1/6, Alba first: Rome wins (5/6 * 1/6) / (1 - 25/36) = 5/11.
    # P(win) = 5/6 * 5/11 = 25/66; latin_survivors = 2 * 1/6 + 1 * 5/6 * 6/11 = 26/33.
    # strongest: Rome first needs its 1/6 against the Virtus-6 unit (won first with 5/11, else Alba wins with
    # two Latins), then Alba gets one more die (1/6: Alba wins with one Latin) before Rome's sure kill:
    # P(win) = 5/11 * 5/6 = 25/66; latin_survivors = 2 * 6/11 + 5/11 * 1/6 = 7/6.
    base = dict(roman=[6], latin=[1, 6])
    weakest = exact(**base)
    strongest = exact({"target": "strongest"}, **base)
    assert weakest["p_win"] == strongest["p_win"] == F(25, 66)
    assert weakest["latin_survivors"] == F(26, 33)
    assert strongest["latin_survivors"] == F(7, 6)
    random = exact({"target": "random"}, **base)
    for metric in ("p_win", "roman_survivors", "shots"):
        assert random[metric] == weakest[metric] == strongest[metric]
    assert weakest["latin_survivors"] < random["latin_survivors"] < strongest["latin_survivors"]


def test_dp_h03_volley_target_changes_the_win():
    # Romans [1, 1, 1] (every Latin die kills one) against Latins [1, 6], Rome first, volley.
    # weakest: die 1 kills the Virtus 1; dice 2-3 at the Virtus 6: win 11/36. Else the Latin kills a Roman, two
    # Roman dice: 11/36; else one more Roman dies and the last die wins with 1/6:
    # 11/36 + 25/36 * (11/36 + 25/36 * 1/6) = 4651/7776.
    # strongest: dice at the Virtus 6 until one hits, then the next kills the Virtus 1: dice 1 or 2 hit -> win
    # 11/36; only die 3 hits (25/216) -> the Virtus 1 alone kills one Roman, then dies to the next die;
    # none hits -> two Latin dice kill two Romans, and the last Roman cannot kill both: 11/36 + 25/216 = 91/216.
    base = dict(roman=[1, 1, 1], latin=[1, 6], first="rome", duel_alternation="volley")
    assert exact(**base)["p_win"] == F(4651, 7776)
    assert exact({"target": "strongest"}, **base)["p_win"] == F(91, 216)


# ------------------------------------------------------------------ validation, endless set-ups
@pytest.mark.parametrize("params, words", [
    (dict(roman=[]), r"roman: \[\] is not allowed"),
    (dict(latin=[2] * 7), r"latin: \[2, 2, 2, 2, 2, 2, 2\] is not allowed"),
    (dict(roman=[0, 3]), r"roman: \[0, 3\] is not allowed"),
    (dict(roman=[3, 7]), r"roman: \[3, 7\] is not allowed; expected .* each from 1 to 6"),
    (dict(latin=[9]), r"latin: \[9\] is not allowed"),
    (dict(roman="3,3"), "roman: '3,3' is not allowed"),
    (dict(first="veii"), "first: 'veii' is not allowed"),
    (dict(duel_alternation="both"), "duel_alternation: 'both' is not allowed"),
    (dict(duel_loser_destination="tiber"), "duel_loser_destination: 'tiber'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(HORATII, **params)


def test_no_duel_in_the_domain_is_endless():
    # C1: d6 >= Virtus, so a 6 hits any unit of Virtus 1 to 6: the strongest sides still end
    e = romesim.exact(romesim.scenario(HORATII, roman=[6] * 6, latin=[6] * 6)).exact_values
    assert e["shots"] > 0 and 0 < e["p_win"] < 1


def test_inapplicable_options_are_unknown():
    for name in ("cocles_first_roller", "spolia_round_mode", "attempt"):
        with pytest.raises(romesim.ScenarioError, match=f"unknown parameter '{name}'"):
            romesim.scenario(HORATII, **{name: "nr"})


# ------------------------------------------------------------------ Monte Carlo vs exact, kernel vs reference
SETTINGS = [
    dict(),
    dict(duel_alternation="volley"),
    dict(roman=[1, 6, 2, 5], latin=[3, 3, 6, 1, 2], first="rome", duel_alternation="volley"),
    dict(roman=[6], latin=[6, 5, 4, 3, 2, 1]),
    dict(roman=[2, 3, 4, 5, 6, 6], latin=[1, 2, 3, 4, 5, 6], duel_alternation="volley",
         duel_loser_destination="opponent_container"),
]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(HORATII, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=2024), romesim.exact(scenario))


@pytest.mark.parametrize("policy", ["strongest", "random"])
def test_monte_carlo_within_5_sigma_of_exact_per_policy(policy):
    scenario = romesim.scenario(HORATII, roman=[1, 6, 2, 5], latin=[3, 3, 6, 1, 2], duel_alternation="volley")
    policies = {"target": policy}
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=99, policies=policies),
                         romesim.exact(scenario, policies=policies))


@pytest.mark.parametrize("params", SETTINGS)
@pytest.mark.parametrize("policy", ["weakest", "strongest", "random"])
def test_kernel_equals_reference_game_by_game(params, policy):
    assert_reference_equal(romesim.scenario(HORATII, **params), n=1000, policies={"target": policy})


def test_exact_six_against_six_volley_is_fast():
    # the largest domain: six units a side of mixed Virtus, every targeting policy
    scenario = romesim.scenario(HORATII, roman=[1, 2, 3, 4, 5, 6], latin=[6, 5, 4, 3, 2, 1],
                                duel_alternation="volley")
    for policy in ("weakest", "strongest", "random"):
        start = time.perf_counter()
        values = romesim.exact(scenario, policies={"target": policy}).exact_values
        assert time.perf_counter() - start < 20  # about 0.1 s for weakest, 2-3 s for random here
        assert 0 < values["p_win"] < 1


# ------------------------------------------------------------------ a user @njit targeting policy (DP-H03)
WEAKEST_CHECKED, ALWAYS_SLOT_0, OUT_OF_RANGE, RANDOM_FROM_STREAM = range(4)


@njit
def aim(state, params, stream):
    """params[0]: the mode; params[1]: the expected `volley` flag. Returns 99 if the state is not as documented."""
    n, alive = state[0], 0
    for i in range(6):
        if state[5 + i] > 0:
            alive += 1
            if i >= n:
                return 99
    romans = 0
    for i in range(6):
        if state[11 + i] > 0:
            romans += 1
    if alive != state[1] or romans != state[2] or state[4] != params[1] or alive == 0 or romans == 0:
        return 99
    mode = int(params[0])
    if mode == ALWAYS_SLOT_0:
        return 0
    if mode == OUT_OF_RANGE:
        return n
    if mode == RANDOM_FROM_STREAM:
        k = rng.dn(stream, alive)
        for i in range(n):
            if state[5 + i] > 0:
                k -= 1
                if k == 0:
                    return i
    pick = -1
    for i in range(n):
        if state[5 + i] > 0 and (pick < 0 or state[5 + i] < state[5 + pick]):
            pick = i
    return pick


def test_user_policy_equals_builtins_and_illegal_targets_are_errors():
    # one user function plays every case: its behaviour comes from the parameter vector
    for alternation, volley in (("single_shot", 0), ("volley", 1)):
        scenario = romesim.scenario(HORATII, roman=[2, 4, 6, 1], latin=[3, 1, 5, 3],
                                    duel_alternation=alternation)
        for mode, builtin in ((WEAKEST_CHECKED, "weakest"), (RANDOM_FROM_STREAM, "random")):
            user = romesim.simulate(scenario, 20_000, seed=11, keep=True,
                                    policies={"target": (aim, [mode, volley])}).outcomes
            ours = romesim.simulate(scenario, 20_000, seed=11, keep=True, policies={"target": builtin}).outcomes
            np.testing.assert_array_equal(user.to_numpy(), ours.to_numpy())
    # slot 0 is legal until that Latin falls; the index of a missing slot is never legal
    scenario = romesim.scenario(HORATII, roman=[6, 6], latin=[1, 2])
    with pytest.raises(romesim.PolicyError, match=r"'target' \(DP-H03\): illegal action 0"):
        romesim.simulate(scenario, 1000, policies={"target": (aim, [ALWAYS_SLOT_0, 0])})
    with pytest.raises(romesim.PolicyError, match=r"'target' \(DP-H03\): illegal action 2"):
        romesim.simulate(scenario, 1000, policies={"target": (aim, [OUT_OF_RANGE, 0])})


# ------------------------------------------------------------------ the DP-H03 state read by its documented names
LATIN_UNITS, LATIN_ALIVE, ROMAN_ALIVE, SHOTS, VOLLEY = (
    HORATII_TARGET.state.index(name) for name in ("latin_units", "latin_alive", "roman_alive", "shots", "volley"))
LATIN = np.array([HORATII_TARGET.state.index(f"latin_{i}") for i in range(6)])
ROMAN = np.array([HORATII_TARGET.state.index(f"roman_{i}") for i in range(6)])


@njit
def weakest_by_name(state, params, stream):
    """The built-in `weakest`; 99 unless the counts match the Virtus entries, volley is params[0] and shots is
    at most params[1]."""
    latins, romans = 0, 0
    for i in range(6):
        latins += state[LATIN[i]] > 0
        romans += state[ROMAN[i]] > 0
    if latins != state[LATIN_ALIVE] or romans != state[ROMAN_ALIVE] or state[VOLLEY] != params[0]:
        return 99
    if state[SHOTS] < 0 or state[SHOTS] > params[1]:
        return 99
    pick = -1
    for i in range(state[LATIN_UNITS]):
        v = state[LATIN[i]]
        if v > 0 and (pick < 0 or v < state[LATIN[pick]]):
            pick = i
    return pick


@pytest.mark.parametrize("alternation, volley", [("single_shot", 0), ("volley", 1)])
def test_user_function_reading_the_state_by_name_plays_like_weakest(alternation, volley):
    scenario = romesim.scenario(HORATII, roman=[2, 4, 6, 1], latin=[3, 1, 5, 3], duel_alternation=alternation)
    user = romesim.simulate(scenario, 2000, seed=7, keep=True, policies={"target": (weakest_by_name, [volley, 1000])})
    ours = romesim.simulate(scenario, 2000, seed=7, keep=True, policies={"target": "weakest"})
    np.testing.assert_array_equal(user.outcomes.to_numpy(), ours.outcomes.to_numpy())
