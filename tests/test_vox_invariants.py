"""Vox Populi invariants (hypothesis): whatever the seats, bots and rule options, a game ends by a rule trigger
(never by the turn guard), every piece, card, decoy and (with a limited bank) sesterce is conserved, money and
popularity never go below 0 (spec 6.6, 7.7, VOX-A12, VOX-A34, VOX-A37), and the public slip record matches the
hidden box (spec 11).
"""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from romesim.core.policy import resolve
from romesim.vox_populi import game
from romesim.vox_populi import state as S
from romesim.vox_populi.scenarios import Game

BOTS = ("default", "random", "parametric", "showman", "collector", "bluffer")

option_sets = st.fixed_dictionaries({
    "players": st.integers(3, 6),
    "end_scope": st.sampled_from(["turn", "round"]),
    "board_graph": st.sampled_from(["grid4", "grid8"]),
    "turn_direction": st.sampled_from(["right", "left"]),
    "arena_setup_start": st.sampled_from(["seat0", "last_seat", "random"]),
    "decoy_limit": st.sampled_from(["per_star", "free"]),
    "decoy_supply": st.sampled_from(["limited", "unlimited"]),
    "slip_order": st.sampled_from(["sequential", "simultaneous"]),
    "bank_limit": st.sampled_from([0, 80]),
    "vote_only_if_attending": st.booleans(),
    "arena_cards_after_commit": st.booleans(),
    "card_window_protocol": st.sampled_from(["priority_loop", "single_pass"]),
    "public_money": st.booleans(),
    "count_waiting_gladiators": st.booleans(),
})


def play(params, bots, seed, game_index):
    sc = Game(**params)
    p = sc.compiled()
    res = resolve(sc.decision_points, {f"seat{s}": bot for s, bot in enumerate(bots)})
    g = np.zeros(S.G_SIZE, np.int64)
    view = np.zeros(S.VIEW_SIZE, np.int64)
    row, err = game.play_one(np.uint64(seed), game_index, p, res.codes, res.params, g, view, res.slots)
    assert err == 0
    return sc, p, g, row


def check_invariants(sc, p, g):
    n = sc.players
    pieces = len(sc.piece_values)
    assert g[S.GAME_OVER] == 1 and g[S.TURN_GUARD_TRIPPED] == 0
    assert g[S.END_TRIGGER] in (S.END_POPULARITY, S.END_CLUBS)
    assert g[S.TURN_NO] <= 7 * n  # 7 turns per seat at most (spec 4.2 capacity check)
    for s in range(n):
        club = sum(g[S.club_at(s, v)] for v in range(1, 6))
        board = sum(1 for c in range(48) if g[S.CELL_OWNER + c] == s)
        glad = sum(g[S.glad_at(k, s, v)] for k in range(6) for v in range(1, 6))
        stars = sum(g[S.stars_at(k, s, v)] for k in range(6) for v in range(1, 6))
        elim = sum(g[S.elim_at(s, v)] for v in range(1, 6))
        assert club + board + glad + stars + elim == pieces, f"seat {s}: pieces not conserved"
        assert g[S.MONEY + s] >= 0
        assert sum(g[S.hand_at(s, c)] for c in range(55)) == g[S.HAND_SIZE + s]
        for k in range(6):
            hidden = sum(g[S.stars_at(k, s, v)] for v in range(1, 6)) + g[S.box_decoys_at(k, s)]
            assert g[S.slipped_at(k, s)] == hidden  # public record = pieces slipped (VOX-A39)
    for s in range(n, 6):
        assert g[S.MONEY + s] == 0 and g[S.HAND_SIZE + s] == 0
    assert all(g[S.POP + k] >= 0 for k in range(6))
    # cards: deck + hands + played (discarded or in play) = 55
    played = sum(1 for c in range(55) if g[S.CARD_STATE + c] in (S.DISCARDED, S.IN_PLAY))
    assert g[S.DECK_LEFT] + sum(g[S.HAND_SIZE + s] for s in range(n)) + played == 55
    # decoys: 5 per colour in the box at the start; held + slipped + supply = 30 with a limited supply
    slipped_decoys = sum(g[S.box_decoys_at(k, s)] for k in range(6) for s in range(n))
    held = sum(g[S.DECOYS + s] for s in range(n))
    if sc.decoy_supply == "limited":
        assert held + slipped_decoys + g[S.DECOY_SUPPLY] == 30
    if sc.bank_limit:
        assert sum(g[S.MONEY + s] for s in range(n)) + g[S.BANK] + g[S.ROTTEN_POT] == sc.bank_limit
        assert g[S.BANK] >= 0
    # one arena per quarter, each on its own cell
    cells = [g[S.ARENA_CELL + k] for k in range(6)]
    assert sorted(p[S.P_QUARTER + c] for c in cells) == list(range(6))


@settings(max_examples=60, deadline=None)
@given(params=option_sets, bots=st.lists(st.sampled_from(BOTS), min_size=6, max_size=6),
       seed=st.integers(0, 2 ** 32), game_index=st.integers(0, 10_000))
def test_invariants_hold_at_the_end_of_every_game(params, bots, seed, game_index):
    sc, p, g, row = play(params, bots, seed, game_index)
    check_invariants(sc, p, g)
    assert row[game.R_TURNS] == g[S.TURN_NO]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 32), skip=st.booleans())
def test_two_players_and_empty_club_rules(seed, skip):
    # VOX-A2 (two seats) and VOX-A8 (empty_club_turn) with the end of the round (VOX-A7)
    params = {"players": 2, "allow_two_players": True, "end_scope": "round",
              "empty_club_turn": "skip_turn" if skip else "phases_2_3"}
    sc, p, g, _ = play(params, ("random",) * 6, seed, 0)
    check_invariants(sc, p, g)


def test_games_end_within_the_rules_for_every_bot():
    for bot in BOTS:
        sc, p, g, _ = play({"players": 6}, (bot,) * 6, 99, 1)
        check_invariants(sc, p, g)
