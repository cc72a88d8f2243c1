"""The Kings of Rome solo campaign told as a game log (KoR 5.0-9.7): ``Campaign.narrator()``.

A campaign's trace has thousands of events; a designer reads it turn by turn. ``CampaignNarrator`` tells it as

* a heading per turn (its number, the period and the King, IP and VP at its start), the set-up (5.1) before turn 1;
* the period's start (9.x.1-9.x.2: the new King, the Inauguratio, the container preparation, the swap of 7.6);
* each draw (4.0-4.1, 9.x.7): the container, the counter by name and Virtus, where it goes, what an event does;
* the action allowance (5.3), each Roman action (DP-K01) and the procedure it starts (siege, pillage, corruption,
  intimidation, battle; the Senate of 9.3.4), each in one line with its dice and its IP and VP;
* the hostile reactions (6.0-6.4), the invasion armies formed, marching, besieging and fighting (6.1, KOR-A44),
  the end of the turn (7.3-7.6: the period's end, the mission, prestige, the swap) and how the campaign ended (8.0).

The procedures' own dice and decisions (a battle's rounds, a siege's rolls) are summed up in their line; the
campaign's helpers (``war_allowed``, ``pick_at``, ``romanized_this_period`` for DP-K01's state ...) are covered
silently; ``Trace.narrative(detail=True)`` still lists every event.

How it reads the game (``core.narrative``): in the replaying child ``context`` reads, at each event of the campaign's
module, the turn, IP, VP and King from the nearest campaign frame, and what moved since the last event it read
(``since``); at a rule procedure's call it keeps the counters' places, and at its return (``end``) tells what the
procedure moved, with the procedure's own result. ``seq`` orders the reads in time (a procedure's return comes after
the events inside it). In the caller's process ``sentences`` groups the events into blocks by the game function
they happened in (``where``) and tells each block.
"""
from dataclasses import dataclass, field

import numpy as np

from ..core.narrative import Narrator, Sentence, caller, rule_tag
from . import battle as B
from . import campaign as C
from . import corruption as CO
from . import intimidation as IT
from . import pillage as PL
from . import siege as S
from . import treason as TR


def units(n):
    return f"{n} unit{'s' if n != 1 else ''}"


# the game functions whose events a sentence tells together (a block: the function's call and all it does)
BLOCKS = frozenset((
    "campaign_setup", "start_period", "draw", "allowance", "decide_action", "roman_action", "post_action",
    "roman_siege", "roman_pillage", "roman_corruption", "roman_intimidation", "fight", "senate_consents", "reaction",
    "treason", "ambush", "military_reaction", "march", "war_siege", "start_war", "end_war", "end_of_turn",
    "mission_losses", "mission_failed", "decide_army", "decide_garrison", "decide_loss", "decide_retreat",
    "decide_excess", "greek_excess",
    "king_lost", "swap", "move_random", "horatii", "alba_war", "alba_march", "alba_siege", "cocles", "map_conflicts",
    "umbrians_join", "umbrians_at_period_end", "falerii_not_attacked", "sail", "naval_battle", "port_interception",
    "diarchy", "office_fate", "after_battle", "decide_advance", "post_advance", "advance", "battle_action",
    "withdraw_inside_walls", "raise_city_army", "gather"))
# blocks told in no line: DP-K01's and DP-B16's states (every place's war_allowed), the action's dispatchers (their
# procedures speak)
SILENT = frozenset(("post_action", "roman_action", "post_advance", "advance", "battle_action"))
# rule procedures the child reads nothing at: helpers of DP-K01's state, called hundreds of times a turn
UNREAD = frozenset(("war_allowed", "city_ops"))

WAR_NAMES = ("Aequi", "Volsci", "Piceni", "Falisci", "Capena", "Samnite", "Gallic", "Etruscan", "Danai", "Umbrian")
PEOPLE_NAMES = ("Roman", "Latin", "Sabine", "Volscian", "Etruscan", "Aequian", "Picene", "Faliscan", "Capenate",
                "Samnite", "Gallic", "Greek", "Umbrian", "Oscan")
CONTAINERS = {C.L_R: "R", C.L_NR: "NR"}
OPS = ("siege", "pillage", "corruption", "intimidation", "battle")
LEADER_NAMES = ("no leader", "the King", "the Magister Populi", "the Magister Equitum", "a Tribunus Populi",
                "a Tribunus Celerum", "Titus Tatius", "Titus Tatius, Rex Vicarius")  # campaign.LEAD_*
# what an event token does that its place does not say: (event code, drawn from R, replaced by another draw)
EVENT_NOTES = {(C.EV_SABINES, True, True): "discarded after Romulus' era (9.1.8.1)",
               (C.EV_SABINES, False, True): "discarded after Romulus' era (9.1.8.1)",
               (C.EV_HORATII, False, False): "removed (9.3.7.2)",
               (C.EV_ETRUSCAN, True, True): "an Etruscan war still runs (9.5.7.4)",
               (C.EV_ETRUSCAN, False, True): "an Etruscan war still runs (9.5.7.4)"}
REACTIONS = {1: "military (6.1)", 2: "revolt (6.2)", 3: "revolt (6.2)", 4: "revolt (6.2)", 5: "ambush (6.4)",
             6: "treason (6.3)"}
ENDS = {"p_end_nr_empty": "The NR container is empty: Rome wins the campaign at once (8.0 a).",
        "p_end_vp_20": "Rome has reached the victory VP at a period's end: it wins the campaign (8.0).",
        "p_end_turn_24_win": "The last turn is played and Rome has the victory VP: it wins the campaign (8.0).",
        "p_end_r_empty": "A draw from the empty R container: Rome loses the campaign (8.0 a).",
        "p_end_ip_0": "Rome's IP fell to 0: it loses the campaign (8.0 b, C7).",
        "p_end_turn_24_loss": "The last turn is played below the victory VP: Rome loses the campaign (8.0)."}


# ================================================================== in the replaying child: what each event reads
def _campaign_frame(frame):
    """The nearest frame of the campaign's module that holds the counters (``ts``, ``tok``) and the scalars
    (``g``)."""
    while frame is not None:
        if frame.f_globals.get("__name__") == C.__name__:
            local = frame.f_locals
            if "ts" in local and "g" in local and "tok" in local:
                return frame
        frame = frame.f_back
    return None


def _picked(frame, value):
    """The counter a ``pick_at`` or ``pick`` die chose: the ``value``-th that its filter accepts (C5)."""
    local = frame.f_locals
    ts = local["ts"]
    if frame.f_code.co_name == "pick_at":
        hits = np.flatnonzero(ts[:, C.TS_LOC] == local["loc"])
    else:
        hits = [t for t in range(ts.shape[0]) if C.matches(local["tok"], ts, t, local["loc"], local["kind"],
                                                           local["people"], local["base"], local["value"])]
    return int(hits[value - 1]) if 0 < value <= len(hits) else -1


def _flags(g):
    return {"omen": int(g[C.G_OMEN]), "bridge": int(g[C.G_BRIDGE]), "stop": int(g[C.G_STOP_ACTIONS]),
            "extra": int(g[C.G_EXTRA_R_DRAWS]), "ostia": int(g[C.G_OSTIA]), "stage": int(g[C.G_STAGE])}


def _moves(before, ts):
    """``[counter, from loc, from at, to loc, to at, face]`` for each counter whose place changed."""
    changed = np.flatnonzero((ts[:, :3] != before[:, :3]).any(axis=1))
    return [[int(t), int(before[t, C.TS_LOC]), int(before[t, C.TS_AT]), int(ts[t, C.TS_LOC]), int(ts[t, C.TS_AT]),
             int(ts[t, C.TS_FACE])] for t in changed]


# the procedures told by what they moved, their duel and the royal army's place (``tell_procedure``)
DUELLING = frozenset(("horatii", "alba_war", "alba_march", "alba_siege", "cocles", "map_conflicts", "umbrians_join",
                      "umbrians_at_period_end", "falerii_not_attacked"))


def _duels(frame):
    """The duels fought and won so far, from the outcome row of the nearest frame that has it."""
    while frame is not None and "row" not in frame.f_locals:
        frame = frame.f_back
    if frame is None:
        return {}
    row = frame.f_locals["row"]
    return {"duels": int(row[C.M_DUELS]), "duels_won": int(row[C.M_DUELS_WON])}


def _leader(g, a):
    """Army ``a``'s leader (``campaign.army_leader``)."""
    return int(g[C.G_COMMANDER] if a == 0 else g[C.G_LEADER + a])


def _at(ts, loc, at=None):
    return [int(t) for t in np.flatnonzero((ts[:, C.TS_LOC] == loc) & ((ts[:, C.TS_AT] == at) if at is not None
                                                                       else True))]


def _enemy_ships(ts, tok, ws, c):
    """The ships of the invasion armies standing in port ``c``."""
    return [t for t in _at(ts, C.L_WAR) if tok[t, C.TK_KIND] == C.SHIP and ws[ts[t, C.TS_AT], C.WS_AT] == c]


class CampaignNarrator(Narrator):
    """``kings_of_rome.campaign`` told turn by turn (the module's docstring says how)."""

    def __init__(self):
        self._seq = 0
        self._seen = None   # the counters' places at the last event read (the child only)
        self._bases = {}    # id of an open procedure's frame (or a draw's) -> the places at its start

    # ------------------------------------------------------------------------------------------- reading
    def _read(self, cf, since=True):
        """The turn, points and King now, and what moved since the last read."""
        g, ts = cf.f_locals["g"], cf.f_locals["ts"]
        self._seq += 1
        read = {"seq": self._seq, "turn": int(g[C.G_TURN]), "period": int(g[C.G_PERIOD]), "ip": int(g[C.G_IP]),
                "vp": int(g[C.G_VP]), "king": int(g[C.G_KING]), "cmd": int(g[C.G_COMMANDER])}
        if self._seen is not None:
            if since:
                read["since"] = _moves(self._seen, ts)
            self._seen = ts.copy()
        return read

    @staticmethod
    def _snapshot(cf):
        cs = cf.f_locals.get("cs")
        return cf.f_locals["ts"].copy(), None if cs is None else cs[:, C.CS_ROMAN].copy()

    def _changes(self, base, cf, end):
        if base is None:
            return
        ts, cs = cf.f_locals["ts"], cf.f_locals.get("cs")
        end["moved"] = _moves(base[0], ts)
        if base[1] is not None and cs is not None:
            end["cities"] = [[int(c), int(cs[c, C.CS_ROMAN])] for c in np.flatnonzero(cs[:, C.CS_ROMAN] != base[1])]

    def context(self, kind, frame, value):
        name = frame.f_code.co_name
        if name in UNREAD:
            return None
        module = frame.f_globals.get("__name__", "")
        if kind == "decision":
            return self._decision(frame, name == "decide_action") \
                if name in ("decide_action", "decide_retreat", "decide_advance") else None
        if name == "senate_consents" and kind != "die":
            if kind == "rule":
                return {"people": int(frame.f_locals["people"])}
            return {"end": {"consents": int(bool(value))}}
        if module != C.__name__:
            return None  # a procedure's own events: its line sums them up
        if name == "romanized_this_period" and frame.f_back.f_code.co_name not in ("period_end", "turn_close"):
            return None  # DP-K01's state
        if kind == "die":
            return self._die(name, frame, value)
        if kind == "rule":
            return self._call(name, frame)
        return self._return(name, frame, value)

    def _decision(self, frame, since):
        cf = _campaign_frame(caller(frame, "campaign_decide"))
        if cf is None:
            return None
        read = self._read(cf, since)
        g = cf.f_locals["g"]
        a = int(g[C.G_ACTING])
        read.update(army=_at(cf.f_locals["ts"], C.L_ARMY, a), lead=_leader(g, a))
        return read

    def _die(self, name, frame, value):
        cf = _campaign_frame(frame)
        if cf is None:
            return None
        read = self._read(cf)
        local, up = frame.f_locals, frame.f_back.f_code.co_name
        if name in ("pick_at", "pick"):
            t = _picked(frame, value)
            tok = cf.f_locals["tok"]
            read.update(pick=t, src=int(local["loc"]), kind=int(tok[t, C.TK_KIND]), code=int(tok[t, C.TK_CODE]))
            if up == "draw":
                self._bases[id(frame.f_back)] = self._snapshot(cf)
                read["flags"] = _flags(cf.f_locals["g"])
            elif up == "move_random":
                read["dst"] = int(frame.f_back.f_locals["dst"])
        elif name == "start_period":
            read["fail_on"] = int(local["fail_on"])
        elif name == "nr_roll":
            read.update(need=int(local["wins_on"]), reroll=int("die" in local))
        elif name == "roll_units":
            read["base"] = int(local["base"])
        elif name == "apply_event":
            read.update(code=int(cf.f_locals["tok"][local["t"], C.TK_CODE]), bridge=int(cf.f_locals["g"][C.G_BRIDGE]))
        return read

    def _call(self, name, frame):
        if name == "campaign_setup":
            return None  # nothing is set yet: its return tells
        cf = _campaign_frame(frame)
        if cf is None:
            return None
        read = self._read(cf)
        self._bases[id(frame)] = self._snapshot(cf)
        local = frame.f_locals
        there = cf.f_locals
        g, ts, tok = there["g"], there["ts"], there["tok"]
        if name == "check_containers" and frame.f_back.f_code.co_name == "draw":
            draw = frame.f_back
            t = int(draw.f_locals["t"])
            read.update(token=t, place=[int(x) for x in ts[t, :3]], flags=_flags(g),
                        again=int(bool(draw.f_locals.get("again"))))
            self._changes(self._bases.pop(id(draw), None), cf, read)
        elif name == "start_period":
            read["old_king"] = int(g[C.G_KING])
        elif name == "allowance":
            others = [[int(t), int(tok[t, C.TK_VIRTUS])] for t in _at(ts, C.L_ROME) if t != g[C.G_COMMANDER]
                      and tok[t, C.TK_KIND] in (C.OFFICE, C.LEADER)]
            read.update(virtus=int(tok[g[C.G_COMMANDER], C.TK_VIRTUS]),
                        tullus=int(local["per"][g[C.G_PERIOD], C.PR_TULLUS]), others=others)
        elif name in ("roman_siege", "roman_pillage", "roman_corruption", "roman_intimidation"):
            c = int(local["c"])
            read.update(city=c, garrison=int(C.garrison_value(tok, ts, c, C.FACE_NR)),
                        units=int(C.nr_units_in(tok, ts, c, np.zeros(1, np.int64))),
                        leader=int(C.nr_leader_in(tok, ts, c)), reactions=int(g[C.G_REACTIONS]),
                        immediate=int(g[C.G_IMMEDIATE]))
        elif name == "fight":
            nr_loc, nr_at, a = int(local["nr_loc"]), int(local["nr_at"]), int(local["a"])
            read.update(nr_loc=nr_loc, nr_at=nr_at, leader=int(local["nr_leader"]), attacks=int(local["roman_attacks"]),
                        mode=int(local["mode"]), place=int(g[C.G_ARMY_AT + a]), army=_at(ts, C.L_ARMY, a),
                        lead=_leader(g, a), a=a,
                        nr=[t for t in _at(ts, nr_loc, nr_at) if ts[t, C.TS_FACE] == C.FACE_NR
                            and C.is_kind(tok, t, -1)],
                        war=int(local["ws"][nr_at, C.WS_WAR]) if nr_loc == C.L_WAR else -1,
                        inside_siege=int(frame.f_back.f_code.co_name == "roman_siege"))
        elif name == "reaction":
            ws = local["ws"]
            new = [int(ws[k, C.WS_WAR]) for k in range(C.MAX_WARS) if ws[k, C.WS_WAR] >= 0 and ws[k, C.WS_NEW]]
            read.update(new_war=new[-1] if new else -1, immediate=int(g[C.G_STAGE] == C.ST_ACTIONS),
                        fallback_lost=int(local["cp"][C.CP_REACTION_FALLBACK_LOST]))
        elif name in ("military_reaction", "march", "end_war", "after_battle", "withdraw_inside_walls"):
            ws, k = local["ws"], int(local["k"])
            read.update(k=k, war=int(ws[k, C.WS_WAR]), place=int(ws[k, C.WS_AT]), leader=int(ws[k, C.WS_LEADER]),
                        units=int(C.war_units(tok, ts, k)), token=int(ws[k, C.WS_TOKEN]))
            if name == "end_war":
                read["beaten"] = int(bool(local["beaten"]))
            elif name == "withdraw_inside_walls":
                cp = local["cp"]
                read.update(reactions=int(cp[C.CP_WITHDRAWAL_REACTIONS]), asks=int(cp[C.CP_WITHDRAWAL_ASKS]))
        elif name in ("sail", "naval_battle"):
            ws, k, row = local["ws"], int(local["k"]), local["row"]
            read.update(k=k, war=int(ws[k, C.WS_WAR]), place=int(ws[k, C.WS_AT]), port=int(local["port"]),
                        units=int(C.war_units(tok, ts, k)), naval=int(row[C.M_NAVAL_BATTLES]),
                        ships=[t for t in _at(ts, C.L_WAR, k) if tok[t, C.TK_KIND] == C.SHIP],
                        fleet=[t for t in _at(ts, C.L_FLEET) if 0 <= local["city"][ts[t, C.TS_AT], C.CT_SEA + int(
                            local["port"])] <= C.SHIP_MP])
        elif name == "port_interception":
            c, row = int(local["c"]), local["row"]
            read.update(port=c, naval=int(row[C.M_NAVAL_BATTLES]), won=int(row[C.M_NAVAL_WON]),
                        kings_lost=int(row[C.M_KINGS_LOST]), fleet=_at(ts, C.L_FLEET, c),
                        enemy=_enemy_ships(ts, tok, local["ws"], c))
        elif name == "war_siege":
            ws, k, c = local["ws"], int(local["k"]), int(local["c"])
            port = bool(C.roman_port(g, local["cp"], c))
            read.update(k=k, war=int(ws[k, C.WS_WAR]), city=c, roman=int(local["cs"][c, C.CS_ROMAN] or port),
                        port=int(port))
        elif name == "nr_siege":
            read.update(garrison=int(local["garrison"]), leader=int(local["leader"]), astutia=int(local["astutia"]),
                        bonus=int(local["bonus"]))
        elif name == "start_war":
            read.update(war=int(local["w"]), token=int(local["token"]), reactions=int(g[C.G_REACTIONS]))
        elif name == "mission_losses":
            read["loss"] = int(tok[g[C.G_COMMANDER], C.TK_VIRTUS])
        elif name in DUELLING:
            read.update(army_at=int(g[C.G_ARMY_AT + local.get("a", 0)]), lead=_leader(g, int(local.get("a", 0))),
                        roman=int(bool(local.get("roman", 0))), **_duels(frame))
        elif name == "office_fate":
            read.update(lead=int(local["t"]), won=int(local["won"]))
        elif name == "romanized_this_period":
            # 7.4 (the mission, on a period's last turn) comes before 7.5 (prestige), which assigns ``done`` again
            read["stage"] = "mission" if frame.f_back.f_code.co_name == "period_end" else "prestige"
        return read

    def _return(self, name, frame, value):
        if name == "campaign_setup":
            return {"end": self._setup(frame)}
        cf = _campaign_frame(frame)
        base = self._bases.pop(id(frame), None)
        if cf is None:
            return None
        end = self._read(cf, since=False)
        self._changes(base, cf, end)
        local, there = frame.f_locals, cf.f_locals
        g, ts = there["g"], there["ts"]
        if name == "start_period":
            end.update(r=len(_at(ts, C.L_R)), nr=len(_at(ts, C.L_NR)))
        elif name == "allowance":
            end.update(actions=int(g[C.G_ACTIONS]), omen=int(g[C.G_OMEN]), stop=int(g[C.G_STOP_ACTIONS]))
        elif name in ("roman_siege", "roman_pillage", "roman_corruption", "roman_intimidation"):
            c = int(local["c"])
            # a siege ended by its sortie battle rolls nothing: its outcome row was not filled (``p`` unset)
            end.update(ran=int("p" in local), row=[int(x) for x in local["prow"][:S.N_METRICS]],
                       roman=int(local["cs"][c, C.CS_ROMAN]), reactions=int(g[C.G_REACTIONS]),
                       immediate=int(g[C.G_IMMEDIATE]))
        elif name == "fight":
            brow = local["brow"]
            end.update(won=int(bool(value[1])), row=[int(x) for x in brow[:B.N_METRICS]],
                       army_at=int(g[C.G_ARMY_AT + local["a"]]),
                       nr_left=sum(1 for t in _at(ts, int(local["nr_loc"]), int(local["nr_at"]))
                                   if C.is_kind(there["tok"], t, -1)))
        elif name == "treason":
            end.update(ran=int("p" in local), target=int(local.get("target", -1)), garrison=int(local.get("best", 0)),
                       row=[int(x) for x in local["prow"][:TR.N_METRICS]])
        elif name == "ambush":
            executed = bool(value[0])
            end["done"] = int(executed)
            if executed:
                end.update(city=int(local["best"]), origin=int(local["c0"]), leader=int(local["src"]),
                           reinforcement=int(local["u"]), fought=int("won" in local), war=int(local["w"]))
        elif name in ("military_reaction", "march"):
            ws, k = local["ws"], int(local["k"])
            end.update(place=int(ws[k, C.WS_AT]), gone=int(ws[k, C.WS_WAR] < 0), target=int(local.get("c", -1)))
        elif name == "after_battle":
            ws, k = local["ws"], int(local["k"])
            end.update(place=int(ws[k, C.WS_AT]), gone=int(ws[k, C.WS_WAR] < 0), routed=int(ws[k, C.WS_ROUTED]))
        elif name == "end_war":
            t = int(local.get("token", -1))  # a raised army has none (it returns before reading it)
            end["token_place"] = [int(x) for x in ts[t, :3]] if t >= 0 else None
        elif name == "raise_city_army":
            k = int(value)
            if k >= 0:
                ws = local["ws"]
                end.update(k=k, war=int(ws[k, C.WS_WAR]), place=int(ws[k, C.WS_AT]), leader=int(ws[k, C.WS_LEADER]),
                           army=_at(ts, C.L_WAR, k))
        elif name == "gather":
            end.update(done=int(bool(value)), leader=int(local["best"]))
        elif name in ("sail", "naval_battle"):
            ws, k, row, tok = local["ws"], int(local["k"]), local["row"], there["tok"]
            end.update(place=int(ws[k, C.WS_AT]), gone=int(ws[k, C.WS_WAR] < 0), naval=int(row[C.M_NAVAL_BATTLES]),
                       won=int(row[C.M_NAVAL_WON]), fleet=_at(ts, C.L_FLEET),
                       ships=[t for t in _at(ts, C.L_WAR, k) if tok[t, C.TK_KIND] == C.SHIP])
        elif name == "port_interception":
            row = local["row"]
            end.update(naval=int(row[C.M_NAVAL_BATTLES]), won=int(row[C.M_NAVAL_WON]), army_at=int(g[C.G_ARMY_AT]),
                       fleet=_at(ts, C.L_FLEET), enemy=_enemy_ships(ts, there["tok"], local["ws"], int(local["c"])),
                       kings_lost=int(row[C.M_KINGS_LOST]))
        elif name == "war_siege":
            c = int(local["c"])
            end.update(roman=int(local["cs"][c, C.CS_ROMAN]), captured=int(local["cs"][c, C.CS_CAPTURED]),
                       held=int(bool(local.get("held", False))),
                       besiegers=int(local["ws"][int(local["k"]), C.WS_WAR] >= 0),
                       sacked=int(bool(local.get("sacked", False))), fell=int(bool(local.get("falls", False))),
                       won_at_rome=int(bool(local.get("falls", False)) and c == int(local["cp"][C.CP_ROME])))
        elif name == "nr_siege":
            end["result"] = int(value)
        elif name == "start_war":
            k = int(local["k"])
            end.update(k=k, reactions=int(g[C.G_REACTIONS]))
            if k >= 0:
                end.update(start=int(local["start"]), leader=int(local["leader"]), army=_at(ts, C.L_WAR, k),
                           rolled=[int(local["inf"]), int(local["cav"])])
        elif name == "romanized_this_period":
            end.update(self._mission(frame.f_back, int(value)))
        elif name in DUELLING:
            end.update(army_at=int(g[C.G_ARMY_AT + local.get("a", 0)]), siege=int(g[C.G_ALBA_SIEGE]),
                       march=int(g[C.G_ALBA_MARCH]),
                       **_duels(frame))
        return {"end": end}

    @staticmethod
    def _mission(turn_end, done):
        """7.4-7.5 at ``end_of_turn``: the cities that count, the mission, and the VP the turn ends with (prestige
        +3 when the count doubles the mission, KOR-A53; -1/-2 for each city an NR army took this turn)."""
        local = turn_end.f_locals
        cp, per, g, cs = local["cp"], local["per"], local["g"], local["cs"]
        need = int(per[g[C.G_PERIOD], C.PR_MISSION])
        triumph = done >= 2 * need if cp[C.CP_PRESTIGE_GE] else done > 2 * need
        prestige = 3 if triumph and (cp[C.CP_PRESTIGE_EVERY_TURN] or not g[C.G_PRESTIGE_DONE]) else 0
        captured = [[int(c), int(cs[c, C.CS_CAPTURED])] for c in np.flatnonzero(cs[:, C.CS_CAPTURED])]
        return {"done": done, "need": need, "prestige": prestige, "captured": captured,
                "vp_after": int(g[C.G_VP]) + prestige - sum(v for _, v in captured)}

    def _setup(self, frame):
        local = frame.f_locals
        ts, g, city, tok = local["ts"], local["g"], local["city"], local["tok"]
        self._seq += 1
        self._seen = ts.copy()
        return {"seq": self._seq, "turn": int(g[C.G_TURN]), "period": int(g[C.G_PERIOD]), "ip": int(g[C.G_IP]),
                "vp": int(g[C.G_VP]), "king": int(g[C.G_KING]), "cmd": int(g[C.G_COMMANDER]),
                "army": _at(ts, C.L_ARMY), "rome": _at(ts, C.L_ROME),
                "garrisons": sum(1 for c in range(city.shape[0]) if c != local["cp"][C.CP_ROME]
                                 and C.garrison_value(tok, ts, c, C.FACE_NR) > 0),
                "r": len(_at(ts, C.L_R)), "nr": len(_at(ts, C.L_NR))}

    # ------------------------------------------------------------------------------------ in the caller
    def sentences(self, trace):
        return _Story(trace).tell()

    def ending(self, trace):
        story = _Story(trace)
        last = story.last_read()
        o = trace.outcome
        lines = []
        if o:
            reason = next((text for key, text in ENDS.items() if o.get(key)), "")
            if reason:
                lines.append(reason)
        if last:
            lines.append(f"After turn {last['turn']}: {last['vp']} VP, {last['ip']} IP.")
        return lines


# ================================================================== in the caller: events -> blocks -> sentences
def _possessive(name):
    return name + ("'" if name.endswith("s") else "'s")


@dataclass
class _Block:
    """The events of one call of a game function of ``BLOCKS``: ``steps`` its own (not its inner blocks')."""
    name: str
    prefix: tuple
    first: int
    steps: list = field(default_factory=list)
    children: list = field(default_factory=list)

    def all_steps(self):
        yield from self.steps
        for child in self.children:
            yield from child.all_steps()


def _blocks(rows):
    """The trace's events as a tree of blocks (by ``where``), and the events in none."""
    top, stack, loose = [], [], []
    for step, e in rows:
        chain = tuple(e.where.split(" > "))
        path = [chain[:i + 1] for i, name in enumerate(chain) if name in BLOCKS]
        # a new call of the innermost block's function: its own rule event or decision, or a new draw
        fresh = bool(path) and ((e.kind in ("rule", "decision") and chain == path[-1]) or
                                (e.kind == "die" and path[-1][-1] == "draw" and chain == path[-1] + ("pick_at",)))
        keep = 0
        while keep < min(len(stack), len(path)) and stack[keep].prefix == path[keep]:
            keep += 1
        if fresh and keep == len(path):
            keep -= 1
        del stack[keep:]
        for prefix in path[keep:]:
            block = _Block(prefix[-1], prefix, step)
            (stack[-1].children if stack else top).append(block)
            stack.append(block)
        (stack[-1].steps if stack else loose).append(step)
    return top, loose


class _Story:
    """One campaign's sentences."""

    def __init__(self, trace):
        self.trace = trace
        self.rows = dict(zip(trace.index, trace.itertuples(index=False)))
        cmap, counters = trace.scenario.data()
        self.places = cmap.cities
        self.names, self.virtus = counters.names, counters.virtus
        self.kinds = counters.kind
        self.out = []
        self.reaction_no = 0

    # --------------------------------------------------------------------------------------- naming
    def counter(self, t):
        if t is None or t < 0:
            return "no counter"
        kind = self.kinds[t]
        if kind in (C.EVENT, C.SHIP):
            return self.names[t]
        return f"{self.names[t]} (V{self.virtus[t]})"

    def counters(self, ts):
        return ", ".join(self.counter(t) for t in ts) or "none"

    def place(self, c):
        return self.places[c] if 0 <= c < len(self.places) else "nowhere"

    def where(self, t, loc, at, face):
        """Where counter ``t`` lies: a container, a reserve, a city ..."""
        if loc == C.L_CITY:
            side = "NR" if face == C.FACE_NR else "Roman"
            what = {C.GARRISON: " garrison", C.LEADER: " leader"}.get(self.kinds[t], "")
            return f"{self.place(at)} ({side}{what})"
        if loc == C.L_ROME:
            return "Rome" if self.kinds[t] in (C.LEADER, C.OFFICE, C.KING) else "the Rome reserve"
        if loc == C.L_ARMY and at > 0:
            return f"Roman army {at} (an office's or Titus Tatius')"
        if loc == C.L_TRACK:
            return f"the turn track, in Rome on turn {at} (KOR-A49)"
        if loc == C.L_FLEET:
            return f"the Roman fleet in {self.place(at)} (5.8)"
        return {C.L_OUT: "out of play", C.L_R: "the R container", C.L_NR: "the NR container",
                C.L_RESERVE: "the general reserve", C.L_ARMY: "the royal army", C.L_WAR: "an invasion army",
                C.L_DRAWN: "a Roman city of the player's choice (4.1.1, DP-K05)",
                C.L_EXCESS: "a Greek city of the player's choice (9.6.7.2, DP-K08)",
                C.L_ASIDE: "set aside", C.L_PREP: "its container again after the replacement draw (9.5.7.4)"}.get(
                    loc, "?")

    def army_of(self, lead, cmd):
        """The army ``lead`` commands: the royal army when he is the King's stand-in ``cmd``."""
        if lead is None or lead == cmd:
            return "the royal army"
        return f"{_possessive(self.names[lead])} army"

    def army_size(self, ts):
        inf = sum(1 for t in ts if self.kinds[t] == C.INF)
        cav = sum(1 for t in ts if self.kinds[t] == C.CAV)
        parts = [f"{n} {what}" for n, what in ((inf, "infantry"), (cav, "cavalry")) if n]
        return " and ".join(parts) or "no unit"

    @staticmethod
    def war(w):
        if 0 <= w - C.RAISED < len(PEOPLE_NAMES):
            return f"raised {PEOPLE_NAMES[w - C.RAISED]} army"  # raised by its leader on the map (6.1)
        return f"{WAR_NAMES[w]} army" if 0 <= w < len(WAR_NAMES) else "invasion army"

    def ctx(self, step):
        return self.rows[step].context or {}

    def end(self, step):
        return self.ctx(step).get("end", {})

    def anchor(self, block):
        """The block's own rule event (its call), or None when the trace has none."""
        e = self.rows[block.first]
        return block.first if e.kind in ("rule", "decision") and tuple(e.where.split(" > ")) == block.prefix \
            else None

    def dice(self, block, functions=None):
        """The block's own dice (of ``functions``, default any): ``d6 = 4, d6 = 2``."""
        return [self.rows[s] for s in block.steps if self.rows[s].kind == "die"
                and (functions is None or self.rows[s].where.rsplit(" > ", 1)[-1] in functions)]

    @staticmethod
    def rolls(dice):
        return ", ".join(f"d{d.sides} = {d.value}" for d in dice)

    @staticmethod
    def points(before, after):
        parts = [f"{key.upper()} {before[key]} -> {after[key]}" for key in ("ip", "vp")
                 if key in before and key in after and before[key] != after[key]]
        return "; " + ", ".join(parts) if parts else ""

    def say(self, step, text, covers=(), heading=False):
        self.out.append(Sentence(step, text, tuple(covers), heading=heading))

    def last_read(self):
        """The latest read of the game's state (by ``seq``): after the end of the turn, the VP it ends with."""
        best = None
        for e in self.rows.values():
            c = e.context or {}
            for read in (c, c.get("end", {})):
                if "seq" in read and (best is None or read["seq"] > best["seq"]):
                    best = read
        if best is None:
            return None
        return {**best, "vp": best.get("vp_after", best["vp"])}

    # ------------------------------------------------------------------------------------------ telling
    def tell(self):
        rows = sorted(self.rows.items())
        top, _ = _blocks(rows)
        turn = None
        for block in top:
            if block.name != "campaign_setup":
                first = self.first_read(block)
                if first is not None and first["turn"] != turn:
                    turn = first["turn"]
                    self.heading(block, first)
                self.between(block, first)
            self.block(block)
        outcome = self.trace.outcome or {}
        if outcome and outcome.get("turn") != turn and rows:  # the game ended before the turn's first event
            self.say(rows[-1][0], f"Turn {outcome['turn']}", heading=True)
        # in step order, a heading before the sentences of its step
        order = sorted(range(len(self.out)), key=lambda i: (self.out[i].step, not self.out[i].heading, i))
        return [self.out[i] for i in order]

    def first_read(self, block):
        reads = [r for s in block.all_steps() for r in (self.ctx(s), self.end(s)) if "seq" in r]
        return min(reads, key=lambda r: r["seq"]) if reads else None

    def heading(self, block, first):
        cmd, king = first["cmd"], first["king"]
        if block.name == "start_period" and "cmd" in self.end(block.first):
            cmd, king = self.end(block.first)["cmd"], self.end(block.first)["king"]
        who = self.names[cmd] if cmd == king else f"{self.names[cmd]} for {self.names[king]}"
        self.say(block.first, f"Turn {first['turn']} - period {first['period']}, {who}: "
                 f"{first['ip']} IP, {first['vp']} VP", heading=True)

    def between(self, block, first):
        """What moved between two blocks without an event of its own: an office off the turn track into play
        (KOR-A49), Ostia back into R after the draws (9.4.7.1)."""
        for m in (first or {}).get("since", []):
            if m[1] == C.L_TRACK:
                self.say(block.first, f"{self.counter(m[0])} comes off the turn track to "
                         f"{self.where(m[0], m[3], m[4], m[5])} (KOR-A49).")
            elif m[1] == C.L_ASIDE and m[3] == C.L_R and self.kinds[m[0]] == C.EVENT:
                self.say(block.first, f"{self.counter(m[0])} goes back into the R container after the draws "
                         f"(9.4.7.1).")

    def block(self, block):
        handler = getattr(self, "tell_" + block.name, None)
        if block.name in SILENT or handler is None:
            self.say(block.first, "", block.steps)
        else:
            handler(block)
        for child in block.children:
            self.block(child)

    # --- the set-up and the period's start
    def tell_campaign_setup(self, block):
        c = self.end(block.first)
        self.say(block.first, "Set-up [KoR 5.1]", heading=True)
        if not c:
            self.say(block.first, "The campaign is set up (5.1, 3.4-3.6).", block.steps)
            return
        self.say(block.first, f"{self.counter(c['king'])} commands the royal army in Rome: "
                 f"{self.counters(c['army'])}; the Rome reserve: "
                 f"{self.counters(t for t in c['rome'] if t != c['king'])} (3.4, 5.1.1).", block.steps)
        self.say(block.first, f"NR garrisons in {c['garrisons']} places (3.5); the containers (3.6): R "
                 f"{c['r']} counters, NR {c['nr']}.")

    def tell_start_period(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        period = c.get("period", "?")
        old, new = c.get("old_king", -1), end.get("king", -1)
        text = f"Period {period} begins: {self.names[new] if new >= 0 else 'a new King'}"
        text += f" succeeds {self.names[old]}" if old >= 0 else ""
        for d in self.dice(block, ("start_period",)):
            fail_on = (d.context or {}).get("fail_on", 0)
            failed = d.value >= fail_on
            text += (f"; Inauguratio (9.3.1): d6 = {d.value}, fails on {fail_on}+: "
                     + ("failed, the Interrex commands for the period (2.12)" if failed else "the gods approve"))
        self.say(block.first, text + rule_tag(self.rows[at].rule if at is not None else "") + ".", block.steps)
        entered = [m[0] for m in end.get("moved", []) if m[1] in (C.L_RESERVE, C.L_ASIDE)
                   and m[3] in (C.L_R, C.L_NR)]
        named = [t for t in entered if self.kinds[t] not in (C.INF, C.CAV, C.GARRISON)]
        if end:
            self.say(block.first, f"Container preparation (9.{period}.2): {len(entered) - len(named)} units and "
                     f"garrisons from the general reserve and {self.counters(named) if named else 'no named token'} "
                     f"enter the containers; after the swap R holds {end.get('r')}, NR {end.get('nr')}.")

    # --- draws
    def tell_draw(self, block):
        die = self.rows[block.first]
        c = die.context or {}
        if die.kind != "die" or "pick" not in c:
            self.say(block.first, "", block.steps)
            return
        check = next((self.ctx(s) for s in block.steps if self.rows[s].kind == "rule"
                      and "token" in self.ctx(s)), {})
        t, src = c["pick"], CONTAINERS.get(c["src"], "?")
        text = f"Draw from {src} (d{die.sides} = {die.value}): {self.counter(t)}"
        notes = []
        if check:
            loc, at, face = check["place"]
            started = any(child.name == "start_war" for child in block.children)
            if started:
                notes.append("the war begins")
            elif loc == C.L_OUT:
                notes.append("leaves play")
            else:
                notes.append(f"to {self.where(t, loc, at, face)}")
            if c.get("kind") == C.EVENT:
                note = EVENT_NOTES.get((c.get("code"), c["src"] == C.L_R, bool(check.get("again"))))
                notes += [note] if note else []
            notes += self.event_notes(c, check, block)
            told = {m[0] for child in block.children for s in child.all_steps()
                    for m in self.end(s).get("moved", [])}
            told |= {self.ctx(s).get("pick") for child in block.children for s in child.all_steps()}
            others = {}
            for m in check.get("moved", []):
                if m[0] != t and m[0] not in told:
                    others.setdefault(self.where(m[0], m[3], m[4], m[5]), []).append(m[0])
            for where, ts in others.items():
                notes.append(f"with it {self.counters(ts)} to {where}")
            if check.get("again"):
                notes.append("another token is drawn in its place")
        self.say(block.first, text + (": " + ", ".join(notes) if notes else "") + " [KoR 4.0].", block.steps)

    def event_notes(self, c, check, block):
        """What an event token did beyond going somewhere (9.1-9.7): the flags it set, its die."""
        before, after = c.get("flags", {}), check.get("flags", {})
        notes = []
        if after.get("extra", 0) > before.get("extra", 0):
            notes.append(f"{after['extra'] - before.get('extra', 0)} extra R draws (KOR-A63)")
        if after.get("omen") != before.get("omen"):
            stage = after.get("stage", C.ST_DRAW_NR)
            lost = "one action fewer this turn" if stage < C.ST_ACTIONS else \
                "one of the actions left is lost" if stage == C.ST_ACTIONS else "one action fewer next turn"
            notes.append({C.OMEN_GOOD: "the Good Omen is on the map (9.5.7.1)",
                          C.OMEN_BAD: f"the Bad Omen: {lost} (9.5.7.1)"}.get(
                after.get("omen"), "the omen leaves play (9.5.7.2)"))
        if after.get("bridge") != before.get("bridge"):
            notes.append("the Sublicius Bridge stands (9.4.7.2)" if after.get("bridge") else
                         "the Sublicius Bridge is destroyed (9.7.7.2)")
        if after.get("stop") and not before.get("stop"):
            notes.append("no more Roman actions this turn (9.5.7.2)")
        if after.get("ostia", 0) > 0 and before.get("ostia", 0) <= 0:
            notes.append("back into R after the draws (9.4.7.1)")
        elif after.get("ostia") == C.OSTIA_FOUNDED and before.get("ostia") != C.OSTIA_FOUNDED:
            notes.append("Ostia is founded: Rome faces the sea (9.4.7.1)")
        for d in self.dice(block, ("apply_event",)):
            notes.append(f"d6 = {d.value} (9.7.7)")
        return notes

    # --- the allowance and the actions
    def tell_allowance(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        dice = self.dice(block, ("allowance",))
        die = dice[0].value if dice else 0
        who = _possessive(self.names[c.get("cmd", 0)] if c else "the King")
        if c.get("tullus"):
            best = sorted((v for _, v in c.get("others", [])), reverse=True)[:2]
            total = c.get("virtus", 0) + die // 2 + sum(best)
            text = (f"{who} Virtus {c.get('virtus')} + d6 {die} halved ({die // 2})"
                    + "".join(f" + {v}" for v in best) + " (two Roman leaders or offices in Rome, KOR-A52)")
        else:
            total = c.get("virtus", 0) + die
            text = f"{who} Virtus {c.get('virtus')} + d6 = {die}"
        actions = end.get("actions", total)
        if end.get("stop"):
            text += ": End of Actions on the Bad Omen, none (9.5.7.2)"
        elif actions < total:
            text += f" = {total}, less {total - actions} for the Bad Omen (9.5.7.1)"
        self.say(block.first, f"Action allowance: {text} = {actions} action(s) [KoR 5.3].", block.steps)

    def tell_decide_action(self, block):
        e = self.rows[block.first]
        if e.kind != "decision":
            self.say(block.first, "", block.steps)
            return
        c, s, v = e.context or {}, e.state or {}, e.value
        joined = {}
        for m in c.get("since", []):
            if m[3] == C.L_ARMY and m[1] == C.L_ROME:
                joined.setdefault(self.where(m[0], m[1], m[2], C.FACE_ROMAN), []).append(m[0])
        army = self.army_of(c.get("lead"), c.get("cmd"))
        for where, ts in joined.items():
            self.say(block.first, f"{army[0].upper()}{army[1:]} takes {self.counters(ts)} from {where} (4.2, "
                     f"DP-K02).")
        dismissed = [m[0] for m in c.get("since", []) if m[1] == C.L_ARMY and m[3] == C.L_ROME]
        if dismissed:
            self.say(block.first, f"{self.counters(dismissed)} leave(s) {army} for the Rome reserve (4.2, DP-K02).")
        n, here = s.get("places", 0), s.get("army_at", 0)
        left = s.get("actions_left", 0)
        if v is None:
            text = "no action (the policy failed)"
        elif v == C.ACT_END:
            text = "Rome ends its actions" + (f" ({left} unused)" if left else "")
        elif v <= n:
            army = c.get("army", [])
            who = f"the army ({self.army_size(army)})" if army else f"{self.names[c.get('cmd', 0)]}, without units,"
            cost, mp = s.get(f"cost[{v - 1}]", 0), s.get("movement_half_points", 0)
            if cost > mp:
                text = (f"{who} sails from {self.place(here)} to {self.place(v - 1)} (5.8, 9.4.7.1: 2 IP; the "
                        f"landing ends the action)")
            else:
                text = f"{who} moves from {self.place(here)} to {self.place(v - 1)} ({cost} of {mp} half-MP)"
        elif v <= n + len(OPS):
            text = f"{OPS[v - 1 - n]} at {self.place(here)}"
        elif v < n + len(OPS) + 1 + C.MAX_ARMIES:
            a = v - 1 - n - len(OPS)
            lead = s.get(f"army_leader[{a}]", 0)
            text = (f"the next action with {'the royal army' if a == 0 else 'army ' + str(a)} ("
                    f"{LEADER_NAMES[lead]}, at {self.place(s.get(f'army_place[{a}]', -1))}; 4.2, 9.2.7.1)")
        else:
            text = "the Diarchy (DP-K04)"
        dice = [self.rows[st] for st in block.steps if self.rows[st].kind == "die"]
        rolled = f" (its policy's dice: {self.rolls(dice)})" if dice else ""
        self.say(block.first, f"Action ({left} left): {text}{rolled}{rule_tag(e.rule)}.", block.steps)

    def tell_senate_consents(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        people = C.CURIA[c["people"]] if 0 <= c.get("people", -1) < len(C.CURIA) else -1
        who = PEOPLE_NAMES[people] + "s" if people >= 0 else "a Curia people"
        dice = self.dice(block)
        # asked by DP-K01, the action is not spent; by the siege after a battle (5.7.14 b, 5.7.1), it was
        spent = "no siege" if "advance" in block.prefix else "the action is not spent"
        answer = "consents" if end.get("consents") else f"refuses: no war on them this turn, {spent}"
        self.say(block.first, f"The Senate is asked for war on the {who}: {self.rolls(dice)}, it {answer} "
                 f"[KoR 9.3.4].", block.steps)

    def procedure(self, block, title, result, at_city=False):
        """One line for a Roman operation: ``title`` at the city, its dice, ``result(call, end)``, the points."""
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        defenders = [f"NR garrison {c['garrison']}" if c.get("garrison") else "",
                     f"{self.counter(c['leader'])}" if c.get("leader", -1) >= 0 else "",
                     f"{c['units']} NR unit(s)" if c.get("units") else ""]
        defended = ", ".join(d for d in defenders if d) or "undefended"
        dice = self.dice(block, None)
        dice = [d for d in dice if d.where.rsplit(" > ", 1)[-1] not in ("pick_at", "pick")]
        text = f"{title} {'at' if at_city else 'of'} {self.place(c.get('city', -1))} ({defended})"
        text += f": {self.rolls(dice)}" if dice else ""
        text += f": {result(c, end)}" if end else ""
        text += self.points(c, end)
        added = end.get("reactions", 0) - c.get("reactions", 0)
        immediate = end.get("immediate", 0) - c.get("immediate", 0)
        if added > 0:
            text += f"; {added} hostile reaction(s) at the turn's end"
        if immediate > 0:
            text += f"; {immediate} hostile reaction(s) at once (KOR-A2)"
        tag = rule_tag(self.rows[at].rule) if at is not None else ""
        self.say(block.first, text + tag + ".", block.steps)

    def tell_roman_siege(self, block):
        def result(c, end):
            if not end.get("ran"):
                if end.get("cities"):
                    return "the sortie is beaten and the city, left empty, is romanized (5.5.1)"
                return "the sortie force survives: the siege is over (5.5.1)"
            row = end["row"]
            if row[S.WIN]:
                how = ("the city submits (roll a)" if row[S.SUBMIT] else "the city is taken" if row[S.CITY_TAKEN]
                       else f"won (roll b): {row[S.UNITS_LOST]} NR unit(s) lost"
                       + (", the garrison gone" if c.get("garrison") else ""))
            else:
                how = "abandoned" if row[S.ABANDON] else "failed"
            if row[S.LEADER_CAPTURED]:
                how += ", the NR leader captured"
            return how + (", the city is romanized" if end.get("cities") else "")
        self.procedure(block, "Siege", result)

    def tell_roman_pillage(self, block):
        def result(c, end):
            row = end.get("row", [0] * PL.N_METRICS)
            empty = not c.get("garrison") and not c.get("units")
            if empty:
                return ("occupied by the army's weakest infantry, the city is romanized (5.4.1)" if end.get("cities")
                        else "pillaged, left empty (5.4.1)")
            how = "success" if row[PL.WIN] else "failure"
            if row[PL.ELIMINATED]:
                how += f", {row[PL.ELIMINATED]} NR counter(s) eliminated"
            return how + (", the city is romanized" if end.get("cities") else "")
        self.procedure(block, "Pillage", result)

    def tell_roman_corruption(self, block):
        def result(c, end):
            row = end.get("row", [0] * CO.N_METRICS)
            if not row[CO.WIN]:
                return "the garrison is not bought"
            return "the garrison is bought" + (", the city is romanized" if end.get("cities") else
                                               ", the city pillaged and left empty")
        self.procedure(block, "Corruption", result)

    def tell_roman_intimidation(self, block):
        def result(c, end):
            row = end.get("row", [0] * IT.N_METRICS)
            moved = end.get("moved", [])
            released = [m[0] for m in moved if m[1] == C.L_ARMY]
            joined = [m[0] for m in moved if m[3] == C.L_ARMY]
            text = f"{self.counters(released)} released (Fides)" if released else "no unit released"
            return text + (f"; success, {self.counters(joined)} joins the army" if row[IT.WIN] else "; failure")
        self.procedure(block, "Intimidation", result, at_city=True)

    def tell_fight(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        if not c:
            self.say(block.first, "A battle [KoR 5.7].", block.steps)
            return
        if c.get("mode") == B.MODE_AMBUSH:
            kind = "Ambush battle (6.4 c)"
        elif c.get("inside_siege") and c.get("war", -1) >= 0:
            kind = "Relief battle (9.2.7.3-9.2.7.4)"
        elif c.get("inside_siege"):
            kind = "Sortie battle (5.5.1)"
        elif c.get("attacks") == C.ROME_SALLIES:
            kind = "Sortie from the besieged city (5.5.1, KOR-A44 mirror_5_5)"
        else:
            kind = "Battle"
        foe = "the " + self.war(c["war"]) if c.get("war", -1) >= 0 else "the NR force"
        leader = f" under {self.counter(c['leader'])}" if c.get("leader", -1) >= 0 else " without a leader"
        defending = "" if c.get("attacks") else ", Rome defending"
        text = (f"{kind} at {self.place(c.get('place', -1))}{defending}: {self.counter(c.get('lead', c['cmd']))} with "
                f"{self.army_size(c.get('army', []))} against {foe}{leader}, {self.army_size(c.get('nr', []))}")
        row = end.get("row")
        if row:
            who = "Rome wins" if row[B.WIN] else "the NR wins" if row[B.LOSS] else "no winner"
            text += (f": {who} (track: Rome {row[B.ROMAN_SCORE]}, the NR {row[B.NR_SCORE]}); Rome loses "
                     f"{row[B.ROMAN_LOST]} unit(s), the NR {row[B.NR_LOST]}")
            if row[B.NR_LEADER_LOST]:
                text += ", the NR leader falls"
            if row[B.ROMAN_LEADER_LOST]:
                text += ", the Roman commander falls"
            if row[B.TRIUMPH]:
                text += ", a Triumph"
            if not end.get("won") and c.get("place") != end.get("army_at"):
                text += "; the army falls back on Rome (5.7.11)"
            if c.get("inside_siege") and c.get("war", -1) >= 0 and row[B.WIN] and row[B.END_PHASE3] and \
                    end.get("nr_left"):
                text += (f"; the beaten {self.war(c['war'])} routs back to its city, where no new action may attack "
                         "it this action phase (5.7.13)")
        text += self.points(c, end)
        self.say(block.first, text + rule_tag(self.rows[at].rule) + ".", block.steps)

    def tell_diarchy(self, block):
        self.tell_procedure(block, "The Diarchy (9.1.8.2)", lambda c, end: "3 IP, Titus Tatius is Rex Vicarius and "
                            "commands Roman troops as Romulus does")

    def tell_office_fate(self, block):
        at = self.anchor(block)
        c = self.ctx(at) if at is not None else {}
        who = self.counter(c["lead"]) if "lead" in c else "A Tribune"
        self.tell_if_moved(block, f"{who}'s office ends with his first siege or battle (9.2.7.1)",
                           "victorious, back into the R container" if c.get("won") else
                           "beaten, into the NR container")

    def tell_king_lost(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        who = self.names[c["cmd"]] if "cmd" in c else "The King"
        self.say(block.first, f"{who} falls: the {self.names[end['cmd']] if 'cmd' in end else 'Interrex'} commands "
                 f"until the period's end [KOR-A38].", block.steps)

    def tell_move_random(self, block):
        picks = [self.ctx(s) for s in block.steps if "pick" in self.ctx(s)]
        if not picks:  # an adjustment of 0 tokens: only the check of the containers (8.0 a)
            self.say(block.first, "", block.steps)
            return
        moved = "; ".join(f"{self.counter(p['pick'])} from {CONTAINERS.get(p['src'], '?')} to "
                          f"{CONTAINERS.get(p.get('dst'), '?')}" for p in picks)
        self.say(block.first, f"Container adjustment: {moved} [C5].", block.steps)

    def tell_swap(self, block):
        picks = [self.ctx(s) for s in block.steps if "pick" in self.ctx(s)]
        from_r = [p["pick"] for p in picks if p["src"] == C.L_R]
        from_nr = [p["pick"] for p in picks if p["src"] == C.L_NR]
        self.say(block.first, f"Swap: {self.counters(from_r)} from R into NR; {self.counters(from_nr)} from NR "
                 f"into R [KoR 7.6].", block.steps)

    # --- hostile reactions and invasion armies
    def tell_reaction(self, block):
        self.reaction_no += 1
        at = self.anchor(block)
        c = self.ctx(at) if at is not None else {}
        children = [child.name for child in block.children]
        when = " (at once, KOR-A2)" if c.get("immediate") else ""
        dice = self.dice(block, ("reaction",))
        if c.get("new_war", -1) >= 0 and not dice:
            text = f"the new {self.war(c['new_war'])} makes it a military reaction, more reactions to come (6.0)"
        elif dice:
            d = dice[0].value
            text = f"d6 = {d}, {REACTIONS.get(d, '?')}"
            if d in (1, 5):
                ambush = next((child for child in block.children if child.name == "ambush"), None)
                executed = "military_reaction" in children if d == 1 else \
                    ambush is not None and self.end(ambush.first).get("done")
                if not executed:
                    text += (": no NR army with a leader" if d == 1 else
                             ": no NR army with a leader and a Roman city of its people")
                    revolt = "draw" in children or "gather" in children
                    text += ", a revolt instead (KOR-A42)" if revolt else ", nothing happens (KOR-A42)"
            if "draw" in children:  # a revolt's step 2 (6.2), rolled or in place of a reaction no one makes
                text += ": one token drawn from NR" + (", no free unit to move (step 2)" if "gather" in children
                                                       else "")
        else:
            text = "no reaction die"
        self.say(block.first, f"Hostile reaction {self.reaction_no}{when}: {text}"
                 f"{rule_tag(self.rows[at].rule) if at is not None else ''}.", block.steps)

    def tell_raise_city_army(self, block):
        at = self.anchor(block)
        end = self.end(at) if at is not None else {}
        if end.get("k", -1) < 0:
            self.say(block.first, "", block.steps)
            return
        army = [t for t in end["army"] if t != end["leader"]]
        self.say(block.first, f"{self.counter(end['leader'])} leads his {self.army_size(army)} out of "
                 f"{self.place(end['place'])}: the {self.war(end['war'])}, an NR army with a leader, makes the "
                 f"military reaction{rule_tag(self.rows[at].rule)}.", block.steps)

    def tell_gather(self, block):
        at = self.anchor(block)
        end = self.end(at) if at is not None else {}
        if not end.get("done"):
            self.say(block.first, "", block.steps)
            return
        moved = [m for m in end.get("moved", []) if m[3] == C.L_CITY and self.kinds[m[0]] in (C.INF, C.CAV)]
        to = moved[0][4] if moved else -1
        froms = ", ".join(f"{self.counter(m[0])} from {self.place(m[2]) if m[1] == C.L_CITY else 'the field'}"
                          for m in moved)
        what = f"join {self.counter(end['leader'])} there, an army" if end.get("leader", -1) >= 0 else \
            "shelter inside its walls, their leader fallen"
        self.say(block.first, f"Revolt, step 1: free units move to {self.place(to)} ({froms}) and {what}; no token "
                 f"is drawn{rule_tag(self.rows[at].rule)}.", block.steps)

    def tell_treason(self, block):
        at = self.anchor(block)
        end = self.end(at) if at is not None else {}
        if not end.get("ran"):
            self.say(block.first, "Treason: no Roman garrison outside Rome, no effect [KoR 6.3].", block.steps)
            return
        row = end["row"]
        dice = [d for d in self.dice(block) if d.where.rsplit(" > ", 1)[-1] != "treason"]
        spent = -row[TR.IP]
        result = ("the garrison holds, +1 VP" if row[TR.WIN] else
                  f"the garrison turns: {self.place(end['target'])} is lost")
        self.say(block.first, f"Treason at {self.place(end['target'])} (the weakest Roman garrison, "
                 f"{end['garrison']}): {self.rolls(dice)}{f', less {spent} bought with IP' if spent else ''}: "
                 f"{result}{self.points(self.ctx(at), end)} [KoR 6.3].", block.steps)

    def tell_ambush(self, block):
        at = self.anchor(block)
        end = self.end(at) if at is not None else {}
        if not end.get("done"):
            self.say(block.first, "", block.steps)
            return
        reinforced = (f", reinforced by {self.counter(end['reinforcement'])}" if end.get("reinforcement", -1) >= 0
                      else "")
        if end.get("fought"):
            how = "Roman troops stand there: the ambush battle follows (6.4 c)"
        else:
            falls = any(c == end["city"] and not roman for c, roman in end.get("cities", []))
            how = (f"only a garrison defends: {self.nr_siege(block)}: {self.place(end['city'])} "
                   f"{'falls' if falls else 'holds'} (6.4 b){self.points(self.ctx(at), end)}")
        city, origin, leader = self.place(end["city"]), self.place(end["origin"]), self.counter(end["leader"])
        if any(self.rows[s].where.rsplit(" > ", 1)[-1] == "lead_out" for s in block.steps):  # a city's army, led out
            who = f"{leader} leads his troops out of {origin}: the {self.war(end['war'])} is placed in {city}"
        elif end.get("war", -1) >= 0:
            who = f"the {self.war(end['war'])} under {leader} is placed in {city} (from {origin})"
        else:  # ambush_army = from_its_city
            who = f"{leader} leads his troops from {origin} against {city}"
        self.say(block.first, f"Ambush: {who}{reinforced}; {how} [KoR 6.4].", block.steps)

    def nr_siege(self, block):
        """The NR siege rolls among ``block``'s events (KOR-A44 mirror_5_5): against what, the dice, the result."""
        at = next((s for s in block.steps if self.rows[s].kind == "rule"
                   and self.rows[s].where.rsplit(" > ", 1)[-1] == "nr_siege"), None)
        if at is None:
            return "no siege roll"
        c, end = self.ctx(at), self.end(at)
        if not c.get("garrison") and not c.get("leader"):
            return f"no defender [{self.rows[at].rule}]: taken without a roll (5.4.1 mirrored)"
        against = [f"garrison {c['garrison']}" if c.get("garrison") else "",
                   f"a Roman leader V{c['leader']}" if c.get("leader") else ""]
        dice = [self.rows[s] for s in block.steps if s > at and self.rows[s].kind == "die"
                and self.rows[s].where.rsplit(" > ", 1)[-1] == "nr_roll"]
        result = ("fails", "one defender lost (roll b)", "the city submits (roll a)")[end.get("result", 0)]
        bonus = ", +1 on the first roll" if c.get("bonus") else ""
        return (f"NR siege against {', '.join(a for a in against if a)}{bonus} "
                f"[{self.rows[at].rule}]: {self.rolls(dice) or 'no roll'}, {result}")

    def tell_army_move(self, block, told_by, moved, stayed):
        """An invasion army's move in one line: ``moved(from, to)`` or ``stayed(place)``; silent when its child block
        ``told_by`` tells it."""
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        if not c or any(child.name == told_by for child in block.children):
            self.say(block.first, "", block.steps)
            return
        army = f"The {self.war(c['war'])}"
        if not c.get("units"):
            text = f"{army} has no unit left"
        elif end.get("place", c["place"]) != c["place"]:
            text = f"{army} ({units(c['units'])}) {moved(self.place(c['place']), self.place(end['place']))}"
        else:
            text = f"{army} ({units(c['units'])}) {stayed(self.place(c['place']))}"
        self.say(block.first, text + f"{rule_tag(self.rows[at].rule)}.", block.steps)

    def tell_military_reaction(self, block):
        # under military_reaction = movement_allowance the march tells it
        at = self.anchor(block)
        target = self.end(at).get("target", -1) if at is not None else -1
        acted = any(child.name in ("fight", "war_siege") for child in block.children)

        def moved(a, b):
            if acted or target < 0 or self.place(target) == b:
                return f"goes by road from {a} to {b}, the nearest enemy position"
            return (f"goes by road from {a} toward {self.place(target)}, the nearest enemy position, and stops at {b} "
                    f"behind another NR army (9.5.7.4)")

        self.tell_army_move(block, "march", moved, lambda a: f"acts at {a}, the nearest enemy position" if acted else
                            f"waits at {a} behind another NR army (9.5.7.4)" if target >= 0 else
                            f"finds no enemy position by road from {a}")

    def tell_march(self, block):
        self.tell_army_move(block, "sail", lambda a, b: f"marches from {a} to {b}", lambda a: f"stays at {a}")

    def ships(self, ships):
        return f"{len(ships)} ship{'s' if len(ships) > 1 else ''} of Virtus " + \
            ", ".join(str(self.virtus[t]) for t in sorted(ships, key=lambda t: self.virtus[t]))

    def tell_sail(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        if not c:
            self.say(block.first, "", block.steps)
            return
        landed = "it is lost at sea with its ship" if end.get("gone") else f"it lands at {self.place(end['place'])}"
        self.say(block.first, f"The {self.war(c['war'])} ({units(c['units'])}) sails from {self.place(c['place'])} "
                 f"for {self.place(c['port'])} on {self.ships(c['ships'])}: {landed}, which ends its move"
                 f"{rule_tag(self.rows[at].rule)}.", block.steps)

    def tell_naval_battle(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        if not c or end.get("naval", 0) == c.get("naval", 0):
            self.say(block.first, "", block.steps)  # no Roman fleet within reach, or DP-N02 declines
            return
        roman = c["fleet"]
        result = "Rome wins" if end.get("won", 0) > c.get("won", 0) else "Rome loses"
        sunk = len(roman) - len([t for t in end.get("fleet", []) if t in roman])
        self.say(block.first, f"The Roman fleet ({self.ships(roman)}) intercepts it before it lands (5.8, DP-N02): "
                 f"{result}; Rome loses {sunk} ship(s), the invader {len(c['ships']) - len(end.get('ships', []))}"
                 f"{'; the army aboard goes down with its ship (KOR-A41)' if end.get('gone') else ''}"
                 f"{self.points(c, end)}{rule_tag(self.rows[at].rule)}.", block.steps)

    def tell_port_interception(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        if not c or end.get("naval", 0) == c.get("naval", 0):
            self.say(block.first, "", block.steps)  # no enemy ship in the port, or DP-N02 declines
            return
        roman, enemy = c["fleet"], c["enemy"]
        result = "Rome wins" if end.get("won", 0) > c.get("won", 0) else "Rome loses"
        sunk = len(roman) - len([t for t in end.get("fleet", []) if t in roman])
        if end.get("kings_lost", 0) > c.get("kings_lost", 0):
            landed = "the army aboard goes down with its ship, the King with it (KOR-A41, KOR-A38)"
        else:
            landed = f"the army lands at {self.place(end.get('army_at', c['port']))}"
        self.say(block.first, f"Before landing at {self.place(c['port'])}, the Roman fleet ({self.ships(roman)}) "
                 f"intercepts the {self.ships(enemy)} in the port (9.4.7.1, DP-N02): {result}; Rome loses {sunk} "
                 f"ship(s), the invader {len(enemy) - len(end.get('enemy', []))}; {landed}"
                 f"{self.points(c, end)}{rule_tag(self.rows[at].rule)}.", block.steps)

    def tell_war_siege(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        city = self.place(c.get("city", -1))
        if c.get("roman"):
            if end.get("held"):
                result = "the sortie holds, the siege fails"
            elif not end.get("besiegers", 1):
                result = "the sortie beats the besiegers to the last unit"
            elif end.get("sacked"):
                result = "Rome is taken (Vae victis): -5 IP, -5 VP; the army has reached its goal"
            elif end.get("won_at_rome") and c.get("war") in (C.W_GALLIC, C.W_ETRUSCAN):
                who = "Brennus (9.5.7.3)" if c["war"] == C.W_GALLIC else "Porsenna (9.7.7.3)"
                result = f"won, but without {who} in command Rome is not sacked: Rome holds"
            elif end.get("won_at_rome"):  # sacks_rome: no rule of 9.x gives Rome to this war (or a raised army)
                result = "won, but no rule of 9.x gives Rome to this army: Rome holds"
            elif c.get("port"):
                result = (f"{city} is sacked; no people holds it after them: it stays Rome's port"
                          if end.get("fell") else f"{city} holds")
            elif not end.get("roman"):
                result = f"{city} falls (7.5 counts it at the turn's end)"
            else:
                result = f"{city} holds"
        else:
            result = f"{city} is sacked, its counters leave" if end.get("captured") else f"{city} holds"
        rolls = "" if end.get("held") or not end.get("besiegers", 1) else f"{self.nr_siege(block)}: "
        self.say(block.first, f"The {self.war(c.get('war', -1))} besieges {city} "
                 f"({'Roman' if c.get('roman') else 'NR'}); {rolls}{result}{self.points(c, end)}"
                 f"{rule_tag(self.rows[at].rule) if at is not None else ''}.", block.steps)

    def tell_start_war(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        name = WAR_NAMES[c["war"]] if 0 <= c.get("war", -1) < len(WAR_NAMES) else "An invasion"
        if end.get("k", -1) < 0:
            self.say(block.first, f"The {name} War cannot start: {C.MAX_WARS} NR armies are in the field; its token "
                     f"waits in the NR container [KOR-A60].", block.steps)
            return
        leader = f"{self.counter(end['leader'])} with " if end.get("leader", -1) >= 0 else ""
        inf, cav = end.get("rolled", [0, 0])
        left = [m[0] for m in end.get("moved", []) if m[3] == C.L_CITY]
        dice = self.dice(block)
        extra = end.get("reactions", 0) - c.get("reactions", 0)
        text = (f"The {name} War begins: at {self.place(end['start'])}, {leader}{self.army_size(end['army'])} "
                f"({self.rolls(dice) + ': ' if dice else ''}{inf} infantry, {cav} cavalry rolled")
        text += f"; over the caps {self.counters(left)} stay there" if left else ""
        text += "); its first hostile reaction is military when more are to come (6.0)"
        text += f", and {extra} more" if extra > 0 else ""
        self.say(block.first, text + rule_tag(self.rows[at].rule) + ".", block.steps)

    def tell_end_war(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        army = self.war(c.get("war", -1))
        loc, where, face = end.get("token_place") or [C.L_OUT, 0, 0]
        token = "its token leaves play" if loc == C.L_OUT else \
            f"its token goes to {self.where(c.get('token', -1), loc, where, face)}"
        raised = c.get("war", -1) >= C.RAISED  # no token: at a period's end its counters go into NR (7.3)
        if raised:
            token = "its leader and units go into the NR container"
        if c.get("beaten"):
            text = f"The {army} is destroyed" + ("" if raised else f": {token}")
        elif block.prefix[-2:-1] == ("into_walls",):  # a rout (5.7.13) or a withdrawal (5.7.1) inside the walls
            text = f"The {army} is no longer an army in the field" + ("" if raised else f": {token}")
        elif "period_end" in block.prefix:
            text = f"The {army} goes home at the period's end (7.3): {token}"
        else:
            text = f"The {army} has reached its goal and leaves: {token}"
        self.say(block.first, text + f"{rule_tag(self.rows[at].rule) if at is not None else ''}.", block.steps)

    # --- the end of the turn
    # --- the special tokens' procedures (9.3.7, 9.6.7.3, 9.7.7.2) and 7.1
    def tell_procedure(self, block, title, outcome):
        """``title``: ``outcome(start, end)``; the dice, what moved where, the cities that changed hands and the
        points."""
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        parts = [title + ": " + outcome(c, end)] if end else [title]
        dice = self.dice(block)
        if dice:
            parts.append(self.rolls(dice))
        told = {m[0] for child in block.children for s in child.all_steps() for m in self.end(s).get("moved", [])}
        places = {}
        for m in end.get("moved", []):
            if m[0] in told:
                continue
            places.setdefault(self.where(m[0], m[3], m[4], m[5]), []).append(m[0])
        parts += [f"{self.counters(ts)} to {where}" for where, ts in places.items()]
        told_cities = {city for child in block.children for s in child.all_steps()
                       for city, _ in self.end(s).get("cities", [])}
        parts += [f"{self.place(city)} {'turns Roman' if roman else 'is lost'}" for city, roman in end.get("cities", [])
                  if city not in told_cities]
        self.say(block.first, "; ".join(parts) + self.points(c, end)
                 + (rule_tag(self.rows[at].rule) if at is not None else "") + ".", block.steps)

    @staticmethod
    def duel_result(c, end):
        if end.get("duels", 0) <= c.get("duels", 0):
            return ""
        return "Rome wins the duel" if end["duels_won"] > c["duels_won"] else "Rome loses the duel"

    def tell_horatii(self, block):
        self.tell_procedure(block, "The Horatii and the Curiatii (9.3.7.2), Alba Longa rolling first",
                            lambda c, end: self.duel_result(c, end) or "no duel")

    def tell_alba_war(self, block):
        fought = any(child.name == "horatii" for child in block.children)

        def outcome(c, end):
            if end.get("march"):
                return "the royal army is to march from Rome, formed first (DP-K02)"
            if fought:
                return "fought by the Horatii"
            return self.marched(c, end) or ("the Horatii have left play: no duel" if c.get("roman") else
                                            "Alba Longa is Rome's already: no war to fight")
        self.tell_procedure(block, "The Alba Longa war (9.3.7.3)", outcome)

    def tell_alba_march(self, block):
        self.tell_procedure(block, "The march on Alba Longa (9.3.7.3 a)",
                            lambda c, end: self.marched(c, end) or "the royal army stands at Alba Longa")

    def marched(self, c, end):
        if end.get("army_at") != c.get("army_at"):
            return f"the royal army marches to {self.place(end['army_at'])}"
        return ""

    def tell_alba_siege(self, block):
        def outcome(c, end):
            result = self.duel_result(c, end)
            taken = any(roman for _, roman in end.get("cities", []))
            text = "the city surrenders" if taken else (
                "the roll fails, tried again next turn" if end.get("siege") else "the roll fails again: the siege "
                "is lifted, the army goes home")
            return text + (f"; the Latins sally, {result}" if result else "")
        self.tell_procedure(block, "Siege of Alba Longa (9.3.7.3 c-d)", outcome)

    def tell_cocles(self, block):
        def outcome(c, end):
            result = self.duel_result(c, end)
            return f"the raid, {result}" if result else "the direct attempt"
        self.tell_procedure(block, "Horatius Cocles at the Sublicius bridge (9.7.7.2)", outcome)

    def tell_map_conflicts(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        if not end or end.get("army_at") == c.get("army_at"):
            self.say(block.first, "", block.steps)
            return
        self.say(block.first, f"Map conflict (7.1): NR units next to {self.army_of(c.get('lead'), c.get('cmd'))} at "
                 f"{self.place(c['army_at'])}; it moves to {self.place(end['army_at'])}{rule_tag(self.rows[at].rule)}.",
                 block.steps)

    def tell_if_moved(self, block, title, what):
        """A procedure that often does nothing: its line only when it moved a counter."""
        at = self.anchor(block)
        if at is None or not self.end(at).get("moved"):
            self.say(block.first, "", block.steps)
            return
        self.tell_procedure(block, title, lambda c, end: what)

    def tell_umbrians_join(self, block):
        self.tell_if_moved(block, "The Umbrians (9.6.7.3)", "they join the Etruscans")

    def tell_umbrians_at_period_end(self, block):
        self.tell_if_moved(block, "The Umbrian War token (9.6.7.3)", "no Umbrian stays with the Etruscans")

    def tell_falerii_not_attacked(self, block):
        self.tell_procedure(block, "Falerii not attacked (9.2.6)", lambda c, end: "a military unit goes R -> NR")

    def tell_mission_losses(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        lost = [m[0] for m in end.get("moved", []) if m[3] == C.L_RESERVE]
        how = f"drawn at random: {self.counters(lost)}" if lost else "the player chooses them (DP-K06)"
        self.say(block.first, f"Mission failed: units worth the King's Virtus ({c.get('loss', '?')}) go to the "
                 f"general reserve, {how} (9.x.6){rule_tag(self.rows[at].rule) if at is not None else ''}.",
                 block.steps)

    def tell_mission_failed(self, block):
        at = self.anchor(block)
        end = self.end(at) if at is not None else {}
        to_nr = [m[0] for m in end.get("moved", []) if m[1] == C.L_R and m[3] == C.L_NR]
        if any(child.name == "move_random" for child in block.children):
            self.say(block.first, "", block.steps)
            return
        self.say(block.first, f"The failed mission's tokens: {len(to_nr)} from R into NR: {self.counters(to_nr)} "
                 f"(9.x.6){rule_tag(self.rows[at].rule) if at is not None else ''}.", block.steps)

    # --- the Roman choices on the turn's way (DP-K02 is told with the action it comes before)
    def chosen_place(self, e):
        """The place a DP-K05, K07 or K08 decision chose."""
        return "nowhere (the policy failed)" if e.value is None else self.place(e.value)

    def tell_decide_army(self, block):
        self.say(block.first, "", block.steps)

    def tell_decide_garrison(self, block):
        e = self.rows[block.first]
        s = e.state or {}
        where = self.chosen_place(e)
        self.say(block.first, f"The Roman garrison of Virtus {s.get('garrison_virtus', '?')} joins {where}'s "
                 f"garrison (4.1.1){rule_tag(e.rule)}.", block.steps)

    def tell_decide_loss(self, block):
        e = self.rows[block.first]
        what = "nothing (the policy failed)" if e.value is None else self.counter(e.value - 1)
        self.say(block.first, f"The failed mission costs {what}: to the general reserve (9.x.6, KOR-A54)"
                 f"{rule_tag(e.rule)}.", block.steps)

    def tell_greek_excess(self, block):
        self.tell_if_moved(block, "The Greek army's excess units (9.6.7.2)", "one per Greek city")

    def tell_decide_excess(self, block):
        e = self.rows[block.first]
        where = self.chosen_place(e)
        self.say(block.first, f"A Greek unit over its army's caps goes to {where}, one per Greek city of the "
                 f"player's choice (9.6.7.2){rule_tag(e.rule)}.", block.steps)

    def tell_after_battle(self, block):
        at = self.anchor(block)
        c, end = (self.ctx(at), self.end(at)) if at is not None else ({}, {})
        army = self.war(c.get("war", -1))
        if end.get("gone") and c.get("units"):  # gone with units left: into the walls (every unit lost: end_war)
            text = (f"The beaten {army} routs inside the walls of {self.place(c.get('place', -1))}, its units and "
                    f"leader now the city's: the army is gone (5.7.13, DP-B17)")
        elif end.get("routed"):
            text = (f"The beaten {army} routs (5.7.13): no new action may attack it this action phase, only a "
                    f"pursuit (5.7.14)")
        elif end.get("place", c.get("place")) != c.get("place"):
            text = (f"The victorious {army} withdraws to {self.place(end['place'])}, the nearest city of its people "
                    f"(5.7.11)")
        else:
            self.say(block.first, "", block.steps)
            return
        self.say(block.first, text + ".", block.steps)

    def tell_withdraw_inside_walls(self, block):
        at = self.anchor(block)
        c = self.ctx(at) if at is not None else {}
        reactions = "1 hostile reaction (KOR-A15)" if c.get("reactions") else "no hostile reaction (KOR-A15)"
        siege = "the player may besiege the city (KOR-A16 roman_option, DP-B16)" if c.get("asks") else \
            "the battle becomes a siege of the city (KOR-A16)"
        self.say(block.first, f"Attacked in {self.place(c.get('place', -1))}, a city of its people, the "
                 f"{self.war(c.get('war', -1))} withdraws inside the walls (5.7.1): its {c.get('units', '?')} unit(s) "
                 f"and leader join the city's defenders, {reactions}, and {siege}"
                 f"{rule_tag(self.rows[at].rule) if at is not None else ''}.", block.steps)

    def tell_decide_advance(self, block):
        e = self.rows[block.first]
        s = e.state or {}
        choice = {C.ADVANCE_PURSUE: f"pursues the routed army ({s.get('routed_units', 0)} unit(s)) and attacks it "
                                    f"again, the same action (5.7.14 a)",
                  C.ADVANCE_BESIEGE: f"besieges {self.place(s.get('army_at', -1))} without a new action (5.7.14 b)"}
        text = choice.get(e.value, "does not advance (5.7.14)")
        c = e.context or {}
        self.say(block.first, f"After its victory {self.army_of(c.get('lead'), c.get('cmd'))} {text}"
                 f"{rule_tag(e.rule)}.", block.steps)

    def tell_decide_retreat(self, block):
        e = self.rows[block.first]
        s = e.state or {}
        where = self.chosen_place(e)
        c = e.context or {}
        self.say(block.first, f"Map conflict (7.1): NR units next to {self.army_of(c.get('lead'), c.get('cmd'))} at "
                 f"{self.place(s.get('army_at', -1))}; it steps away to {where}{rule_tag(e.rule)}.", block.steps)

    def tell_end_of_turn(self, block):
        """7.3 (a period's end: the NR units back into their container, Titus Tatius and the offices), 7.4 (the
        mission) and 7.5 (prestige, the cities NR armies took, and the VP the turn ends with); the swap of 7.6
        and a failed mission's losses have their own lines."""
        stages = {}
        for s in block.steps:
            c = self.ctx(s)
            if "stage" in c:
                stages[c["stage"]] = (s, c, self.end(s))
        first_stage = min((s for s, _, _ in stages.values()), default=None)
        # 7.3 happens before the first thing the end of the turn reads (or an army sent home, inside end_war)
        since = [m for s in block.all_steps() if first_stage is None or s <= first_stage
                 for m in self.ctx(s).get("since", [])]
        turn = next((c["turn"] for _, c, _ in stages.values()), "")
        parts = []
        back = [m[0] for m in since if m[1] == C.L_CITY and m[3] == C.L_NR]
        if back:
            parts.append(f"{len(back)} NR unit(s) and leader(s) on the map go back into the NR container (7.3)")
        for m in since:
            if m[1] == C.L_ROME and m[3] in (C.L_OUT, C.L_R):
                parts.append(f"{self.counter(m[0])} {'leaves play' if m[3] == C.L_OUT else 'goes into R'} (7.3)")
        if "mission" in stages:
            end = stages["mission"][2]
            done, need = end.get("done", 0), end.get("need", 0)
            result = (f"met, +{done - need} VP" if done > need else "met") if done >= need else "failed"
            parts.append(f"the mission: {done} cities romanized this period, {need} needed, {result} (7.4)")
        if parts:
            self.say(block.first, f"The period ends: {'; '.join(parts)} [KoR 7.3-7.4].")
        if "prestige" in stages:
            s, c, end = stages["prestige"]
            parts = []
            if end.get("prestige"):
                parts.append(f"prestige, {end['done']} cities romanized, twice the mission of {end['need']}: "
                             f"+{end['prestige']} VP")
            for city, loss in end.get("captured", []):
                parts.append(f"{self.place(city)}, taken by an NR army this turn: -{loss} VP")
            parts.append(f"Rome has {end.get('vp_after', end.get('vp'))} VP, {end.get('ip')} IP")
            self.say(s, f"End of turn {turn}: {'; '.join(parts)} [KoR 7.5].", block.steps)
        else:
            self.say(block.first, "", block.steps)
