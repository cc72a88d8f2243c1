"""OpenSpiel Python games: romesim's whole games for OpenSpiel's algorithms (MCTS, evaluation, RL environments).

    import pyspiel
    from open_spiel.python.algorithms import mcts
    from romesim.adapters.openspiel import openspiel_game
    game = openspiel_game("kings_of_rome.battle", seed=1)  # pyspiel.load_game("python_romesim_kings_of_rome_battle")
    state = game.new_initial_state()                       # game 0 of run 1; the next call: game 1

Players are the seats (``Scenario.seats()``), in their order: Rome 0 and the NR 1 in a battle, A 0 and B 1 in a
duel; an action is an index into the pending point's fixed action list (``Scenario.all_actions``), the
observation tensor a player's vector of ``romesim.adapters.pettingzoo`` (zero-padded to the longest among the
players), and the returns each seat's share of the win less the mean of the others' (zero-sum, terminal).

Chance: the dice are romesim's own stream, not OpenSpiel chance nodes, so the games are declared
``SAMPLED_STOCHASTIC``: ``new_initial_state()`` is the next game of run ``seed`` (0, 1, 2 ...; a game in which no
seat decides is passed over), whose dice are those of ``simulate(scenario, n, seed)``'s game of that index. A
state's ``clone()`` goes on with the same dice: a search that clones (``mcts.MCTSBot``) plans with the dice its
game will roll, as well as with every hidden state entry; ``GameState.resample`` draws other dice for a search
that should not (``state.game_state``). The games give observations, not information states: each player sees
the state of its own latest decision.

The whole games (``romesim.adapters.GAMES``) are registered with pyspiel as ``python_romesim_<name>`` (dots as
underscores) with the parameters ``seed`` (an integer) and ``params`` (the scenario's parameters as a JSON object:
``pyspiel.load_game("python_romesim_vox_populi_game", {"params": '{"players": 3}'})``).
"""
import json

from . import GAMES, _require

_require("romesim.adapters.openspiel", "pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from ..core.engine import _as_scenario  # noqa: E402
from ..core.errors import ScenarioError  # noqa: E402
from ..core.scenario import get  # noqa: E402
from ._table import Table  # noqa: E402

MAX_GAME_LENGTH = 100_000  # OpenSpiel asks for a bound; the rules set none this small game could reach


def short_name(name):
    """The pyspiel name of the whole game ``name``: ``python_romesim_jugule_duel``."""
    return "python_romesim_" + name.replace(".", "_")


def _game_type(name, min_players, max_players):
    return pyspiel.GameType(
        short_name=short_name(name), long_name=f"romesim {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if min_players > 1 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players, min_num_players=min_players,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"seed": 0, "params": "{}"})


class RomesimGame(pyspiel.Game):
    """``scenario``'s games from run ``seed`` as an OpenSpiel game: every seat a player, the decision points of no
    seat played by ``policies`` (as in ``simulate``)."""

    def __init__(self, scenario, seed=0, *, policies=None, game_type=None):
        self.table = Table(scenario, None, policies)
        self.seats = list(self.table.agents)
        players = len(self.seats)
        self.obs_size = max(agent.size for agent in self.table.agents.values())
        info = pyspiel.GameInfo(
            num_distinct_actions=max(agent.n_actions for agent in self.table.agents.values()),
            max_chance_outcomes=0, num_players=players, min_utility=-1.0 / (players - 1) if players > 1 else 0.0,
            max_utility=1.0, utility_sum=0.0 if players > 1 else None, max_game_length=MAX_GAME_LENGTH)
        game_type = game_type or _game_type(self.table.scenario.name, players, players)
        scenario, defaults = self.table.scenario, type(self.table.scenario)().to_dict()
        changed = {k: v for k, v in scenario.to_dict().items() if v != defaults[k]}
        super().__init__(game_type, info, {"seed": int(seed), "params": json.dumps(changed)})
        self.run_seed, self._next_game, self._peeked = int(seed), 0, None

    def new_initial_state(self):
        """The run's next game (drawn when the state is first used, so that a clone draws none)."""
        return RomesimState(self)

    def _peek(self):
        """The run's next game, not drawn: pyspiel makes throwaway initial states (for a tensor's shape), which
        must not take games from the run."""
        if self._peeked is None:
            self._peeked = self.table.first(self.run_seed, self._next_game)
        return self._peeked

    def _draw(self):
        index, state = self._peek()
        self._next_game, self._peeked = index + 1, None
        return index, state

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters: none are supported, got {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("romesim's games give observations (each player's latest decision), not information "
                             "states")
        return RomesimObserver(self)


class _Data:
    """What a state holds, replaced whole at each action: a clone shares it (``copy.deepcopy`` gives it back, as
    a ``GameState`` is a value and the seen vectors are never written)."""

    def __init__(self, index, state, seen):
        self.index, self.state, self.seen = index, state, seen

    def __deepcopy__(self, memo):
        return self


class _Ref:
    """The game, as a state's attribute that a clone shares."""

    def __init__(self, game):
        self.game = game

    def __deepcopy__(self, memo):
        return self


class RomesimState(pyspiel.State):
    """A game at a player's decision or over; ``game_state`` is its ``romesim.GameState``."""

    def __init__(self, game):
        super().__init__(game)
        self._ref = _Ref(game)
        self._data = None

    @property
    def _game(self):
        return self._ref.game

    def _get(self, peek=False):
        """The state's game, drawn from the run on first use (``peek``: what it would draw, drawing nothing)."""
        if self._data is None:
            index, state = self._game._peek() if peek else self._game._draw()
            seen = tuple(np.zeros(self._game.table.agents[s].size, np.int64) for s in self._game.seats)
            data = _Data(index, state, self._seen_with(seen, state))
            if peek:
                return data
            self._data = data
        return self._data

    def _seen_with(self, seen, state):
        if state.is_terminal:
            return seen
        seat = self._game.table.seat_of(state)
        vector = self._game.table.agents[seat].observe(state)
        vector.setflags(write=False)
        player = self._game.seats.index(seat)
        return seen[:player] + (vector,) + seen[player + 1:]

    @property
    def game_state(self):
        return self._get().state

    @property
    def game_index(self):
        """The game's index in run ``seed``."""
        return self._get().index

    def clone(self):
        self._get()
        return super().clone()

    def current_player(self):
        state = self._get().state
        if state.is_terminal:
            return pyspiel.PlayerId.TERMINAL
        return self._game.seats.index(self._game.table.seat_of(state))

    def _legal_actions(self, player):
        state = self._get().state
        if state.is_terminal or player != self.current_player():
            return []
        return np.flatnonzero(self._game.table.agents[self._game.seats[player]].mask(state)).tolist()

    def _apply_action(self, action):
        data = self._get()
        seat = self._game.seats[self.current_player()]
        state, _ = self._game.table.step(data.state, seat, int(action), "raise")
        self._data = _Data(data.index, state, self._seen_with(data.seen, state))

    def _action_to_string(self, player, action):
        state = self._get().state
        if state.is_terminal or player != self.current_player():
            return f"action {action}"
        agent = self._game.table.agents[self._game.seats[player]]
        return f"{state.point.name}={agent.action(state, action)}"

    def is_terminal(self):
        return self._get().state.is_terminal

    def returns(self):
        state = self._get().state
        if not state.is_terminal:
            return [0.0] * len(self._game.seats)
        rewards = self._game.table.rewards(state)
        return [rewards[s] for s in self._game.seats]

    def __str__(self):
        data = self._get()
        where = "over" if data.state.is_terminal else f"{self._game.seats[self.current_player()]} at " \
                                                      f"{data.state.point.name!r}"
        return f"{self._game.table.scenario.name} game {data.index}: {len(data.state.history)} decisions, {where}"


class RomesimObserver:
    """Each player's vector (``romesim.adapters.pettingzoo``'s observation, zero-padded to the game's longest)."""

    def __init__(self, game):
        self.tensor = np.zeros(game.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        seen = state._get(peek=True).seen[player]
        self.tensor.fill(0)
        self.tensor[:seen.size] = seen

    def string_from(self, state, player):
        return " ".join(str(int(v)) for v in state._get(peek=True).seen[player])


def openspiel_game(scenario, seed=0, *, policies=None):
    """``scenario`` (an object or a registered name with seats) as a ``RomesimGame`` of run ``seed``."""
    return RomesimGame(scenario, seed, policies=policies)


def _registered(name):
    """The class pyspiel makes the whole game ``name`` with, from its parameters ``seed`` and ``params``. (A
    class, as OpenSpiel's own Python games register: pyspiel keeps it past the interpreter's end, and a plain
    function freed then would abort the exit.)"""

    def __init__(self, params=None):
        params = dict(params or {})
        try:
            values = json.loads(params.get("params", "{}"))
        except json.JSONDecodeError as error:
            raise ScenarioError(f"params: not a JSON object of scenario parameters: {error}") from None
        if not isinstance(values, dict):
            raise ScenarioError(f"params: {values!r}; expected a JSON object of scenario parameters")
        RomesimGame.__init__(self, get(name).from_dict(values), int(params.get("seed", 0)), game_type=_TYPES[name])

    title = "".join(part.title() for part in name.replace(".", "_").split("_"))
    return type(f"{title}Game", (RomesimGame,), {"__init__": __init__, "__module__": __name__})


def _players(name):
    """The fewest and most players of the whole game ``name``: its ``players`` parameter's bounds, if it has one."""
    spec = get(name).parameters().get("players")
    if spec is not None:
        return spec.lo, spec.hi
    seats = len(_as_scenario(name).seats())
    return seats, seats


_TYPES = {}
for _name in GAMES:
    _TYPES[_name] = _game_type(_name, *_players(_name))
    if short_name(_name) not in pyspiel.registered_names():
        pyspiel.register_game(_TYPES[_name], _registered(_name))

__all__ = ["RomesimGame", "RomesimState", "openspiel_game", "short_name"]
