"""KoR 6.4 ambush (the battle case, 6.4 c; KOR-A44): values worked by hand from the rule text."""
import math
from fractions import Fraction as F

import pytest

import romesim

AMBUSH = "kings_of_rome.ambush"
N = 200_000


def inf(virtus, roman_class=3):
    return {"kind": "infantry", "virtus": virtus, "roman_class": roman_class}


def nr_inf(virtus):
    return {"kind": "infantry", "virtus": virtus}


# Rome led by a Magister of Astutia 0 (so he stays in the reserve), the NR by a leader of Astutia 0: both sides
# count one "cavalry" (P6 equal) and neither has P1, so the tracks start equal.
MAGISTER = {"rank": "magister_populi", "virtus": 3, "astutia": 0}
NR_LEADER = {"virtus": 3, "astutia": 0}


def run(n=N, seed=11, **params):
    params = {"roman_leaders": [MAGISTER], "nr_leaders": [NR_LEADER], **params}
    return romesim.simulate(romesim.scenario(AMBUSH, **params), n, seed)


def near(result, metric, want, sigma=5.0):
    want = float(want)
    se = math.sqrt(want * (1 - want) / result.n)
    return abs(result[metric] - want) <= sigma * se


def within(result, metric, want, sigma=5.0):
    """A mean within ``sigma`` standard errors (from the 95 % interval) of ``want``."""
    low, high = result.interval(metric)
    return abs(result[metric] - float(want)) <= sigma * (high - low) / 2 / 1.959964


def test_6_4_c_romans_do_not_roll_in_round_one():
    # 3 v 3 infantry of Virtus 3, every die hits with 1/2. Round 1: only the NR rolls; any hit (7/8) ends phase 3
    # with the NR ahead. Otherwise (1/8) the symmetric battle of the battle tests follows: Rome wins 22/63, ties
    # 19/63. So P(win) = (1/8)(22/63), P(no winner) = (1/8)(19/63), P(loss) = 7/8 + (1/8)(22/63).
    r = run(roman_units=[inf(3)] * 3, nr_units=[nr_inf(3)] * 3)
    assert near(r, "p_win", F(1, 8) * F(22, 63))
    assert near(r, "p_no_winner", F(1, 8) * F(19, 63))
    assert near(r, "p_loss", F(7, 8) + F(1, 8) * F(22, 63))
    # no tactics (KOR-A44 phase3_only), no phase-3 cost, no hostile reaction (6.4 step 5)
    assert r["p_end_phase3"] == 1 and r["hostile_reactions"] == 0
    # KOR-A44 stack: a Roman victory is worth +2 VP on top of 5.7.11 (Magister: +1 IP +1 VP; loss -1 VP)
    win, loss = F(1, 8) * F(22, 63), F(7, 8) + F(1, 8) * F(22, 63)
    assert within(r, "vp", 3 * win - loss)
    assert within(r, "ip", win)


def test_6_4_c_nr_faces_the_weakest_roman_with_its_strongest():
    # Roman front V1, V3, V5 (class III); NR front V6, V2, V2. The NR's strongest (V6) faces Rome's weakest (V1),
    # its V2s face V3 and V5. Round 1: NR dice only: V6 hits V1 (d6 > 1) 5/6, V2s hit V3 (1/2) and V5 (1/6).
    # P(no hit in round 1) = (1/6)(1/2)(5/6) = 5/72. Rome cannot win a battle decided in round 1.
    r = run(roman_units=[inf(1), inf(3), inf(5)], nr_units=[nr_inf(6), nr_inf(2), nr_inf(2)])
    assert r["p_win"] <= 5 / 72
    assert r["p_loss"] >= 1 - 5 / 72 - 5 * math.sqrt(5 / 72 / r.n)
    # the Roman V1 falls first almost always: each Roman loss is 1 point and the first round's expected losses are
    # 5/6 + 1/2 + 1/6 = 3/2
    assert r["roman_units_lost"] > 1.4


def test_kor_a44_bonus_only_and_full():
    common = dict(roman_units=[inf(6, 1)] * 3, nr_units=[nr_inf(1)] * 3)
    # Rome's class I units kill everything in round 2 (they do not roll in round 1; the NR never hits Virtus 6):
    # +2 VP alone under bonus_only, +2 VP + (Magister +1 IP +1 VP) under stack
    r = run(n=2000, ambush_scoring="bonus_only", **common)
    assert r["p_win"] == 1 and r["vp"] == 2 and r["ip"] == 0 and r["phase3_rounds"] == 2
    r = run(n=2000, **common)
    assert r["vp"] == 3 and r["ip"] == 1
    # full: phases 1-2 happen as in any battle (the ambush is no Roman action: phase 3 costs nothing). Without
    # cavalry there is no clash: « Si ce n'est pas le cas, passez à la troisième phase » (5.7.4), so Rome's
    # ATTACK leads to phase 3 whatever the NR marker; a retreat round only under KOR-A23 no_cavalry
    r = run(n=2000, ambush_battle_phases="full", **common)
    assert r["p_end_phase3"] == 1
    r = run(n=2000, ambush_battle_phases="full", retreat_round_trigger="no_cavalry", **common)
    assert r["p_end_phase3"] + r["p_end_retreat_round"] + r["p_end_stopped"] + r["p_end_defence_defence"] == 1
    assert r["p_end_retreat_round"] > 0


def test_ambush_needs_an_nr_leader():
    with pytest.raises(romesim.ScenarioError, match="nr_leaders"):
        romesim.scenario(AMBUSH, nr_leaders=[])
    with pytest.raises(romesim.ScenarioError, match="unknown parameter 'roman_action'"):
        romesim.scenario(AMBUSH, roman_action=True)


def test_6_4_no_spolia_challenge_in_an_ambush():
    # The Spolia challenge belongs to the Roman attacker of 5.7.2.1; an ambush has none, even under `full`.
    r = run(n=2000, ambush_battle_phases="full", roman_leaders=[{"rank": "king", "virtus": 3, "astutia": 2}],
            roman_units=[inf(3)] * 3, nr_units=[nr_inf(3)] * 3)
    assert r["p_end_spolia"] == 0


def test_user_functions_by_state_names_play_the_builtins():
    """KoR 6.4 c: the battle's user bots (test_kor_battle), each reading its state by the names of its
    DecisionPoint, play the ambush game by game as the built-ins they re-implement."""
    from test_kor_battle import assert_user_bots_play_the_builtins
    scenario = romesim.scenario(AMBUSH, roman_leaders=[{"rank": "king", "virtus": 3, "astutia": 2}],
                                nr_leaders=[NR_LEADER], roman_units=[inf(3, 1), inf(2), inf(2, 2)],
                                nr_units=[nr_inf(3), nr_inf(2), nr_inf(2), nr_inf(1)])
    r = assert_user_bots_play_the_builtins(scenario)
    assert r.outcomes["phase3_rounds"].sum() > 0
