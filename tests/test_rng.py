"""romesim.core.rng: dice frequencies, independence of streams, the plain-Python twin, the generator's name.

Statistical tests use fixed seeds and reject at p = 1e-6 (about 5 sigma), so they are deterministic and a pass
is not luck; each one fails on a biased die, a correlated neighbour stream or a changed generator.
"""
import math

import numpy as np
import pytest
from numba import njit
from scipy.stats import chi2

import romesim
from romesim.core import rng

ALPHA = 1e-6  # ~5 sigma
N_ROLLS = 10_000_000
N_GAMES = 1_000_000


def critical(df):
    return chi2.ppf(1 - ALPHA, df)


def chi_square(observed, expected):
    observed = np.asarray(observed, np.float64)
    expected = np.asarray(expected, np.float64)
    return float(((observed - expected) ** 2 / expected).sum())


# --------------------------------------------------------------------------- njit helpers (cached)
@njit(cache=True)
def _count_faces(seed, kind, sides, n_rolls):
    """Faces of ``n_rolls`` dice over consecutive games (8 dice per game): kind 0 d6, 1 d10, 2 dN(sides), 3 2d6."""
    counts = np.zeros(sides + 1 if kind != 3 else 13, np.int64)
    stream = rng.new_stream()
    game = 0
    for i in range(n_rolls):
        if i % 8 == 0:
            rng.start(stream, seed, np.uint64(game))
            game += 1
        if kind == 0:
            counts[rng.d6(stream)] += 1
        elif kind == 1:
            counts[rng.d10(stream)] += 1
        elif kind == 2:
            counts[rng.dn(stream, sides)] += 1
        else:
            counts[rng.two_d6(stream)] += 1
    return counts


@njit(cache=True)
def _first_draws(seed, first_game, n_games):
    """Per game: first 32-bit word, first d6, second d6 (a fresh stream each time)."""
    words = np.zeros(n_games, np.uint64)
    die1 = np.zeros(n_games, np.int64)
    die2 = np.zeros(n_games, np.int64)
    stream = rng.new_stream()
    for g in range(n_games):
        rng.start(stream, seed, np.uint64(first_game + g))
        words[g] = rng.next_u32(stream)
        rng.start(stream, seed, np.uint64(first_game + g))
        die1[g] = rng.d6(stream)
        die2[g] = rng.d6(stream)
    return words, die1, die2


@njit(cache=True)
def _first_die_per_seed(first_seed, game, n_seeds):
    out = np.zeros(n_seeds, np.int64)
    stream = rng.new_stream()
    for s in range(n_seeds):
        rng.start(stream, np.uint64(first_seed + s), game)
        out[s] = rng.d6(stream)
    return out


@njit(cache=True)
def _one_stream_d6(seed, game, n):
    out = np.zeros(n, np.int64)
    stream = rng.new_stream()
    rng.start(stream, seed, game)
    for i in range(n):
        out[i] = rng.d6(stream)
    return out


@njit(cache=True)
def _words(seed, game, n):
    out = np.zeros(n, np.uint64)
    stream = rng.new_stream()
    rng.start(stream, seed, game)
    for i in range(n):
        out[i] = rng.next_u32(stream)
    return out


@njit(cache=True)
def _draws(seed, game, kind, sides, n):
    """``n`` draws of one kind from one stream, and the number of words the stream used."""
    out = np.zeros(n, np.int64)
    stream = rng.new_stream()
    rng.start(stream, seed, game)
    for i in range(n):
        if kind == 0:
            out[i] = rng.d6(stream)
        elif kind == 1:
            out[i] = rng.d10(stream)
        elif kind == 2:
            out[i] = rng.dn(stream, sides)
        else:
            out[i] = rng.two_d6(stream)
    return out, rng.words_used(stream)


@njit(cache=True)
def _mix(z):
    return rng.mix64(z)


# --------------------------------------------------------------------------- face frequencies
@pytest.mark.parametrize("kind, sides, faces", [
    (0, 6, range(1, 7)),      # d6
    (1, 10, range(0, 10)),    # d10, faces 0..9
    (2, 3, range(1, 4)),
    (2, 7, range(1, 8)),
    (2, 20, range(1, 21)),
], ids=["d6", "d10", "d3", "d7", "d20"])
def test_faces_are_uniform(kind, sides, faces):
    counts = _count_faces(np.uint64(20240601), kind, sides, N_ROLLS)
    faces = list(faces)
    outside = np.delete(counts, faces)
    assert outside.sum() == 0, f"faces outside {faces[0]}..{faces[-1]}: {counts}"
    observed = counts[faces]
    assert observed.sum() == N_ROLLS
    stat = chi_square(observed, np.full(len(faces), N_ROLLS / len(faces)))
    assert stat < critical(len(faces) - 1), (stat, observed)


def test_two_d6_is_triangular():
    counts = _count_faces(np.uint64(77), 3, 6, N_ROLLS)
    assert counts[:2].sum() == 0
    ways = np.array([6 - abs(t - 7) for t in range(2, 13)])  # 1, 2, .., 6, .., 2, 1 (36ths)
    assert ways.sum() == 36
    stat = chi_square(counts[2:], N_ROLLS * ways / 36)
    assert stat < critical(10), (stat, counts)


def test_large_n_has_no_modulo_bias():
    # n = 3 * 2**30: a modulo reduction of a 32-bit word would put half of the draws in the lowest third.
    n = 3 * 2**30
    out, _ = _draws(np.uint64(5), np.uint64(0), 2, n, N_GAMES)
    assert out.min() >= 1 and out.max() <= n
    thirds = np.bincount((out - 1) // 2**30, minlength=3)
    assert thirds.size == 3
    stat = chi_square(thirds, np.full(3, N_GAMES / 3))
    assert stat < critical(2), thirds


def test_word_bits_are_balanced():
    words = _words(np.uint64(3), np.uint64(11), N_GAMES)
    assert int(words.max()) < 2**32
    bits = ((words[:, None] >> np.arange(32, dtype=np.uint64)) & np.uint64(1)).sum(axis=0)
    z = (bits - N_GAMES / 2) / math.sqrt(N_GAMES / 4)
    assert np.abs(z).max() < 5.3, z  # 32 bits at ~5 sigma each (Bonferroni still below 1e-5)


# --------------------------------------------------------------------------- independence
def _pearson_ok(x, y):
    r = np.corrcoef(np.asarray(x, np.float64), np.asarray(y, np.float64))[0, 1]
    assert abs(r) < 5 / math.sqrt(len(x)), r


def _contingency_ok(a, b):
    """Pairs of d6 faces against the uniform 1/36 table (df 35)."""
    table = np.bincount((a - 1) * 6 + (b - 1), minlength=36)
    assert table.size == 36 and table.sum() == len(a)
    stat = chi_square(table, np.full(36, len(a) / 36))
    assert stat < critical(35), table.reshape(6, 6)


def test_neighbouring_games_are_uncorrelated():
    # 2 * 10**6 games, paired (2i, 2i+1) so that the pairs are independent observations
    words, die1, _ = _first_draws(np.uint64(12345), 0, 2 * N_GAMES)
    _pearson_ok(words[0::2], words[1::2])
    _pearson_ok(die1[0::2], die1[1::2])
    _contingency_ok(die1[0::2], die1[1::2])
    # and overlapping neighbours g, g+1 for the correlation (lag-1 autocorrelation has sd 1/sqrt(n) too)
    _pearson_ok(words[:-1], words[1:])
    _pearson_ok(die1[:-1], die1[1:])


def test_neighbouring_games_at_a_large_index_are_uncorrelated():
    words, die1, _ = _first_draws(np.uint64(2**64 - 1), 2**40, 2 * N_GAMES)
    _pearson_ok(words[0::2], words[1::2])
    _contingency_ok(die1[0::2], die1[1::2])


def test_neighbouring_seeds_are_uncorrelated():
    dice = _first_die_per_seed(0, np.uint64(0), 2 * N_GAMES)
    _pearson_ok(dice[0::2], dice[1::2])
    _contingency_ok(dice[0::2], dice[1::2])


def test_consecutive_dice_within_a_stream_are_independent():
    _, die1, die2 = _first_draws(np.uint64(99), 0, N_GAMES)
    _pearson_ok(die1, die2)
    _contingency_ok(die1, die2)
    long = _one_stream_d6(np.uint64(99), np.uint64(7), 2 * N_GAMES)  # one stream, counter up to 2e6
    _pearson_ok(long[0::2], long[1::2])
    _contingency_ok(long[0::2], long[1::2])
    _contingency_ok(long[1:-1:2], long[2::2])


def test_streams_differ_by_seed_and_game():
    a = _words(np.uint64(1), np.uint64(0), 8)
    assert not np.array_equal(a, _words(np.uint64(2), np.uint64(0), 8))
    assert not np.array_equal(a, _words(np.uint64(1), np.uint64(1), 8))
    assert np.array_equal(a, _words(np.uint64(1), np.uint64(0), 8))


# --------------------------------------------------------------------------- the plain-Python twin
PAIRS = [(0, 0), (0, 1), (1, 0), (2**64 - 1, 0), (2**64 - 1, 2**63), (12345, 10**12), (2**63, 2**64 - 2),
         (7, 2**64 - 1)]


@pytest.mark.parametrize("seed, game", PAIRS)
def test_pystream_words_match_kernel(seed, game):
    fast = _words(np.uint64(seed), np.uint64(game), 300)
    py = rng.PyStream(seed, game)
    assert [py.next_u32() for _ in range(300)] == [int(w) for w in fast]
    assert py.counter == 300


@pytest.mark.parametrize("seed, game", PAIRS)
@pytest.mark.parametrize("kind, sides", [(0, 6), (1, 10), (3, 6), (2, 1), (2, 3), (2, 7), (2, 20),
                                         (2, 3 * 2**30), (2, 2**31 + 1), (2, 2**32 - 1), (2, 2**32)])
def test_pystream_dice_match_kernel(seed, game, kind, sides):
    n = 3000
    fast, used = _draws(np.uint64(seed), np.uint64(game), kind, sides, n)
    py = rng.PyStream(seed, game)
    draw = {0: py.d6, 1: py.d10, 3: py.two_d6}.get(kind, lambda: py.dn(sides))
    assert [draw() for _ in range(n)] == fast.tolist()
    assert py.counter == used
    if sides in (3 * 2**30, 2**31 + 1):
        # rejection happens with probability 1/4 (resp. ~1/2) per draw: make sure it was exercised
        assert used > n + n // 8, used


def test_mix64_is_splitmix64():
    # SplitMix64 (Steele, Lea & Flood 2014) seeded with 0: its first outputs are mix64(k * GAMMA), k = 1, 2, 3;
    # the published reference values are 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F.
    gamma = 0x9E3779B97F4A7C15
    expected = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    for k, value in enumerate(expected, start=1):
        assert rng._pymix64((k * gamma) % 2**64) == value
        assert int(_mix(np.uint64((k * gamma) % 2**64))) == value


# --------------------------------------------------------------------------- the generator's identity
def test_generator_name_is_pinned():
    # A change of generator changes every result: it must bump this name (and the CHANGELOG) on purpose.
    assert rng.GENERATOR == "splitmix64-ctr/1"
    assert romesim.GENERATOR == rng.GENERATOR


def test_generator_output_is_pinned():
    # Golden words of "splitmix64-ctr/1": if these change, GENERATOR must change too.
    assert rng.GENERATOR == "splitmix64-ctr/1"
    py = rng.PyStream(0, 0)
    assert [py.next_u32() for _ in range(4)] == GOLDEN_WORDS_0_0
    py = rng.PyStream(2**64 - 1, 123456789)
    assert [py.d6() for _ in range(12)] == GOLDEN_D6_MAX_SEED


GOLDEN_WORDS_0_0 = [2802244911, 3011683077, 1662685524, 2819275404]
GOLDEN_D6_MAX_SEED = [6, 2, 1, 5, 6, 6, 1, 6, 2, 2, 3, 3]
