"""Semper Victor battle under PROPOSAL P8 (spec 3.2 — not the published rules): exact values worked by hand,
each option's effect, Monte Carlo against exact, kernel against reference, the D14 policies, and user battle
hooks replacing P8.

Every expected fraction below is derived in its comment from P8's text, not taken from the code's output. A die is
a d10 reading 0-9 (spec 0.2) and hits when it is below clamp(QU + TB + commander's TB, 1, 9), so a threshold t
hits with t/10. A unit given as {} has the full face SP 4, QU 4, TB 0 and the weakened face SP 2, QU 2, TB 0.
One hit weakens a full unit, a second eliminates it. The loser inflicted fewer hits, else has less SP left, else
is the attacker; a side with no unit left loses unless both have none.
"""
from fractions import Fraction as F

import numpy as np
import pytest
from numba import njit

import romesim
from helpers import assert_matches_exact, assert_reference_equal
from romesim.core import rng
from romesim.semper_victor import battle as sv_battle
from romesim.semper_victor import policies as sv_policies
from romesim.semper_victor.battle import (
    C_ATTACKER,
    C_DEATH_FROM,
    O_WINNER,
    U_ALIVE,
    U_SIDE,
    battle_tables,
    p8_battle,
)

BATTLE = "semper_victor.battle"
ONE_V_ONE = dict(attacker_units=[{}], defender_units=[{}], attacker_leaders=[], defender_leaders=[])


def exact(policies=None, **params):
    return romesim.exact(romesim.scenario(BATTLE, **params), policies=policies).exact_values


# ------------------------------------------------------------------ P8.3 / P8.5 by hand
def test_one_against_one_the_defender_holds_ties():
    # both units hit with 4/10. Both hit (4/25): both weakened, hits 1-1, SP 2-2: the attacker loses (P8.5).
    # Attacker only (6/25): win. Defender only (6/25): loss. Nobody (9/25): hits 0-0, SP 4-4: the attacker loses.
    e = exact(**ONE_V_ONE)
    assert e["p_win"] == F(6, 25) and e["p_loss"] == F(19, 25)
    assert e["attacker_hits"] == e["defender_hits"] == F(2, 5)
    # a hit weakens (4 SP -> 2 SP); nobody is eliminated; the loser's unit always retreats (one free zone)
    assert e["attacker_sp_lost"] == e["defender_sp_lost"] == 2 * F(2, 5)
    assert e["attacker_units_eliminated"] == e["defender_units_eliminated"] == 0
    assert e["attacker_units_retreated"] == F(19, 25) and e["defender_units_retreated"] == F(6, 25)
    assert e["attacker_leaders_killed"] == e["defender_leaders_killed"] == e["p_augustus_defeated"] == 0


def test_remaining_sp_breaks_equal_hits():
    # attacker SP 6 (weakened 3) against SP 4 (weakened 2), both 4/10: with equal hits the side with less SP left
    # loses, now the defender: both hit (SP 3 v 2) 4/25 and nobody (6 v 4) 9/25 are wins, plus attacker only 6/25
    e = exact(**{**ONE_V_ONE, "attacker_units": [dict(sp=6, weak_sp=3)]})
    assert e["p_win"] == F(4, 25) + F(9, 25) + F(6, 25)


def test_threshold_is_clamped_to_1_and_9():
    # QU 9 + TB 5 is clamped to 9 (9/10), QU 0 to 1 (1/10): the attacker wins when only he hits, 9/10 * 9/10;
    # both hit (9/100): SP 2-2, the attacker loses
    e = exact(**{**ONE_V_ONE, "attacker_units": [dict(qu=9, tb=5)], "defender_units": [dict(qu=0, weak_qu=0)]})
    assert e["p_win"] == F(81, 100)


def test_three_dice_surplus_hits_and_wiped_out_sides():
    # p8_dice_per_unit = 3, attacker 9/10 per die, defender 1/10: hits are Binomial(3, 9/10) and (3, 1/10):
    # H_A = 0..3 with 1, 27, 243, 729 /1000; H_D = 0..3 with 729, 243, 27, 1 /1000. Two hits eliminate a unit;
    # the third is lost. The defender is eliminated with P(H_A >= 2) = 972/1000, the attacker with 28/1000.
    # The attacker wins: defender wiped and not he (972/1000)^2; both wiped and more hits, (3, 2): 729*27/10^6;
    # both standing and more hits, (1, 0): 27*729/10^6. Total 984150/10^6 = 19683/20000
    e = exact(**{**ONE_V_ONE, "attacker_units": [dict(qu=9)], "defender_units": [dict(qu=0, weak_qu=0)]},
              p8_dice_per_unit=3)
    assert e["p_win"] == F(19683, 20000)
    assert e["defender_units_eliminated"] == F(972, 1000)
    assert e["attacker_units_eliminated"] == F(28, 1000)
    # hits count every die that hit, surplus included
    assert e["attacker_hits"] == F(27, 10) and e["defender_hits"] == F(3, 10)


# ------------------------------------------------------------------ P8.2 commander, p8_threshold, p8_commander
LED = dict(attacker_units=[dict(tb=1)], defender_units=[{}], attacker_leaders=[dict(tb=2)], defender_leaders=[])


@pytest.mark.parametrize("mode, t", [("qu_tb_tbc", 7), ("qu_tbc", 6), ("qu", 4)])
def test_p8_threshold(mode, t):
    # attacker QU 4, unit TB 1, commander TB 2; defender 4/10. The attacker wins only when he alone hits:
    # t/10 * 3/5 with t = 4 + 1 + 2, 4 + 2 or 4
    assert exact(p8_threshold=mode, **LED)["p_win"] == F(t, 10) * F(3, 5)


def test_commander_is_the_best_tb_and_choice_is_a_decision_point():
    leaders = [dict(tb=0, cc=9, sr=6), dict(tb=2, cc=0, sr=0)]
    # P8.2: the highest TB commands whatever CC and SR say: 7/10 * 3/5 = 21/50
    assert exact(**{**LED, "attacker_leaders": leaders})["p_win"] == F(21, 50)
    assert exact(**{**LED, "attacker_leaders": leaders}, p8_commander="choice")["p_win"] == F(21, 50)
    # random commander: TB 0 or 2 with 1/2 each: (1/2 * 5/10 + 1/2 * 7/10) * 3/5 = 9/25
    assert exact({"commander": "random"}, **{**LED, "attacker_leaders": leaders},
                 p8_commander="choice")["p_win"] == F(9, 25)
    # without the choice option the commander policy is never asked
    assert exact({"commander": "random"}, **{**LED, "attacker_leaders": leaders})["p_win"] == F(21, 50)


@pytest.mark.parametrize("face, killed", [(9, F(1, 10)), (8, F(2, 10)), (10, 0), (0, 1)])
def test_p8_loser_leader_death(face, killed):
    # the attacker loses with 1 - 21/50 = 29/50; his leader then dies on d10 >= face: (10 - face)/10
    e = exact(p8_loser_leader_death=face, **LED)
    assert e["attacker_leaders_killed"] == F(29, 50) * killed
    assert e["defender_leaders_killed"] == 0  # no leader


# ------------------------------------------------------------------ P8.6 retreat (D14), P8.8 civil war
def test_retreat_zones_and_barred_units():
    # ONE_V_ONE: the attacker loses with 19/25 and his unit is alive then. Barred from zone 0 of two zones:
    base = {**ONE_V_ONE, "attacker_units": [dict(barred=[0])], "attacker_retreat_zones": 2}
    # safest takes zone 1: nothing lost
    e = exact(**base)
    assert e["attacker_units_eliminated"] == 0 and e["attacker_units_retreated"] == F(19, 25)
    # first: zone 0, the unit is eliminated whenever the attacker loses, with all its SP: 4 * 19/25
    e = exact({"retreat": "first"}, **base)
    assert e["attacker_units_eliminated"] == F(19, 25) and e["attacker_units_retreated"] == 0
    assert e["attacker_sp_lost"] == 4 * F(19, 25)
    # random: half of it
    assert exact({"retreat": "random"}, **base)["attacker_units_eliminated"] == F(19, 50)
    # no zone at all: every survivor of the loser is lost, its leaders killed
    e = exact(**{**ONE_V_ONE, "attacker_retreat_zones": 0, "defender_retreat_zones": 0,
                 "attacker_leaders": [dict(tb=0)], "defender_leaders": [dict(tb=0)]})
    assert e["attacker_units_eliminated"] == F(19, 25) and e["defender_units_eliminated"] == F(6, 25)
    assert e["attacker_leaders_killed"] == F(19, 25) and e["defender_leaders_killed"] == F(6, 25)
    assert e["attacker_units_retreated"] == e["defender_units_retreated"] == 0


def test_safest_retreat_saves_leaders_before_sp():
    # zone 0 would kill the (TB 0) leader, zone 1 the unit: safest keeps the leader, so the unit is lost whenever
    # the attacker loses (19/25) and the leader then rolls his d10 (dies on a 9): 19/25 * 1/10
    e = exact(**{**ONE_V_ONE, "attacker_units": [dict(barred=[1])], "attacker_retreat_zones": 2,
                 "attacker_leaders": [dict(tb=0, barred=[0])]})
    assert e["attacker_units_eliminated"] == F(19, 25)
    assert e["attacker_leaders_killed"] == F(19, 250)


def test_p8_pursuit():
    # ONE_V_ONE with pursuit: the winner's units fire once more at the retreated units.
    # Attacker loses after both hit (4/25): he retreats weakened, the weakened defender (QU 2: 2/10) eliminates
    # him with 1/5. After nobody hit (9/25): full, the full defender (4/10) weakens him (2 SP) with 2/5. After the
    # defender alone hit (6/25): weakened, eliminated with 2/5. The attacker wins (6/25): the weakened defender
    # flees and the full attacker eliminates it with 2/5.
    e = exact(p8_pursuit=True, **ONE_V_ONE)
    assert e["p_win"] == F(6, 25)  # the result is settled before the pursuit
    assert e["attacker_units_eliminated"] == F(4, 25) * F(1, 5) + F(6, 25) * F(2, 5)
    assert e["defender_units_eliminated"] == F(6, 25) * F(2, 5)
    # SP: 4/5 from the battle, then 2 SP per pursuit step: 2 * (4/125 + 18/125 + 12/125)
    assert e["attacker_sp_lost"] == F(4, 5) + 2 * (F(4, 125) + F(18, 125) + F(12, 125))
    assert exact(**ONE_V_ONE)["attacker_units_eliminated"] == 0


@pytest.mark.parametrize("kills", [True, False])
def test_p8_8_civil_war(kills):
    # a Usurper (TB 0) attacks an Augustus (TB 0): units as ONE_V_ONE, the attacker loses with 19/25.
    # P8.8: a beaten Usurper dies, a beaten Augustus dies when the winner is a usurpation force.
    # Without the option each only rolls his d10 (1/10).
    e = exact(p8_civil_war_defeat_kills=kills,
              **{**ONE_V_ONE, "attacker_leaders": [dict(tb=0, role="usurper")],
                 "defender_leaders": [dict(tb=0, role="augustus")]})
    chance = 1 if kills else F(1, 10)
    assert e["attacker_leaders_killed"] == F(19, 25) * chance
    assert e["defender_leaders_killed"] == F(6, 25) * chance
    assert e["p_augustus_defeated"] == F(6, 25)


def test_note_2_usurpation_forces_fight_alone_but_a_dux_may_join_them():
    """Seed 3.6.3 Note 2: « The Usurpers, the Leaders with a Civil War marker and their units cannot stack in the
    same zone as Roman Leaders of same side, nor add their forces with them in the same battle » (so no plain
    general, Caesar or Augustus of the Usurper's player beside him); seed 3.3: « A Dux can only change sides if he
    joins a Usurper » (so a Dux may fight in a usurpation force)."""
    for loyal in ("general", "caesar", "augustus"):
        for rebel in ("usurper", "civil_war"):
            with pytest.raises(romesim.ScenarioError, match="seed 3.6.3 Note 2"):
                romesim.scenario(BATTLE, attacker_leaders=[dict(role=rebel), dict(role=loyal)])
    # a Dux beside a Usurper: accepted, and P8.8 treats the force as a usurpation force (the beaten Augustus dies)
    e = exact(**{**ONE_V_ONE, "attacker_leaders": [dict(tb=0, role="usurper"), dict(tb=0, role="dux")],
                 "defender_leaders": [dict(tb=0, role="augustus")]})
    assert e["defender_leaders_killed"] == F(6, 25)
    # the Dux of a loyal side may still fight beside his Augustus
    assert romesim.scenario(BATTLE, defender_leaders=[dict(role="augustus"), dict(role="dux")])


def test_augustus_beaten_by_an_ordinary_general_only_rolls():
    e = exact(**{**ONE_V_ONE, "attacker_leaders": [dict(tb=0)], "defender_leaders": [dict(tb=0, role="augustus")]})
    assert e["defender_leaders_killed"] == F(6, 25) * F(1, 10)
    assert e["p_augustus_defeated"] == F(6, 25)


# ------------------------------------------------------------------ P8.4 loss allocation (D14)
# one attacker unit with QU 5 and two dice: 0, 1, 2 hits with 1/4, 1/2, 1/4. The defender's A (SP 6, weakened 5)
# loses 1 SP when weakened, B (SP 3, weakened 1) loses 2.
ALLOCATION = dict(attacker_units=[dict(qu=5)], defender_units=[dict(sp=6, weak_sp=5), dict(sp=3, weak_sp=1)],
                  attacker_leaders=[], defender_leaders=[], p8_dice_per_unit=2)


@pytest.mark.parametrize("policy, sp_lost, eliminated", [
    # preserve_sp: 1 hit A (1); 2 hits A then B (1 + 2): 1/2 + 3/4
    ("preserve_sp", F(5, 4), 0),
    # weakest_first: B (2); then B again (2 + 1), eliminated: 1 + 3/4, one unit in 1/4
    ("weakest_first", F(7, 4), F(1, 4)),
    # strongest_first: A (1); A again (1 + 5), eliminated: 1/2 + 6/4
    ("strongest_first", F(2), F(1, 4)),
    # random: 1 hit (1 + 2)/2; 2 hits: A,A 6, A,B 3, B,A 3, B,B 3 -> 15/4: 3/4 + 15/16; eliminated A,A or B,B
    ("random", F(27, 16), F(1, 8)),
])
def test_loss_allocation_builtins(policy, sp_lost, eliminated):
    e = exact({"losses": policy}, **ALLOCATION)
    assert e["defender_sp_lost"] == sp_lost
    assert e["defender_units_eliminated"] == eliminated


# ------------------------------------------------------------------ Monte Carlo vs exact, kernel vs reference
BIG = dict(
    attacker_units=[dict(sp=6, qu=6, tb=2, weak_sp=3, weak_qu=3, weak_tb=1, barred=[1]),
                    dict(sp=5, qu=5, tb=1, weak_sp=2, weak_qu=3), dict(sp=3, qu=4, weak_sp=1, barred=[2]),
                    dict(sp=4, qu=3, weakened=True), dict(sp=2, qu=7, weak_sp=2, weak_qu=5),
                    dict(sp=1, qu=2, weak_sp=1, weak_qu=1)],
    defender_units=[dict(sp=5, qu=5, tb=1, weak_sp=3, weak_qu=3), dict(sp=4, qu=6, barred=[0]),
                    dict(sp=6, qu=4, weak_sp=4, weak_qu=3, weakened=True), dict(sp=3, qu=5, weak_sp=1)],
    attacker_leaders=[dict(tb=1, cc=2, sr=1, barred=[0]), dict(tb=1, cc=5, sr=3), dict(tb=0)],
    defender_leaders=[dict(tb=2, role="augustus"), dict(tb=1, role="caesar", barred=[1])],
    attacker_retreat_zones=3, defender_retreat_zones=2, p8_dice_per_unit=2)
SETTINGS = [
    dict(),
    dict(**ONE_V_ONE, p8_pursuit=True),
    dict(**{**ONE_V_ONE, "attacker_units": [dict(qu=9)], "defender_units": [dict(qu=0, weak_qu=0)]},
         p8_dice_per_unit=3),
    BIG,
    dict(BIG, p8_pursuit=True, p8_threshold="qu_tbc", p8_loser_leader_death=7),
    dict(attacker_units=[dict(qu=6), dict(sp=3, qu=5, weak_sp=1, barred=[0]), dict(qu=3, weakened=True)],
         defender_units=[dict(sp=5, qu=5, weak_sp=2, barred=[1]), dict(qu=6), dict(sp=2, weak_sp=1)],
         attacker_leaders=[dict(tb=1, role="usurper"), dict(tb=2, role="civil_war")],
         defender_leaders=[dict(tb=1, role="augustus"), dict(tb=3, role="dux", barred=[0])],
         defender_retreat_zones=2, p8_commander="choice", p8_pursuit=True, p8_dice_per_unit=2),
]
RANDOM_POLICIES = {"losses": "random", "retreat": "random", "commander": "random"}


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(BATTLE, **params)
    assert_matches_exact(romesim.simulate(scenario, 400_000, seed=2024), romesim.exact(scenario))


@pytest.mark.parametrize("params", [SETTINGS[1], SETTINGS[5], dict(ALLOCATION, p8_pursuit=True)])
def test_monte_carlo_within_5_sigma_of_exact_random_policies(params):
    scenario = romesim.scenario(BATTLE, **params)
    assert_matches_exact(romesim.simulate(scenario, 400_000, seed=77, policies=RANDOM_POLICIES),
                         romesim.exact(scenario, policies=RANDOM_POLICIES))


POLICY_SETS = [{}, {"losses": "weakest_first"}, {"losses": "strongest_first"}, {"losses": "random"},
               {"retreat": "first"}, {"retreat": "random"}, {"commander": "random"}, RANDOM_POLICIES]


@pytest.mark.parametrize("policies", POLICY_SETS)
@pytest.mark.parametrize("params", [SETTINGS[0], SETTINGS[4], SETTINGS[5], dict(BIG, p8_commander="choice")])
def test_kernel_equals_reference_game_by_game(params, policies):
    assert_reference_equal(romesim.scenario(BATTLE, **params), n=1500, policies=policies)


def test_random_losses_beyond_the_stated_size_are_not_solved_exactly():
    with pytest.raises(romesim.ExactNotSupported, match="up to 4 units a side"):
        exact({"losses": "random"}, **BIG)
    assert 0 < exact({"losses": "weakest_first"}, **BIG)["p_win"] < 1  # deterministic built-ins: any size


# ------------------------------------------------------------------ user D14 policies
# one function per decision point serves every test; params[0] is the mode
CHECKED, CONSTANT = 0, 1
BAD_STATE = 100


@njit
def last_unit(state, params, stream):
    """CHECKED: check the documented losses state, then take the last eligible unit; CONSTANT: params[1]."""
    if params[0] == CONSTANT:
        return int(params[1])
    n, eligible, pick = state[5], 0, -1
    for i in range(n):
        base = 6 + 8 * i
        alive, weak, sp = state[base], state[base + 1], state[base + 2]
        if sp != (0 if not alive else (state[base + 4] if weak else state[base + 3])):
            return BAD_STATE
        if state[base + 7] and not alive:
            return BAD_STATE + 1
        if state[base + 7]:
            eligible += 1
            pick = i
    if state[2] < 1 or state[2] > state[3] or eligible == 0 or state[1] != (1 if state[0] == 0 else 0):
        return BAD_STATE + 2
    return pick


@njit
def last_zone(state, params, stream):
    if params[0] == CONSTANT:
        return int(params[1])
    return state[2] - 1


@njit
def last_leader(state, params, stream):
    if params[0] == CONSTANT:
        return int(params[1])
    return state[2] - 1


# last unit = weakest_first (B), last zone = safest (zone 1: zone 0 bars the attacker's unit; the defender's zones
# bar nothing), last leader = best_tb (TB 2): the user policies play exactly like the built-ins
USER = dict(ALLOCATION, attacker_units=[dict(qu=5, barred=[0])], attacker_retreat_zones=2, defender_retreat_zones=2,
            attacker_leaders=[dict(tb=0), dict(tb=2)], defender_leaders=[dict(tb=1)], p8_commander="choice",
            p8_pursuit=True)


@njit
def scripted_battle(state, params, stream):
    """The test's battle hook, its behaviour chosen by the scenario's p8_loser_leader_death: 0 is "the attacker
    always wins and the defender loses its first unit" (not P8, no dice); 10 is P8 followed by a result the tables
    cannot hold (winner side 2); anything else is P8 itself, called through the public hook."""
    units, leaders, context, out = battle_tables(state)
    if context[C_DEATH_FROM] == 0:
        attacker = context[C_ATTACKER]
        for i in range(units.shape[0]):
            if units[i, U_SIDE] != attacker and units[i, U_ALIVE]:
                units[i, U_ALIVE] = 0
                break
        out[O_WINNER] = attacker
        return 0
    p8_battle(state, params, stream)
    if context[C_DEATH_FROM] == 10:
        out[O_WINNER] = 2
    return 0


def user_policies(losses=(CHECKED, 0), retreat=(CHECKED, 0), commander=(CHECKED, 0)):
    """D14 played by the user functions above, each with its mode and parameters."""
    return {"losses": (last_unit, list(losses)), "retreat": (last_zone, list(retreat)),
            "commander": (last_leader, list(commander))}


def test_user_policies_play_like_the_builtins():
    scenario = romesim.scenario(BATTLE, **USER)
    mine = romesim.simulate(scenario, 20_000, seed=5, keep=True, policies=user_policies())
    theirs = romesim.simulate(scenario, 20_000, seed=5, keep=True, policies={"losses": "weakest_first"})
    np.testing.assert_array_equal(mine.outcomes.to_numpy(), theirs.outcomes.to_numpy())
    assert mine.to_dict()["policies"] == {"battle": "p8_proposal", "losses": "last_unit", "retreat": "last_zone",
                                          "commander": "last_leader"}


@pytest.mark.parametrize("point, rule, action, chosen", [
    ("losses", r"D14 \(P8.4\)", 5, dict(losses=(CONSTANT, 5))),  # no such unit
    ("retreat", r"D14 \(P8.6\)", 2, dict(retreat=(CONSTANT, 2))),  # two zones: 0 and 1
    ("commander", r"D14 \(P8.2\)", -1, dict(commander=(CONSTANT, -1))),
])
def test_illegal_actions_are_policy_errors(point, rule, action, chosen):
    scenario = romesim.scenario(BATTLE, **USER)
    with pytest.raises(romesim.PolicyError, match=rf"'{point}' \({rule}\): illegal action {action}"):
        romesim.simulate(scenario, 2_000, seed=3, policies=user_policies(**chosen))


def test_an_eliminated_unit_cannot_take_a_hit():
    # three 9/10 dice at the defender: its unit 0 is weakened, eliminated, and the third hit asks again for unit 0
    scenario = romesim.scenario(BATTLE, **{**USER, "attacker_units": [dict(qu=9, barred=[0])], "p8_dice_per_unit": 3})
    with pytest.raises(romesim.PolicyError, match=r"'losses' \(D14 \(P8.4\)\): illegal action 0"):
        romesim.simulate(scenario, 2_000, seed=3, policies=user_policies(losses=(CONSTANT, 0)))


# ------------------------------------------------------------------ the battle hook: P8 replaced by the user
def test_user_battle_hook_replaces_p8():
    # scripted_battle with p8_loser_leader_death = 0: the attacker always wins, the defender loses its first unit
    p8 = romesim.simulate(romesim.scenario(BATTLE), 20_000, seed=1)
    scenario = romesim.scenario(BATTLE, p8_loser_leader_death=0)
    mine = romesim.simulate(scenario, 20_000, seed=1, policies={"battle": scripted_battle})
    assert p8.estimate("p_win") < 0.9
    assert mine.estimate("p_win") == 1 and mine.estimate("p_loss") == 0
    assert mine.estimate("defender_units_eliminated") == 1
    assert mine.estimate("defender_sp_lost") == scenario.defender_units[0]["sp"]
    assert mine.estimate("attacker_sp_lost") == mine.estimate("attacker_hits") == 0
    assert mine.to_dict()["policies"]["battle"] == "scripted_battle"
    assert p8.to_dict()["policies"]["battle"] == "p8_proposal"
    with pytest.raises(romesim.ExactNotSupported):
        romesim.exact(scenario, policies={"battle": scripted_battle})


def test_p8_battle_has_the_hook_signature():
    # P8 called through the public hook replays the built-in games, dice for dice
    for params in (SETTINGS[4], SETTINGS[5]):
        scenario = romesim.scenario(BATTLE, **params)
        mine = romesim.simulate(scenario, 5_000, seed=9, keep=True, policies={"battle": scripted_battle})
        theirs = romesim.simulate(scenario, 5_000, seed=9, keep=True)
        np.testing.assert_array_equal(mine.outcomes.to_numpy(), theirs.outcomes.to_numpy())


def test_a_hook_result_the_tables_cannot_hold_is_a_policy_error():
    # scripted_battle with p8_loser_leader_death = 10 plays P8, then names side 2 the winner
    scenario = romesim.scenario(BATTLE, p8_loser_leader_death=10)
    with pytest.raises(romesim.PolicyError, match=r"'battle' \(PROPOSAL P8 \(spec 3.2\)\): illegal action 20000"):
        romesim.simulate(scenario, 100, seed=1, policies={"battle": scripted_battle})


def test_p8_battle_called_directly_with_the_defender_as_side_0():
    # the hook is side-agnostic: the same battle with the side labels swapped and C_ATTACKER = 1 draws the same
    # dice and gives the mirrored result
    scenario = romesim.scenario(BATTLE, **BIG)
    units0, leaders0, context = scenario.kernel_args()
    for game in range(200):
        runs = []
        for swap in (0, 1):
            units, leaders, ctx = units0.copy(), leaders0.copy(), context.copy()
            units[:, U_SIDE] ^= swap
            leaders[:, sv_battle.L_SIDE] ^= swap
            ctx[C_ATTACKER] = swap
            ctx[sv_battle.C_ZONES], ctx[sv_battle.C_ZONES + 1] = context[sv_battle.C_ZONES + swap], \
                context[sv_battle.C_ZONES + 1 - swap]
            state = sv_battle.battle_state(units, leaders, ctx)
            stream = rng.new_stream()
            rng.start(stream, np.uint64(4), game)
            sv_battle.p8_battle(state, np.zeros(8), stream)
            units, leaders, _, out = battle_tables(state)
            units[:, U_SIDE] ^= swap
            leaders[:, sv_battle.L_SIDE] ^= swap
            runs.append((units, leaders, out[O_WINNER] ^ swap, out[sv_battle.O_HITS + swap]))
        np.testing.assert_array_equal(runs[0][0], runs[1][0])
        np.testing.assert_array_equal(runs[0][1], runs[1][1])
        assert runs[0][2:] == runs[1][2:]


def test_p8_2_tie_break_marks_the_commander():
    # three TB 2 leaders: CC decides between the last two, then SR: the third commands
    scenario = romesim.scenario(BATTLE, attacker_leaders=[dict(tb=2, cc=1, sr=6), dict(tb=2, cc=3, sr=0),
                                                          dict(tb=2, cc=3, sr=1)])
    units, leaders, context = scenario.kernel_args()
    stream = rng.new_stream()
    rng.start(stream, np.uint64(0), 0)
    state = sv_battle.battle_state(units, leaders, context)
    sv_battle.p8_battle(state, np.zeros(8), stream)
    # the defender's only leader commands too
    assert list(battle_tables(state)[1][:, sv_battle.L_COMMANDER]) == [0, 0, 1, 1]


# ------------------------------------------------------------------ the proposal is labelled as such
def test_proposal_is_visible_in_the_listing_and_the_results():
    row = romesim.list_scenarios().set_index("scenario").loc[BATTLE]
    assert "PROPOSAL P8 (not the published rules)" in row["title"]
    assert "PROPOSAL P8 (not the published rules)" in row["p_win"]
    assert row["decision_points"]["battle"] == ["p8_proposal"]
    cls = romesim.scenario(BATTLE).__class__
    assert cls.proposal == "P8" and "PROPOSAL P8 (not the published rules)" in cls.__doc__
    hook = {dp.name: dp for dp in cls.decision_points}["battle"]
    assert hook.builtins["p8_proposal"].doc.startswith("PROPOSAL P8 — not from the published rules")
    assert "PROPOSAL P8" in sv_battle.p8_battle.__doc__ and "not from the published rules" in sv_battle.__doc__
    for result in (romesim.simulate(BATTLE, 1_000), romesim.exact(BATTLE)):
        assert result.to_dict()["policies"]["battle"] == "p8_proposal"


# ------------------------------------------------------------------ validation
@pytest.mark.parametrize("params, words", [
    (dict(attacker_units=[]), r"attacker_units: \[\] is not allowed"),
    (dict(defender_units=[{}] * 7), "defender_units: "),
    (dict(attacker_units=[dict(qu=10)]), r"attacker_units\[0\].qu: 10 is not allowed"),
    (dict(attacker_units=[{}, dict(hp=3)]), r"attacker_units\[1\]: unknown key 'hp'"),
    (dict(defender_units=[dict(sp=4, weak_sp=5)]), r"defender_units\[0\].weak_sp: 5 is not allowed; expected at most "
                                                   r"sp=4"),
    (dict(defender_units=[dict(barred=[1])]), r"defender_units\[0\].barred: \[1\] is not allowed; expected zone "
                                              r"indices below defender_retreat_zones=1"),
    (dict(attacker_leaders=[dict(role="emperor")]), r"attacker_leaders\[0\].role: 'emperor' is not allowed"),
    (dict(attacker_leaders=[dict(tb=6)]), r"attacker_leaders\[0\].tb: 6 is not allowed"),
    (dict(attacker_leaders=[{}] * 5), "attacker_leaders: "),
    (dict(defender_leaders=[dict(role="usurper"), dict(role="augustus")]), "Note 2"),
    (dict(attacker_leaders=[dict(role="civil_war"), dict(role="general")]), "Note 2"),
    (dict(defender_leaders=[dict(role="augustus")] * 3), "3 leaders with role 'augustus'"),
    (dict(attacker_retreat_zones=5), "attacker_retreat_zones: 5 is not allowed"),
    (dict(p8_threshold="sum"), "p8_threshold: 'sum' is not allowed"),
    (dict(p8_dice_per_unit=4), "p8_dice_per_unit: 4 is not allowed"),
    (dict(p8_loser_leader_death=11), "p8_loser_leader_death: 11 is not allowed"),
    (dict(p8_pursuit="yes"), "p8_pursuit: 'yes' is not allowed"),
    (dict(p8_commander="king"), "p8_commander: 'king' is not allowed"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(BATTLE, **params)


def test_unknown_parameter():
    with pytest.raises(romesim.ScenarioError, match="unknown parameter 'roman'"):
        romesim.scenario(BATTLE, roman=[3])


def test_defaults_are_the_cli_defaults_and_round_trip():
    scenario = romesim.scenario(BATTLE)
    assert romesim.scenario(BATTLE, **scenario.to_dict()) == scenario
    assert romesim.load_toml(scenario.to_toml())[0] == scenario
    assert 0 < romesim.exact(scenario)["p_win"] < 1


# ------------------------------------------------------------------ user policies reading the state by its names
def _names(point, fields, n):
    """Indices of ``field_i`` in ``point.state``, one row per field."""
    return np.array([[point.state.index(f"{f}_{i}") for i in range(n)] for f in fields])


LOSS = sv_policies.BATTLE_LOSSES.state
LOSS_UNITS, LOSS_HITS_LEFT, LOSS_HITS_TOTAL = (LOSS.index(k) for k in ("units", "hits_left", "hits_total"))
LOSS_ALIVE, LOSS_WEAKENED, LOSS_SP, LOSS_FULL, LOSS_WEAK, LOSS_ELIGIBLE = _names(
    sv_policies.BATTLE_LOSSES, ("alive", "weakened", "sp", "full_sp", "weak_sp", "eligible"),
    sv_policies.BATTLE_MAX_UNITS)
RETREAT = sv_policies.BATTLE_RETREAT.state
RETREAT_ZONES, RETREAT_UNITS, RETREAT_LEADERS = (RETREAT.index(k) for k in ("zones", "units", "leaders"))
RETREAT_ALIVE, RETREAT_SP, RETREAT_BARRED = _names(sv_policies.BATTLE_RETREAT, ("alive", "sp", "barred"),
                                                   sv_policies.BATTLE_MAX_UNITS)
RETREAT_LEADER_ALIVE, RETREAT_LEADER_BARRED = _names(sv_policies.BATTLE_RETREAT, ("leader_alive", "leader_barred"),
                                                     sv_policies.BATTLE_MAX_LEADERS)
COMMAND = sv_policies.BATTLE_COMMANDER.state
COMMAND_LEADERS = COMMAND.index("leaders")
COMMAND_RATINGS = _names(sv_policies.BATTLE_COMMANDER, ("tb", "cc", "sr"), sv_policies.BATTLE_MAX_LEADERS)
HOOK = sv_policies.BATTLE_HOOK.state
HOOK_ATTACKER, HOOK_UNITS, HOOK_LEADERS = (HOOK.index(k) for k in ("attacker", "units", "leaders"))
HOOK_UNIT_SP = np.array([HOOK.index(f"unit{i}_sp") for i in range(2 * sv_policies.BATTLE_MAX_UNITS)])
HOOK_LEADER_TB = np.array([HOOK.index(f"leader{i}_tb") for i in range(2 * sv_policies.BATTLE_MAX_LEADERS)])


@njit
def weakest_first_by_name(state, params, stream):
    """The built-in `weakest_first`: the eligible unit with the lowest current SP, the first among equals; 99
    where an entry contradicts another (sp not the face shown, an eligible unit dead, hits_left out of range)."""
    best = -1
    if state[LOSS_HITS_LEFT] < 1 or state[LOSS_HITS_LEFT] > state[LOSS_HITS_TOTAL]:
        return 99
    for i in range(state[LOSS_UNITS]):
        face = state[LOSS_WEAK[i]] if state[LOSS_WEAKENED[i]] else state[LOSS_FULL[i]]
        if state[LOSS_SP[i]] != (face if state[LOSS_ALIVE[i]] else 0) or (
                state[LOSS_ELIGIBLE[i]] and not state[LOSS_ALIVE[i]]):
            return 99
        if state[LOSS_ELIGIBLE[i]] and (best < 0 or state[LOSS_SP[i]] < state[LOSS_SP[best]]):
            best = i
    return best


@njit
def safest_by_name(state, params, stream):
    """The built-in `safest`: the zone losing the fewest leaders, then the fewest SP, then the lowest index."""
    best, best_leaders, best_sp = -1, 0, 0
    for z in range(state[RETREAT_ZONES]):
        leaders_lost, sp_lost = 0, 0
        for i in range(state[RETREAT_UNITS]):
            if state[RETREAT_ALIVE[i]] and (state[RETREAT_BARRED[i]] >> z) & 1:
                sp_lost += state[RETREAT_SP[i]]
        for j in range(state[RETREAT_LEADERS]):
            if state[RETREAT_LEADER_ALIVE[j]] and (state[RETREAT_LEADER_BARRED[j]] >> z) & 1:
                leaders_lost += 1
        if best < 0 or leaders_lost < best_leaders or (leaders_lost == best_leaders and sp_lost < best_sp):
            best, best_leaders, best_sp = z, leaders_lost, sp_lost
    return best


@njit
def best_tb_by_name(state, params, stream):
    """The built-in `best_tb`: the highest TB, then CC, then SR, then the first."""
    best = 0
    for j in range(1, state[COMMAND_LEADERS]):
        for k in range(3):
            if state[COMMAND_RATINGS[k, j]] != state[COMMAND_RATINGS[k, best]]:
                if state[COMMAND_RATINGS[k, j]] > state[COMMAND_RATINGS[k, best]]:
                    best = j
                break
    return best


@njit
def checked_p8(state, params, stream):
    """P8 through the public hook, after checking that the state's named entries are the tables' (else side 2
    wins, a result the tables cannot hold)."""
    units, leaders, context, out = battle_tables(state)
    ok = state[HOOK_ATTACKER] == context[C_ATTACKER] and state[HOOK_UNITS] == units.shape[0]
    ok = ok and state[HOOK_LEADERS] == leaders.shape[0]
    for i in range(units.shape[0]):
        ok = ok and state[HOOK_UNIT_SP[i]] == units[i, sv_battle.U_SP]
    for j in range(leaders.shape[0]):
        ok = ok and state[HOOK_LEADER_TB[j]] == leaders[j, sv_battle.L_TB]
    p8_battle(state, params, stream)
    if not ok:
        out[O_WINNER] = 2
    return 0


BY_NAME = {"losses": weakest_first_by_name, "retreat": safest_by_name, "commander": best_tb_by_name}


@pytest.mark.parametrize("params", [USER, BIG, dict(BIG, p8_pursuit=True, p8_commander="choice"), SETTINGS[5]])
def test_user_policies_reading_the_documented_state_play_the_builtins_games(params):
    scenario = romesim.scenario(BATTLE, **params)
    mine = romesim.simulate(scenario, 2_000, seed=8, keep=True, policies=BY_NAME)
    theirs = romesim.simulate(scenario, 2_000, seed=8, keep=True, policies={"losses": "weakest_first"})
    np.testing.assert_array_equal(mine.outcomes.to_numpy(), theirs.outcomes.to_numpy())
    hooked = romesim.simulate(scenario, 2_000, seed=8, keep=True, policies={"battle": checked_p8})
    builtin = romesim.simulate(scenario, 2_000, seed=8, keep=True)
    np.testing.assert_array_equal(hooked.outcomes.to_numpy(), builtin.outcomes.to_numpy())
