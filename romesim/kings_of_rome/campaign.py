"""The Kings of Rome solo campaign (KoR 3.4-9.7; spec section 5): 24 turns, seven reigns, as a state machine.

A campaign is played by ``campaign_game`` (``core.loop.machine_game``) on arrays that hold everything about it:
where every counter is (``ts``: a container, the general reserve, the Rome reserve, an army, a city, an
invasion army, the turn track, set aside, out of play; and which face is up), the cities (``cs``: who holds them,
when Rome romanized them), the invasion armies (``ws``), and the scalars (``g``: turn, period, IP, VP, actions
left, the stage of the turn, the omens ...). ``campaign_advance`` plays the turn sequence of 5.2 (4.0) up to the
Roman decision DP-K01, which action next; every procedure the campaign fights is the tested one of its module,
called on arrays filled from the counters (``siege.siege_rolls``, ``pillage.pillage_game``,
``corruption.corruption_game``, ``intimidation.intimidation_choices``, ``treason.treason_game``,
``battle.battle_game`` for battles against invasion armies, ``naval.naval_game``, ``senate.senate_consents``). Their
decision points are the campaign's too (``PROCEDURE_POINTS``, after its own in ``codes``, ``params`` and
``slots``: ``PROC_BASE``), so ``campaign_advance`` takes the policies (``machine_game``'s ``nested``).

The scenario's arrays (``kernel_args``): ``cp`` sizes and rule options (``CP_*``), ``city`` the map's places
(``CT_*``), ``cost[held]`` the cheapest land paths in half movement points (``held`` 0: any road; 1 to 3: the royal
army's roads around a held Falerii or Capena, ``held_homes``), ``tok`` the
counter manifest (``TK_*``), ``per`` the periods (``PR_*``, row = period), ``war`` the invasion armies (``WR_*``,
row = war code), ``pv0`` the procedures' compiled parameter vectors (row = ``PROC_*``), ``stab`` the siege success
tables.

What is played and what is not yet is listed in ``docs/contracts/kings_of_rome_campaign.md``.
"""
from dataclasses import replace

import numpy as np

from ..core import rng
from ..core.jit import njit
from ..core.loop import END, Machine, block_kernel, copy_into, decider, machine_game
from ..core.policy import SEARCH_CODES, USER, Builtin, DecisionPoint, call, error_code
from ..core.search import Search, search_builtins
from . import battle as _battle
from . import corruption as _corruption
from . import horatii as _horatii
from . import intimidation as _intimidation
from . import naval as _naval
from . import pillage as _pillage
from . import siege as _siege
from . import treason as _treason
from .policies import (BATTLE_POINTS, COCLES_POINTS, CORRUPTION_POINTS, HORATII_POINTS, HORATII_STATE_SIZE,
                       INTIMIDATION_POINTS, NAVAL_POINTS, NAVAL_STATE_SIZE, PILLAGE_POINTS, SIEGE_POINTS,
                       TREASON_POINTS, decide_cocles_attempt)
from .senate import senate_consents

# ---------------------------------------------------------------------------------------------------- counters
INF, CAV, GARRISON, LEADER, KING, OFFICE, EVENT, SHIP = range(8)          # campaign_data.KINDS
TOKEN = -3  # is_kind: a military unit or a garrison (-1: a military unit)
ANY_KIND = -4  # is_kind: any counter
(ROMAN, LATINS, SABINES, VOLSCI, ETRUSCANS, AEQUI, PICENI, FALISCI, CAPENATI, SAMNITES, GAULS, GREEKS, UMBRI,
 OSCAN, N_PEOPLES) = range(15)                                             # campaign_data.PEOPLES
# tok[t]: the manifest
TK_KIND, TK_PEOPLE, TK_VIRTUS, TK_ASTUTIA, TK_CLASS, TK_HOME, TK_PERIOD, TK_CODE, TK_COLS = range(9)
# event codes (TK_CODE of an event)
(EV_SABINES, EV_AEQUI, EV_VOLSCI, EV_PICENI, EV_FALISCI, EV_CAPENA, EV_HORATII, EV_ALBA, EV_SAMNITE, EV_OSTIA,
 EV_BRIDGE, EV_OMEN, EV_END_ACTIONS, EV_GALLIC, EV_ETRUSCAN, EV_DANAI, EV_UMBRIAN, EV_MUCIUS, EV_COCLES,
 N_EVENTS) = range(20)
# leader codes (TK_CODE of a leader; of a king: his period, 0 for the Interrex)
LD_OTHER, LD_TATIUS, LD_METIUS, LD_PORSENNA, LD_LARTH, LD_ZILATH, LD_WAR = range(7)
# office codes (TK_CODE of an office)
OF_MAGISTER_POPULI, OF_MAGISTER_EQUITUM, OF_TRIBUNUS_POPULI, OF_TRIBUNUS_CELERUM = range(4)

# ts[t]: where a counter is, and its face
L_OUT, L_R, L_NR, L_RESERVE, L_ROME, L_ARMY, L_CITY, L_WAR, L_TRACK, L_ASIDE = range(10)
L_PREP = L_ASIDE + 1  # tokens being shared out (9.x.2) or drawn and waiting to go back (9.5.7.4): never at a decision
L_FLEET = L_PREP + 1  # a Roman ship in a port, TS_AT the port (5.8); an invader's ships sail with its army (L_WAR)
L_DRAWN = L_FLEET + 1  # a Roman garrison drawn from R, waiting for its city (DP-K05); only while it is asked
L_DISMISSED = L_DRAWN + 1  # a unit sent out of the acting army while it forms (DP-K02); the Rome reserve after
L_EXCESS = L_DISMISSED + 1  # a Greek unit over its army's caps, TS_AT its army, waiting for its city (DP-K08)
TS_LOC, TS_AT, TS_FACE, TS_COLS = range(4)
FACE_ROMAN, FACE_NR = 0, 1

# ------------------------------------------------------------------------------------------------------ map
# CT_ADJACENT: a bitmask of the places adjacent to it (data/kor_map's proxy: joined by an edge of 1 hex; 7.1)
# city[c, CT_SEA + d]: the sea hexes from port c to port d (kor_sea.csv; -1: no sea route); a row is CT_SEA + n wide
CT_PEOPLE, CT_PORT, CT_ENTRY, CT_GARRISON0, CT_ADJACENT, CT_SEA = range(6)
SHIP_MP = 25  # 5.8: a fleet moves 25 MP, a sea hex 1 (a "+3" hex 4: counted in the map's sea costs)
# cs[c]: the city's state: romanized (held by Rome), the period it was romanized in (0: not this campaign's
# doing, or not romanized), captured by an NR army this turn (7.5)
CS_ROMAN, CS_ROMANIZED_IN, CS_CAPTURED, CS_COLS = range(4)

# ------------------------------------------------------------------------------------------------ periods
(PR_FIRST, PR_LAST, PR_R_DRAWS, PR_NR_DRAWS, PR_MISSION, PR_FAIL_TOKENS, PR_FAIL_UNITS_R_NR, PR_PER_CONTAINER,
 PR_INAUGURATIO_FAIL, PR_SENATE, PR_TULLUS, PR_PREP_UNITS, PR_PREP_GARRISONS, PR_COLS) = range(14)

# ---------------------------------------------------------------------------------------------------- wars
W_AEQUI, W_VOLSCI, W_PICENI, W_FALISCI, W_CAPENA, W_SAMNITE, W_GALLIC, W_ETRUSCAN, W_DANAI, W_UMBRIAN, N_WARS = \
    range(11)
(WR_PEOPLE, WR_START, WR_INF, WR_INF_DIE, WR_CAV, WR_CAV_DIE, WR_CAP_INF, WR_CAP_CAV, WR_CAP, WR_TARGETS,
 WR_SPARES, WR_INVADER, WR_EXTRA_REACTIONS, WR_STAYS, WR_TOKEN_AFTER, WR_FIGHTS_ARMIES, WR_ROME_TAKEN,
 WR_FAILED_VP, WR_FILL, WR_SHIPS) = range(20)
WR_COLS = WR_SHIPS + 6
# war[w, WR_SHIPS + die - 1]: the fleet the ship die brings (9.5.7.4, 9.6.7.2), a bitmask of the ships' Virtus
# (bit v: the ship of Virtus v); 0 for the wars that come by land
# WR_FILL: how an army takes its rolled units within its caps (KOR-A60): infantry first; cavalry first; the Etruscan
# rule, cavalry fewer than infantry, with the most cavalry allowed or infantry first
FILL_INFANTRY_FIRST, FILL_CAVALRY_FIRST, FILL_FEWER_CAVALRY_MAX_CAVALRY, FILL_FEWER_CAVALRY_INFANTRY_FIRST = range(4)
# WR_TARGETS / WR_SPARES bits: which cities a war besieges on its way, which it never attacks (kor_invasions.csv):
# a city's bits are its people's and T_ROMAN while Rome holds it
T_ROMAN, T_LATIN, T_SABINE, T_ETRUSCAN, T_OTHER = 1, 2, 4, 8, 16
# WR_ROME_TAKEN: whether a siege of Rome the war wins sacks it (-5 IP -5 VP): never; whoever commands; only with the
# war's named leader in command (``sacks_rome``)
SACK_NEVER, SACK_ANY, SACK_NAMED_LEADER = range(3)
# where a war's token goes at the period end (WR_TOKEN_AFTER)
AFTER_REMOVED, AFTER_R, AFTER_NR = range(3)
MAX_WARS = 6  # NR armies in the field at once: invasion armies and raised armies
# war rows RAISED + people: an army an NR leader raises on the map from his people's own units (6.1, 6.2: « Armée NR
# avec un Chef », an army being two military units or more): no war token, no march of 9.x after the reactions, the
# Roman cities its targets (it fights no Roman army in the field: « si cela est autorisé (voir la guerre de Capena) »)
RAISED = N_WARS + 2
# the war each war token starts (-1: not a war), by event code
EVENT_WAR = (-1, W_AEQUI, W_VOLSCI, W_PICENI, W_FALISCI, W_CAPENA, -1, -1, W_SAMNITE, -1, -1, -1, -1, W_GALLIC,
             W_ETRUSCAN, W_DANAI, W_UMBRIAN, -1, -1)
# ws[k]: an invasion army
# WS_LINGER: a Falisci (Capenati) army holding Falerii (Capena) past its period (9.2.7.3-9.2.7.4); WS_ROUTED: beaten
# in a battle of this action phase, it routed (5.7.13): a pursuit may attack it, a new action not (rout_protection)
WS_WAR, WS_AT, WS_LEADER, WS_NEW, WS_TOKEN, WS_PASSED, WS_LINGER, WS_START, WS_ROUTED, WS_COLS = range(10)

# ------------------------------------------------------------------------------------- options and sizes (cp)
(CP_CITIES, CP_ROME, CP_MISSION_SCOPE, CP_PRESTIGE_GE, CP_PRESTIGE_EVERY_TURN, CP_PERIOD_SWAP_TWICE, CP_VICTORY_VP,
 CP_END_BELOW_20_DEFEAT, CP_FIDES_FROM, CP_REACTION_FALLBACK_LOST, CP_MAX_TURN, CP_SABINES_EXTRA,
 CP_BAD_OMEN_EVERY_TURN, CP_WAR_ANY_CONTAINER, CP_OFFICE_TO_R, CP_ALBA, CP_AMBUSH_DRM, CP_ASTUTIA_IN_SIEGE,
 CP_DUEL_VOLLEY, CP_DUEL_TO_OPPONENT, CP_ALBA_SURVIVORS_ONLY, CP_ALBA_DUEL_ALWAYS, CP_COCLES_PREREQUISITE,
 CP_COCLES_ROME_FIRST, CP_COCLES_RAID, CP_FALERII, CP_FALERII_LAST_TURN, CP_CAPENA, CP_ACTIONS_COMBINED,
 CP_REACTION_TIMING, CP_LOSS_TOTAL_VIRTUS, CP_LOSS_RANDOM, CP_OFFICE_EVERY_TURN, CP_EVENT_UNITS_EVERY_TURN,
 CP_INVADERS_NOT_EXEMPT, CP_BAD_OMEN_TO_R, CP_END_OF_ACTIONS_NR, CP_VOLSCI_RETURN, CP_OSTIA, CP_INVADERS_BY_SEA,
 CP_INTERCEPTION, CP_INTIMIDATION_NO_ROOM, CP_TREASON_UNITS, CP_ROUT_WALLS, CP_ROUT_PROTECTED,
 CP_NR_WITHDRAWAL, CP_CONTINUATION_REACTIONS, CP_PORSENNA_ANY_BATTLE, CP_WITHDRAWAL_REACTIONS,
 CP_WITHDRAWAL_ASKS, CP_REACTION_MARCHES, CP_CITY_ARMIES_REACT, CP_REVOLT_GATHERS, CP_SACK_ANY_LEADER,
 CP_AMBUSH_PLACED, CP_OSTIA_BESIEGED, N_CP) = range(57)
# CP_INTERCEPTION: when the Roman fleet intercepts an invader's fleet (DP-N02), in Campaign.interception's order
INTERCEPT_EVEN_ODDS, INTERCEPT_ALWAYS, INTERCEPT_NEVER = range(3)
# CP_COCLES_PREREQUISITE (KOR-A47), in kor_options.csv's order
COCLES_PORSENNA_EVER, COCLES_PORSENNA_ON_MAP, COCLES_BRIDGE_ONLY = range(3)
HORATIUS_VIRTUS = 5  # 9.7.7.2: in his raid Horatius is an infantry unit of Virtus 5
# CP_REACTION_TIMING (KOR-A2) and CP_END_OF_ACTIONS_NR (KOR-A58), in kor_options.csv's order
REACT_LITERAL, REACT_END_OF_PHASE, REACT_IMMEDIATE = range(3)
EOA_TO_R, EOA_REMOVE_OMEN, EOA_BOTH = range(3)

# -------------------------------------------------------------------------------------- procedures (pv0)
(PROC_SIEGE, PROC_PILLAGE, PROC_CORRUPTION, PROC_INTIMIDATION, PROC_TREASON, PROC_BATTLE, PROC_AMBUSH, PROC_NAVAL,
 PROC_HORATII, PROC_COCLES, N_PROC) = range(11)
PV_SIZE = 64

# ------------------------------------------------------------------------------------------------ scalars (g)
# G_ACTING: the army that takes the next action (DP-K01); G_SWITCHED: it was chosen since the last action (one
# choice an action); G_VICARIUS: Titus Tatius made Rex Vicarius (9.1.8.2); G_RETREAT_NEXT: 1 + the next army 7.1
# looks at (0: the end of the turn not begun; the army asked DP-K07 is the acting one); G_PURSUIT: 1 + the
# invasion army the acting army has just beaten in its action's battle (DP-B16 to ask), G_ADVANCE the answer;
# G_WITHDREW: that army withdrew inside its walls instead (5.7.1): DP-B16's siege follows (asked: KOR-A16 roman_option)
# G_OSTIA: the Foundation of Ostia (9.4.7.1): 0 not drawn yet; t + 1 drawn from NR, token t going back into R after
# the draws; OSTIA_FOUNDED drawn from R: Ostia is Rome's port, which the Etruscan wars besiege (9.5.7.4)
(G_TURN, G_PERIOD, G_IP, G_VP, G_STAGE, G_ACTIONS, G_ACTING, G_KING, G_COMMANDER, G_REACTIONS, G_IMMEDIATE,
 G_ENDED, G_WON, G_END_REASON, G_OMEN, G_OMEN_DRAWN, G_STOP_ACTIONS, G_BRIDGE, G_PORSENNA_EVER,
 G_ETRUSCAN_WARS, G_ETRUSCAN_RUNNING, G_FIRST_ETRUSCAN_LEADER, G_WAR_PEOPLE, G_PRESTIGE_DONE, G_EXTRA_R_DRAWS,
 G_ASKED, G_ACTION, G_BAD_OMEN_TURN, G_OSTIA, G_ERROR, G_ALBA_DRAWN, G_ALBA_SIEGE, G_ALBA_HAPPY,
 G_FALERII_DUE, G_MOVED, G_UMBRIAN_TOKEN, G_DRAWS, G_DRAWN, G_FORMING, G_LOSS_LEFT, G_END_STEP, G_FAILED,
 G_EXCESS, G_ALBA_MARCH, G_SWITCHED, G_VICARIUS, G_RETREAT_NEXT, G_PURSUIT, G_ADVANCE_ASKED, G_ADVANCE,
 G_WITHDREW, G_SENATE) = range(52)
OSTIA_FOUNDED = -1
G_SENATE_SIZE = 4  # G_SENATE + i: the Senate on Curia people i (senate.PEOPLE_*): 0 unasked, 1 approved, 2 refused
# the Roman armies (4.2, 9.1.8, 9.2.7.1): slot 0 the royal army, commanded by the King (G_COMMANDER: the King or
# the Interrex); the others raised by an office drawn from R, or Titus Tatius', while their leader is in play.
# G_ARMY_AT + a: where army a stands; G_LEADER + a: its leader (a > 0; -1: no army). Its units are the
# counters at L_ARMY with TS_AT a; a leader's counter stays at L_ROME (in play) wherever his army is
MAX_ARMIES = 8
G_ARMY_AT = G_SENATE + G_SENATE_SIZE
G_LEADER = G_ARMY_AT + MAX_ARMIES
G_SIZE = G_LEADER + MAX_ARMIES
# the stages of a turn (5.2); G_DRAWS: the draws left from the container of ST_DRAW_R / ST_DRAW_NR
ST_PERIOD, ST_DRAW_R, ST_DRAW_NR, ST_ALLOWANCE, ST_ACTIONS, ST_REACTIONS, ST_MARCH, ST_END_TURN = range(8)
# G_FORMING: the acting army in Rome before an action (DP-K02): not asked yet; being formed, as it was or with units
# in or out; formed as it was (DP-K01's state posted at the start still holds), formed anew
NOT_FORMED, FORMING, RESHAPED, KEPT, FORMED = range(5)
# G_END_STEP: where the end of the turn stands (it stops at DP-K07 and DP-K06)
END_START, END_PERIOD, END_LOSSES = range(3)
# how a campaign ended (8.0); the metric ``end_*``
(END_NONE, END_NR_EMPTY, END_VP, END_TURN_24_WIN, END_R_EMPTY, END_IP, END_TURN_24_LOSS, N_ENDS) = range(8)
OMEN_NONE, OMEN_GOOD, OMEN_BAD = range(3)

# ------------------------------------------------------------------------------------------------- metrics
M_WIN = 0
M_END = 1                            # one 0/1 column per way a campaign ends, END_NR_EMPTY ... END_TURN_24_LOSS
(M_VP, M_IP, M_TURN, M_ROMANIZED, M_MISSIONS_MET, M_KINGS_LOST, M_WARS, M_WARS_BEATEN, M_CITIES_LOST, M_ROME_TAKEN,
 M_SIEGES, M_SIEGES_WON, M_BATTLES, M_BATTLES_WON, M_PILLAGES, M_CORRUPTIONS, M_INTIMIDATIONS, M_REACTIONS,
 M_ACTIONS, M_DUELS, M_DUELS_WON, M_NAVAL_BATTLES, M_NAVAL_WON, M_SEA_MOVES, M_DIARCHY, M_TRIBUNES_WON,
 M_TRIBUNES_BEATEN, M_ADVANCES, M_WITHDRAWALS, M_MISSION_1) = range(M_END + N_ENDS - 1, M_END + N_ENDS + 29)
M_EVENT_R = M_MISSION_1 + 7          # one column per event code: drawn from R
M_EVENT_NR = M_EVENT_R + N_EVENTS    # ... drawn from NR
M_ARMIES_RAISED = M_EVENT_NR + N_EVENTS  # armies NR leaders led out of a city (6.1 military reaction, 6.4 ambush)
M_REVOLTS_GATHERED = M_ARMIES_RAISED + 1  # revolts that moved free NR units to a leader or into walls (6.2 step 1)
N_METRICS = M_REVOLTS_GATHERED + 1

# ------------------------------------------------------------------------------------------- DP-K01 (action)
ACT_END, ACT_MOVE = 0, 1              # 1 + c: move to place c
OP_SIEGE, OP_PILLAGE, OP_CORRUPTION, OP_INTIMIDATION, OP_BATTLE, N_OPS = range(6)  # action = 1 + n + op
# action = 1 + n + N_OPS + a: the next action with army a; 1 + n + N_OPS + MAX_ARMIES: the Diarchy (DP-K04)
MP_INFANTRY, MP_CAVALRY = 28, 40      # 5.2: 14 and 20 movement points, in half points
BLOCKED = 1 << 20                     # DP-K01's cost of a place only reached through a held Falerii or Capena
MAX_CITIES = 64
# DP-K01 state: the header, then one block per place
# (K_ARMY_AT, K_INF, K_CAV, K_MP and the operations are the acting army's; K_CAP_*: its leader's table 5.1 caps)
(K_TURN, K_PERIOD, K_IP, K_VP, K_ACTIONS, K_ARMY_AT, K_INF, K_CAV, K_KING_VIRTUS, K_R, K_NR, K_ROMANIZED,
 K_MISSION, K_CITIES, K_LAST_TURN, K_MP, K_ROME, K_ACTING, K_SWITCH, K_DIARCHY, K_CAP_INF, K_CAP_CAV,
 K_ROME_RESERVE, K_OPS) = range(24)
K_ARMIES = K_OPS + N_OPS
# one block per army slot (KA_*): whether DP-K01 may choose it now, where it stands, its units, its leader's
# Virtus, and who leads it (LEAD_*)
KA_MAY, KA_AT, KA_INF, KA_CAV, KA_VIRTUS, KA_LEADER, KA_COLS = range(7)
LEAD_NONE, LEAD_KING, LEAD_MAGISTER_POPULI, LEAD_MAGISTER_EQUITUM, LEAD_TRIBUNUS_POPULI, LEAD_TRIBUNUS_CELERUM, \
    LEAD_TATIUS, LEAD_VICARIUS = range(8)
K_HEADER = K_ARMIES + KA_COLS * MAX_ARMIES
# KC_SEA: 1 when the acting army may sail there this action (5.8, 9.4.7.1)
(KC_ROMAN, KC_GARRISON, KC_UNITS, KC_STRONGEST, KC_LEADER, KC_COST, KC_PEOPLE, KC_WAR, KC_ALLOWED, KC_ENTRY,
 KC_SEA, KC_COLS) = range(12)
K_STATE_SIZE = K_HEADER + KC_COLS * MAX_CITIES
# the campaign's decision points (the machine's ``point``): DP-K01, then the choices the turn asks on its way
P_ACTION, P_ARMY, P_GARRISON, P_LOSS, P_RETREAT, P_EXCESS, P_ADVANCE, N_POINTS = range(8)
# DP-B16's answers (5.7.14)
ADVANCE_NONE, ADVANCE_PURSUE, ADVANCE_BESIEGE = range(3)
# then the decision points of the procedures it plays, in PROC_* order (``PROCEDURE_POINTS``): procedure k's first
# point is PROC_BASE[k] in codes, params and slots
PROC_NAMES = ("siege", "pillage", "corruption", "intimidation", "treason", "battle", "ambush", "naval", "horatii",
              "cocles")
_PROC_POINTS = (SIEGE_POINTS, PILLAGE_POINTS, CORRUPTION_POINTS, INTIMIDATION_POINTS, TREASON_POINTS, BATTLE_POINTS,
                BATTLE_POINTS, NAVAL_POINTS, HORATII_POINTS, COCLES_POINTS)
PROC_BASE = N_POINTS + np.cumsum([0] + [len(points) for points in _PROC_POINTS[:-1]]).astype(np.int64)
MAX_COUNTERS = 320
ARMY_INF, ARMY_CAV = 4, 2             # table 5.1: a King's army, 4 infantry and 2 cavalry
# table 5.1 (kor_command.csv) by office code: Magister Populi 4/2, Magister Equitum 0/6, Tribunus Populi 4/0,
# Tribunus Celerum 0/4, and the rank the battle gives them (the King, Interrex and Rex Vicarius rank 1)
OFFICE_INF, OFFICE_CAV, OFFICE_RANK = (4, 0, 4, 0), (2, 6, 0, 4), (2, 3, 4, 5)
GENERAL_RANK = 6                      # Titus Tatius before the Diarchy: a leader of Sabines, as a Roman general
DIARCHY_IP = 3                        # 9.1.8.2
# every decision's state is DP-K01's entries, then what the other points decide (D_*), one block per place for
# DP-K05, K07 and K08 (KD_*, written at those points only) and one block per counter (KU_*)
(D_GARRISON, D_LOSS_LEFT, D_INF_ROOM, D_CAV_ROOM, D_EXCESS, D_PURSUE, D_BESIEGE, D_ROUTED_UNITS, D_COUNTERS,
 D_HEADER) = range(K_STATE_SIZE, K_STATE_SIZE + 10)
KD_ALLOWED, KD_ROMAN_GARRISON, KD_DISTANCE, KD_TO_ROME, KD_COLS = range(5)
KU_AT, KU_KIND, KU_VIRTUS, KU_COLS = range(4)
D_UNITS = D_HEADER + KD_COLS * MAX_CITIES
STATE_SIZE = D_UNITS + KU_COLS * MAX_COUNTERS
# KU_AT: where a Roman military unit a choice may take stands (U_ARMY: the acting army; U_OTHER_ARMY: another)
U_ELSEWHERE, U_ARMY, U_ROME, U_DISMISSED, U_OTHER_ARMY = range(5)


@njit(cache=True, inline="always")
def kc(c, col):
    """DP-K01's state index of place ``c``'s entry ``col``: one block of ``MAX_CITIES`` entries per column."""
    return K_HEADER + col * MAX_CITIES + c


@njit(cache=True, inline="always")
def ka(a, col):
    """DP-K01's state index of army ``a``'s entry ``col`` (``KA_*``)."""
    return K_ARMIES + col * MAX_ARMIES + a


@njit(cache=True, inline="always")
def kd(c, col):
    """The state index of place ``c``'s entry ``col`` for DP-K05, K07 and K08 (``KD_*``)."""
    return D_HEADER + col * MAX_CITIES + c


@njit(cache=True, inline="always")
def ku(t, col):
    """The state index of counter ``t``'s entry ``col`` (``KU_*``)."""
    return D_UNITS + col * MAX_COUNTERS + t


# ============================================================================================= counters
@njit(cache=True, apart=True)
def count_at(ts, loc):
    n = 0
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == loc:
            n += 1
    return n


@njit(cache=True)
def matches(tok, ts, t, loc, kind, people, base, value):
    """Whether counter ``t`` is at ``loc`` and of ``kind`` (-1: either military kind), ``people`` (-1: any; -2: any
    but Rome's), a base counter when ``base`` (not an invasion army's), of Virtus ``value`` (0: any)."""
    if ts[t, TS_LOC] != loc or not is_kind(tok, t, kind):
        return False
    p = tok[t, TK_PEOPLE]
    if (people >= 0 and p != people) or (people == -2 and p == ROMAN):
        return False
    return (not base or tok[t, TK_CODE] == 0) and (value == 0 or tok[t, TK_VIRTUS] == value)


@njit(cache=True, apart=True)
def pick(tok, ts, loc, kind, people, base, value, stream):
    """A counter drawn at random among those ``matches`` accepts (C5), or -1 if there is none."""
    n = 0
    for t in range(ts.shape[0]):
        if matches(tok, ts, t, loc, kind, people, base, value):
            n += 1
    if n == 0:
        return -1
    k = rng.dn(stream, n)
    for t in range(ts.shape[0]):
        if matches(tok, ts, t, loc, kind, people, base, value):
            k -= 1
            if k == 0:
                return t
    return -1


@njit(cache=True, apart=True)
def pick_at(ts, loc, stream):
    """Any counter of ``loc`` (a container) drawn at random (C5), or -1 if there is none."""
    n = count_at(ts, loc)
    if n == 0:
        return -1
    k = rng.dn(stream, n)
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == loc:
            k -= 1
            if k == 0:
                return t
    return -1


@njit(cache=True)
def pool_of(tok, ts, loc, kind, people, base, value, pool):
    """The counters ``pick`` draws among (``kind`` ``ANY_KIND``: any counter of ``loc``, as ``pick_at``), in counter
    order, into ``pool``; returns how many."""
    n = 0
    for t in range(ts.shape[0]):
        if matches(tok, ts, t, loc, kind, people, base, value):
            pool[n] = t
            n += 1
    return n


@njit(cache=True)
def draw_from(pool, n, stream):
    """``pick``'s draw among the ``n`` counters of ``pool`` (the same die gives the same counter), taken out of it
    (the others keep their order): draws one after another from one pool are ``pick``'s one after another while
    nothing else moves."""
    k = rng.dn(stream, n) - 1
    t = pool[k]
    for i in range(k, n - 1):
        pool[i] = pool[i + 1]
    return t


@njit(cache=True)
def is_kind(tok, t, kind):
    """Whether counter ``t`` is of ``kind``: -1 either military kind (infantry, cavalry), ``TOKEN`` a military unit
    or a garrison, ``ANY_KIND`` any."""
    k = tok[t, TK_KIND]
    if kind == ANY_KIND:
        return True
    if kind == TOKEN:
        return k == INF or k == CAV or k == GARRISON
    if kind < 0:
        return k == INF or k == CAV
    return k == kind


@njit(cache=True)
def put(ts, t, loc, at, face):
    ts[t, TS_LOC], ts[t, TS_AT], ts[t, TS_FACE] = loc, at, face


@njit(cache=True)
def move_random(ts, src, dst, count, stream, g, row):
    """C5: ``count`` random counters from container ``src`` to container ``dst``. An NR container emptied is a
    Roman victory at once (8.0 a)."""
    for _ in range(count):
        t = pick_at(ts, src, stream)
        if t < 0:
            break
        put(ts, t, dst, 0, FACE_NR if dst == L_NR else FACE_ROMAN)
    check_containers(ts, g, row)


@njit(cache=True)
def check_containers(ts, g, row):
    """8.0 a (KOR-A62 immediate): an empty NR container wins the campaign at once."""
    if g[G_ENDED] == 0 and count_at(ts, L_NR) == 0:
        finish(g, row, 1, END_NR_EMPTY)


@njit(cache=True)
def finish(g, row, won, reason):
    if g[G_ENDED] == 0:
        g[G_ENDED], g[G_WON], g[G_END_REASON] = 1, won, reason


@njit(cache=True)
def add_ip(g, row, ip):
    """C7 / 8.0 b: IP at 0 loses the campaign at once."""
    g[G_IP] += ip
    if g[G_IP] <= 0:
        finish(g, row, 0, END_IP)


# ================================================================================================ cities
@njit(cache=True, apart=True)
def garrison_value(tok, ts, c, face):
    """The garrison points of ``face`` in city ``c``."""
    v = 0
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and ts[t, TS_FACE] == face and \
                tok[t, TK_KIND] == GARRISON:
            v += tok[t, TK_VIRTUS]
    return v


@njit(cache=True, apart=True)
def nr_units_in(tok, ts, c, virtus):
    """The NR military units in city ``c``; their Virtus written into ``virtus`` (up to its size)."""
    n = 0
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and ts[t, TS_FACE] == FACE_NR and is_kind(tok, t, -1):
            if n < virtus.shape[0]:
                virtus[n] = tok[t, TK_VIRTUS]
            n += 1
    return n


@njit(cache=True, apart=True)
def nr_leader_in(tok, ts, c):
    """The strongest NR leader in city ``c`` (his counter), or -1."""
    best = -1
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and ts[t, TS_FACE] == FACE_NR and \
                tok[t, TK_KIND] == LEADER:
            if best < 0 or tok[t, TK_VIRTUS] > tok[best, TK_VIRTUS]:
                best = t
    return best


@njit(cache=True)
def nr_strength(tok, ts, n):
    """``garrison_value`` and ``nr_units_in`` of every city ``0 .. n - 1`` for the NR face, in one pass over the
    counters: two arrays."""
    garrison = np.zeros(n, np.int64)
    units = np.zeros(n, np.int64)
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_FACE] == FACE_NR:
            kind = tok[t, TK_KIND]
            if kind == GARRISON:
                garrison[ts[t, TS_AT]] += tok[t, TK_VIRTUS]
            elif kind == INF or kind == CAV:
                units[ts[t, TS_AT]] += 1
    return garrison, units


@njit(cache=True)
def nr_defence(tok, ts, c):
    """``(garrison_value, nr_units_in, nr_leader_in >= 0)`` of city ``c`` for the NR face, in one pass over the
    counters (DP-K01 asks them at every decision)."""
    garrison, units, leader = 0, 0, False
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and ts[t, TS_FACE] == FACE_NR:
            kind = tok[t, TK_KIND]
            if kind == GARRISON:
                garrison += tok[t, TK_VIRTUS]
            elif kind == INF or kind == CAV:
                units += 1
            elif kind == LEADER:
                leader = True
    return garrison, units, leader


@njit(cache=True)
def romanize(cs, c, g):
    """The city passes to Rome (7.4: it holds Roman troops or a Roman garrison)."""
    if cs[c, CS_ROMAN] == 0:
        cs[c, CS_ROMAN] = 1
        cs[c, CS_ROMANIZED_IN] = g[G_PERIOD]


@njit(cache=True)
def lose_city(cs, c):
    cs[c, CS_ROMAN] = 0
    cs[c, CS_ROMANIZED_IN] = 0


@njit(cache=True)
def clear_nr(tok, ts, c, dst):
    """Every NR military unit and leader in city ``c`` goes to ``dst`` (5.5 a: the R container)."""
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and ts[t, TS_FACE] == FACE_NR and \
                tok[t, TK_KIND] != GARRISON:
            put(ts, t, dst, 0, FACE_ROMAN if dst == L_R else FACE_NR)


@njit(cache=True, apart=True)
def flip_garrisons(tok, ts, c, face):
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and tok[t, TK_KIND] == GARRISON:
            ts[t, TS_FACE] = face


@njit(cache=True, apart=True)
def nearest_city(city, cost, cs, tok, ts, src, people, want_roman):
    """The place of ``people`` (-1: any NR city) cheapest to reach from ``src``, held by Rome or not as asked."""
    best, best_cost = -1, 1 << 40
    for c in range(city.shape[0]):
        if city[c, CT_ENTRY]:
            continue
        if people >= 0 and city[c, CT_PEOPLE] != people:
            continue
        if (cs[c, CS_ROMAN] == 1) != want_roman:
            continue
        d = cost[0, src, c] if src >= 0 else 0
        if d >= 0 and d < best_cost:
            best, best_cost = c, d
    return best


# ============================================================================================ Roman armies
@njit(cache=True, inline="always")
def in_army(ts, t, a):
    return ts[t, TS_LOC] == L_ARMY and ts[t, TS_AT] == a


@njit(cache=True, apart=True)
def army_counts(tok, ts, a):
    """Army ``a``'s infantry and cavalry."""
    inf, cav = 0, 0
    for t in range(ts.shape[0]):
        if in_army(ts, t, a):
            if tok[t, TK_KIND] == INF:
                inf += 1
            elif tok[t, TK_KIND] == CAV:
                cav += 1
    return inf, cav


@njit(cache=True, inline="always")
def army_exists(g, a):
    return a == 0 or (0 < a < MAX_ARMIES and g[G_LEADER + a] >= 0)


@njit(cache=True, inline="always")
def army_leader(g, a):
    """Army ``a``'s leader: the King (or the Interrex) for the royal army."""
    return g[G_COMMANDER] if a == 0 else g[G_LEADER + a]


@njit(cache=True)
def leader_kind(tok, g, a):
    """Who leads army ``a`` (``LEAD_*``)."""
    if not army_exists(g, a):
        return LEAD_NONE
    if a == 0:
        return LEAD_KING
    t = g[G_LEADER + a]
    if tok[t, TK_KIND] == OFFICE:
        return LEAD_MAGISTER_POPULI + tok[t, TK_CODE]
    return LEAD_VICARIUS if g[G_VICARIUS] else LEAD_TATIUS


@njit(cache=True, inline="always")
def king_led(kind):
    """Whether an army led by ``kind`` scores as the King's (the King, the Interrex, the Rex Vicarius)."""
    return kind == LEAD_KING or kind == LEAD_VICARIUS


@njit(cache=True)
def leader_rank(tok, g, a):
    """Army ``a``'s leader's rank (kor_command.csv: the King, Interrex and Rex Vicarius 1, the offices 2 to 5,
    Titus Tatius before the Diarchy as a general, 6)."""
    kind = leader_kind(tok, g, a)
    if king_led(kind):
        return 1
    if kind == LEAD_TATIUS:
        return GENERAL_RANK
    return OFFICE_RANK[kind - LEAD_MAGISTER_POPULI]


@njit(cache=True)
def command_caps(tok, g, a):
    """Table 5.1 (kor_command.csv): the infantry and cavalry army ``a``'s leader commands."""
    kind = leader_kind(tok, g, a)
    if kind >= LEAD_MAGISTER_POPULI and kind <= LEAD_TRIBUNUS_CELERUM:
        code = kind - LEAD_MAGISTER_POPULI
        return OFFICE_INF[code], OFFICE_CAV[code]
    return ARMY_INF, ARMY_CAV


@njit(cache=True)
def raise_army(g, cp, t):
    """4.2, 9.2.7.1: an office drawn from R (or come off the turn track), or Titus Tatius, gets an army in Rome, its
    units taken from the Rome reserve as it forms (DP-K02). Returns its slot (-1: none free)."""
    for a in range(1, MAX_ARMIES):
        if g[G_LEADER + a] < 0:
            g[G_LEADER + a], g[G_ARMY_AT + a] = t, cp[CP_ROME]
            return a
    return -1


@njit(cache=True)
def army_of(g, t):
    """The army leader ``t`` commands, or -1."""
    for a in range(1, MAX_ARMIES):
        if g[G_LEADER + a] == t:
            return a
    return -1


@njit(cache=True, apart=True)
def disband(ts, g, cp, a):
    """Army ``a``'s leader leaves office or play: « les Fonctions qui cessent d'être effectives retournent dans le
    récipient R, et leurs armées dans la réserve de Rome » (7.1: the offices that cease go back to the R container
    and their armies to the Rome reserve)."""
    for t in range(ts.shape[0]):
        if in_army(ts, t, a):
            put(ts, t, L_ROME, 0, FACE_ROMAN)
    g[G_LEADER + a] = -1
    if g[G_ACTING] == a:
        g[G_ACTING] = 0


@njit(cache=True)
def end_office(ts, g, cp, t, dst):
    """Office ``t`` ceases: its army disbanded, its token into container ``dst`` (or out of play)."""
    a = army_of(g, t)
    if a > 0:
        disband(ts, g, cp, a)
    put(ts, t, dst, 0, FACE_NR if dst == L_NR else FACE_ROMAN)


@njit(cache=True)
def is_tribune(tok, g, a):
    kind = leader_kind(tok, g, a)
    return kind == LEAD_TRIBUNUS_POPULI or kind == LEAD_TRIBUNUS_CELERUM


@njit(cache=True)
def office_fate(ts, g, cp, row, t, won):
    """KoR 9.2.7.1: « Les Tribuns restent en fonction jusqu'au premier siège ou à la première bataille [...] un Tribun
    victorieux [...] retourne dans le récipient R. Un Tribun vaincu [...] est replacé dans le récipient NR » (the
    Tribunes stay in office until their first siege or battle; a victorious one goes back to R, a defeated one to
    NR; his +1 / -1 IP scored with the action): Tribune ``t``'s first siege or battle is over (one who fell in it
    is in NR already, ``leader_lost``)."""
    row[M_TRIBUNES_WON if won else M_TRIBUNES_BEATEN] += 1
    if army_of(g, t) > 0:
        end_office(ts, g, cp, t, L_R if won else L_NR)


@njit(cache=True)
def must_stay(tok, ts, g, cp, a):
    """4.2: « La présence d'un ou de plusieurs Magistri sur la carte oblige une armée à rester à Rome pour défendre
    la Cité. Si le Roi reste à Rome, le(s) Magister(s) peut(vent) se déplacer » (with Magistri in play an army stays
    in Rome; with the King in Rome they may leave), 9.2.7.1 « Le Magister Equitum ou le Magister Populi doit rester
    à Rome si le Roi se trouve hors de Rome » : whether army ``a`` (the royal army or a Magister's, in Rome) is
    the last of those in Rome while a Magister is in play. Tribunes and Titus Tatius are free."""
    rome = cp[CP_ROME]
    if g[G_ARMY_AT + a] != rome or not holds_rome(leader_kind(tok, g, a)):
        return False
    magister, other_home = False, False
    for b in range(MAX_ARMIES):
        kind = leader_kind(tok, g, b)
        magister |= kind == LEAD_MAGISTER_POPULI or kind == LEAD_MAGISTER_EQUITUM
        other_home |= b != a and holds_rome(kind) and g[G_ARMY_AT + b] == rome
    return magister and not other_home


@njit(cache=True)
def diarchy_allowed(tok, g, cp):
    """9.1.8.2: « Le joueur peut dépenser 3 PI et élire Tatius, s'il est à Rome, comme Rex Vicarius » (the player may
    spend 3 IP to elect Tatius, if he is in Rome, Rex Vicarius): Titus Tatius' army in Rome, not yet elected, 3 IP
    to spend (IP at 0 lose the campaign at once: the rules warn, they do not forbid)."""
    for a in range(1, MAX_ARMIES):
        if leader_kind(tok, g, a) == LEAD_TATIUS and g[G_ARMY_AT + a] == cp[CP_ROME]:
            return g[G_IP] >= DIARCHY_IP
    return False


@njit(cache=True, inline="always")
def holds_rome(kind):
    """Whether an army led by ``kind`` is one of those 4.2 keeps in Rome: the royal army's, a Magister's."""
    return kind == LEAD_KING or kind == LEAD_MAGISTER_POPULI or kind == LEAD_MAGISTER_EQUITUM


@njit(cache=True)
def army_here(tok, ts, g, c):
    """The first army (by slot, the royal army first) standing at ``c`` with units, or -1."""
    for a in range(MAX_ARMIES):
        if army_exists(g, a) and g[G_ARMY_AT + a] == c and army_units(tok, ts, a) > 0:
            return a
    return -1


@njit(cache=True, apart=True)
def weakest(tok, ts, loc, at, kind):
    """The weakest Roman unit at ``(loc, at)`` (of ``kind``; -1 either), the lowest Virtus, or -1."""
    best = -1
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == loc and ts[t, TS_AT] == at and is_kind(tok, t, kind):
            if best < 0 or tok[t, TK_VIRTUS] < tok[best, TK_VIRTUS]:
                best = t
    return best


@njit(cache=True)
def army_home(tok, ts, g, cp, a):
    """Army ``a`` goes back to Rome; its units join the Rome reserve (a lost battle, a leader alone in the way)."""
    for t in range(ts.shape[0]):
        if in_army(ts, t, a):
            put(ts, t, L_ROME, 0, FACE_ROMAN)
    g[G_ARMY_AT + a] = cp[CP_ROME]


@njit(cache=True)
def army_units(tok, ts, a):
    inf, cav = army_counts(tok, ts, a)
    return inf + cav


@njit(cache=True)
def army_mp(tok, ts, a):
    """5.2: an army moves at its slowest unit's allowance (infantry 14 MP, cavalry and leaders 20)."""
    inf, cav = army_counts(tok, ts, a)
    return MP_INFANTRY if inf > 0 else MP_CAVALRY


@njit(cache=True)
def post_units(tok, ts, g, dstate):
    """The counter block of the state (``KU_*``): each Roman military unit a choice may take, in the acting army,
    another army, the Rome reserve or dismissed while the army forms, and the room left in the acting army (its
    leader's caps, ``K_CAP_*``, table 5.1). Returns how many there are."""
    if dstate[D_COUNTERS] != ts.shape[0]:  # what never changes, once for the scratch state
        for t in range(ts.shape[0]):
            military = is_kind(tok, t, -1)
            dstate[ku(t, KU_KIND)] = tok[t, TK_KIND] if military else -1
            dstate[ku(t, KU_VIRTUS)] = tok[t, TK_VIRTUS] if military else 0
        dstate[D_COUNTERS] = ts.shape[0]
    acting = g[G_ACTING]
    inf, cav, n = 0, 0, 0
    for t in range(ts.shape[0]):
        loc = ts[t, TS_LOC]
        at = U_ELSEWHERE
        if dstate[ku(t, KU_KIND)] >= 0:
            if loc == L_ARMY and ts[t, TS_AT] == acting:
                at = U_ARMY
                if tok[t, TK_KIND] == INF:
                    inf += 1
                else:
                    cav += 1
            elif loc == L_ARMY:
                at = U_OTHER_ARMY
            elif loc == L_ROME:
                at = U_ROME
            elif loc == L_DISMISSED:
                at = U_DISMISSED
        if at != U_ELSEWHERE:
            n += 1
        dstate[ku(t, KU_AT)] = at
    dstate[D_INF_ROOM], dstate[D_CAV_ROOM] = max(dstate[K_CAP_INF] - inf, 0), max(dstate[K_CAP_CAV] - cav, 0)
    return n


@njit(cache=True)
def army_legal(state, action):
    """DP-K02 (4.2): 0 ends the forming; 1 + t sends unit t of the acting army out of it (into the Rome reserve when
    the forming ends), or takes unit t of the Rome reserve into it while the army has room for its kind (table
    5.1: the King 4 infantry and 2 cavalry, an office its own)."""
    if action == 0:
        return True
    t = action - 1
    if not 0 <= t < state[D_COUNTERS]:
        return False
    at = state[ku(t, KU_AT)]
    if at == U_ARMY:
        return True
    room = state[D_INF_ROOM] if state[ku(t, KU_KIND)] == INF else state[D_CAV_ROOM]
    return at == U_ROME and room > 0


@njit(cache=True)
def army_choice(state):
    """Whether DP-K02 offers more than ending the forming: a unit to send out, or one with room to join."""
    for t in range(state[D_COUNTERS]):
        if state[ku(t, KU_AT)] != U_ELSEWHERE and army_legal(state, 1 + t):
            return True
    return False


@njit(cache=True)
def army_apply(ts, g, dstate, action):
    """DP-K02's answer: the unit in or out (the state follows), or the forming's end."""
    if action == 0:
        end_forming(ts, g)
        return
    t = action - 1
    g[G_FORMING] = RESHAPED
    kind = dstate[ku(t, KU_KIND)]
    room, count = (D_INF_ROOM, K_INF) if kind == INF else (D_CAV_ROOM, K_CAV)
    if dstate[ku(t, KU_AT)] == U_ARMY:
        put(ts, t, L_DISMISSED, 0, FACE_ROMAN)
        dstate[ku(t, KU_AT)] = U_DISMISSED
        dstate[count] -= 1
    else:
        put(ts, t, L_ARMY, g[G_ACTING], FACE_ROMAN)
        dstate[ku(t, KU_AT)] = U_ARMY
        dstate[count] += 1
    dstate[room] = max(dstate[K_CAP_INF if kind == INF else K_CAP_CAV] - dstate[count], 0)
    if dstate[K_MP]:  # 5.2: an army moves at its slowest unit's allowance (0: pinned where it stands)
        dstate[K_MP] = MP_INFANTRY if dstate[K_INF] > 0 else MP_CAVALRY


@njit(cache=True)
def army_to_form(city, cost, tok, ts, cs, ws, g, cp, per, dstate):
    """DP-K02: whether the player is still to form the acting army in Rome (its state posted as the forming
    begins); with nothing left to choose, the forming ends. Titus Tatius « ne peut commander que des troupes
    sabines » (9.1.8.1: commands Sabine troops only): his army is the Sabines he came with."""
    if leader_kind(tok, g, g[G_ACTING]) == LEAD_TATIUS:
        g[G_FORMING] = FORMED
        return False
    if g[G_FORMING] == NOT_FORMED:
        g[G_FORMING] = FORMING
        post_action(city, cost, tok, ts, cs, ws, g, cp, per, dstate)
    if army_choice(dstate):
        return True
    end_forming(ts, g)
    return False


@njit(cache=True)
def end_forming(ts, g):
    """The acting army is formed: the units sent out of it join the Rome reserve."""
    if g[G_FORMING] != RESHAPED:
        g[G_FORMING] = KEPT
        return
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_DISMISSED:
            put(ts, t, L_ROME, 0, FACE_ROMAN)
    g[G_FORMING] = FORMED


# ======================================================================================= set-up (5.1, 3.4-3.6)
@njit(cache=True)
def place_in(ts, t, c, face):
    """Counter ``t`` into city ``c`` with ``face`` up; no city (-1): the general reserve."""
    if c < 0:
        put(ts, t, L_RESERVE, 0, face)
    else:
        put(ts, t, L_CITY, c, face)


@njit(cache=True)
def place_nr_garrison(city, cost, cs, tok, ts, t, cp, stream):
    """4.1.1: an NR garrison goes to a city of its people not held by Rome: first those with no garrison or a
    1-point one (even if farther), then the nearest to Rome by road. No such city: the general reserve."""
    rome = cp[CP_ROME]
    people = tok[t, TK_PEOPLE]
    best, best_key = -1, 1 << 50
    garrison, _ = nr_strength(tok, ts, city.shape[0])
    for c in range(city.shape[0]):
        if city[c, CT_ENTRY] or city[c, CT_PEOPLE] != people or cs[c, CS_ROMAN]:
            continue
        tier = 0 if garrison[c] <= 1 else 1
        key = tier * (1 << 40) + cost[0, rome, c]
        if key < best_key:
            best, best_key = c, key
    place_in(ts, t, best, FACE_NR)


@njit(cache=True)
def garrison_places(tok, ts, cs, cp, v, dstate):
    """4.1.1 (DP-K05): the Roman cities, Rome aside, whose garrison stays within 3 points with one of Virtus
    ``v`` added (``allowed``; ``roman_garrison`` the garrison of each Roman city): how many."""
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_FACE] == FACE_ROMAN and tok[t, TK_KIND] == GARRISON:
            dstate[kd(ts[t, TS_AT], KD_ROMAN_GARRISON)] += tok[t, TK_VIRTUS]
    n = 0
    for c in range(cs.shape[0]):
        fits = cs[c, CS_ROMAN] and c != cp[CP_ROME] and dstate[kd(c, KD_ROMAN_GARRISON)] + v <= 3
        dstate[kd(c, KD_ALLOWED)] = fits
        n += 1 if fits else 0
    return n


@njit(cache=True)
def place_nr_unit(city, cost, cs, tok, ts, t, cp):
    """4.1.2: an NR unit goes to the city printed on its NR face; held by Rome: the nearest city of its people
    that is not; none: the general reserve."""
    home = tok[t, TK_HOME]
    if home >= 0 and not cs[home, CS_ROMAN] and not city[home, CT_ENTRY]:
        put(ts, t, L_CITY, home, FACE_NR)
        return
    place_in(ts, t, nearest_city(city, cost, cs, tok, ts, home if home >= 0 else cp[CP_ROME], tok[t, TK_PEOPLE],
                                 False), FACE_NR)


@njit(cache=True)
def place_nr_leader(city, cost, cs, tok, ts, t, cp):
    """9.1.4: an NR leader goes to a city of his people, first one where troops are (the most), else one with a
    garrison; nearest to Rome among equals. None: the general reserve."""
    rome = cp[CP_ROME]
    people = tok[t, TK_PEOPLE]
    best, best_key = -1, 1 << 50
    garrison, troops = nr_strength(tok, ts, city.shape[0])
    for c in range(city.shape[0]):
        if city[c, CT_ENTRY] or city[c, CT_PEOPLE] != people or cs[c, CS_ROMAN]:
            continue
        units = troops[c]
        if units == 0 and garrison[c] == 0:
            continue
        key = (16 - min(units, 15)) * (1 << 40) + cost[0, rome, c]
        if key < best_key:
            best, best_key = c, key
    place_in(ts, t, best, FACE_NR)


@njit(cache=True, apart=True)
def campaign_setup(stream, cp, city, tok, per, ts, g, cs, ws, row):
    """KoR 5.1 (3.4-3.6): Romulus' army and the Rome reserve, IP 5, VP 1, the NR garrisons of 3.5, the containers."""
    rome = cp[CP_ROME]
    for t in range(tok.shape[0]):
        kind = tok[t, TK_KIND]
        # the general reserve holds every base counter; kings, named leaders, offices and events wait for their
        # period, invasion units for their war (TK_CODE > 0)
        if (kind == INF or kind == CAV or kind == GARRISON) and tok[t, TK_PERIOD] == 0:
            put(ts, t, L_RESERVE, 0, FACE_ROMAN)
        else:
            put(ts, t, L_ASIDE, 0, FACE_ROMAN)
    cs[:, :] = 0
    ws[:, :] = -1
    g[:] = 0
    g[G_TURN], g[G_PERIOD], g[G_IP], g[G_VP] = 1, 1, 5, 1
    g[G_ARMY_AT] = rome
    g[G_LEADER + 1:G_LEADER + MAX_ARMIES] = -1
    g[G_FIRST_ETRUSCAN_LEADER] = -1
    g[G_WAR_PEOPLE] = -1
    row[:] = 0
    # the King and Rome's own garrison of 3 (3.4)
    for t in range(tok.shape[0]):
        if tok[t, TK_KIND] == KING and tok[t, TK_CODE] == 1:
            put(ts, t, L_ROME, 0, FACE_ROMAN)
            g[G_KING] = t
            g[G_COMMANDER] = t
    cs[rome, CS_ROMAN] = 1
    for t in range(tok.shape[0]):
        if tok[t, TK_KIND] == GARRISON and tok[t, TK_PEOPLE] == ROMAN and ts[t, TS_LOC] == L_RESERVE:
            put(ts, t, L_CITY, rome, FACE_ROMAN)
            break
    # 5.1.1: 4 infantry + 1 cavalry for Romulus' army, 3 infantry for the Rome reserve, drawn from the base units
    for k in range(8):
        t = pick_base(tok, ts, INF if k != 4 else CAV, stream)
        if t >= 0:
            put(ts, t, L_ARMY if k < 5 else L_ROME, 0, FACE_ROMAN)
    # 3.5: the NR garrisons, one per listed city with the listed value
    for c in range(city.shape[0]):
        v = city[c, CT_GARRISON0]
        if v > 0 and c != rome:
            t = pick_garrison(tok, ts, city[c, CT_PEOPLE], v, stream)
            if t >= 0:
                put(ts, t, L_CITY, c, FACE_NR)
    # 3.6: 29 random units + the period's events and leaders, shuffled, half in each container
    prepare_period(stream, cp, city, tok, per, ts, g, row, 1)


@njit(cache=True)
def pick_base(tok, ts, kind, stream):
    """A random base military unit (not an invasion army's) of ``kind`` (-1: either) in the general reserve."""
    return pick(tok, ts, L_RESERVE, kind, -1, True, 0, stream)


@njit(cache=True)
def pick_garrison(tok, ts, people, value, stream):
    """A garrison counter of ``people`` (-2: any but Rome's) in the general reserve, of ``value`` if there is one
    (0: any value), at random."""
    t = pick(tok, ts, L_RESERVE, GARRISON, people, False, value, stream)
    return t if t >= 0 or value == 0 else pick(tok, ts, L_RESERVE, GARRISON, people, False, 0, stream)


@njit(cache=True)
def enters_containers(tok, t, period):
    """The named counters that enter the containers at ``period``'s start: its events and its leaders and offices
    (kings, the Interrex, Titus Tatius and the invasion armies' leaders come otherwise)."""
    kind, code = tok[t, TK_KIND], tok[t, TK_CODE]
    if tok[t, TK_PERIOD] != period:
        return False
    if kind == EVENT or kind == OFFICE:
        return True
    return kind == LEADER and (code == LD_OTHER or code == LD_METIUS or code == LD_PORSENNA)


@njit(cache=True, apart=True)
def prepare_period(stream, cp, city, tok, per, ts, g, row, period):
    """9.x.2 container preparation (3.6 for the first period): the period's random units and garrisons from the
    general reserve and its named tokens, shuffled; ``PR_PER_CONTAINER`` into each container; what is left:
    units and garrisons back to the general reserve, named tokens shared R/NR at random, the odd one to NR (9.2.2),
    or events to NR (9.4.2)."""
    # each share's draws from a pool of the counters it draws among (``pick``'s draws, a pass over the counters a
    # share rather than two a draw)
    pool = np.empty(ts.shape[0], np.int64)
    n = pool_of(tok, ts, L_RESERVE, -1, -1, True, 0, pool)  # pick_base's
    for _ in range(min(per[period, PR_PREP_UNITS], n)):
        put(ts, draw_from(pool, n, stream), L_PREP, 0, FACE_ROMAN)
        n -= 1
    n = pool_of(tok, ts, L_RESERVE, GARRISON, -2, False, 0, pool)  # pick_garrison's, of any value
    for _ in range(min(per[period, PR_PREP_GARRISONS], n)):
        put(ts, draw_from(pool, n, stream), L_PREP, 0, FACE_ROMAN)
        n -= 1
    for t in range(tok.shape[0]):
        if ts[t, TS_LOC] == L_ASIDE and enters_containers(tok, t, period):
            put(ts, t, L_PREP, 0, FACE_ROMAN)
    n = pool_of(tok, ts, L_PREP, ANY_KIND, -1, False, 0, pool)
    k = per[period, PR_PER_CONTAINER]
    if k == 0:  # the first period: all of them, half in each (3.6)
        k = n // 2
    for _ in range(k):
        if n > 0:
            put(ts, draw_from(pool, n, stream), L_R, 0, FACE_ROMAN)
            n -= 1
        if n > 0:
            put(ts, draw_from(pool, n, stream), L_NR, 0, FACE_NR)
            n -= 1
    # what is left: units and garrisons back to the general reserve; the leaders and events « seront placés au
    # hasard pour moitié dans la réserve R et pour moitié dans la réserve NR. S'ils sont en nombre impair, la
    # majorité doit être placée dans NR » (9.2.2: at random, half in R and half in NR, the odd one in NR); in
    # period 4 the events to NR and the rest to the general reserve (9.4.2)
    for t in range(tok.shape[0]):
        kind = tok[t, TK_KIND]
        if ts[t, TS_LOC] == L_PREP and (kind == INF or kind == CAV or kind == GARRISON or period == 4):
            if period == 4 and kind == EVENT:
                put(ts, t, L_NR, 0, FACE_NR)
            else:
                put(ts, t, L_RESERVE, 0, FACE_ROMAN)
    to_nr = True
    n = pool_of(tok, ts, L_PREP, ANY_KIND, -1, False, 0, pool)
    while n > 0:
        put(ts, draw_from(pool, n, stream), L_NR if to_nr else L_R, 0, FACE_NR if to_nr else FACE_ROMAN)
        n -= 1
        to_nr = not to_nr


# ============================================================================================== period start
@njit(cache=True, apart=True)
def start_period(stream, cp, city, tok, per, ts, g, cs, ws, row):
    """9.x.1-9.x.2: the new King (Inauguratio from period 3: a failure gives the Interrex, 9.3.1, 2.12), the
    period's tokens into the containers, then the 2-for-2 swap of 7.6 (KOR-A56 once_after_new_tokens)."""
    period = g[G_PERIOD]
    old = g[G_KING]
    put(ts, old, L_OUT, 0, FACE_ROMAN)
    if g[G_COMMANDER] != old:
        put(ts, g[G_COMMANDER], L_ASIDE, 0, FACE_ROMAN)
    for t in range(tok.shape[0]):
        if tok[t, TK_KIND] == KING and tok[t, TK_CODE] == period:
            put(ts, t, L_ROME, 0, FACE_ROMAN)
            g[G_KING] = t
            g[G_COMMANDER] = t
    fail_on = per[period, PR_INAUGURATIO_FAIL]
    if fail_on > 0 and rng.d6(stream) >= fail_on:
        for t in range(tok.shape[0]):
            if tok[t, TK_KIND] == KING and tok[t, TK_CODE] == 0:
                put(ts, t, L_ROME, 0, FACE_ROMAN)
                g[G_COMMANDER] = t
    g[G_PRESTIGE_DONE] = 0
    prepare_period(stream, cp, city, tok, per, ts, g, row, period)
    swap(stream, ts, g, row)
    if cp[CP_PERIOD_SWAP_TWICE]:
        swap(stream, ts, g, row)


@njit(cache=True, apart=True)
def swap(stream, ts, g, row):
    """7.6: 2 random tokens from each container into the other (taken from both before either receives)."""
    if g[G_ENDED]:
        return
    a0, a1 = pick_at(ts, L_R, stream), -1
    if a0 >= 0:
        ts[a0, TS_LOC] = L_PREP
        a1 = pick_at(ts, L_R, stream)
        if a1 >= 0:
            ts[a1, TS_LOC] = L_PREP
    b0, b1 = pick_at(ts, L_NR, stream), -1
    if b0 >= 0:
        ts[b0, TS_LOC] = L_PREP
        b1 = pick_at(ts, L_NR, stream)
        if b1 >= 0:
            ts[b1, TS_LOC] = L_PREP
    for t in (a0, a1):
        if t >= 0:
            put(ts, t, L_NR, 0, FACE_NR)
    for t in (b0, b1):
        if t >= 0:
            put(ts, t, L_R, 0, FACE_ROMAN)
    check_containers(ts, g, row)


@njit(cache=True)
def roman_garrison(city, cost, tok, ts, cs, ws, g, cp, per, dstate):
    """4.1.1: the Roman garrison just drawn joins a Roman city, Rome aside, whose garrison stays within 3 points,
    the player's choice (DP-K05: returns True, its state posted); with none, the general reserve."""
    t = g[G_DRAWN] - 1
    dstate[D_HEADER:D_UNITS] = 0
    if garrison_places(tok, ts, cs, cp, tok[t, TK_VIRTUS], dstate) == 0:
        dstate[D_HEADER:D_UNITS] = 0
        put(ts, t, L_RESERVE, 0, FACE_ROMAN)
        g[G_DRAWN] = 0
        return False
    post_action(city, cost, tok, ts, cs, ws, g, cp, per, dstate)
    dstate[D_GARRISON] = tok[t, TK_VIRTUS]
    return True


@njit(cache=True)
def greek_excess(city, cost, cp, tok, ts, cs, ws, g, per, dstate):
    """KoR 9.6.7.2: « Les unités excédentaires sont placées sur la carte, une pour chaque Cité grecque de votre
    choix » (the excess units are placed on the map, one for each Greek city of your choice: DP-K08). The next
    waiting unit goes to a Greek city, not Rome's, that holds the fewest of the war's units (``allowed``;
    ``distance`` from the war's start, ``to_rome``); none, the start place. Returns True when the player is to
    choose among two or more, its state posted; else the units have gone where they had to."""
    while g[G_EXCESS] > 0:
        u = -1
        for t in range(ts.shape[0]):
            if ts[t, TS_LOC] == L_EXCESS:
                u = t
                break
        k = ts[u, TS_AT]
        w, start, rome = ws[k, WS_WAR], ws[k, WS_START], cp[CP_ROME]
        fewest, choices, only = 1 << 30, 0, -1
        for c in range(cp[CP_CITIES]):
            there = excess_held(city, cost, cs, tok, ts, w, tok[u, TK_PEOPLE], start, c)
            there = there if there >= 0 else 1 << 30
            dstate[kd(c, KD_ALLOWED)] = there
            fewest = min(fewest, there)
        for c in range(cp[CP_CITIES]):
            fits = fewest < (1 << 30) and dstate[kd(c, KD_ALLOWED)] == fewest
            dstate[kd(c, KD_ALLOWED)] = fits
            dstate[kd(c, KD_DISTANCE)], dstate[kd(c, KD_TO_ROME)] = cost[0, start, c], cost[0, c, rome]
            if fits:
                choices += 1
                only = c
        if choices >= 2:
            post_action(city, cost, tok, ts, cs, ws, g, cp, per, dstate)
            dstate[D_EXCESS] = g[G_EXCESS]
            return True
        dstate[D_HEADER:D_UNITS] = 0
        place_in(ts, u, only if only >= 0 else (-1 if city[start, CT_ENTRY] else start), FACE_NR)
        g[G_EXCESS] -= 1
    return False


@njit(cache=True)
def place_excess(ts, g, c):
    """DP-K08's answer: the next waiting Greek unit into city ``c``."""
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_EXCESS:
            put(ts, t, L_CITY, c, FACE_NR)
            g[G_EXCESS] -= 1
            return


# ================================================================================================== draws
@njit(cache=True)
def draw(stream, cp, city, cost, tok, war, ts, g, cs, ws, codes, params, slots, row, src):
    """One token drawn from container ``src`` and applied at once, on the face of that container (4.0, 4.1); a
    token that asks for a replacement (9.1.8.1, 9.5.7.4) is followed by another draw. A draw from an empty R
    container loses the campaign (8.0 a)."""
    again = True
    while again and g[G_ENDED] == 0:
        t = pick_at(ts, src, stream)
        if t < 0:
            if src == L_R:
                finish(g, row, 0, END_R_EMPTY)
            else:
                check_containers(ts, g, row)
            return
        again = apply_token(stream, cp, city, cost, tok, war, ts, g, cs, ws, codes, params, slots, row, t, src)
        check_containers(ts, g, row)
        if g[G_ALBA_MARCH]:
            return  # 9.3.7.3 a: the army is formed first (DP-K02); the draw ends after the march (campaign_advance)
    prepared_back(ts, src)


@njit(cache=True)
def prepared_back(ts, src):
    """The tokens set aside during a draw (9.5.7.4) go back into the container it was made from."""
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_PREP:
            ts[t, TS_LOC] = src


@njit(cache=True, apart=True)
def apply_token(stream, cp, city, cost, tok, war, ts, g, cs, ws, codes, params, slots, row, t, src):
    """The token table of 5.2 (4.0, 4.1.1, 4.1.2, 9.1.4, 9.2.7.1) and the special tokens of 9.1-9.7. Returns
    whether the draw is to be replaced by another."""
    kind = tok[t, TK_KIND]
    roman = src == L_R
    if kind == INF or kind == CAV:
        if roman:
            put(ts, t, L_ROME, 0, FACE_ROMAN)
        else:
            place_nr_unit(city, cost, cs, tok, ts, t, cp)
    elif kind == GARRISON:
        if roman:
            # 4.1.1: into a Roman city the player chooses (DP-K05), asked when the draw is over
            put(ts, t, L_DRAWN, 0, FACE_ROMAN)
            g[G_DRAWN] = t + 1
        else:
            place_nr_garrison(city, cost, cs, tok, ts, t, cp, stream)
    elif kind == OFFICE:
        if roman:
            put(ts, t, L_ROME, 0, FACE_ROMAN)
            raise_army(g, cp, t)
        else:
            put(ts, t, L_TRACK, g[G_TURN] + 2, FACE_ROMAN)  # KOR-A49: in Rome two turns later
    elif kind == SHIP:
        # 5.8: "Les flottes Romaines extraites du récipient sont placées à Ostia"; from NR, by the token table, it
        # leaves play
        if roman:
            put(ts, t, L_FLEET, cp[CP_OSTIA], FACE_ROMAN)
        else:
            put(ts, t, L_OUT, 0, FACE_ROMAN)
    elif kind == LEADER:
        code = tok[t, TK_CODE]
        if code == LD_PORSENNA:
            # 9.7.7.4: at Vetulonia whichever container he comes from
            put(ts, t, L_CITY, war_start(war, W_ETRUSCAN, 3), FACE_NR)
            g[G_PORSENNA_EVER] = 1
        elif code == LD_METIUS:
            if roman:
                put(ts, t, L_OUT, 0, FACE_ROMAN)  # 9.3.7.1: removed from the game
            else:
                metius(stream, cp, cs, tok, ts, t)
        elif roman:
            put(ts, t, L_NR, 0, FACE_NR)  # the token table: an NR leader drawn from R goes into the NR container
        else:
            place_nr_leader(city, cost, cs, tok, ts, t, cp)
    elif kind == EVENT:
        row[(M_EVENT_R if roman else M_EVENT_NR) + tok[t, TK_CODE]] += 1
        return apply_event(stream, cp, city, cost, tok, war, ts, g, cs, ws, codes, params, slots, row, t, roman)
    else:
        put(ts, t, L_OUT, 0, FACE_ROMAN)
    return False


@njit(cache=True)
def war_row(code, occurrence):
    """The row of ``war`` for war ``code``: the second and third Etruscan wars (from Cosa and Vetulonia, 9.6.7.1,
    9.7.7.3) have their own rows after ``N_WARS`` for what differs (start, ships)."""
    if code == W_ETRUSCAN and occurrence > 1:
        return N_WARS + occurrence - 2
    return code


@njit(cache=True)
def war_start(war, code, occurrence):
    """Where war ``code`` starts; the Etruscan wars from Kaieta, Cosa, Vetulonia (9.5.7.4, 9.6.7.1, 9.7.7.3)."""
    return war[war_row(code, occurrence), WR_START]


@njit(cache=True)
def metius(stream, cp, cs, tok, ts, t):
    """9.3.7.1: Metius Fufetius drawn from NR: at Alba Longa with 2 cavalry and 1 Latin infantry taken from the
    map, else the general reserve (at random, C5), an NR leader (Alba Longa held by Rome: he leaves play)."""
    alba = cp[CP_ALBA]
    if cs[alba, CS_ROMAN]:
        put(ts, t, L_OUT, 0, FACE_ROMAN)
        return
    put(ts, t, L_CITY, alba, FACE_NR)
    for k in range(3):
        kind, people = (CAV, -1) if k < 2 else (INF, LATINS)
        u = pick_on_map(tok, ts, kind, people, alba, stream)
        if u < 0:
            u = pick(tok, ts, L_RESERVE, kind, people, True, 0, stream)
        if u >= 0:
            put(ts, u, L_CITY, alba, FACE_NR)


@njit(cache=True, apart=True)
def pick_on_map(tok, ts, kind, people, avoid, stream):
    """An NR base unit of ``kind`` (and ``people``, -1 any) in a city other than ``avoid``, at random (C5); -1 if
    there is none."""
    n = 0
    for t in range(ts.shape[0]):
        if matches(tok, ts, t, L_CITY, kind, people, True, 0) and ts[t, TS_FACE] == FACE_NR and ts[t, TS_AT] != avoid:
            n += 1
    if n == 0:
        return -1
    k = rng.dn(stream, n)
    for t in range(ts.shape[0]):
        if matches(tok, ts, t, L_CITY, kind, people, True, 0) and ts[t, TS_FACE] == FACE_NR and ts[t, TS_AT] != avoid:
            k -= 1
            if k == 0:
                return t
    return -1


# ================================================================================================= events
@njit(cache=True, apart=True)
def apply_event(stream, cp, city, cost, tok, war, ts, g, cs, ws, codes, params, slots, row, t, roman):
    """The special tokens of the seven periods (9.1.8-9.7.7; kor_events.csv), the R or the NR side. Returns whether
    the draw is replaced by another (9.1.8.1, 9.5.7.4)."""
    code = tok[t, TK_CODE]
    if code == EV_SABINES:
        if g[G_PERIOD] > 1:
            # 9.1.8.1: after the Romulus era it is discarded and replaced by another draw
            put(ts, t, L_OUT, 0, FACE_ROMAN)
            return True
        put(ts, t, L_OUT, 0, FACE_ROMAN)
        if roman:
            # KOR-A63: « vous prenez 4 jetons de la réserve générale et les placez dans le même récipient » (4
            # tokens of the general reserve, units or garrisons, into R), then 2 extra R draws
            for _ in range(4):
                u = pick(tok, ts, L_RESERVE, TOKEN, -1, True, 0, stream)
                if u >= 0:
                    put(ts, u, L_R, 0, FACE_ROMAN)
            g[G_EXTRA_R_DRAWS] += cp[CP_SABINES_EXTRA]
        else:
            tatius(stream, cp, tok, ts, g)
            check_containers(ts, g, row)  # 8.0 a: a unit from the NR container may have been its last token
    elif code == EV_AEQUI or code == EV_VOLSCI or code == EV_PICENI or code == EV_FALISCI or \
            code == EV_CAPENA or code == EV_SAMNITE or code == EV_UMBRIAN:
        w = EVENT_WAR[code]
        if roman:
            put(ts, t, L_NR, 0, FACE_NR)  # 9.1.8.3, 9.2.7.2-4, 9.4.7.3, 9.6.7.3: R side into the NR container
        else:
            start_war(stream, city, cost, tok, war, ts, g, cs, ws, row, w, t, 1)
            if w == W_FALISCI and g[G_TURN] <= cp[CP_FALERII_LAST_TURN] and not cs[cp[CP_FALERII], CS_ROMAN]:
                g[G_FALERII_DUE] = 1  # 9.2.6: Rome must now attack Falerii
    elif code == EV_GALLIC or code == EV_DANAI:
        if roman and not cp[CP_WAR_ANY_CONTAINER] and code == EV_DANAI:
            put(ts, t, L_NR, 0, FACE_NR)
        else:
            start_war(stream, city, cost, tok, war, ts, g, cs, ws, row, EVENT_WAR[code], t, 1)
    elif code == EV_ETRUSCAN:
        if roman and not cp[CP_WAR_ANY_CONTAINER]:
            put(ts, t, L_NR, 0, FACE_NR)
        elif g[G_ETRUSCAN_RUNNING]:
            # 9.5.7.4: drawn while an earlier Etruscan war still runs: put back (after the replacement is drawn,
            # so that it is not drawn again at once), draw a replacement
            put(ts, t, L_PREP, 0, FACE_ROMAN if roman else FACE_NR)
            return True
        else:
            occurrence = g[G_ETRUSCAN_WARS] + 1
            if porsenna_at(tok, ts) >= 0:
                occurrence = 3  # "if Porsenna is in play when a war is drawn, it becomes the third war"
            start_war(stream, city, cost, tok, war, ts, g, cs, ws, row, W_ETRUSCAN, t, occurrence)
    elif code == EV_OSTIA:
        if roman:
            # 9.4.7.1: the two Roman ships and up to 2 random garrisons from the general reserve into R
            for s in range(tok.shape[0]):
                if tok[s, TK_KIND] == SHIP and tok[s, TK_PEOPLE] == ROMAN and ts[s, TS_LOC] == L_ASIDE:
                    put(ts, s, L_R, 0, FACE_ROMAN)
            for _ in range(2):
                u = pick_garrison(tok, ts, -2, 0, stream)
                if u >= 0:
                    put(ts, u, L_R, 0, FACE_ROMAN)
            put(ts, t, L_OUT, 0, FACE_ROMAN)
            g[G_OSTIA] = OSTIA_FOUNDED
        else:
            put(ts, t, L_ASIDE, 0, FACE_ROMAN)
            g[G_OSTIA] = t + 1  # back into the R container after all draws
    elif code == EV_BRIDGE:
        g[G_BRIDGE] = 1  # 9.4.7.2: stays on the Rome map from either container
        put(ts, t, L_OUT, 0, FACE_ROMAN)
    elif code == EV_OMEN:
        # 9.5.7.1 (KOR-A58 stay_on_map): Good Omen from R, Bad Omen from NR, « Le mauvais présage a pour effet de
        # supprimer l'une des actions disponibles pour le joueur » (it takes away one of the player's available
        # actions): drawn before the action phase, one of the turn's allowance; during it (a reaction's draw at
        # once, KOR-A2), one of the actions left; after it (the reactions at its end), one of the next turn's
        g[G_OMEN_DRAWN] = 1
        if not roman:
            if g[G_STAGE] == ST_ACTIONS:
                g[G_ACTIONS] = max(g[G_ACTIONS] - 1, 0)
            else:
                g[G_BAD_OMEN_TURN] = g[G_TURN] + (g[G_STAGE] > ST_ACTIONS)
        if not roman and cp[CP_BAD_OMEN_TO_R]:
            put(ts, t, L_R, 0, FACE_ROMAN)  # KOR-A58 back_to_r_container: the action lost, no omen on the map
        else:
            g[G_OMEN] = OMEN_GOOD if roman else OMEN_BAD
            put(ts, t, L_OUT, 0, FACE_ROMAN)
    elif code == EV_END_ACTIONS:
        end_of_actions(stream, cp, tok, ts, g, row, t, roman)
    elif code == EV_MUCIUS:
        p = porsenna_at(tok, ts)
        if roman and p >= 0:
            # 9.7.7.1 (2.11): 4-6 with the Sublicius Bridge, 6 without; Mucius eliminated on a failure
            if rng.d6(stream) >= (4 if g[G_BRIDGE] else 6):
                remove_porsenna(tok, ts, ws, p)
            put(ts, t, L_OUT, 0, FACE_ROMAN)
        else:
            put(ts, t, L_R, 0, FACE_ROMAN)
    elif code == EV_COCLES:
        if roman and cocles_may_act(tok, ts, g, cp):
            cocles(stream, city, cost, cp, tok, war, ts, cs, ws, g, codes, params, slots, row)
            put(ts, t, L_OUT, 0, FACE_ROMAN)
        else:
            put(ts, t, L_R, 0, FACE_ROMAN)
    elif code == EV_HORATII:
        # 9.3.7.2: from NR removed; from R fought once the Alba Longa war has been drawn, set aside until then
        if roman and g[G_ALBA_DRAWN]:
            put(ts, t, L_OUT, 0, FACE_ROMAN)
            horatii(stream, city, cost, cp, tok, ts, cs, g, codes, params, slots, row)
        else:
            put(ts, t, L_ASIDE if roman else L_OUT, 0, FACE_ROMAN)
    else:
        put(ts, t, L_OUT, 0, FACE_ROMAN)
        alba_war(stream, city, cost, cp, tok, ts, cs, g, codes, params, slots, row, roman)  # EV_ALBA, 9.3.7.3
    return False


@njit(cache=True)
def tatius(stream, cp, tok, ts, g):
    """9.1.8.1 NR: Titus Tatius « entre à Rome avec deux unités d'infanterie et une unité de cavalerie sabine, prises
    dans la réserve générale ou dans les réserves, selon ce qui vient en premier » (enters Rome with 2 infantry and
    1 Sabine cavalry, taken from the general reserve or the containers, whichever comes first: the general reserve,
    else either container at random): his army, which he alone commands and only they may join."""
    a = -1
    for t in range(tok.shape[0]):
        if tok[t, TK_KIND] == LEADER and tok[t, TK_CODE] == LD_TATIUS:
            put(ts, t, L_ROME, 0, FACE_ROMAN)
            a = raise_army(g, cp, t)
    for k in range(3):
        kind = CAV if k == 2 else INF
        u = pick(tok, ts, L_RESERVE, kind, SABINES, True, 0, stream)
        if u < 0:
            in_r, in_nr = 0, 0
            for t in range(ts.shape[0]):
                in_r += matches(tok, ts, t, L_R, kind, SABINES, True, 0)
                in_nr += matches(tok, ts, t, L_NR, kind, SABINES, True, 0)
            if in_r + in_nr > 0:
                from_r = rng.dn(stream, in_r + in_nr) <= in_r
                u = pick(tok, ts, L_R if from_r else L_NR, kind, SABINES, True, 0, stream)
        if u >= 0:
            put(ts, u, L_ARMY, a, FACE_ROMAN)  # a free slot: no office is in play in Romulus' period


@njit(cache=True, apart=True)
def end_of_actions(stream, cp, tok, ts, g, row, t, roman):
    """9.5.7.2 (KOR-A58): from R, with the Bad Omen on the map no more Roman actions this turn, with the Good
    Omen 3 tokens NR->R, before the omen: into the NR container; from NR, the omen leaves play, or before it
    (end_of_actions_nr_before_omen) End of Actions goes to the R container, or the omen token leaves the
    containers (End of Actions with it), or both."""
    if roman:
        if g[G_OMEN] == OMEN_BAD:
            g[G_STOP_ACTIONS] = 1
            put(ts, t, L_OUT, 0, FACE_ROMAN)
        elif g[G_OMEN] == OMEN_GOOD:
            move_random(ts, L_NR, L_R, 3, stream, g, row)
            put(ts, t, L_OUT, 0, FACE_ROMAN)
        else:
            put(ts, t, L_NR, 0, FACE_NR)
    else:
        if g[G_OMEN_DRAWN]:
            g[G_OMEN] = OMEN_NONE
            put(ts, t, L_OUT, 0, FACE_ROMAN)
            return
        how = cp[CP_END_OF_ACTIONS_NR]
        if how != EOA_TO_R:
            for o in range(tok.shape[0]):
                if tok[o, TK_KIND] == EVENT and tok[o, TK_CODE] == EV_OMEN and \
                        (ts[o, TS_LOC] == L_R or ts[o, TS_LOC] == L_NR):
                    put(ts, o, L_OUT, 0, FACE_ROMAN)
        put(ts, t, L_OUT if how == EOA_REMOVE_OMEN else L_R, 0, FACE_ROMAN)


@njit(cache=True)
def porsenna_at(tok, ts):
    """Porsenna's counter when he is on the map (a city or an army), else -1."""
    for t in range(tok.shape[0]):
        if tok[t, TK_KIND] == LEADER and tok[t, TK_CODE] == LD_PORSENNA and \
                (ts[t, TS_LOC] == L_CITY or ts[t, TS_LOC] == L_WAR):
            return t
    return -1


@njit(cache=True)
def remove_porsenna(tok, ts, ws, p):
    if ts[p, TS_LOC] == L_WAR:
        ws[ts[p, TS_AT], WS_LEADER] = -1
    put(ts, p, L_OUT, 0, FACE_ROMAN)


# ======================================================================== Alba Longa and Cocles (9.3.7, 9.7.7.2)
# the places a duellist is taken from, in 9.3.7.2's priority order: Rome's, then Alba Longa's
ROMAN_DUELLISTS = (L_ROME, L_ARMY, L_RESERVE, L_R, L_NR)
LATIN_DUELLISTS = (L_CITY, L_RESERVE, L_NR, L_R)
DUEL_SIDE = _horatii.MAX_UNITS  # ids[:DUEL_SIDE] Rome's duellists, ids[DUEL_SIDE:] the other side's


@njit(cache=True)
def chosen(ids, t):
    for i in range(ids.shape[0]):
        if ids[i] == t:
            return True
    return False


@njit(cache=True, apart=True)
def duellist(tok, ts, ids, loc, people, avoid, strongest_first):
    """The strongest (or weakest) unit counter at ``loc`` not in ``ids``: on the map one showing its Roman face
    (``people`` -1; ``L_ARMY``: the royal army's) or its NR face of ``people`` (not in city ``avoid``); off the map
    any base counter (of ``people``). -1 if none."""
    best = -1
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] != loc or not is_kind(tok, t, -1) or tok[t, TK_CODE] != 0 or chosen(ids, t):
            continue
        if people >= 0 and tok[t, TK_PEOPLE] != people:
            continue
        if loc == L_CITY and (ts[t, TS_FACE] != FACE_NR or ts[t, TS_AT] == avoid):
            continue
        if loc == L_ARMY and ts[t, TS_AT] != 0:
            continue
        v = tok[t, TK_VIRTUS]
        if best < 0 or (v > tok[best, TK_VIRTUS] if strongest_first else v < tok[best, TK_VIRTUS]):
            best = t
    return best


@njit(cache=True)
def choose_duellists(tok, ts, ids, first, count, tiers, people, strongest_first):
    """9.3.7.2 (DP-H01, DP-H02): up to ``count`` duellists into ``ids[first:]``, each tier of ``tiers`` emptied
    before the next; Rome sends its strongest, and picks Alba Longa's weakest (the player picks both sides).
    Returns how many."""
    n = 0
    for loc in tiers:
        while n < count:
            t = duellist(tok, ts, ids, loc, people, -1, strongest_first)
            if t < 0:
                break
            ids[first + n] = t
            n += 1
    return n


@njit(cache=True, apart=True)
def duel(stream, cp, tok, ts, g, ids, n_roman, n_other, rome_first, volley, codes, params, slots, row):
    """The duel of 9.3.7.2 (``horatii.duel``: one side after the other, d6 >= the target's Virtus; the other side's
    dice at a random Roman) between ``ids[:n_roman]`` and ``ids[DUEL_SIDE:][:n_other]``
    (an id of -1: Horatius, Virtus 5, no counter). Rome's dice aim where the campaign's ``horatii.target`` (DP-H03)
    says; its illegal answer ends the campaign with its error. A unit eliminated goes to its own side's container
    (KOR-A45 own_container; opponent_container: the other). Returns whether Rome won; ``ids`` keeps the survivors
    only."""
    units = np.zeros(2 * DUEL_SIDE, np.int64)
    for i in range(2 * DUEL_SIDE):
        if (i < n_roman) or (DUEL_SIDE <= i < DUEL_SIDE + n_other):
            units[i] = tok[ids[i], TK_VIRTUS] if ids[i] >= 0 else HORATIUS_VIRTUS
    state = np.zeros(HORATII_STATE_SIZE, np.int64)
    i = PROC_BASE[PROC_HORATII]  # Rome's dice: DP-H03, the campaign's horatii.target
    romans, others, _, err = _horatii.duel(stream, units, state, n_roman, n_other, rome_first, volley, i, codes[i],
                                           params[i], slots)
    if err:
        err_end(g, err)
        return False
    for i in range(2 * DUEL_SIDE):
        t = ids[i]
        if t >= 0 and units[i] == 0:
            if tok[t, TK_CODE] != 0:
                put(ts, t, L_RESERVE, 0, FACE_ROMAN)  # an invasion army's counter, as when its war ends
            elif (i < DUEL_SIDE) != (cp[CP_DUEL_TO_OPPONENT] == 1):
                put(ts, t, L_R, 0, FACE_ROMAN)
            else:
                put(ts, t, L_NR, 0, FACE_NR)
            ids[i] = -2  # eliminated
    won = others == 0 and romans > 0
    row[M_DUELS] += 1
    if won:
        row[M_DUELS_WON] += 1
    return won


@njit(cache=True, apart=True)
def alba_romanized(city, cost, cs, tok, ts, g, cp):
    """Alba Longa passes to Rome (9.3.7.2-9.3.7.3 b-c): its garrison flipped; NR troops still in it go to the
    nearest Latin city (9.3.7.3 b); the happy outcome of 9.3.6 is scored at the period's end."""
    alba = cp[CP_ALBA]
    flip_garrisons(tok, ts, alba, FACE_ROMAN)
    romanize(cs, alba, g)
    refuge = nearest_city(city, cost, cs, tok, ts, alba, LATINS, False)
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == alba and ts[t, TS_FACE] == FACE_NR and \
                tok[t, TK_KIND] != GARRISON:
            place_in(ts, t, refuge, FACE_NR)
    g[G_ALBA_HAPPY] = 1


@njit(cache=True)
def horatii(stream, city, cost, cp, tok, ts, cs, g, codes, params, slots, row):
    """KoR 9.3.7.2: three Roman units (Rome reserve, map, general reserve, containers) against three Latin ones (map,
    general reserve, containers), Alba Longa rolling first. Rome wins: its survivors go to the Rome map and Alba
    Longa's garrison turns Roman; Alba wins: its survivors stay in Alba Longa."""
    ids = np.full(2 * DUEL_SIDE, -1, np.int64)
    n_roman = choose_duellists(tok, ts, ids, 0, 3, ROMAN_DUELLISTS, -1, True)
    n_latin = choose_duellists(tok, ts, ids, DUEL_SIDE, 3, LATIN_DUELLISTS, LATINS, False)
    if duel(stream, cp, tok, ts, g, ids, n_roman, n_latin, False, cp[CP_DUEL_VOLLEY] == 1, codes, params, slots, row):
        for i in range(n_roman):
            if ids[i] >= 0:
                put(ts, ids[i], L_ROME, 0, FACE_ROMAN)
        if not cs[cp[CP_ALBA], CS_ROMAN]:
            alba_romanized(city, cost, cs, tok, ts, g, cp)
    else:
        home = cp[CP_ALBA]
        if cs[home, CS_ROMAN]:
            home = nearest_city(city, cost, cs, tok, ts, home, LATINS, False)
        for i in range(DUEL_SIDE, DUEL_SIDE + n_latin):
            if ids[i] >= 0:
                place_in(ts, ids[i], home, FACE_NR)


@njit(cache=True)
def horatii_token(tok, ts):
    for t in range(tok.shape[0]):
        if tok[t, TK_KIND] == EVENT and tok[t, TK_CODE] == EV_HORATII:
            return t
    return -1


@njit(cache=True, apart=True)
def alba_war(stream, city, cost, cp, tok, ts, cs, g, codes, params, slots, row, roman):
    """KoR 9.3.7.3. From R: the Horatii and Curiatii come out of the containers (or from aside) and fight at once.
    From NR: the Horatii token leaves play; (a) the royal army (in Rome, formed by the player first: DP-K02,
    ``alba_march``) marches to Alba Longa, not to be reinforced, and
    Alba Longa gets one more Latin unit (map, general reserve, containers); (b) Rome rolls against a Latin leader
    there: d6 >= his Virtus captures him, scores his Virtus in VP and takes the city; else (c) the siege."""
    g[G_ALBA_DRAWN] = 1
    h = horatii_token(tok, ts)
    waiting = h >= 0 and (ts[h, TS_LOC] == L_R or ts[h, TS_LOC] == L_NR or ts[h, TS_LOC] == L_ASIDE or
                          ts[h, TS_LOC] == L_RESERVE)
    alba = cp[CP_ALBA]
    if roman:
        if waiting:
            put(ts, h, L_OUT, 0, FACE_ROMAN)
            horatii(stream, city, cost, cp, tok, ts, cs, g, codes, params, slots, row)
        return
    if waiting:
        put(ts, h, L_OUT, 0, FACE_ROMAN)
    if cs[alba, CS_ROMAN]:
        return  # Alba Longa is Rome's already: no war to fight
    if g[G_ARMY_AT] == cp[CP_ROME]:
        # (a) « La composition de cette armée est décidée par le joueur » (the player decides the army's
        # composition): an army in Rome is formed first (DP-K02); the march ends the draw (campaign_advance)
        g[G_ALBA_MARCH] = 1
        return
    alba_march(stream, city, cost, cp, tok, ts, cs, g, codes, params, slots, row)


@njit(cache=True, apart=True)
def alba_march(stream, city, cost, cp, tok, ts, cs, g, codes, params, slots, row):
    """KoR 9.3.7.3 a-c, the royal army as formed: it marches to Alba Longa, which gets one more Latin unit; the
    roll against a Latin leader there, else the siege."""
    alba = cp[CP_ALBA]
    g[G_ARMY_AT] = alba
    ids = np.full(1, -1, np.int64)
    for loc in LATIN_DUELLISTS:
        t = duellist(tok, ts, ids, loc, LATINS, alba, False)
        if t >= 0:
            put(ts, t, L_CITY, alba, FACE_NR)
            break
    leader = nr_leader_in(tok, ts, alba)
    if leader >= 0 and tok[leader, TK_PEOPLE] == LATINS and rng.d6(stream) >= tok[leader, TK_VIRTUS]:
        put(ts, leader, L_OUT, 0, FACE_ROMAN)  # captured
        g[G_VP] += tok[leader, TK_VIRTUS]
        alba_romanized(city, cost, cs, tok, ts, g, cp)
    else:
        alba_siege(stream, city, cost, cp, tok, ts, cs, g, codes, params, slots, row)
    check_containers(ts, g, row)  # 8.0 a: Alba Longa's new unit may have been the NR container's last token


@njit(cache=True, apart=True)
def alba_siege(stream, city, cost, cp, tok, ts, cs, g, codes, params, slots, row):
    """KoR 9.3.7.3 c-d: d6 >= the garrison's Virtus (troops inside do not count) and the city surrenders. Whatever
    the roll (KOR-A46 alba_duel_always), the Latin troops inside sally: at most 3 of them, at random, duel as many
    units of the royal army (its strongest), then go to the R container (KOR-A46 all_to_r_container;
    survivors_only: the eliminated ones go where the duel sends them). A failed roll is tried again on the next
    turn only; failed twice, the siege is lifted: the army goes home and Rome loses 2 IP."""
    alba = cp[CP_ALBA]
    surrendered = rng.d6(stream) >= garrison_value(tok, ts, alba, FACE_NR)
    if surrendered or cp[CP_ALBA_DUEL_ALWAYS]:
        latins = np.zeros(2 * DUEL_SIDE, np.int64)
        n = 0
        for t in range(ts.shape[0]):
            if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == alba and ts[t, TS_FACE] == FACE_NR and \
                    is_kind(tok, t, -1) and n < latins.shape[0]:
                latins[n] = t
                n += 1
        if n > 0:
            ids = np.full(2 * DUEL_SIDE, -1, np.int64)
            n_latin = min(n, 3)
            for i in range(n_latin):  # 3 at random: a partial shuffle
                j = i + (rng.dn(stream, n - i) - 1 if n - i > 1 else 0)
                latins[i], latins[j] = latins[j], latins[i]
                ids[DUEL_SIDE + i] = latins[i]
            n_roman = 0
            while n_roman < n_latin:
                t = duellist(tok, ts, ids, L_ARMY, -1, -1, True)
                if t < 0:
                    break
                ids[n_roman] = t
                n_roman += 1
            survivors_only = cp[CP_ALBA_SURVIVORS_ONLY] == 1
            duel(stream, cp, tok, ts, g, ids, n_roman, n_latin, False, cp[CP_DUEL_VOLLEY] == 1, codes, params, slots,
                 row)
            for i in range(n_latin):
                if ids[DUEL_SIDE + i] >= 0 or not survivors_only:
                    put(ts, latins[i], L_R, 0, FACE_ROMAN)
    if surrendered:
        g[G_ALBA_SIEGE] = 0
        alba_romanized(city, cost, cs, tok, ts, g, cp)
    elif g[G_ALBA_SIEGE] == 0:
        g[G_ALBA_SIEGE] = g[G_TURN] + 1
    else:
        g[G_ALBA_SIEGE] = 0
        army_home(tok, ts, g, cp, 0)
        add_ip(g, row, -2)


@njit(cache=True)
def alba_siege_again(stream, city, cost, cp, tok, ts, cs, g, codes, params, slots, row):
    """9.3.7.3 d: on the turn after a failed roll, 2 tokens R->NR first, then the siege once more (Alba Longa
    taken meanwhile, or the army gone: the siege is over)."""
    if g[G_ALBA_SIEGE] != g[G_TURN]:
        return
    if cs[cp[CP_ALBA], CS_ROMAN] or g[G_ARMY_AT] != cp[CP_ALBA]:
        g[G_ALBA_SIEGE] = 0
        return
    move_random(ts, L_R, L_NR, 2, stream, g, row)
    if g[G_ENDED] == 0:
        alba_siege(stream, city, cost, cp, tok, ts, cs, g, codes, params, slots, row)


@njit(cache=True)
def cocles_may_act(tok, ts, g, cp):
    """KOR-A47 cocles_prerequisite: the bridge on the Rome map, and Porsenna drawn at some time (default), or on
    the map now, or nothing more."""
    if not g[G_BRIDGE]:
        return False
    if cp[CP_COCLES_PREREQUISITE] == COCLES_PORSENNA_EVER:
        return g[G_PORSENNA_EVER] == 1
    if cp[CP_COCLES_PREREQUISITE] == COCLES_PORSENNA_ON_MAP:
        return porsenna_at(tok, ts) >= 0
    return True


@njit(cache=True)
def nr_unit_place(tok, ts, ws, t):
    """The place of counter ``t`` if it is an NR military unit on the map (in a city or an invasion army), or -1."""
    if not is_kind(tok, t, -1):
        return -1
    if ts[t, TS_LOC] == L_CITY and ts[t, TS_FACE] == FACE_NR:
        return ts[t, TS_AT]
    if ts[t, TS_LOC] == L_WAR:
        return ws[ts[t, TS_AT], WS_AT]
    return -1


@njit(cache=True)
def nearest_nr_group(cost, cp, tok, ts, ws):
    """The place of the NR military units (no garrisons) nearest to Rome (KOR-A47), or -1."""
    rome = cp[CP_ROME]
    best = -1
    for t in range(ts.shape[0]):
        c = nr_unit_place(tok, ts, ws, t)
        if c >= 0 and (best < 0 or cost[0, rome, c] < cost[0, rome, best]):
            best = c
    return best


@njit(cache=True, apart=True)
def cocles(stream, city, cost, cp, tok, war, ts, cs, ws, g, codes, params, slots, row):
    """KoR 9.7.7.2, DP-HC01 (the campaign's ``cocles.attempt``; its ``fixed`` built-in plays the ``cocles_attempt``
    parameter): direct, a 5 or 6 destroys the bridge; raid, Horatius (Virtus 5) and up to two Rome-reserve units
    (the strongest) duel the NR group nearest to Rome (up to 6 of its units, at random), first roller KOR-A47: won,
    the bridge falls and +2 VP; lost, -1 VP. A raid with no NR group to attack is a direct attempt; an illegal
    answer ends the campaign with its error."""
    c = nearest_nr_group(cost, cp, tok, ts, ws)
    ids = np.full(2 * DUEL_SIDE, -1, np.int64)
    n_roman = 1  # Horatius: ids[0] = -1
    while n_roman < 3:
        t = duellist(tok, ts, ids, L_ROME, -1, -1, True)
        if t < 0:
            break
        ids[n_roman] = t
        n_roman += 1
    group = np.zeros(ts.shape[0], np.int64)
    n = 0
    for t in range(ts.shape[0]):
        if c >= 0 and nr_unit_place(tok, ts, ws, t) == c:
            group[n] = t
            n += 1
    n_nr = min(n, DUEL_SIDE)
    i = PROC_BASE[PROC_COCLES]
    state = np.zeros(3, np.int64)  # DP-HC01's: the parameter's attempt, the raiding units, the NR group's units
    state[0], state[1], state[2] = cp[CP_COCLES_RAID], n_roman - 1, n_nr
    action = decide_cocles_attempt(codes[i], params[i], state, stream, slots, i)
    if action != 0 and action != 1:
        err_end(g, error_code(i, action))
        return
    if action == 0 or c < 0:
        if rng.d6(stream) >= 5:
            g[G_BRIDGE] = 0
        return
    for i in range(n_nr):
        j = i + (rng.dn(stream, n - i) - 1 if n - i > 1 else 0)
        group[i], group[j] = group[j], group[i]
        ids[DUEL_SIDE + i] = group[i]
    if duel(stream, cp, tok, ts, g, ids, n_roman, n_nr, cp[CP_COCLES_ROME_FIRST] == 1, False, codes, params, slots,
            row):
        g[G_BRIDGE] = 0
        g[G_VP] += 2
    else:
        g[G_VP] -= 1
    for k in range(MAX_WARS):
        if ws[k, WS_WAR] >= 0 and ws[k, WS_AT] == c and war_units(tok, ts, k) == 0:
            end_war(tok, war, ts, g, ws, k, True, row)


# =================================================================================================== wars
@njit(cache=True)
def roll_units(stream, base, die):
    """A war's dice (kor_invasions.csv): ``base`` + d6 when ``die``, never below 0 (KOR-A60)."""
    n = base + (rng.d6(stream) if die else 0)
    return max(n, 0)


@njit(cache=True)
def free_slot(ws):
    """The first slot of ``ws`` no NR army holds, -1 for none (``MAX_WARS`` armies in the field)."""
    for k in range(MAX_WARS):
        if ws[k, WS_WAR] < 0:
            return k
    return -1


@njit(cache=True, apart=True)
def start_war(stream, city, cost, tok, war, ts, g, cs, ws, row, w, token, occurrence):
    """An invasion army formed (9.1.8.3 ... 9.7.7.3): its leader and the units its dice give, within the army's
    caps (KOR-A60 max_cavalry_allowed_then_infantry for the Etruscans); the units over the caps stay in the
    start place as NR units. Its first hostile reaction is a military one when more are to come (6.0)."""
    k = free_slot(ws)
    if k < 0:
        put(ts, token, L_NR, 0, FACE_NR)  # no room on the map: the token waits in the NR container
        return
    start = war_start(war, w, occurrence)
    people = war[w, WR_PEOPLE]
    leader = -1
    if w == W_ETRUSCAN:
        leader = porsenna_at(tok, ts) if occurrence == 3 else -1
        if leader < 0:
            # Larth on 5-6, otherwise Zilath; the second war gets the leader the first did not use
            want = LD_LARTH
            if g[G_FIRST_ETRUSCAN_LEADER] >= 0:
                want = LD_ZILATH if g[G_FIRST_ETRUSCAN_LEADER] == LD_LARTH else LD_LARTH
            elif rng.d6(stream) < 5:
                want = LD_ZILATH
            if g[G_FIRST_ETRUSCAN_LEADER] < 0:
                g[G_FIRST_ETRUSCAN_LEADER] = want
            for t in range(tok.shape[0]):
                if tok[t, TK_KIND] == LEADER and tok[t, TK_CODE] == want and ts[t, TS_LOC] == L_ASIDE:
                    leader = t
    else:
        for t in range(tok.shape[0]):
            if tok[t, TK_KIND] == LEADER and tok[t, TK_CODE] == LD_WAR and tok[t, TK_PEOPLE] == people and \
                    ts[t, TS_LOC] == L_ASIDE:
                leader = t
                break
    inf = roll_units(stream, war[w, WR_INF], war[w, WR_INF_DIE])
    cav = roll_units(stream, war[w, WR_CAV], war[w, WR_CAV_DIE])
    cap = war[w, WR_CAP] + (2 if w == W_ETRUSCAN and leader >= 0 and tok[leader, TK_CODE] == LD_PORSENNA else 0)
    fill = war[w, WR_FILL]
    if fill == FILL_FEWER_CAVALRY_INFANTRY_FIRST:
        army_inf = min(inf, cap)
        army_cav = max(min(cav, cap - army_inf, army_inf - 1), 0)
    elif fill == FILL_FEWER_CAVALRY_MAX_CAVALRY:
        army_cav = min(cav, (cap - 1) // 2)
        army_inf = min(inf, cap - army_cav)
    elif fill == FILL_CAVALRY_FIRST:
        army_cav = min(cav, war[w, WR_CAP_CAV], cap)
        army_inf = min(inf, war[w, WR_CAP_INF], cap - army_cav)
    else:
        army_inf = min(inf, war[w, WR_CAP_INF], cap)
        army_cav = min(cav, war[w, WR_CAP_CAV], cap - army_inf)
    ws[k, WS_WAR], ws[k, WS_AT], ws[k, WS_LEADER], ws[k, WS_NEW], ws[k, WS_TOKEN] = w, start, leader, 1, token
    ws[k, WS_PASSED], ws[k, WS_LINGER], ws[k, WS_START], ws[k, WS_ROUTED] = -1, 0, start, 0
    if leader >= 0:
        put(ts, leader, L_WAR, k, FACE_NR)
    for kind, want, in_army in ((INF, inf, army_inf), (CAV, cav, army_cav)):
        for j in range(want):
            u = war_unit(tok, ts, w, kind, stream)
            if u < 0:
                break  # the fixed counter mix caps the dice (9.4.7.3)
            if j < in_army:
                put(ts, u, L_WAR, k, FACE_NR)
            elif w == W_DANAI:
                put(ts, u, L_EXCESS, k, FACE_NR)  # one per Greek city of the player's choice (DP-K08), asked
                g[G_EXCESS] += 1                  # when the draw is over
            else:
                place_in(ts, u, excess_home(city, cost, cs, tok, ts, w, people, start,
                                            w == W_ETRUSCAN and occurrence < 3), FACE_NR)
    # the ship die (9.5.7.4, 9.6.7.2): the ships in the start port, which may carry the army; a ship still at sea
    # with an earlier army is not there to be counted
    r = war_row(w, occurrence)
    fleet = war[r, WR_SHIPS + rng.d6(stream) - 1] if war[r, WR_SHIPS] else 0
    for t in range(tok.shape[0]):
        if tok[t, TK_KIND] == SHIP and tok[t, TK_PEOPLE] == people and ts[t, TS_LOC] == L_ASIDE and \
                (fleet >> tok[t, TK_VIRTUS]) & 1:
            put(ts, t, L_WAR, k, FACE_NR)
    put(ts, token, L_ASIDE, 0, FACE_NR)  # on the map with its army
    row[M_WARS] += 1
    g[G_REACTIONS] += war[w, WR_EXTRA_REACTIONS]
    if w == W_ETRUSCAN:
        g[G_ETRUSCAN_WARS] += 1
        g[G_ETRUSCAN_RUNNING] = 1


@njit(cache=True)
def excess_home(city, cost, cs, tok, ts, w, people, start, by_sea):
    """Where a unit over an invasion army's caps goes: one per city of its people (9.4.7.3 the Samnite cities,
    9.5.7.3 a Gallic city, 9.5.7.4 the Etruscan ports for a war from the sea, then the cities nearest the start),
    the cities with fewest of the war's units first, then the nearest to the start; none free, the start place; an
    entry box: the general reserve. The Greek ones the player places (``greek_excess``, DP-K08)."""
    best, best_key = -1, 1 << 60
    for c in range(city.shape[0]):
        there = excess_held(city, cost, cs, tok, ts, w, people, start, c)
        if there < 0:
            continue
        key = (there * 2 + (0 if city[c, CT_PORT] or not by_sea else 1)) * (1 << 40) + cost[0, start, c]
        if key < best_key:
            best, best_key = c, key
    if best < 0 and not city[start, CT_ENTRY]:
        best = start
    return best


@njit(cache=True)
def excess_held(city, cost, cs, tok, ts, w, people, start, c):
    """How many of war ``w``'s units hold ``c``, when it is a city its excess units may go to (of ``people``, not
    Rome's, reached from ``start``); -1 for any other place."""
    if city[c, CT_ENTRY] or city[c, CT_PEOPLE] != people or cs[c, CS_ROMAN] or cost[0, start, c] < 0:
        return -1
    there = 0
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and tok[t, TK_CODE] == w + 1:
            there += 1
    return there


@njit(cache=True)
def war_unit(tok, ts, w, kind, stream):
    """An invasion counter of war ``w`` (``TK_CODE`` = w + 1) of ``kind`` waiting in the general reserve, at random:
    « choisis au hasard dans la réserve samnite » (9.4.7.3), « choisies au hasard parmi celles de la zone gauloise »
    (9.5.7.3), « choisies au hasard dans la réserve grecque » (9.6.7.2); -1 for none."""
    n = 0
    for t in range(tok.shape[0]):
        if tok[t, TK_CODE] == w + 1 and tok[t, TK_KIND] == kind and ts[t, TS_LOC] == L_RESERVE:
            n += 1
    if n == 0:
        return -1
    k = rng.dn(stream, n)
    for t in range(tok.shape[0]):
        if tok[t, TK_CODE] == w + 1 and tok[t, TK_KIND] == kind and ts[t, TS_LOC] == L_RESERVE:
            k -= 1
            if k == 0:
                return t
    return -1


@njit(cache=True, apart=True)
def war_units(tok, ts, k):
    n = 0
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_WAR and ts[t, TS_AT] == k and is_kind(tok, t, -1):
            n += 1
    return n


@njit(cache=True, apart=True)
def end_war(tok, war, ts, g, ws, k, beaten, row):
    """An NR army in the field gone: beaten (every unit lost) or sent home at a period end (7.3, KOR-A55). A
    raised army's counters go into the NR container; an invasion army's go back to the general reserve, its token
    where its war's rule says, beaten or not: back into R or NR (9.1.8.3 « le jeton de guerre doit être replacé
    dans le récipient R », 9.2.7.2-9.2.7.4, 9.6.7.3 « le jeton ombrien doit être replacé dans le récipient NR »),
    out of play for the wars whose token is removed after use."""
    w = ws[k, WS_WAR]
    if w >= RAISED:
        # a raised army: 7.3 « Tous les chefs et unités NR présents sur la carte sont remis dans le récipient NR »
        # (all NR leaders and units on the map go back into the NR container); beaten, its lone leader with nowhere
        # to retreat to goes there too
        for t in range(ts.shape[0]):
            if ts[t, TS_LOC] == L_WAR and ts[t, TS_AT] == k:
                put(ts, t, L_NR, 0, FACE_NR)
        ws[k, WS_WAR] = -1
        ws[k, WS_LEADER] = -1
        return
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_WAR and ts[t, TS_AT] == k:
            put(ts, t, L_RESERVE if is_kind(tok, t, -1) else L_ASIDE, 0, FACE_ROMAN)  # ships to their port
    token = ws[k, WS_TOKEN]
    after = war[w, WR_TOKEN_AFTER]
    if token < 0:
        pass  # the Umbrians joined the Etruscans: their token waits for the period's end (9.6.7.3)
    elif ws[k, WS_LINGER]:
        put(ts, token, L_NR, 0, FACE_NR)  # 9.2.7.3: set aside until they are beaten, then into NR
    elif after == AFTER_REMOVED:
        put(ts, token, L_OUT, 0, FACE_ROMAN)
    else:
        put(ts, token, L_R if after == AFTER_R else L_NR, 0, FACE_ROMAN if after == AFTER_R else FACE_NR)
    if beaten:
        row[M_WARS_BEATEN] += 1
    if w == W_ETRUSCAN:
        g[G_ETRUSCAN_RUNNING] = 0
    ws[k, WS_WAR] = -1
    ws[k, WS_LEADER] = -1


@njit(cache=True)
def friendly_city(city, cs, c, people):
    """Whether place ``c`` is a city of ``people`` that Rome does not hold (an entry box has no walls)."""
    return city[c, CT_PEOPLE] == people and not city[c, CT_ENTRY] and not cs[c, CS_ROMAN]


@njit(cache=True, apart=True)
def after_battle(city, cost, cp, tok, ts, cs, g, war, ws, brow, row, k):
    """KoR 5.7.11-5.7.13 for invasion army ``k`` after a battle with a Roman army. Every unit lost, its war is
    beaten. Beaten at the end of phase 3, it routs (5.7.13, DP-B17, the NR bot's choice): « vers un hexagone
    adjacent ou à l'intérieur de murs amis (s'ils sont présents dans l'hexagone de combat) » (to an adjacent hex or
    inside friendly walls, if they stand in the battle's hex): inside the walls of a city of its people there
    (``nr_rout`` walls_if_friendly_city: its units and leader join the city, the army is gone), else to an adjacent
    hex, which the abstract map does not tell from the place itself (a move ends at a node): it stays, routed for the
    action phase (only a pursuit may attack it, and under ``rout_protection`` action_phase no new action: « les
    unités en déroute ne peuvent pas être attaquées »). Victorious, « une retraite générale a lieu (les Romains se
    retirent à Rome et les NR se retirent dans les Cités amies les plus proches) » (a general retreat: the Romans
    to Rome, the NR to the nearest friendly cities; 5.7.11): under ``nr_victory_withdrawal`` nearest_friendly_city
    it moves to the nearest city of its people by road, still the war's army (« la guerre continue »), and stays
    where it is when there is none."""
    b = _battle
    at, people = ws[k, WS_AT], war[ws[k, WS_WAR], WR_PEOPLE]
    if war_units(tok, ts, k) == 0:
        c = nearest_friendly(city, cost, cs, at, people) if ws[k, WS_WAR] >= RAISED and ws[k, WS_LEADER] >= 0 else -1
        if c >= 0:
            ws[k, WS_AT] = c  # a raised army's leader, his units lost, retreats to the nearest friendly city (5.7.11)
            into_walls(tok, war, ts, g, ws, k, row)
        else:
            end_war(tok, war, ts, g, ws, k, True, row)
        return
    if brow[b.WIN] and brow[b.END_PHASE3]:
        if cp[CP_ROUT_WALLS] and friendly_city(city, cs, at, people):
            into_walls(tok, war, ts, g, ws, k, row)
        elif g[G_STAGE] == ST_ACTIONS:
            ws[k, WS_ROUTED] = 1
    elif brow[b.LOSS] and cp[CP_NR_WITHDRAWAL]:
        best = nearest_friendly(city, cost, cs, at, people)
        if best >= 0:
            ws[k, WS_AT] = best


@njit(cache=True)
def into_walls(tok, war, ts, g, ws, k, row):
    """Invasion army ``k`` goes inside the walls of the city where it stands (5.7.1, 5.7.13): its units and leader
    are now the city's, and the army is gone (not beaten: its token where its war's rule sends it)."""
    at = ws[k, WS_AT]
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_WAR and ts[t, TS_AT] == k and (is_kind(tok, t, -1) or tok[t, TK_KIND] == LEADER):
            put(ts, t, L_CITY, at, FACE_NR)
    end_war(tok, war, ts, g, ws, k, False, row)


@njit(cache=True)
def allies_join(city, cp, tok, ts, ws, c):
    """KoR 9.2.7.3-9.2.7.4: a sortie from a city of the Etruscan star is joined by the Falisci in Falerii and the
    Capenati in Capena: their units stand in the city for the battle. Returns each counter's army (slot + 1, 0 for
    none)."""
    joined = np.zeros(ts.shape[0], np.int64)
    if city[c, CT_PEOPLE] != ETRUSCANS:
        return joined
    for k in range(MAX_WARS):
        w = ws[k, WS_WAR]
        if w >= 0 and ws[k, WS_AT] == war_home(cp, w):
            for t in range(ts.shape[0]):
                if ts[t, TS_LOC] == L_WAR and ts[t, TS_AT] == k and is_kind(tok, t, -1):
                    put(ts, t, L_CITY, c, FACE_NR)
                    joined[t] = k + 1
    return joined


@njit(cache=True)
def allies_leave(tok, war, ts, g, ws, row, c, joined):
    """After the sortie the allies' survivors go back to their armies; an army left with no unit is beaten."""
    for t in range(ts.shape[0]):
        if joined[t] > 0 and ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c:
            put(ts, t, L_WAR, joined[t] - 1, FACE_NR)
    for k in range(MAX_WARS):
        if ws[k, WS_WAR] >= 0 and war_units(tok, ts, k) == 0:
            for t in range(ts.shape[0]):
                if joined[t] == k + 1:
                    end_war(tok, war, ts, g, ws, k, True, row)
                    break


@njit(cache=True)
def war_home(cp, w):
    """The city a war's army holds and relieves from: Falerii for the Falisci, Capena for the Capenati (9.2.7.3-
    9.2.7.4); -1 for the other wars."""
    if w == W_FALISCI:
        return cp[CP_FALERII]
    if w == W_CAPENA:
        return cp[CP_CAPENA]
    return -1


# ================================================================================================ battles
@njit(cache=True)
def adjacent_garrisons(city, tok, ts, at, face):
    """KoR 5.7.8 P2-P3 for the side whose enemy garrisons show ``face``: 1 point for a city adjacent to the battle's
    place (the map's adjacency proxy, ``CT_ADJACENT``; not the place itself, KOR-A27 adjacent_includes_battle_hex
    false) holding such a garrison, 2 for a garrison of value 3, not summed over cities (KOR-A27 max_not_sum)."""
    points = 0
    for c in range(city.shape[0]):
        if c != at and (city[at, CT_ADJACENT] >> c) & 1:
            value = garrison_value(tok, ts, c, face)
            if value > 0:
                points = max(points, 2 if value >= 3 else 1)
    return points


ROME_SALLIES = 3  # fight's roman_attacks for a sortie from a besieged Roman city: no action, no reactions


@njit(cache=True, apart=True)
def fight(stream, city, cp, tok, ts, g, war, ws, pv0, codes, params, slots, pv, bu, bl, bstat, bg, bst, brow, wbuf,
          row, a, nr_loc, nr_at, nr_leader, people, invader, roman_attacks, mode, decides):
    """KoR 5.7: Roman army ``a`` against the NR force at ``(nr_loc, nr_at)`` (an invasion army, or a sortie from a
    city) led by ``nr_leader`` (-1: none), fought by ``battle.battle_game`` with the policies of the campaign's
    ``battle.*`` points (in an ambush its ``ambush.*`` points). The army's leader commands with his rank and caps
    (table 5.1); a Tribune's victory or defeat scores his +1 / -1 IP and ends his office (9.2.7.1) when the battle
    ``decides`` it (not a battle inside a siege, whose whole action decides once). ``roman_attacks``: 0 the NR side
    attacks, 1 Rome, 2 Rome in a continuation battle (5.7.14 a), ``ROME_SALLIES`` Rome from a city an NR army
    besieges (``war_siege``). 5.7.8's pre-battle penalties: enemy garrisons in the places adjacent to the battle's
    (``adjacent_garrisons``; P2, P3), and a unit's other face as its back (P4, P5). Counters lost go
    where C4 sends them (the manifest gives no Captivi backs: eliminated, to the general reserve); a lost King gives
    the Interrex (KOR-A38). Returns ``(error, Rome won)``."""
    b = _battle
    p = pv[PROC_BATTLE]
    proc = PROC_AMBUSH if mode == b.MODE_AMBUSH else PROC_BATTLE
    copy_into(p, pv0[proc])
    bu[:, :, :] = 0
    bl[:, :, :] = 0
    n = 0
    for t in range(ts.shape[0]):
        if in_army(ts, t, a) and n < b.MAX_UNITS:
            cavalry = tok[t, TK_KIND] == CAV
            bu[b.ROME, n, b.U_KIND] = cavalry
            bu[b.ROME, n, b.U_VIRTUS] = tok[t, TK_VIRTUS]
            bu[b.ROME, n, b.U_CLASS] = 1 if cavalry else max(tok[t, TK_CLASS], 1)
            # 5.7.8 P4: a unit with troops of the nationality Rome fights on its back (its NR face)
            bu[b.ROME, n, b.U_BACK] = tok[t, TK_PEOPLE] == people
            wbuf[n] = t
            n += 1
    m = 0
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == nr_loc and ts[t, TS_AT] == nr_at and ts[t, TS_FACE] == FACE_NR and is_kind(tok, t, -1) \
                and m < b.MAX_UNITS:
            bu[b.NR, m, b.U_KIND] = tok[t, TK_KIND] == CAV
            bu[b.NR, m, b.U_VIRTUS] = tok[t, TK_VIRTUS]
            # 5.7.8 P5: a unit with Roman troops of class III, II or I on its back (its Roman face; invaders have none)
            bu[b.NR, m, b.U_BACK] = 1 <= tok[t, TK_CLASS] <= 3
            wbuf[b.MAX_UNITS + m] = t
            m += 1
    cmd = army_leader(g, a)
    tribune = is_tribune(tok, g, a)
    bl[b.ROME, 0, b.L_RANK] = leader_rank(tok, g, a)
    bl[b.ROME, 0, b.L_VIRTUS] = tok[cmd, TK_VIRTUS]
    bl[b.ROME, 0, b.L_ASTUTIA] = tok[cmd, TK_ASTUTIA]
    bl[b.ROME, 0, b.L_MAX_INF], bl[b.ROME, 0, b.L_MAX_CAV] = command_caps(tok, g, a)
    bl[b.ROME, 0, b.L_KING] = tok[cmd, TK_KIND] == KING and tok[cmd, TK_CODE] > 0
    bl[b.ROME, 0, b.L_KINGLIKE] = king_led(leader_kind(tok, g, a))
    bl[b.ROME, 0, b.L_TRIBUNE] = tribune and decides
    bl[b.ROME, 0, b.L_TRIED] = tribune
    if nr_leader >= 0:
        bl[b.NR, 0, b.L_VIRTUS] = tok[nr_leader, TK_VIRTUS]
        bl[b.NR, 0, b.L_ASTUTIA] = tok[nr_leader, TK_ASTUTIA]
        bl[b.NR, 0, b.L_MAX_INF], bl[b.NR, 0, b.L_MAX_CAV] = 4, 2
    p[b.P_UNITS], p[b.P_UNITS_NR], p[b.P_LEADERS], p[b.P_LEADERS_NR] = n, m, 1, 1 if nr_leader >= 0 else 0
    attacks = 1 if roman_attacks > 0 else 0
    p[b.P_ROMAN_ATTACKER], p[b.P_ROMAN_INITIATES] = attacks, attacks
    # KOR-A39: a continuation battle (5.7.14 a, roman_attacks = 2) is no new action: no reactions of its own
    p[b.P_REACTIONS] = 2 if roman_attacks == 1 or (roman_attacks == 2 and cp[CP_CONTINUATION_REACTIONS]) else 0
    # KOR-A25 roman_action_only: phase 3 costs IP in a battle Rome fights as its action or its continuation, not in
    # those the NR starts (invasions, reliefs, sorties) nor in Rome's sortie from a besieged city
    p[b.P_PHASE3_COST] = roman_attacks == 1 or roman_attacks == 2 or p[b.P_PHASE3_COST]
    # 9.7.7.4 « Si le Roi perd une bataille, il est automatiquement tué au combat » (the King losing a battle is
    # killed): against Porsenna (KOR-A38 battles_vs_porsenna), or while he is on the map (any_battle_...)
    p[b.P_PORSENNA_KILLS] = (nr_leader >= 0 and tok[nr_leader, TK_KIND] == LEADER and
                             tok[nr_leader, TK_CODE] == LD_PORSENNA) or \
        (cp[CP_PORSENNA_ANY_BATTLE] == 1 and porsenna_at(tok, ts) >= 0)
    p[b.P_ADJ_PEN] = adjacent_garrisons(city, tok, ts, g[G_ARMY_AT + a], FACE_NR)
    p[b.P_ADJ_PEN_NR] = adjacent_garrisons(city, tok, ts, g[G_ARMY_AT + a], FACE_ROMAN)
    p[b.P_INVADER] = pv0[PROC_BATTLE, b.P_INVADER] if invader else 0
    p[b.P_OMEN] = g[G_OMEN] == OMEN_GOOD
    p[b.P_ETR_GALLIC_PEN] = 2 if people == ETRUSCANS or people == GAULS else 0
    p[b.P_NR_INF_NO_POINTS] = pv0[PROC_BATTLE, b.P_NR_INF_NO_POINTS] and (people == GAULS or people == GREEKS)
    err = b.battle_game(stream, codes, params, slots, PROC_BASE[proc], p, bu, bl, bstat, bg, bst, brow)
    if err:
        return err, False
    for i in range(n):
        if bstat[b.ROME, i, b.S_ALIVE] == 0:
            put(ts, wbuf[i], L_RESERVE, 0, FACE_ROMAN)
    for i in range(m):
        if bstat[b.NR, i, b.S_ALIVE] == 0:
            put(ts, wbuf[b.MAX_UNITS + i], L_RESERVE, 0, FACE_ROMAN)
    if brow[b.NR_LEADER_LOST] and nr_leader >= 0:
        if nr_loc == L_WAR:
            ws[nr_at, WS_LEADER] = -1
        put(ts, nr_leader, L_OUT, 0, FACE_ROMAN)
    g[G_VP] += brow[b.VP]
    add_ip(g, row, brow[b.IP])
    move_random(ts, L_R, L_NR, brow[b.R_TO_NR], stream, g, row)
    move_random(ts, L_NR, L_R, brow[b.NR_TO_R], stream, g, row)
    g[G_REACTIONS] += brow[b.REACTIONS]
    row[M_BATTLES] += 1
    won = brow[b.WIN] == 1
    if won:
        row[M_BATTLES_WON] += 1
        if brow[b.TRIUMPH]:
            # 5.7.11: « Un chef Romain qui souhaite revendiquer un Triomphe [...] doit au contraire retourner
            # immédiatement à Rome [...] Les troupes Romaines victorieuses suivent le chef » (a leader claiming a
            # Triumph goes back to Rome at once, his victorious troops with him)
            g[G_ARMY_AT + a] = cp[CP_ROME]
    else:
        army_home(tok, ts, g, cp, a)  # a beaten army falls back on Rome (5.7.11)
    if brow[b.ROMAN_LEADER_LOST]:
        leader_lost(tok, ts, g, cp, row, a)
    if tribune and decides:
        office_fate(ts, g, cp, row, cmd, won)
    return 0, won


@njit(cache=True)
def leader_lost(tok, ts, g, cp, row, a):
    """Army ``a``'s leader fell: the King gives the Interrex (``king_lost``); an office's token goes into the NR
    container, as a beaten Tribune's (9.2.7.1), and Titus Tatius leaves play; their army joins the Rome reserve."""
    if a == 0:
        king_lost(tok, ts, g, row)
        return
    t = g[G_LEADER + a]
    end_office(ts, g, cp, t, L_NR if tok[t, TK_KIND] == OFFICE else L_OUT)


@njit(cache=True)
def king_lost(tok, ts, g, row):
    """The King killed (5.7.2.1, 9.7.7.4; KOR-A38): the Interrex commands until the period's end."""
    cmd = g[G_COMMANDER]
    put(ts, cmd, L_OUT, 0, FACE_ROMAN)
    row[M_KINGS_LOST] += 1
    for t in range(tok.shape[0]):
        if tok[t, TK_KIND] == KING and tok[t, TK_CODE] == 0 and t != cmd:
            put(ts, t, L_ROME, 0, FACE_ROMAN)
            g[G_COMMANDER] = t
            return


# ============================================================================================= NR sieges
@njit(cache=True)
def nr_roll(stream, wins_on, points):
    """One NR siege roll with the besieger's Astutia (DP-S05: NR sieges always reroll a failed roll, once)."""
    die = rng.d6(stream)
    if die >= wins_on:
        return True, points
    if points > 0:
        return rng.d6(stream) >= wins_on, points - 1
    return False, points


@njit(cache=True)
def nr_siege(stream, garrison, leader, astutia, bonus):
    """KOR-A44 mirror_5_5: an NR army besieges a Roman-held city with the rolls of 5.5, the NR side rolling (no
    King effect). Roll a: d6 (+1 in an ambush, 6.4 b) > twice the leader's Virtus if a Roman leader is in the
    city, else the garrison's: the city submits (2). Roll b: garrison + 1 reached twice, or the leader's Virtus
    exceeded: the defenders lose one counter (1). Else 0: the siege fails. A city with neither garrison nor leader
    submits without a roll (2): nothing defends it (5.4.1 mirrored: an undefended city is taken automatically)."""
    target = leader if leader > 0 else garrison
    if target <= 0:
        return 2
    ok, astutia = nr_roll(stream, 2 * target + 1 - bonus, astutia)
    if ok:
        return 2
    need_b = 2 * (garrison + 1) if garrison > 0 else 99
    if leader > 0:
        need_b = min(need_b, leader + 1)
    ok, astutia = nr_roll(stream, need_b, astutia)
    return 1 if ok else 0


@njit(cache=True)
def commanding_army(tok, g, c):
    """The army whose leader commands in city ``c``: of the armies there, the highest in rank (4.2 « Le Magister
    Populi est toujours le plus haut placé » after the King); -1 for none."""
    army, best = -1, 99
    for a in range(MAX_ARMIES):
        if army_exists(g, a) and g[G_ARMY_AT + a] == c:
            rank = leader_rank(tok, g, a)
            if rank < best:
                army, best = a, rank
    return army


@njit(cache=True, apart=True)
def roman_defence(tok, ts, g, cp, c):
    """The defenders of Roman city ``c``: its garrison points (or, with none, its strongest Roman unit inside,
    ``unit_inside``), and the Virtus of the Roman leader inside who commands (``commanding_army``), 0 for none."""
    garrison = garrison_value(tok, ts, c, FACE_ROMAN)
    if garrison == 0:
        for t in range(ts.shape[0]):
            if unit_inside(tok, ts, t, c, c == cp[CP_ROME]):
                garrison = max(garrison, tok[t, TK_VIRTUS])
    a = commanding_army(tok, g, c)
    return garrison, tok[army_leader(g, a), TK_VIRTUS] if a >= 0 else 0


@njit(cache=True)
def roman_troops(tok, ts, g, cp, c):
    """Roman military units in city ``c`` (its garrison units; in Rome, the Rome reserve; the armies there)."""
    n = 0
    for t in range(ts.shape[0]):
        loc = ts[t, TS_LOC]
        if not is_kind(tok, t, -1):
            continue
        if (loc == L_CITY and ts[t, TS_AT] == c and ts[t, TS_FACE] == FACE_ROMAN) or \
                (loc == L_ROME and c == cp[CP_ROME]) or (loc == L_ARMY and g[G_ARMY_AT + ts[t, TS_AT]] == c):
            n += 1
    return n


@njit(cache=True)
def lose_defender(tok, ts, c, rome):
    """One defender of Roman city ``c`` (``rome``: it is Rome) lost (roll b): its garrison first, else a unit inside
    (``unit_inside``), to the general reserve (a garrison flips to the besiegers' side only with the city,
    ``city_falls``). Returns False when there was none."""
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and ts[t, TS_FACE] == FACE_ROMAN and \
                tok[t, TK_KIND] == GARRISON:
            put(ts, t, L_RESERVE, 0, FACE_ROMAN)
            return True
    for t in range(ts.shape[0]):
        if unit_inside(tok, ts, t, c, rome):
            put(ts, t, L_RESERVE, 0, FACE_ROMAN)
            return True
    return False


@njit(cache=True)
def city_taken(tok, ts, g, cp, c, result):
    """Whether ``nr_siege``'s ``result`` takes Roman city ``c``: it submits (roll a), or roll b takes its last
    defender (``lose_defender``, called here)."""
    if result == 2:
        return True
    return result == 1 and lose_defender(tok, ts, c, c == cp[CP_ROME]) and roman_troops(tok, ts, g, cp, c) == 0 \
        and garrison_value(tok, ts, c, FACE_ROMAN) == 0


@njit(cache=True)
def unit_inside(tok, ts, t, c, rome):
    """Whether counter ``t`` is a Roman military unit inside city ``c``: on its Roman face in the city, or, in Rome
    (``rome``), in the Rome reserve (3.4: the Rome small map holds its garrison and its reserve)."""
    if not is_kind(tok, t, -1):
        return False
    if rome and ts[t, TS_LOC] == L_ROME:
        return True
    return ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and ts[t, TS_FACE] == FACE_ROMAN


@njit(cache=True)
def city_falls(tok, ts, cs, g, cp, c, keeps_garrison):
    """A Roman city taken by an NR army: its Roman counters leave (``roman_counters_leave``) and 7.5 counts it at the
    end of the turn."""
    roman_counters_leave(tok, ts, c, keeps_garrison)
    cs[c, CS_CAPTURED] = 2 if cs[c, CS_ROMAN] else 1
    lose_city(cs, c)


@njit(cache=True)
def roman_counters_leave(tok, ts, c, keeps_garrison):
    """The Roman counters of a city an NR army takes: its Roman garrison flipped to the NR face (kept by a people
    retaking its own city, ``keeps_garrison``; invaders leave no garrison: to the general reserve), its Roman units
    to the general reserve."""
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c:
            if tok[t, TK_KIND] == GARRISON:
                if keeps_garrison:
                    ts[t, TS_FACE] = FACE_NR
                else:
                    put(ts, t, L_RESERVE, 0, FACE_ROMAN)
            elif ts[t, TS_FACE] == FACE_ROMAN:
                put(ts, t, L_RESERVE, 0, FACE_ROMAN)


# ============================================================================================ Roman actions
CURIA = (LATINS, VOLSCI, SABINES, ETRUSCANS)  # 9.3.4: the peoples with a Curia, in senate.PEOPLE_* order


@njit(cache=True)
def curia_index(people):
    for i in range(4):
        if CURIA[i] == people:
            return i
    return -1


@njit(cache=True)
def war_allowed(per, g, cp, people):
    """Whether Rome may make war on ``people`` now: Fides, one people a turn from period ``fides_limit_from_period``
    (KOR-A51); the Senate's consent for a Curia people from period 3 (9.3.4), asked for at the first attack of
    the turn (refused: not this turn)."""
    if g[G_PERIOD] >= cp[CP_FIDES_FROM] and g[G_WAR_PEOPLE] >= 0 and g[G_WAR_PEOPLE] != people:
        return False
    i = curia_index(people)
    return not (per[g[G_PERIOD], PR_SENATE] and i >= 0 and g[G_SENATE + i] == 2)


@njit(cache=True)
def attackable(tok, ts, ws, cp, k):
    """Whether DP-K01 may attack invasion army ``k``: it has units, and it has not routed this action phase (5.7.13:
    « les unités en déroute ne peuvent pas être attaquées », for the action phase under ``rout_protection``)."""
    return war_units(tok, ts, k) > 0 and not (ws[k, WS_ROUTED] and cp[CP_ROUT_PROTECTED])


@njit(cache=True, apart=True)
def city_ops(city, tok, ts, cs, ws, g, cp, per, c, inf, cav, ops):
    """DP-K01: which operations the rules allow the acting army, of ``inf`` infantry and ``cav`` cavalry, in place
    ``c`` (``ops[OP_*]`` 1 or 0)."""
    ops[:] = 0
    units = inf + cav
    ip = g[G_IP]
    for k in range(MAX_WARS):
        if ws[k, WS_WAR] >= 0 and ws[k, WS_AT] == c and units >= 3 and attackable(tok, ts, ws, cp, k):
            ops[OP_BATTLE] = 1
    # an entry box is no city; a place of Rome's own people (Ostia) is no enemy city to take
    if city[c, CT_ENTRY] or city[c, CT_PEOPLE] == ROMAN or cs[c, CS_ROMAN] or \
            not war_allowed(per, g, cp, city[c, CT_PEOPLE]):
        return
    garrison, nr_units, leader = nr_defence(tok, ts, c)
    if units >= 1 and (garrison > 0 or leader):
        ops[OP_SIEGE] = 1                                       # 5.5
    if units >= 1 and not leader and ip >= 1 and (garrison > 0 or nr_units > 0 or inf > 0):
        ops[OP_PILLAGE] = 1                                     # 5.4, 5.4.1 (occupying needs an infantry unit)
    if units >= 1 and not leader and ip >= 2 and garrison > 0:
        ops[OP_CORRUPTION] = 1                                  # 5.6 (KOR-A13: a garrison to roll against)
    if cav >= 1 and leader and nr_units >= 1 and ip >= 1:
        ops[OP_INTIMIDATION] = 1                                # 5.3


@njit(cache=True, apart=True)
def post_action(city, cost, tok, ts, cs, ws, g, cp, per, dstate):
    """The state vector of a Roman decision: DP-K01's entries (``K_*`` header, ``KA_*`` per army, then ``KC_*``
    per place) and the counter block (``post_units``, whose count it returns); the other points add theirs after
    it."""
    n = cp[CP_CITIES]
    acting = g[G_ACTING]
    at = g[G_ARMY_AT + acting]
    dstate[:K_STATE_SIZE] = 0
    dstate[D_GARRISON:D_COUNTERS] = 0
    # one pass over the counters: the containers, the armies, the Rome reserve, the fleet where the army stands, and
    # what stands in each place
    ships, reserve = 0, 0
    for t in range(ts.shape[0]):
        loc, kind = ts[t, TS_LOC], tok[t, TK_KIND]
        if loc == L_R or loc == L_NR:
            dstate[K_R if loc == L_R else K_NR] += 1
        elif loc == L_ARMY and (kind == INF or kind == CAV):
            dstate[ka(ts[t, TS_AT], KA_INF if kind == INF else KA_CAV)] += 1
        elif loc == L_ROME and (kind == INF or kind == CAV):
            reserve += 1
        elif loc == L_FLEET and ts[t, TS_AT] == at:
            ships += 1
        elif loc == L_CITY and ts[t, TS_FACE] == FACE_NR:
            c, v = ts[t, TS_AT], tok[t, TK_VIRTUS]
            if kind == GARRISON:
                dstate[kc(c, KC_GARRISON)] += v
            elif kind == LEADER:
                dstate[kc(c, KC_LEADER)] = max(dstate[kc(c, KC_LEADER)], v)
            elif kind == INF or kind == CAV:
                dstate[kc(c, KC_UNITS)] += 1
                dstate[kc(c, KC_STRONGEST)] = max(dstate[kc(c, KC_STRONGEST)], v)
        elif loc == L_WAR and kind != SHIP:
            c = ws[ts[t, TS_AT], WS_AT]
            dstate[kc(c, KC_WAR)] += 1
    inf, cav = dstate[ka(acting, KA_INF)], dstate[ka(acting, KA_CAV)]
    dstate[K_TURN], dstate[K_PERIOD], dstate[K_IP], dstate[K_VP] = g[G_TURN], g[G_PERIOD], g[G_IP], g[G_VP]
    dstate[K_ACTIONS], dstate[K_ARMY_AT], dstate[K_INF], dstate[K_CAV] = g[G_ACTIONS], at, inf, cav
    dstate[K_KING_VIRTUS] = tok[g[G_COMMANDER], TK_VIRTUS]
    dstate[K_ACTING] = acting
    dstate[K_CAP_INF], dstate[K_CAP_CAV] = command_caps(tok, g, acting)
    dstate[K_ROME_RESERVE] = reserve
    # DP-K01 "with which army": one choice an action, not between a move and the operation it pays for (KOR-A1)
    dstate[K_SWITCH] = g[G_SWITCHED] == 0 and g[G_MOVED] == 0
    for a in range(MAX_ARMIES):
        if army_exists(g, a):
            dstate[ka(a, KA_MAY)] = a != acting
            dstate[ka(a, KA_AT)] = g[G_ARMY_AT + a]
            dstate[ka(a, KA_VIRTUS)] = tok[army_leader(g, a), TK_VIRTUS]
        dstate[ka(a, KA_LEADER)] = leader_kind(tok, g, a)
    dstate[K_DIARCHY] = diarchy_allowed(tok, g, cp)
    dstate[K_ROMANIZED] = romanized_this_period(city, cs, g, cp)
    dstate[K_MISSION] = per[g[G_PERIOD], PR_MISSION]
    dstate[K_CITIES] = n
    dstate[K_LAST_TURN] = per[g[G_PERIOD], PR_LAST]
    # 9.3.7.3 a-d: the army besieging Alba Longa stays there until the siege is over; KOR-A1 combined: a move
    # not paid for yet, with one action left, can only be followed by an operation; 4.2: an army keeps Rome
    pinned = (g[G_ALBA_SIEGE] and acting == 0) or (g[G_MOVED] and g[G_ACTIONS] <= 1) or \
        must_stay(tok, ts, g, cp, acting)
    dstate[K_MP] = 0 if pinned else (MP_INFANTRY if inf > 0 else MP_CAVALRY)  # 5.2: the slowest unit's allowance
    dstate[K_ROME] = cp[CP_ROME]
    road = cost[held_homes(cp, tok, ts, ws), at]
    for c in range(n):
        dstate[kc(c, KC_ROMAN)] = cs[c, CS_ROMAN]
        dstate[kc(c, KC_COST)] = road[c] if road[c] >= 0 else BLOCKED
        dstate[kc(c, KC_PEOPLE)] = city[c, CT_PEOPLE]
        dstate[kc(c, KC_ALLOWED)] = war_allowed(per, g, cp, city[c, CT_PEOPLE])
        dstate[kc(c, KC_ENTRY)] = city[c, CT_ENTRY]
    # 5.8, 9.4.7.1: « l'armée à embarquer doit atteindre ou se trouver à Ostia » (the army to embark must reach or
    # be at Ostia), where the Roman fleet is, three units a ship, for 2 IP
    if not pinned and at == cp[CP_OSTIA] and ships > 0 and inf + cav <= 3 * ships and g[G_IP] >= 2:
        for c in range(n):
            dstate[kc(c, KC_SEA)] = c != at and 0 < city[at, CT_SEA + c] <= SHIP_MP and roman_may_land(city, ws, c)
    city_ops(city, tok, ts, cs, ws, g, cp, per, at, inf, cav, dstate[K_OPS:K_OPS + N_OPS])
    return post_units(tok, ts, g, dstate)


@njit(cache=True)
def held_homes(cp, tok, ts, ws):
    """9.2.7.3-9.2.7.4: « si des troupes Romaines ou Sabines veulent traverser les Falerii et que la Cité est tenue
    par les Falisci, elle doit être attaquée » (Roman troops wanting to cross Falerii held by the Falisci must attack
    it; Capena held by the Capenati likewise): 1 while Falerii is held, + 2 while Capena is, the index of ``cost``'s
    roads for the Roman armies (DP-K03: the cheapest path around them, ``CampaignMap.cost_avoiding``)."""
    held = 0
    for k in range(MAX_WARS):
        w = ws[k, WS_WAR]
        home = war_home(cp, w) if w >= 0 else -1
        if home >= 0 and ws[k, WS_AT] == home and war_units(tok, ts, k) > 0:
            held |= 1 if w == W_FALISCI else 2
    return held


@njit(cache=True)
def action_legal(dstate, action):
    """DP-K01: end the actions; move to a place within the army's movement allowance (5.2) or sail to a port
    (5.8); an operation the rules allow where the army stands; the next action with another army; the Diarchy
    (DP-K04)."""
    n = dstate[K_CITIES]
    if action == ACT_END:
        return True
    if 1 <= action <= n:
        c = action - 1
        return c != dstate[K_ARMY_AT] and (dstate[kc(c, KC_COST)] <= dstate[K_MP] or dstate[kc(c, KC_SEA)] == 1)
    op = action - 1 - n
    if 0 <= op < N_OPS:
        return dstate[K_OPS + op] == 1
    a = op - N_OPS
    if 0 <= a < MAX_ARMIES:
        return dstate[K_SWITCH] == 1 and dstate[ka(a, KA_MAY)] == 1
    return a == MAX_ARMIES and dstate[K_DIARCHY] == 1


@njit(cache=True)
def romanized_this_period(city, cs, g, cp):
    """7.4 (KOR-A53 romanized_this_period_still_roman; all_roman_cities): the cities that count for the mission,
    Rome excluded."""
    n = 0
    for c in range(cs.shape[0]):
        if c != cp[CP_ROME] and cs[c, CS_ROMAN] and (cp[CP_MISSION_SCOPE] or cs[c, CS_ROMANIZED_IN] == g[G_PERIOD]):
            n += 1
    return n


@njit(cache=True)
def declare_war(stream, per, g, cp, people):
    """The first attack on ``people`` this turn: the Senate is asked for a Curia people from period 3 (9.3.4;
    ``senate.senate_consents``). Returns whether the attack may go on."""
    i = curia_index(people)
    if per[g[G_PERIOD], PR_SENATE] and i >= 0 and g[G_SENATE + i] == 0:
        g[G_SENATE + i] = 1 if senate_consents(stream, i) else 2
        if g[G_SENATE + i] == 2:
            return False
    if g[G_PERIOD] >= cp[CP_FIDES_FROM]:
        g[G_WAR_PEOPLE] = people
    return True


@njit(cache=True, apart=True)
def settle(stream, ts, g, row, ip, vp, r_to_nr, nr_to_r, reactions):
    """A procedure's outcome row on the campaign: points, container adjustments, hostile reactions."""
    g[G_VP] += vp
    add_ip(g, row, ip)
    move_random(ts, L_R, L_NR, r_to_nr, stream, g, row)
    move_random(ts, L_NR, L_R, nr_to_r, stream, g, row)
    g[G_REACTIONS] += reactions


@njit(cache=True, apart=True)
def army_siege(stream, city, cp, tok, ts, cs, ws, g, war, pv0, stab, codes, params, slots, pv, sst, bu, bl, bstat,
               bg, bst, brow, prow, wbuf, row, c):
    """KoR 5.5 on city ``c`` by the acting army (``roman_siege``). A Tribune's siege ends his office (9.2.7.1):
    « Après la bataille ou le siège, un Tribun victorieux gagne 1 PI [...] Un Tribun vaincu perd 1 PI » (after the
    battle or the siege a victorious Tribune wins 1 IP, a beaten one loses 1), once for the whole action, its
    battles included, as ``siege.tribune_fate`` scores it (KOR-A37 stack for the -1 IP)."""
    a = g[G_ACTING]
    tribune = army_leader(g, a) if is_tribune(tok, g, a) else -1
    err, won = roman_siege(stream, city, cp, tok, ts, cs, ws, g, war, pv0, stab, codes, params, slots, pv, sst, bu, bl,
                           bstat, bg, bst, brow, prow, wbuf, row, c, a)
    if err == 0 and tribune >= 0:
        add_ip(g, row, 1 if won else -pv0[PROC_SIEGE, _siege.TRIBUNE_STACK])
        office_fate(ts, g, cp, row, tribune, won)
    return err


@njit(cache=True, apart=True)
def roman_siege(stream, city, cp, tok, ts, cs, ws, g, war, pv0, stab, codes, params, slots, pv, sst, bu, bl, bstat,
                bg, bst, brow, prow, wbuf, row, c, a):
    """KoR 5.5 on city ``c`` by army ``a``: the sortie first (5.5.1, KOR-A12), then ``siege.siege_rolls``; the
    garrison lost first (DP-S04 garrison_first), a city taken (KOR-A9 attrition) passes to Rome with its garrison
    flipped, every other NR counter in it to the R container (5.5 a). Returns ``(error, Rome won)``; a battle won
    whose Triumph is claimed ends the action there (5.7.11), a win for a Tribune's fate."""
    s = _siege
    virt = np.zeros(8, np.int64)
    garrison = garrison_value(tok, ts, c, FACE_NR)
    leader = nr_leader_in(tok, ts, c)
    units = nr_units_in(tok, ts, c, virt)
    if city[c, CT_PEOPLE] == ETRUSCANS:
        # 9.2.7.3-9.2.7.4 (S0): a city of the Etruscan star besieged, the Falisci in Falerii and the Capenati in
        # Capena come out (not a reaction) and attack the besiegers first; Rome not winning, no siege
        for k in range(MAX_WARS):
            w = ws[k, WS_WAR]
            if w >= 0 and ws[k, WS_AT] == war_home(cp, w) and war_units(tok, ts, k) > 0 and army_units(tok, ts, a) > 0:
                err, won = fight(stream, city, cp, tok, ts, g, war, ws, pv0, codes, params, slots, pv, bu, bl, bstat,
                                 bg, bst, brow, wbuf, row, a, L_WAR, k, ws[k, WS_LEADER], war[w, WR_PEOPLE],
                                 war[w, WR_INVADER], 0, _battle.MODE_BATTLE, False)
                if war_units(tok, ts, k) == 0:
                    end_war(tok, war, ts, g, ws, k, True, row)
                elif brow[_battle.WIN] and brow[_battle.END_PHASE3] and g[G_STAGE] == ST_ACTIONS:
                    # 5.7.13: beaten at the end of phase 3, the relief routs. The besieged city is not of its
                    # people (no friendly walls in the battle's hex), so to the hex beside it: the army stands at
                    # its own city, whence it came out, and the abstract map has no hex between (after_battle).
                    # « les unités en déroute ne peuvent pas être attaquées »: no new action this action phase
                    ws[k, WS_ROUTED] = 1
                if err or not won:
                    return err, False
                if brow[_battle.TRIUMPH]:
                    return 0, True  # won, and the Triumph claimed takes the army home (5.7.11): no siege
    inf, cav = army_counts(tok, ts, a)
    row[M_SIEGES] += 1
    if leader >= 0 and units >= inf + cav:
        joined = allies_join(city, cp, tok, ts, ws, c)
        err, won = fight(stream, city, cp, tok, ts, g, war, ws, pv0, codes, params, slots, pv, bu, bl, bstat, bg, bst,
                         brow, wbuf, row, a, L_CITY, c, leader, city[c, CT_PEOPLE], 0, 0, _battle.MODE_BATTLE,
                         False)
        allies_leave(tok, war, ts, g, ws, row, c, joined)
        if err or not won:
            if not err:
                g[G_VP] -= 2  # 5.5.1: the sortie force survives; the siege is over
            return err, False
        for t in range(ts.shape[0]):   # the sortie force defeated: its units to the R container
            if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and ts[t, TS_FACE] == FACE_NR and is_kind(tok, t, -1):
                put(ts, t, L_R, 0, FACE_ROMAN)
        if brow[_battle.TRIUMPH]:
            return 0, True  # won, and the Triumph claimed takes the army home (5.7.11): no siege
        if ts[leader, TS_LOC] != L_CITY:
            leader = -1
        units = 0
        if garrison == 0 and leader < 0:
            romanize(cs, c, g)
            row[M_SIEGES_WON] += 1
            return 0, True
    p = pv[PROC_SIEGE]
    copy_into(p, pv0[PROC_SIEGE])
    lead = tok[leader, TK_VIRTUS] if leader >= 0 else 0
    cmd = army_leader(g, a)
    p[s.GARRISON], p[s.LEADER], p[s.UNITS] = garrison, lead, units
    p[s.KING_LED] = king_led(leader_kind(tok, g, a))
    p[s.ACCUSED] = is_tribune(tok, g, a)
    p[s.ASTUTIA] = tok[cmd, TK_ASTUTIA] if cp[CP_ASTUTIA_IN_SIEGE] else 0
    p[s.OMEN] = g[G_OMEN] == OMEN_GOOD
    prow[:] = 0
    err = s.siege_rolls(stream, prow, sst, p, stab[min(garrison, 3), min(lead, 6), p[s.OMEN]], lead, units,
                        codes, params, slots, PROC_BASE[PROC_SIEGE])
    if err:
        return err, False
    if prow[s.WIN]:
        row[M_SIEGES_WON] += 1
        if prow[s.CITY_TAKEN]:
            flip_garrisons(tok, ts, c, FACE_ROMAN)
            clear_nr(tok, ts, c, L_R)
            romanize(cs, c, g)
        else:
            # roll b without the city: the garrison (flipped to Rome, KOR-A9) and units lost; the rest stays
            lost = prow[s.UNITS_LOST]
            for t in range(ts.shape[0]):
                if lost > 0 and ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and ts[t, TS_FACE] == FACE_NR and \
                        is_kind(tok, t, -1):
                    put(ts, t, L_NR, 0, FACE_NR)
                    lost -= 1
            if garrison > 0:
                for t in range(ts.shape[0]):
                    if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and tok[t, TK_KIND] == GARRISON:
                        put(ts, t, L_RESERVE, 0, FACE_ROMAN)
        if prow[s.LEADER_CAPTURED] and leader >= 0:
            put(ts, leader, L_OUT, 0, FACE_ROMAN)
    settle(stream, ts, g, row, prow[s.IP], prow[s.VP], prow[s.R_TO_NR], prow[s.NR_TO_R], prow[s.REACTIONS])
    return 0, prow[s.WIN] == 1


@njit(cache=True, apart=True)
def roman_pillage(stream, city, cp, tok, ts, cs, g, pv0, codes, params, slots, pv, sst, prow, row, c):
    """KoR 5.4 / 5.4.1 on city ``c`` by ``pillage.pillage_game``: the strongest counters eliminated (the garrison
    first among equals; a garrison flipped to Rome, units by C4 to the general reserve), an undefended city
    occupied by the army's weakest infantry (DP-P03 occupy) or pillaged. Its 2 reactions come at once (KOR-A2
    literal)."""
    pl = _pillage
    virt = np.zeros(8, np.int64)
    garrison = garrison_value(tok, ts, c, FACE_NR)
    units = nr_units_in(tok, ts, c, virt)
    inf, cav = army_counts(tok, ts, g[G_ACTING])
    p = pv[PROC_PILLAGE]
    copy_into(p, pv0[PROC_PILLAGE])
    p[pl.GARRISON], p[pl.KING], p[pl.N_UNITS] = garrison, king_led(leader_kind(tok, g, g[G_ACTING])), min(units, 8)
    prow[:] = 0
    err = pl.pillage_game(stream, prow, codes, params, slots, PROC_BASE[PROC_PILLAGE], p, virt, sst)
    if err:
        return err
    row[M_PILLAGES] += 1
    if garrison == 0 and units == 0:
        if prow[pl.ROMANIZED] and inf > 0:
            put(ts, weakest(tok, ts, L_ARMY, g[G_ACTING], INF), L_CITY, c, FACE_ROMAN)
            romanize(cs, c, g)
    else:
        for _ in range(prow[pl.ELIMINATED]):
            eliminate_strongest(tok, ts, c)
        if prow[pl.ROMANIZED]:
            romanize(cs, c, g)
    settle(stream, ts, g, row, prow[pl.IP], prow[pl.VP], prow[pl.R_TO_NR], 0, 0)
    g[G_IMMEDIATE] += prow[pl.REACTIONS]
    return 0


@njit(cache=True)
def eliminate_strongest(tok, ts, c):
    """The strongest NR token of city ``c`` eliminated, the garrison first among equals (as ``pillage_game``
    compares): the garrison is one token of its counters' total value (4.1.1), flipped to Rome whole; a unit goes
    to the general reserve (C4)."""
    best, best_v = -1, garrison_value(tok, ts, c, FACE_NR)
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and ts[t, TS_FACE] == FACE_NR and is_kind(tok, t, -1) \
                and tok[t, TK_VIRTUS] > best_v:
            best, best_v = t, tok[t, TK_VIRTUS]
    if best >= 0:
        put(ts, best, L_RESERVE, 0, FACE_ROMAN)
    elif best_v > 0:
        flip_garrisons(tok, ts, c, FACE_ROMAN)


@njit(cache=True, apart=True)
def roman_corruption(stream, city, cp, tok, ts, cs, g, pv0, codes, params, slots, pv, sst, prow, row, c):
    """KoR 5.6 on city ``c`` by ``corruption.corruption_game``: taken, the NR garrison leaves play for the general
    reserve and the army's weakest unit garrisons the city (DP-C01), the other NR units go to the R container;
    pillaged instead (DP-C02), the city is left empty."""
    co = _corruption
    virt = np.zeros(8, np.int64)
    garrison = garrison_value(tok, ts, c, FACE_NR)
    units = nr_units_in(tok, ts, c, virt)
    p = pv[PROC_CORRUPTION]
    copy_into(p, pv0[PROC_CORRUPTION])
    p[co.GARRISON], p[co.UNITS] = garrison, units
    prow[:] = 0
    err = co.corruption_game(stream, prow, codes, params, slots, PROC_BASE[PROC_CORRUPTION], p, sst)
    if err:
        return err
    row[M_CORRUPTIONS] += 1
    if prow[co.WIN]:
        for t in range(ts.shape[0]):
            if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and tok[t, TK_KIND] == GARRISON:
                put(ts, t, L_RESERVE, 0, FACE_ROMAN)
        clear_nr(tok, ts, c, L_R)
        if prow[co.VP] > 0:
            put(ts, weakest(tok, ts, L_ARMY, g[G_ACTING], -1), L_CITY, c, FACE_ROMAN)
            romanize(cs, c, g)
    settle(stream, ts, g, row, prow[co.IP], prow[co.VP], 0, prow[co.NR_TO_R], prow[co.REACTIONS])
    return 0


@njit(cache=True, apart=True)
def roman_intimidation(stream, city, cost, cp, tok, ts, cs, g, pv0, codes, params, slots, pv, sst, prow, row, c):
    """KoR 5.3 on city ``c``, its decisions and die by ``intimidation.intimidation_choices``. The unit released as
    a sign of Fides is the acting army's weakest of the kind DP-I01 names (the other kind when the army has none);
    it goes to the city on its NR face (4.1.2). A success turns the NR unit DP-I02 targeted Roman: it joins the
    army, past its leader's caps too (KOR-A3 joins_anyway: the caps limit who fights, DP-B02), or with
    ``not_allowed`` goes into the R container when the army has no room for it (table 5.1)."""
    it = _intimidation
    virt = np.zeros(8, np.int64)
    units = min(nr_units_in(tok, ts, c, virt), 6)
    target_counter = np.full(6, -1, np.int64)
    n = 0
    for t in range(ts.shape[0]):  # the counters behind virt, in its order
        if n < units and ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c and ts[t, TS_FACE] == FACE_NR and \
                is_kind(tok, t, -1):
            target_counter[n] = t
            n += 1
    err, kind, target, success = it.intimidation_choices(stream, codes, params, slots, PROC_BASE[PROC_INTIMIDATION],
                                                        units, virt, sst)
    if err:
        return err
    it.intimidation_score(prow, success)
    row[M_INTIMIDATIONS] += 1
    a = g[G_ACTING]
    released = weakest(tok, ts, L_ARMY, a, CAV if kind == 1 else INF)
    if released < 0:
        released = weakest(tok, ts, L_ARMY, a, -1)
    if released >= 0:
        place_nr_unit(city, cost, cs, tok, ts, released, cp)
    if success:
        t = target_counter[target]
        inf, cav = army_counts(tok, ts, a)
        max_inf, max_cav = command_caps(tok, g, a)
        if cp[CP_INTIMIDATION_NO_ROOM] and (inf >= max_inf if tok[t, TK_KIND] == INF else cav >= max_cav):
            put(ts, t, L_R, 0, FACE_ROMAN)
        else:
            put(ts, t, L_ARMY, a, FACE_ROMAN)
    settle(stream, ts, g, row, prow[it.IP], 0, prow[it.R_TO_NR], 0, 0)
    return 0


# ===================================================================================== hostile reactions (6.0)
@njit(cache=True, apart=True)
def reaction(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, sst, bu, bl, bstat, bg,
             bst, brow, prow, wbuf, row):
    """KoR 6.0, one hostile reaction (table kor_reactions.csv): an invasion army formed this turn makes it a military
    reaction when more reactions are to come (« le premier choix de cette armée, si vous avez plusieurs réactions
    disponibles, doit être A »: that army's first choice, if you have several reactions available, must be A);
    else a d6: 1 military (6.1), 2-4 revolt (6.2), 5 ambush (6.4), 6 treason (6.3). A reaction no one can execute is
    a revolt (KOR-A42 revolt; ``lost``: nothing). A military reaction is made by an NR army in the field with its
    leader, else by a leader who leads his army out of its city (``raise_city_army``); a revolt gathers free units
    to a leader before it draws (``gather``)."""
    row[M_REACTIONS] += 1
    several = (g[G_IMMEDIATE] if g[G_STAGE] == ST_ACTIONS else g[G_REACTIONS]) > 0  # this one already counted off
    k = -1
    for i in range(MAX_WARS):
        if ws[i, WS_WAR] >= 0 and ws[i, WS_NEW]:
            k = i
    if k >= 0 and several:
        return military_reaction(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu,
                                 bl, bstat, bg, bst, brow, wbuf, row, k)
    die = rng.d6(stream)
    if die == 1:
        for i in range(MAX_WARS):
            if ws[i, WS_WAR] >= 0 and ws[i, WS_LEADER] >= 0:
                return military_reaction(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots,
                                         pv, bu, bl, bstat, bg, bst, brow, wbuf, row, i)
        i = raise_city_army(cost, cp, tok, ts, ws, row) if cp[CP_CITY_ARMIES_REACT] else -1
        if i >= 0:
            return military_reaction(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv,
                                     bu, bl, bstat, bg, bst, brow, wbuf, row, i)
    elif die == 5:
        done, err = ambush(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu, bl,
                           bstat, bg, bst, brow, wbuf, row)
        if done or err:
            return err
    elif die == 6:
        return treason(stream, cp, tok, ts, cs, g, pv0, codes, params, slots, pv, sst, prow, row)
    if (die != 1 and die != 5 or not cp[CP_REACTION_FALLBACK_LOST]) and \
            not (cp[CP_REVOLT_GATHERS] and gather(city, cost, tok, ts, cs, ws, war, g, row)):
        # 6.2 revolt, step 2 when step 1 has nothing to do: « Un jeton est extrait du récipient NR, en l'utilisant
        # sur sa face NR » (one token drawn from NR, on its NR face; an empty NR container wins the campaign, 8.0)
        draw(stream, cp, city, cost, tok, war, ts, g, cs, ws, codes, params, slots, row, L_NR)
    return 0


@njit(cache=True)
def treason_garrisons(cp, tok, ts, cs):
    """The Roman garrison a treason may turn in each place (KOR-A43): its garrison tokens' Virtus, Rome excluded;
    with ``include_unit_garrisons``, a Roman city held by Roman units alone counts their Virtus. 0: none. One pass
    over the counters for every place."""
    garrison = np.zeros(cs.shape[0], np.int64)
    units = np.zeros(cs.shape[0], np.int64)
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_FACE] == FACE_ROMAN:
            if tok[t, TK_KIND] == GARRISON:
                garrison[ts[t, TS_AT]] += tok[t, TK_VIRTUS]
            elif is_kind(tok, t, -1):
                units[ts[t, TS_AT]] += tok[t, TK_VIRTUS]
    for c in range(cs.shape[0]):
        if c == cp[CP_ROME]:
            garrison[c] = 0
        elif garrison[c] == 0 and cp[CP_TREASON_UNITS] and cs[c, CS_ROMAN]:
            garrison[c] = units[c]
    return garrison


@njit(cache=True, apart=True)
def treason(stream, cp, tok, ts, cs, g, pv0, codes, params, slots, pv, sst, prow, row):
    """KoR 6.3 by ``treason.treason_game``: « Choisissez la Cité possédant la garnison Romaine la plus faible (en
    cas d'égalité, choisissez au hasard) » (the city with the weakest Roman garrison, ties at random;
    ``treason_garrisons``, KOR-A43); it turns NR on d6 - k > its Virtus, k IP bought by Rome (DP-T01); else +1 VP.
    None: no effect. A city held by units alone turns with them (their NR faces up, in the city)."""
    tr = _treason
    best, ties = 99, 0
    values = treason_garrisons(cp, tok, ts, cs)
    for c in range(cs.shape[0]):
        v = values[c]
        if v > 0:
            if v < best:
                best, ties = v, 1
            elif v == best:
                ties += 1
    if ties == 0:
        return 0
    pick = rng.dn(stream, ties) if ties > 1 else 1
    target = -1
    for c in range(cs.shape[0]):
        if values[c] == best:
            pick -= 1
            if pick == 0:
                target = c
                break
    p = pv[PROC_TREASON]
    copy_into(p, pv0[PROC_TREASON])
    p[tr.GARRISON], p[tr.IP_AVAILABLE] = best, g[G_IP]
    prow[:] = 0
    err = tr.treason_game(stream, prow, codes, params, slots, PROC_BASE[PROC_TREASON], p, sst)
    if err:
        return err
    if not prow[tr.WIN]:
        if garrison_value(tok, ts, target, FACE_ROMAN) == 0:  # held by units alone (include_unit_garrisons)
            for t in range(ts.shape[0]):
                if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == target and is_kind(tok, t, -1):
                    ts[t, TS_FACE] = FACE_NR
        flip_garrisons(tok, ts, target, FACE_NR)
        lose_city(cs, target)
        row[M_CITIES_LOST] += 1
    g[G_VP] += prow[tr.VP]
    add_ip(g, row, prow[tr.IP])
    return 0


@njit(cache=True, apart=True)
def ambush(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu, bl, bstat, bg, bst,
           brow, wbuf, row):
    """KoR 6.4: « Une armée NR sur la carte (même si elle a déjà exécuté une réaction militaire) doit être placée dans
    une Cité occupée par Rome qui appartenait à l'origine à sa nation » (an NR army on the map, even one that has
    made a military reaction, is placed in a city Rome holds that was its nation's). Table 6.0 has it executed by
    « Armées NR avec un Chef », an army being two military units or more led by a leader (glossary): an army in the
    field with its leader (an invasion army, or one raised on the map), or an NR leader with two units or more of
    his people in a city (``city_leader``, ``units_with``). Of those, the one nearest (by road) a Roman-held city of
    its people falls on it (ties: cities' armies first, then the lowest index); a city's army leaves its city with
    its leader and his people's units there as a raised army (``lead_out``: « L'armée est alors [...] placée »,
    the army is placed), so that after the battle it routs or withdraws as any army does. It is reinforced by a
    random unit of its people (6.4 a: from a city on the map, else the general reserve, else the NR container).
    Roman troops with a leader there: the ambush battle (6.4 c; Rome's victory +2 VP, KOR-A44 stack; the army's
    rout or withdrawal after it, 5.7.11-5.7.13; no Roman advance, 5.7.14 continuing a Roman action); only a
    garrison: an NR siege with +1 on the first roll (6.4 b), and the city held, Rome victorious from the ambush,
    +2 VP. It starts no further reaction. Under ``ambush_army = from_its_city`` a city's army is a leader with two
    NR units of any people in his city and fights from there, its units staying in it. Returns
    ``(executed, error)``."""
    best, best_cost, src, k = -1, 1 << 40, -1, -1
    placed = cp[CP_AMBUSH_PLACED]
    slot = free_slot(ws)  # where a city's army goes when it leaves its city (six armies in the field: none can)
    virt = np.zeros(1, np.int64)
    for t in range(ts.shape[0]):
        if placed and slot >= 0 and city_leader(tok, ts, t) or not placed and ts[t, TS_LOC] == L_CITY and \
                ts[t, TS_FACE] == FACE_NR and tok[t, TK_KIND] == LEADER:
            c0 = ts[t, TS_AT]
            if (units_with(tok, ts, c0, tok[t, TK_PEOPLE]) if placed else nr_units_in(tok, ts, c0, virt)) < 2:
                continue
            for c in range(cs.shape[0]):
                if cs[c, CS_ROMAN] and city[c, CT_PEOPLE] == tok[t, TK_PEOPLE] and 0 <= cost[0, c0, c] < best_cost:
                    best, best_cost, src = c, cost[0, c0, c], t
    for i in range(MAX_WARS):
        if ws[i, WS_WAR] >= 0 and ws[i, WS_LEADER] >= 0 and war_units(tok, ts, i) >= 2:
            for c in range(cs.shape[0]):
                if cs[c, CS_ROMAN] and city[c, CT_PEOPLE] == war[ws[i, WS_WAR], WR_PEOPLE] and \
                        0 <= cost[0, ws[i, WS_AT], c] < best_cost:
                    best, best_cost, src, k = c, cost[0, ws[i, WS_AT], c], ws[i, WS_LEADER], i
    if best < 0:
        return False, 0
    if k < 0 and placed:
        k = slot
        lead_out(tok, ts, ws, k, src, row)
    if k >= 0:
        w = ws[k, WS_WAR]
        people, c0, nr_loc, nr_at = war[w, WR_PEOPLE], ws[k, WS_AT], L_WAR, k
        ws[k, WS_AT] = best  # placed in the city
    else:
        w = -1
        people, c0 = tok[src, TK_PEOPLE], ts[src, TS_AT]
        nr_loc, nr_at = L_CITY, c0
    # 6.4 a: « Renforcée par une unité de sa nationalité prise au hasard, dans l'ordre, sur la carte, dans la
    # réserve ou dans le récipient » (a unit of its people at random, from the map, else the general reserve, else
    # the NR container; a base unit, not an invasion army's)
    u = pick_on_map(tok, ts, -1, people, c0 if k < 0 else -1, stream)
    if u < 0:
        u = pick(tok, ts, L_RESERVE, -1, people, True, 0, stream)
    if u < 0:
        u = pick(tok, ts, L_NR, -1, people, True, 0, stream)
    if u >= 0:
        put(ts, u, nr_loc, nr_at, FACE_NR)
        check_containers(ts, g, row)  # 8.0 a: the reinforcement may have been the NR container's last token
        if g[G_ENDED]:
            return True, 0
    a = army_here(tok, ts, g, best)
    if a >= 0:
        err, won = fight(stream, city, cp, tok, ts, g, war, ws, pv0, codes, params, slots, pv, bu, bl, bstat, bg, bst,
                         brow, wbuf, row, a, nr_loc, nr_at, src, people, war[w, WR_INVADER] if k >= 0 else 0, 0,
                         _battle.MODE_AMBUSH, True)
        if k >= 0:
            after_battle(city, cost, cp, tok, ts, cs, g, war, ws, brow, row, k)
        return True, err
    garrison, leader = roman_defence(tok, ts, g, cp, best)
    result = nr_siege(stream, garrison, leader, tok[src, TK_ASTUTIA], cp[CP_AMBUSH_DRM])
    if city_taken(tok, ts, g, cp, best, result):
        city_falls(tok, ts, cs, g, cp, best, True)
        row[M_CITIES_LOST] += 1
    else:
        g[G_VP] += 2  # « Si le joueur Romain sort victorieux de l'embuscade, il gagne 2 PV »: the city held
    return True, 0


# ========================================================================== NR armies raised on the map (6.1, 6.2)
@njit(cache=True)
def own_unit(tok, ts, t, people):
    """Whether counter ``t`` is an NR military unit of ``people`` in a city and one of its people's own counters
    (4.1.2), not an invasion's (those stay where their war put them, 9.4.7.3-9.6.7.2)."""
    return ts[t, TS_LOC] == L_CITY and ts[t, TS_FACE] == FACE_NR and is_kind(tok, t, -1) and \
        tok[t, TK_PEOPLE] == people and not invasion_counter(tok, t)


@njit(cache=True)
def city_leader(tok, ts, t):
    """Whether counter ``t`` is an NR leader in a city who leads his people's units there: a leader drawn from the
    containers (9.1.4; Metius too, « il agit comme n'importe quel chef NR », 9.3.7.1), not an invasion's, not
    Porsenna (he waits at Vetulonia for his war, 9.7.7.4)."""
    return ts[t, TS_LOC] == L_CITY and ts[t, TS_FACE] == FACE_NR and tok[t, TK_KIND] == LEADER and \
        not invasion_counter(tok, t) and tok[t, TK_CODE] != LD_PORSENNA


@njit(cache=True, apart=True)
def units_with(tok, ts, c, people):
    """How many of ``people``'s own units stand in city ``c``."""
    n = 0
    for t in range(ts.shape[0]):
        if ts[t, TS_AT] == c and own_unit(tok, ts, t, people):
            n += 1
    return n


@njit(cache=True)
def raise_city_army(cost, cp, tok, ts, ws, row):
    """KoR 6.1's army when none in the field has a leader: table 6.0 has a military reaction made by « Armée NR
    avec un Chef », and an army is « deux unités militaires ou plus » led by a leader (glossary), so an NR leader
    with two units or more of his people in a city leads them out: the largest such army (ties: the nearest to
    Rome by road, then the first counter). It takes a slot of ``ws`` as a raised army (war row ``RAISED`` + its
    people), standing at its city. Returns the slot; -1 when there is none or no room."""
    k = free_slot(ws)
    if k < 0:
        return -1
    best, best_key = -1, 1 << 60
    for t in range(ts.shape[0]):
        if city_leader(tok, ts, t):
            c0 = ts[t, TS_AT]
            n = units_with(tok, ts, c0, tok[t, TK_PEOPLE])
            d = cost[0, cp[CP_ROME], c0]
            key = (MAX_COUNTERS - n) * (1 << 40) + (d if d >= 0 else 1 << 30)
            if n >= 2 and key < best_key:
                best, best_key = t, key
    if best < 0:
        return -1
    lead_out(tok, ts, ws, k, best, row)
    return k


@njit(cache=True)
def lead_out(tok, ts, ws, k, leader, row):
    """KoR 6.1, 6.4: NR leader ``leader`` leads his people's own units in his city out of it, an army: raised army
    ``k`` (a free slot of ``ws``; war row ``RAISED`` + his people), standing at that city."""
    c0, people = ts[leader, TS_AT], tok[leader, TK_PEOPLE]
    for t in range(ts.shape[0]):
        if ts[t, TS_AT] == c0 and own_unit(tok, ts, t, people):
            put(ts, t, L_WAR, k, FACE_NR)
    put(ts, leader, L_WAR, k, FACE_NR)
    ws[k, WS_WAR], ws[k, WS_AT], ws[k, WS_LEADER], ws[k, WS_NEW], ws[k, WS_TOKEN] = RAISED + people, c0, leader, 0, -1
    ws[k, WS_PASSED], ws[k, WS_LINGER], ws[k, WS_START], ws[k, WS_ROUTED] = -1, 0, c0, 0
    row[M_ARMIES_RAISED] += 1


@njit(cache=True)
def free_place(tok, ts, ws, t, led):
    """Where counter ``t`` stands if it is a free unit (6.2: « unités libres », with no leader of its people): one
    of its people's own units in a city where none of their leaders stands (``led``, a bitmask of the cities where
    one does), or a unit of a raised army whose leader fell; -1 otherwise."""
    if not is_kind(tok, t, -1):
        return -1
    if ts[t, TS_LOC] == L_CITY:
        if ts[t, TS_FACE] == FACE_NR and not invasion_counter(tok, t) and not (led >> ts[t, TS_AT]) & 1:
            return ts[t, TS_AT]
    elif ts[t, TS_LOC] == L_WAR:
        k = ts[t, TS_AT]
        if ws[k, WS_WAR] >= RAISED and ws[k, WS_LEADER] < 0:
            return ws[k, WS_AT]
    return -1


@njit(cache=True)
def nearest_friendly(city, cost, cs, at, people):
    """The nearest city of ``people`` Rome does not hold, by road from ``at`` (ties: the first); -1 for none."""
    best, best_cost = -1, 1 << 40
    for c in range(cs.shape[0]):
        if friendly_city(city, cs, c, people) and 0 <= cost[0, at, c] < best_cost:
            best, best_cost = c, cost[0, at, c]
    return best


@njit(cache=True, apart=True)
def gather(city, cost, tok, ts, cs, ws, war, g, row):
    """KoR 6.2 step 1, before step 2's draw (« la séquence exprime la priorité », the order is the priority): « vous
    pouvez déplacer des unités libres sur la carte vers l'un de leurs chefs (s'il y en a un sur la carte) pour créer
    une armée. S'il n'y a pas de chef, les troupes déplacées s'abriteront dans les murs d'une Cité amie » (you may
    move free units on the map toward one of their leaders, if one is on the map, to create an army; with no
    leader, the troops moved shelter inside the walls of a friendly city). A leader in a city with fewer than two
    units of his people, whom the free units reaching him by road (``free_place``) make an army (two units or
    more), gathers them: the largest army made (ties: the first counter). With none, a raised army whose leader
    fell shelters inside the walls of the nearest city of its people. NR units drawn stand in their cities
    already (4.1.2). Returns whether step 1 did something."""
    n_places = cs.shape[0]
    # one pass over the counters: the leaders in cities (``led``: each people's cities where one stands, a bitmask),
    # each people's own units in each city, and the units of raised armies whose leader fell, where they stand
    led = np.zeros(N_PEOPLES, np.int64)
    own = np.zeros((N_PEOPLES, n_places), np.int64)
    fallen = np.zeros((N_PEOPLES, n_places), np.int64)
    leaders = np.empty(ts.shape[0], np.int64)
    n_leaders = 0
    for t in range(ts.shape[0]):
        if city_leader(tok, ts, t):
            led[tok[t, TK_PEOPLE]] |= 1 << ts[t, TS_AT]
            leaders[n_leaders] = t
            n_leaders += 1
        elif own_unit(tok, ts, t, tok[t, TK_PEOPLE]):
            own[tok[t, TK_PEOPLE], ts[t, TS_AT]] += 1
        elif ts[t, TS_LOC] == L_WAR and is_kind(tok, t, -1):
            k = ts[t, TS_AT]
            if ws[k, WS_WAR] >= RAISED and ws[k, WS_LEADER] < 0:
                fallen[tok[t, TK_PEOPLE], ws[k, WS_AT]] += 1
    best, best_n = -1, 1
    for i in range(n_leaders):  # in counter order: ties go to the first
        t = leaders[i]
        c0, p = ts[t, TS_AT], tok[t, TK_PEOPLE]
        if own[p, c0] < 2:
            n = own[p, c0]
            for c in range(n_places):  # the free units (``free_place``) that reach him by road
                if cost[0, c, c0] >= 0:
                    n += fallen[p, c] + (0 if (led[p] >> c) & 1 else own[p, c])
            if n > best_n:
                best, best_n = t, n
    if best >= 0:
        c0, p = ts[best, TS_AT], tok[best, TK_PEOPLE]
        for t in range(ts.shape[0]):
            c = free_place(tok, ts, ws, t, led[p]) if tok[t, TK_PEOPLE] == p else -1
            if c >= 0 and cost[0, c, c0] >= 0:
                put(ts, t, L_CITY, c0, FACE_NR)
        for k in range(MAX_WARS):
            if ws[k, WS_WAR] == RAISED + p and ws[k, WS_LEADER] < 0 and war_units(tok, ts, k) == 0:
                ws[k, WS_WAR] = -1  # its units all gone to the leader
        row[M_REVOLTS_GATHERED] += 1
        return True
    sheltered = False
    for k in range(MAX_WARS):
        w = ws[k, WS_WAR]
        if w >= RAISED and ws[k, WS_LEADER] < 0:
            c = nearest_friendly(city, cost, cs, ws[k, WS_AT], war[w, WR_PEOPLE])
            if c >= 0:
                ws[k, WS_AT] = c
                into_walls(tok, war, ts, g, ws, k, row)
                sheltered = True
    if sheltered:
        row[M_REVOLTS_GATHERED] += 1
    return sheltered


# ========================================================================================= invasion armies
@njit(cache=True)
def city_bits(city, cs, c):
    people = city[c, CT_PEOPLE]
    bits = T_ROMAN if cs[c, CS_ROMAN] else 0
    if people == LATINS:
        bits |= T_LATIN
    elif people == SABINES:
        bits |= T_SABINE
    elif people == ETRUSCANS:
        bits |= T_ETRUSCAN
    elif people != ROMAN:
        bits |= T_OTHER
    return bits


@njit(cache=True)
def is_target(city, cs, tok, ts, g, war, ws, cp, k, c):
    """Whether invasion army ``k`` besieges place ``c`` on its way: Rome always (6.1: "if the city reached is Rome
    it must besiege"), else a defended city its war attacks and does not spare, not the one where its last siege
    failed (it goes on)."""
    if c == cp[CP_ROME]:
        return True
    w = ws[k, WS_WAR]
    if city[c, CT_ENTRY] or c == ws[k, WS_PASSED] or city[c, CT_PEOPLE] == war[w, WR_PEOPLE]:
        return False
    if w == W_ETRUSCAN and roman_port(g, cp, c):
        return True  # 9.5.7.4 « ont pour cible les ports d'Ostie et d'Antium, ainsi que la Cité de Rome »
    bits = city_bits(city, cs, c)
    if (bits & war[w, WR_TARGETS]) == 0 or (bits & war[w, WR_SPARES]) != 0:
        return False
    if cs[c, CS_ROMAN]:
        return True
    return garrison_value(tok, ts, c, FACE_NR) > 0


@njit(cache=True)
def roman_port(g, cp, c):
    """Whether ``c`` is Ostia founded (9.4.7.1 « la Cité de Rome fait maintenant face à la mer avec la fondation
    d'Ostie »: the City of Rome now faces the sea with the founding of Ostia) and, under ``etruscans_besiege_ostia``,
    a Roman city the Etruscan wars besiege (9.5.7.4): Rome's own, no romanized city (7.4, 7.5 do not count it)."""
    return c == cp[CP_OSTIA] and g[G_OSTIA] == OSTIA_FOUNDED and cp[CP_OSTIA_BESIEGED] != 0


@njit(cache=True, apart=True)
def engage(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu, bl, bstat, bg, bst,
           brow, wbuf, row, k, at):
    """What invasion army ``k`` does at place ``at`` on its way: fight the Roman army standing there, if its war
    fights Roman armies (5.7, Rome defending; a leader there without units withdraws to Rome), or besiege a city its
    war attacks (``is_target``; NR sieges: KOR-A44 mirror_5_5). At Rome it besieges, whoever stands inside: 6.1 « si
    la Cité atteinte est Rome, un siège est toujours obligatoire » (if the city reached is Rome, a siege is always
    obligatory); the army inside may sally (``war_siege``). Returns ``(acted, error)``."""
    w = ws[k, WS_WAR]
    if war[w, WR_FIGHTS_ARMIES] and at != cp[CP_ROME]:
        a = army_here(tok, ts, g, at)
        for b in range(MAX_ARMIES):
            if b != a and army_exists(g, b) and g[G_ARMY_AT + b] == at and army_units(tok, ts, b) == 0:
                army_home(tok, ts, g, cp, b)  # a leader alone withdraws to Rome
        if a >= 0:
            err, won = fight(stream, city, cp, tok, ts, g, war, ws, pv0, codes, params, slots, pv, bu, bl, bstat, bg,
                             bst, brow, wbuf, row, a, L_WAR, k, ws[k, WS_LEADER], war[w, WR_PEOPLE],
                             war[w, WR_INVADER], 0, _battle.MODE_BATTLE, True)
            after_battle(city, cost, cp, tok, ts, cs, g, war, ws, brow, row, k)
            return True, err
    if is_target(city, cs, tok, ts, g, war, ws, cp, k, at):
        return True, war_siege(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu, bl,
                               bstat, bg, bst, brow, wbuf, row, k, at)
    return False, 0


@njit(cache=True)
def marching(tok, ts, ws, war, g, row, k):
    """Whether invasion army ``k`` moves at all: not when it has no unit left (its war ends, beaten), not a
    Falisci (Capenati) army holding its city past its period."""
    if war_units(tok, ts, k) == 0:
        end_war(tok, war, ts, g, ws, k, True, row)
        return False
    return not ws[k, WS_LINGER]


@njit(cache=True)
def blocked(tok, ts, ws, k, c):
    """Whether an Etruscan army ``k`` must stop before place ``c``: « Si la route est bloquée par des armées NR,
    l'armée Étrusque doit s'arrêter et attendre que l'armée NR se déplace » (9.5.7.4: if the road is blocked by NR
    armies, the Etruscan army must stop and wait until the NR army moves): another invasion army stands there."""
    if ws[k, WS_WAR] != W_ETRUSCAN:
        return False
    for i in range(MAX_WARS):
        if i != k and ws[i, WS_WAR] >= 0 and ws[i, WS_AT] == c and war_units(tok, ts, i) > 0:
            return True
    return False


@njit(cache=True)
def nearest_enemy(city, cost, cp, tok, ts, cs, ws, g, war, k):
    """6.1: « L'armée NR atteint la position ennemie la plus proche en suivant un itinéraire routier » (the NR army
    reaches the nearest enemy position by road): the nearest place by road (ties: the lowest index) holding a Roman
    army its war fights, or a city its war attacks (``is_target``: Roman cities and, « si elles sont les plus
    proches », cities of other peoples it may legally besiege, 9.1-9.7). -1: none within reach."""
    at = ws[k, WS_AT]
    armies = 0  # the places of the Roman armies its war fights (with units; not Rome, besieged instead), a bitmask
    if war[ws[k, WS_WAR], WR_FIGHTS_ARMIES]:
        for a in range(MAX_ARMIES):
            if army_exists(g, a) and g[G_ARMY_AT + a] != cp[CP_ROME] and army_units(tok, ts, a) > 0:
                armies |= 1 << g[G_ARMY_AT + a]
    best, best_cost = -1, 1 << 40
    for c in range(cs.shape[0]):
        d = cost[0, at, c]
        if 0 <= d < best_cost and ((armies >> c) & 1 or is_target(city, cs, tok, ts, g, war, ws, cp, k, c)):
            best, best_cost = c, d
    return best


@njit(cache=True, apart=True)
def military_reaction(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu, bl, bstat,
                      bg, bst, brow, wbuf, row, k):
    """KoR 6.1, a military reaction of invasion army ``k``: it goes by road to the nearest enemy position
    (``nearest_enemy``, however far) and acts there (``engage``); with none within reach it stays. Under
    ``military_reaction = movement_allowance`` it marches on Rome as after the reactions (``march``)."""
    ws[k, WS_NEW] = 0  # its first choice made (6.0)
    if cp[CP_REACTION_MARCHES]:
        return march(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu, bl, bstat,
                     bg, bst, brow, wbuf, row, k)
    if not marching(tok, ts, ws, war, g, row, k):
        return 0
    c = nearest_enemy(city, cost, cp, tok, ts, cs, ws, g, war, k)
    if c < 0:
        return 0
    at = ws[k, WS_AT]
    while ws[k, WS_WAR] == W_ETRUSCAN and at != c:  # only an Etruscan army waits behind another on its road
        nxt = hop_to(cost, at, c)
        if blocked(tok, ts, ws, k, nxt):
            ws[k, WS_AT] = at
            return 0  # it waits behind the NR army (9.5.7.4)
        at = nxt
    ws[k, WS_AT] = c
    return engage(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu, bl, bstat, bg,
                  bst, brow, wbuf, row, k, c)[1]


@njit(cache=True, apart=True)
def march(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu, bl, bstat, bg, bst,
          brow, wbuf, row, k):
    """KoR 5.2, the wars of 9.1-9.7 after the reactions: invasion army ``k`` moves toward Rome along the
    cheapest road path, at most its movement allowance (5.2: 14 MP with infantry, 20 without) but at least one road,
    and stops where it fights or besieges (``engage``), an Etruscan army also behind another NR army (``blocked``).
    Invader results: a romanized city taken -2 IP, Rome taken -5 IP -5 VP (then the army has reached its goal and
    leaves), a failed siege +1 VP for the Etruscans and Greeks."""
    w = ws[k, WS_WAR]
    if not marching(tok, ts, ws, war, g, row, k):
        return 0
    if w == W_VOLSCI and cp[CP_VOLSCI_RETURN]:
        ws[k, WS_AT] = ws[k, WS_START]  # KOR-A65 return_to_entry_box_each_turn: back after the reactions
        return 0
    mp = MP_CAVALRY
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_WAR and ts[t, TS_AT] == k and tok[t, TK_KIND] == INF:
            mp = MP_INFANTRY
    at = ws[k, WS_AT]
    spent = 0
    while True:
        acted, err = engage(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu, bl,
                            bstat, bg, bst, brow, wbuf, row, k, at)
        if acted:
            return err
        if spent == 0 and cp[CP_INVADERS_BY_SEA]:
            port = landing_port(city, cost, cp, tok, ts, k, at)
            if port >= 0:
                return sail(stream, city, cp, tok, ts, g, ws, war, pv0, codes, params, slots, pv, row, k, port)
        # a move ends at a place (the abstract map has none between its nodes, data/kor_map README « Armies between
        # nodes are not modelled: a move ends at a node »): its first road is taken however long, so a road longer
        # than the allowance (Sena Gallica-Narnia, 14.5 MP) is one move, not a wall
        nxt = hop_to(cost, at, cp[CP_ROME])
        if nxt < 0 or (spent > 0 and spent + cost[0, at, nxt] > mp) or blocked(tok, ts, ws, k, nxt):
            return 0
        spent += cost[0, at, nxt]
        at = nxt
        ws[k, WS_AT] = at


@njit(cache=True, apart=True)
def wars_march(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu, bl, bstat, bg, bst,
               brow, wbuf, row):
    """5.2 after the reactions: each invasion army marches by its war's rules (``march``); a raised army moves in
    its military reactions only (6.1), the wars of 9.x being what marches on Rome. Returns an error code."""
    for k in range(MAX_WARS):
        ws[k, WS_NEW] = 0
        if 0 <= ws[k, WS_WAR] < RAISED and g[G_ENDED] == 0:
            err = march(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu, bl, bstat,
                        bg, bst, brow, wbuf, row, k)
            if err:
                return err
    return 0


# ================================================================================================ the sea (5.8)
@njit(cache=True)
def roman_may_land(city, ws, c):
    """9.4.7.1: Roman ships land in any port, except a Rasna port during an Etruscan war (a) and a port of Magna
    Graecia during the Greek war (b)."""
    if not city[c, CT_PORT]:
        return False
    for k in range(MAX_WARS):
        w = ws[k, WS_WAR]
        if (w == W_ETRUSCAN and city[c, CT_PEOPLE] == ETRUSCANS) or (w == W_DANAI and city[c, CT_PEOPLE] == GREEKS):
            return False
    return True


@njit(cache=True)
def fleet_at(ts, port):
    """The Roman ships in ``port``."""
    n = 0
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_FLEET and ts[t, TS_AT] == port:
            n += 1
    return n


@njit(cache=True, apart=True)
def landing_port(city, cost, cp, tok, ts, k, at):
    """Where invasion army ``k`` in port ``at`` sails (9.5.7.4 "Les armées Étrusques peuvent être transportées par
    voie maritime", their targets "les ports d'Ostie et d'Antium, ainsi que la Cité de Rome"; 9.6.7.2): the port its
    fleet reaches in one move (5.8: 25 sea hexes) that lies nearest Rome by road, when nearer than ``at``; -1 to go
    by land (``invaders_by_sea`` false, no ship, or more units than its ships carry: three each, 9.4.7.1)."""
    if not city[at, CT_PORT]:
        return -1
    ships, units = 0, 0
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_WAR and ts[t, TS_AT] == k:
            ships += tok[t, TK_KIND] == SHIP
            units += is_kind(tok, t, -1)
    if ships == 0 or units > 3 * ships:
        return -1
    rome = cp[CP_ROME]
    best, best_cost = -1, cost[0, at, rome] if cost[0, at, rome] >= 0 else 1 << 40
    for c in range(city.shape[0]):
        hexes = city[at, CT_SEA + c]
        if c != at and city[c, CT_PORT] and 0 < hexes <= SHIP_MP and 0 <= cost[0, c, rome] < best_cost:
            best, best_cost = c, cost[0, c, rome]
    return best


@njit(cache=True)
def sail(stream, city, cp, tok, ts, g, ws, war, pv0, codes, params, slots, pv, row, k, port):
    """KoR 5.8, 9.5.7.4, 9.6.7.2: invasion army ``k`` sails to ``port``; the Roman fleet may intercept it at sea
    (``naval_battle``); landing ends its move (9.4.7.1 "Le débarquement ... interrompt le mouvement de l'armée")."""
    err, dest = naval_battle(stream, city, cp, tok, ts, g, ws, war, pv0, codes, params, slots, pv, row, k, port)
    if dest >= 0:
        ws[k, WS_AT] = dest
    return err


@njit(cache=True)
def naval_battle(stream, city, cp, tok, ts, g, ws, war, pv0, codes, params, slots, pv, row, k, port):
    """KoR 5.8: the Roman ships within a move of ``port`` intercept invasion army ``k``'s fleet before it lands there,
    when ``interception`` says so (``intercepts``), in the naval battle of ``sea_fight``. The army rides the
    strongest of its ships, and is lost with it (KOR-A41 eliminated_c4). Undecided after three rounds, both fleets
    retire to the nearest friendly port: the army lands in the nearest port of its people. Returns ``(error, where
    the army lands)``, -1 when it is lost."""
    nv = _naval
    roman = np.full(nv.MAX_SHIPS, -1, np.int64)
    nr = np.full(nv.MAX_SHIPS, -1, np.int64)
    n_roman, n_nr, carrier = 0, 0, -1
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_FLEET and 0 <= city[ts[t, TS_AT], CT_SEA + port] <= SHIP_MP and n_roman < nv.MAX_SHIPS:
            roman[n_roman] = t
            n_roman += 1
        elif ts[t, TS_LOC] == L_WAR and ts[t, TS_AT] == k and tok[t, TK_KIND] == SHIP and n_nr < nv.MAX_SHIPS:
            nr[n_nr] = t
            if carrier < 0 or tok[t, TK_VIRTUS] > tok[nr[carrier], TK_VIRTUS]:
                carrier = n_nr
            n_nr += 1
    if not intercepts(cp, tok, g, roman, n_roman, nr, n_nr):
        return 0, port
    err = sea_fight(stream, cp, tok, ts, g, pv0, codes, params, slots, pv, row, roman, n_roman, nr, n_nr)
    if err:
        return err, port
    if ts[nr[carrier], TS_LOC] != L_WAR:
        for t in range(ts.shape[0]):
            if ts[t, TS_LOC] == L_WAR and ts[t, TS_AT] == k and tok[t, TK_KIND] != SHIP:
                put(ts, t, L_RESERVE if is_kind(tok, t, -1) else L_OUT, 0, FACE_ROMAN)
        ws[k, WS_LEADER] = -1
        end_war(tok, war, ts, g, ws, k, True, row)
        return 0, -1
    if afloat(ts, roman, n_roman, L_FLEET):
        # both fleets afloat after three rounds: the army's fleet retires to the nearest port of its people
        people = war[ws[k, WS_WAR], WR_PEOPLE]
        best, best_hexes = ws[k, WS_AT], 1 << 40
        for c in range(city.shape[0]):
            hexes = city[port, CT_SEA + c]
            if city[c, CT_PEOPLE] == people and 0 <= hexes < best_hexes:
                best, best_hexes = c, hexes
        return 0, best
    return 0, port


@njit(cache=True)
def port_interception(stream, city, cp, tok, ts, g, cs, ws, pv0, codes, params, slots, pv, row, at, c):
    """9.4.7.1: « Il est cependant possible d'intercepter les navires ennemis dans le port AVANT de débarquer » (it is
    possible, though, to intercept the enemy ships in the port BEFORE landing): the Roman fleet carrying the acting army
    from ``at`` into port ``c`` meets the ships of the invasion armies standing there, when ``interception`` says so
    (DP-N02, ``intercepts``), in the naval battle of ``sea_fight``. The army rides the strongest Roman ship and is lost
    with it (KOR-A41 eliminated_c4, as an invader's: its units to the general reserve, the King's loss gives the
    Interrex, KOR-A38, an office's puts it into NR). Undecided after three rounds, « les deux forces se retirent dans le
    port ami le plus proche » (both forces retire to the nearest friendly port): the fleet and the army land in the port
    nearest ``c`` by sea that Rome holds or that is Rome's own, Ostia (``at`` if none is nearer); the invaders' ships
    stay with their army. Returns 0 or the naval battle's policy error."""
    nv = _naval
    roman = np.full(nv.MAX_SHIPS, -1, np.int64)
    nr = np.full(nv.MAX_SHIPS, -1, np.int64)
    n_roman, n_nr, carrier = 0, 0, -1
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_FLEET and ts[t, TS_AT] == c and n_roman < nv.MAX_SHIPS:
            roman[n_roman] = t
            if carrier < 0 or tok[t, TK_VIRTUS] > tok[roman[carrier], TK_VIRTUS]:
                carrier = n_roman
            n_roman += 1
        elif (ts[t, TS_LOC] == L_WAR and tok[t, TK_KIND] == SHIP and ws[ts[t, TS_AT], WS_AT] == c
              and n_nr < nv.MAX_SHIPS):
            nr[n_nr] = t
            n_nr += 1
    if not intercepts(cp, tok, g, roman, n_roman, nr, n_nr):
        return 0
    err = sea_fight(stream, cp, tok, ts, g, pv0, codes, params, slots, pv, row, roman, n_roman, nr, n_nr)
    if err:
        return err
    a = g[G_ACTING]
    if ts[roman[carrier], TS_LOC] != L_FLEET:
        for t in range(ts.shape[0]):
            if in_army(ts, t, a):
                put(ts, t, L_RESERVE, 0, FACE_ROMAN)
        g[G_ARMY_AT + a] = cp[CP_ROME]
        leader_lost(tok, ts, g, cp, row, a)
    elif afloat(ts, nr, n_nr, L_WAR):
        best, best_hexes = at, city[c, CT_SEA + at]
        for d in range(cp[CP_CITIES]):
            hexes = city[c, CT_SEA + d]
            roman_port = city[d, CT_PORT] and (cs[d, CS_ROMAN] or city[d, CT_PEOPLE] == ROMAN)
            if d != c and roman_port and 0 <= hexes < best_hexes:
                best, best_hexes = d, hexes
        for t in range(ts.shape[0]):
            if ts[t, TS_LOC] == L_FLEET and ts[t, TS_AT] == c:
                ts[t, TS_AT] = best
        g[G_ARMY_AT + a] = best
    return 0


@njit(cache=True)
def intercepts(cp, tok, g, roman, n_roman, nr, n_nr):
    """DP-N02 (``interception``): whether the Roman ships ``roman[:n_roman]`` fight the NR ships ``nr[:n_nr]``.
    ``even_odds``: when the Roman ships' expected hits a round, at targets drawn evenly, are at least the NR
    ships': ``n_roman`` times the mean of (6 + omen - v) / 6 over the NR ships, against ``n_nr`` times the mean of
    (6 - v) / 6 over Rome's."""
    mode = cp[CP_INTERCEPTION]
    if n_roman == 0 or n_nr == 0 or mode == INTERCEPT_NEVER:
        return False
    if mode == INTERCEPT_EVEN_ODDS:
        omen = 1 if g[G_OMEN] == OMEN_GOOD else 0
        rome_faces, nr_faces = 0, 0
        for i in range(n_nr):
            rome_faces += max(0, 6 + omen - tok[nr[i], TK_VIRTUS])
        for i in range(n_roman):
            nr_faces += max(0, 6 - tok[roman[i], TK_VIRTUS])
        return n_roman * n_roman * rome_faces >= n_nr * n_nr * nr_faces
    return True


@njit(cache=True)
def afloat(ts, ships, count, loc):
    """Whether one of ``ships[:count]`` is still afloat (still at ``loc``) after ``sea_fight``."""
    for i in range(count):
        if ts[ships[i], TS_LOC] == loc:
            return True
    return False


@njit(cache=True, apart=True)
def sea_fight(stream, cp, tok, ts, g, pv0, codes, params, slots, pv, row, roman, n_roman, nr, n_nr):
    """KoR 5.8: the naval battle of ``naval.naval_game``, with its default bots, between the Roman ships
    ``roman[:n_roman]`` and the NR ships ``nr[:n_nr]`` (the Roman fleet attacks, no leader aboard; the Good Omen
    counts, KOR-A58): its VP and IP; sunk Roman ships go into the R container, NR ones back to their people ("les
    navires romains éliminés retournent dans le récipient R, les navires NR dans les zones de la carte appartenant
    à leur peuple"): a ship afloat stays where it was. Returns 0 or the naval battle's policy error."""
    nv = _naval
    p = pv[PROC_NAVAL]
    copy_into(p, pv0[PROC_NAVAL])
    p[nv.N_ROMAN], p[nv.N_NR], p[nv.OMEN], p[nv.ASTUTIA] = n_roman, n_nr, g[G_OMEN] == OMEN_GOOD, 0
    for i in range(nv.MAX_SHIPS):
        p[nv.ROMAN_V + i] = tok[roman[i], TK_VIRTUS] if i < n_roman else 0
        p[nv.NR_V + i] = tok[nr[i], TK_VIRTUS] if i < n_nr else 0
    state = np.zeros(NAVAL_STATE_SIZE, np.int64)
    ships = np.zeros((nv.N_SCRATCH, nv.MAX_SHIPS), np.int64)
    nrow = np.zeros(nv.N_METRICS, np.int64)
    err = nv.naval_game(stream, nrow, codes, params, slots, PROC_BASE[PROC_NAVAL], p, state, ships)
    if err:
        return err
    row[M_NAVAL_BATTLES] += 1
    row[M_NAVAL_WON] += nrow[nv.WIN]
    g[G_VP] += nrow[nv.VP]
    add_ip(g, row, nrow[nv.IP])
    for i in range(n_roman):
        if ships[nv.SHIP_ROMAN, i] == 0:
            put(ts, roman[i], L_R, 0, FACE_ROMAN)
    for i in range(n_nr):
        if ships[nv.SHIP_NR, i] == 0:
            put(ts, nr[i], L_ASIDE, 0, FACE_ROMAN)
    return np.int64(0)


@njit(cache=True)
def hop_to(cost, a, dest):
    """The next place from ``a`` on a cheapest path to ``dest``: the nearest place that lies on one (edges cost
    at least a half point, so it is a neighbour); ties to the lowest index. -1 at ``dest``."""
    best, best_cost = -1, 1 << 40
    for n in range(cost.shape[1]):
        if n != a and 0 < cost[0, a, n] < best_cost and cost[0, a, n] + cost[0, n, dest] == cost[0, a, dest]:
            best, best_cost = n, cost[0, a, n]
    return best


@njit(cache=True)
def sallies(tok, ts, g, a, besiegers):
    """Whether army ``a`` comes out against ``besiegers`` units (5.5.1 mirrored): at least as many units, of which its
    leader's caps (table 5.1) field the 3 a battle asks of the side that starts it (KOR-A14 initiator_only)."""
    inf, cav = army_counts(tok, ts, a)
    max_inf, max_cav = command_caps(tok, g, a)
    return besiegers > 0 and inf + cav >= besiegers and min(inf, max_inf) + min(cav, max_cav) >= 3


@njit(cache=True)
def siege_failed(ws, k, c):
    """Invasion army ``k``'s siege of ``c`` failed: it goes on past ``c`` (``is_target`` spares the city it passed),
    but the Etruscans fall back and come again: « S'ils perdent, ils reculent d'une case » (9.5.7.4, 9.7.7.3: if they
    lose, they fall back one hex); on the abstract map that hex is still ``c``'s place, and their next move toward
    Rome besieges ``c`` again."""
    ws[k, WS_PASSED] = -1 if ws[k, WS_WAR] == W_ETRUSCAN else c


@njit(cache=True)
def sacks_rome(tok, war, cp, g, ws, k):
    """Whether invasion army ``k``, having won its siege of Rome, sacks it (-5 IP -5 VP). The Etruscans' first two
    wars and the Greeks whoever commands (9.5.7.4, 9.6.7.2 « S'ils gagnent le siège de Rome, le joueur perd 5 PI et
    5 PV »); the Gauls only with Brennus, their war's leader (9.5.7.3 « Si Brennus assiège Rome et gagne, il la met
    à sac »); the third Etruscan war only with Porsenna (9.7.7.3 « S'ils gagnent le siège de Rome avec Porsenna au
    commandement »); no other war (nor a raised army). What a won siege of Rome does without them the rules do not
    say: nothing. Under ``rome_sack = any_leader`` the Gauls and the third war sack it whoever commands."""
    w = ws[k, WS_WAR]
    sack = war[war_row(w, g[G_ETRUSCAN_WARS]), WR_ROME_TAKEN]
    if sack == SACK_NAMED_LEADER and not cp[CP_SACK_ANY_LEADER]:
        leader = ws[k, WS_LEADER]
        return leader >= 0 and (w != W_ETRUSCAN or tok[leader, TK_CODE] == LD_PORSENNA)
    return sack != SACK_NEVER


@njit(cache=True, apart=True)
def war_siege(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu, bl, bstat, bg, bst,
              brow, wbuf, row, k, c):
    """Invasion army ``k`` besieges place ``c`` (KOR-A44 mirror_5_5, its leader's Astutia rerolling). From a Roman
    city the army whose leader commands there (``commanding_army``) sallies first when it can (``sallies``; 5.5.1
    mirrored: « Si la Cité cible contient un chef et un nombre d'unités militaires supérieur ou égal à celui des
    assiégeants (à l'exclusion des garnisons), ils sortent et affrontent les assiégeants lors d'une bataille », if
    the city holds a leader and at least as many military units as the besiegers, garrisons excluded, they come out
    and fight them in a battle): a battle of 5.7, Rome attacking, with the war's own battle results. The sortie not
    beaten, the siege fails (the war's failed-siege result); beaten, the army falls back on Rome (5.7.11) and the
    siege rolls follow. Only the wars that do not fight Roman armies on their road (the Piceni, 9.2.7.2; the Greeks
    under KOR-A59 ``danai_fight_blocking_army`` false) besiege a city an army holds. Ostia founded is a Roman city
    the Etruscans besiege (``roman_port``); taken, it is sacked and stays Rome's. Returns an error code."""
    w = ws[k, WS_WAR]
    leader = ws[k, WS_LEADER]
    astutia = tok[leader, TK_ASTUTIA] if leader >= 0 else 0
    rome = cp[CP_ROME]
    if cs[c, CS_ROMAN] or roman_port(g, cp, c):
        a = commanding_army(tok, g, c)
        if a >= 0 and sallies(tok, ts, g, a, war_units(tok, ts, k)):
            err, _ = fight(stream, city, cp, tok, ts, g, war, ws, pv0, codes, params, slots, pv, bu, bl, bstat, bg, bst,
                           brow, wbuf, row, a, L_WAR, k, leader, war[w, WR_PEOPLE], war[w, WR_INVADER], ROME_SALLIES,
                           _battle.MODE_BATTLE, True)
            if err:
                return err
            after_battle(city, cost, cp, tok, ts, cs, g, war, ws, brow, row, k)
            held = brow[_battle.LOSS] == 0
            if held:
                # the siege failed; 9.5.7.3 « Si le siège échoue, le joueur gagne 1 PV pour chaque pion Gaulois
                # éliminé ou capturé » (a failed Gallic siege: +1 VP a Gallic counter eliminated or captured)
                g[G_VP] += war[w, WR_FAILED_VP]
                if w == W_GALLIC:
                    g[G_VP] += brow[_battle.NR_LOST] + brow[_battle.NR_CAPTURED]
            if ws[k, WS_WAR] != w:
                return 0  # the besiegers beaten to the last unit, or gone inside walls of their own (5.7.13)
            if held:
                siege_failed(ws, k, c)
                return 0
        garrison, lead = roman_defence(tok, ts, g, cp, c)
        result = nr_siege(stream, garrison, lead, astutia, 0)
        falls = city_taken(tok, ts, g, cp, c, result)
        sacked = c == rome and result > 0 and sacks_rome(tok, war, cp, g, ws, k)
        if sacked:
            # 9.5.7.3 ... 9.7.7.3: Rome taken (Vae victis), -5 IP -5 VP; the army has reached its goal
            row[M_ROME_TAKEN] = 1  # p_rome_taken: whether, not how often (a second war may take it again)
            g[G_VP] -= 5
            add_ip(g, row, -5)
            end_war(tok, war, ts, g, ws, k, False, row)
            return 0
        if falls and c != rome:
            if cs[c, CS_ROMAN]:
                city_falls(tok, ts, cs, g, cp, c, False)
                row[M_CITIES_LOST] += 1
            else:
                # Ostia sacked (9.5.7.4 « après avoir mis à sac, passent à la Cité suivante »: having sacked it, they
                # go on to the next city): its Roman counters leave, no people holds it after them, and it stays
                # Rome's port; 7.5 counts NR and romanized cities only
                roman_counters_leave(tok, ts, c, False)
            if war[w, WR_INVADER]:
                add_ip(g, row, -2)   # "-2 IP, sack, next city"
            ws[k, WS_PASSED] = c
            return 0
        if not falls:
            g[G_VP] += war[w, WR_FAILED_VP]
        siege_failed(ws, k, c)
        return 0
    lead = nr_leader_in(tok, ts, c)
    result = nr_siege(stream, garrison_value(tok, ts, c, FACE_NR), tok[lead, TK_VIRTUS] if lead >= 0 else 0,
                      astutia, 0)
    if result > 0:
        for t in range(ts.shape[0]):
            if ts[t, TS_LOC] == L_CITY and ts[t, TS_AT] == c:
                put(ts, t, L_RESERVE if tok[t, TK_KIND] != LEADER else L_ASIDE, 0, FACE_ROMAN)
        cs[c, CS_CAPTURED] = 1
    ws[k, WS_PASSED] = c
    return 0


# ===================================================================================== end of turn (7.0)
@njit(cache=True, apart=True)
def end_of_turn(stream, city, cost, cp, tok, per, war, ts, cs, ws, g, row, dstate):
    """7.1-7.6 (7.2's captives score nothing here: the manifest gives no Captivi backs), then the victory checks
    of 8.0. It stops for the Roman player's choices on the way, where each army steps away from NR units
    (DP-K07, the army asked being the state's acting army) and which units a failed mission costs (DP-K06):
    returns that decision point, its state posted, or -1 when the turn is over; called again after the answer, it
    goes on from there (``G_END_STEP``, ``G_RETREAT_NEXT``)."""
    if g[G_END_STEP] == END_START:
        if g[G_RETREAT_NEXT] == 0:
            umbrians_join(city, cs, tok, war, ts, ws, g, row)
            g[G_RETREAT_NEXT] = 1
        nr = nr_places(tok, ts, ws)
        while g[G_RETREAT_NEXT] <= MAX_ARMIES:
            a = g[G_RETREAT_NEXT] - 1
            g[G_RETREAT_NEXT] += 1
            if army_exists(g, a) and map_conflicts(city, cost, cp, tok, ts, ws, g, dstate, a, nr):
                g[G_ACTING] = a
                post_action(city, cost, tok, ts, cs, ws, g, cp, per, dstate)
                return P_RETREAT
        g[G_RETREAT_NEXT] = 0
        g[G_END_STEP] = END_PERIOD
    if g[G_END_STEP] == END_PERIOD:
        g[G_END_STEP] = END_LOSSES
        period_end(stream, city, cp, tok, per, war, ts, cs, ws, g, row)
    if g[G_LOSS_LEFT] > 0:
        g[G_ACTING] = 0
        if post_action(city, cost, tok, ts, cs, ws, g, cp, per, dstate) > 0:
            dstate[D_LOSS_LEFT] = g[G_LOSS_LEFT]
            return P_LOSS
        g[G_LOSS_LEFT] = 0
    g[G_END_STEP] = END_START
    turn_close(stream, city, cp, tok, per, ts, cs, g, row)
    return -1


@njit(cache=True)
def invasion_counter(tok, t):
    """Whether counter ``t`` is an invasion army's: a unit of a later period (``TK_CODE`` its war + 1) or a war's
    leader (kept aside between its wars); not a leader drawn from the containers (Metius, Porsenna, the others)."""
    code = tok[t, TK_CODE]
    if tok[t, TK_KIND] == LEADER:
        return code == LD_WAR or code == LD_LARTH or code == LD_ZILATH
    return code > 0


@njit(cache=True, apart=True)
def period_end(stream, city, cp, tok, per, war, ts, cs, ws, g, row):
    """KOR-A55's every-turn readings of 7.1-7.2 and, at a period's end, 7.3 and the mission of 7.4."""
    period = g[G_PERIOD]
    last = g[G_TURN] == per[period, PR_LAST]
    # KOR-A55 every_turn readings of 7.1-7.2: offices cease, invasion armies go back to their start
    for t in range(ts.shape[0]):
        if cp[CP_OFFICE_EVERY_TURN] and ts[t, TS_LOC] == L_ROME and tok[t, TK_KIND] == OFFICE:
            end_office(ts, g, cp, t, L_R)
    for k in range(MAX_WARS):
        if cp[CP_EVENT_UNITS_EVERY_TURN] and ws[k, WS_WAR] >= 0:
            ws[k, WS_AT], ws[k, WS_PASSED] = ws[k, WS_START], -1
    if not last:
        return
    # 7.3 (KOR-A55): « Tous les chefs et unités NR présents sur la carte sont remis dans le récipient NR », Metius
    # among them (9.3.7.1: « il agit comme n'importe quel chef NR »), invasions that stay until eradicated
    # excepted; the others go home (invaders' counters holding cities stay: excess units, Umbrians garrisoning an
    # Etruscan city, an army gone inside walls)
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_CITY and ts[t, TS_FACE] == FACE_NR and tok[t, TK_KIND] != GARRISON and \
                (not invasion_counter(tok, t) or cp[CP_INVADERS_NOT_EXEMPT]):
            put(ts, t, L_NR, 0, FACE_NR)
    umbrians_at_period_end(city, tok, ts, ws, g)
    for k in range(MAX_WARS):
        if ws[k, WS_WAR] >= 0 and (cp[CP_INVADERS_NOT_EXEMPT] or not war[ws[k, WS_WAR], WR_STAYS]):
            if ws[k, WS_AT] == war_home(cp, ws[k, WS_WAR]):
                ws[k, WS_LINGER] = 1  # 9.2.7.3-9.2.7.4: the garrison of their own city stays on the map
            else:
                end_war(tok, war, ts, g, ws, k, False, row)
    # 9.1.8.1: Titus Tatius (Rex Vicarius or not) leaves play at the end of the Romulus era, his troops joining
    # the Rome reserve; offices end with the reign (KOR-A55), « un tribun retourne automatiquement dans le
    # conteneur R, sans gain ni perte de PI » (9.2.7.1: a Tribune goes back into R, no IP won or lost)
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_ROME and tok[t, TK_KIND] == LEADER and tok[t, TK_CODE] == LD_TATIUS:
            end_office(ts, g, cp, t, L_OUT)
        if ts[t, TS_LOC] == L_ROME and tok[t, TK_KIND] == OFFICE:
            end_office(ts, g, cp, t, L_R)
    g[G_VICARIUS] = 0
    # 7.4: the mission
    done = romanized_this_period(city, cs, g, cp)
    need = per[period, PR_MISSION]
    if done > need:
        g[G_VP] += done - need
    if done >= need:
        row[M_MISSION_1 + period - 1] = 1
        row[M_MISSIONS_MET] += 1
    else:
        g[G_FAILED] = 1
        mission_losses(stream, cp, tok, ts, g)


@njit(cache=True, apart=True)
def turn_close(stream, city, cp, tok, per, ts, cs, g, row):
    """A failed mission's tokens (7.4), the end of Tullus' period (9.3.6, 9.3.7.2), 7.5, 7.6 and 8.0."""
    period = g[G_PERIOD]
    last = g[G_TURN] == per[period, PR_LAST]
    if g[G_FAILED]:
        g[G_FAILED] = 0
        mission_failed(stream, cp, tok, per, ts, g, row)
    if last and per[period, PR_TULLUS]:
        # 9.3.6: Alba Longa's war won, 3 random military units NR->R; 9.3.7.2: the Horatii leave play
        if g[G_ALBA_HAPPY]:
            for _ in range(3):
                u = pick(tok, ts, L_NR, -1, -1, False, 0, stream)
                if u >= 0:
                    put(ts, u, L_R, 0, FACE_ROMAN)
            check_containers(ts, g, row)
        h = horatii_token(tok, ts)
        if h >= 0:
            put(ts, h, L_OUT, 0, FACE_ROMAN)
    # 7.5: prestige, and the cities NR armies took this turn
    done = romanized_this_period(city, cs, g, cp)
    need = per[period, PR_MISSION]
    triumph = done >= 2 * need if cp[CP_PRESTIGE_GE] else done > 2 * need
    if triumph and (cp[CP_PRESTIGE_EVERY_TURN] or not g[G_PRESTIGE_DONE]):
        g[G_VP] += 3
        g[G_PRESTIGE_DONE] = 1
    for c in range(cs.shape[0]):
        if cs[c, CS_CAPTURED]:
            g[G_VP] -= cs[c, CS_CAPTURED]
            cs[c, CS_CAPTURED] = 0
    # 7.6: 2 for 2 every turn; at a period's end after the next period's tokens (KOR-A56)
    if not last:
        swap(stream, ts, g, row)
    # 8.0 (KOR-A62 immediate): 20 VP at the end of a period; after turn 24, below 20 VP is a defeat
    if g[G_ENDED] == 0 and last and g[G_VP] >= cp[CP_VICTORY_VP]:
        finish(g, row, 1, END_VP)
    if g[G_ENDED] == 0 and g[G_TURN] >= cp[CP_MAX_TURN]:
        if g[G_VP] >= cp[CP_VICTORY_VP] or not cp[CP_END_BELOW_20_DEFEAT]:
            finish(g, row, 1, END_TURN_24_WIN)
        else:
            finish(g, row, 0, END_TURN_24_LOSS)


@njit(cache=True, apart=True)
def umbrians_join(city, cs, tok, war, ts, ws, g, row):
    """KoR 9.6.7.3: an Umbrian army ending a turn with or next to an Etruscan war army joins it; ending it in an
    Etruscan city not Rome's, its units become that city's garrison (the NR's choice, made whenever it can). Its
    token waits aside for the period's end."""
    for k in range(MAX_WARS):
        if ws[k, WS_WAR] != W_UMBRIAN:
            continue
        at = ws[k, WS_AT]
        join = -1
        for e in range(MAX_WARS):
            if ws[e, WS_WAR] == W_ETRUSCAN and (ws[e, WS_AT] == at or (city[at, CT_ADJACENT] >> ws[e, WS_AT]) & 1):
                join = e
        garrison = city[at, CT_PEOPLE] == ETRUSCANS and not city[at, CT_ENTRY] and not cs[at, CS_ROMAN]
        if join < 0 and not garrison:
            continue
        for t in range(ts.shape[0]):
            if ts[t, TS_LOC] == L_WAR and ts[t, TS_AT] == k and is_kind(tok, t, -1):
                if join >= 0:
                    ts[t, TS_AT] = join
                else:
                    put(ts, t, L_CITY, at, FACE_NR)
        g[G_UMBRIAN_TOKEN] = ws[k, WS_TOKEN] + 1
        ws[k, WS_TOKEN] = -1
        end_war(tok, war, ts, g, ws, k, False, row)


@njit(cache=True)
def umbrians_at_period_end(city, tok, ts, ws, g):
    """KoR 9.6.7.3: the Umbrian War token back into the NR container at the period's end if no Umbrian unit stays
    with the Etruscans (in an Etruscan army or city); else it stays out of the containers."""
    token = g[G_UMBRIAN_TOKEN] - 1
    if token < 0:
        return
    g[G_UMBRIAN_TOKEN] = 0
    for t in range(ts.shape[0]):
        if tok[t, TK_CODE] == W_UMBRIAN + 1 and ((ts[t, TS_LOC] == L_WAR and ws[ts[t, TS_AT], WS_WAR] == W_ETRUSCAN)
                                                 or (ts[t, TS_LOC] == L_CITY and
                                                     city[ts[t, TS_AT], CT_PEOPLE] == ETRUSCANS)):
            return
    put(ts, token, L_NR, 0, FACE_NR)


@njit(cache=True)
def nr_places(tok, ts, ws):
    """The places where NR military units stand (in a city or an invasion army), a bitmask."""
    places = 0
    for t in range(ts.shape[0]):
        p = nr_unit_place(tok, ts, ws, t)
        if p >= 0:
            places |= 1 << p
    return places


@njit(cache=True, inline="always")
def nr_near(city, nr, c):
    """Whether NR military units stand in a place adjacent to ``c`` (7.1), ``nr`` the places they stand in."""
    return (city[c, CT_ADJACENT] & nr & ~(1 << c)) != 0


@njit(cache=True)
def map_conflicts(city, cost, cp, tok, ts, ws, g, dstate, a, nr):
    """KoR 7.1: Roman army ``a`` may not stay next to NR units (the map's adjacency proxy); « le groupe/l'unité R
    doit être déplacé(e) d'un hexagone et retiré(e) dans la direction choisie par le joueur » (the Roman group
    must be moved one hex, withdrawn in the direction the player chooses: DP-K07). It may go to a place with no NR
    units in it or adjacent: one adjacent to it (one hex away), or the nearest (ties: the nearest to Rome),
    DP-K07's default, for the abstract map may have no such place one hex away; none at all: Rome. An army
    besieging Alba Longa (9.3.7.3 d) stays, and so does the army 4.2 keeps in Rome (``must_stay``). Returns True
    when the player is to choose among two or more (the ``allowed``, ``distance`` and ``to_rome`` blocks written
    in ``dstate``); else the army has moved. ``nr``: the places NR units stand in (``nr_places``)."""
    at = g[G_ARMY_AT + a]
    if (g[G_ALBA_SIEGE] and a == 0) or not nr_near(city, nr, at) or must_stay(tok, ts, g, cp, a):
        return False
    rome = cp[CP_ROME]
    best, best_key = rome, 1 << 60
    for c in range(cp[CP_CITIES]):
        free = not (c == at or city[c, CT_ENTRY] or cost[0, at, c] < 0 or (nr >> c) & 1 or nr_near(city, nr, c))
        dstate[kd(c, KD_ALLOWED)] = free
        dstate[kd(c, KD_DISTANCE)], dstate[kd(c, KD_TO_ROME)] = cost[0, at, c], cost[0, c, rome]
        key = cost[0, at, c] * (1 << 30) + cost[0, c, rome]
        if free and key < best_key:
            best, best_key = c, key
    choices = 0
    for c in range(cp[CP_CITIES]):
        if dstate[kd(c, KD_ALLOWED)]:
            near = c == best or cost[0, at, c] == cost[0, at, best] or ((city[at, CT_ADJACENT] >> c) & 1) == 1
            dstate[kd(c, KD_ALLOWED)] = near
            choices += 1 if near else 0
    if choices < 2:
        dstate[D_HEADER:D_UNITS] = 0
        g[G_ARMY_AT + a] = best
        return False
    return True


@njit(cache=True)
def mission_losses(stream, cp, tok, ts, g):
    """7.4 failure (9.x.6; KOR-A54): military units lost to the general reserve, as many as the King's Virtus
    (count_equals_king_virtus) or units whose Virtus adds up to it (total_virtus_value); the player chooses them
    one by one (DP-K06, ``G_LOSS_LEFT``), or, with ``random``, they are drawn at once, the army's first."""
    loss = tok[g[G_COMMANDER], TK_VIRTUS]
    if not cp[CP_LOSS_RANDOM]:
        g[G_LOSS_LEFT] = loss
        return
    while loss > 0:
        t = -1
        for loc in (L_ARMY, L_ROME):
            if t < 0:
                t = pick(tok, ts, loc, -1, -1, False, 0, stream)
        if t < 0:
            break
        put(ts, t, L_RESERVE, 0, FACE_ROMAN)
        loss -= tok[t, TK_VIRTUS] if cp[CP_LOSS_TOTAL_VIRTUS] else 1


@njit(cache=True)
def lose_unit(cp, tok, ts, g, t):
    """DP-K06's answer: unit ``t`` to the general reserve."""
    put(ts, t, L_RESERVE, 0, FACE_ROMAN)
    g[G_LOSS_LEFT] = max(g[G_LOSS_LEFT] - (tok[t, TK_VIRTUS] if cp[CP_LOSS_TOTAL_VIRTUS] else 1), 0)


@njit(cache=True, apart=True)
def mission_failed(stream, cp, tok, per, ts, g, row):
    """7.4 failure (9.x.6), after its units are lost (``mission_losses``): the period's tokens R->NR."""
    period = g[G_PERIOD]
    if per[period, PR_FAIL_UNITS_R_NR]:
        for _ in range(per[period, PR_FAIL_TOKENS]):
            t = pick(tok, ts, L_R, -1, -1, False, 0, stream)
            if t >= 0:
                put(ts, t, L_NR, 0, FACE_NR)
        check_containers(ts, g, row)
    else:
        move_random(ts, L_R, L_NR, per[period, PR_FAIL_TOKENS], stream, g, row)


# ============================================================================================ the turn (5.2)
@njit(cache=True, apart=True)
def allowance(stream, cp, tok, per, ts, g):
    """5.3: the King's (or the Interrex') Virtus + 1d6; Tullus Hostilius: Virtus + floor(1d6 / 2) + the Virtus of
    up to two other Roman leaders or offices in play (KOR-A52: the two highest); the Bad Omen drawn this turn
    takes one (KOR-A58 once_in_draw_turn; every_turn while it lies on the map); End of Actions on a Bad Omen, all."""
    period = g[G_PERIOD]
    virtus = tok[g[G_COMMANDER], TK_VIRTUS]
    if per[period, PR_TULLUS]:
        n = virtus + rng.d6(stream) // 2
        first, second = 0, 0
        for t in range(ts.shape[0]):
            if ts[t, TS_LOC] == L_ROME and t != g[G_COMMANDER] and \
                    (tok[t, TK_KIND] == OFFICE or tok[t, TK_KIND] == LEADER):
                v = tok[t, TK_VIRTUS]
                if v > first:
                    first, second = v, first
                elif v > second:
                    second = v
        n += first + second
    else:
        n = virtus + rng.d6(stream)
    drawn_now = g[G_BAD_OMEN_TURN] == g[G_TURN] and (g[G_OMEN] == OMEN_BAD or cp[CP_BAD_OMEN_TO_R])
    if drawn_now or (g[G_OMEN] == OMEN_BAD and cp[CP_BAD_OMEN_EVERY_TURN]):
        n -= 1
    if g[G_STOP_ACTIONS]:
        n = 0
    g[G_ACTIONS] = max(n, 0)


@njit(cache=True)
def falerii_not_attacked(stream, tok, ts, g):
    """KoR 9.2.6: Falerii not attacked after the Falisci attacked in Numa's first three turns, one random military
    unit goes R->NR at the start of the seventh turn."""
    g[G_FALERII_DUE] = 0
    u = pick(tok, ts, L_R, -1, -1, False, 0, stream)
    if u >= 0:
        put(ts, u, L_NR, 0, FACE_NR)


@njit(cache=True, apart=True)
def turn_start(stream, cp, city, cost, tok, per, war, ts, g, cs, ws, row):
    """Step 1 of 5.2 (the period's start on its first turn), and what comes before the draws of step 2
    (``campaign_advance`` draws them one by one: a Roman garrison drawn asks DP-K05 before the next draw)."""
    period = g[G_PERIOD]
    if g[G_TURN] == per[period, PR_FIRST] and period > 1:
        start_period(stream, cp, city, tok, per, ts, g, cs, ws, row)
    for t in range(ts.shape[0]):
        if ts[t, TS_LOC] == L_TRACK and ts[t, TS_AT] <= g[G_TURN]:
            put(ts, t, L_R if cp[CP_OFFICE_TO_R] else L_ROME, 0, FACE_ROMAN)  # KOR-A49
            if not cp[CP_OFFICE_TO_R]:
                raise_army(g, cp, t)
    if g[G_FALERII_DUE] and g[G_TURN] == cp[CP_FALERII_LAST_TURN] + 1:
        falerii_not_attacked(stream, tok, ts, g)
    g[G_WAR_PEOPLE] = -1
    g[G_MOVED] = 0
    for i in range(G_SENATE_SIZE):
        g[G_SENATE + i] = 0
    g[G_STOP_ACTIONS] = 0
    g[G_EXTRA_R_DRAWS] = 0
    g[G_ACTING], g[G_SWITCHED] = 0, 0  # each turn's actions begin with the royal army
    g[G_DRAWS] = per[period, PR_R_DRAWS]


@njit(cache=True)
def next_draw(stream, cp, city, cost, tok, per, war, ts, g, cs, ws, codes, params, slots, row):
    """Step 2 of 5.2, one draw: the period's draws from R, then those events add (9.1.8.1), then those from NR.
    Returns False when the draws are over."""
    if g[G_STAGE] == ST_DRAW_R:
        if g[G_DRAWS] > 0:
            g[G_DRAWS] -= 1
            draw(stream, cp, city, cost, tok, war, ts, g, cs, ws, codes, params, slots, row, L_R)
            return True
        if g[G_EXTRA_R_DRAWS] > 0:
            g[G_EXTRA_R_DRAWS] -= 1
            draw(stream, cp, city, cost, tok, war, ts, g, cs, ws, codes, params, slots, row, L_R)
            return True
        g[G_STAGE], g[G_DRAWS] = ST_DRAW_NR, per[g[G_PERIOD], PR_NR_DRAWS]
    if g[G_DRAWS] > 0:
        g[G_DRAWS] -= 1
        draw(stream, cp, city, cost, tok, war, ts, g, cs, ws, codes, params, slots, row, L_NR)
        return True
    if g[G_OSTIA] > 0:
        put(ts, g[G_OSTIA] - 1, L_R, 0, FACE_ROMAN)  # 9.4.7.1: back into R after all draws
        g[G_OSTIA] = 0
    return False


@njit(cache=True)
def campaign_init(stream, cp, city, cost, tok, per, war, pv0, stab, ts, g, cs, ws, dstate, pv, sst, bu,
                  bl, bstat, bg, bst, brow, prow, wbuf, row):
    campaign_setup(stream, cp, city, tok, per, ts, g, cs, ws, row)
    g[G_STAGE] = ST_PERIOD


@njit(cache=True, apart=True)
def campaign_advance(stream, codes, params, slots, offset, cp, city, cost, tok, per, war, pv0, stab, ts, g, cs, ws,
                     dstate, pv, sst, bu, bl, bstat, bg, bst, brow, prow, wbuf, row):
    """The turn sequence of 5.2 from where the campaign stands to the next Roman decision or its end: DP-K05 after
    a draw that gives Rome a garrison, DP-K02 (the army formed in Rome) before the march on Alba Longa (9.3.7.3 a)
    and, with DP-K01 (the next action), before each action, DP-K07 and DP-K06 at the end of the turn.

    Dice in this order each turn: the period's start (Inauguratio, container preparation, swap), the draws one by
    one (with each token's own dice), the action allowance, each Roman action's procedure (pillage's reactions at
    once), the hostile reactions, the invasion armies' marches, the end-of-turn swap.
    """
    while True:
        if g[G_ENDED]:
            score(cp, city, tok, ts, cs, g, row)
            return END
        if g[G_ALBA_MARCH]:
            # 9.3.7.3 a, the Alba Longa war drawn from NR (in the draws or a revolt, 6.2): the royal army in Rome
            # is formed by the player (DP-K02), then marches; the draw ends with the march
            g[G_ACTING] = 0
            if g[G_FORMING] < KEPT and army_to_form(city, cost, tok, ts, cs, ws, g, cp, per, dstate):
                return P_ARMY
            g[G_ALBA_MARCH], g[G_FORMING] = 0, NOT_FORMED
            alba_march(stream, city, cost, cp, tok, ts, cs, g, codes, params, slots, row)
            prepared_back(ts, L_NR)
            continue
        stage = g[G_STAGE]
        if stage == ST_PERIOD:
            turn_start(stream, cp, city, cost, tok, per, war, ts, g, cs, ws, row)
            g[G_STAGE] = ST_DRAW_R
        elif stage == ST_DRAW_R or stage == ST_DRAW_NR:
            if g[G_DRAWN]:
                if roman_garrison(city, cost, tok, ts, cs, ws, g, cp, per, dstate):
                    return P_GARRISON
                continue
            if g[G_EXCESS] and greek_excess(city, cost, cp, tok, ts, cs, ws, g, per, dstate):
                return P_EXCESS
            if not next_draw(stream, cp, city, cost, tok, per, war, ts, g, cs, ws, codes, params, slots, row):
                g[G_STAGE] = ST_ALLOWANCE
        elif stage == ST_ALLOWANCE:
            alba_siege_again(stream, city, cost, cp, tok, ts, cs, g, codes, params, slots, row)
            allowance(stream, cp, tok, per, ts, g)
            g[G_STAGE] = ST_ACTIONS
        elif g[G_EXCESS] and greek_excess(city, cost, cp, tok, ts, cs, ws, g, per, dstate):
            return P_EXCESS  # a Greek war drawn in a revolt (6.2)
        elif stage == ST_ACTIONS:
            if g[G_PURSUIT]:
                # DP-B16 (5.7.14) after the battle, before its reactions come (the advance is the same action)
                if g[G_ADVANCE_ASKED]:
                    err = advance(stream, city, cost, cp, tok, per, war, pv0, stab, codes, params, slots, ts, g, cs,
                                  ws, pv, sst, bu, bl, bstat, bg, bst, brow, prow, wbuf, row)
                    if err:
                        return err_end(g, err)
                elif post_advance(city, cost, tok, ts, cs, ws, g, cp, per, dstate):
                    g[G_ADVANCE_ASKED] = 1
                    return P_ADVANCE
                else:
                    g[G_PURSUIT] = g[G_WITHDREW] = 0
                continue
            if g[G_IMMEDIATE] > 0:
                g[G_IMMEDIATE] -= 1
                err = reaction(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, sst, bu,
                               bl, bstat, bg, bst, brow, prow, wbuf, row)
                if err:
                    return err_end(g, err)
                continue
            if g[G_ASKED]:
                g[G_ASKED], g[G_FORMING] = 0, NOT_FORMED
                err = roman_action(stream, city, cost, cp, tok, per, war, pv0, stab, codes, params, slots, ts, g, cs,
                                   ws, pv, sst, bu, bl, bstat, bg, bst, brow, prow, wbuf, row, g[G_ACTION])
                if err:
                    return err_end(g, err)
                continue
            if g[G_ACTIONS] <= 0:
                g[G_STAGE] = ST_REACTIONS
                ws[:, WS_ROUTED] = 0  # a rout protects for the action phase it happened in (5.7.13)
                continue
            if g[G_FORMING] < KEPT and g[G_ARMY_AT + g[G_ACTING]] == cp[CP_ROME] and \
                    army_to_form(city, cost, tok, ts, cs, ws, g, cp, per, dstate):
                return P_ARMY
            if g[G_FORMING] != KEPT:
                post_action(city, cost, tok, ts, cs, ws, g, cp, per, dstate)
            g[G_ASKED] = 1
            return P_ACTION
        elif stage == ST_REACTIONS:
            if g[G_REACTIONS] > 0:
                g[G_REACTIONS] -= 1
                err = reaction(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, sst, bu,
                               bl, bstat, bg, bst, brow, prow, wbuf, row)
                if err:
                    return err_end(g, err)
            else:
                g[G_STAGE] = ST_MARCH
        elif stage == ST_MARCH:
            err = wars_march(stream, city, cost, cp, tok, ts, cs, ws, g, war, pv0, codes, params, slots, pv, bu, bl,
                             bstat, bg, bst, brow, wbuf, row)
            if err:
                return err_end(g, err)
            g[G_STAGE] = ST_END_TURN
        else:
            point = end_of_turn(stream, city, cost, cp, tok, per, war, ts, cs, ws, g, row, dstate)
            if point >= 0:
                return point
            if g[G_ENDED]:
                continue
            g[G_TURN] += 1
            if g[G_TURN] > per[g[G_PERIOD], PR_LAST]:
                g[G_PERIOD] += 1
            g[G_STAGE] = ST_PERIOD


@njit(cache=True)
def err_end(g, err):
    """A procedure's policy error ends the campaign; the kernel reports it (``campaign_play``)."""
    g[G_ERROR] = err
    g[G_ENDED] = 1
    return END


@njit(cache=True)
def diarchy(tok, ts, g, row):
    """KoR 9.1.8.2 (DP-K04): 3 IP, Titus Tatius Rex Vicarius « en lui assignant des troupes R (il a la même capacité de
    commandement que Romulus). Dans ce cas, les troupes sabines qui sont entrées dans Rome sont replacées dans le
    récipient NR » (given Roman troops, commanding as Romulus does; the Sabine troops that came into Rome go back
    into the NR container). His army forms from the Rome reserve when it next acts (DP-K02)."""
    for a in range(1, MAX_ARMIES):
        if leader_kind(tok, g, a) == LEAD_TATIUS:
            for t in range(ts.shape[0]):
                if in_army(ts, t, a):
                    put(ts, t, L_NR, 0, FACE_NR)
    g[G_VICARIUS] = 1
    row[M_DIARCHY] = 1
    add_ip(g, row, -DIARCHY_IP)


@njit(cache=True, apart=True)
def roman_action(stream, city, cost, cp, tok, per, war, pv0, stab, codes, params, slots, ts, g, cs, ws, pv, sst, bu, bl,
                 bstat, bg, bst, brow, prow, wbuf, row, action):
    """DP-K01's action taken (5.0): each costs one of the allowance (KOR-A1 separate); a war action asks the
    Senate first (refused: nothing is spent). Choosing the army for the next action and the Diarchy (DP-K04) cost
    none. Returns 0 or a procedure's policy error code."""
    n = cp[CP_CITIES]
    a = g[G_ACTING]
    at = g[G_ARMY_AT + a]
    if action == ACT_END:
        g[G_ACTIONS] = 0
        return 0
    if action > n + N_OPS:
        chosen = action - 1 - n - N_OPS
        if chosen < MAX_ARMIES:
            g[G_ACTING], g[G_SWITCHED] = chosen, 1
        else:
            diarchy(tok, ts, g, row)
        return 0
    g[G_SWITCHED] = 0
    if action <= n:
        c = action - 1
        g[G_ARMY_AT + a] = c
        row[M_ACTIONS] += 1
        road = cost[held_homes(cp, tok, ts, ws), at, c]
        if road < 0 or road > army_mp(tok, ts, a):
            # 5.8, 9.4.7.1: by sea from Ostia (legal checked the fleet, the port and the IP); "L'embarquement et le
            # mouvement naval sont automatiques, mais le joueur consomme une action", the transport costs 2 IP, and
            # "il n'est pas possible de débarquer et d'effectuer d'autres actions": the landing ends the action,
            # after the enemy ships in the port may be intercepted (port_interception)
            for t in range(ts.shape[0]):
                if ts[t, TS_LOC] == L_FLEET and ts[t, TS_AT] == at:
                    ts[t, TS_AT] = c
            add_ip(g, row, -2)
            row[M_SEA_MOVES] += 1
            g[G_ACTIONS] -= 1
            g[G_MOVED] = 0
            err = port_interception(stream, city, cp, tok, ts, g, cs, ws, pv0, codes, params, slots, pv, row, at, c)
            # the army landed, the ships go back to their port, Ostia (5.8 « Les flottes Romaines extraites du
            # récipient sont placées à Ostia »), where the next army embarks
            for t in range(ts.shape[0]):
                if ts[t, TS_LOC] == L_FLEET:
                    ts[t, TS_AT] = cp[CP_OSTIA]
            return err
        # 5.2: along roads and tracks, within the allowance (checked by legal)
        # KOR-A1: each move is an action (separate); combined, a move and the operation after it are one, paid
        # by the operation, a move followed by another move by that next move
        if not cp[CP_ACTIONS_COMBINED] or g[G_MOVED]:
            g[G_ACTIONS] -= 1
        g[G_MOVED] = cp[CP_ACTIONS_COMBINED]
        return 0
    op = action - 1 - n
    if op != OP_BATTLE and not declare_war(stream, per, g, cp, city[at, CT_PEOPLE]):
        return 0
    g[G_ACTIONS] -= 1
    g[G_MOVED] = 0
    row[M_ACTIONS] += 1
    if at == cp[CP_FALERII]:
        g[G_FALERII_DUE] = 0  # 9.2.6: "Rome doit attaquer les Falerii, quel que soit le résultat"
    reactions, immediate = g[G_REACTIONS], g[G_IMMEDIATE]
    err = operation(stream, city, cost, cp, tok, war, pv0, stab, codes, params, slots, ts, g, cs, ws, pv, sst, bu, bl,
                    bstat, bg, bst, brow, prow, wbuf, row, at, op)
    react_in_time(cp, g, reactions, immediate)
    return err


@njit(cache=True)
def react_in_time(cp, g, reactions, immediate):
    """KOR-A2: when the hostile reactions an action brought (those counted above ``reactions`` and ``immediate``)
    come: literal, pillage's at once (5.4), the others at the end of the action phase (6.0); or all at one of
    those times."""
    timing = cp[CP_REACTION_TIMING]
    if timing != REACT_LITERAL:
        caused = g[G_REACTIONS] - reactions + g[G_IMMEDIATE] - immediate
        g[G_REACTIONS], g[G_IMMEDIATE] = reactions, immediate
        g[G_IMMEDIATE if timing == REACT_IMMEDIATE else G_REACTIONS] += caused


@njit(cache=True, apart=True)
def post_advance(city, cost, tok, ts, cs, ws, g, cp, per, dstate):
    """DP-B16 (5.7.14): whether the acting army, victorious over invasion army ``G_PURSUIT - 1``, may pursue it
    (a: it routed here, it has units left, and the army has the 3 units a battle asks, KOR-A14) or besiege the
    enemy city where it stands (b: the siege DP-K01 would allow there); if so its state is posted."""
    k = g[G_PURSUIT] - 1
    a = g[G_ACTING]
    at = g[G_ARMY_AT + a]
    inf, cav = army_counts(tok, ts, a)
    routed = war_units(tok, ts, k) if ws[k, WS_WAR] >= 0 and ws[k, WS_AT] == at and ws[k, WS_ROUTED] else 0
    pursue = routed > 0 and inf + cav >= 3
    ops = np.zeros(N_OPS, np.int64)
    city_ops(city, tok, ts, cs, ws, g, cp, per, at, inf, cav, ops)
    if not pursue and not ops[OP_SIEGE]:
        return False
    post_action(city, cost, tok, ts, cs, ws, g, cp, per, dstate)
    dstate[D_PURSUE], dstate[D_BESIEGE], dstate[D_ROUTED_UNITS] = pursue, ops[OP_SIEGE], routed
    return True


@njit(cache=True, apart=True)
def advance(stream, city, cost, cp, tok, per, war, pv0, stab, codes, params, slots, ts, g, cs, ws, pv, sst, bu, bl,
            bstat, bg, bst, brow, prow, wbuf, row):
    """DP-B16's answer (5.7.14), « Il ne s'agit pas d'une nouvelle action mais d'une continuation de l'action
    victorieuse » (not a new action, the victorious one continued): no action spent; (a) a new battle on the routed
    army (KOR-A39 for its reactions), after which DP-B16 may be asked again; (b) a siege of the city here, the
    Senate asked as for any siege (a war on its people, 9.3.4)."""
    k, choice, withdrew = g[G_PURSUIT] - 1, g[G_ADVANCE], g[G_WITHDREW]
    g[G_PURSUIT] = g[G_ADVANCE_ASKED] = g[G_WITHDREW] = 0
    if choice == ADVANCE_NONE:
        return 0
    row[M_ADVANCES] += 1 - withdrew
    at = g[G_ARMY_AT + g[G_ACTING]]
    reactions, immediate = g[G_REACTIONS], g[G_IMMEDIATE]
    err = 0
    if choice == ADVANCE_PURSUE:
        err = battle_action(stream, city, cost, cp, tok, ts, cs, g, war, ws, pv0, codes, params, slots, pv, bu, bl,
                            bstat, bg, bst, brow, wbuf, row, k, 2)
    elif declare_war(stream, per, g, cp, city[at, CT_PEOPLE]):
        if at == cp[CP_FALERII]:
            g[G_FALERII_DUE] = 0
        err = army_siege(stream, city, cp, tok, ts, cs, ws, g, war, pv0, stab, codes, params, slots, pv, sst, bu, bl,
                         bstat, bg, bst, brow, prow, wbuf, row, at)
    react_in_time(cp, g, reactions, immediate)
    return err


@njit(cache=True, apart=True)
def operation(stream, city, cost, cp, tok, war, pv0, stab, codes, params, slots, ts, g, cs, ws, pv, sst, bu, bl, bstat,
              bg, bst, brow, prow, wbuf, row, at, op):
    """DP-K01's operation ``op`` where the acting army stands, by its procedure."""
    if op == OP_SIEGE:
        return army_siege(stream, city, cp, tok, ts, cs, ws, g, war, pv0, stab, codes, params, slots, pv, sst, bu, bl,
                          bstat, bg, bst, brow, prow, wbuf, row, at)
    if op == OP_PILLAGE:
        return roman_pillage(stream, city, cp, tok, ts, cs, g, pv0, codes, params, slots, pv, sst, prow, row, at)
    if op == OP_CORRUPTION:
        return roman_corruption(stream, city, cp, tok, ts, cs, g, pv0, codes, params, slots, pv, sst, prow, row, at)
    if op == OP_INTIMIDATION:
        return roman_intimidation(stream, city, cost, cp, tok, ts, cs, g, pv0, codes, params, slots, pv, sst, prow, row,
                                  at)
    for k in range(MAX_WARS):
        if ws[k, WS_WAR] >= 0 and ws[k, WS_AT] == at and attackable(tok, ts, ws, cp, k):
            return battle_action(stream, city, cost, cp, tok, ts, cs, g, war, ws, pv0, codes, params, slots, pv, bu,
                                 bl, bstat, bg, bst, brow, wbuf, row, k, 1)
    return 0


@njit(cache=True, apart=True)
def battle_action(stream, city, cost, cp, tok, ts, cs, g, war, ws, pv0, codes, params, slots, pv, bu, bl, bstat, bg,
                  bst, brow, wbuf, row, k, roman_attacks):
    """KoR 5.7: the acting army attacks invasion army ``k`` where it stands, as its action (``roman_attacks`` 1)
    or pursuing it (2: 5.7.14 a, the same action). Standing in a city of its people, the army withdraws inside the
    walls and the battle becomes a siege (5.7.1, ``withdraw_inside_walls``). Won with no Triumph claimed, DP-B16
    is asked next (``G_PURSUIT``)."""
    w = ws[k, WS_WAR]
    if friendly_city(city, cs, ws[k, WS_AT], war[w, WR_PEOPLE]):
        withdraw_inside_walls(cp, tok, ts, g, war, ws, row, k)
        return 0
    err, won = fight(stream, city, cp, tok, ts, g, war, ws, pv0, codes, params, slots, pv, bu, bl, bstat, bg, bst, brow,
                     wbuf, row, g[G_ACTING], L_WAR, k, ws[k, WS_LEADER], war[w, WR_PEOPLE], war[w, WR_INVADER],
                     roman_attacks, _battle.MODE_BATTLE, True)
    after_battle(city, cost, cp, tok, ts, cs, g, war, ws, brow, row, k)
    if won and not brow[_battle.TRIUMPH]:
        # 5.7.14: « Les unités victorieuses au combat, commandées par un chef, peuvent (cf règles du Triomphe) »
        # advance after the beaten army or besiege a city here: the player's choice, before anything else happens
        g[G_PURSUIT] = 1 + k
    return err


@njit(cache=True)
def withdraw_inside_walls(cp, tok, ts, g, war, ws, row, k):
    """KoR 5.7.1, « Une armée NR se replie toujours dans les murs d'une Cité amie (étoile de la même couleur) s'il
    y en a une dans l'hexagone. Une telle opération transforme une bataille en siège » (an NR army always
    withdraws inside the walls of a friendly city, same star colour, when there is one in the hex; this turns a
    battle into a siege): invasion army ``k``, attacked in a city of its people Rome does not hold, goes inside
    (``into_walls``) with « Réactions Hostiles : 1 action hostile » (KOR-A15 preventive_withdrawal); the Roman action
    goes on as DP-B16's siege of the city (``advance``, the Senate asked as for any siege, 9.3.4): at once (KOR-A16
    forced), or if the player chooses it there (roman_option). Not in the NR's own attacks (a relief, an ambush, a
    march on a Roman army): the rule is the attacked army's."""
    into_walls(tok, war, ts, g, ws, k, row)
    row[M_WITHDRAWALS] += 1
    g[G_REACTIONS] += cp[CP_WITHDRAWAL_REACTIONS]
    g[G_PURSUIT], g[G_WITHDREW] = 1 + k, 1
    if not cp[CP_WITHDRAWAL_ASKS]:
        g[G_ADVANCE_ASKED], g[G_ADVANCE] = 1, ADVANCE_BESIEGE


@njit(cache=True)
def score(cp, city, tok, ts, cs, g, row):
    """The outcome row of a finished campaign (``Campaign.metrics``)."""
    row[M_WIN] = g[G_WON]
    row[M_END + g[G_END_REASON] - 1] = 1
    row[M_VP], row[M_IP], row[M_TURN] = g[G_VP], g[G_IP], g[G_TURN]
    n = 0
    for c in range(cs.shape[0]):
        if cs[c, CS_ROMAN] and c != cp[CP_ROME]:
            n += 1
    row[M_ROMANIZED] = n


@njit(cache=True)
def decision_legal(point, state, action):
    """Whether the rules allow ``action`` at decision ``point`` whose state is ``state``."""
    if point == P_ACTION:
        return action_legal(state, action)
    if point == P_ARMY:
        return army_legal(state, action)
    if point == P_LOSS:
        t = action - 1
        at = state[ku(t, KU_AT)] if 0 <= t < state[D_COUNTERS] else U_ELSEWHERE
        return at == U_ARMY or at == U_ROME or at == U_OTHER_ARMY
    if point == P_ADVANCE:
        return action == ADVANCE_NONE or (action == ADVANCE_PURSUE and state[D_PURSUE] == 1) or \
            (action == ADVANCE_BESIEGE and state[D_BESIEGE] == 1)
    return 0 <= action < state[K_CITIES] and state[kd(action, KD_ALLOWED)] == 1


@njit(cache=True)
def decision_width(point, state):
    """The candidate actions of decision ``point`` (the legal ones are among 0 .. width - 1)."""
    if point == P_ACTION:
        return 1 + state[K_CITIES] + N_OPS + MAX_ARMIES + 1
    if point == P_ARMY or point == P_LOSS:
        return 1 + state[D_COUNTERS]
    if point == P_ADVANCE:
        return 3
    return state[K_CITIES]


@njit(cache=True)
def campaign_legal(point, action, cp, city, cost, tok, per, war, pv0, stab, ts, g, cs, ws, dstate, pv, sst,
                   bu, bl, bstat, bg, bst, brow, prow, wbuf, row):
    return decision_legal(point, dstate, action)


@njit(cache=True)
def campaign_apply(point, action, cp, city, cost, tok, per, war, pv0, stab, ts, g, cs, ws, dstate, pv, sst,
                   bu, bl, bstat, bg, bst, brow, prow, wbuf, row):
    if point == P_ACTION:
        g[G_ACTION] = action
    elif point == P_ARMY:
        army_apply(ts, g, dstate, action)
    elif point == P_LOSS:
        lose_unit(cp, tok, ts, g, action - 1)
    elif point == P_ADVANCE:
        g[G_ADVANCE] = action
        dstate[D_PURSUE:D_COUNTERS] = 0
    else:
        if point == P_GARRISON:
            put(ts, g[G_DRAWN] - 1, L_CITY, action, FACE_ROMAN)
            g[G_DRAWN] = 0
        elif point == P_RETREAT:
            g[G_ARMY_AT + g[G_ACTING]] = action
        else:
            place_excess(ts, g, action)
        dstate[D_HEADER:D_UNITS] = 0


@njit(cache=True)
def campaign_decide(offset, point, codes, params, slots, stream, cp, city, cost, tok, per, war, pv0, stab, ts, g, cs,
                    ws, dstate, pv, sst, bu, bl, bstat, bg, bst, brow, prow, wbuf, row):
    i = offset + point
    if point == P_ACTION:
        return decide_action(codes[i], params[i], dstate, stream, slots, i)
    if point == P_ARMY:
        return decide_army(codes[i], params[i], dstate, stream, slots, i)
    if point == P_GARRISON:
        return decide_garrison(codes[i], params[i], dstate, stream, slots, i)
    if point == P_LOSS:
        return decide_loss(codes[i], params[i], dstate, stream, slots, i)
    if point == P_RETREAT:
        return decide_retreat(codes[i], params[i], dstate, stream, slots, i)
    if point == P_ADVANCE:
        return decide_advance(codes[i], params[i], dstate, stream, slots, i)
    return decide_excess(codes[i], params[i], dstate, stream, slots, i)


# ==================================================================================== DP-K01's built-ins
ACTION_DEFAULT, ACTION_RANDOM, ACTION_PASSIVE = range(3)
_ARMY_FIELDS = ("army_may", "army_place", "army_inf", "army_cav", "army_virtus", "army_leader")
_PLACE_FIELDS = ("roman", "nr_garrison", "nr_units", "nr_strongest", "nr_leader", "cost", "people", "invaders",
                 "war_allowed", "entry", "by_sea")


def _action_candidates(state):
    return range(1 + int(state[K_CITIES]) + N_OPS + MAX_ARMIES + 1)


ACTION = DecisionPoint(
    "action", "DP-K01",
    "The Roman player's next action of the turn (5.0; each costs one of the allowance, KOR-A1 separate) and with "
    "which army: end the actions, move the acting army to a place within its movement allowance (5.2: 14 MP with "
    "infantry, 20 without, road hexes half a point) or sail it from the Roman fleet's port to a port within 25 sea "
    "hexes (5.8, 9.4.7.1: three units a ship, 2 IP, the landing ends the action; by_sea[c] = 1), or an operation "
    "where it stands: siege (5.5), pillage or the undefended city (5.4, 5.4.1), corruption (5.6), intimidation "
    "(5.3), battle against an invasion army (5.7). A war on a Curia people asks the Senate first from period 3 "
    "(9.3.4); a refusal spends nothing and bars that people this turn. The royal army acts first each turn; "
    "choosing another army for the next action (4.2, 9.2.7.1: an office drawn from R raises one from the Rome "
    "reserve within its caps, table 5.1; Titus Tatius leads his Sabines, 9.1.8.1) costs no action, once an action. "
    "With a Magister in play the royal army or a Magister's stays in Rome (4.2: movement_half_points 0). DP-K04, "
    "the Diarchy (9.1.8.2), costs 3 IP and no action.",
    state=("turn", "period", "ip", "vp", "actions_left", "army_at", "army_infantry", "army_cavalry", "king_virtus",
           "r_container", "nr_container", "romanized_this_period", "mission", "places", "period_last_turn",
           "movement_half_points", "rome", "acting_army", "may_switch", "may_diarchy", "infantry_cap",
           "cavalry_cap", "rome_reserve", "can_siege", "can_pillage", "can_corrupt", "can_intimidate",
           "can_battle") + tuple(f"{name}[{a}]" for name in _ARMY_FIELDS for a in range(MAX_ARMIES)) +
    tuple(f"{name}[{c}]" for name in _PLACE_FIELDS for c in range(MAX_CITIES)),
    actions="0 = end the actions; 1 + c = move to place c (c < places; cost[c] <= movement_half_points, the cheapest "
            "path around a Falerii or Capena held by its war's army, 9.2.7.3, DP-K03; or by sea when by_sea[c] = 1); "
            "1 + places + op = op where the army stands: 0 siege, 1 pillage, 2 corruption, 3 intimidation, 4 battle "
            "(legal when can_<op> is 1); 1 + places + 5 + a = the next action with army a (may_switch and "
            "army_may[a]); 1 + places + 5 + 8 = the Diarchy (may_diarchy). army_leader[a]: 0 none, 1 the King (or "
            "Interrex), 2 Magister Populi, 3 Magister Equitum, 4 Tribunus Populi, 5 Tribunus Celerum, 6 Titus "
            "Tatius, 7 Tatius Rex Vicarius",
    builtins={"sensible": Builtin(ACTION_DEFAULT, "(diarchy) the Diarchy when the IP above reserve pay for it; fight "
                                  "an invasion army where the army stands, or (defend) march on one within reach; "
                                  "else the operation here with the best chance of taking the city if it reaches "
                                  "threshold, sieges first; else move toward the best such city (two actions "
                                  "left); a thin army goes back to Rome; else (offices) the next army with units "
                                  "takes over",
                                  params=("threshold", "reserve", "defend", "offices", "diarchy"),
                                  defaults=(0.5, 3.0, 1.0, 0.0, 0.0)),
              "random": Builtin(ACTION_RANDOM, "uniform among the legal actions"),
              "passive": Builtin(ACTION_PASSIVE, "end the actions at once (the rules' own opponent plays alone)")},
    default="sensible", candidates=_action_candidates)


# Each point's decide asks the user's function (``call``), else its built-in (``builtin_*``), which takes no slots:
# compiled once, for every variant of the kernel, a first user bot's variant loads it from the cache
@njit(cache=True)
def decide_action(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    return builtin_action(code, params, state, stream)


@njit(cache=True)
def builtin_action(code, params, state, stream):
    if code == ACTION_RANDOM:
        return random_legal(P_ACTION, state, stream)
    if code == ACTION_PASSIVE:
        return ACT_END
    return sensible_action(state, params)


@njit(cache=True)
def random_legal(point, state, stream):
    """Uniform among the legal actions of decision ``point``."""
    width = decision_width(point, state)
    legal = 0
    for a in range(width):
        if decision_legal(point, state, a):
            legal += 1
    k = rng.dn(stream, legal)
    for a in range(width):
        if decision_legal(point, state, a):
            k -= 1
            if k == 0:
                return a
    return 0


@njit(cache=True, apart=True)
def take_chance(state, c, ip, reserve):
    """The ``sensible`` bot's best operation on place ``c`` and its chance of taking the city: ``(chance, op)``,
    or ``(0, -1)``. The siege first (it costs no IP and wins IP): roll a (5.5 a), else roll b (either criterion)
    while at most 2 counters defend (the King takes 2). Without a siege worth it, the pillage (5.4: the die beats
    the strongest of at most 2 counters; 5.4.1: an undefended city is occupied) or the corruption (5.6: the die
    beats the garrison), with the IP above the reserve."""
    if state[kc(c, KC_ROMAN)] or state[kc(c, KC_ENTRY)] or state[kc(c, KC_PEOPLE)] == ROMAN or \
            not state[kc(c, KC_ALLOWED)]:
        return 0.0, -1
    g, u, lead = state[kc(c, KC_GARRISON)], state[kc(c, KC_UNITS)], state[kc(c, KC_LEADER)]
    if g == 0 and u == 0 and lead == 0:
        return (1.0, OP_PILLAGE) if ip - 1 >= reserve else (0.0, -1)
    siege = 0.0
    if g > 0 or lead > 0:
        target = lead if lead > 0 else g
        pa = max(0, 6 - 2 * target) / 6.0
        fb = max(0, 5 - 2 * g) if g > 0 else 0
        if lead > 0:
            fb = max(fb, 6 - lead)
        counters = u + (1 if g > 0 else 0) + (1 if lead > 0 else 0)
        siege = pa + (1 - pa) * (fb / 6.0 if counters <= 2 else 0.0)
    best, op = siege, OP_SIEGE if siege > 0 else -1
    if lead == 0 and ip - 1 >= reserve and u + (1 if g > 0 else 0) <= 2:
        p = max(0, 6 - max(g, state[kc(c, KC_STRONGEST)])) / 6.0
        if p > best + 0.25:   # a pillage risks 3 IP and brings 2 reactions: only for a clearly better chance
            best, op = p, OP_PILLAGE
    if lead == 0 and g > 0 and ip - 2 >= reserve:
        p = max(0, 6 - g) / 6.0
        if p > best + 0.25:
            best, op = p, OP_CORRUPTION
    return best, op


@njit(cache=True)
def affordable_move(state, c, reserve):
    """A legal move to ``c`` the ``sensible`` bot pays for: by road, or by sea (2 IP) with the IP above its
    reserve."""
    return action_legal(state, 1 + c) and (state[kc(c, KC_COST)] <= state[K_MP] or state[K_IP] - 2 >= reserve)


@njit(cache=True, apart=True)
def sensible_action(state, params):
    """The ``sensible`` built-in, a parametric family (``threshold``: the least chance of taking a city worth an
    action; ``reserve``: the IP kept; ``defend``: 1 to march on an invasion army within reach first, 0 to leave
    them be; ``offices``: 1 to act with the other armies too, 0 with the royal army alone; ``diarchy``: 1 to make
    Titus Tatius Rex Vicarius when the IP above the reserve pay for it): the Diarchy when wanted; fight an
    invasion army where the army stands; else, defending, move onto one within reach; else the best operation
    here if its chance reaches the threshold; else, with two actions left, move toward the place with the best
    chance (the nearest among equals; a voyage, 2 IP, only with the IP above the reserve); an army with fewer
    than 2 units goes back to Rome for the reserve; else the next army (by slot) with units or a reserve to form
    from takes over, and when none does, end the actions."""
    threshold, reserve, defend, offices, want_diarchy = params[0], params[1], params[2], params[3], params[4]
    n, at = state[K_CITIES], state[K_ARMY_AT]
    ip, acts = state[K_IP], state[K_ACTIONS]
    units = state[K_INF] + state[K_CAV]
    if state[K_DIARCHY] and want_diarchy > 0 and ip - DIARCHY_IP >= reserve:
        return 1 + n + N_OPS + MAX_ARMIES
    if state[K_OPS + OP_BATTLE]:
        return 1 + n + OP_BATTLE
    if defend > 0 and units >= 3 and acts >= 2:
        pick, best_cost = -1, 1 << 40
        for c in range(n):
            cost = state[kc(c, KC_COST)]
            if state[kc(c, KC_WAR)] > 0 and c != at and affordable_move(state, c, reserve) and cost < best_cost:
                pick, best_cost = c, cost
        if pick >= 0:
            return 1 + pick
    chance, op = take_chance(state, at, ip, reserve)
    if op >= 0 and chance >= threshold and state[K_OPS + op]:
        return 1 + n + op
    rome = state[K_ROME]
    if units < 2 and at != rome and action_legal(state, 1 + rome):
        return 1 + rome
    if acts >= 2 and units >= 1:
        best, pick, best_cost = threshold, -1, 1 << 40
        for c in range(n):
            if c == at or not affordable_move(state, c, reserve):
                continue
            chance, op = take_chance(state, c, ip, reserve)
            cost = state[kc(c, KC_COST)]
            if op >= 0 and (chance > best or (chance == best and cost < best_cost)):
                best, pick, best_cost = chance, c, cost
        if pick >= 0:
            return 1 + pick
    if offices > 0 and state[K_SWITCH]:
        for b in range(state[K_ACTING] + 1, MAX_ARMIES):
            lead = state[ka(b, KA_LEADER)]
            keeps_rome = lead == LEAD_MAGISTER_POPULI or lead == LEAD_MAGISTER_EQUITUM
            if state[ka(b, KA_MAY)] and not keeps_rome and (
                    state[ka(b, KA_INF)] + state[ka(b, KA_CAV)] > 0 or
                    (state[ka(b, KA_AT)] == rome and state[K_ROME_RESERVE] > 0)):
                return 1 + n + N_OPS + b
    return ACT_END


# ================================================================================ DP-K02, K05, K06, K07
# each point's built-ins: 0 its default, 1 random, 2 the alternative a player might prefer
CHOICE_DEFAULT, CHOICE_RANDOM, CHOICE_OTHER = range(3)
_RANDOM = Builtin(CHOICE_RANDOM, "uniform among the legal answers")
_UNITS = ("unit_at", "unit_kind", "unit_virtus")
CAMPAIGN_STATE = ACTION.state + ("garrison_virtus", "loss_left", "infantry_room", "cavalry_room", "excess_left",
                                 "pursue", "besiege", "routed_units", "counters") + \
    tuple(f"{name}[{c}]" for name in ("allowed", "roman_garrison", "distance", "to_rome")
          for c in range(MAX_CITIES)) + \
    tuple(f"{name}[{t}]" for name in _UNITS for t in range(MAX_COUNTERS))
_STATE_DOC = (" The state is DP-K01's (its entries as they stand now; during DP-K02 as the forming began, but "
              "for army_infantry, army_cavalry and movement_half_points), then: garrison_virtus, loss_left, "
              "infantry_room and cavalry_room (what the army may still take, table 5.1), excess_left, pursue, "
              "besiege and routed_units (DP-B16 only), counters; "
              "allowed[c], roman_garrison[c], distance[c] and to_rome[c] (road half-MP) at DP-K05, K07 and K08 "
              "only; for each counter t, unit_at[t] (0 not a Roman unit a choice may take, 1 in the acting army, 2 "
              "in the Rome reserve, 3 sent out of the army while it forms, 4 in another army), unit_kind[t] (0 "
              "infantry, 1 cavalry, -1 not a military unit) and unit_virtus[t].")


def _unit_candidates(state):
    return range(1 + int(state[D_COUNTERS]))


def _place_candidates(state):
    return range(int(state[K_CITIES]))


ARMY = DecisionPoint(
    "army", "DP-K02",
    "The acting army formed in Rome before an action (4.2, table 5.1: the King, Interrex, Rex Vicarius and Magister "
    "Populi command 4 infantry and 2 cavalry, the Magister Equitum 6 cavalry, a Tribunus Populi 4 infantry, a "
    "Tribunus Celerum 4 cavalry: infantry_cap, cavalry_cap; Titus Tatius his Sabines only, never asked): "
    "units of the Rome reserve join it one at a time while it has room for their kind, units of the army may be "
    "sent out of it (into the Rome reserve; not back this time), until the player ends the forming. An army of "
    "cavalry alone moves 20 MP, with infantry 14 (5.2). Asked while the army stands in Rome, before each DP-K01, "
    "when it offers more than ending." + _STATE_DOC,
    state=CAMPAIGN_STATE,
    actions="0 = the army is formed; 1 + t = counter t joins the army (unit_at[t] = 2 and room for its kind) or "
            "leaves it (unit_at[t] = 1)",
    builtins={"strongest": Builtin(CHOICE_DEFAULT, "keep the army; take the strongest infantry of the reserve "
                                   "while there is room, then the strongest cavalry"),
              "random": _RANDOM,
              "cavalry": Builtin(CHOICE_OTHER, "an army of cavalry alone, the fast one: send the infantry out, "
                                 "take the strongest cavalry while there is room")},
    default="strongest", candidates=_unit_candidates)

GARRISON_PLACE = DecisionPoint(
    "garrison", "DP-K05",
    "A Roman garrison drawn from R (4.1.1) joins a Roman city, Rome aside, whose garrison stays within 3 points "
    "(allowed[c] = 1; roman_garrison[c] its garrison now, garrison_virtus the one drawn). Asked when the draw is "
    "over, when such a city exists; with none the garrison goes to the general reserve." + _STATE_DOC,
    state=CAMPAIGN_STATE,
    actions="c = the city (allowed[c] = 1)",
    builtins={"strongest": Builtin(CHOICE_DEFAULT, "the city with the strongest garrison it fits in (the first of "
                                   "equals): one city made hard to take rather than many a little"),
              "random": _RANDOM,
              "weakest": Builtin(CHOICE_OTHER, "the city with the weakest garrison (the first of equals)")},
    default="strongest", candidates=_place_candidates)

LOSS = DecisionPoint(
    "loss", "DP-K06",
    "A failed mission (7.4, 9.x.6; KOR-A54 mission_loss_selection = player_choice) costs military units of the "
    "Roman armies or the Rome reserve, to the general reserve: one asked at a time while loss_left > 0 (units, or "
    "Virtus with mission_loss_mode = total_virtus_value) and a unit is left." + _STATE_DOC,
    state=CAMPAIGN_STATE,
    actions="1 + t = counter t is lost (unit_at[t] = 1, 2 or 4; the royal army is the acting one)",
    builtins={"weakest": Builtin(CHOICE_DEFAULT, "the weakest unit of the royal army (the first of equals), then "
                                 "of the other armies, then of the reserve"),
              "random": _RANDOM,
              "reserve_first": Builtin(CHOICE_OTHER, "the weakest of the Rome reserve first, keeping the armies")},
    default="weakest", candidates=_unit_candidates)

RETREAT = DecisionPoint(
    "retreat", "DP-K07",
    "7.1: no Roman army may stay next to NR units; each in turn (the royal army first; the one asked is "
    "acting_army) steps away in the player's direction to a place with no NR units in it or adjacent (allowed[c] "
    "= 1): one adjacent to it, or the nearest such place (distance[c], from the army, and to_rome[c] in road "
    "half-MP). Asked when there are two or more; with none the army goes to Rome." + _STATE_DOC,
    state=CAMPAIGN_STATE,
    actions="c = the place (allowed[c] = 1)",
    builtins={"nearest": Builtin(CHOICE_DEFAULT, "the nearest (ties: the nearest to Rome, then the first)"),
              "random": _RANDOM,
              "toward_rome": Builtin(CHOICE_OTHER, "the one nearest to Rome (ties: the nearest)")},
    default="nearest", candidates=_place_candidates)
EXCESS = DecisionPoint(
    "excess", "DP-K08",
    "9.6.7.2: the Greek army's units over its caps are placed « une pour chaque Cité grecque de votre choix » (one "
    "for each Greek city of your choice): each in turn goes to a Greek city, not Rome's, holding the fewest of the "
    "war's units (allowed[c] = 1; distance[c] from the war's start, to_rome[c]); excess_left counts those still "
    "to place. Asked when there are two or more such cities." + _STATE_DOC,
    state=CAMPAIGN_STATE,
    actions="c = the city (allowed[c] = 1)",
    builtins={"nearest": Builtin(CHOICE_DEFAULT, "the nearest to the war's start (the first of equals)"),
              "random": _RANDOM,
              "far_from_rome": Builtin(CHOICE_OTHER, "the one farthest from Rome (ties: the nearest to the start)")},
    default="nearest", candidates=_place_candidates)
ADVANCE = DecisionPoint(
    "advance", "DP-B16",
    "5.7.14: after a battle the acting army won as its action with no Triumph claimed, « Les unités victorieuses au "
    "combat, commandées par un chef, peuvent » (the victorious units, led by a leader, may): (a) advance where the "
    "beaten invasion army routed (5.7.13: its place, the abstract map having no hex beside it) and fight it again, "
    "the same action continued, no action spent (KOR-A39 continuation_battle_reactions), when pursue = 1 (it has "
    "routed_units left, the army 3 units or more); (b) besiege the enemy city where it stands, « sans aucune avance "
    "[...] il n'y a pas non plus de nouvelle action » (the Senate asked as for any siege), when besiege = 1; or "
    "nothing (under rout_protection = action_phase no new action may attack the routed army this action phase). "
    "Asked when (a) or (b) is allowed; "
    "the state is DP-K01's as the battle left it." + _STATE_DOC,
    state=CAMPAIGN_STATE,
    actions="0 = nothing; 1 = pursue (pursue = 1); 2 = besiege (besiege = 1)",
    builtins={"pursue": Builtin(CHOICE_DEFAULT, "pursue when allowed (the sensible bot fights every invasion army "
                                "it stands with); else besiege when the siege is the operation the sensible bot "
                                "would take here and its chance of taking the city reaches threshold, with reserve "
                                "IP kept (as DP-K01's sensible)",
                                params=("threshold", "reserve"), defaults=(0.5, 3.0)),
              "random": _RANDOM,
              "never": Builtin(CHOICE_OTHER, "nothing: the army's next action is a new one")},
    default="pursue", candidates=3)
# in ``P_*`` order: the machine's point is the index
CAMPAIGN_POINTS = (ACTION, ARMY, GARRISON_PLACE, LOSS, RETREAT, EXCESS, ADVANCE)


def _inside(procedure, point):
    """``point`` of ``procedure`` as the campaign asks it: named ``procedure.point``, a point no game state stops at
    (the procedure is played through inside the campaign's rules), with its built-ins. The searches stay where the
    procedure is a searchable machine (``SEARCHED_INSIDE``): they search the procedure from its decision to its end,
    with its own reward, not the campaign."""
    builtins = {name: b for name, b in point.builtins.items() if b.code not in SEARCH_CODES}
    if procedure in SEARCHED_INSIDE:
        builtins.update(search_builtins(point))
    return replace(point, name=f"{procedure}.{point.name}", builtins=builtins, hook=True, nested=True,
                   doc=f"Inside the campaign's {procedure} ({point.rule}): {point.doc}")


# the procedures played by a machine with a search (``battle.battle_game``): a battle and an ambush battle
SEARCHED_INSIDE = ("battle", "ambush")


# the procedures' points, after the campaign's own (PROC_BASE)
PROCEDURE_POINTS = tuple(_inside(name, point) for name, points in zip(PROC_NAMES, _PROC_POINTS) for point in points)


@njit(cache=True)
def best_unit(state, at, kind, strongest):
    """1 + the unit at ``at`` (``U_*``) of ``kind`` (-1: either) with the highest (``strongest``) or lowest
    Virtus, the first of equals; 0 when there is none."""
    best, value = -1, 0
    for t in range(state[D_COUNTERS]):
        if state[ku(t, KU_AT)] != at or (kind >= 0 and state[ku(t, KU_KIND)] != kind):
            continue
        v = state[ku(t, KU_VIRTUS)]
        if best < 0 or (v > value if strongest else v < value):
            best, value = t, v
    return best + 1


@njit(cache=True)
def decide_army(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    return builtin_army(code, params, state, stream)


@njit(cache=True)
def builtin_army(code, params, state, stream):
    if code == CHOICE_RANDOM:
        return random_legal(P_ARMY, state, stream)
    if code == CHOICE_OTHER:
        out = best_unit(state, U_ARMY, INF, False)
        if out:
            return out
    elif state[D_INF_ROOM] > 0:
        take = best_unit(state, U_ROME, INF, True)
        if take:
            return take
    return best_unit(state, U_ROME, CAV, True) if state[D_CAV_ROOM] > 0 else 0


@njit(cache=True)
def decide_garrison(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    return builtin_garrison(code, params, state, stream)


@njit(cache=True)
def builtin_garrison(code, params, state, stream):
    if code == CHOICE_RANDOM:
        return random_legal(P_GARRISON, state, stream)
    best, value = -1, 0
    for c in range(state[K_CITIES]):
        if state[kd(c, KD_ALLOWED)]:
            v = state[kd(c, KD_ROMAN_GARRISON)]
            if best < 0 or (v > value if code == CHOICE_DEFAULT else v < value):
                best, value = c, v
    return best


@njit(cache=True)
def decide_loss(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    return builtin_loss(code, params, state, stream)


@njit(cache=True)
def builtin_loss(code, params, state, stream):
    if code == CHOICE_RANDOM:
        return random_legal(P_LOSS, state, stream)
    order = (U_ROME, U_ARMY, U_OTHER_ARMY) if code == CHOICE_OTHER else (U_ARMY, U_OTHER_ARMY, U_ROME)
    for at in order:
        t = best_unit(state, at, -1, False)
        if t:
            return t
    return 0


@njit(cache=True)
def decide_retreat(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    return builtin_retreat(code, params, state, stream)


@njit(cache=True)
def builtin_retreat(code, params, state, stream):
    if code == CHOICE_RANDOM:
        return random_legal(P_RETREAT, state, stream)
    near, far = (KD_TO_ROME, KD_DISTANCE) if code == CHOICE_OTHER else (KD_DISTANCE, KD_TO_ROME)
    best, best_key = -1, 1 << 62
    for c in range(state[K_CITIES]):
        key = state[kd(c, near)] * (1 << 30) + state[kd(c, far)]
        if state[kd(c, KD_ALLOWED)] and key < best_key:
            best, best_key = c, key
    return best


@njit(cache=True)
def decide_advance(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    return builtin_advance(code, params, state, stream)


@njit(cache=True)
def builtin_advance(code, params, state, stream):
    if code == CHOICE_RANDOM:
        return random_legal(P_ADVANCE, state, stream)
    if code == CHOICE_OTHER:
        return ADVANCE_NONE
    if state[D_PURSUE]:
        return ADVANCE_PURSUE
    chance, op = take_chance(state, state[K_ARMY_AT], state[K_IP], params[1])
    return ADVANCE_BESIEGE if state[D_BESIEGE] and op == OP_SIEGE and chance >= params[0] else ADVANCE_NONE


@njit(cache=True)
def decide_excess(code, params, state, stream, slots, slot):
    if code == USER:
        return call(slots, slot, state, params, stream)
    return builtin_excess(code, params, state, stream)


@njit(cache=True)
def builtin_excess(code, params, state, stream):
    if code == CHOICE_RANDOM:
        return random_legal(P_EXCESS, state, stream)
    best, best_key = -1, 1 << 62
    for c in range(state[K_CITIES]):
        key = state[kd(c, KD_DISTANCE)]
        if code == CHOICE_OTHER:
            key -= state[kd(c, KD_TO_ROME)] * (1 << 30)
        if state[kd(c, KD_ALLOWED)] and key < best_key:
            best, best_key = c, key
    return best


# ============================================================================================= the machine
@njit(cache=True)
def campaign_player(point, cp, city, cost, tok, per, war, pv0, stab, ts, g, cs, ws, dstate, pv, sst, bu,
                    bl, bstat, bg, bst, brow, prow, wbuf, row):
    return 0  # every decision is Rome's; the NR side is the rules' bot


@njit(cache=True)
def campaign_actions(point, cp, city, cost, tok, per, war, pv0, stab, ts, g, cs, ws, dstate, pv, sst, bu,
                     bl, bstat, bg, bst, brow, prow, wbuf, row):
    return decision_width(point, dstate)


@njit(cache=True)
def campaign_reward(player, cp, city, cost, tok, per, war, pv0, stab, ts, g, cs, ws, dstate, pv, sst, bu,
                    bl, bstat, bg, bst, brow, prow, wbuf, row):
    """1 for a won campaign (8.0), 0 for a lost one."""
    return 1.0 if g[G_WON] else 0.0


# the dice of the containers are the only thing hidden, and they are chance, not another player's choice
campaign_game = machine_game("campaign_game", campaign_init, campaign_advance, campaign_legal, campaign_apply,
                             campaign_decide, Search(campaign_player, campaign_actions, campaign_reward, None),
                             max_actions=1 + max(MAX_CITIES + N_OPS, MAX_COUNTERS), nested=True)


@njit(cache=True)
def campaign_scratch(args):
    """A campaign in progress: the counters' places, the scalars, the cities, the invasion armies, DP-K01's state,
    and the buffers the procedures it calls reuse."""
    cp, tok, pv0 = args[0], args[3], args[6]
    b = _battle
    return (np.zeros((tok.shape[0], TS_COLS), np.int64), np.zeros(G_SIZE, np.int64),
            np.zeros((cp[CP_CITIES], CS_COLS), np.int64), np.zeros((MAX_WARS, WS_COLS), np.int64),
            np.zeros(STATE_SIZE, np.int64), np.zeros(pv0.shape, np.int64), np.zeros(32, np.int64),
            np.zeros((2, b.MAX_UNITS, b.U_COLS), np.int64), np.zeros((2, b.MAX_LEADERS, b.L_COLS), np.int64),
            np.zeros((2, b.MAX_UNITS, b.S_COLS), np.int64), np.zeros(b.G_SIZE, np.int64),
            np.zeros(b.BATTLE_STATE_SIZE, np.int64), np.zeros(b.N_METRICS, np.int64), np.zeros(64, np.int64),
            np.zeros(2 * b.MAX_UNITS, np.int64))


@njit(cache=True, apart=True)
def campaign_play(stream, row, codes, params, slots, cp, city, cost, tok, per, war, pv0, stab, ts, g, cs,
                  ws, dstate, pv, sst, bu, bl, bstat, bg, bst, brow, prow, wbuf):
    """One campaign to its end; 0 or a policy error code (DP-K01's, or a procedure's)."""
    err = campaign_game(stream, codes, params, slots, 0, cp, city, cost, tok, per, war, pv0, stab, ts, g,
                        cs, ws, dstate, pv, sst, bu, bl, bstat, bg, bst, brow, prow, wbuf, row)
    return err if err else g[G_ERROR]


# a campaign plays battles, sieges and the rest: ``campaign_play`` is apart from its kernel (``block_kernel``)
campaign_kernel = block_kernel("campaign_kernel", campaign_scratch, campaign_play, N_METRICS)


def campaign_view(point, arrays):
    return arrays[12]  # dstate, after the scenario's 8 arrays and ts, g, cs, ws


MACHINE = Machine(campaign_init, campaign_advance, campaign_legal, campaign_apply, decider(campaign_game),
                  campaign_scratch, campaign_view, nested=True)
