"""Ignominy trial (KoR 5.7.11) of a defeated Tribune: kernel."""
import numpy as np
from numba import njit

from ..core import rng
from ..core.loop import play_blocks

DRM, EQUAL_8_ACQUITTED, IP_LOSS_ALWAYS = range(3)  # compiled parameter vector
WIN, IP, N_METRICS = range(3)  # outcome columns, Ignominy.metrics order


@njit(cache=True)
def ignominy_scratch(args):
    return np.zeros(0, np.int64)  # no decision point: a game needs no buffer


@njit(cache=True, inline="always")
def ignominy_game(stream, row, buffers, args, codes, params, slots):
    """KoR 5.7.11: 2d6 - 2 (lost battle) or - 1 (lost siege); acquitted iff the result exceeds 8 (KOR-A37)."""
    p = args[0]
    r = rng.two_d6(stream) - p[DRM]
    acquitted = r >= 8 if p[EQUAL_8_ACQUITTED] else r > 8
    row[WIN] = 1 if acquitted else 0
    row[IP] = -3 if (p[IP_LOSS_ALWAYS] or not acquitted) else 0
    return 0


@njit(parallel=True, cache=True)
def ignominy_kernel(seed, first, count, args, codes, params, slots, out, sums, sumsq, errors):
    play_blocks(ignominy_scratch, ignominy_game, seed, first, count, args, codes, params, slots, out, sums, sumsq,
                errors)
