"""The raw d6 rate of ``romesim.core.rng`` and the exact number of dice a scenario's game rolls.

``roll_d6`` is a kernel with nothing but dice in it, laid out like the engine's: ranges of games played on
threads (``engine.in_order``), blocks (``n_blocks``) in each, one stream re-keyed per game with ``rng.start``, then
``DICE_PER_GAME`` d6 per game. A scenario's games/s times its dice per game, over this rate, is the share of the
bare dice speed the kernel reaches.
"""
from fractions import Fraction

import numpy as np
import numba
from numba import njit

from romesim.core import rng
from romesim.core.engine import CHUNK, in_order, n_blocks, pieces
from romesim.core.errors import ExactNotSupported
from romesim.core.exact import enumerate_dice
from romesim.core.policy import resolve
from romesim.core.rng import Dice, PyStream

# the cases benchmarked roll 1 to 2.4 dice a game on average; 4 per stream start keeps re-keying in the picture
# without letting it dominate
DICE_PER_GAME = 4


@njit(nogil=True, cache=True)
def roll_d6(seed, first, count, per_game, totals):
    """Roll ``per_game`` d6 from the stream of each game ``first .. first+count-1``; totals per block keep the dice
    live."""
    blocks = totals.shape[0]
    size = (count + blocks - 1) // blocks
    for b in range(blocks):
        stream = rng.new_stream()
        total = 0
        for j in range(b * size, min(count, (b + 1) * size)):
            rng.start(stream, seed, first + j)
            for _ in range(per_game):
                total += rng.d6(stream)
        totals[b] = total


def roll(count, per_game=DICE_PER_GAME, seed=0):
    """The dice totals of games ``0 .. count-1``, block by block, played on threads as the engine plays a run."""
    def work(a, b):
        totals = np.zeros(n_blocks(b - a), np.int64)
        roll_d6(np.uint64(seed), a, b - a, per_game, totals)
        return totals
    threads = numba.get_num_threads()
    work(0, 0)  # compiled here, or loaded, before the threads call it
    return np.concatenate([t for _, t in in_order(work, pieces(0, count, CHUNK, threads), threads)])


class _Counted(Dice):
    """A dice source that counts the dice rolled (``dn`` calls; the rare rejected words of a stream are not dice)."""

    def __init__(self, dice):
        self.dice, self.rolled = dice, 0

    def dn(self, n):
        self.rolled += 1
        return self.dice.dn(n)


def dice_per_game(scenario, games=20_000):
    """Expected dice per game: exact, by enumerating the scenario's plain-Python reference over every dice sequence
    when that is small; otherwise the mean over ``games`` reference games (the same dice as the kernel's)."""
    policies = resolve(scenario.decision_points)

    def count(dice):
        counted = _Counted(dice)
        scenario.reference(counted, policies)
        return counted.rolled

    try:
        return sum((k * p for k, p in enumerate_dice(count, max_leaves=50_000).items()), Fraction(0))
    except ExactNotSupported:
        return Fraction(sum(count(PyStream(0, g)) for g in range(games)), games)
