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
from .ignominy import ignominy_kernel
from .policies import SIEGE_POINTS, TREASON_POINTS
from .siege import N_PARAMS as SIEGE_N_PARAMS
from .siege import siege_kernel, success_table
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
