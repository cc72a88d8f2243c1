"""Exact solvers of the Semper Victor procedures."""

# ------------------------------------------------------------------ procedures: initiative, M/CS, war draw,
# Assassinat, Foyer de peste, Constantinopolis
from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from math import comb

from ..core.errors import ExactNotSupported
from . import reference as _ref
from . import reference as _sv_reference

HALF = Fraction(1, 2)


def _initiative_outcomes(roll_to_primus, held_p, held_s, counterplay, policy, keep, mcs_total):
    """{(PRIMUS ends with it, played by PRIMUS, by SECONDUS): probability} of the D1 exchange after the roll.

    Each built-in's chance of playing depends only on the counters held and the M/CS total, so the exchange is a
    short walk: play with probability ``q`` (1, 0 or 1/2), and a play is answered only with counterplay."""
    def q(held):
        if policy == "never":
            return Fraction(0)
        if policy == "random":
            return HALF
        if policy == "odd_mcs":
            return Fraction(int(held > keep and (mcs_total is None or mcs_total % 2 == 1)))
        return Fraction(1)

    dist = defaultdict(Fraction)

    def walk(primus_has, hp, hs, pp, ps, prob):
        held = hs if primus_has else hp
        if held == 0 or (pp + ps > 0 and not counterplay) or q(held) == 0:
            dist[(primus_has, pp, ps)] += prob
            return
        if q(held) < 1:
            dist[(primus_has, pp, ps)] += prob * (1 - q(held))
        if primus_has:
            walk(False, hp, hs - 1, pp, ps + 1, prob * q(held))
        else:
            walk(True, hp - 1, hs, pp + 1, ps, prob * q(held))

    walk(roll_to_primus, held_p, held_s, 0, 0, Fraction(1))
    return dist


def initiative(pc, at_most, held_p, held_s, counterplay, policy, keep, mcs_total=None):
    """spec 2.3: P(PRIMUS wins the roll) = #{faces d of the d6 with d < PC (d <= PC with SV-A30 at_most)} / 6 (WP3),
    then the Initiative stratagems of D1. Returns the metrics of ``semper_victor.initiative`` and, under
    ``mcs_total``, P(PRIMUS ends with the initiative) for the M/CS split."""
    faces = sum(1 for d in range(1, 7) if (d <= pc if at_most else d < pc))
    p_roll = Fraction(faces, 6)
    out = dict(p_win=Fraction(0), p_roll=p_roll, p_reversed=Fraction(0), primus_played=Fraction(0),
               secondus_played=Fraction(0))
    for won, weight in ((True, p_roll), (False, 1 - p_roll)):
        if weight == 0:
            continue
        for (primus, pp, ps), prob in _initiative_outcomes(won, held_p, held_s, counterplay, policy, keep,
                                                           mcs_total).items():
            out["p_win"] += weight * prob * primus
            out["p_reversed"] += weight * prob * (primus != won)
            out["primus_played"] += weight * prob * pp
            out["secondus_played"] += weight * prob * ps
    return out


def mcs_total(primus_sr, leaders, count_dux_usurpers, empty):
    """spec 2.5.1: T = SR of the Primus Augustus + the highest SR of SECONDUS's leaders in play; ``leaders`` holds
    (sr, kind, on the Pax Romana face). Seed example: Constantin SR 4 + the Picts' leader SR 1 = 5."""
    srs = [sr for sr, kind, pax in leaders
           if not pax and (count_dux_usurpers or kind in ("roman", "non_roman"))]
    return primus_sr + max(srs, default=empty)


def sequences(total, p_primus_initiative):
    """spec 2.5.1 / 2.6 with T = ``total``: the initiative player gets ceil(T/2) M/CS, the other floor(T/2), in
    alternation from the initiative player; he is last iff T is odd. WP3: T = 5, PC 4: E[PRIMUS M/CS] = 5/2."""
    p = p_primus_initiative
    hi, lo = (total + 1) // 2, total // 2
    last = Fraction(0) if total == 0 else (p if total % 2 else 1 - p)
    return {"p_win": p, "primus_mcs": p * hi + (1 - p) * lo, "secondus_mcs": p * lo + (1 - p) * hi,
            "mcs_total": Fraction(total), "p_primus_last": last}


def war_draw(turns, start_year, others_at_war, persians_at_war, peace, replace, without_leader):
    """spec 2.4.2 over ``turns`` turns, as a distribution over counts carried forward turn by turn.

    A state is (Persians at war, Persians' marker in the cup, other peoples at peace with marker in the cup, at
    war with marker in the cup, at war with marker out, dummies in the cup, a war has started): the four non-Persian
    peoples are interchangeable. With replacement every marker stays in the cup. A turn: draw one counter out of
    the cup's size (a marker of a people at peace starts its war; the Persians' not in 310-319 without SV-A7),
    then every people at war makes peace with chance ``peace``/10 (binomially per group)."""
    c = Fraction(peace, 10)
    start = (int(persians_at_war), 1, 4 - others_at_war, others_at_war, 0, 5, 0)
    dist = {start: Fraction(1)}
    expect = dict(new_wars=Fraction(0), turns_without_war=Fraction(0))
    for t in range(turns):
        year = start_year + t
        after = defaultdict(Fraction)
        for (pw, pin, in_peace, in_war, out_war, dummies, started), prob in dist.items():
            size = pin + in_peace + in_war + dummies
            if size == 0:
                after[(pw, pin, in_peace, in_war, out_war, dummies, started)] += prob
                continue
            keep = 1 if replace else 0
            # the Persians' marker
            if pin:
                war = not pw and (without_leader or not 310 <= year <= 319)
                started_now = int(bool(started or war))
                state = (1 if war else pw, keep, in_peace, in_war, out_war, dummies, started_now)
                after[state] += prob * Fraction(1, size)
                expect["new_wars"] += prob * Fraction(1, size) * war
            if in_peace:  # a people at peace goes to war
                p = prob * Fraction(in_peace, size)
                state = ((pw, pin, in_peace - 1, in_war + 1, out_war, dummies, 1) if replace else
                         (pw, pin, in_peace - 1, in_war, out_war + 1, dummies, 1))
                after[state] += p
                expect["new_wars"] += p
            if in_war:  # already at war: nothing
                state = ((pw, pin, in_peace, in_war, out_war, dummies, started) if replace else
                         (pw, pin, in_peace, in_war - 1, out_war + 1, dummies, started))
                after[state] += prob * Fraction(in_war, size)
            if dummies:
                after[(pw, pin, in_peace, in_war, out_war, dummies - 1 + keep, started)] += \
                    prob * Fraction(dummies, size)
        dist = {}
        for state, prob in after.items():
            pw, pin, in_peace, in_war, out_war, dummies, started = state
            if pw + in_war + out_war == 0:
                expect["turns_without_war"] += prob
            if c == 0:
                dist[state] = dist.get(state, 0) + prob
                continue
            for pw_after in ((0, 1) if pw else (0,)):
                p_pw = (c if pw_after == 0 else 1 - c) if pw else Fraction(1)
                for a in range(in_war + 1):  # a of the in-cup warring peoples make peace
                    p_a = comb(in_war, a) * c ** a * (1 - c) ** (in_war - a)
                    for b in range(out_war + 1):
                        p_b = comb(out_war, b) * c ** b * (1 - c) ** (out_war - b)
                        nxt = (pw_after, pin, in_peace + a, in_war - a, out_war - b, dummies, started)
                        dist[nxt] = dist.get(nxt, 0) + prob * p_pw * p_a * p_b
    at_war = sum(p * (s[0] + s[3] + s[4]) for s, p in dist.items())
    return {"p_win": sum(p for s, p in dist.items() if not s[6]), "new_wars": expect["new_wars"],
            "at_war": at_war, "p_persians_at_war": sum(p for s, p in dist.items() if s[0]),
            "turns_without_war": expect["turns_without_war"]}


def assassination(attempts, kill_faces, policy, min_chance):
    """spec 2.12: each play kills with p = kill_faces/10 (WP2: 2/10, 1/10 with the bodyguard). Playing k counters
    until a kill: P(kill) = 1 - (1-p)^k, E[plays] = sum_{i<k} (1-p)^i. ``random`` plays each next counter with
    probability 1/2."""
    p = Fraction(kill_faces, 10)
    if policy == "random":
        win, plays = Fraction(0), Fraction(0)
        for _ in range(attempts):  # from the last attempt back to the first
            win = HALF * (p + (1 - p) * win)
            plays = HALF * (1 + (1 - p) * plays)
        return {"p_win": win, "plays": plays}
    k = {"all": attempts, "once": 1, "worthwhile": attempts if kill_faces / 10 >= min_chance else 0}[policy]
    return {"p_win": 1 - (1 - p) ** k, "plays": sum(((1 - p) ** i for i in range(k)), Fraction(0))}


def plague(zone_weights):
    """spec 2.12 Foyer de peste: ``zone_weights`` lists (probability the zone is chosen, enemy leaders rolling, own
    leaders rolling, enemy full, enemy weakened, own full, own weakened). Each leader dies with 1/10 (one face of
    the d10), independently: P(no enemy dies) = (9/10)^e (WP6: (9/10)^3 = 729/1000); units lose a step for sure."""
    nine = Fraction(9, 10)
    out = {m: Fraction(0) for m in ("p_win", "p_no_leader_dies", "enemy_leaders_killed", "own_leaders_killed",
                                    "enemy_units_eliminated", "enemy_units_weakened", "own_units_eliminated",
                                    "own_units_weakened")}
    for w, e, o, ef, ew, of, ow in zone_weights:
        out["p_win"] += w * (1 - nine ** e)
        out["p_no_leader_dies"] += w * nine ** (e + o)
        out["enemy_leaders_killed"] += w * Fraction(e, 10)
        out["own_leaders_killed"] += w * Fraction(o, 10)
        out["enemy_units_eliminated"] += w * ew
        out["enemy_units_weakened"] += w * ef
        out["own_units_eliminated"] += w * ow
        out["own_units_weakened"] += w * of
    return out


def constantinople(turns, duration, continuous, any_usurper, occ_augustus, occ_usurper, occ_primus_usurper,
                   constantin_loss, thracia_loss, thracia_regain, policy):
    """spec 2.4.3 over ``turns`` turns as a distribution over (Constantin is Primus Augustus, PRIMUS holds Thracia,
    turns until the completion Phase F (0 = nothing under way), built, ever interrupted), carried forward turn by
    turn; the counts (attempts, interruptions, cancellations, capital turns) are expected values summed on the way.

    Per turn: Phase C start (D3: ``always``, ``never``, ``random`` 1/2, ``if_time`` iff turns left >= duration);
    Phase D Constantin lost with constantin_loss %; Phase F Thracia lost / regained with its %; then at the
    completion F the construction is interrupted with (a + b)% (plus c% with SV-A34 any), otherwise built."""
    pct = lambda k: Fraction(k, 100)  # noqa: E731
    block = pct(occ_augustus + occ_usurper + (occ_primus_usurper if any_usurper else 0))
    dist = {(True, True, 0, False, False): Fraction(1)}
    exp = defaultdict(Fraction)

    def add(d, key, p):
        if p:
            d[key] += p

    for t in range(1, turns + 1):
        nxt = defaultdict(Fraction)
        for (alive, thr, left, built, hit), prob in dist.items():
            # Phase C
            branches = [(left, prob)]
            if not built and left == 0 and alive and thr:
                q = {"always": Fraction(1), "never": Fraction(0), "random": HALF,
                     "if_time": Fraction(int(turns - t + 1 >= duration))}[policy]
                branches = [(0, prob * (1 - q)), (duration, prob * q)]
                exp["attempts"] += prob * q
            for left_c, p_c in branches:
                if not p_c:
                    continue
                # Phase D
                dies = pct(constantin_loss) if alive else Fraction(0)
                for alive_d, p_d in ((alive and True, 1 - dies), (False, dies)):
                    if not p_d:
                        continue
                    left_d = left_c
                    if continuous and left_d and alive and not alive_d:
                        left_d = 0
                        exp["cancellations"] += p_c * p_d
                    # Phase F: Thracia
                    change = pct(thracia_loss) if thr else pct(thracia_regain)
                    for thr_f, p_f in ((thr, 1 - change), (not thr, change)):
                        if not p_f:
                            continue
                        left_f = left_d
                        if continuous and left_f and thr and not thr_f:
                            left_f = 0
                            exp["cancellations"] += p_c * p_d * p_f
                        weight = p_c * p_d * p_f
                        if left_f == 1:  # the Turn marker reaches the box in this F
                            exp["interruptions"] += weight * block
                            add(nxt, (alive_d, thr_f, 0, False, True), weight * block)
                            add(nxt, (alive_d, thr_f, 0, True, hit), weight * (1 - block))
                            exp["capital_turns"] += weight * (1 - block) * (turns - t)
                        else:
                            add(nxt, (alive_d, thr_f, max(left_f - 1, 0), built, hit), weight)
        dist = nxt
    p_built = sum((p for s, p in dist.items() if s[3]), Fraction(0))
    return {"p_win": p_built, "p_interrupted": sum((p for s, p in dist.items() if s[4]), Fraction(0)),
            "attempts": exp["attempts"], "interruptions": exp["interruptions"],
            "cancellations": exp["cancellations"], "vp": 10 * p_built, "capital_turns": exp["capital_turns"]}
# ------------------------------------------------------------------ succession and usurpation (seed 3.5.2, 3.6)
# The civil war is a cascade of yes/no tests, so the reference procedure is replayed branching on each test's
# outcome (two branches, weighted by the faces on each side) instead of on each face: a game of k tests has at
# most 2^k paths rather than 6^k or 10^k.


USURPATION_MAX_PATHS = 200_000


class _Split(Exception):
    def __init__(self, pos, parts):
        self.pos, self.parts = pos, parts


class _Face:
    """A die whose face is only known to lie in a set: comparing it with a number either has one answer for the
    whole set or splits the game in two; int() splits it into single faces."""

    __slots__ = ("run", "pos", "shift")
    __hash__ = None

    def __init__(self, run, pos, shift=0):
        self.run, self.pos, self.shift = run, pos, shift

    def __add__(self, k):
        return _Face(self.run, self.pos, self.shift + k)

    __radd__ = __add__

    def __sub__(self, k):
        return _Face(self.run, self.pos, self.shift - k)

    def _test(self, holds):
        faces = self.run.path[self.pos][1]
        yes = tuple(f for f in faces if holds(f + self.shift))
        if len(yes) == len(faces):
            return True
        if not yes:
            return False
        raise _Split(self.pos, (yes, tuple(f for f in faces if not holds(f + self.shift))))

    def __lt__(self, k):
        return self._test(lambda v: v < k)

    def __le__(self, k):
        return self._test(lambda v: v <= k)

    def __gt__(self, k):
        return self._test(lambda v: v > k)

    def __ge__(self, k):
        return self._test(lambda v: v >= k)

    def __eq__(self, k):
        return self._test(lambda v: v == k)

    def __ne__(self, k):
        return self._test(lambda v: v != k)

    def __int__(self):
        faces = self.run.path[self.pos][1]
        if len(faces) == 1:
            return faces[0] + self.shift
        raise _Split(self.pos, tuple((f,) for f in faces))

    __index__ = __int__

    def __bool__(self):
        raise TypeError("a die must be compared with a number before it is used as a truth value")


class _TestRun:
    """The dice interface of PyStream, replaying a path of face sets."""

    def __init__(self, path):
        self.path, self.pos = list(path), 0

    def dn(self, n):
        if self.pos == len(self.path):
            self.path.append((n, tuple(range(1, n + 1))))
        elif self.path[self.pos][0] != n:
            raise RuntimeError("the procedure drew a different die on replay")
        self.pos += 1
        return _Face(self, self.pos - 1)

    def d6(self):
        return self.dn(6)

    def d10(self):
        return self.dn(10) - 1


def enumerate_tests(play, max_paths=USURPATION_MAX_PATHS, what="this scenario"):
    """``{outcome: probability}`` of ``play(dice)``, branching on the outcomes of the dice's comparisons."""
    dist = defaultdict(Fraction)
    stack = [((), Fraction(1))]
    paths = 0
    while stack:
        path, prob = stack.pop()
        run = _TestRun(path)
        try:
            outcome = play(run)
        except _Split as split:
            sides, faces = run.path[split.pos]
            for part in split.parts:
                branch = list(run.path)
                branch[split.pos] = (sides, part)
                stack.append((tuple(branch), prob * Fraction(len(part), len(faces))))
            continue
        dist[outcome] += prob
        paths += 1
        if paths > max_paths:
            raise ExactNotSupported(
                f"{what}: more than {max_paths:,} distinct sequences of test outcomes; exact answers are computed "
                "for games of up to about 17 yes/no tests (validations, zone loyalty rolls, step C rolls, "
                "rallies, Assassinat rolls): use fewer zones with leaders in the Dioceses involved, a shorter "
                "march or fewer Assassinat counters, or simulate")
    return dict(dist)


def _sv_means(dist, metrics):
    means = {m: Fraction(0) for m in metrics}
    for outcome, prob in dist.items():
        for m, v in zip(metrics, outcome):
            means[m] += prob * v
    return means


def succession(s, policy, metrics):
    """seed 3.5.2: the heirs by enumerating their few dice (SV-A13 tie, D7/D8 random picks), then the Secondus
    case-4 loyalty checks in closed form: each tested leader defects with P(d6 >= PC) = clamp(7 - PC, 0, 6)/6,
    independently; the zone's free units follow when every SECONDUS leader left there defected."""
    heirs = enumerate_tests(lambda dice: _sv_reference.succession_heirs(s, dice, policy), what=s.name)
    leaders = s.leaders
    means = {m: Fraction(0) for m in metrics}
    for (case, successor, usurper, roles), prob in heirs.items():
        defections, units = Fraction(0), Fraction(0)
        if s.dies == "secondus" and usurper >= 0:
            dead = next(i for i, ldr in enumerate(leaders) if ldr["title"] == "secondus_augustus")
            home = leaders[usurper]["zone"]
            chance = {}
            for i, ldr in enumerate(leaders):
                if i in (dead, usurper) or ldr["side"] != "secondus" or ldr["title"] == "dux":
                    continue
                here = ldr["zone"] == home
                scope = s.secondus_case4_scope
                if scope == "all" or (scope == "same_zone") == here:
                    chance[i] = Fraction(min(6, max(0, 7 - ldr["pc"])), 6)
            for i, p in chance.items():
                defections += p
                units += p * sum(u["count"] for u in s.units if u["leader"] == i)
            for zone in {leaders[i]["zone"] for i in chance}:
                others = [i for i, ldr in enumerate(leaders)
                          if ldr["zone"] == zone and ldr["side"] == "secondus" and i != dead]
                if all(i in chance for i in others):
                    every = Fraction(1)
                    for i in others:
                        every *= chance[i]
                    units += every * sum(u["count"] for u in s.units if u["zone"] == zone
                                         and u["side"] == "secondus" and u["leader"] in (-1, dead))
        values = (int(case <= 3), case, int(roles), int(usurper >= 0), successor, usurper, defections, units)
        for m, v in zip(metrics, values):
            means[m] += prob * v
    return means


def usurpation(s, policy, metrics):
    """seed 3.6: the cascade enumerated by test outcomes; the Assassinat exchange, which depends on the cascade only
    through who is left standing, enumerated once per such state and combined."""
    cascade = enumerate_tests(lambda dice: _sv_reference.usurpation_civil_war(s, dice, policy), what=s.name)
    ends = {}
    for _, start in cascade:
        if start is not None and start not in ends:
            ends[start] = enumerate_tests(
                lambda dice, start=start: _sv_reference.usurpation_exchange(s, start, dice, policy), what=s.name)
    dist = defaultdict(Fraction)
    for (counts, start), prob in cascade.items():
        for end, p in (ends[start].items() if start is not None else (((0, 0, 0, -1), Fraction(1)),)):
            win, killed, lost, successor = end
            dist[(win,) + counts + (killed, lost, successor)] += prob * p
    return _sv_means(dist, metrics)
# ------------------------------------------------------------------ battle: PROPOSAL P8 (spec 3.2)


# random loss allocation is solved state by state; beyond this many units on a side the joint states grow too fast
BATTLE_EXACT_RANDOM_LOSSES_MAX_UNITS = 4
FULL, WEAK, DEAD = 0, 1, 2


def battle(s, policy):
    """PROPOSAL P8 (spec 3.2; not the published rules), exactly, by composing distributions.

    A side's hits are a sum of independent dice (each d10 hits with threshold/10), convolved unit by unit; for
    each pair of hit counts the two sides' losses are independent, each a distribution over the sides' unit
    statuses (full / weakened / eliminated) — a single status for the deterministic D14 built-ins, one branch per
    eligible unit for ``random``. The result (P8.5), the retreat zone and the pursuit follow from those statuses;
    the losing leaders' d10 are independent of everything else, so their deaths enter as expectations. Every
    scenario in the domain is solved for the deterministic built-ins (6 v 6 units, 3 dice each, well under a
    second); ``losses = random`` is solved up to 4 units a side and raises ExactNotSupported beyond.
    """
    sides = (s.attacker_units, s.defender_units)
    leaders = (s.attacker_leaders, s.defender_leaders)
    zones = (s.attacker_retreat_zones, s.defender_retreat_zones)
    if policy["losses"] == "random" and max(len(u) for u in sides) > BATTLE_EXACT_RANDOM_LOSSES_MAX_UNITS:
        raise ExactNotSupported(
            f"{s.name}: exact answers with losses = 'random' are computed up to "
            f"{BATTLE_EXACT_RANDOM_LOSSES_MAX_UNITS} units a side; this battle has "
            f"{len(s.attacker_units)} v {len(s.defender_units)}")
    start = tuple(tuple(WEAK if u["weakened"] else FULL for u in side) for side in sides)

    def face(side, i, status):
        u = sides[side][i]
        return (u["weak_sp"], u["weak_qu"], u["weak_tb"]) if status == WEAK else (u["sp"], u["qu"], u["tb"])

    def sp_left(side, statuses):
        return sum(face(side, i, st)[0] for i, st in enumerate(statuses) if st != DEAD)

    @lru_cache(maxsize=None)
    def fire(side, statuses, tbc):
        """P(hits = k) for k = 0, 1, ... when the side's units alive fire with commander bonus ``tbc``."""
        dist = [Fraction(1)]
        for i, st in enumerate(statuses):
            if st == DEAD:
                continue
            _, qu, tb = face(side, i, st)
            p = Fraction(_ref.battle_threshold(s.p8_threshold, qu, tb, tbc), 10)
            for _ in range(s.p8_dice_per_unit):
                dist = [(dist[k] if k < len(dist) else 0) * (1 - p) + (dist[k - 1] * p if k else 0)
                        for k in range(len(dist) + 1)]
        return tuple(dist)

    @lru_cache(maxsize=None)
    def take(side, statuses, hits):
        """((statuses after ``hits`` steps, probability), ...): P8.4, one D14 choice per hit."""
        eligible = [i for i, st in enumerate(statuses) if st != DEAD]
        if hits == 0 or not eligible:
            return ((statuses, Fraction(1)),)
        if policy["losses"] == "random":
            picks = [(i, Fraction(1, len(eligible))) for i in eligible]
        else:
            view = [dict(u, weak=st == WEAK) for u, st in zip(sides[side], statuses)]
            picks = [(_ref.battle_pick_loss(policy["losses"], view, eligible, None), Fraction(1))]
        out = defaultdict(Fraction)
        for i, p in picks:
            hit = statuses[:i] + (statuses[i] + 1,) + statuses[i + 1:]
            for final, q in take(side, hit, hits - 1):
                out[final] += p * q
        return tuple(out.items())

    def commanders(side):
        """{commander's TB: probability} (P8.2; D14 when p8_commander = choice)."""
        if not leaders[side]:
            return {0: Fraction(1)}
        if s.p8_commander == "choice" and policy["commander"] == "random":
            dist = defaultdict(Fraction)
            for g in leaders[side]:
                dist[g["tb"]] += Fraction(1, len(leaders[side]))
            return dist
        return {leaders[side][_ref.battle_pick_commander("best_tb", leaders[side], None)]["tb"]: Fraction(1)}

    death = Fraction(max(0, 10 - s.p8_loser_leader_death), 10)  # P(d10 >= p8_loser_leader_death)
    start_sp = (sp_left(0, start[0]), sp_left(1, start[1]))
    names = ("attacker", "defender")
    total = defaultdict(Fraction)

    def score_units(side, statuses, w):
        total[f"{names[side]}_sp_lost"] += w * (start_sp[side] - sp_left(side, statuses))
        total[f"{names[side]}_units_eliminated"] += w * sum(st == DEAD for st in statuses)

    def settle(statuses, hits, tbc, w):
        standing = [sum(st != DEAD for st in statuses[k]) for k in (0, 1)]
        sp = [sp_left(k, statuses[k]) for k in (0, 1)]
        if standing[0] == 0 and standing[1] > 0:
            loser = 0
        elif standing[1] == 0 and standing[0] > 0:
            loser = 1
        elif hits[0] != hits[1]:
            loser = 0 if hits[0] < hits[1] else 1
        elif sp[0] != sp[1]:
            loser = 0 if sp[0] < sp[1] else 1
        else:
            loser = 0
        winner = 1 - loser
        total["p_win"] += w * (winner == 0)
        total["p_loss"] += w * (winner == 1)
        score_units(winner, statuses[winner], w)
        beaten = leaders[loser]
        if any(g["role"] == "augustus" for g in beaten):
            total["p_augustus_defeated"] += w
        moving = [i for i, st in enumerate(statuses[loser]) if st != DEAD]
        zone_choices = [(None, Fraction(1))]
        if (moving or beaten) and zones[loser] > 0:
            if policy["retreat"] == "random":
                zone_choices = [(z, Fraction(1, zones[loser])) for z in range(zones[loser])]
            else:
                view = [dict(sides[loser][i], weak=statuses[loser][i] == WEAK) for i in moving]
                zone_choices = [(_ref.battle_pick_zone(policy["retreat"], zones[loser], view, beaten, None),
                                 Fraction(1))]
        civil_winner = any(g["role"] in ("usurper", "civil_war") for g in leaders[winner])
        for zone, pz in zone_choices:
            wz = w * pz
            after = tuple(DEAD if st == DEAD or zone is None or zone in sides[loser][i]["barred"] else st
                          for i, st in enumerate(statuses[loser]))
            finals = ((after, Fraction(1)),)
            if s.p8_pursuit and any(st != DEAD for st in after):
                pursued = defaultdict(Fraction)
                for h, ph in enumerate(fire(winner, statuses[winner], tbc[winner])):
                    for final, q in take(loser, after, h):
                        pursued[final] += ph * q
                finals = tuple(pursued.items())
            for final, pf in finals:
                score_units(loser, final, wz * pf)
                total[f"{names[loser]}_units_retreated"] += wz * pf * sum(st != DEAD for st in final)
            killed = Fraction(0)
            for g in beaten:
                if zone is None or zone in g["barred"]:
                    killed += 1
                elif s.p8_civil_war_defeat_kills and (g["role"] == "usurper" or
                                                       (g["role"] == "augustus" and civil_winner)):
                    killed += 1
                else:
                    killed += death
            total[f"{names[loser]}_leaders_killed"] += wz * killed

    for tbc_a, pa in commanders(0).items():
        for tbc_d, pd in commanders(1).items():
            fire_a, fire_d = fire(0, start[0], tbc_a), fire(1, start[1], tbc_d)
            for ha, pha in enumerate(fire_a):
                for hd, phd in enumerate(fire_d):
                    w = pa * pd * pha * phd
                    if not w:
                        continue
                    total["attacker_hits"] += w * ha
                    total["defender_hits"] += w * hd
                    for sa, qa in take(0, start[0], hd):
                        for sd, qd in take(1, start[1], ha):
                            settle((sa, sd), (ha, hd), (tbc_a, tbc_d), w * qa * qd)
    return {m: total[m] for m in s.metrics}
