"""Siege (KoR 5.5 a-c): kernel.

The scenario is compiled into one int64 vector ``p`` indexed by the constants below; rule options are integer
flags in it, never Python branches. The outcome row follows ``Siege.metrics``.

The kernel's ``args`` are ``(p, success table, bp, bunits, bleaders, bcodes, bparams)``: the siege rolls and the
relief and sortie battles (``bp``/``bunits``/``bleaders`` indexed by ``RELIEF_BATTLE``, ``SORTIE_BATTLE``), which
the battle's built-in policies fight (``bcodes``/``bparams``). ``codes``/``params``/``slots`` are the siege's own
decision points, ``SIEGE_POINTS``.
"""
import numpy as np
from ..core.jit import njit

from ..core import rng
from ..core.loop import block_kernel, copy_into
from ..core.policy import error_code
from . import battle as _battle
from .policies import (
    BATTLE_STATE_SIZE,
    DP_FIRST_TARGET,
    DP_LOSSES,
    DP_REROLL,
    DP_SECOND_CRITERION,
    decide_first_target,
    decide_losses,
    decide_reroll,
    decide_second_criterion,
)

# indices into the compiled parameter vector
(GARRISON, LEADER, UNITS, KING_LED, TRIBUNE, ACCUSED, ASTUTIA, OMEN, FIRST_GE, FIRST_TARGET, SECOND_EQ,
 SECOND_DECLARE, SECOND_CITY_FALLS, FIRST_PLUS_C, KING_REWARD_VP, FIRST_LEADER_CAPTURED, REACTIONS_ALL_DICE,
 TRIAL_HELD, EQUAL_8_ACQUITTED, IP_LOSS_ALWAYS, TRIBUNE_STACK, RELIEF, RELIEF_ALWAYS, SORTIE_POSSIBLE,
 SORTIE_ANY_UNIT, SORTIE_CITY_FALLS, SORTIE_VP_ONLY, CHAINED, N_PARAMS) = range(29)

# the two battles a siege may bring (S0, S1): index into the compiled battle arrays
RELIEF_BATTLE, SORTIE_BATTLE = 0, 1

# first-roll target modes (KOR-A7), in kor_options.csv order
TARGET_LEADER_IF_PRESENT, TARGET_PLAYER_CHOICE, TARGET_MAX, TARGET_GARRISON_ONLY = range(4)

# outcome columns, in Siege.metrics order
(WIN, SUBMIT, CITY_TAKEN, ABANDON, IP, VP, REACTIONS, R_TO_NR, NR_TO_R, UNITS_LOST, LEADER_CAPTURED,
 N_METRICS) = range(12)

# roll kinds passed to the success test
ROLL_A_GARRISON, ROLL_A_LEADER, ROLL_B_GARRISON, ROLL_B_LEADER, ROLL_B_EITHER = range(5)


def success_table(p):
    """``table[kind, die]`` = 1 if a siege roll of ``kind`` succeeds with ``die`` (Good Omen included).

    KoR 5.5 a: exceed double the target's Virtus (``>``, KOR-A6 gt_double; ``>=`` with ge_double).
    KoR 5.5 b: the garrison gets a virtual +1; reach its double (KOR-A8 ge_double; exactly, eq_double) or
    exceed the besieged leader's Virtus. Column 0 of each row says whether any die succeeds.
    """
    g, lead = int(p[GARRISON]), int(p[LEADER])
    table = np.zeros((5, 7), np.int64)
    for die in range(1, 7):
        total = die + int(p[OMEN])
        for kind, value in ((ROLL_A_GARRISON, g), (ROLL_A_LEADER, lead)):
            table[kind, die] = value > 0 and (total >= 2 * value if p[FIRST_GE] else total > 2 * value)
        double_b = 2 * (g + 1)
        by_garrison = g > 0 and (total == double_b if p[SECOND_EQ] else total >= double_b)
        by_leader = lead > 0 and total > lead
        table[ROLL_B_GARRISON, die] = by_garrison
        table[ROLL_B_LEADER, die] = by_leader
        table[ROLL_B_EITHER, die] = by_garrison or by_leader
    table[:, 0] = table[:, 1:].max(axis=1)
    return table


@njit(cache=True, inline="llvm")
def faces(table, kind):
    """How many faces of a die make a siege roll of ``kind`` succeed."""
    count = 0
    for die in range(1, 7):
        count += table[kind, die]
    return count


@njit(cache=True, inline="llvm")
def siege_roll(stream, table, kind, stage, faces_b, points, chained, state, codes, params, slots, offset):
    """One siege roll with Astutia rerolls (C3, KOR-A22). KoR 5.7.9: one Astutia point « affecte » one attack, so a
    failed roll is rerolled at most once (``astutia_reroll=once``); with ``chained`` the new die may be rerolled
    again while points last. Returns ``(success, points_left, rerolls, error)``."""
    die = rng.d6(stream)
    ok = table[kind, die]
    rerolls = 0
    while points > 0 and not ok and (chained or rerolls == 0):
        state[0], state[1], state[2], state[3] = stage, die, points, table[kind, 0]
        state[4], state[5], state[6] = faces(table, kind), faces_b, chained
        i = offset + DP_REROLL
        action = decide_reroll(codes[i], params[i], state, stream, slots, i)
        if action == 0:
            break
        if action != 1:
            return 0, points, rerolls, error_code(i, action)
        points -= 1
        rerolls += 1
        die = rng.d6(stream)
        ok = table[kind, die]
    return ok, points, rerolls, 0


@njit(cache=True, inline="llvm")
def victory_reward(p, row):
    """5.5 c: King-led victory +3 IP (or +3 VP, KOR-A10); any other commander +1 VP."""
    if p[KING_LED]:
        if p[KING_REWARD_VP]:
            row[VP] += 3
        else:
            row[IP] += 3
    else:
        row[VP] += 1


@njit(cache=True, inline="llvm")
def siege_rolls(stream, row, state, p, table, lead, units, codes, params, slots, offset):
    """KoR 5.5 a-c: the siege rolls against the garrison and the leader and units still in the city. Adds to
    ``row``; returns 0 or a policy error code. ``offset``: the index of the siege's first decision point in
    ``codes``, ``params`` and ``slots`` (0 here; the campaign's siege points follow its own)."""
    g = p[GARRISON]
    points = p[ASTUTIA]
    chained = p[CHAINED]
    rolls = 0
    rerolls_made = 0
    # what roll b could do, for a reroll policy weighing a point spent on roll a: its best criterion
    if lead == 0:
        faces_b = faces(table, ROLL_B_GARRISON)
    elif p[SECOND_DECLARE] and g > 0:
        faces_b = max(faces(table, ROLL_B_GARRISON), faces(table, ROLL_B_LEADER))
    else:
        faces_b = faces(table, ROLL_B_EITHER)

    # roll a: the besieged leader's Virtus if present, else the garrison's (KOR-A7)
    mode = p[FIRST_TARGET]
    kind = ROLL_A_LEADER if lead > 0 else ROLL_A_GARRISON
    if g > 0 and lead > 0:
        if mode == TARGET_GARRISON_ONLY or (mode == TARGET_MAX and g > lead):
            kind = ROLL_A_GARRISON
        elif mode == TARGET_PLAYER_CHOICE:
            state[0], state[1], state[2], state[3] = g, lead, p[FIRST_GE], p[OMEN]
            i = offset + DP_FIRST_TARGET
            action = decide_first_target(codes[i], params[i], state, stream, slots, i)
            if action != 0 and action != 1:
                return error_code(i, action)
            kind = ROLL_A_LEADER if action == 1 else ROLL_A_GARRISON
    ok, points, rr, err = siege_roll(stream, table, kind, 0, faces_b, points, chained, state, codes, params,
                                     slots, offset)
    if err:
        return err
    rolls += 1
    rerolls_made += rr

    if ok:
        # the city submits: garrison flipped to Rome, every other enemy token to the R container (5.5 a)
        row[WIN] = 1
        row[SUBMIT] = 1
        row[CITY_TAKEN] = 1
        row[UNITS_LOST] += units
        if lead > 0 and p[FIRST_LEADER_CAPTURED]:
            row[LEADER_CAPTURED] = 1
        row[IP] += 2
        if p[FIRST_PLUS_C]:
            victory_reward(p, row)
    else:
        # roll b: the garrison gets a virtual +1; criterion per KOR-A8
        kind = ROLL_B_EITHER if lead > 0 else ROLL_B_GARRISON
        if p[SECOND_DECLARE] and g > 0 and lead > 0:
            state[0], state[1], state[2], state[3] = g + 1, lead, p[SECOND_EQ], p[OMEN]
            i = offset + DP_SECOND_CRITERION
            action = decide_second_criterion(codes[i], params[i], state, stream, slots, i)
            if action != 0 and action != 1:
                return error_code(i, action)
            kind = ROLL_B_LEADER if action == 1 else ROLL_B_GARRISON
        ok, points, rr, err = siege_roll(stream, table, kind, 1, 0, points, chained, state, codes, params,
                                         slots, offset)
        if err:
            return err
        rolls += 1
        rerolls_made += rr
        if ok:
            row[WIN] = 1
            has_g, has_lead = g > 0, lead > 0
            losses = 2 if p[KING_LED] else 1
            leader_taken = False
            while losses > 0 and (has_g or has_lead or units > 0):
                required = 1 if (p[KING_LED] and losses == 1 and has_lead) else 0
                state[0], state[1], state[2], state[3], state[4] = has_g, has_lead, units, losses, required
                i = offset + DP_LOSSES
                action = decide_losses(codes[i], params[i], state, stream, slots, i)
                legal = ((action == 0 and has_g) or (action == 1 and units > 0) or (action == 2 and has_lead))
                if not legal or (required and action != 2):
                    return error_code(i, action)
                if action == 0:
                    has_g = False  # a lost garrison is flipped to Rome (KOR-A9)
                elif action == 1:
                    units -= 1
                    row[UNITS_LOST] += 1
                else:
                    has_lead = False
                    leader_taken = True
                losses -= 1
            if has_lead and not has_g and units == 0:
                has_lead = False  # an NR leader left alone in the city is captured
                leader_taken = True
            if p[SECOND_CITY_FALLS]:
                # the city falls as in roll a (KOR-A9 option city_falls)
                row[UNITS_LOST] += units
                if has_lead and p[FIRST_LEADER_CAPTURED]:
                    leader_taken = True
                row[CITY_TAKEN] = 1
            else:
                row[CITY_TAKEN] = 1 if (not has_g and units == 0) else 0
            if leader_taken:
                row[LEADER_CAPTURED] = 1
            victory_reward(p, row)

    if row[WIN]:
        row[NR_TO_R] += 1
    else:
        # S4: siege abandoned
        row[ABANDON] = 1
        row[R_TO_NR] += 2
        if p[KING_LED]:
            row[IP] -= 2
        else:
            row[VP] -= 1
        if p[ACCUSED] and p[TRIAL_HELD]:
            # ignominy trial after a lost siege (5.7.11): 2d6 - 1 must exceed 8 (KOR-A37)
            r = rng.two_d6(stream) - 1
            acquitted = r >= 8 if p[EQUAL_8_ACQUITTED] else r > 8
            if p[IP_LOSS_ALWAYS] or not acquitted:
                row[IP] -= 3
    # 5.5.1: « 1 action hostile pour chaque jet de Dé effectué pendant le siège », rerolls included (KOR-A11)
    row[REACTIONS] = rolls + (rerolls_made if p[REACTIONS_ALL_DICE] else 0)
    return 0


@njit(cache=True, inline="llvm")
def add_battle(row, brow, vp_only):
    """A siege battle's points and adjustments count for the siege action (its reactions do not, KOR-A11)."""
    if not vp_only:
        row[IP] += brow[_battle.IP]
        row[VP] += brow[_battle.VP]
    row[R_TO_NR] += brow[_battle.R_TO_NR]
    row[NR_TO_R] += brow[_battle.NR_TO_R]


@njit(cache=True)
def siege_battles(stream, row, p, bp, bunits, bleaders, bcodes, bparams, slots, sortie_p, sortie_units,
                  sortie_leaders, status, bg, bstate, brow):
    """KoR 5.5 S0 and S1, before the siege rolls: the Falisci/Capenati relief battle (9.2.7.3-9.2.7.4) and the
    sortie of a besieged leader with at least as many units as the besiegers (5.5.1, KOR-A12), fought by the
    built-in battle bots in ``bcodes``/``bparams``. No built-in calls a slot, so the battles get the siege's
    ``slots`` only to fill that argument. Adds to ``row``; returns ``(error code, the siege goes on, the NR
    leader's Virtus left, the NR units left)``."""
    lead, units = p[LEADER], p[UNITS]
    offset = _battle.battle_offset(bcodes)
    roman_alive = _battle.MAX_UNITS  # every besieger, unless the relief battle killed some
    copy_into(sortie_p, bp[SORTIE_BATTLE])
    copy_into(sortie_units, bunits[SORTIE_BATTLE])
    copy_into(sortie_leaders, bleaders[SORTIE_BATTLE])
    if p[RELIEF]:
        err = _battle.battle_game(stream, bcodes, bparams, slots, offset, bp[RELIEF_BATTLE], bunits[RELIEF_BATTLE],
                                  bleaders[RELIEF_BATTLE], status, bg, bstate, brow)
        if err:
            return err, False, lead, units
        add_battle(row, brow, False)
        if not brow[_battle.WIN] and not p[RELIEF_ALWAYS]:
            return 0, False, lead, units  # S0: the relief army still stands between Rome and the walls (KOR-A12)
        # the sortie meets the besiegers that survived the relief battle
        kept = 0
        for i in range(bp[RELIEF_BATTLE, _battle.P_UNITS]):
            if status[_battle.ROME, i, _battle.S_ALIVE]:
                sortie_units[_battle.ROME, kept] = bunits[RELIEF_BATTLE, _battle.ROME, i]
                kept += 1
        roman_alive = kept
        sortie_p[_battle.P_UNITS] = kept
        if bg[_battle.G_LEADER_LOST]:
            sortie_p[_battle.P_LEADERS] = 0
    if p[SORTIE_POSSIBLE] and lead > 0 and units >= min(roman_alive, sortie_p[_battle.P_UNITS]):
        err = _battle.battle_game(stream, bcodes, bparams, slots, offset, sortie_p, sortie_units, sortie_leaders,
                                  status, bg, bstate, brow)
        if err:
            return err, False, lead, units
        add_battle(row, brow, p[SORTIE_VP_ONLY])
        row[UNITS_LOST] += brow[_battle.NR_LOST]
        if brow[_battle.NR_LEADER_LOST]:
            lead = 0
            row[LEADER_CAPTURED] = 1
        survivors = units - brow[_battle.NR_LOST]
        if (survivors > 0) if p[SORTIE_ANY_UNIT] else (not brow[_battle.WIN]):
            row[VP] -= 2  # 5.5.1: the sortie force survives; the siege is over
            return 0, False, lead, units
        # the sortie force is defeated: its uncaptured units go to the R container, the siege goes on
        row[UNITS_LOST] += survivors
        units = 0
        if p[SORTIE_CITY_FALLS] or (p[GARRISON] == 0 and lead == 0):
            row[WIN] = 1
            row[CITY_TAKEN] = 1
            if lead > 0:
                row[LEADER_CAPTURED] = 1
            return 0, False, lead, units
    return 0, True, lead, units


@njit(cache=True, inline="llvm")
def tribune_fate(row, p):
    """9.2.7.1: « Après la bataille ou le siège, un Tribun victorieux gagne 1 PI pour le Roi [...] Un Tribun vaincu
    perd 1 PI »: his office ends with the siege, so the whole action (sortie or relief battle included) decides
    once: a city won, or a siege that ends without it (KOR-A37 stack for the -1 IP)."""
    if p[TRIBUNE]:
        if row[WIN]:
            row[IP] += 1
        elif p[TRIBUNE_STACK]:
            row[IP] -= 1


@njit(cache=True, inline="llvm")
def siege_game(stream, row, codes, params, slots, p, table, bp, bunits, bleaders, bcodes, bparams, state, status, bg,
               bstate, brow, sortie_p, sortie_units, sortie_leaders):
    """KoR 5.5: the battles that may come first (``siege_battles``), the siege rolls, then the Tribune
    commander's fate. Fills ``row``; returns 0 or a policy error code."""
    row[:] = 0
    err, go_on, lead, units = siege_battles(stream, row, p, bp, bunits, bleaders, bcodes, bparams, slots, sortie_p,
                                            sortie_units, sortie_leaders, status, bg, bstate, brow)
    if go_on:
        err = siege_rolls(stream, row, state, p, table, lead, units, codes, params, slots, 0)
    tribune_fate(row, p)
    return err


@njit(cache=True, inline="llvm")
def siege_rolls_game(stream, row, codes, params, slots, p, table, bp, bunits, bleaders, bcodes, bparams, state,
                     status, bg, bstate, brow, sortie_p, sortie_units, sortie_leaders):
    """KoR 5.5 for a siege that can fight no battle (no relief army, no leader to lead a sortie): the siege rolls
    and the Tribune's fate, in a kernel without the battle's code, so that it compiles in a fraction of the time
    and pays nothing for the battles it cannot fight. Fills ``row``; returns 0 or a policy error code."""
    row[:] = 0
    err = siege_rolls(stream, row, state, p, table, p[LEADER], p[UNITS], codes, params, slots, 0)
    tribune_fate(row, p)
    return err


@njit(cache=True)
def siege_scratch(args):
    """The siege's decision state and what its battles reuse: unit status, game scalars, decision state, outcome
    row, and the sortie's copy of its battle arrays (the relief battle may thin the besiegers)."""
    bp, bunits, bleaders = args[2], args[3], args[4]
    return (np.zeros(8, np.int64), np.zeros((2, _battle.MAX_UNITS, _battle.S_COLS), np.int64),
            np.zeros(_battle.G_SIZE, np.int64), np.zeros(BATTLE_STATE_SIZE, np.int64),
            np.zeros(_battle.N_METRICS, np.int64), np.zeros(bp.shape[1], np.int64),
            np.zeros(bunits.shape[1:], np.int64), np.zeros(bleaders.shape[1:], np.int64))


siege_kernel = block_kernel("siege_kernel", siege_scratch, siege_game, N_METRICS)
siege_rolls_kernel = block_kernel("siege_rolls_kernel", siege_scratch, siege_rolls_game, N_METRICS)
