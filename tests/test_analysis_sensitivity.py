"""Sensitivity: paired finite differences against exact differences, Sobol' indices against indices computed
analytically (a synthetic additive model) and from the exact table of a real scenario."""
from fractions import Fraction as F

import numpy as np
import pytest

import romesim
from romesim.analysis.sensitivity import finite_differences, sobol, sobol_analyze, sobol_design
from romesim.core.errors import PolicyError, ScenarioError

SIEGE = "kings_of_rome.siege"
Z = 1.959963984540054
SIGMA = 5.0


def exact(scenario, policies=None):
    return romesim.exact(scenario, policies=policies).exact_values


# ------------------------------------------------------------------ finite differences
def test_garrison_steps_match_exact_differences():
    # KoR 5.5, WE-1: roll a d6 > 2 g, roll b d6 >= 2 (g + 1). g=2: 4/9; g=1: 2/3 + 1/3 * 1/2 = 5/6; g=3: 0
    base = romesim.scenario(SIEGE, garrison=2)
    table = finite_differences(base, {"garrison": 1, "leader": 2}, n=200_000, seed=9)
    assert set(table["parameter"]) == {"garrison", "leader"}
    want_base = exact(base)
    assert want_base["p_win"] == F(4, 9) and exact(base.replace(garrison=1))["p_win"] == F(5, 6)
    for step, changed in (("garrison", base.replace(garrison=1)), ("leader", base.replace(leader=2))):
        want_changed = exact(changed)
        rows = table[table["parameter"] == step]
        assert list(rows["metric"]) == list(base.metrics)
        assert (rows["from"] == getattr(base, step)).all() and (rows["to"] == getattr(changed, step)).all()
        for _, row in rows.iterrows():
            want = float(want_changed[row["metric"]] - want_base[row["metric"]])
            se = (row["ci_high"] - row["ci_low"]) / (2 * Z)
            if se == 0:
                assert row["change"] == want
            else:
                assert abs(row["change"] - want) <= SIGMA * se, (step, row["metric"])
            assert row["change"] == row["changed"] - row["base"] and row["n"] == 200_000
    p_win = table[(table["parameter"] == "garrison") & (table["metric"] == "p_win")].iloc[0]
    assert abs(p_win["change"] - 7 / 18) <= SIGMA * (p_win["ci_high"] - p_win["ci_low"]) / (2 * Z)
    # the same games under both garrisons: the paired interval is the narrower one
    assert (p_win["ci_high"] - p_win["ci_low"]) / 2 < p_win["unpaired_half_width"]


def test_policy_parameter_step():
    # KoR 5.5 with Astutia 1 (KOR-A22): `reserve` keeping 0 points rerolls roll a like greedy: 17/27; keeping
    # 1 point saves the reroll for roll b: 1/3 + 2/3 * (1 - (5/6)^2) = 29/54 (see test_kor_siege)
    base = romesim.scenario(SIEGE, garrison=2, astutia=1)
    table = finite_differences(base, {"policy.reroll.keep": 1.0}, n=100_000, seed=2, metrics="p_win",
                               policies={"reroll": ("reserve", [0])})
    row = table.iloc[0]
    assert row["from"] == 0.0 and row["to"] == 1.0 and row["metric"] == "p_win"
    assert abs(row["base"] - 17 / 27) <= SIGMA * np.sqrt(17 / 27 * 10 / 27 / 100_000)
    assert abs(row["change"] - (F(29, 54) - F(17, 27))) <= SIGMA * (row["ci_high"] - row["ci_low"]) / (2 * Z)


@pytest.mark.parametrize("steps, match", [
    ({}, "steps: {} is not allowed"),
    ({"garison": 1}, "garison: not a parameter of kings_of_rome.siege"),
    ({"garrison": 7}, "garrison: 7 is not allowed; expected an integer from 0 to 3"),
])
def test_finite_differences_bad_steps(steps, match):
    with pytest.raises(ScenarioError, match=match):
        finite_differences(SIEGE, steps, n=10)


def test_finite_differences_bad_input():
    with pytest.raises(ScenarioError, match="n: 0 is not allowed"):
        finite_differences(SIEGE, {"garrison": 1}, n=0)
    with pytest.raises(ScenarioError, match="metrics: 'p_nope' is not a metric of kings_of_rome.siege"):
        finite_differences(SIEGE, {"garrison": 1}, n=10, metrics=["p_nope"])
    with pytest.raises(PolicyError, match="'greedy' has no parameter 'keep'"):
        finite_differences(SIEGE, {"policy.reroll.keep": 1.0}, n=10)


# ------------------------------------------------------------------ Sobol' indices
def test_sobol_on_an_additive_model():
    # Y = 2 x1 + x2 + 0 x3, x uniform on [0, 1]: Var = (4 + 1) / 12, S1 = ST = (4/5, 1/5, 0)
    bounds = {"x1": (0, 1), "x2": (0, 1), "x3": (0, 1)}
    problem, x = sobol_design(bounds, 1024, seed=3)
    assert x.shape == (1024 * 5, 3)
    frame = sobol_analyze(problem, 2 * x[:, 0] + x[:, 1], seed=3).set_index("parameter")
    for name, want in (("x1", 0.8), ("x2", 0.2), ("x3", 0.0)):
        for index in ("S1", "ST"):
            assert abs(frame.loc[name, index] - want) <= max(SIGMA * frame.loc[name, index + "_conf"] / Z, 1e-12)
    assert frame.loc["x3", "ST"] == 0 and frame.loc["x3", "S1"] == 0


def test_sobol_integer_parameters_are_rounded_uniformly():
    # k uniform on {0, 1, 2} (variance 2/3) plus x uniform on [0, 1] (variance 1/12): S1_k = (2/3) / (3/4) = 8/9
    problem, x = sobol_design({"k": (0, 2), "x": (0, 1)}, 1024, integer=["k"], seed=5, second_order=True)
    assert x.shape == (1024 * 6, 2)
    counts = np.bincount(x[:, 0].astype(int), minlength=3) / len(x)
    assert set(np.unique(x[:, 0])) == {0.0, 1.0, 2.0} and np.all(np.abs(counts - 1 / 3) < 0.02)
    frame = sobol_analyze(problem, x[:, 0] + x[:, 1], second_order=True, seed=5).set_index("parameter")
    assert abs(frame.loc["k", "S1"] - 8 / 9) <= SIGMA * frame.loc["k", "S1_conf"] / Z
    assert abs(frame.attrs["S2"]["k"]["x"]) <= SIGMA * frame.attrs["S2_conf"]["k"]["x"] / Z  # additive: no S2


def true_indices(table):
    """First-order and total indices of a function of two independent uniform discrete inputs, from its table
    ``table[i][j]`` (exact values, Fractions)."""
    values = np.array([[float(v) for v in row] for row in table])
    var = values.var()
    s1 = (values.mean(axis=1).var() / var, values.mean(axis=0).var() / var)
    st = (values.var(axis=0).mean() / var, values.var(axis=1).mean() / var)
    return s1, st


def test_sobol_on_a_siege_matches_the_exact_table(tmp_path):
    # KoR 5.5: p_win over garrison 1..3 and Astutia 0..3 (rerolls, KOR-A22); the commander's Virtus matters only in
    # a sortie or relief battle (5.5.1, S0), which this siege has not: it changes no game at all
    bounds = {"garrison": (1, 3), "astutia": (0, 3), "commander_virtus": (1, 6)}
    base = romesim.scenario(SIEGE)
    table = [[exact(base.replace(garrison=g, astutia=a))["p_win"] for a in range(4)] for g in (1, 2, 3)]
    (s1_g, s1_a), (st_g, st_a) = true_indices(table)
    frame = sobol(base, bounds, samples=512, n=2_000, seed=1, store=tmp_path / "store").set_index("parameter")
    for name, s1, st in (("garrison", s1_g, st_g), ("astutia", s1_a, st_a)):
        assert abs(frame.loc[name, "S1"] - s1) <= SIGMA * frame.loc[name, "S1_conf"] / Z
        assert abs(frame.loc[name, "ST"] - st) <= SIGMA * frame.loc[name, "ST_conf"] / Z
    # common random numbers: every pair of points differing only in commander_virtus gives the same games
    assert (frame.loc["commander_virtus"] == 0).all()
    # the points are stored: a rerun plays nothing and gives the same indices
    again = sobol(base, bounds, samples=512, n=2_000, seed=1, store=tmp_path / "store").set_index("parameter")
    assert again.equals(frame)
    assert table[2] == [0, 0, 0, 0]  # WE-1: garrison 3 cannot be taken, rerolls or not


@pytest.mark.parametrize("kwargs, match", [
    (dict(bounds={"good_omen": (0, 1)}), "bounds\\['good_omen'\\]: good_omen is a bool parameter"),
    (dict(bounds={"garrison": (3, 1)}), "bounds\\['garrison'\\]: \\(3, 1\\) is not allowed"),
    (dict(bounds={"policy.reroll": (0, 1)}), "a whole policy is not a number"),
    (dict(bounds={}), "bounds: {} is not allowed"),
    (dict(bounds={"garrison": (1, 3)}, samples=60), "samples: 60 is not allowed; expected a power of two"),
    (dict(bounds={"garrison": (1, 3)}, metric="p_nope"), "metric: 'p_nope' is not a metric"),
    (dict(bounds={"garrison": (1, 3)}, n=0), "n: 0 is not allowed"),
    # 5.5.1: without a sortie or relief battle the commander's Virtus changes nothing: no variance to apportion
    (dict(bounds={"commander_virtus": (1, 6)}, samples=8), "the metric has the same value at every point"),
])
def test_sobol_bad_input(kwargs, match):
    with pytest.raises(ScenarioError, match=match):
        sobol(SIEGE, **kwargs)
