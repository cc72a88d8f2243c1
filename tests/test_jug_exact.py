"""Jugule ! exact procedures against the worked examples printed in the rule specification (section 18)."""
from fractions import Fraction as F

import pytest

from romesim.core.errors import ScenarioError
from romesim.jugule import exact as jx

SECUTOR_ARMOUR = (0, 0, 3, 0, 0, 4)  # thorax, left arm, right arm, left leg, right leg, head (Jugule 9.3)
RETIARIUS = jx.Target(armour=(0, 0, 3, 0, 0, 0))


# --------------------------------------------------------------------------- W1 mercy (12.2, JUG-A61)
def test_w1_veteran_who_dealt_5_is_spared_five_sixths_under_every_reading():
    assert jx.mercy_modifier(jx.VETERANUS, 5) == 4
    for damage_mod in ("above3", "from3"):
        for cumulative in (True, False):
            assert jx.p_spared(jx.VETERANUS, 5, mercy_damage_mod=damage_mod,
                               mercy_vet_cumulative=cumulative) == F(5, 6)


@pytest.mark.parametrize("rank, dealt, options, want", [
    (jx.SPECIARIUS, 4, {}, F(2, 3)),                                  # +1 +1, natural >= 3
    (jx.SPECIARIUS, 4, {"mercy_damage_mod": "from3"}, F(5, 6)),       # JUG-A61 from3: +3
    (jx.VETERANUS, 0, {}, F(2, 3)),                                   # cumulative +2
    (jx.VETERANUS, 0, {"mercy_vet_cumulative": False}, F(1, 2)),      # +1 only: natural >= 4
    (jx.TIRO, 3, {}, F(1, 3)),                                        # natural >= 5
    (jx.PRIMUS_PALUS, 0, {}, F(1, 3)),
])
def test_w1_readings_that_differ(rank, dealt, options, want):
    assert jx.p_spared(rank, dealt, **options) == want


def test_12_2_natural_one_always_fails_however_large_the_modifier():
    assert jx.p_spared(jx.VETERANUS, 40) == F(5, 6)


def test_jug_a61_unknown_reading_is_named():
    with pytest.raises(ScenarioError, match="mercy_damage_mod: 'below3'"):
        jx.p_spared(jx.TIRO, 0, mercy_damage_mod="below3")


# --------------------------------------------------------------------------- W2 sica on an open helmet (8.2)
def test_w2_sica_on_open_helmet_loses_0_to_4_with_a_sixth_each():
    dist = jx.damage_distribution("sica", 2)
    assert dist == {jx.FUMBLE: F(1, 6), 0: F(1, 6), 1: F(1, 6), 2: F(1, 6), 3: F(1, 6), 4: F(1, 6)}
    mean = sum(k * p for k, p in dist.items() if k != jx.FUMBLE)
    assert mean == F(5, 3)
    assert sum(p for k, p in dist.items() if k != jx.FUMBLE and k >= 1) == F(2, 3)


def test_w2_jug_a21_after_armour_clamps_the_loss_at_one():
    dist = jx.damage_distribution("sica", 2, min_damage_stage="after_armour")
    assert dist[1] == F(2, 6)
    assert sum(k * p for k, p in dist.items() if k != jx.FUMBLE) == F(11, 6)


def test_w2_experienced_attacker_adds_one():
    bonus = jx.circumstance_bonus(experience=jx.experience_bonus(jx.SPECIARIUS, jx.TIRO))
    dist = jx.damage_distribution("sica", 2, bonus)
    assert sorted(k for k in dist if k != jx.FUMBLE) == [1, 2, 3, 4, 5]
    assert sum(k * p for k, p in dist.items() if k != jx.FUMBLE) == F(5, 2)


def test_w2_jug_a22_uncovered_head_gives_the_sica_plus_one():
    assert sorted(k for k in jx.damage_distribution("sica", 0) if k != jx.FUMBLE) == [3, 4, 5, 6, 7]
    assert sorted(k for k in jx.damage_distribution("sica", 0, sica_bonus="never") if k != jx.FUMBLE) == [
        2, 3, 4, 5, 6]
    assert sorted(k for k in jx.damage_distribution("sica", 2, sica_bonus="always") if k != jx.FUMBLE) == [
        1, 2, 3, 4, 5]


@pytest.mark.parametrize("weapon, low, high", [
    ("glaive", 2, 6), ("sword", 2, 6), ("dagger", 1, 4), ("two_handed", 4, 8), ("shield_improvised", 1, 3),
    ("iron_fists", 1, 4),
])
def test_8_2_printed_weapon_ranges_come_out_of_the_jug_a21_clamp(weapon, low, high):
    losses = [k for k in jx.damage_distribution(weapon, 0) if k != jx.FUMBLE]
    assert (min(losses), max(losses)) == (low, high)


def test_jug_a23_experience_bonus_readings():
    assert jx.experience_bonus(jx.SPECIARIUS, jx.PRIMUS_PALUS) == 1
    assert jx.experience_bonus(jx.PRIMUS_PALUS, jx.TIRO) == 0          # a primus palus counts as a tiro
    assert jx.experience_bonus(jx.PRIMUS_PALUS, jx.TIRO, primus_is_novice=False) == 1   # JUG-A63
    assert jx.experience_bonus(jx.PRIMUS_PALUS, jx.TIRO, exp_mod="any_higher_rank") == 1
    assert jx.experience_bonus(jx.VETERANUS, jx.TIRO, exp_mod="per_rank") == 3
    assert jx.experience_bonus(jx.VETERANUS, jx.VETERANUS) == 0


def test_8_2_circumstance_modifiers_add_up():
    assert jx.circumstance_bonus(arc="rear", experience=1, target_wounded=True, target_on_ground=True) == 6
    with pytest.raises(ScenarioError, match="arc: 'side'"):
        jx.circumstance_bonus(arc="side")


# --------------------------------------------------------------------------- W3 javelin (10.4, JUG-A42)
@pytest.mark.parametrize("distance, want", [(7, F(1, 3)), (5, F(1, 2)), (3, F(2, 3))])
def test_w3_javelin_to_hit_by_distance(distance, want):
    assert jx.javelin_hit_probability(distance) == want


def test_w3_jug_a42_spoiling_point():
    assert jx.javelin_hit_probability(7, spoiled=True) == F(1, 6)
    assert jx.javelin_hit_probability(7, target_spent_reserve=True, javelin_reserve_mod="literal_plus1") == F(1, 2)
    assert jx.javelin_hit_probability(7, spoiled=True, javelin_reserve_mod="none") == F(1, 3)


def test_w3_whole_javelin_chain_against_a_retiarius_at_7_hexes():
    dist = jx.javelin_distribution(RETIARIUS, 7)
    assert sum(p for o, p in dist.items() if o.loss >= 1) == F(7, 27)
    assert dist[jx.Outcome(jx.MISSED)] == F(2, 3)


# --------------------------------------------------------------------------- W4 knock-down (10.6, JUG-A48)
@pytest.mark.parametrize("ap, wounds, reserve, want", [
    (7, 0, 0, F(7, 12)),     # Provocator
    (7, 1, 0, F(13, 18)),
    (7, 1, 2, F(5, 12)),
    (9, 0, 0, F(5, 18)),     # Secutor
    (13, 0, 0, F(0)),        # Retiarius
    (13, 2, 0, F(1, 12)),
    (4, 0, 0, F(11, 12)),    # Crupellarius
])
def test_w4_knockdown(ap, wounds, reserve, want):
    assert jx.p_knockdown(ap, wounds, reserve) == want


# --------------------------------------------------------------------------- W5 Secutor assault table (8.1)
def test_w5_sica_assault_on_a_secutor_covering_the_thorax():
    secutor = jx.Target(armour=SECUTOR_ARMOUR, neutralised=frozenset({"left_arm", "thorax"}))
    dist = jx.assault_distribution("sica", secutor)
    blocked = dist[jx.Outcome(jx.BLOCKED)]
    fumble = dist[jx.Outcome(jx.FUMBLE, fumbled=True)]
    hits = {}
    for o, p in dist.items():
        if o.kind == "hit":
            hits[o.loss] = hits.get(o.loss, 0) + p
    assert (blocked, fumble) == (F(12, 36), F(4, 36))
    assert hits == {0: F(5, 36), 1: F(2, 36), 2: F(2, 36), 3: F(3, 36), 4: F(2, 36), 5: F(2, 36), 6: F(2, 36),
                    7: F(2, 36)}
    assert sum(o.loss * p for o, p in dist.items()) == F(59, 36)
    assert sum(p for o, p in dist.items() if o.loss >= 1) == F(5, 12)
    assert sum(p for o, p in dist.items() if o.stunned) == F(1, 6)


def test_jug_a18_shields_are_useless_from_the_rear():
    secutor = jx.Target(armour=SECUTOR_ARMOUR, neutralised=frozenset({"left_arm", "thorax"}))
    dist = jx.assault_distribution("sica", secutor, arc="rear", bonus=2)
    assert jx.Outcome(jx.BLOCKED) not in dist
    assert dist[jx.Outcome(jx.FUMBLE, fumbled=True)] == F(1, 6)


def test_jug_a20_every_assault_fumble_scope_fumbles_blocked_assaults_too():
    secutor = jx.Target(armour=SECUTOR_ARMOUR, neutralised=frozenset({"left_arm", "thorax"}))
    dist = jx.assault_distribution("sica", secutor, fumble_scope="every_assault")
    assert dist[jx.Outcome(jx.FUMBLE, fumbled=True)] == F(1, 6)
    assert dist[jx.Outcome(jx.BLOCKED)] == F(2, 6) * F(5, 6)


def test_jug_a26_a_netted_target_has_no_protection_and_no_defence():
    netted = jx.Target(armour=SECUTOR_ARMOUR, neutralised=frozenset({"left_arm", "thorax"}), immobilised=True)
    dist = jx.assault_distribution("glaive", netted, defence="parry")
    assert jx.loss_distribution(dist) == {0: F(1, 6), 2: F(1, 6), 3: F(1, 6), 4: F(1, 6), 5: F(1, 6), 6: F(1, 6)}


def test_jug_a16_parry_after_seeing_the_zone_stops_what_the_shield_did_not():
    secutor = jx.Target(armour=SECUTOR_ARMOUR, neutralised=frozenset({"left_arm", "thorax"}))
    dist = jx.assault_distribution("sica", secutor, defence="parry")
    assert dist == {jx.Outcome(jx.BLOCKED): F(1, 3), jx.Outcome(jx.PARRIED): F(2, 3)}


# --------------------------------------------------------------------------- double attacks (JUG-A50, A51)
def test_jug_a50_dimachaerus_two_blows_on_an_unarmoured_target():
    # first blow: 5/6 lands (not a fumble), damage 2..6; second: its own location (no shield), 1/6 fumbles
    dist = jx.assault_distribution("two_glaives", jx.Target())
    p_second_fumble = sum(p for o, p in dist.items() if o.kind == "hit" and o.fumbled)
    assert p_second_fumble == F(5, 6) * F(1, 6)
    assert sum(o.loss * p for o, p in dist.items()) == F(5, 6) * 4 + F(5, 6) * F(5, 6) * 4


def test_jug_a51_andabata_head_hit_stuns_whatever_the_damage():
    closed_helmet = jx.Target(armour=(0, 0, 0, 0, 0, 4))
    dist = jx.assault_distribution("iron_fists", closed_helmet, double_attack="same_location")
    # same location: a head first blow stuns unless it fumbles (5/6 of 1/6); elsewhere (5/6) the two blows of
    # 1..4 each stun only when both dice show 2+ and the losses add up to 5 or more: 12 of the 36 pairs
    head = F(1, 6) * F(5, 6)
    body = F(5, 6) * F(sum(1 for a in range(2, 7) for b in range(2, 7)
                           if max(1, a - 2) + max(1, b - 2) >= 5), 36)
    assert sum(p for o, p in dist.items() if o.stunned) == head + body


def test_jug_a51_stun_if_wounds_variant():
    """10.8, JUG-A51 variant: « Un coup à la tête assomme net l'adversaire » (a blow to the head knocks the
    opponent out cold). ``andabata_head = stun_if_wounds``: only a head blow that removes at least 1 HP stuns.
    Against a closed helmet of 4 the fists (1d6-2, at least 1) never get through, so only the body blows' sum of
    5 or more stuns; ``none`` gives the same figure here, the default adds every head hit."""
    closed_helmet = jx.Target(armour=(0, 0, 0, 0, 0, 4))
    body = F(5, 6) * F(sum(1 for a in range(2, 7) for b in range(2, 7) if max(1, a - 2) + max(1, b - 2) >= 5), 36)
    for mode in ("stun_if_wounds", "none"):
        dist = jx.assault_distribution("iron_fists", closed_helmet, double_attack="same_location",
                                       andabata_head=mode)
        assert sum(p for o, p in dist.items() if o.stunned) == body, mode
    # an open head (armour 0): every head blow that lands wounds, so the variant is the default
    for double in ("same_location", "two_locations"):
        base = jx.assault_distribution("iron_fists", jx.Target(), double_attack=double)
        variant = jx.assault_distribution("iron_fists", jx.Target(), double_attack=double,
                                          andabata_head="stun_if_wounds")
        assert base == variant
    # helmet 3: a head blow wounds only on a 6 (6 - 2 - 3 = 1); same location, the first blow lands (die 2..6,
    # 5/6), the second rolls 1 (fumble: no second blow) to 6: stunned when either head die shows 6, or the sum of
    # losses reaches 5 (impossible: at most 1 + 1)
    helmet3 = jx.Target(armour=(0, 0, 0, 0, 0, 3))
    dist = jx.assault_distribution("iron_fists", helmet3, double_attack="same_location",
                                   andabata_head="stun_if_wounds")
    head_first = F(1, 6) * (F(1, 6) + F(4, 6) * F(1, 6))  # first die 6 (then anything), or 2..5 then a 6
    body = F(5, 6) * F(sum(1 for a in range(2, 7) for b in range(2, 7) if max(1, a - 2) + max(1, b - 2) >= 5), 36)
    assert sum(p for o, p in dist.items() if o.stunned) == head_first + body


# --------------------------------------------------------------------------- quick checks of section 18
@pytest.mark.parametrize("k, want", [(1, F(0)), (2, F(1, 6)), (3, F(1, 3)), (4, F(1, 2)), (5, F(2, 3))])
def test_jug_a38_net_escape(k, want):
    assert jx.p_net_escape(k) == want


def test_jug_a38_le_reading():
    assert jx.p_net_escape(5, net_escape_cmp="le") == F(5, 6)


def test_speciarius_glaive_through_stuns_a_tiro_retiarius():
    with_bonus = jx.assault_distribution("glaive", RETIARIUS, bonus=jx.experience_bonus(jx.SPECIARIUS, jx.TIRO))
    assert sum(p for o, p in with_bonus.items() if o.stunned) == F(5, 12)
    without = jx.assault_distribution("glaive", RETIARIUS)
    assert sum(p for o, p in without.items() if o.stunned) == F(5, 18)


# --------------------------------------------------------------------------- career ladder (13)
def test_13_ladder_with_certain_victories_against_novices():
    # always win against novices: tiro -> primus palus (C1, counters reset: JUG-A64), two more wins -> speciarius
    # (C3); then only novice opponents, so never veteranus and never the rudis: capped
    odds = jx.DuelOdds(win=(F(1), F(1), F(0), F(0)), spared=(F(0),) * 4)
    got = jx.career_solution(odds, (1, 0, 0, 0), max_fights=5)
    assert (got["p_primus_palus"], got["p_speciarius"], got["p_veteranus"]) == (1, 1, 0)
    assert (got["p_capped"], got["fights"], got["wins"]) == (1, 5, 5)


def test_13_c2_novice_surviving_a_speciarius_is_promoted_and_c6_needs_ten_elite_wins():
    odds = jx.DuelOdds(win=(F(0), F(0), F(1), F(0)), spared=(F(0),) * 4)
    got = jx.career_solution(odds, (0, 0, 1, 0), max_fights=20)
    # C2 at the first duel, C4 at the third win (veteranus), C6 at the tenth: retired with the rudis
    assert got["p_rudis"] == 1 and got["fights"] == 10
    assert got["survival"][:10] == (1,) * 10


def test_13_one_duel_survival_by_hand():
    # one duel against a tiro: win 1/2, spared 1/4, death 1/4
    half, quarter = F(1, 2), F(1, 4)
    odds = jx.DuelOdds(win=(half,) * 4, spared=(quarter,) * 4)
    got = jx.career_solution(odds, (1, 0, 0, 0), max_fights=2)
    assert got["survival"][0] == F(3, 4)
    assert got["survival"][1] == F(9, 16)
    assert got["p_death"] == 1 - F(9, 16)
    assert got["fights"] == 1 + F(3, 4)


def test_jug_a64_career_total_counts_the_tiro_win():
    odds = jx.DuelOdds(win=(F(1), F(1), F(0), F(0)), spared=(F(0),) * 4)
    since = jx.promote(jx.TIRO, jx.TIRO, True, (0, 0, 0), career_counters="since_promotion")
    total = jx.promote(jx.TIRO, jx.TIRO, True, (0, 0, 0), career_counters="career_total")
    assert since == (jx.PRIMUS_PALUS, (0, 0, 0)) and total == (jx.PRIMUS_PALUS, (1, 0, 0))
    got = jx.career_solution(odds, (1, 0, 0, 0), max_fights=2, career_counters="career_total")
    assert got["p_speciarius"] == 1


def test_13_c3_jug_a64_the_novice_period_keeps_the_tiro_win():
    """13 C3, JUG-A64: « Un novice (TIROS) … Remportant deux victoires contre des novices devient expérimenté
    (SPECIARII) » (a novice, a tiro, who wins two victories against novices becomes experienced): the tiro's
    victory counts, the step to primus palus (C1) clears nothing. C4 (« Un SPECIARII Remportant trois victoires
    contre des SPECIARII », a speciarius who wins three victories against speciarii) counts as a speciarius."""
    assert jx.promote(jx.TIRO, jx.TIRO, True, (0, 0, 0)) == (jx.PRIMUS_PALUS, (1, 0, 0))
    assert jx.promote(jx.PRIMUS_PALUS, jx.TIRO, True, (1, 0, 0))[0] == jx.SPECIARIUS
    # a novice's win over a speciarius promotes him (C2) but is no victory "as a speciarius" for C4
    assert jx.promote(jx.PRIMUS_PALUS, jx.SPECIARIUS, True, (1, 0, 0)) == (jx.SPECIARIUS, (1, 0, 1))
    assert jx.promote(jx.PRIMUS_PALUS, jx.SPECIARIUS, True, (1, 0, 0), career_counters="career_total") == (
        jx.SPECIARIUS, (1, 1, 1))
    with pytest.raises(ValueError, match="career_counters: 'forever'"):
        jx.promote(jx.TIRO, jx.TIRO, True, (0, 0, 0), career_counters="forever")
    # by hand: against tiros only, win 1/2, spared 1/4: speciarius after two duels iff both were won, 1/4
    odds = jx.DuelOdds(win=(F(1, 2),) * 4, spared=(F(1, 4),) * 4)
    assert jx.career_solution(odds, (1, 0, 0, 0), max_fights=2)["p_speciarius"] == F(1, 4)
    assert jx.career_solution(odds, (1, 0, 0, 0), max_fights=2,
                              career_counters="since_promotion")["p_speciarius"] == 0


def test_13_c6_d17_the_freed_gladiator_may_fight_on():
    """13 C6, D17: « Un gladiateur ayant remporté 10 victoires contre des SPECIARII ou des VETERANII est affranchi
    … Mais rien ne l'empêche de poursuivre sa carrière dans l'arène s'il le souhaite » (a gladiator with 10
    victories over speciarii or veterani is freed … but nothing stops him from going on with his career in the
    arena if he wishes). By hand: veterani only, always won, 12 duels at most."""
    odds = jx.DuelOdds(win=(F(0), F(0), F(0), F(1)), spared=(F(0),) * 4)
    retire = jx.career_solution(odds, (0, 0, 0, 1), max_fights=12)
    assert (retire["p_rudis"], retire["fights"], retire["p_capped"]) == (1, 10, 0)
    assert retire["survival"] == (1,) * 12  # a retired rudiarius is alive
    on = jx.career_solution(odds, (0, 0, 0, 1), max_fights=12, after_rudis="fight_on")
    assert (on["p_rudis"], on["fights"], on["wins"], on["p_capped"]) == (1, 12, 12, 1)
    # won 1/2, fatal 1/2: freed at duel 10 with (1/2)^10; fighting on, he dies in duel 11 with half of that
    odds = jx.DuelOdds(win=(F(0), F(0), F(0), F(1, 2)), spared=(F(0),) * 4)
    on = jx.career_solution(odds, (0, 0, 0, 1), max_fights=11, after_rudis="fight_on")
    assert on["p_rudis"] == F(1, 2 ** 10) and on["p_capped"] == F(1, 2 ** 11)
    assert on["survival"][10] == F(1, 2 ** 11)
    assert jx.career_solution(odds, (0, 0, 0, 1), max_fights=11)["survival"][10] == F(1, 2 ** 10)


def test_jug_a63_primus_is_not_a_novice():
    # only a tiro is a novice: a primus palus beating tiros climbs no further (C3 needs a novice)
    assert jx.promote(jx.PRIMUS_PALUS, jx.TIRO, True, (1, 0, 0), primus_is_novice=False) == (
        jx.PRIMUS_PALUS, (2, 0, 0))
    # and a primus palus is "more experienced" than a tiro, so C2 promotes a tiro who survives him
    assert jx.promote(jx.TIRO, jx.PRIMUS_PALUS, False, (0, 0, 0), primus_is_novice=False)[0] == jx.SPECIARIUS


# --------------------------------------------------------------------------- type table (9.3, JUG-A27..A30)
def test_9_3_type_protections_as_printed():
    assert jx.type_armour("secutor") == SECUTOR_ARMOUR
    assert jx.type_armour("murmillo") == (0, 0, 3, 3, 1, 3)     # JUG-A29: metal left, leather right
    assert jx.type_target("murmillo", scutum_zone="left_leg").neutralised == {"left_arm", "left_leg"}
    assert jx.type_target("hoplomachus").neutralised == {"left_arm"}
    assert jx.type_target("retiarius").neutralised == frozenset()


def test_jug_a27_to_a30_loadouts():
    assert jx.type_armour("murmillo", protection_values="normalised")[5] == 2
    assert jx.type_armour("andabata", protection_values="normalised")[0] == 3
    assert jx.type_armour("thraex_early", thraex_early_kit="helmet") == (0, 0, 0, 0, 0, 3)
    assert jx.type_armour("thraex_early", thraex_early_kit="both") == (0, 0, 0, 1, 1, 3)
    assert jx.type_armour("samnis", single_greave_side="right") == (0, 0, 3, 0, 3, 4)
    assert jx.type_armour("dimachaerus", dimachaerus_helmet=True)[5] == 2
    assert jx.type_target("eques", eques_shield="parma").neutralised == {"left_arm"}
