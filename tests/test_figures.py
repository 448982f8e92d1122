"""The chapter's static figures read back: what each drew (arrow ends, line data) against the maths.

Every oracle here is computed independently of embedlab.figures: with plain NumPy or math,
from the vectors' own coordinates. A figure that draws the wrong vectors fails.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from embedlab import E_TOY, TOKENS, figures, plots

H_C = np.array([0.5, 0.2, -0.3])


def quiver_ends(q) -> np.ndarray:
    """(n, 2) tips of the arrows a Quiver drew (every arrow starts at the origin here)."""
    assert np.allclose(q.X, 0) and np.allclose(q.Y, 0)
    return np.column_stack([q.U, q.V])


def check_plane_drawing(points2d: np.ndarray, vectors: np.ndarray) -> None:
    """Drawn 2-D points keep every length and every pairwise angle of the d-dimensional vectors."""
    for i, (p, v) in enumerate(zip(points2d, vectors, strict=True)):
        assert math.hypot(*p) == pytest.approx(float(np.sqrt(np.sum(v * v))), abs=1e-12), f"length of arrow {i}"
    for i in range(len(vectors)):
        for j in range(i + 1, len(vectors)):
            assert points2d[i] @ points2d[j] == pytest.approx(float(np.sum(vectors[i] * vectors[j])), abs=1e-12)


@pytest.mark.parametrize("h", [H_C, E_TOY[1], np.array([-1.0, 0.0, 0.0]), np.array([0.0, 0.0, 2.0])])
def test_projection_panels_draw_each_row_h_and_the_shadow(h):
    _fig, art = figures.projection_panels(h, E_TOY)
    assert len(art["arrows"]) == len(TOKENS)
    for j, (q, proj, drop, title) in enumerate(
        zip(art["arrows"], art["projections"], art["drops"], art["titles"], strict=True)
    ):
        e = E_TOY[j]
        ends = quiver_ends(q)
        check_plane_drawing(ends, np.array([e, h]))
        norm_e = math.sqrt(sum(x * x for x in e))
        assert ends[0] == pytest.approx([norm_e, 0.0], abs=1e-12), "the row lies along the panel's first axis"
        dot = sum(a * b for a, b in zip(h, e, strict=True))
        shadow = dot / norm_e
        xs, ys = proj.get_data()
        assert list(xs) == pytest.approx([0.0, shadow], abs=1e-12)
        assert ys[0] == ys[1] < 0, "the shadow is drawn just under the row's line"
        dx, dy = drop.get_data()
        assert (dx[0], dy[0]) == pytest.approx(tuple(ends[1]), abs=1e-12) and dx[1] == pytest.approx(shadow)
        # the title multiplies the shadow by the row's length and gives the logit
        text = title.get_text()
        assert f"{shadow:+.2f} x {norm_e:.2f}" in text and text.endswith(f"= {dot:+.2f}")
        assert shadow * norm_e == pytest.approx(dot, abs=1e-12)


@pytest.mark.parametrize("h", [H_C, E_TOY[1], E_TOY[0]])
def test_projection_panels_labels_never_overprint(h):
    """With h equal to a row, the tips meet; the two labels must still not overlap on the canvas."""
    fig, art = figures.projection_panels(h, E_TOY)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for q in art["arrows"]:
        row_label, h_label = (t.get_window_extent(renderer) for t in q.labels)
        assert not row_label.overlaps(h_label), (row_label, h_label)


def test_projection_panels_counterexample_longer_row_wins():
    """With h = dog's row, dog's shadow is the longest, yet cat's logit is the largest."""
    _fig, art = figures.projection_panels(E_TOY[1], E_TOY)
    shadows = [p.get_data()[0][1] for p in art["projections"]]
    logits = [float(t.get_text().split("= ")[-1]) for t in art["titles"]]
    assert int(np.argmax(shadows)) == 1 and int(np.argmax(logits)) == 0


def test_alignment_arrows_draw_true_vectors_and_refuse_off_plane():
    e2 = E_TOY[2]
    contexts = {"h_A": [-1.0, 0, 0], "h_B": [1.0, 0, 0], "h_C": [0.25, 0.45, 0.9]}
    _fig, art = figures.alignment_arrows(e2, contexts)
    ends = quiver_ends(art["arrows"])
    vectors = np.array([e2, *contexts.values()])
    check_plane_drawing(ends, vectors)
    # the angles drawn are the true 3-D angles: h_A about 14 degrees from e_2, h_C at 90
    cos_a = float(vectors[0] @ vectors[1]) / (np.linalg.norm(vectors[0]) * np.linalg.norm(vectors[1]))
    drawn_a = float(ends[0] @ ends[1]) / (np.linalg.norm(ends[0]) * np.linalg.norm(ends[1]))
    assert drawn_a == pytest.approx(cos_a, abs=1e-12) and math.degrees(math.acos(cos_a)) < 20
    assert abs(ends[0] @ ends[3]) < 1e-12
    with pytest.raises(ValueError, match=r"contexts\['h_off'\] does not lie in the plane"):
        figures.alignment_arrows(e2, {"h_off": [0.0, 0.0, 1.0]})


def test_the_old_d_bug_is_refused():
    """Passing (2, 3) coordinates (the bug that drew e_2 1.35 long) is an error, not a scrambled figure."""
    basis = figures.drawing_plane([1.0, 0, 0], E_TOY[2])
    with pytest.raises(ValueError, match=r"vectors must have shape \(2,\) or \(n, 2\).*got shape \(2, 3\)"):
        plots.arrows(basis @ np.array([E_TOY[2], [-1.0, 0, 0], [1.0, 0, 0]]).T)


def test_saturation_curves_cross_one_half_at_ln_n():
    ns = (3, 100, 50256)
    _fig, art = figures.saturation_curves(ns)
    for n, line, half in zip(ns, art["lines"], art["halves"], strict=True):
        t, y = line.get_data()
        expected = [math.exp(x) / (math.exp(x) + n) for x in t]
        assert list(y) == pytest.approx(expected, rel=1e-12, abs=1e-15)
        (x0,), (y0,) = half.get_data()
        assert x0 == pytest.approx(math.log(n), abs=1e-12) and y0 == 0.5
        i = int(np.argmin(np.abs(np.asarray(y) - 0.5)))
        assert abs(t[i] - math.log(n)) <= (t[1] - t[0]), "the drawn curve itself crosses 1/2 at ln n"


@pytest.mark.parametrize("ns", [range(1, 4), np.array([1, 2, 3]), [1, 2, 3]], ids=["range", "array", "list"])
def test_saturation_curves_take_a_range_or_an_array_of_counts(ns):
    _fig, art = figures.saturation_curves(ns)
    assert [line.get_label() for line in art["lines"]] == ["n = 1 other", "n = 2 others", "n = 3 others"]
    assert [half.get_data()[0][0] for half in art["halves"]] == pytest.approx([0.0, math.log(2), math.log(3)])


@pytest.mark.parametrize(
    ("ns", "error", "message"),
    [
        (range(10**20), ValueError, "ns must hold 1 to 6 counts (one colour each), got 100,000,000,000,000,000,000"),
        (range(5, 1), ValueError, "got 0"),
        (np.arange(7) + 1, ValueError, "got 7"),
        (np.array([[3]]), TypeError, "ns must be a list, tuple, range or 1-D array of token counts"),
        (np.array([3, -1]), ValueError, "ns must be a positive integer, got -1"),
    ],
)
def test_saturation_curves_refuse_a_range_or_array_they_cannot_draw(ns, error, message):
    with pytest.raises(error, match=re.escape(message)):
        figures.saturation_curves(ns)


def test_gradient_sizes_slope_vanishes_loss_gradient_does_not():
    _fig, art = figures.gradient_sizes(3)
    t, slope = art["slope"].get_data()
    p0 = np.array([math.exp(x) / (math.exp(x) + 3) for x in t])
    assert list(slope) == pytest.approx(list(p0 * (1 - p0)), abs=1e-15)
    assert list(art["target_0"].get_data()[1]) == pytest.approx(list(p0 - 1), abs=1e-15)
    assert list(art["target_other"].get_data()[1]) == pytest.approx(list(p0), abs=1e-15)
    assert slope[-1] < 1e-3 and art["target_other"].get_data()[1][-1] > 0.99


def test_output_path_panels_one_prediction_on_the_axis_a_batch_off_it():
    """Arrow ends read back: each is the row's component along h and along the second direction."""
    h = np.array([1.0, 1.0, -2.0])
    coeff = np.array([0.15, 0.05, 0.10, -0.30])
    g_one = np.outer(coeff, h)  # one prediction: (p - y)_j h
    rng = np.random.default_rng(5)
    contexts, weights = rng.normal(size=(16, 3)), rng.normal(size=(16, 4))
    g_batch = weights.T @ contexts  # a sum of 16 rank-one terms
    fig, art = figures.output_path_panels(g_one, g_batch, h, batch_label="16 positions")
    u1, u2 = art["plane"]
    assert u1 == pytest.approx(h / np.linalg.norm(h), abs=1e-12) and abs(u1 @ u2) < 1e-12
    assert np.linalg.norm(u2) == pytest.approx(1.0, abs=1e-12)
    assert art["ranks"] == [1, 3] == [np.linalg.matrix_rank(g_one), np.linalg.matrix_rank(g_batch)]
    for q, g in zip(art["arrows"], (g_one, g_batch), strict=True):
        ends = quiver_ends(q)
        for tip, j in zip(ends, q.rows, strict=True):
            assert tip == pytest.approx([g[j] @ u1, g[j] @ u2], abs=1e-12)
        assert sorted(q.rows) == list(range(4))
    one = quiver_ends(art["arrows"][0])
    assert np.abs(one[:, 1]).max() < 1e-12, "one prediction: every row on h's axis"
    batch = quiver_ends(art["arrows"][1])
    assert np.abs(batch[:, 1]).max() > 0.1 * np.abs(batch).max(), "a batch: rows leave the axis"
    assert [ax.get_title() for ax in fig.axes[:2]] == ["one prediction: rank 1", "16 positions: rank 3"]


def test_output_path_panels_would_show_a_matrix_that_is_not_rank_one():
    """The view could show the difference: a rank-two 'single' matrix leaves the axis in panel one."""
    h = np.array([1.0, 0.0, 0.0])
    g = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 0.0]])
    _fig, art = figures.output_path_panels(g, g, h)
    assert np.abs(quiver_ends(art["arrows"][0])[:, 1]).max() > 0.5


def test_alignment_arrows_labels_never_overprint():
    """D's figure: h_A ends close to e_2; the labels must still not overlap on the canvas."""
    fig, art = figures.alignment_arrows(E_TOY[2], {"h_A": [-1.0, 0, 0], "h_B": [1.0, 0, 0], "h_C": [0.25, 0.45, 0.9]})
    fig.canvas.draw()
    boxes = [t.get_window_extent(fig.canvas.get_renderer()) for t in art["arrows"].labels]
    assert not any(boxes[i].overlaps(boxes[j]) for i in range(len(boxes)) for j in range(i))


def test_gradient_sizes_legend_covers_no_curve():
    """F, Step 5: the legend sits where no curve passes (read back in display coordinates)."""
    fig, art = figures.gradient_sizes(3)
    fig.canvas.draw()
    box = fig.axes[0].get_legend().get_window_extent(fig.canvas.get_renderer())
    for line in (art["slope"], art["target_0"], art["target_other"]):
        xy = line.get_transform().transform(np.column_stack(line.get_data()))
        inside = (xy[:, 0] >= box.x0) & (xy[:, 0] <= box.x1) & (xy[:, 1] >= box.y0) & (xy[:, 1] <= box.y1)
        assert not inside.any(), f"{line.get_label()} runs under the legend"


def test_tie_scatter_points_are_the_logits():
    rng = np.random.default_rng(0)
    z_real, z_dup = rng.normal(size=(50, 4)), rng.normal(size=(50, 4))
    z_dup[:, 1] = z_dup[:, 0]
    _fig, art = figures.tie_scatter(z_real, z_dup)
    for pts, z in zip(art["points"], (z_real, z_dup), strict=True):
        x, y = pts.get_data()
        assert list(x) == list(z[:, 0]) and list(y) == list(z[:, 1])
    x, y = art["points"][1].get_data()
    assert np.array_equal(x, y)


def test_tie_scatter_far_pair_panel_comes_first():
    rng = np.random.default_rng(1)
    z_real, z_dup = rng.normal(size=(40, 4)), rng.normal(size=(40, 4))
    fig, art = figures.tie_scatter(z_real, z_dup, far=3)
    assert len(fig.axes) == 3 and art["pairs"] == [(0, 3), (0, 1), (0, 1)]
    for pts, z, (a, b) in zip(art["points"], (z_real, z_real, z_dup), art["pairs"], strict=True):
        x, y = pts.get_data()
        assert list(x) == list(z[:, a]) and list(y) == list(z[:, b])
    assert [ax.get_xlim() for ax in fig.axes] == [fig.axes[0].get_xlim()] * 3  # one scale, comparable panels
    with pytest.raises(ValueError, match="far must be a token index"):
        figures.tie_scatter(z_real, z_dup, far=4)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: plots.arrows([[1.0, 2.0, 3.0]]), r"vectors must have shape \(2,\) or \(n, 2\)"),
        (lambda: plots.arrows([[np.nan, 1.0]]), "vectors must be finite"),
        (lambda: plots.arrows([[1.0, 0], [0, 1], [1, 1]], colors=["red"]), "one colour per arrow"),
        (lambda: plots.bars([1.0, 2.0], ["a", "b", "c"]), r"labels must have one entry per value \(2\)"),
        (lambda: plots.heatmap([1.0, 2.0]), "2-D"),
        (lambda: plots.heatmap([[1.0, 2.0]], row_labels=["a", "b"]), r"row_labels must have one entry per value \(1\)"),
        (lambda: plots.curve([1.0, 2.0], [1.0]), "same length"),
        (lambda: figures.projection_panels([1.0, 2.0], E_TOY), "width d = 3"),
        (lambda: figures.projection_panels([1.0, 2.0, 3.0], E_TOY, ["a"]), "labels must hold one str per token"),
        (lambda: figures.output_path_panels(np.ones((2, 3)), np.ones((4, 3)), np.ones(3)), "must have the shape"),
        (lambda: figures.output_path_panels(np.ones((4, 3)), np.ones((4, 3)), np.zeros(3)), "zero vector"),
    ],
)
def test_plot_helpers_refuse_malformed_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_update_helpers_refuse_a_different_count():
    q = plots.arrows([[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="vectors must hold 2 vector"):
        plots.update_arrows(q, [[1.0, 0.0]])
    b = plots.bars([1.0, 2.0], ["a", "b"])
    with pytest.raises(ValueError, match=r"values must have one entry per bar \(2\)"):
        plots.update_bars(b, [1.0, 2.0, 3.0])


def test_embedding_shares_bars_are_each_models_share():
    from embedlab import REAL_MODELS, architectures

    _fig, art = figures.embedding_shares()
    names = [r.name for r in art["rows"]]
    assert names == [m["name"] for m in REAL_MODELS]
    for m, emb_bar, head_bar in zip(REAL_MODELS, art["embedding"].patches, art["head"].patches, strict=True):
        total = architectures.total_params(m["name"])
        if m["name"].startswith("BERT"):  # counted as its checkpoint: the encoder and its pre-training heads
            total += architectures.pretraining_head_params(m["name"])
        V, d = m["vocab_size"], m["d_model"]
        head = (0 if m["tied"] else V * d) + (V if m["output_bias"] else 0)  # the head's own parameters
        assert emb_bar.get_width() == pytest.approx(100 * V * d / total, rel=1e-12)
        assert head_bar.get_width() == pytest.approx(100 * head / total, rel=1e-12)
        assert head_bar.get_x() == pytest.approx(emb_bar.get_width())


@pytest.mark.parametrize(
    "make",
    [
        lambda: figures.gradient_sizes(3),
        lambda: figures.embedding_shares(),
        lambda: figures.tie_scatter(np.eye(4), np.eye(4), far=3),
        lambda: figures.projection_panels(E_TOY[1], E_TOY),
        lambda: figures.output_path_panels(
            np.outer([0.1, 0.2, -0.3, 0.0], [1.0, 1.0, -2.0]), np.eye(4, 3), [1.0, 1.0, -2.0]
        ),
    ],
)
def test_no_title_or_legend_is_clipped_at_the_figure_edge(make):
    """Every title and legend lies inside the figure, at the width the notebooks use (figures at 2x)."""
    from embedlab.display import _geometry

    fig, _art = make()
    with _geometry(fig):  # the size and resolution the notebooks show it at
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        frame = fig.bbox
        boxes = [ax.title.get_window_extent(renderer) for ax in fig.axes if ax.get_title()]
        legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes)]
        boxes += [lg.get_window_extent(renderer) for lg in legends if lg]
        for box in boxes:
            assert frame.x0 - 1 <= box.x0 and box.x1 <= frame.x1 + 1, (box, frame)


_WIDE_LONGDOUBLE = np.finfo(np.longdouble).max > np.finfo(np.float64).max


@pytest.mark.skipif(not _WIDE_LONGDOUBLE, reason="longdouble is float64 on this platform: nothing lies beyond it")
@pytest.mark.parametrize("draw", [figures.saturation_curves, figures.gradient_sizes], ids=["saturation", "gradient"])
@pytest.mark.parametrize(
    ("t", "words"),
    [
        (np.array([np.longdouble("1e-4000"), np.longdouble("2e-4000")]), "below float64's range"),
        (np.array([np.longdouble(0), np.longdouble("1e4000")]), "beyond float64's range"),
    ],
    ids=["below", "beyond"],
)
def test_longdouble_t_outside_float64_refused(draw, t, words):
    """A longdouble t that float64 cannot hold is refused by name, not drawn as 0 or refused as infinite."""
    with pytest.raises(ValueError, match=f"^t must be drawable in float64: .*{words}"):
        draw(t=t)
