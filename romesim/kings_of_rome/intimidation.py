"""Intimidation (KoR 5.3): kernel.

The scenario is compiled into an int64 vector ``p`` indexed by the constants below and the NR units' Virtus
``units``. The outcome row follows ``Intimidation.metrics``.
"""
import numpy as np
from numba import njit, prange

from ..core import rng
from ..core.engine import BLOCK, n_blocks, record
from ..core.policy import error_code
from .policies import DP_INTIM_RELEASED, DP_INTIM_TARGET, decide_fides_release, decide_intimidation_target

# indices into the compiled parameter vector
N_UNITS, N_PARAMS = range(2)

# outcome columns, in Intimidation.metrics order
WIN, IP, R_TO_NR, N_METRICS = range(4)


@njit(cache=True, inline="always")
def intimidation_game(stream, row, state, p, units, codes, params, fn_released, fn_target):
    """KoR 5.3: release a Roman unit (Fides), then d6 > the chosen NR unit's Virtus turns it Roman (+2 IP)."""
    row[:] = 0
    n = p[N_UNITS]
    state[:] = 0
    state[0] = 1  # the army has cavalry: checked when the scenario was built
    action = decide_fides_release(codes[DP_INTIM_RELEASED], params[DP_INTIM_RELEASED], state, stream, fn_released)
    if action != 0 and action != 1:
        return error_code(DP_INTIM_RELEASED, action)
    state[:] = 0
    state[0] = n
    for i in range(n):
        state[1 + i] = units[i]
    target = decide_intimidation_target(codes[DP_INTIM_TARGET], params[DP_INTIM_TARGET], state, stream, fn_target)
    if target < 0 or target >= n:
        return error_code(DP_INTIM_TARGET, target)
    if rng.d6(stream) > units[target]:
        row[WIN] = 1
        row[IP] = 2
    row[IP] -= 1  # the action's cost
    row[R_TO_NR] = 1
    return 0


@njit(parallel=True, cache=True)
def intimidation_kernel(seed, first, count, p, units, codes, params, out, sums, sumsq, errors,
                        fn_released=None, fn_target=None):
    for b in prange(n_blocks(count)):
        stream = rng.new_stream()
        row = np.zeros(N_METRICS, np.int64)
        state = np.zeros(8, np.int64)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            rng.start(stream, seed, first + j)
            err = intimidation_game(stream, row, state, p, units, codes, params, fn_released, fn_target)
            if err:
                errors[b] = err
                break
            record(row, b, j, out, sums, sumsq)
