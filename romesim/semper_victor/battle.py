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

P8 itself is a state machine (``core.loop.machine_game``): ``p8_game`` plays ``p8_init``, ``p8_advance``,
``p8_legal``, ``p8_apply`` and ``p8_decide`` on the arrays ``(units0, leaders0, context0) + battle_scratch(args) +
(row,)``, which hold the whole battle in progress (``g``: its stage, the commander and hit counters, each side's
TBc, the allocation under way, the loser), so a copy of them at a D14 decision is the battle at that decision. Each
D14 point has its own state vector (``losses``, ``retreats``, ``commands``). The kernel plays a user hook in one
call, or the machine through the core loop; ``p8_battle`` runs the machine on the hook's tables with the built-in
codes of its context. The scenario's ``machine`` lets ``romesim.new_game`` step a P8 battle by copying its arrays
(a battle whose hook is a user function is replayed instead: the hook replaces the whole machine).
"""
import numpy as np
from ..core.jit import njit

from ..core import rng
from ..core.loop import END, NO_NRT, Machine, block_kernel, copy_into, decider, machine_game
from ..core.search import Search
from ..core.policy import MAX_PARAMS, USER, call, error_code
from .policies import (
    BATTLE_DP_COMMANDER,
    BATTLE_DP_HOOK,
    BATTLE_DP_LOSSES,
    BATTLE_DP_RETREAT,
    BATTLE_MAX_LEADERS,
    BATTLE_MAX_ZONES,
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
    copy_into(u, units)
    copy_into(g, leaders)
    copy_into(c, context)
    return state


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


# The battle as a state machine (``core.loop.machine_game``). Where the battle stands lives in ``g``: the stage of
# P8 (``G_STAGE``, ``ST_*``), the counters inside it (the side whose commander is named, the hit being allocated),
# and what later steps need (each side's commander's TBc, the allocation in progress, the loser). A stage posts a
# decision by writing its state vector and returning its point with ``G_ASKED`` set (``ask``); ``apply`` stores the
# action, and the next ``advance`` re-enters the same stage, which takes it (``answer``) and goes on. No stage rolls
# a die before its ask, so re-entering it repeats nothing: the dice fall in ``p8_advance``'s documented order.
ST_COMMANDER, ST_FIRE, ST_LOSSES, ST_DEFENDER_LOSSES, ST_RESULT, ST_RETREAT, ST_PURSUIT, ST_DEATHS, ST_END = range(9)
NEXT = -2  # a stage's answer when the battle goes on to another stage without a decision
# G_K: 0 the attacker's commander is named, 1 the defender's; G_TBC + side: its commander's TB (0 without one);
# G_SIDE, G_HITS, G_PURSUIT, G_H, G_THEN: the allocation in progress (P8.4), its side, hits, pursuit flag, the hit
# being allocated and the stage that follows it
(G_STAGE, G_ASKED, G_ACTION, G_K, G_TBC, G_SIDE, G_HITS, G_PURSUIT, G_H, G_THEN, G_LOSER, G_SIZE) = (
    0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12)
N_BATTLE_POINTS = 4


@njit(cache=True, inline="always")
def ask(g, point):
    """Post decision ``point`` (its state vector written): the stage that asks is re-entered with the action."""
    g[G_ASKED] = 1
    return point


@njit(cache=True, inline="always")
def answer(g):
    """The action taken at the decision this stage posted."""
    g[G_ASKED] = 0
    return g[G_ACTION]


@njit(cache=True, inline="always")
def losses_setup(g, side, hits, pursuit, then):
    """P8.4: ``side`` takes ``hits`` steps, one decision per hit (``pursuit``: only retreated units), then ``then``."""
    g[G_SIDE], g[G_HITS], g[G_PURSUIT], g[G_H], g[G_THEN] = side, hits, pursuit, 0, then
    g[G_STAGE] = ST_LOSSES


@njit(cache=True, inline="always")
def commanders(leaders, context, commands, g):
    """P8.2 (D14 ``commander``): each side's commander, the attacker's first: its leader with the highest TB, then
    CC, then SR (a remaining tie changes no die: the first in the list), or with p8_commander = choice the one the
    side picks. Its TB is the side's TBc."""
    attacker = context[C_ATTACKER]
    while g[G_K] < 2:
        side = attacker if g[G_K] == 0 else 1 - attacker
        r = -1
        if g[G_ASKED]:
            a = answer(g)
            k = -1
            for q in range(leaders.shape[0]):
                if leaders[q, L_SIDE] == side:
                    k += 1
                    if k == a:
                        r = q
                        break
        else:
            n = 0
            for q in range(leaders.shape[0]):
                if leaders[q, L_SIDE] != side:
                    continue
                base = COMMANDER_LEADER0 + 4 * n
                commands[base], commands[base + 1], commands[base + 2], commands[base + 3] = (
                    leaders[q, L_TB], leaders[q, L_CC], leaders[q, L_SR], leaders[q, L_ROLE])
                if r < 0:
                    r = q
                else:
                    for c in (L_TB, L_CC, L_SR):
                        if leaders[q, c] != leaders[r, c]:
                            if leaders[q, c] > leaders[r, c]:
                                r = q
                            break
                n += 1
            if n > 0 and context[C_COMMANDER_CHOICE]:
                commands[0], commands[1], commands[2] = side, 1 if side == attacker else 0, n
                return ask(g, BATTLE_DP_COMMANDER)
        if r >= 0:
            leaders[r, L_COMMANDER] = 1
            g[G_TBC + side] = leaders[r, L_TB]
        g[G_K] += 1
    g[G_STAGE] = ST_FIRE
    return NEXT


@njit(cache=True, inline="always")
def volley(stream, units, context, out, g):
    """P8.3 simultaneous fire: both sides roll before any loss is taken, the attacker first; then P8.4, the
    attacker's losses first."""
    attacker = context[C_ATTACKER]
    defender = 1 - attacker
    hits_a = fire(units, attacker, g[G_TBC + attacker], context, stream)
    hits_d = fire(units, defender, g[G_TBC + defender], context, stream)
    out[O_HITS + attacker], out[O_HITS + defender] = hits_a, hits_d
    losses_setup(g, attacker, hits_d, 0, ST_DEFENDER_LOSSES)
    return NEXT


@njit(cache=True, inline="always")
def losses_stage(units, context, losses, g):
    """P8.4 (D14 ``losses``): each hit is one step on a unit the owner picks: full -> weakened -> eliminated.
    Surplus hits are lost (no eligible unit: the allocation ends). Under pursuit only retreated units are
    eligible."""
    side, hits, pursuit = g[G_SIDE], g[G_HITS], g[G_PURSUIT]
    while g[G_H] < hits:
        if g[G_ASKED]:
            a = answer(g)
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
            g[G_H] += 1
            continue
        n, eligible = 0, 0
        for i in range(units.shape[0]):
            if units[i, U_SIDE] != side:
                continue
            ok = units[i, U_ALIVE] == 1 and (pursuit == 0 or units[i, U_RETREATED] == 1)
            base = LOSS_UNIT0 + 8 * n
            weak = units[i, U_WEAKENED]
            losses[base] = units[i, U_ALIVE]
            losses[base + 1] = weak
            losses[base + 2] = current_sp(units, i)
            losses[base + 3] = units[i, U_SP]
            losses[base + 4] = units[i, U_WSP]
            losses[base + 5] = units[i, U_WQU] if weak else units[i, U_QU]
            losses[base + 6] = units[i, U_WTB] if weak else units[i, U_TB]
            losses[base + 7] = 1 if ok else 0
            eligible += losses[base + 7]
            n += 1
        if eligible == 0:
            break
        losses[0], losses[1], losses[2], losses[3], losses[4], losses[5] = (
            side, 1 if side == context[C_ATTACKER] else 0, hits - g[G_H], hits, pursuit, n)
        return ask(g, BATTLE_DP_LOSSES)
    g[G_STAGE] = g[G_THEN]
    return NEXT


@njit(cache=True, inline="always")
def result(units, context, out, g):
    """P8.5: a side wiped out loses, then the side that inflicted fewer hits, then the one with less SP left;
    otherwise the defender holds."""
    attacker = context[C_ATTACKER]
    defender = 1 - attacker
    hits_a, hits_d = out[O_HITS + attacker], out[O_HITS + defender]
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
    out[O_WINNER] = 1 - loser
    g[G_LOSER] = loser
    g[G_STAGE] = ST_RETREAT
    return NEXT


@njit(cache=True, inline="always")
def retreat(units, leaders, context, retreats, g):
    """P8.6 (D14 ``retreat``): the loser's survivors move together into one of its retreat zones; a piece barred
    from it, or every survivor when there is no zone, is eliminated (a leader killed)."""
    side = g[G_LOSER]
    barred = np.int64(-1)  # every bit: nowhere to go
    if g[G_ASKED]:
        barred = np.int64(1) << answer(g)
    else:
        zones = context[C_ZONES + side]
        n_units, n_leaders, survivors = 0, 0, 0
        for i in range(units.shape[0]):
            if units[i, U_SIDE] == side:
                base = RETREAT_UNIT0 + 3 * n_units
                retreats[base], retreats[base + 1] = units[i, U_ALIVE], current_sp(units, i)
                retreats[base + 2] = units[i, U_BARRED]
                survivors += units[i, U_ALIVE]
                n_units += 1
        for r in range(leaders.shape[0]):
            if leaders[r, L_SIDE] == side:
                base = RETREAT_LEADER0 + 3 * n_leaders
                retreats[base], retreats[base + 1] = leaders[r, L_ALIVE], leaders[r, L_BARRED]
                retreats[base + 2] = leaders[r, L_ROLE]
                survivors += leaders[r, L_ALIVE]
                n_leaders += 1
        if survivors == 0:
            g[G_STAGE] = ST_PURSUIT
            return NEXT
        if zones > 0:
            retreats[0], retreats[1], retreats[2] = side, 1 if side == context[C_ATTACKER] else 0, zones
            retreats[3], retreats[4] = n_units, n_leaders
            return ask(g, BATTLE_DP_RETREAT)
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
    g[G_STAGE] = ST_PURSUIT
    return NEXT


@njit(cache=True, inline="always")
def pursuit(stream, units, context, g):
    """p8_pursuit: the winner fires once more (its commander's TBc) at the loser's units that retreated, and the
    loser allocates those hits among them (P8.4)."""
    g[G_STAGE] = ST_DEATHS
    if context[C_PURSUIT]:
        loser = g[G_LOSER]
        fled = 0
        for i in range(units.shape[0]):
            if units[i, U_SIDE] == loser and units[i, U_ALIVE] and units[i, U_RETREATED]:
                fled += 1
        if fled > 0:
            hits = fire(units, 1 - loser, g[G_TBC + 1 - loser], context, stream)
            losses_setup(g, loser, hits, 1, ST_DEATHS)
    return NEXT


@njit(cache=True, inline="always")
def deaths(stream, units0, leaders0, context0, units, leaders, context, out, g, row):
    """P8.8 then P8.7: a civil-war defeat kills without a roll (a beaten Usurper; a beaten Augustus when the
    usurpation force wins); every other surviving leader of the loser rolls a d10, in row order, and dies on
    p8_loser_leader_death or more. Then the battle is over: its outcome row is scored."""
    loser = g[G_LOSER]
    winner = 1 - loser
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
    score(row, units, units0, leaders, leaders0, context0, out)
    g[G_STAGE] = ST_END
    return END


@njit(cache=True, **NO_NRT)
def p8_init(stream, units0, leaders0, context0, state, units, leaders, context, out, losses, retreats, commands, g,
            row):
    """A new battle from the tables ``units0, leaders0, context0``: all as compiled, nothing fought, at P8.2."""
    for i in range(units0.shape[0]):
        for c in range(U_COLS):
            units[i, c] = units0[i, c]
    for r in range(leaders0.shape[0]):
        for c in range(L_COLS):
            leaders[r, c] = leaders0[r, c]
    for k in range(N_CONTEXT):
        context[k] = context0[k]
    out[:] = 0
    g[:] = 0
    g[G_STAGE] = ST_COMMANDER


@njit(cache=True, **NO_NRT)
def p8_advance(stream, units0, leaders0, context0, state, units, leaders, context, out, losses, retreats, commands,
               g, row):
    """PROPOSAL P8 (spec 3.2; not from the published rules), P8.2-P8.8, from where the battle stands to its next
    D14 decision (its point) or its end (``END``, the outcome row scored).

    Dice in this order: commander choices (random built-in only; attacker, then defender), the attacker's fire,
    the defender's fire, the attacker's then the defender's loss allocations (random built-in only), the retreat
    zone (random built-in only), pursuit fire and its allocation (p8_pursuit), then one d10 per surviving leader
    of the loser in row order.
    """
    while True:
        stage = g[G_STAGE]
        if stage == ST_COMMANDER:
            point = commanders(leaders, context, commands, g)
        elif stage == ST_FIRE:
            point = volley(stream, units, context, out, g)
        elif stage == ST_LOSSES:
            point = losses_stage(units, context, losses, g)
        elif stage == ST_DEFENDER_LOSSES:
            attacker = context[C_ATTACKER]
            losses_setup(g, 1 - attacker, out[O_HITS + attacker], 0, ST_RESULT)
            point = NEXT
        elif stage == ST_RESULT:
            point = result(units, context, out, g)
        elif stage == ST_RETREAT:
            point = retreat(units, leaders, context, retreats, g)
        elif stage == ST_PURSUIT:
            point = pursuit(stream, units, context, g)
        elif stage == ST_DEATHS:
            point = deaths(stream, units0, leaders0, context0, units, leaders, context, out, g, row)
        else:
            point = END
        if point != NEXT:
            return point


@njit(cache=True, **NO_NRT)
def p8_legal(point, action, units0, leaders0, context0, state, units, leaders, context, out, losses, retreats,
             commands, g, row):
    """D14: ``losses`` a unit of the side with eligible_i = 1; ``retreat`` a zone below zones; ``commander`` one
    of the side's leaders. Each point reads its own state vector."""
    if point == BATTLE_DP_LOSSES:
        return 0 <= action < losses[5] and losses[LOSS_UNIT0 + 8 * action + 7] != 0
    if point == BATTLE_DP_RETREAT:
        return 0 <= action < retreats[2]
    return 0 <= action < commands[2]


@njit(cache=True, **NO_NRT)
def p8_apply(point, action, units0, leaders0, context0, state, units, leaders, context, out, losses, retreats,
             commands, g, row):
    g[G_ACTION] = action


@njit(cache=True, **NO_NRT)
def p8_decide(offset, point, codes, params, slots, stream, units0, leaders0, context0, state, units, leaders, context,
              out, losses, retreats, commands, g, row):
    """The D14 policy of the posted point, on that point's own state vector."""
    i = offset + point
    if point == BATTLE_DP_LOSSES:
        return decide_battle_losses(codes[i], params[i], losses, stream, slots, i)
    if point == BATTLE_DP_RETREAT:
        return decide_battle_retreat(codes[i], params[i], retreats, stream, slots, i)
    return decide_battle_commander(codes[i], params[i], commands, stream, slots, i)


# p8_game(stream, codes, params, slots, offset, units0, leaders0, context0, state, units, leaders, context, out, losses,
# retreats, commands, g, row): one P8 battle to its end; 0 or the error code of the first illegal D14 action
@njit(cache=True)
def p8_player(point, units0, leaders0, context0, state, units, leaders, context, out, losses, retreats, commands, g,
              row):
    """The side deciding ``point``: the first entry of the point's state."""
    return losses[0] if point == BATTLE_DP_LOSSES else retreats[0] if point == BATTLE_DP_RETREAT else commands[0]


@njit(cache=True)
def p8_actions(point, units0, leaders0, context0, state, units, leaders, context, out, losses, retreats, commands, g,
               row):
    return losses[5] if point == BATTLE_DP_LOSSES else retreats[2] if point == BATTLE_DP_RETREAT else commands[2]


@njit(cache=True)
def p8_reward(player, units0, leaders0, context0, state, units, leaders, context, out, losses, retreats, commands, g,
              row):
    """1 for the side that won the battle, 0 for the other."""
    return 1.0 if out[O_WINNER] == player else 0.0


# a P8 battle hides nothing from either side (its fire is simultaneous, but dice, not choices): no determinization
p8_game = machine_game("p8_game", p8_init, p8_advance, p8_legal, p8_apply, p8_decide,
                       Search(p8_player, p8_actions, p8_reward, None),
                       max_actions=max(BATTLE_MAX_UNITS, BATTLE_MAX_LEADERS, BATTLE_MAX_ZONES), _nrt=False)


@njit(cache=True)
def p8_battle(state, params, stream):
    """The built-in battle hook ``p8_proposal``: PROPOSAL P8 (spec 3.2) — not from the published rules.

    Same signature as a user hook; plays the P8 machine on the hook's tables, the D14 decisions by the built-ins
    whose codes are in the context (so a user hook may call it and then change the result). Returns 0.
    """
    units, leaders, context, out = battle_tables(state)
    codes = np.zeros(N_BATTLE_POINTS, np.int64)
    codes[BATTLE_DP_LOSSES] = context[C_LOSSES_CODE]
    codes[BATTLE_DP_RETREAT] = context[C_RETREAT_CODE]
    codes[BATTLE_DP_COMMANDER] = context[C_COMMANDER_CODE]
    d14 = np.zeros((N_BATTLE_POINTS, MAX_PARAMS), np.float64)
    # the battle starts from the tables as the hook received them (units0 ... for the row, which no one reads)
    err = p8_game(stream, codes, d14, None, 0, units.copy(), leaders.copy(), context.copy(), state, units, leaders,
                  context, out, np.zeros(LOSS_STATE_SIZE, np.int64), np.zeros(RETREAT_STATE_SIZE, np.int64),
                  np.zeros(COMMANDER_STATE_SIZE, np.int64), np.zeros(G_SIZE, np.int64),
                  np.zeros(N_METRICS, np.int64))
    out[O_ERROR] = err
    return 0


@njit(cache=True)
def battle_scratch(args):
    """The hook's state and its tables, one D14 state per decision point, then the machine's scalars ``g``."""
    units0, leaders0, context0 = args
    state = battle_state(units0, leaders0, context0)
    units, leaders, context, out = battle_tables(state)
    return (state, units, leaders, context, out, np.zeros(LOSS_STATE_SIZE, np.int64),
            np.zeros(RETREAT_STATE_SIZE, np.int64), np.zeros(COMMANDER_STATE_SIZE, np.int64),
            np.zeros(G_SIZE, np.int64))


@njit(cache=True, inline="always")
def battle_game(stream, row, codes, params, slots, units0, leaders0, context0, state, units, leaders, context, out,
                losses, retreats, commands, g):
    """One battle from the compiled tables: the ``battle`` hook's user function in one call, or the P8 machine
    through the core loop. Fills ``row``; returns 0 or a policy error code."""
    if codes[BATTLE_DP_HOOK] != USER:
        return p8_game(stream, codes, params, slots, 0, units0, leaders0, context0, state, units, leaders, context,
                       out, losses, retreats, commands, g, row)
    copy_into(units, units0)
    copy_into(leaders, leaders0)
    copy_into(context, context0)
    context[C_LOSSES_CODE] = codes[BATTLE_DP_LOSSES]
    context[C_RETREAT_CODE] = codes[BATTLE_DP_RETREAT]
    context[C_COMMANDER_CODE] = codes[BATTLE_DP_COMMANDER]
    out[:] = 0
    # the row counts are the hook's to read: reset, so that a hook changing them cannot move the tables
    state[HOOK_UNITS], state[HOOK_LEADERS] = units0.shape[0], leaders0.shape[0]
    call(slots, BATTLE_DP_HOOK, state, params[BATTLE_DP_HOOK], stream)
    err = check_hook(units, units0, leaders, leaders0, out)
    if err:
        return err
    score(row, units, units0, leaders, leaders0, context0, out)
    return 0


battle_kernel = block_kernel("battle_kernel", battle_scratch, battle_game, N_METRICS)
P8_VIEWS = {BATTLE_DP_LOSSES: 8, BATTLE_DP_RETREAT: 9, BATTLE_DP_COMMANDER: 10}


def p8_view(point, arrays):
    """The state vector of D14 point ``point`` in the game's arrays, ``(units0, leaders0, context0) +
    battle_scratch + (row,)``: each point has its own (losses, retreats, commands)."""
    return arrays[P8_VIEWS[point]]


MACHINE = Machine(p8_init, p8_advance, p8_legal, p8_apply, decider(p8_game), battle_scratch, p8_view)


MAX_UNITS = BATTLE_MAX_UNITS
MAX_LEADERS = BATTLE_MAX_LEADERS
