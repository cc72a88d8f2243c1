"""Jugule ! traces told as sentences: the duel (4-12 on the hex sheet of 15).

``DuelNarrator`` is the ``Scenario.narrator()`` of ``jugule.duel`` (``core.narrative``): ``context`` reads, in
the replaying child, what each die is for from the procedure that rolled it (initiative, the location die, the
assault die and the HP it costs, a fumble, an appeal's fate die, a net escape ...) and what it needs to be told
(the zone, the armour, the natural the roll needs); ``sentences`` tells the duel turn by turn, each decision of
D3-D16 with the action its gladiator took.
"""
import linecache

from ..core.narrative import Narrator, Sentence, action_meaning, decision_dice, plain, policy_dice, rule_tag
from . import combat as cb
from . import duel as D
from .combat import WEAPON_IDS, ZONES

SIDES = ("A", "B")
FUMBLES = {1: "stumble", 2: "hesitation", 3: "hesitation", 4: "sand in the eyes", 5: "the weapon slips",
           6: "the weapon breaks"}
MOVES = {0: "passes", 1: "steps forward", 2: "steps back", 3: "turns left", 4: "turns right", 5: "stands up"}
PURPOSES = ("dodge", "push-back", "net exit", "step back")
# the rule each die applies, as the procedures that roll them cite it
ROLL_RULES = {"initiative": "JUG-A3", "appeal": "JUG-A61", "escape": "JUG-A38", "to_hit": "JUG-A13",
              "assault_pre": "JUG-A20", "throw_to_hit": "JUG-A42", "location": "JUG 9.1", "location2": "JUG-A50",
              "assault": "JUG 8.2", "assault2": "JUG-A50", "defence": "JUG-A14", "scythe_net": "JUG-A41",
              "scythe_parry": "JUG-A41", "fumble": "JUG 11", "knockdown": "JUG-A48"}


def _zone(z):
    return ZONES[z].replace("_", " ") if 0 <= z < len(ZONES) else f"zone {z}"


def _weapon(kind):
    if kind == cb.W_SHIELD:
        return "shield"
    return WEAPON_IDS[kind].replace("_", " ") if 0 <= kind < len(WEAPON_IDS) else f"item {kind}"


def _line(frame):
    return linecache.getline(frame.f_code.co_filename, frame.f_lineno)


def _up(frame, name):
    """The local ``name`` of the nearest frame at or above ``frame`` that has it."""
    while frame is not None:
        if name in frame.f_locals:
            return frame.f_locals[name]
        frame = frame.f_back
    return None


# ------------------------------------------------------------------ context, read in the replaying child
def duel_context(kind, frame, value):
    name, loc = frame.f_code.co_name, frame.f_locals
    if kind == "rule" and name == "setup":
        G0, IT0 = loc["G0"], loc["IT0"]
        return {"hp": plain(G0[:, cb.G_HP_MAX]), "ap": plain(G0[:, cb.G_AP]), "rank": plain(G0[:, cb.G_RANK]),
                "items": [[int(IT0[s, i, cb.I_KIND]) for i in range(IT0.shape[1]) if IT0[s, i, cb.I_STATE]]
                          for s in range(2)], "distance": int(loc["o"][cb.O_START_DISTANCE])}
    if kind == "return" and name == "cowardice":
        st, G = loc["st"], loc["G"]
        return {"reason": int(st[D.ST_REASON]), "loser": int(st[D.ST_LOSER]),
                "count": [int(G[0, cb.G_COWARD]), int(G[1, cb.G_COWARD])]}
    if kind != "die":
        return None
    proc = frame.f_back if frame.f_code.co_name in ("d6", "dn", "two_d6") and frame.f_back is not None else frame
    pname, p, line = proc.f_code.co_name, proc.f_locals, _line(proc)
    st = _up(proc, "st")
    o = _up(proc, "o")
    context = {"turn": int(st[D.ST_TURN]) if st is not None else 0}
    if pname == "initiative":
        context["roll"] = "initiative"
    elif pname == "appeal":
        side = int(p["side"])
        context.update(roll="appeal", side=side, needs=int(cb.appeal_needs(o, p["G"][side])))
    elif pname == "escape_roll":
        context.update(roll="escape", side=int(p["side"]), k=int(p["k"]), le=int(o[cb.O_NET_ESCAPE_CMP] == 1),
                       captured=int(p["g"][cb.G_CAPTURED]))
    elif pname == "melee":
        a, d = int(p["a"]), int(p["d"])
        context.update(a=a, d=d, kind=int(p["kind"]))
        if "O_MELEE_TO_HIT" in line:
            context.update(roll="to_hit", needs=int(o[cb.O_MELEE_TO_HIT]))
        elif "ML_PRE" in line:
            context.update(roll="assault_pre")
        else:
            zone = value - 1
            context.update(roll="location", zone=zone,
                           blocked=int(cb.neutralised(o, p["h"], zone, p["arc"], p["right"], p["immob"])))
    elif pname == "throw":
        a, d = int(p["a"]), int(p["d"])
        context.update(a=a, d=d, kind=int(p["kind"]))
        if "javelin_needs" in line:
            sts, f = p["st"], p["f"]
            needs = cb.javelin_needs(o, sts[f + D.TH_DIST], sts[f + D.TH_SPOILED] == 1, sts[f + D.TH_RESERVE] == 1)
            context.update(roll="throw_to_hit", needs=int(needs), distance=int(sts[f + D.TH_DIST]))
        else:
            zone = value - 1
            context.update(roll="location", zone=zone,
                           blocked=int(cb.neutralised(o, p["h"], zone, p["arc"], p["right"], p["immob"])))
    elif pname == "strike":
        caller = proc.f_back.f_locals if proc.f_back is not None else {}
        a, d = int(caller.get("a", -1)), int(caller.get("d", -1))
        att, dfn, kind, arc, immob = p["att"], p["dfn"], int(p["kind"]), p["arc"], p["immob"]
        if "zone2 =" in line:
            context.update(roll="location2", a=a, d=d, zone=value - 1)
        else:
            zone = int(p["zone2"]) if "n2 =" in line else int(p["zone"])
            fumbles = value == 1 and bool(p["die_fumbles"])
            loss = 0 if fumbles else int(cb.hit_damage(o, att, dfn, kind, zone, value, arc, immob))
            context.update(roll="assault2" if "n2 =" in line else "assault", a=a, d=d, kind=kind, zone=zone,
                           fumble=int(fumbles), loss=loss, armour=int(cb.armour(dfn, zone, immob)),
                           hp=int(dfn[cb.G_HP]))
    elif pname == "defence":
        target = int(p["target"])
        if "O_DEFENCE_ROLL" in line:
            context.update(roll="defence", side=target, needs=int(o[cb.O_DEFENCE_ROLL]))
        else:
            context.update(roll="scythe_net", side=target)
    elif pname == "fumble":
        context.update(roll="fumble", side=int(p["side"]))
    elif pname == "knockdown":
        target = int(p["target"])
        g = p["g"]
        context.update(roll="knockdown", side=target, ap=int(g[cb.G_AP]), add=int(cb.knockdown_total(o, g, 0)),
                       spent=int(p["st"][p["f"] + D.KD_SPENT]))
    elif pname == "net_throw":
        context.update(roll="scythe_parry", side=int(p["d"]))
    else:
        context.update(roll=pname)
    return context


# ------------------------------------------------------------------ sentences, told in the caller's process
class DuelNarrator(Narrator):
    """``jugule.duel`` told in sentences: the set-up, each turn's split, initiative, movement and combat, every
    die with what it decided, and the end."""

    def context(self, kind, frame, value):
        return duel_context(kind, frame, value)

    @staticmethod
    def names(scenario):
        out = []
        for side, field in enumerate(("a", "b")):
            g = getattr(scenario, field, None)
            out.append(f"{SIDES[side]} ({g})" if isinstance(g, str) else SIDES[side])
        return out

    def sentences(self, trace):
        rows = list(zip(trace.index, trace.itertuples(index=False)))
        who = self.names(trace.scenario)
        out, silent, done = [], [], set()
        turn = 0
        pending_die = {}  # the first die of a pair (initiative, knock-down), until its second

        def heading(step, t):
            nonlocal turn
            if t > turn:
                turn = t
                out.append(Sentence(step, f"Turn {t}", (), heading=True))

        for n, (step, e) in enumerate(rows):
            if step in done:
                continue
            c, tag = e.context or {}, rule_tag(e.rule)
            if e.kind == "rule":
                name = e.what.split(":", 1)[0]
                if name == "setup" and c:
                    items = [", ".join(_weapon(k) for k in c["items"][s]) or "no weapon" for s in range(2)]
                    out.append(Sentence(step, f"Set-up{tag}", (step,), heading=True))
                    for s in range(2):
                        rank = cb.RANKS[c["rank"][s]] if 0 <= c["rank"][s] < len(cb.RANKS) else c["rank"][s]
                        out.append(Sentence(step, f"{who[s]}: {rank}, {c['hp'][s]} HP, {c['ap'][s]} AP, "
                                            f"{items[s]}.", ()))
                    out.append(Sentence(step, f"They start {c['distance']} hexes apart.", ()))
                elif name == "cowardice" and c.get("reason") in (D.R_COWARD, D.R_DOUBLE_COWARD):
                    loser = c.get("loser", -1)
                    text = ("Both gladiators reach the cowardice limit: both are executed" if loser < 0 else
                            f"{who[loser]} has not attacked for {c['count'][loser]} turn(s): executed as a coward")
                    out.append(Sentence(step, text + tag, (step,)))
                else:
                    silent.append(step)
            elif e.kind == "die":
                heading(step, c.get("turn", 0))
                roll = c.get("roll")
                if roll in ("initiative", "knockdown"):
                    first = pending_die.pop(roll, None)
                    if first is None:
                        pending_die[roll] = (step, e.value)
                        continue
                    out.append(Sentence(first[0], self.pair(roll, first[1], e.value, c, who,
                                                            tag or rule_tag(ROLL_RULES[roll])),
                                        (first[0], step)))
                    continue
                out.append(Sentence(step, self.die(e, c, who, tag or rule_tag(ROLL_RULES.get(roll, ""))), (step,)))
            elif e.kind == "decision":
                s = e.state or {}
                heading(step, s.get("turn", 0))
                dice = decision_dice(e, rows[n + 1:])
                done.update(s2 for s2, _ in dice)
                if e.point[2:] == "appeal" and e.value == 0 and not dice:
                    # the checkpoint's other gladiator, when he does not appeal either: one sentence for both
                    other = next(((s2, d) for s2, d in rows[n + 1:] if d.kind != "rule"), (None, None))
                    s2, d = other
                    if (d is not None and d.kind == "decision" and d.point[2:] == "appeal" and d.value == 0
                            and d.point[:2] != e.point[:2] and not decision_dice(d, rows[rows.index(other) + 1:])):
                        done.add(s2)
                        rule = "D3" if e.rule.startswith("D3") else e.rule
                        out.append(Sentence(step, f"Neither {who[0]} nor {who[1]} appeals [{rule}]", (step, s2)))
                        continue
                rolled = policy_dice([d for _, d in dice])
                out.append(Sentence(step, self.decision(e, who) + rolled + tag, (step,) + tuple(s2 for s2, _ in dice)))
        for roll, (step, value) in pending_die.items():
            out.append(Sentence(step, f"{roll}: d6 = {value}", (step,)))
        out.append(Sentence(0, "", tuple(silent)))
        return out

    @staticmethod
    def pair(roll, x, y, c, who, tag):
        if roll == "initiative":
            if x == y:
                return f"Initiative: A rolls {x}, B rolls {y}: a tie{tag}"
            return f"Initiative: A rolls {x}, B rolls {y}: {who[0 if x > y else 1]} is active{tag}"
        total = x + y + c.get("add", 0) - c.get("spent", 0)
        falls = total >= c.get("ap", 0)
        side = c.get("side", 0)
        return (f"Knock-down test of {who[side]}: 2d6 = {x} + {y}, {c.get('add', 0):+d} for wounds, "
                f"-{c.get('spent', 0)} RP: {total} against his AP {c.get('ap')}: "
                f"{'he falls' if falls else 'he stays on his feet'}{tag}")

    @staticmethod
    def die(e, c, who, tag):
        v, roll = e.value, c.get("roll")
        a, d = c.get("a", -1), c.get("d", -1)
        if roll == "appeal":
            needs = c.get("needs", 5)
            spared = v >= needs
            return (f"{who[c['side']]} appeals to the crowd: fate die {v}, needs {needs}: "
                    f"{'spared' if spared else 'executed'}{tag}")
        if roll == "escape":
            ok = v <= c["k"] if c.get("le") else v < c["k"]
            what = "the net" if c.get("captured") else "the lasso"
            return (f"{who[c['side']]} tries to escape {what}: d6 = {v}, needs {'at most' if c.get('le') else 'below'} "
                    f"{c['k']}: {'free' if ok else 'still held'}{tag}")
        if roll == "to_hit":
            return (f"{who[a]}'s to-hit die with the {_weapon(c['kind'])}: {v}, needs {c['needs']}: "
                    f"{'hits' if v >= c['needs'] else 'misses'}{tag}")
        if roll == "assault_pre":
            return f"{who[a]}'s assault die, rolled before the defence: {v}{' (a fumble)' if v == 1 else ''}{tag}"
        if roll == "throw_to_hit":
            return (f"{who[a]} throws the {_weapon(c['kind'])} {c.get('distance')} hexes: to-hit die {v}, needs "
                    f"{c['needs']}: {'hits' if v >= c['needs'] else 'misses'}{tag}")
        if roll in ("location", "location2"):
            second = " of the second attack" if roll == "location2" else ""
            text = f"Location die{second} against {who[d]}: {v}, the {_zone(c['zone'])}"
            if c.get("blocked"):
                text += ": the shield covers it, the assault fails"
            return text + tag
        if roll in ("assault", "assault2"):
            second = " of the second attack" if roll == "assault2" else ""
            if c.get("fumble"):
                return f"{who[a]}'s assault die{second}: {v}, a fumble{tag}"
            loss, hp = c.get("loss", 0), c.get("hp", 0)
            left = hp - min(loss, max(hp, 0))
            return (f"{who[a]}'s assault die{second} with the {_weapon(c['kind'])}: {v}, armour {c.get('armour', 0)} "
                    f"on the {_zone(c['zone'])}: {who[d]} loses {loss} HP ({left} left){tag}")
        if roll == "defence":
            ok = v >= c["needs"]
            return f"{who[c['side']]}'s defence roll: {v}, needs {c['needs']}: {'it works' if ok else 'it fails'}{tag}"
        if roll == "scythe_net":
            result = "the net is destroyed" if v >= 4 else "the net holds"
            return f"The scythe against {who[c['side']]}'s net: d6 = {v}: {result}{tag}"
        if roll == "scythe_parry":
            return (f"{who[c['side']]} parries the net with the scythe: d6 = {v}: "
                    f"{'the net is destroyed' if v >= 4 else 'the net falls to the ground'}{tag}")
        if roll == "fumble":
            return f"{who[c['side']]}'s fumble die: {v}, {FUMBLES.get(v, '?')}{tag}"
        return f"{roll}: d{e.sides} = {v}{tag}"

    @staticmethod
    def decision(e, who):
        s, v = e.state or {}, e.value
        point = e.point.split("_", 1)[1] if e.point[:2] in ("a_", "b_") else e.point
        side = s.get("side", 0 if e.point.startswith("a_") else 1)
        me = who[side] if 0 <= side < 2 else "?"
        if v is None:
            return f"{me}: decision {point}, no action"
        if point == "appeal":
            return f"{me} {'appeals for mercy' if v == 1 else 'does not appeal'}"
        if point == "allocate":
            m, c = divmod(v, 100)
            return f"{me} splits {s.get('ap')} AP: M {m}, C {c}, R {s.get('ap', 0) - m - c}"
        if point == "scutum_zone":
            return f"{me}'s scutum covers the {_zone(v)} this turn"
        if point == "move":
            if v in MOVES:
                text = MOVES[v]
            elif 10 <= v < 20:
                text = f"picks up item {v - 10}"
            elif 20 <= v < 30:
                text = f"tries to escape with {v - 20} MP"
            else:
                text = f"slides in direction {v - 30}"
            return f"{me} {text} (distance {s.get('distance')}, M {s.get('M')})"
        if point == "react":
            if v == 0:
                return f"{me} does not react"
            if v == 7:
                return f"{me} steps back (2 RP)"
            return f"{me} turns to face direction {v - 1}"
        if point in ("attack", "free_assault"):
            free = " (free assault)" if point == "free_assault" else ""
            if v == 0:
                return f"{me} {'declines the free assault' if free else 'passes'}"
            if 10 <= v < 20:
                return f"{me} attacks with the {_weapon(s.get(f'kind_{v - 10}', -1))}{free} (C {s.get('C')})"
            if 20 <= v < 30:
                return f"{me} throws the spear{free}"
            if v == 30:
                return f"{me} bashes with the shield{free}"
            if v == 40:
                return f"{me} strikes with the improvised shield{free}"
            if 50 <= v < 56:
                return f"{me} turns to face direction {v - 50} for free"
            return f"{me}: attack code {v}{free}"
        if point == "defend":
            text = {0: "does not defend", 1: "parries (2 RP)", 2: "dodges"}.get(v, f"defends ({v})")
            zone = _zone(s.get("zone", 0))
            return f"{me} {text} against a blow at the {zone} (expected loss {s.get('expected_loss')})"
        if point == "net_escape":
            text = {0: "is captured by the net", 1: "leaves the net's area", 2: "parries the net with the scythe"}
            return f"{me} {text.get(v, v)}"
        if point == "spoil":
            return f"{me} {'spends 1 RP to spoil the throw' if v == 1 else 'does not spoil the throw'}"
        if point == "stumble":
            return f"{me} {'spends 1 RP to stay on his feet' if v == 1 else 'falls'}"
        if point == "recover":
            return f"{me} {'spends 1 RP to keep his weapon' if v == 1 else 'lets the weapon fall'}"
        if point == "knockdown":
            return f"{me} spends {v} RP against the fall"
        if point == "hex_choice":
            purpose = s.get("purpose", 0)
            what = PURPOSES[purpose] if 0 <= purpose < len(PURPOSES) else "move"
            return f"{me} picks hex ({s.get(f'q{v}')}, {s.get(f'r{v}')}) for the {what}"
        if point == "aim":
            return f"{me} aims at the {_zone(v)}"
        return f"{me}: {point} {action_meaning(e.actions, v) or v}"

    def ending(self, trace):
        o = trace.outcome
        if not o:
            return []
        who = self.names(trace.scenario)
        if o["p_unfinished"]:
            head = "The duel is unfinished at the turn limit"
        elif o["p_both_out"]:
            head = "Both gladiators are executed as cowards"
        else:
            winner, loser = (who[0], who[1]) if o["p_win"] else (who[1], who[0])
            how = ("killed" if o["p_by_death"] else "spared on appeal" if o["p_mercy_granted"] else
                   "executed on appeal" if o["p_mercy_refused"] else "executed as a coward" if o["p_by_cowardice"]
                   else "beaten")
            head = f"{winner} wins: {loser} is {how}"
        return [f"{head}, after {o['turns']} turn(s). HP left: A {o['hp_left_a']}, B {o['hp_left_b']}; damage dealt: "
                f"A {o['damage_dealt_a']}, B {o['damage_dealt_b']}; fumbles: A {o['fumbles_a']}, B {o['fumbles_b']}."]
