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
explicit signatures (``builtin_slot``, ``machine.scripted``) is called as it is.

A callee's code is only linked into its callers and made machine code there, not also on its own
(``LinkedOnlyLibrary``). A function made with ``apart=True`` is compiled once and called, from every
caller, at its address: see ``ApartCallee``.

``inline="llvm"``: a callee that every caller inlines, as numba's ``inline="always"`` does, but after it is compiled
(LLVM's ``alwaysinline``) instead of before: numba types and lowers it once, not again at each call. numba's way
copies the function's own bytecode into the caller, which is typed and lowered with the caller, once per call
site; for the dice (``core.rng``, a few hundred call sites in a whole game) that was 6 s of the campaign's 61 s
cold compile and 3 s of Vox Populi's 37 s, and the compiled code runs as fast. numba's ``inline="always"`` stays
where its code runs faster: a small procedure's game in its kernel (the treason played 20 % slower the other way).

Arguments are borrowed (``_lower_assign``): numba counts a reference to each array a function is given, a call to
``NRT_incref`` on entry and to ``NRT_decref`` where the variable dies, and LLVM's pass that prunes such pairs fails
where a function's ``and`` / ``if`` branches end the variable at different places. Inlined in a loop over the
counters, a rule like ``own_unit(tok, ts, t, people)`` left six such calls a counter (each an opaque call, after
which the loop reads its arrays again), the campaign's largest cost: 1,850 campaigns/s on two cores, 3,100
borrowed. The caller holds its own reference for the whole call, so a romesim function's argument variables,
assigned once, are neither counted nor given back; every other reference (a slice, a copy, a value returned or
stored) is counted as numba counts it.

Other code (a user's bot, numba's own functions) keeps numba's rules.

Importing it also makes numba's own compiler faster (``core.compiler_copies``); ``roomy`` calls what may compile
from a Python frame that spares the compiler CPython's frame-chunk churn.
"""
import collections
import copy
import hashlib
import re
from pathlib import Path

import numba
from llvmlite import binding as llvm
from numba.core import codegen, compiler, ir, lowering, sigutils, types
from numba.core.caching import FunctionCache, IndexDataCacheFile
from numba.core.imputils import user_function
from numba.core.registry import CPUDispatcher

from . import compiler_copies  # noqa: F401  (numba patched before anything compiles)

NO_WRAPPERS = dict(no_cpython_wrapper=True, no_cfunc_wrapper=True)


class TypedByTypes(CPUDispatcher):
    """A dispatcher whose calls from compiled code are typed with their arguments' types, not their values, and
    reach ``callee``."""

    _options = None  # the options it was made with (None: given signatures, called as it is)
    _apart = False  # whether compiled code calls it at its address (``ApartCallee``)
    _inline = False  # whether every caller inlines its compiled code (``inline="llvm"``)

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
            linked = {"pipeline_class": InlinedCompiler if self._inline else LinkedOnlyCompiler} \
                if LINKED_ONLY and not self._apart else {}
            twin = numba.njit(**{**self._options, **NO_WRAPPERS, **linked, "cache": False})(self.py_func)
            twin.__class__ = ApartCallee if self._apart else Callee
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


class ApartCallee(Callee):
    """A callee that its callers do not contain: they call it at its address.

    numba links a callee's whole code into each caller, and optimises and compiles it again there, and again in
    the caller's callers: a campaign compiled its battle seven times over (in the function that fights it, in the
    siege, the reactions and every level of the turn above them), most of its cold compile. A function made with
    ``njit(apart=True)`` is compiled once; at each of its compiles or loads it registers its address with LLVM
    under a name of its own (``apart_symbol``: its module, name and argument types), and its callers call that
    name, resolved when their code is loaded. So a caller can be loaded from numba's cache only once each apart
    function it calls is loaded: ``RomesimCache`` reads the names a cached function calls in its object code, and
    loads those functions first (or compiles the caller again when one of them is not in the cache). A call costs
    what a call costs: only for functions that do much work per call (a battle, a siege, a turn's events), and for
    helpers that their callers call rather than inline anyway and that many of them link (the campaign's ``pick``
    was compiled into 8 of its units, ``war_units`` into 13: made apart, 18 of them took a tenth off the
    campaign's cold compile, 58.3 to 52.6 s on one process, at the same speed)."""

    def add_overload(self, cres):
        super().add_overload(cres)
        symbol = apart_symbol(self.py_func, cres.signature.args)
        llvm.add_symbol(symbol, cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name))
        _REGISTERED.add(symbol)
        calls = self.targetctx._defns
        calls.pop(cres.entry_point, None)  # numba's call links the callee's code into the caller
        call = _call_by_symbol(cres.fndesc, symbol)
        calls[cres.entry_point].append(call, call.signature)


class LinkedOnlyLibrary(codegen.JITCodeLibrary):
    """The code of a ``Callee``: only ever linked into its callers' code, never run as it is.

    numba makes each function's module machine code, then links the module into each caller, which is made machine
    code again: a callee's own machine code was made at every cold compile and never called. This library's module
    is optimised as numba's (callers inline its optimised code: left unoptimised for the callers' own passes, the
    duel played 40 % slower) but never made machine code."""

    always_inline = False  # whether its callers inline it (``inline="llvm"``)

    def add_ir_module(self, ir_module):
        if self.always_inline:
            for function in ir_module.functions:
                if not function.is_declaration:
                    function.attributes.add("alwaysinline")
        super().add_ir_module(ir_module)

    def _finalize_final_module(self):
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._finalized = True

    def get_pointer_to_function(self, name):
        self._ensure_finalized()
        return 0

    def serialize_using_object_code(self):
        return (self.name, _LINKED, self._get_module_for_linking().as_bitcode())


_LINKED = "romesim-linked"


def _numba_as_0_68():
    """Whether numba's code libraries, their cache and the compiler have the parts ``LinkedOnlyLibrary`` replaces
    (numba 0.60 to 0.68 have them); where they do not, a callee is compiled as numba compiles it."""
    parts = [(codegen.CPUCodeLibrary, ("_unserialize", "_finalize_dynamic_globals", "_verify_declare_only_symbols",
                                       "_get_module_for_linking", "serialize_using_object_code")),
             (codegen.JITCPUCodegen, ("set_env",)), (compiler.Compiler, ("compile_extra",))]
    return all(hasattr(cls, name) for cls, names in parts for name in names)


LINKED_ONLY = _numba_as_0_68()


def _unserialize(cls, codegen_, state, _numba=getattr(codegen.CPUCodeLibrary._unserialize, "__func__", None)):
    """numba's loading of a library from its cache, and of the code a ``LinkedOnlyLibrary`` saved there."""
    name, kind, data = state
    if kind != _LINKED:
        return _numba(cls, codegen_, state)
    library = codegen_.create_library(name)
    library.__class__ = LinkedOnlyLibrary
    library._final_module = library._shared_module = llvm.parse_bitcode(data)
    library._finalized = True
    return library


def _set_env(self, env_name, env, _numba=getattr(codegen.JITCPUCodegen, "set_env", None)):
    """numba's setting of a function's environment in its machine code, where it has machine code: a
    ``LinkedOnlyLibrary``'s function has none, and its copies in its callers never read it (a caller loaded from
    the cache does not set its callees' either)."""
    if self._engine.get_global_value_address(env_name):
        _numba(self, env_name, env)


if LINKED_ONLY:
    codegen.CPUCodeLibrary._unserialize = classmethod(_unserialize)
    codegen.JITCPUCodegen.set_env = _set_env


class LinkedOnlyCompiler(compiler.Compiler):
    """numba's compiler, making a ``LinkedOnlyLibrary``."""

    def compile_extra(self, func):
        if self.state.library is None:
            library = self.state.targetctx.codegen().create_library(func.__qualname__)
            library.__class__ = LinkedOnlyLibrary
            library.always_inline = isinstance(self, InlinedCompiler)
            library.enable_object_caching()
            self.state.library = library
        return super().compile_extra(func)


class InlinedCompiler(LinkedOnlyCompiler):
    """numba's compiler, making a ``LinkedOnlyLibrary`` that its callers inline (``inline="llvm"``)."""


def _borrows(lower, name):
    """Whether numba's lowering ``lower`` of a function lowers variable ``name``, assigned from an argument, as a
    borrowed reference: in a romesim function (not a generator), a variable assigned once."""
    if not lower.fndesc.modname.startswith("romesim.") or lower.generator_info:
        return False
    assigned = lower.__dict__.get("_assigned")
    if assigned is None:
        assigned = lower._assigned = collections.Counter(
            inst.target.name for block in lower.func_ir.blocks.values() for inst in block.body
            if isinstance(inst, ir.Assign))
    return assigned[name] == 1


def _uncounted(*args):
    """A reference count's change left out."""


def _lower_assign(lower, ty, inst, _numba=lowering.Lower.lower_assign):
    """numba's lowering of an assignment; an argument to a variable ``_borrows`` takes without counting it."""
    if isinstance(inst.value, ir.Arg) and _borrows(lower, inst.target.name):
        lower.__dict__.setdefault("_borrowed", set()).add(inst.target.name)
        lower.incref = _uncounted
        try:
            return _numba(lower, ty, inst)
        finally:
            del lower.incref
    return _numba(lower, ty, inst)


def _delvar(lower, name, _numba=lowering.Lower.delvar):
    """numba's end of a variable; a borrowed one gives nothing back."""
    if name in lower.__dict__.get("_borrowed", ()):
        lower.decref = _uncounted
        try:
            return _numba(lower, name)
        finally:
            del lower.decref
    return _numba(lower, name)


lowering.Lower.lower_assign, lowering.Lower.delvar = _lower_assign, _delvar


def apart_symbol(py_func, args):
    """The name an apart function's code is registered under, for arguments of types ``args``: the same in every
    process, so that a caller's cached code finds it."""
    key = f"{py_func.__module__}.{py_func.__qualname__}@{Path(py_func.__code__.co_filename).name}{tuple(args)}"
    return APART_PREFIX + hashlib.sha256(key.encode()).hexdigest()[:24]


APART_PREFIX = "romesim_apart_"
_APART_NAME = re.compile(rb"romesim_apart_[0-9a-f]{24}")
_REGISTERED = set()  # the apart symbols of this process
_APART = []  # every function made with apart=True
FUNCTIONS = []  # every function typed by types (``options`` given), for ``core.parallel_compile``


def _call_by_symbol(fndesc, symbol):
    """numba's call of a compiled function (``imputils.user_function``), to the code registered as ``symbol``
    instead of a copy linked into the caller."""
    renamed = copy.copy(fndesc)
    renamed.mangled_name = symbol
    return user_function(renamed, ())


def _load_apart(symbols):
    """Load from numba's cache the apart functions registered as ``symbols``; whether all of them are now."""
    missing = symbols - _REGISTERED
    for dispatcher in _APART:
        if not missing:
            break
        twin = dispatcher.callee
        if isinstance(twin._cache, FunctionCache):
            for key in twin._cache._cache_file._load_index():  # each signature it was saved for
                if apart_symbol(twin.py_func, sigutils.normalize_signature(key[0])[0]) in missing:
                    roomy(twin.compile, key[0])
        missing -= _REGISTERED
    return not missing


class RomesimCache(FunctionCache):
    """numba's cache of a romesim function, which loads a function only once the apart functions its code calls
    are loaded (``ApartCallee``): a cached function whose apart callees are not in the cache is compiled again."""

    def _load_overload(self, sig, target_context):
        if not self._enabled:
            return None
        data = self._cache_file.load(self._index_key(sig, target_context.codegen()))
        if data is None:
            return None
        code = data[0][2]  # the code library's object code, and its LLVM bitcode for linking
        code = code if isinstance(code, bytes) else b"".join(part for part in code if isinstance(part, bytes))
        if not _load_apart({found.decode() for found in _APART_NAME.findall(code)}):
            return None
        return self._impl.rebuild(target_context, data)


class _CalleeCache(RomesimCache):
    """numba's cache of a ``Callee``, in files of its own: numba keys its cache by signature and source, not by the
    options a function was compiled with, and a callee loaded for a call from Python would have no entry point."""

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cache_file = IndexDataCacheFile(cache_path=self._cache_path,
                                              filename_base=self._impl.filename_base + ".callee",
                                              source_stamp=self._impl.locator.get_source_stamp())


def njit(function=None, apart=False, **options):
    """``numba.njit(function, **options)``, typed by types (``TypedByTypes``); as ``@njit`` or ``@njit(...)``.
    ``apart=True``: called by compiled code at its address, not copied into its callers (``ApartCallee``).
    ``inline="llvm"``: inlined by every caller once compiled (see the module; numba's ``inline="always"`` where
    numba's compiler lacks what it takes)."""
    inline = options.get("inline") == "llvm"
    if inline:
        options = {**options, "inline": "never"} if LINKED_ONLY else {**options, "inline": "always"}
    if callable(function):
        return _typed_by_types(numba.njit(**options)(function), options, apart, inline)
    return lambda f: _typed_by_types(numba.njit(function, **options)(f), None if function is not None else options,
                                     apart, inline)


def _typed_by_types(dispatcher, options, apart=False, inline=False):
    if type(dispatcher) is CPUDispatcher:  # not under NUMBA_DISABLE_JIT, where numba returns the function
        dispatcher.__class__ = TypedByTypes
        dispatcher._options = options
        dispatcher._inline = inline and LINKED_ONLY and options is not None
        if type(dispatcher._cache) is FunctionCache:  # made by numba.njit(cache=True): loaded the romesim way
            dispatcher._cache.__class__ = RomesimCache
        if options is not None:
            FUNCTIONS.append(dispatcher)
        if apart:
            if options is None:
                raise TypeError(f"{dispatcher.__name__}: an apart function is typed by its callers, not signatures")
            dispatcher._apart = True
            _APART.append(dispatcher)
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
