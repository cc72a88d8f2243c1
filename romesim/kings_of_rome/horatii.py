"""Horatii and Curiatii (KoR 9.3.7.2): kernel, and the duel that the Cocles raid (9.7.7.2) reuses.

The scenario is compiled into one int64 vector ``p`` indexed by the constants below (unit slots hold Virtus,
0 = no unit). The outcome row follows ``Horatii.metrics``. During a game the units live in a 12-slot scratch
array: slots 0-5 Rome's side, 6-11 Alba Longa's (or the NR group's), Virtus 0 once eliminated.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import error_code
from .policies import DP_HORATII_TARGET, HORATII_STATE_SIZE, decide_horatii_target

MAX_UNITS = 6

# indices into the compiled parameter vector
ROME_FIRST, VOLLEY, N_ROMAN, N_LATIN, ROMAN, LATIN, N_PARAMS = 0, 1, 2, 3, 4, 4 + MAX_UNITS, 4 + 2 * MAX_UNITS

# outcome columns, in Horatii.metrics order
WIN, ROMAN_SURVIVORS, LATIN_SURVIVORS, SHOTS, N_METRICS = range(5)


@njit(cache=True, inline="always")
def nth_alive(units, base, count, k):
    """Slot (0-based, relative to ``base``) of the ``k``-th (1-based) surviving unit of a side."""
    for i in range(count):
        if units[base + i] > 0:
            k -= 1
            if k == 0:
                return i
    return -1


@njit(cache=True, inline="always")
def duel(stream, units, state, n_roman, n_latin, rome_rolls, volley, point, code, params, slots):
    """KoR 9.3.7.2 (C1): the two sides roll in turn, never together, until one side has no unit left.

    Each die is rolled against one enemy unit, which is eliminated iff d6 >= its Virtus. single_shot: one die per
    turn; volley (KOR-A45): one die per unit the side has at the start of its turn. A die's hit is applied before
    the next die is rolled, so later dice of a volley aim only at survivors and a volley stops once the enemy side
    is wiped out. Rome's target comes from the policy ``code`` (``slots[point]`` when it is ``USER``) at decision
    point ``point``; Alba Longa's die aims at a uniformly random surviving Roman unit (the NR bot), drawn before the
    die. Returns ``(romans_left, latins_left, dice_rolled, error)``.
    """
    romans, latins, shots = n_roman, n_latin, 0
    while romans > 0 and latins > 0:
        dice = 1
        if volley:
            dice = romans if rome_rolls else latins
        for _ in range(dice):
            if rome_rolls:
                state[0], state[1], state[2], state[3], state[4] = n_latin, latins, romans, shots, volley
                for i in range(MAX_UNITS):
                    state[5 + i] = units[MAX_UNITS + i]
                    state[5 + MAX_UNITS + i] = units[i]
                slot = decide_horatii_target(code, params, state, stream, slots, point)
                if slot < 0 or slot >= n_latin or units[MAX_UNITS + slot] == 0:
                    return 0, 0, shots, error_code(point, slot)
                target = MAX_UNITS + slot
            else:
                target = nth_alive(units, 0, n_roman, rng.dn(stream, romans))
            shots += 1
            if rng.d6(stream) >= units[target]:
                units[target] = 0
                if rome_rolls:
                    latins -= 1
                else:
                    romans -= 1
                if romans == 0 or latins == 0:
                    break
        rome_rolls = not rome_rolls
    return romans, latins, shots, 0


@njit(cache=True, inline="always")
def load_units(units, p):
    for i in range(MAX_UNITS):
        units[i] = p[ROMAN + i]
        units[MAX_UNITS + i] = p[LATIN + i]


@njit(cache=True)
def horatii_scratch(args):
    """The 12 unit slots and the DP-H03 state."""
    return np.zeros(2 * MAX_UNITS, np.int64), np.zeros(HORATII_STATE_SIZE, np.int64)


@njit(cache=True, inline="always")
def horatii_game(stream, row, codes, params, slots, p, units, state):
    """KoR 9.3.7.2: three (here 1-6) Horatii against the Curiatii, Alba Longa rolling first by default.

    Fills ``row``; returns 0 or a policy error code.
    """
    load_units(units, p)
    romans, latins, shots, err = duel(stream, units, state, p[N_ROMAN], p[N_LATIN], p[ROME_FIRST] == 1,
                                      p[VOLLEY] == 1, DP_HORATII_TARGET, codes[DP_HORATII_TARGET],
                                      params[DP_HORATII_TARGET], slots)
    if err:
        return err
    row[WIN] = 1 if latins == 0 else 0
    row[ROMAN_SURVIVORS] = romans
    row[LATIN_SURVIVORS] = latins
    row[SHOTS] = shots
    return 0


horatii_kernel = block_kernel("horatii_kernel", horatii_scratch, horatii_game, N_METRICS)
