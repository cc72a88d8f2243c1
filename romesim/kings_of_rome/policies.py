"""Decision points of the Kings of Rome procedures (spec section 3) and their built-in policies.

Each ``decide_*`` function is what a kernel calls at a decision point: the user's ``@njit`` function when one was
given (``fn`` is not None; numba prunes the other branch), otherwise the built-in selected by ``code``.
The state vector a user function receives is documented on each ``DecisionPoint``.
"""
import numpy as np
from numba import njit

from ..core.policy import Builtin, DecisionPoint

# ------------------------------------------------------------------ siege (5.5), DP-S02 .. DP-S05
FIRST_TARGET = DecisionPoint(
    "first_target", "DP-S02",
    "Target of siege roll a when garrison and leader are both present "
    "(asked only with siege_first_roll_target = player_choice).",
    state=("garrison", "leader", "ge_test", "omen"),
    actions="0 = the garrison's Virtus, 1 = the leader's Virtus",
    builtins={"best": Builtin(0, "the target with the higher chance of success (the lower Virtus)"),
              "garrison": Builtin(1, "always the garrison"),
              "leader": Builtin(2, "always the leader")},
    default="best")

SECOND_CRITERION = DecisionPoint(
    "second_criterion", "DP-S03",
    "Criterion of siege roll b declared before the roll (asked only with siege_second_roll_choice = "
    "declare_before_roll, when garrison and leader are both present).",
    state=("garrison_plus_1", "leader", "eq_test", "omen"),
    actions="0 = garrison criterion (double of garrison + 1), 1 = leader criterion (exceed his Virtus)",
    builtins={"best": Builtin(0, "the criterion with the higher chance of success (garrison on a tie)"),
              "garrison": Builtin(1, "always the garrison criterion"),
              "leader": Builtin(2, "always the leader criterion")},
    default="best")

REROLL = DecisionPoint(
    "reroll", "DP-S05",
    "Spend one Astutia point of the besieging commander to reroll a failed siege roll (glossary, KOR-A22).",
    state=("roll", "die", "points_left", "can_succeed"),
    actions="0 = keep the failed roll, 1 = reroll it (roll: 0 = roll a, 1 = roll b; can_succeed: 1 if some "
            "face of a reroll would succeed)",
    builtins={"greedy": Builtin(0, "reroll every failed roll that a reroll could still win, while points last"),
              "never": Builtin(1, "never reroll"),
              "reserve": Builtin(2, "like greedy, but on roll a keep `keep` points for roll b",
                                 params=("keep",), defaults=(1.0,))},
    default="greedy")

LOSSES = DecisionPoint(
    "losses", "DP-S04",
    "Which besieged token is lost on a successful roll b (one loss, two with the King; one of the two must be "
    "the NR leader if present, 5.5 b).",
    state=("garrison", "leader", "units", "losses_left", "leader_required"),
    actions="0 = the garrison (flipped to Rome), 1 = one NR unit (to the NR container), 2 = the leader (captured)",
    builtins={"garrison_first": Builtin(0, "garrison, then units, then the leader (the leader first when required)"),
              "leader_first": Builtin(1, "the leader, then the garrison, then units"),
              "units_first": Builtin(2, "units, then the garrison, then the leader (the leader when required)")},
    default="garrison_first")

SIEGE_POINTS = (FIRST_TARGET, SECOND_CRITERION, REROLL, LOSSES)
DP_FIRST_TARGET, DP_SECOND_CRITERION, DP_REROLL, DP_LOSSES = range(4)

# ------------------------------------------------------------------ treason (6.3), DP-T01
IP_SPENT = DecisionPoint(
    "ip_spent", "DP-T01",
    "Influence points the Roman player spends for a -1 DRM each on the NR treason roll (at most 3).",
    state=("garrison", "ip_available", "ip_spent_param"),
    actions="k in 0..min(3, ip_available); k = ip_available brings IP to 0 and loses the game (C7)",
    builtins={"fixed": Builtin(0, "spend the scenario's ip_spent, never down to 0 IP"),
              "none": Builtin(1, "spend nothing"),
              "max": Builtin(2, "spend as much as possible (at most 3), never down to 0 IP")},
    default="fixed")

TREASON_POINTS = (IP_SPENT,)


@njit(cache=True)
def error_code(point, action):
    """The kernel error for an illegal ``action`` at decision point index ``point`` (see core.policy)."""
    return ((point + 1) << 32) | (np.int64(action) & 0xFFFFFFFF)


@njit(cache=True)
def decide_first_target(code, params, state, stream, fn):
    if fn is not None:
        return fn(state, params, stream)
    if code == 1:
        return 0
    if code == 2:
        return 1
    return 1 if state[1] < state[0] else 0


@njit(cache=True)
def decide_second_criterion(code, params, state, stream, fn):
    if fn is not None:
        return fn(state, params, stream)
    if code == 1:
        return 0
    if code == 2:
        return 1
    omen, g2 = state[3], 2 * state[0]
    garrison_faces = 0
    leader_faces = 0
    for face in range(1, 7):
        total = face + omen
        if (total == g2) if state[2] else (total >= g2):
            garrison_faces += 1
        if total > state[1]:
            leader_faces += 1
    return 1 if leader_faces > garrison_faces else 0


@njit(cache=True)
def decide_reroll(code, params, state, stream, fn):
    if fn is not None:
        return fn(state, params, stream)
    if code == 1 or state[3] == 0:
        return 0
    if code == 2 and state[0] == 0 and state[2] <= params[0]:
        return 0
    return 1


@njit(cache=True)
def decide_losses(code, params, state, stream, fn):
    if fn is not None:
        return fn(state, params, stream)
    garrison, leader, units = state[0], state[1], state[2]
    if state[4]:
        return 2
    if code == 1 and leader:
        return 2
    if code == 2 and units:
        return 1
    if garrison:
        return 0
    if units:
        return 1
    return 2


@njit(cache=True)
def decide_ip_spent(code, params, state, stream, fn):
    if fn is not None:
        return fn(state, params, stream)
    if code == 1:
        return 0
    want = 3 if code == 2 else state[2]
    return min(want, state[1] - 1)
