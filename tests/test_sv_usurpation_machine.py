"""The usurpation (seed 3.6) as a state machine (``core.loop.machine_game``): a game in progress lives in its
arrays, so a copy of them at a decision is the game at that decision. Compiled code stops a double usurpation at
its first D5 target decision, copies it, and plays from the copy the target each built-in would name, the rest of
the game by that built-in: each branch is game K of ``simulate`` under that built-in."""
import numba
import numpy as np

import romesim
from romesim.core import rng
from romesim.core.loop import END
from romesim.core.policy import resolve
from romesim.semper_victor import usurpation as U
from romesim.semper_victor.policies import USURP_DP_TARGET, decide_usurpation_target

from test_sv_usurpation import DOUBLE

GAMES = 200
OPEN = dict(DOUBLE, assassinations=2, counter_assassinations=2,
            usurpations=[{"stratagem": "leader", "target": -1}] * 2)


@numba.njit
def play_on(stream, codes, params, stop, p, zone_diocese, dadj, lead, units, legal, march, state, dio, tie, ls, zs,
            aux, g, row):
    """Play on from where the game stands, every decision by its built-in in ``codes``; stop at the first
    decision of point ``stop`` (returns True if it did)."""
    while True:
        point = U.usurpation_advance(stream, p, zone_diocese, dadj, lead, units, legal, march, state, dio, tie, ls,
                                     zs, aux, g, row)
        if point == END:
            return False
        if point == stop:
            return True
        action = U.usurpation_decide(0, point, codes, params, None, stream, p, zone_diocese, dadj, lead, units,
                                     legal, march, state, dio, tie, ls, zs, aux, g, row)
        if not U.usurpation_legal(point, action, p, zone_diocese, dadj, lead, units, legal, march, state, dio, tie,
                                  ls, zs, aux, g, row):
            raise ValueError("an illegal action")  # no assert: pytest rewrites those, which numba cannot compile
        U.usurpation_apply(point, action, p, zone_diocese, dadj, lead, units, legal, march, state, dio, tie, ls, zs,
                           aux, g, row)


def test_each_target_tried_from_one_copied_game_is_the_simulated_game():
    """seed 3.6 (D5): the double usurpation copied at its first target decision, the target each built-in would
    name played from the copy and the game finished by that built-in, gives game K of simulate(target=...)."""
    scenario = romesim.scenario("semper_victor.usurpation", **OPEN)
    args = scenario.kernel_args()
    policies = resolve(scenario.decision_points, {})
    names = {"best": 0, "random": 1}
    expected = {name: romesim.simulate(scenario, GAMES, 4, policies={"target": name}, keep=True).outcomes
                for name in names}
    chosen = set()
    for k in range(GAMES):
        stream = rng.new_stream()
        rng.start(stream, np.uint64(4), k)
        arrays = (*U.usurpation_scratch(args), np.zeros(U.N_METRICS, np.int64))
        U.usurpation_init(stream, *args, *arrays)
        assert play_on(stream, policies.codes, policies.params, USURP_DP_TARGET, *args, *arrays)
        for name, code in names.items():
            codes = policies.codes.copy()
            codes[USURP_DP_TARGET] = code
            branch_stream, branch = stream.copy(), tuple(a.copy() for a in arrays)
            action = int(decide_usurpation_target(code, policies.params[USURP_DP_TARGET], branch[0], branch_stream,
                                                  None, USURP_DP_TARGET))
            chosen.add(action)
            assert U.usurpation_legal(USURP_DP_TARGET, action, *args, *branch)
            U.usurpation_apply(USURP_DP_TARGET, action, *args, *branch)
            play_on(branch_stream, codes, policies.params, -1, *args, *branch)
            assert branch[-1].tolist() == expected[name].iloc[k].tolist(), (k, name)
    assert len(chosen) > 1
