"""The board of Rome (spec 4): the 6 x 8 grid of the default geometry (VOX-A4) and the attending supporters of a
match (spec 4.3), with the HOOLIGANS cut (VOX-A38) and ARÈNE GRATUITE.

Cell ``8 r + c`` (rows 0..5, columns 0..7); quarter ``2 (r div 2) + (c div 4)``: each quarter is a 2 x 4 block and
the quarters form 3 rows of 2. ``grid4`` links orthogonal neighbours, ``grid8`` king-move neighbours.
"""
import numpy as np

from ..core.jit import njit
from ..core.errors import ScenarioError
from .state import (
    ARENA_CELL,
    ATTEND,
    CELL_OWNER,
    CELLS_PER_QUARTER,
    FREE_ARENA,
    HOOLIGANS_Q,
    MAX_DEGREE,
    N_CELLS,
    N_QUARTERS,
    P_ADJ,
    P_DEGREE,
    P_QUARTER,
    SCRATCH,
)

ROWS, COLS = 6, 8
GRAPHS = ("grid4", "grid8")


def quarter_of(cell):
    r, c = divmod(cell, COLS)
    return 2 * (r // 2) + c // 4


def grid(graph="grid4"):
    """``(quarter[48], degree[48], adjacency[48, 8])`` of the default board (VOX-A4); adjacency is -1 padded."""
    if graph not in GRAPHS:
        raise ValueError(f"board_graph: {graph!r}; expected one of {GRAPHS}")
    steps = [(-1, 0), (0, -1), (0, 1), (1, 0)]
    if graph == "grid8":
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    quarter = np.array([quarter_of(c) for c in range(N_CELLS)], np.int64)
    degree = np.zeros(N_CELLS, np.int64)
    adjacency = np.full((N_CELLS, MAX_DEGREE), -1, np.int64)
    for cell in range(N_CELLS):
        r, c = divmod(cell, COLS)
        for dr, dc in steps:
            rr, cc = r + dr, c + dc
            if 0 <= rr < ROWS and 0 <= cc < COLS:
                adjacency[cell, degree[cell]] = 8 * rr + cc
                degree[cell] += 1
    return quarter, degree, adjacency


def custom_graph(quarters, edges):
    """``(quarter[48], degree[48], adjacency[48, 8])`` of a user's board (VOX-A4 custom): ``quarters`` gives each
    cell's quarter, 8 cells per quarter (§1.0); ``edges`` are unordered pairs of distinct cells, at most 8
    neighbours per cell. Raises a ScenarioError naming the field otherwise."""
    if len(quarters) != N_CELLS or any(list(quarters).count(q) != CELLS_PER_QUARTER for q in range(N_QUARTERS)):
        raise ScenarioError(f"board_quarters: {list(quarters)!r} is not allowed; expected 48 quarters 0..5, each "
                            "used by exactly 8 cells")
    quarter = np.array(quarters, np.int64)
    degree = np.zeros(N_CELLS, np.int64)
    adjacency = np.full((N_CELLS, MAX_DEGREE), -1, np.int64)
    for a, b in edges:
        if a == b or b in adjacency[a, :degree[a]]:
            raise ScenarioError(f"board_edges: the pair {{a = {a}, b = {b}}} is not allowed; expected two distinct "
                                "cells, each pair once")
        for x, y in ((a, b), (b, a)):
            if degree[x] == MAX_DEGREE:
                raise ScenarioError(f"board_edges: cell {x} has more than {MAX_DEGREE} neighbours")
            adjacency[x, degree[x]] = y
            degree[x] += 1
    return quarter, degree, adjacency


@njit(cache=True, inline="always")
def linked(g, p, x, y):
    """Whether the edge x-y is usable now: HOOLIGANS cuts every edge between its quarter and another quarter for
    the turn (VOX-A38), unless ARÈNE GRATUITE was played (spec 4.3)."""
    h = g[HOOLIGANS_Q]
    if h < 0 or g[FREE_ARENA]:
        return True
    qx, qy = p[P_QUARTER + x], p[P_QUARTER + y]
    return qx == qy or (qx != h and qy != h)


@njit(cache=True)
def attending(g, p, pol):
    """Spec 4.3: mark in ``g[ATTEND]`` the supporters attending a match in ``pol``'s arena and return how many
    there are. Supporters on cells next to the arena attend, and so does every supporter linked to one of them by
    a chain of supporter cells; with ARÈNE GRATUITE every supporter on the board attends."""
    count = 0
    if g[FREE_ARENA]:
        for c in range(N_CELLS):
            present = 1 if g[CELL_OWNER + c] >= 0 else 0
            g[ATTEND + c] = present
            count += present
        return count
    for c in range(N_CELLS):
        g[ATTEND + c] = 0
    top = 0  # the flood-fill stack lives in g[SCRATCH ...]
    start = g[ARENA_CELL + pol]
    for k in range(p[P_DEGREE + start]):
        c = p[P_ADJ + start * MAX_DEGREE + k]
        if g[CELL_OWNER + c] >= 0 and g[ATTEND + c] == 0 and linked(g, p, start, c):
            g[ATTEND + c] = 1
            g[SCRATCH + top] = c
            top += 1
    while top > 0:
        top -= 1
        x = g[SCRATCH + top]
        count += 1
        for k in range(p[P_DEGREE + x]):
            y = p[P_ADJ + x * MAX_DEGREE + k]
            if g[CELL_OWNER + y] >= 0 and g[ATTEND + y] == 0 and linked(g, p, x, y):
                g[ATTEND + y] = 1
                g[SCRATCH + top] = y
                top += 1
    return count
