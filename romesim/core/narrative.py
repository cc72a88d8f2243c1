"""How a traced game reads as sentences: the interface a game's narrator implements.

``romesim.trace`` records every die, decision and rule procedure of one game (``core.trace``); its
``Trace.narrative()`` tells them as text. The core knows no game: it asks the scenario for its narrator
(``Scenario.narrator()``, a hook every game may provide) and tells every event the narrator leaves out with the
generic line of ``narrative(detail=True)``. A narrator works in two places:

* in the child process that replays the game, ``context(kind, frame, value)`` reads what a sentence needs from the
  game function's frame (its local variables: the unit that rolls, the target, the round) into a small dict of
  plain values, stored with the event (the trace's ``context`` column);
* in the caller's process, ``sentences(trace)`` turns the events into ``Sentence`` objects, each naming the events
  it tells (``covers``), and ``ending(trace)`` says how the game ended.
"""
import re
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Sentence:
    """One line of a narrative. ``step``: where it goes (the trace index of its first event); ``covers``: the
    events it tells (a die, a decision, the procedure that rolled them), which then get no generic line; a
    ``heading`` (a phase, a round, a turn) is printed without a step, above the sentences under it. An empty
    ``text`` tells its events in no line: the helpers a sentence already accounts for (a DRM, a test). ``generic``:
    an event no sentence of the game tells, in the generic line of ``Trace.narrative(detail=True)``."""

    step: int
    text: str
    covers: tuple = ()
    heading: bool = False
    generic: bool = False


class Narrator:
    """A game's narrator (``Scenario.narrator()``): subclass it and override what the game tells."""

    def context(self, kind, frame, value):
        """In the replaying child: a dict of plain values for an event, or None. ``kind`` is ``"die"`` (``frame``:
        the game function that rolled, ``value``: the die as it read it), ``"rule"`` (the procedure's frame at its
        call, its arguments set), ``"return"`` (a rule procedure returning ``value``; the dict is merged into its
        call's) or ``"decision"`` (the frame of the ``decide_*`` call)."""
        return None

    def sentences(self, trace):
        """The game's sentences, in the order they are read."""
        return []

    def ending(self, trace):
        """Lines that say how the game ended (before the outcome row)."""
        return []


def plain(value):
    """A frame's value as plain Python (numpy scalars and small arrays become ints, floats and lists)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.integer, np.bool_)):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return value


def caller(frame, name):
    """The nearest frame above ``frame`` (itself included) of the function ``name``, or None."""
    while frame is not None and frame.f_code.co_name != name:
        frame = frame.f_back
    return frame


def ordinal(n):
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def rule_tag(rule):
    return f" [{rule}]" if rule else ""


_MEANING = re.compile(r"(?:^|[,;(]\s*)(\d+)(?:\s*\.\.\s*(\d+))? = ([^,;()]+)")


def action_meaning(actions, action):
    """What ``action`` means by a decision point's ``actions`` text (``"0 = DEFENCE, 1 = ATTACK"``: 1 is
    ``"ATTACK"``; ``"0..2 = a box"`` covers 0, 1 and 2), or None where the text gives no meaning for it."""
    if action is None or not actions:
        return None
    for m in _MEANING.finditer(actions):
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if lo <= action <= hi:
            return m.group(3).strip()
    return None


def policy_dice(dice):
    """`` (its policy's dice: d6 = 3, d1000 = 542)``: the dice a policy rolled to decide, or ``""``; ``dice`` are
    trace rows (``sides``, ``value``)."""
    if not dice:
        return ""
    return " (its policy's dice: " + ", ".join(f"d{d.sides} = {d.value}" for d in dice) + ")"


def decision_dice(decision, rows):
    """The die events right after ``decision`` rolled inside its ``decide_*`` call, as ``(step, row)`` pairs from
    ``rows`` (the ``(step, row)`` pairs that follow it)."""
    dice = []
    for step, d in rows:
        if d.kind != "die" or decision.what not in d.where.split(" > "):
            break
        dice.append((step, d))
    return dice
