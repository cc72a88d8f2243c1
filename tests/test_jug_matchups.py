"""The matchup matrix (common random numbers, mirrored cells), its balance summary, plot and command line; and
careers played with the duel kernel."""
import json

import matplotlib
import numpy as np
import pandas as pd
import pytest

import romesim
from romesim.cli import main
from romesim.core.result import wilson
from romesim.jugule import matchups as jm

matplotlib.use("Agg")

TYPES = ["retiarius", "secutor", "samnis"]
N = 1_500


@pytest.fixture(scope="module")
def frame():
    return jm.matchup_matrix(TYPES, n=N, seed=7)


def duel(a, b, n=N, seed=7, **params):
    return romesim.simulate(romesim.scenario("jugule.duel", a=a, b=b, **params), n, seed)


def test_every_ordered_pair_once_with_the_same_n(frame):
    assert list(frame.columns) == jm.COLUMNS
    assert len(frame) == len(TYPES) ** 2
    assert set(zip(frame["a"], frame["b"])) == {(a, b) for a in TYPES for b in TYPES}
    assert (frame["n"] == N).all()
    assert frame.attrs["mirrored"] and frame.attrs["both_orders"]
    off = frame[frame["a"] != frame["b"]]
    assert (off["n_as_a"] + off["n_as_b"] == N).all() and (off["n_as_a"] == (N + 1) // 2).all()


def test_mirrored_cells_are_the_same_games_seen_from_the_other_side(frame):
    cells = frame.set_index(["a", "b"])
    for a in TYPES:
        for b in TYPES:
            if a != b:
                assert cells.at[(b, a), "p_win"] == cells.at[(a, b), "p_loss"]
                assert cells.at[(b, a), "p_both_out"] == cells.at[(a, b), "p_both_out"]


def test_both_orders_half_of_n_each_from_the_same_seed(frame):
    """The sides are not assumed interchangeable: cell (retiarius, samnis) pools the Retiarius as A in games
    0 .. N/2 - 1 and as B in the same games 0 .. N/2 - 1 of the other order (common random numbers)."""
    cells = frame.set_index(["a", "b"])
    half = N // 2
    first, second = duel("retiarius", "samnis", half), duel("samnis", "retiarius", half)
    wins = first["p_win"] * half + second["p_loss"] * half
    assert cells.at[("retiarius", "samnis"), "p_win"] == pytest.approx(wins / N, abs=1e-12)
    assert cells.at[("retiarius", "samnis"), "p_win_as_a"] == first["p_win"]
    assert cells.at[("retiarius", "samnis"), "p_win_as_b"] == second["p_loss"]
    assert cells.at[("samnis", "retiarius"), "p_win_as_a"] == second["p_win"]
    low, high = wilson(round(wins), N)
    assert (cells.at[("retiarius", "samnis"), "ci_low"], cells.at[("retiarius", "samnis"), "ci_high"]) == (
        pytest.approx(low), pytest.approx(high))


def test_7_built_in_bots_play_alike_from_either_side():
    """The matchup matrix plays both orders; with the net escape a step back (10.3: « qui n'a pas de points de
    réserve pour reculer et sortir de cette zone est capturé », who has no reserve points to step back and leave
    the area is captured) and a default hex choice that no compass order decides (D16), a type wins as often as
    side A as side B: every gap within 5 standard errors, and Retiarius v Secutor, whose gap was 0.12 (20 s.e.),
    within 5 s.e. at 3,000 duels each way."""
    got = jm.side_effect(jm.matchup_matrix(["retiarius", "secutor", "andabata", "crupellarius", "hoplomachus"],
                                           n=1_200, seed=21))
    assert len(got) == 10 and (got["z"].abs() <= 5).all(), got
    assert abs(got.attrs["mean_gap"]) <= 5 * got.attrs["mean_se"]
    pair = jm.side_effect(jm.matchup_matrix(["retiarius", "secutor"], n=6_000, seed=22)).iloc[0]
    assert abs(pair["gap"]) <= 5 * pair["se"] and pair["se"] < 0.015


def test_side_effect_by_hand():
    rows = [{"a": "x", "b": "y", "p_win_as_a": 0.6, "n_as_a": 100, "p_win_as_b": 0.4, "n_as_b": 100},
            {"a": "y", "b": "x", "p_win_as_a": 0.6, "n_as_a": 100, "p_win_as_b": 0.4, "n_as_b": 100},
            {"a": "x", "b": "x", "p_win_as_a": 0.5, "n_as_a": 100, "p_win_as_b": 0.5, "n_as_b": 100}]
    frame = pd.DataFrame(rows)
    frame.attrs["both_orders"] = True
    got = jm.side_effect(frame)
    assert list(zip(got["a"], got["b"])) == [("x", "y")]
    assert got.at[0, "gap"] == pytest.approx(0.2) and got.at[0, "se"] == pytest.approx(np.sqrt(2 * 0.24 / 100))
    frame.attrs["both_orders"] = False
    with pytest.raises(romesim.ScenarioError, match="both orders"):
        jm.side_effect(frame)


def test_per_side_parameters_play_both_orders():
    got = jm.matchup_matrix(["retiarius", "secutor"], n=400, seed=3, rank_a="speciarius", bonus_hp_a=1)
    assert not got.attrs["mirrored"] and not got.attrs["both_orders"]
    assert got["p_win_as_b"].isna().all() and (got["n_as_b"] == 0).all() and (got["n_as_a"] == 400).all()
    json.dumps(got.to_dict("records"), allow_nan=False)  # the command line's --json stays valid JSON
    cells = got.set_index(["a", "b"])
    assert cells.at[("secutor", "retiarius"), "p_win"] == duel("secutor", "retiarius", 400, 3, rank_a="speciarius",
                                                                bonus_hp_a=1)["p_win"]


def test_mirror_test_looks_at_ranks_policies_and_the_open_split():
    assert jm.is_symmetric(None, {"rank_a": "veteranus", "rank_b": "veteranus"})
    assert not jm.is_symmetric(None, {"rank_a": "veteranus"})
    assert not jm.is_symmetric(None, {"allocation": "g1_then_g2_open"})  # JUG-A4
    assert not jm.is_symmetric({"a_defend": "random"}, {})
    assert jm.is_symmetric({"a_defend": "random", "b_defend": "random"}, {})


def test_balance_summary_by_hand():
    # three types, off-diagonal p_win: x beats y 0.8 and z 0.6; y beats x 0.2 and z 0.5; z beats x 0.4, y 0.5
    wins = {("x", "y"): 0.8, ("x", "z"): 0.6, ("y", "x"): 0.2, ("y", "z"): 0.5, ("z", "x"): 0.4, ("z", "y"): 0.5}
    rows = [{"a": a, "b": b, "p_win": wins.get((a, b), 0.5), "ci_low": 0, "ci_high": 1,
             "p_loss": 1 - wins.get((a, b), 0.5), "p_both_out": 0.0, "n": 10} for a in "xyz" for b in "xyz"]
    per_type, overall = jm.balance_summary(pd.DataFrame(rows))
    assert list(per_type["type"]) == ["x", "z", "y"]
    assert per_type["avg_win"].tolist() == pytest.approx([0.7, 0.45, 0.35])
    assert overall["spread"] == pytest.approx(0.35)
    assert overall["std"] == pytest.approx(np.std([0.7, 0.35, 0.45]))


def test_heatmap_has_one_annotated_cell_per_pair(frame):
    ax = jm.plot_matchups(frame)
    assert len(ax.texts) == len(TYPES) ** 2
    assert "[" not in ax.texts[0].get_text() and "–" in ax.texts[0].get_text()


@pytest.mark.parametrize("types, words", [(["gorilla"], "types: 'gorilla'"), ([], "types: an empty list"),
                                          (["secutor", "secutor"], "lists a type twice")])
def test_bad_types_are_named(types, words):
    with pytest.raises(romesim.ScenarioError, match=words):
        jm.matchup_matrix(types, n=10)


def test_cli_matchups_json_and_plot(tmp_path, capsys):
    picture = tmp_path / "m.png"
    assert main(["matchups", "--types", "retiarius", "secutor", "-n", "300", "--seed", "2", "--json",
                 "--plot", str(picture)]) == 0
    out = json.loads(capsys.readouterr().out)
    cells = {(c["a"], c["b"]): c for c in out["cells"]}
    assert cells[("secutor", "retiarius")]["p_win"] == cells[("retiarius", "secutor")]["p_loss"]
    assert out["n"] == 300 and picture.stat().st_size > 0
    assert set(out["balance"]) >= {"std", "spread", "types"}


def test_cli_matchups_text_report(capsys):
    assert main(["matchups", "--types", "retiarius", "secutor", "-n", "200"]) == 0
    text = capsys.readouterr().out
    assert "P(row type wins) in %" in text and "balance: std" in text


@pytest.mark.parametrize("argv, words", [
    (["matchups", "--types", "gorilla"], "types: 'gorilla'"),
    (["matchups", "--types", "secutor", "retiarius", "--set", "arcs=round"], "arcs: 'round'"),
    (["matchups", "--types", "secutor", "retiarius", "-n", "0"], "n: 0"),
    (["matchups", "--types", "secutor", "retiarius", "--set", "a=secutor"], "a: set the gladiators with types="),
])
def test_cli_matchups_bad_input_is_one_line_and_exit_2(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("romesim: error: ") and words in err and err.count("\n") == 1


# --------------------------------------------------------------------------- careers played with the duel (13)
def test_13_career_duels_are_the_duel_kernel():
    # one duel against a tiro Secutor: the career's victories are the duel's p_win (independent streams, 5 sigma),
    # and every survivor of a first duel is promoted (C1), so p_primus_palus = 1 - p_death game by game
    n = 20_000
    one = romesim.scenario("jugule.career", gladiator="retiarius", opponents=[{"type": "secutor"}],
                           opponent_ranks=[1, 0, 0, 0], max_fights=1)
    career = romesim.simulate(one, n, seed=11, keep=True)
    games = career.outcomes
    assert (games["fights"] == 1).all()
    assert (games["p_primus_palus"] == 1 - games["p_death"]).all()
    assert (games["p_death_tiro"] == games["p_death"]).all()
    played = duel("retiarius", "secutor", n=n, seed=12)
    p = played["p_win"]
    assert abs(career["wins"] - p) <= 5 * np.sqrt(2 * p * (1 - p) / n)
    # C2: a tiro who survives a veteranus becomes speciarius at once
    veteran = romesim.simulate(one.replace(opponent_ranks=[0, 0, 0, 1]), 2_000, seed=3, keep=True).outcomes
    assert (veteran["p_speciarius"] == 1 - veteran["p_death"]).all()


def test_ap_sensitivity_is_paired_game_by_game():
    # the same copy replays exactly the baseline's games (change 0, no spread); one AP more is a different duel
    same = jm.ap_sensitivity("samnis", deltas=(0,), opponents=["retiarius", "secutor"], n=300, seed=4)
    assert (same["change"] == 0).all() and (same["change_high"] == same["change_low"]).all()
    moved = jm.ap_sensitivity("samnis", deltas=(1,), opponents=["retiarius"], n=300, seed=4)
    row = moved.iloc[0]
    assert row["change"] == pytest.approx(row["p_win"] - row["baseline"])
    assert row["change_low"] <= row["change"] <= row["change_high"]


def test_as_custom_copies_the_type_with_more_ap():
    table = jm.as_custom("samnis", 1)
    assert table["ap"] == 10 and table["head"] == -4 and table["shield"] == "parma" and table["weapons"] == ["glaive"]
    with pytest.raises(romesim.ScenarioError, match="ap_delta: -4 gives a crupellarius 0 AP"):
        jm.as_custom("crupellarius", -4)


def test_type_equilibrium_is_an_equilibrium_of_the_net_table(frame):
    # the zero-sum game on p_win - p_loss: no type does better than the value against side B's mix, and none
    # does better for side B against side A's
    got = jm.type_equilibrium(frame)
    net = (jm.win_matrix(frame) - jm.win_matrix(frame, "p_loss")).to_numpy()
    x, y = got["p_a"].to_numpy(), got["p_b"].to_numpy()
    assert list(got["type"]) == TYPES and x.sum() == pytest.approx(1) and y.sum() == pytest.approx(1)
    assert (x @ net).min() == pytest.approx(got.attrs["value"], abs=1e-9)
    assert (net @ y).max() == pytest.approx(got.attrs["value"], abs=1e-9)
    assert got.attrs["value_score"] == pytest.approx((1 + got.attrs["value"]) / 2)
