"""Plain-Python reference procedures, written from the rules independently of the kernels.

Each takes the scenario, a dice source (``PyStream`` for the same dice as the kernel's game, or the exact
enumerator of ``romesim.core.exact``) and the names of the built-in policies, and returns the outcome tuple in
the scenario's metric order. The tests require per-game equality with the kernels; ``exact_solution`` enumerates
these procedures over every dice sequence.
"""


def siege(s, dice, policy):
    """KoR 5.5 a-c with the options of KOR-A6..A11, A22 (astutia_in_siege), A34 and A37."""
    out = dict(p_win=0, p_submit=0, p_city_taken=0, p_abandon=0, ip=0, vp=0, hostile_reactions=0,
               tokens_r_to_nr=0, tokens_nr_to_r=0, nr_units_lost=0, p_leader_captured=0)
    king_led = s.commander == "king" or (s.commander == "interrex" and s.king_equivalents)
    omen = 1 if s.good_omen else 0
    astutia = [s.astutia if s.astutia_in_siege else 0]
    dice_rolled = [0]

    def first_ok(total, value):
        return total >= 2 * value if s.siege_first_roll_test == "ge_double" else total > 2 * value

    def second_ok(total, criterion):
        g_ok = s.garrison > 0 and (total == 2 * (s.garrison + 1) if s.siege_second_roll_test == "eq_double"
                                   else total >= 2 * (s.garrison + 1))
        l_ok = s.leader > 0 and total > s.leader
        return {"garrison": g_ok, "leader": l_ok, "either": g_ok or l_ok}[criterion]

    def roll(test, which_roll):
        die = dice.d6()
        dice_rolled[0] += 1
        while not test(die + omen) and astutia[0] > 0:
            winnable = any(test(f + omen) for f in range(1, 7))
            if policy["reroll"] == "never" or not winnable:
                break
            if policy["reroll"] == "reserve" and which_roll == "a" and astutia[0] <= policy.get("reroll_keep", 1):
                break
            astutia[0] -= 1
            die = dice.d6()
            dice_rolled[0] += 1
        return test(die + omen)

    def reward():
        if king_led:
            out["vp" if s.siege_king_win_reward == "plus3_vp" else "ip"] += 3
        else:
            out["vp"] += 1

    # roll a (KOR-A6, KOR-A7)
    both = s.garrison > 0 and s.leader > 0
    target = s.leader if s.leader > 0 else s.garrison
    if both:
        mode = s.siege_first_roll_target
        if mode == "garrison_only":
            target = s.garrison
        elif mode == "max_of_both":
            target = max(s.garrison, s.leader)
        elif mode == "player_choice":
            choice = policy["first_target"]
            if choice == "best":
                choice = "leader" if s.leader < s.garrison else "garrison"
            target = s.leader if choice == "leader" else s.garrison
    siege_rolls = 1
    if roll(lambda t: first_ok(t, target), "a"):
        out.update(p_win=1, p_submit=1, p_city_taken=1, nr_units_lost=s.nr_units)
        out["p_leader_captured"] = int(s.leader > 0 and s.siege_first_roll_leader_fate == "captured")
        out["ip"] += 2
        if s.siege_first_roll_reward == "a_plus_c":
            reward()
    else:
        siege_rolls = 2
        criterion = "either"
        if s.siege_second_roll_choice == "declare_before_roll" and both:
            criterion = policy["second_criterion"]
            if criterion == "best":
                g_faces = sum(second_ok(f + omen, "garrison") for f in range(1, 7))
                l_faces = sum(second_ok(f + omen, "leader") for f in range(1, 7))
                criterion = "leader" if l_faces > g_faces else "garrison"
        if roll(lambda t: second_ok(t, criterion), "b"):
            out["p_win"] = 1
            city = {"garrison": s.garrison > 0, "leader": s.leader > 0, "units": s.nr_units}
            captured = False
            for loss in range(2 if king_led else 1):
                if not (city["garrison"] or city["leader"] or city["units"]):
                    break
                if king_led and loss == 1 and city["leader"]:
                    pick = "leader"  # one of the King's two losses must be the NR leader (5.5 b)
                else:
                    order = {"garrison_first": ("garrison", "units", "leader"),
                             "leader_first": ("leader", "garrison", "units"),
                             "units_first": ("units", "garrison", "leader")}[policy["losses"]]
                    pick = next(t for t in order if city[t])
                if pick == "units":
                    city["units"] -= 1
                    out["nr_units_lost"] += 1
                else:
                    city[pick] = False
                    captured = captured or pick == "leader"
            if city["leader"] and not city["garrison"] and not city["units"]:
                city["leader"], captured = False, True  # left alone in the city
            if s.siege_second_roll_effect == "city_falls":
                out["nr_units_lost"] += city["units"]
                captured = captured or (city["leader"] and s.siege_first_roll_leader_fate == "captured")
                out["p_city_taken"] = 1
            else:
                out["p_city_taken"] = int(not city["garrison"] and not city["units"])
            out["p_leader_captured"] = int(captured)
            reward()
    if out["p_win"]:
        out["tokens_nr_to_r"] = 1
    else:
        out.update(p_abandon=1, tokens_r_to_nr=2)
        if king_led:
            out["ip"] -= 2
        else:
            out["vp"] -= 1
        accused = s.commander == "tribune" or (s.commander == "general"
                                               and s.ignominy_eligible == "tribuni_and_generals")
        if accused and s.ignominy_trial == "mandatory":
            out["ip"] += ignominy_ip(dice.two_d6() - 1, s)
        if s.commander == "tribune" and s.tribune_defeat_stack == "stack":
            out["ip"] -= 1
    rerolls = dice_rolled[0] - siege_rolls
    out["hostile_reactions"] = siege_rolls + (rerolls if s.siege_reaction_count == "all_dice_including_rerolls"
                                              else 0)
    return tuple(out.values())


def ignominy_ip(result, s):
    """IP change of a trial whose modified 2d6 is ``result`` (5.7.11, KOR-A37)."""
    acquitted = result > 8 or (result == 8 and s.ignominy_equal_8 == "acquitted")
    return -3 if (not acquitted or s.ignominy_ip_loss == "always") else 0


def ignominy(s, dice, policy):
    """KoR 5.7.11: acquittal iff 2d6 - 2 (battle) or - 1 (siege) > 8."""
    result = dice.two_d6() - (2 if s.lost == "battle" else 1)
    acquitted = result > 8 or (result == 8 and s.ignominy_equal_8 == "acquitted")
    return int(acquitted), ignominy_ip(result, s)


def treason_ip_spent(s, policy):
    """DP-T01 under the built-in policies: never spend down to 0 IP (C7)."""
    wanted = {"fixed": s.ip_spent, "none": 0, "max": 3}[policy["ip_spent"]]
    return min(wanted, s.ip_available - 1)


def treason(s, dice, policy):
    """KoR 6.3: the garrison flips iff d6 - k > its Virtus; a failed treason gives Rome +1 VP."""
    k = treason_ip_spent(s, policy)
    failed = dice.d6() - k <= s.garrison
    return int(failed), -k, int(failed)
