"""Resolution of one assault (spec 8, 9, 11, 12.1-12.2): hit location, shields, armour, damage, fumbles, stun, mercy.

Shared by the duel kernel and by every scenario that resolves single attacks. Gladiators are int64 rows (``G_*``
columns), their equipment int64 item tables (``I_*`` columns), the rule options an int64 vector (``O_*`` entries,
built by ``option_vector``). No function here asks a policy: decisions (defence, recoveries) are the caller's.
The layout is part of the contract (``docs/contracts/jugule.md``): add columns at the end only.
"""
import csv
import functools
from pathlib import Path

import numpy as np

from ..core.jit import njit
from ..core import rng
from .geometry import ARC_FLANK, ARC_REAR

DATA = Path(__file__).with_name("data")

# ----------------------------------------------------------------------------------------------- gladiator row
(G_TYPE, G_RANK, G_AP, G_HP_MAX,
 G_ARMOUR, _A1, _A2, _A3, _A4, _A5,  # amount subtracted per zone, zone order Z_*
 G_SHIELD, G_SHIELD_READY, G_BASH, G_IMPROVISE, G_SMOOTH, G_SCYTHE, G_DUAL, G_SPEAR_THROW,
 G_Q, G_R, G_FACING, G_HP, G_M, G_C, G_RES,
 G_TURN_LOSS, G_ASSAULT_LOSS, G_HEAD_STUN, G_DEALT, G_WOUNDS, G_HP_LOST,
 G_ON_GROUND, G_CAPTURED, G_CAPTURED_TURN, G_LASSOED, G_LASSOED_TURN, G_ESCAPE_TRIED, G_STUNNED_UNTIL,
 G_SAND_NEXT, G_SCUTUM_ZONE, G_COWARD, G_ATTACKED, G_CANCELLED, G_COULD_ATTACK, G_JAVELINS_THROWN, G_RP_USED,
 G_FREE_TURNS, G_AP_ALLOC, G_AP_SPENT, G_FUMBLES, G_NETS, G_OFF_BOARD,
 G_FIELDS) = range(53)

# zones = location die - 1 (9.1, JUG-A12)
Z_THORAX, Z_LEFT_ARM, Z_RIGHT_ARM, Z_LEFT_LEG, Z_RIGHT_LEG, Z_HEAD = range(6)
ZONES = ("thorax", "left_arm", "right_arm", "left_leg", "right_leg", "head")

SH_NONE, SH_PARMA, SH_ROUND, SH_SCUTUM = range(4)
SHIELDS = ("none", "parma", "round", "scutum")
RANKS = ("tiro", "primus_palus", "speciarius", "veteranus")
DUAL_NONE, DUAL_GLAIVES, DUAL_FISTS = range(3)

# ----------------------------------------------------------------------------------------------- items
MAX_ITEMS = 8
I_KIND, I_STATE, I_Q, I_R, I_RANGE, I_COLS = range(6)
IS_EMPTY, IS_HAND, IS_GROUND, IS_GONE, IS_HOLDING = range(5)
(W_GLAIVE, W_SWORD, W_SICA, W_DAGGER, W_TWO_HANDED, W_SPEAR, W_TRIDENT, W_NET, W_LASSO, W_JAVELIN, W_IRON_FISTS,
 W_SHIELD) = range(12)
WEAPON_IDS = ("glaive", "sword", "sica", "dagger", "two_handed", "spear", "trident", "net", "lasso", "javelin",
              "iron_fists", "shield_improvised")
# damage modifier of each kind (10, data/jugule_weapons.csv): dagger -2, two-handed +2, fists -2, shield -3
W_DAMAGE_MOD = np.array([0, 0, 0, -2, 2, 0, 0, 0, 0, 0, -2, -3], np.int64)
W_MELEE = np.array([1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0], np.int64)

# ----------------------------------------------------------------------------------------------- options
OPTION_NAMES = (
    "start_distance", "arena_radius", "initiative_tie", "allocation", "zoc_mode", "zoc_slide_cost",
    "turn_cost_outside_zoc", "reactive_turn", "stepback_hex", "attack_arc", "arcs", "melee_to_hit", "defence_roll",
    "dodge_mode", "defence_timing", "parry_missiles", "shield_side", "scutum_zones", "fumble_scope",
    "min_damage_stage", "sica_bonus", "exp_mod", "wounded_mod", "ground_can_attack", "immobilised",
    "protection_values", "thraex_early_kit", "single_greave_side", "dimachaerus_helmet", "custom_build",
    "eques_shield", "reach_holders", "pushback", "net_range", "net_area", "netted_can_attack", "net_escape_cmp",
    "pickup_range", "smooth_helmet", "scythe_mode", "javelin_reserve_mod", "javelin_profile", "missile_fumble",
    "spear_throw", "spear_throw_cost", "bash_shields", "bash_mode", "knockdown_wounds", "knockdown_spend",
    "improvised_shield", "double_attack", "andabata_head", "lasso_range", "stumble_cancel", "sand_mode",
    "slip_cancel", "coward_excuse_unable", "forced_appeal_turn_loss", "stun_effect", "appeal_requires_wound",
    "mercy_damage_mod", "mercy_vet_cumulative", "coward_turns", "eques_javelins", "bestiarius_weapon", "max_turns",
    "location", "net_exit")
(O_START_DISTANCE, O_ARENA_RADIUS, O_INITIATIVE_TIE, O_ALLOCATION, O_ZOC_MODE, O_ZOC_SLIDE_COST,
 O_TURN_COST_OUTSIDE_ZOC, O_REACTIVE_TURN, O_STEPBACK_HEX, O_ATTACK_ARC, O_ARCS, O_MELEE_TO_HIT, O_DEFENCE_ROLL,
 O_DODGE_MODE, O_DEFENCE_TIMING, O_PARRY_MISSILES, O_SHIELD_SIDE, O_SCUTUM_ZONES, O_FUMBLE_SCOPE,
 O_MIN_DAMAGE_STAGE, O_SICA_BONUS, O_EXP_MOD, O_WOUNDED_MOD, O_GROUND_CAN_ATTACK, O_IMMOBILISED,
 O_PROTECTION_VALUES, O_THRAEX_EARLY_KIT, O_SINGLE_GREAVE_SIDE, O_DIMACHAERUS_HELMET, O_CUSTOM_BUILD,
 O_EQUES_SHIELD, O_REACH_HOLDERS, O_PUSHBACK, O_NET_RANGE, O_NET_AREA, O_NETTED_CAN_ATTACK, O_NET_ESCAPE_CMP,
 O_PICKUP_RANGE, O_SMOOTH_HELMET, O_SCYTHE_MODE, O_JAVELIN_RESERVE_MOD, O_JAVELIN_PROFILE, O_MISSILE_FUMBLE,
 O_SPEAR_THROW, O_SPEAR_THROW_COST, O_BASH_SHIELDS, O_BASH_MODE, O_KNOCKDOWN_WOUNDS, O_KNOCKDOWN_SPEND,
 O_IMPROVISED_SHIELD, O_DOUBLE_ATTACK, O_ANDABATA_HEAD, O_LASSO_RANGE, O_STUMBLE_CANCEL, O_SAND_MODE,
 O_SLIP_CANCEL, O_COWARD_EXCUSE_UNABLE, O_FORCED_APPEAL_TURN_LOSS, O_STUN_EFFECT, O_APPEAL_REQUIRES_WOUND,
 O_MERCY_DAMAGE_MOD, O_MERCY_VET_CUMULATIVE, O_COWARD_TURNS, O_EQUES_JAVELINS, O_BESTIARIUS_WEAPON, O_MAX_TURNS,
 O_LOCATION, O_NET_EXIT, O_N) = range(69)
# andabata_head (JUG-A51), in option-table order
HEAD_STUN, HEAD_NONE, HEAD_STUN_IF_WOUNDS = range(3)


@functools.cache
def option_rows():
    """``{option: (values, default)}`` from ``data/jugule_options.csv``."""
    rows = {}
    with open(DATA / "jugule_options.csv", newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(line for line in fh if not line.startswith("#")):
            rows[row["option"]] = (row["values"].split("|"), row["default"])
    return rows


def option_vector(scenario):
    """The ``O_*`` vector of a scenario's option fields; options the scenario lacks take the table's default.

    Numeric options (``integer`` or all-digit values) are stored as their number, ``forced_appeal_turn_loss`` as
    its threshold (0 = off), booleans as 0/1, every other choice as its index in the table's value list.
    """
    rows = option_rows()
    o = np.zeros(O_N, np.int64)
    for i, name in enumerate(OPTION_NAMES):
        values, default = rows[name]
        value = getattr(scenario, name, None)
        if value is None:
            value = default
        if isinstance(value, bool) or value in ("true", "false"):
            o[i] = int(value is True or value == "true")
        elif name == "forced_appeal_turn_loss":
            o[i] = 0 if value == "off" else int(value)
        elif "integer" in values or all(v.isdigit() for v in values):
            o[i] = int(value)
        else:
            o[i] = values.index(value)
    return o


# option value codes used below (index in the option table's value list)
EXP_EXPERIENCED_ONLY, EXP_ANY_HIGHER, EXP_PER_RANK = range(3)
MIN_AT_WEAPON, MIN_AFTER_MODIFIERS, MIN_AFTER_ARMOUR = range(3)
SICA_UNCOVERED, SICA_ALWAYS, SICA_NEVER = range(3)
KNOCK_HITS, KNOCK_HP_LOST, KNOCK_WOUNDED_FLAG = range(3)
JAV_DODGE_MINUS1, JAV_LITERAL_PLUS1, JAV_NONE = range(3)
JAV_GENERAL, JAV_VELES_RANGE4, JAV_VELES_MINUS1 = range(3)

# fumble table (11, data/jugule_fumbles.csv)
F_STUMBLE, F_HESITATE, F_SAND, F_SLIP, F_BREAK = range(1, 6)
# what a finished assault leaves (12.1)
END_NONE, END_DEAD, END_STUNNED, END_GRAVE = range(4)


@njit(cache=True)
def d6(stream):
    """The game's d6. The core's dice are inlined where they are called; one shared copy here keeps the duel's
    many call sites from multiplying the compile time."""
    return rng.d6(stream)


@njit(cache=True)
def dn(stream, n):
    return rng.dn(stream, n)


@njit(cache=True)
def two_d6(stream):
    return rng.two_d6(stream)


@njit(cache=True)
def zone_of(die):
    return die - 1


@njit(cache=True)
def immobilised(o, g):
    """JUG-A26: captured by the net (also on the ground with ``immobilised = net_and_ground``); JUG-A59: stunned
    under ``stun_effect = immobilised_until_end_of_next_turn`` (``G_STUNNED_UNTIL`` > 0 while it lasts)."""
    return g[G_CAPTURED] == 1 or g[G_STUNNED_UNTIL] > 0 or (o[O_IMMOBILISED] == 1 and g[G_ON_GROUND] == 1)


@njit(cache=True)
def neutralised(o, dfn, zone, arc, right, immob):
    """9.2: a hit in a zone the defender's shield covers fails, except from the rear or on an immobilised target.

    The shield covers the left arm; a scutum also the zone declared this turn (JUG-A19). With ``shield_side =
    left_only`` it is useless against an attacker in the right flank (JUG-A18).
    """
    if immob or arc == ARC_REAR or dfn[G_SHIELD] == SH_NONE or dfn[G_SHIELD_READY] == 0:
        return False
    if o[O_SHIELD_SIDE] == 1 and arc == ARC_FLANK and right == 1:
        return False
    if zone == Z_LEFT_ARM:
        return True
    return dfn[G_SHIELD] == SH_SCUTUM and zone == dfn[G_SCUTUM_ZONE]


@njit(cache=True)
def armour(dfn, zone, immob):
    """9.2: the amount a zone's protection subtracts; none at all on an immobilised target (JUG-A26)."""
    return 0 if immob else dfn[G_ARMOUR + zone]


@njit(cache=True)
def effective_rank(rank):
    """JUG-A23: a primus palus counts as a tiro for the experience modifier."""
    return 0 if rank <= 1 else rank


@njit(cache=True)
def experience_bonus(o, att, dfn):
    """8.2, JUG-A23: +1 for an experienced attacker (speciarius or better) against a less experienced target."""
    if o[O_EXP_MOD] == EXP_ANY_HIGHER:
        return 1 if att[G_RANK] > dfn[G_RANK] else 0
    if o[O_EXP_MOD] == EXP_PER_RANK:
        return max(0, att[G_RANK] - dfn[G_RANK])
    a, d = effective_rank(att[G_RANK]), effective_rank(dfn[G_RANK])
    return 1 if a >= 2 and a > d else 0


@njit(cache=True)
def is_wounded(o, g):
    """JUG-A24: HP <= 5 (``any_damage``: any HP lost)."""
    if o[O_WOUNDED_MOD] == 1:
        return g[G_HP] < g[G_HP_MAX]
    return g[G_HP] <= 5


@njit(cache=True)
def weapon_modifier(o, kind):
    if kind == W_JAVELIN and o[O_JAVELIN_PROFILE] == JAV_VELES_MINUS1:
        return -1
    return W_DAMAGE_MOD[kind]


@njit(cache=True)
def hit_damage(o, att, dfn, kind, zone, n, arc, immob):
    """8.2: HP lost to a hit of ``kind`` in ``zone`` with assault die ``n``.

    The weapon's roll (sica +1 on an uncovered zone, JUG-A22) is clamped at 1 (JUG-A21), then experience (JUG-A23),
    flank +1 / rear +2, a wounded target +1 (JUG-A24) and a target on the ground +2 are added, then the armour is
    subtracted with a floor of 0. ``min_damage_stage`` moves the clamp after the modifiers or after the armour.
    """
    prot = armour(dfn, zone, immob)
    w = n + weapon_modifier(o, kind)
    if kind == W_SICA and (o[O_SICA_BONUS] == SICA_ALWAYS or (o[O_SICA_BONUS] == SICA_UNCOVERED and prot == 0)):
        w += 1
    if o[O_MIN_DAMAGE_STAGE] == MIN_AT_WEAPON:
        w = max(1, w)
    w += experience_bonus(o, att, dfn)
    if arc == ARC_FLANK:
        w += 1
    elif arc == ARC_REAR:
        w += 2
    if is_wounded(o, dfn):
        w += 1
    if dfn[G_ON_GROUND] == 1:
        w += 2
    if o[O_MIN_DAMAGE_STAGE] == MIN_AFTER_MODIFIERS:
        w = max(1, w)
    loss = max(0, w - prot)
    if o[O_MIN_DAMAGE_STAGE] == MIN_AFTER_ARMOUR:
        loss = max(1, loss)
    return loss


@njit(cache=True)
def apply_loss(dfn, att, loss):
    """12.1: remove HP (never below 0: ``dealt`` counts HP actually removed) and keep the running counters."""
    taken = min(loss, max(dfn[G_HP], 0))
    dfn[G_HP] -= taken
    dfn[G_TURN_LOSS] += taken
    dfn[G_ASSAULT_LOSS] += taken
    dfn[G_HP_LOST] += taken
    att[G_DEALT] += taken
    if taken >= 1:
        dfn[G_WOUNDS] += 1


@njit(cache=True)
def strike(stream, o, att, dfn, kind, zone, arc, right, immob, double, die_fumbles, n_pre=0):
    """8.1 step 3 onwards, for a hit that got past the shield and the defence: roll the assault die, apply the
    loss; for a double attack (JUG-A50) roll the second attack's location (``two_locations``), shield check and
    die, and apply its loss too. ``die_fumbles`` = 0 lets a natural 1 through as a damage roll (thrown weapons with
    ``missile_fumble = false``, JUG-A44). ``n_pre`` > 0 is an assault die already rolled before the defence
    (``fumble_scope = every_assault``, JUG-A20); 0 rolls it here. Returns ``(loss1, loss2, fumbled, head_hit)``:
    ``fumbled`` 1 for the first die (no second attack), 2 for the second (to be resolved after the checks of
    12.1); ``head_hit`` 1 when an Andabata's fists got through to the head (JUG-A51).
    """
    n = n_pre if n_pre > 0 else d6(stream)
    if n == 1 and die_fumbles:
        return 0, 0, 1, 0
    loss1 = hit_damage(o, att, dfn, kind, zone, n, arc, immob)
    apply_loss(dfn, att, loss1)
    head = head_stun(o, kind, zone, loss1)
    loss2, fumbled = 0, 0
    if double:
        zone2 = zone if o[O_DOUBLE_ATTACK] == 1 else zone_of(d6(stream))
        if not neutralised(o, dfn, zone2, arc, right, immob):
            n2 = d6(stream)
            if n2 == 1 and die_fumbles:
                fumbled = 2
            else:
                loss2 = hit_damage(o, att, dfn, kind, zone2, n2, arc, immob)
                apply_loss(dfn, att, loss2)
                head = max(head, head_stun(o, kind, zone2, loss2))
    return loss1, loss2, fumbled, head


@njit(cache=True, inline="always")
def head_stun(o, kind, zone, loss):
    """10.8 (JUG-A51): 1 when an Andabata's blow that got through to the head stuns: always (``stun``, « Un coup
    à la tête assomme net l'adversaire »), never (``none``), or only when it removed at least 1 HP
    (``stun_if_wounds``: a blow the helmet absorbs whole knocks nobody out)."""
    if kind != W_IRON_FISTS or zone != Z_HEAD:
        return 0
    mode = o[O_ANDABATA_HEAD]
    return 1 if mode == HEAD_STUN or (mode == HEAD_STUN_IF_WOUNDS and loss >= 1) else 0


@njit(cache=True)
def after_assault(o, dfn):
    """12.1 after a whole assault: dead (HP <= 0), stunned (>= 5 HP lost in it, or an Andabata head hit, JUG-A59,
    A51), gravely wounded (``forced_appeal_turn_loss`` or more lost this turn, JUG-A58), or nothing."""
    if dfn[G_HP] <= 0:
        return END_DEAD
    if dfn[G_ASSAULT_LOSS] >= 5 or dfn[G_HEAD_STUN] == 1:
        return END_STUNNED
    if o[O_FORCED_APPEAL_TURN_LOSS] > 0 and dfn[G_TURN_LOSS] >= o[O_FORCED_APPEAL_TURN_LOSS]:
        return END_GRAVE
    return END_NONE


@njit(cache=True)
def fumble_kind(die):
    """11: 1 stumble, 2-3 hesitation, 4 sand in the eyes, 5 the weapon slips, 6 it breaks."""
    if die == 1:
        return F_STUMBLE
    if die <= 3:
        return F_HESITATE
    return die - 1  # 4 -> F_SAND, 5 -> F_SLIP, 6 -> F_BREAK


@njit(cache=True)
def javelin_range(o, kind):
    """10.4, JUG-A43/A45: the farthest distance of a throw (javelin 10, Veles profile 4; spear 4)."""
    if kind == W_SPEAR:
        return 4
    return 4 if o[O_JAVELIN_PROFILE] == JAV_VELES_RANGE4 else 10


@njit(cache=True)
def javelin_needs(o, distance, spoiled, reserve_used):
    """10.4, JUG-A42: the natural die a throw needs, d6 + mod >= 4 with mod -1 beyond 5 hexes, +1 under 5, and
    -1 when the target spoils it (``literal_plus1``: +1 when the target has already used reserve this turn).
    Returns 1..7 (7 = cannot hit)."""
    mod = -1 if distance > 5 else (1 if distance < 5 else 0)
    if o[O_JAVELIN_RESERVE_MOD] == JAV_DODGE_MINUS1 and spoiled:
        mod -= 1
    elif o[O_JAVELIN_RESERVE_MOD] == JAV_LITERAL_PLUS1 and reserve_used:
        mod += 1
    return min(7, max(1, 4 - mod))


@njit(cache=True)
def knockdown_total(o, dfn, roll):
    """10.6, JUG-A48: the 2d6 roll plus the target's wounds (hits that removed HP; or HP lost; or 1 if wounded)."""
    if o[O_KNOCKDOWN_WOUNDS] == KNOCK_HP_LOST:
        return roll + dfn[G_HP_LOST]
    if o[O_KNOCKDOWN_WOUNDS] == KNOCK_WOUNDED_FLAG:
        return roll + (1 if dfn[G_HP] <= 5 else 0)
    return roll + dfn[G_WOUNDS]


@njit(cache=True)
def appeal_needs(o, g):
    """12.2, JUG-A61: the natural die an appeal needs: natural + mod >= 5, a natural 1 always fails.

    mod = +1 speciarius or better, +1 more for a veteran (``mercy_vet_cumulative``), +max(0, dealt - 3)
    (``from3``: dealt - 2 once dealt >= 3).
    """
    mod = 0
    if g[G_RANK] >= 2:
        mod += 1
    if g[G_RANK] == 3 and o[O_MERCY_VET_CUMULATIVE] == 1:
        mod += 1
    if o[O_MERCY_DAMAGE_MOD] == 1:
        mod += g[G_DEALT] - 2 if g[G_DEALT] >= 3 else 0
    else:
        mod += max(0, g[G_DEALT] - 3)
    return max(2, 5 - mod)
