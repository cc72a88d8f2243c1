"""KoR 6.3 treason and 5.7.11 ignominy trial: the spec's WE-5 values, Monte Carlo and reference checks."""
from fractions import Fraction as F

import pytest

import romesim
from helpers import assert_matches_exact, assert_reference_equal

# WE-5: P(treason succeeds) = P(d6 - k > Virtus), rows Virtus 1..3, columns k = 0..3 (spec section 6)
WE5_SUCCESS = {1: (F(5, 6), F(2, 3), F(1, 2), F(1, 3)),
               2: (F(2, 3), F(1, 2), F(1, 3), F(1, 6)),
               3: (F(1, 2), F(1, 3), F(1, 6), F(0))}


@pytest.mark.parametrize("garrison", [1, 2, 3])
@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_we5_treason_table(garrison, k):
    e = romesim.exact(romesim.scenario("kings_of_rome.treason", garrison=garrison, ip_spent=k)).exact_values
    assert e["p_win"] == 1 - WE5_SUCCESS[garrison][k]  # p_win: the treason fails (6.3)
    assert e["vp"] == 1 - WE5_SUCCESS[garrison][k]  # each failure gives Rome +1 VP
    assert e["ip"] == -k


def test_treason_fixed_policy_never_spends_down_to_zero_ip():
    # C7: with 2 IP the fixed policy spends at most 1 although ip_spent = 3
    e = romesim.exact(romesim.scenario("kings_of_rome.treason", garrison=2, ip_spent=3, ip_available=2))
    assert e["ip"] == -1 and e.exact_values["p_win"] == F(1, 2)
    assert romesim.exact(romesim.scenario("kings_of_rome.treason", garrison=1, ip_available=1),
                         policies={"ip_spent": "max"})["ip"] == 0
    assert romesim.exact(romesim.scenario("kings_of_rome.treason", garrison=1),
                         policies={"ip_spent": "max"}).exact_values["p_win"] == F(4, 6)


def test_we5_ignominy():
    # 5.7.11: acquitted iff 2d6 - 2 > 8 (battle: 2d6 in {11, 12}, 3/36) or 2d6 - 1 > 8 (siege: 6/36)
    battle = romesim.exact(romesim.scenario("kings_of_rome.ignominy")).exact_values
    siege = romesim.exact(romesim.scenario("kings_of_rome.ignominy", lost="siege")).exact_values
    assert battle["p_win"] == F(1, 12) and battle["ip"] == -3 * F(11, 12)
    assert siege["p_win"] == F(1, 6) and siege["ip"] == -3 * F(5, 6)


def test_kor_a37_ignominy_options():
    # equal_8 acquitted: battle 2d6 - 2 >= 8 -> 2d6 >= 10 (6/36); ip_loss always: -3 whatever the verdict
    e = romesim.exact(romesim.scenario("kings_of_rome.ignominy", ignominy_equal_8="acquitted",
                                       ignominy_ip_loss="always")).exact_values
    assert e["p_win"] == F(1, 6) and e["ip"] == -3


@pytest.mark.parametrize("name, params", [
    ("kings_of_rome.treason", dict(garrison=1)),
    ("kings_of_rome.treason", dict(garrison=3, ip_spent=2)),
    ("kings_of_rome.ignominy", dict()),
    ("kings_of_rome.ignominy", dict(lost="siege", ignominy_equal_8="acquitted")),
])
def test_monte_carlo_and_reference(name, params):
    scenario = romesim.scenario(name, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=99), romesim.exact(scenario))
    assert_reference_equal(scenario)


@pytest.mark.parametrize("name, params, words", [
    ("kings_of_rome.treason", dict(garrison=0), "garrison: 0"),
    ("kings_of_rome.treason", dict(ip_spent=4), "ip_spent: 4"),
    ("kings_of_rome.treason", dict(ip_available=0), "ip_available: 0"),
    ("kings_of_rome.ignominy", dict(lost="duel"), "lost: 'duel'"),
    ("kings_of_rome.ignominy", dict(ignominy_trial="optional"), "unknown parameter 'ignominy_trial'"),
])
def test_bad_parameters_are_named(name, params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(name, **params)
