"""Inauguratio of a new king (KoR 9.2.4): kernel."""
import numpy as np
from numba import njit

from ..core import rng
from ..core.loop import play_blocks

ETRUSCAN_KING, N_PARAMS = range(2)  # compiled parameter vector
WIN, N_METRICS = range(2)  # outcome columns, Inauguratio.metrics order


@njit(cache=True)
def inauguratio_scratch(args):
    return np.zeros(0, np.int64)  # no decision point: a game needs no buffer


@njit(cache=True, inline="always")
def inauguratio_game(stream, row, buffers, args, codes, params, slots):
    """KoR 9.2.4: one d6; the Inauguratio is valid on 1-4, on 1-5 for the three last (Etruscan) kings.

    On a bad Inauguratio the king is removed and the Interrex rules until the end of his period.
    """
    p = args[0]
    die = rng.d6(stream)
    row[WIN] = 1 if die <= (5 if p[ETRUSCAN_KING] else 4) else 0
    return 0


@njit(parallel=True, cache=True)
def inauguratio_kernel(seed, first, count, args, codes, params, slots, out, sums, sumsq, errors):
    play_blocks(inauguratio_scratch, inauguratio_game, seed, first, count, args, codes, params, slots, out, sums,
                sumsq, errors)
