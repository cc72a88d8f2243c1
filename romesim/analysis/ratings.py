"""Ratings of players, bots or gladiator types from the games they played against each other.

* ``bradley_terry`` (with ``bt_standard_errors``): the recommended rating. P(i beats j) = s_i / (s_i + s_j); the
  maximum-likelihood strengths depend only on how often each pair met and who won, never on the order of the
  games. ``rate_round_robin`` and ``rate_matchups`` report it on the Elo scale (``ELO * log strength``, mean 0)
  with a 95 % interval.
* ``elo``: the classic sequential update. Each game moves the two ratings by ``k * (score - expected)``, so the
  result depends on the order of the games (the last games weigh most); it is offered for comparison with
  published Elo tables, not as the estimate.
* ``openskill_ratings``: Plackett-Luce ratings (the ``openskill`` library) for multiplayer tables whose result is a
  ranking with ties; also sequential, so order-dependent in the same way.
"""
import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..core.errors import ScenarioError
from ..core.result import Z95

ELO = 400.0 / math.log(10.0)  # Elo points per unit of log-strength: 10 ** (400 / 400) = e ** (400 / ELO)
GAME_COLUMNS = ("player_a", "player_b", "score_a")
SCORES = (0.0, 0.5, 1.0)


def bradley_terry(wins, prior=0.0, iterations=10_000, tol=1e-12):
    """Bradley-Terry strengths from ``wins[i, j]`` = times i beat j (Hunter's MM algorithm; a drawn game may be
    entered as half a win each way). ``prior`` adds that many virtual wins each way to every pair that met, which
    keeps the estimate finite when a player never wins or never loses. Returns strengths normalised to geometric
    mean 1."""
    wins = np.asarray(wins, np.float64)
    k = wins.shape[0]
    if wins.ndim != 2 or wins.shape != (k, k) or np.any(wins < 0) or not np.all(np.isfinite(wins)):
        raise ValueError("wins must be a square matrix of non-negative counts")
    met = (wins + wins.T) > 0
    wins = wins + prior * met
    np.fill_diagonal(wins, 0.0)
    games = wins + wins.T
    total_wins = wins.sum(axis=1)
    strength = np.ones(k)
    for _ in range(iterations):
        denom = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.where(denom > 0, denom, 1.0), strength)
        new = np.maximum(new, 1e-300)
        new /= math.exp(float(np.log(new).mean()))
        if np.max(np.abs(np.log(new) - np.log(strength))) < tol:
            strength = new
            break
        strength = new
    return strength


def bt_standard_errors(wins, strength, prior=0.0):
    """Standard errors of the log-strengths from the observed Fisher information (sum-to-zero constraint)."""
    wins = np.asarray(wins, np.float64)
    met = (wins + wins.T) > 0
    games = wins + wins.T + 2 * prior * met
    np.fill_diagonal(games, 0.0)
    p = strength[:, None] / (strength[:, None] + strength[None, :])
    weight = games * p * p.T
    info = np.diag(weight.sum(axis=1)) - weight
    cov = np.linalg.pinv(info)
    return np.sqrt(np.maximum(np.diag(cov), 0.0))


# --------------------------------------------------------------------------- pairwise games
def _games(games):
    """The games as a DataFrame ``player_a, player_b, score_a`` (score of player_a: 0, 0.5 or 1)."""
    if isinstance(games, pd.DataFrame):
        missing = [c for c in GAME_COLUMNS if c not in games.columns]
        if missing:
            raise ScenarioError(f"games: missing column(s) {missing}; expected columns {list(GAME_COLUMNS)}")
        frame = games.loc[:, list(GAME_COLUMNS)].reset_index(drop=True)
    else:
        rows = list(games)
        if any(not isinstance(r, (tuple, list)) or len(r) != 3 for r in rows):
            raise ScenarioError("games: expected rows (player_a, player_b, score_a)")
        frame = pd.DataFrame(rows, columns=list(GAME_COLUMNS))
    if frame.empty:
        raise ScenarioError("games: no games to rate")
    scores = pd.to_numeric(frame["score_a"], errors="coerce")
    bad = ~scores.isin(SCORES)
    if bad.any():
        raise ScenarioError(f"score_a: {frame['score_a'][bad].tolist()[0]!r} is not allowed; expected 0, 0.5 or 1")
    same = frame["player_a"] == frame["player_b"]
    if same.any():
        raise ScenarioError(f"games: {frame['player_a'][same].iloc[0]!r} plays itself; expected two players")
    frame["score_a"] = scores.astype(np.float64)
    return frame


def _positive(value):
    return isinstance(value, (int, float, np.number)) and not isinstance(value, bool) and 0 < value < math.inf


def _order(count, order):
    if order is None:
        return np.arange(count)
    if isinstance(order, (int, np.integer)) and not isinstance(order, bool):
        return np.random.default_rng(int(order)).permutation(count)
    index = np.asarray(order)
    if index.shape != (count,) or not np.array_equal(np.sort(index), np.arange(count)):
        raise ScenarioError(f"order: expected None, a seed or a permutation of 0..{count - 1}")
    return index


def elo(games, k=16, initial=1500, order=None):
    """Sequential Elo ratings: for each game in turn, ``expected = 1 / (1 + 10 ** ((R_b - R_a) / 400))`` and both
    ratings move by ``k * (score_a - expected)`` (up for a, down for b).

    ``games``: a DataFrame with columns ``player_a, player_b, score_a`` (1 a won, 0.5 draw, 0 b won) or a list of
    such rows. ``order``: None plays them as given; an integer shuffles them with that seed; an array is the
    permutation to use. The ratings depend on that order (the last games weigh most): for an estimate that does
    not, use ``rate_round_robin`` (Bradley-Terry). Returns ``player, rating, games`` sorted by rating."""
    frame = _games(games)
    if not _positive(k):
        raise ScenarioError(f"k: {k!r} is not allowed; expected a positive number")
    players = list(dict.fromkeys([*frame["player_a"], *frame["player_b"]]))
    rating = dict.fromkeys(players, float(initial))
    played = dict.fromkeys(players, 0)
    a_col, b_col, s_col = (frame[c].to_numpy() for c in GAME_COLUMNS)
    for g in _order(len(frame), order):
        a, b = a_col[g], b_col[g]
        expected = 1.0 / (1.0 + 10.0 ** ((rating[b] - rating[a]) / 400.0))
        change = k * (s_col[g] - expected)
        rating[a] += change
        rating[b] -= change
        played[a] += 1
        played[b] += 1
    out = pd.DataFrame({"player": players, "rating": [rating[p] for p in players],
                        "games": [played[p] for p in players]})
    return out.sort_values("rating", ascending=False, ignore_index=True)


def _wins_matrix(data):
    """``(players, wins)`` from a square wins table (``wins[i, j]``: times i beat j) or from games."""
    if isinstance(data, pd.DataFrame) and set(GAME_COLUMNS) <= set(data.columns):
        frame = _games(data)
        players = list(dict.fromkeys([*frame["player_a"], *frame["player_b"]]))
        index = {p: i for i, p in enumerate(players)}
        wins = np.zeros((len(players), len(players)))
        for a, b, s in zip(frame["player_a"], frame["player_b"], frame["score_a"]):
            wins[index[a], index[b]] += s
            wins[index[b], index[a]] += 1.0 - s
        return players, wins
    if isinstance(data, pd.DataFrame):
        if list(data.index) != list(data.columns):
            raise ScenarioError("wins: a wins table needs the same labels on rows and columns (or give games with "
                                f"columns {list(GAME_COLUMNS)})")
        players, wins = list(data.index), data.to_numpy(np.float64)
    else:
        wins = np.asarray(data, np.float64)
        players = list(range(wins.shape[0])) if wins.ndim == 2 else []
    if wins.ndim != 2 or wins.shape[0] != wins.shape[1] or wins.shape[0] < 2:
        raise ScenarioError(f"wins: expected a square table of at least 2 players, got shape {wins.shape}")
    if np.any(wins < 0) or not np.all(np.isfinite(wins)):
        raise ScenarioError("wins: counts must be finite and non-negative")
    wins = wins.copy()
    np.fill_diagonal(wins, 0.0)
    return players, wins


def _bt_frame(players, wins, prior):
    strength = bradley_terry(wins, prior)
    se = bt_standard_errors(wins, strength, prior)
    rating = ELO * np.log(strength)
    games = wins.sum(axis=1) + wins.sum(axis=0)
    score = wins.sum(axis=1)
    if np.allclose(games, np.rint(games)):  # draws count half each way, so whole games add up to whole numbers
        games = np.rint(games).astype(np.int64)
    frame = pd.DataFrame({"player": players, "rating": rating, "ci_low": rating - Z95 * ELO * se,
                          "ci_high": rating + Z95 * ELO * se, "games": games,
                          "p_win": np.divide(score, games, out=np.full(len(players), np.nan), where=games > 0)})
    frame = frame.sort_values("rating", ascending=False, ignore_index=True)
    # plain lists: pandas compares attrs when it combines frames, which an array would break
    frame.attrs.update(wins=wins.tolist(), prior=prior, order=list(players))
    return frame


def rate_round_robin(data, prior=1.0):
    """Bradley-Terry ratings on the Elo scale (mean 0) with 95 % intervals (observed information).

    ``data``: a square wins table (array or DataFrame with the players as labels; ``wins[i, j]`` = times i beat j,
    the diagonal ignored) or games, a DataFrame with columns ``player_a, player_b, score_a`` (a draw gives half a
    win to each). ``prior`` virtual wins each way for every pair that met keep the ratings finite when a player
    never wins or never loses (set 0 for the plain maximum-likelihood estimate). One row per player, strongest
    first: ``player, rating, ci_low, ci_high, games, p_win`` (``p_win``: score per game, draws counted half). A
    rating difference d means P(win) = 1 / (1 + 10 ** (-d / 400))."""
    players, wins = _wins_matrix(data)
    if not (_positive(prior) or prior == 0):
        raise ScenarioError(f"prior: {prior!r} is not allowed; expected a number >= 0")
    return _bt_frame(players, wins, prior)


def rate_matchups(frame, draws="half", prior=1.0, mirrored=None):
    """A Bradley-Terry rating per gladiator type from a Jugule matchup frame
    (``romesim.jugule.matchups.matchup_matrix``: columns ``a, b, p_win, p_loss, n``).

    Each off-diagonal cell gives ``round(p_win * n)`` wins of a over b and ``round(p_loss * n)`` wins of b over a;
    the other duels (both out of the fight, or unfinished) are ``draws``: ``"half"`` (default) gives half a win
    each way, as a draw in chess, ``"drop"`` leaves them out (they then widen no interval). A type against itself
    says nothing about its strength and is skipped. In a mirrored frame (``frame.attrs["mirrored"]``, or
    ``mirrored=True``) cell (b, a) replays the games of cell (a, b), so only one of the two is counted. Returns
    ``rate_round_robin``'s table with ``player`` the type."""
    if draws not in ("half", "drop"):
        raise ScenarioError(f"draws: {draws!r} is not allowed; expected 'half' or 'drop'")
    needed = ("a", "b", "p_win", "p_loss", "n")
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise ScenarioError(f"frame: missing column(s) {missing}; expected a matchup_matrix frame")
    if mirrored is None:
        mirrored = bool(frame.attrs.get("mirrored", False))
    types = list(dict.fromkeys([*frame["a"], *frame["b"]]))
    index = {t: i for i, t in enumerate(types)}
    wins = np.zeros((len(types), len(types)))
    seen = set()
    for a, b, p_win, p_loss, n in frame.loc[:, list(needed)].itertuples(index=False):
        if a == b or (mirrored and (b, a) in seen):
            continue
        seen.add((a, b))
        won, lost = round(p_win * n), round(p_loss * n)
        other = (n - won - lost) / 2 if draws == "half" else 0.0
        wins[index[a], index[b]] += won + other
        wins[index[b], index[a]] += lost + other
    rated = rate_round_robin(pd.DataFrame(wins, index=types, columns=types), prior)
    rated.attrs.update(draws=draws, mirrored=mirrored)
    return rated


# --------------------------------------------------------------------------- multiplayer tables
def _ranks(table):
    """``{player: rank}`` (1 = first) from a mapping or from a finishing order whose entries may be tuples of
    tied players."""
    if isinstance(table, Mapping):
        ranks = dict(table)
    else:
        ranks, place = {}, 1
        for entry in table:
            tied = list(entry) if isinstance(entry, (tuple, list, set, frozenset)) else [entry]
            for player in tied:
                if player in ranks:
                    raise ScenarioError(f"tables: {player!r} appears twice at one table")
                ranks[player] = place
            place += len(tied)
    if len(ranks) < 2:
        raise ScenarioError(f"tables: {table!r} has fewer than two players")
    return ranks


def openskill_ratings(tables, model=None, order=None):
    """Plackett-Luce ratings (``openskill``) from multiplayer tables, each player a team of one.

    Each table is a finishing order (``["a", ("b", "c"), "d"]``: a first, b and c tied second, d last) or a
    mapping ``{player: rank}`` (1 = first; equal ranks tie). ``model``: an openskill model instance (default
    ``PlackettLuce()``). The update is sequential, so the result depends on the order of the tables (``order`` as
    in ``elo``). Returns ``player, mu, sigma, ordinal, tables`` sorted by ``ordinal`` (= mu - 3 sigma, a
    conservative skill)."""
    if model is None:
        from openskill.models import PlackettLuce
        model = PlackettLuce()
    ranked = [_ranks(t) for t in tables]
    if not ranked:
        raise ScenarioError("tables: no tables to rate")
    players = list(dict.fromkeys(p for r in ranked for p in r))
    ratings = {p: model.rating(name=str(p)) for p in players}
    counts = dict.fromkeys(players, 0)
    for t in _order(len(ranked), order):
        table = ranked[t]
        seated = list(table)
        updated = model.rate([[ratings[p]] for p in seated], ranks=[table[p] for p in seated])
        for p, team in zip(seated, updated):
            ratings[p] = team[0]
            counts[p] += 1
    out = pd.DataFrame({"player": players, "mu": [ratings[p].mu for p in players],
                        "sigma": [ratings[p].sigma for p in players],
                        "ordinal": [ratings[p].ordinal() for p in players],
                        "tables": [counts[p] for p in players]})
    return out.sort_values("ordinal", ascending=False, ignore_index=True)


__all__ = ["ELO", "bradley_terry", "bt_standard_errors", "elo", "openskill_ratings", "rate_round_robin",
           "rate_matchups"]
