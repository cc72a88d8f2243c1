"""Semper Victor (Imperator II): the seed's procedures as scenarios, and a replaceable battle.

The battle of the published rules was not found; ``semper_victor.battle`` runs the specification's PROPOSAL P8,
named as such wherever it appears.
"""
from . import scenarios  # noqa: F401  (registers the scenarios)
