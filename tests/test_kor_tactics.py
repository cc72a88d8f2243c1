"""KoR 5.7.3 tactic analysis: the 2x2 zero-sum solver worked by hand, best responses to the NR draw (KOR-A19), and
``tactic_matrix`` against exact answers."""
import math
from fractions import Fraction as F

import pytest

import romesim
from romesim.kings_of_rome import tactic_matrix
from romesim.kings_of_rome.tactics import best_response, nr_attack_probability, zero_sum_equilibrium

BATTLE = "kings_of_rome.battle"


def small_battle(**params):
    return romesim.scenario(BATTLE, roman_units=[{"kind": "infantry", "virtus": 3, "roman_class": 3}] * 3
                            + [{"kind": "cavalry", "virtus": 3}],
                            nr_units=[{"kind": "infantry", "virtus": 3}] * 3 + [{"kind": "cavalry", "virtus": 2}],
                            **params)


def test_mixed_equilibrium_by_hand():
    # the 2x2 game of the tactic markers (5.7.3) on a synthetic payoff table
    # [[3/5, 1/5], [3/10, 1/2]] has no saddle point (maximin 3/10 < minimax 1/2). Rome attacks with p so that
    # both NR columns pay the same: 3p/5 + 3(1-p)/10 = p/5 + (1-p)/2 -> p = 1/3; the NR attacks with q so that
    # both Roman rows pay the same: 3q/5 + (1-q)/5 = 3q/10 + (1-q)/2 -> q = 1/2; value 3/5 * 1/3 + 3/10 * 2/3 = 2/5
    eq = zero_sum_equilibrium([[F(3, 5), F(1, 5)], [F(3, 10), F(1, 2)]])
    assert eq == {"row": F(1, 3), "column": F(1, 2), "value": F(2, 5)}


def test_saddle_point_gives_pure_strategies():
    # 5.7.3 tactic game with a dominant Roman marker
    # Rome's ATTACK row dominates; the NR then DEFENDs: cell (attack, defence) = 0.4 is the least of its row and
    # the greatest of its column
    eq = zero_sum_equilibrium([[0.5, 0.4], [0.3, 0.2]])
    assert eq == {"row": 1, "column": 0, "value": 0.4}


def test_best_response_to_the_rules_draw():
    # DP-B04 against the NR draw of KOR-A19
    # KOR-A19 coin flip: attack pays (0.6 + 0.2)/2 = 0.4, defence (0.3 + 0.5)/2 = 0.4 -> a tie goes to attack;
    # an NR that attacks 3 times in 4 makes ATTACK worth 0.5 against DEFENCE's 0.35
    matrix = [[F(3, 5), F(1, 5)], [F(3, 10), F(1, 2)]]
    assert best_response(matrix, {"attack": F(1, 2), "defence": F(1, 2)}) == (
        "attack", {"attack": F(2, 5), "defence": F(2, 5)})
    tactic, expected = best_response(matrix, {"attack": F(3, 4), "defence": F(3, 4)})
    assert tactic == "attack" and expected == {"attack": F(1, 2), "defence": F(7, 20)}


def test_kor_a19_pool_probabilities():
    # pool_without_replacement with 2 ATTACK + 1 DEFENCE: the Roman marker leaves the pool first
    battle = small_battle(nr_tactic_draw="pool_without_replacement", tactic_pool_attack=2, tactic_pool_defence=1)
    assert nr_attack_probability(battle, "attack") == F(1, 2)
    assert nr_attack_probability(battle, "defence") == 1
    assert nr_attack_probability(small_battle(), "defence") == F(1, 2)


def test_exact_matrix_agrees_with_the_rules_draw():
    # pinning only the Roman marker (DP-B04) leaves the NR draw to the rules (KOR-A19): that battle's exact p_win
    # must be the best-response expectation computed from the pinned cells
    table = tactic_matrix(small_battle(), exact=True)
    assert list(table.columns) == ["roman_tactic", "nr_tactic", "metric", "estimate", "ci_low", "ci_high"]
    assert len(table) == 8 and (table["ci_low"] == table["ci_high"]).all()
    expected = table.attrs["best_response"]["expected"]
    for tactic in ("attack", "defence"):
        direct = romesim.exact(small_battle(), policies={"tactic": tactic}).exact_values["p_win"]
        assert expected[tactic] == direct
    best = table.attrs["best_response"]["tactic"]
    assert expected[best] == max(expected.values())
    eq = table.attrs["equilibrium"]
    cell = table.set_index(["roman_tactic", "nr_tactic", "metric"])["estimate"]
    value = sum(pr * pn * cell[(r, n, "p_win")]
                for r, pr in (("attack", eq["p_roman_attack"]), ("defence", 1 - eq["p_roman_attack"]))
                for n, pn in (("attack", eq["p_nr_attack"]), ("defence", 1 - eq["p_nr_attack"])))
    assert math.isclose(value, float(eq["p_win"]), abs_tol=1e-12)


def test_simulated_matrix_matches_exact_with_common_random_numbers():
    # every cell of the 5.7.3 table (DP-B04 x KOR-A19 pinned) within 5 sigma of its exact value
    battle = small_battle()
    exact = tactic_matrix(battle, exact=True).set_index(["roman_tactic", "nr_tactic", "metric"])
    n = 100_000
    sim = tactic_matrix(battle, n=n, seed=11)
    for _, row in sim.iterrows():
        want = exact.loc[(row["roman_tactic"], row["nr_tactic"], row["metric"]), "estimate"]
        if row["metric"] == "p_win":
            se = math.sqrt(want * (1 - want) / n)
            assert abs(row["estimate"] - want) <= 5 * se
        else:  # a mean: its 95 % interval, widened to about 5 sigma
            half = (row["ci_high"] - row["ci_low"]) / 2 * 5 / 1.96
            assert abs(row["estimate"] - want) <= half
    # common random numbers: a cell is exactly the run of that pinned battle with the same seed
    cell = romesim.simulate(battle, n, 11, policies={"tactic": "defence", "nr_tactic": "attack"})
    got = sim.set_index(["roman_tactic", "nr_tactic", "metric"]).loc[("defence", "attack", "p_win"), "estimate"]
    assert got == cell["p_win"]


def test_pinned_points_may_not_be_given():
    # DP-B04 and the KOR-A19 point belong to the table's cells
    with pytest.raises(romesim.PolicyError, match="pins 'tactic'"):
        tactic_matrix(small_battle(), n=10, policies={"tactic": "attack"})
    with pytest.raises(romesim.ScenarioError, match="no tactic decision points"):
        tactic_matrix(romesim.scenario("kings_of_rome.siege"), n=10)


# ------------------------------------------------------------------ DP-B04 default: the better marker
def edge(values):
    return values["p_win"] - values["p_loss"]


def test_default_tactic_is_the_better_marker_in_the_default_battle():
    """The contract's default battle (Romulus' army against the Latin army, both with cavalry): DEFENCE is better
    than ATTACK on both counts, exactly (5.7.4: DEFENCE fights phase 3 only after Rome won the vanguard clash; an
    NR DEFENCE ends the battle after the clash, no winner); the default picks it, so its exact values are
    DEFENCE's, and the kernel's Monte Carlo agrees within 5 sigma."""
    battle = romesim.scenario(BATTLE)
    attack = romesim.exact(battle, policies={"tactic": "attack"}).exact_values
    defence = romesim.exact(battle, policies={"tactic": "defence"}).exact_values
    assert defence["p_win"] > attack["p_win"] and defence["p_loss"] < attack["p_loss"]
    default = romesim.exact(battle).exact_values
    assert default["p_win"] == max(attack["p_win"], defence["p_win"]) and default["p_loss"] == defence["p_loss"]
    n = 200_000
    sim = romesim.simulate(battle, n, seed=5)
    for metric in ("p_win", "p_loss"):
        p = float(default[metric])
        assert abs(sim[metric] - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1e-12, metric


@pytest.mark.parametrize("roman, nr, better", [
    # no cavalry, so no vanguard clash: both markers lead to phase 3, ATTACK twice as often (5.7.4, KOR-A23
    # cavalry_lost); Rome attacks when phase 3 favours it and defends when it does not
    ([{"kind": "infantry", "virtus": 4, "roman_class": 1}] * 3, [{"kind": "infantry", "virtus": 2}] * 3, "attack"),
    ([{"kind": "infantry", "virtus": 2, "roman_class": 5}] * 3, [{"kind": "infantry", "virtus": 4}] * 3, "defence"),
    # cavalry on both sides: the clash decides; Rome's cavalry is the stronger, so it defends
    ([{"kind": "infantry", "virtus": 3, "roman_class": 3}] * 3 + [{"kind": "cavalry", "virtus": 4}],
     [{"kind": "infantry", "virtus": 3}] * 3 + [{"kind": "cavalry", "virtus": 2}], "defence"),
])
def test_default_tactic_takes_the_marker_with_the_better_edge(roman, nr, better):
    battle = romesim.scenario(BATTLE, roman_units=roman, nr_units=nr)
    values = {t: romesim.exact(battle, policies={"tactic": t}).exact_values for t in ("attack", "defence")}
    other = "defence" if better == "attack" else "attack"
    assert edge(values[better]) > edge(values[other])  # the exact answer, not the estimate
    default = romesim.exact(battle).exact_values
    assert edge(default) == edge(values[better]) and default["p_win"] == values[better]["p_win"]


def test_the_tactic_estimate_sorts_the_cavalry_from_strongest_to_weakest():
    """``sort_descending``, which orders the cavalry pairs of the tactic estimate (phase 2 pairs the strongest
    first), against Python's sort, on every length up to the eight units a side may have."""
    import numpy as np
    from romesim.kings_of_rome.policies import sort_descending

    rng = np.random.default_rng(5)
    for m in range(9):
        for _ in range(20):
            a = rng.integers(1, 7, 8)
            expected = sorted(a[:m], reverse=True) + list(a[m:])
            sort_descending(a, m)
            assert list(a) == expected
