"""Kings of Rome (solo rules): the dice procedures as scenarios.

``kings_of_rome.siege`` (5.5), ``kings_of_rome.treason`` (6.3), ``kings_of_rome.ignominy`` (5.7.11).
"""
from .scenarios import Ignominy, Siege, Treason

__all__ = ["Siege", "Treason", "Ignominy"]
