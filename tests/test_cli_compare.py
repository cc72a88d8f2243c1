"""`romesim compare A [B] [--set/--policy ...] [--vs [B] [--set/--policy ...]] [--sprt]`: two variants on the same
games, the answer to "which is fairer?" and "which is stronger?" with its interval, and the sequential test.

The numbers printed are checked against ``romesim.compare`` / ``analysis.sprt`` on the same games (the library is
checked against the exact solver in tests/test_analysis_compare.py and tests/test_analysis_fairness.py).
"""
import json

import pytest

import romesim
from romesim.analysis.compare import compare, sprt
from romesim.cli import main

BATTLE = "kings_of_rome.battle"
N = 3_000


def output(capsys, *argv):
    assert main(list(argv)) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def error_of(capsys, *argv):
    assert main(list(argv)) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and err.startswith("romesim: error: "), err
    return err.strip()


def test_should_rome_attack_or_defend(capsys):
    # KoR 5.7.3 (the Roman tactic marker): the answer line names the stronger variant with the paired interval
    text = output(capsys, "compare", BATTLE, "--policy", "tactic=attack", "--vs", "--policy", "tactic=defence",
                  "-n", str(N), "--seed", "3")
    table = compare(BATTLE, None, N, 3, policies_a={"tactic": "attack"}, policies_b={"tactic": "defence"})
    edge = table.set_index("metric").loc["edge"]
    assert edge["ci_low"] > 0
    assert (f"stronger: B (tactic=defence) is stronger for the p_win side: p_win − p_loss A {edge['a']:.4f}, "
            f"B {edge['b']:.4f}; "
            f"B - A = {edge['difference']:+.4f} [{edge['ci_low']:+.4f}, {edge['ci_high']:+.4f}]") in text
    assert "A  kings_of_rome.battle: all default parameters; policies tactic=attack" in text
    assert "B  kings_of_rome.battle: all default parameters; policies tactic=defence" in text
    assert f"n = {N:,} games each, seed = 3" in text
    p_win = table.set_index("metric").loc["p_win"]
    assert any(line.split()[:4] == ["p_win", f"{p_win['a']:.4f}", f"{p_win['b']:.4f}", f"{p_win['difference']:+.4f}"]
               for line in text.splitlines())


def test_is_the_attacker_wins_tie_rule_fairer(capsys):
    # KOR-A29: battle_tie_rule = attacker_wins turns the tied battles into Roman wins: p_win up, p_loss the same
    text = output(capsys, "compare", BATTLE, "--vs", "--set", "battle_tie_rule=attacker_wins", "-n", str(N),
                  "--metric", "p_win", "--metric", "p_loss", "--metric", "edge")
    b = romesim.scenario(BATTLE, battle_tie_rule="attacker_wins")
    row = compare(BATTLE, b, N, metrics=["p_win", "p_loss", "edge"]).set_index("metric").loc["|edge|"]
    assert row["ci_low"] > 0  # B is further from an even battle
    assert (f"fairer:   A (battle_tie_rule=\"no_winner\") is fairer: |p_win − p_loss| A {row['a']:.4f}, "
            f"B {row['b']:.4f}; B - A = "
            f"{row['difference']:+.4f} [{row['ci_low']:+.4f}, {row['ci_high']:+.4f}]") in text
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("metric "))
    assert [line.split()[0] for line in lines[start + 1:start + 5]] == ["p_win", "p_loss", "edge", "|edge|"]
    assert lines[start + 5] == ""


def test_two_toml_files_and_options_after_vs(tmp_path, capsys):
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text('scenario = "kings_of_rome.siege"\nn = 2000\nseed = 4\n[params]\ngarrison = 2\n')
    b.write_text('scenario = "kings_of_rome.siege"\n[params]\ngarrison = 1\n')
    text = output(capsys, "compare", str(a), str(b), "--metric", "p_win")
    table = compare(romesim.scenario("kings_of_rome.siege", garrison=2), romesim.scenario("kings_of_rome.siege",
                    garrison=1), 2_000, 4, metrics=["p_win"]).set_index("metric")
    d = table.loc["|p_win - 0.5|"]
    who = "B" if d["ci_high"] < 0 else "A"
    own = 2 if who == "A" else 1
    assert f"fairer:   {who} (garrison={own}) is fairer: |p_win - 0.5| A {d['a']:.4f}, B {d['b']:.4f}" in text
    assert "n = 2,000 games each, seed = 4" in text  # A's file sets the run
    # the run's options may follow --vs; B's --set adds to the options before --vs
    again = output(capsys, "compare", "kings_of_rome.siege", "--set", "garrison=2", "--vs", "--set", "garrison=1",
                   "-n", "2000", "--seed", "4", "--metric", "p_win")
    assert again.splitlines()[3:] == text.splitlines()[3:]


def test_sprt_stops_as_soon_as_it_knows(capsys):
    text = output(capsys, "compare", BATTLE, "--policy", "tactic=attack", "--vs", "--policy", "tactic=defence",
                  "--sprt", "--test", "stronger", "-n", "50000")
    result = sprt(BATTLE, None, 50_000, test="stronger", policies_a={"tactic": "attack"},
                  policies_b={"tactic": "defence"})
    assert result.decision == "B stronger"
    assert "question: is B stronger than A, edge (p_win − p_loss) higher by at least 0.02?" in text
    assert f"answer:   B is stronger than A (decided after {result.n:,} games per variant)" in text
    low, high = result.difference_ci
    assert f"B - A = {result.difference:+.4f} [{low:+.4f}, {high:+.4f}]" in text
    fairer = output(capsys, "compare", BATTLE, "--vs", "--set", "battle_tie_rule=attacker_wins", "--sprt",
                    "--delta", "0.05", "-n", "50000")
    assert "question: is B fairer than A, edge (p_win − p_loss) closer to 0 by at least 0.05?" in fairer
    assert "answer:   B is not fairer than A" in fairer
    out = json.loads(output(capsys, "compare", BATTLE, "--vs", "--set", "battle_tie_rule=attacker_wins",
                            "--sprt", "-n", "50000", "--json"))
    assert out["decision"] == "not fairer" and out["test"] == "fairer" and out["metric"] == "edge"


def test_json_rows_are_the_library_table(capsys):
    out = json.loads(output(capsys, "compare", "kings_of_rome.treason", "--vs", "--set", "garrison=2", "-n", "2000",
                            "--json"))
    table = compare("kings_of_rome.treason", romesim.scenario("kings_of_rome.treason", garrison=2), 2_000)
    assert [r["metric"] for r in out["rows"]] == list(table["metric"])
    assert out["rows"][0]["difference"] == pytest.approx(table["difference"].iat[0])
    assert out["n"] == 2000 and any(a.startswith("fairer:") for a in out["answers"])
    assert out["rows"][-1]["metric"] == "|p_win - 0.5|" and out["rows"][-1]["correlation"] is None  # strict JSON


@pytest.mark.parametrize("argv, message", [
    (["compare", BATTLE], "B is the same as A"),
    (["compare", BATTLE, "--vs", "--bogus"], "--vs: '--bogus' is not allowed"),
    (["compare", BATTLE, "kings_of_rome.siege", "--vs", "kings_of_rome.treason"], "B is already kings_of_rome.siege"),
    (["compare", BATTLE, "--vs", "--set", "battle_tie_rule=nope"], "battle_tie_rule: 'nope' is not allowed"),
    (["compare", BATTLE, "--vs", "--policy", "tactic=nope"], "unknown policy 'nope'"),
])
def test_bad_input_is_one_line(capsys, argv, message):
    assert message in error_of(capsys, *argv)
