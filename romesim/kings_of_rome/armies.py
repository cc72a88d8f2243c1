"""Army descriptions of the Kings of Rome battle scenarios: the records' fields, table 5.1 and example armies.

A battle's armies are ``records`` parameters (``roman_units``, ``nr_units``, ``roman_leaders``, ``nr_leaders``),
validated field by field. ``army(name)`` returns an example army of ``data/kor_armies.csv`` as those records.
"""
import csv
from pathlib import Path

from ..core.errors import ScenarioError
from ..core.scenario import REQUIRED, ParamSpec

MAX_UNITS, MAX_LEADERS = 8, 3

PEOPLES = ("latins", "sabines", "volsci", "etruscans", "aequi", "piceni", "falisci", "capenati", "samnites", "gauls",
           "greeks", "umbri")
INVADER_PEOPLES = ("samnites", "gauls", "etruscans", "greeks", "umbri")  # KOR-A35
# KOR-A28 nr_infantry_loss_points = italic_only: the peoples whose infantry is not "infanterie italique" (5.7.8);
# the glossary names the Gauls beside "les peuples italiques", and the Greeks are no Italic people either
NON_ITALIC_PEOPLES = ("gauls", "greeks")
KINDS = ("infantry", "cavalry")
ROMAN_BACKS = ("other", "captivi") + PEOPLES
NR_BACKS = ("other", "captivi", "roman_I", "roman_II", "roman_III", "roman_IV", "roman_V")
NR_LEADER_BACKS = ("captivus", "roman_general", "other")

# table 5.1 (kor_command.csv): rank, max infantry, max cavalry
RANKS = {"king": (1, 4, 2), "interrex": (1, 4, 2), "rex_vicarius": (1, 4, 2), "magister_populi": (2, 4, 2),
         "magister_equitum": (3, 0, 6), "tribunus_populi": (4, 4, 0), "tribunus_celerum": (5, 0, 4),
         "general": (6, 4, 2)}
NR_CAPACITY = (4, 2)  # the footnote of table 5.1: also NR leaders (KOR-A40 for a leaderless NR army)


def _int(lo, hi, doc):
    return ParamSpec("int", doc, lo=lo, hi=hi)


ROMAN_UNIT_FIELDS = (
    ("kind", ParamSpec("choice", "infantry or cavalry", choices=KINDS), REQUIRED),
    ("virtus", _int(1, 6, "Virtus: enemy dice must exceed it"), REQUIRED),
    ("roman_class", _int(0, 5, "class I-V of an infantry unit (1-5 required); cavalry is class I: 0 or 1"), 0),
    ("back", ParamSpec("choice", "the counter's back: Captivi, or troops of a people", choices=ROMAN_BACKS),
     "other"),
)
NR_UNIT_FIELDS = (
    ("kind", ParamSpec("choice", "infantry or cavalry", choices=KINDS), REQUIRED),
    ("virtus", _int(1, 6, "Virtus: Roman dice must exceed it"), REQUIRED),
    ("back", ParamSpec("choice", "the counter's back: Captivi, Roman troops of class I-V, or other",
                       choices=NR_BACKS), "other"),
)
ROMAN_LEADER_FIELDS = (
    ("rank", ParamSpec("choice", "the leader's function (table 5.1)", choices=tuple(RANKS)), REQUIRED),
    ("virtus", _int(1, 6, "Virtus"), REQUIRED),
    ("astutia", _int(0, 3, "Astutia: rerolls in battle"), 0),
)
NR_LEADER_FIELDS = (
    ("virtus", _int(1, 6, "Virtus"), REQUIRED),
    ("astutia", _int(0, 3, "Astutia: rerolls in battle"), 1),
    ("back", ParamSpec("choice", "what he becomes when eliminated (C4)", choices=NR_LEADER_BACKS), "captivus"),
)


def check_roman_units(name, units):
    """Roman infantry needs a class 1-5; Roman cavalry is class I (5.7.8)."""
    for i, unit in enumerate(units):
        c = unit["roman_class"]
        if unit["kind"] == "infantry" and c == 0:
            raise ScenarioError(f"{name}[{i}].roman_class: 0 is not allowed for infantry; expected a class 1 to 5")
        if unit["kind"] == "cavalry" and c > 1:
            raise ScenarioError(f"{name}[{i}].roman_class: {c} is not allowed for cavalry; Roman cavalry is "
                                "class I (5.7.8): 0 or 1")


def _rows():
    path = Path(__file__).with_name("data") / "kor_armies.csv"
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))


def names():
    return tuple(dict.fromkeys(row["army"] for row in _rows()))


def army(name):
    """``{"units": [...], "leaders": [...]}`` of the example army ``name`` (``names()`` lists them); Roman armies
    have Roman records, the others NR records."""
    rows = [row for row in _rows() if row["army"] == name]
    if not rows:
        raise ScenarioError(f"army: unknown example army {name!r}; known: {', '.join(names())}")
    roman = any(row["rank"] for row in rows)
    units, leaders = [], []
    for row in rows:
        if row["entry"] == "leader":
            leader = {"virtus": int(row["virtus"]), "astutia": int(row["astutia"])}
            if roman:
                leader["rank"] = row["rank"]
            else:
                leader["back"] = row["back"]
            leaders.append(leader)
        else:
            unit = {"kind": row["kind"], "virtus": int(row["virtus"]), "back": row["back"]}
            if roman:
                unit["roman_class"] = int(row["roman_class"])
            units.append(unit)
    return {"units": units, "leaders": leaders}
