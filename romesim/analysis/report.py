"""The HTML report of a sweep or a store: one self-contained file (inline CSS, plots as PNG data URIs, no script,
no external reference) that opens anywhere and can be mailed or archived as it is.

For each scenario: the points with their p_win and 95 % interval, a line plot of p_win against every axis (the
other axis as hue when there are two), a heatmap when there are two axes, the points closest to an even game, the
other metrics as a wide table, and the parameters every point shares.

From a store, a point is a stored key (scenario, parameters, policies, seed, version, generator); when a key was
played more than once (a sweep rerun with a larger ``n``), the largest ``n`` is reported. The axes are the
parameter columns, policy axis columns and parameters or policies of the JSON columns whose values vary among
the scenario's points; ``seed``, ``romesim_version`` and ``generator`` become axes too when they vary, so no two
points look alike.
"""
import base64
import html
import io
import json
import math
import re
from dataclasses import fields
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.errors import RomesimError, ScenarioError
from ..core.result import wilson
from ..core.rng import GENERATOR
from ..core.scenario import _plain, get
from ..core.version import VERSION
from . import plots
from .fairness import EDGE, EDGE_TEXT, edge_interval
from .store import COLUMNS as STORE_COLUMNS
from .store import Store
from .sweep import Sweep, load_sweep

HEADLINE = "p_win"
NEITHER = "neither"  # the derived metric of a game nobody wins: 1 - p_win - p_loss
DERIVED = (EDGE, NEITHER)
FAIREST = 5  # rows of "closest to 50 %"
MAX_HEATMAP_VALUES = 20  # more rows or columns than this would not be readable
MAX_HUE_VALUES = 10
IDENTITY_AXES = ("seed", "romesim_version", "generator")

CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 1100px;
       padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #8b1a1a; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: .9em; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; white-space: nowrap; }
th { background: #f3eee6; } td.text, th.text { text-align: left; }
table.meta th { text-align: left; }
.wide { overflow-x: auto; max-width: 100%; }
figure { display: inline-block; margin: .5em 1em .5em 0; vertical-align: top; }
figure img { max-width: 100%; height: auto; } figcaption { font-size: .85em; color: #555; }
.even { background: #e8f4e8; } .note { color: #555; font-size: .9em; }
"""


class _Scenario:
    """One scenario's points, as the report needs them, whatever the source.

    ``frame``: tidy, one row per (point, metric): ``point``, the axes, ``metric, estimate, ci_low, ci_high, n``;
    for a game reporting both sides' wins also the derived ``edge`` (p_win - p_loss) and ``neither`` rows.
    """

    def __init__(self, name, axes, frame, fixed, meta):
        self.name, self.axes, self.frame, self.fixed, self.meta = name, list(axes), frame, fixed, meta

    def metrics(self):
        """The scenario's own metrics (not the derived ones)."""
        return [m for m in dict.fromkeys(self.frame["metric"]) if m not in DERIVED]

    def headline(self):
        metrics = self.metrics()
        return HEADLINE if HEADLINE in metrics else metrics[0]

    def three_outcomes(self):
        return EDGE in set(self.frame["metric"])

    def fair(self):
        """``(metric, even value)`` of the fairness measure, or None when the scenario reports no probability."""
        if self.three_outcomes():
            return EDGE, 0.0
        probabilities = [m for m in self.metrics() if m.startswith("p_")]
        metric = HEADLINE if HEADLINE in probabilities else probabilities[0] if probabilities else None
        return None if metric is None else (metric, 0.5)

    def table(self, metric):
        return self.frame[self.frame["metric"] == metric].reset_index(drop=True)

    def cls(self):
        try:
            return get(self.name)
        except ScenarioError:  # a store written by another version may hold a scenario this one lacks
            return None

    def rules_value(self, axis):
        """The value the rules give ``axis`` (the parameter's default, the decision point's default built-in or
        that built-in's parameter), or None."""
        cls = self.cls()
        if cls is None:
            return None
        if not axis.startswith("policy."):
            found = [f.default for f in fields(cls) if f.name == axis]
            return _plain(found[0]) if found else None
        name, _, entry = axis[len("policy."):].partition(".")
        dp = next((d for d in cls.decision_points if d.name == name), None)
        if dp is None:
            return None
        if not entry:
            return dp.default
        builtin = dp.builtins.get(dp.default)
        return builtin.defaults[builtin.params.index(entry)] if builtin and entry in builtin.params else None


# --- sources


def _from_sweep(sweep):
    frame = sweep.summary()
    frame["total"] = [int(t) for result in sweep.results for t in result.sums]
    for axis in sweep.axes:  # policy specs are lists: shown (and compared) as their text
        if not all(isinstance(v, (bool, int, float, str)) for v in frame[axis]):
            frame[axis] = [plots.label(v) for v in frame[axis]]
    fixed = {k: v for k, v in sweep.scenario.to_dict().items() if k not in sweep.axes}
    for dp, spec in sweep.policies.items():
        if not any(a == f"policy.{dp}" or a.startswith(f"policy.{dp}.") for a in sweep.axes):
            fixed[f"policy.{dp}"] = plots.label(spec)
    generators = {r.generator for r in sweep.results} - {None}
    meta = {"n": [sweep.n], "seed": [sweep.seed], "romesim_version": [VERSION],
            "generator": sorted(generators) or [GENERATOR]}
    return [_Scenario(sweep.scenario.name, sweep.axes, _derived(frame, sweep.axes), fixed, meta)]


def _resolve(source):
    """``(list of _Scenario, description of the source)``."""
    if isinstance(source, Sweep):
        return _from_sweep(source), f"a sweep of {source.scenario.name} ({len(source)} points)"
    if isinstance(source, Store):
        return _from_store(source), f"store {source.path}"
    if not isinstance(source, (str, Path)):
        raise RomesimError(f"source: {source!r} is not allowed; expected a Sweep, a store folder (or Store) or a "
                           "sweep TOML file")
    path = Path(source)
    if not path.exists():
        raise RomesimError(f"source: {str(path)!r} does not exist; expected a store folder or a sweep TOML file")
    if path.is_file():
        if path.suffix != ".toml":
            raise RomesimError(f"source: {str(path)!r} is a file but not a sweep TOML file (.toml); expected a "
                               "store folder or a sweep file")
        store = Store(load_sweep(path)["store"])
        if not store.path.is_dir():
            raise RomesimError(f"source: the store {str(store.path)!r} of the sweep file {str(path)!r} does not "
                               "exist; run the sweep first (romesim sweep FILE)")
        declared = load_sweep(path)
        order = list(declared.get("grid") or declared.get("lhs") or dict.fromkeys(
            a for point in declared.get("points") or [] for a in point))
        return ([_declared_order(s, order, declared.get("grid") or {}) for s in _from_store(store)],
                f"sweep file {path} (store {store.path})")
    return _from_store(Store(path)), f"store {path}"


def _from_store(store):
    if not store.files():
        raise RomesimError(f"source: {str(store.path)!r} is not a romesim store or holds no results (no "
                           "scenario=NAME/KEY-nN.parquet files); run a sweep with store= this folder")
    frame = store.frame()
    return [_store_scenario(name, rows) for name, rows in frame.groupby("scenario", sort=True)]


def _store_scenario(name, rows):
    # a key played again with more games is stored once per n: report the largest n
    largest = rows.groupby("key")["n"].transform("max")
    rows = rows[rows["n"] == largest]
    points = rows.drop_duplicates("key").reset_index(drop=True)
    params = [json.loads(text) for text in points["params"]]
    policies = [json.loads(text) for text in points["policies"]]
    columns = [c for c in rows.columns if c not in STORE_COLUMNS and c != "scenario"]
    candidates = {c: list(points[c]) for c in (*IDENTITY_AXES, *columns) if not points[c].isna().all()}
    for key in params[0]:
        if key not in candidates:
            candidates[key] = [_compact(p.get(key)) for p in params]
    for dp in policies[0]:
        if not any(c == f"policy.{dp}" or c.startswith(f"policy.{dp}.") for c in candidates):
            candidates[f"policy.{dp}"] = [plots.label(p.get(dp)) for p in policies]
    axes = [c for c, values in candidates.items() if len({plots.label(v) for v in values}) > 1]
    fixed = {c: values[0] for c, values in candidates.items() if c not in axes and c not in IDENTITY_AXES}

    point_of = {key: i for i, key in enumerate(points["key"])}
    tidy = pd.DataFrame({"point": rows["key"].map(point_of).to_numpy()})
    for axis in axes:
        tidy[axis] = [candidates[axis][i] for i in tidy["point"]]
    for column in ("metric", "estimate", "ci_low", "ci_high", "n", "total"):
        tidy[column] = rows[column].to_numpy()
    tidy = _sorted_points(_derived(tidy, axes), axes, _metric_order(name, tidy["metric"]))
    meta = {c: sorted({v.item() if hasattr(v, "item") else v for v in points[c]}) for c in ("n", *IDENTITY_AXES)}
    return _Scenario(name, axes, tidy, fixed, meta)


def _derived(tidy, axes):
    """The tidy frame with, for a game reporting both sides' wins, the rows of the edge ``p_win - p_loss`` and of
    ``neither`` (no winner: 1 - p_win - p_loss), computed from the exact sums; the sums themselves dropped."""
    metrics = set(tidy["metric"])
    if not {"p_win", "p_loss"} <= metrics:
        return tidy.drop(columns="total")
    rows = []
    for point, group in tidy.groupby("point", sort=False):
        by = group.set_index("metric")
        n, wins, losses = int(by.at["p_win", "n"]), int(by.at["p_win", "total"]), int(by.at["p_loss", "total"])
        values = {a: by[a].iat[0] for a in axes}
        edge = edge_interval(wins, losses, n)
        rows.append({"point": point, **values, "metric": EDGE, "estimate": edge[0], "ci_low": edge[1],
                     "ci_high": edge[2], "n": n})
        low, high = wilson(n - wins - losses, n)
        rows.append({"point": point, **values, "metric": NEITHER, "estimate": (n - wins - losses) / n,
                     "ci_low": low, "ci_high": high, "n": n})
    return pd.concat([tidy.drop(columns="total"), pd.DataFrame(rows)], ignore_index=True)


def _declared_order(scenario, order, grid):
    """The scenario with its axes in the order the sweep file declares them, and the points numbered in the order
    of the grid's values (as written in the file, so a categorical axis is not sorted alphabetically)."""
    axes = [a for a in order if a in scenario.axes] + [a for a in scenario.axes if a not in order]
    frame = _sorted_points(scenario.frame, axes, _metric_order(scenario.name, scenario.frame["metric"]),
                           {a: [plots.label(v) for v in values] for a, values in grid.items()})
    return _Scenario(scenario.name, axes, frame, scenario.fixed, scenario.meta)


def _compact(value):
    return value if isinstance(value, (bool, int, float, str)) or value is None else json.dumps(value)


def _metric_order(name, metrics):
    try:
        return list(get(name).metrics)
    except ScenarioError:  # a store written by another version may hold a scenario this one lacks
        return list(dict.fromkeys(metrics))


def _sorted_points(tidy, axes, metric_order, declared=None):
    """Points numbered in the order of their axis values (``declared``: ``{axis: [value labels]}``, the order a
    sweep file gives them), metrics in the scenario's order."""
    declared = declared or {}
    points = tidy.drop_duplicates("point")[["point", *axes]]

    def key(axis, value):
        labels = declared.get(axis, [])
        return (labels.index(plots.label(value)), 0) if plots.label(value) in labels else (len(labels), _parsed(value))

    keys = [tuple(key(a, v) for a, v in zip(axes, values)) for values in points[axes].itertuples(index=False)]
    try:
        order = sorted(range(len(keys)), key=keys.__getitem__)
    except TypeError:  # values Python cannot compare (tables, gaps): sort by their text
        order = sorted(range(len(keys)), key=lambda i: tuple((k[0], plots.label(k[1])) for k in keys[i]))
    renumber = {old: new for new, old in enumerate(points["point"].to_numpy()[order])}
    rank = {m: i for i, m in enumerate(metric_order)}
    tidy = tidy.assign(point=tidy["point"].map(renumber), _rank=tidy["metric"].map(rank).fillna(len(rank)))
    return tidy.sort_values(["point", "_rank"], kind="stable").drop(columns="_rank").reset_index(drop=True)


def _parsed(value):
    """An axis value for sorting: JSON text of a list parsed (so [3] comes before [10]), anything else as is."""
    if isinstance(value, str) and value.startswith("["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value.item() if hasattr(value, "item") else value



# --- HTML pieces


def _e(value):
    return html.escape(str(value), quote=True)


def _number(x, digits=4):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{x:.{digits}f}"


def _cell(value):
    """A table cell: numbers right-aligned, text left-aligned, everything escaped."""
    if isinstance(value, (bool, np.bool_, str)) or value is None:
        return f'<td class="text">{_e(plots.label(value) if value is not None else "–")}</td>'
    return f"<td>{_e(plots.label(value))}</td>"


def _table(header, rows, css=None):
    head = "".join(f'<th class="text">{_e(h)}</th>' for h in header)
    body = "\n".join("<tr>" + "".join(cells) + "</tr>" for cells in rows)
    attr = f' class="{css}"' if css else ""
    return f"<table{attr}><thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody></table>"


def _figure(draw, caption, figsize):
    """A plot drawn by ``draw(ax)`` on a pyplot-free Figure, embedded as a PNG data URI."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=figsize, layout="constrained")
    draw(figure.add_subplot())
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (f'<figure><img alt="{_e(caption)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{_e(caption)}</figcaption></figure>")


def _header(title, scenarios, description):
    def values(key):
        found = {v for s in scenarios for v in s.meta[key]}
        try:
            found = sorted(found)
        except TypeError:  # None beside numbers, say
            found = sorted(found, key=str)
        return ", ".join(f"{v:,}" if key == "n" else str(v) for v in found)

    rows = [("scenario" + ("s" if len(scenarios) > 1 else ""), ", ".join(s.name for s in scenarios)),
            ("source", description), ("games per point (n)", values("n")), ("seed", values("seed")),
            ("romesim version", values("romesim_version")), ("dice generator", values("generator")),
            ("generated", datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))]
    table = "\n".join(f"<tr><th>{_e(k)}</th><td class=\"text\">{_e(v)}</td></tr>" for k, v in rows)
    return f"<h1>{_e(title)}</h1>\n<table class=\"meta\">{table}</table>"


def _interval(low, high):
    return f"[{_number(low)}, {_number(high)}]"


def _points_table(scenario, metric):
    """The points with the headline and its interval; for a game that may have no winner also p_loss, neither and
    the edge with its interval."""
    table = scenario.table(metric)
    extra = ["p_loss", NEITHER, EDGE] if scenario.three_outcomes() else []
    others = {m: scenario.table(m).set_index("point") for m in extra}
    header = ["point", *scenario.axes, metric, "95 % interval", "n"] + (
        ["p_loss", "neither (no winner)", f"edge ({EDGE_TEXT})", "95 % interval"] if extra else [])
    rows = []
    for _, r in table.iterrows():
        cells = [_cell(int(r["point"])), *(_cell(r[a]) for a in scenario.axes), f"<td>{_number(r['estimate'])}</td>",
                 f"<td>{_interval(r['ci_low'], r['ci_high'])}</td>", _cell(int(r["n"]))]
        if extra:
            point = r["point"]
            edge = others[EDGE].loc[point]
            cells += [f"<td>{_number(others['p_loss'].at[point, 'estimate'])}</td>",
                      f"<td>{_number(others[NEITHER].at[point, 'estimate'])}</td>",
                      f"<td>{_number(edge['estimate'])}</td>", f"<td>{_interval(edge['ci_low'], edge['ci_high'])}</td>"]
        rows.append(cells)
    return _table(header, rows)


def _fairest(scenario):
    """The fairness measure's table with its distance from an even game, closest first."""
    metric, target = scenario.fair()
    table = scenario.table(metric)
    table = table.assign(distance=(table["estimate"] - target).abs())
    return table.sort_values(["distance", "point"], kind="stable").reset_index(drop=True)


def _fairest_table(scenario):
    metric, target = scenario.fair()
    table = _fairest(scenario).head(FAIREST)
    name = f"edge ({EDGE_TEXT})" if metric == EDGE else metric
    distance = f"|{metric}|" if target == 0 else f"|{metric} − {target:g}|"
    header = ["point", *scenario.axes, name, "95 % interval", distance, f"interval holds {target:g}"]
    rows = []
    for _, r in table.iterrows():
        holds = r["ci_low"] <= target <= r["ci_high"]
        rows.append([_cell(int(r["point"])), *(_cell(r[a]) for a in scenario.axes),
                     f"<td>{_number(r['estimate'])}</td>", f"<td>{_interval(r['ci_low'], r['ci_high'])}</td>",
                     f"<td>{_number(r['distance'])}</td>",
                     f'<td class="text{" even" if holds else ""}">{"yes" if holds else "no"}</td>'])
    return _table(header, rows)


def knob_means(scenario, metric, axis):
    """Per value of ``axis``: the mean of ``metric`` over the points at that value (the other axes' values) with
    an interval, in the axis' order. The half-width is the mean of the points' half-widths: a bound that holds
    whatever the correlation between points (the common dice correlate them), since the standard error of a mean
    is at most the mean of the standard errors."""
    table = scenario.table(metric)
    labels = [plots.label(v) for v in table[axis]]
    rows = []
    for value in plots._order(table[axis]):
        chosen = table[[label == value for label in labels]]
        mean, half = chosen["estimate"].mean(), ((chosen["ci_high"] - chosen["ci_low"]) / 2).mean()
        rows.append({axis: chosen[axis].iat[0], "label": value, "estimate": mean, "ci_low": mean - half,
                     "ci_high": mean + half, "points": len(chosen)})
    return pd.DataFrame(rows)


def _knobs(scenario):
    """Per swept knob: the fairness measure's mean over the other axes, the value closest to even, the rules'."""
    metric, target = scenario.fair()
    found = []
    for axis in scenario.axes:
        means = knob_means(scenario, metric, axis)
        rules = scenario.rules_value(axis)
        rules = None if rules is None else plots.label(rules)
        best = means.iloc[(means["estimate"] - target).abs().argmin()]["label"]
        found.append((axis, means, best, rules))
    return found


def _knob_table(scenario, knobs):
    metric, target = scenario.fair()
    header = ["knob", "value", f"mean {metric} over the other axes", "95 % interval", "points", "closest to even",
              "the rules' value"]
    rows = []
    for axis, means, best, rules in knobs:
        for _, r in means.iterrows():
            closest, own = r["label"] == best, r["label"] == rules
            rows.append([f'<td class="text">{_e(axis)}</td>', _cell(r[axis]), f"<td>{_number(r['estimate'])}</td>",
                         f"<td>{_interval(r['ci_low'], r['ci_high'])}</td>", _cell(int(r["points"])),
                         f'<td class="text{" even" if closest else ""}">{"yes" if closest else ""}</td>',
                         f'<td class="text">{"rules" if own else ""}</td>'])
    return _table(header, rows)


def _metrics_table(scenario):
    wide = scenario.frame.pivot(index="point", columns="metric", values="estimate")
    metrics = scenario.metrics()
    axes = scenario.table(metrics[0]).set_index("point")
    header = ["point", *scenario.axes, *metrics]
    rows = [[_cell(int(point)), *(_cell(axes.at[point, a]) for a in scenario.axes),
             *(f"<td>{_number(wide.at[point, m])}</td>" for m in metrics)] for point in wide.index]
    return f'<div class="wide">{_table(header, rows)}</div>'


def _is_grid(table, axes):
    """Whether the points are every combination of their axes' values, each once (a grid, not a Latin hypercube
    nor a list that repeats a point)."""
    labels = [tuple(plots.label(v) for v in row) for row in table[axes].itertuples(index=False)]
    return len(set(labels)) == len(labels) == math.prod(len({row[i] for row in labels}) for i in range(len(axes)))


def _side_title(scenario, metric):
    """A plot title naming the side high values favour, where the scenario names it."""
    cls = scenario.cls()
    if cls is None or metric not in (EDGE, HEADLINE):
        return None
    return "\n".join(_wrap(("above 0: " if metric == EDGE else "p_win: ") + cls.p_win, 80))


def _titled(ax, title):
    if title:
        ax.set_title(title, fontsize=9)
    return ax


def _wrap(text, width):
    import textwrap

    return textwrap.wrap(text, width) or [text]


def _plots(scenario, knobs):
    """A plot of the fairness measure per axis and, over two axes, a heatmap; for a game that may have no winner,
    its three outcomes per axis.

    On a grid, each plot has one line per value of the next axis (hue) and the axes beyond are held at the values
    of the point closest to an even game, so every line joins points that differ in its own axis alone. Off a grid
    (a Latin hypercube), the points are shown as they are: one marker with its interval each. A categorical axis
    is drawn as points, never lines. The rules' own value of an axis is marked.
    """
    metric, target = scenario.fair()
    table = scenario.table(metric)
    axes = scenario.axes
    grid = _is_grid(table, axes)
    fairest = _fairest(scenario).iloc[0]
    rules_of = {axis: rules for axis, _, _, rules in knobs}
    figures = []
    for axis in axes:
        others = [a for a in axes if a != axis]
        hue = others[0] if grid and others and table[others[0]].nunique() <= MAX_HUE_VALUES else None
        held = [a for a in others if a != hue] if grid else []
        chosen = table
        for a in held:
            chosen = chosen[[plots.label(v) == plots.label(fairest[a]) for v in chosen[a]]]
        numeric = plots.is_numeric(table[axis])
        caption = f"{metric} against {axis}" + (
            (f", one line per {hue}" if numeric else f", points grouped by {hue}") if hue else "")
        if held:
            caption += ", " + ", ".join(f"{a} = {plots.label(fairest[a])}" for a in held) + " as at the fairest point"
        caption += (("; 95 % bands" if numeric else "; 95 % intervals") if grid else
                    f"; each marker a point (they also differ in {', '.join(others)})")
        rules = rules_of.get(axis)
        rules = rules if rules is None or not plots.is_numeric(table[axis]) else _parsed(rules)
        title = _side_title(scenario, metric)
        ylabel = f"{EDGE} = {EDGE_TEXT} (95 % interval)" if metric == EDGE else None
        figures.append(_figure(
            lambda ax, t=chosen, x=axis, h=hue, r=rules: _titled(plots.sweep_plot(
                t, x, metric, hue=h, ax=ax, reference=target, rules=r if _number_or_text(r) else None,
                ylabel=ylabel), title), caption, (6.4, 4.0)))
    if scenario.three_outcomes():
        for axis in axes:
            frame = pd.concat([knob_means(scenario, m, axis).assign(outcome=name) for m, name in
                               (("p_win", "p_win"), ("p_loss", "p_loss"), (NEITHER, "neither"))], ignore_index=True)
            frame = frame.drop(columns=["label", "points"])
            cls = scenario.cls()
            side = cls.p_win if cls else "the first side wins"
            caption = (f"every outcome against {axis}, mean over the other axes: p_win ({side}), p_loss (the other "
                       "side wins), neither (no winner)")
            rules = rules_of.get(axis)
            rules = rules if rules is None or not plots.is_numeric(frame[axis]) else _parsed(rules)
            figures.append(_figure(lambda ax, f=frame, x=axis, r=rules: _titled(plots.sweep_plot(
                f, x, None, hue="outcome", ax=ax, reference=None, colours=plots.OUTCOME_COLOURS,
                rules=r if _number_or_text(r) else None, ylabel="probability (95 % interval)"),
                _side_title(scenario, HEADLINE)), caption, (6.4, 4.0)))
    if len(axes) == 2 and grid and all(table[a].nunique() <= MAX_HEATMAP_VALUES for a in axes):
        rows, columns = (table[a].nunique() for a in axes)
        figures.append(_figure(lambda ax: plots.heatmap(table, axes[0], axes[1], ax=ax, center=target),
                               f"{metric} over {axes[0]} × {axes[1]} (95 % intervals in the cells; blue: the p_win "
                               "side ahead, red: the other side)",
                               (min(16.0, 2.6 + 1.1 * columns), min(12.0, 1.8 + 0.7 * rows))))
    return "\n".join(figures)


def _number_or_text(value):
    return value is not None and (isinstance(value, (int, float, str)) and not isinstance(value, bool)
                                  or isinstance(value, bool))


BINNED = re.compile(r"^(p_.+?)_(\d+)(?:_(\d+))?$")


def _distributions(scenario):
    """Bar charts of the binned probabilities (``p_X_0``, ``p_X_1_4``, ...) at the fairest point, and a note on
    the count metrics, whose per-game values a store does not keep (it holds each point's sums only)."""
    groups = {}
    for m in scenario.metrics():
        match = BINNED.match(m)
        if match:
            groups.setdefault(match[1], []).append(m)
    groups = {k: v for k, v in groups.items() if len(v) >= 2}
    counts = [m for m in scenario.metrics() if not m.startswith("p_")]
    parts = []
    fair = scenario.fair()
    point = int(_fairest(scenario).iloc[0]["point"]) if fair else 0
    for prefix, members in groups.items():
        bins = [scenario.table(m).set_index("point").loc[point] for m in members]
        names = [m[len(prefix) + 1:].replace("_", "–") for m in members]

        def draw(ax, bins=bins, names=names, prefix=prefix):
            est = np.array([b["estimate"] for b in bins])
            low, high = np.array([b["ci_low"] for b in bins]), np.array([b["ci_high"] for b in bins])
            ax.bar(range(len(bins)), est, color=plots.WIN, alpha=0.8)
            ax.errorbar(range(len(bins)), est, yerr=[est - low, high - est], fmt="none", ecolor="black", capsize=3)
            ax.set_xticks(range(len(bins)), names)
            ax.set_xlabel(prefix[2:])
            ax.set_ylabel("probability (95 % interval)")
            ax.grid(axis="y", alpha=0.3)

        parts.append(_figure(draw, f"distribution of {prefix[2:]} at point {point} (the fairest), from its binned "
                                   "probabilities", (5.0, 3.2)))
    if counts:
        parts.append(f'<p class="note">No histogram of {_e(", ".join(counts))}: the store keeps each point\'s sums '
                     "(the means and their intervals), not the per-game values"
                     + ("; the binned probabilities above give those distributions that the scenario reports."
                        if groups else ".") + "</p>")
    return "\n".join(parts)


def _knob_lines(scenario, knobs):
    """Per swept knob, one sentence: the value closest to even with its mean and interval, and the rules' own."""
    metric = scenario.fair()[0]
    lines = []
    for axis, means, best_value, rules in knobs:
        row = means[means["label"] == best_value].iloc[0]
        mean = f"mean {metric} over the other axes" if len(scenario.axes) > 1 else metric
        text = (f"{axis}: closest to even at {best_value}, {mean} "
                f"{_number(row['estimate'])} {_interval(row['ci_low'], row['ci_high'])}")
        if rules is not None and rules != best_value and rules in set(means["label"]):
            own = means[means["label"] == rules].iloc[0]
            text += (f"; at the scenario's default {rules}: {_number(own['estimate'])} "
                     f"{_interval(own['ci_low'], own['ci_high'])}")
        elif rules == best_value:
            text += " (the scenario's default)"
        lines.append(text + ".")
    return lines


def knob_findings(sweep):
    """The report's per-knob sentences for a ``Sweep`` (what ``romesim sweep`` prints under its table): for each
    axis, the value whose mean fairness over the other axes is closest to even, with its interval, and the rules'
    own value. Empty when the scenario reports no probability."""
    scenario = _from_sweep(sweep)[0]
    return [] if scenario.fair() is None else _knob_lines(scenario, _knobs(scenario))


def _findings(scenario, knobs):
    """Sentences stating what the numbers say, for the top of the report."""
    fair = scenario.fair()
    if fair is None:
        return [f"{scenario.name}: no probability is reported; see the tables."]
    metric, target = fair
    name = f"the edge {EDGE_TEXT}" if metric == EDGE else metric
    ranked = _fairest(scenario)
    best = ranked.iloc[0]
    where = ", ".join(f"{a} = {plots.label(best[a])}" for a in scenario.axes) or "the only point"
    holds = best["ci_low"] <= target <= best["ci_high"]
    lines = [f"Closest to an even game ({name} = {target:g}): point {int(best['point'])}, {where}: {metric} "
             f"{_number(best['estimate'])} "
             f"{_interval(best['ci_low'], best['ci_high'])}"
             + (f" (its interval holds {target:g})." if holds else
                f" (still {_number(best['distance'])} from even, beyond its interval).")]
    if len(ranked) > 1:
        low, high = ranked.loc[ranked["estimate"].idxmin()], ranked.loc[ranked["estimate"].idxmax()]
        lines.append(f"Over the {len(ranked)} points {metric} runs from {_number(low['estimate'])} (point "
                     f"{int(low['point'])}) to {_number(high['estimate'])} (point {int(high['point'])}).")
    lines += _knob_lines(scenario, knobs)
    if metric == EDGE:
        neither = scenario.table(NEITHER)["estimate"]
        low, high = _number(100 * neither.min(), 0), _number(100 * neither.max(), 0)
        share = f"about {low} %" if low == high else f"{low}–{high} %"
        lines.append(f"{share} of the games end with no winner, so fairness is {EDGE_TEXT} (0: even), not p_win's "
                     "distance from 0.5.")
        by_p_win = scenario.table(HEADLINE).assign(d=lambda t: (t["estimate"] - 0.5).abs()).sort_values(
            ["d", "point"], kind="stable").iloc[0]
        if int(by_p_win["point"]) != int(best["point"]):
            loss = scenario.table("p_loss").set_index("point").at[by_p_win["point"], "estimate"]
            lines.append(f"p_win alone would point to point {int(by_p_win['point'])} (p_win "
                         f"{_number(by_p_win['estimate'])}), where the other side wins only {_number(loss)}.")
    return lines


def _section(scenario):
    metric = scenario.headline()
    parts = [f"<section>\n<h2>{_e(scenario.name)}</h2>"]
    cls = scenario.cls()
    if cls is not None:
        outcomes = (f" <b>p_loss</b>: the other side wins; <b>edge</b> = {_e(EDGE_TEXT)}, the fairness of a game "
                    "that may end with no winner (0: even)." if scenario.three_outcomes() else "")
        parts.append(f"<p>{_e(cls.title)} ({_e(cls.rule)}). <b>{_e(HEADLINE)}</b>: {_e(cls.p_win)}.{outcomes}</p>")
    points = scenario.frame["point"].nunique()
    over = ", ".join(scenario.axes) if scenario.axes else "no axis (every point has the same parameters)"
    parts.append(f'<p class="note">{points} point{"s" if points != 1 else ""} over {_e(over)}.</p>')
    parts.append(f"<h3>Points</h3>\n<div class=\"wide\">{_points_table(scenario, metric)}</div>")
    fair = scenario.fair()
    knobs = _knobs(scenario) if fair and scenario.axes else []
    if knobs:
        parts.append(f"<h3>Per knob</h3>\n<div class=\"wide\">{_knob_table(scenario, knobs)}</div>")
    if scenario.axes and fair:
        parts.append(f"<h3>Plots</h3>\n{_plots(scenario, knobs)}")
    if fair:
        parts.append(f"<h3>Closest to an even game</h3>\n<div class=\"wide\">{_fairest_table(scenario)}</div>")
    distributions = _distributions(scenario)
    if distributions:
        parts.append(f"<h3>Distributions</h3>\n{distributions}")
    parts.append(f"<h3>All metrics (estimates)</h3>\n{_metrics_table(scenario)}")
    fixed = [[f'<td class="text">{_e(k)}</td>', _cell(v)] for k, v in scenario.fixed.items()]
    if fixed:
        parts.append("<details><summary>Parameters every point shares</summary>\n"
                     f"{_table(['parameter', 'value'], fixed)}</details>")
    parts.append("</section>")
    return "\n".join(parts), _findings(scenario, knobs)


def _bots_section(tables):
    """"Strong play": each ``ladder`` and ``robustness`` table, as the reader needs it to judge a finding."""
    parts = ['<section class="bots">\n<h2>Strong play: bot ladders and robustness</h2>']
    for table in tables:
        if "finding" in table.columns:
            parts.append("<h3>Do the findings hold under stronger bots?</h3>")
            rows = [[f'<td class="text">{_e(r.finding)}</td>', f'<td class="text">{_e(r.family)}</td>',
                     f"<td>{_number(r.estimate)}</td>", f"<td>{_interval(r.ci_low, r.ci_high)}</td>",
                     f'<td class="text">{"robust" if r.robust else "not robust"}</td>']
                    for r in table.itertuples()]
            parts.append(_table(("finding", "bots", "estimate", "95 % interval", "verdict"), rows))
        else:
            parts.append(f"<h3>Bot ladder: {_e(table.attrs.get('scenario', ''))}</h3>")
            rows = [[f'<td class="text">{_e(r.bot)}</td>', f"<td>{_number(r.rating, 1)}</td>",
                     f"<td>{_interval(r.ci_low, r.ci_high)}</td>", f"<td>{_number(r.p_win)}</td>"]
                    for r in table.itertuples()]
            parts.append(_table(("bot", "rating (Elo scale)", "95 % interval", "p_win"), rows))
    return "\n".join(parts) + "\n</section>"


def write_report(source, path, title=None, bots=()):
    """Write the HTML report of ``source`` to ``path`` and return its Path.

    ``source``: a ``Sweep``, a store folder or ``romesim.store.Store``, or a sweep TOML file (its ``store``).
    ``title`` defaults to "romesim report: " and the scenario names. ``bots``: ``ladder`` and ``robustness``
    tables, shown in a section of their own. Raises ``RomesimError`` naming the path when the source does not
    exist, is not a store or holds no results.
    """
    scenarios, description = _resolve(source)
    title = title if title is not None else "romesim report: " + ", ".join(s.name for s in scenarios)
    sections = [_section(s) for s in scenarios]
    findings = "\n".join(
        (f"<p><b>{_e(s.name)}</b></p>" if len(scenarios) > 1 else "") + "<ul>" + "".join(f"<li>{_e(line)}</li>"
                                                                             for line in lines) + "</ul>"
        for s, (_, lines) in zip(scenarios, sections))
    body = "\n".join([_header(title, scenarios, description), f'<section class="findings">\n<h2>Findings</h2>\n'
                       f"{findings}\n</section>", *(html_ for html_, _ in sections),
                       *([_bots_section(bots)] if len(bots) else [])])
    document = (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{_e(title)}</title>\n'
                f"<style>{CSS}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n")
    target = Path(path)
    if target.is_dir():
        raise RomesimError(f"path: {str(target)!r} is a folder; expected the name of the HTML file to write")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(document, encoding="utf-8")
    except OSError as exc:
        raise RomesimError(f"path: cannot write {str(target)!r}: {exc.strerror or exc}") from None
    return target


__all__ = ["write_report"]
