"""The Kings of Rome campaign's Roman armies besides the royal one: the offices' (4.2, 9.2.7.1, table 5.1), Titus
Tatius' and the Diarchy (9.1.8.1-9.1.8.2), and the choice of the army at DP-K01."""
from fractions import Fraction as F

import numpy as np
import pytest

import romesim
from romesim.core.policy import resolve
from romesim.kings_of_rome import campaign as C
from test_kor_campaign import PLAIN, POLICIES, SEED, advance, answer, five_sigma, set_up, stream_of, units_at


def office(tok, code):
    return int(np.flatnonzero((tok[:, C.TK_KIND] == C.OFFICE) & (tok[:, C.TK_CODE] == code))[0])


def tatius_token(tok):
    return int(np.flatnonzero((tok[:, C.TK_KIND] == C.LEADER) & (tok[:, C.TK_CODE] == C.LD_TATIUS))[0])


def drawn_from_r(args, scratch, row, t, seed):
    """Office ``t`` drawn from the R container (the token table of 5.2): its army's slot."""
    cp, city, cost, tok, per, war = args[:6]
    ts, g, cs, ws = scratch[:4]
    C.apply_token(stream_of(SEED, seed), cp, city, cost, tok, war, ts, g, cs, ws, *PLAIN, row, t, C.L_R)
    a = C.army_of(g, t)
    assert a > 0 and ts[t, C.TS_LOC] == C.L_ROME and g[C.G_ARMY_AT + a] == cp[C.CP_ROME]
    return a


def to_reserve(tok, ts, kind, n):
    """``n`` base units of ``kind`` from the general reserve into the Rome reserve."""
    units = [t for t in units_at(tok, ts, C.L_RESERVE) if tok[t, C.TK_KIND] == kind][:n]
    assert len(units) == n
    for t in units:
        C.put(ts, t, C.L_ROME, 0, C.FACE_ROMAN)


def switch(n, a):
    """DP-K01's action: the next action with army ``a``."""
    return 1 + n + C.N_OPS + a


@pytest.mark.parametrize("code, caps", [(C.OF_MAGISTER_POPULI, (4, 2)), (C.OF_MAGISTER_EQUITUM, (0, 6)),
                                        (C.OF_TRIBUNUS_POPULI, (4, 0)), (C.OF_TRIBUNUS_CELERUM, (0, 4))])
def test_an_office_drawn_from_r_raises_its_army_from_the_rome_reserve(code, caps):
    """4.2: « dans le cas de tirage d'un Magister, celui-ci obtient une armée en prenant un certain nombre d'unités
    de combat, présentes dans la Réserve de la Cité de Rome et respectant les limites de sa fonction (voir tableau
    suivant en 5.1) » (a Magister drawn gets an army by taking combat units from the Rome reserve within his
    office's limits, table 5.1); 9.2.7.1 the same for the Tribunes; « Le Magister Equitum et le Tribunus Celerum ne
    peuvent commander que la cavalerie » (they command cavalry only). Table 5.1: Magister Populi 4 infantry and 2
    cavalry, Magister Equitum 0 and 6, Tribunus Populi 4 and 0, Tribunus Celerum 0 and 4. The office's army is
    chosen at DP-K01 (no action spent) and formed in Rome by DP-K02: the default takes the strongest units while it
    has room for their kind."""
    args, scratch, row = set_up(121, 4, 2)
    cp, tok = args[0], args[3]
    ts, g, dstate = scratch[0], scratch[1], scratch[4]
    game_arrays = (*args, *scratch, row)
    n = cp[C.CP_CITIES]
    to_reserve(tok, ts, C.INF, 6)
    to_reserve(tok, ts, C.CAV, 7)
    a = drawn_from_r(args, scratch, row, office(tok, code), 122)
    assert tuple(C.command_caps(tok, g, a)) == caps
    g[C.G_STAGE], g[C.G_ACTIONS] = C.ST_ACTIONS, 3
    stream = stream_of(SEED, 123)
    point = advance(stream, *game_arrays)
    while point == C.P_ARMY:  # the royal army first
        answer(stream, point, game_arrays)
        point = advance(stream, *game_arrays)
    assert point == C.P_ACTION and dstate[C.K_ACTING] == 0 and dstate[C.K_SWITCH] == 1
    assert dstate[C.ka(a, C.KA_MAY)] == 1 and dstate[C.ka(a, C.KA_LEADER)] == C.LEAD_MAGISTER_POPULI + code
    assert not C.campaign_legal(C.P_ACTION, switch(n, 0), *game_arrays)  # the acting army is no choice
    C.campaign_apply(C.P_ACTION, switch(n, a), *game_arrays)
    assert advance(stream, *game_arrays) == C.P_ARMY
    assert dstate[C.K_ACTING] == a and (dstate[C.K_CAP_INF], dstate[C.K_CAP_CAV]) == caps
    reserve = units_at(tok, ts, C.L_ROME)
    inf = sum(tok[reserve, C.TK_KIND] == C.INF)
    cav = sum(tok[reserve, C.TK_KIND] == C.CAV)
    point = C.P_ARMY
    while point == C.P_ARMY:
        answer(stream, point, game_arrays)
        point = advance(stream, *game_arrays)
    assert point == C.P_ACTION and g[C.G_ACTIONS] == 3  # choosing the army spent no action
    army = units_at(tok, ts, C.L_ARMY, at=a)
    assert sum(tok[army, C.TK_KIND] == C.INF) == min(caps[0], inf)
    assert sum(tok[army, C.TK_KIND] == C.CAV) == min(caps[1], cav)
    assert dstate[C.K_SWITCH] == 0  # one choice of army an action
    assert not C.campaign_legal(C.P_ACTION, switch(n, 0), *game_arrays)


def test_one_army_keeps_rome_while_a_magister_is_in_play():
    """4.2: « La présence d'un ou de plusieurs Magistri sur la carte oblige une armée à rester à Rome pour défendre
    la Cité. Si le Roi reste à Rome, le(s) Magister(s) peut(vent) se déplacer en dehors de la Cité » (with Magistri
    in play an army must stay in Rome; if the King stays in Rome, the Magistri may leave); « une armée de
    Tribuniciens n'est pas obligée de rester à Rome » (a Tribunes' army need not stay); 9.2.7.1 « Le Magister
    Equitum ou le Magister Populi doit rester à Rome si le Roi se trouve hors de Rome ». The army that keeps Rome
    cannot move (movement_half_points 0) and 7.1 does not push it out."""
    args, scratch, row = set_up(131, 4, 2)
    cp, city, cost, tok, per = args[:5]
    ts, g, cs, ws, dstate = scratch[:5]
    rome = cp[C.CP_ROME]
    cmap, _ = romesim.scenario("kings_of_rome.campaign").data()
    away = next(c for c in range(cp[C.CP_CITIES]) if c != rome and cost[0, rome, c] > 0 and not cmap.entry[c])

    def may_move(a):
        g[C.G_ACTING] = a
        C.post_action(city, cost, tok, ts, cs, ws, g, cp, per, dstate)
        return dstate[C.K_MP] > 0

    assert may_move(0)  # no Magister yet
    magister = drawn_from_r(args, scratch, row, office(tok, C.OF_MAGISTER_POPULI), 132)
    tribune = drawn_from_r(args, scratch, row, office(tok, C.OF_TRIBUNUS_POPULI), 133)
    assert may_move(0) and may_move(magister) and may_move(tribune)  # the other keeps Rome
    g[C.G_ARMY_AT] = away                      # the King out of Rome: the Magister stays
    assert not may_move(magister) and may_move(tribune)
    g[C.G_ARMY_AT], g[C.G_ARMY_AT + magister] = rome, away  # the Magister out: the King stays
    assert not may_move(0) and may_move(magister) and may_move(tribune)
    # 7.1: NR units next to Rome move the free armies, not the one keeping Rome (no place is one hex from Rome on
    # the abstract map: the nearest one made adjacent, as a designer's map may have it)
    next_to_rome = min((c for c in range(cp[C.CP_CITIES]) if c != rome and cost[0, rome, c] > 0),
                       key=lambda c: cost[0, rome, c])
    city = city.copy()
    city[rome, C.CT_ADJACENT] |= 1 << next_to_rome
    city[next_to_rome, C.CT_ADJACENT] |= 1 << rome
    nr = units_at(tok, ts, C.L_RESERVE)[0]
    C.put(ts, nr, C.L_CITY, next_to_rome, C.FACE_NR)
    g[C.G_ARMY_AT + magister] = rome
    g[C.G_ARMY_AT] = away
    nr = C.nr_places(tok, ts, ws)
    assert not C.map_conflicts(city, cost, cp, tok, ts, ws, g, dstate, magister, nr)
    assert g[C.G_ARMY_AT + magister] == rome
    moved = C.map_conflicts(city, cost, cp, tok, ts, ws, g, dstate, tribune, nr) or g[C.G_ARMY_AT + tribune] != rome
    assert moved  # asked (two or more places) or moved already


@pytest.mark.parametrize("garrison", [1, 2])
def test_a_tribunes_first_siege_ends_his_office_with_the_sieges_exact_odds(garrison):
    """9.2.7.1: « Les Tribuns restent en fonction jusqu'au premier siège ou à la première bataille [...] Après la
    bataille ou le siège, un Tribun victorieux gagne 1 PI pour le Roi et retourne dans le récipient R. Un Tribun
    vaincu perd 1 PI et est replacé dans le récipient NR » (Tribunes stay in office until their first siege or
    battle; after it a victorious Tribune wins 1 IP for the King and goes back into R, a beaten one loses 1 IP and
    goes into NR). A Tribunus Populi's army of 4 infantry besieges a city with an NR garrison and no one else: the
    office goes back into R as often as the siege scenario commanded by a Tribune wins, exactly, and the IP change
    averages that scenario's exact IP (his +1 / -1, the King-led rewards withheld, the ignominy trial after a
    failure, 5.7.11); the army's units go to the Rome reserve either way (7.1: an office that ceases, its army to
    the Rome reserve)."""
    args, scratch, row = set_up(141, 4, 2)
    cp, city, cost, tok, per, war, pv0, stab = args
    ts0, g0, cs0, ws0 = (a.copy() for a in scratch[:4])
    c = next(c for c in range(cp[C.CP_CITIES]) if city[c, C.CT_PEOPLE] == C.LATINS and not city[c, C.CT_ENTRY])
    for t in np.flatnonzero((ts0[:, C.TS_LOC] == C.L_CITY) & (ts0[:, C.TS_AT] == c)):
        C.put(ts0, t, C.L_RESERVE, 0, C.FACE_ROMAN)
    g_tok = next(t for t in range(len(tok)) if tok[t, C.TK_KIND] == C.GARRISON and ts0[t, C.TS_LOC] == C.L_RESERVE
                 and tok[t, C.TK_VIRTUS] == garrison)
    C.put(ts0, g_tok, C.L_CITY, c, C.FACE_NR)
    scratch0 = (ts0, g0, cs0, ws0, *scratch[4:])
    t = office(tok, C.OF_TRIBUNUS_POPULI)
    a = drawn_from_r(args, scratch0, row, t, 142)
    for u in [u for u in units_at(tok, ts0, C.L_RESERVE) if tok[u, C.TK_KIND] == C.INF][:4]:
        C.put(ts0, u, C.L_ARMY, a, C.FACE_ROMAN)
    army = units_at(tok, ts0, C.L_ARMY, at=a)
    g0[C.G_ARMY_AT + a], g0[C.G_ACTING] = c, a
    n, back, ip = 2000, 0, []
    for game in range(n):
        ts, g, cs, ws = ts0.copy(), g0.copy(), cs0.copy(), ws0.copy()
        metrics = np.zeros(C.N_METRICS, np.int64)
        err = C.army_siege(stream_of(SEED, 1000 + game), city, cp, tok, ts, cs, ws, g, war, pv0, stab,
                           POLICIES.codes, POLICIES.params, None, *scratch[5:], metrics, c)
        assert err == 0
        assert metrics[C.M_TRIBUNES_WON] == (ts[t, C.TS_LOC] == C.L_R) and \
            metrics[C.M_TRIBUNES_WON] + metrics[C.M_TRIBUNES_BEATEN] == 1
        assert ts[t, C.TS_LOC] in (C.L_R, C.L_NR) and C.army_of(g, t) < 0 and g[C.G_ACTING] == 0
        assert all(ts[u, C.TS_LOC] in (C.L_ROME, C.L_RESERVE) for u in army)
        back += ts[t, C.TS_LOC] == C.L_R
        ip.append(g[C.G_IP] - g0[C.G_IP])
    exact = romesim.exact(romesim.scenario("kings_of_rome.siege", garrison=garrison, commander="tribune")).exact_values
    p = float(exact["p_win"])
    assert abs(back / n - p) < five_sigma(p, n)
    ip = np.array(ip, float)
    assert abs(ip.mean() - float(exact["ip"])) < 5 * ip.std() / np.sqrt(n) + 1e-9


def test_tatius_commands_his_sabines_until_the_diarchy_and_leaves_with_romulus():
    """9.1.8.1: « Titus Tatius, qui entre à Rome avec deux unités d'infanterie et une unité de cavalerie sabine [...]
    Titus Tatius ne peut commander que des troupes sabines et ne peut le faire que jusqu'au dernier tour de Romulus,
    après quoi il est retiré du jeu » (Tatius enters Rome with 2 infantry and 1 Sabine cavalry, may command Sabine
    troops only, until Romulus' last turn, then leaves play). 9.1.8.2 (DP-K04): « Le joueur peut dépenser 3 PI et
    élire Tatius, s'il est à Rome, comme Rex Vicarius, en lui assignant des troupes R (il a la même capacité de
    commandement que Romulus). Dans ce cas, les troupes sabines qui sont entrées dans Rome sont replacées dans le
    récipient NR » (3 IP, Tatius, in Rome, Rex Vicarius with Roman troops, commanding as Romulus; his Sabines go
    into the NR container). The Diarchy spends no action (spec 5.3's proposal)."""
    for elect in (False, True):
        args, scratch, row = set_up(151, 2, 1)
        cp, city, cost, tok, per, war = args[:6]
        ts, g, cs, ws, dstate = scratch[:5]
        game_arrays = (*args, *scratch, row)
        n = cp[C.CP_CITIES]
        C.tatius(stream_of(SEED, 152), cp, tok, ts, g)
        t = tatius_token(tok)
        a = C.army_of(g, t)
        sabines = units_at(tok, ts, C.L_ARMY, at=a)
        assert a > 0 and sorted(tok[sabines, C.TK_KIND]) == [C.INF, C.INF, C.CAV]
        assert (tok[sabines, C.TK_PEOPLE] == C.SABINES).all() and C.leader_kind(tok, g, a) == C.LEAD_TATIUS
        g[C.G_STAGE], g[C.G_ACTIONS], g[C.G_ACTING] = C.ST_ACTIONS, 2, a
        assert not C.army_to_form(city, cost, tok, ts, cs, ws, g, cp, per, dstate)  # his Sabines only: no DP-K02
        g[C.G_ACTING], g[C.G_FORMING] = 0, C.NOT_FORMED
        stream = stream_of(SEED, 153)
        while (point := advance(stream, *game_arrays)) == C.P_ARMY:
            answer(stream, point, game_arrays)
        assert point == C.P_ACTION and dstate[C.K_DIARCHY] == 1 and dstate[C.ka(a, C.KA_MAY)] == 1
        ip = g[C.G_IP]
        if elect:
            C.campaign_apply(C.P_ACTION, switch(n, C.MAX_ARMIES), *game_arrays)
            point = advance(stream, *game_arrays)
            assert g[C.G_IP] == ip - 3 and g[C.G_ACTIONS] == 2 and C.leader_kind(tok, g, a) == C.LEAD_VICARIUS
            assert row[C.M_DIARCHY] == 1
            assert all(ts[u, C.TS_LOC] == C.L_NR and ts[u, C.TS_FACE] == C.FACE_NR for u in sabines)
            assert tuple(C.command_caps(tok, g, a)) == (C.ARMY_INF, C.ARMY_CAV) and dstate[C.K_DIARCHY] == 0
            # Rex Vicarius: Roman troops from the Rome reserve (DP-K02) as Romulus
            g[C.G_ACTING], g[C.G_FORMING] = a, C.NOT_FORMED
            assert C.army_to_form(city, cost, tok, ts, cs, ws, g, cp, per, dstate)
            assert dstate[C.K_CAP_INF] == C.ARMY_INF and dstate[C.K_CAP_CAV] == C.ARMY_CAV
        g[C.G_TURN] = per[1, C.PR_LAST]
        C.period_end(stream, city, cp, tok, per, war, ts, cs, ws, g, row)
        assert ts[t, C.TS_LOC] == C.L_OUT and C.army_of(g, t) < 0 and g[C.G_VICARIUS] == 0
        if not elect:  # his troops stay, in the Rome reserve (no longer his)
            assert all(ts[u, C.TS_LOC] == C.L_ROME for u in sabines)


def test_tatius_sabines_come_from_the_containers_when_the_general_reserve_has_none():
    """9.1.8.1: his 2 infantry and 1 Sabine cavalry are « prises dans la réserve générale ou dans les réserves, selon
    ce qui vient en premier » (taken from the general reserve or the containers, whichever comes first). With no
    Sabine cavalry left in the general reserve, his cavalry comes from the R or NR container (before, he came
    without it); with none anywhere, without it. Never an invasion army's counter."""
    for where in (C.L_R, C.L_NR, None):
        args, scratch, row = set_up(155, 2, 1)
        cp, city, cost, tok, per, war = args[:6]
        ts, g = scratch[:2]
        cav = np.flatnonzero((tok[:, C.TK_PEOPLE] == C.SABINES) & (tok[:, C.TK_KIND] == C.CAV) &
                             (tok[:, C.TK_CODE] == 0))
        for t in cav:
            if ts[t, C.TS_LOC] in (C.L_RESERVE, C.L_R, C.L_NR):
                C.put(ts, t, C.L_OUT, 0, C.FACE_ROMAN)
        if where is not None:
            C.put(ts, cav[0], where, 0, C.FACE_NR if where == C.L_NR else C.FACE_ROMAN)
        C.tatius(stream_of(SEED, 156), cp, tok, ts, g)
        a = C.army_of(g, tatius_token(tok))
        kinds = sorted(tok[units_at(tok, ts, C.L_ARMY, at=a), C.TK_KIND])
        assert kinds == ([C.INF, C.INF, C.CAV] if where is not None else [C.INF, C.INF])
        assert (ts[cav[0], C.TS_LOC] == C.L_ARMY) == (where is not None)


def test_a_tribune_never_engaged_goes_back_into_r_at_the_reigns_end():
    """9.2.7.1: « S'il est enlevé lors de la phase de fin de règne (parce qu'il n'a jamais participé à une guerre),
    un tribun retourne automatiquement dans le conteneur R, sans gain ni perte de PI » (removed at the reign's end,
    never engaged, a Tribune goes back into R, no IP won or lost); KOR-A55 end_of_period: every office ceases at
    the period's end, its army to the Rome reserve (7.1)."""
    args, scratch, row = set_up(161, 7, 2)
    cp, city, cost, tok, per, war = args[:6]
    ts, g, cs, ws = scratch[:4]
    t = office(tok, C.OF_TRIBUNUS_CELERUM)
    a = drawn_from_r(args, scratch, row, t, 162)
    cav = [u for u in units_at(tok, ts, C.L_RESERVE) if tok[u, C.TK_KIND] == C.CAV][:2]
    for u in cav:
        C.put(ts, u, C.L_ARMY, a, C.FACE_ROMAN)
    ip = g[C.G_IP]
    C.period_end(stream_of(SEED, 163), city, cp, tok, per, war, ts, cs, ws, g, row)
    assert ts[t, C.TS_LOC] == C.L_R and C.army_of(g, t) < 0 and g[C.G_IP] == ip
    assert all(ts[u, C.TS_LOC] == C.L_ROME for u in cav)


def intimidation_position(seed, army, city_units, **options):
    """The royal army (slot 0) of ``army`` (kind, Virtus) pairs next to a Latin city holding NR units
    ``city_units`` (kind, Virtus) and nothing else: (args, scratch, city, the army's and the city's counters)."""
    args, scratch, row = set_up(seed, **options)
    cp, city, cost, tok = args[:4]
    ts = scratch[0]
    c = next(c for c in range(cp[C.CP_CITIES]) if city[c, C.CT_PEOPLE] == C.LATINS and not city[c, C.CT_ENTRY])
    for t in np.flatnonzero(((ts[:, C.TS_LOC] == C.L_CITY) & (ts[:, C.TS_AT] == c)) | (ts[:, C.TS_LOC] == C.L_ARMY)):
        C.put(ts, t, C.L_RESERVE, 0, C.FACE_ROMAN)
    taken = set()

    def counter(kind, virtus):
        t = next(t for t in range(len(tok)) if tok[t, C.TK_KIND] == kind and tok[t, C.TK_VIRTUS] == virtus and
                 tok[t, C.TK_CODE] == 0 and t not in taken and ts[t, C.TS_LOC] in (C.L_RESERVE, C.L_R, C.L_NR))
        taken.add(t)
        return t

    ours = [counter(*u) for u in army]
    theirs = [counter(*u) for u in city_units]
    for t in ours:
        C.put(ts, t, C.L_ARMY, 0, C.FACE_ROMAN)
    for t in theirs:
        C.put(ts, t, C.L_CITY, c, C.FACE_NR)
    return args, scratch, c, ours, theirs


def intimidate(args, scratch0, c, policies, n):
    """KoR 5.3 by the royal army on ``c``, ``n`` times on fresh copies: the final ``ts`` of each."""
    cp, city, cost, tok, per, war, pv0, stab = args
    resolved = resolve(C.CAMPAIGN_POINTS + C.PROCEDURE_POINTS, policies)
    finals = []
    for game in range(n):
        ts, g, cs = (a.copy() for a in scratch0[:3])
        metrics = np.zeros(C.N_METRICS, np.int64)
        err = C.roman_intimidation(stream_of(SEED, 3000 + game), city, cost, cp, tok, ts, cs, g, pv0, resolved.codes,
                                   resolved.params, None, scratch0[5], scratch0[6], scratch0[13], metrics, c)
        assert err == 0 and metrics[C.M_INTIMIDATIONS] == 1
        finals.append(ts)
    return finals


@pytest.mark.parametrize("released, target, kind_out, virtus_in, p", [
    ("infantry", "weakest", C.INF, 1, F(5, 6)),
    ("cavalry", "strongest", C.CAV, 3, F(1, 2)),
])
def test_intimidation_in_the_campaign_releases_and_turns_the_units_its_decisions_name(released, target, kind_out,
                                                                                      virtus_in, p):
    """KoR 5.3 inside the campaign (DP-I01, DP-I02). « En signe de Fides, une unité Romaine, faisant partie du groupe
    envoyé, est tournée sur son côté NR » (as a sign of Fides a Roman unit of the group is turned to its NR side):
    DP-I01 names its kind, and the army's weakest of that kind goes, not its weakest unit (here a cavalry unit of
    Virtus 2 against infantry of 3 and 4). The die is rolled « contre une unité ennemie de son choix » (against an
    enemy unit of his choice), DP-I02's: that unit, and no other, turns Roman and joins the army, as often as
    d6 > its Virtus (V1: 5/6; V3: 1/2), within 5 sigma of 600 tries."""
    army = [(C.INF, 3), (C.INF, 4), (C.CAV, 2), (C.CAV, 3)]
    args, scratch, c, ours, theirs = intimidation_position(301, army, [(C.INF, 1), (C.INF, 3)])
    n = 600
    finals = intimidate(args, scratch, c, {"intimidation.released": released, "intimidation.target": target}, n)
    tok = args[3]
    out = ours[0] if kind_out == C.INF else ours[2]
    turned = theirs[0] if virtus_in == 1 else theirs[1]
    other = theirs[1] if virtus_in == 1 else theirs[0]
    wins = 0
    for ts in finals:
        assert ts[out, C.TS_FACE] == C.FACE_NR and ts[out, C.TS_LOC] != C.L_ARMY
        assert all(ts[t, C.TS_LOC] == C.L_ARMY for t in ours if t != out)
        assert ts[other, C.TS_LOC] == C.L_CITY and ts[other, C.TS_FACE] == C.FACE_NR
        won = ts[turned, C.TS_LOC] == C.L_ARMY
        assert won or (ts[turned, C.TS_LOC] == C.L_CITY and ts[turned, C.TS_FACE] == C.FACE_NR)
        assert not won or (ts[turned, C.TS_AT] == 0 and ts[turned, C.TS_FACE] == C.FACE_ROMAN)
        wins += won
    assert tok[out, C.TK_KIND] == kind_out and tok[turned, C.TK_VIRTUS] == virtus_in
    assert abs(wins / n - p) <= five_sigma(float(p), n)


@pytest.mark.parametrize("over_capacity, joins", [("joins_anyway", True), ("not_allowed", False)])
def test_a_unit_turned_past_the_armys_caps_follows_kor_a3(over_capacity, joins):
    """KOR-A3 ``intimidation_over_capacity``: Romulus' army at its caps of table 5.1 (4 infantry, 2 cavalry)
    releases an infantry unit and turns a cavalry unit (V2, so d6 > 2). ``joins_anyway`` (default: the caps
    limit who fights, DP-B02): a third cavalry unit joins; ``not_allowed``: it goes into the R container."""
    army = [(C.INF, 3), (C.INF, 3), (C.INF, 4), (C.INF, 4), (C.CAV, 2), (C.CAV, 3)]
    args, scratch, c, ours, theirs = intimidation_position(302, army, [(C.CAV, 2)],
                                                           intimidation_over_capacity=over_capacity)
    finals = intimidate(args, scratch, c, {}, 60)
    where = [ts[theirs[0], C.TS_LOC] for ts in finals]
    won = [loc for loc in where if loc != C.L_CITY]
    assert 0 < len(won) < len(finals)
    if joins:
        assert all(loc == C.L_ARMY for loc in won)
    else:  # into R (the adjustment's random token R -> NR may then draw it)
        assert all(loc in (C.L_R, C.L_NR) for loc in won) and C.L_R in won
