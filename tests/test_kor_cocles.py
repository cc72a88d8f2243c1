"""KoR 9.7.7.2 Horatius Cocles: hand-derived values, KOR-A47, DP-HC01, Monte Carlo against exact, kernel against
reference, validation and a user attempt policy.

Expected fractions are worked in the comments from the rule text (spec 2.10 and WE-5's bonus checks), not taken
from the code's output. Horatius has Virtus 5: an NR die kills him on 5-6 (1/3); a Virtus-3 unit falls on 3-6 (2/3).
"""
from fractions import Fraction as F

import numpy as np
import pytest
from numba import njit

import romesim
from helpers import assert_matches_exact, assert_reference_equal
from romesim.kings_of_rome.policies import COCLES_ATTEMPT

COCLES = "kings_of_rome.cocles"


def exact(policies=None, **params):
    return romesim.exact(romesim.scenario(COCLES, **params), policies=policies).exact_values


def test_direct_attempt_is_one_third_without_vp():
    # 9.7.7.2, WE-5 bonus check: 5-6 removes the bridge, no VP awarded
    assert exact() == {"p_win": F(1, 3), "vp": 0}
    assert exact(raid_units=[], nr=[6, 6, 6], cocles_first_roller="rome") == {"p_win": F(1, 3), "vp": 0}


def test_raid_horatius_alone_against_one_unit_kor_a47():
    # NR first (default): Rome wins iff the NR misses (2/3) then Horatius hits (2/3), before the reverse:
    # (4/9) / (1 - 2/9) = 4/7; VP = 2 * 4/7 - 3/7 = 5/7. Rome first: (2/3) / (7/9) = 6/7; VP = 12/7 - 1/7 = 11/7.
    base = dict(attempt="raid", raid_units=[], nr=[3])
    assert exact(**base) == {"p_win": F(4, 7), "vp": F(5, 7)}
    assert exact(**base, cocles_first_roller="rome") == {"p_win": F(6, 7), "vp": F(11, 7)}


def test_raid_horatius_alone_against_two_units_kor_a47():
    # Rome needs two hits (q = 2/3), the NR one (p = 1/3). NR first: Horatius' 2nd hit at his n-th die with all
    # n NR dice missed: sum_n (n-1) q^2 (1-q)^(n-2) (2/3)^n = (4/9)(4/9) / (1 - 2/9)^2 = 16/49; VP = (32 - 33)/49.
    # Rome first: only n-1 NR dice before: (4/9)(2/3) / (7/9)^2 = 24/49; VP = (48 - 25)/49 = 23/49.
    base = dict(attempt="raid", raid_units=[], nr=[3, 3])
    assert exact(**base) == {"p_win": F(16, 49), "vp": F(-1, 49)}
    assert exact(**base, cocles_first_roller="rome") == {"p_win": F(24, 49), "vp": F(23, 49)}


def test_raid_roman_dice_take_the_weakest_first():
    # Rome first against [6, 6, 1]: the Virtus 1 dies to the first die; then two hits of 1/6 against one NR hit
    # of 1/3, NR first: (1/36)(4/9) / (1 - 5/9)^2 = 1/16
    assert exact(attempt="raid", raid_units=[], nr=[6, 6, 1], cocles_first_roller="rome")["p_win"] == F(1, 16)


def test_dp_hc01_builtins_override_the_scenario_attempt():
    raid = exact(attempt="raid", raid_units=[], nr=[3])
    assert exact({"attempt": "raid"}, raid_units=[], nr=[3]) == raid
    assert exact({"attempt": "direct"}, attempt="raid") == {"p_win": F(1, 3), "vp": 0}


def test_kor_a47_first_roller_changes_nothing_of_a_direct_attempt():
    assert exact(cocles_first_roller="rome") == exact()


# ------------------------------------------------------------------ validation
@pytest.mark.parametrize("params, words", [
    (dict(attempt="swim"), "attempt: 'swim' is not allowed"),
    (dict(raid_units=[3, 3, 3]), r"raid_units: \[3, 3, 3\] is not allowed"),
    (dict(raid_units=[7]), r"raid_units: \[7\] is not allowed"),
    (dict(nr=[]), r"nr: \[\] is not allowed"),
    (dict(nr=[0, 2]), r"nr: \[0, 2\] is not allowed"),
    (dict(cocles_first_roller="alba"), "cocles_first_roller: 'alba' is not allowed"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(COCLES, **params)


def test_inapplicable_options_are_unknown():
    # KOR-A45 belongs to the Horatii scenario; the Cocles prerequisite is decided before the scenario starts
    for name in ("duel_alternation", "cocles_prerequisite", "first"):
        with pytest.raises(romesim.ScenarioError, match=f"unknown parameter '{name}'"):
            romesim.scenario(COCLES, **{name: "rome"})


# ------------------------------------------------------------------ Monte Carlo vs exact, kernel vs reference
SETTINGS = [
    dict(),
    dict(attempt="raid"),
    dict(attempt="raid", raid_units=[1], nr=[4, 2, 6], cocles_first_roller="rome"),
    dict(attempt="raid", raid_units=[6, 2], nr=[1, 5, 5, 3, 6, 2]),
]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(COCLES, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=2024), romesim.exact(scenario))


@pytest.mark.parametrize("params", SETTINGS)
@pytest.mark.parametrize("policy", ["fixed", "direct", "raid"])
def test_kernel_equals_reference_game_by_game(params, policy):
    assert_reference_equal(romesim.scenario(COCLES, **params), n=1000, policies={"attempt": policy})


# ------------------------------------------------------------------ a user @njit attempt policy (DP-HC01)
@njit
def choose(state, params, stream):
    """params = (action, raid_units, nr_units): return `action` if the state is as documented, else 99."""
    if state[1] != params[1] or state[2] != params[2] or state[0] not in (0, 1):
        return 99
    return int(params[0])


def test_user_attempt_policy_and_illegal_action():
    scenario = romesim.scenario(COCLES, raid_units=[4], nr=[2, 3, 5])
    for action, builtin in ((0, "direct"), (1, "raid")):
        user = romesim.simulate(scenario, 20_000, seed=4, keep=True,
                                policies={"attempt": (choose, [action, 1, 3])}).outcomes
        ours = romesim.simulate(scenario, 20_000, seed=4, keep=True, policies={"attempt": builtin}).outcomes
        np.testing.assert_array_equal(user.to_numpy(), ours.to_numpy())
    with pytest.raises(romesim.PolicyError, match=r"'attempt' \(DP-HC01\): illegal action 2"):
        romesim.simulate(scenario, 100, policies={"attempt": (choose, [2, 1, 3])})


# ------------------------------------------------------------------ the DP-HC01 state read by its documented names
ATTEMPT, RAID_UNITS, NR_UNITS = (COCLES_ATTEMPT.state.index(name) for name in ("attempt", "raid_units", "nr_units"))


@njit
def fixed_by_name(state, params, stream):
    """The built-in `fixed`; 99 unless raid_units and nr_units are params[0] and params[1]."""
    if state[RAID_UNITS] != params[0] or state[NR_UNITS] != params[1]:
        return 99
    return state[ATTEMPT]


@pytest.mark.parametrize("attempt", ["direct", "raid"])
def test_user_function_reading_the_state_by_name_plays_like_fixed(attempt):
    scenario = romesim.scenario(COCLES, attempt=attempt, raid_units=[4, 2], nr=[2, 3, 5])
    user = romesim.simulate(scenario, 2000, seed=7, keep=True, policies={"attempt": (fixed_by_name, [2, 3])})
    ours = romesim.simulate(scenario, 2000, seed=7, keep=True, policies={"attempt": "fixed"})
    np.testing.assert_array_equal(user.outcomes.to_numpy(), ours.outcomes.to_numpy())
