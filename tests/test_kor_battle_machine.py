"""KoR 5.7 as a state machine (``core.loop.machine_game``): a battle in progress lives in its arrays, so a copy of
them at a decision is the battle at that decision. Compiled code stops a battle at its tactic decision (KoR 5.7.3,
DP-B04), copies it, and plays each tactic from the copy: each branch is game K of ``simulate`` under that tactic,
outcome row for outcome row, the way a search bot will try the actions of a decision."""
import numba
import numpy as np
import pytest

import romesim
from romesim.core import rng
from romesim.core.loop import END
from romesim.core.policy import resolve
from romesim.kings_of_rome import battle
from romesim.kings_of_rome.policies import DP_B_TACTIC

GAMES = 300


@numba.njit
def play_on(stream, codes, params, stop, forced, p, units, leaders, status, g, state, row):
    """Play on from where the battle stands, every decision by its built-in, but ``forced`` at the first decision
    of point ``stop`` when ``forced`` >= 0; with ``forced`` < 0, stop there instead (returns True if it did)."""
    while True:
        point = battle.battle_advance(stream, p, units, leaders, status, g, state, row)
        if point == END:
            return False
        if point == stop:
            if forced < 0:
                return True
            action, stop = forced, -1
        else:
            action = battle.battle_decide(0, point, codes, params, None, stream, p, units, leaders, status, g,
                                          state, row)
        battle.battle_apply(point, action, p, units, leaders, status, g, state, row)


@pytest.mark.parametrize("params", [{}, {"nr_units": [{"kind": "infantry", "virtus": 4},
                                                      {"kind": "cavalry", "virtus": 3},
                                                      {"kind": "infantry", "virtus": 3}]}],
                         ids=["romulus_vs_latins", "with_cavalry"])
def test_every_tactic_tried_from_one_copied_battle_is_the_simulated_game(params):
    """KoR 5.7.3 (DP-B04): the battle copied at its tactic decision, each tactic played on from the copy, gives
    game K of simulate(tactic=attack) and of simulate(tactic=defence): the copy is the whole game in progress."""
    scenario = romesim.scenario("kings_of_rome.battle", **params)
    policies = resolve(scenario.decision_points, {})
    args = scenario.kernel_args()
    expected = {action: romesim.simulate(scenario, GAMES, 9, policies={"tactic": name}, keep=True).outcomes
                for action, name in ((1, "attack"), (0, "defence"))}
    stopped = 0
    for k in range(GAMES):
        stream = rng.new_stream()
        rng.start(stream, np.uint64(9), k)
        arrays = (*battle.battle_scratch(args), np.zeros(battle.N_METRICS, np.int64))
        battle.battle_init(stream, *args, *arrays)
        at_tactic = play_on(stream, policies.codes, policies.params, DP_B_TACTIC, -1, *args, *arrays)
        for action, outcomes in expected.items():
            branch_stream, branch = stream.copy(), tuple(a.copy() for a in arrays)
            if at_tactic:
                battle.battle_apply(DP_B_TACTIC, action, *args, *branch)
            play_on(branch_stream, policies.codes, policies.params, -1, 0, *args, *branch)
            assert branch[-1].tolist() == outcomes.iloc[k].tolist(), (k, action)
        stopped += at_tactic
    assert stopped > GAMES // 2  # most battles reach the tactics (a Spolia duel may end one before)


def test_a_game_state_of_the_battle_holds_its_arrays_not_its_history():
    """``new_game`` steps a state-machine game by copying its arrays (no replay from the start): a state applied
    twice gives equal games, and leaves the state it came from as it was."""
    state = romesim.new_game("kings_of_rome.battle", seed=3, game=5)
    before = state.state
    first, second = state.apply(state.legal_actions()[0]), state.apply(state.legal_actions()[0])
    assert first.state.tolist() == second.state.tolist()
    assert state.state.tolist() == before.tolist()
    assert type(state).__name__ == "_MachineState"


def test_the_nr_tactic_is_a_decision_whose_rules_draw_reads_the_markers_it_shows():
    """KOR-A19: the NR marker's decision state shows the markers it is drawn from: one of each for the coin flip,
    the pool's less the Roman's marker with nr_tactic_draw = pool_without_replacement."""
    for draw, attack_first in (("coin_flip", (1, 1)), ("pool_without_replacement", None)):
        scenario = romesim.scenario("kings_of_rome.battle", nr_tactic_draw=draw, tactic_pool_attack=3,
                                    tactic_pool_defence=2)
        state = romesim.new_game(scenario, seed=1, game=0, control=["tactic", "nr_tactic"])
        assert state.point.name == "tactic"
        state = state.apply(1)
        assert state.point.name == "nr_tactic"
        shown = state.observation
        markers = (int(shown["attack_markers"]), int(shown["defence_markers"]))
        if attack_first is not None:
            assert markers == attack_first
        else:
            assert markers == (scenario.tactic_pool_attack - 1, scenario.tactic_pool_defence)
        assert shown["roman_tactic"] == 1
