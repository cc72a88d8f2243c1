"""Tactic analysis of a Kings of Rome battle (KoR 5.7.3): the 2x2 payoff table of the tactic markers.

``tactic_matrix`` plays (or solves exactly) the battle four times, pinning the Roman tactic (DP-B04, built-ins
``attack``/``defence``) and the NR tactic (``nr_tactic``, built-ins ``attack``/``defence``), with common random
numbers: every cell uses the same seed, so game ``g`` of each cell draws from the same dice stream. It then names
the Roman best response to the rules' random NR draw (KOR-A19 ``nr_tactic_draw``) and the equilibrium of the
zero-sum game on ``p_win`` that the battle would be if the NR side chose its marker strategically.
"""
from fractions import Fraction

import pandas as pd

from ..analysis.equilibria import zero_sum
from ..core.engine import _as_scenario, simulate
from ..core.engine import exact as exact_result
from ..core.errors import PolicyError, ScenarioError

TACTICS = ("attack", "defence")
METRICS = ("p_win", "vp")
PINNED = ("tactic", "nr_tactic")


def zero_sum_equilibrium(matrix):
    """Equilibrium of the 2x2 zero-sum game ``matrix[i][j]`` (the row player maximises, the column player
    minimises): ``{"row": P(row 0), "column": P(column 0), "value": value of the game}``, from
    ``romesim.analysis.equilibria.zero_sum`` (a saddle point gives pure strategies, otherwise the closed form;
    Fractions stay exact)."""
    equilibrium = zero_sum(matrix)
    return {"row": equilibrium.row[0], "column": equilibrium.column[0], "value": equilibrium.value}


def nr_attack_probability(battle, roman_tactic):
    """P(the NR marker is ATTACK) under the rules' draw (KOR-A19) once Rome has chosen ``roman_tactic``."""
    if battle.nr_tactic_draw == "coin_flip":
        return Fraction(1, 2)
    attack, defence = battle.tactic_pool_attack, battle.tactic_pool_defence
    if roman_tactic == "attack":
        attack -= 1
    else:
        defence -= 1
    return Fraction(attack, attack + defence)


def best_response(matrix, p_attack):
    """The Roman tactic with the higher expected payoff when the NR marker is ATTACK with probability
    ``p_attack[roman tactic]``: ``(tactic, {tactic: expected payoff})``; ``attack`` on a tie."""
    expected = {t: p_attack[t] * matrix[i][0] + (1 - p_attack[t]) * matrix[i][1] for i, t in enumerate(TACTICS)}
    return ("attack" if expected["attack"] >= expected["defence"] else "defence"), expected


def tactic_matrix(battle, n=100_000, seed=0, exact=False, policies=None):
    """The 2x2 table of the tactic markers of ``battle`` (a ``kings_of_rome.battle`` scenario or its name).

    Returns a tidy DataFrame with columns ``roman_tactic, nr_tactic, metric, estimate, ci_low, ci_high`` (metrics
    ``p_win`` and ``vp``; exact values have ``ci_low == ci_high``). ``policies`` fixes the other decision points;
    ``tactic`` and ``nr_tactic`` are pinned per cell and may not be given. ``exact=True`` solves each cell with
    ``romesim.exact`` instead of playing ``n`` games. The frame's ``attrs`` hold:

    * ``best_response``: ``{"tactic", "expected": {tactic: p_win}, "p_nr_attack": {tactic: P(NR ATTACK)}}``,
      the Roman tactic with the higher p_win against the rules' NR draw (KOR-A19);
    * ``equilibrium``: ``{"p_roman_attack", "p_nr_attack", "p_win"}``, the mixed strategies and value of the
      zero-sum game on p_win if the NR chose its marker to minimise Rome's p_win.
    """
    battle = _as_scenario(battle)
    if not all(name in {dp.name for dp in battle.decision_points} for name in PINNED):
        raise ScenarioError(f"battle: {battle.name} has no tactic decision points; expected a kings_of_rome.battle "
                            "scenario")
    policies = dict(policies or {})
    for name in PINNED:
        if name in policies:
            raise PolicyError(f"policies[{name!r}]: the tactic matrix pins {name!r} in each cell; leave it out")
    rows, p_win = [], {}
    for roman in TACTICS:
        for nr in TACTICS:
            cell = {**policies, "tactic": roman, "nr_tactic": nr}
            result = exact_result(battle, policies=cell) if exact else simulate(battle, n, seed, policies=cell)
            summary = result.summary().set_index("metric")
            for metric in METRICS:
                row = summary.loc[metric]
                rows.append({"roman_tactic": roman, "nr_tactic": nr, "metric": metric, "estimate": row["estimate"],
                             "ci_low": row["ci_low"], "ci_high": row["ci_high"]})
            p_win[(roman, nr)] = result.exact_values["p_win"] if exact else result["p_win"]
    table = pd.DataFrame(rows, columns=["roman_tactic", "nr_tactic", "metric", "estimate", "ci_low", "ci_high"])
    matrix = [[p_win[(r, t)] for t in TACTICS] for r in TACTICS]
    draw = {t: nr_attack_probability(battle, t) for t in TACTICS}
    tactic, expected = best_response(matrix, draw if exact else {t: float(p) for t, p in draw.items()})
    table.attrs["best_response"] = {"tactic": tactic, "expected": expected, "p_nr_attack": draw}
    equilibrium = zero_sum_equilibrium(matrix)
    table.attrs["equilibrium"] = {"p_roman_attack": equilibrium["row"], "p_nr_attack": equilibrium["column"],
                                  "p_win": equilibrium["value"]}
    return table
