"""The duel (spec 4-12 on the hex geometry of 15): kernel of ``jugule.duel``.

A game keeps two gladiator rows ``G[side]`` (``combat.G_*``), their item tables ``IT[side]`` (``combat.I_*``), the
game status ``st`` (``ST_*``) and a scratch table of hexes. Rule options are the int64 vector ``o``
(``combat.O_*``), never Python branches. Every decision goes through ``policies.decide_<point>`` with the side's own
decision point: the user's function in slot ``side * N_POINTS + point``, or the built-in. Any terminal event
(death, an appeal's result, cowardice) sets ``st[ST_REASON]``; every procedure checks it and returns, so the duel
ends at once, even in the middle of a phase (4).

Compile time: numba links and re-optimises a function's whole callee tree at every call level, so procedures with a
single call site are inlined (``inline="always"``) and shared ones (``melee``, ``defence``, ``fumble``,
``fill_state`` …) stay separate functions.

The kernel plays its games with ``core.loop.block_kernel``: ``duel_game`` is one duel from ``Duel.kernel_args()``,
``(o, G0, IT0)``, with the buffers ``duel_scratch`` makes for a block.
"""
import numpy as np

from ..core.jit import njit
from ..core.loop import block_kernel
from ..core.policy import error_code
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
    decide_aim,
    decide_allocate,
    decide_appeal,
    decide_attack,
    decide_defend,
    decide_free_assault,
    decide_hex_choice,
    decide_knockdown,
    decide_move,
    decide_net_escape,
    decide_react,
    decide_recover,
    decide_scutum_zone,
    decide_spoil,
    decide_stumble,
)

# game status
(ST_TURN, ST_REASON, ST_LOSER, ST_ERROR, ST_PENDING, ST_PREV_ACTIVE, ST_PUSHES, ST_PUSH0) = range(8)
MAX_PUSHES = 16
ST_SIZE = ST_PUSH0 + 2 * MAX_PUSHES
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
def fail(st, point, side, action):
    """A policy returned an illegal action: stop the game and report the decision point."""
    st[ST_ERROR] = error_code(side * N_POINTS + point, action)
    st[ST_REASON] = R_ERROR


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


@njit(cache=True)
def choose_hex(stream, o, G, IT, st, state, codes, params, slots, side, cand, n, purpose):
    """D16: the moving gladiator picks one of ``n`` candidate hexes (rows of ``cand``); returns its index."""
    if n == 1:
        return 0
    fill_state(state, o, G, IT, side, PH_CHECKPOINT, st[ST_TURN])
    state[H_COUNT], state[H_PURPOSE] = n, purpose
    g, h = G[side], G[1 - side]
    for i in range(min(n, H_MAX)):
        state[H_PAIRS + 2 * i], state[H_PAIRS + 2 * i + 1] = cand[i, 0], cand[i, 1]
        # the mover keeps his facing (15.5, 15.6, 10.3): where the enemy will lie from that hex
        state[H_ARCS + i] = arc_of(o[O_ARCS], h[G_Q] - cand[i, 0], h[G_R] - cand[i, 1], g[G_FACING])
    action = decide_hex_choice(side, state, codes, params, stream, slots)
    if action < 0 or action >= n:
        fail(st, P_HEX_CHOICE, side, action)
        return 0
    return action


# ------------------------------------------------------------------------------------------------ mercy
@njit(cache=True)
def appeal(stream, o, G, st, side):
    """12.2: the fate die; spared on natural != 1 and natural + mod >= 5 (JUG-A61), executed otherwise."""
    n = cb.d6(stream)
    if n >= cb.appeal_needs(o, G[side]):
        finish(st, R_SPARED, side)
    else:
        finish(st, R_EXECUTED, side)


@njit(cache=True)
def voluntary(stream, o, G, IT, st, state, codes, params, slots, side, checkpoint):
    """D3 at a checkpoint (12.4): appeals are allowed at any time (JUG-A60; ``appeal_requires_wound``: HP <= 5)."""
    if not running(st):
        return
    if o[cb.O_APPEAL_REQUIRES_WOUND] == 1 and G[side, G_HP] > 5:
        return
    fill_state(state, o, G, IT, side, PH_CHECKPOINT, st[ST_TURN])
    state[S_X], state[S_X + 1] = checkpoint, cb.appeal_needs(o, G[side])
    action = decide_appeal(side, state, codes, params, stream, slots)
    if action == 1:
        appeal(stream, o, G, st, side)
    elif action != 0:
        fail(st, P_APPEAL, side, action)


@njit(cache=True, inline="always")
def after_attack(stream, o, G, IT, st, state, codes, params, slots, attacker, target):
    """4: after each resolved attack, voluntary appeals: the target first, then the attacker."""
    voluntary(stream, o, G, IT, st, state, codes, params, slots, target, 1)
    voluntary(stream, o, G, IT, st, state, codes, params, slots, attacker, 1)


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


@njit(cache=True)
def react(stream, o, G, IT, st, state, codes, params, slots, side, entered, turning, cand):
    """D7 (7, JUG-A7, A8): reserve reactions to the enemy's move: turn k hexsides for k RP, or step back for
    2 RP when the enemy just entered the ZOC. Not on the ground, not captured (JUG-A25, A37)."""
    g = G[side]
    for _ in range(3):
        if not running(st) or helpless(o, g) or g[G_ON_GROUND] == 1:
            return
        fill_state(state, o, G, IT, side, PH_ENEMY_MOVE, st[ST_TURN])
        state[S_X] = 1 if entered else 0
        n_back = stepback_hexes(o, G, side, cand) if entered else 0
        any_legal = False
        state[REACT_MASK] = 1
        for f in range(6):
            cost = hexsides(g[G_FACING], f)
            if turning and f != g[G_FACING] and cost <= g[G_RES]:
                state[REACT_MASK + 1 + f] = 1
                any_legal = True
        if n_back > 0 and g[G_RES] >= 2:
            state[REACT_MASK + 7] = 1
            any_legal = True
        if not any_legal:
            return
        action = decide_react(side, state, codes, params, stream, slots)
        if action == 0:
            return
        if action < 0 or action >= REACT_CODES.size or state[REACT_MASK + action] == 0:
            fail(st, P_REACT, side, action)
            return
        if action == 7:
            i = choose_hex(stream, o, G, IT, st, state, codes, params, slots, side, cand, n_back, HP_STEP_BACK)
            pay(G, side, G_RES, 2)
            g[G_Q], g[G_R] = cand[i, 0], cand[i, 1]
            check_position(o, G)
            entered = False
        else:
            pay(G, side, G_RES, hexsides(g[G_FACING], action - 1))
            g[G_FACING] = action - 1


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


@njit(cache=True, inline="always")
def movement_phase(stream, o, G, IT, st, state, codes, params, slots, mover, cand):
    """4 C/E, 5, 6: the mover acts until he passes; after each step the reactor may react (7)."""
    reactor = 1 - mover
    g = G[mover]
    g[G_FREE_TURNS] = 0
    turn = st[ST_TURN]
    while running(st):
        fill_state(state, o, G, IT, mover, PH_OWN_MOVE, turn)
        if move_mask(o, G, IT, mover, state, turn) == 0:
            break
        action = decide_move(mover, state, codes, params, stream, slots)
        if action == 0:
            break
        if not is_legal(MOVE_CODES, MOVE_CODES.size, action, state):
            fail(st, P_MOVE, mover, action)
            return
        q, r, f = g[G_Q], g[G_R], g[G_FACING]
        if action == 1 or action == 2 or action >= 30:
            if action >= 30:
                k = action - 30
                cost = o[O_ZOC_SLIDE_COST]
            else:
                k = f if action == 1 else (f + 3) % 6
                cost = step_cost(o, G, mover, q + DQ[k], r + DR[k])
            pay(G, mover, G_M, cost)
            g[G_Q], g[G_R] = q + DQ[k], r + DR[k]
            g[G_FREE_TURNS] = 0
            check_position(o, G)
            # JUG-A8: the step ends in the reactor's ZOC and did not start there
            entered = zoc_of(o, G, mover, g[G_Q], g[G_R]) and not zoc_of(o, G, mover, q, r)
            turning = o[O_REACTIVE_TURN] != 1
            if turning or entered:
                react(stream, o, G, IT, st, state, codes, params, slots, reactor, entered, turning, cand)
        elif action == 3 or action == 4:
            cost = turn_cost(o, G, mover)
            pay(G, mover, G_M, cost)
            if cost == 0:
                g[G_FREE_TURNS] += 1
            g[G_FACING] = (f + 1) % 6 if action == 3 else (f + 5) % 6
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
    if running(st) and o[O_REACTIVE_TURN] == 1:
        react(stream, o, G, IT, st, state, codes, params, slots, reactor, False, True, cand)


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


@njit(cache=True, inline="always")
def step_away(stream, o, G, IT, st, state, codes, params, slots, mover, away_from, cand, purpose):
    """15.5, 15.6: ``mover`` steps one hex straight away from ``away_from``, choosing when two hexes qualify;
    False when both lie off the board (he stays)."""
    m = away_hexes(G[away_from, G_Q], G[away_from, G_R], G[mover, G_Q], G[mover, G_R], cand)
    k = 0
    for i in range(m):
        if on_board(o[O_ARENA_RADIUS], cand[i, 0], cand[i, 1]):
            cand[k, 0], cand[k, 1] = cand[i, 0], cand[i, 1]
            k += 1
    if k == 0:
        return False
    i = choose_hex(stream, o, G, IT, st, state, codes, params, slots, mover, cand, k, purpose)
    G[mover, G_Q], G[mover, G_R] = cand[i, 0], cand[i, 1]
    check_position(o, G)
    return True


@njit(cache=True, inline="always")
def do_dodge(stream, o, G, IT, st, state, codes, params, slots, side, attacker, rng_max, cand):
    n, cost = dodge_hexes(o, G, side, attacker, rng_max, cand)
    pay(G, side, G_RES, cost)
    if o[O_DODGE_MODE] == 1:
        return
    steps = 1 if o[O_DODGE_MODE] == 0 else cost
    for _ in range(steps):
        if not step_away(stream, o, G, IT, st, state, codes, params, slots, side, attacker, cand, HP_DODGE):
            return


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
def defence(stream, o, G, IT, st, state, codes, params, slots, attacker, target, kind, zone, arc, ak, rng_max,
            cand):
    """D9 (7, JUG-A14…A17): parry (2 RP) or dodge; returns 1 when the attack is stopped. Not from the rear, not
    when helpless. A failed ``defence_roll`` spends the RP anyway."""
    g = G[target]
    if arc == ARC_REAR or helpless(o, g):
        return 0
    parry = can_parry(o, G, IT, target)
    n_dodge, dodge_cost = (0, 0)
    if g[G_ON_GROUND] == 0:
        n_dodge, dodge_cost = dodge_hexes(o, G, target, attacker, rng_max, cand)
    dodge = n_dodge > 0 and g[G_RES] >= dodge_cost
    if not parry and not dodge:
        return 0
    fill_state(state, o, G, IT, target, PH_ENEMY_COMBAT, st[ST_TURN])
    state[D_ZONE] = zone
    state[D_LOSS] = expected_loss(o, G, attacker, target, kind, zone, arc) if ak == AK_MELEE or ak == AK_MISSILE \
        else 0
    if ak == AK_MELEE and G[attacker, G_DUAL] != 0:
        state[D_LOSS] *= 2
    state[D_PARRY], state[D_DODGE], state[D_KIND] = int(parry), int(dodge), ak
    action = decide_defend(target, state, codes, params, stream, slots)
    if action == 0:
        return 0
    if (action == 1 and not parry) or (action == 2 and not dodge) or action < 0 or action > 2:
        fail(st, P_DEFEND, target, action)
        return 1
    if action == 1:
        pay(G, target, G_RES, 2)
    else:
        do_dodge(stream, o, G, IT, st, state, codes, params, slots, target, attacker, rng_max, cand)
    if o[O_DEFENCE_ROLL] > 0 and cb.d6(stream) < o[O_DEFENCE_ROLL]:
        return 0
    if action == 1 and o[O_SCYTHE_MODE] == 1 and G[attacker, G_SCYTHE] == 1:
        # JUG-A41 when_retiarius_parries: the scythe destroys the parrying Retiarius' net on d6 >= 4
        s = in_hand(IT, target, W_NET)
        if s >= 0 and cb.d6(stream) >= 4:
            IT[target, s, I_STATE] = IS_GONE
    return 1


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


@njit(cache=True, inline="always")
def apply_pushes(stream, o, G, IT, st, state, codes, params, slots, cand):
    """15.6: queued pushes in order, each straight away from the pusher's hex at that moment; a push off the
    board is lost; the facing is kept; a captured or fallen target is pushed too."""
    for i in range(st[ST_PUSHES]):
        if not running(st):
            break
        pusher, target = st[ST_PUSH0 + 2 * i], st[ST_PUSH0 + 2 * i + 1]
        step_away(stream, o, G, IT, st, state, codes, params, slots, target, pusher, cand, HP_PUSH)
    st[ST_PUSHES] = 0


@njit(cache=True)
def fumble(stream, o, G, IT, st, state, codes, params, slots, side, slot, thrown):
    """11: the fumble table (JUG-A53…A57). ``slot`` is the item used (-1 for a shield attack: the shield)."""
    g = G[side]
    g[G_FUMBLES] += 1
    kind = cb.fumble_kind(cb.d6(stream))
    if kind == F_STUMBLE:
        fell = True
        if g[G_RES] >= 1 and not helpless(o, g):
            fill_state(state, o, G, IT, side, PH_OWN_COMBAT, st[ST_TURN])
            action = decide_stumble(side, state, codes, params, stream, slots)
            if action == 1:
                pay(G, side, G_RES, 1)
                fell = False
            elif action != 0:
                fail(st, P_STUMBLE, side, action)
                return
        if fell:
            g[G_ON_GROUND] = 1
        if o[O_STUMBLE_CANCEL] == 0 or fell:
            g[G_CANCELLED] = 1
    elif kind == F_HESITATE:
        st[ST_PENDING] = 1 - side
    elif kind == cb.F_SAND:
        g[G_SAND_NEXT] = 1
    elif kind == F_SLIP:
        if thrown:
            # the thrown weapon already left his hand; only the cancellation applies
            if o[O_SLIP_CANCEL] == 1 or not other_weapon(IT, side, -1):
                g[G_CANCELLED] = 1
            return
        kept = False
        if g[G_RES] >= 1 and not helpless(o, g):
            fill_state(state, o, G, IT, side, PH_OWN_COMBAT, st[ST_TURN])
            action = decide_recover(side, state, codes, params, stream, slots)
            if action == 1:
                pay(G, side, G_RES, 1)
                kept = True
            elif action != 0:
                fail(st, P_RECOVER, side, action)
                return
        if not kept:
            IT[side, slot, I_STATE], IT[side, slot, I_Q], IT[side, slot, I_R] = IS_GROUND, g[G_Q], g[G_R]
            if IT[side, slot, I_KIND] == W_SHIELD:
                g[G_SHIELD_READY] = 0
            if o[O_SLIP_CANCEL] == 1 or not other_weapon(IT, side, slot):
                g[G_CANCELLED] = 1
    elif kind == F_BREAK:
        IT[side, slot, I_STATE] = IS_GONE
        if IT[side, slot, I_KIND] == W_SHIELD:
            g[G_SHIELD_READY] = 0


@njit(cache=True)
def shield_slot(IT, side):
    return in_hand(IT, side, W_SHIELD)


@njit(cache=True, inline="always")
def knockdown(stream, o, G, IT, st, state, codes, params, slots, target):
    """10.6 (JUG-A48): 2d6 + wounds - RP spent >= the target's AP rating: he falls."""
    g = G[target]
    if g[G_ON_GROUND] == 1:
        return
    can_spend = not helpless(o, g)
    spent = 0
    if o[O_KNOCKDOWN_SPEND] == 1 and can_spend and g[G_RES] > 0:
        fill_state(state, o, G, IT, target, PH_ENEMY_COMBAT, st[ST_TURN])
        state[S_X], state[S_X + 1] = -1, g[G_AP]
        spent = decide_knockdown(target, state, codes, params, stream, slots)
        if spent < 0 or spent > g[G_RES]:
            fail(st, P_KNOCKDOWN, target, spent)
            return
        pay(G, target, G_RES, spent)
    total = cb.knockdown_total(o, g, cb.two_d6(stream))
    if o[O_KNOCKDOWN_SPEND] == 0 and can_spend and g[G_RES] > 0 and total >= g[G_AP]:
        fill_state(state, o, G, IT, target, PH_ENEMY_COMBAT, st[ST_TURN])
        state[S_X], state[S_X + 1] = total, g[G_AP]
        spent = decide_knockdown(target, state, codes, params, stream, slots)
        if spent < 0 or spent > g[G_RES]:
            fail(st, P_KNOCKDOWN, target, spent)
            return
        pay(G, target, G_RES, spent)
    if total - spent >= g[G_AP]:
        g[G_ON_GROUND] = 1


@njit(cache=True)
def locate(stream, o, G, IT, st, state, codes, params, slots, a, d, arc, right, immob, ak):
    """9.1: the location die; with ``location = aimed`` (JUG-A11) the attacker names the zone instead (he sees
    each zone's armour, -1 where the shield covers it from his hex)."""
    if o[O_LOCATION] == 0:
        return cb.zone_of(cb.d6(stream))
    fill_state(state, o, G, IT, a, PH_OWN_COMBAT, st[ST_TURN])
    h = G[d]
    for z in range(6):
        state[S_X + z] = -1 if cb.neutralised(o, h, z, arc, right, immob) else cb.armour(h, z, immob)
    state[S_X + 6] = ak
    zone = decide_aim(a, state, codes, params, stream, slots)
    if zone < 0 or zone > 5:
        fail(st, P_AIM, a, zone)
        return 0
    return zone


@njit(cache=True)
def melee(stream, o, G, IT, st, state, codes, params, slots, a, d, kind, slot, ak, cand):
    """8.1: one assault (melee, improvised shield, full-assault bash). Returns 1 when it got through."""
    g, h = G[a], G[d]
    arc = arc_from(o, G, d, g[G_Q], g[G_R])
    right = right_side(g[G_Q] - h[G_Q], g[G_R] - h[G_R], h[G_FACING])
    immob = cb.immobilised(o, h)
    h[G_ASSAULT_LOSS] = 0
    h[G_HEAD_STUN] = 0
    rng_max = 1 if slot < 0 else max(1, IT[a, slot, I_RANGE])
    if o[O_MELEE_TO_HIT] > 0 and not immob and cb.d6(stream) < o[O_MELEE_TO_HIT]:
        return 0  # JUG-A13
    pre = 0
    if o[O_FUMBLE_SCOPE] == 1:
        pre = cb.d6(stream)  # JUG-A20 every_assault: the assault die before the defence
        if pre == 1:
            fumble(stream, o, G, IT, st, state, codes, params, slots, a, slot, False)
            return 0
    if not immob and o[O_DEFENCE_TIMING] == 1:
        if defence(stream, o, G, IT, st, state, codes, params, slots, a, d, kind, -1, arc, ak, rng_max, cand):
            return 0
    zone = locate(stream, o, G, IT, st, state, codes, params, slots, a, d, arc, right, immob, ak)
    if not running(st) or cb.neutralised(o, h, zone, arc, right, immob):
        return 0
    if not immob and o[O_DEFENCE_TIMING] == 0:
        if defence(stream, o, G, IT, st, state, codes, params, slots, a, d, kind, zone, arc, ak, rng_max, cand):
            return 0
    if not running(st):
        return 0
    double = (g[G_DUAL] == cb.DUAL_GLAIVES and kind == cb.W_GLAIVE and count_in_hand(IT, a, cb.W_GLAIVE) == 2) or (
        g[G_DUAL] == cb.DUAL_FISTS and kind == cb.W_IRON_FISTS)
    loss1, loss2, fumbled, head = cb.strike(stream, o, g, h, kind, zone, arc, right, immob, double, 1, pre)
    if fumbled == 1:
        fumble(stream, o, G, IT, st, state, codes, params, slots, a, slot, False)
        return 0
    h[G_HEAD_STUN] = head
    if kind == W_TRIDENT or kind == W_SPEAR:
        queue_push(o, st, a, d)
    assault_checks(stream, o, G, st, d)
    if fumbled == 2 and running(st):
        fumble(stream, o, G, IT, st, state, codes, params, slots, a, slot, False)
    return 1


@njit(cache=True, inline="always")
def net_throw(stream, o, G, IT, st, state, codes, params, slots, a, d, slot, cand):
    """10.3: no to-hit roll; the target leaves the 9-hex area for 1 RP per hex (the smooth helmet gives one,
    JUG-A40), parries with the scythe (JUG-A41), or is captured."""
    g, h = G[a], G[d]
    g[G_NETS] += 1
    arc = arc_from(o, G, d, g[G_Q], g[G_R])
    area = np.zeros((9, 2), np.int64)
    n_area = net_area(o[O_NET_AREA], g[G_Q], g[G_R], h[G_Q], h[G_R], area)
    tq, tr = h[G_Q], h[G_R]
    if arc != ARC_REAR and not helpless(o, h):
        free = 1 if h[G_SMOOTH] == 1 else 0
        need = max(0, 2 - free)
        n_exit = 0
        if h[G_ON_GROUND] == 0:
            n_exit = net_exits(area, n_area, g[G_Q], g[G_R], o[O_ARENA_RADIUS], o[O_NET_EXIT], cand)
        escape = n_exit > 0 and h[G_RES] >= need
        scythe = o[O_SCYTHE_MODE] == 0 and h[G_SCYTHE] == 1 and h[G_RES] >= 2 and h[G_LASSOED] == 0
        if escape or scythe:
            fill_state(state, o, G, IT, d, PH_ENEMY_COMBAT, st[ST_TURN])
            state[N_NEED], state[N_SCYTHE], state[N_ESCAPE] = need, int(scythe), int(escape)
            action = decide_net_escape(d, state, codes, params, stream, slots)
            if (action == 1 and not escape) or (action == 2 and not scythe) or action < 0 or action > 2:
                fail(st, P_NET_ESCAPE, d, action)
                return
            if action == 1:
                n_exit = net_exits(area, n_area, g[G_Q], g[G_R], o[O_ARENA_RADIUS], o[O_NET_EXIT], cand)
                i = choose_hex(stream, o, G, IT, st, state, codes, params, slots, d, cand, n_exit, HP_NET_EXIT)
                pay(G, d, G_RES, need)
                h[G_Q], h[G_R] = cand[i, 0], cand[i, 1]
                check_position(o, G)
                IT[a, slot, I_STATE], IT[a, slot, I_Q], IT[a, slot, I_R] = IS_GROUND, tq, tr  # JUG-A39
                return
            if action == 2:
                pay(G, d, G_RES, 2)
                if cb.d6(stream) >= 4:
                    IT[a, slot, I_STATE] = IS_GONE
                else:
                    IT[a, slot, I_STATE], IT[a, slot, I_Q], IT[a, slot, I_R] = IS_GROUND, tq, tr
                return
    h[G_CAPTURED] = 1
    h[G_CAPTURED_TURN] = st[ST_TURN]
    IT[a, slot, I_STATE] = IS_HOLDING


@njit(cache=True, inline="always")
def lasso(stream, o, G, IT, st, state, codes, params, slots, a, d, slot, cand):
    """10.5 (JUG-A52): no location, no damage; parried or dodged like an assault, otherwise the victim is held."""
    g, h = G[a], G[d]
    arc = arc_from(o, G, d, g[G_Q], g[G_R])
    if not cb.immobilised(o, h):
        if defence(stream, o, G, IT, st, state, codes, params, slots, a, d, W_LASSO, -1, arc, AK_LASSO,
                   o[O_LASSO_RANGE], cand):
            return
    if running(st):
        h[G_LASSOED] = 1
        h[G_LASSOED_TURN] = st[ST_TURN]
        IT[a, slot, I_STATE] = IS_HOLDING


@njit(cache=True, inline="always")
def throw(stream, o, G, IT, st, state, codes, params, slots, a, d, slot, cand):
    """10.4 (JUG-A42…A45): javelin or thrown spear: to-hit roll (spoiled for 1 RP), then location, shield, damage
    with fumble; the weapon then lies in the target's hex. An immobilised target is always hit (10.3)."""
    g, h = G[a], G[d]
    kind = IT[a, slot, I_KIND]
    if kind == W_JAVELIN:
        g[G_JAVELINS_THROWN] += 1
    arc = arc_from(o, G, d, g[G_Q], g[G_R])
    right = right_side(g[G_Q] - h[G_Q], g[G_R] - h[G_R], h[G_FACING])
    immob = cb.immobilised(o, h)
    distance = dist(g[G_Q], g[G_R], h[G_Q], h[G_R])
    IT[a, slot, I_STATE], IT[a, slot, I_Q], IT[a, slot, I_R] = IS_GROUND, h[G_Q], h[G_R]
    spoiled = False
    reserve_used = h[G_RP_USED] > 0
    if o[O_JAVELIN_RESERVE_MOD] == 0 and arc != ARC_REAR and not helpless(o, h) and h[G_RES] >= 1 and not immob:
        fill_state(state, o, G, IT, d, PH_ENEMY_COMBAT, st[ST_TURN])
        state[S_X], state[S_X + 1] = distance, cb.javelin_needs(o, distance, False, False)
        action = decide_spoil(d, state, codes, params, stream, slots)
        if action == 1:
            pay(G, d, G_RES, 1)
            spoiled = True
        elif action != 0:
            fail(st, P_SPOIL, d, action)
            return
    if not immob and cb.d6(stream) < cb.javelin_needs(o, distance, spoiled, reserve_used):
        return
    h[G_ASSAULT_LOSS] = 0
    h[G_HEAD_STUN] = 0
    zone = locate(stream, o, G, IT, st, state, codes, params, slots, a, d, arc, right, immob, AK_MISSILE)
    if not running(st) or cb.neutralised(o, h, zone, arc, right, immob):
        return
    if o[O_PARRY_MISSILES] == 1 and not immob:
        if defence(stream, o, G, IT, st, state, codes, params, slots, a, d, kind, zone, arc, AK_MISSILE, distance,
                   cand):
            return
    if not running(st):
        return
    loss1, loss2, fumbled, head = cb.strike(stream, o, g, h, kind, zone, arc, right, immob, False,
                                            o[O_MISSILE_FUMBLE], 0)
    if fumbled:
        fumble(stream, o, G, IT, st, state, codes, params, slots, a, slot, True)
        return
    assault_checks(stream, o, G, st, d)


@njit(cache=True, inline="always")
def bash(stream, o, G, IT, st, state, codes, params, slots, a, d, cand):
    """10.6 (JUG-A46, A47): ``push_only``: an assault without location or damage, parried or dodged like one;
    ``full_assault``: a 1d6-3 assault with location and fumble. If it lands, the knock-down test follows."""
    g, h = G[a], G[d]
    slot = shield_slot(IT, a)
    if o[O_BASH_MODE] == 1:
        landed = melee(stream, o, G, IT, st, state, codes, params, slots, a, d, W_SHIELD, slot, AK_BASH, cand)
    else:
        arc = arc_from(o, G, d, g[G_Q], g[G_R])
        landed = 1
        if not cb.immobilised(o, h):
            if defence(stream, o, G, IT, st, state, codes, params, slots, a, d, W_SHIELD, -1, arc, AK_BASH, 1,
                       cand):
                landed = 0
    if landed and running(st):
        knockdown(stream, o, G, IT, st, state, codes, params, slots, d)


@njit(cache=True)
def resolve_attack(stream, o, G, IT, st, state, codes, params, slots, a, action, free, cand):
    """Pay for and resolve attack ``action`` (``policies.ATTACK_CODES``) of side ``a``; any attack counts against
    cowardice (12.6)."""
    d = 1 - a
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
    if not free:
        pay(G, a, G_C, cost)
    if 30 <= action < 40:
        bash(stream, o, G, IT, st, state, codes, params, slots, a, d, cand)
    elif (20 <= action < 30) or kind == W_JAVELIN:
        throw(stream, o, G, IT, st, state, codes, params, slots, a, d, slot, cand)
    elif kind == W_NET:
        net_throw(stream, o, G, IT, st, state, codes, params, slots, a, d, slot, cand)
    elif kind == W_LASSO:
        lasso(stream, o, G, IT, st, state, codes, params, slots, a, d, slot, cand)
    else:
        melee(stream, o, G, IT, st, state, codes, params, slots, a, d, kind, slot, AK_MELEE, cand)
    after_attack(stream, o, G, IT, st, state, codes, params, slots, a, d)


@njit(cache=True, inline="always")
def free_assaults(stream, o, G, IT, st, state, codes, params, slots, cand):
    """11 fumble 2-3 (JUG-A54): the fumbler's opponent makes one free assault (0 AP), or with no legal attack may
    turn to face the fumbler for free; the free assault can itself fumble, so this runs as a chain."""
    while running(st) and st[ST_PENDING] >= 0:
        b = st[ST_PENDING]
        st[ST_PENDING] = -1
        fill_state(state, o, G, IT, b, PH_ENEMY_COMBAT, st[ST_TURN])
        n = attack_mask(o, G, IT, b, state, True)
        g = G[b]
        if n == 0 and not helpless(o, g) and g[G_ON_GROUND] == 0:
            for f in range(6):
                if f != g[G_FACING]:
                    state[S_X + ATTACK_CODES.size - 6 + f] = 1
        action = decide_free_assault(b, state, codes, params, stream, slots)
        if action == 0:
            continue
        if not is_legal(ATTACK_CODES, ATTACK_CODES.size, action, state):
            fail(st, P_FREE_ASSAULT, b, action)
            return
        if action >= 50:
            g[G_FACING] = action - 50
        else:
            resolve_attack(stream, o, G, IT, st, state, codes, params, slots, b, action, True, cand)


@njit(cache=True, inline="always")
def before_assault_turn(stream, o, G, IT, st, state, codes, params, slots, defender, cand):
    """JUG-A7 ``also_before_each_assault``: the defender may turn (RP) before each enemy assault."""
    if o[O_REACTIVE_TURN] == 2:
        react(stream, o, G, IT, st, state, codes, params, slots, defender, False, True, cand)


@njit(cache=True, inline="always")
def combat_phase(stream, o, G, IT, st, state, codes, params, slots, a, cand):
    """4 D/F, 8: the attacker attacks until he passes, has no legal attack or has his assaults cancelled; then
    the queued push-backs are applied (10.2)."""
    g = G[a]
    st[ST_PUSHES] = 0
    st[ST_PENDING] = -1
    while running(st):
        before_assault_turn(stream, o, G, IT, st, state, codes, params, slots, 1 - a, cand)
        if not running(st):
            break
        fill_state(state, o, G, IT, a, PH_OWN_COMBAT, st[ST_TURN])
        n = attack_mask(o, G, IT, a, state, False)
        if n == 0:
            break
        g[G_COULD_ATTACK] = 1
        action = decide_attack(a, state, codes, params, stream, slots)
        if action == 0:
            break
        if not is_legal(ATTACK_CODES, ATTACK_CODES.size - 6, action, state):
            fail(st, P_ATTACK, a, action)
            return
        resolve_attack(stream, o, G, IT, st, state, codes, params, slots, a, action, False, cand)
        free_assaults(stream, o, G, IT, st, state, codes, params, slots, cand)
    if running(st):
        apply_pushes(stream, o, G, IT, st, state, codes, params, slots, cand)


# ------------------------------------------------------------------------------------------------ turn
@njit(cache=True, inline="always")
def allocate(stream, o, G, IT, st, state, codes, params, slots):
    """4 A (JUG-A4): each side splits all his AP into M + C + R; B sees A's split only with
    ``allocation = g1_then_g2_open``. Then the scutum zone (D5) and the sand of fumble 4 (JUG-A55)."""
    turn = st[ST_TURN]
    for s in range(2):
        g = G[s]
        fill_state(state, o, G, IT, s, PH_SPLIT, turn)
        state[S_X] = -1
        if s == 1 and o[O_ALLOCATION] == 1:
            state[S_X] = G[0, G_M] * 100 + G[0, G_C]
        action = decide_allocate(s, state, codes, params, stream, slots)
        m, c = action // 100, action % 100
        if action < 0 or c >= 100 or m + c > g[G_AP]:
            fail(st, P_ALLOCATE, s, action)
            return
        g[G_M], g[G_C], g[G_RES] = m, c, g[G_AP] - m - c
        g[G_AP_ALLOC] += g[G_AP]
    for s in range(2):
        g = G[s]
        if g[G_SHIELD] == SH_SCUTUM:
            fill_state(state, o, G, IT, s, PH_SPLIT, turn)
            state[S_X] = g[cb.G_ARMOUR + Z_THORAX]
            state[S_X + 1] = g[cb.G_ARMOUR + Z_LEFT_LEG]
            state[S_X + 2] = g[cb.G_ARMOUR + Z_HEAD]
            state[S_X + 3] = o[O_SCUTUM_ZONES]
            zone = decide_scutum_zone(s, state, codes, params, stream, slots)
            if not (zone == Z_THORAX or zone == Z_LEFT_LEG or (zone == Z_HEAD and o[O_SCUTUM_ZONES] == 1)):
                fail(st, P_SCUTUM_ZONE, s, zone)
                return
            g[G_SCUTUM_ZONE] = zone
        if g[G_SAND_NEXT] == 1:
            if o[O_SAND_MODE] == 0:
                g[G_M] = g[G_M] // 2
            elif o[O_SAND_MODE] == 1:
                g[G_M] = (g[G_M] + 1) // 2
            else:
                g[G_M] = min(g[G_M], g[G_AP] // 2)
            g[G_SAND_NEXT] = 0


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


@njit(cache=True)
def play_duel(stream, o, G, IT, st, state, codes, params, slots, cand):
    """4: the whole duel; returns with ``st[ST_REASON]`` set."""
    st[:] = 0
    st[ST_PREV_ACTIVE] = -1
    st[ST_PENDING] = -1
    for turn in range(1, o[O_MAX_TURNS] + 1):
        st[ST_TURN] = turn
        for s in range(2):
            g = G[s]
            g[G_TURN_LOSS] = 0
            g[G_ATTACKED] = 0
            g[G_CANCELLED] = 0
            g[G_COULD_ATTACK] = 0
            g[G_JAVELINS_THROWN] = 0
            g[G_RP_USED] = 0
            g[G_ESCAPE_TRIED] = 0
        voluntary(stream, o, G, IT, st, state, codes, params, slots, 0, 0)
        voluntary(stream, o, G, IT, st, state, codes, params, slots, 1, 0)
        if not running(st):
            return
        allocate(stream, o, G, IT, st, state, codes, params, slots)
        if not running(st):
            return
        active = initiative(stream, o, st)
        st[ST_PREV_ACTIVE] = active
        for mover in (active, 1 - active):
            movement_phase(stream, o, G, IT, st, state, codes, params, slots, mover, cand)
            if not running(st):
                return
            combat_phase(stream, o, G, IT, st, state, codes, params, slots, mover, cand)
            if not running(st):
                return
        cowardice(o, G, st)
        for s in range(2):
            if G[s, G_STUNNED_UNTIL] == turn:
                G[s, G_STUNNED_UNTIL] = 0
        if not running(st):
            return
    finish(st, R_UNFINISHED, -1)


@njit(cache=True, inline="always")
def setup(o, G, IT, G0, IT0):
    """2, 15.1 (JUG-A1): A at (0,0) facing 0, B at distance 2 (or 3) facing 3; all weapons in hand."""
    G[:, :] = G0
    IT[:, :, :] = IT0
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


@njit(cache=True)
def duel_scratch(args):
    """The buffers a block of duels reuses: game status, policy state, gladiators, their items, hexes."""
    G0, IT0 = args[1], args[2]
    return (np.zeros(ST_SIZE, np.int64), np.zeros(STATE_SIZE, np.int64), np.zeros_like(G0), np.zeros_like(IT0),
            np.zeros((SCRATCH, 2), np.int64))


@njit(cache=True, inline="always")
def duel_game(stream, row, codes, params, slots, o, G0, IT0, st, state, G, IT, cand):
    """One duel from the set-up; its outcome row, or the error code of an illegal action."""
    setup(o, G, IT, G0, IT0)
    play_duel(stream, o, G, IT, st, state, codes, params, slots, cand)
    if st[ST_REASON] == R_ERROR:
        return st[ST_ERROR]
    score(G, st, row)
    return 0


duel_kernel = block_kernel("duel_kernel", duel_scratch, duel_game, N_METRICS)
