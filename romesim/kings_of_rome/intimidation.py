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
def intimidation_choices(stream, codes, params, slots, offset, n, units, state):
    """KoR 5.3's two decisions and its die: the Roman unit released (DP-I01: 0 infantry, 1 cavalry), the NR unit
    targeted (DP-I02: its index among the ``n`` of ``units``) and whether d6 > its Virtus. ``offset``: the index of
    DP-I01 in ``codes``, ``params`` and ``slots``. Returns ``(error code or 0, released, target, success)``."""
    fill_state(state, n, units)
    i = offset + DP_INTIM_RELEASED
    released = decide_fides_release(codes[i], params[i], state, stream, slots, i)
    if released != 0 and released != 1:
        return error_code(i, released), released, 0, False
    fill_state(state, n, units)  # again: DP-I02 sees the documented state whatever a user's DP-I01 did to it
    i = offset + DP_INTIM_TARGET
    target = decide_intimidation_target(codes[i], params[i], state, stream, slots, i)
    if target < 0 or target >= n:
        return error_code(i, target), released, target, False
    return np.int64(0), released, target, rng.d6(stream) > units[target]


@njit(cache=True, inline="always")
def intimidation_score(row, success):
    """5.3's table: a success +2 IP; the action's 1 IP; one random token R -> NR whatever happens."""
    row[:] = 0
    if success:
        row[WIN] = 1
        row[IP] = 2
    row[IP] -= 1
    row[R_TO_NR] = 1


@njit(cache=True, inline="always")
def intimidation_game(stream, row, codes, params, slots, p, units, state):
    """KoR 5.3: release a Roman unit (Fides), then d6 > the chosen NR unit's Virtus turns it Roman (+2 IP)."""
    err, _, _, success = intimidation_choices(stream, codes, params, slots, 0, p[N_UNITS], units, state)
    intimidation_score(row, success)  # an error stops the run: its row is never read
    return err


intimidation_kernel = block_kernel("intimidation_kernel", intimidation_scratch, intimidation_game, N_METRICS)
