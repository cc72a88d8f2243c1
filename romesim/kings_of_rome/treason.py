"""Treason (KoR 6.3), the NR reaction against the weakest Roman garrison: kernel."""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import error_code
from .policies import decide_ip_spent

GARRISON, IP_AVAILABLE, IP_SPENT = range(3)  # compiled parameter vector
WIN, IP, VP, N_METRICS = range(4)  # outcome columns, Treason.metrics order


@njit(cache=True)
def treason_scratch(args):
    return (np.zeros(4, np.int64),)


@njit(cache=True, inline="always")
def treason_game(stream, row, codes, params, slots, offset, p, state):
    """KoR 6.3: the Roman buys -k (k <= 3) with k IP; the garrison flips iff d6 - k > Virtus, else Rome +1 VP.
    ``offset``: the index of DP-T01 in ``codes``, ``params`` and ``slots``."""
    state[0], state[1], state[2] = p[GARRISON], p[IP_AVAILABLE], p[IP_SPENT]
    k = decide_ip_spent(codes[offset], params[offset], state, stream, slots, offset)
    if k < 0 or k > 3 or k > p[IP_AVAILABLE]:
        return error_code(offset, k)
    failed = rng.d6(stream) - k <= p[GARRISON]
    row[WIN] = 1 if failed else 0
    row[IP] = -k
    row[VP] = 1 if failed else 0
    return 0


@njit(cache=True, inline="always")
def treason_play(stream, row, codes, params, slots, p, state):
    """The kernel's game: the treason whose decision points come first (``treason_game`` at offset 0)."""
    return treason_game(stream, row, codes, params, slots, 0, p, state)


treason_kernel = block_kernel("treason_kernel", treason_scratch, treason_play, N_METRICS)
