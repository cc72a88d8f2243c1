"""Speed of the romesim kernels, for people who change them.

``python -m benchmarks`` (from the repository root) prints games/s per scenario case on one numba thread and on
all of them, the speed-up over a plain-Python loop of the same procedure (``python_loops``), and how close each
kernel comes to the raw d6 rate of ``romesim.core.rng`` (``dice``); ``--compare benchmarks/baseline.json``
sets a run against the committed baseline. ``bench_kernels`` covers the same ground as an asv suite
(``asv.conf.json`` at the repository root; it runs in the current Python: ``asv machine --yes`` once, then
``asv run -E existing --quick`` or ``asv run -E existing --set-commit-hash $(git rev-parse HEAD)`` to keep results).

Nothing here runs on import: asv imports every module of this package to discover benchmarks.
"""
