"""Vox Populi balance reports (romesim.vox_populi.reports): the bookkeeping of seat and bot reports (the
Bradley-Terry fit itself is tested in test_analysis_ratings), and card impact with common random numbers
(spec 8.4 winners, VOX-A15 deck_copies, inert_cards)."""
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


def test_card_impact_is_the_cards_own_effect():
    """Card impact against an inert card at the same place in the deck (§2.0 « Mélangez les cartes et placez le
    paquet face cachée », shuffle the cards and put the deck face down; VOX-A15): with the card inert
    (``inert_cards``) every draw stays where it was, so a game differs only where the real card could be played.
    Played one by one, every game that differs is a game in which the card was drawn, and the report's changed
    games (other winners) are among them."""
    card = CARD_NAMES.index("PIÉTINE")
    game = romesim.scenario("vox_populi.game")
    inert = [0] * 55
    inert[card] = 1
    real, blank = game.compiled(), game.replace(inert_cards=inert).compiled()
    resolved = resolve(game.decision_points)
    g, view = np.zeros(st.G_SIZE, np.int64), np.zeros(st.VIEW_SIZE, np.int64)
    n, seed = 120, 4
    changed, never_drawn = 0, 0
    for i in range(n):
        row, err = play_one(seed, i, real, resolved.codes, resolved.params, g, view, resolved.slots)
        assert err == 0
        drawn = g[st.CARD_STATE + card] != st.IN_DECK
        other, err = play_one(seed, i, blank, resolved.codes, resolved.params, g, view, resolved.slots)
        assert err == 0
        assert drawn == (g[st.CARD_STATE + card] != st.IN_DECK)  # the same draws both ways
        never_drawn += not drawn
        if not np.array_equal(row, other):
            assert drawn, f"game {i} changed though the card was never drawn"
            changed += 1
    assert never_drawn > 20 and changed > 0
    impact = reports.card_impact(["PIÉTINE"], n=n, seed=seed)
    # winners differ only in games that differ at all
    assert 0 < impact["changed"][0] * n <= changed


def test_card_impact_of_an_inert_card_is_zero():
    """An inert card against itself, and a card that can never be played (MAGOUILLE « Lorsqu'un dé vient d'être
    lancé … choisissez à la place le chiffre qui vous convient », when a die has just been rolled, choose the
    number you like instead; spec 7.5), in a deck with no dice card, change no game at all: the baseline has no
    floor (removing the card instead changed about a third of the games)."""
    inert = [0] * 55
    inert[CARD_NAMES.index("BOOKMAKER")] = 1
    impact = reports.card_impact(["BOOKMAKER"], n=300, seed=6, inert_cards=inert)
    assert impact["changed"][0] == 0 and impact["emperor_changed"][0] == 0 and impact["delta"][0] == 0
    copies = [0 if CARD_ROLLS_DICE[c] else 1 for c in range(55)]
    impact = reports.card_impact(["MAGOUILLE"], n=300, seed=6, deck_copies=copies)
    assert impact["changed"][0] == 0 and impact["emperor_changed"][0] == 0 and impact["delta"][0] == 0
    with pytest.raises(romesim.ScenarioError, match="not in this scenario's deck"):
        reports.card_impact(["BOOKMAKER"], n=10, deck_copies=copies)
    with pytest.raises(romesim.ScenarioError, match="unknown card"):
        reports.card_impact(["JOKER"], n=10)
    with pytest.raises(romesim.ScenarioError, match="metric"):
        reports.card_impact(["MAGOUILLE"], n=10, metric="fun")
