"""KoR 9.7.7.1 Mucius Scaevola: exact values by hand (WE-5 bonus check), Monte Carlo and reference checks."""
import json
from fractions import Fraction as F

import numpy as np
import pytest

import romesim
from helpers import assert_matches_exact, assert_reference_equal
from romesim.cli import main

MUCIUS = "kings_of_rome.mucius"


def exact(**params):
    return romesim.exact(romesim.scenario(MUCIUS, **params)).exact_values


def test_we5_mucius_kills_porsenna_one_half_with_the_bridge():
    # KoR 9.7.7.1: with the Sublicius bridge on the Rome map Porsenna dies on 4, 5 or 6: 3 faces of 6 = 1/2
    assert exact() == {"p_win": F(1, 2)}
    assert exact(bridge=True) == {"p_win": F(1, 2)}


def test_we5_mucius_kills_porsenna_one_sixth_without_the_bridge():
    # KoR 9.7.7.1: without the bridge "il faut obtenir un 6": 1 face of 6 = 1/6
    assert exact(bridge=False) == {"p_win": F(1, 6)}


def test_kor_9_7_7_1_same_die_without_the_bridge_kills_only_on_a_six():
    # common random numbers: game by game, the attempt without the bridge succeeds only where the die is a 6,
    # which also succeeds with the bridge; the rest of the bridge's successes are the 4s and 5s (1/3 of games)
    n = 60_000
    with_bridge = romesim.simulate(romesim.scenario(MUCIUS), n, seed=3, keep=True).outcomes["p_win"].to_numpy()
    without = romesim.simulate(romesim.scenario(MUCIUS, bridge=False), n, seed=3, keep=True).outcomes[
        "p_win"].to_numpy()
    assert np.all(without <= with_bridge)
    assert abs((with_bridge - without).mean() - 1 / 3) < 5 * np.sqrt(2 / 9 / n)


@pytest.mark.parametrize("bridge", [True, False])
def test_kor_9_7_7_1_monte_carlo_within_5_sigma_of_exact(bridge):
    scenario = romesim.scenario(MUCIUS, bridge=bridge)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=2024), romesim.exact(scenario))


@pytest.mark.parametrize("bridge", [True, False])
@pytest.mark.parametrize("seed", [7, 11])
def test_kor_9_7_7_1_kernel_equals_reference_game_by_game(bridge, seed):
    assert_reference_equal(romesim.scenario(MUCIUS, bridge=bridge), seed=seed)


@pytest.mark.parametrize("params, words", [
    (dict(bridge=1), "bridge: 1"),
    (dict(bridge="no"), "bridge: 'no'"),
    (dict(porsenna=False), "unknown parameter 'porsenna'"),
    (dict(numa_inauguratio=True), "unknown parameter 'numa_inauguratio'"),  # KOR-A50 is not a Mucius option
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(MUCIUS, **params)


def test_mucius_has_no_decision_points():
    assert romesim.scenario(MUCIUS).decision_points == ()
    with pytest.raises(romesim.PolicyError, match="no decision points"):
        romesim.simulate(MUCIUS, 10, policies={"fallback_order": "random"})


def test_command_line_exact(capsys):
    assert main(["exact", MUCIUS, "--set", "bridge=false", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["params"] == {"bridge": False}
    assert doc["metrics"]["p_win"]["estimate"] == pytest.approx(1 / 6)
