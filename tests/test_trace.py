"""romesim.trace: one game event by event, on the dice of simulate's game K."""
import subprocess
import sys

import numba
import numpy as np
import pytest

import romesim
from romesim.vox_populi.state import VIEW_LEGAL, VIEW_N_ACTIONS

WHOLE = ["kings_of_rome.siege", "kings_of_rome.battle", "jugule.duel", "vox_populi.game", "semper_victor.battle",
         "semper_victor.usurpation"]


@pytest.mark.parametrize("name", WHOLE)
def test_trace_replays_the_outcome_of_simulate(name):
    run = romesim.simulate(name, 8, seed=4, keep=True, progress=False)
    game = 5
    events = romesim.trace(name, game, seed=4)
    assert events.outcome == {m: int(v) for m, v in run.outcomes.iloc[game].items()}
    assert (events["kind"] == "die").sum() > 0
    assert events.narrative().startswith(f"{name}, game {game} of seed 4")
    # every decision shows the actions the rules allowed, the one taken among them; the replay that finds them
    # stops at the same decisions on the same dice, its bots' own dice included (Vox's ties, Jugule's hexes)
    hooks = {dp.name for dp in romesim.scenario(name).decision_points if dp.hook}
    decisions = events[(events["kind"] == "decision") & ~events["point"].isin(hooks)]
    assert len(decisions) > 0 or name == "kings_of_rome.siege"  # the default siege has no Astutia to reroll with
    for e in decisions.itertuples():
        if e.legal is None:  # a Vox seat with one legal action is not asked: the game has no stop to offer it at
            view = list(e.state.values())
            assert name == "vox_populi.game" and sum(view[VIEW_LEGAL:VIEW_LEGAL + view[VIEW_N_ACTIONS]]) == 1
        else:
            assert e.value in e.legal, (e.Index, e.point, e.value, e.legal)


def test_treason_trace_is_the_rule_applied_to_its_one_die():
    """KoR 6.3: the garrison flips iff d6 - k > Virtus; the trace's die and decision give the outcome."""
    scenario = romesim.scenario("kings_of_rome.treason", garrison=3, ip_available=5, ip_spent=2)
    for game in range(6):
        events = romesim.trace(scenario, game, seed=9)
        dice = events[events["kind"] == "die"]
        decision = events[events["kind"] == "decision"].iloc[0]
        assert list(dice["sides"]) == [6]
        assert decision["point"] == "ip_spent" and decision["rule"] == "DP-T01"
        assert decision["state"] == {"garrison": 3, "ip_available": 5, "ip_spent_param": 2}
        k = decision["value"]
        assert k == 2  # the built-in `fixed` spends the scenario's ip_spent
        failed = dice["value"].iloc[0] - k <= 3
        assert events.outcome == {"p_win": int(failed), "ip": -k, "vp": int(failed)}
        assert "KoR 6.3" in set(events["rule"])


def test_siege_trace_names_each_roll_and_its_rule():
    """KoR 5.5 a: roll a succeeds iff the die exceeds double the garrison's Virtus (no leader, no Astutia)."""
    scenario = romesim.scenario("kings_of_rome.siege", garrison=2, leader=0, nr_units=0, astutia=0)
    for game in range(8):
        events = romesim.trace(scenario, game, seed=2)
        dice = events[events["kind"] == "die"]
        assert set(dice["sides"]) == {6}
        first = int(dice["value"].iloc[0])
        if first > 4:  # roll a took the city
            assert events.outcome["p_win"] == 1 and len(dice) == 1
        assert any(r.startswith("KoR 5.5") for r in events["rule"])


def test_user_bot_is_traced_with_its_actions():
    @numba.njit
    def always_two(state, params, stream):
        return 2

    scenario = romesim.scenario("kings_of_rome.treason", garrison=1, ip_available=4, ip_spent=0)
    events = romesim.trace(scenario, 3, seed=1, policies={"ip_spent": always_two})
    assert events[events["kind"] == "decision"]["value"].tolist() == [2]
    run = romesim.simulate(scenario, 4, seed=1, keep=True, policies={"ip_spent": always_two}, progress=False)
    assert events.outcome == {m: int(v) for m, v in run.outcomes.iloc[3].items()}


def test_legal_actions_of_a_battle_trace_are_the_states_own_masks():
    """The battle writes the mask legal_0 .. legal_7 of the actions it allows into each decision's state; the
    trace's legal actions are exactly that mask, for a tactic drawn from the game's stream (``parametric``)
    as for the fixed default."""
    for policies in ({}, {"tactic": ("parametric", [0.5])}):
        for game in range(3):
            events = romesim.trace("kings_of_rome.battle", game, seed=11, policies=policies)
            decisions = events[events["kind"] == "decision"]
            assert len(decisions) > 1
            for e in decisions.itertuples():
                mask = [a for a, allowed in enumerate(list(e.state.values())[:8]) if allowed]
                assert e.legal == mask, (e.point, e.state, e.legal)
    assert "of [0, 1]" in romesim.trace("kings_of_rome.battle", 0, seed=11).narrative(detail=True)
    assert romesim.trace("kings_of_rome.battle", 0, seed=11, legal=False)["legal"].isna().all()


def test_typical_game_is_the_kept_game_closest_to_the_mean():
    run = romesim.simulate("kings_of_rome.treason", 50, seed=3, keep=True, progress=False)
    values = run.outcomes["p_win"].to_numpy()
    want = int(np.argmin(np.abs(values - values.mean())))
    events = run.typical_game()
    assert events.game == want and events.outcome["p_win"] == values[want]
    with pytest.raises(romesim.ScenarioError, match="keep=True"):
        romesim.simulate("kings_of_rome.treason", 5, progress=False).typical_game()
    with pytest.raises(romesim.ScenarioError, match="metric"):
        run.typical_game("nope")


def test_cli_trace_prints_the_narrative_and_refuses_bad_input():
    out = subprocess.run([sys.executable, "-m", "romesim", "trace", "kings_of_rome.treason", "--game", "2"],
                         capture_output=True, text=True)
    assert out.returncode == 0 and "decision ip_spent [DP-T01]" in out.stdout and "outcome:" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "romesim", "trace", "kings_of_rome.treason", "--game", "x"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
