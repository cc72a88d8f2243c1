"""Where and when numba's compiled romesim kernels are kept: a per-user cache folder, keyed by every source a
kernel may inline.

Two defects of numba's default cache, fixed for romesim's own files by a cache locator of its own:

* **Where.** numba writes its cache (``*.nbi`` index and ``*.nbc`` code files) into a ``__pycache__`` folder
  beside each source file. Inside an installed package those files outlive the install: ``pip`` removes only the
  files it installed, and the folders of cache files it leaves behind form a ``romesim`` namespace package that
  shadows a later editable install (``pip install .`` then ``pip install -e .`` ended in ``No module named
  'romesim.core.scenario'``). romesim's kernels go to ``NUMBA_CACHE_DIR`` when it is set, else to the user's cache:
  ``$XDG_CACHE_HOME/romesim/numba`` (by default ``~/.cache/romesim/numba``), ``~/Library/Caches/romesim/numba`` on
  macOS, ``%LOCALAPPDATA%\\romesim\\numba`` on Windows; one sub-folder per source folder, as numba names them.
* **When.** numba reuses a cached kernel while the kernel's own file is unchanged, although a kernel inlines
  functions of other files (``core/rng.py``, ``core/loop.py``, its game's ``policies.py`` or ``cards.py``): after
  an edit or an update of one of those, it loaded a stale kernel and gave wrong answers silently. Here a kernel's
  freshness stamp is the hash of every ``.py`` file of its own folder (its game) and of each file of
  ``romesim/core`` that defines numba code (``@njit`` at the start of a line) or how it compiles (``jit.py``): it
  compiles again when something it may contain changed, and not after an edit of core's Python side (traces,
  results, the engine's loop).

Other code's ``cache=True`` functions (a user's bot in a notebook) keep numba's own rules.
"""
import functools
import hashlib
import os
import re
import shutil
import sys
from pathlib import Path

from numba.core import caching, config

ENV = "NUMBA_CACHE_DIR"
PACKAGE = Path(__file__).resolve().parent.parent
CORE = PACKAGE / "core"


def default_dir():
    """The per-user folder romesim uses when ``NUMBA_CACHE_DIR`` is not set."""
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "romesim" / "numba"


def cache_dir():
    """The folder numba caches romesim's kernels in."""
    return Path(config.CACHE_DIR) if config.CACHE_DIR else default_dir()


def clear():
    """Delete every cached kernel (they are compiled again on first use); returns the folder that was cleared."""
    path = cache_dir()
    shutil.rmtree(path, ignore_errors=True)
    return path


def _sources(folder):
    """``(name, mtime, size)`` of the ``.py`` files a kernel of ``folder`` may inline: its own, and core's that
    define numba code."""
    stats = [(str(f), f.stat()) for f in sorted({*Path(folder).glob("*.py"), *CORE.glob("*.py")})]
    found = ((name, s.st_mtime_ns, s.st_size) for name, s in stats)
    return tuple(source for source in found if Path(source[0]).parent != CORE or _defines_numba_code(*source))


@functools.lru_cache(maxsize=None)
def _defines_numba_code(name, mtime, size):
    """``@njit`` at the start of a line, or ``jit.py``, whose decorator decides how every kernel compiles."""
    if Path(name) == CORE / "jit.py":
        return True
    return re.search(r"^@njit", Path(name).read_text(encoding="utf-8"), re.MULTILINE) is not None


@functools.lru_cache(maxsize=None)
def _digest(sources):
    """The hash of the files' contents (memoised on their names, times and sizes, so an edit is seen at once)."""
    digest = hashlib.sha256()
    for name, _, _ in sources:
        digest.update(Path(name).name.encode() + b"\0" + Path(name).read_bytes())
    return digest.hexdigest()


def sources_seen():
    """The names, times and sizes of romesim's source files, as a hash: what this process imported, when taken at
    its import (``IMPORTED``). Two processes whose hashes differ compile from different sources, and numba's cache
    keeps apart what each writes (``PackageLocator``'s stamps): neither sees the other's."""
    digest = hashlib.sha256()
    for f in sorted(PACKAGE.rglob("*.py")):
        stat = f.stat()
        digest.update(f"{f.relative_to(PACKAGE)}\0{stat.st_mtime_ns}\0{stat.st_size}\0".encode())
    return digest.hexdigest()


class PackageLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """numba's cache locator for the files of the romesim package (see the module's docstring)."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_dir() / self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        return _digest(_sources(Path(self._py_file).parent))

    @classmethod
    def from_function(cls, py_func, py_file):
        if PACKAGE not in Path(py_file).resolve().parents:
            return None  # not romesim's: numba's own locators decide
        return super().from_function(py_func, py_file)


CACHE_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # renamed in numba 0.61


def install():
    """Put ``PackageLocator`` first in numba's list; must run before any romesim kernel is decorated (numba picks a
    function's locator when ``@njit(cache=True)`` runs), so ``romesim/__init__.py`` imports this module first."""
    if PackageLocator not in CACHE_IMPL._locator_classes:
        CACHE_IMPL._locator_classes.insert(0, PackageLocator)


install()
IMPORTED = sources_seen()
