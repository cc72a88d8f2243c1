"""Before the test workers start, compile every registered scenario's kernel once, one process per worker.

Each worker runs whole test files, and two workers that need the same kernel at the same moment would both compile
it (numba writes its disk cache only when a compilation ends). Compiling every kernel once beforehand lets the
workers, the notebooks and their child processes load them from the cache. Only for a whole-suite run
(``pytest`` with no paths): a run of a few files compiles just what it uses.
"""
from pathlib import Path


def _source_size(name):
    """The kernel module's size: a rough, self-maintaining guess of its compile time (largest first)."""
    import romesim

    kernel = romesim.scenario(name).kernel
    # a kernel that calls its game compiled apart (``core.loop.MachineKernel``) holds the parallel loop in ``kernel``
    function = getattr(kernel, "py_func", None) or kernel.kernel.py_func
    return Path(function.__code__.co_filename).stat().st_size


def _compile(name):
    import romesim

    romesim.simulate(name, 1, progress=False)


def pytest_configure(config):
    workers = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not workers or config.args_source != config.ArgsSource.TESTPATHS:
        return
    from joblib import Parallel, delayed

    import romesim

    names = sorted(romesim.list_scenarios()["scenario"], key=_source_size, reverse=True)
    Parallel(n_jobs=int(workers), batch_size=1)(delayed(_compile)(name) for name in names)
