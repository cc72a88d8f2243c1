"""Battle: the specification's PROPOSAL P8 (spec 3.2), the battle hook, and the kernel of ``semper_victor.battle``.

**PROPOSAL P8 — not from the published rules.** Section 8 (battle) of Semper Victor was not found; P8 is a minimal
stand-in written by the specification's authors so that procedures needing a battle can run. The battle a
scenario plays is the decision point ``battle``: its only built-in, ``p8_proposal``, is ``p8_battle`` below, and a
user ``@njit`` function with the same signature, that of every policy, replaces it::

    def fn(state, params, stream):                # return value ignored
        units, leaders, context, out = battle_tables(state)
        ...

``state`` is one int64 buffer holding the battle's tables (the ``battle`` decision point names its entries);
``battle_tables`` returns them as arrays that share its memory, and ``battle_state`` builds such a buffer from
tables. The hook plays the battle by changing the tables' state columns in place and writes ``out``. Sides are 0
and 1; ``context[C_ATTACKER]`` says which attacks (the scenario compiles the attacker as
side 0). Rows of one side keep the order of the scenario's lists; a unit's or leader's *index in its side* is its
rank among that side's rows.

``units``: one row per unit, columns
    ``U_SIDE`` 0/1 · ``U_SP, U_QU, U_TB`` the full face · ``U_WSP, U_WQU, U_WTB`` the weakened face (seed 1.3) ·
    ``U_BARRED`` bit z set = may not enter its side's retreat zone z ·
    state, changed by the battle: ``U_WEAKENED`` 0/1 · ``U_ALIVE`` 0/1 · ``U_RETREATED`` 0/1.
``leaders``: one row per leader, columns
    ``L_SIDE`` · ``L_TB, L_CC, L_SR`` · ``L_ROLE`` (``ROLE_*``: general, caesar, augustus, usurper, civil_war,
    dux) · ``L_BARRED`` as for units · state: ``L_ALIVE`` · ``L_RETREATED`` · ``L_COMMANDER`` (1 = led its side).
``context``: ``C_ATTACKER`` · ``C_THRESHOLD`` (p8_threshold: 0 QU+TB+TBc, 1 QU+TBc, 2 QU) · ``C_DICE`` d10 per
    unit · ``C_PURSUIT`` 0/1 · ``C_DEATH_FROM`` a losing leader dies on d10 >= this (10 = never) ·
    ``C_CIVIL_KILLS`` 0/1 · ``C_COMMANDER_CHOICE`` 0/1 · ``C_ZONES + side`` retreat zones of each side ·
    ``C_LOSSES_CODE, C_RETREAT_CODE, C_COMMANDER_CODE`` the built-in policies ``p8_battle`` uses.
``out``: ``O_WINNER`` the winning side · ``O_HITS + side`` hits the side inflicted in P8.3 (surplus included) ·
    ``O_ERROR`` 0, or a policy error code.

The kernel starts every game from the compiled tables (all pieces alive, nothing retreated), checks what a user
hook left (``check_hook``) and scores the outcome row from the tables, so a user battle gets the same metrics.
"""
import numpy as np
from ..core.jit import njit

from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import MAX_PARAMS, USER, call, error_code
from .policies import (
    BATTLE_DP_COMMANDER,
    BATTLE_DP_HOOK,
    BATTLE_DP_LOSSES,
    BATTLE_DP_RETREAT,
    BATTLE_MAX_LEADERS,
    BATTLE_MAX_UNITS,
    COMMANDER_LEADER0,
    COMMANDER_STATE_SIZE,
    HOOK_CONTEXT,
    HOOK_CONTEXT_FIELDS,
    HOOK_LEADER0,
    HOOK_LEADER_FIELDS,
    HOOK_LEADERS,
    HOOK_OUT,
    HOOK_OUT_FIELDS,
    HOOK_STATE_SIZE,
    HOOK_UNIT0,
    HOOK_UNIT_FIELDS,
    HOOK_UNITS,
    LOSS_STATE_SIZE,
    LOSS_UNIT0,
    RETREAT_LEADER0,
    RETREAT_STATE_SIZE,
    RETREAT_UNIT0,
    ROLE_AUGUSTUS,
    ROLE_CIVIL_WAR,
    ROLE_USURPER,
    decide_battle_commander,
    decide_battle_losses,
    decide_battle_retreat,
)

# units columns
U_SIDE, U_SP, U_QU, U_TB, U_WSP, U_WQU, U_WTB, U_BARRED, U_WEAKENED, U_ALIVE, U_RETREATED, U_COLS = range(12)
# leaders columns
L_SIDE, L_TB, L_CC, L_SR, L_ROLE, L_BARRED, L_ALIVE, L_RETREATED, L_COMMANDER, L_COLS = range(10)
# context entries
(C_ATTACKER, C_THRESHOLD, C_DICE, C_PURSUIT, C_DEATH_FROM, C_CIVIL_KILLS, C_COMMANDER_CHOICE, C_ZONES,
 C_LOSSES_CODE, C_RETREAT_CODE, C_COMMANDER_CODE, N_CONTEXT) = (0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12)
# out entries
O_WINNER, O_HITS, O_ERROR, N_OUT = 0, 1, 3, 4
# the hook's state names the columns in this order
assert (len(HOOK_UNIT_FIELDS), len(HOOK_LEADER_FIELDS), len(HOOK_CONTEXT_FIELDS), len(HOOK_OUT_FIELDS)) == (
    U_COLS, L_COLS, N_CONTEXT, N_OUT)

# outcome columns, in Battle.metrics order
(WIN, LOSS, ATT_HITS, DEF_HITS, ATT_SP_LOST, DEF_SP_LOST, ATT_ELIMINATED, DEF_ELIMINATED, ATT_RETREATED,
 DEF_RETREATED, ATT_LEADERS_KILLED, DEF_LEADERS_KILLED, AUGUSTUS_DEFEATED, N_METRICS) = range(14)


@njit(cache=True, inline="always")
def current_sp(units, i):
    if not units[i, U_ALIVE]:
        return 0
    return units[i, U_WSP] if units[i, U_WEAKENED] else units[i, U_SP]


@njit(cache=True, inline="always")
def threshold(units, i, tbc, mode):
    """P8.3: a die hits if d10 < clamp(QU + TB + TBc, 1, 9), on the unit's current face (p8_threshold)."""
    weak = units[i, U_WEAKENED]
    qu = units[i, U_WQU] if weak else units[i, U_QU]
    tb = units[i, U_WTB] if weak else units[i, U_TB]
    t = qu + tb + tbc
    if mode == 1:
        t = qu + tbc
    elif mode == 2:
        t = qu
    return min(9, max(1, t))


@njit(cache=True, inline="always")
def fire(units, side, tbc, context, stream):
    """P8.3: every unit of ``side`` alive rolls C_DICE d10, in row order; returns the hits."""
    hits = 0
    for i in range(units.shape[0]):
        if units[i, U_SIDE] != side or not units[i, U_ALIVE]:
            continue
        t = threshold(units, i, tbc, context[C_THRESHOLD])
        for _ in range(context[C_DICE]):
            if rng.d10(stream) < t:
                hits += 1
    return hits


@njit(cache=True, inline="always")
def allocate(units, side, hits, pursuit, attacker, context, state, stream, params, slots):
    """P8.4: each hit is one step on a unit the owner picks (D14): full -> weakened -> eliminated. Surplus hits
    are lost. Under pursuit only retreated units are eligible. Returns 0 or a policy error code."""
    for h in range(hits):
        n, eligible = 0, 0
        for i in range(units.shape[0]):
            if units[i, U_SIDE] != side:
                continue
            ok = units[i, U_ALIVE] == 1 and (pursuit == 0 or units[i, U_RETREATED] == 1)
            base = LOSS_UNIT0 + 8 * n
            weak = units[i, U_WEAKENED]
            state[base] = units[i, U_ALIVE]
            state[base + 1] = weak
            state[base + 2] = current_sp(units, i)
            state[base + 3] = units[i, U_SP]
            state[base + 4] = units[i, U_WSP]
            state[base + 5] = units[i, U_WQU] if weak else units[i, U_QU]
            state[base + 6] = units[i, U_WTB] if weak else units[i, U_TB]
            state[base + 7] = 1 if ok else 0
            eligible += state[base + 7]
            n += 1
        if eligible == 0:
            return 0
        state[0], state[1], state[2], state[3], state[4], state[5] = (
            side, 1 if side == attacker else 0, hits - h, hits, pursuit, n)
        a = decide_battle_losses(context[C_LOSSES_CODE], params[BATTLE_DP_LOSSES], state, stream, slots,
                                 BATTLE_DP_LOSSES)
        if a < 0 or a >= n or state[LOSS_UNIT0 + 8 * a + 7] == 0:
            return error_code(BATTLE_DP_LOSSES, a)
        k = -1
        for i in range(units.shape[0]):
            if units[i, U_SIDE] == side:
                k += 1
                if k == a:
                    if units[i, U_WEAKENED]:
                        units[i, U_ALIVE] = 0
                    else:
                        units[i, U_WEAKENED] = 1
                    break
    return 0


@njit(cache=True, inline="always")
def commander(leaders, side, attacker, context, state, stream, params, slots):
    """P8.2: the side's commander row (-1 without a leader) and an error code."""
    n = 0
    best = -1
    for r in range(leaders.shape[0]):
        if leaders[r, L_SIDE] != side:
            continue
        base = COMMANDER_LEADER0 + 4 * n
        state[base], state[base + 1], state[base + 2], state[base + 3] = (
            leaders[r, L_TB], leaders[r, L_CC], leaders[r, L_SR], leaders[r, L_ROLE])
        if best < 0:
            best = r
        else:
            # highest TB, then CC, then SR; a remaining tie changes no die, so the first in the list
            for c in (L_TB, L_CC, L_SR):
                if leaders[r, c] != leaders[best, c]:
                    if leaders[r, c] > leaders[best, c]:
                        best = r
                    break
        n += 1
    if n == 0 or not context[C_COMMANDER_CHOICE]:
        return best, 0
    state[0], state[1], state[2] = side, 1 if side == attacker else 0, n
    a = decide_battle_commander(context[C_COMMANDER_CODE], params[BATTLE_DP_COMMANDER], state, stream,
                                slots, BATTLE_DP_COMMANDER)
    if a < 0 or a >= n:
        return -1, error_code(BATTLE_DP_COMMANDER, a)
    k = -1
    for r in range(leaders.shape[0]):
        if leaders[r, L_SIDE] == side:
            k += 1
            if k == a:
                return r, 0
    return -1, 0


@njit(cache=True, inline="always")
def retreat(units, leaders, side, attacker, context, state, stream, params, slots):
    """P8.6: the loser's survivors move together into one of its retreat zones (D14); a piece barred from it,
    or every survivor when there is no zone, is eliminated (a leader killed). Returns 0 or an error code."""
    zones = context[C_ZONES + side]
    n_units, n_leaders, survivors = 0, 0, 0
    for i in range(units.shape[0]):
        if units[i, U_SIDE] == side:
            base = RETREAT_UNIT0 + 3 * n_units
            state[base], state[base + 1] = units[i, U_ALIVE], current_sp(units, i)
            state[base + 2] = units[i, U_BARRED]
            survivors += units[i, U_ALIVE]
            n_units += 1
    for r in range(leaders.shape[0]):
        if leaders[r, L_SIDE] == side:
            base = RETREAT_LEADER0 + 3 * n_leaders
            state[base], state[base + 1] = leaders[r, L_ALIVE], leaders[r, L_BARRED]
            state[base + 2] = leaders[r, L_ROLE]
            survivors += leaders[r, L_ALIVE]
            n_leaders += 1
    if survivors == 0:
        return 0
    barred = -1  # every bit: nowhere to go
    if zones > 0:
        state[0], state[1], state[2] = side, 1 if side == attacker else 0, zones
        state[3], state[4] = n_units, n_leaders
        z = decide_battle_retreat(context[C_RETREAT_CODE], params[BATTLE_DP_RETREAT], state, stream, slots,
                                  BATTLE_DP_RETREAT)
        if z < 0 or z >= zones:
            return error_code(BATTLE_DP_RETREAT, z)
        barred = np.int64(1) << z
    for i in range(units.shape[0]):
        if units[i, U_SIDE] == side and units[i, U_ALIVE]:
            if units[i, U_BARRED] & barred:
                units[i, U_ALIVE] = 0
            else:
                units[i, U_RETREATED] = 1
    for r in range(leaders.shape[0]):
        if leaders[r, L_SIDE] == side and leaders[r, L_ALIVE]:
            if leaders[r, L_BARRED] & barred:
                leaders[r, L_ALIVE] = 0
            else:
                leaders[r, L_RETREATED] = 1
    return 0


@njit(cache=True, inline="always")
def p8_core(units, leaders, context, out, stream, losses, retreats, commands, params, slots):
    """PROPOSAL P8 (spec 3.2; not from the published rules), P8.2-P8.8, with the D14 policies.

    Dice in this order: commander choices (random built-in only; attacker, then defender), the attacker's fire,
    the defender's fire, the attacker's then the defender's loss allocations (random built-in only), the retreat
    zone (random built-in only), pursuit fire and its allocation (p8_pursuit), then one d10 per surviving leader
    of the loser in row order.
    """
    attacker = context[C_ATTACKER]
    defender = 1 - attacker
    out[O_WINNER], out[O_HITS], out[O_HITS + 1], out[O_ERROR] = 0, 0, 0, 0
    # P8.2 commanders
    tbc_a, tbc_d = 0, 0
    for s in (attacker, defender):
        r, err = commander(leaders, s, attacker, context, commands, stream, params, slots)
        if err:
            out[O_ERROR] = err
            return
        if r >= 0:
            leaders[r, L_COMMANDER] = 1
            if s == attacker:
                tbc_a = leaders[r, L_TB]
            else:
                tbc_d = leaders[r, L_TB]
    # P8.3 simultaneous fire: both sides roll before any loss is taken
    hits_a = fire(units, attacker, tbc_a, context, stream)
    hits_d = fire(units, defender, tbc_d, context, stream)
    out[O_HITS + attacker], out[O_HITS + defender] = hits_a, hits_d
    # P8.4 losses, the attacker's first
    err = allocate(units, attacker, hits_d, 0, attacker, context, losses, stream, params, slots)
    if err == 0:
        err = allocate(units, defender, hits_a, 0, attacker, context, losses, stream, params, slots)
    if err:
        out[O_ERROR] = err
        return
    # P8.5 result
    alive_a, alive_d, sp_a, sp_d = 0, 0, 0, 0
    for i in range(units.shape[0]):
        if units[i, U_SIDE] == attacker:
            alive_a += units[i, U_ALIVE]
            sp_a += current_sp(units, i)
        else:
            alive_d += units[i, U_ALIVE]
            sp_d += current_sp(units, i)
    if alive_a == 0 and alive_d > 0:
        loser = attacker
    elif alive_d == 0 and alive_a > 0:
        loser = defender
    elif hits_a != hits_d:
        loser = attacker if hits_a < hits_d else defender
    elif sp_a != sp_d:
        loser = attacker if sp_a < sp_d else defender
    else:
        loser = attacker  # the defender holds
    winner = 1 - loser
    out[O_WINNER] = winner
    # P8.6 retreat, then pursuit (p8_pursuit): the winner fires once more at the units that retreated
    err = retreat(units, leaders, loser, attacker, context, retreats, stream, params, slots)
    if err:
        out[O_ERROR] = err
        return
    if context[C_PURSUIT]:
        fled = 0
        for i in range(units.shape[0]):
            if units[i, U_SIDE] == loser and units[i, U_ALIVE] and units[i, U_RETREATED]:
                fled += 1
        if fled > 0:
            hits = fire(units, winner, tbc_a if winner == attacker else tbc_d, context, stream)
            err = allocate(units, loser, hits, 1, attacker, context, losses, stream, params, slots)
            if err:
                out[O_ERROR] = err
                return
    # P8.8 then P8.7: a civil-war defeat kills without a roll; every other surviving loser's leader rolls
    usurpers_win = 0
    for r in range(leaders.shape[0]):
        role = leaders[r, L_ROLE]
        if leaders[r, L_SIDE] == winner and (role == ROLE_USURPER or role == ROLE_CIVIL_WAR):
            usurpers_win = 1
    for r in range(leaders.shape[0]):
        if leaders[r, L_SIDE] != loser or not leaders[r, L_ALIVE]:
            continue
        role = leaders[r, L_ROLE]
        if context[C_CIVIL_KILLS] and (role == ROLE_USURPER or (role == ROLE_AUGUSTUS and usurpers_win)):
            leaders[r, L_ALIVE] = 0
        elif rng.d10(stream) >= context[C_DEATH_FROM]:
            leaders[r, L_ALIVE] = 0


@njit(cache=True, inline="always")
def battle_tables(state):
    """The tables ``(units, leaders, context, out)`` of a battle hook's ``state``, sharing its memory."""
    nu, nl = state[HOOK_UNITS], state[HOOK_LEADERS]
    units = state[HOOK_UNIT0:HOOK_UNIT0 + nu * U_COLS].reshape((nu, U_COLS))
    leaders = state[HOOK_LEADER0:HOOK_LEADER0 + nl * L_COLS].reshape((nl, L_COLS))
    return units, leaders, state[HOOK_CONTEXT:HOOK_CONTEXT + N_CONTEXT], state[HOOK_OUT:HOOK_OUT + N_OUT]


@njit(cache=True)
def battle_state(units, leaders, context):
    """A battle hook's ``state`` holding copies of the tables (``out`` zero)."""
    state = np.zeros(HOOK_STATE_SIZE, np.int64)
    state[HOOK_UNITS], state[HOOK_LEADERS] = units.shape[0], leaders.shape[0]
    u, g, c, _ = battle_tables(state)
    u[:, :] = units
    g[:, :] = leaders
    c[:] = context
    return state


@njit(cache=True)
def p8_battle(state, params, stream):
    """The built-in battle hook ``p8_proposal``: PROPOSAL P8 (spec 3.2) — not from the published rules.

    Same signature as a user hook; plays the D14 decisions with the built-ins whose codes are in the context
    (so a user hook may call it and then change the result). Returns 0.
    """
    units, leaders, context, out = battle_tables(state)
    d14 = np.zeros((4, MAX_PARAMS), np.float64)
    p8_core(units, leaders, context, out, stream, np.zeros(LOSS_STATE_SIZE, np.int64),
            np.zeros(RETREAT_STATE_SIZE, np.int64), np.zeros(COMMANDER_STATE_SIZE, np.int64), d14, None)
    return 0


@njit(cache=True, inline="always")
def check_hook(units, units0, leaders, leaders0, out):
    """0, or the error locating the first entry a user battle hook left that the tables cannot hold."""
    for i in range(units.shape[0]):
        for c in range(U_COLS):
            v = units[i, c]
            if c == U_WEAKENED or c == U_ALIVE or c == U_RETREATED:
                bad = v < 0 or v > 1 or (c == U_ALIVE and v > units0[i, c])
                bad = bad or (c == U_WEAKENED and units[i, U_ALIVE] == 1 and v < units0[i, c])
            else:
                bad = v != units0[i, c]
            if bad:
                return error_code(BATTLE_DP_HOOK, 100 * i + c)
    for r in range(leaders.shape[0]):
        for c in range(L_COLS):
            v = leaders[r, c]
            if c == L_ALIVE or c == L_RETREATED or c == L_COMMANDER:
                bad = v < 0 or v > 1 or (c == L_ALIVE and v > leaders0[r, c])
            else:
                bad = v != leaders0[r, c]
            if bad:
                return error_code(BATTLE_DP_HOOK, 10000 + 100 * r + c)
    if out[O_WINNER] < 0 or out[O_WINNER] > 1:
        return error_code(BATTLE_DP_HOOK, 20000 + O_WINNER)
    for s in range(2):
        if out[O_HITS + s] < 0:
            return error_code(BATTLE_DP_HOOK, 20000 + O_HITS + s)
    if out[O_ERROR] != 0:
        return error_code(BATTLE_DP_HOOK, 20000 + O_ERROR)
    return 0


@njit(cache=True, inline="always")
def score(row, units, units0, leaders, leaders0, context, out):
    """The outcome row of ``Battle.metrics`` from the tables a battle left."""
    row[:] = 0
    attacker = context[C_ATTACKER]
    winner = out[O_WINNER]
    row[WIN] = 1 if winner == attacker else 0
    row[LOSS] = 1 - row[WIN]
    row[ATT_HITS] = out[O_HITS + attacker]
    row[DEF_HITS] = out[O_HITS + 1 - attacker]
    for i in range(units.shape[0]):
        d = 0 if units[i, U_SIDE] == attacker else 1
        row[ATT_SP_LOST + d] += current_sp(units0, i) - current_sp(units, i)
        if not units[i, U_ALIVE]:
            row[ATT_ELIMINATED + d] += 1
        elif units[i, U_RETREATED]:
            row[ATT_RETREATED + d] += 1
    for r in range(leaders.shape[0]):
        d = 0 if leaders[r, L_SIDE] == attacker else 1
        if not leaders[r, L_ALIVE]:
            row[ATT_LEADERS_KILLED + d] += 1
        if leaders0[r, L_SIDE] != winner and leaders0[r, L_ROLE] == ROLE_AUGUSTUS:
            row[AUGUSTUS_DEFEATED] = 1


@njit(cache=True)
def battle_scratch(args):
    """The hook's state and its tables, then one D14 state per decision point."""
    units0, leaders0, context0 = args
    state = battle_state(units0, leaders0, context0)
    units, leaders, context, out = battle_tables(state)
    return (state, units, leaders, context, out, np.zeros(LOSS_STATE_SIZE, np.int64),
            np.zeros(RETREAT_STATE_SIZE, np.int64), np.zeros(COMMANDER_STATE_SIZE, np.int64))


@njit(cache=True, inline="always")
def battle_game(stream, row, codes, params, slots, units0, leaders0, context0, state, units, leaders, context, out,
                losses, retreats, commands):
    """One battle of the ``battle`` hook (PROPOSAL P8 by default) from the compiled tables. Fills ``row``;
    returns 0 or a policy error code."""
    units[:, :] = units0
    leaders[:, :] = leaders0
    context[:] = context0
    context[C_LOSSES_CODE] = codes[BATTLE_DP_LOSSES]
    context[C_RETREAT_CODE] = codes[BATTLE_DP_RETREAT]
    context[C_COMMANDER_CODE] = codes[BATTLE_DP_COMMANDER]
    out[:] = 0
    if codes[BATTLE_DP_HOOK] == USER:
        # the row counts are the hook's to read: reset, so that a hook changing them cannot move the tables
        state[HOOK_UNITS], state[HOOK_LEADERS] = units0.shape[0], leaders0.shape[0]
        call(slots, BATTLE_DP_HOOK, state, params[BATTLE_DP_HOOK], stream)
        err = check_hook(units, units0, leaders, leaders0, out)
    else:
        p8_core(units, leaders, context, out, stream, losses, retreats, commands, params, slots)
        err = out[O_ERROR]
    if err:
        return err
    score(row, units, units0, leaders, leaders0, context0, out)
    return 0


battle_kernel = block_kernel("battle_kernel", battle_scratch, battle_game, N_METRICS)


MAX_UNITS = BATTLE_MAX_UNITS
MAX_LEADERS = BATTLE_MAX_LEADERS
