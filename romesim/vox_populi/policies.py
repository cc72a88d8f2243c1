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
  for the politician that maximises its expected share of the Emperor's box.
* ``random`` (1): uniform over the legal actions.
* ``parametric`` (2) and its presets: the same heuristic driven by a float vector (see ``PARAMS``); it reads
  only its own interest (no inference about the others).
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.policy import USER, Builtin, DecisionPoint, call
from .state import (
    ACTIVE,
    ARENA_CELL,
    C_AUGMENTATION_DU_PRIX,
    C_AUX_CHIOTTES_L_ARBITRE,
    C_DROITS_TELES,
    C_EQUIPE_RESERVE,
    C_INTERVIEW,
    C_LYNCHAGE_MEDIATIQUE,
    C_MATCH_AMICAL,
    C_MATCH_EPIQUE,
    C_MAUVAISE_SONORISATION,
    C_MERCHANDISING,
    C_PIETINE,
    C_POULE_DE_LUXE,
    C_PUBLIC_ENTHOUSIASTE,
    C_RECUPERATION_POLITIQUE,
    C_SPONSORS,
    C_SUSPENSE_INSOUTENABLE,
    C_TOURNEE_GENERALE,
    C_VAE_VICTIS_CARD,
    CELL_OWNER,
    CELL_VALUE,
    CLUB,
    DEAD,
    DECISION_NAMES,
    DECK_LEFT,
    GLAD,
    K_ARENA_SETUP,
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
    M_POL,
    MATCH_ON,
    MAX_DEGREE,
    MAX_SEATS,
    MONEY,
    N_CELLS,
    N_POL,
    N_SEATS,
    N_VALUES,
    POP,
    PT_AMOUNT,
    PT_ARENA,
    PT_POLITICIAN_HARM,
    PT_POLITICIAN_HELP,
    PT_SEAT_HARM,
    PT_VALUE,
    SLIP_STAR,
    SLIPPED,
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
)

CODE_DEFAULT, CODE_RANDOM, CODE_PARAMETRIC = range(3)

PARAMS = ("supporter_share", "spite", "focus", "match_appetite", "applause_bias", "concentration", "card_use",
          "generosity")
PARAM_DOCS = {
    "supporter_share": "0..1: which of its pieces goes to Rome as the supporter (0 = its smallest, 1 = its largest); "
                       "the gladiator takes the mirror quantile",
    "spite": "0..1: probability that the namer names the quarter worst for the active player (else uniform)",
    "focus": "0..1: probability of placing the supporter where it reaches its favourite's arena (else uniform)",
    "match_appetite": "0..1: probability of organising a match it expects to win: in an arena where it has "
                      "gladiators (the dearest affordable type for its favourite, else a cup), or a cup anywhere "
                      "(4 sesterces back for 1)",
    "applause_bias": "0..1: probability of applauding a match where it has nothing at stake",
    "concentration": "0..1: probability of slipping a star into its favourite's slot (else the runner-up's); "
                     "1 - concentration is also the probability of buying a decoy when it can afford 3",
    "card_use": "0..1: probability of playing a legal card at its priority when the card does not work against "
                "it; also of taking a card rather than a sesterce as the turn bonus",
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

# which side a card helps when played at a match (spec 9 families): +1 applause, -1 boos, 0 neither
_APPLAUSE_CARDS = (C_SUSPENSE_INSOUTENABLE, C_TOURNEE_GENERALE, C_PUBLIC_ENTHOUSIASTE, C_MATCH_EPIQUE, C_INTERVIEW,
                   C_RECUPERATION_POLITIQUE)
_BOO_CARDS = (C_EQUIPE_RESERVE, C_MATCH_AMICAL, C_AUX_CHIOTTES_L_ARBITRE, C_AUGMENTATION_DU_PRIX,
              C_MAUVAISE_SONORISATION, C_PIETINE, C_LYNCHAGE_MEDIATIQUE, C_VAE_VICTIS_CARD)
CARD_SIDE = np.zeros(55, np.int64)
for _c in _APPLAUSE_CARDS:
    CARD_SIDE[_c] = 1
for _c in _BOO_CARDS:
    CARD_SIDE[_c] = -1
# cards whose die is better high for their player: money cards and the bonus dice
_HIGH_IS_GOOD = (C_MERCHANDISING, C_DROITS_TELES, C_SPONSORS, C_SUSPENSE_INSOUTENABLE, C_PUBLIC_ENTHOUSIASTE,
                 C_EQUIPE_RESERVE, C_MATCH_AMICAL)
HIGH_IS_GOOD = np.zeros(55, np.int64)
for _c in _HIGH_IS_GOOD:
    HIGH_IS_GOOD[_c] = 1


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
@njit(cache=True)
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


@njit(cache=True)
def chance(stream, prob):
    """True with probability ``prob`` (resolution 1/1000)."""
    if prob >= 1.0:
        return True
    if prob <= 0.0:
        return False
    return rng.dn(stream, 1000) <= prob * 1000.0


@njit(cache=True)
def own_stars(view, pol):
    total = 0
    for v in range(N_VALUES):
        total += (v + 1) * view[VIEW_BOX_STARS + pol * N_VALUES + v]
    return total


@njit(cache=True)
def waiting(view, pol, seat):
    """Total value of ``seat``'s gladiators waiting under ``pol`` (public)."""
    total = 0
    for v in range(N_VALUES):
        total += (v + 1) * view[GLAD + (pol * MAX_SEATS + seat) * N_VALUES + v]
    return total


@njit(cache=True)
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


@njit(cache=True)
def crown_weight(view, pol):
    """How likely ``pol`` is to end Emperor, as a weight: 0 if assassinated, else growing with popularity and its
    lead over the field (ties favour the higher rank, spec 8.2)."""
    if view[DEAD + pol]:
        return 0.0
    best = 0
    for k in range(N_POL):
        if not view[DEAD + k] and view[POP + k] > best:
            best = view[POP + k]
    gap = best - view[POP + pol]
    return 1.0 / (1.0 + gap * gap) + 0.01 * (N_POL - pol)


@njit(cache=True)
def favourite(view, exclude, infer):
    """The politician the viewer should back: crown weight x its expected share against the strongest rival
    stake in that slot, (own + 1) / (own + rival + 2), so that bots spread over politicians instead of all
    crowding the first in the hierarchy."""
    me = view[VIEW_SEAT]
    best, best_score = 0, -1.0
    for k in range(N_POL):
        if k == exclude:
            continue
        mine = stake(view, me, k, True)
        rival = 0.0
        for s in range(view[N_SEATS]):
            if s != me:
                rival = max(rival, stake(view, s, k, infer))
        score = crown_weight(view, k) * (mine + 1.0) / (mine + rival + 2.0)
        if score > best_score:
            best, best_score = k, score
    return best


@njit(cache=True)
def rivalry(view, pol, infer):
    """How much the others (believed) have riding on ``pol`` compared with the viewer."""
    me = view[VIEW_SEAT]
    other = 0.0
    for s in range(view[N_SEATS]):
        if s != me:
            other += stake(view, s, pol, infer)
    return other - stake(view, me, pol, True)


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def club_quantile(view, seat, share, skip_value):
    """The value at quantile ``share`` of ``seat``'s club (one piece of ``skip_value`` set aside)."""
    total = 0
    for v in range(1, N_VALUES + 1):
        total += view[CLUB + seat * N_VALUES + v - 1]
    if skip_value > 0:
        total -= 1
    if total <= 0:
        return 0
    target = int(share * (total - 1) + 0.5)
    for v in range(1, N_VALUES + 1):
        count = view[CLUB + seat * N_VALUES + v - 1] - (1 if v == skip_value else 0)
        if target < count:
            return v
        target -= count
    return N_VALUES


# --------------------------------------------------------------------------- the heuristic bot
@njit(cache=True)
def heuristic(view, prm, stream, infer):
    kind = view[VIEW_KIND]
    me = view[VIEW_SEAT]
    n_actions = view[VIEW_N_ACTIONS]
    if kind == K_NAME_QUARTER:
        if not chance(stream, prm[1]):
            return random_legal(view, stream)
        active = view[ACTIVE]
        # the quarter whose arena the active player cares least about, and the namer most
        best, best_score = -1, 1e18
        for q in range(n_actions):
            if not view[VIEW_LEGAL + q]:
                continue
            pol = 0
            for k in range(N_POL):
                if view[VIEW_QUARTER + view[ARENA_CELL + k]] == q:
                    pol = k
            score = stake(view, active, pol, infer) - stake(view, me, pol, True)
            if score < best_score:
                best, best_score = q, score
        return best
    if kind == K_PLACE_SUPPORTER:
        # a little jitter keeps equal bots from laying out identical clubs (which would tie every tie-break)
        share = min(1.0, max(0.0, prm[0] + (rng.dn(stream, 5) - 3) * 0.1))
        value = club_quantile(view, me, share, 0)
        if value == 0 or not chance(stream, prm[2]):
            return random_legal(view, stream)
        target = view[ARENA_CELL + favourite(view, -1, infer)]
        best, best_d = -1, 1 << 30
        for cell in range(N_CELLS):
            a = (value - 1) * N_CELLS + cell
            if a < n_actions and view[VIEW_LEGAL + a]:
                d = cell_distance(view, cell, target) * 64 + rng.dn(stream, 63)
                if d < best_d:
                    best, best_d = a, d
        return best if best >= 0 else random_legal(view, stream)
    if kind == K_PLACE_GLADIATOR:
        value = club_quantile(view, me, 1.0 - prm[0], 0)
        # the favourite, unless another politician's arena already draws enough of the seat's supporters for a
        # match it could win soon
        pol = favourite(view, -1, infer)
        best_score = -1.0
        for k in range(N_POL):
            mine = stake(view, me, k, True)
            rival = 0.0
            for s in range(view[N_SEATS]):
                if s != me:
                    rival = max(rival, stake(view, s, k, infer))
            near = attending_value(view, k, me)
            score = crown_weight(view, k) * (mine + 1.0) / (mine + rival + 2.0) * (1.0 + 0.15 * near)
            if score > best_score:
                pol, best_score = k, score
        a = (value - 1) * N_POL + pol
        if value > 0 and a < n_actions and view[VIEW_LEGAL + a]:
            return a
        return random_legal(view, stream)
    if kind == K_ORGANISE_MATCH:
        fav = favourite(view, -1, infer)
        best, best_score = 0, 0.0
        for pol in range(N_POL):
            legal_types = 0
            for mtype in range(4):
                legal_types += view[VIEW_LEGAL + 1 + pol * 4 + mtype]
            if legal_types == 0:
                continue
            # one flood fill per arena: seats with gladiators there are expected to applaud, the rest to boo
            app, boo = 0, 0
            for s in range(view[N_SEATS]):
                v = attending_value(view, pol, s)
                if s == me or waiting(view, pol, s) > 0:
                    app += v
                else:
                    boo += v
            if app < boo:
                continue
            mine = waiting(view, pol, me)
            for mtype in range(4):
                a = 1 + pol * 4 + mtype
                if not view[VIEW_LEGAL + a] or (mine == 0 and mtype != 0):
                    continue  # without gladiators there only a cup pays: 4 back for 1
                # a dearer match only pays for the favourite's popularity
                score = mine + (mtype if pol == fav else -mtype) + 0.5
                if score > best_score:
                    best, best_score = a, score
        if best > 0 and chance(stream, prm[3]):
            return best
        return 0 if view[VIEW_LEGAL] else random_legal(view, stream)
    if kind == K_CHEER_OR_BOO:
        pol = view[M_POL]
        if waiting(view, pol, me) > 0:
            return 1
        if pol == favourite(view, -1, infer) and not view[DEAD + pol]:
            return 1
        if infer and rivalry(view, pol, infer) > 0 and attending_value(view, pol, me) == 0:
            return 0
        return 1 if chance(stream, prm[4]) else 0
    if kind == K_SLIP_STARS:
        if view[VIEW_ARGS + 1] == SLIP_STAR:
            fav = favourite(view, -1, infer)
            if chance(stream, prm[5]):
                return fav
            return favourite(view, fav, infer)
        # a decoy: 0 none, 1 + slot
        if view[MONEY + me] >= 3 and not chance(stream, prm[5]):
            runner = favourite(view, view[VIEW_ARGS + 2], infer)
            if view[VIEW_LEGAL + 1 + runner]:
                return 1 + runner
        return 0
    if kind == K_ELIMINATE_SUPPORTER:
        best, best_v = -1, 99
        for cell in range(min(n_actions, N_CELLS)):
            if view[VIEW_LEGAL + cell] and view[CELL_VALUE + cell] < best_v:
                best, best_v = cell, view[CELL_VALUE + cell]
        return best
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
        target = view[VIEW_ARGS + 1]
        if target < 0 or target >= N_POL:
            target = view[LOVER]
        if target < 0:
            return 0
        fav = favourite(view, -1, infer)
        if target == fav or own_stars(view, target) > 0:
            return 0
        return 1
    if kind == K_VOTE_POLITICIAN:
        return favourite(view, -1, infer)
    if kind == K_CONTRIBUTE:
        lover = view[LOVER]
        helps = lover >= 0 and lover == favourite(view, -1, infer)
        if view[VIEW_ARGS] != C_POULE_DE_LUXE:
            helps = view[ACTIVE] == me or view[MATCH_ON] == 1
        if not helps:
            return 0
        amount = int(prm[7] * view[MONEY + me] + 0.5)
        while amount > 0 and (amount >= n_actions or not view[VIEW_LEGAL + amount]):
            amount -= 1
        return amount
    if kind == K_CARD_WINDOW:
        if view[MATCH_ON]:
            pol = view[M_POL]
            want = 1 if (waiting(view, pol, me) > 0 or pol == favourite(view, -1, infer)) else -1
        else:
            want = 0
        candidates = 0
        pick = 0
        for a in range(1, n_actions):
            if view[VIEW_LEGAL + a]:
                side = CARD_SIDE[a - 1]
                if side != 0 and side != want:
                    continue
                candidates += 1
                if rng.dn(stream, candidates) == 1:
                    pick = a
        if pick > 0 and chance(stream, prm[6]):
            return pick
        return 0
    if kind == K_CARD_PARAMS:
        ptype = view[VIEW_ARGS + 1]
        if ptype == PT_POLITICIAN_HARM or ptype == PT_POLITICIAN_HELP or ptype == PT_ARENA:
            best, best_score = -1, -1e18
            for k in range(min(n_actions, N_POL)):
                if not view[VIEW_LEGAL + k]:
                    continue
                score = (stake(view, me, k, True) + 1.0) * crown_weight(view, k)
                if ptype == PT_POLITICIAN_HARM:
                    score = rivalry(view, k, infer) * crown_weight(view, k) - score
                if score > best_score:
                    best, best_score = k, score
            return best if best >= 0 else random_legal(view, stream)
        if ptype == PT_SEAT_HARM:
            for s in range(n_actions):
                if s != me and view[VIEW_LEGAL + s]:
                    return s
        if ptype == PT_AMOUNT or ptype == PT_VALUE:
            for a in range(n_actions):
                if view[VIEW_LEGAL + a]:
                    return a
        if ptype == PT_ARENA:
            return favourite(view, -1, infer)
        return random_legal(view, stream)
    if kind == K_DIE_OVERRIDE:
        card, die, roller = view[VIEW_ARGS], view[VIEW_ARGS + 1], view[VIEW_ARGS + 3]
        if HIGH_IS_GOOD[card] and card >= 0:
            side = CARD_SIDE[card]
            mine = roller == me
            if side != 0 and view[MATCH_ON]:
                pol = view[M_POL]
                mine = (side == 1) == (waiting(view, pol, me) > 0)
            if mine and die < 5:
                return 6
            if not mine and die > 2:
                return 1
        return 0
    if kind == K_ARENA_SETUP:
        return random_legal(view, stream)
    return random_legal(view, stream)


@njit(cache=True)
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
    """Ask ``seat``'s policy: its user function (``slots[seat]``, a first-class function indexed at run time) when
    ``codes[seat]`` is ``USER``, else its built-in."""
    code = codes[seat]
    if code == USER:
        return call(slots, seat, view, params[seat], stream)
    return builtin_policy(code, params[seat], view, stream)
