"""`romesim sweep FILE.toml` and `romesim report`: a 21-point sweep killed with SIGKILL resumes to the same store."""
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

import romesim
from romesim.analysis.store import Store
from romesim.cli import main

SWEEP = """
scenario = "kings_of_rome.battle"
n = {n}
seed = 21
store = "{store}"
[policies]
tactic = "parametric"
[grid]
policy.tactic.p_attack = [{values}]
"""
P_ATTACK = ", ".join(f"{i / 20:.2f}" for i in range(21))


def write(tmp_path, name, n, store):
    path = tmp_path / name
    path.write_text(SWEEP.format(n=n, store=store, values=P_ATTACK))
    return path


def command(*args):
    return [sys.executable, "-c", "import sys, romesim.cli; sys.exit(romesim.cli.main())", *args]


def stored(folder):
    frame = Store(folder).frame().sort_values(["key", "metric"], ignore_index=True)
    return frame.drop(columns=[])


def wait_for_points(process, folder, points, seconds):
    """Until ``points`` points of the running sweep are stored in ``folder`` (or it ended, or time ran out)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        if folder.is_dir() and len(list(folder.glob("*.parquet"))) >= points:
            return
        time.sleep(0.01)


def test_a_killed_sweep_resumes_to_the_identical_store(tmp_path):
    n = 50_000  # about a tenth of a second a point: killed after 2 points, the sweep has 19 more to play
    path = write(tmp_path, "sweep.toml", n, "killed")
    folder = tmp_path / "killed" / "scenario=kings_of_rome.battle"
    process = subprocess.Popen(command("sweep", str(path), "--no-progress"), stdout=subprocess.DEVNULL)
    wait_for_points(process, folder, 2, 120)
    process.send_signal(signal.SIGKILL)
    process.wait()
    finished = len(list(folder.glob("*.parquet")))
    assert 2 <= finished < 21, "the sweep was not interrupted halfway; make n larger"

    resumed = subprocess.run(command("sweep", str(path), "--no-progress"), capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert "21 points" in resumed.stdout
    assert not list(folder.glob(".*.partial"))

    whole = romesim.sweep("kings_of_rome.battle", grid={"policy.tactic.p_attack": [i / 20 for i in range(21)]},
                          policies={"tactic": "parametric"}, n=n, seed=21, store=tmp_path / "whole")
    assert len(whole) == 21
    assert sorted(p.name for p in folder.glob("*.parquet")) == sorted(
        p.name for p in (tmp_path / "whole" / "scenario=kings_of_rome.battle").glob("*.parquet"))
    pd.testing.assert_frame_equal(stored(tmp_path / "killed"), stored(tmp_path / "whole"))


def test_ctrl_c_says_what_is_stored(tmp_path):
    """Ctrl-C (SIGINT) ends the sweep with one line saying how many points are kept, and status 130."""
    path = write(tmp_path, "sweep.toml", 200_000, "s")
    folder = tmp_path / "s" / "scenario=kings_of_rome.battle"
    # Ctrl-C as a terminal sends it: a suite started in the background (``pytest &``) ignores SIGINT, and a child
    # that inherits the ignoring would play on to the end
    process = subprocess.Popen(command("sweep", str(path), "--no-progress"), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    wait_for_points(process, folder, 2, 300)
    process.send_signal(signal.SIGINT)
    err = process.communicate(timeout=120)[1]
    kept = len(Store(tmp_path / "s").files())
    assert 2 <= kept < 21, f"the sweep was not interrupted halfway; make n larger ({err!r})"
    assert process.returncode == 130, err
    assert err.splitlines() == [f"romesim: interrupted: {kept}/21 points stored in {tmp_path / 's'}; "
                                "rerun to resume"], err


def test_the_progress_bar_counts_points_and_games(tmp_path, capsys):
    path = write(tmp_path, "sweep.toml", 1_000, "s")
    assert main(["sweep", str(path), "--progress"]) == 0
    out, err = capsys.readouterr()
    assert "21/21 points" in err and "21.0k/21.0k" in err
    assert "closest to an even game (p_win − p_loss closest to 0): policy.tactic.p_attack=" in out
    assert "|x - 0.5|" not in out and "|edge|" in out
    assert len(Store(tmp_path / "s").files()) == 21
    assert main(["sweep", str(path), "--metric", "vp", "--no-progress"]) == 0
    out, _ = capsys.readouterr()
    assert "vp: a mean" in out and "closest to 0.5" not in out and "|x - 0.5|" not in out
    assert main(["sweep", str(path), "--json", "-n", "2000"]) == 0
    out, _ = capsys.readouterr()
    assert '"n": 2000' in out
    assert len(Store(tmp_path / "s").files()) == 42  # 21 points at n = 1000 and at n = 2000


@pytest.mark.parametrize("text, message", [
    ('scenario = "kings_of_rome.battle"\nn = 10\n[grid]\nspeed = [1]', "speed: not a parameter"),
    ('scenario = "kings_of_rome.battle"\nn = 10\nruns = 3\n[grid]\nseed = [1]', "unknown key(s) ['runs']"),
    ('scenario = "kings_of_rome.battle"\n[grid]\ntactic_pool_attack = [1]', "missing the key 'n'"),
    ('scenario = "kings_of_rome.battle"\nn = 10\n[grid', "not valid TOML"),
])
def test_bad_sweep_files_exit_2_with_one_line(tmp_path, capsys, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert main(["sweep", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("romesim: error:") and err.count("\n") == 1 and message in err


def test_report_of_a_missing_store_exits_2(tmp_path, capsys):
    assert main(["report", str(tmp_path / "nothing"), "-o", str(tmp_path / "r.html")]) == 2
    assert "romesim: error:" in capsys.readouterr().err


def test_killed_partial_files_are_cleaned(tmp_path):
    folder = tmp_path / "scenario=kings_of_rome.battle"
    folder.mkdir()
    dead = subprocess.Popen(["true"])
    dead.wait()
    (folder / f".x-n1.parquet.{dead.pid}.partial").write_text("half")
    (folder / f".y-n1.parquet.{os.getpid()}.partial").write_text("being written")
    Store(tmp_path).remove_stale_partials()
    assert [p.name for p in folder.iterdir()] == [f".y-n1.parquet.{os.getpid()}.partial"]


def test_sweep_table_measures_a_game_with_draws_by_its_edge(tmp_path, capsys):
    # KoR 5.7.11 / KOR-A29 no_winner: a tied battle has no winner, so the table's distance is |p_win − p_loss|,
    # p_loss gets no distance at all, and a two-outcome siege keeps |x − 0.5|
    path = tmp_path / "tie.toml"
    path.write_text('scenario = "kings_of_rome.battle"\nn = 2000\nseed = 1\n[grid]\n'
                    'battle_tie_rule = ["no_winner", "attacker_wins"]\npolicy.tactic = ["attack", "defence"]\n')
    assert main(["sweep", str(path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    sweep = romesim.sweep("kings_of_rome.battle", grid={"battle_tie_rule": ["no_winner", "attacker_wins"],
                                                        "policy.tactic": ["attack", "defence"]}, n=2000, seed=1)
    best = sweep.fairest().iloc[0]
    assert (f"closest to an even game (p_win − p_loss closest to 0): battle_tie_rule={best['battle_tie_rule']}, "
            f"policy.tactic={best['policy.tactic']} (edge {best['estimate']:.4f} ") in out
    header = next(line for line in out.splitlines() if line.startswith("point "))
    assert header.split()[-5:] == ["p_loss", "edge", "95%", "CI", "|edge|"] and "|x - 0.5|" not in out
    assert main(["sweep", str(path), "--no-progress", "--metric", "p_loss"]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("point "))
    assert "closest" not in out and "|" not in header and header.split()[-3:] == ["p_loss", "95%", "CI"]
    siege = tmp_path / "siege.toml"
    siege.write_text('scenario = "kings_of_rome.siege"\nn = 2000\n[grid]\ngarrison = [1, 2, 3]\n')
    assert main(["sweep", str(siege), "--no-progress"]) == 0
    out = capsys.readouterr().out
    # KoR 5.5, WE-1: garrison 2 succeeds 4/9 of the time, the closest of 1, 2, 3 to an even siege
    assert "|x - 0.5|" in out and "closest to 0.5: garrison=2 (p_win " in out
