"""PROPOSAL P8 as a state machine (``core.loop.machine_game``): a battle in progress lives in its arrays, so a copy
of them at a decision is the battle at that decision. Compiled code stops a battle at its first D14 ``losses``
decision (P8.4), copies it, and plays from the copy the unit each of three built-ins would pick, the rest of the
battle by that built-in: each branch is game K of ``simulate`` under that built-in, outcome row for outcome row,
the way a search bot will try the actions of a decision."""
import numba
import numpy as np
import pytest

import romesim
from romesim.core import rng
from romesim.core.loop import END
from romesim.core.policy import resolve
from romesim.semper_victor import battle
from romesim.semper_victor.policies import BATTLE_DP_COMMANDER, BATTLE_DP_LOSSES, decide_battle_losses

GAMES = 300
BUILTINS = {"preserve_sp": 0, "weakest_first": 1, "strongest_first": 2}


@numba.njit
def play_on(stream, codes, params, stop, forced, units0, leaders0, context0, state, units, leaders, context, out,
            losses, retreats, commands, g, row):
    """Play on from where the battle stands, every decision by its built-in in ``codes``, but ``forced`` at the
    first decision of point ``stop`` when ``forced`` >= 0; with ``forced`` < 0, stop there instead (returns True
    if it did)."""
    while True:
        point = battle.p8_advance(stream, units0, leaders0, context0, state, units, leaders, context, out, losses,
                                  retreats, commands, g, row)
        if point == END:
            return False
        if point == stop:
            if forced < 0:
                return True
            action, stop = forced, -1
        else:
            action = battle.p8_decide(0, point, codes, params, None, stream, units0, leaders0, context0, state, units,
                                      leaders, context, out, losses, retreats, commands, g, row)
        if not battle.p8_legal(point, action, units0, leaders0, context0, state, units, leaders, context, out,
                               losses, retreats, commands, g, row):
            raise ValueError("an illegal action")  # no assert: pytest rewrites those, which numba cannot compile
        battle.p8_apply(point, action, units0, leaders0, context0, state, units, leaders, context, out, losses,
                        retreats, commands, g, row)


def new_battle(scenario, seed, k):
    args = scenario.kernel_args()
    stream = rng.new_stream()
    rng.start(stream, np.uint64(seed), k)
    arrays = (*battle.battle_scratch(args), np.zeros(battle.N_METRICS, np.int64))
    battle.p8_init(stream, *args, *arrays)
    return stream, args, arrays


@pytest.mark.parametrize("params", [{}, {"p8_commander": "choice", "p8_pursuit": True, "p8_dice_per_unit": 2}],
                         ids=["default", "choice_pursuit"])
def test_each_loss_tried_from_one_copied_battle_is_the_simulated_game(params):
    """P8.4 (D14 losses): the battle copied at its first loss decision, the unit each built-in would pick played
    from the copy and the battle finished by that built-in, gives game K of simulate(losses=that built-in): the
    copy is the whole battle in progress (commanders, hits, the allocation under way)."""
    scenario = romesim.scenario("semper_victor.battle", **params)
    policies = resolve(scenario.decision_points, {})
    expected = {name: romesim.simulate(scenario, GAMES, 9, policies={"losses": name}, keep=True).outcomes
                for name in BUILTINS}
    stopped, differ = 0, 0
    for k in range(GAMES):
        stream, args, arrays = new_battle(scenario, 9, k)
        at_losses = play_on(stream, policies.codes, policies.params, BATTLE_DP_LOSSES, -1, *args, *arrays)
        chosen = set()
        for name, code in BUILTINS.items():
            codes = policies.codes.copy()
            codes[BATTLE_DP_LOSSES] = code
            branch_stream, branch = stream.copy(), tuple(a.copy() for a in arrays)
            if at_losses:
                losses = battle.MACHINE.view(BATTLE_DP_LOSSES, args + branch)
                action = int(decide_battle_losses(code, policies.params[BATTLE_DP_LOSSES], losses, branch_stream,
                                                  None, BATTLE_DP_LOSSES))
                chosen.add(action)
                assert battle.p8_legal(BATTLE_DP_LOSSES, action, *args, *branch)
                battle.p8_apply(BATTLE_DP_LOSSES, action, *args, *branch)
            play_on(branch_stream, codes, policies.params, -1, 0, *args, *branch)
            assert branch[-1].tolist() == expected[name].iloc[k].tolist(), (k, name)
        stopped += at_losses
        differ += len(chosen) > 1
    assert stopped > GAMES // 2 and differ > GAMES // 4  # most battles take a hit, and the built-ins disagree


def test_a_copy_branched_twice_with_one_action_gives_equal_battles_and_the_uncopied_one():
    """The same action applied to two copies of a battle stopped at its commander decision (P8.2, choice) gives
    equal rows, equal to the battle played on without copying: nothing of it lives outside its arrays."""
    scenario = romesim.scenario("semper_victor.battle", p8_commander="choice", p8_pursuit=True)
    chosen = {"losses": "random", "retreat": "random"}
    policies = resolve(scenario.decision_points, chosen)
    expected = romesim.simulate(scenario, 60, 5, policies=chosen, keep=True).outcomes
    for k in range(60):
        stream, args, arrays = new_battle(scenario, 5, k)
        assert play_on(stream, policies.codes, policies.params, BATTLE_DP_COMMANDER, -1, *args, *arrays)
        rows = []
        for _ in range(2):
            branch_stream, branch = stream.copy(), tuple(a.copy() for a in arrays)
            battle.p8_apply(BATTLE_DP_COMMANDER, 0, *args, *branch)
            play_on(branch_stream, policies.codes, policies.params, -1, 0, *args, *branch)
            rows.append(branch[-1].tolist())
        battle.p8_apply(BATTLE_DP_COMMANDER, 0, *args, *arrays)
        play_on(stream, policies.codes, policies.params, -1, 0, *args, *arrays)
        assert rows[0] == rows[1] == arrays[-1].tolist()
        assert rows[0] == expected.iloc[k].tolist()  # best_tb picks leader 0: the side's only leader


def test_illegal_actions_are_refused_at_their_own_point():
    """Each D14 point's legality reads its own state vector: a unit index must be eligible (P8.4), a zone below
    the side's zones (P8.6), a leader one of the side's (P8.2)."""
    scenario = romesim.scenario("semper_victor.battle", p8_commander="choice")
    policies = resolve(scenario.decision_points, {})
    stream, args, arrays = new_battle(scenario, 1, 0)
    assert play_on(stream, policies.codes, policies.params, BATTLE_DP_COMMANDER, -1, *args, *arrays)
    assert battle.p8_legal(BATTLE_DP_COMMANDER, 0, *args, *arrays)
    assert not battle.p8_legal(BATTLE_DP_COMMANDER, 1, *args, *arrays)
    assert not battle.p8_legal(BATTLE_DP_COMMANDER, -1, *args, *arrays)


def test_new_game_steps_the_battle_by_its_arrays_each_point_reading_its_own_state():
    """The three D14 points have state vectors of three lengths (``MACHINE.view`` gives each point its own):
    new_game steps the battle by copying its arrays, and a state played through is the simulated game; with a
    user function at the battle hook, which replaces the whole machine, new_game replays the battle instead (the
    hook decides the D14 points itself: none is left to control)."""
    scenario = romesim.scenario("semper_victor.battle", p8_commander="choice", p8_pursuit=True)
    first = romesim.new_game(scenario, seed=3, game=0)
    assert type(first).__name__ == "_MachineState"
    assert len(first.observation) == len(first.point.state)
    hooked = romesim.new_game(scenario, seed=3, game=0, policies={"battle": battle.p8_battle}, control=[])
    assert type(hooked).__name__ == "GameState" and hooked.is_terminal
    expected = romesim.simulate(scenario, 10, 3, keep=True).outcomes
    for k in range(10):
        state = romesim.new_game(scenario, seed=3, game=k)
        while not state.is_terminal:
            if state.point.name == "losses":
                action = int(decide_battle_losses(0, np.zeros(8), state.state, np.zeros(2, np.uint64), None, 1))
            else:
                action = 0 if state.point.name == "commander" else state.legal_actions()[0]
            state = state.apply(action)
        assert state.outcome.tolist() == expected.iloc[k].tolist(), k
