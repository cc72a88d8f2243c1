"""Intimidation (KoR 5.3): kernel.

The scenario is compiled into the kernel's ``args = (p, units)``: an int64 vector ``p`` indexed by the constants
below and the NR units' Virtus ``units``. The outcome row follows ``Intimidation.metrics``.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import error_code
from .policies import (DP_INTIM_RELEASED, DP_INTIM_TARGET, INTIMIDATION_STATE, decide_fides_release,
                       decide_intimidation_target)

# indices into the compiled parameter vector
N_UNITS, N_PARAMS = range(2)

# outcome columns, in Intimidation.metrics order
WIN, IP, R_TO_NR, N_METRICS = range(4)

# the state both decision points read, in one array (DP-I01 and DP-I02 see the same state)
STATE_SIZE, HAS_CAVALRY = len(INTIMIDATION_STATE), INTIMIDATION_STATE.index("has_cavalry")


@njit(cache=True)
def intimidation_scratch(args):
    return (np.zeros(STATE_SIZE, np.int64),)


@njit(cache=True, inline="always")
def fill_state(state, n, units):
    state[:] = 0
    state[0] = n
    for i in range(n):
        state[1 + i] = units[i]
    state[HAS_CAVALRY] = 1  # the army has cavalry: checked when the scenario was built


@njit(cache=True, inline="always")
def intimidation_game(stream, row, codes, params, slots, p, units, state):
    """KoR 5.3: release a Roman unit (Fides), then d6 > the chosen NR unit's Virtus turns it Roman (+2 IP)."""
    row[:] = 0
    n = p[N_UNITS]
    fill_state(state, n, units)
    action = decide_fides_release(codes[DP_INTIM_RELEASED], params[DP_INTIM_RELEASED], state, stream,
                                  slots, DP_INTIM_RELEASED)
    if action != 0 and action != 1:
        return error_code(DP_INTIM_RELEASED, action)
    fill_state(state, n, units)  # again: DP-I02 sees the documented state whatever a user's DP-I01 did to it
    target = decide_intimidation_target(codes[DP_INTIM_TARGET], params[DP_INTIM_TARGET], state, stream,
                                        slots, DP_INTIM_TARGET)
    if target < 0 or target >= n:
        return error_code(DP_INTIM_TARGET, target)
    if rng.d6(stream) > units[target]:
        row[WIN] = 1
        row[IP] = 2
    row[IP] -= 1  # the action's cost
    row[R_TO_NR] = 1
    return 0


intimidation_kernel = block_kernel("intimidation_kernel", intimidation_scratch, intimidation_game, N_METRICS)
