"""The scenario cases every benchmark plays, each with its plain-Python twin from ``python_loops``.

``params`` are both the scenario's parameters and the keyword arguments of ``play``, so the kernel and the loop
play the same game. A case without a hand-written ``play`` is measured against the scenario's plain-Python
reference procedure driven by ``random`` (``python_loops.reference_player``).
"""
from typing import Callable, NamedTuple

import romesim

from .python_loops import play_ignominy, play_siege, play_treason, reference_player


class Case(NamedTuple):
    scenario: str
    case: str
    params: dict
    play: Callable = None
    nojit: bool = False  # whole games: measured against the same kernel run with NUMBA_DISABLE_JIT=1

    def build(self):
        return romesim.scenario(self.scenario, **self.params)

    def python_loop(self):
        """``(play, kwargs)`` for ``run_loop``."""
        if self.play is not None:
            return self.play, self.params
        return reference_player(self.build()), {}


CASES = (
    Case("kings_of_rome.siege", "default", {}, play_siege),
    # a leader in the city, NR units to lose and Astutia rerolls: the branchiest path through the siege
    Case("kings_of_rome.siege", "leader_astutia", {"leader": 2, "nr_units": 2, "astutia": 2}, play_siege),
    Case("kings_of_rome.treason", "default", {}, play_treason),
    Case("kings_of_rome.ignominy", "default", {}, play_ignominy),
    Case("kings_of_rome.pillage", "king_two_tokens", {"garrison": 3, "units": [2]}),
    Case("kings_of_rome.intimidation", "default", {}),
    Case("kings_of_rome.corruption", "default", {}),
    Case("kings_of_rome.naval", "default", {}),
    Case("kings_of_rome.naval", "six_vs_six", {"roman": [3, 4, 2, 3, 5, 3], "nr": [3, 3, 4, 2, 3, 4]}),
    Case("kings_of_rome.spolia", "default", {}),
    Case("kings_of_rome.horatii", "default", {}),
    Case("kings_of_rome.horatii", "volley", {"duel_alternation": "volley"}),
    Case("kings_of_rome.cocles", "raid", {"attempt": "raid"}),
    Case("kings_of_rome.mucius", "default", {}),
    Case("kings_of_rome.inauguratio", "default", {}),
    Case("kings_of_rome.senate", "default", {}),
    Case("semper_victor.initiative", "default", {}),
    Case("semper_victor.sequences", "default", {}),
    Case("semper_victor.war_draw", "ten_turns", {"turns": 10}),
    Case("semper_victor.assassination", "guarded_twice", {"bodyguard": "holder", "attempts": 2}),
    Case("semper_victor.plague", "default", {}),
    Case("semper_victor.constantinople", "default", {}),
    Case("semper_victor.succession", "default", {}),
    Case("semper_victor.usurpation", "default", {}),
    Case("semper_victor.battle", "p8_default", {}),
    Case("kings_of_rome.battle", "romulus_vs_latins", {}, nojit=True),
    Case("kings_of_rome.battle", "etruscans_melee", {"nr_units": [{"kind": "infantry", "virtus": 4},
                                                                  {"kind": "infantry", "virtus": 3},
                                                                  {"kind": "cavalry", "virtus": 3},
                                                                  {"kind": "cavalry", "virtus": 3}],
                                                     "nr_people": "etruscans",
                                                     "vanguard_model": "melee_until_side_wiped"}, nojit=True),
    Case("kings_of_rome.ambush", "default", {}, nojit=True),
    Case("jugule.duel", "retiarius_secutor", {"a": "retiarius", "b": "secutor"}, nojit=True),
    # the full kit: a Dimachaerus' double attacks against a Laquearius' lasso and shield bash
    Case("jugule.duel", "dimachaerus_laquearius", {"a": "dimachaerus", "b": "laquearius"}, nojit=True),
    Case("vox_populi.game", "default", {}, nojit=True),
    Case("kings_of_rome.campaign", "sensible", {}, nojit=True),
    Case("vox_populi.game", "six_seats", {"players": 6}, nojit=True),
)


def cases_of(scenario):
    return [c for c in CASES if c.scenario == scenario]
