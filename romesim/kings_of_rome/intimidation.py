"""Intimidation (KoR 5.3): kernel.

The scenario is compiled into the kernel's ``args = (p, units)``: an int64 vector ``p`` indexed by the constants
below and the NR units' Virtus ``units``. The outcome row follows ``Intimidation.metrics``.
"""
import numpy as np
from numba import njit

from ..core import rng
from ..core.loop import play_blocks
from ..core.policy import error_code
from .policies import (DP_INTIM_RELEASED, DP_INTIM_TARGET, FIDES_RELEASE, INTIMIDATION_TARGET, decide_fides_release,
                       decide_intimidation_target)

# indices into the compiled parameter vector
N_UNITS, N_PARAMS = range(2)

# outcome columns, in Intimidation.metrics order
WIN, IP, R_TO_NR, N_METRICS = range(4)

RELEASED_STATE_SIZE, TARGET_STATE_SIZE = len(FIDES_RELEASE.state), len(INTIMIDATION_TARGET.state)


@njit(cache=True)
def intimidation_scratch(args):
    """The DP-I01 and DP-I02 states."""
    return np.zeros(RELEASED_STATE_SIZE, np.int64), np.zeros(TARGET_STATE_SIZE, np.int64)


@njit(cache=True, inline="always")
def intimidation_game(stream, row, buffers, args, codes, params, slots):
    """KoR 5.3: release a Roman unit (Fides), then d6 > the chosen NR unit's Virtus turns it Roman (+2 IP)."""
    p, units = args
    released, state = buffers
    row[:] = 0
    n = p[N_UNITS]
    released[0] = 1  # the army has cavalry: checked when the scenario was built
    action = decide_fides_release(codes[DP_INTIM_RELEASED], params[DP_INTIM_RELEASED], released, stream,
                                  slots[DP_INTIM_RELEASED])
    if action != 0 and action != 1:
        return error_code(DP_INTIM_RELEASED, action)
    state[:] = 0
    state[0] = n
    for i in range(n):
        state[1 + i] = units[i]
    target = decide_intimidation_target(codes[DP_INTIM_TARGET], params[DP_INTIM_TARGET], state, stream,
                                        slots[DP_INTIM_TARGET])
    if target < 0 or target >= n:
        return error_code(DP_INTIM_TARGET, target)
    if rng.d6(stream) > units[target]:
        row[WIN] = 1
        row[IP] = 2
    row[IP] -= 1  # the action's cost
    row[R_TO_NR] = 1
    return 0


@njit(parallel=True, cache=True)
def intimidation_kernel(seed, first, count, args, codes, params, slots, out, sums, sumsq, errors):
    play_blocks(intimidation_scratch, intimidation_game, seed, first, count, args, codes, params, slots, out, sums,
                sumsq, errors)
