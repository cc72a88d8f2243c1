"""Exact Jugule ! probabilities, written from the rule text with rational arithmetic.

This module is the independent check of the duel engine: it shares no code with the kernels. Its procedures
restate the rules (Jugule sections 8 to 13 and the ambiguity defaults of section 17) in plain Python over a dice
interface, and ``romesim.core.exact.enumerate_dice`` turns them into exact distributions.

* ``p_spared``: the mercy appeal (12.2, JUG-A61).
* ``hit_loss`` / ``damage_distribution``: the damage of one hit that got through (8.2, JUG-A21, A22).
* ``assault_distribution``: one whole melee assault: location, shield, defence, damage die, fumble, the double
  attacks and the Andabata head stun (8.1, JUG-A11, A16, A20, A50, A51).
* ``javelin_hit_probability`` / ``javelin_distribution``: the javelin to-hit roll and the whole throw (10.4,
  JUG-A42, A44).
* ``p_knockdown``: the shield-bash knock-down test (10.6, JUG-A48).
* ``p_net_escape``: one escape attempt from the net (10.3, JUG-A38).
* ``career_solution``: the promotion ladder of section 13 as a Markov chain, for fixed per-duel odds.

Ranks are 0 tiro, 1 primus palus, 2 speciarius, 3 veteranus. Zones are named as in section 9.1; armour values
are the positive amounts subtracted (3 for a printed "-3").
"""
import csv
import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..core.errors import ScenarioError
from ..core.exact import enumerate_dice

TIRO, PRIMUS_PALUS, SPECIARIUS, VETERANUS = range(4)
RANKS = ("tiro", "primus_palus", "speciarius", "veteranus")
ZONES = ("thorax", "left_arm", "right_arm", "left_leg", "right_leg", "head")  # location die 1..6 (JUG-A12)
ARC_BONUS = {"front": 0, "flank": 1, "rear": 2}  # assault-die modifiers of [S-VI]
# damage die modifier of each weapon (Jugule 10, data/jugule_weapons.csv): "1d6-2" is -2
WEAPON_MOD = {"glaive": 0, "sword": 0, "sica": 0, "dagger": -2, "two_handed": 2, "spear": 0, "trident": 0,
              "javelin": 0, "iron_fists": -2, "two_glaives": 0, "shield_improvised": -3,
              "veles_javelin": -1}  # JUG-A43 javelin_profile = veles_minus1: the Veles row's 1d6-1
DOUBLE_ATTACK_WEAPONS = ("two_glaives", "iron_fists")  # Dimachaerus and Andabata (JUG-A50)

BLOCKED, PARRIED, DODGED, FUMBLE, MISSED = "blocked", "parried", "dodged", "fumble", "missed"


def _die_faces():
    return range(1, 7)


# --------------------------------------------------------------------------- mercy (12.2)
def mercy_modifier(rank, dealt, *, mercy_damage_mod="above3", mercy_vet_cumulative=True):
    """Jugule 12.2 (JUG-A61): experienced +1, veteran +1 more (cumulative by default), +1 per point dealt above 3.

    ``from3`` reads "at least 3 damage: +1 per point" as dealt - 2 from 3 points on.
    """
    mod = 1 if rank >= SPECIARIUS else 0
    if rank == VETERANUS and mercy_vet_cumulative:
        mod += 1
    if mercy_damage_mod == "above3":
        mod += max(0, dealt - 3)
    elif mercy_damage_mod == "from3":
        mod += dealt - 2 if dealt >= 3 else 0
    else:
        raise ScenarioError(f"mercy_damage_mod: {mercy_damage_mod!r} is not allowed; expected 'above3' or 'from3'")
    return mod


def p_spared(rank, dealt, **options):
    """Jugule 12.2: spared on a modified 5 or 6 ("Stans Missus"), and a natural 1 always fails."""
    mod = mercy_modifier(rank, dealt, **options)
    return Fraction(sum(1 for n in _die_faces() if n != 1 and n + mod >= 5), 6)


# --------------------------------------------------------------------------- damage of one hit (8.2)
def experience_bonus(attacker_rank, target_rank, *, exp_mod="experienced_only", primus_is_novice=True):
    """The +1 of an experienced attacker against a less experienced target (JUG-A23, JUG-A63).

    ``experienced_only``: the attacker outranks the target once a primus palus is counted as a tiro (unless
    ``primus_is_novice`` is false); ``any_higher_rank``: any higher rank; ``per_rank``: +1 per rank above.
    """
    if exp_mod == "per_rank":
        return max(0, attacker_rank - target_rank)
    if exp_mod == "any_higher_rank":
        return 1 if attacker_rank > target_rank else 0

    def standing(rank):
        return TIRO if rank == PRIMUS_PALUS and primus_is_novice else rank

    return 1 if standing(attacker_rank) > standing(target_rank) else 0


def circumstance_bonus(*, arc="front", experience=0, target_wounded=False, target_on_ground=False):
    """The assault-die modifiers of [S-VI] other than the weapon's: experience, flank +1 or rear +2, a wounded
    target +1 (JUG-A24), a target still on the ground +2."""
    if arc not in ARC_BONUS:
        raise ScenarioError(f"arc: {arc!r} is not allowed; expected one of 'front', 'flank', 'rear'")
    return experience + ARC_BONUS[arc] + (1 if target_wounded else 0) + (2 if target_on_ground else 0)


def hit_loss(weapon, natural, armour, bonus, *, sica_bonus="uncovered", min_damage_stage="weapon"):
    """HP lost from one hit whose assault die shows ``natural`` (not a fumble), Jugule 8.2.

    ``armour`` is the protection of the zone hit (0 for an immobilised target, JUG-A26); ``bonus`` the
    circumstance modifiers. JUG-A21 decides where "at least 1 point" applies: to the weapon's own roll (default),
    after the circumstance modifiers, or after armour. JUG-A22: the sica's +1 on an uncovered zone.
    """
    w = natural + WEAPON_MOD[weapon]
    if weapon == "sica" and (sica_bonus == "always" or (sica_bonus == "uncovered" and armour == 0)):
        w += 1
    if min_damage_stage == "weapon":
        return max(0, max(1, w) + bonus - armour)
    if min_damage_stage == "after_modifiers":
        return max(0, max(1, w + bonus) - armour)
    if min_damage_stage == "after_armour":
        return max(1, w + bonus - armour)
    raise ScenarioError(f"min_damage_stage: {min_damage_stage!r} is not allowed; expected 'weapon', "
                        "'after_modifiers' or 'after_armour'")


def damage_distribution(weapon, armour, bonus=0, **options):
    """``{FUMBLE or loss: probability}`` of the assault die of a hit that got through (8.1 step 3)."""
    dist = defaultdict(Fraction)
    for n in _die_faces():
        dist[FUMBLE if n == 1 else hit_loss(weapon, n, armour, bonus, **options)] += Fraction(1, 6)
    return dict(dist)


# --------------------------------------------------------------------------- one assault (8.1)
@dataclass(frozen=True)
class Target:
    """What an assault meets: armour per zone (``ZONES`` order, positive values), the zones a shield neutralises
    this turn, and whether the target is immobilised (captured by the net: no protection at all, JUG-A26)."""

    armour: tuple = (0, 0, 0, 0, 0, 0)
    neutralised: frozenset = frozenset()
    immobilised: bool = False

    def protection(self, zone):
        return 0 if self.immobilised else self.armour[ZONES.index(zone)]

    def blocks(self, zone, arc):
        """Shields neutralise their zones against front and flank assaults, never from the rear (JUG-A18)."""
        return not self.immobilised and arc != "rear" and zone in self.neutralised


@dataclass(frozen=True)
class Outcome:
    """One way an assault can end: ``kind`` is blocked, parried, dodged, missed, fumble or hit; ``loss`` the HP
    removed; ``stunned`` loss >= 5 in the assault or an Andabata head hit (JUG-A59, A51); ``fumbled`` whether a
    fumble happened (for a double attack the second blow can fumble after the first one hit); ``knocked_down``
    the target fell to a shield bash."""

    kind: str
    loss: int = 0
    stunned: bool = False
    fumbled: bool = False
    knocked_down: bool = False


def wounded(hp, hp_max, wounded_mod="hp_le_5"):
    """JUG-A24: the +1 of a wounded target: HP <= 5, or (``any_damage``) any HP lost."""
    return hp < hp_max if wounded_mod == "any_damage" else hp <= 5


def resolve_assault(dice, weapon, target, *, arc="front", bonus=0, defence="none", double_attack="two_locations",
                    fumble_scope="successful_only", andabata_head="stun", target_hp=None, target_hp_max=10,
                    wounded_mod="hp_le_5", **damage_options):
    """One melee assault, Jugule 8.1, read from the rules; the defender's ``defence`` (none, parry, dodge) is used
    whenever it is allowed: not from the rear, not against an immobilised target, and only once the zone is known
    and not already blocked (JUG-A16). Returns an ``Outcome``.

    ``bonus`` holds the circumstance modifiers. With ``target_hp`` given, the wounded +1 (JUG-A24) is judged at
    each blow from the HP left, so the second blow of a double attack gets it when the first one wounded him.
    """
    hp = target_hp

    def blow(natural, zone):
        nonlocal hp
        extra = 0 if hp is None else (1 if wounded(hp, target_hp_max, wounded_mod) else 0)
        loss = hit_loss(weapon, natural, target.protection(zone), bonus + extra, **damage_options)
        if hp is not None:
            hp -= loss
        return loss

    zone = ZONES[dice.d6() - 1]
    early = dice.d6() if fumble_scope == "every_assault" else None  # JUG-A20: the die is rolled before defence
    if early == 1:
        return Outcome(FUMBLE, fumbled=True)
    if target.blocks(zone, arc):
        return Outcome(BLOCKED)
    if defence != "none" and not target.immobilised and arc != "rear":
        return Outcome(PARRIED if defence == "parry" else DODGED)
    natural = early if early is not None else dice.d6()
    if natural == 1:
        return Outcome(FUMBLE, fumbled=True)
    def stuns(z, blow_loss):
        """10.8 (JUG-A51): an Andabata blow that got through to the head stuns; ``stun_if_wounds``: if it wounds."""
        if weapon != "iron_fists" or z != "head":
            return False
        return andabata_head == "stun" or (andabata_head == "stun_if_wounds" and blow_loss >= 1)

    loss = blow(natural, zone)
    head_stun = stuns(zone, loss)
    fumbled = False
    if weapon in DOUBLE_ATTACK_WEAPONS:
        zone2 = zone if double_attack == "same_location" else ZONES[dice.d6() - 1]
        if not target.blocks(zone2, arc):
            natural2 = dice.d6()
            if natural2 == 1:
                fumbled = True
            else:
                loss2 = blow(natural2, zone2)
                loss += loss2
                head_stun = head_stun or stuns(zone2, loss2)
    return Outcome("hit", loss, loss >= 5 or head_stun, fumbled)


def assault_distribution(weapon, target, **options):
    """``{Outcome: probability}`` of ``resolve_assault`` over every dice sequence."""
    return enumerate_dice(lambda dice: resolve_assault(dice, weapon, target, **options))


def loss_distribution(dist):
    """``{loss: probability}`` of an outcome distribution (blocked, parried, fumbled assaults remove 0 HP)."""
    losses = defaultdict(Fraction)
    for outcome, p in dist.items():
        losses[outcome.loss] += p
    return dict(losses)


# --------------------------------------------------------------------------- the types' protection (9.3, 14)
def _type_rows():
    with open(Path(__file__).with_name("data") / "jugule_gladiators.csv", newline="", encoding="utf-8") as fh:
        return {row["type_id"]: row for row in csv.DictReader(fh)}


TYPE_ROWS = _type_rows()
_PRINTED_HELMET_3 = ("thraex_late", "murmillo", "eques", "bestiarius")  # "Casque (-3)" (JUG-A27)


def type_armour(type_id, *, protection_values="as_printed", thraex_early_kit="greaves", single_greave_side="left",
                dimachaerus_helmet=False):
    """The armour of a type, ``ZONES`` order, positive values, from the type table and the loadout options
    JUG-A27 (``normalised``: the unqualified "Casque (-3)" is an open helmet -2 and the cuirasses are -3),
    JUG-A28 (early Thraex: greaves, a -3 helmet instead, or both), JUG-A29 (the single greave of the late Thraex
    and the Samnis on the left or right leg) and JUG-A30 (the Dimachaerus' optional open helmet)."""
    row = TYPE_ROWS[type_id]
    armour = dict((zone, -int(row[zone])) for zone in ZONES)
    if type_id == "thraex_early" and thraex_early_kit != "greaves":
        armour["head"] = 3
        if thraex_early_kit == "helmet":
            armour["left_leg"] = armour["right_leg"] = 0
    if type_id in ("thraex_late", "samnis") and single_greave_side == "right":
        armour["left_leg"], armour["right_leg"] = armour["right_leg"], armour["left_leg"]
    if type_id == "dimachaerus" and dimachaerus_helmet:
        armour["head"] = 2
    if protection_values == "normalised":
        if armour["head"] == 3 and (type_id in _PRINTED_HELMET_3 or type_id == "thraex_early"):
            armour["head"] = 2
        armour["thorax"] = min(armour["thorax"], 3)
    return tuple(armour[zone] for zone in ZONES)


def type_shield(type_id, *, eques_shield="round"):
    return eques_shield if type_id == "eques" else TYPE_ROWS[type_id]["shield"]


def type_target(type_id, *, scutum_zone="thorax", immobilised=False, eques_shield="round", **loadout):
    """A type as the target of an assault: its armour, and the zones its shield neutralises (9.2: any shield
    covers the left arm; a scutum also the zone declared this turn, JUG-A19)."""
    shield = type_shield(type_id, eques_shield=eques_shield)
    covered = frozenset() if shield == "none" else frozenset(
        ("left_arm", scutum_zone) if shield == "scutum" else ("left_arm",))
    return Target(type_armour(type_id, **loadout), covered, immobilised)


# --------------------------------------------------------------------------- javelin (10.4)
def javelin_modifier(distance, *, spoiled=False, target_spent_reserve=False, javelin_reserve_mod="dodge_minus1"):
    """Jugule 10.4: -1 beyond 5 hexes, +1 under 5, 0 at 5; JUG-A42 decides what the target's reserve point does:
    -1 when he spends it to spoil the throw (default), +1 if he has spent any reserve this turn (the literal
    text), or nothing."""
    mod = -1 if distance > 5 else 1 if distance < 5 else 0
    if javelin_reserve_mod == "dodge_minus1" and spoiled:
        mod -= 1
    elif javelin_reserve_mod == "literal_plus1" and target_spent_reserve:
        mod += 1
    return mod


def javelin_hit_probability(distance, **options):
    """P(d6 + modifier >= 4) (10.4)."""
    mod = javelin_modifier(distance, **options)
    return Fraction(sum(1 for n in _die_faces() if n + mod >= 4), 6)


def resolve_javelin(dice, target, distance, *, arc="front", bonus=0, missile_fumble=True, spoiled=False,
                    target_spent_reserve=False, javelin_reserve_mod="dodge_minus1", weapon="javelin", parry=False,
                    **damage_options):
    """One javelin (or thrown spear) throw (10.4, JUG-A44): to-hit roll, then location, shield, damage die with
    fumble (unless ``missile_fumble`` is false), armour. ``parry``: the target parries it (only with
    ``parry_missiles = true``, JUG-A17), not from the rear nor when immobilised."""
    mod = javelin_modifier(distance, spoiled=spoiled, target_spent_reserve=target_spent_reserve,
                           javelin_reserve_mod=javelin_reserve_mod)
    if dice.d6() + mod < 4:
        return Outcome(MISSED)
    zone = ZONES[dice.d6() - 1]
    if target.blocks(zone, arc):
        return Outcome(BLOCKED)
    if parry and not target.immobilised and arc != "rear":
        return Outcome(PARRIED)
    natural = dice.d6()
    if natural == 1 and missile_fumble:
        return Outcome(FUMBLE, fumbled=True)
    loss = hit_loss(weapon, natural, target.protection(zone), bonus, **damage_options)
    return Outcome("hit", loss, loss >= 5)


def javelin_distribution(target, distance, **options):
    return enumerate_dice(lambda dice: resolve_javelin(dice, target, distance, **options))


# --------------------------------------------------------------------------- knock-down (10.6), net (10.3)
def p_knockdown(ap, wounds=0, reserve=0):
    """Jugule 10.6 (JUG-A48): the target falls if 2d6 + wounds - r >= his AP, where he spends r <= ``reserve``
    points after seeing the roll, as many as it takes: so he falls iff 2d6 + wounds - reserve >= AP."""
    return Fraction(sum(1 for a in _die_faces() for b in _die_faces() if a + b + wounds - reserve >= ap), 36)


def resolve_bash(dice, target, ap, *, arc="front", defence="none", bash_mode="push_only", wounds=0, reserve=0,
                 knockdown_wounds="hits", target_hp=10, target_hp_max=10, bonus=0, **assault_options):
    """A shield bash (10.6, JUG-A47, A48). ``push_only``: no location and no damage; a parry or dodge stops it
    (not from the rear, not on an immobilised target). ``full_assault``: an assault with the shield (1d6-3,
    location, shield, defence, fumble), and the test only after a hit the target survived. Then 2d6 plus the
    wounds term (hits that removed HP; or HP lost; or 1 when HP <= 5), less the reserve points he spends after
    the roll, against his AP."""
    hp = target_hp
    if bash_mode == "full_assault":
        outcome = resolve_assault(dice, "shield_improvised", target, arc=arc, bonus=bonus, defence=defence,
                                  target_hp=target_hp, target_hp_max=target_hp_max, **assault_options)
        if outcome.kind != "hit" or outcome.loss >= target_hp:
            return outcome
        hp -= outcome.loss
        wounds += 1 if outcome.loss >= 1 else 0
    else:
        if defence != "none" and not target.immobilised and arc != "rear":
            return Outcome(PARRIED if defence == "parry" else DODGED)
        outcome = Outcome("hit")
    term = {"hits": wounds, "hp_lost": target_hp_max - hp, "wounded_flag": 1 if hp <= 5 else 0}[knockdown_wounds]
    falls = dice.two_d6() + term - reserve >= ap
    return Outcome(outcome.kind, outcome.loss, outcome.stunned, outcome.fumbled, falls)


def p_net_escape(points, *, net_escape_cmp="lt"):
    """Jugule 10.3 (JUG-A38): free if d6 < points spent (``lt``, the literal text) or d6 <= points (``le``)."""
    if net_escape_cmp == "lt":
        return Fraction(sum(1 for n in _die_faces() if n < points), 6)
    return Fraction(sum(1 for n in _die_faces() if n <= points), 6)


# --------------------------------------------------------------------------- career ladder (13)
@dataclass(frozen=True)
class DuelOdds:
    """Fixed per-duel outcome odds against an opponent of each rank: P(win) and P(lose but survive, spared);
    the rest is death."""

    win: tuple  # indexed by opponent rank
    spared: tuple


def promote(rank, opponent, won, counters, *, primus_is_novice=True, career_counters="novice_period"):
    """Jugule 13 after a duel the gladiator survived: returns (new rank, new counters).

    ``counters`` = (novice wins, wins against speciarii or better, elite wins over the career). JUG-A64, by
    default (``novice_period``): C3 counts the victories over novices of the whole novice period (« Un novice
    (TIROS) … Remportant deux victoires contre des novices devient expérimenté »: the step to primus palus clears
    nothing), C4 the victories since the promotion to speciarius (« Un SPECIARII Remportant trois victoires
    contre des SPECIARII »); ``since_promotion`` clears both at every promotion, primus palus included;
    ``career_total`` never clears them. C6 counts over the whole career. C2 (a novice survives a more
    experienced opponent) takes precedence over C1. JUG-A63: with ``primus_is_novice`` false only a tiro is a
    novice, and a primus palus counts as more experienced than a tiro.
    """
    if career_counters not in ("novice_period", "since_promotion", "career_total"):
        raise ValueError(f"career_counters: {career_counters!r} is not allowed; expected novice_period, "
                         "since_promotion or career_total")
    novice_wins, senior_wins, elite_wins = counters

    def is_novice(r):
        return r == TIRO or (r == PRIMUS_PALUS and primus_is_novice)

    if won and is_novice(opponent):
        novice_wins += 1
    if won and opponent >= SPECIARIUS:
        senior_wins += 1
        elite_wins += 1
    more_experienced = opponent >= SPECIARIUS if primus_is_novice else opponent > rank
    new = rank
    if is_novice(rank) and more_experienced:
        new = SPECIARIUS  # C2
    elif rank == SPECIARIUS and (opponent == VETERANUS or senior_wins >= 3):
        new = VETERANUS  # C5, C4
    elif is_novice(rank) and novice_wins >= 2:
        new = SPECIARIUS  # C3
    elif rank == TIRO:
        new = PRIMUS_PALUS  # C1
    if new != rank and career_counters == "since_promotion":
        novice_wins, senior_wins = 0, 0
    elif new == SPECIARIUS and rank < SPECIARIUS and career_counters == "novice_period":
        senior_wins = 0  # C4 counts as a speciarius
    return new, (novice_wins, senior_wins, elite_wins)


def career_solution(odds, opponent_weights, *, max_fights=60, rudis_wins=10, after_rudis="retire",
                    **ladder_options):
    """The career of section 13 as an exact Markov chain, when each duel is won, lost-but-spared or lost-and-dead
    with the fixed ``odds`` for the opponent's rank, and opponents' ranks are drawn with ``opponent_weights``.

    The career ends with death, with the rudis (``rudis_wins`` victories against speciarii or veterani, C6; the
    gladiator then retires, unless ``after_rudis = "fight_on"``, D17: « rien ne l'empêche de poursuivre sa
    carrière »), or after ``max_fights`` duels. Returns ``{metric: Fraction}``: p_rudis, p_death,
    p_capped, p_primus_palus, p_speciarius, p_veteranus (reaching at least that rank), p_death_<rank> (dying
    while of that rank), fights (expected duels fought), wins, and ``survival`` (a tuple: P(alive after k duels),
    k = 1 .. max_fights; a retired rudiarius counts as alive; with ``fight_on`` p_rudis counts every career that
    earned the rudis, whatever came after), elite_wins (victories over speciarii or
    veterani).
    """
    total = sum(opponent_weights)
    p_rank = [Fraction(w, total) for w in opponent_weights]
    # exact integer weights: every probability of one duel is an integer over the common denominator ``scale``,
    # and the masses of step k are integers over scale**k (big integers are far faster than Fractions here)
    parts = [(o, po * odds.win[o], po * odds.spared[o], po * (1 - odds.win[o] - odds.spared[o]))
             for o, po in enumerate(p_rank) if po]
    scale = math.lcm(*(f.denominator for part in parts for f in part[1:]))
    branch = [(o, *(int(f * scale) for f in fs)) for o, *fs in parts]  # (opponent, weight of win, spared, death)
    if after_rudis not in ("retire", "fight_on"):
        raise ValueError(f"after_rudis: {after_rudis!r} is not allowed; expected retire or fight_on")
    fight_on = after_rudis == "fight_on"
    # a state is (rank, counters); counters past their thresholds (C3: 2, C4: 3, C6: rudis_wins) behave alike, so
    # they are capped (a freed gladiator who fights on has elite_wins == rudis_wins)
    states = {(TIRO, (0, 0, 0)): 1}
    out = defaultdict(int)
    reached = defaultdict(int)
    survival_mass = []
    for fight in range(1, max_fights + 1):
        for key in out:
            out[key] *= scale
        for key in reached:
            reached[key] *= scale
        nxt = defaultdict(int)
        for (rank, counters), mass in states.items():
            out["fights"] += mass * scale
            for opponent, win, spared, death in branch:
                out["p_death"] += mass * death
                out["p_death_" + RANKS[rank]] += mass * death
                out["wins"] += mass * win
                if opponent >= SPECIARIUS:
                    out["elite_wins"] += mass * win
                for won, weight in ((True, win), (False, spared)):
                    if weight == 0:
                        continue
                    new, (novice_wins, senior_wins, elite_wins) = promote(rank, opponent, won, counters,
                                                                           **ladder_options)
                    q = mass * weight
                    for r in range(rank + 1, new + 1):
                        reached[r] += q
                    if elite_wins >= rudis_wins and counters[2] < rudis_wins:
                        out["p_rudis"] += q  # freed by this victory (C6)
                    if elite_wins < rudis_wins or fight_on:
                        nxt[(new, (min(novice_wins, 2), min(senior_wins, 3), min(elite_wins, rudis_wins)))] += q
        states = nxt
        retired = 0 if fight_on else out["p_rudis"]
        survival_mass.append((sum(states.values()) + retired, scale ** fight))
    denominator = scale ** max_fights
    out["p_capped"] = sum(states.values())
    result = {m: Fraction(out[m], denominator) for m in ("p_rudis", "p_death", "p_capped", "fights", "wins",
                                                          "elite_wins")}
    result.update(p_primus_palus=Fraction(reached[PRIMUS_PALUS], denominator),
                  p_speciarius=Fraction(reached[SPECIARIUS], denominator),
                  p_veteranus=Fraction(reached[VETERANUS], denominator),
                  survival=tuple(Fraction(m, d) for m, d in survival_mass))
    result.update({"p_death_" + name: Fraction(out["p_death_" + name], denominator) for name in RANKS})
    return result
