"""What the three front ends share: a game's seats as agents, their fixed-size observations and actions, rewards.

``Table(scenario, seats, policies)`` knows no learning library: it turns ``romesim.new_game`` states into what an
agent sees (a vector and an action mask) and back, and plays every decision that is not an agent's.
"""
import numpy as np

from ..core.engine import _as_scenario
from ..core.errors import PolicyError, ScenarioError
from ..core.machine import new_game
from ..core.policy import resolve
from . import GAMES

OBS_LOW, OBS_HIGH = -(2 ** 31), 2 ** 31 - 1  # the bounds of an observation entry (state entries are small integers)
ILLEGAL = ("lose", "raise")
SKIP = 1000  # games passed over at most, looking for one in which an agent decides


def check_illegal(illegal):
    if illegal not in ILLEGAL:
        raise PolicyError(f"illegal: {illegal!r} is not allowed; expected one of {', '.join(map(repr, ILLEGAL))}")
    return illegal


def shares(wins):
    """Each seat's share of the win: 1 for a sole winner, 1/k for each of k winners, 0 for all when none won."""
    wins = np.asarray(wins, np.float64)
    total = wins.sum()
    return wins / total if total > 0 else np.zeros_like(wins)


def rewards_of(share):
    """The seats' rewards: its share less the mean share of the other seats (+1 / -1 / 0 in a two-seat game, and
    zero-sum with more seats); a one-seat game rewards its share."""
    share = np.asarray(share, np.float64)
    n = share.size
    if n == 1:
        return share.copy()
    return share - (share.sum() - share) / (n - 1)


class Agent:
    """One seat played from outside: its decision points, their actions in a fixed order and the sizes of its
    observation vector (one entry per point, set to 1 for the pending one, then the point's state entries padded
    with zeros to the longest) and of its action space."""

    def __init__(self, scenario, seat):
        self.seat, self.name = seat, seat.name
        points = {dp.name: dp for dp in scenario.decision_points}
        self.points = seat.point_names(scenario.decision_points)
        if not self.points:
            raise ScenarioError(f"{scenario.name}: seat {seat.name!r} decides at no decision point")
        self.position = {name: i for i, name in enumerate(self.points)}
        self.actions = {name: tuple(scenario.all_actions(name)) for name in self.points}
        self.index = {name: {a: i for i, a in enumerate(actions)} for name, actions in self.actions.items()}
        self.state_size = max(len(points[name].state) for name in self.points)
        self.size = len(self.points) + self.state_size
        self.n_actions = max(len(actions) for actions in self.actions.values())

    def observe(self, state):
        """The observation vector of ``state`` (a ``GameState`` pending at one of this seat's points)."""
        obs = np.zeros(self.size, np.int64)
        names = state.point.state
        obs[self.position[state.point.name]] = 1
        obs[len(self.points):len(self.points) + len(names)] = state.state[:len(names)]
        return obs

    def mask(self, state):
        """1 at the index of each action the rules allow at ``state``'s decision, 0 elsewhere (int8)."""
        mask = np.zeros(self.n_actions, np.int8)
        index = self.index[state.point.name]
        for action in state.legal_actions():
            mask[index[action]] = 1
        return mask

    def action(self, state, index):
        """The game's action at index ``index`` of ``state``'s point, or None when there is none."""
        if isinstance(index, np.ndarray) and index.shape == ():
            index = index[()]
        if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
            raise PolicyError(f"action: an integer index into the action space, not {index!r}")
        actions = self.actions[state.point.name]
        return actions[int(index)] if 0 <= index < len(actions) else None

    def index_of(self, state, action):
        """The index of the game's ``action`` at ``state``'s point."""
        return self.index[state.point.name][action]


class Table:
    """``scenario``'s seats, those named in ``seats`` (default: all) played from outside, the others by
    ``policies`` (as in ``simulate``; their default built-ins where not given)."""

    def __init__(self, scenario, seats=None, policies=None):
        self.scenario = scenario = _as_scenario(scenario)
        self.seats = tuple(scenario.seats())
        if not self.seats:
            raise ScenarioError(f"{scenario.name}: a procedure without players (no seats); the adapters play whole "
                                f"games: {', '.join(GAMES)}")
        names = [seat.name for seat in self.seats]
        chosen = names if seats is None else [seats] if isinstance(seats, str) else list(seats)
        for name in chosen:
            if name not in names:
                raise ScenarioError(f"seats: {scenario.name} has no seat {name!r}; seats: {', '.join(names)}")
        if not chosen or len(set(chosen)) != len(chosen):
            raise ScenarioError(f"seats: {chosen!r}; expected distinct seats among {', '.join(names)}")
        self.agents = {seat.name: Agent(scenario, seat) for seat in self.seats if seat.name in chosen}
        owners = {}
        for seat in self.seats:
            for point in seat.point_names(scenario.decision_points):
                owners.setdefault(point, []).append(seat.name)
        controlled = {point for agent in self.agents.values() for point in agent.points}
        self.control = [dp.name for dp in scenario.decision_points if dp.name in controlled]
        policies = dict(policies or {})
        for point in policies:
            if point in controlled and set(owners[point]) <= set(self.agents):
                raise PolicyError(f"policies: {point!r} is decided by the agents ({', '.join(owners[point])}); "
                                  "leave it out")
        # a point the agents share with a seat played by a policy: that seat's decisions there are taken by the
        # policy given for the point (its default built-in when none)
        self.shared = {point: policies.pop(point, None) for point in controlled
                       if not set(owners[point]) <= set(self.agents)}
        resolve(scenario.decision_points, {p: policy for p, policy in self.shared.items() if policy is not None})
        self.policies = policies

    def seat_of(self, state):
        """The name of the seat that takes ``state``'s pending decision."""
        for seat in self.seats:
            if seat.decides(state.point, state.state):
                return seat.name
        raise ScenarioError(f"{self.scenario.name}: no seat decides at {state.point.name!r}")

    def advance(self, state):
        """``state``, or the state after the decisions of seats played by a policy, up to an agent's decision or
        the end; each taken by its policy on the game's dice, as ``simulate`` plays it."""
        while not state.is_terminal and self.seat_of(state) not in self.agents:
            state = state.apply_policy(self.shared[state.point.name])
        return state

    def start(self, seed, game):
        """Game ``game`` of run ``seed`` at the agents' first decision (or over)."""
        return self.advance(new_game(self.scenario, seed, game, policies=self.policies, control=self.control))

    def first(self, seed, game):
        """``(index, state)``: the first game from ``game`` on of run ``seed`` in which an agent decides, at that
        decision (a game that ends before any, such as a battle without a hit, is passed over)."""
        for index in range(game, game + SKIP):
            state = self.start(seed, index)
            if not state.is_terminal:
                return index, state
        raise ScenarioError(f"{self.scenario.name}: no agent ({', '.join(self.agents)}) decides in games {game} to "
                            f"{game + SKIP - 1} of run {seed}")

    def policy_index(self, state, agent, policy=None):
        """The index of the action ``policy`` (default: the point's default built-in) takes at ``state``, its dice
        drawn on a copy of the game."""
        return self.agents[agent].index_of(state, state.apply_policy(policy).history[-1])

    def step(self, state, agent, index, illegal):
        """``(state after it, forfeited)`` for ``agent``'s action at index ``index``; an action the rules do not
        allow raises ``PolicyError`` with ``illegal = "raise"``, and is forfeited (the state unchanged) with
        ``"lose"``."""
        action, after = self.agents[agent].action(state, index), None
        if action is not None:
            try:
                after = state.apply(action)
            except PolicyError:
                pass
        if after is None:
            if illegal == "raise":
                mask = self.agents[agent].mask(state)
                raise PolicyError(f"{agent} at {state.point.name!r} ({state.point.rule}): action index {index} is "
                                  f"not allowed; allowed: {np.flatnonzero(mask).tolist()}")
            return state, True
        return self.advance(after), False

    def rewards(self, state):
        """``{seat: reward}`` of the game ``state`` ended (``rewards_of`` the outcome's win metrics)."""
        row = state.outcome
        values = rewards_of(shares([row[seat.win] for seat in self.seats]))
        return {seat.name: float(v) for seat, v in zip(self.seats, values)}

    def forfeit(self, loser):
        """``{seat: reward}`` when ``loser`` forfeits (an illegal action): the other seats share the win."""
        won = [0.0 if seat.name == loser else 1.0 for seat in self.seats]
        values = rewards_of(shares(won))
        return {seat.name: float(v) for seat, v in zip(self.seats, values)}
