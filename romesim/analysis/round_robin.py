"""A round robin of bots for any game with two or more seats, rated by Bradley-Terry.

A scenario that has seats says so with ``seats()``: one ``Seat`` per player, naming the decision points that
player decides (``prefix`` + the point's own name, or a list) and the per-game 0/1 metric that says the seat
won. Every set of ``players`` distinct bots (all of them cycled around the table when there are fewer bots than
seats) plays in every seat rotation, ``n // players`` games each, from the same seed: each bot meets the same dice
in every seat, and a seat advantage cancels out. In a game a bot beats another when its seat won and the other's
did not; games that both or neither won say nothing about that pair.
"""
import itertools
import numpy as np
import pandas as pd

from ..core.engine import _as_scenario, _check_int, simulate
from ..core.errors import PolicyError, ScenarioError
from ..core.scenario import Seat
from .ratings import rate_round_robin


def _seat_policies(scenario, seat, bot):
    """The ``policies`` entries that put ``bot`` in ``seat``: a built-in's name at every point of the seat that
    has it, a mapping ``{point name without the prefix: policy}``, or any policy for a seat of one point."""
    owned = seat.point_names(scenario.decision_points)
    points = [dp for dp in scenario.decision_points if dp.name in owned]
    if len(points) == 1 and not isinstance(bot, dict):
        return {points[0].name: bot}
    if isinstance(bot, str):
        chosen = {dp.name: bot for dp in points if bot in dp.builtins}
        if not chosen:
            raise PolicyError(f"bots: {bot!r} is no built-in of seat {seat.name}'s decision points "
                              f"({', '.join(dp.name for dp in points)})")
        return chosen
    if isinstance(bot, dict):
        chosen = {seat.prefix + point: policy for point, policy in bot.items()}
        for name in chosen:
            if name not in owned:
                raise PolicyError(f"bots: {name!r} is no decision point of seat {seat.name} "
                                  f"({', '.join(owned)})")
        return chosen
    raise PolicyError(f"bots: {bot!r}; expected a built-in's name or a mapping of decision point to policy")


def round_robin(scenario, bots, n=4_000, seed=0, *, policies=None, workers=None, prior=1.0):
    """Rate ``bots`` (``{name: bot}``, or a list of built-in names) by a round robin in ``scenario``.

    A bot is a built-in's name, used at every decision point of its seat that has such a built-in, a mapping
    ``{point: policy}`` with the points named without the seat's prefix, or any policy (a ``(name, vector)`` pair,
    an ``@numba.njit`` function) when a seat decides at one point only (``{"attack": "aggressive"}`` is
    ``a_attack`` in seat A, ``b_attack`` in seat B). ``policies`` sets the points no bot sets. One row per bot,
    strongest first: ``bot, rating, ci_low, ci_high`` (Elo scale, mean 0, 95 % intervals), ``decisive`` (the
    games that told it apart from another bot) and ``p_win`` (its seats' win rate). ``attrs`` hold the ``wins``
    table, the tables played and the games per seating."""
    game = _as_scenario(scenario)
    seats = tuple(game.seats())
    if len(seats) < 2:
        raise ScenarioError(f"{game.name}: a round robin needs a game with two or more seats; this scenario "
                            "declares none")
    owned = [set(seat.point_names(game.decision_points)) for seat in seats]
    if any(a & b for a, b in itertools.combinations(owned, 2)):
        raise ScenarioError(f"{game.name}: its seats share decision points (the state tells whose a decision is), "
                            "so a policy would play every seat; a round robin needs each seat's own points")
    if not isinstance(bots, dict):
        bots = {name: name for name in bots}
    names = list(bots)
    if len(names) < 2:
        raise ScenarioError(f"bots: {names!r}; expected at least two distinct bots to rate")
    placed = {(seat, bot): _seat_policies(game, seat, bots[bot]) for bot in names for seat in seats}  # checks all
    players = len(seats)
    per_seating = _check_int("n", n, players) // players
    tables = (list(itertools.combinations(names, players)) if len(names) >= players
              else [tuple(names[s % len(names)] for s in range(players))])
    index = {b: i for i, b in enumerate(names)}
    wins = np.zeros((len(names), len(names)), np.int64)
    won, played = np.zeros(len(names), np.int64), np.zeros(len(names), np.int64)
    for table in tables:
        for r in range(players):
            seating = [table[(s + r) % players] for s in range(players)]
            chosen = dict(policies or {})
            for seat, bot in zip(seats, seating):
                chosen.update(placed[seat, bot])
            outcomes = simulate(game, per_seating, seed, policies=chosen, workers=workers, keep=True,
                                progress=False).outcomes
            winners = np.stack([outcomes[seat.win].to_numpy() for seat in seats], axis=1).astype(np.int64)
            for a in range(players):
                won[index[seating[a]]] += winners[:, a].sum()
                played[index[seating[a]]] += per_seating
                for b in range(players):
                    if seating[a] != seating[b]:
                        wins[index[seating[a]], index[seating[b]]] += int((winners[:, a] & (1 - winners[:, b])).sum())
    rated = rate_round_robin(pd.DataFrame(wins, index=names, columns=names), prior)
    frame = rated.rename(columns={"player": "bot", "games": "decisive"})
    frame["p_win"] = frame["bot"].map(dict(zip(names, won / played)))
    frame.attrs.update(wins=wins.tolist(), tables=len(tables), games_per_seating=per_seating, seed=seed,
                       seats=[s.name for s in seats])
    return frame


__all__ = ["Seat", "round_robin"]  # Seat from core, where games declare their seats
