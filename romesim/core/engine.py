"""The engine: plays a scenario's kernel n times, reproducibly, in chunks, threads and processes.

Reproducibility rests on three rules. Each game draws only from its own stream keyed by (seed, game index).
Outcomes are integers and are aggregated as int64 sums, so any split of the games gives the same bits.
Early stopping (``target_ci``) looks at the results only at fixed game counts (``checkpoints``), never at chunk
or worker boundaries, so the number of games played does not depend on how the work was split.

Every kernel plays its games with the one block loop of ``romesim.core.loop``; a kernel's arguments are
``(seed, first, count, scenario.kernel_args(), codes, params, slots, out, sums, sumsq, errors)``. A kernel call
plays its range of games on the calling thread without holding Python's lock; a run's ranges are played on numba's
``get_num_threads()`` threads at once (``in_order``).
"""
import os
import sys
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor

import joblib
import numba
import numpy as np
import pandas as pd

from . import parallel_compile, policy as _policy
from .errors import ExactNotSupported, RomesimError, ScenarioError
from .jit import roomy
from .loop import BLOCK, n_blocks, record
from .result import Result
from .rng import GENERATOR
from .scenario import Scenario, get, registered

CHUNK = 1 << 18  # games per kernel call: bounds memory whatever n is
CHECKPOINT_BASE = 10_000
MAX_SEED = (1 << 64) - 1
MAX_GAME = (1 << 63) - 1  # game indices are int64 in the kernels


def _as_scenario(scenario):
    if isinstance(scenario, str):
        return get(scenario).from_dict({})
    if not isinstance(scenario, Scenario):
        raise ScenarioError(f"scenario: expected a Scenario or a registered name, got {scenario!r}")
    return scenario


def _check_int(name, value, lo, hi=None):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo or (
            hi is not None and value > hi):
        upper = f" and <= {hi}" if hi is not None else ""
        raise ScenarioError(f"{name}: {value!r} is not allowed; expected an integer >= {lo}{upper}")
    return int(value)


_CALLED = set()  # (kernel, variant) called once in this process (``core.policy.VARIANTS``)


def compiled(scenario, resolved):
    """Compile ``scenario``'s kernel for ``resolved``'s policies, or load it, unless this process did: before
    threads call it (``in_order``), so that it compiles here, in a frame with room for the compiler."""
    if (scenario.kernel, resolved.variant) not in _CALLED:
        run_chunk(scenario, 0, 0, 0, resolved, False)


def warm(scenarios=None, *, user_bots=True, search=False):
    """Compile now, into numba's cache, the kernels that ``scenarios`` play (names or ``Scenario``\\ s; None: every
    registered scenario at its defaults), so that a later first run, in any process, only loads them: every kernel
    its settings may pick (``Scenario.kernel_scenarios``: a siege plays one kernel without the battle's code and one
    with it), in the variants (``core.policy.VARIANTS``) for built-ins only; with ``user_bots``, the one every user
    function shares, which a scenario's first bot would otherwise compile; with ``search``, the one the search
    built-ins play (a scenario offering them). A game with nested decision points (the campaign's procedures) has
    each of the last two twice: with the policies at its own points, and inside its procedures. Returns a DataFrame:
    scenario, kernel, variant, seconds (a variant already in the cache takes a load's time)."""
    if scenarios is None:
        scenarios = sorted(cls.name for cls in registered())
    elif isinstance(scenarios, (str, Scenario)):
        scenarios = [scenarios]
    rows = []
    for sc in [k for s in scenarios for k in _as_scenario(s).kernel_scenarios()]:
        points = sc.decision_points
        variants = [_policy.resolve(points)]
        built_in = variants[0]
        for inside in (False, True):  # the points of the game itself; the nested ones, inside its procedures
            chosen = [dp for dp in points if dp.nested == inside]
            if user_bots and chosen:
                never_called = tuple(_policy.builtin_slot if inside or not dp.nested else None for dp in points)
                variants.append(_policy.ResolvedPolicies(built_in.names, built_in.codes, built_in.params,
                                                         never_called, built_in.nested))  # codes: the built-ins'
            searched = _policy.searchable(chosen)
            if search and searched is not None:
                variants.append(_policy.resolve(points, {searched: "flat_mc"}))
        for policies in variants:
            start = time.perf_counter()
            compiled(sc, policies)
            rows.append({"scenario": sc.name, "kernel": sc.kernel.__name__,
                         "variant": policies.variant, "seconds": time.perf_counter() - start})
    return pd.DataFrame(rows, columns=["scenario", "kernel", "variant", "seconds"])


def run_chunk(scenario, seed, first, count, resolved, keep, args=None):
    """Play games ``first .. first+count-1`` on this thread; returns ``(sums, sumsq, outcomes or None)``. ``args``:
    the scenario's ``kernel_args()`` when the caller built them already (a trace builds them before it starts
    recording: the set-up is not the game)."""
    k = len(scenario.metrics)
    blocks = n_blocks(count)  # the kernel plays count / blocks games a block
    sums = np.zeros((blocks, k), np.int64)
    sumsq = np.zeros((blocks, k), np.int64)
    errors = np.zeros((blocks, 2), np.int64)
    out = np.zeros((k, count if keep else 0), np.int32)
    slots = resolved.slots
    args = tuple(scenario.kernel_args()) if args is None else tuple(args)
    inputs = (np.uint64(seed), first, count, args, resolved.codes, resolved.params, slots,
              out, sums, sumsq, errors)
    variant = (scenario.kernel, resolved.variant)
    if variant in _CALLED:
        scenario.kernel(*inputs)
    else:  # the first call of the kernel's variant in this process compiles it, or loads it from numba's cache
        parallel_compile.prepare(scenario, resolved.variant)
        roomy(scenario.kernel, *inputs)
        _CALLED.add(variant)
    bad = np.flatnonzero(errors[:, 0])
    if bad.size:
        code, game = errors[bad[0]]
        raise _policy.decode_error(code, scenario.decision_points, int(game), seed, scenario.name)
    return sums.sum(axis=0), sumsq.sum(axis=0), out if keep else None


def in_order(work, ranges, threads=None):
    """``(stop, work(start, stop))`` for each ``(start, stop)`` of ``ranges``, in their order, ``threads`` of them
    worked at once (numba's ``get_num_threads()`` by default) and as many more queued, so that no thread waits
    for the caller to hand it the next. ``work`` runs a compiled kernel, which lets go of Python's lock.

    Why threads of the engine's rather than numba's ``prange`` inside each kernel: a parallel region cost every
    kernel about a second of its cold compile (the campaign's kernel compiled in 1.9 s with one, 0.7 s without;
    the treason's in 1.0 and 0.6 s), and handing each kernel call's blocks to threads and waiting for them, a chunk
    at a time, cost a fast procedure a fifth of its speed on two threads: here the threads go from one range to
    the next without waiting. Raises the error of the first range, in order, whose work raised one."""
    threads = numba.get_num_threads() if threads is None else threads
    if threads < 2:
        for start, stop in ranges:
            yield stop, work(start, stop)
        return
    pool, pending = _pool(threads), deque()
    try:
        for start, stop in ranges:
            pending.append((stop, pool.submit(work, start, stop)))
            if len(pending) >= 2 * threads:
                stop, part = pending.popleft()
                yield stop, part.result()
        while pending:
            stop, part = pending.popleft()
            yield stop, part.result()
    finally:  # an error, or a caller that stops early: nothing queued starts, nothing started is left running
        for _, part in pending:
            part.cancel()
        for _, part in pending:
            if not part.cancelled():
                part.exception()


_POOLS = {}
_POOLS_LOCK = threading.Lock()
os.register_at_fork(after_in_child=_POOLS.clear)  # a forked child has none of its parent's threads


def _pool(threads):
    """The engine's ``threads`` threads (one pool for each count asked for)."""
    with _POOLS_LOCK:
        if threads not in _POOLS:
            _POOLS[threads] = ThreadPoolExecutor(threads, f"romesim-{threads}")
        return _POOLS[threads]


def piece_size(count, size, threads):
    """The games in each range of a run of ``count`` played on ``threads`` threads: at most ``size``, and on
    several threads few enough to make four ranges a thread, so that threads taking the next range as they finish
    share out games of uneven length."""
    return max(1, min(size, count if threads < 2 else -(-count // (4 * threads))))


def pieces(start, stop, size, threads):
    """``start .. stop`` cut in ranges of ``piece_size`` games."""
    size = piece_size(stop - start, size, threads)
    return [(a, min(a + size, stop)) for a in range(start, stop, size)]


def run_range(scenario, seed, first, count, resolved, keep, threads=None):
    """``run_chunk`` of games ``first .. first+count-1`` played on ``threads`` threads (``in_order``)."""
    compiled(scenario, resolved)
    threads = numba.get_num_threads() if threads is None else threads
    args = tuple(scenario.kernel_args())
    parts = [part for _, part in in_order(
        lambda a, b: run_chunk(scenario, seed, a, b - a, resolved, keep, args),
        pieces(first, first + count, count, threads), threads)]
    return (sum(p[0] for p in parts), sum(p[1] for p in parts),
            np.concatenate([p[2] for p in parts], axis=1) if keep else None)


def checkpoints(n, target_ci):
    """Game counts at which early stopping may look: doubling from CHECKPOINT_BASE, then n."""
    if target_ci is None:
        return [n]
    points, c = [], CHECKPOINT_BASE
    while c < n:
        points.append(c)
        c *= 2
    return points + [n]


def _targets(scenario, target_ci):
    if target_ci is None:
        return None
    targets = target_ci if isinstance(target_ci, dict) else {scenario.metrics[0]: target_ci}
    for metric, half in targets.items():
        if metric not in scenario.metrics:
            raise ScenarioError(f"target_ci: {metric!r} is not a metric of {scenario.name}; "
                                f"metrics: {', '.join(scenario.metrics)}")
        if isinstance(half, bool) or not isinstance(half, (int, float)) or not half > 0:
            raise ScenarioError(f"target_ci: {half!r} is not allowed; expected a half-width > 0")
    return targets


def _reached(result, targets):
    for metric, half in targets.items():
        low, high = result.interval(metric)
        if not (high - low) / 2 <= half:
            return False
    return True


class _Progress:
    """A one-line progress bar on stderr.

    ``enabled``: True shows it from the start; ``"auto"`` shows it once a run has lasted ``AUTO_AFTER`` seconds
    (a terminal's default: a run of a few seconds shows how far it is, a quick one prints nothing); False never.
    While a bar may show, ``chunk_size`` paces the kernel calls to about ``PACE`` seconds each, so the bar moves
    even in a run of two default chunks (the results do not depend on the chunk size).
    """

    AUTO_AFTER = 2.0
    PACE = 0.25

    def __init__(self, total, enabled):
        self.total, self.start = total, time.perf_counter()
        self.auto, self.enabled = enabled == "auto", enabled is True
        self.done = 0

    def chunk_size(self, limit):
        if not (self.auto or self.enabled):
            return limit
        if self.done == 0:
            return min(limit, 8 * BLOCK)
        rate = self.done / max(time.perf_counter() - self.start, 1e-9)
        return max(BLOCK, min(limit, int(rate * self.PACE)))

    def update(self, done):
        self.done = done
        if self.auto and not self.enabled and time.perf_counter() - self.start >= self.AUTO_AFTER:
            self.enabled = done < self.total
        if not self.enabled:
            return
        frac = done / self.total
        rate = done / max(time.perf_counter() - self.start, 1e-9)
        bar = "#" * int(30 * frac)
        sys.stderr.write(f"\r[{bar:<30}] {frac:6.1%} {done:,}/{self.total:,} games {rate:,.0f} games/s")
        sys.stderr.flush()

    def close(self):
        if self.enabled:
            sys.stderr.write("\n")


def _paced(start, stop, chunk, bar, threads):
    """``start .. stop`` cut in ranges of ``piece_size`` games, or fewer as the bar's pace asks."""
    size = piece_size(stop - start, chunk, threads)
    a = start
    while a < stop:
        b = min(a + min(size, bar.chunk_size(size)), stop)
        yield a, b
        a = b


def simulate(scenario, n, seed=0, *, policies=None, workers=None, keep=False, target_ci=None, progress=None,
             chunk=CHUNK, first=0):
    """Play ``scenario`` ``n`` times from ``seed`` and return a ``Result``.

    policies: ``{decision_point: policy}`` (see ``romesim.core.policy``). workers: processes (joblib/loky);
    ``None`` or 1 runs in this process on all numba threads. keep: keep per-game outcomes (``Result.outcomes``).
    target_ci: stop early once the 95 % half-width of the headline metric (a float) or of each metric in a
    dict is reached, looking only at fixed game counts. progress: ``True``/``False``, or ``None`` for a bar on
    a terminal once a run has lasted two seconds. first: play games ``first .. first+n-1`` (to extend a stored
    run of ``first`` games; the sums of the two runs add up to the run of ``first + n`` games). The same
    ``(scenario, n, seed, policies)`` gives the same bits whatever ``workers``, the numba thread count and ``chunk``.
    """
    scenario = _as_scenario(scenario)
    n = _check_int("n", n, 1)
    seed = _check_int("seed", seed, 0, MAX_SEED)
    chunk = _check_int("chunk", chunk, 1)
    first = _check_int("first", first, 0, MAX_GAME - n)
    if workers is not None:
        workers = _check_int("workers", workers, 1)
    targets = _targets(scenario, target_ci)
    resolved = _policy.resolve(scenario.decision_points, policies)
    bar = _Progress(n, bool(progress) if progress is not None else "auto" if sys.stderr.isatty() else False)
    k = len(scenario.metrics)
    sums, sumsq, kept = np.zeros(k, np.int64), np.zeros(k, np.int64), []
    done = 0
    pool, args = None, None
    if workers and workers > 1:
        # the game's functions compiled here, by processes sharing the work, and not again in every worker
        parallel_compile.prepare(scenario, resolved.variant)
        # loky gives each worker cpu_count // workers numba threads (NUMBA_NUM_THREADS), so they do not oversubscribe
        pool = joblib.Parallel(n_jobs=workers, backend="loky", return_as="generator")
    else:  # built once for every range: the threads share them, as a kernel's blocks do
        args = tuple(scenario.kernel_args())
    try:
        for stop in checkpoints(n, target_ci):
            if pool is None:
                compiled(scenario, resolved)
                threads = numba.get_num_threads()
                parts = in_order(lambda a, b: run_chunk(scenario, seed, first + a, b - a, resolved, keep, args),
                                 _paced(done, stop, chunk, bar, threads), threads)
            else:
                ranges = [(a, min(a + chunk, stop)) for a in range(done, stop, chunk)]
                parts = zip((b for _, b in ranges),
                            pool(joblib.delayed(run_range)(scenario, seed, first + a, b - a, resolved, keep)
                                 for a, b in ranges))
            for b, (s, sq, out) in parts:
                sums += s
                sumsq += sq
                if keep:
                    kept.append(out)
                bar.update(b)
            done = stop
            if targets and stop < n and _reached(_make(scenario, done, seed, sums, sumsq, resolved, policies),
                                                 targets):
                break
    finally:
        bar.close()
    outcomes = None
    if keep:
        data = np.concatenate(kept, axis=1)
        outcomes = pd.DataFrame({m: data[i] for i, m in enumerate(scenario.metrics)})
        outcomes.index.name = "game"
    return _make(scenario, done, seed, sums, sumsq, resolved, policies, outcomes)


def _make(scenario, n, seed, sums, sumsq, resolved, policies, outcomes=None):
    names = dict(zip((dp.name for dp in scenario.decision_points), resolved.names))
    return Result(scenario, scenario.metrics, n=n, seed=seed, sums=sums.copy(), sumsq=sumsq.copy(),
                  outcomes=outcomes, policies=names, generator=GENERATOR, policy_specs=policies)


def exact(scenario, *, policies=None):
    """The exact answer for ``scenario`` under built-in ``policies``, as a ``Result`` with the same metrics."""
    scenario = _as_scenario(scenario)
    resolved = _policy.resolve(scenario.decision_points, policies)
    if resolved.has_user_functions or resolved.has_search:
        raise ExactNotSupported(f"{scenario.name}: exact answers are computed for built-in policies only, not for "
                                "user functions or the search bots")
    values = scenario.exact_solution(resolved)
    names = dict(zip((dp.name for dp in scenario.decision_points), resolved.names))
    return Result(scenario, scenario.metrics, exact=values, policies=names)


def reference(scenario, n, seed=0, *, policies=None):
    """Per-game outcomes of the plain-Python reference implementation, drawn from the same streams."""
    from .rng import PyStream
    scenario = _as_scenario(scenario)
    resolved = _policy.resolve(scenario.decision_points, policies)
    if resolved.has_search:
        raise ExactNotSupported(f"{scenario.name}: the plain-Python reference plays no search bot")
    rows = [scenario.reference(PyStream(seed, g), resolved) for g in range(n)]
    return pd.DataFrame(rows, columns=list(scenario.metrics)).rename_axis("game")


__all__ = ["simulate", "exact", "reference", "run_chunk", "record", "n_blocks", "BLOCK", "RomesimError"]
