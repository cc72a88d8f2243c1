"""Assassinat stratagem (spec 2.12, seed 6.3) against one enemy Roman leader, with or without the Protectores
Domestici (spec 2.10, SV-A2, SV-A3): kernel.

The scenario compiles to an int64 vector ``p`` (constants below): the number of counters the player may play,
whether the bodyguard's modifier applies to the target, and that modifier. The outcome row follows
``Assassination.metrics``.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import error_code
from .policies import ASSASSINATE, decide_assassinate

ATTEMPTS, PROTECTED, GUARD_MOD, N_PARAMS = range(4)
WIN, PLAYS, N_METRICS = range(3)
STATE_SIZE = len(ASSASSINATE.state)


@njit(cache=True, inline="always")
def kill_faces(modifier):
    """Faces of the d10 (0-9) that kill: the modified result must be 8 or 9 (seed 6.3)."""
    n = 0
    for face in range(10):
        if 8 <= face + modifier <= 9:
            n += 1
    return n


@njit(cache=True)
def assassination_scratch(args):
    return (np.zeros(STATE_SIZE, np.int64),)


@njit(cache=True, inline="always")
def assassination_game(stream, row, codes, params, slots, p, state):
    """spec 2.12: each Assassinat played rolls a d10 and kills on 8 or 9; the bodyguard's holder adds the SV-A2
    modifier (-1: only a 9 kills). Before each attempt the player decides to play the next counter or keep the
    rest (D13). Fills ``row``; returns 0 or a policy error code."""
    row[:] = 0
    modifier = p[GUARD_MOD] if p[PROTECTED] else 0
    faces = kill_faces(modifier)
    for attempt in range(1, p[ATTEMPTS] + 1):
        state[0], state[1], state[2], state[3] = attempt, p[ATTEMPTS] - attempt + 1, p[PROTECTED], faces
        action = decide_assassinate(codes[0], params[0], state, stream, slots, 0)
        if action == 0:
            break
        if action != 1:
            return error_code(0, action)
        row[PLAYS] += 1
        result = rng.d10(stream) + modifier
        if result == 8 or result == 9:
            row[WIN] = 1
            break
    return 0


assassination_kernel = block_kernel("assassination_kernel", assassination_scratch, assassination_game, N_METRICS)
