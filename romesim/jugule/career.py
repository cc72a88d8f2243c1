"""Careers (Jugule 13): a gladiator from tiro to the rudis or to his death, one duel after another.

``jugule.career`` plays one whole career per game. Each duel draws an opponent from a configurable pool (his rank
by weight, his type uniformly from a list), plays it, then applies the promotion ladder of section 13:

* C1 a tiro who survives his first duel becomes primus palus;
* C2 a novice who survives a more experienced opponent becomes speciarius (before C1);
* C3 a novice with 2 victories over novices becomes speciarius;
* C4 a speciarius with 3 victories over speciarii or better becomes veteranus;
* C5 a speciarius who survives a veteranus becomes veteranus;
* C6 10 victories over speciarii or veterani: freed with the rudis; he then retires, or fights on (D17,
  ``after_rudis``: « rien ne l'empêche de poursuivre sa carrière dans l'arène s'il le souhaite »).

JUG-A63 (is a primus palus a novice), JUG-A64 (which victories count), JUG-A65 (veteran bonus) and JUG-A66
(healing between duels) are the scenario's career options. JUG-A64 by default counts C3's victories over the whole
novice period (« Un novice (TIROS) … Remportant deux victoires contre des novices devient expérimenté »: the
tiro's own victory counts, the step to primus palus resets nothing) and C4's from the promotion to speciarius
(« Un SPECIARII Remportant trois victoires contre des SPECIARII »). ``jugule.career_ladder`` replaces the duel by fixed
per-rank odds: a what-if model of the ladder alone, which ``exact.career_solution`` solves exactly (a duel has no
closed form, so ``jugule.career`` has no exact answer).
"""
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.jit import njit
from ..core import rng
from ..core.loop import block_kernel, copy_into
from ..core.errors import ScenarioError
from ..core.scenario import REQUIRED, ParamSpec, Scenario, option_table, param, register
from . import combat as cb
from . import exact as _exact
from .duel import N_METRICS as DUEL_METRICS
from .duel import R_DOUBLE_COWARD, R_SPARED, SCRATCH, ST_LOSER, ST_REASON, ST_SIZE, duel_machine
from .gladiators import gladiator_row, gladiator_spec
from .policies import DUEL_POINTS, STATE_SIZE
from .scenarios import INTEGER_BOUNDS

DATA = Path(__file__).with_name("data")

TIRO, PRIMUS_PALUS, SPECIARIUS, VETERANUS = range(4)
RUDIS_WINS = 10  # C6

# compiled parameter vector
MAX_FIGHTS, PRIMUS_IS_NOVICE, COUNTERS, CARRY_DAMAGE, FIGHT_ON, N_PARAMS = range(6)
# career_counters (JUG-A64), in choice order
COUNTER_READINGS = ("novice_period", "since_promotion", "career_total")
NOVICE_PERIOD, SINCE_PROMOTION, CAREER_TOTAL = range(3)
AFTER_RUDIS = ("retire", "fight_on")  # D17
# fight results
WON, SPARED, DIED = range(3)

# outcome columns, in Career.metrics order
(RUDIS, DEATH, CAPPED, REACHED_PRIMUS, REACHED_SPECIARIUS, REACHED_VETERANUS, DEATH_TIRO, DEATH_PRIMUS,
 DEATH_SPECIARIUS, DEATH_VETERANUS, FIGHTS, WINS, ELITE_WINS, N_METRICS) = range(14)


@njit(cache=True, inline="always")
def is_novice(rank, primus_is_novice):
    return rank == TIRO or (rank == PRIMUS_PALUS and primus_is_novice)


@njit(cache=True, inline="always")
def promotion(rank, opponent, novice_wins, senior_wins, primus_is_novice):
    """The rank after a survived duel (13: C2 before C1; JUG-A63 decides who is a novice and "more
    experienced"). ``novice_wins`` and ``senior_wins`` already count this duel's victory."""
    more_experienced = opponent >= SPECIARIUS if primus_is_novice else opponent > rank
    novice = is_novice(rank, primus_is_novice)
    if novice and more_experienced:
        return SPECIARIUS  # C2
    if rank == SPECIARIUS and (opponent == VETERANUS or senior_wins >= 3):
        return VETERANUS  # C5, C4
    if novice and novice_wins >= 2:
        return SPECIARIUS  # C3
    if rank == TIRO:
        return PRIMUS_PALUS  # C1
    return rank


@njit(cache=True, inline="always")
def draw_weighted(stream, weights, total):
    """An index drawn with probability ``weights[i] / total`` (one die of ``total`` faces)."""
    x = rng.dn(stream, total)
    for i in range(weights.size):
        x -= weights[i]
        if x <= 0:
            return i
    return weights.size - 1


@njit(cache=True, inline="always")
def fixed_odds_fight(stream, odds, opponent):
    """``jugule.career_ladder``: won, spared or dead with per-mille odds for the opponent's rank."""
    x = rng.dn(stream, 1000)
    if x <= odds[0, opponent]:
        return WON
    if x <= odds[0, opponent] + odds[1, opponent]:
        return SPARED
    return DIED


@njit(cache=True, inline="always")
def duel_fight(stream, o, G0, IT0, G, IT, st, state, cand, duel_row, codes, params, slots):
    """Play one duel with ``duel_machine`` of ``jugule.duel`` (the career gladiator is side A; ``duel_row`` takes
    the duel's own outcome row). Returns ``(result, error)``: won, spared (or a duel cut by ``max_turns``:
    survived, no victory) or died; dying includes an appeal refused and an execution for cowardice, alone or
    together (JUG-A62)."""
    error = duel_machine(stream, codes, params, slots, 0, o, G0, IT0, st, state, G, IT, cand, duel_row)
    if error != 0:
        return DIED, error
    if st[ST_REASON] == R_DOUBLE_COWARD or (st[ST_LOSER] == 0 and st[ST_REASON] != R_SPARED):
        return DIED, 0
    if st[ST_LOSER] == 1:
        return WON, 0
    return SPARED, 0


# career progress, one int64 vector per game
C_RANK, C_NOVICE_WINS, C_SENIOR_WINS, C_ELITE_WINS, C_HP_LEFT, C_SIZE = range(6)


@njit(cache=True, inline="always")
def reset_counters(counters, rank, new):
    """JUG-A64: which victory counters (C3 novice wins, C4 senior wins) a promotion from ``rank`` to ``new``
    clears: ``novice_period`` only C4's on becoming speciarius, ``since_promotion`` both at every promotion
    (primus palus included), ``career_total`` none."""
    if counters == SINCE_PROMOTION:
        return True, True
    if counters == NOVICE_PERIOD and new == SPECIARIUS and rank < SPECIARIUS:
        return False, True
    return False, False


@njit(cache=True, inline="always")
def ladder_step(row, p, career, opponent, result):
    """Score one duel and apply the ladder of section 13; returns True when the career is over (death, the
    rudis unless he fights on, D17)."""
    rank = career[C_RANK]
    primus_is_novice = p[PRIMUS_IS_NOVICE] == 1
    row[FIGHTS] += 1
    if result == DIED:
        row[DEATH] = 1
        row[DEATH_TIRO + rank] = 1
        return True
    if result == WON:
        row[WINS] += 1
        if is_novice(opponent, primus_is_novice):
            career[C_NOVICE_WINS] += 1
        if opponent >= SPECIARIUS:
            career[C_SENIOR_WINS] += 1
            career[C_ELITE_WINS] += 1
    new = promotion(rank, opponent, career[C_NOVICE_WINS], career[C_SENIOR_WINS], primus_is_novice)
    if new != rank:
        for r in range(rank + 1, new + 1):
            row[REACHED_PRIMUS + r - 1] = 1
        novice_reset, senior_reset = reset_counters(p[COUNTERS], rank, new)
        career[C_RANK] = new
        if novice_reset:
            career[C_NOVICE_WINS] = 0
        if senior_reset:
            career[C_SENIOR_WINS] = 0
    row[ELITE_WINS] = career[C_ELITE_WINS]
    if career[C_ELITE_WINS] >= RUDIS_WINS:  # C6
        row[RUDIS] = 1
        return p[FIGHT_ON] == 0  # D17: he retires, or fights on until death or the cap
    return False


@njit(cache=True, inline="always")
def draw_opponent(stream, rank_weights, pool):
    """The opponent's rank (by weight) and his type (a slot of the pool), in this order for both models."""
    total = 0
    for w in rank_weights:
        total += w
    opponent = draw_weighted(stream, rank_weights, total)
    return opponent, pool[rng.dn(stream, pool.size) - 1]


@njit(cache=True, inline="always")
def fixed_odds_career(stream, row, career, p, rank_weights, odds, pool):
    row[:] = 0
    career[:] = 0
    while row[FIGHTS] < p[MAX_FIGHTS]:
        opponent, _ = draw_opponent(stream, rank_weights, pool)
        if ladder_step(row, p, career, opponent, fixed_odds_fight(stream, odds, opponent)):
            return 0
    row[CAPPED] = 1
    return 0


@njit(cache=True, apart=True)
def next_duel(stream, career, p, rank_weights, pool, own_rows, own_items, rival_rows, rival_items, G0, IT0):
    """Draw the next opponent and set both gladiators' starting rows; returns the opponent's rank. Compiled apart
    from the career's game, which calls the duel's policies: a kernel variant for user bots loads it from the
    cache (as ``after_duel``)."""
    opponent, rival = draw_opponent(stream, rank_weights, pool)
    copy_into(G0[0], own_rows[career[C_RANK]])
    copy_into(IT0[0], own_items[career[C_RANK]])
    if p[CARRY_DAMAGE] and career[C_HP_LEFT] > 0:  # JUG-A66: no healing between duels
        G0[0, cb.G_HP] = career[C_HP_LEFT]
    copy_into(G0[1], rival_rows[rival, opponent])
    copy_into(IT0[1], rival_items[rival, opponent])
    return opponent


@njit(cache=True, apart=True)
def after_duel(row, p, career, opponent, result, hp_left):
    """Keep the career gladiator's HP for the next duel and score the duel (``ladder_step``); True when the
    career is over."""
    career[C_HP_LEFT] = hp_left  # read by next_duel when damage is carried (JUG-A66)
    return ladder_step(row, p, career, opponent, result)


@njit(cache=True, inline="always")
def duel_career(stream, row, career, p, rank_weights, pool, o, own_rows, own_items, rival_rows, rival_items, G0, IT0,
                G, IT, st, state, cand, duel_row, codes, params, slots):
    row[:] = 0
    career[:] = 0
    while row[FIGHTS] < p[MAX_FIGHTS]:
        opponent = next_duel(stream, career, p, rank_weights, pool, own_rows, own_items, rival_rows, rival_items, G0,
                             IT0)
        result, err = duel_fight(stream, o, G0, IT0, G, IT, st, state, cand, duel_row, codes, params, slots)
        if err:
            return err
        if after_duel(row, p, career, opponent, result, G[0, cb.G_HP]):
            return 0
    row[CAPPED] = 1
    return 0


@njit(cache=True)
def fixed_odds_scratch(args):
    """The career's progress, reset at every game."""
    return (np.zeros(C_SIZE, np.int64),)


@njit(cache=True, inline="always")
def fixed_odds_game(stream, row, codes, params, slots, p, rank_weights, odds, pool, career):
    return fixed_odds_career(stream, row, career, p, rank_weights, odds, pool)


fixed_odds_kernel = block_kernel("fixed_odds_kernel", fixed_odds_scratch, fixed_odds_game, N_METRICS)


@njit(cache=True)
def career_scratch(args):
    """The buffers a block of careers reuses: progress, the duel's starting and playing rows, its status, the
    policy state, the hexes and the duel's own outcome row."""
    own_rows, own_items = args[4], args[5]
    G0 = np.zeros((2, own_rows.shape[1]), np.int64)
    IT0 = np.zeros((2, own_items.shape[1], own_items.shape[2]), np.int64)
    return (np.zeros(C_SIZE, np.int64), G0, IT0, np.zeros_like(G0), np.zeros_like(IT0), np.zeros(ST_SIZE, np.int64),
            np.zeros(STATE_SIZE, np.int64), np.zeros((SCRATCH, 2), np.int64),
            np.zeros(DUEL_METRICS, np.int64))


@njit(cache=True, apart=True)
def career_game(stream, row, codes, params, slots, p, rank_weights, pool, o, own_rows, own_items, rival_rows,
                rival_items, career, G0, IT0, G, IT, st, state, cand, duel_row):
    return duel_career(stream, row, career, p, rank_weights, pool, o, own_rows, own_items, rival_rows, rival_items,
                       G0, IT0, G, IT, st, state, cand, duel_row, codes, params, slots)


# a career plays whole duels: compiled apart from its kernel (``block_kernel``)
career_kernel = block_kernel("career_kernel", career_scratch, career_game, N_METRICS)


# --------------------------------------------------------------------------- scenario
TYPE_IDS = tuple(pd.read_csv(DATA / "jugule_gladiators.csv")["type_id"])
RANK_NAMES = cb.RANKS
BONUS_POLICIES = ("hp", "ap", "alternate")
_POOL_FIELDS = (("type", ParamSpec("choice", "gladiator type", choices=TYPE_IDS), REQUIRED),
                ("weight", ParamSpec("int", "relative chance of meeting this type", lo=1, hi=1000), 1))
_option = option_table(DATA / "jugule_options.csv")


def bonus_points(rank, policy, veteran_bonus="total2"):
    """D1 (13, JUG-A65): ``(bonus_hp, bonus_ap)`` of a gladiator of ``rank``: a speciarius has 1 point, a
    veteranus 2 in all (``plus2``: 3); ``policy`` puts them all on HP, all on AP, or alternately (HP first)."""
    points = 0 if rank < SPECIARIUS else 1 if rank == SPECIARIUS else (2 if veteran_bonus == "total2" else 3)
    if policy == "hp":
        return points, 0
    if policy == "ap":
        return 0, points
    return (points + 1) // 2, points // 2


@dataclass(frozen=True)
class _Ladder(Scenario):
    """What every career scenario shares: the opponents' ranks, the ladder options, the metrics."""

    rule = "Jugule 13"
    metrics = ("p_rudis", "p_death", "p_capped", "p_primus_palus", "p_speciarius", "p_veteranus", "p_death_tiro",
               "p_death_primus_palus", "p_death_speciarius", "p_death_veteranus", "fights", "wins", "elite_wins")

    opponent_ranks: tuple = param([1, 1, 1, 1], lo=0, hi=1000, min_len=4, max_len=4,
                                  doc="relative chance that an opponent is tiro, primus palus, speciarius, "
                                      "veteranus", rule="13")
    max_fights: int = param(100, lo=1, hi=1000, doc="duels after which a career still running is cut (a cap of "
                            "the simulation, reported as p_capped)")
    primus_is_novice: bool = param(True, doc="a primus palus is a novice (C2, C3)", rule="JUG-A63")
    career_counters: str = param("novice_period", choices=COUNTER_READINGS,
                                 doc="C3 counts the victories of the whole novice period and C4 those since the "
                                     "promotion to speciarius; or both since the last promotion (primus palus "
                                     "included); or both over the career", rule="JUG-A64")
    after_rudis: str = param("retire", choices=AFTER_RUDIS,
                             doc="D17: the freed gladiator retires, or fights on until death or max_fights "
                                 "(p_rudis then counts every career that earned the rudis)", rule="13 C6, D17")

    def check(self):
        if sum(self.opponent_ranks) == 0:
            raise ScenarioError(f"opponent_ranks: {list(self.opponent_ranks)} is not allowed; expected four weights "
                                "with at least one above 0")

    def compiled(self):
        p = np.zeros(N_PARAMS, np.int64)
        p[MAX_FIGHTS] = self.max_fights
        p[PRIMUS_IS_NOVICE] = self.primus_is_novice
        p[COUNTERS] = COUNTER_READINGS.index(self.career_counters)
        p[FIGHT_ON] = self.after_rudis == "fight_on"
        return p


@register
class Career(_Ladder):
    name = "jugule.career"
    title = "A gladiator's career, from tiro to the rudis or to death, one duel after another"
    p_win = "he earns the rudis (10 victories over speciarii or veterani, C6)"
    decision_points = DUEL_POINTS  # the career gladiator is side A of every duel, his opponents side B
    kernel = staticmethod(career_kernel)

    gladiator: str = param("murmillo", choices=TYPE_IDS, doc="the career gladiator's type", rule="14")
    opponents: tuple = param([{"type": t} for t in TYPE_IDS], kind="records", min_len=1, max_len=64,
                             fields=_POOL_FIELDS, doc="opponent pool: types with relative weights", rule="13")
    bonus_policy: str = param("hp", choices=BONUS_POLICIES, doc="D1: where every gladiator puts his bonus points "
                              "(HP, AP, or alternately starting with HP)", rule="13, D1")
    veteran_bonus: str = param("total2", choices=("total2", "plus2"),
                               doc="a veteranus has 2 bonus points in all, or 2 more than the speciarius' one",
                               rule="JUG-A65")
    carry_damage: bool = param(False, doc="HP lost in a duel are not healed before the next one", rule="JUG-A66")
    # every duel rule option of jugule.duel, with its table default
    for _name in cb.OPTION_NAMES:
        locals()[_name] = _option(_name)
        __annotations__[_name] = object
    del _name

    def check(self):
        super().check()
        for name, (lo, hi, meaning) in INTEGER_BOUNDS.items():
            value = getattr(self, name)
            if not lo <= value <= hi or (name in ("melee_to_hit", "defence_roll") and value == 1) or (
                    name == "arena_radius" and 0 < value < 3):
                raise ScenarioError(f"{name}: {value!r} is not allowed; expected {meaning}")

    def options(self):
        return {name: getattr(self, name) for name in cb.OPTION_NAMES}

    def compiled(self):
        p = super().compiled()
        p[CARRY_DAMAGE] = self.carry_damage
        return p

    def _rows(self, type_id):
        """The type's ``G_*`` rows and item tables at each rank, with the bonus points of D1 (JUG-A65)."""
        options = self.options()
        spec = gladiator_spec("gladiator", type_id, options)
        rows = np.zeros((4, cb.G_FIELDS), np.int64)
        items = np.zeros((4, cb.MAX_ITEMS, cb.I_COLS), np.int64)
        for rank in range(4):
            hp, ap = bonus_points(rank, self.bonus_policy, self.veteran_bonus)
            rows[rank], items[rank] = gladiator_row(spec, options, RANK_NAMES[rank], hp, ap)
        return rows, items

    def kernel_args(self):
        rivals = list(dict.fromkeys(o["type"] for o in self.opponents))
        pool = np.array([rivals.index(o["type"]) for o in self.opponents for _ in range(o["weight"])], np.int64)
        own_rows, own_items = self._rows(self.gladiator)
        built = [self._rows(t) for t in rivals]
        rival_rows = np.stack([r for r, _ in built])
        rival_items = np.stack([i for _, i in built])
        return (self.compiled(), np.array(self.opponent_ranks, np.int64), pool, cb.option_vector(self), own_rows,
                own_items, rival_rows, rival_items)


@register
class CareerLadder(_Ladder):
    name = "jugule.career_ladder"
    title = "The promotion ladder alone: each duel won, spared or fatal with fixed odds by opponent rank"
    p_win = Career.p_win
    kernel = staticmethod(fixed_odds_kernel)

    max_fights: int = param(30, lo=1, hi=200, doc="duels after which a career still running is cut (reported as "
                            "p_capped)")
    fixed_win: tuple = param([500, 500, 500, 500], lo=0, hi=1000, min_len=4, max_len=4,
                             doc="per-mille chance of winning against a tiro, primus palus, speciarius, veteranus")
    fixed_spared: tuple = param([250, 250, 250, 250], lo=0, hi=1000, min_len=4, max_len=4,
                                doc="per-mille chance of losing and being spared, by opponent rank")

    def check(self):
        super().check()
        for rank, (w, s) in enumerate(zip(self.fixed_win, self.fixed_spared)):
            if w + s > 1000:
                raise ScenarioError(f"fixed_win/fixed_spared: {w} + {s} per mille against a {RANK_NAMES[rank]} "
                                    "is more than 1000")

    def kernel_args(self):
        odds = np.array([self.fixed_win, self.fixed_spared], np.int64)
        return self.compiled(), np.array(self.opponent_ranks, np.int64), odds, np.zeros(1, np.int64)

    def exact_solution(self, policies):
        odds = _exact.DuelOdds(win=tuple(Fraction(w, 1000) for w in self.fixed_win),
                               spared=tuple(Fraction(s, 1000) for s in self.fixed_spared))
        got = _exact.career_solution(odds, self.opponent_ranks, max_fights=self.max_fights, rudis_wins=RUDIS_WINS,
                                     primus_is_novice=self.primus_is_novice, career_counters=self.career_counters,
                                     after_rudis=self.after_rudis)
        return {m: got[m] for m in self.metrics}


# --------------------------------------------------------------------------- analysis functions
def _careers(types, params):
    chosen = TYPE_IDS if types is None else tuple(types)
    for t in chosen:
        if t not in TYPE_IDS:
            raise ScenarioError(f"types: {t!r} is not allowed; expected gladiator types among {', '.join(TYPE_IDS)}")
    return [(t, Career.from_dict({**params, "gladiator": t})) for t in chosen]


def career_table(types=None, n=20_000, seed=0, policies=None, **params):
    """One row per gladiator type: every ``jugule.career`` metric's estimate, with the 95 % interval of p_rudis.
    Every type's careers are played from the same ``seed``."""
    from ..core.engine import simulate
    rows = []
    for t, scenario in _careers(types, params):
        result = simulate(scenario, n, seed, policies=policies)
        low, high = result.interval("p_rudis")
        rows.append({"type": t, **{m: result.estimate(m) for m in result.metrics}, "p_rudis_low": low,
                     "p_rudis_high": high, "n": n})
    return pd.DataFrame(rows)


def survival(outcomes):
    """P(alive after k duels), k = 0 .. the longest career, from per-game outcomes of a career scenario.

    A career that ended with the rudis or at the cap counts as alive afterwards (he retired)."""
    fights, died = outcomes["fights"].to_numpy(), outcomes["p_death"].to_numpy()
    ks = np.arange(0, int(fights.max()) + 1)
    alive = np.array([np.count_nonzero((died == 0) | (fights > k)) for k in ks])
    return pd.DataFrame({"fights": ks, "survival": alive / len(fights), "n": len(fights)})


def survival_curves(types=None, n=20_000, seed=0, policies=None, **params):
    """Tidy survival curves of ``jugule.career`` (``type, fights, survival, n``), one block per type."""
    from ..core.engine import simulate
    frames = []
    for t, scenario in _careers(types, params):
        curve = survival(simulate(scenario, n, seed, policies=policies, keep=True).outcomes)
        frames.append(curve.assign(type=t)[["type", "fights", "survival", "n"]])
    return pd.concat(frames, ignore_index=True)
