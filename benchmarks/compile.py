"""``python -m benchmarks.compile``: what a user waits before the first game, per scenario.

Each number is one new process (so nothing is in memory): the time its first ``simulate`` takes, and apart from
it the time ``import romesim`` took:

* ``cold``: an empty numba cache directory: every kernel the scenario needs is compiled;
* ``warm``: the same directory again: the kernels load from the cache;
* ``first bot``: a plain ``@numba.njit`` bot at the scenario's first decision point, the cache warm for the
  built-ins only: the bot's own compile, plus the kernel's variant for user functions, compiled once and cached
  (a run of built-ins only plays a variant without any call through a slot, see ``romesim.core.policy``);
* ``user bot``: another bot, the cache now warm for both variants: the bot's own compile plus the load (the
  kernels take bots through first-class-function slots, so no bot recompiles them).

Each process uses its own ``NUMBA_CACHE_DIR`` under a temporary directory; the user's cache is not touched.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import sys, time
t0 = time.perf_counter()
import numba
import romesim
imported = time.perf_counter()
name, bot = sys.argv[1], sys.argv[2] == "bot"
scenario = romesim.scenario(name)
if bot and scenario.decision_points:
    point = scenario.decision_points[0].name
    for action in range(8):  # the first action the rules allow there; the first try already loaded everything
        ns = {}
        exec(f"def bot(state, params, stream):\n    return {action}\n", ns)
        try:
            romesim.simulate(scenario, 1, policies={point: numba.njit(ns["bot"])}, progress=False)
            legal = True
        except romesim.PolicyError:
            legal = False
        if action == 0:
            end = time.perf_counter()
        if legal:
            break
else:
    romesim.simulate(scenario, 1, progress=False)
    end = time.perf_counter()
print(f"{imported - t0:.3f} {end - t0:.3f}")
"""


def timed(name, cache, bot=False, timeout=1800):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, "-c", CHILD, name, "bot" if bot else "plain"], env=env,
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"{name}: {done.stderr.strip().splitlines()[-1:]}")
    imported, first = (float(x) for x in done.stdout.split())
    return {"import_s": imported, "first_s": first}


def measure(names):
    rows = []
    for name in names:
        with tempfile.TemporaryDirectory(prefix="romesim-compile-") as cache:
            cold = timed(name, cache)
            warm = timed(name, cache)
            first_bot = timed(name, cache, bot=True)
            bot = timed(name, cache, bot=True)
        row = {"scenario": name, "import_s": warm["import_s"]}
        for key, run in (("cold_s", cold), ("warm_s", warm), ("first_bot_s", first_bot), ("user_bot_s", bot)):
            row[key] = run["first_s"] - run["import_s"]
        rows.append(row)
        print(f"{name:32s} first simulate: cold {row['cold_s']:6.1f} s  warm {row['warm_s']:5.1f} s  "
              f"first bot {row['first_bot_s']:6.1f} s  user bot {row['user_bot_s']:5.1f} s  "
              f"(import romesim {row['import_s']:.1f} s)", flush=True)
    return rows


def main(argv=None):
    import romesim
    names = sorted(romesim.core.scenario._REGISTRY)
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compile", description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", nargs="+", metavar="NAME", help="only these scenarios (default: all)")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.scenario or ()) - set(names))
    if unknown:
        parser.error(f"unknown scenario {', '.join(unknown)}; choose from {', '.join(names)}")
    rows = measure(args.scenario or names)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=2)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
