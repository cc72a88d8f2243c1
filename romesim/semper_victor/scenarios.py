"""Semper Victor scenarios: parameters, options, validation and compilation to kernel arrays.

Names, parameters, options and metrics follow ``docs/contracts/semper_victor.md``; rule options take their values
and defaults from ``data/sv_options.csv``.
"""
from pathlib import Path

from ..core.scenario import option_table

option = option_table(Path(__file__).with_name("data") / "sv_options.csv")

# @procedures
# @usurpation
# @battle
