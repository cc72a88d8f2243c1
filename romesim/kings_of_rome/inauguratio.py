"""Inauguratio of a new king (KoR 9.2.4): kernel."""
import numpy as np
from numba import njit, prange

from ..core import rng
from ..core.engine import BLOCK, n_blocks, record

ETRUSCAN_KING, N_PARAMS = range(2)  # compiled parameter vector
WIN, N_METRICS = range(2)  # outcome columns, Inauguratio.metrics order


@njit(cache=True, inline="always")
def inauguratio_game(stream, row, p):
    """KoR 9.2.4: one d6; the Inauguratio is valid on 1-4, on 1-5 for the three last (Etruscan) kings.

    On a bad Inauguratio the king is removed and the Interrex rules until the end of his period.
    """
    die = rng.d6(stream)
    row[WIN] = 1 if die <= (5 if p[ETRUSCAN_KING] else 4) else 0
    return 0


@njit(parallel=True, cache=True)
def inauguratio_kernel(seed, first, count, p, codes, params, out, sums, sumsq, errors):
    for b in prange(n_blocks(count)):
        stream = rng.new_stream()
        row = np.zeros(N_METRICS, np.int64)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            rng.start(stream, seed, first + j)
            err = inauguratio_game(stream, row, p)
            if err:
                errors[b] = err
                break
            record(row, b, j, out, sums, sumsq)
