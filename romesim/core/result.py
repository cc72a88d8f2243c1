"""Results: integer sums of per-game outcomes turned into estimates with intervals.

Metrics named ``p_*`` are probabilities (Wilson 95 % interval); every other metric is a mean with a
mean +/- 1.96 standard-error interval. Exact results carry the values themselves (``ci_low == ci_high``).
"""
import math
from fractions import Fraction

import numpy as np
import pandas as pd

Z95 = 1.959963984540054


def wilson(successes, n, z=Z95):
    if n == 0:
        return math.nan, math.nan
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # at 0 or n successes the bound is exactly 0 or 1; the subtraction would leave rounding dust
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def mean_interval(total, total_sq, n, z=Z95):
    """Mean and its normal interval from exact integer sums (Python integers: no overflow, no rounding drift)."""
    total, total_sq = int(total), int(total_sq)
    mean = total / n
    if n < 2:
        return mean, math.nan, math.nan
    var = Fraction(total_sq * n - total * total, n * (n - 1))
    half = z * math.sqrt(float(var) / n)
    return mean, mean - half, mean + half


class Result:
    """The outcome of ``romesim.simulate`` or ``romesim.exact``.

    ``summary()`` is the tidy table (metric, estimate, ci_low, ci_high, n); ``result["p_win"]`` the estimate;
    ``outcomes`` the per-game table when the run was made with ``keep=True``; ``to_dict()`` is JSON-ready.
    """

    def __init__(self, scenario, metrics, *, n=None, seed=None, sums=None, sumsq=None, exact=None,
                 outcomes=None, policies=None, generator=None, policy_specs=None):
        self.scenario = scenario
        self.metrics = tuple(metrics)
        self.n = n
        self.seed = seed
        self.sums = None if sums is None else np.asarray(sums, np.int64)
        self.sumsq = None if sumsq is None else np.asarray(sumsq, np.int64)
        self.exact_values = exact  # {metric: Fraction} for exact results
        self.policies = dict(policies or {})
        self.policy_specs = policy_specs  # the policies as given to simulate (traces replay them)
        self.generator = generator
        self._outcomes = outcomes

    @property
    def is_exact(self):
        return self.exact_values is not None

    @property
    def outcomes(self):
        if self._outcomes is None:
            raise AttributeError("per-game outcomes were not kept; run simulate(..., keep=True)")
        return self._outcomes

    def _row(self, i, metric):
        if self.is_exact:
            value = float(self.exact_values[metric])
            return value, value, value
        s, n = int(self.sums[i]), self.n
        if metric.startswith("p_"):
            low, high = wilson(s, n)
            return s / n, low, high
        return mean_interval(s, self.sumsq[i], n)

    def typical_game(self, metric=None):
        """The kept game whose ``metric`` (default: the headline) is closest to its mean, as a ``romesim.trace``."""
        from .trace import typical_game
        return typical_game(self, metric)

    def summary(self):
        rows = [(m, *self._row(i, m), None if self.is_exact else self.n) for i, m in enumerate(self.metrics)]
        frame = pd.DataFrame(rows, columns=["metric", "estimate", "ci_low", "ci_high", "n"])
        frame["n"] = frame["n"].astype("Int64")
        return frame

    def estimate(self, metric):
        return self._row(self._index(metric), metric)[0]

    def interval(self, metric):
        return self._row(self._index(metric), metric)[1:]

    def __getitem__(self, metric):
        return self.estimate(metric)

    def _index(self, metric):
        try:
            return self.metrics.index(metric)
        except ValueError:
            raise KeyError(f"{metric!r} is not a metric of {self.scenario.name}; metrics: "
                           f"{', '.join(self.metrics)}") from None

    def to_dict(self):
        metrics = {}
        for i, m in enumerate(self.metrics):
            est, low, high = self._row(i, m)
            metrics[m] = {"estimate": _json_float(est), "ci_low": _json_float(low), "ci_high": _json_float(high)}
        out = {"scenario": self.scenario.name, "params": self.scenario.to_dict(), "n": self.n, "seed": self.seed,
               "policies": self.policies, "generator": self.generator, "metrics": metrics}
        if self.scenario.data_source is not None:
            out["data"] = self.scenario.data_source
        return out

    def __repr__(self):
        head = f"{self.scenario.name}  " + ("exact" if self.is_exact else f"n={self.n:,} seed={self.seed}")
        return head + "\n" + self.summary().to_string(index=False)

    def _repr_html_(self):
        head = f"<b>{self.scenario.name}</b> " + ("exact" if self.is_exact else f"n={self.n:,} seed={self.seed}")
        return head + self.summary().to_html(index=False)


def _json_float(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)
