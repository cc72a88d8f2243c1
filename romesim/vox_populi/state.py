"""Vox Populi: the game state as one fixed int64 array, its named offsets, and the rule helpers every part of the
game (the turn in ``game.py``, the event cards in ``cards.py``) uses to change it.

Layout (spec 5). A game is three int64 arrays, all allocated once per block of games and reused:

* ``g`` (``G_SIZE``): the state. ``g[:PUBLIC_END]`` is exactly what every seat may see (spec 11); everything
  after it is hidden (deck order, hands, the black box). A policy never receives ``g``: it receives a per-seat
  view (``VIEW_*`` below, built by ``procedures.open_decision``) holding the public part, the seat's own hand and
  box, and the decision's context.
* ``p`` (``P_SIZE``): the scenario compiled to integers: seat count, piece values, board graph, rule options.
* ``view`` (``VIEW_SIZE``): the per-seat view handed to policies; ``VIEW_NAMES[i]`` names its entry ``i`` (the
  seats' decision-point ``state``).

Indexing conventions: seats ``0..N-1`` (``N = g[N_SEATS]``); politicians ``0..5`` in hierarchy order (``POMPEE`` ..
``BRUTUS``, spec 2); cells ``0..47``, quarters ``0..5`` (spec 4.2); piece values ``1..5`` stored at ``v - 1``;
cards ``0..54`` (``VP01`` = 0, CSV order). Multi-dimensional blocks are row-major, e.g. gladiators of
(politician ``k``, owner ``s``, value ``v``) at ``g[GLAD + (k * MAX_SEATS + s) * N_VALUES + v - 1]``; use the
index helpers (``glad_at`` ...) rather than spelling the arithmetic out.

Money, popularity, assassinations and card draws go through the helpers at the end of this module, so that every
rule tied to them (bank limit VOX-A12, forced payments VOX-A37, floor VOX-A34, the end trigger spec 6.6, the
assassination cap VOX-A21) lives in one place.
"""
import re

import numpy as np

from ..core.jit import njit

MAX_SEATS = 6
N_POL = 6
N_CELLS = 48
N_QUARTERS = 6
CELLS_PER_QUARTER = 8
N_VALUES = 5
N_CARDS = 55
MAX_DEGREE = 8
MAX_PIECES = 14

POLITICIANS = ("Pompée", "Crassus", "César", "Antoine", "Octave", "Brutus")
POMPEE, CRASSUS, CESAR, ANTOINE, OCTAVE, BRUTUS = range(6)

# match types (spec 6.2); price and popularity gain per type
CUP, CHAMPIONSHIP, INTERNATIONAL, STAR = range(4)
MATCH_TYPES = ("cup", "championship", "international", "star")
PRICE = np.array([1, 3, 6, 8], np.int64)
GAIN = np.array([1, 2, 3, 4], np.int64)
ORGANISER_PRIZE = 4

# card windows (spec 7.1, VOX-A16)
W_NONE, W1A, W1B, W2, W3 = range(5)
PHASE_OF_WINDOW = (0, 1, 1, 2, 3)

# cell contents
EMPTY = -1
ARENA = -2


# card ids (VPnn - 1), in the order of vox_populi_cards.csv; VP01-VP30 are Forum cards, VP31-VP55 Arena cards
# under the default colour map (VOX-A13)
(C_MAGOUILLE, C_CENSURE, C_PRESIDENT_D_HONNEUR, C_DREAM_TEAM, C_TRANSFERT_TARDIF, C_TRICHERIE,
 C_PRESSE_A_SCANDALES, C_EXPULSION, C_AMICALES_DES_SUPPORTERS, C_QUARTIER_LIBRE, C_MAUVAIS_ORGANISATEUR,
 C_UN_FOU_DANS_LA_VILLE, C_PLACE_AU_SPORT, C_REPRESSION, C_REGLEMENTS_DE_COMPTES, C_EMEUTE, C_HOOLIGANS, C_BASTONS,
 C_ECHAUFFOUREE, C_DROITS_TELES, C_MERCHANDISING, C_SPONSORS, C_ARENE_POURRIE, C_MON_HEROS, C_CLEOPATRE, C_COJC,
 C_AFFAIRE_DE_FAMILLE, C_SCANDALE_SEXUEL, C_POULE_DE_LUXE, C_COUP_DE_FOUDRE, C_DEPENSE_INCONSIDEREE, C_BOOKMAKER,
 C_SUSPENSE_INSOUTENABLE, C_INTERVIEW, C_TOURNEE_GENERALE, C_FRERES_ENNEMIS, C_MATCH_EPIQUE, C_PUBLIC_ENTHOUSIASTE,
 C_RECUPERATION_POLITIQUE, C_NE_PAS_DERANGER, C_PAX_DEORUM, C_REMPLACANT, C_VOX_POPULI_VOX_DEI,
 C_PANEM_ET_CIRCENSES, C_ARENE_GRATUITE, C_PIETINE, C_LYNCHAGE_MEDIATIQUE, C_VAE_VICTIS_CARD,
 C_AUGMENTATION_DU_PRIX, C_EQUIPE_RESERVE, C_MATCH_AMICAL, C_MAUVAISE_SONORISATION, C_AUX_CHIOTTES_L_ARBITRE,
 C_PETAGE_DE_GUEULE, C_MATCH_TRUQUE,
) = range(N_CARDS)
FIRST_ARENA_CARD = C_DEPENSE_INCONSIDEREE

# card states
IN_DECK, IN_HAND, DISCARDED, IN_PLAY = range(4)


def _layout(entries):
    """``(name, size)`` pairs -> ``{name: offset}`` and the total size."""
    offsets, at = {}, 0
    for name, size in entries:
        offsets[name] = at
        at += size
    return offsets, at


# --------------------------------------------------------------------------- g: public part (spec 5, 11)
_PUBLIC = (
    ("CELL_OWNER", N_CELLS),        # EMPTY, ARENA, or the owning seat of the supporter
    ("CELL_VALUE", N_CELLS),        # supporter's printed value, or the politician of the arena on that cell
    ("ARENA_CELL", N_POL),          # cell of each politician's arena (-1 before set-up)
    ("GLAD", N_POL * MAX_SEATS * N_VALUES),   # gladiators waiting under (politician, owner, value): counts
    ("CLUB", MAX_SEATS * N_VALUES),           # pieces left in each club, per value
    ("ELIM", MAX_SEATS * N_VALUES),           # eliminated pieces per owner and value (TRANSFERT TARDIF)
    ("SLIPPED", N_POL * MAX_SEATS),           # pieces (stars + decoys) each owner slipped into each slot
    ("PUB_DECOYS", N_POL * MAX_SEATS),        # decoys per (slot, owner); filled only with decoy_distinguishable
    ("PUB_STARS", N_POL * MAX_SEATS * N_VALUES),  # stars per (slot, owner, value); filled only with open_stars
    ("POP", N_POL),                 # popularity, >= 0, no cap
    ("DEAD", N_POL),                # assassination markers (0/1)
    ("MONEY", MAX_SEATS),           # sesterces (masked in views with public_money = false)
    ("HAND_SIZE", MAX_SEATS),
    ("DECOYS", MAX_SEATS),          # decoys held, not yet slipped
    ("CARD_STATE", N_CARDS),        # IN_DECK / IN_HAND (not told apart in a view: both read IN_DECK) / ...
    ("CARD_PLAYER", N_CARDS),       # seat + 1 of who played the card this turn (0: not played this turn)
    ("CARD_SEQ", N_CARDS),          # order of play this turn (1, 2, ...; 0: not played this turn)
    ("METER", MAX_SEATS),           # revealed meters of the current/last match: -1 none, 0 boo, 1 applause
    ("BALLOT", MAX_SEATS),          # revealed ballots of the current/last vote (-1 none)
    ("ATTEND", N_CELLS),            # scratch: 1 for the cells of the last attending-set computation
    ("CONTRIB", MAX_SEATS),         # contributions to the pooled payment in progress (spec 7.6)
    ("SCALARS", 96),
)
_PUB, PUBLIC_END = _layout(_PUBLIC)
CELL_OWNER, CELL_VALUE, ARENA_CELL, GLAD, CLUB, ELIM = (_PUB[k] for k in (
    "CELL_OWNER", "CELL_VALUE", "ARENA_CELL", "GLAD", "CLUB", "ELIM"))
SLIPPED, PUB_DECOYS, PUB_STARS, POP, DEAD, MONEY = (_PUB[k] for k in (
    "SLIPPED", "PUB_DECOYS", "PUB_STARS", "POP", "DEAD", "MONEY"))
HAND_SIZE, DECOYS, CARD_STATE, CARD_PLAYER, CARD_SEQ, METER, BALLOT, ATTEND, CONTRIB = (_PUB[k] for k in (
    "HAND_SIZE", "DECOYS", "CARD_STATE", "CARD_PLAYER", "CARD_SEQ", "METER", "BALLOT", "ATTEND", "CONTRIB"))
_S = _PUB["SCALARS"]
(
    # game
    N_SEATS, ACTIVE, NAMER, TURN_NO, LAST_TURN, GAME_OVER, PHASE, WINDOW, DECK_LEFT, DECOY_SUPPLY, BANK,
    LOVER, CLEOPATRA, ROTTEN, ROTTEN_POT, END_TRIGGER, TURNS_PLAYED_BY0,
    # this turn (spec 6.5): cleared by the end-of-turn clean-up
    DESIGNATED_Q, FREE_PLACEMENT, SUPPORTER_PLACED, GLADIATOR_PLACED, DREAM_TEAM, FORCED_MATCH, LOCKED, HOOLIGANS_Q,
    MATCH_DECIDED, TURN_ENDED, ARENA_CARDS_PLAYED, VOX_DEI, CARDS_THIS_TURN,
    # the match in progress (spec 5)
    MATCH_ON, ORGANISER, M_POL, M_TYPE, M_PRICE_PAID, GUEST, ABSENT, APP_BONUS, BOO_BONUS, BOO_VOIDABLE,
    EPIQUE_ADD, EPIQUE_VOID, INTERVIEW, PAX, RECUP, LYNCH, TRAMPLE, VAE_VICTIS, BAD_SOUND, PANEM, FREE_ARENA,
    M_APP, M_BOO, M_RESULT,
    # the die just rolled (R_die, spec 7.5)
    DIE_VALUE, DIE_ROLLER, DIE_OVERRIDES,
    # the vote in progress (spec 7.4)
    VOTE_CARD, VOTE_TARGET, VOTE_CENSURED, VOTE_DOUBLED,
    # statistics for the metrics
    N_MATCHES, N_APPLAUSE_WINS, N_ASSASSINATIONS, N_CARDS_PLAYED, N_BY_TYPE, _N_BY_TYPE_1, _N_BY_TYPE_2,
    _N_BY_TYPE_3, N_APP_BY_TYPE, _N_APP_BY_TYPE_1, _N_APP_BY_TYPE_2, _N_APP_BY_TYPE_3, TURN_GUARD_TRIPPED,
) = range(_S, _S + 74)
# the scalars' names in offset order, for the names of the view's entries (VIEW_NAMES): the unpacking above binds
# them in that order, and nothing else of this module holds an offset in that range yet
_SCALAR_NAMES = tuple(k for k, v in list(globals().items()) if isinstance(v, int) and _S <= v < _S + 74
                      and k not in ("_S",))
assert len(_SCALAR_NAMES) == 74

# end triggers (metric end_trigger)
END_POPULARITY, END_CLUBS, END_GUARD = 1, 2, 3

# --------------------------------------------------------------------------- g: hidden part
# A game in progress is a stack of nested procedures (the game, the turn, a phase, a card window, a card, a vote, a
# die...): the procedure at depth d keeps its resume step in g[FRAMES + d * FRAME_SIZE] (0: not suspended) and the
# locals it needs after a decision in the words that follow (procedures.py, "Resumable procedures")
MAX_DEPTH = 10
FRAME_SIZE = 40
_HIDDEN = (
    ("DECK", N_CARDS),                          # deck order; the top is DECK[N_CARDS - DECK_LEFT]
    ("HAND", MAX_SEATS * N_CARDS),              # 1 if the card is in that seat's hand
    ("BOX_STARS", N_POL * MAX_SEATS * N_VALUES),  # stars per (slot, owner, value)
    ("BOX_DECOYS", N_POL * MAX_SEATS),          # decoys per (slot, owner)
    ("STAGED", N_POL * MAX_SEATS),              # slips not yet made public (slip_order = simultaneous)
    ("CHOICE", MAX_SEATS),                      # meters chosen, not yet revealed (-1: not choosing)
    ("SCRATCH", 2 * N_CARDS),                   # work space (flood-fill stack, shuffle, tallies): no allocation
    ("FRAMES", MAX_DEPTH * FRAME_SIZE),         # where the game stands: one frame per nested procedure (below)
    ("MACHINE", 4),                             # ASK_SEAT, ANSWER, RET, RET2
)
_HID, _HIDDEN_SIZE = _layout(_HIDDEN)
DECK, HAND, BOX_STARS, BOX_DECOYS, STAGED, CHOICE, SCRATCH, FRAMES = (PUBLIC_END + _HID[k] for k in (
    "DECK", "HAND", "BOX_STARS", "BOX_DECOYS", "STAGED", "CHOICE", "SCRATCH", "FRAMES"))
# the game as a state machine (game.py): the seat whose decision is posted, the action taken there, and the values a
# procedure that has finished hands back to its caller (a die, a pot, a vote's tallies)
ASK_SEAT, ANSWER, RET, RET2 = range(PUBLIC_END + _HID["MACHINE"], PUBLIC_END + _HID["MACHINE"] + 4)
G_SIZE = PUBLIC_END + _HIDDEN_SIZE

# --------------------------------------------------------------------------- p: the compiled scenario
OPTION_NAMES = (
    "turn_direction", "allow_two_players", "arena_setup_start", "board_graph", "vote_only_if_attending",
    "end_scope", "empty_club_turn", "count_waiting_gladiators", "decoy_limit", "decoy_supply", "decoy_buy",
    "bank_limit", "card_colour_map", "die_override_any_phase", "max_overrides_per_die",
    "card_window_protocol", "arena_cards_after_commit", "vox_dei_scope", "guest_scope", "dead_can_be_targeted",
    "assassination_cap", "expulsion_own_only", "expulsion_target", "depense_fail", "bookmaker_payout",
    "pool_protocol", "vote_reaction_timing", "emeute_needs_cleopatra", "affaire_moves_lover",
    "dream_team_colour", "forced_match_window", "amicales_by_active", "epique_eval", "absent_scope",
    "popularity_floor", "allow_gifts", "slip_order", "forced_payment", "hooligans_scope", "public_money",
    "decoy_distinguishable", "open_stars",
)
_P, P_SIZE = _layout((
    ("P_N", 1),                                  # seats
    ("P_N_PIECES", 1),                           # pieces per club
    ("P_PIECES", MAX_PIECES),                    # their values
    ("P_QUARTER", N_CELLS),                      # quarter of each cell
    ("P_DEGREE", N_CELLS),
    ("P_ADJ", N_CELLS * MAX_DEGREE),             # neighbours of each cell, -1 padded
    ("P_MAX_TURNS", 1),                          # turn guard (flagged in the metrics if it ever trips)
    ("P_DECK_COPIES", N_CARDS),                  # copies of each card in the deck: 0 or 1 (VOX-A15)
    ("P_INERT", N_CARDS),                        # 1: the card is shuffled and drawn but never playable
    ("P_OPT", len(OPTION_NAMES)),                # rule options, encoded as in vox_options.csv (index of value;
                                                 # integer options as their value; booleans 0/1)
))
(P_N, P_N_PIECES, P_PIECES, P_QUARTER, P_DEGREE, P_ADJ, P_MAX_TURNS, P_DECK_COPIES, P_INERT,
 P_OPT) = (_P[k] for k in ("P_N", "P_N_PIECES", "P_PIECES", "P_QUARTER", "P_DEGREE", "P_ADJ", "P_MAX_TURNS",
                          "P_DECK_COPIES", "P_INERT", "P_OPT"))
(
    O_TURN_DIRECTION, O_ALLOW_TWO_PLAYERS, O_ARENA_SETUP_START, O_BOARD_GRAPH, O_VOTE_ONLY_IF_ATTENDING,
    O_END_SCOPE, O_EMPTY_CLUB_TURN, O_COUNT_WAITING_GLADIATORS, O_DECOY_LIMIT, O_DECOY_SUPPLY, O_DECOY_BUY,
    O_BANK_LIMIT, O_CARD_COLOUR_MAP, O_DIE_OVERRIDE_ANY_PHASE, O_MAX_OVERRIDES_PER_DIE,
    O_CARD_WINDOW_PROTOCOL, O_ARENA_CARDS_AFTER_COMMIT, O_VOX_DEI_SCOPE, O_GUEST_SCOPE, O_DEAD_CAN_BE_TARGETED,
    O_ASSASSINATION_CAP, O_EXPULSION_OWN_ONLY, O_EXPULSION_TARGET, O_DEPENSE_FAIL, O_BOOKMAKER_PAYOUT,
    O_POOL_PROTOCOL, O_VOTE_REACTION_TIMING, O_EMEUTE_NEEDS_CLEOPATRA, O_AFFAIRE_MOVES_LOVER,
    O_DREAM_TEAM_COLOUR, O_FORCED_MATCH_WINDOW, O_AMICALES_BY_ACTIVE, O_EPIQUE_EVAL, O_ABSENT_SCOPE,
    O_POPULARITY_FLOOR, O_ALLOW_GIFTS, O_SLIP_ORDER, O_FORCED_PAYMENT, O_HOOLIGANS_SCOPE, O_PUBLIC_MONEY,
    O_DECOY_DISTINGUISHABLE, O_OPEN_STARS,
) = range(P_OPT, P_OPT + len(OPTION_NAMES))

# --------------------------------------------------------------------------- the per-seat view (spec 11)
# view[:PUBLIC_END] is the public part of g (money masked with public_money = false, hands shown as IN_DECK);
# then the seat's own secrets, then the decision's context and its legal actions.
MAX_ACTIONS = 288  # DP01: 6 politicians x 48 cells
(VIEW_SEAT, VIEW_KIND, VIEW_N_ACTIONS, VIEW_ARGS) = range(PUBLIC_END, PUBLIC_END + 4)
N_ARGS = 8
VIEW_HAND = VIEW_ARGS + N_ARGS                   # 55: 1 for the cards in the seat's own hand
VIEW_BOX_STARS = VIEW_HAND + N_CARDS             # 6 x 5: own stars per (slot, value)
VIEW_BOX_DECOYS = VIEW_BOX_STARS + N_POL * N_VALUES  # 6: own decoys per slot
VIEW_LEGAL = VIEW_BOX_DECOYS + N_POL             # MAX_ACTIONS: 1 for each legal action
# the board graph (static, written once per game): quarter of each cell, degree, neighbours (-1 padded)
VIEW_QUARTER = VIEW_LEGAL + MAX_ACTIONS
VIEW_DEGREE = VIEW_QUARTER + N_CELLS
VIEW_ADJ = VIEW_DEGREE + N_CELLS
VIEW_SCRATCH = VIEW_ADJ + N_CELLS * MAX_DEGREE  # 2 x 48 of work space for a policy
VIEW_SIZE = VIEW_SCRATCH + 2 * N_CELLS


def _view_names():
    """The name of every entry of the view, by position: ``name`` for a single entry, ``name[i]`` for entry ``i``
    of a block (row-major over the block's dimensions, as documented above)."""
    names = []
    for block, size in _PUBLIC:
        if block == "SCALARS":
            # the per-match-type counters are blocks of 4 (N_BY_TYPE, _N_BY_TYPE_1 ...): n_by_type[0], [1] ...
            for k in _SCALAR_NAMES:
                typed = re.fullmatch(r"_?(N_(?:APP_)?BY_TYPE)(?:_(\d))?", k)
                names.append(f"{typed[1].lower()}[{typed[2] or 0}]" if typed else k.lower())
            names += [f"scalars[{i}]" for i in range(len(_SCALAR_NAMES), size)]  # unused
        else:
            names += [f"{block.lower()}[{i}]" for i in range(size)]
    names += ["seat", "kind", "n_actions"]
    for block, size in (("args", N_ARGS), ("hand", N_CARDS), ("box_stars", N_POL * N_VALUES),
                        ("box_decoys", N_POL), ("legal", MAX_ACTIONS), ("quarter", N_CELLS), ("degree", N_CELLS),
                        ("adj", N_CELLS * MAX_DEGREE), ("scratch", 2 * N_CELLS)):
        names += [f"{block}[{i}]" for i in range(size)]
    assert len(names) == VIEW_SIZE
    return tuple(names)


VIEW_NAMES = _view_names()

# decision kinds (spec 10), view[VIEW_KIND]; actions are integers 0 .. view[VIEW_N_ACTIONS] - 1
(K_ARENA_SETUP, K_NAME_QUARTER, K_PLACE_SUPPORTER, K_PLACE_GLADIATOR, K_CARD_WINDOW, K_CARD_PARAMS,
 K_ORGANISE_MATCH, K_CONTRIBUTE, K_CHEER_OR_BOO, K_ELIMINATE_SUPPORTER, K_ELIMINATE_GLADIATOR, K_SLIP_STARS,
 K_TURN_BONUS, K_VOTE_YES_NO, K_VOTE_POLITICIAN, K_DIE_OVERRIDE) = range(1, 17)
DECISION_NAMES = ("arena_setup", "name_quarter", "place_supporter", "place_gladiator", "card_window",
                  "card_params", "organise_match", "contribute", "cheer_or_boo", "eliminate_supporter",
                  "eliminate_gladiator", "slip_stars", "turn_bonus", "vote_yes_no", "vote_politician",
                  "die_override")

# K_CARD_PARAMS: view[VIEW_ARGS] = card, view[VIEW_ARGS + 1] = one of these parameter types (what the options are
# and how a built-in bot reads them), view[VIEW_ARGS + 2] = index of the parameter within the card
(PT_POLITICIAN_HARM, PT_POLITICIAN_HELP, PT_POLITICIAN_NEUTRAL, PT_QUARTER, PT_CELL, PT_SUPPORTER_CELL,
 PT_SEAT_HARM, PT_AMOUNT, PT_VALUE, PT_ARENA) = range(10)

# K_SLIP_STARS sub-steps, view[VIEW_ARGS + 1]
SLIP_STAR, SLIP_DECOY = range(2)


# --------------------------------------------------------------------------- index helpers
@njit(cache=True, inline="always")
def glad_at(pol, seat, value):
    return GLAD + (pol * MAX_SEATS + seat) * N_VALUES + value - 1


@njit(cache=True, inline="always")
def club_at(seat, value):
    return CLUB + seat * N_VALUES + value - 1


@njit(cache=True, inline="always")
def elim_at(seat, value):
    return ELIM + seat * N_VALUES + value - 1


@njit(cache=True, inline="always")
def slipped_at(slot, seat):
    return SLIPPED + slot * MAX_SEATS + seat


@njit(cache=True, inline="always")
def stars_at(slot, seat, value):
    return BOX_STARS + (slot * MAX_SEATS + seat) * N_VALUES + value - 1


@njit(cache=True, inline="always")
def box_decoys_at(slot, seat):
    return BOX_DECOYS + slot * MAX_SEATS + seat


@njit(cache=True, inline="always")
def hand_at(seat, card):
    return HAND + seat * N_CARDS + card


@njit(cache=True, inline="always")
def adj_at(cell, k):
    return P_ADJ + cell * MAX_DEGREE + k


@njit(cache=True, inline="always")
def club_size(g, seat):
    total = 0
    for v in range(1, N_VALUES + 1):
        total += g[club_at(seat, v)]
    return total


@njit(cache=True, inline="always")
def gladiators_of(g, pol, seat):
    """How many gladiators ``seat`` has waiting under politician ``pol``."""
    total = 0
    for v in range(1, N_VALUES + 1):
        total += g[glad_at(pol, seat, v)]
    return total


@njit(cache=True, inline="always")
def next_seat(g, seat):
    return (seat + 1) % g[N_SEATS]


# --------------------------------------------------------------------------- rule helpers
@njit(cache=True, inline="always")
def gain_money(g, p, seat, amount):
    """Pay ``amount`` from the bank to ``seat``; with a limited bank (VOX-A12) it pays what it has. Returns the
    amount paid."""
    if p[O_BANK_LIMIT] > 0 and amount > g[BANK]:
        amount = g[BANK]
    g[MONEY + seat] += amount
    if p[O_BANK_LIMIT] > 0:
        g[BANK] -= amount
    return amount


@njit(cache=True, inline="always")
def pay(g, p, seat, amount):
    """A voluntary payment to the bank (prices, card costs, stakes, decoys): the caller has checked that ``seat``
    can afford it (spec 7.7). Returns False, paying nothing, if he cannot."""
    if amount > g[MONEY + seat]:
        return False
    g[MONEY + seat] -= amount
    if p[O_BANK_LIMIT] > 0:
        g[BANK] += amount
    return True


@njit(cache=True, inline="always")
def pay_forced(g, p, seat, amount):
    """A forced payment (DROITS TÉLÉS, SPONSORS): the player pays what he has, down to 0 (VOX-A37)."""
    if amount > g[MONEY + seat]:
        amount = g[MONEY + seat]
    g[MONEY + seat] -= amount
    if p[O_BANK_LIMIT] > 0:
        g[BANK] += amount
    return amount


@njit(cache=True, inline="always")
def change_popularity(g, p, pol, delta):
    """Spec 6.6: an assassinated politician never gains; losses stop at 0 (VOX-A34); reaching 10 sets
    ``last_turn`` (it stays set even if the value drops again this turn)."""
    if delta > 0 and g[DEAD + pol]:
        return
    value = g[POP + pol] + delta
    if value < 0:
        value = 0
    g[POP + pol] = value
    if value >= 10 and g[LAST_TURN] == 0:
        g[LAST_TURN] = 1
        g[END_TRIGGER] = END_POPULARITY


@njit(cache=True, inline="always")
def assassinate(g, p, pol):
    """Spec 7.3: put an assassination marker on ``pol``; with ``assassination_cap`` = 3 (VOX-A21) the markers run
    out. Returns True if a marker was placed."""
    if g[DEAD + pol]:
        return False
    if p[O_ASSASSINATION_CAP] > 0 and g[N_ASSASSINATIONS] >= p[O_ASSASSINATION_CAP]:
        return False
    g[DEAD + pol] = 1
    g[N_ASSASSINATIONS] += 1
    return True


@njit(cache=True, inline="always")
def draw_card(g, seat):
    """Draw the top card into ``seat``'s hand; nothing once the deck is empty (no reshuffle, spec 7.1).
    Returns the card or -1."""
    if g[DECK_LEFT] == 0:
        return -1
    card = g[DECK + N_CARDS - g[DECK_LEFT]]
    g[DECK_LEFT] -= 1
    g[hand_at(seat, card)] = 1
    g[HAND_SIZE + seat] += 1
    g[CARD_STATE + card] = IN_HAND
    return card


@njit(cache=True, inline="always")
def return_to_hand(g, seat, card):
    """VOX POPULI, VOX DEI: a played card goes back to its player's hand."""
    g[hand_at(seat, card)] = 1
    g[HAND_SIZE + seat] += 1
    g[CARD_STATE + card] = IN_HAND


@njit(cache=True, inline="always")
def eliminate_gladiator(g, pol, seat, value):
    """Remove one gladiator of ``value`` of ``seat`` under ``pol`` from play (to his eliminated pool)."""
    g[glad_at(pol, seat, value)] -= 1
    g[elim_at(seat, value)] += 1


@njit(cache=True, inline="always")
def eliminate_supporter(g, cell):
    """Remove the supporter on ``cell`` from play (to its owner's eliminated pool)."""
    owner = g[CELL_OWNER + cell]
    g[elim_at(owner, g[CELL_VALUE + cell])] += 1
    g[CELL_OWNER + cell] = EMPTY
    g[CELL_VALUE + cell] = 0


@njit(cache=True, inline="always")
def is_arena_card(p, card):
    """Red A cards (spec 7.1, VOX-A13); DREAM TEAM is one with dream_team_colour = A (VOX-A29)."""
    return card >= FIRST_ARENA_CARD or (card == C_DREAM_TEAM and p[O_DREAM_TEAM_COLOUR] == 1)


@njit(cache=True, inline="always")
def discard_from_hand(g, p, seat, card):
    """A card leaves ``seat``'s hand to be played: it is shown (public), recorded as played this turn, and goes
    to the discard pile; a card that stays in play sets ``CARD_STATE`` to ``IN_PLAY`` itself."""
    g[hand_at(seat, card)] = 0
    g[HAND_SIZE + seat] -= 1
    g[CARD_STATE + card] = DISCARDED
    g[CARD_PLAYER + card] = seat + 1
    g[CARDS_THIS_TURN] += 1
    g[CARD_SEQ + card] = g[CARDS_THIS_TURN]
    g[N_CARDS_PLAYED] += 1
    if is_arena_card(p, card):
        g[ARENA_CARDS_PLAYED] += 1
