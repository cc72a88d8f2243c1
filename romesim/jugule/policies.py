"""Decision points of the duel (spec 16, D3-D16) and the built-in bots.

Each gladiator has his own copy of every point: ``a_<point>`` for gladiator A (side 0) and ``b_<point>`` for B, so
each side can be played by a different bot or user function (contract ``docs/contracts/jugule.md``). Built-ins and
user functions see only the int64 ``state`` vector (header ``S_*``, then point-specific entries from ``S_X``), never
the kernel's arrays, so a built-in is exactly what a user could write. A point's ``state`` tuple names entry ``i`` at
position ``i`` (a legal-action entry is ``legal_<action>``), so ``point.state.index(name)`` is the index to read.

Built-ins (the same names on every point): ``default`` (type-aware), ``random`` (uniform among legal actions),
``parametric`` with a float vector, and its presets ``aggressive``, ``defensive``, ``balanced``. The vector of
each point is named on its ``Builtin``; points without a vector play ``default`` under ``parametric``.
"""
import numpy as np

from ..core.jit import njit
from ..core.policy import Builtin, DecisionPoint
from .combat import MAX_ITEMS, W_DAGGER, W_IRON_FISTS, W_JAVELIN, W_LASSO, W_NET, W_SPEAR, W_TRIDENT, ZONES, dn
from .geometry import DQ, DR, direction_to, dist

# ------------------------------------------------------------------------------------------------ state vector
STATE_SIZE = 80
(S_SIDE, S_TURN, S_PHASE, S_HP, S_HP_MAX, S_AP, S_M, S_C, S_R, S_EHP, S_EAP, S_DIST, S_MY_ARC, S_ENEMY_ARC,
 S_GROUND, S_CAPTURED, S_LASSOED, S_EGROUND, S_ECAPTURED, S_DEALT, S_EDEALT, S_RANK, S_ERANK, S_TYPE, S_ETYPE,
 S_COWARD, S_ATTACKED, S_REACH, S_EREACH, S_SHIELD, S_ESHIELD, S_IN_ZOC, S_REL_A, S_REL_B, S_EFACING_REL,
 S_JAVELINS, S_NET, S_ENTANGLER, S_COWARD_TURNS, S_FACING, S_X) = range(41)
HEADER = ("side", "turn", "phase", "hp", "hp_max", "ap", "M", "C", "R", "enemy_hp", "enemy_ap", "distance",
          "my_arc", "enemy_arc", "on_ground", "captured", "lassoed", "enemy_on_ground", "enemy_captured", "dealt",
          "enemy_dealt", "rank", "enemy_rank", "type", "enemy_type", "coward_count", "attacked", "reach",
          "enemy_reach", "shield", "enemy_shield", "in_enemy_zoc", "enemy_a", "enemy_b", "enemy_facing_rel",
          "javelins", "net_in_hand", "enemy_net_or_lasso", "coward_turns", "facing")
PH_SPLIT, PH_OWN_MOVE, PH_ENEMY_MOVE, PH_OWN_COMBAT, PH_ENEMY_COMBAT, PH_CHECKPOINT = range(6)

# legal-action masks: state[S_X + i] = 1 when code CODES[i] is legal
MOVE_CODES = np.array([0, 1, 2, 3, 4, 5] + [10 + s for s in range(MAX_ITEMS)] + [20 + k for k in range(1, 6)]
                      + [30 + d for d in range(6)], np.int64)
ATTACK_CODES = np.array([0] + [10 + s for s in range(MAX_ITEMS)] + [20 + s for s in range(MAX_ITEMS)] + [30, 40]
                        + [50 + f for f in range(6)], np.int64)
REACT_CODES = np.array([0, 1, 2, 3, 4, 5, 6, 7], np.int64)
# attack state: item kinds of each slot after the mask (-1 = empty)
ATTACK_KINDS = S_X + len(ATTACK_CODES)
# react state: S_X = the enemy just entered my ZOC, then the mask
REACT_MASK = S_X + 1
# defend state
D_ZONE, D_LOSS, D_PARRY, D_DODGE, D_KIND = S_X, S_X + 1, S_X + 2, S_X + 3, S_X + 4
AK_MELEE, AK_LASSO, AK_BASH, AK_MISSILE = range(4)
# net_escape state
N_NEED, N_SCYTHE, N_ESCAPE = S_X, S_X + 1, S_X + 2
# hex_choice state: count, purpose, then up to H_MAX (q, r) pairs, then the enemy's arc seen from each candidate
H_COUNT, H_PURPOSE, H_PAIRS = S_X, S_X + 1, S_X + 2
H_MAX = 12  # the most candidates any choice has (net exits under net_exit = any: at most 11)
H_ARCS = H_PAIRS + 2 * H_MAX
HP_DODGE, HP_PUSH, HP_NET_EXIT, HP_STEP_BACK = range(4)

# names of the point-specific entries, one per entry from S_X on: a mask entry is "legal_<action>"
MOVE_ACTIONS = (("pass", "step_forward", "step_back", "turn_left", "turn_right", "stand_up")
                + tuple(f"pick_up_{s}" for s in range(MAX_ITEMS)) + tuple(f"escape_{k}" for k in range(1, 6))
                + tuple(f"slide_{d}" for d in range(6)))
ATTACK_ACTIONS = (("pass",) + tuple(f"attack_{s}" for s in range(MAX_ITEMS))
                  + tuple(f"throw_spear_{s}" for s in range(MAX_ITEMS)) + ("bash", "improvised")
                  + tuple(f"turn_{f}" for f in range(6)))
REACT_ACTIONS = ("nothing",) + tuple(f"face_{f}" for f in range(6)) + ("step_back",)
MOVE_STATE = tuple(f"legal_{a}" for a in MOVE_ACTIONS)
ATTACK_STATE = tuple(f"legal_{a}" for a in ATTACK_ACTIONS) + tuple(f"kind_{s}" for s in range(MAX_ITEMS))
REACT_STATE = ("entered_zoc",) + tuple(f"legal_{a}" for a in REACT_ACTIONS)
HEX_STATE = (("count", "purpose") + tuple(f"{c}{i}" for i in range(H_MAX) for c in "qr")
             + tuple(f"arc{i}" for i in range(H_MAX)))
AIM_STATE = tuple(f"armour_{z}" for z in ZONES) + ("attack_kind",)

# ------------------------------------------------------------------------------------------------ points
(P_APPEAL, P_ALLOCATE, P_SCUTUM_ZONE, P_MOVE, P_REACT, P_ATTACK, P_DEFEND, P_NET_ESCAPE, P_SPOIL, P_STUMBLE,
 P_RECOVER, P_FREE_ASSAULT, P_KNOCKDOWN, P_HEX_CHOICE, P_AIM, N_POINTS) = range(16)
CODE_DEFAULT, CODE_RANDOM, CODE_PARAMETRIC = 0, 1, 2
ALL_IN_TURN = 10  # from the next turn on, the default and parametric splits keep no reserve
BOTS = ("default", "random", "parametric", "aggressive", "defensive", "balanced")

# (name, spec id, doc, point-specific state, actions, parametric vector names, presets: aggressive, defensive,
#  balanced)
_POINTS = (
    ("appeal", "D3", "Voluntary mercy appeal at the checkpoints turn_start and after_attack (12.4, JUG-A60).",
     ("checkpoint", "needed_natural"), "0 no, 1 appeal", ("hp_threshold",), (0.0,), (2.0,), (0.0,)),
    ("allocate", "D4", "Split all AP into M, C, R at the start of a turn, without seeing the enemy's split (JUG-A4).",
     ("enemy_open_split",), "M * 100 + C with M, C >= 0 and M + C <= ap; R is the rest",
     ("c_share_engaged", "m_share_free", "min_reserve"), (0.9, 0.8, 0.0), (0.4, 0.5, 4.0), (0.6, 0.6, 2.0)),
    ("scutum_zone", "D5", "The zone the scutum covers this turn besides the left arm (JUG-A19).",
     ("thorax_armour", "left_leg_armour", "head_armour", "head_allowed"),
     "0 thorax, 3 left leg, 5 head (only with scutum_zones = thorax_leftleg_head)", (), (), (), ()),
    ("move", "D6", "One action of the own movement phase (5, 6, 10.3, 10.9); asked until it passes.",
     MOVE_STATE,
     "0 pass, 1 step forward, 2 step back, 3 turn left, 4 turn right, 5 stand up, 10+slot pick up, 20+k escape "
     "with k MP, 30+d slide in direction d", ("preferred_distance", "flank"), (0.0, 1.0), (0.0, 0.0), (0.0, 0.0)),
    ("react", "D7", "Reserve reaction after an enemy step (JUG-A7, A8): turn to face, or step back when he just "
     "entered the ZOC.", REACT_STATE,
     "0 nothing, 1+f turn to facing f (1 RP per hexside), 7 step back (2 RP)", ("turn_to_face", "step_back"),
     (1.0, 0.0), (1.0, 1.0), (1.0, 0.0)),
    ("attack", "D8", "One attack of the own combat phase; asked until it passes.", ATTACK_STATE,
     "0 pass, 10+slot attack with the item, 20+slot throw the spear, 30 shield bash, 40 improvised shield",
     ("net_max_distance", "javelin_min_distance", "bash"), (2.0, 2.0, 1.0), (1.0, 3.0, 0.0), (2.0, 2.0, 1.0)),
    ("defend", "D9", "Parry or dodge an assault that is not from the rear and not shield-blocked (7, JUG-A16).",
     ("zone", "expected_loss", "parry_legal", "dodge_legal", "attack_kind"), "0 none, 1 parry, 2 dodge",
     ("parry_min_loss", "dodge_min_loss"), (3.0, 9.0), (1.0, 1.0), (1.0, 3.0)),
    ("net_escape", "D10", "Answer to a net throw not from the rear (10.3, JUG-A40, A41).",
     ("rp_needed", "scythe_legal", "escape_legal"), "0 be captured, 1 leave the area, 2 parry with the scythe",
     (), (), (), ()),
    ("spoil", "D11", "Spend 1 RP against a javelin or thrown spear (JUG-A42).", ("throw_distance", "needed_natural"),
     "0 no, 1 spoil (-1 to the to-hit die)", (), (), (), ()),
    ("stumble", "D12", "Own fumble 1: spend 1 RP to stay on one's feet (JUG-A53).", (), "0 fall, 1 spend 1 RP",
     (), (), (), ()),
    ("recover", "D13", "Own fumble 5: spend 1 RP to pick the weapon up (JUG-A56).", (), "0 leave it, 1 spend 1 RP",
     (), (), (), ()),
    ("free_assault", "D14", "The free assault of the opponent's fumble 2-3 (JUG-A54).",
     ATTACK_STATE, "as attack, 0 declines; with no attack legal 50+f turns to facing f for free", (), (), (), ()),
    ("knockdown", "D15", "RP against the fall after a landed shield bash (JUG-A48).", ("total", "ap_rating"),
     "r in 0..R (total = -1 when spent before the roll)", (), (), (), ()),
    ("hex_choice", "D16", "A hex among candidates: dodge, push-back, net exit, step back (15.5).",
     HEX_STATE, "index of the candidate", (), (), (), ()),
    ("aim", "JUG-A11", "The zone an attack aims at, with location = aimed (instead of the location die).",
     AIM_STATE,
     "zone 0 thorax, 1 left arm, 2 right arm, 3 left leg, 4 right leg, 5 head", (), (), (), ()),
)


PRESET_DOCS = {"aggressive": "combat takes 0.9 of the AP when engaged and movement 0.8 when free, no reserve kept; "
                             "parries a loss of 3+ only, dodges 9+; nets up to 2 hexes, javelins from 2, bashes; "
                             "seeks the flank",
               "defensive": "combat 0.4 when engaged, movement 0.5 when free, a reserve of at least 4; appeals at 2 "
                            "HP; steps back when the enemy enters its zone; parries and dodges any loss; nets at 1 "
                            "hex, javelins from 3, no bash",
               "balanced": "the parametric bot's default vector (combat 0.6, movement 0.6, reserve 2)"}


def _allocations(state):
    """D4: every M * 100 + C with M + C <= ap."""
    ap = state[HEADER.index("ap")]
    return [m * 100 + c for m in range(ap + 1) for c in range(ap + 1 - m)]


def _knockdown_rp(state):
    """D15: r in 0 .. R."""
    return range(max(state[HEADER.index("R")], 0) + 1)


# the actions each point may allow (GameState.legal_actions offers each to the game): the encodings of `actions`
CANDIDATES = {"scutum_zone": 6, "move": 36, "react": 8, "attack": 41, "defend": 3, "net_escape": 3,
              "free_assault": 56, "hex_choice": 16, "aim": 6, "allocate": _allocations, "knockdown": _knockdown_rp}


def _point(side, spec):
    name, rule, doc, extra, actions, vector, aggressive, defensive, balanced = spec
    builtins = {"default": Builtin(CODE_DEFAULT, "type-aware bot (contract)"),
                "random": Builtin(CODE_RANDOM, "uniformly random legal action"),
                "parametric": Builtin(CODE_PARAMETRIC, "the parametric bot with its vector", vector, balanced)}
    for preset, values in (("aggressive", aggressive), ("defensive", defensive), ("balanced", balanced)):
        builtins[preset] = Builtin(CODE_PARAMETRIC, f"parametric bot, {preset} preset: {PRESET_DOCS[preset]}",
                                   vector, values)
    who = "A" if side == 0 else "B"
    return DecisionPoint(f"{'ab'[side]}_{name}", f"{rule} ({who})", f"Gladiator {who}: {doc}",
                         state=HEADER + tuple(extra), actions=actions, builtins=builtins, default="default",
                         candidates=CANDIDATES.get(name, 2))


DUEL_POINTS = tuple(_point(side, spec) for side in (0, 1) for spec in _POINTS)
POINT_NAMES = tuple(spec[0] for spec in _POINTS)


def side_policies(side, bot="default"):
    """``{decision point: bot}`` putting the built-in ``bot`` on every point of ``side`` ("a" or "b")."""
    if side not in ("a", "b") or bot not in BOTS:
        raise ValueError(f"side_policies: side must be 'a' or 'b' and bot one of {', '.join(BOTS)}; "
                         f"got {side!r}, {bot!r}")
    return {f"{side}_{name}": bot for name in POINT_NAMES}


# ------------------------------------------------------------------------------------------------ helpers
@njit(cache=True)
def _legal(state, base, codes, code):
    for i in range(codes.size):
        if codes[i] == code:
            return state[base + i] == 1
    return False


@njit(cache=True)
def _random_legal(state, base, codes, stream):
    n = 0
    for i in range(codes.size):
        n += state[base + i]
    if n == 0:
        return 0
    pick = dn(stream, n)
    for i in range(codes.size):
        if state[base + i] == 1:
            pick -= 1
            if pick == 0:
                return codes[i]
    return 0


@njit(cache=True)
def _turn_toward(k):
    """Turn action (3 left, 4 right) that brings relative direction ``k`` (0 = ahead) closer to ahead."""
    return 3 if 1 <= k <= 3 else 4


@njit(cache=True)
def _engaged(state):
    return state[S_DIST] <= max(1, state[S_REACH])


# ------------------------------------------------------------------------------------------------ built-ins
@njit(cache=True)
def _allocate(code, params, state, stream):
    ap = state[S_AP]
    if code == CODE_RANDOM:
        pick = dn(stream, (ap + 1) * (ap + 2) // 2) - 1
        for m in range(ap + 1):
            if pick <= ap - m:
                return m * 100 + pick
            pick -= ap - m + 1
        return 0
    need = 2 if state[S_GROUND] == 1 else 0
    if state[S_CAPTURED] == 1:
        return min(ap, 5) * 100
    if state[S_LASSOED] == 1:
        need += 3
    need = min(need, ap)
    if code == CODE_PARAMETRIC:
        c_share, m_share, min_res = min(1.0, max(0.0, params[0])), min(1.0, max(0.0, params[1])), int(params[2])
    else:
        # default: everything to the attack once engaged, one parry in reserve (two points against a net or a
        # lasso, which only reserve can answer), enough movement to close in otherwise
        c_share, m_share, min_res = 1.0, 0.0, 2
    all_in = 0
    if state[S_TURN] > ALL_IN_TURN:
        # two bots that parry every attack would never end the duel: after ALL_IN_TURN turns they keep no reserve,
        # not even the odd point an even combat allowance leaves, which goes to movement: under dodge_mode =
        # per_hex (JUG-A15 c) that one point dodges an assault out of reach, and two bots keeping it dodged each
        # other's single assault every turn to the turn guard
        c_share, min_res, all_in = 1.0, 0, 1
    reserve = min(max(0, min_res), ap - need)
    ranged = state[S_JAVELINS] > 0 and 2 <= state[S_DIST] <= 10
    if _engaged(state) or ranged:
        avail = ap - need - reserve
        c = int(avail * c_share)
        if not ranged and c % 2 == 1:
            c -= 1
        if ranged:
            c = min(c, 4)
        # a reach weapon at distance 1 keeps 2 MP to step back out of the ZOC
        if state[S_REACH] == 2 and state[S_DIST] == 1 and avail - c < 2 and c >= 2:
            c -= 2
        c = max(0, c)
        m = ap - reserve - c
        if code != CODE_PARAMETRIC and _engaged(state) and reserve >= 2 and (
                max(0, state[S_EAP] - 2) // 2 >= c // 2 + 2):
            # default: a parry (2 RP) spares one enemy assault, two more CP make one more assault; the parry is
            # worth it against an enemy expected to make at most one assault more than the gladiator (his AP less
            # a parry of his own, 2 CP each); against more, the points go to the attack (JUG-A4)
            c += 2
        return m * 100 + c
    steps = state[S_DIST] - max(1, state[S_REACH])
    if code != CODE_PARAMETRIC and ap - need - steps >= 2:
        # default, closing in with an attack in reach this turn: the steps, then one assault (2 CP), then the
        # reserve, then a spare MP to face him, the rest to the attack. A 4-5 AP gladiator who kept his reserve
        # and a spare MP first would never attack on such a turn, and the cowardice clock (12.6) would run
        c = 2
        reserve = min(reserve, ap - need - steps - c)
        m = need + steps + min(1, ap - need - steps - c - reserve)
        c = ap - reserve - m
        if c % 2 == 1 and state[S_JAVELINS] == 0:
            c -= 1
            m += all_in  # the odd point: to the reserve, or to movement when none is kept
        return m * 100 + c
    if code == CODE_PARAMETRIC:
        m = max(need, int((ap - reserve) * m_share + 0.5))
    else:
        m = need + steps + 1
    m = max(0, min(m, ap - reserve))
    c = ap - reserve - m
    if c % 2 == 1 and state[S_JAVELINS] == 0:
        c -= 1
        m += all_in
    return m * 100 + c


@njit(cache=True)
def _scutum_zone(code, params, state, stream):
    if code == CODE_RANDOM:
        n = 3 if state[S_X + 3] == 1 else 2
        pick = dn(stream, n)
        return 0 if pick == 1 else (3 if pick == 2 else 5)
    # cover the least armoured of the allowed zones (thorax on a tie)
    best, best_armour = 0, state[S_X]
    if state[S_X + 1] < best_armour:
        best, best_armour = 3, state[S_X + 1]
    if state[S_X + 3] == 1 and state[S_X + 2] < best_armour:
        best = 5
    return best


@njit(cache=True)
def _move(code, params, state, stream):
    if code == CODE_RANDOM:
        return _random_legal(state, S_X, MOVE_CODES, stream)
    if _legal(state, S_X, MOVE_CODES, 5):
        return 5
    if state[S_CAPTURED] == 1 or state[S_LASSOED] == 1:
        k = min(5, state[S_M])
        if k >= 2 and _legal(state, S_X, MOVE_CODES, 20 + k):
            return 20 + k
        if state[S_CAPTURED] == 1:
            return 0
    for s in range(MAX_ITEMS):
        if _legal(state, S_X, MOVE_CODES, 10 + s):
            return 10 + s
    pref = max(1, state[S_REACH])
    if state[S_JAVELINS] > 0:
        pref = 3
    flank = False
    if code == CODE_PARAMETRIC:
        if params[0] >= 1:
            pref = int(params[0])
        flank = params[1] > 0
    a, b, d = state[S_REL_A], state[S_REL_B], state[S_DIST]
    k = direction_to(0, 0, a, b)
    if flank and d >= 2 and state[S_IN_ZOC] == 0 and state[S_ECAPTURED] == 0:
        # aim for the hex at the enemy's flank nearer to us, never entering his ZOC before reaching it
        best_q, best_r, best_d = 0, 0, 1 << 30
        for side in (2, 4):
            f = (state[S_EFACING_REL] + side) % 6
            tq, tr = a + DQ[f], b + DR[f]
            if dist(0, 0, tq, tr) < best_d:
                best_q, best_r, best_d = tq, tr, dist(0, 0, tq, tr)
        for j in range(6):
            nq, nr = DQ[j], DR[j]
            closer = dist(nq, nr, best_q, best_r) < best_d
            safe = dist(nq, nr, a, b) >= 2 or (nq == best_q and nr == best_r)
            if closer and safe and not (nq == a and nr == b):
                if j == 0:
                    return 1 if _legal(state, S_X, MOVE_CODES, 1) else 0
                t = _turn_toward(j)
                return t if _legal(state, S_X, MOVE_CODES, t) else 0
    if d > pref:
        if k != 0:
            t = _turn_toward(k)
            return t if _legal(state, S_X, MOVE_CODES, t) else 0
        return 1 if _legal(state, S_X, MOVE_CODES, 1) else 0
    if d < pref and k == 0 and _legal(state, S_X, MOVE_CODES, 2):
        return 2
    if state[S_ENEMY_ARC] != 0:
        t = _turn_toward(k)
        return t if _legal(state, S_X, MOVE_CODES, t) else 0
    return 0


@njit(cache=True)
def _react(code, params, state, stream):
    if code == CODE_RANDOM:
        return _random_legal(state, REACT_MASK, REACT_CODES, stream)
    # a reach weapon is worth stepping back for, but not at the price of the last parry
    turn, back = True, state[S_REACH] == 2 and state[S_R] >= 4
    if code == CODE_PARAMETRIC:
        turn, back = params[0] > 0, params[1] > 0
    if turn and state[S_ENEMY_ARC] != 0:
        f = (state[S_FACING] + direction_to(0, 0, state[S_REL_A], state[S_REL_B])) % 6
        if _legal(state, REACT_MASK, REACT_CODES, 1 + f):
            return 1 + f
    if back and state[S_X] == 1 and _legal(state, REACT_MASK, REACT_CODES, 7):
        return 7
    return 0


@njit(cache=True)
def _attack(code, params, state, stream, free):
    if code == CODE_RANDOM:
        return _random_legal(state, S_X, ATTACK_CODES, stream)
    net_max, jav_min, bash = 2, 2, True
    if code == CODE_PARAMETRIC:
        net_max, jav_min, bash = int(params[0]), int(params[1]), params[2] > 0
    d = state[S_DIST]
    best, best_score = 0, 0
    for s in range(MAX_ITEMS):
        kind = state[ATTACK_KINDS + s]
        if not _legal(state, S_X, ATTACK_CODES, 10 + s):
            continue
        score = 0
        if kind == W_NET:
            # thrown into a full reserve the net is simply escaped: throw it as the last attack of the phase
            last = free or state[S_C] <= 3
            score = (100 if last else 35) if state[S_ECAPTURED] == 0 and d <= net_max else 0
        elif kind == W_LASSO:
            score = 90
        elif kind == W_JAVELIN:
            score = 50 if d >= jav_min else 0
        elif kind == W_DAGGER or kind == W_IRON_FISTS:
            score = 30
        else:
            score = 40 if kind != W_TRIDENT and kind != W_SPEAR else 45
        if score > best_score:
            best, best_score = 10 + s, score
    if bash and _legal(state, S_X, ATTACK_CODES, 30) and state[S_EGROUND] == 0 and state[S_EAP] <= 8 and (
            state[S_C] >= 4 or free) and 80 > best_score:
        best, best_score = 30, 80
    if best_score == 0 and _legal(state, S_X, ATTACK_CODES, 40):
        best, best_score = 40, 20
    if best_score == 0:
        # throwing the spear leaves only the dagger: only to keep the cowardice clock from running out
        for s in range(MAX_ITEMS):
            if state[ATTACK_KINDS + s] == W_SPEAR and _legal(state, S_X, ATTACK_CODES, 20 + s) and (
                    state[S_COWARD] >= state[S_COWARD_TURNS] - 1):
                return 20 + s
        if free:
            f = (state[S_FACING] + direction_to(0, 0, state[S_REL_A], state[S_REL_B])) % 6
            if _legal(state, S_X, ATTACK_CODES, 50 + f):
                return 50 + f
    return best


@njit(cache=True)
def _defend(code, params, state, stream):
    parry, dodge = state[D_PARRY] == 1, state[D_DODGE] == 1
    if code == CODE_RANDOM:
        n = 1 + int(parry) + int(dodge)
        pick = dn(stream, n)
        if pick == 1:
            return 0
        return 1 if parry and pick == 2 else 2
    kind = state[D_KIND]
    if kind == AK_LASSO:
        return 1 if parry else (2 if dodge else 0)
    if kind == AK_BASH:
        if state[S_AP] > 10:
            return 0
        return 1 if parry else (2 if dodge else 0)
    parry_min, dodge_min = 1, 3
    if code == CODE_PARAMETRIC:
        parry_min, dodge_min = int(params[0]), int(params[1])
    loss = state[D_LOSS]
    if parry and loss >= parry_min:
        return 1
    if dodge and loss >= dodge_min:
        return 2
    return 0


@njit(cache=True)
def _appeal(code, params, state, stream):
    if code == CODE_RANDOM:
        return dn(stream, 2) - 1
    if code == CODE_PARAMETRIC:
        return 1 if state[S_HP] <= params[0] else 0
    return 0


@njit(cache=True)
def _net_escape(code, params, state, stream):
    if code == CODE_RANDOM:
        n = 1 + state[N_SCYTHE] + state[N_ESCAPE]
        pick = dn(stream, n) - 1
        if pick == 0:
            return 0
        return 1 if state[N_ESCAPE] == 1 and pick == 1 else 2
    if state[N_SCYTHE] == 1:
        return 2
    return 1 if state[N_ESCAPE] == 1 else 0


@njit(cache=True)
def _knockdown(code, params, state, stream):
    if code == CODE_RANDOM:
        return dn(stream, state[S_R] + 1) - 1
    total, rating = state[S_X], state[S_X + 1]
    if total < 0:
        return min(state[S_R], 2)
    need = total - rating + 1
    return need if 0 < need <= state[S_R] else 0


@njit(cache=True)
def _hex_choice(code, params, state, stream):
    """D16, default: a hex that keeps the enemy in the best arc (front, then flank, then rear: he moves with his
    facing kept, 15.5, 15.6, 10.3), a tie drawn from the game's stream. The candidates come in compass order, so
    "the first" would favour one side of the sheet over the other; the arc is the same for both sides."""
    n = state[H_COUNT]
    if code == CODE_RANDOM:
        return dn(stream, n) - 1
    best, ties = 3, 0
    for i in range(n):
        arc = state[H_ARCS + i]
        if arc < best:
            best, ties = arc, 1
        elif arc == best:
            ties += 1
    pick = dn(stream, ties) if ties > 1 else 1
    for i in range(n):
        if state[H_ARCS + i] == best:
            pick -= 1
            if pick == 0:
                return i
    return 0


@njit(cache=True)
def _yes(code, params, state, stream):
    """spoil, stumble, recover: asked only when the point can be paid; the bots pay it."""
    if code == CODE_RANDOM:
        return dn(stream, 2) - 1
    return 1


@njit(cache=True)
def _aim(code, params, state, stream):
    if code == CODE_RANDOM:
        return dn(stream, 6) - 1
    # the least armoured zone the shield does not cover (thorax first on a tie)
    best, best_armour = 0, 1 << 30
    for z in range(6):
        armour = state[S_X + z]
        if 0 <= armour < best_armour:
            best, best_armour = z, armour
    return best


@njit(cache=True)
def _free_assault(code, params, state, stream):
    return _attack(code, params, state, stream, True)


@njit(cache=True)
def _own_attack(code, params, state, stream):
    return _attack(code, params, state, stream, False)


# The built-in of every decision point, by its point (``duel.decide_duel`` asks the user's function first): it takes
# no policy slots, so the kernel's variants for built-ins, user bots and searches share its compiled code rather
# than compile a function a point each again
@njit(cache=True)
def builtin(point, code, params, state, stream):
    """The action of decision point ``point``'s built-in ``code`` (``P_APPEAL`` ... ``P_AIM``)."""
    if point == P_APPEAL:
        return _appeal(code, params, state, stream)
    if point == P_ALLOCATE:
        return _allocate(code, params, state, stream)
    if point == P_SCUTUM_ZONE:
        return _scutum_zone(code, params, state, stream)
    if point == P_MOVE:
        return _move(code, params, state, stream)
    if point == P_REACT:
        return _react(code, params, state, stream)
    if point == P_ATTACK:
        return _own_attack(code, params, state, stream)
    if point == P_DEFEND:
        return _defend(code, params, state, stream)
    if point == P_NET_ESCAPE:
        return _net_escape(code, params, state, stream)
    if point == P_SPOIL or point == P_STUMBLE or point == P_RECOVER:
        return _yes(code, params, state, stream)
    if point == P_FREE_ASSAULT:
        return _free_assault(code, params, state, stream)
    if point == P_KNOCKDOWN:
        return _knockdown(code, params, state, stream)
    if point == P_HEX_CHOICE:
        return _hex_choice(code, params, state, stream)
    return _aim(code, params, state, stream)  # P_AIM
