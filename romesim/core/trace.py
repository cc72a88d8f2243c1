"""A trace of one game: every die, decision and rule procedure in the order the kernel played them.

``trace(scenario, game=K, seed=S, policies=...)`` replays game ``K`` of the run ``simulate(scenario, n, S,
policies=...)`` (any ``n > K``): the same kernel, on the same dice stream, interpreted by Python in a child process
started with ``NUMBA_DISABLE_JIT=1`` (the tests check that the interpreted kernels give the compiled results). A
profiler hook in the child sees every call, so the trace needs nothing from the games beyond what they already
are:

* a *die* is a return from ``romesim.core.rng.dn``: its value, its sides, the game function that rolled it and
  that line of source;
* a *decision* is a call of a game's ``decide_*`` function: the decision point (found from the parameter row or
  the point index the kernel passed), its state by entry name, what the actions mean, and the action taken;
* a *rule* is a call of a game function whose docstring cites a rule (``KoR 5.5``, ``JUG-A4``, ``P8.3`` …).

Each event also has ``where``: the chain of game functions it happened in. User functions (``@numba.njit``) are
sent to the child by value with cloudpickle, so a bot defined in a notebook can be traced too.
"""
import linecache
import os
import pickle
import re
import subprocess
import sys

import numpy as np
import pandas as pd

from .errors import RomesimError, ScenarioError

RULE = re.compile(r"\b(?:KoR \d+(?:\.\d+)*(?: [a-c](?:-[a-c])?)?|KOR-A\d+|JUG(?:-A)?[ -]?\d+(?:\.\d+)*|"
                  r"VP(?:-A)?[ -]?\d+(?:\.\d+)*|SV(?:-A)?[ -]?\d+(?:\.\d+)*|P\d+(?:\.\d+)*)")
COLUMNS = ("kind", "where", "rule", "what", "value", "sides", "point", "state", "actions")
STATE_SHOWN = 16  # state entries a narrative line shows (a Vox Populi view has 1917; the table keeps them all)
_GAMES = ("romesim.kings_of_rome", "romesim.jugule", "romesim.vox_populi", "romesim.semper_victor")


class Trace(pd.DataFrame):
    """One game's events (``COLUMNS``), in order; ``outcome`` is the game's outcome row as a dict."""

    _metadata = ["scenario_name", "game", "seed", "outcome", "error"]

    @property
    def _constructor(self):
        return Trace

    def narrative(self):
        """The game as readable text, one event a line."""
        lines = [f"{self.scenario_name}, game {self.game} of seed {self.seed}"]
        for step, e in zip(self.index, self.itertuples(index=False)):
            rule = f" [{e.rule}]" if e.rule else ""
            where = e.where.rsplit(" > ", 1)[-1]
            if e.kind == "die":
                lines.append(f"{step:4d}  {where}{rule}: d{e.sides} = {e.value}   ({e.what})")
            elif e.kind == "decision":
                shown = list(e.state.items())
                state = ", ".join(f"{k}={v}" for k, v in shown[:STATE_SHOWN]) + (
                    f", … ({len(shown) - STATE_SHOWN} more in the table)" if len(shown) > STATE_SHOWN else "")
                lines.append(f"{step:4d}  decision {e.point}{rule}: {state} -> action {e.value}   ({e.actions})")
            elif e.kind == "rule":
                lines.append(f"{step:4d}  {e.what}{rule}")
        if self.error:
            lines.append(f"stopped: {self.error}")
        if self.outcome is not None:
            lines.append("outcome: " + ", ".join(f"{k}={v}" for k, v in self.outcome.items()))
        return "\n".join(lines)


def trace(scenario, game=0, seed=0, *, policies=None, timeout=600):
    """Game ``game`` of ``simulate(scenario, n, seed, policies=policies)``, event by event, as a ``Trace``."""
    import cloudpickle

    from .engine import MAX_GAME, MAX_SEED, _as_scenario, _check_int
    from .policy import resolve
    scenario = _as_scenario(scenario)
    game = _check_int("game", game, 0, MAX_GAME)
    seed = _check_int("seed", seed, 0, MAX_SEED)
    resolve(scenario.decision_points, policies)  # the parent names a bad policy, as simulate would
    plain = {k: _as_python(v) for k, v in (policies or {}).items()}
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    payload = cloudpickle.dumps((scenario, game, seed, plain))
    done = subprocess.run([sys.executable, "-m", "romesim.core.trace"], input=payload, capture_output=True,
                          env=env, timeout=timeout)
    if done.returncode != 0:
        raise RomesimError(f"trace of {scenario.name} game {game}: the replay failed: "
                           + done.stderr.decode(errors="replace").strip().splitlines()[-1:][0])
    events, outcome, error = pickle.loads(done.stdout)
    frame = Trace(events, columns=list(COLUMNS)).astype({"value": "Int64", "sides": "Int64"})
    frame.index.name = "step"
    frame.scenario_name, frame.game, frame.seed, frame.outcome, frame.error = scenario.name, game, seed, outcome, \
        error
    return frame


def _as_python(spec):
    """A policy spec with user functions replaced by their Python source function (what the child interprets)."""
    if isinstance(spec, (tuple, list)) and len(spec) == 2:
        return (_as_python(spec[0]), spec[1])
    return getattr(spec, "py_func", spec)


def typical_game(result, metric=None):
    """The game of ``result`` whose ``metric`` (default: the headline) is closest to its mean, traced."""
    if result.is_exact:
        raise ScenarioError("typical_game: an exact result has no games; use a simulated result")
    metric = metric or result.metrics[0]
    if metric not in result.metrics:
        raise ScenarioError(f"metric: {metric!r} is not a metric of {result.scenario.name}; "
                            f"metrics: {', '.join(result.metrics)}")
    try:
        values = result.outcomes[metric].to_numpy()
    except AttributeError:
        raise ScenarioError("typical_game: per-game outcomes were not kept; run simulate(..., keep=True)") from None
    game = int(np.argmin(np.abs(values - values.mean())))
    return trace(result.scenario, game, result.seed, policies=result.policy_specs)


class _Recorder:
    """The child's profiler hook: turns calls and returns of the interpreted kernel into events."""

    def __init__(self, scenario, resolved):
        self.points = scenario.decision_points
        self.params = resolved.params
        self.events, self.stack, self.deciding = [], [], None

    def __call__(self, frame, event, arg):
        module = frame.f_globals.get("__name__", "")
        name = frame.f_code.co_name
        if module == "romesim.core.rng":
            if event == "return" and name == "dn":
                self._die(frame, arg)
            return
        if not module.startswith(_GAMES):
            return
        if event == "call":
            self.stack.append(name)
            if name.startswith("decide") and self.deciding is None:
                self.deciding = (frame, len(self.events))
                self.events.append(self._decision(frame))
            else:
                doc = getattr(frame.f_globals.get(name), "__doc__", None) or ""
                rule = RULE.search(doc)
                if rule:
                    first = doc.strip().split("\n\n")[0].replace("\n", " ")
                    self.events.append(("rule", self._where(), rule.group(0), f"{name}: {first}", None, None,
                                        None, None, None))
        elif event == "return":
            if self.stack:
                self.stack.pop()
            if self.deciding is not None and self.deciding[0] is frame:
                row = list(self.events[self.deciding[1]])
                action = arg[0] if isinstance(arg, tuple) else arg  # Vox's decide returns (action, error)
                row[4] = None if action is None else int(action)
                self.events[self.deciding[1]] = tuple(row)
                self.deciding = None

    def _where(self):
        return " > ".join(n for n in self.stack if not n.startswith("<"))

    def _die(self, frame, value):
        caller = frame.f_back
        while caller is not None and caller.f_globals.get("__name__") == "romesim.core.rng":
            caller = caller.f_back
        line = linecache.getline(caller.f_code.co_filename, caller.f_lineno).strip() if caller else ""
        doc = getattr(caller.f_globals.get(caller.f_code.co_name), "__doc__", None) if caller else None
        rule = RULE.search(doc or "")
        self.events.append(("die", self._where(), rule.group(0) if rule else "", line, int(value),
                            int(frame.f_locals["n"]), None, None, None))

    def _decision(self, frame):
        local = frame.f_locals
        index = -1
        if "offset" in local and "point" in local:
            index = int(local["offset"]) + int(local["point"])
        elif "seat" in local and "params" in local and np.ndim(local["params"]) == 2:  # one decision point a seat
            index = int(local["seat"])
        elif isinstance(local.get("params"), np.ndarray) and local["params"].ndim == 1:
            row = local["params"]
            for i in range(self.params.shape[0]):
                if np.shares_memory(row, self.params[i]):
                    index = i
                    break
        state = local.get("state", local.get("view", ()))
        state = np.asarray(state, np.int64).ravel().tolist() if isinstance(state, np.ndarray) else []
        if 0 <= index < len(self.points):
            dp = self.points[index]
            return ("decision", self._where(), dp.rule, frame.f_code.co_name, None, None, dp.name,
                    dict(zip(dp.state, state)), dp.actions)
        return ("decision", self._where(), "", frame.f_code.co_name, None, None, frame.f_code.co_name,
                {f"[{i}]": v for i, v in enumerate(state)}, "")


def _child():
    from . import engine
    from .errors import PolicyError
    from .policy import resolve
    scenario, game, seed, policies = pickle.loads(sys.stdin.buffer.read())
    resolved = resolve(scenario.decision_points, policies)
    recorder = _Recorder(scenario, resolved)
    outcome, error = None, None
    sys.setprofile(recorder)
    try:
        _, _, out = engine.run_chunk(scenario, seed, game, 1, resolved, keep=True)
    except PolicyError as e:
        error = str(e)
    finally:
        sys.setprofile(None)
    if error is None:
        outcome = {m: int(out[i, 0]) for i, m in enumerate(scenario.metrics)}
    sys.stdout.buffer.write(pickle.dumps((recorder.events, outcome, error)))


if __name__ == "__main__":
    _child()
