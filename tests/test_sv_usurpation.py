"""seed 3.6 usurpation and civil war: exact values worked by hand from the rules, Monte Carlo against exact, kernel
against reference, user policies at D5, D6 and D8, validation, and random empires.

Every expected value below is derived in its comment from the seed (seed 3.6, 6.1-6.3) and the specification
(spec 2.11, 2.12, WP1, SV-A1, A2, A3, A15-A19, A21, A22), not taken from the code's output. Dice: d6 1-6, d10 0-9
(spec 0.2, seed 0.1). Validation d6 <= PC; step B d6 + b >= PC; step C d10 + m - b < PC; step D d6 - b <= PC
(SV-A1 favour; with literal_add C is d10 + m + b < PC and D d6 + b <= PC); Assassinat kills on a modified 8 or 9.
"""
from fractions import Fraction as F

import numpy as np
import pytest
from helpers import assert_matches_exact, assert_reference_equal
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from numba import njit
from sv_empires import best_tie_by_name, empires, leader, pairs, units, zone

import romesim
from romesim.core.scenario import get
from romesim.semper_victor import empire as sv
from romesim.semper_victor.policies import USURPATION_DIOCESE, USURPATION_TARGET

USURPATION = "semper_victor.usurpation"


def exact(policies=None, **params):
    return romesim.exact(romesim.scenario(USURPATION, **params), policies=policies).exact_values


def quiet(**params):
    """No Assassinat on either side unless asked: the cascade alone."""
    return dict(dict(assassinations=0, counter_assassinations=0), **params)


# WP1: SECONDUS plays "Usurpation of a Caesar of PRIMUS" (b = 1) on Caesar 1, PC 4, in Pannoniae zone 1.
# Zone 2 (Pannoniae) holds a PRIMUS leader of PC 5 and a unit; zone 3 (Pannoniae) one unled PRIMUS unit, where
# the Usurper marches; the only Diocese adjacent to Pannoniae is Italia, where the Primus Augustus stands (m = 2).
WP1 = dict(
    zones=[zone(1, "Pannoniae"), zone(2, "Pannoniae"), zone(3, "Pannoniae"), zone(4, "Italia"),
           zone(5, "Galliae"), zone(6, "Thracia")],
    adjacent=pairs((1, 2), (1, 3), (2, 3), (1, 4), (4, 5)),
    leaders=[leader(4, "primus", 5, "primus_augustus"), leader(1, "primus", 4, "caesar"),
             leader(5, "primus", 3, "caesar"), leader(2, "primus", 5), leader(6, "secondus", 3, "secondus_augustus")],
    units=[units(1, "primus"), units(2, "primus"), units(3, "primus")],
    usurpations=[{"stratagem": "caesar", "target": 1}],
    march=[{"zone": 3}],
)


def wp1(**changes):
    return quiet(**dict(WP1, **changes))


def with_leader(base, index, **changes):
    leaders = [dict(ldr) for ldr in base["leaders"]]
    leaders[index].update(changes)
    return leaders


# ------------------------------------------------------------------ WP1 (spec 7) and SV-A1
def test_wp1_favour():
    e = exact(**wp1())
    assert e["p_validated"] == F(2, 3)  # d6 <= 4, the +1 does not apply (seed 3.6, 6.2)
    # B: d6 + 1 >= 5 -> 1/2, the PC-5 leader and his unit
    assert e["leaders"] == F(2, 3) * F(1, 2)
    # C into Italia (m = 2): d10 + 2 - 1 < 4 -> 3/10; validated and extended 2/3 * 3/10 = 1/5 (WP1)
    assert e["p_extended"] == F(1, 5)
    # D: d6 - 1 <= 4 -> 5/6 rallies the unled unit of zone 3
    assert e["units_rallied"] == F(2, 3) * F(5, 6)
    assert e["p_march_stopped"] == F(2, 3) * F(1, 6)
    # units: A brings zone 1's unit, B zone 2's with 1/2, D zone 3's with 5/6: 2/3 (1 + 1/2 + 5/6) = 14/9
    assert e["units"] == F(14, 9)
    # Italia's only zone holds the Primus Augustus and stays loyal: only Pannoniae is touched
    assert e["dioceses"] == F(2, 3)
    assert (e["p_win"], e["augusti_assassinated"], e["p_usurper_killed"], e["successor"]) == (0, 0, 0, -1)


def test_wp1_literal_add_sv_a1():
    e = exact(**wp1(usurp_bonus_mode="literal_add"))
    assert e["leaders"] == F(1, 3)  # B unchanged: d6 + 1 >= 5 in both modes
    assert e["p_extended"] == F(2, 3) * F(1, 10)  # d10 + 2 + 1 < 4: only 0 -> 1/15
    assert e["units_rallied"] == F(2, 3) * F(1, 2)  # d6 + 1 <= 4 -> 1/2


def test_wp1_without_bonus_plain_stratagem():
    # the same PC-4 leader as a simple leader, "Usurpation PRIMUS" (b = 0): B d6 >= 5 -> 1/3, C d10 + 2 < 4 ->
    # 2/10 (validated and extended 2/15), D d6 <= 4 -> 2/3
    e = exact(**wp1(leaders=with_leader(WP1, 1, title="none"), usurpations=[{"stratagem": "leader", "target": 1}]))
    assert e["leaders"] == F(2, 3) * F(1, 3)
    assert e["p_extended"] == F(2, 15)
    assert e["units_rallied"] == F(2, 3) * F(2, 3)


def test_sv_a21_optional_rally_changes_nothing():
    assert exact(**wp1(rally_optional=True)) == exact(**wp1())


# ------------------------------------------------------------------ each stratagem (seed 6.1, 6.2)
# PRIMUS: Primus Augustus in Italia (zone 10); in Pannoniae an extra Augustus (zone 1), two Caesars (2, 3) and a
# simple leader (4), all PC 4, each zone adjacent to Italia. SECONDUS has one simple leader (PC 4, Thracia 20,
# adjacent to zone 1) and no emperor, so the succession route is open to him.
STRATAGEMS = dict(
    zones=[zone(1, "Pannoniae"), zone(2, "Pannoniae"), zone(3, "Pannoniae"), zone(4, "Pannoniae"),
           zone(10, "Italia"), zone(20, "Thracia")],
    adjacent=pairs((1, 10), (2, 10), (3, 10), (4, 10), (20, 1)),
    leaders=[leader(10, "primus", 5, "primus_augustus"), leader(1, "primus", 4, "augustus"),
             leader(2, "primus", 4, "caesar"), leader(3, "primus", 4, "caesar"), leader(4, "primus", 4),
             leader(20, "secondus", 4)],
    units=[], march=[])


@pytest.mark.parametrize("stratagem, target, validated, extended, literal", [
    # from Pannoniae, Italia (m = 2, gain 0: its zone is titled) and Thracia (m = 0, no victim) tie on gain:
    # D6 best takes Italia, first in the order of seed 3.1. C: d10 + 2 - b < 4.
    ("augustus", 1, F(2, 3), F(2, 3) * F(4, 10), 0),  # b = 2: 4/10; literal d10 + 4 < 4 never
    ("caesar", 2, F(2, 3), F(2, 3) * F(3, 10), F(2, 3) * F(1, 10)),  # b = 1: 3/10; literal 1/10
    ("leader", 4, F(2, 3), F(2, 3) * F(2, 10), F(2, 3) * F(2, 10)),  # b = 0: 2/10 either way
    # succession: validated at once; from Thracia, Pannoniae (extra Augustus there: m = 2): 2/10
    ("succession", 5, 1, F(2, 10), F(2, 10)),
])
def test_each_stratagem_validation_and_step_c(stratagem, target, validated, extended, literal):
    base = quiet(**dict(STRATAGEMS, usurpations=[{"stratagem": stratagem, "target": target}]))
    e = exact(**base)
    assert e["p_validated"] == validated
    assert e["p_extended"] == extended
    assert exact(**dict(base, usurp_bonus_mode="literal_add"))["p_extended"] == literal


def test_augustus_stratagem_step_b_uses_b_2():
    # Augustus Usurper in zone 1; B in Pannoniae: zones 2 and 3 hold Caesars (loyal, SV-A18), zone 4 a PC-4
    # leader: d6 + 2 >= 4 -> 5/6
    e = exact(**quiet(**dict(STRATAGEMS, usurpations=[{"stratagem": "augustus", "target": 1}])))
    assert e["leaders"] == F(2, 3) * F(5, 6)


# ------------------------------------------------------------------ SV-A17, SV-A18, SV-A19 (steps A, B, C)
def test_sv_a17_other_caesar_in_the_usurpers_zone():
    # the second Caesar (PC 3) stands in zone 1 with the Caesar Usurper. switch: he joins at once (losing his
    # title), then B's 1/2: 2/3 (1 + 1/2) = 1; stay_loyal_and_move_out: only B's 1/2: 1/3
    base = wp1(leaders=with_leader(WP1, 2, zone=1))
    assert exact(**base)["leaders"] == 1
    assert exact(**dict(base, stepA_titled="stay_loyal_and_move_out"))["leaders"] == F(1, 3)


def test_sv_a18_titled_zone_with_simple_leaders():
    # the second Caesar moves to zone 2, beside the PC-5 leader. loyal: no roll, zone 2 stays with PRIMUS.
    # test_others: the PC-5 leader rolls (1/2) and leaves alone, the units staying with the Caesar.
    base = wp1(leaders=with_leader(WP1, 2, zone=2))
    e = exact(**base)
    assert e["leaders"] == 0
    assert e["units"] == F(2, 3) * (1 + F(5, 6))  # A's unit and D's rally
    e = exact(**dict(base, stepB_titled_zone="test_others"))
    assert e["leaders"] == F(1, 3)
    assert e["units"] == F(2, 3) * (1 + F(5, 6))


def test_sv_a19_modifier_side():
    # the Secondus Augustus (the usurping player's own) in Italia instead of the Primus Augustus, who moves to
    # Galliae: any: m = 2, 3/10; victim_only: m = 0, d10 - 1 < 4 -> 5/10
    leaders = with_leader(WP1, 0, zone=5)
    leaders[4]["zone"] = 4
    base = wp1(leaders=leaders)
    assert exact(**base)["p_extended"] == F(2, 3) * F(3, 10)
    assert exact(**dict(base, stepC_mod_side="victim_only"))["p_extended"] == F(2, 3) * F(5, 10)


def test_step_c_d6_best_weighs_the_gain_and_random_picks_either():
    # default empire, Caesar Usurper (PC 4) in Pannoniae zone 4: Italia (Primus Augustus, m = 2) and Thracia
    # (Secondus Augustus, m = 2) are both reachable. Italia can bring leader 5 (PC 3, d6 + 1 >= 3: 5/6) and his
    # unit, Thracia nothing of PRIMUS: best takes Italia. Leaders given validation: A leader 3, B leader 4 (PC 5,
    # 1/2), C 3/10 * 5/6: 1 + 1/2 + 1/4 = 7/4; times 2/3 = 7/6. Random: Italia half the time: 1 + 1/2 + 1/8.
    assert exact()["leaders"] == F(7, 6)
    assert exact({"diocese": "random"})["leaders"] == F(2, 3) * F(13, 8)


# ------------------------------------------------------------------ the default empire, step by step
def test_default_empire():
    # units given validation: A 2, B zone 6's unit 1/2, C zone 2's unit 3/10 * 5/6 = 1/4, D zone 5's two units
    # with 5/6; then zone 6 passes if B won it (1/2), else its PC-5 leader stops the march.
    e = exact()
    assert e["units"] == F(2, 3) * (2 + F(1, 2) + F(1, 4) + 2 * F(5, 6))
    assert e["units_rallied"] == F(2, 3) * 2 * F(5, 6)
    assert e["p_march_stopped"] == F(2, 3) * (F(1, 6) + F(5, 6) * F(1, 2))
    # Pannoniae always, Italia when zone 2 joins: 2/3 (1 + 1/4)
    assert e["dioceses"] == F(2, 3) * F(5, 4)
    # one Assassinat each, the Usurper's player first: the Primus Augustus holds the Protectores Domestici
    # (SV-A2: only a 9 kills, 1/10); then the Usurper dies with 2/10
    assert e["p_win"] == F(2, 3) * F(1, 10)
    assert e["p_usurper_killed"] == F(2, 3) * F(9, 10) * F(2, 10)
    assert e["successor"] == F(2, 3) * F(1, 10) * 1 + (1 - F(2, 3) * F(1, 10)) * -1


def test_alternating_assassinations():
    # two each, alternately P, V, P, V, p = 1/10 and q = 2/10:
    # won = p + (1-p)(1-q)p = 43/250; lost = (1-p)q + (1-p)(1-q)(1-p)q = 387/1250
    e = exact(assassinations=2, counter_assassinations=2)
    assert e["p_win"] == F(2, 3) * F(43, 250)
    assert e["p_usurper_killed"] == F(2, 3) * F(387, 1250)


# ------------------------------------------------------------------ success: SV-A2, A3, A15, A16, A22
# PRIMUS: Primus Augustus (Italia), an extra Augustus of PC 2 (Pannoniae), a simple leader of PC 3 (Africa);
# SECONDUS: his Augustus (Thracia). No adjacency: no step C, no march.
THRONE = quiet(
    zones=[zone(1, "Italia"), zone(2, "Pannoniae"), zone(3, "Africa"), zone(4, "Thracia")], adjacent=[],
    leaders=[leader(1, "primus", 5, "primus_augustus"), leader(2, "primus", 2, "augustus"), leader(3, "primus", 3),
             leader(4, "secondus", 4, "secondus_augustus")],
    units=[], march=[], usurpations=[{"stratagem": "leader", "target": 2}], assassinations=1)


def throne(**changes):
    return dict(THRONE, **changes)


def test_sv_a16_failed_validation_strips_title():
    # double usurpation: the Augustus stratagem on the extra Augustus (PC 2: 1/3) and a plain one on the leader in
    # Africa (PC 3: 1/2); one Assassinat (2/10). Both validated (1/6) or only the first (1/6): the Primus Augustus is
    # the one victim Augustus. Only the second (1/3): with the default the failed extra Augustus keeps his title,
    # two Augusti stand and one counter cannot kill both; with strips_title only the Primus Augustus is left.
    base = throne(usurpations=[{"stratagem": "augustus", "target": 1}, {"stratagem": "leader", "target": 2}])
    e = exact(**base)
    assert e["p_double"] == F(1, 6) and e["p_validated"] == F(2, 3)
    assert e["p_win"] == (F(1, 6) + F(1, 6)) * F(1, 5)
    assert exact(**dict(base, failed_validation_strips_title=True))["p_win"] == F(2, 3) * F(1, 5)


def test_sv_a22_defeated_and_assassinated():
    # the Primus Augustus already defeated in a civil-war battle; the extra Augustus is assassinated with 2/10.
    # mixed (default): counts, 1/2 * 1/5; two_augusti_mixed = false: both must fall the same way, no success
    base = throne(leaders=with_leader(THRONE, 0, defeated=True))
    assert exact(**base)["p_win"] == F(1, 10)
    e = exact(**dict(base, two_augusti_mixed=False))
    assert (e["p_win"], e["augusti_assassinated"]) == (0, 0)
    # both defeated: success on validation alone, in both readings
    both = with_leader(THRONE, 0, defeated=True)
    both[1]["defeated"] = True
    assert exact(**throne(leaders=both))["p_win"] == F(1, 2)
    assert exact(**throne(leaders=both, two_augusti_mixed=False))["p_win"] == F(1, 2)


def test_sv_a15_primus_assassinated_in_civil_war():
    # only the Primus Augustus (the extra Augustus demoted to a simple leader): usurpation (default) 1/2 * 2/10;
    # succession: his death would go to seed 3.5.2, so no Assassinat is spent on him and the usurpation cannot succeed
    base = throne(leaders=with_leader(THRONE, 1, title="none"))
    assert exact(**base)["p_win"] == F(1, 10)
    e = exact(**dict(base, assassination_in_civil_war="succession"))
    assert (e["p_win"], e["augusti_assassinated"]) == (0, 0)


@pytest.mark.parametrize("mod, kill", [(-1, F(1, 10)), (0, F(2, 10)), (1, F(2, 10))])
def test_sv_a2_guard_modifier(mod, kill):
    # guarded Primus Augustus: the modified d10 must read 8 or 9: -1 kills on 9, 0 on 8-9, +1 on 7-8
    leaders = with_leader(THRONE, 0, guard=True)
    leaders[1].update(title="none")
    assert exact(**throne(leaders=leaders, assassin_guard_mod=mod))["p_win"] == F(1, 2) * kill


def test_sv_a3_guard_scope():
    # the Protectores Domestici on a PRIMUS Caesar stacked with the (unguarded) Primus Augustus: holder (default)
    # protects the Caesar only, 2/10; zone protects the Primus Augustus too, 1/10
    leaders = with_leader(THRONE, 1, title="caesar", zone=1, guard=True)
    assert exact(**throne(leaders=leaders))["p_win"] == F(1, 2) * F(2, 10)
    assert exact(**throne(leaders=leaders, guard_scope="zone"))["p_win"] == F(1, 2) * F(1, 10)


def test_no_victim_augustus_means_no_success():
    # PRIMUS usurps against a SECONDUS without any Augustus: nobody can be defeated or assassinated
    leaders = [leader(1, "primus", 5, "primus_augustus"), leader(4, "secondus", 3)]
    e = exact(**throne(player="primus", leaders=leaders, usurpations=[{"stratagem": "leader", "target": 1}]))
    assert (e["p_validated"], e["p_win"]) == (F(1, 2), 0)


# ------------------------------------------------------------------ double usurpation (seed 3.6 example)
# PRIMUS turns Alexander (Hispaniae) and Maxence (Italia), both PC 3; Viennensis lies between them and holds a
# SECONDUS leader (PC 2) with two units; Africa, beyond Italia, a SECONDUS leader (PC 2) alone.
DOUBLE = quiet(
    player="primus",
    zones=[zone(1, "Hispaniae"), zone(2, "Viennensis"), zone(3, "Italia"), zone(4, "Africa"), zone(5, "Oriens"),
           zone(6, "Asia")],
    adjacent=pairs((1, 2), (2, 3), (3, 4)),
    leaders=[leader(6, "primus", 5, "primus_augustus"), leader(5, "secondus", 4, "secondus_augustus"),
             leader(1, "secondus", 3, cc=2), leader(3, "secondus", 3, cc=3), leader(2, "secondus", 2),
             leader(4, "secondus", 2)],
    units=[units(2, "secondus", 2)], march=[],
    usurpations=[{"stratagem": "leader", "target": 2}, {"stratagem": "leader", "target": 3}])


def test_double_usurpation_cascade():
    # validations 1/2 each. Alexander's C can only go to Viennensis (m = 0, d10 < 3: 3/10, then d6 >= 2: 5/6).
    # Maxence prefers Viennensis (gain 3 * 5 * 3 against Africa's 3 * 5 * 1) but may not take the Diocese
    # Alexander chose: Africa when Alexander stands, Viennensis otherwise.
    e = exact(**DOUBLE)
    assert (e["p_validated"], e["p_double"]) == (F(3, 4), F(1, 4))
    assert e["leaders"] == F(1, 2) * F(1, 4) + F(1, 2) * F(1, 4)
    assert e["units"] == F(1, 2) * F(1, 4) * 2 + F(1, 2) * F(1, 2) * F(1, 4) * 2  # 3/8
    assert e["dioceses"] == 2 * F(1, 2) * (1 + F(1, 4))
    assert e["p_extended"] == 1 - (1 - F(1, 2) * F(3, 10)) ** 2


def test_double_usurpation_success_and_d8():
    # one Assassinat on the unguarded Secondus Augustus: p_win = 3/4 * 1/5. Both Usurpers alive have PC 3: D8.
    # best: CC 3 beats 2, Maxence (3). successor given success: both 1/4 -> 3, Alexander alone 1/4 -> 2,
    # Maxence alone 1/4 -> 3; random splits the first case 2 or 3.
    base = dict(DOUBLE, assassinations=1)
    e = exact(**base)
    assert e["p_win"] == F(3, 20)
    assert e["successor"] == F(1, 5) * (F(3, 4) + F(2, 4) + F(3, 4)) - F(17, 20)
    e = exact({"tie": "random"}, **base)
    assert e["successor"] == F(1, 5) * (F(5, 8) + F(2, 4) + F(3, 4)) - F(17, 20)


def test_double_usurpation_fails_only_when_both_die():
    # one Assassinat of the victim (2/10) kills a lone Usurper; with two, the other lives on: 1/2 * 1/5
    assert exact(**dict(DOUBLE, counter_assassinations=1))["p_usurper_killed"] == F(1, 10)


def test_d5_targets_of_a_double_usurpation():
    open_targets = dict(DOUBLE, usurpations=[{"stratagem": "leader", "target": -1}] * 2)
    # best: the highest PC, Alexander (first of the two PC 3), then the best leader apart from Hispaniae: Maxence
    assert exact(**open_targets) == exact(**DOUBLE)
    # random: first among 2, 3, 4, 5 (each has a partner); then 2 -> {3, 5}, 3 -> {2}, 4 -> {5}, 5 -> {2, 4}.
    # PC 3 validates with 1/2, PC 2 with 1/3:
    # p_double = 1/4 (1/2 (1/2 1/2 + 1/2 1/3) + 1/2 1/2 + 1/3 1/3 + 1/3 (1/2 1/2 + 1/2 1/3)) = 17/96
    assert exact({"target": "random"}, **open_targets)["p_double"] == F(17, 96)


# ------------------------------------------------------------------ validation
@pytest.mark.parametrize("params, words", [
    (dict(usurpations=[{"stratagem": "augustus"}]), r"usurpations\[0\].stratagem: 'augustus' is not allowed; PRIMUS"),
    (dict(usurpations=[{"stratagem": "caesar", "target": 3}]), r"usurpations\[0\].target: 3 is not allowed"),
    # leader 3 stands with Caesar 1: a simple leader may not share a zone with a Caesar (SV-A38)
    (dict(usurpations=[{"stratagem": "leader", "target": 3}], march=[]), r"usurpations\[0\].target: 3"),
    (dict(usurpations=[{"stratagem": "succession", "target": 8}]), r"usurpations\[0\].stratagem: 'succession'"),
    (dict(player="primus", usurpations=[{"stratagem": "leader", "target": 7}], march=[]),
     r"usurpations\[0\].target: 7 is not allowed"),  # the Secondus Augustus is no simple leader (SV-A28)
    (dict(usurpations=[{"stratagem": "caesar", "target": 1}, {"stratagem": "leader", "target": 4}]),
     "two different, non-adjacent Dioceses"),
    (dict(usurpations=[]), r"usurpations: \[\] is not allowed"),
    (dict(usurpations=[{"stratagem": "coup"}]), r"usurpations\[0\].stratagem: 'coup'"),
    (dict(march=[{"zone": 9}]), r"march\[0\].zone: 9 is not allowed; it is not adjacent to zone 4"),
    (dict(march=[{"zone": 99}]), r"march\[0\].zone: 99 is not allowed"),
    (dict(march=[{"zone": 5, "usurper": 2}]), r"march\[0\].usurper: 2 is not allowed"),
    (dict(usurpations=[{"stratagem": "caesar"}]), r"march\[0\]: a march needs its Usurper named"),
    (dict(adjacent=[{"a": 1, "b": 77}]), r"adjacent\[0\].b: 77 is not allowed"),
    (dict(adjacent=[{"a": 1, "b": 1}]), r"adjacent\[0\]: .* a zone is not adjacent to itself"),
    (dict(adjacent=[{"a": 1, "b": 2}, {"a": 2, "b": 1}]), r"adjacent\[1\]: .* already joins these zones"),
    (dict(leaders=[dict(ldr, guard=(i == 3)) for i, ldr in enumerate(sv.DEFAULT_LEADERS)]),
     r"leaders\[3\].guard: True is not allowed for title 'none'"),
    (dict(leaders=[dict(ldr, guard=(i in (0, 1))) for i, ldr in enumerate(sv.DEFAULT_LEADERS)]),
     r"leaders\[1\].guard: True is not allowed; leaders\[0\] already holds"),
    (dict(leaders=[dict(ldr, defeated=(i == 7)) for i, ldr in enumerate(sv.DEFAULT_LEADERS)]),
     r"leaders\[7\].defeated: True is not allowed for side 'secondus'"),
    (dict(leaders=[dict(ldr, defeated=(i == 1)) for i, ldr in enumerate(sv.DEFAULT_LEADERS)]),
     r"leaders\[1\].defeated: True is not allowed for title 'caesar'"),
    (dict(leaders=sv.DEFAULT_LEADERS + [leader(3, "primus", 1, "dux")] * 4), r"leaders\[14\].title: 'dux'"),
    (dict(leaders=sv.DEFAULT_LEADERS + [leader(9, "secondus", 1, "augustus")] + [leader(9, "secondus", 1, "caesar")]
          * 2),
     r"leaders\[13\].title: 'caesar' is not allowed; both sides together already have 6"),
    (dict(leaders=[dict(ldr, title="none", guard=False) if i == 0 else ldr
                   for i, ldr in enumerate(sv.DEFAULT_LEADERS)]),
     "no leader has title 'primus_augustus'"),
    (dict(leaders=sv.DEFAULT_LEADERS + [leader(9, "secondus", 10)]), r"leaders\[11\].pc: 10"),
    (dict(assassinations=7), "assassinations: 7"),
    (dict(usurp_bonus_mode="add"), "usurp_bonus_mode: 'add'"),
    (dict(assassin_guard_mod=2), "assassin_guard_mod: 2"),
    (dict(stepA_titled="stay"), "stepA_titled: 'stay'"),
    (dict(two_augusti_mixed="yes"), "two_augusti_mixed: 'yes'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(USURPATION, **params)


def test_unknown_parameter():
    with pytest.raises(romesim.ScenarioError, match="unknown parameter 'dies'"):
        romesim.scenario(USURPATION, dies="primus")


# ------------------------------------------------------------------ Monte Carlo vs exact, kernel vs reference
SETTINGS = [
    dict(),
    dict(assassinations=2, counter_assassinations=2, usurp_bonus_mode="literal_add"),
    wp1(),
    wp1(leaders=with_leader(WP1, 2, zone=1), stepA_titled="stay_loyal_and_move_out"),
    wp1(leaders=with_leader(WP1, 2, zone=2), stepB_titled_zone="test_others", assassinations=2),
    quiet(**dict(STRATAGEMS, usurpations=[{"stratagem": "augustus", "target": -1}])),
    quiet(**dict(STRATAGEMS, usurpations=[{"stratagem": "caesar", "target": -1}], stepC_mod_side="victim_only")),
    quiet(**dict(STRATAGEMS, usurpations=[{"stratagem": "succession", "target": 5}], march=[{"zone": 1}])),
    throne(usurpations=[{"stratagem": "augustus", "target": 1}, {"stratagem": "leader", "target": 2}],
           failed_validation_strips_title=True, counter_assassinations=2),
    throne(leaders=with_leader(THRONE, 1, title="caesar", zone=1, guard=True), guard_scope="zone",
           assassinations=3, counter_assassinations=1),
    dict(DOUBLE, assassinations=2, counter_assassinations=2,
         usurpations=[{"stratagem": "leader", "target": -1}] * 2),
]
POLICIES = [{}, {"target": "random", "diocese": "random", "tie": "random"}, {"diocese": "random"},
            {"target": "random", "tie": "random"}]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(USURPATION, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=2024), romesim.exact(scenario))


@pytest.mark.parametrize("params", [SETTINGS[0], SETTINGS[5], SETTINGS[10]])
def test_monte_carlo_within_5_sigma_of_exact_random_policies(params):
    scenario = romesim.scenario(USURPATION, **params)
    policies = POLICIES[1]
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=7, policies=policies),
                         romesim.exact(scenario, policies=policies))


@pytest.mark.parametrize("policies", POLICIES)
@pytest.mark.parametrize("params", SETTINGS)
def test_kernel_equals_reference_game_by_game(params, policies):
    assert_reference_equal(romesim.scenario(USURPATION, **params), policies=policies)


# ------------------------------------------------------------------ user policies (D5, D6, D8)
# one function for the three decision points; params[0] is the mode
CONSTANT, BEST_DIOCESE, BEST_TIE = range(3)


@njit
def choose(state, params, stream):
    """CONSTANT: return params[1]; BEST_DIOCESE (D6): the highest gain, first among equals; BEST_TIE (D8): PC, CC,
    SR, TB, then a."""
    if params[0] == CONSTANT:
        return int(params[1])
    if params[0] == BEST_DIOCESE:
        n, best = state[0], 0
        for i in range(1, n):
            if state[6 + 24 + i] > state[6 + 24 + best]:
                best = i
        return state[6 + best]
    for k in range(4):
        if state[3 + 2 * k] != state[4 + 2 * k]:
            return state[1] if state[3 + 2 * k] > state[4 + 2 * k] else state[2]
    return state[1]


def mine(target, diocese=BEST_DIOCESE, tie=BEST_TIE):
    return {"target": (choose, [CONSTANT, target]), "diocese": (choose, [diocese, 0]), "tie": (choose, [tie, 0])}


def test_user_njit_policies():
    # D5: SECONDUS names Caesar 2 (Galliae) himself: the games of the scenario that fixes that target
    open_target = romesim.scenario(USURPATION, usurpations=[{"stratagem": "caesar", "target": -1}], march=[])
    fixed = romesim.scenario(USURPATION, usurpations=[{"stratagem": "caesar", "target": 2}], march=[])
    a = romesim.simulate(open_target, 20_000, seed=5, keep=True, policies=mine(2))
    b = romesim.simulate(fixed, 20_000, seed=5, keep=True)
    np.testing.assert_array_equal(a.outcomes.to_numpy(), b.outcomes.to_numpy())
    # D6 and D8 copying the built-ins play the built-ins' games
    double = romesim.scenario(USURPATION, **dict(DOUBLE, assassinations=2))
    a = romesim.simulate(double, 20_000, seed=5, keep=True, policies=mine(0))
    b = romesim.simulate(double, 20_000, seed=5, keep=True)
    np.testing.assert_array_equal(a.outcomes.to_numpy(), b.outcomes.to_numpy())
    # illegal answers: the Primus Augustus is no target; Oriens (11) is not adjacent to Pannoniae; leader 0 is not
    # one of the two tied Usurpers
    with pytest.raises(romesim.PolicyError, match=r"'target' \(D5\): illegal action 0"):
        romesim.simulate(open_target, 1_000, policies=mine(0))
    with pytest.raises(romesim.PolicyError, match=r"'diocese' \(D6\): illegal action 11"):
        romesim.simulate(fixed, 1_000, policies={**mine(0), "diocese": (choose, [CONSTANT, 11])})
    with pytest.raises(romesim.PolicyError, match=r"'tie' \(D8\): illegal action 0"):
        romesim.simulate(double, 20_000, policies={**mine(0), "tie": (choose, [CONSTANT, 0])})


# ------------------------------------------------------------------ random empires
@st.composite
def usurpations(draw):
    empire = draw(empires(min_plain=3))
    specs = get(USURPATION).parameters()  # the records with their optional keys filled in
    built = sv.check_empire(*(specs[k].validate(k, empire[k]) for k in ("zones", "adjacent", "leaders", "units")))
    player = draw(st.sampled_from(sv.SIDES))
    side = sv.SIDES.index(player)
    open_ = [s for s in sv.STRATAGEMS if not sv.stratagem_problem(built, side, s) and sv.target_pool(built, side, s)]
    assume(open_)
    first = draw(st.sampled_from(open_))
    t1 = draw(st.sampled_from(sv.target_pool(built, side, first)))
    attempts = [{"stratagem": first, "target": t1}]
    second = [(s, t) for s in open_ if s != "succession" and first != "succession"
              for t in sv.target_pool(built, side, s) if sv.apart(built, t1, t)]
    if second and draw(st.booleans()):
        s, t = draw(st.sampled_from(second))
        attempts.append({"stratagem": s, "target": t})
    march = []
    for u, attempt in enumerate(attempts, start=1):
        here = empire["leaders"][attempt["target"]]["zone"]
        for _ in range(draw(st.integers(0, 3))):
            near = sorted({p["b"] for p in empire["adjacent"] if p["a"] == here}
                          | {p["a"] for p in empire["adjacent"] if p["b"] == here})
            if not near:
                break
            here = draw(st.sampled_from(near))
            march.append({"zone": here, "usurper": u})
    if draw(st.booleans()):  # let D5 choose
        for attempt in attempts:
            attempt["target"] = -1
        march = []
    defeated = draw(st.booleans())
    leaders = [dict(ldr, defeated=defeated and ldr["side"] != player and ldr["title"] in sv.TITLES[2:5])
               for ldr in empire["leaders"]]
    options = dict(
        usurp_bonus_mode=draw(st.sampled_from(["favour", "literal_add"])),
        failed_validation_strips_title=draw(st.booleans()),
        stepA_titled=draw(st.sampled_from(["switch", "stay_loyal_and_move_out"])),
        stepB_titled_zone=draw(st.sampled_from(["loyal", "test_others"])),
        stepC_mod_side=draw(st.sampled_from(["any", "victim_only"])),
        assassination_in_civil_war=draw(st.sampled_from(["usurpation", "succession"])),
        two_augusti_mixed=draw(st.booleans()), guard_scope=draw(st.sampled_from(["holder", "zone"])),
        assassin_guard_mod=draw(st.sampled_from([-1, 0, 1])))
    return dict(empire, leaders=leaders, player=player, usurpations=attempts, march=march,
                assassinations=draw(st.integers(0, 2)), counter_assassinations=draw(st.integers(0, 2)), **options)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(params=usurpations(), policies=st.sampled_from(POLICIES), seed=st.integers(0, 1000))
def test_random_empires_play_to_the_end_like_the_reference(params, policies, seed):
    scenario = romesim.scenario(USURPATION, **params)
    assert_reference_equal(scenario, n=200, seed=seed, policies=policies)
    try:
        e = romesim.exact(scenario, policies=policies).exact_values
    except romesim.ExactNotSupported:
        return
    assert 0 <= e["p_win"] <= e["p_validated"] <= 1
    assert e["units_rallied"] <= e["units"]


# ------------------------------------------------------------------ user policies reading the state by its names
def _names(point, field, n):
    return np.array([point.state.index(f"{field}_{i}") for i in range(n)])


TGT_N, TGT_ATTEMPT, TGT_STRATAGEM, TGT_BONUS = (USURPATION_TARGET.state.index(k) for k in (
    "candidates", "attempt", "stratagem", "bonus"))
TGT_LEADER, TGT_PC, TGT_PIECES = (_names(USURPATION_TARGET, f, sv.MAX_LEADERS) for f in ("leader", "pc", "pieces"))
DIO_N, DIO_USURPER, DIO_PC, DIO_BONUS, DIO_FROM, DIO_LITERAL = (USURPATION_DIOCESE.state.index(k) for k in (
    "candidates", "usurper", "pc", "bonus", "from_diocese", "literal"))
DIO_LIST, DIO_M, DIO_GAIN, DIO_LEADERS, DIO_UNITS = (_names(USURPATION_DIOCESE, f, sv.N_DIOCESES) for f in (
    "diocese", "m", "gain", "victim_leaders", "victim_units"))


@njit
def best_target_by_name(state, params, stream):
    """The built-in D5 `best`: the highest PC, then the most pieces, then the first; 99 where the bonus is not
    that of the stratagem (seed 3.6.3 b: 2, 1, 0) or the attempt not 0 or 1."""
    if state[TGT_BONUS] != (2, 1, 0, 0)[state[TGT_STRATAGEM]] or state[TGT_ATTEMPT] > 1:
        return 99
    best = 0
    for i in range(1, state[TGT_N]):
        if state[TGT_PC[i]] > state[TGT_PC[best]] or (
                state[TGT_PC[i]] == state[TGT_PC[best]] and state[TGT_PIECES[i]] > state[TGT_PIECES[best]]):
            best = i
    return state[TGT_LEADER[best]]


@njit
def best_diocese_by_name(state, params, stream):
    """The built-in D6 `best`: the highest gain, then the first; 99 where the state contradicts the rules (a
    candidate his own Diocese, a modifier not 0-2, negative counts, the literal flag not params[0])."""
    if state[DIO_LITERAL] != params[0] or state[DIO_BONUS] > 2 or state[DIO_PC] < 0 or state[DIO_USURPER] < 0:
        return 99
    best = 0
    for i in range(state[DIO_N]):
        if (state[DIO_LIST[i]] == state[DIO_FROM] or state[DIO_M[i]] < 0 or state[DIO_M[i]] > 2
                or state[DIO_LEADERS[i]] < 0 or state[DIO_UNITS[i]] < 0):
            return 99
        if state[DIO_GAIN[i]] > state[DIO_GAIN[best]]:
            best = i
    return state[DIO_LIST[best]]


@pytest.mark.parametrize("params", SETTINGS + [dict(DOUBLE, assassinations=2)])
def test_user_policies_reading_the_documented_state_play_the_builtins_games(params):
    scenario = romesim.scenario(USURPATION, **params)
    users = {"target": best_target_by_name, "diocese": (best_diocese_by_name, [scenario.usurp_bonus_mode ==
                                                                               "literal_add"]),
             "tie": (best_tie_by_name, [1])}
    mine = romesim.simulate(scenario, 2_000, seed=8, keep=True, policies=users)
    theirs = romesim.simulate(scenario, 2_000, seed=8, keep=True)
    np.testing.assert_array_equal(mine.outcomes.to_numpy(), theirs.outcomes.to_numpy())
