"""Exact distributions shared by the games' solvers.

``enumerate_dice(play)`` computes the exact distribution of any procedure that is a pure function of its dice
and that always ends after finitely many: it replays ``play(dice)`` over every sequence of faces (depth first,
each face weighted 1/sides as a ``Fraction``). ``dice`` offers the stream interface (``dn``, ``d6``, ``d10``,
``two_d6``), so a game's plain-Python reference procedure, written for ``PyStream``, is enumerated unchanged.
"""
from collections import defaultdict
from fractions import Fraction

from .errors import ExactNotSupported
from .rng import Dice

MAX_LEAVES = 2_000_000
MAX_DEPTH = 200  # dice in one sequence: beyond it the procedure is taken not to be finite


class _NeedDie(Exception):
    def __init__(self, sides):
        self.sides = sides


class _Replay(Dice):
    __slots__ = ("faces", "pos")

    def __init__(self, faces):
        self.faces, self.pos = faces, 0

    def dn(self, n):
        if self.pos == len(self.faces):
            raise _NeedDie(n)
        face = self.faces[self.pos][0]
        self.pos += 1
        return face


def enumerate_dice(play, max_leaves=MAX_LEAVES, max_depth=MAX_DEPTH):
    """``{outcome: probability}`` of ``play(dice)`` over all dice sequences (outcomes must be hashable).

    Raises ExactNotSupported past ``max_leaves`` sequences or ``max_depth`` dice in one sequence (a procedure that
    can go on forever, such as a duel repeated until a hit, needs a Markov chain instead).
    """
    dist = defaultdict(Fraction)
    stack = [((), Fraction(1))]
    leaves = 0
    while stack:
        faces, prob = stack.pop()
        try:
            outcome = play(_Replay(faces))
        except _NeedDie as need:
            if len(faces) >= max_depth:
                raise ExactNotSupported(f"exact enumeration stopped at a sequence of {max_depth} dice; this "
                                        "procedure is not finite enough to enumerate") from None
            p = prob / need.sides
            stack.extend((faces + ((f, need.sides),), p) for f in range(need.sides, 0, -1))
            continue
        dist[outcome] += prob
        leaves += 1
        if leaves > max_leaves:
            raise ExactNotSupported(f"exact enumeration stopped after {max_leaves:,} dice sequences; "
                                    "this setting is too large to enumerate")
    return dict(dist)


def expectations(dist, metrics):
    """``{metric: E[outcome[i]]}`` from a distribution over outcome tuples in ``metrics`` order."""
    means = {m: Fraction(0) for m in metrics}
    for outcome, prob in dist.items():
        for m, v in zip(metrics, outcome):
            means[m] += prob * v
    return means


def absorbing_expectations(start, transitions, final, max_states=200_000):
    """Exact expectations of a Markov chain that never revisits a state except through self-loops.

    Battles of attrition, duels and volleys have this shape: units only die, and a round where nobody is hit
    loops on the same state. ``transitions(state)`` lists ``(probability, next_state, increments)`` (Fractions
    summing to 1; empty for an absorbing state); ``final(state)`` is the tuple of metric values scored on
    absorption; ``increments`` are tuples added along the way (rounds, shots, ...). Returns the expected total
    tuple from ``start``. A state that can only loop on itself is endless and raises ``ValueError``.
    """
    memo = {}

    def value(state):
        if state in memo:
            return memo[state]
        if len(memo) > max_states:
            raise ExactNotSupported(f"exact Markov chain larger than {max_states:,} states")
        moves = transitions(state)
        if not moves:
            result = tuple(Fraction(v) for v in final(state))
        else:
            stay = sum((p for p, nxt, _ in moves if nxt == state), Fraction(0))
            if stay == 1:
                raise ValueError(f"state {state!r} loops on itself forever: no side can ever hit")
            total = None
            for p, nxt, inc in moves:
                tail = value(nxt) if nxt != state else (0,) * len(inc)
                part = tuple(p * (Fraction(i) + t) for i, t in zip(inc, tail))
                total = part if total is None else tuple(a + b for a, b in zip(total, part))
            result = tuple(t / (1 - stay) for t in total)
        memo[state] = result
        return result

    return value(start)
