"""Search bots: a decision taken by playing the game on from a copy of it, for every game written as a state machine.

Two built-ins, offered at every decision point of such a game (``policies={"tactic": ("ismcts", {"budget": 256})}``):

* ``flat_mc``: determinized flat Monte Carlo. The budget's playouts are shared round robin among the legal
  actions; each plays the game to its end from a copy, the other decisions taken by the rollout policies; the
  action with the best mean reward for the deciding player is taken.
* ``ismcts``: information-set Monte Carlo tree search (single-observer, open loop). A tree over the deciding
  player's own decisions, grown by one node an iteration; at a node the action is chosen by UCB1 among the actions
  legal in this iteration's determinization (an action's exploration term counts the iterations it was available,
  Cowling, Powley & Whitehouse 2012), the other players' decisions and chance are played by the rollout policies
  and the dice, and the most visited root action is taken.

What the deciding player cannot see is redrawn at the start of each playout by the game's ``determinize`` (hands,
a deck's order, a sealed choice of the other player), so a search never uses hidden information; a simultaneous
choice is searched the same way, each side blind to the other's (decoupled: each side's search sees the other as
its rollout policy plays it). Each playout's dice come from a stream keyed from the game's stream at the decision
and the playout's number, apart from the game's own: no search sees a future die of the game, the game's dice do
not depend on the search, and results stay bit-identical for any threads, processes and chunks.

Parameters (sweeping them recompiles nothing): ``budget`` (playouts or iterations), ``exploration`` (UCB1's
constant; rewards are in [0, 1]), ``rollout`` (the built-in that plays the searcher's own decisions in playouts:
by name, default the point's default built-in; the other points keep the run's policies, a search among them
played by its own rollout).

A game makes itself searchable by passing ``Search(player, actions, reward, determinize, candidate)`` to
``core.loop.machine_game``; each function takes the game's arrays after its own leading parameters:
``player(point, *game)`` the index of the player deciding the posted ``point``, ``actions(point, *game)`` the
number of candidate actions (at most the machine's ``max_actions``; the legal ones are among them),
``candidate(point, i, *game)`` the action of candidate ``i`` (None: the candidates are the actions ``0 .. actions -
1``), ``reward(player, *game)`` the finished game's value for ``player`` in [0, 1], and
``determinize(point, stream, *game)``, what the player deciding ``point`` cannot see redrawn with ``stream``
consistently with what it has seen (or None for a game without hidden information).

Search runs in the kernels' variant for user functions (``policy.ResolvedPolicies.slots``), so a run of other
built-ins compiles none of it.
"""
from collections import namedtuple

import numpy as np

from numba import types
from numba.extending import overload

from .jit import njit
from . import rng
from .policy import FLAT_MC, ISMCTS, SEARCH_CODES, Builtin

SEARCH_PARAMS = ("budget", "exploration", "rollout")
DEFAULT_BUDGET, DEFAULT_EXPLORATION = 64, 0.7

Search = namedtuple("Search", "player actions reward determinize candidate", defaults=(None, None))


@njit(cache=True)
def same_action(point, index, *game):
    """The candidate action of a game whose candidates are its actions ``0 .. actions - 1``."""
    return index


def search_builtins(point):
    """The search built-ins of decision point ``point`` (a ``DecisionPoint``): its ``rollout`` defaults to the
    point's default built-in, given as its index among the point's built-ins."""
    rollout = list(point.builtins).index(point.default)
    tail = (f"; rollout: a built-in of the point by name or index (default {rollout}, {point.default!r}); "
            "core.search")
    doc = ("determinized flat Monte Carlo: `budget` playouts shared among the legal actions, the best mean reward "
           "taken" + tail,
           "information-set MCTS: `budget` iterations of UCB1 over the player's own decisions, determinized each "
           "iteration, the most visited action taken" + tail)
    return {name: Builtin(code, text, SEARCH_PARAMS, (float(DEFAULT_BUDGET), DEFAULT_EXPLORATION, float(rollout)))
            for name, code, text in zip(("flat_mc", "ismcts"), SEARCH_CODES, doc)}


@njit(cache=True)
def rollout_policies(codes, params):
    """The codes and parameter rows the playouts use: a search point's rollout built-in (its code in the point's
    row, entry 2, and its parameter row in the second half of ``params``, see ``policy.resolve``); every other
    point's own policy."""
    rollout = codes.copy()
    for i in range(codes.shape[0]):
        if codes[i] == FLAT_MC or codes[i] == ISMCTS:
            rollout[i] = np.int64(params[i, 2])
    return rollout, params[codes.shape[0]:]


@njit(cache=True)
def search_key(stream, salt):
    """The key of playout ``salt`` of a search at the point where ``stream`` stands: a function of the game's
    key and position, hashed apart from the game's own words."""
    return rng.mix64(rng.mix64(stream[0] ^ rng.mix64(stream[1] + np.uint64(0x5EA5C4))) + np.uint64(salt + 1)
                     * np.uint64(0x9E3779B97F4A7C15))


@njit(cache=True)
def new_tree(budget, width):
    """A search tree of at most ``budget + 1`` nodes of ``width`` actions: child node, visits, summed reward and
    availability (iterations in which the action was legal there) per node and action."""
    nodes = budget + 1
    return (np.full((nodes, width), -1, np.int64), np.zeros((nodes, width), np.int64), np.zeros((nodes, width)),
            np.zeros((nodes, width), np.int64))


@njit(cache=True)
def ucb(visits, total, available, exploration):
    """UCB1 with availability counts; an untried action first."""
    if visits == 0:
        return np.inf
    return total / visits + exploration * np.sqrt(np.log(max(available, 1)) / visits)


@njit(cache=True)
def root_choice(tree, flat, moves, count, preferred, stream):
    """The action a search takes: flat, the best mean reward; tree, the most visited, then the best mean; then the
    rollout policy's own choice (``preferred``, a candidate index), then a draw from ``stream``."""
    children, visits, totals, available = tree
    best, best_key, best_mean, best_pref, ties = moves[0], -1.0, -1.0, False, 0
    for i in range(count):
        a = moves[i]
        n = visits[0, a]
        mean = totals[0, a] / n if n > 0 else 0.0
        key = mean if flat else float(n)
        second = 0.0 if flat else mean
        pref = a == preferred
        if key > best_key or (key == best_key and (second > best_mean or (second == best_mean and pref
                                                                          and not best_pref))):
            best, best_key, best_mean, best_pref, ties = a, key, second, pref, 1
        elif key == best_key and second == best_mean and pref == best_pref:
            ties += 1
            if rng.dn(stream, ties) == 1:
                best = a
    return best


@njit(cache=True)
def index_of(action, candidates, count):
    """The candidate index of ``action`` among ``candidates[:count]`` (-2 when it is none of them)."""
    for i in range(count):
        if candidates[i] == action:
            return i
    return np.int64(-2)


def duplicate(value):
    """A copy of a game's array (a scalar as it is), for a playout to play on."""
    return value.copy() if isinstance(value, np.ndarray) else value


def restore(copy, value):
    """``copy`` made ``value`` again before the next playout (a scalar needs nothing)."""
    if isinstance(value, np.ndarray):
        copy[...] = value


@overload(duplicate)
def _duplicate(value):
    if isinstance(value, types.Array):
        return lambda value: value.copy()
    return lambda value: value


@overload(restore)
def _restore(copy, value):
    if isinstance(value, types.Array):
        def restore_array(copy, value):
            copy[...] = value
        return restore_array
    return lambda copy, value: None


SEARCH = """\
def {name}_playout(stream, codes, params, slots, offset, {inputs}):
    while True:
        point = advance(stream, {inputs})
        if point == END:
            return np.int64(0)
        action = decide(offset, point, codes, params, slots, stream, {inputs})
        if not legal(point, action, {inputs}):
            return error_code(offset + point, action)
        apply(point, action, {inputs})


def {name}_search(offset, point, codes, params, slots, stream, {inputs}):
    index = offset + point
    who = player(point, {inputs})
    width = min(actions(point, {inputs}), {max_actions})
    moves = np.empty(width, np.int64)
    count = 0
    for i in range(width):
        if legal(point, candidate(point, i, {inputs}), {inputs}):
            moves[count] = i
            count += 1
    if count <= 1:
        return candidate(point, moves[0], {inputs}) if count == 1 else np.int64(0)
    flat = codes[index] == FLAT_MC
    budget = max(np.int64(params[index, 0]), count if flat else 1)
    exploration = params[index, 1]
    rollout, rollout_params = rollout_policies(codes, params)
    tree = new_tree(budget, {max_actions})
    children, visits, totals, available = tree
    path = np.empty((budget + 2, 2), np.int64)
    playout_stream = rng.new_stream()
    {copies} = {copy_exprs}
    # the rollout policy's own choice at each node, tried first and preferred among equals: a search of a few
    # playouts plays like its rollout policy instead of trying actions at random
    prior = np.full(budget + 1, -1, np.int64)
    names = np.empty({max_actions}, np.int64)
    playout_stream[0] = search_key(stream, budget)
    playout_stream[1] = 0
    action = decide(offset, point, rollout, rollout_params, slots, playout_stream, {copies})
    for i in range(width):
        names[i] = candidate(point, i, {inputs})
    prior[0] = index_of(action, names, width)  # -1: not asked yet; -2: none of the candidates
    grown = 1
    for it in range(budget):
        {restore}
        playout_stream[0] = search_key(stream, it)
        playout_stream[1] = 0
        {determinize}
        node, depth, here, started, expanded = 0, 0, point, False, False
        while True:
            if started:
                here = advance(playout_stream, {copies})
                if here == END:
                    break
            started = True
            if node >= 0 and player(here, {copies}) == who:
                if flat:
                    choice = moves[it % count]
                else:
                    many = min(actions(here, {copies}), {max_actions})
                    if prior[node] == -1:
                        action = decide(offset, here, rollout, rollout_params, slots, playout_stream, {copies})
                        for i in range(many):
                            names[i] = candidate(here, i, {copies})
                        prior[node] = index_of(action, names, many)
                    choice, best, ties, untried_prior = np.int64(-1), -np.inf, 0, False
                    for i in range(many):
                        if legal(here, candidate(here, i, {copies}), {copies}):
                            available[node, i] += 1
                            untried_prior = untried_prior or (visits[node, i] == 0 and i == prior[node])
                            score = ucb(visits[node, i], totals[node, i], available[node, i], exploration)
                            if score > best:
                                choice, best, ties = i, score, 1
                            elif score == best:
                                ties += 1
                                if rng.dn(playout_stream, ties) == 1:
                                    choice = i
                    if untried_prior:
                        choice = prior[node]
                    if choice < 0:
                        break
                path[depth, 0], path[depth, 1] = node, choice
                depth += 1
                child = children[node, choice]
                if child < 0 and not flat and not expanded:
                    child, expanded = grown, True
                    children[node, choice] = child
                    grown += 1
                node = child
                action = candidate(here, choice, {copies})
            else:
                action = decide(offset, here, rollout, rollout_params, slots, playout_stream, {copies})
            if not legal(here, action, {copies}):
                break
            apply(here, action, {copies})
        value = reward(who, {copies})
        for d in range(depth):
            visits[path[d, 0], path[d, 1]] += 1
            totals[path[d, 0], path[d, 1]] += value
    return candidate(point, root_choice(tree, flat, moves, count, prior[0], playout_stream), {inputs})


def {name}_choose(offset, point, codes, params, slots, stream, {inputs}):
    if slots is not None:
        code = codes[offset + point]
        if code == FLAT_MC or code == ISMCTS:
            return {name}_search(offset, point, codes, params, slots, stream, {inputs})
    return decide(offset, point, codes, params, slots, stream, {inputs})
"""
