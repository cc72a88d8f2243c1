"""Succession of the Primus or Secondus Augustus (seed 3.5.2, seed 3.5): kernel.

The scenario is compiled into the int64 vector ``p`` (constants below), the empire's leader rows
(``empire.compile_empire``) and the units of each zone not under a leader's counter; rule options are flags in
``p``. The outcome row follows ``Succession.metrics``.
"""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import error_code
from .empire import (
    AUGUSTUS,
    CAESAR,
    DUX,
    L_CC,
    L_PC,
    L_SIDE,
    L_SR,
    L_TB,
    L_TITLE,
    L_UNITS,
    L_ZONE,
    MAX_LEADERS,
    MAX_ZONES,
    PRIMUS,
    PRIMUS_AUGUSTUS,
    SECONDUS,
    SECONDUS_AUGUSTUS,
)
from .policies import (
    GEN_CASE,
    GEN_CC,
    GEN_DEAD,
    GEN_LEADER,
    GEN_N,
    GEN_PC,
    GEN_ROLE,
    GEN_SR,
    GEN_TB,
    GEN_ZONE,
    SUCC_DP_GENERAL,
    SUCC_DP_TIE,
    SUCCESSION_GENERAL,
    TIE_A,
    TIE_B,
    TIE_CC,
    TIE_CONTEXT,
    TIE_PC,
    TIE_SR,
    TIE_TB,
    EMPEROR_TIE,
    decide_emperor_tie,
    decide_succession_general,
)

# indices into the compiled parameter vector
NL, DIES, TIE_BY_CONTROLLER, SCOPE, N_PARAMS = range(5)
SCOPE_SAME_ZONE, SCOPE_OTHER_ZONES, SCOPE_ALL = range(3)  # SV-A14, in sv_options.csv order

# outcome columns, in Succession.metrics order
WIN, CASE, ROLES_CHANGE, USURPER_PLACED, SUCCESSOR, USURPER, DEFECTIONS, UNITS_DEFECTED, N_METRICS = range(9)
GENERAL_STATE_SIZE, TIE_STATE_SIZE = len(SUCCESSION_GENERAL.state), len(EMPEROR_TIE.state)


@njit(cache=True, inline="always")
def pick_general(stream, state, role, case, dead, side, p, lead, codes, params, slots):
    """D7: the player ``side`` names one of his leaders on the map, not a Dux (SV-A35) and not the dead
    Augustus. Returns ``(leader, error)``; leader -1 when he has none."""
    n = 0
    for ldr in range(p[NL]):
        if ldr == dead or lead[L_SIDE, ldr] != side or lead[L_TITLE, ldr] == DUX:
            continue
        state[GEN_LEADER + n] = ldr
        state[GEN_PC + n] = lead[L_PC, ldr]
        state[GEN_CC + n] = lead[L_CC, ldr]
        state[GEN_SR + n] = lead[L_SR, ldr]
        state[GEN_TB + n] = lead[L_TB, ldr]
        state[GEN_ZONE + n] = lead[L_ZONE, ldr]
        n += 1
    if n == 0:
        return -1, 0
    state[GEN_N], state[GEN_ROLE], state[GEN_CASE], state[GEN_DEAD] = n, role, case, dead
    pick = decide_succession_general(codes[SUCC_DP_GENERAL], params[SUCC_DP_GENERAL], state, stream,
                                     slots, SUCC_DP_GENERAL)
    for i in range(n):
        if state[GEN_LEADER + i] == pick:
            return pick, 0
    return -1, error_code(SUCC_DP_GENERAL, pick)


@njit(cache=True)
def succession_scratch(args):
    """The D7 and D8 states, each point its own buffer, and the leaders' sides and zone flags of a game."""
    return (np.zeros(GENERAL_STATE_SIZE, np.int64), np.zeros(TIE_STATE_SIZE, np.int64),
            np.zeros(MAX_LEADERS, np.int64), np.zeros(MAX_ZONES, np.int64))


@njit(cache=True, inline="always")
def succession_game(stream, row, codes, params, slots, p, lead, free, state, tie, side, zflag):
    """seed 3.5.2: the Primus (``p[DIES]`` = 0) or Secondus Augustus dies by any cause but a successful
    usurpation; his successor is found by the cases of the seed, in order. Fills ``row``; returns 0 or a policy
    error code."""
    row[:] = 0
    row[SUCCESSOR] = -1
    row[USURPER] = -1
    nl = p[NL]
    senior = PRIMUS_AUGUSTUS if p[DIES] == 0 else SECONDUS_AUGUSTUS
    dead, other_senior, extra, c1, c2 = -1, -1, -1, -1, -1
    for ldr in range(nl):
        side[ldr] = lead[L_SIDE, ldr]
        t = lead[L_TITLE, ldr]
        if t == senior:
            dead = ldr
        elif t == PRIMUS_AUGUSTUS or t == SECONDUS_AUGUSTUS:
            other_senior = ldr
    mine = lead[L_SIDE, dead]
    for ldr in range(nl):
        if lead[L_SIDE, ldr] != mine or ldr == dead:
            continue
        if lead[L_TITLE, ldr] == AUGUSTUS:
            extra = ldr
        elif lead[L_TITLE, ldr] == CAESAR:
            if c1 < 0:
                c1 = ldr
            else:
                c2 = ldr
    usurper = -1
    if extra >= 0:
        row[CASE] = 1  # his other Augustus; the Caesars stay Caesars
        row[SUCCESSOR] = extra
    elif c1 >= 0 and c2 < 0:
        row[CASE] = 2
        row[SUCCESSOR] = c1
    elif c2 >= 0:
        # case 3: both Caesars become Augusti, the better CC, then SR, then TB (SV-A13) takes the senior title
        row[CASE] = 3
        pick = -1
        for r in (L_CC, L_SR, L_TB):
            if pick < 0 and lead[r, c1] != lead[r, c2]:
                pick = c1 if lead[r, c1] > lead[r, c2] else c2
        if pick < 0:
            if p[TIE_BY_CONTROLLER]:
                tie[TIE_CONTEXT], tie[TIE_A], tie[TIE_B] = 0, c1, c2
                tie[TIE_PC], tie[TIE_PC + 1] = lead[L_PC, c1], lead[L_PC, c2]
                tie[TIE_CC], tie[TIE_CC + 1] = lead[L_CC, c1], lead[L_CC, c2]
                tie[TIE_SR], tie[TIE_SR + 1] = lead[L_SR, c1], lead[L_SR, c2]
                tie[TIE_TB], tie[TIE_TB + 1] = lead[L_TB, c1], lead[L_TB, c2]
                pick = decide_emperor_tie(codes[SUCC_DP_TIE], params[SUCC_DP_TIE], tie, stream, slots, SUCC_DP_TIE)
                if pick != c1 and pick != c2:
                    return error_code(SUCC_DP_TIE, pick)
            else:
                pick = c1 if rng.dn(stream, 2) == 1 else c2
        row[SUCCESSOR] = pick
    elif mine == PRIMUS and other_senior >= 0:
        row[CASE] = 4  # the Secondus Augustus becomes Primus Augustus and the players change roles
        row[SUCCESSOR] = other_senior
        row[ROLES_CHANGE] = 1
    elif mine == PRIMUS:
        # case 5: PRIMUS names his Primus Augustus, then SECONDUS a Usurper, validated at once
        row[CASE] = 5
        heir, err = pick_general(stream, state, 0, 5, dead, PRIMUS, p, lead, codes, params, slots)
        if err:
            return err
        row[SUCCESSOR] = heir
        usurper, err = pick_general(stream, state, 1, 5, dead, SECONDUS, p, lead, codes, params, slots)
        if err:
            return err
    else:
        # Secondus case 4: SECONDUS names a Usurper; the other leaders test their loyalty (SV-A14)
        row[CASE] = 4
        usurper, err = pick_general(stream, state, 1, 4, dead, SECONDUS, p, lead, codes, params, slots)
        if err:
            return err
        if usurper >= 0:
            home = lead[L_ZONE, usurper]
            for z in range(MAX_ZONES):
                zflag[z] = 0
            for ldr in range(nl):
                # a Dux changes side only by joining a Usurper (seed 3.3): he does not test
                if ldr == dead or ldr == usurper or lead[L_SIDE, ldr] != SECONDUS or lead[L_TITLE, ldr] == DUX:
                    continue
                here = lead[L_ZONE, ldr] == home
                if (p[SCOPE] == SCOPE_SAME_ZONE and not here) or (p[SCOPE] == SCOPE_OTHER_ZONES and here):
                    continue
                if rng.d6(stream) >= lead[L_PC, ldr]:
                    side[ldr] = PRIMUS  # he goes over with the units under his counter
                    row[DEFECTIONS] += 1
                    row[UNITS_DEFECTED] += lead[L_UNITS, ldr]
                    zflag[lead[L_ZONE, ldr]] = 1
            # the zone's other units follow the defectors only when no SECONDUS leader is left there (each zone a
            # defector left once: the zones are found from the leaders, not by a pass over every zone)
            for defector in range(nl):
                z = lead[L_ZONE, defector]
                if zflag[z] != 1:
                    continue
                zflag[z] = 2
                left = False
                for ldr in range(nl):
                    if ldr != dead and side[ldr] == SECONDUS and lead[L_ZONE, ldr] == z:
                        left = True
                if not left:
                    row[UNITS_DEFECTED] += free[z]
    if usurper >= 0:
        row[USURPER_PLACED] = 1
        row[USURPER] = usurper
    row[WIN] = 1 if row[CASE] <= 3 else 0
    return 0


succession_kernel = block_kernel("succession_kernel", succession_scratch, succession_game, N_METRICS)
