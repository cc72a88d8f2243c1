"""The one block loop every kernel plays its games with.

A game module provides two ``@njit`` functions and makes its kernel from them::

    @njit(cache=True)
    def scratch(args):                  # the buffers a block of games reuses, a tuple (none: ``no_scratch``)
        ...

    @njit(cache=True, inline="always")  # one game; returns 0 or a policy error code
    def play(stream, row, codes, params, slots, p, units, status, state):
        ...

    kernel = block_kernel("kernel", scratch, play, N_METRICS)

``args`` is the scenario's ``kernel_args()`` tuple, ``codes``/``params``/``slots`` the resolved policies
(``romesim.core.policy``), ``row`` the game's outcome row of ``N_METRICS`` entries (the game sets every one).
``play``'s parameters after ``slots`` are the arrays of ``args`` and then those of ``scratch(args)``, by position;
``errors[b]`` receives the first error code of block ``b`` and the game it happened in.

Why the kernel is generated rather than one function taking ``args``: a game that unpacked its tuples itself did
so in every game, inside the loop, where numba reference-counts each array taken out of a tuple and LLVM no
longer sees that the arrays do not change. The generated loop unpacks them once per block into locals of the
kernel, and the outcome row has a size known at compile time: the siege played 8 M games/s the first way and
42 M games/s this way, and compiled in 92 s instead of 101 s.
"""
import inspect
import sys

import numpy as np
from numba import prange

from .jit import njit
from . import rng

BLOCK = 1024  # games per prange iteration: one stream and one set of buffers serve a whole block


@njit(cache=True, inline="always")
def n_blocks(count):
    return (count + BLOCK - 1) // BLOCK


@njit(cache=True, inline="always")
def record(row, b, j, out, sums, sumsq):
    """Add a game's outcome row to its block's sums; keep it in ``out`` when per-game outcomes are kept."""
    keep = out.shape[1] > 0
    for k in range(row.size):
        v = row[k]
        sums[b, k] += v
        sumsq[b, k] += v * v
        if keep:
            out[k, j] = v


@njit(cache=True)
def no_scratch(args):
    """The ``scratch`` of a game that reuses no buffer (a procedure without decision points)."""
    return ()


KERNEL = """\
def {name}(seed, first, count, args, codes, params, slots, out, sums, sumsq, errors):
    for b in prange(n_blocks(count)):
        stream = rng.new_stream()
        row = np.zeros({n_metrics}, np.int64)
        {inputs}, = args + scratch(args)
        for j in range(b * BLOCK, min(count, (b + 1) * BLOCK)):
            rng.start(stream, seed, first + j)
            error = play(stream, row, codes, params, slots, {inputs})
            if error != 0:
                errors[b, 0] = error
                errors[b, 1] = first + j
                break
            record(row, b, j, out, sums, sumsq)
"""


REPLAY = """\
def {name}(seed, game, args, codes, params, slots, stream, row):
    {inputs}, = args + scratch(args)
    rng.start(stream, seed, game)
    return play(stream, row, codes, params, slots, {inputs})
"""


def _generate(template, name, scratch, play, n_metrics, module, line, **jit):
    """``template`` for ``play``, compiled as if written in ``module`` at ``line`` (see ``block_kernel``)."""
    function = getattr(play, "py_func", play)  # a plain function under NUMBA_DISABLE_JIT
    count = len(inspect.signature(function).parameters) - 5
    if count < 1:
        raise TypeError(f"{function.__name__}: a game takes at least the scenario's arrays after 'slots'")
    inputs = [f"input_{i}" for i in range(count)]  # not the game's names, which may be the kernel's (``out``)
    source = "\n" * (line - 1) + template.format(name=name, n_metrics=int(n_metrics), inputs=", ".join(inputs))
    namespace = dict(__name__=__name__, np=np, prange=prange, rng=rng, BLOCK=BLOCK, n_blocks=n_blocks,
                     record=record, scratch=scratch, play=play)
    exec(compile(source, module.__file__, "exec"), namespace)
    return njit(cache=True, **jit)(namespace[name])


def block_kernel(name, scratch, play, n_metrics):
    """The parallel kernel ``name(seed, first, count, args, codes, params, slots, out, sums, sumsq, errors)``
    that plays games ``first .. first+count-1`` of run ``seed`` with ``play``, one dice stream per game and a
    block of ``BLOCK`` games per thread.

    Its source is ``KERNEL`` with as many inputs as ``play`` takes, compiled as if written in ``play``'s module at
    the line that calls ``block_kernel``: numba caches it beside the game's other functions and stamps it with the
    game's sources (``core.cache``). ``replay_kernel`` makes the same game's one-game kernel from it.
    """
    module = sys.modules[getattr(play, "py_func", play).__module__]
    line = sys._getframe(1).f_lineno
    kernel = _generate(KERNEL, name, scratch, play, n_metrics, module, line, parallel=True)
    _GAMES[kernel] = (name, scratch, play, n_metrics, module, line)
    return kernel


_GAMES = {}  # kernel -> how block_kernel made it
_REPLAYS = {}


def replay_kernel(kernel):
    """``replay(seed, game, args, codes, params, slots, stream, row)``: game ``game`` of run ``seed`` of ``kernel``'s
    game, on the caller's ``stream`` (whose words after the first two a scripted policy may use); returns the
    game's error code. Compiled on first use, and cached on disk like the kernel."""
    if kernel not in _REPLAYS:
        name, scratch, play, n_metrics, module, line = _GAMES[kernel]
        _REPLAYS[kernel] = _generate(REPLAY, f"{name}_replay", scratch, play, n_metrics, module, line)
    return _REPLAYS[kernel]
