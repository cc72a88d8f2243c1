"""The HTML report of a sweep, a store or a sweep file: its tables, its embedded PNG plots, its independence from
the network, its errors, and that a headless browser opens it cleanly."""
import base64
import html
import importlib.util
import io
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

import romesim
from romesim import GENERATOR, RomesimError
from romesim.analysis import write_report
from romesim.analysis.fairness import edge_interval
from romesim.analysis.plots import label

BATTLE = "kings_of_rome.battle"
GRID = {"good_omen": [False, True], "roman_adjacent_garrisons": [[], [1], [3]]}
N, SEED = 2_000, 3
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Page(HTMLParser):
    """The tables (rows of cell texts), images (src) and the text of a report."""

    def __init__(self, text):
        super().__init__()
        self.tables, self.images, self.captions, self.headings = [], [], [], []
        self._cell = self._row = self._heading = None
        self.text = text
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self._row = []
            self.tables[-1].append(self._row)
        elif tag in ("td", "th"):
            self._cell = ""
        elif tag == "img":
            self.images.append(dict(attrs)["src"])
            self.captions.append(dict(attrs)["alt"])
        elif tag in ("h1", "h2", "h3"):
            self._heading = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._row.append(self._cell)
            self._cell = None
        elif tag in ("h1", "h2", "h3"):
            self.headings.append(self._heading)
            self._heading = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data
        if self._heading is not None:
            self._heading += data

    def table_after(self, heading, occurrence=0):
        """The first table after the ``occurrence``-th heading ``heading`` (tables counted in document order)."""
        text, start = self.text, -1
        for _ in range(occurrence + 1):
            start = text.index(f">{heading}</h", start + 1)
        return self.tables[text[:start].count("<table")]


def colours(image, limit=1 << 16):
    """How many colours an image has, up to ``limit``."""
    found = image.convert("RGB").getcolors(limit)
    return limit if found is None else len(found)


@pytest.fixture(scope="module")
def battle_sweep(tmp_path_factory):
    store = tmp_path_factory.mktemp("report") / "store"
    return romesim.sweep(BATTLE, GRID, n=N, seed=SEED, store=store)


@pytest.fixture(scope="module")
def report(battle_sweep, tmp_path_factory):
    path = write_report(battle_sweep, tmp_path_factory.mktemp("html") / "battle.html")
    return path, Page(path.read_text(encoding="utf-8"))


def test_header_names_scenario_n_seed_version_and_generator(report):
    _, page = report
    assert page.headings[0] == f"romesim report: {BATTLE}"
    header = dict(page.tables[0])
    assert header["scenario"] == BATTLE
    assert header["games per point (n)"] == "2,000" and header["seed"] == str(SEED)
    assert header["romesim version"] == romesim.__version__ and header["dice generator"] == GENERATOR
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", header["generated"])


def test_points_table_holds_each_point_with_its_interval(report):
    _, page = report
    header, *rows = page.table_after("Points")
    assert header == ["point", "good_omen", "roman_adjacent_garrisons", "p_win", "95 % interval", "n", "p_loss",
                      "neither (no winner)", "edge (p_win − p_loss)", "95 % interval"]
    assert [(r[1], r[2]) for r in rows] == [(str(g), a) for g in (False, True) for a in ("[]", "[1]", "[3]")]
    # an independent run of one point: the same games (same seed) give the same estimate and Wilson interval
    alone = romesim.simulate(romesim.scenario(BATTLE, good_omen=True, roman_adjacent_garrisons=[1]), N, SEED)
    low, high = alone.interval("p_win")
    assert rows[4][3:6] == [f"{alone['p_win']:.4f}", f"[{low:.4f}, {high:.4f}]", str(N)]
    # KoR 5.7.11 with KOR-A29 no_winner: a tied battle has no winner, so the three outcomes add up to 1
    win, loss = alone["p_win"], alone["p_loss"]
    edge, edge_low, edge_high = edge_interval(alone.sums[0], alone.sums[1], N)
    assert rows[4][6:] == [f"{loss:.4f}", f"{1 - win - loss:.4f}", f"{win - loss:.4f}",
                           f"[{edge_low:.4f}, {edge_high:.4f}]"]


def test_fairest_points_come_first(report, battle_sweep):
    # a battle may end with no winner: the fairest point is the one whose p_win − p_loss is closest to 0
    _, page = report
    header, *rows = page.table_after("Closest to an even game")
    distances = [abs(r["p_win"] - r["p_loss"]) for r in battle_sweep.results]
    assert rows[0][0] == str(min(range(6), key=distances.__getitem__))
    assert header[3:] == ["edge (p_win − p_loss)", "95 % interval", "|edge|", "interval holds 0"]
    assert [float(r[header.index("|edge|")]) for r in rows] == pytest.approx(sorted(distances)[:5], abs=5e-5)


def test_findings_state_the_answer_with_its_interval(report, battle_sweep):
    _, page = report
    assert page.headings[1] == "Findings"
    start = page.text.index(">Findings<")
    text = html.unescape(page.text[start:page.text.index("<section>", start)])
    fairest = battle_sweep.fairest().iloc[0]
    assert (f"Closest to an even game (the edge p_win − p_loss = 0): point {int(fairest['point'])}, good_omen = "
            f"{fairest['good_omen']}, roman_adjacent_garrisons = {label(fairest['roman_adjacent_garrisons'])}: "
            f"edge {fairest['estimate']:.4f} [{fairest['ci_low']:.4f}, {fairest['ci_high']:.4f}]") in text
    # the per-knob mean over the other axes of the value closest to even, and of the rules' own value (good_omen =
    # false, the default) when that is another
    table = battle_sweep.table("edge")
    means = {}
    for value in (False, True):
        chosen = table[table["good_omen"] == value]
        mean, half = chosen["estimate"].mean(), ((chosen["ci_high"] - chosen["ci_low"]) / 2).mean()
        means[value] = (abs(mean), f"{mean:.4f} [{mean - half:.4f}, {mean + half:.4f}]")
    closest = min(means, key=lambda value: means[value][0])
    assert f"good_omen: closest to even at {closest}, mean edge over the other axes {means[closest][1]}" in text
    assert means[False][1] in text
    assert "the scenario's default False" in text or "(the scenario's default)" in text
    assert "% of the games end with no winner" in text


def test_per_knob_table_marks_closest_to_even_and_the_rules_value(report):
    _, page = report
    header, *rows = page.table_after("Per knob")
    assert header == ["knob", "value", "mean edge over the other axes", "95 % interval", "points", "closest to even",
                      "the rules' value"]
    assert [(r[0], r[1]) for r in rows] == [("good_omen", "False"), ("good_omen", "True"),
                                            ("roman_adjacent_garrisons", "[]"), ("roman_adjacent_garrisons", "[1]"),
                                            ("roman_adjacent_garrisons", "[3]")]
    assert [r[-1] for r in rows] == ["rules", "", "rules", "", ""]  # the parameters' defaults: false and []
    assert [r[5] for r in rows[:2]].count("yes") == 1 and [r[5] for r in rows[2:]].count("yes") == 1


def test_all_metrics_table_is_wide(report):
    _, page = report
    header, *rows = page.table_after("All metrics (estimates)")
    assert header[3:] == list(romesim.scenario(BATTLE).metrics)
    assert len(rows) == 6


def test_plots_are_embedded_pngs_and_nothing_is_fetched(report):
    from PIL import Image

    path, page = report
    text = path.read_text(encoding="utf-8")
    # the edge against each of the two axes, every outcome against each, the heatmap, two score distributions
    assert len(page.images) == 7
    for src in page.images:
        prefix = "data:image/png;base64,"
        assert src.startswith(prefix)
        data = base64.b64decode(src[len(prefix):], validate=True)
        assert data.startswith(PNG_SIGNATURE)
        with Image.open(io.BytesIO(data)) as image:
            image.verify()
        with Image.open(io.BytesIO(data)) as image:
            assert image.width >= 300 and image.height >= 200
            assert colours(image) > 10  # a drawing, not a blank
    assert "http://" not in text and "https://" not in text
    assert "<script" not in text and "<link" not in text and "url(" not in text


def test_store_and_sweep_file_give_the_same_points(battle_sweep, report, tmp_path):
    _, page = report
    from_store = Page(write_report(battle_sweep.store.path, tmp_path / "store.html").read_text(encoding="utf-8"))
    assert from_store.table_after("Points") == page.table_after("Points")
    assert dict(from_store.tables[0])["source"] == f"store {battle_sweep.store.path}"

    sweep_file = battle_sweep.store.path.parent / "battle.toml"
    sweep_file.write_text(f'scenario = "{BATTLE}"\nn = {N}\nseed = {SEED}\nstore = "store"\n'
                          '[grid]\ngood_omen = [false, true]\nroman_adjacent_garrisons = [[], [1], [3]]\n')
    from_file = Page(write_report(sweep_file, tmp_path / "file.html").read_text(encoding="utf-8"))
    assert from_file.table_after("Points") == page.table_after("Points")


def test_store_with_two_scenarios_a_policy_axis_and_a_rerun(tmp_path):
    store = tmp_path / "store"
    romesim.sweep(BATTLE, {"policy.tactic": ["default", "attack"]}, n=1_000, seed=1, store=store)
    romesim.sweep(BATTLE, {"policy.tactic": ["default", "attack"]}, n=1_500, seed=1, store=store)  # more games
    romesim.sweep("kings_of_rome.ambush", points=[{}], n=500, seed=1, store=store)
    page = Page(write_report(store, tmp_path / "r.html", title="Tactics <&> ambush").read_text(encoding="utf-8"))
    assert page.headings[0] == "Tactics <&> ambush"
    assert [h for h in page.headings if h.startswith("kings_of_rome")] == ["kings_of_rome.ambush", BATTLE]
    header, *rows = page.table_after("Points", 0)
    assert header[:4] == ["point", "p_win", "95 % interval", "n"]  # one point, no axis
    assert len(rows) == 1 and rows[0][0] == "0" and rows[0][3] == "500"
    header, *rows = page.table_after("Points", 1)
    assert header[1] == "policy.tactic" and [r[1] for r in rows] == ["attack", "default"]
    assert {r[4] for r in rows} == {"1500"}  # the rerun's larger n only, not the 1 000-game files as well
    assert dict(page.tables[0])["games per point (n)"] == "500, 1,500"
    # the battle's one axis: its edge and its outcomes; each scenario's two binned score distributions
    assert len(page.images) == 6


def test_plot_captions_follow_the_design(report, tmp_path):
    _, page = report
    fairest_point = page.table_after("Closest to an even game")[1][0]
    outcomes = ("mean over the other axes: p_win (Rome wins the battle (its track score is closer to 0, or it won "
                "the Spolia Opima duel)), p_loss (the other side wins), neither (no winner)")
    assert page.captions == [
        "edge against good_omen, points grouped by roman_adjacent_garrisons; 95 % intervals",
        "edge against roman_adjacent_garrisons, points grouped by good_omen; 95 % intervals",
        f"every outcome against good_omen, {outcomes}", f"every outcome against roman_adjacent_garrisons, {outcomes}",
        "edge over good_omen × roman_adjacent_garrisons (95 % intervals in the cells; blue: the p_win side ahead, "
        "red: the other side)",
        f"distribution of roman_score at point {fairest_point} (the fairest), from its binned probabilities",
        f"distribution of nr_score at point {fairest_point} (the fairest), from its binned probabilities"]
    # three axes on a grid: the third is held at the fairest point's value
    cube = romesim.sweep(BATTLE, {**GRID, "attacker": ["rome", "nr"]}, n=500, seed=SEED)
    fairest = cube.fairest().iloc[0]
    held = Page(write_report(cube, tmp_path / "cube.html").read_text(encoding="utf-8"))
    assert not [c for c in held.captions if " × " in c]  # no heatmap beyond two axes
    assert held.captions[0] == (f"edge against good_omen, points grouped by roman_adjacent_garrisons, attacker = "
                                f"{fairest['attacker']} as at the fairest point; 95 % intervals")
    # a Latin hypercube is no grid: neither lines across the other axis nor a mostly empty heatmap
    spread = romesim.sweep(BATTLE, lhs={"policy.tactic.p_attack": (0.0, 1.0), "hex_garrison": (0, 3)}, samples=5,
                           n=500, seed=SEED, policies={"tactic": "parametric"})
    loose = Page(write_report(spread, tmp_path / "lhs.html").read_text(encoding="utf-8"))
    assert loose.captions[:2] == [
        "edge against policy.tactic.p_attack; each marker a point (they also differ in hex_garrison)",
        "edge against hex_garrison; each marker a point (they also differ in policy.tactic.p_attack)"]


def test_title_and_values_are_escaped(battle_sweep, tmp_path):
    text = write_report(battle_sweep, tmp_path / "r.html", title='<script>alert("x")</script>').read_text()
    assert "<script>" not in text and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in text


def test_bad_sources_raise_naming_the_path(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(RomesimError, match=re.escape(repr(str(missing))) + " does not exist"):
        write_report(missing, tmp_path / "r.html")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(RomesimError, match=re.escape(repr(str(empty))) + " is not a romesim store"):
        write_report(empty, tmp_path / "r.html")
    notes = tmp_path / "notes.txt"
    notes.write_text("x")
    with pytest.raises(RomesimError, match="not a sweep TOML file"):
        write_report(notes, tmp_path / "r.html")
    sweep_file = tmp_path / "unrun.toml"
    sweep_file.write_text(f'scenario = "{BATTLE}"\nn = 10\n[grid]\ngood_omen = [false, true]\n')
    with pytest.raises(RomesimError, match="unrun-store.* does not exist; run the sweep first"):
        write_report(sweep_file, tmp_path / "r.html")
    with pytest.raises(RomesimError, match="expected a Sweep"):
        write_report(42, tmp_path / "r.html")
    assert not (tmp_path / "r.html").exists()


def test_report_opens_in_headless_chromium(report, tmp_path):
    missing = [what for what, absent in ((CHROMIUM, not Path(CHROMIUM).exists()),
                                         ("the playwright package", importlib.util.find_spec("playwright") is None))
               if absent]
    if missing:
        if os.environ.get("ROMESIM_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{' and '.join(missing)} missing, and ROMESIM_REQUIRE_BROWSER=1 asks for the browser test")
        pytest.skip(f"{' and '.join(missing)} missing (set ROMESIM_REQUIRE_BROWSER=1 to make this a failure)")
    from PIL import Image
    from playwright import sync_api

    path, _ = report
    errors, requests = [], []
    screenshot = tmp_path / "report.png"
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("request", lambda request: requests.append(request.url))
            page.goto(path.resolve().as_uri(), wait_until="load")
            widths = page.eval_on_selector_all("img", "images => images.map(i => i.complete ? i.naturalWidth : 0)")
            tables = page.eval_on_selector_all("table", "tables => tables.map(t => t.rows.length)")
            page.screenshot(path=str(screenshot), full_page=True)
        finally:
            browser.close()
    assert errors == []
    assert [u for u in requests if not u.startswith(("file:", "data:"))] == []
    assert len(widths) == 7 and all(w > 0 for w in widths)
    # header, points (+ heading row), per knob (5 values + heading row), fairest, metrics, shared
    assert len(tables) == 6 and tables[1] == 7 and tables[2] == 6
    with Image.open(screenshot) as image:
        assert image.width == 1200 and image.height > 2000  # the whole page, not the viewport
        assert colours(image) > 50  # text, tables and plots, not one colour
