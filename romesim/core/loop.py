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
from collections import namedtuple

import numpy as np
from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic

from .jit import njit
from . import rng
from .policy import error_code, inner, search_of

BLOCK = 1024  # games per block: one stream and one set of buffers serve a whole block


def n_blocks(count):
    """The blocks a run of ``count`` games is cut in: ``BLOCK`` games each (at least one block). A game's dice
    depend on its number only, so the cut changes no result."""
    return max((count + BLOCK - 1) // BLOCK, 1)


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


@intrinsic
def borrowed(typingctx, value):
    """``value``, an array, as a view that owns no reference (a null meminfo): passing it to a function or keeping
    it in a variable then costs no atomic reference count. The generated loops give the games their arrays this
    way: a battle passes its arrays to a function call some hundred times, and the counting took most of its time.
    Only for arrays that outlive every use of the view: the scenario's, and the block's buffers, kept by the
    kernel until the block ends. Anything else is returned as it is."""
    def codegen(context, builder, signature, args):
        if not isinstance(value, types.Array):
            context.nrt.incref(builder, value, args[0])
            return args[0]
        source = context.make_array(value)(context, builder, value=args[0])
        view = context.make_array(value)(context, builder)
        for name in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(view, name, getattr(source, name))
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()
    return value(value), codegen


if config.DISABLE_JIT:  # the interpreted kernels share arrays as Python does
    def borrowed(value):
        return value


@njit(cache=True)
def copy_into(dst, src):
    """``dst[...] = src`` for two arrays of one size, element by element in C order. numba's slice assignment of an
    array compiles, in each process and for each caller, the error it raises on a shape mismatch: two seconds of
    a cold compile for the first, a few tenths for each other."""
    for i in range(dst.size):
        dst.flat[i] = src.flat[i]


@njit(cache=True)
def block_owners(n_metrics):
    """A block's dice stream and outcome row. A function of its own, loaded from the cache: numba keeps the code of
    its own functions (``np.zeros``) in memory only, so each process that compiles a kernel, a first user bot's
    variant too, compiled them again where the kernel called them."""
    return rng.new_stream(), np.zeros(n_metrics, np.int64)


@njit(cache=True)
def alive_until_here(owners):
    """A use of ``owners`` after the block's games: they own what the block's ``borrowed`` views point to, and
    numba releases a variable after its last use."""
    return None


@njit(cache=True)
def no_scratch(args):
    """The ``scratch`` of a game that reuses no buffer (a procedure without decision points)."""
    return ()


KERNEL = """\
def {name}(seed, first, count, args, codes, params, slots, out, sums, sumsq, errors):
    blocks = sums.shape[0]
    size = (count + blocks - 1) // blocks
    for b in range(blocks):
        owners = block_owners({n_metrics}) + args + scratch(args)
        stream, row = borrowed(owners[0]), borrowed(owners[1])
        block_codes, block_params = borrowed(codes), borrowed(params)
        {borrowed}
        end = (b + 1) * size
        if end > count:
            end = count
        for j in range(b * size, end):
            rng.start(stream, seed, first + j)
            error = {play}
            if error != 0:
                errors[b, 0] = error
                errors[b, 1] = first + j
                break
            record(row, b, j, out, sums, sumsq)
        alive_until_here(owners)
"""
# how KERNEL plays a game: ``play``; or a state machine from its start (offset 0)
PLAY = "play(stream, row, block_codes, block_params, slots, {inputs})"
PLAY_MACHINE = "play(stream, block_codes, block_params, slots, np.int64(0), {inputs}, row)"


REPLAY = """\
def {name}(seed, game, args, codes, params, slots, stream, row):
    {inputs}, = args + scratch(args)
    rng.start(stream, seed, game)
    return {play}
"""
REPLAY_PLAY = "play(stream, row, codes, params, slots, {inputs})"
REPLAY_MACHINE = "play(stream, codes, params, slots, np.int64(0), {inputs}, row)"


def _generate(template, name, count, functions, module, line, helpers=None, **jit):
    """``template`` with ``count`` inputs, compiled as if written in ``module`` at ``line`` (see ``block_kernel``),
    its names resolved in ``functions`` and the loop's own helpers. ``helpers``: the other functions the template
    defines, by name, each with its numba options (the returned function's own are ``jit``); they are kept in
    ``GENERATED`` under their names, for ``decider``."""
    inputs = [f"input_{i}" for i in range(count)]  # not the game's names, which may be the kernel's (``out``)
    copies = [f"copy_{i}" for i in range(count)]
    words = dict(name=name, inputs=", ".join(inputs), copies=", ".join(copies), play=PLAY,
                 borrowed="; ".join(f"{x} = borrowed(owners[{i + 2}])" for i, x in enumerate(inputs)),
                 copy_exprs=", ".join(f"duplicate({x})" for x in inputs),
                 restore="; ".join(f"restore({c}, {x})" for c, x in zip(copies, inputs)))
    words.update(functions.pop("format", {}))
    words["play"] = words["play"].format(inputs=words["inputs"])
    source = "\n" * (line - 1) + template.format(**words)
    namespace = dict(__name__=__name__, np=np, rng=rng,
                     record=record, error_code=error_code, borrowed=borrowed, alive_until_here=alive_until_here,
                     block_owners=block_owners,
                     **functions)
    exec(compile(source, module.__file__, "exec"), namespace)
    for helper, options in (helpers or {}).items():
        namespace[helper] = GENERATED[helper] = njit(cache=True, **options)(namespace[helper])
    return njit(cache=True, **jit)(namespace[name])


GENERATED = {}


def _arity(function, fixed, what):
    """How many inputs ``function`` takes after its ``fixed`` leading parameters."""
    function = getattr(function, "py_func", function)  # a plain function under NUMBA_DISABLE_JIT
    count = len(inspect.signature(function).parameters) - fixed
    if count < 1:
        raise TypeError(f"{function.__name__}: {what}")
    return function, count


def block_kernel(name, scratch, play, n_metrics):
    """The kernel ``name(seed, first, count, args, codes, params, slots, out, sums, sumsq, errors)`` that plays
    games ``first .. first+count-1`` of run ``seed`` with ``play``, one dice stream per game, in as many blocks as
    ``sums`` has rows (``n_blocks``), on the calling thread and without holding Python's lock (``nogil``): the
    engine plays a run's ranges of games on several threads at once (``engine.in_order``).

    Its source is ``KERNEL`` with as many inputs as ``play`` takes, compiled as if written in ``play``'s module at
    the line that calls ``block_kernel``: numba caches it beside the game's other functions and stamps it with the
    game's sources (``core.cache``). ``replay_kernel`` makes the same game's one-game kernel from it.

    The kernel is compiled with numpy's error model, as numba compiles a parallel region's body: an integer
    division by zero gives 0 instead of raising ZeroDivisionError (no game divides by zero), and LLVM optimises the
    loop and the game inlined in it better. With Python's, the succession played 11.9 M games/s instead of 13.8 M
    and the initiative 74 M instead of 75 M (one thread); the other kernels the same.

    ``play`` is either ``play(stream, row, codes, params, slots, *inputs)`` or a state machine made by
    ``machine_game``, played from its start (``offset`` 0, the outcome row its last array). A whole game is made
    ``apart`` (``core.jit``): numba links a callee's whole code into each caller and optimises and compiles it again
    there; called at its address, it is compiled once.
    """
    machine = play in _MACHINES
    function, count = _arity(play, 6 if machine else 5, "a game takes at least the scenario's arrays after 'slots'")
    caller = sys._getframe(1)  # a machine's own module is this one's: it is made from this module's source
    module, line = sys.modules[caller.f_globals["__name__"] if machine else function.__module__], caller.f_lineno
    layout = dict(n_metrics=int(n_metrics), play=PLAY_MACHINE if machine else PLAY)
    kernel = _generate(KERNEL, name, count, dict(scratch=scratch, play=play, format=layout), module, line,
                       nogil=True, error_model="numpy")
    _GAMES[kernel] = (name, count, scratch, play, module, line)
    return kernel


_GAMES = {}  # kernel -> how block_kernel made it
_REPLAYS = {}
_MACHINES = set()  # the state machines machine_game made


def replay_kernel(kernel):
    """``replay(seed, game, args, codes, params, slots, stream, row)``: game ``game`` of run ``seed`` of ``kernel``'s
    game, on the caller's ``stream`` (whose words after the first two a scripted policy may use); returns the
    game's error code. Compiled on first use, and cached on disk like the kernel."""
    if kernel not in _REPLAYS:
        name, count, scratch, play, module, line = _GAMES[kernel]
        layout = dict(play=REPLAY_MACHINE if play in _MACHINES else REPLAY_PLAY)
        _REPLAYS[kernel] = _generate(REPLAY, f"{name}_replay", count, dict(scratch=scratch, play=play, format=layout),
                                     module, line)
    return _REPLAYS[kernel]


END = -1  # what a state machine's ``advance`` answers once the game is over

# numba's options for the functions of a small game that allocate nothing: compiled without reference counting
# (``_nrt=False``, numba's own flag) and inlined into the loop. A Semper Victor P8 battle is a few hundred
# nanoseconds of work, and its machine passes 13 arrays to every call; counted, it played 0.2x its old speed even on
# ``borrowed`` views, without counting faster than before (measured with ``time.process_time``, one thread). Inlined
# once compiled (``inline="llvm"``), not by numba: each function is typed once, not again in every variant of the
# loop and every search that calls it (the P8 battle's first user bot compiled in 3.6 s, against 7.1-7.4 s, at the
# same speed; the usurpation's in 2.2 s against 5.0 s, 10 % faster)
NO_NRT = dict(inline="llvm", _nrt=False)

# A game as a state machine, for Python (``romesim.new_game``): the functions ``machine_game`` plays it with;
# ``scratch(args)``, the arrays of a game in progress that follow the scenario's ``kernel_args()`` in the game's
# arrays (its outcome row comes last); ``view``, the index in those arrays of the decision's state vector, or
# ``view(point, arrays)`` giving it for a game whose points write different vectors; ``nested``: its ``advance``
# takes the policies (``machine_game``)
Machine = namedtuple("Machine", "init advance legal apply decide scratch view nested", defaults=(False,))

MACHINE = """\
def {name}(stream, codes, params, slots, offset, {inputs}):
    init(stream, {inputs})
    while True:
        point = advance(stream, {policies}{inputs})
        if point == END:
            return np.int64(0)
        action = {decide}({search}offset, point, codes, params, slots, stream, {inputs})
        if not legal(point, action, {inputs}):
            return error_code(offset + point, action)
        apply(point, action, {inputs})
"""


def machine_game(name, init, advance, legal, apply, decide, search=None, max_actions=0, nested=False, **jit):
    """The one loop that plays a game written as a state machine, to its end:
    ``name(stream, codes, params, slots, offset, *game) -> 0 or a policy error code``.

    ``game`` is the tuple of arrays that holds the scenario and everything about a game in progress (where it
    stands too); each function takes them after its own leading parameters:

    * ``init(stream, *game)``: set up a new game;
    * ``advance(stream, *game) -> point``: play chance events and automatic rules up to the next decision, post it
      (its state vector written where ``decide`` reads it) and return its point, or ``END``;
    * ``decide(offset, point, codes, params, slots, stream, *game) -> action``: the policy of decision point
      ``offset + point`` (a built-in by its code, or the user's function in its slot; ``core.policy``);
    * ``legal(point, action, *game) -> bool``: whether the rules allow ``action`` at the posted decision;
    * ``apply(point, action, *game)``: take it; the next ``advance`` goes on from there.

    ``offset`` is the index of the game's first decision point in ``codes``, ``params`` and ``slots``: a game
    played inside another (a siege's sortie battle) lists its points after the caller's. An illegal action ends
    the game with ``error_code(offset + point, action)``. Because the game's state is all in its arrays, a copy
    of them is the game at that decision: stepping it from outside, searching from it, tracing it.

    ``nested``: the game's automatic rules play procedures that have decision points of their own (the Kings of
    Rome campaign's battles and sieges): its ``advance`` takes the policies too,
    ``advance(stream, codes, params, slots, offset, *game)``, and the procedures find their points' policies there.
    It is given ``core.policy.inner(slots)``: None unless a nested point plays a user function or a search, so that
    the procedures' code is the built-ins' (compiled once) when the user's bots play the machine's own points.

    ``search``: a ``core.search.Search`` makes the search built-ins play at every decision point of the game (its
    actions below ``max_actions``); ``decider(loop)`` is then the decide that takes them, for ``Machine``.

    Compiled as if written in ``advance``'s module at the line that calls ``machine_game`` (see ``block_kernel``),
    with numba's options ``jit``: ``_nrt=False`` for a game whose functions allocate nothing (see ``NO_NRT``).
    """
    from . import search as _search
    function, count = _arity(init, 1, "a state machine's functions take the game's arrays after their own")
    module, line = sys.modules[function.__module__], sys._getframe(1).f_lineno
    functions = dict(init=init, advance=advance, legal=legal, apply=apply, decide=decide, END=END, inner=inner,
                     format=dict(decide="decide", search="",
                                 policies="codes, params, inner(slots), offset, " if nested else ""))
    helpers = None
    if search is not None:
        if max_actions < 1:
            raise TypeError(f"{name}: a searchable game gives max_actions, the most actions a decision has")
        if (search.sealed is None) != (search.unseal is None):
            raise TypeError(f"{name}: a game with simultaneous choices gives both sealed and unseal")
        # the search allocates its trees and copies: reference counting whatever the loop's (numba passes a loop's
        # _nrt=False on to its callees); the choice between search and the game's decide, taken at every
        # decision, is compiled as the loop is (counting a P8 battle's 13 arrays at each decision halved its speed)
        counted = dict(_nrt=True)
        helpers = {f"{name}_search": counted, f"{name}_choose": jit, f"{name}_searching": jit}
        determinize = "pass" if search.determinize is None else \
            "determinize(point, playout_stream, {copies})".format(copies=", ".join(f"copy_{i}" for i in range(count)))
        functions.update(player=search.player, actions=search.actions, reward=search.reward,
                         determinize=search.determinize, candidate=search.candidate or _search.same_action,
                         FLAT_MC=_search.FLAT_MC, ISMCTS=_search.ISMCTS,
                         rollout_policies=_search.rollout_policies, search_key=_search.search_key,
                         new_tree=_search.new_tree, tree_choice=_search.tree_choice, root_choice=_search.root_choice,
                         index_of=_search.index_of, duplicate=_search.duplicate, restore=_search.restore,
                         sealed=search.sealed or _search.open_choice, unseal=search.unseal or _search.same_point,
                         new_rows=_search.new_rows, regret_choice=_search.regret_choice,
                         regret_update=_search.regret_update, mixed_choice=_search.mixed_choice,
                         MAX_PLAYERS=_search.MAX_PLAYERS, search_of=search_of,
                         # the loop asks ``_searching`` itself: ``_choose``, the same for Python, is one call less
                         format=dict(decide=f"{name}_searching", search="search_of(slots), ",
                                     max_actions=int(max_actions), determinize=determinize,
                                     simultaneous=search.sealed is not None,
                                     policies="codes, params, inner(slots), offset, " if nested else "",
                                     rollouts="rollout, rollout_params, inner(slots), offset, " if nested else ""))
    loop = _generate(_search.SEARCH + "\n\n" + MACHINE if search is not None else MACHINE, name, count, functions,
                     module, line, helpers, **jit)
    _MACHINES.add(loop)
    _DECIDERS[loop] = GENERATED[f"{name}_choose"] if search is not None else decide
    if search is not None:
        _SEARCHING.append(_DECIDERS[loop])
    return loop


_DECIDERS, _SEARCHING = {}, []


def decider(loop):
    """The decide function of ``machine_game``'s ``loop``: the game's own, or with the search built-ins first."""
    return _DECIDERS[loop]


def searchable(machine):
    """Whether ``machine`` (a ``Machine``) takes the search built-ins: its decide is a searchable loop's."""
    return machine is not None and any(machine.decide is choose for choose in _SEARCHING)
