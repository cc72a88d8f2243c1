"""Jugule ! duel (spec 4-12): the assault functions against the spec's worked examples (18, W1-W5), and whole duels
against probabilities worked out by hand in the comments, Monte Carlo at about 5 sigma.

Every expected fraction is derived from the rule text in its comment, never taken from the code's output.
"""
import json
from fractions import Fraction as F
from itertools import product

import numpy as np
import pytest
from helpers import assert_matches_exact
from numba import njit

import romesim
from romesim.cli import main
from romesim.core.result import Result
from romesim.core.rng import new_stream
from romesim.jugule.gladiators import G_AP, G_TYPE
from romesim.jugule import combat as cb
from romesim.jugule import policies as pol
from romesim.jugule.geometry import ARC_FLANK, ARC_FRONT, ARC_REAR

DUEL = "jugule.duel"
N = 60_000


def duel(**params):
    return romesim.scenario(DUEL, **params)


def rows(**params):
    """``(o, A row, B row)`` of a duel scenario (A attacks B in the unit checks)."""
    sc = duel(**params)
    G0, _ = sc.gladiators()
    return cb.option_vector(sc), G0[0].copy(), G0[1].copy()


def custom(ap=5, weapons=("glaive",), **zones):
    return {"ap": ap, "weapons": list(weapons), **zones}


def faces(fn):
    """Probability of ``fn(n)`` over a fair d6."""
    return F(sum(1 for n in range(1, 7) if fn(n)), 6)


# ------------------------------------------------------------------------------------------------ W1, 12.2, JUG-A61
@pytest.mark.parametrize("rank, dealt, changes, p", [
    ("veteranus", 5, {}, F(5, 6)),                                  # +1 +1 +2: natural >= 2
    ("speciarius", 4, {}, F(2, 3)),                                 # +1 +1: natural >= 3
    ("speciarius", 4, {"mercy_damage_mod": "from3"}, F(5, 6)),      # +1 +2: natural >= 2
    ("veteranus", 0, {}, F(2, 3)),                                  # +2: natural >= 3
    ("veteranus", 0, {"mercy_vet_cumulative": False}, F(1, 2)),     # +1: natural >= 4
    ("tiro", 3, {}, F(1, 3)),                                       # +0: natural >= 5
])
def test_w1_mercy_appeal(rank, dealt, changes, p):
    o, g, _ = rows(rank_a=rank, **changes)
    g[cb.G_DEALT] = dealt
    assert faces(lambda n: n >= cb.appeal_needs(o, g)) == p


# ----------------------------------------------------------------------------------------- W2, 8.2, JUG-A21/A22/A23
def w2_losses(rank_a="tiro", head=-2, **changes):
    o, a, b = rows(a=custom(weapons=("sica",)), b=custom(head=head), rank_a=rank_a, **changes)
    return [cb.hit_damage(o, a, b, cb.W_SICA, cb.Z_HEAD, n, ARC_FRONT, False) for n in range(2, 7)]


def test_w2_sica_on_open_helmet():
    assert w2_losses() == [0, 1, 2, 3, 4]  # covered head: no sica bonus, n - 2
    assert w2_losses(min_damage_stage="after_armour") == [1, 1, 2, 3, 4]  # E = 11/6 with the fumble face
    assert w2_losses(rank_a="speciarius") == [1, 2, 3, 4, 5]  # experienced attacker +1: E = 5/2
    assert w2_losses(head=0) == [3, 4, 5, 6, 7]  # uncovered: sica +1
    assert w2_losses(head=0, sica_bonus="never") == [2, 3, 4, 5, 6]


def test_damage_modifiers_8_2():
    o, a, b = rows(a=custom(weapons=("dagger",)), b=custom())
    hit = lambda n, arc=ARC_FRONT: cb.hit_damage(o, a, b, cb.W_DAGGER, cb.Z_THORAX, n, arc, False)  # noqa: E731
    assert [hit(n) for n in range(2, 7)] == [1, 1, 2, 3, 4]  # dagger 1d6-2, at least 1 (JUG-A21)
    assert hit(4, ARC_FLANK) == 3 and hit(4, ARC_REAR) == 4  # flank +1, rear +2
    b[cb.G_HP] = 5
    assert hit(4) == 3  # wounded target (HP <= 5, JUG-A24) +1
    b[cb.G_ON_GROUND] = 1
    assert hit(4) == 5  # on the ground +2


def test_min_damage_stage_after_modifiers_jug_a21():
    # iron fists 1d6-2 against armour 3 (a Crupellarius arm), natural 2: weapon 0 -> 1 (weapon stage), -3 -> 0
    o, a, b = rows(a=custom(weapons=("iron_fists",)), b="crupellarius")
    assert cb.hit_damage(o, a, b, cb.W_IRON_FISTS, cb.Z_RIGHT_ARM, 2, ARC_FRONT, False) == 0
    o2, _, _ = rows(min_damage_stage="after_armour")
    assert cb.hit_damage(o2, a, b, cb.W_IRON_FISTS, cb.Z_RIGHT_ARM, 2, ARC_FRONT, False) == 1
    # immobilised (netted) target counts no armour at all (9.2, JUG-A26)
    assert cb.hit_damage(o, a, b, cb.W_IRON_FISTS, cb.Z_RIGHT_ARM, 6, ARC_FRONT, True) == 4


@pytest.mark.parametrize("attacker, target, mode, bonus", [
    ("speciarius", "tiro", "experienced_only", 1), ("primus_palus", "tiro", "experienced_only", 0),
    ("speciarius", "primus_palus", "experienced_only", 1), ("veteranus", "speciarius", "experienced_only", 1),
    ("primus_palus", "tiro", "any_higher_rank", 1), ("veteranus", "tiro", "per_rank", 3)])
def test_experience_modifier_jug_a23(attacker, target, mode, bonus):
    o, a, b = rows(rank_a=attacker, rank_b=target, exp_mod=mode)
    assert cb.experience_bonus(o, a, b) == bonus


# ------------------------------------------------------------------------------------------------ W3, 10.4, JUG-A42/A43
def test_w3_javelin_to_hit():
    o, _, _ = rows()
    assert faces(lambda n: n >= cb.javelin_needs(o, 7, False, False)) == F(1, 3)
    assert faces(lambda n: n >= cb.javelin_needs(o, 5, False, False)) == F(1, 2)
    assert faces(lambda n: n >= cb.javelin_needs(o, 3, False, False)) == F(2, 3)
    assert faces(lambda n: n >= cb.javelin_needs(o, 7, True, False)) == F(1, 6)  # spoiled: -1
    o, _, _ = rows(javelin_reserve_mod="literal_plus1")
    assert faces(lambda n: n >= cb.javelin_needs(o, 7, False, True)) == F(1, 2)
    o, _, _ = rows(javelin_profile="veles_range4")
    assert cb.javelin_range(o, cb.W_JAVELIN) == 4


def test_w3_whole_chain_against_a_retiarius():
    # hit 1/3; then unarmoured zone (5/6) loses HP on natural >= 2, the right arm (-3) on natural >= 4: 7/27
    o, a, b = rows(a="veles", b="retiarius")
    p_hit = faces(lambda n: n >= cb.javelin_needs(o, 7, False, False))
    p_loss = F(0)
    for z, n in product(range(6), range(2, 7)):
        assert not cb.neutralised(o, b, z, ARC_FRONT, 0, False)
        if cb.hit_damage(o, a, b, cb.W_JAVELIN, z, n, ARC_FRONT, False) >= 1:
            p_loss += F(1, 36)
    assert p_hit * p_loss == F(7, 27)


# ------------------------------------------------------------------------------------------------ W4, 10.6, JUG-A48
@pytest.mark.parametrize("target, wounds, reserve, p", [
    ("provocator", 0, 0, F(7, 12)), ("provocator", 1, 0, F(13, 18)), ("provocator", 1, 2, F(5, 12)),
    ("secutor", 0, 0, F(5, 18)), ("retiarius", 0, 0, F(0)), ("retiarius", 2, 0, F(1, 12)),
    ("crupellarius", 0, 0, F(11, 12))])
def test_w4_knockdown(target, wounds, reserve, p):
    o, _, b = rows(b=target)
    b[cb.G_WOUNDS] = wounds
    falls = F(0)
    for x, y in product(range(1, 7), repeat=2):
        total = cb.knockdown_total(o, b, x + y)
        state = np.zeros(pol.STATE_SIZE, np.int64)
        state[pol.S_R], state[pol.S_X], state[pol.S_X + 1] = reserve, total, b[cb.G_AP]
        spent = pol._knockdown(pol.CODE_DEFAULT, np.zeros(8), state, new_stream()) if reserve else 0
        falls += F(1, 36) if total - spent >= b[cb.G_AP] else 0
    assert falls == p


# ------------------------------------------------------------------------------------------------ W5, 8.1, 9.2
def test_w5_sica_against_a_secutor_with_the_scutum_on_the_thorax():
    o, a, b = rows(a=custom(weapons=("sica",)), b="secutor")
    b[cb.G_SCUTUM_ZONE] = cb.Z_THORAX
    dist = {}
    for loc, n in product(range(1, 7), range(1, 7)):
        z = cb.zone_of(loc)
        if cb.neutralised(o, b, z, ARC_FRONT, 0, False):
            key = "blocked"
        elif n == 1:
            key = "fumble"
        else:
            key = cb.hit_damage(o, a, b, cb.W_SICA, z, n, ARC_FRONT, False)
        dist[key] = dist.get(key, 0) + F(1, 36)
    assert dist == {"blocked": F(12, 36), "fumble": F(4, 36), 0: F(5, 36), 1: F(2, 36), 2: F(2, 36),
                    3: F(3, 36), 4: F(2, 36), 5: F(2, 36), 6: F(2, 36), 7: F(2, 36)}
    assert sum(k * p for k, p in dist.items() if isinstance(k, int)) == F(59, 36)
    # shields are useless from the rear (9.2); with shield_side = left_only, from the right flank (JUG-A18)
    assert not cb.neutralised(o, b, cb.Z_LEFT_ARM, ARC_REAR, 0, False)
    assert cb.neutralised(o, b, cb.Z_LEFT_ARM, ARC_FLANK, 1, False)
    o2, _, _ = rows(shield_side="left_only")
    assert not cb.neutralised(o2, b, cb.Z_LEFT_ARM, ARC_FLANK, 1, False)
    assert not cb.neutralised(o, b, cb.Z_LEFT_ARM, ARC_FRONT, 0, True)  # immobilised (JUG-A26)


def test_quick_check_stun_probability_18():
    # a speciarius' glaive that gets through stuns a tiro Retiarius (loss >= 5) with 5/6 * 3/6 = 5/12; 5/18 without
    for rank, p in (("speciarius", F(5, 12)), ("tiro", F(5, 18))):
        o, a, b = rows(a="samnis", b="retiarius", rank_a=rank)
        stun = sum(F(1, 36) for z, n in product(range(6), range(2, 7))
                   if cb.hit_damage(o, a, b, cb.W_GLAIVE, z, n, ARC_FRONT, False) >= 5)
        assert stun == p


def test_fumble_table_11():
    assert [cb.fumble_kind(d) for d in range(1, 7)] == [cb.F_STUMBLE, cb.F_HESITATE, cb.F_HESITATE, cb.F_SAND,
                                                        cb.F_SLIP, cb.F_BREAK]


def test_assault_end_checks_12_1():
    o, a, b = rows()
    b[cb.G_ASSAULT_LOSS], b[cb.G_TURN_LOSS] = 5, 5
    assert cb.after_assault(o, b) == cb.END_STUNNED  # at least 5 in one assault (JUG-A59)
    b[cb.G_ASSAULT_LOSS], b[cb.G_TURN_LOSS] = 2, 6
    assert cb.after_assault(o, b) == cb.END_GRAVE  # 6 or more this turn (JUG-A58)
    o2, _, _ = rows(forced_appeal_turn_loss="off")
    assert cb.after_assault(o2, b) == cb.END_NONE
    b[cb.G_HP] = 0
    assert cb.after_assault(o, b) == cb.END_DEAD
    b[cb.G_HP] = 3
    cb.apply_loss(b, a, 7)  # 12.1: HP never below 0, dealt counts HP actually removed
    assert b[cb.G_HP] == 0 and a[cb.G_DEALT] == 3


# ------------------------------------------------------------------------------------------------ types, 14
def test_type_table_14():
    ap = {t: romesim.scenario(DUEL, a=t).gladiators()[0][0, cb.G_AP] for t in romesim.jugule.gladiators.TYPES}
    assert ap == {"retiarius": 13, "thraex_early": 11, "thraex_late": 9, "postulatus": 6, "murmillo": 8,
                  "secutor": 9, "hoplomachus": 8, "samnis": 9, "provocator": 7, "dimachaerus": 11,
                  "laquearius": 12, "andabata": 5, "crupellarius": 4, "veles": 11, "gallus": 12, "scissor": 9,
                  "eques": 10, "bestiarius": 11}
    G, IT = duel(a="dimachaerus", dimachaerus_helmet=True, b="murmillo").gladiators()
    assert G[0, cb.G_AP] == 10 and G[0, cb.G_ARMOUR + cb.Z_HEAD] == 2  # JUG-A30
    assert list(G[1, cb.G_ARMOUR:cb.G_ARMOUR + 6]) == [0, 0, 3, 3, 1, 3]  # JUG-A29: metal left, leather right
    G, IT = duel(a="murmillo", protection_values="normalised").gladiators()
    assert G[0, cb.G_ARMOUR + cb.Z_HEAD] == 2  # JUG-A27: "Casque (-3)" as an open helmet
    G, IT = duel(a="retiarius", b="hoplomachus").gladiators()
    kinds = {int(k): int(r) for k, r, s in IT[0][:, [cb.I_KIND, cb.I_RANGE, cb.I_STATE]] if s == cb.IS_HAND}
    assert kinds[cb.W_TRIDENT] == 2 and kinds[cb.W_DAGGER] == 1  # reach 2 (JUG-A33)
    assert G[1, cb.G_BASH] == 0 and G[1, cb.G_SPEAR_THROW] == 1  # JUG-A45, A46
    G, IT = duel(a="veles").gladiators()
    assert sum(IT[0][:, cb.I_KIND] == cb.W_JAVELIN) == 4


# ------------------------------------------------------------------------------------------------ whole duels
def exact_result(sc, values):
    return Result(sc, sc.metrics, exact={m: F(values.get(m, 0)) for m in sc.metrics}, policies={})


JAVELIN_A = {**custom(ap=2, weapons=("javelin",)), "javelins": 1}
DAGGER_B = custom(ap=1, weapons=("dagger",))
JAVELIN_POLICIES = {"a_allocate": ("parametric", [1.0, 0.0, 0.0]), "b_allocate": ("parametric", [0.0, 1.0, 0.0]),
                    "b_appeal": ("parametric", [9.0])}


def test_javelin_duel_against_exact():
    # 4 (split, initiative, phases in order): A (2 AP, one javelin) at distance 3; B (1 AP: one step, no reserve)
    # closes to 2 or stays at 3 by initiative.
    # A throws once: d6 + 1 >= 4 (distance < 5), hit 2/3 (10.4); no fumble (missile_fumble = false); B has no
    # armour, so the loss is the natural 1..6 (>= 1 before armour, JUG-A21). A hit B survives always ends in one
    # appeal (forced by a stun >= 5, or voluntary at HP <= 9): a tiro is spared on a natural 5-6 (1/3). A miss
    # leaves B without an attack this turn: executed as a coward (coward_turns = 1).
    sc = duel(a=JAVELIN_A, b=DAGGER_B, start_distance=3, missile_fumble=False, coward_turns=1)
    r = romesim.simulate(sc, N, seed=11, policies=JAVELIN_POLICIES)
    want = {"p_win": 1, "p_mercy_granted": F(2, 3) * F(1, 3), "p_mercy_refused": F(2, 3) * F(2, 3),
            "p_by_cowardice": F(1, 3), "turns": 1, "hp_left_a": 10, "hp_left_b": 10 - F(2, 3) * F(7, 2),
            "damage_dealt_a": F(2, 3) * F(7, 2), "ap_allocated_a": 2, "ap_allocated_b": 1,
            "ap_spent_a": 1, "ap_spent_b": None}
    got = exact_result(sc, {k: v for k, v in want.items() if v is not None})
    assert r.estimate("ap_spent_b") <= 1
    assert_matches_exact(_without(r, "ap_spent_b"), _without(got, "ap_spent_b"))


def test_javelin_spoiled_by_reserve_jug_a42():
    # B keeps his single AP in reserve (no move) and spoils the throw at distance 3: d6 + 1 - 1 >= 4, hit 1/2
    sc = duel(a=JAVELIN_A, b=DAGGER_B, start_distance=3, missile_fumble=False, coward_turns=1)
    policies = {**JAVELIN_POLICIES, "b_allocate": ("parametric", [0.0, 0.0, 1.0])}
    r = romesim.simulate(sc, N, seed=12, policies=policies)
    for metric, p in (("p_mercy_granted", F(1, 6)), ("p_mercy_refused", F(1, 3)), ("p_by_cowardice", F(1, 2))):
        _close(r, metric, p)
    _close(r, "damage_dealt_a", F(7, 4), mean=True)


@pytest.mark.parametrize("rank, changes, spared", [
    ("tiro", {}, F(1, 3)), ("veteranus", {}, F(2, 3)), ("veteranus", {"mercy_vet_cumulative": False}, F(1, 2))])
def test_voluntary_appeal_at_turn_start_12_4(rank, changes, spared):
    # A appeals at the first checkpoint (HP 10 <= 10): the duel ends at once; B wins either way (12.2)
    sc = duel(rank_a=rank, **changes)
    r = romesim.simulate(sc, N, seed=3, policies={"a_appeal": ("parametric", [10.0])})
    assert r.estimate("p_loss") == 1 and r.estimate("turns") == 1 and r.estimate("ap_allocated_a") == 0
    _close(r, "p_mercy_granted", spared)


def test_double_cowardice_jug_a62():
    # nobody can reach the other (1 AP each, all in reserve, distance 3): both reach 2 turns without an attack
    sc = duel(a=DAGGER_B, b=DAGGER_B, start_distance=3, coward_turns=2)
    still = {"a_allocate": ("parametric", [0.0, 0.0, 1.0]), "b_allocate": ("parametric", [0.0, 0.0, 1.0])}
    r = romesim.simulate(sc, 500, seed=1, policies=still)
    assert r.estimate("p_both_out") == 1 and r.estimate("p_by_cowardice") == 1 and r.estimate("turns") == 2
    # coward_excuse_unable (JUG-A57): turns he could not attack do not count; the safety cap then stops it (2)
    sc = sc.replace(coward_excuse_unable=True, max_turns=4)
    r = romesim.simulate(sc, 500, seed=1, policies=still)
    assert r.estimate("p_unfinished") == 1 and r.estimate("turns") == 4


@pytest.mark.parametrize("location, p_loss", [("rolled", F(7, 12)), ("aimed", F(1))])
def test_aimed_location_jug_a11(location, p_loss):
    # the javelin duel above against a B armoured -3 everywhere but the right leg. Rolled (9.1): the right leg
    # (1/6) always loses HP, another zone (5/6) only on a natural >= 4: 1/6 + 5/6 * 1/2 = 7/12. Aimed (JUG-A11):
    # the default bot names the unarmoured right leg, so every hit costs HP. A hit that costs HP ends in an appeal
    # spared 1/3; otherwise B is executed as a coward.
    armoured = {"ap": 1, "weapons": ["dagger"], "head": -3, "thorax": -3, "left_arm": -3, "right_arm": -3,
                "left_leg": -3}
    sc = duel(a=JAVELIN_A, b=armoured, start_distance=3, missile_fumble=False, coward_turns=1, location=location)
    r = romesim.simulate(sc, N, seed=13, policies=JAVELIN_POLICIES)
    _close(r, "p_mercy_granted", F(2, 3) * p_loss * F(1, 3))
    _close(r, "p_by_cowardice", 1 - F(2, 3) * p_loss)


@pytest.mark.parametrize("defend", [("parametric", [1.0, 9.0]), ("parametric", [9.0, 1.0])])
def test_parry_and_dodge_stop_every_assault_jug_a14_a15(defend):
    # 7 (reserve reactions): A's spear (reach 2) makes one assault a turn; B keeps 2 RP and parries (first case)
    # or dodges straight away (second): both are automatic once paid (JUG-A14), so no HP is ever lost; B never
    # attacks and is executed as a coward at the end of turn 1 (coward_turns = 1)
    sc = duel(a=custom(ap=2, weapons=("spear",)), b=custom(ap=2, weapons=("dagger",)), coward_turns=1)
    policies = {"a_allocate": ("parametric", [1.0, 0.0, 0.0]), "b_allocate": ("parametric", [0.0, 0.0, 2.0]),
                "b_defend": defend}
    r = romesim.simulate(sc, 4000, seed=4, policies=policies)
    assert r.estimate("damage_dealt_a") == 0 and r.estimate("p_by_cowardice") == 1 and r.estimate("p_win") == 1
    assert r.estimate("ap_spent_b") == 2 and r.estimate("fumbles_a") == 0  # a stopped assault rolls no die


def _close(r, metric, p, mean=False):
    got, want = r.estimate(metric), float(p)
    if mean:
        i = r.metrics.index(metric)
        se = np.sqrt(max(r.sumsq[i] / r.n - (r.sums[i] / r.n) ** 2, 0) / r.n)
    else:
        se = np.sqrt(want * (1 - want) / r.n)
    assert abs(got - want) <= 5 * se, (metric, got, want)


def _without(result, metric):
    """A copy of a Result without one metric (for a metric with no exact value)."""
    keep = [m for m in result.metrics if m != metric]
    idx = [result.metrics.index(m) for m in keep]
    if result.exact_values is not None:
        return Result(result.scenario, tuple(keep), exact={m: result.exact_values[m] for m in keep}, policies={})
    return Result(result.scenario, tuple(keep), n=result.n, seed=result.seed, sums=result.sums[idx],
                  sumsq=result.sumsq[idx], policies={}, generator=result.generator)


# -------------------------------------------------------------------------------------- runs from Python, TOML, CLI
def test_runs_from_python_toml_and_cli(tmp_path, capsys):
    sc = duel(a="retiarius", b="secutor")
    r = romesim.simulate(sc, 3000, seed=5)
    assert r.estimate("p_win") + r.estimate("p_loss") + r.estimate("p_both_out") + r.estimate("p_unfinished") \
        == pytest.approx(1)
    path = tmp_path / "duel.toml"
    path.write_text("n = 3000\nseed = 5\n" + sc.to_toml())
    loaded, settings = romesim.load_toml(path)
    assert loaded == sc and settings == {"n": 3000, "seed": 5}
    assert main(["run", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["metrics"]["p_win"]["estimate"] == r.estimate("p_win")
    assert main(["run", DUEL, "--set", "a=retiarius", "--set", "b=secutor", "-n", "3000", "--seed", "5",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["metrics"]["p_win"]["estimate"] == r.estimate("p_win")


def test_reproducible_whatever_the_chunking():
    sc = duel(a="dimachaerus", b="laquearius")
    one = romesim.simulate(sc, 3000, seed=9, keep=True).outcomes
    two = romesim.simulate(sc, 3000, seed=9, keep=True, chunk=700).outcomes
    assert one.equals(two)


# ------------------------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize("params, words", [
    ({"a": "gladiolus"}, ["a:", "gladiolus", "retiarius"]),
    ({"a": {"ap": 9}}, ["a:", "weapons"]),
    ({"a": {"ap": 9, "weapons": ["bow"]}}, ["a.weapons", "glaive"]),
    ({"a": {"ap": 9, "weapons": ["glaive"], "head": -5}}, ["a.head", "-4"]),
    ({"b": {"ap": 9, "weapons": ["glaive"], "shield": "tower"}}, ["b.shield", "scutum"]),
    ({"a": {"ap": 0, "weapons": ["glaive"]}}, ["a.ap", "1 to 20"]),
    ({"a": {"ap": 9, "weapons": ["glaive"], "wings": 2}}, ["a:", "wings"]),
    ({"a": {"ap": 9, "weapons": ["glaive"]}, "custom_build": "base14"}, ["a.ap", "base14"]),
    ({"bonus_hp_a": 1}, ["bonus_hp_a", "tiro"]),
    ({"rank_b": "speciarius", "bonus_hp_b": 1, "bonus_ap_b": 1}, ["bonus_hp_b", "at most 1"]),
    ({"coward_turns": 0}, ["coward_turns"]),
    ({"melee_to_hit": 7}, ["melee_to_hit", "2 to 6"]),
    ({"arena_radius": 2}, ["arena_radius"]),
    ({"max_turns": 0}, ["max_turns"]),
])
def test_bad_input_names_field_value_and_domain(params, words):
    with pytest.raises(romesim.ScenarioError) as info:
        duel(**params)
    for w in words:
        assert w in str(info.value), (w, str(info.value))


def test_custom_gladiator_base14_jug_a31():
    # parma 1 + closed helmet 2 + two metal greaves 1 + 1 = 5: AP 14 - 5 = 9 (the Samnis-like build)
    sc = duel(a={"weapons": ["glaive"], "shield": "parma", "head": -4, "left_leg": -3, "right_leg": -3},
              custom_build="base14")
    assert sc.gladiators()[0][0, cb.G_AP] == 9


def test_side_policies_helper():
    p = pol.side_policies("b", "aggressive")
    assert len(p) == len(pol.POINT_NAMES) == 15 and all(k.startswith("b_") for k in p)
    with pytest.raises(ValueError):
        pol.side_policies("c")


def test_ap_override_is_the_type_with_that_many_action_points():
    # table 14: ap_a / ap_b replace the type's AP (before the career bonus, 13); the same duel as a custom copy
    from romesim.jugule.matchups import as_custom

    # table 14: the Thraex (late) has 9 AP, the Murmillo 8; a custom table differs only in its type id
    by_knob = romesim.scenario("jugule.duel", a="thraex_late", b="murmillo", ap_a=11, ap_b=7)
    by_table = romesim.scenario("jugule.duel", a=as_custom("thraex_late", 11 - 9), b=as_custom("murmillo", 7 - 8))
    (rows, items), (custom_rows, custom_items) = by_knob.gladiators(), by_table.gladiators()
    assert list(rows[:, G_AP]) == [11, 7]
    assert np.array_equal(np.delete(rows, G_TYPE, axis=1), np.delete(custom_rows, G_TYPE, axis=1))
    assert np.array_equal(items, custom_items)
    assert romesim.scenario("jugule.duel", a="thraex_late", ap_a=0).gladiators()[0][0, G_AP] == 9
    with pytest.raises(romesim.ScenarioError, match="ap_a: 21 is not allowed; expected an integer from 0 to 20"):
        romesim.scenario("jugule.duel", ap_a=21)


# ------------------------------------------------------------------------------------------------ D4, 5, 12.6
@pytest.mark.parametrize("ap, distance, split", [(4, 2, (1, 2)), (5, 2, (1, 2)), (4, 3, (2, 2)), (13, 2, (2, 8)),
                                                 (5, 4, (3, 2)), (5, 5, (3, 0))])
def test_d4_default_split_attacks_when_closing_in(ap, distance, split):
    """5, 12.6, D4: « Si pendant 3 tours un gladiateur ne porte pas d'attaque, il est considéré comme lâche et est
    exécuté » (a gladiator who makes no attack for 3 turns is deemed a coward and executed). Closing in with a
    reach-1 weapon, the default split pays the steps into reach, then one assault (2 CP) before its reserve and a
    spare MP; a 4-5 AP gladiator kept 0 CP on such turns. Far away (no attack possible) it moves."""
    state = np.zeros(pol.STATE_SIZE, np.int64)
    state[pol.S_AP], state[pol.S_DIST], state[pol.S_REACH], state[pol.S_TURN] = ap, distance, 1, 1
    action = pol._allocate(pol.CODE_DEFAULT, np.zeros(8), state, new_stream())
    assert divmod(action, 100) == split


@pytest.mark.parametrize("turn, ap, distance, split", [(10, 11, 2, (2, 6)), (11, 11, 2, (3, 8)), (11, 11, 1, (1, 10)),
                                                       (11, 9, 5, (5, 4)), (10, 9, 5, (5, 2))])
def test_the_default_split_keeps_no_reserve_point_after_the_all_in_turn(turn, ap, distance, split):
    """JUG-A15 c (``dodge_mode = per_hex``): « esquiver le filet : 1 point par hexagone » read for every dodge, an
    assault is dodged out of reach for 1 RP. From ``ALL_IN_TURN`` + 1 the default split keeps no reserve, the odd
    point an even combat allowance leaves included. Worked by hand, 11 AP closing in from distance 2 (1 step):
    on turn 10, M = 1 step + 1 spare, R = 2, C = 11 - 2 - 2 = 7 made even, 6, its odd point to R (M 2, C 6, R 3);
    on turn 11, R = 0, C = 11 - 2 = 9 made even, 8, its odd point to M (M 3, C 8, R 0). Engaged with 11 AP: C 10,
    M 1. 9 AP from distance 5 (4 steps): M 5 and C 4 on turn 11, M 5, C 2, R 2 on turn 10."""
    state = np.zeros(pol.STATE_SIZE, np.int64)
    state[pol.S_AP], state[pol.S_DIST], state[pol.S_REACH], state[pol.S_TURN] = ap, distance, 1, turn
    m, c = divmod(pol._allocate(pol.CODE_DEFAULT, np.zeros(8), state, new_stream()), 100)
    assert (m, c) == split and c % 2 == 0
    if turn > pol.ALL_IN_TURN:
        assert m + c == ap


def test_per_hex_dodges_no_longer_stall_two_default_bots():
    """JUG-A15 c: two Thraces (early, 11 AP) under ``dodge_mode = per_hex`` each put one assault into reach every
    turn, and the other dodged it out of reach with the one reserve point its split kept: 34 % of the duels ran to
    the 500-turn guard (400 duels, seed 0). With no reserve point kept after ``ALL_IN_TURN`` every duel ends, by a
    death, mercy or cowardice, as the invariants ask of built-in bots."""
    got = romesim.simulate(romesim.scenario("jugule.duel", a="thraex_early", b="thraex_early", dodge_mode="per_hex"),
                           400, seed=0)
    assert got["p_unfinished"] == 0 and got["turns"] < 50


def test_d4_crupellarius_is_no_longer_executed_as_a_coward_most_of_the_time():
    """12.6: Crupellarius (4 AP) against Hoplomachus ended by cowardice in 82 % of duels when the default split left
    him no combat point while closing in; now he attacks and cowardice ends far fewer."""
    got = romesim.simulate(romesim.scenario("jugule.duel", a="crupellarius", b="hoplomachus"), 2_000, seed=9)
    assert got["p_by_cowardice"] < 0.5


# ------------------------------------------------------------------------------------------------ user functions
# Each point's `state` tuple names entry i at position i: a user bot reads its entries by those names only.
POINT = {dp.name[2:]: dp for dp in pol.DUEL_POINTS[:pol.N_POINTS]}


def at(point, name):
    return POINT[point].state.index(name)


AP = at("allocate", "ap")
HEAD_ALLOWED = at("scutum_zone", "head_allowed")
MOVE_MASK = np.array([at("move", f"legal_{a}") for a in pol.MOVE_ACTIONS])
ATTACK_MASK = np.array([at("attack", f"legal_{a}") for a in pol.ATTACK_ACTIONS])
FREE_MASK = np.array([at("free_assault", f"legal_{a}") for a in pol.ATTACK_ACTIONS])
REACT_MASK = np.array([at("react", f"legal_{a}") for a in pol.REACT_ACTIONS])
PARRY_LEGAL, DODGE_LEGAL = at("defend", "parry_legal"), at("defend", "dodge_legal")
SCYTHE_LEGAL, ESCAPE_LEGAL = at("net_escape", "scythe_legal"), at("net_escape", "escape_legal")
COUNT = at("hex_choice", "count")
ARCS = np.array([at("hex_choice", f"arc{i}") for i in range(pol.H_MAX)])
ARMOUR = np.array([at("aim", f"armour_{z}") for z in cb.ZONES])
THORAX, LEFT_LEG, HEAD = (at("scutum_zone", f"{z}_armour") for z in ("thorax", "left_leg", "head"))
ZONE, LOSS, KIND = at("defend", "zone"), at("defend", "expected_loss"), at("defend", "attack_kind")
DEFEND_AP = at("defend", "ap")
TOTAL, RATING, RESERVE = at("knockdown", "total"), at("knockdown", "ap_rating"), at("knockdown", "R")


@njit
def _pick_legal(state, mask, codes, stream):
    n = 0
    for i in range(mask.size):
        n += state[mask[i]]
    if n == 0:
        return 0
    pick = cb.dn(stream, n)
    for i in range(mask.size):
        if state[mask[i]] == 1:
            pick -= 1
            if pick == 0:
                return codes[i]
    return 0


@njit
def random_coin(state, params, stream):
    return cb.dn(stream, 2) - 1


@njit
def random_allocate(state, params, stream):
    ap = state[AP]
    pick = cb.dn(stream, (ap + 1) * (ap + 2) // 2) - 1
    for m in range(ap + 1):
        if pick <= ap - m:
            return m * 100 + pick
        pick -= ap - m + 1
    return 0


@njit
def random_scutum_zone(state, params, stream):
    pick = cb.dn(stream, 3 if state[HEAD_ALLOWED] == 1 else 2)
    return 0 if pick == 1 else (3 if pick == 2 else 5)


@njit
def random_move(state, params, stream):
    return _pick_legal(state, MOVE_MASK, pol.MOVE_CODES, stream)


@njit
def random_react(state, params, stream):
    return _pick_legal(state, REACT_MASK, pol.REACT_CODES, stream)


@njit
def random_attack(state, params, stream):
    return _pick_legal(state, ATTACK_MASK, pol.ATTACK_CODES, stream)


@njit
def random_free_assault(state, params, stream):
    return _pick_legal(state, FREE_MASK, pol.ATTACK_CODES, stream)


@njit
def random_defend(state, params, stream):
    parry, dodge = state[PARRY_LEGAL] == 1, state[DODGE_LEGAL] == 1
    pick = cb.dn(stream, 1 + int(parry) + int(dodge))
    if pick == 1:
        return 0
    return 1 if parry and pick == 2 else 2


@njit
def random_net_escape(state, params, stream):
    pick = cb.dn(stream, 1 + state[SCYTHE_LEGAL] + state[ESCAPE_LEGAL]) - 1
    if pick == 0:
        return 0
    return 1 if state[ESCAPE_LEGAL] == 1 and pick == 1 else 2


@njit
def random_knockdown(state, params, stream):
    return cb.dn(stream, state[RESERVE] + 1) - 1


@njit
def random_hex_choice(state, params, stream):
    return cb.dn(stream, state[COUNT]) - 1


@njit
def random_aim(state, params, stream):
    return cb.dn(stream, 6) - 1


RANDOM_BOT = {"appeal": random_coin, "allocate": random_allocate, "scutum_zone": random_scutum_zone,
              "move": random_move, "react": random_react, "attack": random_attack, "defend": random_defend,
              "net_escape": random_net_escape, "spoil": random_coin, "stumble": random_coin, "recover": random_coin,
              "free_assault": random_free_assault, "knockdown": random_knockdown, "hex_choice": random_hex_choice,
              "aim": random_aim}


@njit
def default_scutum_zone(state, params, stream):
    best, best_armour = 0, state[THORAX]
    if state[LEFT_LEG] < best_armour:
        best, best_armour = 3, state[LEFT_LEG]
    if state[HEAD_ALLOWED] == 1 and state[HEAD] < best_armour:
        best = 5
    return best


@njit
def default_defend(state, params, stream):
    parry, dodge = state[PARRY_LEGAL] == 1, state[DODGE_LEGAL] == 1
    if state[KIND] == pol.AK_LASSO:
        return 1 if parry else (2 if dodge else 0)
    if state[KIND] == pol.AK_BASH:
        if state[DEFEND_AP] > 10:
            return 0
        return 1 if parry else (2 if dodge else 0)
    if parry and state[LOSS] >= 1:
        return 1
    if dodge and state[LOSS] >= 3:
        return 2
    return 0


@njit
def default_net_escape(state, params, stream):
    if state[SCYTHE_LEGAL] == 1:
        return 2
    return 1 if state[ESCAPE_LEGAL] == 1 else 0


@njit
def default_knockdown(state, params, stream):
    if state[TOTAL] < 0:
        return min(state[RESERVE], 2)
    need = state[TOTAL] - state[RATING] + 1
    return need if 0 < need <= state[RESERVE] else 0


@njit
def default_hex_choice(state, params, stream):
    best, ties = 3, 0
    for i in range(state[COUNT]):
        arc = state[ARCS[i]]
        if arc < best:
            best, ties = arc, 1
        elif arc == best:
            ties += 1
    pick = cb.dn(stream, ties) if ties > 1 else 1
    for i in range(state[COUNT]):
        if state[ARCS[i]] == best:
            pick -= 1
            if pick == 0:
                return i
    return 0


@njit
def default_aim(state, params, stream):
    best, best_armour = 0, 1 << 30
    for z in range(6):
        armour = state[ARMOUR[z]]
        if 0 <= armour < best_armour:
            best, best_armour = z, armour
    return best


DEFAULT_BOT = {"scutum_zone": default_scutum_zone, "defend": default_defend, "net_escape": default_net_escape,
               "knockdown": default_knockdown, "hex_choice": default_hex_choice, "aim": default_aim}


def test_d3_d16_state_names_are_the_kernel_layout():
    """Every point's `state` names each entry at its absolute index (what `romesim.describe` prints)."""
    for dp in pol.DUEL_POINTS:
        assert dp.state[:pol.S_X] == pol.HEADER and len(set(dp.state)) == len(dp.state) <= pol.STATE_SIZE
    assert at("attack", "legal_pass") == at("move", "legal_pass") == pol.S_X
    assert at("attack", "kind_0") == at("free_assault", "kind_0") == pol.ATTACK_KINDS
    assert len(pol.MOVE_ACTIONS) == pol.MOVE_CODES.size and len(pol.ATTACK_ACTIONS) == pol.ATTACK_CODES.size
    assert at("react", "legal_nothing") == pol.REACT_MASK and len(pol.REACT_ACTIONS) == pol.REACT_CODES.size
    assert (at("hex_choice", "q0"), at("hex_choice", "r11"), at("hex_choice", "arc0")) == (
        pol.H_PAIRS, pol.H_ARCS - 1, pol.H_ARCS)
    assert (ZONE, LOSS, PARRY_LEGAL, DODGE_LEGAL, KIND) == (pol.D_ZONE, pol.D_LOSS, pol.D_PARRY, pol.D_DODGE,
                                                             pol.D_KIND)
    assert (at("net_escape", "rp_needed"), SCYTHE_LEGAL, ESCAPE_LEGAL) == (pol.N_NEED, pol.N_SCYTHE, pol.N_ESCAPE)
    assert at("aim", "attack_kind") == pol.S_X + 6 and at("hex_choice", "count") == pol.H_COUNT


@pytest.mark.parametrize("a, b, options", [("retiarius", "secutor", {}),
                                           ("laquearius", "dimachaerus", {"location": "aimed"})])
def test_d3_d16_user_functions_by_state_names_replay_the_random_bot(a, b, options):
    """A user function on every point of both sides, reading the state by its names, plays the `random`
    built-in's duels game by game."""
    sc = duel(a=a, b=b, **options)
    users = {f"{s}_{p}": fn for s in "ab" for p, fn in RANDOM_BOT.items()}
    builtin = {f"{s}_{p}": "random" for s in "ab" for p in RANDOM_BOT}
    got = romesim.simulate(sc, 1_000, seed=21, policies=users, keep=True).outcomes
    want = romesim.simulate(sc, 1_000, seed=21, policies=builtin, keep=True).outcomes
    assert got.equals(want)


@pytest.mark.parametrize("a, b", [("retiarius", "secutor"), ("laquearius", "murmillo")])
def test_d5_d16_user_functions_by_state_names_replay_the_default_bot(a, b):
    """The default bot's points that read point-specific entries (scutum, defence, net, knockdown, hex, aim),
    rewritten as user functions on both sides, play the same duels as the built-in."""
    sc = duel(a=a, b=b, location="aimed")
    users = {f"{s}_{p}": fn for s in "ab" for p, fn in DEFAULT_BOT.items()}
    got = romesim.simulate(sc, 2_000, seed=22, policies=users, keep=True).outcomes
    want = romesim.simulate(sc, 2_000, seed=22, keep=True).outcomes
    assert got.equals(want)


@njit
def split_too_much(state, params, stream):
    return (state[AP] + 1) * 100


def test_d4_illegal_user_action_names_the_side_point_and_game():
    with pytest.raises(romesim.PolicyError, match=r"'b_allocate' \(D4 \(B\)\): illegal action \d+ in game 0"):
        romesim.simulate(duel(), 100, seed=1, policies={"b_allocate": split_too_much})
