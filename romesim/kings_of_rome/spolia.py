"""Spolia Opima duel (KoR 5.7.2.1): kernel.

The scenario is compiled into one int64 vector ``p`` indexed by the constants below; the round mode of KOR-A17
is an integer flag in it. The outcome row follows ``Spolia.metrics``.
"""

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel, no_scratch

# indices into the compiled parameter vector
ROMAN_VIRTUS, ROMAN_ASTUTIA, NR_VIRTUS, NR_ASTUTIA, OMEN, MODE, N_PARAMS = range(7)

# round modes (KOR-A17 spolia_round_mode), in kor_options.csv order
SIMULTANEOUS_REPEAT, SIMULTANEOUS_SINGLE_ROUND, SEQUENTIAL_ROMAN_FIRST = range(3)

# outcome columns, in Spolia.metrics order
WIN, LOSS, BOTH_DIE, IP, VP, N_METRICS = range(6)


@njit(cache=True, inline="always")
def spolia_game(stream, row, codes, params, slots, p):
    """KoR 5.7.2.1: each leader rolls d6 + his Astutia (no rerolls) and must exceed the other's Virtus.

    The Roman die also gets the Good Omen (+1, KOR-A58). Simultaneous rounds are repeated until someone is hit
    (KOR-A17 default), or fought once; in the sequential mode the Roman rolls first and a hit ends the duel.
    Roman win: +3 VP +3 IP; NR win: -3 VP -3 IP; both leaders die: no points.
    """
    row[:] = 0
    roman_needs = p[NR_VIRTUS] - p[ROMAN_ASTUTIA] - p[OMEN]  # the Roman hits when his d6 exceeds this
    nr_needs = p[ROMAN_VIRTUS] - p[NR_ASTUTIA]
    mode = p[MODE]
    while True:
        roman_hits = rng.d6(stream) > roman_needs
        if mode == SEQUENTIAL_ROMAN_FIRST and roman_hits:
            nr_hits = False  # the NR leader is dead before he can strike
        else:
            nr_hits = rng.d6(stream) > nr_needs
        if roman_hits or nr_hits or mode == SIMULTANEOUS_SINGLE_ROUND:
            break
    if roman_hits and nr_hits:
        row[BOTH_DIE] = 1
    elif roman_hits:
        row[WIN] = 1
        row[IP] = 3
        row[VP] = 3
    elif nr_hits:
        row[LOSS] = 1
        row[IP] = -3
        row[VP] = -3
    return 0


spolia_kernel = block_kernel("spolia_kernel", no_scratch, spolia_game, N_METRICS)
