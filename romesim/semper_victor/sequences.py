"""Number and split of the Movement/Combat Sequences (spec 2.5.1, Phase D) after the initiative of Phase B: kernel.

The scenario is compiled into an int64 vector ``p`` (constants below) and three per-leader vectors of the
SECONDUS leaders: SR, kind and Pax Romana face. The outcome row follows ``Sequences.metrics``.
"""

from ..core.jit import njit
from ..core.loop import block_kernel
from .initiative import initiative_phase, initiative_scratch

# indices into the compiled parameter vector
(PC, AT_MOST, COUNTERPLAY, PRIMUS_HELD, SECONDUS_HELD, PRIMUS_SR, EMPTY_VALUE, COUNT_DUX_USURPERS, N_LEADERS,
 N_PARAMS) = range(10)

# outcome columns, in Sequences.metrics order
WIN, PRIMUS_MCS, SECONDUS_MCS, MCS_TOTAL, PRIMUS_LAST, N_METRICS = range(6)

# kinds of SECONDUS leaders, in the order of the scenario's ``kind`` choices
ROMAN, DUX, USURPER, NON_ROMAN = range(4)


@njit(cache=True, inline="always")
def mcs_total(p, sr, kind, pax):
    """spec 2.5.1: SR of the Primus Augustus + the highest SR among SECONDUS's leaders in play, Roman or not; a
    non-Roman leader on his Pax Romana face is not in play. No SECONDUS leader: ``EMPTY_VALUE`` (SV-A11, 0); Dux
    and Usurpers count unless the SV-A11 option leaves them out."""
    best = -1
    for i in range(p[N_LEADERS]):
        if pax[i]:
            continue
        if not p[COUNT_DUX_USURPERS] and (kind[i] == DUX or kind[i] == USURPER):
            continue
        if sr[i] > best:
            best = sr[i]
    return p[PRIMUS_SR] + (best if best >= 0 else p[EMPTY_VALUE])


@njit(cache=True, inline="always")
def sequences_game(stream, row, codes, params, slots, p, sr, kind, pax, state):
    """spec 2.3 then 2.5.1: the initiative player gets ceil(T/2) M/CS, the other floor(T/2); they alternate from
    the initiative player (spec 2.6), so he also makes the last one when T is odd. Returns 0 or a policy error code."""
    total = mcs_total(p, sr, kind, pax)
    primus, won, played_p, played_s, err = initiative_phase(
        stream, state, p[PC], p[AT_MOST], p[COUNTERPLAY], p[PRIMUS_HELD], p[SECONDUS_HELD], total,
        codes, params, slots)
    if err:
        return err
    first, second = (total + 1) // 2, total // 2
    row[WIN] = 1 if primus else 0
    row[PRIMUS_MCS] = first if primus else second
    row[SECONDUS_MCS] = second if primus else first
    row[MCS_TOTAL] = total
    # the sequence is I, O, I, O ...: the initiative player is last iff T is odd
    row[PRIMUS_LAST] = 1 if total > 0 and primus == (total % 2 == 1) else 0
    return 0


sequences_kernel = block_kernel("sequences_kernel", initiative_scratch, sequences_game, N_METRICS)
