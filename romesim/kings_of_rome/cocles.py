"""Horatius Cocles (KoR 9.7.7.2): kernel.

The compiled vector ``p`` has the layout of the Horatii one (``horatii.py``): Rome's side is Horatius (Virtus 5)
followed by the raiding Rome-reserve units, the other side the NR group. The outcome row follows
``Cocles.metrics``.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import error_code
from .horatii import MAX_UNITS, N_LATIN, N_ROMAN, ROME_FIRST, duel, load_units
from .horatii import N_PARAMS as HORATII_N_PARAMS
from .policies import COCLES_ATTEMPT, DP_COCLES_ATTEMPT, HORATII_STATE_SIZE, HORATII_WEAKEST, decide_cocles_attempt

ATTEMPT = HORATII_N_PARAMS  # the scenario's `attempt` (0 direct, 1 raid), after the Horatii layout
N_PARAMS = ATTEMPT + 1
DIRECT, RAID = 0, 1

WIN, VP, N_METRICS = range(3)  # outcome columns, Cocles.metrics order
ATTEMPT_STATE_SIZE = len(COCLES_ATTEMPT.state)


@njit(cache=True)
def cocles_scratch(args):
    """The 12 unit slots, the DP-HC01 state and the raid duel's target state (the Horatii layout)."""
    return (np.zeros(2 * MAX_UNITS, np.int64), np.zeros(ATTEMPT_STATE_SIZE, np.int64),
            np.zeros(HORATII_STATE_SIZE, np.int64))


@njit(cache=True, inline="always")
def cocles_game(stream, row, codes, params, slots, p, units, state, targets):
    """KoR 9.7.7.2: Horatius tries to destroy the Sublicius bridge (DP-HC01).

    Direct: a 5 or 6 removes the bridge, no VP. Raid: Horatius (infantry, Virtus 5) and the raiding units fight
    the NR group as in the Horatii duel (single die per turn, d6 >= Virtus, first roller KOR-A47; Roman dice at
    the weakest NR unit, NR dice at a random Roman); the bridge falls and Rome scores +2 VP if the Romans win,
    else -1 VP. Fills ``row``; returns 0 or a policy error code.
    """
    state[0], state[1], state[2] = p[ATTEMPT], p[N_ROMAN] - 1, p[N_LATIN]
    action = decide_cocles_attempt(codes[DP_COCLES_ATTEMPT], params[DP_COCLES_ATTEMPT], state, stream,
                                   slots, DP_COCLES_ATTEMPT)
    if action == DIRECT:
        row[WIN] = 1 if rng.d6(stream) >= 5 else 0
        row[VP] = 0
    elif action == RAID:
        load_units(units, p)
        # the raid's Roman dice follow the built-in `weakest` (a code, not USER): no slot, so the dice loop holds no
        # opaque call (-40 % with one)
        romans, nr, shots, err = duel(stream, units, targets, p[N_ROMAN], p[N_LATIN], p[ROME_FIRST] == 1, False,
                                      DP_COCLES_ATTEMPT, HORATII_WEAKEST, params[DP_COCLES_ATTEMPT], None)
        if err:
            return err
        row[WIN] = 1 if nr == 0 else 0
        row[VP] = 2 if nr == 0 else -1
    else:
        return error_code(DP_COCLES_ATTEMPT, action)
    return 0


cocles_kernel = block_kernel("cocles_kernel", cocles_scratch, cocles_game, N_METRICS)
