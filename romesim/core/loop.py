"""The one block loop every kernel plays its games with.

A game module provides two ``@njit`` functions and a three-line kernel::

    @njit(cache=True)
    def scratch(args):                  # the buffers one block of games reuses (a tuple)
        ...

    @njit(cache=True)
    def play(stream, row, buffers, args, codes, params, slots):   # one game; returns 0 or a policy error code
        ...

    @njit(parallel=True, cache=True)
    def kernel(seed, first, count, args, codes, params, slots, out, sums, sumsq, errors):
        play_blocks(scratch, play, seed, first, count, args, codes, params, slots, out, sums, sumsq, errors)

``args`` is the scenario's ``kernel_args()`` tuple, ``codes``/``params``/``slots`` the resolved policies
(``romesim.core.policy``), ``row`` the game's outcome row (the game sets every entry), ``errors[b]`` the first
error code of block ``b`` and the game it happened in.
"""
import numpy as np
from numba import njit, prange

from . import rng

BLOCK = 1024  # games per prange iteration: one stream and one set of buffers serve a whole block


@njit(cache=True, inline="always")
def n_blocks(count):
    return (count + BLOCK - 1) // BLOCK


@njit(cache=True, inline="always")
def record(row, b, j, out, sums, sumsq):
    """Add a game's outcome row to its block's sums; keep it in ``out`` when per-game outcomes are kept."""
    keep = out.shape[1] > 0
    for k in range(row.size):
        v = row[k]
        sums[b, k] += v
        sumsq[b, k] += v * v
        if keep:
            out[k, j] = v


@njit(inline="always")
def play_blocks(scratch, play, seed, first, count, args, codes, params, slots, out, sums, sumsq, errors):
    """Play games ``first .. first+count-1`` of run ``seed``, one dice stream per game, a block per thread."""
    for b in prange(n_blocks(count)):
        stream = rng.new_stream()
        row = np.zeros(sums.shape[1], np.int64)
        buffers = scratch(args)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            rng.start(stream, seed, first + j)
            error = play(stream, row, buffers, args, codes, params, slots)
            if error != 0:
                errors[b, 0] = error
                errors[b, 1] = first + j
                break
            record(row, b, j, out, sums, sumsq)
