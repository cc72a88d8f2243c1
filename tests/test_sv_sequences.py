"""spec 2.5.1 number and split of the M/CS after the spec 2.3 initiative: WP3, the seed's 335 example, options SV-A11,
the D1 heuristic that sees the total, Monte Carlo against exact, kernel against reference, a user @njit policy.

Every expected value is derived in its comment from the rule text, not taken from the code's output.
"""
from fractions import Fraction as F

import numpy as np
import pytest
from numba import njit

import romesim
from helpers import assert_matches_exact, assert_reference_equal, odd_mcs_by_name

SEQUENCES = "semper_victor.sequences"


def exact(policies=None, **params):
    return romesim.exact(romesim.scenario(SEQUENCES, **params), policies=policies).exact_values


def test_wp3_and_the_seeds_335_example():
    # seed D / WP3: Constantin SR 4 + the Picts' leader SR 1 = 5 M/CS; with PC 4 PRIMUS has the initiative with
    # 1/2 and then gets 3, else 2: E = 5/2; order I, O, I, O, I, so PRIMUS is last iff he has the initiative
    e = exact()
    assert e["mcs_total"] == 5 and e["p_win"] == F(1, 2)
    assert e["primus_mcs"] == F(5, 2) and e["secondus_mcs"] == F(5, 2) and e["p_primus_last"] == F(1, 2)
    # "if PRIMUS wins the initiative, he will get 3 M/CS and SECONDUS only 2": PC 7 always wins the roll
    e = exact(primus_pc=7)
    assert e["primus_mcs"] == 3 and e["secondus_mcs"] == 2 and e["p_primus_last"] == 1


def test_even_total_is_split_in_halves_and_the_other_player_is_last():
    # SR 4 + SR 2 = 6: 3 each whoever has the initiative; the last of I, O, I, O, I, O is the other player's
    e = exact(secondus_leaders=[{"sr": 2}], primus_pc=4)
    assert e["mcs_total"] == 6 and e["primus_mcs"] == 3 and e["secondus_mcs"] == 3
    assert e["p_primus_last"] == F(1, 2)
    assert exact(secondus_leaders=[{"sr": 2}], primus_pc=7)["p_primus_last"] == 0


def test_highest_secondus_sr_in_play_counts_and_pax_romana_faces_do_not():
    # seed D note: a leader on his Pax Romana face is not in the game: 4 + max(1, 2) = 6, not 4 + 3
    leaders = [{"sr": 3, "kind": "non_roman", "pax_romana": True}, {"sr": 1}, {"sr": 2, "kind": "non_roman"}]
    assert exact(secondus_leaders=leaders)["mcs_total"] == 6
    # only the Primus Augustus' SR counts for PRIMUS: SR 0 + 3 = 3 -> 2 and 1
    e = exact(primus_sr=0, secondus_leaders=[{"sr": 3}], primus_pc=1)
    assert e["mcs_total"] == 3 and e["primus_mcs"] == 1 and e["secondus_mcs"] == 2


def test_sv_a11_options():
    # no SECONDUS leader in play: + mcs_secondus_empty (default 0): T = 4 -> 2 each; with 1: T = 5
    assert exact(secondus_leaders=[])["mcs_total"] == 4
    assert exact(secondus_leaders=[{"sr": 5, "kind": "non_roman", "pax_romana": True}])["mcs_total"] == 4
    assert exact(secondus_leaders=[], mcs_secondus_empty=1)["mcs_total"] == 5
    # Dux and Usurpers count by default: 4 + 3; without them 4 + 1
    leaders = [{"sr": 3, "kind": "dux"}, {"sr": 2, "kind": "usurper"}, {"sr": 1}]
    assert exact(secondus_leaders=leaders)["mcs_total"] == 7
    assert exact(secondus_leaders=leaders, mcs_dux_usurpers_count=False)["mcs_total"] == 5
    # with only a Dux left out, the empty value applies
    assert exact(secondus_leaders=[{"sr": 3, "kind": "dux"}], mcs_dux_usurpers_count=False,
                 mcs_secondus_empty=2)["mcs_total"] == 6


def test_zero_mcs():
    # SR 0 and no SECONDUS leader: no M/CS at all, nobody is last
    e = exact(primus_sr=0, secondus_leaders=[])
    assert e["mcs_total"] == 0 and e["primus_mcs"] == 0 and e["p_primus_last"] == 0


def test_odd_mcs_heuristic_plays_only_when_the_total_is_odd():
    # SECONDUS holds an Initiative, PC 4. T = 5 (odd): he plays it whenever PRIMUS won the roll: p_win = 0,
    # E[PRIMUS M/CS] = 2. T = 6 (even): he keeps it, the roll stands: p_win = 1/2
    odd = exact({"play_initiative": "odd_mcs"}, secondus_initiative=1)
    assert odd["p_win"] == 0 and odd["primus_mcs"] == 2
    even = exact({"play_initiative": "odd_mcs"}, secondus_initiative=1, secondus_leaders=[{"sr": 2}])
    assert even["p_win"] == F(1, 2) and even["primus_mcs"] == 3
    # the default `always` plays in both
    assert exact(secondus_initiative=1, secondus_leaders=[{"sr": 2}])["p_win"] == 0


def test_stratagems_and_options_of_phase_b_apply():
    # SV-A30 at_most, PC 4: 2/3 -> E[PRIMUS M/CS] = 2/3 * 3 + 1/3 * 2 = 8/3
    assert exact(initiative_roll="at_most")["primus_mcs"] == F(8, 3)
    # SV-A4 counterplay with 1 each: the roll stands (see test_sv_initiative)
    assert exact(primus_initiative=1, secondus_initiative=1, initiative_counterplay=True)["p_win"] == F(1, 2)


@pytest.mark.parametrize("params, words", [
    (dict(secondus_leaders=[{"sr": 2, "pax_romana": True}]), r"secondus_leaders\[0\].pax_romana"),
    (dict(secondus_leaders=[{"kind": "dux"}]), r"secondus_leaders\[0\]: missing key 'sr'"),
    (dict(secondus_leaders=[{"sr": 10}]), r"secondus_leaders\[0\].sr: 10"),
    (dict(secondus_leaders=[{"sr": 1, "kind": "king"}]), r"secondus_leaders\[0\].kind: 'king'"),
    (dict(secondus_leaders=[{"sr": 1, "cc": 2}]), "unknown key 'cc'"),
    (dict(primus_sr=10), "primus_sr: 10"),
    (dict(mcs_secondus_empty=-1), "mcs_secondus_empty: -1"),
    (dict(mcs_dux_usurpers_count="yes"), "mcs_dux_usurpers_count: 'yes'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(SEQUENCES, **params)


SETTINGS = [
    dict(),
    dict(primus_pc=5, primus_sr=3, secondus_leaders=[{"sr": 2}, {"sr": 4, "kind": "usurper"}],
         secondus_initiative=1),
    dict(primus_pc=3, secondus_leaders=[], mcs_secondus_empty=3, primus_initiative=2, secondus_initiative=1,
         initiative_counterplay=True),
]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(SEQUENCES, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=77), romesim.exact(scenario))


@pytest.mark.parametrize("params", SETTINGS)
def test_kernel_equals_reference_game_by_game(params):
    assert_reference_equal(romesim.scenario(SEQUENCES, **params))


@pytest.mark.parametrize("policy", ["always", "never", "random", "odd_mcs", ("odd_mcs", [1])])
def test_every_builtin_policy_kernel_reference_exact(policy):
    policies = {"play_initiative": policy}
    for leaders in ([{"sr": 1}], [{"sr": 2}]):
        scenario = romesim.scenario(SEQUENCES, secondus_leaders=leaders, primus_initiative=1, secondus_initiative=2,
                                    initiative_counterplay=True)
        assert_reference_equal(scenario, policies=policies)
        assert_matches_exact(romesim.simulate(scenario, 200_000, seed=8, policies=policies),
                             romesim.exact(scenario, policies=policies))


@njit
def odd_only(state, params, stream):
    """D1 from the documented state: play iff the M/CS total (state[5]) is odd, like the built-in odd_mcs."""
    return 1 if state[5] % 2 == 1 else 0


def test_user_policy_sees_the_mcs_total():
    for leaders in ([{"sr": 1}], [{"sr": 2}]):
        scenario = romesim.scenario(SEQUENCES, secondus_leaders=leaders, secondus_initiative=1)
        user = romesim.simulate(scenario, 20_000, seed=6, policies={"play_initiative": odd_only})
        builtin = romesim.simulate(scenario, 20_000, seed=6, policies={"play_initiative": "odd_mcs"})
        assert (user.sums == builtin.sums).all()


# ------------------------------------------------------------------ a user policy reading the state by its names
@pytest.mark.parametrize("params", SETTINGS)
@pytest.mark.parametrize("keep", [0, 1])
def test_a_user_policy_reading_the_documented_state_plays_the_builtins_games(params, keep):
    scenario = romesim.scenario(SEQUENCES, **params)
    user = (odd_mcs_by_name, [keep, scenario.primus_pc, scenario.primus_initiative, scenario.secondus_initiative])
    mine = romesim.simulate(scenario, 2_000, seed=8, keep=True, policies={"play_initiative": user})
    theirs = romesim.simulate(scenario, 2_000, seed=8, keep=True, policies={"play_initiative": ("odd_mcs", [keep])})
    np.testing.assert_array_equal(mine.outcomes.to_numpy(), theirs.outcomes.to_numpy())
