"""Foyer de peste, the plague stratagem (spec 2.12, seed 6.3, SV-A24): kernel.

The scenario compiles to an int64 vector ``p`` (number of candidate zones, the SV-A24 flags) and a
``MAX_ZONES x N_COLUMNS`` array with the contents of each candidate zone (columns below). The outcome row follows
``Plague.metrics``.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import error_code
from .policies import PLAGUE_STATE_ZONE, PLAGUE_ZONE, decide_plague_zone

MAX_ZONES = 4
N_ZONES, DUX_ROLL, NON_ROMAN_ROLL, N_PARAMS = range(4)

# columns of the zone array, in the order of the scenario's zone keys
(ENEMY_LEADERS, ENEMY_DUX, ENEMY_NON_ROMAN, ENEMY_FULL, ENEMY_WEAKENED,
 OWN_LEADERS, OWN_DUX, OWN_NON_ROMAN, OWN_FULL, OWN_WEAKENED, N_COLUMNS) = range(11)

# outcome columns, in Plague.metrics order
(WIN, NO_DEATH, ENEMY_KILLED, OWN_KILLED, ENEMY_ELIMINATED, ENEMY_WEAKENED_NOW, OWN_ELIMINATED, OWN_WEAKENED_NOW,
 N_METRICS) = range(9)

DEATH_FACE = 9  # seed 6.3: a leader rolls a d10 and dies on a 9
STATE_SIZE = len(PLAGUE_ZONE.state)


@njit(cache=True, inline="always")
def rolling_leaders(p, zones, z, side):
    """Leaders of one side (0 = the stratagem's enemy, 1 = its holder) who roll in zone ``z``: Roman leaders,
    and Dux and non-Roman leaders unless SV-A24's options spare them."""
    base = ENEMY_LEADERS if side == 0 else OWN_LEADERS
    n = zones[z, base]
    if p[DUX_ROLL]:
        n += zones[z, base + 1]
    if p[NON_ROMAN_ROLL]:
        n += zones[z, base + 2]
    return n


@njit(cache=True)
def plague_scratch(args):
    return (np.zeros(STATE_SIZE, np.int64),)


@njit(cache=True, inline="always")
def plague_game(stream, row, codes, params, slots, p, zones, state):
    """spec 2.12: the holder puts the marker on a zone (D13). Every unit there, both sides, loses a step (full to
    weakened, weakened eliminated); every leader there rolls a d10 and dies on a 9, the enemy's leaders first.
    Fills ``row``; returns 0 or a policy error code."""
    row[:] = 0
    state[0] = p[N_ZONES]
    for z in range(p[N_ZONES]):
        at = PLAGUE_STATE_ZONE + 4 * z
        state[at] = rolling_leaders(p, zones, z, 0)
        state[at + 1] = rolling_leaders(p, zones, z, 1)
        state[at + 2] = zones[z, ENEMY_FULL] + zones[z, ENEMY_WEAKENED]
        state[at + 3] = zones[z, OWN_FULL] + zones[z, OWN_WEAKENED]
    action = decide_plague_zone(codes[0], params[0], state, stream, slots, 0)
    if action < 1 or action > p[N_ZONES]:
        return error_code(0, action)
    z = action - 1
    row[ENEMY_WEAKENED_NOW] = zones[z, ENEMY_FULL]
    row[ENEMY_ELIMINATED] = zones[z, ENEMY_WEAKENED]
    row[OWN_WEAKENED_NOW] = zones[z, OWN_FULL]
    row[OWN_ELIMINATED] = zones[z, OWN_WEAKENED]
    for _ in range(rolling_leaders(p, zones, z, 0)):
        if rng.d10(stream) == DEATH_FACE:
            row[ENEMY_KILLED] += 1
    for _ in range(rolling_leaders(p, zones, z, 1)):
        if rng.d10(stream) == DEATH_FACE:
            row[OWN_KILLED] += 1
    row[WIN] = 1 if row[ENEMY_KILLED] > 0 else 0
    row[NO_DEATH] = 1 if row[ENEMY_KILLED] + row[OWN_KILLED] == 0 else 0
    return 0


plague_kernel = block_kernel("plague_kernel", plague_scratch, plague_game, N_METRICS)
