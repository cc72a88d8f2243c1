"""Games stopped at a decision and resumed from outside (romesim.new_game, GameState): the same rules and dice as
simulate, game by game; legal actions as the game's own masks give them; errors that name what is wrong."""
import numba
import numpy as np
import pytest

import romesim
from romesim.kings_of_rome.policies import BATTLE_POINTS
from romesim.jugule.policies import DUEL_POINTS
from romesim.vox_populi.state import VIEW_LEGAL, VIEW_N_ACTIONS

SIEGE = romesim.scenario("kings_of_rome.siege", garrison=2, astutia=2)
S = romesim.state_index("kings_of_rome.siege", "reroll")
NO_PARAMS, NO_STREAM = np.zeros(8), np.zeros(2, np.uint64)


@numba.njit
def reroll_on_b(state, params, stream):
    return 1 if state[S.roll] == 1 and state[S.can_succeed] == 1 else 0


@numba.njit
def first_legal(state, params, stream):
    """A Kings of Rome battle point's first legal action: its state opens with the mask legal_0 .. legal_7."""
    for a in range(8):
        if state[a] != 0:
            return a
    return -1


@numba.njit
def always_zero(state, params, stream):
    return 0  # pass, no, none, the first candidate: legal at every Jugule decision


@numba.njit
def first_in_view(view, params, stream):
    """A Vox Populi seat's first legal action, from the legal mask of its view."""
    for a in range(view[VIEW_N_ACTIONS]):
        if view[VIEW_LEGAL + a] != 0:
            return a
    return -1


def play_through(state, bot):
    """Play a game state to its end, deciding with ``bot`` as the kernel would call it."""
    while not state.is_terminal:
        state = state.apply(int(bot(state.state, NO_PARAMS, NO_STREAM)))
    return state


@pytest.mark.parametrize("scenario, points, bot, games", [
    (SIEGE, ["reroll"], reroll_on_b, 120),
    (romesim.scenario("kings_of_rome.battle"), [p.name for p in BATTLE_POINTS], first_legal, 40),
    (romesim.scenario("jugule.duel", a="retiarius", b="secutor"), [p.name for p in DUEL_POINTS], always_zero, 12),
    (romesim.scenario("vox_populi.game"), [f"seat{s}" for s in range(4)], first_in_view, 3),
], ids=["siege", "battle", "duel", "vox"])
def test_a_state_played_through_is_the_simulated_game(scenario, points, bot, games):
    """Same dice, same rules: game K stepped from outside with a bot's actions ends with the outcome row that
    simulate gives game K under the same bot."""
    simulated = romesim.simulate(scenario, games, seed=7, keep=True, policies=dict.fromkeys(points, bot)).outcomes
    for game in range(games):
        end = play_through(romesim.new_game(scenario, seed=7, game=game, control=points), bot)
        assert end.outcome.tolist() == simulated.iloc[game].tolist(), game


def test_legal_actions_are_the_battles_own_masks():
    """Each offered action is kept when the game accepts it: at every decision of these battles that is exactly the
    mask legal_0 .. legal_7 the battle writes into the state."""
    battle = romesim.scenario("kings_of_rome.battle")
    checked = 0
    for game in range(15):
        state = romesim.new_game(battle, seed=3, game=game)
        while not state.is_terminal:
            mask = [a for a in range(8) if state.state[a]]
            assert state.legal_actions() == mask, (game, state.point.name, state.history)
            state = state.apply(mask[-1])
            checked += 1
    assert checked > 50


def test_a_seat_sees_its_view_and_the_legal_actions_it_marks():
    """Vox Populi: the state of a seat's decision is its view (hidden information stays hidden), and the actions
    the game accepts are those the view marks legal."""
    state = romesim.new_game("vox_populi.game", seed=2, game=1)
    for _ in range(12):
        view = state.observation
        assert state.point.name == f"seat{view['seat']}"
        marked = np.flatnonzero(state.state[VIEW_LEGAL:VIEW_LEGAL + state.state[VIEW_N_ACTIONS]]).tolist()
        assert state.legal_actions() == marked
        state = state.apply(marked[len(marked) // 2])


def test_a_state_shows_the_decision_and_is_a_value():
    state = romesim.new_game(SIEGE, seed=7, game=2)
    assert state.point.name == "reroll" and not state.is_terminal and state.history == ()
    assert state.observation.index.tolist() == list(state.point.state)
    assert state.observation["roll"] == 0 and state.legal_actions() == [0, 1]
    kept, rerolled = state.apply(0), state.apply(1)
    assert state.history == () and kept.history == (0,) and rerolled.history == (1,)
    assert "0 actions, at 'reroll' (DP-S05)" in repr(state)
    end = play_through(rerolled, reroll_on_b)
    assert end.is_terminal and end.point is None and end.history[0] == 1 and "over" in repr(end)


def test_resample_keeps_the_past_and_draws_another_future():
    """Determinization: a resampled state is the same decision; the dice after its next action come from another
    stream, the same one for the same seed."""
    differs = 0
    for game in range(40):
        state = romesim.new_game(SIEGE, seed=7, game=game)
        if state.is_terminal:
            continue
        twin = state.resample(99)
        assert twin.point_index == state.point_index and twin.state.tolist() == state.state.tolist()
        mine = play_through(state.apply(1), reroll_on_b).outcome.tolist()
        other = play_through(twin.apply(1), reroll_on_b).outcome.tolist()
        assert play_through(state.resample(99).apply(1), reroll_on_b).outcome.tolist() == other
        differs += mine != other
    assert differs > 0


@pytest.mark.parametrize("policies", [{}, {"tactic": "random", "spolia": ("parametric", [0.5]),
                                          "deployment": first_legal}], ids=["defaults", "given"])
def test_apply_policy_takes_a_decision_as_simulate_does(policies):
    """A policy asked by apply_policy draws its dice from the game's stream (the NR tactic's coin flip, the
    random tactic): a battle stepped that way at every decision is simulate's game under those policies."""
    battle = romesim.scenario("kings_of_rome.battle")
    simulated = romesim.simulate(battle, 10, seed=3, keep=True, policies=policies).outcomes
    for game in range(10):
        state = romesim.new_game(battle, seed=3, game=game)
        while not state.is_terminal:
            after = state.apply_policy(policies.get(state.point.name))
            assert after.history[:-1] == state.history and after.history[-1] in state.legal_actions()
            state = after
        assert state.outcome.tolist() == simulated.iloc[game].tolist(), game


def test_apply_policy_errors_name_what_is_wrong():
    battle = romesim.new_game("kings_of_rome.battle", seed=3)
    with pytest.raises(romesim.PolicyError, match="unknown policy 'nonsense'"):
        battle.apply_policy("nonsense")
    with pytest.raises(romesim.PolicyError, match="is replayed from its history, not stepped as a state machine"):
        romesim.new_game(SIEGE, seed=7, game=2).apply_policy()
    duel = romesim.new_game("jugule.duel", seed=1, game=2).resample(4)
    while not duel.is_terminal:
        duel = duel.apply_policy()
    with pytest.raises(romesim.PolicyError, match="apply_policy: game 2 is over"):
        duel.apply_policy()


def test_errors_name_what_is_wrong():
    state = romesim.new_game(SIEGE, seed=7, game=2)
    with pytest.raises(romesim.PolicyError, match=r"'reroll' \(DP-S05\): action 5 is not allowed at decision 0 of "
                                                  r"game 2; allowed: 0 = keep"):
        state.apply(5)
    with pytest.raises(romesim.PolicyError, match="an action is an integer"):
        state.apply(1.0)
    over = play_through(state, reroll_on_b)
    with pytest.raises(romesim.PolicyError, match="game 2 is over; no decision is pending"):
        over.apply(0)
    with pytest.raises(romesim.PolicyError, match="resample: game 2 is over"):
        over.resample(1)
    with pytest.raises(romesim.PolicyError, match="waits for decision point 'reroll'"):
        state.outcome
    with pytest.raises(romesim.PolicyError, match="control: unknown decision point 'rerolls'; allowed: "):
        romesim.new_game(SIEGE, control=["rerolls"])
    with pytest.raises(romesim.PolicyError, match="'battle' is a procedure hook"):
        romesim.new_game("semper_victor.battle", control=["battle"])
    with pytest.raises(romesim.PolicyError, match="'reroll' is decided by the game states"):
        romesim.new_game(SIEGE, policies={"reroll": "never"})
    with pytest.raises(romesim.PolicyError, match="game: a game index >= 0"):
        romesim.new_game(SIEGE, game=-1)


def test_a_procedure_without_decisions_is_over_at_once():
    state = romesim.new_game("kings_of_rome.ignominy", seed=1, game=4)
    assert state.is_terminal and state.point is None and state.legal_actions() == []
    row = romesim.simulate("kings_of_rome.ignominy", 5, seed=1, keep=True).outcomes.iloc[4]
    assert state.outcome.tolist() == row.tolist()
