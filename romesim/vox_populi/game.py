"""Vox Populi: the game kernel (spec 3, 6, 8) for 3-6 seats (2 with ``allow_two_players``).

The game is a state machine (``core.loop.machine_game``, ``MACHINE``): ``vox_advance`` plays dice and automatic
rules up to the next decision with two or more legal actions and returns its seat, the decision written in the
seat's view (spec 11: what that seat may see, nothing of the others' secrets); ``vox_apply`` takes the action and
the next ``vox_advance`` goes on from there. Where the game stands (the turn, the phase, the card window, the card,
the vote or the die in progress, each with its resume step and the locals it needs) is the stack of frames in
``g`` (``procedures.py``, "Resumable procedures"), so ``(p, g, view, row)`` is the whole game in progress: a copy
of it is the game at that decision (``romesim.new_game`` steps it so). The kernel plays it over the core's blocks
of games (``romesim.core.loop``) with one state array ``g`` and one view per block (``game_scratch``: no
allocation per game). Event cards are played through ``cards.card_playable`` and ``cards.play_card_step`` at the
windows W1a, W1b, W2 and W3 (spec 7.1, VOX-A16); the match and turn fields the cards set are read by the resolution
here (spec 6.3, 6.5). Rule numbers: "spec x.y" is the rules specification, "§x.y" the seed's own sections.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import END, Machine, block_kernel, decider, machine_game
from ..core.search import Search
from . import cards
from .board import attending
from .policies import call_policy
from .procedures import (
    ASKED,
    DONE,
    answer_here,
    clear_frames,
    contribution_round_step,
    frame,
    open_decision,
    post,
    resumed_at,
    sealed_position,
    suspend,
    unseal,
)
from .state import (
    ABSENT,
    ANSWER,
    ASK_SEAT,
    RET,
    MAX_DEPTH,
    FRAMES,
    FRAME_SIZE,
    VIEW_N_ACTIONS,
    IN_HAND,
    MAX_ACTIONS,
    ACTIVE,
    APP_BONUS,
    ARENA,
    ARENA_CARDS_PLAYED,
    ARENA_CELL,
    ATTEND,
    BAD_SOUND,
    BANK,
    BOO_BONUS,
    BOO_VOIDABLE,
    C_ARENE_POURRIE,
    C_HOOLIGANS,
    C_VOX_POPULI_VOX_DEI,
    CARD_PLAYER,
    CARD_SEQ,
    CARD_STATE,
    CARDS_THIS_TURN,
    CELL_OWNER,
    CELL_VALUE,
    CHOICE,
    CONTRIB,
    DEAD,
    DECK,
    DECK_LEFT,
    DECOY_SUPPLY,
    DECOYS,
    DESIGNATED_Q,
    DISCARDED,
    DREAM_TEAM,
    EMPTY,
    END_CLUBS,
    END_GUARD,
    END_POPULARITY,
    END_TRIGGER,
    EPIQUE_ADD,
    EPIQUE_VOID,
    FORCED_MATCH,
    FREE_ARENA,
    FREE_PLACEMENT,
    G_SIZE,
    GAIN,
    GAME_OVER,
    GLADIATOR_PLACED,
    GUEST,
    HAND_SIZE,
    HOOLIGANS_Q,
    IN_DECK,
    IN_PLAY,
    INTERVIEW,
    K_ARENA_SETUP,
    K_CARD_WINDOW,
    K_CHEER_OR_BOO,
    K_ELIMINATE_GLADIATOR,
    K_ELIMINATE_SUPPORTER,
    K_NAME_QUARTER,
    K_ORGANISE_MATCH,
    K_PLACE_GLADIATOR,
    K_PLACE_SUPPORTER,
    K_SLIP_STARS,
    K_TURN_BONUS,
    LAST_TURN,
    LOCKED,
    LOVER,
    LYNCH,
    M_APP,
    M_BOO,
    M_POL,
    M_PRICE_PAID,
    M_RESULT,
    M_TYPE,
    MATCH_DECIDED,
    MATCH_ON,
    MAX_DEGREE,
    MAX_SEATS,
    METER,
    MONEY,
    N_APP_BY_TYPE,
    N_APPLAUSE_WINS,
    N_ASSASSINATIONS,
    N_BY_TYPE,
    N_CARDS,
    N_CARDS_PLAYED,
    N_CELLS,
    N_MATCHES,
    N_POL,
    N_QUARTERS,
    N_SEATS,
    N_VALUES,
    NAMER,
    O_ABSENT_SCOPE,
    O_ARENA_CARDS_AFTER_COMMIT,
    O_ARENA_SETUP_START,
    O_BANK_LIMIT,
    O_CARD_WINDOW_PROTOCOL,
    O_COUNT_WAITING_GLADIATORS,
    O_DECOY_DISTINGUISHABLE,
    O_DECOY_LIMIT,
    O_DECOY_SUPPLY,
    O_EMPTY_CLUB_TURN,
    O_END_SCOPE,
    O_GUEST_SCOPE,
    O_OPEN_STARS,
    O_SLIP_ORDER,
    O_TURN_DIRECTION,
    O_VOTE_ONLY_IF_ATTENDING,
    O_VOX_DEI_SCOPE,
    ORGANISER,
    ORGANISER_PRIZE,
    P_ADJ,
    P_DECK_COPIES,
    P_DEGREE,
    P_MAX_TURNS,
    P_N,
    P_N_PIECES,
    P_PIECES,
    P_QUARTER,
    PANEM,
    PAX,
    PHASE,
    POP,
    PRICE,
    PUB_DECOYS,
    PUB_STARS,
    RECUP,
    ROTTEN,
    ROTTEN_POT,
    SCRATCH,
    SLIP_DECOY,
    SLIP_STAR,
    SLIPPED,
    STAGED,
    STAR,
    SUPPORTER_PLACED,
    TRAMPLE,
    TURN_ENDED,
    TURN_GUARD_TRIPPED,
    TURN_NO,
    VAE_VICTIS,
    VIEW_ADJ,
    VIEW_ARGS,
    VIEW_DEGREE,
    VIEW_LEGAL,
    VIEW_QUARTER,
    VIEW_SIZE,
    VOX_DEI,
    W1A,
    W1B,
    W2,
    W3,
    WINDOW,
    assassinate,
    box_decoys_at,
    change_popularity,
    club_at,
    club_size,
    discard_from_hand,
    draw_card,
    eliminate_gladiator,
    eliminate_supporter,
    gain_money,
    glad_at,
    gladiators_of,
    hand_at,
    is_arena_card,
    pay,
    return_to_hand,
    slipped_at,
    stars_at,
)

STARTING_MONEY = 7
STARTING_DECOYS = 3
DECOYS_PER_COLOUR = 5
STARTING_HAND = 4
UNLIMITED = 1 << 40

# outcome row (Game.metrics order)
(R_WIN, R_WIN_SEAT, _W1, _W2, _W3, _W4, _W5, R_SHARED, R_TURNS, R_END_POP, R_END_CLUBS, R_GUARD, R_EMPEROR, _E1,
 _E2, _E3, _E4, _E5, R_NO_EMPEROR, R_ASSASSINATIONS, R_MATCHES, R_MATCHES_TYPE, _M1, _M2, _M3, R_APP_WINS,
 R_APP_TYPE, _A1, _A2, _A3, R_CARDS_PLAYED, R_MONEY, _MO1, _MO2, _MO3, _MO4, _MO5, R_HAND, _H1, _H2, _H3, _H4, _H5,
 R_WIN_SCORE, R_EMPEROR_POP, N_METRICS) = range(46)


# --------------------------------------------------------------------------- set-up (spec 3)
@njit(cache=True)
def init_view_board(p, view):
    """The board graph is public and static: written into the view once per block."""
    for c in range(N_CELLS):
        view[VIEW_QUARTER + c] = p[P_QUARTER + c]
        view[VIEW_DEGREE + c] = p[P_DEGREE + c]
        for k in range(MAX_DEGREE):
            view[VIEW_ADJ + c * MAX_DEGREE + k] = p[P_ADJ + c * MAX_DEGREE + k]


@njit(cache=True)
def shuffle_deck(g, p, stream):
    """Spec 3.1: shuffle the deck. All 55 ids are permuted with the same draws whatever ``deck_copies`` removes,
    so a deck without some card keeps every other card in the same relative order (common random numbers)."""
    order = SCRATCH
    for i in range(N_CARDS):
        g[order + i] = i
    for i in range(N_CARDS - 1, 0, -1):
        j = rng.dn(stream, i + 1) - 1
        g[order + i], g[order + j] = g[order + j], g[order + i]
    kept = 0
    for i in range(N_CARDS):
        if p[P_DECK_COPIES + g[order + i]] > 0:
            kept += 1
    at = N_CARDS - kept
    for i in range(N_CARDS):
        c = g[order + i]
        if p[P_DECK_COPIES + c] > 0:
            g[DECK + at] = c
            at += 1
            g[CARD_STATE + c] = IN_DECK
        else:
            g[CARD_STATE + c] = DISCARDED  # not in this game's deck
    g[DECK_LEFT] = kept


@njit(cache=True)
def left_of(g, p, seat):
    """The player on ``seat``'s left: the previous seat when play passes to the right (VOX-A1 default), the next
    one with ``turn_direction = left``."""
    n = g[N_SEATS]
    return (seat + 1) % n if p[O_TURN_DIRECTION] == 1 else (seat - 1 + n) % n


@njit(cache=True)
def setup_step(g, p, d, view, stream):
    """Spec 3 (§2.0): the table, then the arenas placed one by one (DP01)."""
    f = frame(d)
    at = resumed_at(g, d)
    if at:
        seat, first = g[f + 1], g[f + 2]
    else:
        seat, first = setup_table(g, p, stream), 0
    for i in range(first, N_POL):
        if at:
            at = 0
            action = g[ANSWER]
        else:
            open_decision(g, p, seat, K_ARENA_SETUP, N_POL * N_CELLS, view)
            for k in range(N_POL):
                if g[ARENA_CELL + k] >= 0:
                    continue
                for c in range(N_CELLS):
                    if not quarter_has_arena(g, p, p[P_QUARTER + c]):
                        view[VIEW_LEGAL + k * N_CELLS + c] = 1
            action = post(g, d, 1, seat, view)
            if action < 0:
                g[f + 1], g[f + 2] = seat, i
                return ASKED
        pol, cell = action // N_CELLS, action % N_CELLS
        g[ARENA_CELL + pol] = cell
        g[CELL_OWNER + cell] = ARENA
        g[CELL_VALUE + cell] = pol
        seat = left_of(g, p, seat)
    g[ACTIVE] = 0  # the youngest player, seat 0 (VOX-A5)
    return DONE


@njit(cache=True)
def setup_table(g, p, stream):
    """Spec 3.1-3.4: a cleared state (every frame too), the deck shuffled, clubs, money, decoys and hands dealt.
    Returns the first arena placer (spec 3.5, VOX-A5)."""
    g[:] = 0
    n = p[P_N]
    g[N_SEATS] = n
    for c in range(N_CELLS):
        g[CELL_OWNER + c] = EMPTY
    for k in range(N_POL):
        g[ARENA_CELL + k] = -1
    for s in range(MAX_SEATS):
        g[METER + s] = -1
    g[LOVER] = -1
    g[HOOLIGANS_Q] = -1
    g[GUEST] = -1
    g[ABSENT] = -1
    g[DESIGNATED_Q] = -1
    shuffle_deck(g, p, stream)
    for s in range(n):
        for i in range(p[P_N_PIECES]):
            g[club_at(s, p[P_PIECES + i])] += 1
        g[MONEY + s] = STARTING_MONEY
        g[DECOYS + s] = STARTING_DECOYS
    for s in range(n):
        for _ in range(STARTING_HAND):
            draw_card(g, s)
    g[DECOY_SUPPLY] = UNLIMITED if p[O_DECOY_SUPPLY] == 1 else (DECOYS_PER_COLOUR - STARTING_DECOYS) * MAX_SEATS \
        + STARTING_DECOYS * (MAX_SEATS - n)
    if p[O_BANK_LIMIT] > 0:
        g[BANK] = p[O_BANK_LIMIT] - STARTING_MONEY * n
    # arena placement (spec 3.5, VOX-A5): from the first placer, each next placer is the left neighbour
    start = 0
    if p[O_ARENA_SETUP_START] == 1:
        start = n - 1
    elif p[O_ARENA_SETUP_START] == 2:
        start = rng.dn(stream, n) - 1
    return start


@njit(cache=True)
def setup(g, p, view, stream, codes, params, slots):
    """``setup_step`` to its end, the policies asked through ``decide`` (tests). Returns 0 or a policy error
    code."""
    clear_frames(g)
    while setup_step(g, p, 0, view, stream) == ASKED:
        err = answer_here(g, view, stream, codes, params, slots)
        if err:
            return err
    return 0


@njit(cache=True)
def quarter_has_arena(g, p, q):
    for k in range(N_POL):
        cell = g[ARENA_CELL + k]
        if cell >= 0 and p[P_QUARTER + cell] == q:
            return True
    return False


# --------------------------------------------------------------------------- card windows (spec 7.1, VOX-A16)
@njit(cache=True)
def run_window(g, p, d, window, view, stream):
    """A card window: a priority loop from the active player in turn order that closes when every seat has
    passed in succession (``single_pass``: one chance each). A seat with no playable card passes without being
    asked. PLACE AU SPORT (``LOCKED``) and a turn ended by DÉPENSE INCONSIDÉRÉE close it."""
    f = frame(d)
    n = g[N_SEATS]
    single = p[O_CARD_WINDOW_PROTOCOL] == 1
    at = resumed_at(g, d)
    if at:
        seat, passes, turns = g[f + 1], g[f + 2], g[f + 3]
    else:
        g[WINDOW] = window
        seat, passes, turns = g[ACTIVE], 0, 0
    while True:
        if at == 2:
            at = 0
            card = g[f + 4]  # re-entering the card being played
        else:
            if at == 1:
                at = 0
                action = g[ANSWER]
            else:
                if not (passes < n and g[LOCKED] == 0 and g[TURN_ENDED] == 0):
                    break
                if single and turns >= n:
                    break
                turns += 1
                # the playable cards are listed in g[SCRATCH ...] first: most priorities have none, and then the
                # seat's view is never built
                playable = 0
                if g[HAND_SIZE + seat] > 0:
                    for c in range(N_CARDS):
                        if g[hand_at(seat, c)] and cards.card_playable(c, seat, window, g, p):
                            g[SCRATCH + playable] = c
                            playable += 1
                if playable == 0:
                    passes += 1
                    seat = (seat + 1) % n
                    continue
                open_decision(g, p, seat, K_CARD_WINDOW, N_CARDS + 1, view)
                view[VIEW_ARGS] = window
                view[VIEW_LEGAL] = 1
                for i in range(playable):
                    view[VIEW_LEGAL + 1 + g[SCRATCH + i]] = 1
                action = post(g, d, 1, seat, view)
                if action < 0:
                    g[f + 1], g[f + 2], g[f + 3] = seat, passes, turns
                    return ASKED
            if action == 0:
                passes += 1
                seat = (seat + 1) % n
                continue
            card = action - 1
            discard_from_hand(g, p, seat, card)
        if cards.play_card_step(card, seat, window, g, p, d + 1, view, stream) == ASKED:
            g[f + 1], g[f + 2], g[f + 3], g[f + 4] = seat, passes, turns, card
            return suspend(g, d, 2)
        passes = 0
        seat = (seat + 1) % n
    g[WINDOW] = 0
    return DONE


# --------------------------------------------------------------------------- phase 1 (spec 6.1)
@njit(cache=True)
def quarter_has_room(g, p, q):
    for c in range(N_CELLS):
        if p[P_QUARTER + c] == q and g[CELL_OWNER + c] == EMPTY:
            return True
    return False


@njit(cache=True, inline="always")
def phase_one_step(g, p, d, view, stream):
    """Spec 6.1: the quarter named, W1a, the supporter, the gladiator, W1b."""
    active = g[ACTIVE]
    at = resumed_at(g, d)
    if at <= 1:
        if at == 1:
            g[DESIGNATED_Q] = g[ANSWER]
        else:
            # 1. the left neighbour names a quarter with an empty cell (DP02); none when the board is full (VOX-A8)
            namer = left_of(g, p, active)
            g[NAMER] = namer
            open_decision(g, p, namer, K_NAME_QUARTER, N_QUARTERS, view)
            view[VIEW_ARGS] = active
            rooms = 0
            for q in range(N_QUARTERS):
                if quarter_has_room(g, p, q):
                    view[VIEW_LEGAL + q] = 1
                    rooms += 1
            if rooms > 0:
                q = post(g, d, 1, namer, view)
                if q < 0:
                    return ASKED
                g[DESIGNATED_Q] = q
        at = 2
    if at == 2:
        # 2. W1a: QUARTIER LIBRE, AMICALES DES SUPPORTERS ...
        if run_window(g, p, d + 1, W1A, view, stream) == ASKED:
            return suspend(g, d, 2)
        at = 0
        # 3. the supporter (DP03): a value from the club x an empty cell of the designated quarter (any empty cell
        # under QUARTIER LIBRE)
        open_decision(g, p, active, K_PLACE_SUPPORTER, N_VALUES * N_CELLS, view)
        # a designated quarter filled since it was named (EXPULSION in W1a) is treated like QUARTIER LIBRE, so that
        # every turn still uses two pieces (spec 6.1); only a full board skips the step (VOX-A8)
        anywhere = g[FREE_PLACEMENT] == 1 or g[DESIGNATED_Q] < 0 or not quarter_has_room(g, p, g[DESIGNATED_Q])
        legal = 0
        for v in range(1, N_VALUES + 1):
            if g[club_at(active, v)] == 0:
                continue
            for c in range(N_CELLS):
                if g[CELL_OWNER + c] == EMPTY and (anywhere or p[P_QUARTER + c] == g[DESIGNATED_Q]):
                    view[VIEW_LEGAL + (v - 1) * N_CELLS + c] = 1
                    legal += 1
        action = -1
        if legal > 0:
            action = post(g, d, 3, active, view)
            if action < 0:
                return ASKED
        at = 3
    elif at == 3:
        action = g[ANSWER]
    if at == 3:
        if action >= 0:
            v, cell = action // N_CELLS + 1, action % N_CELLS
            g[club_at(active, v)] -= 1
            g[CELL_OWNER + cell] = active
            g[CELL_VALUE + cell] = v
        g[SUPPORTER_PLACED] = 1
        # 4. the gladiator (DP04): another piece, under any politician
        action = -1
        if club_size(g, active) > 0:
            open_decision(g, p, active, K_PLACE_GLADIATOR, N_VALUES * N_POL, view)
            for v in range(1, N_VALUES + 1):
                if g[club_at(active, v)] > 0:
                    for k in range(N_POL):
                        view[VIEW_LEGAL + (v - 1) * N_POL + k] = 1
            action = post(g, d, 4, active, view)
            if action < 0:
                return ASKED
        at = 4
    elif at == 4:
        action = g[ANSWER]
    if at == 4:
        if action >= 0:
            v, k = action // N_POL + 1, action % N_POL
            g[club_at(active, v)] -= 1
            g[glad_at(k, active, v)] += 1
        g[GLADIATOR_PLACED] = 1
        all_empty = True
        for s in range(g[N_SEATS]):
            if club_size(g, s) > 0:
                all_empty = False
        if all_empty and g[LAST_TURN] == 0:
            # spec 8.1: the turn during which every club becomes empty is the last
            g[LAST_TURN] = 1
            g[END_TRIGGER] = END_CLUBS
    # 5. W1b
    if run_window(g, p, d + 1, W1B, view, stream) == ASKED:
        return suspend(g, d, 5)
    return DONE


@njit(cache=True)
def phase_one(g, p, view, stream, codes, params, slots):
    """``phase_one_step`` to its end, the policies asked through ``decide`` (tests). Returns 0 or a policy error
    code."""
    clear_frames(g)
    while phase_one_step(g, p, 0, view, stream) == ASKED:
        err = answer_here(g, view, stream, codes, params, slots)
        if err:
            return err
    return 0


# --------------------------------------------------------------------------- phase 2 (spec 6.2, 6.3)
@njit(cache=True)
def match_menu(g, p, view):
    """Mark the legal (arena, type) pairs of DP07 in ``view``: an arena with >= 3 attending supporters and an
    affordable price; the star type only after DREAM TEAM. Returns how many there are."""
    money = g[MONEY + g[ACTIVE]]
    count = 0
    for k in range(N_POL):
        if attending(g, p, k) < 3:
            continue
        for t in range(4):
            if t == STAR and g[DREAM_TEAM] == 0:
                continue
            if PRICE[t] <= money:
                view[VIEW_LEGAL + 1 + k * 4 + t] = 1
                count += 1
    return count


@njit(cache=True, inline="always")
def choose_meters(g, p, d, view):
    """DP09: every seat (VOX-A6; only owners of attending supporters with vote_only_if_attending) chooses
    applause (1) or boo (0) in secret, into the hidden ``CHOICE`` (-1: not choosing); ``resolve_match`` reveals
    them together."""
    n = g[N_SEATS]
    pol = g[M_POL]
    f = frame(d)
    at = resumed_at(g, d)
    if at:
        first = g[f + 1]
    else:
        first = 0
        if p[O_VOTE_ONLY_IF_ATTENDING]:
            attending(g, p, pol)
        for s in range(MAX_SEATS):
            g[METER + s] = -1
            g[CHOICE + s] = -1
    for s in range(first, n):
        if at:
            at = 0
            action = g[ANSWER]
        else:
            if p[O_VOTE_ONLY_IF_ATTENDING]:
                present = False
                for c in range(N_CELLS):
                    if g[ATTEND + c] and g[CELL_OWNER + c] == s:
                        present = True
                if not present:
                    continue
            open_decision(g, p, s, K_CHEER_OR_BOO, 2, view)
            view[VIEW_ARGS] = g[ORGANISER]
            view[VIEW_ARGS + 1] = pol
            view[VIEW_ARGS + 2] = g[M_TYPE]
            view[VIEW_LEGAL + 1] = 1
            view[VIEW_LEGAL] = 0 if (g[INTERVIEW] and s == g[ORGANISER]) else 1
            action = post(g, d, 1, s, view)
            if action < 0:
                g[f + 1] = s
                return ASKED
        g[CHOICE + s] = action
    return DONE


@njit(cache=True)
def in_p(g, p, k, role):
    """Whether politician ``k`` counts as attending for ``role`` (spec 6.3.5, VOX-A19, VOX-A33). Roles: 0 the base
    gain, 1 RÉCUPÉRATION / LYNCHAGE, 2 PIÉTINE."""
    if k == g[ABSENT] and (p[O_ABSENT_SCOPE] == 0 or role == 0):
        return False
    if k == g[M_POL]:
        return True
    if k == g[GUEST]:
        if role == 2:
            return False
        return role == 0 or p[O_GUEST_SCOPE] == 0
    return False


@njit(cache=True)
def slip_one(g, p, seat, slot, is_decoy, value):
    """A piece goes into ``slot``: its owner's secret box, and the public record of the slip (spec 11): the
    number of pieces per (slot, owner), decoys told apart only with decoy_distinguishable, values only with
    open_stars. With slip_order = simultaneous the public record waits until everyone has slipped (VOX-A36,
    ``publish_slips``)."""
    if is_decoy:
        g[box_decoys_at(slot, seat)] += 1
    else:
        g[stars_at(slot, seat, value)] += 1
    if p[O_SLIP_ORDER] == 1:
        g[STAGED + slot * MAX_SEATS + seat] += 1
        return
    g[slipped_at(slot, seat)] += 1
    if is_decoy and p[O_DECOY_DISTINGUISHABLE]:
        g[PUB_DECOYS + slot * MAX_SEATS + seat] += 1
    if not is_decoy and p[O_OPEN_STARS]:
        g[PUB_STARS + (slot * MAX_SEATS + seat) * N_VALUES + value - 1] += 1


@njit(cache=True)
def publish_slips(g, p):
    """slip_order = simultaneous (VOX-A36), once every applauder has slipped: the slips made public as
    ``slip_one`` makes each public under sequential. A secret box only ever gains pieces, so its public record,
    decoys with decoy_distinguishable and stars by value with open_stars, is then its content."""
    for slot in range(N_POL):
        for seat in range(MAX_SEATS):
            i = slot * MAX_SEATS + seat
            g[SLIPPED + i] += g[STAGED + i]
            g[STAGED + i] = 0
            if p[O_DECOY_DISTINGUISHABLE]:
                g[PUB_DECOYS + i] = g[box_decoys_at(slot, seat)]
            if p[O_OPEN_STARS]:
                for v in range(1, N_VALUES + 1):
                    g[PUB_STARS + i * N_VALUES + v - 1] = g[stars_at(slot, seat, v)]


@njit(cache=True)
def open_decoy(g, p, seat, forbidden, star_value, view):
    """DP12, decoy part: 0 = none, 1 + slot = slip a decoy there (one held, else one bought for 1 sesterce from
    the supply, VOX-A11). ``forbidden``: the slot of the star it goes with (VOX-A10 per_star), -1 for none.
    Returns False, asking nothing, when ``seat`` has no decoy to slip; else the decision is written in ``view``."""
    has = g[DECOYS + seat] > 0 or (g[MONEY + seat] >= 1 and g[DECOY_SUPPLY] > 0)
    if not has:
        return False
    open_decision(g, p, seat, K_SLIP_STARS, 1 + N_POL, view)
    view[VIEW_ARGS] = star_value
    view[VIEW_ARGS + 1] = SLIP_DECOY
    view[VIEW_ARGS + 2] = forbidden
    view[VIEW_LEGAL] = 1
    for k in range(N_POL):
        if k != forbidden:
            view[VIEW_LEGAL + 1 + k] = 1
    return True


@njit(cache=True)
def slip_decoy(g, p, seat, action):
    """The decoy decision's action taken: 0 slips none."""
    if action == 0:
        return
    if g[DECOYS + seat] > 0:
        g[DECOYS + seat] -= 1
    else:
        pay(g, p, seat, 1)
        g[DECOY_SUPPLY] -= 1
    slip_one(g, p, seat, action - 1, True, 0)


@njit(cache=True, inline="always")
def slip_stars(g, p, d, seat, pol, view):
    """Spec 6.3 applause b, DP12: every gladiator of ``seat`` under ``pol`` becomes a star in a slot of his choice,
    the largest first; with each star one optional decoy into another slot (VOX-A10 per_star), or any number of
    decoys anywhere after the stars (free)."""
    f = frame(d)
    at = resumed_at(g, d)
    v = g[f + 1] if at else N_VALUES
    if at != 3:
        while v >= 1:
            if at == 2:
                at = 0
                slip_decoy(g, p, seat, g[ANSWER])
                continue
            if at == 1:
                at = 0
                slot = g[ANSWER]
            else:
                if g[glad_at(pol, seat, v)] <= 0:
                    v -= 1
                    continue
                open_decision(g, p, seat, K_SLIP_STARS, N_POL, view)
                view[VIEW_ARGS] = v
                view[VIEW_ARGS + 1] = SLIP_STAR
                view[VIEW_ARGS + 2] = pol
                for k in range(N_POL):
                    view[VIEW_LEGAL + k] = 1
                slot = post(g, d, 1, seat, view)
                if slot < 0:
                    g[f + 1] = v
                    return ASKED
            g[glad_at(pol, seat, v)] -= 1
            slip_one(g, p, seat, slot, False, v)
            if p[O_DECOY_LIMIT] == 0 and open_decoy(g, p, seat, slot, v, view):
                action = post(g, d, 2, seat, view)
                if action < 0:
                    g[f + 1] = v
                    return ASKED
                slip_decoy(g, p, seat, action)
    if p[O_DECOY_LIMIT] == 1:
        while True:
            if at == 3:
                at = 0
                action = g[ANSWER]
            else:
                if not open_decoy(g, p, seat, -1, 0, view):
                    break
                action = post(g, d, 3, seat, view)
                if action < 0:
                    return ASKED
            if action == 0:
                break
            slip_decoy(g, p, seat, action)
    return DONE


@njit(cache=True, inline="always")
def resolve_match_step(g, p, d, view, stream):
    """Spec 6.3: the meters of ``CHOICE`` are revealed; totals, winner and every consequence."""
    n = g[N_SEATS]
    pol = g[M_POL]
    mtype = g[M_TYPE]
    organiser = g[ORGANISER]
    active = g[ACTIVE]
    f = frame(d)
    at = resumed_at(g, d)
    resumed = at != 0
    if at == 0:
        for s in range(n):
            g[METER + s] = g[CHOICE + s]
        if g[INTERVIEW] and g[METER + organiser] >= 0:
            g[METER + organiser] = 1
        attending(g, p, pol)
        app, boo = 0, 0
        for c in range(N_CELLS):
            if g[ATTEND + c]:
                worth = 1 if g[PANEM] else g[CELL_VALUE + c]
                meter = g[METER + g[CELL_OWNER + c]]
                if meter == 1:
                    app += worth
                elif meter == 0:
                    boo += worth
        app += g[APP_BONUS]
        if g[EPIQUE_ADD]:
            app += g[ARENA_CARDS_PLAYED]  # MATCH ÉPIQUE counted at the reveal (VOX-A32)
        boo += g[BOO_BONUS]
        if g[EPIQUE_VOID] == 0:
            boo += g[BOO_VOIDABLE]
        if g[ROTTEN]:
            boo += 3  # ARÈNE POURRIE while unpaid (spec 7.6)
        g[M_APP] = app
        g[M_BOO] = boo
        applause = app > boo or (app == boo and g[BAD_SOUND] == 0)
        g[M_RESULT] = 1 if applause else 2
        if applause:
            g[N_APPLAUSE_WINS] += 1
            g[N_APP_BY_TYPE + mtype] += 1
            at = 1
        else:
            at = 3
    if at == 1:
        # applause a. every booer with an attending supporter eliminates one of them (DP10), in turn order
        first = g[f + 1] if resumed else 0
        for k in range(first, n):
            s = (active + k) % n
            if resumed:
                resumed = False
                cell = g[ANSWER]
            else:
                if g[METER + s] != 0:
                    continue
                open_decision(g, p, s, K_ELIMINATE_SUPPORTER, N_CELLS, view)
                view[VIEW_ARGS] = pol
                present = 0
                for c in range(N_CELLS):
                    if g[ATTEND + c] and g[CELL_OWNER + c] == s:
                        view[VIEW_LEGAL + c] = 1
                        present += 1
                if present == 0:
                    continue
                cell = post(g, d, 1, s, view)
                if cell < 0:
                    g[f + 1] = k
                    return ASKED
            eliminate_supporter(g, cell)
            g[ATTEND + cell] = 0
        at = 2
    if at == 2:
        # b. applauders slip their gladiators of this arena as stars, from the organiser (VOX-A36)
        first = g[f + 1] if resumed else 0
        for k in range(first, n):
            s = (organiser + k) % n
            if resumed or (g[METER + s] == 1 and gladiators_of(g, pol, s) > 0):
                resumed = False
                if slip_stars(g, p, d + 1, s, pol, view) == ASKED:
                    g[f + 1] = k
                    return suspend(g, d, 2)
        if p[O_SLIP_ORDER] == 1:
            publish_slips(g, p)
        # c. the organiser's prize
        gain_money(g, p, organiser, ORGANISER_PRIZE)
        # d. popularity, unless PAX DEORUM
        if g[PAX] == 0:
            for k in range(N_POL):
                if in_p(g, p, k, 0):
                    bonus = 1 if (g[RECUP] and in_p(g, p, k, 1)) else 0
                    change_popularity(g, p, k, GAIN[mtype] + bonus)
        return DONE
    # boos a. every applauder with a gladiator here loses one (DP11)
    first = g[f + 1] if resumed else 0
    for k in range(first, n):
        s = (active + k) % n
        if resumed:
            resumed = False
            a = g[ANSWER]
        else:
            if g[METER + s] != 1 or gladiators_of(g, pol, s) == 0:
                continue
            open_decision(g, p, s, K_ELIMINATE_GLADIATOR, N_VALUES, view)
            view[VIEW_ARGS] = pol
            for v in range(1, N_VALUES + 1):
                if g[glad_at(pol, s, v)] > 0:
                    view[VIEW_LEGAL + v - 1] = 1
            a = post(g, d, 3, s, view)
            if a < 0:
                g[f + 1] = k
                return ASKED
        eliminate_gladiator(g, pol, s, a + 1)
    # b. every booer draws a card, in turn order from the active player
    for k in range(n):
        s = (active + k) % n
        if g[METER + s] == 0:
            draw_card(g, s)
    # c. VAE VICTIS
    if g[VAE_VICTIS]:
        for s in range(n):
            for v in range(1, N_VALUES + 1):
                while g[glad_at(pol, s, v)] > 0:
                    eliminate_gladiator(g, pol, s, v)
    # d. LYNCHAGE MÉDIATIQUE (void under PAX DEORUM)
    if g[LYNCH] and g[PAX] == 0:
        for k in range(N_POL):
            if in_p(g, p, k, 1):
                change_popularity(g, p, k, -2)
    # e. PIÉTINE: the arena's politician, if he attends
    if g[TRAMPLE] and in_p(g, p, pol, 2):
        assassinate(g, p, pol)
    return DONE


@njit(cache=True)
def resolve_match(g, p, view, stream, codes, params, slots):
    """``resolve_match_step`` to its end, the policies asked through ``decide`` (tests). Returns 0 or a policy
    error code."""
    clear_frames(g)
    while resolve_match_step(g, p, 0, view, stream) == ASKED:
        err = answer_here(g, view, stream, codes, params, slots)
        if err:
            return err
    return 0


@njit(cache=True, inline="always")
def phase_two(g, p, d, view, stream):
    """Spec 6.2: the match announced (DP07), ARÈNE POURRIE's pool, the meters, W2 and the reveal."""
    active = g[ACTIVE]
    at = resumed_at(g, d)
    if at <= 1:
        if at == 1:
            action = g[ANSWER]
        else:
            open_decision(g, p, active, K_ORGANISE_MATCH, 1 + N_POL * 4, view)
            legal = match_menu(g, p, view)
            forced = g[FORCED_MATCH] == 1 and legal > 0
            view[VIEW_LEGAL] = 0 if forced else 1
            action = post(g, d, 1, active, view)
            if action < 0:
                return ASKED
        g[MATCH_DECIDED] = 1
        if action == 0:
            return DONE
        pol, mtype = (action - 1) // 4, (action - 1) % 4
        pay(g, p, active, PRICE[mtype])
        g[MATCH_ON] = 1
        g[ORGANISER] = active
        g[M_POL] = pol
        g[M_TYPE] = mtype
        g[M_PRICE_PAID] = PRICE[mtype]
        g[N_MATCHES] += 1
        g[N_BY_TYPE + mtype] += 1
        at = 3
        if g[ROTTEN]:
            # ARÈNE POURRIE: a contribution round at every match announcement, from the organiser (spec 7.6)
            for s in range(MAX_SEATS):
                g[CONTRIB + s] = 0
            at = 2
    if at == 2:
        if contribution_round_step(g, p, d + 1, active, g[ROTTEN_POT], C_ARENE_POURRIE, view) == ASKED:
            return suspend(g, d, 2)
        pot = g[RET]
        g[ROTTEN_POT] = pot
        if pot >= 5:
            if p[O_BANK_LIMIT] > 0:
                g[BANK] += pot
            g[ROTTEN] = 0
            g[ROTTEN_POT] = 0
            g[CARD_STATE + C_ARENE_POURRIE] = DISCARDED
        at = 3
    if at == 3:
        if p[O_ARENA_CARDS_AFTER_COMMIT]:
            # VOX-A17 true: meters are chosen first, the Arena cards come after, then the reveal
            if choose_meters(g, p, d + 1, view) == ASKED:
                return suspend(g, d, 3)
        at = 4
    if at == 4:
        if run_window(g, p, d + 1, W2, view, stream) == ASKED:
            return suspend(g, d, 4)
        if g[TURN_ENDED]:
            return DONE  # DÉPENSE INCONSIDÉRÉE: the match is cancelled, the turn ends (VOX-A23)
        at = 5
    if at == 5:
        if not p[O_ARENA_CARDS_AFTER_COMMIT]:
            if choose_meters(g, p, d + 1, view) == ASKED:
                return suspend(g, d, 5)
    if resolve_match_step(g, p, d + 1, view, stream) == ASKED:
        return suspend(g, d, 6)
    return DONE


# --------------------------------------------------------------------------- the turn and the game
@njit(cache=True)
def start_turn(g):
    """Clear every "this turn" field (spec 6.5)."""
    g[DESIGNATED_Q] = -1
    for f in (FREE_PLACEMENT, SUPPORTER_PLACED, GLADIATOR_PLACED, DREAM_TEAM, FORCED_MATCH, LOCKED, MATCH_DECIDED,
              TURN_ENDED, ARENA_CARDS_PLAYED, VOX_DEI, CARDS_THIS_TURN, MATCH_ON, ORGANISER, M_POL, M_TYPE,
              M_PRICE_PAID, APP_BONUS, BOO_BONUS, BOO_VOIDABLE, EPIQUE_ADD, EPIQUE_VOID, INTERVIEW, PAX, RECUP, LYNCH,
              TRAMPLE, VAE_VICTIS, BAD_SOUND, PANEM, FREE_ARENA, M_APP, M_BOO, M_RESULT):
        g[f] = 0
    g[HOOLIGANS_Q] = -1
    g[GUEST] = -1
    g[ABSENT] = -1
    for c in range(N_CARDS):
        g[CARD_PLAYER + c] = 0
        g[CARD_SEQ + c] = 0


@njit(cache=True)
def end_turn(g, p):
    """Spec 6.5: VOX POPULI, VOX DEI returns the other Arena cards of the turn (VOX-A18), HOOLIGANS leaves."""
    seq = g[VOX_DEI]
    if seq > 0:
        for c in range(N_CARDS):
            if c == C_VOX_POPULI_VOX_DEI or g[CARD_PLAYER + c] == 0 or g[CARD_STATE + c] != DISCARDED:
                continue
            if not is_arena_card(p, c):
                continue
            if p[O_VOX_DEI_SCOPE] == 1 and g[CARD_SEQ + c] < seq:
                continue
            return_to_hand(g, g[CARD_PLAYER + c] - 1, c)
    if g[CARD_STATE + C_HOOLIGANS] == IN_PLAY:
        g[CARD_STATE + C_HOOLIGANS] = DISCARDED
    g[HOOLIGANS_Q] = -1


@njit(cache=True, inline="always")
def play_turn(g, p, d, view, stream):
    """One player's three phases (spec 6)."""
    active = g[ACTIVE]
    at = resumed_at(g, d)
    fresh = at == 0  # False while re-entering the stage the turn stopped in
    action = -1
    if at == 0:
        start_turn(g)
        empty = club_size(g, active) == 0
        if empty and p[O_EMPTY_CLUB_TURN] == 1:
            end_turn(g, p)
            return DONE
        g[PHASE] = 1
        at = 2 if empty else 1
    if at == 1:
        if phase_one_step(g, p, d + 1, view, stream) == ASKED:
            return suspend(g, d, 1)
        fresh = True
        at = 2
    if at == 2:
        if not fresh or g[TURN_ENDED] == 0:
            if fresh:
                g[PHASE] = 2
            if phase_two(g, p, d + 1, view, stream) == ASKED:
                return suspend(g, d, 2)
        at = 3
    if at == 3:
        at = 6
        if g[TURN_ENDED] == 0:
            g[PHASE] = 3
            at = 5
            if g[MATCH_ON] == 0:
                # spec 6.4: no match this turn -> 1 sesterce or the top card (DP13)
                open_decision(g, p, active, K_TURN_BONUS, 2, view)
                view[VIEW_LEGAL] = 1
                view[VIEW_LEGAL + 1] = 1 if g[DECK_LEFT] > 0 else 0
                action = post(g, d, 4, active, view)
                if action < 0:
                    return ASKED
                at = 4
    elif at == 4:
        action = g[ANSWER]
    if at == 4:
        if action == 1:
            draw_card(g, active)
        else:
            gain_money(g, p, active, 1)
        at = 5
    if at == 5:
        if run_window(g, p, d + 1, W3, view, stream) == ASKED:
            return suspend(g, d, 5)
    g[MATCH_ON] = 0
    end_turn(g, p)
    return DONE


@njit(cache=True)
def emperor(g):
    """Spec 8.2: the most popular politician without an assassination marker; ties to the higher rank. -1 if
    every politician was assassinated."""
    best = -1
    for k in range(N_POL):
        if g[DEAD + k] == 0 and (best < 0 or g[POP + k] > g[POP + best]):
            best = k
    return best


@njit(cache=True)
def score(g, p, seat, emp):
    """Spec 8.3: the value of ``seat``'s stars in the Emperor's slot (decoys 0; waiting gladiators only with
    count_waiting_gladiators, VOX-A9)."""
    if emp < 0:
        return 0
    total = 0
    for v in range(1, N_VALUES + 1):
        total += v * g[stars_at(emp, seat, v)]
        if p[O_COUNT_WAITING_GLADIATORS]:
            total += v * g[glad_at(emp, seat, v)]
    return total


@njit(cache=True)
def board_value(g, seat):
    total = 0
    for c in range(N_CELLS):
        if g[CELL_OWNER + c] == seat:
            total += g[CELL_VALUE + c]
    return total


@njit(cache=True)
def winners(g, p, out):
    """Spec 8.3-8.4: ``out[s] = 1`` for each winner: the best score in the Emperor's slot, then the supporters'
    value on the board; players still tied share the win. Returns ``(number of winners, emperor, best score)``."""
    n = g[N_SEATS]
    emp = emperor(g)
    best, best_board = -1, -1
    for s in range(n):
        sc = score(g, p, s, emp)
        if sc > best:
            best = sc
    for s in range(n):
        if score(g, p, s, emp) == best and board_value(g, s) > best_board:
            best_board = board_value(g, s)
    count = 0
    for s in range(MAX_SEATS):
        out[s] = 0
    for s in range(n):
        if score(g, p, s, emp) == best and board_value(g, s) == best_board:
            out[s] = 1
            count += 1
    return count, emp, best


@njit(cache=True, apart=True)
def play_game_step(g, p, d, view, stream):
    """One game from set-up to its last turn (spec 3, 8.1)."""
    at = resumed_at(g, d)
    if at <= 1:
        if setup_step(g, p, d + 1, view, stream) == ASKED:
            return suspend(g, d, 1)
    n = g[N_SEATS]
    while True:
        if at == 2:
            at = 0  # re-entering the turn in progress
        elif g[TURN_NO] >= p[P_MAX_TURNS]:
            g[TURN_GUARD_TRIPPED] = 1
            g[END_TRIGGER] = END_GUARD
            break
        if play_turn(g, p, d + 1, view, stream) == ASKED:
            return suspend(g, d, 2)
        g[TURN_NO] += 1
        if g[LAST_TURN] and (p[O_END_SCOPE] == 0 or g[ACTIVE] == n - 1):
            break
        g[ACTIVE] = (g[ACTIVE] + 1) % n
    g[GAME_OVER] = 1
    return DONE


@njit(cache=True)
def fill_row(g, p, row):
    row[:] = 0
    won = g[SCRATCH:SCRATCH + MAX_SEATS]
    count, emp, best = winners(g, p, won)
    for s in range(MAX_SEATS):
        row[R_WIN_SEAT + s] = won[s]
        row[R_MONEY + s] = g[MONEY + s]
        row[R_HAND + s] = g[HAND_SIZE + s]
    row[R_WIN] = won[0]
    row[R_SHARED] = 1 if count > 1 else 0
    row[R_TURNS] = g[TURN_NO]
    row[R_END_POP] = 1 if g[END_TRIGGER] == END_POPULARITY else 0
    row[R_END_CLUBS] = 1 if g[END_TRIGGER] == END_CLUBS else 0
    row[R_GUARD] = g[TURN_GUARD_TRIPPED]
    if emp >= 0:
        row[R_EMPEROR + emp] = 1
        row[R_EMPEROR_POP] = g[POP + emp]
    else:
        row[R_NO_EMPEROR] = 1
    row[R_ASSASSINATIONS] = g[N_ASSASSINATIONS]
    row[R_MATCHES] = g[N_MATCHES]
    row[R_APP_WINS] = g[N_APPLAUSE_WINS]
    for t in range(4):
        row[R_MATCHES_TYPE + t] = g[N_BY_TYPE + t]
        row[R_APP_TYPE + t] = g[N_APP_BY_TYPE + t]
    row[R_CARDS_PLAYED] = g[N_CARDS_PLAYED]
    row[R_WIN_SCORE] = best


# --------------------------------------------------------------------------- the game as a state machine
# Where the game stands is the stack of frames in ``g`` (``procedures.py``, "Resumable procedures"): ``advance``
# re-enters the game at depth 0, every procedure in progress re-enters the one it called, and the one that posted the
# decision takes ``g[ANSWER]``. So ``(p, g, view, row)`` is the whole game in progress; ``view`` holds the posted
# decision, seen by its seat alone (spec 11), and its seat is the decision point. A posted decision returns through
# every procedure in progress and re-enters each: the turn's procedures (``play_turn``, the phases, the meters,
# the reveal, the stars) are ``inline="always"`` in ``play_game_step`` so that this costs few calls (a call each
# way per level made the game 20 % slower with random bots); ``run_window`` (four call sites) and the cards stay calls.
@njit(cache=True)
def vox_init(stream, p, g, view, row):
    """A new game: no procedure in progress (``setup_step`` clears the rest of ``g`` and deals)."""
    for d in range(MAX_DEPTH):
        g[FRAMES + d * FRAME_SIZE] = 0
    g[GAME_OVER] = 0


@njit(cache=True, inline="always")
def vox_advance(stream, p, g, view, row):
    """Dice and automatic rules up to the next decision with two or more legal actions (one legal action is taken
    at once, as ``procedures.decide`` does): its seat; or ``END``, the outcome row written."""
    if g[GAME_OVER]:
        return END
    if play_game_step(g, p, 0, view, stream) == ASKED:
        return g[ASK_SEAT]
    fill_row(g, p, row)
    return END


@njit(cache=True, inline="always")
def vox_legal(point, action, p, g, view, row):
    """``procedures.decide``'s test: an action below the view's ``n_actions`` that its legal mask allows."""
    return not (action < 0 or action >= view[VIEW_N_ACTIONS] or view[VIEW_LEGAL + action] == 0)


@njit(cache=True, inline="always")
def vox_apply(point, action, p, g, view, row):
    g[ANSWER] = action


@njit(cache=True, inline="always")
def decide_seat(offset, point, codes, params, slots, stream, p, g, view, row):
    """The policy of seat ``point`` on its view (``romesim.trace`` records the decision from this call)."""
    return call_policy(offset + point, codes, params, view, stream, slots)


# --------------------------------------------------------------------------- search (core.search)
@njit(cache=True)
def vox_player(point, p, g, view, row):
    """A seat decides its own point."""
    return np.int64(point)


@njit(cache=True)
def vox_actions(point, p, g, view, row):
    return view[VIEW_N_ACTIONS]


@njit(cache=True)
def vox_reward(player, p, g, view, row):
    """A finished game's value for seat ``player``: its share of the win (spec 6.6: a tie shares it)."""
    winners = 0
    for s in range(MAX_SEATS):
        winners += row[R_WIN_SEAT + s]
    return row[R_WIN_SEAT + player] / winners if winners > 0 else 0.0


@njit(cache=True, inline="always")
def shuffle(a, n, stream):
    """The first ``n`` entries of ``a`` in a uniformly random order (Fisher-Yates, from the last)."""
    for i in range(n - 1, 0, -1):
        j = rng.dn(stream, i + 1) - 1
        a[i], a[j] = a[j], a[i]


@njit(cache=True)
def vox_determinize(point, stream, p, g, view, row):
    """What seat ``point`` cannot see (spec 11), redrawn consistently with what it has seen: the cards of the other
    hands and of the deck dealt again from their pool (each hand keeps its size); each other seat's secret box,
    its pieces (stars by value, decoys) shuffled among its slots, each slot keeping its count (only the values
    when decoys are told apart, VOX-A10 decoy_distinguishable; nothing with open_stars); a meter another seat has
    chosen and not revealed (DP09), drawn again at even odds; under slip_order = simultaneous, where each seat's
    slips not yet public are also in its box, the slots of those (``redeal_box``, VOX-A36). Not redrawn: money
    under public_money = false. The ballots of a vote cast before the seat's, and sealed offers, are made again in
    each playout (``vox_unseal``)."""
    seat = point
    pool = np.empty(N_CARDS, np.int64)
    n = 0
    for c in range(N_CARDS):
        held = g[CARD_STATE + c] == IN_HAND and g[hand_at(seat, c)] == 0
        if held or g[CARD_STATE + c] == IN_DECK:
            pool[n] = c
            n += 1
    shuffle(pool, n, stream)
    k = 0
    for s in range(g[N_SEATS]):
        if s == seat:
            continue
        for c in range(N_CARDS):
            g[hand_at(s, c)] = 0
        for _ in range(g[HAND_SIZE + s]):
            g[hand_at(s, pool[k])] = 1
            g[CARD_STATE + pool[k]] = IN_HAND
            k += 1
    for i in range(g[DECK_LEFT]):
        g[DECK + N_CARDS - g[DECK_LEFT] + i] = pool[k]
        g[CARD_STATE + pool[k]] = IN_DECK
        k += 1
    for s in range(g[N_SEATS]):
        if s != seat:
            if p[O_SLIP_ORDER] == 1:
                redeal_box(g, p, s, stream)
            elif not p[O_OPEN_STARS]:
                shuffle_box(g, p, s, stream)
    for s in range(g[N_SEATS]):
        if s != seat and g[CHOICE + s] >= 0:
            g[CHOICE + s] = rng.dn(stream, 2) - 1


@njit(cache=True)
def redeal_box(g, p, s, stream):
    """slip_order = simultaneous (VOX-A36): seat ``s``'s pieces dealt again among its slots as far as the public
    record allows. A slot keeps the pieces its record tells apart (stars by value with open_stars, decoys with
    decoy_distinguishable) and gets as many others as its record counts, of the kind the record leaves (decoys
    with open_stars, stars with decoy_distinguishable); the slips not yet public keep their number, each into a
    slot drawn at even odds."""
    open_stars, decoys_public = p[O_OPEN_STARS] != 0, p[O_DECOY_DISTINGUISHABLE] != 0
    n = 0
    for slot in range(N_POL):
        n += g[box_decoys_at(slot, s)]
        for v in range(1, N_VALUES + 1):
            n += g[stars_at(slot, s, v)]
    pieces = np.empty(n, np.int64)  # the pieces taken out: a star's value, 0 for a decoy
    places = np.zeros(N_POL, np.int64)  # the public pieces of each slot the record does not tell apart
    n, staged = 0, 0
    for slot in range(N_POL):
        i = slot * MAX_SEATS + s
        known = g[PUB_DECOYS + i] if decoys_public else 0
        for _ in range(g[box_decoys_at(slot, s)] - known):
            pieces[n] = 0
            n += 1
        g[box_decoys_at(slot, s)] = known
        for v in range(1, N_VALUES + 1):
            told = g[PUB_STARS + i * N_VALUES + v - 1] if open_stars else 0
            for _ in range(g[stars_at(slot, s, v)] - told):
                pieces[n] = v
                n += 1
            g[stars_at(slot, s, v)] = told
            known += told
        places[slot] = g[SLIPPED + i] - known
        staged += g[STAGED + i]
        g[STAGED + i] = 0
    shuffle(pieces, n, stream)
    if open_stars or decoys_public:  # the kind the public places must hold first, each kind in its shuffled order
        first = np.empty(n, np.int64)
        k = 0
        for want_first in (True, False):
            for i in range(n):
                if ((pieces[i] == 0) == open_stars) == want_first:
                    first[k] = pieces[i]
                    k += 1
        pieces = first
    k = 0
    for slot in range(N_POL):
        for _ in range(places[slot]):
            put_piece(g, s, slot, pieces[k])
            k += 1
    for _ in range(staged):
        slot = rng.dn(stream, N_POL) - 1
        put_piece(g, s, slot, pieces[k])
        g[STAGED + slot * MAX_SEATS + s] += 1
        k += 1


@njit(cache=True, inline="always")
def put_piece(g, s, slot, value):
    if value == 0:
        g[box_decoys_at(slot, s)] += 1
    else:
        g[stars_at(slot, s, value)] += 1


@njit(cache=True)
def shuffle_box(g, p, s, stream):
    """Seat ``s``'s secret pieces shuffled among its slots, each slot keeping its count (decoys left where they
    are when they are public)."""
    decoys_public = p[O_DECOY_DISTINGUISHABLE] != 0
    n = 0
    for slot in range(N_POL):
        n += 0 if decoys_public else g[box_decoys_at(slot, s)]
        for v in range(1, N_VALUES + 1):
            n += g[stars_at(slot, s, v)]
    pieces = np.empty(n, np.int64)
    n = 0
    for slot in range(N_POL):
        for v in range(1, N_VALUES + 1):
            for _ in range(g[stars_at(slot, s, v)]):
                pieces[n] = v
                n += 1
        if not decoys_public:
            for _ in range(g[box_decoys_at(slot, s)]):
                pieces[n] = 0
                n += 1
    shuffle(pieces, n, stream)
    k = 0
    for slot in range(N_POL):
        size = g[box_decoys_at(slot, s)] if not decoys_public else 0
        for v in range(1, N_VALUES + 1):
            size += g[stars_at(slot, s, v)]
            g[stars_at(slot, s, v)] = 0
        if not decoys_public:
            g[box_decoys_at(slot, s)] = 0
        for _ in range(size):
            if pieces[k] == 0:
                g[box_decoys_at(slot, s)] += 1
            else:
                g[stars_at(slot, s, pieces[k])] += 1
            k += 1


@njit(cache=True)
def vox_sealed(point, p, g, view, row):
    """A vote's ballots (spec 7.4) and, under pool_protocol = simultaneous_sealed, a round's offers (VOX-A25) are
    simultaneous choices: ``procedures.sealed_position``."""
    return sealed_position(g, p, view)


@njit(cache=True)
def vox_unseal(point, p, g, view, row):
    return unseal(g, p, view)


# game_loop(stream, codes, params, slots, offset, p, g, view, row): one game to its end; 0 or a policy error code
game_loop = machine_game("game_loop", vox_init, vox_advance, vox_legal, vox_apply, decide_seat,
                         Search(vox_player, vox_actions, vox_reward, vox_determinize, None, vox_sealed, vox_unseal),
                         max_actions=MAX_ACTIONS,
                         apart=True)


@njit(cache=True)
def play_game(g, p, view, row, stream, codes, params, slots):
    """One game from set-up to the winner; fills ``row``. Returns 0 or a policy error code."""
    return game_loop(stream, codes, params, slots, 0, p, g, view, row)


@njit(cache=True)
def game_scratch(args):
    """A block's state and view; the board part of the view is static and written here once."""
    g = np.zeros(G_SIZE, np.int64)
    view = np.zeros(VIEW_SIZE, np.int64)
    init_view_board(args[0], view)
    return g, view


game_kernel = block_kernel("game_kernel", game_scratch, game_loop, N_METRICS)
# the game's arrays: (p,) + (g, view) + (row,); decisions read ``view``
MACHINE = Machine(vox_init, vox_advance, vox_legal, vox_apply, decider(game_loop), game_scratch, 2)


@njit(cache=True)
def play_one(seed, game, p, codes, params, g, view, slots):
    """Play game ``game`` of run ``seed`` into ``g`` (for inspection and tests); returns ``(row, error)``."""
    stream = rng.new_stream()
    rng.start(stream, seed, game)
    row = np.zeros(N_METRICS, np.int64)
    init_view_board(p, view)
    err = play_game(g, p, view, row, stream, codes, params, slots)
    return row, err
