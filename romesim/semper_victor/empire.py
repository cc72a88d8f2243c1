"""An abstract Roman Empire for the succession and usurpation scenarios (seed 3.5, 3.6): its records, checks and
arrays.

The user describes the empire as four ``records`` parameters:

* ``zones``: ``{id, diocese}``, the zones that matter, each in one of the twelve Dioceses (seed 3.1);
* ``adjacent``: ``{a, b}``, unordered pairs of adjacent zone ids (a strait is a pair like any other);
* ``leaders``: ``{zone, side, pc, title, cc, sr, tb, guard, defeated}``; a leader is named by his position in
  the list, from 0;
* ``units``: ``{zone, side, count, leader}``, Roman combat units; ``leader`` puts them under that leader's
  counter (only the Secondus loyalty check of seed 3.5.2 case 4 reads it), -1 leaves them to the zone.

``check_empire`` raises a ``ScenarioError`` naming the field and the value for anything the rules exclude.
Rule numbers: "seed 3.5.x" and "seed 3.6.x" are the seed's sections (the English rules), "seed 3.1" and the like its
other sections, "spec 2.x" the specification's algorithms.
"""
import numpy as np

from ..core.errors import ScenarioError
from ..core.scenario import REQUIRED, ParamSpec, param

# the twelve Dioceses in the order of seed 3.1; a Diocese's index is its position here
DIOCESES = ("Hispaniae", "Britanniae", "Viennensis", "Galliae", "Italia", "Africa", "Pannoniae", "Moesiae",
            "Thracia", "Asia", "Pontica", "Oriens")
N_DIOCESES = len(DIOCESES)
SIDES = ("primus", "secondus")
PRIMUS, SECONDUS = range(2)

# title codes, in the order of the `title` choices
TITLES = ("none", "caesar", "augustus", "primus_augustus", "secondus_augustus", "dux")
NONE, CAESAR, AUGUSTUS, PRIMUS_AUGUSTUS, SECONDUS_AUGUSTUS, DUX = range(6)

MAX_ZONES = 48
MAX_LEADERS = 24
MAX_UNIT_RECORDS = 64
MAX_PAIRS = 200
MAX_PC = 9
IMPERIAL_CAPITALS = 6  # seven once Constantinopolis is built (seed 3.1)

# rows of the compiled leader array
L_ZONE, L_SIDE, L_TITLE, L_PC, L_CC, L_SR, L_TB, L_GUARD, L_DEFEATED, L_UNITS, N_LROWS = range(11)


def _int(lo, hi, doc):
    return ParamSpec("int", doc, lo=lo, hi=hi)


ZONE_FIELDS = (
    ("id", _int(0, 999, "the zone's id"), REQUIRED),
    ("diocese", ParamSpec("choice", "the zone's Diocese", choices=DIOCESES), REQUIRED),
)
PAIR_FIELDS = (
    ("a", _int(0, 999, "a zone id"), REQUIRED),
    ("b", _int(0, 999, "another zone id"), REQUIRED),
)
LEADER_FIELDS = (
    ("zone", _int(0, 999, "id of the leader's zone"), REQUIRED),
    ("side", ParamSpec("choice", "the player who controls him", choices=SIDES), REQUIRED),
    ("pc", _int(0, MAX_PC, "Political Capacity"), REQUIRED),
    ("title", ParamSpec("choice", "his title marker", choices=TITLES), "none"),
    ("cc", _int(0, 9, "Command Capacity (first succession tie-break)"), 0),
    ("sr", _int(0, 9, "Strategic Rating (second tie-break)"), 0),
    ("tb", _int(0, 9, "Tactical Bonus (third tie-break, SV-A13)"), 0),
    ("guard", ParamSpec("bool", "holds his player's Protectores Domestici marker (seed 3.5.3)"), False),
    ("defeated", ParamSpec("bool", "a victim-side Augustus already defeated in a civil-war battle (seed 3.6.4 A)"),
     False),
)
UNIT_FIELDS = (
    ("zone", _int(0, 999, "id of the units' zone"), REQUIRED),
    ("side", ParamSpec("choice", "the player who controls them", choices=SIDES), REQUIRED),
    ("count", _int(1, 99, "number of combat units"), 1),
    ("leader", _int(-1, MAX_LEADERS - 1, "index of the leader whose counter they are under (-1: none)"), -1),
)

# The default empire: PRIMUS holds the West with his Primus Augustus at Mediolanum and two Caesars; SECONDUS
# holds Thracia with his Secondus Augustus. Every step of seed 3.6.3 has something to do in it.
DEFAULT_ZONES = [
    {"id": 1, "diocese": "Italia"}, {"id": 2, "diocese": "Italia"}, {"id": 3, "diocese": "Italia"},
    {"id": 4, "diocese": "Pannoniae"}, {"id": 5, "diocese": "Pannoniae"}, {"id": 6, "diocese": "Pannoniae"},
    {"id": 7, "diocese": "Galliae"}, {"id": 8, "diocese": "Galliae"},
    {"id": 9, "diocese": "Thracia"}, {"id": 10, "diocese": "Thracia"},
]
DEFAULT_ADJACENT = [{"a": a, "b": b} for a, b in
                    ((1, 2), (1, 3), (2, 3), (1, 7), (7, 8), (3, 8), (2, 4), (4, 5), (4, 6), (5, 6), (6, 9),
                     (9, 10))]
DEFAULT_LEADERS = [
    {"zone": 1, "side": "primus", "pc": 5, "title": "primus_augustus", "cc": 4, "sr": 4, "tb": 2, "guard": True},
    {"zone": 4, "side": "primus", "pc": 4, "title": "caesar", "cc": 3, "sr": 2, "tb": 1},
    {"zone": 7, "side": "primus", "pc": 3, "title": "caesar", "cc": 3, "sr": 2, "tb": 2},
    {"zone": 4, "side": "primus", "pc": 2, "cc": 2, "sr": 1, "tb": 1},
    {"zone": 6, "side": "primus", "pc": 5, "cc": 2, "sr": 2, "tb": 1},
    {"zone": 2, "side": "primus", "pc": 3, "cc": 2, "sr": 1, "tb": 0},
    {"zone": 8, "side": "primus", "pc": 2, "title": "dux", "cc": 2, "sr": 1, "tb": 1},
    {"zone": 10, "side": "secondus", "pc": 4, "title": "secondus_augustus", "cc": 4, "sr": 3, "tb": 2,
     "guard": True},
    {"zone": 9, "side": "secondus", "pc": 4, "cc": 3, "sr": 2, "tb": 1},
    {"zone": 9, "side": "secondus", "pc": 3, "cc": 1, "sr": 1, "tb": 1},
    {"zone": 10, "side": "secondus", "pc": 2, "cc": 2, "sr": 1, "tb": 0},
]
DEFAULT_UNITS = [
    {"zone": 1, "side": "primus", "count": 3}, {"zone": 2, "side": "primus", "count": 1},
    {"zone": 3, "side": "primus", "count": 1}, {"zone": 4, "side": "primus", "count": 2},
    {"zone": 5, "side": "primus", "count": 2}, {"zone": 6, "side": "primus", "count": 1},
    {"zone": 7, "side": "primus", "count": 2}, {"zone": 8, "side": "primus", "count": 1},
    {"zone": 9, "side": "secondus", "count": 1}, {"zone": 9, "side": "secondus", "count": 1, "leader": 9},
    {"zone": 10, "side": "secondus", "count": 3},
]


def zones_param():
    return param(DEFAULT_ZONES, kind="records", fields=ZONE_FIELDS, min_len=1, max_len=MAX_ZONES,
                 doc="the zones of the empire: {id, diocese}", rule="seed 3.1")


def adjacent_param():
    return param(DEFAULT_ADJACENT, kind="records", fields=PAIR_FIELDS, max_len=MAX_PAIRS,
                 doc="pairs of adjacent zones {a, b}, straits included", rule="seed 3.6.3 C")


def leaders_param():
    return param(DEFAULT_LEADERS, kind="records", fields=LEADER_FIELDS, min_len=1, max_len=MAX_LEADERS,
                 doc="Roman leaders {zone, side, pc, title, cc, sr, tb, guard, defeated}, named by position from 0",
                 rule="seed 1.2, 3.5")


def units_param():
    return param(DEFAULT_UNITS, kind="records", fields=UNIT_FIELDS, max_len=MAX_UNIT_RECORDS,
                 doc="Roman combat units {zone, side, count, leader}", rule="seed 3.7")


def is_augustus(title):
    return title in (AUGUSTUS, PRIMUS_AUGUSTUS, SECONDUS_AUGUSTUS)


def is_titled(title):
    return title in (CAESAR, AUGUSTUS, PRIMUS_AUGUSTUS, SECONDUS_AUGUSTUS)


def status(title):
    """Rank of a title for the status-zone rule of seed 3.6.2: simple leader 0, Caesar 1, extra Augustus 2,
    Primus or Secondus Augustus 3."""
    return {CAESAR: 1, AUGUSTUS: 2, PRIMUS_AUGUSTUS: 3, SECONDUS_AUGUSTUS: 3}.get(title, 0)


class Empire:
    """The validated empire as plain lists: zone ids and Dioceses, adjacency, leaders with integer codes."""

    def __init__(self, zones, adjacent, leaders, units):
        self.zone_ids = [z["id"] for z in zones]
        self.index = {zid: i for i, zid in enumerate(self.zone_ids)}
        self.diocese = [DIOCESES.index(z["diocese"]) for z in zones]
        self.adjacent = set()
        for pair in adjacent:
            a, b = self.index.get(pair["a"]), self.index.get(pair["b"])
            self.adjacent |= {(a, b), (b, a)}
        self.leaders = [dict(zone=self.index.get(ldr["zone"]), side=SIDES.index(ldr["side"]), pc=ldr["pc"],
                             title=TITLES.index(ldr["title"]), cc=ldr["cc"], sr=ldr["sr"], tb=ldr["tb"],
                             guard=ldr["guard"], defeated=ldr["defeated"]) for ldr in leaders]
        self.units = [dict(zone=self.index.get(u["zone"]), side=SIDES.index(u["side"]), count=u["count"],
                           leader=u["leader"]) for u in units]

    def diocese_adjacent(self, d1, d2):
        """Two different Dioceses are adjacent when a zone of one is adjacent to a zone of the other."""
        return d1 != d2 and any(self.diocese[a] == d1 and self.diocese[b] == d2 for a, b in self.adjacent)

    def leader_diocese(self, ldr):
        return self.diocese[self.leaders[ldr]["zone"]]

    def titled(self, side, title):
        return [i for i, ldr in enumerate(self.leaders) if ldr["side"] == side and ldr["title"] == title]


def check_empire(zones, adjacent, leaders, units, capitals=IMPERIAL_CAPITALS, shared_zone=None):
    """Raise a ScenarioError for an empire the rules exclude; return the ``Empire``.

    ``shared_zone``: the zone id of a succession Usurper (seed 3.5.2, Secondus case 4), where PRIMUS's plain
    leaders and their units may stand beside SECONDUS's: the leaders who fail their loyalty check "go over to the
    side of the PRIMUS with all [their] combat units in the zone" without moving, and the civil war's step A
    (seed 3.6.3) takes them at once."""
    seen = {}
    for i, z in enumerate(zones):
        if z["id"] in seen:
            raise ScenarioError(f"zones[{i}].id: {z['id']} is not allowed; zones[{seen[z['id']]}] already has "
                                "that id (ids must be unique)")
        seen[z["id"]] = i
    known = ", ".join(str(z) for z in seen)

    def zone_of(field, zid):
        if zid not in seen:
            raise ScenarioError(f"{field}: {zid} is not allowed; expected the id of a zone in `zones` ({known})")

    pairs = {}
    for i, pair in enumerate(adjacent):
        zone_of(f"adjacent[{i}].a", pair["a"])
        zone_of(f"adjacent[{i}].b", pair["b"])
        if pair["a"] == pair["b"]:
            raise ScenarioError(f"adjacent[{i}]: {dict(pair)!r} is not allowed; a zone is not adjacent to itself")
        key = frozenset((pair["a"], pair["b"]))
        if key in pairs:
            raise ScenarioError(f"adjacent[{i}]: {dict(pair)!r} is not allowed; adjacent[{pairs[key]}] already "
                                "joins these zones (pairs are unordered, so adjacency is symmetric)")
        pairs[key] = i

    occupant = {}  # zone id -> (side, field) of the first piece there

    def occupy(field, zid, side):
        if zid == shared_zone:
            return
        first = occupant.setdefault(zid, (side, field))
        if first[0] != side:
            raise ScenarioError(f"{field}: zone {zid} is not allowed for side {side!r}; {first[1]} of side "
                                f"{first[0]!r} is there and enemies cannot share a zone (SV-A38; only PRIMUS's "
                                "defectors may stand with a succession Usurper named as the target, seed 3.5.2)")

    for i, ldr in enumerate(leaders):
        zone_of(f"leaders[{i}].zone", ldr["zone"])
        occupy(f"leaders[{i}]", ldr["zone"], ldr["side"])
        if ldr["zone"] == shared_zone and ldr["side"] == "primus" and ldr["title"] != "none":
            raise ScenarioError(f"leaders[{i}].title: {ldr['title']!r} is not allowed in zone {shared_zone} beside "
                                "the succession Usurper; only PRIMUS's plain leaders, the defectors of Secondus "
                                "case 4, stand there (seed 3.5.2; a Dux does not test his loyalty, seed 3.3)")
    _check_titles(leaders, capitals)
    owners = {}
    for i, u in enumerate(units):
        zone_of(f"units[{i}].zone", u["zone"])
        occupy(f"units[{i}]", u["zone"], u["side"])
        key = (u["zone"], u["side"], u["leader"])
        if key in owners:
            raise ScenarioError(f"units[{i}]: {dict(u)!r} is not allowed; units[{owners[key]}] already lists the "
                                "units of that zone, side and leader (add up the counts)")
        owners[key] = i
        if u["leader"] >= 0:
            if u["leader"] >= len(leaders):
                raise ScenarioError(f"units[{i}].leader: {u['leader']} is not allowed; expected -1 or the index "
                                    f"of a leader (0 to {len(leaders) - 1})")
            boss = leaders[u["leader"]]
            if boss["zone"] != u["zone"] or boss["side"] != u["side"]:
                raise ScenarioError(f"units[{i}].leader: {u['leader']} is not allowed; units are under the counter "
                                    "of a leader of their side in their zone")
    return Empire(zones, adjacent, leaders, units)


def _check_titles(leaders, capitals):
    """The limits of seed 3.5.1 and the markers of 3.5.3, with the index of the offending leader."""
    holders = {}
    for i, ldr in enumerate(leaders):
        t, side = ldr["title"], ldr["side"]
        for senior, owner in (("primus_augustus", "primus"), ("secondus_augustus", "secondus")):
            if t == senior:
                if side != owner:
                    raise ScenarioError(f"leaders[{i}].title: {t!r} is not allowed for side {side!r}; the "
                                        f"{senior.replace('_', ' ').title()} belongs to {owner.upper()} (seed 3.5.1)")
                if senior in holders:
                    raise ScenarioError(f"leaders[{i}].title: {t!r} is not allowed; leaders[{holders[senior][0]}] "
                                        "already holds it and there is only one (seed 3.5.1)")
        holders.setdefault(t, []).append(i)
    if "primus_augustus" not in holders:
        raise ScenarioError("leaders: no leader has title 'primus_augustus'; there must always be a Primus "
                            "Augustus (seed 3.5.1)")
    secondus = "secondus_augustus" in holders
    for side in SIDES:
        mine = [i for i, ldr in enumerate(leaders) if ldr["side"] == side]
        for title, cap in (("augustus", 1), ("caesar", 2)):
            named = [i for i in mine if leaders[i]["title"] == title]
            if len(named) > cap:
                what = "one extra Augustus besides the Primus or Secondus" if title == "augustus" else "two Caesars"
                raise ScenarioError(f"leaders[{named[cap]}].title: {title!r} is not allowed; {side} already has "
                                    f"{what} (seed 3.5.1: at most two Augusti and two Caesars per side)")
            if named and side == "secondus" and not secondus:
                raise ScenarioError(f"leaders[{named[0]}].title: {title!r} is not allowed for side 'secondus' "
                                    "without a Secondus Augustus (seed 3.5.1: SECONDUS names co-emperors only "
                                    "while he has one, and seed 3.5.2 promotes them when he dies)")
        guards = [i for i in mine if leaders[i]["guard"]]
        if len(guards) > 1:
            raise ScenarioError(f"leaders[{guards[1]}].guard: True is not allowed; leaders[{guards[0]}] already "
                                f"holds the Protectores Domestici of {side} (one marker per player, seed 3.5.3)")
    for i, ldr in enumerate(leaders):
        if ldr["guard"] and ldr["title"] not in ("caesar", "augustus", "primus_augustus", "secondus_augustus"):
            raise ScenarioError(f"leaders[{i}].guard: True is not allowed for title {ldr['title']!r}; the "
                                "Protectores Domestici go with an Augustus or a Caesar (seed 3.5.3)")
        if ldr["defeated"] and ldr["title"] not in ("augustus", "primus_augustus", "secondus_augustus"):
            raise ScenarioError(f"leaders[{i}].defeated: True is not allowed for title {ldr['title']!r}; only an "
                                "Augustus is defeated in the sense of seed 3.6.4 A")
    titled = [i for i, ldr in enumerate(leaders)
              if ldr["title"] in ("caesar", "augustus", "primus_augustus", "secondus_augustus")]
    if len(titled) > capitals:
        raise ScenarioError(f"leaders[{titled[capitals]}].title: {leaders[titled[capitals]]['title']!r} is not "
                            f"allowed; both sides together already have {capitals} Augusti and Caesars, the number "
                            "of imperial capitals (seed 3.5.1)")
    duces = holders.get("dux", [])
    if len(duces) > 4:
        raise ScenarioError(f"leaders[{duces[4]}].title: 'dux' is not allowed; there are only four Dux (seed 3.3)")


def compile_empire(empire):
    """The empire as kernel arrays: zone Dioceses, Diocese adjacency, the leader rows (``L_*``) and the units
    per zone and side (units under a leader's counter also in ``L_UNITS``)."""
    nz, nl = len(empire.zone_ids), len(empire.leaders)
    zone_diocese = np.zeros(MAX_ZONES, np.int64)
    zone_diocese[:nz] = empire.diocese
    dadj = np.zeros((N_DIOCESES, N_DIOCESES), np.int64)
    for a, b in empire.adjacent:
        da, db = empire.diocese[a], empire.diocese[b]
        if da != db:
            dadj[da, db] = 1
    lead = np.zeros((N_LROWS, MAX_LEADERS), np.int64)
    for i, ldr in enumerate(empire.leaders):
        lead[:L_UNITS, i] = [ldr[key] for key in ("zone", "side", "title", "pc", "cc", "sr", "tb", "guard",
                                                  "defeated")]
    units = np.zeros((MAX_ZONES, 2), np.int64)
    for u in empire.units:
        units[u["zone"], u["side"]] += u["count"]
        if u["leader"] >= 0:
            lead[L_UNITS, u["leader"]] += u["count"]
    return nz, nl, zone_diocese, dadj, lead, units


def after_succession(leaders, units, usurper, defectors=(), heir=None, dies="secondus"):
    """The empire a succession leaves to its Usurper's civil war (seed 3.5.2), as ``semper_victor.usurpation``
    parameters ``{leaders, units, usurpations}``: the dead senior Augustus is off the map (the leaders after him
    move up one index); Primus case 5 (``dies = "primus"``): ``heir`` takes the Primus Augustus marker; Secondus
    case 4: each of ``defectors`` "goes over to the side of the PRIMUS with all his combat units in the zone"
    (the units under his counter; the zone's other units, and those under the dead Augustus' counter, when no
    SECONDUS leader is left there), staying where he is. ``usurper``, ``heir`` and ``defectors`` are indices in
    ``leaders``, as ``semper_victor.succession`` reports them (``usurper``, ``successor``; ``defections`` counts
    the defectors among the leaders it tests)."""
    if dies not in SIDES:
        raise ScenarioError(f"dies: {dies!r} is not allowed; expected one of {SIDES}")
    senior = "primus_augustus" if dies == "primus" else "secondus_augustus"
    dead = next((i for i, ldr in enumerate(leaders) if ldr.get("title", "none") == senior), None)
    if dead is None:
        raise ScenarioError(f"dies: {dies!r} is not allowed; no leader has title {senior!r}")
    if dies == "primus" and (heir is None or not 0 <= heir < len(leaders) or heir == dead):
        raise ScenarioError(f"heir: {heir!r} is not allowed; expected the index of the leader who takes the Primus "
                            "Augustus marker (Primus case 5, seed 3.5.2)")
    for field, value in [("usurper", usurper)] + [("defectors", d) for d in defectors]:
        if not 0 <= value < len(leaders) or value == dead:
            raise ScenarioError(f"{field}: {value!r} is not allowed; expected the index of a living leader "
                                f"(0 to {len(leaders) - 1}, not the dead Augustus {dead})")
    gone = set(defectors)
    new = [dict(ldr) for ldr in leaders]
    for i in gone:
        new[i]["side"] = "primus"
    if dies == "primus" and heir is not None:
        new[heir]["title"] = "primus_augustus"
    left = {ldr["zone"] for i, ldr in enumerate(new) if i != dead and ldr["side"] == "secondus"}
    index = {i: i - (i > dead) for i in range(len(leaders)) if i != dead}
    counts = {}
    for u in units:
        side, boss = u["side"], u.get("leader", -1)
        if boss == dead:
            boss = -1
        if boss in gone or (gone and boss == -1 and side == "secondus" and u["zone"] not in left
                            and any(leaders[i]["zone"] == u["zone"] for i in gone)):
            side = "primus"
        key = (u["zone"], side, index.get(boss, -1))
        counts[key] = counts.get(key, 0) + u.get("count", 1)
    return {"leaders": [ldr for i, ldr in enumerate(new) if i != dead],
            "units": [{"zone": z, "side": side, "count": c, "leader": boss} for (z, side, boss), c in counts.items()],
            "usurpations": [{"stratagem": "succession", "target": index[usurper]}]}


# ------------------------------------------------------------------ usurpation targets (seed 3.6, 6.1, 6.2)
STRATAGEMS = ("augustus", "caesar", "leader", "succession")
STRATAGEM_BONUS = {"augustus": 2, "caesar": 1, "leader": 0, "succession": 0}


def stratagem_problem(empire, player, stratagem):
    """Why ``player`` cannot play ``stratagem`` in this empire (a message), or None."""
    victim = 1 - player
    them = SIDES[victim].upper()
    augusti = [i for i, ldr in enumerate(empire.leaders) if ldr["side"] == victim and is_augustus(ldr["title"])]
    caesars = empire.titled(victim, CAESAR)
    if stratagem == "augustus" and len(augusti) < 2:
        return f"{them} has no second Augustus to turn (seed 6.1, 6.2: playable if he has two Augusti)"
    if stratagem == "caesar" and len(caesars) < 2:
        return f"{them} has {len(caesars)} Caesar(s) (seed 6.1, 6.2: playable if he has two Caesars)"
    if stratagem == "succession":
        if player != SECONDUS:
            return ("a succession Usurper is always SECONDUS's (Primus case 5 and Secondus case 4 of seed 3.5.2): "
                    "use player = 'secondus'")
        mine = [i for i, ldr in enumerate(empire.leaders) if ldr["side"] == SECONDUS and is_titled(ldr["title"])]
        if mine:
            return (f"SECONDUS still has an Augustus or Caesar (leaders[{mine[0]}]): a succession leaves the "
                    "Usurper only to a side without them (seed 3.5.2)")
    return None


def target_pool(empire, player, stratagem):
    """The leaders ``stratagem`` may be played on: its own kind of victim leader (the non-senior Augustus, a
    Caesar, a simple leader; never a Dux, SV-A28) standing in no zone with a victim leader of higher status
    (seed 3.6, SV-A38); for the succession route, the player's own simple leaders."""
    victim = 1 - player
    leaders = empire.leaders
    if stratagem == "succession":
        return [i for i, ldr in enumerate(leaders) if ldr["side"] == player and ldr["title"] == NONE]
    kind = {"augustus": AUGUSTUS, "caesar": CAESAR, "leader": NONE}[stratagem]
    return [i for i, ldr in enumerate(leaders) if ldr["side"] == victim and ldr["title"] == kind and not any(
        k["side"] == victim and k["zone"] == ldr["zone"] and status(k["title"]) > status(ldr["title"])
        for k in leaders)]


def apart(empire, a, b):
    """The targets of a double usurpation stand in two different Dioceses that are not adjacent (seed 3.6)."""
    da, db = empire.leader_diocese(a), empire.leader_diocese(b)
    return a != b and da != db and not empire.diocese_adjacent(da, db)
