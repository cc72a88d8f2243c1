"""Skill versus luck: how much does playing well change the outcome of a game?

A game where the better player nearly always wins is a game of skill; one where the better player does no better
than a beginner is a game of luck. ``skill_luck`` measures where a scenario lies, with common random numbers: the
same games (same seed, so game g draws from the same dice stream) are played twice, once with the strong policy on
the rated side and once with the weak one, the opponent weak both times.
"""
import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.engine import _as_scenario, simulate
from ..core.errors import ScenarioError
from ..core.result import Z95, wilson


@dataclass(frozen=True)
class SkillLuck:
    """The skill index with its 95 % interval, the two probabilities it compares and the policies played."""

    index: float
    ci_low: float
    ci_high: float
    p_strong: float  # P(metric) with the strong policy against the weak opponent
    p_weak: float  # P(metric) weak against weak
    metric: str
    n: int
    seed: int
    strong_policies: dict
    weak_policies: dict

    def __repr__(self):
        return (f"SkillLuck({self.metric}: index {self.index:.4f} [{self.ci_low:.4f}, {self.ci_high:.4f}], "
                f"n={self.n:,} seed={self.seed})")

    def _repr_html_(self):
        return (f"<b>Skill index of {self.metric}</b>: {self.index:.4f} [{self.ci_low:.4f}, {self.ci_high:.4f}]"
                + self.summary().to_html(index=False))

    def summary(self):
        """One-row DataFrame: ``metric, index, ci_low, ci_high, p_strong, p_strong_low, p_strong_high, p_weak,
        p_weak_low, p_weak_high, n`` (Wilson intervals for the probabilities)."""
        hits_strong, hits_weak = round(self.p_strong * self.n), round(self.p_weak * self.n)
        strong_low, strong_high = wilson(hits_strong, self.n)
        weak_low, weak_high = wilson(hits_weak, self.n)
        return pd.DataFrame([{"metric": self.metric, "index": self.index, "ci_low": self.ci_low,
                              "ci_high": self.ci_high, "p_strong": self.p_strong, "p_strong_low": strong_low,
                              "p_strong_high": strong_high, "p_weak": self.p_weak, "p_weak_low": weak_low,
                              "p_weak_high": weak_high, "n": self.n}])


def skill_index(strong_outcomes, weak_outcomes):
    """``(index, ci_low, ci_high)`` from paired per-game 0/1 outcomes (game g of both arrays from the same dice).

    ``index = (a - b) / (1 - b)`` with ``a``, ``b`` the means of the strong and weak outcomes. Its interval is the
    delta method on the pairs: each game's influence ``psi_g = ((x_g - a) - (y_g - b) + index (y_g - b)) / (1 - b)``
    (the gradient of the index applied to the game's deviations), ``se = sd(psi) / sqrt(n)``, index +/- 1.96 se
    (the upper end capped at 1, which the index cannot exceed).
    Identical outcomes give psi = 0, so index 0 with a zero-width interval. A strong side that always (or never)
    succeeds also gives psi = 0; its interval is then the Wilson interval of ``a`` mapped through the index. When
    ``b = 1`` the index is undefined (NaN)."""
    x = np.asarray(strong_outcomes, np.float64)
    y = np.asarray(weak_outcomes, np.float64)
    if x.shape != y.shape or x.ndim != 1 or x.size == 0:
        raise ScenarioError("outcomes: expected two 1-D arrays of the same games")
    a, b = float(x.mean()), float(y.mean())
    if b == 1.0:
        return math.nan, math.nan, math.nan
    index = (a - b) / (1.0 - b)
    if x.size < 2:
        return index, math.nan, math.nan
    psi = ((x - a) - (y - b) + index * (y - b)) / (1.0 - b)
    half = Z95 * float(psi.std(ddof=1)) / math.sqrt(x.size)
    if half == 0 and not np.array_equal(x, y):
        # a strong side that won (or lost) every game makes every psi 0, but a is not known exactly: map its
        # Wilson interval through the index instead of reporting a zero-width interval
        low, high = wilson(int(round(x.sum())), x.size)
        return index, (low - b) / (1.0 - b), min((high - b) / (1.0 - b), 1.0)
    return index, index - half, min(index + half, 1.0)  # the index never exceeds 1


def _weak_policies(scenario, weak, base):
    if isinstance(weak, Mapping):
        return dict(weak)
    if not isinstance(weak, str):
        raise ScenarioError(f"weak: {weak!r} is not allowed; expected a built-in name or a policies mapping")
    chosen = {dp.name: weak for dp in scenario.decision_points if dp.name not in base and weak in dp.builtins}
    if not chosen:
        raise ScenarioError(f"weak: no decision point of {scenario.name} outside base offers the built-in {weak!r}; "
                            "give a policies mapping instead")
    return chosen


def skill_luck(scenario, strong, weak="random", n=None, seed=0, *, metric="p_win", base=None, workers=None):
    """The skill-versus-luck index of ``scenario`` for the side that ``strong`` plays.

    ``strong``: a policies mapping for the decision points of the rated side, e.g. Jugule side A
    ``romesim.jugule.policies.side_policies("a", "aggressive")``, or a whole mapping. ``weak``: a built-in name put
    on every decision point that offers it (both sides; points without it keep ``base`` or their default), or a
    policies mapping. ``base``: policies of the points neither mapping names (rule mechanisms, a fixed opponent).

    Two runs of the same ``n`` games from ``seed`` (common random numbers):

    * weak: ``{**base, **weak}``, giving ``p_weak = P(metric)`` (the weak player on the rated side);
    * strong: ``{**base, **weak, **strong}``, giving ``p_strong``.

    ``index = (p_strong - p_weak) / (1 - p_weak)``: the share of the weak player's non-wins that skill turns into
    wins. 0: skill makes no difference (pure luck; exactly 0 when strong plays as weak, the games being the same);
    1: the strong player always wins; negative: the "strong" policy does worse than the weak one. The 95 %
    interval is the delta method on the paired per-game outcomes (``skill_index``). ``metric``: a ``p_*`` metric
    of the scenario (1 = the rated side's success). Returns a ``SkillLuck``."""
    scenario = _as_scenario(scenario)
    if metric not in scenario.metrics or not metric.startswith("p_"):
        allowed = ", ".join(m for m in scenario.metrics if m.startswith("p_"))
        raise ScenarioError(f"metric: {metric!r} is not allowed; expected a probability metric of {scenario.name}: "
                            f"{allowed}")
    if not isinstance(strong, Mapping) or not strong:
        raise ScenarioError(f"strong: {strong!r} is not allowed; expected a non-empty policies mapping, e.g. "
                            "side_policies('a', 'default')")
    base = dict(base or {})
    weak_policies = {**base, **_weak_policies(scenario, weak, base)}
    strong_policies = {**weak_policies, **strong}
    outcomes = [simulate(scenario, n, seed, policies=p, workers=workers, keep=True).outcomes[metric].to_numpy()
                for p in (strong_policies, weak_policies)]
    index, low, high = skill_index(*outcomes)
    return SkillLuck(index, low, high, float(outcomes[0].mean()), float(outcomes[1].mean()), metric, int(n),
                     seed, strong_policies, weak_policies)


__all__ = ["SkillLuck", "skill_index", "skill_luck"]
