"""Bot ladders: Bradley-Terry ratings, with intervals, of random play, every heuristic and preset, and the search
bots at rising budgets (``romesim.core.search``).

A game whose seats play alike (``Scenario.seats()``: Vox Populi's seats, Jugule's two gladiators, each seat's points
the same but for the prefix) is rated by a round robin (``round_robin``: every seating, the same dice in every
seat). Any other game is rated from its first seat, the others keeping their policies (the Kings of Rome battle:
Rome against the rules' NR bot, ``nr_rules``; a Semper Victor usurpation: its one player): every bot plays the same
games (the same seed, so the same dice up to the first decision they take differently), and bot ``i`` beats bot
``j`` in a game its score there is higher (the score: 1 a win, 0 a loss, 1/2 neither); a game both score alike
says nothing about the pair.
"""
import numpy as np
import pandas as pd

from ..core.engine import _as_scenario, _check_int, simulate
from ..core.errors import PolicyError, ScenarioError
from ..core.policy import SEARCH_CODES
from .ratings import rate_round_robin
from .round_robin import _seat_policies, round_robin

SEARCH_BOTS = ("ismcts", "flat_mc")


def player_points(scenario, seat=None):
    """The decision points a bot plays: those of ``seat`` (default: the scenario's first seat; all but the
    procedure hooks in a scenario without seats)."""
    points = [dp for dp in scenario.decision_points if not dp.hook]
    seats = tuple(scenario.seats())
    seat = seat if seat is not None else (seats[0] if seats else None)
    if seat is None:
        return points
    owned = seat.point_names(scenario.decision_points)
    return [dp for dp in points if dp.name in owned]


def alike(scenario):
    """Whether the scenario's seats (two or more) decide the same points under their own prefixes, so a bot may
    sit in any of them."""
    seats = tuple(scenario.seats())
    if len(seats) < 2 or any(seat.side for seat in seats):
        return False
    names = [{dp.name[len(seat.prefix):] for dp in player_points(scenario, seat)} for seat in seats]
    return all(n == names[0] for n in names) and bool(seats[0].prefix)


def default_bots(scenario, budgets=(16, 64, 256), search="ismcts"):
    """``{name: bot}``: every built-in the player's points all have but the searches (random, the heuristics and
    presets), then ``search`` at each budget (``"ismcts 64"``)."""
    if search not in SEARCH_BOTS:
        raise PolicyError(f"search: {search!r} is not allowed; expected one of {', '.join(SEARCH_BOTS)}")
    if any(seat.side for seat in scenario.seats()):
        raise ScenarioError(f"{scenario.name}: its seats share decision points (the state tells whose a decision "
                            "is), so a bot would play every seat; a ladder needs each seat's own points")
    points = player_points(scenario)
    if not points:
        raise ScenarioError(f"{scenario.name}: no decision point a bot plays")
    if any(search not in dp.builtins for dp in points):
        raise ScenarioError(f"{scenario.name}: its decisions cannot be searched (the search bots play whole games "
                            "written as state machines)")
    common = [b for b in points[0].builtins if all(b in dp.builtins for dp in points)
              and points[0].builtins[b].code not in SEARCH_CODES]
    prefix = scenario.seats()[0].prefix if alike(scenario) else ""
    bots = {name: name for name in common}
    for budget in budgets:
        budget = _check_int("budgets", budget, 1)
        bots[f"{search} {budget}"] = {dp.name[len(prefix):]: (search, {"budget": budget}) for dp in points}
    return bots


def ladder(scenario, bots=None, n=2_000, seed=0, *, budgets=(16, 64, 256), search="ismcts", policies=None,
           workers=None, prior=1.0):
    """Rate ``bots`` (default: ``default_bots(scenario, budgets, search)``) in ``scenario``, strongest first.

    A bot is a built-in's name (played at every point of the player that has it) or a mapping ``{point:
    policy}`` (points named without the seat's prefix in a game whose seats play alike). ``n``: games per seating
    (a round robin) or per bot (one seat rated). Columns: ``bot, rating, ci_low, ci_high`` (Bradley-Terry on the
    Elo scale, mean 0, 95 % intervals), ``decisive`` (the games that told it apart from another bot), ``p_win``
    (its win rate), and ``budget`` (a search's playouts or iterations, else NaN)."""
    game = _as_scenario(scenario)
    if not game.seats():
        raise ScenarioError(f"{game.name}: a ladder rates the bots of a game's seats; this scenario declares none")
    if bots is None:
        bots = default_bots(game, budgets, search)
    elif not isinstance(bots, dict):
        bots = {name: name for name in bots}
    if alike(game):
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
    seat = game.seats()[0]
    placed = {name: {**(policies or {}), **_seat_policies(game, seat, bots[name])} for name in names}
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


__all__ = ["ladder", "default_bots", "player_points", "alike", "score"]
