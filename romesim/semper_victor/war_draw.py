"""Going-to-war draw of the Major peoples over several turns (spec 2.4.2, Phase C): kernel.

Counters 0..4 are the markers of the five Major peoples (0 = the Persians, the one people the rules treat
apart, SV-A7), 5..9 the dummies. The cup is an ordered array: a draw takes the counter at position
``dn(size) - 1``; without replacement (SV-A5 false) it is removed and the counters after it move up one place.
The seed has no rule for how a war ends (GAP G10); ``peace`` is the stand-in: in each Phase F every people at
war, Persians first, rolls a d10 and makes peace on a result below ``peace``.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel

# indices into the compiled parameter vector
TURNS, START_YEAR, OTHERS_AT_WAR, PERSIANS_AT_WAR, PEACE, REPLACE, WITHOUT_LEADER, N_PARAMS = range(8)

# outcome columns, in WarDraw.metrics order
WIN, NEW_WARS, AT_WAR, PERSIANS, QUIET_TURNS, N_METRICS = range(6)

PEOPLES, COUNTERS = 5, 10
PERSIAN_MARKER = 0
NO_PERSIAN_KING = (310, 319)  # seed 4.2.1: between 310 and 319 there is no Persian leader in play


@njit(cache=True)
def war_draw_scratch(args):
    return np.zeros(PEOPLES, np.int64), np.zeros(COUNTERS, np.int64)


@njit(cache=True, inline="always")
def war_draw_game(stream, row, codes, params, slots, p, at_war, cup):
    """spec 2.4.2 once per turn for ``TURNS`` turns. A drawn dummy, or the marker of a people already at war,
    starts nothing; any other marker sends its people to war, except the Persians' in 310-319 when
    SV-A7 ``war_without_leader`` is false. Returns 0."""
    row[:] = 0
    at_war[:] = 0
    at_war[PERSIAN_MARKER] = p[PERSIANS_AT_WAR]
    for k in range(1, 1 + p[OTHERS_AT_WAR]):
        at_war[k] = 1
    for k in range(COUNTERS):
        cup[k] = k
    size = COUNTERS
    for t in range(p[TURNS]):
        year = p[START_YEAR] + t
        # Phase C: one counter is drawn for the whole turn
        if size > 0:
            i = rng.dn(stream, size) - 1
            counter = cup[i]
            if not p[REPLACE]:
                for k in range(i, size - 1):
                    cup[k] = cup[k + 1]
                size -= 1
            if counter < PEOPLES and at_war[counter] == 0:
                kingless = counter == PERSIAN_MARKER and NO_PERSIAN_KING[0] <= year <= NO_PERSIAN_KING[1]
                if not kingless or p[WITHOUT_LEADER]:
                    at_war[counter] = 1
                    row[NEW_WARS] += 1
        if at_war.sum() == 0:
            row[QUIET_TURNS] += 1
        # Phase F: the GAP G10 stand-in for the end of a war
        if p[PEACE] > 0:
            for k in range(PEOPLES):
                if at_war[k] and rng.d10(stream) < p[PEACE]:
                    at_war[k] = 0
    row[WIN] = 1 if row[NEW_WARS] == 0 else 0
    row[AT_WAR] = at_war.sum()
    row[PERSIANS] = at_war[PERSIAN_MARKER]
    return 0


war_draw_kernel = block_kernel("war_draw_kernel", war_draw_scratch, war_draw_game, N_METRICS)
