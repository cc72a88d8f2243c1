"""Vox Populi as a state machine (``core.loop.machine_game``): a game in progress lives in its arrays (the board,
hands and deck, and where every nested procedure stands: the frames of ``g``), so a copy of them at a decision is
the game at that decision. Compiled code stops a game at seat 0's first posted turn bonus (spec 6.4, DP13), copies
it, and plays each bonus from the copy: each branch is game K of ``simulate`` under a seat-0 policy that takes
that bonus, outcome row for outcome row, and the uncopied game played on equals its branch."""
import numba
import numpy as np
import pytest

import romesim
from romesim.core import rng
from romesim.core.loop import END
from romesim.core.policy import resolve
from romesim.vox_populi import game
from romesim.vox_populi.policies import CODE_DEFAULT, builtin_policy
from romesim.vox_populi.state import K_TURN_BONUS, VIEW_KIND, VIEW_LEGAL, VIEW_N_ACTIONS

GAMES = 120
SEED = 11


@numba.njit
def coin_bonus(view, params, stream):
    """Seat 0: a sesterce at every turn bonus (DP13 action 0), the default bot otherwise."""
    if view[VIEW_KIND] == K_TURN_BONUS:
        return 0
    return builtin_policy(CODE_DEFAULT, params, view, stream)


@numba.njit
def card_bonus(view, params, stream):
    """Seat 0: the top card at every turn bonus (DP13 action 1), the default bot otherwise."""
    if view[VIEW_KIND] == K_TURN_BONUS:
        return 1
    return builtin_policy(CODE_DEFAULT, params, view, stream)


@numba.njit
def play_on(stream, codes, params, forced, p, g, view, row):
    """Play on from where the game stands, every decision by the default bot but seat 0's turn bonuses, which take
    ``forced``; with ``forced`` < 0, stop at seat 0's first posted turn bonus instead (returns True if it did)."""
    while True:
        point = game.vox_advance(stream, p, g, view, row)
        if point == END:
            return False
        if point == 0 and view[VIEW_KIND] == K_TURN_BONUS:
            if forced < 0:
                return True
            action = forced
        else:
            action = game.decide_seat(0, point, codes, params, None, stream, p, g, view, row)
        if not game.vox_legal(point, action, p, g, view, row):
            return False
        game.vox_apply(point, action, p, g, view, row)


@pytest.mark.parametrize("players", [3, 5])
def test_each_bonus_tried_from_one_copied_game_is_the_simulated_game(players):
    """Spec 6.4 (DP13): the game copied at seat 0's first posted turn bonus, each bonus played on from the copy,
    gives game K of simulate under a seat-0 policy taking that bonus: the copy is the whole game in progress, the
    nested procedures' frames included; the uncopied game played on equals its branch."""
    scenario = romesim.scenario("vox_populi.game", players=players)
    policies = resolve(scenario.decision_points, {})
    args = scenario.kernel_args()
    expected = {action: romesim.simulate(scenario, GAMES, SEED, policies={"seat0": bot}, keep=True).outcomes
                for action, bot in ((0, coin_bonus), (1, card_bonus))}
    stopped = 0
    for k in range(GAMES):
        stream = rng.new_stream()
        rng.start(stream, np.uint64(SEED), k)
        arrays = (*game.game_scratch(args), np.zeros(len(scenario.metrics), np.int64))
        game.vox_init(stream, *args, *arrays)
        at_bonus = play_on(stream, policies.codes, policies.params, -1, *args, *arrays)
        if not at_bonus:
            assert arrays[-1].tolist() == expected[0].iloc[k].tolist() == expected[1].iloc[k].tolist(), k
            continue
        stopped += 1
        view = arrays[1]
        assert view[VIEW_N_ACTIONS] == 2 and view[VIEW_LEGAL] == view[VIEW_LEGAL + 1] == 1
        branches = {}
        for action, outcomes in expected.items():
            branch_stream, branch = stream.copy(), tuple(a.copy() for a in arrays)
            game.vox_apply(0, action, *args, *branch)
            play_on(branch_stream, policies.codes, policies.params, action, *args, *branch)
            assert branch[-1].tolist() == outcomes.iloc[k].tolist(), (k, action)
            branches[action] = branch
        game.vox_apply(0, 1, *args, *arrays)
        play_on(stream, policies.codes, policies.params, 1, *args, *arrays)
        assert all(a.tolist() == b.tolist() for a, b in zip(arrays, branches[1])), k
    assert stopped > GAMES // 2


def test_a_game_state_of_vox_holds_its_arrays_not_its_history():
    """``new_game`` steps a state-machine game by copying its arrays (no replay from the start): a state applied
    twice gives equal games, and leaves the state it came from as it was; every state it stops at offers two or
    more legal actions (a decision with one is taken by the game itself)."""
    state = romesim.new_game("vox_populi.game", seed=3, game=5)
    assert type(state).__name__ == "_MachineState"
    before = state.state
    first, second = state.apply(state.legal_actions()[0]), state.apply(state.legal_actions()[0])
    assert first.state.tolist() == second.state.tolist()
    assert state.state.tolist() == before.tolist()
    steps = 0
    while not state.is_terminal and steps < 400:
        legal = state.legal_actions()
        assert len(legal) >= 2, (steps, state.point.name)
        state = state.apply(legal[-1])
        steps += 1


def test_an_illegal_action_ends_the_game_with_the_seats_error():
    """An action outside the view's legal mask ends the game with ``error_code(seat, action)`` from the core
    loop, as ``procedures.decide`` reported it."""
    scenario = romesim.scenario("vox_populi.game")
    args = scenario.kernel_args()
    stream = rng.new_stream()
    rng.start(stream, np.uint64(SEED), 0)
    arrays = (*game.game_scratch(args), np.zeros(len(scenario.metrics), np.int64))
    game.vox_init(stream, *args, *arrays)
    point = game.vox_advance(stream, *args, *arrays)
    assert point != END
    view = arrays[1]
    assert not game.vox_legal(point, -1, *args, *arrays)
    assert not game.vox_legal(point, view[VIEW_N_ACTIONS], *args, *arrays)
    illegal = [a for a in range(view[VIEW_N_ACTIONS]) if view[VIEW_LEGAL + a] == 0]
    if illegal:
        assert not game.vox_legal(point, illegal[0], *args, *arrays)
