"""The Jugule duel as a state machine (``core.loop.machine_game``): a duel in progress lives in its arrays, its
procedure stack included, so a copy of them at a decision is the duel at that decision. Compiled code stops a duel
at a decision, copies it, and plays each of two actions on from the copy: each branch is game K of ``simulate``
under the policy that always takes that action there, outcome row for outcome row, the way a search bot will try
the actions of a decision."""
import numba
import numpy as np
import pytest

import romesim
from romesim.core import rng
from romesim.core.loop import END
from romesim.core.policy import resolve
from romesim.jugule import duel
from romesim.jugule.policies import N_POINTS, P_APPEAL, P_STUMBLE, S_AP

GAMES = 300


@numba.njit
def always_zero(state, params, stream):
    return 0


@numba.njit
def always_one(state, params, stream):
    return 1


@numba.njit
def play_on(stream, codes, params, stop, forced, o, G0, IT0, st, state, G, IT, cand, row):
    """Play on from where the duel stands, every decision by its built-in but those of point ``stop``, which take
    ``forced`` when ``forced`` >= 0; with ``forced`` < 0, stop at the first decision of ``stop`` instead (returns
    True if it did)."""
    while True:
        point = duel.duel_advance(stream, o, G0, IT0, st, state, G, IT, cand, row)
        if point == END:
            return False
        if point == stop:
            if forced < 0:
                return True
            action = forced
        else:
            action = duel.decide_duel(0, point, codes, params, None, stream, o, G0, IT0, st, state, G, IT, cand,
                                      row)
        duel.duel_apply(point, action, o, G0, IT0, st, state, G, IT, cand, row)


@pytest.mark.parametrize("params, point, builtin, user", [
    ({"a": "retiarius", "b": "secutor"}, "a_appeal", 0, (1, always_one)),
    ({"a": "thraex_late", "b": "murmillo", "fumble_scope": "every_assault"}, "b_stumble", 1, (0, always_zero)),
], ids=["appeal_at_turn_start", "stumble_inside_an_assault"])
def test_both_actions_tried_from_one_copied_duel_are_the_simulated_games(params, point, builtin, user):
    """JUG 12.4 (D3) at the first checkpoint, and 11 (D12, fumble 1) deep inside a combat phase's assault: the duel
    copied at the decision, each action played on from the copy (and at every later decision of that point), gives
    game K of simulate with the built-in (``default``: 0 for an appeal, 1 for a stumble) and with a user function
    that always takes the other action."""
    scenario = romesim.scenario("jugule.duel", **params)
    policies = resolve(scenario.decision_points, {})
    args = scenario.kernel_args()
    index = [dp.name for dp in scenario.decision_points].index(point)
    assert index in (0 * N_POINTS + P_APPEAL, 1 * N_POINTS + P_STUMBLE)
    action, function = user
    expected = {builtin: romesim.simulate(scenario, GAMES, 9, keep=True).outcomes,
                action: romesim.simulate(scenario, GAMES, 9, policies={point: function}, keep=True).outcomes}
    assert not expected[builtin].equals(expected[action])
    stopped = 0
    for k in range(GAMES):
        stream = rng.new_stream()
        rng.start(stream, np.uint64(9), k)
        arrays = (*duel.duel_scratch(args), np.zeros(duel.N_METRICS, np.int64))
        duel.duel_init(stream, *args, *arrays)
        at_point = play_on(stream, policies.codes, policies.params, index, -1, *args, *arrays)
        for taken, outcomes in expected.items():
            branch_stream, branch = stream.copy(), tuple(a.copy() for a in arrays)
            if at_point:
                duel.duel_apply(index, taken, *args, *branch)
            play_on(branch_stream, policies.codes, policies.params, index, taken, *args, *branch)
            assert branch[-1].tolist() == outcomes.iloc[k].tolist(), (k, taken)
        stopped += at_point
    assert stopped >= 20, stopped  # enough duels reach the decision for the copies to matter


def test_a_game_state_of_the_duel_holds_its_arrays_not_its_history():
    """``new_game`` steps the duel by copying its arrays (no replay from the start): a state applied twice gives
    equal games, and leaves the state it came from as it was."""
    state = romesim.new_game("jugule.duel", seed=3, game=5)
    assert type(state).__name__ == "_MachineState"
    for _ in range(10):  # a few decisions in, past the split (0 never appeals)
        state = state.apply(state.legal_actions()[0])
    assert not state.is_terminal
    before = state.state
    first, second = state.apply(state.legal_actions()[0]), state.apply(state.legal_actions()[0])
    assert first.state.tolist() == second.state.tolist() and first.point_index == second.point_index
    assert state.state.tolist() == before.tolist()


def test_an_illegal_action_is_refused_with_the_point_and_the_game_goes_on_from_a_legal_one():
    """The machine's ``legal`` is each site's own test: D4's split must fit the AP (every M * 100 + C with
    M + C <= ap, and nothing else)."""
    state = romesim.new_game("jugule.duel", seed=1, game=0)
    while state.point.name not in ("a_allocate", "b_allocate"):
        state = state.apply(state.legal_actions()[0])
    ap = int(state.state[S_AP])
    with pytest.raises(romesim.PolicyError):
        state.apply((ap + 1) * 100)
    assert state.legal_actions() == [m * 100 + c for m in range(ap + 1) for c in range(ap + 1 - m)]
    after = state.apply(ap * 100)
    assert after.is_terminal or after.point.name != state.point.name
