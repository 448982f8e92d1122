"""Tests for embedlab.train_plots: helpers return artists, draw on a given axes, never touch pyplot,
show what the results hold, and the training explorer moves its marker and points."""

import numpy as np
import pytest
from matplotlib.collections import PathCollection
from matplotlib.container import BarContainer
from matplotlib.lines import Line2D

from embedlab import train_plots as tp
from embedlab.plots import new_figure
from embedlab.sweep import CONFIGS, load_results
from embedlab.train import class_cosine, compare, geometry_track, pca_2d

RES = compare(seeds=(0, 1), d=8, steps=30, n_checkpoints=4)


pytestmark = pytest.mark.usefixtures("no_pyplot")


def test_loss_curves_draw_the_mean_of_the_seeds():
    _, ax = new_figure()
    art = tp.loss_curves(RES, ax)
    cut = art.pop("cut")
    assert list(art) == list(RES.configs)
    # The axis is cut, and says where: its top, and the mean loss at step 0 (the highest of the configs).
    start = max(RES.curves(n)[:, 0].mean() for n in RES.configs)
    assert cut.get_text() == f"axis cut at {ax.get_ylim()[1]:.2f} nats: at step 0 the loss is {start:.2f}"
    assert ax.get_ylim()[1] < start
    for name, a in art.items():
        assert isinstance(a["line"], Line2D) and a["line"].axes is ax
        np.testing.assert_allclose(a["line"].get_ydata(), RES.curves(name).mean(axis=0))
    assert "2 seeds" in ax.get_title()
    whole = tp.loss_curves(RES, which="train", zoom=None)
    assert whole["tied"]["line"].axes is not ax and "cut" not in whole


def test_drift_bars_untied_rows_never_read_are_exactly_zero():
    _, ax = new_figure()
    art = tp.drift_bars(RES, ax)
    assert isinstance(art["tied"], BarContainer)
    untied_means, _ = art["values"]["untied"]
    tied_means, _ = art["values"]["tied"]
    assert untied_means[0] > 0 and np.all(untied_means[1:] == 0)  # read rows move; the others stay put
    assert np.all(tied_means > 0)
    assert [round(p.get_height(), 12) for p in art["untied"].patches] == [round(m, 12) for m in untied_means]


def test_geometry_scatter_and_update_move_every_class():
    classes = RES.corpus.classes
    track = geometry_track(RES.runs["tied"][0].E_checkpoints)
    _, ax = new_figure()
    art = tp.geometry_scatter(track[0], classes, ax)
    assert set(art) == set(classes) and all(isinstance(a, PathCollection) for a in art.values())
    tp.update_geometry(art, track[-1], classes)
    np.testing.assert_allclose(art["food"].get_offsets(), track[-1][classes == "food"])
    other = tp.geometry_scatter(np.zeros((3, 2)), np.array(["det", "mystery", "mystery"]))
    assert list(other) == ["det", "mystery"] and len(other["mystery"].get_offsets()) == 2
    with pytest.raises(ValueError, match="coords must have shape"):
        tp.geometry_scatter(np.zeros((3, 3)), classes[:3])


def test_update_counts_tied_every_row_untied_never_read_rows_zero():
    art = tp.update_counts(RES)
    assert np.all(art["tied"].get_ydata() == 1.0)
    untied = art["untied"].get_ydata()
    assert untied[0] == 1.0 and np.sum(untied == 0) == len(RES.corpus.never_read())


def test_training_explorer_moves_marker_and_points():
    ex = tp.training_explorer(RES)
    steps = [int(s) for s in RES.runs["tied"][0].checkpoint_steps]
    text = ex.update(step=steps[1])
    assert f"Step {steps[1]}" in text and "tied" in text
    (marker,) = [line for line in ex.axes[0].lines if line.get_linestyle() == "--"]
    assert list(marker.get_xdata()) == [steps[1], steps[1]]
    track = geometry_track(RES.runs["tied"][0].E_checkpoints)
    food = next(c for c in ex.axes[1].collections if c.get_label() == "food")
    np.testing.assert_allclose(food.get_offsets(), track[1][RES.corpus.classes == "food"])
    np.testing.assert_allclose(pca_2d(RES.runs["tied"][0].E_checkpoints[-1])[0], track[-1])
    assert len(ex.png()) > 1000


def test_helpers_refuse_what_is_not_a_compare_result():
    with pytest.raises(TypeError, match="res must be a CompareResult"):
        tp.loss_curves({"tied": []})
    with pytest.raises(ValueError, match="name must be one of"):
        tp.training_explorer(RES, name="both")


# -- the sweep and geometry over seeds --------------------------------------------------------------

SWEEP = load_results()


def test_gap_plot_draws_each_gap_and_its_interval():
    art = tp.gap_plot(SWEEP)
    spec = SWEEP.spec
    assert len(art) == 2 * len(spec.hidden) * len(spec.widths)
    for (other, hidden, d), container in art.items():
        line, _caps, (bars,) = container
        gaps = [SWEEP.gap(n, d, hidden, other) for n in spec.data_sizes]
        np.testing.assert_allclose(line.get_ydata(), [g["mean"] for g in gaps])
        segments = bars.get_segments()  # one vertical segment per data size: the 95 % interval
        np.testing.assert_allclose([s[:, 1].min() for s in segments], [g["low"] for g in gaps])
        np.testing.assert_allclose([s[:, 1].max() for s in segments], [g["high"] for g in gaps])
        assert line.axes.get_title().startswith("same width" if other == "untied" else "same size")


def test_geometry_summary_dots_are_each_seeds_class_gap():
    out = tp.geometry_summary(RES)
    read = np.setdiff1d(np.arange(1, RES.corpus.vocab_size), RES.corpus.never_read())
    for (subset, title), dots in out["dots"].items():
        ids = read if subset == "rows read in training" else np.arange(1, RES.corpus.vocab_size)
        runs = RES.runs["tied" if title == "tied E" else "untied"]
        M = [r.params["W" if "W" in title else "E"] for r in runs]
        expected = [np.subtract(*class_cosine(m, RES.corpus.classes, ids)) for m in M]
        np.testing.assert_allclose(dots.get_offsets()[:, 1], expected)


def test_geometry_panels_have_one_class_legend_and_three_matrices():
    out = tp.geometry_panels(RES, seed_index=1)
    labels = [t.get_text() for t in out["legend"].get_texts()]
    assert labels == [c for c in tp.CLASS_STYLE if c in set(RES.corpus.classes)]
    coords = pca_2d(RES.runs["untied"][1].params["W"])[0]
    np.testing.assert_allclose(out["untied W\n(output)"]["food"].get_offsets(), coords[RES.corpus.classes == "food"])
    with pytest.raises(ValueError, match="seed_index must be in"):
        tp.geometry_panels(RES, seed_index=2)


def test_sweep_explorer_shows_the_cell_it_names():
    ex = tp.sweep_explorer(SWEEP)
    spec = SWEEP.spec
    n, d, h = spec.data_sizes[-1], spec.widths[0], False
    text = ex.update(n_train=n, d=d, hidden=h)
    mean = SWEEP.test_loss(n, d, h, "untied")[0]
    assert f"{n:,} training sentences, width {d}, without the hidden layer" in text
    assert f"untied {mean:.3f}" in text
    steps, curve = SWEEP.mean_curve(n, d, h, "tied")
    line = next(a for a in ex._dynamic if getattr(a, "get_label", lambda: "")() == "tied")
    np.testing.assert_allclose(line.get_xdata(), steps)
    np.testing.assert_allclose(line.get_ydata(), curve)
    # One legend, below the panels (every corner of the curve panel holds a curve in some frame).
    (legend,) = ex.fig.legends
    assert [t.get_text() for t in legend.get_texts()] == list(CONFIGS) and ex.axes[0].get_legend() is None
    # The curve axis is cut below every start, and says so; each frame's readout gives its curves' starts.
    top = ex.axes[0].get_ylim()[1]
    assert all(SWEEP.mean_curve(*cell, cfg)[1][0] > top for cell in SWEEP.cells() for cfg in CONFIGS)
    (note,) = [t for t in ex.axes[0].texts if t.get_text().startswith("axis cut")]
    assert note.get_text() == f"axis cut at {top:.1f};\nstep 0 lies above it"
    starts = ", ".join(f"{cfg} {SWEEP.mean_curve(n, d, h, cfg)[1][0]:.2f}" for cfg in CONFIGS)
    assert text.endswith(f"At step 0 (above the cut axis): {starts}.")
    # Without the hidden layer the gaps lie far above the scale: drawn at its edge, labelled with the value.
    gap_ax = ex.axes[1]
    top = gap_ax.get_ylim()[1]
    g = SWEEP.gap(n, d, h, "untied")
    assert g["low"] > top
    texts = [a for a in ex._dynamic if hasattr(a, "get_text") and a.axes is gap_ax]
    assert texts[0].get_text() == f"off scale:\n{g['mean']:+.2f}"
    # With it, the intervals are drawn where they are.
    n, d, h = spec.data_sizes[0], spec.widths[-1], True
    ex.update(n_train=n, d=d, hidden=h)
    g = SWEEP.gap(n, d, h, "untied, same params")
    bars = [a for a in ex._dynamic if isinstance(a, Line2D) and a.axes is gap_ax]
    np.testing.assert_allclose(bars[1].get_ydata(), [g["low"], g["high"]])
    assert texts[1].get_text() == ""
    with pytest.raises(TypeError, match="sweep must be"):
        tp.sweep_explorer(RES)
