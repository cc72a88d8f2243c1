"""The ``jugule.duel`` scenario: parameters, options, validation and compilation to kernel arrays.

Names, parameters, options and metrics follow ``docs/contracts/jugule.md``; rule options take their values and
defaults from ``data/jugule_options.csv``.
"""
from dataclasses import field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.errors import ScenarioError
from ..core.scenario import Scenario, Seat, option_table, param, register
from .combat import G_AP, G_FIELDS, I_COLS, MAX_ITEMS, OPTION_NAMES, RANKS, option_vector
from . import duel as _duel
from .gladiators import TYPE_ROWS, TYPES, GladiatorSpec, gladiator_row, gladiator_spec
from .policies import DUEL_POINTS

option = option_table(Path(__file__).with_name("data") / "jugule_options.csv")

# integer options: (lowest, highest, what they mean) beyond the table's ">= 0"
INTEGER_BOUNDS = {"arena_radius": (0, 100, "0 (unbounded) or the arena radius, at least 3 (15.8)"),
                  "zoc_slide_cost": (0, 20, "0 (no slides) or the MP a slide costs"),
                  "melee_to_hit": (0, 6, "0 (no roll) or the d6 needed, 2 to 6"),
                  "defence_roll": (0, 6, "0 (automatic) or the d6 needed, 2 to 6"),
                  "coward_turns": (1, 50, "turns without an attack before execution"),
                  "eques_javelins": (0, 4, "javelins of the Eques, 0 to 4"),
                  "max_turns": (1, 10_000, "the safety cap on turns, 1 to 10000")}


def gladiator_param(default, doc):
    # a choice of the type names as far as generic tools can tell; ``validate`` also takes a custom table
    return field(default=default, metadata={"param": GladiatorSpec("choice", doc, "14", choices=TYPES)})


@register
class Duel(Scenario):
    name = "jugule.duel"
    rule = "Jugule 4-12, 15"
    title = "A gladiator duel on the hex sheet, from the AP split to death, mercy or cowardice"
    p_win = "gladiator A wins (B killed, spared, executed after an appeal, or executed as a coward)"
    metrics = ("p_win", "p_loss", "p_both_out", "p_unfinished", "p_by_death", "p_mercy_granted", "p_mercy_refused",
               "p_by_cowardice", "turns", "hp_left_a", "hp_left_b", "damage_dealt_a", "damage_dealt_b", "fumbles_a",
               "fumbles_b", "nets_thrown_a", "ap_allocated_a", "ap_allocated_b", "ap_spent_a", "ap_spent_b",
               "off_board")
    decision_points = DUEL_POINTS
    kernel = staticmethod(_duel.duel_kernel)
    machine = _duel.MACHINE

    a: object = gladiator_param("retiarius", "gladiator A (the spec's G1): a type name or a custom table")
    b: object = gladiator_param("secutor", "gladiator B (G2): a type name or a custom table")
    rank_a: str = param("tiro", choices=RANKS, doc="rank of A", rule="13")
    rank_b: str = param("tiro", choices=RANKS, doc="rank of B", rule="13")
    bonus_hp_a: int = param(0, lo=0, hi=2, doc="career bonus HP of A (hp_max = 10 + bonus)", rule="13, JUG-A65")
    bonus_hp_b: int = param(0, lo=0, hi=2, doc="career bonus HP of B", rule="13, JUG-A65")
    bonus_ap_a: int = param(0, lo=0, hi=2, doc="career bonus AP of A (ap = type AP + bonus)", rule="13, JUG-A65")
    bonus_ap_b: int = param(0, lo=0, hi=2, doc="career bonus AP of B", rule="13, JUG-A65")
    ap_a: int = param(0, lo=0, hi=20, doc="A's action points before any career bonus, replacing the type's own "
                      "(table 14); 0 keeps the type's: the designer's knob", rule="14")
    ap_b: int = param(0, lo=0, hi=20, doc="B's action points, as ap_a", rule="14")
    start_distance: int = option("start_distance")
    arena_radius: int = option("arena_radius")
    initiative_tie: str = option("initiative_tie")
    allocation: str = option("allocation")
    zoc_mode: str = option("zoc_mode")
    zoc_slide_cost: int = option("zoc_slide_cost")
    turn_cost_outside_zoc: int = option("turn_cost_outside_zoc")
    reactive_turn: str = option("reactive_turn")
    stepback_hex: str = option("stepback_hex")
    attack_arc: str = option("attack_arc")
    arcs: str = option("arcs")
    location: str = option("location")
    melee_to_hit: int = option("melee_to_hit")
    defence_roll: int = option("defence_roll")
    dodge_mode: str = option("dodge_mode")
    defence_timing: str = option("defence_timing")
    parry_missiles: bool = option("parry_missiles")
    shield_side: str = option("shield_side")
    scutum_zones: str = option("scutum_zones")
    fumble_scope: str = option("fumble_scope")
    min_damage_stage: str = option("min_damage_stage")
    sica_bonus: str = option("sica_bonus")
    exp_mod: str = option("exp_mod")
    wounded_mod: str = option("wounded_mod")
    ground_can_attack: bool = option("ground_can_attack")
    immobilised: str = option("immobilised")
    protection_values: str = option("protection_values")
    thraex_early_kit: str = option("thraex_early_kit")
    single_greave_side: str = option("single_greave_side")
    dimachaerus_helmet: bool = option("dimachaerus_helmet")
    custom_build: str = option("custom_build")
    eques_shield: str = option("eques_shield")
    reach_holders: str = option("reach_holders")
    pushback: str = option("pushback")
    net_range: int = option("net_range")
    net_area: str = option("net_area")
    net_exit: str = option("net_exit")
    netted_can_attack: bool = option("netted_can_attack")
    net_escape_cmp: str = option("net_escape_cmp")
    pickup_range: int = option("pickup_range")
    smooth_helmet: str = option("smooth_helmet")
    scythe_mode: str = option("scythe_mode")
    javelin_reserve_mod: str = option("javelin_reserve_mod")
    javelin_profile: str = option("javelin_profile")
    missile_fumble: bool = option("missile_fumble")
    spear_throw: str = option("spear_throw")
    spear_throw_cost: int = option("spear_throw_cost")
    bash_shields: str = option("bash_shields")
    bash_mode: str = option("bash_mode")
    knockdown_wounds: str = option("knockdown_wounds")
    knockdown_spend: str = option("knockdown_spend")
    improvised_shield: str = option("improvised_shield")
    double_attack: str = option("double_attack")
    andabata_head: str = option("andabata_head")
    lasso_range: int = option("lasso_range")
    stumble_cancel: str = option("stumble_cancel")
    sand_mode: str = option("sand_mode")
    slip_cancel: str = option("slip_cancel")
    coward_excuse_unable: bool = option("coward_excuse_unable")
    forced_appeal_turn_loss: str = option("forced_appeal_turn_loss")
    stun_effect: str = option("stun_effect")
    appeal_requires_wound: bool = option("appeal_requires_wound")
    mercy_damage_mod: str = option("mercy_damage_mod")
    mercy_vet_cumulative: bool = option("mercy_vet_cumulative")
    coward_turns: int = option("coward_turns")
    eques_javelins: int = option("eques_javelins")
    bestiarius_weapon: str = option("bestiarius_weapon")
    max_turns: int = option("max_turns")

    def options(self):
        return {name: getattr(self, name) for name in OPTION_NAMES}

    def check(self):
        for name, (lo, hi, meaning) in INTEGER_BOUNDS.items():
            value = getattr(self, name)
            bad = not lo <= value <= hi
            if name in ("melee_to_hit", "defence_roll") and value == 1:
                bad = True
            if name == "arena_radius" and 0 < value < 3:
                bad = True  # the set-up needs both gladiators and a hex around them on the sheet
            if bad:
                raise ScenarioError(f"{name}: {value!r} is not allowed; expected {meaning}")
        for side in ("a", "b"):
            rank = getattr(self, f"rank_{side}")
            bonus = getattr(self, f"bonus_hp_{side}") + getattr(self, f"bonus_ap_{side}")
            most = {"tiro": 0, "primus_palus": 0, "speciarius": 1, "veteranus": 2}[rank]
            if bonus > most:
                raise ScenarioError(
                    f"bonus_hp_{side}/bonus_ap_{side}: {bonus} bonus point(s) is not allowed for a {rank}; expected "
                    f"at most {most} in all (13: a speciarius takes 1, a veteranus 2, JUG-A65)")
            gladiator_spec(side, getattr(self, side), self.options())

    def gladiators(self):
        """``(G0, IT0)``: the two gladiators' rows and item tables as the kernel receives them."""
        options = self.options()
        G0 = np.zeros((2, G_FIELDS), np.int64)
        IT0 = np.zeros((2, MAX_ITEMS, I_COLS), np.int64)
        for i, side in enumerate(("a", "b")):
            spec = gladiator_spec(side, getattr(self, side), options)
            if getattr(self, f"ap_{side}"):
                spec = {**spec, "ap": getattr(self, f"ap_{side}")}
            G0[i], IT0[i] = gladiator_row(spec, options, getattr(self, f"rank_{side}"),
                                          getattr(self, f"bonus_hp_{side}"), getattr(self, f"bonus_ap_{side}"))
        return G0, IT0

    def seats(self):
        return (Seat("A", "a_", "p_win"), Seat("B", "b_", "p_loss"))

    def all_actions(self, point):
        """D4 (``allocate``): every split ``M * 100 + C`` of the gladiator's AP; D15 (``knockdown``): 0 .. AP RP."""
        kind = point[2:]
        if point[:2] in ("a_", "b_") and kind in ("allocate", "knockdown"):
            ap = int(self.gladiators()[0][int(point[0] == "b"), G_AP])
            if kind == "knockdown":
                return tuple(range(ap + 1))
            return tuple(m * 100 + c for m in range(ap + 1) for c in range(ap + 1 - m))
        return super().all_actions(point)

    def narrator(self):
        from .narrative import DuelNarrator
        return DuelNarrator()

    @classmethod
    def reference_tables(cls):
        columns = ["type_id", "name_fr", "ap", "head", "thorax", "left_arm", "right_arm", "left_leg", "right_leg",
                   "shield", "weapons", "special_rules"]
        table = pd.DataFrame(list(TYPE_ROWS.values()))[columns]
        return {"gladiator types (a, b; AP and the protection of each zone, Jugule 14)": table}

    def kernel_args(self):
        return (option_vector(self), *self.gladiators())
