"""Vox Populi bots: one policy per seat, asked at every decision point of spec 10 through the seat's view.

Decision points in the core's sense are the six seats (``seat0`` .. ``seat5``): a seat's policy answers all of
that seat's decisions, told apart by ``view[VIEW_KIND]`` (``K_*`` in ``state.py``). It receives only the seat's
view (spec 11): the public state, its own hand and black-box contents, the decision's context
(``view[VIEW_ARGS ...]``) and the legal actions (``view[VIEW_LEGAL + a] == 1``); never another seat's hand or
stars. A user policy is ``@njit fn(view, params, stream) -> int`` (entry ``i`` of the view is named
``state.VIEW_NAMES[i]``, the decision point's ``state``); it may hand the decisions it does not care about to a
built-in: ``builtin_policy(CODE_DEFAULT, params, view, stream)``.

Built-ins (codes):

* ``default`` (0): a heuristic bot that estimates who backs which politician from what it can see (its own stars
  exactly; others' from the pieces they slipped into each slot and the gladiators they have waiting) and plays
  for its own expected share of the Emperor's box.
* ``random`` (1): uniform over the legal actions.
* ``parametric`` (2) and its presets: the same heuristic driven by a float vector (see ``PARAMS``); it reads
  only its own interest (no inference about the others: another seat's stake is only its waiting gladiators).

How the heuristic weighs a choice. Its **position value** ``V`` (``value``) is its expected share of the
Emperor's box: ``sum_k P_k * share_k`` over the living politicians, where ``P_k`` is the crown weight
``1 / (1 + gap_k**2)`` (``gap_k``: popularity behind the leader; the lover counts ``LOVER_RISK`` lower, since
SCANDALE SEXUEL, POULE DE LUXE and NE PAS DÉRANGER aim at him) normalised over the living, and ``share_k`` is
``(own + 1) / (own + strongest rival + seats)`` of the stakes in slot ``k`` (own stars exactly, 2.6 per piece
another seat slipped there, half of the gladiators waiting; an empty slot is anybody's, 1 / seats). The
politician's rank plays no part (the hierarchy breaks ties only at the very end, spec 8.2). Money, cards and
supporters are worth ``MONEY_WORTH``, ``CARD_WORTH`` and ``SUPPORTER_WORTH`` in the same unit. Every card, vote and
payment is taken only when it raises the bot's expected ``V`` (less what it costs); a choice between equals is
drawn from the game's dice stream, never by seat order or rank. Its **favourite** is the politician with the
largest ``P_k * share_k``.

A match (spec 6.2-6.3) is valued by its two outcomes: ``V`` if applause wins (each attending politician gains
the match's popularity, spec 6.3 d, with RÉCUPÉRATION, PAX DEORUM, NE PAS DÉRANGER, FRÈRES ENNEMIS; the bot's
own gladiators there become stars in its favourite's slot, spec 6.3 b) and ``V`` if boos win (LYNCHAGE,
PIÉTINE, VAE VICTIS; an applauder's smallest gladiator there lost, spec 6.3), weighted by the chance of applause
``q``, read from the expected margin: each seat's attending supporters (spec 4.3, HOOLIGANS, ARÈNE GRATUITE,
PANEM ET CIRCENSES) on the side it is expected to take (applause where it has gladiators waiting or, with
inference, stars slipped; else boos), plus the bonuses already played; ``q = 0.5 + 0.12 * margin`` within
0.03..0.97, ties to applause (to boos under MAUVAISE SONORISATION).

Decisions (spec 10):

* DP02 ``name_quarter``: the quarter whose arena matters least to the active player and most to the namer (with
  probability ``spite``; else uniform).
* DP03 ``place_supporter``: the piece at quantile ``supporter_share`` (a little jitter), on the legal cell
  nearest its favourite's arena (with probability ``focus``).
* DP04 ``place_gladiator``: the mirror quantile, under the politician with the best crown weight x share, raised
  when the seat's supporters already reach that arena.
* DP07 ``organise_match``: the (arena, type) with the best expected ``V`` plus the money it expects (4 back on
  applause, spec 6.3 c, less the price), against no match and its turn bonus (spec 6.4); played with
  probability ``match_appetite``. No match whose applause would cost it more than it brings.
* DP09 ``cheer_or_boo``: the meter with the better expectation: its own supporters' weight moves ``q``; only an
  applauder's gladiators become stars (or lose one); a booer with attending supporters loses one if applause
  wins, and draws a card if boos win (spec 6.3). With nothing at stake it applauds where its supporters attend
  (booing could only cost one) and boos where none attend (free: a card if boos win), applauding anyway with
  probability ``applause_bias``.
* DP12 ``slip_stars``: its favourite with probability ``concentration``, else the runner-up; a decoy with
  probability ``1 - concentration`` when it has 3 sesterces.
* DP10 / DP11: its smallest attending supporter / gladiator (a tie drawn).
* DP13 ``turn_bonus``: a card with probability ``card_use``, else a sesterce.
* DP14 ``vote_yes_no`` (spec 7.4): YES only when the harmful proposal (assassination by UN FOU DANS LA VILLE or
  SCANDALE SEXUEL, -1 by C.O.J.C. or AFFAIRE DE FAMILLE) raises its ``V``.
* DP15 ``vote_politician`` (PRÉSIDENT D'HONNEUR): the politician whose +1 raises its ``V`` most.
* DP08 ``contribute`` (spec 7.6): to POULE DE LUXE only when the lover's -2 would lower its ``V``; to ARÈNE
  POURRIE only at a match announcement, when the +3 boos lower that match's expectation for it by more than the
  money; never to the pot of its own ARÈNE POURRIE. It gives ``generosity`` of its money.
* DP05 ``card_window``: among the legal cards, the one with the largest expected gain, played (with probability
  ``card_use``) when the gain exceeds a kept card's worth. The gain of each card (spec 9; the CSV's effects):

  - popularity events (VP07 PRESSE À SCANDALES, VP14 RÉPRESSION, VP15 RÈGLEMENTS DE COMPTES, VP16 ÉMEUTE, VP18
    BASTONS, VP19 ÉCHAUFFOURÉE, VP24 MON HÉROS, VP30 COUP DE FOUDRE): ``V`` after the effect (dice averaged, the
    lover marker moved) minus ``V`` now; so RÉPRESSION is played for César's backers, ÉMEUTE for Pompée's, and
    neither against its own favourite;
  - votes (VP12 UN FOU, VP26 C.O.J.C., VP27 AFFAIRE DE FAMILLE, VP28 SCANDALE SEXUEL, VP03 PRÉSIDENT
    D'HONNEUR) and VP29 POULE DE LUXE: the gain if the proposal passes, times the chance it passes from the
    ballots it expects (a seat with a stake in the target votes NO); SCANDALE SEXUEL is never played on a lover
    it backs;
  - reactions (VP02 CENSURE, VP06 TRICHERIE): only in a vote whose outcome changes its ``V``; CENSURE only when a
    seat is expected to vote against it, and aimed at that seat (the one with the largest stake, a tie drawn);
  - money (VP20 DROITS TÉLÉS, VP21 MERCHANDISING, VP22 SPONSORS, VP25 CLÉOPÂTRE): their expected sesterces;
    VP32 BOOKMAKER is kept (its expectation is 0 under the default payout);
  - placement (VP05 TRANSFERT TARDIF: its largest eliminated piece under its favourite; VP08 EXPULSION: a
    rival's supporter that reaches an arena where that rival has gladiators, sent as far from it as it may go;
    VP09 AMICALES: a card and the worst quarter for the active player; VP10 QUARTIER LIBRE; VP17 HOOLIGANS: the
    quarter of the arena the active player needs, when that arena is none of its interest; VP04 DREAM TEAM and
    VP13 PLACE AU SPORT only for its own turn, with a match it may want; VP23 ARÈNE POURRIE on another player's
    turn when the others have more gladiators waiting than it); VP11 MAUVAIS ORGANISATEUR is kept;
  - match cards (VP31-VP54): the expected ``V`` of the match with the card against without it; so a bonus is
    played only for the side it wants, PÉTAGE DE GUEULE never with its own gladiators in the arena (half of them
    would die), NE PAS DÉRANGER only when the lover's change would hurt it, PIÉTINE never on a politician it
    backs, DÉPENSE INCONSIDÉRÉE never on its own match.
* DP06 ``card_params``: the parameter that gave the card its gain (the target, the guest, the quarter, the cells,
  the largest piece, the arena of its favourite, CENSURE's seat).
* DP16 ``die_override``: the face with the largest gain for it, when that beats the rolled face by more than the
  card's worth (popularity dice by ``V``, money dice by its sesterces, match bonus dice by ``q``).
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.policy import USER, Builtin, DecisionPoint, call
from .state import (
    ABSENT,
    ACTIVE,
    ANTOINE,
    APP_BONUS,
    ARENA_CARDS_PLAYED,
    ARENA_CELL,
    BAD_SOUND,
    BALLOT,
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
    C_CENSURE,
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
    C_TRICHERIE,
    C_UN_FOU_DANS_LA_VILLE,
    C_VAE_VICTIS_CARD,
    C_VOX_POPULI_VOX_DEI,
    CARD_PLAYER,
    CELL_OWNER,
    CELL_VALUE,
    CESAR,
    CLUB,
    CRASSUS,
    DEAD,
    DECISION_NAMES,
    DECK_LEFT,
    ELIM,
    EPIQUE_ADD,
    EPIQUE_VOID,
    FIRST_ARENA_CARD,
    FREE_ARENA,
    GAIN,
    GLAD,
    GUEST,
    HOOLIGANS_Q,
    K_CARD_PARAMS,
    K_CARD_WINDOW,
    K_CHEER_OR_BOO,
    K_CONTRIBUTE,
    K_DIE_OVERRIDE,
    K_ELIMINATE_GLADIATOR,
    K_ELIMINATE_SUPPORTER,
    K_NAME_QUARTER,
    K_ORGANISE_MATCH,
    K_PLACE_GLADIATOR,
    K_PLACE_SUPPORTER,
    K_SLIP_STARS,
    K_TURN_BONUS,
    K_VOTE_POLITICIAN,
    K_VOTE_YES_NO,
    LOVER,
    LYNCH,
    M_POL,
    M_TYPE,
    MATCH_ON,
    MAX_DEGREE,
    MAX_SEATS,
    MONEY,
    N_CARDS,
    N_CELLS,
    N_POL,
    N_QUARTERS,
    N_SEATS,
    N_VALUES,
    OCTAVE,
    ORGANISER,
    PANEM,
    PAX,
    PHASE,
    POMPEE,
    POP,
    PRICE,
    PT_AMOUNT,
    PT_ARENA,
    PT_CELL,
    PT_POLITICIAN_HARM,
    PT_POLITICIAN_HELP,
    PT_QUARTER,
    PT_SEAT_HARM,
    PT_SUPPORTER_CELL,
    PT_VALUE,
    RECUP,
    ROTTEN,
    SLIP_STAR,
    SLIPPED,
    STAR,
    TRAMPLE,
    VAE_VICTIS,
    VIEW_ADJ,
    VIEW_ARGS,
    VIEW_BOX_STARS,
    VIEW_DEGREE,
    VIEW_KIND,
    VIEW_LEGAL,
    VIEW_N_ACTIONS,
    VIEW_NAMES,
    VIEW_QUARTER,
    VIEW_SCRATCH,
    VIEW_SEAT,
    VOTE_CARD,
    VOTE_TARGET,
    W1B,
    W2,
    W3,
)


CODE_DEFAULT, CODE_RANDOM, CODE_PARAMETRIC = range(3)

PARAMS = ("supporter_share", "spite", "focus", "match_appetite", "applause_bias", "concentration", "card_use",
          "generosity")
PARAM_DOCS = {
    "supporter_share": "0..1: which of its pieces goes to Rome as the supporter (0 = its smallest, 1 = its largest); "
                       "the gladiator takes the mirror quantile",
    "spite": "0..1: probability that the namer names the quarter worst for the active player (else uniform)",
    "focus": "0..1: probability of placing the supporter where it reaches its favourite's arena (else uniform)",
    "match_appetite": "0..1: probability of organising the match with the best expectation for it (arena, type) "
                      "when one beats no match",
    "applause_bias": "0..1: probability of applauding a match where it has nothing at stake and no supporter "
                     "attending (booing is free there: a card if boos win)",
    "concentration": "0..1: probability of slipping a star into its favourite's slot (else the runner-up's); "
                     "1 - concentration is also the probability of buying a decoy when it can afford 3",
    "card_use": "0..1: probability of playing its best card at its priority when that card gains it more than a "
                "kept card is worth; also of taking a card rather than a sesterce as the turn bonus",
    "generosity": "0..1: share of its money it puts into a pool that helps it",
}
PRESETS = {
    "parametric": (0.5, 1.0, 0.9, 0.9, 0.3, 0.8, 0.5, 0.5),
    "showman": (0.8, 1.0, 1.0, 1.0, 0.6, 0.7, 0.7, 0.5),
    "collector": (0.2, 1.0, 0.8, 0.7, 0.2, 1.0, 0.3, 0.3),
    "bluffer": (0.5, 1.0, 0.9, 0.9, 0.3, 0.5, 0.5, 0.5),
}
PRESET_DOCS = {"parametric": "the middle setting of every parameter",
               "showman": "big supporters to Rome, many matches, free applause, many cards",
               "collector": "big gladiators kept, every star to its favourite, few matches and cards",
               "bluffer": "stars spread between favourite and runner-up, decoys bought"}
DEFAULT_VECTOR = np.array((0.5, 1.0, 0.95, 1.0, 0.2, 0.85, 0.6, 0.6), np.float64)

# numba's options for the heuristic's helpers that allocate nothing: compiled without reference counting (numba's
# own flag, which its own such helpers use), so that a call costs no atomic count of the arrays it is passed. The
# arrays a decision makes (its position, its match records) own a reference, and counting them at every call of
# ``value``, ``outcome_values``, ``stake`` ... (thousands a game) took a quarter of a 4-seat game's time under the
# default bots, allocating and freeing their copies a tenth more. Such a helper calls only functions that allocate
# nothing either: numba compiles a callee that has no ``_nrt`` option of its own with its caller's
LEAF = dict(cache=True, _nrt=False)

# what the heuristic reckons things are worth, in units of its position value (its expected share of the
# Emperor's box, 0..1)
MONEY_WORTH = 0.004
CARD_WORTH = 0.008
SUPPORTER_WORTH = 0.015
LOVER_RISK = 0.5   # popularity the lover marker costs its politician in the crown weights
Q_SLOPE = 0.12     # chance of applause per point of expected margin
TINY = 1e-9

# rows of a position (``position``): popularity, assassinated, own stake, strongest rival stake, lover marker,
# number of seats
R_POP, R_DEAD, R_MINE, R_RIVAL, R_LOVER, R_SEATS = range(6)
# fields of a match record (``match_record``)
(F_POL, F_GAIN, F_GUEST, F_ABSENT, F_PAX, F_RECUP, F_LYNCH, F_TRAMPLE, F_VAE, F_PETAGE, F_MINE, F_SMALLEST, F_FAV,
 F_RIVAL_GLAD, F_MARGIN, F_BAD, F_MY_WEIGHT, F_SIZE) = range(18)
# expected bonus of each match card's dice (spec 9): applause +, boos -
BONUS = np.zeros(N_CARDS, np.float64)
BONUS[C_SUSPENSE_INSOUTENABLE] = 3.0            # +1 / +3 / +5
BONUS[C_TOURNEE_GENERALE] = 3.0
BONUS[C_PUBLIC_ENTHOUSIASTE] = 7.0 / 3.0        # +1 / +2 / +4
BONUS[C_EQUIPE_RESERVE] = -3.0                  # +1 / +3 / +5
VOIDABLE = np.zeros(N_CARDS, np.float64)        # boo bonuses that MATCH ÉPIQUE 5-6 voids
VOIDABLE[C_AUGMENTATION_DU_PRIX] = 3.0
VOIDABLE[C_MATCH_AMICAL] = 5.0 / 3.0            # +1 (1-4) / +3 (5-6)
VOIDABLE[C_AUX_CHIOTTES_L_ARBITRE] = 2.75       # +2 (1-3) / + a second die (4-6)


def seat_points():
    """The six per-seat decision points (the core's policy hooks)."""
    builtins = {"default": Builtin(CODE_DEFAULT, "heuristic bot with inference about who backs whom"),
                "random": Builtin(CODE_RANDOM, "uniform over the legal actions")}
    for name, vector in PRESETS.items():
        builtins[name] = Builtin(CODE_PARAMETRIC, f"the parametric bot, preset {name}: {PRESET_DOCS[name]}",
                                 params=PARAMS, defaults=vector)
    kinds = ", ".join(f"{i + 1} {n}" for i, n in enumerate(DECISION_NAMES))
    return tuple(DecisionPoint(
        f"seat{s}", "spec 10 (DP01-DP16)",
        f"Every decision of seat {s} (ignored when the game has fewer seats). The state is the seat's view "
        "(state.py VIEW_*): the public state, its own hand and box, the decision's context (args) and the legal "
        f"actions (legal); kind is the decision: {kinds}.",
        state=VIEW_NAMES,
        actions="an integer a < view[VIEW_N_ACTIONS] with view[VIEW_LEGAL + a] == 1 (encodings per decision kind: "
                "docs/contracts/vox_populi.md)",
        builtins=builtins, default="default", candidates=legal_in_view) for s in range(MAX_SEATS))


def legal_in_view(view):
    """The actions a seat's view marks legal: below ``n_actions`` (entries past it are left from earlier
    decisions)."""
    return np.flatnonzero(view[VIEW_LEGAL:VIEW_LEGAL + view[VIEW_N_ACTIONS]])


# --------------------------------------------------------------------------- helpers on a view
@njit(**LEAF)
def random_legal(view, stream):
    n = view[VIEW_N_ACTIONS]
    count = 0
    for a in range(n):
        count += view[VIEW_LEGAL + a]
    k = rng.dn(stream, count) if count > 0 else 1
    for a in range(n):
        if view[VIEW_LEGAL + a]:
            k -= 1
            if k == 0:
                return a
    return 0


@njit(**LEAF)
def chance(stream, prob):
    """True with probability ``prob`` (resolution 1/1000)."""
    if prob >= 1.0:
        return True
    if prob <= 0.0:
        return False
    return rng.dn(stream, 1000) <= prob * 1000.0


@njit(cache=True, inline="always")
def better(score, best, ties, stream):
    """Running argmax with ties drawn from the stream (reservoir): returns ``(take, best, ties)``; ``take`` says
    whether the candidate of ``score`` replaces the one held."""
    if score > best + TINY:
        return True, score, 1
    if score >= best - TINY:
        ties += 1
        return rng.dn(stream, ties) == 1, best, ties
    return False, best, ties


@njit(**LEAF)
def own_stars(view, pol):
    total = 0
    for v in range(N_VALUES):
        total += (v + 1) * view[VIEW_BOX_STARS + pol * N_VALUES + v]
    return total


@njit(**LEAF)
def waiting(view, pol, seat):
    """Total value of ``seat``'s gladiators waiting under ``pol`` (public)."""
    total = 0
    for v in range(N_VALUES):
        total += (v + 1) * view[GLAD + (pol * MAX_SEATS + seat) * N_VALUES + v]
    return total


@njit(**LEAF)
def smallest_waiting(view, pol, seat):
    for v in range(N_VALUES):
        if view[GLAD + (pol * MAX_SEATS + seat) * N_VALUES + v] > 0:
            return v + 1
    return 0


@njit(**LEAF)
def stake(view, seat, pol, infer):
    """What ``seat`` is believed to have riding on ``pol``: exact stars for the viewer; for another seat, with
    inference, 2.6 per piece slipped into the slot (the mean value of a slipped piece with the default pieces,
    decoys ignored); half of the waiting gladiators either way."""
    me = view[VIEW_SEAT]
    if seat == me:
        base = float(own_stars(view, pol))
    elif infer:
        base = 2.6 * view[SLIPPED + pol * MAX_SEATS + seat]
    else:
        base = 0.0
    return base + 0.5 * waiting(view, pol, seat)


# --------------------------------------------------------------------------- the position and its value
@njit(cache=True)
def position(view, infer):
    """The seat's position (rows ``R_*`` x politicians): popularity, assassination markers, its own stake, the
    strongest other stake (``stake``), the lover marker, and the number of seats (in every column)."""
    me = view[VIEW_SEAT]
    pos = np.zeros((6, N_POL))
    pos[R_SEATS, :] = view[N_SEATS]
    for k in range(N_POL):
        pos[R_POP, k] = view[POP + k]
        pos[R_DEAD, k] = view[DEAD + k]
        pos[R_MINE, k] = stake(view, me, k, True)
        rival = 0.0
        for s in range(view[N_SEATS]):
            if s != me:
                rival = max(rival, stake(view, s, k, infer))
        pos[R_RIVAL, k] = rival
        pos[R_LOVER, k] = 1.0 if view[LOVER] == k else 0.0
    return pos


@njit(cache=True, inline="always")
def crown_leader(pos):
    """The popularity the crown weights measure gaps from: the leader's, the lover ``LOVER_RISK`` lower."""
    best = -1e18
    for k in range(N_POL):
        if pos[R_DEAD, k] == 0:
            best = max(best, pos[R_POP, k] - LOVER_RISK * pos[R_LOVER, k])
    return best


@njit(cache=True, inline="always")
def crown_weight(pos, k, leader):
    """1 / (1 + gap**2) for a living politician ``k`` (``gap``: popularity behind ``leader``, the lover
    ``LOVER_RISK`` lower), 0 for an assassinated one."""
    if pos[R_DEAD, k] != 0:
        return 0.0
    gap = leader - (pos[R_POP, k] - LOVER_RISK * pos[R_LOVER, k])
    return 1.0 / (1.0 + gap * gap)


@njit(**LEAF)
def crown_weights(pos, out):
    """``out[k]``: the crown weight of politician ``k`` (``crown_weight``); returns their sum."""
    leader = crown_leader(pos)
    total = 0.0
    for k in range(N_POL):
        out[k] = crown_weight(pos, k, leader)
        if pos[R_DEAD, k] == 0:
            total += out[k]
    return total


@njit(cache=True, inline="always")
def share(pos, k):
    """The seat's expected share of slot ``k`` against the strongest other stake; an empty slot is anybody's,
    1 / seats."""
    return (pos[R_MINE, k] + 1.0) / (pos[R_MINE, k] + max(pos[R_RIVAL, k], 0.0) + pos[R_SEATS, 0])


@njit(**LEAF)
def value(pos):
    """The position value: the expected share of the Emperor's box, sum of P_k x share_k (module docstring)."""
    # the crown weights reckoned where they are used, not kept in an array: ``V`` is taken about a thousand times a
    # game, and an array per ``V`` (allocated, counted, freed) cost more than the sums
    leader = crown_leader(pos)
    total = 0.0
    for k in range(N_POL):
        if pos[R_DEAD, k] == 0:
            total += crown_weight(pos, k, leader)
    if total <= 0.0:
        return 0.0
    acc = 0.0
    for k in range(N_POL):
        acc += crown_weight(pos, k, leader) * share(pos, k)
    return acc / total


@njit(cache=True, inline="always")
def add_pop(pos, k, delta):
    """Spec 6.6: an assassinated politician gains nothing; popularity stops at 0 (VOX-A34)."""
    if k < 0 or (delta > 0 and pos[R_DEAD, k] != 0):
        return
    pos[R_POP, k] = max(0.0, pos[R_POP, k] + delta)


@njit(cache=True, inline="always")
def set_lover(pos, k):
    for j in range(N_POL):
        pos[R_LOVER, j] = 1.0 if j == k else 0.0


@njit(**LEAF)
def best_slot(pos, exclude, stream):
    """The politician with the largest crown weight x share (``exclude`` left out), a tie drawn from the stream;
    among the assassinated only if every other is."""
    leader = crown_leader(pos)
    pick, best, ties = -1, -1.0, 0
    for k in range(N_POL):
        if k == exclude:
            continue
        take, best, ties = better(crown_weight(pos, k, leader) * share(pos, k), best, ties, stream)
        if take:
            pick = k
    return pick if pick >= 0 else (1 if exclude == 0 else 0)


@njit(cache=True)
def favourite(view, exclude, infer, stream):
    """The politician the viewer should back (``best_slot`` of its position)."""
    return best_slot(position(view, infer), exclude, stream)


@njit(cache=True)
def pop_effect_value(pos, card, die):
    """``V`` after the popularity event ``card`` with die ``die`` (0: a card without a die)."""
    q = pos.copy()
    if card == C_PRESSE_A_SCANDALES:
        for k in range(N_POL):
            add_pop(q, k, -1 if die <= 4 else -2)
    elif card == C_REGLEMENTS_DE_COMPTES:
        add_pop(q, CESAR if die <= 3 else POMPEE, -2)
    elif card == C_BASTONS:
        add_pop(q, CRASSUS if die <= 3 else BRUTUS, -2)
    elif card == C_ECHAUFFOUREE:
        add_pop(q, OCTAVE if die <= 3 else ANTOINE, -2)
    elif card == C_REPRESSION:
        for k in range(N_POL):
            if k != CESAR:
                add_pop(q, k, -1)
        set_lover(q, CESAR)
    elif card == C_EMEUTE:
        for k in range(N_POL):
            if k != POMPEE:
                add_pop(q, k, -1)
    return value(q)


@njit(**LEAF)
def most_popular(pos):
    """MON HÉROS: the most popular living politician, ties to the higher rank (VOX-A20, the card's own rule)."""
    best = -1
    for k in range(N_POL):
        if pos[R_DEAD, k] == 0 and (best < 0 or pos[R_POP, k] > pos[R_POP, best]):
            best = k
    return best


# --------------------------------------------------------------------------- the board
@njit(**LEAF)
def attending_value(view, arena_pol, seat):
    """Value of ``seat``'s supporters that would attend a match in ``arena_pol``'s arena (spec 4.3 on the view's
    board, cards ignored); -1 for ``seat`` means every seat."""
    start = view[ARENA_CELL + arena_pol]
    seen, stack = VIEW_SCRATCH, VIEW_SCRATCH + N_CELLS
    for c in range(N_CELLS):
        view[seen + c] = 0
    top = 0
    for k in range(view[VIEW_DEGREE + start]):
        c = view[VIEW_ADJ + start * MAX_DEGREE + k]
        if view[CELL_OWNER + c] >= 0 and view[seen + c] == 0:
            view[seen + c] = 1
            view[stack + top] = c
            top += 1
    total = 0
    while top > 0:
        top -= 1
        x = view[stack + top]
        if seat < 0 or view[CELL_OWNER + x] == seat:
            total += view[CELL_VALUE + x]
        for k in range(view[VIEW_DEGREE + x]):
            y = view[VIEW_ADJ + x * MAX_DEGREE + k]
            if view[CELL_OWNER + y] >= 0 and view[seen + y] == 0:
                view[seen + y] = 1
                view[stack + top] = y
                top += 1
    return total


@njit(cache=True, inline="always")
def linked_in_view(view, x, y):
    """The edge x-y as the game uses it now: HOOLIGANS cuts its quarter off (VOX-A38) unless ARÈNE GRATUITE."""
    h = view[HOOLIGANS_Q]
    if h < 0 or view[FREE_ARENA]:
        return True
    qx, qy = view[VIEW_QUARTER + x], view[VIEW_QUARTER + y]
    return qx == qy or (qx != h and qy != h)


@njit(**LEAF)
def attendance(view, pol, vals, counts):
    """Every seat's supporters that would attend a match in ``pol``'s arena now (spec 4.3, with HOOLIGANS and
    ARÈNE GRATUITE): their total value in ``vals[seat]``, their number in ``counts[seat]``; the attending cells
    are left marked 1 in ``view[VIEW_SCRATCH ...]``."""
    for s in range(MAX_SEATS):
        vals[s] = 0
        counts[s] = 0
    seen, stack = VIEW_SCRATCH, VIEW_SCRATCH + N_CELLS
    free = view[FREE_ARENA] != 0
    for c in range(N_CELLS):
        view[seen + c] = 1 if free and view[CELL_OWNER + c] >= 0 else 0
    if free:
        for c in range(N_CELLS):
            if view[seen + c]:
                vals[view[CELL_OWNER + c]] += view[CELL_VALUE + c]
                counts[view[CELL_OWNER + c]] += 1
        return
    start = view[ARENA_CELL + pol]
    top = 0
    for k in range(view[VIEW_DEGREE + start]):
        c = view[VIEW_ADJ + start * MAX_DEGREE + k]
        if view[CELL_OWNER + c] >= 0 and view[seen + c] == 0 and linked_in_view(view, start, c):
            view[seen + c] = 1
            view[stack + top] = c
            top += 1
    while top > 0:
        top -= 1
        x = view[stack + top]
        vals[view[CELL_OWNER + x]] += view[CELL_VALUE + x]
        counts[view[CELL_OWNER + x]] += 1
        for k in range(view[VIEW_DEGREE + x]):
            y = view[VIEW_ADJ + x * MAX_DEGREE + k]
            if view[CELL_OWNER + y] >= 0 and view[seen + y] == 0 and linked_in_view(view, x, y):
                view[seen + y] = 1
                view[stack + top] = y
                top += 1


@njit(**LEAF)
def cell_distance(view, src, dst):
    """Steps between two cells on the board graph, ignoring what stands on them."""
    dist, queue = VIEW_SCRATCH, VIEW_SCRATCH + N_CELLS
    for c in range(N_CELLS):
        view[dist + c] = -1
    head, tail = 0, 1
    view[queue] = src
    view[dist + src] = 0
    while head < tail:
        x = view[queue + head]
        head += 1
        if x == dst:
            return view[dist + x]
        for k in range(view[VIEW_DEGREE + x]):
            y = view[VIEW_ADJ + x * MAX_DEGREE + k]
            if view[dist + y] < 0:
                view[dist + y] = view[dist + x] + 1
                view[queue + tail] = y
                tail += 1
    return 99


@njit(**LEAF)
def club_quantile(view, seat, share_, skip_value):
    """The value at quantile ``share_`` of ``seat``'s club (one piece of ``skip_value`` set aside)."""
    total = 0
    for v in range(1, N_VALUES + 1):
        total += view[CLUB + seat * N_VALUES + v - 1]
    if skip_value > 0:
        total -= 1
    if total <= 0:
        return 0
    target = int(share_ * (total - 1) + 0.5)
    for v in range(1, N_VALUES + 1):
        count = view[CLUB + seat * N_VALUES + v - 1] - (1 if v == skip_value else 0)
        if target < count:
            return v
        target -= count
    return N_VALUES


# --------------------------------------------------------------------------- a match: its outcomes and odds
@njit(cache=True)
def applause_chance(margin, bad_sound):
    """``q``: the chance applause wins at an expected margin (applause - boos); ties go to applause unless
    MAUVAISE SONORISATION (spec 6.3 step 4)."""
    q = 0.5 + Q_SLOPE * (margin + (-0.5 if bad_sound else 0.5))
    return min(0.97, max(0.03, q))


@njit(**LEAF)
def seat_applauds(view, pol, seat, infer):
    """The side another seat is expected to take: applause where it has gladiators waiting or (with inference)
    stars slipped into a living politician's slot; else boos."""
    if waiting(view, pol, seat) > 0:
        return True
    return infer and view[DEAD + pol] == 0 and view[SLIPPED + pol * MAX_SEATS + seat] > 0


@njit(cache=True)
def match_record(view, pos, pol, mtype, infer, fav, live):
    """The match the seat is looking at (``live``: the one in progress, with its cards so far; else a match it
    could organise in ``pol``'s arena at type ``mtype``), as a float record (``F_*``): the margin expected from
    the others' supporters and the bonuses, and the seat's own supporters' weight ``F_MY_WEIGHT``."""
    me = view[VIEW_SEAT]
    m = np.zeros(F_SIZE)
    m[F_POL] = pol
    m[F_GAIN] = GAIN[mtype]
    m[F_GUEST] = view[GUEST] if live else -1
    m[F_ABSENT] = view[ABSENT] if live else -1
    if live:
        m[F_PAX] = view[PAX]
        m[F_RECUP] = view[RECUP]
        m[F_LYNCH] = view[LYNCH]
        m[F_TRAMPLE] = view[TRAMPLE]
        m[F_VAE] = view[VAE_VICTIS]
        m[F_BAD] = view[BAD_SOUND]
    m[F_MINE] = waiting(view, pol, me)
    m[F_SMALLEST] = smallest_waiting(view, pol, me)
    m[F_FAV] = fav
    rival_glad = 0
    for s in range(view[N_SEATS]):
        if s != me:
            rival_glad = max(rival_glad, waiting(view, pol, s))
    m[F_RIVAL_GLAD] = rival_glad
    attending = np.empty((2, MAX_SEATS), np.int64)  # values and numbers (``attendance`` sets every entry)
    vals, counts = attending[0], attending[1]
    attendance(view, pol, vals, counts)
    panem = live and view[PANEM] != 0
    margin = 0.0
    if live:
        margin += view[APP_BONUS] - view[BOO_BONUS]
        if view[EPIQUE_ADD]:
            margin += view[ARENA_CARDS_PLAYED]
        if view[EPIQUE_VOID] == 0:
            margin -= view[BOO_VOIDABLE]
    if view[ROTTEN]:
        margin -= 3.0
    for s in range(view[N_SEATS]):
        if s == me:
            continue
        w = counts[s] if panem else vals[s]
        margin += w if seat_applauds(view, pol, s, infer) else -w
    m[F_MARGIN] = margin
    m[F_MY_WEIGHT] = counts[me] if panem else vals[me]
    return m


@njit(**LEAF)
def outcome_values(pos, m):
    """(``V`` if applause wins, ``V`` if boos win) of the match ``m``, the seat applauding where it has
    gladiators (spec 6.3: attending politicians gain, the applauders' gladiators become stars, LYNCHAGE, PIÉTINE,
    VAE VICTIS, PAX DEORUM, NE PAS DÉRANGER, FRÈRES ENNEMIS; PÉTAGE DE GUEULE as an expected half of every
    gladiator there).

    Each outcome is ``pos`` with a few entries changed; they are changed in place and put back after each ``V``
    (a copy of the position per outcome cost more than the rest of the reckoning)."""
    pol, guest, absent = int(m[F_POL]), int(m[F_GUEST]), int(m[F_ABSENT])
    fav = int(m[F_FAV])
    keep = 0.5 if m[F_PETAGE] != 0 else 1.0
    mine = m[F_MINE] * keep
    # every entry either outcome changes
    rival, own, own_fav, pop, dead = pos[R_RIVAL, pol], pos[R_MINE, pol], pos[R_MINE, fav], pos[R_POP, pol], \
        pos[R_DEAD, pol]
    pop_guest = pos[R_POP, guest] if guest >= 0 else 0.0
    # PÉTAGE DE GUEULE's expected losses, in both outcomes
    rival_left = max(0.0, rival - 0.5 * (1.0 - keep) * m[F_RIVAL_GLAD])
    own_left = own - 0.5 * (1.0 - keep) * m[F_MINE]
    # applause
    pos[R_RIVAL, pol], pos[R_MINE, pol] = rival_left, own_left
    if m[F_PAX] == 0:
        for x in (pol, guest):
            if x >= 0 and x != absent:
                add_pop(pos, x, m[F_GAIN] + m[F_RECUP])
    if mine > 0:
        pos[R_MINE, pol] -= 0.5 * mine
        pos[R_MINE, fav] += mine
    v_app = value(pos)
    put_back(pos, pol, guest, fav, rival, own, own_fav, pop, pop_guest, dead)
    # boos
    pos[R_RIVAL, pol], pos[R_MINE, pol] = rival_left, own_left
    if m[F_PAX] == 0 and m[F_LYNCH] != 0:
        for x in (pol, guest):
            if x >= 0 and x != absent:
                add_pop(pos, x, -2.0)
    if m[F_TRAMPLE] != 0 and pol != absent:
        pos[R_DEAD, pol] = 1.0
    if m[F_VAE] != 0:
        pos[R_MINE, pol] -= 0.5 * mine
        pos[R_RIVAL, pol] = max(0.0, pos[R_RIVAL, pol] - 0.5 * keep * m[F_RIVAL_GLAD])
    elif mine > 0:
        pos[R_MINE, pol] -= 0.5 * m[F_SMALLEST] * keep
    v_boo = value(pos)
    put_back(pos, pol, guest, fav, rival, own, own_fav, pop, pop_guest, dead)
    return v_app, v_boo


@njit(cache=True, inline="always")
def put_back(pos, pol, guest, fav, rival, own, own_fav, pop, pop_guest, dead):
    """``outcome_values``: the entries of ``pos`` an outcome changes, as they were (all read before any change, so
    the order does not matter when ``fav`` or ``guest`` is ``pol``)."""
    if guest >= 0:
        pos[R_POP, guest] = pop_guest
    pos[R_MINE, fav] = own_fav
    pos[R_RIVAL, pol], pos[R_MINE, pol], pos[R_POP, pol], pos[R_DEAD, pol] = rival, own, pop, dead


@njit(**LEAF)
def match_expectation(pos, m, side):
    """Expected ``V`` of the match with the seat's own supporters on ``side`` (+1 applause, -1 boos)."""
    v_app, v_boo = outcome_values(pos, m)
    q = applause_chance(m[F_MARGIN] + side * m[F_MY_WEIGHT], m[F_BAD] != 0)
    return q * v_app + (1.0 - q) * v_boo


@njit(**LEAF)
def wanted_side(pos, m):
    v_app, v_boo = outcome_values(pos, m)
    return 1 if v_app >= v_boo else -1


@njit(cache=True)
def card_match_gain(view, pos, m, card, stream):
    """The expected gain of the match card ``card`` played now (its cost included): the match's expectation with
    the card against without it, the seat on the side it wants."""
    side = wanted_side(pos, m)
    base = match_expectation(pos, m, side)
    me = view[VIEW_SEAT]
    c = m.copy()
    cost = 0.0
    if BONUS[card] != 0.0:
        c[F_MARGIN] += BONUS[card]
        if card == C_TOURNEE_GENERALE:
            cost = 3.0
    elif VOIDABLE[card] != 0.0:
        if view[EPIQUE_VOID] == 0:
            c[F_MARGIN] -= VOIDABLE[card]
        if card == C_AUGMENTATION_DU_PRIX:
            cost = 3.0
    elif card == C_MATCH_EPIQUE:
        # 1-4: applause + the Arena cards of the turn, this one included; 5-6: the voidable boo bonuses void
        c[F_MARGIN] += (4.0 * (view[ARENA_CARDS_PLAYED] + 1) + 2.0 * view[BOO_VOIDABLE]) / 6.0
    elif card == C_MAUVAISE_SONORISATION:
        c[F_BAD] = 1.0
    elif card == C_INTERVIEW:
        organiser = view[ORGANISER]
        if organiser == me or seat_applauds(view, int(m[F_POL]), organiser, True):
            return -1.0
        vals = np.zeros(MAX_SEATS, np.int64)
        counts = np.zeros(MAX_SEATS, np.int64)
        attendance(view, int(m[F_POL]), vals, counts)
        w = counts[organiser] if view[PANEM] else vals[organiser]
        c[F_MARGIN] += 2.0 * w
    elif card == C_RECUPERATION_POLITIQUE:
        c[F_RECUP] = 1.0
    elif card == C_PAX_DEORUM:
        c[F_PAX] = 1.0
    elif card == C_NE_PAS_DERANGER:
        c[F_ABSENT] = view[LOVER]
    elif card == C_PIETINE:
        c[F_TRAMPLE] = 1.0
    elif card == C_LYNCHAGE_MEDIATIQUE:
        c[F_LYNCH] = 1.0
    elif card == C_VAE_VICTIS_CARD:
        c[F_VAE] = 1.0
    elif card == C_PETAGE_DE_GUEULE:
        c[F_PETAGE] = 1.0
    elif card == C_FRERES_ENNEMIS:
        guest = best_guest(pos, m, stream)
        if guest < 0:
            return -1.0
        c[F_GUEST] = guest
    elif card == C_REMPLACANT:
        dest = best_slot(pos, int(m[F_POL]), stream)
        moved = largest_waiting(view, int(m[F_POL]), me)
        c[F_MINE] -= moved
        if c[F_MINE] <= 0:
            c[F_SMALLEST] = 0.0
        q = pos.copy()
        q[R_MINE, int(m[F_POL])] -= 0.5 * moved
        q[R_MINE, dest] += 0.5 * moved
        return match_expectation(q, c, wanted_side(q, c)) - base
    elif card == C_PANEM_ET_CIRCENSES or card == C_ARENE_GRATUITE:
        c[F_MARGIN], c[F_MY_WEIGHT] = margin_if(view, int(m[F_POL]), card == C_PANEM_ET_CIRCENSES,
                                                card == C_ARENE_GRATUITE, m)
    elif card == C_DEPENSE_INCONSIDEREE:
        organiser = view[ORGANISER]
        if organiser == me or view[MONEY + organiser] < 0:
            return -1.0
        if view[MONEY + organiser] >= 3:
            return 0.0  # he pays 3 more: nothing changes for the seat
        return value(pos) - base  # he cannot pay: the match is cancelled (VOX-A23)
    elif card == C_DREAM_TEAM:
        # dream_team_colour = A (VOX-A29): the organiser's match becomes a star match
        c[F_GAIN] = GAIN[STAR]
        cost = float(PRICE[STAR] - PRICE[view[M_TYPE]])
    else:
        return -1.0
    return match_expectation(pos, c, wanted_side(pos, c)) - base - cost * MONEY_WORTH


@njit(cache=True)
def margin_if(view, pol, panem, free, m):
    """The expected margin and the seat's own weight once PANEM ET CIRCENSES (every supporter worth 1) or ARÈNE
    GRATUITE (every supporter attends) is played."""
    me = view[VIEW_SEAT]
    vals = np.zeros(MAX_SEATS, np.int64)
    counts = np.zeros(MAX_SEATS, np.int64)
    saved = view[FREE_ARENA]
    if free:
        view[FREE_ARENA] = 1
    attendance(view, pol, vals, counts)
    view[FREE_ARENA] = saved
    by_count = panem or view[PANEM] != 0
    margin = m[F_MARGIN]
    # take the others' supporters out at the old reckoning and back in at the new one
    old_vals = np.zeros(MAX_SEATS, np.int64)
    old_counts = np.zeros(MAX_SEATS, np.int64)
    attendance(view, pol, old_vals, old_counts)
    for s in range(view[N_SEATS]):
        if s == me:
            continue
        old = old_counts[s] if view[PANEM] else old_vals[s]
        new = counts[s] if by_count else vals[s]
        sign = 1.0 if seat_applauds(view, pol, s, True) else -1.0
        margin += sign * (new - old)
    return margin, float(counts[me] if by_count else vals[me])


@njit(**LEAF)
def largest_waiting(view, pol, seat):
    for v in range(N_VALUES, 0, -1):
        if view[GLAD + (pol * MAX_SEATS + seat) * N_VALUES + v - 1] > 0:
            return v
    return 0


@njit(cache=True)
def best_guest(pos, m, stream):
    """FRÈRES ENNEMIS: the guest politician (not the arena's) whose attending the match raises the match's
    expectation most; -1 if none does."""
    side = wanted_side(pos, m)
    base = match_expectation(pos, m, side)
    c = m.copy()
    pick, best, ties = -1, TINY, 0
    for k in range(N_POL):
        if k == int(m[F_POL]):
            continue
        c[F_GUEST] = k
        take, best, ties = better(match_expectation(pos, c, wanted_side(pos, c)) - base, best, ties, stream)
        if take:
            pick = k
    return pick


# --------------------------------------------------------------------------- votes (spec 7.4)
@njit(**LEAF)
def harm_value(pos, card, target):
    """``V`` once the harmful proposal of the vote passes: assassination (UN FOU, SCANDALE SEXUEL) or -1
    (C.O.J.C., AFFAIRE DE FAMILLE)."""
    if target < 0:
        return value(pos)
    # one entry changed in place and put back (no copy of the position)
    row = R_DEAD if card == C_UN_FOU_DANS_LA_VILLE or card == C_SCANDALE_SEXUEL else R_POP
    kept = pos[row, target]
    if row == R_DEAD:
        pos[R_DEAD, target] = 1.0
    else:
        add_pop(pos, target, -1)
    v = value(pos)
    pos[row, target] = kept
    return v


@njit(**LEAF)
def expected_no(view, seat, target, infer):
    """Whether another seat is expected to vote NO on harming ``target``: its public ballot when cast, else
    whether it is believed to have a stake in him."""
    if view[BALLOT + seat] >= 0:
        return view[BALLOT + seat] == 0
    return stake(view, seat, target, infer) > 0


@njit(**LEAF)
def pass_chance(view, card, target, infer, my_yes):
    """The chance the harmful proposal on ``target`` passes (spec 7.4 table) from the ballots expected."""
    me = view[VIEW_SEAT]
    no, yes = 0, 0
    for s in range(view[N_SEATS]):
        if s == me:
            continue
        if expected_no(view, s, target, infer):
            no += 1
        else:
            yes += 1
    if my_yes:
        yes += 1
    else:
        no += 1
    if card == C_UN_FOU_DANS_LA_VILLE:
        return 0.9 if no == 0 else 0.05
    if card == C_SCANDALE_SEXUEL:
        return 0.9 if no < 2 else 0.1
    return 0.85 if yes > no else 0.15


@njit(cache=True)
def plurality_winner(view, pos, infer, my_vote):
    """PRÉSIDENT D'HONNEUR: the politician expected to win the plurality (ties to the higher rank): the seat's own
    ballot, and each other seat's on the slot where it has the most pieces (if any)."""
    me = view[VIEW_SEAT]
    tally = np.zeros(N_POL)
    tally[my_vote] += 1.0
    for s in range(view[N_SEATS]):
        if s == me:
            continue
        pick, most = -1, 0.0
        for k in range(N_POL):
            pieces = waiting(view, k, s) + (2.6 * view[SLIPPED + k * MAX_SEATS + s] if infer else 0.0)
            if pieces > most:
                pick, most = k, pieces
        if pick >= 0:
            tally[pick] += 1.0
    best = 0
    for k in range(1, N_POL):
        if tally[k] > tally[best]:
            best = k
    return best


@njit(**LEAF)
def best_president_vote(pos, stream):
    """PRÉSIDENT D'HONNEUR: the politician whose +1 raises the seat's ``V`` most (a tie drawn); each +1 made in
    ``pos`` and put back."""
    pick, best, ties = 0, -1.0, 0
    for k in range(N_POL):
        kept = pos[R_POP, k]
        add_pop(pos, k, 1)
        v = value(pos)
        pos[R_POP, k] = kept
        take, best, ties = better(v, best, ties, stream)
        if take:
            pick = k
    return pick


@njit(cache=True)
def vote_stake(view, pos, infer, stream):
    """How much the vote in progress matters to the seat (``V`` if it goes its way minus ``V`` if not), and
    whether the seat wants the proposal to pass (yes/no votes) or its own ballot's politician (plurality)."""
    card, target = view[VOTE_CARD], view[VOTE_TARGET]
    v0 = value(pos)
    if card == C_PRESIDENT_D_HONNEUR:
        mine = best_president_vote(pos, stream)
        q = pos.copy()
        add_pop(q, mine, 1)
        other = plurality_winner(view, pos, infer, mine)
        r = pos.copy()
        add_pop(r, other, 1)
        return value(q) - value(r), mine
    gain = harm_value(pos, card, target) - v0
    return abs(gain), (1 if gain > TINY else 0)


@njit(cache=True)
def censure_victim(view, pos, infer, stream):
    """CENSURE: the other seat expected to vote against the seat, the one with the most at stake in the target
    (a tie drawn); -1 if none is."""
    me = view[VIEW_SEAT]
    card, target = view[VOTE_CARD], view[VOTE_TARGET]
    _, want = vote_stake(view, pos, infer, stream)
    pick, best, ties = -1, -1.0, 0
    for s in range(view[N_SEATS]):
        if s == me:
            continue
        if card == C_PRESIDENT_D_HONNEUR:
            if view[BALLOT + s] >= 0:
                against = view[BALLOT + s] != want
            else:
                against = stake(view, s, want, infer) <= 0
            weight = 0.0
        else:
            against = expected_no(view, s, target, infer) == (want == 1)
            weight = stake(view, s, target, infer) if target >= 0 else 0.0
        if not against:
            continue
        take, best, ties = better(weight, best, ties, stream)
        if take:
            pick = s
    return pick


# --------------------------------------------------------------------------- placement cards
@njit(cache=True)
def quarter_scores(view, infer, out):
    """For each quarter, how much the active player cares for its arena less how much the seat does."""
    me, active = view[VIEW_SEAT], view[ACTIVE]
    for q in range(N_QUARTERS):
        out[q] = 0.0
    for k in range(N_POL):
        q = view[VIEW_QUARTER + view[ARENA_CELL + k]]
        out[q] = stake(view, active, k, infer) - stake(view, me, k, True)


@njit(cache=True)
def worst_quarter_for_active(view, infer, stream):
    """The legal quarter (actions 0..5) whose arena matters least to the active player and most to the seat."""
    scores = np.zeros(N_QUARTERS)
    quarter_scores(view, infer, scores)
    pick, best, ties = -1, -1e18, 0
    for q in range(min(view[VIEW_N_ACTIONS], N_QUARTERS)):
        if view[VIEW_LEGAL + q]:
            take, best, ties = better(-scores[q], best, ties, stream)
            if take:
                pick = q
    return pick


@njit(cache=True)
def hooligans_target(view, pos, stream):
    """HOOLIGANS: the arena where the active player has the most gladiators waiting, if the seat has none there
    and does not back that politician: the quarter to cut off (-1: none)."""
    me, active = view[VIEW_SEAT], view[ACTIVE]
    if active == me:
        return -1
    fav = best_slot(pos, -1, stream)
    pick, most = -1, 0
    for k in range(N_POL):
        w = waiting(view, k, active)
        if w > most and waiting(view, k, me) == 0 and k != fav and pos[R_MINE, k] <= 0:
            pick, most = k, w
    return view[VIEW_QUARTER + view[ARENA_CELL + pick]] if pick >= 0 else -1


@njit(cache=True)
def expulsion_source(view, stream, check_legal):
    """EXPULSION: another seat's supporter that reaches an arena where its owner has gladiators waiting and the
    seat has none, the largest (a tie drawn); -1 if none. ``check_legal``: only among the cells the view marks
    legal (the source choice itself, DP06)."""
    me = view[VIEW_SEAT]
    helps = np.zeros(N_CELLS, np.int64)
    vals = np.zeros(MAX_SEATS, np.int64)
    counts = np.zeros(MAX_SEATS, np.int64)
    for k in range(N_POL):
        if waiting(view, k, me) > 0:
            continue
        attendance(view, k, vals, counts)
        for c in range(N_CELLS):
            if view[VIEW_SCRATCH + c] and view[CELL_OWNER + c] >= 0 and view[CELL_OWNER + c] != me:
                if waiting(view, k, view[CELL_OWNER + c]) > 0:
                    helps[c] = 1
    pick, best, ties = -1, 0.0, 0
    for c in range(N_CELLS):
        if helps[c] and (not check_legal or view[VIEW_LEGAL + c]):
            take, best, ties = better(float(view[CELL_VALUE + c]), best, ties, stream)
            if take:
                pick = c
    return pick


@njit(cache=True)
def far_cell(view, origin, stream):
    """EXPULSION's destination: the legal cell farthest from every arena the expelled supporter's owner has
    gladiators under (a tie drawn)."""
    owner = view[CELL_OWNER + origin]
    pick, best, ties = -1, -1.0, 0
    for c in range(min(view[VIEW_N_ACTIONS], N_CELLS)):
        if not view[VIEW_LEGAL + c]:
            continue
        near = 99
        for k in range(N_POL):
            if owner >= 0 and waiting(view, k, owner) > 0:
                near = min(near, cell_distance(view, c, view[ARENA_CELL + k]))
        take, best, ties = better(float(near), best, ties, stream)
        if take:
            pick = c
    return pick


# --------------------------------------------------------------------------- the gain of a card
@njit(cache=True)
def arena_cards_this_turn(view, seat):
    total = 0
    for c in range(FIRST_ARENA_CARD, N_CARDS):
        if view[CARD_PLAYER + c] == seat + 1:
            total += 1
    return total


@njit(cache=True)
def forum_gain(view, pos, card, infer, stream):
    """The expected gain in ``V`` of playing the Forum card ``card`` now (module docstring), its cost included;
    -1 for a card the seat keeps."""
    me = view[VIEW_SEAT]
    v0 = value(pos)
    window = view[VIEW_ARGS]
    if card == C_PRESSE_A_SCANDALES:
        return (4.0 * pop_effect_value(pos, card, 1) + 2.0 * pop_effect_value(pos, card, 5)) / 6.0 - v0
    if card == C_REGLEMENTS_DE_COMPTES or card == C_BASTONS or card == C_ECHAUFFOUREE:
        return 0.5 * (pop_effect_value(pos, card, 1) + pop_effect_value(pos, card, 6)) - v0
    if card == C_REPRESSION or card == C_EMEUTE:
        return pop_effect_value(pos, card, 0) - v0
    if card == C_MON_HEROS:
        q = pos.copy()
        set_lover(q, most_popular(pos))
        return value(q) - v0
    if card == C_COUP_DE_FOUDRE:
        return lover_gain(pos, stream)[1]
    if card == C_UN_FOU_DANS_LA_VILLE:
        return madman_target(view, pos, infer, stream)[1]
    if card == C_SCANDALE_SEXUEL:
        lover = view[LOVER]
        gain = harm_value(pos, card, lover) - v0
        return pass_chance(view, card, lover, infer, gain > 0) * gain
    if card == C_COJC or card == C_AFFAIRE_DE_FAMILLE:
        target = ANTOINE if card == C_COJC else OCTAVE
        q = pos.copy()
        if card == C_AFFAIRE_DE_FAMILLE:
            set_lover(q, ANTOINE)  # VOX-A28: the lover marker moves to Antoine before the vote
        before = value(q)
        gain = harm_value(q, card, target) - before
        return before - v0 + pass_chance(view, card, target, infer, gain > 0) * max(gain, 0.0)
    if card == C_POULE_DE_LUXE:
        lover = view[LOVER]
        q = pos.copy()
        add_pop(q, lover, -2)
        gain = value(q) - v0
        others_care = False
        for s in range(view[N_SEATS]):
            if s != me and lover >= 0 and stake(view, s, lover, infer) > 0:
                others_care = True
        return (0.5 if others_care else 0.9) * gain
    if card == C_PRESIDENT_D_HONNEUR:
        mine = best_president_vote(pos, stream)
        q = pos.copy()
        add_pop(q, plurality_winner(view, pos, infer, mine), 1)
        return value(q) - v0
    if card == C_DROITS_TELES:
        return MONEY_WORTH * (2.0 * -2.0 + 4.0 * 6.0) / 6.0
    if card == C_MERCHANDISING:
        return MONEY_WORTH * (2.0 * 1 + 2.0 * 2 + 2.0 * 4) / 6.0
    if card == C_SPONSORS:
        return MONEY_WORTH * (2.0 * -1.0 + 4.0 * 3.0) / 6.0
    if card == C_CLEOPATRE:
        return 5.0 * MONEY_WORTH
    if card == C_TRANSFERT_TARDIF:
        v = 0
        for value_ in range(N_VALUES, 0, -1):
            if view[ELIM + me * N_VALUES + value_ - 1] > 0:
                v = value_
                break
        q = pos.copy()
        q[R_MINE, best_slot(pos, -1, stream)] += 0.5 * v
        return value(q) - v0 - 2.0 * MONEY_WORTH
    if card == C_AMICALES_DES_SUPPORTERS:
        return CARD_WORTH + TINY  # a card drawn, and the quarter worst for the active player
    if card == C_QUARTIER_LIBRE:
        return CARD_WORTH + TINY  # its supporter where it helps it most
    if card == C_EXPULSION:
        return 2.0 * CARD_WORTH if expulsion_source(view, stream, False) >= 0 else -1.0
    if card == C_HOOLIGANS:
        return 2.0 * CARD_WORTH if window != W3 and hooligans_target(view, pos, stream) >= 0 else -1.0
    if card == C_DREAM_TEAM:
        # a star match for its own turn: price 8, +4 popularity (VOX-A29)
        if view[ACTIVE] != me or view[MONEY + me] < PRICE[STAR]:
            return -1.0
        return CARD_WORTH + TINY if waiting(view, best_slot(pos, -1, stream), me) > 0 else -1.0
    if card == C_PLACE_AU_SPORT:
        # no cards against its own match: only on its turn, once its gladiator waits under its favourite
        if view[ACTIVE] != me or window != W1B:
            return -1.0
        return CARD_WORTH + TINY if waiting(view, best_slot(pos, -1, stream), me) > 0 else -1.0
    if card == C_ARENE_POURRIE:
        if view[ACTIVE] == me:
            return -1.0
        mine, most = 0, 0
        for k in range(N_POL):
            mine += waiting(view, k, me)
        for s in range(view[N_SEATS]):
            if s != me:
                total = 0
                for k in range(N_POL):
                    total += waiting(view, k, s)
                most = max(most, total)
        return CARD_WORTH + TINY if most > mine else -1.0
    return -1.0  # MAUVAIS ORGANISATEUR, BOOKMAKER and the reactions outside their windows: kept


@njit(cache=True)
def lover_gain(pos, stream):
    """COUP DE FOUDRE: the politician to put the lover marker on (never its favourite), and the gain."""
    v0 = value(pos)
    fav = best_slot(pos, -1, stream)
    pick, best, ties = -1, -1e18, 0
    for k in range(N_POL):
        if pos[R_DEAD, k] != 0 or k == fav:
            continue
        q = pos.copy()
        set_lover(q, k)
        take, best, ties = better(value(q) - v0, best, ties, stream)
        if take:
            pick = k
    return pick, best


@njit(cache=True)
def madman_target(view, pos, infer, stream):
    """UN FOU DANS LA VILLE: the living politician (never its favourite) whose assassination gains the seat
    most, times the chance it passes (one NO blocks), and that gain."""
    v0 = value(pos)
    fav = best_slot(pos, -1, stream)
    pick, best, ties = -1, -1e18, 0
    for k in range(N_POL):
        if pos[R_DEAD, k] != 0 or k == fav:
            continue
        gain = harm_value(pos, C_UN_FOU_DANS_LA_VILLE, k) - v0
        take, best, ties = better(pass_chance(view, C_UN_FOU_DANS_LA_VILLE, k, infer, gain > 0) * gain, best,
                                  ties, stream)
        if take:
            pick = k
    return pick, best


@njit(cache=True)
def money_by_face(card, die, mine_roll):
    """Sesterces the seat gains with face ``die`` of a money card (``mine_roll``: the seat rolled it)."""
    if card == C_DROITS_TELES:
        return -2.0 if die <= 2 else (6.0 if mine_roll else 0.0)
    if card == C_SPONSORS:
        return -1.0 if die <= 2 else (3.0 if mine_roll else 0.0)
    if card == C_MERCHANDISING:
        if not mine_roll:
            return 0.0
        return 1.0 if die <= 2 else (2.0 if die <= 4 else 4.0)
    return 0.0


@njit(cache=True)
def face_gain(view, pos, card, die, roller, infer, stream):
    """The seat's gain (in ``V``) from face ``die`` of ``card``'s die, up to a constant common to all faces."""
    me = view[VIEW_SEAT]
    if card == C_PRESSE_A_SCANDALES or card == C_REGLEMENTS_DE_COMPTES or card == C_BASTONS or (
            card == C_ECHAUFFOUREE):
        return pop_effect_value(pos, card, die)
    if card == C_DROITS_TELES or card == C_SPONSORS or card == C_MERCHANDISING:
        gain = money_by_face(card, die, roller == me)
        if roller != me:
            gain -= 0.3 * money_by_face(card, die, True)  # a rival's sesterces count a little against it
        return MONEY_WORTH * gain
    if view[MATCH_ON] == 0:
        return 0.0
    bonus = 0.0
    if card == C_SUSPENSE_INSOUTENABLE:
        bonus = 1.0 if die <= 2 else (3.0 if die <= 4 else 5.0)
    elif card == C_PUBLIC_ENTHOUSIASTE:
        bonus = 1.0 if die <= 2 else (2.0 if die <= 4 else 4.0)
    elif card == C_EQUIPE_RESERVE:
        bonus = -(1.0 if die <= 2 else (3.0 if die <= 4 else 5.0))
    elif card == C_MATCH_AMICAL:
        bonus = -(1.0 if die <= 4 else 3.0)
    elif card == C_MATCH_EPIQUE:
        bonus = view[ARENA_CARDS_PLAYED] if die <= 4 else view[BOO_VOIDABLE]
    else:
        return 0.0
    m = match_record(view, pos, view[M_POL], view[M_TYPE], infer, best_slot(pos, -1, stream), True)
    m[F_MARGIN] += bonus
    return match_expectation(pos, m, wanted_side(pos, m))


# --------------------------------------------------------------------------- the heuristic bot
@njit(cache=True)
def heuristic(view, prm, stream, infer):
    kind = view[VIEW_KIND]
    me = view[VIEW_SEAT]
    n_actions = view[VIEW_N_ACTIONS]
    if kind == K_NAME_QUARTER:
        if not chance(stream, prm[1]):
            return random_legal(view, stream)
        q = worst_quarter_for_active(view, infer, stream)
        return q if q >= 0 else random_legal(view, stream)
    if kind == K_PLACE_SUPPORTER:
        # a little jitter keeps equal bots from laying out identical clubs
        share_ = min(1.0, max(0.0, prm[0] + (rng.dn(stream, 5) - 3) * 0.1))
        v = club_quantile(view, me, share_, 0)
        if v == 0 or not chance(stream, prm[2]):
            return random_legal(view, stream)
        target = view[ARENA_CELL + favourite(view, -1, infer, stream)]
        best, best_d = -1, 1 << 30
        for cell in range(N_CELLS):
            a = (v - 1) * N_CELLS + cell
            if a < n_actions and view[VIEW_LEGAL + a]:
                d = cell_distance(view, cell, target) * 64 + rng.dn(stream, 63)
                if d < best_d:
                    best, best_d = a, d
        return best if best >= 0 else random_legal(view, stream)
    if kind == K_PLACE_GLADIATOR:
        v = club_quantile(view, me, 1.0 - prm[0], 0)
        # the politician with the best crown weight x share, raised where the seat's supporters already reach
        # the arena (a match it could win soon)
        pos = position(view, infer)
        w = np.empty(N_POL)
        crown_weights(pos, w)
        pol, best, ties = -1, -1.0, 0
        for k in range(N_POL):
            a = (v - 1) * N_POL + k
            if v <= 0 or a >= n_actions or not view[VIEW_LEGAL + a]:
                continue
            score = w[k] * share(pos, k) * (1.0 + 0.15 * attending_value(view, k, me))
            take, best, ties = better(score, best, ties, stream)
            if take:
                pol = k
        if pol >= 0:
            return (v - 1) * N_POL + pol
        return random_legal(view, stream)
    if kind == K_ORGANISE_MATCH:
        pos = position(view, infer)
        fav = best_slot(pos, -1, stream)
        # no match: the turn bonus (a sesterce or a card, spec 6.4)
        none = value(pos) + max(MONEY_WORTH, CARD_WORTH if view[DECK_LEFT] > 0 else 0.0)
        best_a, best, ties = 0, -1e18, 0
        if view[VIEW_LEGAL]:
            best, ties = none, 1
        for pol in range(N_POL):
            legal_types = 0
            for mtype in range(4):
                legal_types += view[VIEW_LEGAL + 1 + pol * 4 + mtype]
            if legal_types == 0:
                continue
            m = match_record(view, pos, pol, 0, infer, fav, False)
            for mtype in range(4):
                a = 1 + pol * 4 + mtype
                if not view[VIEW_LEGAL + a]:
                    continue
                m[F_GAIN] = GAIN[mtype]
                v_app, v_boo = outcome_values(pos, m)
                q = applause_chance(m[F_MARGIN] + m[F_MY_WEIGHT], False)
                score = q * v_app + (1.0 - q) * v_boo + MONEY_WORTH * (4.0 * q - PRICE[mtype])
                take, best, ties = better(score, best, ties, stream)
                if take:
                    best_a = a
        if best_a > 0 and (not view[VIEW_LEGAL] or chance(stream, prm[3])):
            return best_a
        return 0 if view[VIEW_LEGAL] else random_legal(view, stream)
    if kind == K_CHEER_OR_BOO:
        pol = view[M_POL]
        pos = position(view, infer)
        fav = best_slot(pos, -1, stream)
        m = match_record(view, pos, pol, view[M_TYPE], infer, fav, True)
        weight = m[F_MY_WEIGHT]
        # applause: its gladiators there become stars (or one is lost)
        v_app, v_boo = outcome_values(pos, m)
        q_app = applause_chance(m[F_MARGIN] + weight, m[F_BAD] != 0)
        applaud = q_app * v_app + (1.0 - q_app) * v_boo
        # boos: its gladiators stay where they are; an attending supporter is lost if applause wins, a card is
        # drawn if boos win
        c = m.copy()
        c[F_MINE] = 0.0
        c[F_SMALLEST] = 0.0
        b_app, b_boo = outcome_values(pos, c)
        if c[F_VAE] != 0:
            b_boo = outcome_values(pos, m)[1]
        q_boo = applause_chance(m[F_MARGIN] - weight, m[F_BAD] != 0)
        lose = SUPPORTER_WORTH if weight > 0 else 0.0
        card = CARD_WORTH if view[DECK_LEFT] > 0 else 0.0
        boo = q_boo * (b_app - lose) + (1.0 - q_boo) * (b_boo + card)
        if m[F_MINE] == 0 and weight == 0 and abs(v_app - v_boo) <= TINY and chance(stream, prm[4]):
            return 1  # nothing at stake either way: a courtesy applause
        if abs(applaud - boo) <= TINY:
            return 1 if chance(stream, 0.5) else 0
        return 1 if applaud > boo else 0
    if kind == K_SLIP_STARS:
        if view[VIEW_ARGS + 1] == SLIP_STAR:
            fav = favourite(view, -1, infer, stream)
            if chance(stream, prm[5]):
                return fav
            return favourite(view, fav, infer, stream)
        # a decoy: 0 none, 1 + slot
        if view[MONEY + me] >= 3 and not chance(stream, prm[5]):
            runner = favourite(view, view[VIEW_ARGS + 2], infer, stream)
            if view[VIEW_LEGAL + 1 + runner]:
                return 1 + runner
        return 0
    if kind == K_ELIMINATE_SUPPORTER:
        pick, best, ties = -1, -1e18, 0
        for cell in range(min(n_actions, N_CELLS)):
            if view[VIEW_LEGAL + cell]:
                take, best, ties = better(-float(view[CELL_VALUE + cell]), best, ties, stream)
                if take:
                    pick = cell
        return pick
    if kind == K_ELIMINATE_GLADIATOR:
        for a in range(n_actions):
            if view[VIEW_LEGAL + a]:
                return a
        return 0
    if kind == K_TURN_BONUS:
        if view[VIEW_LEGAL + 1] and view[DECK_LEFT] > 0 and chance(stream, prm[6]):
            return 1
        return 0
    if kind == K_VOTE_YES_NO:
        pos = position(view, infer)
        gain = harm_value(pos, view[VIEW_ARGS], view[VIEW_ARGS + 1]) - value(pos)
        return 1 if gain > TINY else 0
    if kind == K_VOTE_POLITICIAN:
        return best_president_vote(position(view, infer), stream)
    if kind == K_CONTRIBUTE:
        return contribution(view, prm, stream, infer)
    if kind == K_CARD_WINDOW:
        return card_choice(view, prm, stream, infer)
    if kind == K_CARD_PARAMS:
        return card_parameter(view, stream, infer)
    if kind == K_DIE_OVERRIDE:
        card, die, roller = view[VIEW_ARGS], view[VIEW_ARGS + 1], view[VIEW_ARGS + 3]
        if card < 0:
            return 0
        pos = position(view, infer)
        now = face_gain(view, pos, card, die, roller, infer, stream)
        pick, best, ties = 0, now + CARD_WORTH, 0
        for face in range(1, 7):
            take, best, ties = better(face_gain(view, pos, card, face, roller, infer, stream), best, ties, stream)
            if take:
                pick = face
        return pick
    return random_legal(view, stream)


@njit(cache=True)
def contribution(view, prm, stream, infer):
    """DP08 (spec 7.6): POULE DE LUXE when the lover's -2 would hurt; ARÈNE POURRIE at a match announcement when
    its +3 boos hurt that match for the seat by more than the money; a share ``generosity`` of its money."""
    me = view[VIEW_SEAT]
    n_actions = view[VIEW_N_ACTIONS]
    pos = position(view, infer)
    amount = int(prm[7] * view[MONEY + me] + 0.5)
    helps = False
    if view[VIEW_ARGS] == C_POULE_DE_LUXE:
        q = pos.copy()
        add_pop(q, view[LOVER], -2)
        helps = value(q) < value(pos) - TINY
    elif view[VIEW_ARGS] == C_ARENE_POURRIE and view[MATCH_ON] == 1 and view[PHASE] == 2:
        fav = best_slot(pos, -1, stream)
        m = match_record(view, pos, view[M_POL], view[M_TYPE], infer, fav, True)
        side = wanted_side(pos, m)
        with_rot = match_expectation(pos, m, side)
        m[F_MARGIN] += 3.0
        helps = match_expectation(pos, m, side) - with_rot > amount * MONEY_WORTH
    if not helps:
        return 0
    while amount > 0 and (amount >= n_actions or not view[VIEW_LEGAL + amount]):
        amount -= 1
    return amount


@njit(**LEAF)
def against_favourite(view, card, fav, m, live):
    """Whether ``card`` works against the seat's favourite ``fav`` or its own gladiators (spec 9): such a card is
    never played, whatever else it would bring."""
    me = view[VIEW_SEAT]
    lover = view[LOVER]
    if card == C_REPRESSION:
        return fav != CESAR
    if card == C_EMEUTE:
        return fav != POMPEE
    if card == C_REGLEMENTS_DE_COMPTES:
        return fav == CESAR or fav == POMPEE
    if card == C_BASTONS:
        return fav == CRASSUS or fav == BRUTUS
    if card == C_ECHAUFFOUREE:
        return fav == OCTAVE or fav == ANTOINE
    if card == C_COJC:
        return fav == ANTOINE
    if card == C_AFFAIRE_DE_FAMILLE:
        return fav == OCTAVE or fav == ANTOINE
    if card == C_SCANDALE_SEXUEL or card == C_POULE_DE_LUXE:
        return lover == fav
    if card == C_MON_HEROS:
        best = -1
        for k in range(N_POL):
            if view[DEAD + k] == 0 and (best < 0 or view[POP + k] > view[POP + best]):
                best = k
        return best == fav
    if not live or card < FIRST_ARENA_CARD:
        return False
    pol = view[M_POL]
    attends = (pol == fav or view[GUEST] == fav) and view[ABSENT] != fav
    mine = waiting(view, pol, me) > 0
    if card == C_PIETINE:
        return pol == fav or mine
    if card == C_LYNCHAGE_MEDIATIQUE:
        return attends
    if card == C_RECUPERATION_POLITIQUE:
        return not attends
    if card == C_PAX_DEORUM:
        return attends and view[LYNCH] == 0
    if card == C_NE_PAS_DERANGER:
        return lover == fav and view[LYNCH] == 0
    if card == C_PETAGE_DE_GUEULE or card == C_VAE_VICTIS_CARD:
        return mine
    if card == C_DEPENSE_INCONSIDEREE:
        return view[ORGANISER] == me or mine
    if BONUS[card] < 0 or VOIDABLE[card] != 0 or card == C_MAUVAISE_SONORISATION:
        return pol == fav or mine
    return False


@njit(cache=True)
def card_choice(view, prm, stream, infer):
    """DP05: the legal card with the largest expected gain, played when that gain beats keeping it."""
    n_actions = view[VIEW_N_ACTIONS]
    pos = position(view, infer)
    if view[VIEW_ARGS] == -1:
        # R_vote: CENSURE or TRICHERIE, only in a vote whose outcome matters to the seat
        at_stake, _ = vote_stake(view, pos, infer, stream)
        if at_stake <= CARD_WORTH:
            return 0
        if view[VIEW_LEGAL + 1 + C_TRICHERIE] and chance(stream, prm[6]):
            return 1 + C_TRICHERIE
        if view[VIEW_LEGAL + 1 + C_CENSURE] and censure_victim(view, pos, infer, stream) >= 0 and chance(
                stream, prm[6]):
            return 1 + C_CENSURE
        return 0
    live = view[MATCH_ON] != 0 and view[PHASE] == 2
    fav = best_slot(pos, -1, stream)
    if live:
        m = match_record(view, pos, view[M_POL], view[M_TYPE], infer, fav, True)
    else:
        m = np.zeros(F_SIZE)
    pick, best, ties = 0, CARD_WORTH, 0
    for a in range(1, n_actions):
        if not view[VIEW_LEGAL + a]:
            continue
        card = a - 1
        if against_favourite(view, card, fav, m, live):
            continue
        if card >= FIRST_ARENA_CARD or (card == C_DREAM_TEAM and view[VIEW_ARGS] == W2):
            if not live:
                continue
            if card == C_VOX_POPULI_VOX_DEI:
                mine = arena_cards_this_turn(view, view[VIEW_SEAT])
                gain = CARD_WORTH * (mine - 0.5 * (view[ARENA_CARDS_PLAYED] - mine))
            elif card == C_BOOKMAKER:
                gain = -1.0
            else:
                gain = card_match_gain(view, pos, m, card, stream)
        else:
            gain = forum_gain(view, pos, card, infer, stream)
        take, best, ties = better(gain, best, ties, stream)
        if take:
            pick = a
    if pick > 0 and chance(stream, prm[6]):
        return pick
    return 0


@njit(cache=True)
def card_parameter(view, stream, infer):
    """DP06: the parameter the card's gain was reckoned with."""
    me = view[VIEW_SEAT]
    n_actions = view[VIEW_N_ACTIONS]
    card, ptype = view[VIEW_ARGS], view[VIEW_ARGS + 1]
    pos = position(view, infer)
    pick = -1
    if card == C_UN_FOU_DANS_LA_VILLE:
        pick = madman_target(view, pos, infer, stream)[0]
    elif card == C_COUP_DE_FOUDRE:
        pick = lover_gain(pos, stream)[0]
    elif card == C_FRERES_ENNEMIS:
        m = match_record(view, pos, view[M_POL], view[M_TYPE], infer, best_slot(pos, -1, stream), True)
        pick = best_guest(pos, m, stream)
    elif card == C_CENSURE:
        pick = censure_victim(view, pos, infer, stream)
    elif card == C_AMICALES_DES_SUPPORTERS:
        pick = worst_quarter_for_active(view, infer, stream)
    elif card == C_HOOLIGANS:
        pick = hooligans_target(view, pos, stream)
    elif card == C_EXPULSION and ptype == PT_SUPPORTER_CELL:
        pick = expulsion_source(view, stream, True)
    elif card == C_EXPULSION and ptype == PT_CELL:
        pick = far_cell(view, view[VIEW_ARGS + 3], stream)
    elif ptype == PT_VALUE:
        for a in range(n_actions - 1, -1, -1):  # the largest piece (TRANSFERT TARDIF, REMPLAÇANT)
            if view[VIEW_LEGAL + a]:
                return a
    elif ptype == PT_ARENA:
        exclude = view[M_POL] if card == C_REMPLACANT else -1
        pick = best_slot(pos, exclude, stream)
    elif ptype == PT_AMOUNT:
        for a in range(n_actions):
            if view[VIEW_LEGAL + a]:
                return a
    elif ptype == PT_POLITICIAN_HARM or ptype == PT_POLITICIAN_HELP:
        pick = best_slot(pos, -1, stream) if ptype == PT_POLITICIAN_HELP else madman_target(view, pos, infer,
                                                                                              stream)[0]
    elif ptype == PT_SEAT_HARM:
        pick = censure_victim(view, pos, infer, stream)
    elif ptype == PT_QUARTER:
        pick = worst_quarter_for_active(view, infer, stream)
    if 0 <= pick < n_actions and view[VIEW_LEGAL + pick]:
        return pick
    if ptype == PT_SEAT_HARM:
        # CENSURE with nobody against it: any other seat, drawn
        count = 0
        for s in range(n_actions):
            count += 1 if s != me and view[VIEW_LEGAL + s] else 0
        k = rng.dn(stream, count) if count > 0 else 1
        for s in range(n_actions):
            if s != me and view[VIEW_LEGAL + s]:
                k -= 1
                if k == 0:
                    return s
    return random_legal(view, stream)


@njit(cache=True, apart=True)
def builtin_policy(code, prm, view, stream):
    """The built-in selected by ``code`` (``CODE_*``), for the seat whose view this is."""
    if code == CODE_RANDOM:
        return random_legal(view, stream)
    # one call for both vectors: numba types the parameter row and the (read-only) global apart, and a call with
    # each compiled the heuristic twice
    parametric = code == CODE_PARAMETRIC
    weights = prm if parametric else DEFAULT_VECTOR
    return heuristic(view, weights, stream, not parametric)


@njit(cache=True, inline="always")
def call_policy(seat, codes, params, view, stream, slots):
    """Ask ``seat``'s policy: its user function (its slot, ``core.policy.call``) when
    ``codes[seat]`` is ``USER``, else its built-in."""
    code = codes[seat]
    if code == USER:
        return call(slots, seat, view, params[seat], stream)
    return builtin_policy(code, params[seat], view, stream)
