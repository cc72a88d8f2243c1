"""A trace of one game: every die, decision and rule procedure in the order the kernel played them.

``trace(scenario, game=K, seed=S, policies=...)`` replays game ``K`` of the run ``simulate(scenario, n, S,
policies=...)`` (any ``n > K``): the same kernel, on the same dice stream, interpreted by Python in a child process
started with ``NUMBA_DISABLE_JIT=1`` (the tests check that the interpreted kernels give the compiled results). A
profiler hook in the child sees every call, so the trace needs nothing from the games beyond what they already
are:

* a *die* is a return from ``romesim.core.rng.dn``: its value, its sides, the game function that rolled it and
  that line of source;
* a *decision* is a call of a game's ``decide_*`` function: the decision point (found from the parameter row or
  the point index the kernel passed), its state by entry name, what the actions mean, the action taken, and
  ``legal``, the actions the rules allowed there (``romesim.new_game`` replays the game to the decision, on the
  same dice, and offers it each candidate; the table's states are the ones a bot saw);
* a *rule* is a call of a game function whose docstring cites a rule (``KoR 5.5``, ``JUG-A4``, ``P8.3`` …).

Each event also has ``where``: the chain of game functions it happened in, and ``context``: what the game's
narrator (``Scenario.narrator()``, ``core.narrative``) read from the game function's frame for its sentence (the
unit that rolled, its target, the round), None where it reads nothing. ``Trace.narrative()`` tells the game in
sentences, a phase, round or turn a heading; ``narrative(detail=True)`` lists every event as the table has it.
User functions (``@numba.njit``) are sent to the child by value with cloudpickle, so a bot defined in a notebook
can be traced too.
"""
import linecache
import os
import pickle
import re
import subprocess
import sys
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .errors import RomesimError, ScenarioError

RULE = re.compile(r"\b(?:KoR \d+(?:\.\d+)*(?: [a-c](?:-[a-c])?)?|KOR-A\d+|JUG(?:-A)?[ -]?\d+(?:\.\d+)*|"
                  r"VP(?:-A)?[ -]?\d+(?:\.\d+)*|SV(?:-A)?[ -]?\d+(?:\.\d+)*|P\d+(?:\.\d+)*)")
COLUMNS = ("kind", "where", "rule", "what", "value", "sides", "point", "state", "actions", "legal", "context")
STATE_SHOWN = 16  # state entries a narrative line shows (a Vox Populi view has 1917; the table keeps them all)
_GAMES = ("romesim.kings_of_rome", "romesim.jugule", "romesim.vox_populi", "romesim.semper_victor")


class Trace(pd.DataFrame):
    """One game's events (``COLUMNS``), in order; ``outcome`` is the game's outcome row as a dict, ``scenario`` the
    scenario traced."""

    _metadata = ["scenario_name", "game", "seed", "outcome", "error", "scenario"]

    @property
    def _constructor(self):
        return Trace

    def narrative(self, detail=False):
        """The game as readable text: the game's sentences (``sentences``), a phase, round or turn a heading, the
        step of each sentence's first event before it, then how it ended and the outcome row. ``detail=True``:
        every event in one generic line (the die and the source line that rolled it, a decision's state by entry
        name and its action, a procedure's rule and first sentence)."""
        lines = [f"{self.scenario_name}, game {self.game} of seed {self.seed}"]
        if detail:
            lines += [f"{step:4d}  {text}" for step, text in self._event_lines()]
            ending = []
        else:
            lines += [f"      {s.text}" if s.heading else f"{s.step:4d}  {s.text}" for s in self.sentences()]
            ending = self._ending()
        if self.error:
            lines.append(f"stopped: {self.error}")
        lines += ending
        if self.outcome is not None:
            lines.append("outcome: " + ", ".join(f"{k}={v}" for k, v in self.outcome.items()))
        return "\n".join(lines)

    def sentences(self):
        """The narrative's lines as ``core.narrative.Sentence`` objects: the game narrator's, in its order, and
        for each event it tells in none the generic line, at its step."""
        from .narrative import Sentence
        told = []
        narrator = self._narrator()
        if narrator is not None:
            try:
                told = list(narrator.sentences(self))
            except Exception as e:  # a narrator's slip must not hide the game: every event keeps its line
                told = [Sentence(0, f"(the narrator of {self.scenario_name} failed: {e!r}; events as in the table)")]
        covered = {step for s in told for step in s.covers}
        generic = [Sentence(step, text, (step,), generic=True) for step, text in self._event_lines()
                   if step not in covered]
        merged, k = [], 0
        for s in told:
            while k < len(generic) and generic[k].step < s.step:
                merged.append(generic[k])
                k += 1
            merged.append(s)
        return [s for s in merged + generic[k:] if s.text]

    def _narrator(self):
        scenario = getattr(self, "scenario", None)
        return scenario.narrator() if scenario is not None else None

    def _ending(self):
        narrator = self._narrator()
        if narrator is None:
            return []
        try:
            return list(narrator.ending(self))
        except Exception as e:
            return [f"(the narrator of {self.scenario_name} failed on the ending: {e!r})"]

    def _event_lines(self):
        """``(step, line)`` for every event, the generic way."""
        for step, e in zip(self.index, self.itertuples(index=False)):
            rule = f" [{e.rule}]" if e.rule else ""
            where = e.where.rsplit(" > ", 1)[-1]
            if e.kind == "die":
                yield step, f"{where}{rule}: d{e.sides} = {e.value}   ({e.what})"
            elif e.kind == "decision":
                shown = list(e.state.items())
                state = ", ".join(f"{k}={v}" for k, v in shown[:STATE_SHOWN]) + (
                    f", … ({len(shown) - STATE_SHOWN} more in the table)" if len(shown) > STATE_SHOWN else "")
                legal = "" if e.legal is None else f" of {e.legal}"
                yield step, f"decision {e.point}{rule}: {state} -> action {e.value}{legal}   ({e.actions})"
            elif e.kind == "rule":
                yield step, f"{e.what}{rule}"


def trace(scenario, game=0, seed=0, *, policies=None, legal=True, timeout=600):
    """Game ``game`` of ``simulate(scenario, n, seed, policies=policies)``, event by event, as a ``Trace``.

    legal: fill each decision's ``legal`` actions (the first trace of a scenario compiles its one-game kernel,
    cached after); False leaves them None."""
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
    events, positions, outcome, error = pickle.loads(done.stdout)
    if legal:
        events = _with_legal(events, positions, scenario, game, seed, policies or {})
    frame = Trace(events, columns=list(COLUMNS)).astype({"value": "Int64", "sides": "Int64"})
    frame.index.name = "step"
    frame.scenario_name, frame.game, frame.seed, frame.outcome, frame.error = scenario.name, game, seed, outcome, \
        error
    frame.scenario = scenario
    return frame


def _with_legal(events, positions, scenario, game, seed, policies):
    """``events`` with the legal actions of each decision the game asked a policy (``new_game`` replays the game
    to it, its other decisions played by ``policies`` as in the trace, and stops at the same point with the same
    state). A decision the game settles without asking (Vox Populi's, when one action is legal) keeps None."""
    from .machine import new_game
    hooks = {dp.name for dp in scenario.decision_points if dp.hook}
    names = {dp.name for dp in scenario.decision_points}
    asked = [i for i, e in enumerate(events) if e[0] == "decision" and e[6] in names and e[6] not in hooks]
    control = sorted({events[i][6] for i in asked})
    state = new_game(scenario, seed, game, policies={k: v for k, v in policies.items() if k not in control},
                     control=control)
    events = list(events)
    for i in asked:
        if state.is_terminal:
            break
        _, _, _, _, action, _, point, seen, _, _, _ = events[i]
        if point != state.point.name or action is None or not _same_state(seen, state.state):
            continue  # not a stop of the game's: a decision it settled without asking
        allowed = state.legal_actions()
        events[i] = (*events[i][:9], allowed, events[i][10])
        if action not in allowed:
            break  # the policy's illegal action ends the game
        state = state._then(action, positions.get(i, (0, 0)))
    return events


def _same_state(seen, state):
    """Whether a traced decision's state (by entry name) is ``state``, but for the entries named ``scratch``: a
    built-in policy's working memory, which the replay's scripted actions leave as they were."""
    return all(value == state[k] for k, (name, value) in enumerate(seen.items()) if not name.startswith("scratch"))


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


@dataclass
class _Pending:
    """A decision whose ``decide_*`` call has not returned yet."""
    frame: object
    at: int  # the index of its event
    state: list
    where: str
    named: bool = False  # its decision point is known


class _Recorder:
    """The child's profiler hook: turns calls and returns of the interpreted kernel into events."""

    def __init__(self, scenario, resolved):
        self.points = scenario.decision_points
        self.params, self.codes = resolved.params, resolved.codes
        self.narrator = scenario.narrator()
        self.events, self.positions, self.stack, self.deciding = [], {}, [], None
        # a state machine's stage is entered again with each answer: its rule is shown once, not at each decision
        self.rules_at, self.resumed = {}, False  # depth -> the function whose rule was shown last there
        self.deciding_at = -1  # the event of the last decision
        self.machine, self.searching = getattr(scenario, "machine", None), None  # the search bot's frame, if one runs
        self.open_rules = {}  # id of a rule procedure's frame -> its event, until it returns

    def _view(self, search):
        """The decision's state in the arrays of the machine whose search is ``search``: the scenario's, or a
        machine its rules play inside it (the campaign's battles), found among the registered scenarios'."""
        from .scenario import registered
        choose = search.removesuffix("_search") + "_choose"
        for machine in (self.machine, *(getattr(cls, "machine", None) for cls in registered())):
            if machine is not None and getattr(machine.decide, "__name__", "") == choose:
                return machine.view
        raise RomesimError(f"trace: no machine's search is {search!r}")

    def __call__(self, frame, event, arg):
        module = frame.f_globals.get("__name__", "")
        name = frame.f_code.co_name
        if self.searching is not None:  # a search bot's playouts are not the game's events: only its answer is
            if event == "return" and frame is self.searching:
                self.searching = None
                self._answer(frame, arg)
            return
        if module == "romesim.core.loop" and name.endswith("_search") and event == "call":
            self.searching = frame
            local = frame.f_locals
            arrays = [local[f"input_{i}"] for i in range(len(local)) if f"input_{i}" in local]
            view = self._view(name)
            state = view(int(local["point"]), arrays) if callable(view) else arrays[view]
            self.deciding = _Pending(frame, len(self.events), self._state(state), self._where())
            self.events.append(("decision", self.deciding.where, "", name, None, None, name, {}, "", None,
                                self._context("decision", frame, None)))
            self._resolve(int(local["offset"]) + int(local["point"]))
            return
        if module == "romesim.core.rng":
            if event == "return" and name == "dn":
                self._die(frame, arg)
            return
        if module == "romesim.core.policy" and name == "call" and event == "call":
            self._resolve(int(frame.f_locals["i"]))  # a user function's slot is its decision point's index
            return
        if not module.startswith(_GAMES):
            return
        if event == "call":
            self.stack.append(name)
            if name.startswith("decide") and self.deciding is None:
                self.resumed, self.deciding_at = True, len(self.events)
                self.deciding = _Pending(frame, len(self.events), self._state(frame), self._where())
                self.events.append(("decision", self.deciding.where, "", name, None, None, name,
                                    {f"[{i}]": v for i, v in enumerate(self.deciding.state)}, "", None,
                                    self._context("decision", frame, None)))
                self._resolve(self._index(frame))
            else:
                if self.deciding is not None and not self.deciding.named:
                    # a decide function that computes its point's index (Jugule's, from the side) passes its
                    # parameter row on to the built-in it calls
                    self._resolve(self._index(frame))
                doc = getattr(frame.f_globals.get(name), "__doc__", None) or ""
                rule = RULE.search(doc)
                depth = len(self.stack)
                if rule and self.resumed and self.rules_at.get(depth) == name:
                    rule = None  # the stage that asked, entered again with the answer
                if rule:
                    self.rules_at = {d: f for d, f in self.rules_at.items() if d < depth}
                    self.rules_at[depth], self.resumed = name, False
                    first = doc.strip().split("\n\n")[0].replace("\n", " ")
                    self.open_rules[id(frame)] = len(self.events)
                    self.events.append(("rule", self._where(), rule.group(0), f"{name}: {first}", None, None,
                                        None, None, None, None, self._context("rule", frame, None)))
        elif event == "return":
            at = self.open_rules.pop(id(frame), None)
            if at is not None and self.deciding_at > at and self.rules_at.get(len(self.stack)) == name:
                # a decision was made inside this call: calling the function again is a new call, not the stage
                # entered again with an answer (a treason's DP-T01 inside one reaction, then the next reaction)
                del self.rules_at[len(self.stack)]
            if self.stack:
                self.stack.pop()
            if at is not None:
                returned = self._context("return", frame, arg)
                if returned:
                    row = list(self.events[at])
                    row[10] = {**(row[10] or {}), **returned}
                    self.events[at] = tuple(row)
            if self.deciding is not None and self.deciding.frame is frame:
                self._answer(frame, arg)

    def _answer(self, frame, arg):
        """The pending decision's action, returned by ``frame``."""
        at = self.deciding.at
        row = list(self.events[at])
        action = arg[0] if isinstance(arg, tuple) else arg  # Vox's decide returns (action, error)
        row[4] = None if action is None else int(action)
        self.events[at] = tuple(row)
        stream = frame.f_locals.get("stream")
        if stream is not None:  # where the dice go on: after any the policy drew
            self.positions[at] = (int(stream[0]), int(stream[1]))
        self.deciding = None

    def _context(self, kind, frame, value):
        """What the game's narrator reads from ``frame`` for an event (None without a narrator); a narrator's error
        is kept in the context rather than stopping the trace."""
        if self.narrator is None:
            return None
        try:
            return self.narrator.context(kind, frame, value)
        except Exception as e:
            return {"narrator_error": repr(e)}

    def _where(self):
        return " > ".join(n for n in self.stack if not n.startswith("<"))

    def _die(self, frame, value):
        caller, read = frame.f_back, int(value)
        while caller is not None and caller.f_globals.get("__name__") == "romesim.core.rng":
            if caller.f_code.co_name == "d10":
                read -= 1  # rng.d10 reads dn(10) - 1: the die is recorded as the game reads it, 0 .. 9
            caller = caller.f_back
        line = linecache.getline(caller.f_code.co_filename, caller.f_lineno).strip() if caller else ""
        doc = getattr(caller.f_globals.get(caller.f_code.co_name), "__doc__", None) if caller else None
        rule = RULE.search(doc or "")
        context = self._context("die", caller, read) if caller is not None else None
        self.events.append(("die", self._where(), rule.group(0) if rule else "", line, read,
                            int(frame.f_locals["n"]), None, None, None, None, context))

    def _resolve(self, index):
        """Name the pending decision's point, once its ``index`` is known (-1: not yet)."""
        pending = self.deciding
        if pending is None or pending.named or not 0 <= index < len(self.points):
            return
        dp = self.points[index]
        self.events[pending.at] = ("decision", pending.where, dp.rule, pending.frame.f_code.co_name, None, None,
                                   dp.name, dict(zip(dp.state, pending.state)), dp.actions, None,
                                   self.events[pending.at][10])
        pending.named = True

    @staticmethod
    def _state(frame):
        state = frame.f_locals.get("state", frame.f_locals.get("view", ())) if hasattr(frame, "f_locals") else frame
        return np.asarray(state, np.int64).ravel().tolist() if isinstance(state, np.ndarray) else []

    def _index(self, frame):
        """The decision point index a call's arguments give: ``offset + point`` (a battle inside another game),
        ``seat`` (a Vox seat's one point), or the parameter row (``params[i]``); -1 when they give none, or when
        the call decides for a game played with policies of its own, not the scenario's (a siege's sortie battle,
        fought by the battle's built-in bots: its decision keeps the function's name, and its narrator names it)."""
        local = frame.f_locals
        index = -1
        codes = local.get("codes")
        if isinstance(codes, np.ndarray) and not np.shares_memory(codes, self.codes):
            return -1
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
        return index


def _child():
    from . import engine
    from .errors import PolicyError
    from .policy import resolve
    scenario, game, seed, policies = pickle.loads(sys.stdin.buffer.read())
    resolved = resolve(scenario.decision_points, policies)
    recorder = _Recorder(scenario, resolved)
    outcome, error = None, None
    # the kernel's arrays are built before the recording starts: a scenario's set-up in Python (the campaign's
    # procedure tables, a siege's success table) calls rule procedures, but it is not the game
    args = tuple(scenario.kernel_args())
    sys.setprofile(recorder)
    try:
        _, _, out = engine.run_chunk(scenario, seed, game, 1, resolved, keep=True, args=args)
    except PolicyError as e:
        error = str(e)
    finally:
        sys.setprofile(None)
    if error is None:
        outcome = {m: int(out[i, 0]) for i, m in enumerate(scenario.metrics)}
    sys.stdout.buffer.write(pickle.dumps((recorder.events, recorder.positions, outcome, error)))


if __name__ == "__main__":
    _child()
