"""Vox Populi game (spec 3, 6, 8, 11): set-up, match resolution (the worked check of spec 14.1 and its variants),
the Emperor and the winner (spec 14.3), the end trigger (spec 14.4), the information model, and runs from Python,
TOML and the command line. Expected values are worked by hand from the spec, in the comments.
"""
import json
import math

import numba
import numpy as np
import pytest
from test_vox_board import CRASSUS, SLOTS, blank_state, compiled, example_state, kernel_inputs, put_arena

import romesim
import romesim.core.policy
from romesim.cli import main
from romesim.core import rng
from romesim.vox_populi import game, procedures
from romesim.vox_populi import state as S
from romesim.vox_populi.procedures import open_decision
from romesim.vox_populi.scenarios import Game

GAME = "vox_populi.game"
OCTAVE = S.OCTAVE


def match_state(p, mtype=S.CHAMPIONSHIP, **fields):
    """Spec 14.1: a championship at Crassus's arena organised by P1 (seat 0), who has paid; P1 has Crassus
    gladiators 4 and 1, P2 one of 2, P3 (the booer) one of 3. No decoys anywhere, so nobody slips one."""
    g = example_state(p)
    for seat, values in ((0, (4, 1)), (1, (2,)), (2, (3,))):
        for v in values:
            g[S.glad_at(CRASSUS, seat, v)] += 1
        g[S.MONEY + seat] = 5
    g[S.DECOY_SUPPLY] = 0
    g[S.DECK + 52:S.DECK + 55] = (7, 8, 9)
    g[S.DECK_LEFT] = 3
    g[S.MATCH_ON] = 1
    g[S.ORGANISER] = 0
    g[S.M_POL] = CRASSUS
    g[S.M_TYPE] = mtype
    for name, value in fields.items():
        g[getattr(S, name)] = value
    return g


def resolve(g, p, meters=(1, 1, 0), seed=3):
    g[S.CHOICE:S.CHOICE + S.MAX_SEATS] = -1
    g[S.CHOICE:S.CHOICE + len(meters)] = meters
    view = np.zeros(S.VIEW_SIZE, np.int64)
    game.init_view_board(p, view)
    stream = rng.new_stream()
    rng.start(stream, seed, 0)
    codes, params = kernel_inputs(int(g[S.N_SEATS]))
    assert game.resolve_match(g, p, view, stream, codes, params, SLOTS) == 0
    return g


def stars_value(g, seat):
    return sum(v * g[S.stars_at(slot, seat, v)] for slot in range(6) for v in range(1, 6))


def crassus_gladiators(g, seat):
    return sum(g[S.glad_at(CRASSUS, seat, v)] for v in range(1, 6))


# ------------------------------------------------------------------ spec 6.3 / 14.1: applause wins a 5-5 tie
def test_example_match_tie_goes_to_applause():
    p = compiled()
    g = resolve(match_state(p), p)
    # APP = 3 (cell 10) + 1 (28) + 1 (20) = 5; BOO = 3 (2) + 2 (19) = 5; tie -> applause (§3.2b)
    assert (g[S.M_APP], g[S.M_BOO], g[S.M_RESULT]) == (5, 5, 1)
    # the booer P3 loses one of his attending supporters (cell 2 or 19), his choice (VOX-A36)
    p3_cells = [c for c in (2, 19) if g[S.CELL_OWNER + c] == 2]
    assert len(p3_cells) == 1
    assert sum(g[S.elim_at(2, v)] for v in range(1, 6)) == 1
    # applauders turn all their Crassus gladiators into stars; the booer's gladiator stays
    assert crassus_gladiators(g, 0) == 0 and crassus_gladiators(g, 1) == 0 and crassus_gladiators(g, 2) == 1
    assert stars_value(g, 0) == 5 and stars_value(g, 1) == 2
    assert g[S.SLIPPED:S.SLIPPED + 36].reshape(6, 6)[:, 0].sum() == 2  # P1 slipped two pieces (public)
    # the organiser gains 4 (5 + 4), Crassus +2 for a championship
    assert g[S.MONEY + 0] == 9 and g[S.POP + CRASSUS] == 2
    assert g[S.LAST_TURN] == 0


@pytest.mark.parametrize("fields, app, boo, applause", [
    ({"BAD_SOUND": 1}, 5, 5, False),                    # MAUVAISE SONORISATION: the tie goes to the boos
    ({"PANEM": 1}, 3, 2, True),                         # PANEM ET CIRCENSES: every supporter worth 1
    ({"HOOLIGANS_Q": 3}, 3, 5, False),                  # HOOLIGANS on quarter 3: 20 and 28 are cut off
    ({"BOO_VOIDABLE": 3}, 5, 8, False),                 # AUGMENTATION DU PRIX DES BILLETS +3
    ({"BOO_VOIDABLE": 3, "EPIQUE_VOID": 1}, 5, 5, True),  # ... voided by MATCH ÉPIQUE 5-6 (VOX-A32)
    ({"EPIQUE_ADD": 1, "ARENA_CARDS_PLAYED": 2}, 7, 5, True),  # MATCH ÉPIQUE 1-4: + Arena cards of the turn
    ({"ROTTEN": 1}, 5, 8, False),                       # ARÈNE POURRIE unpaid: boos +3 (spec 7.6)
    ({"APP_BONUS": 1, "BOO_BONUS": 1}, 6, 6, True),
])
def test_example_match_variants(fields, app, boo, applause):
    p = compiled()
    g = resolve(match_state(p, **fields), p)
    assert (g[S.M_APP], g[S.M_BOO]) == (app, boo)
    assert g[S.M_RESULT] == (1 if applause else 2)


def test_example_match_grid8():
    # spec 14.1: with king-move adjacency P2's 5 on cell 25 attends: 10 vs 5
    p = compiled(board_graph="grid8")
    g = resolve(match_state(p), p)
    assert (g[S.M_APP], g[S.M_BOO], g[S.M_RESULT]) == (10, 5, 1)


def test_example_match_boos_win_consequences():
    # spec 14.1 with HOOLIGANS on quarter 3: 3 vs 5, boos. P1 and P2 each lose one Crassus gladiator, P3 draws
    # a card, P1 gets nothing back, nobody gains popularity (spec 6.3, boos a-b)
    p = compiled()
    g = resolve(match_state(p, HOOLIGANS_Q=3), p)
    assert g[S.M_RESULT] == 2
    assert crassus_gladiators(g, 0) == 1 and crassus_gladiators(g, 1) == 0 and crassus_gladiators(g, 2) == 1
    assert g[S.HAND_SIZE + 2] == 1 and g[S.hand_at(2, 7)] == 1 and g[S.DECK_LEFT] == 2
    assert g[S.HAND_SIZE + 0] == 0 and g[S.HAND_SIZE + 1] == 0
    assert g[S.MONEY + 0] == 5 and g[S.POP:S.POP + 6].sum() == 0
    # P1 eliminates one of his two gladiators; the piece is out of play
    assert sum(g[S.elim_at(0, v)] for v in range(1, 6)) == 1


def test_vae_victis_lynchage_pietine_on_boos():
    p = compiled()
    g = match_state(p, BAD_SOUND=1, VAE_VICTIS=1, LYNCH=1, TRAMPLE=1, GUEST=OCTAVE)
    g[S.POP + CRASSUS] = 1
    g[S.POP + OCTAVE] = 5
    resolve(g, p)
    assert g[S.M_RESULT] == 2
    # VAE VICTIS: every gladiator left in Crassus's arena is eliminated, the booer's included
    assert all(crassus_gladiators(g, s) == 0 for s in range(3))
    # LYNCHAGE: both attending politicians -2, floor 0 (VOX-A19 all_refs, VOX-A34)
    assert g[S.POP + CRASSUS] == 0 and g[S.POP + OCTAVE] == 3
    # PIÉTINE: the arena's politician is assassinated, never the guest
    assert g[S.DEAD + CRASSUS] == 1 and g[S.DEAD + OCTAVE] == 0 and g[S.N_ASSASSINATIONS] == 1


def test_pax_deorum_voids_lynchage():
    p = compiled()
    g = match_state(p, BAD_SOUND=1, LYNCH=1, PAX=1)
    g[S.POP + CRASSUS] = 4
    resolve(g, p)
    assert g[S.M_RESULT] == 2 and g[S.POP + CRASSUS] == 4


@pytest.mark.parametrize("guest_scope, octave_gain", [("all_refs", 3), ("gain_only", 2)])
def test_guest_and_recuperation(guest_scope, octave_gain):
    # FRÈRES ENNEMIS: the guest gains like the arena's politician; RÉCUPÉRATION adds 1 to him only under
    # guest_scope = all_refs (VOX-A19)
    p = compiled(guest_scope=guest_scope)
    g = resolve(match_state(p, GUEST=OCTAVE, RECUP=1), p)
    assert g[S.POP + CRASSUS] == 3 and g[S.POP + OCTAVE] == octave_gain


def test_absent_lover_gains_nothing_and_pax_blocks_gains():
    p = compiled()
    g = resolve(match_state(p, ABSENT=CRASSUS), p)
    assert g[S.M_RESULT] == 1 and g[S.POP + CRASSUS] == 0 and g[S.MONEY] == 9  # VOX-A33 full
    g = resolve(match_state(p, PAX=1), p)
    assert g[S.M_RESULT] == 1 and g[S.POP + CRASSUS] == 0


def test_dead_politician_gains_nothing():
    # spec 6.6: an assassinated politician never gains popularity; his arena still works
    p = compiled()
    g = match_state(p)
    g[S.DEAD + CRASSUS] = 1
    resolve(g, p)
    assert g[S.M_RESULT] == 1 and g[S.POP + CRASSUS] == 0 and stars_value(g, 0) == 5


def test_interview_forces_the_organiser_to_applaud():
    # INTERVIEW: P1 (organiser) boos, but his meter is forced to applause: 5 vs 5 -> applause (not 2 vs 8)
    p = compiled()
    g = resolve(match_state(p, INTERVIEW=1), p, meters=(0, 1, 0))
    assert g[S.METER] == 1 and (g[S.M_APP], g[S.M_BOO]) == (5, 5)


def test_star_match_gain_and_end_trigger():
    # spec 14.4: Crassus at 8 wins an international match: 11 -> last turn (spec 6.6), trigger popularity
    p = compiled()
    g = match_state(p, mtype=S.INTERNATIONAL)
    g[S.POP + CRASSUS] = 8
    resolve(g, p)
    assert g[S.POP + CRASSUS] == 11 and g[S.LAST_TURN] == 1 and g[S.END_TRIGGER] == S.END_POPULARITY
    g = resolve(match_state(p, mtype=S.STAR), p)
    assert g[S.POP + CRASSUS] == 4  # a star match gives +4 (DREAM TEAM)


def test_decoys_go_with_stars_into_other_slots():
    # VOX-A10 per_star: at most one decoy per star, never into the star's own slot; held decoys first (VOX-A11)
    p = compiled()
    for seed in range(20):
        g = match_state(p)
        g[S.DECOYS + 0] = 3
        g[S.DECOY_SUPPLY] = 10
        resolve(g, p, seed=seed)
        decoys = sum(g[S.box_decoys_at(slot, 0)] for slot in range(6))
        assert decoys <= 2 and g[S.DECOYS + 0] == 3 - decoys and g[S.MONEY + 0] == 9
        slipped = g[S.SLIPPED:S.SLIPPED + 36].reshape(6, 6)[:, 0].sum()
        assert slipped == 2 + decoys


# ------------------------------------------------------------------ spec 8 / 14.3: Emperor and winner
def emperor_state(p, board=(12, 9, 0, 0)):
    g = blank_state(p, 4)
    g[S.POP:S.POP + 6] = (9, 4, 8, 4, 7, 8)
    g[S.DEAD + S.POMPEE] = 1
    for seat, values in ((0, (5, 3)), (1, (4, 2, 2)), (2, (1,))):
        for v in values:
            g[S.stars_at(S.CESAR, seat, v)] += 1
    g[S.box_decoys_at(S.CESAR, 0)] = 2
    for v in (5, 5, 5, 5):
        g[S.stars_at(S.BRUTUS, 3, v)] += 1
    cells = iter(range(40, 48))
    for seat, total in enumerate(board):
        while total > 0:
            v = min(total, 5)
            cell = next(cells)
            g[S.CELL_OWNER + cell] = seat
            g[S.CELL_VALUE + cell] = v
            total -= v
    return g


def test_emperor_and_winner_example():
    p = compiled()
    g = emperor_state(p)
    # Pompée (9) is assassinated; César and Brutus tie at 8; César ranks higher -> Emperor
    assert game.emperor(g) == S.CESAR
    assert [game.score(g, p, s, S.CESAR) for s in range(4)] == [8, 8, 1, 0]
    won = np.zeros(6, np.int64)
    count, emp, best = game.winners(g, p, won)
    # P1 and P2 tie at 8; supporters on the board 12 vs 9 -> P1 alone
    assert (count, emp, best) == (1, S.CESAR, 8) and list(won) == [1, 0, 0, 0, 0, 0]
    g = emperor_state(p, board=(9, 9, 0, 0))
    count, _, _ = game.winners(g, p, won)
    assert count == 2 and list(won) == [1, 1, 0, 0, 0, 0]  # still tied: shared win (spec 8.4)


def test_count_waiting_gladiators_option():
    # VOX-A9: gladiators still under the Emperor count only with count_waiting_gladiators = true
    for flag, expected in ((False, 1), (True, 6)):
        p = compiled(count_waiting_gladiators=flag)
        g = emperor_state(p)
        g[S.glad_at(S.CESAR, 2, 5)] = 1
        assert game.score(g, p, 2, S.CESAR) == expected


def test_no_emperor_when_all_assassinated():
    p = compiled()
    g = emperor_state(p)
    g[S.DEAD:S.DEAD + 6] = 1
    assert game.emperor(g) == -1 and game.score(g, p, 0, -1) == 0


# ------------------------------------------------------------------ spec 3 set-up
def run_setup(players=4, seed=5, **params):
    p = compiled(players=players, **params)
    g = np.zeros(S.G_SIZE, np.int64)
    view = np.zeros(S.VIEW_SIZE, np.int64)
    game.init_view_board(p, view)
    stream = rng.new_stream()
    rng.start(stream, seed, 0)
    codes, params_ = kernel_inputs(players)
    assert game.setup(g, p, view, stream, codes, params_, SLOTS) == 0
    return g, p


@pytest.mark.parametrize("players", [3, 6])
def test_setup(players):
    g, p = run_setup(players)
    for s in range(players):
        # 14 pieces 1,1,1,1,2,2,2,3,3,3,4,4,5,5 (VOX-A3), 7 sesterces, 3 decoys, 4 cards
        assert [g[S.club_at(s, v)] for v in range(1, 6)] == [4, 3, 3, 2, 2]
        assert g[S.MONEY + s] == 7 and g[S.DECOYS + s] == 3 and g[S.HAND_SIZE + s] == 4
        assert sum(g[S.hand_at(s, c)] for c in range(55)) == 4
    assert g[S.DECK_LEFT] == 55 - 4 * players
    assert g[S.DECOY_SUPPLY] == 30 - 3 * players  # VOX-A11 limited
    # one arena per politician and one per quarter (spec 3.5)
    cells = g[S.ARENA_CELL:S.ARENA_CELL + 6]
    assert sorted(p[S.P_QUARTER + c] for c in cells) == list(range(6))
    assert all(g[S.CELL_OWNER + c] == S.ARENA and g[S.CELL_VALUE + c] == k for k, c in enumerate(cells))
    assert g[S.POP:S.POP + 6].sum() == 0 and g[S.LOVER] == -1 and g[S.ACTIVE] == 0


def test_left_neighbour_vox_a1():
    p = compiled()
    g = blank_state(p, 4)
    assert [game.left_of(g, p, s) for s in range(4)] == [3, 0, 1, 2]  # turn_direction = right
    p = compiled(turn_direction="left")
    assert [game.left_of(g, p, s) for s in range(4)] == [1, 2, 3, 0]


def test_shuffle_uniform_top_card_exact():
    # spec 3.1: a fair shuffle puts card VP01 on top with probability exactly 1/55
    p = compiled()
    g = np.zeros(S.G_SIZE, np.int64)
    stream = rng.new_stream()
    n, hits = 100_000, 0
    for i in range(n):
        rng.start(stream, 11, i)
        game.shuffle_deck(g, p, stream)
        hits += g[S.DECK] == 0
    se = math.sqrt((1 / 55) * (54 / 55) / n)
    assert abs(hits / n - 1 / 55) <= 5 * se


def test_deck_without_a_card_keeps_the_order():
    # VOX-A15 deck_copies: removing a card drops it and leaves every other card in the same relative order
    full, cut = compiled(), compiled(deck_copies=[0 if c == 30 else 1 for c in range(55)])
    orders = []
    for p in (full, cut):
        g = np.zeros(S.G_SIZE, np.int64)
        stream = rng.new_stream()
        rng.start(stream, 4, 9)
        game.shuffle_deck(g, p, stream)
        orders.append([int(c) for c in g[S.DECK + 55 - g[S.DECK_LEFT]:S.DECK + 55]])
    assert len(orders[1]) == 54 and orders[1] == [c for c in orders[0] if c != 30]


# ------------------------------------------------------------------ spec 6.2 match menu
def test_match_menu_needs_three_supporters_and_money():
    p = compiled()
    g = example_state(p, 3)
    view = np.zeros(S.VIEW_SIZE, np.int64)
    for money, legal in ((0, 0), (2, 1), (3, 2), (6, 3), (8, 3)):
        g[S.MONEY] = money
        view[S.VIEW_LEGAL:S.VIEW_LEGAL + 25] = 0
        assert game.match_menu(g, p, view) == legal  # Crassus only: cup 1, championship 3, international 6
    g[S.DREAM_TEAM] = 1
    assert game.match_menu(g, p, view) == 4  # star 8 after DREAM TEAM
    g[S.HOOLIGANS_Q] = 2
    assert game.match_menu(g, p, view) == 0  # 1 attending supporter


# ------------------------------------------------------------------ spec 11 information model
def test_view_hides_other_hands_and_boxes():
    p = compiled(public_money=False)
    g = blank_state(p, 3)
    g[S.hand_at(1, 5)] = 1
    g[S.CARD_STATE + 5] = S.IN_HAND
    g[S.hand_at(0, 6)] = 1
    g[S.CARD_STATE + 6] = S.IN_HAND
    g[S.stars_at(2, 1, 5)] = 1
    g[S.stars_at(3, 0, 4)] = 1
    g[S.MONEY:S.MONEY + 3] = (4, 5, 6)
    g[S.DECK:S.DECK + 55] = np.arange(55)
    view = np.zeros(S.VIEW_SIZE, np.int64)
    open_decision(g, p, 0, S.K_TURN_BONUS, 2, view)
    assert view[S.VIEW_HAND + 6] == 1 and view[S.VIEW_HAND:S.VIEW_HAND + 55].sum() == 1
    assert view[S.CARD_STATE + 5] == S.IN_DECK and view[S.CARD_STATE + 6] == S.IN_DECK
    assert view[S.VIEW_BOX_STARS + 3 * 5 + 3] == 1 and view[S.VIEW_BOX_STARS:S.VIEW_BOX_STARS + 30].sum() == 1
    assert list(view[S.MONEY:S.MONEY + 3]) == [4, -1, -1]  # VOX-A39 public_money = false
    # changing anything hidden from seat 0 (deck order, seat 1's hand and stars) leaves its view unchanged
    before = view.copy()
    g[S.DECK:S.DECK + 55] = np.arange(55)[::-1]
    g[S.hand_at(1, 9)] = 1
    g[S.stars_at(0, 1, 3)] += 2
    g[S.box_decoys_at(4, 2)] += 1
    open_decision(g, p, 0, S.K_TURN_BONUS, 2, view)
    assert np.array_equal(view, before)


# ------------------------------------------------------------------ whole games, spec 8.1 / 14.4
def test_game_lengths_spec_14_4():
    res = romesim.simulate(GAME, 400, seed=8, keep=True).outcomes
    # with 4 seats and no popularity trigger the clubs empty at the end of turn 28 exactly
    by_clubs = res[res.p_end_clubs == 1]
    assert len(by_clubs) > 0 and (by_clubs.turns == 28).all()
    by_pop = res[res.p_end_popularity == 1]
    assert (by_pop.turns <= 28).all()
    assert (res.p_end_clubs + res.p_end_popularity == 1).all() and res.p_turn_guard.sum() == 0
    # exactly one emperor (or none) and at least one winner per game
    emperors = res[[c for c in res.columns if c.startswith("p_emperor_")] + ["p_no_emperor"]].sum(axis=1)
    assert (emperors == 1).all()
    winners = res[[f"p_win_seat{s}" for s in range(6)]].sum(axis=1)
    assert (winners >= 1).all() and ((winners > 1) == (res.p_shared_win == 1)).all()


def test_end_scope_round_plays_full_rounds():
    # VOX-A7 round: the game stops only after seat N-1's turn
    res = romesim.simulate(romesim.scenario(GAME, players=3, end_scope="round"), 200, seed=2, keep=True).outcomes
    assert (res.turns % 3 == 0).all() and (res.turns <= 21).all()


def test_reproducible_whatever_the_chunks():
    sc = romesim.scenario(GAME, players=5)
    a = romesim.simulate(sc, 300, seed=4, keep=True).outcomes
    b = romesim.simulate(sc, 300, seed=4, keep=True, chunk=77).outcomes
    assert a.equals(b)


def test_bot_mix_and_bad_policy():
    policies = {"seat0": "random", "seat1": ("parametric", [0.2, 1, 1, 1, 0.5, 1, 0.2, 0.5]), "seat2": "showman"}
    r = romesim.simulate(GAME, 200, seed=1, policies=policies)
    assert r.policies["seat0"] == "random" and r.estimate("p_turn_guard") == 0
    with pytest.raises(romesim.PolicyError, match="seat1"):
        romesim.simulate(GAME, 10, policies={"seat1": "clever"})


def test_bad_parameters_name_the_field():
    with pytest.raises(romesim.ScenarioError, match="players"):
        romesim.scenario(GAME, players=2)
    assert romesim.scenario(GAME, players=2, allow_two_players=True).players == 2
    with pytest.raises(romesim.ScenarioError, match="piece_values"):
        romesim.scenario(GAME, piece_values=[1, 2, 3])
    with pytest.raises(romesim.ScenarioError, match="allow_gifts"):
        romesim.scenario(GAME, allow_gifts=True)
    with pytest.raises(romesim.ScenarioError, match="end_scope"):
        romesim.scenario(GAME, end_scope="never")


def test_toml_and_cli(capsys, tmp_path):
    path = tmp_path / "vox.toml"
    path.write_text('scenario = "vox_populi.game"\nn = 120\nseed = 3\n[params]\nplayers = 5\n'
                    '[policies]\nseat2 = "random"\n')
    sc, settings = romesim.load_toml(path)
    assert sc.players == 5 and settings["n"] == 120
    assert main(["run", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["n"] == 120 and doc["params"]["players"] == 5 and doc["policies"]["seat2"] == "random"
    assert main(["run", GAME, "-n", "60", "--set", "players=3", "--set", "end_scope=round", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["metrics"]["p_win_seat3"]["estimate"] == 0


def test_two_player_game_runs():
    r = romesim.simulate(romesim.scenario(GAME, players=2, allow_two_players=True), 100, seed=6)
    assert r.estimate("p_win_seat2") == 0 and r.estimate("p_turn_guard") == 0


def test_arena_put_helper_matches_setup_encoding():
    p = compiled()
    g = blank_state(p, 3)
    put_arena(g, 4, 33)
    assert game.quarter_has_arena(g, p, 4) and not game.quarter_has_arena(g, p, 5)


def test_default_bot_beats_random_bots():
    # the inference bot should win far more than its 1/4 share against three uniform-random seats (measured 0.87
    # over 10^4 games), and a random seat far less against three default bots (measured 0.02)
    r = romesim.simulate(GAME, 2000, seed=3, policies={f"seat{s}": "random" for s in (1, 2, 3)})
    assert r["p_win"] > 0.5
    r = romesim.simulate(GAME, 2000, seed=3, policies={"seat0": "random"})
    assert r["p_win"] < 0.1


# ------------------------------------------------------------------ spec 7.4 votes, 7.6 pools (procedures)
def procedure_inputs(p, seed, policies=None):
    view = np.zeros(S.VIEW_SIZE, np.int64)
    game.init_view_board(p, view)
    stream = rng.new_stream()
    rng.start(stream, seed, 0)
    codes, params = kernel_inputs(4, policies)
    return view, stream, codes, params


def test_votes_tally_weighted_ballots():
    # spec 7.4 (VOX-A26): every seat casts one public ballot; CENSURE weighs one ballot 0, TRICHERIE the card
    # player's 2; plurality ties go to the higher rank
    p = compiled()
    bots = {f"seat{s}": "random" for s in range(4)}
    for seed in range(30):
        g = blank_state(p, 4)
        g[S.hand_at(1, S.C_TRICHERIE)] = 1
        g[S.hand_at(2, S.C_CENSURE)] = 1
        g[S.HAND_SIZE + 1] = g[S.HAND_SIZE + 2] = 1
        view, stream, codes, params = procedure_inputs(p, seed, bots)
        yes, no, err = procedures.hold_vote(g, p, S.C_UN_FOU_DANS_LA_VILLE, 0, S.CESAR, False, view, stream, codes,
                                            params, SLOTS)
        assert err == 0
        weights = [0 if s == g[S.VOTE_CENSURED] else 2 if s == g[S.VOTE_DOUBLED] else 1 for s in range(4)]
        ballots = g[S.BALLOT:S.BALLOT + 4]
        assert set(ballots) <= {0, 1}
        assert yes == sum(w for w, b in zip(weights, ballots) if b == 1)
        assert no == sum(w for w, b in zip(weights, ballots) if b == 0)
        g = blank_state(p, 4)
        winner, _, err = procedures.hold_vote(g, p, S.C_PRESIDENT_D_HONNEUR, 0, -1, True, view, stream, codes,
                                              params, SLOTS)
        counts = np.bincount(g[S.BALLOT:S.BALLOT + 4], minlength=6)
        assert err == 0 and winner == int(np.argmax(counts))  # argmax takes the first: the higher rank


@pytest.mark.parametrize("protocol", ["sequential_open", "simultaneous_sealed"])
def test_contribution_round_caps_the_pot_and_keeps_money(protocol):
    # spec 7.6 (VOX-A25): each gives 0..min(money, 5 - pot); the pot never passes 5; money only moves to the pot
    p = compiled(pool_protocol=protocol)
    for seed in range(30):
        g = blank_state(p, 4)
        g[S.MONEY:S.MONEY + 4] = (3, 0, 4, 2)
        view, stream, codes, params = procedure_inputs(p, seed, {f"seat{s}": "random" for s in range(4)})
        pot, err = procedures.contribution_round(g, p, 2, 1, S.C_POULE_DE_LUXE, view, stream, codes, params, SLOTS)
        assert err == 0 and 1 <= pot <= 5
        assert g[S.MONEY:S.MONEY + 4].sum() + pot == 10
        assert list(g[S.CONTRIB:S.CONTRIB + 4] + g[S.MONEY:S.MONEY + 4]) == [3, 0, 4, 2]
        assert all(g[S.MONEY:S.MONEY + 4] >= 0)


# ------------------------------------------------------------------ user policies per seat (spec 10)
@numba.njit
def _take_last_legal(view, params, stream):
    # a user policy: the highest legal action, or an illegal one when params[0] says so
    if params[0] > 0:
        return view[S.VIEW_N_ACTIONS]
    for a in range(view[S.VIEW_N_ACTIONS] - 1, -1, -1):
        if view[S.VIEW_LEGAL + a]:
            return a
    return 0


def test_user_policy_answers_for_its_seat_only():
    # the seat's user function receives the seat's view; other seats keep their built-ins; an illegal action
    # becomes an error that names the seat
    p = compiled()
    g = blank_state(p, 4)
    view = np.zeros(S.VIEW_SIZE, np.int64)
    stream = rng.new_stream()
    rng.start(stream, 1, 0)
    res = romesim.core.policy.resolve(Game(players=4).decision_points, {"seat1": _take_last_legal})
    codes, params, slots = res.codes, res.params, res.slots
    open_decision(g, p, 1, S.K_NAME_QUARTER, 6, view)
    view[S.VIEW_LEGAL:S.VIEW_LEGAL + 4] = 1
    assert procedures.decide(1, view, stream, codes, params, slots) == (3, 0)
    params[1, 0] = 1.0
    action, err = procedures.decide(1, view, stream, codes, params, slots)
    assert action == 6 and err != 0
    message = str(romesim.core.policy.decode_error(err, Game().decision_points))
    assert "seat1" in message and "illegal action 6" in message
    # seat 0 is still the built-in default: a legal quarter
    open_decision(g, p, 0, S.K_NAME_QUARTER, 6, view)
    view[S.VIEW_LEGAL + 2] = view[S.VIEW_LEGAL + 5] = 1
    assert procedures.decide(0, view, stream, codes, params, slots)[0] in (2, 5)


# the view's entries by the names of the decision point's state tuple (entry i is state[i])
SEAT_STATE = Game.decision_points[0].state
N_ACTIONS = SEAT_STATE.index("n_actions")
LEGAL = SEAT_STATE.index("legal[0]")


@numba.njit
def _user_random(view, params, stream):
    # the built-in "random" (policies.random_legal) written against the names: uniform over the legal actions
    n = view[N_ACTIONS]
    count = 0
    for a in range(n):
        count += view[LEGAL + a]
    k = rng.dn(stream, count) if count > 0 else 1
    for a in range(n):
        if view[LEGAL + a]:
            k -= 1
            if k == 0:
                return a
    return 0


def test_user_function_reimplementing_random_plays_the_same_games():
    # every seat's decisions, through the kernel: a user function that reads the view by its state names gives
    # the built-in's games bit for bit, whichever seats it plays (each seat's slot is picked at run time)
    assert len(SEAT_STATE) == S.VIEW_SIZE and SEAT_STATE[S.VIEW_LEGAL] == "legal[0]"
    assert SEAT_STATE[S.VIEW_N_ACTIONS] == "n_actions" and SEAT_STATE[S.MONEY + 2] == "money[2]"
    sc = romesim.scenario(GAME, players=5)
    builtin = romesim.simulate(sc, 300, seed=5, keep=True, policies={f"seat{s}": "random" for s in range(5)})
    user = romesim.simulate(sc, 300, seed=5, keep=True,
                            policies={f"seat{s}": _user_random if s in (0, 3) else "random" for s in range(5)})
    assert user.outcomes.equals(builtin.outcomes)


# ------------------------------------------------------------------ spec 6.1 phase 1, 6.4-6.5 end of turn, 7.5 dice
def test_phase_one_places_in_the_named_quarter():
    # spec 6.1: the supporter goes on an empty cell of the quarter named by the left neighbour, the gladiator
    # under any politician; both pieces leave the club (DP02-DP04)
    for seed in range(10):
        g, p = run_setup(4, seed=seed)
        for s in range(4):  # no cards, so the windows stay silent
            g[S.HAND + s * 55:S.HAND + (s + 1) * 55] = 0
            g[S.HAND_SIZE + s] = 0
        view, stream, codes, params = procedure_inputs(p, seed, {f"seat{s}": "random" for s in range(4)})
        g[S.ACTIVE] = 2
        assert game.phase_one(g, p, view, stream, codes, params, SLOTS) == 0
        assert g[S.NAMER] == 1  # VOX-A1: the previous seat
        placed = [c for c in range(48) if g[S.CELL_OWNER + c] == 2]
        assert len(placed) == 1 and p[S.P_QUARTER + placed[0]] == g[S.DESIGNATED_Q]
        assert S.club_size(g, 2) == 12
        assert sum(S.gladiators_of(g, k, 2) for k in range(6)) == 1


def test_end_of_turn_returns_arena_cards_and_discards_hooligans():
    # spec 6.5 / VOX-A18: VOX POPULI, VOX DEI sends the other Arena cards of the turn back to their players
    # (whole_turn: before or after it; after_only: only those played after it); HOOLIGANS leaves the board
    for scope, returned in (("whole_turn", {S.C_PANEM_ET_CIRCENSES, S.C_INTERVIEW}), ("after_only", {S.C_INTERVIEW})):
        p = compiled(vox_dei_scope=scope)
        g = blank_state(p, 4)
        for seq, (card, seat) in enumerate(((S.C_PANEM_ET_CIRCENSES, 1), (S.C_VOX_POPULI_VOX_DEI, 2),
                                            (S.C_INTERVIEW, 3), (S.C_PRESSE_A_SCANDALES, 3)), start=1):
            g[S.CARD_STATE + card] = S.DISCARDED
            g[S.CARD_PLAYER + card] = seat + 1
            g[S.CARD_SEQ + card] = seq
        g[S.VOX_DEI] = 2
        g[S.CARD_STATE + S.C_HOOLIGANS] = S.IN_PLAY
        g[S.HOOLIGANS_Q] = 4
        game.end_turn(g, p)
        back = {c for c in range(55) if any(g[S.hand_at(s, c)] for s in range(4))}
        assert back == returned
        assert g[S.CARD_STATE + S.C_VOX_POPULI_VOX_DEI] == S.DISCARDED  # VOX DEI itself is discarded
        assert g[S.CARD_STATE + S.C_PRESSE_A_SCANDALES] == S.DISCARDED  # a Forum card never comes back
        assert g[S.CARD_STATE + S.C_HOOLIGANS] == S.DISCARDED and g[S.HOOLIGANS_Q] == -1


def test_die_is_fair_without_overrides():
    # spec 7.5: a fair d6 when nobody holds an override card: P(6) = 1/6 exactly, checked at 5 sigma
    p = compiled()
    g = blank_state(p, 4)
    view, stream, codes, params = procedure_inputs(p, 0)
    n = 60_000
    sixes = _sixes(n, g, p, view, stream, codes, params, SLOTS)
    assert abs(sixes / n - 1 / 6) <= 5 * math.sqrt(5 / 36 / n)


@numba.njit(cache=True)
def _sixes(n, g, p, view, stream, codes, params, slots):
    """Sixes in ``n`` rolls of ``roll_die`` (compiled: from Python each call costs most of a millisecond in typing
    its arguments)."""
    sixes = 0
    for _ in range(n):
        value, err = procedures.roll_die(g, p, 0, S.C_MERCHANDISING, view, stream, codes, params, slots)
        sixes += value == 6 and err == 0
    return sixes


def test_die_override_cards_and_phases():
    # VOX-A14: MAGOUILLE overrides dice of phases 1 and 3, MATCH TRUQUÉ dice of phase 2, once per die
    p = compiled()
    g = blank_state(p, 4)
    g[S.hand_at(1, S.C_MAGOUILLE)] = 1
    g[S.hand_at(2, S.C_MATCH_TRUQUE)] = 1
    for phase, usable in ((1, {1: S.C_MAGOUILLE}), (2, {2: S.C_MATCH_TRUQUE}), (3, {1: S.C_MAGOUILLE})):
        g[S.PHASE] = phase
        assert {s: procedures.override_card(g, p, s) for s in range(4) if procedures.override_card(g, p, s) >= 0} \
            == usable
    g[S.LOCKED] = 1  # PLACE AU SPORT: no reaction either
    assert all(procedures.override_card(g, p, s) < 0 for s in range(4))
    assert procedures.override_card(blank_state(p, 4), compiled(die_override_any_phase=True), 0) < 0
    p_any = compiled(die_override_any_phase=True)
    g[S.LOCKED] = 0
    g[S.PHASE] = 2
    assert procedures.override_card(g, p_any, 1) == S.C_MAGOUILLE
    # with a random bot holding MATCH TRUQUÉ in phase 2, a die is overridden at most once and the card is spent
    for seed in range(20):
        g = blank_state(p, 4)
        g[S.PHASE] = 2
        g[S.hand_at(2, S.C_MATCH_TRUQUE)] = 1
        g[S.HAND_SIZE + 2] = 1
        view, stream, codes, params = procedure_inputs(p, seed, {f"seat{s}": "random" for s in range(4)})
        value, err = procedures.roll_die(g, p, 0, S.C_SUSPENSE_INSOUTENABLE, view, stream, codes, params, SLOTS)
        assert err == 0 and 1 <= value <= 6 and value == g[S.DIE_VALUE]
        assert g[S.DIE_OVERRIDES] == 1 - g[S.hand_at(2, S.C_MATCH_TRUQUE)]


# ------------------------------------------------------------------------------------------------ VOX-A36
SIMULTANEOUS = dict(players=4, slip_order="simultaneous", open_stars=True, decoy_distinguishable=True)


def _pieces(g, slot, seat):
    """The stars by value and the decoys of ``seat``'s box in ``slot``, and their public record."""
    box = [g[S.stars_at(slot, seat, v)] for v in range(1, 6)] + [g[S.box_decoys_at(slot, seat)]]
    i = slot * 6 + seat
    told = [g[S.PUB_STARS + i * 5 + v] for v in range(5)] + [g[S.PUB_DECOYS + i]]
    return np.array(box), np.array(told)


def _decisions(scn, games):
    """Every pending decision of ``games`` games of ``scn``, each seat taking its default bot's action."""
    for k in range(games):
        state = romesim.new_game(scn, seed=3, game=k)
        while not state.is_terminal:
            yield state
            state = state.apply_policy()


def test_simultaneous_slips_stay_out_of_the_public_record_until_everyone_has_slipped():
    """VOX-A36: the rules give no slipping order; under the option ``slip_order = simultaneous`` each applauder
    slips blind to the others, so the public record of a slip (pieces per slot and owner, with open_stars their
    values, with decoy_distinguishable the decoys) waits until every applauder has slipped. At every decision of a
    few games, each (slot, owner)'s box is its public record plus its slips not yet public."""
    staged = 0
    for state in _decisions(romesim.scenario(GAME, **SIMULTANEOUS), 3):
        g = state._arrays[0]
        for slot in range(6):
            for seat in range(4):
                box, told = _pieces(g, slot, seat)
                waiting = g[S.STAGED + slot * 6 + seat]
                assert (told <= box).all() and (box - told).sum() == waiting
                assert g[S.slipped_at(slot, seat)] == told.sum()
                staged += waiting > 0 and state.observation["seat"] != seat
    assert staged > 0  # some seat decided while another's slips were not yet public


@pytest.mark.parametrize("open_stars, distinguishable", [(True, True), (False, False), (True, False), (False, True)])
def test_a_search_redraws_where_the_slips_not_yet_public_went(open_stars, distinguishable):
    """VOX-A36 under search: a seat deciding while others' slips are not yet public sees their number, not their
    slots: ``vox_determinize`` keeps each slot's public record (its count, and what open_stars and
    decoy_distinguishable tell apart, the other public pieces being of the kind left), keeps every piece, and deals
    each piece not yet public into a slot drawn at even odds (1/6 each, checked within 5 sigma)."""
    scn = romesim.scenario(GAME, **dict(SIMULTANEOUS, open_stars=open_stars, decoy_distinguishable=distinguishable))
    state = next(s for s in _decisions(scn, 6) if any(
        s._arrays[0][S.STAGED + slot * 6 + seat] for slot in range(6) for seat in range(4)
        if seat != s.observation["seat"]))
    point, p = state.point_index, state._game.args[0]
    g0, view0, row0 = (a.copy() for a in state._arrays)
    others = [seat for seat in range(4) if seat != point]
    waiting = sum(g0[S.STAGED + slot * 6 + seat] for slot in range(6) for seat in others)
    counts, draws = np.zeros(6), 2000
    stream = rng.new_stream()
    for k in range(draws):
        g, view, row = g0.copy(), view0.copy(), row0.copy()
        rng.start(stream, np.uint64(5), k)
        game.vox_determinize(point, stream, p, g, view, row)
        counts += [sum(g[S.STAGED + slot * 6 + seat] for seat in others) for slot in range(6)]
        if k >= 100:
            continue
        for seat in range(4):
            mine = [_pieces(g, slot, seat) for slot in range(6)]
            before = [_pieces(g0, slot, seat) for slot in range(6)]
            assert sum(b for b, _ in mine).tolist() == sum(b for b, _ in before).tolist()  # the same pieces
            for slot in range(6):
                (box, told), (box0, told0) = mine[slot], before[slot]
                public = g[S.slipped_at(slot, seat)]
                assert public == g0[S.slipped_at(slot, seat)] and (told == told0).all() and (told <= box).all()
                assert box.sum() == public + g[S.STAGED + slot * 6 + seat]
                if open_stars:  # the public pieces whose value is not told are decoys
                    assert box[5] >= public - told[:5].sum()
                if distinguishable:  # ... stars
                    assert box[:5].sum() >= public - told[5]
                if seat == point:
                    assert (box == box0).all() and g[S.STAGED + slot * 6 + seat] == g0[S.STAGED + slot * 6 + seat]
    assert counts.sum() == draws * waiting
    pieces = draws * waiting
    assert np.all(np.abs(counts - pieces / 6) <= 5 * math.sqrt(pieces * (1 / 6) * (5 / 6)))
