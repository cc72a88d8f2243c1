"""Kings of Rome procedure scenarios: parameters, options, validation and compilation to kernel arrays.

Names, parameters, options and metrics follow the contract in ``docs/contracts/kings_of_rome_procedures.md``;
rule options take their values and defaults from ``data/kor_options.csv``.
"""
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from ..core.errors import ExactNotSupported, ScenarioError, did_you_mean
from ..core.exact import enumerate_dice, expectations
from ..core.policy import resolve as _resolve_policies
from ..core.scenario import Scenario, Seat, option_table, param, register
from . import armies as _armies
from . import battle as _battle
from . import corruption as _corruption
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
    BATTLE_POINTS,
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
from .siege import siege_kernel, siege_rolls_kernel, success_table
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
    commander_virtus: int = param(3, lo=1, hi=6, doc="Virtus of the commander in a sortie or relief battle",
                                  rule="5.5.1, 5.7")
    roman_units: tuple = param([], kind="records", fields=_armies.ROMAN_UNIT_FIELDS, max_len=_armies.MAX_UNITS,
                               doc="the besieging units as battle records (`besiegers` of them), needed when a "
                                   "sortie or relief battle is fought", rule="5.5.1, S0")
    sortie_units: tuple = param([], kind="records", fields=_armies.NR_UNIT_FIELDS, max_len=_armies.MAX_UNITS,
                                doc="the NR units in the city as battle records (`nr_units` of them), needed when "
                                    "they may sortie", rule="5.5.1")
    sortie_leader_astutia: int = param(1, lo=0, hi=3, doc="Astutia of the besieged leader in a sortie battle",
                                       rule="5.5.1")
    relief_units: tuple = param([], kind="records", fields=_armies.NR_UNIT_FIELDS, max_len=_armies.MAX_UNITS,
                                doc="the Falisci/Capenati relief army (needed with relief = true)",
                                rule="9.2.7.3, 9.2.7.4")
    relief_leaders: tuple = param([], kind="records", fields=_armies.NR_LEADER_FIELDS, max_len=_armies.MAX_LEADERS,
                                  doc="the relief army's leaders", rule="9.2.7.3, 9.2.7.4")
    nr_people: str = param("latins", choices=_armies.PEOPLES, doc="the people of the besieged city (sortie battle)",
                           rule="5.7.8")
    sortie_timing: str = option("sortie_timing")
    sortie_nr_survival: str = option("sortie_nr_survival")
    siege_after_sortie_defeat: str = option("siege_after_sortie_defeat")
    sortie_extra_battle_results: str = option("sortie_extra_battle_results")
    siege_after_relief_battle: str = option("siege_after_relief_battle")
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
    astutia_reroll: str = option("astutia_reroll")
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
        _armies.check_roman_units("roman_units", self.roman_units)
        if self.relief and not self.relief_units:
            raise ScenarioError("relief_units: [] is not allowed with relief = true; describe the Falisci/Capenati "
                                "army that attacks the besiegers (S0, 9.2.7.3)")
        if (self.battles() or self.roman_units) and len(self.roman_units) != self.besiegers:
            raise ScenarioError(
                f"roman_units: {len(self.roman_units)} record(s) is not allowed; a sortie or relief battle "
                f"(5.5.1, S0) needs one record per besieging unit ({self.besiegers})")
        if (self.sortie_possible() or self.sortie_units) and len(self.sortie_units) != self.nr_units:
            raise ScenarioError(
                f"sortie_units: {len(self.sortie_units)} record(s) is not allowed; a leader with {self.nr_units} "
                f"NR unit(s) may sortie (5.5.1): give one record per unit ({self.nr_units})")

    def sortie_possible(self):
        """5.5.1: a besieged leader with at least as many units as the besiegers (after a relief battle, as the
        besiegers that survived it)."""
        return self.leader > 0 and self.nr_units > 0 and (self.nr_units >= self.besiegers or self.relief)

    def battles(self):
        return self.relief or self.sortie_possible()

    @property
    def kernel(self):
        """A siege that can fight no battle plays the kernel without the battle's code (it compiles in seconds)."""
        return siege_kernel if self.battles() else siege_rolls_kernel

    def kernel_scenarios(self):
        """This siege and, unless it fights a battle, one that does (a relief, S0): both kernels."""
        if self.battles():
            return (self,)
        unit = {"kind": "infantry", "virtus": 3}
        return (self, self.replace(relief=True, roman_units=[{**unit, "roman_class": 3}] * self.besiegers,
                                   relief_units=[unit] * 3))

    def battle_arrays(self):
        """The relief and sortie battles compiled as battle scenarios (layout in ``battle.py``), and the built-in
        battle bots that fight them (their ``default`` policies, the NR's ``nr_rules``)."""
        bots = _resolve_policies(BATTLE_POINTS)
        bp = np.zeros((2, _battle.N_PARAMS), np.int64)
        bunits = np.zeros((2, 2, _battle.MAX_UNITS, _battle.U_COLS), np.int64)
        bleaders = np.zeros((2, 2, _battle.MAX_LEADERS, _battle.L_COLS), np.int64)
        if not self.battles():
            return bp, bunits, bleaders, bots.codes, bots.params
        rank = {"king": "king", "interrex": "interrex", "magister": "magister_populi", "tribune": "tribunus_populi",
                "general": "general"}[self.commander]
        common = dict(roman_units=self.roman_units, attacker="nr", roman_action=False, good_omen=self.good_omen,
                      roman_leaders=[{"rank": rank, "virtus": self.commander_virtus, "astutia": self.astutia}],
                      **{k: getattr(self, k) for k in ("king_equivalents", "ignominy_trial", "ignominy_equal_8",
                                                       "ignominy_ip_loss", "tribune_defeat_stack",
                                                       "ignominy_eligible", "astutia_reroll")})
        armies = {0: dict(nr_units=self.relief_units, nr_leaders=self.relief_leaders, nr_people="falisci"),
                  1: dict(nr_units=self.sortie_units, nr_people=self.nr_people,
                          nr_leaders=[{"virtus": self.leader, "astutia": self.sortie_leader_astutia}])}
        for k, army in armies.items():
            if army["nr_units"]:
                bp[k], bunits[k], bleaders[k] = _unchecked_battle(**common, **army).battle_arrays()
        # a Tribune's +1/-1 IP (9.2.7.1) is settled once by the whole siege (siege.siege_game), not by its battles
        bleaders[:, _battle.ROME, :, _battle.L_TRIBUNE] = 0
        return bp, bunits, bleaders, bots.codes, bots.params

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
                self.tribune_defeat_stack == "stack",
                self.relief, self.siege_after_relief_battle == "always", self.sortie_possible(),
                self.sortie_nr_survival == "any_unit_survives", self.siege_after_sortie_defeat == "city_falls",
                self.sortie_extra_battle_results == "vp_only", self.astutia_reroll == "chained")
        return (p, success_table(p), *self.battle_arrays())

    def narrator(self):
        from .narrative import SiegeNarrator
        return SiegeNarrator()

    def reference(self, dice, policies):
        if self.battles():
            raise ExactNotSupported(f"{self.name}: the plain-Python siege does not fight the sortie or relief battle "
                                    "(5.5.1, S0); only the kernel does")
        policy = dict(zip((dp.name for dp in self.decision_points), policies.names))
        policy["reroll_keep"] = policies.params[2, 0]
        return _reference.siege(self, dice, policy)

    def exact_solution(self, policies):
        if self.battles():
            raise ExactNotSupported(f"{self.name}: no exact answer for a siege with a sortie or relief battle "
                                    "(5.5.1, S0)")
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
    still win, a die being rerolled at most once (5.7.9; ``astutia_reroll=chained`` rerolls it again while points
    last); with ``additive_astutia`` it is added to every Roman die. The NR ships have no leader bonus (the NR
    fleet's leader is not modelled; KOR-A40 counts a missing leader's Astutia as 0), and no leader's ship is
    singled out, so his bonus lasts while any Roman ship is afloat.

    What the options change here: ``naval_leader_bonus`` changes every metric when ``roman_astutia`` > 0, and
    ``astutia_reroll`` when it is ``rerolls``;
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
    astutia_reroll: str = option("astutia_reroll", doc="rule option KOR-A22; with naval_leader_bonus = rerolls")
    naval_mutual_wipe: str = option("naval_mutual_wipe")
    naval_troops_on_sunk_ship: str = option("naval_troops_on_sunk_ship",
                                            doc="rule option KOR-A41; changes no metric here (no troops aboard)")

    def kernel_args(self):
        p = np.zeros(NAVAL_N_PARAMS, np.int64)
        p[:NAVAL_ROMAN_V] = (len(self.roman), len(self.nr), self.good_omen, self.roman_astutia,
                             self.naval_leader_bonus == "additive_astutia", self.naval_mutual_wipe == "no_result",
                             self.astutia_reroll == "chained")
        p[NAVAL_ROMAN_V:NAVAL_ROMAN_V + len(self.roman)] = self.roman
        p[NAVAL_NR_V:NAVAL_NR_V + len(self.nr)] = self.nr
        return (p,)

    def reference(self, dice, policies):
        return _reference.naval(self, dice, {"target": policies.names[0]})

    def exact_solution(self, policies):
        return _exact.naval(self.roman, self.nr, self.roman_astutia, int(self.good_omen),
                            self.naval_leader_bonus == "additive_astutia", self.naval_mutual_wipe == "no_result",
                            policies.names[0], self.astutia_reroll == "chained")


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


def _records(default, record_fields, max_len, doc, rule, min_len=0):
    return param(default, kind="records", fields=record_fields, min_len=min_len, max_len=max_len, doc=doc, rule=rule)


def _unchecked_battle(**params):
    """A battle built field by field without ``check``: a siege's sortie may be fought by fewer than the 3 units
    5.7 asks of an army that starts a battle (5.5.1 sets its own condition)."""
    battle = object.__new__(Battle)
    for f in fields(Battle):
        object.__setattr__(battle, f.name, f.metadata["param"].validate(f.name, params.get(f.name, f.default)))
    return battle


def _garrison_penalty(values, rule):
    """KOR-A27: -1 for an adjacent enemy garrison, -2 for a value 3, not summed (max_not_sum) or per city."""
    if rule == "sum_per_city":
        return sum(2 if v == 3 else 1 for v in values)
    return 2 if 3 in values else (1 if values else 0)


_ROMULUS = _armies.army("romulus")
_LATINS = _armies.army("latin_army")
BATTLE_TIE_RULES = ("no_winner", "defender_wins", "attacker_wins")
KING_LOSS_RULES = ("minus2_vp", "minus4_ip", "both")


@dataclass(frozen=True)
class _Armies(Scenario):
    """The armies, the context and the options a battle of 5.7 shares with the ambush battle (6.4 c)."""

    roman_units: tuple = _records(_ROMULUS["units"], _armies.ROMAN_UNIT_FIELDS, _armies.MAX_UNITS,
                                  "the Roman military units", "5.7, 5.7.8", min_len=1)
    nr_units: tuple = _records(_LATINS["units"], _armies.NR_UNIT_FIELDS, _armies.MAX_UNITS,
                               "the NR military units", "5.7, 5.7.8", min_len=1)
    roman_leaders: tuple = _records(_ROMULUS["leaders"], _armies.ROMAN_LEADER_FIELDS, _armies.MAX_LEADERS,
                                    "the Roman leaders with the army", "5.7.6, table 5.1")
    nr_leaders: tuple = _records(_LATINS["leaders"], _armies.NR_LEADER_FIELDS, _armies.MAX_LEADERS,
                                 "the NR leaders with the army", "5.7.6, table 5.1")
    nr_people: str = param("latins", choices=_armies.PEOPLES, doc="the people of the NR army", rule="5.7.8")
    invader_war: bool = param(False, doc="the NR army is an invasion army of a war: war results (KOR-A35)",
                              rule="9.4.7.3, 9.5.7.3, 9.5.7.4, 9.6.7.2, 9.7.7.3")
    roman_adjacent_garrisons: tuple = param([], kind="ints", lo=1, hi=3, max_len=6,
                                            doc="values of NR garrisons in cities adjacent to the battle hex",
                                            rule="5.7.8, KOR-A27")
    nr_adjacent_garrisons: tuple = param([], kind="ints", lo=1, hi=3, max_len=6,
                                         doc="values of Roman garrisons in cities adjacent to the battle hex",
                                         rule="5.7.8, KOR-A27")
    hex_garrison: int = param(0, lo=0, hi=3, doc="a garrison in the battle hex itself (0 = none)", rule="KOR-A27")
    hex_garrison_side: str = param("nr", choices=("nr", "roman"), doc="whose garrison is in the battle hex",
                                   rule="KOR-A27")
    good_omen: bool = param(False, doc="Good Omen on the map: +1 to every Roman die", rule="9.5.7.1, KOR-A58")
    porsenna: str = param("absent", choices=("absent", "commands", "on_map"),
                          doc="Porsenna (9.7.7.4): a King who loses is killed (scope KOR-A38)", rule="9.7.7.4")
    battle_min_units_scope: str = option("battle_min_units_scope")
    spolia_round_mode: str = option("spolia_round_mode")
    spolia_champion: str = option("spolia_champion")
    spolia_stack_5711: bool = option("spolia_stack_5711")
    spolia_loser_fate: str = option("spolia_loser_fate", doc="rule option KOR-A18; where the loser goes, not scored")
    nr_tactic_draw: str = option("nr_tactic_draw")
    tactic_pool_attack: int = param(1, lo=1, hi=20, doc="ATTACK markers in the pool (nr_tactic_draw = "
                                    "pool_without_replacement)", rule="KOR-A19")
    tactic_pool_defence: int = param(1, lo=1, hi=20, doc="DEFENCE markers in the pool (nr_tactic_draw = "
                                     "pool_without_replacement)", rule="KOR-A19")
    vanguard_matching: str = option("vanguard_matching")
    vanguard_model: str = option("vanguard_model")
    roman_cavalry_class_drm: str = option("roman_cavalry_class_drm")
    astutia_scope_battle: str = option("astutia_scope_battle")
    astutia_reroll: str = option("astutia_reroll")
    vanguard_first_roller: str = option("vanguard_first_roller")
    retreat_round_trigger: str = option("retreat_round_trigger")
    retreat_round_class_drm: str = option("retreat_round_class_drm")
    retreat_round_scoring: str = option("retreat_round_scoring")
    roman_may_decline_phase3: bool = option("roman_may_decline_phase3")
    phase3_cost_scope: str = option("phase3_cost_scope")
    cavalry_count_basis: str = option("cavalry_count_basis")
    adjacent_garrison_penalty: str = option("adjacent_garrison_penalty")
    adjacent_includes_battle_hex: bool = option("adjacent_includes_battle_hex")
    back_side_penalty: str = option("back_side_penalty")
    back_side_scope: str = option("back_side_scope")
    nr_infantry_loss_points: str = option("nr_infantry_loss_points")
    etruscan_gallic_penalty_side: str = option("etruscan_gallic_penalty_side")
    battle_tie_rule: str = option("battle_tie_rule")
    reserve_infantry_fill: str = option("reserve_infantry_fill")
    leader_attack_test: str = option("leader_attack_test")
    leader_attack_frequency: str = option("leader_attack_frequency")
    nr_reserve_cav_fallback: str = option("nr_reserve_cav_fallback")
    leader_alone_box_counts_empty: bool = option("leader_alone_box_counts_empty")
    triumph_bonus_ip: int = option("triumph_bonus_ip")
    triumph_infantry_scope: str = option("triumph_infantry_scope")
    battle_king_loss: str = option("battle_king_loss")
    king_equivalents: bool = option("king_equivalents")
    invader_battle_scoring: str = option("invader_battle_scoring")
    capture_reward: str = option("capture_reward")
    captured_vp_counting: str = option("captured_vp_counting")
    ignominy_trial: str = option("ignominy_trial")
    ignominy_equal_8: str = option("ignominy_equal_8")
    ignominy_ip_loss: str = option("ignominy_ip_loss")
    tribune_defeat_stack: str = option("tribune_defeat_stack")
    ignominy_eligible: str = option("ignominy_eligible")
    king_lost_in_battle: str = option("king_lost_in_battle")
    porsenna_kill_scope: str = option("porsenna_kill_scope")
    nr_leaderless_capacity: str = option("nr_leaderless_capacity")
    good_omen_scope: str = option("good_omen_scope")

    # what the concrete scenario fixes
    MODE = _battle.MODE_BATTLE

    def roman_attacks(self):
        return False

    def roman_initiates(self):
        return False

    def check(self):
        _armies.check_roman_units("roman_units", self.roman_units)
        kings = [i for i, leader in enumerate(self.roman_leaders) if leader["rank"] == "king"]
        if len(kings) > 1:
            raise ScenarioError(f"roman_leaders: leaders {kings} are all of rank 'king'; an army has one King")
        if self.invader_war and self.nr_people not in _armies.INVADER_PEOPLES:
            raise ScenarioError(f"invader_war: true is not allowed with nr_people={self.nr_people!r}; the war "
                                f"results (KOR-A35) belong to {', '.join(_armies.INVADER_PEOPLES)}")
        if self.porsenna != "absent" and self.nr_people != "etruscans":
            raise ScenarioError(f"porsenna: {self.porsenna!r} is not allowed with nr_people={self.nr_people!r}; "
                                "Porsenna leads Etruscans (9.7.7.4)")
        if self.porsenna == "commands" and not self.nr_leaders:
            raise ScenarioError("porsenna: 'commands' needs an NR leader in nr_leaders (Porsenna himself)")
        initiator_units = len(self.roman_units) if self.roman_initiates() else len(self.nr_units)
        who = "roman_units" if self.roman_initiates() else "nr_units"
        if initiator_units < 3:
            raise ScenarioError(f"{who}: {initiator_units} unit(s) is not allowed; the army that starts a battle "
                                "needs at least 3 military units (5.7, KOR-A14)")
        if self.battle_min_units_scope == "both" and min(len(self.roman_units), len(self.nr_units)) < 3:
            raise ScenarioError(f"roman_units/nr_units: {len(self.roman_units)} and {len(self.nr_units)} units; "
                                "with battle_min_units_scope='both' each army needs at least 3 (KOR-A14)")
        if self.roman_initiates():
            infantry = sum(u["kind"] == "infantry" for u in self.roman_units)
            cavalry = len(self.roman_units) - infantry
            caps = [_armies.RANKS[leader["rank"]][1:] for leader in self.roman_leaders] or [_armies.NR_CAPACITY]
            if not any(min(infantry, a) + min(cavalry, b) >= 3 for a, b in caps):
                raise ScenarioError(f"roman_leaders: no commander can field 3 of the army's {infantry} infantry "
                                    f"and {cavalry} cavalry (table 5.1 capacities); a Roman battle needs 3 units")

    def battle_arrays(self):
        """``(p, units, leaders)``: the compiled scenario (layout in ``battle.py``)."""
        b = _battle
        units = np.zeros((2, b.MAX_UNITS, b.U_COLS), np.int64)
        leaders = np.zeros((2, b.MAX_LEADERS, b.L_COLS), np.int64)
        for i, u in enumerate(self.roman_units):
            cavalry = u["kind"] == "cavalry"
            units[0, i] = (cavalry, u["virtus"], 1 if cavalry else u["roman_class"], u["back"] == "captivi",
                           u["back"] == self.nr_people, 0)[:b.U_COLS]
        for i, u in enumerate(self.nr_units):
            units[1, i] = (u["kind"] == "cavalry", u["virtus"], 0, u["back"] == "captivi",
                           u["back"] in ("roman_I", "roman_II", "roman_III"), 0)[:b.U_COLS]
        for i, leader in enumerate(self.roman_leaders):
            rank, max_inf, max_cav = _armies.RANKS[leader["rank"]]
            kinglike = leader["rank"] == "king" or (leader["rank"] in ("interrex", "rex_vicarius")
                                                    and self.king_equivalents)
            tribune = leader["rank"].startswith("tribunus")
            tried = tribune or (leader["rank"] == "general" and self.ignominy_eligible == "tribuni_and_generals")
            leaders[0, i] = (rank, leader["virtus"], leader["astutia"], max_inf, max_cav, leader["rank"] == "king",
                             kinglike, tribune, tried)
        for i, leader in enumerate(self.nr_leaders):
            leaders[1, i] = (0, leader["virtus"], leader["astutia"], *_armies.NR_CAPACITY, 0, 0, 0, 0)
        roman_adjacent, nr_adjacent = list(self.roman_adjacent_garrisons), list(self.nr_adjacent_garrisons)
        if self.adjacent_includes_battle_hex and self.hex_garrison:
            (roman_adjacent if self.hex_garrison_side == "nr" else nr_adjacent).append(self.hex_garrison)
        leaderless = (8, 8) if self.nr_leaderless_capacity == "unlimited" else _armies.NR_CAPACITY
        porsenna_kills = self.porsenna == "commands" or (
            self.porsenna == "on_map" and self.porsenna_kill_scope == "any_battle_while_porsenna_on_map")
        values = {
            b.P_UNITS: len(self.roman_units), b.P_UNITS_NR: len(self.nr_units),
            b.P_LEADERS: len(self.roman_leaders), b.P_LEADERS_NR: len(self.nr_leaders),
            b.P_ROMAN_ATTACKER: self.roman_attacks(), b.P_ROMAN_INITIATES: self.roman_initiates(),
            b.P_MODE: self.MODE,
            b.P_ADJ_PEN: _garrison_penalty(roman_adjacent, self.adjacent_garrison_penalty),
            b.P_ADJ_PEN_NR: _garrison_penalty(nr_adjacent, self.adjacent_garrison_penalty),
            b.P_ETR_GALLIC_PEN: 2 if self.nr_people in ("etruscans", "gauls") else 0,
            b.P_INVADER: (0 if not self.invader_war else 1 if self.invader_battle_scoring == "replace" else 2),
            b.P_OMEN: self.good_omen, b.P_PORSENNA_KILLS: porsenna_kills,
            b.P_SPOLIA_MODE: SPOLIA_ROUND_MODES.index(self.spolia_round_mode),
            b.P_SPOLIA_ANY_LEADER: self.spolia_champion == "any_leader_in_army",
            b.P_SPOLIA_STACK: self.spolia_stack_5711,
            b.P_TACTIC_POOL: self.nr_tactic_draw == "pool_without_replacement",
            b.P_POOL_ATTACK: self.tactic_pool_attack, b.P_POOL_DEFENCE: self.tactic_pool_defence,
            b.P_VC_EVEN_TOTAL: self.vanguard_matching == "even_total",
            b.P_VC_MELEE: self.vanguard_model == "melee_until_side_wiped",
            b.P_CAV_DRM: 2 if self.roman_cavalry_class_drm == "plus2" else 0,
            b.P_ASTUTIA_ALL: self.astutia_scope_battle == "all_battle_rolls",
            b.P_RR_DRM_ATTACKER_ONLY: self.retreat_round_class_drm == "attacking_side_only",
            b.P_RR_TRACK: self.retreat_round_scoring == "track_result_without_triumph",
            b.P_MAY_DECLINE: self.roman_may_decline_phase3,
            b.P_PHASE3_COST: self.roman_initiates() or self.phase3_cost_scope == "always",
            b.P_CAV_BASIS_WHOLE: self.cavalry_count_basis == "whole_army_all_leaders",
            b.P_BACK_PER_UNIT: self.back_side_penalty == "per_unit",
            b.P_TIE_RULE: BATTLE_TIE_RULES.index(self.battle_tie_rule),
            b.P_RESERVE_ANY_BOX: self.reserve_infantry_fill == "any_vacated_box",
            b.P_LEADER_GE: self.leader_attack_test == "ge",
            b.P_NR_CAV_ATTACKS_LEADER: self.nr_reserve_cav_fallback == "attack_leader",
            b.P_LEADER_BOX_EMPTY: self.leader_alone_box_counts_empty,
            b.P_TRIUMPH_IP: self.triumph_bonus_ip, b.P_TRIUMPH_WHOLE: self.triumph_infantry_scope == "whole_army",
            b.P_KING_LOSS: KING_LOSS_RULES.index(self.battle_king_loss),
            b.P_CAPTURE_IP: self.capture_reward in ("ip_and_vp", "ip_only"),
            b.P_CAPTURE_VP: self.capture_reward in ("ip_and_vp", "vp_only"),
            b.P_TRIAL_HELD: self.ignominy_trial == "mandatory",
            b.P_EQUAL_8_ACQUITTED: self.ignominy_equal_8 == "acquitted",
            b.P_IP_LOSS_ALWAYS: self.ignominy_ip_loss == "always",
            b.P_TRIBUNE_STACK: self.tribune_defeat_stack == "stack",
            b.P_NR_LEADERLESS_INF: leaderless[0], b.P_NR_LEADERLESS_CAV: leaderless[1],
            b.P_ROMAN_LEADERLESS_INF: _armies.NR_CAPACITY[0], b.P_ROMAN_LEADERLESS_CAV: _armies.NR_CAPACITY[1],
            b.P_REROLL_CHAIN: self.astutia_reroll == "chained",
            b.P_RR_NO_CAVALRY: self.retreat_round_trigger == "no_cavalry",
            b.P_VC_MARKER_FIRST: self.vanguard_first_roller == "attack_marker",
            b.P_NR_INF_NO_POINTS: self.nr_infantry_loss_points == "italic_only"
            and self.nr_people in _armies.NON_ITALIC_PEOPLES,
            b.P_BACK_PARTICIPANTS: self.back_side_scope == "participants",
        }
        values.update(self.mode_values())
        p = np.zeros(b.N_PARAMS, np.int64)
        for index, value in values.items():
            p[index] = int(value)
        return p, units, leaders

    def mode_values(self):
        return {}

    def kernel_args(self):
        return self.battle_arrays()

    def seats(self):
        """Rome decides every point but ``nr_tactic``: the NR marker, which the rules draw at random after the
        Roman's (its built-in ``nr_rules``) and which an NR player would choose seeing ``roman_tactic``."""
        nr = "nr_tactic"
        return (Seat("rome", "", "p_win", points=tuple(dp.name for dp in self.decision_points if dp.name != nr)),
                Seat("nr", "", "p_loss", points=(nr,)))

    def narrator(self):
        from .narrative import BattleNarrator
        return BattleNarrator()

    def exact_solution(self, policies):
        try:
            from . import battle_exact
        except ImportError:
            raise ExactNotSupported(f"{self.name}: the exact battle solver is not available") from None
        return battle_exact.solve(self, policies)


BATTLE_METRICS = (
    "p_win", "p_loss", "p_no_winner", "ip", "vp", "hostile_reactions", "tokens_r_to_nr", "tokens_nr_to_r",
    "roman_score", "nr_score", "p_roman_score_0", "p_roman_score_1_4", "p_roman_score_5_9", "p_roman_score_10_19",
    "p_nr_score_0", "p_nr_score_1_4", "p_nr_score_5_9", "p_nr_score_10_19", "roman_units_lost",
    "roman_units_captured", "nr_units_lost", "nr_units_captured", "p_triumph", "p_roman_leader_lost",
    "p_nr_leader_lost", "p_interrex", "p_end_withdrawal", "p_end_spolia", "p_end_defence_defence",
    "p_end_retreat_round", "p_end_stopped", "p_end_phase3", "phase3_rounds", "roman_pre_penalty", "nr_pre_penalty",
    "roman_penalty", "nr_penalty")


@register
class Battle(_Armies):
    """KoR 5.7: a pitched battle between a Roman army and an NR army, every step of the master algorithm (spec
    2.1.0). Names, parameters and metrics: ``docs/contracts/kings_of_rome_battle.md``.

    Options that change no metric here: ``spolia_loser_fate`` (where the loser goes), ``captured_vp_counting``
    and ``king_lost_in_battle`` (single values), ``leader_attack_frequency`` (single value),
    ``etruscan_gallic_penalty_side`` (single value), ``good_omen_scope`` (single value).
    """

    name = "kings_of_rome.battle"
    rule = "KoR 5.7"
    title = "Pitched battle of a Roman army against an NR army"
    p_win = "Rome wins the battle (its track score is closer to 0, or it won the Spolia Opima duel)"
    metrics = BATTLE_METRICS
    decision_points = BATTLE_POINTS
    kernel = staticmethod(_battle.battle_kernel)
    machine = _battle.MACHINE

    attacker: str = param("rome", choices=("rome", "nr"), doc="the side that entered the hex (track top row, "
                          "first in the vanguard clash)", rule="5.7.2")
    roman_action: bool = param(True, doc="the battle is a Roman action (needs 3 Roman units, phase 3 costs 1 IP, "
                               "2 hostile reactions); false: an NR reaction or invasion", rule="5.7, KOR-A14, A25")
    nr_city_in_hex: bool = param(False, doc="the hex holds a city of the NR army's people: preventive withdrawal",
                                 rule="5.7.1")
    orphan_reaction_line_owner: str = option("orphan_reaction_line_owner")
    withdrawal_converts_to_siege: str = option("withdrawal_converts_to_siege",
                                               doc="rule option KOR-A16; the siege is kings_of_rome.siege")

    def roman_attacks(self):
        return self.attacker == "rome"

    def roman_initiates(self):
        return self.roman_action

    def mode_values(self):
        b = _battle
        return {b.P_WITHDRAWAL: self.roman_action and self.nr_city_in_hex,
                b.P_WITHDRAWAL_REACTIONS: self.orphan_reaction_line_owner in ("preventive_withdrawal", "both"),
                b.P_REACTIONS: 2 if self.roman_action else 0}

    @classmethod
    def example(cls, roman="romulus", nr="latin_army", **params):
        """A battle between two example armies of ``data/kor_armies.csv``."""
        r, n = _armies.army(roman), _armies.army(nr)
        return cls.from_dict({"roman_units": r["units"], "roman_leaders": r["leaders"], "nr_units": n["units"],
                              "nr_leaders": n["leaders"], **params})



@register
class Ambush(_Armies):
    """KoR 6.4 (the battle case, 6.4 c): an NR army with a leader ambushes Roman troops in a city of its own people.
    No tactic markers (KOR-A44 phase3_only: straight to phase 3); the Roman army deploys first and the NR faces its
    weakest units with its strongest; the Roman units do not roll in the first round; Rome's victory is worth +2 VP
    (KOR-A44 ambush_scoring). The random unit that reinforces the NR army (6.4 step 2) belongs in ``nr_units``.
    An ambush starts no hostile reaction and, not being a Roman action, costs no IP for phase 3 (KOR-A25).
    """

    name = "kings_of_rome.ambush"
    rule = "KoR 6.4"
    title = "Ambush: an NR army attacks Roman troops in a city (the battle case)"
    p_win = "Rome wins the ambush battle"
    metrics = BATTLE_METRICS
    decision_points = BATTLE_POINTS
    kernel = staticmethod(_battle.battle_kernel)
    machine = _battle.MACHINE
    MODE = _battle.MODE_AMBUSH

    ambush_battle_phases: str = option("ambush_battle_phases")
    ambush_scoring: str = option("ambush_scoring")

    def check(self):
        super().check()
        if not self.nr_leaders:
            raise ScenarioError("nr_leaders: [] is not allowed; an ambush is executed by an NR army with a leader "
                                "(6.4, table 6.0)")

    def mode_values(self):
        b = _battle
        return {b.P_AMBUSH_PHASE3_ONLY: self.ambush_battle_phases == "phase3_only",
                b.P_AMBUSH_STACK: self.ambush_scoring == "stack", b.P_REACTIONS: 0}


# ------------------------------------------------------------------------------------------------ the campaign
from . import campaign as _campaign           # noqa: E402  (after the procedures whose defaults it compiles)
from . import campaign_data as _campaign_data  # noqa: E402
from . import siege as _siege                  # noqa: E402

_C = _campaign
# kor_periods.csv, 9.1-9.7: first and last turn, draws R/NR, mission, failure tokens (and whether they are
# military units), tokens per container (0: half of all, 3.6), Inauguratio fails on (0: none), Senate, Tullus'
# formula, random units and garrisons of the preparation
_PERIODS = (
    (1, 3, 2, 2, 4, 3, 0, 0, 0, 0, 0, 29, 0),
    (4, 7, 2, 3, 3, 1, 0, 6, 0, 0, 0, 10, 0),
    (8, 10, 2, 2, 4, 2, 1, 6, 5, 1, 1, 0, 8),
    (11, 12, 2, 2, 2, 2, 1, 4, 5, 1, 0, 0, 11),
    (13, 15, 2, 3, 3, 2, 1, 4, 6, 1, 0, 0, 4),
    (16, 19, 2, 1, 4, 2, 1, 4, 6, 1, 0, 0, 5),
    (20, 24, 1, 1, 3, 0, 0, 6, 6, 1, 0, 8, 0),
)
_ALL = _C.T_ROMAN | _C.T_LATIN | _C.T_SABINE | _C.T_ETRUSCAN | _C.T_OTHER
# kor_invasions.csv: people, start, infantry (base, die), cavalry (base, die), caps (infantry, cavalry, army),
# targets, spared, invader (KOR-A35), extra reactions, stays until eradicated, token at the period end, fights
# Roman armies, Rome taken -5/-5, +VP for a failed siege
_WARS = {
    _C.W_AEQUI: ("aequi", "Aequi entry", 4, 0, 0, 0, 4, 0, 4, _C.T_LATIN, _C.T_ETRUSCAN | _C.T_SABINE, 0, 0, 0,
                 _C.AFTER_R, 1, 0, 0),
    _C.W_VOLSCI: ("volsci", "Volsci entry", 4, 0, 0, 0, 4, 0, 4, _ALL, _C.T_LATIN, 0, 0, 0, _C.AFTER_NR, 1, 0, 0),
    _C.W_PICENI: ("piceni", "Piceni entry", 3, 0, 0, 0, 3, 0, 3, _C.T_SABINE | _C.T_ROMAN, 0, 0, 0, 0, _C.AFTER_NR, 0,
                  0, 0),
    _C.W_FALISCI: ("falisci", "Falisci entry", 3, 0, 0, 0, 3, 0, 3, _ALL, _C.T_ETRUSCAN, 0, 0, 0, _C.AFTER_NR, 1, 0,
                   0),
    _C.W_CAPENA: ("capenati", "Capenati entry", 2, 0, 0, 0, 2, 0, 2, _ALL, _C.T_ETRUSCAN | _C.T_LATIN, 0, 0, 0,
                  _C.AFTER_NR, 1, 0, 0),
    _C.W_SAMNITE: ("samnites", "Rufrium", 2, 1, 1, 1, 4, 2, 6, _C.T_ROMAN, 0, 1, 0, 0, _C.AFTER_REMOVED, 1, 0, 0),
    _C.W_GALLIC: ("gauls", "Sena Gallica", 0, 1, -2, 1, 3, 1, 4, _C.T_ROMAN, 0, 1, 0, 1, _C.AFTER_REMOVED, 1, 1, 0),
    _C.W_ETRUSCAN: ("etruscans", "Kaieta", 2, 1, -2, 1, 3, 3, 3, _C.T_ROMAN, 0, 1, 2, 1, _C.AFTER_REMOVED, 1, 1, 1),
    _C.W_DANAI: ("greeks", "Cumae", -1, 1, -2, 1, 3, 3, 3, _C.T_ROMAN, 0, 1, 1, 1, _C.AFTER_REMOVED, 1, 1, 1),
    _C.W_UMBRIAN: ("umbri", "Umbri entry", 3, 0, 1, 0, 3, 1, 4, _C.T_ROMAN, 0, 1, 0, 0, _C.AFTER_NR, 1, 0, 0),
}
# the ship die (9.5.7.4, 9.6.7.2): the Virtus of the ships each face brings ("all ships": the people's four)
_FLEETS = {_C.W_ETRUSCAN: ((2,), (3,), (4,), (5,), (2, 3, 5), (2, 3, 4, 5)),
           _C.W_DANAI: ((3,), (3,), (5,), (5,), (3, 5), (3, 5))}
_ETRUSCAN_STARTS = ("Cosa", "Vetulonia")  # the second and third Etruscan wars (9.6.7.1, 9.7.7.3)
_EVENTS = {"Rape of the Sabines": _C.EV_SABINES, "Aequi War": _C.EV_AEQUI, "Volsci War": _C.EV_VOLSCI,
           "Piceni War": _C.EV_PICENI, "Falisci War": _C.EV_FALISCI, "Capena War": _C.EV_CAPENA,
           "Horatii & Curiatii": _C.EV_HORATII, "Alba Longa War": _C.EV_ALBA, "Samnite War": _C.EV_SAMNITE,
           "Foundation of Ostia": _C.EV_OSTIA, "Sublicius Bridge": _C.EV_BRIDGE, "Good/Bad Omen": _C.EV_OMEN,
           "End of Actions": _C.EV_END_ACTIONS, "Gallic War": _C.EV_GALLIC, "Etruscan War": _C.EV_ETRUSCAN,
           "Danai War": _C.EV_DANAI, "Umbrian War": _C.EV_UMBRIAN, "Mucius Scaevola": _C.EV_MUCIUS,
           "Horatius Cocles": _C.EV_COCLES}
EVENT_KEYS = ("sabines", "aequi_war", "volsci_war", "piceni_war", "falisci_war", "capena_war", "horatii",
              "alba_longa_war", "samnite_war", "ostia", "sublicius_bridge", "omen", "end_of_actions", "gallic_war",
              "etruscan_war", "danai_war", "umbrian_war", "mucius", "cocles")
_LEADERS = {"Titus Tatius": _C.LD_TATIUS, "Metius Fufetius": _C.LD_METIUS, "Porsenna": _C.LD_PORSENNA,
            "Larth": _C.LD_LARTH, "Zilath": _C.LD_ZILATH}
_OFFICES = {"Magister Populi": _C.OF_MAGISTER_POPULI, "Magister Equitum": _C.OF_MAGISTER_EQUITUM,
            "Tribunus Populi": _C.OF_TRIBUNUS_POPULI, "Tribunus Celerum": _C.OF_TRIBUNUS_CELERUM}
_WAR_OF_PEOPLE = {"aequi": _C.W_AEQUI, "volsci": _C.W_VOLSCI, "piceni": _C.W_PICENI, "falisci": _C.W_FALISCI,
                  "capenati": _C.W_CAPENA, "samnites": _C.W_SAMNITE, "gauls": _C.W_GALLIC,
                  "etruscans": _C.W_ETRUSCAN, "greeks": _C.W_DANAI, "umbri": _C.W_UMBRIAN}
CAMPAIGN_METRICS = (
    ("p_win", "p_end_nr_empty", "p_end_vp_20", "p_end_turn_24_win", "p_end_r_empty", "p_end_ip_0",
     "p_end_turn_24_loss", "vp", "ip", "turn", "cities_romanized", "missions_met", "kings_lost", "invasions",
     "invasions_beaten", "cities_lost", "p_rome_taken", "sieges", "sieges_won", "battles", "battles_won",
     "pillages", "corruptions", "intimidations", "hostile_reactions", "roman_actions", "duels", "duels_won",
     "naval_battles", "naval_battles_won", "sea_moves", "p_diarchy", "tribunes_won", "tribunes_beaten",
     "advances", "withdrawals")
    + tuple(f"p_mission_{k}" for k in range(1, 8)) + tuple(f"r_{e}" for e in EVENT_KEYS)
    + tuple(f"nr_{e}" for e in EVENT_KEYS) + ("nr_armies_raised", "revolts_gathered"))


@register
class Campaign(Scenario):
    """KoR 3.4-9.7: the whole solo campaign, 24 turns from Romulus to Tarquinius Superbus, as a state machine
    (``campaign.py``). Names, parameters, options, the decision point and metrics, and what is not played yet:
    ``docs/contracts/kings_of_rome_campaign.md``.

    The map is the abstract one of ``data/campaign`` (real geography, not the printed map) and the counters a
    documented assumed set; ``map_folder``/``counters`` take a designer's own files, and every result records which
    it used (``data_source``).
    """

    name = "kings_of_rome.campaign"
    rule = "KoR 3.4-9.7"
    title = "The solo campaign: 24 turns, seven reigns, the rules' own opponent"
    p_win = "Rome wins the campaign (8.0: the NR container emptied, 20 VP at a period's end, or after turn 24)"
    metrics = CAMPAIGN_METRICS
    decision_points = _campaign.CAMPAIGN_POINTS + _campaign.PROCEDURE_POINTS
    kernel = staticmethod(_campaign.campaign_kernel)
    machine = _campaign.MACHINE

    map_folder: str = param("", kind="text", doc="a folder with kor_cities.csv, kor_roads.csv, kor_sea.csv "
                            "(empty: the package's abstract map)", rule="spec 5.8.1, data/kor_map")
    counters: str = param("", kind="text", doc="a counter manifest CSV (empty: the package's assumed set)",
                          rule="spec 5.8.3-5.8.7")
    hex_km: int = param(6, lo=1, hi=50, doc="km per hex of the abstract map (movement costs)", rule="data/kor_map")
    turns: int = param(24, lo=1, hi=24, doc="play up to this turn (the campaign ends after it, 8.0)", rule="9.7.6")
    victory_vp: int = param(20, lo=1, hi=100, doc="VP for victory (8.0 b)", rule="8.0")
    without: str = param("", kind="text", doc="special tokens left out of play, comma-separated keys (e.g. "
                         "'gallic_war,etruscan_war'): the same seeds without them, for what an event changes",
                         rule="9.1-9.7")
    cocles_attempt: str = param("direct", choices=("direct", "raid"),
                                doc="how Horatius Cocles tries to destroy the bridge: what the `fixed` policy of "
                                    "DP-HC01 (`cocles.attempt`) does, as the Cocles scenario's `attempt`",
                                rule="9.7.7.2, DP-HC01")
    invaders_by_sea: bool = param(True, doc="an Etruscan or Greek army with ships sails from its port to the port "
                                            "nearest Rome its fleet reaches (\"they may go by land and/or sea\"); "
                                            "false: they march by land", rule="9.5.7.4, 9.6.7.2, 5.8")
    military_reaction: str = param("nearest_enemy", choices=("nearest_enemy", "movement_allowance"),
                                   doc="how far an invasion army goes in a military reaction: by road to the nearest "
                                       "enemy position, however far, and acts there (« L'armée NR atteint la "
                                       "position ennemie la plus proche en suivant un itinéraire routier »); "
                                       "movement_allowance: its movement allowance toward Rome, as its war's march "
                                       "after the reactions", rule="6.1")
    military_reaction_by: str = param("any_nr_army", choices=("any_nr_army", "invasion_army"),
                                      doc="who makes a military reaction: an NR army in the field with its leader, "
                                          "else an NR leader with two units or more of his people in a city, who "
                                          "leads them out (table 6.0 « Armée NR avec un Chef »; glossary « Armées : "
                                          "deux unités militaires ou plus »); invasion_army: invasion armies only",
                                      rule="6.0, 6.1")
    ambush_army: str = param("placed", choices=("placed", "from_its_city"),
                             doc="how an NR leader's army in a city ambushes: it is placed in the Roman city it "
                                 "falls on (« Une armée NR sur la carte [...] doit être placée dans une Cité occupée "
                                 "par Rome »), leaving its city with his people's units there (two or more), and "
                                 "after the ambush battle routs or withdraws as any army (5.7.11-5.7.13); "
                                 "from_its_city: a leader with two NR units of any people fights from his own city, "
                                 "where they stay", rule="6.4")
    revolt: str = param("gather_then_draw", choices=("gather_then_draw", "draw"),
                        doc="what a revolt does: step 1 first, free NR units gathered to a leader of their people "
                            "to make an army (a raised army that lost its leader shelters in a friendly city), and "
                            "step 2's draw from NR only when step 1 has nothing to do (« la séquence exprime la "
                            "priorité »); draw: always step 2's draw", rule="6.2")
    rome_sack: str = param("named_leader", choices=("named_leader", "any_leader"),
                           doc="which won sieges of Rome sack it (-5 IP, -5 VP): the Gauls' only with Brennus in "
                               "command (« Si Brennus assiège Rome et gagne »), the third Etruscan war's only with "
                               "Porsenna (« avec Porsenna au commandement »), the other Etruscan wars' and the "
                               "Greeks' whoever commands; any_leader: those two whoever commands too",
                           rule="9.5.7.3, 9.7.7.3")
    etruscans_besiege_ostia: bool = param(True, doc="Ostia founded (the Foundation of Ostia drawn from R) is a Roman "
                                          "city the Etruscan wars besiege (« Les invasions des Étrusques ont pour "
                                          "cible les ports d'Ostie et d'Antium, ainsi que la Cité de Rome »): taken, "
                                          "-2 IP, sacked, and still Rome's port; false: Ostia is only where they land",
                                          rule="9.5.7.4")
    interception: str = param("even_odds", choices=("even_odds", "always", "never"),
                              doc="when the Roman fleet intercepts an invader's fleet it can reach (DP-N02): when its "
                                  "ships expect as many hits a round as the invader's (at evenly drawn targets), "
                                  "always, never", rule="5.8, DP-N02")
    nr_rout: str = param("walls_if_friendly_city", choices=("walls_if_friendly_city", "adjacent"),
                         doc="where an invasion army beaten at the end of phase 3 routs (DP-B17, the NR bot): inside "
                             "the walls of a city of its people in the battle's place when there is one (the army "
                             "is gone, its units and leader in the city), else to an adjacent hex (the place "
                             "itself on the abstract map; see rout_protection); adjacent: always the adjacent hex",
                         rule="5.7.13, DP-B17")
    rout_protection: str = param("action_phase", choices=("action_phase", "none"),
                                 doc="how long a routed invasion army cannot be attacked (« les unités en déroute "
                                     "ne peuvent pas être attaquées », no time given): until the action phase "
                                     "ends, but by a pursuit (5.7.14 a); none: a new action may attack it",
                                 rule="5.7.13")
    nr_victory_withdrawal: str = param("nearest_friendly_city", choices=("nearest_friendly_city", "stay"),
                                       doc="after an invasion army's victory, the general retreat: it moves to the "
                                           "nearest city of its people Rome does not hold (by road), its war going "
                                           "on; stay: it holds the battle's place", rule="5.7.11, DP-B19")
    continuation_battle_reactions: str = option("continuation_battle_reactions")
    reaction_fallback: str = option("reaction_fallback")
    mission_count_scope: str = option("mission_count_scope")
    prestige_test: str = option("prestige_test")
    prestige_frequency: str = option("prestige_frequency")
    period_end_swap: str = option("period_end_swap")
    fides_limit_from_period: int = option("fides_limit_from_period")
    numa_inauguratio: bool = option("numa_inauguratio")
    nr_office_arrival: str = option("nr_office_arrival")
    bad_omen_action_loss: str = option("bad_omen_action_loss")
    war_trigger_any_container: str = option("war_trigger_any_container")
    danai_fight_blocking_army: bool = option("danai_fight_blocking_army")
    samnite_roll_mapping: str = option("samnite_roll_mapping")
    end_below_20_vp: str = option("end_below_20_vp")
    duel_alternation: str = option("duel_alternation")
    duel_loser_destination: str = option("duel_loser_destination")
    alba_latins_after_duel: str = option("alba_latins_after_duel")
    alba_duel_always: bool = option("alba_duel_always")
    cocles_prerequisite: str = option("cocles_prerequisite")
    cocles_first_roller: str = option("cocles_first_roller")
    action_accounting: str = option("action_accounting")
    reaction_timing: str = option("reaction_timing")
    mission_loss_mode: str = option("mission_loss_mode")
    mission_loss_selection: str = option("mission_loss_selection")
    office_expiry: str = option("office_expiry")
    event_units_return: str = option("event_units_return")
    invaders_exempt_from_7_3: bool = option("invaders_exempt_from_7_3")
    bad_omen_disposal: str = option("bad_omen_disposal")
    end_of_actions_nr_before_omen: str = option("end_of_actions_nr_before_omen")
    etruscan_army_fill: str = option("etruscan_army_fill")
    greek_army_fill: str = option("greek_army_fill")
    volsci_entry_box_clause: str = option("volsci_entry_box_clause")
    falerii_people: str = option("falerii_people")
    intimidation_over_capacity: str = option("intimidation_over_capacity")
    # KOR-A43 include_rome is not played: the rules never say what Rome's own garrison turning NR would do
    treason_targets: str = option("treason_targets", played=("garrison_tokens_excluding_rome",
                                                             "include_unit_garrisons"))
    triumph_bonus_ip: int = option("triumph_bonus_ip")
    triumph_infantry_scope: str = option("triumph_infantry_scope")
    phase3_cost_scope: str = option("phase3_cost_scope")
    porsenna_kill_scope: str = option("porsenna_kill_scope")
    orphan_reaction_line_owner: str = option("orphan_reaction_line_owner")
    withdrawal_converts_to_siege: str = option("withdrawal_converts_to_siege")

    def check(self):
        super().check()
        for key in self.left_out():
            if key not in EVENT_KEYS:
                raise ScenarioError(f"without: {key!r} is not a special token{did_you_mean(key, EVENT_KEYS)}; "
                                    f"expected comma-separated keys among {', '.join(EVENT_KEYS)}")
        self.data()  # the files load and validate now, with errors naming file, row and field

    def left_out(self):
        return [k.strip() for k in self.without.split(",") if k.strip()]

    def choice_code(self, name):
        """The option's value as its index among the option's readings (kor_options.csv's order, which the
        kernel's ``*_`` code constants follow)."""
        return type(self).parameters()[name].choices.index(getattr(self, name))

    def data(self):
        """The map and counters the campaign plays on (cached per scenario)."""
        cached = self.__dict__.get("_data")
        if cached is None:
            cmap = _campaign_data.load_map(self.map_folder or None, hex_km=self.hex_km)
            cached = (cmap, _campaign_data.load_counters(self.counters or None, campaign_map=cmap))
            object.__setattr__(self, "_data", cached)
        return cached

    @property
    def data_source(self):
        cmap, counters = self.data()
        return {"map": cmap.source, "counters": counters.source, "hex_km": self.hex_km}

    def kernel_args(self):
        cmap, cnt = self.data()
        n = len(cmap.cities)
        if n > _C.MAX_CITIES:
            raise ScenarioError(f"map_folder: {n} places is more than the campaign's {_C.MAX_CITIES}")
        if len(cnt.names) > _C.MAX_COUNTERS:
            raise ScenarioError(f"counters: {len(cnt.names)} counters is more than the campaign's "
                                f"{_C.MAX_COUNTERS}")
        index = cmap.index
        cp = np.zeros(_C.N_CP, np.int64)
        cp[_C.CP_CITIES], cp[_C.CP_ROME] = n, index("Rome")
        cp[_C.CP_MISSION_SCOPE] = self.mission_count_scope == "all_roman_cities"
        cp[_C.CP_PRESTIGE_GE] = self.prestige_test == "ge_double"
        cp[_C.CP_PRESTIGE_EVERY_TURN] = self.prestige_frequency == "every_turn"
        cp[_C.CP_PERIOD_SWAP_TWICE] = self.period_end_swap == "twice"
        cp[_C.CP_VICTORY_VP] = self.victory_vp
        cp[_C.CP_END_BELOW_20_DEFEAT] = self.end_below_20_vp == "defeat"
        cp[_C.CP_FIDES_FROM] = self.fides_limit_from_period
        cp[_C.CP_REACTION_FALLBACK_LOST] = self.reaction_fallback == "lost"
        cp[_C.CP_MAX_TURN] = self.turns
        cp[_C.CP_SABINES_EXTRA] = 2
        cp[_C.CP_BAD_OMEN_EVERY_TURN] = self.bad_omen_action_loss == "every_turn"
        cp[_C.CP_WAR_ANY_CONTAINER] = self.war_trigger_any_container == "true"
        cp[_C.CP_OFFICE_TO_R] = self.nr_office_arrival == "to_r_container_after_2_turns"
        cp[_C.CP_ALBA] = index("Alba Longa")
        cp[_C.CP_FALERII], cp[_C.CP_CAPENA] = index("Falerii"), index("Capena")
        cp[_C.CP_FALERII_LAST_TURN] = _PERIODS[1][_C.PR_FIRST] + 2  # 9.2.6: Numa's first three turns
        cp[_C.CP_AMBUSH_DRM] = 1
        cp[_C.CP_ASTUTIA_IN_SIEGE] = Siege(astutia=1).kernel_args()[0][_siege.ASTUTIA] > 0
        cp[_C.CP_DUEL_VOLLEY] = self.duel_alternation == "volley"
        cp[_C.CP_DUEL_TO_OPPONENT] = self.duel_loser_destination == "opponent_container"
        cp[_C.CP_ALBA_SURVIVORS_ONLY] = self.alba_latins_after_duel == "survivors_only"
        cp[_C.CP_ALBA_DUEL_ALWAYS] = self.alba_duel_always
        cp[_C.CP_COCLES_PREREQUISITE] = self.choice_code("cocles_prerequisite")
        cp[_C.CP_COCLES_ROME_FIRST] = self.cocles_first_roller == "rome"
        cp[_C.CP_COCLES_RAID] = self.cocles_attempt == "raid"
        cp[_C.CP_ACTIONS_COMBINED] = self.action_accounting == "combined"
        cp[_C.CP_REACTION_TIMING] = self.choice_code("reaction_timing")
        cp[_C.CP_LOSS_TOTAL_VIRTUS] = self.mission_loss_mode == "total_virtus_value"
        cp[_C.CP_LOSS_RANDOM] = self.mission_loss_selection == "random"
        cp[_C.CP_OFFICE_EVERY_TURN] = self.office_expiry == "every_turn"
        cp[_C.CP_EVENT_UNITS_EVERY_TURN] = self.event_units_return == "every_turn"
        cp[_C.CP_INVADERS_NOT_EXEMPT] = not self.invaders_exempt_from_7_3
        cp[_C.CP_BAD_OMEN_TO_R] = self.bad_omen_disposal == "back_to_r_container"
        cp[_C.CP_END_OF_ACTIONS_NR] = self.choice_code("end_of_actions_nr_before_omen")
        cp[_C.CP_VOLSCI_RETURN] = self.volsci_entry_box_clause == "return_to_entry_box_each_turn"
        cp[_C.CP_OSTIA] = index("Ostia")
        cp[_C.CP_INVADERS_BY_SEA] = self.invaders_by_sea
        cp[_C.CP_INTERCEPTION] = self.choice_code("interception")
        cp[_C.CP_INTIMIDATION_NO_ROOM] = self.intimidation_over_capacity == "not_allowed"
        cp[_C.CP_TREASON_UNITS] = self.treason_targets == "include_unit_garrisons"
        cp[_C.CP_ROUT_WALLS] = self.nr_rout == "walls_if_friendly_city"
        cp[_C.CP_ROUT_PROTECTED] = self.rout_protection == "action_phase"
        cp[_C.CP_NR_WITHDRAWAL] = self.nr_victory_withdrawal == "nearest_friendly_city"
        cp[_C.CP_CONTINUATION_REACTIONS] = self.continuation_battle_reactions == "two_per_battle"
        cp[_C.CP_PORSENNA_ANY_BATTLE] = self.porsenna_kill_scope == "any_battle_while_porsenna_on_map"
        cp[_C.CP_WITHDRAWAL_REACTIONS] = self.orphan_reaction_line_owner in ("preventive_withdrawal", "both")
        cp[_C.CP_WITHDRAWAL_ASKS] = self.withdrawal_converts_to_siege == "roman_option"
        cp[_C.CP_REACTION_MARCHES] = self.military_reaction == "movement_allowance"
        cp[_C.CP_CITY_ARMIES_REACT] = self.military_reaction_by == "any_nr_army"
        cp[_C.CP_AMBUSH_PLACED] = self.ambush_army == "placed"
        cp[_C.CP_REVOLT_GATHERS] = self.revolt == "gather_then_draw"
        cp[_C.CP_SACK_ANY_LEADER] = self.rome_sack == "any_leader"
        cp[_C.CP_OSTIA_BESIEGED] = self.etruscans_besiege_ostia
        city = np.zeros((n, _C.CT_SEA + n), np.int64)
        city[:, _C.CT_PEOPLE] = cmap.people
        if self.falerii_people == "latin":  # KOR-A48: Falerii in 3.5's Latin group, not the Rasna one
            city[index("Falerii"), _C.CT_PEOPLE] = _C.LATINS
        city[:, _C.CT_PORT] = cmap.port
        city[:, _C.CT_ENTRY] = cmap.entry
        city[:, _C.CT_GARRISON0] = cmap.initial_garrison
        city[:, _C.CT_ADJACENT] = (cmap.adjacent.astype(np.int64) << np.arange(n, dtype=np.int64)).sum(axis=1)
        city[:, _C.CT_SEA:] = cmap.sea_cost
        tok = self._manifest(cmap, cnt)
        for key in self.left_out():  # never enters the containers: its period is past the campaign's
            tok[(tok[:, _C.TK_KIND] == _C.EVENT) & (tok[:, _C.TK_CODE] == EVENT_KEYS.index(key)), _C.TK_PERIOD] = 99
        per = np.zeros((8, _C.PR_COLS), np.int64)
        for k, row in enumerate(_PERIODS, start=1):
            per[k] = row
        if self.numa_inauguratio:
            per[2, _C.PR_INAUGURATIO_FAIL] = 5
        war = np.zeros((_C.RAISED + _C.N_PEOPLES, _C.WR_COLS), np.int64)
        for w, row in _WARS.items():
            people, start, *numbers = row
            war[w, :_C.WR_FILL] = (_campaign_data.PEOPLES.index(people), index(start), *numbers)
        # KOR-A60: how the Etruscan and Greek armies take their rolled units
        war[_C.W_ETRUSCAN, _C.WR_FILL] = (_C.FILL_FEWER_CAVALRY_MAX_CAVALRY if self.etruscan_army_fill ==
                                          "max_cavalry_allowed_then_infantry" else
                                          _C.FILL_FEWER_CAVALRY_INFANTRY_FIRST)
        war[_C.W_DANAI, _C.WR_FILL] = (_C.FILL_CAVALRY_FIRST if self.greek_army_fill == "cavalry_first" else
                                       _C.FILL_INFANTRY_FIRST)
        if self.samnite_roll_mapping == "example":
            war[_C.W_SAMNITE, _C.WR_INF], war[_C.W_SAMNITE, _C.WR_CAV] = 1, 2
        war[_C.W_DANAI, _C.WR_FIGHTS_ARMIES] = self.danai_fight_blocking_army
        for w, faces in _FLEETS.items():
            war[w, _C.WR_SHIPS:] = [sum(1 << v for v in face) for face in faces]
        for i, start in enumerate(_ETRUSCAN_STARTS):
            war[_C.N_WARS + i] = war[_C.W_ETRUSCAN]
            war[_C.N_WARS + i, _C.WR_START] = index(start)
        war[_C.N_WARS + 1, _C.WR_SHIPS:] = 0  # 9.7.7.3: the third war comes by land, with no ship die
        # 9.5.7.3 « Si Brennus assiège Rome et gagne », 9.7.7.3 « avec Porsenna au commandement » (campaign.sacks_rome)
        war[_C.W_GALLIC, _C.WR_ROME_TAKEN] = war[_C.N_WARS + 1, _C.WR_ROME_TAKEN] = _C.SACK_NAMED_LEADER
        # the armies NR leaders raise on the map (6.1, 6.2; campaign.RAISED): their people's, Roman cities their targets
        war[_C.RAISED:, _C.WR_PEOPLE] = np.arange(_C.N_PEOPLES)
        war[_C.RAISED:, _C.WR_START] = -1
        war[_C.RAISED:, _C.WR_TARGETS] = _C.T_ROMAN
        pv0, stab = _procedure_defaults()
        pv0 = pv0.copy()
        for k in (_C.PROC_BATTLE, _C.PROC_AMBUSH):  # KOR-A33, for the battles the campaign fights
            pv0[k, _battle.P_TRIUMPH_IP] = self.triumph_bonus_ip
            pv0[k, _battle.P_TRIUMPH_WHOLE] = self.triumph_infantry_scope == "whole_army"
            # KOR-A25: phase 3 costs 1 IP in Rome's own battles (``campaign.fight``), in every battle under always
            pv0[k, _battle.P_PHASE3_COST] = self.phase3_cost_scope == "always"
        # KOR-A15: the orphan reaction line of 5.7.1 read as corruption's too
        pv0[_C.PROC_CORRUPTION, _corruption.REACTION_COUNT] = self.orphan_reaction_line_owner in ("corruption", "both")
        # DP-K03 (9.2.7.3-9.2.7.4): the royal army's roads while the Falisci hold Falerii (held bit 1), the
        # Capenati Capena (bit 2), both, or neither (0, also every other army's roads): ``campaign.held_homes``
        homes = ("Falerii", "Capena")
        cost = np.stack([cmap.cost_avoiding([h for b, h in enumerate(homes) if held >> b & 1]) for held in range(4)])
        return (cp, city, cost, tok, per, war, pv0, stab)

    @staticmethod
    def _manifest(cmap, cnt):
        """The counters as ``tok`` rows (``TK_*``): kinds and peoples by the data's codes; a king's code is his
        period (0: the Interrex); named leaders, offices and events their ``LD_``/``OF_``/``EV_`` codes; an
        invasion army's unit (a unit of a later period) the code of its war + 1, waiting in the general reserve."""
        kinds, peoples = _campaign_data.KINDS, _campaign_data.PEOPLES
        tok = np.zeros((len(cnt.names), _C.TK_COLS), np.int64)
        war_homes = {cmap.index(start) for _, start, *_ in _WARS.values()} | {cmap.index(s) for s in _ETRUSCAN_STARTS}
        for t, name in enumerate(cnt.names):
            kind = kinds[cnt.kind[t]]
            people = peoples[cnt.people[t]]
            code, period = 0, int(cnt.period[t])
            if kind == "king":
                code = 0 if name == "Interrex" else period
            elif kind == "leader":
                code = _LEADERS.get(name, _C.LD_WAR if int(cnt.home[t]) in war_homes else _C.LD_OTHER)
            elif kind == "office":
                code = _OFFICES[name]
            elif kind == "event":
                code = _EVENTS[name]
            elif kind in ("infantry", "cavalry") and period > 0:
                code, period = _WAR_OF_PEOPLE[people] + 1, 0
            elif kind == "garrison":
                period = 0
            tok[t] = (cnt.kind[t], cnt.people[t], cnt.virtus[t], cnt.astutia[t], cnt.roman_class[t], cnt.home[t],
                      period, code)
        return tok

    def seats(self):
        return (Seat("rome", "", "p_win", points=tuple(dp.name for dp in _C.CAMPAIGN_POINTS)),)

    def all_actions(self, point):
        """The campaign's own points, by the map and counters played: DP-K01 every place, operation, army and the
        Diarchy; DP-K02 and DP-K06 ending and every counter (``1 + t``); DP-K05, K07 and K08 every place."""
        cmap, counters = self.data()
        places, units = len(cmap.cities), len(counters.names)
        if point == "action":
            return tuple(range(1 + places + _C.N_OPS + _C.MAX_ARMIES + 1))
        if point in ("army", "loss"):
            return tuple(range(1 + units))
        if point in ("garrison", "retreat", "excess"):
            return tuple(range(places))
        return super().all_actions(point)

    def narrator(self):
        from .campaign_narrative import CampaignNarrator
        return CampaignNarrator()


_PROCEDURE_DEFAULTS = []
def _procedure_defaults():
    """The procedures' compiled parameter vectors at their scenarios' defaults (rows ``PROC_*``) and the siege's
    success tables: the campaign plays each by the same rules as ``kings_of_rome.siege``, ``.pillage`` ...; their
    decision points are the campaign's own ``procedure.point`` ones."""
    if not _PROCEDURE_DEFAULTS:
        pv0 = np.zeros((_C.N_PROC, _C.PV_SIZE), np.int64)
        # the procedures in PROC_* order, each as its own scenario at the defaults the campaign plays it with
        procedures = (Siege(), Pillage(), Corruption(), Intimidation(), Treason(),
                      Battle(invader_war=True, nr_people="samnites"), Ambush(), Naval(), Horatii(), Cocles())
        for k, scenario in enumerate(procedures):
            p = scenario.kernel_args()[0]
            pv0[k, :p.size] = p
        siege_p = pv0[_C.PROC_SIEGE].copy()
        stab = np.zeros((4, 7, 2, 5, 7), np.int64)
        s = _siege
        for g in range(4):
            for lead in range(7):
                for omen in range(2):
                    siege_p[s.GARRISON], siege_p[s.LEADER], siege_p[s.OMEN] = g, lead, omen
                    stab[g, lead, omen] = success_table(siege_p)
        _PROCEDURE_DEFAULTS.extend((pv0, stab))
    return tuple(_PROCEDURE_DEFAULTS)
