"""Random but consistent Semper Victor empires (zones, adjacency, leaders with titles within seed 3.5.1, units)
for the property tests of the succession and usurpation scenarios, and the D8 tie bot both play by state names."""
import numpy as np
from hypothesis import strategies as st
from numba import njit

from romesim.semper_victor import empire as sv
from romesim.semper_victor.policies import EMPEROR_TIE

TITLED = ("caesar", "augustus", "primus_augustus", "secondus_augustus")

TIE_CONTEXT, TIE_A, TIE_B = (EMPEROR_TIE.state.index(k) for k in ("context", "a", "b"))
TIE_RATINGS = np.array([[EMPEROR_TIE.state.index(f"{r}_{x}") for x in "ab"] for r in ("pc", "cc", "sr", "tb")])


@njit
def best_tie_by_name(state, params, stream):
    """The built-in D8 `best`: the higher PC, then CC, SR, TB, then a; 99 where the context is not params[0]."""
    if state[TIE_CONTEXT] != params[0]:
        return 99
    for k in range(4):
        if state[TIE_RATINGS[k, 0]] != state[TIE_RATINGS[k, 1]]:
            return state[TIE_A] if state[TIE_RATINGS[k, 0]] > state[TIE_RATINGS[k, 1]] else state[TIE_B]
    return state[TIE_A]


def zone(zid, diocese):
    return {"id": zid, "diocese": diocese}


def leader(zid, side, pc, title="none", **more):
    return {"zone": zid, "side": side, "pc": pc, "title": title, **more}


def units(zid, side, count=1, **more):
    return {"zone": zid, "side": side, "count": count, **more}


def pairs(*edges):
    return [{"a": a, "b": b} for a, b in edges]


@st.composite
def empires(draw, max_zones=7, max_leaders=8, min_plain=0):
    """``{zones, adjacent, leaders, units}``: every rule of ``empire.check_empire`` holds."""
    dioceses = draw(st.lists(st.sampled_from(sv.DIOCESES), min_size=1, max_size=4, unique=True))
    nz = draw(st.integers(1, max_zones))
    zones = [zone(10 + i, draw(st.sampled_from(dioceses))) for i in range(nz)]
    edges = draw(st.sets(st.tuples(st.integers(0, nz - 1), st.integers(0, nz - 1)).filter(lambda e: e[0] < e[1]),
                         max_size=2 * nz))
    adjacent = pairs(*((10 + a, 10 + b) for a, b in sorted(edges)))
    owner = [draw(st.sampled_from(("primus", "secondus", None))) for _ in range(nz)]
    owner[0] = "primus"
    places = {side: [10 + i for i, o in enumerate(owner) if o == side] for side in ("primus", "secondus")}

    def rating():
        return dict(cc=draw(st.integers(0, 2)), sr=draw(st.integers(0, 2)), tb=draw(st.integers(0, 2)))

    def somewhere(side):
        return draw(st.sampled_from(places[side]))

    leaders = [leader(somewhere("primus"), "primus", draw(st.integers(1, 6)), "primus_augustus", **rating())]
    secondus = bool(places["secondus"]) and draw(st.booleans())
    if secondus:
        leaders.append(leader(somewhere("secondus"), "secondus", draw(st.integers(1, 6)), "secondus_augustus",
                              **rating()))
    for side in ("primus", "secondus"):
        if not places[side] or side == "secondus" and not secondus:
            continue
        titles = ["augustus"] * draw(st.integers(0, 1)) + ["caesar"] * draw(st.integers(0, 2))
        for title in titles:
            leaders.append(leader(somewhere(side), side, draw(st.integers(0, 7)), title, **rating()))
    while sum(ldr["title"] in TITLED for ldr in leaders) > sv.IMPERIAL_CAPITALS:
        leaders.pop()
    for _ in range(draw(st.integers(min(min_plain, max_leaders - len(leaders)), max_leaders - len(leaders)))):
        side = draw(st.sampled_from([s for s in places if places[s]]))
        title = "dux" if draw(st.integers(0, 5)) == 0 else "none"
        leaders.append(leader(somewhere(side), side, draw(st.integers(0, 7)), title, **rating()))
    if sum(ldr["title"] == "dux" for ldr in leaders) > 4:
        leaders = [ldr for ldr in leaders if ldr["title"] != "dux"]
    for side in ("primus", "secondus"):
        holders = [ldr for ldr in leaders if ldr["side"] == side and ldr["title"] in TITLED]
        if holders and draw(st.booleans()):
            draw(st.sampled_from(holders))["guard"] = True
    troops = []
    for i, side in enumerate(owner):
        if side is None:
            continue
        if draw(st.booleans()):
            troops.append(units(10 + i, side, draw(st.integers(1, 3))))
        here = [k for k, ldr in enumerate(leaders) if ldr["zone"] == 10 + i]
        if here and draw(st.booleans()):
            troops.append(units(10 + i, side, draw(st.integers(1, 2)), leader=draw(st.sampled_from(here))))
    return {"zones": zones, "adjacent": adjacent, "leaders": leaders, "units": troops}
