"""A PettingZoo AEC environment for each whole game: the seats take turns, each seeing its own decisions' states.

    from romesim.adapters.pettingzoo import aec_env
    env = aec_env("jugule.duel", seed=1)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are the scenario's seats (``Scenario.seats()``): ``"rome"`` and ``"nr"`` in a Kings of Rome battle or
ambush, ``"A"`` and ``"B"`` in a Jugule duel, ``"seat0"`` .. in Vox Populi, ``"attacker"`` and ``"defender"`` in
a Semper Victor battle, ``"usurper"`` in a usurpation; ``seats=`` keeps some of them as agents and ``policies``
plays the others (as in ``simulate``). An observation is ``{"observation": int64 vector, "action_mask": int8
vector}``: the vector has one entry per decision point of the seat (1 at the pending one) followed by that
point's state entries (``romesim.describe``), padded with zeros; an action is an index into the seat's fixed
action list of that point (``Scenario.all_actions``: the game's action itself wherever the actions are
``0 .. n-1``). A seat's observation is the state of its own latest decision, so it never holds what another seat
chose in secret: the games ask simultaneous choices one seat after the other and keep each choice out of the
others' states until all are in (Jugule's AP splits, JUG-A4; Vox Populi's ballots, applause and simultaneous
slips). Rewards come at the end: each seat's share of the win (the seats' ``win`` metrics; 1/k each for k
co-winners) less the mean share of the others, so +1 / -1 / 0 in a two-seat game.

There is no Parallel version: ``pettingzoo.utils.aec_to_parallel`` needs every live agent to act once per cycle,
in order, and no whole game is played that way (a gladiator moves until he passes, a Vox Populi seat takes
several decisions in a row); the simultaneous choices are sequential decisions with hidden answers, as above.
"""
from . import _require

_require("romesim.adapters.pettingzoo", "pettingzoo", "gymnasium")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

from ._table import OBS_HIGH, OBS_LOW, Table, check_illegal  # noqa: E402


class RomesimAECEnv(AECEnv):
    """Game after game of ``scenario`` (an object or a registered name) from run ``seed``, its ``seats`` (default:
    all) played by agents, the other decision points by ``policies``.

    ``reset(seed=s)`` starts game 0 of run ``s``; ``reset()`` the run's next game; ``options={"game": k}`` game
    ``k``. A game in which no agent decides (a Semper Victor battle without a hit) is passed over: ``game_index``
    is the game being played, ``game_state`` its ``romesim.GameState``, and the agents' ``infos`` hold the
    outcome row once it is over. ``illegal``: an action the rules do not allow ends the game as a loss of the seat
    that took it (``"lose"``, ``infos[agent]["illegal_action"]``) or raises ``PolicyError`` (``"raise"``)."""

    metadata = {"name": "romesim_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, scenario, seed=0, *, seats=None, policies=None, illegal="lose", render_mode=None):
        super().__init__()
        self.table = Table(scenario, seats, policies)
        self.illegal = check_illegal(illegal)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode: {render_mode!r}; expected None or 'ansi'")
        self.render_mode = render_mode
        self.possible_agents = list(self.table.agents)
        self.observation_spaces = {
            name: spaces.Dict({"observation": spaces.Box(OBS_LOW, OBS_HIGH, (agent.size,), np.int64),
                               "action_mask": spaces.Box(0, 1, (agent.n_actions,), np.int8)})
            for name, agent in self.table.agents.items()}
        self.action_spaces = {name: spaces.Discrete(agent.n_actions) for name, agent in self.table.agents.items()}
        self.run_seed, self._next_game = int(seed), 0
        self.game_index = self.game_state = None
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.run_seed, self._next_game = int(seed), 0
        game = int((options or {}).get("game", self._next_game))
        self.game_index, self.game_state = self.table.first(self.run_seed, game)
        self._next_game = self.game_index + 1
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._seen = {a: np.zeros(self.table.agents[a].size, np.int64) for a in self.agents}
        self._over = False
        self._select()

    def _select(self):
        """Point at the seat that takes the pending decision, and give it that decision's observation."""
        agent = self.table.seat_of(self.game_state)
        self._seen[agent] = self.table.agents[agent].observe(self.game_state)
        self._mask = self.table.agents[agent].mask(self.game_state)
        self.agent_selection = agent

    def observe(self, agent):
        mask = (self._mask.copy() if agent == self.agent_selection and not self._over
                else np.zeros(self.table.agents[agent].n_actions, np.int8))
        return {"observation": self._seen[agent].copy(), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game_state, forfeited = self.table.step(self.game_state, agent, action, self.illegal)
        self._after(agent, action if forfeited else None)

    def policy_action(self, policy=None):
        """The action index ``policy`` (default: the point's default built-in) would take at the pending decision
        (its dice drawn on a copy; a built-in that rolls dice then goes on with other dice than ``step_policy``)."""
        return self.table.policy_index(self.game_state, self.agent_selection, policy)

    def step_policy(self, policy=None):
        """Step the pending decision with ``policy`` (default: the point's default built-in), as ``simulate``
        plays it, its dice included: a game stepped this way throughout is ``simulate``'s game ``game_index``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            raise ValueError(f"step_policy: {agent} is done; step it with None")
        self._cumulative_rewards[agent] = 0.0
        self.game_state = self.table.advance(self.game_state.apply_policy(policy))
        self._after(agent, None)

    def _after(self, agent, forfeited):
        self.rewards = {a: 0.0 for a in self.agents}
        if forfeited is not None or self.game_state.is_terminal:
            self._over = True
            if forfeited is not None:
                final = self.table.forfeit(agent)
                self.infos[agent] = {"illegal_action": int(forfeited)}
            else:
                final = self.table.rewards(self.game_state)
                outcome = {k: int(v) for k, v in self.game_state.outcome.items()}
                self.infos = {a: {"outcome": dict(outcome)} for a in self.agents}
            self.rewards = {a: final[a] for a in self.agents}
            self.terminations = {a: True for a in self.agents}
        else:
            self._select()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            return None
        state = self.game_state
        if state is None:
            return "<not reset>"
        text = f"{self.table.scenario.name}, game {self.game_index} of run {self.run_seed}: "
        if self._over:
            return text + "over; rewards " + ", ".join(f"{a} {r:+g}" for a, r in self._cumulative_rewards.items())
        obs = state.observation
        return (text + f"{self.agent_selection} decides {state.point.name!r} ({state.point.rule})\n"
                + "\n".join(f"  {k} = {v}" for k, v in obs.items()))

    def close(self):
        pass


def aec_env(scenario, seed=0, *, seats=None, policies=None, illegal="lose", render_mode=None):
    """A ``RomesimAECEnv`` of ``scenario`` (see there)."""
    return RomesimAECEnv(scenario, seed, seats=seats, policies=policies, illegal=illegal, render_mode=render_mode)


__all__ = ["RomesimAECEnv", "aec_env"]
