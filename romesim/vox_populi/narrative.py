"""Vox Populi traces told as sentences: the whole game (spec 3, 6, 8).

``GameNarrator`` is the ``Scenario.narrator()`` of ``vox_populi.game`` (``core.narrative``). Every decision of spec
10 reaches a seat's policy with the seat's view, which names the decision kind, its arguments and the public state
(turn, active seat, popularity); the sentences tell each decision by its kind (DP01-DP16) with the action's meaning
(a politician, a cell, a card, a match), the game's own dice (the shuffle, a card's die with its roller) and the
bots' dice inside the decision they decided, with a turn heading and the popularity at the start of each turn.
"""
from ..core.narrative import Narrator, Sentence, decision_dice, policy_dice, rule_tag
from .cards import CARDS
from .state import (
    DECISION_NAMES,
    MATCH_TYPES,
    N_CELLS,
    N_POL,
    POLITICIANS,
    PT_AMOUNT,
    PT_ARENA,
    PT_CELL,
    PT_QUARTER,
    PT_SEAT_HARM,
    PT_SUPPORTER_CELL,
    PT_VALUE,
)

WINDOWS = {1: "W1a", 2: "W1b", 3: "W2", 4: "W3", -1: "R_vote"}
ENDS = (("p_end_popularity", "a politician reached the popularity that ends the game (spec 6.6)"),
        ("p_end_clubs", "a club ran out of pieces (spec 6.6)"), ("p_turn_guard", "the turn guard tripped"))


def _card(k):
    if 0 <= k < len(CARDS):
        return f"{CARDS[k]['name_fr']} ({CARDS[k]['id']})"
    return f"card {k}"


def _a(word):
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _pol(k):
    return POLITICIANS[k] if 0 <= k < N_POL else f"politician {k}"


def game_context(kind, frame, value):
    """What a Vox Populi sentence needs from the kernel (``Narrator.context``): the roller and card of a die."""
    name, loc = frame.f_code.co_name, frame.f_locals
    if kind == "die" and name == "roll_die_step":
        return {"roller": int(loc["roller"]), "card": int(loc["card"])}
    if kind == "die" and name == "setup_table":
        return {"players": int(loc["n"])}
    return None


class GameNarrator(Narrator):
    """``vox_populi.game`` told in sentences: set-up, each turn's decisions seat by seat, the dice, the end."""

    def context(self, kind, frame, value):
        return game_context(kind, frame, value)

    def sentences(self, trace):
        rows = list(zip(trace.index, trace.itertuples(index=False)))
        out, done, shuffle = [], set(), []
        turn = None
        for n, (step, e) in enumerate(rows):
            if step in done:
                continue
            c, fn = e.context or {}, e.where.rsplit(" > ", 1)[-1]
            if e.kind == "die" and fn == "shuffle_deck":
                shuffle.append((step, e.value))
                nxt = rows[n + 1][1] if n + 1 < len(rows) else None
                if nxt is None or nxt.kind != "die" or nxt.where.rsplit(" > ", 1)[-1] != "shuffle_deck":
                    out.append(Sentence(shuffle[0][0], "Set-up (spec 3)", (), heading=True))
                    out.append(Sentence(shuffle[0][0], f"The deck is shuffled (spec 3.1), {len(shuffle)} draws: "
                                        + ", ".join(str(v) for _, v in shuffle), tuple(s for s, _ in shuffle)))
                    shuffle = []
                continue
            if e.kind == "die" and fn == "setup_table":
                out.append(Sentence(step, f"The first arena placer is drawn: d{e.sides} = {e.value}, seat "
                                    f"{e.value - 1} (spec 3.5, VOX-A5)", (step,)))
            elif e.kind == "die" and fn == "roll_die_step":
                card = c.get("card", -1)
                what = f" for {_card(card)}" if card >= 0 else ""
                out.append(Sentence(step, f"Seat {c.get('roller')} rolls a d6{what}: {e.value} (spec 7.5)", (step,)))
            elif e.kind == "die":
                out.append(Sentence(step, f"{fn}: d{e.sides} = {e.value}", (step,)))
            elif e.kind == "decision":
                s = e.state or {}
                t = s.get("turn_no")
                if t is not None and t != turn and s.get("kind") not in (1,):
                    turn = t
                    pop = ", ".join(f"{_pol(k)} {s.get(f'pop[{k}]', 0)}" for k in range(N_POL))
                    out.append(Sentence(step, f"Turn {t + 1}: seat {s.get('active')} is active (spec 6)", (),
                                        heading=True))
                    out.append(Sentence(step, f"Popularity: {pop}.", ()))
                dice = decision_dice(e, rows[n + 1:])
                done.update(s2 for s2, _ in dice)
                rolled = policy_dice([d for _, d in dice])
                out.append(Sentence(step, self.decision(s, e.value) + rolled + rule_tag(self.rule(s)),
                                    (step,) + tuple(s2 for s2, _ in dice)))
        return out

    @staticmethod
    def rule(s):
        kind = s.get("kind", 0)
        return f"DP{kind:02d}" if 1 <= kind <= len(DECISION_NAMES) else ""

    @staticmethod
    def decision(s, v):
        kind, seat = s.get("kind", 0), s.get("seat")
        args = [s.get(f"args[{i}]", 0) for i in range(8)]
        me = f"Seat {seat}"
        if v is None:
            return f"{me}: no action"
        if kind == 1:
            return f"{me} places {_pol(v // N_CELLS)}'s arena on cell {v % N_CELLS}"
        if kind == 2:
            return f"{me} names quarter {v} for seat {args[0]}'s turn"
        if kind == 3:
            return f"{me} places a supporter of value {v // N_CELLS + 1} on cell {v % N_CELLS}"
        if kind == 4:
            return f"{me} places a gladiator of value {v // N_POL + 1} under {_pol(v % N_POL)}"
        if kind == 5:
            window = WINDOWS.get(args[0], args[0])
            return f"{me} plays {_card(v - 1)} in window {window}" if v else f"{me} passes in window {window}"
        if kind == 6:
            ptype = args[1]
            what = {PT_QUARTER: f"quarter {v}", PT_CELL: f"cell {v}", PT_SUPPORTER_CELL: f"the supporter on cell {v}",
                    PT_SEAT_HARM: f"seat {v}", PT_AMOUNT: f"{v} sesterce(s)", PT_VALUE: f"value {v + 1}",
                    PT_ARENA: f"{_pol(v)}'s arena"}.get(ptype, _pol(v))
            return f"{me} chooses {what} for {_card(args[0])}"
        if kind == 7:
            if v == 0:
                return f"{me} organises no match"
            pol, mtype = divmod(v - 1, 4)
            return f"{me} organises {_a(MATCH_TYPES[mtype])} match in {_pol(pol)}'s arena"
        if kind == 8:
            return f"{me} contributes {v} sesterce(s) to {_card(args[0])} (pot {args[1]})"
        if kind == 9:
            mtype = MATCH_TYPES[args[2]] if 0 <= args[2] < len(MATCH_TYPES) else args[2]
            return (f"{me} {'applauds' if v == 1 else 'boos'} at seat {args[0]}'s {mtype} match in "
                    f"{_pol(args[1])}'s arena")
        if kind == 10:
            return f"{me} eliminates the supporter on cell {v}"
        if kind == 11:
            return f"{me} eliminates a gladiator of value {v + 1}"
        if kind == 12:
            if args[1] == 0:
                return f"{me} slips a star of value {args[0]} into {_pol(v)}'s slot"
            return f"{me} slips no decoy" if v == 0 else f"{me} slips a decoy into {_pol(v - 1)}'s slot"
        if kind == 13:
            return f"{me} takes {'one card' if v == 1 else 'one sesterce'} as turn bonus"
        if kind == 14:
            return (f"{me} votes {'yes' if v == 1 else 'no'} on {_card(args[0])} (target {args[1]}, called by seat "
                    f"{args[2]})")
        if kind == 15:
            return f"{me} votes for {_pol(v)}"
        if kind == 16:
            return (f"{me} {'overrides the die with ' + str(v) if v else 'does not override the die'} "
                    f"({_card(args[2]) if args[2] >= 0 else 'no card'})")
        return f"{me}: decision kind {kind}, action {v}"

    def ending(self, trace):
        o = trace.outcome
        if not o:
            return []
        players = getattr(trace.scenario, "players", 0)
        winners = [s for s in range(players) if o.get(f"p_win_seat{s}")]
        emperor = next((_pol(k) for k, key in enumerate(("pompee", "crassus", "cesar", "antoine", "octave", "brutus"))
                        if o.get(f"p_emperor_{key}")), None)
        how = next((text for key, text in ENDS if o.get(key)), "")
        head = (f"Seat{'s' if len(winners) > 1 else ''} {' and '.join(str(s) for s in winners)} "
                f"win{'' if len(winners) > 1 else 's'}" if winners else "Nobody wins")
        return [f"{head} after {o['turns']} turn(s): {how}. Emperor: {emperor or 'none'}; {o['matches']} match(es), "
                f"{o['applause_wins']} won on applause; {o['cards_played']} card(s) played; "
                f"{o['assassinations']} assassination(s)."]
