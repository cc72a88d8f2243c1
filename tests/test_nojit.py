"""Every scenario interpreted (``NUMBA_DISABLE_JIT=1``) gives the compiled kernel's outcomes, game by game.

The interpreted kernels are what ``romesim.trace`` replays and what the benchmarks' whole-game ratios divide by,
so they must be the same games. One child process plays every registered scenario's first games.
"""
import json
import os
import subprocess
import sys

import numpy as np

import romesim
from romesim.core.scenario import _REGISTRY

# whole games are slow when interpreted: a few of them show as much as many small procedures
GAMES = {"jugule.duel": 6, "jugule.career": 2, "jugule.career_ladder": 2, "vox_populi.game": 2,
         "kings_of_rome.battle": 20, "kings_of_rome.ambush": 20, "semper_victor.battle": 20,
         "semper_victor.usurpation": 20, "kings_of_rome.campaign": 3}
N = 60
SEED = 11

CHILD = """
import json, sys
import romesim
from romesim.core.scenario import _REGISTRY
games = json.loads(sys.argv[1])
out = {}
for name in sorted(_REGISTRY):
    r = romesim.simulate(name, games.get(name, %d), seed=%d, keep=True, progress=False)
    out[name] = r.outcomes.to_numpy().tolist()
print(json.dumps(out))
""" % (N, SEED)


def test_every_scenario_interpreted_equals_compiled():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(GAMES)], capture_output=True, text=True,
                          env=env, timeout=900, check=True)
    interpreted = json.loads(done.stdout)
    assert sorted(interpreted) == sorted(_REGISTRY)
    for name, rows in interpreted.items():
        compiled = romesim.simulate(name, GAMES.get(name, N), seed=SEED, keep=True, progress=False)
        np.testing.assert_array_equal(np.array(rows, np.int64).reshape(compiled.outcomes.shape),
                                      compiled.outcomes.to_numpy(), err_msg=name)
