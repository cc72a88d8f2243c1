"""The results store: one Parquet file per finished sweep point, queryable with SQL.

Layout (hive-partitioned, no server)::

    STORE/scenario=jugule.duel/3f9c0a1b2c4d5e6f-n20000.parquet
    STORE/scenario=vox_populi.game/games/5d0e9a7c1b2f3e4a-g0-n100.parquet

The file name is the point's key (a hash of the scenario with every parameter, the policies, the seed, the
romesim version and the dice generator) and its game count. A file is written to a temporary name and renamed
into place, so a killed process leaves either the whole file or none: a rerun of the sweep finds every finished
point and plays only the rest. The table ``results`` holds one row per (stored point, metric) with the exact
integer sums (``total``, ``total_sq``) from which each point's Result is rebuilt.

``games/`` holds per-game outcomes (``Store.outcomes``, for measurements that need each game, such as
``analysis.robustness``), in pieces of games ``first .. first+n-1``, each written as soon as it is played: a long
run that is stopped loses at most the piece it was playing.
"""
import hashlib
import json
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..core import policy as _policy
from ..core.engine import _as_scenario, _check_int, simulate
from ..core.errors import RomesimError
from ..core.result import Result
from ..core.rng import GENERATOR
from ..core.version import VERSION

DEFAULT_ENV = "ROMESIM_STORE"
DEFAULT_FOLDER = "romesim-store"
COLUMNS = ("key", "n", "seed", "romesim_version", "generator", "params", "policies", "metric", "estimate", "ci_low",
           "ci_high", "total", "total_sq")
_FILE = re.compile(r"^(?P<key>[0-9a-f]{16})-n(?P<n>\d+)\.parquet$")
_GAMES = re.compile(r"^(?P<key>[0-9a-f]{16})-g(?P<first>\d+)-n(?P<n>\d+)\.parquet$")
PIECES = 20  # a run's per-game outcomes are stored in about this many pieces ...
PIECE_MIN = 100  # ... of at least this many games


def default_path():
    return Path(os.environ.get(DEFAULT_ENV, DEFAULT_FOLDER))


def point_identity(scenario, policies, seed):
    """What a stored point is keyed by, besides its game count: the scenario with every parameter, each decision
    point's policy and parameters (a user function by its module and name), the seed, romesim's version and the
    dice generator."""
    resolved = _policy.resolve(scenario.decision_points, policies)
    chosen = {}
    for i, dp in enumerate(scenario.decision_points):
        fn = resolved.functions[i]
        name = resolved.names[i] if fn is None else f"{fn.py_func.__module__}.{fn.py_func.__qualname__}"
        chosen[dp.name] = [name, [float(x) for x in resolved.params[i]]]
    return {"scenario": scenario.name, "params": scenario.to_dict(), "policies": chosen, "seed": seed,
            "romesim_version": VERSION, "generator": GENERATOR}


def _write(table, final):
    """Write ``table`` to ``final`` through a partial file renamed into place: the whole file or none."""
    final.parent.mkdir(parents=True, exist_ok=True)
    partial = final.parent / f".{final.name}.{os.getpid()}.partial"
    pq.write_table(table, partial)
    os.replace(partial, final)
    return final


def point_key(identity):
    """The 16-hex-digit key of a point from its identity (a JSON-ready dict without ``n``)."""
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Store:
    """A folder of Parquet files, one per finished point; ``query(sql)`` answers SQL over table ``results``."""

    def __init__(self, path=None):
        self.path = Path(default_path() if path is None else path)
        if self.path.exists() and not self.path.is_dir():
            raise RomesimError(f"store: {str(self.path)!r} is a file; expected a folder (made on first write)")

    def __repr__(self):
        return f"Store({str(self.path)!r})"

    def _folder(self, scenario_name):
        return self.path / f"scenario={scenario_name}"

    def stored_counts(self, scenario_name, key):
        """The game counts stored for ``key``, ascending."""
        folder = self._folder(scenario_name)
        if not folder.is_dir():
            return []
        found = (_FILE.match(p.name) for p in folder.iterdir())
        return sorted(int(m["n"]) for m in found if m and m["key"] == key)

    def load(self, scenario, key, n):
        """The Result of ``key`` with ``n`` games, read back from its file (sums are exact)."""
        frame = pq.read_table(self._folder(scenario.name) / f"{key}-n{n}.parquet",
                              columns=["metric", "seed", "total", "total_sq", "policies"]).to_pandas()
        by_metric = frame.set_index("metric")
        if tuple(by_metric.index) != tuple(scenario.metrics):
            raise RomesimError(f"store: {key}-n{n}.parquet holds metrics {list(by_metric.index)}; "
                               f"{scenario.name} has {list(scenario.metrics)}")
        policies = {dp: spec[0] for dp, spec in json.loads(frame["policies"].iat[0]).items()}
        return Result(scenario, scenario.metrics, n=n, seed=int(frame["seed"].iat[0]),
                      sums=by_metric["total"].to_numpy(np.int64), sumsq=by_metric["total_sq"].to_numpy(np.int64),
                      policies=policies)

    def write(self, key, identity, result, columns):
        """Write a finished point atomically. ``columns``: extra per-point columns (parameters, policy axes)."""
        summary = result.summary()
        data = {"key": key, "n": result.n, "seed": identity["seed"], "romesim_version": identity["romesim_version"],
                "generator": identity["generator"], "params": json.dumps(identity["params"], sort_keys=True),
                "policies": json.dumps(identity["policies"], sort_keys=True), "metric": summary["metric"],
                "estimate": summary["estimate"], "ci_low": summary["ci_low"], "ci_high": summary["ci_high"],
                "total": result.sums, "total_sq": result.sumsq}
        for name, value in columns.items():
            if name in data:
                raise RomesimError(f"store: the column {name!r} is reserved; rename the axis")
            data[name] = value if isinstance(value, (bool, int, float, str)) else json.dumps(value, sort_keys=True)
        table = pa.Table.from_pandas(pd.DataFrame(data), preserve_index=False)
        return _write(table, self._folder(result.scenario.name) / f"{key}-n{result.n}.parquet")

    def outcomes(self, scenario, n, seed=0, *, policies=None, workers=None):
        """``simulate(scenario, n, seed, policies=policies, keep=True).outcomes``, kept in ``games/``: the games
        stored from game 0 on are read back, the rest played in pieces (``simulate(first=)``), each stored once
        played. The same outcomes as one run, game by game (the first k games of a run are a run of k)."""
        scenario, n = _as_scenario(scenario), _check_int("n", n, 1)
        key = point_key(point_identity(scenario, policies, seed))
        frames = self._stored_games(scenario.name, key, n)
        done = sum(len(f) for f in frames)
        piece = max(PIECE_MIN, -(-n // PIECES))
        for first in range(done, n, piece):
            count = min(piece, n - first)
            played = simulate(scenario, count, seed, policies=policies, keep=True, workers=workers, progress=False,
                              first=first).outcomes
            _write(pa.Table.from_pandas(played, preserve_index=False),
                   self._folder(scenario.name) / "games" / f"{key}-g{first}-n{count}.parquet")
            frames.append(played)
        frame = pd.concat(frames, ignore_index=True)
        frame.index.name = "game"
        return frame

    def _stored_games(self, scenario_name, key, n):
        """The stored per-game outcomes of ``key`` from game 0 on without a gap, at most ``n`` games, in pieces."""
        folder = self._folder(scenario_name) / "games"
        found = (_GAMES.match(p.name) for p in folder.iterdir()) if folder.is_dir() else ()
        pieces = sorted((int(m["first"]), int(m["n"]), m.string) for m in found if m and m["key"] == key)
        frames, end = [], 0
        for first, count, name in pieces:
            if end >= n or first > end:
                break
            if first + count > end:  # pieces of runs of other sizes may overlap
                frame = pd.read_parquet(folder / name)
                frames.append(frame.iloc[end - first:n - first])
                end = first + count
        return frames

    def remove_stale_partials(self):
        """Delete the partial files of killed processes (their pid is in the name); a live writer's stay."""
        for partial in self.path.glob("scenario=*/**/.*.partial"):
            pid = int(partial.name.rsplit(".", 2)[-2])
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                partial.unlink(missing_ok=True)
            except PermissionError:  # alive, another user's
                pass

    def files(self):
        return sorted(p for p in self.path.glob("scenario=*/*.parquet") if _FILE.match(p.name))

    def _connect(self):
        if not self.files():
            raise RomesimError(f"store: {str(self.path)!r} holds no results; run a sweep with store= this folder")
        import duckdb  # imported when needed (a slow import)
        con = duckdb.connect()
        pattern = str(self.path / "scenario=*" / "*.parquet").replace("'", "''")
        con.execute(f"CREATE VIEW results AS SELECT * FROM read_parquet('{pattern}', hive_partitioning = true, "
                    "union_by_name = true)")
        return con

    def query(self, sql):
        """Run ``sql`` (DuckDB dialect) over the table ``results``; returns a DataFrame."""
        import duckdb
        con = self._connect()
        try:
            return con.execute(sql).df()
        except duckdb.Error as exc:
            raise RomesimError(f"store query failed: {exc}") from None
        finally:
            con.close()

    def frame(self):
        """The whole ``results`` table, ordered by scenario, key, n and metric order within a point."""
        return self.query("SELECT * FROM results ORDER BY scenario, key, n")


def as_store(store):
    """``store`` as a ``Store``: a folder's, or itself; None stays None (no store)."""
    return None if store is None else store if isinstance(store, Store) else Store(store)


def query(sql, store=None):
    """``Store(store).query(sql)``; the default store is ``$ROMESIM_STORE`` or ``./romesim-store``."""
    return (store if isinstance(store, Store) else Store(store)).query(sql)


__all__ = ["Store", "query", "point_identity", "point_key", "default_path"]
