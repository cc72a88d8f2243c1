"""The 18 gladiator types (spec 14, ``data/jugule_gladiators.csv``) and custom gladiators, as kernel rows.

A gladiator is given as a type name or as a custom table (contract ``docs/contracts/jugule.md``); both become a
*spec* dict (``ap``, armour per zone, ``shield``, ``weapons``, ``javelins``, flags), which the loadout options of
D2 (JUG-A27…A32, A67, A68) adjust and ``gladiator_row`` compiles to a ``G_*`` row and an ``I_*`` item table.
"""
import csv
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..core.errors import ScenarioError
from ..core.scenario import ParamSpec, Record
from .combat import (
    DATA,
    DUAL_FISTS,
    DUAL_GLAIVES,
    DUAL_NONE,
    G_AP,
    G_ARMOUR,
    G_BASH,
    G_DUAL,
    G_FIELDS,
    G_HP,
    G_HP_MAX,
    G_IMPROVISE,
    G_RANK,
    G_SCUTUM_ZONE,
    G_SCYTHE,
    G_SHIELD,
    G_SHIELD_READY,
    G_SMOOTH,
    G_SPEAR_THROW,
    G_TYPE,
    I_COLS,
    I_KIND,
    I_RANGE,
    I_STATE,
    IS_EMPTY,
    IS_HAND,
    MAX_ITEMS,
    RANKS,
    SH_NONE,
    SH_PARMA,
    SH_SCUTUM,
    SHIELDS,
    W_IRON_FISTS,
    W_JAVELIN,
    W_SHIELD,
    W_SPEAR,
    W_TRIDENT,
    WEAPON_IDS,
    Z_THORAX,
    ZONES,
)


def _read(name):
    with open(DATA / name, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


TYPE_ROWS = {row["type_id"]: row for row in _read("jugule_gladiators.csv")}
TYPES = tuple(TYPE_ROWS)
PROTECTIONS = {row["protection_id"]: row for row in _read("jugule_protections.csv")}
WEAPONS = {row["weapon_id"]: row for row in _read("jugule_weapons.csv")}
# weapons a custom gladiator may carry: every weapon of the table with a damage or special rule the duel plays
CARRIED = ("glaive", "sword", "sica", "dagger", "two_handed", "spear", "trident", "net", "lasso", "javelin",
           "iron_fists", "two_glaives")
# armour values a zone may carry (9.2 and the values the type table prints, JUG-A27)
ZONE_VALUES = {"head": (0, -2, -3, -4), "thorax": (0, -3, -4), "left_arm": (0, -1, -3), "right_arm": (0, -1, -3),
               "left_leg": (0, -1, -3), "right_leg": (0, -1, -3)}
# 9.2 AP costs per piece (14.2); "Casque (-3)" has no printed cost: 1 AP, the value that fits the most types
PIECE_COST = {"head": {-2: Fraction(1), -3: Fraction(1), -4: Fraction(2)},
              "thorax": {-3: Fraction(2), -4: Fraction(2)},
              "limb": {-1: Fraction(1, 2), -3: Fraction(1)}}
SHIELD_COST = {"none": 0, "parma": 1, "round": 1, "scutum": 2}
# the two helmets with the Secutor's effect (JUG-A40) and the Scissor's scythe (JUG-A41)
SMOOTH_HELMET_TYPES = ("secutor", "scissor")


def _type_spec(type_id):
    row = TYPE_ROWS[type_id]
    weapons, javelins = [], 0
    for item in row["weapons"].split(";"):
        name, _, count = item.partition(":")
        name = name.split("/")[0]  # "sword/spear": the first is the default (JUG-A68)
        if name == "javelin":
            javelins = int(count or 4)
        if name != "scythe":  # the Scissor's anti-net device is a flag, not a weapon (JUG-A41)
            weapons.append(name)
    return {"type": type_id, "ap": int(row["ap"]), "shield": row["shield"], "weapons": weapons,
            "javelins": javelins, "smooth_helmet": type_id in SMOOTH_HELMET_TYPES, "scythe": type_id == "scissor",
            **{zone: int(row[zone]) for zone in ZONES}}


def apply_loadout(spec, options):
    """D2 loadout variants and printed-value readings of a type (JUG-A27…A30, A32, A67, A68)."""
    spec = dict(spec, weapons=list(spec["weapons"]))
    kind = spec.get("type")
    if kind == "thraex_early" and options["thraex_early_kit"] != "greaves":
        spec["head"] = -3
        if options["thraex_early_kit"] == "helmet":
            spec["left_leg"] = spec["right_leg"] = 0
    if kind in ("thraex_late", "samnis") and options["single_greave_side"] == "right":
        spec["left_leg"], spec["right_leg"] = spec["right_leg"], spec["left_leg"]
    if kind == "dimachaerus" and options["dimachaerus_helmet"]:
        spec["head"], spec["ap"] = -2, spec["ap"] - 1
    if kind == "eques":
        spec["shield"] = options["eques_shield"]
        if options["eques_javelins"] > 0:
            spec["weapons"].append("javelin")
            spec["javelins"] = options["eques_javelins"]
    if kind == "bestiarius" and options["bestiarius_weapon"] == "spear":
        spec["weapons"] = ["spear"]
    if options["protection_values"] == "normalised":
        # "Casque (-3)" read as the open helmet of the protection table, the -4 cuirasses as the table's -3
        if spec["head"] == -3:
            spec["head"] = -2
        if spec["thorax"] == -4:
            spec["thorax"] = -3
    return spec


def base14_ap(spec):
    """JUG-A31 ``custom_build = base14``: 14 minus the protection costs (per piece, 14.2), rounded down."""
    cost = Fraction(SHIELD_COST[spec["shield"]])
    for zone in ZONES:
        value = spec[zone]
        if value:
            table = PIECE_COST["head"] if zone == "head" else PIECE_COST["thorax"] if zone == "thorax" else \
                PIECE_COST["limb"]
            cost += table[value]
    return math.floor(14 - cost)


def custom_spec(name, table, options):
    """Validate a custom gladiator table (contract) and return its spec; errors name the key and the domain."""
    allowed = {"ap", "shield", "weapons", "javelins", "smooth_helmet", "scythe", *ZONES}
    for key in table:
        if key not in allowed:
            raise ScenarioError(f"{name}: unknown key {key!r} in a custom gladiator; allowed: "
                                + ", ".join(sorted(allowed)))
    spec = {"type": None, "smooth_helmet": False, "scythe": False}
    for zone in ZONES:
        value = table.get(zone, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value not in ZONE_VALUES[zone]:
            raise ScenarioError(f"{name}.{zone}: {value!r} is not allowed; expected one of "
                                f"{', '.join(map(str, ZONE_VALUES[zone]))} (armour values of the protection table)")
        spec[zone] = value
    shield = table.get("shield", "none")
    if shield not in SHIELDS:
        raise ScenarioError(f"{name}.shield: {shield!r} is not allowed; expected one of {', '.join(SHIELDS)}")
    spec["shield"] = shield
    weapons = table.get("weapons")
    if weapons is None:
        raise ScenarioError(f"{name}: missing key 'weapons' (a list of 1 to 4 of {', '.join(CARRIED)})")
    if isinstance(weapons, str) or not hasattr(weapons, "__iter__"):
        raise ScenarioError(f"{name}.weapons: {weapons!r} is not allowed; expected a list of 1 to 4 of "
                            + ", ".join(CARRIED))
    weapons = list(weapons)
    if not 1 <= len(weapons) <= 4 or len(set(weapons)) != len(weapons) or any(w not in CARRIED for w in weapons):
        raise ScenarioError(f"{name}.weapons: {weapons!r} is not allowed; expected 1 to 4 distinct weapons among "
                            + ", ".join(CARRIED))
    spec["weapons"] = weapons
    javelins = table.get("javelins", 4 if "javelin" in weapons else 0)
    if isinstance(javelins, bool) or not isinstance(javelins, int) or not (
            (1 <= javelins <= 4) if "javelin" in weapons else javelins == 0):
        raise ScenarioError(f"{name}.javelins: {javelins!r} is not allowed; expected 1 to 4 with 'javelin' among "
                            "the weapons, otherwise 0")
    spec["javelins"] = javelins
    for flag in ("smooth_helmet", "scythe"):
        value = table.get(flag, False)
        if not isinstance(value, bool):
            raise ScenarioError(f"{name}.{flag}: {value!r} is not allowed; expected true or false")
        spec[flag] = value
    if options["custom_build"] == "base14":
        if "ap" in table:
            raise ScenarioError(f"{name}.ap: {table['ap']!r} is not allowed with custom_build = 'base14', which "
                                "computes the AP from the protections (JUG-A31); leave 'ap' out")
        spec["ap"] = base14_ap(spec)
        if spec["ap"] < 1:
            raise ScenarioError(f"{name}: the protections cost more than 13 AP under custom_build = 'base14'")
    else:
        ap = table.get("ap")
        if ap is None:
            raise ScenarioError(f"{name}: missing key 'ap' (an integer from 1 to 20)")
        if isinstance(ap, bool) or not isinstance(ap, int) or not 1 <= ap <= 20:
            raise ScenarioError(f"{name}.ap: {ap!r} is not allowed; expected an integer from 1 to 20")
        spec["ap"] = ap
    return spec


def gladiator_spec(name, value, options):
    """The spec of parameter ``name``: a type name (with its loadout options) or a custom table."""
    if isinstance(value, str):
        return apply_loadout(_type_spec(value), options)
    return apply_loadout(custom_spec(name, value, options), options)


def gladiator_row(spec, options, rank="tiro", bonus_hp=0, bonus_ap=0):
    """``(row, items)``: the ``G_*`` row and ``I_*`` item table of a gladiator (position and pools unset).

    Items: each weapon in hand (two glaives are two items), each javelin, and the shield; ``I_RANGE`` is the
    melee reach: 2 for tridents and spears (JUG-A33 ``long_weapons``), or with ``reach_holders = literal`` for the
    Retiarius' trident and the Provocator's glaive only (the seed names these two).
    """
    row = np.zeros(G_FIELDS, np.int64)
    items = np.zeros((MAX_ITEMS, I_COLS), np.int64)
    items[:, I_STATE] = IS_EMPTY
    row[G_TYPE] = TYPES.index(spec["type"]) if spec.get("type") else -1
    row[G_RANK] = RANKS.index(rank)
    row[G_AP] = spec["ap"] + bonus_ap
    row[G_HP_MAX] = row[G_HP] = 10 + bonus_hp
    for z, zone in enumerate(ZONES):
        row[G_ARMOUR + z] = -spec[zone]
    shield = SHIELDS.index(spec["shield"])
    row[G_SHIELD] = shield
    row[G_SHIELD_READY] = 1 if shield != SH_NONE else 0
    row[G_IMPROVISE] = 1 if shield in (SH_PARMA, SH_SCUTUM) else 0
    row[G_BASH] = 1 if shield == SH_SCUTUM or (shield == SH_PARMA and options["bash_shields"] == "scutum_parma") else 0
    row[G_SMOOTH] = int(spec["smooth_helmet"])
    row[G_SCYTHE] = int(spec["scythe"])
    row[G_SCUTUM_ZONE] = Z_THORAX
    row[G_SPEAR_THROW] = 1 if spec.get("type") == "hoplomachus" and options["spear_throw"] == "javelin_rule" else 0
    kinds = []
    for weapon in spec["weapons"]:
        if weapon == "two_glaives":
            kinds += [WEAPON_IDS.index("glaive")] * 2
        elif weapon == "javelin":
            kinds += [W_JAVELIN] * spec["javelins"]
        else:
            kinds.append(WEAPON_IDS.index(weapon))
    row[G_DUAL] = DUAL_GLAIVES if "two_glaives" in spec["weapons"] else (
        DUAL_FISTS if "iron_fists" in spec["weapons"] else DUAL_NONE)
    if shield != SH_NONE:
        kinds.append(W_SHIELD)
    literal = options["reach_holders"] == "literal"
    for slot, kind in enumerate(kinds):
        items[slot, I_KIND] = kind
        items[slot, I_STATE] = IS_HAND
        reach = kind in (W_SPEAR, W_TRIDENT)
        if literal:
            reach = (kind == W_TRIDENT and spec.get("type") == "retiarius") or (
                spec.get("type") == "provocator" and kind == WEAPON_IDS.index("glaive"))
        items[slot, I_RANGE] = 2 if reach else (1 if kind <= W_TRIDENT or kind == W_IRON_FISTS else 0)
    return row, items


# ------------------------------------------------------------------------------------------- scenario parameter
@dataclass(frozen=True)
class GladiatorSpec(ParamSpec):
    """A gladiator parameter: a type name of the table, or a custom table (validated by the scenario's check)."""

    def allowed(self):
        return ("a type name (" + ", ".join(TYPES) + ") or a custom gladiator table with keys ap, head, thorax, "
                "left_arm, right_arm, left_leg, right_leg, shield, weapons, javelins?, smooth_helmet?, scythe?")

    def validate(self, name, value):
        if isinstance(value, str):
            if value not in TYPE_ROWS:
                raise ScenarioError(f"{name}: {value!r} is not allowed; expected {self.allowed()}")
            return value
        if isinstance(value, dict):
            return Record({k: tuple(v) if isinstance(v, list) else v for k, v in value.items()})
        raise ScenarioError(f"{name}: {value!r} is not allowed; expected {self.allowed()}")
