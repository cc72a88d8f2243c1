"""Counter-based dice streams: one independent stream per game.

Generator ``splitmix64-ctr``, version 1 (``GENERATOR``). A stream is keyed by
``(seed, game)`` and its words are a pure function of ``(key, counter)``::

    mix64(z)   = SplitMix64 finaliser (Steele, Lea & Flood 2014)
    key        = mix64(mix64(seed) + (game + 1) * GAMMA)
    word_i     = mix64(key + i * GAMMA),   i = 1, 2, 3, ...

so no state is shared between games: any thread count, chunking or process
split draws the same dice for the same game, and the first ``k`` games of a
run of ``n`` are a run of ``k``. Dice use the upper 32 bits of a word and
Lemire's multiply-shift with rejection, so ``dN`` has no modulo bias.

A stream is a ``uint64`` array ``[key, counter]`` (``new_stream``); kernels
reuse one per block of games and re-key it with ``start``. ``PyStream`` draws
the identical sequence in plain Python, for reference implementations.
Changing anything here changes every result: bump ``GENERATOR`` and say so
in the CHANGELOG.
"""
import numpy as np

from .jit import njit

GENERATOR = "splitmix64-ctr/1"

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
_ONE = np.uint64(1)


@njit(cache=True, inline="llvm")
def mix64(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, inline="llvm")
def stream_key(seed, game):
    return mix64(mix64(np.uint64(seed)) + (np.uint64(game) + _ONE) * _GAMMA)


@njit(cache=True)
def new_stream():
    return np.zeros(2, np.uint64)


@njit(cache=True, inline="llvm")
def start(stream, seed, game):
    """Point ``stream`` at the first word of game ``game`` of run ``seed``."""
    stream[0] = stream_key(seed, game)
    stream[1] = 0


@njit(cache=True, inline="llvm")
def next_u32(stream):
    stream[1] += _ONE
    return mix64(stream[0] + stream[1] * _GAMMA) >> _S32


@njit(cache=True, inline="llvm")
def dn(stream, n):
    """Uniform integer in 1..n (n >= 1), Lemire's multiply-shift with rejection."""
    s = np.uint64(n)
    m = next_u32(stream) * s
    low = m & _MASK32
    if low < s:
        threshold = (_TWO32 - s) % s
        while low < threshold:
            m = next_u32(stream) * s
            low = m & _MASK32
    return np.int64(m >> _S32) + 1


@njit(cache=True, inline="llvm")
def d6(stream):
    return dn(stream, 6)


@njit(cache=True, inline="llvm")
def d10(stream):
    """The ten-sided die of the rules, faces 0..9."""
    return dn(stream, 10) - 1


@njit(cache=True, inline="llvm")
def two_d6(stream):
    return dn(stream, 6) + dn(stream, 6)


@njit(cache=True, inline="llvm")
def words_used(stream):
    return np.int64(stream[1])


# --------------------------------------------------------------------------- plain Python twin
_MASK64 = (1 << 64) - 1
_PG, _PM1, _PM2 = int(_GAMMA), int(_M1), int(_M2)


def _pymix64(z):
    z = ((z ^ (z >> 30)) * _PM1) & _MASK64
    z = ((z ^ (z >> 27)) * _PM2) & _MASK64
    return z ^ (z >> 31)


class Dice:
    """The dice interface of plain-Python procedures: a subclass supplies ``dn(n)`` (uniform 1..n)."""

    __slots__ = ()

    def dn(self, n):
        raise NotImplementedError

    def d6(self):
        return self.dn(6)

    def d10(self):
        """The ten-sided die of the rules, faces 0..9."""
        return self.dn(10) - 1

    def two_d6(self):
        return self.dn(6) + self.dn(6)


class PyStream(Dice):
    """The stream of game ``game`` of run ``seed``, in plain Python (same words as the kernels)."""

    __slots__ = ("key", "counter")

    def __init__(self, seed, game):
        self.key = _pymix64((_pymix64(seed & _MASK64) + (game + 1) * _PG) & _MASK64)
        self.counter = 0

    def next_u32(self):
        self.counter += 1
        return _pymix64((self.key + self.counter * _PG) & _MASK64) >> 32

    def dn(self, n):
        m = self.next_u32() * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = self.next_u32() * n
                low = m & 0xFFFFFFFF
        return (m >> 32) + 1
