"""A game stopped at a decision and resumed from outside: ``romesim.new_game`` and ``GameState``.

A search bot copies a game at a decision and tries each action; a reinforcement-learning environment steps a game
one decision at a time; a designer walks through one game choosing for a side. ``new_game(scenario, seed, game)``
is game ``game`` of run ``seed``, played up to its first decision (or its end). A state shows the pending decision
point, what its player may see (``state``, ``observation``) and the actions the rules allow (``legal_actions()``);
``apply(action)`` returns the game at its next decision, ``outcome`` the outcome row once it is over. States are
values: ``apply`` returns a new one and leaves the old one as it was.

A game written as a state machine (``core.loop.machine_game``; the scenario's ``machine``, a ``Machine``) is
stepped by its own ``advance`` and ``apply``: a state holds a copy of the game's arrays at the decision, and
``apply`` copies them once more and goes on from there, in the time the game takes to reach its next decision.

Any other game: a state is its history, the actions taken so far. The game's own code replays it on the game's
dice stream, in a one-game kernel that ``core.loop.replay_kernel`` makes from the same ``play`` and ``scratch`` as the
``simulate`` kernel, with ``scripted`` in the slot of every decision point the state decides: it returns the
history's actions in order, then copies the next decision's state out and stops the game with ``STOP``, an action
no rule allows (every game rejects it before any other use, and stops). So a state plays exactly the rules and
the dice of ``simulate`` (the tests check it game by game), for every game and procedure, with nothing added to
the games. The price: each step replays the game from its start, microseconds for a battle or a duel; a game of
``d`` decisions stepped through costs about ``d**2 / 2`` decisions' worth of replay.

Chance: the dice after a decision are those of the game's stream, as in ``simulate``. ``resample(seed)`` gives the
same state whose dice, from its next action on, come from another stream: a search that samples the future
(determinization) draws a new one per sample.
"""
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .jit import njit
from . import rng
from .engine import _as_scenario
from .errors import PolicyError
from .loop import END, Machine, replay_kernel
from .policy import SIGNATURE, USER, Slots, decode_error, error_code, inner, resolve, slots_for

# the script's words in the stream, after the generator's two (key, counter); then the history's actions, where
# the stream goes on after each (a key and a counter; key 0: where it is) and the copied state
POSITION, LENGTH, STOPPED, STATE_SIZE, HEADER = range(2, 7)
STOP = -(1 << 62)


@njit(SIGNATURE, cache=True)
def scripted(state, params, stream):
    """The history's next action, moving the dice first where the history says so; past its end, the decision's
    state is copied into the stream (once) and the game is stopped with ``STOP``."""
    k, n = np.int64(stream[POSITION]), np.int64(stream[LENGTH])
    if k < n:
        stream[POSITION] = k + 1
        key = stream[HEADER + n + k]
        if key != 0:
            stream[0], stream[1] = key, stream[HEADER + 2 * n + k]
        return np.int64(stream[HEADER + k])
    if stream[STOPPED] == 0:
        stream[STOPPED] = 1
        stream[STATE_SIZE] = state.size
        base = HEADER + 3 * n
        for i in range(min(state.size, stream.size - base)):
            stream[base + i] = state[i]
    return STOP


@dataclass(frozen=True, eq=False)
class _Game:
    """What the states of one game share: the scenario, its kernel inputs and the policies."""
    scenario: object
    seed: int
    game: int
    args: tuple
    codes: np.ndarray
    params: np.ndarray
    slots: tuple
    state_size: int
    replay: object = field(repr=False)

    def play(self, actions, positions):
        """Replay ``actions``, the dice going on after each from its ``(key, counter)`` of ``positions`` (key 0:
        where they are): ``(error code, stopped at a decision, its state or None, outcome row)``."""
        n = len(actions)
        stream = np.zeros(HEADER + 3 * n + self.state_size, np.uint64)
        stream[LENGTH] = n
        stream[HEADER:HEADER + n] = np.asarray(actions, np.int64).view(np.uint64)
        words = np.asarray(positions, np.uint64).reshape(n, 2)
        stream[HEADER + n:HEADER + 2 * n], stream[HEADER + 2 * n:HEADER + 3 * n] = words[:, 0], words[:, 1]
        row = np.zeros(len(self.scenario.metrics), np.int64)
        error = int(self.replay(np.uint64(self.seed), self.game, self.args, self.codes, self.params, self.slots,
                                stream, row))
        if not stream[STOPPED]:
            return error, False, None, row
        base = HEADER + 3 * n
        return error, True, stream[base:base + int(stream[STATE_SIZE])].view(np.int64).copy(), row


def _point_of(error):
    return (error >> 32) - 1


class GameState:
    """Game ``game`` of run ``seed`` at its next decision, or over (``is_terminal``); made by ``new_game``."""

    def __init__(self, game, history=(), positions=(), next_position=(0, 0)):
        self._game, self.history, self._positions = game, tuple(history), tuple(positions)
        self._next_position = next_position
        error, stopped, state, row = game.play(self.history, self._positions)
        if error and not stopped and not self.history:  # a policy of ``policies`` broke the rules
            raise decode_error(error, game.scenario.decision_points, game.game, game.seed, game.scenario.name)
        if error and not stopped:
            dp = game.scenario.decision_points[_point_of(error)]
            raise PolicyError(f"decision point {dp.name!r} ({dp.rule}): action {self.history[-1]} is not allowed "
                              f"at decision {len(self.history) - 1} of game {game.game}; allowed: {dp.actions}")
        self._state, self._row = state, row
        self.point_index = _point_of(error) if stopped else None

    @property
    def is_terminal(self):
        return self.point_index is None

    @property
    def point(self):
        """The pending ``DecisionPoint``; None once the game is over."""
        return None if self.is_terminal else self._game.scenario.decision_points[self.point_index]

    @property
    def state(self):
        """The pending decision's state vector, as its policy receives it (what the deciding player may see)."""
        return None if self._state is None else self._state.copy()

    @property
    def observation(self):
        """``state`` as a Series indexed by the decision point's entry names."""
        if self.is_terminal:
            return None
        names = list(self.point.state)  # a game's state vector may be longer than a point's named entries
        return pd.Series(self._state[:len(names)], index=names, name=self.point.name)

    @property
    def outcome(self):
        """The outcome row (a Series by metric, as ``simulate(..., keep=True).outcomes`` has it); once over."""
        if not self.is_terminal:
            raise PolicyError(f"outcome: game {self._game.game} waits for decision point {self.point.name!r}; "
                              "apply actions until is_terminal")
        return pd.Series(self._row, index=list(self._game.scenario.metrics), name=self._game.game)

    def legal_actions(self):
        """The actions the rules allow at the pending decision: each of the point's candidates offered to the game,
        kept when the game accepts it."""
        if self.is_terminal:
            return []
        legal = []
        for action in self.point.candidate_actions(self._state):
            error, stopped, _, _ = self._game.play((*self.history, action), (*self._positions, self._next_position))
            if stopped or not error or _point_of(error) != self.point_index:
                legal.append(action)
        return legal

    def apply(self, action):
        """The game after ``action`` at the pending decision: a new state (this one is unchanged). An action the
        rules do not allow raises ``PolicyError``."""
        return self._then(action, self._next_position)

    def apply_policy(self, policy=None):
        """The game after the pending decision is taken by ``policy`` (a built-in's name, ``(name, parameters)``
        or an ``@numba.njit`` function, as in ``simulate``'s ``policies``; default: the point's default built-in),
        which draws its dice from the game's stream as ``simulate`` does: a new state whose ``history[-1]`` is
        the action it took. A game stepped through this way at every decision is ``simulate``'s game. Only for
        games written as state machines (every whole game); a replayed procedure takes its policies in
        ``new_game``'s ``policies``."""
        raise PolicyError(f"apply_policy: {self._game.scenario.name} is replayed from its history, not stepped as "
                          "a state machine; give the point's policy in new_game's policies instead")

    def _then(self, action, position):
        """``apply(action)``, the dice going on from ``position`` (``(key, counter)``; key 0: where they are)."""
        if self.is_terminal:
            raise PolicyError(f"apply: game {self._game.game} is over; no decision is pending")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise PolicyError(f"apply: an action is an integer, not {action!r}")
        return GameState(self._game, (*self.history, int(action)), (*self._positions, tuple(position)))

    def resample(self, seed):
        """This state, with the dice after its next action drawn from game ``game``'s stream of run ``seed``."""
        if self.is_terminal:
            raise PolicyError(f"resample: game {self._game.game} is over; it has no dice left to draw")
        twin = object.__new__(GameState)
        twin.__dict__.update(self.__dict__, _next_position=(int(rng.stream_key(np.uint64(seed), self._game.game)), 0))
        return twin

    def __repr__(self):
        where = "over" if self.is_terminal else f"at {self.point.name!r} ({self.point.rule})"
        return (f"<GameState {self._game.scenario.name} seed={self._game.seed} game={self._game.game}: "
                f"{len(self.history)} actions, {where}>")


def new_game(scenario, seed=0, game=0, policies=None, control=None):
    """Game ``game`` of run ``seed`` of ``scenario`` (an object or a registered name), at its first decision.

    ``control``: the names of the decision points the states decide (default: all but procedure hooks, such as
    Semper Victor's battle); ``policies`` plays the others, as in ``simulate``."""
    scenario = _as_scenario(scenario)
    points = scenario.decision_points
    names = [dp.name for dp in points]
    control = [dp.name for dp in points if not dp.hook] if control is None else list(control)
    for name in control:
        if name not in names:
            raise PolicyError(f"control: unknown decision point {name!r}; allowed: {', '.join(names) or 'none'}")
        if points[names.index(name)].hook:
            raise PolicyError(f"control: {name!r} is a procedure hook, not a decision; give it in policies")
    for name in policies or {}:
        if name in control:
            raise PolicyError(f"policies: {name!r} is decided by the game states (control); leave it out of one")
    if not isinstance(game, (int, np.integer)) or game < 0:
        raise PolicyError(f"game: a game index >= 0, not {game!r}")
    resolved = resolve(points, policies)
    controlled = frozenset(names.index(name) for name in control)
    codes = resolved.codes.copy()
    codes[sorted(controlled)] = USER
    given = resolved.slots
    kind, search = (Slots, None) if given is None else (type(given), given.search)
    functions = [scripted if i in controlled else f for i, f in enumerate(resolved.functions)]
    slots = slots_for(functions, search, kind) if points else None
    machine = getattr(scenario, "machine", None)
    # a user function at a procedure hook replaces a procedure the machine plays itself: such a game is replayed,
    # unless the machine's advance calls the procedures' policies (``nested``)
    if machine is not None and (machine.nested or
                                not any(dp.hook and f is not None for dp, f in zip(points, resolved.functions))):
        return _MachineState.start(_MachineGame(scenario, int(seed), int(game), tuple(scenario.kernel_args()),
                                                resolved, controlled, machine))
    shared = _Game(scenario, int(seed), int(game), tuple(scenario.kernel_args()), codes,
                   resolved.params, slots, max((len(dp.state) for dp in points), default=0),
                   replay_kernel(scenario.kernel))
    return GameState(shared)


@dataclass(frozen=True, eq=False)
class _MachineGame:
    """What the states of one state-machine game share: the scenario, its arrays, the policies, the machine."""
    scenario: object
    seed: int
    game: int
    args: tuple
    policies: object  # core.policy.ResolvedPolicies
    controlled: frozenset  # the decision points the states decide
    machine: Machine

    def new(self):
        """Game ``game`` of run ``seed`` set up: its dice stream and the arrays of the game in progress."""
        stream = rng.new_stream()
        rng.start(stream, np.uint64(self.seed), self.game)
        arrays = (*self.machine.scratch(self.args), np.zeros(len(self.scenario.metrics), np.int64))
        self.machine.init(stream, *self.args, *arrays)
        return stream, arrays

    def run(self, stream, arrays):
        """Play on to the next decision the states decide: its point index, or None at the end."""
        machine, slots = self.machine, self.policies.slots
        codes, params = self.policies.codes, self.policies.params
        policies = (codes, params, inner(slots), 0) if machine.nested else ()
        while True:
            point = int(machine.advance(stream, *policies, *self.args, *arrays))
            if point == END or point in self.controlled:
                return None if point == END else point
            action = machine.decide(0, point, codes, params, slots, stream, *self.args, *arrays)
            if not machine.legal(point, action, *self.args, *arrays):
                raise decode_error(error_code(point, action), self.scenario.decision_points, self.game, self.seed,
                                   self.scenario.name)
            machine.apply(point, action, *self.args, *arrays)


class _MachineState(GameState):
    """A ``GameState`` of a state-machine game: the game's arrays and dice stream at the pending decision."""

    @classmethod
    def start(cls, game):
        stream, arrays = game.new()
        return cls._at(game, (), stream, arrays, game.run(stream, arrays))

    @classmethod
    def _at(cls, game, history, stream, arrays, point):
        state = object.__new__(cls)
        state._game, state.history, state._stream, state._arrays = game, history, stream, arrays
        state.point_index, state._next_position = point, (0, 0)
        state._row = arrays[-1]
        view = game.machine.view
        state._state = None if point is None else (
            view(point, game.args + arrays) if callable(view) else (game.args + arrays)[view])
        return state

    @property
    def state(self):
        return None if self.is_terminal else self._state.copy()

    def legal_actions(self):
        if self.is_terminal:
            return []
        legal = self._game.machine.legal
        return [a for a in self.point.candidate_actions(self._state)
                if legal(self.point_index, a, *self._game.args, *self._arrays)]

    def _then(self, action, position):
        if self.is_terminal:
            raise PolicyError(f"apply: game {self._game.game} is over; no decision is pending")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise PolicyError(f"apply: an action is an integer, not {action!r}")
        game, point = self._game, self.point_index
        if not game.machine.legal(point, action, *game.args, *self._arrays):
            dp = self.point
            raise PolicyError(f"decision point {dp.name!r} ({dp.rule}): action {action} is not allowed at decision "
                              f"{len(self.history)} of game {game.game}; allowed: {self.legal_actions()}")
        stream, arrays = self._stream.copy(), tuple(a.copy() for a in self._arrays)
        if position[0] != 0:
            stream[0], stream[1] = position
        game.machine.apply(point, action, *game.args, *arrays)
        return self._at(game, (*self.history, int(action)), stream, arrays, game.run(stream, arrays))

    def apply_policy(self, policy=None):
        if self.is_terminal:
            raise PolicyError(f"apply_policy: game {self._game.game} is over; no decision is pending")
        game, point, points = self._game, self.point_index, self._game.scenario.decision_points
        policies = game.policies if policy is None else resolve(points, {points[point].name: policy})
        stream, arrays = self._stream.copy(), tuple(a.copy() for a in self._arrays)
        action = int(game.machine.decide(0, point, policies.codes, policies.params, policies.slots, stream,
                                         *game.args, *arrays))
        if not game.machine.legal(point, action, *game.args, *arrays):
            raise decode_error(error_code(point, action), points, game.game, game.seed, game.scenario.name)
        game.machine.apply(point, action, *game.args, *arrays)
        return self._at(game, (*self.history, action), stream, arrays, game.run(stream, arrays))

    def resample(self, seed):
        if self.is_terminal:
            raise PolicyError(f"resample: game {self._game.game} is over; it has no dice left to draw")
        stream = rng.new_stream()
        rng.start(stream, np.uint64(seed), self._game.game)
        return self._at(self._game, self.history, stream, self._arrays, self.point_index)
