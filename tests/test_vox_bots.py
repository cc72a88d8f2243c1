"""Vox Populi built-in bots (policies.py): the default bot plays for its own interest.

Games are stepped decision by decision through the game's own state machine (the loop ``simulate`` runs), and
every play of the default bot is judged against the seat's favourite as the module docstring defines it,
recomputed here in plain Python from the seat's view: the living politician with the largest crown weight
``1 / (1 + gap**2)`` (the lover 0.5 lower) times ``(own + 1) / (own + strongest rival + seats)``, stakes as the
bot infers them (own stars; 2.6 per piece another seat slipped; half the gladiators waiting). A play counts
against the seat when it works against every favourite of a tie (the bot draws one of them). Card effects: spec 9
and the card CSV.
"""
import numpy as np
import pytest
from test_vox_board import blank_state, compiled

import romesim
from romesim.core import rng
from romesim.core.loop import END
from romesim.core.policy import resolve
from romesim.vox_populi import game
from romesim.vox_populi import state as S
from romesim.vox_populi.policies import CODE_DEFAULT, DEFAULT_VECTOR, builtin_policy, favourite
from romesim.vox_populi.procedures import open_decision

GAMES = 300
SEED = 11


def stake(view, seat, pol):
    me = view[S.VIEW_SEAT]
    if seat == me:
        base = sum((v + 1) * view[S.VIEW_BOX_STARS + pol * 5 + v] for v in range(5))
    else:
        base = 2.6 * view[S.SLIPPED + pol * S.MAX_SEATS + seat]
    return base + 0.5 * sum((v + 1) * view[S.GLAD + (pol * S.MAX_SEATS + seat) * 5 + v] for v in range(5))


def favourites(view):
    """Every politician tied for the seat's best crown weight x share (module docstring of policies.py)."""
    me, n, lover = view[S.VIEW_SEAT], view[S.N_SEATS], view[S.LOVER]
    alive = [k for k in range(6) if not view[S.DEAD + k]]
    pop = {k: view[S.POP + k] - (0.5 if k == lover else 0) for k in alive}
    best = max(pop.values())
    score = {}
    for k in alive:
        mine = stake(view, me, k)
        rival = max(stake(view, s, k) for s in range(n) if s != me)
        score[k] = 1 / (1 + (best - pop[k]) ** 2) * (mine + 1) / (mine + rival + n)
    top = max(score.values())
    return [k for k in alive if score[k] >= top - 1e-9]


def own_gladiators(view, pol):
    return sum(view[S.GLAD + (pol * S.MAX_SEATS + view[S.VIEW_SEAT]) * 5 + v] for v in range(5))


def attending_own(view, pol):
    """The seat's supporters that would attend a match at ``pol``'s arena (spec 4.3; ARÈNE GRATUITE)."""
    me = view[S.VIEW_SEAT]
    if view[S.FREE_ARENA]:
        return sum(view[S.CELL_OWNER + c] == me for c in range(S.N_CELLS))
    start = view[S.ARENA_CELL + pol]
    stack = [view[S.VIEW_ADJ + start * 8 + k] for k in range(view[S.VIEW_DEGREE + start])]
    stack = [c for c in stack if view[S.CELL_OWNER + c] >= 0]
    seen, count = set(stack), 0
    while stack:
        x = stack.pop()
        count += view[S.CELL_OWNER + x] == me
        for k in range(view[S.VIEW_DEGREE + x]):
            y = view[S.VIEW_ADJ + x * 8 + k]
            if view[S.CELL_OWNER + y] >= 0 and y not in seen:
                seen.add(y)
                stack.append(y)
    return count


def against(view, card, fav):
    """Whether playing ``card`` now works against the favourite ``fav`` (None: the card is not judged)."""
    lover = view[S.LOVER]
    pol = view[S.M_POL] if view[S.MATCH_ON] else -1
    attends = pol == fav or (view[S.MATCH_ON] and view[S.GUEST] == fav)
    rules = {
        S.C_REPRESSION: fav != S.CESAR,                     # every politician but César -1
        S.C_EMEUTE: fav != S.POMPEE,                        # every politician but Pompée -1
        S.C_REGLEMENTS_DE_COMPTES: fav in (S.CESAR, S.POMPEE),
        S.C_BASTONS: fav in (S.CRASSUS, S.BRUTUS),
        S.C_ECHAUFFOUREE: fav in (S.OCTAVE, S.ANTOINE),
        S.C_COJC: fav == S.ANTOINE,
        S.C_AFFAIRE_DE_FAMILLE: fav in (S.OCTAVE, S.ANTOINE),
        S.C_SCANDALE_SEXUEL: lover == fav,                  # the lover assassinated
        S.C_POULE_DE_LUXE: lover == fav,                    # the lover -2
        S.C_NE_PAS_DERANGER: lover == fav and not view[S.LYNCH],  # no gain for the lover
        S.C_PIETINE: pol == fav,                            # the arena's politician assassinated if boos win
        S.C_LYNCHAGE_MEDIATIQUE: attends,                   # attending politicians -2 if boos win
        S.C_RECUPERATION_POLITIQUE: not attends,            # +1 more for the attending politicians
    }
    if card in (S.C_PETAGE_DE_GUEULE, S.C_VAE_VICTIS_CARD):
        return own_gladiators(view, pol) > 0                # the seat's own gladiators in the arena die
    return rules.get(card)


@pytest.fixture(scope="module")
def logged_games():
    """Card plays, boos and supporters lost by 4 default bots over GAMES games, judged from the deciding seat's
    view before the action is applied."""
    sc = romesim.scenario("vox_populi.game", players=4)
    machine, args = sc.machine, tuple(sc.kernel_args())
    pol = resolve(sc.decision_points)
    plays, harmful = {}, {}
    idle_boos = lost = 0
    for i in range(GAMES):
        stream = rng.new_stream()
        rng.start(stream, np.uint64(SEED), i)
        arrays = (*machine.scratch(args), np.zeros(len(sc.metrics), np.int64))
        g, view = arrays[0], arrays[1]
        machine.init(stream, *args, *arrays)
        idle = {}  # seats that booed the current match with nothing at stake
        supporters = [int(np.sum(g[S.CELL_OWNER:S.CELL_OWNER + S.N_CELLS] == s)) for s in range(4)]
        while True:
            point = int(machine.advance(stream, *args, *arrays))
            for s in range(4):
                now = int(np.sum(g[S.CELL_OWNER:S.CELL_OWNER + S.N_CELLS] == s))
                if now < supporters[s] and idle.get(s):
                    lost += supporters[s] - now  # spec 6.3 a: a booer's attending supporter eliminated
                supporters[s] = now
            if point == END:
                break
            action = int(machine.decide(0, point, pol.codes, pol.params, pol.slots, stream, *args, *arrays))
            v = view.copy()
            kind = v[S.VIEW_KIND]
            if kind == S.K_CARD_WINDOW and action > 0 and v[S.VIEW_ARGS] >= 0:
                card = action - 1
                verdicts = [against(v, card, f) for f in favourites(v)]
                if verdicts[0] is not None:
                    plays[card] = plays.get(card, 0) + 1
                    harmful[card] = harmful.get(card, 0) + all(verdicts)
            elif kind == S.K_CHEER_OR_BOO:
                pol_ = v[S.M_POL]
                favs = favourites(v)
                gain = (1, 2, 3, 4)[v[S.M_TYPE]]
                # nothing at stake: no gladiator there, not a favourite's match, and the arena's politician
                # could not draw level with a favourite; yet supporters of the seat attend
                threat = not v[S.DEAD + pol_] and any(v[S.POP + pol_] + gain >= v[S.POP + f] for f in favs)
                nothing = own_gladiators(v, pol_) == 0 and pol_ not in favs and not threat
                idle[point] = action == 0 and nothing and attending_own(v, pol_) > 0
                idle_boos += idle[point]
            assert machine.legal(point, action, *args, *arrays)
            machine.apply(point, action, *args, *arrays)
    return plays, harmful, idle_boos / GAMES, lost / GAMES


def test_default_bot_never_plays_a_card_against_its_favourite(logged_games):
    """RÉPRESSION (VP14) only for César's backers, ÉMEUTE (VP16) only for Pompée's, PÉTAGE DE GUEULE (VP54)
    never with its own gladiators in the arena, NE PAS DÉRANGER (VP40) and SCANDALE SEXUEL (VP28) never on a lover
    it backs, and so on: before this bot, 80 %, 45 %, 55 %, 51 % and 37 % of those plays worked against the
    player. The tolerance (2 % and one play per card) covers near ties between two favourites."""
    plays, harmful, _, _ = logged_games
    assert sum(plays.values()) > 100  # the judged cards are played, not avoided
    for card, n in plays.items():
        assert harmful[card] <= 1 + 0.02 * n, (card, harmful[card], n)
    assert sum(harmful.values()) <= 0.01 * sum(plays.values())


def test_default_bot_loses_no_supporters_booing_with_nothing_at_stake(logged_games):
    """Spec 6.3 a: a booer with attending supporters loses one when applause wins; a seat with nothing at stake
    applauds where its supporters attend (before this bot: about 3 such boos and 0.6 supporters lost a game by
    this measure)."""
    _, _, idle_boos, lost = logged_games
    assert idle_boos < 0.5 and lost < 0.1


def view_of(g, p, seat, kind, n_actions):
    view = np.zeros(S.VIEW_SIZE, np.int64)
    game.init_view_board(p, view)
    open_decision(g, p, seat, kind, n_actions, view)
    return view


def stream_for(seed):
    stream = rng.new_stream()
    rng.start(stream, seed, 0)
    return stream


def test_favourite_ties_are_drawn_not_ranked():
    """Nothing to choose between the politicians (popularity 0, no stakes): the favourite is drawn from the dice
    stream, not the first in the hierarchy (spec 2: the hierarchy breaks ties only at the end, spec 8.2)."""
    p = compiled()
    g = blank_state(p, 4)
    view = view_of(g, p, 0, S.K_SLIP_STARS, 6)
    counts = np.bincount([favourite(view, -1, True, stream_for(seed)) for seed in range(600)], minlength=6)
    assert counts.min() > 60 and counts.max() < 140  # 100 each expected; 5 sigma is about +-46


def test_votes_follow_the_seats_interest():
    """DP14 (spec 7.4): YES to assassinating the leader César, whom a rival backs; NO to assassinating Pompée, in
    whose slot the seat has its stars."""
    p = compiled()
    g = blank_state(p, 4)
    g[S.POP + S.CESAR], g[S.POP + S.POMPEE] = 6, 5
    g[S.stars_at(S.POMPEE, 0, 4)] = 2
    g[S.slipped_at(S.POMPEE, 0)] = 2
    g[S.slipped_at(S.CESAR, 1)] = 3
    for target, ballot in ((S.CESAR, 1), (S.POMPEE, 0)):
        view = view_of(g, p, 0, S.K_VOTE_YES_NO, 2)
        view[S.VIEW_ARGS], view[S.VIEW_ARGS + 1] = S.C_UN_FOU_DANS_LA_VILLE, target
        view[S.VIEW_LEGAL:S.VIEW_LEGAL + 2] = 1
        assert builtin_policy(CODE_DEFAULT, DEFAULT_VECTOR, view, stream_for(1)) == ballot


def test_censure_silences_the_seat_expected_to_vote_against():
    """VP02 CENSURE (spec 7.4): in UN FOU DANS LA VILLE against César, which the seat wants passed, the ballot
    not counted is that of seat 3, who slipped pieces into César's slot (its NO would block); seats 1 and 2 have
    no stake in him. Before this bot it was always the lowest-numbered other seat."""
    p = compiled()
    g = blank_state(p, 4)
    g[S.POP + S.CESAR], g[S.POP + S.POMPEE] = 6, 5
    g[S.stars_at(S.POMPEE, 0, 4)] = 2
    g[S.slipped_at(S.POMPEE, 0)] = 2
    g[S.slipped_at(S.CESAR, 3)] = 2
    g[S.VOTE_CARD], g[S.VOTE_TARGET] = S.C_UN_FOU_DANS_LA_VILLE, S.CESAR
    g[S.BALLOT:S.BALLOT + S.MAX_SEATS] = -1
    view = view_of(g, p, 0, S.K_CARD_PARAMS, S.MAX_SEATS)
    view[S.VIEW_ARGS], view[S.VIEW_ARGS + 1] = S.C_CENSURE, S.PT_SEAT_HARM
    view[S.VIEW_LEGAL:S.VIEW_LEGAL + 4] = 1
    assert {builtin_policy(CODE_DEFAULT, DEFAULT_VECTOR, view, stream_for(seed)) for seed in range(20)} == {3}


def test_petage_de_gueule_never_with_its_own_gladiators_in_the_arena():
    """PÉTAGE DE GUEULE (VP54: each gladiator in the arena dies on 4-6) is played by a seat with no gladiator
    there against a rival's, and kept by the same seat once it has one of its own there."""
    p = compiled()
    g = blank_state(p, 4)
    for pol, cell in enumerate((9, 14, 25, 30, 33, 38)):
        g[S.ARENA_CELL + pol] = cell
        g[S.CELL_OWNER + cell] = S.ARENA
        g[S.CELL_VALUE + cell] = pol
    g[S.MATCH_ON], g[S.PHASE], g[S.M_POL], g[S.M_TYPE], g[S.ORGANISER] = 1, 2, S.CRASSUS, S.INTERNATIONAL, 1
    g[S.glad_at(S.CRASSUS, 1, 5)] = 2
    g[S.POP + S.CRASSUS] = 4
    g[S.hand_at(0, S.C_PETAGE_DE_GUEULE)] = 1
    picks = []
    for mine in (0, 1):
        g[S.glad_at(S.CRASSUS, 0, 1)] = mine
        view = view_of(g, p, 0, S.K_CARD_WINDOW, S.N_CARDS + 1)
        view[S.VIEW_ARGS] = S.W2
        view[S.VIEW_LEGAL] = view[S.VIEW_LEGAL + 1 + S.C_PETAGE_DE_GUEULE] = 1
        picks.append({builtin_policy(CODE_DEFAULT, DEFAULT_VECTOR, view, stream_for(seed)) for seed in range(10)})
    assert 1 + S.C_PETAGE_DE_GUEULE in picks[0] and picks[1] == {0}
