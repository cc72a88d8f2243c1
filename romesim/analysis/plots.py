"""Plots of tidy result frames: a heatmap over two axes, a sweep line with its 95 % band, a tornado of paired changes.

Every function takes ``ax=None`` (a new figure is made) and returns the matplotlib Axes, so plots can be composed
or saved by the caller. Nothing here picks a backend: on a machine without a display matplotlib uses Agg, and a
caller may pass the Axes of a ``matplotlib.figure.Figure`` to stay off pyplot entirely.

Axis values may be numbers, strings, booleans or policy specs such as ``("parametric", [0.5, 0.5, 2])``;
anything but a number is shown as a category, in the order it first appears (``label`` gives its text).
"""
import json
import math

import numpy as np
import pandas as pd

from ..core.errors import ScenarioError

SUMMARY_COLUMNS = ("point", "metric", "estimate", "ci_low", "ci_high", "n")
LEGEND_LIMIT = 12  # more lines than this get no legend: it would hide the plot

# One colour convention for every plot (the report's, the tornado's and the Jugule matchup heatmap's): blue is the
# side whose win is p_win (or an increase), red the other side (or a decrease), grey a game nobody wins.
DIVERGING = "RdBu"  # low values red, high values blue, the even value white
WIN, LOSS, NEITHER = "tab:blue", "tab:red", "tab:grey"
OUTCOME_COLOURS = {"p_win": WIN, "p_loss": LOSS, "neither": NEITHER}
DODGE = 0.25  # the spread of the groups of points at one category


def label(value):
    """The text of an axis value: numbers compactly, a policy spec as ``name(p1, p2)``, anything else as JSON."""
    if isinstance(value, (bool, np.bool_, str)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return "–" if math.isnan(value) else f"{float(value):g}"
    if (isinstance(value, (tuple, list)) and len(value) == 2 and isinstance(value[0], str)
            and isinstance(value[1], (tuple, list))):
        return f"{value[0]}({', '.join(label(v) for v in value[1])})"
    return json.dumps(value, default=str, separators=(", ", ": "))


def is_numeric(values):
    """Whether a column is drawn on a numeric scale (booleans are categories)."""
    series = pd.Series(values)
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def _require(frame, *columns):
    if not isinstance(frame, pd.DataFrame):
        raise ScenarioError(f"frame: expected a pandas DataFrame, got {type(frame).__name__}")
    for column in columns:
        if column is not None and column not in frame.columns:
            raise ScenarioError(f"{column!r} is not a column of the frame; columns: {', '.join(map(str, frame))}")
    if frame.empty:
        raise ScenarioError("frame: it has no rows; expected at least one to plot")


def _one_metric(frame, metric):
    """The rows of ``metric`` when the frame is tidy over several metrics; the frame itself otherwise."""
    if "metric" not in frame.columns:
        return frame
    if metric is None:
        metrics = list(dict.fromkeys(frame["metric"]))
        if len(metrics) > 1:
            raise ScenarioError(f"frame: holds the metrics {', '.join(metrics)}; select one, e.g. "
                                f"frame[frame['metric'] == {metrics[0]!r}]")
        return frame
    chosen = frame[frame["metric"] == metric]
    if chosen.empty:
        raise ScenarioError(f"metric: {metric!r} is not in the frame; metrics: "
                            f"{', '.join(map(str, dict.fromkeys(frame['metric'])))}")
    return chosen


def _order(values):
    """The distinct labels of a column: numbers ascending, other values in order of first appearance."""
    if is_numeric(values):
        return [label(v) for v in sorted(pd.unique(pd.Series(values).dropna()))]
    return list(dict.fromkeys(label(v) for v in values))


def _new_axes(figsize):
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=figsize)[1]


def heatmap(frame, row, column, value="estimate", low="ci_low", high="ci_high", ax=None, annotate=True, center=0.5,
            cmap=DIVERGING, fmt=".2f"):
    """A heatmap of ``value`` over two columns of a tidy frame, each cell annotated with the value and its interval
    ``[low, high]`` (pass ``low=None`` for the value alone).

    The colour scale is symmetric about ``center`` (0.5: an even game sits in the neutral colour and the two sides'
    advantages get opposite colours of equal strength: blue for the p_win side, red for the other, as in every
    plot); ``center=None`` spans the values' range. A frame holding
    several metrics (``Sweep.summary()``) must be cut to one first. Cells without a row are left blank.
    """
    from matplotlib.colors import Normalize

    _require(frame, row, column, value, low, high)
    frame = _one_metric(frame, None)
    rows, columns = _order(frame[row]), _order(frame[column])
    keys = pd.DataFrame({"r": [label(v) for v in frame[row]], "c": [label(v) for v in frame[column]]})
    duplicated = keys.duplicated()
    if duplicated.any():
        r, c = keys[duplicated].iloc[0]
        raise ScenarioError(f"frame: several rows have {row} = {r} and {column} = {c}; a heatmap needs one per "
                            "cell (filter the other axes first)")
    grids = {}
    for name in (value, low, high):
        if name is not None:
            grid = np.full((len(rows), len(columns)), np.nan)
            for r, c, v in zip(keys["r"], keys["c"], frame[name]):
                grid[rows.index(r), columns.index(c)] = v
            grids[name] = grid
    values = grids[value]
    finite = values[np.isfinite(values)]
    if center is None:
        vmin, vmax = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
    else:
        half = float(np.abs(finite - center).max()) if finite.size else 0.0
        half = half or 0.05  # every cell at the centre: keep a visible scale
        vmin, vmax = center - half, center + half
    norm = Normalize(vmin, vmax)

    if ax is None:
        ax = _new_axes((2.2 + 1.0 * len(columns), 1.4 + 0.65 * len(rows)))
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, norm=norm, aspect="auto")
    long_labels = max(map(len, columns)) > 4
    ax.set_xticks(range(len(columns)), columns, rotation=45 if long_labels else 0,
                  ha="right" if long_labels else "center")
    ax.set_yticks(range(len(rows)), rows)
    ax.set_xlabel(str(column))
    ax.set_ylabel(str(row))
    if annotate:
        size = max(len(rows), len(columns))
        fontsize = 8 if size <= 6 else 6 if size <= 12 else 5
        with_interval = low is not None and high is not None
        for i in range(len(rows)):
            for j in range(len(columns)):
                v = values[i, j]
                if not np.isfinite(v):
                    continue
                text = format(v, fmt)
                if with_interval:
                    text += f"\n[{format(grids[low][i, j], fmt)}, {format(grids[high][i, j], fmt)}]"
                # dark cells at both ends of a diverging map need light text
                dark = abs(float(norm(v)) - 0.5) > 0.3
                ax.text(j, i, text, ha="center", va="center", fontsize=fontsize, color="white" if dark else "black")
    metric = frame["metric"].iat[0] if "metric" in frame.columns and len(frame) else value
    ax.figure.colorbar(image, ax=ax, fraction=0.05, label=str(metric))
    return ax


def _axis_columns(frame, *used):
    """The frame's columns that may be sweep axes: everything but the summary columns and those in use."""
    return [c for c in frame.columns if c not in SUMMARY_COLUMNS and c not in used]


def sweep_plot(sweep_or_frame, x, metric="p_win", hue=None, ax=None, reference=0.5, rules=None, colours=None,
               ylabel=None):
    """``metric`` against the axis ``x``: the estimate as a line with its 95 % interval as a shaded band, one line
    per value of ``hue``, and a dashed line at ``reference`` (None: none).

    Takes a ``Sweep`` (its ``summary()``) or a tidy frame with columns ``x``, ``estimate, ci_low, ci_high`` (and
    ``metric`` when it holds several). Every column but ``point, metric, estimate, ci_low, ci_high, n`` counts as
    an axis: when the points of one line also differ in another axis, joining them would draw a curve that does
    not exist, so they are drawn as separate markers with interval whiskers (as is a line of a single point).
    A categorical ``x`` (text, booleans, policy specs) is drawn as points with whiskers, the groups of ``hue`` side
    by side at each category: no line joins two categories. rules: the value of ``x`` the rules give (a dotted
    vertical line, or "(rules)" under the category). colours: ``{hue value: colour}``. ylabel: the y axis title.
    """
    frame = sweep_or_frame.summary() if callable(getattr(sweep_or_frame, "summary", None)) else sweep_or_frame
    _require(frame, x, hue, "estimate", "ci_low", "ci_high")
    frame = _one_metric(frame, metric)
    others = _axis_columns(frame, x, hue)
    numeric = is_numeric(frame[x])
    categories = None if numeric else _order(frame[x])

    if ax is None:
        ax = _new_axes((6.4, 4.0))
    groups = [(None, frame)] if hue is None else [
        (name, frame[[label(v) == name for v in frame[hue]]]) for name in _order(frame[hue])]
    for k, (name, group) in enumerate(groups):
        xs = group[x].astype(float).to_numpy() if numeric else np.array([categories.index(label(v))
                                                                          for v in group[x]], float)
        order = np.argsort(xs, kind="stable")
        xs = xs[order]
        estimate, low, high = (group[c].to_numpy(float)[order] for c in ("estimate", "ci_low", "ci_high"))
        text = None if hue is None else f"{hue} = {name}"
        colour = (colours or {}).get(name)
        # a lone point has no band to shade; points that differ in another axis must not be joined; categories
        # have no order between them to draw a line along
        alone_or_mixed = not numeric or len(xs) == 1 or len(np.unique(xs)) < len(xs) or any(
            len({label(v) for v in group[c]}) > 1 for c in others)
        if alone_or_mixed:
            shift = 0.0 if numeric or len(groups) == 1 else DODGE * (k / (len(groups) - 1) - 0.5)
            ax.errorbar(xs + shift, estimate, yerr=[estimate - low, high - estimate], fmt="o", capsize=3, label=text,
                        color=colour)
        else:
            (line,) = ax.plot(xs, estimate, marker="o", label=text, color=colour)
            ax.fill_between(xs, low, high, color=line.get_color(), alpha=0.2, linewidth=0)
    if not numeric:
        shown = [c + (" (rules)" if rules is not None and c == label(rules) else "") for c in categories]
        long_labels = max(map(len, shown)) > 8
        ax.set_xticks(range(len(categories)), shown, rotation=30 if long_labels else 0,
                      ha="right" if long_labels else "center")
        ax.set_xlim(-0.5, len(categories) - 0.5)
    elif rules is not None:
        ax.axvline(float(rules), color="black", linestyle=":", linewidth=1.2, label=f"rules: {label(rules)}")
    if reference is not None:
        ax.axhline(reference, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel(str(x))
    ax.set_ylabel(ylabel or (f"{metric} (95 % interval)" if metric else "estimate (95 % interval)"))
    if (hue is not None and len(groups) <= LEGEND_LIMIT) or (numeric and rules is not None):
        ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return ax


TORNADO_COLUMNS = ("parameter", "from", "to", "change", "ci_low", "ci_high")


def tornado(frame, metric="p_win", ax=None):
    """Horizontal bars of the paired change of ``metric`` for each parameter step (``finite_differences``' frame:
    ``parameter, from, to, metric, change, ci_low, ci_high``), with 95 % interval whiskers; the largest |change|
    on top, increases and decreases in two colours."""
    _require(frame, *TORNADO_COLUMNS)
    frame = _one_metric(frame, metric)
    frame = frame.iloc[np.argsort(-frame["change"].abs().to_numpy(float), kind="stable")]
    labels = [f"{p}: {label(a)} → {label(b)}" for p, a, b in zip(frame["parameter"], frame["from"], frame["to"])]
    change, low, high = (frame[c].to_numpy(float) for c in ("change", "ci_low", "ci_high"))
    positions = np.arange(len(frame))

    if ax is None:
        ax = _new_axes((6.4, 1.2 + 0.4 * len(frame)))
    ax.barh(positions, change, color=[LOSS if c < 0 else WIN for c in change], alpha=0.8)
    ax.errorbar(change, positions, xerr=[change - low, high - change], fmt="none", ecolor="black", capsize=3)
    ax.set_yticks(positions, labels)
    ax.invert_yaxis()  # the largest change on top
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel(f"change of {metric} (paired, 95 % interval)" if metric else "change (paired, 95 % interval)")
    ax.grid(axis="x", alpha=0.3)
    return ax


__all__ = ["heatmap", "sweep_plot", "tornado", "label", "DIVERGING", "OUTCOME_COLOURS"]
