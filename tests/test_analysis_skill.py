"""Skill versus luck (romesim.analysis.skill): the index and its delta-method interval worked by hand, against an
exact answer (the Kings of Rome siege with and without rerolls, DP-S05), and on the Jugule duel."""
import math
from fractions import Fraction as F

import pytest

import romesim
from romesim.analysis.skill import skill_index, skill_luck
from romesim.jugule.policies import side_policies

Z95 = 1.959963984540054


def test_index_and_interval_by_hand():
    # strong wins games 1-3, weak only game 1: a = 3/4, b = 1/4, index = (3/4 - 1/4) / (3/4) = 2/3.
    # influences psi = ((x - a) - (y - b) + (2/3)(y - b)) * 4/3 = (x - 3/4 - (y - 1/4) / 3) * 4/3:
    # 0, 4/9, 4/9, -8/9 (mean 0); sample variance (2 * 16/81 + 64/81) / 3 = 32/81; se = sqrt(32/81 / 4) = 2 sqrt 2 / 9
    index, low, high = skill_index([1, 1, 1, 0], [1, 0, 0, 0])
    assert index == pytest.approx(2 / 3)
    assert (index - low) == pytest.approx(Z95 * 2 * math.sqrt(2) / 9)
    assert high == 1.0  # 2/3 + 0.62 is capped: the index never exceeds 1
    # the same outcomes: no skill, no spread
    assert skill_index([1, 0, 1, 0], [1, 0, 1, 0]) == (0.0, 0.0, 0.0)
    # a weak side that always wins leaves nothing to improve: undefined
    assert all(math.isnan(v) for v in skill_index([1, 1], [1, 1]))


def test_a_strong_side_that_always_wins_still_has_an_interval():
    # x = 1 in all 20 games, b = 5/20: index 1, every influence 0; the interval is Wilson's for 20/20 mapped
    # through (a - b) / (1 - b): Wilson's lower bound for 20/20 is 1 / (1 + z^2 / 20)
    index, low, high = skill_index([1] * 20, [1] * 5 + [0] * 15)
    wilson_low = 1 / (1 + Z95 ** 2 / 20)
    assert index == 1.0 and high == 1.0
    assert low == pytest.approx((wilson_low - 0.25) / 0.75)
    assert low < 0.9


def test_siege_rerolls_against_the_exact_index():
    # KoR 5.5 siege with 2 Astutia points (KOR-A22): rerolling every failed roll (DP-S05 greedy) against never
    # rerolling. Exact p_win by the enumeration of romesim.exact: greedy and never give the index
    # (p_g - p_n) / (1 - p_n), which the simulated index must meet within 5 standard errors
    siege = romesim.scenario("kings_of_rome.siege", astutia=2)
    p_greedy = romesim.exact(siege, policies={"reroll": "greedy"}).exact_values["p_win"]
    p_never = romesim.exact(siege, policies={"reroll": "never"}).exact_values["p_win"]
    assert p_never == F(4, 9)  # spec WE-1: the siege of a garrison of 2 without rerolls
    truth = (p_greedy - p_never) / (1 - p_never)
    got = skill_luck(siege, {"reroll": "greedy"}, {"reroll": "never"}, n=200_000, seed=3)
    se = (got.index - got.ci_low) / Z95
    assert abs(got.index - float(truth)) <= 5 * se
    assert se < 0.005  # the pairing keeps the interval narrow enough to mean something
    assert abs(got.p_weak - float(p_never)) <= 5 * math.sqrt(float(p_never * (1 - p_never)) / 200_000)
    assert got.strong_policies == {"reroll": "greedy"} and got.weak_policies == {"reroll": "never"}
    summary = got.summary()
    assert summary.loc[0, "p_strong_low"] <= got.p_strong <= summary.loc[0, "p_strong_high"]


def test_jugule_duel_skill_and_luck():
    # Jugule side A played by the aggressive bot (D3-D16 presets) against a random side B: skill shows
    duel = romesim.scenario("jugule.duel", a="murmillo", b="thraex_late")
    strong = skill_luck(duel, side_policies("a", "aggressive"), "random", n=600, seed=4)
    assert strong.ci_low > 0 and strong.p_strong > strong.p_weak
    assert strong.weak_policies == {**side_policies("a", "random"), **side_policies("b", "random")}
    # the weak bot against itself: the same games twice, so the index is 0 exactly, with no spread
    same = skill_luck(duel, side_policies("a", "random"), "random", n=600, seed=4)
    assert (same.index, same.ci_low, same.ci_high) == (0.0, 0.0, 0.0)
    assert same.p_weak == strong.p_weak  # common random numbers: the same weak-against-weak games


@pytest.mark.parametrize("kwargs, words", [
    (dict(strong={"a_move": "default"}, metric="turns"), "metric: 'turns'"),
    (dict(strong={}), "strong: {}"),
    (dict(strong={"a_move": "default"}, weak="greedy"), "built-in 'greedy'"),
    (dict(strong={"a_move": "default"}, weak=3), "weak: 3"),
])
def test_bad_input_is_named(kwargs, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        skill_luck("jugule.duel", n=10, **kwargs)
