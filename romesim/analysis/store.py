"""The results store: one Parquet file per finished sweep point, queryable with SQL.

Layout (hive-partitioned, no server)::

    STORE/scenario=jugule.duel/3f9c0a1b2c4d5e6f-n20000.parquet

The file name is the point's key (a hash of the scenario with every parameter, the policies, the seed, the
romesim version and the dice generator) and its game count. A file is written to a temporary name and renamed
into place, so a killed process leaves either the whole file or none: a rerun of the sweep finds every finished
point and plays only the rest. The table ``results`` holds one row per (stored point, metric) with the exact
integer sums (``total``, ``total_sq``) from which each point's Result is rebuilt.
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

from ..core.errors import RomesimError
from ..core.result import Result

DEFAULT_ENV = "ROMESIM_STORE"
DEFAULT_FOLDER = "romesim-store"
COLUMNS = ("key", "n", "seed", "romesim_version", "generator", "params", "policies", "metric", "estimate", "ci_low",
           "ci_high", "total", "total_sq")
_FILE = re.compile(r"^(?P<key>[0-9a-f]{16})-n(?P<n>\d+)\.parquet$")


def default_path():
    return Path(os.environ.get(DEFAULT_ENV, DEFAULT_FOLDER))


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
        folder = self._folder(result.scenario.name)
        folder.mkdir(parents=True, exist_ok=True)
        final = folder / f"{key}-n{result.n}.parquet"
        partial = folder / f".{final.name}.{os.getpid()}.partial"
        pq.write_table(table, partial)
        os.replace(partial, final)
        return final

    def remove_stale_partials(self):
        """Delete the partial files of killed processes (their pid is in the name); a live writer's stay."""
        for partial in self.path.glob("scenario=*/.*.partial"):
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


def query(sql, store=None):
    """``Store(store).query(sql)``; the default store is ``$ROMESIM_STORE`` or ``./romesim-store``."""
    return (store if isinstance(store, Store) else Store(store)).query(sql)


__all__ = ["Store", "query", "point_key", "default_path"]
