"""numba's cache lives in a per-user folder, never inside the installed package (``romesim.core.cache``).

Cache files inside the package outlived ``pip install .`` followed by ``pip install -e .``: their leftover folders
formed a ``romesim`` namespace package that shadowed the editable install. ``.ci/run`` replays that sequence in a
fresh virtual environment; these tests check the mechanism in a fresh process each.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import romesim
from romesim.cli import main

PACKAGE = Path(romesim.__file__).parent

PROBE = """
import json, numba, romesim
from romesim.core import cache
romesim.simulate("kings_of_rome.treason", 10, progress=False)
print(json.dumps({"config": numba.config.CACHE_DIR, "dir": str(cache.cache_dir())}))
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


def test_the_kernels_are_cached_in_the_users_cache_folder(tmp_path):
    home = tmp_path / "xdg"
    before = [p for p in cache_files(PACKAGE) if "treason" in p.name]
    seen = probe(tmp_path, XDG_CACHE_HOME=str(home))
    assert seen["config"] == seen["dir"] == str(home / "romesim" / "numba")
    written = cache_files(home / "romesim" / "numba")
    assert any("treason" in p.name for p in written), written
    assert [p for p in cache_files(PACKAGE) if "treason" in p.name] == before  # nothing new beside the sources


def test_numba_cache_dir_wins(tmp_path):
    chosen = tmp_path / "chosen"
    seen = probe(tmp_path, NUMBA_CACHE_DIR=str(chosen), XDG_CACHE_HOME=str(tmp_path / "unused"))
    assert seen["dir"] == str(chosen)
    assert cache_files(chosen) and not (tmp_path / "unused").exists()


def test_cli_shows_and_clears_the_cache(tmp_path, monkeypatch, capsys):
    from romesim.core import cache

    monkeypatch.setattr(cache.numba.config, "CACHE_DIR", str(tmp_path / "kernels"))
    (tmp_path / "kernels" / "sub").mkdir(parents=True)
    (tmp_path / "kernels" / "sub" / "k.nbi").write_bytes(b"x" * 10)
    assert main(["cache"]) == 0
    assert capsys.readouterr().out.startswith(f"{tmp_path / 'kernels'}   (1 files")
    assert main(["cache", "--clear"]) == 0
    assert not (tmp_path / "kernels").exists()
    assert cache.cache_dir() == tmp_path / "kernels"  # the folder stays numba's: kernels compile into it again
