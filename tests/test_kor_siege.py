"""KoR 5.5 siege: exact values worked by hand from the rules, Monte Carlo against exact, kernel against reference.

Every expected fraction below is derived in its comment from the rule text (spec section 2.2 and WE-1), not
taken from the code's output.
"""
from fractions import Fraction as F

import pytest

import romesim
from helpers import assert_matches_exact, assert_reference_equal

SIEGE = "kings_of_rome.siege"


def exact(**params):
    return romesim.exact(romesim.scenario(SIEGE, **params)).exact_values


def exact_with(policies, **params):
    return romesim.exact(romesim.scenario(SIEGE, **params), policies=policies).exact_values


# ------------------------------------------------------------------ WE-1 and KOR-A6 (5.5 a, 5.5 b)
def test_we1_garrison_2_king():
    # roll a: d6 > 4 -> 1/3; roll b: virtual garrison 3, d6 >= 6 -> 1/6; total 1/3 + 2/3 * 1/6 = 4/9
    e = exact(garrison=2)
    assert e["p_win"] == F(4, 9)
    assert e["p_submit"] == F(1, 3)
    assert e["hostile_reactions"] == F(5, 3)  # 1 + 2/3 (KOR-A11 siege_rolls_only)
    # King-led (5.5 c, KOR-A10): a +2 IP, b +3 IP, abandon -2 IP
    assert e["ip"] == 2 * F(1, 3) + 3 * F(1, 9) - 2 * F(5, 9)
    assert e["vp"] == 0
    assert e["tokens_r_to_nr"] == 2 * F(5, 9) and e["tokens_nr_to_r"] == F(4, 9)


def test_we1_kor_a6_ge_double():
    # roll a: d6 >= 4 -> 1/2; total 1/2 + 1/2 * 1/6 = 7/12
    assert exact(garrison=2, siege_first_roll_test="ge_double")["p_win"] == F(7, 12)


def test_we1_garrison_3_cannot_be_taken():
    # roll a needs 7, roll b needs 8: impossible under the defaults
    assert exact(garrison=3)["p_win"] == 0


def test_we1_astutia_reroll_on_roll_a():
    # one reroll spent on a failed roll a: P(a) = 1 - (2/3)^2 = 5/9; total 5/9 + 4/9 * 1/6 = 17/27
    assert exact(garrison=2, astutia=1)["p_win"] == F(17, 27)
    # the reroll kept for roll b: 1/3 + 2/3 * (1 - (5/6)^2) = 29/54
    assert exact_with({"reroll": ("reserve", [1])}, garrison=2, astutia=1)["p_win"] == F(29, 54)
    # KOR-A22 astutia_in_siege = false: no rerolls at all
    assert exact(garrison=2, astutia=1, astutia_in_siege=False)["p_win"] == F(4, 9)
    assert exact_with({"reroll": "never"}, garrison=2, astutia=3)["p_win"] == F(4, 9)


def test_good_omen_adds_one_to_each_siege_roll():
    # 9.5.7.1: a: d6 + 1 > 4 -> 1/2; b: d6 + 1 >= 6 -> 1/3; total 1/2 + 1/2 * 1/3 = 2/3
    assert exact(garrison=2, good_omen=True)["p_win"] == F(2, 3)


def test_kor_a11_reaction_count_with_rerolls():
    # Astutia 1: a succeeds at once (1/3, 1 die); a fails, reroll succeeds (2/9, 2 dice);
    # both fail, roll b (4/9, 3 dice: 2 siege rolls + 1 reroll)
    assert exact(garrison=2, astutia=1)["hostile_reactions"] == F(1, 3) + F(2, 9) + 2 * F(4, 9)
    assert exact(garrison=2, astutia=1, siege_reaction_count="all_dice_including_rerolls")[
        "hostile_reactions"] == F(1, 3) + 2 * F(2, 9) + 3 * F(4, 9)


# ------------------------------------------------------------------ KOR-A7, KOR-A8: targets and criteria
def test_kor_a7_first_roll_target():
    # garrison 1, leader 2, a Magister: roll b either criterion d6 >= 4 or d6 > 2 -> 2/3
    # leader target (default): a = P(d6 > 4) = 1/3 -> 1/3 + 2/3 * 2/3 = 7/9
    base = dict(garrison=1, leader=2, commander="magister")
    assert exact(**base)["p_win"] == F(7, 9)
    # garrison target: a = P(d6 > 2) = 2/3 -> 2/3 + 1/3 * 2/3 = 8/9
    assert exact(**base, siege_first_roll_target="garrison_only")["p_win"] == F(8, 9)
    assert exact(**base, siege_first_roll_target="max_of_both")["p_win"] == F(7, 9)
    # player_choice: the `best` policy takes the lower Virtus (the garrison); `leader` forces the leader
    assert exact(**base, siege_first_roll_target="player_choice")["p_win"] == F(8, 9)
    assert exact_with({"first_target": "leader"}, **base, siege_first_roll_target="player_choice")[
        "p_win"] == F(7, 9)


def test_kor_a8_second_roll_eq_double_and_declared_criterion():
    # garrison 1, leader 5: roll a (leader) needs d6 > 10: never. Roll b with eq_double: garrison criterion
    # d6 == 4, leader criterion d6 > 5: either -> {4, 6} = 1/3; declared before the roll: one face, 1/6
    base = dict(garrison=1, leader=5, commander="magister", siege_second_roll_test="eq_double")
    assert exact(**base)["p_win"] == F(1, 3)
    assert exact(**base, siege_second_roll_choice="declare_before_roll")["p_win"] == F(1, 6)
    # ge_double: either criterion is the better of two upper sets: d6 >= 4 -> 1/2
    assert exact(garrison=1, leader=5, commander="magister")["p_win"] == F(1, 2)


# ------------------------------------------------------------------ KOR-A9, KOR-A10: effects and rewards
def test_roll_b_losses_leader_alone_is_captured():
    # garrison 1, leader 2, Magister (one loss): default loses the garrison, the leader left alone is captured
    e = exact(garrison=1, leader=2, commander="magister")
    assert e["p_city_taken"] == F(7, 9)
    assert e["p_leader_captured"] == F(2, 3) * F(2, 3)  # roll b only (roll a sends him to the R container)
    # non-King rewards: a +2 IP (KOR-A10 a_only); b +1 VP; abandon -1 VP
    assert e["ip"] == 2 * F(1, 3)
    assert e["vp"] == F(4, 9) - F(2, 9)


def test_king_loses_two_one_must_be_the_leader():
    # King, garrison 1, leader 2, two NR units (2 < 4 besiegers: no sortie). a: 1/3 (leader target);
    # b: 4/9, two losses: garrison then the leader (required): two units remain, the city is not taken
    base = dict(garrison=1, leader=2, nr_units=2, besiegers=4)
    e = exact(**base)
    assert e["p_city_taken"] == F(1, 3)
    assert e["p_leader_captured"] == F(4, 9)
    assert e["nr_units_lost"] == 2 * F(1, 3)
    assert e["ip"] == 2 * F(1, 3) + 3 * F(4, 9) - 2 * F(2, 9)
    # units first: one unit, then the leader
    assert exact_with({"losses": "units_first"}, **base)["nr_units_lost"] == 2 * F(1, 3) + F(4, 9)
    # KOR-A9 city_falls: roll b takes the city, the remaining units leave with it
    falls = exact(**base, siege_second_roll_effect="city_falls")
    assert falls["p_city_taken"] == F(7, 9)
    assert falls["nr_units_lost"] == 2 * F(1, 3) + 2 * F(4, 9)


def test_kor_a10_rewards():
    # a_plus_c: roll a pays +2 IP and the King's +3 IP
    assert exact(garrison=2, siege_first_roll_reward="a_plus_c")["ip"] == 5 * F(1, 3) + 3 * F(1, 9) - 2 * F(5, 9)
    # plus3_vp: the King's victory pays +3 VP instead of +3 IP
    e = exact(garrison=2, siege_king_win_reward="plus3_vp")
    assert e["ip"] == 2 * F(1, 3) - 2 * F(5, 9) and e["vp"] == 3 * F(1, 9)
    # roll a leader fate captured
    assert exact(garrison=1, leader=2, siege_first_roll_leader_fate="captured")["p_leader_captured"] == F(7, 9)


def test_kor_a34_king_equivalents():
    # an Interrex is scored as the King by default; without king_equivalents as any other leader
    assert exact(garrison=2, commander="interrex")["ip"] == exact(garrison=2)["ip"]
    e = exact(garrison=2, commander="interrex", king_equivalents=False)
    assert e["ip"] == 2 * F(1, 3) and e["vp"] == F(1, 9) - F(5, 9)


# ------------------------------------------------------------------ KOR-A37: the Tribune's ignominy trial
def test_kor_a37_tribune_trial_after_failed_siege():
    # failure 5/9: -1 VP; trial 2d6 - 1 > 8 acquits with 6/36, conviction -3 IP; the Tribune also -1 IP (stack)
    e = exact(garrison=2, commander="tribune")
    assert e["ip"] == 2 * F(1, 3) + F(5, 9) * (-3 * F(5, 6) - 1)
    assert e["vp"] == F(1, 9) - F(5, 9)
    # ignominy_equal_8 acquitted: 2d6 >= 9 acquits (10/36)
    assert exact(garrison=2, commander="tribune", ignominy_equal_8="acquitted")["ip"] == (
        2 * F(1, 3) + F(5, 9) * (-3 * F(26, 36) - 1))
    assert exact(garrison=2, commander="tribune", tribune_defeat_stack="trial_only")["ip"] == (
        2 * F(1, 3) + F(5, 9) * (-3 * F(5, 6)))
    assert exact(garrison=2, commander="tribune", ignominy_ip_loss="always")["ip"] == 2 * F(1, 3) + F(5, 9) * -4
    assert exact(garrison=2, commander="tribune", ignominy_trial="optional")["ip"] == 2 * F(1, 3) - F(5, 9)
    # generals are tried only with tribuni_and_generals, and never take the Tribune's -1 IP
    assert exact(garrison=2, commander="general")["ip"] == 2 * F(1, 3)
    assert exact(garrison=2, commander="general", ignominy_eligible="tribuni_and_generals")["ip"] == (
        2 * F(1, 3) + F(5, 9) * (-3 * F(5, 6)))


# ------------------------------------------------------------------ validation (5.5, 5.5.1, S0)
@pytest.mark.parametrize("params, words", [
    (dict(garrison=0, leader=0), "garrison or leader"),
    (dict(leader=3, nr_units=4, besiegers=4), "sortie"),
    (dict(relief=True), "relief"),
    (dict(garrison=4), "garrison: 4"),
    (dict(leader=-1), "leader: -1"),
    (dict(commander="consul"), "commander: 'consul'"),
    (dict(siege_first_roll_test="gt"), "siege_first_roll_test: 'gt'"),
    (dict(astutia="2"), "astutia: '2'"),
    (dict(good_omen=1), "good_omen: 1"),
    (dict(ignominy_trial="never"), "ignominy_trial"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(SIEGE, **params)


def test_unknown_parameter_and_inapplicable_option():
    with pytest.raises(romesim.ScenarioError, match="unknown parameter 'garisson'"):
        romesim.scenario(SIEGE, garisson=2)
    with pytest.raises(romesim.ScenarioError, match="unknown parameter 'spolia_round_mode'"):
        romesim.scenario(SIEGE, spolia_round_mode="simultaneous_repeat")


# ------------------------------------------------------------------ Monte Carlo vs exact, kernel vs reference
SETTINGS = [
    dict(garrison=2),
    dict(garrison=1, astutia=2, good_omen=True),
    dict(garrison=1, leader=2, nr_units=2, besiegers=4),
    dict(garrison=2, leader=3, commander="tribune", astutia=1, siege_reaction_count="all_dice_including_rerolls"),
    dict(garrison=3, leader=4, commander="magister", siege_first_roll_target="player_choice",
         siege_second_roll_choice="declare_before_roll", siege_second_roll_effect="city_falls"),
    dict(garrison=0, leader=3, nr_units=1, commander="general", ignominy_eligible="tribuni_and_generals",
         siege_first_roll_reward="a_plus_c", siege_first_roll_leader_fate="captured"),
]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(SIEGE, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=2024), romesim.exact(scenario))


@pytest.mark.parametrize("params", SETTINGS)
def test_kernel_equals_reference_game_by_game(params):
    assert_reference_equal(romesim.scenario(SIEGE, **params))


@pytest.mark.parametrize("policies", [
    {"reroll": "never"}, {"reroll": ("reserve", [2])}, {"losses": "leader_first"}, {"losses": "units_first"},
    {"first_target": "garrison"}, {"second_criterion": "leader"},
])
def test_kernel_equals_reference_under_each_builtin_policy(policies):
    scenario = romesim.scenario(SIEGE, garrison=1, leader=2, nr_units=2, besiegers=4, astutia=3,
                                siege_first_roll_target="player_choice",
                                siege_second_roll_choice="declare_before_roll")
    assert_reference_equal(scenario, policies=policies)
    assert_matches_exact(romesim.simulate(scenario, 200_000, seed=5, policies=policies),
                         romesim.exact(scenario, policies=policies))


# ------------------------------------------------------------------ 5.5.1 sortie and S0 relief battle (KOR-A12)
CLASS_I = {"kind": "infantry", "virtus": 6, "roman_class": 1}  # hits Virtus 1 always (d6 + 2 > 1), never hit
WEAK_NR = {"kind": "infantry", "virtus": 1}  # never hits Virtus 6 (d6 > 6)
STRONG_NR = {"kind": "infantry", "virtus": 6}  # never hit by class III Virtus 1 (d6 > 6)
STALLED_ROMAN = {"kind": "infantry", "virtus": 6, "roman_class": 3}  # neither hits STRONG_NR nor is hit by it


def test_5_5_1_sortie_defeated_then_siege_rolls():
    # Leader V3 with 3 units against 3 besiegers: they sortie (the NR attacks). The battle's default bots fight it:
    # Rome's strength 24 >= 3, so ATTACK; no Spolia (3 Roman hitting faces against 4). The NR marker is a coin:
    # - ATTACK (1/2): phase 3; Rome's class I units (d6 + 2 > 1) kill the 3 front units in round 1 and lose nothing
    #   (d6 > 6): Rome wins (the King: +2 IP +1 VP, 2 tokens NR -> R). The siege goes on against garrison 2 and
    #   leader 3 without units (KOR-A12 continue_rolls): roll a needs d6 > 6 (never), roll b succeeds on the
    #   garrison (6) or the leader (4-6): 1/2; success: the King's +3 IP, 1 token NR -> R, garrison and leader
    #   lost, city taken; failure: -2 IP, 2 tokens R -> NR.
    # - DEFENCE (1/2): the NR never had cavalry, so no clash and no retreat round (5.7.4 « qu'il ne lui reste plus
    #   de cavalerie », KOR-A23 cavalry_lost): phase 3 as above. Either way Rome wins the sortie battle.
    s = romesim.scenario(SIEGE, garrison=2, leader=3, nr_units=3, besiegers=3, roman_units=[CLASS_I] * 3,
                         sortie_units=[WEAK_NR] * 3)
    r = romesim.simulate(s, 200_000, seed=3)
    for metric, want in [("p_win", 1 / 2), ("p_city_taken", 1 / 2), ("p_leader_captured", 1 / 2)]:
        assert abs(r[metric] - want) <= 5 * (want * (1 - want) / r.n) ** 0.5, metric
    for metric, want, spread in [("ip", 2.5, 2.5), ("vp", 1, 1.5), ("hostile_reactions", 2, 1),
                                 ("tokens_nr_to_r", 2.5, 1.5)]:
        assert abs(r[metric] - want) <= 5 * spread / r.n ** 0.5, metric
    assert r["nr_units_lost"] == 3 and r["p_submit"] == 0
    # KOR-A12 city_falls: a defeated sortie gives the city at once
    r = romesim.simulate(s.replace(siege_after_sortie_defeat="city_falls"), 2000, seed=3)
    assert r["p_win"] == 1 and r["hostile_reactions"] == 0
    # with any_unit_survives the retreat round that killed every unit defeats the sortie too: the city falls always
    r = romesim.simulate(s.replace(siege_after_sortie_defeat="city_falls", sortie_nr_survival="any_unit_survives"),
                         2000, seed=3)
    assert r["p_win"] == 1 and r["p_city_taken"] == 1 and r["p_leader_captured"] == 1


def test_5_5_1_sortie_survives():
    # No die can hit on either side, in phase 3 (ATTACK/ATTACK: it ends at once with equal tracks, both led, 1
    # "cavalry" each) or in the retreat round (ATTACK/DEFENCE), so there is no winner. The sortie force is not
    # defeated (KOR-A12 nr_not_defeated): -2 VP and the siege is over, with no roll, no abandonment and no reaction.
    s = romesim.scenario(SIEGE, garrison=2, leader=3, nr_units=3, besiegers=3, roman_units=[STALLED_ROMAN] * 3,
                         sortie_units=[STRONG_NR] * 3)
    r = romesim.simulate(s, 2000, seed=3)
    assert r["vp"] == -2 and r["p_win"] == 0 and r["p_abandon"] == 0 and r["hostile_reactions"] == 0
    assert r["ip"] == 0 and r["tokens_r_to_nr"] == 0


def test_s0_relief_battle():
    # The leaderless relief army (3 Falisci infantry V1) attacks 3 class I besiegers. Rome's bots ATTACK; on
    # either NR marker Rome wins phase 3 (+2 IP +1 VP for the King): an army that never had cavalry meets no
    # clash and no retreat round (5.7.4 « qu'il ne lui reste plus de cavalerie », KOR-A23 cavalry_lost). Then the
    # siege of WE-1 (garrison 2): P(win) = 4/9.
    s = romesim.scenario(SIEGE, garrison=2, relief=True, besiegers=3, roman_units=[CLASS_I] * 3,
                         relief_units=[WEAK_NR] * 3)
    r = romesim.simulate(s, 200_000, seed=4)
    assert abs(r["p_win"] - 4 / 9) <= 5 * (4 / 9 * 5 / 9 / r.n) ** 0.5
    assert r["vp"] == 1
    # a led relief army Rome cannot beat (equal tracks, no die can hit): the siege never takes place ...
    s = romesim.scenario(SIEGE, garrison=2, relief=True, besiegers=3, roman_units=[STALLED_ROMAN] * 3,
                         relief_units=[STRONG_NR] * 3, relief_leaders=[{"virtus": 3, "astutia": 0}])
    r = romesim.simulate(s, 2000, seed=4)
    assert r["p_win"] == 0 and r["p_abandon"] == 0 and r["hostile_reactions"] == 0
    # ... unless siege_after_relief_battle = always (4/9 again, no battle points: no winner)
    r = romesim.simulate(s.replace(siege_after_relief_battle="always"), 200_000, seed=4)
    assert abs(r["p_win"] - 4 / 9) <= 5 * (4 / 9 * 5 / 9 / r.n) ** 0.5


@pytest.mark.parametrize("params, words", [
    (dict(leader=3, nr_units=4, besiegers=4, roman_units=[CLASS_I] * 4), "sortie_units"),
    (dict(besiegers=2, roman_units=[CLASS_I]), "roman_units: 1 record"),
    (dict(relief=True, relief_units=[WEAK_NR]), "roman_units: 0 record"),
    (dict(roman_units=[{"kind": "infantry", "virtus": 3}] * 4), r"roman_units\[0\].roman_class"),
])
def test_sortie_and_relief_records_are_checked(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(SIEGE, **params)


def test_sortie_has_no_exact_answer():
    s = romesim.scenario(SIEGE, leader=3, nr_units=3, besiegers=3, roman_units=[CLASS_I] * 3,
                         sortie_units=[WEAK_NR] * 3)
    with pytest.raises(romesim.RomesimError, match="sortie or relief"):
        romesim.exact(s)
