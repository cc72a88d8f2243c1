"""Vox Populi: the 55 event cards (spec 9, card texts of the seed; data in ``data/vox_populi_cards.csv``).

The game calls two functions (interface in ``docs/contracts/vox_populi.md``):

* ``card_playable(card, seat, window, g, p)``: may ``seat`` play ``card`` in ``window`` now? Colour and window
  (spec 7.1, VOX-A13), who may play it, the card's precondition and its cost (spec 7.1: costs are paid in full).
  The four reaction cards (MAGOUILLE, MATCH TRUQUÉ, CENSURE, TRICHERIE) are never playable in a window: the die
  and vote procedures of ``procedures.py`` offer them (R_die, R_vote, spec 7.4-7.5).
* ``play_card(card, seat, window, g, p, view, stream, codes, params, slots)``: the card has left the hand; pay its
  cost, ask its player's policy for its parameters (DP06), roll its dice (each through R_die), hold its vote or
  contribution round, and apply it: at once, or as a flag of the turn / match record that the game reads at the
  reveal. Returns 0 or a policy error code.

Colours, windows, who may play, costs, match-type restrictions, the Cleopatra conditions and the copy counts are
read from the CSV (``CARD_*`` arrays below), never copied by hand. What a die face does is a small pure function
per card (``*_effect`` / ``*_bonus``), so each face can be checked on its own; the card functions roll and apply.
Every choice a card needs is the card player's (or each seat's, for votes and pools) policy decision.

Only tiny predicates are ``inline="always"``; the card procedures are compiled once and called: inlining them all
into one ``play_card`` made a cold compile of the whole game cost 232 s of CPU instead of 137 s.
"""
import csv
import re
from pathlib import Path

import numpy as np

from ..core.jit import njit
from .procedures import (
    ASKED,
    DONE,
    answer_here,
    clear_frames,
    contribution_round_step,
    frame,
    hold_vote_step,
    open_decision,
    post,
    resumed_at,
    roll_die_step,
    suspend,
)
from .state import (
    ANSWER,
    RET,
    RET2,
    ABSENT,
    ACTIVE,
    ANTOINE,
    APP_BONUS,
    ARENA_CARDS_PLAYED,
    BAD_SOUND,
    BANK,
    BOO_BONUS,
    BOO_VOIDABLE,
    BRUTUS,
    C_AFFAIRE_DE_FAMILLE,
    C_AMICALES_DES_SUPPORTERS,
    C_ARENE_GRATUITE,
    C_ARENE_POURRIE,
    C_AUGMENTATION_DU_PRIX,
    C_AUX_CHIOTTES_L_ARBITRE,
    C_BASTONS,
    C_BOOKMAKER,
    C_CLEOPATRE,
    C_COJC,
    C_COUP_DE_FOUDRE,
    C_DEPENSE_INCONSIDEREE,
    C_DREAM_TEAM,
    C_DROITS_TELES,
    C_ECHAUFFOUREE,
    C_EMEUTE,
    C_EQUIPE_RESERVE,
    C_EXPULSION,
    C_FRERES_ENNEMIS,
    C_HOOLIGANS,
    C_INTERVIEW,
    C_LYNCHAGE_MEDIATIQUE,
    C_MATCH_AMICAL,
    C_MATCH_EPIQUE,
    C_MAUVAIS_ORGANISATEUR,
    C_MAUVAISE_SONORISATION,
    C_MERCHANDISING,
    C_MON_HEROS,
    C_NE_PAS_DERANGER,
    C_PANEM_ET_CIRCENSES,
    C_PAX_DEORUM,
    C_PETAGE_DE_GUEULE,
    C_PIETINE,
    C_PLACE_AU_SPORT,
    C_POULE_DE_LUXE,
    C_PRESIDENT_D_HONNEUR,
    C_PRESSE_A_SCANDALES,
    C_PUBLIC_ENTHOUSIASTE,
    C_QUARTIER_LIBRE,
    C_RECUPERATION_POLITIQUE,
    C_REGLEMENTS_DE_COMPTES,
    C_REMPLACANT,
    C_REPRESSION,
    C_SCANDALE_SEXUEL,
    C_SPONSORS,
    C_SUSPENSE_INSOUTENABLE,
    C_TOURNEE_GENERALE,
    C_TRANSFERT_TARDIF,
    C_UN_FOU_DANS_LA_VILLE,
    C_VAE_VICTIS_CARD,
    C_VOX_POPULI_VOX_DEI,
    CARD_SEQ,
    CARD_STATE,
    CELL_OWNER,
    CELL_VALUE,
    CESAR,
    CHAMPIONSHIP,
    CLEOPATRA,
    CONTRIB,
    CRASSUS,
    CUP,
    DEAD,
    DESIGNATED_Q,
    DISCARDED,
    DREAM_TEAM,
    EMPTY,
    EPIQUE_ADD,
    EPIQUE_VOID,
    FORCED_MATCH,
    FREE_ARENA,
    FREE_PLACEMENT,
    GUEST,
    HOOLIGANS_Q,
    IN_PLAY,
    INTERNATIONAL,
    INTERVIEW,
    K_CARD_PARAMS,
    LOCKED,
    LOVER,
    LYNCH,
    M_POL,
    M_PRICE_PAID,
    M_TYPE,
    MATCH_DECIDED,
    MATCH_ON,
    MAX_SEATS,
    MONEY,
    N_CARDS,
    N_CELLS,
    N_POL,
    N_QUARTERS,
    N_SEATS,
    N_VALUES,
    O_AFFAIRE_MOVES_LOVER,
    O_AMICALES_BY_ACTIVE,
    O_BANK_LIMIT,
    O_BOOKMAKER_PAYOUT,
    O_DEAD_CAN_BE_TARGETED,
    O_DEPENSE_FAIL,
    O_DREAM_TEAM_COLOUR,
    O_EMEUTE_NEEDS_CLEOPATRA,
    O_EPIQUE_EVAL,
    O_EXPULSION_OWN_ONLY,
    O_EXPULSION_TARGET,
    O_FORCED_MATCH_WINDOW,
    OCTAVE,
    ORGANISER,
    P_INERT,
    P_QUARTER,
    PANEM,
    PAX,
    POMPEE,
    POP,
    PRICE,
    PT_AMOUNT,
    PT_ARENA,
    PT_CELL,
    PT_POLITICIAN_HARM,
    PT_POLITICIAN_HELP,
    PT_QUARTER,
    PT_SUPPORTER_CELL,
    PT_VALUE,
    RECUP,
    ROTTEN,
    ROTTEN_POT,
    STAR,
    SUPPORTER_PLACED,
    TRAMPLE,
    TURN_ENDED,
    VAE_VICTIS,
    VIEW_ARGS,
    VIEW_LEGAL,
    VOX_DEI,
    W1A,
    W1B,
    W2,
    W3,
    assassinate,
    change_popularity,
    club_size,
    draw_card,
    elim_at,
    eliminate_gladiator,
    gain_money,
    glad_at,
    gladiators_of,
    pay,
    pay_forced,
)

CARDS_CSV = Path(__file__).parent / "data" / "vox_populi_cards.csv"

# reaction kinds (column ``window``: "R_die inside …", "R_vote inside …")
NO_REACTION, REACTS_TO_DIE, REACTS_TO_VOTE = range(3)
WHO_ANY, WHO_ACTIVE_ONLY, WHO_NON_ACTIVE = range(3)
_WHO = {"any": WHO_ANY, "active_only": WHO_ACTIVE_ONLY, "non_active": WHO_NON_ACTIVE}
_WINDOW_CODES = {"W1a": W1A, "W1b": W1B, "W2": W2, "W3": W3}
_MATCH_TYPE_WORDS = {"CUP": CUP, "CHAMPIONSHIP": CHAMPIONSHIP, "INTERNATIONAL": INTERNATIONAL}


def read_cards(path=CARDS_CSV):
    """The card table: one dict per card in CSV order (card index = VPnn - 1)."""
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    if [r["id"] for r in rows] != [f"VP{i + 1:02d}" for i in range(N_CARDS)]:
        raise ValueError(f"{path}: expected the {N_CARDS} cards VP01..VP{N_CARDS} in order")
    return rows


def _window_mask(text):
    """Bit ``1 << w`` for every window W1A..W3 named in the CSV column (reactions: the windows they nest in)."""
    mask = 0
    for token in re.findall(r"W1a|W1b|W2|W3", text):
        mask |= 1 << _WINDOW_CODES[token]
    return mask


def _card_arrays(rows):
    n = len(rows)
    arena = np.array([r["colour"] == "A" for r in rows], np.int64)
    windows = np.array([_window_mask(r["window"]) for r in rows], np.int64)
    reaction = np.array([REACTS_TO_DIE if r["window"].startswith("R_die") else
                         REACTS_TO_VOTE if r["window"].startswith("R_vote") else NO_REACTION for r in rows], np.int64)
    who = np.array([_WHO[r["who_may_play"]] for r in rows], np.int64)
    # "stake 1-5" costs at least 1; the stake itself is the card player's choice (DP06)
    cost = np.array([int(re.search(r"\d+", r["cost"]).group()) for r in rows], np.int64)
    copies = np.array([int(r["copies"]) for r in rows], np.int64)
    match_type = np.full(n, -1, np.int64)
    cleopatra = np.zeros(n, np.int64)  # 1: needs Cleopatra active, -1: needs her inactive
    rolls_dice = np.zeros(n, np.int64)
    for c, r in enumerate(rows):
        restricted = re.search(r"\ban? (CUP|CHAMPIONSHIP|INTERNATIONAL) match", r["precondition"])
        if restricted:
            match_type[c] = _MATCH_TYPE_WORDS[restricted.group(1)]
        if "Cleopatra NOT active" in r["precondition"]:
            cleopatra[c] = -1
        elif "Cleopatra active" in r["precondition"] and "siblings" not in r["precondition"]:
            cleopatra[c] = 1
        rolls_dice[c] = r["dice"].startswith("1d6")
    return arena, windows, reaction, who, cost, copies, match_type, cleopatra, rolls_dice


CARDS = read_cards()
CARD_NAMES = tuple(r["name_fr"] for r in CARDS)
(CARD_ARENA, CARD_WINDOWS, CARD_REACTION, CARD_WHO, CARD_COST, CARD_COPIES, CARD_MATCH_TYPE, CARD_CLEOPATRA,
 CARD_ROLLS_DICE) = _card_arrays(CARDS)


# --------------------------------------------------------------------------- what a die face does (spec 14.2)
@njit(cache=True, inline="always")
def by_pairs(die, low, mid, high):
    """The three-band cards: faces 1-2 give ``low``, 3-4 ``mid``, 5-6 ``high``."""
    if die <= 2:
        return low
    if die <= 4:
        return mid
    return high


@njit(cache=True)
def presse_effect(g, p, die):
    """PRESSE À SCANDALES: 1-4 every politician -1, 5-6 every politician -2 (floor 0, VOX-A34)."""
    loss = 1 if die <= 4 else 2
    for pol in range(N_POL):
        change_popularity(g, p, pol, -loss)


@njit(cache=True, inline="always")
def split_loss_effect(g, p, die, low_pol, high_pol):
    """RÈGLEMENTS DE COMPTES, BASTONS, ÉCHAUFFOURÉE: 1-3 ``low_pol`` -2, 4-6 ``high_pol`` -2 (floor 0)."""
    change_popularity(g, p, low_pol if die <= 3 else high_pol, -2)


@njit(cache=True)
def droits_teles_effect(g, p, seat, die):
    """DROITS TÉLÉS: 1-2 every player, the card player included, pays 2 (what he has, VOX-A37); 3-6 the card
    player gains 6."""
    if die <= 2:
        for s in range(g[N_SEATS]):
            pay_forced(g, p, s, 2)
    else:
        gain_money(g, p, seat, 6)


@njit(cache=True)
def sponsors_effect(g, p, seat, die):
    """SPONSORS: 1-2 every player, the card player included, pays 1 (if he has it, VOX-A37); 3-6 the card player
    gains 3."""
    if die <= 2:
        for s in range(g[N_SEATS]):
            pay_forced(g, p, s, 1)
    else:
        gain_money(g, p, seat, 3)


@njit(cache=True, inline="always")
def merchandising_gain(die):
    """MERCHANDISING: 1-2 +1, 3-4 +2, 5-6 +4 sesterces."""
    return by_pairs(die, 1, 2, 4)


@njit(cache=True, inline="always")
def bookmaker_return(p, stake, die):
    """BOOKMAKER: on 5-6 the player receives 3 x stake (VOX-A24 three_x) or stake + 3 x stake
    (stake_plus_three_x); on 1-4 nothing. The stake is already paid."""
    if die < 5:
        return 0
    return 3 * stake if p[O_BOOKMAKER_PAYOUT] == 0 else 4 * stake


@njit(cache=True, inline="always")
def match_amical_bonus(die):
    """MATCH AMICAL: boos +1 on 1-4, +3 on 5-6."""
    return 1 if die <= 4 else 3


@njit(cache=True, inline="always")
def chiottes_needs_second_die(die):
    """AUX CHIOTTES L'ARBITRE: 1-3 boos +2; 4-6 a second die is rolled and boos + its value."""
    return die >= 4


@njit(cache=True, inline="always")
def petage_kills(die):
    """PÉTAGE DE GUEULE: a gladiator whose die shows 4-6 is eliminated."""
    return die >= 4


@njit(cache=True, inline="always")
def epique_effect(g, p, die):
    """MATCH ÉPIQUE (VOX-A32): 1-4 applause + the number of Arena cards played this turn, this one included;
    5-6 the boo bonuses of MATCH AMICAL, AUX CHIOTTES L'ARBITRE and AUGMENTATION DU PRIX DES BILLETS are void
    this turn. ``epique_eval = at_reveal`` leaves both to the reveal (the game counts the cards then and voids
    BOO_VOIDABLE whenever it was added: ``EPIQUE_ADD`` / ``EPIQUE_VOID``); ``at_play`` counts the cards played so
    far and voids the bonuses already there, so cards played after it neither count nor are voided."""
    at_play = p[O_EPIQUE_EVAL] == 1
    if die <= 4:
        if at_play:
            g[APP_BONUS] += g[ARENA_CARDS_PLAYED]
        else:
            g[EPIQUE_ADD] = 1
    elif at_play:
        g[BOO_VOIDABLE] = 0
    else:
        g[EPIQUE_VOID] = 1


# --------------------------------------------------------------------------- who and what may be targeted
@njit(cache=True, inline="always")
def targetable(g, p, pol):
    """UN FOU, COUP DE FOUDRE and MON HÉROS consider living politicians only (VOX-A20 dead_can_be_targeted)."""
    return g[DEAD + pol] == 0 or p[O_DEAD_CAN_BE_TARGETED] == 1


@njit(cache=True, inline="always")
def most_popular(g, p):
    """MON HÉROS: the most popular targetable politician, ties to the higher rank (spec 2), or -1."""
    best = -1
    for pol in range(N_POL):
        if targetable(g, p, pol) and (best < 0 or g[POP + pol] > g[POP + best]):
            best = pol
    return best


@njit(cache=True, inline="always")
def quarter_has_supporter(g, p, quarter, ignore_cell):
    for cell in range(N_CELLS):
        if cell != ignore_cell and p[P_QUARTER + cell] == quarter and g[CELL_OWNER + cell] >= 0:
            return True
    return False


@njit(cache=True, inline="always")
def expulsion_destination(g, p, cell, origin):
    """EXPULSION (VOX-A22): « Les supporters impliqués sont chassés de leur quartier … le poser sur un quartier vide
    de votre choix »: the supporter is driven out of his quarter, so by default (``other_quarter_cell``) he goes to an
    empty cell of another quarter; ``empty_quarter``: of another quarter holding no supporter at all;
    ``empty_cell``: any empty cell but the origin, his own quarter included."""
    if cell == origin or g[CELL_OWNER + cell] != EMPTY:
        return False
    target = p[O_EXPULSION_TARGET]
    if target == 2:
        return True
    quarter = p[P_QUARTER + cell]
    if quarter == p[P_QUARTER + origin]:
        return False
    return target == 0 or not quarter_has_supporter(g, p, quarter, origin)


@njit(cache=True)
def expulsion_source(g, p, seat, cell):
    """A supporter EXPULSION may move (any owner; only the card player's own with ``expulsion_own_only``), with
    somewhere to go."""
    owner = g[CELL_OWNER + cell]
    if owner < 0 or (p[O_EXPULSION_OWN_ONLY] == 1 and owner != seat):
        return False
    for dest in range(N_CELLS):
        if expulsion_destination(g, p, dest, cell):
            return True
    return False


@njit(cache=True, inline="always")
def quarter_has_empty_cell(g, p, quarter):
    for cell in range(N_CELLS):
        if p[P_QUARTER + cell] == quarter and g[CELL_OWNER + cell] == EMPTY:
            return True
    return False


@njit(cache=True, inline="always")
def has_eliminated_piece(g, seat):
    for v in range(1, N_VALUES + 1):
        if g[elim_at(seat, v)] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def lover_attends(g):
    """NE PAS DÉRANGER: the lover is the arena's politician or the FRÈRES ENNEMIS guest, not yet made absent."""
    lover = g[LOVER]
    return lover >= 0 and g[ABSENT] < 0 and (lover == g[M_POL] or lover == g[GUEST])


# --------------------------------------------------------------------------- legality
@njit(cache=True, inline="always")
def card_windows(card, p):
    """The windows ``card`` may be played in (bit ``1 << w``), with the colour and window options applied."""
    if card == C_DREAM_TEAM and p[O_DREAM_TEAM_COLOUR] == 1:
        return 1 << W2  # VOX-A29 alternative: the organiser turns his announced match into a star match
    if card == C_MAUVAIS_ORGANISATEUR and p[O_FORCED_MATCH_WINDOW] == 1:
        return CARD_WINDOWS[card] | (1 << W3)  # VOX-A30 phase1_or_3: playable, to no effect, in phase 3
    return CARD_WINDOWS[card]


@njit(cache=True)
def precondition(card, seat, g, p):
    """The card's own condition on top of its window (CSV column ``precondition``)."""
    need = CARD_CLEOPATRA[card]
    if card == C_EMEUTE and p[O_EMEUTE_NEEDS_CLEOPATRA] == 1:
        need = 1  # VOX-A27
    if need == 1 and g[CLEOPATRA] == 0:
        return False
    if need == -1 and g[CLEOPATRA] == 1:
        return False
    if CARD_ARENA[card] or (card == C_DREAM_TEAM and p[O_DREAM_TEAM_COLOUR] == 1):
        if g[MATCH_ON] == 0 or g[TURN_ENDED] == 1:
            return False
        if CARD_MATCH_TYPE[card] >= 0 and g[M_TYPE] != CARD_MATCH_TYPE[card]:
            return False
    if card == C_DREAM_TEAM:
        if p[O_DREAM_TEAM_COLOUR] == 1:
            return (g[M_TYPE] != STAR and seat == g[ORGANISER]
                    and g[MONEY + seat] >= PRICE[STAR] - PRICE[g[M_TYPE]])
        return g[MATCH_DECIDED] == 0 and g[DREAM_TEAM] == 0
    if card == C_TRANSFERT_TARDIF:
        return has_eliminated_piece(g, seat)
    if card == C_EXPULSION:
        for cell in range(N_CELLS):
            if expulsion_source(g, p, seat, cell):
                return True
        return False
    if card == C_AMICALES_DES_SUPPORTERS or card == C_QUARTIER_LIBRE:
        return g[SUPPORTER_PLACED] == 0
    if card == C_MAUVAIS_ORGANISATEUR:
        return g[MATCH_DECIDED] == 0
    if card == C_UN_FOU_DANS_LA_VILLE or card == C_MON_HEROS or card == C_COUP_DE_FOUDRE:
        return most_popular(g, p) >= 0
    if card == C_ARENE_POURRIE:
        return g[ROTTEN] == 0
    if card == C_CLEOPATRE:
        return club_size(g, seat) <= 4
    if card == C_SCANDALE_SEXUEL or card == C_POULE_DE_LUXE:
        return g[LOVER] >= 0
    if card == C_FRERES_ENNEMIS:
        return g[GUEST] < 0
    if card == C_NE_PAS_DERANGER:
        return lover_attends(g)
    if card == C_REMPLACANT:
        return gladiators_of(g, g[M_POL], seat) > 0
    return True


@njit(cache=True, inline="always")
def card_playable(card, seat, window, g, p):
    """May ``seat`` play ``card`` in ``window`` (W1A..W3) now? The game has checked that the card is in his hand
    and that PLACE AU SPORT is not in force. Colour and window (spec 7.1), who may play it, precondition, cost."""
    if p[P_INERT + card]:
        return False  # a blank card (``inert_cards``): held, never played
    if CARD_REACTION[card] != NO_REACTION:
        return False  # MAGOUILLE, MATCH TRUQUÉ, CENSURE, TRICHERIE: offered by roll_die / hold_vote only
    if (card_windows(card, p) >> window) & 1 == 0:
        return False
    who = CARD_WHO[card]
    if who == WHO_NON_ACTIVE and p[O_AMICALES_BY_ACTIVE] == 1:
        who = WHO_ANY  # VOX-A31
    if (who == WHO_ACTIVE_ONLY and seat != g[ACTIVE]) or (who == WHO_NON_ACTIVE and seat == g[ACTIVE]):
        return False
    if g[MONEY + seat] < CARD_COST[card]:
        return False
    return precondition(card, seat, g, p)


# --------------------------------------------------------------------------- asking the card player (DP06)
# Every card procedure below is a step function of procedures.py ("Resumable procedures"): it runs at depth ``d``,
# posts its decisions with ``post`` and returns ``DONE`` or ``ASKED``.
@njit(cache=True, inline="always")
def open_param(g, p, seat, card, kind, index, n_actions, view):
    """Open a DP06 ``card_params`` decision: ``kind`` (PT_*) says what the actions are, ``index`` which parameter
    of the card it is; the caller marks the legal actions."""
    open_decision(g, p, seat, K_CARD_PARAMS, n_actions, view)
    view[VIEW_ARGS] = card
    view[VIEW_ARGS + 1] = kind
    view[VIEW_ARGS + 2] = index


@njit(cache=True)
def choose_politician(g, p, d, seat, card, kind, only_targetable, exclude, view):
    """A politician named by the card player (UN FOU, COUP DE FOUDRE, FRÈRES ENNEMIS); ``exclude`` may not be
    named (-1: none). Returns the politician, or -1: the decision is posted (the procedure at depth ``d`` stops at
    step 1 and takes the answer from ``g[ANSWER]``)."""
    open_param(g, p, seat, card, kind, 0, N_POL, view)
    for pol in range(N_POL):
        view[VIEW_LEGAL + pol] = 1 if pol != exclude and (not only_targetable or targetable(g, p, pol)) else 0
    return post(g, d, 1, seat, view)


# --------------------------------------------------------------------------- the cards with choices or dice
@njit(cache=True)
def transfert_tardif(g, p, d, seat, view):
    """TRANSFERT TARDIF: one of the player's eliminated pieces comes back as a gladiator (same value) under the
    politician of any arena (param 0: value - 1, param 1: arena)."""
    f = frame(d)
    at = resumed_at(g, d)
    if at == 2:
        value, pol = g[f + 1], g[ANSWER]
    else:
        if at == 1:
            value = g[ANSWER]
        else:
            open_param(g, p, seat, C_TRANSFERT_TARDIF, PT_VALUE, 0, N_VALUES, view)
            for v in range(1, N_VALUES + 1):
                view[VIEW_LEGAL + v - 1] = 1 if g[elim_at(seat, v)] > 0 else 0
            value = post(g, d, 1, seat, view)
            if value < 0:
                return ASKED
        value += 1
        open_param(g, p, seat, C_TRANSFERT_TARDIF, PT_ARENA, 1, N_POL, view)
        for pol in range(N_POL):
            view[VIEW_LEGAL + pol] = 1
        pol = post(g, d, 2, seat, view)
        if pol < 0:
            g[f + 1] = value
            return ASKED
    g[elim_at(seat, value)] -= 1
    g[glad_at(pol, seat, value)] += 1
    return DONE


@njit(cache=True)
def expulsion(g, p, d, seat, view):
    """EXPULSION (VOX-A22): a supporter already on the board (param 0: its cell) moves to an empty cell of another
    quarter (param 1; ``expulsion_destination``)."""
    f = frame(d)
    at = resumed_at(g, d)
    if at == 2:
        origin, dest = g[f + 1], g[ANSWER]
    else:
        if at == 1:
            origin = g[ANSWER]
        else:
            open_param(g, p, seat, C_EXPULSION, PT_SUPPORTER_CELL, 0, N_CELLS, view)
            for cell in range(N_CELLS):
                view[VIEW_LEGAL + cell] = 1 if expulsion_source(g, p, seat, cell) else 0
            origin = post(g, d, 1, seat, view)
            if origin < 0:
                return ASKED
        open_param(g, p, seat, C_EXPULSION, PT_CELL, 1, N_CELLS, view)
        view[VIEW_ARGS + 3] = origin
        for cell in range(N_CELLS):
            view[VIEW_LEGAL + cell] = 1 if expulsion_destination(g, p, cell, origin) else 0
        dest = post(g, d, 2, seat, view)
        if dest < 0:
            g[f + 1] = origin
            return ASKED
    g[CELL_OWNER + dest] = g[CELL_OWNER + origin]
    g[CELL_VALUE + dest] = g[CELL_VALUE + origin]
    g[CELL_OWNER + origin] = EMPTY
    g[CELL_VALUE + origin] = 0
    return DONE


@njit(cache=True)
def amicales(g, p, d, seat, view):
    """AMICALES DES SUPPORTERS: the card player names the quarter (with an empty cell) of this turn's supporter,
    replacing the designation and any QUARTIER LIBRE played before (VOX-A31: the later card governs); then he
    draws a card."""
    if resumed_at(g, d):
        quarter = g[ANSWER]
    else:
        open_param(g, p, seat, C_AMICALES_DES_SUPPORTERS, PT_QUARTER, 0, N_QUARTERS, view)
        for q in range(N_QUARTERS):
            view[VIEW_LEGAL + q] = 1 if quarter_has_empty_cell(g, p, q) else 0
        quarter = post(g, d, 1, seat, view)
        if quarter < 0:
            return ASKED
    g[DESIGNATED_Q] = quarter
    g[FREE_PLACEMENT] = 0
    draw_card(g, seat)
    return DONE


@njit(cache=True)
def un_fou(g, p, d, seat, view):
    """UN FOU DANS LA VILLE: name a (living, VOX-A20) politician; he is assassinated unless at least one weighted
    NO ballot is cast (spec 7.4)."""
    f = frame(d)
    at = resumed_at(g, d)
    if at == 2:
        target = g[f + 1]
    else:
        if at == 1:
            target = g[ANSWER]
        else:
            target = choose_politician(g, p, d, seat, C_UN_FOU_DANS_LA_VILLE, PT_POLITICIAN_HARM, True, -1, view)
            if target < 0:
                return ASKED
    # the show of hands: a yes/no vote on the harmful proposal about the target
    if hold_vote_step(g, p, d + 1, C_UN_FOU_DANS_LA_VILLE, seat, target, False, view) == ASKED:
        g[f + 1] = target
        return suspend(g, d, 2)
    if g[RET2] == 0:
        assassinate(g, p, target)
    return DONE


@njit(cache=True)
def majority_loss(g, p, d, card, seat, target, view):
    """C.O.J.C. and AFFAIRE DE FAMILLE: ``target`` -1 if weighted YES > weighted NO (ties fail, VOX-A26)."""
    resumed_at(g, d)
    if hold_vote_step(g, p, d + 1, card, seat, target, False, view) == ASKED:
        return suspend(g, d, 1)
    if g[RET] > g[RET2]:
        change_popularity(g, p, target, -1)
    return DONE


@njit(cache=True)
def scandale_sexuel(g, p, d, seat, view):
    """SCANDALE SEXUEL: the lover is assassinated unless at least 2 weighted NO ballots are cast."""
    resumed_at(g, d)
    lover = g[LOVER]  # a vote changes no lover
    if hold_vote_step(g, p, d + 1, C_SCANDALE_SEXUEL, seat, lover, False, view) == ASKED:
        return suspend(g, d, 1)
    if g[RET2] < 2:
        assassinate(g, p, lover)
    return DONE


@njit(cache=True)
def president_d_honneur(g, p, d, seat, view):
    """PRÉSIDENT D'HONNEUR: plurality vote over the six politicians (ties to the higher rank); the winner +1
    (nothing if assassinated, VOX-A20)."""
    resumed_at(g, d)
    if hold_vote_step(g, p, d + 1, C_PRESIDENT_D_HONNEUR, seat, -1, True, view) == ASKED:
        return suspend(g, d, 1)
    change_popularity(g, p, g[RET], 1)
    return DONE


@njit(cache=True, inline="always")
def start_pool(g):
    for s in range(MAX_SEATS):
        g[CONTRIB + s] = 0


@njit(cache=True, inline="always")
def bank_pot(g, p, pot):
    if p[O_BANK_LIMIT] > 0:
        g[BANK] += pot


@njit(cache=True)
def arene_pourrie(g, p, d, seat, view):
    """ARÈNE POURRIE (spec 7.6, VOX-A25): the card stays in play with a pot; one contribution round now from the
    card player (the game holds one more at every match announcement); while the pot is below 5 every match
    gets boos +3; at 5 the pot goes to the bank and the card is discarded."""
    if resumed_at(g, d) == 0:
        start_pool(g)
        g[ROTTEN] = 1
        g[ROTTEN_POT] = 0
        g[CARD_STATE + C_ARENE_POURRIE] = IN_PLAY
    if contribution_round_step(g, p, d + 1, seat, 0, C_ARENE_POURRIE, view) == ASKED:
        return suspend(g, d, 1)
    pot = g[RET]
    g[ROTTEN_POT] = pot
    if pot >= 5:
        bank_pot(g, p, pot)
        g[ROTTEN] = 0
        g[ROTTEN_POT] = 0
        g[CARD_STATE + C_ARENE_POURRIE] = DISCARDED
    return DONE


@njit(cache=True)
def poule_de_luxe(g, p, d, seat, view):
    """POULE DE LUXE (spec 7.6): one contribution round toward 5; gathered, the pot goes to the bank; otherwise
    every contribution is refunded and the lover -2 (floor 0)."""
    if resumed_at(g, d) == 0:
        start_pool(g)
    if contribution_round_step(g, p, d + 1, seat, 0, C_POULE_DE_LUXE, view) == ASKED:
        return suspend(g, d, 1)
    pot = g[RET]
    if pot >= 5:
        bank_pot(g, p, pot)
    else:
        for s in range(MAX_SEATS):
            g[MONEY + s] += g[CONTRIB + s]
            g[CONTRIB + s] = 0
        change_popularity(g, p, g[LOVER], -2)
    return DONE


@njit(cache=True)
def bookmaker(g, p, d, seat, view, stream):
    """BOOKMAKER: a stake of 1..min(5, money) (DP06, PT_AMOUNT) to the bank, then a die: 5-6 pays back
    (VOX-A24)."""
    f = frame(d)
    at = resumed_at(g, d)
    if at == 2:
        stake = g[f + 1]
    else:
        if at == 1:
            stake = g[ANSWER]
        else:
            most = min(5, g[MONEY + seat])
            open_param(g, p, seat, C_BOOKMAKER, PT_AMOUNT, 0, 6, view)
            for a in range(1, most + 1):
                view[VIEW_LEGAL + a] = 1
            stake = post(g, d, 1, seat, view)
            if stake < 0:
                return ASKED
        pay(g, p, seat, stake)
    if roll_die_step(g, p, d + 1, seat, C_BOOKMAKER, view, stream) == ASKED:
        g[f + 1] = stake
        return suspend(g, d, 2)
    gain_money(g, p, seat, bookmaker_return(p, stake, g[RET]))
    return DONE


@njit(cache=True, inline="always")
def depense_inconsideree(g, p):
    """DÉPENSE INCONSIDÉRÉE: the organiser pays 3 more at once; if he cannot, the match is cancelled and his turn
    ends (VOX-A23: the price paid is lost, or refunded with ``depense_fail = cancel_refund``)."""
    organiser = g[ORGANISER]
    if pay(g, p, organiser, 3):
        g[M_PRICE_PAID] += 3
    else:
        g[TURN_ENDED] = 1
        if p[O_DEPENSE_FAIL] == 1:
            gain_money(g, p, organiser, g[M_PRICE_PAID])
    return 0


@njit(cache=True)
def remplacant(g, p, d, seat, view):
    """REMPLAÇANT: one of the card player's gladiators in the match arena (param 0: value - 1) moves under another
    politician (param 1)."""
    f = frame(d)
    arena = g[M_POL]
    at = resumed_at(g, d)
    if at == 2:
        value, dest = g[f + 1], g[ANSWER]
    else:
        if at == 1:
            value = g[ANSWER]
        else:
            open_param(g, p, seat, C_REMPLACANT, PT_VALUE, 0, N_VALUES, view)
            for v in range(1, N_VALUES + 1):
                view[VIEW_LEGAL + v - 1] = 1 if g[glad_at(arena, seat, v)] > 0 else 0
            value = post(g, d, 1, seat, view)
            if value < 0:
                return ASKED
        value += 1
        open_param(g, p, seat, C_REMPLACANT, PT_ARENA, 1, N_POL, view)
        for pol in range(N_POL):
            view[VIEW_LEGAL + pol] = 1 if pol != arena else 0
        dest = post(g, d, 2, seat, view)
        if dest < 0:
            g[f + 1] = value
            return ASKED
    g[glad_at(arena, seat, value)] -= 1
    g[glad_at(dest, seat, value)] += 1
    return DONE


@njit(cache=True)
def petage_de_gueule(g, p, d, seat, view, stream):
    """PÉTAGE DE GUEULE: one die per gladiator (all owners) now in the match arena, each its own die with its
    R_die window (spec 7.5); on 4-6 that gladiator is eliminated. Dice go owner by owner in turn order from the
    card player, smallest value first; the order changes nothing but which die is which."""
    f = frame(d)
    counts = f + 4  # the gladiators in the arena when the card is played, per (owner, value): in the frame
    arena = g[M_POL]
    n = g[N_SEATS]
    if resumed_at(g, d):
        k, v, i = g[f + 1], g[f + 2], g[f + 3]
    else:
        for s in range(n):
            for v in range(1, N_VALUES + 1):
                g[counts + s * N_VALUES + v - 1] = g[glad_at(arena, s, v)]
        k, v, i = 0, 1, 0
    while k < n:
        s = (seat + k) % n
        if v > N_VALUES:
            k += 1
            v, i = 1, 0
            continue
        if i >= g[counts + s * N_VALUES + v - 1]:
            v += 1
            i = 0
            continue
        if roll_die_step(g, p, d + 1, seat, C_PETAGE_DE_GUEULE, view, stream) == ASKED:
            g[f + 1], g[f + 2], g[f + 3] = k, v, i
            return suspend(g, d, 1)
        if petage_kills(g[RET]):
            eliminate_gladiator(g, arena, s, v)
        i += 1
    return DONE


@njit(cache=True)
def aux_chiottes(g, p, d, seat, view, stream):
    """AUX CHIOTTES L'ARBITRE: 1-3 boos +2; 4-6 a second die (its own R_die) and boos + its value; voidable by
    MATCH ÉPIQUE 5-6."""
    at = resumed_at(g, d)
    if at <= 1:
        if roll_die_step(g, p, d + 1, seat, C_AUX_CHIOTTES_L_ARBITRE, view, stream) == ASKED:
            return suspend(g, d, 1)
        if not chiottes_needs_second_die(g[RET]):
            g[BOO_VOIDABLE] += 2
            return DONE
    if roll_die_step(g, p, d + 1, seat, C_AUX_CHIOTTES_L_ARBITRE, view, stream) == ASKED:
        return suspend(g, d, 2)
    g[BOO_VOIDABLE] += g[RET]
    return DONE


@njit(cache=True)
def die_card(card, g, p, d, seat, view, stream):
    """The cards that roll one die and apply its face at once (or to the match record)."""
    resumed_at(g, d)
    if roll_die_step(g, p, d + 1, seat, card, view, stream) == ASKED:
        return suspend(g, d, 1)
    die = g[RET]
    if card == C_PRESSE_A_SCANDALES:
        presse_effect(g, p, die)
    elif card == C_REGLEMENTS_DE_COMPTES:
        split_loss_effect(g, p, die, CESAR, POMPEE)
    elif card == C_BASTONS:
        split_loss_effect(g, p, die, CRASSUS, BRUTUS)
    elif card == C_ECHAUFFOUREE:
        split_loss_effect(g, p, die, OCTAVE, ANTOINE)
    elif card == C_DROITS_TELES:
        droits_teles_effect(g, p, seat, die)
    elif card == C_MERCHANDISING:
        gain_money(g, p, seat, merchandising_gain(die))
    elif card == C_SPONSORS:
        sponsors_effect(g, p, seat, die)
    elif card == C_SUSPENSE_INSOUTENABLE:
        g[APP_BONUS] += by_pairs(die, 1, 3, 5)
    elif card == C_PUBLIC_ENTHOUSIASTE:
        g[APP_BONUS] += by_pairs(die, 1, 2, 4)
    elif card == C_EQUIPE_RESERVE:
        g[BOO_BONUS] += by_pairs(die, 1, 3, 5)
    elif card == C_MATCH_AMICAL:
        g[BOO_VOIDABLE] += match_amical_bonus(die)
    elif card == C_MATCH_EPIQUE:
        epique_effect(g, p, die)
    return DONE


@njit(cache=True)
def named_target(card, g, p, d, seat, view):
    """The cards whose one parameter is all they need: HOOLIGANS (a quarter), COUP DE FOUDRE (the lover) and
    FRÈRES ENNEMIS (the guest politician, not the arena's own)."""
    if resumed_at(g, d):
        choice = g[ANSWER]
    elif card == C_HOOLIGANS:
        open_param(g, p, seat, C_HOOLIGANS, PT_QUARTER, 0, N_QUARTERS, view)
        for q in range(N_QUARTERS):
            view[VIEW_LEGAL + q] = 1
        choice = post(g, d, 1, seat, view)
    elif card == C_COUP_DE_FOUDRE:
        choice = choose_politician(g, p, d, seat, C_COUP_DE_FOUDRE, PT_POLITICIAN_HARM, True, -1, view)
    else:
        choice = choose_politician(g, p, d, seat, C_FRERES_ENNEMIS, PT_POLITICIAN_HELP, False, g[M_POL], view)
    if choice < 0:
        return ASKED
    if card == C_HOOLIGANS:
        g[HOOLIGANS_Q] = choice
        g[CARD_STATE + C_HOOLIGANS] = IN_PLAY  # lies on its quarter until the end of the turn
    elif card == C_COUP_DE_FOUDRE:
        g[LOVER] = choice
    else:
        g[GUEST] = choice
    return DONE


@njit(cache=True)
def card_procedure(card, seat, g, p, d, view, stream):
    """The cards that ask, roll or vote, as procedures at depth ``d`` (``CARD_ASKS``)."""
    if card == C_BOOKMAKER:
        return bookmaker(g, p, d, seat, view, stream)
    if card == C_AUX_CHIOTTES_L_ARBITRE:
        return aux_chiottes(g, p, d, seat, view, stream)
    if card == C_PETAGE_DE_GUEULE:
        return petage_de_gueule(g, p, d, seat, view, stream)
    if CARD_ROLLS_DICE[card]:
        return die_card(card, g, p, d, seat, view, stream)
    if card == C_PRESIDENT_D_HONNEUR:
        return president_d_honneur(g, p, d, seat, view)
    if card == C_TRANSFERT_TARDIF:
        return transfert_tardif(g, p, d, seat, view)
    if card == C_EXPULSION:
        return expulsion(g, p, d, seat, view)
    if card == C_AMICALES_DES_SUPPORTERS:
        return amicales(g, p, d, seat, view)
    if card == C_UN_FOU_DANS_LA_VILLE:
        return un_fou(g, p, d, seat, view)
    if card == C_ARENE_POURRIE:
        return arene_pourrie(g, p, d, seat, view)
    if card == C_COJC:
        return majority_loss(g, p, d, C_COJC, seat, ANTOINE, view)
    if card == C_AFFAIRE_DE_FAMILLE:
        return majority_loss(g, p, d, C_AFFAIRE_DE_FAMILLE, seat, OCTAVE, view)
    if card == C_SCANDALE_SEXUEL:
        return scandale_sexuel(g, p, d, seat, view)
    if card == C_POULE_DE_LUXE:
        return poule_de_luxe(g, p, d, seat, view)
    if card == C_REMPLACANT:
        return remplacant(g, p, d, seat, view)
    return named_target(card, g, p, d, seat, view)  # HOOLIGANS, COUP DE FOUDRE, FRÈRES ENNEMIS


# the cards played through ``card_procedure``: those that roll dice, ask their player, or hold a vote or a pool
CARD_ASKS = CARD_ROLLS_DICE.copy()
for _c in (C_PRESIDENT_D_HONNEUR, C_TRANSFERT_TARDIF, C_EXPULSION, C_AMICALES_DES_SUPPORTERS, C_UN_FOU_DANS_LA_VILLE,
           C_HOOLIGANS, C_ARENE_POURRIE, C_COJC, C_AFFAIRE_DE_FAMILLE, C_SCANDALE_SEXUEL, C_POULE_DE_LUXE,
           C_COUP_DE_FOUDRE, C_FRERES_ENNEMIS, C_REMPLACANT):
    CARD_ASKS[_c] = 1


# --------------------------------------------------------------------------- the hook the game calls
@njit(cache=True, inline="always")
def play_card_step(card, seat, window, g, p, d, view, stream):
    """Resolve ``card`` played by ``seat`` in ``window``: the game has checked ``card_playable`` and taken the
    card out of the hand (``discard_from_hand``). Pays the cost, asks for parameters, rolls, votes, applies (a step
    function at depth ``d``: re-entered after a decision, the cost is not paid again)."""
    if resumed_at(g, d) == 0:
        cost = CARD_COST[card]
        if card != C_BOOKMAKER and cost > 0:
            pay(g, p, seat, cost)  # TRANSFERT TARDIF 2, TOURNÉE GÉNÉRALE 3, AUGMENTATION DU PRIX DES BILLETS 3
        if card == C_AFFAIRE_DE_FAMILLE and p[O_AFFAIRE_MOVES_LOVER] == 1:
            g[LOVER] = ANTOINE  # VOX-A28, before the vote
        if not CARD_ASKS[card]:
            play_plain_card(card, seat, window, g, p)
            return DONE
    if card_procedure(card, seat, g, p, d + 1, view, stream) == ASKED:
        return suspend(g, d, 1)
    return DONE


@njit(cache=True)
def play_plain_card(card, seat, window, g, p):
    """The cards that neither ask, roll nor vote: applied at once, or as a flag of the turn / match record that
    the game reads at the reveal (spec 9)."""
    # ---- Forum cards (spec 9)
    if card == C_DREAM_TEAM:
        g[DREAM_TEAM] = 1
        if p[O_DREAM_TEAM_COLOUR] == 1:
            # VOX-A29 alternative: the announced match becomes a star match, the organiser pays the difference
            difference = PRICE[STAR] - PRICE[g[M_TYPE]]
            pay(g, p, seat, difference)
            g[M_PRICE_PAID] += difference
            g[M_TYPE] = STAR
    elif card == C_QUARTIER_LIBRE:
        g[FREE_PLACEMENT] = 1
    elif card == C_MAUVAIS_ORGANISATEUR:
        if window != W3:
            g[FORCED_MATCH] = 1
    elif card == C_PLACE_AU_SPORT:
        g[LOCKED] = 1
    elif card == C_REPRESSION:
        for pol in range(N_POL):
            if pol != CESAR:
                change_popularity(g, p, pol, -1)
        g[LOVER] = CESAR
    elif card == C_EMEUTE:
        for pol in range(N_POL):
            if pol != POMPEE:
                change_popularity(g, p, pol, -1)
    elif card == C_MON_HEROS:
        g[LOVER] = most_popular(g, p)
    elif card == C_CLEOPATRE:
        gain_money(g, p, seat, 5)
        g[CLEOPATRA] = 1
        g[CARD_STATE + C_CLEOPATRE] = IN_PLAY
    # ---- Arena cards (spec 9): the match record the game reads at the reveal
    elif card == C_DEPENSE_INCONSIDEREE:
        depense_inconsideree(g, p)
    elif card == C_INTERVIEW:
        g[INTERVIEW] = 1
    elif card == C_TOURNEE_GENERALE:
        g[APP_BONUS] += 3
    elif card == C_RECUPERATION_POLITIQUE:
        g[RECUP] = 1
    elif card == C_NE_PAS_DERANGER:
        g[ABSENT] = g[LOVER]
    elif card == C_PAX_DEORUM:
        g[PAX] = 1
    elif card == C_VOX_POPULI_VOX_DEI:
        g[VOX_DEI] = g[CARD_SEQ + C_VOX_POPULI_VOX_DEI]
    elif card == C_PANEM_ET_CIRCENSES:
        g[PANEM] = 1
    elif card == C_ARENE_GRATUITE:
        g[FREE_ARENA] = 1
    elif card == C_PIETINE:
        g[TRAMPLE] = 1
    elif card == C_LYNCHAGE_MEDIATIQUE:
        g[LYNCH] = 1
    elif card == C_VAE_VICTIS_CARD:
        g[VAE_VICTIS] = 1
    elif card == C_AUGMENTATION_DU_PRIX:
        g[BOO_VOIDABLE] += 3
    elif card == C_MAUVAISE_SONORISATION:
        g[BAD_SOUND] = 1


@njit(cache=True)
def play_card(card, seat, window, g, p, view, stream, codes, params, slots):
    """``play_card_step`` to its end, the policies asked through ``decide`` (tests, tools). Returns 0 or a policy
    error code."""
    clear_frames(g)
    while play_card_step(card, seat, window, g, p, 0, view, stream) == ASKED:
        err = answer_here(g, view, stream, codes, params, slots)
        if err:
            return err
    return 0
