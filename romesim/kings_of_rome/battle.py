"""Battle (KoR 5.7), with the ambush battle of 6.4 c: kernel.

The scenario is compiled into an int64 vector ``p`` (context and rule options, indices ``P_*``), a unit table
``units[side, slot, U_*]`` and a leader table ``leaders[side, slot, L_*]`` (side 0 = Rome, 1 = the NR army). A game
keeps its state in three small arrays reused for every game of a block: ``status[side, slot, S_*]`` for the units,
``g`` for the scalars (``G_*``: track penalties, commanders, Astutia left, front boxes, losses) and ``state`` for
the decision points. Each step of the master algorithm (spec 2.1.0) is one function named after it. The outcome
row follows ``Battle.metrics``.

The kernel's ``args`` are ``(p, units, leaders)``. Every step that may reach a decision point takes the policies
``codes``, ``params``, ``slots`` and the ``offset`` of the battle's first point in them (``decide_battle``); the
siege fights its sortie and relief battles through ``battle_game`` with the battle's own built-in policies.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import END, Machine, block_kernel, decider, machine_game
from ..core.search import Search
from .policies import (
    BATTLE_POINTS,
    BATTLE_STATE_SIZE,
    BS_ASTUTIA,
    BS_NR_ALIVE,
    BS_NR_PEN,
    BS_OWN,
    BS_PHASE,
    BS_ROMAN_ALIVE,
    BS_ROMAN_PEN,
    BS_ROUND,
    DP_B_COMMANDER,
    DP_B_CONTINUE,
    DP_B_DEPLOY,
    DP_B_FIGHT,
    DP_B_FILL,
    DP_B_LEADER,
    DP_B_NR_TACTIC,
    DP_B_PARTICIPANTS,
    DP_B_REROLL,
    DP_B_RESERVE_CAV,
    DP_B_RESERVE_INF,
    DP_B_RETREAT,
    DP_B_SPOLIA,
    DP_B_TACTIC,
    DP_B_TRIUMPH,
    DP_B_VANGUARD,
    PHASE_3,
    PHASE_CLASH,
    PHASE_RETREAT,
    PHASE_SETUP,
    PHASE_TACTICS,
    decide_battle,
    tactic_estimates,
)

N_BATTLE_POINTS = len(BATTLE_POINTS)

ROME, NR = 0, 1
MAX_UNITS, MAX_LEADERS = 8, 3
INFANTRY, CAVALRY = 0, 1
DEFENCE, ATTACK = 0, 1
MODE_BATTLE, MODE_AMBUSH = 0, 1

# the compiled parameter vector
(P_UNITS, P_UNITS_NR, P_LEADERS, P_LEADERS_NR, P_ROMAN_ATTACKER, P_ROMAN_INITIATES, P_MODE, P_AMBUSH_PHASE3_ONLY,
 P_AMBUSH_STACK, P_WITHDRAWAL, P_WITHDRAWAL_REACTIONS, P_ADJ_PEN, P_ADJ_PEN_NR, P_ETR_GALLIC_PEN, P_INVADER,
 P_OMEN, P_PORSENNA_KILLS, P_SPOLIA_MODE, P_SPOLIA_ANY_LEADER, P_SPOLIA_STACK, P_TACTIC_POOL, P_POOL_ATTACK,
 P_POOL_DEFENCE, P_VC_EVEN_TOTAL, P_VC_MELEE, P_CAV_DRM, P_ASTUTIA_ALL, P_RR_DRM_ATTACKER_ONLY, P_RR_TRACK,
 P_MAY_DECLINE, P_PHASE3_COST, P_CAV_BASIS_WHOLE, P_BACK_PER_UNIT, P_TIE_RULE, P_RESERVE_ANY_BOX, P_LEADER_GE,
 P_NR_CAV_ATTACKS_LEADER, P_LEADER_BOX_EMPTY, P_TRIUMPH_IP, P_TRIUMPH_WHOLE, P_KING_LOSS, P_CAPTURE_IP,
 P_CAPTURE_VP, P_TRIAL_HELD, P_EQUAL_8_ACQUITTED, P_IP_LOSS_ALWAYS, P_TRIBUNE_STACK, P_REACTIONS,
 P_NR_LEADERLESS_INF, P_NR_LEADERLESS_CAV, P_ROMAN_LEADERLESS_INF, P_ROMAN_LEADERLESS_CAV, P_REROLL_CHAIN,
 P_RR_NO_CAVALRY, P_VC_MARKER_FIRST, P_NR_INF_NO_POINTS, P_BACK_PARTICIPANTS, N_PARAMS) = range(58)

# spolia round modes (KOR-A17), tie rules (KOR-A29), King-loss scoring (KOR-A34), invader scoring (KOR-A35)
SPOLIA_REPEAT, SPOLIA_SINGLE, SPOLIA_ROMAN_FIRST = range(3)
TIE_NO_WINNER, TIE_DEFENDER, TIE_ATTACKER = range(3)
KING_LOSS_VP, KING_LOSS_IP, KING_LOSS_BOTH = range(3)
INVADER_NONE, INVADER_REPLACE, INVADER_STACK = range(3)

# units[side, slot]
U_KIND, U_VIRTUS, U_CLASS, U_CAPTIVI, U_BACK, U_COLS = range(6)
# leaders[side, slot]: capacity and how a commander is scored
(L_RANK, L_VIRTUS, L_ASTUTIA, L_MAX_INF, L_MAX_CAV, L_KING, L_KINGLIKE, L_TRIBUNE, L_TRIED, L_COLS) = range(10)
# status[side, slot]
S_PART, S_ALIVE, S_BOX, S_MARK, S_HIT, S_COLS = range(6)
# game scalars
G_PEN, G_PRE, G_CMD, G_LEAD_ALIVE, G_LBOX, G_AST, G_LOST, G_CAPT, G_LEADER_LOST = 0, 2, 4, 6, 8, 10, 12, 14, 16
G_FRONT, G_BOX_KIND = 18, 24  # 3 boxes per side
G_ROUNDS, G_INTERREX, G_ORDER, G_PAIRS, G_FACING, G_SPOLIA_BOTH, G_MACHINE = 30, 31, 32, 40, 48, 54, 64

# outcome columns, in Battle.metrics order (four score bands per side from ROMAN_BAND and NR_BAND)
WIN, LOSS, NO_WINNER, IP, VP, REACTIONS, R_TO_NR, NR_TO_R, ROMAN_SCORE, NR_SCORE = range(10)
ROMAN_BAND, NR_BAND = 10, 14
(ROMAN_LOST, ROMAN_CAPTURED, NR_LOST, NR_CAPTURED, TRIUMPH, ROMAN_LEADER_LOST, NR_LEADER_LOST, INTERREX,
 END_WITHDRAWAL, END_SPOLIA, END_DEFENCE_DEFENCE, END_RETREAT, END_STOPPED, END_PHASE3, ROUNDS, ROMAN_PRE, NR_PRE,
 ROMAN_PEN, NR_PEN, N_METRICS) = range(18, 38)

# the six orders of three NR front units over the boxes RIGHT, CENTRE, LEFT
BOX_ORDERS = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]], np.int64)

TRACK_FLOOR = 19  # 5.7.7: the marker stops at "10+9"



@njit(cache=True)
def score(g, side):
    """5.7.7: the comparable track score, -min(penalty points, 19)."""
    return -min(g[G_PEN + side], TRACK_FLOOR)


@njit(cache=True)
def alive_units(p, status, side):
    """Participating units of ``side`` still alive."""
    n = 0
    for i in range(p[P_UNITS + side]):
        if status[side, i, S_PART] and status[side, i, S_ALIVE]:
            n += 1
    return n


@njit(cache=True)
def alive_of_kind(p, units, status, side, kind):
    n = 0
    for i in range(p[P_UNITS + side]):
        if status[side, i, S_PART] and status[side, i, S_ALIVE] and units[side, i, U_KIND] == kind:
            n += 1
    return n


@njit(cache=True)
def header(p, status, g, state, phase):
    """Clear the decision state and write the header every battle decision point receives."""
    for k in range(BATTLE_STATE_SIZE):
        state[k] = 0
    state[BS_PHASE] = phase
    state[BS_ROUND] = g[G_ROUNDS]
    state[BS_ROMAN_PEN] = g[G_PEN]
    state[BS_NR_PEN] = g[G_PEN + 1]
    state[BS_ASTUTIA] = g[G_AST]
    state[BS_ROMAN_ALIVE] = alive_units(p, status, ROME)
    state[BS_NR_ALIVE] = alive_units(p, status, NR)


@njit(cache=True)
def legal_action(state, action):
    return 0 <= action < 8 and state[action] != 0


@njit(cache=True)
def strongest_first(p, units, status, side, kind, out, start):
    """Write the participating live slots of ``side`` (``kind`` -1 = any) in ``out[start:]``, highest Virtus
    first, the earlier slot first among equals; returns how many."""
    n = 0
    for i in range(p[P_UNITS + side]):
        if not (status[side, i, S_PART] and status[side, i, S_ALIVE]):
            continue
        if kind >= 0 and units[side, i, U_KIND] != kind:
            continue
        k = n
        while k > 0 and units[side, out[start + k - 1], U_VIRTUS] < units[side, i, U_VIRTUS]:
            out[start + k] = out[start + k - 1]
            k -= 1
        out[start + k] = i
        n += 1
    return n


@njit(cache=True)
def lose_unit(p, units, status, g, side, i):
    """A unit eliminated in combat (C4, 5.7.8): the track penalty of its kind and class; Captivi = captured. An NR
    infantry is 1 point, none for a non-Italic people under KOR-A28 ``nr_infantry_loss_points = italic_only``."""
    status[side, i, S_ALIVE] = 0
    if units[side, i, U_KIND] == CAVALRY:
        g[G_PEN + side] += 3
    elif side == ROME and units[side, i, U_CLASS] <= 2:
        g[G_PEN + side] += 2
    elif side == ROME or not p[P_NR_INF_NO_POINTS]:
        g[G_PEN + side] += 1
    g[G_LOST + side] += 1
    if units[side, i, U_CAPTIVI]:
        g[G_CAPT + side] += 1


@njit(cache=True)
def lose_leader(leaders, g, side):
    """The commanding leader eliminated (C4): no more rerolls; a King killed or captured leaves an Interrex."""
    g[G_LEAD_ALIVE + side] = 0
    g[G_AST + side] = 0
    g[G_LBOX + side] = -1
    g[G_LEADER_LOST + side] = 1
    if side == ROME and leaders[ROME, g[G_CMD], L_KING]:
        g[G_INTERREX] = 1


@njit(cache=True)
def lose_champion(leaders, g, champion):
    """The Roman Spolia champion killed: the commander himself, or another leader of the army (KOR-A17)."""
    if champion == g[G_CMD]:
        lose_leader(leaders, g, ROME)
    else:
        g[G_LEADER_LOST] = 1
        if leaders[ROME, champion, L_KING]:
            g[G_INTERREX] = 1


@njit(cache=True)
def preventive_withdrawal(p, row):
    """KoR 5.7.1: an NR army in a hex holding a city of its own people withdraws inside the walls; the battle
    becomes a siege (KOR-A16) and the orphan reaction line goes with it (KOR-A15). Returns True if it happened."""
    if p[P_MODE] != MODE_BATTLE or not p[P_WITHDRAWAL]:
        return False
    row[END_WITHDRAWAL] = 1
    row[NO_WINNER] = 1
    row[REACTIONS] = p[P_WITHDRAWAL_REACTIONS]
    return True


@njit(cache=True)
def pre_battle_penalties(p, units, leaders, status, g):
    """KoR 5.7.8, P1-P7 (``kor_battle_penalties.csv``): no leader 1; adjacent enemy garrison 1, or 2 for a value 3
    (compiled per KOR-A27); an enemy-nationality back (Rome) or a Roman class I-III back (NR) 1, once or per unit,
    on any unit of the army or only on the participants (KOR-A28); fewer cavalry 2 (leaders count, KOR-A26);
    Etruscans or Gauls 2 for Rome (KOR-A28)."""
    cavalry = np.zeros(2, np.int64)
    for side in range(2):
        points = 0
        if g[G_CMD + side] < 0:
            points += 1
        points += p[P_ADJ_PEN + side]
        backs = 0
        for i in range(p[P_UNITS + side]):
            if units[side, i, U_BACK] and (status[side, i, S_PART] or not p[P_BACK_PARTICIPANTS]):
                backs += 1
        points += backs if p[P_BACK_PER_UNIT] else min(backs, 1)
        for i in range(p[P_UNITS + side]):
            if units[side, i, U_KIND] == CAVALRY and (status[side, i, S_PART] or p[P_CAV_BASIS_WHOLE]):
                cavalry[side] += 1
        cavalry[side] += p[P_LEADERS + side] if p[P_CAV_BASIS_WHOLE] else (1 if g[G_CMD + side] >= 0 else 0)
        g[G_PRE + side] = points
    if cavalry[ROME] < cavalry[NR]:
        g[G_PRE] += 2
    elif cavalry[NR] < cavalry[ROME]:
        g[G_PRE + 1] += 2
    g[G_PRE] += p[P_ETR_GALLIC_PEN]
    g[G_PEN] = g[G_PRE]
    g[G_PEN + 1] = g[G_PRE + 1]


@njit(cache=True)
def front_strength(p, units, status, side):
    """The tactic heuristic's strength: Virtus plus the Roman class DRM of every participating unit."""
    total = 0
    for i in range(p[P_UNITS + side]):
        if status[side, i, S_PART] and status[side, i, S_ALIVE]:
            total += units[side, i, U_VIRTUS] + (class_drm(p, units, i) if side == ROME else 0)
    return total


@njit(cache=True)
def class_drm(p, units, i):
    """KoR 5.7.9: Roman infantry class II +1, class I +2; Roman cavalry +2 only with KOR-A21 plus2."""
    if units[ROME, i, U_KIND] == CAVALRY:
        return p[P_CAV_DRM]
    c = units[ROME, i, U_CLASS]
    return 2 if c == 1 else (1 if c == 2 else 0)


MAX_ROUNDS = 1000  # a safety net: with the built-in policies a phase 3 that can still change ends long before


@njit(cache=True)
def box_vacated(p, g, side, box):
    """KoR 5.7.11: a front box "laissée vide par des unités éliminées", a unit of it eliminated and none in it now;
    a box no unit filled at the set-up ends nothing (a short line fights with the boxes it fills). KOR-A32: a box
    holding only a leader counts as empty (default)."""
    if g[G_FRONT + 3 * side + box] >= 0 or g[G_BOX_KIND + 3 * side + box] < 0:
        return False
    return not (not p[P_LEADER_BOX_EMPTY] and g[G_LEAD_ALIVE + side] and g[G_LBOX + side] == box)


@njit(cache=True)
def battle_over(p, g):
    """KoR 5.7.11: a box of either side vacated by eliminations that the reserves could not fill."""
    for side in range(2):
        for b in range(3):
            if box_vacated(p, g, side, b):
                return True
    return False


@njit(cache=True)
def may_attack(units, side, i, foe):
    """KoR 5.7.9: infantry and Roman cavalry attack the opposite unit; NR cavalry only Roman class III-V infantry."""
    if side == NR and units[NR, i, U_KIND] == CAVALRY:
        return units[ROME, foe, U_KIND] == INFANTRY and units[ROME, foe, U_CLASS] >= 3
    return True


@njit(cache=True)
def combat_drm(p, units, side, i):
    """KoR 5.7.9 and C2: the Roman class DRM and the Good Omen; NR dice have none."""
    return class_drm(p, units, i) + p[P_OMEN] if side == ROME else 0


@njit(cache=True)
def place(units, status, g, side, i, box):
    g[G_FRONT + 3 * side + box] = i
    g[G_BOX_KIND + 3 * side + box] = units[side, i, U_KIND]
    status[side, i, S_BOX] = box


@njit(cache=True)
def leader_attack_hits(stream, p, leaders, g, side):
    """KoR 5.7.10 b (KOR-A31): a reserve cavalry's d6 (+1 Good Omen for Rome) against the enemy leader's Virtus."""
    die = rng.d6(stream) + (p[P_OMEN] if side == ROME else 0)
    target = leaders[1 - side, g[G_CMD + 1 - side], L_VIRTUS]
    return die >= target if p[P_LEADER_GE] else die > target


@njit(cache=True)
def can_progress(p, units, leaders, status, g):
    """Whether a phase-3 round can still change anything: some front die can hit, or a reserve cavalry can hit an
    enemy front-line leader (the NR's only with KOR-A31 attack_leader)."""
    for b in range(3):
        for side in range(2):
            me, foe = g[G_FRONT + 3 * side + b], g[G_FRONT + 3 * (1 - side) + b]
            if me >= 0 and foe >= 0 and may_attack(units, side, me, foe) \
                    and 6 + combat_drm(p, units, side, me) > units[1 - side, foe, U_VIRTUS]:
                return True
    for side in range(2):
        if not (g[G_LEAD_ALIVE + 1 - side] and g[G_LBOX + 1 - side] >= 0):
            continue
        if side == NR and not p[P_NR_CAV_ATTACKS_LEADER]:
            continue
        best = 6 + (p[P_OMEN] if side == ROME else 0)
        target = leaders[1 - side, g[G_CMD + 1 - side], L_VIRTUS]
        if not (best >= target if p[P_LEADER_GE] else best > target):
            continue
        for i in range(p[P_UNITS + side]):
            if status[side, i, S_PART] and status[side, i, S_ALIVE] and status[side, i, S_BOX] < 0 \
                    and units[side, i, U_KIND] == CAVALRY:
                return True
    return False


@njit(cache=True)
def track_winner(p, g):
    """KoR 5.7.7, 5.7.11: the side whose score is closer to 0; equal scores per KOR-A29. -1 = no winner."""
    roman, nr = score(g, ROME), score(g, NR)
    if roman > nr:
        return ROME
    if nr > roman:
        return NR
    attacker = ROME if p[P_ROMAN_ATTACKER] else NR
    if p[P_TIE_RULE] == TIE_DEFENDER:
        return 1 - attacker
    if p[P_TIE_RULE] == TIE_ATTACKER:
        return attacker
    return -1


@njit(cache=True)
def accused(p, leaders, g):
    """5.7.11 (KOR-A37): after a defeat a Tribune is tried: the commander himself if he survived, or a Tribune
    of the army when the King (or his equivalent) or a Magister commanded it; Roman generals too with
    tribuni_and_generals (L_TRIED)."""
    cmd = g[G_CMD]
    if cmd < 0:
        return False
    if leaders[ROME, cmd, L_TRIED]:
        return g[G_LEAD_ALIVE] == 1
    if leaders[ROME, cmd, L_RANK] <= 3:
        for a in range(p[P_LEADERS]):
            if a != cmd and leaders[ROME, a, L_TRIED]:
                return True
    return False


@njit(cache=True)
def record_track(row, g):
    """The track, losses and diagnostics of the outcome row."""
    for side in range(2):
        s = score(g, side)
        row[ROMAN_SCORE + side] = s
        band = 0 if s == 0 else (1 if s >= -4 else (2 if s >= -9 else 3))
        row[(ROMAN_BAND if side == ROME else NR_BAND) + band] = 1
        row[ROMAN_PRE + side] = g[G_PRE + side]
        row[ROMAN_PEN + side] = g[G_PEN + side]
    row[ROMAN_LOST], row[ROMAN_CAPTURED] = g[G_LOST], g[G_CAPT]
    row[NR_LOST], row[NR_CAPTURED] = g[G_LOST + 1], g[G_CAPT + 1]
    row[ROMAN_LEADER_LOST], row[NR_LEADER_LOST] = g[G_LEADER_LOST], g[G_LEADER_LOST + 1]
    row[INTERREX] = g[G_INTERREX]
    row[ROUNDS] = g[G_ROUNDS]


# ---------------------------------------------------------------------------------------------------------------
# The battle as a state machine (``core.loop.machine_game``). Where the battle stands lives in ``g`` beside its
# scalars: the stage of the master algorithm (``G_STAGE``, ``ST_*``), the step and loop counters inside it, and the
# decisions taken so far that later steps need. A stage posts a decision by writing its state vector and returning
# its point with ``G_ASKED`` set (``ask``); ``apply`` stores the action, and the next ``advance`` re-enters the same
# stage, which takes it (``answer``) and goes on. So ``(status, g, state, row)`` is the whole game in progress.
(ST_START, ST_COMMANDER, ST_PARTICIPANTS, ST_SPOLIA, ST_TACTIC, ST_NR_TACTIC, ST_VANGUARD, ST_AFTER_CLASH,
 ST_RETREAT, ST_GATE, ST_PHASE3, ST_DEPLOY, ST_LEADER, ST_ROUNDS, ST_COMBAT, ST_RESERVE, ST_LEADER_ATTACKS,
 ST_RESULTS, ST_TRIUMPH, ST_END) = range(20)
NEXT = -2  # a stage's answer when the battle goes on to another stage without a decision
ROLL_ASKED = 2  # ``roll``'s answer when it posted DP-B11

(G_STAGE, G_ASKED, G_ACTION, G_STEP, G_K, G_COUNT, G_SIDE, G_KIND, G_ROOM_INF, G_ROOM_CAV, G_CHOSEN, G_NEED,
 G_WINNER, G_SCORED, G_TRIUMPH_OK, G_ENDING, G_FIGHT, G_POINT, G_ROMAN_TACTIC, G_NR_TACTIC, G_DEFENDER, G_HAD_CAVALRY,
 G_CLASH, G_VG_ATTACKER, G_VG_FIRST_ROUND, G_VG_PROGRESS, G_VG_PAIRS, G_VG_THEN, G_EXCHANGE, G_DIE) = range(
    G_MACHINE, G_MACHINE + 30)
G_ATTACKS, G_EMPTY, G_SIZE = G_MACHINE + 30, G_MACHINE + 32, G_MACHINE + 35  # attacks on leaders by side; boxes
# the sub-steps of the vanguard clash and the retreat round (G_STEP)
VG_SETUP, VG_ROUND, VG_PAIRING, VG_EXCHANGES = range(4)
RR_SETUP, RR_PAIRING, RR_ROLLS = range(3)


@njit(cache=True)
def ask(g, point):
    """Post decision ``point`` (its state vector written): the stage that asks is re-entered with the action."""
    g[G_ASKED] = 1
    return point


@njit(cache=True)
def answer(g):
    """The action taken at the decision this stage posted."""
    g[G_ASKED] = 0
    return g[G_ACTION]


@njit(cache=True)
def roll(stream, p, status, g, state, side, drm, target, grant, phase, unit_v):
    """One combat die: hit iff d6 + drm > target. A commander who may grant rerolls (``grant``) spends Astutia on a
    failed die (C3): the NR always (rules bot), Rome per DP-B11. KoR 5.7.9: one Astutia point affects one attack,
    so the die is rerolled once (KOR-A22 ``astutia_reroll = chained``: again while points last).
    Returns 1 (hit), 0, or ``ROLL_ASKED``: DP-B11 is posted, and the caller's stage calls ``roll`` again with the
    same arguments once it is answered."""
    if g[G_ASKED]:
        die = g[G_DIE]
        if answer(g) == 0:
            return 1 if die + drm > target else 0
        g[G_AST + side] -= 1
        die = rng.d6(stream)
        if not p[P_REROLL_CHAIN]:
            return 1 if die + drm > target else 0
    else:
        die = rng.d6(stream)
    while die + drm <= target and grant and g[G_AST + side] > 0 and 6 + drm > target:
        if side == ROME:
            header(p, status, g, state, phase)
            state[0], state[1] = 1, 1
            state[BS_OWN], state[BS_OWN + 1], state[BS_OWN + 2], state[BS_OWN + 3] = die, unit_v, target, drm
            g[G_DIE] = die
            ask(g, DP_B_REROLL)
            return ROLL_ASKED
        g[G_AST + side] -= 1
        die = rng.d6(stream)
        if not p[P_REROLL_CHAIN]:
            break
    return 1 if die + drm > target else 0


@njit(cache=True)
def start(p, units, leaders, status, g, state, row):
    """KoR 5.7.1 (preventive withdrawal), then 5.7.6 and table 5.1 (DP-B01): one commander per side caps the
    participating units; legal Roman leaders are those whose capacity can field the units the battle needs (at
    least 3 when Rome initiates, KOR-A14)."""
    if preventive_withdrawal(p, row):
        record_track(row, g)
        g[G_STAGE] = ST_END
        return END
    g[G_NEED] = 3 if p[P_ROMAN_INITIATES] else 0
    g[G_CMD] = -1
    if p[P_LEADERS] > 0:
        header(p, status, g, state, PHASE_SETUP)
        n_units = p[P_UNITS]
        for a in range(p[P_LEADERS]):
            room = 0
            for i in range(n_units):
                room += 1 if units[ROME, i, U_KIND] == INFANTRY else 0
            room = min(room, leaders[ROME, a, L_MAX_INF])
            cav = 0
            for i in range(n_units):
                cav += 1 if units[ROME, i, U_KIND] == CAVALRY else 0
            room += min(cav, leaders[ROME, a, L_MAX_CAV])
            state[a] = 1 if room >= g[G_NEED] else 0
            state[BS_OWN + 3 * a] = leaders[ROME, a, L_RANK]
            state[BS_OWN + 3 * a + 1] = leaders[ROME, a, L_VIRTUS]
            state[BS_OWN + 3 * a + 2] = leaders[ROME, a, L_ASTUTIA]
        g[G_STAGE] = ST_COMMANDER
        # a lone leader commands without being asked (the scenario checks that he can field the units)
        if p[P_LEADERS] > 1 or not state[0]:
            return ask(g, DP_B_COMMANDER)
        g[G_CMD] = 0
    participants_setup(p, units, leaders, status, g)
    return NEXT


@njit(cache=True)
def participants_setup(p, units, leaders, status, g):
    """The commander's capacity (table 5.1, KOR-A40 without a leader) and the Roman units, strongest first, that
    DP-B02 asks about."""
    if g[G_CMD] >= 0:
        g[G_ROOM_INF], g[G_ROOM_CAV] = leaders[ROME, g[G_CMD], L_MAX_INF], leaders[ROME, g[G_CMD], L_MAX_CAV]
    else:
        g[G_ROOM_INF], g[G_ROOM_CAV] = p[P_ROMAN_LEADERLESS_INF], p[P_ROMAN_LEADERLESS_CAV]
    n_units = p[P_UNITS]
    for i in range(n_units):
        status[ROME, i, S_PART] = 1
        status[ROME, i, S_ALIVE] = 1
    g[G_COUNT] = strongest_first(p, units, status, ROME, -1, g, G_ORDER)
    for i in range(n_units):
        status[ROME, i, S_PART] = 0
    g[G_CHOSEN], g[G_K] = 0, 0
    g[G_STAGE] = ST_PARTICIPANTS


@njit(cache=True)
def participants(p, units, leaders, status, g, state):
    """KoR 5.7.6 (DP-B02): every unit is asked, strongest first; a unit needed to reach the units the battle needs
    joins without being asked. Then the NR bot: its highest-Astutia leader (then Virtus) and its strongest units up
    to the capacity; and the pre-battle penalties (5.7.8)."""
    while g[G_K] < g[G_COUNT]:
        i = g[G_ORDER + g[G_K]]
        infantry = units[ROME, i, U_KIND] == INFANTRY
        if g[G_ASKED]:
            action = answer(g)
        else:
            if (g[G_ROOM_INF] if infantry else g[G_ROOM_CAV]) <= 0:
                g[G_K] += 1
                continue
            fitting, inf_left, cav_left = 0, g[G_ROOM_INF], g[G_ROOM_CAV]
            for k2 in range(g[G_K], g[G_COUNT]):
                if units[ROME, g[G_ORDER + k2], U_KIND] == INFANTRY:
                    if inf_left > 0:
                        fitting += 1
                        inf_left -= 1
                elif cav_left > 0:
                    fitting += 1
                    cav_left -= 1
            if g[G_CHOSEN] + fitting <= g[G_NEED]:
                action = 1
            else:
                header(p, status, g, state, PHASE_SETUP)
                state[0], state[1] = 1, 1
                state[BS_OWN], state[BS_OWN + 1], state[BS_OWN + 2] = (
                    units[ROME, i, U_KIND], units[ROME, i, U_VIRTUS], units[ROME, i, U_CLASS])
                state[BS_OWN + 3], state[BS_OWN + 4], state[BS_OWN + 5] = g[G_ROOM_INF], g[G_ROOM_CAV], g[G_CHOSEN]
                return ask(g, DP_B_PARTICIPANTS)
        if action == 1:
            status[ROME, i, S_PART] = 1
            g[G_CHOSEN] += 1
            if infantry:
                g[G_ROOM_INF] -= 1
            else:
                g[G_ROOM_CAV] -= 1
        g[G_K] += 1
    nr_command(p, units, leaders, status, g)
    pre_battle_penalties(p, units, leaders, status, g)
    g[G_WINNER], g[G_SCORED], g[G_TRIUMPH_OK], g[G_ENDING], g[G_FIGHT] = -1, 1, 1, END_PHASE3, 1
    phase3_only = p[P_MODE] == MODE_AMBUSH and p[P_AMBUSH_PHASE3_ONLY]
    g[G_STAGE] = ST_PHASE3 if phase3_only else ST_SPOLIA
    return NEXT


@njit(cache=True)
def nr_command(p, units, leaders, status, g):
    """The NR bot's command (5.7.6): highest Astutia, then Virtus; strongest units up to the capacity. Then each
    side's commander, alive, with his Astutia, not yet placed."""
    g[G_CMD + 1] = -1
    for a in range(p[P_LEADERS_NR]):
        best = g[G_CMD + 1]
        if best < 0 or leaders[NR, a, L_ASTUTIA] > leaders[NR, best, L_ASTUTIA] or (
                leaders[NR, a, L_ASTUTIA] == leaders[NR, best, L_ASTUTIA]
                and leaders[NR, a, L_VIRTUS] > leaders[NR, best, L_VIRTUS]):
            g[G_CMD + 1] = a
    if g[G_CMD + 1] >= 0:
        room_inf, room_cav = leaders[NR, g[G_CMD + 1], L_MAX_INF], leaders[NR, g[G_CMD + 1], L_MAX_CAV]
    else:
        room_inf, room_cav = p[P_NR_LEADERLESS_INF], p[P_NR_LEADERLESS_CAV]
    for i in range(p[P_UNITS_NR]):
        status[NR, i, S_PART] = 1
        status[NR, i, S_ALIVE] = 1
    count = strongest_first(p, units, status, NR, -1, g, G_ORDER)
    for k in range(count):
        i = g[G_ORDER + k]
        if units[NR, i, U_KIND] == INFANTRY:
            keep = room_inf > 0
            room_inf -= 1
        else:
            keep = room_cav > 0
            room_cav -= 1
        status[NR, i, S_PART] = 1 if keep else 0
    for side in range(2):
        cmd = g[G_CMD + side]
        g[G_LEAD_ALIVE + side] = 1 if cmd >= 0 else 0
        g[G_AST + side] = leaders[side, cmd, L_ASTUTIA] if cmd >= 0 else 0
        g[G_LBOX + side] = -1


@njit(cache=True)
def spolia_champion(p, leaders, g):
    """KOR-A17: the Roman champion, the commander or (spolia_champion = any_leader) the best Virtus + Astutia."""
    champion = g[G_CMD]
    if p[P_SPOLIA_ANY_LEADER]:
        for a in range(p[P_LEADERS]):
            if (leaders[ROME, a, L_VIRTUS] + leaders[ROME, a, L_ASTUTIA]
                    > leaders[ROME, champion, L_VIRTUS] + leaders[ROME, champion, L_ASTUTIA]):
                champion = a
    return champion


@njit(cache=True)
def spolia_duel(stream, p, leaders, g, champion):
    """KoR 5.7.2.1: each rolls d6 + Astutia (+1 Good Omen for Rome) and must exceed the other's Virtus, without
    rerolls (KOR-A17 modes). Returns 0 no result, 1 Roman win, 2 NR win, 3 both leaders die."""
    rv, ra = leaders[ROME, champion, L_VIRTUS], leaders[ROME, champion, L_ASTUTIA]
    nv, na = leaders[NR, g[G_CMD + 1], L_VIRTUS], leaders[NR, g[G_CMD + 1], L_ASTUTIA]
    roman_needs, nr_needs = nv - ra - p[P_OMEN], rv - na
    if roman_needs >= 6 and nr_needs >= 6:
        return 0  # nobody can ever hit: the duel ends without a result (contract, section 6)
    mode = p[P_SPOLIA_MODE]
    while True:
        roman_hits = rng.d6(stream) > roman_needs
        if mode == SPOLIA_ROMAN_FIRST and roman_hits:
            nr_hits = False
        else:
            nr_hits = rng.d6(stream) > nr_needs
        if roman_hits or nr_hits or mode == SPOLIA_SINGLE:
            break
    if roman_hits and nr_hits:
        return 3
    if roman_hits:
        return 1
    if nr_hits:
        return 2
    return 0


@njit(cache=True)
def spolia(stream, p, leaders, status, g, state, row):
    """KoR 5.7.2.1 (DP-B03): the Roman champion may challenge the NR commander before the tactics. A decisive duel
    scores +3/+3 or -3/-3, the loser eliminated, 5.7.11 on top (KOR-A18), no Triumph, and replaces the battle."""
    if not g[G_ASKED]:
        if g[G_CMD] < 0 or g[G_CMD + 1] < 0 or p[P_MODE] == MODE_AMBUSH:
            g[G_STAGE] = ST_TACTIC  # the challenge needs two commanders, and never belongs to an ambush (6.4)
            return NEXT
        champion = spolia_champion(p, leaders, g)
        header(p, status, g, state, PHASE_TACTICS)
        state[0], state[1] = 1, 1
        state[BS_OWN], state[BS_OWN + 1] = leaders[ROME, champion, L_VIRTUS], leaders[ROME, champion, L_ASTUTIA]
        state[BS_OWN + 2], state[BS_OWN + 3] = leaders[NR, g[G_CMD + 1], L_VIRTUS], leaders[NR, g[G_CMD + 1],
                                                                                            L_ASTUTIA]
        state[BS_OWN + 4] = p[P_OMEN]
        return ask(g, DP_B_SPOLIA)
    champion = spolia_champion(p, leaders, g)
    duel = spolia_duel(stream, p, leaders, g, champion) if answer(g) == 1 else 0
    if duel >= 2:
        lose_champion(leaders, g, champion)
    if duel == 1 or duel == 3:
        lose_leader(leaders, g, NR)
    if duel == 3 and champion == g[G_CMD]:
        g[G_SPOLIA_BOTH] = 1
    if duel == 1 or duel == 2:
        g[G_WINNER] = ROME if duel == 1 else NR
        row[IP] += 3 if duel == 1 else -3
        row[VP] += 3 if duel == 1 else -3
        g[G_SCORED], g[G_TRIUMPH_OK], g[G_ENDING], g[G_FIGHT] = p[P_SPOLIA_STACK] == 1, 0, END_SPOLIA, 0
    g[G_STAGE] = ST_TACTIC if g[G_FIGHT] else ST_PHASE3
    return NEXT


@njit(cache=True)
def tactic_inputs(p, units, leaders, status, g):
    """``policies.tactic_estimates`` of the battle as it stands: each side's fighting units (Virtus, cavalry,
    Roman class DRM, track points if lost (5.7.8), Roman units NR cavalry may not attack (5.7.9)), the track, the
    NR commander's Astutia, who rolls first in the clash (KOR-A20), the rules' NR draw (KOR-A19), KOR-A23, A24."""
    arrays = np.zeros((2, 5, 8), np.int64)
    counts = np.zeros(2, np.int64)
    for side in range(2):
        for i in range(p[P_UNITS + side]):
            if not (status[side, i, S_PART] and status[side, i, S_ALIVE]):
                continue
            k = counts[side]
            cav = units[side, i, U_KIND] == CAVALRY
            arrays[side, 0, k] = units[side, i, U_VIRTUS]
            arrays[side, 1, k] = 1 if cav else 0
            if side == ROME:
                arrays[side, 2, k] = class_drm(p, units, i)
                arrays[side, 3, k] = 3 if cav else (2 if units[side, i, U_CLASS] <= 2 else 1)
                arrays[side, 4, k] = 1 if cav or units[side, i, U_CLASS] <= 2 else 0
            else:
                arrays[side, 3, k] = 3 if cav else (0 if p[P_NR_INF_NO_POINTS] else 1)
            counts[side] += 1
    cmd = g[G_CMD + 1]
    nr_astutia = leaders[NR, cmd, L_ASTUTIA] if cmd >= 0 and g[G_LEAD_ALIVE + 1] else 0
    hex_rome = p[P_ROMAN_ATTACKER] != 0
    first_attack = True if p[P_VC_MARKER_FIRST] else hex_rome
    first_defence = False if p[P_VC_MARKER_FIRST] else hex_rome
    if p[P_TACTIC_POOL]:
        total = p[P_POOL_ATTACK] + p[P_POOL_DEFENCE] - 1
        if_attack, if_defence = (p[P_POOL_ATTACK] - 1) / total, p[P_POOL_ATTACK] / total
    else:
        if_attack, if_defence = 0.5, 0.5
    return tactic_estimates(arrays[ROME, 0], arrays[ROME, 1], arrays[ROME, 2], arrays[ROME, 3], arrays[ROME, 4],
                            counts[ROME], arrays[NR, 0], arrays[NR, 1], arrays[NR, 3], counts[NR], p[P_OMEN],
                            g[G_PEN], g[G_PEN + 1], nr_astutia, first_attack, first_defence, if_attack, if_defence,
                            p[P_MAY_DECLINE] != 0, p[P_RR_NO_CAVALRY] != 0)


@njit(cache=True)
def tactic(p, units, leaders, status, g, state):
    """KoR 5.7.3 (DP-B04): Rome picks ATTACK or DEFENCE."""
    if not g[G_ASKED]:
        header(p, status, g, state, PHASE_TACTICS)
        state[0], state[1] = 1, 1
        state[BS_OWN], state[BS_OWN + 1] = front_strength(p, units, status, ROME), front_strength(p, units, status,
                                                                                                  NR)
        state[BS_OWN + 2] = alive_of_kind(p, units, status, ROME, CAVALRY)
        state[BS_OWN + 3] = alive_of_kind(p, units, status, NR, CAVALRY)
        attack, defence = tactic_inputs(p, units, leaders, status, g)
        state[BS_OWN + 4] = int(np.floor(1000.0 * attack + 0.5))
        state[BS_OWN + 5] = int(np.floor(1000.0 * defence + 0.5))
        return ask(g, DP_B_TACTIC)
    g[G_ROMAN_TACTIC] = answer(g)
    g[G_STAGE] = ST_NR_TACTIC
    return NEXT


@njit(cache=True)
def nr_tactic(p, units, status, g, state):
    """KoR 5.7.3 (KOR-A19): the NR marker, drawn after the Roman's: a coin flip, or a draw from the marker pool
    less the Roman's marker. The decision point ``nr_tactic`` holds the draw: its built-in ``nr_rules`` rolls it
    from the markers its state shows. Then the tactics decide what follows (5.7.4-5.7.5)."""
    roman = g[G_ROMAN_TACTIC]
    if not g[G_ASKED]:
        header(p, status, g, state, PHASE_TACTICS)
        state[0], state[1] = 1, 1
        state[BS_OWN] = roman
        if p[P_TACTIC_POOL]:
            state[BS_OWN + 1] = p[P_POOL_ATTACK] - (1 if roman == ATTACK else 0)
            state[BS_OWN + 2] = p[P_POOL_DEFENCE] - (1 if roman == DEFENCE else 0)
        else:
            state[BS_OWN + 1], state[BS_OWN + 2] = 1, 1
        return ask(g, DP_B_NR_TACTIC)
    nr = answer(g)
    g[G_NR_TACTIC] = nr
    hex_attacker = ROME if p[P_ROMAN_ATTACKER] else NR
    g[G_POINT] = DP_B_FIGHT
    if roman == DEFENCE and nr == DEFENCE:
        g[G_ENDING], g[G_FIGHT] = END_DEFENCE_DEFENCE, 0
        vanguard_setup(g, hex_attacker, ST_PHASE3)
    elif roman != nr:
        defender = ROME if roman == DEFENCE else NR
        g[G_DEFENDER] = defender
        g[G_HAD_CAVALRY] = alive_of_kind(p, units, status, defender, CAVALRY) > 0
        g[G_CLASH] = alive_of_kind(p, units, status, ROME, CAVALRY) > 0 \
            and alive_of_kind(p, units, status, NR, CAVALRY) > 0
        if g[G_CLASH]:
            # KOR-A20 vanguard_first_roller: "en commençant par l'attaquant", the side that entered the hex
            # (5.7.2), or the side that chose ATTACK
            vanguard_setup(g, 1 - defender if p[P_VC_MARKER_FIRST] else hex_attacker, ST_AFTER_CLASH)
        else:
            g[G_STAGE] = ST_AFTER_CLASH
    else:
        g[G_STAGE] = ST_GATE
    return NEXT


@njit(cache=True)
def vanguard_setup(g, attacker, then):
    """Start the vanguard clash, ``attacker``'s units rolling first; the battle goes on at stage ``then``."""
    g[G_VG_ATTACKER], g[G_VG_THEN], g[G_STEP] = attacker, then, VG_SETUP
    g[G_STAGE] = ST_VANGUARD


@njit(cache=True)
def vanguard(stream, p, units, status, g, state):
    """KoR 5.7.4 vanguard clash (DP-B05, KOR-A20, KOR-A21, KOR-A22): cavalry only, the unit of the attacker
    rolls first in each exchange (KOR-A20 ``vanguard_first_roller``); a unit eliminated before it rolls does not
    answer. Equal numbers (the NR keeps its strongest; Rome's surplus is the cavalry it does not pair) fight one
    duel per pair, or, as a melee, re-pair their survivors until one side has none."""
    order, attacker = G_ORDER, g[G_VG_ATTACKER]
    while True:
        step = g[G_STEP]
        if step == VG_SETUP:
            if alive_of_kind(p, units, status, ROME, CAVALRY) == 0 or alive_of_kind(p, units, status, NR,
                                                                                     CAVALRY) == 0:
                break
            # who is involved (S_MARK = 1)
            for side in range(2):
                for i in range(p[P_UNITS + side]):
                    status[side, i, S_MARK] = 0
            n_nr = strongest_first(p, units, status, NR, CAVALRY, g, order)
            n_rome = alive_of_kind(p, units, status, ROME, CAVALRY)
            keep_nr = min(n_nr, n_rome)
            if p[P_VC_EVEN_TOTAL]:
                keep_nr = n_nr if (n_nr + n_rome) % 2 == 0 or n_nr <= n_rome else n_nr - 1
            for k in range(keep_nr):
                status[NR, g[order + k], S_MARK] = 1
            drop_rome = 1 if p[P_VC_EVEN_TOTAL] and (n_nr + n_rome) % 2 == 1 and n_rome > n_nr else 0
            n_rome_order = strongest_first(p, units, status, ROME, CAVALRY, g, order)
            for k in range(n_rome_order - drop_rome):
                status[ROME, g[order + k], S_MARK] = 1
            g[G_VG_FIRST_ROUND] = 1
            g[G_STEP] = VG_ROUND
        elif step == VG_ROUND:
            n_nr = 0
            for k in range(strongest_first(p, units, status, NR, CAVALRY, g, order)):
                if status[NR, g[order + k], S_MARK]:
                    g[order + n_nr] = g[order + k]
                    n_nr += 1
            n_rome = 0
            for i in range(p[P_UNITS]):
                if status[ROME, i, S_PART] and status[ROME, i, S_ALIVE] and status[ROME, i, S_MARK]:
                    n_rome += 1
            g[G_VG_PAIRS] = min(n_nr, n_rome)
            if g[G_VG_PAIRS] == 0:
                break
            g[G_K], g[G_STEP] = 0, VG_PAIRING
        elif step == VG_PAIRING:
            # DP-B05: a Roman cavalry for each NR cavalry, strongest NR first
            while g[G_K] < g[G_VG_PAIRS]:
                k = g[G_K]
                if not g[G_ASKED]:
                    header(p, status, g, state, PHASE_CLASH)
                    state[BS_OWN] = units[NR, g[order + k], U_VIRTUS]
                    for i in range(p[P_UNITS]):
                        if status[ROME, i, S_PART] and status[ROME, i, S_ALIVE] and status[ROME, i, S_MARK] == 1 \
                                and units[ROME, i, U_KIND] == CAVALRY:
                            state[i] = 1
                            state[BS_OWN + 1 + i] = units[ROME, i, U_VIRTUS]
                    return ask(g, DP_B_VANGUARD)
                action = answer(g)
                status[ROME, action, S_MARK] = 2
                g[G_PAIRS + k] = action
                g[G_K] = k + 1
            for i in range(p[P_UNITS]):
                if status[ROME, i, S_MARK] == 2:
                    status[ROME, i, S_MARK] = 1
                elif g[G_VG_FIRST_ROUND] and not p[P_VC_EVEN_TOTAL]:
                    status[ROME, i, S_MARK] = 0  # Rome's surplus cavalry takes no part (equal numbers)
            g[G_VG_FIRST_ROUND], g[G_VG_PROGRESS] = 0, 0
            g[G_K], g[G_EXCHANGE], g[G_STEP] = 0, 0, VG_EXCHANGES
        else:
            while g[G_K] < g[G_VG_PAIRS]:
                k = g[G_K]
                a, d = (g[G_PAIRS + k], g[order + k]) if attacker == ROME else (g[order + k], g[G_PAIRS + k])
                drm_a = p[P_OMEN] + p[P_CAV_DRM] if attacker == ROME else 0
                drm_d = p[P_OMEN] + p[P_CAV_DRM] if attacker == NR else 0
                va, vd = units[attacker, a, U_VIRTUS], units[1 - attacker, d, U_VIRTUS]
                if g[G_EXCHANGE] == 0 and not g[G_ASKED]:
                    if 6 + drm_a <= vd and 6 + drm_d <= va:
                        g[G_K] = k + 1
                        continue  # neither can ever win: the pair leaves the clash
                    g[G_VG_PROGRESS] = 1
                if g[G_EXCHANGE] == 0:
                    hit = roll(stream, p, status, g, state, attacker, drm_a, vd,
                               p[P_ASTUTIA_ALL] and g[G_LEAD_ALIVE + attacker], PHASE_CLASH, va)
                    loser = 1 - attacker
                else:
                    hit = roll(stream, p, status, g, state, 1 - attacker, drm_d, va,
                               p[P_ASTUTIA_ALL] and g[G_LEAD_ALIVE + 1 - attacker], PHASE_CLASH, vd)
                    loser = attacker
                if hit == ROLL_ASKED:
                    return DP_B_REROLL
                if hit:
                    lose_unit(p, units, status, g, loser, d if loser != attacker else a)
                    g[G_K], g[G_EXCHANGE] = k + 1, 0
                else:
                    g[G_EXCHANGE] = 1 - g[G_EXCHANGE]
            if not p[P_VC_MELEE] or not g[G_VG_PROGRESS]:
                break
            g[G_STEP] = VG_ROUND
    g[G_STAGE] = g[G_VG_THEN]
    return NEXT


@njit(cache=True)
def after_clash(stream, p, units, leaders, status, g):
    """KoR 5.7.4 after an ATTACK-DEFENCE clash: the DEFENCE side retreats "qu'il ne lui reste plus de
    cavalerie", its cavalry lost in the clash; without cavalry from the start there is no clash and phase 3
    follows (KOR-A23 retreat_round_trigger = no_cavalry: it retreats then too). A clash won by Rome asks DP-B06; one
    won by the NR goes on iff d6 exceeds the NR commander's Astutia; a drawn one stops."""
    if alive_of_kind(p, units, status, g[G_DEFENDER], CAVALRY) == 0 and (g[G_HAD_CAVALRY] or p[P_RR_NO_CAVALRY]):
        g[G_ENDING], g[G_FIGHT], g[G_TRIUMPH_OK] = END_RETREAT, 0, 0
        g[G_STEP], g[G_STAGE] = RR_SETUP, ST_RETREAT
        return NEXT
    if g[G_CLASH]:
        clash_winner = track_winner(p, g)
        if clash_winner == ROME:
            g[G_POINT] = DP_B_CONTINUE
        elif clash_winner == NR:
            cmd = g[G_CMD + 1]
            astutia = leaders[NR, cmd, L_ASTUTIA] if cmd >= 0 and g[G_LEAD_ALIVE + 1] else 0
            g[G_FIGHT] = rng.d6(stream) > astutia
        else:
            g[G_FIGHT] = 0
        if not g[G_FIGHT]:
            g[G_ENDING] = END_STOPPED
    g[G_STAGE] = ST_GATE if g[G_FIGHT] else ST_PHASE3
    return NEXT


@njit(cache=True)
def retreat(stream, p, units, status, g, state):
    """KoR 5.7.4 retreat round (DP-B08, KOR-A23): one simultaneous round of one-to-one infantry pairs; the
    defending side answers with -1; Roman class I-II infantry +1 (KOR-A23 scope), Good Omen +1."""
    order, attack_side = G_ORDER, 1 - g[G_DEFENDER]
    if g[G_STEP] == RR_SETUP:
        n_nr = strongest_first(p, units, status, NR, INFANTRY, g, order)
        g[G_COUNT] = min(n_nr, alive_of_kind(p, units, status, ROME, INFANTRY))
        for i in range(p[P_UNITS]):
            status[ROME, i, S_MARK] = 0
        g[G_K], g[G_STEP] = 0, RR_PAIRING
    if g[G_STEP] == RR_PAIRING:
        while g[G_K] < g[G_COUNT]:
            k = g[G_K]
            if not g[G_ASKED]:
                header(p, status, g, state, PHASE_RETREAT)
                state[BS_OWN] = units[NR, g[order + k], U_VIRTUS]
                for i in range(p[P_UNITS]):
                    if status[ROME, i, S_PART] and status[ROME, i, S_ALIVE] and not status[ROME, i, S_MARK] \
                            and units[ROME, i, U_KIND] == INFANTRY:
                        state[i] = 1
                        state[BS_OWN + 1 + i] = units[ROME, i, U_VIRTUS]
                return ask(g, DP_B_RETREAT)
            action = answer(g)
            status[ROME, action, S_MARK] = 1
            g[G_PAIRS + k] = action
            g[G_K] = k + 1
        for side in range(2):
            for i in range(p[P_UNITS + side]):
                status[side, i, S_HIT] = 0
        g[G_K], g[G_STEP] = 0, RR_ROLLS
    while g[G_K] < 2 * g[G_COUNT]:
        k = g[G_K] // 2
        side = attack_side if g[G_K] % 2 == 0 else 1 - attack_side
        me, foe = (g[G_PAIRS + k], g[order + k]) if side == ROME else (g[order + k], g[G_PAIRS + k])
        drm = 0 if side == attack_side else -1
        if side == ROME:
            drm += p[P_OMEN]
            if units[ROME, me, U_CLASS] <= 2 and (not p[P_RR_DRM_ATTACKER_ONLY] or side == attack_side):
                drm += 1
        hit = roll(stream, p, status, g, state, side, drm, units[1 - side, foe, U_VIRTUS],
                   p[P_ASTUTIA_ALL] and g[G_LEAD_ALIVE + side], PHASE_RETREAT, units[side, me, U_VIRTUS])
        if hit == ROLL_ASKED:
            return DP_B_REROLL
        if hit:
            status[1 - side, foe, S_HIT] = 1
        g[G_K] += 1
    for side in range(2):
        for i in range(p[P_UNITS + side]):
            if status[side, i, S_HIT]:
                lose_unit(p, units, status, g, side, i)
    if p[P_RR_TRACK]:
        g[G_WINNER] = track_winner(p, g)
    g[G_STAGE] = ST_PHASE3
    return NEXT


@njit(cache=True)
def gate(p, status, g, state):
    """KoR 5.7.4-5.7.5 (DP-B06 after a won clash, DP-B07 otherwise, KOR-A24): fight phase 3 or stop."""
    if not g[G_ASKED]:
        if g[G_POINT] == DP_B_FIGHT and not p[P_MAY_DECLINE]:
            g[G_STAGE] = ST_PHASE3
            return NEXT
        header(p, status, g, state, PHASE_CLASH)
        state[0], state[1] = 1, 1
        return ask(g, g[G_POINT])
    if answer(g) != 1:
        g[G_FIGHT], g[G_ENDING] = 0, END_STOPPED
    g[G_STAGE] = ST_PHASE3
    return NEXT


@njit(cache=True)
def phase3(p, units, status, g, row):
    """KoR 5.7.6: phase 3, fought if nothing stopped the battle before (it costs a Roman action its IP)."""
    if not g[G_FIGHT]:
        g[G_STAGE] = ST_RESULTS
        return NEXT
    row[IP] -= p[P_PHASE3_COST]
    for side in range(2):
        for b in range(3):
            g[G_FRONT + 3 * side + b] = -1
            g[G_BOX_KIND + 3 * side + b] = -1
        for i in range(p[P_UNITS + side]):
            status[side, i, S_BOX] = -1
    g[G_STEP], g[G_STAGE] = 0, ST_DEPLOY
    return NEXT


@njit(cache=True)
def deploy(stream, p, units, status, g, state):
    """KoR 5.7.6 (DP-B09): one unit per front box, infantry first; the rest in reserve. Rome deploys first
    (6.4 c); the NR puts its strongest in front, in a random box order, or in an ambush facing the weakest Roman
    units with its strongest (ties: box order). NR leaders stand with their strongest unit."""
    while g[G_STEP] < 3:
        b = g[G_STEP]
        if g[G_ASKED]:
            place(units, status, g, ROME, answer(g), b)
            g[G_STEP] = b + 1
            continue
        infantry_left = 0
        for i in range(p[P_UNITS]):
            if status[ROME, i, S_PART] and status[ROME, i, S_ALIVE] and status[ROME, i, S_BOX] < 0 \
                    and units[ROME, i, U_KIND] == INFANTRY:
                infantry_left += 1
        header(p, status, g, state, PHASE_3)
        state[BS_OWN] = b
        legal = 0
        for i in range(p[P_UNITS]):
            if status[ROME, i, S_PART] and status[ROME, i, S_ALIVE] and status[ROME, i, S_BOX] < 0 \
                    and (infantry_left == 0 or units[ROME, i, U_KIND] == INFANTRY):
                state[i] = 1
                state[BS_OWN + 1 + i] = units[ROME, i, U_VIRTUS]
                legal += 1
        if legal == 0:
            break
        return ask(g, DP_B_DEPLOY)
    order = G_ORDER
    n = min(3, strongest_first(p, units, status, NR, INFANTRY, g, order))
    if n < 3:
        n = min(3, n + strongest_first(p, units, status, NR, CAVALRY, g, order + n))
    for k in range(n, 3):
        g[order + k] = -1
    if p[P_MODE] == MODE_AMBUSH:
        # the Roman boxes from the weakest unit to the strongest, empty boxes last
        for k in range(3):
            g[G_PAIRS + k] = k
        for k in range(1, 3):
            m = k
            while m > 0:
                a, b = g[G_PAIRS + m - 1], g[G_PAIRS + m]
                va = units[ROME, g[G_FRONT + a], U_VIRTUS] if g[G_FRONT + a] >= 0 else 99
                vb = units[ROME, g[G_FRONT + b], U_VIRTUS] if g[G_FRONT + b] >= 0 else 99
                if vb >= va:
                    break
                g[G_PAIRS + m - 1], g[G_PAIRS + m] = b, a
                m -= 1
        for k in range(3):
            if g[order + k] >= 0:
                place(units, status, g, NR, g[order + k], g[G_PAIRS + k])
    else:
        which = rng.dn(stream, 6) - 1
        for k in range(3):
            if g[order + k] >= 0:
                place(units, status, g, NR, g[order + k], BOX_ORDERS[which, k])
    if g[G_LEAD_ALIVE + 1]:
        strongest = -1
        for k in range(3):
            i = g[order + k]
            if i >= 0 and (strongest < 0 or units[NR, i, U_VIRTUS] > units[NR, strongest, U_VIRTUS]):
                strongest = i
        if strongest >= 0:
            g[G_LBOX + 1] = status[NR, strongest, S_BOX]
    g[G_STAGE] = ST_LEADER if g[G_LEAD_ALIVE] else ST_ROUNDS
    return NEXT


@njit(cache=True)
def leader_position(p, units, status, g, state):
    """KoR 5.7.6 (DP-B10): where the Roman commander stands, a front box or the battle reserve."""
    if not g[G_ASKED]:
        header(p, status, g, state, PHASE_3)
        state[BS_OWN] = g[G_AST]
        for b in range(3):
            if g[G_FRONT + b] >= 0:
                state[b] = 1
                state[BS_OWN + 1 + b] = units[ROME, g[G_FRONT + b], U_VIRTUS]
        state[3] = 1
        return ask(g, DP_B_LEADER)
    action = answer(g)
    g[G_LBOX] = action if action < 3 else -1
    g[G_STAGE] = ST_ROUNDS
    return NEXT


@njit(cache=True)
def next_round(p, units, leaders, status, g):
    """KoR 5.7.9-5.7.11: rounds until a front box of either side is left empty by eliminations. A phase 3 in which
    no die can change anything any more ends as if a box were empty (see the contract)."""
    if battle_over(p, g) or not can_progress(p, units, leaders, status, g) or g[G_ROUNDS] >= MAX_ROUNDS:
        g[G_WINNER] = track_winner(p, g)
        g[G_STAGE] = ST_RESULTS
        return NEXT
    g[G_ROUNDS] += 1
    for side in range(2):
        for i in range(p[P_UNITS + side]):
            status[side, i, S_HIT] = 0
    g[G_STEP], g[G_STAGE] = 0, ST_COMBAT
    return NEXT


@njit(cache=True)
def combat(stream, p, units, status, g, state):
    """KoR 5.7.9: each front box fights only the same box opposite, attacker's dice first, all hits landing
    together (simultaneous). A front-line commander grants rerolls (C3). In the first round of an ambush battle
    the Roman units do not roll (6.4 c)."""
    attacker = ROME if p[P_ROMAN_ATTACKER] else NR
    # the loop's position in a local, saved only when a reroll is asked: a store to ``g`` in the loop would make
    # the compiler reload every table after it (all are int64 arrays that might alias)
    step = g[G_STEP]
    while step < 6:
        b = step // 2
        side = attacker if step % 2 == 0 else 1 - attacker
        me, foe = g[G_FRONT + 3 * side + b], g[G_FRONT + 3 * (1 - side) + b]
        if not g[G_ASKED] and (me < 0 or foe < 0 or not may_attack(units, side, me, foe)
                               or (side == ROME and p[P_MODE] == MODE_AMBUSH and g[G_ROUNDS] == 1)):
            step += 1
            continue
        hit = roll(stream, p, status, g, state, side, combat_drm(p, units, side, me), units[1 - side, foe, U_VIRTUS],
                   g[G_LEAD_ALIVE + side] and g[G_LBOX + side] >= 0, PHASE_3, units[side, me, U_VIRTUS])
        if hit == ROLL_ASKED:
            g[G_STEP] = step
            return DP_B_REROLL
        if hit:
            status[1 - side, foe, S_HIT] = 1
        step += 1
    for side in range(2):
        for b in range(3):
            i = g[G_FRONT + 3 * side + b]
            if i >= 0 and status[side, i, S_HIT]:
                lose_unit(p, units, status, g, side, i)
                status[side, i, S_BOX] = -1
                g[G_FRONT + 3 * side + b] = -1
    for k in range(6):
        g[G_FACING + k] = g[G_FRONT + k]
    g[G_ATTACKS], g[G_ATTACKS + 1] = 0, 0
    g[G_SIDE], g[G_KIND], g[G_COUNT], g[G_STEP] = 0, 0, -1, 0
    g[G_STAGE] = ST_RESERVE
    return NEXT


@njit(cache=True)
def nr_box(stream, units, g, e0, e1, e2):
    """DP-B14 for the NR: the first vacated box facing a Roman class III-V infantry, else one at random. Both sides
    see the enemy front as the round's hits left it (``G_FACING``): the reserve step is simultaneous."""
    for b in range(3):
        if (e0, e1, e2)[b]:
            foe = g[G_FACING + b]
            if foe >= 0 and units[ROME, foe, U_KIND] == INFANTRY and units[ROME, foe, U_CLASS] >= 3:
                return b
    k = rng.dn(stream, e0 + e1 + e2)
    for b in range(3):
        if (e0, e1, e2)[b]:
            k -= 1
            if k == 0:
                return b
    return -1


@njit(cache=True)
def reserve_unit(stream, p, units, status, g, state, side, kind, i):
    """One reserve unit's move (DP-B12, DP-B13, DP-B14): a posted decision's point, or -1 once it has moved."""
    e, action = G_EMPTY, 0
    if g[G_STEP] == 0:
        if status[side, i, S_BOX] >= 0:
            return -1
        for b in range(3):
            g[e + b] = g[G_FRONT + 3 * side + b] < 0 and (kind == CAVALRY or p[P_RESERVE_ANY_BOX]
                                                          or g[G_BOX_KIND + 3 * side + b] == INFANTRY)
        empty = g[e] + g[e + 1] + g[e + 2]
        leader_target = g[G_LEAD_ALIVE + 1 - side] and g[G_LBOX + 1 - side] >= 0
        if kind == INFANTRY:
            if empty == 0:
                return -1
            action = 0
            if side == ROME:
                header(p, status, g, state, PHASE_3)
                state[0], state[1] = 1, 1
                state[BS_OWN], state[BS_OWN + 1] = units[ROME, i, U_VIRTUS], leader_target
                g[G_STEP] = 1
                return ask(g, DP_B_RESERVE_INF)
        elif side == NR:
            action = 0 if empty else (1 if leader_target and p[P_NR_CAV_ATTACKS_LEADER] else 2)
        else:
            header(p, status, g, state, PHASE_3)
            state[0], state[1], state[2] = 1 if empty else 0, leader_target, 1
            state[BS_OWN], state[BS_OWN + 1] = units[ROME, i, U_VIRTUS], leader_target
            g[G_STEP] = 1
            return ask(g, DP_B_RESERVE_CAV)
    elif g[G_STEP] == 1:
        action = answer(g)
        if kind == INFANTRY:
            action = 0 if action == 1 else 2
    else:
        place(units, status, g, side, i, answer(g))
        g[G_STEP] = 0
        return -1
    g[G_STEP] = 0
    if action == 0:
        e0, e1, e2 = g[e], g[e + 1], g[e + 2]
        if side == NR:
            box = nr_box(stream, units, g, e0, e1, e2)
        elif e0 + e1 + e2 == 1:
            box = 0 if e0 else (1 if e1 else 2)
        else:
            header(p, status, g, state, PHASE_3)
            state[0], state[1], state[2] = e0, e1, e2
            state[BS_OWN] = units[ROME, i, U_VIRTUS]
            for b in range(3):
                foe = g[G_FACING + 3 + b]
                state[BS_OWN + 1 + b] = units[NR, foe, U_VIRTUS] if foe >= 0 else 0
            g[G_STEP] = 2
            return ask(g, DP_B_FILL)
        place(units, status, g, side, i, box)
    elif action == 1:
        g[G_ATTACKS + side] += 1
    return -1


@njit(cache=True)
def reserve(stream, p, units, status, g, state):
    """KoR 5.7.9 a and 5.7.10 (DP-B12, DP-B13, DP-B14): reserve infantry may replace an eliminated infantry
    (KOR-A30); each reserve cavalry fills a vacated box, attacks the enemy front-line leader, or (Rome) does
    nothing. The NR always fills, else attacks (KOR-A31). Both sides act at once: each sees the other's front as
    the hits left it; the attacker's units move first, infantry before cavalry, strongest first."""
    attacker = ROME if p[P_ROMAN_ATTACKER] else NR
    # loop positions in locals, saved when a unit's decision is asked (see ``combat``)
    side_k, kind_k, count, k = g[G_SIDE], g[G_KIND], g[G_COUNT], g[G_K]
    while side_k < 2:
        side = attacker if side_k == 0 else 1 - attacker
        while kind_k < 2:
            kind = INFANTRY if kind_k == 0 else CAVALRY
            if count < 0:
                count, k = strongest_first(p, units, status, side, kind, g, G_ORDER), 0
            while k < count:
                point = reserve_unit(stream, p, units, status, g, state, side, kind, g[G_ORDER + k])
                if point >= 0:
                    g[G_SIDE], g[G_KIND], g[G_COUNT], g[G_K] = side_k, kind_k, count, k
                    return point
                k += 1
            kind_k, count = kind_k + 1, -1
        side_k, kind_k = side_k + 1, 0
    g[G_STAGE] = ST_LEADER_ATTACKS
    return NEXT


@njit(cache=True)
def leader_attacks(stream, p, leaders, g):
    """KoR 5.7.10 b: the reserve cavalry's attacks on the enemy front-line leader, rolled once every unit has moved,
    and only if the battle goes on: when a vacated box stays empty it ends at once, "n'effectuez pas d'autres
    lancers de Dés" (5.7.11)."""
    if not battle_over(p, g):
        attacker = ROME if p[P_ROMAN_ATTACKER] else NR
        for side in (attacker, 1 - attacker):
            for k in range(g[G_ATTACKS + side]):
                # a leader eliminated by an earlier attack of this step is not attacked again
                if g[G_LEAD_ALIVE + 1 - side] and leader_attack_hits(stream, p, leaders, g, side):
                    lose_leader(leaders, g, 1 - side)
    g[G_STAGE] = ST_ROUNDS
    return NEXT


@njit(cache=True)
def results(p, units, leaders, status, g, state, row):
    """KoR 5.7.11-5.7.12: IP/VP by commander (KOR-A34, A35, Tribune 9.2.7.1) and the Triumph (DP-B15, KOR-A33)
    after a victory; Porsenna (KOR-A38) and the ignominy trial (KOR-A37) after a defeat (``defeat``)."""
    if p[P_MODE] == MODE_AMBUSH and not p[P_AMBUSH_STACK]:
        g[G_SCORED] = 0
    winner, scored, cmd = g[G_WINNER], g[G_SCORED], g[G_CMD]
    # after both Spolia champions died the battle went on without leaders (5.7.2.1): no longer King-led
    kinglike = cmd >= 0 and leaders[ROME, cmd, L_KINGLIKE] and not g[G_SPOLIA_BOTH]
    tribune = cmd >= 0 and leaders[ROME, cmd, L_TRIBUNE]
    g[G_STAGE] = ST_TRIUMPH
    if winner == ROME:
        row[WIN] = 1
        row[NR_TO_R] = 2
        if scored:
            if p[P_INVADER] != INVADER_REPLACE:
                row[IP] += 2 if kinglike else 1
                row[VP] += 1
            if p[P_INVADER] != INVADER_NONE:
                row[IP] += 3
                row[VP] += 3
            if tribune:
                row[IP] += 1
        if p[P_MODE] == MODE_AMBUSH:
            row[VP] += 2
        # an honour for the victorious leader: a leaderless army, or one whose leader fell, has no one to claim it
        if g[G_TRIUMPH_OK] and g[G_LEAD_ALIVE] and alive_units(p, status, ROME) > 0:
            infantry_left = 0
            for i in range(p[P_UNITS_NR]):
                if units[NR, i, U_KIND] == INFANTRY and status[NR, i, S_ALIVE] and (
                        status[NR, i, S_PART] or p[P_TRIUMPH_WHOLE]):
                    infantry_left += 1
            if infantry_left == 0 or g[G_LEADER_LOST + 1]:
                header(p, status, g, state, PHASE_3)
                state[0], state[1] = 1, 1
                return ask(g, DP_B_TRIUMPH)
    elif winner == NR:
        row[LOSS] = 1
        row[R_TO_NR] = 2
        if scored:
            if p[P_INVADER] != INVADER_REPLACE:
                if kinglike:
                    if p[P_KING_LOSS] != KING_LOSS_IP:
                        row[VP] -= 2
                    if p[P_KING_LOSS] != KING_LOSS_VP:
                        row[IP] -= 4
                else:
                    row[VP] -= 1
            if p[P_INVADER] != INVADER_NONE:
                row[VP] -= 3
            if tribune and p[P_TRIBUNE_STACK]:
                # 9.2.7.1 "Un Tribun vaincu perd 1 PI": fallen or not, his defeat costs the King 1 IP
                row[IP] -= 1
    else:
        row[NO_WINNER] = 1
    return NEXT


@njit(cache=True)
def triumph(stream, p, leaders, g, row):
    """KoR 5.7.11 (DP-B15) the Triumph claimed; after a defeat, Porsenna kills a King (KOR-A38) and a Tribune is
    tried (KOR-A37); then captures (C4, KOR-A36), adjustment and reactions: the battle is over."""
    if g[G_ASKED]:
        if answer(g) == 1:
            row[TRIUMPH] = 1
            row[IP] += p[P_TRIUMPH_IP]
    if g[G_WINNER] == NR:
        cmd = g[G_CMD]
        if p[P_PORSENNA_KILLS] and cmd >= 0 and leaders[ROME, cmd, L_KING] and g[G_LEAD_ALIVE]:
            lose_leader(leaders, g, ROME)
        if accused(p, leaders, g) and p[P_TRIAL_HELD]:
            verdict = rng.two_d6(stream) - 2
            acquitted = verdict >= 8 if p[P_EQUAL_8_ACQUITTED] else verdict > 8
            if p[P_IP_LOSS_ALWAYS] or not acquitted:
                row[IP] -= 3
    row[IP] += p[P_CAPTURE_IP] * g[G_CAPT + 1] - g[G_CAPT]
    row[VP] += p[P_CAPTURE_VP] * g[G_CAPT + 1]
    row[REACTIONS] = p[P_REACTIONS]
    row[g[G_ENDING]] = 1
    record_track(row, g)
    g[G_STAGE] = ST_END
    return END


@njit(cache=True)
def battle_init(stream, p, units, leaders, status, g, state, row):
    """A new battle: nothing fought, at its first stage."""
    row[:] = 0
    for k in range(G_SIZE):
        g[k] = 0
    g[G_STAGE] = ST_START


@njit(cache=True, apart=True)
def battle_advance(stream, p, units, leaders, status, g, state, row):
    """The battle (spec 2.1.0, steps 1-12) from where it stands to its next decision (its point) or its end
    (``END``): each stage is a step of the master algorithm, and cites its rule."""
    while True:
        stage = g[G_STAGE]
        if stage == ST_START:
            point = start(p, units, leaders, status, g, state, row)
        elif stage == ST_COMMANDER:
            g[G_CMD] = answer(g)
            participants_setup(p, units, leaders, status, g)
            point = NEXT
        elif stage == ST_PARTICIPANTS:
            point = participants(p, units, leaders, status, g, state)
        elif stage == ST_SPOLIA:
            point = spolia(stream, p, leaders, status, g, state, row)
        elif stage == ST_TACTIC:
            point = tactic(p, units, leaders, status, g, state)
        elif stage == ST_NR_TACTIC:
            point = nr_tactic(p, units, status, g, state)
        elif stage == ST_VANGUARD:
            point = vanguard(stream, p, units, status, g, state)
        elif stage == ST_AFTER_CLASH:
            point = after_clash(stream, p, units, leaders, status, g)
        elif stage == ST_RETREAT:
            point = retreat(stream, p, units, status, g, state)
        elif stage == ST_GATE:
            point = gate(p, status, g, state)
        elif stage == ST_PHASE3:
            point = phase3(p, units, status, g, row)
        elif stage == ST_DEPLOY:
            point = deploy(stream, p, units, status, g, state)
        elif stage == ST_LEADER:
            point = leader_position(p, units, status, g, state)
        elif stage == ST_ROUNDS:
            point = next_round(p, units, leaders, status, g)
        elif stage == ST_COMBAT:
            point = combat(stream, p, units, status, g, state)
        elif stage == ST_RESERVE:
            point = reserve(stream, p, units, status, g, state)
        elif stage == ST_LEADER_ATTACKS:
            point = leader_attacks(stream, p, leaders, g)
        elif stage == ST_RESULTS:
            point = results(p, units, leaders, status, g, state, row)
        elif stage == ST_TRIUMPH:
            point = triumph(stream, p, leaders, g, row)
        else:
            point = END
        if point != NEXT:
            return point


@njit(cache=True)
def battle_legal(point, action, p, units, leaders, status, g, state, row):
    """Every battle decision's legal actions are the mask in its state's first 8 entries."""
    return legal_action(state, action)


@njit(cache=True)
def battle_apply(point, action, p, units, leaders, status, g, state, row):
    g[G_ACTION] = action


@njit(cache=True)
def battle_decide(offset, point, codes, params, slots, stream, p, units, leaders, status, g, state, row):
    return decide_battle(offset, point, codes, params, slots, state, stream)


@njit(cache=True)
def battle_player(point, p, units, leaders, status, g, state, row):
    """Who decides ``point``: the NR tactic is the NR side's (1), every other decision Rome's (0)."""
    return np.int64(NR if point == DP_B_NR_TACTIC else ROME)


@njit(cache=True)
def battle_actions(point, p, units, leaders, status, g, state, row):
    return np.int64(8)  # every decision's actions are among its state's 8-entry legal mask


@njit(cache=True)
def battle_reward(player, p, units, leaders, status, g, state, row):
    """A finished battle's value for ``player``: 1 a win, 0 a loss, 1/2 no winner."""
    rome = 1.0 if row[WIN] == 1 else 0.0 if row[LOSS] == 1 else 0.5
    return rome if player == ROME else 1.0 - rome


# battle_game(stream, codes, params, slots, offset, p, units, leaders, status, g, state, row): one battle to its
# end, the siege's sortie and relief battles too. A battle hides nothing (the NR tactic is drawn after the Roman's),
# so a search needs no determinization
battle_game = machine_game("battle_game", battle_init, battle_advance, battle_legal, battle_apply, battle_decide,
                           Search(battle_player, battle_actions, battle_reward, None), max_actions=8, apart=True)


@njit(cache=True)
def battle_offset(codes):
    """Index of the battle's first decision point in ``codes``: the battle's points come last, after those of a
    game that fights battles. A run-time value, so every caller shares one compiled ``battle_game``."""
    return codes.shape[0] - N_BATTLE_POINTS


@njit(cache=True)
def battle_scratch(args):
    """The unit status, game scalars and decision state one block of battles reuses."""
    return (np.zeros((2, MAX_UNITS, S_COLS), np.int64), np.zeros(G_SIZE, np.int64),
            np.zeros(BATTLE_STATE_SIZE, np.int64))


@njit(cache=True, inline="always")
def battle_play(stream, row, codes, params, slots, p, units, leaders, status, g, state):
    return battle_game(stream, codes, params, slots, battle_offset(codes), p, units, leaders, status, g, state, row)


battle_kernel = block_kernel("battle_kernel", battle_scratch, battle_play, N_METRICS)
# the game's arrays: (p, units, leaders) + (status, g, state) + (row,); decisions read ``state``
MACHINE = Machine(battle_init, battle_advance, battle_legal, battle_apply, decider(battle_game), battle_scratch, 5)
