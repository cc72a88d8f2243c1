"""jugule.assault: one attack resolved by the duel's combat functions, against the exact procedures (Jugule 8, 10)."""
from fractions import Fraction as F

import pytest
from helpers import assert_matches_exact

import romesim

ASSAULT = "jugule.assault"

SITUATIONS = {
    # W5: a tiro's sica on a tiro Secutor covering the thorax, front (8.1, 9.2)
    "w5_sica_on_secutor": dict(),
    # a speciarius' glaive on a tiro Retiarius (8.2 experience, JUG-A23): spec 18 quick check
    "speciarius_glaive_on_retiarius": dict(attacker="samnis", target="retiarius", rank_attacker="speciarius"),
    # JUG-A50 two blows, flank +1, scutum on the left leg, the second blow wounded by the first (JUG-A24)
    "dimachaerus_flank_on_murmillo": dict(attacker="dimachaerus", target="murmillo", arc="flank",
                                          scutum_zone="left_leg", target_hp=7),
    # JUG-A51 head stun, rear +2 and no shield (JUG-A18), same_location double attack
    "andabata_rear_on_provocator": dict(attacker="andabata", target="provocator", arc="rear",
                                        double_attack="same_location"),
    # JUG-A51 variant: the head blow stuns only if it wounds (a Murmillo's helmet of 3 lets only a 6 through)
    "andabata_stun_if_wounds_on_murmillo": dict(attacker="andabata", target="murmillo",
                                                andabata_head="stun_if_wounds"),
    # W3: javelin at 7 hexes on a Retiarius (10.4)
    "veles_javelin_7": dict(attacker="veles", target="retiarius", attack="javelin", distance=7),
    # JUG-A42 spoiling point, JUG-A43 the Veles' 1d6-1, a parma that blocks the left arm
    "veles_javelin_spoiled": dict(attacker="veles", target="thraex_early", attack="javelin", distance=3,
                                  spoil=True, javelin_profile="veles_minus1"),
    # JUG-A45 thrown spear, JUG-A44 missile_fumble off, wounded target
    "hoplomachus_spear_throw": dict(attacker="hoplomachus", target="gallus", attack="spear_throw", distance=4,
                                    missile_fumble=False, target_hp=5, rank_attacker="veteranus"),
    # W4: bash on a Provocator with one wound and 2 reserve points (10.6, JUG-A48)
    "bash_on_provocator": dict(attacker="murmillo", target="provocator", attack="shield_bash", target_wounds=1,
                               target_reserve=2),
    # JUG-A47 full_assault bash, JUG-A48 hp_lost: 1d6-3 hit then the test
    "full_bash_on_secutor": dict(attacker="gallus", target="secutor", attack="shield_bash", bash_mode="full_assault",
                                 knockdown_wounds="hp_lost", target_hp=6, scutum_zone="left_leg"),
    # JUG-A26 a netted target: no armour, no shield, no parry; two-handed weapon 1d6+2
    "postulatus_on_netted_secutor": dict(attacker="postulatus", target="secutor", target_captured=True,
                                         defence="parry", target_hp=4),
    # reach 2 trident (10.2) parried after the location (JUG-A16)
    "trident_parried": dict(attacker="retiarius", target="thraex_late", distance=2, defence="parry"),
    # on the ground +2 (JUG-A25: no dodge from the ground), JUG-A21 after_armour, JUG-A22 sica always
    "sica_on_fallen_crupellarius": dict(attacker="thraex_early", target="crupellarius", target_on_ground=True,
                                        defence="dodge", min_damage_stage="after_armour", sica_bonus="always"),
    # JUG-A18 left_only: a right-flank attack ignores the shield; JUG-A27 normalised helmet; dagger 1d6-2
    "dagger_right_flank_left_only": dict(attacker="retiarius", weapon="dagger", target="murmillo", arc="flank",
                                         flank_side="right", shield_side="left_only",
                                         protection_values="normalised", exp_mod="per_rank",
                                         rank_attacker="veteranus"),
}


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_8_10_monte_carlo_within_5_sigma_of_exact(name):
    scenario = romesim.scenario(ASSAULT, **SITUATIONS[name])
    assert_matches_exact(romesim.simulate(scenario, 200_000, seed=18), romesim.exact(scenario))


def exact(**params):
    return romesim.exact(romesim.scenario(ASSAULT, **params)).exact_values


def test_w5_scenario_exact_equals_the_printed_table():
    got = exact()
    assert got["p_blocked"] == F(12, 36)
    assert got["p_fumble"] == F(4, 36)
    assert got["mean_damage"] == F(59, 36)
    assert got["p_wound"] == F(5, 12)
    assert got["p_stun"] == F(1, 6)
    assert got["p_damage_7"] == F(2, 36)
    assert got["p_damage_0"] == F(12 + 4 + 5, 36)


def test_w3_scenario_exact_javelin_chain():
    got = exact(**SITUATIONS["veles_javelin_7"])
    assert got["p_missed"] == F(2, 3)
    assert got["p_wound"] == F(7, 27)


def test_w4_scenario_exact_knockdown():
    assert exact(**SITUATIONS["bash_on_provocator"])["p_knockdown"] == F(5, 12)
    assert exact(attacker="murmillo", target="secutor", attack="shield_bash")["p_knockdown"] == F(5, 18)


def test_speciarius_glaive_stuns_a_tiro_retiarius_five_twelfths():
    assert exact(**SITUATIONS["speciarius_glaive_on_retiarius"])["p_stun"] == F(5, 12)


def test_jug_a25_no_dodge_from_the_ground_but_a_parry_is_allowed():
    assert exact(target_on_ground=True, defence="dodge")["p_defended"] == 0
    assert exact(target_on_ground=True, defence="parry")["p_defended"] == F(2, 3)  # left arm and thorax blocked


@pytest.mark.parametrize("params, words", [
    (dict(attacker="retiarius", weapon="sica"), "weapon: 'sica' is not allowed for a retiarius"),
    (dict(distance=2), "distance: 2 is not allowed for a sica assault"),
    (dict(attack="javelin"), "attack: 'javelin' is not allowed for a thraex_late"),
    (dict(attacker="veles", attack="javelin", distance=1), "distance: 1 is not allowed for a javelin"),
    (dict(attacker="veles", attack="javelin", distance=6, javelin_profile="veles_range4"),
     "expected 2 to 4"),
    (dict(attack="spear_throw"), "only the hoplomachus"),
    (dict(attacker="hoplomachus", attack="shield_bash"), "'shield_bash' is not allowed for a hoplomachus"),
    (dict(attacker="retiarius", attack="shield_improvised"), "only a scutum or a parma"),
    (dict(scutum_zone="head"), "scutum_zone: 'head' is not allowed"),
    (dict(target_hp=11), "target_hp: 11 is not allowed; expected at most 10"),
    (dict(arc="behind"), "arc: 'behind'"),
    (dict(attacker="gorilla"), "attacker: 'gorilla'"),
    (dict(min_damage_stage="never"), "min_damage_stage: 'never'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(ASSAULT, **params)
