"""Naval battle (KoR 5.8): kernel.

The scenario is compiled into one int64 vector ``p`` indexed by the constants below: fleet sizes, rule options as
integer flags, then the Virtus of up to ``MAX_SHIPS`` ships per side (0 = no ship). The outcome row follows
``Naval.metrics``.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import error_code
from .policies import NAVAL_STATE_NR, NAVAL_STATE_ROMAN, NAVAL_STATE_SIZE, decide_naval_target

MAX_SHIPS = 6
MAX_ROUNDS = 3  # 5.8: the dice may be rolled three times

# indices into the compiled parameter vector; the ships' Virtus follow at ROMAN_V and NR_V
N_ROMAN, N_NR, OMEN, ASTUTIA, ADDITIVE, MUTUAL_NO_RESULT, CHAINED, ROMAN_V = range(8)
NR_V = ROMAN_V + MAX_SHIPS
N_PARAMS = NR_V + MAX_SHIPS

# outcome columns, in Naval.metrics order
WIN, LOSS, IP, VP, ROMAN_LOST, NR_LOST, ROUNDS, N_METRICS = range(8)

# rows of the per-block scratch array
SHIP_ROMAN, SHIP_NR, SHIP_TARGET, SHIP_ROMAN_HIT, SHIP_NR_HIT, N_SCRATCH = range(6)


@njit(cache=True)
def naval_scratch(args):
    """The DP-N01 state and the ships' rows."""
    return np.zeros(NAVAL_STATE_SIZE, np.int64), np.zeros((N_SCRATCH, MAX_SHIPS), np.int64)


@njit(cache=True, inline="always")
def naval_game(stream, row, codes, params, slots, offset, p, state, ships):
    """KoR 5.8: a Roman fleet intercepts an NR fleet; at most three rounds of simultaneous fire.

    Every ship afloat fires at one enemy ship and sinks it if its die exceeds that ship's Virtus (C1). Roman dice
    get the Good Omen (+1, 9.5.7.1) and the bonus of the Roman leader aboard (KOR-A41): a pool of ``astutia``
    rerolls for the whole fleet and battle (C3), used on every failed roll a reroll could still win, each die
    rerolled at most once (5.7.9, KOR-A22 ``astutia_reroll=once``; again while points last with ``chained``), or
    Astutia added to every Roman die. Rome rolls first, but the hits of a round are applied together. The NR bot fires
    at a Roman ship drawn uniformly among those afloat. Fills ``row``; returns 0 or a policy error code.
    ``offset``: the index of DP-N01 in ``codes``, ``params`` and ``slots``.
    """
    row[:] = 0
    roman, nr, target = ships[SHIP_ROMAN], ships[SHIP_NR], ships[SHIP_TARGET]
    roman_hit, nr_hit = ships[SHIP_ROMAN_HIT], ships[SHIP_NR_HIT]
    for i in range(MAX_SHIPS):
        roman[i] = p[ROMAN_V + i]
        nr[i] = p[NR_V + i]
    roman_afloat, nr_afloat = p[N_ROMAN], p[N_NR]
    additive = p[ADDITIVE]
    bonus = p[OMEN] + (p[ASTUTIA] if additive else 0)
    points = 0 if additive else p[ASTUTIA]
    chained = p[CHAINED]
    rounds = 0
    while rounds < MAX_ROUNDS and roman_afloat > 0 and nr_afloat > 0:
        rounds += 1
        # DP-N01: every Roman ship names its target before any die of the round is rolled
        state[0], state[1], state[2], state[3], state[4], state[5], state[6] = (
            rounds, 0, 0, roman_afloat, nr_afloat, bonus, points)
        for i in range(MAX_SHIPS):
            state[NAVAL_STATE_NR + i] = nr[i]
            state[NAVAL_STATE_ROMAN + i] = roman[i]
        rank = 0
        for i in range(MAX_SHIPS):
            if roman[i] == 0:
                continue
            state[1], state[2] = i, rank
            t = decide_naval_target(codes[offset], params[offset], state, stream, slots, offset)
            if t < 0 or t >= MAX_SHIPS or nr[t] == 0:
                return error_code(offset, t)
            target[i] = t
            rank += 1
        for i in range(MAX_SHIPS):
            roman_hit[i] = 0
            nr_hit[i] = 0
        # Rome rolls first; a hit only marks the ship, which still fires this round
        for i in range(MAX_SHIPS):
            if roman[i] == 0:
                continue
            virtus = nr[target[i]]
            die = rng.d6(stream)
            rerolled = False
            while die + bonus <= virtus and points > 0 and 6 + bonus > virtus and (chained or not rerolled):
                points -= 1
                rerolled = True
                die = rng.d6(stream)
            if die + bonus > virtus:
                nr_hit[target[i]] = 1
        # the NR bot: a uniformly drawn Roman ship afloat, then the die
        for i in range(MAX_SHIPS):
            if nr[i] == 0:
                continue
            k = rng.dn(stream, roman_afloat)
            j = -1
            while k > 0:
                j += 1
                if roman[j] > 0:
                    k -= 1
            if rng.d6(stream) > roman[j]:
                roman_hit[j] = 1
        for i in range(MAX_SHIPS):
            if nr_hit[i]:
                nr[i] = 0
                nr_afloat -= 1
                row[NR_LOST] += 1
            if roman_hit[i]:
                roman[i] = 0
                roman_afloat -= 1
                row[ROMAN_LOST] += 1
    row[ROUNDS] = rounds
    if nr_afloat == 0 and roman_afloat > 0:
        row[WIN] = 1
        row[IP] = 2
        row[VP] = 1
    elif not (nr_afloat == 0 and roman_afloat == 0 and p[MUTUAL_NO_RESULT]):
        # every Roman ship sunk, both fleets afloat after three rounds, or both sunk (KOR-A41 roman_defeat)
        row[LOSS] = 1
        row[VP] = -2
    return 0


@njit(cache=True, inline="always")
def naval_play(stream, row, codes, params, slots, p, state, ships):
    """The kernel's game: the naval battle whose decision points come first (``naval_game`` at offset 0)."""
    return naval_game(stream, row, codes, params, slots, 0, p, state, ships)


naval_kernel = block_kernel("naval_kernel", naval_scratch, naval_play, N_METRICS)
