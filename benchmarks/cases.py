"""The scenario cases every benchmark plays, each with its plain-Python twin from ``python_loops``.

``params`` are both the scenario's parameters and the keyword arguments of ``play``, so the kernel and the loop
play the same game.
"""
from typing import Callable, NamedTuple

import romesim

from .python_loops import play_ignominy, play_siege, play_treason


class Case(NamedTuple):
    scenario: str
    case: str
    params: dict
    play: Callable

    def build(self):
        return romesim.scenario(self.scenario, **self.params)


CASES = (
    Case("kings_of_rome.siege", "default", {}, play_siege),
    # a leader in the city, NR units to lose and Astutia rerolls: the branchiest path through the siege
    Case("kings_of_rome.siege", "leader_astutia", {"leader": 2, "nr_units": 2, "astutia": 2}, play_siege),
    Case("kings_of_rome.treason", "default", {}, play_treason),
    Case("kings_of_rome.ignominy", "default", {}, play_ignominy),
)


def cases_of(scenario):
    return [c for c in CASES if c.scenario == scenario]
