"""Invariants of ``jugule.duel`` over hypothesis-generated gladiators, ranks, options and built-in bots: every duel
ends (4; the turn guard never trips with built-in bots), HP never goes below 0 nor above the maximum (12.1),
positions stay on legal hexes (15.8), AP spent never exceed AP allocated (5), and each game has exactly one result
and one way of ending (12.5)."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import romesim
from romesim.jugule.combat import option_rows
from romesim.jugule.gladiators import CARRIED, TYPES, ZONE_VALUES
from romesim.jugule.policies import BOTS, POINT_NAMES

INTEGER_VALUES = {"arena_radius": [0, 3, 4, 6], "zoc_slide_cost": [0, 1, 2, 3], "melee_to_hit": [0, 2, 4],
                  "defence_roll": [0, 3, 5], "coward_turns": [1, 2, 3, 4], "eques_javelins": [0, 2, 4],
                  "max_turns": [500]}
OPTIONS = option_rows()


def option_values(name):
    values, _ = OPTIONS[name]
    if name in INTEGER_VALUES:
        return INTEGER_VALUES[name]
    if set(values) == {"true", "false"}:
        return [True, False]
    if all(v.isdigit() for v in values):
        return [int(v) for v in values]
    return values


@st.composite
def custom_gladiators(draw):
    weapons = draw(st.lists(st.sampled_from(CARRIED), min_size=1, max_size=3, unique=True))
    g = {"ap": draw(st.integers(1, 15)), "weapons": weapons,
         "shield": draw(st.sampled_from(["none", "parma", "round", "scutum"])),
         "smooth_helmet": draw(st.booleans()), "scythe": draw(st.booleans())}
    for zone, values in ZONE_VALUES.items():
        g[zone] = draw(st.sampled_from(values))
    if "javelin" in weapons:
        g["javelins"] = draw(st.integers(1, 4))
    return g


@st.composite
def duels(draw):
    params = {}
    for side in ("a", "b"):
        params[side] = draw(st.one_of(st.sampled_from(TYPES), st.sampled_from(TYPES), custom_gladiators()))
        rank = draw(st.sampled_from(["tiro", "primus_palus", "speciarius", "veteranus"]))
        params[f"rank_{side}"] = rank
        points = {"tiro": 0, "primus_palus": 0, "speciarius": 1, "veteranus": 2}[rank]
        hp = draw(st.integers(0, points))
        params[f"bonus_hp_{side}"], params[f"bonus_ap_{side}"] = hp, draw(st.integers(0, points - hp))
    names = draw(st.lists(st.sampled_from(sorted(OPTIONS)), unique=True, max_size=12))
    for name in names:
        if name != "custom_build":
            params[name] = draw(st.sampled_from(option_values(name)))
    policies = {}
    for side in ("a", "b"):
        bot = draw(st.sampled_from(BOTS))
        policies.update({f"{side}_{p}": bot for p in POINT_NAMES})
        # now and then one point of the side plays another bot
        if draw(st.booleans()):
            policies[f"{side}_{draw(st.sampled_from(POINT_NAMES))}"] = draw(st.sampled_from(BOTS))
    return params, policies


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(duels(), st.integers(0, 2**32))
def test_duel_invariants(case, seed):
    params, policies = case
    sc = romesim.scenario("jugule.duel", **params)
    out = romesim.simulate(sc, 48, seed, policies=policies, keep=True).outcomes
    G, _ = sc.gladiators()
    hp_max = G[:, 3]  # G_HP_MAX
    ends = out[["p_win", "p_loss", "p_both_out", "p_unfinished"]].sum(axis=1)
    ways = out[["p_by_death", "p_mercy_granted", "p_mercy_refused", "p_by_cowardice", "p_unfinished"]].sum(axis=1)
    assert (ends == 1).all() and (ways == 1).all()
    if not sc.coward_excuse_unable:
        # with the cowardice clock always running, built-in bots end every duel long before the guard (2)
        assert (out["p_unfinished"] == 0).all()
    assert ((out["turns"] >= 1) & (out["turns"] <= sc.max_turns)).all()
    for side, i in (("a", 0), ("b", 1)):
        assert ((out[f"hp_left_{side}"] >= 0) & (out[f"hp_left_{side}"] <= hp_max[i])).all()
        assert (out[f"ap_spent_{side}"] <= out[f"ap_allocated_{side}"]).all()
    # only A wounds B and nothing heals: B's HP lost are exactly A's damage dealt (12.1)
    np.testing.assert_array_equal(out["damage_dealt_a"], hp_max[1] - out["hp_left_b"])
    np.testing.assert_array_equal(out["damage_dealt_b"], hp_max[0] - out["hp_left_a"])
    assert (out["off_board"] == 0).all()
    killed = out["p_by_death"] == 1
    assert ((out["hp_left_a"] == 0) | (out["hp_left_b"] == 0))[killed].all()
