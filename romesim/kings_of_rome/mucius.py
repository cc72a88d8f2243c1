"""Mucius Scaevola's attempt on Porsenna (KoR 9.7.7.1): kernel."""

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel, no_scratch

BRIDGE, N_PARAMS = range(2)  # compiled parameter vector
WIN, N_METRICS = range(2)  # outcome columns, Mucius.metrics order


@njit(cache=True, inline="always")
def mucius_game(stream, row, codes, params, slots, p):
    """KoR 9.7.7.1: one d6; Porsenna dies on 4-6 with the Sublicius bridge on the Rome map, else only on 6.

    Any other face eliminates Mucius. The scenario is the token drawn from R with Porsenna on the map: the
    other cases put the token back in the R container without a roll.
    """
    die = rng.d6(stream)
    row[WIN] = 1 if die >= (4 if p[BRIDGE] else 6) else 0
    return 0


mucius_kernel = block_kernel("mucius_kernel", no_scratch, mucius_game, N_METRICS)
