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
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.errors import RomesimError, ScenarioError
from ..core.rng import GENERATOR
from ..core.scenario import get
from ..core.version import VERSION
from . import plots
from .store import COLUMNS as STORE_COLUMNS
from .store import Store
from .sweep import Sweep, load_sweep

HEADLINE = "p_win"
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

    ``frame``: tidy, one row per (point, metric): ``point``, the axes, ``metric, estimate, ci_low, ci_high, n``.
    """

    def __init__(self, name, axes, frame, fixed, meta):
        self.name, self.axes, self.frame, self.fixed, self.meta = name, list(axes), frame, fixed, meta

    def metrics(self):
        return list(dict.fromkeys(self.frame["metric"]))

    def headline(self):
        metrics = self.metrics()
        return HEADLINE if HEADLINE in metrics else metrics[0]

    def table(self, metric):
        return self.frame[self.frame["metric"] == metric].reset_index(drop=True)


# --- sources


def _from_sweep(sweep):
    frame = sweep.summary()
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
    return [_Scenario(sweep.scenario.name, sweep.axes, frame, fixed, meta)]


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
        return _from_store(store), f"sweep file {path} (store {store.path})"
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
    for column in ("metric", "estimate", "ci_low", "ci_high", "n"):
        tidy[column] = rows[column].to_numpy()
    tidy = _sorted_points(tidy, axes, _metric_order(name, tidy["metric"]))
    meta = {c: sorted({v.item() if hasattr(v, "item") else v for v in points[c]}) for c in ("n", *IDENTITY_AXES)}
    return _Scenario(name, axes, tidy, fixed, meta)


def _compact(value):
    return value if isinstance(value, (bool, int, float, str)) or value is None else json.dumps(value)


def _metric_order(name, metrics):
    try:
        return list(get(name).metrics)
    except ScenarioError:  # a store written by another version may hold a scenario this one lacks
        return list(dict.fromkeys(metrics))


def _sorted_points(tidy, axes, metric_order):
    """Points numbered in the order of their axis values, metrics in the scenario's order."""
    points = tidy.drop_duplicates("point")[["point", *axes]]
    keys = [tuple(_parsed(v) for v in values) for values in points[axes].itertuples(index=False)]
    try:
        order = sorted(range(len(keys)), key=keys.__getitem__)
    except TypeError:  # values Python cannot compare (tables, gaps): sort by their text
        order = sorted(range(len(keys)), key=lambda i: tuple(plots.label(v) for v in keys[i]))
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


def _points_table(scenario, metric):
    table = scenario.table(metric)
    header = ["point", *scenario.axes, metric, "95 % interval", "n"]
    rows = [[_cell(int(r["point"])), *(_cell(r[a]) for a in scenario.axes), f"<td>{_number(r['estimate'])}</td>",
             f"<td>[{_number(r['ci_low'])}, {_number(r['ci_high'])}]</td>", _cell(int(r["n"]))]
            for _, r in table.iterrows()]
    return _table(header, rows)


def _fairest_table(scenario, metric, target=0.5):
    table = scenario.table(metric)
    table = table.assign(distance=(table["estimate"] - target).abs())
    table = table.sort_values(["distance", "point"], kind="stable").head(FAIREST)
    header = ["point", *scenario.axes, metric, "95 % interval", "|estimate − 0.5|", "interval holds 0.5"]
    rows = []
    for _, r in table.iterrows():
        holds = r["ci_low"] <= target <= r["ci_high"]
        rows.append([_cell(int(r["point"])), *(_cell(r[a]) for a in scenario.axes),
                     f"<td>{_number(r['estimate'])}</td>",
                     f"<td>[{_number(r['ci_low'])}, {_number(r['ci_high'])}]</td>",
                     f"<td>{_number(r['distance'])}</td>",
                     f'<td class="text{" even" if holds else ""}">{"yes" if holds else "no"}</td>'])
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


def _plots(scenario, metric):
    """A line plot per axis and, over two axes, a heatmap.

    On a grid, each plot has one line per value of the next axis (hue) and the axes beyond are held at the values
    of the point closest to an even game, so every line joins points that differ in its own axis alone. Off a grid
    (a Latin hypercube), the points are shown as they are: one marker with its interval each.
    """
    table = scenario.table(metric)
    axes = scenario.axes
    grid = _is_grid(table, axes)
    fairest = table.iloc[(table["estimate"] - 0.5).abs().argmin()]
    figures = []
    for axis in axes:
        others = [a for a in axes if a != axis]
        hue = others[0] if grid and others and table[others[0]].nunique() <= MAX_HUE_VALUES else None
        held = [a for a in others if a != hue] if grid else []
        chosen = table
        for a in held:
            chosen = chosen[[plots.label(v) == plots.label(fairest[a]) for v in chosen[a]]]
        caption = f"{metric} against {axis}" + (f", one line per {hue}" if hue else "")
        if held:
            caption += ", " + ", ".join(f"{a} = {plots.label(fairest[a])}" for a in held) + " as at the fairest point"
        caption += "; 95 % bands" if grid else f"; each marker a point (they also differ in {', '.join(others)})"
        figures.append(_figure(lambda ax, t=chosen, x=axis, h=hue: plots.sweep_plot(t, x, metric, hue=h, ax=ax),
                               caption, (6.4, 4.0)))
    if len(axes) == 2 and grid and all(table[a].nunique() <= MAX_HEATMAP_VALUES for a in axes):
        rows, columns = (table[a].nunique() for a in axes)
        figures.append(_figure(lambda ax: plots.heatmap(table, axes[0], axes[1], ax=ax),
                               f"{metric} over {axes[0]} × {axes[1]} (95 % intervals in the cells)",
                               (min(16.0, 2.6 + 1.1 * columns), min(12.0, 1.8 + 0.7 * rows))))
    return "\n".join(figures)


def _section(scenario):
    metric = scenario.headline()
    parts = [f"<section>\n<h2>{_e(scenario.name)}</h2>"]
    try:
        cls = get(scenario.name)
        parts.append(f"<p>{_e(cls.title)} ({_e(cls.rule)}). <b>{_e(HEADLINE)}</b>: {_e(cls.p_win)}.</p>")
    except ScenarioError:
        pass
    points = scenario.frame["point"].nunique()
    over = ", ".join(scenario.axes) if scenario.axes else "no axis (every point has the same parameters)"
    parts.append(f'<p class="note">{points} point{"s" if points != 1 else ""} over {_e(over)}.</p>')
    parts.append(f"<h3>Points</h3>\n{_points_table(scenario, metric)}")
    if scenario.axes:
        parts.append(f"<h3>Plots</h3>\n{_plots(scenario, metric)}")
    parts.append(f"<h3>Closest to 50 %</h3>\n{_fairest_table(scenario, metric)}")
    parts.append(f"<h3>All metrics (estimates)</h3>\n{_metrics_table(scenario)}")
    fixed = [[f'<td class="text">{_e(k)}</td>', _cell(v)] for k, v in scenario.fixed.items()]
    if fixed:
        parts.append("<details><summary>Parameters every point shares</summary>\n"
                     f"{_table(['parameter', 'value'], fixed)}</details>")
    parts.append("</section>")
    return "\n".join(parts)


def write_report(source, path, title=None):
    """Write the HTML report of ``source`` to ``path`` and return its Path.

    ``source``: a ``Sweep``, a store folder or ``romesim.store.Store``, or a sweep TOML file (its ``store``).
    ``title`` defaults to "romesim report: " and the scenario names. Raises ``RomesimError`` naming the path when
    the source does not exist, is not a store or holds no results.
    """
    scenarios, description = _resolve(source)
    title = title if title is not None else "romesim report: " + ", ".join(s.name for s in scenarios)
    body = "\n".join([_header(title, scenarios, description), *(_section(s) for s in scenarios)])
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
