"""spec 2.12 Foyer de peste: WP6, units, both sides, options SV-A24, the D13 zone choice, Monte Carlo against
exact, kernel against reference, a user @njit policy.

Every expected value is derived in its comment from the rule text, not taken from the code's output.
"""
from fractions import Fraction as F

import numpy as np
import pytest
from numba import njit

import romesim
from helpers import assert_matches_exact, assert_reference_equal
from romesim.semper_victor.policies import PLAGUE_MAX_ZONES, PLAGUE_ZONE

PLAGUE = "semper_victor.plague"


def exact(policies=None, **params):
    return romesim.exact(romesim.scenario(PLAGUE, **params), policies=policies).exact_values


def test_wp6_three_leaders():
    # seed 6.3, WP6: each leader dies on a d10 of 9 (1/10): no death among 3 = (9/10)^3 = 729/1000
    e = exact()
    assert e["p_no_leader_dies"] == F(729, 1000) and e["p_win"] == F(271, 1000)
    assert e["enemy_leaders_killed"] == F(3, 10)


def test_units_lose_one_step_for_sure():
    # "all the combat units ... are immediately weakened (those already weakened are eliminated)", both sides
    e = exact(zones=[{"enemy_full": 2, "enemy_weakened": 1, "own_full": 1, "own_weakened": 3}])
    assert e["enemy_units_weakened"] == 2 and e["enemy_units_eliminated"] == 1
    assert e["own_units_weakened"] == 1 and e["own_units_eliminated"] == 3
    assert e["p_win"] == 0 and e["p_no_leader_dies"] == 1


def test_both_sides_roll():
    # 2 enemy leaders, 1 of the holder: p_win = 1 - (9/10)^2 = 19/100; nobody dies: (9/10)^3
    e = exact(zones=[{"enemy_leaders": 2, "own_leaders": 1}])
    assert e["p_win"] == F(19, 100) and e["p_no_leader_dies"] == F(729, 1000)
    assert e["own_leaders_killed"] == F(1, 10) and e["enemy_leaders_killed"] == F(1, 5)


def test_sv_a24_who_rolls():
    zone = [{"enemy_leaders": 1, "enemy_dux": 1, "enemy_non_roman": 1, "own_dux": 1}]
    # default: everyone in the zone rolls, Dux and non-Romans included: 3 enemy leaders, 4 in all
    e = exact(zones=zone)
    assert e["p_win"] == F(271, 1000) and e["p_no_leader_dies"] == F(9, 10) ** 4
    # Dux spared: 2 enemy leaders roll, none of the holder's
    e = exact(zones=zone, plague_dux_rolls=False)
    assert e["p_win"] == F(19, 100) and e["own_leaders_killed"] == 0
    # non-Romans spared too: the Roman leader alone
    assert exact(zones=zone, plague_dux_rolls=False, plague_non_roman_rolls=False)["p_win"] == F(1, 10)
    assert exact(zones=zone, plague_non_roman_rolls=False)["p_win"] == F(19, 100)


def test_d13_zone_choice():
    zones = [{"enemy_leaders": 1, "own_leaders": 2}, {"enemy_full": 2}]
    # greedy (1, 1): zone 1 scores (1 - 2) = -1, zone 2 scores 2: zone 2, no leader there
    e = exact(zones=zones)
    assert e["p_win"] == 0 and e["enemy_units_weakened"] == 2
    # fixed zone 1: 1/10 for the enemy leader, 2/10 expected own deaths
    e = exact({"plague_zone": ("fixed", [1])}, zones=zones)
    assert e["p_win"] == F(1, 10) and e["own_leaders_killed"] == F(1, 5) and e["enemy_units_weakened"] == 0
    # random: each zone 1/2
    e = exact({"plague_zone": "random"}, zones=zones)
    assert e["p_win"] == F(1, 20) and e["enemy_units_weakened"] == 1
    # the weights: two leaders against three units; leader_weight 2 prefers the leaders (4 > 3)
    zones = [{"enemy_leaders": 2}, {"enemy_full": 3}]
    assert exact(zones=zones)["p_win"] == 0
    assert exact({"plague_zone": ("greedy", [2, 1])}, zones=zones)["p_win"] == F(19, 100)
    # ties go to the first zone
    assert exact(zones=[{"enemy_full": 1}, {"enemy_leaders": 1}])["p_win"] == 0


def test_fixed_zone_out_of_range_is_an_illegal_action():
    scenario = romesim.scenario(PLAGUE, zones=[{"enemy_leaders": 1}, {"enemy_full": 1}])
    with pytest.raises(romesim.PolicyError, match=r"'plague_zone' \(D13\): illegal action 3"):
        romesim.simulate(scenario, 100, policies={"plague_zone": ("fixed", [3])})
    with pytest.raises(romesim.PolicyError, match="illegal action 3"):
        romesim.exact(scenario, policies={"plague_zone": ("fixed", [3])})


@pytest.mark.parametrize("params, words", [
    (dict(zones=[]), r"zones: \[\] is not allowed"),
    (dict(zones=[{}] * 5), r"zones: \[\{\}, .*1 to 4 tables"),
    (dict(zones=[{"enemy_dux": 3, "own_dux": 2}]), r"zones\[0\]: 5 Dux"),
    (dict(zones=[{"enemy_dux": 5}]), r"zones\[0\].enemy_dux: 5"),
    (dict(zones=[{"enemy_leaders": -1}]), r"zones\[0\].enemy_leaders: -1"),
    (dict(zones=[{"augustus": 1}]), "unknown key 'augustus'"),
    (dict(plague_dux_rolls="false"), "plague_dux_rolls: 'false'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(PLAGUE, **params)


SETTINGS = [
    dict(),
    dict(zones=[{"enemy_leaders": 2, "enemy_dux": 1, "own_leaders": 1, "own_non_roman": 2, "enemy_full": 1}]),
    dict(zones=[{"enemy_leaders": 1}, {"enemy_leaders": 3, "own_leaders": 1, "own_full": 2},
                {"enemy_non_roman": 4}], plague_non_roman_rolls=False),
]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(PLAGUE, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=5), romesim.exact(scenario))


@pytest.mark.parametrize("params", SETTINGS)
def test_kernel_equals_reference_game_by_game(params):
    assert_reference_equal(romesim.scenario(PLAGUE, **params))


@pytest.mark.parametrize("policy", ["greedy", ("greedy", [3, 0.5]), "random", ("fixed", [2]), ("fixed", [4])])
def test_every_builtin_policy_kernel_reference_exact(policy):
    policies = {"plague_zone": policy}
    scenario = romesim.scenario(PLAGUE, zones=[{"enemy_leaders": 1, "own_leaders": 1}, {"enemy_leaders": 2},
                                               {"enemy_full": 3, "own_dux": 1}, {"enemy_dux": 2, "own_full": 1}],
                                plague_dux_rolls=False)
    assert_reference_equal(scenario, policies=policies)
    assert_matches_exact(romesim.simulate(scenario, 200_000, seed=21, policies=policies),
                         romesim.exact(scenario, policies=policies))


@njit
def most_enemy_leaders(state, params, stream):
    """D13 from the documented state: the zone with the most enemy leaders rolling (the first among equals)."""
    best, most = 1, -1
    for z in range(state[0]):
        if state[1 + 4 * z] > most:
            best, most = z + 1, state[1 + 4 * z]
    return best


def test_user_policy_reads_the_zone_blocks():
    scenario = romesim.scenario(PLAGUE, zones=[{"enemy_full": 5}, {"enemy_leaders": 2}, {"enemy_leaders": 1}])
    user = romesim.simulate(scenario, 20_000, seed=2, policies={"plague_zone": most_enemy_leaders})
    fixed = romesim.simulate(scenario, 20_000, seed=2, policies={"plague_zone": ("fixed", [2])})
    assert np.array_equal(user.sums, fixed.sums)


# ------------------------------------------------------------------ a user policy reading the state by its names
ZONES = PLAGUE_ZONE.state.index("zones")
FIELDS = ("enemy_rolls", "own_rolls", "enemy_steps", "own_steps")
ENEMY_ROLLS, OWN_ROLLS, ENEMY_STEPS, OWN_STEPS = (
    np.array([PLAGUE_ZONE.state.index(f"z{z}_{f}") for z in range(1, PLAGUE_MAX_ZONES + 1)]) for f in FIELDS)


@njit
def greedy_by_name(state, params, stream):
    """The built-in `greedy` (leader_weight params[0], step_weight params[1])."""
    best, best_score = 1, 0.0
    for z in range(state[ZONES]):
        score = (params[0] * (state[ENEMY_ROLLS[z]] - state[OWN_ROLLS[z]])
                 + params[1] * (state[ENEMY_STEPS[z]] - state[OWN_STEPS[z]]))
        if z == 0 or score > best_score:
            best, best_score = z + 1, score
    return best


@pytest.mark.parametrize("params", SETTINGS + [dict(zones=[{"enemy_full": 3, "own_leaders": 1}, {"enemy_leaders": 2},
                                                           {"enemy_weakened": 1, "enemy_dux": 1},
                                                           {"own_full": 2, "enemy_leaders": 3}])])
@pytest.mark.parametrize("weights", [[1, 1], [1, 0], [0, 1], [-1, 2]])
def test_a_user_policy_reading_the_documented_state_plays_the_builtins_games(params, weights):
    scenario = romesim.scenario(PLAGUE, **params)
    mine = romesim.simulate(scenario, 2_000, seed=8, keep=True, policies={"plague_zone": (greedy_by_name, weights)})
    theirs = romesim.simulate(scenario, 2_000, seed=8, keep=True, policies={"plague_zone": ("greedy", weights)})
    np.testing.assert_array_equal(mine.outcomes.to_numpy(), theirs.outcomes.to_numpy())
