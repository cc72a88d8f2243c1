"""The whole games for reinforcement learning and game theory: PettingZoo, Gymnasium and OpenSpiel front ends.

An optional extra: ``pip install 'romesim[rl]'`` installs PettingZoo, Gymnasium and OpenSpiel; romesim itself
needs none of them, and each module here says which it misses when it is imported without them.

* ``romesim.adapters.pettingzoo``: ``aec_env(scenario, seed=0, *, seats=None, policies=None)``, a PettingZoo AEC
  environment whose agents are the game's seats;
* ``romesim.adapters.gymnasium``: ``RomesimEnv(scenario, seat=None, seed=0, *, policies=None)``, one seat against
  the built-in (or given) policies of the others; ``gymnasium.make("romesim/Game-v0", scenario=...)`` once the
  module is imported;
* ``romesim.adapters.openspiel``: ``openspiel_game(scenario, seed=0, *, policies=None)``, a ``pyspiel.Game``, and
  the whole games registered with ``pyspiel`` as ``python_romesim_<game>`` (``python_romesim_jugule_duel``).

All three build on ``romesim.new_game``: a game is game ``k`` of run ``seed`` (the dice of
``simulate(scenario, n, seed)``'s game ``k``), each seat sees the state vector of its own decisions (the
decision point's entries, ``romesim.describe``) and acts through a fixed list of the point's actions
(``Scenario.all_actions``), and a game ends with each seat's share of the win less the mean of the others'.
The whole games: ``GAMES``.
"""
import importlib

GAMES = ("kings_of_rome.battle", "kings_of_rome.ambush", "kings_of_rome.campaign", "jugule.duel", "vox_populi.game",
         "semper_victor.battle", "semper_victor.usurpation")

_NAMES = {"aec_env": "pettingzoo", "RomesimAECEnv": "pettingzoo", "RomesimEnv": "gymnasium",
          "openspiel_game": "openspiel", "RomesimGame": "openspiel"}


def _require(module, *packages):
    """Import ``packages`` or raise a ModuleNotFoundError (an ImportError) that names the missing one and the
    extra that installs it."""
    for package in packages:
        try:
            importlib.import_module(package)
        except ImportError as error:
            raise ModuleNotFoundError(f"{module} needs {package}, which is not installed: pip install "
                                      "'romesim[rl]' (PettingZoo, Gymnasium and OpenSpiel)", name=package) from error


def __getattr__(name):
    if name in _NAMES:
        return getattr(importlib.import_module(f"{__name__}.{_NAMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GAMES", *_NAMES]
