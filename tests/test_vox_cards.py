"""Vox Populi event cards (spec 9 and the card texts of the seed; windows 7.1, Cleopatra 7.2, assassination 7.3,
votes 7.4, dice 7.5, pooled payments 7.6, money 7.7, ambiguities VOX-A13..A34).

Each card is played through ``cards.play_card`` on a constructed table, as the game does after taking it out of
the hand; ``card_playable`` is checked against the card's window, colour, player, precondition and cost. Dice
cards are checked face by face (the pure face functions) and their whole distribution against the exact one
enumerated below from the card text (spec 14.2), by Monte Carlo at 5 sigma. Votes and pools are played by the
``random`` bot; each test recomputes the card's outcome from the public ballots and contributions it left.
"""
from fractions import Fraction as F
from math import sqrt

import numpy as np
import pytest

import romesim
from romesim.core import rng
from romesim.core.jit import njit
from romesim.core.loop import copy_into
from romesim.core.policy import slots_for
from romesim.vox_populi import cards
from romesim.vox_populi import state as st
from romesim.vox_populi.game import init_view_board
from romesim.vox_populi.policies import CODE_RANDOM
from romesim.vox_populi.state import (
    ANTOINE,
    BRUTUS,
    CESAR,
    CHAMPIONSHIP,
    CRASSUS,
    CUP,
    INTERNATIONAL,
    OCTAVE,
    POMPEE,
    STAR,
    W1A,
    W1B,
    W2,
    W3,
)

SIGMA = 5.0
SEATS = 4
CODES = np.full(6, CODE_RANDOM, np.int64)
PARAMS = np.zeros((6, 8), np.float64)
SLOTS = slots_for([None] * 6)  # the six seats' slots under built-ins (never called)
ARENA_CELLS = (9, 13, 25, 29, 41, 45)  # one arena per quarter (spec 3.5), politician k in quarter k
C = {name: i for i, name in enumerate(cards.CARD_NAMES)}


def compiled(**options):
    return romesim.scenario("vox_populi.game", players=SEATS, **options).compiled()


P = compiled()


def table(money=7, pop=(0, 0, 0, 0, 0, 0)):
    """Seat 0's turn, phase 1, nothing placed yet: arenas on ARENA_CELLS, full clubs, no supporters, every card in
    the deck in id order (spec 3)."""
    g = np.zeros(st.G_SIZE, np.int64)
    g[st.N_SEATS] = SEATS
    g[st.CELL_OWNER:st.CELL_OWNER + st.N_CELLS] = st.EMPTY
    for pol, cell in enumerate(ARENA_CELLS):
        g[st.ARENA_CELL + pol] = cell
        g[st.CELL_OWNER + cell] = st.ARENA
        g[st.CELL_VALUE + cell] = pol
    for f in (st.LOVER, st.HOOLIGANS_Q, st.GUEST, st.ABSENT, st.DESIGNATED_Q, st.VOTE_CENSURED, st.VOTE_DOUBLED):
        g[f] = -1
    g[st.METER:st.METER + st.MAX_SEATS] = -1
    g[st.BALLOT:st.BALLOT + st.MAX_SEATS] = -1
    for s in range(SEATS):
        g[st.MONEY + s] = money
        for v in (1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5):
            g[st.club_at(s, v)] += 1
    g[st.POP:st.POP + 6] = pop
    g[st.DECK:st.DECK + st.N_CARDS] = np.arange(st.N_CARDS)
    g[st.DECK_LEFT] = st.N_CARDS
    g[st.PHASE] = 1
    return g


def give(g, seat, card):
    """Take ``card`` out of the deck into ``seat``'s hand."""
    left = [c for c in g[st.DECK + st.N_CARDS - g[st.DECK_LEFT]:st.DECK + st.N_CARDS] if c != card]
    g[st.DECK_LEFT] = len(left)
    g[st.DECK + st.N_CARDS - len(left):st.DECK + st.N_CARDS] = left
    g[st.hand_at(seat, card)] = 1
    g[st.HAND_SIZE + seat] += 1
    g[st.CARD_STATE + card] = st.IN_HAND


def start_match(g, pol, kind, organiser=0):
    """Spec 6.2: the organiser has announced and paid a match of ``kind`` at ``pol``'s arena."""
    g[st.PHASE] = 2
    g[st.MATCH_DECIDED] = 1
    g[st.MATCH_ON] = 1
    g[st.ORGANISER] = organiser
    g[st.M_POL] = pol
    g[st.M_TYPE] = kind
    g[st.M_PRICE_PAID] = st.PRICE[kind]


def put_supporter(g, cell, owner, value):
    g[st.CELL_OWNER + cell] = owner
    g[st.CELL_VALUE + cell] = value


def view_for(p):
    view = np.zeros(st.VIEW_SIZE, np.int64)
    init_view_board(p, view)
    return view


def playable(card, seat, window, g, p=P):
    return cards.card_playable(card, seat, window, g, p)


def play(card, seat, window, g, p=P, seed=0, game=0):
    """What the game does with a card chosen at a priority: out of the hand, then ``play_card``."""
    if not g[st.hand_at(seat, card)]:
        give(g, seat, card)
    assert cards.card_playable(card, seat, window, g, p), cards.CARD_NAMES[card]
    st.discard_from_hand(g, p, seat, card)
    stream = rng.new_stream()
    rng.start(stream, seed, game)
    err = cards.play_card(card, seat, window, g, p, view_for(p), stream, CODES, PARAMS, SLOTS)
    assert err == 0
    return g


def pops(g):
    return list(g[st.POP:st.POP + 6])


def moneys(g):
    return list(g[st.MONEY:st.MONEY + SEATS])


def ballots(g):
    return list(g[st.BALLOT:st.BALLOT + SEATS])


# ------------------------------------------------------------------ the card table (spec 9, 7.1, CSV)
def test_card_table_read_from_the_csv():
    # spec 9: 55 distinct cards, 30 Forum (VP01-VP30) and 25 Arena (VP31-VP55) under the inferred map (VOX-A13)
    assert len(cards.CARD_NAMES) == 55 and len(set(cards.CARD_NAMES)) == 55
    assert list(cards.CARD_ARENA) == [0] * 30 + [1] * 25
    assert all(cards.CARD_ARENA[c] == st.is_arena_card(P, c) for c in range(55))
    assert list(cards.CARD_COPIES) == [1] * 55  # VOX-A15 one_each
    # spec 9: "15 cards roll dice"
    assert cards.CARD_ROLLS_DICE.sum() == 15
    # spec 9 family summary: match-type restricted cards
    restricted = {cards.CARD_NAMES[c]: int(cards.CARD_MATCH_TYPE[c]) for c in range(55)
                  if cards.CARD_MATCH_TYPE[c] >= 0}
    assert restricted == {"BOOKMAKER": CUP, "SUSPENSE INSOUTENABLE": CUP, "ÉQUIPE RÉSERVE": CUP,
                          "MATCH ÉPIQUE": CHAMPIONSHIP, "PUBLIC ENTHOUSIASTE": CHAMPIONSHIP,
                          "AUX CHIOTTES L'ARBITRE": CHAMPIONSHIP, "PÉTAGE DE GUEULE": INTERNATIONAL}
    # spec 7.2: the nine cards Cleopatra enables, DREAM TEAM the one she disables; ÉMEUTE has no condition (VOX-A27)
    enabled = {cards.CARD_NAMES[c] for c in range(55) if cards.CARD_CLEOPATRA[c] == 1}
    assert enabled == {"RÉPRESSION DANS LES QUARTIERS GAULOIS", "RÈGLEMENTS DE COMPTES ENTRE SUPPORTERS",
                       "BASTONS DANS LES FAUBOURGS BABYLONIENS", "ÉCHAUFFOURÉE DANS LES QUARTIERS GRECS", "MON HÉROS !",
                       "C.O.J.C.", "AFFAIRE DE FAMILLE", "POULE DE LUXE", "COUP DE FOUDRE"}
    assert [cards.CARD_NAMES[c] for c in range(55) if cards.CARD_CLEOPATRA[c] == -1] == ["DREAM TEAM"]
    # spec 7.1: printed costs (BOOKMAKER's stake is at least 1)
    costs = {cards.CARD_NAMES[c]: int(cards.CARD_COST[c]) for c in range(55) if cards.CARD_COST[c]}
    assert costs == {"TRANSFERT TARDIF": 2, "TOURNÉE GÉNÉRALE": 3, "AUGMENTATION DU PRIX DES BILLETS": 3,
                     "BOOKMAKER": 1}
    # spec 7.5, 7.4: the reaction cards
    assert [cards.CARD_NAMES[c] for c in range(55) if cards.CARD_REACTION[c] == cards.REACTS_TO_DIE] == [
        "MAGOUILLE", "MATCH TRUQUÉ"]
    assert [cards.CARD_NAMES[c] for c in range(55) if cards.CARD_REACTION[c] == cards.REACTS_TO_VOTE] == [
        "CENSURE", "TRICHERIE"]
    # the constants of state.py name the same rows
    assert C["PÉTAGE DE GUEULE"] == st.C_PETAGE_DE_GUEULE and C["CLÉOPÂTRE"] == st.C_CLEOPATRE


def test_windows_follow_colour_spec_7_1():
    # Forum cards only in W1a/W1b/W3, Arena cards only in W2 (spec 7.1); AMICALES and QUARTIER LIBRE only W1a,
    # DREAM TEAM and MAUVAIS ORGANISATEUR W1a/W1b (CSV window column, VOX-A29, VOX-A30, VOX-A31)
    w1a_only = {C["AMICALES DES SUPPORTERS"], C["QUARTIER LIBRE"]}
    phase1 = {C["DREAM TEAM"], C["MAUVAIS ORGANISATEUR"]}
    for c in range(55):
        mask = int(cards.card_windows(c, P))
        if cards.CARD_ARENA[c]:
            assert mask == 1 << W2, cards.CARD_NAMES[c]
        elif c in w1a_only:
            assert mask == 1 << W1A
        elif c in phase1:
            assert mask == (1 << W1A) | (1 << W1B)
        else:
            assert mask == (1 << W1A) | (1 << W1B) | (1 << W3), cards.CARD_NAMES[c]
    g = table()
    assert playable(C["MERCHANDISING"], 1, W1A, g) and playable(C["MERCHANDISING"], 1, W3, g)
    assert not playable(C["MERCHANDISING"], 1, W2, g)
    assert not playable(C["INTERVIEW"], 1, W2, g)  # no match in progress
    start_match(g, CRASSUS, CUP)
    assert playable(C["INTERVIEW"], 1, W2, g) and not playable(C["INTERVIEW"], 1, W3, g)


def test_reaction_cards_are_never_offered_in_a_window():
    # MAGOUILLE / MATCH TRUQUÉ react to a die (spec 7.5), CENSURE / TRICHERIE to a vote (spec 7.4)
    g = table()
    start_match(g, CRASSUS, CUP)
    for name in ("MAGOUILLE", "MATCH TRUQUÉ", "CENSURE", "TRICHERIE"):
        for window in (W1A, W1B, W2, W3):
            assert not playable(C[name], 1, window, g)


def test_who_may_play_and_costs():
    g = table()
    # QUARTIER LIBRE: the active player only; AMICALES: another player only (VOX-A31)
    assert playable(C["QUARTIER LIBRE"], 0, W1A, g) and not playable(C["QUARTIER LIBRE"], 1, W1A, g)
    assert playable(C["AMICALES DES SUPPORTERS"], 1, W1A, g) and not playable(C["AMICALES DES SUPPORTERS"], 0, W1A, g)
    assert cards.card_playable(C["AMICALES DES SUPPORTERS"], 0, W1A, g, compiled(amicales_by_active=True))
    # both only before the supporter is placed
    g[st.SUPPORTER_PLACED] = 1
    assert not playable(C["QUARTIER LIBRE"], 0, W1A, g)
    # a printed cost must be affordable in full (spec 7.1)
    g = table(money=2)
    start_match(g, CRASSUS, CUP)
    assert not playable(C["TOURNÉE GÉNÉRALE"], 1, W2, g)
    assert not playable(C["AUGMENTATION DU PRIX DES BILLETS"], 1, W2, g)
    g[st.MONEY + 1] = 3
    assert playable(C["TOURNÉE GÉNÉRALE"], 1, W2, g)
    g[st.MONEY + 1] = 0
    assert not playable(C["BOOKMAKER"], 1, W2, g)


def test_cleopatra_conditions_spec_7_2():
    g = table()
    for name in ("RÉPRESSION DANS LES QUARTIERS GAULOIS", "MON HÉROS !", "C.O.J.C.", "COUP DE FOUDRE",
                 "RÈGLEMENTS DE COMPTES ENTRE SUPPORTERS"):
        assert not playable(C[name], 1, W1A, g)
    assert playable(C["DREAM TEAM"], 1, W1A, g)
    assert playable(C["ÉMEUTE DANS LES QUARTIERS ÉGYPTIENS"], 1, W1A, g)  # VOX-A27 literal
    assert not cards.card_playable(C["ÉMEUTE DANS LES QUARTIERS ÉGYPTIENS"], 1, W1A, g,
                                   compiled(emeute_needs_cleopatra=True))
    g[st.CLEOPATRA] = 1
    for name in ("RÉPRESSION DANS LES QUARTIERS GAULOIS", "MON HÉROS !", "C.O.J.C.", "COUP DE FOUDRE"):
        assert playable(C[name], 1, W1A, g)
    assert not playable(C["DREAM TEAM"], 1, W1A, g)
    # SCANDALE SEXUEL and POULE DE LUXE need a lover on the board (VOX-A28)
    assert not playable(C["SCANDALE SEXUEL"], 1, W1A, g) and not playable(C["POULE DE LUXE"], 1, W1A, g)
    g[st.LOVER] = OCTAVE
    assert playable(C["SCANDALE SEXUEL"], 1, W1A, g) and playable(C["POULE DE LUXE"], 1, W1A, g)


def test_match_type_restrictions_spec_9():
    g = table()
    for kind, ok in ((CUP, True), (CHAMPIONSHIP, False), (INTERNATIONAL, False), (STAR, False)):
        start_match(g, CESAR, kind)
        assert playable(C["SUSPENSE INSOUTENABLE"], 1, W2, g) == ok
        assert playable(C["ÉQUIPE RÉSERVE"], 1, W2, g) == ok
        assert playable(C["MATCH ÉPIQUE"], 1, W2, g) == (kind == CHAMPIONSHIP)
        assert playable(C["AUX CHIOTTES L'ARBITRE"], 1, W2, g) == (kind == CHAMPIONSHIP)
        assert playable(C["PÉTAGE DE GUEULE"], 1, W2, g) == (kind == INTERNATIONAL)
        assert playable(C["INTERVIEW"], 1, W2, g)  # "a match is in progress": any type, star included


# ------------------------------------------------------------------ Forum cards
def test_dream_team_vox_a29():
    g = play(C["DREAM TEAM"], 2, W1B, table())
    assert g[st.DREAM_TEAM] == 1
    g = table()
    g[st.MATCH_DECIDED] = 1
    assert not playable(C["DREAM TEAM"], 2, W1B, g)  # "no match announced yet"
    # dream_team_colour = A: the organiser turns his announced championship into a star match, paying 8 - 3
    p = compiled(dream_team_colour="A")
    g = table()
    start_match(g, CESAR, CHAMPIONSHIP)
    assert not cards.card_playable(C["DREAM TEAM"], 0, W1A, g, p)
    assert not cards.card_playable(C["DREAM TEAM"], 1, W2, g, p)  # not the organiser
    play(C["DREAM TEAM"], 0, W2, g, p)
    assert g[st.M_TYPE] == STAR and g[st.M_PRICE_PAID] == 8 and moneys(g)[0] == 7 - 5


def test_transfert_tardif():
    g = table()
    assert not playable(C["TRANSFERT TARDIF"], 1, W1A, g)  # nothing eliminated yet
    g[st.elim_at(1, 4)] = 1
    g[st.club_at(1, 4)] -= 1
    play(C["TRANSFERT TARDIF"], 1, W3, g)
    assert g[st.elim_at(1, 4)] == 0
    assert sum(g[st.glad_at(k, 1, 4)] for k in range(6)) == 1  # back as a gladiator, same value
    assert moneys(g)[1] == 5  # cost 2


def test_expulsion_vox_a22():
    """Card EXPULSION (VOX-A22): « Les supporters impliqués sont chassés de leur quartier. Vous pouvez prendre un
    supporter déjà en jeu et le poser sur un quartier vide de votre choix » (the supporters involved are driven out
    of their quarter; you may take a supporter already in play and put it on an empty quarter of your choice). By
    default the supporter goes to an empty cell of another quarter (`expulsion_target = other_quarter_cell`)."""
    quarter = [int(P[st.P_QUARTER + c]) for c in range(48)]
    for seed in range(5):
        g = table()
        put_supporter(g, 10, 2, 5)
        play(C["EXPULSION"], 1, W1A, g, seed=seed)
        owners = g[st.CELL_OWNER:st.CELL_OWNER + 48]
        assert g[st.CELL_OWNER + 10] == st.EMPTY and list(owners).count(2) == 1
        dest = int(np.flatnonzero(owners == 2)[0])
        assert g[st.CELL_VALUE + dest] == 5 and dest not in ARENA_CELLS
        assert quarter[dest] != quarter[10]
    # the legal destinations, by hand: every empty cell (no piece, no arena) outside the origin's quarter 0
    g = table()
    put_supporter(g, 10, 2, 5)
    put_supporter(g, 20, 3, 1)
    legal = {c for c in range(48) if cards.expulsion_destination(g, P, c, 10)}
    assert legal == {c for c in range(48) if quarter[c] != 0 and c not in ARENA_CELLS and c != 20}
    # every other quarter full: the card has nowhere to send him (playable only with expulsion_target = empty_cell,
    # the old reading that lets him stay in his own quarter)
    g = table()
    for c in range(48):
        if quarter[c] != 0 and c not in ARENA_CELLS:
            put_supporter(g, c, 3, 1)
    put_supporter(g, 10, 2, 5)
    assert not cards.expulsion_source(g, P, 1, 10)
    assert cards.expulsion_source(g, P, 1, 20)  # a supporter of another quarter may still be driven into quarter 0
    p_cell = compiled(expulsion_target="empty_cell")
    assert cards.expulsion_source(g, p_cell, 1, 10)
    assert {c for c in range(48) if cards.expulsion_destination(g, p_cell, c, 10)} == {
        c for c in range(48) if quarter[c] == 0 and c not in ARENA_CELLS and c != 10}
    # expulsion_own_only: only the card player's supporters may move
    g = table()
    put_supporter(g, 10, 2, 5)
    assert not cards.card_playable(C["EXPULSION"], 1, W1A, g, compiled(expulsion_own_only=True))
    # expulsion_target = empty_quarter: only into another quarter with no supporter
    p = compiled(expulsion_target="empty_quarter")
    for seed in range(8):
        g = table()
        for cell in (0, 4, 16, 20, 32):
            put_supporter(g, cell, 3, 1)
        put_supporter(g, 1, 2, 5)
        before = {c for c in range(48) if g[st.CELL_OWNER + c] >= 0}
        play(C["EXPULSION"], 1, W1A, g, p, seed=seed)
        after = {c for c in range(48) if g[st.CELL_OWNER + c] >= 0}
        (dest,) = after - before
        assert len(before - after) == 1
        assert [c for c in after if P[st.P_QUARTER + c] == P[st.P_QUARTER + dest]] == [dest]
    # a supporter alone in his quarter may not stay in it, empty as it becomes once he is lifted
    g = table()
    put_supporter(g, 1, 2, 5)
    legal = {c for c in range(48) if cards.expulsion_destination(g, p, c, 1)}
    assert legal == {c for c in range(48) if quarter[c] != 0 and c not in ARENA_CELLS}


def test_amicales_des_supporters_and_quartier_libre_vox_a31():
    g = table()
    g[st.DESIGNATED_Q] = 2
    play(C["QUARTIER LIBRE"], 0, W1A, g)
    assert g[st.FREE_PLACEMENT] == 1
    give(g, 3, C["AMICALES DES SUPPORTERS"])
    deck, hand = g[st.DECK_LEFT], g[st.HAND_SIZE + 3]
    play(C["AMICALES DES SUPPORTERS"], 3, W1A, g)
    # the later card governs: the designation replaces the free placement; the card player draws one card
    assert g[st.FREE_PLACEMENT] == 0 and 0 <= g[st.DESIGNATED_Q] < 6
    assert g[st.DECK_LEFT] == deck - 1 and g[st.HAND_SIZE + 3] == hand
    # a full quarter cannot be named
    g = table()
    for cell in range(48):
        if P[st.P_QUARTER + cell] != 4 and g[st.CELL_OWNER + cell] == st.EMPTY:
            put_supporter(g, cell, 1, 1)
    play(C["AMICALES DES SUPPORTERS"], 3, W1A, g)
    assert g[st.DESIGNATED_Q] == 4


def test_mauvais_organisateur_vox_a30():
    g = play(C["MAUVAIS ORGANISATEUR"], 1, W1B, table())
    assert g[st.FORCED_MATCH] == 1
    g = table()
    assert not playable(C["MAUVAIS ORGANISATEUR"], 1, W3, g)
    p = compiled(forced_match_window="phase1_or_3")
    g[st.MATCH_DECIDED] = 0
    play(C["MAUVAIS ORGANISATEUR"], 1, W3, g, p)
    assert g[st.FORCED_MATCH] == 0  # playable in phase 3, to no effect


def test_place_au_sport():
    assert play(C["PLACE AU SPORT"], 2, W1A, table())[st.LOCKED] == 1


@pytest.mark.parametrize("name, spared", [("RÉPRESSION DANS LES QUARTIERS GAULOIS", CESAR),
                                          ("ÉMEUTE DANS LES QUARTIERS ÉGYPTIENS", POMPEE)])
def test_quarter_riots_minus_one_except_one(name, spared):
    g = table(pop=(3, 0, 2, 1, 5, 1))
    g[st.CLEOPATRA] = 1
    play(C[name], 1, W1A, g)
    want = [max(v - 1, 0) if k != spared else v for k, v in enumerate((3, 0, 2, 1, 5, 1))]  # floor 0, VOX-A34
    assert pops(g) == want
    # RÉPRESSION puts the lover marker on César (spec 7.2); ÉMEUTE places nothing
    assert g[st.LOVER] == (CESAR if spared == CESAR else -1)


def test_hooligans_vox_a38():
    g = play(C["HOOLIGANS"], 1, W1B, table())
    assert 0 <= g[st.HOOLIGANS_Q] < 6 and g[st.CARD_STATE + C["HOOLIGANS"]] == st.IN_PLAY


def test_mon_heros_vox_a20():
    g = table(pop=(4, 7, 7, 2, 0, 9))
    g[st.CLEOPATRA] = 1
    g[st.DEAD + BRUTUS] = 1
    play(C["MON HÉROS !"], 1, W1A, g)
    assert g[st.LOVER] == CRASSUS  # Brutus is dead; Crassus and César tie at 7, Crassus ranks higher
    g = table(pop=(4, 7, 7, 2, 0, 9))
    g[st.CLEOPATRA] = 1
    g[st.DEAD + BRUTUS] = 1
    play(C["MON HÉROS !"], 1, W1A, g, compiled(dead_can_be_targeted=True))
    assert g[st.LOVER] == BRUTUS


def test_cleopatre():
    g = table()
    assert not playable(C["CLÉOPÂTRE"], 1, W1A, g)  # 14 pieces left
    for v in (1, 1, 1, 1, 2, 2, 2, 3, 3, 3):
        g[st.club_at(1, v)] -= 1
    play(C["CLÉOPÂTRE"], 1, W3, g)  # 4 pieces left
    assert moneys(g)[1] == 12 and g[st.CLEOPATRA] == 1 and g[st.CARD_STATE + C["CLÉOPÂTRE"]] == st.IN_PLAY
    assert g[st.LOVER] == -1  # places no lover marker (VOX-A28)


def test_un_fou_dans_la_ville_spec_7_4():
    outcomes = set()
    for seed in range(100):  # four random ballots are all YES one time in 16
        g = table()
        g[st.DEAD + OCTAVE] = 1
        play(C["UN FOU DANS LA VILLE"], 1, W1A, g, seed=seed)
        target = g[st.VOTE_TARGET]
        assert target != OCTAVE  # living politicians only (VOX-A20)
        killed = bool(g[st.DEAD + target])
        assert killed == (0 not in ballots(g))  # one NO ballot blocks
        outcomes.add(killed)
    assert outcomes == {True, False}


@pytest.mark.parametrize("name, target", [("C.O.J.C.", ANTOINE), ("AFFAIRE DE FAMILLE", OCTAVE)])
def test_majority_votes_spec_7_4(name, target):
    outcomes = set()
    for seed in range(40):
        g = table(pop=(3, 3, 3, 3, 3, 3))
        g[st.CLEOPATRA] = 1
        play(C[name], 1, W1A, g, seed=seed)
        yes = ballots(g).count(1)
        passed = yes > SEATS - yes  # weighted YES > weighted NO; 2-2 fails
        assert g[st.POP + target] == (2 if passed else 3)
        outcomes.add(passed)
        # AFFAIRE DE FAMILLE moves the lover marker to Antoine (VOX-A28)
        assert g[st.LOVER] == (ANTOINE if name == "AFFAIRE DE FAMILLE" else -1)
    assert outcomes == {True, False}
    g = table()
    g[st.CLEOPATRA] = 1
    play(C["AFFAIRE DE FAMILLE"], 1, W1A, g, compiled(affaire_moves_lover=False))
    assert g[st.LOVER] == -1


def test_scandale_sexuel_spec_7_4():
    outcomes = set()
    for seed in range(40):
        g = table()
        g[st.LOVER] = CRASSUS
        play(C["SCANDALE SEXUEL"], 1, W1A, g, seed=seed)
        killed = bool(g[st.DEAD + CRASSUS])
        assert killed == (ballots(g).count(0) < 2)  # at least 2 NO ballots save him
        outcomes.add(killed)
    assert outcomes == {True, False}


def test_president_d_honneur_plurality():
    for seed in range(20):
        g = table()
        play(C["PRÉSIDENT D'HONNEUR"], 1, W3, g, seed=seed)
        tally = [ballots(g).count(k) for k in range(6)]
        winner = tally.index(max(tally))  # ties: the first, i.e. the higher rank
        assert pops(g) == [1 if k == winner else 0 for k in range(6)]
    g = table()
    g[st.DEAD:st.DEAD + 6] = 1
    play(C["PRÉSIDENT D'HONNEUR"], 1, W3, g)
    assert pops(g) == [0] * 6  # an assassinated winner gains nothing (VOX-A20)


def test_coup_de_foudre_vox_a20():
    chosen = set()
    for seed in range(30):
        g = table()
        g[st.CLEOPATRA] = 1
        g[st.DEAD + POMPEE] = 1
        play(C["COUP DE FOUDRE"], 1, W1A, g, seed=seed)
        chosen.add(int(g[st.LOVER]))
    assert chosen == {1, 2, 3, 4, 5}


def test_arene_pourrie_pool_spec_7_6():
    seen = set()
    for seed in range(40):
        g = table(money=3)
        play(C["ARÈNE POURRIE"], 1, W1A, g, seed=seed)
        paid = 4 * 3 - sum(moneys(g))
        assert paid == sum(g[st.CONTRIB:st.CONTRIB + 6]) and paid <= 5
        if paid == 5:  # the pot reached 5: to the bank, card discarded
            assert g[st.ROTTEN] == 0 and g[st.CARD_STATE + C["ARÈNE POURRIE"]] == st.DISCARDED
        else:  # the card stays in play with its pot (boos +3 at every match until paid)
            assert g[st.ROTTEN] == 1 and g[st.ROTTEN_POT] == paid
            assert g[st.CARD_STATE + C["ARÈNE POURRIE"]] == st.IN_PLAY
        seen.add(paid == 5)
    assert seen == {True, False}
    g = table()
    g[st.ROTTEN] = 1
    assert not playable(C["ARÈNE POURRIE"], 1, W1A, g)


def test_poule_de_luxe_spec_7_6():
    seen = set()
    for seed in range(40):
        g = table(money=3, pop=(5, 5, 5, 5, 5, 5))
        g[st.CLEOPATRA] = 1
        g[st.LOVER] = ANTOINE
        play(C["POULE DE LUXE"], 2, W1A, g, seed=seed)
        gathered = 12 - sum(moneys(g))
        if gathered == 5:
            assert g[st.POP + ANTOINE] == 5
        else:  # contributions refunded, the lover -2
            assert gathered == 0 and g[st.POP + ANTOINE] == 3
        seen.add(gathered)
    assert seen == {0, 5}


# ------------------------------------------------------------------ Arena cards
@pytest.mark.parametrize("name, flag", [
    ("INTERVIEW", st.INTERVIEW), ("RÉCUPÉRATION POLITIQUE", st.RECUP), ("PAX DEORUM", st.PAX),
    ("PANEM ET CIRCENSES", st.PANEM), ("ARÈNE GRATUITE", st.FREE_ARENA), ("PIÉTINE", st.TRAMPLE),
    ("LYNCHAGE MÉDIATIQUE", st.LYNCH), ("VAE VICTIS", st.VAE_VICTIS), ("MAUVAISE SONORISATION", st.BAD_SOUND)])
def test_match_flags(name, flag):
    # these cards act at the reveal (spec 6.3): the card sets the flag of the match record the game reads
    g = table()
    start_match(g, CESAR, STAR)
    before = g.copy()
    play(C[name], 2, W2, g)
    changed = set(np.flatnonzero(g != before))
    assert g[flag] == 1
    assert changed <= {flag, st.hand_at(2, C[name]), st.HAND_SIZE + 2, st.CARD_STATE + C[name], st.DECK_LEFT,
                       st.CARD_PLAYER + C[name], st.CARD_SEQ + C[name], st.N_CARDS_PLAYED, st.ARENA_CARDS_PLAYED,
                       st.CARDS_THIS_TURN} | set(range(st.DECK, st.DECK + 55))


def test_tournee_generale_and_augmentation():
    g = table()
    start_match(g, CESAR, CUP)
    play(C["TOURNÉE GÉNÉRALE"], 1, W2, g)
    play(C["AUGMENTATION DU PRIX DES BILLETS"], 2, W2, g)
    assert g[st.APP_BONUS] == 3 and g[st.BOO_VOIDABLE] == 3 and moneys(g) == [7, 4, 4, 7]


def test_depense_inconsideree_vox_a23():
    g = table()
    start_match(g, CESAR, CHAMPIONSHIP)
    g[st.MONEY] = 4
    play(C["DÉPENSE INCONSIDÉRÉE"], 2, W2, g)
    assert g[st.MONEY] == 1 and g[st.M_PRICE_PAID] == 6 and g[st.TURN_ENDED] == 0
    g = table()
    start_match(g, CESAR, CHAMPIONSHIP)
    g[st.MONEY] = 2
    play(C["DÉPENSE INCONSIDÉRÉE"], 2, W2, g)
    assert g[st.TURN_ENDED] == 1 and g[st.MONEY] == 2  # cancelled; the price already paid is lost
    g = table()
    start_match(g, CESAR, CHAMPIONSHIP)
    g[st.MONEY] = 2
    play(C["DÉPENSE INCONSIDÉRÉE"], 2, W2, g, compiled(depense_fail="cancel_refund"))
    assert g[st.TURN_ENDED] == 1 and g[st.MONEY] == 5


def test_freres_ennemis_vox_a19():
    guests = set()
    for seed in range(30):
        g = table()
        start_match(g, CESAR, CUP)
        play(C["FRÈRES ENNEMIS"], 1, W2, g, seed=seed)
        guests.add(int(g[st.GUEST]))
    assert guests == {0, 1, 3, 4, 5}  # anyone but the arena's politician
    assert not playable(C["FRÈRES ENNEMIS"], 1, W2, g)  # one guest per match


def test_ne_pas_deranger_vox_a33():
    g = table()
    start_match(g, CESAR, CUP)
    assert not playable(C["NE PAS DÉRANGER"], 1, W2, g)  # no lover
    g[st.LOVER] = OCTAVE
    assert not playable(C["NE PAS DÉRANGER"], 1, W2, g)  # the lover does not attend
    g[st.GUEST] = OCTAVE
    play(C["NE PAS DÉRANGER"], 1, W2, g)  # the FRÈRES ENNEMIS guest is the lover
    assert g[st.ABSENT] == OCTAVE
    g = table()
    start_match(g, CESAR, CUP)
    g[st.LOVER] = CESAR
    play(C["NE PAS DÉRANGER"], 1, W2, g)
    assert g[st.ABSENT] == CESAR


def test_remplacant():
    g = table()
    start_match(g, CESAR, CUP)
    assert not playable(C["REMPLAÇANT"], 1, W2, g)
    g[st.glad_at(CESAR, 1, 5)] = 1
    play(C["REMPLAÇANT"], 1, W2, g)
    assert g[st.glad_at(CESAR, 1, 5)] == 0
    assert sum(g[st.glad_at(k, 1, 5)] for k in range(6) if k != CESAR) == 1


def test_vox_populi_vox_dei_vox_a18():
    g = table()
    start_match(g, CESAR, CUP)
    play(C["INTERVIEW"], 1, W2, g)
    play(C["VOX POPULI, VOX DEI"], 2, W2, g)
    # the game returns the other Arena cards at the end of the turn; the card records its place in the turn
    assert g[st.VOX_DEI] == g[st.CARD_SEQ + C["VOX POPULI, VOX DEI"]] > g[st.CARD_SEQ + C["INTERVIEW"]] > 0


# ------------------------------------------------------------------ dice: face by face, then whole distributions
def test_die_faces_follow_the_card_texts():
    # the three-band cards: 1-2 / 3-4 / 5-6 (SUSPENSE +1/+3/+5, PUBLIC ENTHOUSIASTE +1/+2/+4, MERCHANDISING 1/2/4)
    assert [cards.by_pairs(d, 1, 3, 5) for d in range(1, 7)] == [1, 1, 3, 3, 5, 5]
    assert [cards.merchandising_gain(d) for d in range(1, 7)] == [1, 1, 2, 2, 4, 4]
    assert [cards.match_amical_bonus(d) for d in range(1, 7)] == [1, 1, 1, 1, 3, 3]
    assert [cards.chiottes_needs_second_die(d) for d in range(1, 7)] == [False] * 3 + [True] * 3
    assert [cards.petage_kills(d) for d in range(1, 7)] == [False] * 3 + [True] * 3
    # BOOKMAKER (VOX-A24): 3 x stake on 5-6 (three_x), stake + 3 x stake with stake_plus_three_x
    assert [cards.bookmaker_return(P, 2, d) for d in range(1, 7)] == [0, 0, 0, 0, 6, 6]
    plus = compiled(bookmaker_payout="stake_plus_three_x")
    assert [cards.bookmaker_return(plus, 2, d) for d in range(1, 7)] == [0, 0, 0, 0, 8, 8]
    for d in range(1, 7):
        g = table(pop=(1, 5, 0, 2, 3, 9))
        cards.presse_effect(g, P, d)
        loss = 1 if d <= 4 else 2  # PRESSE À SCANDALES, floor 0 (VOX-A34)
        assert pops(g) == [max(v - loss, 0) for v in (1, 5, 0, 2, 3, 9)]
        g = table(money=1)
        cards.droits_teles_effect(g, P, 2, d)
        assert moneys(g) == ([0, 0, 0, 0] if d <= 2 else [1, 1, 7, 1])  # pays what he has (VOX-A37)
        g = table(money=1)
        cards.sponsors_effect(g, P, 2, d)
        assert moneys(g) == ([0, 0, 0, 0] if d <= 2 else [1, 1, 4, 1])
        g = table(pop=(4, 4, 4, 4, 4, 4))
        cards.split_loss_effect(g, P, d, CESAR, POMPEE)  # RÈGLEMENTS DE COMPTES: 1-3 César, 4-6 Pompée
        assert pops(g) == ([4, 4, 2, 4, 4, 4] if d <= 3 else [2, 4, 4, 4, 4, 4])


def repeat_card(card, seat, window, g0, p, n, seed, watch):
    """Play ``card`` on a copy of ``g0`` in games 0..n-1 of run ``seed``; the watched fields after each play."""
    out = _repeat_card(card, seat, window, g0, p, view_for(p), n, seed, watch, CODES, PARAMS, SLOTS)
    assert (out[:, -1] != _ILLEGAL).all()
    return out[:, :-1]


_ILLEGAL = -1


@njit(cache=True)
def _repeat_card(card, seat, window, g0, p, view, n, seed, watch, codes, params, slots):
    """``repeat_card``'s loop, compiled: from Python each call of ``play_card`` costs most of a millisecond in
    typing its arguments, 20,000 of them 15 s a card; the last column is ``_ILLEGAL`` where the play failed."""
    out = np.zeros((n, watch.size + 1), np.int64)
    g, stream = g0.copy(), rng.new_stream()
    for i in range(n):
        copy_into(g, g0)
        rng.start(stream, seed, i)
        if cards.play_card(card, seat, window, g, p, view, stream, codes, params, slots) != 0:
            out[i, watch.size] = _ILLEGAL
        for j in range(watch.size):
            out[i, j] = g[watch[j]]
    return out


def die_law(outcome, dice=1):
    """The exact law of ``outcome(d1, ..., dk)`` over ``dice`` fair d6 (spec 7.5)."""
    law = {}
    for faces in np.ndindex(*(6,) * dice):
        key = outcome(*(f + 1 for f in faces))
        law[key] = law.get(key, 0) + F(1, 6 ** dice)
    return law


def assert_law(samples, law, sigma=SIGMA):
    """Every outcome's frequency within ``sigma`` binomial standard errors of its exact probability; an outcome
    the law excludes never occurs."""
    n = len(samples)
    seen = {}
    for row in map(tuple, samples.tolist()):
        seen[row] = seen.get(row, 0) + 1
    assert set(seen) <= set(law), f"impossible outcomes {set(seen) - set(law)}"
    for key, prob in law.items():
        got = seen.get(key, 0) / n
        se = sqrt(float(prob) * (1 - float(prob)) / n)
        assert abs(got - float(prob)) <= sigma * se, f"{key}: {got:.4f} vs exact {float(prob):.4f}"


def pol_fields(*pols):
    return [st.POP + k for k in pols]


def dice_cases():
    """(card, options, set-up, watched fields, exact law of the watched fields), from the card texts."""
    cleo = dict(pop=(5, 5, 5, 5, 5, 5))
    cases = [
        # PRESSE À SCANDALES: 1-4 all -1, 5-6 all -2, floor 0; spec 14.2: at 5 -> 4 w.p. 2/3, 3 w.p. 1/3
        ("PRESSE À SCANDALES", {}, dict(pop=(1, 5, 0, 2, 3, 9)), None, pol_fields(0, 1, 2),
         die_law(lambda d: (0, 4, 0) if d <= 4 else (0, 3, 0))),
        ("RÈGLEMENTS DE COMPTES ENTRE SUPPORTERS", {}, cleo, None, pol_fields(POMPEE, CESAR),
         die_law(lambda d: (5, 3) if d <= 3 else (3, 5))),
        ("BASTONS DANS LES FAUBOURGS BABYLONIENS", {}, cleo, None, pol_fields(CRASSUS, BRUTUS),
         die_law(lambda d: (3, 5) if d <= 3 else (5, 3))),
        ("ÉCHAUFFOURÉE DANS LES QUARTIERS GRECS", {}, cleo, None, pol_fields(ANTOINE, OCTAVE),
         die_law(lambda d: (5, 3) if d <= 3 else (3, 5))),
        # DROITS TÉLÉS: 1-2 everyone pays 2 (seat 2 has 1: pays it), 3-6 the card player (seat 1) +6
        ("DROITS TÉLÉS", {}, dict(money=(7, 7, 1, 7)), None, [st.MONEY + s for s in range(4)],
         die_law(lambda d: (5, 5, 0, 5) if d <= 2 else (7, 13, 1, 7))),
        ("MERCHANDISING", {}, {}, None, [st.MONEY + 1],
         die_law(lambda d: (8,) if d <= 2 else (9,) if d <= 4 else (11,))),
        ("SPONSORS", {}, dict(money=(7, 7, 0, 7)), None, [st.MONEY + s for s in range(4)],
         die_law(lambda d: (6, 6, 0, 6) if d <= 2 else (7, 10, 0, 7))),
        # BOOKMAKER with 1 sesterce: stake 1; spec 14.2: -s w.p. 2/3, +2s w.p. 1/3 (mean 0)
        ("BOOKMAKER", {}, dict(money=(7, 1, 7, 7)), CUP, [st.MONEY + 1],
         die_law(lambda d: (3,) if d >= 5 else (0,))),
        ("BOOKMAKER", dict(bookmaker_payout="stake_plus_three_x"), dict(money=(7, 1, 7, 7)), CUP, [st.MONEY + 1],
         die_law(lambda d: (4,) if d >= 5 else (0,))),
        ("SUSPENSE INSOUTENABLE", {}, {}, CUP, [st.APP_BONUS], die_law(lambda d: ((d + 1) // 2 * 2 - 1,))),
        ("PUBLIC ENTHOUSIASTE", {}, {}, CHAMPIONSHIP, [st.APP_BONUS],
         die_law(lambda d: ({1: 1, 2: 1, 3: 2, 4: 2, 5: 4, 6: 4}[d],))),
        ("ÉQUIPE RÉSERVE", {}, {}, CUP, [st.BOO_BONUS], die_law(lambda d: ((d + 1) // 2 * 2 - 1,))),
        ("MATCH AMICAL", {}, {}, INTERNATIONAL, [st.BOO_VOIDABLE], die_law(lambda d: (1 if d <= 4 else 3,))),
        # AUX CHIOTTES L'ARBITRE: 1-3 +2, 4-6 + a second die; spec 14.2: P(+2) = 7/12, others 1/12
        ("AUX CHIOTTES L'ARBITRE", {}, {}, CHAMPIONSHIP, [st.BOO_VOIDABLE],
         die_law(lambda d1, d2: (2 if d1 <= 3 else d2,), dice=2)),
        # MATCH ÉPIQUE (VOX-A32): at_reveal flags; at_play adds the 3 Arena cards played so far, or voids the 4
        ("MATCH ÉPIQUE", {}, {}, CHAMPIONSHIP, [st.EPIQUE_ADD, st.EPIQUE_VOID],
         die_law(lambda d: (1, 0) if d <= 4 else (0, 1))),
        ("MATCH ÉPIQUE", dict(epique_eval="at_play"), dict(arena_cards=2, voidable=4), CHAMPIONSHIP,
         [st.APP_BONUS, st.BOO_VOIDABLE, st.EPIQUE_VOID], die_law(lambda d: (3, 4, 0) if d <= 4 else (0, 0, 0))),
        # PÉTAGE DE GUEULE: one die per gladiator in the arena, 4-6 eliminates it; seat 0 has a 2, seat 2 two 5s
        ("PÉTAGE DE GUEULE", {}, dict(gladiators=True), INTERNATIONAL,
         [st.glad_at(CESAR, 0, 2), st.glad_at(CESAR, 2, 5), st.elim_at(0, 2), st.elim_at(2, 5)],
         die_law(lambda a, b, c: (int(a <= 3), (b <= 3) + (c <= 3), int(a > 3), (b > 3) + (c > 3)), dice=3)),
    ]
    return cases


@pytest.mark.parametrize("case", dice_cases(), ids=lambda case: case[0] + str(case[1] or ""))
def test_card_dice_match_their_exact_law(case):
    name, options, setup, kind, watch, law = case
    p = compiled(**options)
    money = setup.get("money", (7, 7, 7, 7))
    g = table(pop=setup.get("pop", (0,) * 6))
    g[st.MONEY:st.MONEY + 4] = money
    g[st.CLEOPATRA] = 1
    if kind is not None:
        start_match(g, CESAR, kind)
    if setup.get("gladiators"):
        g[st.glad_at(CESAR, 0, 2)] = 1
        g[st.glad_at(CESAR, 2, 5)] = 2
    give(g, 1, C[name])
    assert cards.card_playable(C[name], 1, W2 if kind is not None else W1A, g, p)
    st.discard_from_hand(g, p, 1, C[name])
    g[st.ARENA_CARDS_PLAYED] += setup.get("arena_cards", 0)
    g[st.BOO_VOIDABLE] = setup.get("voidable", 0)
    samples = repeat_card(C[name], 1, W2 if kind is not None else W1A, g, p, 20_000, 11, np.array(watch))
    assert_law(samples, law)


def test_spec_14_2_distributions():
    # the numbers printed in spec 14.2, against the laws the tests above use
    chiottes = die_law(lambda d1, d2: 2 if d1 <= 3 else d2, dice=2)
    assert chiottes == {1: F(1, 12), 2: F(7, 12), 3: F(1, 12), 4: F(1, 12), 5: F(1, 12), 6: F(1, 12)}
    assert sum(k * q for k, q in chiottes.items()) == F(11, 4)
    assert sum(k * q for k, q in die_law(lambda d: 1 if d <= 4 else 3).items()) == F(5, 3)
    assert sum(k * q for k, q in die_law(lambda d: (d + 1) // 2 * 2 - 1).items()) == 3
    killed = die_law(lambda a, b, c: (a > 3) + (b > 3) + (c > 3), dice=3)
    assert killed == {0: F(1, 8), 1: F(3, 8), 2: F(3, 8), 3: F(1, 8)}


def test_a_card_die_can_be_rigged_spec_7_5_vox_a14():
    # spec 14.2: with MATCH TRUQUÉ in an opponent's hand a phase-2 die may end on any value; MAGOUILLE works only
    # on dice of phases 1 and 3 (die_override_any_phase = false). The card applies the final value of its die.
    rigged = 0
    for seed in range(30):
        g = table()
        start_match(g, CESAR, CUP)
        give(g, 2, C["MATCH TRUQUÉ"])
        give(g, 3, C["MAGOUILLE"])
        play(C["SUSPENSE INSOUTENABLE"], 1, W2, g, seed=seed)
        assert g[st.APP_BONUS] == cards.by_pairs(g[st.DIE_VALUE], 1, 3, 5)
        assert g[st.hand_at(3, C["MAGOUILLE"])] == 1
        rigged += g[st.DIE_OVERRIDES]
        assert g[st.DIE_OVERRIDES] == 1 - g[st.hand_at(2, C["MATCH TRUQUÉ"])]
    assert 0 < rigged < 30


def test_assassination_cap_vox_a21():
    p = compiled(assassination_cap=3)
    for seed in range(100):
        g = table()
        g[st.DEAD:st.DEAD + 3] = 1
        g[st.N_ASSASSINATIONS] = 3
        play(C["UN FOU DANS LA VILLE"], 1, W1A, g, p, seed=seed)
        assert list(g[st.DEAD:st.DEAD + 6]) == [1, 1, 1, 0, 0, 0]  # the three markers are used up


def test_sealed_pool_vox_a25():
    # simultaneous_sealed: offers are made blind, then taken in turn order up to what the pot still needs
    p = compiled(pool_protocol="simultaneous_sealed")
    for seed in range(20):
        g = table(money=5, pop=(4, 4, 4, 4, 4, 4))
        g[st.CLEOPATRA] = 1
        g[st.LOVER] = BRUTUS
        play(C["POULE DE LUXE"], 0, W1A, g, p, seed=seed)
        gathered = 20 - sum(moneys(g))
        assert gathered in (0, 5)
        assert g[st.POP + BRUTUS] == (4 if gathered == 5 else 2)


def test_censure_and_tricherie_weigh_the_ballots_spec_7_4():
    # CENSURE: one seat's ballot counts 0; TRICHERIE: its player's ballot counts 2 (R_vote, VOX-A26); the card's
    # pass rule (C.O.J.C.: weighted YES > weighted NO) reads the weighted tally
    used = set()
    for seed in range(60):
        g = table(pop=(3, 3, 3, 3, 3, 3))
        g[st.CLEOPATRA] = 1
        give(g, 2, C["TRICHERIE"])
        give(g, 3, C["CENSURE"])
        play(C["C.O.J.C."], 1, W1A, g, seed=seed)
        weight = [1] * SEATS
        if g[st.VOTE_DOUBLED] >= 0:
            weight[g[st.VOTE_DOUBLED]] = 2
            used.add("TRICHERIE")
        if g[st.VOTE_CENSURED] >= 0:
            weight[g[st.VOTE_CENSURED]] = 0
            used.add("CENSURE")
        yes = sum(w for w, b in zip(weight, ballots(g)) if b == 1)
        no = sum(w for w, b in zip(weight, ballots(g)) if b == 0)
        assert g[st.POP + ANTOINE] == (2 if yes > no else 3)
    assert used == {"TRICHERIE", "CENSURE"}
