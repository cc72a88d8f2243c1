"""spec 2.12 Assassinat with and without the Protectores Domestici (spec 2.10): WP2, options SV-A2, SV-A3, SV-A23, the
D13 built-ins, Monte Carlo against exact, kernel against reference, a user @njit policy.

Every expected value is derived in its comment from the rule text, not taken from the code's output.
"""
from fractions import Fraction as F

import numpy as np
import pytest
from numba import njit

import romesim
from helpers import assert_matches_exact, assert_reference_equal
from romesim.semper_victor.policies import ASSASSINATE

ASSASSINATION = "semper_victor.assassination"


def exact(policies=None, **params):
    return romesim.exact(romesim.scenario(ASSASSINATION, **params), policies=policies).exact_values


def test_wp2_unprotected_and_protected():
    # seed 6.3, WP2: d10 (0-9) of 8 or 9 kills: 2/10
    e = exact()
    assert e["p_win"] == F(1, 5) and e["plays"] == 1
    # the holder of the Protectores Domestici: -1 (SV-A2): only a 9 kills, 1/10
    assert exact(bodyguard="holder")["p_win"] == F(1, 10)
    assert exact(target="caesar", bodyguard="holder")["p_win"] == F(1, 10)
    # two plays on the same protected leader: 1 - (9/10)^2 = 19/100; the second is played after a miss (9/10)
    e = exact(bodyguard="holder", attempts=2)
    assert e["p_win"] == F(19, 100) and e["plays"] == 1 + F(9, 10)


def test_sv_a2_guard_modifier():
    # 0: no effect (2/10); +1: {7, 8} kill, still 2/10 (the spec's reason for reading the lost sign as -1)
    assert exact(bodyguard="holder", assassin_guard_mod=0)["p_win"] == F(1, 5)
    assert exact(bodyguard="holder", assassin_guard_mod=1)["p_win"] == F(1, 5)
    # the modifier applies to the protected leader only
    assert exact(assassin_guard_mod=-1)["p_win"] == F(1, 5)


def test_sv_a3_guard_scope():
    # the marker on another leader of the target's zone: no protection for "this leader, and only him"
    # (seed 3.5.3, default); with guard_scope = zone, "a leader stacked with the marker" (seed 6.3): 1/10
    assert exact(target="leader", bodyguard="stacked")["p_win"] == F(1, 5)
    assert exact(target="leader", bodyguard="stacked", guard_scope="zone")["p_win"] == F(1, 10)
    # the holder himself is protected under both scopes
    assert exact(bodyguard="holder", guard_scope="zone")["p_win"] == F(1, 10)


def test_sv_a23_non_roman_targets():
    # default: Roman leaders only (the scenario refuses the target); with the option a non-Roman leader dies on
    # 8 or 9 like anyone unprotected
    with pytest.raises(romesim.ScenarioError, match="target: 'non_roman'.*SV-A23"):
        romesim.scenario(ASSASSINATION, target="non_roman")
    assert exact(target="non_roman", assassinate_nonroman=True)["p_win"] == F(1, 5)


def test_d13_builtin_policies():
    # all (default), 3 counters, unprotected: 1 - (4/5)^3 = 61/125; plays 1 + 4/5 + 16/25 = 61/25
    e = exact(attempts=3)
    assert e["p_win"] == F(61, 125) and e["plays"] == F(61, 25)
    # once: one play, 1/5
    e = exact({"assassinate": "once"}, attempts=3)
    assert e["p_win"] == F(1, 5) and e["plays"] == 1
    # random, 2 counters: play each with 1/2, stop at the first keep.
    # one counter left: win 1/2 * 1/5 = 1/10, plays 1/2; two: 1/2 * (1/5 + 4/5 * 1/10) = 7/50, 1/2 * (1 + 4/5 * 1/2)
    e = exact({"assassinate": "random"}, attempts=2)
    assert e["p_win"] == F(7, 50) and e["plays"] == F(7, 10)
    # worthwhile (min 0.15): nothing on a protected target (1/10), everything on an unprotected one (2/10)
    e = exact({"assassinate": "worthwhile"}, attempts=2, bodyguard="holder")
    assert e["p_win"] == 0 and e["plays"] == 0
    assert exact({"assassinate": "worthwhile"}, attempts=2)["p_win"] == F(9, 25)
    assert exact({"assassinate": ("worthwhile", [0.1])}, attempts=2, bodyguard="holder")["p_win"] == F(19, 100)
    assert exact({"assassinate": ("worthwhile", [0.3])}, attempts=2)["p_win"] == 0


@pytest.mark.parametrize("params, words", [
    (dict(target="dux"), "target: 'dux'.*Dux cannot be assassinated"),
    (dict(target="emperor"), "target: 'emperor'"),
    (dict(target="leader", bodyguard="holder"), "bodyguard: 'holder'.*Augustus or a Caesar"),
    (dict(target="non_roman", assassinate_nonroman=True, bodyguard="stacked"), "bodyguard: 'stacked'"),
    (dict(attempts=0), "attempts: 0"),
    (dict(attempts=7), "attempts: 7"),
    (dict(assassin_guard_mod=-2), "assassin_guard_mod: -2"),
    (dict(assassin_guard_mod="-1"), "assassin_guard_mod: '-1'"),
    (dict(guard_scope="diocese"), "guard_scope: 'diocese'"),
    (dict(plague_dux_rolls=True), "unknown parameter 'plague_dux_rolls'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(ASSASSINATION, **params)


SETTINGS = [
    dict(),
    dict(bodyguard="holder", attempts=2),
    dict(target="caesar", bodyguard="stacked", guard_scope="zone", attempts=4),
    dict(target="leader", attempts=6, assassin_guard_mod=1),
    dict(target="non_roman", assassinate_nonroman=True, attempts=3),
]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(ASSASSINATION, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=31), romesim.exact(scenario))


@pytest.mark.parametrize("params", SETTINGS)
def test_kernel_equals_reference_game_by_game(params):
    assert_reference_equal(romesim.scenario(ASSASSINATION, **params))


@pytest.mark.parametrize("policy", ["all", "once", "random", "worthwhile", ("worthwhile", [0.05])])
def test_every_builtin_policy_kernel_reference_exact(policy):
    policies = {"assassinate": policy}
    for guard in ("none", "holder"):
        scenario = romesim.scenario(ASSASSINATION, attempts=4, bodyguard=guard)
        assert_reference_equal(scenario, policies=policies)
        assert_matches_exact(romesim.simulate(scenario, 200_000, seed=12, policies=policies),
                             romesim.exact(scenario, policies=policies))


@njit
def two_tries(state, params, stream):
    """D13: play the first two counters only; params[0] = 1 returns the illegal 5; checks the documented state."""
    if params[0] == 1:
        return 5
    if state[2] != params[1] or state[3] != params[2] or state[0] + state[1] != params[3] + 1:
        return 99
    return 1 if state[0] <= 2 else 0


def test_user_policy_and_illegal_action():
    scenario = romesim.scenario(ASSASSINATION, attempts=5, bodyguard="holder")
    # protected = 1, kill faces = 1 (only a 9), attempt + held = attempts + 1
    user = romesim.simulate(scenario, 50_000, seed=9, policies={"assassinate": (two_tries, [0, 1, 1, 5])})
    same = romesim.simulate(scenario.replace(attempts=2), 50_000, seed=9)
    assert np.array_equal(user.sums, same.sums)
    with pytest.raises(romesim.PolicyError, match=r"'assassinate' \(D13\): illegal action 5"):
        romesim.simulate(scenario, 100, policies={"assassinate": (two_tries, [1, 0, 0, 0])})


# ------------------------------------------------------------------ a user policy reading the state by its names
ATTEMPT, HELD, PROTECTED, KILL_FACES = (ASSASSINATE.state.index(k) for k in ("attempt", "held", "protected",
                                                                             "kill_faces"))


@njit
def worthwhile_by_name(state, params, stream):
    """The built-in `worthwhile` (min_chance params[0]); 99 where attempt + held is not attempts + 1."""
    if state[ATTEMPT] + state[HELD] != params[1] + 1 or state[PROTECTED] != params[2]:
        return 99
    return 0 if state[KILL_FACES] / 10.0 < params[0] else 1


@pytest.mark.parametrize("params", SETTINGS)
@pytest.mark.parametrize("chance", [0.05, 0.15])
def test_a_user_policy_reading_the_documented_state_plays_the_builtins_games(params, chance):
    scenario = romesim.scenario(ASSASSINATION, **params)
    user = (worthwhile_by_name, [chance, scenario.attempts, scenario.protected()])
    mine = romesim.simulate(scenario, 2_000, seed=4, keep=True, policies={"assassinate": user})
    theirs = romesim.simulate(scenario, 2_000, seed=4, keep=True, policies={"assassinate": ("worthwhile", [chance])})
    np.testing.assert_array_equal(mine.outcomes.to_numpy(), theirs.outcomes.to_numpy())
