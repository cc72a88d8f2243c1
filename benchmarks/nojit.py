"""A case's own kernel run with ``NUMBA_DISABLE_JIT=1``, in a child process.

Whole games have no independent plain-Python twin (the exact answers of their parts are their cross-check), so their
kernel/Python ratio is against the same code interpreted. The child prints ``[games/s, n, p_win]`` with seed 0.
"""
import json
import os
import subprocess
import sys

START_N = 20  # interpreted whole games run at tens to thousands a second; best_rate grows n from here


def nojit_rate(case, n, min_time):
    """``(games/s, n, p_win)`` of ``case`` interpreted: the same kernel with numba's compiler switched off."""
    spec = json.dumps({"scenario": case.scenario, "params": case.params, "n": min(n, START_N), "min_time": min_time})
    child = subprocess.run([sys.executable, "-m", "benchmarks.nojit", spec], capture_output=True, text=True,
                           env=dict(os.environ, NUMBA_DISABLE_JIT="1"))
    if child.returncode:
        raise RuntimeError(f"{case.scenario} {case.case} under NUMBA_DISABLE_JIT=1 failed:\n{child.stderr}")
    return tuple(json.loads(child.stdout.splitlines()[-1]))


def main(spec):
    import romesim

    from .runner import best_rate

    spec = json.loads(spec)
    scenario = romesim.scenario(spec["scenario"], **spec["params"])
    rate, n, result = best_rate(lambda k: romesim.simulate(scenario, k, progress=False), spec["n"],
                                spec["min_time"], repeats=1)
    print(json.dumps([rate, n, result["p_win"]]))


if __name__ == "__main__":
    main(sys.argv[1])
