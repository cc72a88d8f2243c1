"""Bot ladders, robustness tables and tuned strategies (``romesim.analysis``), at small sizes."""
import sys

import numpy as np
import pandas as pd
import pytest

import romesim
from romesim import PolicyError, ScenarioError
from romesim.analysis import Finding, default_bots, ladder, robustness, tune
from romesim.analysis.ladder import score
from romesim.core.errors import Interrupted

BATTLE = "kings_of_rome.battle"


def test_default_bots_are_the_players_builtins_and_rising_searches():
    sc = romesim.scenario(BATTLE)
    bots = default_bots(sc, (8, 32))
    assert list(bots)[:3] == ["default", "random", "parametric"]
    assert bots["ismcts 32"]["tactic"] == ("ismcts", {"budget": 32})
    assert "nr_tactic" not in bots["ismcts 8"]  # the rules' NR bot keeps its decision
    duel = default_bots(romesim.scenario("jugule.duel"), (8,), "flat_mc")
    assert set(duel["flat_mc 8"]) == {dp.name[2:] for dp in romesim.scenario("jugule.duel").decision_points
                                      if dp.name.startswith("a_")}
    with pytest.raises(ScenarioError, match="cannot be searched"):
        default_bots(romesim.scenario("kings_of_rome.naval"))
    with pytest.raises(PolicyError, match="search: 'uct'"):
        default_bots(sc, search="uct")


def test_solo_ladder_pairs_the_bots_game_by_game():
    """In a solo game bot i beats bot j in a game where its score is higher; the wins table is exactly that count
    over the same games, and a search of 64 iterations rates above random play with 95 % confidence."""
    sc = romesim.scenario(BATTLE)
    bots = {"random": "random", "default": "default", "ismcts 64": default_bots(sc, (64,))["ismcts 64"]}
    frame = ladder(sc, bots, n=600, seed=4)
    scores = [score(sc, romesim.simulate(sc, 600, 4, policies=p, keep=True).outcomes) for p in
              ({dp.name: "random" for dp in sc.decision_points if "random" in dp.builtins}, None,
               {k: v for k, v in bots["ismcts 64"].items()})]
    expected = [[int((a > b).sum()) for b in scores] for a in scores]
    assert frame.attrs["wins"] == expected
    rows = frame.set_index("bot")
    assert rows.loc["ismcts 64", "ci_low"] > rows.loc["random", "ci_high"]
    assert rows.loc["ismcts 64", "budget"] == 64 and np.isnan(rows.loc["default", "budget"])


def test_seated_ladder_is_a_round_robin_of_both_sides():
    frame = ladder("jugule.duel", ["default", "random"], n=40, seed=2)
    assert set(frame["bot"]) == {"default", "random"} and frame.attrs["games_per_seating"] == 20


def test_robustness_marks_a_finding_by_its_sign_and_size():
    """A finding whose sign flips between families is not robust; the battle's tactic best response (KoR 5.7.3:
    DEFENCE better than ATTACK) is measured with common random numbers, the same games under both tactics."""
    flip = Finding("edge", BATTLE, lambda o: o["p_win"].to_numpy(float) - o["p_loss"].to_numpy(float))
    tactic = Finding("tactic", BATTLE, lambda o: o["p_win"].to_numpy(float), {}, {"tactic": "defence"},
                     {"tactic": "attack"})
    families = {"default": "default", "random": "random", "parametric": "parametric"}
    table = robustness([flip, tactic], n=1500, seed=3, families=families)
    assert list(table.columns) == ["finding", "family", "estimate", "ci_low", "ci_high", "sign_holds",
                                   "size_holds", "robust"]
    rows = table.set_index(["finding", "family"])
    # the exact default battle: DEFENCE wins 0.3947, ATTACK 0.2145 (tests/test_search.py)
    d = float(romesim.exact(BATTLE, policies={"tactic": "defence"})["p_win"])
    a = float(romesim.exact(BATTLE, policies={"tactic": "attack"})["p_win"])
    assert rows.loc[("tactic", "default"), "ci_low"] <= d - a <= rows.loc[("tactic", "default"), "ci_high"]
    assert bool(rows.loc[("tactic", "default"), "robust"])
    random_edge = rows.loc[("edge", "random")]
    assert random_edge["ci_high"] < 0 and not bool(rows.loc[("edge", "default"), "robust"])


def test_findings_about_the_same_games_play_them_once(monkeypatch):
    """Vox Populi's seat advantage and its Emperor by hierarchy are read from the same games: a robustness table
    plays each family's games once for both, and each finding reads the same outcomes as when measured alone."""
    module = sys.modules["romesim.analysis.robustness"]  # the package's name is the function's
    win = Finding("win", BATTLE, lambda o: o["p_win"].to_numpy(float))
    loss = Finding("loss", BATTLE, lambda o: o["p_loss"].to_numpy(float))
    alone = [module.measure(f, "default", 300, seed=5) for f in (win, loss)]
    runs = []
    real = module.simulate
    monkeypatch.setattr(module, "simulate", lambda *a, **k: runs.append(k["policies"]) or real(*a, **k))
    table = robustness([win, loss], n=300, seed=5, families={"default": "default", "random": "random"})
    assert len(runs) == 2  # one run per family, not per finding and family
    shared = table.set_index(["finding", "family"])
    for f, (estimate, low, high) in zip((win, loss), alone):
        assert shared.loc[(f.name, "default"), "estimate"] == estimate
        assert shared.loc[(f.name, "default"), "ci_high"] == high


def test_a_robustness_table_kept_in_a_store_resumes_where_it_stopped(tmp_path, monkeypatch):
    """With ``store=``, every piece of games is written once played: a table stopped part of the way (here by an
    interruption in its fourth piece) resumes without playing a stored game again, and gives the table of a run
    without a store, number for number; a larger ``n`` plays only the games it adds."""
    store_module = sys.modules["romesim.analysis.store"]
    win = Finding("win", BATTLE, lambda o: o["p_win"].to_numpy(float))
    tactic = Finding("tactic", BATTLE, lambda o: o["p_win"].to_numpy(float), {}, {"tactic": "defence"},
                     {"tactic": "attack"})
    families = {"default": "default", "random": "random"}
    whole = robustness([win, tactic], n=450, seed=5, families=families)
    real, played = store_module.simulate, []

    def stopping(*a, **k):
        if len(played) == 3:
            raise KeyboardInterrupt
        played.append((k["first"], a[1]))
        return real(*a, **k)

    monkeypatch.setattr(store_module, "simulate", stopping)
    with pytest.raises(Interrupted, match=r"0/4 measurements done; the games played are kept in "):
        robustness([win, tactic], n=450, seed=5, families=families, store=tmp_path)
    assert played == [(0, 100), (100, 100), (200, 100)]  # pieces of 100 games (PIECE_MIN)
    monkeypatch.setattr(store_module, "simulate", lambda *a, **k: played.append((k["first"], a[1])) or real(*a, **k))
    resumed = robustness([win, tactic], n=450, seed=5, families=families, store=tmp_path)
    pd.testing.assert_frame_equal(resumed, whole)
    # the first run's three pieces are read back and its games resume at game 300; in all, each of the six runs
    # (two families; the win, and the tactic under both tactics) played each of its five pieces once
    assert played[3:5] == [(300, 100), (400, 50)] and len(played) == 6 * 5
    played.clear()
    store = romesim.analysis.store.Store(tmp_path)
    longer = store.outcomes(BATTLE, 520, seed=5)
    assert played == [(450, 70)]
    pd.testing.assert_frame_equal(longer, romesim.simulate(BATTLE, 520, seed=5, keep=True, progress=False).outcomes)


def test_tune_finds_the_better_tactic_and_is_reproducible():
    """The parametric tactic attacks with probability p_attack (KoR 5.7.3); DEFENCE is the better tactic of the
    default battle, so the tuned p_attack is low and the tuned bot wins about as often as DEFENCE (exact 0.3947)."""
    space = {"tactic": {"p_attack": (0.0, 1.0)}}
    first = tune(BATTLE, space, "p_win", budget=12, seed=5, n=1500)
    again = tune(BATTLE, space, "p_win", budget=12, seed=5, n=1500)
    assert first.policies == again.policies and first.trials["value"].tolist() == again.trials["value"].tolist()
    p_attack = first.policies["tactic"][1][0]
    assert p_attack < 0.3
    check = romesim.simulate(BATTLE, 4000, 99, policies=first.policies)
    d = float(romesim.exact(BATTLE, policies={"tactic": "defence"})["p_win"])
    a = float(romesim.exact(BATTLE, policies={"tactic": "attack"})["p_win"])
    expected = (1 - p_attack) * d + p_attack * a
    assert abs(check["p_win"] - expected) <= 5 * np.sqrt(expected * (1 - expected) / 4000)
    with pytest.raises(PolicyError, match="has no parameter 'p_defend'"):
        tune(BATTLE, {"tactic": {"p_defend": (0, 1)}}, budget=1)
    with pytest.raises(ScenarioError, match="objective: 'p_draw'"):
        tune(BATTLE, space, "p_draw", budget=1)


def test_the_report_shows_ladders_and_robustness(tmp_path):
    sc = romesim.scenario(BATTLE)
    sweep = romesim.sweep(sc, {"good_omen": [False, True]}, n=200, seed=1, store=tmp_path / "store")
    rated = ladder(sc, ["default", "random"], n=200, seed=1)
    robust = robustness([Finding("edge", BATTLE, lambda o: o["p_win"].to_numpy(float))], n=200,
                        families={"default": "default", "random": "random"})
    page = romesim.analysis.write_report(sweep, tmp_path / "r.html", bots=[rated, robust]).read_text()
    assert "Strong play" in page and "Bot ladder: kings_of_rome.battle" in page
    assert page.count("<td class=\"text\">random</td>") == 2 and ("not robust" in page or "robust" in page)
