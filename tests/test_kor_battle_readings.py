"""KoR 5.7 battle: the seed's words on rerolls, short lines, the end of the battle, the Tribune's IP and the
readings the seed leaves open.

Each expected value is worked by hand in its comment from the rule text (seed ``000_762a316e1eb01b34.txt``), and
the kernel's Monte Carlo estimate is checked against it, or against the independent exact solver, at 5 sigma
with a fixed seed. A hit is d6 + DRM > Virtus (C1); NR dice have no DRM.
"""
from fractions import Fraction as F

import pytest
from helpers import assert_matches_exact, cav, inf

import romesim

BATTLE = "kings_of_rome.battle"
AMBUSH = "kings_of_rome.ambush"
N = 200_000

AA = {"tactic": "attack", "nr_tactic": "attack"}
AD = {"tactic": "attack", "nr_tactic": "defence"}
DD = {"tactic": "defence", "nr_tactic": "defence"}




def check(scenario, policies, want):
    """The exact solver gives ``want`` (hand-derived) and the kernel's Monte Carlo matches the solver."""
    exact = romesim.exact(scenario, policies=policies)
    for metric, value in want.items():
        assert exact.exact_values[metric] == value, f"{metric}: exact {exact.exact_values[metric]} vs {value}"
    assert_matches_exact(romesim.simulate(scenario, N, seed=13, policies=policies), exact)
    return exact.exact_values


# ------------------------------------------------------------------ item 1: one reroll per roll (5.7.9)
# One Roman die can hit: a King of Astutia 3 stands in the front line (DP-B10 default) beside three Roman Virtus-6
# infantry that the NR cannot hit; the NR army is one Virtus-3 infantry, so the other two Roman units face empty
# boxes and do not roll. The Roman die hits d6 > 3 (1/2); the battle ends with the round that kills the NR unit.
# One reroll per roll: with a points left a round fails with (1/2)(1/2) and costs a point only when the first die
# misses, so R(a) = 1 + R(a - 1) / 4 with R(0) = 2 (geometric 1/2): R(1) = 3/2, R(2) = 11/8, R(3) = 43/32.
# Chained rerolls: round 1 fails only if all four dice miss (1/16), leaving no point: 1 + (1/16) * 2 = 9/8.
# The King would win a Spolia duel (6 hitting faces against 3), so DP-B03 is told never to challenge.
NO_SPOLIA = {"spolia": ("parametric", [99])}
REROLL = dict(roman_units=[inf(6, 3)] * 3, nr_units=[inf(3)], roman_leaders=[{"rank": "king", "virtus": 3,
                                                                              "astutia": 3}],
              nr_leaders=[{"virtus": 3, "astutia": 0}])


@pytest.mark.parametrize("chain, rounds", [("once", F(43, 32)), ("chained", F(9, 8))])
def test_5_7_9_astutia_once(chain, rounds):
    """KoR 5.7.9: « Les chefs peuvent affecter de 1 à 3 attaques, en fonction de leur valeur d'Astutia, en
    permettant à l'une de leurs unités de relancer les Dés » (leaders may affect 1 to 3 attacks, according to
    their Astutia, by letting one of their units reroll the dice): one point affects one attack, so a die is
    rerolled once. KOR-A22 ``astutia_reroll = chained`` rerolls the same die while points last."""
    e = check(romesim.scenario(BATTLE, astutia_reroll=chain, **REROLL), {**AA, **NO_SPOLIA},
              {"phase3_rounds": rounds, "p_win": 1, "nr_units_lost": 1})
    assert e["roman_units_lost"] == 0


def test_5_7_9_chained_rerolls_are_an_option_in_every_solver():
    # the same battle with both leaders of Astutia 3 and every die able to hit: the two readings differ, and the
    # kernel follows the exact solver under each
    params = dict(roman_units=[inf(3, 3)] * 3, nr_units=[inf(3)] * 3,
                  roman_leaders=[{"rank": "king", "virtus": 3, "astutia": 3}], nr_leaders=[{"virtus": 3,
                                                                                            "astutia": 3}])
    policies = {**AA, **NO_SPOLIA}
    once = romesim.exact(romesim.scenario(BATTLE, **params), policies=policies).exact_values
    chained = romesim.scenario(BATTLE, astutia_reroll="chained", **params)
    want = romesim.exact(chained, policies=policies)
    # one reroll each: every first-round die hits with 3/4; chained: the first die with 15/16 and the later ones
    # with what points it left, so the losses differ (a round without a hit has 1/64 under both)
    assert want.exact_values["nr_units_lost"] != once["nr_units_lost"]
    assert_matches_exact(romesim.simulate(chained, N, seed=13, policies=policies), want)


@pytest.mark.parametrize("astutia", [1, 2])
def test_5_7_2_1_spolia_duel_has_no_astutia_reroll(astutia):
    """KoR 5.7.2.1: « Chacun lance 1D6 + sa valeur d'Astutia et tente de faire plus que le Virtus de
    l'adversaire » … « L'utilisation d'Astutia pour relancer le Dé n'est pas autorisée » (each rolls 1D6 + his
    Astutia and tries to beat the other's Virtus … using Astutia to reroll the die is not allowed).

    Roman V4 against NR V5, both of Astutia ``a``: the Roman hits d6 + a > 5, the NR d6 + a > 4, one die each,
    rounds repeated until a hit (KOR-A17). a = 1: 1/3 and 1/2 -> win (1/6) / (2/3) = 1/4, loss (1/3) / (2/3) =
    1/2, both 1/4. a = 2: 1/2 and 2/3 -> win (1/6) / (5/6) = 1/5, loss (1/3) / (5/6) = 2/5, both 2/5. A reroll
    of a missed die would raise both chances; the duel in the battle and on its own use none."""
    p_r, p_n = F(astutia + 1, 6), F(astutia + 2, 6)
    go_on = 1 - (1 - p_r) * (1 - p_n)
    win, loss = p_r * (1 - p_n) / go_on, (1 - p_r) * p_n / go_on
    assert (win, loss) == {1: (F(1, 4), F(1, 2)), 2: (F(1, 5), F(2, 5))}[astutia]
    duel = romesim.scenario("kings_of_rome.spolia", roman_virtus=4, roman_astutia=astutia, nr_virtus=5,
                            nr_astutia=astutia)
    r = romesim.simulate(duel, N, seed=13)
    assert_matches_exact(r, romesim.exact(duel))
    assert romesim.exact(duel).exact_values["p_win"] == win and romesim.exact(duel).exact_values["p_loss"] == loss
    # inside the battle (DP-B03 parametric -6: always challenge); a Magister commands so the DEFENCE/DEFENCE
    # battle without cavalry ends at once after "both die": p_end_spolia = win + loss
    battle = romesim.scenario(BATTLE, roman_units=[inf(3, 3)] * 3, nr_units=[inf(3)] * 3,
                              roman_leaders=[{"rank": "magister_populi", "virtus": 4, "astutia": astutia}],
                              nr_leaders=[{"virtus": 5, "astutia": astutia}])
    policies = {**DD, "spolia": ("parametric", [-6])}
    e = romesim.exact(battle, policies=policies)
    assert e.exact_values["p_win"] == win and e.exact_values["p_loss"] == loss
    assert_matches_exact(romesim.simulate(battle, N, seed=13, policies=policies), e)


# ------------------------------------------------------------------ item 2: short lines (5.7.11)
def test_5_7_11_a_front_box_empty_at_set_up_ends_nothing():
    """KoR 5.7.11: « Lorsqu'une ou plusieurs cases de la ligne de front sont laissées vides par des unités
    éliminées et ne peuvent être occupées par des unités en Réserve, la bataille est terminée » (when one or more
    front boxes are left empty by eliminated units and cannot be filled from the Reserve, the battle is over):
    a box no unit filled at the set-up does not end it; the short line fights with the boxes it fills.

    3 Roman V3 class III infantry against 2 NR V1 infantry, no leaders (P1 both, equal tracks), ATTACK/ATTACK.
    Two pairs fight: Rome hits d6 > 1 (5/6), the NR d6 > 3 (1/2); the third Roman faces an empty box. Per pair
    the NR loses one point more than Rome with 5/12 (only the NR unit dies), one less with 1/12, as many with 1/2
    (both or neither). A round ends the battle unless nobody dies (1/144): P(Rome ahead) = (5/12)^2 + 2 (5/12)
    (1/2) = 85/144, P(NR ahead) = (1/12)^2 + 2 (1/12)(1/2) = 13/144. Before: 0 rounds, no winner, -1 IP."""
    scenario = romesim.scenario(BATTLE, roman_units=[inf(3, 3)] * 3, nr_units=[inf(1)] * 2, roman_leaders=[],
                                nr_leaders=[])
    check(scenario, AA, {"phase3_rounds": F(144, 143), "p_win": F(85, 143), "p_loss": F(13, 143),
                         "p_no_winner": F(45, 143), "ip": F(85, 143) - 1, "p_end_phase3": 1})


def test_5_7_11_short_line_with_the_default_armies_leaders():
    # the short line with the default Roman and Latin leaders (rerolls, Spolia, tactics by the default bots):
    # the kernel against the exact solver, and a real battle now
    scenario = romesim.scenario(BATTLE, roman_units=[inf(3, 3)] * 3, nr_units=[inf(1)] * 2)
    e = romesim.exact(scenario)
    assert e.exact_values["phase3_rounds"] > 1 and e.exact_values["p_win"] > F(1, 3)
    assert_matches_exact(romesim.simulate(scenario, N, seed=13), e)


def test_6_4_c_small_roman_force_in_an_ambush():
    """KoR 6.4 c with 5.7.11: two Roman V3 class III infantry ambushed by three NR V3 infantry (leader V3 A0).
    The NR faces the Roman boxes RIGHT and CENTRE; its third unit faces the empty LEFT box and does not roll.
    Round 1: the NR dice alone (1/2 each); no hit with 1/4, then two symmetric pairs whose round ends the battle
    with 15/16: E[rounds] = 1 + (1/4)(16/15) = 19/15; Roman losses 2 (1/2) + (1/4)(1)(16/15) = 19/15; NR losses
    (1/4)(16/15) = 4/15. Rome starts 3 points down (P1 no leader, P6 fewer cavalry, the NR leader counting) and
    two boxes can never make that up: p_win = 0. Before: the empty LEFT box ended the battle before any die."""
    scenario = romesim.scenario(AMBUSH, roman_units=[inf(3, 3)] * 2, nr_units=[inf(3)] * 3, roman_leaders=[],
                                nr_leaders=[{"virtus": 3, "astutia": 0}])
    check(scenario, None, {"phase3_rounds": F(19, 15), "roman_units_lost": F(19, 15), "nr_units_lost": F(4, 15),
                           "p_win": 0})


# ------------------------------------------------------------------ item 3: no die after the end (5.7.11)
def test_5_7_11_no_attack_on_a_leader_after_the_end():
    """KoR 5.7.11: « Note : la bataille se termine immédiatement, n'effectuez pas d'autres lancers de Dés »
    (the battle ends at once, roll no more dice): the reserve cavalry's attack on a leader (5.7.10 b) is not
    rolled in the reserve step of the round that ended the battle.

    Rome: 3 V6 class III infantry (the NR never hits them) and a V3 cavalry in reserve, the King (A0, in reserve);
    the NR: 3 V3 infantry, its leader V3 A0 in the front line. Each round the three Roman dice hit with 1/2; a hit
    empties an NR box the NR cannot fill, which ends the battle (7/8). Only after a round without a hit (1/8) does
    the cavalry attack the leader (d6 > 3, 1/2): P(leader lost) L = (1/8)(1/2 + L/2) -> L = 1/15 (before, rolled
    every round: 8/15). Rome always wins (the NR is 2 points down, P6); the Triumph needs the leader taken or all
    NR infantry destroyed, the latter in the last round with (1/8)/(7/8) = 1/7: 1 - (14/15)(6/7) = 1/5 (before
    3/5)."""
    scenario = romesim.scenario(BATTLE, roman_units=[inf(6, 3)] * 3 + [cav(3)], nr_units=[inf(3)] * 3,
                                roman_leaders=[{"rank": "king", "virtus": 3, "astutia": 0}],
                                nr_leaders=[{"virtus": 3, "astutia": 0}])
    check(scenario, AA, {"p_nr_leader_lost": F(1, 15), "p_triumph": F(1, 5), "p_win": 1})


def test_5_7_10_b_the_attack_on_a_leader_has_no_class_drm():
    """KoR 5.7.10 b: the reserve cavalry rolls « 1D6 contre sa Virtus » (one d6 against his Virtus), with Good Omen
    as its only DRM (KOR-A58); KOR-A21 ``plus2`` gives Roman cavalry its class DRM in combat rolls, not here. The
    battle above under ``plus2`` (the cavalry stays in reserve, there is no clash without NR cavalry) keeps
    L = 1/15; with a +2 the attack would hit on d6 > 1 and give L = (1/8)(5/6 + L/6) = 5/47."""
    scenario = romesim.scenario(BATTLE, roman_units=[inf(6, 3)] * 3 + [cav(3)], nr_units=[inf(3)] * 3,
                                roman_leaders=[{"rank": "king", "virtus": 3, "astutia": 0}],
                                nr_leaders=[{"virtus": 3, "astutia": 0}], roman_cavalry_class_drm="plus2")
    check(scenario, AA, {"p_nr_leader_lost": F(1, 15), "p_triumph": F(1, 5), "p_win": 1})


# ------------------------------------------------------------------ item 4: the defeated Tribune (9.2.7.1)
def test_9_2_7_1_a_fallen_tribune_still_loses_1_ip():
    """KoR 9.2.7.1: « Après la bataille ou le siège, un Tribun victorieux gagne 1 PI pour le Roi … Un Tribun
    vaincu perd 1 PI et est replacé dans le récipient NR » (after the battle or the siege a victorious Tribune
    gains 1 IP for the King … a defeated Tribune loses 1 IP and goes back to the NR container), whether or not he
    fell.

    A Tribune (V2 A1) challenges the NR leader (V3 A1) to the Spolia (DP-B03 parametric -6): he hits d6 + 1 > 3
    (2/3), the NR d6 + 1 > 2 (5/6); repeated rounds: win (1/9) / (17/18) = 2/17, loss (5/18) / (17/18) = 5/17,
    both die 10/17 (then DEFENCE/DEFENCE without cavalry ends with no winner). Win: +3 +1 (5.7.11) +1 (Tribune)
    IP; loss: -3 (5.7.2.1) and the fallen Tribune's -1 (no trial for a dead man): ip = (2/17) 5 - (5/17) 4 =
    -10/17 (before: -5/17)."""
    scenario = romesim.scenario(BATTLE, roman_units=[inf(3, 3)] * 3, nr_units=[inf(3)] * 3,
                                roman_leaders=[{"rank": "tribunus_populi", "virtus": 2, "astutia": 1}],
                                nr_leaders=[{"virtus": 3, "astutia": 1}])
    check(scenario, {**DD, "spolia": ("parametric", [-6])},
          {"p_win": F(2, 17), "p_loss": F(5, 17), "ip": F(-10, 17)})


# ------------------------------------------------------------------ item 5: readings the seed leaves open
@pytest.mark.parametrize("trigger", ["cavalry_lost", "no_cavalry"])
def test_5_7_4_retreat_only_when_the_cavalry_is_gone(trigger):
    """KoR 5.7.4: « Une Armée ne doit reculer d'un hexagone supplémentaire (et donc interrompre tout combat) que
    si son choix s'est porté sur la Défense et qu'il ne lui reste plus de cavalerie » (an army retreats only if
    it chose Defence and has no cavalry left), and « L'affrontement entre avant-gardes n'a lieu que s'il y a des
    unités de cavalerie régulière dans les deux armées adverses. Si ce n'est pas le cas, passez à la troisième
    phase de combat » (no clash unless both armies have cavalry; otherwise go to the third phase).

    ATTACK/DEFENCE, three V3 infantry a side, no leaders, no cavalry anywhere. Default (KOR-A23
    retreat_round_trigger = cavalry_lost): no cavalry was lost, so phase 3: the symmetric three pairs, p_win =
    22/63, 64/63 rounds (see test_one_phase3_round_three_pairs). no_cavalry: the NR retreats after one round."""
    scenario = romesim.scenario(BATTLE, roman_units=[inf(3, 3)] * 3, nr_units=[inf(3)] * 3, roman_leaders=[],
                                nr_leaders=[], retreat_round_trigger=trigger)
    if trigger == "cavalry_lost":
        want = {"p_end_phase3": 1, "p_win": F(22, 63), "phase3_rounds": F(64, 63)}
    else:
        # the retreat round: Rome hits d6 > 3 (1/2) on each of the 3 pairs, the NR answers d6 - 1 > 3 (1/3)
        want = {"p_end_retreat_round": 1, "p_no_winner": 1, "nr_units_lost": F(3, 2), "roman_units_lost": 1}
    check(scenario, AD, want)


def test_5_7_4_retreat_after_the_cavalry_is_lost():
    # the default still retreats an army whose cavalry the clash destroyed: one V3 pair, Rome rolls first (the
    # attacker): Rome wins it with 2/3 (WE-5), then the NR (DEFENCE, no cavalry left) retreats
    scenario = romesim.scenario(BATTLE, roman_units=[inf(3, 3)] * 2 + [cav(3)], nr_units=[inf(3)] * 2 + [cav(3)])
    check(scenario, AD, {"p_end_retreat_round": F(2, 3)})


@pytest.mark.parametrize("first, p_rome_wins", [("hex_attacker", F(1, 3)), ("attack_marker", F(2, 3))])
def test_5_7_4_who_rolls_first_in_the_vanguard_clash(first, p_rome_wins):
    """KoR 5.7.4: « Chaque unité de cavalerie, en commençant par l'attaquant, lance un Dé » (each cavalry unit,
    starting with the attacker, rolls a die), with 5.7.2: « La faction qui entre dans l'hexagone et s'oppose au
    défenseur est l'attaquant » (the side that enters the hex is the attacker). Default (KOR-A20
    vanguard_first_roller = hex_attacker): that side; attack_marker: the side that chose ATTACK.

    The NR entered the hex; Rome chose ATTACK, the NR DEFENCE. One V3 cavalry pair, leaders V3 A1 (no reroll in
    the clash, KOR-A22): the first roller wins with (1/2) / (3/4) = 2/3. Rome wins it (and the NR, without
    cavalry, retreats) with 1/3 when the NR rolls first, 2/3 when Rome does."""
    scenario = romesim.scenario(BATTLE, roman_units=[inf(3, 3)] * 2 + [cav(3)], nr_units=[inf(3)] * 2 + [cav(3)],
                                attacker="nr", vanguard_first_roller=first)
    check(scenario, AD, {"p_end_retreat_round": p_rome_wins})


@pytest.mark.parametrize("people, points", [("latins", 1), ("gauls", 0)])
@pytest.mark.parametrize("reading", ["all_nr_infantry", "italic_only"])
def test_5_7_8_points_for_non_italic_infantry(people, points, reading):
    """KoR 5.7.8: « - 1 (NR) perte d'une infanterie italique » (1 point for the NR: loss of an Italic infantry);
    the glossary uses « Les chefs italiques ou NR » (Italic or NR leaders) as one, and names the Gauls beside
    « les peuples italiques ». Default (KOR-A28 nr_infantry_loss_points = all_nr_infantry): every NR infantry
    costs 1 point; italic_only: Gauls and Greeks cost none.

    Three V3 infantry a side, no leaders, ATTACK/ATTACK: the NR's in-battle points are its infantry losses times
    the points per unit."""
    points = 1 if reading == "all_nr_infantry" else points
    scenario = romesim.scenario(BATTLE, roman_units=[inf(3, 3)] * 3, nr_units=[inf(3)] * 3, roman_leaders=[],
                                nr_leaders=[], nr_people=people, nr_infantry_loss_points=reading)
    e = romesim.exact(scenario, policies=AA).exact_values
    assert e["nr_penalty"] - e["nr_pre_penalty"] == points * e["nr_units_lost"]
    assert e["nr_units_lost"] == F(3, 2) * F(64, 63)  # three pairs of 1/2 dice until a round with a death
    if people == "gauls" and reading == "italic_only":
        # the NR's losses cost nothing: Rome (3 points: P1, P7) stays behind the NR (1 point: P1) whatever
        # falls
        assert e["p_win"] == 0
        assert_matches_exact(romesim.simulate(scenario, N, seed=13, policies=AA), romesim.exact(scenario,
                                                                                                  policies=AA))


@pytest.mark.parametrize("scope, roman, nr", [("whole_army", 1, 1), ("participants", 0, 0)])
def test_5_7_8_back_side_penalty_over_the_army(scope, roman, nr):
    """KoR 5.7.8: « -1 à l'armée romaine si une unité de l'armée a sur son dos des troupes de la nationalité
    contre laquelle elle est engagée dans la bataille » and « -1 à l'armée NR si une unité de l'armée a sur son
    verso des troupes romaines de classe III, II ou I » (-1 if a unit of the army has on its back troops of the
    enemy's nationality / Roman troops of class III-I). Default (KOR-A28 back_side_scope = whole_army): any unit
    of the army; participants: only the units that fight (5.7.6).

    Each army has 5 infantry, one more than its commander may field (table 5.1: 4 infantry); the weakest, which
    stays out, carries the back."""
    scenario = romesim.scenario(BATTLE, roman_units=[inf(3, 3)] * 4 + [inf(1, 5, back="latins")],
                                nr_units=[inf(3)] * 4 + [inf(1, back="roman_II")], back_side_scope=scope)
    e = check(scenario, DD, {"roman_pre_penalty": roman, "nr_pre_penalty": nr})
    assert e["p_end_defence_defence"] == 1
