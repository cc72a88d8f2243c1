"""Mucius Scaevola's attempt on Porsenna (KoR 9.7.7.1): kernel."""
import numpy as np
from numba import njit, prange

from ..core import rng
from ..core.engine import BLOCK, n_blocks, record

BRIDGE, N_PARAMS = range(2)  # compiled parameter vector
WIN, N_METRICS = range(2)  # outcome columns, Mucius.metrics order


@njit(cache=True, inline="always")
def mucius_game(stream, row, p):
    """KoR 9.7.7.1: one d6; Porsenna dies on 4-6 with the Sublicius bridge on the Rome map, else only on 6.

    Any other face eliminates Mucius. The scenario is the token drawn from R with Porsenna on the map: the
    other cases put the token back in the R container without a roll.
    """
    die = rng.d6(stream)
    row[WIN] = 1 if die >= (4 if p[BRIDGE] else 6) else 0
    return 0


@njit(parallel=True, cache=True)
def mucius_kernel(seed, first, count, p, codes, params, out, sums, sumsq, errors):
    for b in prange(n_blocks(count)):
        stream = rng.new_stream()
        row = np.zeros(N_METRICS, np.int64)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            rng.start(stream, seed, first + j)
            err = mucius_game(stream, row, p)
            if err:
                errors[b] = err
                break
            record(row, b, j, out, sums, sumsq)
