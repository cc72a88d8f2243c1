"""Usurpation and civil war (seed 3.6 and 6.1-6.2): kernel.

One game: the usurping player names his target(s) (D5), rolls each validation, runs steps A, B and C of the civil
war for each validated Usurper (D6 picks the Diocese of step C), marches each Usurper along the scenario's route
with the rallies of step D, then plays the Assassinat stratagems of both sides until the usurpation succeeds
(seed 3.6.4) or every Usurper is dead. The scenario is compiled into the int64 vector ``p`` (constants below),
the empire's arrays (``empire.compile_empire``), the static candidate table ``legal`` and the route ``march``;
rule options are flags in ``p``. The outcome row follows ``Usurpation.metrics``.

The game is a state machine (``core.loop.machine_game``): ``usurpation_machine`` plays ``usurpation_init``,
``usurpation_advance``, ``usurpation_legal``, ``usurpation_apply`` and ``usurpation_decide`` on the arrays
``kernel_args() + usurpation_scratch(args) + (row,)``, which hold the whole game in progress (``g``: its stage,
the attempt under way, the successor so far), so a copy of them at D5, D6 or D8 is the game at that decision. Each
point has its own state vector (``state``, ``dio``, ``tie``). The usurpation fights no battle: a march stopped by a
loyal stack or enemy leaders is counted (``p_march_stopped``), its battle of E.2 is not played. The scenario's
``machine`` lets ``romesim.new_game`` step it by copying its arrays.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import END, NO_NRT, Machine, block_kernel, decider, machine_game
from ..core.search import Search
from .empire import (
    AUGUSTUS,
    CAESAR,
    L_CC,
    L_PC,
    L_SIDE,
    L_SR,
    L_TB,
    L_TITLE,
    L_ZONE,
    MAX_LEADERS,
    MAX_ZONES,
    N_DIOCESES,
    NONE,
    PRIMUS_AUGUSTUS,
    SECONDUS_AUGUSTUS,
)
from .empire import L_DEFEATED as E_DEFEATED
from .empire import L_GUARD as E_GUARD
from .policies import (
    DIO_BONUS,
    DIO_FROM,
    DIO_GAIN,
    DIO_LEADERS,
    DIO_LIST,
    DIO_LITERAL,
    DIO_M,
    DIO_N,
    DIO_PC,
    DIO_UNITS,
    DIO_USURPER,
    EMPEROR_TIE,
    TGT_ATTEMPT,
    TGT_BONUS,
    TGT_LEADER,
    TGT_N,
    TGT_PC,
    TGT_PIECES,
    TGT_STRATAGEM,
    TIE_A,
    TIE_B,
    TIE_CC,
    TIE_CONTEXT,
    TIE_PC,
    TIE_SR,
    TIE_TB,
    USURP_DP_DIOCESE,
    USURP_DP_TARGET,
    USURP_DP_TIE,
    USURPATION_DIOCESE,
    USURPATION_TARGET,
    decide_emperor_tie,
    decide_usurpation_diocese,
    decide_usurpation_target,
)

MAX_MARCH = 16
STRAT_AUGUSTUS, STRAT_CAESAR, STRAT_LEADER, STRAT_SUCCESSION = range(4)

# indices into the compiled parameter vector
(NZ, NL, PLAYER, N_ATTEMPTS, STRAT_0, TARGET_0, STRAT_1, TARGET_1, N_MARCH, ASSASSINATIONS, COUNTER, LITERAL,
 STRIP_TITLE, STEP_A_STAY, STEP_B_TEST_OTHERS, STEP_C_VICTIM_ONLY, PRIMUS_DEATH_IS_SUCCESSION, MIXED_DOWN,
 GUARD_MOD, GUARD_ZONE, DEFECTORS_HOLD, N_PARAMS) = range(22)

# outcome columns, in Usurpation.metrics order
(WIN, VALIDATED, DOUBLE, EXTENDED, LEADERS, UNITS, DIOCESES, RALLIED, MARCH_STOPPED, AUGUSTI_KILLED,
 USURPER_KILLED, SUCCESSOR, N_METRICS) = range(13)

# rows of the per-block leader scratch array
LS_SIDE, LS_TITLE, LS_ALIVE, LS_GUARD, LS_DOWN, N_LS = range(6)
DOWN_DEFEATED, DOWN_ASSASSINATED = 1, 2
# rows of the per-block zone scratch array: loyal units of each player, then the usurpation's units
ZS_USURPATION = 2
# the per-block auxiliary vector: targets, validations, chosen Dioceses, Dioceses touched
AUX_TARGET, AUX_VALID, AUX_D2, AUX_TOUCHED = 0, 2, 4, 6
AUX_SIZE = AUX_TOUCHED + N_DIOCESES
TARGET_STATE_SIZE, DIOCESE_STATE_SIZE = len(USURPATION_TARGET.state), len(USURPATION_DIOCESE.state)
TIE_STATE_SIZE = len(EMPEROR_TIE.state)


@njit(cache=True, inline="always")
def bonus_of(stratagem):
    """b of seed 3.6.3: 2 for the Augustus stratagems, 1 for the Caesar ones, 0 otherwise (seed 6.1, 6.2)."""
    if stratagem == STRAT_AUGUSTUS:
        return 2
    if stratagem == STRAT_CAESAR:
        return 1
    return 0


@njit(cache=True, inline="always")
def titled(title):
    return title == CAESAR or title == AUGUSTUS or title == PRIMUS_AUGUSTUS or title == SECONDUS_AUGUSTUS


@njit(cache=True, inline="always")
def augustus(title):
    return title == AUGUSTUS or title == PRIMUS_AUGUSTUS or title == SECONDUS_AUGUSTUS


@njit(cache=True)
def zone_test(z, victim, nl, lead, ls):
    """Who a loyalty test of seed 3.6.3 B looks at in zone ``z``: ``(best, has_titled)``, the victim-side
    leader without an Augustus or Caesar title with the highest PC (the first among equals: Note 1's random pick
    among equal PCs changes nothing, since only the PC is read and the whole zone follows), and whether an
    Augustus or Caesar of the victim side is there."""
    best, has_titled = -1, False
    for ldr in range(nl):
        if ls[LS_ALIVE, ldr] and ls[LS_SIDE, ldr] == victim and lead[L_ZONE, ldr] == z:
            if titled(ls[LS_TITLE, ldr]):
                has_titled = True
            elif best < 0 or lead[L_PC, ldr] > lead[L_PC, best]:
                best = ldr
    return best, has_titled


@njit(cache=True)
def loyalty_zone(stream, row, z, b, player, p, lead, ls, zs, aux, zone_diocese):
    """seed 3.6.3 B in one zone: a zone holding an Augustus or Caesar of the victim side stays loyal (SV-A18
    loyal; with test_others its other leaders are tested and would leave without the units); otherwise one d6
    for the best PC, and on d6 + b >= PC every victim leader and unit of the zone joins the Usurper (b helps in
    both SV-A1 modes)."""
    victim = 1 - player
    best, has_titled = zone_test(z, victim, p[NL], lead, ls)
    if best < 0 or (has_titled and not p[STEP_B_TEST_OTHERS]):
        return
    if rng.d6(stream) + b >= lead[L_PC, best]:
        for ldr in range(p[NL]):
            if (ls[LS_ALIVE, ldr] and ls[LS_SIDE, ldr] == victim and lead[L_ZONE, ldr] == z
                    and not titled(ls[LS_TITLE, ldr])):
                ls[LS_SIDE, ldr] = player
                row[LEADERS] += 1
        if not has_titled:
            row[UNITS] += zs[victim, z]
            zs[ZS_USURPATION, z] += zs[victim, z]
            zs[victim, z] = 0
        aux[AUX_TOUCHED + zone_diocese[z]] = 1


@njit(cache=True)
def diocese_modifier(d, usurper, player, p, lead, ls, zone_diocese):
    """m of seed 3.6.3 C: +2 with an Augustus in Diocese ``d``, else +1 with a Caesar, not cumulative; any side's
    titled leader counts (SV-A19 any) or only the victim's (victim_only); never the Usurper himself."""
    m = 0
    for ldr in range(p[NL]):
        if ldr == usurper or not ls[LS_ALIVE, ldr] or zone_diocese[lead[L_ZONE, ldr]] != d:
            continue
        if p[STEP_C_VICTIM_ONLY] and ls[LS_SIDE, ldr] == player:
            continue
        if augustus(ls[LS_TITLE, ldr]):
            m = 2
        elif ls[LS_TITLE, ldr] == CAESAR and m == 0:
            m = 1
    return m


@njit(cache=True, inline="always")
def c_faces(pc, m, b, literal):
    """d10 faces (0-9) with d10 + m - b < PC (SV-A1 favour) or d10 + m + b < PC (literal_add)."""
    limit = pc - m - b if literal else pc - m + b
    return min(10, max(0, limit))


@njit(cache=True)
def expected_gain(d, b, faces, player, p, lead, ls, zs, zone_diocese):
    """60 x the leaders and units expected to join if step C is tried on Diocese ``d`` (the D6 state)."""
    victim = 1 - player
    gain = 0
    for z in range(p[NZ]):
        if zone_diocese[z] != d:
            continue
        best, has_titled = zone_test(z, victim, p[NL], lead, ls)
        if best < 0 or (has_titled and not p[STEP_B_TEST_OTHERS]):
            continue
        pieces = 0 if has_titled else zs[victim, z]
        for ldr in range(p[NL]):
            if (ls[LS_ALIVE, ldr] and ls[LS_SIDE, ldr] == victim and lead[L_ZONE, ldr] == z
                    and not titled(ls[LS_TITLE, ldr])):
                pieces += 1
        gain += faces * min(6, max(0, 7 - lead[L_PC, best] + b)) * pieces
    return gain


@njit(cache=True)
def protected(ldr, p, lead, ls):
    """seed 3.5.3, SV-A3: the Protectores Domestici cover their holder, or with guard_scope = zone anyone of his
    side stacked with him."""
    if ls[LS_GUARD, ldr]:
        return True
    if p[GUARD_ZONE]:
        for k in range(p[NL]):
            if (ls[LS_GUARD, k] and ls[LS_ALIVE, k] and ls[LS_SIDE, k] == ls[LS_SIDE, ldr]
                    and lead[L_ZONE, k] == lead[L_ZONE, ldr]):
                return True
    return False


@njit(cache=True, inline="always")
def kill_faces_of(modifier):
    """d10 faces (0-9) that kill: the modified result is 8 or 9 (seed 6.3)."""
    n = 0
    for face in range(10):
        if 8 <= face + modifier <= 9:
            n += 1
    return n


@njit(cache=True)
def usurpation_won(p, ls):
    """seed 3.6.4: every Augustus of the victim side is down (defeated or assassinated; with SV-A22
    two_augusti_mixed = false all by the same means). A victim side without an Augustus cannot be beaten."""
    victim = 1 - p[PLAYER]
    n, defeated, killed = 0, 0, 0
    for ldr in range(p[NL]):
        if ls[LS_SIDE, ldr] == victim and augustus(ls[LS_TITLE, ldr]):
            n += 1
            if ls[LS_DOWN, ldr] == DOWN_DEFEATED:
                defeated += 1
            elif ls[LS_DOWN, ldr] == DOWN_ASSASSINATED:
                killed += 1
    if n == 0 or defeated + killed < n:
        return False
    return p[MIXED_DOWN] or defeated == n or killed == n


@njit(cache=True)
def assassination_target(p, lead, ls):
    """The victim Augustus the Usurper's player aims his next Assassinat at, or -1: one whose death counts for
    seed 3.6.4 B (not the Primus Augustus under SV-A15 succession; none once an Augustus is defeated under SV-A22
    two_augusti_mixed = false), the most kill faces first, then the senior Augustus, then the first listed."""
    victim = 1 - p[PLAYER]
    if not p[MIXED_DOWN]:
        for ldr in range(p[NL]):
            if ls[LS_SIDE, ldr] == victim and augustus(ls[LS_TITLE, ldr]) and ls[LS_DOWN, ldr] == DOWN_DEFEATED:
                return -1
    best, best_faces, best_senior = -1, -1, 0
    for ldr in range(p[NL]):
        t = ls[LS_TITLE, ldr]
        if ls[LS_SIDE, ldr] != victim or not augustus(t) or ls[LS_DOWN, ldr] != 0:
            continue
        if t == PRIMUS_AUGUSTUS and p[PRIMUS_DEATH_IS_SUCCESSION]:
            continue
        faces = kill_faces_of(p[GUARD_MOD] if protected(ldr, p, lead, ls) else 0)
        senior = 1 if t != AUGUSTUS else 0
        if faces > best_faces or (faces == best_faces and senior > best_senior):
            best, best_faces, best_senior = ldr, faces, senior
    return best


# The usurpation as a state machine (``core.loop.machine_game``). Where the game stands lives in ``g``: the stage
# (``G_STAGE``, ``ST_*``), the attempt in progress (``G_A``) and the successor found so far (``G_WINNER``); the
# targets, validations and chosen Dioceses already live in ``aux``. A stage posts a decision by writing its state
# vector and returning its point with ``G_ASKED`` set (``ask``); ``apply`` stores the action, and the next
# ``advance`` re-enters the same stage, which takes it (``answer``) and goes on. A stage that rolls dice before its
# ask (steps A and B before D6) is re-entered past them: ``G_ASKED`` says the ask is answered.
ST_TARGETS, ST_VALIDATION, ST_CIVIL_WAR, ST_MARCH, ST_SUCCESSOR, ST_END = range(6)
NEXT = -2  # a stage's answer when the game goes on to another stage without a decision
G_STAGE, G_ASKED, G_ACTION, G_A, G_WINNER, G_SIZE = range(6)


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
def targets(p, zone_diocese, dadj, lead, units, legal, state, aux, g):
    """D5: the targets, all named before any validation roll (seed 3.6, double usurpation); a target the scenario
    leaves open (-1) is asked among the legal leaders, the second of a double usurpation in a Diocese neither the
    first's nor adjacent to it."""
    nl = p[NL]
    while g[G_A] < p[N_ATTEMPTS]:
        a = g[G_A]
        t = p[TARGET_0 + 2 * a]
        if g[G_ASKED]:
            t = answer(g)
        elif t < 0:
            n = 0
            for ldr in range(nl):
                if not legal[a, ldr]:
                    continue
                if a == 1:
                    first = aux[AUX_TARGET]
                    d0, d1 = zone_diocese[lead[L_ZONE, first]], zone_diocese[lead[L_ZONE, ldr]]
                    if ldr == first or d0 == d1 or dadj[d0, d1]:
                        continue
                pieces = units[lead[L_ZONE, ldr], 0] + units[lead[L_ZONE, ldr], 1]
                for k in range(nl):
                    if k != ldr and lead[L_ZONE, k] == lead[L_ZONE, ldr]:
                        pieces += 1
                state[TGT_LEADER + n] = ldr
                state[TGT_PC + n] = lead[L_PC, ldr]
                state[TGT_PIECES + n] = pieces
                n += 1
            state[TGT_N], state[TGT_ATTEMPT] = n, a
            state[TGT_STRATAGEM], state[TGT_BONUS] = p[STRAT_0 + 2 * a], bonus_of(p[STRAT_0 + 2 * a])
            return ask(g, USURP_DP_TARGET)
        aux[AUX_TARGET + a] = t
        g[G_A] += 1
    g[G_STAGE] = ST_VALIDATION
    return NEXT


@njit(cache=True, inline="always")
def validation(stream, row, p, lead, ls, aux, g):
    """Validation: d6 <= PC for every stratagem, automatic after a succession (seed 3.6, 6.1, 6.2); a failed
    Caesar or Augustus loses his marker with SV-A16. Nothing validated ends the game."""
    for a in range(p[N_ATTEMPTS]):
        t = aux[AUX_TARGET + a]
        if p[STRAT_0 + 2 * a] == STRAT_SUCCESSION:
            ok = True
        else:
            ok = rng.d6(stream) <= lead[L_PC, t]
        aux[AUX_VALID + a] = 1 if ok else 0
        if not ok and p[STRIP_TITLE] and (ls[LS_TITLE, t] == CAESAR or ls[LS_TITLE, t] == AUGUSTUS):
            ls[LS_TITLE, t] = NONE  # SV-A16: back to the ranks without his marker
            ls[LS_GUARD, t] = 0
    valid = aux[AUX_VALID] + aux[AUX_VALID + 1]
    if valid == 0:
        g[G_STAGE] = ST_END
        return END
    row[VALIDATED] = 1
    row[DOUBLE] = 1 if valid == 2 else 0
    g[G_A] = 0
    g[G_STAGE] = ST_CIVIL_WAR
    return NEXT


@njit(cache=True, inline="always")
def steps_a_b(stream, row, a, x, b, p, lead, ls, zs, aux, zone_diocese):
    """seed 3.6.3 A and B for the validated Usurper ``x`` of attempt ``a``: he changes side and loses his marker;
    everyone in his zone follows him at once (SV-A17), then the other zones of his Diocese roll (Note 1)."""
    player = p[PLAYER]
    victim = 1 - player
    ls[LS_SIDE, x] = player  # seed 3.6: he changes side and loses his Augustus or Caesar marker
    ls[LS_TITLE, x] = NONE
    ls[LS_GUARD, x] = 0
    home = lead[L_ZONE, x]
    aux[AUX_TOUCHED + zone_diocese[home]] = 1
    # A: everyone in his zone follows him at once (SV-A17); on the succession route with
    # succession_defectors = hold the defectors of seed 3.5.2 case 4 standing there stay PRIMUS's
    hold = p[DEFECTORS_HOLD] == 1 and p[STRAT_0 + 2 * a] == STRAT_SUCCESSION
    for ldr in range(p[NL]):
        if ldr == x or not ls[LS_ALIVE, ldr] or lead[L_ZONE, ldr] != home:
            continue
        if hold and ls[LS_SIDE, ldr] == victim:
            continue
        if titled(ls[LS_TITLE, ldr]):
            if p[STEP_A_STAY]:
                continue
            ls[LS_TITLE, ldr] = NONE
            ls[LS_GUARD, ldr] = 0
        ls[LS_SIDE, ldr] = player
        row[LEADERS] += 1
    moved = zs[player, home] + (0 if hold else zs[victim, home])
    zs[player, home] = 0
    if not hold:
        zs[victim, home] = 0
    zs[ZS_USURPATION, home] += moved
    row[UNITS] += moved
    # B: the other zones of his Diocese, one roll each (Note 1)
    for z in range(p[NZ]):
        if z != home and zone_diocese[z] == zone_diocese[home]:
            loyalty_zone(stream, row, z, b, player, p, lead, ls, zs, aux, zone_diocese)


@njit(cache=True, inline="always")
def step_c_candidates(state, a, usurper, b, p, lead, ls, zs, aux, zone_diocese, dadj):
    """seed 3.6.3 C, the D6 state: the Dioceses adjacent to the Usurper's, not his own nor the one the other
    Usurper chose, with their modifier, expected gain and victims. Returns how many."""
    player = p[PLAYER]
    victim = 1 - player
    home = zone_diocese[lead[L_ZONE, usurper]]
    taken = aux[AUX_D2 + 1 - a]
    pc = lead[L_PC, usurper]
    n = 0
    for d in range(N_DIOCESES):
        if d == home or d == taken or not dadj[home, d]:
            continue
        m = diocese_modifier(d, usurper, player, p, lead, ls, zone_diocese)
        state[DIO_LIST + n] = d
        state[DIO_M + n] = m
        state[DIO_GAIN + n] = expected_gain(d, b, c_faces(pc, m, b, p[LITERAL]), player, p, lead, ls, zs,
                                            zone_diocese)
        leaders, units = 0, 0
        for ldr in range(p[NL]):
            if ls[LS_ALIVE, ldr] and ls[LS_SIDE, ldr] == victim and zone_diocese[lead[L_ZONE, ldr]] == d:
                leaders += 1
        for z in range(p[NZ]):
            if zone_diocese[z] == d:
                units += zs[victim, z]
        state[DIO_LEADERS + n] = leaders
        state[DIO_UNITS + n] = units
        n += 1
    if n > 0:
        state[DIO_N], state[DIO_USURPER], state[DIO_PC], state[DIO_BONUS] = n, usurper, pc, b
        state[DIO_FROM], state[DIO_LITERAL] = home, p[LITERAL]
    return n


@njit(cache=True, inline="always")
def step_c(stream, row, state, a, choice, usurper, b, p, lead, ls, zs, aux, zone_diocese):
    """seed 3.6.3 C once D6 has picked ``choice``: a d10, and on success step B in every zone of D2 (SV-A20: one
    roll per zone)."""
    m = 0
    for i in range(state[DIO_N]):
        if state[DIO_LIST + i] == choice:
            m = state[DIO_M + i]
    aux[AUX_D2 + a] = choice
    pc = lead[L_PC, usurper]
    die = rng.d10(stream)
    if (die + m + b < pc) if p[LITERAL] else (die + m - b < pc):
        row[EXTENDED] = 1
        for z in range(p[NZ]):
            if zone_diocese[z] == choice:
                loyalty_zone(stream, row, z, b, p[PLAYER], p, lead, ls, zs, aux, zone_diocese)


@njit(cache=True, inline="always")
def civil_war(stream, row, p, zone_diocese, dadj, lead, dio, ls, zs, aux, g):
    """seed 3.6.3 A, B and C for each validated Usurper in turn, D6 picking the Diocese of step C (asked when
    there is at least one; the Usurper always tries, a failed roll costing nothing)."""
    while g[G_A] < p[N_ATTEMPTS]:
        a = g[G_A]
        x = aux[AUX_TARGET + a]
        b = bonus_of(p[STRAT_0 + 2 * a])
        if g[G_ASKED]:
            step_c(stream, row, dio, a, answer(g), x, b, p, lead, ls, zs, aux, zone_diocese)
        elif aux[AUX_VALID + a]:
            steps_a_b(stream, row, a, x, b, p, lead, ls, zs, aux, zone_diocese)
            if step_c_candidates(dio, a, x, b, p, lead, ls, zs, aux, zone_diocese, dadj) > 0:
                return ask(g, USURP_DP_DIOCESE)
        g[G_A] += 1
    g[G_STAGE] = ST_MARCH
    return NEXT


@njit(cache=True, inline="always")
def march_and_assassinations(stream, row, p, zone_diocese, lead, march, ls, zs, aux, g):
    """D: the marches, each Usurper with his stack along the scenario's route (E.1), rallying loyal stacks on
    d6 - b <= PC (SV-A1); then success or failure (seed 3.6.4): the two players' Assassinat stratagems,
    alternately, the Usurper's first."""
    player = p[PLAYER]
    victim = 1 - player
    nl = p[NL]
    for a in range(p[N_ATTEMPTS]):
        if not aux[AUX_VALID + a]:
            continue
        x = aux[AUX_TARGET + a]
        b = bonus_of(p[STRAT_0 + 2 * a])
        for k in range(p[N_MARCH]):
            if march[k, 0] != a:
                continue
            z = march[k, 1]
            blocked = False
            for ldr in range(nl):
                if ls[LS_ALIVE, ldr] and ls[LS_SIDE, ldr] == victim and lead[L_ZONE, ldr] == z:
                    blocked = True
            if blocked:
                row[MARCH_STOPPED] = 1  # enemy leaders: he stops and must fight there in E.2
                break
            if zs[victim, z] > 0:
                die = rng.d6(stream)
                if (die + b <= lead[L_PC, x]) if p[LITERAL] else (die - b <= lead[L_PC, x]):
                    row[UNITS] += zs[victim, z]
                    row[RALLIED] += zs[victim, z]
                    zs[ZS_USURPATION, z] += zs[victim, z]
                    zs[victim, z] = 0
                    aux[AUX_TOUCHED + zone_diocese[z]] = 1
                else:
                    row[MARCH_STOPPED] = 1  # the stack stays loyal: he stops and must fight it in E.2
                    break
    for d in range(N_DIOCESES):
        row[DIOCESES] += aux[AUX_TOUCHED + d]

    left_p, left_v = p[ASSASSINATIONS], p[COUNTER]
    won = usurpation_won(p, ls)
    lost = False
    turn = player
    while not won and not lost:
        target = assassination_target(p, lead, ls) if left_p > 0 else -1
        if target < 0 and left_v == 0:
            break
        if turn == player and target >= 0:
            left_p -= 1
            modifier = p[GUARD_MOD] if protected(target, p, lead, ls) else 0
            result = rng.d10(stream) + modifier
            if 8 <= result <= 9:
                ls[LS_DOWN, target] = DOWN_ASSASSINATED
                ls[LS_ALIVE, target] = 0
                row[AUGUSTI_KILLED] += 1
                won = usurpation_won(p, ls)
        elif turn == victim and left_v > 0:
            left_v -= 1
            aim = -1
            for a in range(p[N_ATTEMPTS]):
                x = aux[AUX_TARGET + a]
                if aux[AUX_VALID + a] and ls[LS_ALIVE, x] and (aim < 0 or lead[L_PC, x] > lead[L_PC, aim]):
                    aim = x
            result = rng.d10(stream)
            if 8 <= result <= 9:
                ls[LS_ALIVE, aim] = 0
                lost = True
                for a in range(p[N_ATTEMPTS]):
                    if aux[AUX_VALID + a] and ls[LS_ALIVE, aux[AUX_TARGET + a]]:
                        lost = False
        turn = 1 - turn
    if lost:
        row[USURPER_KILLED] = 1
    if not won:
        g[G_STAGE] = ST_END
        return END
    row[WIN] = 1
    g[G_A], g[G_WINNER] = 0, -1
    g[G_STAGE] = ST_SUCCESSOR
    return NEXT


@njit(cache=True, inline="always")
def successor(p, lead, ls, aux, tie, g, row):
    """seed 3.6.4: the living Usurper with the highest PC takes the throne; a double usurpation's Usurpers with
    equal PC: the player chooses (D8)."""
    while g[G_A] < p[N_ATTEMPTS]:
        a = g[G_A]
        x = aux[AUX_TARGET + a]
        winner = g[G_WINNER]
        if g[G_ASKED]:
            g[G_WINNER] = answer(g)
        elif aux[AUX_VALID + a] and ls[LS_ALIVE, x]:
            if winner < 0 or lead[L_PC, x] > lead[L_PC, winner]:
                g[G_WINNER] = x
            elif lead[L_PC, x] == lead[L_PC, winner]:
                tie[TIE_CONTEXT], tie[TIE_A], tie[TIE_B] = 1, winner, x
                tie[TIE_PC], tie[TIE_PC + 1] = lead[L_PC, winner], lead[L_PC, x]
                tie[TIE_CC], tie[TIE_CC + 1] = lead[L_CC, winner], lead[L_CC, x]
                tie[TIE_SR], tie[TIE_SR + 1] = lead[L_SR, winner], lead[L_SR, x]
                tie[TIE_TB], tie[TIE_TB + 1] = lead[L_TB, winner], lead[L_TB, x]
                return ask(g, USURP_DP_TIE)
        g[G_A] += 1
    row[SUCCESSOR] = g[G_WINNER]
    g[G_STAGE] = ST_END
    return END


@njit(cache=True, **NO_NRT)
def usurpation_init(stream, p, zone_diocese, dadj, lead, units, legal, march, state, dio, tie, ls, zs, aux, g, row):
    """A new game: the empire as compiled (sides, titles, guards, defeats; loyal units per zone), nothing named."""
    row[:] = 0
    row[SUCCESSOR] = -1
    for ldr in range(p[NL]):
        ls[LS_SIDE, ldr] = lead[L_SIDE, ldr]
        ls[LS_TITLE, ldr] = lead[L_TITLE, ldr]
        ls[LS_ALIVE, ldr] = 1
        ls[LS_GUARD, ldr] = lead[E_GUARD, ldr]
        ls[LS_DOWN, ldr] = DOWN_DEFEATED if lead[E_DEFEATED, ldr] else 0
    for z in range(p[NZ]):
        zs[0, z] = units[z, 0]
        zs[1, z] = units[z, 1]
        zs[ZS_USURPATION, z] = 0
    for i in range(AUX_SIZE):
        aux[i] = 0
    aux[AUX_D2] = -1
    aux[AUX_D2 + 1] = -1
    g[:] = 0
    g[G_STAGE] = ST_TARGETS


@njit(cache=True, **NO_NRT)
def usurpation_advance(stream, p, zone_diocese, dadj, lead, units, legal, march, state, dio, tie, ls, zs, aux, g,
                       row):
    """seed 3.6: one usurpation attempt (two with a double usurpation) and its civil war, from where the game
    stands to its next decision (D5, D6, D8: its point) or its end (``END``)."""
    while True:
        stage = g[G_STAGE]
        if stage == ST_TARGETS:
            point = targets(p, zone_diocese, dadj, lead, units, legal, state, aux, g)
        elif stage == ST_VALIDATION:
            point = validation(stream, row, p, lead, ls, aux, g)
        elif stage == ST_CIVIL_WAR:
            point = civil_war(stream, row, p, zone_diocese, dadj, lead, dio, ls, zs, aux, g)
        elif stage == ST_MARCH:
            point = march_and_assassinations(stream, row, p, zone_diocese, lead, march, ls, zs, aux, g)
        elif stage == ST_SUCCESSOR:
            point = successor(p, lead, ls, aux, tie, g, row)
        else:
            point = END
        if point != NEXT:
            return point


@njit(cache=True, **NO_NRT)
def usurpation_legal(point, action, p, zone_diocese, dadj, lead, units, legal, march, state, dio, tie, ls, zs, aux,
                     g, row):
    """D5: one of the candidates; D6: one of the candidate Dioceses; D8: one of the two tied leaders. Each point
    reads its own state vector."""
    if point == USURP_DP_TARGET:
        for i in range(state[TGT_N]):
            if state[TGT_LEADER + i] == action:
                return True
        return False
    if point == USURP_DP_DIOCESE:
        for i in range(dio[DIO_N]):
            if dio[DIO_LIST + i] == action:
                return True
        return False
    return action == tie[TIE_A] or action == tie[TIE_B]


@njit(cache=True, **NO_NRT)
def usurpation_apply(point, action, p, zone_diocese, dadj, lead, units, legal, march, state, dio, tie, ls, zs, aux,
                     g, row):
    g[G_ACTION] = action


@njit(cache=True, **NO_NRT)
def usurpation_decide(offset, point, codes, params, slots, stream, p, zone_diocese, dadj, lead, units, legal, march,
                      state, dio, tie, ls, zs, aux, g, row):
    """The policy of the posted point (D5, D6 or D8), on that point's own state vector."""
    i = offset + point
    if point == USURP_DP_TARGET:
        return decide_usurpation_target(codes[i], params[i], state, stream, slots, i)
    if point == USURP_DP_DIOCESE:
        return decide_usurpation_diocese(codes[i], params[i], dio, stream, slots, i)
    return decide_emperor_tie(codes[i], params[i], tie, stream, slots, i)


# usurpation_machine(stream, codes, params, slots, offset, p, ..., march, state, dio, tie, ls, zs, aux, g, row): one
# game to its end; 0 or the error code of the first illegal action
@njit(cache=True)
def usurpation_player(point, p, zone_diocese, dadj, lead, units, legal, march, state, dio, tie, ls, zs, aux, g, row):
    return np.int64(0)  # every decision is the usurping player's


@njit(cache=True)
def usurpation_actions(point, p, zone_diocese, dadj, lead, units, legal, march, state, dio, tie, ls, zs, aux, g,
                       row):
    return np.int64(MAX_LEADERS)  # a leader index (D5, D8) or a Diocese (D6, 12 of them)


@njit(cache=True)
def usurpation_reward(player, p, zone_diocese, dadj, lead, units, legal, march, state, dio, tie, ls, zs, aux, g,
                      row):
    return float(row[WIN])


# the usurpation hides nothing from its player: a search needs no determinization
usurpation_machine = machine_game("usurpation_machine", usurpation_init, usurpation_advance, usurpation_legal,
                                  usurpation_apply, usurpation_decide,
                                  Search(usurpation_player, usurpation_actions, usurpation_reward, None),
                                  max_actions=MAX_LEADERS, _nrt=False)


@njit(cache=True)
def usurpation_scratch(args):
    """The D5, D6 and D8 states, each point its own buffer, then the leader, zone and auxiliary scratch and the
    machine's scalars ``g``."""
    return (np.zeros(TARGET_STATE_SIZE, np.int64), np.zeros(DIOCESE_STATE_SIZE, np.int64),
            np.zeros(TIE_STATE_SIZE, np.int64), np.zeros((N_LS, MAX_LEADERS), np.int64),
            np.zeros((3, MAX_ZONES), np.int64), np.zeros(AUX_SIZE, np.int64), np.zeros(G_SIZE, np.int64))


@njit(cache=True, inline="always")
def usurpation_game(stream, row, codes, params, slots, p, zone_diocese, dadj, lead, units, legal, march, state, dio,
                    tie, ls, zs, aux, g):
    """seed 3.6: one usurpation attempt (two with a double usurpation) and its civil war, through the core loop.
    Fills ``row``; returns 0 or a policy error code."""
    return usurpation_machine(stream, codes, params, slots, 0, p, zone_diocese, dadj, lead, units, legal, march,
                              state, dio, tie, ls, zs, aux, g, row)


usurpation_kernel = block_kernel("usurpation_kernel", usurpation_scratch, usurpation_game, N_METRICS)
USURPATION_VIEWS = {USURP_DP_TARGET: 7, USURP_DP_DIOCESE: 8, USURP_DP_TIE: 9}


def usurpation_view(point, arrays):
    """The state vector of point ``point`` in the game's arrays, ``kernel_args() + usurpation_scratch + (row,)``:
    D5, D6 and D8 each have their own (state, dio, tie)."""
    return arrays[USURPATION_VIEWS[point]]


MACHINE = Machine(usurpation_init, usurpation_advance, usurpation_legal, usurpation_apply, decider(usurpation_machine),
                  usurpation_scratch, usurpation_view)
