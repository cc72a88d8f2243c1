"""Building Constantinopolis over several turns (spec 2.4.3, seed 3.1.2; SV-A8, SV-A9, SV-A34): kernel.

Only the seed's timing is a rule: the marker goes 6 boxes ahead, the construction is checked once, in the
Phase F in which the Turn marker reaches the box, and it is cancelled if the Secondus Augustus or a Usurper
stands with a combat unit in Thracia zone 3 at that moment. Where the forces are each turn needs the map and the
movement rules, which are missing (GAPS G1, G9), so the scenario gives per-turn chances in percent, each drawn
with one ``dn(100)``:

* at the completion Phase F, one draw ``v`` in 0..99 says who stands in zone 3: the Secondus Augustus if
  ``v < a``, else a Usurper of SECONDUS if ``v < a + b``, else a Usurper of PRIMUS if ``v < a + b + c``;
* in each Phase D while Constantin is Primus Augustus, he stops being so for good if ``v < constantin_loss``
  (his death: the Leader Arrival and Death Table is missing, GAP G5);
* in each Phase F PRIMUS loses Thracia if ``v < thracia_loss`` and, having lost it, regains it if
  ``v < thracia_regain`` (Diocese control needs the map, GAP G1).

A chance of 0 draws nothing. The outcome row follows ``Constantinople.metrics``.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import error_code
from .policies import START_CONSTANTINOPLE, decide_start_constantinople

# indices into the compiled parameter vector
(TURNS, DURATION, CONTINUOUS, ANY_USURPER, OCC_AUGUSTUS, OCC_USURPER, OCC_PRIMUS_USURPER, CONSTANTIN_LOSS,
 THRACIA_LOSS, THRACIA_REGAIN, N_PARAMS) = range(11)

# outcome columns, in Constantinople.metrics order
WIN, INTERRUPTED, ATTEMPTS, INTERRUPTIONS, CANCELLATIONS, VP, CAPITAL_TURNS, N_METRICS = range(8)

COMPLETION_VP = 10  # seed 3.1.2: PRIMUS scores 10 VP in the Phase F of completion
STATE_SIZE = len(START_CONSTANTINOPLE.state)


@njit(cache=True, inline="always")
def percent(stream, chance):
    """True with probability chance/100, from one dn(100)."""
    return rng.dn(stream, 100) - 1 < chance


@njit(cache=True)
def constantinople_scratch(args):
    return (np.zeros(STATE_SIZE, np.int64),)


@njit(cache=True, inline="always")
def constantinople_game(stream, row, codes, params, slots, p, state):
    """spec 2.4.3 over ``TURNS`` turns: in Phase C PRIMUS may start when he controls Thracia, Constantin is Primus
    Augustus and nothing is under way (D3); the completion Phase F is that of the turn ``DURATION - 1`` after the
    start (SV-A8: 6 turns counting the start year, 7 with end_of_box_year). A cancelled construction may be
    started again from zero in a later Phase C. With SV-A9 ``continuous`` losing either starting condition also
    cancels it. Fills ``row``; returns 0 or a policy error code."""
    row[:] = 0
    turns = p[TURNS]
    constantin, thracia, built = True, True, False
    due = 0  # turn of the completion Phase F of the construction under way, 0 = none
    for t in range(1, turns + 1):
        # Phase C (spec 2.4.3)
        if not built and due == 0 and constantin and thracia:
            state[0], state[1], state[2], state[3], state[4] = (
                t, turns - t + 1, p[DURATION], row[ATTEMPTS], row[INTERRUPTIONS])
            action = decide_start_constantinople(codes[0], params[0], state, stream, slots, 0)
            if action == 1:
                due = t + p[DURATION] - 1
                row[ATTEMPTS] += 1
            elif action != 0:
                return error_code(0, action)
        # Phase D: death of leaders (GAP G5 stand-in)
        if constantin and p[CONSTANTIN_LOSS] > 0 and percent(stream, p[CONSTANTIN_LOSS]):
            constantin = False
            if p[CONTINUOUS] and due:
                due = 0
                row[CANCELLATIONS] += 1
        # Phase F, Dioceses (GAP G1 stand-in)
        if thracia:
            if p[THRACIA_LOSS] > 0 and percent(stream, p[THRACIA_LOSS]):
                thracia = False
                if p[CONTINUOUS] and due:
                    due = 0
                    row[CANCELLATIONS] += 1
        elif p[THRACIA_REGAIN] > 0 and percent(stream, p[THRACIA_REGAIN]):
            thracia = True
        # Phase F, the Turn marker reaches the box: zone 3 of Thracia decides (SV-A34 for a PRIMUS Usurper)
        if due == t:
            due = 0
            blocking = p[OCC_AUGUSTUS] + p[OCC_USURPER]
            everyone = blocking + p[OCC_PRIMUS_USURPER]
            occupied = False
            if everyone > 0:
                v = rng.dn(stream, 100) - 1
                occupied = v < blocking or (v < everyone and p[ANY_USURPER] == 1)
            if occupied:
                row[INTERRUPTIONS] += 1
                row[INTERRUPTED] = 1
            else:
                built = True
                row[WIN] = 1
                row[VP] = COMPLETION_VP
                row[CAPITAL_TURNS] = turns - t
    return 0


constantinople_kernel = block_kernel("constantinople_kernel", constantinople_scratch, constantinople_game, N_METRICS)
