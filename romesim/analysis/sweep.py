"""Sweeps: one scenario played at many points of its parameters and policies, with common random numbers.

Every point plays games ``0 .. n-1`` from the same seed, so game ``g`` draws the same dice at every point and a
difference between two points is measured on paired games (far less noise than independent runs). With a store,
each point is written the moment it finishes and a rerun plays only what is missing: an interrupted sweep resumes
where it stopped, and asking for more games plays only the new ones.

An axis is a scenario parameter (``"ap_a"``), a decision point's policy (``"policy.a_attack"``, values as in
``simulate(policies=...)``) or one entry of a built-in policy's parameter vector (``"policy.a_attack.bash"``,
a float; sweeping it recompiles nothing).
"""
import itertools
import math
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import joblib
import numpy as np
import pandas as pd
from tqdm import tqdm

from ..core import policy as _policy
from ..core.engine import MAX_SEED, _as_scenario, _check_int, simulate
from ..core.errors import Interrupted, PolicyError, ScenarioError
from ..core.result import Result
from ..core.rng import GENERATOR
from ..core.scenario import get
from .fairness import EDGE, even_value, fairness_metric, loss_metric, result_edge
from .store import as_store, point_identity, point_key

POLICY = "policy."



def _decision_point(scenario, name, axis):
    for dp in scenario.decision_points:
        if dp.name == name:
            return dp
    allowed = ", ".join(dp.name for dp in scenario.decision_points) or "none"
    raise ScenarioError(f"{axis}: {scenario.name} has no decision point {name!r}; decision points: {allowed}")


def check_axis(scenario, axis):
    """Raise ScenarioError unless ``axis`` names a parameter, a decision point or a built-in's parameter."""
    if not isinstance(axis, str):
        raise ScenarioError(f"axis {axis!r}: expected a parameter name or 'policy.<decision point>[.<parameter>]'")
    if not axis.startswith(POLICY):
        if axis not in scenario.parameters():
            raise ScenarioError(f"{axis}: not a parameter of {scenario.name}; parameters: "
                                f"{', '.join(scenario.parameters())}, or 'policy.<decision point>[.<parameter>]'")
        return
    parts = axis[len(POLICY):].split(".")
    if len(parts) > 2:
        raise ScenarioError(f"{axis}: expected 'policy.<decision point>' or 'policy.<decision point>.<parameter>'")
    _decision_point(scenario, parts[0], axis)


def policy_entry(dp, spec, entry, axis):
    """``(built-in, parameter vector as a new list, index of entry)`` of the policy ``spec`` of ``dp``, the
    built-in's defaults when the spec gives no vector; a PolicyError naming ``axis`` when there is no such entry."""
    builtin, vector = spec if isinstance(spec, (tuple, list)) else (spec, None)
    if not isinstance(builtin, str) or builtin not in dp.builtins:
        raise PolicyError(f"{axis}: the policy of {dp.name!r} is {builtin!r}; only a built-in's parameters can be "
                          f"swept (built-ins: {', '.join(dp.builtins)})")
    names = dp.builtins[builtin].params
    if entry not in names:
        raise PolicyError(f"{axis}: {builtin!r} has no parameter {entry!r}; its parameters: "
                          f"{', '.join(names) or 'none'}")
    return builtin, list(dp.builtins[builtin].defaults if vector is None else vector), names.index(entry)


def apply_axes(scenario, policies, values):
    """``(scenario, policies)`` of one point: the base with the axis ``values`` applied and validated."""
    params = {a: v for a, v in values.items() if not a.startswith(POLICY)}
    for axis in params:
        check_axis(scenario, axis)
    point = scenario.replace(**params) if params else scenario
    chosen = dict(policies or {})
    for axis in sorted(a for a in values if a.startswith(POLICY)):
        check_axis(scenario, axis)
        name, _, entry = axis[len(POLICY):].partition(".")
        if not entry:
            chosen[name] = values[axis]
            continue
        dp = _decision_point(scenario, name, axis)
        builtin, vector, index = policy_entry(dp, chosen.get(name, dp.default), entry, axis)
        value = values[axis]
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not math.isfinite(value):
            raise PolicyError(f"{axis}: {value!r} is not allowed; expected a finite number")
        vector[index] = float(value)
        chosen[name] = (builtin, vector)
    _policy.resolve(point.decision_points, chosen)  # a bad policy is refused before anything runs
    return point, chosen


def _grid_points(grid):
    axes = list(grid)
    for axis, values in grid.items():
        if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__iter__") or len(list(values)) == 0:
            raise ScenarioError(f"grid[{axis!r}]: {values!r} is not allowed; expected a non-empty list of values")
    return [dict(zip(axes, combo)) for combo in itertools.product(*(list(grid[a]) for a in axes))]


def _lhs_points(lhs, samples, seed):
    from scipy.stats import qmc

    samples = _check_int("samples", samples, 1)
    makers = []
    for axis, spec in lhs.items():
        if isinstance(spec, Mapping) and set(spec) == {"choices"}:
            spec = list(spec["choices"])
        is_range = (isinstance(spec, (tuple, list)) and len(spec) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in spec) and spec[0] < spec[1])
        if is_range:
            low, high = spec
            if all(isinstance(v, int) for v in spec):
                makers.append(lambda u, low=low, high=high: int(min(high, low + math.floor(u * (high - low + 1)))))
            else:
                makers.append(lambda u, low=low, high=high: float(low + u * (high - low)))
        elif isinstance(spec, (tuple, list)) and len(spec) > 0 and not isinstance(spec, str):
            makers.append(lambda u, c=list(spec): c[min(len(c) - 1, math.floor(u * len(c)))])
        else:
            raise ScenarioError(f"lhs[{axis!r}]: {spec!r} is not allowed; expected [low, high] numbers (integers give "
                                "integer values) or a list of choices ({choices = [...]} for numbers)")
    unit = qmc.LatinHypercube(d=len(makers), seed=np.random.default_rng(seed % (1 << 63))).random(samples)
    return [{axis: make(u) for axis, make, u in zip(lhs, makers, row)} for row in unit]


def _points(grid, lhs, samples, points, seed):
    given = [name for name, value in (("grid", grid), ("lhs", lhs), ("points", points)) if value is not None]
    if len(given) != 1:
        raise ScenarioError(f"sweep: give exactly one of grid, lhs or points (got {', '.join(given) or 'none'})")
    if grid is not None:
        if not isinstance(grid, Mapping) or not grid:
            raise ScenarioError(f"grid: {grid!r} is not allowed; expected a table of axis = [values]")
        return _grid_points(grid)
    if lhs is not None:
        if not isinstance(lhs, Mapping) or not lhs:
            raise ScenarioError(f"lhs: {lhs!r} is not allowed; expected a table of axis = [low, high] or [choices]")
        return _lhs_points(lhs, samples, seed)
    if isinstance(points, Mapping) or not all(isinstance(p, Mapping) for p in points) or not points:
        raise ScenarioError(f"points: {points!r} is not allowed; expected a non-empty list of {{axis: value}} tables")
    return [dict(p) for p in points]


def _play(key, scenario, policies, n, seed, first):
    result = simulate(scenario, n, seed, policies=policies, first=first, progress=False)
    return key, result.sums, result.sumsq


@dataclass
class _Task:
    key: str
    scenario: object
    policies: dict
    identity: dict
    columns: dict
    first: int = 0
    prior: Result = None


class Sweep:
    """The points of a sweep and their Results (see ``romesim.sweep``)."""

    def __init__(self, scenario, axes, points, results, n, seed, policies, store, specs):
        self.scenario, self.axes, self.points, self.results = scenario, tuple(axes), points, results
        self.n, self.seed, self.policies, self.store = n, seed, dict(policies or {}), store
        self._specs = specs

    def __len__(self):
        return len(self.points)

    def __repr__(self):
        return (f"Sweep of {self.scenario.name}: {len(self)} points over {', '.join(self.axes)}, "
                f"n={self.n:,} seed={self.seed}\n" + self.table().to_string(index=False))

    def _repr_html_(self):
        head = (f"<b>Sweep of {self.scenario.name}</b>: {len(self)} points over {', '.join(self.axes)}, "
                f"n={self.n:,} seed={self.seed}")
        return head + self.table().to_html(index=False)

    def scenarios(self):
        return [scenario for scenario, _ in self._specs]

    def point_policies(self, i):
        return dict(self._specs[i][1])

    def summary(self):
        """One row per (point, metric): point, the axes, metric, estimate, ci_low, ci_high, n."""
        frames = []
        for i, (values, result) in enumerate(zip(self.points, self.results)):
            frame = result.summary()
            for axis in reversed(self.axes):
                frame.insert(0, axis, [values[axis]] * len(frame))
            frame.insert(0, "point", i)
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

    def table(self, metric="p_win"):
        """One row per point: point, the axes, and ``metric``'s estimate, ci_low, ci_high, n. ``metric`` may be
        ``"edge"`` (``p_win - p_loss``, for a game that reports both sides' wins; see ``analysis.fairness``)."""
        if metric == EDGE and loss_metric(self.scenario):
            rows = []
            for i, (values, result) in enumerate(zip(self.points, self.results)):
                rows.append({"point": i, **{a: values[a] for a in self.axes},
                             **dict(zip(("estimate", "ci_low", "ci_high"), result_edge(result))), "n": result.n})
            frame = pd.DataFrame(rows)
            frame["n"] = frame["n"].astype("Int64")
            return frame
        if metric not in self.scenario.metrics:
            extra = ", or 'edge' (p_win − p_loss)" if loss_metric(self.scenario) else ""
            raise KeyError(f"{metric!r} is not a metric of {self.scenario.name}; metrics: "
                           f"{', '.join(self.scenario.metrics)}{extra}")
        frame = self.summary()
        return frame[frame["metric"] == metric].drop(columns="metric").reset_index(drop=True)

    def fairest(self, metric=None, target=None):
        """The points ordered by the distance of ``metric`` from an even game (closest first).

        metric: default the fairness measure, ``"edge"`` (``p_win - p_loss``, even at 0) for a game that may end
        with no winner (it reports ``p_loss``), else ``"p_win"`` (even at 0.5). target: the even value, by default
        0 for the edge and 0.5 for a probability of a two-outcome game; a mean or ``p_loss`` needs one.
        """
        metric = fairness_metric(self.scenario) if metric is None else metric
        if metric is None:
            raise ScenarioError(f"metric: {self.scenario.name} reports no probability; name a metric and a target")
        goal = even_value(self.scenario, metric, target)
        table = self.table(metric)
        table.insert(len(self.axes) + 1, "distance", (table["estimate"] - goal).abs())
        return table.sort_values(["distance", "point"], ignore_index=True)


def sweep(scenario, grid=None, n=None, seed=0, *, lhs=None, samples=None, points=None, policies=None, store=None,
          workers=None, progress=None):
    """Play ``scenario`` at every point of a grid, a Latin hypercube or a list, ``n`` games each from ``seed``.

    grid: ``{axis: [values]}``, every combination (first axis slowest). lhs: ``{axis: [low, high]}`` (integers
    give integers) or ``{axis: [choices]}``, with ``samples`` points, stratified from ``seed``. points:
    ``[{axis: value}, ...]``. An axis is a parameter, ``"policy.<decision point>"`` or
    ``"policy.<decision point>.<parameter>"``. policies: the base policies every point starts from.
    store: a folder (or ``romesim.store.Store``): finished points are written at once and not played again.
    workers: None plays the points one after another in this process (on all numba threads); an integer runs them
    through ``joblib.Parallel(n_jobs=workers)``, on loky processes or on whatever backend
    ``joblib.parallel_config`` selects (``"dask"`` for a Dask cluster, ``"ray"`` for Ray). The numbers do not
    depend on ``workers`` or the backend. progress: a bar over points and games (default: on a terminal).
    """
    base = _as_scenario(scenario)
    n = _check_int("n", n, 1)
    seed = _check_int("seed", seed, 0, MAX_SEED)
    if workers is not None:
        workers = _check_int("workers", workers, 1)
    values = _points(grid, lhs, samples, points, seed)
    axes = list(dict.fromkeys(a for v in values for a in v))
    for axis in axes:
        check_axis(base, axis)
    specs = [apply_axes(base, policies, v) for v in values]
    store = as_store(store)
    if store is not None:
        store.remove_stale_partials()

    tasks, index_of = {}, []
    for i, (point, chosen) in enumerate(specs):
        identity = point_identity(point, chosen, seed)
        key = point_key(identity)
        index_of.append(key)
        if key not in tasks:
            scalar = {name: value for name, value in point.to_dict().items() if not isinstance(value, (list, dict))}
            extra = {a: values[i][a] for a in axes if a.startswith(POLICY)}
            tasks[key] = _Task(key, point, chosen, identity, {**scalar, **extra})
    done = {}
    for key, task in tasks.items():
        counts = store.stored_counts(task.scenario.name, key) if store else []
        if n in counts:
            done[key] = store.load(task.scenario, key, n)
        elif any(c < n for c in counts):
            task.first = max(c for c in counts if c < n)
            task.prior = store.load(task.scenario, key, task.first)
    todo = [t for k, t in tasks.items() if k not in done]

    show = progress if progress is not None else sys.stderr.isatty()
    bar = tqdm(total=sum(n - t.first for t in todo), unit="games", unit_scale=True, disable=not show,
               desc=f"{len(done)}/{len(tasks)} points", file=sys.stderr)
    calls = [(t.key, t.scenario, t.policies, n - t.first, seed, t.first) for t in todo]
    if workers is None:
        outputs = (_play(*call) for call in calls)
    else:
        # unordered: a point is stored the moment it finishes, not when the points before it have
        outputs = joblib.Parallel(n_jobs=workers, return_as="generator_unordered")(
            joblib.delayed(_play)(*call) for call in calls)
    try:
        for key, sums, sumsq in outputs:
            task = tasks[key]
            if task.prior is not None:
                sums, sumsq = sums + task.prior.sums, sumsq + task.prior.sumsq
            names = {dp: spec[0] for dp, spec in task.identity["policies"].items()}
            result = Result(task.scenario, task.scenario.metrics, n=n, seed=seed, sums=sums, sumsq=sumsq,
                            policies=names, generator=GENERATOR)
            if store is not None:
                store.write(task.key, task.identity, result, task.columns)
            done[task.key] = result
            bar.update(n - task.first)
            bar.set_description(f"{len(done)}/{len(tasks)} points")
    except KeyboardInterrupt:
        kept = (f"{len(done)}/{len(tasks)} points stored in {store.path}; rerun to resume" if store is not None
                else f"{len(done)}/{len(tasks)} points played; no store, so nothing is kept")
        raise Interrupted(f"interrupted: {kept}") from None
    finally:
        bar.close()
    results = [done[key] for key in index_of]
    return Sweep(base, axes, values, results, n, seed, policies, store, specs)


SWEEP_KEYS = ("scenario", "params", "policies", "grid", "lhs", "points", "n", "seed", "workers", "store")


def load_sweep(path):
    """The keyword arguments of ``sweep`` from a sweep file::

        scenario = "jugule.duel"
        n = 20000
        seed = 1
        store = "thraex-ap"          # relative to the file; default: the file's name with -store
        workers = 2                  # optional
        [params]                     # the base scenario
        a = "thraex_late"
        [policies]                   # the base policies
        a_attack = "aggressive"
        [grid]                       # or [lhs] with samples = K and axis = [low, high] or [choices],
        ap_a = [9, 10, 11, 12, 13]   # or points = [{...}, ...]
        b = ["murmillo", "hoplomachus"]
    """
    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read the file: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from None
    unknown = sorted(set(doc) - set(SWEEP_KEYS))
    if unknown:
        raise ScenarioError(f"{path}: unknown key(s) {unknown}; allowed: {', '.join(SWEEP_KEYS)}")
    for key in ("scenario", "n"):
        if key not in doc:
            raise ScenarioError(f"{path}: missing the key {key!r}")
    for key in ("params", "policies", "grid", "lhs"):
        if not isinstance(doc.get(key, {}), dict):
            raise ScenarioError(f"{path}: {key} must be a table, got {doc[key]!r}")
    kwargs = {"scenario": get(doc["scenario"]).from_dict(doc.get("params", {})), "n": doc["n"],
              "seed": doc.get("seed", 0), "policies": doc.get("policies"), "workers": doc.get("workers"),
              "store": path.parent / doc.get("store", path.stem + "-store")}
    if "grid" in doc:
        kwargs["grid"] = flatten_axes(doc["grid"])
    if "lhs" in doc:
        lhs = flatten_axes(doc["lhs"])
        kwargs["samples"] = lhs.pop("samples", None)
        kwargs["lhs"] = lhs
    if "points" in doc:
        kwargs["points"] = [flatten_axes(p) if isinstance(p, dict) else p for p in doc["points"]]
    return kwargs


def flatten_axes(table, prefix=""):
    """A TOML table with dotted keys read as nested tables (``policy.a_attack.bash = [...]``) made flat."""
    flat = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and set(value) != {"choices"}:
            flat.update(flatten_axes(value, name + "."))
        else:
            flat[name] = value
    return flat



__all__ = ["sweep", "Sweep", "load_sweep", "apply_axes", "policy_entry", "check_axis", "flatten_axes"]
