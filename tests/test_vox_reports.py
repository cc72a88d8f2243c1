"""Vox Populi balance reports (romesim.vox_populi.reports): the bookkeeping of seat and bot reports (the
Bradley-Terry fit itself is tested in test_analysis_ratings), and card impact with common random numbers
(spec 8.4 winners, VOX-A15 deck_copies)."""
import numpy as np
import pytest

import romesim
from romesim.core.policy import resolve
from romesim.vox_populi import reports
from romesim.vox_populi import state as st
from romesim.vox_populi.cards import CARD_NAMES, CARD_ROLLS_DICE
from romesim.vox_populi.game import play_one

SEATS = [f"p_win_seat{s}" for s in range(4)]


def test_seat_advantage_bookkeeping():
    frame = reports.seat_advantage(n=300, seed=3)
    sim = romesim.simulate("vox_populi.game", 300, 3)
    assert list(frame["seat"]) == [0, 1, 2, 3]
    assert list(frame["p_win"]) == [sim[m] for m in SEATS]  # the same games
    assert frame["share"].sum() == pytest.approx(1.0)  # every game's win is split among its winners
    assert np.allclose(frame["advantage"], frame["share"] - 0.25)
    assert (frame["ci_low"] <= frame["p_win"]).all() and (frame["p_win"] <= frame["ci_high"]).all()


def test_bot_win_rates_rotate_seats():
    same = reports.bot_win_rates(["random"] * 4, n=200, seed=1)
    # one bot in every seat: it holds every share of every game
    assert list(same["bot"]) == ["random"] and same["seat_games"][0] == 800
    assert same["share"][0] == pytest.approx(0.25)
    mixed = reports.bot_win_rates(["collector", "random", "random", "showman"], n=200, seed=1)
    assert list(mixed["bot"]) == ["collector", "random", "showman"]
    assert list(mixed["seat_games"]) == [200, 400, 200]
    # shares of the 4 rotations x 50 games add up to the 200 games
    assert (mixed["share"] * mixed["seat_games"]).sum() == pytest.approx(200)
    with pytest.raises(romesim.ScenarioError, match="one per seat"):
        reports.bot_win_rates(["random"] * 3, n=200)


def test_rate_bots_orders_a_strong_and_a_weak_bot():
    frame = reports.rate_bots(["random", "collector", "default"], n=200, seed=2)
    assert list(frame["bot"])[-1] == "random"
    assert abs(frame["rating"].sum()) < 1e-6  # Elo scale, mean 0
    assert (frame["ci_low"] < frame["rating"]).all() and (frame["rating"] < frame["ci_high"]).all()


def test_card_impact_is_zero_in_games_where_the_card_is_never_drawn():
    # common random numbers: without the card, the shuffle keeps every other card in order, so a game in which
    # the card stays in the deck is the same game, bit for bit, with or without it (VOX-A15 deck_copies)
    card = CARD_NAMES.index("PIÉTINE")
    game = romesim.scenario("vox_populi.game")
    copies = [1] * 55
    copies[card] = 0
    with_card, without = game.compiled(), game.replace(deck_copies=copies).compiled()
    resolved = resolve(game.decision_points)
    g, view = np.zeros(st.G_SIZE, np.int64), np.zeros(st.VIEW_SIZE, np.int64)
    never_drawn = 0
    for i in range(120):
        row, err = play_one(4, i, with_card, resolved.codes, resolved.params, g, view)
        assert err == 0
        untouched = g[st.CARD_STATE + card] == st.IN_DECK
        other, err = play_one(4, i, without, resolved.codes, resolved.params, g, view)
        assert err == 0
        if untouched:
            never_drawn += 1
            assert np.array_equal(row, other), f"game {i}"
    assert never_drawn > 20
    # and the report agrees: it changes no more games than those where the card was drawn
    impact = reports.card_impact(["PIÉTINE"], n=120, seed=4)
    assert impact["changed"][0] <= 1 - never_drawn / 120


def test_card_impact_of_a_card_that_cannot_matter():
    # with no dice cards in the deck MAGOUILLE can never be played (it reacts to a die, spec 7.5): removing it only
    # moves the later draws up one card, which favours nobody: seat 0's win changes by about 0
    copies = [0 if CARD_ROLLS_DICE[c] else 1 for c in range(55)]
    impact = reports.card_impact(["MAGOUILLE"], n=1500, seed=6, deck_copies=copies)
    row = impact.iloc[0]
    assert row["delta_low"] <= 0 <= row["delta_high"]
    assert row["delta_high"] - row["delta_low"] < 0.1
    with pytest.raises(romesim.ScenarioError, match="not in this scenario's deck"):
        reports.card_impact(["BOOKMAKER"], n=10, deck_copies=copies)
    with pytest.raises(romesim.ScenarioError, match="unknown card"):
        reports.card_impact(["JOKER"], n=10)
    with pytest.raises(romesim.ScenarioError, match="metric"):
        reports.card_impact(["MAGOUILLE"], n=10, metric="fun")
