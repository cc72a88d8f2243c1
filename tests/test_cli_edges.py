"""The command line's front door: `romesim list NAME`, did-you-mean, one-line errors, `1e5` counts, Ctrl-C and
closed pipes, `--csv`, `romesim query`, the version in JSON, and progress on `run`."""
import io
import json
import os
import subprocess
import sys

import pandas as pd
import pytest

import romesim
from romesim.cli import main

TREASON = ["kings_of_rome.treason", "--set", "garrison=2", "--set", "ip_spent=1"]  # exact p_win = 1/2


def one_error_line(capsys, *argv, status=2):
    assert main(list(argv)) == status
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err.strip()


def command(*args):
    return [sys.executable, "-c", "import sys, romesim.cli; sys.exit(romesim.cli.main())", *args]


# ------------------------------------------------------------------ romesim list NAME
def test_list_name_describes_every_parameter_and_decision_point(capsys):
    assert main(["list", "kings_of_rome.siege"]) == 0
    out = capsys.readouterr().out
    assert "garrison = 2: an integer from 0 to 3; Virtus of the city's NR garrison (0 = none) [5.5]" in out
    assert "commander = \"king\": one of 'king', 'interrex', 'magister', 'tribune', 'general'" in out
    assert "reroll [DP-S05]" in out and "state: [0] roll, [1] die, [2] points_left, [3] can_succeed" in out
    assert "greedy (default):" in out and "reserve [keep=1]:" in out
    assert "metrics: p_win, " in out


def test_list_point_and_json(capsys):
    assert main(["list", "kings_of_rome.siege", "--point", "reroll"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("decision points:") and "reroll [DP-S05]" in out and "first_target" not in out
    assert main(["list", "kings_of_rome.siege", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    garrison = next(p for p in data["parameters"] if p["name"] == "garrison")
    assert garrison == {"name": "garrison", "default": 2, "allowed": "an integer from 0 to 3",
                        "doc": "Virtus of the city's NR garrison (0 = none)", "rule": "5.5"}
    reroll = next(dp for dp in data["decision_points"] if dp["name"] == "reroll")
    assert reroll["default"] == "greedy" and reroll["builtins"][0]["name"] == "greedy"
    assert {"name": "reserve", "params": ["keep"], "defaults": [1.0]}.items() <= reroll["builtins"][2].items()


def test_list_jugule_shows_the_gladiator_types(capsys):
    assert main(["list", "jugule.duel"]) == 0
    out = capsys.readouterr().out
    assert "gladiator types" in out
    row = next(line for line in out.splitlines() if line.split()[:1] == ["crupellarius"])
    assert row.split()[-9:-3] == ["4", "-4", "-3", "-3", "-3", "-3"]  # AP 4, head -4 ... (seed's table)


def test_list_prefix_filters(capsys):
    assert main(["list", "semper_victor"]) == 0
    names = [line.split()[0] for line in capsys.readouterr().out.splitlines() if line and not line[0].isspace()]
    assert names and all(n.startswith("semper_victor.") for n in names)


def test_did_you_mean(capsys):
    assert "(did you mean 'jugule.duel'?)" in one_error_line(capsys, "list", "jugule.dual")
    assert "(did you mean 'a_spoil'?)" in one_error_line(capsys, "list", "jugule.duel", "--point", "a_spoill")
    assert "(did you mean 'kings_of_rome.siege'?)" in one_error_line(capsys, "run", "kings_of_rome.seige")
    line = one_error_line(capsys, "run", "kings_of_rome.siege", "--set", "garison=1")
    assert "unknown parameter 'garison' (did you mean 'garrison'?)" in line
    line = one_error_line(capsys, "run", "kings_of_rome.siege", "--set", "commander=tribun")
    assert "'tribun' is not allowed (did you mean 'tribune'?)" in line
    line = one_error_line(capsys, "run", "kings_of_rome.siege", "--policy", "reroll=greddy")
    assert "unknown policy 'greddy' (did you mean 'greedy'?)" in line
    # nothing close: no suggestion
    assert "did you mean" not in one_error_line(capsys, "run", "kings_of_rome.siege", "--set", "zzz=1")


# ------------------------------------------------------------------ numbers and argparse's errors
def test_counts_accept_scientific_notation(capsys):
    assert main(["run", *TREASON, "-n", "2e3", "--json"]) == 0
    sci = json.loads(capsys.readouterr().out)
    assert main(["run", *TREASON, "-n", "2_000", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"] == sci["metrics"] and sci["n"] == 2000


@pytest.mark.parametrize("value", ["2.5", "1e-3", "many", "1e99"])
def test_a_bad_count_is_one_line(capsys, value):
    line = one_error_line(capsys, "run", *TREASON, "-n", value)
    assert f"argument -n: {value!r} is not a whole number" in line and "--help" in line


def test_argparse_errors_are_one_line(capsys):
    assert "invalid choice: 'bogus'" in one_error_line(capsys, "bogus")
    assert "unrecognized arguments: --frobnicate" in one_error_line(capsys, "run", *TREASON, "--frobnicate")


# ------------------------------------------------------------------ JSON, CSV and SQL
def test_json_carries_the_version_and_the_generator(capsys):
    for argv, generator in ((["run", *TREASON, "-n", "500"], romesim.GENERATOR), (["exact", *TREASON], None)):
        assert main([*argv, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["romesim"] == romesim.__version__ and out["generator"] == generator  # an exact answer rolls none


def test_run_csv_matches_the_json(capsys):
    assert main(["run", *TREASON, "-n", "3000", "--exact", "--csv"]) == 0
    frame = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert list(frame.columns) == ["metric", "estimate", "ci_low", "ci_high", "n", "exact"]
    assert main(["run", *TREASON, "-n", "3000", "--json"]) == 0
    metrics = json.loads(capsys.readouterr().out)["metrics"]
    row = frame.set_index("metric").loc["p_win"]
    assert row["estimate"] == pytest.approx(metrics["p_win"]["estimate"], abs=0, rel=1e-12)
    assert row["exact"] == 0.5 and row["n"] == 3000


SWEEP = """
scenario = "kings_of_rome.treason"
n = 2000
seed = 3
[grid]
garrison = [1, 2, 3]
ip_spent = [0, 1]
"""


def test_sweep_csv_and_query(tmp_path, capsys):
    path = tmp_path / "t.toml"
    path.write_text(SWEEP)
    assert main(["sweep", str(path), "--no-progress", "--csv"]) == 0
    frame = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert len(frame) == 6 * len(romesim.scenario("kings_of_rome.treason").metrics)
    store = str(tmp_path / "t-store")
    sql = "SELECT garrison, ip_spent, estimate FROM results WHERE metric = 'p_win' ORDER BY garrison, ip_spent"
    assert main(["query", store, sql, "--csv"]) == 0
    queried = pd.read_csv(io.StringIO(capsys.readouterr().out))
    expected = frame[frame["metric"] == "p_win"].sort_values(["garrison", "ip_spent"])
    assert queried["estimate"].tolist() == pytest.approx(expected["estimate"].tolist(), rel=1e-12)
    assert main(["query", store, sql]) == 0
    assert "garrison" in capsys.readouterr().out
    assert main(["query", store, sql, "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["rows"]) == 6
    assert "no such folder" in one_error_line(capsys, "query", str(tmp_path / "none"), sql)
    assert "store query failed" in one_error_line(capsys, "query", store, "SELECT nothing FROM results")


# ------------------------------------------------------------------ Ctrl-C and closed pipes
def test_a_closed_pipe_ends_quietly():
    """``romesim list | head -n 1``: a reader that left. The pipe's read end is closed before romesim starts, so
    its first write fails whatever the pipe's buffer size."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(command("list"), stdout=write, stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(write)
    assert done.stderr == "" and done.returncode == 141  # 128 + SIGPIPE, as a shell reports it


# ------------------------------------------------------------------ progress
def test_run_progress_flag(capsys):
    assert main(["run", *TREASON, "-n", "50000", "--progress"]) == 0
    shown = capsys.readouterr()
    assert "50,000/50,000 games" in shown.err
    assert main(["run", *TREASON, "-n", "50000", "--no-progress"]) == 0
    hidden = capsys.readouterr()
    assert hidden.err == "" and hidden.out.splitlines()[:-1] == shown.out.splitlines()[:-1]  # all but the timing


def test_a_paced_run_gives_the_same_bits():
    """The bar paces kernel calls by the measured speed; the results depend on no chunk size."""
    battle = romesim.scenario("kings_of_rome.battle")
    paced = romesim.simulate(battle, 30_000, 5, progress=True)
    plain = romesim.simulate(battle, 30_000, 5, progress=False)
    assert (paced.sums == plain.sums).all() and (paced.sumsq == plain.sumsq).all()


def test_sweep_states_the_answer_per_knob(tmp_path, capsys):
    """Per knob, the value whose mean over the other axes is closest to even. Treason (KoR 6.3): the garrison
    holds when d6 - k <= Virtus, so p_win = (g + k) / 6 here; over k = 0, 1, 2 the garrison's means are 2/6, 3/6,
    4/6 (g = 1, 2, 3), and over g the same for k: even at g = 2 (the rules' default) and at k = 1."""
    path = tmp_path / "t.toml"
    path.write_text(SWEEP.replace("ip_spent = [0, 1]", "ip_spent = [0, 1, 2]").replace("n = 2000", "n = 20000"))
    assert main(["sweep", str(path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    knobs = out.split("per knob, over the other axes:\n")[1].splitlines()
    garrison, ip_spent = knobs[0].strip(), knobs[1].strip()
    assert garrison.startswith("garrison: closest to even at 2, mean p_win over the other axes 0.")
    assert garrison.endswith("(the scenario's default).")
    assert ip_spent.startswith("ip_spent: closest to even at 1, mean p_win over the other axes 0.")
    assert "; at the scenario's default 0: 0.3" in ip_spent
    mean = float(garrison.split("axes ")[1].split()[0])
    assert abs(mean - 0.5) < 5 * (0.25 / 60_000) ** 0.5


def test_the_shipped_example_sweep_file_loads():
    from pathlib import Path

    from romesim.analysis.sweep import load_sweep

    kwargs = load_sweep(Path(__file__).parent.parent / "examples" / "thraex_ap.toml")
    assert kwargs["scenario"].a == "thraex_late" and kwargs["n"] == 20_000
    assert kwargs["grid"] == {"ap_a": [7, 8, 9, 10, 11, 12], "b": ["murmillo", "secutor", "hoplomachus", "retiarius"]}


def test_every_preset_says_what_it_does():
    for name, point in (("jugule.duel", "a_allocate"), ("vox_populi.game", "seat0")):
        builtins = romesim.describe(name, point).to_dict()["decision_points"][0]["builtins"]
        presets = [b for b in builtins if "preset" in b["doc"]]
        assert len(presets) >= 3
        for b in presets:
            words = b["doc"].split(":", 1)
            assert len(words) == 2 and len(words[1].split()) >= 5, b  # "preset X: what it does"
            assert b["params"] and len(b["defaults"]) == len(b["params"])
    allocate = romesim.describe("jugule.duel", "a_allocate").to_dict()["decision_points"][0]["builtins"]
    aggressive = next(b for b in allocate if b["name"] == "aggressive")
    assert aggressive["defaults"] == [0.9, 0.8, 0.0] and "no reserve kept" in aggressive["doc"]
