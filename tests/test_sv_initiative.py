"""spec 2.3 initiative with the Initiative stratagem (spec 2.12, D1): WP3, hand-derived values, options SV-A4 and
SV-A30, Monte Carlo against exact, kernel against reference, a user @njit policy.

Every expected fraction is derived in its comment from the rule text, not taken from the code's output.
"""
from fractions import Fraction as F

import numpy as np
import pytest
from numba import njit

import romesim
from helpers import assert_matches_exact, assert_reference_equal, odd_mcs_by_name

INITIATIVE = "semper_victor.initiative"


def exact(policies=None, **params):
    return romesim.exact(romesim.scenario(INITIATIVE, **params), policies=policies).exact_values


# ------------------------------------------------------------------ WP3 and SV-A30 (spec 2.3)
@pytest.mark.parametrize("pc, p", [(0, F(0)), (1, F(0)), (2, F(1, 6)), (3, F(1, 3)), (4, F(1, 2)),
                                   (5, F(2, 3)), (6, F(5, 6)), (7, F(1)), (9, F(1))])
def test_wp3_primus_wins_the_roll_iff_d6_below_pc(pc, p):
    # spec 2.3, WP3: P(d6 < PC) = clamp(PC - 1, 0, 6) / 6; no stratagem, so the roll decides
    e = exact(primus_pc=pc)
    assert e["p_win"] == p and e["p_roll"] == p
    assert e["p_reversed"] == 0 and e["primus_played"] == 0 and e["secondus_played"] == 0


def test_sv_a30_at_most_reads_less_than_or_equal():
    # SV-A30 at_most: d6 <= PC: PC 4 -> 4/6, PC 6 -> 1, PC 0 -> 0
    assert exact(primus_pc=4, initiative_roll="at_most")["p_win"] == F(2, 3)
    assert exact(primus_pc=6, initiative_roll="at_most")["p_win"] == 1
    assert exact(primus_pc=0, initiative_roll="at_most")["p_win"] == 0


# ------------------------------------------------------------------ the Initiative stratagem (spec 2.12, D1)
def test_the_roll_loser_takes_the_initiative_with_the_stratagem():
    # seed 2.B / 6.3: the holder overrules the roll in his favour. SECONDUS holds one, PC 4: whenever PRIMUS wins
    # the roll (1/2) SECONDUS plays it, so PRIMUS never keeps the initiative
    e = exact(primus_pc=4, secondus_initiative=1)
    assert e["p_win"] == 0 and e["p_roll"] == F(1, 2)
    assert e["p_reversed"] == F(1, 2) and e["secondus_played"] == F(1, 2) and e["primus_played"] == 0
    # PRIMUS holds one: he plays it whenever he loses the roll (1/2), and wins the initiative for sure
    e = exact(primus_pc=4, primus_initiative=1)
    assert e["p_win"] == 1 and e["primus_played"] == F(1, 2)


def test_sv_a4_a_played_initiative_is_final():
    # both hold one, PC 5: PRIMUS wins the roll with 4/6 and SECONDUS then plays (PRIMUS may not answer, SV-A4);
    # PRIMUS loses it with 2/6 and plays his. So PRIMUS ends with the initiative iff he lost the roll: 1/3
    e = exact(primus_pc=5, primus_initiative=1, secondus_initiative=1)
    assert e["p_win"] == F(1, 3)
    assert e["primus_played"] == F(1, 3) and e["secondus_played"] == F(2, 3) and e["p_reversed"] == 1


def test_sv_a4_counterplay_lets_each_play_be_answered():
    # initiative_counterplay = true, PRIMUS holds 2, SECONDUS 1, PC 5:
    # roll won (2/3): S plays, P answers -> P (1 play each); roll lost (1/3): P plays, S answers, P answers -> P
    # (2 plays of P, 1 of S). PRIMUS always ends with it; reversed iff he lost the roll
    e = exact(primus_pc=5, primus_initiative=2, secondus_initiative=1, initiative_counterplay=True)
    assert e["p_win"] == 1
    assert e["primus_played"] == F(2, 3) * 1 + F(1, 3) * 2
    assert e["secondus_played"] == 1
    assert e["p_reversed"] == F(1, 3)
    # equal holdings, 1 each: the roll's loser plays, the winner answers: the roll stands, with 2 plays in all
    e = exact(primus_pc=4, primus_initiative=1, secondus_initiative=1, initiative_counterplay=True)
    assert e["p_win"] == F(1, 2) and e["p_reversed"] == 0 and e["primus_played"] + e["secondus_played"] == 2


def test_d1_builtin_policies():
    # never: the roll stands
    assert exact({"play_initiative": "never"}, primus_pc=4, secondus_initiative=1)["p_win"] == F(1, 2)
    # random: SECONDUS plays with 1/2 after PRIMUS won the roll: P(PRIMUS keeps it) = 1/2 * 1/2
    e = exact({"play_initiative": "random"}, primus_pc=4, secondus_initiative=1)
    assert e["p_win"] == F(1, 4) and e["secondus_played"] == F(1, 4)
    # odd_mcs keeps `keep` counters: with keep = 1 a single counter is never played; the M/CS total is not
    # modelled here, so otherwise it plays as `always`
    assert exact({"play_initiative": ("odd_mcs", [1])}, primus_pc=4, secondus_initiative=1)["p_win"] == F(1, 2)
    assert exact({"play_initiative": ("odd_mcs", [1])}, primus_pc=4, secondus_initiative=2)["p_win"] == 0
    assert exact({"play_initiative": "odd_mcs"}, primus_pc=4, secondus_initiative=1)["p_win"] == 0


# ------------------------------------------------------------------ validation
@pytest.mark.parametrize("params, words", [
    (dict(primus_pc=10), "primus_pc: 10"),
    (dict(primus_pc=-1), "primus_pc: -1"),
    (dict(primus_initiative=7), "primus_initiative: 7"),
    (dict(secondus_initiative="1"), "secondus_initiative: '1'"),
    (dict(initiative_roll="le"), "initiative_roll: 'le'"),
    (dict(initiative_counterplay=1), "initiative_counterplay: 1"),
    (dict(mcs_secondus_empty=0), "unknown parameter 'mcs_secondus_empty'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(INITIATIVE, **params)


# ------------------------------------------------------------------ Monte Carlo vs exact, kernel vs reference
SETTINGS = [
    dict(),
    dict(primus_pc=5, primus_initiative=1, secondus_initiative=1),
    dict(primus_pc=3, primus_initiative=2, secondus_initiative=3, initiative_counterplay=True),
    dict(primus_pc=2, secondus_initiative=1, initiative_roll="at_most"),
]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(INITIATIVE, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=2025), romesim.exact(scenario))


@pytest.mark.parametrize("params", SETTINGS)
def test_kernel_equals_reference_game_by_game(params):
    assert_reference_equal(romesim.scenario(INITIATIVE, **params))


@pytest.mark.parametrize("policy", ["always", "never", "random", ("odd_mcs", [1])])
def test_every_builtin_policy_kernel_reference_exact(policy):
    scenario = romesim.scenario(INITIATIVE, primus_pc=4, primus_initiative=2, secondus_initiative=2,
                                initiative_counterplay=True)
    policies = {"play_initiative": policy}
    assert_reference_equal(scenario, policies=policies)
    assert_matches_exact(romesim.simulate(scenario, 200_000, seed=3, policies=policies),
                         romesim.exact(scenario, policies=policies))


# ------------------------------------------------------------------ a user @njit D1 policy
@njit
def answer(state, params, stream):
    """params = (mode,): 0 plays only for PRIMUS (state[0] == 0), checking the documented state; 1 returns 2."""
    if params[0] == 1:
        return 2
    if state[1] < 1 or state[3] < 1 or state[3] > 6 or state[5] != -1:
        return 99  # state not as documented: an illegal action
    return 1 if state[0] == 0 else 0


def test_user_policy_and_illegal_action():
    scenario = romesim.scenario(INITIATIVE, primus_pc=4, primus_initiative=1, secondus_initiative=1)
    user = romesim.simulate(scenario, 20_000, seed=4, policies={"play_initiative": (answer, [0])})
    # PRIMUS plays when he loses the roll, SECONDUS never: PRIMUS always ends with the initiative
    assert user.estimate("p_win") == 1 and user.estimate("secondus_played") == 0
    same = romesim.simulate(scenario.replace(secondus_initiative=0), 20_000, seed=4)
    assert np.array_equal(user.sums[:2], same.sums[:2])
    with pytest.raises(romesim.PolicyError, match=r"'play_initiative' \(D1\): illegal action 2"):
        romesim.simulate(scenario, 100, policies={"play_initiative": (answer, [1])})


# ------------------------------------------------------------------ a user policy reading the state by its names
@pytest.mark.parametrize("params", SETTINGS)
@pytest.mark.parametrize("keep", [0, 1])
def test_a_user_policy_reading_the_documented_state_plays_the_builtins_games(params, keep):
    scenario = romesim.scenario(INITIATIVE, **params)
    user = (odd_mcs_by_name, [keep, scenario.primus_pc, scenario.primus_initiative, scenario.secondus_initiative])
    mine = romesim.simulate(scenario, 2_000, seed=8, keep=True, policies={"play_initiative": user})
    theirs = romesim.simulate(scenario, 2_000, seed=8, keep=True, policies={"play_initiative": ("odd_mcs", [keep])})
    np.testing.assert_array_equal(mine.outcomes.to_numpy(), theirs.outcomes.to_numpy())
