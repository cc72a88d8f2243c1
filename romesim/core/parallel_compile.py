"""A cold compile shared by several processes.

numba compiles in one thread, under a lock, and a whole game is a few thousand lines of rules. Each romesim
function a kernel calls is compiled on its own and cached on its own (``core.jit``: its ``callee``), and a caller
compiled after it loads it from the cache. So, when a kernel is not in the cache, other processes can compile its
functions at the same time, each writing the cache, and the kernel compiled last loads them: Vox Populi's seat
bots (14 s) and its game (18 s) compiled one after the other in 36 s, at once in 21 to 24 s.

What to compile, and where, is decided before anything is typed, so it comes from a **plan**: for each scenario
whose kernel gains from it, every romesim function its kernel compiles, with its argument types, the functions it
calls, and how long it took to compile on its own, recorded on an empty cache (``python -m benchmarks.compile
--plans GAME``, written to the game's ``data/compile_plans.json``). The processes follow a list schedule of the
plan: each compiles its functions in order, each after the functions it calls that another process compiles are in
the cache. A plan that no longer matches the code costs only time: what no process compiled, the kernel compiles
(``tests/test_parallel_compile.py`` checks that each plan matches). The compiled code is the same, from whichever
process: a run plays the same games.

A kernel has up to five variants (``core.policy.VARIANTS``), each with its plan: for the built-in bots, for user bots
(recorded with a user function at the first decision point; the user's own function is compiled in this process,
before), for searches (recorded with ``flat_mc`` at the first decision point offering it), and, for a game with
nested decision points (the campaign's procedures), for user bots and searches at those (at the first nested one).

``ROMESIM_COMPILE_PROCESSES``: how many processes a cold compile may use (default: the CPUs this process may run
on; 1: this one only).
"""
import base64
import json
import os
import pickle
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from numba.core import config, event, sigutils

from . import cache, jit
from .errors import ScenarioError
from .policy import VARIANTS, searchable

ENV = "ROMESIM_COMPILE_PROCESSES"
SOURCES_ENV = "ROMESIM_HELPER_SOURCES"  # the sources the process starting a helper imported (``cache.IMPORTED``)
PLAN_FILE = "compile_plans.json"  # in each game's data folder
STARTUP = 1.5  # seconds a helper process takes to start and import its game, for the schedule
HANDOVER = 0.1  # seconds before a function another process compiled is seen in the cache and loaded
POLL = 0.05  # seconds between two looks at the cache while waiting for another process
HELPER_WAIT = 600.0  # seconds a helper waits for a function compiled elsewhere before compiling it itself
MIN_GAIN = 3.0  # seconds the schedule must save to start helpers (each takes a second or two to start)
# A helper's command: it imports numba's cache set-up (first, as romesim's __init__ does) and then only its game's
# package (``helper``), under a romesim package made from romesim's spec without running its __init__, which would
# import the four games, the analysis and pandas: the campaign's helper starts compiling 0.5 s sooner
HELPER = ("import importlib.util, sys; sys.modules['romesim'] = importlib.util.module_from_spec("
          "importlib.util.find_spec('romesim')); import romesim.core.cache; "
          "from romesim.core.parallel_compile import helper; helper()")


@dataclass(frozen=True)
class Entry:
    """A function of a plan, compiled for ``signature`` (numba types)."""
    function: str  # ``module.name@file``: which function (``identity``)
    signature: tuple
    seconds: float  # its own compile, without the romesim functions it calls
    calls: tuple  # the entries it calls, by their place in the plan (always before it)


def identity(py_func):
    """Which romesim function: its module and name, and the file its code is in (a generated function's module is
    the loop's, its file the game's)."""
    return f"{py_func.__module__}.{py_func.__qualname__}@{Path(py_func.__code__.co_filename).name}"


def processes():
    """How many processes a cold compile may use (``ROMESIM_COMPILE_PROCESSES``, else the usable CPUs)."""
    value = os.environ.get(ENV)
    if value is not None:
        if not value.strip().isdigit() or int(value) < 1:
            raise ScenarioError(f"{ENV}: {value!r} is not allowed; expected a whole number of processes, 1 or more")
        return int(value)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


# --- plans --------------------------------------------------------------------------------------------------------

def plan_path(scenario_class):
    """The plan file of a scenario's game: ``data/compile_plans.json`` beside the game's modules."""
    return Path(sys.modules[scenario_class.__module__].__file__).parent / "data" / PLAN_FILE


_PLANS = {}  # path -> {scenario name: [Entry]}


def plan_name(name, variant=VARIANTS[0]):
    """Where a plan file keeps a scenario's plan: under its name, or ``NAME with user bots`` or ``NAME with
    search`` for the kernel's other variants."""
    return name if variant == VARIANTS[0] else f"{name} with {variant}"


def plan(scenario_class, variant=VARIANTS[0]):
    """The plan of a scenario's kernel in ``variant`` (``core.policy.VARIANTS``): ``Entry`` list, callees first
    (empty: none)."""
    path = plan_path(scenario_class)
    if path not in _PLANS:
        try:
            _PLANS[path] = read(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError, ImportError,
                pickle.UnpicklingError):
            _PLANS[path] = {}  # no plan, or one this numba cannot read: compiled in one process
    return _PLANS[path].get(plan_name(scenario_class.name, variant), [])


def read(data):
    """``{scenario name: plan}`` from a plan file's JSON (``written``)."""
    kinds = [pickle.loads(base64.b64decode(kind)) for kind in data["types"]]
    plans = {}
    for name, scenario in data["scenarios"].items():
        plans[name] = plans[scenario["same_as"]] if "same_as" in scenario else [
            Entry(e["function"], tuple(kinds[k] for k in e["args"]), e["seconds"], tuple(e["calls"]))
            for e in scenario["entries"]]
    return plans


def written(plans):
    """A plan file's text for ``{scenario name: (plan, seconds its compile took)}``: JSON, an entry a line. The
    argument types are numba's, each pickled once as numba's cache pickles them (``types``, named in
    ``type_names``), an entry's ``args`` their places there; a scenario whose plan is an earlier one's says so."""
    kinds, shapes, scenarios = {}, {}, []
    for name, (entries, seconds) in plans.items():
        shape = [(e.function, e.signature, e.calls) for e in entries]
        same = next((other for other, them in shapes.items() if them == shape), None)
        shapes.setdefault(name, shape)
        head = dict(seconds=round(seconds, 2), **({} if same is None else {"same_as": same}))
        rows = [] if same is not None else [
            json.dumps(dict(function=e.function, seconds=round(e.seconds, 3), calls=list(e.calls),
                            args=[kinds.setdefault(t, len(kinds)) for t in e.signature])) for e in entries]
        body = json.dumps(head)[:-1] + (', "entries": [\n  ' + ",\n  ".join(rows) + "]" if rows else "")
        scenarios.append(f"{json.dumps(name)}: {body}}}")
    types = (json.dumps(base64.b64encode(pickle.dumps(t, protocol=4)).decode()) for t in kinds)
    return ('{"type_names": ' + json.dumps([str(t) for t in kinds]) + ',\n"types": [\n ' + ",\n ".join(types)
            + '],\n"scenarios": {\n' + ",\n".join(scenarios) + "}}\n")


def first_action(state, params, stream):
    """The user bot a plan for user bots is recorded with."""
    return 0


def policies_of(points, variant):
    """The policies a plan of ``variant`` is recorded with (None: the defaults, or no such variant): ``first_action``
    at the first decision point for user bots, ``flat_mc`` at the first offering it for searches; at the first
    nested one (``DecisionPoint.nested``) for the variants "in procedures"."""
    import numba
    kind = VARIANTS.index(variant)
    if kind == 0:
        return None
    chosen = [dp for dp in points if dp.nested == (kind >= 3)]
    if kind in (1, 3):
        return {chosen[0].name: numba.njit(first_action)} if chosen else None
    searched = searchable(chosen)
    return {searched: "flat_mc"} if searched is not None else None


def run(name, variant=VARIANTS[0]):
    """A run of one game of scenario ``name`` with ``policies_of(variant)``: it compiles, or loads, the kernel's
    variant."""
    from .engine import simulate
    from .errors import PolicyError
    from .scenario import get
    policies = policies_of(get(name).decision_points, variant)
    try:
        simulate(name, 1, 1, policies=policies, progress=False)
    except PolicyError:  # the action is illegal there: the kernel was compiled all the same
        pass


def record(name, variant=VARIANTS[0]):
    """Compile scenario ``name``'s kernel in ``variant`` (``core.policy.VARIANTS``) in this
    process, whose cache must be empty and which must compile alone (``ROMESIM_COMPILE_PROCESSES=1``); returns its
    plan and the whole compile's seconds."""
    places, entries, open_ = {}, [], []  # (function, signature) -> place in entries; the compiles under way

    def compile_(self, sig, _compile=jit.Callee.compile):
        key = (identity(self.py_func), tuple(sigutils.normalize_signature(sig)[0]))
        if open_:
            open_[-1][2].add(key)
        return _compile(self, sig)

    class Listener(event.Listener):
        def on_start(self, ev):
            open_.append([time.perf_counter(), 0.0, set()])

        def on_end(self, ev):
            start, inside, calls = open_.pop()
            spent = time.perf_counter() - start
            dispatcher = ev.data["dispatcher"]
            if isinstance(dispatcher, jit.Callee):
                key = (identity(dispatcher.py_func), tuple(ev.data["args"]))
                places[key] = len(entries)
                entries.append(Entry(*key, spent - inside, tuple(sorted(places[c] for c in calls - {key}))))
                if open_:
                    open_[-1][1] += spent
            elif open_:  # numba's own functions: their time is their caller's
                open_[-1][1] += inside
                open_[-1][2] |= calls

    listener = Listener()
    event.register("numba:compile", listener)
    jit.Callee.compile = compile_
    start = time.perf_counter()
    try:
        run(name, variant)
    finally:
        del jit.Callee.compile  # back to numba's, which Callee inherits
        event.unregister("numba:compile", listener)
    return entries, time.perf_counter() - start


def schedule(entries, count):
    """``(lists, seconds)``: the entries each of ``count`` processes compiles, in order (the first list this
    process's), and when the last ends. A list schedule: of the entries whose callees are scheduled, the one on the
    longest path to the kernel first, on the process where it can start soonest."""
    callers = [[] for _ in entries]
    for place, e in enumerate(entries):
        for callee in e.calls:
            callers[callee].append(place)
    rank = [0.0] * len(entries)
    for place in reversed(range(len(entries))):  # callers come after their callees
        rank[place] = entries[place].seconds + max((rank[c] for c in callers[place]), default=0.0)
    free = [0.0] + [STARTUP] * (count - 1)
    lists = [[] for _ in range(count)]
    ends, where = {}, {}
    waiting = [set(e.calls) for e in entries]
    ready = {place for place, calls in enumerate(waiting) if not calls}
    while ready:
        place = max(ready, key=lambda p: (rank[p], -p))
        ready.remove(place)

        def start(process):
            return max([free[process]] + [ends[c] + (0 if where[c] == process else HANDOVER)
                                          for c in entries[place].calls])
        process = min(range(count), key=lambda p: (start(p), p))
        free[process] = ends[place] = start(process) + entries[place].seconds
        where[place] = process
        lists[process].append(place)
        for caller in callers[place]:
            waiting[caller].discard(place)
            if not waiting[caller]:
                ready.add(caller)
    return lists, max(free)


# --- compiling ----------------------------------------------------------------------------------------------------

def _callees(entries, places=None):
    """place -> the ``callee`` of the function each entry (at ``places``: all) names, where exactly one romesim
    function has that name."""
    named = {}
    for dispatcher in jit.FUNCTIONS:
        named.setdefault(identity(dispatcher.py_func), []).append(dispatcher)
    return {place: named[entries[place].function][0].callee
            for place in (range(len(entries)) if places is None else places)
            if len(named.get(entries[place].function, ())) == 1}


def _cached(callee, signature):
    """Whether ``callee`` is compiled, in this process or in numba's cache, for ``signature``."""
    if signature in callee.overloads:
        return True
    cache = getattr(callee._cache, "_cache_file", None)
    return cache is not None and any(sigutils.normalize_signature(key[0])[0] == signature
                                     for key in cache._load_index())


def _compile(entries, places, callees, running):
    """Compile the entries at ``places``, in order, each once the functions it calls that other processes compile
    are in the cache: ``running(place)`` tells whether the process compiling an entry may still write it. Returns
    False at the first entry that does not compile (a plan out of date: a signature the function no longer takes),
    which another process may be waiting for: the processes stop there, and the kernel compiles what it calls and
    says what fails."""
    mine = set(places)
    for place in places:
        for callee in set(entries[place].calls) - mine:
            while callee in callees and running(callee) and not _cached(callees[callee], entries[callee].signature):
                time.sleep(POLL)
        if place in callees and entries[place].signature not in callees[place].overloads:
            try:
                jit.roomy(callees[place].compile, entries[place].signature)
            except Exception:
                return False
    return True


def prepare(scenario, variant=VARIANTS[0]):
    """Before the first call in this process of ``scenario``'s kernel in ``variant``: when its plan
    has functions the cache lacks, compile them in this process and helper processes at once (see the module);
    returns how many helpers it started."""
    entries = plan(type(scenario), variant)
    if config.DISABLE_JIT or len(entries) < 2:
        return 0
    count = processes()
    # a kernel compiled before left every function in the cache, the last ones compiled too: a look at those is
    # enough (making every function's callee would cost more than loading the kernel)
    called = {callee for e in entries for callee in e.calls}
    last = _callees(entries, [place for place in range(len(entries)) if place not in called])
    if all(_cached(callee, entries[place].signature) for place, callee in last.items()):
        return 0
    callees = _callees(entries)
    missing = {place for place in callees if not _cached(callees[place], entries[place].signature)}
    if count < 2 or len(missing) < 2:
        return 0
    left = [Entry(e.function, e.signature, e.seconds if p in missing else 0.0, e.calls) for p, e in enumerate(entries)]
    lists, end = schedule(left, count)
    if schedule(left, 1)[1] - end < MIN_GAIN:  # a kernel's variant whose other functions are cached: a few left
        return 0
    lists = [[place for place in part if place in missing] for part in lists]  # the others are cached
    path = [str(Path(__file__).resolve().parents[2])] + [p for p in [os.environ.get("PYTHONPATH")] if p]
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(path), **{SOURCES_ENV: cache.IMPORTED})
    owners, helpers = {}, []
    try:
        for part in lists[1:]:
            if part:
                helpers.append(subprocess.Popen(
                    [sys.executable, "-c", HELPER,
                     scenario.name, str(VARIANTS.index(variant)), *map(str, part)],
                    env=environment, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                owners.update(dict.fromkeys(part, helpers[-1]))
    except OSError:  # no process can be started here: the kernel compiles it all, as numba does
        lists[0] = []
    try:
        if not _compile(entries, lists[0], callees, lambda place: place in owners and owners[place].poll() is None):
            for process in helpers:  # they may be waiting for what failed here
                process.kill()
    except BaseException:
        for process in helpers:
            process.kill()
        raise
    finally:
        for process in helpers:
            process.wait()  # the kernel, compiled next, loads what they compiled
    return len(helpers)


def helper():
    """A helper process: ``argv`` is a scenario's name, its kernel's variant (an index in ``VARIANTS``), and the
    places in its plan of the entries it compiles, in order. It waits for the others it needs while the process
    that started it runs, ``HELPER_WAIT`` at most. It compiles nothing when romesim's sources changed since the
    process that started it imported them (an edit during a run): neither would see in the cache what the other
    compiled, and each would wait for the other; that process then compiles it all."""
    import importlib

    from .scenario import get
    if os.environ.get(SOURCES_ENV) != cache.IMPORTED:
        os._exit(0)
    importlib.import_module(f"romesim.{sys.argv[1].split('.')[0]}")  # the game's package registers its scenarios
    entries = plan(get(sys.argv[1]), VARIANTS[int(sys.argv[2])])
    parent, deadline = os.getppid(), time.monotonic() + HELPER_WAIT
    _compile(entries, [int(place) for place in sys.argv[3:]], _callees(entries),
             lambda place: os.getppid() == parent and time.monotonic() < deadline)
    os._exit(0)  # what it compiled is in the cache; tearing down numba and LLVM would only delay the kernel
