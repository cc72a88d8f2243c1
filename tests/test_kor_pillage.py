"""KoR 5.4 pillage and 5.4.1 undefended city: exact values worked by hand, options, Monte Carlo, reference.

Every expected fraction below is derived in its comment from the rule text (spec section 2.3 and WE-2), not taken
from the code's output. The pillage costs 1 IP; one d6 must exceed the Virtus of the strongest token (garrison or
NR unit); it eliminates that token, and with the King a second one; the city is emptied only if nothing survives.
Rewards (5.4 table): success King +1 VP +1 IP, no King +1 VP; failure King -2 IP, no King nothing.
"""
from fractions import Fraction as F
from itertools import product

import numpy as np
import pytest
from numba import njit

import romesim
from helpers import assert_matches_exact, assert_reference_equal
from romesim.core.exact import enumerate_dice, expectations
from romesim.core.policy import resolve
from romesim.kings_of_rome.policies import PILLAGE_SECOND, UNDEFENDED_CITY

PILLAGE = "kings_of_rome.pillage"


def exact(policies=None, **params):
    return romesim.exact(romesim.scenario(PILLAGE, **params), policies=policies).exact_values


# ------------------------------------------------------------------ WE-2 (5.4)
def test_we2_king_pillages_garrison_3_and_one_unit():
    # strongest Virtus 3: d6 > 3 on {4, 5, 6} -> 1/2; the King eliminates both tokens, so P(success) = 1/2
    e = exact(garrison=3, units=[2])
    assert e["p_win"] == F(1, 2)
    assert e["ip"] == -1 + F(1, 2) * 1 + F(1, 2) * (-2) == F(-3, 2)
    assert e["vp"] == F(1, 2)
    assert e["nr_tokens_eliminated"] == 2 * F(1, 2)
    # the flipped garrison and the emptied city: romanized (KOR-A4 pillage_romanize_if_emptied = true)
    assert e["p_romanized"] == F(1, 2)
    # 2 immediate hostile reactions and 1 token R -> NR, whatever the roll
    assert e["hostile_reactions"] == 2 and e["tokens_r_to_nr"] == 1


def test_we2_without_the_king_never_succeeds():
    # one elimination at most leaves a token in the city: P = 0; cost -1 IP, a failure without the King costs
    # nothing more; one token eliminated on d6 > 3 (1/2)
    e = exact(garrison=3, units=[2], king=False)
    assert e["p_win"] == 0 and e["p_romanized"] == 0
    assert e["ip"] == -1 and e["vp"] == 0
    assert e["nr_tokens_eliminated"] == F(1, 2)


# ------------------------------------------------------------------ 5.4: the strongest token, one or two eliminations
def test_lone_garrison_with_and_without_the_king():
    # garrison 1 alone: d6 > 1 -> 5/6; the flipped garrison was the only token: romanized (5.4 text)
    king = exact(garrison=1)
    assert king["p_win"] == king["p_romanized"] == king["vp"] == F(5, 6)
    assert king["ip"] == -1 + F(5, 6) - 2 * F(1, 6) == F(-1, 2)
    no_king = exact(garrison=1, king=False)
    assert no_king["p_win"] == no_king["vp"] == F(5, 6)
    assert no_king["ip"] == -1


def test_roll_is_against_the_strongest_token():
    # garrison 1 and a Virtus-4 unit: the die must exceed 4 -> 1/3 (not the garrison's 1)
    e = exact(garrison=1, units=[4])
    assert e["p_win"] == F(1, 3)
    assert e["ip"] == -1 + F(1, 3) - 2 * F(2, 3) == F(-2)


def test_three_tokens_even_the_king_fails():
    # garrison 1 and two Virtus-1 units: d6 > 1 (5/6) eliminates two, the third survives: P = 0, -1 - 2 IP
    e = exact(garrison=1, units=[1, 1])
    assert e["p_win"] == 0
    assert e["ip"] == -3
    assert e["nr_tokens_eliminated"] == 2 * F(5, 6)


def test_units_without_garrison_empty_but_not_romanized():
    # two units 2 and 3, no garrison, King: d6 > 3 -> 1/2 empties the city, but no garrison flips to Rome
    e = exact(garrison=0, units=[2, 3])
    assert e["p_win"] == F(1, 2)
    assert e["p_romanized"] == 0


def test_virtus_6_unit_can_never_be_beaten():
    # d6 > 6 is impossible: the pillage always fails (a finite procedure: one roll)
    e = exact(garrison=0, units=[6])
    assert e["p_win"] == 0 and e["nr_tokens_eliminated"] == 0 and e["ip"] == -3


# ------------------------------------------------------------------ KOR-A4 options
def test_kor_a4_romanize_if_emptied():
    # false: romanized only when the garrison was alone (5.4 literal); garrison 3 + one unit -> 0
    assert exact(garrison=3, units=[2], pillage_romanize_if_emptied=False)["p_romanized"] == 0
    # the lone garrison 3 is still romanized on d6 > 3 -> 1/2
    assert exact(garrison=3, pillage_romanize_if_emptied=False)["p_romanized"] == F(1, 2)
    # p_win (no NR token survives) does not depend on it
    assert exact(garrison=3, units=[2], pillage_romanize_if_emptied=False)["p_win"] == F(1, 2)


@pytest.mark.parametrize("params", [dict(garrison=2, units=[3, 1]), dict(garrison=3, units=[2])])
def test_kor_a4_second_unit_and_unit_fate_change_no_metric(params):
    # the second token matters only when a third survives, and then the pillage fails with 2 eliminated
    base = exact(**params)
    assert exact(**params, pillage_second_unit="next_strongest") == base
    assert exact(**params, pillage_unit_fate="to_nr_container") == base
    for second in ("garrison_first", "units_first"):
        assert exact({"second_token": second}, **params) == base
    # the same dice give the same games, whatever the option
    scenario = romesim.scenario(PILLAGE, **params)
    a = romesim.simulate(scenario, 20_000, seed=3)
    b = romesim.simulate(scenario.replace(pillage_second_unit="next_strongest",
                                          pillage_unit_fate="to_nr_container"), 20_000, seed=3)
    assert np.array_equal(a.sums, b.sums)


# ------------------------------------------------------------------ 5.4.1 undefended city, DP-P03, KOR-A5
def test_undefended_city_occupied_by_default():
    # DP-P03 default occupy: automatic, romanized, no reward; the 1 IP cost; KOR-A5 inherit_pillage: 2 reactions,
    # 1 token R -> NR
    e = exact(garrison=0, units=[])
    assert e == {"p_win": 1, "p_romanized": 1, "ip": -1, "vp": 0, "hostile_reactions": 2, "tokens_r_to_nr": 1,
                 "nr_tokens_eliminated": 0}


def test_undefended_city_pillaged():
    # pillage: the 5.4 success rewards, the city left empty (not romanized)
    king = exact({"undefended": "pillage"}, garrison=0)
    assert king["ip"] == -1 + 1 and king["vp"] == 1 and king["p_romanized"] == 0 and king["p_win"] == 1
    no_king = exact({"undefended": "pillage"}, garrison=0, king=False)
    assert no_king["ip"] == -1 and no_king["vp"] == 1


def test_kor_a5_undefended_city_side_effects_none():
    e = exact(garrison=0, undefended_city_side_effects="none")
    assert e["hostile_reactions"] == 0 and e["tokens_r_to_nr"] == 0
    # a defended city keeps the 5.4 side effects whatever KOR-A5 says
    d = exact(garrison=1, undefended_city_side_effects="none")
    assert d["hostile_reactions"] == 2 and d["tokens_r_to_nr"] == 1


# ------------------------------------------------------------------ exact over the whole domain
DOMAIN_UNITS = [[], [1], [6], [3, 3], [2, 5], [1, 1, 1], [4, 2, 6, 1], [1, 2, 3, 4, 5, 6]]


@pytest.mark.parametrize("garrison", [0, 1, 2, 3])
@pytest.mark.parametrize("units", DOMAIN_UNITS)
def test_closed_form_equals_enumerated_reference(garrison, units):
    # the closed form counts faces; the reference is enumerated over every die: they must agree everywhere
    for king, emptied, side, undefended in product((True, False), (True, False), ("inherit_pillage", "none"),
                                                   ("occupy", "pillage")):
        s = romesim.scenario(PILLAGE, garrison=garrison, units=units, king=king, pillage_romanize_if_emptied=emptied,
                             undefended_city_side_effects=side)
        policies = resolve(s.decision_points, {"undefended": undefended})
        enumerated = expectations(enumerate_dice(lambda dice: s.reference(dice, policies)), s.metrics)
        assert s.exact_solution(policies) == enumerated


# ------------------------------------------------------------------ validation
@pytest.mark.parametrize("params, words", [
    (dict(garrison=4), "garrison: 4"),
    (dict(garrison=-1), "garrison: -1"),
    (dict(units=[0]), r"units: \[0\]"),
    (dict(units=[7, 1]), r"units: \[7, 1\]"),
    (dict(units=[1] * 7), r"units: \[1, 1, 1, 1, 1, 1, 1\]"),
    (dict(units=3), "units: 3"),
    (dict(king="yes"), "king: 'yes'"),
    (dict(pillage_second_unit="weakest"), "pillage_second_unit: 'weakest'"),
    (dict(undefended_city_side_effects="half"), "undefended_city_side_effects: 'half'"),
    (dict(intimidation_target_pool="include_garrison"), "unknown parameter 'intimidation_target_pool'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(PILLAGE, **params)


# ------------------------------------------------------------------ Monte Carlo vs exact, kernel vs reference
SETTINGS = [
    dict(garrison=3, units=[2]),
    dict(garrison=1, units=[], king=False),
    dict(garrison=2, units=[3, 1]),
    dict(garrison=0, units=[2, 4], pillage_romanize_if_emptied=False),
    dict(garrison=1, units=[1, 2, 3, 4, 5, 6]),
    dict(garrison=0, units=[], king=False, undefended_city_side_effects="none"),
]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(PILLAGE, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=54), romesim.exact(scenario))


@pytest.mark.parametrize("params", SETTINGS)
def test_kernel_equals_reference_game_by_game(params):
    assert_reference_equal(romesim.scenario(PILLAGE, **params))


@pytest.mark.parametrize("policies, params", [
    ({"second_token": "next_strongest"}, dict(garrison=2, units=[2, 3])),
    ({"second_token": "garrison_first"}, dict(garrison=2, units=[2, 3])),
    ({"second_token": "units_first"}, dict(garrison=2, units=[2, 3])),
    ({"undefended": "occupy"}, dict(garrison=0)),
    ({"undefended": "pillage"}, dict(garrison=0)),
])
def test_kernel_equals_reference_under_each_builtin_policy(policies, params):
    scenario = romesim.scenario(PILLAGE, **params)
    assert_reference_equal(scenario, policies=policies)
    assert_matches_exact(romesim.simulate(scenario, 200_000, seed=5, policies=policies),
                         romesim.exact(scenario, policies=policies))


# ------------------------------------------------------------------ user @njit policies (DP-P02, DP-P03)
# one function serves both decision points; params[0] picks the behaviour
CONSTANT, CHECK_SECOND = 0, 1


@njit
def scripted(state, params, stream):
    if params[0] == CONSTANT:
        return int(params[1])
    # DP-P02 with garrison 2 and units [3, 1]: the roll beat the Virtus-3 unit, which is gone; the state must be
    # (garrison 2, 2 units, unit_1 eliminated = 0, unit_2 = 1); then take the garrison
    expected = (2, 2, 0, 1, 0, 0, 0, 0)
    for i in range(8):
        if state[i] != expected[i]:
            return 100 + i
    return 0


def test_user_policies_for_second_token_and_undefended_city():
    city = romesim.scenario(PILLAGE, garrison=2, units=[3, 1])
    user = romesim.simulate(city, 20_000, seed=9, policies={"second_token": (scripted, [CHECK_SECOND]),
                                                            "undefended": (scripted, [CONSTANT, 0])})
    assert np.array_equal(user.sums, romesim.simulate(city, 20_000, seed=9).sums)
    # DP-P03 answered "pillage" by the user function: the same games as the built-in
    empty = romesim.scenario(PILLAGE, garrison=0)
    user = romesim.simulate(empty, 5_000, seed=9, policies={"second_token": (scripted, [CONSTANT, 0]),
                                                            "undefended": (scripted, [CONSTANT, 1])})
    assert np.array_equal(user.sums, romesim.simulate(empty, 5_000, seed=9, policies={"undefended": "pillage"}).sums)
    assert user["vp"] == 1 and user["ip"] == 0


def test_illegal_user_actions_are_named():
    # unit 1 (the Virtus-3 strongest) was already eliminated by the roll: naming it again is illegal
    city = romesim.scenario(PILLAGE, garrison=2, units=[3, 1])
    both = {"second_token": (scripted, [CONSTANT, 1]), "undefended": (scripted, [CONSTANT, 0])}
    with pytest.raises(romesim.PolicyError, match="'second_token'.*illegal action 1"):
        romesim.simulate(city, 2_000, seed=1, policies=both)
    # with pillage_second_unit = next_strongest (KOR-A4) DP-P02 is never asked
    romesim.simulate(city.replace(pillage_second_unit="next_strongest"), 2_000, seed=1, policies=both)
    # a unit index beyond the city's units
    with pytest.raises(romesim.PolicyError, match="'second_token'.*illegal action 3"):
        romesim.simulate(city, 2_000, seed=1, policies={**both, "second_token": (scripted, [CONSTANT, 3])})
    with pytest.raises(romesim.PolicyError, match="'undefended'.*illegal action 2"):
        romesim.simulate(romesim.scenario(PILLAGE, garrison=0), 100, seed=1,
                         policies={**both, "undefended": (scripted, [CONSTANT, 2])})


# ------------------------------------------------------------------ DP-P02, DP-P03 read by their state names
GARRISON, UNITS = PILLAGE_SECOND.state.index("garrison"), PILLAGE_SECOND.state.index("units")
UNIT = np.array([PILLAGE_SECOND.state.index(f"unit_{k}") for k in range(1, 7)])
KING, SIDE_EFFECTS = UNDEFENDED_CITY.state.index("king"), UNDEFENDED_CITY.state.index("side_effects")


@njit
def units_first_by_name(state, params, stream):
    """The built-in `units_first` of DP-P02: the strongest unit left (the first among equals), else the garrison."""
    best, pick = 0, -1
    for i in range(state[UNITS]):
        if state[UNIT[i]] > best:
            best, pick = state[UNIT[i]], 1 + i
    if pick > 0:
        return pick
    return 0 if state[GARRISON] > 0 else -1


@njit
def pillage_by_name(state, params, stream):
    """The built-in `pillage` of DP-P03; 99 unless king and side_effects are params[0] and params[1]."""
    return 1 if state[KING] == params[0] and state[SIDE_EFFECTS] == params[1] else 99


@pytest.mark.parametrize("units", [[3, 1, 3], [2]])
def test_user_function_reading_the_state_by_name_plays_like_units_first(units):
    # [2]: the garrison (Virtus 2, first among equals) falls to the roll, the second token is the unit
    city = romesim.scenario(PILLAGE, garrison=2, units=units)
    user = romesim.simulate(city, 2000, seed=7, keep=True, policies={"second_token": units_first_by_name})
    ours = romesim.simulate(city, 2000, seed=7, keep=True, policies={"second_token": "units_first"})
    np.testing.assert_array_equal(user.outcomes.to_numpy(), ours.outcomes.to_numpy())


@pytest.mark.parametrize("king, effects", [(True, "inherit_pillage"), (False, "none")])
def test_user_function_reading_the_state_by_name_plays_like_pillage(king, effects):
    city = romesim.scenario(PILLAGE, garrison=0, king=king, undefended_city_side_effects=effects)
    flags = [int(king), int(effects == "inherit_pillage")]
    user = romesim.simulate(city, 2000, seed=7, keep=True, policies={"undefended": (pillage_by_name, flags)})
    ours = romesim.simulate(city, 2000, seed=7, keep=True, policies={"undefended": "pillage"})
    np.testing.assert_array_equal(user.outcomes.to_numpy(), ours.outcomes.to_numpy())
