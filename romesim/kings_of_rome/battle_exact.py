"""Exact solver of the Kings of Rome battle (KoR 5.7): the cross-check of the battle kernel.

An independent plain-Python reading of the rules (spec sections 2.1 and 2.8) and of the battle contract
(``docs/contracts/kings_of_rome_battle.md``), not a port of the kernel. ``solve(scenario, policies)`` returns
``{metric: Fraction}`` for every metric of ``kings_of_rome.battle`` and of the ambush battle
``kings_of_rome.ambush`` (6.4 c).

How it counts. The battle is a tree of chance nodes (every die, the NR tactic draw, the NR box order, the
``random`` built-ins) and decision nodes. Roman decisions are made by the scenario's built-in policies, evaluated by
calling ``battle_builtin.py_func`` on the state vector the contract defines (decisions are not rules): a built-in
that draws from the stream becomes a chance node over its actions. The solver computes the exact distribution of
the battle's *ending* (a record of everything the metrics read: the ending, the track, losses, captures, leaders,
the phase-3 cost), and scores each ending once. Phase 3 carries probability mass forward over the states of the
battle screen: units only die, Astutia points only fall and reserves only move up, so the only loop is a round
that changes nothing, whose mass is divided out (the device of ``romesim.core.exact.absorbing_expectations``), and
taking the states with the most units alive first settles each state once. The number of phase-3 rounds is
carried as an expectation beside the distribution. Weights inside a round are integers over a common
denominator; the mass of a state is a Fraction.

Supported: both scenarios with up to 8 units a side (in practice a few seconds up to about five units a
side), every rule option except those ``_check_supported`` names (the ``melee_until_side_wiped`` and
``even_total`` vanguard readings of KOR-A20, ``spolia_champion = any_leader_in_army`` of KOR-A17 and
``leader_alone_box_counts_empty = false`` of KOR-A32), every deterministic built-in policy, and ``random``
built-ins and the ``parametric`` tactic as chance nodes (a ``random`` pairing, deployment or reroll is not
supported).
``ExactNotSupported`` says what is out of scope.
"""
import heapq
from collections import defaultdict
from fractions import Fraction
from itertools import permutations
from math import gcd

import numpy as np

from ..core.errors import ExactNotSupported
from .policies import (
    BATTLE_STATE_SIZE,
    BS_OWN,
    PHASE_3,
    PHASE_CLASH,
    PHASE_RETREAT,
    PHASE_SETUP,
    PHASE_TACTICS,
    battle_builtin,
    tactic_estimates,
)

INFANTRY, CAVALRY = 0, 1
ROME, NR = 0, 1
FRONT = 3  # front boxes RIGHT, CENTRE, LEFT
RESERVE = 3  # the leader position "battle reserve" (DP-B10 action 3)
TRACK_STOP = 19  # 5.7.7: a marker cannot go beyond -19

# table 5.1 (kor_command.csv): rank and command capacity (infantry, cavalry) of each Roman leader
RANKS = {"king": 1, "interrex": 1, "rex_vicarius": 1, "magister_populi": 2, "magister_equitum": 3,
         "tribunus_populi": 4, "tribunus_celerum": 5, "general": 6}
CAPACITY = {"king": (4, 2), "interrex": (4, 2), "rex_vicarius": (4, 2), "magister_populi": (4, 2),
            "magister_equitum": (0, 6), "tribunus_populi": (4, 0), "tribunus_celerum": (0, 4), "general": (4, 2)}
KING_RANKS = ("king", "interrex", "rex_vicarius")
TRIBUNES = ("tribunus_populi", "tribunus_celerum")

BATTLE, AMBUSH = "kings_of_rome.battle", "kings_of_rome.ambush"
NON_ITALIC = ("gauls", "greeks")
ENDINGS = ("withdrawal", "spolia", "defence_defence", "retreat_round", "stopped", "phase3")



def faces(drm, target, ge=False):
    """How many faces of a d6 pass ``d6 + drm > target`` (C1), or ``>=`` with ``ge``."""
    return max(0, min(6, 6 + drm - target + (1 if ge else 0)))


def _sorted(units):
    """Strongest first (Virtus, then the order of the scenario's list)."""
    return sorted(units, key=lambda u: (-u.virtus, u.slot))


def _product(values):
    out = Fraction(1)
    for v in values:
        out *= v
    return out


def _integer_weights(dist):
    """``(denominator, {key: integer weight})`` of a distribution of Fractions."""
    den = 1
    for p in dist.values():
        den = den * p.denominator // gcd(den, p.denominator)
    return den, {key: p.numerator * (den // p.denominator) for key, p in dist.items()}


class _Outcome:
    """A distribution of final records with the expected number of phase-3 rounds beside it."""

    __slots__ = ("dist", "rounds")

    def __init__(self):
        self.dist = defaultdict(Fraction)
        self.rounds = Fraction(0)

    def add(self, book, weight):
        self.dist[book] += weight


class Unit(tuple):
    """(side, slot, kind, virtus, roman_class, captivi): one participating military unit."""

    __slots__ = ()

    side = property(lambda self: self[0])
    slot = property(lambda self: self[1])
    kind = property(lambda self: self[2])
    virtus = property(lambda self: self[3])
    roman_class = property(lambda self: self[4])
    captivi = property(lambda self: self[5])


# ------------------------------------------------------------------ the record of a battle's ending
# Track and bookkeeping carried through the battle (a tuple, so states stay hashable):
PEN_R, PEN_N, LOST_R, LOST_N, CAPT_R, CAPT_N, LEADER_R, LEADER_N, PHASE3, ENDING, SPOLIA, NR_INF_LEFT, \
    ROMAN_LEFT = range(13)


def _start_book(pen_r, pen_n):
    return (pen_r, pen_n, 0, 0, 0, 0, False, False, False, None, None, 0, 0)


_BOOK_FIELDS = {"PEN_R": PEN_R, "PEN_N": PEN_N, "LEADER_R": LEADER_R, "LEADER_N": LEADER_N, "PHASE3": PHASE3,
                "ENDING": ENDING, "SPOLIA": SPOLIA, "NR_INF_LEFT": NR_INF_LEFT, "ROMAN_LEFT": ROMAN_LEFT}


def _book(book, **changes):
    """``book`` with the named fields replaced."""
    values = list(book)
    for name, value in changes.items():
        values[_BOOK_FIELDS[name]] = value
    return tuple(values)


def _lose_units(book, lost, nr_infantry_points=1):
    """Book the units in ``lost`` as eliminated or captured, with their track penalties (5.7.8, C4)."""
    values = list(book)
    for unit in lost:
        side = unit.side
        values[PEN_R + side] += loss_penalty(unit, nr_infantry_points)
        values[LOST_R + side] += 1
        if unit.captivi:
            values[CAPT_R + side] += 1
    return tuple(values)


def loss_penalty(unit, nr_infantry_points=1):
    """5.7.8 in-battle penalties: cavalry 3 (either side, Roman cavalry is class I); NR infantry 1 ("infanterie
    italique": 0 for a non-Italic people under KOR-A28 ``italic_only``); Roman infantry 2 for class I-II, 1 for
    class III-V."""
    if unit.kind == CAVALRY:
        return 3
    if unit.side == NR:
        return nr_infantry_points
    return 2 if unit.roman_class <= 2 else 1


class _Solver:
    def __init__(self, scenario, policies):
        self.s = scenario
        # the index of a point among the scenario's decision points is the built-ins' point number
        self.points = [dp.name for dp in scenario.decision_points]
        self.codes = dict(zip(self.points, (int(c) for c in policies.codes)))
        self.params = dict(zip(self.points, (np.asarray(p, np.float64) for p in policies.params)))
        self.names = dict(zip(self.points, policies.names))
        self._check_supported()
        self.builtin = battle_builtin.py_func
        self.omen = 1 if scenario.good_omen else 0
        # the ambush battle (6.4 c) is the NR's attack and no Roman action
        self.ambush = scenario.name == AMBUSH
        self.rome_attacks = not self.ambush and scenario.attacker == "rome"
        # KOR-A28 italic_only: 5.7.8 scores the loss of an "infanterie italique"; Gauls and Greeks are not Italic
        self.nr_infantry_points = 0 if (scenario.nr_infantry_loss_points == "italic_only"
                                        and scenario.nr_people in NON_ITALIC) else 1
        self.roman_action = not self.ambush and scenario.roman_action
        self.mass = {}  # phase-3 states -> probability mass waiting to be carried forward
        self.decisions = {}
        self.side_rolls = {}
        self.reserves = {}

    # -------------------------------------------------------------- scope
    def _check_supported(self):
        s = self.s
        unsupported = []
        if s.vanguard_model != "pair_duels":
            unsupported.append(f"vanguard_model={s.vanguard_model!r} (KOR-A20)")
        if s.vanguard_matching != "equal_numbers":
            unsupported.append(f"vanguard_matching={s.vanguard_matching!r} (KOR-A20)")
        if s.spolia_champion != "commanding_leader":
            unsupported.append(f"spolia_champion={s.spolia_champion!r} (KOR-A17)")
        if not s.leader_alone_box_counts_empty:
            unsupported.append("leader_alone_box_counts_empty=false (KOR-A32)")
        if unsupported:
            raise ExactNotSupported(f"{s.name}: the exact solver does not support " + ", ".join(unsupported))

    # -------------------------------------------------------------- Roman decisions (built-in policies)
    def decide(self, point, legal, own=(), header=(0, 0, 0, 0, 0, 0, 0)):
        """``[(action, probability)]`` of the Roman built-in at ``point`` for the state the contract defines."""
        key = (point, tuple(legal), tuple(own), tuple(header))
        if key in self.decisions:
            return self.decisions[key]
        code = self.codes[point]
        name = self.names[point]
        legal_actions = [a for a in range(8) if legal[a]] if len(legal) == 8 else None
        if name == "random":
            # uniform among the legal actions (one die of the stream)
            out = [(a, Fraction(1, len(legal_actions))) for a in legal_actions]
        elif point == "tactic" and name == "parametric":
            # ATTACK iff dn(1_000_000) <= p_attack * 1_000_000
            hits = min(10 ** 6, max(0, int(np.floor(self.params[point][0] * 10 ** 6))))
            out = [(a, p) for a, p in ((1, Fraction(hits, 10 ** 6)), (0, 1 - Fraction(hits, 10 ** 6))) if p]
        else:
            state = np.zeros(BATTLE_STATE_SIZE, np.int64)
            state[:8] = legal
            state[8:8 + len(header)] = header
            state[BS_OWN:BS_OWN + len(own)] = own
            stream = np.zeros(2, np.uint64)
            action = int(self.builtin(self.points.index(point), code, self.params[point], state, stream))
            if stream[1] != 0:
                raise ExactNotSupported(f"{self.s.name}: the {name!r} policy of {point!r} draws dice; the exact "
                                        "solver supports deterministic built-ins and 'random'")
            out = [(action, Fraction(1))]
        for action, _ in out:
            if not (0 <= action < 8 and legal[action]):
                raise ExactNotSupported(f"{self.s.name}: the {name!r} policy of {point!r} returned the illegal "
                                        f"action {action}")
        self.decisions[key] = out
        return out

    def decide_one(self, point, legal, own=(), header=(0, 0, 0, 0, 0, 0, 0)):
        """The action of a point whose built-in must be deterministic here (orders and pairings)."""
        out = self.decide(point, legal, own, header)
        if len(out) != 1:
            raise ExactNotSupported(f"{self.s.name}: a random {point!r} policy is not supported by the exact solver")
        return out[0][0]

    # -------------------------------------------------------------- set-up (5.7.6, 5.7.8)
    def roman_commander(self):
        """DP-B01: the commanding Roman leader's slot, or None for a leaderless army."""
        leaders = self.s.roman_leaders
        if not leaders:
            return None
        if len(leaders) == 1:
            return 0
        units = self.s.roman_units
        n_inf = sum(u["kind"] == "infantry" for u in units)
        n_cav = len(units) - n_inf
        legal = [0] * 8
        own = []
        for i, leader in enumerate(leaders):
            cap_inf, cap_cav = CAPACITY[leader["rank"]]
            fieldable = min(n_inf, cap_inf) + min(n_cav, cap_cav)
            legal[i] = 1 if fieldable >= self.min_units(ROME) else 0
            own += [RANKS[leader["rank"]], leader["virtus"], leader["astutia"]]
        if not any(legal):
            legal[:len(leaders)] = [1] * len(leaders)
        return self.decide_one("commander", legal, own, (PHASE_SETUP, 0, 0, 0, 0, len(units), len(self.s.nr_units)))

    def min_units(self, side):
        """KOR-A14: the side that initiates needs 3 units (both sides with ``battle_min_units_scope = both``)."""
        initiator = ROME if self.roman_action else NR
        return 3 if (side == initiator or self.s.battle_min_units_scope == "both") else 0

    def roman_participants(self, commander):
        """DP-B02: the Roman units that take part, asked strongest first within the commander's capacity."""
        units = self.s.roman_units
        cap_inf, cap_cav = CAPACITY[self.s.roman_leaders[commander]["rank"]] if commander is not None else (4, 2)
        order = sorted(range(len(units)), key=lambda i: (-units[i]["virtus"], i))
        fitting = []
        room = [cap_inf, cap_cav]
        for i in order:
            kind = INFANTRY if units[i]["kind"] == "infantry" else CAVALRY
            if room[kind] > 0:
                room[kind] -= 1
                fitting.append(i)
        chosen = []
        room = [cap_inf, cap_cav]
        for k, i in enumerate(fitting):
            u = units[i]
            kind = INFANTRY if u["kind"] == "infantry" else CAVALRY
            still_possible = len(fitting) - k  # this unit and the fitting ones after it
            if len(chosen) + still_possible <= self.min_units(ROME):
                take = 1  # needed to reach 3 units: not asked
            else:
                own = (kind, u["virtus"], u["roman_class"], room[0], room[1], len(chosen))
                take = self.decide_one("participants", [1, 1, 0, 0, 0, 0, 0, 0], own,
                                       (PHASE_SETUP, 0, 0, 0, 0, len(units), len(self.s.nr_units)))
            if take:
                room[kind] -= 1
                chosen.append(i)
        return [self.roman_unit(i) for i in sorted(chosen)]

    def roman_unit(self, i):
        u = self.s.roman_units[i]
        kind = INFANTRY if u["kind"] == "infantry" else CAVALRY
        return Unit((ROME, i, kind, u["virtus"], 1 if kind == CAVALRY else u["roman_class"], u["back"] == "captivi"))

    def nr_commander(self):
        """DP-B01 for the NR bot: highest Astutia, then highest Virtus, then the first listed."""
        leaders = self.s.nr_leaders
        if not leaders:
            return None
        return min(range(len(leaders)), key=lambda i: (-leaders[i]["astutia"], -leaders[i]["virtus"], i))

    def nr_participants(self):
        """NR bot (DP-B02 proposal): the highest-Virtus units up to 4 infantry + 2 cavalry (KOR-A40)."""
        units = self.s.nr_units
        unlimited = self.s.nr_leaderless_capacity == "unlimited" and not self.s.nr_leaders
        room = [8, 8] if unlimited else [4, 2]
        chosen = []
        for i in sorted(range(len(units)), key=lambda i: (-units[i]["virtus"], i)):
            kind = INFANTRY if units[i]["kind"] == "infantry" else CAVALRY
            if room[kind] > 0:
                room[kind] -= 1
                chosen.append(i)
        return [Unit((NR, i, INFANTRY if units[i]["kind"] == "infantry" else CAVALRY, units[i]["virtus"], 0,
                      units[i]["back"] == "captivi")) for i in sorted(chosen)]

    def pre_battle_penalties(self, roman, nr, roman_led, nr_led):
        """5.7.8 P1-P7 (spec 2.1.5) with KOR-A26, A27, A28: (Roman points, NR points)."""
        s = self.s
        pen = [0, 0]
        pen[ROME] += 0 if roman_led else 1  # P1
        pen[NR] += 0 if nr_led else 1
        against = {ROME: list(s.roman_adjacent_garrisons), NR: list(s.nr_adjacent_garrisons)}
        if s.adjacent_includes_battle_hex and s.hex_garrison > 0:
            against[ROME if s.hex_garrison_side == "nr" else NR].append(s.hex_garrison)
        for side, values in against.items():  # P2 / P3
            if s.adjacent_garrison_penalty == "max_not_sum":
                pen[side] += (2 if 3 in values else 1) if values else 0
            else:
                pen[side] += sum(2 if v == 3 else 1 for v in values)
        # P4/P5 "une unité de l'armée": any unit of the army (KOR-A28 back_side_scope whole_army), or the
        # participants only
        if s.back_side_scope == "whole_army":
            army_r, army_n = s.roman_units, s.nr_units
        else:
            army_r, army_n = [s.roman_units[u.slot] for u in roman], [s.nr_units[u.slot] for u in nr]
        backs_r = sum(u["back"] == s.nr_people for u in army_r)  # P4
        backs_n = sum(u["back"] in ("roman_I", "roman_II", "roman_III") for u in army_n)  # P5
        if s.back_side_penalty == "once":
            backs_r, backs_n = min(backs_r, 1), min(backs_n, 1)
        pen[ROME] += backs_r
        pen[NR] += backs_n
        if s.cavalry_count_basis == "participants_plus_commander":  # P6
            cav = [sum(u.kind == CAVALRY for u in roman) + roman_led, sum(u.kind == CAVALRY for u in nr) + nr_led]
        else:
            cav = [sum(u["kind"] == "cavalry" for u in s.roman_units) + len(s.roman_leaders),
                   sum(u["kind"] == "cavalry" for u in s.nr_units) + len(s.nr_leaders)]
        if cav[ROME] != cav[NR]:
            pen[ROME if cav[ROME] < cav[NR] else NR] += 2
        if s.nr_people in ("etruscans", "gauls"):  # P7 (KOR-A28: against Rome)
            pen[ROME] += 2
        return pen

    # -------------------------------------------------------------- the battle, step by step (spec 2.1.0)
    def outcomes(self):
        """An ``_Outcome``: the exact distribution of the final record and the expected phase-3 rounds."""
        s = self.s
        out = _Outcome()
        self.commander_rank = None
        self.pre = (0, 0)
        if self.roman_action and s.nr_city_in_hex:
            # 5.7.1: the NR army withdraws inside its walls; the battle becomes a siege (KOR-A16)
            out.add(_book(_start_book(0, 0), ENDING="withdrawal"), Fraction(1))
            return out
        commander = self.roman_commander()
        roman = self.roman_participants(commander)
        nr = self.nr_participants()
        nr_commander = self.nr_commander()
        self.commander_rank = s.roman_leaders[commander]["rank"] if commander is not None else None
        self.roman_leader = (s.roman_leaders[commander]["virtus"], s.roman_leaders[commander]["astutia"]) \
            if commander is not None else None
        self.nr_leader = (s.nr_leaders[nr_commander]["virtus"], s.nr_leaders[nr_commander]["astutia"]) \
            if nr_commander is not None else None
        self.subordinates = [leader["rank"] for i, leader in enumerate(s.roman_leaders) if i != commander]
        self.nr_infantry_all = sum(u["kind"] == "infantry" for u in s.nr_units)
        self.nr_infantry_in = sum(u.kind == INFANTRY for u in nr)
        pen = self.pre_battle_penalties(roman, nr, commander is not None, nr_commander is not None)
        self.pre = tuple(pen)
        book = _start_book(*pen)
        field = (tuple(roman), tuple(nr), self.roman_leader is not None, self.nr_leader is not None, book,
                 self.roman_leader[1] if self.roman_leader else 0, self.nr_leader[1] if self.nr_leader else 0)
        if self.ambush and s.ambush_battle_phases == "phase3_only":
            self.phase3(field, Fraction(1), out)  # 6.4 c: no tactic markers, straight to phase 3 (KOR-A44)
        else:
            self.spolia_opima(field, Fraction(1), out)
        self.flow_phase3(out)
        return out

    def header(self, phase, field, rounds=0):
        roman, nr, _, _, book, points_r, _ = field
        return (phase, rounds, book[PEN_R], book[PEN_N], points_r, len(roman), len(nr))

    def spolia_opima(self, field, weight, out):
        """5.7.2.1 with KOR-A17/A18: the Roman player may challenge; the duel replaces the battle."""
        roman, nr, led_r, led_n, book, _, _ = field
        if not (led_r and led_n) or self.ambush:  # DP-B03 is not offered in an ambush (contract section 4)
            return self.tactics(field, weight, out)
        (vr, ar), (vn, an) = self.roman_leader, self.nr_leader
        choices = self.decide("spolia", [1, 1, 0, 0, 0, 0, 0, 0], (vr, ar, vn, an, self.omen),
                              self.header(PHASE_TACTICS, field))
        for challenge, wc in choices:
            if not challenge:
                self.tactics(field, weight * wc, out)
                continue
            p_r = Fraction(faces(ar + self.omen, vn), 6)
            p_n = Fraction(faces(an, vr), 6)
            miss = (1 - p_r) * (1 - p_n)
            mode = self.s.spolia_round_mode
            if mode == "sequential_roman_first":
                ends = {"win": p_r, "loss": (1 - p_r) * p_n}
            else:
                ends = {"win": p_r * (1 - p_n), "loss": (1 - p_r) * p_n, "both": p_r * p_n}
            if mode == "simultaneous_single_round" or miss == 1:
                # a round without a hit ends the duel as if it had been declined (contract section 6)
                self.tactics(field, weight * wc * miss, out)
                scale = 1
            else:
                scale = 1 / (1 - miss)
            for result, p in ends.items():
                if not p:
                    continue
                w = weight * wc * p * scale
                if result == "both":
                    # both leaders die; the battle goes on from 5.7.3 without leaders (penalties kept)
                    after = _book(book, LEADER_R=True, LEADER_N=True, SPOLIA="both")
                    self.tactics((roman, nr, False, False, after, 0, 0), w, out)
                else:
                    won = result == "win"
                    end = _book(book, ENDING="spolia", SPOLIA=result, LEADER_N=won, LEADER_R=not won,
                                NR_INF_LEFT=sum(u.kind == INFANTRY for u in nr), ROMAN_LEFT=len(roman))
                    out.add(end, w)

    def tactics(self, field, weight, out):
        """5.7.3: the Roman marker (DP-B04), then the NR draw (KOR-A19)."""
        roman, nr = field[:2]
        strength_r = sum(u.virtus + self.class_drm(u) for u in roman)
        strength_n = sum(u.virtus for u in nr)
        own = (strength_r, strength_n, sum(u.kind == CAVALRY for u in roman), sum(u.kind == CAVALRY for u in nr),
               *self.tactic_estimates(field))
        for roman_attacks, wr in self.decide("tactic", [1, 1, 0, 0, 0, 0, 0, 0], own,
                                             self.header(PHASE_TACTICS, field)):
            for nr_attacks, wn in self.nr_tactic(roman_attacks):
                self.phase2(field, roman_attacks, nr_attacks, weight * wr * wn, out)

    def tactic_estimates(self, field):
        """DP-B04's ``attack_estimate`` and ``defence_estimate`` (``policies.tactic_estimates``, in thousandths),
        from the same inputs as the kernel's ``tactic_inputs``: the units in slot order, their track points
        (5.7.8), the NR commander's Astutia, KOR-A19, A20, A23, A24."""
        roman, nr, _, led_n, book = field[:5]
        arrays = np.zeros((2, 5, 8), np.int64)
        for side, units in ((ROME, roman), (NR, nr)):
            for k, u in enumerate(sorted(units, key=lambda u: u.slot)):
                cav = u.kind == CAVALRY
                arrays[side, 0, k], arrays[side, 1, k] = u.virtus, cav
                if side == ROME:
                    arrays[side, 2, k] = self.class_drm(u)
                    arrays[side, 3, k] = 3 if cav else (2 if u.roman_class <= 2 else 1)
                    arrays[side, 4, k] = cav or u.roman_class <= 2
                else:
                    arrays[side, 3, k] = 3 if cav else self.nr_infantry_points
        s = self.s
        marker_first = s.vanguard_first_roller == "attack_marker"
        if s.nr_tactic_draw == "coin_flip":
            if_attack = if_defence = 0.5
        else:
            total = s.tactic_pool_attack + s.tactic_pool_defence - 1
            if_attack, if_defence = (s.tactic_pool_attack - 1) / total, s.tactic_pool_attack / total
        attack, defence = tactic_estimates(
            arrays[ROME, 0], arrays[ROME, 1], arrays[ROME, 2], arrays[ROME, 3], arrays[ROME, 4], len(roman),
            arrays[NR, 0], arrays[NR, 1], arrays[NR, 3], len(nr), self.omen, book[PEN_R], book[PEN_N],
            self.nr_leader[1] if led_n else 0, True if marker_first else self.rome_attacks,
            False if marker_first else self.rome_attacks, if_attack, if_defence, s.roman_may_decline_phase3,
            s.retreat_round_trigger == "no_cavalry")
        return int(np.floor(1000.0 * attack + 0.5)), int(np.floor(1000.0 * defence + 0.5))

    def nr_tactic(self, roman_attacks):
        name = self.names["nr_tactic"]
        if name == "attack":
            return [(1, Fraction(1))]
        if name == "defence":
            return [(0, Fraction(1))]
        if self.s.nr_tactic_draw == "coin_flip":
            return [(1, Fraction(1, 2)), (0, Fraction(1, 2))]
        # the Roman's marker comes out of the pool; the NR draws one of the others
        attack, defence = self.s.tactic_pool_attack, self.s.tactic_pool_defence
        attack -= roman_attacks
        defence -= 1 - roman_attacks
        p = Fraction(attack, attack + defence)
        return [(a, q) for a, q in ((1, p), (0, 1 - p)) if q]

    def class_drm(self, unit):
        """5.7.9: Roman infantry class II +1, class I +2; Roman cavalry +2 only with KOR-A21 ``plus2``."""
        if unit.side != ROME:
            return 0
        if unit.kind == CAVALRY:
            return 2 if self.s.roman_cavalry_class_drm == "plus2" else 0
        return {1: 2, 2: 1}.get(unit.roman_class, 0)

    # -------------------------------------------------------------- phase 2 (5.7.4)
    def phase2(self, field, roman_attacks, nr_attacks, weight, out):
        roman, nr = field[:2]
        both_cavalry = any(u.kind == CAVALRY for u in roman) and any(u.kind == CAVALRY for u in nr)
        if not roman_attacks and not nr_attacks:
            # DEFENCE vs DEFENCE: at most the clash, never phase 3, no winner
            after = self.vanguard_clash(field, self.rome_attacks) if both_cavalry else [(field, Fraction(1))]
            for f, w in after:
                out.add(self.finish(f, "defence_defence"), weight * w)
            return
        if roman_attacks and nr_attacks:
            return self.gate(field, weight, out)  # ATTACK vs ATTACK: phase 2 is skipped
        defender = NR if roman_attacks else ROME  # the side that chose DEFENCE
        # KOR-A20: "en commençant par l'attaquant" is the side that entered the hex (5.7.2), or with
        # attack_marker the side that chose ATTACK
        rome_first = roman_attacks if self.s.vanguard_first_roller == "attack_marker" else self.rome_attacks
        after = self.vanguard_clash(field, rome_first) if both_cavalry else [(field, Fraction(1))]
        # 5.7.4: the DEFENCE side retreats when "il ne lui reste plus de cavalerie", the cavalry it had being
        # gone; an army that never had any goes to phase 3 (KOR-A23 retreat_round_trigger = no_cavalry: retreats)
        had_cavalry = any(u.kind == CAVALRY for u in field[defender])
        retreat_without = self.s.retreat_round_trigger == "no_cavalry"
        for f, w in after:
            w = weight * w
            if not any(u.kind == CAVALRY for u in f[defender]) and (had_cavalry or retreat_without):
                self.retreat_round(f, attack_side=1 - defender, weight=w, out=out)
            elif not both_cavalry:
                self.gate(f, w, out)
            else:
                winner = self.track_winner(f[4])
                if winner == ROME:
                    for go, wg in self.decide("continue_after_clash", [1, 1, 0, 0, 0, 0, 0, 0], (),
                                              self.header(PHASE_CLASH, f)):
                        if go:
                            self.gate(f, w * wg, out, ask=False)
                        else:
                            out.add(self.finish(f, "stopped"), w * wg)
                elif winner == NR:
                    # the NR engages only if d6 > its commander's Astutia (0 when leaderless, KOR-A40)
                    astutia = self.nr_leader[1] if f[3] else 0
                    go = Fraction(faces(0, astutia), 6)
                    if go:
                        self.gate(f, w * go, out)
                    if go != 1:
                        out.add(self.finish(f, "stopped"), w * (1 - go))
                else:
                    out.add(self.finish(f, "stopped"), w)

    def track_winner(self, book):
        """5.7.7/5.7.11: the score closer to 0 wins (scores stop at -19); ties per KOR-A29."""
        score_r, score_n = -min(book[PEN_R], TRACK_STOP), -min(book[PEN_N], TRACK_STOP)
        if score_r != score_n:
            return ROME if score_r > score_n else NR
        rule = self.s.battle_tie_rule
        if rule == "no_winner":
            return None
        attacker = ROME if self.rome_attacks else NR
        return attacker if rule == "attacker_wins" else 1 - attacker

    def roll(self, side, f, points, grant, header, own):
        """``[(hit, points left, probability)]`` of one die hitting on ``f`` faces, rerolled after a miss while
        the leader grants Astutia (C3): the NR greedily, Rome per DP-B11; only a die that could still win.
        5.7.9: a point of Astutia affects one attack, so a die is rerolled once; KOR-A22 ``chained``
        rerolls it again while points last."""
        p = Fraction(f, 6)
        if f == 0:
            return [(False, points, Fraction(1))]
        out, w = [], Fraction(1)
        rerolls = 0
        chained = self.s.astutia_reroll == "chained"
        while True:
            out.append((True, points, w * p))
            w *= 1 - p
            if not w:
                return out
            if grant and points > 0 and (chained or rerolls == 0) and (side == NR or self.decide_one(
                    "reroll", [1, 1, 0, 0, 0, 0, 0, 0], own, header[:4] + (points,) + header[5:])):
                points -= 1
                rerolls += 1
                continue
            out.append((False, points, w))
            return out

    def all_rolls(self):
        return self.s.astutia_scope_battle == "all_battle_rolls"

    def pairs(self, field, kind, point, phase):
        """``[(Roman unit, NR unit)]`` of ``kind`` for the clash (DP-B05) or the retreat round (DP-B08): each NR unit,
        strongest first, is faced by the Roman unit the decision point picks among those still free."""
        roman, nr = field[0], field[1]
        ours = [u for u in roman if u.kind == kind]
        theirs = sorted((u for u in nr if u.kind == kind), key=lambda u: (-u.virtus, u.slot))
        pairs, free = [], list(ours)
        for v in theirs[:len(ours)]:
            legal = [0] * 8
            own = [v.virtus] + [0] * 8
            for u in free:
                legal[u.slot] = 1
                own[1 + u.slot] = u.virtus
            slot = self.decide_one(point, legal, own, self.header(phase, field))
            u = next(u for u in free if u.slot == slot)
            free.remove(u)
            pairs.append((u, v))
        return pairs

    def vanguard_clash(self, field, rome_first):
        """5.7.4 VC with KOR-A20 equal_numbers / pair_duels: ``[(field after, probability)]``.

        The NR keeps its strongest cavalry; DP-B05 picks the Roman cavalry facing each NR cavalry, strongest
        first. Each pair fights to the death, Rome's unit rolling first iff ``rome_first``; a pair in which neither
        die can succeed rejoins its armies (contract section 6)."""
        roman, nr, led_r, led_n, book, pts_r, pts_n = field
        pairs = self.pairs(field, CAVALRY, "vanguard_pairing", PHASE_CLASH)
        states = {(pts_r, pts_n, ()): Fraction(1)}
        for u, v in pairs:
            attacker, target = (u, v) if rome_first else (v, u)
            nxt = defaultdict(Fraction)
            for (pr, pn, lost), w in states.items():
                for (loser, pr2, pn2), q in self.pair_duel(attacker, target, pr, pn, field).items():
                    nxt[(pr2, pn2, lost + ((loser,) if loser else ()))] += w * q
            states = nxt
        result = []
        for (pr, pn, lost), w in states.items():
            result.append((self.remove(field, lost, pr, pn), w))
        return result

    def remove(self, field, lost, pts_r, pts_n):
        roman, nr, led_r, led_n, book, _, _ = field
        return (tuple(u for u in roman if u not in lost), tuple(u for u in nr if u not in lost), led_r, led_n,
                _lose_units(book, lost, self.nr_infantry_points), pts_r, pts_n)

    def drm(self, unit, phase3=False):
        """The DRM of a unit's die: Good Omen for Rome (9.5.7.1, KOR-A58), plus the class DRM in phase 3; the
        KOR-A21 ``plus2`` of Roman cavalry also in the vanguard clash (spec 2.1.8 names KOR-A21 there)."""
        if unit.side != ROME:
            return 0
        if phase3 or unit.kind == CAVALRY:
            return self.omen + self.class_drm(unit)
        return self.omen

    def pair_duel(self, first, second, pts_r, pts_n, field):
        """One vanguard pair to the death: ``{(the unit lost or None, Roman points, NR points): probability}``."""
        f_first = faces(self.drm(first), second.virtus)
        f_second = faces(self.drm(second), first.virtus)
        if f_first == 0 and f_second == 0:
            return {(None, pts_r, pts_n): Fraction(1)}
        grant = self.all_rolls()
        memo = {}

        def duel(pr, pn):
            if (pr, pn) in memo:
                return memo[(pr, pn)]
            pts = [pr, pn]
            header = self.header(PHASE_CLASH, field[:5] + (pr, pn))
            out, stay = defaultdict(Fraction), Fraction(0)
            for hit, left, p in self.roll(first.side, f_first, pts[first.side], grant and field[2 + first.side],
                                          header, (0, first.virtus, second.virtus, self.drm(first))):
                after = list(pts)
                after[first.side] = left
                if hit:
                    out[(second, after[0], after[1])] += p
                    continue
                for hit2, left2, q in self.roll(second.side, f_second, after[second.side],
                                                grant and field[2 + second.side], header,
                                                (0, second.virtus, first.virtus, self.drm(second))):
                    final = list(after)
                    final[second.side] = left2
                    if hit2:
                        out[(first, final[0], final[1])] += p * q
                    elif tuple(final) == (pr, pn):
                        stay += p * q
                    else:
                        for key, r in duel(*final).items():
                            out[key] += p * q * r
            result = {key: p / (1 - stay) for key, p in out.items()}
            memo[(pr, pn)] = result
            return result

        return duel(pts_r, pts_n)

    def retreat_round(self, field, attack_side, weight, out):
        """5.7.4: the side that chose DEFENCE has no cavalry left: one simultaneous round of infantry pairs
        (DP-B08 pairing), then it retreats and the battle ends (KOR-A23)."""
        roman, nr, led_r, led_n, book, pts_r, pts_n = field
        pairs = self.pairs(field, INFANTRY, "retreat_pairing", PHASE_RETREAT)
        grant = self.all_rolls()
        header = self.header(PHASE_RETREAT, field)
        states = {(pts_r, pts_n, ()): Fraction(1)}
        for u, v in pairs:
            nxt = defaultdict(Fraction)
            for (pr, pn, lost), w in states.items():
                pts = [pr, pn]
                rolls = []
                for unit, target in ((u, v), (v, u)):
                    drm = self.retreat_drm(unit, attack_side)
                    rolls.append([(hit, left, p) for hit, left, p in self.roll(
                        unit.side, faces(drm, target.virtus), pts[unit.side], grant and field[2 + unit.side],
                        header[:4] + (pts[ROME],) + header[5:], (0, unit.virtus, target.virtus, drm))])
                for hit_r, left_r, p in rolls[0]:
                    for hit_n, left_n, q in rolls[1]:
                        dead = ((v,) if hit_r else ()) + ((u,) if hit_n else ())
                        nxt[(left_r, left_n, lost + dead)] += w * p * q
            states = nxt
        for (pr, pn, lost), w in states.items():
            out.add(self.finish(self.remove(field, lost, pr, pn), "retreat_round"), weight * w)

    def retreat_drm(self, unit, attack_side):
        """5.7.4 retreat round: Roman infantry of class I-II +1 (KOR-A23: also when retreating, by default),
        Good Omen +1 for Rome; the retreating side's dice -1."""
        drm = self.omen if unit.side == ROME else 0
        attacking = unit.side == attack_side
        if unit.side == ROME and unit.roman_class <= 2 and (
                attacking or self.s.retreat_round_class_drm == "all_roman_infantry_rolls"):
            drm += 1
        return drm if attacking else drm - 1

    def gate(self, field, weight, out, ask=True):
        """5.7.5: Rome may decline phase 3 (DP-B07, KOR-A24) unless it has just chosen it (DP-B06)."""
        if ask and self.s.roman_may_decline_phase3:
            choices = self.decide("fight_phase3", [1, 1, 0, 0, 0, 0, 0, 0], (), self.header(PHASE_CLASH, field))
        else:
            choices = [(1, Fraction(1))]
        for fight, w in choices:
            if not fight:
                out.add(self.finish(field, "stopped"), weight * w)
            else:
                self.phase3(field, weight * w, out)

    def finish(self, field, ending):
        roman, nr, led_r, led_n, book, _, _ = field
        return _book(book, ENDING=ending, NR_INF_LEFT=sum(u.kind == INFANTRY for u in nr), ROMAN_LEFT=len(roman))

    # -------------------------------------------------------------- phase 3 (5.7.6, 5.7.9, 5.7.10, 5.7.11)
    def phase3(self, field, weight, out):
        """Set-up (5.7.6: NR box order uniformly random, DP-B09, DP-B10), then the rounds."""
        roman, nr, led_r, led_n, book, pts_r, pts_n = field
        book = _book(book, PHASE3=True)
        header = self.header(PHASE_3, field)
        front_r, placed = [], set()
        for box in range(FRONT):
            left = [u for u in roman if u.slot not in placed]
            kinds = INFANTRY if any(u.kind == INFANTRY for u in left) else CAVALRY
            legal, own = [0] * 8, [box] + [0] * 8
            for u in left:
                if u.kind == kinds:
                    legal[u.slot] = 1
                    own[1 + u.slot] = u.virtus
            if not any(legal):
                front_r.append(None)
                continue
            slot = self.decide_one("deployment", legal, own, header)
            placed.add(slot)
            front_r.append(next(u for u in left if u.slot == slot))
        reserve_r = tuple(_sorted(u for u in roman if u.slot not in placed))
        lead_r = None
        if led_r:
            legal = [1 if u is not None else 0 for u in front_r] + [1, 0, 0, 0, 0]
            own = (self.roman_leader[1],) + tuple(u.virtus if u is not None else 0 for u in front_r)
            choices = self.decide("leader_position", legal, own, header)
        else:
            choices = [(None, Fraction(1))]
        chosen_n = _sorted(u for u in nr if u.kind == INFANTRY)[:FRONT]
        chosen_n += _sorted(u for u in nr if u.kind == CAVALRY)[:FRONT - len(chosen_n)]
        reserve_n = tuple(_sorted(u for u in nr if u not in chosen_n))
        padded = chosen_n + [None] * (FRONT - len(chosen_n))
        if self.ambush:
            # 6.4 c: the NR faces the weakest Roman units with its strongest (ties: box order; empty boxes last)
            boxes = sorted(range(FRONT), key=lambda b: (front_r[b].virtus if front_r[b] is not None else 99, b))
            order = [None] * FRONT
            for box, unit in zip(boxes, padded):
                order[box] = unit
            orders = [tuple(order)]
        else:
            orders = list(permutations(padded))
        for lead_r, wl in choices:
            for order in orders:
                lead_n = None
                if led_n and any(order):
                    best = max(u.virtus for u in order if u is not None)
                    lead_n = next(b for b, u in enumerate(order) if u is not None and u.virtus == best)
                # in the first round of an ambush battle the Roman units do not roll (6.4 c); a box no unit
                # filled at the set-up never ends the battle (5.7.11 ends it for boxes left empty by eliminations)
                unfilled = (frozenset(b for b, u in enumerate(front_r) if u is None),
                            frozenset(b for b, u in enumerate(order) if u is None))
                state = (tuple(front_r), tuple(order), reserve_r, reserve_n, lead_r, lead_n, pts_r, pts_n, book,
                         self.ambush, unfilled)
                self.mass[state] = self.mass.get(state, Fraction(0)) + weight * wl / len(orders)

    def flow_phase3(self, out):
        """Carry the probability mass of every phase-3 state forward to the ends of the battle.

        A round either changes nothing (a loop, divided out: the state is left with probability 1 - stay after
        1 / (1 - stay) rounds on average) or lowers ``progress``: units alive, then Astutia points and leaders. So
        taking the states in decreasing ``progress`` settles each one once, all its mass having arrived.
        """
        heap = [(self.progress(state), k, state) for k, state in enumerate(self.mass)]
        heapq.heapify(heap)
        count = len(heap)
        while heap:
            _, _, state = heapq.heappop(heap)
            m = self.mass.pop(state)
            moves = None if self.ended(state[:2], state[10]) else self.combat_round(state)
            if not moves:
                # an empty front box ends the battle at once (5.7.11); so does a phase 3 no die can change
                front_r, front_n, reserve_r, reserve_n = state[:4]
                book = state[8]
                alive = [u for u in front_r + reserve_r if u is not None]
                nr_alive = [u for u in front_n + reserve_n if u is not None]
                out.add(_book(book, ENDING="phase3", NR_INF_LEFT=sum(u.kind == INFANTRY for u in nr_alive),
                              ROMAN_LEFT=len(alive)), m)
                continue
            den, moves = moves
            leaving = m / (1 - Fraction(moves.pop(state, 0), den))
            out.rounds += leaving
            for nxt, w in moves.items():
                if nxt not in self.mass:
                    self.mass[nxt] = Fraction(0)
                    count += 1
                    heapq.heappush(heap, (self.progress(nxt), count, nxt))
                self.mass[nxt] += leaving * Fraction(w, den)

    @staticmethod
    def progress(state):
        """Heap key: more units alive first, then more Astutia points and leaders (negated for a min-heap), then
        the silent first round of an ambush."""
        front_r, front_n, reserve_r, reserve_n, lead_r, lead_n, pts_r, pts_n, _, silent, _ = state
        alive = sum(u is not None for u in front_r + front_n) + len(reserve_r) + len(reserve_n)
        # an ambush's silent first round leads to the same screen with the Romans rolling: settle it first
        return (-alive, -(pts_r + pts_n + (lead_r is not None) + (lead_n is not None)), not silent)

    @staticmethod
    def ended(fronts, unfilled):
        """END CHECK (5.7.11): a front box of either side without a unit (a leader alone counts as empty, KOR-A32)
        that a unit held, "laissée vide par des unités éliminées"; boxes ``unfilled`` at the set-up do not count."""
        return any(u is None and b not in unfilled[side] for side in (ROME, NR) for b, u in enumerate(fronts[side]))

    def can_attack_leader(self, side, state):
        """Whether a reserve cavalry of ``side`` could still hit the enemy commander in a front box (5.7.10 b)."""
        enemy_lead = state[5 - side]
        if enemy_lead is None or enemy_lead == RESERVE:
            return False
        if side == NR and self.s.nr_reserve_cav_fallback != "attack_leader":
            return False
        leader = self.nr_leader if side == ROME else self.roman_leader
        best = faces(self.omen if side == ROME else 0, leader[0], self.s.leader_attack_test == "ge")
        return best > 0 and any(u.kind == CAVALRY for u in state[2 + side])

    def may_attack(self, unit, target):
        """5.7.9-5.7.10: a unit attacks the unit in the opposite box (a short line's box may be empty); NR cavalry
        attacks only Roman infantry of class III-V, every other unit any enemy unit."""
        if unit is None or target is None:
            return False
        if unit.side == NR and unit.kind == CAVALRY:
            return target.kind == INFANTRY and target.roman_class >= 3
        return True

    def combat_round(self, state):
        """One phase-3 round (5.7.9): ``(denominator, {next state: integer weight})``, or None when no die can
        succeed (a silent Roman first round of an ambush still counts the Roman dice as able to)."""
        front_r, front_n, reserve_r, reserve_n, lead_r, lead_n, pts_r, pts_n, book, silent, unfilled = state
        fronts = (front_r, front_n)
        leads = (lead_r, lead_n)
        pts = (pts_r, pts_n)
        per_side = []
        can_hit = False
        for side in (ROME, NR):
            grant = leads[side] is not None and leads[side] != RESERVE
            dice = []
            for box in range(FRONT):
                unit, target = fronts[side][box], fronts[1 - side][box]
                if self.may_attack(unit, target):
                    drm = self.drm(unit, phase3=True)
                    dice.append((box, faces(drm, target.virtus), (0, unit.virtus, target.virtus, drm)))
            can_hit = can_hit or any(f > 0 for _, f, _ in dice)
            if side == ROME and silent:
                dice = []
            per_side.append(self.side_dice(side, tuple(dice), grant, pts[side]))
        if not can_hit and not any(self.can_attack_leader(side, state) for side in (ROME, NR)):
            return None
        (den_r, dist_r), (den_n, dist_n) = per_side
        kinds_before = tuple(tuple(u.kind if u is not None else None for u in front) for front in fronts)
        reserves = {}
        for hits_on_n in dist_r:
            for hits_on_r in dist_n:
                lost = [front_r[b] for b in hits_on_r] + [front_n[b] for b in hits_on_n]
                after = (tuple(None if b in hits_on_r else u for b, u in enumerate(front_r)),
                         tuple(None if b in hits_on_n else u for b, u in enumerate(front_n)),
                         reserve_r, reserve_n, lead_r, lead_n, pts_r, pts_n,
                         _lose_units(book, lost, self.nr_infantry_points))
                reserves[(hits_on_n, hits_on_r)] = self.reserve_step(
                    after, (frozenset(hits_on_r), frozenset(hits_on_n)), kinds_before, unfilled)
        common = 1
        for den, _ in reserves.values():
            common = common * den // gcd(common, den)
        moves = defaultdict(int)
        for (hits_on_n, hits_on_r), (den, after) in reserves.items():
            scale = common // den
            for left_r, p in dist_r[hits_on_n].items():
                for left_n, q in dist_n[hits_on_r].items():
                    pq = p * q * scale
                    for nxt, r in after.items():
                        # the points left come from the dice; a leader killed in the reserve step has none
                        key = nxt[:6] + (left_r if nxt[4] is not None else 0, left_n if nxt[5] is not None else 0,
                                         nxt[8], False, unfilled)
                        moves[key] += pq * r
        return den_r * den_n * common, moves

    def side_dice(self, side, dice, grant, points):
        """One side's dice of a round, box by box (C3 rerolls): ``(denominator, {boxes hit: {points left:
        weight}})`` with integer weights.

        The reroll built-ins read only the points left (DP-B11), so the other header entries are left at 0 and
        the result is shared by every state with the same dice."""
        key = (side, dice, grant, points)
        if key not in self.side_rolls:
            dist = {((), points): Fraction(1)}
            for box, f, own in dice:
                nxt = defaultdict(Fraction)
                for (hits, left), w in dist.items():
                    for hit, after, p in self.roll(side, f, left, grant, (PHASE_3, 0, 0, 0, left, 0, 0), own):
                        nxt[(hits + ((box,) if hit else ()), after)] += w * p
                dist = nxt
            den, weights = _integer_weights(dist)
            nested = defaultdict(dict)
            for (hits, left), w in weights.items():
                nested[hits][left] = w
            self.side_rolls[key] = den, dict(nested)
        return self.side_rolls[key]

    def reserve_step(self, state, vacated, kinds_before, unfilled):
        """5.7.9 a / 5.7.10 reserve step after the hits: infantry, then cavalry, both sides at once (boxes are
        chosen facing the enemy front as the hits left it). ``(denominator, {next state: integer weight})``.

        The reserve cavalry that attack a leader roll only when every unit has moved and the battle goes on: a box
        left empty ends it at once, "n'effectuez pas d'autres lancers de Dés" (5.7.11)."""
        front_r, front_n, reserve_r, reserve_n, lead_r, lead_n, pts_r, pts_n, book = state
        fronts, reserves, leads = (front_r, front_n), (reserve_r, reserve_n), (lead_r, lead_n)
        sides = []
        for side in (ROME, NR):
            enemy_lead = leads[1 - side]
            key = (side, fronts[side], reserves[side], fronts[1 - side],
                   enemy_lead is not None and enemy_lead != RESERVE, vacated[side], kinds_before[side])
            if key not in self.reserves:
                self.reserves[key] = _integer_weights(self.reserve_side(*key))
            sides.append(self.reserves[key])
        (den_r, dist_r), (den_n, dist_n) = sides
        moves = defaultdict(Fraction)
        for (f_r, r_r, attacks_r), p in dist_r.items():
            for (f_n, r_n, attacks_n), q in dist_n.items():
                w = Fraction(p * q, den_r * den_n)
                if self.ended((f_r, f_n), unfilled):
                    attacks_r = attacks_n = ()
                # each attack hits with its own faces; the leader survives only if every one misses
                survive_n = _product(1 - Fraction(f, 6) for f in attacks_r)
                survive_r = _product(1 - Fraction(f, 6) for f in attacks_n)
                for killed_r, pr in ((False, survive_r), (True, 1 - survive_r)):
                    for killed_n, pn in ((False, survive_n), (True, 1 - survive_n)):
                        if not pr * pn:
                            continue
                        after = book
                        if killed_r or killed_n:
                            after = _book(book, LEADER_R=book[LEADER_R] or killed_r,
                                          LEADER_N=book[LEADER_N] or killed_n)
                        nxt = (f_r, f_n, r_r, r_n, None if killed_r else lead_r, None if killed_n else lead_n,
                               0 if killed_r else pts_r, 0 if killed_n else pts_n, after)
                        moves[nxt] += w * pr * pn
        return _integer_weights(moves)

    def reserve_side(self, side, front, reserve, enemy_front, enemy_at_front, vacated, kinds_before):
        """One side's reserve step: ``{(front, reserve, hitting faces of each attack on the enemy leader):
        probability}``; the attacks are rolled by ``reserve_step``.

        The built-ins of DP-B12/B13/B14 read only their own entries, so the header is left at 0 and the result is
        shared by every state with the same boxes."""
        header = (PHASE_3, 0, 0, 0, 0, 0, 0)
        enemy_leader = self.nr_leader if side == ROME else self.roman_leader
        any_box = self.s.reserve_infantry_fill == "any_vacated_box"
        infantry_boxes = {b for b in vacated if any_box or kinds_before[b] == INFANTRY}
        facing = tuple(u.virtus if u is not None else 0 for u in enemy_front)
        partial = {(front, reserve, ()): Fraction(1)}
        for unit in sorted(reserve, key=lambda u: u.kind):  # infantry first, each kind strongest first
            nxt = defaultdict(Fraction)
            for (front, left, attacks), w in partial.items():
                open_boxes = [b for b in sorted(vacated) if front[b] is None]
                if unit.kind == INFANTRY:
                    boxes = [b for b in open_boxes if b in infantry_boxes]
                    if not boxes:
                        nxt[(front, left, attacks)] += w
                        continue
                    if side == ROME:
                        actions = self.decide("reserve_infantry", [1, 1, 0, 0, 0, 0, 0, 0],
                                              (unit.virtus, int(enemy_at_front)), header)
                        actions = [(1 if a else 2, p) for a, p in actions]  # 1 = fill, 2 = stay
                    else:
                        actions = [(1, Fraction(1))]  # the NR never keeps reserves idle
                else:
                    boxes = open_boxes
                    leader_there = enemy_at_front  # the attacks are rolled after every unit has moved
                    if side == ROME:
                        legal = [int(bool(boxes)), int(leader_there), 1, 0, 0, 0, 0, 0]
                        actions = self.decide("reserve_cavalry", legal, (unit.virtus, int(leader_there)), header)
                        actions = [({0: 1, 1: 3, 2: 2}[a], p) for a, p in actions]  # fill / attack / stay
                    elif boxes:
                        actions = [(1, Fraction(1))]
                    elif leader_there and self.s.nr_reserve_cav_fallback == "attack_leader":
                        actions = [(3, Fraction(1))]
                    else:
                        actions = [(2, Fraction(1))]
                for action, p in actions:
                    if action == 2:
                        nxt[(front, left, attacks)] += w * p
                    elif action == 1:
                        rest = tuple(u for u in left if u != unit)
                        for box, q in self.fill_box(side, unit, boxes, facing, enemy_front, header):
                            placed = front[:box] + (unit,) + front[box + 1:]
                            nxt[(placed, rest, attacks)] += w * p * q
                    else:
                        # attack the enemy leader in his front box: he cannot answer (KOR-A31); a d6 against his
                        # Virtus with Good Omen only (5.7.10 b): KOR-A21's cavalry class DRM is for combat rolls
                        omen = self.omen if unit.side == ROME else 0
                        hit = faces(omen, enemy_leader[0], self.s.leader_attack_test == "ge")
                        nxt[(front, left, tuple(sorted(attacks + (hit,))))] += w * p
            partial = nxt
        return partial

    def fill_box(self, side, unit, boxes, facing, enemy_front, header):
        """DP-B14 for Rome; the NR bot fills a box facing a Roman class III-V infantry, else one at random."""
        if len(boxes) == 1:
            return [(boxes[0], Fraction(1))]
        if side == ROME:
            legal = [1 if b in boxes else 0 for b in range(FRONT)] + [0] * 5
            return self.decide("fill_box", legal, (unit.virtus,) + facing, header)
        for b in boxes:
            if enemy_front[b] is not None and enemy_front[b].kind == INFANTRY and enemy_front[b].roman_class >= 3:
                return [(b, Fraction(1))]  # the first such box, in the order RIGHT, CENTRE, LEFT
        return [(b, Fraction(1, len(boxes))) for b in boxes]

    # -------------------------------------------------------------- results (5.7.11, 5.7.12)
    def winner(self, book):
        ending = book[ENDING]
        if ending == "spolia":
            return ROME if book[SPOLIA] == "win" else NR
        if ending == "phase3" or (ending == "retreat_round"
                                  and self.s.retreat_round_scoring == "track_result_without_triumph"):
            return self.track_winner(book)
        return None

    def accused(self, book):
        """KOR-A37: the Tribune tried after a defeat: the commander if a Tribune (and alive), or a subordinate
        Tribune when the King or a Magister commanded; Roman generals too with ``tribuni_and_generals``."""
        eligible = TRIBUNES + (("general",) if self.s.ignominy_eligible == "tribuni_and_generals" else ())
        rank = self.commander_rank
        if rank in eligible:
            return not book[LEADER_R]
        if rank in KING_RANKS + ("magister_populi", "magister_equitum"):
            return any(r in eligible for r in self.subordinates)
        return False

    def score(self, book):
        """The metric values of one final record (expectations over the ignominy dice and the Triumph claim)."""
        s = self.s
        m = defaultdict(Fraction)
        ending = book[ENDING]
        winner = self.winner(book)
        rank = self.commander_rank
        king_led = rank == "king" or (rank in KING_RANKS and s.king_equivalents)
        if book[SPOLIA] == "both":
            king_led = False  # the battle went on without leaders (5.7.2.1)
        ip = vp = Fraction(0)
        if ending == "spolia":
            sign = 1 if winner == ROME else -1
            ip, vp = ip + 3 * sign, vp + 3 * sign
        results = winner is not None and (ending != "spolia" or s.spolia_stack_5711)
        if self.ambush and s.ambush_scoring == "bonus_only":
            results = False  # KOR-A44: the ambush's +2 VP replaces the 5.7.11 results
        if self.ambush and winner == ROME:
            vp += 2  # 6.4 step 6
        if results and winner == ROME:
            base_ip, base_vp = (2, 1) if king_led else (1, 1)
            if s.invader_war:
                base_ip, base_vp = (3, 3) if s.invader_battle_scoring == "replace" else (base_ip + 3, base_vp + 3)
            ip, vp = ip + base_ip, vp + base_vp
            if rank in TRIBUNES:
                ip += 1
        elif results:
            if king_led:
                loss_ip, loss_vp = {"minus2_vp": (0, -2), "minus4_ip": (-4, 0), "both": (-4, -2)}[s.battle_king_loss]
            else:
                loss_ip, loss_vp = 0, -1
            if s.invader_war:
                loss_ip, loss_vp = (0, -3) if s.invader_battle_scoring == "replace" else (loss_ip, loss_vp - 3)
            ip, vp = ip + loss_ip, vp + loss_vp
            # 9.2.7.1 "Un Tribun vaincu perd 1 PI", whether or not he fell
            if rank in TRIBUNES and s.tribune_defeat_stack == "stack":
                ip -= 1
        porsenna_kill = False
        if winner == NR:
            # a defeat, however it is scored, brings the ignominy trial (KOR-A37) and Porsenna's kill (KOR-A38)
            if self.accused(book) and s.ignominy_trial == "mandatory":
                acquitted = Fraction(6 if s.ignominy_equal_8 == "acquitted" else 3, 36)
                ip -= 3 if s.ignominy_ip_loss == "always" else 3 * (1 - acquitted)
            porsenna_kill = rank == "king" and not book[LEADER_R] and (
                s.porsenna == "commands" or (s.porsenna == "on_map"
                                             and s.porsenna_kill_scope == "any_battle_while_porsenna_on_map"))
        if winner == ROME and ending == "phase3" and self.commander_rank is not None and not book[LEADER_R] \
                and book[ROMAN_LEFT] > 0:
            infantry_gone = book[NR_INF_LEFT] == 0 and (
                s.triumph_infantry_scope == "participating" or self.nr_infantry_all == self.nr_infantry_in)
            if infantry_gone or book[LEADER_N]:
                for claim, p in self.decide("triumph", [1, 1, 0, 0, 0, 0, 0, 0], (),
                                            (PHASE_3, 0, book[PEN_R], book[PEN_N], 0, book[ROMAN_LEFT], 0)):
                    if claim:
                        m["p_triumph"] += p
                        ip += p * s.triumph_bonus_ip
        captured_n, captured_r = book[CAPT_N], book[CAPT_R]
        if s.capture_reward in ("ip_and_vp", "ip_only"):
            ip += captured_n
        if s.capture_reward in ("ip_and_vp", "vp_only"):
            vp += captured_n
        ip -= captured_r
        if book[PHASE3] and (self.roman_action or s.phase3_cost_scope == "always"):
            ip -= 1
        if ending == "withdrawal":
            reactions = 1 if s.orphan_reaction_line_owner in ("preventive_withdrawal", "both") else 0
        else:
            reactions = 2 if self.roman_action else 0  # an ambush starts none (6.4 step 5)
        m["p_win"] = Fraction(winner == ROME)
        m["p_loss"] = Fraction(winner == NR)
        m["p_no_winner"] = Fraction(winner is None)
        m["ip"], m["vp"] = ip, vp
        m["hostile_reactions"] = Fraction(reactions)
        m["tokens_nr_to_r"] = Fraction(2 if winner == ROME else 0)
        m["tokens_r_to_nr"] = Fraction(2 if winner == NR else 0)
        for side, name in ((PEN_R, "roman"), (PEN_N, "nr")):
            points = min(book[side], TRACK_STOP)
            m[f"{name}_score"] = Fraction(-points)
            m[f"p_{name}_score_0"] = Fraction(points == 0)
            m[f"p_{name}_score_1_4"] = Fraction(1 <= points <= 4)
            m[f"p_{name}_score_5_9"] = Fraction(5 <= points <= 9)
            m[f"p_{name}_score_10_19"] = Fraction(points >= 10)
            m[f"{name}_penalty"] = Fraction(book[side])
        m["roman_units_lost"], m["nr_units_lost"] = Fraction(book[LOST_R]), Fraction(book[LOST_N])
        m["roman_units_captured"], m["nr_units_captured"] = Fraction(captured_r), Fraction(captured_n)
        m["p_roman_leader_lost"] = Fraction(bool(book[LEADER_R] or porsenna_kill))
        m["p_nr_leader_lost"] = Fraction(bool(book[LEADER_N]))
        m["p_interrex"] = Fraction(rank == "king" and bool(book[LEADER_R] or porsenna_kill))
        for name in ENDINGS:
            m[f"p_end_{name}"] = Fraction(ending == name)
        pre = (0, 0) if ending == "withdrawal" else self.pre
        m["roman_pre_penalty"], m["nr_pre_penalty"] = Fraction(pre[ROME]), Fraction(pre[NR])
        return m


def solve(scenario, policies):
    """``{metric: Fraction}`` of ``kings_of_rome.battle`` under built-in ``policies`` (``ResolvedPolicies``)."""
    if scenario.name not in (BATTLE, AMBUSH):
        raise ExactNotSupported(f"{scenario.name}: the exact battle solver covers {BATTLE} and {AMBUSH} only")
    if policies.has_user_functions:
        raise ExactNotSupported(f"{scenario.name}: exact answers are computed for built-in policies only")
    solver = _Solver(scenario, policies)
    out = solver.outcomes()
    values = dict.fromkeys(scenario.metrics, Fraction(0))
    for book, p in out.dist.items():
        for metric, v in solver.score(book).items():
            values[metric] += p * v
    values["phase3_rounds"] = out.rounds
    unknown = set(values) - set(scenario.metrics)
    if unknown:
        raise ExactNotSupported(f"{scenario.name}: the exact solver reports {sorted(unknown)}, which the scenario "
                                "does not list")
    return values
