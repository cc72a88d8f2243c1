"""Plain-Python reference procedures of Semper Victor, written from the rules independently of the kernels.

Each draws from a dice object (``PyStream`` or the exact enumerator) in the kernel's order, so per-game outcomes
are equal.
"""


# ------------------------------------------------------------------ procedures: initiative, M/CS, war draw,
# Assassinat, Foyer de peste, Constantinopolis
def _wants_initiative(policy, dice, held, mcs_total):
    """D1 built-ins: play the Initiative counter or keep it."""
    name = policy["name"]
    if name == "never":
        return False
    if name == "random":
        return dice.dn(2) == 2
    if name == "odd_mcs":
        return held > policy["params"][0] and (mcs_total is None or mcs_total % 2 == 1)
    return True


def initiative_phase(s, dice, policy, mcs_total=None):
    """spec 2.3: PRIMUS has the initiative iff d6 < PC of the Primus Augustus (SV-A30 at_most: <=). The loser may
    play an Initiative stratagem to take it (spec 2.12, D1); a play is final unless SV-A4 counterplay lets the new loser
    answer. Returns (PRIMUS has it, PRIMUS won the roll, Initiatives played by PRIMUS, by SECONDUS)."""
    die = dice.d6()
    primus_won = die <= s.primus_pc if s.initiative_roll == "at_most" else die < s.primus_pc
    holder = "PRIMUS" if primus_won else "SECONDUS"
    held = {"PRIMUS": s.primus_initiative, "SECONDUS": s.secondus_initiative}
    played = {"PRIMUS": 0, "SECONDUS": 0}
    while True:
        loser = "SECONDUS" if holder == "PRIMUS" else "PRIMUS"
        if held[loser] == 0 or (sum(played.values()) > 0 and not s.initiative_counterplay):
            break
        if not _wants_initiative(policy, dice, held[loser], mcs_total):
            break
        held[loser] -= 1
        played[loser] += 1
        holder = loser
    return holder == "PRIMUS", primus_won, played["PRIMUS"], played["SECONDUS"]


def initiative(s, dice, policy):
    """spec 2.3 alone: (p_win, p_roll, p_reversed, primus_played, secondus_played)."""
    primus, won, played_p, played_s = initiative_phase(s, dice, policy)
    return int(primus), int(won), int(primus != won), played_p, played_s


def mcs_count(s):
    """spec 2.5.1: SR of the Primus Augustus plus the best SR of SECONDUS's leaders in play (a Pax Romana face is
    not in play); none: the SV-A11 value. Dux and Usurpers count unless SV-A11's option says otherwise."""
    counted = [leader["sr"] for leader in s.secondus_leaders
               if not leader["pax_romana"]
               and (s.mcs_dux_usurpers_count or leader["kind"] not in ("dux", "usurper"))]
    return s.primus_sr + (max(counted) if counted else s.mcs_secondus_empty)


def sequences(s, dice, policy):
    """spec 2.3 then 2.5.1 and 2.6: (p_win, primus_mcs, secondus_mcs, mcs_total, p_primus_last)."""
    total = mcs_count(s)
    primus, _, _, _ = initiative_phase(s, dice, policy, total)
    more, fewer = total - total // 2, total // 2
    order = []  # alternating M/CS from the initiative player
    mine, theirs = (more, fewer)
    while mine or theirs:
        if mine:
            order.append("I")
            mine -= 1
        if theirs:
            order.append("O")
            theirs -= 1
    last_is_primus = bool(order) and (order[-1] == "I") == primus
    return (int(primus), more if primus else fewer, fewer if primus else more, total, int(last_is_primus))


PEOPLE_NAMES = ("Persians", "Major 2", "Major 3", "Major 4", "Major 5")


def war_draw(s, dice, policy):
    """spec 2.4.2 over s.turns turns, from s.start_year: (p_win, new_wars, at_war, p_persians_at_war,
    turns_without_war). Cup order: the five markers (Persians first), then the five dummies."""
    at_war = {name: False for name in PEOPLE_NAMES}
    at_war["Persians"] = s.persians_at_war
    for name in PEOPLE_NAMES[1:1 + s.others_at_war]:
        at_war[name] = True
    cup = list(PEOPLE_NAMES) + ["dummy"] * 5
    new_wars = quiet = 0
    for year in range(s.start_year, s.start_year + s.turns):
        if cup:
            i = dice.dn(len(cup)) - 1
            drawn = cup[i] if s.war_draw_replace else cup.pop(i)
            if drawn != "dummy" and not at_war[drawn]:
                no_king = drawn == "Persians" and 310 <= year <= 319  # seed 4.2.1
                if s.war_without_leader or not no_king:
                    at_war[drawn] = True
                    new_wars += 1
        if not any(at_war.values()):
            quiet += 1
        if s.peace_chance:
            for name in PEOPLE_NAMES:
                if at_war[name] and dice.d10() < s.peace_chance:
                    at_war[name] = False
    return int(new_wars == 0), new_wars, sum(at_war.values()), int(at_war["Persians"]), quiet


def assassination(s, dice, policy):
    """spec 2.12 Assassinat: each play, d10 (+ SV-A2 modifier for a protected target) in {8, 9} kills.
    (p_win, plays)."""
    protected = s.bodyguard == "holder" or (s.bodyguard == "stacked" and s.guard_scope == "zone")
    modifier = s.assassin_guard_mod if protected else 0
    chance = sum(1 for face in range(10) if face + modifier in (8, 9)) / 10
    plays = 0
    for attempt in range(1, s.attempts + 1):
        name = policy["name"]
        if name == "once" and attempt > 1:
            break
        if name == "random" and dice.dn(2) == 1:
            break
        if name == "worthwhile" and chance < policy["params"][0]:
            break
        plays += 1
        if dice.d10() + modifier in (8, 9):
            return 1, plays
    return 0, plays


def _plague_rollers(s, zone, side):
    n = zone[f"{side}_leaders"]
    if s.plague_dux_rolls:
        n += zone[f"{side}_dux"]
    if s.plague_non_roman_rolls:
        n += zone[f"{side}_non_roman"]
    return n


def plague(s, dice, policy):
    """spec 2.12 Foyer de peste on the zone chosen by D13: units lose a step, leaders die on a d10 of 9, the enemy's
    first. (p_win, p_no_leader_dies, enemy/own leaders killed, enemy eliminated/weakened, own elim./weakened)."""
    zones = s.zones
    name = policy["name"]
    if name == "fixed":
        pick = int(policy["params"][0]) - 1
    elif name == "random":
        pick = dice.dn(len(zones)) - 1
    else:
        w_leader, w_step = policy["params"][0], policy["params"][1]

        def score(z):
            return (w_leader * (_plague_rollers(s, z, "enemy") - _plague_rollers(s, z, "own"))
                    + w_step * (z["enemy_full"] + z["enemy_weakened"] - z["own_full"] - z["own_weakened"]))
        scores = [score(z) for z in zones]
        pick = scores.index(max(scores))
    zone = zones[pick]
    enemy_dead = sum(dice.d10() == 9 for _ in range(_plague_rollers(s, zone, "enemy")))
    own_dead = sum(dice.d10() == 9 for _ in range(_plague_rollers(s, zone, "own")))
    return (int(enemy_dead > 0), int(enemy_dead + own_dead == 0), enemy_dead, own_dead,
            zone["enemy_weakened"], zone["enemy_full"], zone["own_weakened"], zone["own_full"])


def constantinople(s, dice, policy):
    """spec 2.4.3 over s.turns turns with the scenario's per-turn chances (percent, one dn(100) each):
    (p_win, p_interrupted, attempts, interruptions, cancellations, vp, capital_turns)."""
    length = 6 if s.constantinople_completion == "advance_into_box" else 7
    constantin = thracia = True
    finish = None
    attempts = interruptions = cancellations = 0
    built_in = None
    for turn in range(1, s.turns + 1):
        if built_in is None and finish is None and constantin and thracia:
            name = policy["name"]
            start = (name == "always" or (name == "random" and dice.dn(2) == 2)
                     or (name == "if_time" and s.turns - turn + 1 >= length))
            if start:
                finish = turn + length - 1
                attempts += 1
        if constantin and s.constantin_loss and dice.dn(100) <= s.constantin_loss:
            constantin = False
            if finish is not None and s.constantinople_conditions == "continuous":
                finish, cancellations = None, cancellations + 1
        if thracia:
            if s.thracia_loss and dice.dn(100) <= s.thracia_loss:
                thracia = False
                if finish is not None and s.constantinople_conditions == "continuous":
                    finish, cancellations = None, cancellations + 1
        elif s.thracia_regain and dice.dn(100) <= s.thracia_regain:
            thracia = True
        if finish == turn:
            finish = None
            who = None
            if s.occupation_augustus + s.occupation_usurper + s.occupation_primus_usurper:
                v = dice.dn(100)
                if v <= s.occupation_augustus:
                    who = "Secondus Augustus"
                elif v <= s.occupation_augustus + s.occupation_usurper:
                    who = "Usurper of SECONDUS"
                elif v <= s.occupation_augustus + s.occupation_usurper + s.occupation_primus_usurper:
                    who = "Usurper of PRIMUS"
            if who is None or (who == "Usurper of PRIMUS" and s.constantinople_usurper == "secondus_only"):
                built_in = turn
            else:
                interruptions += 1
    built = built_in is not None
    return (int(built), int(interruptions > 0), attempts, interruptions, cancellations, 10 if built else 0,
            s.turns - built_in if built else 0)
# ------------------------------------------------------------------ succession and usurpation (seed 3.5.2, 3.6)
# Dice are only added to and compared with numbers, or turned into an index with int(), so that the exact solver
# can replay these procedures branching on each test's yes/no instead of on every face.
_SV_DIOCESES = ("Hispaniae", "Britanniae", "Viennensis", "Galliae", "Italia", "Africa", "Pannoniae", "Moesiae",
                "Thracia", "Asia", "Pontica", "Oriens")
_SV_AUGUSTI = ("augustus", "primus_augustus", "secondus_augustus")
_SV_TITLED = ("caesar",) + _SV_AUGUSTI
_SV_BONUS = {"augustus": 2, "caesar": 1, "leader": 0, "succession": 0}
_SV_OTHER = {"primus": "secondus", "secondus": "primus"}


def _sv_pick(dice, candidates):
    """A uniform pick (the built-in `random` of D5-D8): one die of len(candidates) faces, none for a single
    candidate."""
    if len(candidates) == 1:
        return candidates[0]
    return candidates[int(dice.dn(len(candidates))) - 1]


def _sv_best(candidates, key):
    """The first candidate with the highest key (ties go to the earlier one)."""
    best = candidates[0]
    for c in candidates[1:]:
        if key(c) > key(best):
            best = c
    return best


def succession_heirs(s, dice, policy):
    """seed 3.5.2 up to the loyalty checks: (case, successor, usurper, roles change); -1 for nobody."""
    leaders = s.leaders
    senior = "primus_augustus" if s.dies == "primus" else "secondus_augustus"
    dead = next(i for i, ldr in enumerate(leaders) if ldr["title"] == senior)
    side = leaders[dead]["side"]
    own = [i for i, ldr in enumerate(leaders) if ldr["side"] == side and i != dead]
    extra = [i for i in own if leaders[i]["title"] == "augustus"]
    caesars = [i for i in own if leaders[i]["title"] == "caesar"]

    def general(player, role, case):
        # D7: any leader of that player on the map but a Dux (SV-A35)
        pool = [i for i, ldr in enumerate(leaders) if ldr["side"] == player and ldr["title"] != "dux" and i != dead]
        if not pool:
            return -1
        if policy["general"] == "random":
            return _sv_pick(dice, pool)
        return _sv_best(pool, lambda i: (leaders[i]["pc"], leaders[i]["cc"], leaders[i]["sr"], leaders[i]["tb"]))

    if extra:
        return 1, extra[0], -1, False
    if len(caesars) == 1:
        return 2, caesars[0], -1, False
    if len(caesars) == 2:
        a, b = caesars
        rank = {i: (leaders[i]["cc"], leaders[i]["sr"], leaders[i]["tb"]) for i in caesars}
        if rank[a] != rank[b]:
            return 3, (a if rank[a] > rank[b] else b), -1, False
        if s.tiebreak_final == "random":  # SV-A13
            return 3, _sv_pick(dice, caesars), -1, False
        if policy["tie"] == "random":
            return 3, _sv_pick(dice, caesars), -1, False
        return 3, _sv_best(caesars, lambda i: (leaders[i]["pc"],)), -1, False
    if side == "primus":
        rival = [i for i, ldr in enumerate(leaders) if ldr["title"] == "secondus_augustus"]
        if rival:
            return 4, rival[0], -1, True
        heir = general("primus", 0, 5)
        return 5, heir, general("secondus", 1, 5), False
    return 4, -1, general("secondus", 1, 4), False


def succession_loyalty(s, usurper, dice):
    """seed 3.5.2 Secondus case 4: each other SECONDUS leader in scope (SV-A14; a Dux does not test, seed 3.3)
    rolls a d6 and goes over to PRIMUS on a roll >= his PC, with the units under his counter; the zone's other
    units follow only when no SECONDUS leader is left there. Returns (defections, units)."""
    leaders = s.leaders
    dead = next(i for i, ldr in enumerate(leaders) if ldr["title"] == "secondus_augustus")
    home = leaders[usurper]["zone"]
    gone, units = set(), 0
    for i, ldr in enumerate(leaders):
        if i in (dead, usurper) or ldr["side"] != "secondus" or ldr["title"] == "dux":
            continue
        here = ldr["zone"] == home
        if s.secondus_case4_scope == "same_zone" and not here or s.secondus_case4_scope == "other_zones" and here:
            continue
        if dice.d6() >= ldr["pc"]:
            gone.add(i)
            units += sum(u["count"] for u in s.units if u["leader"] == i)
    for zone in {leaders[i]["zone"] for i in gone}:
        stay = [i for i, ldr in enumerate(leaders)
                if ldr["zone"] == zone and ldr["side"] == "secondus" and i != dead and i not in gone]
        if not stay:
            units += sum(u["count"] for u in s.units
                         if u["zone"] == zone and u["side"] == "secondus" and u["leader"] in (-1, dead))
    return len(gone), units


def succession(s, dice, policy):
    """seed 3.5.2, the metrics of ``Succession``."""
    case, successor, usurper, roles = succession_heirs(s, dice, policy)
    defections, units = 0, 0
    if s.dies == "secondus" and usurper >= 0:
        defections, units = succession_loyalty(s, usurper, dice)
    return int(case <= 3), case, int(roles), int(usurper >= 0), successor, usurper, defections, units


class _SvWorld:
    """The empire as the usurpation plays it: leaders as mutable dicts, units by (zone, camp), where a camp is
    'primus', 'secondus' or 'usurpation'."""

    def __init__(self, s):
        self.s = s
        self.player = s.player
        self.victim = _SV_OTHER[s.player]
        self.diocese = {z["id"]: z["diocese"] for z in s.zones}
        self.order = [z["id"] for z in s.zones]
        self.near = {(p["a"], p["b"]) for p in s.adjacent} | {(p["b"], p["a"]) for p in s.adjacent}
        self.leaders = [dict(ldr, alive=True, down="defeated" if ldr["defeated"] else None) for ldr in s.leaders]
        self.units = {}
        for u in s.units:
            key = (u["zone"], u["side"])
            self.units[key] = self.units.get(key, 0) + u["count"]
        self.touched = set()
        self.counts = dict(leaders=0, units=0, rallied=0)

    def dioceses_adjacent(self, d1, d2):
        return d1 != d2 and any(self.diocese[a] == d1 and self.diocese[b] == d2 for a, b in self.near)

    def at(self, zone, side=None):
        return [i for i, ldr in enumerate(self.leaders)
                if ldr["alive"] and ldr["zone"] == zone and (side is None or ldr["side"] == side)]

    def take_units(self, zone, side):
        n = self.units.pop((zone, side), 0)
        self.units[(zone, "usurpation")] = self.units.get((zone, "usurpation"), 0) + n
        self.counts["units"] += n
        return n


def _sv_status(title):
    return {"caesar": 1, "augustus": 2, "primus_augustus": 3, "secondus_augustus": 3}.get(title, 0)


def usurpation_targets(s, stratagem):
    """The leaders a usurpation stratagem may be played on (seed 3.6 validation, 6.1, 6.2, SV-A28, SV-A38), before
    any double-usurpation constraint; the succession route's Usurper is one of the player's own simple leaders."""
    leaders = s.leaders
    victim = _SV_OTHER[s.player]
    if stratagem == "succession":
        return [i for i, ldr in enumerate(leaders) if ldr["side"] == s.player and ldr["title"] == "none"]
    augusti = [i for i, ldr in enumerate(leaders) if ldr["side"] == victim and ldr["title"] in _SV_AUGUSTI]
    caesars = [i for i, ldr in enumerate(leaders) if ldr["side"] == victim and ldr["title"] == "caesar"]
    if stratagem == "augustus":
        pool = [i for i in augusti if leaders[i]["title"] == "augustus"] if len(augusti) == 2 else []
    elif stratagem == "caesar":
        pool = caesars if len(caesars) == 2 else []
    else:
        pool = [i for i, ldr in enumerate(leaders) if ldr["side"] == victim and ldr["title"] == "none"]
    # not in a zone with a victim-side leader of higher status
    return [i for i in pool if not any(
        ldr["side"] == victim and ldr["zone"] == leaders[i]["zone"] and _sv_status(ldr["title"]) >
        _sv_status(leaders[i]["title"]) for ldr in leaders)]


def _sv_apart(world, a, b):
    """Two targets of a double usurpation: different Dioceses that are not adjacent (seed 3.6)."""
    da, db = world.diocese[world.leaders[a]["zone"]], world.diocese[world.leaders[b]["zone"]]
    return a != b and da != db and not world.dioceses_adjacent(da, db)


def _sv_choose_targets(s, world, dice, policy):
    attempts = s.usurpations
    fixed = [u["target"] for u in attempts]
    pools = [usurpation_targets(s, u["stratagem"]) for u in attempts]
    targets = []
    for a, attempt in enumerate(attempts):
        if fixed[a] >= 0:
            targets.append(fixed[a])
            continue
        if a == 0:
            partners = [fixed[1]] if len(attempts) == 2 and fixed[1] >= 0 else (pools[1] if len(attempts) == 2
                                                                                 else None)
            pool = [t for t in pools[0] if partners is None or any(_sv_apart(world, t, u) for u in partners)]
        else:
            pool = [t for t in pools[1] if _sv_apart(world, targets[0], t)]
        if policy["target"] == "random":
            targets.append(_sv_pick(dice, pool))
        else:
            def pieces(t):
                zone = world.leaders[t]["zone"]
                return len(world.at(zone)) - 1 + sum(n for (z, _), n in world.units.items() if z == zone)
            targets.append(_sv_best(pool, lambda t: (world.leaders[t]["pc"], pieces(t))))
    return targets


def _sv_loyalty(world, zone, b, dice):
    """seed 3.6.3 B in one zone: titled victim leaders keep it loyal (SV-A18); else one d6 for the best PC."""
    here = world.at(zone, world.victim)
    titled = [i for i in here if world.leaders[i]["title"] in _SV_TITLED]
    plain = [i for i in here if i not in titled]
    if not plain or titled and world.s.stepB_titled_zone == "loyal":
        return
    best = max(world.leaders[i]["pc"] for i in plain)
    if dice.d6() + b >= best:
        for i in plain:
            world.leaders[i]["side"] = world.player
        world.counts["leaders"] += len(plain)
        if not titled:
            world.take_units(zone, world.victim)
        world.touched.add(world.diocese[zone])


def _sv_modifier(world, diocese, usurper):
    """seed 3.6.3 C: +2 for an Augustus in the Diocese, else +1 for a Caesar (SV-A19: whose)."""
    titles = {ldr["title"] for i, ldr in enumerate(world.leaders)
              if ldr["alive"] and i != usurper and world.diocese[ldr["zone"]] == diocese
              and (world.s.stepC_mod_side == "any" or ldr["side"] == world.victim)}
    return 2 if titles & set(_SV_AUGUSTI) else 1 if "caesar" in titles else 0


def _sv_c_succeeds(world, face, m, b, pc):
    return face + m + b < pc if world.s.usurp_bonus_mode == "literal_add" else face + m - b < pc


def _sv_gain(world, diocese, usurper, b):
    """60 x the pieces expected to join on trying step C there: d10 faces x d6 faces x pieces, per zone."""
    pc = world.leaders[usurper]["pc"]
    m = _sv_modifier(world, diocese, usurper)
    c = sum(1 for face in range(10) if _sv_c_succeeds(world, face, m, b, pc))
    gain = 0
    for zone in world.order:
        if world.diocese[zone] != diocese:
            continue
        here = world.at(zone, world.victim)
        titled = [i for i in here if world.leaders[i]["title"] in _SV_TITLED]
        plain = [i for i in here if i not in titled]
        if not plain or titled and world.s.stepB_titled_zone == "loyal":
            continue
        best = max(world.leaders[i]["pc"] for i in plain)
        faces = sum(1 for face in range(1, 7) if face + b >= best)
        gain += c * faces * (len(plain) + (0 if titled else world.units.get((zone, world.victim), 0)))
    return gain


def _sv_civil_war(world, a, x, b, chosen, dice, policy):
    """seed 3.6.3 A, B and C for the validated Usurper ``x``; returns the Diocese chosen in C (or None)."""
    s, leaders = world.s, world.leaders
    leaders[x].update(side=world.player, title="none", guard=False)
    home = leaders[x]["zone"]
    world.touched.add(world.diocese[home])
    hold = s.succession_defectors == "hold" and s.usurpations[a]["stratagem"] == "succession"
    for i in world.at(home):  # A (the defectors of seed 3.5.2 case 4 stay PRIMUS's with succession_defectors = hold)
        if i == x or hold and leaders[i]["side"] == world.victim:
            continue
        if leaders[i]["title"] in _SV_TITLED:
            if s.stepA_titled == "stay_loyal_and_move_out":
                continue
            leaders[i].update(title="none", guard=False)
        leaders[i]["side"] = world.player
        world.counts["leaders"] += 1
    for side in ("primus", "secondus"):
        if not (hold and side == world.victim):
            world.take_units(home, side)
    for zone in world.order:  # B
        if zone != home and world.diocese[zone] == world.diocese[home]:
            _sv_loyalty(world, zone, b, dice)
    mine = world.diocese[home]  # C
    options = [d for d in _SV_DIOCESES if d not in chosen and world.dioceses_adjacent(mine, d)]
    if not options:
        return None
    if policy["diocese"] == "random":
        d2 = _sv_pick(dice, options)
    else:
        d2 = _sv_best(options, lambda d: _sv_gain(world, d, x, b))
    m = _sv_modifier(world, d2, x)
    if _sv_c_succeeds(world, dice.d10(), m, b, leaders[x]["pc"]):
        world.counts["extended"] = 1
        for zone in world.order:
            if world.diocese[zone] == d2:
                _sv_loyalty(world, zone, b, dice)
    return d2


def _sv_march(world, x, b, steps, dice):
    """seed 3.6.3 D along the route: a zone with victim leaders stops him; unled victim units are rallied on
    d6 - b <= PC (SV-A1 literal_add: d6 + b), else he stops and must fight them."""
    pc = world.leaders[x]["pc"]
    for zone in steps:
        if world.at(zone, world.victim):
            return True
        if world.units.get((zone, world.victim), 0) > 0:
            die = dice.d6()
            ok = die + b <= pc if world.s.usurp_bonus_mode == "literal_add" else die - b <= pc
            if not ok:
                return True
            world.counts["rallied"] += world.take_units(zone, world.victim)
            world.touched.add(world.diocese[zone])
    return False


def usurpation_civil_war(s, dice, policy):
    """Targets (D5), validations and the civil war up to the marches. Returns (validated, double, extended,
    leaders, units, dioceses, rallied, march stopped) and the state the Assassinat exchange starts from."""
    world = _SvWorld(s)
    targets = _sv_choose_targets(s, world, dice, policy)
    valid = []
    for attempt, t in zip(s.usurpations, targets):
        ok = attempt["stratagem"] == "succession" or dice.d6() <= s.leaders[t]["pc"]
        valid.append(ok)
        if not ok and s.failed_validation_strips_title and world.leaders[t]["title"] in ("caesar", "augustus"):
            world.leaders[t].update(title="none", guard=False)  # SV-A16
    if not any(valid):
        return (0,) * 8, None
    chosen = []
    for a, (attempt, t) in enumerate(zip(s.usurpations, targets)):
        if valid[a]:
            d2 = _sv_civil_war(world, a, t, _SV_BONUS[attempt["stratagem"]], chosen, dice, policy)
            if d2 is not None:
                chosen.append(d2)
    stopped = False
    for a, (attempt, t) in enumerate(zip(s.usurpations, targets)):
        if valid[a]:
            steps = [m["zone"] for m in s.march if m["usurper"] == a + 1]
            stopped |= _sv_march(world, t, _SV_BONUS[attempt["stratagem"]], steps, dice)
    c = world.counts
    cascade = (1, int(all(valid) and len(valid) == 2), c.get("extended", 0), c["leaders"], c["units"],
               len(world.touched), c["rallied"], int(stopped))
    victim = world.victim
    augusti = tuple((i, ldr["title"], ldr["zone"], ldr["guard"], ldr["down"]) for i, ldr in enumerate(world.leaders)
                    if ldr["side"] == victim and ldr["title"] in _SV_AUGUSTI)
    guards = tuple(ldr["zone"] for ldr in world.leaders
                   if ldr["side"] == victim and ldr["guard"] and ldr["title"] not in _SV_AUGUSTI)
    usurpers = tuple((t, s.leaders[t]["pc"], s.leaders[t]["cc"], s.leaders[t]["sr"], s.leaders[t]["tb"])
                     for t, ok in zip(targets, valid) if ok)
    return cascade, (augusti, guards, usurpers)


def usurpation_exchange(s, start, dice, policy):
    """seed 3.6.4 after the cascade: the Usurper's player's Assassinat counters on the victim Augusti and the
    victim's on the Usurper(s), alternately, the Usurper's player first. Returns (won, Augusti assassinated,
    Usurpers all killed, successor)."""
    augusti = [dict(index=i, title=t, zone=z, guard=g, down=d) for i, t, z, g, d in start[0]]
    guard_zones = list(start[1])
    usurpers = [dict(index=u[0], rank=u[1:], alive=True) for u in start[2]]

    def protected(aug):
        if aug["guard"]:
            return True
        if s.guard_scope != "zone":
            return False
        holders = guard_zones + [a["zone"] for a in augusti if a["guard"] and a["down"] != "assassinated"]
        return aug["zone"] in holders

    def won():
        downs = [a["down"] for a in augusti]
        if not downs or None in downs:
            return False
        return s.two_augusti_mixed or len(set(downs)) == 1

    def target():
        if not s.two_augusti_mixed and any(a["down"] == "defeated" for a in augusti):
            return None  # all must then be defeated: an assassination no longer helps
        pool = [a for a in augusti if a["down"] is None and not (
            a["title"] == "primus_augustus" and s.assassination_in_civil_war == "succession")]
        if not pool:
            return None

        def appeal(a):
            modifier = s.assassin_guard_mod if protected(a) else 0
            return (sum(1 for f in range(10) if 8 <= f + modifier <= 9), a["title"] != "augustus")
        return _sv_best(pool, appeal)

    left_p, left_v = s.assassinations, s.counter_assassinations
    killed, lost, win = 0, False, won()
    turn = "player"
    while not win and not lost:
        aim = target() if left_p > 0 else None
        if aim is None and left_v == 0:
            break
        if turn == "player" and aim is not None:
            left_p -= 1
            modifier = s.assassin_guard_mod if protected(aim) else 0
            roll = dice.d10() + modifier
            if 8 <= roll and roll <= 9:
                aim["down"] = "assassinated"
                killed += 1
                win = won()
        elif turn == "victim" and left_v > 0:
            left_v -= 1
            living = [u for u in usurpers if u["alive"]]
            hunted = _sv_best(living, lambda u: u["rank"][0])
            if 8 <= dice.d10():
                hunted["alive"] = False
                lost = not any(u["alive"] for u in usurpers)
        turn = "victim" if turn == "player" else "player"
    successor = -1
    if win:
        living = [u for u in usurpers if u["alive"]]
        top = max(u["rank"][0] for u in living)
        best = [u for u in living if u["rank"][0] == top]
        if len(best) == 1:
            successor = best[0]["index"]
        elif policy["tie"] == "random":  # D8: equal PC, the player chooses (seed 3.6 double usurpation)
            successor = _sv_pick(dice, best)["index"]
        else:
            successor = _sv_best(best, lambda u: u["rank"])["index"]
    return int(win), killed, int(lost), successor


def usurpation(s, dice, policy):
    """seed 3.6, the metrics of ``Usurpation``."""
    cascade, start = usurpation_civil_war(s, dice, policy)
    validated, double, extended, leaders, units, dioceses, rallied, stopped = cascade
    win, killed, lost, successor = usurpation_exchange(s, start, dice, policy) if start else (0, 0, 0, -1)
    return (win, validated, double, extended, leaders, units, dioceses, rallied, stopped, killed, lost, successor)
# ------------------------------------------------------------------ battle: PROPOSAL P8 (spec 3.2)
def battle_face(unit):
    """(SP, QU, TB) of the face a unit shows: the back once weakened (seed 1.3)."""
    if unit["weak"]:
        return unit["weak_sp"], unit["weak_qu"], unit["weak_tb"]
    return unit["sp"], unit["qu"], unit["tb"]


def battle_threshold(mode, qu, tb, tbc):
    """P8.3: a d10 below this hits; the sum is clamped to 1..9 (p8_threshold says which ratings count)."""
    total = {"qu_tb_tbc": qu + tb + tbc, "qu_tbc": qu + tbc, "qu": qu}[mode]
    return min(9, max(1, total))


def battle_pick_commander(policy, leaders, dice):
    """D14 / P8.2: the index of the commander among a side's leaders (best_tb is P8.2's own rule)."""
    if policy == "random":
        return dice.dn(len(leaders)) - 1
    return min(range(len(leaders)), key=lambda j: (-leaders[j]["tb"], -leaders[j]["cc"], -leaders[j]["sr"], j))


def battle_pick_loss(policy, units, eligible, dice):
    """D14 / P8.4: the index (among ``units``) of the eligible unit that takes the next step."""
    if policy == "random":
        return eligible[dice.dn(len(eligible)) - 1]
    if policy == "preserve_sp":
        def cost(i):
            u = units[i]
            return (u["weak_sp"] if u["weak"] else u["sp"] - u["weak_sp"], u["weak"], i)
        return min(eligible, key=cost)
    sign = 1 if policy == "weakest_first" else -1
    return min(eligible, key=lambda i: (sign * battle_face(units[i])[0], i))


def battle_pick_zone(policy, zones, units, leaders, dice):
    """D14 / P8.6: the loser's retreat zone (``units`` and ``leaders`` are its survivors)."""
    if policy == "random":
        return dice.dn(zones) - 1
    if policy == "first":
        return 0

    def losses(z):
        lost_leaders = sum(1 for g in leaders if z in g["barred"])
        lost_sp = sum(battle_face(u)[0] for u in units if z in u["barred"])
        return lost_leaders, lost_sp, z
    return min(range(zones), key=losses)


def battle(s, dice, policy):
    """PROPOSAL P8 (spec 3.2) — not from the published rules. Side 0 attacks, side 1 defends.

    One round: commanders (P8.2), simultaneous fire (P8.3), steps allocated hit by hit (P8.4), loser (P8.5),
    retreat into one zone (P8.6), optional pursuit, civil-war deaths (P8.8) and the losing leaders' d10 (P8.7).
    """
    if policy["battle"] != "p8_proposal":
        raise ValueError(f"the reference battle is PROPOSAL P8; it cannot play {policy['battle']!r}")
    units = [[dict(u, weak=u["weakened"], alive=True, fled=False) for u in s.attacker_units],
             [dict(u, weak=u["weakened"], alive=True, fled=False) for u in s.defender_units]]
    leaders = [[dict(g, alive=True) for g in s.attacker_leaders], [dict(g, alive=True) for g in s.defender_leaders]]
    zones = [s.attacker_retreat_zones, s.defender_retreat_zones]
    start_sp = [sum(battle_face(u)[0] for u in side) for side in units]

    # P8.2: the commander's TB helps every unit of his side; no leader, no bonus
    tbc = [0, 0]
    for side in (0, 1):
        if leaders[side]:
            rule = policy["commander"] if s.p8_commander == "choice" else "best_tb"
            tbc[side] = leaders[side][battle_pick_commander(rule, leaders[side], dice)]["tb"]

    def fire(side):
        hits = 0
        for u in units[side]:
            if u["alive"]:
                _, qu, tb = battle_face(u)
                need = battle_threshold(s.p8_threshold, qu, tb, tbc[side])
                for _ in range(s.p8_dice_per_unit):
                    if dice.d10() < need:
                        hits += 1
        return hits

    def take(side, hits, pursuit):
        for _ in range(hits):
            eligible = [i for i, u in enumerate(units[side]) if u["alive"] and (u["fled"] or not pursuit)]
            if not eligible:
                return  # surplus hits are lost
            u = units[side][battle_pick_loss(policy["losses"], units[side], eligible, dice)]
            if u["weak"]:
                u["alive"] = False
            else:
                u["weak"] = True

    hits = [fire(0), fire(1)]  # P8.3: both sides fire before any loss
    take(0, hits[1], False)
    take(1, hits[0], False)

    # P8.5
    standing = [sum(u["alive"] for u in side) for side in units]
    sp = [sum(battle_face(u)[0] for u in side if u["alive"]) for side in units]
    if standing[0] == 0 and standing[1] > 0:
        loser = 0
    elif standing[1] == 0 and standing[0] > 0:
        loser = 1
    elif hits[0] != hits[1]:
        loser = 0 if hits[0] < hits[1] else 1
    elif sp[0] != sp[1]:
        loser = 0 if sp[0] < sp[1] else 1
    else:
        loser = 0  # the defender holds
    winner = 1 - loser

    # P8.6: survivors go together; whoever may not enter the chosen zone (or any, with none) is lost
    moving_units = [u for u in units[loser] if u["alive"]]
    moving_leaders = [g for g in leaders[loser] if g["alive"]]
    if moving_units or moving_leaders:
        zone = None
        if zones[loser] > 0:
            zone = battle_pick_zone(policy["retreat"], zones[loser], moving_units, moving_leaders, dice)
        for piece in moving_units + moving_leaders:
            if zone is None or zone in piece["barred"]:
                piece["alive"] = False
            else:
                piece["fled"] = True
    if s.p8_pursuit and any(u["alive"] and u["fled"] for u in units[loser]):
        take(loser, fire(winner), True)

    # P8.8, then P8.7 for the loser's other leaders
    civil_winner = any(g["role"] in ("usurper", "civil_war") for g in leaders[winner])
    for g in leaders[loser]:
        if not g["alive"]:
            continue
        if s.p8_civil_war_defeat_kills and (g["role"] == "usurper" or (g["role"] == "augustus" and civil_winner)):
            g["alive"] = False
        elif dice.d10() >= s.p8_loser_leader_death:
            g["alive"] = False

    sp_lost = [start_sp[k] - sum(battle_face(u)[0] for u in units[k] if u["alive"]) for k in (0, 1)]
    eliminated = [sum(not u["alive"] for u in side) for side in units]
    retreated = [sum(u["alive"] and u["fled"] for u in side) for side in units]
    killed = [sum(not g["alive"] for g in side) for side in leaders]
    augustus_defeated = any(g["role"] == "augustus" for g in leaders[loser])
    return (int(winner == 0), int(winner == 1), hits[0], hits[1], sp_lost[0], sp_lost[1], eliminated[0],
            eliminated[1], retreated[0], retreated[1], killed[0], killed[1], int(augustus_defeated))
