"""spec 2.4.3 building Constantinopolis over several turns: the seed's timing, restarts, options SV-A8, SV-A9,
SV-A34, the D3 built-ins, Monte Carlo against exact, kernel against reference, a user @njit policy.

The chances of occupation, of losing Constantin and of losing Thracia are parameters of an abstract model (the
map, movement and death table are missing, GAPS G1, G5, G9). Every expected value is derived in its comment from
the rule text and those chances, not taken from the code's output.
"""
from fractions import Fraction as F

import numpy as np
import pytest
from numba import njit

import romesim
from helpers import assert_matches_exact, assert_reference_equal
from romesim.semper_victor.policies import START_CONSTANTINOPLE

CONSTANTINOPLE = "semper_victor.constantinople"
QUIET = dict(occupation_augustus=0)


def exact(policies=None, **params):
    return romesim.exact(romesim.scenario(CONSTANTINOPLE, **params), policies=policies).exact_values


def test_six_turns_counting_the_start_year():
    # seed 3.1.2: started in 321 the marker goes to 327; the Phase F of 326 moves the Turn marker into the box
    # (SV-A8 advance_into_box): turns 1..6. Five turns are not enough, six are
    assert exact(turns=5, **QUIET)["p_win"] == 0
    e = exact(turns=6, **QUIET)
    assert e["p_win"] == 1 and e["vp"] == 10 and e["capital_turns"] == 0 and e["attempts"] == 1
    # SV-A8 end_of_box_year: the F of 327, the seventh turn
    assert exact(turns=6, constantinople_completion="end_of_box_year", **QUIET)["p_win"] == 0
    assert exact(turns=7, constantinople_completion="end_of_box_year", **QUIET)["p_win"] == 1


def test_defaults_one_check_and_a_restart_too_late():
    # 10 turns, 10 % Secondus Augustus in zone 3 at the completion F (turn 6): built with 9/10, then a capital
    # for turns 7-10 (4 turns); interrupted with 1/10, restarted in turn 7 (attempts 1 + 1/10), due in turn 12
    e = exact()
    assert e["p_win"] == F(9, 10) and e["p_interrupted"] == F(1, 10)
    assert e["attempts"] == F(11, 10) and e["interruptions"] == F(1, 10)
    assert e["vp"] == 9 and e["capital_turns"] == F(9, 10) * 4 and e["cancellations"] == 0


def test_restart_from_zero():
    # 12 turns, 50 %: built in turn 6 (1/2); else restarted in turn 7 and built in turn 12 (1/2 * 1/2) -> 3/4.
    # interruptions: 1/2 + 1/4; attempts 1 + 1/2; capital turns 1/2 * 6
    e = exact(turns=12, occupation_augustus=50)
    assert e["p_win"] == F(3, 4) and e["p_interrupted"] == F(1, 2)
    assert e["interruptions"] == F(3, 4) and e["attempts"] == F(3, 2) and e["capital_turns"] == 3


def test_sv_a34_which_usurper_cancels():
    # a Usurper of SECONDUS cancels like the Secondus Augustus: 7/10 built with 30 %
    assert exact(turns=6, occupation_augustus=0, occupation_usurper=30)["p_win"] == F(7, 10)
    # a Usurper of PRIMUS cancels only with constantinople_usurper = any
    assert exact(turns=6, occupation_augustus=0, occupation_primus_usurper=30)["p_win"] == 1
    assert exact(turns=6, occupation_augustus=0, occupation_primus_usurper=30,
                 constantinople_usurper="any")["p_win"] == F(7, 10)
    # the three cases share one zone: 10 + 20 + 30 % exclusive -> any: 1 - 60/100
    assert exact(turns=6, occupation_usurper=20, occupation_primus_usurper=30,
                 constantinople_usurper="any")["p_win"] == F(2, 5)


def test_sv_a9_starting_conditions():
    # Constantin lost with 10 % per Phase D. start_only: the construction goes on: built for sure in 6 turns
    e = exact(turns=6, constantin_loss=10, **QUIET)
    assert e["p_win"] == 1 and e["cancellations"] == 0
    # continuous: he must last through the Phase D of turns 1..6: (9/10)^6
    e = exact(turns=6, constantin_loss=10, constantinople_conditions="continuous", **QUIET)
    assert e["p_win"] == F(9, 10) ** 6 and e["cancellations"] == 1 - F(9, 10) ** 6
    # Thracia lost with 20 % per Phase F, checked before the completion in the same F: (4/5)^6
    e = exact(turns=6, thracia_loss=20, constantinople_conditions="continuous", **QUIET)
    assert e["p_win"] == F(4, 5) ** 6
    assert exact(turns=6, thracia_loss=20, **QUIET)["p_win"] == 1


def test_a_restart_needs_the_conditions_again():
    # start_only, 12 turns, Thracia lost with 50 % per F, never regained, occupation 50 %: built in turn 6 with
    # 1/2; a restart in turn 7 needs Thracia kept through six F (1/64), then 1/2: 1/2 + 1/2 * 1/64 * 1/2 = 129/256
    assert exact(turns=12, thracia_loss=50, occupation_augustus=50)["p_win"] == F(129, 256)
    # regained in the F after each loss (100 %): P(held after F_n) = p(n-1)/2 + (1 - p(n-1)), from 1:
    # 1/2, 3/4, 5/8, 11/16, 21/32, 43/64 after F6, so 1/2 + 1/2 * 43/64 * 1/2 = 171/256
    assert exact(turns=12, thracia_loss=50, thracia_regain=100, occupation_augustus=50)["p_win"] == F(171, 256)
    # Constantin lost: no restart. 12 turns, 50 % occupation, Constantin lost with 100 % in turn 1's Phase D
    assert exact(turns=12, occupation_augustus=50, constantin_loss=100)["p_win"] == F(1, 2)


def test_d3_builtin_policies():
    assert exact({"start_constantinople": "never"})["p_win"] == 0
    assert exact({"start_constantinople": "never"})["attempts"] == 0
    # if_time: five turns are not enough, so it never starts (always starts in vain)
    assert exact({"start_constantinople": "if_time"}, turns=5)["attempts"] == 0
    assert exact(turns=5)["attempts"] == 1
    # the defaults: the restart of turn 7 would be due in turn 12 > 10: if_time does not make it
    assert exact({"start_constantinople": "if_time"})["attempts"] == 1
    # random, 6 turns: built only when started in turn 1 (1/2); the first start falls in turn t with (1/2)^t
    e = exact({"start_constantinople": "random"}, turns=6, **QUIET)
    assert e["p_win"] == F(1, 2) and e["attempts"] == 1 - F(1, 2) ** 6


@pytest.mark.parametrize("params, words", [
    (dict(occupation_augustus=60, occupation_usurper=50), "101|110 % in all"),
    (dict(occupation_augustus=101), "occupation_augustus: 101"),
    (dict(constantin_loss=-5), "constantin_loss: -5"),
    (dict(turns=0), "turns: 0"),
    (dict(constantinople_completion="box_year"), "constantinople_completion: 'box_year'"),
    (dict(constantinople_conditions=True), "constantinople_conditions: True"),
    (dict(constantinople_usurper="primus"), "constantinople_usurper: 'primus'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(CONSTANTINOPLE, **params)


SETTINGS = [
    dict(),
    dict(turns=20, occupation_augustus=30, occupation_usurper=10, occupation_primus_usurper=20,
         constantinople_usurper="any", constantin_loss=5),
    dict(turns=25, occupation_augustus=40, thracia_loss=15, thracia_regain=30,
         constantinople_conditions="continuous", constantinople_completion="end_of_box_year"),
    dict(turns=15, constantin_loss=8, thracia_loss=10, constantinople_conditions="continuous"),
]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(CONSTANTINOPLE, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=13), romesim.exact(scenario))


@pytest.mark.parametrize("params", SETTINGS)
def test_kernel_equals_reference_game_by_game(params):
    assert_reference_equal(romesim.scenario(CONSTANTINOPLE, **params))


@pytest.mark.parametrize("policy", ["always", "never", "random", "if_time"])
def test_every_builtin_policy_kernel_reference_exact(policy):
    policies = {"start_constantinople": policy}
    scenario = romesim.scenario(CONSTANTINOPLE, turns=16, occupation_augustus=40, thracia_loss=20,
                                thracia_regain=50, constantin_loss=3)
    assert_reference_equal(scenario, policies=policies)
    assert_matches_exact(romesim.simulate(scenario, 200_000, seed=17, policies=policies),
                         romesim.exact(scenario, policies=policies))


@njit
def from_turn(state, params, stream):
    """D3: start from turn params[0] on; params[1] = 1 returns the illegal 2; checks the documented state."""
    if params[1] == 1:
        return 2
    if state[0] + state[1] != 21 or state[2] != 6 or state[3] < 0 or state[4] > state[3]:
        return 99  # 20 turns: turn + turns_left = 21; duration 6
    return 1 if state[0] >= params[0] else 0


def test_user_policy_and_illegal_action():
    scenario = romesim.scenario(CONSTANTINOPLE, turns=20, occupation_augustus=50)
    user = romesim.simulate(scenario, 20_000, seed=1, keep=True,
                            policies={"start_constantinople": (from_turn, [1, 0])}).outcomes
    builtin = romesim.simulate(scenario, 20_000, seed=1, keep=True).outcomes
    np.testing.assert_array_equal(user.to_numpy(), builtin.to_numpy())
    late = romesim.simulate(scenario, 20_000, seed=1, policies={"start_constantinople": (from_turn, [16, 0])})
    assert late.estimate("p_win") == 0  # started in turn 16, due in turn 21
    with pytest.raises(romesim.PolicyError, match=r"'start_constantinople' \(D3\): illegal action 2"):
        romesim.simulate(scenario, 100, policies={"start_constantinople": (from_turn, [1, 1])})


# ------------------------------------------------------------------ a user policy reading the state by its names
TURN, TURNS_LEFT, DURATION, ATTEMPTS, INTERRUPTIONS = (
    START_CONSTANTINOPLE.state.index(k) for k in ("turn", "turns_left", "duration", "attempts", "interruptions"))


@njit
def if_time_by_name(state, params, stream):
    """The built-in `if_time`; 99 where the state contradicts the scenario (turns params[0], duration params[1])."""
    if (state[TURN] + state[TURNS_LEFT] != params[0] + 1 or state[DURATION] != params[1]
            or state[INTERRUPTIONS] > state[ATTEMPTS]):
        return 99
    return 0 if state[TURNS_LEFT] < state[DURATION] else 1


@pytest.mark.parametrize("params", SETTINGS)
def test_a_user_policy_reading_the_documented_state_plays_the_builtins_games(params):
    scenario = romesim.scenario(CONSTANTINOPLE, **params)
    user = (if_time_by_name, [scenario.turns, scenario.duration()])
    mine = romesim.simulate(scenario, 2_000, seed=8, keep=True, policies={"start_constantinople": user})
    theirs = romesim.simulate(scenario, 2_000, seed=8, keep=True, policies={"start_constantinople": "if_time"})
    np.testing.assert_array_equal(mine.outcomes.to_numpy(), theirs.outcomes.to_numpy())
