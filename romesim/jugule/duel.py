"""The duel (spec 4-12 on the hex geometry of 15): kernel of ``jugule.duel``, as a state machine.

A game keeps two gladiator rows ``G[side]`` (``combat.G_*``), their item tables ``IT[side]`` (``combat.I_*``), the
game status ``st`` (``ST_*``) and a scratch table of hexes. Rule options are the int64 vector ``o``
(``combat.O_*``), never Python branches. Any terminal event (death, an appeal's result, cowardice) sets
``st[ST_REASON]``; every procedure checks it where the rules say and returns, so the duel ends at once, even in the
middle of a phase (4).

The duel is written as a state machine (``core.loop.machine_game``): ``duel_init``, ``duel_advance``,
``duel_legal``, ``duel_apply`` and ``decide_duel``. Everything about a duel in progress lives in its arrays: where
it stands is a stack of frames in ``st``, one per procedure in progress (the turn loop, a phase, an attack, an
assault, a defence …), each with the step it resumes at and the locals that live across a decision. ``advance``
plays dice and automatic rules up to the next decision, writes its state vector and returns its point, the side's
own copy ``side * N_POINTS + point``; ``decide_duel`` asks the user's function in that slot, or the point's
built-in (``policies.builtin``), ``legal`` is the site's own test, and an illegal action ends the game with the
error code of that point. So a copy of ``(st, state, G, IT, cand, row)`` is the duel at that decision
(``romesim.new_game``; ``MACHINE``).

Compile time: numba links and re-optimises a function's whole callee tree at every call level, so the procedures
are separate functions that ``duel_advance`` dispatches to, each running its steps until it calls another, returns
or asks.

The kernel plays its games with ``core.loop.block_kernel``: each is a duel from ``Duel.kernel_args()``,
``(o, G0, IT0)``, with the buffers ``duel_scratch`` makes for a block, played by ``duel_machine``, compiled apart
from the kernel and called at its address; a career plays its duels with the same ``duel_machine``.
"""
import numpy as np

from ..core import rng
from ..core.jit import njit
from ..core.loop import END, Machine, block_kernel, decider, machine_game
from ..core.policy import USER, call
from ..core.search import Search
from . import combat as cb
from .combat import (
    END_DEAD,
    END_GRAVE,
    END_STUNNED,
    F_BREAK,
    F_HESITATE,
    F_SLIP,
    F_STUMBLE,
    G_AP,
    G_AP_ALLOC,
    G_AP_SPENT,
    G_ASSAULT_LOSS,
    G_ATTACKED,
    G_BASH,
    G_C,
    G_CANCELLED,
    G_CAPTURED,
    G_CAPTURED_TURN,
    G_COULD_ATTACK,
    G_COWARD,
    G_DEALT,
    G_DUAL,
    G_ESCAPE_TRIED,
    G_FACING,
    G_FREE_TURNS,
    G_FUMBLES,
    G_HEAD_STUN,
    G_HP,
    G_HP_MAX,
    G_IMPROVISE,
    G_JAVELINS_THROWN,
    G_LASSOED,
    G_LASSOED_TURN,
    G_M,
    G_NETS,
    G_OFF_BOARD,
    G_ON_GROUND,
    G_Q,
    G_R,
    G_RANK,
    G_RES,
    G_RP_USED,
    G_SAND_NEXT,
    G_SCUTUM_ZONE,
    G_SCYTHE,
    G_SHIELD,
    G_SHIELD_READY,
    G_SMOOTH,
    G_SPEAR_THROW,
    G_STUNNED_UNTIL,
    G_TURN_LOSS,
    G_TYPE,
    I_KIND,
    I_Q,
    I_R,
    I_RANGE,
    I_STATE,
    IS_GONE,
    IS_GROUND,
    IS_HAND,
    IS_HOLDING,
    MAX_ITEMS,
    O_ALLOCATION,
    O_ARCS,
    O_ARENA_RADIUS,
    O_ATTACK_ARC,
    O_BASH_MODE,
    O_COWARD_EXCUSE_UNABLE,
    O_COWARD_TURNS,
    O_DEFENCE_ROLL,
    O_DEFENCE_TIMING,
    O_DODGE_MODE,
    O_FUMBLE_SCOPE,
    O_GROUND_CAN_ATTACK,
    O_IMPROVISED_SHIELD,
    O_INITIATIVE_TIE,
    O_JAVELIN_RESERVE_MOD,
    O_KNOCKDOWN_SPEND,
    O_LASSO_RANGE,
    O_LOCATION,
    O_MAX_TURNS,
    O_MELEE_TO_HIT,
    O_MISSILE_FUMBLE,
    O_NET_AREA,
    O_NET_ESCAPE_CMP,
    O_NET_EXIT,
    O_NET_RANGE,
    O_NETTED_CAN_ATTACK,
    O_PARRY_MISSILES,
    O_PICKUP_RANGE,
    O_PUSHBACK,
    O_REACTIVE_TURN,
    O_SAND_MODE,
    O_SCUTUM_ZONES,
    O_SCYTHE_MODE,
    O_SLIP_CANCEL,
    O_SMOOTH_HELMET,
    O_SPEAR_THROW_COST,
    O_START_DISTANCE,
    O_STEPBACK_HEX,
    O_STUMBLE_CANCEL,
    O_STUN_EFFECT,
    O_TURN_COST_OUTSIDE_ZOC,
    O_ZOC_MODE,
    O_ZOC_SLIDE_COST,
    SH_NONE,
    SH_SCUTUM,
    W_JAVELIN,
    W_LASSO,
    W_MELEE,
    W_NET,
    W_SHIELD,
    W_SPEAR,
    W_TRIDENT,
    Z_HEAD,
    Z_LEFT_LEG,
    Z_THORAX,
)
from .geometry import (
    ARC_FRONT,
    ARC_REAR,
    DQ,
    DR,
    arc_of,
    away_hexes,
    dist,
    hexsides,
    in_zoc,
    net_area,
    net_exits,
    on_board,
    right_side,
)
from .policies import (
    AK_BASH,
    AK_LASSO,
    AK_MELEE,
    AK_MISSILE,
    ATTACK_CODES,
    ATTACK_KINDS,
    D_DODGE,
    D_KIND,
    D_LOSS,
    D_PARRY,
    D_ZONE,
    H_ARCS,
    H_COUNT,
    H_MAX,
    H_PAIRS,
    H_PURPOSE,
    HP_DODGE,
    HP_NET_EXIT,
    HP_PUSH,
    HP_STEP_BACK,
    MOVE_CODES,
    N_ESCAPE,
    N_NEED,
    N_POINTS,
    N_SCYTHE,
    P_AIM,
    P_ALLOCATE,
    P_APPEAL,
    P_ATTACK,
    P_DEFEND,
    P_FREE_ASSAULT,
    P_HEX_CHOICE,
    P_KNOCKDOWN,
    P_MOVE,
    P_NET_ESCAPE,
    P_REACT,
    P_RECOVER,
    P_SCUTUM_ZONE,
    P_SPOIL,
    P_STUMBLE,
    PH_CHECKPOINT,
    PH_ENEMY_COMBAT,
    PH_ENEMY_MOVE,
    PH_OWN_COMBAT,
    PH_OWN_MOVE,
    PH_SPLIT,
    REACT_CODES,
    REACT_MASK,
    S_AP,
    S_ATTACKED,
    S_C,
    S_CAPTURED,
    S_COWARD,
    S_COWARD_TURNS,
    S_DEALT,
    S_DIST,
    S_EAP,
    S_ECAPTURED,
    S_EDEALT,
    S_EFACING_REL,
    S_EGROUND,
    S_EHP,
    S_ENEMY_ARC,
    S_ENTANGLER,
    S_ERANK,
    S_EREACH,
    S_ESHIELD,
    S_ETYPE,
    S_FACING,
    S_GROUND,
    S_HP,
    S_HP_MAX,
    S_IN_ZOC,
    S_JAVELINS,
    S_LASSOED,
    S_M,
    S_MY_ARC,
    S_NET,
    S_PHASE,
    S_R,
    S_RANK,
    S_REACH,
    S_REL_A,
    S_REL_B,
    S_SHIELD,
    S_SIDE,
    S_TURN,
    S_TYPE,
    S_X,
    STATE_SIZE,
    builtin,
)

# game status
(ST_TURN, ST_REASON, ST_LOSER, ST_ERROR, ST_PENDING, ST_PREV_ACTIVE, ST_PUSHES, ST_PUSH0) = range(8)
MAX_PUSHES = 16
# how a duel ended (12.5); ST_LOSER is the side that lost (-1: none)
R_RUNNING, R_KILLED, R_SPARED, R_EXECUTED, R_COWARD, R_DOUBLE_COWARD, R_UNFINISHED, R_ERROR = range(8)

# outcome columns, in Duel.metrics order
(M_WIN, M_LOSS, M_BOTH_OUT, M_UNFINISHED, M_BY_DEATH, M_MERCY_GRANTED, M_MERCY_REFUSED, M_BY_COWARDICE, M_TURNS,
 M_HP_A, M_HP_B, M_DEALT_A, M_DEALT_B, M_FUMBLES_A, M_FUMBLES_B, M_NETS_A, M_ALLOC_A, M_ALLOC_B, M_SPENT_A,
 M_SPENT_B, M_OFF_BOARD, N_METRICS) = range(22)

SCRATCH = 16  # rows of the hex scratch table

# ------------------------------------------------------------------------------------------------ small helpers
@njit(cache=True)
def running(st):
    return st[ST_REASON] == R_RUNNING


@njit(cache=True)
def finish(st, reason, loser):
    if st[ST_REASON] == R_RUNNING:
        st[ST_REASON] = reason
        st[ST_LOSER] = loser


@njit(cache=True)
def pay(G, side, pool, cost):
    G[side, pool] -= cost
    G[side, G_AP_SPENT] += cost
    if pool == G_RES:
        G[side, G_RP_USED] += cost


@njit(cache=True)
def helpless(o, g):
    """Can take no action at all: captured (JUG-A37) or stunned under ``immobilised_until_end_of_next_turn``."""
    return g[G_CAPTURED] == 1 or g[G_STUNNED_UNTIL] > 0


@njit(cache=True)
def occupied(G, q, r):
    return (G[0, G_Q] == q and G[0, G_R] == r) or (G[1, G_Q] == q and G[1, G_R] == r)


@njit(cache=True)
def check_position(o, G):
    for s in range(2):
        if not on_board(o[O_ARENA_RADIUS], G[s, G_Q], G[s, G_R]):
            G[s, G_OFF_BOARD] = 1
    if G[0, G_Q] == G[1, G_Q] and G[0, G_R] == G[1, G_R]:
        G[0, G_OFF_BOARD] = 1


@njit(cache=True)
def zoc_of(o, G, me, q, r):
    """Is hex (q, r) in the ZOC of ``me``'s enemy?"""
    e = 1 - me
    return in_zoc(o[O_ZOC_MODE], o[O_ARCS], q, r, G[e, G_Q], G[e, G_R], G[e, G_FACING])


@njit(cache=True)
def arc_from(o, G, target, q, r):
    """Arc of ``target`` in which hex (q, r) lies."""
    return arc_of(o[O_ARCS], q - G[target, G_Q], r - G[target, G_R], G[target, G_FACING])


@njit(cache=True)
def in_hand(IT, side, kind):
    for s in range(MAX_ITEMS):
        if IT[side, s, I_KIND] == kind and IT[side, s, I_STATE] == IS_HAND:
            return s
    return -1


@njit(cache=True)
def count_in_hand(IT, side, kind):
    n = 0
    for s in range(MAX_ITEMS):
        if IT[side, s, I_KIND] == kind and IT[side, s, I_STATE] == IS_HAND:
            n += 1
    return n


@njit(cache=True)
def melee_in_hand(IT, side):
    for s in range(MAX_ITEMS):
        if IT[side, s, I_STATE] == IS_HAND and W_MELEE[IT[side, s, I_KIND]] == 1:
            return True
    return False


@njit(cache=True)
def other_weapon(IT, side, slot):
    """JUG-A56/A57: another usable weapon in hand (any attacking item but the shield)."""
    for s in range(MAX_ITEMS):
        k = IT[side, s, I_KIND]
        if s != slot and IT[side, s, I_STATE] == IS_HAND and k != W_SHIELD:
            return True
    return False


@njit(cache=True)
def reach(IT, G, side):
    best = 0
    for s in range(MAX_ITEMS):
        if IT[side, s, I_STATE] == IS_HAND:
            best = max(best, IT[side, s, I_RANGE])
    if best == 0 and G[side, G_IMPROVISE] == 1 and G[side, G_SHIELD_READY] == 1:
        best = 1
    return best


@njit(cache=True)
def can_parry(o, G, IT, side):
    """7, JUG-A17: 2 RP, a usable melee weapon or a shield in hand, not lassoed, not captured."""
    g = G[side]
    if g[G_RES] < 2 or g[G_LASSOED] == 1 or helpless(o, g):
        return False
    return melee_in_hand(IT, side) or (g[G_SHIELD] != SH_NONE and g[G_SHIELD_READY] == 1)

# ------------------------------------------------------------------------------------------------ state vector
@njit(cache=True)
def fill_state(state, o, G, IT, side, phase, turn):
    """The header every policy sees (``policies.S_*``); point-specific entries from ``S_X`` are zeroed."""
    state[:] = 0
    e = 1 - side
    g, h = G[side], G[e]
    state[S_SIDE], state[S_TURN], state[S_PHASE] = side, turn, phase
    state[S_HP], state[S_HP_MAX], state[S_AP] = g[G_HP], g[G_HP_MAX], g[G_AP]
    state[S_M], state[S_C], state[S_R] = g[G_M], g[G_C], g[G_RES]
    state[S_EHP], state[S_EAP] = h[G_HP], h[G_AP]
    state[S_DIST] = dist(g[G_Q], g[G_R], h[G_Q], h[G_R])
    state[S_MY_ARC] = arc_from(o, G, e, g[G_Q], g[G_R])
    state[S_ENEMY_ARC] = arc_from(o, G, side, h[G_Q], h[G_R])
    state[S_GROUND], state[S_CAPTURED], state[S_LASSOED] = g[G_ON_GROUND], g[G_CAPTURED], g[G_LASSOED]
    state[S_EGROUND], state[S_ECAPTURED] = h[G_ON_GROUND], h[G_CAPTURED]
    state[S_DEALT], state[S_EDEALT] = g[G_DEALT], h[G_DEALT]
    state[S_RANK], state[S_ERANK] = g[G_RANK], h[G_RANK]
    state[S_TYPE], state[S_ETYPE] = g[G_TYPE], h[G_TYPE]
    state[S_COWARD], state[S_ATTACKED] = g[G_COWARD], g[G_ATTACKED]
    state[S_REACH], state[S_EREACH] = reach(IT, G, side), reach(IT, G, e)
    state[S_SHIELD] = g[G_SHIELD] if g[G_SHIELD_READY] == 1 else 0
    state[S_ESHIELD] = h[G_SHIELD] if h[G_SHIELD_READY] == 1 else 0
    state[S_IN_ZOC] = 1 if zoc_of(o, G, side, g[G_Q], g[G_R]) else 0
    dq, dr = h[G_Q] - g[G_Q], h[G_R] - g[G_R]
    for _ in range(g[G_FACING]):
        dq, dr = -dr, dq + dr
    state[S_REL_A], state[S_REL_B] = dq, dr
    state[S_EFACING_REL] = (h[G_FACING] - g[G_FACING]) % 6
    state[S_JAVELINS] = count_in_hand(IT, side, W_JAVELIN)
    state[S_NET] = 1 if in_hand(IT, side, W_NET) >= 0 else 0
    state[S_ENTANGLER] = 1 if in_hand(IT, e, W_NET) >= 0 or in_hand(IT, e, W_LASSO) >= 0 else 0
    state[S_COWARD_TURNS] = o[O_COWARD_TURNS]
    state[S_FACING] = g[G_FACING]

# ------------------------------------------------------------------------------------------------ mercy
@njit(cache=True)
def appeal(stream, o, G, st, side):
    """12.2: the fate die; spared on natural != 1 and natural + mod >= 5 (JUG-A61), executed otherwise."""
    n = cb.d6(stream)
    if n >= cb.appeal_needs(o, G[side]):
        finish(st, R_SPARED, side)
    else:
        finish(st, R_EXECUTED, side)


@njit(cache=True, inline="always")
def assault_checks(stream, o, G, st, target):
    """12.1 after a whole assault: death ends the duel; a stun or a grave turn forces an appeal (12.3)."""
    result = cb.after_assault(o, G[target])
    if result == END_DEAD:
        finish(st, R_KILLED, target)
    elif result == END_STUNNED:
        if o[O_STUN_EFFECT] == 1:
            G[target, G_STUNNED_UNTIL] = st[ST_TURN] + 1  # JUG-A59: immobilised until the end of next turn
        else:
            appeal(stream, o, G, st, target)
    elif result == END_GRAVE:
        appeal(stream, o, G, st, target)

# ------------------------------------------------------------------------------------------------ reactions
@njit(cache=True, inline="always")
def stepback_hexes(o, G, side, cand):
    """JUG-A8: the rear hex (``any_away``: any neighbour farther from the enemy), free, on the board and
    outside the enemy's ZOC."""
    e = 1 - side
    q, r, f = G[side, G_Q], G[side, G_R], G[side, G_FACING]
    n = 0
    for k in range(6):
        if o[O_STEPBACK_HEX] == 0 and k != (f + 3) % 6:
            continue
        tq, tr = q + DQ[k], r + DR[k]
        if o[O_STEPBACK_HEX] == 1 and dist(tq, tr, G[e, G_Q], G[e, G_R]) <= dist(q, r, G[e, G_Q], G[e, G_R]):
            continue
        if occupied(G, tq, tr) or not on_board(o[O_ARENA_RADIUS], tq, tr) or zoc_of(o, G, side, tq, tr):
            continue
        cand[n, 0], cand[n, 1] = tq, tr
        n += 1
    return n

# ------------------------------------------------------------------------------------------------ movement
@njit(cache=True)
def step_cost(o, G, side, tq, tr):
    """15.3 (JUG-A6): 1 MP from outside the enemy ZOC; 2 MP to leave it (the step must end outside); -1 when
    illegal (the enemy's hex, off the board)."""
    e = 1 - side
    if (tq == G[e, G_Q] and tr == G[e, G_R]) or not on_board(o[O_ARENA_RADIUS], tq, tr):
        return -1
    if zoc_of(o, G, side, G[side, G_Q], G[side, G_R]):
        return -1 if zoc_of(o, G, side, tq, tr) else 2
    return 1


@njit(cache=True)
def turn_cost(o, G, side):
    """JUG-A6: 1 MP per hexside in the enemy ZOC, free outside (``turn_cost_outside_zoc``)."""
    return 1 if zoc_of(o, G, side, G[side, G_Q], G[side, G_R]) else o[O_TURN_COST_OUTSIDE_ZOC]


@njit(cache=True, inline="always")
def move_mask(o, G, IT, side, state, turn):
    """Legal D6 actions (``policies.MOVE_CODES``) written from ``state[S_X]``; returns how many."""
    g = G[side]
    m = g[G_M]
    base = S_X
    state[base] = 1
    n = 0
    if helpless(o, g) and g[G_CAPTURED] == 0:
        return 0
    entangled = (g[G_CAPTURED] == 1 and g[G_CAPTURED_TURN] < turn) or (
        g[G_LASSOED] == 1 and g[G_LASSOED_TURN] < turn)
    if entangled and g[G_ESCAPE_TRIED] == 0:
        for k in range(1, min(5, m) + 1):
            state[base + 13 + k] = 1  # 20 + k
            n += 1
    if g[G_CAPTURED] == 1:
        return n
    if g[G_ON_GROUND] == 1:
        if m >= 2:
            state[base + 5] = 1
            n += 1
        return n
    q, r, f = g[G_Q], g[G_R], g[G_FACING]
    for i, k in ((1, f), (2, (f + 3) % 6)):
        c = step_cost(o, G, side, q + DQ[k], r + DR[k])
        if c > 0 and c <= m:
            state[base + i] = 1
            n += 1
    tc = turn_cost(o, G, side)
    if tc <= m and (tc > 0 or g[G_FREE_TURNS] < 6):
        # six free turns in a row reach every facing: more would only loop
        state[base + 3] = 1
        state[base + 4] = 1
        n += 2
    for s in range(MAX_ITEMS):
        if IT[side, s, I_STATE] != IS_GROUND:
            continue
        cost = 2 if IT[side, s, I_KIND] == W_NET else 1
        if cost <= m and dist(q, r, IT[side, s, I_Q], IT[side, s, I_R]) <= o[O_PICKUP_RANGE]:
            state[base + 6 + s] = 1
            n += 1
    if o[O_ZOC_SLIDE_COST] > 0 and m >= o[O_ZOC_SLIDE_COST] and zoc_of(o, G, side, q, r):
        e = 1 - side
        for k in range(6):
            tq, tr = q + DQ[k], r + DR[k]
            if (tq == G[e, G_Q] and tr == G[e, G_R]) or not on_board(o[O_ARENA_RADIUS], tq, tr):
                continue
            if zoc_of(o, G, side, tq, tr):
                state[base + 19 + k] = 1
                n += 1
    return n


@njit(cache=True, inline="always")
def escape_roll(stream, o, G, IT, side, k):
    """10.3 (JUG-A38): free if d6 < k (``le``: d6 <= k); the smooth helmet adds 1 under ``dodge_and_escape``."""
    g = G[side]
    g[G_ESCAPE_TRIED] = 1
    if g[G_SMOOTH] == 1 and o[O_SMOOTH_HELMET] == 1:
        k += 1
    die = cb.d6(stream)
    if not (die <= k if o[O_NET_ESCAPE_CMP] == 1 else die < k):
        return
    e = 1 - side
    if g[G_CAPTURED] == 1:
        g[G_CAPTURED] = 0
        s = in_state(IT, e, W_NET, IS_HOLDING)
        if s >= 0:
            IT[e, s, I_STATE], IT[e, s, I_Q], IT[e, s, I_R] = IS_GROUND, g[G_Q], g[G_R]
    else:
        g[G_LASSOED] = 0
        s = in_state(IT, e, W_LASSO, IS_HOLDING)
        if s >= 0:
            IT[e, s, I_STATE] = IS_HAND  # the lasso comes back to the Laquearius (JUG-A52)


@njit(cache=True)
def in_state(IT, side, kind, state):
    for s in range(MAX_ITEMS):
        if IT[side, s, I_KIND] == kind and IT[side, s, I_STATE] == state:
            return s
    return -1

# ------------------------------------------------------------------------------------------------ attacks
@njit(cache=True)
def attack_cost(o, kind, throw):
    if throw:
        return o[O_SPEAR_THROW_COST]
    return 1 if kind == W_JAVELIN else 2


@njit(cache=True)
def attack_mask(o, G, IT, side, state, free):
    """Legal D8/D14 attacks (``policies.ATTACK_CODES``) from ``state[S_X]``, with the item kinds after them.

    8.1, 10: not cancelled, C >= cost (nothing for a free assault, JUG-A54), target in the front arc (JUG-A9)
    and in range; not captured (JUG-A37), not helpless, on the ground only with ``ground_can_attack`` (JUG-A25).
    """
    g, e = G[side], 1 - side
    h = G[e]
    base = S_X
    state[base] = 1
    for s in range(MAX_ITEMS):
        state[ATTACK_KINDS + s] = IT[side, s, I_KIND] if IT[side, s, I_STATE] == IS_HAND else -1
    if g[G_CANCELLED] == 1 or g[G_STUNNED_UNTIL] > 0:
        return 0
    if g[G_CAPTURED] == 1 and o[O_NETTED_CAN_ATTACK] == 0:
        return 0
    if g[G_ON_GROUND] == 1 and o[O_GROUND_CAN_ATTACK] == 0:
        return 0
    d = dist(g[G_Q], g[G_R], h[G_Q], h[G_R])
    if o[O_ATTACK_ARC] == 0 and arc_from(o, G, side, h[G_Q], h[G_R]) != ARC_FRONT:
        return 0
    c = 1 << 30 if free else g[G_C]
    n = 0
    for s in range(MAX_ITEMS):
        if IT[side, s, I_STATE] != IS_HAND:
            continue
        kind = IT[side, s, I_KIND]
        ok = False
        if W_MELEE[kind] == 1:
            ok = 1 <= d <= IT[side, s, I_RANGE] and c >= 2
        elif kind == W_NET:
            ok = 1 <= d <= o[O_NET_RANGE] and c >= 2 and h[G_CAPTURED] == 0
        elif kind == W_LASSO:
            ok = 1 <= d <= o[O_LASSO_RANGE] and c >= 2 and h[G_LASSOED] == 0
        elif kind == W_JAVELIN:
            ok = 2 <= d <= cb.javelin_range(o, kind) and c >= 1 and g[G_JAVELINS_THROWN] < 4
        if ok:
            state[base + 1 + s] = 1
            n += 1
        if kind == W_SPEAR and g[G_SPEAR_THROW] == 1 and 2 <= d <= 4 and c >= o[O_SPEAR_THROW_COST]:
            state[base + 1 + MAX_ITEMS + s] = 1
            n += 1
    shield = g[G_SHIELD] != SH_NONE and g[G_SHIELD_READY] == 1
    if shield and g[G_BASH] == 1 and d == 1 and c >= 2:
        state[base + 1 + 2 * MAX_ITEMS] = 1
        n += 1
    if shield and g[G_IMPROVISE] == 1 and d == 1 and c >= 2 and (
            o[O_IMPROVISED_SHIELD] == 1 or not melee_in_hand(IT, side)):
        state[base + 2 + 2 * MAX_ITEMS] = 1
        n += 1
    return n


@njit(cache=True)
def dodge_hexes(o, G, side, attacker, rng_max, cand):
    """15.5 / JUG-A15: the first hex of a dodge straight away from the attacker (0 when impossible). With
    ``dodge_mode = per_hex`` every step to get out of reach must exist; returns (count, RP cost)."""
    if o[O_DODGE_MODE] == 1:
        return 1, 2  # in place
    aq, ar = G[attacker, G_Q], G[attacker, G_R]
    n = 0
    tmp = np.zeros((2, 2), np.int64)
    m = away_hexes(aq, ar, G[side, G_Q], G[side, G_R], tmp)
    for i in range(m):
        if on_board(o[O_ARENA_RADIUS], tmp[i, 0], tmp[i, 1]) and not occupied(G, tmp[i, 0], tmp[i, 1]):
            cand[n, 0], cand[n, 1] = tmp[i, 0], tmp[i, 1]
            n += 1
    if o[O_DODGE_MODE] == 0:
        return n, 2
    hexes = rng_max - dist(aq, ar, G[side, G_Q], G[side, G_R]) + 1
    if n > 0 and hexes > 1:
        # the rest of the path straight away must exist too (both branches of a diagonal move alike)
        q, r = cand[0, 0], cand[0, 1]
        for _ in range(hexes - 1):
            m = away_hexes(aq, ar, q, r, tmp)
            if m == 0 or not on_board(o[O_ARENA_RADIUS], tmp[0, 0], tmp[0, 1]):
                return 0, hexes
            q, r = tmp[0, 0], tmp[0, 1]
    return n, max(1, hexes)


@njit(cache=True, inline="always")
def is_legal(action_codes, n, action, state):
    """Whether ``action`` is one of the first ``n`` action codes and the state's legal mask allows it."""
    for i in range(n):
        if action_codes[i] == action:
            return state[S_X + i] != 0
    return False


@njit(cache=True)
def expected_loss(o, G, attacker, target, kind, zone, arc):
    """Mean HP loss of a hit that gets through (fumbles count 0), rounded up: what ``defend`` policies see."""
    if zone < 0:
        return 0
    immob = cb.immobilised(o, G[target])
    total = 0
    for n in range(2, 7):
        total += cb.hit_damage(o, G[attacker], G[target], kind, zone, n, arc, immob)
    return (total + 5) // 6


@njit(cache=True)
def queue_push(o, st, pusher, target):
    """10.2 (JUG-A34): one push per successful trident or spear hit, applied when the phase ends."""
    if o[O_PUSHBACK] == 2 or st[ST_PUSHES] >= MAX_PUSHES:
        return
    if o[O_PUSHBACK] == 1:
        for i in range(st[ST_PUSHES]):
            if st[ST_PUSH0 + 2 * i] == pusher:
                return
    i = st[ST_PUSHES]
    st[ST_PUSH0 + 2 * i], st[ST_PUSH0 + 2 * i + 1] = pusher, target
    st[ST_PUSHES] += 1


@njit(cache=True)
def shield_slot(IT, side):
    return in_hand(IT, side, W_SHIELD)

# ------------------------------------------------------------------------------------------------ turn
@njit(cache=True, inline="always")
def initiative(stream, o, st):
    """4 B (JUG-A3): each rolls a d6, the higher is active; ties rerolled (``keep_previous_active``: the previous
    active player keeps it)."""
    while True:
        x, y = cb.d6(stream), cb.d6(stream)
        if x != y:
            return 0 if x > y else 1
        if o[O_INITIATIVE_TIE] == 1 and st[ST_PREV_ACTIVE] >= 0:
            return st[ST_PREV_ACTIVE]


@njit(cache=True, inline="always")
def cowardice(o, G, st):
    """12.6 (JUG-A62, A57): a turn without an attack counts (``coward_excuse_unable``: unless he could not
    attack); at ``coward_turns`` he is executed; both at once: both executed, nobody wins."""
    out = 0
    for s in range(2):
        g = G[s]
        if g[G_ATTACKED] == 1:
            g[G_COWARD] = 0
        elif not (o[O_COWARD_EXCUSE_UNABLE] == 1 and g[G_COULD_ATTACK] == 0):
            g[G_COWARD] += 1
        if g[G_COWARD] >= o[O_COWARD_TURNS]:
            out |= 1 << s
    if out == 3:
        finish(st, R_DOUBLE_COWARD, -1)
    elif out:
        finish(st, R_COWARD, 0 if out == 1 else 1)


@njit(cache=True, inline="always")
def setup(o, G, IT, G0, IT0):
    """2, 15.1 (JUG-A1): A at (0,0) facing 0, B at distance 2 (or 3) facing 3; all weapons in hand."""
    # copied entry by entry: a slice assignment compiles numba's message for arrays of other shapes
    for side in range(2):
        for k in range(G.shape[1]):
            G[side, k] = G0[side, k]
        for i in range(IT.shape[1]):
            for k in range(IT.shape[2]):
                IT[side, i, k] = IT0[side, i, k]
    G[0, G_Q], G[0, G_R], G[0, G_FACING] = 0, 0, 0
    G[1, G_Q], G[1, G_R], G[1, G_FACING] = o[O_START_DISTANCE], 0, 3


@njit(cache=True, inline="always")
def score(G, st, row):
    """The outcome row (``Duel.metrics``) from A's side."""
    row[:] = 0
    reason, loser = st[ST_REASON], st[ST_LOSER]
    if reason == R_UNFINISHED:
        row[M_UNFINISHED] = 1
    elif reason == R_DOUBLE_COWARD:
        row[M_BOTH_OUT] = 1
        row[M_BY_COWARDICE] = 1
    else:
        row[M_WIN] = 1 if loser == 1 else 0
        row[M_LOSS] = 1 if loser == 0 else 0
        row[M_BY_DEATH] = 1 if reason == R_KILLED else 0
        row[M_MERCY_GRANTED] = 1 if reason == R_SPARED else 0
        row[M_MERCY_REFUSED] = 1 if reason == R_EXECUTED else 0
        row[M_BY_COWARDICE] = 1 if reason == R_COWARD else 0
    row[M_TURNS] = st[ST_TURN]
    row[M_HP_A], row[M_HP_B] = max(0, G[0, G_HP]), max(0, G[1, G_HP])
    row[M_DEALT_A], row[M_DEALT_B] = G[0, G_DEALT], G[1, G_DEALT]
    row[M_FUMBLES_A], row[M_FUMBLES_B] = G[0, G_FUMBLES], G[1, G_FUMBLES]
    row[M_NETS_A] = G[0, G_NETS]
    row[M_ALLOC_A], row[M_ALLOC_B] = G[0, G_AP_ALLOC], G[1, G_AP_ALLOC]
    row[M_SPENT_A], row[M_SPENT_B] = G[0, G_AP_SPENT], G[1, G_AP_SPENT]
    row[M_OFF_BOARD] = 1 if G[0, G_OFF_BOARD] or G[1, G_OFF_BOARD] else 0

# ------------------------------------------------------------------------------------------------ the machine
# The duel as a state machine (``core.loop.machine_game``). Where the duel stands lives in ``st`` beside the game
# status: a stack of frames, one per procedure in progress (the duel's turn loop at the bottom, then a phase, an
# attack, an assault, a defence …). A frame holds its procedure (``PR_*``), the step it resumes at, and the
# locals that live across a decision. A procedure runs its steps until it calls another (``call``: the callee's
# frame on top, the caller's step set to where it goes on once the callee has returned its value in ``ST_RET``),
# returns (``done``), or posts a decision (``ask``: its state vector written, the point returned by ``advance``,
# the step set to the one that reads the action ``apply`` stored). Nothing with side effects happens in a step
# before its ask, so a copy of the arrays at a decision is the duel at that decision.
FRAME = 16  # a frame: procedure, step, then up to 14 locals
MAX_DEPTH = 8  # duel > combat phase > attack > bash > assault > defence or fumble: 6
(ST_SP, ST_POINT, ST_ACTION, ST_RET, ST_HEXES, ST_PARRY, ST_DODGE) = range(ST_PUSH0 + 2 * MAX_PUSHES,
                                                                        ST_PUSH0 + 2 * MAX_PUSHES + 7)
ST_FRAMES = ST_DODGE + 1
ST_SIZE = ST_FRAMES + MAX_DEPTH * FRAME
# what ``ask`` leaves for ``legal`` besides the state vector's masks: the hex choice's count (D16); the parry
# and dodge a defence allows (D9); the net's escape and scythe answers (D10)
ST_ESCAPE, ST_SCYTHE = ST_PARRY, ST_DODGE
NEXT = -2  # a procedure's answer when the duel goes on without a decision
F_PROC, F_STEP = 0, 1
(PR_DUEL, PR_VOLUNTARY, PR_ALLOCATE, PR_MOVEMENT, PR_REACT, PR_COMBAT, PR_RESOLVE, PR_MELEE, PR_DEFENCE, PR_FUMBLE,
 PR_KNOCKDOWN, PR_BASH, PR_THROW, PR_NET, PR_LASSO) = range(15)
L0 = 2  # the first local of a frame


@njit(cache=True)
def push(st, proc):
    """A new frame for ``proc`` on top of the stack, at its first step, its locals zeroed; returns its base."""
    f = ST_FRAMES + st[ST_SP] * FRAME
    st[ST_SP] += 1
    st[f + F_PROC] = proc
    for k in range(1, FRAME):
        st[f + k] = 0
    return f


@njit(cache=True)
def resume_at(st, f, step):
    """The caller's frame ``f`` goes on at ``step`` once its callee returns; the duel goes on."""
    st[f + F_STEP] = step
    return NEXT


@njit(cache=True)
def done(st, value):
    """The procedure on top returns ``value`` (``ST_RET``) to its caller."""
    st[ST_SP] -= 1
    st[ST_RET] = value
    return NEXT


@njit(cache=True)
def ask(st, f, step, side, point):
    """Post ``side``'s decision ``point`` (its state vector written); frame ``f`` reads the action at ``step``."""
    st[f + F_STEP] = step
    st[ST_POINT] = side * N_POINTS + point
    return st[ST_POINT]


@njit(cache=True)
def answer(st):
    """The action taken at the decision the procedure on top posted."""
    return st[ST_ACTION]


@njit(cache=True)
def ask_hex(o, G, IT, st, state, cand, f, step, side, n, purpose):
    """D16: the moving gladiator picks one of ``n`` candidate hexes (rows of ``cand``); frame ``f`` reads its index
    at ``step``. A lone candidate is taken without asking."""
    if n == 1:
        st[ST_ACTION] = 0
        return resume_at(st, f, step)
    fill_state(state, o, G, IT, side, PH_CHECKPOINT, st[ST_TURN])
    state[H_COUNT], state[H_PURPOSE] = n, purpose
    g, h = G[side], G[1 - side]
    for i in range(min(n, H_MAX)):
        state[H_PAIRS + 2 * i], state[H_PAIRS + 2 * i + 1] = cand[i, 0], cand[i, 1]
        # the mover keeps his facing (15.5, 15.6, 10.3): where the enemy will lie from that hex
        state[H_ARCS + i] = arc_of(o[O_ARCS], h[G_Q] - cand[i, 0], h[G_R] - cand[i, 1], g[G_FACING])
    st[ST_HEXES] = n
    return ask(st, f, step, side, P_HEX_CHOICE)


@njit(cache=True)
def away_candidates(o, G, mover, away_from, cand):
    """15.5, 15.6: the hexes one step straight away from ``away_from`` that lie on the board (rows of ``cand``);
    none when both lie off it (he stays)."""
    m = away_hexes(G[away_from, G_Q], G[away_from, G_R], G[mover, G_Q], G[mover, G_R], cand)
    k = 0
    for i in range(m):
        if on_board(o[O_ARENA_RADIUS], cand[i, 0], cand[i, 1]):
            cand[k, 0], cand[k, 1] = cand[i, 0], cand[i, 1]
            k += 1
    return k


@njit(cache=True)
def move_to(o, G, side, cand, i):
    G[side, G_Q], G[side, G_R] = cand[i, 0], cand[i, 1]
    check_position(o, G)


# the calls of procedures with arguments: the callee's frame and its first locals
@njit(cache=True)
def call_voluntary(st, side, checkpoint):
    f = push(st, PR_VOLUNTARY)
    st[f + L0], st[f + L0 + 1] = side, checkpoint
    return NEXT


@njit(cache=True)
def call_react(st, side, entered, turning):
    f = push(st, PR_REACT)
    st[f + L0], st[f + L0 + 1], st[f + L0 + 2] = side, entered, turning
    return NEXT


@njit(cache=True)
def call_side(st, proc, side):
    f = push(st, proc)
    st[f + L0] = side
    return NEXT


@njit(cache=True)
def call_attack(st, proc, a, d, slot):
    """An attack procedure on ``d`` with item ``slot`` of ``a`` (``resolve``: the action, ``free`` in L0 + 2)."""
    f = push(st, proc)
    st[f + L0], st[f + L0 + 1], st[f + L0 + 2] = a, d, slot
    return NEXT


@njit(cache=True)
def call_melee(st, a, d, kind, slot, ak):
    f = push(st, PR_MELEE)
    st[f + L0], st[f + L0 + 1], st[f + L0 + 2], st[f + L0 + 3], st[f + L0 + 4] = a, d, kind, slot, ak
    return NEXT


@njit(cache=True)
def call_defence(st, attacker, target, kind, zone, arc, ak, rng_max):
    f = push(st, PR_DEFENCE)
    st[f + L0], st[f + L0 + 1], st[f + L0 + 2], st[f + L0 + 3] = attacker, target, kind, zone
    st[f + L0 + 4], st[f + L0 + 5], st[f + L0 + 6] = arc, ak, rng_max
    return NEXT


@njit(cache=True)
def call_fumble(st, side, slot, thrown):
    f = push(st, PR_FUMBLE)
    st[f + L0], st[f + L0 + 1], st[f + L0 + 2] = side, slot, thrown
    return NEXT


# ------------------------------------------------------------------------------------------------ appeals
@njit(cache=True)
def voluntary(stream, o, G, IT, st, state, f):
    """D3 at a checkpoint (12.4): appeals are allowed at any time (JUG-A60; ``appeal_requires_wound``: HP <= 5)."""
    side, checkpoint = st[f + L0], st[f + L0 + 1]
    if st[f + F_STEP] == 0:
        if not running(st):
            return done(st, 0)
        if o[cb.O_APPEAL_REQUIRES_WOUND] == 1 and G[side, G_HP] > 5:
            return done(st, 0)
        fill_state(state, o, G, IT, side, PH_CHECKPOINT, st[ST_TURN])
        state[S_X], state[S_X + 1] = checkpoint, cb.appeal_needs(o, G[side])
        return ask(st, f, 1, side, P_APPEAL)
    if answer(st) == 1:
        appeal(stream, o, G, st, side)
    return done(st, 0)


# ------------------------------------------------------------------------------------------------ reaction
RC_SIDE, RC_ENTERED, RC_TURNING, RC_ROUND, RC_BACK = range(L0, L0 + 5)


@njit(cache=True)
def react(stream, o, G, IT, st, state, cand, f):
    """D7 (7, JUG-A7, A8): reserve reactions to the enemy's move: turn k hexsides for k RP, or step back for
    2 RP when the enemy just entered the ZOC; up to three. Not on the ground, not captured (JUG-A25, A37)."""
    side = st[f + RC_SIDE]
    g = G[side]
    step = st[f + F_STEP]
    while True:
        if step == 0:
            if st[f + RC_ROUND] >= 3 or not running(st) or helpless(o, g) or g[G_ON_GROUND] == 1:
                return done(st, 0)
            entered, turning = st[f + RC_ENTERED] == 1, st[f + RC_TURNING] == 1
            fill_state(state, o, G, IT, side, PH_ENEMY_MOVE, st[ST_TURN])
            state[S_X] = 1 if entered else 0
            n_back = stepback_hexes(o, G, side, cand) if entered else 0
            st[f + RC_BACK] = n_back
            any_legal = False
            state[REACT_MASK] = 1
            for fc in range(6):
                cost = hexsides(g[G_FACING], fc)
                if turning and fc != g[G_FACING] and cost <= g[G_RES]:
                    state[REACT_MASK + 1 + fc] = 1
                    any_legal = True
            if n_back > 0 and g[G_RES] >= 2:
                state[REACT_MASK + 7] = 1
                any_legal = True
            if not any_legal:
                return done(st, 0)
            return ask(st, f, 1, side, P_REACT)
        if step == 1:
            action = answer(st)
            if action == 0:
                return done(st, 0)
            if action == 7:
                return ask_hex(o, G, IT, st, state, cand, f, 2, side, st[f + RC_BACK], HP_STEP_BACK)
            pay(G, side, G_RES, hexsides(g[G_FACING], action - 1))
            g[G_FACING] = action - 1
        else:  # the step back's hex chosen
            pay(G, side, G_RES, 2)
            move_to(o, G, side, cand, answer(st))
            st[f + RC_ENTERED] = 0
        st[f + RC_ROUND] += 1
        step = 0


# ------------------------------------------------------------------------------------------------ movement phase
@njit(cache=True)
def movement_phase(stream, o, G, IT, st, state, cand, f):
    """4 C/E, 5, 6: the mover acts until he passes; after each step the reactor may react (7)."""
    mover = st[f + L0]
    reactor = 1 - mover
    g = G[mover]
    turn = st[ST_TURN]
    step = st[f + F_STEP]
    if step == 0:
        g[G_FREE_TURNS] = 0
    elif step == 2:
        action = answer(st)
        if action == 0:
            return movement_end(o, st, f, reactor)
        q, r, fc = g[G_Q], g[G_R], g[G_FACING]
        if action == 1 or action == 2 or action >= 30:
            if action >= 30:
                k = action - 30
                cost = o[O_ZOC_SLIDE_COST]
            else:
                k = fc if action == 1 else (fc + 3) % 6
                cost = step_cost(o, G, mover, q + DQ[k], r + DR[k])
            pay(G, mover, G_M, cost)
            g[G_Q], g[G_R] = q + DQ[k], r + DR[k]
            g[G_FREE_TURNS] = 0
            check_position(o, G)
            # JUG-A8: the step ends in the reactor's ZOC and did not start there
            entered = zoc_of(o, G, mover, g[G_Q], g[G_R]) and not zoc_of(o, G, mover, q, r)
            turning = o[O_REACTIVE_TURN] != 1
            if turning or entered:
                resume_at(st, f, 1)
                return call_react(st, reactor, 1 if entered else 0, 1 if turning else 0)
        elif action == 3 or action == 4:
            cost = turn_cost(o, G, mover)
            pay(G, mover, G_M, cost)
            if cost == 0:
                g[G_FREE_TURNS] += 1
            g[G_FACING] = (fc + 1) % 6 if action == 3 else (fc + 5) % 6
        elif action == 5:
            pay(G, mover, G_M, 2)
            g[G_ON_GROUND] = 0
        elif action < 20:
            s = action - 10
            pay(G, mover, G_M, 2 if IT[mover, s, I_KIND] == W_NET else 1)
            IT[mover, s, I_STATE] = IS_HAND
            if IT[mover, s, I_KIND] == W_SHIELD:
                g[G_SHIELD_READY] = 1
        else:
            k = action - 20
            pay(G, mover, G_M, k)
            escape_roll(stream, o, G, IT, mover, k)
    # the next action
    if not running(st):
        return movement_end(o, st, f, reactor)
    fill_state(state, o, G, IT, mover, PH_OWN_MOVE, turn)
    if move_mask(o, G, IT, mover, state, turn) == 0:
        return movement_end(o, st, f, reactor)
    return ask(st, f, 2, mover, P_MOVE)


@njit(cache=True)
def movement_end(o, st, f, reactor):
    """JUG-A7 ``after_movement``: the reactor may turn once the mover has passed."""
    done(st, 0)
    if running(st) and o[O_REACTIVE_TURN] == 1:
        return call_react(st, reactor, 0, 1)
    return NEXT


# ------------------------------------------------------------------------------------------------ defence
DF_ATTACKER, DF_TARGET, DF_KIND, DF_ZONE, DF_ARC, DF_AK, DF_RANGE, DF_ACTION, DF_STEPS, DF_STEP = range(L0, L0 + 10)


@njit(cache=True)
def defence(stream, o, G, IT, st, state, cand, f):
    """D9 (7, JUG-A14…A17): parry (2 RP) or dodge; returns 1 when the attack is stopped. Not from the rear, not
    when helpless. A failed ``defence_roll`` spends the RP anyway."""
    attacker, target = st[f + DF_ATTACKER], st[f + DF_TARGET]
    g = G[target]
    step = st[f + F_STEP]
    if step == 0:
        kind, zone, arc, ak = st[f + DF_KIND], st[f + DF_ZONE], st[f + DF_ARC], st[f + DF_AK]
        if arc == ARC_REAR or helpless(o, g):
            return done(st, 0)
        parry = can_parry(o, G, IT, target)
        n_dodge, dodge_cost = (0, 0)
        if g[G_ON_GROUND] == 0:
            n_dodge, dodge_cost = dodge_hexes(o, G, target, attacker, st[f + DF_RANGE], cand)
        dodge = n_dodge > 0 and g[G_RES] >= dodge_cost
        if not parry and not dodge:
            return done(st, 0)
        fill_state(state, o, G, IT, target, PH_ENEMY_COMBAT, st[ST_TURN])
        state[D_ZONE] = zone
        state[D_LOSS] = expected_loss(o, G, attacker, target, kind, zone, arc) if ak == AK_MELEE or \
            ak == AK_MISSILE else 0
        if ak == AK_MELEE and G[attacker, G_DUAL] != 0:
            state[D_LOSS] *= 2
        state[D_PARRY], state[D_DODGE], state[D_KIND] = int(parry), int(dodge), ak
        st[ST_PARRY], st[ST_DODGE] = int(parry), int(dodge)
        return ask(st, f, 1, target, P_DEFEND)
    if step == 1:
        action = answer(st)
        st[f + DF_ACTION] = action
        if action == 0:
            return done(st, 0)
        if action == 1:
            pay(G, target, G_RES, 2)
            step = 3
        else:
            # the dodge: its RP, then (straight_line, per_hex) its steps away from the attacker (15.5)
            n, cost = dodge_hexes(o, G, target, attacker, st[f + DF_RANGE], cand)
            pay(G, target, G_RES, cost)
            st[f + DF_STEPS] = 0 if o[O_DODGE_MODE] == 1 else (1 if o[O_DODGE_MODE] == 0 else cost)
            step = 2
    elif step == 4:  # a step's hex chosen
        move_to(o, G, target, cand, answer(st))
        st[f + DF_STEP] += 1
        step = 2
    if step == 2:
        if st[f + DF_STEP] < st[f + DF_STEPS]:
            k = away_candidates(o, G, target, attacker, cand)
            if k > 0:
                return ask_hex(o, G, IT, st, state, cand, f, 4, target, k, HP_DODGE)
        step = 3
    # step 3: the defence roll
    if o[O_DEFENCE_ROLL] > 0 and cb.d6(stream) < o[O_DEFENCE_ROLL]:
        return done(st, 0)
    if st[f + DF_ACTION] == 1 and o[O_SCYTHE_MODE] == 1 and G[attacker, G_SCYTHE] == 1:
        # JUG-A41 when_retiarius_parries: the scythe destroys the parrying Retiarius' net on d6 >= 4
        s = in_hand(IT, target, W_NET)
        if s >= 0 and cb.d6(stream) >= 4:
            IT[target, s, I_STATE] = IS_GONE
    return done(st, 1)


# ------------------------------------------------------------------------------------------------ fumbles
FU_SIDE, FU_SLOT, FU_THROWN = range(L0, L0 + 3)


@njit(cache=True)
def fumble(stream, o, G, IT, st, state, f):
    """11: the fumble table (JUG-A53…A57). ``slot`` is the item used (-1 for a shield attack: the shield)."""
    side, slot = st[f + FU_SIDE], st[f + FU_SLOT]
    g = G[side]
    step = st[f + F_STEP]
    if step == 0:
        g[G_FUMBLES] += 1
        kind = cb.fumble_kind(cb.d6(stream))
        if kind == F_STUMBLE:
            if g[G_RES] >= 1 and not helpless(o, g):
                fill_state(state, o, G, IT, side, PH_OWN_COMBAT, st[ST_TURN])
                return ask(st, f, 1, side, P_STUMBLE)
            stumble(o, G, side, True)
        elif kind == F_HESITATE:
            st[ST_PENDING] = 1 - side
        elif kind == cb.F_SAND:
            g[G_SAND_NEXT] = 1
        elif kind == F_SLIP:
            if st[f + FU_THROWN] == 1:
                # the thrown weapon already left his hand; only the cancellation applies
                if o[O_SLIP_CANCEL] == 1 or not other_weapon(IT, side, -1):
                    g[G_CANCELLED] = 1
                return done(st, 0)
            if g[G_RES] >= 1 and not helpless(o, g):
                fill_state(state, o, G, IT, side, PH_OWN_COMBAT, st[ST_TURN])
                return ask(st, f, 2, side, P_RECOVER)
            slip(o, G, IT, side, slot)
        elif kind == F_BREAK:
            IT[side, slot, I_STATE] = IS_GONE
            if IT[side, slot, I_KIND] == W_SHIELD:
                g[G_SHIELD_READY] = 0
    elif step == 1:  # D12 answered
        if answer(st) == 1:
            pay(G, side, G_RES, 1)
            stumble(o, G, side, False)
        else:
            stumble(o, G, side, True)
    else:  # D13 answered
        if answer(st) == 1:
            pay(G, side, G_RES, 1)
        else:
            slip(o, G, IT, side, slot)
    return done(st, 0)


@njit(cache=True)
def stumble(o, G, side, fell):
    """Fumble 1 (JUG-A53): he falls unless he paid; his assaults end (``stumble_cancel``: only if he fell)."""
    g = G[side]
    if fell:
        g[G_ON_GROUND] = 1
    if o[O_STUMBLE_CANCEL] == 0 or fell:
        g[G_CANCELLED] = 1


@njit(cache=True)
def slip(o, G, IT, side, slot):
    """Fumble 5 (JUG-A56, A57): the weapon falls in his hex; his assaults end unless another weapon is in hand."""
    g = G[side]
    IT[side, slot, I_STATE], IT[side, slot, I_Q], IT[side, slot, I_R] = IS_GROUND, g[G_Q], g[G_R]
    if IT[side, slot, I_KIND] == W_SHIELD:
        g[G_SHIELD_READY] = 0
    if o[O_SLIP_CANCEL] == 1 or not other_weapon(IT, side, slot):
        g[G_CANCELLED] = 1


# ------------------------------------------------------------------------------------------------ knock-down
KD_TARGET, KD_CAN, KD_SPENT, KD_TOTAL = range(L0, L0 + 4)


@njit(cache=True)
def knockdown(stream, o, G, IT, st, state, f):
    """10.6 (JUG-A48): 2d6 + wounds - RP spent >= the target's AP rating: he falls."""
    target = st[f + KD_TARGET]
    g = G[target]
    step = st[f + F_STEP]
    if step == 0:
        if g[G_ON_GROUND] == 1:
            return done(st, 0)
        st[f + KD_CAN] = 0 if helpless(o, g) else 1
        if o[O_KNOCKDOWN_SPEND] == 1 and st[f + KD_CAN] == 1 and g[G_RES] > 0:
            fill_state(state, o, G, IT, target, PH_ENEMY_COMBAT, st[ST_TURN])
            state[S_X], state[S_X + 1] = -1, g[G_AP]
            return ask(st, f, 1, target, P_KNOCKDOWN)
        step = 2
    if step == 1 or step == 3:  # D15 answered (before the roll, or after it)
        st[f + KD_SPENT] = answer(st)
        pay(G, target, G_RES, st[f + KD_SPENT])
    if step <= 2:
        total = cb.knockdown_total(o, g, cb.two_d6(stream))
        st[f + KD_TOTAL] = total
        if o[O_KNOCKDOWN_SPEND] == 0 and st[f + KD_CAN] == 1 and g[G_RES] > 0 and total >= g[G_AP]:
            fill_state(state, o, G, IT, target, PH_ENEMY_COMBAT, st[ST_TURN])
            state[S_X], state[S_X + 1] = total, g[G_AP]
            return ask(st, f, 3, target, P_KNOCKDOWN)
    if st[f + KD_TOTAL] - st[f + KD_SPENT] >= g[G_AP]:
        g[G_ON_GROUND] = 1
    return done(st, 0)


# ------------------------------------------------------------------------------------------------ assaults
@njit(cache=True)
def ask_aim(o, G, IT, st, state, f, step, a, d, arc, right, immob, ak):
    """9.1 with ``location = aimed`` (JUG-A11): the attacker names the zone instead of the location die (he sees
    each zone's armour, -1 where the shield covers it from his hex); frame ``f`` reads it at ``step``."""
    fill_state(state, o, G, IT, a, PH_OWN_COMBAT, st[ST_TURN])
    h = G[d]
    for z in range(6):
        state[S_X + z] = -1 if cb.neutralised(o, h, z, arc, right, immob) else cb.armour(h, z, immob)
    state[S_X + 6] = ak
    return ask(st, f, step, a, P_AIM)


(ML_A, ML_D, ML_KIND, ML_SLOT, ML_AK, ML_ARC, ML_RIGHT, ML_IMMOB, ML_RANGE, ML_PRE, ML_ZONE) = range(L0, L0 + 11)


@njit(cache=True)
def melee(stream, o, G, IT, st, state, f):
    """8.1: one assault (melee, improvised shield, full-assault bash). Returns 1 when it got through."""
    a, d, kind, slot, ak = st[f + ML_A], st[f + ML_D], st[f + ML_KIND], st[f + ML_SLOT], st[f + ML_AK]
    g, h = G[a], G[d]
    step = st[f + F_STEP]
    if step == 0:
        arc = arc_from(o, G, d, g[G_Q], g[G_R])
        right = right_side(g[G_Q] - h[G_Q], g[G_R] - h[G_R], h[G_FACING])
        immob = cb.immobilised(o, h)
        st[f + ML_ARC], st[f + ML_RIGHT], st[f + ML_IMMOB] = arc, right, 1 if immob else 0
        h[G_ASSAULT_LOSS] = 0
        h[G_HEAD_STUN] = 0
        st[f + ML_RANGE] = 1 if slot < 0 else max(1, IT[a, slot, I_RANGE])
        if o[O_MELEE_TO_HIT] > 0 and not immob and cb.d6(stream) < o[O_MELEE_TO_HIT]:
            return done(st, 0)  # JUG-A13
        if o[O_FUMBLE_SCOPE] == 1:
            st[f + ML_PRE] = cb.d6(stream)  # JUG-A20 every_assault: the assault die before the defence
            if st[f + ML_PRE] == 1:
                resume_at(st, f, 9)
                return call_fumble(st, a, slot, 0)
        step = 1
    elif step == 9:  # a fumble that ended the assault
        return done(st, 0)
    arc, right, immob = st[f + ML_ARC], st[f + ML_RIGHT], st[f + ML_IMMOB] == 1
    if step == 1:
        if not immob and o[O_DEFENCE_TIMING] == 1:
            resume_at(st, f, 2)
            return call_defence(st, a, d, kind, -1, arc, ak, st[f + ML_RANGE])
        step = 3
    elif step == 2:
        if st[ST_RET]:
            return done(st, 0)
        step = 3
    if step == 3:  # 9.1: the location die, or the aim
        if o[O_LOCATION] != 0:
            return ask_aim(o, G, IT, st, state, f, 4, a, d, arc, right, immob, ak)
        st[f + ML_ZONE] = cb.zone_of(cb.d6(stream))
        step = 5
    elif step == 4:
        st[f + ML_ZONE] = answer(st)
        step = 5
    zone = st[f + ML_ZONE]
    if step == 5:
        if not running(st) or cb.neutralised(o, h, zone, arc, right, immob):
            return done(st, 0)
        if not immob and o[O_DEFENCE_TIMING] == 0:
            resume_at(st, f, 6)
            return call_defence(st, a, d, kind, zone, arc, ak, st[f + ML_RANGE])
    elif step == 6:
        if st[ST_RET]:
            return done(st, 0)
    elif step == 7:  # after the fumble of a double attack (JUG-A50)
        return done(st, 1)
    if not running(st):
        return done(st, 0)
    double = (g[G_DUAL] == cb.DUAL_GLAIVES and kind == cb.W_GLAIVE and count_in_hand(IT, a, cb.W_GLAIVE) == 2) or (
        g[G_DUAL] == cb.DUAL_FISTS and kind == cb.W_IRON_FISTS)
    loss1, loss2, fumbled, head = cb.strike(stream, o, g, h, kind, zone, arc, right, immob, double, 1,
                                            st[f + ML_PRE])
    if fumbled == 1:
        resume_at(st, f, 9)
        return call_fumble(st, a, slot, 0)
    h[G_HEAD_STUN] = head
    if kind == W_TRIDENT or kind == W_SPEAR:
        queue_push(o, st, a, d)
    assault_checks(stream, o, G, st, d)
    if fumbled == 2 and running(st):
        resume_at(st, f, 7)
        return call_fumble(st, a, slot, 0)
    return done(st, 1)


NT_A, NT_D, NT_SLOT, NT_NEED, NT_Q, NT_R = range(L0, L0 + 6)


@njit(cache=True)
def net_throw(stream, o, G, IT, st, state, cand, f):
    """10.3: no to-hit roll; the target leaves the 9-hex area for 1 RP per hex (the smooth helmet gives one,
    JUG-A40), parries with the scythe (JUG-A41), or is captured."""
    a, d, slot = st[f + NT_A], st[f + NT_D], st[f + NT_SLOT]
    g, h = G[a], G[d]
    step = st[f + F_STEP]
    if step == 0:
        g[G_NETS] += 1
        arc = arc_from(o, G, d, g[G_Q], g[G_R])
        area = np.zeros((9, 2), np.int64)
        n_area = net_area(o[O_NET_AREA], g[G_Q], g[G_R], h[G_Q], h[G_R], area)
        st[f + NT_Q], st[f + NT_R] = h[G_Q], h[G_R]
        if arc != ARC_REAR and not helpless(o, h):
            free = 1 if h[G_SMOOTH] == 1 else 0
            need = max(0, 2 - free)
            st[f + NT_NEED] = need
            n_exit = 0
            if h[G_ON_GROUND] == 0:
                n_exit = net_exits(area, n_area, g[G_Q], g[G_R], o[O_ARENA_RADIUS], o[O_NET_EXIT], cand)
            escape = n_exit > 0 and h[G_RES] >= need
            scythe = o[O_SCYTHE_MODE] == 0 and h[G_SCYTHE] == 1 and h[G_RES] >= 2 and h[G_LASSOED] == 0
            if escape or scythe:
                fill_state(state, o, G, IT, d, PH_ENEMY_COMBAT, st[ST_TURN])
                state[N_NEED], state[N_SCYTHE], state[N_ESCAPE] = need, int(scythe), int(escape)
                st[ST_ESCAPE], st[ST_SCYTHE] = int(escape), int(scythe)
                return ask(st, f, 1, d, P_NET_ESCAPE)
    elif step == 1:  # D10 answered
        action = answer(st)
        if action == 1:
            area = np.zeros((9, 2), np.int64)
            n_area = net_area(o[O_NET_AREA], g[G_Q], g[G_R], h[G_Q], h[G_R], area)
            n_exit = net_exits(area, n_area, g[G_Q], g[G_R], o[O_ARENA_RADIUS], o[O_NET_EXIT], cand)
            return ask_hex(o, G, IT, st, state, cand, f, 2, d, n_exit, HP_NET_EXIT)
        if action == 2:
            pay(G, d, G_RES, 2)
            if cb.d6(stream) >= 4:
                IT[a, slot, I_STATE] = IS_GONE
            else:
                IT[a, slot, I_STATE], IT[a, slot, I_Q], IT[a, slot, I_R] = IS_GROUND, st[f + NT_Q], st[f + NT_R]
            return done(st, 0)
    else:  # the exit hex chosen
        pay(G, d, G_RES, st[f + NT_NEED])
        move_to(o, G, d, cand, answer(st))
        IT[a, slot, I_STATE], IT[a, slot, I_Q], IT[a, slot, I_R] = IS_GROUND, st[f + NT_Q], st[f + NT_R]  # JUG-A39
        return done(st, 0)
    h[G_CAPTURED] = 1
    h[G_CAPTURED_TURN] = st[ST_TURN]
    IT[a, slot, I_STATE] = IS_HOLDING
    return done(st, 0)


@njit(cache=True)
def lasso(stream, o, G, IT, st, state, f):
    """10.5 (JUG-A52): no location, no damage; parried or dodged like an assault, otherwise the victim is held."""
    a, d, slot = st[f + L0], st[f + L0 + 1], st[f + L0 + 2]
    g, h = G[a], G[d]
    step = st[f + F_STEP]
    if step == 0:
        arc = arc_from(o, G, d, g[G_Q], g[G_R])
        if not cb.immobilised(o, h):
            resume_at(st, f, 1)
            return call_defence(st, a, d, W_LASSO, -1, arc, AK_LASSO, o[O_LASSO_RANGE])
    elif st[ST_RET]:
        return done(st, 0)
    if running(st):
        h[G_LASSOED] = 1
        h[G_LASSOED_TURN] = st[ST_TURN]
        IT[a, slot, I_STATE] = IS_HOLDING
    return done(st, 0)


(TH_A, TH_D, TH_SLOT, TH_KIND, TH_ARC, TH_RIGHT, TH_IMMOB, TH_DIST, TH_SPOILED, TH_RESERVE, TH_ZONE) = range(
    L0, L0 + 11)


@njit(cache=True)
def throw(stream, o, G, IT, st, state, f):
    """10.4 (JUG-A42…A45): javelin or thrown spear: to-hit roll (spoiled for 1 RP), then location, shield, damage
    with fumble; the weapon then lies in the target's hex. An immobilised target is always hit (10.3)."""
    a, d, slot = st[f + TH_A], st[f + TH_D], st[f + TH_SLOT]
    g, h = G[a], G[d]
    step = st[f + F_STEP]
    if step == 0:
        kind = IT[a, slot, I_KIND]
        st[f + TH_KIND] = kind
        if kind == W_JAVELIN:
            g[G_JAVELINS_THROWN] += 1
        arc = arc_from(o, G, d, g[G_Q], g[G_R])
        immob = cb.immobilised(o, h)
        distance = dist(g[G_Q], g[G_R], h[G_Q], h[G_R])
        st[f + TH_ARC], st[f + TH_IMMOB], st[f + TH_DIST] = arc, 1 if immob else 0, distance
        st[f + TH_RIGHT] = right_side(g[G_Q] - h[G_Q], g[G_R] - h[G_R], h[G_FACING])
        IT[a, slot, I_STATE], IT[a, slot, I_Q], IT[a, slot, I_R] = IS_GROUND, h[G_Q], h[G_R]
        st[f + TH_RESERVE] = 1 if h[G_RP_USED] > 0 else 0
        if o[O_JAVELIN_RESERVE_MOD] == 0 and arc != ARC_REAR and not helpless(o, h) and h[G_RES] >= 1 and \
                not immob:
            fill_state(state, o, G, IT, d, PH_ENEMY_COMBAT, st[ST_TURN])
            state[S_X], state[S_X + 1] = distance, cb.javelin_needs(o, distance, False, False)
            return ask(st, f, 1, d, P_SPOIL)
        step = 2
    elif step == 1:  # D11 answered
        if answer(st) == 1:
            pay(G, d, G_RES, 1)
            st[f + TH_SPOILED] = 1
        step = 2
    kind, arc, right, immob = st[f + TH_KIND], st[f + TH_ARC], st[f + TH_RIGHT], st[f + TH_IMMOB] == 1
    if step == 2:
        if not immob and cb.d6(stream) < cb.javelin_needs(o, st[f + TH_DIST], st[f + TH_SPOILED] == 1,
                                                          st[f + TH_RESERVE] == 1):
            return done(st, 0)
        h[G_ASSAULT_LOSS] = 0
        h[G_HEAD_STUN] = 0
        if o[O_LOCATION] != 0:
            return ask_aim(o, G, IT, st, state, f, 3, a, d, arc, right, immob, AK_MISSILE)
        st[f + TH_ZONE] = cb.zone_of(cb.d6(stream))
        step = 4
    elif step == 3:  # the aim answered
        st[f + TH_ZONE] = answer(st)
        step = 4
    zone = st[f + TH_ZONE]
    if step == 4:
        if not running(st) or cb.neutralised(o, h, zone, arc, right, immob):
            return done(st, 0)
        if o[O_PARRY_MISSILES] == 1 and not immob:
            resume_at(st, f, 5)
            return call_defence(st, a, d, kind, zone, arc, AK_MISSILE, st[f + TH_DIST])
    elif step == 5:
        if st[ST_RET]:
            return done(st, 0)
    else:  # step 6: after the fumble
        return done(st, 0)
    if not running(st):
        return done(st, 0)
    loss1, loss2, fumbled, head = cb.strike(stream, o, g, h, kind, zone, arc, right, immob, False,
                                            o[O_MISSILE_FUMBLE], 0)
    if fumbled:
        resume_at(st, f, 6)
        return call_fumble(st, a, slot, 1)
    assault_checks(stream, o, G, st, d)
    return done(st, 0)


@njit(cache=True)
def bash(stream, o, G, IT, st, state, f):
    """10.6 (JUG-A46, A47): ``push_only``: an assault without location or damage, parried or dodged like one;
    ``full_assault``: a 1d6-3 assault with location and fumble. If it lands, the knock-down test follows."""
    a, d = st[f + L0], st[f + L0 + 1]
    g, h = G[a], G[d]
    step = st[f + F_STEP]
    if step == 0:
        slot = shield_slot(IT, a)
        if o[O_BASH_MODE] == 1:
            resume_at(st, f, 1)
            return call_melee(st, a, d, W_SHIELD, slot, AK_BASH)
        arc = arc_from(o, G, d, g[G_Q], g[G_R])
        if not cb.immobilised(o, h):
            resume_at(st, f, 2)
            return call_defence(st, a, d, W_SHIELD, -1, arc, AK_BASH, 1)
        landed = 1
    elif step == 1:  # the full assault's answer: whether it got through
        landed = st[ST_RET]
    else:  # the defence's answer: whether it stopped the push
        landed = 0 if st[ST_RET] else 1
    done(st, 0)
    if landed and running(st):
        return call_side(st, PR_KNOCKDOWN, d)
    return NEXT


@njit(cache=True)
def resolve_attack(stream, o, G, IT, st, state, f):
    """Pay for and resolve attack ``action`` (``policies.ATTACK_CODES``) of side ``a``; any attack counts against
    cowardice (12.6). Then (4) the voluntary appeals after each resolved attack: the target first, then the
    attacker."""
    a, action, free = st[f + L0], st[f + L0 + 1], st[f + L0 + 2]
    d = 1 - a
    step = st[f + F_STEP]
    if step == 1:
        resume_at(st, f, 2)
        return call_voluntary(st, d, 1)
    if step == 2:
        done(st, 0)
        return call_voluntary(st, a, 1)
    G[a, G_ATTACKED] = 1
    slot, kind, cost = -1, W_SHIELD, 2
    if action >= 40 or (30 <= action < 40):
        slot = shield_slot(IT, a)
    elif action >= 20:
        slot, kind, cost = action - 20, W_SPEAR, o[O_SPEAR_THROW_COST]
    else:
        slot = action - 10
        kind = IT[a, slot, I_KIND]
        cost = attack_cost(o, kind, False)
    if free == 0:
        pay(G, a, G_C, cost)
    resume_at(st, f, 1)
    if 30 <= action < 40:
        return call_attack(st, PR_BASH, a, d, slot)
    if (20 <= action < 30) or kind == W_JAVELIN:
        return call_attack(st, PR_THROW, a, d, slot)
    if kind == W_NET:
        return call_attack(st, PR_NET, a, d, slot)
    if kind == W_LASSO:
        return call_attack(st, PR_LASSO, a, d, slot)
    return call_melee(st, a, d, kind, slot, AK_MELEE)


@njit(cache=True)
def call_resolve(st, a, action, free):
    f = push(st, PR_RESOLVE)
    st[f + L0], st[f + L0 + 1], st[f + L0 + 2] = a, action, free
    return NEXT


# ------------------------------------------------------------------------------------------------ combat phase
CB_A, CB_FREE, CB_PUSH = range(L0, L0 + 3)
(CS_START, CS_ATTACKS, CS_ASK, CS_ATTACK, CS_FREE, CS_FREE_ASSAULT, CS_PUSHES, CS_PUSHED) = range(8)


@njit(cache=True)
def combat_phase(stream, o, G, IT, st, state, cand, f):
    """4 D/F, 8: the attacker attacks until he passes, has no legal attack or has his assaults cancelled; then
    the queued push-backs are applied (10.2). After each attack, the free assaults of fumbles 2-3 (JUG-A54): the
    fumbler's opponent makes one free assault (0 AP), or with no legal attack may turn to face the fumbler for
    free; the free assault can itself fumble, so they run as a chain."""
    a = st[f + CB_A]
    g = G[a]
    step = st[f + F_STEP]
    while True:
        if step == CS_START:
            st[ST_PUSHES] = 0
            st[ST_PENDING] = -1
            step = CS_ATTACKS
        elif step == CS_ATTACKS:  # the next attack: first JUG-A7 also_before_each_assault, the defender may turn
            if not running(st):
                step = CS_PUSHES
            elif o[O_REACTIVE_TURN] == 2:
                resume_at(st, f, CS_ASK)
                return call_react(st, 1 - a, 0, 1)
            else:
                step = CS_ASK
        elif step == CS_ASK:
            if not running(st):
                step = CS_PUSHES
            else:
                fill_state(state, o, G, IT, a, PH_OWN_COMBAT, st[ST_TURN])
                if attack_mask(o, G, IT, a, state, False) == 0:
                    step = CS_PUSHES
                else:
                    g[G_COULD_ATTACK] = 1
                    return ask(st, f, CS_ATTACK, a, P_ATTACK)
        elif step == CS_ATTACK:  # D8 answered
            action = answer(st)
            if action == 0:
                step = CS_PUSHES
            else:
                resume_at(st, f, CS_FREE)
                return call_resolve(st, a, action, 0)
        elif step == CS_FREE:
            if not (running(st) and st[ST_PENDING] >= 0):
                step = CS_ATTACKS
            else:
                b = st[ST_PENDING]
                st[ST_PENDING] = -1
                st[f + CB_FREE] = b
                fill_state(state, o, G, IT, b, PH_ENEMY_COMBAT, st[ST_TURN])
                n = attack_mask(o, G, IT, b, state, True)
                gb = G[b]
                if n == 0 and not helpless(o, gb) and gb[G_ON_GROUND] == 0:
                    for fc in range(6):
                        if fc != gb[G_FACING]:
                            state[S_X + ATTACK_CODES.size - 6 + fc] = 1
                return ask(st, f, CS_FREE_ASSAULT, b, P_FREE_ASSAULT)
        elif step == CS_FREE_ASSAULT:  # D14 answered
            action = answer(st)
            b = st[f + CB_FREE]
            step = CS_FREE
            if action >= 50:
                G[b, G_FACING] = action - 50
            elif action != 0:
                resume_at(st, f, CS_FREE)
                return call_resolve(st, b, action, 1)
        elif step == CS_PUSHES:  # 15.6: the queued pushes in order, each straight away from the pusher's hex then
            i = st[f + CB_PUSH]
            if not running(st) or i >= st[ST_PUSHES]:
                st[ST_PUSHES] = 0
                return done(st, 0)
            pusher, target = st[ST_PUSH0 + 2 * i], st[ST_PUSH0 + 2 * i + 1]
            k = away_candidates(o, G, target, pusher, cand)
            if k > 0:
                return ask_hex(o, G, IT, st, state, cand, f, CS_PUSHED, target, k, HP_PUSH)
            st[f + CB_PUSH] += 1
        else:  # CS_PUSHED: the push's hex chosen (a push off the board is lost; the facing is kept)
            i = st[f + CB_PUSH]
            move_to(o, G, st[ST_PUSH0 + 2 * i + 1], cand, answer(st))
            st[f + CB_PUSH] += 1
            step = CS_PUSHES


# ------------------------------------------------------------------------------------------------ the turn
AL_SIDE, AL_KEPT = L0, L0 + 1  # the side splitting; A's M, C and R before its split


@njit(cache=True)
def allocate(stream, o, G, IT, st, state, f):
    """4 A (JUG-A4): each side splits all his AP into M + C + R; B sees A's split only with
    ``allocation = g1_then_g2_open``. Then the scutum zone (D5) and the sand of fumble 4 (JUG-A55)."""
    turn = st[ST_TURN]
    step = st[f + F_STEP]
    while True:
        s = st[f + AL_SIDE]
        g = G[s]
        if step == 0:  # D4 for side s
            fill_state(state, o, G, IT, s, PH_SPLIT, turn)
            state[S_X] = -1
            if s == 1 and o[O_ALLOCATION] == 1:
                state[S_X] = G[0, G_M] * 100 + G[0, G_C]
            return ask(st, f, 1, s, P_ALLOCATE)
        if step == 1:
            action = answer(st)
            m, c = action // 100, action % 100
            if s == 0:  # what A's split replaces, kept for ``duel_unseal``
                st[f + AL_KEPT], st[f + AL_KEPT + 1], st[f + AL_KEPT + 2] = g[G_M], g[G_C], g[G_RES]
            g[G_M], g[G_C], g[G_RES] = m, c, g[G_AP] - m - c
            g[G_AP_ALLOC] += g[G_AP]
            if s == 0:
                st[f + AL_SIDE] = 1
                step = 0
            else:
                st[f + AL_SIDE] = 0
                step = 2
        elif step == 2:  # D5 for side s
            if g[G_SHIELD] == SH_SCUTUM:
                fill_state(state, o, G, IT, s, PH_SPLIT, turn)
                state[S_X] = g[cb.G_ARMOUR + Z_THORAX]
                state[S_X + 1] = g[cb.G_ARMOUR + Z_LEFT_LEG]
                state[S_X + 2] = g[cb.G_ARMOUR + Z_HEAD]
                state[S_X + 3] = o[O_SCUTUM_ZONES]
                return ask(st, f, 3, s, P_SCUTUM_ZONE)
            step = 4
        else:
            if step == 3:
                g[G_SCUTUM_ZONE] = answer(st)
            if g[G_SAND_NEXT] == 1:
                if o[O_SAND_MODE] == 0:
                    g[G_M] = g[G_M] // 2
                elif o[O_SAND_MODE] == 1:
                    g[G_M] = (g[G_M] + 1) // 2
                else:
                    g[G_M] = min(g[G_M], g[G_AP] // 2)
                g[G_SAND_NEXT] = 0
            if s == 1:
                return done(st, 0)
            st[f + AL_SIDE] = 1
            step = 2


DU_ACTIVE, DU_MOVER = L0, L0 + 1
(DS_TURN, DS_APPEAL_B, DS_ALLOCATE, DS_INITIATIVE, DS_MOVE, DS_COMBAT, DS_NEXT, DS_END) = range(8)


@njit(cache=True)
def duel_turns(stream, o, G, IT, st, state, f):
    """4: the whole duel, turn by turn: checkpoint appeals, the split, initiative, then each side's movement and
    combat phases, the active side first; the duel ends as soon as ``st[ST_REASON]`` is set."""
    step = st[f + F_STEP]
    while True:
        if step == DS_TURN:
            if st[ST_TURN] >= o[O_MAX_TURNS]:
                finish(st, R_UNFINISHED, -1)
                return done(st, 0)
            st[ST_TURN] += 1
            for s in range(2):
                g = G[s]
                g[G_TURN_LOSS] = 0
                g[G_ATTACKED] = 0
                g[G_CANCELLED] = 0
                g[G_COULD_ATTACK] = 0
                g[G_JAVELINS_THROWN] = 0
                g[G_RP_USED] = 0
                g[G_ESCAPE_TRIED] = 0
            resume_at(st, f, DS_APPEAL_B)
            return call_voluntary(st, 0, 0)
        if step == DS_APPEAL_B:
            resume_at(st, f, DS_ALLOCATE)
            return call_voluntary(st, 1, 0)
        if step == DS_ALLOCATE:
            if not running(st):
                return done(st, 0)
            resume_at(st, f, DS_INITIATIVE)
            push(st, PR_ALLOCATE)
            return NEXT
        if step == DS_INITIATIVE:
            if not running(st):
                return done(st, 0)
            active = initiative(stream, o, st)
            st[ST_PREV_ACTIVE] = active
            st[f + DU_ACTIVE], st[f + DU_MOVER] = active, 0
            step = DS_MOVE
        mover = st[f + DU_ACTIVE] if st[f + DU_MOVER] == 0 else 1 - st[f + DU_ACTIVE]
        if step == DS_MOVE:
            resume_at(st, f, DS_COMBAT)
            return call_side(st, PR_MOVEMENT, mover)
        if step == DS_COMBAT:
            if not running(st):
                return done(st, 0)
            resume_at(st, f, DS_NEXT)
            return call_side(st, PR_COMBAT, mover)
        if step == DS_NEXT:
            if not running(st):
                return done(st, 0)
            if st[f + DU_MOVER] == 0:
                st[f + DU_MOVER] = 1
                step = DS_MOVE
            else:
                step = DS_END
        if step == DS_END:
            cowardice(o, G, st)
            for s in range(2):
                if G[s, G_STUNNED_UNTIL] == st[ST_TURN]:
                    G[s, G_STUNNED_UNTIL] = 0
            if not running(st):
                return done(st, 0)
            step = DS_TURN


# ------------------------------------------------------------------------------------------------ the protocol
@njit(cache=True)
def duel_init(stream, o, G0, IT0, st, state, G, IT, cand, row):
    """2, 15.1: a new duel, set up, at the start of its first turn."""
    setup(o, G, IT, G0, IT0)
    st[:] = 0
    st[ST_PREV_ACTIVE] = -1
    st[ST_PENDING] = -1
    push(st, PR_DUEL)


@njit(cache=True, apart=True)
def duel_advance(stream, o, G0, IT0, st, state, G, IT, cand, row):
    """4-12: from where the duel stands to its next decision (its point, ``side * N_POINTS + point``), or to its end
    (``END``, the outcome row written)."""
    while True:
        sp = st[ST_SP]
        if sp == 0:
            score(G, st, row)
            return END
        f = ST_FRAMES + (sp - 1) * FRAME
        proc = st[f + F_PROC]
        if proc == PR_DUEL:
            point = duel_turns(stream, o, G, IT, st, state, f)
        elif proc == PR_VOLUNTARY:
            point = voluntary(stream, o, G, IT, st, state, f)
        elif proc == PR_ALLOCATE:
            point = allocate(stream, o, G, IT, st, state, f)
        elif proc == PR_MOVEMENT:
            point = movement_phase(stream, o, G, IT, st, state, cand, f)
        elif proc == PR_REACT:
            point = react(stream, o, G, IT, st, state, cand, f)
        elif proc == PR_COMBAT:
            point = combat_phase(stream, o, G, IT, st, state, cand, f)
        elif proc == PR_RESOLVE:
            point = resolve_attack(stream, o, G, IT, st, state, f)
        elif proc == PR_MELEE:
            point = melee(stream, o, G, IT, st, state, f)
        elif proc == PR_DEFENCE:
            point = defence(stream, o, G, IT, st, state, cand, f)
        elif proc == PR_FUMBLE:
            point = fumble(stream, o, G, IT, st, state, f)
        elif proc == PR_KNOCKDOWN:
            point = knockdown(stream, o, G, IT, st, state, f)
        elif proc == PR_BASH:
            point = bash(stream, o, G, IT, st, state, f)
        elif proc == PR_THROW:
            point = throw(stream, o, G, IT, st, state, f)
        elif proc == PR_NET:
            point = net_throw(stream, o, G, IT, st, state, cand, f)
        else:
            point = lasso(stream, o, G, IT, st, state, f)
        if point != NEXT:
            return point


@njit(cache=True, inline="llvm")
def duel_legal(point, action, o, G0, IT0, st, state, G, IT, cand, row):
    """Each decision site's own test: the masks its state shows (D6, D7, D8, D14), the counts and answers it
    offered (D9, D10, D16), the AP or RP there are (D4, D15), the zones (D5, JUG-A11); 0 passes where it may."""
    side, p = point // N_POINTS, point % N_POINTS
    if p == P_APPEAL or p == P_SPOIL or p == P_STUMBLE or p == P_RECOVER:
        return action == 0 or action == 1
    if p == P_ALLOCATE:
        return action >= 0 and action // 100 + action % 100 <= G[side, G_AP]
    if p == P_SCUTUM_ZONE:
        return action == Z_THORAX or action == Z_LEFT_LEG or (action == Z_HEAD and o[O_SCUTUM_ZONES] == 1)
    if p == P_MOVE:
        return action == 0 or is_legal(MOVE_CODES, MOVE_CODES.size, action, state)
    if p == P_REACT:
        return action == 0 or (0 <= action < REACT_CODES.size and state[REACT_MASK + action] != 0)
    if p == P_ATTACK:
        return action == 0 or is_legal(ATTACK_CODES, ATTACK_CODES.size - 6, action, state)
    if p == P_FREE_ASSAULT:
        return action == 0 or is_legal(ATTACK_CODES, ATTACK_CODES.size, action, state)
    if p == P_DEFEND:
        return action == 0 or (action == 1 and st[ST_PARRY] == 1) or (action == 2 and st[ST_DODGE] == 1)
    if p == P_NET_ESCAPE:
        return action == 0 or (action == 1 and st[ST_ESCAPE] == 1) or (action == 2 and st[ST_SCYTHE] == 1)
    if p == P_KNOCKDOWN:
        return 0 <= action <= G[side, G_RES]
    if p == P_HEX_CHOICE:
        return 0 <= action < st[ST_HEXES]
    return 0 <= action <= 5  # P_AIM


@njit(cache=True, inline="llvm")
def duel_apply(point, action, o, G0, IT0, st, state, G, IT, cand, row):
    st[ST_ACTION] = action


@njit(cache=True, inline="llvm")
def decide_duel(offset, point, codes, params, slots, stream, o, G0, IT0, st, state, G, IT, cand, row):
    """Decision point ``offset + point``, a side's own copy (``side * N_POINTS + p``): the user's function in its
    slot (``call``), or the point's built-in (``policies.builtin``)."""
    i = offset + point
    if codes[i] == USER:
        return call(slots, i, state, params[i], stream)
    return builtin(point % N_POINTS, codes[i], params[i], state, stream)


# ------------------------------------------------------------------------------------------------ search
POINT_ACTIONS = np.array([2, 0, 6, 36, 8, 41, 3, 3, 2, 2, 2, 56, 0, 16, 6], np.int64)  # by point; 0: from G
MAX_SEARCH_ACTIONS = 171  # the splits of 17 AP (the most any type has is 13)


@njit(cache=True)
def duel_player(point, o, G0, IT0, st, state, G, IT, cand, row):
    """Side A (0) decides its points ``a_*``, side B (1) its ``b_*``."""
    return np.int64(point // N_POINTS)


@njit(cache=True)
def duel_actions(point, o, G0, IT0, st, state, G, IT, cand, row):
    """How many candidate actions ``point`` has: the splits of the side's AP (D4), its RP and 0 (D15), else the
    point's encodings (``policies.CANDIDATES``)."""
    side, p = point // N_POINTS, point % N_POINTS
    if p == P_ALLOCATE:
        ap = max(G[side, G_AP], 0)
        return (ap + 1) * (ap + 2) // 2
    if p == P_KNOCKDOWN:
        return max(G[side, G_RES], 0) + 1
    return POINT_ACTIONS[p]


@njit(cache=True)
def duel_candidate(point, i, o, G0, IT0, st, state, G, IT, cand, row):
    """Candidate ``i``'s action: the ``i``-th split ``M * 100 + C`` in the order of ``policies._allocations`` (D4);
    at every other point the action ``i`` itself."""
    side, p = point // N_POINTS, point % N_POINTS
    if p != P_ALLOCATE:
        return i
    ap = G[side, G_AP]
    for m in range(ap + 1):
        if i <= ap - m:
            return m * 100 + i
        i -= ap + 1 - m
    return np.int64(-1)


@njit(cache=True)
def duel_reward(player, o, G0, IT0, st, state, G, IT, cand, row):
    """A finished duel's value for ``player``: 1 a win, 0 a loss, 1/2 neither (both out, unfinished)."""
    a = 1.0 if row[M_WIN] == 1 else 0.0 if row[M_LOSS] == 1 else 0.5
    return a if player == 0 else 1.0 - a


@njit(cache=True)
def duel_determinize(point, stream, o, G0, IT0, st, state, G, IT, cand, row):
    """What the side deciding ``point`` cannot see, redrawn: the other's scutum zone, secret all turn (JUG-A19),
    uniformly among the zones it may cover. A's split, hidden from B under ``allocation = simultaneous`` (JUG-A4),
    is made again in each playout (``duel_unseal``); later in a turn the other's split is taken as its play has
    shown it."""
    side = point // N_POINTS
    other = 1 - side
    if G[other, G_SHIELD] == SH_SCUTUM:
        k = rng.dn(stream, 3 if o[O_SCUTUM_ZONES] == 1 else 2)
        G[other, G_SCUTUM_ZONE] = Z_THORAX if k == 1 else Z_LEFT_LEG if k == 2 else Z_HEAD


@njit(cache=True)
def duel_sealed(point, o, G0, IT0, st, state, G, IT, cand, row):
    """JUG-A4 ``allocation = simultaneous``: the two splits are one simultaneous choice, A's (0) then B's (1),
    blind to A's; every other decision is made in the open (-1)."""
    side, p = point // N_POINTS, point % N_POINTS
    return side if p == P_ALLOCATE and o[O_ALLOCATION] == 0 else np.int64(-1)


@njit(cache=True)
def duel_unseal(point, o, G0, IT0, st, state, G, IT, cand, row):
    """At B's split: A's split unmade, A's decision posted again (``allocate`` at its step 0 for side A)."""
    f = ST_FRAMES + (st[ST_SP] - 1) * FRAME
    G[0, G_M], G[0, G_C], G[0, G_RES] = st[f + AL_KEPT], st[f + AL_KEPT + 1], st[f + AL_KEPT + 2]
    G[0, G_AP_ALLOC] -= G[0, G_AP]
    st[f + AL_SIDE] = 0
    fill_state(state, o, G, IT, 0, PH_SPLIT, st[ST_TURN])
    state[S_X] = -1
    return ask(st, f, 1, 0, P_ALLOCATE)


# duel_machine(stream, codes, params, slots, offset, o, G0, IT0, st, state, G, IT, cand, row): one duel to its end,
# those of a career too
duel_machine = machine_game("duel_machine", duel_init, duel_advance, duel_legal, duel_apply, decide_duel,
                            Search(duel_player, duel_actions, duel_reward, duel_determinize, duel_candidate,
                                   duel_sealed, duel_unseal),
                            max_actions=MAX_SEARCH_ACTIONS, apart=True)


@njit(cache=True)
def duel_scratch(args):
    """The buffers a block of duels reuses: game status, policy state, gladiators, their items, hexes."""
    G0, IT0 = args[1], args[2]
    return (np.zeros(ST_SIZE, np.int64), np.zeros(STATE_SIZE, np.int64), np.zeros_like(G0), np.zeros_like(IT0),
            np.zeros((SCRATCH, 2), np.int64))


duel_kernel = block_kernel("duel_kernel", duel_scratch, duel_machine, N_METRICS)
# the game's arrays: (o, G0, IT0) + (st, state, G, IT, cand) + (row,); decisions read ``state``
MACHINE = Machine(duel_init, duel_advance, duel_legal, duel_apply, decider(duel_machine), duel_scratch, 4)
