"""Decoupled search at simultaneous choices (``core.search``): regret matching where the choosers are blind to
each other.

Checked on a game whose equilibrium is known exactly: biased matching pennies, played as the machines play a
simultaneous choice (the first chooser, then the second, blind to the first). The first player scores 1 when both
show heads, 1/3 when both show tails, 0 otherwise; the second scores the rest. The unique equilibrium has each
show heads with probability 1/4 (the other is then indifferent: for the second, 1 - p = 1 - (1 - p) / 3 gives
p = 1/4; for the first, q = (1 - q) / 3 gives q = 1/4), and the first player's value is 1/4.
A search that best-replied to a model of the other would show one face always; one that saw the first player's
sealed coin would never match it.
"""
from dataclasses import replace

import numpy as np
import pytest

from romesim.core import rng
from romesim.core.jit import njit
from romesim.core.loop import END, machine_game
from romesim.core.policy import Builtin, DecisionPoint, resolve
from romesim.core.search import Search, search_builtins

from helpers import SIGMA

STAGE, COIN = 0, 1  # s[STAGE]: whose coin is next (2: both shown); s[COIN + player]: 0 heads, 1 tails
HEADS = 0


@njit(cache=True)
def pennies_init(stream, s):
    s[:] = 0


@njit(cache=True)
def pennies_advance(stream, s):
    return s[STAGE] if s[STAGE] < 2 else END


@njit(cache=True)
def pennies_legal(point, action, s):
    return action == 0 or action == 1


@njit(cache=True)
def pennies_apply(point, action, s):
    s[COIN + point] = action
    s[STAGE] += 1


@njit(cache=True)
def pennies_decide(offset, point, codes, params, slots, stream, s):
    """Built-ins: 0 a fair coin, 1 always heads."""
    return np.int64(HEADS) if codes[offset + point] == 1 else rng.dn(stream, 2) - 1


@njit(cache=True)
def pennies_player(point, s):
    return point


@njit(cache=True)
def pennies_actions(point, s):
    return np.int64(2)


@njit(cache=True)
def pennies_reward(player, s):
    first = 0.0
    if s[COIN] == s[COIN + 1]:
        first = 1.0 if s[COIN] == HEADS else 1.0 / 3.0
    return first if player == 0 else 1.0 - first


@njit(cache=True)
def pennies_sealed(point, s):
    """Both coins are one simultaneous choice: the first player's, then the second's, blind to it."""
    return point


@njit(cache=True)
def pennies_unseal(point, s):
    s[STAGE] = 0
    return np.int64(0)


pennies = machine_game("pennies", pennies_init, pennies_advance, pennies_legal, pennies_apply, pennies_decide,
                       Search(pennies_player, pennies_actions, pennies_reward, None, None, pennies_sealed,
                              pennies_unseal), max_actions=2)

_COINS = {"fair": Builtin(0, "a fair coin"), "heads": Builtin(1, "always heads")}
POINTS = [DecisionPoint(f"coin{i}", "", "", (), "0 heads, 1 tails", builtins=_COINS, default="fair")
          for i in range(2)]
POINTS = [replace(dp, builtins={**dp.builtins, **search_builtins(dp)}) for dp in POINTS]
GAMES = 400


def heads_rate(policies, seat, seed):
    """How often ``seat`` shows heads over ``GAMES`` games (its coin as the game kept it)."""
    chosen = resolve(POINTS, policies)
    stream, s = rng.new_stream(), np.zeros(3, np.int64)
    heads = 0
    for game in range(GAMES):
        rng.start(stream, seed, game)
        assert pennies(stream, chosen.codes, chosen.params, chosen.slots, 0, s) == 0
        heads += s[COIN + seat] == HEADS
    return heads / GAMES


# the search's mean strategy approaches the equilibrium as its iterations grow; at 2000 it is within a few points
# (the exploration share keeps drawing each coin); the allowance adds it to 5 sigma of the games' draws
CONVERGENCE = 0.06
SIGMA_RATE = np.sqrt(0.25 * 0.75 / GAMES)


@pytest.mark.parametrize("other", ["fair", "heads"])
def test_the_first_chooser_plays_the_equilibrium_mix_whatever_the_other_plays(other):
    rate = heads_rate({"coin0": ("ismcts", {"budget": 2000, "prior": 0}), "coin1": other}, 0, 1)
    assert abs(rate - 0.25) <= CONVERGENCE + SIGMA * SIGMA_RATE, rate


@pytest.mark.parametrize("other", ["fair", "heads"])
def test_the_second_chooser_plays_the_equilibrium_mix_blind_to_the_first(other):
    """The second player's search unmakes the first coin (it cannot see it) and has it chosen again in each
    playout: against a first player who always shows heads, it still shows heads a quarter of the time (seeing
    the coin, it would never)."""
    rate = heads_rate({"coin0": other, "coin1": ("ismcts", {"budget": 2000, "prior": 0})}, 1, 2)
    assert abs(rate - 0.25) <= CONVERGENCE + SIGMA * SIGMA_RATE, rate


def test_flat_monte_carlo_replies_to_the_rollout_policy():
    """Without decoupled selection a search best-replies to its model of the other player, the other's own policy
    in its playouts: flat Monte Carlo shows heads always against a fair coin (heads is worth 1/2 to the first
    player, tails 1/6); as the second chooser, it shows tails always (against a fair coin tails is worth 5/6 to
    it, heads 1/2)."""
    assert heads_rate({"coin0": ("flat_mc", {"budget": 400}), "coin1": "fair"}, 0, 3) == 1.0
    assert heads_rate({"coin0": "fair", "coin1": ("flat_mc", {"budget": 400})}, 1, 4) == 0.0


def test_a_prior_keeps_a_wide_search_from_playing_worse_than_its_rollout_policy():
    """JUG-A4: A's AP split has 78 candidates or more (11 AP for a murmillo). 64 iterations of UCB1 and regret
    matching (``prior`` 0) try many splits a playout or two each and take a lucky one: A wins far less than with
    its default split. With the rollout policy's choice as PUCT's prior (the default) the search leaves the
    default split only for one whose playouts keep beating it, and A wins at least as often as by default."""
    import romesim
    sc = romesim.scenario("jugule.duel", a="murmillo", b="secutor")
    n = 1000
    default = romesim.simulate(sc, n, 2027)["p_win"]
    sigma = SIGMA * np.sqrt(default * (1 - default) / n)
    plain = romesim.simulate(sc, n, 2027, policies={"a_allocate": ("ismcts", {"budget": 64, "prior": 0})})
    anchored = romesim.simulate(sc, n, 2027, policies={"a_allocate": ("ismcts", {"budget": 64})})
    assert plain["p_win"] < default - sigma, (plain["p_win"], default)
    assert anchored["p_win"] > default - sigma, (anchored["p_win"], default)


VARIANTS_RUN = r"""
import sys
import numba
import numpy as np
sys.path.insert(0, sys.argv[1])
from test_search_simultaneous import POINTS, pennies, resolve, rng
from romesim.core.loop import GENERATED


@numba.njit
def tails(state, params, stream):  # the toy's decide plays its built-ins only: never called
    return 1


def play(policies):
    chosen = resolve(POINTS, policies)
    stream, s = rng.new_stream(), np.zeros(3, np.int64)
    rng.start(stream, 1, 0)
    assert pennies(stream, chosen.codes, chosen.params, chosen.slots, 0, s) == 0
    return chosen.variant, len(GENERATED["pennies_search"].callee.overloads)


print(play({"coin0": tails}), play({"coin0": ("flat_mc", {"budget": 4}), "coin1": tails}))
"""


def test_a_run_of_user_functions_compiles_no_search(tmp_path):
    """A kernel's variants (``core.policy.VARIANTS``): with a user function and no search built-in the loop gets
    ``Slots(functions, None)`` and numba leaves the search out of it (most of a whole game's compile); a search
    built-in gives ``search = True`` and its variant compiles it. On an empty cache, in a new process, so that
    each compile is this one's."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", VARIANTS_RUN, os.path.dirname(__file__)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "('user bots', 0) ('search', 1)"
