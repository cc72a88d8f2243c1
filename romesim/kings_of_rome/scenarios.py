"""Kings of Rome procedure scenarios: parameters, options, validation and compilation to kernel arrays.

Names, parameters, options and metrics follow the contract in ``docs/contracts/kings_of_rome_procedures.md``;
rule options take their values and defaults from ``data/kor_options.csv``.
"""
from pathlib import Path

import numpy as np

from ..core.errors import ScenarioError
from ..core.exact import enumerate_dice, expectations
from ..core.scenario import Scenario, option_table, param, register
from . import exact as _exact
from . import reference as _reference
from .cocles import ATTEMPT as COCLES_ATTEMPT_INDEX
from .cocles import N_PARAMS as COCLES_N_PARAMS
from .cocles import cocles_kernel
from .corruption import corruption_kernel
from .horatii import LATIN as HORATII_LATIN
from .horatii import MAX_UNITS as HORATII_MAX_UNITS
from .horatii import N_PARAMS as HORATII_N_PARAMS
from .horatii import ROMAN as HORATII_ROMAN
from .horatii import horatii_kernel
from .ignominy import ignominy_kernel
from .inauguratio import inauguratio_kernel
from .intimidation import intimidation_kernel
from .mucius import mucius_kernel
from .naval import MAX_SHIPS as NAVAL_MAX_SHIPS
from .naval import N_PARAMS as NAVAL_N_PARAMS
from .naval import NR_V as NAVAL_NR_V
from .naval import ROMAN_V as NAVAL_ROMAN_V
from .naval import naval_kernel
from .pillage import pillage_kernel
from .policies import (
    COCLES_POINTS,
    CORRUPTION_POINTS,
    HORATII_POINTS,
    INTIMIDATION_POINTS,
    NAVAL_POINTS,
    PILLAGE_POINTS,
    SENATE_POINTS,
    SIEGE_POINTS,
    SPOLIA_POINTS,
    TREASON_POINTS,
)
from .senate import senate_kernel
from .siege import N_PARAMS as SIEGE_N_PARAMS
from .siege import siege_kernel, success_table
from .spolia import spolia_kernel
from .treason import treason_kernel

option = option_table(Path(__file__).with_name("data") / "kor_options.csv")

COMMANDERS = ("king", "interrex", "magister", "tribune", "general")


def _flag(value, choices):
    return choices.index(value)


@register
class Siege(Scenario):
    name = "kings_of_rome.siege"
    rule = "KoR 5.5"
    title = "Siege of an NR city by a Roman army (rolls a and b)"
    p_win = "the siege succeeds (roll a or roll b)"
    metrics = ("p_win", "p_submit", "p_city_taken", "p_abandon", "ip", "vp", "hostile_reactions",
               "tokens_r_to_nr", "tokens_nr_to_r", "nr_units_lost", "p_leader_captured")
    decision_points = SIEGE_POINTS
    kernel = staticmethod(siege_kernel)

    garrison: int = param(2, lo=0, hi=3, doc="Virtus of the city's NR garrison (0 = none)", rule="5.5")
    leader: int = param(0, lo=0, hi=6, doc="Virtus of the besieged NR leader (0 = none)", rule="5.5")
    nr_units: int = param(0, lo=0, hi=12, doc="NR military units inside the city (garrisons excluded)",
                          rule="5.5.1")
    besiegers: int = param(4, lo=1, hi=12, doc="Roman military units besieging", rule="5.5.1")
    commander: str = param("king", choices=COMMANDERS, doc="commander of the besieging army", rule="5.1")
    astutia: int = param(0, lo=0, hi=3, doc="Astutia of the commander: siege rerolls", rule="glossary, KOR-A22")
    good_omen: bool = param(False, doc="Good Omen on the map: +1 to every Roman siege roll", rule="9.5.7.1")
    relief: bool = param(False, doc="an Etruscan-star city with Falisci/Capenati in play (relief battle S0)",
                         rule="9.2.7.3, 9.2.7.4")
    siege_first_roll_test: str = option("siege_first_roll_test")
    siege_first_roll_target: str = option("siege_first_roll_target")
    siege_second_roll_test: str = option("siege_second_roll_test")
    siege_second_roll_choice: str = option("siege_second_roll_choice")
    siege_second_roll_effect: str = option("siege_second_roll_effect")
    siege_first_roll_reward: str = option("siege_first_roll_reward")
    siege_king_win_reward: str = option("siege_king_win_reward")
    siege_first_roll_leader_fate: str = option("siege_first_roll_leader_fate")
    siege_reaction_count: str = option("siege_reaction_count")
    astutia_in_siege: bool = option("astutia_in_siege")
    king_equivalents: bool = option("king_equivalents")
    ignominy_trial: str = option("ignominy_trial")
    ignominy_equal_8: str = option("ignominy_equal_8")
    ignominy_ip_loss: str = option("ignominy_ip_loss")
    tribune_defeat_stack: str = option("tribune_defeat_stack")
    ignominy_eligible: str = option("ignominy_eligible")

    def check(self):
        if self.garrison == 0 and self.leader == 0:
            raise ScenarioError("garrison/leader: a siege needs an enemy garrison or leader in the city (5.5); "
                                "got garrison=0 and leader=0")
        if self.leader > 0 and self.nr_units >= self.besiegers:
            raise ScenarioError(
                f"nr_units: {self.nr_units} NR units with a leader against {self.besiegers} besiegers would sortie "
                "(5.5.1), which needs the battle procedure; not supported yet: use nr_units < besiegers or leader=0")
        if self.relief:
            raise ScenarioError("relief: true would start with the Falisci/Capenati relief battle (S0, 9.2.7.3), "
                                "which needs the battle procedure; not supported yet")

    def kernel_args(self):
        p = np.zeros(SIEGE_N_PARAMS, np.int64)
        king_led = self.commander == "king" or (self.commander == "interrex" and self.king_equivalents)
        accused = self.commander == "tribune" or (
            self.commander == "general" and self.ignominy_eligible == "tribuni_and_generals")
        p[:] = (self.garrison, self.leader, self.nr_units, king_led, self.commander == "tribune", accused,
                self.astutia if self.astutia_in_siege else 0, self.good_omen,
                self.siege_first_roll_test == "ge_double",
                _flag(self.siege_first_roll_target, ("leader_if_present", "player_choice", "max_of_both",
                                                     "garrison_only")),
                self.siege_second_roll_test == "eq_double",
                self.siege_second_roll_choice == "declare_before_roll",
                self.siege_second_roll_effect == "city_falls",
                self.siege_first_roll_reward == "a_plus_c",
                self.siege_king_win_reward == "plus3_vp",
                self.siege_first_roll_leader_fate == "captured",
                self.siege_reaction_count == "all_dice_including_rerolls",
                self.ignominy_trial == "mandatory",
                self.ignominy_equal_8 == "acquitted",
                self.ignominy_ip_loss == "always",
                self.tribune_defeat_stack == "stack")
        return p, success_table(p)

    def reference(self, dice, policies):
        policy = dict(zip((dp.name for dp in self.decision_points), policies.names))
        policy["reroll_keep"] = policies.params[2, 0]
        return _reference.siege(self, dice, policy)

    def exact_solution(self, policies):
        return expectations(enumerate_dice(lambda dice: self.reference(dice, policies)), self.metrics)


@register
class Treason(Scenario):
    name = "kings_of_rome.treason"
    rule = "KoR 6.3"
    title = "NR treason against the weakest Roman garrison"
    p_win = "the treason fails (Rome keeps the city)"
    metrics = ("p_win", "ip", "vp")
    decision_points = TREASON_POINTS
    kernel = staticmethod(treason_kernel)

    garrison: int = param(2, lo=1, hi=3, doc="Virtus of the weakest Roman garrison", rule="6.3")
    ip_spent: int = param(0, lo=0, hi=3, doc="IP spent for -1 each on the treason roll (the `fixed` policy)",
                          rule="6.3, DP-T01")
    ip_available: int = param(10, lo=1, doc="Roman IP before the roll (spending never goes down to 0)",
                              rule="C7, 8.0")

    def kernel_args(self):
        return (np.array([self.garrison, self.ip_available, self.ip_spent], np.int64),)

    def reference(self, dice, policies):
        return _reference.treason(self, dice, {"ip_spent": policies.names[0]})

    def exact_solution(self, policies):
        k = _reference.treason_ip_spent(self, {"ip_spent": policies.names[0]})
        return _exact.treason(self.garrison, k)


@register
class Ignominy(Scenario):
    name = "kings_of_rome.ignominy"
    rule = "KoR 5.7.11"
    title = "Ignominy trial of a defeated Tribune"
    p_win = "the Tribune is acquitted"
    metrics = ("p_win", "ip")
    kernel = staticmethod(ignominy_kernel)

    lost: str = param("battle", choices=("battle", "siege"), doc="what the Tribune lost: DRM -2 battle, -1 siege",
                      rule="5.7.11")
    ignominy_equal_8: str = option("ignominy_equal_8")
    ignominy_ip_loss: str = option("ignominy_ip_loss")

    def kernel_args(self):
        return (np.array([2 if self.lost == "battle" else 1, self.ignominy_equal_8 == "acquitted",
                          self.ignominy_ip_loss == "always"], np.int64),)

    def reference(self, dice, policies):
        return _reference.ignominy(self, dice, {})

    def exact_solution(self, policies):
        return _exact.ignominy(2 if self.lost == "battle" else 1, self.ignominy_equal_8 == "acquitted",
                               self.ignominy_ip_loss == "always")


@register
class Pillage(Scenario):
    """KoR 5.4: a Roman army pillages an NR city without a leader; 5.4.1 when the city holds no NR token.

    What the options change here: ``pillage_romanize_if_emptied`` (KOR-A4 iii) decides ``p_romanized`` when the
    King empties a city whose garrison was not alone; ``undefended_city_side_effects`` (KOR-A5) sets the reactions
    and the adjustment of an undefended city. Two options change no metric of this scenario:
    ``pillage_second_unit`` (KOR-A4 i) because the second token matters only when a third remains, and then the
    pillage fails with two tokens eliminated whichever was chosen (with ``player_choice`` it is still asked of
    DP-P02, whose answer is checked); ``pillage_unit_fate`` (KOR-A4 ii) because where eliminated units go is not
    measured, and the scenario's units are ordinary ones (with a Captivi back, C4 capture would add +1 IP each).
    """

    name = "kings_of_rome.pillage"
    rule = "KoR 5.4, 5.4.1"
    title = "Pillage of an NR city (an undefended city when it holds no NR token)"
    p_win = "no NR token survives in the city"
    metrics = ("p_win", "p_romanized", "ip", "vp", "hostile_reactions", "tokens_r_to_nr", "nr_tokens_eliminated")
    decision_points = PILLAGE_POINTS
    kernel = staticmethod(pillage_kernel)

    garrison: int = param(1, lo=0, hi=3, doc="Virtus of the city's NR garrison (0 = none)", rule="5.4")
    units: tuple = param([], kind="ints", lo=1, hi=6, max_len=6,
                         doc="Virtus of each NR military unit in the city (no garrison and no unit: 5.4.1)",
                         rule="5.4")
    king: bool = param(True, doc="the King is in the army: two eliminations and the King's rewards", rule="5.4")
    pillage_second_unit: str = option("pillage_second_unit", doc="rule option KOR-A4 (i); changes no metric here")
    pillage_unit_fate: str = option("pillage_unit_fate", doc="rule option KOR-A4 (ii); changes no metric here")
    pillage_romanize_if_emptied: bool = option("pillage_romanize_if_emptied")
    undefended_city_side_effects: str = option("undefended_city_side_effects")

    def kernel_args(self):
        p = np.array([self.garrison, self.king, len(self.units), self.pillage_second_unit == "player_choice",
                      self.pillage_romanize_if_emptied, self.undefended_city_side_effects == "inherit_pillage"],
                     np.int64)
        return p, np.array(self.units, np.int64)

    def reference(self, dice, policies):
        return _reference.pillage(self, dice, dict(zip((dp.name for dp in self.decision_points), policies.names)))

    def exact_solution(self, policies):
        return _exact.pillage(self.garrison, self.units, self.king, self.pillage_romanize_if_emptied,
                              self.undefended_city_side_effects == "inherit_pillage", policies.names[1] == "pillage")


@register
class Intimidation(Scenario):
    """KoR 5.3: a Roman army with cavalry tries to turn an NR military unit of a city holding an NR leader.

    Neither option of KOR-A3 changes a metric of this scenario: ``intimidation_target_pool = include_garrison``
    only adds a garrison to the possible targets, and the scenario has no garrison; ``intimidation_over_capacity``
    only matters for an army already at its command capacity, and the scenario does not model the army's size
    (the converted unit is assumed to have room).
    """

    name = "kings_of_rome.intimidation"
    rule = "KoR 5.3"
    title = "Intimidation of an NR city holding a leader"
    p_win = "an NR unit turns Roman"
    metrics = ("p_win", "ip", "tokens_r_to_nr")
    decision_points = INTIMIDATION_POINTS
    kernel = staticmethod(intimidation_kernel)

    units: tuple = param([2], kind="ints", lo=1, hi=6, min_len=1, max_len=6,
                         doc="Virtus of each NR military unit in the city (garrisons are not military units)",
                         rule="5.3")
    has_cavalry: bool = param(True, doc="the Roman army contains a cavalry unit (required)", rule="5.3")
    intimidation_target_pool: str = option("intimidation_target_pool",
                                           doc="rule option KOR-A3; changes no metric here (no garrison)")
    intimidation_over_capacity: str = option("intimidation_over_capacity",
                                             doc="rule option KOR-A3; changes no metric here (army size not modelled)")

    def check(self):
        if not self.has_cavalry:
            raise ScenarioError("has_cavalry: False is not allowed; an intimidating army must contain at least one "
                                "cavalry unit (5.3)")

    def kernel_args(self):
        return np.array([len(self.units)], np.int64), np.array(self.units, np.int64)

    def reference(self, dice, policies):
        return _reference.intimidation(self, dice,
                                       dict(zip((dp.name for dp in self.decision_points), policies.names)))

    def exact_solution(self, policies):
        # the Virtus of each equally likely target: `random` picks any unit
        targets = {"weakest": (min(self.units),), "strongest": (max(self.units),)}.get(policies.names[1], self.units)
        return _exact.intimidation(targets)


@register
class Corruption(Scenario):
    """KoR 5.6: a Roman army bribes the garrison of an NR city without a leader.

    What the options change here: ``corruption_adjustment`` (KOR-A13 iii) makes ``tokens_nr_to_r`` 1 or the
    success chance; ``orphan_reaction_line_owner`` (KOR-A15) gives corruption 1 hostile reaction with
    ``corruption`` or ``both``. Two options change no metric: ``corruption_requires_garrison`` (KOR-A13 i) only
    concerns cities without a garrison, and this scenario always has one; ``corruption_removed_garrison``
    (KOR-A13 ii) says where the bribed garrison token goes, which is not the adjustment between the containers.
    """

    name = "kings_of_rome.corruption"
    rule = "KoR 5.6"
    title = "Corruption of an NR garrison"
    p_win = "the city is taken"  # the roll beats the garrison, whether the city is then garrisoned or pillaged
    metrics = ("p_win", "ip", "vp", "tokens_nr_to_r", "hostile_reactions")
    decision_points = CORRUPTION_POINTS
    kernel = staticmethod(corruption_kernel)

    garrison: int = param(2, lo=1, hi=3, doc="Virtus of the city's NR garrison", rule="5.6")
    units: int = param(0, lo=0, doc="other NR military units in the city (they go to the R container)", rule="5.6")
    corruption_requires_garrison: bool = option(
        "corruption_requires_garrison", doc="rule option KOR-A13 (i); changes no metric here (a garrison is there)")
    corruption_removed_garrison: str = option("corruption_removed_garrison",
                                              doc="rule option KOR-A13 (ii); changes no metric here")
    corruption_adjustment: str = option("corruption_adjustment")
    orphan_reaction_line_owner: str = option("orphan_reaction_line_owner")

    def kernel_args(self):
        reactions = 1 if self.orphan_reaction_line_owner in ("corruption", "both") else 0
        return (np.array([self.garrison, self.units, self.corruption_adjustment == "always", reactions], np.int64),)

    def reference(self, dice, policies):
        return _reference.corruption(self, dice, {"garrison_or_pillage": policies.names[0]})

    def exact_solution(self, policies):
        pillage = self.units == 0 and policies.names[0] == "pillage"
        reactions = 1 if self.orphan_reaction_line_owner in ("corruption", "both") else 0
        return _exact.corruption(self.garrison, pillage, self.corruption_adjustment == "always", reactions)


@register
class Naval(Scenario):
    """KoR 5.8: a Roman fleet intercepts an NR fleet; at most three rounds of simultaneous fire.

    The Roman leader aboard (``roman_astutia``) is the fleet's commander: with KOR-A41 ``rerolls`` his Astutia is
    one pool of rerolls for every Roman ship over the whole battle (C3), spent on each failed roll a reroll could
    still win; with ``additive_astutia`` it is added to every Roman die. The NR ships have no leader bonus (the NR
    fleet's leader is not modelled; KOR-A40 counts a missing leader's Astutia as 0), and no leader's ship is
    singled out, so his bonus lasts while any Roman ship is afloat.

    What the options change here: ``naval_leader_bonus`` changes every metric when ``roman_astutia`` > 0;
    ``naval_mutual_wipe`` moves the case where both fleets sink together from ``p_loss`` (-2 VP) to no result.
    ``naval_troops_on_sunk_ship`` has a single value and changes no metric: no troops are modelled aboard.
    """

    name = "kings_of_rome.naval"
    rule = "KoR 5.8"
    title = "Naval battle: a Roman fleet against an NR fleet"
    p_win = "Roman victory (every NR ship sunk, one Roman ship left)"
    metrics = ("p_win", "p_loss", "ip", "vp", "roman_ships_lost", "nr_ships_lost", "rounds")
    decision_points = NAVAL_POINTS
    kernel = staticmethod(naval_kernel)

    roman: tuple = param([3, 3], kind="ints", lo=1, hi=6, min_len=1, max_len=NAVAL_MAX_SHIPS,
                         doc="Virtus of each Roman ship", rule="5.8")
    nr: tuple = param([3], kind="ints", lo=1, hi=6, min_len=1, max_len=NAVAL_MAX_SHIPS,
                      doc="Virtus of each NR ship", rule="5.8")
    roman_astutia: int = param(0, lo=0, hi=3, doc="Astutia of the Roman leader aboard (0 = none)",
                               rule="5.8, KOR-A41")
    good_omen: bool = param(False, doc="Good Omen on the map: +1 to every Roman die", rule="9.5.7.1, KOR-A58")
    naval_leader_bonus: str = option("naval_leader_bonus")
    naval_mutual_wipe: str = option("naval_mutual_wipe")
    naval_troops_on_sunk_ship: str = option("naval_troops_on_sunk_ship",
                                            doc="rule option KOR-A41; changes no metric here (no troops aboard)")

    def kernel_args(self):
        p = np.zeros(NAVAL_N_PARAMS, np.int64)
        p[:NAVAL_ROMAN_V] = (len(self.roman), len(self.nr), self.good_omen, self.roman_astutia,
                             self.naval_leader_bonus == "additive_astutia", self.naval_mutual_wipe == "no_result")
        p[NAVAL_ROMAN_V:NAVAL_ROMAN_V + len(self.roman)] = self.roman
        p[NAVAL_NR_V:NAVAL_NR_V + len(self.nr)] = self.nr
        return (p,)

    def reference(self, dice, policies):
        return _reference.naval(self, dice, {"target": policies.names[0]})

    def exact_solution(self, policies):
        return _exact.naval(self.roman, self.nr, self.roman_astutia, int(self.good_omen),
                            self.naval_leader_bonus == "additive_astutia", self.naval_mutual_wipe == "no_result",
                            policies.names[0])


SPOLIA_ROUND_MODES = ("simultaneous_repeat", "simultaneous_single_round", "sequential_roman_first")


@register
class Spolia(Scenario):
    """KoR 5.7.2.1: the Spolia Opima duel of the two commanding leaders, on its own.

    Each leader rolls d6 + his Astutia (never rerolled) and must exceed the other's Virtus; the Roman die also
    gets the Good Omen (KOR-A58). ``ip`` and ``vp`` are the duel's own +3/+3 or -3/-3; the 5.7.11 battle results
    that stack on them (KOR-A18 spolia_stack_5711) belong to the battle scenario.

    What the options change here: ``spolia_round_mode`` (KOR-A17) changes every metric (no ``p_both_die`` when
    the Roman strikes first; with a single round, a round without a hit ends the duel with no result).
    ``spolia_loser_fate`` (KOR-A18) changes no metric: it says where the losing leader goes, which gives no
    points of its own here (an Interrex after a dead King matters to the campaign, not to the duel).
    """

    name = "kings_of_rome.spolia"
    rule = "KoR 5.7.2.1"
    title = "Spolia Opima duel between the commanding leaders"
    p_win = "the Roman leader wins the duel"
    metrics = ("p_win", "p_loss", "p_both_die", "ip", "vp")
    decision_points = SPOLIA_POINTS
    kernel = staticmethod(spolia_kernel)

    roman_virtus: int = param(3, lo=1, hi=6, doc="Virtus of the Roman commanding leader", rule="5.7.2.1")
    roman_astutia: int = param(1, lo=0, hi=3, doc="Astutia of the Roman leader, added to his die", rule="5.7.2.1")
    nr_virtus: int = param(4, lo=1, hi=6, doc="Virtus of the NR commanding leader", rule="5.7.2.1")
    nr_astutia: int = param(1, lo=0, hi=3, doc="Astutia of the NR leader, added to his die", rule="5.7.2.1")
    good_omen: bool = param(False, doc="Good Omen on the map: +1 to the Roman die", rule="9.5.7.1, KOR-A58")
    spolia_round_mode: str = option("spolia_round_mode")
    spolia_loser_fate: str = option("spolia_loser_fate", doc="rule option KOR-A18; changes no metric here")

    def check(self):
        roman_can = 6 + self.roman_astutia + self.good_omen > self.nr_virtus
        nr_can = 6 + self.nr_astutia > self.roman_virtus
        if not roman_can and not nr_can and self.spolia_round_mode != "simultaneous_single_round":
            raise ScenarioError(
                f"roman_virtus/nr_virtus: no leader can ever hit (Roman d6 + {self.roman_astutia + self.good_omen} "
                f"never exceeds nr_virtus={self.nr_virtus}, NR d6 + {self.nr_astutia} never exceeds "
                f"roman_virtus={self.roman_virtus}), so the duel with spolia_round_mode="
                f"{self.spolia_round_mode!r} would never end; give a leader Astutia, lower a Virtus or use "
                "spolia_round_mode='simultaneous_single_round'")

    def kernel_args(self):
        return (np.array([self.roman_virtus, self.roman_astutia, self.nr_virtus, self.nr_astutia, self.good_omen,
                          SPOLIA_ROUND_MODES.index(self.spolia_round_mode)], np.int64),)

    def reference(self, dice, policies):
        return _reference.spolia(self, dice, {})

    def exact_solution(self, policies):
        return _exact.spolia(self.roman_virtus, self.roman_astutia, self.nr_virtus, self.nr_astutia,
                             int(self.good_omen), self.spolia_round_mode)


def _compile_duel(p, roman, latin, rome_first, volley):
    """Fill the Horatii duel's part of a compiled vector (layout in ``horatii.py``)."""
    p[:HORATII_ROMAN] = (rome_first, volley, len(roman), len(latin))
    p[HORATII_ROMAN:HORATII_ROMAN + len(roman)] = roman
    p[HORATII_LATIN:HORATII_LATIN + len(latin)] = latin
    return p


@register
class Horatii(Scenario):
    """KoR 9.3.7.2: the Horatii and the Curiatii, one side after the other, until one side has no unit left.

    A die eliminates the unit it is rolled against iff d6 >= its Virtus (C1). Alba Longa's dice aim at a random
    surviving Roman (the NR bot); Rome's at the unit its policy names (DP-H03, default the weakest). ``shots``
    counts the dice rolled.

    What the options change here: ``duel_alternation`` (KOR-A45) changes every metric: ``volley`` rolls a die for
    each unit the side has when its turn begins, each hit removing its target before the next die (the seed: "le
    jet de Dé n'est pas simultané"). Under ``single_shot`` the target order changes only ``latin_survivors``
    (Rome's time to kill every Latin is a sum of the same waiting times in any order). ``duel_loser_destination``
    (KOR-A45) changes no metric: it says which container an eliminated token goes to, which is not scored here.
    """

    name = "kings_of_rome.horatii"
    rule = "KoR 9.3.7.2"
    title = "Horatii and Curiatii: the champions' duel of Rome and Alba Longa"
    p_win = "Rome's side wins (every Latin unit eliminated)"
    metrics = ("p_win", "roman_survivors", "latin_survivors", "shots")
    decision_points = HORATII_POINTS
    kernel = staticmethod(horatii_kernel)

    # a 6 always reaches a Virtus of 1 to 6 (C1), so no duel in this domain can be endless
    roman: tuple = param([3, 3, 3], kind="ints", lo=1, hi=6, min_len=1, max_len=HORATII_MAX_UNITS,
                         doc="Virtus of each Roman unit in the duel", rule="9.3.7.2, DP-H01")
    latin: tuple = param([2, 2, 2], kind="ints", lo=1, hi=6, min_len=1, max_len=HORATII_MAX_UNITS,
                         doc="Virtus of each Latin unit in the duel", rule="9.3.7.2, DP-H02")
    first: str = param("alba", choices=("alba", "rome"), doc="the side that rolls first", rule="9.3.7.2")
    duel_alternation: str = option("duel_alternation")
    duel_loser_destination: str = option("duel_loser_destination",
                                         doc="rule option KOR-A45; changes no metric here")

    def kernel_args(self):
        p = np.zeros(HORATII_N_PARAMS, np.int64)
        return (_compile_duel(p, self.roman, self.latin, self.first == "rome", self.duel_alternation == "volley"),)

    def reference(self, dice, policies):
        return _reference.horatii(self, dice, {"target": policies.names[0]})

    def exact_solution(self, policies):
        return _exact.horatii(self.roman, self.latin, self.first == "rome", self.duel_alternation == "volley",
                              policies.names[0])


HORATIUS_VIRTUS = 5  # 9.7.7.2: Horatius acts as an infantry unit of Virtus 5


@register
class Cocles(Scenario):
    """KoR 9.7.7.2: Horatius Cocles, drawn from the R container with the bridge on the Rome map, tries to destroy it.

    Direct attempt: a 5 or 6 removes the bridge, no VP. Raid: Horatius (Virtus 5) and up to two Rome-reserve
    units attack the NR group nearest to Rome in a duel run like the Horatii's (one die per turn, d6 >= Virtus,
    Roman dice at the weakest NR unit, NR dice at a random Roman): won, the bridge falls and Rome scores +2 VP;
    lost, the bridge stays and Rome loses 1 VP.

    What the options change here: ``cocles_first_roller`` (KOR-A47) changes both metrics of a raid and nothing
    of a direct attempt. The duel options of KOR-A45 belong to the Horatii scenario: the raid always rolls one
    die per turn, and with one die per turn the Roman target order changes neither metric.
    """

    name = "kings_of_rome.cocles"
    rule = "KoR 9.7.7.2"
    title = "Horatius Cocles and the Sublicius bridge"
    p_win = "the bridge is destroyed"
    metrics = ("p_win", "vp")
    decision_points = COCLES_POINTS
    kernel = staticmethod(cocles_kernel)

    attempt: str = param("direct", choices=("direct", "raid"),
                         doc="direct attempt (5-6) or raid: what the `fixed` policy of DP-HC01 does",
                         rule="9.7.7.2, DP-HC01")
    raid_units: tuple = param([3, 3], kind="ints", lo=1, hi=6, min_len=0, max_len=2,
                              doc="Virtus of each Rome-reserve unit joining Horatius' raid", rule="9.7.7.2, DP-HC01")
    nr: tuple = param([3, 3], kind="ints", lo=1, hi=6, min_len=1, max_len=HORATII_MAX_UNITS,
                      doc="Virtus of each military unit of the NR group nearest to Rome", rule="9.7.7.2, KOR-A47")
    cocles_first_roller: str = option("cocles_first_roller")

    def kernel_args(self):
        p = np.zeros(COCLES_N_PARAMS, np.int64)
        _compile_duel(p, (HORATIUS_VIRTUS, *self.raid_units), self.nr, self.cocles_first_roller == "rome", False)
        p[COCLES_ATTEMPT_INDEX] = self.attempt == "raid"
        return (p,)

    def reference(self, dice, policies):
        return _reference.cocles(self, dice, {"attempt": policies.names[0]})

    def exact_solution(self, policies):
        attempt = self.attempt if policies.names[0] == "fixed" else policies.names[0]
        return _exact.cocles(attempt, self.raid_units, self.nr, self.cocles_first_roller == "rome")


@register
class Mucius(Scenario):
    name = "kings_of_rome.mucius"
    rule = "KoR 9.7.7.1"
    title = "Mucius Scaevola's attempt on Porsenna (the token drawn from R with Porsenna on the map)"
    p_win = "Porsenna is eliminated"
    metrics = ("p_win",)
    kernel = staticmethod(mucius_kernel)

    bridge: bool = param(True, doc="the Sublicius bridge is on the Rome map: Porsenna dies on 4-6, else only on 6",
                         rule="9.7.7.1")

    def kernel_args(self):
        return (np.array([self.bridge], np.int64),)

    def reference(self, dice, policies):
        return _reference.mucius(self, dice, {})

    def exact_solution(self, policies):
        return _exact.mucius(self.bridge)


INAUGURATIO_KINGS = ("tullus", "ancus", "priscus", "servius", "superbus", "numa")
ETRUSCAN_KINGS = ("priscus", "servius", "superbus")  # "the three last (Etruscan) kings" of 9.2.4


@register
class Inauguratio(Scenario):
    name = "kings_of_rome.inauguratio"
    rule = "KoR 9.2.4"
    title = "Inauguratio of a new king"
    p_win = "the new king is confirmed"
    metrics = ("p_win",)
    kernel = staticmethod(inauguratio_kernel)

    king: str = param("tullus", choices=INAUGURATIO_KINGS,
                      doc="the new king: Tullus Hostilius, Ancus Marcius, Tarquinius Priscus, Servius Tullius, "
                          "Tarquinius Superbus; Numa only with numa_inauguratio = true", rule="9.2.4, KOR-A50")
    numa_inauguratio: bool = option("numa_inauguratio")

    def check(self):
        if self.king == "numa" and not self.numa_inauguratio:
            raise ScenarioError("king: 'numa' is not allowed unless numa_inauguratio = true; by default Numa takes "
                                "office without an Inauguratio (9.2.4 'each new King after Numa', KOR-A50)")

    def kernel_args(self):
        return (np.array([self.king in ETRUSCAN_KINGS], np.int64),)

    def reference(self, dice, policies):
        return _reference.inauguratio(self, dice, {})

    def exact_solution(self, policies):
        return _exact.inauguratio(self.king in ETRUSCAN_KINGS)


SENATE_PEOPLES = ("latin", "volsci", "sabine", "etruscan")  # the Curia peoples, in DP-SE01 action order


@register
class Senate(Scenario):
    name = "kings_of_rome.senate"
    rule = "KoR 9.3.4"
    title = "Senate approval of a war on a Curia people (periods 3-7)"
    p_win = "the first request is approved"
    metrics = ("p_win", "p_any_approval", "requests")
    decision_points = SENATE_POINTS
    kernel = staticmethod(senate_kernel)

    people: str = param("latin", choices=SENATE_PEOPLES, doc="the Curia people of the first request",
                        rule="9.3.4")
    fallback: bool = param(True, doc="after a refusal, ask for each of the other three Curia peoples (one roll "
                                     "each) until one is approved, as 9.3.4 requires; false: the first request "
                                     "alone", rule="9.3.4")
    senate_request_scope: str = option("senate_request_scope")
    senate_fallback_order: str = option("senate_fallback_order")
    # Senate approval is asked in periods 3-7, where Fides binds under either value: no effect here
    fides_limit_from_period: int = option("fides_limit_from_period")

    def kernel_args(self):
        return (np.array([SENATE_PEOPLES.index(self.people), self.fallback,
                          self.senate_fallback_order == "fixed_volsci_latin_sabine"], np.int64),)

    def reference(self, dice, policies):
        return _reference.senate(self, dice, {"fallback_order": policies.names[0]})

    def exact_solution(self, policies):
        fixed = self.senate_fallback_order == "fixed_volsci_latin_sabine"
        return _exact.senate(self.people, self.fallback, "volsci_latin_sabine" if fixed else policies.names[0])
