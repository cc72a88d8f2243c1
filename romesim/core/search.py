"""Search bots: a decision taken by playing the game on from a copy of it, for every game written as a state machine.

Two built-ins, offered at every decision point of such a game (``policies={"tactic": ("ismcts", {"budget": 256})}``):

* ``flat_mc``: determinized flat Monte Carlo. The budget's playouts are shared round robin among the legal
  actions; each plays the game to its end from a copy, the other decisions taken by the rollout policies; the
  action with the best mean reward for the deciding player is taken.
* ``ismcts``: information-set Monte Carlo tree search (single-observer, open loop). A tree over the deciding
  player's own decisions, grown by one node an iteration; at a node the action is chosen among the actions legal
  in this iteration's determinization (an action's exploration term counts the iterations it was available,
  Cowling, Powley & Whitehouse 2012) by PUCT with the rollout policy's choice as its prior (``prior`` > 0, the
  default), or by UCB1 (``prior`` 0); the other players' decisions and chance are played by the rollout policies
  and the dice, and the most visited root action is taken. Measured on the Jugule duel (murmillo v secutor, A's
  every point searched, 500 duels): UCB1 at 64 iterations won 0.224 where A's default bots win 0.551; PUCT won
  0.576 at 64 and 0.654 at 256. UCB1 tries each of a wide decision's actions (78 AP splits) a playout or two
  and takes a lucky one; PUCT leaves the prior's choice only for an action whose playouts keep beating it.

What the deciding player cannot see is redrawn at the start of each playout by the game's ``determinize`` (hands,
a deck's order, a hidden choice of the other player), so a search never uses hidden information. Each playout's
dice come from a stream keyed from the game's stream at the decision and the playout's number, apart from the
game's own: no search sees a future die of the game, the game's dice do not depend on the search, and results stay
bit-identical for any threads, processes and chunks.

A simultaneous choice (Jugule's AP split, JUG-A4; Vox Populi's ballots, spec 7.4) is played by the machine one
chooser after another, each blind to the choices before it. A search there selects decoupled (Lanctot et al.
2013; Lisý et al. 2013): each playout first unmakes the choices made before the searcher's (they are hidden from
it), then every chooser of the choice, the searcher and the others alike, selects on its own statistics at the
searcher's node where the choice began, blind to the others' selections in this playout, each updated with its
own reward: by PUCT with its rollout policy's choice as prior (``prior`` > 0; the searcher's choice is then its
tree's), or by regret matching (``prior`` 0), whose mean strategy converges to an equilibrium and from which
``ismcts`` then draws its action (a pure best reply to a model of the others could be read and exploited) but
which needs many iterations per action. ``flat_mc`` unmakes the hidden choices too and has them made by the
rollout policies.

Parameters (sweeping them recompiles nothing): ``budget`` (playouts or iterations), ``exploration`` (UCB1's
or PUCT's constant; rewards are in [0, 1]), ``rollout`` (the built-in that plays the searcher's own decisions in
playouts: by name, default the point's default built-in; the other points keep the run's policies, a search among
them played by its own rollout), ``prior`` (``ismcts``: the weight of the rollout policy's choice as PUCT's prior
at every node, ``tree_choice``, and at a simultaneous choice decoupled PUCT in place of regret matching; 0: UCB1
and regret matching, which converges to an equilibrium but needs many iterations per action).

A game makes itself searchable by passing ``Search(player, actions, reward, determinize, candidate, sealed,
unseal)`` to ``core.loop.machine_game``; each function takes the game's arrays after its own leading parameters:
``player(point, *game)`` the index of the player deciding the posted ``point``, ``actions(point, *game)`` the
number of candidate actions (at most the machine's ``max_actions``; the legal ones are among them),
``candidate(point, i, *game)`` the action of candidate ``i`` (None: the candidates are the actions ``0 .. actions -
1``), ``reward(player, *game)`` the finished game's value for ``player`` in [0, 1], and
``determinize(point, stream, *game)``, what the player deciding ``point`` cannot see redrawn with ``stream``
consistently with what it has seen (or None for a game without hidden information). A game with simultaneous
choices gives ``sealed(point, *game)``, the posted decision's place among its choice's choosers (0 the first; -1
a decision made in the open), and ``unseal(point, *game)``, the game taken back to the first chooser's decision
(the choices made since unmade, its state vector posted again), returning its point.

Search runs in the kernels' variant for searches (``policy.Slots``: ``search`` is True), so a run of other
built-ins or of user functions compiles none of it.
"""
from collections import namedtuple

import numpy as np

from numba import types
from numba.extending import overload

from .jit import njit
from . import rng
from .loop import copy_into
from .policy import FLAT_MC, ISMCTS, SEARCH_CODES, SEARCH_NAMES, Builtin

SEARCH_PARAMS = ("budget", "exploration", "rollout", "prior")
DEFAULT_BUDGET, DEFAULT_EXPLORATION, DEFAULT_PRIOR = 64, 0.7, 0.5

Search = namedtuple("Search", "player actions reward determinize candidate sealed unseal",
                    defaults=(None, None, None, None))


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
           "information-set MCTS: `budget` iterations over the player's own decisions, determinized each "
           "iteration, the most visited action taken; `prior` > 0: PUCT with the rollout policy's choice as its "
           "prior, 0: UCB1" + tail)
    return {name: Builtin(code, text, SEARCH_PARAMS,
                          (float(DEFAULT_BUDGET), DEFAULT_EXPLORATION, float(rollout), DEFAULT_PRIOR))
            for name, code, text in zip(SEARCH_NAMES, SEARCH_CODES, doc)}


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
def tree_choice(visits, totals, available, usable, many, prior, exploration, weight, stream):
    """The action ISMCTS tries at a node, among the ``usable`` of its first ``many`` actions (-1: none).

    ``weight`` 0: UCB1 with availability counts, the rollout policy's choice ``prior`` first while untried, the
    other untried ones next, ties drawn from ``stream``. ``weight`` > 0: PUCT (Rosin 2011; Silver et al. 2017),
    the rollout policy's choice a prior of ``weight`` plus an equal share of the rest: ``mean + exploration *
    P(a) * sqrt(available) / (1 + visits)``, an untried action valued at the node's mean so far. At a wide decision
    (Jugule's 78 or more AP splits) UCB1 tries every action once and takes the luckiest; PUCT leaves the prior's
    choice only for an action whose playouts keep beating it."""
    puct = weight > 0
    k, n, total = 0, 0, 0.0
    if puct:
        for i in range(many):
            if usable[i]:
                k += 1
                n += visits[i]
                total += totals[i]
    first = total / n if n > 0 else 0.5
    has_prior = 0 <= prior < many and usable[prior]
    choice, best, ties, untried_prior = np.int64(-1), -np.inf, 0, False
    for i in range(many):
        if not usable[i]:
            continue
        if puct:
            share = (1.0 - weight) / k + (weight if i == prior else 0.0) if has_prior else 1.0 / k
            mean = totals[i] / visits[i] if visits[i] > 0 else first
            score = mean + exploration * share * np.sqrt(max(available[i], 1)) / (1 + visits[i])
        else:
            untried_prior = untried_prior or (visits[i] == 0 and i == prior)
            score = ucb(visits[i], totals[i], available[i], exploration)
        if score > best:
            choice, best, ties = i, score, 1
        elif score == best:
            ties += 1
            if rng.dn(stream, ties) == 1:
                choice = i
    return prior if untried_prior else choice


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


# simultaneous choices: at most this many players select by regret matching at one node (a Vox table has six),
# and this many such selections are remembered per playout (beyond, the rollout policies choose)
MAX_PLAYERS, MAX_MARKS = 8, 64
# regret matching's exploration: the share of each selection drawn uniformly among the legal actions (Lisý,
# Kovařík, Lanctot & Bošanský 2013 converge to a Nash equilibrium with it)
REGRET_EXPLORATION = 0.1


@njit(cache=True)
def open_choice(point, *game):
    """A game without simultaneous choices: every decision is made in the open."""
    return np.int64(-1)


@njit(cache=True)
def same_point(point, *game):
    return point


@njit(cache=True)
def new_rows(budget, width, simultaneous):
    """The tables of the simultaneous choices of a search of ``budget`` iterations: ``budget + 1`` rows for the
    searcher's nodes, as many for the other choosers' selections at them. Per row: ``gains`` (regret matching's
    cumulative regrets; with a prior, PUCT's summed rewards), ``counts`` (regret matching's cumulative strategy;
    with a prior, PUCT's visits), the rollout policy's choice; each (node, player)'s row; per selection remembered
    in a playout its row, action, player and width, its legal actions and the probability it was drawn with."""
    rows, marks = (2 * (budget + 1), MAX_MARKS) if simultaneous else (1, 1)
    return (np.zeros((rows, width)), np.zeros((rows, width)), np.full(rows, -1, np.int64),
            np.full((budget + 1 if simultaneous else 1, MAX_PLAYERS), -1, np.int64),
            np.empty((marks, 4), np.int64), np.zeros((marks, width), np.bool_), np.empty(marks))


@njit(cache=True, inline="always")
def unit(stream):
    """A uniform float in [0, 1) from ``stream`` (32 bits)."""
    return np.float64(rng.next_u32(stream)) * (1.0 / 4294967296.0)


@njit(cache=True)
def regret_choice(regret, strategy, legal, many, prior, stream):
    """Regret matching's selection among the ``legal`` of the first ``many`` actions: in proportion to the
    positive regrets (none positive: the rollout policy's choice ``prior``, or uniform when it is not legal),
    mixed with ``REGRET_EXPLORATION`` uniform; the strategy is added to ``strategy`` (whose mean is the
    equilibrium's estimate). Returns the action's index and the probability it was drawn with (-1, 0: none legal)."""
    k, positive = 0, 0.0
    for i in range(many):
        if legal[i]:
            k += 1
            positive += max(regret[i], 0.0)
    if k == 0:
        return np.int64(-1), 0.0
    pure = 0 <= prior < many and legal[prior]
    u = unit(stream)
    chosen, chosen_p, left = np.int64(-1), 0.0, k
    for i in range(many):
        if not legal[i]:
            continue
        if positive > 0:
            sigma = max(regret[i], 0.0) / positive
        elif pure:
            sigma = 1.0 if i == prior else 0.0
        else:
            sigma = 1.0 / k
        strategy[i] += sigma
        p = (1 - REGRET_EXPLORATION) * sigma + REGRET_EXPLORATION / k
        u -= p
        left -= 1
        if chosen < 0 and (u < 0 or left == 0):  # the last legal action takes what rounding left
            chosen, chosen_p = i, p
    return chosen, chosen_p


@njit(cache=True)
def regret_update(regret, action, probability, legal, many, value):
    """Regret matching after a playout worth ``value`` to the chooser: the drawn action's value estimated by
    importance (``value / probability``), every other legal action's 0; each regret grows by its estimate less
    ``value``."""
    for i in range(many):
        if legal[i]:
            regret[i] -= value
    regret[action] += value / probability


@njit(cache=True)
def mixed_choice(strategy, moves, count, stream):
    """The action of a simultaneous choice: drawn from the mean strategy of regret matching over ``moves``
    (a pure choice there could be read and exploited)."""
    total = 0.0
    for i in range(count):
        total += strategy[moves[i]]
    if total <= 0:
        return moves[rng.dn(stream, count) - 1]
    u = unit(stream) * total
    for i in range(count):
        u -= strategy[moves[i]]
        if u < 0:
            return moves[i]
    return moves[count - 1]


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
        return lambda copy, value: copy_into(copy, value)
    return lambda copy, value: None


SEARCH = """\
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
    exploration, weight = params[index, 1], params[index, 3]
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
    usable = np.zeros({max_actions}, np.bool_)
    playout_stream[0] = search_key(stream, budget)
    playout_stream[1] = 0
    action = decide(offset, point, rollout, rollout_params, slots, playout_stream, {copies})
    for i in range(width):
        names[i] = candidate(point, i, {inputs})
    prior[0] = index_of(action, names, width)  # -1: not asked yet; -2: none of the candidates
    grown = 1
    # simultaneous choices: each chooser's own rows (see new_rows), the searcher's nodes' then the others'
    root_position = sealed(point, {inputs}) if {simultaneous} else np.int64(-1)
    gains, counts, rm_prior, partner, marks, rm_mask, rm_prob = new_rows(budget, {max_actions}, {simultaneous})
    seen = np.zeros({max_actions}, np.int64)
    partners = 0
    for it in range(budget):
        {restore}
        playout_stream[0] = search_key(stream, it)
        playout_stream[1] = 0
        {determinize}
        here = point
        if root_position > 0:
            # the choices made before the searcher's in this simultaneous choice are hidden from it: made again
            here = unseal(point, {copies})
        node, depth, started, expanded, step, marked = 0, 0, False, False, np.int64(-1), 0
        while True:
            if started:
                here = advance(playout_stream, {rollouts}{copies})
                if here == END:
                    break
            started = True
            mover = player(here, {copies})
            row = np.int64(-1)
            if {simultaneous} and not flat:
                position = sealed(here, {copies})
                if position == 0:
                    step = node  # the searcher's node at which every chooser of this choice selects, blind
                elif position < 0:
                    step = np.int64(-1)
                if position >= 0 and step >= 0 and marked < marks.shape[0]:
                    if mover == who:
                        row = node if weight <= 0 else np.int64(-1)  # with a prior: the tree's own PUCT
                    elif 0 <= mover < MAX_PLAYERS:
                        row = partner[step, mover]
                        if row < 0 and partners <= budget:
                            row = budget + 1 + partners
                            partner[step, mover] = row
                            partners += 1
            if row >= 0:
                many = min(actions(here, {copies}), {max_actions})
                for i in range(many):
                    names[i] = candidate(here, i, {copies})
                    rm_mask[marked, i] = legal(here, names[i], {copies})
                if rm_prior[row] == -1:
                    action = decide(offset, here, rollout, rollout_params, slots, playout_stream, {copies})
                    rm_prior[row] = index_of(action, names, many)
                if weight > 0:  # decoupled PUCT on the chooser's own counts
                    seen[:many] = np.int64(counts[row, :many].sum())
                    choice = tree_choice(counts[row], gains[row], seen, rm_mask[marked], many, rm_prior[row],
                                         exploration, weight, playout_stream)
                    probability = 1.0
                else:
                    choice, probability = regret_choice(gains[row], counts[row], rm_mask[marked], many, rm_prior[row],
                                                        playout_stream)
                if choice < 0:
                    break
                marks[marked, 0], marks[marked, 1], marks[marked, 2], marks[marked, 3] = row, choice, mover, many
                rm_prob[marked] = probability
                marked += 1
                if mover == who:
                    path[depth, 0], path[depth, 1] = node, choice
                    depth += 1
                    child = children[node, choice]
                    if child < 0 and not expanded:
                        child, expanded = grown, True
                        children[node, choice] = child
                        grown += 1
                    node = child
                action = names[choice]
            elif node >= 0 and mover == who:
                if flat:
                    choice = moves[it % count]
                else:
                    many = min(actions(here, {copies}), {max_actions})
                    if prior[node] == -1:
                        action = decide(offset, here, rollout, rollout_params, slots, playout_stream, {copies})
                        for i in range(many):
                            names[i] = candidate(here, i, {copies})
                        prior[node] = index_of(action, names, many)
                    for i in range(many):
                        usable[i] = legal(here, candidate(here, i, {copies}), {copies})
                        if usable[i]:
                            available[node, i] += 1
                    choice = tree_choice(visits[node], totals[node], available[node], usable, many, prior[node],
                                         exploration, weight, playout_stream)
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
        for k in range(marked):
            gain = value if marks[k, 2] == who else reward(marks[k, 2], {copies})
            if weight > 0:
                counts[marks[k, 0], marks[k, 1]] += 1
                gains[marks[k, 0], marks[k, 1]] += gain
            else:
                regret_update(gains[marks[k, 0]], marks[k, 1], rm_prob[k], rm_mask[k], marks[k, 3], gain)
    if root_position >= 0 and not flat and weight <= 0:
        return candidate(point, mixed_choice(counts[0], moves, count, playout_stream), {inputs})
    return candidate(point, root_choice(tree, flat, moves, count, prior[0], playout_stream), {inputs})


def {name}_choose(offset, point, codes, params, slots, stream, {inputs}):
    return {name}_searching(search_of(slots), offset, point, codes, params, slots, stream, {inputs})


def {name}_searching(search, offset, point, codes, params, slots, stream, {inputs}):
    # an argument, so that numba leaves the search out where it is None (``policy.Slots``)
    if search is not None:
        code = codes[offset + point]
        if code == FLAT_MC or code == ISMCTS:
            return {name}_search(offset, point, codes, params, slots, stream, {inputs})
    return decide(offset, point, codes, params, slots, stream, {inputs})
"""
