"""asv suite: ``romesim.simulate`` on each scenario case, and the raw d6 rate, on one and on all numba threads.

``N`` is read at call time, so a test can shrink it. ``setup`` plays a few games first: compiling (or loading the
on-disk cache) belongs to the setup, not to the timing.
"""
import numba

import romesim

from . import dice
from .cases import cases_of

N = 1_000_000  # games per timed call: tens of milliseconds per call at current speeds
THREADS = sorted({1, numba.config.NUMBA_NUM_THREADS})


class _Simulate:
    scenario_name = None
    param_names = ["case", "threads"]

    def setup(self, case, threads):
        numba.set_num_threads(threads)
        self.scenario = {c.case: c for c in cases_of(self.scenario_name)}[case].build()
        romesim.simulate(self.scenario, 1000, progress=False)

    def time_simulate(self, case, threads):
        romesim.simulate(self.scenario, N, progress=False)


class Siege(_Simulate):
    scenario_name = "kings_of_rome.siege"
    params = [[c.case for c in cases_of(scenario_name)], THREADS]


class Treason(_Simulate):
    scenario_name = "kings_of_rome.treason"
    params = [[c.case for c in cases_of(scenario_name)], THREADS]


class Ignominy(_Simulate):
    scenario_name = "kings_of_rome.ignominy"
    params = [[c.case for c in cases_of(scenario_name)], THREADS]


class Dice:
    """The raw d6 rate: ``N`` games of ``dice.DICE_PER_GAME`` d6 each from per-game streams."""
    params = [THREADS]
    param_names = ["threads"]

    def setup(self, threads):
        numba.set_num_threads(threads)
        dice.roll(1000)

    def time_roll_d6(self, threads):
        dice.roll(N)
