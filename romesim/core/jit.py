"""``njit``: numba's decorator, for every numba function of romesim.

numba types a constant as its value (``Literal[int](3)``), and a call from compiled code compiles the callee once
per signature it is called with: a function called with four different constants (a decision point's number, a
phase, a unit kind) is compiled four times. Called with the constants of every call site of a whole game, that
was most of a cold compile: the Kings of Rome battle compiled its built-in bots 14 times and 99 functions in all;
typed by types, 62 functions, and its cold compile falls by a third. So a call to one of romesim's functions is
typed with the types of its arguments (``int64``), not their values; the code is the same for every value (LLVM
still folds a constant into a callee it inlines), and no romesim function needs a constant to compile.

Other code (a user's bot, numba's own functions) keeps numba's rules.

Importing it also makes numba's own compiler faster (``core.compiler_copies``).
"""
import numba
from numba.core import types
from numba.core.registry import CPUDispatcher

from . import compiler_copies  # noqa: F401  (numba patched before anything compiles)


class TypedByTypes(CPUDispatcher):
    """A dispatcher whose calls from compiled code are typed with their arguments' types, not their values."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})


def njit(function=None, **options):
    """``numba.njit(function, **options)``, typed by types (``TypedByTypes``); as ``@njit`` or ``@njit(...)``."""
    if callable(function):
        return _typed_by_types(numba.njit(**options)(function))
    return lambda f: _typed_by_types(numba.njit(function, **options)(f))


def _typed_by_types(dispatcher):
    if type(dispatcher) is CPUDispatcher:  # not under NUMBA_DISABLE_JIT, where numba returns the function
        dispatcher.__class__ = TypedByTypes
    return dispatcher
