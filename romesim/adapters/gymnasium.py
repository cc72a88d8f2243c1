"""A Gymnasium environment: one seat of a whole game against the other seats' built-in (or given) policies.

    from romesim.adapters.gymnasium import RomesimEnv
    env = RomesimEnv("kings_of_rome.battle", seat="rome")      # Rome against the rules' NR (nr_rules)
    obs, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated:
            break

Observations, actions and rewards are those of ``romesim.adapters.pettingzoo`` for that seat: ``{"observation":
int64 vector, "action_mask": int8 vector}`` (the seat's decision points one-hot, then the pending point's state
entries, zero-padded), an index into the point's fixed action list, and at the end the seat's share of the win less
the mean of the others' (+1 / -1 / 0 against one opponent). ``action_masks()`` gives the mask as booleans for
maskable learners. Importing this module registers ``gymnasium.make("romesim/Game-v0", scenario="jugule.duel",
seat="A")``.
"""
from . import _require

_require("romesim.adapters.gymnasium", "gymnasium")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402

from ..core.errors import ScenarioError  # noqa: E402
from ._table import OBS_HIGH, OBS_LOW, Table, check_illegal  # noqa: E402


class RomesimEnv(gymnasium.Env):
    """Game after game of ``scenario`` from run ``seed``, seat ``seat`` (default: the first) played by the agent,
    every other decision by ``policies`` (as in ``simulate``; default built-ins where not given).

    ``reset(seed=s)`` starts game 0 of run ``s``, ``reset()`` the run's next game, ``options={"game": k}`` game
    ``k``; a game in which the seat never decides is passed over (``info["game"]`` is the game played, the dice of
    ``simulate(scenario, n, s)``'s game of that index). The final ``info`` holds the outcome row. ``illegal``: an
    action the rules do not allow ends the game as the seat's loss (``"lose"``, ``info["illegal_action"]``) or
    raises ``PolicyError`` (``"raise"``)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, scenario, seat=None, seed=0, *, policies=None, illegal="lose", render_mode=None):
        super().__init__()
        probe = Table(scenario)
        names = [s.name for s in probe.seats]
        seat = names[0] if seat is None else seat
        if not isinstance(seat, str):
            raise ScenarioError(f"seat: one seat's name, not {seat!r}; seats: {', '.join(names)}")
        self.table = Table(probe.scenario, [seat], policies)
        self.seat, self.agent = seat, self.table.agents[seat]
        self.illegal = check_illegal(illegal)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode: {render_mode!r}; expected None or 'ansi'")
        self.render_mode = render_mode
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(OBS_LOW, OBS_HIGH, (self.agent.size,), np.int64),
            "action_mask": spaces.Box(0, 1, (self.agent.n_actions,), np.int8)})
        self.action_space = spaces.Discrete(self.agent.n_actions)
        self.run_seed, self._next_game = int(seed), 0
        self.game_index = self.game_state = None
        self._done = False

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self.run_seed, self._next_game = int(seed), 0
        game = int((options or {}).get("game", self._next_game))
        self.game_index, self.game_state = self.table.first(self.run_seed, game)
        self._next_game, self._done = self.game_index + 1, False
        self._obs = self.agent.observe(self.game_state)
        self._mask = self.agent.mask(self.game_state)
        return self._observation(), {"game": self.game_index, "point": self.game_state.point.name}

    def _observation(self):
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def step(self, action):
        if self.game_state is None or self._done:
            raise gymnasium.error.ResetNeeded("step: the game is over or not started; call reset()")
        state, forfeited = self.table.step(self.game_state, self.seat, action, self.illegal)
        if forfeited:
            self._done = True
            self._mask = np.zeros_like(self._mask)
            info = {"game": self.game_index, "illegal_action": int(action)}
            return self._observation(), self.table.forfeit(self.seat)[self.seat], True, False, info
        return self._after(state)

    def policy_action(self, policy=None):
        """The action index ``policy`` (default: the point's default built-in) would take at the pending decision
        (its dice drawn on a copy; a built-in that rolls dice then goes on with other dice than ``step_policy``)."""
        if self.game_state is None or self._done:
            raise gymnasium.error.ResetNeeded("policy_action: the game is over or not started; call reset()")
        return self.table.policy_index(self.game_state, self.seat, policy)

    def step_policy(self, policy=None):
        """``step`` with the decision taken by ``policy`` (default: the point's default built-in) as ``simulate``
        plays it, its dice included: a game stepped this way throughout is ``simulate``'s game ``game_index``."""
        if self.game_state is None or self._done:
            raise gymnasium.error.ResetNeeded("step_policy: the game is over or not started; call reset()")
        return self._after(self.table.advance(self.game_state.apply_policy(policy)))

    def _after(self, state):
        self.game_state = state
        info = {"game": self.game_index}
        if state.is_terminal:
            self._done = True
            self._mask = np.zeros_like(self._mask)
            info["outcome"] = {k: int(v) for k, v in state.outcome.items()}
            return self._observation(), self.table.rewards(state)[self.seat], True, False, info
        self._obs, self._mask = self.agent.observe(state), self.agent.mask(state)
        info["point"] = state.point.name
        return self._observation(), 0.0, False, False, info

    def action_masks(self):
        """The legal actions of the pending decision as booleans (for maskable learners)."""
        return self._mask.astype(bool)

    def render(self):
        if self.render_mode is None:
            return None
        state = self.game_state
        if state is None:
            return "<not reset>"
        text = f"{self.table.scenario.name}, game {self.game_index} of run {self.run_seed}: "
        if self._done:
            return text + "over"
        return (text + f"{self.seat} decides {state.point.name!r} ({state.point.rule})\n"
                + "\n".join(f"  {k} = {v}" for k, v in state.observation.items()))


if "romesim/Game-v0" not in gymnasium.registry:
    gymnasium.register("romesim/Game-v0", entry_point=f"{__name__}:RomesimEnv")

__all__ = ["RomesimEnv"]
