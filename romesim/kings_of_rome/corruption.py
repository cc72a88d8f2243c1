"""Corruption (KoR 5.6): kernel.

The scenario is compiled into an int64 vector ``p`` indexed by the constants below; rule options are integer
flags in it. The outcome row follows ``Corruption.metrics``.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import error_code
from .policies import CORRUPTION_TAKEN, DP_CORRUPTION_TAKEN, decide_corruption_taken

# indices into the compiled parameter vector
GARRISON, UNITS, ADJUST_ALWAYS, REACTION_COUNT, N_PARAMS = range(5)

# outcome columns, in Corruption.metrics order
WIN, IP, VP, NR_TO_R, REACTIONS, N_METRICS = range(6)

TAKEN_STATE_SIZE = len(CORRUPTION_TAKEN.state)


@njit(cache=True)
def corruption_scratch(args):
    return (np.zeros(TAKEN_STATE_SIZE, np.int64),)  # the DP-C02 state


@njit(cache=True, inline="always")
def corruption_game(stream, row, codes, params, slots, offset, p, state):
    """KoR 5.6: 2 IP, then d6 > the garrison's Virtus takes the city (+1 VP, or +2 IP pillaged when alone).
    ``offset``: the index of DP-C02 in ``codes``, ``params`` and ``slots``."""
    row[:] = 0
    row[IP] = -2  # paid before rolling
    g = p[GARRISON]
    if rng.d6(stream) > g:
        row[WIN] = 1
        pillaged = False
        if p[UNITS] == 0:
            # DP-C02: only a garrison standing alone lets the player pillage instead
            state[:] = 0
            state[0] = g
            i = offset + DP_CORRUPTION_TAKEN
            action = decide_corruption_taken(codes[i], params[i], state, stream, slots, i)
            if action != 0 and action != 1:
                return error_code(i, action)
            pillaged = action == 1
        if pillaged:
            row[IP] += 2
        else:
            row[VP] += 1
    row[NR_TO_R] = 1 if (p[ADJUST_ALWAYS] or row[WIN]) else 0  # KOR-A13 corruption_adjustment
    row[REACTIONS] = p[REACTION_COUNT]  # KOR-A15: 1 when the orphan reaction line belongs to corruption
    return 0


@njit(cache=True, inline="always")
def corruption_play(stream, row, codes, params, slots, p, state):
    """The kernel's game: the corruption whose decision points come first (``corruption_game`` at offset 0)."""
    return corruption_game(stream, row, codes, params, slots, 0, p, state)


corruption_kernel = block_kernel("corruption_kernel", corruption_scratch, corruption_play, N_METRICS)
