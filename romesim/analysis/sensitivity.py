"""Sensitivity of a scenario's metrics to its parameters: paired finite differences and Sobol' indices.

Both rest on common random numbers: every variant plays games ``0 .. n-1`` from the same seed, so a change of
parameter is measured on the same dice and most of the Monte Carlo noise cancels.
"""
import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..core.engine import MAX_SEED, _as_scenario, _check_int
from ..core.errors import ScenarioError
from .compare import check_common, paired_table, play_paired, variant
from .sweep import POLICY, apply_axes, check_axis, policy_entry, sweep


def _current_value(scenario, policies, axis):
    """The value ``axis`` has in the base: a parameter, a decision point's policy, or a built-in's parameter."""
    if not axis.startswith(POLICY):
        return getattr(scenario, axis)
    name, _, entry = axis[len(POLICY):].partition(".")
    dp = next(d for d in scenario.decision_points if d.name == name)
    spec = (policies or {}).get(name, dp.default)
    if not entry:
        return spec
    _, vector, index = policy_entry(dp, spec, entry, axis)
    return float(vector[index])


def finite_differences(scenario, steps, n, seed=0, *, policies=None, metrics=None, workers=None):
    """The change of each metric when one parameter at a time moves from its base value to a new one.

    scenario: a Scenario or registered name (the base). steps: ``{axis: new value}``; the value is set, not added
    (``{"garrison": 3}`` plays the base against the base with ``garrison = 3``). An axis is a scenario parameter,
    ``"policy.<decision point>"`` or ``"policy.<decision point>.<parameter>"`` as in ``romesim.sweep``.
    Each changed scenario plays the same games as the base (same seed): the change is a paired difference, its
    95 % interval far narrower than that of two independent runs, given for contrast as ``unpaired_half_width``.
    The base is played once, chunk by chunk, for all steps.

    Returns a tidy DataFrame: ``parameter, from, to, metric, base, changed, change, ci_low, ci_high,
    unpaired_half_width, n``.
    """
    n, seed, workers = check_common(n, seed, workers)
    base = _as_scenario(scenario)
    if not isinstance(steps, Mapping) or not steps:
        raise ScenarioError(f"steps: {steps!r} is not allowed; expected a non-empty table of axis = new value")
    wanted = list(base.metrics) if metrics is None else [metrics] if isinstance(metrics, str) else list(metrics)
    for m in wanted:
        if m not in base.metrics:
            raise ScenarioError(f"metrics: {m!r} is not a metric of {base.name}; allowed: {', '.join(base.metrics)}")
    if not wanted:
        raise ScenarioError(f"metrics: {metrics!r} is not allowed; expected metric names of {base.name}")
    reference = variant(base, policies, wanted)
    changed = []
    for axis, value in steps.items():
        point, chosen = apply_axes(base, policies, {axis: value})
        changed.append(variant(point, chosen, wanted))
    frames = []
    for (axis, value), moments in zip(steps.items(), play_paired(reference, changed, seed, 0, n, workers)):
        table = paired_table(moments, wanted)
        frames.append(pd.DataFrame({
            "parameter": axis, "from": [_current_value(base, policies, axis)] * len(table),
            "to": [value] * len(table), "metric": table["metric"], "base": table["a"], "changed": table["b"],
            "change": table["difference"], "ci_low": table["ci_low"], "ci_high": table["ci_high"],
            "unpaired_half_width": (table["unpaired_high"] - table["unpaired_low"]) / 2, "n": n}))
    return pd.concat(frames, ignore_index=True)


# ---------------------------------------------------------------- Sobol' indices
def sobol_design(bounds, samples, *, integer=(), seed=0, second_order=False):
    """Saltelli's design for ``bounds = {name: (low, high)}``: ``(problem, X)``, SALib's problem and the points.

    Names in ``integer`` take integer values: they are sampled uniformly on ``[low - 1/2, high + 1/2]`` and
    rounded, so each integer from low to high has the same weight. samples: the base sample size N (a power of
    two, as Sobol' sequences need); there are ``N (D + 2)`` points, ``N (2 D + 2)`` with second-order indices.
    """
    from SALib.sample import sobol as sobol_sample

    samples = _check_int("samples", samples, 2)
    if samples & (samples - 1):
        raise ScenarioError(f"samples: {samples!r} is not allowed; expected a power of two (Sobol' sequence)")
    if not isinstance(bounds, Mapping) or not bounds:
        raise ScenarioError(f"bounds: {bounds!r} is not allowed; expected a table of parameter = [low, high]")
    names, ranges = list(bounds), []
    for name, spec in bounds.items():
        ok = (isinstance(spec, (tuple, list)) and len(spec) == 2
              and all(isinstance(v, (int, float, np.number)) and not isinstance(v, bool) and math.isfinite(v)
                      for v in spec) and spec[0] < spec[1])
        if not ok:
            raise ScenarioError(f"bounds[{name!r}]: {spec!r} is not allowed; expected [low, high] numbers, low < high")
        low, high = (float(v) for v in spec)
        ranges.append([low - 0.5, high + 0.5] if name in integer else [low, high])
    problem = {"num_vars": len(names), "names": names, "bounds": ranges}
    x = sobol_sample.sample(problem, samples, calc_second_order=second_order, seed=seed % (1 << 32))
    for j, name in enumerate(names):
        if name in integer:
            low, high = bounds[name]
            x[:, j] = np.clip(np.rint(x[:, j]), low, high)
    return problem, x


def sobol_analyze(problem, y, *, second_order=False, seed=0):
    """Sobol' indices from the outputs ``y`` of ``sobol_design``'s points: one row per parameter, ``parameter,
    S1, S1_conf, ST, ST_conf`` (conf: half-width of the bootstrap 95 % interval). With ``second_order`` the
    second-order indices are in ``frame.attrs["S2"]`` and ``frame.attrs["S2_conf"]`` (``{p: {q: value}}`` for
    each pair, q after p)."""
    from SALib.analyze import sobol as sobol_analysis

    y = np.asarray(y, dtype=np.float64)
    if y.size == 0 or np.all(y == y[0]):
        raise ScenarioError("sobol: the metric has the same value at every point; no variance to apportion")
    si = sobol_analysis.analyze(problem, y, calc_second_order=second_order, conf_level=0.95, seed=seed % (1 << 32))
    frame = pd.DataFrame({"parameter": problem["names"], "S1": si["S1"], "S1_conf": si["S1_conf"],
                          "ST": si["ST"], "ST_conf": si["ST_conf"]})
    if second_order:
        for key in ("S2", "S2_conf"):
            names = problem["names"]
            frame.attrs[key] = {p: {q: float(si[key][i, j]) for j, q in enumerate(names) if j > i}
                                for i, p in enumerate(names)}
    return frame


def sobol(scenario, bounds, *, samples=64, n=2_000, seed=0, metric="p_win", policies=None, store=None, workers=None,
          second_order=False):
    """Sobol' sensitivity indices of ``metric`` over the box ``bounds = {axis: (low, high)}``.

    Axes are integer scenario parameters (sampled continuously and rounded: each integer of ``[low, high]`` gets
    equal weight, but the indices are those of the rounded, step-shaped model, and the few points that round to
    the same integers are played once) or built-in policy parameters ``"policy.<decision point>.<parameter>"``
    (floats). The ``samples (D + 2)`` points of Saltelli's design (``samples (2 D + 2)`` with ``second_order``)
    are played by ``romesim.sweep`` with ``n`` games each from ``seed`` (common random numbers across points;
    with ``store`` they are stored and a rerun resumes), then analysed with SALib (Saltelli 2010, Jansen).

    Noise. Each point's value is a Monte Carlo estimate, its noise adds ``sigma^2 / n`` to the variance of the
    metric and pulls S1 towards 0 and ST towards 1 in proportion to it. Common random numbers cancel most of it in
    the differences ``f(A) - f(AB_i)`` the estimators use, and a parameter that changes no game gives exactly 0.
    Guideline: take n so that the noise variance ``p (1 - p) / n`` is under 1 % of the metric's variance across
    the box (for a probability whose spread across the box is 0.1, n >= 2 500; for 0.03, n >= 25 000), and grow
    ``samples`` until the ``*_conf`` widths are small enough.

    Returns one row per axis: ``parameter, S1, S1_conf, ST, ST_conf`` (``attrs["S2"]``, ``attrs["S2_conf"]`` with
    ``second_order``).
    """
    base = _as_scenario(scenario)
    n = _check_int("n", n, 1)
    seed = _check_int("seed", seed, 0, MAX_SEED)
    if metric not in base.metrics:
        raise ScenarioError(f"metric: {metric!r} is not a metric of {base.name}; allowed: {', '.join(base.metrics)}")
    if not isinstance(bounds, Mapping) or not bounds:
        raise ScenarioError(f"bounds: {bounds!r} is not allowed; expected a table of parameter = [low, high]")
    specs = base.parameters()
    integer = []
    for axis in bounds:
        check_axis(base, axis)
        if axis.startswith(POLICY):
            if axis.count(".") != 2:
                raise ScenarioError(f"bounds[{axis!r}]: a whole policy is not a number; use "
                                    "'policy.<decision point>.<parameter>' for a built-in's parameter")
        elif specs[axis].kind == "int":
            integer.append(axis)
        else:
            raise ScenarioError(f"bounds[{axis!r}]: {axis} is a {specs[axis].kind} parameter; Sobol' indices need "
                                "integer parameters or built-in policy parameters")
    problem, x = sobol_design(bounds, samples, integer=integer, seed=seed, second_order=second_order)
    points = [{axis: (int(v) if axis in integer else float(v)) for axis, v in zip(problem["names"], row)}
              for row in x]
    run = sweep(base, points=points, n=n, seed=seed, policies=policies, store=store, workers=workers,
                progress=False)
    frame = sobol_analyze(problem, [r.estimate(metric) for r in run.results], second_order=second_order, seed=seed)
    frame.attrs["n"], frame.attrs["samples"], frame.attrs["metric"] = n, samples, metric
    return frame


__all__ = ["finite_differences", "sobol", "sobol_design", "sobol_analyze"]
