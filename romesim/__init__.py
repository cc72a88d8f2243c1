"""romesim: plays Roman-era tabletop wargames millions of times to answer designers' questions.

    >>> import romesim
    >>> siege = romesim.scenario("kings_of_rome.siege", garrison=2)
    >>> romesim.simulate(siege, n=100_000, seed=1).summary()
    >>> romesim.exact(siege)["p_win"]          # 4/9 (spec WE-1)
"""
from .core import cache  # noqa: F401 (first: numba must cache outside the package, see core/cache.py)
from . import analysis, jugule, kings_of_rome, semper_victor, vox_populi
from .analysis import compare, store
from .analysis.sweep import Sweep, sweep
from .core.engine import exact, reference, simulate, warm
from .core.errors import ExactNotSupported, PolicyError, RomesimError, ScenarioError
from .core.machine import GameState, new_game
from .core.result import Result
from .core.rng import GENERATOR
from .core.scenario import Scenario, describe, list_scenarios, load_toml, scenario, state_index
from .core.trace import Trace, trace
from .core.version import VERSION as __version__  # noqa: F401 (the package attribute)

__all__ = ["simulate", "warm", "exact", "reference", "trace", "Trace", "new_game", "GameState", "scenario", "describe",
           "state_index", "list_scenarios", "load_toml", "Result", "Scenario",
           "sweep", "Sweep", "compare", "store", "analysis",
           "RomesimError", "ScenarioError", "PolicyError", "ExactNotSupported", "GENERATOR", "kings_of_rome",
           "semper_victor", "jugule", "vox_populi"]
