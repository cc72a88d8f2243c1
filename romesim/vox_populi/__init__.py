"""Vox Populi: supporters, gladiators, matches and the emperor.

``vox_populi.game`` (``scenarios.Game``) plays whole games for 3-6 seats with a bot per seat; ``reports`` turns
games into balance tables (seat advantage, bot win rates and ratings, card impact). Contract:
``docs/contracts/vox_populi.md``.
"""
from . import reports
from .scenarios import Game

__all__ = ["Game", "reports"]
