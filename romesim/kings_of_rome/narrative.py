"""Kings of Rome traces told as sentences: the battle (5.7, the ambush battle of 6.4 c) and the siege (5.5).

``BattleNarrator`` and ``SiegeNarrator`` are the ``Scenario.narrator()`` of ``kings_of_rome.battle``,
``kings_of_rome.ambush`` and ``kings_of_rome.siege`` (``core.narrative``): ``context`` reads, in the replaying
child, what a sentence needs from the kernel's frames (the unit that rolls, the one it rolls at, its DRM and the
Virtus to beat, the round, the front line); ``sentences`` tells the game from the trace's events. A siege's relief
and sortie battles are told by the battle's sentences.
"""
import numpy as np

from ..core.narrative import Narrator, Sentence, action_meaning, caller, plain, policy_dice, rule_tag
from . import battle as B
from . import siege as S
from .policies import BATTLE_POINTS

SIDES = ("Rome", "the NR")
BATTLE_NAMES = {dp.name for dp in BATTLE_POINTS}
PEOPLE = {"latins": "Latin", "sabines": "Sabine", "volsci": "Volscian", "etruscans": "Etruscan", "aequi": "Aequian",
          "piceni": "Picene", "falisci": "Faliscan", "capenati": "Capenate", "samnites": "Samnite", "gauls": "Gallic",
          "greeks": "Greek", "umbri": "Umbrian"}
BOXES = ("right box", "centre box", "left box")
CLASSES = ("", "I", "II", "III", "IV", "V")
PHASES = {B.PHASE_SETUP: "set-up", B.PHASE_TACTICS: "tactics", B.PHASE_CLASH: "vanguard clash",
          B.PHASE_RETREAT: "retreat round", B.PHASE_3: "phase 3"}
RANK_NAMES = {1: "Interrex", 2: "Magister populi", 3: "Magister equitum", 4: "Tribunus populi",
              5: "Tribunus celerum", 6: "general"}
ENDINGS = (("p_end_withdrawal", "the NR army's withdrawal into its city (5.7.1)"),
           ("p_end_spolia", "the Spolia Opima duel (5.7.2.1)"),
           ("p_end_defence_defence", "DEFENCE against DEFENCE (5.7.3)"),
           ("p_end_retreat_round", "the retreat round after the vanguard clash (5.7.4)"),
           ("p_end_stopped", "the battle stopped before phase 3 (5.7.4-5.7.5)"),
           ("p_end_phase3", "phase 3 (5.7.9-5.7.11)"))
# the battle's procedures a sentence about a die or a decision already accounts for: told in no line of their own
BATTLE_SILENT = {"_garrison_penalty", "participants_setup", "participants", "spolia_champion", "class_drm",
                 "may_attack", "combat_drm", "box_vacated", "battle_over", "can_progress", "roll", "track_winner",
                 "accused", "tactic", "nr_tactic", "leader_position", "gate", "deploy", "reserve",
                 "leader_attack_hits", "start", "leader_attacks", "next_round", "triumph", "after_clash",
                 "spolia_duel", "preventive_withdrawal", "pre_battle_penalties", "lose_unit", "spolia", "vanguard",
                 "retreat", "phase3", "combat", "results", "lose_champion"}


BATTLE_FRAMES = {"battle_init", "battle_advance", "battle_decide", "battle_legal", "battle_apply"}


def _rule_name(e):
    return e.what.split(":", 1)[0]


def _fn(e):
    return e.where.rsplit(" > ", 1)[-1]


def _cap(text):
    return text[:1].upper() + text[1:]


def _signed(n):
    return f" {n:+d}" if n else ""


# ------------------------------------------------------------------ context, read in the replaying child
def battle_context(kind, frame, value):
    """What the battle's sentences need from the kernel's frame at an event (``Narrator.context``)."""
    name = frame.f_code.co_name
    loc = frame.f_locals
    if kind == "die":
        return _battle_die(name, frame, loc, value)
    if kind == "decision":
        parent = caller(frame, "battle_decide")
        if parent is None:
            return None
        g = parent.f_locals["g"]
        return {"unit": int(g[B.G_ORDER + g[B.G_K]]), "round": int(g[B.G_ROUNDS]),
                "battle_point": int(parent.f_locals["point"])}
    g = loc.get("g")
    if kind == "rule":
        if name == "start":
            p = loc["p"]
            context = {"units": plain(loc["units"]), "leaders": plain(loc["leaders"]),
                       "n_units": [int(p[B.P_UNITS]), int(p[B.P_UNITS_NR])], "omen": int(p[B.P_OMEN]),
                       "n_leaders": [int(p[B.P_LEADERS]), int(p[B.P_LEADERS_NR])],
                       "attacker": B.ROME if p[B.P_ROMAN_ATTACKER] else B.NR, "mode": int(p[B.P_MODE])}
            siege = caller(frame, "siege_battles")
            if siege is not None:
                relief = np.shares_memory(p, siege.f_locals["bp"][S.RELIEF_BATTLE])
                context["siege_battle"] = "relief" if relief else "sortie"
            return context
        if name == "combat":
            return {"round": int(g[B.G_ROUNDS]), "front": plain(g[B.G_FRONT:B.G_FRONT + 6]),
                    "leader_box": plain(g[B.G_LBOX:B.G_LBOX + 2]), "cmd": plain(g[B.G_CMD:B.G_CMD + 2]),
                    "ambush_first": int(loc["p"][B.P_MODE] == B.MODE_AMBUSH and g[B.G_ROUNDS] == 1)}
        if name == "lose_unit":
            return {"side": int(loc["side"]), "unit": int(loc["i"])}
        if name == "vanguard":
            return {"attacker": int(g[B.G_VG_ATTACKER])}
        if name == "retreat":
            return {"defender": int(g[B.G_DEFENDER])}
        if name == "phase3":
            return {"fight": int(g[B.G_FIGHT])}
        if name == "results":
            return {"winner": int(g[B.G_WINNER]), "scores": [int(B.score(g, B.ROME)), int(B.score(g, B.NR))]}
        if name == "after_clash":
            return {"defender": int(g[B.G_DEFENDER]), "clash": int(g[B.G_CLASH])}
        return None
    # a rule procedure returning
    if name == "lose_unit":
        return {"penalty": int(g[B.G_PEN + loc["side"]])}
    if name == "pre_battle_penalties":
        p, status = loc["p"], loc["status"]
        return {"pre": plain(g[B.G_PRE:B.G_PRE + 2]), "cmd": plain(g[B.G_CMD:B.G_CMD + 2]),
                "part": [[int(status[side, i, B.S_PART]) for i in range(p[B.P_UNITS + side])] for side in range(2)]}
    if name == "preventive_withdrawal":
        return {"withdrew": int(bool(value))}
    if name == "spolia_duel":
        return {"duel": int(value)}
    if name == "after_clash":
        return {"fight": int(g[B.G_FIGHT]), "retreat": int(g[B.G_STAGE] == B.ST_RETREAT),
                "point": int(g[B.G_POINT]), "scores": [int(B.score(g, B.ROME)), int(B.score(g, B.NR))]}
    if name == "next_round":
        p = loc["p"]
        ended = int(g[B.G_STAGE] == B.ST_RESULTS)
        vacated = [[side, b] for side in range(2) for b in range(3) if B.box_vacated(p, g, side, b)]
        return {"ended": ended, "vacated": vacated, "round": int(g[B.G_ROUNDS])}
    return None


def _battle_die(name, frame, loc, value):
    if name == "roll":
        context = {"side": int(loc["side"]), "drm": int(loc["drm"]), "target": int(loc["target"]),
                   "phase": int(loc["phase"]), "round": int(loc["g"][B.G_ROUNDS])}
        up = frame.f_back
        there = up.f_locals if up is not None else {}
        if up is not None and up.f_code.co_name == "vanguard":
            attacker, side = int(there["attacker"]), context["side"]
            a, d = int(there["a"]), int(there["d"])
            context["me"], context["foe"] = (a, d) if side == attacker else (d, a)
        elif "me" in there and "foe" in there:
            context["me"], context["foe"] = int(there["me"]), int(there["foe"])
        if up is not None and up.f_code.co_name == "combat":
            context["box"] = int(there["step"]) // 2
        return context
    if name == "leader_attack_hits":
        p, g, leaders, side = loc["p"], loc["g"], loc["leaders"], int(loc["side"])
        return {"side": side, "omen": int(p[B.P_OMEN]) if side == B.ROME else 0, "ge": int(p[B.P_LEADER_GE]),
                "target": int(leaders[1 - side, g[B.G_CMD + 1 - side], B.L_VIRTUS])}
    if name == "spolia_duel":
        return {"roman_needs": int(loc["roman_needs"]), "nr_needs": int(loc["nr_needs"])}
    if name == "after_clash":
        return {"astutia": int(loc["astutia"])}
    if name == "nr_box":
        up = caller(frame, "reserve_unit")
        return {"empty": [int(loc["e0"]), int(loc["e1"]), int(loc["e2"])],
                "unit": int(up.f_locals["i"]) if up is not None else -1}
    if name == "triumph":
        p = loc["p"]
        return {"equal_8": int(p[B.P_EQUAL_8_ACQUITTED]), "always": int(p[B.P_IP_LOSS_ALWAYS])}
    if name == "battle_builtin":
        return {"point": int(loc["point"])}
    return None


def siege_context(kind, frame, value):
    """The siege's rolls and decisions (``Narrator.context``); its battles' events as the battle's."""
    name = frame.f_code.co_name
    loc = frame.f_locals
    if kind == "die" and name == "siege_roll":
        up = caller(frame, "siege_rolls")
        p, lead = up.f_locals["p"], int(up.f_locals["lead"])
        table = loc["table"]
        return {"kind": int(loc["kind"]), "stage": int(loc["stage"]), "ok": int(table[loc["kind"], value]),
                "garrison": int(p[S.GARRISON]), "leader": lead, "omen": int(p[S.OMEN]),
                "first_ge": int(p[S.FIRST_GE]), "second_eq": int(p[S.SECOND_EQ]),
                "reroll": int("rerolls" in loc), "points": int(loc["points"])}
    if kind == "die" and name == "siege_rolls":
        p = loc["p"]
        return {"equal_8": int(p[S.EQUAL_8_ACQUITTED]), "always": int(p[S.IP_LOSS_ALWAYS])}
    if kind == "rule" and name == "siege_rolls":
        p = loc["p"]
        return {"garrison": int(p[S.GARRISON]), "leader": int(loc["lead"]), "units": int(loc["units"]),
                "astutia": int(p[S.ASTUTIA])}
    if kind == "rule" and name == "tribune_fate":
        p = loc["p"]
        return {"tribune": int(p[S.TRIBUNE]), "stack": int(p[S.TRIBUNE_STACK]), "won": int(loc["row"][S.WIN])}
    if kind == "return" and name == "siege_battles":
        return {"go_on": int(value[1]), "leader_left": int(value[2]), "units_left": int(value[3])}
    if kind == "decision" and caller(frame, "siege_rolls") is None:
        return battle_context(kind, frame, value)
    if kind == "decision":
        return None
    return battle_context(kind, frame, value)


# ------------------------------------------------------------------ sentences, told in the caller's process
class BattleStory:
    """Tells a battle's events as sentences (and, for a siege, the events of its battles)."""

    def __init__(self, trace):
        self.trace = trace
        self.units = self.leaders = None
        self.n_units = [0, 0]
        self.cmd = [-1, -1]
        self.part = None
        self.people = getattr(trace.scenario, "nr_people", "")
        self.last_roll = None  # (key, hit) of the last combat die
        self.last_front = None
        self.omen = 0
        self.attacker = B.ROME
        self.phase1 = False

    # --- naming
    def unit(self, side, i):
        if self.units is None or i < 0:
            return "a unit"
        kind, virtus, klass, captivi = self.units[side][i][:4]
        what = "cavalry" if kind == B.CAVALRY else "infantry"
        if side == B.ROME:
            extra = f", class {CLASSES[klass]}" if kind == B.INFANTRY and 0 < klass < len(CLASSES) else ""
            return f"Roman {what} #{i + 1} (V{virtus}{extra})"
        people = PEOPLE.get(self.people, "NR")
        return f"{people} {what} #{i + 1} (V{virtus}{', Captivi' if captivi else ''})"

    def leader(self, side, a):
        if self.leaders is None or a < 0:
            return "no leader"
        row = self.leaders[side][a]
        if side == B.ROME:
            rank = "King" if row[B.L_KING] else RANK_NAMES.get(row[B.L_RANK], "leader")
            return f"{rank} (leader #{a + 1}, V{row[B.L_VIRTUS]}, Astutia {row[B.L_ASTUTIA]})"
        return f"NR leader #{a + 1} (V{row[B.L_VIRTUS]}, Astutia {row[B.L_ASTUTIA]})"

    # --- the story
    def tell(self, steps):
        trace, out, silent = self.trace, [], []
        rows = {step: e for step, e in zip(trace.index, trace.itertuples(index=False))}
        steps = list(steps)
        done = set()
        for n, step in enumerate(steps):
            if step in done:
                continue
            e = rows[step]
            told = None
            if e.kind == "rule":
                told = self.rule(step, e, out)
            elif e.kind == "die":
                told = self.die(step, e, rows, steps[n + 1:])
            elif e.kind == "decision":
                dice = []
                for later in steps[n + 1:]:
                    d = rows[later]
                    if d.kind != "die" or e.what not in d.where.split(" > "):
                        break
                    dice.append((later, d))
                told = self.decision(step, e, dice)
                done.update(s for s, _ in dice)
            if told is None:
                if e.kind == "rule" and _rule_name(e) in BATTLE_SILENT:
                    silent.append(step)
                continue
            out.extend(told if isinstance(told, list) else [told])
        out.append(Sentence(steps[0] if steps else 0, "", tuple(silent)))
        return out

    def rule(self, step, e, out):
        name, c = _rule_name(e), e.context or {}
        if name == "start":
            self.units, self.leaders = c.get("units"), c.get("leaders")
            self.n_units, self.omen, self.attacker = c.get("n_units", [0, 0]), c.get("omen", 0), c.get("attacker", 0)
            self.phase1, self.last_front, self.last_roll = False, None, None
            battle = {"relief": "Relief battle (S0, 9.2.7.3)", "sortie": "Sortie battle (5.5.1)"}.get(
                c.get("siege_battle"), "Set-up")
            if c.get("siege_battle") == "sortie":
                self.people = getattr(self.trace.scenario, "nr_people", "")
            elif c.get("siege_battle") == "relief":
                self.people = "falisci"
            roman = ", ".join(self.unit(B.ROME, i) for i in range(self.n_units[0]))
            nr = ", ".join(self.unit(B.NR, i) for i in range(self.n_units[1]))
            leaders = [", ".join(self.leader(side, a) for a in range(c.get("n_leaders", [0, 0])[side])) or "none"
                       for side in range(2)]
            return [Sentence(step, f"{battle} [KoR 5.7.6]", (step,), heading=True),
                    Sentence(step, f"Rome: {roman}; leaders: {leaders[0]}.", ()),
                    Sentence(step, f"The NR: {nr}; leaders: {leaders[1]}.", ())]
        if name == "preventive_withdrawal" and c.get("withdrew"):
            return Sentence(step, "The NR army withdraws inside the walls of its city: the battle becomes a siege"
                            + rule_tag(e.rule), (step,))
        if name == "pre_battle_penalties":
            self.cmd, self.part = c.get("cmd", [-1, -1]), c.get("part")
            fielded = [", ".join(self.unit(side, i) for i, on in enumerate((self.part or [[], []])[side]) if on)
                       or "no unit" for side in range(2)]
            pre = c.get("pre", [0, 0])
            return [Sentence(step, f"Rome fights with {fielded[0]}, commanded by {self.leader(0, self.cmd[0])}.",
                             ()),
                    Sentence(step, f"The NR fights with {fielded[1]}, commanded by {self.leader(1, self.cmd[1])}.",
                             ()),
                    Sentence(step, f"Pre-battle penalties on the track: Rome {pre[0]}, the NR {pre[1]}"
                             f"{rule_tag(e.rule)}", (step,))]
        if name in ("spolia", "tactic") and not self.phase1:
            self.phase1 = True
            return Sentence(step, f"Phase 1: {'Spolia Opima and ' if name == 'spolia' else ''}tactics"
                            f"{rule_tag(e.rule)}", (step,), heading=True)
        if name == "spolia_duel":
            duel = c.get("duel", 0)
            text = {0: "The duel ends without a result: the battle goes on",
                    1: "The NR commander falls: Rome wins the battle (+3 IP, +3 VP)",
                    2: "The Roman champion falls: the NR wins the battle (-3 IP, -3 VP)",
                    3: "Both leaders fall: the battle goes on without them"}[duel]
            self.duel_result = Sentence(step, text + rule_tag(e.rule), ())
            return Sentence(step, f"The Spolia Opima duel: each leader rolls a d6 and must exceed the other's "
                            f"Virtus{rule_tag(e.rule)}", (step,))
        if name == "vanguard":
            a = c.get("attacker", 0)
            return Sentence(step, f"Phase 2: vanguard clash, {SIDES[a]}'s cavalry rolls first{rule_tag(e.rule)}",
                            (step,), heading=True)
        if name == "after_clash":
            told = []
            if c.get("retreat"):
                told.append(Sentence(step, f"{_cap(SIDES[c.get('defender', 0)])} (DEFENCE) has no cavalry "
                                     f"left: it retreats{rule_tag(e.rule)}", (step,)))
            elif c.get("clash"):
                scores = c.get("scores", [0, 0])
                won = "Rome wins" if c.get("point") == B.DP_B_CONTINUE else (
                    "the NR wins" if scores[1] > scores[0] else "nobody wins")
                text = f"After the clash the track reads Rome {scores[0]}, the NR {scores[1]}: {won} the clash"
                if not c.get("fight") and won == "nobody wins":
                    text += ", and the battle stops"
                told.append(Sentence(step, text + rule_tag(e.rule), (step,)))
            return told or None
        if name == "retreat":
            d = c.get("defender", 0)
            return Sentence(step, f"Retreat round: {SIDES[d]} (DEFENCE) rolls with -1"
                            f"{rule_tag(e.rule)}", (step,), heading=True)
        if name == "phase3":
            if c.get("fight"):
                return Sentence(step, f"Phase 3{rule_tag(e.rule)}", (step,), heading=True)
            return Sentence(step, f"Phase 3 is not fought{rule_tag(e.rule)}", (step,))
        if name == "combat":
            told = [Sentence(step, f"Phase 3, round {c.get('round', 0)}{rule_tag(e.rule)}", (step,), heading=True)]
            front = c.get("front")
            line = (front, c.get("leader_box"))
            if front is not None and line != self.last_front:
                self.last_front = line
                boxes = []
                for b in range(3):
                    r, n = front[b], front[3 + b]
                    boxes.append(f"{BOXES[b]}: {self.unit(0, r) if r >= 0 else 'empty'} v "
                                 f"{self.unit(1, n) if n >= 0 else 'empty'}")
                where = []
                for side in range(2):
                    box = (c.get("leader_box") or [-1, -1])[side]
                    if (c.get("cmd") or [-1, -1])[side] >= 0:
                        where.append(f"{'the Roman' if side == 0 else 'the NR'} commander in the "
                                     f"{BOXES[box] if box >= 0 else 'reserve'}")
                told.append(Sentence(step, "Front line: " + "; ".join(boxes) + (
                    f" ({', '.join(where)})" if where else "") + ".", ()))
            if c.get("ambush_first"):
                told.append(Sentence(step, "The Roman units do not roll in the first round of an ambush (6.4 c).",
                                     ()))
            return told
        if name == "lose_unit":
            side, i = c.get("side", 0), c.get("unit", -1)
            captured = self.units is not None and i >= 0 and self.units[side][i][B.U_CAPTIVI]
            pen = c.get("penalty")
            track = f"; {SIDES[side]}'s track {-min(pen, B.TRACK_FLOOR)}" if pen is not None else ""
            return Sentence(step, f"{self.unit(side, i)} is eliminated{' and captured (Captivi)' if captured else ''}"
                            f"{track}{rule_tag(e.rule)}", (step,))
        if name == "next_round" and c.get("ended"):
            vacated = c.get("vacated") or []
            if vacated:
                why = "; ".join(f"{SIDES[s]}'s {BOXES[b]} is left empty" for s, b in vacated)
            else:
                why = "no die can change anything any more"
            return Sentence(step, f"The battle ends after {c.get('round', 0)} round(s) of phase 3: {why} "
                            "[KoR 5.7.11]", (step,))
        if name == "results":
            w = c.get("winner", -1)
            scores = c.get("scores", [0, 0])
            who = {B.ROME: "Rome wins", B.NR: "the NR wins"}.get(w, "no winner")
            return [Sentence(step, f"Result{rule_tag(e.rule)}", (step,), heading=True),
                    Sentence(step, f"Track: Rome {scores[0]}, the NR {scores[1]}: {who}.", ())]
        return None

    def die(self, step, e, rows, after):
        fn, c, v = _fn(e), e.context or {}, e.value
        tag = rule_tag(e.rule)
        if fn == "roll":
            side, drm, target = c.get("side", 0), c.get("drm", 0), c.get("target", 0)
            me, foe = c.get("me", -1), c.get("foe", -1)
            key = (side, me, foe, c.get("phase"), c.get("round"))
            hit = v + drm > target
            again = self.last_roll is not None and self.last_roll[0] == key and not self.last_roll[1]
            self.last_roll = (key, hit)
            where = f"{BOXES[c['box']]}: " if "box" in c else ""
            result = "hit" if hit else "miss"
            if again:
                return Sentence(step, f"{where}{self.unit(side, me)} rerolls with an Astutia point: {v}{_signed(drm)} "
                                f"against Virtus {target}: {result}{tag}", (step,))
            return Sentence(step, f"{where}{self.unit(side, me)} rolls {v}{_signed(drm)} against Virtus {target} of "
                            f"{self.unit(1 - side, foe)}: {result}{tag}", (step,))
        if fn == "leader_attack_hits":
            side, target, omen = c.get("side", 0), c.get("target", 0), c.get("omen", 0)
            total = v + omen
            hit = total >= target if c.get("ge") else total > target
            foe = "the NR" if side == B.ROME else "the Roman"
            return Sentence(step, f"A reserve cavalry of {SIDES[side]} attacks {foe} commander (V{target}): rolls "
                            f"{v}{_signed(omen)}: {'hit, the commander is eliminated' if hit else 'miss'}{tag}",
                            (step,))
        if fn == "spolia_duel":
            roman = "roman_hits" in e.what
            needs = c.get("roman_needs" if roman else "nr_needs", 0)
            who = "The Roman champion" if roman else "The NR commander"
            told = [Sentence(step, f"{who} rolls {v} and needs more than {needs}: "
                             f"{'hit' if v > needs else 'miss'}{tag}", (step,))]
            nxt = next((rows[s] for s in after if rows[s].kind == "die"), None)
            if (nxt is None or _fn(nxt) != "spolia_duel") and getattr(self, "duel_result", None) is not None:
                told.append(Sentence(step, self.duel_result.text, ()))
                self.duel_result = None
            return told
        if fn == "after_clash":
            a = c.get("astutia", 0)
            return Sentence(step, f"The NR won the clash: it goes on to phase 3 iff a d6 exceeds its commander's "
                            f"Astutia {a}: rolls {v}: {'phase 3' if v > a else 'the battle stops'}{tag}", (step,))
        if fn == "deploy":
            order = B.BOX_ORDERS[v - 1]
            return Sentence(step, f"The NR front line takes a random box order: d{e.sides} = {v}, its strongest "
                            f"unit in the {BOXES[order[0]]}{tag}", (step,))
        if fn == "nr_box":
            empty = [BOXES[b] for b, on in enumerate(c.get("empty", [])) if on]
            pick = empty[v - 1] if 0 < v <= len(empty) else "?"
            return Sentence(step, f"{self.unit(B.NR, c.get('unit', -1))} moves up from the reserve to a vacated box "
                            f"drawn among {', '.join(empty)}: d{e.sides} = {v}, the {pick}{tag}", (step,))
        if fn == "triumph":
            return self.trial(step, e, rows, after, minus=2, rule="KOR-A37")
        return None

    def trial(self, step, e, rows, after, minus, rule):
        """The ignominy trial's 2d6: told once, at its second die."""
        first = getattr(self, "trial_first", None)
        if first is None:
            self.trial_first = (step, e.value)
            return Sentence(step, "", (step,))
        self.trial_first = None
        c = e.context or {}
        verdict = first[1] + e.value - minus
        acquitted = verdict >= 8 if c.get("equal_8") else verdict > 8
        loss = c.get("always") or not acquitted
        return Sentence(first[0], f"Ignominy trial: 2d6 = {first[1]} + {e.value}, less {minus}: {verdict}, "
                        f"{'acquitted' if acquitted else 'convicted'}{' (-3 IP)' if loss else ''} [{rule}]",
                        (first[0], step))

    def decision(self, step, e, dice):
        c = e.context or {}
        if e.point not in BATTLE_NAMES and "battle_point" in c:
            # a battle fought inside another game with the battle's own bots (a siege's sortie): the trace names
            # no point of the scenario's, the battle's point is the one the kernel asked
            dp = BATTLE_POINTS[c["battle_point"]]
            e = e._replace(point=dp.name, rule=dp.rule, actions=dp.actions,
                           state=dict(zip(dp.state, (e.state or {}).values())))
        point, v, s = e.point, e.value, e.state or {}
        covers = (step,) + tuple(d for d, _ in dice)
        tag = rule_tag(e.rule)
        rolled = policy_dice([d for _, d in dice])
        meaning = action_meaning(e.actions, v)
        if v is None:
            return Sentence(step, f"Decision {point}: no action (the policy failed){tag}", covers)
        if point == "commander":
            return Sentence(step, f"Rome's commander: {self.leader(0, v)}{rolled}{tag}", covers)
        if point == "participants":
            return Sentence(step, f"{self.unit(0, c.get('unit', -1))} {meaning}{rolled}{tag}", covers)
        if point == "spolia":
            text = ("Rome's champion challenges the NR commander to the Spolia Opima duel" if v == 1 else
                    "Rome does not challenge the NR commander to the Spolia Opima duel")
            return Sentence(step, text + rolled + tag, covers)
        if point == "tactic":
            return Sentence(step, f"Rome chooses {meaning} (strength {s.get('roman_strength')} v "
                            f"{s.get('nr_strength')}){rolled}{tag}", covers)
        if point == "nr_tactic":
            attack, defence = s.get("attack_markers", 0), s.get("defence_markers", 0)
            draw = "".join(f": d{d.sides} = {d.value} among {attack} ATTACK and {defence} DEFENCE marker(s)"
                           for _, d in dice)
            return Sentence(step, f"The NR draws {meaning}{draw}{tag}", covers)
        if point in ("vanguard_pairing", "retreat_pairing"):
            return Sentence(step, f"Rome sets {self.unit(0, v)} against {self.unit(1, c.get('unit', -1))}"
                            f"{rolled}{tag}", covers)
        if point in ("continue_after_clash", "fight_phase3"):
            text = "Rome fights phase 3" if v == 1 else "Rome stops the battle before phase 3"
            return Sentence(step, text + rolled + tag, covers)
        if point == "deployment":
            return Sentence(step, f"Rome deploys {self.unit(0, v)} in the {BOXES[s.get('box', 0)]}{rolled}{tag}",
                            covers)
        if point == "leader_position":
            where = f"in the {BOXES[v]}" if v < 3 else "in the battle reserve"
            return Sentence(step, f"The Roman commander stands {where}{rolled}{tag}", covers)
        if point == "reroll":
            left = s.get("astutia_left", 0)
            text = (f"Rome spends an Astutia point ({left - 1} left) to reroll the failed {s.get('die')}"
                    if v == 1 else f"Rome keeps the failed {s.get('die')}")
            return Sentence(step, text + rolled + tag, covers)
        if point == "reserve_infantry":
            text = "moves up into a vacated box" if v == 1 else "stays in reserve"
            return Sentence(step, f"{self.unit(0, c.get('unit', -1))} {text}{rolled}{tag}", covers)
        if point == "reserve_cavalry":
            text = {0: "fills a vacated box", 1: "attacks the NR commander at the front", 2: "does nothing"}.get(v, "?")
            return Sentence(step, f"{self.unit(0, c.get('unit', -1))} {text}{rolled}{tag}", covers)
        if point == "fill_box":
            facing = s.get(f"facing_{v}", 0)
            return Sentence(step, f"{self.unit(0, c.get('unit', -1))} fills the {BOXES[v]}, facing "
                            f"{'NR V' + str(facing) if facing else 'no NR unit'}{rolled}{tag}", covers)
        if point == "triumph":
            text = "Rome claims the Triumph" if v == 1 else "Rome declines the Triumph"
            return Sentence(step, text + rolled + tag, covers)
        return Sentence(step, f"Decision {point}: {meaning or 'action ' + str(v)}{rolled}{tag}", covers)


def battle_ending(outcome):
    """How a battle ended, from its outcome row."""
    if not outcome:
        return []
    who = "Rome wins the battle" if outcome["p_win"] else (
        "The NR wins the battle" if outcome["p_loss"] else "The battle has no winner")
    how = next((text for key, text in ENDINGS if outcome.get(key)), "")
    lines = [f"{who}{', ended by ' + how if how else ''}: track Rome {outcome['roman_score']}, "
             f"the NR {outcome['nr_score']}."]
    losses = (f"Rome lost {outcome['roman_units_lost']} unit(s) ({outcome['roman_units_captured']} captured)"
              f"{', its commander' if outcome['p_roman_leader_lost'] else ''}; the NR lost "
              f"{outcome['nr_units_lost']} unit(s) ({outcome['nr_units_captured']} captured)"
              f"{', its commander' if outcome['p_nr_leader_lost'] else ''}.")
    score = f"Rome scores {outcome['ip']:+d} IP and {outcome['vp']:+d} VP"
    extra = [x for x, on in (("the Triumph", outcome["p_triumph"]), ("an Interrex", outcome["p_interrex"])) if on]
    lines += [losses, score + (f" ({', '.join(extra)})" if extra else "") + "."]
    return lines


class BattleNarrator(Narrator):
    """``kings_of_rome.battle`` and ``kings_of_rome.ambush`` told in sentences."""

    def context(self, kind, frame, value):
        return battle_context(kind, frame, value)

    def sentences(self, trace):
        return BattleStory(trace).tell(trace.index)

    def ending(self, trace):
        return battle_ending(trace.outcome)


class SiegeNarrator(Narrator):
    """``kings_of_rome.siege`` told in sentences: its relief and sortie battles, rolls a and b, the rerolls, the
    losses and the trial."""

    def context(self, kind, frame, value):
        return siege_context(kind, frame, value)

    def sentences(self, trace):
        rows = list(zip(trace.index, trace.itertuples(index=False)))
        out, silent, battle = [], [], []
        story = BattleStory(trace)

        def flush():
            if battle:
                out.extend(story.tell(battle))
                battle.clear()

        first_roll = None
        for n, (step, e) in enumerate(rows):
            chain = e.where.split(" > ")
            if BATTLE_FRAMES.intersection(chain):
                battle.append(step)
                continue
            flush()
            c = e.context or {}
            if e.kind == "rule":
                name = _rule_name(e)
                if name == "siege_rolls":
                    who = [f"garrison V{c['garrison']}" if c.get("garrison") else "",
                           f"leader V{c['leader']}" if c.get("leader") else "",
                           f"{c['units']} NR unit(s)" if c.get("units") else ""]
                    out.append(Sentence(step, f"Siege rolls{rule_tag(e.rule)}", (step,), heading=True))
                    out.append(Sentence(step, f"In the city: {', '.join(w for w in who if w)}; the commander has "
                                        f"{c.get('astutia', 0)} Astutia point(s) for rerolls.", ()))
                elif name == "siege_battles":
                    out.append(Sentence(step, f"Battles before the siege rolls{rule_tag(e.rule)}", (step,),
                                        heading=True))
                    if c.get("go_on") == 0:
                        pass
                elif name == "tribune_fate" and c.get("tribune"):
                    won = c.get("won")
                    change = "+1 IP" if won else ("-1 IP" if c.get("stack") else "no IP (tribune_defeat_stack)")
                    out.append(Sentence(step, f"The Tribune commander {'won' if won else 'lost'} the siege: {change} "
                                        f"for the King{rule_tag(e.rule)}", (step,)))
                else:
                    silent.append(step)
            elif e.kind == "die" and _fn(e) == "siege_roll":
                out.append(Sentence(step, self.roll(e, c), (step,)))
            elif e.kind == "die" and _fn(e) == "siege_rolls":
                if first_roll is None:
                    first_roll = (step, e.value)
                    continue
                verdict = first_roll[1] + e.value - 1
                acquitted = verdict >= 8 if c.get("equal_8") else verdict > 8
                loss = c.get("always") or not acquitted
                out.append(Sentence(first_roll[0], f"Ignominy trial after the lost siege: 2d6 = {first_roll[1]} + "
                                    f"{e.value}, less 1: {verdict}, {'acquitted' if acquitted else 'convicted'}"
                                    f"{' (-3 IP)' if loss else ''} [KOR-A37]", (first_roll[0], step)))
                first_roll = None
            elif e.kind == "decision":
                out.append(Sentence(step, self.decision(e), (step,)))
        flush()
        out.append(Sentence(0, "", tuple(silent)))
        return out

    @staticmethod
    def criterion(c):
        kind, g, lead = c.get("kind"), c.get("garrison", 0), c.get("leader", 0)
        a_test = "at least" if c.get("first_ge") else "more than"
        if kind == S.ROLL_A_GARRISON:
            return f"roll a against the garrison (V{g}): {a_test} {2 * g}"
        if kind == S.ROLL_A_LEADER:
            return f"roll a against the leader (V{lead}): {a_test} {2 * lead}"
        by_garrison = f"{'exactly' if c.get('second_eq') else 'at least'} {2 * (g + 1)} (garrison V{g} + 1, doubled)"
        by_leader = f"more than {lead} (the leader's Virtus)"
        if kind == S.ROLL_B_GARRISON:
            return f"roll b: {by_garrison}"
        if kind == S.ROLL_B_LEADER:
            return f"roll b: {by_leader}"
        return f"roll b: {by_garrison} or {by_leader}"

    def roll(self, e, c):
        omen = c.get("omen", 0)
        verb = "rerolls with an Astutia point" if c.get("reroll") else "rolls"
        rule = f"KoR 5.5 {'a' if c.get('stage') == 0 else 'b'}" + (", KOR-A22" if c.get("reroll") else "")
        return (f"{_cap(self.criterion(c))}; Rome {verb} {e.value}{' +1 (Good Omen)' if omen else ''}: "
                f"{'success' if c.get('ok') else 'failure'} [{rule}]")

    @staticmethod
    def decision(e):
        s, v, tag = e.state or {}, e.value, rule_tag(e.rule)
        meaning = action_meaning(e.actions, v)
        if e.point == "reroll":
            roll = "a" if s.get("roll") == 0 else "b"
            if v == 1:
                return f"Rome spends an Astutia point ({s.get('points_left', 0) - 1} left) to reroll roll {roll}{tag}"
            return f"Rome keeps the failed roll {roll} ({s.get('points_left', 0)} Astutia point(s) left){tag}"
        if e.point == "losses":
            return f"Roll b's loss ({s.get('losses_left')} to take): {meaning}{tag}"
        if e.point == "first_target":
            return f"Roll a's target: {meaning}{tag}"
        if e.point == "second_criterion":
            return f"Roll b's criterion: {meaning}{tag}"
        return f"Decision {e.point}: {meaning or 'action ' + str(v)}{tag}"

    def ending(self, trace):
        o = trace.outcome
        if not o:
            return []
        if o["p_win"]:
            what = "The city submits (roll a)" if o["p_submit"] else (
                "Rome wins the siege and takes the city" if o["p_city_taken"] else "Rome wins the siege")
        else:
            what = "The siege is abandoned" if o["p_abandon"] else "The siege fails"
        extra = []
        if o["nr_units_lost"]:
            extra.append(f"{o['nr_units_lost']} NR unit(s) lost")
        if o["p_leader_captured"]:
            extra.append("the NR leader captured")
        return [f"{what}{': ' + ', '.join(extra) if extra else ''}. Rome scores {o['ip']:+d} IP and {o['vp']:+d} VP; "
                f"{o['hostile_reactions']} hostile reaction(s)."]
