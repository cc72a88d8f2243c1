"""Ratings (romesim.analysis.ratings): Bradley-Terry worked by hand and on synthetic players of known strength,
sequential Elo and its order dependence, OpenSkill on multiplayer tables, and the Jugule matchup ratings."""
import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import spearmanr

import romesim
from romesim.analysis import ratings
from romesim.jugule import matchups as jm

# five players, 250 Elo points apart: P(stronger wins) = 1 / (1 + 10 ** (-250 / 400)) = 0.81 between neighbours
TRUE_ELO = np.array([0.0, 250.0, 500.0, 750.0, 1000.0])
TRUTH = np.exp(TRUE_ELO / ratings.ELO)
PLAYERS = ["p0", "p1", "p2", "p3", "p4"]


def synthetic_games(per_pair, seed):
    """Pairwise games of the five players, in a random order: P(i beats j) = s_i / (s_i + s_j)."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(5):
        for j in range(i + 1, 5):
            won = rng.random(per_pair) < TRUTH[i] / (TRUTH[i] + TRUTH[j])
            rows += [(PLAYERS[i], PLAYERS[j], float(w)) for w in won]
    order = rng.permutation(len(rows))
    return pd.DataFrame([rows[k] for k in order], columns=["player_a", "player_b", "score_a"])


def rank_correlation(frame, column):
    got = frame.set_index("player").loc[PLAYERS, column].to_numpy()
    return round(float(spearmanr(got, TRUE_ELO).statistic), 12)  # 1.0 up to the rounding of its arithmetic


def test_bradley_terry_two_players_by_hand():
    # 3 wins to 1: the likelihood 3 log(a/(a+b)) + log(b/(a+b)) peaks where 3/a = 4/(a+b), i.e. a/b = 3
    strength = ratings.bradley_terry(np.array([[0, 3], [1, 0]]))
    assert strength[0] / strength[1] == pytest.approx(3.0, rel=1e-9)
    assert math.isclose(strength[0] * strength[1], 1.0)  # geometric mean 1
    # 30 to 10: the same ratio; the information on log(a/b) is 40 p (1 - p) = 40 * 3/4 * 1/4 = 7.5, and with the
    # sum-to-zero constraint each log-strength carries half of the difference: se = 0.5 / sqrt(7.5)
    wins = np.array([[0, 30], [10, 0]])
    strength = ratings.bradley_terry(wins)
    assert strength[0] / strength[1] == pytest.approx(3.0, rel=1e-9)
    assert ratings.bt_standard_errors(wins, strength) == pytest.approx([0.5 / math.sqrt(7.5)] * 2, rel=1e-6)
    # a prior of 1 virtual win each way: 4 to 2
    assert np.divide(*ratings.bradley_terry(np.array([[0, 3], [1, 0]]), prior=1.0)) == pytest.approx(2.0)


def test_every_rating_recovers_known_strengths():
    games = synthetic_games(400, seed=5)
    bt = ratings.rate_round_robin(games, prior=0.0)
    assert rank_correlation(bt, "rating") == 1.0
    # within 5 standard errors of the truth (both centred: the ratings have mean 0)
    centred = TRUE_ELO - TRUE_ELO.mean()
    rated = bt.set_index("player").loc[PLAYERS]
    se = (rated["ci_high"] - rated["ci_low"]).to_numpy() / (2 * 1.959963984540054)
    assert np.all(np.abs(rated["rating"].to_numpy() - centred) <= 5 * se)
    assert abs(bt["rating"].sum()) < 1e-6
    assert (bt["games"] == 4 * 400).all()
    assert rank_correlation(ratings.elo(games), "rating") == 1.0
    # OpenSkill on the same games, each a two-player table
    tables = [[a, b] if s == 1.0 else [b, a] for a, b, s in games.itertuples(index=False)]
    assert rank_correlation(ratings.openskill_ratings(tables), "mu") == 1.0


def test_openskill_on_multiplayer_tables_with_known_strengths():
    # four-player tables drawn from the Plackett-Luce model itself: the winner is drawn in proportion to strength
    # among those left, then the second, ...
    rng = np.random.default_rng(9)
    tables = []
    for _ in range(300):
        seated = list(rng.choice(5, size=4, replace=False))
        order = []
        while seated:
            weights = TRUTH[seated] / TRUTH[seated].sum()
            order.append(seated.pop(rng.choice(len(seated), p=weights)))
        tables.append([PLAYERS[k] for k in order])
    rated = ratings.openskill_ratings(tables)
    assert rank_correlation(rated, "mu") == 1.0
    assert list(rated.columns) == ["player", "mu", "sigma", "ordinal", "tables"]
    assert rated["tables"].sum() == 300 * 4
    assert np.allclose(rated["ordinal"], rated["mu"] - 3 * rated["sigma"])


def test_openskill_ties_and_rank_mappings():
    # b and c tie behind a: starting equal, they move equally; a mapping of ranks is the same table
    order = ratings.openskill_ratings([["a", ("b", "c"), "d"]]).set_index("player")
    ranks = ratings.openskill_ratings([{"a": 1, "b": 2, "c": 2, "d": 4}]).set_index("player")
    assert order.loc["b", "mu"] == order.loc["c", "mu"]
    assert order.loc["a", "mu"] > order.loc["b", "mu"] > order.loc["d", "mu"]
    assert np.allclose(order.loc[list("abcd"), "mu"], ranks.loc[list("abcd"), "mu"])
    with pytest.raises(romesim.ScenarioError, match="appears twice"):
        ratings.openskill_ratings([["a", ("a", "b")]])


def test_elo_by_hand_and_its_order_dependence():
    # one game between two 1500s: expected 1/2, the winner gains k/2 = 8
    one = ratings.elo([("a", "b", 1)]).set_index("player")["rating"]
    assert one["a"] == 1508 and one["b"] == 1492
    # a win and a loss: after the first game the ratings are 16 apart, so the second game moves them by
    # 16 * (1 / (1 + 10 ** (-16 / 400))) = 8.368...; the order decides who ends above 1500
    moved = 16 / (1 + 10 ** (-16 / 400))
    win_first = ratings.elo([("a", "b", 1), ("a", "b", 0)]).set_index("player")["rating"]
    loss_first = ratings.elo([("a", "b", 1), ("a", "b", 0)], order=[1, 0]).set_index("player")["rating"]
    assert win_first["a"] == pytest.approx(1508 - moved)
    assert loss_first["a"] == pytest.approx(1492 + moved)
    # Bradley-Terry sees one win each: equal ratings whatever the order
    bt = ratings.rate_round_robin(pd.DataFrame({"player_a": ["a", "a"], "player_b": ["b", "b"], "score_a": [1, 0]}))
    assert bt["rating"].tolist() == pytest.approx([0.0, 0.0], abs=1e-9)
    # an integer order is a seeded shuffle: reproducible
    games = synthetic_games(20, seed=1)
    assert ratings.elo(games, order=3).equals(ratings.elo(games, order=3))


def test_round_robin_from_a_table_or_games_and_draws_count_half():
    # a beat b 3 times, drew twice; b beat c once, c beat b once: a table with the draws split
    games = pd.DataFrame([("a", "b", 1)] * 3 + [("a", "b", 0.5)] * 2 + [("b", "c", 1), ("c", "b", 1)],
                         columns=["player_a", "player_b", "score_a"])
    table = pd.DataFrame([[0, 4, 0], [1, 0, 1], [0, 1, 0]], index=list("abc"), columns=list("abc"))
    from_games, from_table = ratings.rate_round_robin(games), ratings.rate_round_robin(table)
    pd.testing.assert_frame_equal(from_games, from_table)
    row = from_games.set_index("player")
    assert row.loc["a", "p_win"] == pytest.approx(4 / 5) and row.loc["b", "games"] == 7
    assert from_games["player"].iat[0] == "a"
    assert (from_games["ci_low"] < from_games["rating"]).all()


@pytest.mark.parametrize("games, words", [
    ([("a", "b", 2)], "score_a: 2"), ([("a", "a", 1)], "plays itself"), ([], "no games"),
    (pd.DataFrame({"player_a": ["a"], "score_a": [1]}), "missing column"),
])
def test_bad_games_are_named(games, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        ratings.elo(games)


def test_bad_tables_are_named():
    with pytest.raises(romesim.ScenarioError, match="square table"):
        ratings.rate_round_robin(np.zeros((2, 3)))
    with pytest.raises(romesim.ScenarioError, match="same labels"):
        ratings.rate_round_robin(pd.DataFrame([[0, 1], [1, 0]], index=["a", "b"], columns=["a", "c"]))
    with pytest.raises(romesim.ScenarioError, match="prior: -1"):
        ratings.rate_round_robin(np.ones((2, 2)), prior=-1)
    with pytest.raises(romesim.ScenarioError, match="k: 0"):
        ratings.elo([("a", "b", 1)], k=0)
    with pytest.raises(romesim.ScenarioError, match="order: expected"):
        ratings.elo([("a", "b", 1), ("b", "a", 1)], order=[0, 0])
    with pytest.raises(romesim.ScenarioError, match="draws: 'ignore'"):
        ratings.rate_matchups(matchup_cells(mirrored=True), draws="ignore")


def matchup_cells(mirrored):
    # x beats y 60 times in 100, loses 30, 10 duels end with both out; the mirror row repeats those games
    rows = [{"a": "x", "b": "y", "p_win": 0.6, "p_loss": 0.3, "p_both_out": 0.1, "n": 100},
            {"a": "y", "b": "x", "p_win": 0.3, "p_loss": 0.6, "p_both_out": 0.1, "n": 100},
            {"a": "x", "b": "x", "p_win": 0.5, "p_loss": 0.5, "p_both_out": 0.0, "n": 100}]
    frame = pd.DataFrame(rows)
    frame.attrs["mirrored"] = mirrored
    return frame


def test_rate_matchups_counts_draws_half_and_mirrored_cells_once():
    half = ratings.rate_matchups(matchup_cells(True), prior=0).set_index("player")
    # 60 + 5 wins to 30 + 5: strengths 65:35, on the Elo scale ELO * ln(65/35) apart, 100 games each
    assert half.loc["x", "rating"] - half.loc["y", "rating"] == pytest.approx(ratings.ELO * math.log(65 / 35))
    assert half.loc["x", "games"] == 100 and half.loc["x", "p_win"] == pytest.approx(0.65)
    dropped = ratings.rate_matchups(matchup_cells(True), draws="drop", prior=0).set_index("player")
    assert dropped.loc["x", "rating"] - dropped.loc["y", "rating"] == pytest.approx(ratings.ELO * math.log(2))
    # not mirrored: (y, x) is another 100 duels with y as side A, counted as well
    both = ratings.rate_matchups(matchup_cells(False), prior=0).set_index("player")
    assert both.loc["x", "games"] == 200
    assert (both["ci_high"] - both["ci_low"]).iloc[0] < (half["ci_high"] - half["ci_low"]).iloc[0]


def test_rate_matchups_on_a_played_matrix():
    frame = jm.matchup_matrix(["retiarius", "secutor", "samnis"], n=400, seed=2)
    rated = ratings.rate_matchups(frame, prior=0)
    # each type met the two others in 400 mirrored duels; its score is its wins plus half the other endings
    assert (rated["games"] == 800).all()
    off = frame[frame["a"] != frame["b"]]
    for _, row in rated.iterrows():
        cells = off[off["a"] == row["player"]]
        score = (cells["p_win"] * 400).round() + (400 - (cells["p_win"] * 400).round()
                                                   - (cells["p_loss"] * 400).round()) / 2
        assert row["p_win"] == pytest.approx(score.sum() / 800)
    # the strongest by rating is the one with the best average score (three players: BT keeps that order)
    assert rated["player"].iat[0] == max(rated["player"], key=lambda t: rated.set_index("player").loc[t, "p_win"])
