"""Tuned strategies: the parameter vector of a parametric bot that answers the other players' policies best.

``tune`` searches the vector with optuna (TPE, seeded): each trial plays the same ``n`` games (the same seed: common
random numbers, so two vectors are compared on the same dice and the search is not led by luck), and the objective
is a metric's mean, or any function of the per-game outcomes. Reproducible: the same arguments give the same trials.
The best trial's value is measured on the games it was chosen on, so it flatters the vector a little: judge the
tuned bot on games of another seed (``simulate(scenario, n, other_seed, policies=tuned.policies)``).
"""
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.engine import _as_scenario, _check_int, simulate
from ..core.errors import PolicyError, ScenarioError
from ..core.result import Z95


@dataclass(frozen=True)
class Tuned:
    """``policies``: the best vector as a policies mapping; ``value`` its objective (``ci``: its 95 % interval on
    the tuning games); ``trials``: one row per trial (the vector, the objective)."""
    policies: dict
    value: float
    ci: tuple
    trials: pd.DataFrame


def _space(scenario, space, builtin):
    points = {dp.name: dp for dp in scenario.decision_points}
    bounds = []
    for point, params in space.items():
        if point not in points:
            raise PolicyError(f"space: unknown decision point {point!r}; allowed: {', '.join(points)}")
        dp = points[point]
        if builtin not in dp.builtins:
            raise PolicyError(f"space[{point!r}]: {builtin!r} is no built-in of {point!r}; built-ins: "
                              f"{', '.join(dp.builtins)}")
        names = dp.builtins[builtin].params
        for name, bound in params.items():
            if name not in names:
                raise PolicyError(f"space[{point!r}]: {builtin!r} has no parameter {name!r}; its parameters: "
                                  f"{', '.join(names) or 'none'}")
            low, high = bound
            if not (np.isfinite(low) and np.isfinite(high) and low < high):
                raise PolicyError(f"space[{point!r}][{name!r}]: {bound!r}; expected (low, high) with low < high")
            bounds.append((point, name, float(low), float(high)))
    if not bounds:
        raise PolicyError("space: expected at least one parameter to tune, {point: {parameter: (low, high)}}")
    return bounds


def _objective_values(scenario, objective):
    if callable(objective):
        return objective
    if objective not in scenario.metrics:
        raise ScenarioError(f"objective: {objective!r} is no metric of {scenario.name}; metrics: "
                            f"{', '.join(scenario.metrics)}")
    return lambda outcomes: outcomes[objective].to_numpy(np.float64)


def tune(scenario, space, objective="p_win", budget=40, seed=0, *, n=2_000, builtin="parametric", policies=None,
         workers=None):
    """The vector of ``builtin`` at the points of ``space`` (``{point: {parameter: (low, high)}}``) that
    maximises ``objective`` (a metric, or ``f(outcomes) -> per-game values``) against ``policies`` (the other
    points), in ``budget`` optuna trials of ``n`` games each on the same dice. Parameters a point's built-in has
    and ``space`` leaves out keep their defaults. Returns a ``Tuned``."""
    import optuna

    game = _as_scenario(scenario)
    bounds = _space(game, space, builtin)
    values = _objective_values(game, objective)
    budget = _check_int("budget", budget, 1)
    n = _check_int("n", n, 2)
    points = {dp.name: dp for dp in game.decision_points}

    def policies_of(vector):
        chosen = dict(policies or {})
        for point in dict.fromkeys(p for p, _, _, _ in bounds):
            b = points[point].builtins[builtin]
            row = dict(zip(b.params, b.defaults))
            row.update({name: vector[(p, name)] for p, name, _, _ in bounds if p == point})
            chosen[point] = (builtin, [row[name] for name in b.params])
        return chosen

    def play(vector):
        outcomes = simulate(game, n, seed, policies=policies_of(vector), keep=True, workers=workers,
                            progress=False).outcomes
        return np.asarray(values(outcomes), np.float64)

    def trial_value(trial):
        vector = {(p, name): trial.suggest_float(f"{p}.{name}", low, high) for p, name, low, high in bounds}
        return float(play(vector).mean())

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed))
    study.optimize(trial_value, n_trials=budget)
    best = {(p, name): study.best_params[f"{p}.{name}"] for p, name, _, _ in bounds}
    x = play(best)
    half = Z95 * x.std(ddof=1) / np.sqrt(x.size)
    trials = study.trials_dataframe(attrs=("number", "value", "params"))
    return Tuned(policies_of(best), float(x.mean()), (float(x.mean() - half), float(x.mean() + half)), trials)


__all__ = ["Tuned", "tune"]
