"""Exact solvers of the Kings of Rome procedures, by counting faces.

The siege's exact answer enumerates its reference procedure over every dice sequence
(``romesim.core.exact.enumerate_dice``); the procedures below are closed forms.
"""
from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from itertools import permutations, product
from math import prod

from ..core.exact import absorbing_expectations


def treason(garrison, k):
    """KoR 6.3: P(treason fails) = P(d6 - k <= Virtus) = min(6, Virtus + k) / 6 (WE-5 table)."""
    p_fail = Fraction(min(6, garrison + k), 6)
    return {"p_win": p_fail, "ip": Fraction(-k), "vp": p_fail}


def ignominy(drm, equal_8_acquitted, ip_loss_always):
    """KoR 5.7.11: P(2d6 - drm > 8) over the 36 equally likely pairs (WE-5: 1/12 battle, 1/6 siege)."""
    needed = 8 if equal_8_acquitted else 9
    p = Fraction(sum(a + b - drm >= needed for a, b in product(range(1, 7), repeat=2)), 36)
    return {"p_win": p, "ip": Fraction(-3) if ip_loss_always else -3 * (1 - p)}


def p_d6_exceeds(virtus):
    """P(d6 > Virtus) (C1): the faces above it out of six."""
    return Fraction(max(0, 6 - virtus), 6)


def pillage(garrison, units, king, romanize_if_emptied, side_effects, pillage_undefended):
    """KoR 5.4 (5.4.1 when there is no token): one d6 against the strongest token eliminates one token (two with
    the King), so the city is emptied with P(d6 > strongest) if it holds at most one token (two with the King)."""
    tokens = (1 if garrison else 0) + len(units)
    reactions, adjustment = (2, 1) if side_effects else (0, 0)
    if tokens == 0:
        reward = pillage_undefended
        return {"p_win": Fraction(1), "p_romanized": Fraction(0 if reward else 1),
                "ip": Fraction(-1 + (1 if reward and king else 0)), "vp": Fraction(1 if reward else 0),
                "hostile_reactions": Fraction(reactions), "tokens_r_to_nr": Fraction(adjustment),
                "nr_tokens_eliminated": Fraction(0)}
    hit = p_d6_exceeds(max((garrison, *units)))
    capacity = 2 if king else 1
    success = hit if tokens <= capacity else Fraction(0)
    romanized = success if garrison and (tokens == 1 or romanize_if_emptied) else Fraction(0)
    return {"p_win": success, "p_romanized": romanized,
            "ip": -1 + ((success - 2 * (1 - success)) if king else 0), "vp": success,
            "hostile_reactions": Fraction(2), "tokens_r_to_nr": Fraction(1),
            "nr_tokens_eliminated": hit * min(tokens, capacity)}


def intimidation(targets):
    """KoR 5.3: the roll is made against a unit drawn from ``targets`` (one Virtus per equally likely choice);
    it turns Roman iff d6 > its Virtus: +2 IP less the 1 IP cost."""
    p = sum((p_d6_exceeds(v) for v in targets), Fraction(0)) / len(targets)
    return {"p_win": p, "ip": -1 + 2 * p, "tokens_r_to_nr": Fraction(1)}


def corruption(garrison, pillage, adjustment_always, reactions):
    """KoR 5.6: 2 IP, the city taken iff d6 > the garrison's Virtus; then +1 VP, or +2 IP when ``pillage``
    (the garrison stood alone and the player pillages)."""
    p = p_d6_exceeds(garrison)
    return {"p_win": p, "ip": -2 + (2 * p if pillage else 0), "vp": Fraction(0) if pillage else p,
            "tokens_nr_to_r": Fraction(1) if adjustment_always else p, "hostile_reactions": Fraction(reactions)}


NAVAL_MAX_SHIPS = 6


def naval(roman, nr, astutia, omen, additive, mutual_no_result, target, chained=False):
    """KoR 5.8 with KOR-A41, exactly: the distribution of the fleets afloat, carried forward round by round.

    A state is (Roman fleet, NR fleet, rerolls left), a fleet being the sorted tuple of its ships' Virtus: ships of
    equal Virtus are interchangeable for every DP-N01 built-in (``target``) and for the NR bot, whose uniform pick
    is averaged exactly. In a round the Roman fire and the NR fire are independent given the state, so each is
    computed once per (shooters, fleet) and the next states are their product. Weights are integers over fixed
    denominators, made Fractions at the end: the largest case (6 v 6 ships of six different Virtus, ``random``
    targets, three rerolls) takes about 2 s.
    """
    bonus = omen + (astutia if additive else 0)
    pool = 0 if additive else astutia
    # a Roman shot weighs over 60 * 6^(pool+1): 60 = lcm(1..6) for a uniform pick among up to six targets, then
    # 1/6 per die; an NR shot over 360 = 60 * 6
    die_den = 6 ** (pool + 1)
    shot_den = 60 * die_den
    roman_den, nr_den = shot_den ** NAVAL_MAX_SHIPS, 360 ** NAVAL_MAX_SHIPS

    def shot(faces, left):
        """[(hit, rerolls left, weight over 6^(pool+1))] of a Roman die hitting on ``faces`` faces, rerolled when
        it misses, a reroll is left and could hit (C3): once (5.7.9), or while it misses with ``chained``."""
        if faces == 0:
            return [(False, left, die_den)]
        tries = left if chained else min(left, 1)  # rerolls this die may take
        out = [(True, left - j, (6 - faces) ** j * faces * 6 ** (pool - j)) for j in range(tries + 1)]
        if faces < 6:
            out.append((False, left - tries, (6 - faces) ** (tries + 1) * 6 ** (pool - tries)))
        return out

    @lru_cache(maxsize=None)
    def roman_fire(shooters, fleet, left):
        """((NR fleet afloat, rerolls left), weight over roman_den) after the Roman ships fire at ``fleet``."""
        n = len(fleet)
        dist = {(0, left): shot_den ** (NAVAL_MAX_SHIPS - shooters)}  # (mask of the NR ships hit, rerolls left)
        for rank in range(shooters):
            if target == "spread":
                picks = ((rank % n, 60),)
            elif target == "focus":
                picks = ((0, 60),)
            else:
                picks = tuple((t, 60 // n) for t in range(n))
            step = defaultdict(int)
            for (mask, pts), w in dist.items():
                for t, wt in picks:
                    for hit, after, wd in shot(max(0, min(6, 6 + bonus - fleet[t])), pts):
                        step[(mask | 1 << t if hit else mask, after)] += w * wt * wd
            dist = step
        out = defaultdict(int)
        for (mask, pts), w in dist.items():
            out[(tuple(v for t, v in enumerate(fleet) if not mask >> t & 1), pts)] += w
        return tuple(out.items())

    @lru_cache(maxsize=None)
    def nr_fire(fleet, shooters):
        """(Roman fleet afloat, weight over nr_den) after ``shooters`` NR ships each fire at a random Roman ship."""
        n = len(fleet)
        dist = {0: 360 ** (NAVAL_MAX_SHIPS - shooters)}  # mask of the Roman ships hit
        for _ in range(shooters):
            step = defaultdict(int)
            for mask, w in dist.items():
                for t, v in enumerate(fleet):
                    hit = 60 // n * max(0, 6 - v)
                    step[mask | 1 << t] += w * hit
                    step[mask] += w * (360 // n - hit)
            dist = step
        out = defaultdict(int)
        for mask, w in dist.items():
            out[tuple(v for t, v in enumerate(fleet) if not mask >> t & 1)] += w
        return tuple(out.items())

    @lru_cache(maxsize=None)
    def nr_afloat(shooters, fleet, left):
        out = defaultdict(int)
        for (after, _), w in roman_fire(shooters, fleet, left):
            out[len(after)] += w
        return tuple(out.items())

    @lru_cache(maxsize=None)
    def roman_afloat(fleet, shooters):
        out = defaultdict(int)
        for after, w in nr_fire(fleet, shooters):
            out[len(after)] += w
        return tuple(out.items())

    states = {(tuple(sorted(roman)), tuple(sorted(nr)), pool): 1}
    ends = defaultdict(Fraction)  # (Roman ships afloat, NR ships afloat, rounds) -> probability
    den = 1
    for rounds in (1, 2, 3):
        den *= roman_den * nr_den
        nxt, done = defaultdict(int), defaultdict(int)
        for (r, n, left), w in states.items():
            if rounds == 3:  # the last round: only how many ships stay afloat matters
                for k, wa in nr_afloat(len(r), n, left):
                    for j, wb in roman_afloat(r, len(n)):
                        done[(j, k)] += w * wa * wb
                continue
            fire_back = nr_fire(r, len(n))
            for (n2, after), wa in roman_fire(len(r), n, left):
                wa *= w
                for r2, wb in fire_back:
                    if r2 and n2:
                        nxt[(r2, n2, after)] += wa * wb
                    else:
                        done[(len(r2), len(n2))] += wa * wb
        for (j, k), w in done.items():
            ends[(j, k, rounds)] += Fraction(w, den)
        states = nxt

    values = dict.fromkeys(("p_win", "p_loss", "ip", "vp", "roman_ships_lost", "nr_ships_lost", "rounds"),
                           Fraction(0))
    for (j, k, rounds), p in ends.items():
        won = k == 0 and j > 0
        lost = not won and not (k == 0 and j == 0 and mutual_no_result)
        values["p_win"] += p * won
        values["p_loss"] += p * lost
        values["roman_ships_lost"] += p * (len(roman) - j)
        values["nr_ships_lost"] += p * (len(nr) - k)
        values["rounds"] += p * rounds
    values["ip"] = 2 * values["p_win"]
    values["vp"] = values["p_win"] - 2 * values["p_loss"]
    return values


def spolia(roman_virtus, roman_astutia, nr_virtus, nr_astutia, omen, mode):
    """KoR 5.7.2.1 with KOR-A17 as a one-state chain: a round either settles the duel or loops back.

    Each side hits on the faces where d6 + Astutia (+ Good Omen for Rome) exceeds the other's Virtus. Under
    ``simultaneous_single_round`` a round without a hit ends the duel with no result.
    """
    p_roman = Fraction(max(0, min(6, 6 + roman_astutia + omen - nr_virtus)), 6)
    p_nr = Fraction(max(0, min(6, 6 + nr_astutia - roman_virtus)), 6)
    scores = {"win": (1, 0, 0, 3, 3), "loss": (0, 1, 0, -3, -3), "both": (0, 0, 1, 0, 0),
              "none": (0, 0, 0, 0, 0)}
    quiet = (0, 0, 0, 0, 0)
    miss = (1 - p_roman) * (1 - p_nr)

    def transitions(state):
        if state != "duel":
            return []
        if mode == "sequential_roman_first":
            # the Roman strikes first: his hit kills the NR leader before he can roll
            return [(p_roman, "win", quiet), ((1 - p_roman) * p_nr, "loss", quiet), (miss, "duel", quiet)]
        return [(p_roman * (1 - p_nr), "win", quiet), ((1 - p_roman) * p_nr, "loss", quiet),
                (p_roman * p_nr, "both", quiet),
                (miss, "duel" if mode == "simultaneous_repeat" else "none", quiet)]

    values = absorbing_expectations("duel", transitions, lambda state: scores[state])
    return dict(zip(("p_win", "p_loss", "p_both_die", "ip", "vp"), values))


# One die of a duel, weighted over 360 outcomes: a 1/n share of the targets (n <= 6 divides 60) times 6 faces.
# Integer weights keep the chain's inner sums free of fraction reductions.
_DIE = 360


@lru_cache(maxsize=None)
def _duel_turn(dice, targets, aim):
    """One side's turn of ``dice`` dice against the sorted Virtus tuple ``targets`` (KoR 9.3.7.2, C1).

    A die kills its target iff d6 >= Virtus, before the next die is rolled; the turn ends early when no target is
    left. ``aim``: ``weakest``/``strongest`` take the lowest/highest Virtus, ``random`` any survivor with equal
    chance. Returns ``{targets left: (weight, weight x dice rolled)}`` over ``_DIE ** dice``.
    """
    if dice == 0 or not targets:
        return {targets: (_DIE ** dice, 0)}
    if aim == "random":
        shares = [(targets.count(v) * _DIE // (6 * len(targets)), v) for v in sorted(set(targets))]
    else:
        shares = [(_DIE // 6, targets[0] if aim == "weakest" else targets[-1])]
    out = defaultdict(lambda: [0, 0])
    for share, v in shares:
        i = targets.index(v)
        hit_faces = max(0, 7 - v)
        for after, w in ((targets[:i] + targets[i + 1:], share * hit_faces), (targets, share * (6 - hit_faces))):
            if w:
                for left, (weight, rolled) in _duel_turn(dice - 1, after, aim).items():
                    acc = out[left]
                    acc[0] += w * weight
                    acc[1] += w * (rolled + weight)
    return {left: tuple(acc) for left, acc in out.items()}


def horatii(roman, latin, rome_first, volley, roman_aim):
    """KoR 9.3.7.2 exactly: a Markov chain over (surviving Roman Virtus, surviving Latin Virtus, side to roll).

    The probability mass flows from larger to smaller sets of survivors (every move but a fully missed exchange
    kills a unit), so one pass in decreasing order of units alive settles each state. A state's exit mass is its
    mass over 1 - P(both sides miss every die): the only loop. Alba Longa aims at random, Rome per ``roman_aim``.
    Returns p_win, roman_survivors, latin_survivors and shots (dice rolled).
    """
    def turn_dice(units):
        return len(units) if volley else 1

    # plain ints: the memoized turns must not hold numpy scalars, whose products overflow
    start = (tuple(sorted(int(v) for v in roman)), tuple(sorted(int(v) for v in latin)), rome_first)
    mass = {start: Fraction(1)}
    win = romans_left = latins_left = shots = Fraction(0)
    for alive in range(len(roman) + len(latin), 0, -1):
        for state in [s for s in mass if len(s[0]) + len(s[1]) == alive]:
            m = mass.pop(state)
            romans, latins, rome = state
            if not romans or not latins:
                if not latins:
                    win += m
                romans_left += m * len(romans)
                latins_left += m * len(latins)
                continue
            own, enemy = (romans, latins) if rome else (latins, romans)
            d_own, d_enemy = turn_dice(own), turn_dice(enemy)

            def after(left, hit_latins):
                return (romans, left) if hit_latins else (left, latins)

            moves, rolled = [], 0
            missed = missed_rolled = stay = 0
            for left, (w, r) in _duel_turn(d_own, enemy, roman_aim if rome else "random").items():
                if left == enemy:
                    missed, missed_rolled = w, r
                else:
                    moves.append((after(left, rome) + (not rome,), w * _DIE ** d_enemy))
                    rolled += r * _DIE ** d_enemy
            if missed:  # every die missed: the other side answers, still within this state's exchange
                for left, (w, r) in _duel_turn(d_enemy, own, "random" if rome else roman_aim).items():
                    rolled += missed_rolled * w + missed * r
                    if left == own:
                        stay = missed * w
                    else:
                        moves.append((after(left, not rome) + (rome,), missed * w))
            exits = m / (_DIE ** (d_own + d_enemy) - stay)
            shots += exits * rolled
            for nxt, w in moves:
                mass[nxt] = mass.get(nxt, 0) + exits * w
    return {"p_win": win, "roman_survivors": romans_left, "latin_survivors": latins_left, "shots": shots}


def cocles(attempt, raid_units, nr, rome_first):
    """KoR 9.7.7.2: direct, P(d6 in {5, 6}) = 1/3 and no VP; raid, the Horatii duel of Horatius (Virtus 5) and
    the raiding units against the NR group, one die per turn, Roman dice at the weakest: +2 VP won, -1 VP lost."""
    if attempt == "direct":
        return {"p_win": Fraction(sum(face >= 5 for face in range(1, 7)), 6), "vp": Fraction(0)}
    won = horatii((5, *raid_units), nr, rome_first, False, "weakest")["p_win"]
    return {"p_win": won, "vp": 2 * won - (1 - won)}


def mucius(bridge):
    """KoR 9.7.7.1: faces 4-6 with the Sublicius bridge, 6 alone without (WE-5: 1/2 and 1/6)."""
    return {"p_win": Fraction(3 if bridge else 1, 6)}


def inauguratio(etruscan_king):
    """KoR 9.2.4: faces 1-4 valid, 1-5 for the three last kings (WE-5: 2/3 and 5/6)."""
    return {"p_win": Fraction(5 if etruscan_king else 4, 6)}


def _senate_consent(people):
    """KoR 9.3.4: the Senate consents on faces 4-6 (3 of 6), 5-6 for the Etruscans (2 of 6)."""
    return Fraction(2 if people == "etruscan" else 3, 6)


def senate(people, fallback, order):
    """KoR 9.3.4 with the fallback requests: each of the other three Curia peoples, one roll each, in ``order``
    (a DP-SE01 built-in), until one consents. Every order ends after at most four rolls."""
    first = _senate_consent(people)
    if not fallback:
        return {"p_win": first, "p_any_approval": first, "requests": Fraction(1)}
    others = [q for q in ("latin", "volsci", "sabine", "etruscan") if q != people]
    if order == "random":
        sequences = list(permutations(others))  # a uniform pick at each request makes every order equally likely
    else:
        rank = {"volsci_latin_sabine": ("volsci", "latin", "sabine", "etruscan"),
                "etruscans_first": ("etruscan", "volsci", "latin", "sabine")}[order]
        sequences = [sorted(others, key=rank.index)]
    requests = Fraction(0)
    for sequence in sequences:
        refused = 1 - first
        requests += 1
        for q in sequence:
            requests += refused  # this request is made only if every earlier one was refused
            refused *= 1 - _senate_consent(q)
    all_refused = (1 - first) * prod(1 - _senate_consent(q) for q in others)
    return {"p_win": first, "p_any_approval": 1 - all_refused, "requests": requests / len(sequences)}
