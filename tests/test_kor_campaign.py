"""The Kings of Rome solo campaign (KoR 3.4-9.7, spec section 5): ``kings_of_rome.campaign``.

Exact numbers where the rules give them (the first turn's draws, 4.0 and 3.6), the set-up of 5.1 counted counter by
counter, the end of turn of 7.4-7.5 worked out by hand on a constructed position, invariants after every decision of
random play, and the usual reproducibility of a run.
"""
import numpy as np
import pytest

import romesim
from romesim.core import rng
from romesim.core.policy import resolve
from romesim.kings_of_rome import campaign as C
from romesim.kings_of_rome import campaign_data

SEED = 20261203


def five_sigma(p, n):
    return 5 * np.sqrt(p * (1 - p) / n)


def arrays(scenario=None):
    scenario = scenario or romesim.scenario("kings_of_rome.campaign")
    args = scenario.kernel_args()
    scratch = C.campaign_scratch(args)
    row = np.zeros(C.N_METRICS, np.int64)
    return args, scratch, row


def stream_of(seed, game):
    stream = rng.new_stream()
    rng.start(stream, np.uint64(seed), game)
    return stream


def test_setup_places_every_counter_as_5_1_says():
    """KoR 5.1 (3.4-3.6): Romulus' army of 4 infantry and 1 cavalry, 3 infantry in the Rome reserve, Rome's own
    garrison of 3, IP 5 and VP 1, one NR garrison of the listed value in each of the 28 cities of 3.5 (kor_garrisons:
    Falerii once, KOR-A48), and 36 tokens (29 units, Rape of the Sabines, Aequi War, Mamilius, Aegerius, Publius
    Valerius, Arunth, Spurinna) shared 18 and 18 between the containers."""
    args, scratch, row = arrays()
    cp, city, cost, tok = args[:4]
    ts, g, cs = scratch[:3]
    cmap, counters = romesim.scenario("kings_of_rome.campaign").data()
    C.campaign_setup(stream_of(SEED, 0), cp, city, tok, args[4], ts, g, cs, scratch[3], row)
    loc, at, face = ts[:, C.TS_LOC], ts[:, C.TS_AT], ts[:, C.TS_FACE]
    kind = tok[:, C.TK_KIND]
    army = loc == C.L_ARMY
    assert (kind[army] == C.INF).sum() == 4 and (kind[army] == C.CAV).sum() == 1 and army.sum() == 5
    rome_reserve = (loc == C.L_ROME) & ((kind == C.INF) | (kind == C.CAV))
    assert (kind[rome_reserve] == C.INF).sum() == 3 and rome_reserve.sum() == 3
    assert g[C.G_IP] == 5 and g[C.G_VP] == 1 and g[C.G_TURN] == 1 and g[C.G_PERIOD] == 1
    rome = cmap.index("Rome")
    in_rome = (loc == C.L_CITY) & (at == rome)
    assert in_rome.sum() == 1 and tok[in_rome, C.TK_VIRTUS][0] == 3 and face[in_rome][0] == C.FACE_ROMAN
    # 3.5: the garrisons, city by city
    listed = {name: v for name, v in zip(cmap.cities, cmap.initial_garrison) if v > 0 and name != "Rome"}
    assert len(listed) == 28
    for name, value in listed.items():
        here = (loc == C.L_CITY) & (at == cmap.index(name)) & (kind == C.GARRISON)
        assert here.sum() == 1, name
        assert tok[here, C.TK_VIRTUS][0] == value and face[here][0] == C.FACE_NR, name
        assert tok[here, C.TK_PEOPLE][0] == cmap.people[cmap.index(name)], name
    # 3.6: the containers
    r, nr = loc == C.L_R, loc == C.L_NR
    assert r.sum() == 18 and nr.sum() == 18
    both = r | nr
    assert ((kind[both] == C.INF) | (kind[both] == C.CAV)).sum() == 29
    named = sorted(counters.names[t] for t in np.flatnonzero(both) if kind[t] in (C.LEADER, C.EVENT))
    assert named == sorted(["Rape of the Sabines", "Aequi War", "Mamilius", "Aegerius", "Publius Valerius",
                            "Arunth", "Spurinna"])
    # every container token shows the container's face
    assert (face[r] == C.FACE_ROMAN).all() and (face[nr] == C.FACE_NR).all()


def test_first_turn_draws_match_the_containers_odds():
    """4.0 and 3.6: the Rape of the Sabines lies in R with probability 1/2 (18 of 36 tokens), and R's first two
    draws take it with probability 2/18, so it is drawn from R in turn 1 with probability 1/18; the Aequi War token
    from NR likewise (NR's two draws of turn 1). With ``turns=1`` and the passive bot nothing else draws a token
    before the end of turn (no action, no hostile reaction; the 7.6 swap comes after)."""
    scenario = romesim.scenario("kings_of_rome.campaign", turns=1)
    n = 20_000
    result = romesim.simulate(scenario, n, seed=SEED, policies={"action": "passive"})
    p = 1 / 18
    for metric in ("r_sabines", "nr_aequi_war", "nr_sabines", "r_aequi_war"):
        assert abs(result[metric] - p) < five_sigma(p, n), metric
    # the Aequi army formed from NR is an invasion; turn 1 ends the campaign below 20 VP: a defeat (KOR-A62)
    assert abs(result["invasions"] - result["nr_aequi_war"]) < 1e-12
    assert result["p_end_turn_24_loss"] == 1.0 and result["p_win"] == 0.0


def test_end_of_turn_scores_missions_and_prestige_as_7_4_and_7_5():
    """7.4-7.5 worked by hand on a constructed last turn of the Romulus period (mission: 4 cities). Nine cities
    romanized this period and still Roman: +5 VP for the excess over 4 (7.4) and, 9 > 2 x 4, the King's triumph +3
    VP (7.5, KOR-A53 gt_double, once a period); one romanized city retaken by an NR army this turn -2 VP and one
    other city taken by an NR army -1 VP (7.5). VP 10 -> 10 + 5 + 3 - 2 - 1 = 15; the mission is met."""
    args, scratch, row = arrays()
    cp, city, cost, tok, per, war = args[:6]
    ts, g, cs, ws = scratch[:4]
    C.campaign_setup(stream_of(SEED, 1), cp, city, tok, per, ts, g, cs, ws, row)
    g[C.G_TURN], g[C.G_PERIOD], g[C.G_VP], g[C.G_IP] = 3, 1, 10, 5
    places = [c for c in range(cp[C.CP_CITIES]) if c != cp[C.CP_ROME] and not city[c, C.CT_ENTRY]]
    for c in places[:9]:
        cs[c, C.CS_ROMAN], cs[c, C.CS_ROMANIZED_IN] = 1, 1
    cs[places[9], C.CS_CAPTURED] = 2
    cs[places[10], C.CS_CAPTURED] = 1
    C.end_of_turn(stream_of(SEED, 2), city, cost, cp, tok, per, war, ts, cs, ws, g, row)
    assert g[C.G_VP] == 15
    assert row[C.M_MISSION_1] == 1 and row[C.M_MISSIONS_MET] == 1
    assert (cs[:, C.CS_CAPTURED] == 0).all()


def test_mission_failure_costs_units_and_tokens():
    """7.4 failure in the Romulus period (9.1.6; KOR-A54 count_equals_king_virtus): Romulus (Virtus 3 in the
    default counters) loses 3 military units, the weakest of his army first, to the general reserve, and 3 tokens
    go from R to NR."""
    args, scratch, row = arrays()
    cp, city, cost, tok, per, war = args[:6]
    ts, g, cs, ws = scratch[:4]
    C.campaign_setup(stream_of(SEED, 3), cp, city, tok, per, ts, g, cs, ws, row)
    g[C.G_TURN] = 3
    virtus = tok[g[C.G_COMMANDER], C.TK_VIRTUS]
    army = np.flatnonzero(ts[:, C.TS_LOC] == C.L_ARMY)
    weakest = sorted(tok[army, C.TK_VIRTUS])[:virtus]
    r_before, nr_before = (ts[:, C.TS_LOC] == C.L_R).sum(), (ts[:, C.TS_LOC] == C.L_NR).sum()
    C.end_of_turn(stream_of(SEED, 4), city, cost, cp, tok, per, war, ts, cs, ws, g, row)
    left = np.flatnonzero(ts[:, C.TS_LOC] == C.L_ARMY)
    assert len(left) == len(army) - virtus
    assert sorted(tok[army, C.TK_VIRTUS])[virtus:] == sorted(tok[left, C.TK_VIRTUS])
    assert row[C.M_MISSION_1] == 0
    # 3 tokens R -> NR (9.1.6), then no 7.6 swap on a period's last turn (it follows the next period's tokens)
    assert (ts[:, C.TS_LOC] == C.L_R).sum() == r_before - 3
    assert (ts[:, C.TS_LOC] == C.L_NR).sum() == nr_before + 3
    assert len(weakest) == virtus


def check_position(tok, ts, cs, ws, g, cp):
    """What must hold at every decision: counters in one known place each, faces matching places, no city both
    Roman and holding an NR garrison, invasion armies only in live slots, IP above 0 while the campaign goes on."""
    loc = ts[:, C.TS_LOC]
    assert ((loc >= C.L_OUT) & (loc <= C.L_ASIDE)).all()
    assert not (loc == C.L_PREP).any()
    assert (ts[loc == C.L_R, C.TS_FACE] == C.FACE_ROMAN).all()
    assert (ts[loc == C.L_NR, C.TS_FACE] == C.FACE_NR).all()
    for c in range(cp[C.CP_CITIES]):
        nr_garrison = ((loc == C.L_CITY) & (ts[:, C.TS_AT] == c) & (ts[:, C.TS_FACE] == C.FACE_NR)
                       & (tok[:, C.TK_KIND] == C.GARRISON)).any()
        assert not (cs[c, C.CS_ROMAN] and nr_garrison), c
    for t in np.flatnonzero(loc == C.L_WAR):
        assert ws[ts[t, C.TS_AT], C.WS_WAR] >= 0
    assert (ws[ws[:, C.WS_WAR] < 0, C.WS_LEADER] == -1).all()
    assert g[C.G_IP] > 0 and 1 <= g[C.G_TURN] <= 24
    assert count(loc) == tok.shape[0]


def count(loc):
    return sum((loc == k).sum() for k in range(C.L_ASIDE + 1))


@pytest.mark.parametrize("game", range(6))
def test_random_play_keeps_every_invariant(game):
    """Random legal play (the ``random`` built-in) through whole campaigns: the position is sound at every DP-K01
    decision, and the campaign ends by a rule of 8.0 by turn 24 with exactly one way of ending."""
    scenario = romesim.scenario("kings_of_rome.campaign")
    args, scratch, row = arrays(scenario)
    resolved = resolve(scenario.decision_points, {"action": "random"})
    game_arrays = (*args, *scratch, row)
    cp, tok = args[0], args[3]
    ts, g, cs, ws, dstate = scratch[:5]
    stream = stream_of(SEED, game)
    C.campaign_init(stream, *game_arrays)
    decisions = 0
    while True:
        point = C.campaign_advance(stream, *game_arrays)
        if point == C.END:
            break
        check_position(tok, ts, cs, ws, g, cp)
        action = C.campaign_decide(0, point, resolved.codes, resolved.params, None, stream, *game_arrays)
        assert C.campaign_legal(point, action, *game_arrays)
        C.campaign_apply(point, action, *game_arrays)
        decisions += 1
    assert g[C.G_ERROR] == 0
    ends = row[C.M_END:C.M_END + C.N_ENDS - 1]
    assert ends.sum() == 1 and row[C.M_WIN] == (ends[:3].sum() == 1)
    assert 1 <= row[C.M_TURN] <= 24 and decisions > 0


def test_same_games_whatever_the_threads_and_chunks():
    """Reproducible: a run of 300 campaigns in chunks of 64 equals the whole run, and its first 100 games equal a
    run of 100."""
    scenario = romesim.scenario("kings_of_rome.campaign")
    whole = romesim.simulate(scenario, 300, seed=SEED, keep=True)
    chunked = romesim.simulate(scenario, 300, seed=SEED, keep=True, chunk=64)
    first = romesim.simulate(scenario, 100, seed=SEED, keep=True)
    assert whole.outcomes.equals(chunked.outcomes)
    assert whole.outcomes.iloc[:100].reset_index(drop=True).equals(first.outcomes)


def test_results_record_the_data_they_came_from():
    """Spec 5.8: the map and counters are assumptions; a result says which files it used."""
    scenario = romesim.scenario("kings_of_rome.campaign")
    assert scenario.data_source == {"map": "default", "counters": "default", "hex_km": 6}


def test_bad_files_are_named_in_the_error(tmp_path):
    """A designer's own counter file is validated with the file, row, field and what is allowed."""
    lines = (campaign_data.DEFAULT_FOLDER / "kor_counters.csv").read_text().splitlines()
    header, first, *rest = lines
    broken = tmp_path / "counters.csv"
    broken.write_text("\n".join([header, first.replace(",king,", ",knight,", 1), *rest]) + "\n")
    with pytest.raises(romesim.ScenarioError, match=r"counters.csv row 1, field kind: 'knight'"):
        romesim.scenario("kings_of_rome.campaign", counters=str(broken))
    with pytest.raises(romesim.ScenarioError, match="hex_km"):
        romesim.scenario("kings_of_rome.campaign", hex_km=0)


def test_samnite_army_follows_its_dice_and_caps():
    """KoR 9.4.7.3 (KOR-A57 rule_text): Meddix's army from Rufrium rolls infantry d6+2 and cavalry d6+1, keeps at
    most 4 infantry and 2 cavalry, and the rest stay in Rufrium, within the counter mix (6 infantry and 4 cavalry
    in the assumed set). So the army has 3 infantry only on a 1 (probability 1/6), always 2 cavalry; infantry left
    in Rufrium: 0, 0, 1, 2, 2, 2 for the six faces (mean 7/6); cavalry left: 0, 1, 2, 2, 2, 2 (mean 3/2)."""
    args, scratch, row = arrays()
    cp, city, cost, tok, per, war = args[:6]
    ts0, g0, cs0, ws0 = (a.copy() for a in scratch[:4])
    C.campaign_setup(stream_of(SEED, 5), cp, city, tok, per, ts0, g0, cs0, ws0, row)
    cmap, counters = romesim.scenario("kings_of_rome.campaign").data()
    rufrium = cmap.index("Rufrium")
    token = counters.index("Samnite War")
    samnite = tok[:, C.TK_CODE] == C.W_SAMNITE + 1
    n = 3000
    three, left_inf, left_cav = 0, 0, 0
    for game in range(n):
        ts, g, cs, ws = ts0.copy(), g0.copy(), cs0.copy(), ws0.copy()
        C.start_war(stream_of(SEED, 100 + game), city, cost, tok, war, ts, g, cs, ws, row, C.W_SAMNITE, token, 1)
        in_army = ts[:, C.TS_LOC] == C.L_WAR
        assert (tok[in_army & samnite, C.TK_KIND] == C.CAV).sum() == 2
        three += (tok[in_army & samnite, C.TK_KIND] == C.INF).sum() == 3
        stay = samnite & (ts[:, C.TS_LOC] == C.L_CITY) & (ts[:, C.TS_AT] == rufrium)
        left_inf += (tok[stay, C.TK_KIND] == C.INF).sum()
        left_cav += (tok[stay, C.TK_KIND] == C.CAV).sum()
    assert abs(three / n - 1 / 6) < five_sigma(1 / 6, n)
    assert abs(left_inf / n - 7 / 6) < 5 * np.sqrt((13 / 6 - (7 / 6) ** 2) / n)
    assert abs(left_cav / n - 3 / 2) < 5 * np.sqrt((17 / 6 - 9 / 4) / n)
