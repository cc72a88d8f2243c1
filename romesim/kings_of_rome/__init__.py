"""Kings of Rome (solo rules): the dice procedures as scenarios.

``kings_of_rome.siege`` (5.5), ``kings_of_rome.treason`` (6.3), ``kings_of_rome.ignominy`` (5.7.11),
``kings_of_rome.battle`` (5.7) and ``kings_of_rome.ambush`` (6.4); ``army(name)`` gives the example armies.
"""
from .armies import army
from .scenarios import Ambush, Battle, Ignominy, Siege, Treason
from .tactics import tactic_matrix

__all__ = ["Siege", "Treason", "Ignominy", "Battle", "Ambush", "army", "tactic_matrix"]
