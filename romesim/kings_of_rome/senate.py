"""Senate approval of a war on a Curia people (KoR 9.3.4): kernel."""
import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.policy import error_code
from .policies import DP_FALLBACK_ORDER, FALLBACK_ORDER, PEOPLE_ETRUSCAN, decide_fallback_order, fallback_in_order

PEOPLE, FALLBACK, FIXED_ORDER, N_PARAMS = range(4)  # compiled parameter vector
WIN, ANY_APPROVAL, REQUESTS, N_METRICS = range(4)  # outcome columns, Senate.metrics order
FIRST, ASKED, N_REQUESTS = 0, 1, 5  # DP-SE01 state: first people, asked flags (one per people), requests
ORDER_STATE_SIZE = len(FALLBACK_ORDER.state)


@njit(cache=True)
def senate_scratch(args):
    return (np.zeros(ORDER_STATE_SIZE, np.int64),)  # the DP-SE01 state


@njit(cache=True, inline="always")
def senate_consents(stream, people):
    """KoR 9.3.4: one d6; the Senate consents on 4-6, on 5-6 for a war on the Etruscans."""
    return rng.d6(stream) >= (5 if people == PEOPLE_ETRUSCAN else 4)


@njit(cache=True, inline="always")
def senate_game(stream, row, codes, params, slots, p, state):
    """KoR 9.3.4: ask the Senate for war on ``p[PEOPLE]``; after a refusal ask for each of the other three
    Curia peoples (one roll each) until one is approved. Fides allows war on one people per turn (KOR-A51), so
    the requests stop at the first approval. Returns 0 or a policy error code.
    """
    first = p[PEOPLE]
    ok = senate_consents(stream, first)
    row[WIN] = 1 if ok else 0
    row[ANY_APPROVAL] = row[WIN]
    row[REQUESTS] = 1
    if ok or not p[FALLBACK]:
        return 0
    state[:] = 0
    state[FIRST] = first
    state[ASKED + first] = 1
    state[N_REQUESTS] = 1
    for _ in range(3):
        if p[FIXED_ORDER]:
            people = fallback_in_order(state, False)
        else:
            people = decide_fallback_order(codes[DP_FALLBACK_ORDER], params[DP_FALLBACK_ORDER], state, stream,
                                           slots, DP_FALLBACK_ORDER)
            if people < 0 or people > 3 or state[ASKED + people]:
                return error_code(DP_FALLBACK_ORDER, people)
        state[ASKED + people] = 1
        state[N_REQUESTS] += 1
        row[REQUESTS] += 1
        if senate_consents(stream, people):
            row[ANY_APPROVAL] = 1
            break
    return 0


senate_kernel = block_kernel("senate_kernel", senate_scratch, senate_game, N_METRICS)
