"""Statistical checks shared by the rule tests: Monte Carlo against exact answers at about 5 sigma."""
import math

import numpy as np
from numba import njit

import romesim
from romesim.semper_victor.policies import PLAY_INITIATIVE

SIGMA = 5.0


def assert_matches_exact(result, exact, sigma=SIGMA):
    """Every metric of a Monte Carlo ``result`` lies within ``sigma`` standard errors of the ``exact`` value.

    The standard error of a probability uses the exact p; of a mean, the sample standard deviation. A metric
    the exact answer says is constant must come out exactly equal.
    """
    n = result.n
    for i, metric in enumerate(result.metrics):
        want = float(exact.exact_values[metric])
        got = result.estimate(metric)
        if metric.startswith("p_"):
            se = math.sqrt(want * (1 - want) / n)
        else:
            s, sq = int(result.sums[i]), int(result.sumsq[i])
            se = math.sqrt(max(sq / n - (s / n) ** 2, 0.0) / n)
        if se == 0:
            assert got == want, f"{metric}: Monte Carlo {got} but the exact value {want} is certain"
        else:
            assert abs(got - want) <= sigma * se, (
                f"{metric}: Monte Carlo {got:.6f} vs exact {want:.6f}: {abs(got - want) / se:.1f} sigma")


def assert_reference_equal(scenario, n=2000, seed=7, policies=None):
    """The kernel's per-game outcomes equal the plain-Python reference's, game by game, on the same streams."""
    kernel = romesim.simulate(scenario, n, seed, keep=True, policies=policies).outcomes
    reference = romesim.reference(scenario, n, seed, policies=policies)
    np.testing.assert_array_equal(kernel.to_numpy(), reference.to_numpy())


def inf(virtus, roman_class=None, back="other"):
    """A Kings of Rome battle record of an infantry unit (``roman_class`` for a Roman unit only)."""
    unit = {"kind": "infantry", "virtus": virtus, "back": back}
    if roman_class is not None:
        unit["roman_class"] = roman_class
    return unit


def cav(virtus, back="other"):
    """A Kings of Rome battle record of a cavalry unit."""
    return {"kind": "cavalry", "virtus": virtus, "back": back}


# Semper Victor D1 (initiative and sequences): a user policy reading the state by its names
PLAYER, HELD, OPPONENT_HELD, DIE, PC, MCS_TOTAL, PLAYS = (
    PLAY_INITIATIVE.state.index(k) for k in ("player", "held", "opponent_held", "die", "pc", "mcs_total", "plays"))


@njit
def odd_mcs_by_name(state, params, stream):
    """The built-in `odd_mcs` (keep params[0]); 99 where the state contradicts the scenario (pc params[1],
    counters params[2] for PRIMUS and params[3] for SECONDUS)."""
    start = params[2] if state[PLAYER] == 0 else params[3]
    other = params[3] if state[PLAYER] == 0 else params[2]
    if (state[PC] != params[1] or state[DIE] < 1 or state[DIE] > 6 or state[HELD] > start
            or state[OPPONENT_HELD] > other or state[PLAYS] < 0):
        return 99
    if state[HELD] <= params[0] or (state[MCS_TOTAL] >= 0 and state[MCS_TOTAL] % 2 == 0):
        return 0
    return 1
