"""Policies: who decides at each decision point of a game.

A scenario lists its ``DecisionPoint``\\ s. For each one a user picks a policy:

* a built-in, by name: ``"greedy"``, or with its parameter vector ``("reserve", [1])``. Built-ins are selected
  inside the cached kernels by an integer code and read a float parameter vector, so choosing or sweeping them
  recompiles nothing;
* their own ``@numba.njit`` function ``fn(state, params, stream) -> int``, optionally with a parameter vector
  ``(fn, [0.5, 2])``. ``state`` is an int64 array whose layout the decision point documents (treat it as
  read-only; ``romesim.describe(scenario, point)`` lists its entries), ``params`` the float64 vector, ``stream``
  the game's dice stream (``romesim.core.rng``).

A user function is compiled once per process for the one signature every decision point shares (``SIGNATURE``)
and reaches the kernels through a slot, its code's address (``slots_for``, ``call_at``): the kernels are compiled
for an array of addresses whatever functions fill it, so they load from numba's disk cache and a user bot costs
only its own compile (about a second). A built-in's slot holds 0, never called: kernels test ``code == USER``
first.
A run of built-ins only passes ``slots = None``: the kernels ask a slot only through ``call``, which numba then
compiles to nothing, so their games hold no opaque call (an opaque call costs a small procedure 10-30 % of its
speed: the compiler must assume it reads and writes every array). Other runs pass ``Slots(functions, search)``:
the slots, and ``search`` None unless a decision point plays a search built-in (``core.search``), whose code, most
of a whole game's compile, numba then leaves out too (the duel's first user bot compiled in 16.8 s with it, 5.4 s
without). Each kernel so has three compiled variants (``VARIANTS``), for built-ins, user functions and searches;
each is compiled once and cached. A game whose machine plays procedures with decision points of their own (the
Kings of Rome campaign) has two more: its procedures get the slots (``NestedSlots``, ``inner``) only when one of
their points (``DecisionPoint.nested``) plays a user function or a search, and otherwise keep the code compiled
for the built-ins.
A function of the wrong arity or return type is refused before it reaches a kernel, naming the decision point.

An action a policy returns that the rules do not allow stops the run with a ``PolicyError`` that names the
decision point, the action, the game and how to replay it.
"""
import inspect
import re
from collections import namedtuple
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from numba import config, types
from numba.core import cgutils
from numba.core.extending import intrinsic, overload
from numba.core.errors import NumbaError
from numba.core.registry import CPUDispatcher

from .jit import njit
from .errors import PolicyError, did_you_mean

MAX_PARAMS = 8
USER = -1  # the code of a decision point played by a user function
FLAT_MC, ISMCTS = 1000, 1001  # the search built-ins' codes (``core.search``), taken before a game's decide
SEARCH_CODES = (FLAT_MC, ISMCTS)
SEARCH_NAMES = ("flat_mc", "ismcts")  # core.search's built-ins, in SEARCH_CODES' order
MAX_BUDGET = 1 << 20  # the most playouts or iterations of one search decision

STATE_TYPE, PARAMS_TYPE, STREAM_TYPE = types.int64[::1], types.float64[::1], types.uint64[::1]
SIGNATURE = types.int64(STATE_TYPE, PARAMS_TYPE, STREAM_TYPE)
SIGNATURE_TEXT = "fn(state: int64[:], params: float64[:], stream: uint64[:]) -> int"


@njit(SIGNATURE, cache=True)
def builtin_slot(state, params, stream):
    """A stand-in for a user function where a run needs a variant's slots without one (``romesim.warm``); a
    built-in's slot holds no function (address 0), and kernels never call it (they test ``code == USER`` first)."""
    return -1


# What the kernels receive beside the codes in a run with user functions or searches: ``functions``, the address
# of each decision point's user function (0 for a built-in; ``slots_for``), and ``search``, True in a run with a
# search built-in, else None. ``NestedSlots``, the same, when a nested decision point (``DecisionPoint.nested``)
# plays a user function or a search: a machine's ``advance`` passes its procedures the slots only then
# (``inner``), so that a run with user bots at the machine's own points plays the procedures' code compiled for the
# built-ins (it took the campaign's first user bot at ``action``, a new process on 2 cores, from 12.6 s to 4.1 s:
# its sieges and battles had compiled again)
Slots = namedtuple("Slots", "functions search")
NestedSlots = namedtuple("NestedSlots", "functions search")
# a kernel's compiled variants, by the slots it is given
VARIANTS = ("built-ins", "user bots", "search", "user bots in procedures", "search in procedures")


def slots_for(functions, search=None, kind=Slots):
    """The kernels' slots for ``functions``, a user function or None per decision point, each compiled for
    ``SIGNATURE`` (``compile_user``): an array of their addresses, one type whatever the functions and however many
    points. numba's first-class functions, which the slots were, made a tuple of one function per point, which
    every function passing the slots on unpacked and copied: a fifth of the campaign's first user bot (52 points;
    3.8 s with them, 3.0 s without). Under ``NUMBA_DISABLE_JIT``, the functions themselves."""
    compiled = [None if f is None else compile_user(f) for f in functions]
    if config.DISABLE_JIT:
        return kind(tuple(compiled), search)
    return kind(np.array([0 if f is None or f is builtin_slot else _address(f) for f in compiled], np.uint64), search)


def _address(function):
    """Where ``function``'s code compiled for ``SIGNATURE`` starts, called with numba's calling convention."""
    compiled = function.get_compile_result(SIGNATURE)
    return compiled.library.get_pointer_to_function(compiled.fndesc.llvm_func_name)


@intrinsic
def call_at(typingctx, address, state, params, stream):
    """The function at ``address`` (``slots_for``) called with ``(state, params, stream)``; an exception it raises
    goes on up, as from any call."""
    if not isinstance(address, types.Integer) or (state, params, stream) != SIGNATURE.args:
        return None

    def codegen(context, builder, signature, args):
        function_type = context.call_conv.get_function_type(types.int64, SIGNATURE.args)
        function = builder.inttoptr(args[0], function_type.as_pointer())
        status, action = context.call_conv.call_function(builder, function, types.int64, SIGNATURE.args,
                                                          args[1:])
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return action
    return types.int64(address, *SIGNATURE.args), codegen


if config.DISABLE_JIT:
    def call_at(function, state, params, stream):
        return function(state, params, stream)


def inner(slots):
    """The slots a state machine's ``advance`` passes to the procedures it plays: ``slots`` when they are
    ``NestedSlots``, else None, as in a run of built-ins only (decided by type, at compile time in a kernel)."""
    return slots if isinstance(slots, NestedSlots) else None


@overload(inner)
def _inner(slots):
    if isinstance(slots, types.NamedTuple) and slots.instance_class is NestedSlots:
        return lambda slots: slots
    return lambda slots: None


def search_of(slots):
    """``slots.search``, or None for ``slots = None`` (decided by type, at compile time in a kernel: numba leaves
    out the code of a search given None)."""
    return None if slots is None else slots.search


@overload(search_of)
def _search_of(slots):
    if isinstance(slots, types.NamedTuple):
        return lambda slots: slots.search
    return lambda slots: None


@njit(cache=True)
def call(slots, i, state, params, stream):
    """The action of decision point ``i``'s user function. ``slots`` is None in a run of built-ins only, where no
    decision asks a slot: numba prunes the call at compile time."""
    if slots is None:
        return np.int64(USER)
    return call_at(slots.functions[i], state, params, stream)


@dataclass(frozen=True)
class Builtin:
    code: int
    doc: str
    params: tuple = ()  # names of the entries of the parameter vector
    defaults: tuple = ()


@dataclass(frozen=True)
class DecisionPoint:
    name: str
    rule: str  # the rules' id of the decision point, e.g. "DP-S05"
    doc: str
    state: tuple  # names of the entries of the state vector a user function receives
    actions: str  # what the returned integer means
    builtins: dict = field(default_factory=dict)  # name -> Builtin
    default: str = ""
    # the actions that may be legal, a superset of the legal ones: n for 0 .. n-1, or a function of the state
    # vector giving them; ``GameState.legal_actions`` offers each of them to the game
    candidates: object = 2
    hook: bool = False  # a procedure a user function may replace, not a choice: no game state stops at it
    # decided inside a state machine's ``advance``, by a procedure it plays (the Kings of Rome campaign's sieges and
    # battles): its policy reaches the procedure only in ``NestedSlots`` (see ``inner``)
    nested: bool = False

    def candidate_actions(self, state):
        """The ``candidates`` for the decision's ``state``, as a list of ints."""
        found = self.candidates(state) if callable(self.candidates) else range(self.candidates)
        return [int(a) for a in found]


def state_index(point):
    """``point``'s state entries as a named tuple of indices: ``S = state_index(REROLL)``, then ``state[S.die]``
    in a user function (numba reads the global named tuple as constants). A block of entries named ``money[0]``,
    ``money[1]`` … is one field, the index of its first entry: ``state[S.money + seat]``."""
    fields, indices = [], []
    for i, name in enumerate(point.state):
        block = re.fullmatch(r"(.*)\[(\d+)\]", name)
        if block and block.group(2) != "0":
            continue
        field_name = re.sub(r"\W", "_", block.group(1) if block else name)
        if field_name in fields:
            field_name = f"{field_name}_{i}"
        fields.append(field_name)
        indices.append(i)
    return namedtuple(f"{point.name}_state", fields)(*indices)


@dataclass(frozen=True)
class ResolvedPolicies:
    """What the kernels receive: a code and a parameter row per decision point, and user functions."""

    names: tuple
    codes: np.ndarray
    params: np.ndarray
    functions: tuple  # the user's functions as given, None for a built-in
    nested: tuple = ()  # per decision point, whether it is nested (``DecisionPoint.nested``)

    @property
    def slots(self):
        """The kernels' ``Slots`` (``NestedSlots`` when a nested point plays a user function or a search): a
        function's address per decision point, and whether a search plays; None when every point plays a built-in
        other than a search (see ``call``)."""
        if not self.has_user_functions and not self.has_search:
            return None
        return slots_for(self.functions, True if self.has_search else None, NestedSlots if self.has_nested else Slots)

    @property
    def variant(self):
        """Which of a kernel's ``VARIANTS`` plays these policies."""
        if not self.has_search and not self.has_user_functions:
            return VARIANTS[0]
        return VARIANTS[(2 if self.has_search else 1) + (2 if self.has_nested else 0)]

    @property
    def has_nested(self):
        """Whether a nested decision point plays a user function or a search."""
        return any(nested and (f is not None or c in SEARCH_CODES)
                   for nested, f, c in zip(self.nested, self.functions, self.codes))

    @property
    def has_user_functions(self):
        return any(f is not None for f in self.functions)

    @property
    def has_search(self):
        return any(c in SEARCH_CODES for c in self.codes)


def searchable(decision_points):
    """The name of the first of ``decision_points`` that offers the search built-ins, or None."""
    return next((dp.name for dp in decision_points if SEARCH_NAMES[0] in dp.builtins), None)


def resolve(decision_points, policies=None):
    """Turn the user's ``policies`` mapping into kernel inputs, with errors that say what is allowed."""
    if policies is None:
        policies = {}
    if not isinstance(policies, Mapping):
        raise PolicyError(f"policies: expected a mapping of decision point to policy, got {policies!r}")
    known = {dp.name: dp for dp in decision_points}
    for key in policies:
        if key not in known:
            allowed = ", ".join(known) or "none (this scenario has no decision points)"
            raise PolicyError(f"policies: unknown decision point {key!r}{did_you_mean(key, known)}; allowed: {allowed}")
    k = len(decision_points)
    codes = np.zeros(max(k, 1), np.int64)
    params = np.zeros((max(k, 1), MAX_PARAMS), np.float64)
    names, functions = [], []
    for i, dp in enumerate(decision_points):
        spec = policies.get(dp.name, dp.default)
        chosen, vector = spec, None
        if isinstance(spec, (tuple, list)):
            if len(spec) != 2:
                raise PolicyError(f"policies[{dp.name!r}]: expected a policy or (policy, parameters), got {spec!r}")
            chosen, vector = spec
        if isinstance(vector, Mapping):
            vector = _by_name(dp, chosen, vector)
        if vector is not None:
            try:
                vector = np.asarray(vector, dtype=np.float64)
            except (TypeError, ValueError):
                raise PolicyError(f"policies[{dp.name!r}]: parameters must be numbers, got {vector!r}") from None
            if vector.ndim != 1 or vector.size > MAX_PARAMS or not np.all(np.isfinite(vector)):
                raise PolicyError(f"policies[{dp.name!r}]: parameters must be a list of at most {MAX_PARAMS} "
                                  f"finite numbers, got {spec[1]!r}")
        if isinstance(chosen, CPUDispatcher) or (config.DISABLE_JIT and inspect.isfunction(chosen)):
            check_user(chosen, dp)
            names.append(getattr(chosen, "__name__", "user"))
            functions.append(chosen)
            codes[i] = USER
            row = () if vector is None else vector
        elif isinstance(chosen, str) and chosen in dp.builtins:
            builtin = dp.builtins[chosen]
            if vector is not None and vector.size != len(builtin.params):
                raise PolicyError(
                    f"policies[{dp.name!r}]: {chosen!r} takes {len(builtin.params)} parameter(s) "
                    f"{list(builtin.params)}, got {spec[1]!r}")
            codes[i] = builtin.code
            names.append(chosen)
            functions.append(None)
            row = builtin.defaults if vector is None else vector
        elif callable(chosen):
            raise PolicyError(f"policies[{dp.name!r}]: {chosen!r} is a Python function; decorate it with @numba.njit")
        else:
            raise _unknown(dp, chosen)
        row = np.asarray(row, dtype=np.float64)
        params[i, :row.size] = row
    if any(c in SEARCH_CODES for c in codes):
        params = _with_rollouts(decision_points, codes, params)
    return ResolvedPolicies(tuple(names), codes, params, tuple(functions), tuple(dp.nested for dp in decision_points))


def _unknown(dp, chosen):
    """The error for a policy ``chosen`` that is neither a built-in of ``dp`` nor a compiled function."""
    why = ("; a search is offered where the game can stop at the point and play on from there (a state machine's "
           "points), and here the point is played straight through" if chosen in SEARCH_NAMES else "")
    return PolicyError(f"policies[{dp.name!r}]: unknown policy {chosen!r}{did_you_mean(chosen, dp.builtins)}; "
                       f"built-ins: {', '.join(dp.builtins)}, or an @numba.njit function fn(state, params, stream) "
                       f"-> int{why}")


def _by_name(dp, chosen, values):
    """A built-in's parameter vector from ``{name: value}``, the names left out at their defaults; a search's
    ``rollout`` may name a built-in of the point."""
    if not isinstance(chosen, str):
        raise PolicyError(f"policies[{dp.name!r}]: parameters by name are for built-ins; give {chosen!r} a list")
    if chosen not in dp.builtins:
        raise _unknown(dp, chosen)
    builtin = dp.builtins[chosen]
    vector = dict(zip(builtin.params, builtin.defaults))
    for key, value in values.items():
        if key not in vector:
            raise PolicyError(f"policies[{dp.name!r}]: {chosen!r} has no parameter {key!r}"
                              f"{did_you_mean(key, vector)}; its parameters: {', '.join(builtin.params) or 'none'}")
        if key == "rollout" and builtin.code in SEARCH_CODES and isinstance(value, str):
            plain = [b for b in dp.builtins if dp.builtins[b].code not in SEARCH_CODES]
            if value not in plain:
                raise PolicyError(f"policies[{dp.name!r}]: rollout {value!r} is not a built-in of {dp.name!r}"
                                  f"{did_you_mean(value, plain)}; allowed: {', '.join(plain)}")
            value = list(dp.builtins).index(value)
        vector[key] = value
    return list(vector.values())


def _with_rollouts(decision_points, codes, params):
    """``params`` and, below, the rows the playouts of a search use (``core.search.rollout_policies``): a search
    point's rollout built-in's defaults, every other point's own row; a search row's ``rollout`` entry becomes
    the rollout's code."""
    rollouts = params.copy()
    for i, (dp, code) in enumerate(zip(decision_points, codes)):
        if code not in SEARCH_CODES:
            continue
        name = ""
        budget, exploration, rollout = params[i, :3]
        names = list(dp.builtins)
        if rollout == int(rollout) and 0 <= rollout < len(names):
            name = names[int(rollout)]
        if not name or dp.builtins[name].code in SEARCH_CODES:
            plain = [b for b in names if dp.builtins[b].code not in SEARCH_CODES]
            raise PolicyError(f"policies[{dp.name!r}]: rollout {rollout:g} is not a built-in of {dp.name!r}; "
                              f"give one of {', '.join(plain)} by name (or its index)")
        if not (budget == int(budget) and 1 <= budget <= MAX_BUDGET):
            raise PolicyError(f"policies[{dp.name!r}]: budget {budget:g} is not allowed; an integer 1 .. "
                              f"{MAX_BUDGET}")
        if exploration < 0:
            raise PolicyError(f"policies[{dp.name!r}]: exploration {exploration:g} is not allowed; a number >= 0")
        if not 0 <= params[i, 3] <= 1:
            raise PolicyError(f"policies[{dp.name!r}]: prior {params[i, 3]:g} is not allowed; a number 0 .. 1")
        builtin = dp.builtins[name]
        params[i, 2] = builtin.code
        rollouts[i] = 0
        rollouts[i, :len(builtin.defaults)] = builtin.defaults
    return np.concatenate([params, rollouts])


_COMPILED = {}


def _python(fn):
    return getattr(fn, "py_func", fn)


def _user_name(fn):
    return getattr(_python(fn), "__qualname__", "the function")


def check_user(fn, dp):
    """Refuse, in one line naming ``dp``, a user function that cannot be a policy: wrong arity or return type."""
    try:
        inspect.signature(_python(fn)).bind(None, None, None)
    except TypeError:
        raise PolicyError(f"policies[{dp.name!r}]: {_user_name(fn)}{inspect.signature(_python(fn))} does not take "
                          f"3 arguments; a policy for {dp.name!r} ({dp.rule}) is {SIGNATURE_TEXT}") from None
    except ValueError:  # no signature to inspect: let the compile below decide
        pass
    try:
        compile_user(fn)
    except PolicyError as error:
        raise PolicyError(f"policies[{dp.name!r}]: {error}; a policy for {dp.name!r} ({dp.rule}) is "
                          f"{SIGNATURE_TEXT}") from None


def compile_user(fn):
    """``fn`` compiled for ``SIGNATURE``, once per process and function (one function serves several points)."""
    py = _python(fn)
    if config.DISABLE_JIT:  # the kernels are plain Python too (tests, traces)
        return py
    if isinstance(fn, CPUDispatcher) and fn.overloads.get(SIGNATURE.args) is not None and \
            fn.overloads[SIGNATURE.args].signature.return_type == SIGNATURE.return_type:
        return fn  # compiled for the signature already (``builtin_slot``, ``machine.scripted``)
    if py in _COMPILED:
        return _COMPILED[py]
    try:
        typed = njit((STATE_TYPE, PARAMS_TYPE, STREAM_TYPE))(py)
        returned = typed.nopython_signatures[0].return_type
    except NumbaError as error:
        text = re.sub(r"\x1b\[[0-9;]*m", "", str(error))
        first = next((line for line in text.splitlines() if line.strip() and "Failed in" not in line), "")
        raise PolicyError(f"{_user_name(fn)} does not compile for (state, params, stream): {first.strip()}") from None
    if not isinstance(returned, (types.Integer, types.Boolean)):
        raise PolicyError(f"{_user_name(fn)} returns {returned}, not an integer action")
    compiled = typed if returned == types.int64 else njit(SIGNATURE)(py)
    _COMPILED[py] = compiled
    return compiled


@njit(cache=True)
def error_code(point, action):
    """What a kernel reports when a policy returns an illegal ``action`` at decision point index ``point``."""
    return ((point + 1) << 32) | (np.int64(action) & 0xFFFFFFFF)


def decode_error(code, decision_points, game=None, seed=None, scenario=None):
    """The message for an error code written by a kernel: ``(decision point index + 1) << 32 | action``."""
    index = (int(code) >> 32) - 1
    action = int(code) & 0xFFFFFFFF
    if action >= 1 << 31:
        action -= 1 << 32
    dp = decision_points[index]
    where = ""
    if game is not None:
        replay = f"; romesim.trace({scenario!r}, game={game}, seed={seed}, policies=...) shows its state" \
            if scenario else ""
        where = f" in game {game}{replay}"
    return PolicyError(f"decision point {dp.name!r} ({dp.rule}): illegal action {action}{where}; allowed: "
                       f"{dp.actions}")
