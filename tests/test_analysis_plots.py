"""Plots of tidy frames: what each function draws, read back from the artists (Agg backend, synthetic frames)."""
import matplotlib
import numpy as np
import pandas as pd
import pytest

from romesim import ScenarioError
from romesim.analysis import heatmap, sweep_plot, tornado
from romesim.analysis.plots import label

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def grid_frame():
    """p_win over ap (3 values, given out of order) x side (2 values), as Sweep.summary() rows plus a second metric."""
    rows = []
    for point, (ap, side, p) in enumerate([(11, "a", 0.30), (9, "a", 0.10), (10, "a", 0.20),
                                           (11, "b", 0.70), (9, "b", 0.50), (10, "b", 0.60)]):
        rows.append({"point": point, "ap": ap, "side": side, "metric": "p_win", "estimate": p,
                     "ci_low": p - 0.03, "ci_high": p + 0.04, "n": 1000})
        rows.append({"point": point, "ap": ap, "side": side, "metric": "rounds", "estimate": 5.0 + p,
                     "ci_low": 4.0, "ci_high": 6.0, "n": 1000})
    return pd.DataFrame(rows)


def p_win(frame):
    return frame[frame["metric"] == "p_win"]


# --- heatmap


def test_heatmap_annotates_each_cell_with_its_value_and_interval():
    ax = heatmap(p_win(grid_frame()), "ap", "side")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["9", "10", "11"]  # numbers ascending
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b"]
    texts = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts}
    assert len(ax.texts) == 6
    assert texts[(0, 1)] == "0.50\n[0.47, 0.54]"  # ap 9, side b
    assert texts[(2, 0)] == "0.30\n[0.27, 0.34]"  # ap 11, side a
    image = ax.images[0]
    np.testing.assert_allclose(image.get_array(), [[0.1, 0.5], [0.2, 0.6], [0.3, 0.7]])
    # symmetric about 0.5: the farthest cell (0.1) sets both ends
    assert image.norm.vmin == pytest.approx(0.1) and image.norm.vmax == pytest.approx(0.9)
    assert ax.figure.axes[-1].get_ylabel() == "p_win"  # the colour bar names the metric


def test_heatmap_text_contrast_follows_the_colour_scale():
    ax = heatmap(p_win(grid_frame()), "ap", "side")
    colours = {t.get_text().split("\n")[0]: t.get_color() for t in ax.texts}
    assert colours["0.10"] == "white"  # at the end of the scale: dark cell
    assert colours["0.50"] == "black"  # at the centre: pale cell


def test_heatmap_value_only_format_missing_cell_and_free_scale():
    frame = p_win(grid_frame()).iloc[1:]  # drop (ap 11, side a)
    ax = heatmap(frame, "side", "ap", low=None, fmt=".1%", center=None)
    assert sorted(t.get_text() for t in ax.texts) == ["10.0%", "20.0%", "50.0%", "60.0%", "70.0%"]
    assert np.ma.is_masked(ax.images[0].get_array()[0, 2])  # side a, ap 11: blank
    assert (ax.images[0].norm.vmin, ax.images[0].norm.vmax) == pytest.approx((0.1, 0.7))


def test_heatmap_refuses_ambiguous_frames():
    with pytest.raises(ScenarioError, match="p_win, rounds"):
        heatmap(grid_frame(), "ap", "side")
    with pytest.raises(ScenarioError, match="several rows have ap = 11 and side = a"):
        heatmap(p_win(pd.concat([grid_frame(), grid_frame()])), "ap", "side")
    with pytest.raises(ScenarioError, match="'bonus' is not a column"):
        heatmap(p_win(grid_frame()), "bonus", "side")
    with pytest.raises(ScenarioError, match="no rows"):
        heatmap(grid_frame().iloc[:0], "ap", "side")


# --- sweep_plot


def band(collection):
    """{x: (lowest y, highest y)} of a fill_between band."""
    vertices = collection.get_paths()[0].vertices
    return {x: (vertices[vertices[:, 0] == x, 1].min(), vertices[vertices[:, 0] == x, 1].max())
            for x in np.unique(vertices[:, 0])}


class FakeSweep:
    def summary(self):
        return grid_frame()


def test_sweep_plot_one_line_and_band_per_hue_value():
    ax = sweep_plot(FakeSweep(), "ap", hue="side")
    data_lines = [line for line in ax.lines if line.get_label().startswith("side")]
    assert [line.get_label() for line in data_lines] == ["side = a", "side = b"]
    np.testing.assert_allclose(data_lines[0].get_xdata(), [9, 10, 11])  # sorted along x
    np.testing.assert_allclose(data_lines[0].get_ydata(), [0.1, 0.2, 0.3])
    np.testing.assert_allclose(data_lines[1].get_ydata(), [0.5, 0.6, 0.7])
    bands = [band(c) for c in ax.collections]
    assert len(bands) == 2
    for x, (low, high) in zip((9, 10, 11), ((0.07, 0.14), (0.17, 0.24), (0.27, 0.34))):
        assert bands[0][x] == pytest.approx((low, high))
    assert bands[1][11] == pytest.approx((0.67, 0.74))
    reference = [line for line in ax.lines if line not in data_lines]
    assert len(reference) == 1 and list(reference[0].get_ydata()) == [0.5, 0.5]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["side = a", "side = b"]


def test_sweep_plot_other_metric_categorical_axis_and_no_reference():
    # categories have no order: points with whiskers, never a line or a band between two of them
    frame = grid_frame()
    frame = frame[frame["ap"] == 10].drop(columns="ap")
    ax = sweep_plot(frame, "side", metric="rounds", reference=None, rules="b")
    markers = [line for line in ax.lines if line.get_marker() == "o"]
    assert len(markers) == 1 and markers[0].get_linestyle() == "None"
    np.testing.assert_allclose(markers[0].get_xdata(), [0, 1])
    np.testing.assert_allclose(markers[0].get_ydata(), [5.2, 5.6])
    assert not any(type(c).__name__.startswith("FillBetween") for c in ax.collections)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b (rules)"]  # the rules' own value marked
    assert ax.get_ylabel().startswith("rounds")


def test_sweep_plot_groups_of_a_categorical_axis_sit_side_by_side():
    frame = p_win(grid_frame())
    frame = frame.assign(ap=frame["ap"].astype(str))
    ax = sweep_plot(frame, "ap", hue="side", colours={"a": "tab:red", "b": "tab:blue"})
    markers = [line for line in ax.lines if line.get_marker() == "o"]
    assert len(markers) == 2 and all(m.get_linestyle() == "None" for m in markers)
    np.testing.assert_allclose(markers[0].get_xdata(), [-0.125, 0.875, 1.875])
    np.testing.assert_allclose(markers[1].get_xdata(), [0.125, 1.125, 2.125])
    assert [m.get_color() for m in markers] == ["tab:red", "tab:blue"]


def test_a_numeric_axis_marks_the_rules_value_and_the_colours_are_one_convention():
    from romesim.analysis import plots

    ax = sweep_plot(p_win(grid_frame()), "ap", hue="side", rules=9)
    rules = [line for line in ax.lines if line.get_label() == "rules: 9"]
    assert len(rules) == 1 and list(rules[0].get_xdata()) == [9, 9]
    # a heatmap's high values (the p_win side ahead) are blue like the tornado's increases and the matchups'
    assert heatmap(p_win(grid_frame()), "ap", "side").images[0].get_cmap().name == plots.DIVERGING == "RdBu"
    assert plots.OUTCOME_COLOURS["p_win"] == plots.WIN == "tab:blue"


def test_sweep_plot_does_not_join_points_that_differ_in_another_axis():
    # without hue, the points at one ap differ in side: markers with whiskers, no line, no band
    ax = sweep_plot(grid_frame(), "ap", reference=None)
    assert not any(type(c).__name__.startswith("FillBetween") for c in ax.collections)
    markers = [line for line in ax.lines if line.get_marker() == "o"]
    assert len(markers) == 1 and markers[0].get_linestyle() == "None"
    assert sorted(markers[0].get_ydata()) == pytest.approx([0.1, 0.2, 0.3, 0.5, 0.6, 0.7])
    whiskers = ax.containers[0].lines[2][0].get_segments()
    assert sorted((s[0][1], s[1][1]) for s in whiskers)[0] == pytest.approx((0.07, 0.14))


def test_sweep_plot_policy_specs_become_categories():
    frame = pd.DataFrame({"policy.a_attack": ["random", ("parametric", [0.5, 0.5, 2])], "estimate": [0.4, 0.6],
                          "ci_low": [0.3, 0.5], "ci_high": [0.5, 0.7]})
    ax = sweep_plot(frame, "policy.a_attack")
    assert [t.get_text() for t in ax.get_xticklabels()] == ["random", "parametric(0.5, 0.5, 2)"]
    assert label(True) == "True" and label(0.25) == "0.25" and label([1, 2]) == "[1, 2]"


def test_sweep_plot_a_line_of_one_point_is_a_marker_with_whiskers():
    frame = p_win(grid_frame())
    ax = sweep_plot(frame[frame["ap"] != 10].iloc[1:], "ap", hue="side")  # side a: ap 9 only; side b: 9 and 11
    assert len(ax.collections) == 2  # side a's whiskers and side b's band
    limits = band(ax.collections[1])
    assert sorted(limits) == [9, 11]
    assert limits[9] == pytest.approx((0.47, 0.54)) and limits[11] == pytest.approx((0.67, 0.74))
    whisker = ax.containers[0].lines[2][0].get_segments()
    assert [(s[0][1], s[1][1]) for s in whisker] == [pytest.approx((0.07, 0.14))]


def test_sweep_plot_errors_name_the_metric_and_the_column():
    with pytest.raises(ScenarioError, match="'p_loss' is not in the frame; metrics: p_win, rounds"):
        sweep_plot(grid_frame(), "ap", metric="p_loss")
    with pytest.raises(ScenarioError, match="'bonus' is not a column"):
        sweep_plot(grid_frame(), "bonus")


# --- tornado


def differences():
    return pd.DataFrame({"parameter": ["garrison", "besiegers", "astutia", "garrison"],
                         "from": [2, 4, 0, 2], "to": [3, 5, 1, 3], "metric": ["p_win", "p_win", "p_win", "ip"],
                         "change": [-0.12, 0.05, 0.20, 0.9], "ci_low": [-0.14, 0.03, 0.17, 0.8],
                         "ci_high": [-0.10, 0.07, 0.23, 1.0]})


def test_tornado_sorts_by_absolute_change_with_whiskers():
    ax = tornado(differences())
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["astutia: 0 → 1", "garrison: 2 → 3", "besiegers: 4 → 5"]
    assert ax.yaxis_inverted()  # position 0, the largest change, on top
    assert [p.get_width() for p in ax.patches] == pytest.approx([0.20, -0.12, 0.05])
    colours = [p.get_facecolor()[:3] for p in ax.patches]
    assert colours[0] == colours[2] != colours[1]  # decreases in their own colour
    whiskers = sorted((s[0][0], s[1][0], s[0][1]) for s in ax.containers[-1].lines[2][0].get_segments())
    expected = [(-0.14, -0.10, 1), (0.03, 0.07, 2), (0.17, 0.23, 0)]
    assert [v for w in whiskers for v in w] == pytest.approx([v for w in expected for v in w])


def test_tornado_other_metric_and_errors():
    ax = tornado(differences(), metric="ip")
    assert [p.get_width() for p in ax.patches] == pytest.approx([0.9])
    with pytest.raises(ScenarioError, match="'vp' is not in the frame"):
        tornado(differences(), metric="vp")
    with pytest.raises(ScenarioError, match="'change' is not a column"):
        tornado(differences().drop(columns="change"))
