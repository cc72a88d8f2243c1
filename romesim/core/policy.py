"""Policies: who decides at each decision point of a game.

A scenario lists its ``DecisionPoint``\\ s. For each one a user picks a policy:

* a built-in, by name: ``"greedy"``, or with its parameter vector ``("reserve", [1])``. Built-ins are selected
  inside the cached kernels by an integer code and read a float parameter vector, so choosing or sweeping them
  recompiles nothing;
* their own ``@numba.njit`` function ``fn(state, params, stream) -> int``, optionally with a parameter vector
  ``(fn, [0.5, 2])``. ``state`` is an int64 array whose layout the decision point documents (treat it as
  read-only), ``params`` the float64 vector, ``stream`` the game's dice stream (``romesim.core.rng``). The kernel
  is then specialised for that function: it compiles once per process (numba cannot
  reuse its disk cache for a function argument; measured 10-15 s for the siege kernel on a two-core machine,
  about 3 s for treason), and again in each worker process when ``workers > 1``.

An action a policy returns that the rules do not allow stops the run with a ``PolicyError`` that names the
decision point and the action.
"""
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

from .errors import PolicyError, did_you_mean

MAX_PARAMS = 8


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


@dataclass(frozen=True)
class ResolvedPolicies:
    """What the kernels receive: a code and a parameter row per decision point, and user functions."""

    names: tuple
    codes: np.ndarray
    params: np.ndarray
    functions: tuple

    @property
    def has_user_functions(self):
        return any(f is not None for f in self.functions)


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
        if vector is not None:
            try:
                vector = np.asarray(vector, dtype=np.float64)
            except (TypeError, ValueError):
                raise PolicyError(f"policies[{dp.name!r}]: parameters must be numbers, got {vector!r}") from None
            if vector.ndim != 1 or vector.size > MAX_PARAMS or not np.all(np.isfinite(vector)):
                raise PolicyError(f"policies[{dp.name!r}]: parameters must be a list of at most {MAX_PARAMS} "
                                  f"finite numbers, got {spec[1]!r}")
        if isinstance(chosen, CPUDispatcher):
            names.append(getattr(chosen, "__name__", "user"))
            functions.append(chosen)
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
            raise PolicyError(
                f"policies[{dp.name!r}]: unknown policy {chosen!r}{did_you_mean(chosen, dp.builtins)}; "
                f"built-ins: {', '.join(dp.builtins)}, "
                "or an @numba.njit function fn(state, params, stream) -> int")
        row = np.asarray(row, dtype=np.float64)
        params[i, :row.size] = row
    return ResolvedPolicies(tuple(names), codes, params, tuple(functions))


@njit(cache=True)
def error_code(point, action):
    """What a kernel reports when a policy returns an illegal ``action`` at decision point index ``point``."""
    return ((point + 1) << 32) | (np.int64(action) & 0xFFFFFFFF)


def decode_error(code, decision_points):
    """The message for an error code written by a kernel: ``(decision point index + 1) << 32 | action``."""
    index = (int(code) >> 32) - 1
    action = int(code) & 0xFFFFFFFF
    if action >= 1 << 31:
        action -= 1 << 32
    dp = decision_points[index]
    return PolicyError(f"decision point {dp.name!r} ({dp.rule}): illegal action {action}; {dp.actions}")
