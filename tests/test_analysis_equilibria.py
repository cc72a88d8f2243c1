"""Equilibria (romesim.analysis.equilibria): zero-sum games solved by hand (2x2, 3x3, saddle points, exact
Fractions), bimatrix games (battle of the sexes, prisoner's dilemma, a degenerate game), and the choice of a
gladiator type on a Jugule matchup table."""
from fractions import Fraction as F

import numpy as np
import pandas as pd
import pytest

import romesim
from romesim.analysis.equilibria import bimatrix, zero_sum
from romesim.jugule import matchups as jm


def assert_is_equilibrium(eq, matrix):
    """No pure deviation helps either player: min over columns of x A = value = max over rows of A y."""
    a = np.asarray(matrix, np.float64)
    x, y = np.asarray(eq.row, np.float64), np.asarray(eq.column, np.float64)
    assert x.sum() == pytest.approx(1) and y.sum() == pytest.approx(1) and (x >= 0).all() and (y >= 0).all()
    assert (x @ a).min() == pytest.approx(float(eq.value), abs=1e-9)
    assert (a @ y).max() == pytest.approx(float(eq.value), abs=1e-9)


def test_matching_pennies():
    # no saddle point; each side must make the other indifferent: 1/2 each, value 0
    eq = zero_sum([[1, -1], [-1, 1]])
    assert eq.row.tolist() == [0.5, 0.5] and eq.column.tolist() == [0.5, 0.5] and eq.value == 0
    assert eq.row_support == (0, 1) and eq.column_support == (0, 1)


def test_two_by_two_by_hand_exact_and_float():
    # [[3, -1], [-2, 1]]: the row player mixes p on row 0 so that both columns pay the same:
    # 3p - 2(1 - p) = -p + (1 - p) -> 5p - 2 = 1 - 2p -> p = 3/7; the column player q on column 0:
    # 3q - (1 - q) = -2q + (1 - q) -> 4q - 1 = 1 - 3q -> q = 2/7; value 3 * 3/7 - 2 * 4/7 = 1/7
    exact = zero_sum([[F(3), F(-1)], [F(-2), F(1)]])
    assert list(exact.row) == [F(3, 7), F(4, 7)] and list(exact.column) == [F(2, 7), F(5, 7)]
    assert exact.value == F(1, 7) and isinstance(exact.value, F)
    floats = zero_sum(np.array([[3.0, -1.0], [-2.0, 1.0]]))
    assert floats.row == pytest.approx([3 / 7, 4 / 7]) and floats.value == pytest.approx(1 / 7)


def test_rock_paper_scissors_by_linear_programming():
    # symmetric and antisymmetric: value 0; only the uniform mix leaves the opponent no profitable reply
    matrix = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    eq = zero_sum(pd.DataFrame(matrix, index=["rock", "paper", "scissors"], columns=["rock", "paper", "scissors"]))
    assert eq.row.to_dict() == pytest.approx({"rock": 1 / 3, "paper": 1 / 3, "scissors": 1 / 3})
    assert eq.column.to_numpy() == pytest.approx([1 / 3] * 3)
    assert eq.value == pytest.approx(0, abs=1e-12)
    assert eq.row_support == ("rock", "paper", "scissors")
    exact = zero_sum([[F(v) for v in row] for row in matrix])
    assert list(exact.row) == [F(1, 3)] * 3 and exact.value == 0


def test_three_by_three_with_dominated_strategies():
    # [[3, -1, 4], [-2, 1, 2], [2, -2, 3]]: row 2 is below row 0 everywhere (2 < 3, -2 < -1, 3 < 4), and then
    # column 2 is above column 0 everywhere for the minimiser (4 > 3, 2 > -2): both go, leaving the 2x2 game
    # above: x = (3/7, 4/7, 0), y = (2/7, 5/7, 0), value 1/7. Check: x A = (1/7, 1/7, 20/7), A y = (1/7, 1/7, -6/7)
    matrix = [[3, -1, 4], [-2, 1, 2], [2, -2, 3]]
    eq = zero_sum(matrix)
    assert eq.row == pytest.approx([3 / 7, 4 / 7, 0], abs=1e-9)
    assert eq.column == pytest.approx([2 / 7, 5 / 7, 0], abs=1e-9)
    assert eq.value == pytest.approx(1 / 7)
    assert eq.row_support == (0, 1) and eq.column_support == (0, 1)
    assert_is_equilibrium(eq, matrix)
    # exact: the LP's supports, then the equal-payoff equations solved in Fractions
    exact = zero_sum([[F(v) for v in row] for row in matrix])
    assert list(exact.row) == [F(3, 7), F(4, 7), 0] and list(exact.column) == [F(2, 7), F(5, 7), 0]
    assert exact.value == F(1, 7)


def test_saddle_point():
    # cell (0, 1) = 2 is the least of row 0 (4, 2, 3) and the greatest of column 1 (2, 0, 1): pure strategies
    eq = zero_sum([[4, 2, 3], [1, 0, 5], [3, 1, 2]])
    assert eq.row.tolist() == [1, 0, 0] and eq.column.tolist() == [0, 1, 0] and eq.value == 2
    assert eq.row_support == (0,) and eq.column_support == (1,)
    assert zero_sum([[F(1, 2), F(2, 5)], [F(3, 10), F(1, 5)]]).value == F(2, 5)


def test_a_larger_random_game_is_an_equilibrium():
    matrix = np.random.default_rng(3).normal(size=(5, 7))
    assert_is_equilibrium(zero_sum(matrix), matrix)


def test_exact_solutions_of_random_integer_games_meet_the_equilibrium_conditions_exactly():
    # many of these small games are degenerate (ties, repeated rows): the exact recovery must still give
    # min_j (x A)_j == value == max_i (A y)_i in Fractions, and the value the float LP finds
    rng = np.random.default_rng(0)
    for _ in range(60):
        m, k = rng.integers(2, 6, size=2)
        matrix = rng.integers(-3, 4, size=(m, k))
        exact = zero_sum([[F(int(v)) for v in row] for row in matrix])
        x, y = list(exact.row), list(exact.column)
        assert all(isinstance(p, F) and p >= 0 for p in x + y) and sum(x) == 1 and sum(y) == 1
        assert min(sum(x[i] * int(matrix[i, j]) for i in range(m)) for j in range(k)) == exact.value
        assert max(sum(int(matrix[i, j]) * y[j] for j in range(k)) for i in range(m)) == exact.value
        assert float(exact.value) == pytest.approx(zero_sum(matrix.astype(float)).value, abs=1e-9)


def test_battle_of_the_sexes():
    # row gets 3 at (0, 0) and 2 at (1, 1), column 2 and 3: two pure equilibria on the diagonal, and the mixed one
    # where each makes the other indifferent: row p on 0 with 2p = 3(1 - p) -> p = 3/5, column q on 0 with
    # 3q = 2(1 - q) -> q = 2/5; payoffs 3 * 2/5 = 6/5 and 2 * 3/5 = 6/5
    found = bimatrix([[3, 0], [0, 2]], [[2, 0], [0, 3]])
    assert len(found) == 3 and not any(e.degenerate for e in found)
    got = sorted((tuple(np.round(e.row, 12)), tuple(np.round(e.column, 12)), round(e.row_payoff, 12),
                  round(e.column_payoff, 12)) for e in found)
    assert got == sorted([((1, 0), (1, 0), 3, 2), ((0, 1), (0, 1), 2, 3), ((0.6, 0.4), (0.4, 0.6), 1.2, 1.2)])
    mixed = next(e for e in found if len(e.row_support) == 2)
    assert mixed.column_support == (0, 1)


def test_prisoners_dilemma_has_one_pure_equilibrium():
    # cooperate/defect: defecting pays more whatever the other does (5 > 3, 1 > 0), so (defect, defect), 1 each
    labels = ["cooperate", "defect"]
    a = pd.DataFrame([[3, 0], [5, 1]], index=labels, columns=labels)
    found = bimatrix(a, a.T)
    assert len(found) == 1
    eq = found[0]
    assert eq.row_support == ("defect",) and eq.column_support == ("defect",)
    assert (eq.row_payoff, eq.column_payoff) == (1, 1) and eq.row["defect"] == 1


def test_degenerate_game_says_so():
    # the row player is indifferent everywhere: every column reply ties, so equilibria come in continua
    with pytest.warns(RuntimeWarning, match="degenerate"):
        found = bimatrix([[1, 1], [1, 1]], [[1, 1], [0, 0]])
    assert found and all(e.degenerate for e in found)


@pytest.mark.parametrize("call, words", [
    (lambda: zero_sum([1, 2]), "2-D payoff table"), (lambda: zero_sum([["a", 1]]), "payoff 'a'"),
    (lambda: zero_sum([[float("nan"), 1]]), "finite numbers"),
    (lambda: bimatrix([[1, 2]], [[1], [2]]), "b: shape"), (lambda: bimatrix([[1]], [[1]], method="lemke"), "method"),
])
def test_bad_input_is_named(call, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        call()


def test_type_equilibrium_on_a_cyclic_table():
    # x beats y, y beats z, z beats x, each 0.7 to 0.2 (0.1 both out): net payoff +-0.5, rock-paper-scissors scaled,
    # so every type one time in three and value 0 (score value 1/2)
    beats = {("x", "y"), ("y", "z"), ("z", "x")}
    rows = []
    for a in "xyz":
        for b in "xyz":
            win, loss = (0.7, 0.2) if (a, b) in beats else (0.2, 0.7) if (b, a) in beats else (0.45, 0.45)
            rows.append({"a": a, "b": b, "p_win": win, "ci_low": 0, "ci_high": 1, "p_loss": loss,
                         "p_both_out": 1 - win - loss, "n": 100})
    got = jm.type_equilibrium(pd.DataFrame(rows))
    assert list(got["type"]) == ["x", "y", "z"]
    assert got["p_a"].to_numpy() == pytest.approx([1 / 3] * 3) and got["p_b"].to_numpy() == pytest.approx([1 / 3] * 3)
    assert got.attrs["value"] == pytest.approx(0, abs=1e-12) and got.attrs["value_score"] == pytest.approx(0.5)
    with pytest.raises(romesim.ScenarioError, match="misses some cells"):
        jm.type_equilibrium(pd.DataFrame(rows[:-1]))


def test_a_tidy_frame_is_solved_without_pivoting():
    """``tactic_matrix`` (and any tidy frame with two label columns and ``estimate``) goes straight in; the cell
    order is the frame's, and the metric is chosen."""
    tidy = pd.DataFrame({"roman": ["attack", "attack", "defence", "defence"] * 2,
                         "nr": ["attack", "defence"] * 4,
                         "metric": ["p_win"] * 4 + ["vp"] * 4,
                         "estimate": [3, -1, -2, 1, 0, 0, 0, 5], "ci_low": 0.0, "ci_high": 0.0})
    eq = zero_sum(tidy)  # p_win cells [[3, -1], [-2, 1]]: by hand (3/7, 4/7), (2/7, 5/7), value 1/7
    assert eq.row.to_dict() == pytest.approx({"attack": 3 / 7, "defence": 4 / 7})
    assert eq.column.to_dict() == pytest.approx({"attack": 2 / 7, "defence": 5 / 7})
    assert eq.value == pytest.approx(1 / 7) and eq.column_value == pytest.approx(-1 / 7)
    assert zero_sum(tidy, metric="vp").value == 0  # [[0, 0], [0, 5]]: saddle point at (attack, attack)
    with pytest.raises(romesim.ScenarioError, match="'p_loss' is not in the frame; metrics: p_win, vp"):
        zero_sum(tidy, metric="p_loss")
    with pytest.raises(romesim.ScenarioError, match="exactly two label columns"):
        zero_sum(tidy.assign(extra=1))


def test_tactic_matrix_goes_straight_into_zero_sum():
    from romesim.kings_of_rome import tactic_matrix

    table = tactic_matrix("kings_of_rome.battle", exact=True)
    pivoted = table[table["metric"] == "p_win"].pivot(index="roman_tactic", columns="nr_tactic", values="estimate")
    direct, by_hand = zero_sum(table), zero_sum(pivoted)
    assert direct.value == pytest.approx(by_hand.value) == pytest.approx(float(table.attrs["equilibrium"]["p_win"]))
    assert direct.row.tolist() == pytest.approx(by_hand.row.tolist())


def test_one_equilibrium_type_with_a_notebook_view():
    pennies = zero_sum([[1, -1], [-1, 1]])
    sexes = bimatrix([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    assert all(type(e) is type(pennies) for e in sexes)
    pure = next(e for e in sexes if e.row_support == (0,))
    assert (pure.value, pure.column_value) == (2, 1) and (pure.row_payoff, pure.column_payoff) == (2, 1)
    html = pennies._repr_html_()
    assert "<table" in html and "value 0.0000" in html and "column" in repr(pennies)
    assert pennies.strategies()["probability"].tolist() == [0.5, 0.5, 0.5, 0.5]
