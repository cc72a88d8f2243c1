"""Where numba keeps romesim's compiled kernels: a per-user cache folder, never the installed package.

By default numba writes its cache (``*.nbi`` index and ``*.nbc`` code files) into a ``__pycache__`` folder beside
each source file. Inside an installed package those files outlive the install: ``pip`` removes only the files it
installed, and the folders of cache files it leaves behind form a ``romesim`` namespace package that shadows a
later editable install (``pip install .`` then ``pip install -e .`` ended in ``No module named
'romesim.core.scenario'``). So, unless ``NUMBA_CACHE_DIR`` is set, romesim points numba at a folder of the user's
cache: ``$XDG_CACHE_HOME/romesim/numba`` (by default ``~/.cache/romesim/numba``), ``~/Library/Caches/romesim/numba``
on macOS, ``%LOCALAPPDATA%\\romesim\\numba`` on Windows. numba keys every entry by the full path of its source
file, so several installs and checkouts share the folder without mixing their kernels.

This module must run before any romesim kernel is decorated: numba picks a function's cache folder when the
``@njit(cache=True)`` decorator runs. ``romesim/__init__.py`` imports it first.
"""
import os
import shutil
import sys
from pathlib import Path

import numba

ENV = "NUMBA_CACHE_DIR"


def default_dir():
    """The per-user folder romesim uses when ``NUMBA_CACHE_DIR`` is not set."""
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "romesim" / "numba"


def configure():
    """Point numba's cache at ``default_dir()`` unless the user chose a folder with ``NUMBA_CACHE_DIR``."""
    if not numba.config.CACHE_DIR:
        numba.config.CACHE_DIR = str(default_dir())
    return cache_dir()


def cache_dir():
    """The folder numba caches romesim's kernels in."""
    return Path(numba.config.CACHE_DIR)


def clear():
    """Delete every cached kernel (they are compiled again on first use); returns the folder that was cleared."""
    path = cache_dir()
    shutil.rmtree(path, ignore_errors=True)
    return path


configure()
