"""KoR 5.3 intimidation: exact values worked by hand, options, Monte Carlo, reference, user policies.

Every expected fraction below is derived in its comment from the rule text (spec section 2.4). The action costs
1 IP; after releasing a Roman unit (Fides, DP-I01) the player rolls d6 against the NR military unit of his choice
(DP-I02): it turns Roman iff the die exceeds its Virtus, for +2 IP. Adjustment: 1 token R -> NR, always.
"""
from fractions import Fraction as F

import numpy as np
import pytest
from numba import njit

import romesim
from helpers import assert_matches_exact, assert_reference_equal
from romesim.core import rng
from romesim.core.exact import enumerate_dice, expectations
from romesim.core.policy import resolve
from romesim.kings_of_rome.policies import FIDES_RELEASE, INTIMIDATION_TARGET

INTIMIDATION = "kings_of_rome.intimidation"


def exact(policies=None, **params):
    return romesim.exact(romesim.scenario(INTIMIDATION, **params), policies=policies).exact_values


# ------------------------------------------------------------------ 5.3
def test_default_one_unit_of_virtus_2():
    # d6 > 2 on {3, 4, 5, 6} -> 2/3; IP = -1 + 2 * 2/3 = 1/3; one token R -> NR
    assert exact() == {"p_win": F(2, 3), "ip": F(1, 3), "tokens_r_to_nr": 1}


def test_target_choice_dp_i02():
    # units 3, 1, 5. Weakest (default) Virtus 1: d6 > 1 -> 5/6, IP = -1 + 5/3 = 2/3
    units = [3, 1, 5]
    weakest = exact(units=units)
    assert weakest["p_win"] == F(5, 6) and weakest["ip"] == F(2, 3)
    # strongest Virtus 5: only a 6 -> 1/6
    assert exact({"target": "strongest"}, units=units)["p_win"] == F(1, 6)
    # random: each unit 1/3 -> (3/6 + 5/6 + 1/6) / 3 = 1/2, IP = 0
    rand = exact({"target": "random"}, units=units)
    assert rand["p_win"] == F(1, 2) and rand["ip"] == 0


def test_virtus_6_unit_cannot_be_intimidated():
    # d6 > 6 is impossible: the 1 IP is lost, the procedure still ends after one roll
    assert exact(units=[6]) == {"p_win": 0, "ip": -1, "tokens_r_to_nr": 1}


# ------------------------------------------------------------------ KOR-A3 options and DP-I01 change no metric
@pytest.mark.parametrize("change", [dict(intimidation_target_pool="include_garrison"),
                                    dict(intimidation_over_capacity="not_allowed")])
def test_kor_a3_options_change_no_metric(change):
    # no garrison in the scenario, and the army's size is not modelled
    units = [4, 2]
    assert exact(units=units, **change) == exact(units=units)
    base = romesim.scenario(INTIMIDATION, units=units)
    a = romesim.simulate(base, 20_000, seed=3)
    b = romesim.simulate(base.replace(**change), 20_000, seed=3)
    assert np.array_equal(a.sums, b.sums)


def test_released_unit_dp_i01_changes_no_metric():
    assert exact({"released": "cavalry"}, units=[4, 2]) == exact(units=[4, 2])


# ------------------------------------------------------------------ exact over the whole domain
@pytest.mark.parametrize("units", [[1], [6], [2, 2], [5, 1, 3], [1, 2, 3, 4, 5, 6], [6, 6, 6, 6, 6, 1]])
@pytest.mark.parametrize("target", ["weakest", "strongest", "random"])
def test_closed_form_equals_enumerated_reference(units, target):
    s = romesim.scenario(INTIMIDATION, units=units)
    policies = resolve(s.decision_points, {"target": target})
    enumerated = expectations(enumerate_dice(lambda dice: s.reference(dice, policies)), s.metrics)
    assert s.exact_solution(policies) == enumerated


# ------------------------------------------------------------------ validation (5.3)
@pytest.mark.parametrize("params, words", [
    (dict(has_cavalry=False), "has_cavalry: False.*cavalry"),
    (dict(units=[]), r"units: \[\]"),
    (dict(units=[0]), r"units: \[0\]"),
    (dict(units=[2, 7]), r"units: \[2, 7\]"),
    (dict(units=[1] * 7), r"units: \[1, 1, 1, 1, 1, 1, 1\]"),
    (dict(has_cavalry="yes"), "has_cavalry: 'yes'"),
    (dict(intimidation_target_pool="garrison"), "intimidation_target_pool: 'garrison'"),
    (dict(garrison=1), "unknown parameter 'garrison'"),
    (dict(pillage_second_unit="next_strongest"), "unknown parameter 'pillage_second_unit'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(INTIMIDATION, **params)


# ------------------------------------------------------------------ Monte Carlo vs exact, kernel vs reference
SETTINGS = [
    (dict(), None),
    (dict(units=[3, 1, 5]), None),
    (dict(units=[3, 1, 5]), {"target": "random"}),
    (dict(units=[1, 2, 3, 4, 5, 6]), {"target": "strongest", "released": "cavalry"}),
]


@pytest.mark.parametrize("params, policies", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params, policies):
    scenario = romesim.scenario(INTIMIDATION, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=53, policies=policies),
                         romesim.exact(scenario, policies=policies))


@pytest.mark.parametrize("policies", [{"target": "weakest"}, {"target": "strongest"}, {"target": "random"},
                                      {"released": "infantry"}, {"released": "cavalry"}])
@pytest.mark.parametrize("units", [[2], [4, 1, 3, 1]])
def test_kernel_equals_reference_under_each_builtin_policy(policies, units):
    assert_reference_equal(romesim.scenario(INTIMIDATION, units=units), policies=policies)


# ------------------------------------------------------------------ user @njit policies (DP-I01, DP-I02)
# one function serves both decision points; params[0] picks the behaviour
CONSTANT, STRONGEST, RANDOM = 0, 1, 2


@njit
def scripted(state, params, stream):
    if params[0] == CONSTANT:
        return int(params[1])
    if params[0] == RANDOM:  # the built-in random, from the game's stream
        return rng.dn(stream, state[0]) - 1
    # DP-I02 state = (units, unit_1, ...): the first unit of highest Virtus
    pick = 0
    for i in range(1, state[0]):
        if state[1 + i] > state[1 + pick]:
            pick = i
    return pick


def test_user_target_policies_equal_the_builtins():
    scenario = romesim.scenario(INTIMIDATION, units=[4, 1, 5, 5])
    for mode, builtin in ((STRONGEST, "strongest"), (RANDOM, "random")):
        user = romesim.simulate(scenario, 20_000, seed=8, policies={"released": (scripted, [CONSTANT, 1]),
                                                                    "target": (scripted, [mode])})
        assert np.array_equal(user.sums, romesim.simulate(scenario, 20_000, seed=8,
                                                          policies={"target": builtin}).sums)


def test_illegal_user_actions_are_named():
    scenario = romesim.scenario(INTIMIDATION, units=[4, 1])
    with pytest.raises(romesim.PolicyError, match="'target'.*illegal action 2"):
        romesim.simulate(scenario, 1_000, policies={"released": (scripted, [CONSTANT, 0]),
                                                    "target": (scripted, [CONSTANT, 2])})
    with pytest.raises(romesim.PolicyError, match="'released'.*illegal action -1"):
        romesim.simulate(scenario, 1_000, policies={"released": (scripted, [CONSTANT, -1]),
                                                    "target": (scripted, [CONSTANT, 0])})


# ------------------------------------------------------------------ DP-I01, DP-I02 read by their state names
HAS_CAVALRY = FIDES_RELEASE.state.index("has_cavalry")
UNITS = INTIMIDATION_TARGET.state.index("units")
UNIT = np.array([INTIMIDATION_TARGET.state.index(f"unit_{k}") for k in range(1, 7)])


@njit
def cavalry_by_name(state, params, stream):
    """The built-in `cavalry` of DP-I01; 99 unless the army has cavalry."""
    return 1 if state[HAS_CAVALRY] == 1 else 99


@njit
def strongest_by_name(state, params, stream):
    """The built-in `strongest` of DP-I02; 99 unless the unit entries beyond `units` are empty."""
    n = state[UNITS]
    for i in range(n, 6):
        if state[UNIT[i]] != 0:
            return 99
    pick = 0
    for i in range(1, n):
        if state[UNIT[i]] > state[UNIT[pick]]:
            pick = i
    return pick


def test_user_functions_reading_the_states_by_name_play_like_the_builtins():
    scenario = romesim.scenario(INTIMIDATION, units=[4, 1, 5, 5, 2])
    user = romesim.simulate(scenario, 2000, seed=7, keep=True,
                            policies={"released": cavalry_by_name, "target": strongest_by_name})
    ours = romesim.simulate(scenario, 2000, seed=7, keep=True, policies={"released": "cavalry", "target": "strongest"})
    np.testing.assert_array_equal(user.outcomes.to_numpy(), ours.outcomes.to_numpy())
