"""One attack (Jugule 8, 10): ``jugule.assault``, the odds of a single assault, throw or shield bash.

The kernel resolves the attack with the duel's own functions (``combat.neutralised``, ``combat.strike``,
``combat.javelin_needs``, ``combat.knockdown_total``, ``combat.after_assault``) on gladiator rows built by
``gladiators.gladiator_row``, so the Monte Carlo exercises the engine's code; ``exact_solution`` comes from the
independent procedures of ``romesim.jugule.exact``.

The situation is frozen: the attacker has his weapon in hand, the target stands at ``distance`` in the arc
``arc`` of his own facing, and he answers with ``defence`` whenever the rules let him (not from the rear, not
when immobilised, no dodge from the ground, JUG-A25; against throws only a parry with ``parry_missiles``, JUG-A17).
What follows the attack in a duel (the fumble table, push-backs, appeals) is not played: the metrics say what the
attack did.
"""
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel
from ..core.errors import ScenarioError
from ..core.exact import enumerate_dice
from ..core.scenario import Scenario, option_table, param, register
from . import combat as cb
from . import exact as jx
from .geometry import ARC_FLANK, ARC_FRONT, ARC_REAR
from .gladiators import TYPES, gladiator_row, gladiator_spec

option = option_table(Path(__file__).with_name("data") / "jugule_options.csv")

ATTACKS = ("melee", "javelin", "spear_throw", "shield_bash", "shield_improvised")
MELEE_WEAPONS = ("auto", "glaive", "sword", "sica", "dagger", "two_handed", "spear", "trident", "iron_fists",
                 "two_glaives")
ARCS = ("front", "flank", "rear")
DEFENCES = ("none", "parry", "dodge")
MAX_DAMAGE_BIN = 10  # p_damage_10_plus gathers the rest

# compiled parameter vector
(ATTACK, KIND, DOUBLE, ARC, RIGHT, DISTANCE, DEFENCE, SPOIL, RESERVE, DIE_FUMBLES, N_PARAMS) = range(11)
A_MELEE, A_JAVELIN, A_SPEAR_THROW, A_BASH, A_IMPROVISED = range(5)
D_NONE, D_PARRY, D_DODGE = range(3)

# outcome columns, in Assault.metrics order
(HIT, BLOCKED, DEFENDED, MISSED, FUMBLE, WOUND, STUN, KILL, KNOCKDOWN, DAMAGE, DAMAGE_0, N_METRICS) = (
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10 + MAX_DAMAGE_BIN + 1)


@njit(cache=True, inline="always")
def _knockdown_test(stream, o, p, dfn):
    """10.6 (JUG-A48): 2d6 plus the wounds term, less the reserve spent after the roll, against the AP."""
    return cb.knockdown_total(o, dfn, rng.two_d6(stream)) - p[RESERVE] >= dfn[cb.G_AP]


@njit(cache=True, inline="always")
def _through(stream, row, p, o, att, dfn, kind, double, immob):
    """Location, shield, defence and the assault die of an attack that reached the target; True if it hit."""
    arc = p[ARC]
    zone = cb.zone_of(rng.d6(stream))
    if cb.neutralised(o, dfn, zone, arc, p[RIGHT], immob):
        row[BLOCKED] = 1
        return False
    if p[DEFENCE] != D_NONE:
        row[DEFENDED] = 1
        return False
    loss1, loss2, fumbled, head = cb.strike(stream, o, att, dfn, kind, zone, arc, p[RIGHT], immob, double,
                                            p[DIE_FUMBLES])
    if fumbled == 1:
        row[FUMBLE] = 1
        return False
    row[HIT] = 1
    row[FUMBLE] = 1 if fumbled == 2 else 0
    dfn[cb.G_HEAD_STUN] = head
    damage = loss1 + loss2
    row[DAMAGE] = damage
    row[DAMAGE_0 + min(damage, MAX_DAMAGE_BIN)] = 1
    return True


@njit(cache=True)
def assault_scratch(args):
    """The attacker's and the target's rows, reset from ``args`` at every game."""
    return np.zeros_like(args[2]), np.zeros_like(args[3])


@njit(cache=True, inline="always")
def assault_game(stream, row, codes, params, slots, p, o, att0, dfn0, att, dfn):
    row[:] = 0
    att[:] = att0
    dfn[:] = dfn0
    immob = cb.immobilised(o, dfn)
    kind = p[KIND]
    hit = False
    if p[ATTACK] == A_JAVELIN or p[ATTACK] == A_SPEAR_THROW:
        if rng.d6(stream) < cb.javelin_needs(o, p[DISTANCE], p[SPOIL], p[SPOIL]):
            row[MISSED] = 1
        else:
            hit = _through(stream, row, p, o, att, dfn, kind, False, immob)
    elif p[ATTACK] == A_BASH and o[cb.O_BASH_MODE] == 0:  # push_only: no location, no damage (JUG-A47)
        if p[DEFENCE] != D_NONE:
            row[DEFENDED] = 1
        else:
            row[HIT] = 1
            row[DAMAGE_0] = 1
            hit = True
    else:
        hit = _through(stream, row, p, o, att, dfn, kind, p[DOUBLE] == 1, immob)
    if not hit:
        row[DAMAGE_0] = 1
        return 0
    end = cb.after_assault(o, dfn)
    row[WOUND] = 1 if row[DAMAGE] >= 1 else 0
    row[KILL] = 1 if end == cb.END_DEAD else 0
    row[STUN] = 1 if end == cb.END_STUNNED else 0
    if p[ATTACK] == A_BASH and end != cb.END_DEAD:
        row[KNOCKDOWN] = 1 if _knockdown_test(stream, o, p, dfn) else 0
    return 0


assault_kernel = block_kernel("assault_kernel", assault_scratch, assault_game, N_METRICS)


# --------------------------------------------------------------------------- scenario
LOADOUT_OPTIONS = ("protection_values", "thraex_early_kit", "single_greave_side", "dimachaerus_helmet")


@register
class Assault(Scenario):
    name = "jugule.assault"
    rule = "Jugule 8, 10"
    title = "One assault, throw or shield bash, from a frozen situation"
    p_win = "the attack succeeds: it got through and its assault die is not a natural 1 (a landed bash)"
    metrics = ("p_hit", "p_blocked", "p_defended", "p_missed", "p_fumble", "p_wound", "p_stun", "p_kill",
               "p_knockdown", "mean_damage", *(f"p_damage_{k}" for k in range(MAX_DAMAGE_BIN)),
               f"p_damage_{MAX_DAMAGE_BIN}_plus")
    kernel = staticmethod(assault_kernel)

    attacker: str = param("thraex_late", choices=TYPES, doc="the attacker's type", rule="14")
    target: str = param("secutor", choices=TYPES, doc="the target's type", rule="14")
    attack: str = param("melee", choices=ATTACKS, doc="melee assault, javelin or spear throw, shield bash or "
                        "improvised shield attack (an attacker left without a usable weapon, JUG-A49)",
                        rule="8.1, 10.4, 10.6, 10.7")
    weapon: str = param("auto", choices=MELEE_WEAPONS, doc="melee weapon (auto: the attacker's first)", rule="10")
    rank_attacker: str = param("tiro", choices=cb.RANKS, doc="the attacker's rank (experience +1)", rule="13, JUG-A23")
    rank_target: str = param("tiro", choices=cb.RANKS, doc="the target's rank", rule="13, JUG-A23")
    target_hp: int = param(10, lo=1, hi=12, doc="the target's HP before the attack", rule="12.1, JUG-A24")
    target_bonus_hp: int = param(0, lo=0, hi=2, doc="career bonus HP of the target: hp_max = 10 + this", rule="13")
    target_bonus_ap: int = param(0, lo=0, hi=3, doc="career bonus AP of the target (knock-down test)", rule="13")
    arc: str = param("front", choices=ARCS, doc="where the attacker stands, seen from the target's facing",
                     rule="8.2, 15.2")
    flank_side: str = param("left", choices=("left", "right"), doc="side of a flank attack (JUG-A18 left_only)",
                            rule="JUG-A18")
    distance: int = param(1, lo=1, hi=10, doc="hexes between them", rule="10.2, 10.4")
    scutum_zone: str = param("thorax", choices=("thorax", "left_leg", "head"),
                             doc="the zone a scutum covers this turn", rule="9.2, JUG-A19")
    target_on_ground: bool = param(False, doc="the target is on the ground (+2 damage)", rule="8.2, JUG-A25")
    target_captured: bool = param(False, doc="the target is caught in the net (immobilised)", rule="10.3, JUG-A26")
    defence: str = param("none", choices=DEFENCES, doc="the target parries or dodges whenever allowed", rule="7, D9")
    spoil: bool = param(False, doc="the target spends a reserve point against a throw", rule="10.4, JUG-A42")
    target_wounds: int = param(0, lo=0, hi=20, doc="hits that removed HP earlier in the duel (knock-down)",
                               rule="10.6, JUG-A48")
    target_reserve: int = param(0, lo=0, hi=20, doc="reserve points the target spends against a fall",
                                rule="10.6, JUG-A48")
    shield_side: str = option("shield_side")
    scutum_zones: str = option("scutum_zones")
    min_damage_stage: str = option("min_damage_stage")
    sica_bonus: str = option("sica_bonus")
    exp_mod: str = option("exp_mod")
    wounded_mod: str = option("wounded_mod")
    immobilised: str = option("immobilised")
    parry_missiles: bool = option("parry_missiles")
    protection_values: str = option("protection_values")
    thraex_early_kit: str = option("thraex_early_kit")
    single_greave_side: str = option("single_greave_side")
    dimachaerus_helmet: bool = option("dimachaerus_helmet")
    eques_shield: str = option("eques_shield")
    bestiarius_weapon: str = option("bestiarius_weapon")
    javelin_reserve_mod: str = option("javelin_reserve_mod")
    javelin_profile: str = option("javelin_profile")
    missile_fumble: bool = option("missile_fumble")
    bash_shields: str = option("bash_shields")
    bash_mode: str = option("bash_mode")
    knockdown_wounds: str = option("knockdown_wounds")
    double_attack: str = option("double_attack")
    andabata_head: str = option("andabata_head")

    # ------------------------------------------------------------------ the situation
    def _options(self):
        defaults = {name: default for name, (_, default) in cb.option_rows().items()}
        return {**defaults, **{name: getattr(self, name) for name in defaults if hasattr(self, name)},
                "eques_javelins": 0, "custom_build": "off", "reach_holders": "long_weapons",
                "spear_throw": "javelin_rule"}

    def _specs(self):
        options = self._options()
        return gladiator_spec("attacker", self.attacker, options), gladiator_spec("target", self.target, options)

    def _weapon(self, spec):
        carried = [w for w in spec["weapons"] if w in MELEE_WEAPONS]
        if self.attack == "javelin":
            return "javelin"
        if self.attack == "spear_throw":
            return "spear"
        if self.attack in ("shield_bash", "shield_improvised"):
            return "shield"
        return carried[0] if self.weapon == "auto" else self.weapon

    def _defence(self):
        """The defence the rules allow in this situation (7, JUG-A15, A17, A25, A26)."""
        immobilised = self.target_captured or (self.immobilised == "net_and_ground" and self.target_on_ground)
        if self.defence == "none" or self.arc == "rear" or immobilised:
            return "none"
        if self.attack in ("javelin", "spear_throw"):
            return "parry" if self.parry_missiles and self.defence == "parry" else "none"
        if self.defence == "dodge" and self.target_on_ground:
            return "none"
        return self.defence

    def check(self):
        att, dfn = self._specs()
        weapons = att["weapons"]
        if self.attack == "melee":
            melee = [w for w in weapons if w in MELEE_WEAPONS]
            if not melee:
                raise ScenarioError(f"attack: 'melee' is not allowed for a {self.attacker}, who carries no melee "
                                    f"weapon ({', '.join(weapons)})")
            if self.weapon != "auto" and self.weapon not in melee:
                raise ScenarioError(f"weapon: {self.weapon!r} is not allowed for a {self.attacker}; expected "
                                    f"'auto' or one of {', '.join(melee)}")
            reach = 2 if self._weapon(att) in ("spear", "trident") else 1
            if self.distance > reach:
                raise ScenarioError(f"distance: {self.distance} is not allowed for a {self._weapon(att)} assault; "
                                    f"expected 1{' or 2' if reach == 2 else ''} (10.2, JUG-A33)")
        elif self.attack == "javelin":
            top = 4 if self.javelin_profile == "veles_range4" else 10
            if "javelin" not in weapons:
                raise ScenarioError(f"attack: 'javelin' is not allowed for a {self.attacker}, who has no javelin")
            if not 2 <= self.distance <= top:
                raise ScenarioError(f"distance: {self.distance} is not allowed for a javelin; expected 2 to {top} "
                                    "(10.4, JUG-A43)")
        elif self.attack == "spear_throw":
            if self.attacker != "hoplomachus":
                raise ScenarioError(f"attack: 'spear_throw' is not allowed for a {self.attacker}; only the "
                                    "hoplomachus throws his spear (JUG-A45)")
            if not 2 <= self.distance <= 4:
                raise ScenarioError(f"distance: {self.distance} is not allowed for a thrown spear; expected 2 to 4 "
                                    "(JUG-A45)")
        else:
            shield = att["shield"]
            bash = shield == "scutum" or (shield == "parma" and self.bash_shields == "scutum_parma")
            if self.attack == "shield_bash" and not bash:
                raise ScenarioError(f"attack: 'shield_bash' is not allowed for a {self.attacker} (shield "
                                    f"{shield!r}, bash_shields={self.bash_shields!r}; 10.6, JUG-A46)")
            if self.attack == "shield_improvised" and shield not in ("scutum", "parma"):
                raise ScenarioError(f"attack: 'shield_improvised' is not allowed for a {self.attacker} (shield "
                                    f"{shield!r}); only a scutum or a parma strikes (10.7, JUG-A49)")
            if self.distance != 1:
                raise ScenarioError(f"distance: {self.distance} is not allowed for a shield attack; expected 1")
        if self.scutum_zone == "head" and self.scutum_zones != "thorax_leftleg_head":
            raise ScenarioError("scutum_zone: 'head' is not allowed with scutum_zones = 'thorax_leftleg'; expected "
                                "'thorax' or 'left_leg' (JUG-A19)")
        if self.target_hp > 10 + self.target_bonus_hp:
            raise ScenarioError(f"target_hp: {self.target_hp} is not allowed; expected at most 10 + target_bonus_hp "
                                f"= {10 + self.target_bonus_hp}")

    def kernel_args(self):
        options = self._options()
        att_spec, dfn_spec = self._specs()
        att, _ = gladiator_row(att_spec, options, self.rank_attacker)
        dfn, _ = gladiator_row(dfn_spec, options, self.rank_target, bonus_hp=self.target_bonus_hp,
                               bonus_ap=self.target_bonus_ap)
        dfn[cb.G_HP] = self.target_hp
        dfn[cb.G_HP_LOST] = dfn[cb.G_HP_MAX] - self.target_hp
        dfn[cb.G_WOUNDS] = self.target_wounds
        dfn[cb.G_ON_GROUND] = self.target_on_ground
        dfn[cb.G_CAPTURED] = self.target_captured
        dfn[cb.G_SCUTUM_ZONE] = cb.ZONES.index(self.scutum_zone)
        weapon = self._weapon(att_spec)
        kinds = {"two_glaives": cb.WEAPON_IDS.index("glaive"), "shield": cb.W_SHIELD}
        p = np.zeros(N_PARAMS, np.int64)
        p[ATTACK] = ATTACKS.index(self.attack)
        p[KIND] = kinds.get(weapon, cb.WEAPON_IDS.index(weapon) if weapon in cb.WEAPON_IDS else 0)
        p[DOUBLE] = weapon in ("two_glaives", "iron_fists")
        p[ARC] = {"front": ARC_FRONT, "flank": ARC_FLANK, "rear": ARC_REAR}[self.arc]
        p[RIGHT] = self.flank_side == "right"
        p[DISTANCE] = self.distance
        p[DEFENCE] = DEFENCES.index(self._defence())
        p[SPOIL] = self.spoil
        p[RESERVE] = self.target_reserve
        p[DIE_FUMBLES] = self.missile_fumble or self.attack not in ("javelin", "spear_throw")
        return p, cb.option_vector(self), att, dfn

    # ------------------------------------------------------------------ exact answer, from romesim.jugule.exact
    def _exact_attack(self):
        att_spec, dfn_spec = self._specs()
        weapon = self._weapon(att_spec)
        loadout = {name: getattr(self, name) for name in LOADOUT_OPTIONS}
        immobilised = self.target_captured or (self.immobilised == "net_and_ground" and self.target_on_ground)
        target = jx.type_target(self.target, scutum_zone=self.scutum_zone, immobilised=immobilised,
                                eques_shield=self.eques_shield, **loadout)
        if self.shield_side == "left_only" and self.arc == "flank" and self.flank_side == "right":
            target = jx.Target(target.armour, frozenset(), target.immobilised)  # JUG-A18: shield on the left arm
        ranks = {name: i for i, name in enumerate(jx.RANKS)}
        experience = jx.experience_bonus(ranks[self.rank_attacker], ranks[self.rank_target], exp_mod=self.exp_mod)
        bonus = jx.circumstance_bonus(arc=self.arc, experience=experience, target_on_ground=self.target_on_ground)
        hp_max = 10 + self.target_bonus_hp
        damage = dict(sica_bonus=self.sica_bonus, min_damage_stage=self.min_damage_stage)
        hp = dict(target_hp=self.target_hp, target_hp_max=hp_max, wounded_mod=self.wounded_mod)
        defence = self._defence()
        if self.attack in ("javelin", "spear_throw"):
            wounded = jx.wounded(self.target_hp, hp_max, self.wounded_mod)
            thrown = "veles_javelin" if (weapon == "javelin" and self.javelin_profile == "veles_minus1") else weapon
            return lambda dice: jx.resolve_javelin(
                dice, target, self.distance, arc=self.arc, bonus=bonus + wounded, missile_fumble=self.missile_fumble,
                spoiled=self.spoil, target_spent_reserve=self.spoil, javelin_reserve_mod=self.javelin_reserve_mod,
                weapon=thrown, parry=defence == "parry", **damage)
        if self.attack == "shield_bash":
            ap = dfn_spec["ap"] + self.target_bonus_ap
            return lambda dice: jx.resolve_bash(
                dice, target, ap, arc=self.arc, defence=defence, bash_mode=self.bash_mode, wounds=self.target_wounds,
                reserve=self.target_reserve, knockdown_wounds=self.knockdown_wounds, bonus=bonus, **hp, **damage)
        blade = "shield_improvised" if self.attack == "shield_improvised" else weapon
        return lambda dice: jx.resolve_assault(dice, blade, target, arc=self.arc, bonus=bonus, defence=defence,
                                               double_attack=self.double_attack, andabata_head=self.andabata_head,
                                               **hp, **damage)

    def exact_solution(self, policies):
        dist = enumerate_dice(self._exact_attack())
        values = dict.fromkeys(self.metrics, Fraction(0))

        def add(metric, p):
            values[metric] += p

        for o, p in dist.items():
            hit = o.kind == "hit"
            add("p_hit", p if hit else 0)
            add("p_blocked", p if o.kind == jx.BLOCKED else 0)
            add("p_defended", p if o.kind in (jx.PARRIED, jx.DODGED) else 0)
            add("p_missed", p if o.kind == jx.MISSED else 0)
            add("p_fumble", p if o.fumbled else 0)
            dead = hit and o.loss >= self.target_hp
            add("p_wound", p if o.loss >= 1 else 0)
            add("p_kill", p if dead else 0)
            add("p_stun", p if (hit and not dead and o.stunned) else 0)
            add("p_knockdown", p if o.knocked_down else 0)
            add("mean_damage", p * o.loss)
            add(f"p_damage_{o.loss}" if o.loss < MAX_DAMAGE_BIN else f"p_damage_{MAX_DAMAGE_BIN}_plus", p)
        return values
