"""Ignominy trial (KoR 5.7.11) of a defeated Tribune: kernel."""
import numpy as np
from numba import njit, prange

from ..core import rng
from ..core.engine import BLOCK, n_blocks, record

DRM, EQUAL_8_ACQUITTED, IP_LOSS_ALWAYS = range(3)  # compiled parameter vector
WIN, IP, N_METRICS = range(3)  # outcome columns, Ignominy.metrics order


@njit(cache=True)
def ignominy_game(stream, row, p):
    """KoR 5.7.11: 2d6 - 2 (lost battle) or - 1 (lost siege); acquitted iff the result exceeds 8 (KOR-A37)."""
    r = rng.two_d6(stream) - p[DRM]
    acquitted = r >= 8 if p[EQUAL_8_ACQUITTED] else r > 8
    row[WIN] = 1 if acquitted else 0
    row[IP] = -3 if (p[IP_LOSS_ALWAYS] or not acquitted) else 0


@njit(parallel=True, cache=True)
def ignominy_kernel(seed, first, count, p, codes, params, out, sums, sumsq, errors):
    for b in prange(n_blocks(count)):
        stream = rng.new_stream()
        row = np.zeros(N_METRICS, np.int64)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            rng.start(stream, seed, first + j)
            ignominy_game(stream, row, p)
            record(row, b, j, out, sums, sumsq)
