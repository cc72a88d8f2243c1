"""Balance reports for Vox Populi: seat advantage, bot win rates, card impact and bot ratings.

Every report plays ``vox_populi.game`` through ``romesim.simulate`` with per-game outcomes kept, and works on the
winners of each game (``p_win_seat<k>``: 1 for every seat among the winners, spec 8.4; a shared win gives each
winner an equal share of the game). Intervals are 95 %: Wilson for probabilities, mean +/- 1.96 standard errors
for shares and paired differences.

* ``seat_advantage``: win rate and win share per seat, and the share minus the fair 1/N.
* ``bot_win_rates``: bots at a mixed table, their seats rotated so that each bot sits at every seat equally often.
* ``card_impact``: each card against the same games with that card made inert (``inert_cards``: still shuffled
  and drawn at its place in the deck, never playable), with common random numbers: the same seed gives the same
  dice and the same shuffle, and every draw, the card's own included, stays where it was. A game differs only
  where holding the real card made a difference, so the paired differences measure the card's own effect, not the
  biased "win rate of the player who played it" (removing the card instead would move every later draw up one
  place and change about a third of all games whatever the card does).
* ``rate_bots``: a Bradley-Terry rating of bots (Elo scale, ``romesim.analysis.ratings``) from a round robin of
  mixed tables.
"""
import math

import numpy as np
import pandas as pd

from ..analysis.round_robin import round_robin
from ..core.engine import simulate
from ..core.errors import ScenarioError
from ..core.result import Z95, wilson
from .cards import CARD_NAMES
from .scenarios import Game
from .state import N_CARDS

POLITICIAN_KEYS = ("pompee", "crassus", "cesar", "antoine", "octave", "brutus")


def _scenario(scenario, params):
    if scenario is None:
        return Game.from_dict(params)
    if isinstance(scenario, str):
        scenario = Game.from_dict(params) if scenario == Game.name else None
    if not isinstance(scenario, Game):
        raise ScenarioError(f"scenario: expected a {Game.name} scenario, got {scenario!r}")
    return scenario.replace(**params) if params else scenario


def _check_n(n, at_least=1):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < at_least:
        raise ScenarioError(f"n: {n!r} is not allowed; expected an integer >= {at_least}")
    return int(n)


def _winners(result, players):
    """(games, players) 0/1 array: which seats are among the winners of each game."""
    return np.stack([result.outcomes[f"p_win_seat{s}"].to_numpy() for s in range(players)], axis=1).astype(np.int64)


def _shares(winners):
    """Each game's win split equally between its winners (spec 8.4: tied players share the win)."""
    count = winners.sum(axis=1, keepdims=True)
    return np.divide(winners, count, out=np.zeros(winners.shape), where=count > 0)


def mean_interval(values):
    """Mean of per-game values with its normal 95 % interval."""
    values = np.asarray(values, np.float64)
    mean = float(values.mean())
    if values.size < 2:
        return mean, math.nan, math.nan
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(values.size)
    return mean, mean - half, mean + half


def _policies(bots_by_seat, base):
    policies = dict(base or {})
    policies.update({f"seat{s}": bot for s, bot in enumerate(bots_by_seat)})
    return policies


# --------------------------------------------------------------------------- seats
def seat_advantage(scenario=None, n=20_000, seed=0, *, policies=None, workers=None, **params):
    """First-player and seat advantage: one row per seat with its win rate (Wilson interval), its share of the
    wins (ties split) and ``advantage`` = share - 1/N with its interval. ``frame.attrs`` holds n, seed, players and
    the share of games with a shared win."""
    game = _scenario(scenario, params)
    n = _check_n(n)
    result = simulate(game, n, seed, policies=policies, workers=workers, keep=True)
    winners = _winners(result, game.players)
    shares = _shares(winners)
    rows = []
    for s in range(game.players):
        wins = int(winners[:, s].sum())
        low, high = wilson(wins, n)
        share, share_low, share_high = mean_interval(shares[:, s])
        fair = 1.0 / game.players
        rows.append({"seat": s, "p_win": wins / n, "ci_low": low, "ci_high": high, "share": share,
                     "share_low": share_low, "share_high": share_high, "advantage": share - fair,
                     "advantage_low": share_low - fair, "advantage_high": share_high - fair})
    frame = pd.DataFrame(rows)
    frame.attrs.update(n=n, seed=seed, players=game.players, p_shared_win=float((winners.sum(axis=1) > 1).mean()))
    return frame


# --------------------------------------------------------------------------- bots
def _rotations(table, n, seed, game, policies, workers):
    """Play ``table`` (one bot per seat) in every seat rotation, ``n`` games each, on the same seeds; yields
    ``(bots by seat, winners array)``."""
    players = len(table)
    for r in range(players):
        seating = [table[(s + r) % players] for s in range(players)]
        result = simulate(game, n, seed, policies=_policies(seating, policies), workers=workers, keep=True)
        yield seating, _winners(result, players)


def bot_win_rates(bots, scenario=None, n=20_000, seed=0, *, policies=None, workers=None, **params):
    """Win rate of each bot at a mixed table of ``bots`` (one per seat, names of the built-ins of the seat
    decision points, e.g. ``["default", "random", "showman", "collector"]``), seats rotated so that each bot plays
    every seat for ``n // players`` games on the same seeds. One row per distinct bot: seat-games, win rate
    (Wilson) and share of the wins (ties split) with intervals."""
    game = _scenario(scenario, params)
    bots = list(bots)
    if len(bots) != game.players:
        raise ScenarioError(f"bots: {bots!r} has {len(bots)} entries; expected one per seat ({game.players})")
    per_rotation = _check_n(n, game.players) // game.players
    wins, shares, seats = {}, {}, {}
    for seating, winners in _rotations(bots, per_rotation, seed, game, policies, workers):
        split = _shares(winners)
        for s, bot in enumerate(seating):
            wins.setdefault(bot, []).append(winners[:, s])
            shares.setdefault(bot, []).append(split[:, s])
            seats[bot] = seats.get(bot, 0) + per_rotation
    rows = []
    for bot in dict.fromkeys(bots):
        won = np.concatenate(wins[bot])
        low, high = wilson(int(won.sum()), won.size)
        share, share_low, share_high = mean_interval(np.concatenate(shares[bot]))
        rows.append({"bot": bot, "seat_games": seats[bot], "p_win": float(won.mean()), "ci_low": low,
                     "ci_high": high, "share": share, "share_low": share_low, "share_high": share_high})
    frame = pd.DataFrame(rows)
    frame.attrs.update(n=per_rotation * game.players, seed=seed, players=game.players)
    return frame


def rate_bots(bots, scenario=None, n=4_000, seed=0, *, policies=None, workers=None, prior=1.0, **params):
    """Bradley-Terry rating (Elo scale, mean 0) of ``bots`` from a round robin of mixed tables
    (``romesim.analysis.round_robin``): every set of ``players`` distinct bots (all of them cycled around the table
    when there are fewer bots than seats), each in every seat rotation for ``n // players`` games. In each game a
    bot beats another when it is among the winners and the other is not; games where both or neither win say
    nothing about that pair. ``prior`` virtual wins each way keep ratings finite. One row per bot: rating with a
    95 % interval, decisive pairings, win rate."""
    game = _scenario(scenario, params)
    frame = round_robin(game, list(dict.fromkeys(bots)), n, seed, policies=policies, workers=workers, prior=prior)
    frame.attrs["players"] = game.players
    return frame


# --------------------------------------------------------------------------- cards
def _card_index(card):
    if isinstance(card, str):
        if card not in CARD_NAMES:
            raise ScenarioError(f"cards: unknown card {card!r}; expected a name of the card table (e.g. "
                                f"{CARD_NAMES[0]!r}) or an index 0..{N_CARDS - 1}")
        return CARD_NAMES.index(card)
    if isinstance(card, bool) or not isinstance(card, (int, np.integer)) or not 0 <= card < N_CARDS:
        raise ScenarioError(f"cards: {card!r} is not allowed; expected a card name or an index 0..{N_CARDS - 1}")
    return int(card)


def _emperor(result):
    columns = [f"p_emperor_{k}" for k in POLITICIAN_KEYS] + ["p_no_emperor"]
    return result.outcomes[columns].to_numpy().argmax(axis=1)


def card_impact(cards=None, scenario=None, n=5_000, seed=0, *, metric="p_win", policies=None, workers=None,
                **params):
    """What each card changes, from the same ``n`` games (same seed: same shuffle, same dice) played with the card
    and with the card made inert at the same place in the deck (``inert_cards``: drawn, never playable). One row per
    card of ``cards`` (names or indices; default every card in the deck):

    * ``changed``: share of games whose set of winners differs (Wilson interval): how much the card matters;
    * ``emperor_changed``: share of games with another Emperor (or none);
    * ``delta``: mean of ``metric`` with the card minus without it, per game, with its paired interval
      (default ``p_win``: seat 0's win; any metric of the game, e.g. ``turns``, ``assassinations``).

    A game in which the card is never playable is the same game both ways, so a card that is already inert (or
    never drawn) has rows of exactly 0. Sorted by ``changed``, most influential first."""
    game = _scenario(scenario, params)
    n = _check_n(n)
    if metric not in game.metrics:
        raise ScenarioError(f"metric: {metric!r} is not a metric of {game.name}; metrics: {', '.join(game.metrics)}")
    in_deck = [c for c in range(N_CARDS) if game.deck_copies[c] > 0]
    chosen = in_deck if cards is None else [_card_index(c) for c in cards]
    for c in chosen:
        if game.deck_copies[c] == 0:
            raise ScenarioError(f"cards: {CARD_NAMES[c]!r} is not in this scenario's deck (deck_copies[{c}] = 0)")
    base = simulate(game, n, seed, policies=policies, workers=workers, keep=True)
    base_winners, base_emperor = _winners(base, game.players), _emperor(base)
    base_metric = base.outcomes[metric].to_numpy().astype(np.float64)
    rows = []
    for c in chosen:
        inert = list(game.inert_cards)
        inert[c] = 1
        other = simulate(game.replace(inert_cards=inert), n, seed, policies=policies, workers=workers, keep=True)
        changed = int(np.any(_winners(other, game.players) != base_winners, axis=1).sum())
        emperor_changed = int((_emperor(other) != base_emperor).sum())
        delta, delta_low, delta_high = mean_interval(base_metric - other.outcomes[metric].to_numpy())
        low, high = wilson(changed, n)
        e_low, e_high = wilson(emperor_changed, n)
        rows.append({"card": c, "name": CARD_NAMES[c], "changed": changed / n, "changed_low": low,
                     "changed_high": high, "emperor_changed": emperor_changed / n, "emperor_low": e_low,
                     "emperor_high": e_high, "delta": delta, "delta_low": delta_low, "delta_high": delta_high})
    frame = pd.DataFrame(rows).sort_values("changed", ascending=False, ignore_index=True)
    frame.attrs.update(n=n, seed=seed, players=game.players, metric=metric)
    return frame


__all__ = ["seat_advantage", "bot_win_rates", "card_impact", "rate_bots", "mean_interval"]
