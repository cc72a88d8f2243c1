"""The ``romesim`` command line, called in-process through ``main`` (plus one real subprocess for exit codes)."""
import json
import math
import subprocess
import sys

import pytest

import romesim
from romesim.cli import main, parse_value
from romesim.core.policy import decode_error
from romesim.core.scenario import Scenario

TREASON = ["kings_of_rome.treason", "--set", "garrison=2", "--set", "ip_spent=1"]  # exact p_win = 1/2
N = 2000


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def error_of(capsys, *argv):
    """The one stderr line of a failing command, after checking the exit status and that stdout is empty."""
    assert main(list(argv)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("romesim: error: "), err
    return lines[0]


# ------------------------------------------------------------------ list
def test_list_text(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for name in ("kings_of_rome.siege", "kings_of_rome.treason", "kings_of_rome.ignominy"):
        assert name in out
    assert "KoR 5.5" in out and "p_win = the siege succeeds" in out
    assert 'commander="king"' in out and "reroll (greedy | never | reserve:keep)" in out
    assert "exact: yes" in out


def test_list_json(capsys):
    assert main(["list", "--json"]) == 0
    rows = {r["scenario"]: r for r in json.loads(capsys.readouterr().out)}
    siege = rows["kings_of_rome.siege"]
    assert siege["rule"] == "KoR 5.5"
    assert siege["parameters"]["garrison"] == 2 and siege["parameters"]["commander"] == "king"
    assert "p_win" in siege["metrics"] and "reroll" in siege["decision_points"]
    assert siege["exact"] is True
    assert rows["kings_of_rome.treason"]["decision_points"] == {"ip_spent": ["fixed", "none", "max"]}


# ------------------------------------------------------------------ run
def test_run_text_report(capsys):
    assert main(["run", *TREASON, "-n", str(N), "--seed", "3", "--exact"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("kings_of_rome.treason — KoR 6.3: ")
    assert "p_win = the treason fails (Rome keeps the city)" in out
    assert "parameters: ip_spent=1\n" in out  # only what differs from the defaults
    assert "n = 2,000   seed = 3" in out and "policies: ip_spent=fixed" in out
    assert "95% CI" in out and "exact" in out and "games/s" in out
    p_win_row = next(line for line in out.splitlines() if line.startswith("p_win ") and "=" not in line)
    assert p_win_row.split()[-1] == "0.5000"  # the exact column


def test_run_text_all_defaults(capsys):
    assert main(["run", "kings_of_rome.ignominy", "-n", "500"]) == 0
    out = capsys.readouterr().out
    assert "parameters: all defaults" in out and "policies: none" in out


def test_run_json(capsys):
    doc = run_json(capsys, "run", *TREASON, "-n", str(N), "--seed", "7")
    assert {"scenario", "params", "n", "seed", "metrics"} <= set(doc)
    assert doc["scenario"] == "kings_of_rome.treason"
    assert doc["params"] == {"garrison": 2, "ip_spent": 1, "ip_available": 10}  # defaults resolved
    assert doc["n"] == N and doc["seed"] == 7
    assert set(doc["metrics"]) == {"p_win", "ip", "vp"}
    p = doc["metrics"]["p_win"]
    assert set(p) == {"estimate", "ci_low", "ci_high"}
    assert p["ci_low"] <= p["estimate"] <= p["ci_high"]
    assert abs(p["estimate"] - 0.5) < 5 * math.sqrt(0.25 / N)
    assert doc["metrics"]["ip"]["estimate"] == -1.0


def test_run_json_defaults_n_and_seed(capsys, monkeypatch):
    seen, real = {}, romesim.simulate

    def fake(scenario, n, seed=0, **kw):
        seen.update(n=n, seed=seed)
        return real(scenario, 100, seed, **kw)

    monkeypatch.setattr(romesim, "simulate", fake)
    run_json(capsys, "run", "kings_of_rome.treason")
    assert seen == {"n": 100_000, "seed": 0}


def test_run_target_ci_stops_at_a_checkpoint(capsys):
    doc = run_json(capsys, "run", *TREASON, "-n", "40000", "--target-ci", "0.05")
    assert doc["n"] == 10_000  # the first checkpoint already meets +/- 0.05


def test_run_same_seed_same_bits(capsys):
    a = run_json(capsys, "run", *TREASON, "-n", "500", "--seed", "11")
    b = run_json(capsys, "run", *TREASON, "-n", "500", "--seed", "11")
    assert a["metrics"] == b["metrics"]


# ------------------------------------------------------------------ exact
def test_exact_json(capsys):
    doc = run_json(capsys, "exact", *TREASON)
    assert doc["n"] is None and doc["seed"] is None
    assert doc["metrics"]["p_win"] == {"estimate": 0.5, "ci_low": 0.5, "ci_high": 0.5}
    assert doc["params"] == {"garrison": 2, "ip_spent": 1, "ip_available": 10}


def test_exact_text(capsys):
    assert main(["exact", "kings_of_rome.siege"]) == 0
    out = capsys.readouterr().out
    assert "p_win = the siege succeeds" in out and "\nn = " not in out
    assert "4/9" in out  # spec WE-1


# ------------------------------------------------------------------ --set
@pytest.mark.parametrize("text, value", [("true", True), ("2", 2), ("[4, 3,2]", [4, 3, 2]), ("ge_double", "ge_double"),
                                         ('"quoted"', "quoted"), ("1\nw = 2", "1\nw = 2")])
def test_parse_value(text, value):
    assert parse_value(text) == value


def test_set_literals(capsys):
    doc = run_json(capsys, "exact", "kings_of_rome.siege", "--set", "good_omen=true", "--set", "garrison=3",
                   "--set", "siege_first_roll_test=ge_double", "--set", "commander=tribune")
    assert doc["params"]["good_omen"] is True and doc["params"]["garrison"] == 3
    assert doc["params"]["siege_first_roll_test"] == "ge_double" and doc["params"]["commander"] == "tribune"


# ------------------------------------------------------------------ TOML files
def test_toml_file_with_overrides(capsys, tmp_path):
    path = tmp_path / "treason.toml"
    path.write_text('scenario = "kings_of_rome.treason"\nn = 300\nseed = 5\n'
                    '[params]\ngarrison = 1\nip_spent = 1\n[policies]\nip_spent = "none"\n')
    doc = run_json(capsys, "run", str(path))
    assert doc["n"] == 300 and doc["seed"] == 5
    assert doc["params"]["garrison"] == 1 and doc["policies"] == {"ip_spent": "none"}
    doc = run_json(capsys, "run", str(path), "--set", "garrison=3", "-n", "400", "--seed", "6",
                   "--policy", "ip_spent=fixed")
    assert doc["n"] == 400 and doc["seed"] == 6
    assert doc["params"] == {"garrison": 3, "ip_spent": 1, "ip_available": 10}
    assert doc["policies"] == {"ip_spent": "fixed"}
    doc = run_json(capsys, "exact", str(path), "--set", "garrison=2", "--policy", "ip_spent=fixed")
    assert doc["metrics"]["p_win"]["estimate"] == 0.5


# ------------------------------------------------------------------ --policy
def test_policy_builtin_and_vector(capsys):
    siege = ["kings_of_rome.siege", "--set", "astutia=2", "-n", "500"]
    assert run_json(capsys, "run", *siege, "--policy", "reroll=never")["policies"]["reroll"] == "never"
    assert run_json(capsys, "run", *siege, "--policy", "reroll=greedy")["policies"]["reroll"] == "greedy"
    assert main(["run", *siege, "--policy", "reroll=reserve:1"]) == 0
    assert "reroll=reserve:1," in capsys.readouterr().out


def test_policy_vector_reaches_simulate(capsys, monkeypatch):
    seen, real = {}, romesim.simulate

    def fake(scenario, n, seed=0, *, policies=None, **kw):
        seen.update(policies)
        return real(scenario, 10, seed, policies=policies, **kw)

    monkeypatch.setattr(romesim, "simulate", fake)
    run_json(capsys, "run", "kings_of_rome.siege", "--policy", "reroll=reserve:1", "--policy", "losses=leader_first")
    assert seen == {"reroll": ("reserve", [1.0]), "losses": "leader_first"}


def test_policy_changes_the_answer(capsys):
    never = run_json(capsys, "exact", "kings_of_rome.siege", "--set", "astutia=1", "--policy", "reroll=never")
    greedy = run_json(capsys, "exact", "kings_of_rome.siege", "--set", "astutia=1")
    assert never["metrics"]["p_win"]["estimate"] < greedy["metrics"]["p_win"]["estimate"]


# ------------------------------------------------------------------ errors: one line, exit 2
@pytest.mark.parametrize("argv, names", [
    (["run", "no_such.game"], "'no_such.game'"),
    (["run", "kings_of_rome.siege", "--set", "foo=1"], "'foo'"),
    (["run", "kings_of_rome.siege", "--set", "garrison=9"], "garrison: 9"),
    (["exact", "kings_of_rome.siege", "--set", "commander=consul"], "'consul'"),
    (["exact", "kings_of_rome.siege", "--set", "good_omen=1"], "good_omen: 1"),
    (["run", "kings_of_rome.treason", "-n", "0"], "n: 0"),
    (["run", "kings_of_rome.treason", "--seed", "-1"], "seed: -1"),
    (["run", "kings_of_rome.treason", "--workers", "0"], "workers: 0"),
    (["run", "kings_of_rome.treason", "--set", "garrison"], "--set 'garrison'"),
    (["run", "kings_of_rome.siege", "--policy", "reroll=bogus"], "'bogus'"),
    (["run", "kings_of_rome.siege", "--policy", "nope=never"], "'nope'"),
    (["run", "kings_of_rome.siege", "--policy", "reroll"], "--policy 'reroll'"),
    (["run", "kings_of_rome.siege", "--policy", "reroll=reserve:x"], "reserve:x"),
    (["exact", "kings_of_rome.siege", "--policy", "reroll=reserve:1,2"], "'reserve' takes 1"),
    (["run", "kings_of_rome.siege", "--set", "garrison=0"], "garrison"),  # a cross-field check
    (["run", "missing_file.toml"], "missing_file.toml"),
])
def test_bad_input(capsys, argv, names):
    assert names in error_of(capsys, *argv)


@pytest.mark.parametrize("text, names", [
    ('scenario = "kings_of_rome.siege"\n[params\n', "not valid TOML"),
    ('[params]\ngarrison = 1\n', "'scenario'"),
    ('scenario = "kings_of_rome.siege"\nfoo = 1\n', "'foo'"),
    ('scenario = "kings_of_rome.siege"\npolicies = 3\n', "policies"),
    ('scenario = "kings_of_rome.siege"\n[params]\nleader = 9\n', "leader: 9"),
])
def test_bad_toml(capsys, tmp_path, text, names):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert names in error_of(capsys, "run", str(path))


def test_illegal_action(capsys, monkeypatch):
    points = romesim.kings_of_rome.Siege.decision_points

    def illegal(*args, **kwargs):
        raise decode_error((3 << 32) | 7, points)  # what a kernel reports for action 7 at "reroll"

    monkeypatch.setattr(romesim, "simulate", illegal)
    assert "'reroll'" in error_of(capsys, "run", "kings_of_rome.siege", "-n", "10")


def test_exact_not_supported(capsys, monkeypatch):
    monkeypatch.setattr(romesim.kings_of_rome.Treason, "exact_solution", Scenario.exact_solution)
    assert "no exact solution" in error_of(capsys, "exact", *TREASON)
    # run --exact still reports the simulation, with a note instead of the column
    assert main(["run", *TREASON, "-n", "200", "--exact"]) == 0
    out = capsys.readouterr().out
    assert "no exact column" in out and "95% CI" in out


def test_argparse_errors_exit_2(capsys):
    assert main(["sweep", "x.toml"]) == 2  # arrives with the analysis layer, not before
    assert main(["run", "kings_of_rome.siege", "-n", "many"]) == 2
    assert main([]) == 2
    assert main(["run", "--help"]) == 0
    assert "--target-ci" in capsys.readouterr().out


def test_subprocess_exit_status_and_one_line_error():
    def cli(*argv):
        return subprocess.run([sys.executable, "-m", "romesim", *argv], capture_output=True, text=True, timeout=120)

    bad = cli("run", "kings_of_rome.siege", "--set", "garrison=9", "-n", "10")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.splitlines() == ["romesim: error: garrison: 9 is not allowed; expected an integer from 0 to 3"]
    assert "Traceback" not in bad.stderr
    good = cli("exact", *TREASON, "--json")
    assert good.returncode == 0 and json.loads(good.stdout)["metrics"]["p_win"]["estimate"] == 0.5
