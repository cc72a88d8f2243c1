"""Semper Victor traces told as sentences: the battle of PROPOSAL P8 and the usurpation of seed 3.6.

``BattleNarrator`` and ``UsurpationNarrator`` are the ``Scenario.narrator()`` of ``semper_victor.battle`` and
``semper_victor.usurpation`` (``core.narrative``): ``context`` reads what a sentence needs from the kernel's frames
(the unit that fires and its threshold, the leader who rolls for his loyalty and his PC, the modifiers), and
``sentences`` tells the game from the trace's events. A d10 is told as the game reads it, 0 to 9.
"""
from ..core.narrative import Narrator, Sentence, action_meaning, caller, decision_dice, plain, policy_dice, rule_tag
from . import battle as B
from . import usurpation as U
from .empire import DIOCESES
from .policies import STRATAGEM_CODES

SIDES = ("attacker", "defender")
TITLES = {"caesar": "Caesar", "augustus": "Augustus", "primus_augustus": "Primus Augustus",
          "secondus_augustus": "Secondus Augustus", "dux": "Dux"}


def _fn(e):
    return e.where.rsplit(" > ", 1)[-1]


def _rule_name(e):
    return e.what.split(":", 1)[0]


def _cap(text):
    return text[:1].upper() + text[1:]


def _signed(n):
    return f" {n:+d}" if n else ""


# ------------------------------------------------------------------ battle (PROPOSAL P8)
def battle_context(kind, frame, value):
    """What a P8 sentence needs (``Narrator.context``)."""
    name, loc = frame.f_code.co_name, frame.f_locals
    if kind == "die" and name == "fire":
        units, i, side = loc["units"], int(loc["i"]), int(loc["side"])
        up = frame.f_back
        return {"side": side, "unit": int(sum(units[:i, B.U_SIDE] == side)), "threshold": int(loc["t"]),
                "weakened": int(units[i, B.U_WEAKENED]), "tbc": int(loc["tbc"]),
                "pursuit": int(up is not None and up.f_code.co_name == "pursuit")}
    if kind == "die" and name == "deaths":
        leaders, r = loc["leaders"], int(loc["r"])
        side = int(leaders[r, B.L_SIDE])
        return {"side": side, "leader": int(sum(leaders[:r, B.L_SIDE] == side)),
                "death_from": int(loc["context"][B.C_DEATH_FROM])}
    if kind == "rule" and name == "volley":
        up = caller(frame, "p8_advance")
        leaders = up.f_locals["leaders"] if up is not None else None
        commanders = [-1, -1]
        if leaders is not None:
            for side in range(2):
                k = 0
                for r in range(leaders.shape[0]):
                    if leaders[r, B.L_SIDE] == side:
                        if leaders[r, B.L_COMMANDER]:
                            commanders[side] = k
                        k += 1
        return {"tbc": plain(loc["g"][B.G_TBC:B.G_TBC + 2]), "commanders": commanders,
                "attacker": int(loc["context"][B.C_ATTACKER])}
    if kind == "return" and name == "volley":
        return {"hits": plain(loc["out"][B.O_HITS:B.O_HITS + 2])}
    if kind == "return" and name == "result":
        return {"loser": int(loc["loser"]), "hits": [int(loc["hits_a"]), int(loc["hits_d"])],
                "alive": [int(loc["alive_a"]), int(loc["alive_d"])], "sp": [int(loc["sp_a"]), int(loc["sp_d"])]}
    if kind == "rule" and name == "retreat":
        g, context = loc["g"], loc["context"]
        return {"side": int(g[B.G_LOSER]), "zones": int(context[B.C_ZONES + g[B.G_LOSER]])}
    if kind == "rule" and name == "pursuit":
        return {"pursuit": int(loc["context"][B.C_PURSUIT]), "loser": int(loc["g"][B.G_LOSER])}
    if kind == "rule" and name == "deaths":
        return {"alive": plain(loc["leaders"][:, B.L_ALIVE]), "sides": plain(loc["leaders"][:, B.L_SIDE])}
    if kind == "return" and name == "deaths":
        return {"alive_after": plain(loc["leaders"][:, B.L_ALIVE])}
    return None


class BattleNarrator(Narrator):
    """``semper_victor.battle`` told in sentences: commanders, the two volleys die by die, each hit's unit, the
    result, the retreat, the pursuit and the loser's leaders."""

    SILENT = {"battle_game", "p8_init", "p8_advance", "commanders", "volley", "fire", "threshold", "losses_setup",
              "losses_stage", "result", "retreat", "pursuit", "deaths"}

    def context(self, kind, frame, value):
        return battle_context(kind, frame, value)

    @staticmethod
    def unit(scenario, side, k, weakened=None):
        units = getattr(scenario, f"{SIDES[side]}_units", ())
        if k >= len(units):
            return f"{SIDES[side]} unit {k + 1}"
        u = units[k]
        face = (f"SP {u['weak_sp']}, QU {u['weak_qu']}, TB {u['weak_tb']}, weakened" if weakened else
                f"SP {u['sp']}, QU {u['qu']}, TB {u['tb']}")
        return f"{SIDES[side]} unit {k + 1} ({face})"

    @staticmethod
    def leader(scenario, side, k):
        leaders = getattr(scenario, f"{SIDES[side]}_leaders", ())
        if k < 0 or k >= len(leaders):
            return f"{SIDES[side]} leader {k + 1}"
        g = leaders[k]
        role = "" if g["role"] == "general" else f", {g['role']}"
        return f"{SIDES[side]} leader {k + 1} (TB {g['tb']}{role})"

    def sentences(self, trace):
        scenario, out, silent, done = trace.scenario, [], [], set()
        rows = list(zip(trace.index, trace.itertuples(index=False)))
        for n, (step, e) in enumerate(rows):
            if step in done:
                continue
            c, tag = e.context or {}, rule_tag(e.rule)
            if e.kind == "rule":
                name = _rule_name(e)
                if name == "commanders":
                    out.append(Sentence(step, f"Commanders{tag}", (step,), heading=True))
                elif name == "volley":
                    cmd, tbc = c.get("commanders", [-1, -1]), c.get("tbc", [0, 0])
                    for side in range(2):
                        who = self.leader(scenario, side, cmd[side]) if cmd[side] >= 0 else "no leader"
                        out.append(Sentence(step, f"The {SIDES[side]} is commanded by {who}: TBc {tbc[side]}.", ()))
                    out.append(Sentence(step, f"Fire: both sides roll, the attacker first, before any loss{tag}",
                                        (step,), heading=True))
                    if "hits" in c:
                        self.hits = c["hits"]
                elif name == "losses_setup" and getattr(self, "hits", None) is not None:
                    h = self.hits
                    out.append(Sentence(step, f"Hits: the attacker inflicts {h[0]}, the defender {h[1]}; the "
                                        f"attacker takes its losses first{tag}", (step,), heading=True))
                    self.hits = None
                elif name == "result" and "loser" in c:
                    loser, hits, alive, sp = c["loser"], c["hits"], c["alive"], c["sp"]
                    if alive[loser] == 0 and alive[1 - loser] > 0:
                        why = f"the {SIDES[loser]} has no unit left"
                    elif hits[0] != hits[1]:
                        why = f"hits {hits[0]} to {hits[1]}"
                    elif sp[0] != sp[1]:
                        why = f"equal hits, SP left {sp[0]} to {sp[1]}"
                    else:
                        why = "all equal: the defender holds"
                    out.append(Sentence(step, f"Result{tag}", (step,), heading=True))
                    out.append(Sentence(step, f"The {SIDES[1 - loser]} wins ({why}).", ()))
                elif name == "retreat":
                    if c.get("zones") == 0:
                        out.append(Sentence(step, f"The {SIDES[c.get('side', 0)]} has no retreat zone: every "
                                            f"survivor is lost{tag}", (step,)))
                    else:
                        silent.append(step)
                elif name == "pursuit" and c.get("pursuit"):
                    out.append(Sentence(step, f"Pursuit: the {SIDES[1 - c.get('loser', 0)]} fires at the units that "
                                        f"retreated{tag}", (step,), heading=True))
                elif name == "deaths":
                    out.append(Sentence(step, f"The loser's leaders{tag}", (step,), heading=True))
                    before, after = c.get("alive", []), c.get("alive_after", [])
                    rolled = {step2 for step2, d in zip(trace.index, trace.itertuples(index=False))
                              if d.kind == "die" and _fn(d) == "deaths"}
                    killed_outright = len([1 for a, b in zip(before, after) if a and not b]) - sum(
                        1 for s2 in rolled if (trace.loc[s2, "context"] or {}).get("death_from", 99)
                        <= trace.loc[s2, "value"])
                    if killed_outright > 0:
                        out.append(Sentence(step, f"{killed_outright} leader(s) of the loser killed without a roll "
                                            "(a civil-war defeat, P8.8).", ()))
                else:
                    silent.append(step)
            elif e.kind == "die" and _fn(e) == "fire":
                side, v, t = c.get("side", 0), e.value, c.get("threshold", 0)
                out.append(Sentence(step, f"{_cap(self.unit(scenario, side, c.get('unit', 0), c.get('weakened')))} "
                                    f"rolls {v} (d10) against threshold {t}: {'hit' if v < t else 'miss'}{tag}",
                                    (step,)))
            elif e.kind == "die" and _fn(e) == "deaths":
                side, v, k = c.get("side", 0), e.value, c.get("death_from", 10)
                out.append(Sentence(step, f"{_cap(self.leader(scenario, side, c.get('leader', 0)))} rolls {v} (d10): "
                                    f"{'killed' if v >= k else 'survives'} (dies on {k} or more) [P8.7]", (step,)))
            elif e.kind == "decision":
                dice = decision_dice(e, rows[n + 1:])
                done.update(s2 for s2, _ in dice)
                out.append(Sentence(step, self.decision(scenario, e, policy_dice([d for _, d in dice])),
                                    (step,) + tuple(s2 for s2, _ in dice)))
        out.append(Sentence(0, "", tuple(silent)))
        return out

    def decision(self, scenario, e, rolled=""):
        s, v, tag = e.state or {}, e.value, rolled + rule_tag(e.rule)
        side = s.get("side", 0)
        if v is None:
            return f"Decision {e.point}: no action{tag}"
        if e.point == "losses":
            weak = s.get(f"weakened_{v}", 0)
            effect = "eliminated" if weak else "weakened"
            pursuit = " (pursuit)" if s.get("pursuit") else ""
            return (f"The {SIDES[side]} takes a hit{pursuit} ({s.get('hits_left')} of {s.get('hits_total')} left) on "
                    f"{self.unit(scenario, side, v, weak)}: {effect}{tag}")
        if e.point == "retreat":
            lost = [f"unit {i + 1}" for i in range(s.get("units", 0))
                    if s.get(f"alive_{i}") and s.get(f"barred_{i}", 0) >> v & 1]
            lost += [f"leader {j + 1}" for j in range(s.get("leaders", 0))
                     if s.get(f"leader_alive_{j}") and s.get(f"leader_barred_{j}", 0) >> v & 1]
            return (f"The {SIDES[side]}'s survivors retreat into its zone {v}"
                    f"{': barred from it, ' + ', '.join(lost) + ' lost' if lost else ''}{tag}")
        if e.point == "commander":
            return f"The {SIDES[side]} names {self.leader(scenario, side, v)} its commander{tag}"
        return f"Decision {e.point}: {action_meaning(e.actions, v) or 'action ' + str(v)}{tag}"

    def ending(self, trace):
        o = trace.outcome
        if not o:
            return []
        who = "The attacker wins the battle" if o["p_win"] else "The defender wins the battle"
        return [f"{who} (PROPOSAL P8): hits {o['attacker_hits']} to {o['defender_hits']}.",
                f"SP lost: attacker {o['attacker_sp_lost']}, defender {o['defender_sp_lost']}; units eliminated "
                f"{o['attacker_units_eliminated']} and {o['defender_units_eliminated']}, retreated "
                f"{o['attacker_units_retreated']} and {o['defender_units_retreated']}; leaders killed "
                f"{o['attacker_leaders_killed']} and {o['defender_leaders_killed']}."]


# ------------------------------------------------------------------ usurpation (seed 3.6)
def usurpation_context(kind, frame, value):
    """What a usurpation sentence needs (``Narrator.context``)."""
    name, loc = frame.f_code.co_name, frame.f_locals
    if kind == "die":
        p, lead = loc["p"], loc["lead"]
        if name == "validation":
            a, t = int(loc["a"]), int(loc["t"])
            return {"attempt": a, "target": t, "pc": int(lead[U.L_PC, t]), "stratagem": int(p[U.STRAT_0 + 2 * a])}
        if name == "loyalty_zone":
            ls, zs, z, best = loc["ls"], loc["zs"], int(loc["z"]), int(loc["best"])
            victim = 1 - int(loc["player"])
            joining = [ldr for ldr in range(p[U.NL]) if ls[U.LS_ALIVE, ldr] and ls[U.LS_SIDE, ldr] == victim
                       and lead[U.L_ZONE, ldr] == z and not U.titled(ls[U.LS_TITLE, ldr])]
            return {"zone": z, "best": best, "pc": int(lead[U.L_PC, best]), "b": int(loc["b"]),
                    "leaders": joining, "units": 0 if loc["has_titled"] else int(zs[victim, z])}
        if name == "step_c":
            return {"diocese": int(loc["choice"]), "m": int(loc["m"]), "b": int(loc["b"]), "pc": int(loc["pc"]),
                    "literal": int(p[U.LITERAL]), "usurper": int(loc["usurper"])}
        if name == "march_and_assassinations":
            if "result = rng.d10(stream) + modifier" in _source_line(frame):
                return {"what": "assassinat", "target": int(loc["target"]), "modifier": int(loc["modifier"])}
            if "result = rng.d10(stream)" in _source_line(frame):
                return {"what": "counter", "target": int(loc["aim"])}
            x, z = int(loc["x"]), int(loc["z"])
            return {"what": "rally", "usurper": x, "zone": z, "pc": int(lead[U.L_PC, x]), "b": int(loc["b"]),
                    "literal": int(p[U.LITERAL]), "units": int(loc["zs"][1 - p[U.PLAYER], z])}
        return None
    if kind == "rule" and name == "steps_a_b":
        row = loc["row"]
        return {"attempt": int(loc["a"]), "usurper": int(loc["x"]), "b": int(loc["b"]),
                "before": [int(row[U.LEADERS]), int(row[U.UNITS])]}
    if kind == "return" and name == "steps_a_b":
        return {"after": [int(loc["row"][U.LEADERS]), int(loc["row"][U.UNITS])]}
    if kind == "rule" and name == "loyalty_zone":
        row = loc["row"]
        return {"before": [int(row[U.LEADERS]), int(row[U.UNITS])], "zone": int(loc["z"])}
    if kind == "return" and name == "loyalty_zone":
        row = loc["row"]
        return {"after": [int(row[U.LEADERS]), int(row[U.UNITS])]}
    if kind == "return" and name == "march_and_assassinations":
        if loc.get("blocked"):
            return {"blocked_zone": int(loc["z"]), "usurper": int(loc["x"])}
    return None


def _source_line(frame):
    import linecache
    return linecache.getline(frame.f_code.co_filename, frame.f_lineno)


class UsurpationNarrator(Narrator):
    """``semper_victor.usurpation`` told in sentences: the targets, each validation roll, steps A to D of each
    civil war, the Assassinat rolls and who takes the throne."""

    def context(self, kind, frame, value):
        return usurpation_context(kind, frame, value)

    @staticmethod
    def leader(scenario, i):
        leaders = getattr(scenario, "leaders", ())
        if not 0 <= i < len(leaders):
            return f"leader {i}"
        ldr = leaders[i]
        title = f", {TITLES[ldr['title']]}" if ldr["title"] in TITLES else ""
        return f"leader {i} ({ldr['side']}{title}, PC {ldr['pc']}, zone {ldr['zone']})"

    @staticmethod
    def zone(scenario, z):
        zones = getattr(scenario, "zones", ())
        if not 0 <= z < len(zones):
            return f"zone {z}"
        return f"zone {zones[z]['id']} ({zones[z]['diocese']})"

    def sentences(self, trace):
        scenario, out, silent, pending = trace.scenario, [], [], None
        rows = list(zip(trace.index, trace.itertuples(index=False)))
        for n, (step, e) in enumerate(rows):
            c, tag = e.context or {}, rule_tag(e.rule)
            if e.kind == "rule":
                name = _rule_name(e)
                if name == "validation":
                    out.append(Sentence(step, f"Validation: d6 <= the target's PC{tag}", (step,), heading=True))
                elif name == "steps_a_b":
                    x = c.get("usurper", -1)
                    out.append(Sentence(step, f"Civil war of Usurper {self.leader(scenario, x)}, steps A and B "
                                        f"(bonus b = {c.get('b', 0)}){tag}", (step,), heading=True))
                    before = c.get("before", [0, 0])
                    later = next((d.context for s2, d in rows[n + 1:] if d.kind == "rule"
                                  and _rule_name(d) == "loyalty_zone" and "steps_a_b" in d.where.split(" > ")),
                                 None)
                    upto = (later or {}).get("before") or c.get("after") or before
                    out.append(Sentence(step, f"Step A: he changes side and loses his marker; "
                                        f"{upto[0] - before[0]} leader(s) and {upto[1] - before[1]} unit(s) of his "
                                        "zone follow him (SV-A17).", ()))
                elif name == "march_and_assassinations":
                    out.append(Sentence(step, f"Step D: the march, then the Assassinat stratagems{tag}", (step,),
                                        heading=True))
                    if "blocked_zone" in c:
                        rallies = [s2 for s2, d in rows[n + 1:] if d.kind == "die"
                                   and (d.context or {}).get("what") == "rally"]
                        pending = Sentence(rallies[-1] if rallies else step,
                                           f"The march of Usurper {self.leader(scenario, c['usurper'])} stops before "
                                           f"{self.zone(scenario, c['blocked_zone'])}: enemy leaders stand there "
                                           "(the battle of E.2 is not played).", ())
                elif name == "step_c":
                    silent.append(step)
                else:
                    silent.append(step)
            elif e.kind == "die":
                text = self.die(scenario, e, c)
                out.append(Sentence(step, text if text.endswith("]") else text + tag, (step,)))
                if pending is not None and pending.step == step:
                    out.append(pending)
                    pending = None
            elif e.kind == "decision":
                out.append(Sentence(step, self.decision(scenario, e, rows[n + 1:]), (step,)
                                    + tuple(s2 for s2, d in self._decision_dice(e, rows[n + 1:]))))
            if pending is not None and pending.step == step and e.kind != "die":
                out.append(pending)
                pending = None
        if pending is not None:
            out.append(pending)
        out.append(Sentence(0, "", tuple(silent)))
        return out

    @staticmethod
    def _decision_dice(e, after):
        return decision_dice(e, after)

    def die(self, scenario, e, c):
        fn, v = _fn(e), e.value
        if fn == "validation":
            ok = v <= c.get("pc", 0)
            strat = STRATAGEM_CODES[c.get("stratagem", 0)]
            target = self.leader(scenario, c.get("target"))
            return (f"Attempt {c.get('attempt', 0) + 1}, the {strat} stratagem on {target}: d6 = {v} against PC "
                    f"{c.get('pc')}: {'validated' if ok else 'not validated'}")
        if fn == "loyalty_zone":
            total, pc = v + c.get("b", 0), c.get("pc", 0)
            joins = total >= pc
            who = (f"{len(c.get('leaders', []))} leader(s) and {c.get('units', 0)} unit(s) join the Usurper" if joins
                   else "the zone stays loyal")
            zone, best = _cap(self.zone(scenario, c.get("zone", 0))), self.leader(scenario, c.get("best"))
            return f"{zone}: loyalty roll for {best}: d6 = {v}{_signed(c.get('b', 0))} against PC {pc}: {who}"
        if fn == "step_c":
            m, b, pc = c.get("m", 0), c.get("b", 0), c.get("pc", 0)
            total = v + m + b if c.get("literal") else v + m - b
            ok = total < pc
            d = c.get("diocese", 0)
            literal = c.get("literal")
            diocese = DIOCESES[d] if 0 <= d < len(DIOCESES) else d
            result = "it spreads (step B in each of its zones)" if ok else "it does not"
            return (f"Step C: the civil war spreads to {diocese} iff d10 + m {'+' if literal else '-'} b < PC: "
                    f"{v}{_signed(m)}{_signed(b if literal else -b)} = {total} against PC {pc}: {result}")
        if fn == "march_and_assassinations":
            what = c.get("what")
            if what == "assassinat":
                mod = c.get("modifier", 0)
                kills = 8 <= v + mod <= 9
                return (f"The usurping player's Assassinat on {self.leader(scenario, c.get('target'))}: d10 = {v}"
                        f"{_signed(mod)}: {'assassinated' if kills else 'fails'} (8 or 9 kills) [seed 6.3]")
            if what == "counter":
                kills = 8 <= v <= 9
                return (f"The victim's Assassinat on Usurper {self.leader(scenario, c.get('target'))}: d10 = {v}: "
                        f"{'killed' if kills else 'fails'} (8 or 9 kills) [seed 6.3]")
            if what == "rally":
                b, pc = c.get("b", 0), c.get("pc", 0)
                ok = (v + b <= pc) if c.get("literal") else (v - b <= pc)
                return (f"The Usurper's march into {self.zone(scenario, c.get('zone', 0))}: rally roll d6 = {v}"
                        f"{_signed(b if c.get('literal') else -b)} against PC {pc}: "
                        + (f"{c.get('units', 0)} loyal unit(s) rally" if ok else "they stay loyal, the march stops"))
        return f"{fn}: d{e.sides} = {v}"

    def decision(self, scenario, e, after):
        s, v, tag = e.state or {}, e.value, rule_tag(e.rule)
        dice = policy_dice([d for _, d in self._decision_dice(e, after)])
        if v is None:
            return f"Decision {e.point}: no action{tag}"
        if e.point == "target":
            return (f"Attempt {s.get('attempt', 0) + 1}: the {STRATAGEM_CODES[s.get('stratagem', 0)]} stratagem "
                    f"targets {self.leader(scenario, v)}{dice}{tag}")
        if e.point == "diocese":
            return (f"Usurper {self.leader(scenario, s.get('usurper', -1))} chooses "
                    f"{DIOCESES[v] if 0 <= v < len(DIOCESES) else v} for step C{dice}{tag}")
        if e.point == "tie":
            return f"Of the two Usurpers with equal PC, {self.leader(scenario, v)} takes the senior title{dice}{tag}"
        return f"Decision {e.point}: {action_meaning(e.actions, v) or 'action ' + str(v)}{dice}{tag}"

    def ending(self, trace):
        o = trace.outcome
        if not o:
            return []
        if not o["p_validated"]:
            return ["No usurpation is validated: nothing happens."]
        if o["p_win"]:
            head = f"The usurpation succeeds: {self.leader(trace.scenario, o['successor'])} takes the senior title"
        else:
            head = "The usurpation does not succeed" + (": the Usurper is killed" if o["p_usurper_killed"] else "")
        return [f"{head}. {o['leaders']} leader(s) and {o['units']} unit(s) joined ({o['units_rallied']} rallied on "
                f"the march) in {o['dioceses']} Diocese(s); {o['augusti_assassinated']} Augustus assassinated"
                f"{'; a march was stopped' if o['p_march_stopped'] else ''}."]
