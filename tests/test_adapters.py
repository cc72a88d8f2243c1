"""romesim.adapters: PettingZoo's api_test and seed_test for every whole game, Gymnasium's check_env, an OpenSpiel
algorithm on a romesim game, and episodes that end as simulate's games (game K of seed S) when the built-ins play.

Skipped where the optional libraries (romesim[rl]) are missing."""
import warnings

import numpy as np
import pytest

import romesim
from romesim.adapters import GAMES, _require
from romesim.adapters._table import rewards_of, shares

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from romesim.adapters.gymnasium import RomesimEnv  # noqa: E402
from romesim.adapters.pettingzoo import aec_env  # noqa: E402

SEED = 5


@pytest.fixture(autouse=True)
def quiet():
    """PettingZoo's and Gymnasium's checks warn about style (agent names like "player_0", Dict observations)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def outcomes(name, n, seed=SEED, **params):
    return romesim.simulate(romesim.scenario(name, **params), n, seed, keep=True, progress=False).outcomes


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seed_tests_pass(name, capsys):
    api_test(aec_env(name, seed=1), num_cycles=150)
    seed_test(lambda: aec_env(name), num_cycles=150)
    assert "Passed API test" in capsys.readouterr().out


def test_gymnasium_check_env_passes_for_rome_and_for_gladiator_a():
    check_env(RomesimEnv("kings_of_rome.battle", seat="rome"))
    check_env(RomesimEnv("jugule.duel", seat="A"))
    env = gymnasium.make("romesim/Game-v0", scenario="jugule.duel", seat="B", render_mode="ansi")
    env.reset(seed=1)
    assert "B decides" in env.render()


@pytest.mark.parametrize("name, seat, n", [("kings_of_rome.battle", "rome", 12), ("jugule.duel", "A", 8),
                                           ("semper_victor.battle", "defender", 12),
                                           ("kings_of_rome.campaign", "rome", 4)])
def test_a_seat_stepped_by_its_builtins_ends_as_simulates_game(name, seat, n):
    """Rome against the rules' NR (nr_rules), A against B's default bot, the defender against the attacker's
    built-ins (the two sides share the battle's points), the solo campaign's Rome against the rules' own opponent
    (its sieges and battles played inside by their built-ins): each episode is game K of simulate(n, SEED), its
    reward the outcome's win less loss (the campaign has no loss metric: its win)."""
    simulated = outcomes(name, n)
    env = RomesimEnv(name, seat=seat)
    obs, info = env.reset(seed=SEED)
    played = 0
    while info["game"] < n:
        game, terminated = info["game"], False
        while not terminated:
            assert obs["action_mask"][env.policy_action()] == 1
            obs, reward, terminated, truncated, info = env.step_policy()
        row = simulated.iloc[game]
        assert info["outcome"] == {k: int(v) for k, v in row.items()}
        win, loss = ("p_win", "p_loss") if seat in ("rome", "A", "attacker") else ("p_loss", "p_win")
        assert reward == row[win] - row.get(loss, 0)
        played += 1
        obs, info = env.reset()
    assert played >= n // 2


@pytest.mark.parametrize("name, params, n", [("vox_populi.game", {"players": 3}, 2),
                                              ("kings_of_rome.ambush", {}, 10)])
def test_every_agent_stepped_by_its_builtins_ends_as_simulates_game(name, params, n):
    """All seats agents of the AEC environment, each decision taken by the seat's built-in: the simulated games,
    rewards the win shares less the others' mean."""
    simulated = outcomes(name, n, **params)
    env = aec_env(romesim.scenario(name, **params))
    for game in range(n):
        env.reset(seed=SEED, options={"game": game})
        assert env.game_index == game
        total = dict.fromkeys(env.agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            total[agent] += reward
            if terminated:
                env.step(None)
            else:
                env.step_policy()
        row = simulated.iloc[game]
        assert info["outcome"] == {k: int(v) for k, v in row.items()}
        seats = env.table.seats
        assert [total[s.name] for s in seats] == pytest.approx(rewards_of(shares([row[s.win] for s in seats])))


def test_plain_actions_of_builtins_that_roll_no_dice_give_the_simulated_game():
    """The ambush's built-ins roll nothing: stepping the actions they choose is simulate's game too."""
    simulated = outcomes("kings_of_rome.ambush", 6)
    env = RomesimEnv("kings_of_rome.ambush")
    for game in range(6):
        obs, info = env.reset(seed=SEED, options={"game": game})
        terminated = False
        while not terminated:
            obs, reward, terminated, truncated, info = env.step(env.policy_action())
        assert info["outcome"] == {k: int(v) for k, v in simulated.iloc[game].items()}


def test_reset_seeds_the_run_and_walks_its_games():
    env = aec_env("jugule.duel")
    env.reset(seed=3)
    first = env.observe(env.agent_selection)["observation"]
    env.step(env.policy_action())
    env.reset()
    assert (env.run_seed, env.game_index) == (3, 1)
    env.reset(seed=3)
    assert env.game_index == 0 and np.array_equal(env.observe(env.agent_selection)["observation"], first)
    env.reset(options={"game": 7})
    assert env.game_index == 7 and env.game_state.history == ()


def test_usurpation_games_without_a_decision_are_passed_over():
    """With the scenario's own target the usurper decides only when the civil war can extend: the games without
    any decision are skipped, and the one played is named."""
    env = RomesimEnv("semper_victor.usurpation")
    indices = []
    for _ in range(4):
        obs, info = env.reset()
        indices.append(info["game"])
        assert obs["action_mask"].any()
    decided = [g for g in range(indices[-1] + 1) if not romesim.new_game("semper_victor.usurpation", 0, g).is_terminal]
    assert indices == decided[:4]


def test_observations_hold_only_the_seats_own_decisions():
    """A seat's vector is the state of its latest decision: the one-hot of its point, then that point's entries;
    Jugule's B splits its AP without A's split (allocation = simultaneous), so its allocate state shows -1."""
    env = aec_env("jugule.duel")
    env.reset(seed=2)
    agent = env.table.agents["B"]
    seen = set()
    for name in env.agent_iter(400):
        obs, reward, terminated, truncated, info = env.last()
        if terminated:
            env.step(None)
            continue
        point = env.game_state.point
        vector = obs["observation"]
        assert vector[:len(env.table.agents[name].points)].tolist().count(1) == 1
        if name == "B" and point.name == "b_allocate":
            assert vector[len(agent.points) + list(point.state).index("enemy_open_split")] == -1
            seen.add(point.name)
        other = "A" if name == "B" else "B"
        assert np.array_equal(env.observe(other)["action_mask"], np.zeros(env.table.agents[other].n_actions))
        env.step(env.policy_action())
    assert seen == {"b_allocate"}


def test_actions_are_indices_into_each_points_fixed_list():
    duel = romesim.scenario("jugule.duel", a="retiarius", b="secutor")
    ap_a = int(duel.gladiators()[0][0, 2])
    assert duel.all_actions("a_allocate")[-1] == ap_a * 100 and len(duel.all_actions("a_allocate")) == \
        (ap_a + 1) * (ap_a + 2) // 2
    assert duel.all_actions("a_attack") == tuple(range(41))
    assert len(romesim.scenario("vox_populi.game").all_actions("seat0")) == 288
    with pytest.raises(romesim.ScenarioError, match="no decision point 'attack'"):
        duel.all_actions("attack")
    env = RomesimEnv(duel, seat="A")
    obs, info = env.reset(seed=4)
    while info.get("point") != "a_allocate":
        obs, reward, terminated, truncated, info = env.step_policy()
    legal = [duel.all_actions("a_allocate")[i] for i in np.flatnonzero(obs["action_mask"])]
    assert legal == env.game_state.legal_actions()


def test_illegal_actions_lose_or_raise():
    env = RomesimEnv("kings_of_rome.battle", seed=1)
    obs, info = env.reset()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, bad)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)
    strict = RomesimEnv("kings_of_rome.battle", seed=1, illegal="raise")
    strict.reset()
    with pytest.raises(romesim.PolicyError, match=r"rome at '\w+' \(DP-B\d+\): action index \d is not allowed; "
                                                  r"allowed: \["):
        strict.step(bad)
    with pytest.raises(romesim.PolicyError, match="an integer index"):
        strict.step(0.5)
    aec = aec_env("vox_populi.game", seed=1)
    aec.reset()
    offender = aec.agent_selection
    bad = aec.action_space(offender).n  # the first decision allows all 288 placements: one past them
    aec.step(bad)
    assert aec.rewards[offender] == pytest.approx(-1 / 3) and sum(aec.rewards.values()) == pytest.approx(0)
    assert all(aec.terminations.values()) and aec.infos[offender] == {"illegal_action": bad}


def test_seats_and_policies_choose_who_plays():
    env = aec_env("kings_of_rome.battle", seats=["rome"], policies={"nr_tactic": "attack"})
    assert env.possible_agents == ["rome"]
    env = aec_env("semper_victor.battle", seats="attacker", policies={"losses": "random"})
    env.reset(seed=1)
    assert env.table.shared == {"losses": "random", "retreat": None, "commander": None}
    for agent in env.agent_iter(50):
        assert agent == "attacker"
        env.step(None if env.terminations[agent] else env.policy_action())
    with pytest.raises(romesim.ScenarioError, match="has no seat 'C'; seats: A, B"):
        aec_env("jugule.duel", seats=["C"])
    with pytest.raises(romesim.PolicyError, match="'a_move' is decided by the agents"):
        aec_env("jugule.duel", policies={"a_move": "random"})
    with pytest.raises(romesim.PolicyError, match="unknown policy 'best'"):
        aec_env("semper_victor.battle", seats=["attacker"], policies={"losses": "best"})
    with pytest.raises(romesim.ScenarioError, match="a procedure without players"):
        RomesimEnv("kings_of_rome.siege")
    with pytest.raises(romesim.PolicyError, match="illegal: 'skip'"):
        RomesimEnv("jugule.duel", illegal="skip")


def test_rewards_are_win_shares_less_the_others_mean():
    assert rewards_of(shares([1, 0])).tolist() == [1, -1]
    assert rewards_of(shares([0, 0])).tolist() == [0, 0]
    assert rewards_of(shares([1, 1, 0, 0])).tolist() == pytest.approx([1 / 3, 1 / 3, -1 / 3, -1 / 3])
    assert rewards_of(shares([1])).tolist() == [1]


def test_openspiel_mcts_plays_a_romesim_battle_and_the_games_are_registered():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import evaluate_bots, mcts
    from open_spiel.python.bots import uniform_random

    from romesim.adapters.openspiel import openspiel_game

    rng = np.random.RandomState(0)
    game = openspiel_game("kings_of_rome.battle", seed=SEED)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 2.0, 24, evaluator, random_state=rng), uniform_random.UniformRandomBot(1, rng)]
    for k in range(3):  # the search clones states: the games are still 0, 1, 2 of the run
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, bots, rng)
        assert state.game_index == k and returns in ([1.0, -1.0], [0.0, 0.0], [-1.0, 1.0])
        assert state.is_terminal() and len(state.history()) == len(state.game_state.history) > 0
    for name in ("kings_of_rome.battle", "jugule.duel"):
        loaded = pyspiel.load_game("python_romesim_" + name.replace(".", "_"), {"seed": 2})
        assert loaded.num_players() == 2 and loaded.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
        state = loaded.new_initial_state()
        twin = state.clone()
        assert (state.game_index, twin.game_index) == (0, 0)
        action = state.legal_actions()[0]
        state.apply_action(action)
        assert len(twin.history()) == 0 and loaded.new_initial_state().game_index == 1
    vox = pyspiel.load_game("python_romesim_vox_populi_game", {"params": '{"players": 3}'})
    assert vox.num_players() == 3 and vox.observation_tensor_shape() == [1 + 1917]
    campaign = pyspiel.load_game("python_romesim_kings_of_rome_campaign", {"seed": 2})
    state = campaign.new_initial_state()
    while not state.is_terminal():  # Rome ends its actions at once each turn: the rules' own opponent plays on
        state.apply_action(state.legal_actions()[0])
    assert campaign.num_players() == 1 and state.returns() in ([0.0], [1.0]) and len(state.history()) > 0


def test_the_missing_extra_is_named():
    with pytest.raises(ImportError, match=r"pip install 'romesim\[rl\]'"):
        _require("romesim.adapters.example", "a_package_that_is_not_installed")
