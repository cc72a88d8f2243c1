"""A cold compile shared by several processes (``romesim.core.parallel_compile``): the schedule, the plans, and the
same games from a kernel compiled that way."""
import hashlib
import json
import os
import subprocess
import sys

import pytest

import romesim
from benchmarks.compile import RECORD
from romesim.core import parallel_compile
from romesim.core.errors import ScenarioError
from romesim.core.parallel_compile import Entry, HANDOVER, STARTUP, schedule

PLANNED = [(cls, variant) for cls in romesim.core.scenario.registered() for variant in parallel_compile.VARIANTS
           if parallel_compile.plan(cls, variant)]


def test_the_largest_kernels_have_plans():
    names = {parallel_compile.plan_name(cls.name, variant) for cls, variant in PLANNED}
    assert {"vox_populi.game", "kings_of_rome.campaign", "kings_of_rome.battle", "vox_populi.game with user bots",
            "kings_of_rome.campaign with user bots", "kings_of_rome.campaign with search"} <= names


def test_a_schedule_worked_by_hand():
    """A and B take 4 s each, C (1 s) calls both. This process takes A at 0 s (it ends at 4 s); the helper, started
    ``STARTUP`` = 1.5 s late, takes B (ends at 5.5 s); C can start at 5.5 s in the helper, where B is, and at
    5.5 + ``HANDOVER`` here: the helper compiles it, and the last compile ends at 6.5 s."""
    assert (STARTUP, HANDOVER) == (1.5, 0.1)
    entries = [Entry("a", (), 4.0, ()), Entry("b", (), 4.0, ()), Entry("c", (), 1.0, (0, 1))]
    lists, end = schedule(entries, 2)
    assert lists == [[0], [1, 2]]
    assert end == pytest.approx(6.5)
    assert schedule(entries, 1) == ([[0, 1, 2]], pytest.approx(9.0))


def test_a_schedule_keeps_each_function_after_those_it_calls():
    for cls, variant in PLANNED:
        entries = parallel_compile.plan(cls, variant)
        assert all(callee < place for place, e in enumerate(entries) for callee in e.calls), cls.name
        for count in (2, 3, 4):
            lists, end = schedule(entries, count)
            assert sorted(p for part in lists for p in part) == list(range(len(entries)))
            assert end < sum(e.seconds for e in entries) + STARTUP


def test_each_plan_names_functions_that_exist():
    for cls, variant in PLANNED:
        entries = parallel_compile.plan(cls, variant)
        found = parallel_compile._callees(entries)
        assert sorted(found) == list(range(len(entries))), (cls.name, [e.function for p, e in enumerate(entries)
                                                                       if p not in found])


@pytest.mark.parametrize("cls, variant", PLANNED, ids=lambda x: x if isinstance(x, str) else x.name)
def test_each_plan_matches_the_code(cls, variant, tmp_path):
    """Every function of a plan is compiled for the plan's argument types when the kernel is: after a run, numba's
    cache holds each of them. A cache shared with processes compiling at the same moment may lose an index entry
    (numba rewrites a function's index whole); then the plan is recorded again on an empty cache and compared."""
    parallel_compile.run(cls.name, variant)
    entries = parallel_compile.plan(cls, variant)
    callees = parallel_compile._callees(entries)
    if all(parallel_compile._cached(callees[p], e.signature) for p, e in enumerate(entries)):
        return
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), **{parallel_compile.ENV: "1"})
    done = subprocess.run([sys.executable, "-c", RECORD, cls.name, str(parallel_compile.VARIANTS.index(variant))],
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    now = parallel_compile.read(json.loads(done.stdout[done.stdout.index("{"):]))[
        parallel_compile.plan_name(cls.name, variant)]
    assert [(e.function, e.signature, e.calls) for e in now] == [(e.function, e.signature, e.calls)
                                                                 for e in entries], (
        f"{cls.name}: its compile plan is out of date: python -m benchmarks.compile --plans "
        f"{cls.__module__.split('.')[1]}")


PROBE = r"""
import hashlib, sys, time
import romesim
from romesim.core import parallel_compile
started = []
popen = parallel_compile.subprocess.Popen
parallel_compile.subprocess.Popen = lambda *a, **k: started.append(1) or popen(*a, **k)
result = romesim.simulate(sys.argv[1], 300, 11, keep=True, progress=False)
print(len(started), hashlib.sha256(result.outcomes.to_numpy().tobytes()).hexdigest())
"""


def test_a_kernel_compiled_by_two_processes_plays_the_same_games(tmp_path):
    """The Kings of Rome battle compiled on an empty cache by this process and a helper, then loaded: the games are
    those of the kernel the rest of the suite compiled."""
    name = "kings_of_rome.battle"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), **{parallel_compile.ENV: "2"})
    runs = [subprocess.run([sys.executable, "-c", PROBE, name], env=env, capture_output=True, text=True)
            for _ in range(2)]
    assert [run.returncode for run in runs] == [0, 0], runs[0].stderr + runs[1].stderr
    (cold_helpers, cold), (warm_helpers, warm) = (run.stdout.split() for run in runs)
    assert (cold_helpers, warm_helpers) == ("1", "0")  # a helper on the empty cache, none once it is filled
    here = romesim.simulate(name, 300, 11, keep=True, progress=False)
    assert cold == warm == hashlib.sha256(here.outcomes.to_numpy().tobytes()).hexdigest()


def test_the_number_of_processes_is_checked(monkeypatch):
    monkeypatch.setenv(parallel_compile.ENV, "two")
    with pytest.raises(ScenarioError, match="ROMESIM_COMPILE_PROCESSES: 'two' is not allowed; expected a whole"):
        parallel_compile.processes()
    monkeypatch.setenv(parallel_compile.ENV, "3")
    assert parallel_compile.processes() == 3


def test_an_unknown_function_in_a_plan_is_left_to_its_caller():
    entries = [Entry("romesim.nowhere.gone@gone.py", (), 1.0, ())]
    assert parallel_compile._callees(entries) == {}


def test_an_entry_that_no_longer_compiles_stops_the_process_at_once():
    """A plan out of date (a function whose arguments changed since it was recorded) names a signature the function
    no longer takes: the process stops at it, so that neither it nor a process waiting for that entry waits for the
    other (a helper then exits, and the process that started it stops waiting for its entries and kills it)."""
    class Callee:
        overloads = {}

        def __init__(self, fails):
            self.fails, self.compiled = fails, []

        def compile(self, signature):
            if self.fails:
                raise TypeError("no such signature")
            self.compiled.append(signature)

    stale, after = Callee(True), Callee(False)
    entries = [Entry("romesim.a.f@a.py", ("int64",), 1.0, ()), Entry("romesim.a.g@a.py", ("int64",), 1.0, (0,))]
    assert parallel_compile._compile(entries, [0, 1], {0: stale, 1: after}, lambda place: True) is False
    assert after.compiled == []
    assert parallel_compile._compile(entries, [1], {1: after}, lambda place: True) is True
    assert after.compiled == [("int64",)]


def test_a_warm_cache_costs_a_look_at_the_last_functions_only():
    """With the kernel compiled before, ``prepare`` looks only at the functions nothing in the plan calls (those the
    kernel calls itself: the game, its buffers, the stream): making every function's callee took 0.34 s for the
    campaign, more than loading its kernel."""
    cls = romesim.core.scenario.get("kings_of_rome.campaign")
    parallel_compile.run(cls.name)
    entries = parallel_compile.plan(cls)
    made = sum("_callee" in d.__dict__ for d in romesim.core.jit.FUNCTIONS)
    assert parallel_compile.prepare(romesim.scenario(cls.name)) == 0
    roots = len(entries) - len({callee for e in entries for callee in e.calls})
    assert sum("_callee" in d.__dict__ for d in romesim.core.jit.FUNCTIONS) - made <= roots <= 5


def test_a_helper_started_after_an_edit_of_the_sources_compiles_nothing(tmp_path):
    """A helper whose romesim sources are not those its starting process imported (an edit during a run) exits
    at once: the two would not see each other's compiled functions in the cache (their stamps differ) and would
    each wait for the other. With the same sources, it compiles its entries (here a battle function calling none)."""
    from romesim.core import cache
    battle = romesim.core.scenario.get("kings_of_rome.battle")
    entries = parallel_compile.plan(battle)

    def helper(sources, places):
        env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), **{parallel_compile.SOURCES_ENV: sources})
        done = subprocess.run([sys.executable, "-c", parallel_compile.HELPER, battle.name, "0", *map(str, places)],
                              env=env, timeout=300)
        assert done.returncode == 0
        return {p.name for p in tmp_path.rglob("*.nbi")}

    leaves = [place for place, e in enumerate(entries) if not e.calls and "battle" in e.function]
    imported = helper("the sources before an edit", leaves)  # what importing the game compiles, if anything
    names = {entries[place].function.split("@")[0].rsplit(".", 1)[-1] for place in leaves}
    assert leaves and not any(name in f for f in imported for name in names)
    assert any(name in f for f in helper(cache.IMPORTED, leaves) - imported for name in names)
