"""Initiative (spec 2.3, Phase B) with the Initiative stratagem (spec 2.12, decision point D1): kernel.

The scenario is compiled into one int64 vector ``p`` indexed by the constants below; rule options (SV-A4,
SV-A30) are integer flags in it. The outcome row follows ``Initiative.metrics``. ``initiative_phase`` is shared
with the M/CS scenario (``sequences``), which plays Phase B before counting the M/CS.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import error_code
from .policies import PLAY_INITIATIVE, decide_play_initiative

# indices into the compiled parameter vector
PC, AT_MOST, COUNTERPLAY, PRIMUS_HELD, SECONDUS_HELD, N_PARAMS = range(6)

# outcome columns, in Initiative.metrics order
WIN, ROLL, REVERSED, PRIMUS_PLAYED, SECONDUS_PLAYED, N_METRICS = range(6)

PRIMUS, SECONDUS = 0, 1
UNKNOWN_MCS = -1  # the D1 state's M/CS total when the scenario does not model Phase D
STATE_SIZE = len(PLAY_INITIATIVE.state)


@njit(cache=True, inline="always")
def initiative_phase(stream, state, pc, at_most, counterplay, held_primus, held_secondus, mcs_total,
                     codes, params, slots):
    """spec 2.3: PRIMUS rolls a d6 and has the initiative iff the die is below the Primus Augustus' PC (SV-A30
    ``at_most``: or equal). The player without the initiative may then play an Initiative stratagem to take it
    (seed 6.3 "reverse the dice result in your favour"; D1). A played Initiative is final (SV-A4); with
    ``counterplay`` the player who lost it may answer with one of his own, and so on while counters last.

    Returns ``(primus_has_it, primus_won_roll, primus_played, secondus_played, error)``.
    """
    die = rng.d6(stream)
    won = die <= pc if at_most else die < pc
    holder = PRIMUS if won else SECONDUS
    held_p, held_s = held_primus, held_secondus
    played_p, played_s = 0, 0
    while True:
        asking = 1 - holder
        own = held_p if asking == PRIMUS else held_s
        if own == 0 or (played_p + played_s > 0 and not counterplay):
            break
        state[0], state[1], state[2], state[3] = asking, own, held_s if asking == PRIMUS else held_p, die
        state[4], state[5], state[6] = pc, mcs_total, played_p + played_s
        action = decide_play_initiative(codes[0], params[0], state, stream, slots, 0)
        if action == 0:
            break
        if action != 1:
            return False, won, played_p, played_s, error_code(0, action)
        if asking == PRIMUS:
            held_p -= 1
            played_p += 1
        else:
            held_s -= 1
            played_s += 1
        holder = asking
    return holder == PRIMUS, won, played_p, played_s, 0


@njit(cache=True)
def initiative_scratch(args):
    return (np.zeros(STATE_SIZE, np.int64),)


@njit(cache=True, inline="always")
def initiative_game(stream, row, codes, params, slots, p, state):
    """spec 2.3 with the Initiative stratagem: one Phase B. Fills ``row``; returns 0 or a policy error code."""
    primus, won, played_p, played_s, err = initiative_phase(
        stream, state, p[PC], p[AT_MOST], p[COUNTERPLAY], p[PRIMUS_HELD], p[SECONDUS_HELD], UNKNOWN_MCS,
        codes, params, slots)
    if err:
        return err
    row[WIN] = 1 if primus else 0
    row[ROLL] = 1 if won else 0
    row[REVERSED] = 1 if primus != won else 0
    row[PRIMUS_PLAYED] = played_p
    row[SECONDUS_PLAYED] = played_s
    return 0


initiative_kernel = block_kernel("initiative_kernel", initiative_scratch, initiative_game, N_METRICS)
