"""KoR 5.6 corruption: exact values worked by hand, options, Monte Carlo, reference, user policies.

Every expected fraction below is derived in its comment from the rule text (spec section 2.5). The Roman pays
2 IP, then rolls d6 against the garrison's Virtus (even with NR units present; no Astutia, no Good Omen): the city
is taken iff the die exceeds it, for +1 VP; when the garrison stood alone the player may pillage instead, for
+2 IP and no VP (DP-C02). Adjustment 1 token NR -> R (KOR-A13 always); no hostile reaction (KOR-A15 default).
"""
from fractions import Fraction as F

import numpy as np
import pytest
from numba import njit

import romesim
from helpers import assert_matches_exact, assert_reference_equal
from romesim.core.exact import enumerate_dice, expectations
from romesim.core.policy import resolve
from romesim.kings_of_rome.policies import CORRUPTION_TAKEN

CORRUPTION = "kings_of_rome.corruption"


def exact(policies=None, **params):
    return romesim.exact(romesim.scenario(CORRUPTION, **params), policies=policies).exact_values


# ------------------------------------------------------------------ 5.6
@pytest.mark.parametrize("garrison, p", [(1, F(5, 6)), (2, F(2, 3)), (3, F(1, 2))])
def test_city_taken_iff_d6_exceeds_the_garrison(garrison, p):
    # d6 > Virtus: 5, 4, 3 faces out of 6; garrisoned (default): +1 VP on success; the 2 IP always spent
    assert exact(garrison=garrison) == {"p_win": p, "ip": -2, "vp": p, "tokens_nr_to_r": 1, "hostile_reactions": 0}


def test_pillage_instead_when_the_garrison_was_alone_dp_c02():
    # garrison 3 alone, pillaged: P = 1/2; IP = -2 + 2 * 1/2 = -1; no VP; the city is still taken (p_win)
    e = exact({"garrison_or_pillage": "pillage"}, garrison=3)
    assert e["p_win"] == F(1, 2) and e["ip"] == -1 and e["vp"] == 0


def test_other_units_forbid_the_pillage_and_do_not_change_the_roll():
    # two NR units with the garrison 2: the roll is still against the garrison (2/3); no pillage choice: +1 VP
    e = exact({"garrison_or_pillage": "pillage"}, garrison=2, units=2)
    assert e == {"p_win": F(2, 3), "ip": -2, "vp": F(2, 3), "tokens_nr_to_r": 1, "hostile_reactions": 0}


# ------------------------------------------------------------------ KOR-A13, KOR-A15
def test_kor_a13_adjustment_on_success_only():
    # success_only: one token NR -> R with the success chance, 2/3 for a garrison 2
    assert exact(corruption_adjustment="success_only")["tokens_nr_to_r"] == F(2, 3)


@pytest.mark.parametrize("owner, reactions", [("preventive_withdrawal", 0), ("corruption", 1), ("both", 1)])
def test_kor_a15_orphan_reaction_line(owner, reactions):
    assert exact(orphan_reaction_line_owner=owner)["hostile_reactions"] == reactions


@pytest.mark.parametrize("change", [dict(corruption_requires_garrison=False),
                                    dict(corruption_removed_garrison="nr_container")])
def test_kor_a13_options_that_change_no_metric(change):
    # the scenario always has a garrison (1-3); where the bribed garrison goes is not an adjustment between
    # containers
    assert exact(garrison=3, units=1, **change) == exact(garrison=3, units=1)
    base = romesim.scenario(CORRUPTION, garrison=3)
    a = romesim.simulate(base, 20_000, seed=3)
    b = romesim.simulate(base.replace(**change), 20_000, seed=3)
    assert np.array_equal(a.sums, b.sums)


# ------------------------------------------------------------------ exact over the whole domain
@pytest.mark.parametrize("garrison", [1, 2, 3])
@pytest.mark.parametrize("units", [0, 1, 5])
def test_closed_form_equals_enumerated_reference(garrison, units):
    for choice in ("garrison", "pillage"):
        for adjustment in ("always", "success_only"):
            for owner in ("preventive_withdrawal", "corruption", "both"):
                s = romesim.scenario(CORRUPTION, garrison=garrison, units=units, corruption_adjustment=adjustment,
                                     orphan_reaction_line_owner=owner)
                policies = resolve(s.decision_points, {"garrison_or_pillage": choice})
                enumerated = expectations(enumerate_dice(lambda dice: s.reference(dice, policies)), s.metrics)
                assert s.exact_solution(policies) == enumerated


# ------------------------------------------------------------------ validation
@pytest.mark.parametrize("params, words", [
    (dict(garrison=0), "garrison: 0"),
    (dict(garrison=4), "garrison: 4"),
    (dict(units=-1), "units: -1"),
    (dict(units=[1, 2]), r"units: \[1, 2\]"),
    (dict(corruption_adjustment="never"), "corruption_adjustment: 'never'"),
    (dict(orphan_reaction_line_owner="siege"), "orphan_reaction_line_owner: 'siege'"),
    (dict(corruption_requires_garrison="true"), "corruption_requires_garrison: 'true'"),
    (dict(king=True), "unknown parameter 'king'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(CORRUPTION, **params)


# ------------------------------------------------------------------ Monte Carlo vs exact, kernel vs reference
SETTINGS = [
    (dict(), None),
    (dict(garrison=3), {"garrison_or_pillage": "pillage"}),
    (dict(garrison=1, units=3, corruption_adjustment="success_only", orphan_reaction_line_owner="both"), None),
    (dict(garrison=2, corruption_adjustment="success_only"), {"garrison_or_pillage": "pillage"}),
]


@pytest.mark.parametrize("params, policies", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params, policies):
    scenario = romesim.scenario(CORRUPTION, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=56, policies=policies),
                         romesim.exact(scenario, policies=policies))


@pytest.mark.parametrize("params, policies", SETTINGS + [(dict(garrison=3), {"garrison_or_pillage": "garrison"})])
def test_kernel_equals_reference_game_by_game(params, policies):
    assert_reference_equal(romesim.scenario(CORRUPTION, **params), policies=policies)


# ------------------------------------------------------------------ user @njit policy (DP-C02)
THRESHOLD, ECHO = 0, 1


@njit
def scripted(state, params, stream):
    if params[0] == ECHO:
        return state[0]  # the garrison's Virtus: not an action of DP-C02 when it is 2 or 3
    # state = (garrison,): pillage a bribed garrison of Virtus <= params[1], else garrison the city
    return 1 if state[0] <= params[1] else 0


def test_user_policy_for_garrison_or_pillage():
    for garrison, builtin in ((1, "pillage"), (3, "garrison")):
        scenario = romesim.scenario(CORRUPTION, garrison=garrison)
        user = romesim.simulate(scenario, 20_000, seed=4,
                                policies={"garrison_or_pillage": (scripted, [THRESHOLD, 1])})
        same = romesim.simulate(scenario, 20_000, seed=4, policies={"garrison_or_pillage": builtin})
        assert np.array_equal(user.sums, same.sums)


def test_illegal_user_action_is_named():
    scenario = romesim.scenario(CORRUPTION, garrison=2)
    with pytest.raises(romesim.PolicyError, match="'garrison_or_pillage'.*illegal action 2"):
        romesim.simulate(scenario, 1_000, policies={"garrison_or_pillage": (scripted, [ECHO])})
    # with other NR units in the city DP-C02 is never asked
    romesim.simulate(scenario.replace(units=1), 1_000, policies={"garrison_or_pillage": (scripted, [ECHO])})


# ------------------------------------------------------------------ the DP-C02 state read by its documented names
GARRISON = CORRUPTION_TAKEN.state.index("garrison")


@njit
def pillage_by_name(state, params, stream):
    """The built-in `pillage`; 99 unless the bribed garrison's Virtus is params[0]."""
    return 1 if state[GARRISON] == params[0] else 99


@pytest.mark.parametrize("garrison", [1, 3])
def test_user_function_reading_the_state_by_name_plays_like_pillage(garrison):
    scenario = romesim.scenario(CORRUPTION, garrison=garrison)
    user = romesim.simulate(scenario, 2000, seed=7, keep=True,
                            policies={"garrison_or_pillage": (pillage_by_name, [garrison])})
    ours = romesim.simulate(scenario, 2000, seed=7, keep=True, policies={"garrison_or_pillage": "pillage"})
    np.testing.assert_array_equal(user.outcomes.to_numpy(), ours.outcomes.to_numpy())
