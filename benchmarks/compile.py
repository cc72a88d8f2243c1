"""``python -m benchmarks.compile``: what a user waits before the first game, per scenario.

Each number is one new process (so nothing is in memory): the time its first ``simulate`` takes, and apart from
it the time ``import romesim`` took:

* ``cold``: an empty numba cache directory: every kernel the scenario needs is compiled;
* ``warm``: the same directory again: the kernels load from the cache;
* ``first bot``: a plain ``@numba.njit`` bot at the scenario's first decision point, the cache warm for the
  built-ins only: the bot's own compile, plus the kernel's variant for user functions, compiled once and cached
  (a run of built-ins only plays a variant without any call through a slot, and a run without a search a variant
  without the search's code: ``romesim.core.policy.VARIANTS``);
* ``user bot``: another bot, the cache now warm for both variants: the bot's own compile plus the load (the
  kernels take bots through slots, their code's addresses, so no bot recompiles them);
* ``first search``: ``flat_mc`` at the first decision point offering it (a whole game), one game: the kernel's
  variant for searches, compiled once and cached.

Each process uses its own ``NUMBA_CACHE_DIR`` under a temporary directory; the user's cache is not touched.
A cold compile uses ``ROMESIM_COMPILE_PROCESSES`` processes (by default one a CPU, ``romesim.core.parallel_compile``).

``--plans GAME...`` writes the compile plans of those games (``romesim/GAME/data/compile_plans.json``): each
variant of each of their scenarios' kernels (built-in bots; user bots; search) is compiled in a process of its
own, alone, on an empty cache, and its plan is kept when its schedule on two processes ends at least
``parallel_compile.MIN_GAIN`` seconds sooner than on one.
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
from romesim.core.policy import searchable
imported = time.perf_counter()
name, bot = sys.argv[1], sys.argv[2]
scenario = romesim.scenario(name)
if bot == "search":
    romesim.simulate(scenario, 1, policies={searchable(scenario.decision_points): ("flat_mc", {"budget": 2})},
                     progress=False)
    end = time.perf_counter()
elif bot == "bot" and scenario.decision_points:
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


def timed(name, cache, bot="plain", timeout=1800):
    """A new process's first ``simulate`` of ``name``: with the built-ins (``plain``), a user ``bot`` or a
    ``search``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, "-c", CHILD, name, bot], env=env,
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"{name}: {done.stderr.strip().splitlines()[-1:]}")
    imported, first = (float(x) for x in done.stdout.split())
    return {"import_s": imported, "first_s": first}


def measure(names):
    import romesim
    from romesim.core.policy import searchable
    rows = []
    for name in names:
        offers_search = searchable(romesim.scenario(name).decision_points) is not None
        with tempfile.TemporaryDirectory(prefix="romesim-compile-") as cache:
            runs = {"cold_s": timed(name, cache), "warm_s": timed(name, cache),
                    "first_bot_s": timed(name, cache, bot="bot"), "user_bot_s": timed(name, cache, bot="bot")}
            if offers_search:
                runs["first_search_s"] = timed(name, cache, bot="search")
        row = {"scenario": name, "import_s": runs["warm_s"]["import_s"], "first_search_s": None}
        row.update({key: run["first_s"] - run["import_s"] for key, run in runs.items()})
        rows.append(row)
        search = "" if row["first_search_s"] is None else f"  first search {row['first_search_s']:5.1f} s"
        print(f"{name:32s} first simulate: cold {row['cold_s']:6.1f} s  warm {row['warm_s']:5.1f} s  "
              f"first bot {row['first_bot_s']:6.1f} s  user bot {row['user_bot_s']:5.1f} s{search}  "
              f"(import romesim {row['import_s']:.1f} s)", flush=True)
    return rows


RECORD = r"""
import sys
from romesim.core import parallel_compile
name, variant = sys.argv[1], parallel_compile.VARIANTS[int(sys.argv[2])]
print(parallel_compile.written({parallel_compile.plan_name(name, variant): parallel_compile.record(name, variant)}))
"""


def write_plans(games, registered):
    """Record and write the compile plans of ``games`` (package names: ``vox_populi``)."""
    from romesim.core import parallel_compile
    for game in games:
        classes = [cls for cls in registered if cls.__module__.split(".")[1] == game]
        kept = {}
        for cls, variant in ((cls, variant) for cls in classes for variant in parallel_compile.VARIANTS
                             if parallel_compile.policies_of(cls.decision_points, variant) or variant == "built-ins"):
            name = parallel_compile.plan_name(cls.name, variant)
            with tempfile.TemporaryDirectory(prefix="romesim-plan-") as cache:
                env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONWARNINGS="ignore",
                           **{parallel_compile.ENV: "1"})
                done = subprocess.run([sys.executable, "-c", RECORD, cls.name,
                                       str(parallel_compile.VARIANTS.index(variant))], env=env,
                                      capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"{name}: {done.stderr.strip()}")
            data = json.loads(done.stdout[done.stdout.index("{"):])
            entries = parallel_compile.read(data)[name]
            seconds = data["scenarios"][name]["seconds"]
            alone = sum(e.seconds for e in entries)
            gain = alone - parallel_compile.schedule(entries, 2)[1]
            print(f"{name:48s} cold {seconds:5.1f} s, {len(entries)} functions compiled in "
                  f"{alone:5.1f} s, {gain:+5.1f} s on two processes", flush=True)
            if gain >= parallel_compile.MIN_GAIN:
                kept[name] = (entries, seconds)
        path = parallel_compile.plan_path(classes[0])
        if kept:
            path.write_text(parallel_compile.written(kept), encoding="utf-8")
            print(f"wrote {path}")
        elif path.exists():
            path.unlink()


def main(argv=None):
    import romesim
    names = sorted(romesim.core.scenario._REGISTRY)
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compile", description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", nargs="+", metavar="NAME", help="only these scenarios (default: all)")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    parser.add_argument("--plans", nargs="+", metavar="GAME", help="write these games' compile plans instead")
    args = parser.parse_args(argv)
    if args.plans:
        registered = romesim.core.scenario.registered()
        games = sorted({cls.__module__.split(".")[1] for cls in registered})
        unknown = sorted(set(args.plans) - set(games))
        if unknown:
            parser.error(f"unknown game {', '.join(unknown)}; choose from {', '.join(games)}")
        write_plans(args.plans, registered)
        return 0
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
