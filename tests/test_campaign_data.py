"""The data layer of the Kings of Rome solo campaign: the abstract map (data/campaign/README.md) and the counters.

Pure numpy: nothing here compiles a kernel.
"""
import collections
import csv
import heapq
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from romesim.core.errors import ScenarioError
from romesim.kings_of_rome import campaign_data as cd

DATA = Path(cd.__file__).with_name("data") / "campaign"


@pytest.fixture(scope="module")
def cmap():
    return cd.load_map()


@pytest.fixture(scope="module")
def counters(cmap):
    return cd.load_counters(campaign_map=cmap)


def _mp(m, a, b):
    return m.cost[m.index(a), m.index(b)] / 2


# ------------------------------------------------------------------------------------------------------------ map

def test_default_map_loads(cmap):
    """The 44 places of the README with the rule 3.5 garrisons and Rome's own garrison of 3 (KoR 3.4, 3.5)."""
    assert cmap.source == "default"
    assert len(cmap.cities) == 44 and cmap.cities[0] == "Rome"
    n = len(cmap.cities)
    for field in ("hexes", "cost", "next_hop", "adjacent", "sea_cost"):
        assert getattr(cmap, field).shape == (n, n)
    assert cmap.hexes.dtype == cmap.cost.dtype == cmap.next_hop.dtype == cmap.sea_cost.dtype == np.int64
    assert cmap.adjacent.dtype == cmap.port.dtype == cmap.entry.dtype == bool
    assert cmap.initial_garrison[cmap.index("Rome")] == 3
    assert cmap.initial_garrison[cmap.index("Alba Longa")] == 3
    assert cmap.initial_garrison[cmap.index("Ostia")] == 0
    assert cd.PEOPLES[cmap.people[cmap.index("Veio")]] == "etruscans"
    assert cd.PEOPLES[cmap.people[cmap.index("Kaieta")]] == "oscan"
    assert sorted(c for c, e in zip(cmap.cities, cmap.entry) if e) == sorted(
        f"{p} entry" for p in ("Aequi", "Volsci", "Piceni", "Falisci", "Capenati", "Umbri"))
    assert sorted(c for c, p in zip(cmap.cities, cmap.port) if p) == sorted(
        ["Ostia", "Antium", "Pyrgus", "Caere", "Tarquinia", "Cosa", "Kaieta", "Cumae"])
    with pytest.raises(ScenarioError, match="'Veii'.*did you mean 'Veio'"):
        cmap.index("Veii")
    assert (np.diag(cmap.cost) == 0).all() and (cmap.cost == cmap.cost.T).all() and (cmap.hexes == cmap.hexes.T).all()
    assert (cmap.cost > 0).sum() == n * (n - 1)   # connected


# README "Cheapest MP from Rome": place, MP at 4, 5, 6 and 8 km per hex
README_MP = [("Fidene", 1, 1, 1, 0.5), ("Veio", 2.5, 2, 1.5, 1), ("Alba Longa", 3, 2.5, 2.5, 2),
             ("Tibur", 3.5, 3, 2.5, 2), ("Praeneste", 4.5, 3.5, 3, 2.5), ("Velatri", 6, 5, 4.5, 3),
             ("Falerii", 7, 5.5, 5, 3.5), ("Anagnia", 8.5, 6.5, 5.5, 4.5), ("Tarquinia", 11.5, 9, 7.5, 5.5),
             ("Antium", 12.5, 10, 8.5, 6), ("Kaieta", 17.5, 13.5, 11.5, 8.5), ("Cosa", 18, 14, 12, 8.5),
             ("Rufrium", 21, 16.5, 14, 10.5), ("Cumae", 26, 20.5, 17, 13), ("Vetulonia", 26.5, 21, 17.5, 13),
             ("Sena Gallica", 33.5, 26.5, 22.5, 16.5)]


@pytest.mark.parametrize("hex_km,column", [(4, 1), (5, 2), (6, 3), (8, 4)])
def test_readme_mp_table(hex_km, column):
    """KoR 5.2 (track hex 1 MP, road hex 1/2 MP) with the README's hexes per edge: its whole MP table."""
    m = cd.load_map(hex_km=hex_km)
    assert [_mp(m, "Rome", row[0]) for row in README_MP] == [row[column] for row in README_MP]


def test_hand_checked_costs(cmap):
    """KoR 5.2 at 6 km per hex, by hand: Rome-Veio road 18 km = 3 hexes = 3 half-MP; Rome-Bovillae road 17 km
    (3 hexes, 3 half-MP) + Bovillae-Alba Longa track 5 km (1 hex, 2 half-MP) = 5 half-MP = 2.5 MP."""
    rome = cmap.index("Rome")
    assert cmap.cost[rome, cmap.index("Veio")] == 3
    assert cmap.hexes[rome, cmap.index("Veio")] == 3
    assert cmap.cost[rome, cmap.index("Alba Longa")] == 5
    assert cmap.hexes[rome, cmap.index("Alba Longa")] == 4
    assert cmap.cost[rome, cmap.index("Tarquinia")] == 15
    assert cmap.cost[rome, cmap.index("Kaieta")] == 23
    assert cmap.cost[rome, cmap.index("Sena Gallica")] == 45
    assert cmap.path("Rome", "Alba Longa") == [rome, cmap.index("Bovillae"), cmap.index("Alba Longa")]
    # the README's invasion reach: one infantry move (28 half-MP) from Kaieta, Cosa and Rufrium, two from Cumae
    for place, moves in (("Kaieta", 1), ("Cosa", 1), ("Rufrium", 1), ("Aequi entry", 1), ("Volsci entry", 1),
                         ("Umbri entry", 1), ("Cumae", 2), ("Vetulonia", 2), ("Sena Gallica", 2),
                         ("Piceni entry", 2)):
        assert math.ceil(cmap.cost[cmap.index(place), rome] / 28) == moves, place


def _edges(hex_km=cd.HEX_KM):
    """Half-MP of each direct land edge, from kor_roads.csv by the README formula."""
    edges = {}
    with open(DATA / "kor_roads.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            h = max(1, math.floor(float(row["km"]) / hex_km + 0.5))
            edges[row["a"], row["b"]] = edges[row["b"], row["a"]] = h * (1 if row["kind"] == "road" else 2)
    return edges


def test_next_hop_walks_reach_destination_at_cost(cmap):
    """KoR 5.2: walking ``next_hop`` goes edge by edge and reaches every place at exactly ``cost``."""
    edges = _edges()
    n = len(cmap.cities)
    for i in range(n):
        assert cmap.next_hop[i, i] == -1
        for j in range(n):
            if i == j:
                continue
            here, paid, steps = i, 0, 0
            while here != j:
                nxt = int(cmap.next_hop[here, j])
                paid += edges[cmap.cities[here], cmap.cities[nxt]]
                here, steps = nxt, steps + 1
                assert steps < n
            assert paid == cmap.cost[i, j]


def test_next_hop_ties_take_lowest_index(cmap):
    """Path choice is deterministic: among the cheapest next places the lowest index wins."""
    edges = _edges()
    cities = cmap.cities
    for i in range(len(cities)):
        for j in range(len(cities)):
            if i == j:
                continue
            best = [k for k in range(len(cities)) if (cities[i], cities[k]) in edges
                    and edges[cities[i], cities[k]] + cmap.cost[k, j] == cmap.cost[i, j]]
            assert cmap.next_hop[i, j] == min(best)


def _dijkstra(cities, edges, source, closed):
    """Half-MP from ``source`` to every place by Dijkstra over ``edges``, no path passing through ``closed``."""
    dist, todo = {source: 0}, [(0, source)]
    while todo:
        d, here = heapq.heappop(todo)
        if d > dist[here] or (here in closed and here != source):
            continue
        for there in cities:
            step = edges.get((here, there))
            if step is not None and d + step < dist.get(there, math.inf):
                dist[there] = d + step
                heapq.heappush(todo, (d + step, there))
    return dist


@pytest.mark.parametrize("closed", [(), ("Falerii",), ("Capena",), ("Falerii", "Capena")])
def test_cost_avoiding_goes_around_closed_places(cmap, closed):
    """KoR 9.2.7.3-9.2.7.4, DP-K03: the royal army may not cross a Falerii or Capena held by its people, but may
    go around it or stop there. ``road_cost`` is kor_roads.csv's edges; ``cost_avoiding`` equals a Dijkstra over
    them that never passes through a closed place, and ``cost`` with nothing closed."""
    edges = _edges()
    cities = cmap.cities
    for (a, b), half_mp in edges.items():
        assert cmap.road_cost[cmap.index(a), cmap.index(b)] == half_mp
    assert (cmap.road_cost >= 0).sum() == len(edges)
    avoiding = cmap.cost_avoiding(closed)
    if not closed:
        assert (avoiding == cmap.cost).all()
    for i, source in enumerate(cities):
        dist = _dijkstra(cities, edges, source, set(closed))
        assert [dist.get(c, -1) for c in cities] == avoiding[i].tolist(), source


def test_adjacency_proxy_is_the_readme_list(cmap):
    """README adjacency proxy (KoR 7.1, penalty P2): the six pairs joined by an edge of exactly 1 hex at 6 km."""
    pairs = {frozenset((cmap.cities[i], cmap.cities[j])) for i, j in zip(*np.nonzero(cmap.adjacent))}
    assert pairs == {frozenset(p) for p in (("Bovillae", "Aricia"), ("Bovillae", "Alba Longa"),
                                            ("Alba Longa", "Aricia"), ("Aricia", "Lanuvium"),
                                            ("Gabii", "Collatia"), ("Capena", "Capenati entry"))}
    assert (cmap.adjacent == cmap.adjacent.T).all() and not cmap.adjacent.diagonal().any()


def test_sea_costs(cmap):
    """KoR 5.8 (ships 25 MP, 1 MP per sea hex): the README's sea hexes, summed in km along the coast."""
    sea = {(a, b): cmap.sea_cost[cmap.index(a), cmap.index(b)] for a in cmap.cities for b in cmap.cities}
    assert sea["Kaieta", "Ostia"] == 22 and sea["Ostia", "Kaieta"] == 22
    assert sea["Kaieta", "Antium"] == 15
    assert sea["Cosa", "Ostia"] == 19
    assert sea["Cumae", "Antium"] == 24 and sea["Cumae", "Ostia"] == 32
    assert sea["Ostia", "Ostia"] == 0
    assert sea["Rome", "Ostia"] == -1 and sea["Sena Gallica", "Cumae"] == -1
    assert cd.load_map(hex_km=5).sea_cost[cmap.index("Kaieta"), cmap.index("Ostia")] == 27


def test_tiber_closed_option(cmap):
    """README Tiber option, strict (before the Sublicius Bridge, 9.4.7.2): Veio is reached over the upstream ford
    by Fidene: road 9 km (2 hexes, 2 half-MP) + track 15 km (3 hexes, 6 half-MP)."""
    strict = cd.load_map(tiber_closed=True)
    assert _mp(strict, "Rome", "Veio") == 4
    assert strict.path("Rome", "Veio") == [0, strict.index("Fidene"), strict.index("Veio")]
    assert _mp(strict, "Rome", "Alba Longa") == _mp(cmap, "Rome", "Alba Longa")


@pytest.mark.parametrize("bad", [0, -6, float("nan"), "6", True])
def test_hex_km_must_be_positive(bad):
    with pytest.raises(ScenarioError, match="hex_km"):
        cd.load_map(hex_km=bad)


# ------------------------------------------------------------------------------------------------------- counters

def _count(c, **kw):
    return len(c.where(**kw))


def test_default_counters_load(counters, cmap):
    """Spec 5.8 gaps 3-7: the default counter set loads against the default map."""
    assert counters.source == "default"
    n = len(counters.names)
    for field in ("kind", "people", "virtus", "astutia", "roman_class", "home", "period", "assumed"):
        assert getattr(counters, field).shape == (n,)
    assert counters.assumed.dtype == bool and counters.kind.dtype == np.int64
    assert counters.index("Romulus") == 0
    assert list(counters.where(name="Etruscan War")) == list(counters.where(kind="event", name="Etruscan War"))
    with pytest.raises(ScenarioError, match="'Porsena'.*did you mean 'Porsenna'"):
        counters.index("Porsena")
    with pytest.raises(ScenarioError, match="kind 'knight'"):
        counters.where(kind="knight")
    with pytest.raises(ScenarioError, match="people 'latin'.*did you mean 'latins'"):
        counters.where(people="latin")


def test_base_pool_covers_every_random_draw(counters):
    """KoR 3.4 (4 infantry + 1 cavalry for Romulus, 3 infantry for the reserve), 3.6 (29 random units), 9.2.2 (10),
    9.7.2 (8), 9.1.8.1 (Tatius: 2 infantry + 1 Sabine cavalry) and 9.3.7.1 (Metius: 2 cavalry + 1 Latin infantry)
    all draw from the base pool (period 0) of Roman-faced units."""
    inf = counters.where(kind="infantry", period=0)
    cav = counters.where(kind="cavalry", period=0)
    assert len(inf) + len(cav) >= 29 + 8 + 10 + 8 + 3 + 3
    assert len(inf) >= 7 and len(cav) >= 1
    assert _count(counters, kind="cavalry", people="sabines", period=0) >= 1
    assert _count(counters, kind="cavalry", people="latins", period=0) >= 2
    assert set(counters.roman_class[inf]) <= {1, 2, 3, 4, 5} and len(set(counters.roman_class[inf])) == 5
    assert set(counters.roman_class[cav]) == {1}
    assert set(counters.virtus[np.concatenate([inf, cav])]) <= {1, 2, 3, 4}
    assert {cd.PEOPLES[p] for p in counters.people[inf]} == {"latins", "sabines", "volsci", "etruscans"}


# rule 3.5 (kor_garrisons.csv of the rules): people, value, cities; Falerii counted once, Rasna (KOR-A48)
RULE_3_5 = [("volsci", 1, ("Anagnia", "Satricum", "Ferentinum", "Antium", "Artena")), ("volsci", 2, ("Velatri",)),
            ("latin", 1, ("Aricia", "Bovillae", "Collatia", "Lanuvium", "Lavinium")),
            ("latin", 2, ("Gabii", "Praeneste", "Tibur", "Fidene", "Tusculum")), ("latin", 3, ("Alba Longa",)),
            ("sabine", 1, ("Cures", "Interamnia Nahars", "Nomentum", "Reate")),
            ("rasna", 1, ("Nepete", "Pyrgus", "Sutrium")), ("rasna", 2, ("Caere", "Falerii")),
            ("rasna", 3, ("Tarquinia", "Veio"))]


def test_garrisons_cover_setup_and_draws(counters, cmap):
    """KoR 3.4 (Rome's garrison 3) and 3.5 (the 28 initial NR garrisons of kor_garrisons.csv, Falerii Rasna by
    KOR-A48), then 8 + 11 + 4 + 5 random garrisons in periods 3-6 (9.3-9.6)."""
    rome = counters.where(kind="garrison", people="roman")
    assert len(rome) == 1 and counters.virtus[rome[0]] == 3 and counters.home[rome[0]] == cmap.index("Rome")
    people = {"volsci": "volsci", "latin": "latins", "sabine": "sabines", "rasna": "etruscans"}
    initial = [(city, group, value) for group, value, cities in RULE_3_5 for city in cities]
    assert len(initial) == 28
    pool = collections.Counter((cd.PEOPLES[counters.people[i]], counters.virtus[i], counters.home[i])
                               for i in counters.where(kind="garrison", period=0))
    for city, group, value in initial:   # one counter of the right people and value for each city, homed there
        key = (people[group], value, cmap.index(city))
        assert pool[key] >= 1, city
        pool[key] -= 1
    assert sum(pool.values()) >= 8 + 11 + 4 + 5
    for p in people.values():   # each people has spares of every value
        assert {v for (q, v, _), k in pool.items() if q == p and k} == {1, 2, 3}


INVADER_CAPS = {"aequi": (4, 0), "volsci": (4, 0), "piceni": (3, 0), "falisci": (3, 0), "capenati": (2, 0),
                "samnites": (6, 4), "gauls": (6, 4), "etruscans": (8, 4), "greeks": (5, 4), "umbri": (3, 1)}
WAR_PERIOD = {"aequi": 1, "volsci": 2, "piceni": 2, "falisci": 2, "capenati": 2, "samnites": 3, "gauls": 5,
              "etruscans": 5, "greeks": 6, "umbri": 6}


@pytest.mark.parametrize("people", sorted(INVADER_CAPS))
def test_invader_pools(counters, cmap, people):
    """Spec 5.8 gap 6 and kor_invasions.csv: the fixed counter mixes that cap the war dice (KoR 9.1.8.3, 9.2.7.2-4,
    9.4.7.3 with KOR-A57, 9.5.7.3, 9.5.7.4, 9.6.7.2, 9.6.7.3), placed at their war's start, without Roman face."""
    period = WAR_PERIOD[people]
    inf = counters.where(kind="infantry", people=people, period=period)
    cav = counters.where(kind="cavalry", people=people, period=period)
    assert (len(inf), len(cav)) == INVADER_CAPS[people]
    units = np.concatenate([inf, cav])
    assert (counters.roman_class[units] == 0).all()
    assert {cmap.cities[h] for h in counters.home[units]} <= set(cd.WAR_STARTS[people])
    leaders = counters.where(kind="leader", people=people)
    assert len(leaders) >= 1


def test_war_leaders_and_named_leaders(counters, cmap):
    """Spec 5.8 gap 5: every leader the rules name, at a place of his people (3.6, 9.2.2, 9.3.7.1, 9.4.2, 9.4.7.3,
    9.5.7.3-4, 9.6.7.2, 9.7.7.4)."""
    homes = {"Metius Fufetius": "Alba Longa", "Meddix": "Rufrium", "Brennus": "Sena Gallica",
             "Aristodemus": "Cumae", "Porsenna": "Vetulonia", "Titus Tatius": "Cures"}
    for name, home in homes.items():
        assert cmap.cities[counters.home[counters.index(name)]] == home
    for name in ("Mamilius", "Aegerius"):
        assert cd.PEOPLES[counters.people[counters.index(name)]] == "latins"
    for name in ("Arunth", "Spurinna", "Avle Vibenna", "Caelius Vibenna", "Mastarna", "Larth", "Zilath"):
        assert cd.PEOPLES[counters.people[counters.index(name)]] == "etruscans"
    leaders = counters.where(kind="leader")
    assert (counters.home[leaders] >= 0).all() and (counters.period[leaders] >= 1).all()
    assert (counters.virtus[leaders] >= 1).all() and (counters.astutia[leaders] <= 3).all()
    first = {counters.names[i] for i in counters.where(kind="leader", period=1)}
    assert {"Mamilius", "Aegerius", "Publius Valerius", "Arunth", "Spurinna"} <= first   # 3.6


# the event tokens of the rules' kor_events.csv and the period that first adds them (9.1-9.7)
KOR_EVENTS = {"Rape of the Sabines": 1, "Aequi War": 1, "Volsci War": 2, "Piceni War": 2, "Falisci War": 2,
              "Capena War": 2, "Horatii & Curiatii": 3, "Alba Longa War": 3, "Samnite War": 3,
              "Foundation of Ostia": 4, "Sublicius Bridge": 4, "Good/Bad Omen": 5, "End of Actions": 5,
              "Gallic War": 5, "Etruscan War": 5, "Danai War": 6, "Umbrian War": 6, "Mucius Scaevola": 7,
              "Horatius Cocles": 7}


def test_kings_offices_events(counters):
    """KoR 9.1-9.7 (one King a period), 9.2.7.1 (solo Magister Virtus 3, Tribunus Virtus 2, from the seed), and
    every token of kor_events.csv with its period; one Samnite War token (KOR-A57), three Etruscan War tokens."""
    kings = ["Romulus", "Numa Pompilius", "Tullus Hostilius", "Ancus Marcius", "Tarquinius Priscus",
             "Servius Tullius", "Tarquinius Superbus"]
    for period, king in enumerate(kings, 1):
        assert [counters.names[i] for i in counters.where(kind="king", period=period)
                if counters.names[i] != "Interrex"] == [king]
    assert counters.kind[counters.index("Interrex")] == cd.KINDS.index("king")
    offices = {counters.names[i]: [] for i in counters.where(kind="office")}
    for i in counters.where(kind="office"):
        offices[counters.names[i]].append(int(counters.virtus[i]))
        assert not counters.assumed[i] and counters.period[i] == 2
    assert offices == {"Magister Populi": [3], "Magister Equitum": [3], "Tribunus Populi": [2, 2],
                       "Tribunus Celerum": [2]}
    events = collections.Counter((counters.names[i], int(counters.period[i])) for i in counters.where(kind="event"))
    assert events[("Samnite War", 3)] == 1 and len(counters.where(name="Samnite War")) == 1
    assert sorted(counters.period[counters.where(name="Etruscan War")]) == [5, 6, 7]
    for name, first in KOR_EVENTS.items():
        assert min(counters.period[counters.where(kind="event", name=name)]) == first, name
    assert (counters.virtus[counters.where(kind="event")] == 0).all()
    assert counters.kind[counters.index("Metius Fufetius")] == cd.KINDS.index("leader")


def test_ships(counters):
    """Spec 5.8 gap 7: two Roman ships (9.4.7.1), the Etruscan fleet 2, 3, 4, 5 (9.5.7.4) and the Greek ships
    3 and 5 (9.6.7.2), the last two sets from the seed."""
    def virtus(people):
        return sorted(int(counters.virtus[i]) for i in counters.where(kind="ship", people=people))
    assert len(virtus("roman")) == 2 and virtus("etruscans") == [2, 3, 4, 5] and virtus("greeks") == [3, 5]
    assert not counters.assumed[counters.where(kind="ship", people="etruscans")].any()
    assert (counters.home[counters.where(kind="ship", people="roman")] == -1).all()


# ----------------------------------------------------------------------------------------------------- validation

def _copy_map(tmp_path):
    folder = tmp_path / "map"
    folder.mkdir()
    for name in ("kor_cities.csv", "kor_roads.csv", "kor_sea.csv"):
        shutil.copy(DATA / name, folder / name)
    return folder


def _edit(path, row, field, value):
    """Set ``field`` of data row ``row`` (1-based) of the CSV ``path`` to ``value``."""
    with open(path, newline="") as fh:
        reader = csv.DictReader(fh)
        fields, rows = reader.fieldnames, list(reader)
    rows[row - 1][field] = value
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def _drop(path, column=None, keep=None):
    with open(path, newline="") as fh:
        reader = csv.DictReader(fh)
        fields, rows = reader.fieldnames, list(reader)
    if column:
        fields = [f for f in fields if f != column]
    if keep is not None:
        rows = [r for r in rows if keep(r)]
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fields, lineterminator="\n", extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


@pytest.mark.parametrize("file,row,field,value,allowed", [
    ("kor_cities.csv", 3, "people", "Hernici", "one of Roman, Latin"),
    ("kor_cities.csv", 5, "port", "yes", "one of true, false"),
    ("kor_cities.csv", 4, "initial_garrison", "7", "an integer 1 to 3 or empty"),
    ("kor_cities.csv", 2, "city", "Rome", "a name not used by an earlier row"),
    ("kor_roads.csv", 12, "a", "Roma", "a city of kor_cities.csv"),
    ("kor_roads.csv", 40, "b", "Atlantis", "a city of kor_cities.csv"),
    ("kor_roads.csv", 7, "km", "0", "a positive number of kilometres"),
    ("kor_roads.csv", 8, "km", "-3", "a positive number"),
    ("kor_roads.csv", 9, "km", "far", "a positive number"),
    ("kor_roads.csv", 3, "kind", "highway", "one of road, track"),
    ("kor_roads.csv", 3, "tiber_crossing", "ford", "one of no, at_rome, upstream"),
    ("kor_sea.csv", 2, "km", "-1", "a positive number"),
    ("kor_sea.csv", 3, "a", "Rome", "a port"),
    ("kor_sea.csv", 4, "b", "Carthage", "a city of kor_cities.csv"),
])
def test_map_errors_name_file_row_field_value(tmp_path, file, row, field, value, allowed):
    """Spec 5.8.1-2: every map field is checked; the message names file, 1-based data row, field, value and what
    is allowed."""
    folder = _copy_map(tmp_path)
    _edit(folder / file, row, field, value)
    with pytest.raises(ScenarioError) as err:
        cd.load_map(folder)
    msg = str(err.value)
    assert msg.startswith(f"{file} row {row}, field {field}: {value!r} is not allowed; expected"), msg
    assert allowed in msg


def _with_plus3(path, legs):
    """``kor_sea.csv`` at ``path`` given a ``plus3`` column: ``legs[(a, b)]`` "+3" hexes on that leg, else 0."""
    with open(path, newline="") as fh:
        reader = csv.DictReader(fh)
        fields, rows = reader.fieldnames, list(reader)
    for r in rows:
        r["plus3"] = legs.get((r["a"], r["b"]), "0")
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, [f for f in fields if f != "plus3"] + ["plus3"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def test_plus3_sea_hexes_cost_three_mp_more(tmp_path):
    """KoR 5.8: « Certains hexagones contiennent la mention +3 : il s'agit des PM supplémentaires à dépenser pour
    entrer dans l'hexagone avec le navire » (some sea hexes are marked +3: extra movement points to spend to enter
    them by ship). The abstract map knows none; a designer's ``kor_sea.csv`` gives them per leg (``plus3``): one on
    Caere-Ostia makes every voyage through that leg 3 sea hexes longer and leaves the others as they were; a bad
    count is named by file, row and field."""
    base = cd.load_map()
    folder = _copy_map(tmp_path)
    _with_plus3(folder / "kor_sea.csv", {("Caere", "Ostia"): "1"})
    m = cd.load_map(folder)
    ostia, caere, cosa, kaieta = (m.index(c) for c in ("Ostia", "Caere", "Cosa", "Kaieta"))
    assert m.sea_cost[caere, ostia] == m.sea_cost[ostia, caere] == base.sea_cost[caere, ostia] + 3
    assert m.sea_cost[cosa, ostia] == base.sea_cost[cosa, ostia] + 3
    assert m.sea_cost[kaieta, ostia] == base.sea_cost[kaieta, ostia]
    assert m.sea_cost[cosa, caere] == base.sea_cost[cosa, caere]
    _with_plus3(folder / "kor_sea.csv", {("Caere", "Ostia"): "-1"})
    with pytest.raises(ScenarioError, match=r"kor_sea\.csv row 4, field plus3: '-1' is not allowed; expected an "
                                            r"integer 0 to 99 or empty"):
        cd.load_map(folder)


def test_map_missing_column(tmp_path):
    folder = _copy_map(tmp_path)
    _drop(folder / "kor_roads.csv", column="km")
    with pytest.raises(ScenarioError, match=r"kor_roads\.csv: missing column\(s\) km"):
        cd.load_map(folder)


def test_map_not_connected(tmp_path):
    """KoR 5.2: armies move only along roads and tracks, so every place must be reachable from Rome."""
    folder = _copy_map(tmp_path)
    _drop(folder / "kor_roads.csv", keep=lambda r: "Chiusi" not in (r["a"], r["b"]))
    with pytest.raises(ScenarioError, match=r"kor_roads\.csv: the land graph is not connected: Chiusi"):
        cd.load_map(folder)


def test_custom_folder_source(tmp_path):
    folder = _copy_map(tmp_path)
    m = cd.load_map(folder)
    assert m.source == str(folder) and m.cities == cd.load_map().cities


def _counters_file(tmp_path):
    path = tmp_path / "counters.csv"
    shutil.copy(DATA / "kor_counters.csv", path)
    return path


def _row_of(name):
    with open(DATA / "kor_counters.csv", newline="") as fh:
        return 1 + [r["counter"] for r in csv.DictReader(fh)].index(name)


@pytest.mark.parametrize("counter,field,value,allowed", [
    ("Latin infantry 3", "kind", "knight", "one of infantry, cavalry, garrison, leader, king, office, event, ship"),
    ("Latin infantry 3", "people", "hernici", "one of roman, latins"),
    ("Romulus", "people", "latins", "roman for a king"),
    ("Latin infantry 3", "virtus", "7", "an integer 1 to 6"),
    ("Latin infantry 3", "virtus", "x", "an integer 1 to 6"),
    ("Latin garrison 1", "virtus", "4", "an integer 1 to 3"),
    ("Gallic War", "virtus", "2", "0"),
    ("Mamilius", "astutia", "4", "an integer 0 to 3"),
    ("Latin infantry 3", "astutia", "1", "0"),
    ("Latin infantry 3", "roman_class", "6", "an integer 1 to 5 or empty"),
    ("Latin cavalry 1", "roman_class", "2", "1 or empty"),
    ("Latin infantry 3", "roman_class", "", "a Roman class"),
    ("Mamilius", "roman_class", "1", "empty for a leader"),
    ("Latin infantry 3", "home", "Atlantis", "a city of kor_cities.csv"),
    ("Latin infantry 3", "home", "Veio", "a place of the latins"),
    ("Samnite infantry 1", "home", "Cumae", "a place of the samnites or their war's start (Rufrium)"),
    ("Mamilius", "home", "", "a city of kor_cities.csv where the leader is placed"),
    ("Romulus", "home", "Rome", "empty for a king"),
    ("Roman ship 1", "home", "Ostia", "empty for a Roman ship"),
    ("Latin infantry 3", "period", "8", "an integer 0 to 7"),
    ("Romulus", "period", "0", "an integer 1 to 7"),
    ("Latin infantry 3", "assumed", "maybe", "one of true, false"),
    ("Magister Populi", "kind", "king", "office for the counter 'Magister Populi'"),
])
def test_counter_errors_name_file_row_field_value(tmp_path, counter, field, value, allowed):
    """Spec 5.8.3-7: every counter field is checked; the message names file, 1-based data row, field, value and
    what is allowed."""
    path = _counters_file(tmp_path)
    row = _row_of(counter)
    _edit(path, row, field, value)
    with pytest.raises(ScenarioError) as err:
        cd.load_counters(path)
    msg = str(err.value)
    assert msg.startswith(f"counters.csv row {row}, field {field}: {value!r} is not allowed; expected"), msg
    assert allowed in msg


@pytest.mark.parametrize("counter,message", [
    ("Porsenna", "counter 'Porsenna' appears 0 time(s); expected at least 1 row(s) of kind leader"),
    ("Tribunus Populi", "counter 'Tribunus Populi' appears 0 time(s); expected at least 2"),
    ("Etruscan War", "counter 'Etruscan War' appears 0 time(s); expected at least 3 row(s) of kind event"),
    ("Umbri leader", "no leader of the umbri"),
])
def test_required_counters(tmp_path, counter, message):
    """KoR 3.6 and 9.1-9.7 name these counters; a file without them is refused."""
    path = _counters_file(tmp_path)
    _drop(path, keep=lambda r: r["counter"] != counter)
    with pytest.raises(ScenarioError) as err:
        cd.load_counters(path)
    assert str(err.value).startswith(f"counters.csv: {message}"), str(err.value)


def test_one_etruscan_war_short(tmp_path):
    path = _counters_file(tmp_path)
    first = _row_of("Etruscan War")
    _edit(path, first, "counter", "Etruscan Raid")
    with pytest.raises(ScenarioError, match="'Etruscan War' appears 2 time"):
        cd.load_counters(path)


def test_counters_missing_column(tmp_path):
    path = _counters_file(tmp_path)
    _drop(path, column="astutia")
    with pytest.raises(ScenarioError, match=r"counters\.csv: missing column\(s\) astutia"):
        cd.load_counters(path)


def test_counters_against_custom_map(tmp_path):
    """Homes are checked against the map given: a map without Chiusi still takes the default counters (no one
    lives there), while Vetulonia's removal is refused for Porsenna."""
    folder = _copy_map(tmp_path)
    _drop(folder / "kor_cities.csv", keep=lambda r: r["city"] != "Chiusi")
    _drop(folder / "kor_roads.csv", keep=lambda r: "Chiusi" not in (r["a"], r["b"]))
    m = cd.load_map(folder)
    c = cd.load_counters(campaign_map=m)
    assert c.source == "default" and c.home.max() < len(m.cities)
    _drop(folder / "kor_cities.csv", keep=lambda r: r["city"] != "Vetulonia")
    _drop(folder / "kor_roads.csv", keep=lambda r: "Vetulonia" not in (r["a"], r["b"]))
    with pytest.raises(ScenarioError, match=r"kor_counters\.csv row \d+, field home: 'Vetulonia'"):
        cd.load_counters(campaign_map=cd.load_map(folder))
