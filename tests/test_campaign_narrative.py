"""The Kings of Rome campaign's narrative: a game log a designer checks against the rules (KoR 5.0-9.7).

A few short campaigns (3 turns: the Romulus era, with its mission at the end), traced once each with ``legal=False``
(no one-game kernel to compile). The expected values come from the trace's events (the draws' dice, the DP-K01
decisions and their states), the scenario's map and counters and the outcome row, never from the narrative."""
import re

import pytest

import romesim
from romesim.kings_of_rome import campaign as C
from romesim.kings_of_rome.campaign_data import KINDS

SEEDS = (3, 1, 5)
TURNS = 3


@pytest.fixture(scope="module")
def traced():
    cache = {}

    def get(seed):
        if seed not in cache:
            cache[seed] = romesim.trace(romesim.scenario("kings_of_rome.campaign", turns=TURNS), seed=seed,
                                        legal=False)
        return cache[seed]
    return get


@pytest.fixture(scope="module")
def whole():
    """Whole default campaigns' traces by seed, each traced once for the tests that read it."""
    cache = {}

    def get(seed):
        if seed not in cache:
            cache[seed] = romesim.trace(romesim.scenario("kings_of_rome.campaign"), seed=seed, legal=False)
        return cache[seed]
    return get


def told(events):
    """{step: the sentence that tells it} for the narrator's own sentences."""
    return {step: s for s in events.sentences() if not s.generic for step in s.covers}


def draws(events):
    """The draw dice (4.0): a die of ``pick_at`` called by ``draw``."""
    return [e for e in events.itertuples() if e.kind == "die" and e.where.endswith("> draw > pick_at")]


@pytest.mark.parametrize("seed", SEEDS)
def test_no_generic_line_remains_and_the_narrator_reads_without_error(traced, seed):
    events = traced(seed)
    sentences = events.sentences()
    assert [s.text for s in sentences if s.generic] == []
    assert not any("narrator of" in s.text for s in sentences)
    errors = [c for c in events["context"] if isinstance(c, dict)
              and ("narrator_error" in c or "narrator_error" in c.get("end", {}))]
    assert errors == []
    # the scenario's Python set-up (its procedures' tables) is not the game: nothing of it is recorded
    assert not events["where"].str.startswith("kernel_args").any()
    # the detail still lists every event
    detail = events.narrative(detail=True).splitlines()
    assert len(detail) == len(events) + 2


@pytest.mark.parametrize("seed", SEEDS)
def test_one_heading_per_turn_played_with_the_points_the_last_turn_ended_with(traced, seed):
    events = traced(seed)
    lines = events.narrative().splitlines()
    headings = [(i, re.match(r" {6}Turn (\d+) - period (\d+), .*: (-?\d+) IP, (-?\d+) VP$", line))
                for i, line in enumerate(lines) if line.startswith("      Turn ")]
    assert [int(m.group(1)) for _, m in headings] == list(range(1, events.outcome["turn"] + 1))
    assert all(m.group(2) == "1" for _, m in headings)  # turns 1-3 are Romulus' era (9.1)
    assert headings[0][1].group(3, 4) == ("5", "1")  # 5.1: IP 5, VP 1
    # each turn starts with the VP and IP the end of the turn before said (7.5)
    ends = [re.search(r"End of turn (\d+): .*Rome has (-?\d+) VP, (-?\d+) IP", line) for line in lines]
    ends = {int(m.group(1)): (m.group(2), m.group(3)) for m in ends if m}
    assert sorted(ends) == list(range(1, events.outcome["turn"] + 1))
    for _, m in headings[1:]:
        assert ends[int(m.group(1)) - 1] == (m.group(4), m.group(3))


@pytest.mark.parametrize("seed", SEEDS)
def test_the_final_line_has_the_outcome_vp_and_ip(traced, seed):
    events = traced(seed)
    lines = events.narrative().splitlines()
    assert lines[-1].startswith("outcome: ")
    o = events.outcome
    assert lines[-2] == f"After turn {o['turn']}: {o['vp']} VP, {o['ip']} IP."
    assert lines[-3].startswith("The last turn is played") if o["p_end_turn_24_loss"] else True


@pytest.mark.parametrize("seed", SEEDS)
def test_every_draw_is_told_with_its_die_and_where_the_counter_goes(traced, seed):
    events = traced(seed)
    by_step = told(events)
    dice = draws(events)
    draw_lines = [s for s in events.sentences() if s.text.startswith("Draw from ")]
    assert len(dice) == len(draw_lines) > 0
    _, counters = events.scenario.data()
    names = sorted(counters.names, key=len, reverse=True)
    for e in dice:
        sentence = by_step[e.Index]
        assert sentence.text.startswith("Draw from ") and f"(d{e.sides} = {e.value})" in sentence.text
        name = next(n for n in names if f": {n}" in sentence.text)
        kind = KINDS[counters.kind[counters.names.index(name)]]
        if kind in ("infantry", "cavalry") and sentence.text.startswith("Draw from R "):
            assert "to the Rome reserve" in sentence.text  # 4.0: a Roman unit drawn joins the Rome reserve
        if kind in ("infantry", "cavalry") and sentence.text.startswith("Draw from NR "):
            assert "(NR)" in sentence.text or "the general reserve" in sentence.text  # 4.1.2


@pytest.mark.parametrize("seed", SEEDS)
def test_each_roman_action_says_what_dp_k01_chose(traced, seed):
    events = traced(seed)
    by_step = told(events)
    cities = events.scenario.data()[0].cities
    decisions = [e for e in events.itertuples() if e.kind == "decision" and e.point == "action"]
    assert decisions
    for e in decisions:
        text = by_step[e.Index].text
        n, here, left = e.state["places"], e.state["army_at"], e.state["actions_left"]
        assert text.startswith(f"Action ({left} left): ") and "[DP-K01]" in text
        if e.value == C.ACT_END:
            assert "ends its actions" in text
        elif e.value <= n:
            assert f"from {cities[here]} to {cities[e.value - 1]} " in text
        else:
            op = ("siege", "pillage", "corruption", "intimidation", "battle")[e.value - 1 - n]
            assert f"{op} at {cities[here]}" in text


@pytest.mark.parametrize("seed", SEEDS)
def test_the_allowance_gives_the_first_action_its_count(traced, seed):
    """5.3: the King's Virtus + d6 (Romulus: Virtus 3); the first DP-K01 of the turn has that many actions."""
    events = traced(seed)
    allowances = [(e.Index, e.value) for e in events.itertuples()
                  if e.kind == "die" and e.where.endswith("> allowance")]
    assert len(allowances) == events.outcome["turn"]
    by_step = told(events)
    for step, die in allowances:
        text = by_step[step].text
        assert f"Virtus 3 + d6 = {die} = {3 + die} action(s)" in text
        first = next(e for e in events.loc[step:].itertuples() if e.kind == "decision")
        assert first.state["actions_left"] == 3 + die


@pytest.mark.parametrize("seed", SEEDS)
def test_every_hostile_reaction_has_its_line(traced, seed):
    events = traced(seed)
    reactions = [s for s in events.sentences() if s.text.startswith("Hostile reaction ")]
    assert len(reactions) == events.outcome["hostile_reactions"]
    # 6.0: the reaction's d6 names its kind
    kinds = {1: "military", 2: "revolt", 3: "revolt", 4: "revolt", 5: "ambush", 6: "treason"}
    for s in reactions:
        m = re.search(r": d6 = (\d), (\w+)", s.text)
        if m:
            assert kinds[int(m.group(1))] == m.group(2)


def test_the_same_seed_tells_the_same_story(traced):
    again = romesim.trace(romesim.scenario("kings_of_rome.campaign", turns=TURNS), seed=SEEDS[0], legal=False)
    assert again.narrative() == traced(SEEDS[0]).narrative()
    assert again.narrative() != traced(SEEDS[1]).narrative()


@pytest.mark.parametrize("seed, drawn_from_r", [(4, True), (0, False)])
def test_the_alba_longa_war_is_told_with_its_duel(whole, seed, drawn_from_r):
    """KoR 9.3.7.2-9.3.7.3 in a whole campaign: the Alba Longa War drawn from R (seed 4) is fought by the Horatii,
    from NR (seed 0) the royal army marches and besieges; each told in its own line, with the duel's result read
    from the outcome columns (``duels_won``), and nothing left to a generic line."""
    events = whole(seed)
    sentences = events.sentences()
    assert [s.text for s in sentences if s.generic] == []
    war = [s.text for s in sentences if s.text.startswith("The Alba Longa war (9.3.7.3)")]
    assert len(war) == 1
    assert ("fought by the Horatii" in war[0]) == drawn_from_r
    duel = [s.text for s in sentences if s.text.startswith(("The Horatii and the Curiatii", "Siege of Alba Longa"))]
    assert duel
    won = sum("Rome wins the duel" in text for text in duel)
    assert won == events.outcome["duels_won"]


def test_an_alba_longa_war_after_the_horatii_left_play_is_told_without_a_duel(whole):
    """KoR 9.3.6: the Horatii token leaves play at the end of Tullus' period; the Alba Longa War drawn from R later
    (seed 12) brings no duel, and its line says so rather than « fought by the Horatii »."""
    events = whole(12)
    sentences = events.sentences()
    war = [s.text for s in sentences if s.text.startswith("The Alba Longa war (9.3.7.3)")]
    assert war == ["The Alba Longa war (9.3.7.3): the Horatii have left play: no duel [KoR 9.3.7.3]."]
    assert not any(s.text.startswith("The Horatii and the Curiatii") for s in sentences)
    assert events.outcome["r_alba_longa_war"] == 1 and events.outcome["duels"] == 0


def test_the_other_armies_and_the_diarchy_are_told():
    """4.2, 9.1.8.1-9.1.8.2, 9.2.7.1 in a whole campaign (``sensible`` with ``offices`` and ``diarchy``, seed 56):
    Titus Tatius' Sabines come as his army, the Diarchy has its own line, DP-K01's choice of army names the army
    and its leader, and the Rex Vicarius' army forms from the Rome reserve; nothing is left to a generic line."""
    policies = {"action": ("sensible", {"offices": 1.0, "diarchy": 1.0})}
    events = romesim.trace(romesim.scenario("kings_of_rome.campaign", turns=8), seed=56, legal=False,
                           policies=policies)
    texts = [s.text for s in events.sentences()]
    assert [s.text for s in events.sentences() if s.generic] == []
    assert any("Titus Tatius (V3) to Rome" in t and "to Roman army 1" in t for t in texts)
    assert any(t.startswith("Action (") and "the Diarchy (DP-K04)" in t for t in texts)
    assert any(t.startswith("The Diarchy (9.1.8.2): 3 IP") and "to the NR container" in t for t in texts)
    assert any("the next action with army 1 (Titus Tatius, Rex Vicarius, at Rome" in t for t in texts)
    assert any(t.startswith("Titus Tatius' army takes ") for t in texts)
    assert any("the next action with army" in t and "Tribunus" in t for t in texts)


def test_a_rout_and_an_advance_after_combat_are_told(whole):
    """KoR 5.7.13-5.7.14 in a whole campaign (seed 0): an invasion army beaten in phase 3 routs, and the royal army's
    answer at DP-B16 is told in its own line; as many pursuits and sieges told as the ``advances`` outcome counts,
    and nothing left to a generic line."""
    events = whole(0)
    sentences = events.sentences()
    assert [s.text for s in sentences if s.generic] == []
    assert any(s.text.startswith("The beaten") and "routs" in s.text for s in sentences)
    asked = [s.text for s in sentences if s.text.startswith("After its victory")]
    assert asked and all(text.endswith("[DP-B16].") for text in asked)
    advanced = [text for text in asked if "(5.7.14 a)" in text or "(5.7.14 b)" in text]
    assert len(advanced) == events.outcome["advances"] > 0


def test_romes_sortie_from_rome_besieged_is_told(whole):
    """KOR-A44 mirror_5_5 (5.5.1 mirrored) and 6.1 « si la Cité atteinte est Rome, un siège est toujours
    obligatoire »: seed 14's Capenati, who fight Roman armies on their road (9.2.7.4), besiege Rome, where a Roman
    army comes out and holds; the siege's line says the sortie ended it, and the battle's line names it a sortie,
    Rome attacking."""
    texts = [s.text for s in whole(14).sentences()]
    assert "The Capena army besieges Rome (Roman); the sortie holds, the siege fails" in "\n".join(texts)
    sortie = [t for t in texts if t.startswith("Sortie from the besieged city (5.5.1, KOR-A44 mirror_5_5) at Rome: ")]
    assert len([t for t in sortie if "against the Capena army" in t]) == 1
    assert sortie and not any("Rome defending" in t for t in sortie)


def test_a_won_siege_of_rome_that_takes_nothing_says_why(whole):
    """KoR 9.1-9.7: only the Etruscans and the Greeks sack Rome (the Gauls with Brennus, the third Etruscan war with
    Porsenna, « S'ils gagnent le siège de Rome [...] le joueur perd 5 PI et 5 PV »); no rule says what another war's
    won siege of Rome does, and the campaign reads it as nothing (contract section 5). Seed 1's Volsci win their
    siege of Rome by roll a: the line says the siege was won and why Rome holds all the same, never « the city
    submits (roll a): Rome holds » alone."""
    texts = [s.text for s in whole(1).sentences()]
    won = [t for t in texts if t.startswith("The Volsci army besieges Rome (Roman)") and "(roll a)" in t]
    assert won and all("won, but no rule of 9.x gives Rome to this army: Rome holds" in t for t in won)


def test_a_military_reaction_is_told_with_the_enemy_position_it_reaches(whole):
    """KoR 6.0-6.1 in a whole campaign (seed 11): a new army's first reaction, with more to come, is told as its
    military reaction (« si vous avez plusieurs réactions disponibles, doit être A »), and the army's next line says
    where it went by road, the nearest enemy position (« L'armée NR atteint la position ennemie la plus proche en
    suivant un itinéraire routier »), here the Etruscans from Cosa to Rome, which they besiege and whose army
    comes out."""
    texts = [s.text for s in whole(11).sentences()]
    first = [i for i, t in enumerate(texts) if "makes it a military reaction, more reactions to come (6.0)" in t]
    assert first
    for i in first:
        assert texts[i + 1].endswith(", the nearest enemy position [KoR 6.1].")
    reached = "The Etruscan army (3 units) goes by road from Cosa to Rome, the nearest enemy position [KoR 6.1]."
    i = texts.index(reached)
    assert texts[i + 1].startswith("The Etruscan army besieges Rome (Roman); the sortie")


def test_an_invasion_armys_ambush_is_told_with_where_it_is_placed(whole):
    """KoR 6.4 in a whole campaign (seed 0): « Une armée NR sur la carte [...] doit être placée dans une Cité occupée
    par Rome qui appartenait à l'origine à sa nation »; the ambush line names the invasion army, the city it is placed
    in and whence it came, its reinforcement and what follows there (6.4 b or c); nothing is left to a generic
    line."""
    events = whole(0)
    sentences = events.sentences()
    assert [s.text for s in sentences if s.generic] == []
    placed = [s.text for s in sentences if s.text.startswith("Ambush: the ") and " army under " in s.text]
    assert placed and all(" is placed in " in t and " (from " in t and t.endswith("[KoR 6.4].") for t in placed)
    assert all("(6.4 b)" in t or "(6.4 c)" in t for t in placed)


def test_an_etruscan_army_stopped_by_another_nr_army_is_told(whole):
    """KoR 9.5.7.4 in a whole campaign (seed 25): « Si la route est bloquée par des armées NR, l'armée Étrusque doit
    s'arrêter »; the military reaction's line names the enemy position it made for and the place where it stopped."""
    texts = [s.text for s in whole(25).sentences()]
    stopped = [t for t in texts if "behind another NR army (9.5.7.4)" in t]
    assert stopped and all(t.startswith("The Etruscan army") for t in stopped)
    assert any(", the nearest enemy position, and stops at " in t for t in stopped)


def test_ostia_founded_and_sacked_by_the_etruscans_is_told(whole):
    """KoR 9.4.7.1 and 9.5.7.4 in a whole campaign (seed 11): the Foundation of Ostia drawn from R is told (« la Cité
    de Rome fait maintenant face à la mer avec la fondation d'Ostie »), and later the Etruscans, landed there,
    besiege it (« ont pour cible les ports d'Ostie et d'Antium ») and, nothing defending it, take and sack it."""
    texts = [s.text for s in whole(11).sentences()]
    founded = [i for i, t in enumerate(texts) if "Ostia is founded: Rome faces the sea (9.4.7.1)" in t]
    sacked = [i for i, t in enumerate(texts) if t.startswith("The Etruscan army besieges Ostia (Roman); no defender")]
    assert len(founded) == 1 and sacked and founded[0] < sacked[0]
    assert texts[sacked[0]] == ("The Etruscan army besieges Ostia (Roman); no defender [KOR-A44]: taken without a "
                                "roll (5.4.1 mirrored): Ostia is sacked; no people holds it after them: it stays "
                                "Rome's port; IP 14 -> 12 [KOR-A44].")


def test_armies_raised_in_their_cities_and_revolts_that_gather_are_told(whole):
    """KoR 6.1-6.2 and 6.4 in a whole campaign (seed 0): each army an NR leader leads out of his city has its line,
    for a military reaction the next line saying where it goes by road, for an ambush the ambush's line saying
    where it is placed (as many as the ``nr_armies_raised`` outcome counts, of both kinds); each revolt whose step 1
    moved free units has its line and draws nothing (as many as ``revolts_gathered``); a revolt that draws says that
    step 1 had nothing to do."""
    events = whole(0)
    texts = [s.text for s in events.sentences()]
    assert [s.text for s in events.sentences() if s.generic] == []
    raised = [i for i, t in enumerate(texts) if re.match(r".+ \(V\d\) leads his .+ out of .+: the raised \w+ army, an "
                                                             r"NR army with a leader, makes the military reaction "
                                                             r"\[KoR 6\.1\]\.$", t)]
    ambushes = [t for t in texts if re.match(r"Ambush: .+ \(V\d\) leads his troops out of .+: the raised \w+ army is "
                                             r"placed in .+ \[KoR 6\.4\]\.$", t)]
    assert raised and ambushes and len(raised) + len(ambushes) == events.outcome["nr_armies_raised"]
    for i in raised:
        assert texts[i - 1].endswith("military (6.1) [KoR 6.0].")
        assert re.match(r"The raised \w+ army \(\d+ units\) (goes by road from .+, the nearest enemy position|"
                        r"finds no enemy position)", texts[i + 1])
    gathered = [i for i, t in enumerate(texts) if t.startswith("Revolt, step 1: free units move to ")]
    assert len(gathered) == events.outcome["revolts_gathered"] > 0
    for i in gathered:
        assert "revolt" in texts[i - 1] and "token drawn" not in texts[i - 1]
        assert texts[i].endswith("no token is drawn [KoR 6.2].")
    assert any("revolt (6.2): one token drawn from NR, no free unit to move (step 2)" in t for t in texts)
    # seed 54: a raised army whose leader fell shelters in a city of its people (6.2 step 1, « S'il n'y a pas de
    # chef, les troupes déplacées s'abriteront dans les murs d'une Cité amie »)
    sheltered = [t for t in (s.text for s in whole(54).sentences()) if t.startswith("Revolt, step 1")
                 and "shelter inside its walls, their leader fallen" in t]
    assert len(sheltered) == 1 and "from the field" in sheltered[0]
