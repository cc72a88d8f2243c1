"""Treason (KoR 6.3), the NR reaction against the weakest Roman garrison: kernel."""
import numpy as np
from numba import njit, prange

from ..core import rng
from ..core.engine import BLOCK, n_blocks, record
from ..core.policy import error_code
from .policies import decide_ip_spent

GARRISON, IP_AVAILABLE, IP_SPENT = range(3)  # compiled parameter vector
WIN, IP, VP, N_METRICS = range(4)  # outcome columns, Treason.metrics order


@njit(cache=True, inline="always")
def treason_game(stream, row, state, p, codes, params, fn_ip):
    """KoR 6.3: the Roman buys -k (k <= 3) with k IP; the garrison flips iff d6 - k > Virtus, else Rome +1 VP."""
    state[0], state[1], state[2] = p[GARRISON], p[IP_AVAILABLE], p[IP_SPENT]
    k = decide_ip_spent(codes[0], params[0], state, stream, fn_ip)
    if k < 0 or k > 3 or k > p[IP_AVAILABLE]:
        return error_code(0, k)
    failed = rng.d6(stream) - k <= p[GARRISON]
    row[WIN] = 1 if failed else 0
    row[IP] = -k
    row[VP] = 1 if failed else 0
    return 0


@njit(parallel=True, cache=True)
def treason_kernel(seed, first, count, p, codes, params, out, sums, sumsq, errors, fn_ip=None):
    for b in prange(n_blocks(count)):
        stream = rng.new_stream()
        row = np.zeros(N_METRICS, np.int64)
        state = np.zeros(4, np.int64)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            rng.start(stream, seed, first + j)
            err = treason_game(stream, row, state, p, codes, params, fn_ip)
            if err:
                errors[b] = err
                break
            record(row, b, j, out, sums, sumsq)
