"""Plain-Python reference procedures, written from the rules independently of the kernels.

Each takes the scenario, a dice source (``PyStream`` for the same dice as the kernel's game, or the exact
enumerator of ``romesim.core.exact``) and the names of the built-in policies, and returns the outcome tuple in
the scenario's metric order. The tests require per-game equality with the kernels; ``exact_solution`` enumerates
these procedures over every dice sequence.
"""


def siege(s, dice, policy):
    """KoR 5.5 a-c with the options of KOR-A6..A11, A22 (astutia_in_siege, astutia_reroll), A34 and A37, and the
    Tribune's 9.2.7.1."""
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

    chained = s.astutia_reroll == "chained"

    def winning_faces(test):
        return sum(test(f + omen) for f in range(1, 7))

    def wants_reroll(test, which_roll, b_faces):
        """DP-S05 under the built-ins: ``b_faces`` is what roll b could win with its best criterion."""
        if policy["reroll"] == "never" or not winning_faces(test):
            return False
        if which_roll == "b":
            return True
        if policy["reroll"] == "reserve":
            return astutia[0] > policy.get("reroll_keep", 1)
        # greedy: keep the last point(s) for roll b when roll b wins on more faces; under `once` roll b can use
        # a single point, so any point beyond that one may go to roll a
        return winning_faces(test) >= b_faces or (not chained and astutia[0] >= 2)

    def roll(test, which_roll, b_faces=0):
        """A siege roll; a failed die is rerolled once per Astutia point spent (5.7.9), at most once per roll
        unless astutia_reroll = chained."""
        die = dice.d6()
        dice_rolled[0] += 1
        rerolled = False
        while (not test(die + omen) and astutia[0] > 0 and (chained or not rerolled)
               and wants_reroll(test, which_roll, b_faces)):
            astutia[0] -= 1
            rerolled = True
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
    b_criteria = ("garrison", "leader") if (both and s.siege_second_roll_choice == "declare_before_roll") else (
        ("either",) if s.leader > 0 else ("garrison",))
    b_faces = max(winning_faces(lambda t, c=c: second_ok(t, c)) for c in b_criteria)
    if roll(lambda t: first_ok(t, target), "a", b_faces):
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
    if s.commander == "tribune":
        # 9.2.7.1: after the siege a victorious Tribune gains 1 IP, a defeated one loses 1 (KOR-A37 stack)
        if out["p_win"]:
            out["ip"] += 1
        elif s.tribune_defeat_stack == "stack":
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


def pillage(s, dice, policy):
    """KoR 5.4 pillage, 5.4.1 for an undefended city, with KOR-A4 and KOR-A5."""
    out = dict(p_win=0, p_romanized=0, ip=-1, vp=0, hostile_reactions=2, tokens_r_to_nr=1, nr_tokens_eliminated=0)

    def success_reward():
        out["vp"] += 1
        if s.king:
            out["ip"] += 1

    city = [("garrison", s.garrison)] if s.garrison else []
    city += [(f"unit {i + 1}", v) for i, v in enumerate(s.units)]
    if not city:
        # 5.4.1: nothing to fight; the reactions and adjustment come from 5.4 unless KOR-A5 says none
        out["p_win"] = 1
        if s.undefended_city_side_effects == "none":
            out.update(hostile_reactions=0, tokens_r_to_nr=0)
        if policy["undefended"] == "occupy":
            out["p_romanized"] = 1  # an infantry unit stays as garrison; the leader gets no reward
        else:
            success_reward()
        return tuple(out.values())

    def strongest(tokens):
        return max(tokens, key=lambda t: t[1])  # the first of equals: the garrison, then units in order

    alone = len(city) == 1
    if dice.d6() > strongest(city)[1]:
        city.remove(strongest(city))
        out["nr_tokens_eliminated"] = 1
        if s.king and city:
            # DP-P02; a roll that beat the strongest beats any token
            rule = "next_strongest" if s.pillage_second_unit == "next_strongest" else policy["second_token"]
            units = [t for t in city if t[0] != "garrison"]
            garrison = [t for t in city if t[0] == "garrison"]
            if rule == "garrison_first" and garrison:
                second = garrison[0]
            elif rule == "units_first" and units:
                second = strongest(units)
            else:
                second = strongest(city)
            city.remove(second)
            out["nr_tokens_eliminated"] = 2
    if not city:
        out["p_win"] = 1
        garrison_flipped = s.garrison > 0
        out["p_romanized"] = int(garrison_flipped and (alone or s.pillage_romanize_if_emptied))
        success_reward()
    elif s.king:
        out["ip"] -= 2
    return tuple(out.values())


def intimidation(s, dice, policy):
    """KoR 5.3: after the Fides release (DP-I01, not modelled further), d6 > the target's Virtus turns it Roman."""
    if policy["target"] == "random":
        virtus = s.units[dice.dn(len(s.units)) - 1]
    elif policy["target"] == "strongest":
        virtus = max(s.units)
    else:
        virtus = min(s.units)
    turned = dice.d6() > virtus
    return int(turned), -1 + (2 if turned else 0), 1


def corruption(s, dice, policy):
    """KoR 5.6 with KOR-A13 and KOR-A15: 2 IP, then the city is taken iff d6 > the garrison's Virtus."""
    taken = dice.d6() > s.garrison
    ip, vp = -2, 0
    if taken:
        if s.units == 0 and policy["garrison_or_pillage"] == "pillage":
            ip += 2  # pillaged instead of garrisoned: no VP, the city left empty
        else:
            vp += 1
    nr_to_r = 1 if (taken or s.corruption_adjustment == "always") else 0
    reactions = 1 if s.orphan_reaction_line_owner in ("corruption", "both") else 0
    return int(taken), ip, vp, nr_to_r, reactions


def naval(s, dice, policy):
    """KoR 5.8 with KOR-A41: at most three rounds; every ship afloat fires, hits land together."""
    roman = dict(enumerate(s.roman))  # ships afloat: index in the scenario's list -> Virtus
    nr = dict(enumerate(s.nr))
    additive = s.naval_leader_bonus == "additive_astutia"
    bonus = int(s.good_omen) + (s.roman_astutia if additive else 0)
    rerolls = 0 if additive else s.roman_astutia  # one pool for the whole battle (C3)
    rounds = 0
    while rounds < 3 and roman and nr:
        rounds += 1
        # DP-N01: the Roman targets are named before any die is rolled
        weakest_first = sorted(nr, key=lambda i: (nr[i], i))
        targets = {}
        for rank, ship in enumerate(sorted(roman)):
            if policy["target"] == "spread":
                targets[ship] = weakest_first[rank % len(weakest_first)]
            elif policy["target"] == "focus":
                targets[ship] = weakest_first[0]
            else:
                targets[ship] = sorted(nr)[dice.dn(len(nr)) - 1]
        sunk_nr, sunk_roman = set(), set()
        for ship in sorted(roman):  # Rome, the attacker, rolls first
            virtus = nr[targets[ship]]
            die = dice.d6()
            tries = 1  # 5.7.9: one Astutia point affects one attack, so one reroll (KOR-A22 astutia_reroll)
            while (die + bonus <= virtus and rerolls > 0 and 6 + bonus > virtus
                   and (tries == 1 or s.astutia_reroll == "chained")):
                rerolls -= 1
                tries += 1
                die = dice.d6()
            if die + bonus > virtus:
                sunk_nr.add(targets[ship])
        for ship in sorted(nr):  # the NR bot: a random Roman ship afloat
            victim = sorted(roman)[dice.dn(len(roman)) - 1]
            if dice.d6() > roman[victim]:
                sunk_roman.add(victim)
        for ship in sunk_nr:
            del nr[ship]
        for ship in sunk_roman:
            del roman[ship]
    won = not nr and bool(roman)
    no_result = not nr and not roman and s.naval_mutual_wipe == "no_result"
    lost = not won and not no_result
    return (int(won), int(lost), 2 * won, won - 2 * lost, len(s.roman) - len(roman), len(s.nr) - len(nr),
            rounds)

def spolia(s, dice, policy):
    """KoR 5.7.2.1 with KOR-A17: d6 + Astutia (+1 Good Omen for Rome) must exceed the other leader's Virtus."""
    def roman_hits():
        return dice.d6() + s.roman_astutia + int(s.good_omen) > s.nr_virtus

    def nr_hits():
        return dice.d6() + s.nr_astutia > s.roman_virtus

    while True:
        roman = roman_hits()
        if s.spolia_round_mode == "sequential_roman_first":
            nr = False if roman else nr_hits()
        else:
            nr = nr_hits()
        if roman or nr or s.spolia_round_mode == "simultaneous_single_round":
            break
    won, lost = roman and not nr, nr and not roman
    points = 3 * won - 3 * lost
    return int(won), int(lost), int(roman and nr), points, points

def horatii_duel(romans, latins, rome_first, volley, roman_target, dice):
    """KoR 9.3.7.2 (C1): the sides roll in turn, not together, until one has no unit left.

    A die eliminates the unit it is rolled against iff d6 >= its Virtus, at once. single_shot: one die per turn;
    volley (KOR-A45): a die for each unit the side has when its turn begins, the enemy hit by one die no longer
    a target for the next. Rome aims by ``roman_target`` (DP-H03); Alba Longa aims at a random surviving Roman,
    drawn before its die. Returns the surviving Romans, the surviving Latins and the dice rolled.
    """
    romans, latins = list(romans), list(latins)  # survivors, in the scenario's order
    rome_rolls = rome_first
    rolled = 0
    while romans and latins:
        turn_dice = (len(romans) if rome_rolls else len(latins)) if volley else 1
        for _ in range(turn_dice):
            if not romans or not latins:
                break
            if rome_rolls:
                targets = latins
                if roman_target == "random":
                    aim = dice.dn(len(latins)) - 1
                else:
                    best = min(latins) if roman_target == "weakest" else max(latins)
                    aim = latins.index(best)
            else:
                targets = romans
                aim = dice.dn(len(romans)) - 1
            rolled += 1
            if dice.d6() >= targets[aim]:
                del targets[aim]
        rome_rolls = not rome_rolls
    return romans, latins, rolled


def horatii(s, dice, policy):
    """KoR 9.3.7.2 with KOR-A45 (the loser's destination changes no outcome here)."""
    romans, latins, rolled = horatii_duel(s.roman, s.latin, s.first == "rome", s.duel_alternation == "volley",
                                          policy["target"], dice)
    return int(not latins), len(romans), len(latins), rolled


def cocles(s, dice, policy):
    """KoR 9.7.7.2: direct attempt on 5-6 (no VP), or a raid fought as the Horatii duel (+2 VP / -1 VP)."""
    attempt = s.attempt if policy["attempt"] == "fixed" else policy["attempt"]
    if attempt == "direct":
        return int(dice.d6() >= 5), 0
    # Horatius fights as an infantry unit of Virtus 5, beside the Rome-reserve units; one die per turn
    _, nr, _ = horatii_duel((5,) + tuple(s.raid_units), s.nr, s.cocles_first_roller == "rome", False,
                            "weakest", dice)
    return (1, 2) if not nr else (0, -1)


def mucius(s, dice, policy):
    """KoR 9.7.7.1: Porsenna dies on 4, 5 or 6 with the Sublicius bridge on the Rome map, else only on a 6."""
    killing_faces = (4, 5, 6) if s.bridge else (6,)
    return (int(dice.d6() in killing_faces),)


def inauguratio(s, dice, policy):
    """KoR 9.2.4: valid on 1-4, on 1-5 for the three last kings (Tarquinius Priscus, Servius, Superbus)."""
    valid_faces = range(1, 6) if s.king in ("priscus", "servius", "superbus") else range(1, 5)
    return (int(dice.d6() in valid_faces),)


def senate(s, dice, policy):
    """KoR 9.3.4: approved on 4-6 (5-6 for the Etruscans); after a refusal each of the other three Curia
    peoples is asked, one roll each, until one is approved (Fides: one people per turn, KOR-A51)."""
    def consents(people):
        return dice.d6() >= (5 if people == "etruscan" else 4)

    first_approved = approved = consents(s.people)
    requests = 1
    if not approved and s.fallback:
        waiting = [p for p in ("latin", "volsci", "sabine", "etruscan") if p != s.people]
        choice = policy["fallback_order"]
        if s.senate_fallback_order == "fixed_volsci_latin_sabine":
            choice = "volsci_latin_sabine"  # DP-SE01 is not asked
        preference = {"volsci_latin_sabine": ("volsci", "latin", "sabine", "etruscan"),
                      "etruscans_first": ("etruscan", "volsci", "latin", "sabine")}.get(choice)
        while waiting and not approved:
            if choice == "random":
                people = waiting[dice.dn(len(waiting)) - 1] if len(waiting) > 1 else waiting[0]
            else:
                people = next(p for p in preference if p in waiting)
            waiting.remove(people)
            requests += 1
            approved = consents(people)
    return int(first_approved), int(approved), requests
