"""Pillage (KoR 5.4) and the undefended city (5.4.1): kernel.

The scenario is compiled into the kernel's ``args = (p, units)``: an int64 vector ``p`` indexed by the constants
below (rule options are integer flags in it) and the NR units' Virtus ``units``. The outcome row follows
``Pillage.metrics``.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import error_code
from .policies import (DP_PILLAGE_SECOND, DP_PILLAGE_UNDEFENDED, PILLAGE_SECOND, UNDEFENDED_CITY, decide_pillage_second,
                       decide_undefended_city)

# indices into the compiled parameter vector
GARRISON, KING, N_UNITS, SECOND_PLAYER_CHOICE, ROMANIZE_IF_EMPTIED, SIDE_EFFECTS, N_PARAMS = range(7)

# outcome columns, in Pillage.metrics order
WIN, ROMANIZED, IP, VP, REACTIONS, R_TO_NR, ELIMINATED, N_METRICS = range(8)

SECOND_STATE_SIZE, UNDEFENDED_STATE_SIZE = len(PILLAGE_SECOND.state), len(UNDEFENDED_CITY.state)


@njit(cache=True)
def pillage_scratch(args):
    """The state of the one decision point the scenario can ask: DP-P03 for an undefended city, else DP-P02."""
    p = args[0]
    return (np.zeros(UNDEFENDED_STATE_SIZE if p[GARRISON] == 0 and p[N_UNITS] == 0 else SECOND_STATE_SIZE,
                     np.int64),)


@njit(cache=True, inline="always")
def pillage_reward(p, row, success):
    """5.4 table: success King +1 VP +1 IP, no King +1 VP; failure King -2 IP, no King nothing."""
    if success:
        row[VP] += 1
        if p[KING]:
            row[IP] += 1
    elif p[KING]:
        row[IP] -= 2


@njit(cache=True, inline="always")
def pillage_game(stream, row, codes, params, slots, offset, p, units, state):
    """KoR 5.4 pillage of an NR city (5.4.1 when it is undefended). Fills ``row``; returns 0 or an error code.
    ``offset``: the index of the pillage's first decision point in ``codes``, ``params`` and ``slots``."""
    row[:] = 0
    g, n = p[GARRISON], p[N_UNITS]
    row[IP] = -1  # the action's cost, paid whatever happens
    if g == 0 and n == 0:
        # 5.4.1: automatic; occupy with an infantry unit (romanized, no reward) or pillage (5.4 success rewards)
        state[0], state[1] = p[KING], p[SIDE_EFFECTS]
        i = offset + DP_PILLAGE_UNDEFENDED
        action = decide_undefended_city(codes[i], params[i], state, stream, slots, i)
        if action != 0 and action != 1:
            return error_code(i, action)
        row[WIN] = 1
        if action == 0:
            row[ROMANIZED] = 1
        else:
            pillage_reward(p, row, True)
        if p[SIDE_EFFECTS]:  # KOR-A5 inherit_pillage
            row[REACTIONS] = 2
            row[R_TO_NR] = 1
        return 0

    # the die is compared with the strongest token (garrison first among equals)
    tokens = n + (1 if g > 0 else 0)
    strongest, first = g, 0
    for i in range(n):
        if units[i] > strongest:
            strongest, first = units[i], 1 + i
    eliminated = 0
    if rng.d6(stream) > strongest:
        eliminated = 1
        if p[KING] and tokens > 1:
            if p[SECOND_PLAYER_CHOICE]:
                # DP-P02: the roll beat the strongest, so it beats any second token the player names
                state[:] = 0
                state[0] = g if first != 0 else 0
                state[1] = n
                for i in range(n):
                    if first != 1 + i:
                        state[2 + i] = units[i]
                i = offset + DP_PILLAGE_SECOND
                action = decide_pillage_second(codes[i], params[i], state, stream, slots, i)
                legal = (action == 0 and g > 0 and first != 0) or (1 <= action <= n and action != first)
                if not legal:
                    return error_code(i, action)
            eliminated = 2
    success = eliminated == tokens
    row[ELIMINATED] = eliminated
    if success:
        row[WIN] = 1
        # a flipped garrison romanizes the city: alone by the text, with others too under KOR-A4 (iii)
        if g > 0 and (tokens == 1 or p[ROMANIZE_IF_EMPTIED]):
            row[ROMANIZED] = 1
    pillage_reward(p, row, success)
    row[REACTIONS] = 2
    row[R_TO_NR] = 1
    return 0


@njit(cache=True, inline="always")
def pillage_play(stream, row, codes, params, slots, p, units, state):
    """The kernel's game: the pillage whose decision points come first (``pillage_game`` at offset 0)."""
    return pillage_game(stream, row, codes, params, slots, 0, p, units, state)


pillage_kernel = block_kernel("pillage_kernel", pillage_scratch, pillage_play, N_METRICS)
