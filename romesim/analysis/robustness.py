"""Robustness of balance findings to the bots that produced them.

A finding is a signed quantity measured from per-game outcomes, such as seat 0's win rate minus the last seat's in
Vox Populi. ``robustness`` measures each finding under each family of bots (random play, every heuristic, the
search bots at rising budgets), every player of a game played by the same family, with a 95 % interval, and marks
it robust when, under every family but random play (the heuristics and the searches), its sign and size hold: the
interval excludes 0 on the side of the ``reference`` family's estimate (the bot the finding was first stated
under), and the estimate is within a factor ``SIZE`` of the reference's (same order of size; intervals that must
overlap would fail any finding measured on enough games).

``HEADLINES`` are the findings romesim's reports state; ``Finding`` makes any other.
"""
import sys
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from tqdm import tqdm

from ..core.engine import _as_scenario, simulate
from ..core.errors import Interrupted, ScenarioError
from ..core.result import Z95
from .ladder import alike, default_bots, player_points, score
from .store import as_store

SIZE = 2.0  # a finding's size holds when every strong family's estimate is within this factor of the reference's


@dataclass(frozen=True)
class Finding:
    """``value(outcomes)``: the per-game values whose mean is the finding, from the outcomes of ``scenario``
    (with ``params``); with ``contrast``, the finding is the mean difference between the games under ``policies``
    and under ``contrast`` (the same games, common random numbers), as for a best response."""
    name: str
    scenario: str
    value: object
    params: dict = field(default_factory=dict)
    policies: dict = field(default_factory=dict)
    contrast: dict = None
    doc: str = ""


def _difference(a, b):
    return lambda o: o[a].to_numpy(np.float64) - o[b].to_numpy(np.float64)


def _edge(o):
    return o["p_win"].to_numpy(np.float64) - o["p_loss"].to_numpy(np.float64)


def _battle_score(o):
    return score(_as_scenario("kings_of_rome.battle"), o)


HEADLINES = (
    Finding("vox seat advantage, 4 seats", "vox_populi.game", _difference("p_win_seat0", "p_win_seat3"),
            {"players": 4}, doc="seat 0's win rate minus seat 3's"),
    Finding("vox seat advantage, 6 seats", "vox_populi.game", _difference("p_win_seat0", "p_win_seat5"),
            {"players": 6}, doc="seat 0's win rate minus seat 5's"),
    Finding("vox emperor by hierarchy", "vox_populi.game", _difference("p_emperor_pompee", "p_emperor_brutus"),
            {"players": 4}, doc="how much more often Pompée (first of the hierarchy) is Emperor than Brutus (last)"),
    Finding("jugule extremes", "jugule.duel", _edge, {"a": "retiarius", "b": "crupellarius"},
            doc="the strongest type's edge (win minus loss) over the weakest, retiarius against crupellarius"),
    Finding("jugule ranking", "jugule.duel", _edge, {"a": "gallus", "b": "andabata"},
            doc="a strong type's edge over a weak one, gallus against andabata"),
    Finding("battle tactic best response", "kings_of_rome.battle", _battle_score, {}, {"tactic": "defence"},
            {"tactic": "attack"}, doc="DEFENCE's score minus ATTACK's (KoR 5.7.3), the rest of the battle played "
            "by the family"),
    Finding("default battle edge", "kings_of_rome.battle", _edge, {},
            doc="the default battle's p_win minus p_loss for Rome, against the rules' NR bot"),
)


def _family_policies(scenario, bot):
    """The ``policies`` that make every player of ``scenario`` play ``bot`` (a built-in's name or a mapping of
    point names without the seat prefix, as ``default_bots`` makes them): every seat of a game whose seats play
    alike, else the first seat (the battle's Rome; the rules' NR bot keeps ``nr_tactic``)."""
    seats = tuple(scenario.seats()) if alike(scenario) else (None,)
    chosen = {}
    for seat in seats:
        prefix = seat.prefix if seat is not None else ""
        for dp in player_points(scenario, seat):
            point = dp.name[len(prefix):]
            spec = bot if isinstance(bot, str) else bot.get(point)
            if isinstance(spec, str) and spec not in dp.builtins:
                continue
            if spec is not None:
                chosen[dp.name] = spec
    return chosen


def measure(finding, bot, n, seed=0, workers=None, *, played=None, store=None):
    """``(estimate, low, high)`` of ``finding`` with every player playing ``bot``. ``played``: a dict in which the
    outcomes of the runs are kept, and taken from, by scenario, settings and policies: findings about the same
    games (Vox Populi's seat advantage and its Emperor by hierarchy) play them once. ``store``: a folder (or
    ``Store``) where the games' outcomes are kept as they are played (``Store.outcomes``), so that a stopped
    measurement resumes, and a larger ``n`` plays only the games it adds."""
    scenario = _as_scenario(finding.scenario).replace(**finding.params) if finding.params else \
        _as_scenario(finding.scenario)
    played = {} if played is None else played
    store = as_store(store)

    def outcomes(policies):
        key = (scenario.name, repr(sorted(finding.params.items())), repr(sorted(policies.items())), n, seed)
        if key not in played:
            played[key] = store.outcomes(scenario, n, seed, policies=policies, workers=workers) if store else \
                simulate(scenario, n, seed, policies=policies, keep=True, workers=workers, progress=False).outcomes
        return played[key]

    family = _family_policies(scenario, bot)
    x = finding.value(outcomes({**family, **finding.policies}))
    if finding.contrast is not None:
        x = x - finding.value(outcomes({**family, **finding.contrast}))
    mean = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / np.sqrt(x.size) if x.size > 1 else np.inf
    return mean, mean - half, mean + half


def robustness(findings=HEADLINES, n=1_000, seed=0, *, budgets=(16, 64), search="ismcts", reference="default",
               families=None, workers=None, store=None, progress=None):
    """One row per finding and bot family: ``finding, family, estimate, ci_low, ci_high``, then per finding
    ``sign_holds``, ``size_holds`` and ``robust`` (both; see the module). ``families``: ``{name: bot}`` for every
    game, else each game's ``default_bots(budgets, search)``. ``n`` games per measurement (search bots are slow:
    mind the budget). ``store``: a folder (or ``Store``) that keeps every game played, so that a table stopped
    after hours resumes where it stopped (``measure``). ``progress``: a bar over the measurements (default: on a
    terminal)."""
    rows, played, store = [], {}, as_store(store)
    if store is not None:
        store.remove_stale_partials()
    plan = []
    for finding in findings:
        bots = families if families is not None else default_bots(_as_scenario(finding.scenario), budgets, search)
        if reference not in bots:
            raise ScenarioError(f"reference: {reference!r} is not a family of {finding.name!r}; families: "
                                f"{', '.join(bots)}")
        plan += [(finding, name, bot) for name, bot in bots.items()]
    show = progress if progress is not None else sys.stderr.isatty()
    bar = tqdm(plan, unit="measurements", disable=not show, file=sys.stderr)
    try:
        for finding, name, bot in bar:
            bar.set_description(f"{finding.name} · {name}")
            estimate, low, high = measure(finding, bot, n, seed, workers, played=played, store=store)
            rows.append(dict(finding=finding.name, family=name, estimate=estimate, ci_low=low, ci_high=high))
    except KeyboardInterrupt:
        kept = (f"the games played are kept in {store.path}; rerun with the same store to resume" if store is not None
                else "no store=, so nothing is kept")
        raise Interrupted(f"interrupted: {len(rows)}/{len(plan)} measurements done; {kept}") from None
    finally:
        bar.close()
    table = pd.DataFrame(rows)
    signs, sizes = {}, {}
    for name, group in table.groupby("finding", sort=False):
        ref = group[group["family"] == reference].iloc[0]
        sign = np.sign(ref["estimate"])
        strong = group[group["family"] != "random"]
        signs[name] = bool(sign != 0 and ((strong["ci_low"] > 0) if sign > 0 else (strong["ci_high"] < 0)).all())
        ratio = strong["estimate"] / ref["estimate"] if ref["estimate"] != 0 else np.inf
        sizes[name] = bool(np.all((ratio >= 1 / SIZE) & (ratio <= SIZE)))
    table["sign_holds"] = table["finding"].map(signs)
    table["size_holds"] = table["finding"].map(sizes)
    table["robust"] = table["sign_holds"] & table["size_holds"]
    table.attrs.update(n=n, seed=seed, reference=reference, search=search, budgets=list(budgets),
                       docs={f.name: f.doc for f in findings})
    return table


__all__ = ["Finding", "HEADLINES", "measure", "robustness"]
