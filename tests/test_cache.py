"""numba's cache of romesim's kernels (``romesim.core.cache``): in a per-user folder, never inside the installed
package, and stale as soon as any source a kernel may inline changes.

Cache files inside the package outlived ``pip install .`` followed by ``pip install -e .``: their leftover folders
formed a ``romesim`` namespace package that shadowed the editable install. ``.ci/run`` replays that sequence in a
fresh virtual environment; these tests check the mechanism, in fresh processes where it matters.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import numba

import romesim
from romesim.cli import main
from romesim.core import cache
from romesim.kings_of_rome import treason

PACKAGE = Path(romesim.__file__).parent

PROBE = """
import json, romesim
from romesim.core import cache
romesim.simulate("kings_of_rome.treason", 10, progress=False)
print(json.dumps({"dir": str(cache.cache_dir())}))
"""


def probe(tmp_path, **env):
    environ = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    environ.update(env, PYTHONPATH=str(PACKAGE.parent))
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=environ,
                          cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def cache_files(folder):
    return sorted(p for p in Path(folder).rglob("*") if p.suffix in (".nbi", ".nbc"))


def treason_files(folder):
    return [p for p in cache_files(folder) if "treason" in p.name]


def test_the_kernels_are_cached_in_the_users_cache_folder(tmp_path):
    home = tmp_path / "xdg"
    before = treason_files(PACKAGE)
    seen = probe(tmp_path, XDG_CACHE_HOME=str(home))
    assert seen["dir"] == str(home / "romesim" / "numba")
    assert treason_files(home / "romesim" / "numba")
    assert treason_files(PACKAGE) == before  # nothing new beside the sources


def test_numba_cache_dir_wins(tmp_path):
    chosen = tmp_path / "chosen"
    seen = probe(tmp_path, NUMBA_CACHE_DIR=str(chosen), XDG_CACHE_HOME=str(tmp_path / "unused"))
    assert seen["dir"] == str(chosen)
    assert treason_files(chosen) and not (tmp_path / "unused").exists()


def test_only_romesims_files_get_its_locator():
    @numba.njit(cache=True)
    def outside(x):
        return x

    assert isinstance(treason.treason_game._cache._impl.locator, cache.PackageLocator)
    assert not isinstance(outside._cache._impl.locator, cache.PackageLocator)  # a user's function: numba's rules


def test_a_kernel_is_stale_when_any_source_it_may_inline_changes(tmp_path, monkeypatch):
    """numba alone checks the kernel's own file; the stamp here hashes its folder's files and core's files that
    define numba code, by content."""
    core, game = tmp_path / "core", tmp_path / "game"
    core.mkdir(), game.mkdir()
    (core / "rng.py").write_text("@njit\ndef a():\n    return 1\n")
    (core / "trace.py").write_text("A = 1  # Python only: a kernel holds nothing of it\n")
    (core / "jit.py").write_text("D = 1  # the decorator every kernel is compiled with\n")
    (game / "kernel.py").write_text("B = 1\n")
    (game / "policies.py").write_text("C = 1\n")
    (game / "notes.txt").write_text("not code\n")
    monkeypatch.setattr(cache, "CORE", core)

    def stamp():
        return cache._digest(cache._sources(game))

    first = stamp()
    (game / "notes.txt").write_text("changed\n")
    (core / "trace.py").write_text("A = 2\n")
    assert stamp() == first  # not a source a kernel may inline
    for path in (core / "rng.py", core / "jit.py", game / "policies.py"):
        text = path.read_text()
        path.write_text(text + "changed = 2\n")
        assert stamp() != first
        path.write_text(text)
        assert stamp() == first  # the contents decide, not the times
    (core / "trace.py").write_text("@njit\ndef t():\n    return 1\n")
    assert stamp() != first  # a core file that comes to define numba code counts


def test_cli_shows_and_clears_the_cache(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cache.config, "CACHE_DIR", str(tmp_path / "kernels"))
    (tmp_path / "kernels" / "sub").mkdir(parents=True)
    (tmp_path / "kernels" / "sub" / "k.nbi").write_bytes(b"x" * 10)
    assert main(["cache"]) == 0
    assert capsys.readouterr().out.startswith(f"{tmp_path / 'kernels'}   (1 files")
    assert main(["cache", "--clear"]) == 0
    assert not (tmp_path / "kernels").exists()


USER_BOT_RUN = """
import json, numba, romesim
sc = romesim.scenario("kings_of_rome.treason")

@numba.njit
def bot(state, params, stream):
    return 0

romesim.simulate(sc, 10, policies={sc.decision_points[0].name: bot}, progress=False)
print(json.dumps({"misses": sum(sc.kernel.stats.cache_misses.values()),
                  "hits": sum(sc.kernel.stats.cache_hits.values())}))
"""


def _kernel_loads(tmp_path, warm):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / ("warmed" if warm else "cold")),
               ROMESIM_COMPILE_PROCESSES="1")
    if warm:
        out = subprocess.run([sys.executable, "-m", "romesim", "cache", "--warm", "kings_of_rome.treason"], env=env,
                             capture_output=True, text=True, check=True).stdout
        assert "kings_of_rome.treason" in out and "user bots" in out
    run = subprocess.run([sys.executable, "-c", USER_BOT_RUN], env=env, capture_output=True, text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_warm_compiles_the_variant_a_first_user_bot_would(tmp_path):
    # without it the first bot compiles the kernel's variant for user functions; after it, a new process loads it
    assert _kernel_loads(tmp_path, warm=False)["misses"] == 1
    assert _kernel_loads(tmp_path, warm=True) == {"misses": 0, "hits": 1}


def test_warm_reports_each_variant_and_refuses_bad_input(capsys, monkeypatch):
    frame = romesim.warm(["kings_of_rome.treason", "kings_of_rome.inauguratio"])
    assert [tuple(r) for r in frame[["scenario", "variant"]].values] == [
        ("kings_of_rome.treason", "built-ins"), ("kings_of_rome.treason", "user bots"),
        ("kings_of_rome.inauguratio", "built-ins")]  # a scenario without decision points has one variant
    assert (frame["seconds"] >= 0).all()
    assert main(["cache", "--warm", "kings_of_rome.nope"]) == 2
    assert "unknown scenario 'kings_of_rome.nope'" in capsys.readouterr().err
    assert main(["cache", "--built-ins-only"]) == 2
    assert "--built-ins-only: allowed only with --warm" in capsys.readouterr().err
    assert main(["cache", "--search"]) == 2
    assert "--search: allowed only with --warm" in capsys.readouterr().err
    assert main(["cache", "--warm", "kings_of_rome.treason", "--built-ins-only", "--search"]) == 2
    assert "--built-ins-only and --search: give one of them" in capsys.readouterr().err


def test_warm_compiles_the_search_variant_when_asked():
    """The search bots play a variant of their own (``core.policy.VARIANTS``): ``search=True`` adds it for a
    scenario whose decision points offer them, and nothing for one whose points do not."""
    frame = romesim.warm(["kings_of_rome.battle", "kings_of_rome.treason"], user_bots=False, search=True)
    assert [tuple(r) for r in frame[["scenario", "variant"]].values] == [
        ("kings_of_rome.battle", "built-ins"), ("kings_of_rome.battle", "search"),
        ("kings_of_rome.treason", "built-ins")]


def test_warm_takes_every_kernel_a_scenarios_settings_may_pick():
    from romesim.kings_of_rome.siege import siege_kernel, siege_rolls_kernel

    siege = romesim.scenario("kings_of_rome.siege")
    assert [s.kernel for s in siege.kernel_scenarios()] == [siege_rolls_kernel, siege_kernel]
    relief = siege.kernel_scenarios()[1]
    assert relief.relief and relief.kernel_scenarios() == (relief,)  # a siege with a battle plays one kernel
    treason = romesim.scenario("kings_of_rome.treason")
    assert treason.kernel_scenarios() == (treason,)
