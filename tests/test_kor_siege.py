"""KoR 5.5 siege: exact values worked by hand from the rules, Monte Carlo against exact, kernel against reference.

Every expected fraction below is derived in its comment from the rule text (spec section 2.2 and WE-1), not
taken from the code's output.
"""
from fractions import Fraction as F

import numba
import pytest

import romesim
from helpers import assert_matches_exact, assert_reference_equal
from romesim.kings_of_rome.policies import FIRST_TARGET, LOSSES, REROLL

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
    assert e["hostile_reactions"] == F(5, 3)  # 1 + 2/3: one per die rolled (KOR-A11), no reroll here
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


def test_kor_a11_one_reaction_per_die_rolled_rerolls_included():
    """KoR 5.5.1: « Réactions hostiles : 1 action hostile pour chaque jet de Dé effectué pendant le siège » (hostile
    reactions: one hostile action for each die roll made during the siege). A reroll is a die rolled: the default
    KOR-A11 all_dice_including_rerolls counts it; siege_rolls_only counts rolls a and b alone."""
    # Astutia 1: a succeeds at once (1/3, 1 die); a fails, reroll succeeds (2/9, 2 dice);
    # both fail, roll b (4/9, 3 dice: 2 siege rolls + 1 reroll)
    assert exact(garrison=2, astutia=1)["hostile_reactions"] == F(1, 3) + 2 * F(2, 9) + 3 * F(4, 9)
    assert exact(garrison=2, astutia=1, siege_reaction_count="siege_rolls_only")[
        "hostile_reactions"] == F(1, 3) + F(2, 9) + 2 * F(4, 9)
    # Astutia 3, one reroll per roll: 1 die (1/3), 2 dice (2/9), then roll b after two failed a dice (4/9):
    # 3 dice (b at once, 1/6) or 4 (5/6): 1/3 + 4/9 + 4/9 (3/6 + 20/6) = 67/27
    assert exact(garrison=2, astutia=3)["hostile_reactions"] == F(67, 27)
    assert exact(garrison=2, astutia=3, siege_reaction_count="siege_rolls_only")["hostile_reactions"] == (
        F(1, 3) + F(2, 9) + 2 * F(4, 9))


# ------------------------------------------------------------------ KoR 5.7.9 / C3: one reroll per roll
def test_5_7_9_astutia_rerolls_a_roll_at_most_once():
    """KoR 5.7.9: « Les chefs peuvent affecter de 1 à 3 attaques, en fonction de leur valeur d'Astutia, en
    permettant à l'une de leurs unités de relancer les Dés » (leaders may affect 1 to 3 attacks, according to their
    Astutia, by letting one of their units reroll the dice): one point affects one roll, so a failed siege roll is
    rerolled once (KOR-A22 astutia_reroll = once); chained rerolls it again while points last."""
    # King, garrison 2, Astutia 3. once: a = 1 - (2/3)^2 = 5/9, b (d6 >= 6) with its reroll = 1 - (5/6)^2 =
    # 11/36: 5/9 + 4/9 * 11/36 = 56/81 (0.691)
    e = exact(garrison=2, astutia=3)
    assert e["p_win"] == F(56, 81)
    assert e["p_submit"] == F(5, 9)
    # IP: a +2, b +3 (the King), abandon -2: 2 * 5/9 + 3 * 11/81 - 2 * 4/9 * 25/36
    assert e["ip"] == 2 * F(5, 9) + 3 * F(11, 81) - 2 * F(4, 9) * F(25, 36)
    # chained: all three points on roll a, 1 - (2/3)^4 = 65/81, then b without one: 65/81 + 16/81 * 1/6
    c = exact(garrison=2, astutia=3, astutia_reroll="chained")
    assert c["p_win"] == F(203, 243)
    assert c["p_submit"] == F(65, 81)
    # garrison 1 and a besieged leader of Virtus 3: roll a needs d6 > 6 (no reroll can help), roll b wins on
    # d6 >= 4 (garrison) or d6 > 3 (leader): 1/2. once: 1 - (1/2)^2 = 3/4; chained: 1 - (1/2)^4 = 15/16
    assert exact(garrison=1, leader=3, astutia=3)["p_win"] == F(3, 4)
    assert exact(garrison=1, leader=3, astutia=3, astutia_reroll="chained")["p_win"] == F(15, 16)
    # one point: the two readings agree (WE-1's 17/27)
    assert exact(garrison=2, astutia=1, astutia_reroll="chained")["p_win"] == F(17, 27)


def test_greedy_keeps_the_point_for_the_better_roll():
    """KoR 5.7.9 (see above): with one reroll per roll a point spent on roll a may be the one roll b lacks. A
    Magister against garrison 1 and a leader of Virtus 2: roll a (the leader, d6 > 4) wins on 2 faces, roll b
    (d6 >= 4 or d6 > 2) on 4."""
    base = dict(garrison=1, leader=2, commander="magister")
    # Astutia 1: greedy keeps the point for roll b: 1/3 + 2/3 (1 - (1/3)^2) = 25/27; spending it on roll a
    # (reserve keeping 0) gives 1 - (2/3)^2 = 5/9, then 5/9 + 4/9 * 2/3 = 23/27
    assert exact(**base, astutia=1)["p_win"] == F(25, 27)
    assert exact_with({"reroll": ("reserve", [0])}, **base, astutia=1)["p_win"] == F(23, 27)
    # Astutia 2: one point for each roll: 5/9 + 4/9 (1 - (1/3)^2) = 77/81
    assert exact(**base, astutia=2)["p_win"] == F(77, 81)
    # chained, Astutia 3: every point for roll b: 1/3 + 2/3 (1 - (1/3)^4) = 241/243; on roll a first:
    # 1 - (2/3)^4 = 65/81, then 65/81 + 16/81 * 2/3 = 227/243
    assert exact(**base, astutia=3, astutia_reroll="chained")["p_win"] == F(241, 243)
    assert exact_with({"reroll": ("reserve", [0])}, **base, astutia=3, astutia_reroll="chained")[
        "p_win"] == F(227, 243)


@pytest.mark.parametrize("reroll", ["once", "chained"])
@pytest.mark.parametrize("params", [
    dict(garrison=2), dict(garrison=1), dict(garrison=1, leader=2), dict(garrison=2, leader=3),
    dict(garrison=3, leader=2), dict(garrison=0, leader=4), dict(garrison=2, good_omen=True),
    dict(garrison=1, leader=4, siege_second_roll_choice="declare_before_roll"),
    dict(garrison=2, leader=2, siege_second_roll_test="eq_double"),
])
def test_greedy_reaches_the_exact_optimum(params, reroll):
    """KoR 5.7.9 and DP-S05: on a failed roll a the only choice is how many points to spend on it before roll b
    (a stopping rule), i.e. one of the `reserve` policies keeping 0..Astutia points; roll b spends what it may.
    The exact p_win of `greedy` is the best of them."""
    for astutia in (1, 2, 3):
        s = dict(params, astutia=astutia, commander="magister", astutia_reroll=reroll)
        best = max(exact_with({"reroll": ("reserve", [keep])}, **s)["p_win"] for keep in range(astutia + 1))
        assert exact(**s)["p_win"] == best, astutia


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


# ------------------------------------------------------------------ 9.2.7.1 and KOR-A37: the Tribune
def test_9_2_7_1_tribune_gains_or_loses_1_ip_after_the_siege():
    """KoR 9.2.7.1: « Après la bataille ou le siège, un Tribun victorieux gagne 1 PI pour le Roi et retourne dans le
    récipient R. Un Tribun vaincu perd 1 PI et est replacé dans le récipient NR » (after the battle or the siege, a
    victorious Tribune gains 1 IP for the King and goes back to the R container; a defeated Tribune loses 1 IP and
    goes to the NR container). On top of 5.5 c's +1 VP / -1 VP and the ignominy trial (5.7.11, KOR-A37)."""
    # WE-1 odds: roll a 1/3 (+2 IP), roll b 1/9, failure 5/9 (-1 VP); the Tribune +1 IP on either success (4/9);
    # after a failure the trial 2d6 - 1 > 8 acquits with 6/36 (conviction -3 IP), then the Tribune's -1 IP
    e = exact(garrison=2, commander="tribune")
    assert e["ip"] == 2 * F(1, 3) + F(4, 9) + F(5, 9) * (-3 * F(5, 6) - 1)
    assert e["ip"] == F(-5, 6)
    assert e["vp"] == F(1, 9) - F(5, 9)
    # tribune_defeat_stack = trial_only: the defeat costs the trial alone; the victory still pays +1 IP
    assert exact(garrison=2, commander="tribune", tribune_defeat_stack="trial_only")["ip"] == (
        2 * F(1, 3) + F(4, 9) + F(5, 9) * (-3 * F(5, 6)))
    # a general (not a Tribune) gets neither
    assert exact(garrison=2, commander="general")["ip"] == 2 * F(1, 3)


def test_kor_a37_tribune_trial_after_failed_siege():
    # failure 5/9: -1 VP; trial 2d6 - 1 > 8 acquits with 6/36, conviction -3 IP; the Tribune also -1 IP (stack),
    # and +1 IP after a success (4/9, 9.2.7.1)
    won = F(4, 9)
    e = exact(garrison=2, commander="tribune")
    assert e["ip"] == 2 * F(1, 3) + won + F(5, 9) * (-3 * F(5, 6) - 1)
    assert e["vp"] == F(1, 9) - F(5, 9)
    # ignominy_equal_8 acquitted: 2d6 >= 9 acquits (10/36)
    assert exact(garrison=2, commander="tribune", ignominy_equal_8="acquitted")["ip"] == (
        2 * F(1, 3) + won + F(5, 9) * (-3 * F(26, 36) - 1))
    assert exact(garrison=2, commander="tribune", tribune_defeat_stack="trial_only")["ip"] == (
        2 * F(1, 3) + won + F(5, 9) * (-3 * F(5, 6)))
    assert exact(garrison=2, commander="tribune", ignominy_ip_loss="always")["ip"] == (
        2 * F(1, 3) + won + F(5, 9) * -4)
    assert exact(garrison=2, commander="tribune", ignominy_trial="optional")["ip"] == 2 * F(1, 3) + won - F(5, 9)
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
    (dict(astutia_reroll="always"), "astutia_reroll: 'always'"),
    (dict(siege_reaction_count="all"), "siege_reaction_count: 'all'"),
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
    # KOR-A22 astutia_reroll both ways, KOR-A11 both ways, a Tribune's 9.2.7.1 IP
    dict(garrison=2, astutia=3),
    dict(garrison=2, astutia=3, astutia_reroll="chained", siege_reaction_count="siege_rolls_only"),
    dict(garrison=1, leader=2, commander="tribune", astutia=3, astutia_reroll="chained"),
    dict(garrison=1, leader=2, commander="magister", astutia=1, siege_second_roll_choice="declare_before_roll"),
]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(SIEGE, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=2024), romesim.exact(scenario))


@pytest.mark.parametrize("params", SETTINGS)
def test_kernel_equals_reference_game_by_game(params):
    assert_reference_equal(romesim.scenario(SIEGE, **params))


@pytest.mark.parametrize("reroll", ["once", "chained"])
@pytest.mark.parametrize("policies", [
    {"reroll": "never"}, {"reroll": ("reserve", [2])}, {"losses": "leader_first"}, {"losses": "units_first"},
    {"first_target": "garrison"}, {"second_criterion": "leader"},
])
def test_kernel_equals_reference_under_each_builtin_policy(policies, reroll):
    scenario = romesim.scenario(SIEGE, garrison=1, leader=2, nr_units=2, besiegers=4, astutia=3,
                                siege_first_roll_target="player_choice",
                                siege_second_roll_choice="declare_before_roll", astutia_reroll=reroll)
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


def test_9_2_7_1_tribune_defeated_when_the_sortie_survives():
    """KoR 9.2.7.1: « Les Tribuns restent en fonction jusqu'au premier siège ou à la première bataille [...] Après la
    bataille ou le siège, un Tribun victorieux gagne 1 PI [...] Un Tribun vaincu perd 1 PI » (Tribunes stay in
    office until their first siege or battle; after it a victorious Tribune gains 1 IP, a defeated one loses 1 IP).
    The sortie battle is part of the siege (5.5.1), so the siege as a whole decides, once: here the sortie force
    survives and the siege is over without the city."""
    # the stalled battle of test_5_5_1_sortie_survives under a Tribune: no die can hit, no winner, no trial;
    # -2 VP for the surviving sortie (5.5.1), -1 IP for the Tribune whose siege failed
    s = romesim.scenario(SIEGE, garrison=2, leader=3, nr_units=3, besiegers=3, commander="tribune",
                         roman_units=[STALLED_ROMAN] * 3, sortie_units=[STRONG_NR] * 3)
    r = romesim.simulate(s, 2000, seed=3)
    assert r["ip"] == -1 and r["vp"] == -2 and r["p_win"] == 0
    assert romesim.simulate(s.replace(tribune_defeat_stack="trial_only"), 2000, seed=3)["ip"] == 0


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


# ---------------------------------------------------------------------------- user functions read by state names
RR_ROLL, RR_POINTS, RR_CAN, RR_FACES, RR_FACES_B, RR_CHAINED = (REROLL.state.index(name) for name in (
    "roll", "points_left", "can_succeed", "faces", "faces_b", "chained"))
L_GARRISON, L_LEADER, L_UNITS, L_REQUIRED = (LOSSES.state.index(name) for name in (
    "garrison", "leader", "units", "leader_required"))
FT_GARRISON, FT_LEADER = (FIRST_TARGET.state.index(name) for name in ("garrison", "leader"))


@numba.njit
def user_greedy(state, params, stream):
    """DP-S05 ``greedy`` by the names of REROLL.state."""
    if state[RR_CAN] == 0:
        return 0
    if state[RR_ROLL] == 1:
        return 1
    return 1 if state[RR_FACES] >= state[RR_FACES_B] or (not state[RR_CHAINED] and state[RR_POINTS] >= 2) else 0


@numba.njit
def user_garrison_first(state, params, stream):
    """DP-S04 ``garrison_first`` by the names of LOSSES.state."""
    if state[L_REQUIRED]:
        return 2
    if state[L_GARRISON]:
        return 0
    return 1 if state[L_UNITS] else 2


@numba.njit
def user_best_target(state, params, stream):
    """DP-S02 ``best`` by the names of FIRST_TARGET.state."""
    return 1 if state[FT_LEADER] < state[FT_GARRISON] else 0


@pytest.mark.parametrize("params", [
    dict(garrison=2, leader=3, nr_units=2, astutia=2, commander="king", siege_first_roll_target="player_choice"),
    dict(garrison=1, leader=2, nr_units=3, besiegers=3, astutia=1, roman_units=[CLASS_I] * 3,
         sortie_units=[WEAK_NR] * 3, astutia_reroll="chained"),
], ids=["rolls", "sortie"])
def test_user_functions_by_state_names_play_the_builtins(params):
    """KoR 5.5 a-c (DP-S02, DP-S04, DP-S05), and a sortie battle (5.5.1) fought by the battle's built-ins while the
    siege's points are user functions: each reads its state by the names of its DecisionPoint and plays game by
    game as the built-in it re-implements."""
    s = romesim.scenario(SIEGE, **params)
    bots = {"first_target": user_best_target, "reroll": user_greedy, "losses": user_garrison_first}
    user = romesim.simulate(s, 2000, seed=5, keep=True, policies=bots)
    builtin = romesim.simulate(s, 2000, seed=5, keep=True)
    assert user.outcomes.equals(builtin.outcomes)
    assert user["p_win"] > 0
