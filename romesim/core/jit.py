"""``njit``: numba's decorator, for every numba function of romesim.

numba types a constant as its value (``Literal[int](3)``), and a call from compiled code compiles the callee once
per signature it is called with: a function called with four different constants (a decision point's number, a
phase, a unit kind) is compiled four times. Called with the constants of every call site of a whole game, that
was most of a cold compile: the Kings of Rome battle compiled its built-in bots 14 times and 99 functions in all;
typed by types, 62 functions, and its cold compile falls by a third. So a call to one of romesim's functions is
typed with the types of its arguments (``int64``), not their values; the code is the same for every value (LLVM
still folds a constant into a callee it inlines), and no romesim function needs a constant to compile.

A call from compiled code reaches the function's ``callee``: the same function compiled without the two wrappers
numba makes so that Python can call it (a CPython wrapper that unboxes every argument, and a C wrapper for
first-class function pointers), which code calling it natively never uses. A game's rules are a hundred and more
functions called only from other compiled functions; their wrappers were a fifth of a cold compile (the duel:
46 s CPU with them, 37 s without). Python calls the function itself, compiled with both; the callee has cache
files of its own (numba's cache does not tell functions compiled with different options apart). A function given
explicit signatures (``builtin_slot``, a first-class function) is called as it is.

Other code (a user's bot, numba's own functions) keeps numba's rules.

Importing it also makes numba's own compiler faster (``core.compiler_copies``); ``roomy`` calls what may compile
from a Python frame that spares the compiler CPython's frame-chunk churn.
"""
import numba
from numba.core import types
from numba.core.caching import FunctionCache, IndexDataCacheFile
from numba.core.registry import CPUDispatcher

from . import compiler_copies  # noqa: F401  (numba patched before anything compiles)

NO_WRAPPERS = dict(no_cpython_wrapper=True, no_cfunc_wrapper=True)


class TypedByTypes(CPUDispatcher):
    """A dispatcher whose calls from compiled code are typed with their arguments' types, not their values, and
    reach ``callee``."""

    _options = None  # the options it was made with (None: given signatures, called as it is)

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})

    @property
    def _numba_type_(self):
        return types.Dispatcher(self.callee)

    @property
    def callee(self):
        """What compiled code calls: this function compiled without wrappers for Python (``Callee``), made on
        first use; itself for a function given signatures."""
        if self._options is None:
            return self
        twin = self.__dict__.get("_callee")
        if twin is None:
            twin = numba.njit(**{**self._options, **NO_WRAPPERS, "cache": False})(self.py_func)
            twin.__class__ = Callee
            if self._options.get("cache"):
                twin.enable_caching()
            self.__dict__["_callee"] = twin
        return twin


class Callee(TypedByTypes):
    """A function as compiled code calls it: no wrappers for Python, so not callable from Python."""

    @property
    def _numba_type_(self):
        return types.Dispatcher(self)

    @property
    def callee(self):
        return self

    def enable_caching(self):
        self._cache = _CalleeCache(self.py_func)


class _CalleeCache(FunctionCache):
    """numba's cache of a ``Callee``, in files of its own: numba keys its cache by signature and source, not by the
    options a function was compiled with, and a callee loaded for a call from Python would have no entry point."""

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cache_file = IndexDataCacheFile(cache_path=self._cache_path,
                                              filename_base=self._impl.filename_base + ".callee",
                                              source_stamp=self._impl.locator.get_source_stamp())


def njit(function=None, **options):
    """``numba.njit(function, **options)``, typed by types (``TypedByTypes``); as ``@njit`` or ``@njit(...)``."""
    if callable(function):
        return _typed_by_types(numba.njit(**options)(function), options)
    return lambda f: _typed_by_types(numba.njit(function, **options)(f), None if function is not None else options)


def _typed_by_types(dispatcher, options):
    if type(dispatcher) is CPUDispatcher:  # not under NUMBA_DISABLE_JIT, where numba returns the function
        dispatcher.__class__ = TypedByTypes
        dispatcher._options = options
    return dispatcher


ROOM = (1 << 17) + 64  # the stack slots of the frame ``roomy`` calls from: just over 1 MB, in a 2 MB chunk
_ROOMY = []


def roomy(function, *args):
    """``function(*args)``, called from a Python frame that reserves ``ROOM`` stack slots, for a call that may compile.

    CPython (3.11 on) keeps Python frames in chunks of 16 kB and frees a chunk as soon as the first frame in it
    returns, so a call made again and again across a chunk's boundary maps and unmaps a chunk each time. numba's
    compiler is deep Python recursion, and its calls cross boundaries everywhere: a cold compile of the duel mapped
    and unmapped 1.5 million chunks, 14 s of system time and page faults beside 31 s of its own. This frame takes a
    chunk of 2 MB for its 1 MB of (never used) stack, and the compiler's frames fill the other 1 MB of it instead
    of 16 kB chunks: 0.5 s of system time. Python calls ``function`` as usual where the frame cannot be made."""
    if not _ROOMY:
        def call(function, args):
            return function(*args)
        try:
            call.__code__ = call.__code__.replace(co_stacksize=call.__code__.co_stacksize + ROOM)
        except (TypeError, ValueError):  # a Python whose code objects take no such change
            pass
        _ROOMY.append(call)
    return _ROOMY[0](function, args)
