"""Jugule ! gladiator duels.

``jugule.duel`` (the whole hex duel, spec 4-12), ``jugule.assault`` (one attack, with exact answers),
``jugule.career`` and ``jugule.career_ladder`` (tiro to the rudis, spec 13); ``matchup_matrix`` plays every type
against every type with common random numbers. Contract: ``docs/contracts/jugule.md``.
"""
from .assault import Assault
from .career import Career, CareerLadder, career_table, survival_curves
from .matchups import ap_sensitivity, balance_summary, matchup_matrix, plot_matchups, side_effect
from .scenarios import Duel

__all__ = ["Duel", "Assault", "Career", "CareerLadder", "career_table", "survival_curves", "matchup_matrix",
           "balance_summary", "plot_matchups", "ap_sensitivity", "side_effect"]
