"""Tests for embedlab.plots: helpers return artists, make a figure only when ax=None, never touch
pyplot's figure registry or plt.show, and their update functions move the artists they made."""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgba
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.quiver import Quiver
from matplotlib.text import Annotation

from embedlab import plots

pytestmark = pytest.mark.usefixtures("no_pyplot")


@pytest.fixture
def count_figures(monkeypatch):
    """Count the figures the helpers make through plots.new_figure."""
    calls = []
    real = plots.new_figure

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(plots, "new_figure", counting)
    return calls


# ---------------------------------------------------------------- new_figure and style
def test_new_figure_is_offscreen_agg_and_unregistered():
    before = plt.get_fignums()
    fig, ax = plots.new_figure((4.0, 2.0))
    assert isinstance(fig, Figure)
    assert isinstance(ax, Axes)
    assert isinstance(fig.canvas, FigureCanvasAgg)
    assert tuple(fig.get_size_inches()) == (4.0, 2.0)
    assert plt.get_fignums() == before
    fig.canvas.draw()  # drawable without pyplot


def test_new_figure_ncols():
    fig, axes = plots.new_figure(ncols=3)
    assert len(axes) == 3
    assert all(a.figure is fig for a in axes)


def test_new_figure_subplot_kw():
    _, ax = plots.new_figure(projection="polar")
    assert ax.name == "polar"


def test_style_is_a_context_manager_that_restores():
    import matplotlib as mpl

    before = dict(mpl.rcParams)
    with plots.style():
        pass
    assert dict(mpl.rcParams) == before


# ---------------------------------------------------------------- figure only when ax is None
@pytest.mark.parametrize(
    "draw",
    [
        lambda ax: plots.heatmap([[1.0, -1.0], [0.5, 0.0]], ax)["image"],
        lambda ax: plots.bars([1.0, 2.0], ["a", "b"], ax),
        lambda ax: plots.arrows([[1.0, 0.0]], ax),
        lambda ax: plots.curve([0, 1], [1, 0], ax),
        lambda ax: plots.marker(0.5, 0.5, ax),
    ],
    ids=["heatmap", "bars", "arrows", "curve", "marker"],
)
def test_figure_made_only_when_ax_is_none(draw, count_figures):
    fig, ax = Figure(), None
    ax = fig.add_subplot()
    n = len(count_figures)
    out = draw(ax)
    assert len(count_figures) == n  # given an axes: no new figure
    artist = out.patches[0] if isinstance(out, BarContainer) else out
    assert artist.axes is ax
    out2 = draw(None)
    assert len(count_figures) == n + 1  # no axes: exactly one new figure
    artist2 = out2.patches[0] if isinstance(out2, BarContainer) else out2
    assert artist2.axes is not ax
    assert isinstance(artist2.figure.canvas, FigureCanvasAgg)


# ---------------------------------------------------------------- heatmap
def test_heatmap_returns_artists_and_writes_values():
    m = np.array([[0.2, -0.5, 0.8], [0.3, -0.4, 0.7]])
    _, ax = plots.new_figure()
    art = plots.heatmap(m, ax, row_labels=["cat", "dog"], highlight_row=1)
    np.testing.assert_array_equal(art["image"].get_array(), m)
    assert art["image"].norm.vmin == -0.8
    assert art["image"].norm.vmax == 0.8
    assert [t.get_text() for t in art["texts"]] == ["+0.2", "-0.5", "+0.8", "+0.3", "-0.4", "+0.7"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["0: cat", "1: dog"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["dim 0", "dim 1", "dim 2"]
    box = art["box"]
    assert isinstance(box, Rectangle)
    assert box in ax.patches
    assert box.get_y() == 0.5
    assert box.get_x() == -0.5
    assert box.get_width() == 3
    assert box.get_height() == 1


def test_heatmap_highlight_moves_and_hides():
    _, ax = plots.new_figure()
    box = plots.heatmap(np.eye(4), ax, highlight_row=0)["box"]
    assert box.get_visible()
    assert box.get_y() == -0.5
    for row in (3, 1, 2):
        plots.set_highlight_row(box, row)
        assert box.get_y() == row - 0.5
        assert box.get_visible()
    plots.set_highlight_row(box, None)
    assert not box.get_visible()
    plots.set_highlight_row(box, 0)
    assert box.get_visible()


def test_heatmap_no_highlight_no_annotations_and_zero_matrix():
    art = plots.heatmap(np.zeros((2, 2)), plots.new_figure()[1], annotate=False)
    assert art["texts"] == []
    assert not art["box"].get_visible()
    assert art["image"].norm.vmax == 1.0  # all zeros: a usable colour range, not (0, 0)


# ---------------------------------------------------------------- bars
def test_bars_heights_labels_highlight():
    _, ax = plots.new_figure()
    b = plots.bars([0.2, -0.5, 0.7], ["a", "b", "c"], ax, highlight=2)
    assert isinstance(b, BarContainer)
    assert [p.get_height() for p in b.patches] == [0.2, -0.5, 0.7]
    assert [p.get_facecolor() for p in b.patches] == [to_rgba(plots.BLUE)] * 2 + [to_rgba(plots.ORANGE)]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert [a.get_text() for a in b.annotations] == ["0.20", "-0.50", "0.70"]
    # the labels sit above positive bars and at 0 under negative ones, centred on each bar
    assert [a.xy[1] for a in b.annotations] == [0.2, 0.0, 0.7]
    for note, rect in zip(b.annotations, b.patches, strict=True):
        assert note.xy[0] == pytest.approx(rect.get_x() + rect.get_width() / 2)


def test_update_bars_changes_heights_labels_and_highlight():
    _, ax = plots.new_figure()
    b = plots.bars([1.0, 2.0, 3.0], ["a", "b", "c"], ax, highlight=0, color=plots.GREEN, highlight_color=plots.PURPLE)
    plots.update_bars(b, [-1.0, 0.25, 0.5], highlight=1)
    assert [p.get_height() for p in b.patches] == [-1.0, 0.25, 0.5]
    assert [p.get_facecolor() for p in b.patches] == [
        to_rgba(plots.GREEN),
        to_rgba(plots.PURPLE),
        to_rgba(plots.GREEN),
    ]
    assert [a.get_text() for a in b.annotations] == ["-1.00", "0.25", "0.50"]
    plots.update_bars(b, [1.0, 1.0, 1.0])  # no highlight
    assert all(p.get_facecolor() == to_rgba(plots.GREEN) for p in b.patches)


def test_update_bars_highlights_several_bars():
    b = plots.bars([1.0, 2.0, 3.0], ["a", "b", "c"])
    plots.update_bars(b, [1.0, 1.0, 0.5], highlight=[0, 1])
    colours = [to_rgba(r.get_facecolor()) for r in b.patches]
    assert colours[0] == colours[1] == to_rgba(b.highlight_color) != colours[2]
    with pytest.raises(ValueError, match="highlight"):
        plots.update_bars(b, [1.0, 1.0, 0.5], highlight=[0, 3])


def test_update_bars_wrong_length_raises():
    b = plots.bars([1.0, 2.0], ["a", "b"], plots.new_figure()[1])
    with pytest.raises(ValueError):
        plots.update_bars(b, [1.0, 2.0, 3.0])


def test_bars_offset_width_and_no_annotations():
    _, ax = plots.new_figure()
    b = plots.bars([1.0, 2.0], ["x", "y"], ax, offset=0.3, width=0.25, annotate=False, label="series")
    assert b.annotations == []
    centres = [p.get_x() + p.get_width() / 2 for p in b.patches]
    assert centres == pytest.approx([0.3, 1.3])
    assert [p.get_width() for p in b.patches] == pytest.approx([0.25, 0.25])
    assert b.get_label() == "series"


class _Recorder:
    """A renderer that only notes the text it is asked to draw (the real renderer does the rest)."""

    def __init__(self, renderer):
        self.renderer, self.calls = renderer, []

    def __getattr__(self, name):
        return getattr(self.renderer, name)

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        g = self.renderer.new_gc()
        g.copy_properties(gc)
        self.calls.append((g, x, y, s, prop.copy(), angle, ismath))


def _labels_drawn_by_matplotlib(fig, notes):
    """The figure with each label's text drawn by Agg's own draw_text at the whole pixel nearest its place."""
    renderer = fig.canvas.get_renderer()
    recorder = _Recorder(renderer)
    for note in notes:
        Annotation.draw(note, recorder)  # the plain Annotation's own layout: where and how it would draw
        note.set_visible(False)
    fig.canvas.draw()
    for gc, x, y, s, prop, angle, ismath in recorder.calls:
        renderer.draw_text(gc, round(x), round(y), s, prop, angle, ismath=ismath)
    for note in notes:
        note.set_visible(True)
    return np.asarray(fig.canvas.buffer_rgba()).astype(int), recorder.calls


@pytest.mark.parametrize("values", [[0.25, -1.5, 2.0, 0.0], [1e-3, 0.999, -0.004, 12.5]])
def test_value_labels_are_the_pixels_agg_draws(values):
    """Bar labels drawn from kept pixels are the pixels Agg's own text drawing gives at that whole pixel."""
    fig, ax = plots.new_figure((4.0, 2.5))
    b = plots.bars(values, list("abcd"), ax, highlight=1)
    fig.canvas.draw()
    fig.set_layout_engine("none")
    for _ in range(2):  # drawn fresh, then from the kept pixels
        fig.canvas.draw()
        got = np.asarray(fig.canvas.buffer_rgba()).astype(int)
    want, calls = _labels_drawn_by_matplotlib(fig, b.annotations)
    assert [c[3] for c in calls] == [note.get_text() for note in b.annotations]  # every label was drawn
    assert np.abs(got - want).max() <= 2  # blending rounds once more
    inked = np.abs(want - _blank(fig, b.annotations)).max(axis=-1) > 0
    assert inked.sum() > 50 * len(values)  # the labels put ink on the canvas


def _blank(fig, notes):
    for note in notes:
        note.set_visible(False)
    fig.canvas.draw()
    out = np.asarray(fig.canvas.buffer_rgba()).astype(int)
    for note in notes:
        note.set_visible(True)
    return out


def test_value_labels_kept_per_string_colour_and_size():
    """The same string in another colour or size is drawn anew, not copied from the first."""
    fig, ax = plots.new_figure((4.0, 2.5))
    b = plots.bars([0.5, 0.5], ["a", "b"], ax)
    fig.canvas.draw()
    fig.set_layout_engine("none")
    b.annotations[1].set_color("red")
    b.annotations[1].set_fontsize(14)
    fig.canvas.draw()
    got = np.asarray(fig.canvas.buffer_rgba()).astype(int)
    want, _ = _labels_drawn_by_matplotlib(fig, b.annotations)
    assert np.abs(got - want).max() <= 2
    red = (got[..., 0] > 200) & (got[..., 1] < 80) & (got[..., 2] < 80)
    assert red.sum() > 20


# ---------------------------------------------------------------- arrows
def test_arrows_true_length_on_equal_aspect():
    _, ax = plots.new_figure()
    q = plots.arrows([[0.6, 0.8], [-1.0, 0.0]], ax, labels=["e", "h"], limit=1.25)
    assert isinstance(q, Quiver)
    assert q.angles == "xy"
    assert q.scale_units == "xy"
    assert q.scale == 1
    assert ax.get_aspect() == 1.0
    assert ax.get_xlim() == (-1.25, 1.25)
    assert ax.get_ylim() == (-1.25, 1.25)
    np.testing.assert_array_equal(q.U, [0.6, -1.0])
    np.testing.assert_array_equal(q.V, [0.8, 0.0])
    np.testing.assert_array_equal(q.X, [0.0, 0.0])
    np.testing.assert_array_equal(q.Y, [0.0, 0.0])
    assert [t.get_text() for t in q.labels] == ["e", "h"]
    assert [tuple(t.xy) for t in q.labels] == [(0.6, 0.8), (-1.0, 0.0)]


def test_arrows_default_limit_fits_the_longest():
    _, ax = plots.new_figure()
    plots.arrows([[2.0, -4.0]], ax)
    assert ax.get_xlim() == pytest.approx((-4.6, 4.6))


def test_arrow_drawn_length_is_data_length():
    """Drawn: the tip of a unit arrow along x lands one data unit from the origin (display coords)."""
    fig, ax = plots.new_figure((4.0, 4.0))
    q = plots.arrows([[1.0, 0.0]], ax, limit=2.0)
    fig.canvas.draw()
    path = q.get_paths()[0]
    # arrow vertices are display offsets from the arrow's base, which sits at the data origin
    verts = q.get_transform().transform(path.vertices)
    origin = ax.transData.transform((0.0, 0.0))
    tip_data = ax.transData.inverted().transform((origin[0] + verts[:, 0].max(), origin[1]))
    assert tip_data[0] == pytest.approx(1.0, abs=0.02)


def test_update_arrows_moves_tips_and_labels():
    _, ax = plots.new_figure()
    q = plots.arrows([[1.0, 0.0], [0.0, 1.0]], ax, labels=["a", "b"])
    plots.update_arrows(q, [[-0.5, 0.5], [0.3, -0.2]])
    np.testing.assert_array_equal(q.U, [-0.5, 0.3])
    np.testing.assert_array_equal(q.V, [0.5, -0.2])
    assert [tuple(t.xy) for t in q.labels] == [(-0.5, 0.5), (0.3, -0.2)]


# ---------------------------------------------------------------- curve and marker
def test_curve_returns_line_with_data():
    _, ax = plots.new_figure()
    line = plots.curve([1, 2, 3], [4, 5, 6], ax, label="y", color=plots.GREEN, linestyle="--")
    assert isinstance(line, Line2D)
    assert line in ax.lines
    np.testing.assert_array_equal(line.get_xdata(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(line.get_ydata(), [4.0, 5.0, 6.0])
    assert line.get_label() == "y"
    assert line.get_linestyle() == "--"
    assert to_rgba(line.get_color()) == to_rgba(plots.GREEN)


def test_marker_single_point_moves():
    _, ax = plots.new_figure()
    point = plots.marker(0.5, 0.25, ax, color=plots.VERMILLION, label="p")
    assert isinstance(point, Line2D)
    assert point.get_marker() == "o"
    assert point.get_linestyle() == "None"
    assert list(point.get_xdata()) == [0.5]
    assert list(point.get_ydata()) == [0.25]
    assert to_rgba(point.get_color()) == to_rgba(plots.VERMILLION)
    point.set_data([2.0], [3.0])
    assert list(point.get_xdata()) == [2.0]


def test_palette_is_okabe_ito():
    assert (plots.BLUE, plots.ORANGE, plots.GREEN, plots.VERMILLION) == ("#0072B2", "#E69F00", "#009E73", "#D55E00")


def test_labels_of_tips_close_together_get_lines_of_their_own():
    q = plots.arrows([[1.0, 0.0], [1.0, 0.01], [1.0, 0.005]], labels=["a", "b", "c"], limit=1.25)
    offsets = [t.xyann[1] for t in q.labels]
    assert len(set(offsets)) == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plots.arrows([[1e15, 0.0], [-1e15, 0.0]], labels=["a", "b"], limit=1.0)  # no overflow warning
    with pytest.raises(ValueError, match="vectors must be at most 1e\\+15 in size to be drawn"):
        plots.arrows([[1e308, 0.0], [-1e308, 0.0]], labels=["a", "b"], limit=1.0)


def test_heatmap_writes_dark_cells_in_white():
    m = np.array([[0.9, -0.1], [0.2, -0.8]])
    art = plots.heatmap(m)
    inks = [to_rgba(t.get_color()) for t in art["texts"]]
    assert inks[0] == inks[3] == to_rgba("white") != inks[1] == inks[2]


def test_value_label_pixels_kept_within_their_budget(monkeypatch):
    """The kept label pixels never pass their byte budget: past it, they are dropped and drawn anew."""
    monkeypatch.setattr(plots._TextImages, "MAX_BYTES", 20_000)
    monkeypatch.setattr(plots._TextImages, "images", {})
    monkeypatch.setattr(plots._TextImages, "kept_bytes", 0)
    fig, ax = plots.new_figure((4.0, 2.5))
    b = plots.bars([0.5, 0.25], ["a", "b"], ax)
    fig.canvas.draw()
    fig.set_layout_engine("none")
    seen = []
    for k in range(60):
        plots.update_bars(b, [k / 100, 0.25])
        fig.canvas.draw()
        kept = plots._TextImages.images.values()
        held = sum(plots._TextImages.ENTRY_BYTES + (0 if p is None else p.nbytes) for p, _, _ in kept)
        assert plots._TextImages.kept_bytes == held <= 20_000
        seen.append(len(plots._TextImages.images))
    assert max(seen) > 2 and min(seen[5:]) < max(seen)  # kept, then dropped when full
    got = np.asarray(fig.canvas.buffer_rgba()).astype(int)
    want, _ = _labels_drawn_by_matplotlib(fig, b.annotations)
    assert np.abs(got - want).max() <= 2
