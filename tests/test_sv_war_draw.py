"""spec 2.4.2 going-to-war draw over several turns: WP5, hand-derived multi-turn values, options SV-A5 and SV-A7,
the GAP G10 peace stand-in, Monte Carlo against exact, kernel against reference.

Every expected value is derived in its comment from the rule text, not taken from the code's output.
"""
from fractions import Fraction as F

import pytest

import romesim
from helpers import assert_matches_exact, assert_reference_equal

WAR = "semper_victor.war_draw"


def exact(**params):
    return romesim.exact(romesim.scenario(WAR, **params)).exact_values


def test_wp5_one_draw():
    # spec 2.4.2, WP5: 10 counters (5 markers, 5 dummies); a new war iff the marker of a people at peace: k/10
    e = exact()
    assert e["new_wars"] == F(1, 2) and e["p_win"] == F(1, 2) and e["at_war"] == F(1, 2)
    assert e["p_persians_at_war"] == F(1, 10)  # the Persians' marker
    assert e["turns_without_war"] == F(1, 2)  # a dummy leaves every people at peace after Phase C
    # two peoples at war: 3/10, the Persians among them or not
    assert exact(others_at_war=2)["new_wars"] == F(3, 10)
    assert exact(others_at_war=1, persians_at_war=True)["new_wars"] == F(3, 10)
    assert exact(others_at_war=4, persians_at_war=True)["p_win"] == 1
    assert exact(others_at_war=1)["turns_without_war"] == 0


def test_two_turns_with_replacement():
    # SV-A5 default: the drawn counter goes back. From peace: no war in two turns = (5/10)^2 = 1/4.
    # New wars: turn 1: 1/2; turn 2: 5/10 after a dummy, 4/10 after a war: 1/2 * 1/2 + 1/2 * 4/10 = 9/20
    e = exact(turns=2)
    assert e["p_win"] == F(1, 4)
    assert e["new_wars"] == F(1, 2) + F(9, 20) and e["at_war"] == F(19, 20)
    # turns without war: turn 1: 1/2, turn 2: 1/4
    assert e["turns_without_war"] == F(3, 4)


def test_sv_a5_without_replacement_is_labelled_an_invented_variant():
    """SV-A5: seed 2.C refills the cup in every Phase C (« The players place in a container the markers of each of
    the 5 Major non- Roman Peoples. They also place the 5 Leurres (dummy) counters »), so the counter drawn always
    goes back; `war_draw_replace = false` has no basis in the seed and says so in the option table, the parameter's
    documentation and the contract."""
    from pathlib import Path

    import romesim.semper_victor.scenarios as svs

    rows = (Path(svs.__file__).parent / "data" / "sv_options.csv").read_text(encoding="utf-8")
    (row,) = [line for line in rows.splitlines() if ",war_draw_replace," in line]
    assert row.startswith("SV-A5,war_draw_replace,true|false,true,") and "invented variant" in row
    spec = svs.WarDraw.parameters()["war_draw_replace"]
    assert "invented variant" in spec.doc and "invented variant" in spec.rule
    contract = Path(svs.__file__).parents[2] / "docs" / "contracts" / "semper_victor.md"
    assert "invented variant, not a reading of the seed" in contract.read_text(encoding="utf-8")


def test_sv_a5_without_replacement():
    # the counter drawn in turn 1 stays out. Turn 2 draws from 9: after a dummy (1/2) 5 markers of 9 (5/9);
    # after a marker (1/2) 4 markers of 9, all of peoples at peace (4/9). No war: 1/2 * 4/9 = 2/9
    e = exact(turns=2, war_draw_replace=False)
    assert e["p_win"] == F(2, 9)
    assert e["new_wars"] == F(1, 2) + F(1, 2) * F(5, 9) + F(1, 2) * F(4, 9)
    # all ten counters drawn after ten turns: every people at war, whatever the order
    e = exact(turns=10, war_draw_replace=False)
    assert e["at_war"] == 5 and e["new_wars"] == 5 and e["p_win"] == 0
    # and nothing more can happen afterwards: the cup is empty
    assert exact(turns=14, war_draw_replace=False)["new_wars"] == 5
    # a people at war when its marker is drawn: nothing, and the marker leaves the cup
    assert exact(turns=10, war_draw_replace=False, others_at_war=2)["new_wars"] == 3


def test_sv_a7_persians_without_a_king():
    # seed 4.2.1: no Persian leader 310-319. SV-A7 default: they go to war anyway (1/2 as usual)
    assert exact(start_year=310)["new_wars"] == F(1, 2)
    assert exact(start_year=319)["p_persians_at_war"] == F(1, 10)
    # war_without_leader = false: the Persians' marker starts nothing in 310-319: 4/10
    e = exact(start_year=310, war_without_leader=False)
    assert e["new_wars"] == F(2, 5) and e["p_persians_at_war"] == 0
    # outside the gap nothing changes: 309 and 320
    assert exact(start_year=309, war_without_leader=False)["new_wars"] == F(1, 2)
    assert exact(start_year=320, war_without_leader=False)["new_wars"] == F(1, 2)
    # two turns from 309: the Persians may go to war in 309 only: 1/10 + 0
    assert exact(start_year=309, turns=2, war_without_leader=False)["p_persians_at_war"] == F(1, 10)


def test_gap_g10_peace_stand_in():
    # one people at war, peace_chance 3: Phase C adds a war with 4/10; in Phase F each people at war makes
    # peace on d10 < 3 (3/10). E[at war at the end] = (1 + 4/10) * 7/10 = 49/50
    e = exact(others_at_war=1, peace_chance=3)
    assert e["at_war"] == F(49, 50) and e["new_wars"] == F(2, 5) and e["turns_without_war"] == 0
    # peace_chance 10: every war ends in Phase F; next turn the draw starts from peace again:
    # two turns: no war in either = (1/2)^2, new wars 1/2 + 1/2
    e = exact(turns=2, peace_chance=10)
    assert e["at_war"] == 0 and e["new_wars"] == 1 and e["p_win"] == F(1, 4)
    # the Persians at war at the start make peace with 1/2, and cannot restart in turn 1
    assert exact(persians_at_war=True, peace_chance=5)["p_persians_at_war"] == F(1, 2)


@pytest.mark.parametrize("params, words", [
    (dict(turns=0), "turns: 0"),
    (dict(turns=61), "turns: 61"),
    (dict(start_year=304), "start_year: 304"),
    (dict(others_at_war=5), "others_at_war: 5"),
    (dict(peace_chance=11), "peace_chance: 11"),
    (dict(persians_at_war="no"), "persians_at_war: 'no'"),
    (dict(war_draw_replace=0), "war_draw_replace: 0"),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        romesim.scenario(WAR, **params)


def test_war_draw_has_no_decision_point():
    with pytest.raises(romesim.PolicyError, match="unknown decision point 'uprising'"):
        romesim.simulate(romesim.scenario(WAR), 10, policies={"uprising": "never"})


SETTINGS = [
    dict(),
    dict(turns=8, start_year=308, war_without_leader=False),
    dict(turns=12, war_draw_replace=False, others_at_war=1),
    dict(turns=20, peace_chance=4, persians_at_war=True, others_at_war=2),
    dict(turns=15, start_year=312, war_draw_replace=False, war_without_leader=False, peace_chance=2),
]


@pytest.mark.parametrize("params", SETTINGS)
def test_monte_carlo_within_5_sigma_of_exact(params):
    scenario = romesim.scenario(WAR, **params)
    assert_matches_exact(romesim.simulate(scenario, 1_000_000, seed=11), romesim.exact(scenario))


@pytest.mark.parametrize("params", SETTINGS)
def test_kernel_equals_reference_game_by_game(params):
    assert_reference_equal(romesim.scenario(WAR, **params))
