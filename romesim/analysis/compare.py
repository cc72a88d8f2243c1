"""Paired comparisons with common random numbers, and a sequential test of "is B fairer than A".

Two variants (two scenarios, or one scenario under two sets of policies) played from the same seed draw the same
dice in game ``g``: the outcomes of game ``g`` are paired. The variance of a paired difference is
``var(a) + var(b) - 2 cov(a, b)``; the positive correlation common dice create makes it far smaller than the
``var(a) + var(b)`` two independent runs would give, so a small rule change is measured with far fewer games.

Games are played chunk by chunk through the engine and reduced at once to exact sums of ``a``, ``b``, ``a**2``,
``b**2`` and ``a*b`` per metric (Python integers for integer outcomes), so no per-game table is held in memory and
the numbers do not depend on the chunking or on ``workers``.
"""
import math
import warnings
from dataclasses import dataclass, field

import joblib
import numba
import numpy as np
import pandas as pd

from ..core import policy as _policy
from ..core.engine import CHUNK, MAX_SEED, _as_scenario, _check_int, compiled, in_order, pieces, run_chunk
from ..core.errors import ScenarioError
from ..core.result import Z95
from .fairness import EDGE, even_value, fairness_metric, loss_metric


class PairedMoments:
    """Running sums of paired outcomes ``a`` and ``b`` for ``k`` metrics: n, Σa, Σb, Σa², Σb², Σab.

    Integer outcomes are summed as Python integers (exact, no overflow), so the sums of any split of the games
    add up to the same numbers.
    """

    def __init__(self, k):
        self.n = 0
        self.a, self.b, self.aa, self.bb, self.ab = (np.zeros(k, dtype=object) for _ in range(5))

    def add(self, xa, xb):
        """Add games: ``xa``, ``xb`` are ``(k, games)`` arrays, column ``g`` of both from the same game."""
        xa, xb = _widen(xa), _widen(xb)
        self.n += xa.shape[1]
        for name, values in (("a", xa), ("b", xb), ("aa", xa * xa), ("bb", xb * xb), ("ab", xa * xb)):
            setattr(self, name, getattr(self, name) + values.sum(axis=1).astype(object))
        return self

    def merge(self, other):
        self.n += other.n
        for name in ("a", "b", "aa", "bb", "ab"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self

    def means(self):
        return _floats(self.a / self.n), _floats(self.b / self.n)

    def covariances(self):
        """Sample variances of a and b and their covariance (n - 1 denominators; NaN below two games)."""
        n = self.n
        if n < 2:
            nan = np.full(len(self.a), math.nan)
            return nan, nan.copy(), nan.copy()
        scale = n * (n - 1)
        return tuple(_floats((n * sq - x * y) / scale)
                     for sq, x, y in ((self.aa, self.a, self.a), (self.bb, self.b, self.b), (self.ab, self.a, self.b)))


def _norm():
    from scipy.stats import norm  # imported when needed: scipy.stats alone takes a second to import
    return norm


def _widen(x):
    x = np.asarray(x)
    if x.ndim == 1:
        x = x[None, :]
    return x.astype(np.int64) if x.dtype.kind in "biu" else x.astype(np.float64)


def _floats(values):
    return np.array([float(v) for v in values], dtype=np.float64)


# ---------------------------------------------------------------- playing two variants on the same games
@dataclass(frozen=True)
class Variant:
    scenario: object
    resolved: object
    columns: tuple  # indices, in the scenario's metrics, of the compared metrics


def variants(a, b, policies_a, policies_b, metrics):
    """The two variants and the metrics both report (in a's order, with ``edge`` after them when both report
    ``p_win`` and ``p_loss``), or the named ``metrics``."""
    sa = _as_scenario(a)
    sb = sa if b is None else _as_scenario(b)
    common = [m for m in sa.metrics if m in sb.metrics]
    if not common:
        raise ScenarioError(f"metrics: {sa.name} ({', '.join(sa.metrics)}) and {sb.name} ({', '.join(sb.metrics)}) "
                            "have no metric in common; nothing to compare")
    if loss_metric(sa) and loss_metric(sb):
        common.append(EDGE)
    if metrics is not None:
        wanted = [metrics] if isinstance(metrics, str) else list(metrics)
        for m in wanted:
            if m not in common:
                raise ScenarioError(f"metrics: {m!r} is not a metric of both variants; allowed: {', '.join(common)}")
        if not wanted:
            raise ScenarioError(f"metrics: {metrics!r} is not allowed; expected metric names among "
                                f"{', '.join(common)}")
        common = list(dict.fromkeys(wanted))
    return variant(sa, policies_a, common), variant(sb, policies_b, common), tuple(common)


def variant(scenario, policies, metrics):
    """A scenario under ``policies`` (validated), reporting ``metrics`` (names it has, or ``edge``: the rows of
    ``p_win`` and ``p_loss``, whose per-game difference is the edge)."""
    columns = tuple((scenario.metrics.index("p_win"), scenario.metrics.index(loss_metric(scenario))) if m == EDGE
                    else scenario.metrics.index(m) for m in metrics)
    return Variant(scenario, _policy.resolve(scenario.decision_points, policies), columns)


def _select(outcomes, columns):
    """The per-game rows of ``columns`` (an index, or a (win, loss) pair giving win - loss)."""
    return np.stack([outcomes[c].astype(np.int64) if isinstance(c, int)
                     else outcomes[c[0]].astype(np.int64) - outcomes[c[1]] for c in columns])


def _play_chunk(base, others, seed, first, count):
    """Games ``first .. first+count-1`` of ``base`` and of each of ``others`` from the same streams, reduced to
    the paired moments (base, other) of each."""
    _, _, xa = run_chunk(base.scenario, seed, first, count, base.resolved, keep=True)
    parts = []
    for v in others:
        _, _, xb = run_chunk(v.scenario, seed, first, count, v.resolved, keep=True)
        parts.append(PairedMoments(len(base.columns)).add(_select(xa, base.columns), _select(xb, v.columns)))
    return parts


def play_paired(base, others, seed, first, stop, workers=None, moments=None):
    """Add games ``first .. stop-1`` of ``base`` paired with each of ``others`` to ``moments`` (one
    PairedMoments each; new ones when None), chunk by chunk: the base is played once for all of them."""
    moments = [PairedMoments(len(base.columns)) for _ in others] if moments is None else moments
    ranges = [(lo, min(lo + CHUNK, stop)) for lo in range(first, stop, CHUNK)]
    if workers and workers > 1 and len(ranges) > 1:
        parts = joblib.Parallel(n_jobs=workers, return_as="generator")(
            joblib.delayed(_play_chunk)(base, others, seed, lo, hi - lo) for lo, hi in ranges)
    else:
        for variant in (base, *others):
            compiled(variant.scenario, variant.resolved)
        threads = numba.get_num_threads()
        parts = (part for _, part in in_order(lambda lo, hi: _play_chunk(base, others, seed, lo, hi - lo),
                                              pieces(first, stop, CHUNK, threads), threads))
    for part in parts:
        for total, chunk in zip(moments, part):
            total.merge(chunk)
    return moments


def check_common(n, seed, workers):
    n = _check_int("n", n, 2)
    seed = _check_int("seed", seed, 0, MAX_SEED)
    if workers is not None:
        workers = _check_int("workers", workers, 1)
    return n, seed, workers


def paired_table(moments, metrics, z=Z95):
    """One row per metric: estimates, the paired difference b - a with its interval and two-sided p-value, the
    interval two independent runs would give, and the correlation of the pairs."""
    n = moments.n
    mean_a, mean_b = moments.means()
    var_a, var_b, cov = moments.covariances()
    diff = mean_b - mean_a
    with np.errstate(invalid="ignore", divide="ignore"):
        se_paired = np.sqrt(np.maximum(var_a + var_b - 2 * cov, 0.0) / n)
        se_unpaired = np.sqrt((var_a + var_b) / n)
        correlation = np.where((var_a > 0) & (var_b > 0), cov / np.sqrt(var_a * var_b), math.nan)
        # a difference that is the same in every game has no noise: p is 1 if it is zero, else 0
        p_value = np.where(se_paired > 0, 2 * _norm().sf(np.abs(diff) / se_paired), np.where(diff == 0, 1.0, 0.0))
    return pd.DataFrame({
        "metric": list(metrics), "a": mean_a, "b": mean_b, "difference": diff,
        "ci_low": diff - z * se_paired, "ci_high": diff + z * se_paired,
        "unpaired_low": diff - z * se_unpaired, "unpaired_high": diff + z * se_unpaired,
        "correlation": correlation, "n": n, "p_value": p_value})


def distance_name(metric, target):
    """The row name of the distance of ``metric`` from its even value ``target``."""
    return f"|{metric}|" if target == 0 else f"|{metric} - {target:g}|"


def _distances(moments, k, target):
    """For metric ``k`` of paired moments: the distances ``|m_A - t|``, ``|m_B - t|``, their difference B - A and
    its paired and unpaired variances per game (linearised at the sides of ``t`` the means are on; see ``sprt``)."""
    mean_a, mean_b = (m[k] for m in moments.means())
    var_a, var_b, cov = (v[k] for v in moments.covariances())
    sign_a, sign_b = (1.0 if mean_a >= target else -1.0), (1.0 if mean_b >= target else -1.0)
    da, db = abs(mean_a - target), abs(mean_b - target)
    return da, db, db - da, max(var_a + var_b - 2 * sign_a * sign_b * cov, 0.0), var_a + var_b


def _distance_row(moments, metrics, scenario, z=Z95):
    """The row of the distance from an even game of the fairness measure, or None when it is not compared."""
    metric = fairness_metric(scenario)
    if metric not in metrics:
        return None
    target = even_value(scenario, metric)
    n = moments.n
    da, db, diff, var_u, var_unpaired = _distances(moments, list(metrics).index(metric), target)
    se, se_unpaired = math.sqrt(var_u / n), math.sqrt(var_unpaired / n)
    p_value = 2 * _norm().sf(abs(diff) / se) if se > 0 else (1.0 if diff == 0 else 0.0)
    return {"metric": distance_name(metric, target), "a": da, "b": db, "difference": diff,
            "ci_low": diff - z * se, "ci_high": diff + z * se, "unpaired_low": diff - z * se_unpaired,
            "unpaired_high": diff + z * se_unpaired, "correlation": math.nan, "n": n, "p_value": p_value}


def compare(a, b=None, n=None, seed=0, *, policies_a=None, policies_b=None, metrics=None, workers=None):
    """Compare two variants on the same games: one row per metric both report.

    a, b: scenarios or registered names (``b`` defaults to ``a``, to compare two sets of policies). Both play
    games ``0 .. n-1`` from ``seed`` (positional, as in ``simulate``): game ``g`` of both draws the same dice
    (common random numbers), so the per-game differences give a paired 95 % interval. metrics: a name or a list
    (default: every common metric, then for games reporting both sides' wins the ``edge`` p_win - p_loss). When the
    fairness measure (``edge``, else ``p_win``) is compared, a last row gives its distance from an even game,
    ``|edge|`` or ``|p_win - 0.5|``: a negative difference means B is fairer. workers: processes over chunks of
    games (joblib/loky); the numbers do not depend on it.

    Columns: ``metric, a, b`` (the two estimates), ``difference`` (b - a), ``ci_low, ci_high`` (paired normal
    interval), ``unpaired_low, unpaired_high`` (the interval the same games would give as independent samples:
    what the pairing saves), ``correlation`` (of the paired outcomes; NaN when one is constant), ``n``,
    ``p_value`` (paired, two-sided, normal).
    """
    if n is None:
        raise ScenarioError("n: missing; expected the number of games per variant, an integer >= 2 "
                            "(compare(a, b, n) or n=...)")
    n, seed, workers = check_common(n, seed, workers)
    va, vb, common = variants(a, b, policies_a, policies_b, metrics)
    moments = play_paired(va, [vb], seed, 0, n, workers)[0]
    table = paired_table(moments, common)
    same_measure = fairness_metric(va.scenario) == fairness_metric(vb.scenario)
    row = _distance_row(moments, common, va.scenario) if same_measure else None
    if row is not None:
        table = pd.concat([table, pd.DataFrame([row])], ignore_index=True)
    return table


# ---------------------------------------------------------------- the sequential test
TESTS = {"fairer": ("B fairer", "not fairer"), "stronger": ("B stronger", "not stronger")}


@dataclass
class SPRTResult:
    """The outcome of ``sprt``: the decision, the games per variant it took, and the estimates at the stop."""

    decision: str  # "B fairer" / "not fairer", "B stronger" / "not stronger", or "undecided"
    n: int
    llr: float
    lower: float
    upper: float
    metric: str
    target: float  # the even value (fairer); None for the stronger test
    delta: float
    alpha: float
    beta: float
    a: float
    a_ci: tuple
    b: float
    b_ci: tuple
    difference: float  # fairer: D = |a - target| - |b - target|; stronger: D = b - a
    difference_ci: tuple
    fixed_n: float  # games a fixed-sample test with the same alpha, beta and delta would need
    history: pd.DataFrame = field(repr=False)
    test: str = "fairer"

    def _lines(self):
        goal = f"target {self.target:g}, " if self.test == "fairer" else ""
        d = ("D = |A - target| - |B - target|" if self.test == "fairer" else "D = B - A")
        return [f"SPRT \"B {self.test} than A\" on {self.metric} ({goal}delta {self.delta:g}, alpha {self.alpha:g}, "
                f"beta {self.beta:g}): {self.decision} after n={self.n:,} games per variant",
                f"  A = {self.a:.5f} [{self.a_ci[0]:.5f}, {self.a_ci[1]:.5f}]",
                f"  B = {self.b:.5f} [{self.b_ci[0]:.5f}, {self.b_ci[1]:.5f}]",
                f"  {d} = {self.difference:.5f} [{self.difference_ci[0]:.5f}, {self.difference_ci[1]:.5f}]",
                f"  log-likelihood ratio {self.llr:.3f}, boundaries [{self.lower:.3f}, {self.upper:.3f}]; "
                f"a fixed-n test would need about {self.fixed_n:,.0f} games"]

    def __repr__(self):
        return "\n".join(self._lines())

    def _repr_html_(self):
        import html

        head, *rest = self._lines()
        return f"<b>{html.escape(head)}</b><pre>{html.escape(chr(10).join(line.strip() for line in rest))}</pre>"


def _check_fraction(name, value, low=0.0, high=1.0):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not low < value < high:
        raise ScenarioError(f"{name}: {value!r} is not allowed; expected a number strictly between {low} and {high}")
    return float(value)


def _check_number(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not math.isfinite(value):
        raise ScenarioError(f"{name}: {value!r} is not allowed; expected a finite number")
    return float(value)


def _check_test(test):
    if test not in TESTS:
        raise ScenarioError(f"test: {test!r} is not allowed; expected one of {', '.join(map(repr, TESTS))}")
    return test


def _sprt_settings(target, delta, alpha, beta, batch, max_n, test="fairer"):
    test = _check_test(test)
    target = _check_number("target", target) if test == "fairer" else None
    delta = _check_number("delta", delta)
    if not delta > 0:
        raise ScenarioError(f"delta: {delta!r} is not allowed; expected a number > 0")
    alpha = _check_fraction("alpha", alpha, 0.0, 0.5)
    beta = _check_fraction("beta", beta, 0.0, 0.5)
    batch = _check_int("batch", batch, 2)
    max_n = _check_int("n", max_n, batch)
    return target, delta, alpha, beta, batch, max_n, test


def _looks(batch, max_n):
    looks = list(range(batch, max_n + 1, batch))
    return looks if looks[-1] == max_n else looks + [max_n]


def _sequential(moments_at, metric, target, delta, alpha, beta, batch, max_n, test, z=Z95):
    """Run the test on ``moments_at(stop)``, the paired moments of games ``0 .. stop-1`` (a PairedMoments of one
    metric that grows with each call)."""
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    rows = []
    for stop in _looks(batch, max_n):
        m = moments_at(stop)
        (mean_a,), (mean_b,) = m.means()
        (var_a,), (var_b,), (cov,) = m.covariances()
        if test == "fairer":
            # the linearisation point: the side of the target each estimate is on now (on the target: +1)
            da, db, minus_d, var_u, _ = _distances(m, 0, target)
            d = -minus_d
        else:
            d, var_u = mean_b - mean_a, max(var_a + var_b - 2 * cov, 0.0)
        if var_u > 0:
            llr = stop * delta * (d - delta / 2) / var_u
        else:  # every game so far gave the same u: D is known exactly
            llr = math.inf if d > delta / 2 else -math.inf if d < delta / 2 else 0.0
        rows.append((stop, llr, d))
        if llr >= upper or llr <= lower:
            break
    yes, no = TESTS[test]
    decision = yes if llr >= upper else no if llr <= lower else "undecided"
    se_a, se_b, se_u = (math.sqrt(v / stop) for v in (var_a, var_b, var_u))
    fixed_n = var_u * ((_norm().isf(alpha) + _norm().isf(beta)) / delta) ** 2
    return SPRTResult(decision, stop, llr, lower, upper, metric, target, delta, alpha, beta,
                      mean_a, (mean_a - z * se_a, mean_a + z * se_a), mean_b, (mean_b - z * se_b, mean_b + z * se_b),
                      d, (d - z * se_u, d + z * se_u), fixed_n, pd.DataFrame(rows, columns=["n", "llr", "D"]), test)


def sprt_paired(xa, xb, *, test="fairer", target=0.5, delta=0.02, alpha=0.05, beta=0.05, batch=1_000, metric="x"):
    """The sequential test of ``sprt`` on given paired outcomes: ``xa[g]`` and ``xb[g]`` come from the same game.

    It looks at games ``0 .. batch-1``, ``0 .. 2*batch-1``, ... up to ``len(xa)`` (the ``n``); arrays of
    numbers (0/1 for a probability). Useful to check the operating characteristic on synthetic data.
    """
    xa, xb = np.asarray(xa), np.asarray(xb)
    if xa.ndim != 1 or xa.shape != xb.shape or xa.size < 2:
        raise ScenarioError(f"xa, xb: shapes {xa.shape} and {xb.shape} are not allowed; expected two 1-d arrays of "
                            "the same length >= 2")
    settings = _sprt_settings(target, delta, alpha, beta, batch, xa.size, test)
    moments = PairedMoments(1)

    def moments_at(stop):
        return moments.add(xa[moments.n:stop], xb[moments.n:stop])

    return _sequential(moments_at, metric, *settings)


def sprt(a, b=None, n=1_000_000, seed=0, *, test="fairer", metric=None, target=None, delta=0.02, alpha=0.05,
         beta=0.05, batch=1_000, policies_a=None, policies_b=None, workers=None, max_n=None):
    r"""Sequential test of "B is fairer than A" (is ``metric`` of B closer to an even game than A's?) or, with
    ``test="stronger"``, of "B's ``metric`` is higher than A's by at least ``delta``".

    n: the most games per variant (positional, as in ``simulate``; formerly ``max_n``), seed: the dice streams.
    metric: default the fairness measure, ``"edge"`` (p_win - p_loss) for a game that may end with no winner, else
    ``"p_win"``. target: the even value, by default 0 for the edge and 0.5 for a probability of a two-outcome game
    (a mean needs one). workers: processes over chunks of a look's games (the numbers do not depend on it).

    The stronger test decides between H0: D <= 0 and H1: D >= delta for ``D = mu_B - mu_A``, with the per-game
    paired difference ``u_g = x_Bg - x_Ag`` (mean ``m_B - m_A``, variance ``var_A + var_B - 2 cov_AB``) in the same
    log-likelihood ratio as below; it stops with "B stronger", "not stronger" or "undecided".

    The fairer test:

    With ``D = |mu_A - t| - |mu_B - t|`` (t the target), the test decides between H0: D <= 0 ("not fairer") and
    H1: D >= delta ("B fairer"), playing paired games (common random numbers) in batches until it can.

    The statistic. After n paired games with running means ``m_A``, ``m_B``, take the signs
    ``s_A = sign(m_A - t)``, ``s_B = sign(m_B - t)`` (the side of the target each variant is on; +1 on it) and the
    linearised per-game difference ``u_g = s_A (x_Ag - t) - s_B (x_Bg - t)``. Its mean is exactly the plug-in
    estimate ``D^ = |m_A - t| - |m_B - t|``, and its variance is
    ``sigma_u^2 = var_A + var_B - 2 s_A s_B cov_AB`` (sample moments of the paired games: the common dice make
    ``cov_AB`` large, and ``sigma_u`` small, when A and B are on the same side of the target).

    The test. Taking ``D^ ~ N(D, sigma_u^2 / n)`` (central limit theorem, with the running variance plugged in),
    Wald's sequential probability ratio test of the least favourable simple hypotheses D = 0 against D = delta has
    the log-likelihood ratio

        llr_n = n * delta * (D^ - delta / 2) / sigma_u^2,

    increasing in D^, so its error rates bound those of the composite H0: D <= 0 and H1: D >= delta. It stops
    with "B fairer" when ``llr_n >= log((1 - beta) / alpha)``, with "not fairer" when
    ``llr_n <= log(beta / (1 - alpha))``, and reports "undecided" if ``n`` games pass first. Wald's bounds
    give error rates of at most about alpha (deciding "B fairer" when D <= 0) and beta (deciding "not fairer"
    when D >= delta). It looks only at n = batch, 2 batch, ... (and n): fewer looks overshoot the boundaries,
    which makes the test a little conservative, and the number of games never depends on chunking. When D is far
    above delta (or far below 0) it stops much sooner than the fixed-sample test of the same alpha, beta and delta,
    which needs ``sigma_u^2 ((z_{1-alpha} + z_{1-beta}) / delta)^2`` games (reported as ``fixed_n``).

    Limits. The linearisation needs each mean to be several standard errors away from the target: for a variant
    within noise of t, ``|m - t|`` is biased upwards (a folded normal) and its sign unstable, so a variant almost
    exactly on target is not reliably told apart from one ``delta`` away until n is large. A metric that is the
    same in every game of both (sigma_u = 0) is decided at the first look from D^ alone.

    Returns an ``SPRTResult``: ``decision``, ``n`` (games per variant), ``llr``, ``lower``/``upper`` boundaries,
    the estimates ``a``, ``b`` and ``difference`` (D^) with 95 % normal intervals, ``fixed_n``, and ``history``
    (a DataFrame of n, llr, D at each look).
    """
    if max_n is not None:  # the former name; n is positional, as in simulate and compare
        warnings.warn("sprt(max_n=...) is now sprt(n=...)", DeprecationWarning, stacklevel=2)
        n = max_n
    va = _as_scenario(a)
    metric = fairness_metric(va) if metric is None else metric
    if not isinstance(metric, str):
        raise ScenarioError(f"metric: {metric!r} is not allowed; expected a metric name")
    if _check_test(test) == "fairer" and target is None:
        target = even_value(va, metric)
    settings = _sprt_settings(0.0 if target is None else target, delta, alpha, beta, batch, n, test)
    seed = _check_int("seed", seed, 0, MAX_SEED)
    if workers is not None:
        workers = _check_int("workers", workers, 1)
    va, vb, _ = variants(a, b, policies_a, policies_b, [metric])
    moments = [PairedMoments(1)]

    def moments_at(stop):
        return play_paired(va, [vb], seed, moments[0].n, stop, workers, moments=moments)[0]

    return _sequential(moments_at, metric, *settings)


__all__ = ["compare", "distance_name", "sprt", "sprt_paired", "SPRTResult", "PairedMoments", "paired_table",
           "play_paired", "variant", "variants"]
