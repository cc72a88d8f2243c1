"""Vox Populi board (spec 4): the default grid (VOX-A4) and the attending supporters of spec 4.3, with the worked
example of spec 14.1 (HOOLIGANS VOX-A38, ARÈNE GRATUITE, grid8). Expected sets are copied from the spec's table,
which was worked by hand on the drawing of spec 4.2.

Also home of the state builders the other Vox Populi test files import.
"""
import numpy as np
import pytest

import romesim
from romesim.core.policy import resolve, slots_for
from romesim.vox_populi import state as S
from romesim.vox_populi.board import attending, grid
from romesim.vox_populi.scenarios import Game

CRASSUS = S.CRASSUS
# spec 14.1: cell -> (player, value); P1, P2, P3 are seats 0, 1, 2
EXAMPLE_SUPPORTERS = {2: (2, 3), 10: (0, 3), 19: (2, 2), 20: (1, 1), 25: (1, 5), 28: (0, 1), 45: (1, 4)}
SLOTS = slots_for([None] * 6)  # the six seats' slots under built-ins (never called)


def compiled(**params):
    return Game(**params).compiled()


def blank_state(p, players):
    """A state with no pieces anywhere: empty board, no arenas placed, empty clubs and hands."""
    g = np.zeros(S.G_SIZE, np.int64)
    g[S.N_SEATS] = players
    g[S.CELL_OWNER:S.CELL_OWNER + S.N_CELLS] = S.EMPTY
    g[S.ARENA_CELL:S.ARENA_CELL + S.N_POL] = -1
    g[S.METER:S.METER + S.MAX_SEATS] = -1
    for f in (S.LOVER, S.HOOLIGANS_Q, S.GUEST, S.ABSENT, S.DESIGNATED_Q):
        g[f] = -1
    return g


def put_arena(g, pol, cell):
    g[S.ARENA_CELL + pol] = cell
    g[S.CELL_OWNER + cell] = S.ARENA
    g[S.CELL_VALUE + cell] = pol


def put_supporters(g, supporters):
    for cell, (seat, value) in supporters.items():
        g[S.CELL_OWNER + cell] = seat
        g[S.CELL_VALUE + cell] = value


def example_state(p, players=3):
    g = blank_state(p, players)
    put_arena(g, CRASSUS, 18)
    put_supporters(g, EXAMPLE_SUPPORTERS)
    return g


def attending_cells(g, p, pol):
    count = attending(g, p, pol)
    cells = {c for c in range(S.N_CELLS) if g[S.ATTEND + c]}
    assert count == len(cells)
    return cells


def kernel_inputs(players=3, policies=None):
    """Codes and parameters of the seats' built-in policies, as the engine passes them."""
    res = resolve(Game(players=players).decision_points, policies)
    return res.codes, res.params


# ------------------------------------------------------------------ spec 4.2 geometry (VOX-A4)
def test_default_grid_quarters_and_degrees():
    quarter, degree, adjacency = grid("grid4")
    # the drawing of spec 4.2: quarters are 2 x 4 blocks, three rows of two
    assert list(quarter[[0, 3, 4, 7, 8, 15]]) == [0, 0, 1, 1, 0, 1]
    assert list(quarter[[16, 19, 20, 31, 32, 47]]) == [2, 2, 3, 3, 4, 5]
    assert all(np.bincount(quarter) == 8)
    # orthogonal: corners 2 neighbours, border cells 3, inner cells 4
    assert degree[0] == 2 and degree[47] == 2 and degree[3] == 3 and degree[18] == 4
    assert sorted(adjacency[18, :degree[18]]) == [10, 17, 19, 26]
    _, degree8, adjacency8 = grid("grid8")
    assert degree8[0] == 3 and degree8[18] == 8
    assert 25 in adjacency8[18, :8]
    # adjacency is symmetric
    for cell in range(48):
        for k in range(degree[cell]):
            assert cell in adjacency[adjacency[cell, k], :degree[adjacency[cell, k]]]


# ------------------------------------------------------------------ spec 4.3 and the table of spec 14.1
def test_attending_example_grid4():
    p = compiled()
    g = example_state(p)
    # 10 and 19 touch 18; 2 via 10; 20 via 19 across the quarter border; 28 via 20; 25 only diagonal
    assert attending_cells(g, p, CRASSUS) == {2, 10, 19, 20, 28}


@pytest.mark.parametrize("quarter, expected", [(3, {2, 10, 19}), (0, {19, 20, 28}), (2, {19})])
def test_attending_example_hooligans(quarter, expected):
    # VOX-A38 cut_border: edges between the quarter and every other quarter are gone, inside edges stay
    p = compiled()
    g = example_state(p)
    g[S.HOOLIGANS_Q] = quarter
    assert attending_cells(g, p, CRASSUS) == expected


def test_attending_example_grid8():
    p = compiled(board_graph="grid8")
    assert attending_cells(example_state(p), p, CRASSUS) == {2, 10, 19, 20, 25, 28}


def test_attending_example_free_arena_ignores_hooligans():
    # ARÈNE GRATUITE: every supporter attends, HOOLIGANS ignored (spec 4.3)
    p = compiled()
    g = example_state(p)
    g[S.FREE_ARENA] = 1
    g[S.HOOLIGANS_Q] = 2
    assert attending_cells(g, p, CRASSUS) == set(EXAMPLE_SUPPORTERS)


def test_chains_stop_at_empty_cells_and_arenas():
    # spec 4.3: chains pass only through supporter cells, never through an empty cell or another arena
    p = compiled()
    g = blank_state(p, 3)
    put_arena(g, 0, 0)
    put_arena(g, 1, 2)
    put_supporters(g, {1: (0, 1), 3: (1, 2), 9: (2, 5)})
    # arena 0 on cell 0: 1 touches it, 9 touches 1 (via cell 1 -> 9); 3 is behind arena 1 on cell 2
    assert attending_cells(g, p, 0) == {1, 9}
    assert attending_cells(g, p, 1) == {1, 3, 9}


def test_bad_board_graph_is_rejected():
    with pytest.raises(romesim.ScenarioError, match="board_graph"):
        romesim.scenario("vox_populi.game", board_graph="hex")


# ------------------------------------------------------------------ VOX-A4 custom boards
def grid_as_records(graph="grid4"):
    quarter, degree, adjacency = grid(graph)
    edges = [{"a": a, "b": int(b)} for a in range(48) for b in adjacency[a, :degree[a]] if a < b]
    return [int(q) for q in quarter], edges


def test_custom_board_equal_to_the_grid_plays_the_same_games():
    quarters, edges = grid_as_records()
    custom = romesim.scenario("vox_populi.game", board_graph="custom", board_quarters=quarters, board_edges=edges)
    default = romesim.scenario("vox_populi.game")
    q1, d1, a1 = (custom.compiled()[s] for s in (slice(S.P_QUARTER, S.P_QUARTER + 48),
                                                  slice(S.P_DEGREE, S.P_DEGREE + 48), slice(S.P_ADJ, S.P_ADJ + 384)))
    q0, d0, a0 = (default.compiled()[s] for s in (slice(S.P_QUARTER, S.P_QUARTER + 48),
                                                   slice(S.P_DEGREE, S.P_DEGREE + 48), slice(S.P_ADJ, S.P_ADJ + 384)))
    assert (q1 == q0).all() and (d1 == d0).all()
    # the same neighbours (their order in the padded rows may differ)
    assert all(sorted(a1[8 * c:8 * c + d1[c]]) == sorted(a0[8 * c:8 * c + d0[c]]) for c in range(48))
    a = romesim.simulate(custom, 200, seed=1)
    assert a.estimate("p_turn_guard") == 0


def test_custom_board_checks():
    quarters, edges = grid_as_records()
    with pytest.raises(romesim.ScenarioError, match="board_quarters"):
        romesim.scenario("vox_populi.game", board_graph="custom", board_quarters=quarters[:47] + [0],
                         board_edges=edges)
    with pytest.raises(romesim.ScenarioError, match="board_edges"):
        romesim.scenario("vox_populi.game", board_graph="custom", board_quarters=quarters,
                         board_edges=edges + [{"a": 3, "b": 3}])
    with pytest.raises(romesim.ScenarioError, match="board_quarters/board_edges"):
        romesim.scenario("vox_populi.game", board_quarters=quarters)
    # a star board: cell 0 linked to 9 cells is over the 8-neighbour limit
    with pytest.raises(romesim.ScenarioError, match="more than 8"):
        romesim.scenario("vox_populi.game", board_graph="custom", board_quarters=quarters,
                         board_edges=[{"a": 0, "b": b} for b in range(1, 11)])
