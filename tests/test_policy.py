"""Policies: built-ins by name and parameter vector, user @njit functions, illegal actions, resolution errors.

User functions of one signature reach the kernels through slots, their code's addresses, so a bot compiles on its
own (about a second) and never recompiles a kernel; the siege tests still share one function, ``scripted``, whose
behaviour is chosen by its parameter vector (a mode and its arguments). Treason has its own function ``spend``.
Both are module level so that they pickle to joblib worker processes.
"""
import math
import os
import subprocess
import sys

import numba
import numpy as np
import pytest
from numba import njit

import romesim
from romesim.core import rng
from romesim.kings_of_rome.policies import IP_SPENT, LOSSES, REROLL

N = 40_000

# ---------------------------------------------------------------------------- the user functions
# modes of ``scripted`` (params[0]); params[1:] are the mode's arguments
NEVER, ALWAYS, ONLY_ROLL_B, CAN_SUCCEED, RESERVE, CONSTANT, CHECKED_GREEDY, UNITS_FIRST = range(8)
BAD_STATE = 100  # an illegal action returned when the state vector is not what the decision point documents


@njit
def scripted(state, params, stream):
    mode = int(params[0])
    if mode == NEVER:  # reroll: keep every failed roll; losses: always the garrison
        return 0
    if mode == ALWAYS:  # reroll every failed roll while points last, even when no face could succeed
        return 1
    if mode == ONLY_ROLL_B:  # reroll: state[0] is the roll, 0 = a, 1 = b
        return 1 if state[0] == 1 else 0
    if mode == CAN_SUCCEED:  # reroll: the built-in greedy, from the documented can_succeed flag (state[3])
        return 1 if state[3] == 1 else 0
    if mode == RESERVE:  # reroll: the built-in reserve with keep = params[1], from state[0], state[2], state[3]
        if state[3] == 0:
            return 0
        if state[0] == 0 and state[2] <= params[1]:
            return 0
        return 1
    if mode == CONSTANT:
        return int(params[1])
    if mode == CHECKED_GREEDY:
        # reroll state = (roll, die, points_left, can_succeed, faces, faces_b, chained); params = (mode, highest
        # failing die of roll a, highest failing die of roll b, astutia). A garrison's roll a wins on the 6 - highest
        # faces above its highest failing die, roll b likewise; faces_b is roll b's faces on roll a, 0 on roll b;
        # chained 0 (the default once). Any mismatch becomes an illegal action BAD_STATE + i.
        if state[0] != 0 and state[0] != 1:
            return BAD_STATE
        highest = params[1] if state[0] == 0 else params[2]
        if state[1] < 1 or state[1] > highest:
            return BAD_STATE + 1
        if state[2] < 1 or state[2] > params[3]:
            return BAD_STATE + 2
        if state[3] != 1:
            return BAD_STATE + 3
        if state[4] != 6 - highest or state[5] != (6 - params[2] if state[0] == 0 else 0) or state[6] != 0:
            return BAD_STATE + 4
        return 1
    if mode == UNITS_FIRST:
        # losses state = (garrison, leader, units, losses_left, leader_required); params = (mode, units at start,
        # losses of the commander); mirrors the built-in units_first.
        if state[0] < 0 or state[0] > 1 or state[1] < 0 or state[1] > 1 or state[4] < 0 or state[4] > 1:
            return BAD_STATE
        if state[2] < 0 or state[2] > params[1] or state[3] < 1 or state[3] > params[2]:
            return BAD_STATE + 1
        if state[4] == 1:
            return 2
        if state[2] > 0:
            return 1
        if state[0] == 1:
            return 0
        return 2
    return -999


@njit
def spend(state, params, stream):
    """Treason ip_spent: params = (k, check, garrison, ip_available, ip_spent). check 1: verify the state and
    spend k; check 2: spend a random 0..2 IP drawn from the game's stream."""
    if params[1] == 1 and (state[0] != params[2] or state[1] != params[3] or state[2] != params[4]):
        return 99
    if params[1] == 2:
        return rng.dn(stream, 3) - 1
    return int(params[0])


def siege_user(reroll=(NEVER,), losses=(NEVER,)):
    """The user policies for a siege: ``scripted`` at reroll and losses (always both: one kernel specialisation)."""
    return {"reroll": (scripted, list(reroll)), "losses": (scripted, list(losses))}


def run(scn, policies=None, n=N, seed=7, **kwargs):
    return romesim.simulate(scn, n, seed=seed, policies=policies, **kwargs)


def same_sums(a, b):
    assert a.n == b.n
    np.testing.assert_array_equal(a.sums, b.sums)
    np.testing.assert_array_equal(a.sumsq, b.sumsq)


def differ(a, b):
    assert not np.array_equal(a.sums, b.sums)


SIEGE = romesim.scenario("kings_of_rome.siege", garrison=2, astutia=2)
# garrison 1, no leader, gt_double / ge_double (the defaults): roll a needs die > 2 (faces 3..6 succeed), roll b
# needs die >= 2 * (1 + 1) = 4 (faces 4..6 succeed). Every failed roll can therefore succeed on a reroll, so
# "always reroll" and "greedy" (reroll when some face could succeed) take the same decisions.
SIEGE_G1 = romesim.scenario("kings_of_rome.siege", garrison=1, astutia=2)
# no garrison, a Virtus-3 leader: roll a needs die > 6, impossible, so greedy never rerolls it while "always" spends
# its point there; roll b needs die > 3. The only token to lose is the leader (action 2, what garrison_first picks).
SIEGE_L3 = romesim.scenario("kings_of_rome.siege", garrison=0, leader=3, astutia=1)
LOSE_LEADER = (CONSTANT, 2)
TREASON = romesim.scenario("kings_of_rome.treason", garrison=2, ip_spent=2, ip_available=10)


# ---------------------------------------------------------------------------- built-ins
def test_decision_points_document_their_state():
    assert REROLL.state == ("roll", "die", "points_left", "can_succeed", "faces", "faces_b", "chained")
    assert LOSSES.state == ("garrison", "leader", "units", "losses_left", "leader_required")
    assert IP_SPENT.state == ("garrison", "ip_available", "ip_spent_param")
    assert [dp.name for dp in SIEGE.decision_points] == ["first_target", "second_criterion", "reroll", "losses"]


def test_builtins_select_by_name():
    greedy, never = run(SIEGE, {"reroll": "greedy"}), run(SIEGE, {"reroll": "never"})
    same_sums(greedy, run(SIEGE))  # greedy is the default
    differ(greedy, never)
    assert greedy["p_win"] > never["p_win"]
    assert never.policies == {"first_target": "best", "second_criterion": "best", "reroll": "never",
                              "losses": "garrison_first"}
    # never rerolling is the same game as having no Astutia (same dice, common random numbers)
    same_sums(never, run(SIEGE.replace(astutia=0)))


def test_builtin_parameter_vector():
    # reserve keeps `keep` points for roll b: keep 0 is greedy; keep >= astutia never rerolls roll a
    same_sums(run(SIEGE, {"reroll": ("reserve", [0])}), run(SIEGE, {"reroll": "greedy"}))
    reserve2 = run(SIEGE, {"reroll": ("reserve", [2])})
    differ(reserve2, run(SIEGE, {"reroll": "greedy"}))
    same_sums(reserve2, run(SIEGE, {"reroll": ("reserve", np.array([2.0]))}))
    same_sums(reserve2, run(SIEGE, {"reroll": ["reserve", (2,)]}))
    same_sums(run(SIEGE, {"reroll": "reserve"}), run(SIEGE, {"reroll": ("reserve", [1])}))  # default keep = 1


@pytest.mark.parametrize("spec", [("reserve", [1, 2]), ("reserve", []), ("greedy", [1]), ("reserve", [math.nan]),
                                  ("reserve", [math.inf]), ("reserve", ["x"]), ("reserve", [1], "extra"),
                                  (scripted, [0] * 9), (scripted, [0, -math.inf])])
def test_bad_parameter_vector(spec):
    with pytest.raises(romesim.PolicyError, match="reroll"):
        romesim.simulate(SIEGE, 10, policies={"reroll": spec})


def test_scalar_parameter_vector_is_a_policy_error():
    # ("reserve", 1) instead of ("reserve", [1]): a user mistake that must read as a PolicyError
    with pytest.raises(romesim.PolicyError, match="reroll"):
        romesim.simulate(SIEGE, 10, policies={"reroll": ("reserve", 1)})


def test_unknown_decision_point_lists_the_allowed_ones():
    with pytest.raises(romesim.PolicyError) as info:
        romesim.simulate(SIEGE, 10, policies={"rerolls": "greedy"})
    message = str(info.value)
    assert "'rerolls'" in message
    assert all(name in message for name in ("first_target", "second_criterion", "reroll", "losses"))
    with pytest.raises(romesim.PolicyError, match="no decision points"):
        romesim.simulate("kings_of_rome.ignominy", 10, policies={"reroll": "greedy"})


def test_unknown_policy_lists_the_builtins():
    with pytest.raises(romesim.PolicyError) as info:
        romesim.simulate(SIEGE, 10, policies={"reroll": "sometimes"})
    message = str(info.value)
    assert "'sometimes'" in message and "reroll" in message
    assert all(name in message for name in ("greedy", "never", "reserve"))
    with pytest.raises(romesim.PolicyError, match="fixed"):
        romesim.simulate(TREASON, 10, policies={"ip_spent": 3})


def test_plain_python_function_is_refused():
    def python_never(state, params, stream):
        return 0

    for spec in (python_never, (python_never, [1.0])):
        with pytest.raises(romesim.PolicyError, match=r"reroll.*@numba\.njit"):
            romesim.simulate(SIEGE, 10, policies={"reroll": spec})


# ---------------------------------------------------------------------------- user functions (siege)
def test_a_run_of_builtins_passes_no_slots_and_a_user_run_one_per_point():
    """With built-ins only the kernels get ``slots = None`` (their variant without any call through a slot); with a
    user function a slot per point, its function's address, a built-in's 0 (never called), and no search; both
    give the same games."""
    from romesim.core.policy import resolve
    points = SIEGE.decision_points
    assert resolve(points, {"reroll": "never"}).slots is None
    assert resolve(points, {"reroll": "never"}).variant == "built-ins"
    user = {"reroll": (scripted, [NEVER])}
    slots = resolve(points, user).slots
    assert len(slots.functions) == len(points) and slots.search is None
    names = [dp.name for dp in points]
    assert slots.functions[names.index("losses")] == 0 and slots.functions[names.index("reroll")] != 0
    assert resolve(points, user).variant == "user bots"
    games = romesim.simulate(SIEGE_L3, 3000, seed=5, keep=True, policies={"reroll": "never"}).outcomes
    assert games.equals(romesim.simulate(SIEGE_L3, 3000, seed=5, keep=True, policies=user).outcomes)


@njit
def keeps(state, params, stream):
    return 0


@njit
def raises(state, params, stream):
    if state[0] >= 0:
        raise ValueError("a bot's own error")
    return 0


def test_every_user_function_plays_one_compiled_variant_and_its_errors_reach_the_caller():
    """The slots are an array of the functions' addresses (``core.policy.slots_for``): whichever functions fill
    them, at whichever points, a kernel has one compiled variant for user bots (numba's first-class functions gave
    each function list a type of its own only by its length; an address array has one type). An exception a user
    function raises inside a kernel stops the run with that exception."""
    kernel = SIEGE_L3.kernel
    run(SIEGE_L3, siege_user(reroll=[NEVER], losses=LOSE_LEADER))
    run(SIEGE_L3, {"reroll": keeps, "losses": (scripted, LOSE_LEADER)})
    variants = [sig for sig in kernel.signatures if sig[6] != numba.types.none]
    assert len(variants) == 1 and variants[0][6].types[0] == numba.types.uint64[::1]
    with pytest.raises(ValueError, match="a bot's own error"):
        run(SIEGE_L3, {"reroll": raises, "losses": (scripted, LOSE_LEADER)})


def test_user_never_equals_builtin_never():
    # losses: scripted NEVER always returns 0 = the garrison, which is garrison_first here (no leader, no units)
    same_sums(run(SIEGE, siege_user(reroll=[NEVER])), run(SIEGE, {"reroll": "never"}))
    r = run(SIEGE, siege_user(reroll=[NEVER]))
    assert r.policies["reroll"] == "scripted"


def test_user_always_equals_greedy_only_when_every_failed_roll_can_succeed():
    always = siege_user(reroll=[ALWAYS])
    same_sums(run(SIEGE_G1, always), run(SIEGE_G1, {"reroll": "greedy"}))
    # when roll a cannot succeed, always wastes the points that greedy keeps for roll b
    greedy = run(SIEGE_L3, {"reroll": "greedy"})
    always = run(SIEGE_L3, siege_user(reroll=[ALWAYS], losses=LOSE_LEADER))
    assert always["p_win"] < greedy["p_win"]
    # the same decisions taken from the documented can_succeed flag (state[3]) are greedy again
    same_sums(run(SIEGE_L3, siege_user(reroll=[CAN_SUCCEED], losses=LOSE_LEADER)), greedy)


def test_user_function_sees_the_roll_and_points_left():
    # rerolling only on roll b (state[0] == 1) is reserve with keep >= astutia, when every failed roll can succeed
    only_b = run(SIEGE_G1, siege_user(reroll=[ONLY_ROLL_B]))
    same_sums(only_b, run(SIEGE_G1, {"reroll": ("reserve", [2])}))
    differ(only_b, run(SIEGE_G1, {"reroll": "greedy"}))
    # reserve rebuilt from state[0], state[2] (points left) and state[3], with keep passed in the user's vector
    for scn, losses in ((SIEGE, (NEVER,)), (SIEGE_L3, LOSE_LEADER)):
        for keep in (0, 1, 2):
            same_sums(run(scn, siege_user(reroll=[RESERVE, keep], losses=losses)),
                      run(scn, {"reroll": ("reserve", [keep])}))


def test_user_function_receives_the_documented_reroll_state():
    # garrison 2, astutia 2: roll a fails on dice 1..4, roll b on 1..5, 1 <= points_left <= 2, always can_succeed
    checked = run(SIEGE, siege_user(reroll=[CHECKED_GREEDY, 4, 5, 2]), n=100_000)
    same_sums(checked, run(SIEGE, {"reroll": "greedy"}, n=100_000))
    # the check can fail: claim that roll a never fails above die 3
    with pytest.raises(romesim.PolicyError, match=f"illegal action {BAD_STATE + 1}"):
        run(SIEGE, siege_user(reroll=[CHECKED_GREEDY, 3, 5, 2]))


def test_user_function_receives_the_documented_losses_state():
    # King-led: two losses; with the leader present the last one must be the leader (leader_required = state[4]).
    # CAN_SUCCEED spends the point on roll a, as reserve keeping 0 does (greedy would keep it for roll b)
    scn = romesim.scenario("kings_of_rome.siege", garrison=1, leader=2, nr_units=1, astutia=1)
    user = run(scn, siege_user(reroll=[CAN_SUCCEED], losses=[UNITS_FIRST, 1, 2]), n=100_000)
    builtin = run(scn, {"losses": "units_first", "reroll": ("reserve", [0])}, n=100_000)
    same_sums(user, builtin)
    assert builtin["p_leader_captured"] > 0 and builtin["nr_units_lost"] > 0
    differ(builtin, run(scn, {"losses": "leader_first"}, n=100_000))


# ---------------------------------------------------------------------------- illegal actions
def test_illegal_reroll_action():
    with pytest.raises(romesim.PolicyError) as info:
        run(SIEGE, siege_user(reroll=[CONSTANT, 5]))
    message = str(info.value)
    assert "'reroll'" in message and "illegal action 5" in message


def test_illegal_loss_of_a_token_that_is_not_there():
    # no garrison, a Virtus-3 leader, no Astutia: roll b succeeds on 4..6 and a user "always the garrison"
    # (action 0) names a token that is not in the city
    scn = romesim.scenario("kings_of_rome.siege", garrison=0, leader=3, astutia=0)
    with pytest.raises(romesim.PolicyError) as info:
        run(scn, siege_user(reroll=[NEVER], losses=[NEVER]))
    message = str(info.value)
    assert "'losses'" in message and "illegal action 0" in message


# ---------------------------------------------------------------------------- user functions (treason)
def test_user_ip_spent_equals_fixed():
    same_sums(run(TREASON, {"ip_spent": (spend, [2])}), run(TREASON, {"ip_spent": "fixed"}))
    same_sums(run(TREASON, {"ip_spent": (spend, [0])}), run(TREASON, {"ip_spent": "none"}))
    differ(run(TREASON, {"ip_spent": (spend, [2])}), run(TREASON, {"ip_spent": (spend, [1])}))
    # the state vector is (garrison, ip_available, ip_spent_param)
    same_sums(run(TREASON, {"ip_spent": (spend, [2, 1, 2, 10, 2])}), run(TREASON))
    with pytest.raises(romesim.PolicyError, match="illegal action 99"):
        run(TREASON, {"ip_spent": (spend, [2, 1, 2, 10, 3])})


@pytest.mark.parametrize("action", [7, 4, -1])
def test_illegal_ip_spent(action):
    with pytest.raises(romesim.PolicyError) as info:
        run(TREASON, {"ip_spent": (spend, [action])})
    message = str(info.value)
    assert "'ip_spent'" in message and f"illegal action {action}" in message


def test_user_policy_with_worker_processes():
    local = run(TREASON, {"ip_spent": (spend, [2])}, chunk=10_000)
    same_sums(local, run(TREASON, {"ip_spent": (spend, [2])}, chunk=10_000, workers=2))
    # a policy drawing from the game's stream is reproducible across processes and chunks too
    rand = run(TREASON, {"ip_spent": (spend, [0, 2])})
    same_sums(rand, run(TREASON, {"ip_spent": (spend, [0, 2])}, chunk=9_999, workers=2))
    assert 0.5 < -rand["ip"] < 1.5  # about 1 IP spent on average
    with pytest.raises(romesim.PolicyError, match="'ip_spent'.*illegal action 7"):
        run(TREASON, {"ip_spent": (spend, [7])}, chunk=10_000, workers=2)


# ---------------------------------------------------------------------------- exact
def test_exact_refuses_user_functions():
    with pytest.raises(romesim.ExactNotSupported, match="built-in"):
        romesim.exact(SIEGE, policies={"reroll": (scripted, [NEVER])})
    with pytest.raises(romesim.ExactNotSupported):
        romesim.exact(TREASON, policies={"ip_spent": spend})
    # built-ins are fine, and the parameter vector reaches the exact solver
    assert romesim.exact(SIEGE, policies={"reroll": "never"})["p_win"] == pytest.approx(
        romesim.exact(SIEGE.replace(astutia=0))["p_win"])
    assert romesim.exact(SIEGE, policies={"reroll": ("reserve", [0])})["p_win"] == pytest.approx(
        romesim.exact(SIEGE)["p_win"])


# ---------------------------------------------------------------------------- slots: no kernel recompiles
def test_bot_of_wrong_arity_is_refused_in_one_line_naming_the_point():
    @njit
    def two(state, params):
        return 0

    with pytest.raises(romesim.PolicyError) as info:
        romesim.simulate("kings_of_rome.treason", 10, policies={"ip_spent": two})
    message = str(info.value)
    assert "\n" not in message and "'ip_spent' (DP-T01)" in message and "does not take 3 arguments" in message
    assert "fn(state: int64[:], params: float64[:], stream: uint64[:]) -> int" in message


def test_bot_returning_a_float_or_not_compiling_is_refused_in_one_line():
    @njit
    def half(state, params, stream):
        return 0.5

    @njit
    def typo(state, params, stream):
        return state.nope

    for fn, why in ((half, "returns float64, not an integer action"), (typo, "does not compile")):
        with pytest.raises(romesim.PolicyError) as info:
            romesim.simulate("kings_of_rome.treason", 10, policies={"ip_spent": fn})
        message = str(info.value)
        assert "\n" not in message and why in message and "'ip_spent'" in message and len(message) < 400


def test_one_function_at_two_points_compiles_once():
    from romesim.core.policy import _COMPILED, compile_user
    run(SIEGE, siege_user(reroll=[NEVER]), n=100)
    assert compile_user(scripted) is _COMPILED[scripted.py_func]
    assert sum(1 for py in _COMPILED if py is scripted.py_func) == 1


def test_illegal_action_names_the_game_and_the_trace_that_replays_it():
    # games 0 and 1 of seed 7 win on roll a (p_submit = 1 under reroll=never): game 2 is the first that asks
    with pytest.raises(romesim.PolicyError, match=r"illegal action 5 in game 2; romesim.trace\('kings_of_rome"
                                                  r"\.siege', game=2, seed=7"):
        run(SIEGE, siege_user(reroll=[CONSTANT, 5]), n=10)


BOT_IN_A_NEW_PROCESS = """
import numba, romesim
S = romesim.state_index("kings_of_rome.siege", "reroll")

@numba.njit
def only_roll_b(state, params, stream):
    return 1 if state[S.roll] == 1 and state[S.can_succeed] == 1 else 0

scenario = romesim.scenario("kings_of_rome.siege", garrison=2, astutia=2)
r = romesim.simulate(scenario, 2000, seed=3, policies={"reroll": only_roll_b})
misses = sum(scenario.kernel.stats.cache_misses.values())
print(misses, r.n)
"""


def test_a_bot_in_a_new_process_loads_the_cached_kernel():
    """The kernels are typed by the slot's signature, not by the function in it: a new process with a new bot loads
    the siege kernel this process compiled (or loaded) instead of compiling it."""
    run(SIEGE, siege_user(reroll=[NEVER]), n=100)
    done = subprocess.run([sys.executable, "-c", BOT_IN_A_NEW_PROCESS], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONWARNINGS="ignore"), check=True)
    assert done.stdout.split() == ["0", "2000"]


def test_state_index_names_the_entries_of_the_decision_point():
    S = romesim.state_index("kings_of_rome.siege", "reroll")
    assert tuple(S._fields) == REROLL.state and tuple(S) == tuple(range(len(REROLL.state)))
    with pytest.raises(romesim.ScenarioError, match=r"no decision point 'rerol' \(did you mean 'reroll'\?\)"):
        romesim.state_index("kings_of_rome.siege", "rerol")
