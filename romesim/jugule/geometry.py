"""Hex geometry of the duel (spec 15): axial coordinates, facings, arcs, zone of control, moves away, the net.

Axial ``(q, r)`` with ``dist = max(|dq|, |dr|, |dq + dr|)``; direction ``k`` is ``(DQ[k], DR[k])``, counter-clockwise
from ``D0 = (+1, 0)`` (15.1). Every test is exact integer arithmetic: arcs by the 15.2 inequality, angles between hex
vectors by their Cartesian dot product doubled (``2 q1 q2 + q1 r2 + q2 r1 + 2 r1 r2``), which is an integer.
"""
import numpy as np

from ..core.jit import njit

DQ = np.array([1, 1, 0, -1, -1, 0], np.int64)
DR = np.array([0, -1, -1, 0, 1, 1], np.int64)

ARC_FRONT, ARC_FLANK, ARC_REAR = 0, 1, 2
# jug.arcs (JUG-A10), in option-table order
ARCS_F3_FL2_R1, ARCS_F1_FL4_R1, ARCS_F3_R3 = 0, 1, 2
# jug.zoc_mode (JUG-A5)
ZOC_ADJACENT6, ZOC_FRONT3 = 0, 1
# jug.net_area (JUG-A36)
NET_ROSETTE_PLUS2, NET_ROSETTE7 = 0, 1
# jug.net_exit (JUG-A36, 10.3)
NET_EXIT_STEP_BACK, NET_EXIT_ANY = 0, 1


@njit(cache=True)
def dist(q1, r1, q2, r2):
    dq, dr = q2 - q1, r2 - r1
    return max(abs(dq), abs(dr), abs(dq + dr))


@njit(cache=True)
def rotate_cw(q, r, times):
    """``rot_cw^times``: the frame in which facing ``times`` becomes facing 0 (15.1)."""
    for _ in range(times % 6):
        q, r = -r, q + r
    return q, r


@njit(cache=True)
def dot2(q1, r1, q2, r2):
    """Twice the Cartesian dot product of two hex vectors (an integer)."""
    return 2 * q1 * q2 + q1 * r2 + q2 * r1 + 2 * r1 * r2


@njit(cache=True)
def arc_of(mode, dq, dr, facing):
    """Arc of a defender facing ``facing`` in which the hex at offset ``(dq, dr)`` from him lies (15.2, JUG-A10).

    Default: front up to 90 degrees from the facing, rear beyond 150, flank between; boundary hexes go to the
    defender's better arc. ``f1_fl4_r1`` narrows the front to 30 degrees; ``f3_r3`` has no flank.
    """
    a, b = rotate_cw(dq, dr, facing)
    x2 = 2 * a + b
    if mode == ARCS_F3_R3:
        return ARC_FRONT if x2 >= 0 else ARC_REAR
    if x2 < 0 and x2 * x2 > 9 * b * b:
        return ARC_REAR
    if mode == ARCS_F1_FL4_R1:
        return ARC_FRONT if x2 >= 3 * abs(b) else ARC_FLANK
    return ARC_FRONT if x2 >= 0 else ARC_FLANK


@njit(cache=True)
def right_side(dq, dr, facing):
    """1 if the offset lies to the defender's right (his weapon side; the shield is on the left arm, 9.1)."""
    a, b = rotate_cw(dq, dr, facing)
    return 1 if b > 0 else 0


@njit(cache=True)
def direction_to(q1, r1, q2, r2):
    """The facing that points most directly from hex 1 to hex 2 (lowest index on a tie)."""
    best, best_dot = 0, -(1 << 60)
    for k in range(6):
        d = dot2(DQ[k], DR[k], q2 - q1, r2 - r1)
        if d > best_dot:
            best, best_dot = k, d
    return best


@njit(cache=True)
def hexsides(f1, f2):
    """Hexsides to turn from facing ``f1`` to ``f2`` (0..3)."""
    d = (f2 - f1) % 6
    return min(d, 6 - d)


@njit(cache=True)
def on_board(radius, q, r):
    """15.8: with ``arena_radius = R > 0`` only hexes within distance R of the centre exist."""
    return radius == 0 or dist(0, 0, q, r) <= radius


@njit(cache=True)
def in_zoc(mode, arcs, q, r, eq, er, efacing):
    """Is hex ``(q, r)`` in the ZOC of an enemy at ``(eq, er)`` facing ``efacing`` (15.3, JUG-A5)?"""
    if dist(q, r, eq, er) != 1:
        return False
    if mode == ZOC_FRONT3:
        return arc_of(arcs, q - eq, r - er, efacing) == ARC_FRONT
    return True


@njit(cache=True)
def away_hexes(aq, ar, tq, tr, out):
    """15.5: the neighbours of T one hex farther from A whose direction is closest to T - A.

    Writes them as rows ``(q, r)`` of ``out`` and returns their count (1 on a straight line, 2 on a distance-2
    diagonal, 1 or 2 elsewhere).
    """
    base = dist(aq, ar, tq, tr)
    best = -(1 << 60)
    n = 0
    for k in range(6):
        nq, nr = tq + DQ[k], tr + DR[k]
        if dist(aq, ar, nq, nr) != base + 1:
            continue
        d = dot2(DQ[k], DR[k], tq - aq, tr - ar)
        if d > best:
            best = d
            n = 0
        if d == best and n < out.shape[0]:
            out[n, 0], out[n, 1] = nq, nr
            n += 1
    return n


@njit(cache=True)
def net_area(mode, aq, ar, tq, tr, out):
    """15.7 (JUG-A36): the hexes the net covers when thrown from A at T; rows of ``out``, returns the count.

    The target's hex and its six neighbours, plus (``rosette_plus2``) two hexes at distance 2 behind T, symmetric
    about the line of throw: ``T + Db + Db±1`` on a straight line, ``T + 2 Di`` and ``T + 2 Di+1`` on a
    distance-2 diagonal. A throw along any other line (range 3 only) takes the two distance-2 hexes behind T
    closest in angle to the throw.
    """
    out[0, 0], out[0, 1] = tq, tr
    for k in range(6):
        out[k + 1, 0], out[k + 1, 1] = tq + DQ[k], tr + DR[k]
    if mode == NET_ROSETTE7:
        return 7
    vq, vr = tq - aq, tr - ar
    m = dist(0, 0, vq, vr)
    for k in range(6):
        if vq == m * DQ[k] and vr == m * DR[k]:
            k1, k2 = (k + 1) % 6, (k + 5) % 6
            out[7, 0], out[7, 1] = tq + DQ[k] + DQ[k1], tr + DR[k] + DR[k1]
            out[8, 0], out[8, 1] = tq + DQ[k] + DQ[k2], tr + DR[k] + DR[k2]
            return 9
        k1 = (k + 1) % 6
        if vq == DQ[k] + DQ[k1] and vr == DR[k] + DR[k1]:
            out[7, 0], out[7, 1] = tq + 2 * DQ[k], tr + 2 * DR[k]
            out[8, 0], out[8, 1] = tq + 2 * DQ[k1], tr + 2 * DR[k1]
            return 9
    # any other line (only reachable with net_range = 3): the two distance-2 hexes closest in angle to the throw
    best1, best2 = -(1 << 60), -(1 << 60)
    for k in range(6):
        for j in (0, 1):
            k1 = (k + j) % 6
            hq, hr = DQ[k] + DQ[k1], DR[k] + DR[k1]
            d = dot2(hq, hr, vq, vr)
            if d > best1:
                best2, out[8, 0], out[8, 1] = best1, out[7, 0], out[7, 1]
                best1, out[7, 0], out[7, 1] = d, tq + hq, tr + hr
            elif d > best2:
                best2, out[8, 0], out[8, 1] = d, tq + hq, tr + hr
    return 9


@njit(cache=True)
def in_list(q, r, hexes, n):
    for i in range(n):
        if hexes[i, 0] == q and hexes[i, 1] == r:
            return True
    return False


@njit(cache=True)
def net_exits(area, n_area, aq, ar, radius, mode, out):
    """10.3: the hexes the target of a net may escape to, two steps from the target (area row 0) through the area,
    ending outside it, never entering the thrower's hex, on the board. Rows of ``out``; returns the count.

    ``step_back`` (default): « qui n'a pas de points de réserve pour reculer et sortir de cette zone est capturé »
    (who has no reserve points to step back and leave the area is captured): each of the two steps takes him one
    hex farther from the thrower, so he ends straight behind or 60 degrees off the line of throw, never beside the
    thrower or round into his flank. ``any``: any such hex at distance 2 (the older, looser reading).
    """
    tq, tr = area[0, 0], area[0, 1]
    base = dist(aq, ar, tq, tr)
    n = 0
    for k in range(6):
        for j in range(6):
            mq, mr = tq + DQ[k], tr + DR[k]
            xq, xr = mq + DQ[j], mr + DR[j]
            if dist(tq, tr, xq, xr) != 2 or in_list(xq, xr, area, n_area) or in_list(xq, xr, out, n):
                continue
            if (mq == aq and mr == ar) or (xq == aq and xr == ar):
                continue
            if mode == NET_EXIT_STEP_BACK and (dist(aq, ar, mq, mr) != base + 1 or dist(aq, ar, xq, xr) != base + 2):
                continue
            if not on_board(radius, mq, mr) or not on_board(radius, xq, xr):
                continue
            out[n, 0], out[n, 1] = xq, xr
            n += 1
    return n
