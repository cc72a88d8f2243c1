"""KoR 5.7 battle: every step checked against values worked by hand from the rules (spec 2.1, section 6).

Each expected fraction is derived in its comment from the rule text, never read off the kernel. Monte Carlo
estimates are compared with them at 5 standard errors (fixed seeds), and deterministic quantities exactly.
"""
import json
import math
from fractions import Fraction as F

import numba
import pytest

import romesim
from romesim.cli import main
from romesim.core.errors import PolicyError, ScenarioError
from romesim.kings_of_rome.policies import BATTLE_POINTS

BATTLE = "kings_of_rome.battle"
N = 200_000
SIGMA = 5.0


def inf(virtus, roman_class=3, back="other"):
    return {"kind": "infantry", "virtus": virtus, "roman_class": roman_class, "back": back}


def cav(virtus, back="other"):
    return {"kind": "cavalry", "virtus": virtus, "back": back}


def nr_inf(virtus, back="other"):
    return {"kind": "infantry", "virtus": virtus, "back": back}


KING = {"rank": "king", "virtus": 3, "astutia": 0}
MAGISTER = {"rank": "magister_populi", "virtus": 3, "astutia": 0}
TRIBUNE = {"rank": "tribunus_populi", "virtus": 2, "astutia": 0}
NR_LEADER = {"virtus": 3, "astutia": 0}
ATTACK_ATTACK = {"tactic": "attack", "nr_tactic": "attack"}


def run(n=N, seed=1, policies=None, keep=False, **params):
    return romesim.simulate(romesim.scenario(BATTLE, **params), n, seed, policies=policies, keep=keep)


def assert_near(result, metric, want, sigma=SIGMA):
    """The estimate of ``metric`` within ``sigma`` standard errors of the hand-derived ``want``."""
    want = float(want)
    got = result[metric]
    i = result.metrics.index(metric)
    if metric.startswith("p_"):
        se = math.sqrt(want * (1 - want) / result.n)
    else:
        s, sq = int(result.sums[i]), int(result.sumsq[i])
        se = math.sqrt(max(sq / result.n - (s / result.n) ** 2, 0.0) / result.n)
    if se == 0:
        assert got == want, f"{metric}: {got} but {want} is certain"
    else:
        assert abs(got - want) <= sigma * se, f"{metric}: {got:.5f} vs {want:.5f} ({abs(got - want) / se:.1f} sigma)"


# ------------------------------------------------------------------ 5.7.4 vanguard clash (WE-5 bonus check)
def test_5_7_4_one_vanguard_pair_attacker_wins_two_thirds():
    # One pair, both cavalry Virtus 3, Rome the attacker, DEFENCE/DEFENCE: the attacker hits with 1/2, else the
    # defender with 1/2: P(attacker wins) = (1/2) / (1 - 1/4) = 2/3 (spec WE-5). Defence/defence: no winner.
    r = run(roman_units=[inf(3), inf(3), cav(3)], nr_units=[nr_inf(3), cav(3)], roman_leaders=[KING],
            nr_leaders=[NR_LEADER], policies={"tactic": "defence", "nr_tactic": "defence"})
    assert_near(r, "nr_units_lost", F(2, 3))
    assert_near(r, "roman_units_lost", F(1, 3))
    assert r["p_end_defence_defence"] == 1 and r["p_no_winner"] == 1
    assert r["tokens_nr_to_r"] == 0 and r["tokens_r_to_nr"] == 0 and r["ip"] == 0 and r["vp"] == 0
    # each cavalry lost is 3 points on its side's track (5.7.8); no pre-battle penalty (2 vs 2 "cavalry")
    assert_near(r, "nr_penalty", 3 * F(2, 3))
    assert r["roman_pre_penalty"] == 0 and r["nr_pre_penalty"] == 0


def test_5_7_4_nr_attacker_rolls_first():
    # The same pair with the NR as attacker (5.7.2): now the NR unit wins with 2/3.
    r = run(roman_units=[inf(3), inf(3), cav(3)], nr_units=[nr_inf(3), cav(3)], roman_leaders=[KING],
            nr_leaders=[NR_LEADER], attacker="nr", policies={"tactic": "defence", "nr_tactic": "defence"})
    assert_near(r, "roman_units_lost", F(2, 3))


def test_kor_a21_plus2_cavalry_drm():
    # KOR-A21 plus2: Roman cavalry rolls d6 + 2 > 3 -> 5/6; NR answers d6 > 3 -> 1/2:
    # P(Rome wins the pair) = (5/6) / (1 - (1/6)(1/2)) = 10/11.
    r = run(roman_units=[inf(3), inf(3), cav(3)], nr_units=[nr_inf(3), cav(3)], roman_leaders=[KING],
            nr_leaders=[NR_LEADER], roman_cavalry_class_drm="plus2",
            policies={"tactic": "defence", "nr_tactic": "defence"})
    assert_near(r, "nr_units_lost", F(10, 11))


def test_5_7_4_defence_defence_without_cavalry_ends_at_once():
    r = run(n=2000, roman_units=[inf(3)] * 3, nr_units=[nr_inf(3)] * 3,
            policies={"tactic": "defence", "nr_tactic": "defence"})
    assert r["p_end_defence_defence"] == 1 and r["roman_units_lost"] == 0 and r["nr_units_lost"] == 0


# ------------------------------------------------------------------ 5.7.4 retreat round, KOR-A23
# The retreat round of an army that never had cavalry is KOR-A23 retreat_round_trigger = no_cavalry; by default
# (5.7.4 "qu'il ne lui reste plus de cavalerie") only an army whose cavalry is gone retreats.
NO_CAVALRY = {"retreat_round_trigger": "no_cavalry"}


def test_5_7_4_retreat_round_one_pair():
    # ATTACK (Rome) vs DEFENCE (NR) and the NR has no cavalry: one retreat round. The NR has one infantry, so one
    # pair: Rome's strongest (Virtus 3, class III, no DRM) hits d6 > 3 -> 1/2; the NR answers d6 - 1 > 3 -> 1/3.
    r = run(roman_units=[inf(3), inf(2, 4), inf(2, 4)], nr_units=[nr_inf(3)],
            policies={"tactic": "attack", "nr_tactic": "defence"}, **NO_CAVALRY)
    assert r["p_end_retreat_round"] == 1
    assert_near(r, "nr_units_lost", F(1, 2))
    assert_near(r, "roman_units_lost", F(1, 3))
    # casualties only (KOR-A23): no winner, no adjustment, no phase-3 cost; 2 reactions for the Roman action
    assert r["p_no_winner"] == 1 and r["tokens_nr_to_r"] == 0 and r["hostile_reactions"] == 2


def test_kor_a23_class_drm_and_track_scoring():
    # Rome (class II, DRM +1 in the retreat round, not +2) defends; the NR attacks: Rome answers with
    # d6 + 1 - 1 > 3 -> 1/2 under all_roman_infantry_rolls, d6 - 1 > 3 -> 1/3 under attacking_side_only.
    common = dict(roman_units=[inf(3, 2), inf(2, 4), inf(2, 4)], nr_units=[nr_inf(3)],
                  policies={"tactic": "defence", "nr_tactic": "attack"}, **NO_CAVALRY)
    assert_near(run(**common), "nr_units_lost", F(1, 2))
    r = run(retreat_round_class_drm="attacking_side_only", retreat_round_scoring="track_result_without_triumph",
            **common)
    assert_near(r, "nr_units_lost", F(1, 3))
    # track result: the NR hits d6 > 3 (1/2), a class II loss costs Rome 2 points, an NR loss 1; pre-battle:
    # both led, no cavalry (no penalty). Rome wins iff only the NR unit falls: (1/3)(1/2) = 1/6;
    # the NR wins iff Rome's unit falls (2 > 1 whatever else): 1/2; no Triumph after a retreat round.
    assert_near(r, "p_win", F(1, 6))
    assert_near(r, "p_loss", F(1, 2))
    assert r["p_triumph"] == 0


# ------------------------------------------------------------------ 5.7.9 phase 3 and 5.7.11 results
def test_5_7_9_three_boxes_symmetric():
    # ATTACK/ATTACK, 3 v 3 infantry of Virtus 3 (Roman class III: no DRM), no leader, no cavalry: P1 on both
    # sides, so the tracks start equal. Every die hits with 1/2; the first round with a hit ends phase 3 (a box
    # is empty). Losses X, Y ~ Bin(3, 1/2) given X + Y >= 1: P(Rome wins) = P(Y > X) / (63/64) = (22/64)/(63/64),
    # P(equal) = (20/64 - 1/64)/(63/64) = 19/63 (no winner, KOR-A29).
    r = run(roman_units=[inf(3)] * 3, nr_units=[nr_inf(3)] * 3, roman_leaders=[], nr_leaders=[],
            policies=ATTACK_ATTACK)
    assert_near(r, "p_win", F(22, 63))
    assert_near(r, "p_loss", F(22, 63))
    assert_near(r, "p_no_winner", F(19, 63))
    assert r["p_end_phase3"] == 1
    # 5.7.11 without a King: win +1 IP +1 VP, loss -1 VP; phase 3 costs 1 IP (KOR-A25, a Roman action)
    assert_near(r, "ip", F(22, 63) - 1)
    assert_near(r, "vp", 0)
    # the number of rounds is geometric with success 63/64
    assert_near(r, "phase3_rounds", F(64, 63))
    assert r["roman_pre_penalty"] == 1 and r["nr_pre_penalty"] == 1


def test_5_7_11_king_results_and_triumph():
    # The same battle led by the King (Astutia 0, so he stays in reserve by default): win +2 IP +1 VP, loss
    # -2 VP (KOR-A34). The NR starts with 3 points: P1 (no leader) and P6 (Rome counts the King as cavalry,
    # 1 against 0), so Rome loses only if its losses exceed the NR's by 4 (never) and ties at a difference of 3.
    # Triumph: all 3 NR infantry destroyed.
    r = run(roman_units=[inf(3)] * 3, nr_units=[nr_inf(3)] * 3, roman_leaders=[KING], nr_leaders=[],
            policies=ATTACK_ATTACK)
    # P(X - Y >= 3) -> Rome loses; X - Y = 2 -> tie; else Rome wins (given X + Y >= 1)
    joint = {(x, y): F(math.comb(3, x) * math.comb(3, y), 64) for x in range(4) for y in range(4)}
    lose = sum(q for (x, y), q in joint.items() if x - y >= 4) / F(63, 64)
    tie = sum(q for (x, y), q in joint.items() if x - y == 3) / F(63, 64)
    win = 1 - lose - tie
    triumph = sum(q for (x, y), q in joint.items() if y == 3 and x < 3) / F(63, 64)  # Rome must survive
    assert_near(r, "p_win", win)
    assert_near(r, "p_loss", lose)
    assert_near(r, "ip", 2 * win - 1)
    assert_near(r, "vp", win - 2 * lose)
    assert_near(r, "p_triumph", triumph)
    r2 = run(roman_units=[inf(3)] * 3, nr_units=[nr_inf(3)] * 3, roman_leaders=[KING], nr_leaders=[],
             battle_king_loss="both", triumph_bonus_ip=5, policies=ATTACK_ATTACK)
    assert_near(r2, "ip", 2 * win - 4 * lose + 5 * triumph - 1)


def test_5_7_9_nr_cavalry_cannot_attack_class_ii():
    # An NR cavalry facing a Roman class II infantry does not roll (5.7.9): three NR cavalry against three Roman
    # class II infantry never hit anything. Rome starts 3 points behind (P1, fewer cavalry) but the first NR
    # cavalry lost costs 3 and empties a box, so Rome always wins.
    common = dict(n=5000, roman_units=[inf(3, 2)] * 3, nr_units=[{"kind": "cavalry", "virtus": 3}] * 3,
                  roman_leaders=[], nr_leaders=[], policies=ATTACK_ATTACK)
    r = run(nr_leaderless_capacity="unlimited", **common)
    assert r["roman_units_lost"] == 0
    assert r["p_win"] == 1 and r["phase3_rounds"] >= 1
    # KOR-A40 default: a leaderless NR army fields at most 2 cavalry, so a front box stays empty. That box ends
    # nothing (5.7.11: « laissées vides par des unités éliminées »): the two pairs fight, Rome hits d6 + 1 > 3
    # (2/3) twice a round, the NR never; the first NR cavalry lost (3 points) gives Rome the win (Rome 3, the NR
    # 1 + 3). Rounds: geometric with success 1 - 1/9.
    r = run(**common)
    assert r["p_win"] == 1 and r["roman_units_lost"] == 0
    assert_near(r, "phase3_rounds", F(9, 8))


def test_contract_stalemate_ends_phase3():
    # No die can ever hit (Virtus 6 on both sides, no DRM, NR cavalry facing class I): phase 3 ends at once.
    r = run(n=2000, roman_units=[inf(6, 3)] * 3, nr_units=[nr_inf(6)] * 3, roman_leaders=[], nr_leaders=[],
            policies=ATTACK_ATTACK)
    assert r["phase3_rounds"] == 0 and r["p_end_phase3"] == 1 and r["p_no_winner"] == 1


# ------------------------------------------------------------------ 5.7.7 track and 5.7.8 penalties
def test_5_7_7_track_stops_at_minus_19():
    # P1 1 + P3 per city 6 x 2 = 12 (KOR-A27 sum_per_city) + P4 per unit 3 (KOR-A28) + P7 2 = 18, and P6 2 (no
    # leader, the NR has one) = 20 points: the marker stops at -19.
    r = run(n=3000, keep=True, roman_units=[inf(3, 3, "etruscans")] * 3, roman_leaders=[],
            nr_units=[nr_inf(3)] * 3, nr_people="etruscans", roman_adjacent_garrisons=[3] * 6,
            adjacent_garrison_penalty="sum_per_city", back_side_penalty="per_unit", policies=ATTACK_ATTACK)
    out = r.outcomes
    assert (out["roman_pre_penalty"] == 20).all()
    assert (out["roman_score"] == -19).all()
    assert (out["roman_score"] == -out["roman_penalty"].clip(upper=19)).all()
    assert r["p_roman_score_10_19"] == 1


@pytest.mark.parametrize("params, roman, nr", [
    # P2 one adjacent NR garrison of 2 -> 1; P3 a value 3 replaces it (max_not_sum) -> 2
    ({"roman_adjacent_garrisons": [2]}, 1, 0),
    ({"roman_adjacent_garrisons": [2, 3]}, 2, 0),
    ({"roman_adjacent_garrisons": [2, 3], "adjacent_garrison_penalty": "sum_per_city"}, 3, 0),
    ({"nr_adjacent_garrisons": [1]}, 0, 1),
    # KOR-A27: the battle hex's own garrison counts only with adjacent_includes_battle_hex
    ({"hex_garrison": 3}, 0, 0),
    ({"hex_garrison": 3, "adjacent_includes_battle_hex": True}, 2, 0),
    ({"hex_garrison": 1, "hex_garrison_side": "roman", "adjacent_includes_battle_hex": True}, 0, 1),
    # P7: Etruscan or Gallic army -> Rome 2
    ({"nr_people": "gauls"}, 2, 0),
])
def test_5_7_8_pre_battle_penalties(params, roman, nr):
    # Both armies led, one cavalry each (P6 equal), no backs: only the listed penalty applies.
    r = run(n=200, roman_units=[inf(3), inf(3), cav(3)], roman_leaders=[KING], nr_units=[nr_inf(3), cav(3)],
            nr_leaders=[NR_LEADER], **params)
    assert r["roman_pre_penalty"] == roman and r["nr_pre_penalty"] == nr


def test_5_7_8_backs_and_cavalry_count():
    # P4 (a Roman unit with Latin troops on its back, fighting Latins) and P5 (an NR unit with Roman class II on
    # its back): 1 each, once (KOR-A28) or per unit; P6: Rome 1 cavalry + King = 2 against 0 + no leader -> NR 2,
    # plus P1 1 for the leaderless NR army.
    common = dict(roman_units=[inf(3, 3, "latins"), inf(3, 3, "latins"), cav(3)], roman_leaders=[KING],
                  nr_units=[nr_inf(3, "roman_II"), nr_inf(3, "roman_II"), nr_inf(2, "roman_IV")], nr_leaders=[])
    r = run(n=200, **common)
    assert r["roman_pre_penalty"] == 1 and r["nr_pre_penalty"] == 1 + 2 + 1
    r = run(n=200, back_side_penalty="per_unit", **common)
    assert r["roman_pre_penalty"] == 2 and r["nr_pre_penalty"] == 2 + 2 + 1


def test_kor_a26_cavalry_count_basis():
    # Rome: 1 cavalry + its commander = 2, like the NR (1 + leader): no P6. Counting the whole army and all its
    # leaders, the Magister who withdrew (5.7.6) makes Rome's 3 against 2: the NR takes 2.
    common = dict(roman_units=[inf(3), inf(3), cav(3)], roman_leaders=[KING, MAGISTER],
                  nr_units=[nr_inf(3), cav(3)], nr_leaders=[NR_LEADER])
    assert run(n=200, **common)["nr_pre_penalty"] == 0
    assert run(n=200, cavalry_count_basis="whole_army_all_leaders", **common)["nr_pre_penalty"] == 2


# ------------------------------------------------------------------ 5.7.1, 5.7.2.1, 5.7.3
def test_5_7_1_preventive_withdrawal():
    # The NR army slips inside its own city: no battle, 1 hostile reaction (KOR-A15), nothing else.
    r = run(n=500, nr_city_in_hex=True)
    assert r["p_end_withdrawal"] == 1 and r["hostile_reactions"] == 1 and r["p_no_winner"] == 1
    assert r["ip"] == 0 and r["roman_units_lost"] == 0 and r["p_roman_score_0"] == 1
    assert run(n=500, nr_city_in_hex=True, orphan_reaction_line_owner="corruption")["hostile_reactions"] == 0
    # not in an NR-initiated battle (5.7.1 applies to Roman attacks)
    assert run(n=500, nr_city_in_hex=True, roman_action=False)["p_end_withdrawal"] == 0


def test_5_7_2_1_spolia_we4():
    # WE-4: Roman V3 A1 against NR V4 A1: Roman win 1/5, NR win 2/5, both die 2/5 (then the battle goes on,
    # leaderless). The challenge is forced by the parametric threshold.
    king = {"rank": "king", "virtus": 3, "astutia": 1}
    r = run(roman_leaders=[king], nr_leaders=[{"virtus": 4, "astutia": 1}],
            policies={"spolia": ("parametric", [-10])})
    assert_near(r, "p_end_spolia", F(3, 5))
    assert_near(r, "p_roman_leader_lost", F(4, 5))
    assert_near(r, "p_interrex", F(4, 5))  # the King killed: an Interrex (KOR-A38)
    assert_near(r, "p_nr_leader_lost", F(3, 5))
    # the default heuristic does not challenge here: 3 Roman hitting faces against 4
    assert run(n=5000, roman_leaders=[king], nr_leaders=[{"virtus": 4, "astutia": 1}])["p_end_spolia"] == 0


def test_5_7_2_1_spolia_results_stack_5711():
    # Roman V4 A2 against NR V2 A0 in sequential_roman_first: Rome hits d6 + 2 > 2 always, so Rome always wins
    # first: +3 IP +3 VP, plus the King's +2 IP +1 VP (KOR-A18), adjustment 2, no Triumph.
    king = {"rank": "king", "virtus": 4, "astutia": 2}
    r = run(n=2000, roman_leaders=[king], nr_leaders=[{"virtus": 2, "astutia": 0}],
            spolia_round_mode="sequential_roman_first", policies={"spolia": ("parametric", [-10])})
    assert r["p_win"] == 1 and r["ip"] == 5 and r["vp"] == 4 and r["tokens_nr_to_r"] == 2 and r["p_triumph"] == 0
    r = run(n=2000, roman_leaders=[king], nr_leaders=[{"virtus": 2, "astutia": 0}], spolia_stack_5711=False,
            spolia_round_mode="sequential_roman_first", policies={"spolia": ("parametric", [-10])})
    assert r["ip"] == 3 and r["vp"] == 3


def test_5_7_3_kor_a19_nr_tactic_draw():
    # coin_flip: with Rome attacking and no cavalry anywhere, ATTACK/ATTACK (phase 3) or ATTACK/DEFENCE
    # (retreat round, KOR-A23 no_cavalry) with 1/2 each.
    common = dict(n=N, roman_units=[inf(3)] * 3, nr_units=[nr_inf(3)] * 3, policies={"tactic": "attack"},
                  **NO_CAVALRY)
    assert_near(run(**common), "p_end_retreat_round", F(1, 2))
    # pool_without_replacement with 1 + 1 markers: Rome's ATTACK leaves the DEFENCE marker
    assert run(nr_tactic_draw="pool_without_replacement", **common)["p_end_retreat_round"] == 1
    # 3 ATTACK + 2 DEFENCE: after Rome's ATTACK, 2 of 4 remain DEFENCE -> 1/2; with Rome's DEFENCE 1 of 4
    r = run(nr_tactic_draw="pool_without_replacement", tactic_pool_attack=3, tactic_pool_defence=2,
            **{**common, "policies": {"tactic": "defence"}})
    assert_near(r, "p_end_defence_defence", F(1, 4))


def test_5_7_5_decline_and_phase3_cost():
    # KOR-A24: Rome declines phase 3: no winner, no cost; KOR-A25: an NR-initiated battle costs nothing.
    r = run(n=2000, policies={**ATTACK_ATTACK, "fight_phase3": ("parametric", [99])})
    assert r["p_end_stopped"] == 1 and r["ip"] == 0 and r["hostile_reactions"] == 2
    r = run(n=2000, roman_action=False, policies=ATTACK_ATTACK, roman_units=[inf(6, 1)] * 3,
            nr_units=[nr_inf(1)] * 3)
    # Rome (class I, +2) always hits Virtus 1 and the NR hits Virtus 6 never: Rome wins in round 1, no cost
    # (the King's +2 IP, no capture: no Captivi back)
    assert r["p_win"] == 1 and r["ip"] == 2 and r["hostile_reactions"] == 0


# ------------------------------------------------------------------ command line, TOML, errors
def test_battle_runs_from_the_command_line(capsys):
    assert main(["run", BATTLE, "-n", "2000", "--seed", "3", "--set", "attacker=nr",
                 "--set",
                 'nr_units=[{kind="infantry", virtus=3}, {kind="infantry", virtus=2}, {kind="cavalry", virtus=2}]',
                 "--policy", "tactic=attack", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["scenario"] == BATTLE and doc["n"] == 2000 and doc["params"]["attacker"] == "nr"
    assert doc["params"]["nr_units"][2] == {"kind": "cavalry", "virtus": 2, "back": "other"}
    assert 0 < doc["metrics"]["p_win"]["estimate"] < 1


def test_battle_runs_from_toml(tmp_path):
    path = tmp_path / "battle.toml"
    path.write_text('scenario = "kings_of_rome.battle"\nn = 1000\nseed = 4\n[params]\nnr_people = "gauls"\n'
                    'roman_leaders = [{rank = "magister_populi", virtus = 3, astutia = 1}]\n'
                    '[policies]\ntactic = "defence"\nreroll = ["parametric", [1]]\n')
    scenario, settings = romesim.load_toml(path)
    assert scenario.roman_leaders[0]["rank"] == "magister_populi" and settings["policies"]["tactic"] == "defence"
    r = romesim.simulate(scenario, settings["n"], settings["seed"], policies=settings["policies"])
    assert r.n == 1000 and r["roman_pre_penalty"] == 2  # P7: Rome against the Gauls (5.7.8)


@pytest.mark.parametrize("params, words", [
    (dict(roman_units=[inf(3), inf(3)]), "at least 3 military units"),
    (dict(roman_units=[{"kind": "infantry", "virtus": 3}] * 3), r"roman_units\[0\].roman_class"),
    (dict(roman_units=[cav(3, "captivi") | {"roman_class": 2}] * 3), "Roman cavalry is class I"),
    (dict(nr_units=[{"kind": "chariot", "virtus": 3}]), r"nr_units\[0\].kind: 'chariot'"),
    (dict(roman_leaders=[KING, KING]), "one King"),
    (dict(invader_war=True), "invader_war"),
    (dict(porsenna="commands"), "Porsenna leads Etruscans"),
    (dict(roman_units=[cav(3)] * 3, roman_leaders=[TRIBUNE]), "no commander can field 3"),
    (dict(battle_min_units_scope="both", nr_units=[nr_inf(3)]), "each army needs at least 3"),
    (dict(tactic_pool_attack=0), "tactic_pool_attack: 0"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(ScenarioError, match=words):
        romesim.scenario(BATTLE, **params)


def test_illegal_policy_action_is_reported():
    with pytest.raises(PolicyError, match="unknown policy"):
        run(n=10, policies={"tactic": "charge"})
    with pytest.raises(PolicyError, match=r"\['p_attack'\]"):
        run(n=10, policies={"tactic": ("parametric", [0.1, 0.2])})


def test_example_armies_and_reproducibility():
    s = romesim.kings_of_rome.Battle.example("romulus", "etruscan_army")
    assert s.nr_units[0]["virtus"] == 4 and s.roman_leaders[0]["rank"] == "king"
    a = romesim.simulate(s, 3000, seed=9, keep=True).outcomes
    b = romesim.simulate(s, 3000, seed=9, keep=True, chunk=700).outcomes
    assert a.equals(b)
    # P7 against the Etruscans (5.7.8) and a lower win rate than against the Latins
    assert (a["roman_pre_penalty"] >= 2).all()


def test_5_7_11_kor_a37_subordinate_tribune_is_tried():
    # The symmetric 3 v 3 battle (win 22/63, loss 22/63) commanded by a Magister (Astutia 0: in reserve) with a
    # Tribune in the army, against a led NR army (no P1, one "cavalry" each). After a defeat the Tribune is tried
    # (5.7.11: "s'il n'était qu'un subordonné ... et que le Roi ou un Magister en était le Chef"): acquitted iff
    # 2d6 - 2 > 8 (1/12), else -3 IP. Magister: win +1 IP +1 VP, loss -1 VP; phase 3 costs 1 IP.
    r = run(roman_units=[inf(3)] * 3, nr_units=[nr_inf(3)] * 3, roman_leaders=[MAGISTER, TRIBUNE],
            nr_leaders=[NR_LEADER], policies=ATTACK_ATTACK)
    win = loss = F(22, 63)
    assert_near(r, "p_loss", loss)
    assert_near(r, "ip", win - 1 - loss * F(11, 12) * 3)
    # a Tribune commanding alone: +1 IP on a win, -1 IP and the trial on a defeat (KOR-A37 stack)
    r = run(roman_units=[inf(3)] * 3, nr_units=[nr_inf(3)] * 3, roman_leaders=[TRIBUNE], nr_leaders=[NR_LEADER],
            policies=ATTACK_ATTACK)
    assert_near(r, "ip", 2 * win - 1 - loss * (1 + F(11, 12) * 3))


# ---------------------------------------------------------------------------- user functions read by state names
# Each bot re-implements a point's `default` built-in reading the state only through the names of the point's
# DecisionPoint.state: the same outcomes game by game show the kernel passes the entries those names describe.
_POINTS = {dp.name: dp for dp in BATTLE_POINTS}


def _at(point, *names):
    return tuple(_POINTS[point].state.index(name) for name in names)


LEGAL = _at("deployment", *(f"legal_{a}" for a in range(8)))
assert all(LEGAL == _at(point, *(f"legal_{a}" for a in range(8))) for point in _POINTS)
COMMANDER = tuple(_at("commander", f"rank_{a}", f"virtus_{a}", f"astutia_{a}") for a in range(3))
(PART_VIRTUS,) = _at("participants", "virtus")
SPOLIA_RV, SPOLIA_RA, SPOLIA_NV, SPOLIA_NA, SPOLIA_OMEN = _at("spolia", "roman_virtus", "roman_astutia", "nr_virtus",
                                                              "nr_astutia", "omen")
TACTIC_ROME, TACTIC_NR, TACTIC_ATTACK, TACTIC_DEFENCE = _at("tactic", "roman_strength", "nr_strength",
                                                            "attack_estimate", "defence_estimate")
PAIRING = {point: _at(point, *(f"roman_virtus_{a}" for a in range(8)))
           for point in ("vanguard_pairing", "retreat_pairing", "deployment")}
ALIVE_ROME, ALIVE_NR = _at("fight_phase3", "roman_alive", "nr_alive")
assert (ALIVE_ROME, ALIVE_NR) == _at("continue_after_clash", "roman_alive", "nr_alive")
(LEADER_ASTUTIA,), LEADER_BOX = _at("leader_position", "astutia"), _at("leader_position", "box_virtus_0",
                                                                       "box_virtus_1", "box_virtus_2")
(ASTUTIA_LEFT,) = _at("reroll", "astutia_left")
(RESERVE_VIRTUS,) = _at("reserve_infantry", "unit_virtus")
FACING = _at("fill_box", "facing_0", "facing_1", "facing_2")


@numba.njit
def user_commander(state, params, stream):
    pick, best = -1, 0
    for a in range(3):
        rank, virtus, astutia = state[COMMANDER[a][0]], state[COMMANDER[a][1]], state[COMMANDER[a][2]]
        value = -100 * rank + 10 * virtus + astutia
        if state[LEGAL[a]] and (pick < 0 or value > best):
            pick, best = a, value
    return pick


@numba.njit
def user_participants(state, params, stream):
    return 1 if state[PART_VIRTUS] >= 1 else 0


@numba.njit
def user_spolia(state, params, stream):
    roman, nr = 0, 0
    for die in range(1, 7):
        roman += die + state[SPOLIA_RA] + state[SPOLIA_OMEN] > state[SPOLIA_NV]
        nr += die + state[SPOLIA_NA] > state[SPOLIA_RV]
    return 1 if roman - nr >= 1 else 0


@numba.njit
def user_tactic(state, params, stream):
    if state[TACTIC_ATTACK] != state[TACTIC_DEFENCE]:
        return 1 if state[TACTIC_ATTACK] > state[TACTIC_DEFENCE] else 0
    return 1 if state[TACTIC_ROME] >= state[TACTIC_NR] else 0


@numba.njit
def user_attack(state, params, stream):
    return 1


def _strongest(virtus):
    @numba.njit
    def strongest(state, params, stream):
        pick = -1
        for a in range(8):
            if state[LEGAL[a]] and (pick < 0 or state[virtus[a]] > state[virtus[pick]]):
                pick = a
        return pick
    return strongest


@numba.njit
def user_more_alive(state, params, stream):
    return 1 if state[ALIVE_ROME] - state[ALIVE_NR] >= 0 else 0


@numba.njit
def user_leader(state, params, stream):
    if state[LEADER_ASTUTIA] >= 1:
        pick = -1
        for box in range(3):
            if state[LEGAL[box]] and (pick < 0 or state[LEADER_BOX[box]] > state[LEADER_BOX[pick]]):
                pick = box
        if pick >= 0:
            return pick
    return 3


@numba.njit
def user_reroll(state, params, stream):
    return 1 if state[ASTUTIA_LEFT] > 0 else 0


@numba.njit
def user_reserve_infantry(state, params, stream):
    return 1 if state[RESERVE_VIRTUS] >= 1 else 0


@numba.njit
def user_reserve_cavalry(state, params, stream):
    if state[LEGAL[0]]:
        return 0
    return 1 if state[LEGAL[1]] else 2


@numba.njit
def user_fill(state, params, stream):
    pick = -1
    for box in range(3):
        if state[LEGAL[box]] and (pick < 0 or state[FACING[box]] < state[FACING[pick]]):
            pick = box
    return pick


@numba.njit
def user_claim(state, params, stream):
    return 1


USER_BOTS = {"commander": user_commander, "participants": user_participants, "spolia": user_spolia,
             "tactic": user_tactic, "nr_tactic": user_attack,
             "vanguard_pairing": _strongest(PAIRING["vanguard_pairing"]),
             "continue_after_clash": user_more_alive, "fight_phase3": user_more_alive,
             "retreat_pairing": _strongest(PAIRING["retreat_pairing"]),
             "deployment": _strongest(PAIRING["deployment"]), "leader_position": user_leader,
             "reroll": user_reroll, "reserve_infantry": user_reserve_infantry,
             "reserve_cavalry": user_reserve_cavalry, "fill_box": user_fill, "triumph": user_claim}
# what the bots re-implement: every point's default, and the NR marker always ATTACK (a user function replaces the
# rules' draw)
USER_BOTS_BUILTINS = {"nr_tactic": "attack"}


def assert_user_bots_play_the_builtins(scenario, n=2000):
    assert set(USER_BOTS) == set(_POINTS)
    user = romesim.simulate(scenario, n, seed=11, keep=True, policies=USER_BOTS)
    builtin = romesim.simulate(scenario, n, seed=11, keep=True, policies=USER_BOTS_BUILTINS)
    assert user.outcomes.equals(builtin.outcomes)
    return user


@pytest.mark.parametrize("nr", ["latin_army", "etruscan_army"])
def test_user_functions_by_state_names_play_the_builtins(nr):
    """A user @njit function at every battle decision point, reading the state by the names of its DecisionPoint,
    plays game by game as the built-in it re-implements (KoR 5.7, DP-B01..B15, KOR-A19)."""
    r = assert_user_bots_play_the_builtins(romesim.kings_of_rome.Battle.example("romulus", nr))
    assert r.outcomes["phase3_rounds"].sum() > 0  # phase 3 was fought: deployment, rerolls, reserves were asked
