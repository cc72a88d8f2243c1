"""Bot ladders: Bradley-Terry ratings, with intervals, of random play, every heuristic and preset, and the search
bots at rising budgets (``romesim.core.search``).

A game with seats (``Scenario.seats()``: Vox Populi's seats, Jugule's two gladiators) is rated by a round robin
(``round_robin``: every seating, the same dice in every seat). A solo game (the Kings of Rome battle against the
rules' NR bot, a Semper Victor usurpation) pairs the bots game by game instead: every bot plays the same games
(the same seed, so the same dice up to the first decision they take differently), and bot ``i`` beats bot ``j``
in a game its score there is higher (the score: 1 a win, 0 a loss, 1/2 neither); a game both score alike says
nothing about the pair.
"""
import numpy as np
import pandas as pd

from ..core.engine import _as_scenario, _check_int, simulate
from ..core.errors import PolicyError, ScenarioError
from ..core.policy import SEARCH_CODES
from .ratings import rate_round_robin
from .round_robin import round_robin

SEARCH_BOTS = ("ismcts", "flat_mc")


def player_points(scenario, seat=None):
    """The decision points a bot plays: a seat's (its prefix), or in a solo game those with a ``random`` built-in
    (the rules' own decisions, such as the battle's ``nr_tactic``, have none)."""
    points = [dp for dp in scenario.decision_points if not dp.hook]
    if seat is not None:
        return [dp for dp in points if dp.name.startswith(seat.prefix)]
    return [dp for dp in points if "random" in dp.builtins]


def default_bots(scenario, budgets=(16, 64, 256), search="ismcts"):
    """``{name: bot}``: every built-in the player's points all have but the searches (random, the heuristics and
    presets), then ``search`` at each budget (``"ismcts 64"``)."""
    if search not in SEARCH_BOTS:
        raise PolicyError(f"search: {search!r} is not allowed; expected one of {', '.join(SEARCH_BOTS)}")
    seats = tuple(scenario.seats())
    points = player_points(scenario, seats[0] if len(seats) >= 2 else None)
    if not points:
        raise ScenarioError(f"{scenario.name}: no decision point a bot plays")
    if any(search not in dp.builtins for dp in points):
        raise ScenarioError(f"{scenario.name}: its decisions cannot be searched (the search bots play whole games "
                            "written as state machines)")
    common = [b for b in points[0].builtins if all(b in dp.builtins for dp in points)
              and points[0].builtins[b].code not in SEARCH_CODES]
    prefix = seats[0].prefix if len(seats) >= 2 else ""
    bots = {name: name for name in common}
    for budget in budgets:
        budget = _check_int("budgets", budget, 1)
        bots[f"{search} {budget}"] = {dp.name[len(prefix):]: (search, {"budget": budget}) for dp in points}
    return bots


def ladder(scenario, bots=None, n=2_000, seed=0, *, budgets=(16, 64, 256), search="ismcts", policies=None,
           workers=None, prior=1.0):
    """Rate ``bots`` (default: ``default_bots(scenario, budgets, search)``) in ``scenario``, strongest first.

    A bot is a built-in's name (played at every point of the player that has it) or a mapping ``{point:
    policy}`` (points named without the seat's prefix in a game with seats). ``n``: games per seating (seats) or
    per bot (solo). Columns: ``bot, rating, ci_low, ci_high`` (Bradley-Terry on the Elo scale, mean 0, 95 %
    intervals), ``decisive`` (the games that told it apart from another bot), ``p_win`` (its win rate), and
    ``budget`` (a search's playouts or iterations, else NaN)."""
    game = _as_scenario(scenario)
    if bots is None:
        bots = default_bots(game, budgets, search)
    elif not isinstance(bots, dict):
        bots = {name: name for name in bots}
    seats = tuple(game.seats())
    if len(seats) >= 2:
        frame = round_robin(game, bots, n, seed, policies=policies, workers=workers, prior=prior)
    else:
        frame = _solo(game, bots, n, seed, policies, workers, prior)
    frame["budget"] = frame["bot"].map(lambda b: _budget(bots[b]))
    frame.attrs.update(scenario=game.name, search=search)
    return frame


def _budget(bot):
    budgets = {spec[1].get("budget") for spec in (bot.values() if isinstance(bot, dict) else ())
               if isinstance(spec, tuple) and spec[0] in SEARCH_BOTS and isinstance(spec[1], dict)}
    return float(budgets.pop()) if len(budgets) == 1 else np.nan


def _solo_policies(scenario, bot):
    points = player_points(scenario)
    if isinstance(bot, str):
        chosen = {dp.name: bot for dp in points if bot in dp.builtins}
        if not chosen:
            raise PolicyError(f"bots: {bot!r} is no built-in of the player's decision points "
                              f"({', '.join(dp.name for dp in points)})")
        return chosen
    if isinstance(bot, dict):
        return dict(bot)
    raise PolicyError(f"bots: {bot!r}; expected a built-in's name or a mapping of decision point to policy")


def score(scenario, outcomes):
    """Each game's score for the player: 1 a win, 0 a loss, 1/2 neither (``p_win``, and ``p_loss`` where the
    scenario has it)."""
    win = outcomes["p_win"].to_numpy(np.float64)
    if "p_loss" in scenario.metrics:
        return win + 0.5 * (1.0 - win - outcomes["p_loss"].to_numpy(np.float64))
    return win


def _solo(game, bots, n, seed, policies, workers, prior):
    names = list(bots)
    if len(names) < 2:
        raise ScenarioError(f"bots: {names!r}; expected at least two distinct bots to rate")
    placed = {name: {**(policies or {}), **_solo_policies(game, bots[name])} for name in names}
    scores, wins_rate = [], {}
    for name in names:
        outcomes = simulate(game, n, seed, policies=placed[name], workers=workers, keep=True, progress=False).outcomes
        scores.append(score(game, outcomes))
        wins_rate[name] = float(outcomes["p_win"].mean())
    wins = np.array([[(a > b).sum() for b in scores] for a in scores], np.int64)
    rated = rate_round_robin(pd.DataFrame(wins, index=names, columns=names), prior)
    frame = rated.rename(columns={"player": "bot", "games": "decisive"})
    frame["p_win"] = frame["bot"].map(wins_rate)
    frame.attrs.update(wins=wins.tolist(), games=n, seed=seed)
    return frame


__all__ = ["ladder", "default_bots", "player_points", "score"]
