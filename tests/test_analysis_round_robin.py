"""``romesim.analysis.round_robin``: bots rated by Bradley-Terry over every seating of a game with seats."""
import numpy as np
import pytest

import romesim
from romesim.analysis import Seat, rate_round_robin, round_robin

N = 400  # games per seating


def seat_games(a_bot, b_bot, n, seed):
    """Per-game (A won, B won) with ``a_bot`` at every a_* point that has it and ``b_bot`` at every b_* point."""
    duel = romesim.scenario("jugule.duel")
    policies = {dp.name: (a_bot if dp.name.startswith("a_") else b_bot) for dp in duel.decision_points
                if (a_bot if dp.name.startswith("a_") else b_bot) in dp.builtins}
    out = romesim.simulate(duel, n, seed, policies=policies, keep=True, progress=False).outcomes
    return out["p_win"].to_numpy(), out["p_loss"].to_numpy()


def test_two_bots_play_both_sides_and_the_wins_add_up():
    frame = round_robin("jugule.duel", ["default", "random"], 2 * N, seed=4)
    a1, b1 = seat_games("default", "random", N, 4)  # default as A
    a2, b2 = seat_games("random", "default", N, 4)  # default as B
    default_beat_random = int((a1 & (1 - b1)).sum() + (b2 & (1 - a2)).sum())
    random_beat_default = int((b1 & (1 - a1)).sum() + (a2 & (1 - b2)).sum())
    assert frame.attrs["wins"] == [[0, default_beat_random], [random_beat_default, 0]]
    assert frame.attrs["seats"] == ["A", "B"] and frame.attrs["games_per_seating"] == N
    expected = rate_round_robin(np.array(frame.attrs["wins"]), 1.0)
    assert frame["rating"].tolist() == pytest.approx(expected["rating"].tolist())
    p_default = (a1.sum() + b2.sum()) / (2 * N)
    assert frame.set_index("bot").at["default", "p_win"] == pytest.approx(p_default)
    assert frame["decisive"].dtype.kind == "i"  # whole games


def test_the_heuristic_bot_outrates_random_play():
    frame = round_robin("jugule.duel", {"heuristic": "default", "random": "random"}, 2 * N, seed=1)
    best = frame.iloc[0]
    assert best["bot"] == "heuristic" and best["ci_low"] > frame.iloc[1]["ci_high"]


def test_seats_and_bad_bots_are_named():
    assert romesim.scenario("jugule.duel").seats() == (Seat("A", "a_", "p_win"), Seat("B", "b_", "p_loss"))
    assert [s.win for s in romesim.scenario("vox_populi.game", players=3).seats()] == [
        "p_win_seat0", "p_win_seat1", "p_win_seat2"]
    with pytest.raises(romesim.ScenarioError, match="needs a game with two or more seats"):
        round_robin("kings_of_rome.siege", ["greedy", "never"], 100)
    with pytest.raises(romesim.PolicyError, match="'nonsense' is no built-in of seat A"):
        round_robin("jugule.duel", ["default", "nonsense"], 100)
    with pytest.raises(romesim.ScenarioError, match="at least two distinct bots"):
        round_robin("jugule.duel", ["default"], 100)


def test_every_whole_game_says_which_seat_takes_each_decision():
    """A seat's points by prefix, by name (Rome's points of a battle) or, where the sides share them, by the
    state's side entry (Semper Victor's battle); the round robin refuses shared points, where one policy would
    play both sides."""
    battle = romesim.scenario("kings_of_rome.battle")
    rome, nr = battle.seats()
    assert nr.point_names(battle.decision_points) == ["nr_tactic"]
    assert len(rome.point_names(battle.decision_points)) == len(battle.decision_points) - 1
    sv = romesim.scenario("semper_victor.battle")
    attacker, defender = sv.seats()
    assert attacker.point_names(sv.decision_points) == ["losses", "retreat", "commander"]  # the hook left out
    state = romesim.new_game(sv, seed=1)
    side = state.observation["side"]
    assert (attacker.decides(state.point, state.state), defender.decides(state.point, state.state)) == (
        side == 0, side == 1)
    assert [s.name for s in romesim.scenario("semper_victor.usurpation").seats()] == ["usurper"]
    with pytest.raises(romesim.ScenarioError, match="its seats share decision points"):
        round_robin(sv, ["preserve_sp", "random"], 100)
    frame = round_robin(battle, ["attack", "defence"], 200, seed=1)  # the tactic markers of both sides
    assert sorted(frame["bot"]) == ["attack", "defence"] and frame.attrs["seats"] == ["rome", "nr"]
    with pytest.raises(romesim.PolicyError, match="'nr_tactic' is no decision point of seat rome"):
        round_robin(battle, {"rules": {"nr_tactic": "nr_rules"}, "attack": {"tactic": "attack"}}, 200)
