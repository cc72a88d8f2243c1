"""How far a scenario is from an even game, for games that always have a winner and for games that may have none.

A game reporting only ``p_win`` (one side wins or the other) is even when ``p_win`` is 0.5. A game reporting both
sides' wins, ``p_win`` and ``p_loss`` (``Scenario.loss_metric``), may end with neither: a battle won by nobody 60 %
of the time has ``p_win`` near 0.2 however even it is, so ``|p_win - 0.5|`` would call the most lopsided variant the
fairest. Its fairness is measured by the ``edge``, ``p_win - p_loss`` (0: even; +1: the first side always wins),
with the interval of the per-game value ``win - loss`` in {-1, 0, 1}. The two outcomes are exclusive, so the sums
of ``p_win`` and ``p_loss`` alone give its variance: sum(e) = wins - losses and sum(e**2) = wins + losses.
"""
import math

from ..core.errors import ScenarioError
from ..core.result import mean_interval

EDGE = "edge"
EDGE_TEXT = "p_win − p_loss"


def loss_metric(scenario):
    """``"p_loss"`` for a scenario (or class) that reports both sides' wins, else None."""
    return scenario.loss_metric()


def fairness_metric(scenario):
    """The metric whose distance from its even value measures fairness: ``edge`` when the game reports both
    sides' wins, else ``p_win`` (else the scenario's first probability, else None)."""
    if loss_metric(scenario):
        return EDGE
    if "p_win" in scenario.metrics:
        return "p_win"
    return next((m for m in scenario.metrics if m.startswith("p_")), None)


def even_value(scenario, metric, target=None):
    """The value of ``metric`` in an even game: ``target`` if given, 0 for the edge, 0.5 for a probability of a
    game with two outcomes; a ScenarioError for anything else (a mean, or one outcome of three)."""
    if target is not None:
        if isinstance(target, bool) or not isinstance(target, (int, float)) or not math.isfinite(target):
            raise ScenarioError(f"target: {target!r} is not allowed; expected a finite number")
        return float(target)
    if metric == EDGE:
        return 0.0
    if metric.startswith("p_") and not loss_metric(scenario):
        return 0.5
    why = ("one outcome of a game that may have no winner (compare p_win − p_loss: metric 'edge')"
           if metric.startswith("p_") else "a mean, with no even value")
    raise ScenarioError(f"metric: {metric!r} of {scenario.name} is {why}; give target= for a distance from a value "
                        f"of your choice, or use {fairness_metric(scenario)!r}")


def edge_interval(wins, losses, n):
    """``(edge, ci_low, ci_high)`` from the game count and the numbers of wins and losses (exclusive outcomes)."""
    wins, losses = int(wins), int(losses)
    return mean_interval(wins - losses, wins + losses, n)


def result_edge(result):
    """``(edge, ci_low, ci_high)`` of a Result of a scenario reporting both sides' wins (exact: the value)."""
    loss = loss_metric(result.scenario)
    if loss is None:
        raise ScenarioError(f"{result.scenario.name} reports no p_loss; its fairness is p_win's distance from 0.5")
    if result.is_exact:
        value = float(result.exact_values["p_win"] - result.exact_values[loss])
        return value, value, value
    i, j = result.metrics.index("p_win"), result.metrics.index(loss)
    return edge_interval(result.sums[i], result.sums[j], result.n)


__all__ = ["EDGE", "EDGE_TEXT", "loss_metric", "fairness_metric", "even_value", "edge_interval", "result_edge"]
