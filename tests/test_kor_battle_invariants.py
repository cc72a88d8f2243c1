"""KoR 5.7 battle invariants over hypothesis-generated armies, options and built-in policies: every battle ends,
no count goes negative, a unit is never both lost and alive, the track follows 5.7.7 and the pre-battle penalties
are the sum of the points of 5.7.8 (recomputed here from the rule table, independently of the kernel)."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import romesim
from romesim.core.errors import ScenarioError
from romesim.kings_of_rome.armies import PEOPLES
from romesim.kings_of_rome.policies import BATTLE_POINTS

BATTLE = "kings_of_rome.battle"
ENDINGS = ["p_end_withdrawal", "p_end_spolia", "p_end_defence_defence", "p_end_retreat_round", "p_end_stopped",
           "p_end_phase3"]
FULL_CAPACITY_RANKS = ("king", "interrex", "rex_vicarius", "magister_populi", "general")


def roman_unit(kind, virtus, roman_class, back):
    return {"kind": kind, "virtus": virtus, "roman_class": 1 if kind == "cavalry" else roman_class, "back": back}


roman_units = st.lists(st.builds(roman_unit, st.sampled_from(["infantry", "cavalry"]), st.integers(1, 6),
                                 st.integers(1, 5), st.sampled_from(["other", "captivi", "latins", "gauls"])),
                       min_size=3, max_size=8)
nr_units = st.lists(st.fixed_dictionaries({"kind": st.sampled_from(["infantry", "cavalry"]),
                                           "virtus": st.integers(1, 6),
                                           "back": st.sampled_from(["other", "captivi", "roman_II", "roman_IV"])}),
                    min_size=1, max_size=8)
roman_leaders = st.lists(st.fixed_dictionaries({"rank": st.sampled_from(["king", "magister_populi",
                                                                        "magister_equitum", "tribunus_populi",
                                                                        "tribunus_celerum", "general"]),
                                                "virtus": st.integers(1, 6), "astutia": st.integers(0, 3)}),
                         max_size=3)
nr_leaders = st.lists(st.fixed_dictionaries({"virtus": st.integers(1, 6), "astutia": st.integers(0, 3)}),
                      max_size=2)
OPTIONS = {
    "vanguard_model": ["pair_duels", "melee_until_side_wiped"], "vanguard_matching": ["equal_numbers", "even_total"],
    "astutia_scope_battle": ["phase3_only", "all_battle_rolls"], "battle_tie_rule": ["no_winner", "defender_wins"],
    "reserve_infantry_fill": ["infantry_boxes_only", "any_vacated_box"], "leader_attack_test": ["gt", "ge"],
    "leader_alone_box_counts_empty": [True, False], "nr_leaderless_capacity": ["4_inf_2_cav", "unlimited"],
    "spolia_round_mode": ["simultaneous_repeat", "simultaneous_single_round", "sequential_roman_first"],
    "retreat_round_scoring": ["casualties_only", "track_result_without_triumph"], "attacker": ["rome", "nr"],
    "roman_action": [True, False], "good_omen": [True, False], "roman_cavalry_class_drm": ["none", "plus2"],
    "nr_reserve_cav_fallback": ["attack_leader", "idle"], "nr_people": ["latins", "gauls", "sabines"],
}
options = st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in OPTIONS.items()})
# every Roman decision point under one of its built-ins (the parametric ones with a random vector)
policies = st.fixed_dictionaries({}, optional={
    dp.name: st.sampled_from([b for b in dp.builtins if b != "parametric"]) | st.tuples(
        st.just("parametric"), st.lists(st.floats(-2, 6), min_size=len(dp.builtins["parametric"].params),
                                        max_size=len(dp.builtins["parametric"].params)))
    for dp in BATTLE_POINTS if "parametric" in dp.builtins})


def play(params, policy, n=200):
    try:
        scenario = romesim.scenario(BATTLE, **params)
    except ScenarioError:
        return None
    return romesim.simulate(scenario, n, seed=17, policies=policy, keep=True).outcomes


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(roman_units, nr_units, roman_leaders, nr_leaders, options, policies)
def test_every_battle_ends_with_consistent_counts(ru, nu, rl, nl, opts, policy):
    out = play(dict(roman_units=ru, nr_units=nu, roman_leaders=rl, nr_leaders=nl, **opts), policy)
    if out is None:
        return
    assert ((out["p_win"] + out["p_loss"] + out["p_no_winner"]) == 1).all()
    assert (out[ENDINGS].sum(axis=1) == 1).all()
    for side, army in (("roman", ru), ("nr", nu)):
        lost, captured = out[f"{side}_units_lost"], out[f"{side}_units_captured"]
        assert (lost >= 0).all() and (captured >= 0).all() and (captured <= lost).all()
        assert (lost <= len(army)).all()
        captivi = sum(u["back"] == "captivi" for u in army)
        assert (captured <= captivi).all()
        # 5.7.7: the score is -min(points, 19); 5.7.8: each loss costs 1 to 3 points
        assert (out[f"{side}_score"] == -out[f"{side}_penalty"].clip(upper=19)).all()
        extra = out[f"{side}_penalty"] - out[f"{side}_pre_penalty"]
        assert (extra >= lost).all() and (extra <= 3 * lost).all()
        bands = out[[f"p_{side}_score_0", f"p_{side}_score_1_4", f"p_{side}_score_5_9", f"p_{side}_score_10_19"]]
        assert (bands.sum(axis=1) == 1).all()
    # infantry of class III-V (Rome) and NR infantry cost exactly 1 point each
    if all(u["kind"] == "infantry" and u["roman_class"] >= 3 for u in ru):
        assert (out["roman_penalty"] - out["roman_pre_penalty"] == out["roman_units_lost"]).all()
    if all(u["kind"] == "infantry" for u in nu):
        assert (out["nr_penalty"] - out["nr_pre_penalty"] == out["nr_units_lost"]).all()
    assert ((out["phase3_rounds"] == 0) | (out["p_end_phase3"] == 1)).all()
    assert (out["tokens_nr_to_r"] == 2 * out["p_win"]).all() and (out["tokens_r_to_nr"] == 2 * out["p_loss"]).all()
    assert out["hostile_reactions"].isin([0, 1, 2]).all()
    assert ((out["p_triumph"] == 0) | (out["p_win"] == 1)).all()


def pre_battle_points(ru, nu, leader, nr_led, people, roman_adjacent, nr_adjacent, per_unit):
    """5.7.8 P1-P7 for armies that fight whole (within 4 infantry + 2 cavalry), from the rule table."""
    def garrisons(values):
        return 2 if 3 in values else (1 if values else 0)  # KOR-A27 max_not_sum

    def backs(count):
        return count if per_unit else min(count, 1)  # KOR-A28

    roman = (0 if leader else 1) + garrisons(roman_adjacent) + backs(sum(u["back"] == people for u in ru))
    nr = (0 if nr_led else 1) + garrisons(nr_adjacent) + backs(
        sum(u["back"] in ("roman_I", "roman_II", "roman_III") for u in nu))
    roman_cav = sum(u["kind"] == "cavalry" for u in ru) + (1 if leader else 0)
    nr_cav = sum(u["kind"] == "cavalry" for u in nu) + (1 if nr_led else 0)
    roman += 2 if roman_cav < nr_cav else 0
    nr += 2 if nr_cav < roman_cav else 0
    roman += 2 if people in ("etruscans", "gauls") else 0
    return roman, nr


def within_capacity(units):
    return sum(u["kind"] == "infantry" for u in units) <= 4 and sum(u["kind"] == "cavalry" for u in units) <= 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(roman_units.filter(within_capacity), nr_units.filter(within_capacity), st.booleans(), st.booleans(),
       st.sampled_from(PEOPLES), st.lists(st.integers(1, 3), max_size=3), st.lists(st.integers(1, 3), max_size=3),
       st.booleans(), st.sampled_from(FULL_CAPACITY_RANKS))
def test_5_7_8_pre_battle_penalties_are_the_rule_points(ru, nu, led, nr_led, people, roman_adj, nr_adj, per_unit,
                                                         rank):
    params = dict(roman_units=ru, nr_units=nu, nr_people=people, roman_adjacent_garrisons=roman_adj,
                  nr_adjacent_garrisons=nr_adj, back_side_penalty="per_unit" if per_unit else "once",
                  roman_leaders=[{"rank": rank, "virtus": 3, "astutia": 0}] if led else [],
                  nr_leaders=[{"virtus": 3, "astutia": 0}] if nr_led else [])
    out = play(params, {}, n=50)
    assert out is not None
    want = pre_battle_points(ru, nu, led, nr_led, people, roman_adj, nr_adj, per_unit)
    assert np.array_equal(np.unique(out["roman_pre_penalty"]), [want[0]])
    assert np.array_equal(np.unique(out["nr_pre_penalty"]), [want[1]])
