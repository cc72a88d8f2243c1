"""Equilibria of the games a balance question turns into: which option should each side choose, and how often?

* ``zero_sum(matrix)``: the row player maximises ``matrix[i][j]``, the column player minimises it (a p_win table,
  or p_win - p_loss). Solved by linear programming (``scipy.optimize.linprog``, HiGHS dual simplex); a saddle
  point is found first by direct comparison, and a 2x2 game without one in closed form. With exact ``Fraction``
  payoffs the answer is exact: the LP names the supports and the equal-payoff conditions on them are then solved
  again as a linear system in Fractions.
* ``bimatrix(A, B)``: every Nash equilibrium of a two-player general-sum game (``nashpy``).
"""
import warnings
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational

import numpy as np
import pandas as pd

from ..core.errors import ScenarioError

TOL = 1e-9  # probabilities below this are outside the support; payoffs within it of the value are active


@dataclass(frozen=True)
class Equilibrium:
    """A mixed-strategy equilibrium, what ``zero_sum`` returns and ``bimatrix`` lists: ``row`` and ``column`` are
    probability vectors (pandas Series indexed by the strategy labels when the matrix was a DataFrame; object
    arrays of Fractions for exact input), ``value`` the row player's expected payoff and ``column_value`` the
    column player's (``-value`` in a zero-sum game), the supports the strategies played with positive probability,
    ``degenerate`` whether ``bimatrix`` found the game degenerate (its list may then miss continua of equilibria).
    """

    row: object
    column: object
    value: object
    row_support: tuple
    column_support: tuple
    column_value: object = None
    degenerate: bool = False

    @property
    def row_payoff(self):
        return self.value

    @property
    def column_payoff(self):
        return self.column_value

    def strategies(self):
        """One row per strategy of either player: ``player, strategy, probability``."""
        rows = []
        for player, vector in (("row", self.row), ("column", self.column)):
            labels = vector.index if isinstance(vector, pd.Series) else range(len(vector))
            rows += [{"player": player, "strategy": label, "probability": p} for label, p in zip(labels, vector)]
        return pd.DataFrame(rows)

    def _head(self):
        values = f"value {float(self.value):.4f}" + ("" if self.column_value is None or self.column_value == -self.value
                                                      else f", column player {float(self.column_value):.4f}")
        return f"Equilibrium ({values}" + (", degenerate game" if self.degenerate else "") + ")"

    def __repr__(self):
        return self._head() + "\n" + self.strategies().to_string(index=False)

    def _repr_html_(self):
        return f"<b>{self._head()}</b>" + self.strategies().to_html(index=False)


# bimatrix equilibria are Equilibrium objects; the old name stays for code that imported it
BimatrixEquilibrium = Equilibrium

TIDY = ("metric", "estimate", "ci_low", "ci_high", "n")


def payoff_table(frame, metric="p_win"):
    """A payoff matrix from a tidy frame with one row per cell, such as ``kings_of_rome.tactic_matrix``'s or a
    sweep's table over two axes: the first label column gives the rows, the second the columns, ``estimate`` (of
    ``metric`` where a ``metric`` column is present) the payoffs."""
    labels = [c for c in frame.columns if c not in TIDY and c != "point"]
    if "estimate" not in frame.columns or len(labels) != 2:
        raise ScenarioError(f"matrix: a tidy frame needs an 'estimate' column and exactly two label columns; got "
                            f"columns {list(frame.columns)}")
    if "metric" in frame.columns:
        if metric not in set(frame["metric"]):
            metrics = ", ".join(map(str, dict.fromkeys(frame["metric"])))
            raise ScenarioError(f"metric: {metric!r} is not in the frame; metrics: {metrics}")
        frame = frame[frame["metric"] == metric]
    row, column = labels
    if frame.duplicated([row, column]).any():
        raise ScenarioError(f"matrix: several rows share one ({row}, {column}) cell")
    table = frame.pivot(index=row, columns=column, values="estimate")
    table = table.loc[list(dict.fromkeys(frame[row])), list(dict.fromkeys(frame[column]))]  # the frame's order
    if table.isna().any().any():
        raise ScenarioError(f"matrix: some ({row}, {column}) cells are missing")
    return table


def _matrix(matrix, name="matrix", metric="p_win"):
    """``(cells as a list of lists, row labels, column labels, labelled)``."""
    if isinstance(matrix, pd.DataFrame) and "estimate" in matrix.columns:
        matrix = payoff_table(matrix, metric)
    if isinstance(matrix, pd.DataFrame):
        cells, rows, columns, labelled = matrix.to_numpy().tolist(), list(matrix.index), list(matrix.columns), True
    else:
        array = np.asarray(matrix, dtype=object)
        if array.ndim != 2:
            raise ScenarioError(f"{name}: expected a 2-D payoff table, got shape {array.shape}")
        cells, rows, columns, labelled = array.tolist(), list(range(array.shape[0])), list(range(array.shape[1])), False
    if not cells or not cells[0]:
        raise ScenarioError(f"{name}: the payoff table is empty")
    for row in cells:
        for v in row:
            if isinstance(v, bool) or not isinstance(v, (int, float, Rational, np.number)) or not np.isfinite(float(v)):
                raise ScenarioError(f"{name}: payoff {v!r} is not allowed; expected finite numbers")
    return cells, rows, columns, labelled


def _is_exact(cells):
    values = [v for row in cells for v in row]
    return any(isinstance(v, Fraction) for v in values) and all(isinstance(v, Rational) for v in values)


def _support(probabilities, labels):
    return tuple(label for p, label in zip(probabilities, labels) if p > TOL)


def _package(x, y, value, rows, columns, labelled, exact):
    if exact:
        x = np.array([Fraction(v) for v in x], dtype=object)
        y = np.array([Fraction(v) for v in y], dtype=object)
        value = Fraction(value)
    else:
        x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
        value = float(value) + 0.0  # no -0.0
    row_support, column_support = _support(x, rows), _support(y, columns)
    if labelled:
        x, y = pd.Series(x, index=rows, name="row"), pd.Series(y, index=columns, name="column")
    return Equilibrium(x, y, value, row_support, column_support, -value)


def _saddle_point(cells):
    """A cell that is the least of its row and the greatest of its column: both players' pure strategies."""
    columns = list(zip(*cells))
    for i, row in enumerate(cells):
        low = min(row)
        for j, v in enumerate(row):
            if v == low and v == max(columns[j]):
                return i, j, v
    return None


def _lp_row_strategy(payoff):
    """Maximin mixed strategy of the row player of ``payoff`` (floats): maximise v subject to x A >= v."""
    from scipy.optimize import linprog

    m, k = payoff.shape
    cost = np.zeros(m + 1)
    cost[-1] = -1.0
    upper = np.hstack([-payoff.T, np.ones((k, 1))])  # v - sum_i x_i A_ij <= 0 for every column j
    equal = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0, None)] * m + [(None, None)]
    solution = linprog(cost, A_ub=upper, b_ub=np.zeros(k), A_eq=equal, b_eq=[1.0], bounds=bounds,
                       method="highs-ds")
    if solution.status != 0:  # a bounded feasible LP always solves; anything else is a solver failure
        raise ArithmeticError(f"linear program failed: {solution.message}")
    x = np.clip(solution.x[:m], 0.0, None)
    return x / x.sum(), float(solution.x[-1])


def _solve_fractions(equations, unknowns):
    """The unique solution of a consistent linear system in Fractions (rows ``[coefficients..., rhs]``), or None
    when it is inconsistent or under-determined."""
    rows = [list(r) for r in equations]
    pivot_row, pivots = 0, []
    for col in range(unknowns):
        found = next((r for r in range(pivot_row, len(rows)) if rows[r][col] != 0), None)
        if found is None:
            return None
        rows[pivot_row], rows[found] = rows[found], rows[pivot_row]
        lead = rows[pivot_row][col]
        rows[pivot_row] = [v / lead for v in rows[pivot_row]]
        for r in range(len(rows)):
            if r != pivot_row and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[pivot_row])]
        pivots.append(pivot_row)
        pivot_row += 1
    if any(row[-1] != 0 for row in rows[pivot_row:]):
        return None
    return [rows[p][-1] for p in pivots]


def _exact_row_strategy(cells, x_float, v_float):
    """Recover the exact maximin strategy at the vertex the LP found: zero outside its support, and equal to the
    value on every column that is (numerically) a best reply."""
    m, k = len(cells), len(cells[0])
    support = [i for i in range(m) if x_float[i] > TOL]
    payoffs = [sum(x_float[i] * float(cells[i][j]) for i in range(m)) for j in range(k)]
    active = [j for j in range(k) if payoffs[j] <= v_float + TOL * (1 + abs(v_float))]
    equations = [[Fraction(cells[i][j]) for i in support] + [Fraction(-1), Fraction(0)] for j in active]
    equations.append([Fraction(1)] * len(support) + [Fraction(0), Fraction(1)])
    solution = _solve_fractions(equations, len(support) + 1)
    if solution is None:
        return None
    x = [Fraction(0)] * m
    for i, p in zip(support, solution[:-1]):
        x[i] = p
    value = solution[-1]
    if any(p < 0 for p in x) or min(sum(x[i] * cells[i][j] for i in range(m)) for j in range(k)) != value:
        return None
    return x, value


def zero_sum(matrix, metric="p_win"):
    """The equilibrium of the zero-sum game ``matrix[i][j]``: the row player maximises, the column player
    minimises. ``matrix``: a DataFrame (its labels name the strategies), a tidy frame with one row per cell
    (``tactic_matrix``'s, ``metric`` chosen; see ``payoff_table``), a list of lists or an array.

    Returns an ``Equilibrium`` (``row``, ``column``, ``value``, ``row_support``, ``column_support``). A saddle
    point gives pure strategies; a 2x2 game without one the closed form: with ``[[a, b], [c, d]]`` and
    ``D = a - b - c + d``, ``P(row 0) = (d - c) / D``, ``P(column 0) = (d - b) / D``, ``value = (a d - b c) / D``;
    larger games the two linear programs (max over x of min_j (x A)_j, min over y of max_i (A y)_i). When an
    entry is a ``Fraction`` (and all are rational), the result is exact Fractions. When several equilibria exist
    (a degenerate game), one of them is returned; the value is the same for all."""
    cells, rows, columns, labelled = _matrix(matrix, metric=metric)
    exact = _is_exact(cells)
    m, k = len(cells), len(cells[0])
    saddle = _saddle_point(cells)
    if saddle is not None:
        i, j, value = saddle
        return _package([int(r == i) for r in range(m)], [int(c == j) for c in range(k)], value, rows, columns,
                        labelled, exact)
    if (m, k) == (2, 2):
        (a, b), (c, d) = cells
        if exact:
            a, b, c, d = (Fraction(v) for v in (a, b, c, d))
        denominator = a - b - c + d  # without a saddle point the rows cross, so D is not 0
        p, q = (d - c) / denominator, (d - b) / denominator
        return _package([p, 1 - p], [q, 1 - q], (a * d - b * c) / denominator, rows, columns, labelled, exact)
    payoff = np.array([[float(v) for v in row] for row in cells])
    x, value = _lp_row_strategy(payoff)
    y, minus_value = _lp_row_strategy(-payoff.T)  # the column player maximises -A^T
    if exact:
        transposed = [[-cells[i][j] for i in range(m)] for j in range(k)]
        row_exact, column_exact = _exact_row_strategy(cells, x, value), _exact_row_strategy(transposed, y,
                                                                                             minus_value)
        if row_exact is None or column_exact is None or row_exact[1] != -column_exact[1]:
            raise ArithmeticError("zero_sum: the exact equilibrium could not be recovered from the LP's supports; "
                                  "pass floats for the numerical solution")
        return _package(row_exact[0], column_exact[0], row_exact[1], rows, columns, labelled, True)
    return _package(x, y, value, rows, columns, labelled, False)


# --------------------------------------------------------------------------- general-sum
def _degenerate(a, b, found):
    """Signs of a degenerate game: a pure strategy with two pure best replies, an equilibrium with supports of
    different sizes, or an even number of equilibria (a nondegenerate game has an odd number)."""
    def ties(payoff):  # columns of payoff are the replies to each pure strategy of the other player
        return any(np.sum(np.isclose(col, col.max(), rtol=0, atol=TOL)) > 1 for col in payoff.T)

    unequal = any(np.sum(x > TOL) != np.sum(y > TOL) for x, y in found)
    return ties(a) or ties(b.T) or unequal or len(found) % 2 == 0


def bimatrix(a, b, method="support", metric="p_win"):
    """Every Nash equilibrium of the two-player game where the row player gets ``a[i][j]`` and the column player
    ``b[i][j]`` (both maximise), by ``nashpy``: ``method="support"`` (support enumeration, default) or
    ``"vertex"`` (vertex enumeration). ``a`` and ``b`` are what ``zero_sum`` takes (tidy frames read ``metric``).
    Returns a list of ``Equilibrium`` (``value`` the row player's payoff, ``column_value`` the column player's).

    A degenerate game (a strategy with several pure best replies, or supports of unequal size) can have continua
    of equilibria that no finite list holds: each equilibrium then carries ``degenerate=True`` and a
    ``RuntimeWarning`` says so (vertex enumeration gives the extreme points of those sets)."""
    import nashpy

    if method not in ("support", "vertex"):
        raise ScenarioError(f"method: {method!r} is not allowed; expected 'support' or 'vertex'")
    cells_a, rows, columns, labelled = _matrix(a, "a", metric)
    cells_b, rows_b, columns_b, _ = _matrix(b, "b", metric)
    if (len(cells_a), len(cells_a[0])) != (len(cells_b), len(cells_b[0])):
        raise ScenarioError(f"b: shape {(len(cells_b), len(cells_b[0]))} differs from a's "
                            f"{(len(cells_a), len(cells_a[0]))}")
    if labelled and isinstance(b, pd.DataFrame) and (rows_b != rows or columns_b != columns):
        raise ScenarioError("b: its labels differ from a's")
    payoff_a = np.array([[float(v) for v in r] for r in cells_a])
    payoff_b = np.array([[float(v) for v in r] for r in cells_b])
    game = nashpy.Game(payoff_a, payoff_b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # nashpy's own even-count note; reported below instead
        enumerate_ = game.support_enumeration if method == "support" else game.vertex_enumeration
        found = [(np.clip(x, 0, None) / np.clip(x, 0, None).sum(), np.clip(y, 0, None) / np.clip(y, 0, None).sum())
                 for x, y in enumerate_()]
    degenerate = _degenerate(payoff_a, payoff_b, found)
    if degenerate:
        warnings.warn("bimatrix: the game is degenerate; it may have continua of equilibria that the list "
                      "represents only by some of their points", RuntimeWarning, stacklevel=2)
    out = []
    for x, y in found:
        if labelled:
            x_out, y_out = pd.Series(x, index=rows, name="row"), pd.Series(y, index=columns, name="column")
        else:
            x_out, y_out = x, y
        out.append(Equilibrium(x_out, y_out, float(x @ payoff_a @ y), _support(x, rows), _support(y, columns),
                               float(x @ payoff_b @ y), degenerate))
    return out


__all__ = ["Equilibrium", "BimatrixEquilibrium", "zero_sum", "bimatrix", "payoff_table"]
