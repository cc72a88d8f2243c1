"""Fairness of games that may end with no winner: the edge p_win - p_loss with its interval, used by
Sweep.fairest, compare and sprt; and the sequential "B stronger than A" test.

A KoR battle (5.7.11: "the side whose score is closer to 0 wins"; KOR-A29 battle_tie_rule no_winner: a tie has no
winner) ends with no winner 40-60 % of the time, so ``|p_win - 0.5|`` would call the most lopsided variant the
fairest. Expected values come from hand derivations in the comments or from the exact battle solver.
"""
import math
import warnings

import numpy as np
import pytest

from helpers import inf

import romesim
from romesim.analysis.compare import compare, sprt, sprt_paired
from romesim.analysis.fairness import EDGE, edge_interval, even_value, fairness_metric, result_edge
from romesim.core.errors import ScenarioError

BATTLE = "kings_of_rome.battle"
SIEGE = "kings_of_rome.siege"
Z = 1.959963984540054
SIGMA = 5.0
AA = {"tactic": "attack", "nr_tactic": "attack"}



def small_battle(**params):
    """KoR 5.7 with three class III Virtus 3 Romans against three Virtus 3 Latins and no leaders (exactly solved)."""
    armies = dict(roman_units=[inf(3, 3)] * 3, nr_units=[inf(3)] * 3, roman_leaders=[], nr_leaders=[])
    return romesim.scenario(BATTLE, **{**armies, **params})


def test_a_scenario_declares_whether_it_reports_both_sides_wins():
    assert romesim.scenario(BATTLE).loss_metric() == "p_loss"
    assert romesim.scenario(SIEGE).loss_metric() is None
    assert fairness_metric(romesim.scenario(BATTLE)) == EDGE
    assert fairness_metric(romesim.scenario(SIEGE)) == "p_win"
    assert even_value(romesim.scenario(BATTLE), EDGE) == 0.0
    assert even_value(romesim.scenario(SIEGE), "p_win") == 0.5
    for metric, why in (("p_loss", "one outcome of a game that may have no winner"), ("ip", "a mean")):
        with pytest.raises(ScenarioError, match=f"metric: '{metric}' of kings_of_rome.battle is {why}"):
            even_value(romesim.scenario(BATTLE), metric)


def test_edge_interval_from_the_sums_of_wins_and_losses():
    # four games: win, win, loss, no winner -> e = 1, 1, -1, 0; mean 1/4; sample variance
    # ((3/4)^2 * 2 + (5/4)^2 + (1/4)^2) / 3 = 11/12; half-width 1.96 * sqrt(11/12 / 4)
    est, low, high = edge_interval(2, 1, 4)
    half = Z * math.sqrt(11 / 12 / 4)
    assert est == 0.25 and low == pytest.approx(0.25 - half) and high == pytest.approx(0.25 + half)


def test_edge_of_a_run_matches_the_exact_solver_and_the_per_game_outcomes():
    battle = small_battle()
    exact = romesim.exact(battle, policies=AA)
    want = float(exact.exact_values["p_win"] - exact.exact_values["p_loss"])
    assert result_edge(exact) == (want, want, want)
    run = romesim.simulate(battle, 20_000, 3, policies=AA, keep=True)
    est, low, high = result_edge(run)
    assert abs(est - want) <= SIGMA * (high - low) / (2 * Z)
    # the same interval as the per-game values win - loss give directly
    outcomes = run.outcomes
    per_game = (outcomes["p_win"] - outcomes["p_loss"]).to_numpy(float)
    assert est == pytest.approx(per_game.mean())
    assert high - est == pytest.approx(Z * per_game.std(ddof=1) / math.sqrt(per_game.size))


def test_fairest_counts_the_battles_nobody_wins():
    # a grid of tie rule x Roman tactic: "attacker_wins, defence" has p_win near 0.4 (closest to 0.5)
    # but Rome almost never loses there: the most lopsided point, not the fairest
    sweep = romesim.sweep(BATTLE, grid={"battle_tie_rule": ["no_winner", "attacker_wins"],
                                        "policy.tactic": ["attack", "defence"]}, n=4_000, seed=2)
    by_p_win = sweep.fairest("p_win", target=0.5)
    lopsided = by_p_win.iloc[0]
    assert (lopsided["battle_tie_rule"], lopsided["policy.tactic"]) == ("attacker_wins", "defence")
    fairest = sweep.fairest()
    assert list(fairest.columns[:4]) == ["point", "battle_tie_rule", "policy.tactic", "distance"]
    wins, losses = (sweep.table(m).set_index("point")["estimate"] for m in ("p_win", "p_loss"))
    for r in fairest.itertuples():
        assert r.estimate == pytest.approx(wins[r.point] - losses[r.point])
        assert r.distance == pytest.approx(abs(wins[r.point] - losses[r.point]))
    assert list(fairest["distance"]) == sorted(fairest["distance"])
    assert fairest.iloc[-1]["point"] == lopsided["point"]  # the p_win answer is the least fair point
    with pytest.raises(ScenarioError, match="'p_loss' of kings_of_rome.battle is one outcome"):
        sweep.fairest("p_loss")
    with pytest.raises(ScenarioError, match="'ip' of kings_of_rome.battle is a mean"):
        sweep.fairest("ip")
    assert len(sweep.fairest("ip", target=0)) == 4


def test_compare_reports_the_edge_and_its_distance_from_even():
    a, b = small_battle(), small_battle(nr_units=[inf(3), inf(3), inf(2)])
    table = compare(a, b, 20_000, 5, policies_a=AA, policies_b=AA).set_index("metric")
    assert list(table.index[-2:]) == ["edge", "|edge|"]
    exact = {s: romesim.exact(s, policies=AA).exact_values for s in (a, b)}
    edge = {s: float(exact[s]["p_win"] - exact[s]["p_loss"]) for s in (a, b)}
    row = table.loc["edge"]
    # the edge's paired difference is the difference of p_win's minus that of p_loss, game by game
    assert row["difference"] == pytest.approx(table.loc["p_win", "difference"] - table.loc["p_loss", "difference"])
    assert abs(row["difference"] - (edge[b] - edge[a])) <= SIGMA * (row["ci_high"] - row["ci_low"]) / (2 * Z)
    distance = table.loc["|edge|"]
    want = abs(edge[b]) - abs(edge[a])
    assert distance["a"] == pytest.approx(abs(row["a"])) and distance["b"] == pytest.approx(abs(row["b"]))
    assert abs(distance["difference"] - want) <= SIGMA * (distance["ci_high"] - distance["ci_low"]) / (2 * Z)
    # a two-outcome game: the distance of p_win from 0.5
    siege = compare(SIEGE, romesim.scenario(SIEGE, garrison=1), 2_000).set_index("metric")
    assert "edge" not in siege.index and siege.index[-1] == "|p_win - 0.5|"


def test_compare_and_sprt_take_n_positionally_and_workers():
    b = romesim.scenario(SIEGE, garrison=1)
    assert compare(SIEGE, b, 3_000, 1).equals(compare(SIEGE, b, n=3_000, seed=1, workers=2))
    with pytest.raises(ScenarioError, match="n: missing"):
        compare(SIEGE, b)
    positional = sprt(SIEGE, b, 5_000, 1, batch=500)
    assert repr(positional) == repr(sprt(SIEGE, b, n=5_000, seed=1, batch=500, workers=2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old = sprt(SIEGE, b, seed=1, batch=500, max_n=5_000)
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)
    assert repr(old) == repr(positional)


def test_sprt_stronger_decides_rome_should_attack_or_defend():
    battle = romesim.scenario(BATTLE)
    # KoR 5.7.3: with the default armies DEFENCE raises Rome's edge by about 0.38 (KOR-A19 random NR draw)
    stronger = sprt(battle, None, 100_000, 4, test="stronger", policies_a={"tactic": "attack"},
                    policies_b={"tactic": "defence"}, batch=500)
    assert stronger.decision == "B stronger" and stronger.metric == EDGE and stronger.test == "stronger"
    assert stronger.difference == pytest.approx(stronger.b - stronger.a)
    assert "B stronger than A" in repr(stronger) and "<b>" in stronger._repr_html_()
    weaker = sprt(battle, None, 100_000, 4, test="stronger", policies_a={"tactic": "defence"},
                  policies_b={"tactic": "attack"}, batch=500)
    assert weaker.decision == "not stronger" and weaker.llr <= weaker.lower


def test_sprt_stronger_error_rates_on_synthetic_pairs():
    # paired Bernoulli pairs: under D = 0 the test says "B stronger" at most about alpha of the time; under D = delta
    # "not stronger" at most about beta (Wald's bounds; the batched looks make it a little conservative)
    rng = np.random.default_rng(8)
    reps, size, delta = 200, 20_000, 0.05

    def pairs(pa, pb):  # half the games share one uniform (like common dice), half draw their own
        u = rng.random(size)
        v = np.where(rng.random(size) < 0.5, u, rng.random(size))
        return (u < pa).astype(np.int8), (v < pb).astype(np.int8)

    null = [sprt_paired(*pairs(0.4, 0.4), test="stronger", delta=delta, batch=200).decision for _ in range(reps)]
    alt = [sprt_paired(*pairs(0.4, 0.4 + delta), test="stronger", delta=delta, batch=200).decision
           for _ in range(reps)]
    # alpha = 0.05 over 200 runs: 5 sigma of a binomial(200, 0.05) is about 15 above its mean of 10
    assert null.count("B stronger") <= 25 and alt.count("not stronger") <= 25
    assert null.count("not stronger") >= 150 and alt.count("B stronger") >= 150
