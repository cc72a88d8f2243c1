"""KoR 9.3.4 Senate approval with its fallback requests (DP-SE01, KOR-A51): exact values by hand, Monte Carlo
and reference checks, built-in and user policies.

The seed (9.3.4): approved on 4-6 (5-6 for the Etruscans); after a refusal "l'autorisation doit être demandée
pour les trois autres peuples", one roll each: the other three Curia peoples, the Etruscans included when the
first request was for another people. Fides allows war on one people per turn (KOR-A51 per_turn_one_people),
so the requests stop at the first approval. Below, a = 1/2 is a non-Etruscan approval, e = 1/3 an Etruscan one.
"""
from fractions import Fraction as F

import numpy as np
import pytest
from numba import njit

import romesim
from helpers import assert_matches_exact, assert_reference_equal
from romesim.core import rng
from romesim.kings_of_rome.policies import FALLBACK_ORDER

SENATE = "kings_of_rome.senate"
BUILTINS = ["volsci_latin_sabine", "etruscans_first", "random"]


def exact(policy="volsci_latin_sabine", **params):
    return romesim.exact(romesim.scenario(SENATE, **params), policies={"fallback_order": policy}).exact_values


def values(p_win, p_any, requests):
    return {"p_win": p_win, "p_any_approval": p_any, "requests": requests}


# ------------------------------------------------------------------ the first request (9.3.4)
@pytest.mark.parametrize("people", ["latin", "volsci", "sabine"])
def test_kor_9_3_4_first_request_four_to_six(people):
    # faces 4, 5, 6 of 6 = 1/2; without fallback p_any = p_win and one request
    assert exact(people=people, fallback=False) == values(F(1, 2), F(1, 2), 1)


def test_kor_9_3_4_etruscans_five_or_six():
    # faces 5, 6 of 6 = 1/3
    assert exact(people="etruscan", fallback=False) == values(F(1, 3), F(1, 3), 1)


# ------------------------------------------------------------------ the fallback requests (9.3.4, DP-SE01)
@pytest.mark.parametrize("people", ["latin", "volsci", "sabine"])
def test_kor_9_3_4_fallback_after_a_non_etruscan_refusal(people):
    # all four refused: (1 - a)^3 (1 - e) = 1/8 * 2/3 = 1/12, so p_any = 11/12.
    # default order (Volsci, Latins, Sabines, then the Etruscans): two non-Etruscans, then the Etruscans.
    # requests = 1 + P(1st refused) + P(1st, 2nd refused) + P(1st..3rd refused) = 1 + 1/2 + 1/4 + 1/8 = 15/8
    assert exact(people=people) == values(F(1, 2), F(11, 12), F(15, 8))
    # Etruscans first: 1 + 1/2 + 1/2 * 2/3 + 1/2 * 2/3 * 1/2 = 1 + 1/2 + 1/3 + 1/6 = 2
    assert exact("etruscans_first", people=people) == values(F(1, 2), F(11, 12), F(2))
    # random: the Etruscans are 1st, 2nd or 3rd of the fallback with 1/3 each:
    # 1st: 2 (above); 2nd: 1 + 1/2 + 1/4 + 1/4 * 2/3 = 23/12; 3rd: 15/8 (above)
    # mean (48 + 46 + 45) / 24 / 3 = 139/72
    assert exact("random", people=people) == values(F(1, 2), F(11, 12), F(139, 72))


@pytest.mark.parametrize("policy", BUILTINS)
def test_kor_9_3_4_fallback_after_an_etruscan_refusal(policy):
    # the seed's own example: refused for the Etruscans, then Volsci, Latins, Sabines (a = 1/2 each), any order.
    # p_any = 1 - 2/3 * 1/8 = 11/12; requests = 1 + 2/3 * (1 + 1/2 + 1/4) = 1 + 7/6 = 13/6
    assert exact(policy, people="etruscan") == values(F(1, 3), F(11, 12), F(13, 6))


@pytest.mark.parametrize("policy", BUILTINS)
def test_fallback_false_asks_once_whatever_the_policy(policy):
    assert exact(policy, people="sabine", fallback=False) == values(F(1, 2), F(1, 2), 1)


# ------------------------------------------------------------------ KOR-A51 options
@pytest.mark.parametrize("policy", BUILTINS)
def test_kor_a51_fixed_fallback_order_ignores_the_policy(policy):
    # fixed_volsci_latin_sabine: DP-SE01 is not asked; Volsci, Latins, Sabines, then the Etruscans: 15/8
    assert exact(policy, senate_fallback_order="fixed_volsci_latin_sabine") == values(F(1, 2), F(11, 12),
                                                                                        F(15, 8))
    scenario = romesim.scenario(SENATE, senate_fallback_order="fixed_volsci_latin_sabine")
    fixed = romesim.simulate(scenario, 50_000, seed=5, policies={"fallback_order": policy})
    default = romesim.simulate(romesim.scenario(SENATE), 50_000, seed=5)
    np.testing.assert_array_equal(fixed.sums, default.sums)


def test_kor_a51_request_scope_and_fides_period():
    # per_turn_one_people is the only scope: the requests stop at the first approval (the 15/8 above)
    assert romesim.scenario(SENATE, senate_request_scope="per_turn_one_people").senate_request_scope == (
        "per_turn_one_people")
    with pytest.raises(romesim.ScenarioError, match="senate_request_scope: 'per_turn_all_peoples'"):
        romesim.scenario(SENATE, senate_request_scope="per_turn_all_peoples")
    # the Senate is asked in periods 3-7, where Fides binds whether it starts in period 2 or 3: no effect
    assert exact(fides_limit_from_period=3) == exact()
    with pytest.raises(romesim.ScenarioError, match="fides_limit_from_period: 4"):
        romesim.scenario(SENATE, fides_limit_from_period=4)


# ------------------------------------------------------------------ Monte Carlo vs exact, kernel vs reference
SETTINGS = [
    (dict(), "volsci_latin_sabine"),
    (dict(people="etruscan"), "volsci_latin_sabine"),
    (dict(people="volsci", fallback=False), "volsci_latin_sabine"),
    (dict(people="sabine"), "etruscans_first"),
    (dict(people="volsci"), "random"),
    (dict(people="etruscan"), "random"),
    (dict(senate_fallback_order="fixed_volsci_latin_sabine"), "etruscans_first"),
]


@pytest.mark.parametrize("params, policy", SETTINGS)
def test_kor_9_3_4_monte_carlo_within_5_sigma_of_exact(params, policy):
    scenario = romesim.scenario(SENATE, **params)
    policies = {"fallback_order": policy}
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=2024, policies=policies),
                         romesim.exact(scenario, policies=policies))


@pytest.mark.parametrize("people", ["latin", "volsci", "sabine", "etruscan"])
@pytest.mark.parametrize("policy", BUILTINS)
def test_kor_9_3_4_kernel_equals_reference_under_each_builtin_policy(people, policy):
    assert_reference_equal(romesim.scenario(SENATE, people=people), policies={"fallback_order": policy})


@pytest.mark.parametrize("params", [dict(fallback=False), dict(senate_fallback_order="fixed_volsci_latin_sabine"),
                                    dict(people="etruscan", senate_fallback_order="fixed_volsci_latin_sabine")])
def test_kor_9_3_4_kernel_equals_reference_with_options(params):
    assert_reference_equal(romesim.scenario(SENATE, **params), policies={"fallback_order": "random"})


# ------------------------------------------------------------------ DP-SE01 user policies
# modes of ``ask`` (params[4]); params[0:4] are the people codes in order of preference
BY_PREFERENCE, CHECKED, FIRST_AGAIN, CONSTANT = range(4)
LATIN, VOLSCI, SABINE, ETRUSCAN = range(4)


@njit
def ask(state, params, stream):
    """DP-SE01: state = (first, asked_latin, asked_volsci, asked_sabine, asked_etruscan, requests)."""
    mode = int(params[4])
    if mode == FIRST_AGAIN:
        return state[0]
    if mode == CONSTANT:
        return int(params[5])
    if mode == CHECKED:
        asked = state[1] + state[2] + state[3] + state[4]
        if state[1 + state[0]] != 1 or asked != state[5] or asked < 1 or asked > 3:
            return 99
    for i in range(4):
        people = int(params[i])
        if state[1 + people] == 0:
            return people
    return -1


def user(*preference, mode=BY_PREFERENCE, constant=0):
    preference = preference or (VOLSCI, LATIN, SABINE, ETRUSCAN)
    return {"fallback_order": (ask, [*preference, mode, constant])}


def run(scenario, policies, n=100_000):
    return romesim.simulate(scenario, n, seed=8, policies=policies)


def test_dp_se01_documents_its_state():
    assert FALLBACK_ORDER.rule == "DP-SE01"
    assert FALLBACK_ORDER.state == ("first", "asked_latin", "asked_volsci", "asked_sabine", "asked_etruscan",
                                    "requests")
    assert romesim.scenario(SENATE).decision_points == (FALLBACK_ORDER,)
    assert FALLBACK_ORDER.default == "volsci_latin_sabine"


@pytest.mark.parametrize("people", ["latin", "etruscan"])
def test_dp_se01_user_policy_equals_the_builtins(people):
    scenario = romesim.scenario(SENATE, people=people)
    default = run(scenario, {"fallback_order": "volsci_latin_sabine"})
    for mode in (BY_PREFERENCE, CHECKED):  # CHECKED also verifies the documented state vector
        same = run(scenario, user(VOLSCI, LATIN, SABINE, ETRUSCAN, mode=mode))
        np.testing.assert_array_equal(same.sums, default.sums)
        assert same.policies == {"fallback_order": "ask"}
    etruscans = run(scenario, user(ETRUSCAN, VOLSCI, LATIN, SABINE))
    np.testing.assert_array_equal(etruscans.sums, run(scenario, {"fallback_order": "etruscans_first"}).sums)


def test_dp_se01_user_order_changes_requests():
    # after a Latin refusal, the Etruscans first: exact 2 requests against 15/8
    result = run(romesim.scenario(SENATE), user(ETRUSCAN, SABINE, VOLSCI, LATIN), n=1_000_000)
    assert_matches_exact(result, romesim.exact(romesim.scenario(SENATE), policies={
        "fallback_order": "etruscans_first"}))


@pytest.mark.parametrize("policies, action", [
    (user(mode=FIRST_AGAIN), LATIN),  # the refused first people again
    (user(mode=CONSTANT, constant=VOLSCI), VOLSCI),  # legal once, then a people already asked
    (user(mode=CONSTANT, constant=4), 4),
    (user(mode=CONSTANT, constant=-1), -1),
])
def test_dp_se01_illegal_choice_is_a_policy_error(policies, action):
    with pytest.raises(romesim.PolicyError) as info:
        run(romesim.scenario(SENATE), policies, n=10_000)
    message = str(info.value)
    assert "'fallback_order'" in message and "DP-SE01" in message and f"illegal action {action}" in message


@pytest.mark.parametrize("params", [dict(fallback=False), dict(senate_fallback_order="fixed_volsci_latin_sabine")])
def test_dp_se01_not_asked_without_fallback_or_with_the_fixed_order(params):
    scenario = romesim.scenario(SENATE, **params)
    result = run(scenario, user(mode=FIRST_AGAIN), n=10_000)
    np.testing.assert_array_equal(result.sums, run(scenario, None, n=10_000).sums)


def test_exact_refuses_a_user_policy():
    with pytest.raises(romesim.ExactNotSupported, match="built-in"):
        romesim.exact(romesim.scenario(SENATE), policies=user(VOLSCI, LATIN, SABINE, ETRUSCAN))


# ------------------------------------------------------------------ validation
@pytest.mark.parametrize("params, words", [
    (dict(people="samnite"), "people: 'samnite'"),
    (dict(people="Latin"), "people: 'Latin'"),
    (dict(fallback="yes"), "fallback: 'yes'"),
    (dict(fallback=0), "fallback: 0"),
    (dict(senate_fallback_order="random"), "senate_fallback_order: 'random'"),
    (dict(king="tullus"), "unknown parameter 'king'"),
    (dict(numa_inauguratio=True), "unknown parameter 'numa_inauguratio'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(SENATE, **params)


def test_unknown_policy_lists_the_builtins():
    with pytest.raises(romesim.PolicyError) as info:
        romesim.simulate(SENATE, 10, policies={"fallback_order": "alphabetical"})
    assert all(name in str(info.value) for name in BUILTINS)


# ------------------------------------------------------------------ the DP-SE01 state read by its documented names
FIRST, REQUESTS = FALLBACK_ORDER.state.index("first"), FALLBACK_ORDER.state.index("requests")
ASKED = np.array([FALLBACK_ORDER.state.index(f"asked_{people}") for people in ("latin", "volsci", "sabine",
                                                                                "etruscan")])


@njit
def random_by_name(state, params, stream):
    """The built-in `random`, drawn from the game's stream; 99 unless `first` was asked and `requests` counts the
    peoples asked."""
    asked = 0
    for people in range(4):
        asked += state[ASKED[people]]
    if state[ASKED[state[FIRST]]] != 1 or state[REQUESTS] != asked:
        return 99
    left = 4 - asked
    pick = rng.dn(stream, left) if left > 1 else 1
    for people in range(4):
        if not state[ASKED[people]]:
            pick -= 1
            if pick == 0:
                return people
    return -1


@pytest.mark.parametrize("people", ["latin", "etruscan"])
def test_user_function_reading_the_state_by_name_plays_like_random(people):
    scenario = romesim.scenario(SENATE, people=people)
    user = romesim.simulate(scenario, 2000, seed=7, keep=True, policies={"fallback_order": random_by_name})
    ours = romesim.simulate(scenario, 2000, seed=7, keep=True, policies={"fallback_order": "random"})
    np.testing.assert_array_equal(user.outcomes.to_numpy(), ours.outcomes.to_numpy())
