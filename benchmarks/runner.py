"""``python -m benchmarks``: games/s of each scenario case, against plain Python and against the raw dice rate.

Kernels are timed through ``romesim.simulate`` (the path users take), after a warm-up call that loads or
compiles them. Each measurement grows ``n`` until one run lasts ``--min-time`` seconds, then keeps the best of
three runs: the fastest run is the one least disturbed by whatever else the machine is doing.
"""
import argparse
import json
import math
import sys
import time

import numba

import romesim

from . import dice
from .cases import CASES
from .nojit import nojit_rate
from .python_loops import run_loop

KEYS = ("scenario", "case", "games_per_s_1thread", "games_per_s_all", "threads", "python_games_per_s",
        "python_baseline", "ratio_vs_python", "dice_per_game", "dice_per_s", "share_of_dice_rate")
RATES = ("games_per_s_1thread", "games_per_s_all", "python_games_per_s", "dice_per_s")
SLOWER = 0.7  # below this fraction of the baseline a rate is flagged; machines are noisy, so it is only a flag
# --check fails when a ratio measured within the run (kernel over plain Python or over its interpreted self, and the
# share of the raw d6 rate) falls below this fraction of the baseline's: both sides of such a ratio see the same
# machine load, so a slower kernel shows while a busy machine does not
GATE = 0.75
IN_RUN = ("ratio_vs_python", "share_of_dice_rate")
RETRIES = 2  # --check measures a case below the gate this many times more before it fails


def best_rate(run, n, min_time, repeats=3):
    """``(items per second, n, last value of run(n))``: best of ``repeats`` runs of at least ``min_time`` s."""
    while True:
        start = time.perf_counter()
        value = run(n)
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            break
        n = math.ceil(n * min(10.0, 1.2 * min_time / max(elapsed, 1e-6)))
    best = elapsed
    for _ in range(repeats - 1):
        start = time.perf_counter()
        value = run(n)
        best = min(best, time.perf_counter() - start)
    return n / best, n, value


def kernel_rate(scenario, n, threads, min_time):
    numba.set_num_threads(threads)
    rate, n, result = best_rate(lambda k: romesim.simulate(scenario, k, progress=False), n, min_time)
    return rate, result


def raw_dice_rate(n, threads, min_time):
    numba.set_num_threads(threads)
    return dice.DICE_PER_GAME * best_rate(dice.roll, n, min_time)[0]


def p_win_disagrees(loop_wins, loop_n, result):
    """True when the loop's p_win is more than 5 sigma from the kernel's: the two do not play the same game."""
    p_loop, p_kernel = loop_wins / loop_n, result["p_win"]
    p = (loop_wins + p_kernel * result.n) / (loop_n + result.n)
    sigma = math.sqrt(p * (1 - p) * (1 / loop_n + 1 / result.n))
    return abs(p_loop - p_kernel) > 5 * sigma if sigma > 0 else p_loop != p_kernel


def measure_case(case, n, python_n, min_time, raw_1):
    """One row of ``KEYS`` for ``case``; ``raw_1`` is the raw d6 rate on one thread measured beside it."""
    all_threads = numba.config.NUMBA_NUM_THREADS
    scenario = case.build()
    romesim.simulate(scenario, 1000, progress=False)
    rate_1, result = kernel_rate(scenario, n, 1, min_time)
    rate_all, _ = kernel_rate(scenario, n, all_threads, min_time)
    if case.nojit:
        py_rate, py_n, p_nojit = nojit_rate(case, python_n, min_time)
        if romesim.simulate(scenario, py_n, progress=False)["p_win"] != p_nojit:
            print(f"warning: {case.scenario} {case.case}: the kernel interpreted (NUMBA_DISABLE_JIT=1) does not "
                  "give the compiled kernel's results", file=sys.stderr)
        per_game = None  # a whole game's dice are not counted: it has no plain-Python reference
    else:
        play, kwargs = case.python_loop()
        py_rate, py_n, totals = best_rate(lambda k: run_loop(play, k, **kwargs), python_n, min_time)
        if p_win_disagrees(totals[0], py_n, result):
            print(f"warning: {case.scenario} {case.case}: the Python loop's p_win {totals[0] / py_n:.4f} is more "
                  f"than 5 sigma from the kernel's {result['p_win']:.4f}", file=sys.stderr)
        per_game = float(dice.dice_per_game(scenario))
    return dict(scenario=case.scenario, case=case.case, games_per_s_1thread=rate_1, games_per_s_all=rate_all,
                threads=all_threads, python_games_per_s=py_rate, python_baseline="nojit" if case.nojit else "loop",
                ratio_vs_python=rate_1 / py_rate, dice_per_game=per_game, dice_per_s=raw_1,
                share_of_dice_rate=None if per_game is None else rate_1 * per_game / raw_1)


def measure(cases, n, python_n, min_time):
    """One row per case (see ``KEYS``) and the raw d6 rate on all threads."""
    dice.roll(1000)  # compile or load from cache
    raw_1 = raw_dice_rate(n, 1, min_time)
    raw_all = raw_dice_rate(n, numba.config.NUMBA_NUM_THREADS, min_time)
    return [measure_case(case, n, python_n, min_time, raw_1) for case in cases], raw_all


def remeasure(rows, cases, baseline, n, python_n, min_time, tries=RETRIES):
    """Measure again, up to ``tries`` times, each case whose in-run ratios fall below the gate, the raw d6 rate
    beside it, and keep for each ratio the best of the tries: a machine busy during one measurement rarely is
    during three, a slower kernel is slower in all of them. Returns the names of the cases measured again."""
    by_name = {(c.scenario, c.case): c for c in cases}
    again = []
    for row in rows:
        for _ in range(tries):
            if not regressions([row], baseline):
                break
            again.append(f"{row['scenario']} {row['case']}")
            fresh = measure_case(by_name[row["scenario"], row["case"]], n, python_n, min_time,
                                 raw_dice_rate(n, 1, min_time))
            for key in IN_RUN:
                if fresh[key] is not None and fresh[key] > row[key]:
                    row[key] = fresh[key]
    return sorted(set(again))


def format_table(header, lines):
    """Columns right-aligned, the first two (scenario, case) left-aligned."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *lines)]
    out = []
    for line in (header, *lines):
        cells = [str(x).ljust(w) if i < 2 else str(x).rjust(w) for i, (x, w) in enumerate(zip(line, widths))]
        out.append("  ".join(cells).rstrip())
    out.insert(1, "  ".join("-" * w for w in widths).rstrip())
    return "\n".join(out)


def report(rows, raw_all):
    threads, raw_1 = rows[0]["threads"], rows[0]["dice_per_s"]
    header = ("scenario", "case", "games/s 1 thread", f"games/s {threads} threads", "Python games/s",
              "kernel/Python", "dice/game", "share of d6 rate")
    lines = [(r["scenario"], r["case"], f"{r['games_per_s_1thread']:,.0f}", f"{r['games_per_s_all']:,.0f}",
              f"{r['python_games_per_s']:,.0f}" + ("*" if r["python_baseline"] == "nojit" else ""),
              f"{r['ratio_vs_python']:,.0f}x", "-" if r["dice_per_game"] is None else f"{r['dice_per_game']:.4g}",
              "-" if r["share_of_dice_rate"] is None else f"{r['share_of_dice_rate']:.0%}") for r in rows]
    return (format_table(header, lines) + "\n\n* the same kernel run with NUMBA_DISABLE_JIT=1 (whole games have no "
            "plain-Python twin)" + f"\nraw d6 rate of romesim.core.rng ({romesim.GENERATOR}, "
            f"{dice.DICE_PER_GAME} d6 per stream start): {raw_1:,.0f} dice/s on 1 thread, "
            f"{raw_all:,.0f} dice/s on {threads} threads")


def compare(rows, baseline):
    """Each rate over the baseline's, a case flagged when one of them falls below ``SLOWER``."""
    base = {(b["scenario"], b["case"]): b for b in baseline}
    header = ("scenario", "case", "1 thread", "all threads", "Python", "raw d6", "")
    lines = []
    for r in rows:
        b = base.get((r["scenario"], r["case"]))
        if b is None:
            lines.append((r["scenario"], r["case"], "-", "-", "-", "-", "not in baseline"))
            continue
        ratios = [r[k] / b[k] for k in RATES]
        flag = f"slower than {SLOWER}x baseline" if min(ratios) < SLOWER else ""
        lines.append((r["scenario"], r["case"], *(f"{x:.2f}x" for x in ratios), flag))
    return format_table(header, lines)


def regressions(rows, baseline):
    """The in-run ratios of ``rows`` that fell below ``GATE`` times the baseline's, as lines of text."""
    base = {(b["scenario"], b["case"]): b for b in baseline}
    found = []
    for r in rows:
        b = base.get((r["scenario"], r["case"]))
        for key in IN_RUN:
            if b is None or r.get(key) is None or b.get(key) is None:
                continue
            if r[key] < GATE * b[key]:
                found.append(f"{r['scenario']} {r['case']}: {key} {r[key]:.4g} is {r[key] / b[key]:.2f}x the "
                             f"baseline's {b[key]:.4g} (the gate is {GATE}x)")
    return found


def parse_args(argv):
    names = sorted({c.scenario for c in CASES})
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000,
                        help="games of the first kernel run, grown until a run lasts --min-time")
    parser.add_argument("--python-n", type=int, default=1_000,
                        help="games of the first Python loop run, grown likewise")
    parser.add_argument("--min-time", type=float, default=0.3, help="seconds a timed run must last at least")
    parser.add_argument("--scenario", nargs="+", metavar="NAME",
                        help=f"only these scenarios (full or short name): {', '.join(names)}")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    parser.add_argument("--compare", metavar="FILE", help="rates relative to a baseline JSON (e.g. "
                                                          "benchmarks/baseline.json)")
    parser.add_argument("--check", action="store_true", help="with --compare: exit 1 when a ratio measured in "
                        f"this run (kernel/Python, share of the d6 rate) is below {GATE}x the baseline's in "
                        f"{RETRIES + 1} measurements")
    args = parser.parse_args(argv)
    if args.check and not args.compare:
        parser.error("--check needs --compare FILE")
    if args.n < 1 or args.python_n < 1 or args.min_time < 0:
        parser.error("--n and --python-n must be >= 1 and --min-time >= 0")
    if args.scenario:
        short = [name.rsplit(".", 1)[-1] for name in names]
        full = {s: name for s, name in zip(short, names) if short.count(s) == 1} | {name: name for name in names}
        unknown = [s for s in args.scenario if s not in full]
        if unknown:
            parser.error(f"unknown or ambiguous scenario {', '.join(unknown)}; choose from {', '.join(names)}")
        args.scenario = {full[s] for s in args.scenario}
    return args


def main(argv=None):
    args = parse_args(argv)
    cases = [c for c in CASES if not args.scenario or c.scenario in args.scenario]
    baseline = None
    if args.compare:
        with open(args.compare, encoding="utf-8") as fh:
            baseline = json.load(fh)
    threads = numba.get_num_threads()
    try:
        rows, raw_all = measure(cases, args.n, args.python_n, args.min_time)
        again = remeasure(rows, cases, baseline, args.n, args.python_n, args.min_time) if args.check else []
    finally:
        numba.set_num_threads(threads)
    print(report(rows, raw_all))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump([{k: r[k] for k in KEYS} for r in rows], fh, indent=2)
            fh.write("\n")
    if baseline is not None:
        print("\nrates relative to " + args.compare)
        print(compare(rows, baseline))
    if args.check:
        if again:
            print(f"\nmeasured again (each in-run ratio the best of up to {RETRIES + 1}): {', '.join(again)}")
        found = regressions(rows, baseline)
        for line in found:
            print("regression: " + line, file=sys.stderr)
        return 1 if found else 0
    return 0
