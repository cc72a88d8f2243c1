"""KoR 5.7.2.1 Spolia Opima duel: exact values worked by hand from the rules, Monte Carlo against exact, kernel
against reference.

Every expected fraction below is derived in its comment from the rule text (spec section 2.1.6 and WE-4), not
taken from the code's output. A leader hits when d6 + his Astutia (+1 Good Omen for Rome) exceeds the other's
Virtus (5.7.2.1, C1, KOR-A58).
"""
from fractions import Fraction as F

import pytest

import romesim
from helpers import assert_matches_exact, assert_reference_equal

SPOLIA = "kings_of_rome.spolia"


def exact(**params):
    return romesim.exact(romesim.scenario(SPOLIA, **params)).exact_values


# ------------------------------------------------------------------ WE-4 and KOR-A17 round modes
def test_we4_spolia_simultaneous_repeat():
    # Roman V3 A1 vs NR V4 A1. Roman: d6 + 1 > 4 <=> d6 >= 4 -> 1/2; NR: d6 + 1 > 3 <=> d6 >= 3 -> 2/3.
    # One round: Roman only 1/2 * 1/3 = 1/6, NR only 1/2 * 2/3 = 1/3, both 1/2 * 2/3 = 1/3, nobody 1/6.
    # Repeated until a hit: divide by 5/6 -> 1/5, 2/5, 2/5; VP = IP = 3 * 1/5 - 3 * 2/5 = -3/5.
    e = exact()  # the defaults are WE-4
    assert (e["p_win"], e["p_loss"], e["p_both_die"]) == (F(1, 5), F(2, 5), F(2, 5))
    assert e["vp"] == F(-3, 5) and e["ip"] == F(-3, 5)


def test_kor_a17_single_round():
    # one round only: 1/6, 1/3, 1/3 as above; nobody hit (1/6) ends the duel with no result (back to 5.7.3)
    e = exact(spolia_round_mode="simultaneous_single_round")
    assert (e["p_win"], e["p_loss"], e["p_both_die"]) == (F(1, 6), F(1, 3), F(1, 3))
    assert e["vp"] == 3 * F(1, 6) - 3 * F(1, 3) == F(-1, 2)


def test_kor_a17_sequential_roman_first():
    # the Roman strikes first (1/2); if he misses the NR strikes (2/3): a round ends with a Roman win 1/2, an NR
    # win 1/2 * 2/3 = 1/3, nothing 1/6 -> over 5/6: Roman 3/5, NR 2/5, never both
    e = exact(spolia_round_mode="sequential_roman_first")
    assert (e["p_win"], e["p_loss"], e["p_both_die"]) == (F(3, 5), F(2, 5), 0)
    assert e["vp"] == e["ip"] == F(9, 5) - F(6, 5)


def test_good_omen_adds_one_to_the_roman_die():
    # KOR-A58: Roman d6 + 1 + 1 > 4 <=> d6 >= 3 -> 2/3; NR 2/3. Round: Roman only 2/9, NR only 2/9, both 4/9,
    # nobody 1/9 -> over 8/9: 1/4, 1/4, 1/2
    e = exact(good_omen=True)
    assert (e["p_win"], e["p_loss"], e["p_both_die"]) == (F(1, 4), F(1, 4), F(1, 2))
    assert e["vp"] == 0


def test_astutia_is_added_and_capped_by_the_die():
    # Roman A3 vs NR V1: d6 + 3 > 1 always; NR A0 vs Roman V6: d6 > 6 never -> a sure Roman win
    e = exact(roman_astutia=3, nr_virtus=1, nr_astutia=0, roman_virtus=6)
    assert (e["p_win"], e["p_loss"], e["p_both_die"], e["ip"], e["vp"]) == (1, 0, 0, 3, 3)
    # without Astutia: Roman V2 vs NR V5 A0: Roman d6 > 5 -> 1/6, NR d6 > 2 -> 2/3; round: R only 1/18,
    # N only 10/18, both 2/18, nobody 5/18 -> over 13/18: 1/13, 10/13, 2/13
    e = exact(roman_virtus=2, roman_astutia=0, nr_virtus=5, nr_astutia=0)
    assert (e["p_win"], e["p_loss"], e["p_both_die"]) == (F(1, 13), F(10, 13), F(2, 13))


def test_kor_a18_loser_fate_changes_no_metric():
    # where the losing leader goes earns no points of the duel itself
    assert exact(spolia_loser_fate="removed_from_game") == exact()


# ------------------------------------------------------------------ endless set-ups and validation
@pytest.mark.parametrize("mode", ["simultaneous_repeat", "sequential_roman_first"])
def test_no_side_can_hit_is_rejected_as_endless(mode):
    # V6 A0 against V6 A0: d6 > 6 never, for either leader: the repeated duel would never end
    with pytest.raises(romesim.ScenarioError, match="never end"):
        romesim.scenario(SPOLIA, roman_virtus=6, roman_astutia=0, nr_virtus=6, nr_astutia=0,
                         spolia_round_mode=mode)


def test_no_side_can_hit_in_a_single_round_is_a_draw():
    # a single round always ends; nobody can hit, so nothing happens
    e = exact(roman_virtus=6, roman_astutia=0, nr_virtus=6, nr_astutia=0,
              spolia_round_mode="simultaneous_single_round")
    assert all(v == 0 for v in e.values())


def test_good_omen_alone_makes_the_duel_finite():
    # Roman d6 + 1 > 6 on a 6: only Rome can ever hit -> it wins for sure
    e = exact(roman_virtus=6, roman_astutia=0, nr_virtus=6, nr_astutia=0, good_omen=True)
    assert e["p_win"] == 1


@pytest.mark.parametrize("params, words", [
    (dict(roman_virtus=7), "roman_virtus: 7"),
    (dict(roman_virtus=0), "roman_virtus: 0"),
    (dict(nr_virtus=-1), "nr_virtus: -1"),
    (dict(roman_astutia=4), "roman_astutia: 4"),
    (dict(nr_astutia="1"), "nr_astutia: '1'"),
    (dict(good_omen=1), "good_omen: 1"),
    (dict(spolia_round_mode="sequential"), "spolia_round_mode: 'sequential'"),
    (dict(spolia_loser_fate="killed"), "spolia_loser_fate: 'killed'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(SPOLIA, **params)


@pytest.mark.parametrize("name", ["spolia_stack_5711", "spolia_champion", "naval_mutual_wipe"])
def test_options_of_the_battle_are_not_parameters_of_the_duel(name):
    # KOR-A18 stacking and the KOR-A17 champion belong to the battle (5.7), not to the duel on its own
    with pytest.raises(romesim.ScenarioError, match=f"unknown parameter '{name}'"):
        romesim.scenario(SPOLIA, **{name: "x"})


# ------------------------------------------------------------------ Monte Carlo vs exact, kernel vs reference
SETTINGS = [
    dict(),
    dict(spolia_round_mode="simultaneous_single_round", good_omen=True),
    dict(spolia_round_mode="sequential_roman_first", roman_virtus=2, roman_astutia=0, nr_virtus=5, nr_astutia=2),
    dict(roman_virtus=6, roman_astutia=0, nr_virtus=6, nr_astutia=1),  # only the NR can hit (on a 6)
    dict(roman_virtus=5, roman_astutia=3, nr_virtus=6, nr_astutia=3, good_omen=True,
         spolia_loser_fate="removed_from_game"),
]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(SPOLIA, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=2024), romesim.exact(scenario))


@pytest.mark.parametrize("params", SETTINGS)
def test_kernel_equals_reference_game_by_game(params):
    assert_reference_equal(romesim.scenario(SPOLIA, **params))
