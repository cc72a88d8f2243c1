"""Semper Victor scenarios: parameters, options, validation and compilation to kernel arrays.

Names, parameters, options and metrics follow ``docs/contracts/semper_victor.md``; rule options take their values
and defaults from ``data/sv_options.csv``.
"""
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..core.errors import PolicyError, ScenarioError
from ..core.scenario import REQUIRED, ParamSpec, Scenario, Seat, option_table, param, register
from . import battle as _battle
from . import empire as _empire
from . import exact as _exact
from . import exact as _sv_exact
from . import reference as _reference
from . import reference as _sv_reference
from . import usurpation as _usurp
from .assassination import assassination_kernel
from .constantinople import constantinople_kernel
from .initiative import initiative_kernel
from .plague import MAX_ZONES as PLAGUE_ZONES
from .plague import N_COLUMNS as PLAGUE_COLUMNS
from .plague import plague_kernel
from .policies import (
    ASSASSINATION_POINTS,
    BATTLE_MAX_LEADERS,
    BATTLE_MAX_UNITS,
    BATTLE_MAX_ZONES,
    BATTLE_POINTS,
    BATTLE_ROLES,
    CONSTANTINOPLE_POINTS,
    INITIATIVE_POINTS,
    PLAGUE_POINTS,
    SUCCESSION_POINTS,
    USURPATION_POINTS,
)
from .sequences import sequences_kernel
from .succession import DIES as SUCC_DIES
from .succession import N_PARAMS as SUCC_N_PARAMS
from .succession import NL as SUCC_NL
from .succession import SCOPE as SUCC_SCOPE
from .succession import TIE_BY_CONTROLLER as SUCC_TIE_BY_CONTROLLER
from .succession import succession_kernel
from .war_draw import war_draw_kernel

option = option_table(Path(__file__).with_name("data") / "sv_options.csv")

# ------------------------------------------------------------------ procedures: initiative, M/CS, war draw,
# Assassinat, Foyer de peste, Constantinopolis


def _procedure_policy(policies):
    """The single decision point's built-in, as the reference procedures read it."""
    return {"name": policies.names[0], "params": policies.params[0]}


@register
class Initiative(Scenario):
    """spec 2.3, Phase B: PRIMUS rolls a d6 and has the initiative iff it is below the Primus Augustus' PC; the
    player who lost the roll may play an Initiative stratagem (spec 2.12, mixed, phase B) to take it (D1).

    ``p_reversed`` is the chance that the stratagems change the roll's result; the M/CS the initiative brings are
    the ``semper_victor.sequences`` scenario (here the D1 state's ``mcs_total`` is -1, unknown).
    """

    name = "semper_victor.initiative"
    rule = "spec 2.3, 2.12"
    title = "Initiative of Phase B, with Initiative stratagems"
    p_win = "PRIMUS has the initiative at the end of Phase B"
    metrics = ("p_win", "p_roll", "p_reversed", "primus_played", "secondus_played")
    decision_points = INITIATIVE_POINTS
    kernel = staticmethod(initiative_kernel)

    primus_pc: int = param(4, lo=0, hi=9, doc="Political Capacity of the Primus Augustus", rule="spec 2.3")
    primus_initiative: int = param(0, lo=0, hi=6, doc="Initiative stratagems PRIMUS holds (5 in reserve + 1 drawn)",
                                   rule="spec 2.2, 2.12")
    secondus_initiative: int = param(0, lo=0, hi=6, doc="Initiative stratagems SECONDUS holds",
                                     rule="spec 2.2, 2.12")
    initiative_roll: str = option("initiative_roll")
    initiative_counterplay: bool = option("initiative_counterplay")

    def kernel_args(self):
        return (np.array([self.primus_pc, self.initiative_roll == "at_most", self.initiative_counterplay,
                          self.primus_initiative, self.secondus_initiative], np.int64),)

    def reference(self, dice, policies):
        return _reference.initiative(self, dice, _procedure_policy(policies))

    def exact_solution(self, policies):
        return _exact.initiative(self.primus_pc, self.initiative_roll == "at_most", self.primus_initiative,
                                 self.secondus_initiative, self.initiative_counterplay, policies.names[0],
                                 policies.params[0, 0])


SECONDUS_LEADER_KINDS = ("roman", "dux", "usurper", "non_roman")


@register
class Sequences(Scenario):
    """spec 2.5.1 (Phase D) after 2.3 (Phase B): T = SR of the Primus Augustus + the highest SR among SECONDUS's
    leaders in play; the initiative player gets ceil(T/2) M/CS, the other floor(T/2), alternating from the
    initiative player (spec 2.6). Only the initiative is random; D1 sees T (the `odd_mcs` built-in plays the
    Initiative stratagem only when T is odd, i.e. when it also buys the extra M/CS).
    """

    name = "semper_victor.sequences"
    rule = "spec 2.5.1, 2.3, 2.6"
    title = "Number and split of the Movement/Combat Sequences"
    p_win = "PRIMUS has the initiative (first M/CS, and the extra one when T is odd)"
    metrics = ("p_win", "primus_mcs", "secondus_mcs", "mcs_total", "p_primus_last")
    decision_points = INITIATIVE_POINTS
    kernel = staticmethod(sequences_kernel)

    primus_pc: int = param(4, lo=0, hi=9, doc="Political Capacity of the Primus Augustus", rule="spec 2.3")
    primus_sr: int = param(4, lo=0, hi=9, doc="Strategic Rating of the Primus Augustus", rule="spec 2.5.1")
    secondus_leaders: tuple = param(
        [{"sr": 1, "kind": "non_roman"}], kind="records", max_len=40,
        fields=(("sr", ParamSpec("int", "Strategic Rating", lo=0, hi=9), REQUIRED),
                ("kind", ParamSpec("choice", "what the leader is", choices=SECONDUS_LEADER_KINDS), "roman"),
                ("pax_romana", ParamSpec("bool", "a non-Roman leader on his Pax Romana face (not in play)"),
                 False)),
        doc="SECONDUS's leaders on the map (default: the seed's 335 example, the Picts' leader SR 1)",
        rule="spec 2.5.1, SV-A11")
    primus_initiative: int = param(0, lo=0, hi=6, doc="Initiative stratagems PRIMUS holds", rule="spec 2.2, 2.12")
    secondus_initiative: int = param(0, lo=0, hi=6, doc="Initiative stratagems SECONDUS holds",
                                     rule="spec 2.2, 2.12")
    initiative_roll: str = option("initiative_roll")
    initiative_counterplay: bool = option("initiative_counterplay")
    mcs_secondus_empty: int = option("mcs_secondus_empty")
    mcs_dux_usurpers_count: bool = option("mcs_dux_usurpers_count")

    def check(self):
        for i, leader in enumerate(self.secondus_leaders):
            if leader["pax_romana"] and leader["kind"] != "non_roman":
                raise ScenarioError(f"secondus_leaders[{i}].pax_romana: True is not allowed for a "
                                    f"{leader['kind']!r} leader; only non-Roman leaders have a Pax Romana face "
                                    "(seed 1.2)")

    def kernel_args(self):
        leaders = self.secondus_leaders
        p = np.array([self.primus_pc, self.initiative_roll == "at_most", self.initiative_counterplay,
                      self.primus_initiative, self.secondus_initiative, self.primus_sr, self.mcs_secondus_empty,
                      self.mcs_dux_usurpers_count, len(leaders)], np.int64)
        return (p, np.array([x["sr"] for x in leaders], np.int64),
                np.array([SECONDUS_LEADER_KINDS.index(x["kind"]) for x in leaders], np.int64),
                np.array([x["pax_romana"] for x in leaders], np.int64))

    def reference(self, dice, policies):
        return _reference.sequences(self, dice, _procedure_policy(policies))

    def exact_solution(self, policies):
        total = _exact.mcs_total(self.primus_sr, [(x["sr"], x["kind"], x["pax_romana"])
                                                  for x in self.secondus_leaders],
                                 self.mcs_dux_usurpers_count, self.mcs_secondus_empty)
        phase_b = _exact.initiative(self.primus_pc, self.initiative_roll == "at_most", self.primus_initiative,
                                    self.secondus_initiative, self.initiative_counterplay, policies.names[0],
                                    policies.params[0, 0], total)
        return _exact.sequences(total, phase_b["p_win"])


@register
class WarDraw(Scenario):
    """spec 2.4.2 over several turns: in each Phase C one counter is drawn from the cup of the five Major peoples'
    markers and five dummies; the marker of a people at peace sends it to war.

    The Persians are the marker the rules treat apart (seed 4.2.1: no Persian leader 310-319, SV-A7); the four
    others are interchangeable, so SV-A6 (which peoples are Major) changes no number here. How a war ends is not in
    the seed (GAP G10): ``peace_chance`` is a stand-in, 0 (the default) meaning wars never end. Uprising stratagems
    (spec 2.4.4, GAP G7) are not modelled.
    """

    name = "semper_victor.war_draw"
    rule = "spec 2.4.2"
    title = "Going-to-war draw of the Major peoples over several turns"
    p_win = "no Major people goes to war during the turns (the Empire's peace)"
    metrics = ("p_win", "new_wars", "at_war", "p_persians_at_war", "turns_without_war")
    kernel = staticmethod(war_draw_kernel)

    turns: int = param(1, lo=1, hi=60, doc="turns played (one draw each)", rule="spec 2.1, 2.4.2")
    start_year: int = param(305, lo=305, hi=375, doc="year of the first turn (the Persians' 310-319 gap)",
                            rule="seed 4.2.1, SV-A7")
    others_at_war: int = param(0, lo=0, hi=4, doc="Major peoples other than the Persians at war at the start",
                               rule="spec 2.4.2")
    persians_at_war: bool = param(False, doc="the Persians are at war at the start", rule="spec 2.4.2")
    peace_chance: int = param(0, lo=0, hi=10,
                              doc="GAP G10 stand-in, not a rule: in each Phase F every people at war makes peace "
                                  "on a d10 below this value (0 = never)", rule="GAP G10")
    war_draw_replace: bool = option("war_draw_replace",
                                    doc="rule option SV-A5; false is an invented variant, not a reading of the seed, "
                                        "which refills the cup each Phase C (seed 2.C)")
    war_without_leader: bool = option("war_without_leader")

    def kernel_args(self):
        return (np.array([self.turns, self.start_year, self.others_at_war, self.persians_at_war, self.peace_chance,
                          self.war_draw_replace, self.war_without_leader], np.int64),)

    def reference(self, dice, policies):
        return _reference.war_draw(self, dice, {})

    def exact_solution(self, policies):
        return _exact.war_draw(self.turns, self.start_year, self.others_at_war, self.persians_at_war,
                               self.peace_chance, self.war_draw_replace, self.war_without_leader)


ASSASSINATION_TARGETS = ("augustus", "caesar", "leader", "dux", "non_roman")


@register
class Assassination(Scenario):
    """spec 2.12 Assassinat (mixed, phase E) against one enemy leader: d10 of 8 or 9 kills; the holder of the
    Protectores Domestici (spec 2.10) applies the SV-A2 modifier (-1: only a 9 kills).

    ``bodyguard`` says where the marker is: on the target (``holder``), on another leader of the target's zone
    (``stacked``, protected only with SV-A3 ``guard_scope = zone``) or elsewhere (``none``). What follows a kill
    (successions, a usurpation's success) belongs to the succession and usurpation scenarios.
    """

    name = "semper_victor.assassination"
    rule = "spec 2.12, 2.10"
    title = "Assassinat stratagem, with or without the Protectores Domestici"
    p_win = "the target is killed (the success of the player who plays Assassinat)"
    metrics = ("p_win", "plays")
    decision_points = ASSASSINATION_POINTS
    kernel = staticmethod(assassination_kernel)

    target: str = param("augustus", choices=ASSASSINATION_TARGETS, doc="the enemy leader aimed at",
                        rule="spec 2.12, SV-A23")
    bodyguard: str = param("none", choices=("none", "holder", "stacked"),
                           doc="the enemy's Protectores Domestici: on the target, stacked with him, or elsewhere",
                           rule="spec 2.10, SV-A3")
    attempts: int = param(1, lo=1, hi=6, doc="Assassinat stratagems the player holds for this target this turn",
                          rule="spec 2.2, 2.12")
    assassin_guard_mod: int = option("assassin_guard_mod")
    guard_scope: str = option("guard_scope")
    assassinate_nonroman: bool = option("assassinate_nonroman")

    def check(self):
        if self.target == "dux":
            raise ScenarioError("target: 'dux' is not allowed; a Dux cannot be assassinated (seed 3.3, 6.3)")
        if self.target == "non_roman" and not self.assassinate_nonroman:
            raise ScenarioError("target: 'non_roman' is not allowed with assassinate_nonroman = false; Assassinat "
                                "aims at enemy Roman leaders only (seed 6.3, SV-A23)")
        if self.bodyguard == "holder" and self.target not in ("augustus", "caesar"):
            raise ScenarioError(f"bodyguard: 'holder' is not allowed for a target {self.target!r}; only an "
                                "Augustus or a Caesar carries the Protectores Domestici (spec 2.10)")
        if self.bodyguard == "stacked" and self.target == "non_roman":
            raise ScenarioError("bodyguard: 'stacked' is not allowed for a non-Roman target; non-Roman leaders "
                                "never stack with Roman leaders (seed 4.2.4)")

    def protected(self):
        return self.bodyguard == "holder" or (self.bodyguard == "stacked" and self.guard_scope == "zone")

    def kernel_args(self):
        return (np.array([self.attempts, self.protected(), self.assassin_guard_mod], np.int64),)

    def reference(self, dice, policies):
        return _reference.assassination(self, dice, _procedure_policy(policies))

    def exact_solution(self, policies):
        modifier = self.assassin_guard_mod if self.protected() else 0
        faces = len({8, 9} & {face + modifier for face in range(10)})
        return _exact.assassination(self.attempts, faces, policies.names[0], policies.params[0, 0])


PLAGUE_ZONE_KEYS = ("enemy_leaders", "enemy_dux", "enemy_non_roman", "enemy_full", "enemy_weakened",
                    "own_leaders", "own_dux", "own_non_roman", "own_full", "own_weakened")
_PLAGUE_KEY_DOCS = {"leaders": ("Roman leaders (Dux apart)", 12), "dux": ("Dux", 4),
                    "non_roman": ("non-Roman leaders", 12), "full": ("units on their full face", 20),
                    "weakened": ("units on their weakened face", 20)}


def _plague_key(key):
    side, kind = key.split("_", 1)
    what, hi = _PLAGUE_KEY_DOCS[kind]
    whose = "the holder's enemy" if side == "enemy" else "the holder"
    return key, ParamSpec("int", f"{what} of {whose} in the zone", lo=0, hi=hi), 0


@register
class Plague(Scenario):
    """spec 2.12 Foyer de peste (mixed, phase E): put on one zone (D13, among ``zones``), it weakens every unit
    there (a weakened unit is eliminated) and every leader there rolls a d10 and dies on a 9 (SV-A24: both sides,
    Dux and non-Roman leaders included unless the options spare them). Units of every kind are always hit ("all
    the combat units", seed 6.3).
    """

    name = "semper_victor.plague"
    rule = "spec 2.12"
    title = "Foyer de peste (plague) stratagem on a zone"
    p_win = "at least one leader of the holder's enemy dies"
    metrics = ("p_win", "p_no_leader_dies", "enemy_leaders_killed", "own_leaders_killed", "enemy_units_eliminated",
               "enemy_units_weakened", "own_units_eliminated", "own_units_weakened")
    decision_points = PLAGUE_POINTS
    kernel = staticmethod(plague_kernel)

    zones: tuple = param([{"enemy_leaders": 3}], kind="records", min_len=1, max_len=PLAGUE_ZONES,
                         fields=tuple(_plague_key(k) for k in PLAGUE_ZONE_KEYS),
                         doc="candidate zones and what each holds (default: WP6, three leaders)",
                         rule="spec 2.12, D13")
    plague_dux_rolls: bool = option("plague_dux_rolls")
    plague_non_roman_rolls: bool = option("plague_non_roman_rolls")

    def check(self):
        for i, zone in enumerate(self.zones):
            if zone["enemy_dux"] + zone["own_dux"] > 4:
                raise ScenarioError(f"zones[{i}]: {zone['enemy_dux'] + zone['own_dux']} Dux is not allowed; the "
                                    "game has four (seed 3.3)")

    def kernel_args(self):
        zones = np.zeros((PLAGUE_ZONES, PLAGUE_COLUMNS), np.int64)
        for i, zone in enumerate(self.zones):
            zones[i] = [zone[k] for k in PLAGUE_ZONE_KEYS]
        return np.array([len(self.zones), self.plague_dux_rolls, self.plague_non_roman_rolls], np.int64), zones

    def reference(self, dice, policies):
        return _reference.plague(self, dice, _procedure_policy(policies))

    def exact_solution(self, policies):
        def rollers(zone, side):
            return zone[f"{side}_leaders"] + self.plague_dux_rolls * zone[f"{side}_dux"] + (
                self.plague_non_roman_rolls * zone[f"{side}_non_roman"])

        rows = [(rollers(z, "enemy"), rollers(z, "own"), z["enemy_full"], z["enemy_weakened"], z["own_full"],
                 z["own_weakened"]) for z in self.zones]
        name, vector = policies.names[0], policies.params[0]
        if name == "random":
            chosen = [(Fraction(1, len(rows)), row) for row in rows]
        else:
            if name == "fixed":
                pick = int(vector[0]) - 1
                if not 0 <= pick < len(rows):
                    raise PolicyError(f"decision point 'plague_zone' (D13): illegal action {pick + 1}; "
                                      f"{PLAGUE_POINTS[0].actions}")
            else:
                scores = [vector[0] * (e - o) + vector[1] * (ef + ew - of - ow) for e, o, ef, ew, of, ow in rows]
                pick = scores.index(max(scores))
            chosen = [(Fraction(1), rows[pick])]
        return _exact.plague([(w, *row) for w, row in chosen])


@register
class Constantinople(Scenario):
    """spec 2.4.3 over several turns: PRIMUS starts the building in Phase C (D3) when he controls Thracia and
    Constantin is Primus Augustus; in the Phase F in which the Turn marker reaches the box 6 years on (SV-A8) the
    city is built (+10 VP) unless the Secondus Augustus or a Usurper stands with a combat unit in Thracia zone 3;
    a cancelled construction may start again from zero.

    Which forces stand where, whether Constantin lives and who holds Thracia need the map, the movement, the death
    table and Diocese control (GAPS G1, G5, G9): they are per-turn chances in percent, parameters of an abstract
    model, not rules (see ``romesim.semper_victor.constantinople``).
    """

    name = "semper_victor.constantinople"
    rule = "spec 2.4.3"
    title = "Building Constantinopolis: completion or interruption over several turns"
    p_win = "Constantinopolis is completed within the turns (PRIMUS's success)"
    metrics = ("p_win", "p_interrupted", "attempts", "interruptions", "cancellations", "vp", "capital_turns")
    decision_points = CONSTANTINOPLE_POINTS
    kernel = staticmethod(constantinople_kernel)

    turns: int = param(10, lo=1, hi=60, doc="turns played, the first with the starting conditions met",
                       rule="spec 2.1")
    occupation_augustus: int = param(
        10, lo=0, hi=100, doc="model, not a rule: % chance that at the completion Phase F the Secondus Augustus "
                              "stands with a combat unit in Thracia zone 3", rule="spec 2.4.3, GAPS G1, G9")
    occupation_usurper: int = param(
        0, lo=0, hi=100, doc="model, not a rule: % chance that a Usurper of SECONDUS stands there instead",
        rule="spec 2.4.3, SV-A34")
    occupation_primus_usurper: int = param(
        0, lo=0, hi=100, doc="model, not a rule: % chance that a Usurper of PRIMUS stands there instead (cancels only "
                             "with constantinople_usurper = any)", rule="spec 2.4.3, SV-A34")
    constantin_loss: int = param(
        0, lo=0, hi=100, doc="model, not a rule: % chance per Phase D that Constantin stops being Primus Augustus "
                             "(10 = the spec's PROPOSAL 3.7 flat death model)", rule="spec 2.5.4, GAP G5, SV-A9")
    thracia_loss: int = param(0, lo=0, hi=100,
                              doc="model, not a rule: % chance per Phase F that PRIMUS loses Thracia",
                              rule="spec 2.13.1, GAP G1, SV-A9")
    thracia_regain: int = param(0, lo=0, hi=100,
                                doc="model, not a rule: % chance per Phase F that PRIMUS regains a lost Thracia",
                                rule="spec 2.13.1, GAP G1")
    constantinople_completion: str = option("constantinople_completion")
    constantinople_conditions: str = option("constantinople_conditions")
    constantinople_usurper: str = option("constantinople_usurper")

    def check(self):
        total = self.occupation_augustus + self.occupation_usurper + self.occupation_primus_usurper
        if total > 100:
            raise ScenarioError(f"occupation_augustus/occupation_usurper/occupation_primus_usurper: {total} % in "
                                "all is not allowed; they are exclusive chances for one zone and may sum to 100 at "
                                "most")

    def duration(self):
        return 6 if self.constantinople_completion == "advance_into_box" else 7

    def kernel_args(self):
        return (np.array([self.turns, self.duration(), self.constantinople_conditions == "continuous",
                          self.constantinople_usurper == "any", self.occupation_augustus, self.occupation_usurper,
                          self.occupation_primus_usurper, self.constantin_loss, self.thracia_loss,
                          self.thracia_regain], np.int64),)

    def reference(self, dice, policies):
        return _reference.constantinople(self, dice, _procedure_policy(policies))

    def exact_solution(self, policies):
        return _exact.constantinople(self.turns, self.duration(), self.constantinople_conditions == "continuous",
                                     self.constantinople_usurper == "any", self.occupation_augustus,
                                     self.occupation_usurper, self.occupation_primus_usurper, self.constantin_loss,
                                     self.thracia_loss, self.thracia_regain, policies.names[0])
# ------------------------------------------------------------------ succession and usurpation (seed 3.5.2, 3.6)


def _usurp_names(scenario, policies):
    return dict(zip((dp.name for dp in scenario.decision_points), policies.names))


@register
class Succession(Scenario):
    """seed 3.5.2: the Primus or the Secondus Augustus dies (any cause but a successful usurpation) and his
    successor is found by the seed's cases, in order: his player's other Augustus (1), his only Caesar (2), the
    better of his two Caesars by CC, SR, TB (3, SV-A13 for a full tie), for PRIMUS the Secondus Augustus with a
    change of roles (4), else PRIMUS names a general (D7) and SECONDUS a Usurper (5); for SECONDUS without an
    heir, he names a Usurper (D7) and his other leaders test their loyalty (case 4, SV-A14).

    A Usurper placed here is validated at once; the civil war he starts is ``semper_victor.usurpation`` with
    ``stratagem = "succession"`` on the empire as the loyalty checks leave it. ``successor`` and ``usurper`` are
    leader indices per game (-1 for nobody): read their distribution from the per-game outcomes (``keep=True``);
    their means only mean something when the choice is certain. What each option changes: ``tiebreak_final``
    only case 3 with two Caesars equal in CC, SR and TB; ``secondus_case4_scope`` only Secondus case 4.
    """

    name = "semper_victor.succession"
    rule = "seed 3.5.2 (spec 2.8)"
    title = "Succession of a dead Primus or Secondus Augustus, with the loyalty checks"
    p_win = ("his side keeps the title among its own emperors: an Augustus or Caesar of the dead Augustus' player "
             "succeeds (cases 1-3)")
    metrics = ("p_win", "case", "p_roles_change", "p_usurper", "successor", "usurper", "defections",
               "units_defected")
    decision_points = SUCCESSION_POINTS
    kernel = staticmethod(succession_kernel)

    zones: tuple = _empire.zones_param()
    leaders: tuple = _empire.leaders_param()
    units: tuple = _empire.units_param()
    capitals: int = param(6, lo=6, hi=7, doc="imperial capitals, the cap on all Augusti and Caesars together "
                                             "(7 once Constantinopolis is built)", rule="seed 3.5.1")
    dies: str = param("secondus", choices=_empire.SIDES, doc="whose senior Augustus dies: the Primus Augustus "
                                                             "('primus') or the Secondus Augustus", rule="seed 3.5.2")
    tiebreak_final: str = option("tiebreak_final")
    secondus_case4_scope: str = option("secondus_case4_scope")

    def check(self):
        object.__setattr__(self, "_empire", _empire.check_empire(self.zones, (), self.leaders, self.units,
                                                                 self.capitals))
        for i, ldr in enumerate(self.leaders):
            if ldr["defeated"]:
                raise ScenarioError(f"leaders[{i}].defeated: True is not allowed here; a defeat in a civil war "
                                    "belongs to semper_victor.usurpation")
        if self.dies == "secondus" and not any(ldr["title"] == "secondus_augustus" for ldr in self.leaders):
            raise ScenarioError("dies: 'secondus' is not allowed; no leader has title 'secondus_augustus'")
        if self.dies == "primus" and not self._empire.titled(_empire.PRIMUS, _empire.AUGUSTUS) \
                and not self._empire.titled(_empire.PRIMUS, _empire.CAESAR) \
                and not self._empire.titled(_empire.SECONDUS, _empire.SECONDUS_AUGUSTUS) \
                and not any(ldr["side"] == "primus" and ldr["title"] == "none" for ldr in self.leaders):
            raise ScenarioError("leaders: PRIMUS has no leader but his Primus Augustus and Dux; succession case 5 "
                                "needs a general of his on the map, and there must always be a Primus Augustus "
                                "(seed 3.5.1, 3.5.2)")

    def kernel_args(self):
        nz, nl, _, _, lead, _ = _empire.compile_empire(self._empire)
        p = np.zeros(SUCC_N_PARAMS, np.int64)
        p[SUCC_NL] = nl
        p[SUCC_DIES] = _empire.SIDES.index(self.dies)
        p[SUCC_TIE_BY_CONTROLLER] = self.tiebreak_final == "controller"
        p[SUCC_SCOPE] = ("same_zone", "other_zones", "all").index(self.secondus_case4_scope)
        # the SECONDUS units of each zone under no living leader's counter (the dead Augustus' units included)
        dead = next((i for i, ldr in enumerate(self.leaders) if ldr["title"] == "secondus_augustus"), -1)
        free = np.zeros(_empire.MAX_ZONES, np.int64)
        for u in self._empire.units:
            if u["side"] == _empire.SECONDUS and u["leader"] in (-1, dead):
                free[u["zone"]] += u["count"]
        return p, lead, free

    def reference(self, dice, policies):
        return _sv_reference.succession(self, dice, _usurp_names(self, policies))

    def exact_solution(self, policies):
        return _sv_exact.succession(self, _usurp_names(self, policies), self.metrics)


USURPATION_FIELDS = (
    ("stratagem", ParamSpec("choice", "the stratagem played (or the succession route: automatic validation)",
                            choices=_empire.STRATAGEMS), REQUIRED),
    ("target", ParamSpec("int", "the leader it is played on (his index in `leaders`), or -1 for the D5 policy",
                         lo=-1, hi=_empire.MAX_LEADERS - 1), -1),
)
MARCH_FIELDS = (
    ("zone", ParamSpec("int", "id of the next zone entered", lo=0, hi=999), REQUIRED),
    ("usurper", ParamSpec("int", "which attempt's Usurper marches (1 or 2)", lo=1, hi=2), 1),
)


@register
class Usurpation(Scenario):
    """seed 3.6: ``player`` plays one usurpation stratagem (two for a double usurpation) on enemy Roman leaders,
    rolls each validation (d6 <= PC; the succession route is validated at once), and each Usurper runs the civil
    war of seed 3.6.3: A (his zone follows him), B (one loyalty roll per other zone of his Diocese), C (one d10 to
    extend to an adjacent Diocese chosen by D6, then B there), D (rallies along the scenario's ``march``). Then
    both players play their Assassinat stratagems, alternately, the Usurper's player first: the usurpation
    succeeds (seed 3.6.4) when every Augustus of the victim side is down - ``defeated`` in a civil-war battle (an
    input: the battle is ``semper_victor.battle``) or assassinated - and fails when every Usurper is killed.

    Counts are those of the cascade, before any failure sends the joiners home. ``successor`` is the index of the
    Usurper who takes the senior title (-1 when the usurpation does not succeed), per game. What each option
    changes: ``usurp_bonus_mode`` the C and D rolls when b > 0; ``failed_validation_strips_title`` the empire left
    by a failed attempt (who counts as a victim Augustus, step B and C modifiers of a double usurpation);
    ``stepA_titled`` the other Caesar in a Caesar Usurper's zone; ``stepB_titled_zone`` zones with a victim
    Augustus or Caesar and simple leaders; ``stepC_mod_side`` the C roll when the usurping player's own Augustus
    or Caesar stands in D2; ``assassination_in_civil_war`` and ``two_augusti_mixed`` the success test;
    ``assassin_guard_mod`` and ``guard_scope`` the Assassinat rolls on a guarded Augustus;
    ``succession_defectors`` step A on the succession route when PRIMUS's defectors share the Usurper's zone
    (``empire.after_succession``). ``rally_optional`` changes no metric: a declined rally stops the march as a
    failed one does, so the Usurper always tries.
    """

    name = "semper_victor.usurpation"
    rule = "seed 3.6 (spec 2.11, 2.12)"
    title = "Usurpation: validation, civil war steps A-D, success or failure"
    p_win = ("for the usurping player: a Usurper was validated and the usurpation succeeds (seed 3.6.4: every "
             "victim Augustus defeated or assassinated while a Usurper lives)")
    metrics = ("p_win", "p_validated", "p_double", "p_extended", "leaders", "units", "dioceses", "units_rallied",
               "p_march_stopped", "augusti_assassinated", "p_usurper_killed", "successor")
    decision_points = USURPATION_POINTS
    kernel = staticmethod(_usurp.usurpation_kernel)
    machine = _usurp.MACHINE

    zones: tuple = _empire.zones_param()
    adjacent: tuple = _empire.adjacent_param()
    leaders: tuple = _empire.leaders_param()
    units: tuple = _empire.units_param()
    capitals: int = param(6, lo=6, hi=7, doc="imperial capitals, the cap on all Augusti and Caesars together "
                                             "(7 once Constantinopolis is built)", rule="seed 3.5.1")
    player: str = param("secondus", choices=_empire.SIDES, doc="the player who plays the stratagem(s) and controls "
                                                               "the Usurper(s); the other side is the victim",
                        rule="seed 3.6, 6.1, 6.2")
    usurpations: tuple = param([{"stratagem": "caesar", "target": 1}], kind="records", fields=USURPATION_FIELDS,
                               min_len=1, max_len=2, rule="seed 3.6, 6.1, 6.2",
                               doc="the attempts {stratagem, target} of this Phase C (two: a double usurpation)")
    march: tuple = param([{"zone": 5}, {"zone": 6}], kind="records", fields=MARCH_FIELDS,
                         max_len=_usurp.MAX_MARCH, rule="seed 3.6.3 D",
                         doc="the zones each Usurper enters in E.1, in order {zone, usurper}, from his own zone")
    assassinations: int = param(1, lo=0, hi=6, doc="Assassinat stratagems the usurping player plays on the victim "
                                                   "Augusti during the civil war", rule="seed 3.6.4 B, 6.3")
    counter_assassinations: int = param(1, lo=0, hi=6, doc="Assassinat stratagems the victim plays on the "
                                                           "Usurper(s)", rule="seed 3.6.4, 6.3")
    usurp_bonus_mode: str = option("usurp_bonus_mode")
    failed_validation_strips_title: bool = option("failed_validation_strips_title")
    stepA_titled: str = option("stepA_titled")
    stepB_titled_zone: str = option("stepB_titled_zone")
    stepC_mod_side: str = option("stepC_mod_side")
    rally_optional: bool = option("rally_optional", doc="rule option SV-A21; changes no metric here (a declined "
                                                        "rally stops the march like a failed one)")
    assassination_in_civil_war: str = option("assassination_in_civil_war")
    two_augusti_mixed: bool = option("two_augusti_mixed")
    succession_defectors: str = option("succession_defectors")
    assassin_guard_mod: int = option("assassin_guard_mod")
    guard_scope: str = option("guard_scope")

    def check(self):
        # seed 3.5.2, Secondus case 4: the defectors stay in the succession Usurper's zone, now PRIMUS's pieces
        shared = None
        first = self.usurpations[0]
        if (len(self.usurpations) == 1 and first["stratagem"] == "succession" and self.player == "secondus"
                and 0 <= first["target"] < len(self.leaders) and self.leaders[first["target"]]["side"] == "secondus"):
            shared = self.leaders[first["target"]]["zone"]
        empire = _empire.check_empire(self.zones, self.adjacent, self.leaders, self.units, self.capitals, shared)
        object.__setattr__(self, "_empire", empire)
        player = _empire.SIDES.index(self.player)
        for i, ldr in enumerate(self.leaders):
            if ldr["defeated"] and ldr["side"] == self.player:
                raise ScenarioError(f"leaders[{i}].defeated: True is not allowed for side {self.player!r}; only "
                                    "an Augustus of the victim side is defeated in the sense of seed 3.6.4 A")
        pools = []
        for a, attempt in enumerate(self.usurpations):
            field = f"usurpations[{a}]"
            problem = _empire.stratagem_problem(empire, player, attempt["stratagem"])
            if problem:
                raise ScenarioError(f"{field}.stratagem: {attempt['stratagem']!r} is not allowed; {problem}")
            pool = _empire.target_pool(empire, player, attempt["stratagem"])
            t = attempt["target"]
            if t >= len(self.leaders) or t >= 0 and t not in pool:
                raise ScenarioError(f"{field}.target: {t} is not allowed; the {attempt['stratagem']} stratagem of "
                                    f"{self.player} may be played on leaders {pool or 'none'} (seed 3.6: its kind "
                                    "of victim leader, never a Dux, in no zone with a leader of higher status)")
            if not pool:
                raise ScenarioError(f"{field}.target: -1 is not allowed; no leader can be the target of the "
                                    f"{attempt['stratagem']} stratagem in this empire")
            pools.append([t] if t >= 0 else pool)
        if len(self.usurpations) == 2:
            if "succession" in (u["stratagem"] for u in self.usurpations):
                raise ScenarioError("usurpations: a succession Usurper comes alone (seed 3.5.2); list one attempt")
            if not any(_empire.apart(empire, a, b) for a in pools[0] for b in pools[1]):
                raise ScenarioError(f"usurpations: {[dict(u) for u in self.usurpations]!r} is not allowed; a double "
                                    "usurpation needs its two targets in two different, non-adjacent Dioceses "
                                    "(seed 3.6)")
        for k, step in enumerate(self.march):
            if step["usurper"] > len(self.usurpations):
                raise ScenarioError(f"march[{k}].usurper: {step['usurper']} is not allowed; there are "
                                    f"{len(self.usurpations)} attempt(s)")
            start = self.usurpations[step["usurper"] - 1]["target"]
            if start < 0:
                raise ScenarioError(f"march[{k}]: a march needs its Usurper named (it starts from his zone); "
                                    f"set usurpations[{step['usurper'] - 1}].target, or march = []")
            if step["zone"] not in empire.index:
                raise ScenarioError(f"march[{k}].zone: {step['zone']} is not allowed; expected the id of a zone in "
                                    "`zones`")
            before = [s["zone"] for s in self.march[:k] if s["usurper"] == step["usurper"]]
            here = before[-1] if before else self.leaders[start]["zone"]
            if (empire.index[here], empire.index[step["zone"]]) not in empire.adjacent:
                raise ScenarioError(f"march[{k}].zone: {step['zone']} is not allowed; it is not adjacent to zone "
                                    f"{here}, where Usurper {step['usurper']} then stands")

    def kernel_args(self):
        empire = self._empire
        nz, nl, zone_diocese, dadj, lead, units = _empire.compile_empire(empire)
        player = _empire.SIDES.index(self.player)
        u = _usurp
        p = np.zeros(u.N_PARAMS, np.int64)
        p[u.NZ], p[u.NL], p[u.PLAYER], p[u.N_ATTEMPTS] = nz, nl, player, len(self.usurpations)
        pools = []
        for a, attempt in enumerate(self.usurpations):
            p[u.STRAT_0 + 2 * a] = _empire.STRATAGEMS.index(attempt["stratagem"])
            p[u.TARGET_0 + 2 * a] = attempt["target"]
            pools.append(_empire.target_pool(empire, player, attempt["stratagem"]))
        legal = np.zeros((2, _empire.MAX_LEADERS), np.int64)
        for a, pool in enumerate(pools):
            for t in pool:
                partners = ([] if a == 1 or len(pools) == 1 else
                            [self.usurpations[1]["target"]] if self.usurpations[1]["target"] >= 0 else pools[1])
                if a == 1 or len(pools) == 1 or any(_empire.apart(empire, t, o) for o in partners):
                    legal[a, t] = 1
        march = np.zeros((u.MAX_MARCH, 2), np.int64)
        for k, step in enumerate(self.march):
            march[k] = step["usurper"] - 1, empire.index[step["zone"]]
        p[u.N_MARCH] = len(self.march)
        p[u.ASSASSINATIONS], p[u.COUNTER] = self.assassinations, self.counter_assassinations
        p[u.LITERAL] = self.usurp_bonus_mode == "literal_add"
        p[u.STRIP_TITLE] = self.failed_validation_strips_title
        p[u.STEP_A_STAY] = self.stepA_titled == "stay_loyal_and_move_out"
        p[u.STEP_B_TEST_OTHERS] = self.stepB_titled_zone == "test_others"
        p[u.STEP_C_VICTIM_ONLY] = self.stepC_mod_side == "victim_only"
        p[u.PRIMUS_DEATH_IS_SUCCESSION] = self.assassination_in_civil_war == "succession"
        p[u.MIXED_DOWN] = self.two_augusti_mixed
        p[u.GUARD_MOD] = self.assassin_guard_mod
        p[u.GUARD_ZONE] = self.guard_scope == "zone"
        p[u.DEFECTORS_HOLD] = self.succession_defectors == "hold"
        return p, zone_diocese, dadj, lead, units, legal, march

    def reference(self, dice, policies):
        return _sv_reference.usurpation(self, dice, _usurp_names(self, policies))

    def seats(self):
        """One player: the usurping ``player`` takes every decision (the victim's Assassinat plays are counts)."""
        return (Seat("usurper", "", "p_win"),)

    def narrator(self):
        from .narrative import UsurpationNarrator
        return UsurpationNarrator()

    def exact_solution(self, policies):
        return _sv_exact.usurpation(self, _usurp_names(self, policies), self.metrics)
# ------------------------------------------------------------------ battle: PROPOSAL P8 (spec 3.2)


def _zones_spec(what):
    return ParamSpec("ints", f"indices of the retreat zones of its side this {what} may not enter (RI outside its "
                             "Diocese, non-Romans beyond 5 zones, Armenian limits; P8.6)", "P8.6", 0,
                     BATTLE_MAX_ZONES - 1, max_len=BATTLE_MAX_ZONES)


BATTLE_UNIT_FIELDS = (
    ("sp", ParamSpec("int", "SP of the full face", "seed 1.3", 1, 20), 4),
    ("qu", ParamSpec("int", "QU of the full face", "seed 1.3", 0, 9), 4),
    ("tb", ParamSpec("int", "TB of the full face", "seed 1.3", -3, 5), 0),
    ("weak_sp", ParamSpec("int", "SP of the weakened face (at most sp)", "seed 1.3", 1, 20), 2),
    ("weak_qu", ParamSpec("int", "QU of the weakened face (at most qu)", "seed 1.3", 0, 9), 2),
    ("weak_tb", ParamSpec("int", "TB of the weakened face (at most tb)", "seed 1.3", -3, 5), 0),
    ("weakened", ParamSpec("bool", "the unit starts the battle weakened", "seed 1.3"), False),
    ("barred", _zones_spec("unit"), ()),
)
BATTLE_LEADER_FIELDS = (
    ("tb", ParamSpec("int", "Tactical Bonus", "seed 1.2", 0, 5), 1),
    ("cc", ParamSpec("int", "Command Capacity (P8.2 tie-break)", "seed 1.2", 0, 10), 3),
    ("sr", ParamSpec("int", "Strategic Rating (P8.2 tie-break)", "seed 1.2", 0, 6), 2),
    ("role", ParamSpec("choice", "status: P8.8 kills a losing usurper, and an augustus beaten by a usurpation "
                                 "force", "P8.8, spec 2.11", choices=BATTLE_ROLES), "general"),
    ("barred", _zones_spec("leader"), ()),
)


def _units_param(default, who):
    return param(default, kind="records", min_len=1, max_len=BATTLE_MAX_UNITS, fields=BATTLE_UNIT_FIELDS,
                 doc=f"the {who}'s combat units: full face sp/qu/tb, weakened face weak_sp/weak_qu/weak_tb, "
                     "weakened, barred retreat zones", rule="P8.2, seed 1.3")


def _leaders_param(default, who):
    return param(default, kind="records", max_len=BATTLE_MAX_LEADERS, fields=BATTLE_LEADER_FIELDS,
                 doc=f"the {who}'s leaders: tb, cc, sr, role, barred retreat zones", rule="P8.2, P8.7, P8.8")


@register
class Battle(Scenario):
    """One battle between two stacks under PROPOSAL P8 (not the published rules): spec 3.2, D14.

    Section 8 of Semper Victor was not found; P8 is the specification's stand-in and every number in it is the
    specification's, not the game's. The battle is the decision point ``battle``: its built-in ``p8_proposal``
    can be replaced by a user ``@njit`` hook (``romesim.semper_victor.battle`` documents the tables), and the
    metrics are scored from what the hook leaves, so they mean the same for any battle procedure.

    P8 in short: the commander of a side is its leader with the highest TB (P8.2); every unit rolls
    ``p8_dice_per_unit`` d10, hitting below clamp(QU + TB + commander's TB, 1, 9) on its current face (P8.3);
    each hit weakens a full unit or eliminates a weakened one, the owner choosing (P8.4); the side that inflicted
    fewer hits loses, then the one with less SP left, then the attacker (P8.5); the loser's survivors retreat
    into one zone, pieces barred from it are lost (P8.6); the loser's leaders die on a d10 of 9 (P8.7); in a
    battle against a usurpation force a beaten Augustus dies, and a beaten Usurper always does (P8.8).

    What the options change: ``p8_threshold`` and ``p8_dice_per_unit`` every metric; ``p8_commander = choice``
    makes the commander a decision point (the built-in ``best_tb`` plays P8.2's rule); ``p8_pursuit`` adds the
    winner's second volley at the retreated units; ``p8_loser_leader_death`` and ``p8_civil_war_defeat_kills``
    the leaders killed.
    """

    name = "semper_victor.battle"
    rule = "SV PROPOSAL P8 (spec 3.2; section 8 not found)"
    title = "Battle between two stacks — PROPOSAL P8 (not the published rules)"
    p_win = "the attacker (phasing player) wins the battle — PROPOSAL P8 (not the published rules)"
    proposal = "P8"  # not from the published rules: the battle section was not found
    metrics = ("p_win", "p_loss", "attacker_hits", "defender_hits", "attacker_sp_lost", "defender_sp_lost",
               "attacker_units_eliminated", "defender_units_eliminated", "attacker_units_retreated",
               "defender_units_retreated", "attacker_leaders_killed", "defender_leaders_killed",
               "p_augustus_defeated")
    decision_points = BATTLE_POINTS
    kernel = staticmethod(_battle.battle_kernel)
    machine = _battle.MACHINE

    attacker_units: tuple = _units_param([dict(sp=4, qu=4, tb=1), dict(sp=4, qu=4),
                                          dict(sp=2, qu=3, weak_sp=1, weak_qu=2)], "attacker")
    attacker_leaders: tuple = _leaders_param([dict(tb=1, cc=3, sr=2)], "attacker")
    defender_units: tuple = _units_param([dict(sp=4, qu=5, tb=1), dict(sp=3, qu=4)], "defender")
    defender_leaders: tuple = _leaders_param([dict(tb=2, cc=2, sr=3)], "defender")
    attacker_retreat_zones: int = param(1, lo=0, hi=BATTLE_MAX_ZONES,
                                        doc="adjacent zones free of enemy units the attacker could retreat into "
                                            "(0 = none: a beaten attacker's survivors are all lost)", rule="P8.6")
    defender_retreat_zones: int = param(1, lo=0, hi=BATTLE_MAX_ZONES,
                                        doc="adjacent zones free of enemy units the defender could retreat into "
                                            "(0 = none: a beaten defender's survivors are all lost)", rule="P8.6")
    p8_threshold: str = option("p8_threshold", doc="PROPOSAL option SV-P8: ratings summed into the hit threshold")
    p8_dice_per_unit: int = option("p8_dice_per_unit", doc="PROPOSAL option SV-P8: d10 rolled by each unit")
    p8_commander: str = option("p8_commander", doc="PROPOSAL option SV-P8: commander by P8.2's rule or chosen")
    p8_pursuit: bool = option("p8_pursuit", doc="PROPOSAL option SV-P8: the winner fires at the retreated units")
    p8_loser_leader_death: int = option("p8_loser_leader_death",
                                        doc="PROPOSAL option SV-P8: a losing leader dies on d10 >= this (10: never)")
    p8_civil_war_defeat_kills: bool = option("p8_civil_war_defeat_kills",
                                             doc="PROPOSAL option SV-P8: P8.8 deaths in civil-war battles")

    def check(self):
        for side in ("attacker", "defender"):
            zones = getattr(self, f"{side}_retreat_zones")
            for i, u in enumerate(getattr(self, f"{side}_units")):
                for rating in ("sp", "qu", "tb"):
                    if u["weak_" + rating] > u[rating]:
                        raise ScenarioError(
                            f"{side}_units[{i}].weak_{rating}: {u['weak_' + rating]} is not allowed; expected at "
                            f"most {rating}={u[rating]} (the weakened face shows reduced values, seed 1.3)")
            for kind in ("units", "leaders"):
                for i, r in enumerate(getattr(self, f"{side}_{kind}")):
                    bad = [z for z in r["barred"] if z >= zones]
                    if bad:
                        raise ScenarioError(
                            f"{side}_{kind}[{i}].barred: {list(r['barred'])} is not allowed; expected zone indices "
                            f"below {side}_retreat_zones={zones}")
            # seed 3.6.3 Note 2: « The Usurpers, the Leaders with a Civil War marker and their units cannot stack
            # in the same zone as Roman Leaders of same side, nor add their forces with them in the same battle »;
            # a Dux may fight beside them, having joined the Usurper (seed 3.3: « A Dux can only change sides if
            # he joins a Usurper »)
            roles = [g["role"] for g in getattr(self, f"{side}_leaders")]
            rebels = [r for r in roles if r in ("usurper", "civil_war")]
            loyal = [r for r in roles if r in ("augustus", "caesar", "general")]
            if rebels and loyal:
                raise ScenarioError(
                    f"{side}_leaders: roles {roles} are not allowed together; a usurpation force (usurper, "
                    "civil_war, and a dux who joined it) never fights alongside its player's other Roman leaders "
                    "(augustus, caesar, general; seed 3.6.3 Note 2, seed 3.3)")
            for role, cap in (("augustus", 2), ("caesar", 2), ("usurper", 2)):
                if roles.count(role) > cap:
                    raise ScenarioError(f"{side}_leaders: {roles.count(role)} leaders with role {role!r} are not "
                                        f"allowed; expected at most {cap} per player (spec 2.9.1, 2.11.1)")

    def kernel_args(self):
        units, leaders = [], []
        for side, who in enumerate(("attacker", "defender")):
            for u in getattr(self, f"{who}_units"):
                row = np.zeros(_battle.U_COLS, np.int64)
                row[[_battle.U_SIDE, _battle.U_SP, _battle.U_QU, _battle.U_TB, _battle.U_WSP, _battle.U_WQU,
                     _battle.U_WTB, _battle.U_BARRED, _battle.U_WEAKENED, _battle.U_ALIVE]] = (
                    side, u["sp"], u["qu"], u["tb"], u["weak_sp"], u["weak_qu"], u["weak_tb"],
                    _zone_mask(u["barred"]), u["weakened"], 1)
                units.append(row)
            for g in getattr(self, f"{who}_leaders"):
                row = np.zeros(_battle.L_COLS, np.int64)
                row[[_battle.L_SIDE, _battle.L_TB, _battle.L_CC, _battle.L_SR, _battle.L_ROLE, _battle.L_BARRED,
                     _battle.L_ALIVE]] = (side, g["tb"], g["cc"], g["sr"], BATTLE_ROLES.index(g["role"]),
                                          _zone_mask(g["barred"]), 1)
                leaders.append(row)
        context = np.zeros(_battle.N_CONTEXT, np.int64)
        context[_battle.C_ATTACKER] = 0
        context[_battle.C_THRESHOLD] = ("qu_tb_tbc", "qu_tbc", "qu").index(self.p8_threshold)
        context[_battle.C_DICE] = self.p8_dice_per_unit
        context[_battle.C_PURSUIT] = self.p8_pursuit
        context[_battle.C_DEATH_FROM] = self.p8_loser_leader_death
        context[_battle.C_CIVIL_KILLS] = self.p8_civil_war_defeat_kills
        context[_battle.C_COMMANDER_CHOICE] = self.p8_commander == "choice"
        context[_battle.C_ZONES] = self.attacker_retreat_zones
        context[_battle.C_ZONES + 1] = self.defender_retreat_zones
        leaders_table = np.array(leaders, np.int64) if leaders else np.zeros((0, _battle.L_COLS), np.int64)
        return np.array(units, np.int64), leaders_table, context

    def reference(self, dice, policies):
        return _sv_reference.battle(self, dice, dict(zip((dp.name for dp in BATTLE_POINTS), policies.names)))

    def seats(self):
        """The two sides share the decision points: the state's ``side`` (0 the attacker) says whose it is."""
        return (Seat("attacker", "", "p_win", side=("side", 0)), Seat("defender", "", "p_loss", side=("side", 1)))

    def narrator(self):
        from .narrative import BattleNarrator
        return BattleNarrator()

    def exact_solution(self, policies):
        return _sv_exact.battle(self, dict(zip((dp.name for dp in BATTLE_POINTS), policies.names)))


def _zone_mask(zones):
    return sum(1 << z for z in set(zones))
