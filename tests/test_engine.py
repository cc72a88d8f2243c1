"""romesim.core.engine: reproducibility under any split of the work, early stopping, aggregation, errors, progress."""
import json
import math
import os

import numba
import numpy as np
import pandas as pd
import pytest

import romesim
from romesim.core import engine
from romesim.core.engine import CHUNK, checkpoints

N = 50_000
SIEGE = romesim.scenario("kings_of_rome.siege", garrison=2, astutia=2)
TREASON = romesim.scenario("kings_of_rome.treason", ip_spent=1)
IGNOMINY = romesim.scenario("kings_of_rome.ignominy")
SCENARIOS = pytest.mark.parametrize("scn", [SIEGE, TREASON, IGNOMINY], ids=["siege", "treason", "ignominy"])


def same(a, b, outcomes=True):
    """Bit-identical results: integer sums, sums of squares, n, and (when kept) the per-game outcomes."""
    assert a.n == b.n
    assert a.sums.dtype == np.int64 and b.sums.dtype == np.int64
    np.testing.assert_array_equal(a.sums, b.sums)
    np.testing.assert_array_equal(a.sumsq, b.sumsq)
    if outcomes:
        pd.testing.assert_frame_equal(a.outcomes, b.outcomes, check_exact=True)


@pytest.fixture
def numba_threads():
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


# --------------------------------------------------------------------------- reproducibility
@SCENARIOS
def test_thread_count_does_not_change_bits(scn, numba_threads):
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba was started with a single thread")
    numba.set_num_threads(1)
    one = romesim.simulate(scn, N, seed=3, keep=True)
    numba.set_num_threads(2)
    two = romesim.simulate(scn, N, seed=3, keep=True)
    same(one, two)


@SCENARIOS
def test_worker_processes_do_not_change_bits(scn):
    local = romesim.simulate(scn, N, seed=4, keep=True, chunk=10_000)
    pooled = romesim.simulate(scn, N, seed=4, keep=True, workers=2, chunk=10_000)
    same(local, pooled)
    # workers without keep, default chunk (a single chunk here)
    same(romesim.simulate(scn, N, seed=4), romesim.simulate(scn, N, seed=4, workers=2), outcomes=False)


def test_workers_when_os_reports_more_cpus_than_this_process_may_use(monkeypatch):
    # In a container with a CPU quota, under taskset or Slurm, os.cpu_count() is larger than the CPUs joblib
    # counts; joblib then starts its workers with NUMBA_NUM_THREADS = (its cpu count) // workers, and the engine
    # must not ask a worker for more numba threads than that.
    monkeypatch.setattr(os, "cpu_count", lambda: 10_000)
    same(romesim.simulate(TREASON, 20_000, seed=1, workers=2, chunk=5000),
         romesim.simulate(TREASON, 20_000, seed=1), outcomes=False)


@SCENARIOS
def test_chunk_size_does_not_change_bits(scn):
    default = romesim.simulate(scn, N, seed=5, keep=True)
    for chunk in (1000, 4097, 1):
        if chunk == 1:
            small = romesim.simulate(scn, 3000, seed=5, keep=True, chunk=1)
            same(small, romesim.simulate(scn, 3000, seed=5, keep=True))
            continue
        same(default, romesim.simulate(scn, N, seed=5, keep=True, chunk=chunk))


@SCENARIOS
def test_cut_into_blocks_does_not_change_bits(scn, monkeypatch):
    """A kernel plays its games in ``n_blocks(count)`` blocks of 1024 games, one dice stream and one set of buffers
    a block. A game's dice depend on its number only: one block, seven or the default play the same games."""
    assert (engine.n_blocks(0), engine.n_blocks(3), engine.n_blocks(1024), engine.n_blocks(100_000)) == (1, 1, 1, 98)
    default = romesim.simulate(scn, 700, seed=6, keep=True)
    for blocks in (1, 7):
        monkeypatch.setattr(engine, "n_blocks", lambda count, blocks=blocks: blocks)
        same(default, romesim.simulate(scn, 700, seed=6, keep=True))


def test_a_run_is_cut_in_four_ranges_a_thread_each_at_most_a_chunk():
    """Threads take the next range as they finish (``in_order``): a few hundred searched campaigns, of uneven
    length, are shared out four ranges a thread, not cut in halves."""
    assert engine.piece_size(700, CHUNK, 2) == 88 and engine.piece_size(700, CHUNK, 1) == 700
    assert engine.piece_size(10 * CHUNK, CHUNK, 2) == CHUNK and engine.piece_size(3, CHUNK, 2) == 1
    assert engine.pieces(10, 710, CHUNK, 2) == [(a, min(a + 88, 710)) for a in range(10, 710, 88)]


def test_in_order_gives_the_ranges_results_in_order_whichever_thread_ends_first():
    import time

    def work(a, b):
        time.sleep(0.02 if a == 0 else 0)  # the first range ends last
        return a * 10
    ranges = [(a, a + 1) for a in range(9)]
    assert list(engine.in_order(work, iter(ranges), 2)) == [(a + 1, a * 10) for a in range(9)]
    assert list(engine.in_order(work, iter(ranges), 1)) == [(a + 1, a * 10) for a in range(9)]


def test_in_order_raises_the_error_of_the_first_range_in_order_and_leaves_nothing_running():
    import threading
    import time
    started, lock = [], threading.Lock()

    def work(a, b):
        with lock:
            started.append(a)
        if a == 1:
            time.sleep(0.05)  # range 3 fails first
            raise ValueError("range 1")
        if a == 3:
            raise ValueError("range 3")
        return a

    with pytest.raises(ValueError, match="range 1"):
        list(engine.in_order(work, [(a, a + 1) for a in range(40)], 2))
    count = len(started)
    time.sleep(0.05)
    assert len(started) == count < 40  # what was queued behind the error was cancelled, not played


def test_seed_matters():
    a = romesim.simulate(SIEGE, N, seed=1)
    b = romesim.simulate(SIEGE, N, seed=2)
    assert not np.array_equal(a.sums, b.sums)
    assert a.seed == 1 and b.seed == 2


def test_same_call_same_bits():
    same(romesim.simulate(SIEGE, N, seed=9, keep=True), romesim.simulate(SIEGE, N, seed=9, keep=True))


@SCENARIOS
def test_prefix_of_a_run_is_a_run(scn):
    n, k = 60_000, 23_457
    long = romesim.simulate(scn, n, seed=11, keep=True, chunk=7000)
    short = romesim.simulate(scn, k, seed=11, keep=True)
    pd.testing.assert_frame_equal(long.outcomes.iloc[:k], short.outcomes, check_exact=True)
    head = long.outcomes.iloc[:k].to_numpy(np.int64)
    np.testing.assert_array_equal(romesim.simulate(scn, k, seed=11).sums, head.sum(axis=0))
    np.testing.assert_array_equal(short.sumsq, (head * head).sum(axis=0))
    # and the whole run's sums are those of its kept outcomes
    np.testing.assert_array_equal(long.sums, long.outcomes.to_numpy(np.int64).sum(axis=0))


def test_common_random_numbers_across_scenarios():
    # the same seed draws the same dice per game: siege with astutia 0 and with rerolls switched off agree
    a = romesim.simulate(SIEGE.replace(astutia=0), N, seed=6, keep=True)
    b = romesim.simulate(SIEGE, N, seed=6, keep=True, policies={"reroll": "never"})
    same(a, b)


# --------------------------------------------------------------------------- kept outcomes
@SCENARIOS
def test_keep_gives_one_column_per_metric(scn):
    r = romesim.simulate(scn, 12_345, seed=1, keep=True)
    frame = r.outcomes
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == list(scn.metrics)
    assert len(frame) == 12_345 and r.n == 12_345
    assert all(np.issubdtype(t, np.integer) for t in frame.dtypes)
    assert frame.index.equals(pd.RangeIndex(12_345)) or list(frame.index) == list(range(12_345))


def test_outcomes_without_keep_raise_a_helpful_attribute_error():
    r = romesim.simulate(SIEGE, 1000, seed=1)
    with pytest.raises(AttributeError, match=r"keep=True"):
        r.outcomes
    assert not hasattr(r, "outcomes")


# --------------------------------------------------------------------------- early stopping
def _half(result, metric="p_win"):
    low, high = result.interval(metric)
    return (high - low) / 2


def test_target_ci_stops_at_a_checkpoint_whatever_the_split():
    n, target = 200_000, 0.005  # p_win ~ 0.75: half-width 0.0085 at 10k, 0.0042 at 40k
    points = checkpoints(n, target)
    assert points == [10_000, 20_000, 40_000, 80_000, 160_000, 200_000]
    base = romesim.simulate(SIEGE, n, seed=21, target_ci=target)
    assert base.n in points and base.n < n
    assert _half(base) <= target
    # it stopped at the first checkpoint where the target was reached
    before = points[points.index(base.n) - 1]
    assert _half(romesim.simulate(SIEGE, before, seed=21)) > target
    # and the stopped run is the run of that many games
    same(base, romesim.simulate(SIEGE, base.n, seed=21), outcomes=False)
    for kwargs in ({"workers": 2}, {"chunk": 3001}, {"chunk": 4097, "workers": 2}):
        same(base, romesim.simulate(SIEGE, n, seed=21, target_ci=target, **kwargs), outcomes=False)


def test_target_ci_dict_on_a_mean_metric():
    r = romesim.simulate(SIEGE, 200_000, seed=22, target_ci={"ip": 0.03})
    assert r.n in checkpoints(200_000, 0.03) and r.n < 200_000
    assert _half(r, "ip") <= 0.03


def test_target_never_reached_plays_all_games():
    n = 50_000
    r = romesim.simulate(SIEGE, n, seed=23, target_ci=1e-5)
    assert r.n == n
    same(r, romesim.simulate(SIEGE, n, seed=23), outcomes=False)
    assert checkpoints(n, None) == [n]
    assert checkpoints(5_000, 0.01) == [5_000]


def test_target_ci_with_keep_keeps_exactly_the_games_played():
    r = romesim.simulate(SIEGE, 200_000, seed=21, target_ci=0.005, keep=True, chunk=6000)
    assert len(r.outcomes) == r.n < 200_000
    np.testing.assert_array_equal(r.sums, r.outcomes.to_numpy(np.int64).sum(axis=0))


# --------------------------------------------------------------------------- aggregation and Result
def test_sums_are_int64_and_match_outcomes():
    r = romesim.simulate(SIEGE, N, seed=31, keep=True)
    assert r.sums.dtype == np.int64 and r.sumsq.dtype == np.int64
    data = r.outcomes.to_numpy(np.int64)
    np.testing.assert_array_equal(r.sums, data.sum(axis=0))
    np.testing.assert_array_equal(r.sumsq, (data * data).sum(axis=0))


def test_summary_layout_and_intervals():
    r = romesim.simulate(SIEGE, N, seed=32, keep=True)
    table = r.summary()
    assert list(table.columns) == ["metric", "estimate", "ci_low", "ci_high", "n"]
    assert list(table["metric"]) == list(SIEGE.metrics)
    assert (table["n"] == N).all()
    # Wilson 95 % interval for p_win, written out directly
    s = int(r.outcomes["p_win"].sum())
    z = 1.959963984540054
    p = s / N
    centre = (p + z * z / (2 * N)) / (1 + z * z / N)
    half = z / (1 + z * z / N) * math.sqrt(p * (1 - p) / N + z * z / (4 * N * N))
    row = table.set_index("metric").loc["p_win"]
    assert row["estimate"] == pytest.approx(p, rel=1e-12)
    assert row["ci_low"] == pytest.approx(centre - half, rel=1e-9)
    assert row["ci_high"] == pytest.approx(centre + half, rel=1e-9)
    # Wilson is not the Wald interval (which would be centred on p)
    assert abs((row["ci_low"] + row["ci_high"]) / 2 - p) > 1e-7
    # a mean metric: mean +/- z * sd / sqrt(n)
    ip = r.outcomes["ip"].to_numpy(np.float64)
    se = ip.std(ddof=1) / math.sqrt(N)
    row = table.set_index("metric").loc["ip"]
    assert row["estimate"] == pytest.approx(ip.mean(), rel=1e-12)
    assert row["ci_low"] == pytest.approx(ip.mean() - z * se, rel=1e-9)
    assert row["ci_high"] == pytest.approx(ip.mean() + z * se, rel=1e-9)
    assert r["p_win"] == pytest.approx(p, rel=1e-12)


def test_exact_summary_has_point_intervals_and_no_n():
    e = romesim.exact(SIEGE)
    table = e.summary()
    assert list(table.columns) == ["metric", "estimate", "ci_low", "ci_high", "n"]
    assert (table["ci_low"] == table["estimate"]).all()
    assert (table["ci_high"] == table["estimate"]).all()
    assert table["n"].isna().all()
    assert table["n"].iloc[0] is pd.NA
    json.dumps(e.to_dict())
    assert e.to_dict()["n"] is None


def test_to_dict_is_json_ready():
    r = romesim.simulate(SIEGE, 20_000, seed=33)
    d = r.to_dict()
    back = json.loads(json.dumps(d, allow_nan=False))
    assert back == d
    assert back["n"] == 20_000 and back["seed"] == 33
    assert set(back["metrics"]) == set(SIEGE.metrics)
    assert back["metrics"]["p_win"]["estimate"] == pytest.approx(r["p_win"])
    # a numpy integer n / seed must not leak into the dict
    d2 = romesim.simulate(SIEGE, np.int64(2_000), seed=np.uint64(7)).to_dict()
    json.dumps(d2, allow_nan=False)


def test_simulation_agrees_with_exact():
    e = romesim.exact(SIEGE)
    r = romesim.simulate(SIEGE, 200_000, seed=34)
    for m in SIEGE.metrics:
        low, high = r.interval(m)
        se = max((high - low) / (2 * 1.959963984540054), 1e-12)
        assert abs(r[m] - e[m]) < 5 * se + 1e-12, m


# --------------------------------------------------------------------------- memory is flat in n
def test_many_chunks_without_keep(monkeypatch):
    n = 3 * CHUNK + 5
    calls = []
    original = engine.run_chunk

    def spy(scenario, seed, first, count, resolved, keep, args=None):
        calls.append((first, count, keep))
        return original(scenario, seed, first, count, resolved, keep, args)

    monkeypatch.setattr(engine, "run_chunk", spy)
    r = romesim.simulate(TREASON, n, seed=41)
    assert r.n == n
    calls = sorted(call for call in calls if call[1])  # threads play the ranges in any order; compiling plays none
    assert all(count <= CHUNK and keep is False for _, count, keep in calls) and len(calls) >= 4
    assert [first for first, _, _ in calls] == [sum(count for _, count, _ in calls[:i]) for i in range(len(calls))]
    assert sum(count for _, count, _ in calls) == n
    monkeypatch.undo()
    same(r, romesim.simulate(TREASON, n, seed=41, chunk=n), outcomes=False)
    same(r, romesim.simulate(TREASON, n, seed=41, chunk=CHUNK + 1), outcomes=False)


# --------------------------------------------------------------------------- errors
@pytest.mark.parametrize("kwargs, field, value", [
    ({"n": 0}, "n", "0"),
    ({"n": -1}, "n", "-1"),
    ({"n": 1.5}, "n", "1.5"),
    ({"n": True}, "n", "True"),
    ({"n": "100"}, "n", "'100'"),
    ({"seed": -1}, "seed", "-1"),
    ({"seed": 2**64}, "seed", str(2**64)),
    ({"seed": 1.0}, "seed", "1.0"),
    ({"workers": 0}, "workers", "0"),
    ({"chunk": 0}, "chunk", "0"),
    ({"target_ci": 0}, "target_ci", "0"),
    ({"target_ci": -0.1}, "target_ci", "-0.1"),
    ({"target_ci": {"p_nope": 0.01}}, "target_ci", "'p_nope'"),
    ({"scenario": "kings_of_rome.nope"}, "scenario", "'kings_of_rome.nope'"),
    ({"scenario": 42}, "scenario", "42"),
])
def test_bad_arguments_raise_scenario_error(kwargs, field, value):
    args = {"scenario": SIEGE, "n": 100, **kwargs}
    with pytest.raises(romesim.ScenarioError) as info:
        romesim.simulate(args.pop("scenario"), args.pop("n"), **args)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert field in message and value in message, message


def test_registered_name_string_is_accepted():
    same(romesim.simulate("kings_of_rome.treason", 5000, seed=1),
         romesim.simulate(romesim.scenario("kings_of_rome.treason"), 5000, seed=1), outcomes=False)


def test_extreme_seeds_are_accepted():
    assert romesim.simulate(TREASON, 1000, seed=2**64 - 1).n == 1000
    assert romesim.simulate(TREASON, 1000, seed=0).n == 1000


# --------------------------------------------------------------------------- progress
def test_progress_true_writes_a_line_to_stderr(capsys):
    romesim.simulate(SIEGE, 20_000, seed=1, progress=True, chunk=5000)
    captured = capsys.readouterr()
    assert "20,000/20,000" in captured.err and "games" in captured.err
    assert captured.err.endswith("\n")
    assert captured.out == ""


@pytest.mark.parametrize("progress", [False, None])
def test_progress_false_is_silent(capsys, progress):
    romesim.simulate(SIEGE, 20_000, seed=1, progress=progress, chunk=5000)
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""


@pytest.mark.parametrize("name", sorted(romesim.list_scenarios()["scenario"]))
def test_every_scenario_gives_the_same_bits_in_worker_processes(name):
    scenario = romesim.scenario(name)
    local = romesim.simulate(scenario, 3000, seed=8, chunk=1000)
    pooled = romesim.simulate(scenario, 3000, seed=8, chunk=1000, workers=2)
    assert (local.sums == pooled.sums).all() and (local.sumsq == pooled.sumsq).all()
