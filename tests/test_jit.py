"""romesim's numba functions are compiled once per type signature, not once per constant they are called with."""
import importlib
import pkgutil

import numba
import pytest
from numba.core.registry import CPUDispatcher

import romesim
from romesim.core.jit import TypedByTypes, njit

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="compiled functions only")


def test_a_function_called_with_several_constants_compiles_once():
    @njit
    def scaled(x, k):
        return x * k

    @njit
    def caller(x):
        return scaled(x, 2) + scaled(x, 3) + scaled(x, 4)

    assert caller(5) == 45
    assert scaled.callee.signatures == [(numba.int64, numba.int64)]


def test_compiled_code_calls_the_function_compiled_without_python_wrappers():
    """A call from compiled code compiles the function's ``callee`` (no CPython or C wrapper); Python calls the
    function itself, compiled apart with both; each has cache files of its own."""
    import numpy as np
    from romesim.core.jit import Callee, RomesimCache
    from romesim.kings_of_rome import treason

    @njit
    def inner(a, k):
        return a.sum() * k

    @njit
    def outer(a):
        return inner(a, 3)

    values = np.arange(4)
    assert outer(values) == 18
    assert isinstance(inner.callee, Callee) and inner.callee.callee is inner.callee
    assert inner.signatures == [] and len(inner.callee.signatures) == 1
    compiled = inner.callee.overloads[inner.callee.signatures[0]]
    assert compiled.fndesc.llvm_cpython_wrapper_name not in compiled.library.get_llvm_str()
    assert compiled.fndesc.llvm_cfunc_wrapper_name not in compiled.library.get_llvm_str()
    assert inner(values, 2) == 12  # from Python: the function itself, with its wrappers
    compiled = inner.overloads[inner.signatures[0]]
    assert compiled.fndesc.llvm_cpython_wrapper_name in compiled.library.get_llvm_str()
    own = treason.treason_game._cache
    callee = treason.treason_game.callee._cache
    assert type(own) is RomesimCache and callee._cache_file._index_name == own._cache_file._index_name.replace(
        ".nbi", ".callee.nbi")


def test_an_apart_function_is_called_at_its_address_not_copied_into_its_callers():
    """``njit(apart=True)``: the caller's code declares the callee's registered name and holds none of its code."""
    import numpy as np

    from romesim.core.jit import APART_PREFIX, apart_symbol

    @njit(apart=True)
    def heavy(a, k):
        total = 0
        for x in a:
            total += x * k
        return total

    @njit
    def caller(a):
        return heavy(a, 2) + heavy(a, 3)

    values = np.arange(5)
    assert caller(values) == 50
    (args,) = heavy.callee.signatures
    compiled = heavy.callee.overloads[args]
    symbol = apart_symbol(heavy.py_func, args)
    assert symbol.startswith(APART_PREFIX)
    code = caller.overloads[caller.signatures[0]].library.get_llvm_str()
    assert f'declare i32 @"{symbol}"' in code or f"declare i32 @{symbol}" in code
    assert f'define linkonce_odr i32 @"{compiled.fndesc.mangled_name}"' not in code
    assert compiled.fndesc.mangled_name not in code


APART_MODULE = """
from romesim.core.jit import njit

@njit(cache=True, apart=True)
def heavy(a, k):
    return a.sum() * k

@njit(cache=True)
def caller(a):
    return heavy(a, 2) + 1
"""

APART_RUN = """
import sys, numpy as np
sys.path.insert(0, sys.argv[1])
import apart_module
print(apart_module.caller(np.arange(5)), apart_module.caller.stats.cache_hits.total(),
      apart_module.caller.stats.cache_misses.total())
"""


def test_a_cached_caller_loads_its_apart_callees_first_or_compiles_again(tmp_path):
    """A new process loads a caller from numba's cache only after the apart functions it calls (their names are in
    its object code); where one of them is not in the cache, the caller compiles again instead of being loaded
    with a call that nothing answers (LLVM would end the process)."""
    import os
    import subprocess
    import sys

    (tmp_path / "apart_module.py").write_text(APART_MODULE)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))

    def run():
        done = subprocess.run([sys.executable, "-c", APART_RUN, str(tmp_path)], env=env, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        return [int(x) for x in done.stdout.split()]

    assert run() == [21, 0, 1]  # compiled and saved
    assert run() == [21, 1, 0]  # loaded, callee first
    callee_files = [f for f in (tmp_path / "cache").rglob("*heavy*") if ".callee." in f.name]
    assert callee_files
    for f in callee_files:
        f.unlink()
    assert run() == [21, 0, 1]  # the callee is gone: the caller compiles again


def test_a_callee_is_linked_into_its_callers_and_never_made_machine_code():
    """A ``Callee``'s code is a ``LinkedOnlyLibrary``: linked into its callers and made machine code there, never on
    its own; an apart function and a kernel are machine code."""
    import numpy as np

    from romesim.core.jit import LinkedOnlyLibrary

    @njit
    def inner(a, k):
        return a.sum() * k

    @njit(apart=True)
    def middle(a):
        return inner(a, 2) + 1

    @njit
    def outer(a):
        return middle(a) + inner(a, 3)

    assert outer(np.arange(4)) == 13 + 18
    linked = inner.callee.overloads[inner.callee.signatures[0]].library
    assert isinstance(linked, LinkedOnlyLibrary) and not linked._compiled
    for function in (middle.callee, outer):
        library = function.overloads[function.signatures[0]].library
        assert not isinstance(library, LinkedOnlyLibrary)


def test_an_llvm_inlined_function_is_compiled_once_and_copied_into_each_caller():
    """``njit(inline="llvm")``: numba compiles the function once, as a callee (numba's ``inline="always"`` would
    type and lower its bytecode again at each of the four call sites); its linked code carries LLVM's
    ``alwaysinline``, so its caller's code holds no call to it; the same function without it carries no such mark
    (whether LLVM inlines it then is its own cost model's choice, which varies with the CPU); Python calls it as any
    function. The dice of ``core.rng`` are made so."""
    import numpy as np

    from romesim.core import rng
    from romesim.core.jit import LinkedOnlyLibrary

    def scramble(a, k):
        for i in range(a.size):
            if a[i] % 3 == k:
                a[i] = a[i] * 7 + k
            elif a[i] % 5 == 1:
                a[i] -= k * i
            else:
                a[i] ^= i + k
        return a.sum()

    def calls(function):
        @njit
        def caller(a):
            return function(a, 1) + function(a, 2) + function(a, 3) + function(a, 4)

        values = np.arange(10)
        total = caller(values)
        (args,) = function.callee.signatures
        name = function.callee.overloads[args].fndesc.mangled_name
        code = caller.overloads[caller.signatures[0]].library.get_llvm_str()
        return total, list(values), sum(f"call i32 @{name}" in line for line in code.splitlines())

    inlined, plain = njit(inline="llvm")(scramble), njit(scramble)
    expected = np.arange(10)
    total = sum(scramble(expected, k) for k in (1, 2, 3, 4))
    assert calls(inlined) == (total, list(expected), 0)
    assert calls(plain)[:2] == (total, list(expected))
    marked = ["alwaysinline" in str(linked.get_llvm_str())
              for linked in (f.callee.overloads[f.callee.signatures[0]].library for f in (inlined, plain))]
    assert marked == [True, False]
    assert inlined(np.arange(10), 1) == scramble(np.arange(10), 1)  # from Python
    library = inlined.callee.overloads[inlined.callee.signatures[0]].library
    assert isinstance(library, LinkedOnlyLibrary) and library.always_inline
    assert rng.d6._inline and rng.dn._inline and not rng.new_stream._inline


LINKED_MODULE = """
from romesim.core.jit import njit

@njit(cache=True)
def inner(a, k):
    return a.sum() * k

@njit(cache=True)
def first(a):
    return inner(a, 2)

@njit(cache=True)
def second(a):
    return inner(a, 3) + 1
"""

LINKED_RUN = """
import sys, numpy as np
sys.path.insert(0, sys.argv[1])
import linked_module
caller = getattr(linked_module, sys.argv[2])
print(caller(np.arange(5)), linked_module.inner.callee.stats.cache_hits.total())
"""


def test_a_callee_saved_in_the_cache_is_linked_into_a_caller_compiled_later(tmp_path):
    """The cache keeps a callee's code for linking only; a new process compiling another caller loads it from
    there (as a user's bot recompiles the functions that call it) and gets the same answers."""
    import os
    import subprocess
    import sys

    (tmp_path / "linked_module.py").write_text(LINKED_MODULE)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))

    def run(caller):
        done = subprocess.run([sys.executable, "-c", LINKED_RUN, str(tmp_path), caller], env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        return [int(x) for x in done.stdout.split()]

    assert run("first") == [20, 0]  # inner compiled and saved
    assert run("second") == [31, 1]  # inner loaded from the cache, linked into second


def test_the_compiler_s_flags_give_numba_s_values():
    """``TargetConfig.values``, read from the flags' own values and the defaults, is numba's dict, in its order."""
    from numba.core.compiler import Flags

    flags = Flags()
    flags.nrt = True
    flags.boundscheck = False
    flags.inline = "always"
    assert list(flags.values().items()) == [(name, getattr(flags, name)) for name in flags.options]
    assert flags == Flags(flags) and hash(flags) == hash(Flags(flags))
    other = Flags(flags)
    other.nrt = False
    assert flags != other


def test_numba_s_own_rules_for_other_functions():
    """A plain numba function called from compiled code still compiles per constant (what romesim avoids)."""
    @numba.njit
    def scaled(x, k):
        return x * k

    @njit
    def caller(x):
        return scaled(x, 2) + scaled(x, 3)

    assert caller(5) == 25
    assert len(scaled.signatures) == 2


def test_every_numba_function_of_romesim_uses_the_jit_decorator():
    plain = []
    for module_info in pkgutil.walk_packages(romesim.__path__, "romesim."):
        if module_info.name.endswith("__main__"):
            continue  # the command line, which runs on import
        try:
            module = importlib.import_module(module_info.name)
        except ImportError:
            if module_info.name.startswith("romesim.adapters."):
                continue  # an optional extra (romesim[rl]) that is not installed
            raise
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__:
                if not isinstance(value, TypedByTypes):
                    plain.append(f"{module.__name__}.{name}")
    assert plain == []


def test_numba_s_inliner_and_copy_propagation_use_the_cheaper_copies():
    from numba.core import inline_closurecall, ir_utils

    from romesim.core import compiler_copies

    assert isinstance(inline_closurecall.copy, compiler_copies._BlocksOfOneScope)
    assert isinstance(ir_utils.copy, compiler_copies._SetsOfNames)


def test_a_table_of_names_is_copied_as_a_deep_copy_would():
    import copy

    from romesim.core.compiler_copies import _SetsOfNames

    table = {0: {("a", "b"), ("c", "d")}, 3: set(), 7: {("a", "e")}}

    def copy_propagate(x):  # named as numba's caller: the table is copied set by set
        return _SetsOfNames().deepcopy(x)

    copied = copy_propagate(table)
    assert copied == copy.deepcopy(table)
    assert all(copied[k] is not table[k] for k in table)
    copied[0].add(("x", "y"))
    assert ("x", "y") not in table[0]
    other = {0: [["mutable"]]}  # another caller, or another table: copy.deepcopy itself
    deep = _SetsOfNames().deepcopy(other)
    assert deep == other and deep[0][0] is not other[0][0]


def test_nested_inlined_functions_compile_to_the_same_results():
    """Blocks copied with their scope's memo: a function inlined at several sites, with branches and loops, and
    inlined again into its caller, computes what the Python functions compute."""
    def step(x, k):
        total = 0
        for i in range(k):
            if (x + i) % 3 == 0:
                total += i
            elif x > i:
                total -= 1
        return total

    def middle(x):
        return step(x, 4) + 2 * step(x + 1, 5) - step(x - 2, 3)

    def outer(x):
        a = middle(x)
        b = middle(a) if a > 0 else step(a, 2)
        return a * 100 + b

    expected = [outer(x) for x in range(-5, 12)]
    step = njit(inline="always")(step)  # the closures now call the compiled functions
    middle = njit(inline="always")(middle)
    outer = njit(outer)
    assert [outer(x) for x in range(-5, 12)] == expected
    assert len(set(expected)) > 5


def test_a_borrowed_view_is_the_array_itself_without_its_reference_count():
    """core.loop.borrowed: what the block loop hands a game is its array (same memory, shape and strides; writes
    go through), not a copy; anything else comes back as it is."""
    import numpy as np
    from romesim.core.loop import borrowed

    @numba.njit
    def write_through(owner, tables):
        view = borrowed(owner)
        view[1, 2] = 7
        sliced = borrowed(owner[:, 1])
        sliced[0] = -1
        return view.shape, view.strides, borrowed(3), borrowed(tables)[1]

    owner = np.zeros((2, 3), np.int64)
    shape, strides, three, second = write_through(owner, (1, 2))
    assert (shape, strides, three, second) == ((2, 3), owner.strides, 3, 2)
    assert owner.tolist() == [[0, -1, 0], [0, 0, 7]]


def _as_romesim_code(function):
    """``function`` as if defined in a romesim module (whose functions borrow their arguments)."""
    function.__module__ = "romesim._probe"
    return function


def test_a_romesim_function_borrows_its_arguments_and_counts_every_other_reference():
    """core.jit's borrowed arguments: a romesim function's code counts no reference to its array arguments, where
    numba's own rules count one in each inlined call of a rule with branches (the campaign's ``own_unit`` in a loop
    over the counters); what a function returns, slices or keeps in a tuple is counted as numba counts it, so the
    arrays' reference counts are the same after a thousand calls."""
    import sys

    import numpy as np

    def rules(romesim_code):  # the campaign's own_unit, counted over the counters, in a romesim module or not
        tag = _as_romesim_code if romesim_code else (lambda function: function)

        @njit
        @tag
        def is_kind(tok, t, kind):
            return tok[t, 0] == kind or (kind < 0 and tok[t, 0] <= 1)

        @njit
        @tag
        def invader(tok, t):
            return tok[t, 3] > 0 if tok[t, 0] != 2 else tok[t, 3] == 5

        @njit
        @tag
        def own(tok, ts, t, people):
            return ts[t, 0] == 6 and ts[t, 1] == 1 and is_kind(tok, t, -1) and tok[t, 2] == people and \
                not invader(tok, t)

        @njit
        @tag
        def count(tok, ts):
            n = 0
            for t in range(ts.shape[0]):
                if own(tok, ts, t, tok[t, 2]):
                    n += 1
            return n
        return count

    def increfs(function):
        code = function.overloads[function.signatures[0]].library.get_llvm_str()
        return sum("@NRT_incref(ptr %arg." in line for line in code.splitlines())

    tok, ts = np.zeros((20, 4), np.int64), np.zeros((20, 2), np.int64)
    ts[::3] = (6, 1)
    borrowing, counting = rules(True), rules(False)  # counting: numba's rules, another module's code
    assert borrowing(tok, ts) == counting(tok, ts) == 7
    assert increfs(borrowing) == 0 and increfs(counting) > 0

    @njit
    @_as_romesim_code
    def keeps(a, k):
        b = a[k:]
        a = a[:k]  # the argument's name assigned again: counted as numba counts it
        return (a, b, b.sum())

    @njit
    @_as_romesim_code
    def same(a):
        return a

    values = np.arange(6)
    before = sys.getrefcount(values)
    for _ in range(1000):
        head, tail, total = keeps(values, 2)
        assert same(values) is values and total == 14 and head.tolist() == [0, 1] and tail.tolist() == [2, 3, 4, 5]
        assert np.shares_memory(head, values) and np.shares_memory(tail, values)
    del head, tail
    assert sys.getrefcount(values) == before


def test_roomy_calls_the_function_from_a_frame_with_room_for_its_calls():
    import sys

    from romesim.core.jit import ROOM, roomy

    def callers_stack():
        return sys._getframe(1).f_code.co_stacksize

    assert roomy(divmod, 17, 5) == (3, 2)
    assert roomy(callers_stack) >= ROOM
