"""Ignominy trial (KoR 5.7.11) of a defeated Tribune: kernel."""

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel, no_scratch

DRM, EQUAL_8_ACQUITTED, IP_LOSS_ALWAYS = range(3)  # compiled parameter vector
WIN, IP, N_METRICS = range(3)  # outcome columns, Ignominy.metrics order


@njit(cache=True, inline="always")
def ignominy_game(stream, row, codes, params, slots, p):
    """KoR 5.7.11: 2d6 - 2 (lost battle) or - 1 (lost siege); acquitted iff the result exceeds 8 (KOR-A37)."""
    r = rng.two_d6(stream) - p[DRM]
    acquitted = r >= 8 if p[EQUAL_8_ACQUITTED] else r > 8
    row[WIN] = 1 if acquitted else 0
    row[IP] = -3 if (p[IP_LOSS_ALWAYS] or not acquitted) else 0
    return 0


ignominy_kernel = block_kernel("ignominy_kernel", no_scratch, ignominy_game, N_METRICS)
