"""Trace.narrative(): each whole game told in sentences that agree with its events and with the rules.

One small fixed game per scenario, traced once (``legal=False``: no one-game kernel to compile). The expected words
come from the events (a die's value, a decision's action and what its point's ``actions`` text says it means), the
scenario (a unit's Virtus, a leader's PC) and the rules (KoR 5.7.9's class DRM, 5.5 a's double Virtus, P8.3's
threshold, the validation d6 <= PC of seed 3.6), never from the narrative itself."""
import re
import subprocess
import sys

import pytest

import romesim
from romesim.core.narrative import Sentence, action_meaning
from romesim.jugule.combat import WEAPON_IDS, ZONES

SIEGE = romesim.scenario("kings_of_rome.siege", garrison=2, leader=2, nr_units=1, astutia=2, commander="tribune")
GAMES = {  # name: (scenario, game, seed)
    "kings_of_rome.battle": ("kings_of_rome.battle", 6, 1),  # phase 3, an NR reroll, the Triumph
    "kings_of_rome.ambush": ("kings_of_rome.ambush", 0, 11),  # two rounds, an attack on the Roman commander
    "kings_of_rome.siege": (SIEGE, 2, 7),  # roll a failed and rerolled, roll b, a loss chosen
    "jugule.duel": ("jugule.duel", 0, 7),  # a net, two fumbles, an initiative tie, an appeal
    "vox_populi.game": ("vox_populi.game", 0, 11),
    "semper_victor.battle": ("semper_victor.battle", 0, 2),
    "semper_victor.usurpation": ("semper_victor.usurpation", 1, 2),  # validated, a march stopped, an assassination
}


@pytest.fixture(scope="module")
def traced():
    cache = {}

    def get(name):
        if name not in cache:
            scenario, game, seed = GAMES[name]
            cache[name] = romesim.trace(scenario, game, seed=seed, legal=False)
        return cache[name]
    return get


def told(events):
    """{step: the game's sentence that tells that event} (generic lines excluded)."""
    return {step: s for s in events.sentences() if not s.generic for step in s.covers}


def says(text, number):
    return re.search(rf"(?<![\d.]){number}(?!\d)", text) is not None


def outcome_line(events):
    return "outcome: " + ", ".join(f"{k}={v}" for k, v in events.outcome.items())


@pytest.mark.parametrize("name", list(GAMES))
def test_every_die_and_decision_is_told_with_its_value(traced, name):
    events = traced(name)
    by_step = told(events)
    for e in events.itertuples():
        if e.kind in ("die", "decision"):
            assert e.Index in by_step, (name, e.Index, e.kind, e.where)
            sentence = by_step[e.Index]
            assert sentence.text and not sentence.heading
        if e.kind == "die":
            assert says(by_step[e.Index].text, e.value), (e.Index, e.value, by_step[e.Index].text)
        if e.kind == "decision" and e.rule and name != "vox_populi.game":  # a Vox seat's one point is all of spec
            # 10: its sentences cite the decision kind's own DPnn (test_vox_tells_each_seat_and_kind_and_the_winners)
            assert e.rule in by_step[e.Index].text or e.rule.split(" (")[0] in by_step[e.Index].text
    text = events.narrative()
    lines = text.splitlines()
    scenario, game, seed = GAMES[name]
    assert lines[0] == f"{name}, game {game} of seed {seed}"
    assert lines[-1] == outcome_line(events)
    assert any(s.heading for s in events.sentences())
    # the generic form is still there: one line per event
    detail = events.narrative(detail=True).splitlines()
    assert len(detail) == len(events) + 2 and detail[-1] == outcome_line(events)


def test_battle_dice_follow_kor_5_7_9(traced):
    """A phase-3 die hits iff d6 + the Roman class DRM (II +1, I +2; none for the NR) > the target's Virtus."""
    events = traced("kings_of_rome.battle")
    scenario = events.scenario
    units = (scenario.roman_units, scenario.nr_units)
    by_step = told(events)
    rolls = [e for e in events.itertuples() if e.kind == "die" and e.where.endswith("> roll")]
    assert rolls
    for e in rolls:
        c = e.context
        side, foe = c["side"], c["foe"]
        target = units[1 - side][foe]["virtus"]
        assert c["target"] == target
        if "box" in c:  # phase 3: no retreat-round modifier
            me = units[side][c["me"]]
            drm = {1: 2, 2: 1}.get(me["roman_class"], 0) if side == 0 and me["kind"] == "infantry" else 0
            assert c["drm"] == drm
        hit = e.value + c["drm"] > target
        assert re.search(r"\bhit\b" if hit else r"\bmiss\b", by_step[e.Index].text), by_step[e.Index].text
        assert f"Virtus {target}" in by_step[e.Index].text
    for e in events.itertuples():
        if e.kind == "decision":
            meaning = action_meaning(e.actions, e.value)
            if e.point in ("vanguard_pairing", "retreat_pairing", "deployment"):
                assert f"#{e.value + 1} " in by_step[e.Index].text
            elif meaning and meaning.isupper():  # ATTACK, DEFENCE
                assert meaning in by_step[e.Index].text
            elif e.point == "participants":
                assert meaning in by_step[e.Index].text
        if e.kind == "rule" and e.what.startswith("lose_unit"):
            assert "eliminated" in by_step[e.Index].text
    ending = " ".join(events._ending())
    assert ("Rome wins" in ending) == bool(events.outcome["p_win"])
    assert ("the Triumph" in ending) == bool(events.outcome["p_triumph"])


def test_ambush_tells_each_round_and_the_attack_on_a_leader(traced):
    events = traced("kings_of_rome.ambush")
    headings = [s.text for s in events.sentences() if s.heading]
    rounds = events.outcome["phase3_rounds"]
    assert [h for h in headings if h.startswith("Phase 3, round")] == [
        f"Phase 3, round {r} [KoR 5.7.9]" for r in range(1, rounds + 1)]
    by_step = told(events)
    attacks = [e for e in events.itertuples() if e.kind == "die" and e.where.endswith("leader_attack_hits")]
    assert attacks
    for e in attacks:
        c = e.context
        hit = e.value + c["omen"] > c["target"]  # KOR-A31 leader_attack_test = gt (default)
        assert ("eliminated" in by_step[e.Index].text) == hit
        assert hit == bool(events.outcome["p_roman_leader_lost"])


def test_siege_rolls_follow_kor_5_5(traced):
    """Roll a against the leader (KOR-A7): d6 > 2 x Virtus; roll b: reach 2 x (garrison + 1) or exceed the leader's
    Virtus (KOR-A8); a reroll spends an Astutia point (DP-S05)."""
    events = traced("kings_of_rome.siege")
    by_step = told(events)
    rolls = [e for e in events.itertuples() if e.kind == "die" and e.where.endswith("siege_roll")]
    assert len(rolls) >= 3
    for e in rolls:
        text = by_step[e.Index].text
        if text.startswith("Roll a"):
            ok = e.value > 2 * SIEGE.leader
        else:
            ok = e.value >= 2 * (SIEGE.garrison + 1) or e.value > SIEGE.leader
        assert re.search(r"\bsuccess\b" if ok else r"\bfailure\b", text), text
    for e in events.itertuples():
        if e.kind == "decision" and e.point == "reroll":
            assert ("spends an Astutia point" in by_step[e.Index].text) == (e.value == 1)
        if e.kind == "decision" and e.point == "losses":
            assert action_meaning(e.actions, e.value) in by_step[e.Index].text
    ending = " ".join(events._ending())
    assert ("The siege is abandoned" in ending) == bool(events.outcome["p_abandon"])


def test_duel_tells_the_split_the_weapon_the_zone_and_the_winner(traced):
    events = traced("jugule.duel")
    by_step = told(events)
    for e in events.itertuples():
        text = by_step.get(e.Index, Sentence(0, "")).text
        if e.kind == "decision" and e.point.endswith("_allocate"):
            m, c = divmod(e.value, 100)  # D4: M * 100 + C, R the rest
            assert f"M {m}, C {c}, R {e.state['ap'] - m - c}" in text
        if e.kind == "decision" and e.point.endswith("_attack") and 10 <= e.value < 20:
            kind = e.state[f"kind_{e.value - 10}"]
            assert WEAPON_IDS[kind].replace("_", " ") in text
        if e.kind == "decision":
            side = e.state["side"]
            assert f"{'AB'[side]} ({getattr(events.scenario, 'ab'[side])})" in text
        if e.kind == "die" and (e.context or {}).get("roll") == "location":
            assert ZONES[e.value - 1].replace("_", " ") in text  # 9.1: zone = location die - 1
    initiative = [e for e in events.itertuples() if (e.context or {}).get("roll") == "initiative"]
    assert len(initiative) % 2 == 0
    for a, b in zip(initiative[::2], initiative[1::2]):
        text = by_step[a.Index].text
        assert by_step[b.Index] is by_step[a.Index]
        assert f"A rolls {a.value}, B rolls {b.value}" in text
        if a.value != b.value:
            assert f"{'AB'[int(a.value < b.value)]} (" in text.split(":")[-1]
    ending = " ".join(events._ending())
    winner = "A" if events.outcome["p_win"] else "B"
    assert ending.startswith(f"{winner} (")
    assert f"after {events.outcome['turns']} turn(s)" in ending


def test_vox_tells_each_seat_and_kind_and_the_winners(traced):
    events = traced("vox_populi.game")
    by_step = told(events)
    shuffle = [e for e in events.itertuples() if e.kind == "die" and e.where.endswith("shuffle_deck")]
    assert len({id(by_step[e.Index]) for e in shuffle}) == 1  # one sentence for the whole shuffle
    for e in events.itertuples():
        if e.kind == "decision":
            text = by_step[e.Index].text
            assert text.startswith(f"Seat {e.state['seat']} ")
            assert f"[DP{e.state['kind']:02d}]" in text
    turns = [s.text for s in events.sentences() if s.heading and s.text.startswith("Turn ")]
    assert turns and len(turns) <= events.outcome["turns"]
    winners = [s for s in range(events.scenario.players) if events.outcome[f"p_win_seat{s}"]]
    ending = " ".join(events._ending())
    assert all(str(s) in ending.split(" win")[0] for s in winners)


def test_semper_victor_battle_fire_follows_p8_3(traced):
    """P8.3: a unit's die hits iff d10 < clamp(QU + TB + TBc, 1, 9), TBc the TB of its side's commander, the
    leader with the highest TB (P8.2)."""
    events = traced("semper_victor.battle")
    scenario = events.scenario
    by_step = told(events)
    units = (scenario.attacker_units, scenario.defender_units)
    tbc = [max((g["tb"] for g in leaders), default=0)
           for leaders in (scenario.attacker_leaders, scenario.defender_leaders)]
    fire = [e for e in events.itertuples() if e.kind == "die" and e.where.endswith("> fire")]
    assert fire
    for e in fire:
        c = e.context
        u = units[c["side"]][c["unit"]]
        assert not c["weakened"]  # the first volley: every unit on its full face
        threshold = min(9, max(1, u["qu"] + u["tb"] + tbc[c["side"]]))
        assert c["threshold"] == threshold
        hit = e.value < threshold
        assert re.search(r"\bhit\b" if hit else r"\bmiss\b", by_step[e.Index].text)
    for e in events.itertuples():
        if e.kind == "decision" and e.point == "losses":
            text = by_step[e.Index].text
            assert f"unit {e.value + 1} (" in text
            assert ("eliminated" if e.state[f"weakened_{e.value}"] else "weakened") in text
    ending = " ".join(events._ending())
    assert ending.startswith("The attacker wins" if events.outcome["p_win"] else "The defender wins")


def test_usurpation_validation_follows_seed_3_6(traced):
    events = traced("semper_victor.usurpation")
    scenario = events.scenario
    by_step = told(events)
    validations = [e for e in events.itertuples() if e.kind == "die" and e.where.endswith("validation")]
    assert len(validations) == len(scenario.usurpations)
    for e, attempt in zip(validations, scenario.usurpations):
        pc = scenario.leaders[attempt["target"]]["pc"]
        text = by_step[e.Index].text
        assert f"PC {pc}" in text and attempt["stratagem"] in text
        assert ("not validated" in text) == (e.value > pc)  # d6 <= PC
    assassinations = [e for e in events.itertuples() if e.kind == "die" and "Assassinat" in by_step[e.Index].text]
    killed = [e for e in assassinations if re.search(r"\b(assassinated|killed)\b", by_step[e.Index].text)]
    assert len(killed) == events.outcome["augusti_assassinated"] + events.outcome["p_usurper_killed"]
    ending = " ".join(events._ending())
    assert ("succeeds" in ending) == bool(events.outcome["p_win"])


def test_a_scenario_without_narrator_keeps_the_generic_lines(monkeypatch):
    events = romesim.trace(romesim.scenario("kings_of_rome.treason", garrison=2), 1, seed=3, legal=False)
    assert all(s.generic for s in events.sentences())
    assert events.narrative() == events.narrative(detail=True)

    class Broken(romesim.core.narrative.Narrator):
        def sentences(self, trace):
            raise ValueError("no words")

    monkeypatch.setattr(type(events.scenario), "narrator", lambda self: Broken())
    text = events.narrative()
    assert "failed: ValueError('no words')" in text
    assert text.count("\n") == events.narrative(detail=True).count("\n") + 1


def test_cli_trace_prints_the_sentences_and_the_detail():
    args = [sys.executable, "-m", "romesim", "trace", "semper_victor.battle", "--game", "0", "--seed", "2"]
    out = subprocess.run(args, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "      Fire: both sides roll" in out.stdout and "The attacker wins" in out.stdout
    assert "decision losses" not in out.stdout and out.stdout.rstrip().splitlines()[-1].startswith("outcome: ")
    detail = subprocess.run(args + ["--detail"], capture_output=True, text=True)
    assert detail.returncode == 0 and "decision losses [D14 (P8.4)]" in detail.stdout and " of [" in detail.stdout
