"""KoR 9.2.4 Inauguratio (and KOR-A50 for Numa): exact values by hand (WE-5 bonus check), Monte Carlo and
reference checks."""
from fractions import Fraction as F

import pytest

import romesim
from helpers import assert_matches_exact, assert_reference_equal

INAUGURATIO = "kings_of_rome.inauguratio"


def exact(**params):
    return romesim.exact(romesim.scenario(INAUGURATIO, **params)).exact_values


@pytest.mark.parametrize("king", ["tullus", "ancus"])
def test_we5_inauguratio_two_thirds_for_tullus_and_ancus(king):
    # KoR 9.2.4: valid on 1-4: 4 faces of 6 = 2/3
    assert exact(king=king) == {"p_win": F(2, 3)}


@pytest.mark.parametrize("king", ["priscus", "servius", "superbus"])
def test_we5_inauguratio_five_sixths_for_the_three_last_kings(king):
    # KoR 9.2.4: "1-5 pour les trois derniers rois Étrusques", the only bad face is the 6: 5/6
    assert exact(king=king) == {"p_win": F(5, 6)}


def test_default_king_is_tullus():
    assert romesim.scenario(INAUGURATIO).king == "tullus"
    assert exact() == {"p_win": F(2, 3)}


def test_kor_a50_numa_inauguratio_option():
    # KOR-A50 numa_inauguratio = true: Numa is not one of the three Etruscan kings, so 1-4 valid: 2/3
    assert exact(king="numa", numa_inauguratio=True) == {"p_win": F(2, 3)}
    # the option changes nothing for the kings after Numa
    assert exact(king="tullus", numa_inauguratio=True) == {"p_win": F(2, 3)}
    assert exact(king="superbus", numa_inauguratio=True) == {"p_win": F(5, 6)}


def test_kor_a50_numa_needs_the_option():
    # by default (KOR-A50 false) Numa takes office without an Inauguratio: king = "numa" is refused
    with pytest.raises(romesim.ScenarioError, match="king: 'numa'.*numa_inauguratio = true"):
        romesim.scenario(INAUGURATIO, king="numa")
    with pytest.raises(romesim.ScenarioError, match="king: 'numa'.*numa_inauguratio = true"):
        romesim.scenario(INAUGURATIO, king="numa", numa_inauguratio=False)


def test_kor_9_2_4_same_die_etruscan_kings_fail_only_on_a_six():
    # common random numbers: every Tullus success is an Etruscan-king success; the 5s are the difference (1/6)
    n = 60_000
    tullus = romesim.simulate(romesim.scenario(INAUGURATIO), n, seed=4, keep=True).outcomes["p_win"]
    priscus = romesim.simulate(romesim.scenario(INAUGURATIO, king="priscus"), n, seed=4, keep=True).outcomes[
        "p_win"]
    assert (tullus <= priscus).all()
    assert abs((priscus - tullus).mean() - 1 / 6) < 5 * (5 / 36 / n) ** 0.5


SETTINGS = [dict(), dict(king="ancus"), dict(king="servius"), dict(king="superbus"),
            dict(king="numa", numa_inauguratio=True)]


@pytest.mark.parametrize("params", SETTINGS)
def test_kor_9_2_4_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(INAUGURATIO, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=2024), romesim.exact(scenario))


@pytest.mark.parametrize("params", SETTINGS)
def test_kor_9_2_4_kernel_equals_reference_game_by_game(params):
    assert_reference_equal(romesim.scenario(INAUGURATIO, **params))


@pytest.mark.parametrize("params, words", [
    (dict(king="romulus"), "king: 'romulus'"),
    (dict(king="Tullus"), "king: 'Tullus'"),
    (dict(king=1), "king: 1"),
    (dict(numa_inauguratio="yes"), "numa_inauguratio: 'yes'"),
    (dict(bridge=True), "unknown parameter 'bridge'"),
    (dict(senate_fallback_order="player_choice"), "unknown parameter 'senate_fallback_order'"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(INAUGURATIO, **params)
