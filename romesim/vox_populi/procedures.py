"""Vox Populi procedures shared by the turn (``game.py``) and the event cards (``cards.py``): asking a seat's
policy through its view (spec 10, 11), dice with the R_die reaction window (spec 7.5), show-of-hands votes with
the R_vote window (spec 7.4) and pooled payments (spec 7.6).

Asking a seat::

    open_decision(g, p, seat, K_..., n_actions, view)   # the seat's view: public state + its own secrets
    view[VIEW_ARGS + i] = ...                           # the decision's context (documented per kind)
    view[VIEW_LEGAL + a] = 1                            # for every legal action a
    action, err = decide(seat, view, stream, codes, params, slots)
    if err: return err                                  # an illegal action from a user policy

``codes[seat]`` and ``params[seat]`` select and parameterise the seat's built-in; ``codes[seat] == USER`` hands
the decision to ``slots[seat]``, the seat's user function (``romesim.core.policy``).

Resumable procedures. The game is a state machine (``game.py``, ``core.loop.machine_game``): a procedure that needs
a decision posts it and returns ``ASKED`` up the chain of its callers instead of calling a policy, and is called
again, the same way, once the action is in ``g[ANSWER]``. Each procedure ``*_step`` takes its depth ``d`` in that
chain: its frame ``g[frame(d)]`` holds the step it stopped at (0 when not suspended; reading it clears it,
``resumed_at``) and the locals it needs after the decision, written only when it stops (``post``, ``suspend``). So
nothing before a decision is redone when the procedure is re-entered, dice included, and ``g`` is the whole game in
progress. A decision with exactly one legal action is taken at once, as ``decide`` does, and not posted. A step
function's result, if any, is in ``g[RET]`` (and ``g[RET2]``) when it returns ``DONE``.

The functions without ``_step`` (``roll_die``, ``hold_vote``, ``contribution_round``) play one such procedure to its
end, asking the policies through ``decide`` (tests and tools; the game itself never calls them).
"""

from ..core.jit import njit
from ..core import rng
from ..core.policy import error_code
from .policies import call_policy
from .state import (
    ANSWER,
    ASK_SEAT,
    BALLOT,
    BOX_DECOYS,
    BOX_STARS,
    C_CENSURE,
    C_MAGOUILLE,
    C_MATCH_TRUQUE,
    C_TRICHERIE,
    CARD_STATE,
    CONTRIB,
    DIE_OVERRIDES,
    DIE_ROLLER,
    DIE_VALUE,
    FRAME_SIZE,
    FRAMES,
    IN_DECK,
    IN_HAND,
    MAX_DEPTH,
    K_CARD_PARAMS,
    K_CARD_WINDOW,
    K_CONTRIBUTE,
    K_DIE_OVERRIDE,
    K_VOTE_POLITICIAN,
    K_VOTE_YES_NO,
    LOCKED,
    MAX_SEATS,
    MONEY,
    N_CARDS,
    N_POL,
    N_SEATS,
    N_VALUES,
    O_DIE_OVERRIDE_ANY_PHASE,
    O_MAX_OVERRIDES_PER_DIE,
    O_POOL_PROTOCOL,
    O_PUBLIC_MONEY,
    O_VOTE_REACTION_TIMING,
    P_INERT,
    PHASE,
    PT_SEAT_HARM,
    PUBLIC_END,
    RET,
    RET2,
    SCRATCH,
    VIEW_ARGS,
    VIEW_BOX_DECOYS,
    VIEW_BOX_STARS,
    VIEW_HAND,
    VIEW_KIND,
    VIEW_LEGAL,
    VIEW_N_ACTIONS,
    VIEW_SEAT,
    VOTE_CARD,
    VOTE_CENSURED,
    VOTE_DOUBLED,
    VOTE_TARGET,
    discard_from_hand,
    hand_at,
)


@njit(cache=True)
def open_decision(g, p, seat, kind, n_actions, view):
    """Fill ``view`` with what ``seat`` may see (spec 11) for a decision of ``kind`` with actions
    ``0 .. n_actions - 1``, all marked illegal: the public part of the state, its own hand and black-box
    contents, nothing of any other seat's secrets."""
    for i in range(PUBLIC_END):
        view[i] = g[i]
    for c in range(N_CARDS):
        # whether a card is in the deck or in someone's hand is hidden
        if view[CARD_STATE + c] == IN_HAND:
            view[CARD_STATE + c] = IN_DECK
        view[VIEW_HAND + c] = g[hand_at(seat, c)]
    if p[O_PUBLIC_MONEY] == 0:
        for s in range(MAX_SEATS):
            if s != seat:
                view[MONEY + s] = -1
    for slot in range(N_POL):
        for v in range(N_VALUES):
            view[VIEW_BOX_STARS + slot * N_VALUES + v] = g[BOX_STARS + (slot * MAX_SEATS + seat) * N_VALUES + v]
        view[VIEW_BOX_DECOYS + slot] = g[BOX_DECOYS + slot * MAX_SEATS + seat]
    view[VIEW_SEAT] = seat
    view[VIEW_KIND] = kind
    view[VIEW_N_ACTIONS] = n_actions
    for i in range(8):
        view[VIEW_ARGS + i] = 0
    for a in range(n_actions):
        view[VIEW_LEGAL + a] = 0


@njit(cache=True)
def decide(seat, view, stream, codes, params, slots):
    """Ask ``seat``'s policy; returns ``(action, error)``. A decision with one legal action is not asked."""
    n = view[VIEW_N_ACTIONS]
    legal, only = 0, -1
    for a in range(n):
        if view[VIEW_LEGAL + a]:
            legal += 1
            only = a
    if legal == 1:
        return only, 0
    action = call_policy(seat, codes, params, view, stream, slots)
    if action < 0 or action >= n or view[VIEW_LEGAL + action] == 0:
        return action, error_code(seat, action)
    return action, 0


DONE, ASKED = 0, 1  # what a step function returns


@njit(cache=True, inline="always")
def frame(d):
    """Index of the frame of the procedure at depth ``d``."""
    return FRAMES + d * FRAME_SIZE


@njit(cache=True, inline="always")
def resumed_at(g, d):
    """The step the procedure at depth ``d`` stopped at (0: a fresh call), cleared: it is set again only if the
    procedure stops again."""
    f = FRAMES + d * FRAME_SIZE
    step = g[f]
    g[f] = 0
    return step


@njit(cache=True, inline="always")
def suspend(g, d, step):
    """The procedure at depth ``d`` stops at ``step`` because a procedure it called posted a decision."""
    g[FRAMES + d * FRAME_SIZE] = step
    return ASKED


@njit(cache=True)
def post(g, d, step, seat, view):
    """The decision written in ``view`` for ``seat``: its one legal action, taken at once as ``decide`` takes it
    (without asking, without dice); or -1 when it has none or several: then it is posted (the procedure at depth
    ``d`` stops at ``step``; it saves its locals and returns ``ASKED``)."""
    n = view[VIEW_N_ACTIONS]
    legal, only = 0, -1
    for a in range(n):
        if view[VIEW_LEGAL + a]:
            legal += 1
            only = a
    if legal == 1:
        return only
    g[FRAMES + d * FRAME_SIZE] = step
    g[ASK_SEAT] = seat
    return -1


@njit(cache=True)
def clear_frames(g):
    """No procedure in progress (a procedure played on its own from a constructed state)."""
    for d in range(MAX_DEPTH):
        g[FRAMES + d * FRAME_SIZE] = 0


@njit(cache=True)
def answer_here(g, view, stream, codes, params, slots):
    """Ask the posted decision's seat with ``decide`` and take its action; returns the error code (0: legal)."""
    action, err = decide(g[ASK_SEAT], view, stream, codes, params, slots)
    g[ANSWER] = action
    return err


@njit(cache=True)
def override_card(g, p, seat):
    """The die-override card ``seat`` may play on the die just rolled, or -1 (spec 7.5, VOX-A14)."""
    if g[LOCKED]:
        return -1
    phase2 = g[PHASE] == 2
    any_phase = p[O_DIE_OVERRIDE_ANY_PHASE] == 1
    if g[hand_at(seat, C_MAGOUILLE)] and not p[P_INERT + C_MAGOUILLE] and (not phase2 or any_phase):
        return C_MAGOUILLE
    if g[hand_at(seat, C_MATCH_TRUQUE)] and not p[P_INERT + C_MATCH_TRUQUE] and (phase2 or any_phase):
        return C_MATCH_TRUQUE
    return -1


@njit(cache=True)
def roll_die_step(g, p, d, roller, card, view, stream):
    """Roll one d6 for ``roller`` (playing ``card``) and run the R_die window (spec 7.5): a priority loop from
    the roller in which a seat holding MAGOUILLE (phases 1 and 3) or MATCH TRUQUÉ (phase 2) may discard it to set
    the die to any value (DP16: 0 = pass, 1..6 = the value). ``max_overrides_per_die`` overrides at most
    (VOX-A14). The value is public (``DIE_VALUE``) and in ``g[RET]``."""
    f = frame(d)
    n = g[N_SEATS]
    resumed = resumed_at(g, d) != 0
    if resumed:
        seat, passes, reaction = g[f + 1], g[f + 2], g[f + 3]
    else:
        g[DIE_VALUE] = rng.d6(stream)
        g[DIE_ROLLER] = roller
        g[DIE_OVERRIDES] = 0
        seat, passes, reaction = roller, 0, -1
    while True:
        if resumed:
            resumed = False
            action = g[ANSWER]
        else:
            if not (passes < n and g[DIE_OVERRIDES] < p[O_MAX_OVERRIDES_PER_DIE]):
                break
            reaction = override_card(g, p, seat)
            action = 0
            if reaction >= 0:
                open_decision(g, p, seat, K_DIE_OVERRIDE, 7, view)
                view[VIEW_ARGS] = card
                view[VIEW_ARGS + 1] = g[DIE_VALUE]
                view[VIEW_ARGS + 2] = reaction
                view[VIEW_ARGS + 3] = roller
                for a in range(7):
                    view[VIEW_LEGAL + a] = 1
                action = post(g, d, 1, seat, view)
                if action < 0:
                    g[f + 1], g[f + 2], g[f + 3] = seat, passes, reaction
                    return ASKED
        if action > 0:
            discard_from_hand(g, p, seat, reaction)
            g[DIE_VALUE] = action
            g[DIE_OVERRIDES] += 1
            passes = 0
            seat = (seat + 1) % n
            continue
        passes += 1
        seat = (seat + 1) % n
    g[RET] = g[DIE_VALUE]
    return DONE


@njit(cache=True)
def vote_reactions_step(g, p, d, card, card_player, target, view):
    """R_vote (spec 7.4 step 2): a priority loop from the card player; CENSURE (its player names one seat whose
    ballot is not counted) and TRICHERIE (its player's ballot counts 2). DP05 actions: 0 pass, 1 + card."""
    f = frame(d)
    n = g[N_SEATS]
    at = resumed_at(g, d)
    if at:
        seat, passes = g[f + 1], g[f + 2]
    else:
        seat, passes = card_player, 0
    while True:
        if at == 2:
            at = 0
            g[VOTE_CENSURED] = g[ANSWER]
        else:
            if at == 1:
                at = 0
                action = g[ANSWER]
            else:
                if not (passes < n and g[LOCKED] == 0):
                    break
                can_censure = g[hand_at(seat, C_CENSURE)] == 1 and not p[P_INERT + C_CENSURE] and g[VOTE_CENSURED] < 0
                can_cheat = g[hand_at(seat, C_TRICHERIE)] == 1 and not p[P_INERT + C_TRICHERIE] and g[VOTE_DOUBLED] < 0
                if not (can_censure or can_cheat):
                    passes += 1
                    seat = (seat + 1) % n
                    continue
                open_decision(g, p, seat, K_CARD_WINDOW, N_CARDS + 1, view)
                view[VIEW_ARGS] = -1  # a reaction window, not W1a..W3
                view[VIEW_ARGS + 1] = card
                view[VIEW_ARGS + 2] = target
                view[VIEW_LEGAL] = 1
                view[VIEW_LEGAL + 1 + C_CENSURE] = 1 if can_censure else 0
                view[VIEW_LEGAL + 1 + C_TRICHERIE] = 1 if can_cheat else 0
                action = post(g, d, 1, seat, view)
                if action < 0:
                    g[f + 1], g[f + 2] = seat, passes
                    return ASKED
            if action == 0:
                passes += 1
                seat = (seat + 1) % n
                continue
            played = action - 1
            discard_from_hand(g, p, seat, played)
            if played == C_TRICHERIE:
                g[VOTE_DOUBLED] = seat
            else:
                open_decision(g, p, seat, K_CARD_PARAMS, MAX_SEATS, view)
                view[VIEW_ARGS] = C_CENSURE
                view[VIEW_ARGS + 1] = PT_SEAT_HARM
                for s in range(n):
                    view[VIEW_LEGAL + s] = 1
                victim = post(g, d, 2, seat, view)
                if victim < 0:
                    g[f + 1], g[f + 2] = seat, passes
                    return ASKED
                g[VOTE_CENSURED] = victim
        passes = 0
        seat = (seat + 1) % n
    return DONE


@njit(cache=True)
def hold_vote_step(g, p, d, card, card_player, target, plurality, view):
    """A show-of-hands vote called by ``card`` (spec 7.4, VOX-A26): reactions (before or after the ballots,
    ``vote_reaction_timing``), then every seat casts one ballot at once, public once cast (``BALLOT``).

    Yes/no (DP14, ``plurality`` false): 1 = yes to the harmful proposal about ``target``, 0 = no; ``g[RET]``,
    ``g[RET2]`` = weighted yes, weighted no. Plurality (DP15, PRÉSIDENT D'HONNEUR): ballots name a politician;
    ``g[RET]`` = the winner, ties to the higher rank. CENSURE weighs a ballot 0, TRICHERIE 2."""
    f = frame(d)
    n = g[N_SEATS]
    at = resumed_at(g, d)
    if at == 0:
        g[VOTE_CARD] = card
        g[VOTE_TARGET] = target
        g[VOTE_CENSURED] = -1
        g[VOTE_DOUBLED] = -1
        for s in range(MAX_SEATS):
            g[BALLOT + s] = -1
    if at <= 1 and p[O_VOTE_REACTION_TIMING] == 0:
        if vote_reactions_step(g, p, d + 1, card, card_player, target, view) == ASKED:
            return suspend(g, d, 1)
    if at <= 2:
        kind = K_VOTE_POLITICIAN if plurality else K_VOTE_YES_NO
        width = N_POL if plurality else 2
        first = g[f + 1] if at == 2 else 0
        for s in range(first, n):
            if at == 2:
                at = 0
                action = g[ANSWER]
            else:
                # ballots are simultaneous: each seat decides before any ballot of this vote is in the state
                open_decision(g, p, s, kind, width, view)
                view[VIEW_ARGS] = card
                view[VIEW_ARGS + 1] = target
                view[VIEW_ARGS + 2] = card_player
                for a in range(width):
                    view[VIEW_LEGAL + a] = 1
                action = post(g, d, 2, s, view)
                if action < 0:
                    g[f + 1] = s
                    return ASKED
            g[SCRATCH + 90 + s] = action  # sealed (hidden part of g) until every ballot is cast
        for s in range(n):
            g[BALLOT + s] = g[SCRATCH + 90 + s]
        at = 0
    if p[O_VOTE_REACTION_TIMING] == 1:
        if vote_reactions_step(g, p, d + 1, card, card_player, target, view) == ASKED:
            return suspend(g, d, 3)
    tally = SCRATCH + 64
    for k in range(N_POL):
        g[tally + k] = 0
    for s in range(n):
        weight = 0 if s == g[VOTE_CENSURED] else (2 if s == g[VOTE_DOUBLED] else 1)
        g[tally + g[BALLOT + s]] += weight
    if plurality:
        best = 0
        for k in range(1, N_POL):
            if g[tally + k] > g[tally + best]:
                best = k
        g[RET] = best
        g[RET2] = 0
        return DONE
    g[RET] = g[tally + 1]
    g[RET2] = g[tally]
    return DONE


@njit(cache=True)
def innermost_frame(g):
    """The frame of the procedure that posted the pending decision: the innermost one in progress."""
    d = MAX_DEPTH - 1
    while g[frame(d)] == 0:
        d -= 1
    return frame(d)


@njit(cache=True, inline="always")
def offer_cap(g, seat, base):
    """The most ``seat`` may offer toward a pool of 5 sesterces that holds ``base`` (spec 7.6): 0 when it is not
    asked."""
    return min(g[MONEY + seat], 5 - base)


@njit(cache=True)
def sealed_position(g, p, view):
    """The place of the posted decision among the choosers of a simultaneous choice, each blind to the choices
    before it (0 the first; -1 a decision made in the open): a vote's ballots (``hold_vote_step``: seats 0 ..
    n-1, spec 7.4) and under ``pool_protocol = simultaneous_sealed`` a round's offers (``contribution_round_step``:
    the seats asked before this one, in turn order, VOX-A25)."""
    kind = view[VIEW_KIND]
    if kind == K_VOTE_YES_NO or kind == K_VOTE_POLITICIAN:
        return view[VIEW_SEAT]
    if kind != K_CONTRIBUTE or p[O_POOL_PROTOCOL] != 1:
        return -1
    f = innermost_frame(g)  # the round's k-th seat from its first is asked; its pot before the round
    n, k, base = g[N_SEATS], g[f + 1], g[f + 3]
    start = (view[VIEW_SEAT] - k) % n
    asked = 0
    for i in range(k):
        asked += offer_cap(g, (start + i) % n, base) > 0
    return asked


@njit(cache=True)
def unseal(g, p, view):
    """At a sealed choice (``sealed_position`` > 0): the choices made before it unmade (sealed, they are not in the
    public state) and the first chooser's decision posted again as its procedure posted it; returns its seat."""
    f = innermost_frame(g)
    kind, width = view[VIEW_KIND], view[VIEW_N_ACTIONS]
    first, k = 0, 0
    if kind == K_CONTRIBUTE:  # the first seat of the round with money to offer
        n, base = g[N_SEATS], g[f + 3]
        start = (view[VIEW_SEAT] - g[f + 1]) % n
        while offer_cap(g, (start + k) % n, base) <= 0:
            k += 1
        first = (start + k) % n
        width = offer_cap(g, first, base) + 1
    args = view[VIEW_ARGS], view[VIEW_ARGS + 1], view[VIEW_ARGS + 2]
    open_decision(g, p, first, kind, width, view)
    view[VIEW_ARGS], view[VIEW_ARGS + 1], view[VIEW_ARGS + 2] = args
    for a in range(width):
        view[VIEW_LEGAL + a] = 1
    g[f + 1] = k
    g[ASK_SEAT] = first
    return first


@njit(cache=True)
def contribution_round_step(g, p, d, first, pot, card, view):
    """One round of contributions toward 5 sesterces (spec 7.6, VOX-A25), seats in turn order from ``first``.
    ``sequential_open``: each gives 0..min(money, 5 - pot) seeing the pot so far (DP08, view args: card, pot).
    ``simultaneous_sealed``: each decides seeing only the pot before the round; offers are then taken in turn
    order, each capped at what the pot still needs (the excess stays with its owner). Money leaves the players
    here and each seat's amount is added to ``CONTRIB`` (public; the caller zeroes it when a pool starts and
    refunds from it); the caller banks the pot, which is in ``g[RET]``."""
    f = frame(d)
    n = g[N_SEATS]
    sealed = p[O_POOL_PROTOCOL] == 1
    offers = SCRATCH + 80
    resumed = resumed_at(g, d) != 0
    if resumed:
        start, pot, start_pot = g[f + 1], g[f + 2], g[f + 3]
    else:
        start, start_pot = 0, pot
        for s in range(MAX_SEATS):
            g[offers + s] = 0
    for k in range(start, n):
        seat = (first + k) % n
        base = start_pot if sealed else pot
        if resumed:
            resumed = False
            action = g[ANSWER]
        else:
            most = offer_cap(g, seat, base)
            if most <= 0:
                continue
            open_decision(g, p, seat, K_CONTRIBUTE, most + 1, view)
            view[VIEW_ARGS] = card
            view[VIEW_ARGS + 1] = base
            for a in range(most + 1):
                view[VIEW_LEGAL + a] = 1
            action = post(g, d, 1, seat, view)
            if action < 0:
                g[f + 1], g[f + 2], g[f + 3] = k, pot, start_pot
                return ASKED
        if sealed:
            g[offers + seat] = action
        else:
            g[MONEY + seat] -= action
            g[CONTRIB + seat] += action
            pot += action
    if sealed:
        for k in range(n):
            seat = (first + k) % n
            give = min(g[offers + seat], 5 - pot)
            g[MONEY + seat] -= give
            g[CONTRIB + seat] += give
            pot += give
    g[RET] = pot
    return DONE


# --------------------------------------------------------------------------- played on their own (tests, tools)
@njit(cache=True)
def roll_die(g, p, roller, card, view, stream, codes, params, slots):
    """``roll_die_step`` to its end, the policies asked through ``decide``. Returns ``(value, error)``."""
    clear_frames(g)
    while roll_die_step(g, p, 0, roller, card, view, stream) == ASKED:
        err = answer_here(g, view, stream, codes, params, slots)
        if err:
            return 0, err
    return g[RET], 0


@njit(cache=True)
def hold_vote(g, p, card, card_player, target, plurality, view, stream, codes, params, slots):
    """``hold_vote_step`` to its end. Returns ``(weighted_yes, weighted_no, error)``, or ``(winner, 0, error)``
    for a plurality vote."""
    clear_frames(g)
    while hold_vote_step(g, p, 0, card, card_player, target, plurality, view) == ASKED:
        err = answer_here(g, view, stream, codes, params, slots)
        if err:
            return 0, 0, err
    return g[RET], g[RET2], 0


@njit(cache=True)
def contribution_round(g, p, first, pot, card, view, stream, codes, params, slots):
    """``contribution_round_step`` to its end. Returns ``(pot, error)``."""
    clear_frames(g)
    while contribution_round_step(g, p, 0, first, pot, card, view) == ASKED:
        err = answer_here(g, view, stream, codes, params, slots)
        if err:
            return pot, err
    return g[RET], 0
