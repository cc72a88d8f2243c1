"""Jugule 13 careers: the promotion ladder against its exact Markov chain (fixed per-duel odds), and played duels."""
from fractions import Fraction as F

import numpy as np
import pytest
from helpers import assert_matches_exact

import romesim
from romesim.jugule import career as jc

CAREER = "jugule.career"
LADDER_NAME = "jugule.career_ladder"
# fixed odds per opponent rank (per mille): harder opponents are more often fatal
LADDER = dict(opponent_ranks=[3, 2, 2, 1], fixed_win=[650, 600, 450, 350], fixed_spared=[200, 200, 250, 300],
              max_fights=25)


def test_13_ladder_monte_carlo_within_5_sigma_of_the_markov_chain():
    scenario = romesim.scenario(LADDER_NAME, **LADDER)
    assert_matches_exact(romesim.simulate(scenario, 200_000, seed=13), romesim.exact(scenario))


@pytest.mark.parametrize("options", [dict(primus_is_novice=False), dict(career_counters="career_total"),
                                     dict(career_counters="since_promotion"), dict(after_rudis="fight_on")])
def test_jug_a63_a64_ladder_readings_within_5_sigma(options):
    scenario = romesim.scenario(LADDER_NAME, **LADDER, **options)
    assert_matches_exact(romesim.simulate(scenario, 100_000, seed=64), romesim.exact(scenario))


def test_13_survival_curve_matches_the_markov_chain():
    n = 100_000
    curve = jc.survival(romesim.simulate(romesim.scenario(LADDER_NAME, **LADDER), n, seed=5, keep=True).outcomes)
    want = romesim.jugule.exact.career_solution(
        romesim.jugule.exact.DuelOdds(win=tuple(F(w, 1000) for w in LADDER["fixed_win"]),
                                      spared=tuple(F(s, 1000) for s in LADDER["fixed_spared"])),
        LADDER["opponent_ranks"], max_fights=LADDER["max_fights"])["survival"]
    got = curve.set_index("fights")["survival"]
    assert got[0] == 1.0
    for k in (1, 2, 4, 8):
        p = float(want[k - 1])
        assert abs(got[k] - p) <= 5 * np.sqrt(p * (1 - p) / n), k


def test_13_c1_by_hand_one_duel_against_tiros():
    # only tiros, win 1/2, spared 1/4: the first duel is survived with 3/4 (C1: primus palus), fatal with 1/4
    scenario = romesim.scenario(LADDER_NAME, opponent_ranks=[1, 0, 0, 0], fixed_win=[500, 0, 0, 0],
                                fixed_spared=[250, 0, 0, 0], max_fights=1)
    exact = romesim.exact(scenario)
    assert exact.exact_values["p_primus_palus"] == F(3, 4)
    assert exact.exact_values["p_death_tiro"] == F(1, 4)
    assert exact.exact_values["p_capped"] == F(3, 4)
    assert_matches_exact(romesim.simulate(scenario, 100_000, seed=1), exact)


@pytest.mark.parametrize("counters, p_speciarius", [("novice_period", 1), ("since_promotion", 0),
                                                    ("career_total", 1)])
def test_13_c3_jug_a64_two_straight_wins_against_tiros(counters, p_speciarius):
    """13 C3, JUG-A64: « Un novice (TIROS) … Remportant deux victoires contre des novices devient expérimenté
    (SPECIARII) » (a novice, a tiro, who wins two victories against novices becomes experienced). Two duels won
    against tiros make a speciarius: the first victory, won as a tiro, still counts after C1 made him primus
    palus. ``since_promotion`` (the promotion to primus palus clears the count) needs a third."""
    scenario = romesim.scenario(LADDER_NAME, opponent_ranks=[1, 0, 0, 0], fixed_win=[1000, 0, 0, 0],
                                fixed_spared=[0, 0, 0, 0], max_fights=2, career_counters=counters)
    assert romesim.exact(scenario).exact_values["p_speciarius"] == p_speciarius
    assert romesim.simulate(scenario, 500, seed=3)["p_speciarius"] == p_speciarius


def test_13_c6_d17_fight_on_after_the_rudis():
    """13 C6, D17: « Mais rien ne l'empêche de poursuivre sa carrière dans l'arène s'il le souhaite » (but
    nothing stops him from going on with his career in the arena if he wishes): always a veteranus opponent,
    always won; with ``after_rudis = fight_on`` the freed gladiator fights on to the cap."""
    base = dict(opponent_ranks=[0, 0, 0, 1], fixed_win=[0, 0, 0, 1000], fixed_spared=[0, 0, 0, 0], max_fights=14)
    retire = romesim.simulate(romesim.scenario(LADDER_NAME, **base), 500, seed=2)
    on = romesim.simulate(romesim.scenario(LADDER_NAME, **base, after_rudis="fight_on"), 500, seed=2)
    assert (retire["p_rudis"], retire["fights"], retire["p_capped"]) == (1, 10, 0)
    assert (on["p_rudis"], on["fights"], on["wins"], on["p_capped"]) == (1, 14, 14, 1)


def test_13_c2_c5_c6_certain_path_to_the_rudis():
    # always a veteranus opponent, always won: C2 at once (speciarius), C5 next (veteranus), rudis at win 10
    scenario = romesim.scenario(LADDER_NAME, opponent_ranks=[0, 0, 0, 1], fixed_win=[0, 0, 0, 1000],
                                fixed_spared=[0, 0, 0, 0])
    result = romesim.simulate(scenario, 2_000, seed=2)
    for metric, want in [("p_rudis", 1), ("p_speciarius", 1), ("p_veteranus", 1), ("fights", 10), ("wins", 10),
                         ("elite_wins", 10), ("p_death", 0)]:
        assert result[metric] == want, metric


@pytest.mark.parametrize("name, params, words", [
    (LADDER_NAME, dict(fixed_win=[600, 0, 0, 0], fixed_spared=[500, 0, 0, 0]), "600 \\+ 500 per mille against a tiro"),
    (LADDER_NAME, dict(opponent_ranks=[0, 0, 0, 0]), "opponent_ranks: \\[0, 0, 0, 0\\]"),
    (LADDER_NAME, dict(opponent_ranks=[1, 1, 1]), "opponent_ranks: "),
    (LADDER_NAME, dict(max_fights=201), "max_fights: 201"),
    (CAREER, dict(gladiator="gorilla"), "gladiator: 'gorilla'"),
    (CAREER, dict(opponents=[{"type": "gorilla"}]), "opponents\\[0\\].type: 'gorilla'"),
    (CAREER, dict(opponents=[{"type": "secutor", "weight": 0}]), "opponents\\[0\\].weight: 0"),
    (CAREER, dict(career_counters="forever"), "career_counters: 'forever'"),
    (LADDER_NAME, dict(after_rudis="never"), "after_rudis: 'never'"),
    (CAREER, dict(max_fights=0), "max_fights: 0"),
    (CAREER, dict(coward_turns=0), "coward_turns: 0"),
    (CAREER, dict(bonus_policy="gold"), "bonus_policy: 'gold'"),
])
def test_bad_parameters_are_named(name, params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(name, **params)


def test_d1_jug_a65_bonus_points():
    assert jc.bonus_points(jc.TIRO, "hp") == (0, 0)
    assert jc.bonus_points(jc.SPECIARIUS, "ap") == (0, 1)
    assert jc.bonus_points(jc.VETERANUS, "hp") == (2, 0)
    assert jc.bonus_points(jc.VETERANUS, "alternate") == (1, 1)
    assert jc.bonus_points(jc.VETERANUS, "alternate", "plus2") == (2, 1)


def test_career_has_no_exact_answer_but_the_ladder_has():
    with pytest.raises(romesim.ExactNotSupported):
        romesim.exact(romesim.scenario(CAREER))
    assert romesim.exact(romesim.scenario(LADDER_NAME, max_fights=3)).exact_values["fights"] > 1


def test_career_table_names_unknown_types():
    with pytest.raises(romesim.ScenarioError, match="types: 'gorilla'"):
        jc.career_table(["gorilla"], n=10)


def test_d3_d16_user_functions_play_the_career_gladiator_by_state_names():
    """The career gladiator is side A of every duel: user functions on his points, reading the state by the names
    of the points' `state` tuples, play the careers of the built-ins they rewrite, game by game."""
    from test_jug_duel import DEFAULT_BOT, RANDOM_BOT

    sc = romesim.scenario(CAREER, gladiator="retiarius", opponents=[{"type": "secutor"}, {"type": "laquearius"}],
                          max_fights=4)
    users = {f"a_{p}": fn for p, fn in RANDOM_BOT.items()}
    builtin = {f"a_{p}": "random" for p in RANDOM_BOT}
    got = romesim.simulate(sc, 500, seed=31, policies=users, keep=True).outcomes
    assert got.equals(romesim.simulate(sc, 500, seed=31, policies=builtin, keep=True).outcomes)
    users = {f"a_{p}": fn for p, fn in DEFAULT_BOT.items()}
    got = romesim.simulate(sc, 500, seed=32, policies=users, keep=True).outcomes
    assert got.equals(romesim.simulate(sc, 500, seed=32, keep=True).outcomes)
