"""The matchup matrix of the gladiator types: P(row type beats column type) in ``jugule.duel``, with intervals.

Common random numbers: every cell is played from the same ``seed``, so game ``g`` of every cell draws from the
same dice stream and differences between cells are not blurred by independent noise.

Both orders: the set-up of 14.1 is the same seen from either side (G2's hex and facing are G1's turned by 180
degrees), the initiative is rolled each turn and the AP split is simultaneous (JUG-A4), but a bot's choices may
still depend on which side it plays, so the sides are not assumed interchangeable. When both sides have the same
rank, bonus and policies, each unordered pair is played in both orders, half of ``n`` each way (the first type as
A in games ``0 .. ceil(n/2) - 1``, as B in games ``0 .. floor(n/2) - 1``: the same dice streams both ways), and
both cells are those ``n`` games: ``p_win(B, A) == p_loss(A, B)`` exactly. ``p_win_as_a`` and ``p_win_as_b``
keep the row type's win rate in each order, and ``side_effect`` compares them. When the two sides differ
(per-side parameters, per-side policies or ``allocation = "g1_then_g2_open"``) every ordered cell is played as its
own duel with the row type as A. A diagonal cell is a type against itself, played once.
"""
import numpy as np
import pandas as pd

from ..analysis.equilibria import zero_sum
from ..core.engine import simulate
from ..core.errors import ScenarioError
from ..core.result import wilson
from ..core.scenario import get

DUEL = "jugule.duel"
COLUMNS = ["a", "b", "p_win", "ci_low", "ci_high", "p_loss", "p_both_out", "n", "p_win_as_a", "n_as_a", "p_win_as_b",
           "n_as_b"]


def type_ids():
    """The gladiator types of ``data/jugule_gladiators.csv``, in table order."""
    from .career import TYPE_IDS
    return TYPE_IDS


def _types(types):
    known = type_ids()
    chosen = known if types is None else tuple(types)
    if len(chosen) == 0:
        raise ScenarioError("types: an empty list is not allowed; expected at least one gladiator type")
    for t in chosen:
        if t not in known:
            raise ScenarioError(f"types: {t!r} is not allowed; expected gladiator types among {', '.join(known)}")
    if len(set(chosen)) != len(chosen):
        raise ScenarioError(f"types: {list(chosen)} lists a type twice")
    return chosen


def is_symmetric(policies, duel_params):
    """Whether the two sides have the same rank, bonus, policies and a simultaneous split, so that a pair may be
    played in both orders and pooled (see the module text)."""
    for key, value in duel_params.items():
        if key.endswith("_a") and duel_params.get(key[:-2] + "_b", None) != value:
            return False
        if key.endswith("_b") and duel_params.get(key[:-2] + "_a", None) != value:
            return False
    if duel_params.get("allocation", "simultaneous") != "simultaneous":
        return False
    policies = dict(policies or {})
    for key, value in policies.items():
        side, _, point = key.partition("_")
        other = {"a": "b", "b": "a"}.get(side)
        if other is None or policies.get(f"{other}_{point}") != value:
            return False
    return True


def _cell(a, b, as_a, as_b):
    """One cell from the row type's counts ``(wins, losses, both out, n)`` as A and as B (``None``: not played,
    and its win rate is None, which stays valid JSON)."""
    parts = [c for c in (as_a, as_b) if c is not None]
    wins, losses, both, n = (sum(c[i] for c in parts) for i in range(4))
    low, high = wilson(wins, n)
    return {"a": a, "b": b, "p_win": wins / n, "ci_low": low, "ci_high": high, "p_loss": losses / n,
            "p_both_out": both / n, "n": n,
            "p_win_as_a": as_a[0] / as_a[3] if as_a else None, "n_as_a": as_a[3] if as_a else 0,
            "p_win_as_b": as_b[0] / as_b[3] if as_b else None, "n_as_b": as_b[3] if as_b else 0}


def _counts(a, b, n, seed, policies, workers, duel_params):
    """A's ``(wins, losses, both out, n)`` over ``n`` duels of ``a`` (side A) against ``b``."""
    for key in ("a", "b"):
        if key in duel_params:
            raise ScenarioError(f"{key}: set the gladiators with types=, not as a duel parameter")
    result = simulate(get(DUEL).from_dict({**duel_params, "a": a, "b": b}), n, seed, policies=policies,
                      workers=workers)
    return [int(result.sums[result.metrics.index(m)]) for m in ("p_win", "p_loss", "p_both_out")] + [n]


def matchup_matrix(types=None, n=10_000, seed=0, policies=None, workers=None, **duel_params):
    """A tidy DataFrame, one row per ordered pair (a, b): ``p_win`` (a beats b) with its Wilson 95 % interval,
    ``p_loss``, ``p_both_out`` and ``n``, then a's win rate as side A and as side B with their game counts
    (``p_win_as_a, n_as_a, p_win_as_b, n_as_b``). ``types`` defaults to all 18 types; ``duel_params`` are
    parameters of ``jugule.duel`` (ranks, bonuses, rule options), ``policies`` its policies. With both sides alike
    a pair plays half of ``n`` in each order (module text)."""
    chosen = _types(types)
    symmetric = is_symmetric(policies, duel_params)
    rows = []
    for i, a in enumerate(chosen):
        for b in chosen if not symmetric else chosen[i:]:
            if not symmetric or a == b:
                first = _counts(a, b, n, seed, policies, workers, duel_params)
                rows.append(_cell(a, b, first, None))
                if a == b and symmetric:  # the same games seen from B: the type as B wins when B wins
                    rows[-1].update(p_win_as_b=first[1] / n, n_as_b=n)
                continue
            n_first, n_second = (n + 1) // 2, n // 2
            first = _counts(a, b, n_first, seed, policies, workers, duel_params)
            second = _counts(b, a, n_second, seed, policies, workers, duel_params) if n_second else None
            flip = (lambda c: None if c is None else [c[1], c[0], c[2], c[3]])
            rows.append(_cell(a, b, first, flip(second)))
            rows.append(_cell(b, a, second, flip(first)))
    frame = pd.DataFrame(rows, columns=COLUMNS)
    order = {t: k for k, t in enumerate(chosen)}
    frame = frame.sort_values(["a", "b"], key=lambda s: s.map(order)).reset_index(drop=True)
    frame.attrs.update(seed=seed, n=n, mirrored=symmetric, both_orders=symmetric)
    return frame


def side_effect(frame):
    """How much playing side A rather than side B is worth, from a frame played in both orders.

    One row per unordered pair (a, b), a before b in the frame's order: ``p_as_a`` (a wins as A), ``p_as_b`` (a
    wins as B), ``gap = p_as_a - p_as_b`` with its standard error and ``z = gap / se``. ``attrs`` hold ``mean_gap``
    (over the pairs) and its standard error ``mean_se``. Without a side effect every gap is 0 up to noise."""
    if not frame.attrs.get("both_orders", False):
        raise ScenarioError("frame: a side effect needs a matrix played in both orders (both sides alike)")
    order = list(dict.fromkeys(frame["a"]))
    rank = {t: k for k, t in enumerate(order)}
    pairs = frame[frame["a"].map(rank) < frame["b"].map(rank)]
    rows = []
    for cell in pairs.itertuples():
        pa, pb, na, nb = cell.p_win_as_a, cell.p_win_as_b, cell.n_as_a, cell.n_as_b
        se = np.sqrt(pa * (1 - pa) / na + pb * (1 - pb) / nb) if na and nb else np.nan
        gap = pa - pb
        rows.append({"a": cell.a, "b": cell.b, "p_as_a": pa, "p_as_b": pb, "gap": gap, "se": se,
                     "z": gap / se if se > 0 else np.nan, "n_as_a": na, "n_as_b": nb})
    out = pd.DataFrame(rows, columns=["a", "b", "p_as_a", "p_as_b", "gap", "se", "z", "n_as_a", "n_as_b"])
    out.attrs.update(mean_gap=float(out["gap"].mean()) if len(out) else np.nan,
                     mean_se=float(np.sqrt((out["se"] ** 2).sum()) / len(out)) if len(out) else np.nan)
    return out


def win_matrix(frame, value="p_win"):
    """The square table of ``value`` (rows: a, columns: b) in the frame's type order."""
    order = list(dict.fromkeys(frame["a"]))
    return frame.pivot(index="a", columns="b", values=value).loc[order, order]


def balance_summary(frame):
    """Per type: the average win rate against the other types (the diagonal left out) and its rank; and the
    overall balance figures: ``std`` and ``spread`` (max - min) of those averages. Perfect balance gives 0.

    Returns ``(per_type DataFrame sorted strongest first, {"std": ..., "spread": ..., "mean": ...})``.
    """
    off = frame[frame["a"] != frame["b"]]
    if off.empty:
        raise ScenarioError("types: a balance summary needs at least two types")
    per_type = off.groupby("a", sort=False).agg(avg_win=("p_win", "mean"), avg_loss=("p_loss", "mean"),
                                                 worst=("p_win", "min"), best=("p_win", "max"))
    per_type = per_type.sort_values("avg_win", ascending=False)
    per_type.index.name = "type"
    per_type = per_type.reset_index()
    averages = per_type["avg_win"].to_numpy()
    overall = {"std": float(np.std(averages)), "spread": float(averages.max() - averages.min()),
               "mean": float(averages.mean())}
    return per_type, overall


def type_equilibrium(frame):
    """Which types to pick, and how often, when each side chooses its gladiator type knowing the matrix: the
    zero-sum game whose payoff to side A is ``p_win - p_loss`` of cell (a, b) (``romesim.analysis.zero_sum``).

    Counting the other duels (both out, unfinished) as half a win instead, ``p_win + (1 - p_win - p_loss) / 2 =
    (1 + p_win - p_loss) / 2`` is the same payoff rescaled: the same strategies, value ``(1 + value) / 2``. A
    mirrored frame makes the game symmetric (value about 0, both sides the same mix). The matrix is estimated,
    so types whose cells lie within their intervals of each other may swap in and out of the support with the
    seed. Returns one row per type: ``type, p_a, p_b`` (how often side A and side B pick it); ``attrs`` hold
    ``value`` (net) and ``value_score`` (draws half) and the ``equilibrium`` itself."""
    net = win_matrix(frame) - win_matrix(frame, "p_loss")
    if net.isna().to_numpy().any():
        raise ScenarioError("frame: the matchup table misses some cells; expected every ordered pair of its types")
    equilibrium = zero_sum(net)
    out = pd.DataFrame({"type": list(net.index), "p_a": equilibrium.row.to_numpy(),
                        "p_b": equilibrium.column.to_numpy()})
    out.attrs.update(value=equilibrium.value, value_score=(1 + equilibrium.value) / 2, equilibrium=equilibrium)
    return out


def plot_matchups(frame, ax=None, annotate=True, fontsize=5):
    """A heatmap of ``p_win`` (row type beats column type), each cell annotated with the estimate and its 95 %
    interval. Returns the matplotlib Axes."""
    import matplotlib.pyplot as plt

    matrix = win_matrix(frame)
    low, high = win_matrix(frame, "ci_low"), win_matrix(frame, "ci_high")
    size = len(matrix)
    if ax is None:
        _, ax = plt.subplots(figsize=(1.0 + 0.62 * size, 0.6 + 0.55 * size))
    image = ax.imshow(matrix.to_numpy(), cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(size), matrix.columns, rotation=60, ha="right")
    ax.set_yticks(range(size), matrix.index)
    ax.set_xlabel("opponent")
    ax.set_ylabel("gladiator")
    if annotate:
        for i in range(size):
            for j in range(size):
                p = matrix.iat[i, j]
                ax.text(j, i, f"{p:.2f}\n{low.iat[i, j]:.2f}–{high.iat[i, j]:.2f}", ha="center", va="center",
                        fontsize=fontsize, color="white" if abs(p - 0.5) > 0.3 else "black")
    ax.figure.colorbar(image, ax=ax, fraction=0.04, label="P(row type wins)")
    ax.set_title(f"Jugule ! matchups, n = {frame['n'].iat[0]:,} duels per cell")
    return ax


def as_custom(type_id, ap_delta=0, **duel_params):
    """The type as a custom gladiator table (contract: ``a``/``b`` may be tables), with ``ap_delta`` more AP.

    Loadout options among ``duel_params`` are applied first, so the copy carries what the type carries."""
    from .gladiators import CARRIED, gladiator_spec

    scenario = get(DUEL).from_dict({k: v for k, v in duel_params.items() if k not in ("a", "b")})
    spec = gladiator_spec("a", type_id, scenario.options())
    table = {k: spec[k] for k in ("shield", "weapons", "javelins", "smooth_helmet", "scythe",
                                  "head", "thorax", "left_arm", "right_arm", "left_leg", "right_leg")}
    table["weapons"] = [w for w in table["weapons"] if w in CARRIED]  # the scythe is a flag, not a weapon
    table["ap"] = spec["ap"] + ap_delta
    if not 1 <= table["ap"] <= 20:
        raise ScenarioError(f"ap_delta: {ap_delta} gives a {type_id} {table['ap']} AP; expected 1 to 20 in all")
    return table


def ap_sensitivity(type_id, deltas=(-1, 1), opponents=None, n=10_000, seed=0, policies=None, **duel_params):
    """How one type's row of the matrix moves when its AP changes by each of ``deltas``.

    The type plays as a custom copy of itself (``as_custom``), at its own AP and at AP + delta, against each
    opponent, every duel from the same ``seed``: game ``g`` of the changed copy uses the dice of game ``g`` of
    the baseline (common random numbers), so the paired difference has a much smaller error than two
    independent runs. Returns a tidy DataFrame: ``delta, b, p_win, change`` (p_win minus the baseline's) and its
    95 % interval ``change_low, change_high`` from the per-game differences.
    """
    chosen = _types(opponents)
    if type_id not in type_ids():
        raise ScenarioError(f"type_id: {type_id!r} is not allowed; expected one of {', '.join(type_ids())}")
    rows = []
    for b in chosen:
        games = {}
        for delta in (0, *deltas):
            scenario = get(DUEL).from_dict({**duel_params, "a": as_custom(type_id, delta, **duel_params), "b": b})
            games[delta] = simulate(scenario, n, seed, policies=policies, keep=True).outcomes["p_win"].to_numpy()
        for delta in deltas:
            diff = games[delta].astype(np.float64) - games[0]
            half = 1.959963984540054 * diff.std(ddof=1) / np.sqrt(n) if n > 1 else np.nan
            rows.append({"type": type_id, "delta": delta, "b": b, "p_win": games[delta].mean(),
                         "baseline": games[0].mean(), "change": diff.mean(), "change_low": diff.mean() - half,
                         "change_high": diff.mean() + half, "n": n})
    return pd.DataFrame(rows)
