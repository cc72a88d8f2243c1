"""Jugule hex geometry (spec 15) against the spec's exact tables: arcs (15.2), minimum movement costs (15.4),
moves away (15.5), the net's area (15.7) and its exits, the ZOC (15.3, JUG-A5) and the arena edge (15.8).

The expected values are the spec's tables, not the code's output; the movement costs are found by a shortest-path
search written here over (hex, facing) states that asks the kernel only for the cost of single moves.
"""
import heapq

import numpy as np
import pytest

from romesim.jugule import combat as cb
from romesim.jugule import duel
from romesim.jugule import geometry as geo
from romesim.jugule import policies as pol

D = [(int(geo.DQ[k]), int(geo.DR[k])) for k in range(6)]


def add(*vectors):
    return (sum(v[0] for v in vectors), sum(v[1] for v in vectors))


def scale(m, v):
    return (m * v[0], m * v[1])


def rotate_ccw(v, times):
    q, r = v
    for _ in range(times % 6):
        q, r = q + r, -q
    return q, r


# ------------------------------------------------------------------------------------------------ 15.1
def test_distance_and_directions_15_1():
    assert D == [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    assert geo.dist(0, 0, 2, -1) == 2 and geo.dist(0, 0, 3, -3) == 3 and geo.dist(1, 1, -1, 2) == 2
    for k in range(6):
        assert geo.rotate_cw(*D[(k + 1) % 6], 1) == D[k]


# ------------------------------------------------------------------------------------------------ 15.2, JUG-A10
ARCS_TABLE = {  # spec 15.2, defender facing D0
    geo.ARC_FRONT: [D[0], D[1], D[5], scale(2, D[0]), scale(2, D[1]), scale(2, D[5]), add(D[0], D[1]),
                    add(D[1], D[2]), add(D[4], D[5]), add(D[5], D[0])],
    geo.ARC_FLANK: [D[2], D[4], scale(2, D[2]), scale(2, D[4]), add(D[2], D[3]), add(D[3], D[4])],
    geo.ARC_REAR: [D[3], scale(2, D[3])],
}


def test_arc_table_15_2_every_facing():
    assert sum(len(v) for v in ARCS_TABLE.values()) == 6 + 12  # the whole rings at distance 1 and 2
    for arc, hexes in ARCS_TABLE.items():
        for v in hexes:
            for f in range(6):
                q, r = rotate_ccw(v, f)
                assert geo.arc_of(geo.ARCS_F3_FL2_R1, q, r, f) == arc, (v, f)


def test_arc_alternatives_jug_a10():
    f1 = [geo.arc_of(geo.ARCS_F1_FL4_R1, q, r, 0) for q, r in D]
    assert f1 == [geo.ARC_FRONT, geo.ARC_FLANK, geo.ARC_FLANK, geo.ARC_REAR, geo.ARC_FLANK, geo.ARC_FLANK]
    r3 = [geo.arc_of(geo.ARCS_F3_R3, q, r, 0) for q, r in D]
    assert r3 == [geo.ARC_FRONT, geo.ARC_FRONT, geo.ARC_REAR, geo.ARC_REAR, geo.ARC_REAR, geo.ARC_FRONT]


def test_right_side_is_the_weapon_side():
    # facing D0, y up: D5 = (0, +1) lies below the facing line, on the right; D1 above, on the left (9.1)
    assert geo.right_side(*D[5], 0) == 1 and geo.right_side(*D[4], 0) == 1
    assert geo.right_side(*D[1], 0) == 0 and geo.right_side(*D[2], 0) == 0


# ------------------------------------------------------------------------------------------------ 15.3, JUG-A5
def test_zoc_modes_6_jug_a5():
    for k in range(6):
        assert geo.in_zoc(geo.ZOC_ADJACENT6, 0, *D[k], 0, 0, 0)
        assert geo.in_zoc(geo.ZOC_FRONT3, 0, *D[k], 0, 0, 0) == (k in (0, 1, 5))
    assert not geo.in_zoc(geo.ZOC_ADJACENT6, 0, 2, 0, 0, 0, 0)


# ------------------------------------------------------------------------------------------------ 15.4
def options(**changes):
    from romesim.jugule.scenarios import Duel
    return cb.option_vector(Duel().replace(**changes))


def min_costs(o, start, start_facing):
    """Shortest MP paths of a mover (side 0) around a target at (0,0) facing D0 (side 1) that does not react."""
    G = np.zeros((2, cb.G_FIELDS), np.int64)
    G[1, cb.G_Q], G[1, cb.G_R], G[1, cb.G_FACING] = 0, 0, 0
    best = {}
    heap = [(0, start, start_facing)]
    while heap:
        cost, pos, f = heapq.heappop(heap)
        if (pos, f) in best:
            continue
        best[(pos, f)] = cost
        G[0, cb.G_Q], G[0, cb.G_R], G[0, cb.G_FACING] = pos[0], pos[1], f
        moves = []
        for k in (f, (f + 3) % 6):
            c = duel.step_cost(o, G, 0, pos[0] + D[k][0], pos[1] + D[k][1])
            if c > 0:
                moves.append((c, add(pos, D[k]), f))
        if o[cb.O_ZOC_SLIDE_COST] > 0 and duel.zoc_of(o, G, 0, *pos):
            for k in range(6):
                t = add(pos, D[k])
                if t != (0, 0) and duel.zoc_of(o, G, 0, *t):
                    moves.append((int(o[cb.O_ZOC_SLIDE_COST]), t, f))
        tc = duel.turn_cost(o, G, 0)
        moves += [(tc, pos, (f + 1) % 6), (tc, pos, (f + 5) % 6)]
        for c, p, g in moves:
            if geo.dist(0, 0, *p) <= 5 and (p, g) not in best:
                heapq.heappush(heap, (cost + c, p, g))
    return best


def cheapest(best, goals):
    """Cheapest cost to end on one of ``goals`` with the target (0,0) in the mover's own front arc."""
    return min(c for (p, f), c in best.items()
               if p in goals and geo.arc_of(geo.ARCS_F3_FL2_R1, -p[0], -p[1], f) == geo.ARC_FRONT)


GOALS = {"adjacent_front": [D[0], D[1], D[5]], "adjacent_flank": [D[2], D[4]], "adjacent_rear": [D[3]],
         "d2_flank": ARCS_TABLE[geo.ARC_FLANK][2:], "d2_rear": [scale(2, D[3])]}


@pytest.mark.parametrize("slide, start, facing, expected", [
    # spec 15.4, row 1: set-up position (2,0) facing the target
    (0, (2, 0), 3, {"adjacent_front": 1, "adjacent_flank": 4, "adjacent_rear": 6, "d2_flank": 4, "d2_rear": 6}),
    # row 2: adjacent in the target's front, facing it
    (0, (1, 0), 3, {"adjacent_front": 0, "adjacent_flank": 6, "adjacent_rear": 8, "d2_flank": 6, "d2_rear": 8}),
    # jug.zoc_slide_cost = 2 (JUG-A6): adjacent front -> flank 5, -> rear 7
    (2, (1, 0), 3, {"adjacent_flank": 5, "adjacent_rear": 7}),
])
def test_minimum_movement_costs_15_4(slide, start, facing, expected):
    best = min_costs(options(zoc_slide_cost=slide), start, facing)
    for goal, cost in expected.items():
        assert cheapest(best, GOALS[goal]) == cost, goal


def test_movement_costs_5_6_jug_a6():
    o = options()
    G = np.zeros((2, cb.G_FIELDS), np.int64)
    G[0, cb.G_Q] = 3
    assert duel.turn_cost(o, G, 0) == 0  # outside the ZOC: free
    G[0, cb.G_Q] = 1
    assert duel.turn_cost(o, G, 0) == 1  # in the ZOC: 1 per hexside
    assert duel.turn_cost(options(turn_cost_outside_zoc=1), G, 0) == 1
    # a step that starts in the ZOC must leave it (2 MP); sliding along it is not a step
    assert duel.step_cost(o, G, 0, 2, 0) == 2 and duel.step_cost(o, G, 0, 1, -1) == -1
    assert duel.step_cost(o, G, 0, 0, 0) == -1  # the enemy's hex


# ------------------------------------------------------------------------------------------------ 15.5
def test_away_hexes_15_5():
    out = np.zeros((2, 2), np.int64)
    n = geo.away_hexes(0, 0, 1, 0, out)
    assert n == 1 and tuple(out[0]) == (2, 0)  # straight line: T + Dk
    n = geo.away_hexes(0, 0, 2, -1, out)  # T - A = D0 + D1: T + D0 and T + D1
    assert n == 2 and {tuple(out[0]), tuple(out[1])} == {(3, -1), (3, -2)}
    n = geo.away_hexes(0, 0, 0, 2, out)
    assert n == 1 and tuple(out[0]) == (0, 3)


# ------------------------------------------------------------------------------------------------ 15.7, JUG-A36
def test_net_area_example_15_7():
    area = np.zeros((9, 2), np.int64)
    n = geo.net_area(geo.NET_ROSETTE_PLUS2, 0, 0, 1, 0, area)
    expected = {(1, 0), (2, 0), (2, -1), (1, -1), (0, 0), (0, 1), (1, 1), (3, -1), (2, 1)}
    assert n == 9 and {tuple(h) for h in area} == expected
    # diagonal throw T - A = D0 + D1: extras T + 2 D0 and T + 2 D1
    n = geo.net_area(geo.NET_ROSETTE_PLUS2, 0, 0, 2, -1, area)
    assert {tuple(h) for h in area[7:9]} == {(4, -1), (4, -3)}
    assert geo.net_area(geo.NET_ROSETTE7, 0, 0, 1, 0, area) == 7


@pytest.mark.parametrize("mode, target, exits", [
    (geo.NET_ROSETTE_PLUS2, (1, 0), 9), (geo.NET_ROSETTE_PLUS2, (2, 0), 9), (geo.NET_ROSETTE_PLUS2, (2, -1), 9),
    (geo.NET_ROSETTE7, (1, 0), 11), (geo.NET_ROSETTE7, (2, 0), 11)])
def test_net_exits_any_hex_jug_a36(mode, target, exits):
    # net_exit = any: "9 of the 12 distance-2 hexes (11 with rosette7) are legal exits" at distance 1 or 2
    area = np.zeros((9, 2), np.int64)
    n = geo.net_area(mode, 0, 0, *target, area)
    out = np.zeros((16, 2), np.int64)
    k = geo.net_exits(area, n, 0, 0, 0, geo.NET_EXIT_ANY, out)
    assert k == exits
    for q, r in out[:k]:
        assert geo.dist(target[0], target[1], q, r) == 2 and (q, r) != (0, 0)


@pytest.mark.parametrize("mode, target, exits", [
    # thrower (0, 0) adjacent on a straight line: straight behind T and the two hexes 60 degrees off the line
    (geo.NET_ROSETTE_PLUS2, (1, 0), {(3, 0), (3, -2), (1, 2)}),
    (geo.NET_ROSETTE_PLUS2, (2, 0), {(4, 0), (4, -2), (2, 2)}),
    # distance-2 diagonal: T + 2 D0 and T + 2 D1 are in the net, only T + D0 + D1 is left
    (geo.NET_ROSETTE_PLUS2, (2, -1), {(4, -2)}),
    # without the two extras, the hexes behind T at distance 2 are open as well
    (geo.NET_ROSETTE7, (1, 0), {(3, 0), (3, -1), (3, -2), (2, 1), (1, 2)}),
    (geo.NET_ROSETTE7, (2, 0), {(4, 0), (4, -1), (4, -2), (3, 1), (2, 2)})])
def test_10_3_net_exit_is_a_step_back(mode, target, exits):
    """10.3, JUG-A36: « Un adversaire qui n'a pas de points de réserve pour reculer et sortir de cette zone est
    capturé » (an opponent who has no reserve points to step back and leave this area is captured): each of the
    two hexes of the escape takes him one hex farther from the thrower, never beside him nor round into his
    flank. Exits worked out by hand on the axial grid; the set is symmetric about the line of throw."""
    area = np.zeros((9, 2), np.int64)
    n = geo.net_area(mode, 0, 0, *target, area)
    out = np.zeros((16, 2), np.int64)
    k = geo.net_exits(area, n, 0, 0, 0, geo.NET_EXIT_STEP_BACK, out)
    assert {tuple(h) for h in out[:k]} == exits and k == len(exits)
    # the same throw seen from the other side of the sheet (rotated by 180 degrees) has the rotated exits
    k = geo.net_exits(-area, n, 0, 0, 0, geo.NET_EXIT_STEP_BACK, out)
    assert {tuple(h) for h in out[:k]} == {(-q, -r) for q, r in exits}
    # on a board of radius 3 the exits at distance 4 from the centre are gone
    k = geo.net_exits(area, n, 0, 0, 3, geo.NET_EXIT_STEP_BACK, out)
    assert {tuple(h) for h in out[:k]} == {h for h in exits if geo.dist(0, 0, *h) <= 3}


def test_d16_default_hex_choice_keeps_the_enemy_in_front_and_draws_ties():
    """D16: the default bot takes a candidate from which the enemy lies in his best arc, and draws among equals
    from the game's stream (the candidates' compass order must not decide, or the two sides would differ)."""
    from romesim.core.rng import new_stream, start
    state = np.zeros(pol.STATE_SIZE, np.int64)
    state[pol.H_COUNT] = 3
    state[pol.H_ARCS:pol.H_ARCS + 3] = [geo.ARC_FLANK, geo.ARC_FRONT, geo.ARC_FRONT]
    stream = new_stream()
    picks = []
    for game in range(200):
        start(stream, 5, game)
        picks.append(pol._hex_choice(pol.CODE_DEFAULT, np.zeros(8), state, stream))
    assert set(picks) == {1, 2} and 70 <= picks.count(1) <= 130
    state[pol.H_ARCS:pol.H_ARCS + 3] = [geo.ARC_REAR, geo.ARC_FLANK, geo.ARC_REAR]
    assert pol._hex_choice(pol.CODE_DEFAULT, np.zeros(8), state, stream) == 1


# ------------------------------------------------------------------------------------------------ 15.8, JUG-A2
def test_arena_edge_15_8():
    assert geo.on_board(0, 50, -7)
    assert geo.on_board(3, 3, 0) and not geo.on_board(3, 4, 0) and not geo.on_board(3, 2, 2)
    o = options(arena_radius=3)
    G = np.zeros((2, cb.G_FIELDS), np.int64)
    G[0, cb.G_Q], G[1, cb.G_Q] = 3, 0
    assert duel.step_cost(o, G, 0, 4, 0) == -1
