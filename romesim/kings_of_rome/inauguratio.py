"""Inauguratio of a new king (KoR 9.2.4): kernel."""

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel, no_scratch

ETRUSCAN_KING, N_PARAMS = range(2)  # compiled parameter vector
WIN, N_METRICS = range(2)  # outcome columns, Inauguratio.metrics order


@njit(cache=True, inline="always")
def inauguratio_game(stream, row, codes, params, slots, p):
    """KoR 9.2.4: one d6; the Inauguratio is valid on 1-4, on 1-5 for the three last (Etruscan) kings.

    On a bad Inauguratio the king is removed and the Interrex rules until the end of his period.
    """
    die = rng.d6(stream)
    row[WIN] = 1 if die <= (5 if p[ETRUSCAN_KING] else 4) else 0
    return 0


inauguratio_kernel = block_kernel("inauguratio_kernel", no_scratch, inauguratio_game, N_METRICS)
