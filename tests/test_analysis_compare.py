"""Paired comparisons (common random numbers) and the sequential test "is B fairer than A".

Exact values come from ``romesim.exact`` (tested against hand derivations in the rule tests) or are derived by
hand in the comments; the operating characteristic of the sequential test is checked on synthetic Bernoulli data
whose D is known by construction.
"""
import math
from fractions import Fraction as F

import numpy as np
import pytest

from helpers import inf

import romesim
from romesim.analysis.compare import compare, sprt, sprt_paired
from romesim.core.errors import PolicyError, ScenarioError

SIEGE = "kings_of_rome.siege"
AA = {"tactic": "attack", "nr_tactic": "attack"}
Z = 1.959963984540054
SIGMA = 5.0



def battles():
    """KoR 5.7 ATTACK/ATTACK, three class III Virtus 3 Romans against three Virtus 3 Latins, no leaders; the rule
    change: one Latin unit is Virtus 2 instead (an easier target for the Roman dice, C1)."""
    base = romesim.scenario("kings_of_rome.battle", roman_units=[inf(3, 3)] * 3, nr_units=[inf(3)] * 3,
                            roman_leaders=[], nr_leaders=[])
    return base, base.replace(nr_units=[inf(3), inf(3), inf(2)])


def exact_p_win(scenario, policies=None):
    return romesim.exact(scenario, policies=policies).exact_values["p_win"]


def half_width(row, low="ci_low", high="ci_high"):
    return (row[high] - row[low]) / 2


def assert_near(got, want, row):
    se = half_width(row) / Z
    if se == 0:
        assert got == want
    else:
        assert abs(got - want) <= SIGMA * se, f"{row['metric']}: {got} vs {want}: {abs(got - want) / se:.1f} sigma"


# ------------------------------------------------------------------ compare
def test_common_random_numbers_narrow_the_interval_of_a_battle_rule_change():
    base, weaker = battles()
    row = compare(base, weaker, n=100_000, seed=11, policies_a=AA, policies_b=AA, metrics="p_win").iloc[0]
    want = float(exact_p_win(weaker, AA) - exact_p_win(base, AA))
    assert want > 0.03  # a real change, not a null one
    assert_near(row["difference"], want, row)
    # the same dice in both battles: strongly correlated outcomes, an interval less than half as wide
    assert row["correlation"] > 0.5
    assert half_width(row) < 0.5 * half_width(row, "unpaired_low", "unpaired_high")


def test_compare_estimates_are_the_runs_on_the_same_games_and_match_exact():
    # KoR 5.5, WE-1: garrison 2 against garrison 1, every metric of the siege
    a = romesim.scenario(SIEGE, garrison=2)
    b = romesim.scenario(SIEGE, garrison=1)
    n, seed = 200_000, 3
    table = compare(a, b, n=n, seed=seed).set_index("metric")
    assert list(table.index) == [*a.metrics, "|p_win - 0.5|"]  # the distance from an even game comes last
    distance = table.loc["|p_win - 0.5|"]
    # |4/9 - 1/2| = 1/18 against |5/6 - 1/2| = 1/3: B is 5/18 further from an even siege
    assert_near(distance["difference"], 5 / 18, {**distance, "metric": "distance"})
    table = table.drop(index="|p_win - 0.5|")
    run_a, run_b = romesim.simulate(a, n, seed), romesim.simulate(b, n, seed)
    exact_a, exact_b = romesim.exact(a).exact_values, romesim.exact(b).exact_values
    # hand check of the headline: roll a d6 > 2 g, then roll b d6 >= 2 (g + 1): g=2 4/9, g=1 2/3 + 1/3 * 1/2 = 5/6
    assert exact_a["p_win"] == F(4, 9) and exact_b["p_win"] == F(5, 6)
    for metric, row in table.iterrows():
        assert row["a"] == run_a.estimate(metric) and row["b"] == run_b.estimate(metric)
        assert row["difference"] == row["b"] - row["a"]
        assert row["n"] == n
        assert_near(row["difference"], float(exact_b[metric] - exact_a[metric]), {**row, "metric": metric})


def test_compare_two_policies_of_one_scenario():
    # KoR 5.5 with Astutia 1 (KOR-A22): greedy rerolls roll a: 1 - (2/3)^2 = 5/9, total 5/9 + 4/9 * 1/6 = 17/27;
    # reserve keeps it for roll b: 1/3 + 2/3 * (1 - (5/6)^2) = 29/54; the difference is 29/54 - 34/54 = -5/54
    siege = romesim.scenario(SIEGE, garrison=2, astutia=1)
    row = compare(siege, n=100_000, seed=5, policies_b={"reroll": ("reserve", [1])}, metrics=["p_win"]).iloc[0]
    assert_near(row["difference"], -5 / 54, row)
    assert row["p_value"] < 1e-6
    assert half_width(row) < half_width(row, "unpaired_low", "unpaired_high")


def test_a_variant_against_itself_differs_by_nothing():
    table = compare(SIEGE, n=5_000, seed=1, metrics=["p_win", "ip", "vp"]).set_index("metric")
    assert (table["difference"] == 0).all() and (table["ci_low"] == 0).all() and (table["ci_high"] == 0).all()
    assert (table["p_value"] == 1).all()
    assert table.loc["p_win", "correlation"] == pytest.approx(1.0)
    assert math.isnan(table.loc["vp", "correlation"])  # vp is 0 in every default siege game (5.5 c)


def test_compare_does_not_depend_on_workers():
    # more games than one engine chunk, so two processes share the work; integer sums make the split invisible
    b = romesim.scenario(SIEGE, garrison=1)
    alone = compare(SIEGE, b, n=300_000, seed=2, metrics=["p_win", "ip"])
    assert alone.equals(compare(SIEGE, b, n=300_000, seed=2, metrics=["p_win", "ip"], workers=2))


def test_different_scenarios_compare_their_common_metrics():
    siege, battle = romesim.scenario(SIEGE), romesim.scenario("kings_of_rome.battle")
    table = compare(siege, battle, n=2_000)
    assert list(table["metric"]) == [m for m in siege.metrics if m in battle.metrics]
    assert {"p_win", "ip", "vp", "hostile_reactions"} <= set(table["metric"]) and "p_submit" not in set(table["metric"])
    assert table.set_index("metric").loc["p_win", "b"] == romesim.simulate(battle, 2_000).estimate("p_win")


@pytest.mark.parametrize("kwargs, match", [
    (dict(a=SIEGE, n=1), "n: 1 is not allowed; expected an integer >= 2"),
    (dict(a=SIEGE, n=10.5), "n: 10.5 is not allowed"),
    (dict(a=SIEGE, n=10, seed=-1), "seed: -1 is not allowed"),
    (dict(a=SIEGE, n=10, workers=0), "workers: 0 is not allowed"),
    (dict(a=SIEGE, n=10, metrics=["p_nope"]), "metrics: 'p_nope' is not a metric of both variants; allowed: p_win"),
    (dict(a=SIEGE, n=10, metrics=[]), "metrics: \\[\\] is not allowed"),
    (dict(a="jugule.assault", b="kings_of_rome.inauguratio", n=10), "no metric in common"),
    (dict(a="kings_of_rome.nope", n=10), "unknown scenario 'kings_of_rome.nope'"),
])
def test_compare_bad_input(kwargs, match):
    a = kwargs.pop("a")
    with pytest.raises(ScenarioError, match=match):
        compare(a, **kwargs)


def test_compare_bad_policy():
    with pytest.raises(PolicyError, match="unknown policy 'nope'"):
        compare(SIEGE, n=10, policies_b={"reroll": "nope"})


# ------------------------------------------------------------------ the sequential test on a real rule pair
def test_sprt_decides_a_battle_rule_pair_early():
    base, weaker = battles()
    pa, pb = exact_p_win(base, AA), exact_p_win(weaker, AA)
    d = abs(pa - F(1, 2)) - abs(pb - F(1, 2))
    assert d > F(2, 100)  # the weaker Latin unit brings Rome's chance nearer 1/2 by more than delta
    fairer = sprt(base, weaker, metric="p_win", target=0.5, policies_a=AA, policies_b=AA, delta=0.02, batch=100,
                  seed=4)
    assert fairer.decision == "B fairer"
    assert fairer.llr >= fairer.upper == pytest.approx(math.log(0.95 / 0.05))
    assert fairer.n % 100 == 0 and fairer.n < fairer.fixed_n
    assert list(fairer.history["n"]) == list(range(100, fairer.n + 1, 100))
    se = (fairer.difference_ci[1] - fairer.difference_ci[0]) / (2 * Z)
    assert abs(fairer.difference - float(d)) <= SIGMA * se
    assert "B fairer" in repr(fairer)
    # the same pair the other way round: A is the fairer one
    reverse = sprt(weaker, base, metric="p_win", target=0.5, policies_a=AA, policies_b=AA, delta=0.02, batch=100,
                   seed=4)
    assert reverse.decision == "not fairer" and reverse.llr <= reverse.lower
    assert reverse.n < reverse.fixed_n


# ------------------------------------------------------------------ operating characteristic on synthetic data
def bernoulli_pairs(rng, pa, pb, size):
    """Paired 0/1 outcomes: half the games share one uniform (like common dice), half draw their own."""
    u, v, shared = rng.random(size), rng.random(size), rng.random(size) < 0.5
    return (u < pa).astype(np.int8), (np.where(shared, u, v) < pb).astype(np.int8)


def decisions(pa, pb, reps=400, size=20_000, delta=0.05, seed=2024):
    rng = np.random.default_rng(seed)
    results = [sprt_paired(*bernoulli_pairs(rng, pa, pb, size), delta=delta, batch=100) for _ in range(reps)]
    return [r.decision for r in results], [r.n for r in results]


def allowance(rate, reps):
    return rate + SIGMA * math.sqrt(rate * (1 - rate) / reps)


def test_sprt_error_rates_are_within_nominal():
    reps = 400
    # D = |0.6 - 0.5| - |0.4 - 0.5| = 0: H0 holds at its boundary; deciding "B fairer" is a type I error
    null, _ = decisions(0.6, 0.4, reps)
    assert null.count("B fairer") / reps <= allowance(0.05, reps)
    # D = |0.6 - 0.5| - |0.45 - 0.5| = 0.05 = delta: H1 holds at its boundary; "not fairer" is a type II error
    alternative, _ = decisions(0.6, 0.45, reps)
    assert alternative.count("not fairer") / reps <= allowance(0.05, reps)
    assert null.count("undecided") == alternative.count("undecided") == 0


def test_sprt_stops_far_earlier_than_a_fixed_test_when_d_is_large():
    # D = |0.7 - 0.5| - |0.45 - 0.5| = 0.15, three times delta. u = (x_A - 1/2) + (x_B - 1/2) (A above, B below
    # the target): var u = 0.7*0.3 + 0.45*0.55 + 2 cov, cov = 1/2 min(0.7, 0.45) + 1/2 0.7*0.45 - 0.7*0.45 = 0.0675
    var_u = 0.21 + 0.2475 + 2 * 0.0675
    fixed_n = var_u * ((2 * 1.6448536269514722) / 0.05) ** 2  # z_0.95 for alpha and beta: about 2 565 games
    found, sizes = decisions(0.7, 0.45, reps=100)
    assert found.count("B fairer") == 100
    assert np.mean(sizes) < fixed_n / 4


def test_sprt_undecided_at_max_n():
    # D = |0.6 - 0.5| - |0.425 - 0.5| = 0.025 = delta / 2: the drift of the llr is 0; 400 games cannot decide
    xa, xb = bernoulli_pairs(np.random.default_rng(7), 0.6, 0.425, 400)
    result = sprt_paired(xa, xb, delta=0.05, batch=100)
    assert result.decision == "undecided" and result.n == 400
    assert result.lower < result.llr < result.upper
    assert list(result.history["n"]) == [100, 200, 300, 400]


def test_sprt_constant_outcomes_are_decided_at_once():
    ones = np.ones(1_000, np.int8)
    # A always 1 (|1 - 0.5| = 0.5), B always 0.5 away too: D = 0 exactly, no noise
    result = sprt_paired(ones, np.zeros(1_000, np.int8), delta=0.02, batch=100)
    assert result.decision == "not fairer" and result.n == 100


@pytest.mark.parametrize("kwargs, match", [
    (dict(delta=0), "delta: 0.0 is not allowed; expected a number > 0"),
    (dict(alpha=0.7), "alpha: 0.7 is not allowed; expected a number strictly between 0.0 and 0.5"),
    (dict(beta=0), "beta: 0 is not allowed"),
    (dict(batch=1), "batch: 1 is not allowed; expected an integer >= 2"),
    (dict(batch=100, n=50), "n: 50 is not allowed; expected an integer >= 100"),
    (dict(test="weaker"), "test: 'weaker' is not allowed; expected one of 'fairer', 'stronger'"),
    (dict(metric="ip"), "metric: 'ip' of kings_of_rome.siege is a mean, with no even value; give target="),
    (dict(target="half"), "target: 'half' is not allowed; expected a finite number"),
    (dict(metric="p_nope"), "metrics: 'p_nope' is not a metric of both variants"),
    (dict(seed=-3), "seed: -3 is not allowed"),
])
def test_sprt_bad_input(kwargs, match):
    with pytest.raises(ScenarioError, match=match):
        sprt(SIEGE, **kwargs)


def test_sprt_paired_bad_arrays():
    with pytest.raises(ScenarioError, match="xa, xb: shapes"):
        sprt_paired(np.zeros(10), np.zeros(9))
