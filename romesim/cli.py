"""The ``romesim`` command line.

    romesim list [NAME [--point POINT]] [--json]
    romesim run NAME|FILE.toml [--set KEY=VALUE ...] [-n N] [--seed S] [--policy DP=NAME[:P,...|:K=V,...] ...]
                [--workers W] [--target-ci X] [--exact] [--progress | --no-progress] [--json | --csv]
    romesim exact NAME|FILE.toml [--set KEY=VALUE ...] [--policy ...] [--json]
    romesim matchups [--types TYPE ...] [-n N] [--seed S] [--set KEY=VALUE ...] [--json] [--plot FILE.png]
    romesim sweep FILE.toml [-n N] [--seed S] [--workers W] [--store DIR] [--metric M] [--no-progress]
                  [--report FILE.html] [--json | --csv]
    romesim compare A [B] [--set ...] [--policy ...] [-n N] [--seed S] [--workers W] [--metric M ...]
                    [--sprt [--test fairer|stronger] [--delta D]] [--json] [--vs [B] [--set ...] [--policy ...]]
    romesim report STORE|FILE.toml [-o FILE.html] [--title TEXT]
    romesim query STORE "SQL" [--csv | --json]
    romesim cache [--clear]

Bad input of any kind ends with one line ``romesim: error: ...`` on stderr and exit status 2, so scripts can
tell a mistake in the question from a crash; Ctrl-C ends with one line saying what was kept and status 130; a
closed pipe (``romesim list | head``) ends quietly.
"""
import argparse
import json
import math
import os
import sys
import textwrap
import time
import tomllib
from dataclasses import fields
from fractions import Fraction
from pathlib import Path

import romesim
from romesim.core.errors import Interrupted, did_you_mean
from romesim.core.rng import GENERATOR
from romesim.core.scenario import get as scenario_class

DEFAULT_N = 100_000
SPRT_MAX_N = 1_000_000
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE


class UsageError(Exception):
    """Bad input found after argparse accepted the command line."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors, like every other bad input (argparse alone prints its usage too)."""

    def error(self, message):
        error_line(f"{message} (see '{self.prog} --help')")
        self.exit(EXIT_USAGE)


def count(text):
    """A whole number of games or points: 200000, 200_000, 2e5 (not 2.5e-1)."""
    try:
        value = float(text.replace("_", "")) if any(c in text.lower() for c in ".e") else int(text)
    except ValueError:
        value = None
    if value is None or value != int(value) or value > 2**62:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (write 100000, 100_000 or 1e5)")
    return int(value)


def parse_value(text):
    """A ``--set`` value: a TOML literal when it is one, otherwise the plain string (no quoting needed)."""
    try:
        doc = tomllib.loads("v = " + text)
    except tomllib.TOMLDecodeError:
        return text
    return doc["v"] if list(doc) == ["v"] else text  # text with a newline could smuggle in other keys


def parse_pairs(items, option):
    pairs = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"{option} {item!r}: expected KEY=VALUE")
        pairs[key.strip()] = value.strip()
    return pairs


def parse_policy(point, text):
    """``never`` -> "never"; ``reserve:1,2`` -> ("reserve", [1.0, 2.0]); ``ismcts:budget=256,rollout=random`` ->
    ("ismcts", {"budget": 256.0, "rollout": "random"}): the forms romesim.simulate takes."""
    name, sep, vector = text.partition(":")
    if not sep:
        return name
    items = vector.split(",")
    if any("=" in item for item in items):
        named = {}
        for item in items:
            key, equals, value = item.partition("=")
            if not equals or not key.strip():
                raise UsageError(f"--policy {point}={text}: give every parameter by name (budget=256,rollout="
                                 "random) or none (reserve:1)")
            try:
                named[key.strip()] = float(value)
            except ValueError:
                named[key.strip()] = value.strip()
        return name, named
    try:
        return name, [float(v) for v in items]
    except ValueError:
        raise UsageError(f"--policy {point}={text}: the parameters after ':' must be comma-separated numbers, "
                         "e.g. reserve:1, or name=value pairs, e.g. ismcts:budget=256") from None


def build(args):
    """The scenario, the file's settings (n, seed, workers, target_ci) and the policies, options winning."""
    sets = {k: parse_value(v) for k, v in parse_pairs(args.set, "--set").items()}
    settings = {}
    if args.scenario.endswith(".toml"):
        path = Path(args.scenario)
        scenario, settings = romesim.load_toml(path, **sets)
    else:
        scenario = romesim.scenario(args.scenario, **sets)
    chosen = {k: parse_policy(k, v) for k, v in parse_pairs(args.policy, "--policy").items()}
    policies = {**settings.get("policies", {}), **chosen}
    return scenario, settings, policies


def with_version(out):
    """JSON output, headed by the romesim version and the dice generator that produced it."""
    return {"romesim": romesim.__version__, "generator": GENERATOR, **out}


def number(x):
    return "–" if x is None or math.isnan(x) else f"{x:.4f}"


def table(header, rows):
    """Aligned columns: the first left-aligned (names), the others right-aligned (numbers)."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
            for r in [header, *rows]]


def describe(scenario, result, policies, asked=None):
    """The header of a report: what was asked, so a pasted report stands on its own."""
    cls = type(scenario)
    defaults = {f.name: list(f.default) if isinstance(f.default, tuple) else f.default for f in fields(cls)}
    changed = [f"{k}={json.dumps(v)}" for k, v in scenario.to_dict().items() if v != defaults[k]]
    lines = [f"{scenario.name} — {cls.rule}: {cls.title}", f"p_win = {cls.p_win}",
             "parameters: " + (", ".join(changed) or "all defaults")]
    if scenario.data_source is not None:
        lines.append("data: " + ", ".join(f"{k}={v}" for k, v in scenario.data_source.items()))
    if not result.is_exact:
        early = f"   (target CI reached; asked for {asked:,})" if asked and result.n != asked else ""
        lines.append(f"n = {result.n:,}   seed = {result.seed}{early}")
    used = []
    for point, name in result.policies.items():
        spec = policies.get(point)
        vector = ":" + ",".join(f"{v:g}" for v in spec[1]) if isinstance(spec, (tuple, list)) else ""
        used.append(f"{point}={name}{vector}")
    lines.append("policies: " + (", ".join(used) or "none (no decision points)"))
    return lines + [""]


def cmd_list(args):
    names = list(romesim.list_scenarios()["scenario"])
    if args.name in names:
        description = romesim.describe(args.name, args.point)
        print(json.dumps(description.to_dict(), indent=2, default=str) if args.json
              else str(description))
        return
    if args.point:
        raise UsageError("--point needs a scenario name: romesim list NAME --point POINT")
    records = romesim.list_scenarios().to_dict("records")
    if args.name:  # a prefix such as "jugule" or "kings_of_rome.s"
        records = [r for r in records if r["scenario"].startswith(args.name)]
        if not records:
            raise UsageError(f"no scenario named or starting with {args.name!r}"
                             f"{did_you_mean(args.name, names)}; known: {', '.join(names)}")
    if args.json:
        print(json.dumps(records, indent=2))
        return
    for rec in records:
        points = []
        for dp in scenario_class(rec["scenario"]).decision_points:
            # default first, so the line shows what runs when --policy is not given
            names = rec["decision_points"][dp.name]
            shown = [b + (":" + ",".join(dp.builtins[b].params) if dp.builtins[b].params else "") for b in names]
            points.append(f"{dp.name} ({' | '.join(shown)})")
        params = ", ".join(f"{k}={json.dumps(v)}" for k, v in rec["parameters"].items())
        print(f"{rec['scenario']}  [{rec['rule']}]  {rec['title']}")
        for label, text in [("p_win =", rec["p_win"]), ("parameters:", params),
                            ("metrics:", ", ".join(rec["metrics"])),
                            ("decision points:", ", ".join(points) or "none"),
                            ("exact:", "yes" if rec["exact"] else "no")]:
            print(textwrap.fill(f"{label} {text}", width=110, initial_indent="  ", subsequent_indent="      ",
                                break_on_hyphens=False))
        print()


def cmd_run(args):
    scenario, settings, policies = build(args)

    def pick(option, key, default=None):  # the command line wins over the file
        return option if option is not None else settings.get(key, default)

    n, seed = pick(args.n, "n", DEFAULT_N), pick(args.seed, "seed", 0)
    # one game first, so that loading or compiling the kernel is not counted as playing time
    start = time.perf_counter()
    romesim.simulate(scenario, 1, seed, policies=policies)
    loaded = time.perf_counter()
    result = romesim.simulate(scenario, n, seed, policies=policies, workers=pick(args.workers, "workers"),
                              target_ci=pick(args.target_ci, "target_ci"), progress=args.progress)
    elapsed = time.perf_counter() - loaded
    load = loaded - start
    exact, note = None, None
    if args.exact:
        try:
            exact = romesim.exact(scenario, policies=policies)
        except romesim.ExactNotSupported as exc:
            note = f"no exact column: {exc}"
    if args.json:
        out = with_version(result.to_dict())
        if args.exact:
            out["exact"] = None if exact is None else {m: exact.estimate(m) for m in exact.metrics}
        print(json.dumps(out, indent=2))
        return
    if args.csv:
        frame = result.summary()
        if exact is not None:
            frame["exact"] = [exact.estimate(m) for m in frame["metric"]]
        print(frame.to_csv(index=False), end="")
        return
    lines = describe(scenario, result, policies, asked=n)
    header = ["metric", "estimate", "95% CI"] + (["exact"] if exact else [])
    rows = []
    for m in result.metrics:
        est, (low, high) = result.estimate(m), result.interval(m)
        rows.append([m, number(est), f"{number(low)} – {number(high)}"] + ([number(exact[m])] if exact else []))
    lines += table(header, rows) + [""]
    if note:
        lines.append(note)
    lines.append(f"{result.n:,} games in {elapsed:.2f} s: {result.n / max(elapsed, 1e-9):,.0f} games/s "
                 f"(kernel loaded or compiled in {load:.1f} s)")
    print("\n".join(lines))


def cmd_exact(args):
    scenario, _, policies = build(args)
    result = romesim.exact(scenario, policies=policies)
    if args.json:
        print(json.dumps(with_version(result.to_dict()), indent=2))
        return
    rows = []
    for m in result.metrics:
        value = Fraction(result.exact_values[m])
        # a fraction helps only while it is short enough to read (2/9, not 1234567/10077696)
        rows.append([m, number(float(value)), str(value) if value.denominator <= 10_000 else ""])
    print("\n".join(describe(scenario, result, policies) + table(["metric", "exact", "fraction"], rows)))


def cmd_trace(args):
    scenario, settings, policies = build(args)
    seed = args.seed if args.seed is not None else settings.get("seed", 0)
    # the sentences show no decision's legal actions: only the event table and the detailed lines need them
    events = romesim.trace(scenario, args.game, seed, policies=policies, legal=args.json or args.csv or args.detail)
    if args.json:
        out = {"scenario": scenario.name, "game": args.game, "seed": seed, "outcome": events.outcome,
               "error": events.error, "events": json.loads(events.to_json(orient="records")),
               "sentences": [{"step": int(x.step), "text": x.text, "heading": x.heading} for x in events.sentences()]}
        print(json.dumps(with_version(out), indent=2))
    elif args.csv:
        print(events.to_csv(), end="")
    else:
        print(events.narrative(detail=args.detail))


def cmd_matchups(args):
    from romesim.jugule import matchups

    sets = {k: parse_value(v) for k, v in parse_pairs(args.set, "--set").items()}
    start = time.perf_counter()
    frame = matchups.matchup_matrix(args.types, n=args.n, seed=args.seed, **sets)
    elapsed = time.perf_counter() - start
    per_type, overall = matchups.balance_summary(frame) if frame["a"].nunique() > 1 else (None, None)
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        ax = matchups.plot_matchups(frame)
        try:
            ax.figure.savefig(args.plot, dpi=150, bbox_inches="tight")
        except (OSError, ValueError) as exc:
            raise UsageError(f"--plot {args.plot}: cannot write the picture: {exc}") from None
    if args.json:
        out = {"romesim": romesim.__version__, "generator": GENERATOR, "n": args.n, "seed": args.seed,
               "parameters": sets, "mirrored": frame.attrs["mirrored"],
               "cells": frame.to_dict("records"),
               "balance": None if per_type is None else {**overall, "types": per_type.to_dict("records")}}
        print(json.dumps(out, indent=2))
        return
    matrix = matchups.win_matrix(frame)
    header = ["A \\ B"] + list(matrix.columns)
    rows = [[a] + [f"{100 * matrix.at[a, b]:.1f}" for b in matrix.columns] for a in matrix.index]
    lines = [f"jugule.duel matchups: P(row type wins) in %, n = {args.n:,} duels per cell (half on each side), "
             f"seed = {args.seed}",
             "parameters: " + (", ".join(f"{k}={json.dumps(v)}" for k, v in sets.items()) or "all defaults"), ""]
    lines += table(header, rows) + [""]
    if per_type is not None:
        lines += table(["type", "avg win", "worst", "best"],
                       [[r.type, number(r.avg_win), number(r.worst), number(r.best)] for r in per_type.itertuples()])
        lines += ["", f"balance: std of the average win rates {overall['std']:.4f}, spread {overall['spread']:.4f}"]
    if args.plot:
        lines.append(f"heatmap written to {args.plot}")
    lines.append(f"{len(frame):,} cells in {elapsed:.1f} s")
    print("\n".join(lines))


def cmd_sweep(args):
    from romesim.analysis.sweep import load_sweep

    kwargs = load_sweep(args.file)
    for option, key in ((args.n, "n"), (args.seed, "seed"), (args.workers, "workers"), (args.store, "store")):
        if option is not None:
            kwargs[key] = option
    scenario = kwargs["scenario"]
    if args.metric not in scenario.metrics:
        raise UsageError(f"--metric {args.metric}: not a metric of {scenario.name}; metrics: "
                         f"{', '.join(scenario.metrics)}")
    start = time.perf_counter()
    result = romesim.sweep(**kwargs, progress=args.progress)
    elapsed = time.perf_counter() - start
    if args.report:
        from romesim.analysis.report import write_report
        write_report(result, args.report)
    if args.json:
        out = {"scenario": scenario.name, "n": result.n, "seed": result.seed, "axes": list(result.axes),
               "store": str(result.store.path), "points": result.summary().to_dict("records")}
        print(json.dumps(with_version(out), indent=2, default=str))
        return
    if args.csv:
        print(result.summary().to_csv(index=False), end="")
        return
    from romesim.analysis.fairness import EDGE, EDGE_TEXT, loss_metric

    # the distance from an even game: of p_win - p_loss for a game that may end with no winner (it reports
    # p_loss), of the probability itself for a two-outcome game; never of a mean or of one outcome of three
    loss = loss_metric(scenario)
    edged = loss is not None and args.metric == "p_win"
    probability = args.metric.startswith("p_") and loss is None
    meaning = type(scenario).p_win if args.metric == "p_win" else "a probability" if args.metric.startswith(
        "p_") else "a mean"
    lines = [f"{scenario.name} sweep: {len(result)} points over {', '.join(result.axes)}, "
             f"n = {result.n:,} games per point, seed = {result.seed} (common random numbers)",
             f"{args.metric}: {meaning}"] + ([f"{EDGE} = {EDGE_TEXT}: a game nobody wins counts for neither side; "
                                             "0 is an even game"] if edged else []) + [""]
    points = result.table(args.metric)
    header = ["point", *result.axes, args.metric, "95% CI"]
    columns = [[number(r["estimate"]), f"{number(r['ci_low'])} – {number(r['ci_high'])}"]
               for r in points.to_dict("records")]
    if edged or probability:
        fair = result.fairest(EDGE if edged else args.metric)
        by_point = fair.set_index("point")
        if edged:
            losses = result.table(loss).set_index("point")["estimate"]
            header += [loss, EDGE, "95% CI", f"|{EDGE}|"]
            columns = [c + [number(losses[p]), number(by_point.at[p, "estimate"]),
                            f"{number(by_point.at[p, 'ci_low'])} – {number(by_point.at[p, 'ci_high'])}",
                            number(by_point.at[p, "distance"])] for c, p in zip(columns, points["point"])]
        else:
            header += ["|x - 0.5|"]
            columns = [c + [number(by_point.at[p, "distance"])] for c, p in zip(columns, points["point"])]
    rows = [[str(r["point"]), *(json.dumps(r[a]) if not isinstance(r[a], str) else r[a] for a in result.axes), *c]
            for r, c in zip(points.to_dict("records"), columns)]
    lines += table(header, rows) + [""]
    if edged or probability:
        best = fair.iloc[0]
        values = result.points[int(best["point"])]  # as declared: a row of mixed types would show 2 as 2.0
        where = ", ".join(f"{a}={values[a] if isinstance(values[a], str) else json.dumps(values[a])}"
                          for a in result.axes)
        interval = f"[{number(best['ci_low'])}, {number(best['ci_high'])}]"
        lines.append(f"closest to an even game ({EDGE_TEXT} closest to 0): {where} ({EDGE} {number(best['estimate'])} "
                     f"{interval})" if edged else
                     f"closest to 0.5: {where} ({args.metric} {number(best['estimate'])} {interval})")
    if args.metric == "p_win" and len(result.axes) > 1:  # the knobs' fairness: the edge, or p_win from 0.5
        from romesim.analysis.report import knob_findings
        lines += ["per knob, over the other axes:"] + ["  " + line for line in knob_findings(result)]
    lines.append(f"store: {result.store.path}   ({elapsed:.1f} s)")
    if args.report:
        lines.append(f"report written to {args.report}")
    print("\n".join(lines))


def _variant_text(scenario, policies):
    """A variant as the parameters it changes from the defaults and the policies it is given."""
    cls = type(scenario)
    defaults = {f.name: list(f.default) if isinstance(f.default, tuple) else f.default for f in fields(cls)}
    changed = [f"{k}={json.dumps(v)}" for k, v in scenario.to_dict().items() if v != defaults[k]]
    chosen = [f"{dp}={spec if isinstance(spec, str) else spec[0] + ':' + ','.join(f'{v:g}' for v in spec[1])}"
              for dp, spec in policies.items()]
    return (f"{scenario.name}: " if scenario.name else "") + "; ".join(
        [("parameters " + ", ".join(changed)) if changed else "all default parameters"]
        + (["policies " + ", ".join(chosen)] if chosen else []))


def compare_variants(args):
    """A and B: options before --vs set both, those after it (a scenario, --set, --policy) B alone."""
    vs = Parser(prog="romesim compare ... --vs", add_help=False, exit_on_error=False)
    vs.add_argument("scenario", nargs="?")
    vs.add_argument("--set", action="append", default=[])
    vs.add_argument("--policy", action="append", default=[])
    compare_options(vs, after_vs=True)
    try:
        after, unknown = vs.parse_known_args(args.vs or [])
    except argparse.ArgumentError as exc:
        raise UsageError(f"--vs: {exc}") from None
    if unknown:
        raise UsageError(f"--vs: {' '.join(unknown)!r} is not allowed; after --vs come B's NAME|FILE.toml, --set, "
                         "--policy and the run's options (-n, --seed, --sprt ...)")
    for key in ("n", "seed", "workers", "metric", "sprt", "test", "delta", "json"):
        if hasattr(after, key):  # a run option after --vs: for the run, as before it
            value = getattr(after, key)
            setattr(args, key, (args.metric or []) + value if key == "metric" else value)
    if args.other and after.scenario:
        raise UsageError(f"--vs {after.scenario}: B is already {args.other}; give B's scenario once")
    a, settings, policies_a = build(args)
    source_b = args.other or after.scenario or args.scenario
    b, _, policies_b = build(argparse.Namespace(scenario=source_b, set=args.set + after.set,
                                                policy=args.policy + after.policy))
    if (source_b == args.scenario and after.scenario is None) and args.vs is None:
        raise UsageError("B is the same as A: give B's scenario (romesim compare A B) or what B changes "
                         "(--vs --set KEY=VALUE or --vs --policy DP=NAME)")
    return a, b, settings, policies_a, policies_b


def _own(a, policies_a, b, policies_b):
    """What tells each variant from the other, as short text: ``("tactic=attack", "tactic=defence")``."""
    pa, pb = a.to_dict(), b.to_dict()
    texts = []
    for mine, other, policies, others in ((pa, pb, policies_a, policies_b), (pb, pa, policies_b, policies_a)):
        items = [f"{k}={json.dumps(v)}" for k, v in mine.items() if other.get(k) != v]
        items += [f"{dp}={spec if isinstance(spec, str) else spec[0]}" for dp, spec in policies.items()
                  if others.get(dp) != spec]
        texts.append(", ".join(items))
    if a.name != b.name:
        texts = [f"{s.name}" + (f" {t}" if t else "") for s, t in zip((a, b), texts)]
    return texts


def _json_ready(value):
    """Numbers as JSON numbers, NaN and infinities as null (strict JSON has neither)."""
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    if hasattr(value, "item"):  # a numpy scalar
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def signed(x):
    return "–" if x is None or math.isnan(x) else f"{x:+.4f}"


def cmd_compare(args):
    from romesim.analysis.compare import compare, distance_name, sprt
    from romesim.analysis.fairness import EDGE, EDGE_TEXT, even_value, fairness_metric

    a, b, settings, policies_a, policies_b = compare_variants(args)
    seed = args.seed if args.seed is not None else settings.get("seed", 0)
    workers = args.workers if args.workers is not None else settings.get("workers")
    fair = fairness_metric(a) if fairness_metric(a) == fairness_metric(b) else None
    head = [f"A  {_variant_text(a, policies_a)}", f"B  {_variant_text(b, policies_b)}",
            f"p_win = {type(a).p_win}" + (f"   (B: {type(b).p_win})" if type(b).p_win != type(a).p_win else "")]
    if args.sprt:
        metric = args.metric[0] if args.metric else fair
        if metric is None:
            raise UsageError(f"--metric: {a.name} and {b.name} share no fairness measure; name the metric to test")
        n = args.n if args.n is not None else settings.get("n", SPRT_MAX_N)
        result = sprt(a, b, n, seed, test=args.test, metric=metric, delta=args.delta,
                               policies_a=policies_a, policies_b=policies_b, workers=workers)
        if args.json:
            out = {k: v for k, v in vars(result).items() if k != "history"}
            out.update(a=_variant_text(a, policies_a), b=_variant_text(b, policies_b), seed=seed,
                       estimate_a=out.pop("a"), estimate_b=out.pop("b"))
            print(json.dumps(_json_ready(with_version(out)), indent=2))
            return
        name = f"{EDGE} ({EDGE_TEXT})" if metric == EDGE else metric
        if args.test == "fairer":
            question = f"is B fairer than A, {name} closer to {result.target:g} by at least {args.delta:g}?"
            d_text = "|A| - |B|" if result.target == 0 else f"|A - {result.target:g}| - |B - {result.target:g}|"
        else:
            question = f"is B stronger than A, {name} higher by at least {args.delta:g}?"
            d_text = "B - A"
        low, high = result.difference_ci
        verdict = {"B fairer": "B is fairer than A", "not fairer": "B is not fairer than A",
                   "B stronger": "B is stronger than A", "not stronger": "B is not stronger than A"}
        answer = (f"undecided after the most games allowed ({n:,} per variant; raise -n)"
                  if result.decision == "undecided" else
                  f"{verdict[result.decision]} (decided after {result.n:,} games per variant)")
        lines = head + [f"sequential test (SPRT, alpha = beta = 0.05), common random numbers, seed = {seed}", "",
                        f"question: {question}", f"answer:   {answer}",
                        f"          {d_text} = {signed(result.difference)} [{signed(low)}, {signed(high)}]"
                        f" (95 % interval)",
                        f"          A {number(result.a)} [{number(result.a_ci[0])}, {number(result.a_ci[1])}]"
                        f"   B {number(result.b)} [{number(result.b_ci[0])}, {number(result.b_ci[1])}]",
                        f"a fixed-n test of the same errors would need about {result.fixed_n:,.0f} games"]
        print("\n".join(lines))
        return
    n = args.n if args.n is not None else settings.get("n", DEFAULT_N)
    frame = compare(a, b, n, seed, policies_a=policies_a, policies_b=policies_b,
                             metrics=args.metric or None, workers=workers)
    answers = []
    rows = {r["metric"]: r for r in frame.to_dict("records")}
    own = dict(zip("AB", _own(a, policies_a, b, policies_b)))

    def named(who):
        return f"{who} ({own[who]})" if own[who] else who

    target = even_value(a, fair) if fair else None
    distance = rows.get(distance_name(fair, target)) if fair else None
    name = f"{EDGE_TEXT}" if fair == EDGE else fair
    if distance is not None:
        low, high, diff = distance["ci_low"], distance["ci_high"], distance["difference"]
        who = "B" if high < 0 else "A" if low > 0 else None
        text = (f"{named(who)} is fairer" if who else "neither is shown fairer (the interval holds 0)")
        answers.append(f"fairer:   {text}: |{name}{'' if target == 0 else f' - {target:g}'}| "
                       f"A {number(distance['a'])}, B {number(distance['b'])}; B - A = {signed(diff)} "
                       f"[{signed(low)}, {signed(high)}]")
    if fair in rows:
        r = rows[fair]
        who = "B" if r["ci_low"] > 0 else "A" if r["ci_high"] < 0 else None
        text = (f"{named(who)} is stronger for the p_win side" if who else
                "neither is shown stronger (the interval holds 0)")
        answers.append(f"stronger: {text}: {name} A {number(r['a'])}, B {number(r['b'])}; B - A = "
                       f"{signed(r['difference'])} [{signed(r['ci_low'])}, {signed(r['ci_high'])}]")
        paired, unpaired = r["ci_high"] - r["ci_low"], r["unpaired_high"] - r["unpaired_low"]
        if paired > 0 and unpaired > paired:
            answers.append(f"pairing:  the common dice narrow the interval of B - A {unpaired / paired:.1f}-fold: "
                           f"independent runs would need {(unpaired / paired) ** 2:.1f} times the games")
    if args.json:
        out = {"a": _variant_text(a, policies_a), "b": _variant_text(b, policies_b), "n": int(n), "seed": seed,
               "answers": answers, "rows": frame.to_dict("records")}
        print(json.dumps(_json_ready(with_version(out)), indent=2))
        return
    lines = head + [f"n = {n:,} games each, seed = {seed}: game g of A and of B draws the same dice (common "
                    "random numbers), so B - A has a paired interval", ""]
    lines += answers + ([""] if answers else [])
    header = ["metric", "A", "B", "B - A", "paired 95% CI", "unpaired 95% CI"]
    body = [[r["metric"], number(r["a"]), number(r["b"]), signed(r["difference"]),
             f"{signed(r['ci_low'])} – {signed(r['ci_high'])}",
             f"{signed(r['unpaired_low'])} – {signed(r['unpaired_high'])}"] for r in frame.to_dict("records")]
    lines += table(header, body)
    lines += ["", f"{EDGE} = {EDGE_TEXT}; |..| rows: the distance from an even game, negative B - A: B fairer"
              if fair == EDGE else "|..| rows: the distance from an even game, negative B - A: B fairer",
              "unpaired: the interval two independent runs of the same size would give"]
    print("\n".join(lines))


def cmd_report(args):
    from romesim.analysis.report import write_report

    path = write_report(args.source, args.output, title=args.title)
    print(f"report written to {path}")


def cmd_query(args):
    from romesim.analysis.store import Store

    store = Store(args.store)
    if not store.path.is_dir():
        raise UsageError(f"store {args.store!r}: no such folder (a sweep's store, e.g. thraex_ap-store)")
    frame = store.query(args.sql)
    if args.json:
        print(json.dumps(with_version({"store": str(store.path), "rows": frame.to_dict("records")}), indent=2,
                         default=str))
    elif args.csv:
        print(frame.to_csv(index=False), end="")
    else:
        print(frame.to_string(index=False))


def cmd_cache(args):
    from romesim.core import cache

    if args.clear:
        print(f"cleared {cache.clear()}")
        return
    for flag, given in (("--built-ins-only", args.built_ins_only), ("--search", args.search)):
        if given and args.warm is None:
            raise UsageError(f"{flag}: allowed only with --warm")
    if args.built_ins_only and args.search:
        raise UsageError("--built-ins-only and --search: give one of them")
    if args.warm is not None:
        frame = romesim.warm(args.warm or None, user_bots=not args.built_ins_only, search=args.search)
        table = frame.pivot(index=["scenario", "kernel"], columns="variant", values="seconds").fillna("-")
        print(table.to_string(float_format=lambda v: f"{v:.1f} s"))
    path = cache.cache_dir()
    files = [f for f in path.rglob("*") if f.is_file()] if path.exists() else []
    size = sum(f.stat().st_size for f in files)
    print(f"{path}   ({len(files)} files, {size / 2**20:.1f} MiB; set NUMBA_CACHE_DIR to move it)")


def compare_options(parser, after_vs=False):
    """The options of ``romesim compare`` that set the run, not a variant: before --vs, or after it (``after_vs``:
    an option not given there leaves the one before --vs alone)."""
    def default(value):
        return argparse.SUPPRESS if after_vs else value

    parser.add_argument("-n", type=count, default=default(None), help=f"games per variant (default {DEFAULT_N:,}; "
                        f"with --sprt the most, default {SPRT_MAX_N:,})")
    parser.add_argument("--seed", type=int, default=default(None), help="seed of the dice streams, the same for "
                        "both (default 0)")
    parser.add_argument("--workers", type=count, default=default(None), help="processes over chunks of games")
    parser.add_argument("--metric", action="append", default=default(None), metavar="M",
                        help="the metrics to show (repeatable; default all); with --sprt the metric tested "
                        "(default: the fairness measure, edge = p_win - p_loss for games that may end with no "
                        "winner, else p_win)")
    parser.add_argument("--sprt", action="store_true", default=default(False),
                        help="a sequential test that stops as soon as it knows")
    parser.add_argument("--test", choices=("fairer", "stronger"), default=default("fairer"),
                        help="with --sprt: is B fairer (closer to an even game) or stronger (metric higher) than A")
    parser.add_argument("--delta", type=float, default=default(0.02), metavar="D",
                        help="with --sprt: the smallest difference worth detecting (default 0.02)")
    parser.add_argument("--json", action="store_true", default=default(False), help="print JSON instead of a report")


def make_parser():
    parser = Parser(prog="romesim", description="Play Roman-era wargame procedures many times: "
                                     "win rates with confidence intervals, and exact odds.")
    parser.add_argument("--version", action="version", version=f"romesim {romesim.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    listing = commands.add_parser("list", help="list the registered scenarios, or describe one")
    listing.add_argument("name", nargs="?", metavar="NAME", help="one scenario: every parameter with its allowed "
                         "values and meaning, the metrics, the decision points and their built-ins; or a prefix "
                         "(jugule) to list only those")
    listing.add_argument("--point", metavar="POINT", help="with NAME: one decision point only (its state entries, "
                         "actions and built-ins)")
    listing.add_argument("--json", action="store_true", help="print JSON instead of text")
    listing.set_defaults(func=cmd_list)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("scenario", metavar="NAME", help="a registered scenario (see `romesim list`) or a TOML "
                        "file: scenario = NAME, [params], optional n, seed, workers, target_ci, [policies]")
    common.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a parameter, as a TOML literal ([4,3,2], true, 2) or else a plain string; "
                             "overrides the file's [params]")
    common.add_argument("--policy", action="append", default=[], metavar="DP=NAME[:P,...]",
                        help="a built-in policy for decision point DP, optionally with its parameters, in order "
                             "or by name (tactic=ismcts:budget=256)")
    common.add_argument("--json", action="store_true", help="print JSON instead of a report")

    run = commands.add_parser("run", parents=[common], help="simulate a scenario")
    run.add_argument("-n", type=count, help=f"games to play (default {DEFAULT_N:,})")
    run.add_argument("--seed", type=int, help="seed of the dice streams (default 0)")
    run.add_argument("--workers", type=int, help="processes (default: this one, on all threads)")
    run.add_argument("--target-ci", type=float, metavar="X",
                     help="stop early once the 95%% CI half-width of p_win is at most X")
    run.add_argument("--exact", action="store_true", help="add the exact answer, where supported")
    run.add_argument("--progress", action=argparse.BooleanOptionalAction,
                     help="a progress bar on stderr (default: on a terminal, once the run has lasted 2 s)")
    run.add_argument("--csv", action="store_true", help="print the table of metrics as CSV")
    run.set_defaults(func=cmd_run)

    trace = commands.add_parser("trace", parents=[common], help="one game told in sentences, die by die and decision "
                                "by decision (the same dice as game K of `romesim run`)")
    trace.add_argument("--game", type=count, default=0, metavar="K", help="the game's index in the run (default 0)")
    trace.add_argument("--seed", type=int, help="seed of the run (default 0)")
    trace.add_argument("--csv", action="store_true", help="print the events as CSV")
    trace.add_argument("--detail", action="store_true", help="every event in one line (the die and the source line "
                       "that rolled it, a decision's state and legal actions) instead of the sentences")
    trace.set_defaults(func=cmd_trace)

    exact = commands.add_parser("exact", parents=[common], help="the exact answer of a scenario")
    exact.set_defaults(func=cmd_exact)

    match = commands.add_parser("matchups", help="the Jugule ! matchup matrix of the gladiator types")
    match.add_argument("--types", nargs="+", metavar="TYPE", help="gladiator types (default: all 18)")
    match.add_argument("-n", type=count, default=10_000, help="duels per cell (default 10,000)")
    match.add_argument("--seed", type=int, default=0, help="seed of the dice streams, the same for every cell")
    match.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                       help="a jugule.duel parameter (rank, bonus, rule option), as a TOML literal or a string")
    match.add_argument("--json", action="store_true", help="print JSON instead of a report")
    match.add_argument("--plot", metavar="FILE.png", help="also draw the heatmap with its intervals")
    match.set_defaults(func=cmd_matchups)

    sweep = commands.add_parser("sweep", help="play a scenario over a grid or Latin hypercube of its parameters")
    sweep.add_argument("file", metavar="FILE.toml", help="scenario, n, seed, [params], [policies], [grid] or [lhs] "
                       "(samples = K), optional store and workers")
    sweep.add_argument("-n", type=count, help="games per point (overrides the file; more than stored plays only "
                       "the new games)")
    sweep.add_argument("--seed", type=int, help="seed of the dice streams, the same at every point")
    sweep.add_argument("--workers", type=int, help="processes running points (default: this one, all threads)")
    sweep.add_argument("--store", metavar="DIR", help="results folder (default: the file's, else FILE-store)")
    sweep.add_argument("--metric", default="p_win", help="the metric the table shows (default p_win)")
    sweep.add_argument("--progress", action=argparse.BooleanOptionalAction,
                       help="a progress bar over points and games on stderr (default: on a terminal)")
    sweep.add_argument("--report", metavar="FILE.html", help="also write the HTML report")
    sweep.add_argument("--json", action="store_true", help="print JSON instead of a table")
    sweep.add_argument("--csv", action="store_true", help="print every point and metric as CSV")
    sweep.set_defaults(func=cmd_sweep)

    compare = commands.add_parser(
        "compare", help="compare two variants on the same games: paired differences, which is fairer, which is "
        "stronger", description="A and B play the same games (common random numbers). Options before --vs set "
        "both variants; after --vs, B's own scenario, --set and --policy change B alone. Examples: romesim compare "
        "A.toml B.toml; romesim compare kings_of_rome.battle --policy tactic=attack --vs --policy tactic=defence; "
        "romesim compare kings_of_rome.battle --vs --set battle_tie_rule=attacker_wins --sprt")
    compare.add_argument("scenario", metavar="A", help="variant A: a registered scenario or a TOML file (its n, seed, "
                         "workers and [policies] are used)")
    compare.add_argument("other", metavar="B", nargs="?", help="variant B: a scenario or TOML file (default: A)")
    compare.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                         help="a parameter of both variants (after --vs: of B), as a TOML literal or a string")
    compare.add_argument("--policy", action="append", default=[], metavar="DP=NAME[:P,...]",
                         help="a built-in policy of both variants (after --vs: of B)")
    compare_options(compare)
    compare.add_argument("--vs", nargs=argparse.REMAINDER, metavar="...", help="what B changes: [B] [--set ...] "
                         "[--policy ...]; everything after --vs belongs to B")
    compare.set_defaults(func=cmd_compare)

    report = commands.add_parser("report", help="write a self-contained HTML report of a store or a sweep file")
    report.add_argument("source", metavar="STORE|FILE.toml", help="a store folder or a sweep file")
    report.add_argument("-o", "--output", default="romesim-report.html", metavar="FILE.html",
                        help="where to write the page (default romesim-report.html)")
    report.add_argument("--title", help="the page title")
    report.set_defaults(func=cmd_report)

    query = commands.add_parser("query", help="SQL over a store's table `results` (one row per point and metric)")
    query.add_argument("store", metavar="STORE", help="a sweep's store folder")
    query.add_argument("sql", metavar="SQL", help="a DuckDB query, e.g. \"SELECT ap_a, b, estimate FROM results "
                       "WHERE metric = 'p_win' ORDER BY ap_a\"")
    form = query.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help="print CSV")
    form.add_argument("--json", action="store_true", help="print JSON")
    query.set_defaults(func=cmd_query)

    cache = commands.add_parser("cache", help="where numba keeps the compiled kernels (NUMBA_CACHE_DIR, else a "
                                "per-user cache folder)")
    what = cache.add_mutually_exclusive_group()
    what.add_argument("--clear", action="store_true", help="delete the compiled kernels (they compile again "
                      "on first use)")
    what.add_argument("--warm", nargs="*", metavar="NAME", help="compile now the kernels of these scenarios "
                      "(default: all), every one their settings may pick, so that first runs only load them")
    cache.add_argument("--built-ins-only", action="store_true", help="with --warm: not the kernels' variant for "
                       "user bots")
    cache.add_argument("--search", action="store_true", help="with --warm: also the variant the search bots "
                       "(flat_mc, ismcts) play")
    cache.set_defaults(func=cmd_cache)
    return parser


def error_line(message):
    """Bad input: one line on stderr, whatever the message holds."""
    print(f"romesim: error: {' '.join(str(message).split())}", file=sys.stderr)
    return EXIT_USAGE


def main(argv=None):
    """Run the command line; returns the exit status instead of exiting: 0, 2 for bad input, 130 after Ctrl-C."""
    try:
        args = make_parser().parse_args(argv)
    except SystemExit as exc:  # argparse printed the help (0) or, through Parser.error, its one-line error (2)
        return exc.code
    try:
        args.func(args)
        sys.stdout.flush()
    except (romesim.RomesimError, UsageError) as exc:
        return error_line(exc)
    except KeyboardInterrupt as exc:
        print(f"romesim: {exc.message if isinstance(exc, Interrupted) else 'interrupted'}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader left (romesim list | head): end quietly; point stdout at devnull so the interpreter's final
        # flush does not fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return 0


if __name__ == "__main__":
    sys.exit(main())
