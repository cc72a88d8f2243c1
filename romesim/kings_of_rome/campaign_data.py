"""The data layer of the Kings of Rome solo campaign: the abstract map and the counter set.

``load_map()`` reads ``kor_cities.csv``, ``kor_roads.csv`` and ``kor_sea.csv`` (an abstract graph of the places the
solo rules name, built from real geography: ``data/campaign/README.md``; the game's hex map is a gap of the rules,
spec 5.8.1-2) and turns road kilometres into hexes and movement points. ``load_counters()`` reads
``kor_counters.csv``, one row per physical counter (the seed gives no manifest, spec 5.8.3-7, so the default file is
a documented assumption). Both check every field and raise ``ScenarioError`` naming file, row, field and value.

Movement (5.2): a track hex costs 1 MP and a road hex 1/2 MP, so ``cost`` counts HALF movement points (road hex 1,
track hex 2): infantry moves 28 half-MP, leaders and cavalry 40, ships 25 sea hexes (50 half-MP).

Pure numpy and Python.
"""
import csv
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.errors import ScenarioError, did_you_mean

PEOPLES = ("roman", "latins", "sabines", "volsci", "etruscans", "aequi", "piceni", "falisci", "capenati",
           "samnites", "gauls", "greeks", "umbri", "oscan")   # index = people code
KINDS = ("infantry", "cavalry", "garrison", "leader", "king", "office", "event", "ship")
HEX_KM = 6

DEFAULT_FOLDER = Path(__file__).with_name("data") / "campaign"

# the ``people`` column of kor_cities.csv (the seed's words) -> people code
CITY_PEOPLES = {"Roman": "roman", "Latin": "latins", "Sabine": "sabines", "Volsci": "volsci", "Rasna": "etruscans",
                "Aequi": "aequi", "Piceni": "piceni", "Falisci": "falisci", "Capenati": "capenati",
                "Samnite": "samnites", "Gaul": "gauls", "Greek": "greeks", "Umbri": "umbri", "Oscan": "oscan"}
ROAD_KINDS = ("road", "track")
TIBER = ("no", "at_rome", "upstream")
HALF_MP = {"road": 1, "track": 2}   # half movement points per hex (5.2: road 1/2 MP, track 1 MP)

# where each people's war starts (kor_invasions.csv): invader counters may be placed there whatever its people
WAR_STARTS = {"aequi": ("Aequi entry",), "volsci": ("Volsci entry",), "piceni": ("Piceni entry",),
              "falisci": ("Falisci entry",), "capenati": ("Capenati entry",), "samnites": ("Rufrium",),
              "gauls": ("Sena Gallica",), "etruscans": ("Kaieta", "Cosa", "Vetulonia"), "greeks": ("Cumae",),
              "umbri": ("Umbri entry",)}

# the counters every campaign needs by name: name -> (kind, how many)
REQUIRED_COUNTERS = {
    **{king: ("king", 1) for king in ("Romulus", "Numa Pompilius", "Tullus Hostilius", "Ancus Marcius",
                                      "Tarquinius Priscus", "Servius Tullius", "Tarquinius Superbus", "Interrex")},
    "Titus Tatius": ("leader", 1),
    "Magister Populi": ("office", 1), "Magister Equitum": ("office", 1), "Tribunus Populi": ("office", 2),
    "Tribunus Celerum": ("office", 1),
    **{event: ("event", 1) for event in (
        "Rape of the Sabines", "Aequi War", "Volsci War", "Piceni War", "Falisci War", "Capena War",
        "Horatii & Curiatii", "Alba Longa War", "Samnite War", "Foundation of Ostia", "Sublicius Bridge",
        "Good/Bad Omen", "End of Actions", "Gallic War", "Danai War", "Umbrian War", "Mucius Scaevola",
        "Horatius Cocles")},
    "Etruscan War": ("event", 3),
    **{leader: ("leader", 1) for leader in (
        "Metius Fufetius", "Mamilius", "Aegerius", "Publius Valerius", "Arunth", "Spurinna", "Avle Vibenna",
        "Caelius Vibenna", "Mastarna", "Larth", "Zilath", "Porsenna", "Meddix", "Brennus", "Aristodemus")},
}
# the war leaders without a name in the rules: one leader of each of these peoples
LEADER_PEOPLES = ("aequi", "volsci", "piceni", "falisci", "capenati", "umbri")

CITY_COLUMNS = ("city", "people", "initial_garrison", "port", "role")
ROAD_COLUMNS = ("a", "b", "kind", "km", "tiber_crossing")
SEA_COLUMNS = ("a", "b", "km")  # and, optional, plus3: the leg's sea hexes marked "+3" (5.8: 3 MP more each)
PLUS3_MP = 3
COUNTER_COLUMNS = ("counter", "kind", "people", "virtus", "astutia", "roman_class", "home", "period", "assumed",
                   "note")
BOOLS = {"true": True, "false": False}


def _frozen(a):
    a = np.asarray(a)
    a.setflags(write=False)
    return a


def _read(path, columns):
    """The data rows of a CSV file (blank lines and lines starting with # skipped) after checking its header."""
    path = Path(path)
    name = path.name
    if not path.is_file():
        raise ScenarioError(f"{name}: no such file {str(path)!r}")
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(line for line in fh if line.strip() and not line.startswith("#"))
        header = reader.fieldnames or []
        missing = [c for c in columns if c not in header]
        if missing:
            raise ScenarioError(f"{name}: missing column(s) {', '.join(missing)}; the header has "
                                f"{', '.join(header) or 'nothing'}; expected {', '.join(columns)}")
        rows = [{k: (v or "").strip() for k, v in row.items() if k is not None} for row in reader]
    return name, rows


def _bad(name, row, field, value, allowed):
    return ScenarioError(f"{name} row {row}, field {field}: {value!r} is not allowed; expected {allowed}")


def _choice(name, row, field, value, choices):
    if value not in choices:
        raise _bad(name, row, field, value, f"one of {', '.join(choices)}{did_you_mean(value, choices)}")
    return value


def _int(name, row, field, value, lo, hi, empty=None):
    if value == "" and empty is not None:
        return empty
    try:
        number = int(value)
    except ValueError:
        number = None
    if number is None or not lo <= number <= hi:
        what = f"an integer {lo} to {hi}" if lo != hi else f"{lo}"
        raise _bad(name, row, field, value, what + (" or empty" if empty is not None else ""))
    return number


def _km(name, row, value):
    try:
        km = float(value)
    except ValueError:
        km = float("nan")
    if not km > 0 or math.isinf(km):
        raise _bad(name, row, "km", value, "a positive number of kilometres")
    return km


def _hexes(km, hex_km):
    return max(1, math.floor(km / hex_km + 0.5))


def _city(name, row, field, value, index):
    if value not in index:
        raise _bad(name, row, field, value, f"a city of kor_cities.csv{did_you_mean(value, index)}")
    return index[value]


def _shortest(weight, closed=()):
    """All-pairs shortest paths (Floyd-Warshall) of an [n, n] weight matrix with inf where no edge; no path goes
    through a place of ``closed`` (it may start or end there)."""
    dist = weight.copy()
    np.fill_diagonal(dist, 0)
    for k in range(len(dist)):
        if k not in closed:
            np.minimum(dist, dist[:, k, None] + dist[None, k, :], out=dist)
    return dist


def _as_int(dist):
    return np.where(np.isinf(dist), -1, dist).astype(np.int64)


@dataclass(frozen=True)
class CampaignMap:
    """The abstract campaign map: places, land distances (hexes, half movement points, next hop) and sea distances.

    Every [n, n] array is indexed by place index (``cities`` order, the order of kor_cities.csv). ``cost`` is in HALF
    movement points (road hex 1, track hex 2); ``next_hop[i, j]`` is the next place after ``i`` on that cheapest
    path (ties: the lowest index), -1 on the diagonal and where ``j`` cannot be reached. ``road_cost`` is the cheapest
    single road or track between two places, -1 where none joins them.
    """
    source: str
    cities: tuple
    people: np.ndarray            # int64 people code (PEOPLES)
    initial_garrison: np.ndarray  # int64, 0 where none (3.5; Rome 3, 3.4)
    port: np.ndarray              # bool
    entry: np.ndarray             # bool: an entry box of an invading people
    hexes: np.ndarray             # int64 [n, n] fewest land hexes, -1 if none
    cost: np.ndarray              # int64 [n, n] cheapest land path in half MP, -1 if none
    next_hop: np.ndarray          # int64 [n, n]
    adjacent: np.ndarray          # bool [n, n]: joined by an edge of exactly 1 hex
    sea_cost: np.ndarray          # int64 [n, n] sea hexes between ports, -1 if none
    road_cost: np.ndarray         # int64 [n, n] half MP of the cheapest single edge, -1 if none

    def index(self, name):
        """The index of place ``name``."""
        try:
            return self.cities.index(name)
        except ValueError:
            raise ScenarioError(f"campaign map: unknown place {name!r}{did_you_mean(name, self.cities)}; "
                                f"known: {', '.join(self.cities)}") from None

    def path(self, a, b):
        """The places of the cheapest land path from ``a`` to ``b`` (names or indices), both ends included; an
        empty list when ``b`` cannot be reached."""
        i = a if isinstance(a, (int, np.integer)) else self.index(a)
        j = b if isinstance(b, (int, np.integer)) else self.index(b)
        if i != j and self.next_hop[i, j] < 0:
            return []
        places = [int(i)]
        while places[-1] != j:
            places.append(int(self.next_hop[places[-1], j]))
        return places

    def cost_avoiding(self, places):
        """``cost`` for paths that do not go through any of ``places`` (names or indices): they may start or end
        there. KoR 9.2.7.3-9.2.7.4, DP-K03: the royal army goes around a Falerii or Capena it may not cross."""
        closed = {p if isinstance(p, (int, np.integer)) else self.index(p) for p in places}
        weight = np.where(self.road_cost < 0, np.inf, self.road_cost).astype(float)
        return _as_int(_shortest(weight, closed))


def load_map(folder=None, hex_km=HEX_KM, tiber_closed=False):
    """The campaign map of ``folder`` (kor_cities.csv, kor_roads.csv, kor_sea.csv; default: the package's
    ``data/campaign``), with ``hex_km`` kilometres per hex (README proposal: 6).

    Hexes per edge: ``max(1, floor(km / hex_km + 0.5))``; a road hex costs 1 half-MP, a track hex 2. Sea legs are
    summed in km along the shortest sea path, then converted with the same rounding; a leg's ``plus3`` hexes (5.8:
    « Certains hexagones contiennent la mention +3 : il s'agit des PM supplémentaires à dépenser pour entrer dans
    l'hexagone avec le navire », some hexes are marked +3: extra MP to spend to enter them by ship; an optional
    column, 0 when absent) add 3 MP each, the cheapest path counting them. ``tiber_closed=True`` drops the
    ``at_rome`` Tiber edges (the README's strict option, before the Sublicius Bridge, 9.4.7.2).
    """
    if isinstance(hex_km, bool) or not isinstance(hex_km, (int, float)) or not hex_km > 0 or math.isinf(hex_km):
        raise ScenarioError(f"hex_km: {hex_km!r} is not allowed; expected a positive number of kilometres per hex "
                            f"(README proposal {HEX_KM}, plausible 5 to 8)")
    base = DEFAULT_FOLDER if folder is None else Path(folder)
    source = "default" if folder is None else str(folder)

    name, rows = _read(base / "kor_cities.csv", CITY_COLUMNS)
    cities, people, garrison, port, entry = [], [], [], [], []
    for r, row in enumerate(rows, 1):
        city = row["city"]
        if not city:
            raise _bad(name, r, "city", city, "a place name")
        if city in cities:
            raise _bad(name, r, "city", city, "a name not used by an earlier row")
        cities.append(city)
        people.append(PEOPLES.index(CITY_PEOPLES[_choice(name, r, "people", row["people"], tuple(CITY_PEOPLES))]))
        garrison.append(_int(name, r, "initial_garrison", row["initial_garrison"], 1, 3, empty=0))
        port.append(BOOLS[_choice(name, r, "port", row["port"], tuple(BOOLS))])
        entry.append(row["role"].startswith("entry"))
    if not cities:
        raise ScenarioError(f"{name}: no places; expected one row per place")
    if "Rome" not in cities:
        raise ScenarioError(f"{name}: no row for 'Rome'; expected Rome among the places")
    index = {c: i for i, c in enumerate(cities)}
    n = len(cities)

    name, rows = _read(base / "kor_roads.csv", ROAD_COLUMNS)
    hex_w = np.full((n, n), np.inf)
    cost_w = np.full((n, n), np.inf)
    for r, row in enumerate(rows, 1):
        a = _city(name, r, "a", row["a"], index)
        b = _city(name, r, "b", row["b"], index)
        if a == b:
            raise _bad(name, r, "b", row["b"], "a place other than field a")
        kind = _choice(name, r, "kind", row["kind"], ROAD_KINDS)
        km = _km(name, r, row["km"])
        tiber = _choice(name, r, "tiber_crossing", row["tiber_crossing"], TIBER)
        if tiber_closed and tiber == "at_rome":
            continue
        h = _hexes(km, hex_km)
        for i, j in ((a, b), (b, a)):
            hex_w[i, j] = min(hex_w[i, j], h)
            cost_w[i, j] = min(cost_w[i, j], h * HALF_MP[kind])
    hexes = _shortest(hex_w)
    unreached = [cities[j] for j in np.flatnonzero(np.isinf(hexes[index["Rome"]]))]
    if unreached:
        raise ScenarioError(f"{name}: the land graph is not connected: {', '.join(unreached)} cannot be reached "
                            "from Rome; expected every place joined to Rome by roads or tracks")
    cost = _shortest(cost_w)
    next_hop = np.full((n, n), -1, dtype=np.int64)
    for i in range(n):
        for j in range(n):
            if i != j and np.isfinite(cost[i, j]):
                # the lowest-index neighbour on a cheapest path
                next_hop[i, j] = np.flatnonzero(cost_w[i] + cost[:, j] == cost[i, j])[0]
    adjacent = hex_w == 1

    name, rows = _read(base / "kor_sea.csv", SEA_COLUMNS)
    sea_w = np.full((n, n), np.inf)
    for r, row in enumerate(rows, 1):
        ends = []
        for field in ("a", "b"):
            k = _city(name, r, field, row[field], index)
            if not port[k]:
                raise _bad(name, r, field, row[field], "a port (port = true in kor_cities.csv)")
            ends.append(k)
        if ends[0] == ends[1]:
            raise _bad(name, r, "b", row["b"], "a port other than field a")
        km = _km(name, r, row["km"])
        plus3 = _int(name, r, "plus3", row.get("plus3", ""), 0, 99, empty=0)
        # a "+3" hex as 3 more hexes of sea: the rounding of the summed km is unchanged by whole hexes
        km += PLUS3_MP * plus3 * hex_km
        sea_w[ends[0], ends[1]] = sea_w[ends[1], ends[0]] = min(sea_w[ends[0], ends[1]], km)
    sea_km = _shortest(sea_w)
    sea_cost = np.full((n, n), -1, dtype=np.int64)
    for i in range(n):
        for j in range(n):
            if port[i] and port[j] and np.isfinite(sea_km[i, j]):
                sea_cost[i, j] = 0 if i == j else _hexes(sea_km[i, j], hex_km)

    return CampaignMap(source=source, cities=tuple(cities), people=_frozen(np.array(people, dtype=np.int64)),
                       initial_garrison=_frozen(np.array(garrison, dtype=np.int64)),
                       port=_frozen(np.array(port, dtype=bool)), entry=_frozen(np.array(entry, dtype=bool)),
                       hexes=_frozen(_as_int(hexes)), cost=_frozen(_as_int(cost)), next_hop=_frozen(next_hop),
                       adjacent=_frozen(adjacent), sea_cost=_frozen(sea_cost), road_cost=_frozen(_as_int(cost_w)))


@dataclass(frozen=True)
class Counters:
    """The counter set, one entry per physical counter (``kor_counters.csv`` order).

    ``kind`` and ``people`` are codes (indices of ``KINDS`` and ``PEOPLES``); ``roman_class`` is 0 where the counter
    has no Roman unit face; ``home`` is a place index of the map, -1 where none; ``period`` is 0 for the base pools
    drawn at random, else the period (1-7) at whose start the counter comes into play.
    """
    source: str
    names: tuple
    kind: np.ndarray
    people: np.ndarray
    virtus: np.ndarray
    astutia: np.ndarray
    roman_class: np.ndarray
    home: np.ndarray
    period: np.ndarray
    assumed: np.ndarray

    def index(self, name):
        """The index of the counter ``name`` (the first one where several share it: ``where(name=...)`` gives all)."""
        try:
            return self.names.index(name)
        except ValueError:
            raise ScenarioError(f"counters: unknown counter {name!r}{did_you_mean(name, self.names)}") from None

    def where(self, kind=None, people=None, period=None, name=None):
        """Indices (int64 array, file order) of the counters matching every given criterion: ``kind`` (a name of
        ``KINDS``), ``people`` (a name of ``PEOPLES``), ``period`` (0-7) and ``name``."""
        mask = np.ones(len(self.names), dtype=bool)
        if kind is not None:
            if kind not in KINDS:
                raise ScenarioError(f"where: kind {kind!r} is not allowed; expected one of {', '.join(KINDS)}"
                                    f"{did_you_mean(kind, KINDS)}")
            mask &= self.kind == KINDS.index(kind)
        if people is not None:
            if people not in PEOPLES:
                raise ScenarioError(f"where: people {people!r} is not allowed; expected one of "
                                    f"{', '.join(PEOPLES)}{did_you_mean(people, PEOPLES)}")
            mask &= self.people == PEOPLES.index(people)
        if period is not None:
            if isinstance(period, bool) or not isinstance(period, (int, np.integer)) or not 0 <= period <= 7:
                raise ScenarioError(f"where: period {period!r} is not allowed; expected an integer 0 to 7")
            mask &= self.period == period
        if name is not None:
            mask &= np.array([n == name for n in self.names], dtype=bool)
        return np.flatnonzero(mask).astype(np.int64)


# Virtus range per kind (garrison: its garrison value; events carry none)
VIRTUS = {"infantry": (1, 6), "cavalry": (1, 6), "garrison": (1, 3), "leader": (1, 6), "king": (1, 6),
          "office": (1, 6), "event": (0, 0), "ship": (1, 6)}


def load_counters(path=None, campaign_map=None):
    """The counter set of ``path`` (default: the package's ``data/campaign/kor_counters.csv``); homes are checked
    against ``campaign_map`` (default: ``load_map()``)."""
    cmap = load_map() if campaign_map is None else campaign_map
    source = "default" if path is None else str(path)
    name, rows = _read(DEFAULT_FOLDER / "kor_counters.csv" if path is None else path, COUNTER_COLUMNS)
    cities = {c: i for i, c in enumerate(cmap.cities)}
    out = {k: [] for k in ("names", "kind", "people", "virtus", "astutia", "roman_class", "home", "period",
                           "assumed")}
    for r, row in enumerate(rows, 1):
        counter = row["counter"]
        if not counter:
            raise _bad(name, r, "counter", counter, "the counter's name")
        kind = _choice(name, r, "kind", row["kind"], KINDS)
        people = _choice(name, r, "people", row["people"], PEOPLES)
        if kind in ("king", "office", "event") and people != "roman":
            raise _bad(name, r, "people", people, f"roman for a {kind}")
        lo, hi = VIRTUS[kind]
        virtus = _int(name, r, "virtus", row["virtus"], lo, hi)
        astutia = _int(name, r, "astutia", row["astutia"], 0, 3 if kind in ("leader", "king") else 0)
        if kind == "infantry":
            roman_class = _int(name, r, "roman_class", row["roman_class"], 1, 5, empty=0)
        elif kind == "cavalry":
            roman_class = _int(name, r, "roman_class", row["roman_class"], 1, 1, empty=0)
        elif row["roman_class"]:
            raise _bad(name, r, "roman_class", row["roman_class"], f"empty for a {kind}")
        else:
            roman_class = 0
        period = _int(name, r, "period", row["period"], 0 if kind in ("infantry", "cavalry", "garrison") else 1, 7)
        if kind in ("infantry", "cavalry") and period == 0 and roman_class == 0:
            raise _bad(name, r, "roman_class", row["roman_class"],
                       "a Roman class (infantry 1 to 5, cavalry 1) for a unit of the base pool (period 0)")
        home = row["home"]
        if kind in ("king", "office", "event") or (kind == "ship" and people == "roman"):
            if home:
                raise _bad(name, r, "home", home, f"empty for a {'Roman ship' if kind == 'ship' else kind}")
            h = -1
        elif not home and kind == "ship":
            h = -1
        else:
            if not home:
                raise _bad(name, r, "home", home, f"a city of kor_cities.csv where the {kind} is placed")
            h = _city(name, r, "home", home, cities)
            if PEOPLES[cmap.people[h]] != people and home not in WAR_STARTS.get(people, ()):
                starts = WAR_STARTS.get(people, ())
                raise _bad(name, r, "home", home, f"a place of the {people}" +
                           (f" or their war's start ({', '.join(starts)})" if starts else ""))
        assumed = BOOLS[_choice(name, r, "assumed", row["assumed"], tuple(BOOLS))]
        for key, value in (("names", counter), ("kind", KINDS.index(kind)), ("people", PEOPLES.index(people)),
                           ("virtus", virtus), ("astutia", astutia), ("roman_class", roman_class), ("home", h),
                           ("period", period), ("assumed", assumed)):
            out[key].append(value)

    found = {}
    for counter, kind in zip(out["names"], out["kind"]):
        found.setdefault(counter, []).append(KINDS[kind])
    for counter, (kind, count) in REQUIRED_COUNTERS.items():
        have = found.get(counter, [])
        if len(have) < count:
            raise ScenarioError(f"{name}: counter {counter!r} appears {len(have)} time(s); expected at least "
                                f"{count} row(s) of kind {kind}")
        if any(k != kind for k in have):
            r = 1 + next(i for i, (c, k) in enumerate(zip(out["names"], out["kind"]))
                         if c == counter and KINDS[k] != kind)
            raise _bad(name, r, "kind", KINDS[out["kind"][r - 1]], f"{kind} for the counter {counter!r}")
    for people in LEADER_PEOPLES:
        code = PEOPLES.index(people)
        if not any(k == KINDS.index("leader") and p == code for k, p in zip(out["kind"], out["people"])):
            raise ScenarioError(f"{name}: no leader of the {people}; expected one to lead their war")

    arrays = {k: _frozen(np.array(v, dtype=bool if k == "assumed" else np.int64)) for k, v in out.items()
              if k != "names"}
    return Counters(source=source, names=tuple(out["names"]), **arrays)
