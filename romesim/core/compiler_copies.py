"""Two copies numba's compiler makes that cost most of a cold compile of a whole game, made cheaply; and the
compiler's flags compared cheaply.

Both are ``copy.deepcopy`` calls whose result is the same when made another way; each module's ``copy`` is
replaced by an object that makes those two copies that way and hands every other call to ``copy``. The compiled
code does not change: every scenario plays the same games, bit for bit, compiled with and without
(``tests/test_jit.py`` checks the copies themselves). Where numba's modules do not use ``copy`` as numba 0.68
does, nothing is replaced.

* ``inline_closurecall.InlineWorker.inline_ir`` (``inline="always"``) deep-copies a callee's IR block by block,
  each block with a memo of its own; every block refers to the function's scope, which holds every variable, so
  a copy costs blocks x variables, twice per call site (numba issue 8989). A game inlines its rules into one
  kernel, the callee grows at each level, and these copies were a third of a cold compile (the siege: 18 s of
  50). Here the blocks of one scope share one memo during an ``inline_ir``: the copy has the original's
  structure, whose blocks share one scope and its variables.
* ``ir_utils.copy_propagate`` and ``find_potential_aliases`` iterate to a fixed point and deep-copy their table,
  a dict of sets of variable names (or pairs of them), at each step. Strings and tuples of strings are immutable,
  so the deep copy is the dict of copied sets, made here without visiting each element (the siege: 13 s).

And ``TargetConfig.values``: numba looks up each typed call in a cache keyed by the compiler's flags, whose hash
and equality build the dict of every option's value through its property, forty options a time; typing a whole
game made half a million such dicts (the campaign: 15 million property calls, a tenth of its cold compile). The
dict is the same, read from the flags' own values and the options' defaults.
"""
import copy
import sys

from numba.core import inline_closurecall, ir, ir_utils, targetconfig


class _BlocksOfOneScope:
    """``copy`` for ``inline_closurecall``: inside ``inline_ir``, a block is copied with its scope's memo."""

    memos = None  # id(scope) -> memo, during one inline_ir

    def deepcopy(self, x, memo=None):
        if memo is None and self.memos is not None and isinstance(x, ir.Block):
            memo = self.memos.setdefault(id(x.scope), {})
        return copy.deepcopy(x, memo)

    def __getattr__(self, name):
        return getattr(copy, name)


class _SetsOfNames:
    """``copy`` for ``ir_utils``: the fixed-point tables of ``copy_propagate`` and ``find_potential_aliases``,
    dicts of sets of variable names or of pairs of them, are copied set by set."""

    callers = frozenset({"copy_propagate", "find_potential_aliases"})

    def deepcopy(self, x, memo=None):
        if (memo is None and type(x) is dict and sys._getframe(1).f_code.co_name in self.callers
                and all(type(v) is set for v in x.values())):
            return {k: set(v) for k, v in x.items()}
        return copy.deepcopy(x, memo)

    def __getattr__(self, name):
        return getattr(copy, name)


_DEFAULTS = {}  # a TargetConfig class -> its options' (name, default) pairs, in its order


def _values(self):
    defaults = _DEFAULTS.get(type(self))
    if defaults is None:
        defaults = _DEFAULTS[type(self)] = tuple((name, option.default) for name, option in self.options.items())
    get = self._values.get
    return {name: get(name, default) for name, default in defaults}


def _install():
    worker = getattr(inline_closurecall, "InlineWorker", None)
    if worker is not None and getattr(inline_closurecall, "copy", None) is copy:
        blocks = inline_closurecall.copy = _BlocksOfOneScope()
        inline_ir = worker.inline_ir

        def inline_ir_copying_scopes_once(self, *args, **kwargs):
            saved, blocks.memos = blocks.memos, {}
            try:
                return inline_ir(self, *args, **kwargs)
            finally:
                blocks.memos = saved

        worker.inline_ir = inline_ir_copying_scopes_once
    if getattr(ir_utils, "copy", None) is copy:
        ir_utils.copy = _SetsOfNames()
    config = getattr(targetconfig, "TargetConfig", None)
    if config is not None and "_values" in getattr(config, "__slots__", ()):
        config.values = _values


_install()
