"""Sweeps: points, axes, common random numbers, the store, resuming and extending, workers and backends."""
import importlib
import math

import numba
import numpy as np
import pandas as pd
import pytest

import romesim
from romesim.analysis.store import Store
from romesim.core.errors import PolicyError, RomesimError, ScenarioError

sweep_module = importlib.import_module("romesim.analysis.sweep")  # the package exports the function by that name
BATTLE = "kings_of_rome.battle"
TACTICS = {"policy.tactic": ["attack", "defence"], "nr_tactic_draw": ["coin_flip", "pool_without_replacement"]}


def same_sums(a, b):
    return np.array_equal(a.sums, b.sums) and np.array_equal(a.sumsq, b.sumsq) and a.n == b.n


def test_grid_points_in_order_each_equal_to_its_own_simulate_run():
    sweep = romesim.sweep(BATTLE, grid=TACTICS, n=3_000, seed=5)
    assert sweep.axes == ("policy.tactic", "nr_tactic_draw")
    assert sweep.points == [{"policy.tactic": t, "nr_tactic_draw": d} for t in TACTICS["policy.tactic"]
                            for d in TACTICS["nr_tactic_draw"]]
    for values, result in zip(sweep.points, sweep.results):
        scenario = romesim.scenario(BATTLE, nr_tactic_draw=values["nr_tactic_draw"])
        alone = romesim.simulate(scenario, 3_000, 5, policies={"tactic": values["policy.tactic"]})
        assert same_sums(result, alone)
    table = sweep.table()
    assert list(table.columns) == ["point", "policy.tactic", "nr_tactic_draw", "estimate", "ci_low", "ci_high", "n"]
    assert len(sweep.summary()) == 4 * len(sweep.scenario.metrics)
    assert sweep._repr_html_().count("<tr") == 5  # the header and one row per point
    fairest = sweep.fairest("p_win", target=0.5)  # the default for a battle is the edge p_win - p_loss
    assert list(fairest["distance"]) == sorted(abs(table["estimate"] - 0.5))


def test_points_match_the_exact_solver():
    # KoR 5.7.3 / KOR-A19: each tactic pair of a sweep against romesim.exact, 5 sigma
    n = 40_000
    sweep = romesim.sweep(BATTLE, points=[{"policy.tactic": "attack", "policy.nr_tactic": "defence"},
                                          {"policy.tactic": "defence", "policy.nr_tactic": "attack"}], n=n, seed=11)
    for scenario, i in zip(sweep.scenarios(), range(len(sweep))):
        exact = float(romesim.exact(scenario, policies=sweep.point_policies(i))["p_win"])
        sigma = math.sqrt(exact * (1 - exact) / n)
        assert abs(sweep.results[i]["p_win"] - exact) < 5 * sigma + 1e-12


def test_common_random_numbers_make_neighbouring_points_share_their_dice():
    # Thraex AP 10 vs 11 (jugule.duel ap_a, table 14): every game g uses the same dice at both points, so most
    # games end alike and the paired difference is far less noisy than two independent runs
    base = romesim.scenario("jugule.duel", a="thraex_late", b="murmillo")
    sweep = romesim.sweep(base, grid={"ap_a": [10, 11]}, n=2_000, seed=2)
    kept = [romesim.simulate(s, 2_000, 2, keep=True).outcomes["p_win"].to_numpy() for s in sweep.scenarios()]
    assert [k.sum() for k in kept] == [int(r.sums[0]) for r in sweep.results]
    assert np.mean(kept[0] == kept[1]) > 0.6  # independent runs near 50 % would agree about half the time


def test_policy_parameter_axis_sets_one_entry_of_the_builtin_vector():
    sweep = romesim.sweep(BATTLE, grid={"policy.tactic.p_attack": [0.0, 0.25, 1.0]}, policies={"tactic": "parametric"},
                          n=2_000, seed=3)
    for p, result in zip([0.0, 0.25, 1.0], sweep.results):
        assert same_sums(result, romesim.simulate(BATTLE, 2_000, 3, policies={"tactic": ("parametric", [p])}))
    assert sweep.point_policies(1) == {"tactic": ("parametric", [0.25])}


def test_latin_hypercube_puts_one_sample_in_every_stratum():
    sweep = romesim.sweep(BATTLE, lhs={"policy.tactic.p_attack": [0.0, 1.0], "tactic_pool_attack": [1, 8]},
                          samples=8, policies={"tactic": "parametric"}, n=200, seed=4)
    p = np.array([v["policy.tactic.p_attack"] for v in sweep.points])
    pools = sorted(v["tactic_pool_attack"] for v in sweep.points)
    assert sorted(np.floor(p * 8).astype(int)) == list(range(8))
    assert pools == list(range(1, 9))  # eight integer strata of [1, 8], one sample each
    again = romesim.sweep(BATTLE, lhs={"policy.tactic.p_attack": [0.0, 1.0], "tactic_pool_attack": [1, 8]},
                          samples=8, policies={"tactic": "parametric"}, n=200, seed=4)
    assert again.points == sweep.points


def test_store_skips_finished_points_and_extends_n_with_new_games_only(tmp_path, monkeypatch):
    first = romesim.sweep(BATTLE, grid=TACTICS, n=2_000, seed=9, store=tmp_path)
    assert len(Store(tmp_path).files()) == 4
    played = []
    real = sweep_module.simulate

    def spy(scenario, n, seed, **kwargs):
        played.append((n, kwargs["first"]))
        return real(scenario, n, seed, **kwargs)

    monkeypatch.setattr(sweep_module, "simulate", spy)
    again = romesim.sweep(BATTLE, grid=TACTICS, n=2_000, seed=9, store=tmp_path)
    assert played == [] and all(same_sums(a, b) for a, b in zip(first.results, again.results))
    more = romesim.sweep(BATTLE, grid=TACTICS, n=5_000, seed=9, store=tmp_path)
    assert played == [(3_000, 2_000)] * 4
    fresh = romesim.sweep(BATTLE, grid=TACTICS, n=5_000, seed=9)
    assert all(same_sums(a, b) for a, b in zip(more.results, fresh.results))
    # another seed is another key
    romesim.sweep(BATTLE, grid=TACTICS, n=2_000, seed=10, store=tmp_path)
    assert len(Store(tmp_path).files()) == 12


def test_store_answers_sql(tmp_path):
    sweep = romesim.sweep(BATTLE, grid=TACTICS, n=2_000, seed=9, store=tmp_path)
    frame = romesim.store.query("SELECT \"policy.tactic\", nr_tactic_draw, estimate, total, n FROM results "
                                "WHERE metric = 'p_win' ORDER BY \"policy.tactic\", nr_tactic_draw", store=tmp_path)
    table = sweep.table().sort_values(["policy.tactic", "nr_tactic_draw"])
    assert list(frame["estimate"]) == list(table["estimate"])
    assert list(frame["total"]) == [int(r.sums[0]) for r in np.array(sweep.results)[table.index]]
    assert set(romesim.store.query("SELECT DISTINCT scenario, generator FROM results", store=tmp_path).itertuples(
        index=False)) == {(BATTLE, romesim.GENERATOR)}


def test_workers_give_the_same_numbers():
    one = romesim.sweep(BATTLE, grid=TACTICS, n=3_000, seed=12)
    two = romesim.sweep(BATTLE, grid=TACTICS, n=3_000, seed=12, workers=2)
    assert all(same_sums(a, b) for a, b in zip(one.results, two.results))


def test_a_dask_cluster_gives_the_same_numbers():
    distributed = pytest.importorskip("distributed")
    import joblib

    one = romesim.sweep(BATTLE, grid=TACTICS, n=3_000, seed=12)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c, \
            distributed.Client(c):
        with joblib.parallel_config(backend="dask"):
            on_dask = romesim.sweep(BATTLE, grid=TACTICS, n=3_000, seed=12, workers=2)
    assert all(same_sums(a, b) for a, b in zip(one.results, on_dask.results))


@pytest.mark.parametrize("kwargs, message", [
    ({"grid": {"garrison": [1]}}, "garrison: not a parameter of kings_of_rome.battle"),
    ({"grid": {"policy.nobody": ["random"]}}, "has no decision point 'nobody'"),
    ({"grid": {"policy.tactic.p_attack": [0.5]}}, "'default' has no parameter 'p_attack'; its parameters: none"),
    ({"grid": {"policy.tactic.p_attack": [0.5]}, "policies": {"tactic": numba.njit(lambda s, p, r: 0)}},
     "only a built-in's parameters can be swept"),
    ({"grid": {"policy.tactic.speed": [0.5]}, "policies": {"tactic": "parametric"}}, "has no parameter 'speed'"),
    ({"grid": {"nr_tactic_draw": ["dice"]}}, "nr_tactic_draw: 'dice' is not allowed"),
    ({"grid": {"nr_tactic_draw": []}}, "expected a non-empty list"),
    ({"grid": {"policy.tactic": ["never"]}}, "unknown policy 'never'"),
    ({"grid": TACTICS, "lhs": {"tactic_pool_attack": [1, 3]}}, "exactly one of grid, lhs or points"),
    ({"lhs": {"tactic_pool_attack": [1, 3]}}, "samples: None is not allowed"),
    ({"lhs": {"tactic_pool_attack": "many"}, "samples": 3}, "lhs['tactic_pool_attack']"),
    ({"grid": TACTICS, "n": 0}, "n: 0 is not allowed"),
])
def test_bad_sweeps_are_refused_before_anything_runs(kwargs, message):
    kwargs = {"n": 100, **kwargs}
    with pytest.raises((ScenarioError, PolicyError), match=message.replace("(", r"\(").replace("[", r"\[")):
        romesim.sweep(BATTLE, **kwargs)


def test_store_errors_name_the_folder(tmp_path):
    with pytest.raises(RomesimError, match="holds no results"):
        romesim.store.query("SELECT 1 FROM results", store=tmp_path / "empty")
    (tmp_path / "file").write_text("x")
    with pytest.raises(RomesimError, match="is a file"):
        Store(tmp_path / "file")
    romesim.sweep(BATTLE, grid=TACTICS, n=100, seed=1, store=tmp_path / "s")
    with pytest.raises(RomesimError, match="store query failed"):
        romesim.store.query("SELECT nothing FROM results", store=tmp_path / "s")


def test_n_and_seed_are_positional_as_in_simulate():
    """``sweep(scenario, grid, n, seed)``, ``finite_differences(scenario, steps, n, seed)`` and
    ``skill_luck(scenario, strong, weak, n, seed)`` read like ``simulate(scenario, n, seed)``."""
    from romesim.analysis import finite_differences, skill_luck

    treason = romesim.scenario("kings_of_rome.treason")
    positional = romesim.sweep(treason, {"garrison": [1, 2]}, 500, 3)
    keywords = romesim.sweep(treason, grid={"garrison": [1, 2]}, n=500, seed=3)
    assert [r.sums.tolist() for r in positional.results] == [r.sums.tolist() for r in keywords.results]
    pd.testing.assert_frame_equal(finite_differences(treason, {"garrison": 1}, 500, 3),
                                  finite_differences(treason, {"garrison": 1}, n=500, seed=3))
    siege = romesim.scenario("kings_of_rome.siege", astutia=1)
    assert skill_luck(siege, {"reroll": "greedy"}, {"reroll": "never"}, 500, 3) == skill_luck(
        siege, {"reroll": "greedy"}, {"reroll": "never"}, n=500, seed=3)
    with pytest.raises(romesim.ScenarioError, match="n: None is not allowed"):
        romesim.sweep(treason, {"garrison": [1, 2]})
