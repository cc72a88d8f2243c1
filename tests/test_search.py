"""The search bots (``core.search``): flat Monte Carlo and IS-MCTS at every decision point of the whole games.

Checked: the search finds the exact best response where one is known (the Kings of Rome battle's tactic, KoR 5.7.3:
DEFENCE wins 0.3947 and loses 0.0013 in the default battle, ATTACK 0.2145 and 0.2025); a search never draws from the
game's own dice (the games it decides like a fixed policy are that policy's games, die for die); runs are
reproducible for any chunking; a determinization redraws only what the player cannot see; bad parameters are
refused by name; the exact solvers refuse a search.
"""
import numba
import numpy as np
import pytest

import romesim
from romesim import ExactNotSupported, PolicyError
from romesim.core import rng

from helpers import SIGMA

BATTLE = "kings_of_rome.battle"
N = 1500


def test_every_decision_point_of_a_whole_game_offers_the_search_bots():
    for name in (BATTLE, "kings_of_rome.ambush", "jugule.duel", "vox_populi.game", "semper_victor.battle",
                 "semper_victor.usurpation"):
        for dp in romesim.scenario(name).decision_points:
            assert dp.hook or {"flat_mc", "ismcts"} <= set(dp.builtins), (name, dp.name)
    # a procedure that is no state machine has none
    assert "ismcts" not in romesim.scenario("kings_of_rome.siege").decision_points[0].builtins


@pytest.mark.parametrize("bot", ["flat_mc", "ismcts"])
def test_battle_tactic_search_finds_the_exact_best_response(bot):
    """KoR 5.7.3: with the rest of the battle played by the defaults, DEFENCE is the best tactic of the default
    battle; a search of 256 playouts plays it, so its p_win and p_loss are DEFENCE's, within 5 sigma."""
    sc = romesim.scenario(BATTLE)
    defence = romesim.exact(sc, policies={"tactic": "defence"})
    attack = romesim.exact(sc, policies={"tactic": "attack"})
    assert defence["p_win"] > attack["p_win"] and defence["p_loss"] < attack["p_loss"]
    run = romesim.simulate(sc, N, 3, policies={"tactic": (bot, {"budget": 256})})
    for metric in ("p_win", "p_loss"):
        p = float(defence[metric])
        sigma = max(np.sqrt(p * (1 - p) / N), 1 / N)
        assert abs(run[metric] - p) <= SIGMA * sigma, (metric, run[metric], p)


def test_a_search_never_draws_the_games_dice():
    """The playouts roll on streams of their own: where the search takes DEFENCE, the game is the game of the
    fixed DEFENCE policy, die for die; so nearly every game is that game (the search takes ATTACK only where its
    playouts mislead it)."""
    sc = romesim.scenario(BATTLE)
    searched = romesim.simulate(sc, N, 5, policies={"tactic": ("flat_mc", {"budget": 128})}, keep=True).outcomes
    fixed = romesim.simulate(sc, N, 5, policies={"tactic": "defence"}, keep=True).outcomes
    same = (searched.to_numpy() == fixed.to_numpy()).all(axis=1).mean()
    assert same >= 0.97


def test_search_runs_are_reproducible_and_the_first_k_games_are_a_run_of_k():
    sc = romesim.scenario(BATTLE)
    policies = {"tactic": ("ismcts", {"budget": 32}), "fight_phase3": ("flat_mc", {"budget": 16})}
    whole = romesim.simulate(sc, 3000, 11, policies=policies, keep=True).outcomes
    again = romesim.simulate(sc, 3000, 11, policies=policies, keep=True, chunk=1000).outcomes
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        one_thread = romesim.simulate(sc, 3000, 11, policies=policies, keep=True).outcomes
    finally:
        numba.set_num_threads(threads)
    first = romesim.simulate(sc, 700, 11, policies=policies, keep=True).outcomes
    assert whole.equals(again) and whole.equals(one_thread)
    assert whole.iloc[:700].reset_index(drop=True).equals(first.reset_index(drop=True))


def test_search_parameters_are_checked_by_name():
    sc = romesim.scenario(BATTLE)
    with pytest.raises(PolicyError, match="has no parameter 'budjet'.*budget"):
        romesim.simulate(sc, 10, policies={"tactic": ("ismcts", {"budjet": 8})})
    with pytest.raises(PolicyError, match="rollout 'greedy' is not a built-in of 'tactic'.*random"):
        romesim.simulate(sc, 10, policies={"tactic": ("ismcts", {"rollout": "greedy"})})
    with pytest.raises(PolicyError, match="budget 0 is not allowed"):
        romesim.simulate(sc, 10, policies={"tactic": ("flat_mc", {"budget": 0})})
    with pytest.raises(PolicyError, match="exploration -1 is not allowed"):
        romesim.simulate(sc, 10, policies={"tactic": ("ismcts", {"exploration": -1})})
    with pytest.raises(PolicyError, match="prior 1.5 is not allowed; a number 0 .. 1"):
        romesim.simulate(sc, 10, policies={"tactic": ("ismcts", {"prior": 1.5})})
    with pytest.raises(ExactNotSupported, match="search bots"):
        romesim.exact(sc, policies={"tactic": "ismcts"})


def test_a_random_rollout_is_the_random_builtin():
    """``rollout`` names the built-in that plays the searcher's own later decisions; a search of one playout per
    action at a point with one legal action is no search at all, and the rest of the game is the run's."""
    sc = romesim.scenario(BATTLE)
    run = romesim.simulate(sc, 400, 2, policies={"tactic": ("flat_mc", {"budget": 64, "rollout": "random"})})
    assert 0.2 < run["p_win"] < 0.45


def _vox_state(seats=4, moves=40):
    """A Vox Populi game some decisions in (each decision by its first legal action)."""
    state = romesim.new_game(romesim.scenario("vox_populi.game", players=seats), seed=3, game=1)
    for _ in range(moves):
        state = state.apply(state.legal_actions()[0])
    return state


def test_vox_determinization_redraws_only_what_the_seat_cannot_see():
    """Spec 11: a seat sees its own hand and box and the public part of ``g``. After a determinization for the
    seat to play, its own hand and box, every public entry (as a view shows it) and every count (hand sizes, deck
    size, pieces per slot and owner) are unchanged, and the cards of the other hands and the deck are the same set."""
    from romesim.vox_populi import game as vox
    from romesim.vox_populi import state as st
    state = _vox_state()
    p, g, view, row = (*state._game.args, *state._arrays)
    seat = state.point_index
    stream = rng.new_stream()
    changed = False
    for k in range(20):
        rng.start(stream, 99, k)
        h = g.copy()
        vox.vox_determinize(seat, stream, p, h, view.copy(), row.copy())
        seen = lambda x: np.where(np.isin(np.arange(x.size), np.r_[st.CARD_STATE:st.CARD_STATE + st.N_CARDS])  # noqa
                                  & (x == st.IN_HAND), st.IN_DECK, x)[:st.PUBLIC_END]  # a view reads IN_HAND as IN_DECK
        assert (seen(h) == seen(g)).all()
        hands, new_hands = (x[st.HAND:st.HAND + st.MAX_SEATS * st.N_CARDS].reshape(st.MAX_SEATS, -1) for x in (g, h))
        assert (new_hands[seat] == hands[seat]).all()
        assert (new_hands.sum(axis=1) == hands.sum(axis=1)).all()
        deck = lambda x: set(x[st.DECK + st.N_CARDS - x[st.DECK_LEFT]:st.DECK + st.N_CARDS])  # noqa: E731
        others = [s for s in range(g[st.N_SEATS]) if s != seat]
        unseen = lambda x, hs: deck(x) | set(np.flatnonzero(hs[others].any(axis=0)))  # noqa: E731
        assert unseen(g, hands) == unseen(h, new_hands)
        for s in range(st.MAX_SEATS):
            for slot in range(st.N_POL):
                stars = [st.stars_at(slot, s, v) for v in range(1, st.N_VALUES + 1)]
                size = lambda x: x[stars].sum() + x[st.box_decoys_at(slot, s)]  # noqa: E731
                assert size(h) == size(g)
                if s == seat:
                    assert (h[stars] == g[stars]).all()
        changed |= not (h == g).all()
    assert changed


def test_searches_play_whole_games_to_their_end():
    """A search at two seats of a Vox Populi table, at two of a gladiator's points, at both sides' losses of a
    Semper Victor P8 battle (whose loop runs without reference counting) and at a usurper's target plays whole
    games to their end."""
    vox = romesim.simulate(romesim.scenario("vox_populi.game"), 4, 1,
                           policies={"seat0": ("ismcts", {"budget": 4}), "seat1": ("flat_mc", {"budget": 4})})
    assert vox.n == 4 and vox["p_win"] + vox["p_win_seat1"] <= 2
    sc = romesim.scenario("jugule.duel")
    duel = romesim.simulate(sc, 20, 1, policies={"a_allocate": ("ismcts", {"budget": 16}),
                                                 "b_move": ("flat_mc", {"budget": 16})})
    assert duel.n == 20
    p8 = romesim.simulate(romesim.scenario("semper_victor.battle"), 200, 1,
                          policies={"losses": ("ismcts", {"budget": 16}), "retreat": ("flat_mc", {"budget": 8})})
    usurpation = romesim.simulate(romesim.scenario("semper_victor.usurpation"), 200, 1,
                                  policies={"target": ("ismcts", {"budget": 16})})
    assert p8.n == usurpation.n == 200


def test_duel_determinization_hides_the_scutum_zone_and_unseal_takes_back_the_split():
    """JUG-A19 (the scutum zone, secret): a determinization redraws the other's zone, nothing else. JUG-A4
    (``allocation = simultaneous``, A then B, B blind to A's split): the two splits are one simultaneous choice,
    and at B's split ``duel_unseal`` takes the duel back to A's, exactly as the duel stood there (A's AP not yet
    counted as allocated, A's state vector posted again)."""
    from romesim.jugule import duel as du
    from romesim.jugule.combat import G_AP_ALLOC, G_C, G_M, G_RES, G_SCUTUM_ZONE
    from romesim.jugule.policies import N_POINTS, P_ALLOCATE
    state = romesim.new_game(romesim.scenario("jugule.duel", a="murmillo", b="secutor"), seed=1, game=0)
    while state.point.name != "a_allocate":
        state = state.apply(state.legal_actions()[0])
    at_a = tuple(a.copy() for a in (*state._game.args, *state._arrays))
    assert du.duel_sealed(P_ALLOCATE, *at_a) == 0
    state = state.apply(state.legal_actions()[-1])
    assert state.point.name == "b_allocate"
    arrays = (*state._game.args, *state._arrays)
    assert du.duel_sealed(N_POINTS + P_ALLOCATE, *arrays) == 1
    st, vector, G = 3, 4, 5  # the duel's arrays: o, G0, IT0, st, state, G, IT, cand, row
    zones = set()
    stream = rng.new_stream()
    for k in range(30):
        rng.start(stream, 5, k)
        copy = tuple(a.copy() for a in arrays)
        du.duel_determinize(N_POINTS + P_ALLOCATE, stream, *copy)
        assert (copy[G][1] == arrays[G][1]).all()
        changed = copy[G][0] != arrays[G][0]
        changed[G_SCUTUM_ZONE] = False
        assert not changed.any()
        zones.add(copy[G][0, G_SCUTUM_ZONE])
    assert len(zones) == 2  # a murmillo's scutum covers the thorax or the left leg (JUG-A19's default)
    copy = tuple(a.copy() for a in arrays)
    assert du.duel_unseal(N_POINTS + P_ALLOCATE, *copy) == P_ALLOCATE
    assert (copy[vector] == at_a[vector]).all()
    assert (copy[G] == at_a[G]).all() and copy[G][0, G_AP_ALLOC] == at_a[G][0, G_AP_ALLOC]
    assert (copy[G][0, [G_M, G_C, G_RES]] != arrays[G][0, [G_M, G_C, G_RES]]).any()  # A's split was undone
    # where the duel stands: the same but for the last action taken, read only when a decision is answered, and
    # the frame's copy of what A's split replaced
    frame = du.ST_FRAMES + (at_a[st][du.ST_SP] - 1) * du.FRAME
    stack = copy[st] != at_a[st]
    stack[[du.ST_ACTION, *range(frame + du.AL_KEPT, frame + du.AL_KEPT + 3)]] = False
    assert not stack.any()


@pytest.mark.parametrize("kind, options, game", [("ballot", {}, 0),
                                                 ("offer", {"pool_protocol": "simultaneous_sealed"}, 1)])
def test_vox_unseal_takes_a_sealed_choice_back_to_its_first_chooser(kind, options, game):
    """Spec 7.4: a vote's ballots are cast at once, public once all are cast; VOX-A25 simultaneous_sealed: a
    round's offers are made seeing only the pot before the round. The machine asks one seat after another, each
    blind to the choices before it. At the second chooser, ``vox_unseal`` takes the game back to the first's
    decision: its view (up to its actions) and where the game stands exactly as they were."""
    from romesim.vox_populi import game as vox
    from romesim.vox_populi import state as vs
    kinds = (vs.K_VOTE_YES_NO, vs.K_VOTE_POLITICIAN) if kind == "ballot" else (vs.K_CONTRIBUTE,)
    sc = romesim.scenario("vox_populi.game", players=4, **options)
    pick = np.random.default_rng(0)
    for g_index in range(game + 1):  # the random moves of the earlier games too: the same draws as when found
        state = romesim.new_game(sc, seed=3, game=g_index)
        while not state.is_terminal and (g_index < game or state._arrays[1][vs.VIEW_KIND] not in kinds):
            actions = state.legal_actions()
            state = state.apply(actions[pick.integers(len(actions))])
    p = state._game.args[0]
    first = state.point_index
    assert vox.vox_sealed(first, p, *state._arrays) == 0
    g0, view0 = (a.copy() for a in state._arrays[:2])
    state = state.apply(state.legal_actions()[-1])
    assert state.point_index != first and vox.vox_sealed(state.point_index, p, *state._arrays) == 1
    g, view, row = (a.copy() for a in state._arrays)
    assert vox.vox_unseal(state.point_index, p, g, view, row) == first
    shown = vs.VIEW_LEGAL + view0[vs.VIEW_N_ACTIONS]  # the mask past the decision's actions is never read
    assert (view[:shown] == view0[:shown]).all()
    assert (view[vs.VIEW_QUARTER:vs.VIEW_SCRATCH] == view0[vs.VIEW_QUARTER:vs.VIEW_SCRATCH]).all()
    machine = np.r_[vs.FRAMES:vs.FRAMES + vs.MAX_DEPTH * vs.FRAME_SIZE, vs.ASK_SEAT]
    assert (g[machine] == g0[machine]).all() and (g[:vs.PUBLIC_END] == g0[:vs.PUBLIC_END]).all()


def test_search_benchmark_counts_decisions_and_playouts():
    """``python -m benchmarks.search``: the tactic is asked at most once a battle (KoR 5.7.3), and playouts/s is
    decisions/s times the budget."""
    from benchmarks import search
    row = search.measure(BATTLE, "tactic", "ismcts", 8, 0.05, 5)
    assert 0 < row["decisions_per_game"] <= 1 and row["cost"] > 1
    assert row["playouts_per_s"] == pytest.approx(row["decisions_per_s"] * 8)


def test_the_command_line_takes_a_search_by_named_parameters(capsys):
    import json

    from romesim.cli import main
    assert main(["run", BATTLE, "-n", "300", "--json", "--policy", "tactic=ismcts:budget=32,rollout=random"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["policies"]["tactic"] == "ismcts" and doc["n"] == 300
    assert main(["run", BATTLE, "--policy", "tactic=ismcts:budget=32,random"]) == 2
    assert "give every parameter by name" in capsys.readouterr().err


def test_a_trace_shows_the_search_decision_and_none_of_its_playouts():
    """``romesim.trace`` of a game with a search: one decision at the searched point, the action it took, and the
    game's own dice only, the same as the game under the fixed policy of that action."""
    searched = romesim.trace(BATTLE, game=2, seed=6, policies={"tactic": ("flat_mc", {"budget": 8})}, legal=False)
    tactic = searched[(searched["kind"] == "decision") & (searched["point"] == "tactic")]
    assert len(tactic) == 1
    action = int(tactic["value"].iloc[0])
    fixed = romesim.trace(BATTLE, game=2, seed=6, policies={"tactic": ("defence", "attack")[action]}, legal=False)
    dice = lambda t: t.loc[t["kind"] == "die", ["value", "sides"]].to_numpy().tolist()  # noqa: E731
    assert dice(searched) == dice(fixed) and searched.outcome == fixed.outcome
