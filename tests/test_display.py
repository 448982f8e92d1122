"""Figures a reader can read: every explorer and every static figure is sharp (2x pixels), fills the
column, and sets no text below 12 CSS px where a desktop reader sees it (embedlab.display)."""

from __future__ import annotations

import base64
import inspect
import io
import re

import numpy as np
import pytest
from PIL import Image

from embedlab import display, explorers, plots
from embedlab.widgets import BandedPNG

EXPLORERS = sorted(
    name
    for name, f in inspect.getmembers(explorers, inspect.isfunction)
    if name.endswith("_explorer") and f.__module__ == explorers.__name__
)


def pixels(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def small_texts(fig, shown_width: float) -> list[tuple[str, float]]:
    return [(t, round(px, 1)) for t, px in display.text_sizes_css(fig, shown_width) if px < display.MIN_TEXT_CSS_PX]


def test_every_explorer_is_listed():
    assert len(EXPLORERS) == 10, EXPLORERS  # one per worked example, and G's two on memory and scale


@pytest.fixture(scope="module", params=EXPLORERS)
def made(request):
    ex = getattr(explorers, request.param)()
    return request.param, ex, ex.to_html()


def test_explorer_text_is_readable_where_it_is_shown(made):
    """At full size and in the narrowest desktop column, no text of the figure is under 12 CSS px."""
    name, ex, _ = made
    ex.fig.canvas.draw()  # lays the ticks out
    assert display.text_sizes_css(ex.fig), f"{name}: no text found"
    for shown in (ex.css_size[0], display.NARROWEST_COLUMN):
        assert not small_texts(ex.fig, shown), f"{name} shown {shown} CSS px wide: {small_texts(ex.fig, shown)}"


def test_explorer_is_rendered_at_twice_its_css_size(made):
    name, ex, page = made
    css_w, css_h = ex.css_size
    assert css_w == display.CSS_WIDTH
    assert ex.fig.canvas.get_width_height() == (2 * css_w, 2 * css_h)
    # the book: the figure is declared at its CSS width; background and every frame hold twice its pixels
    assert re.findall(r'class="embedlab-figure" style="max-width:(\d+)px;', page) == [str(css_w)]
    background = re.search(r"background-image:url\(data:image/webp;base64,([^)]+)\)", page)
    assert background, f"{name}: no background"
    assert pixels(base64.b64decode(background.group(1))).size == (2 * css_w, 2 * css_h)
    frames = re.findall(r'<img src="data:image/webp;base64,([^"]+)" alt="[^"]*" width="(\d+)" height="(\d+)"', page)
    assert frames, f"{name}: no frames"
    for data, w, h in frames[:: max(1, len(frames) // 7)] + frames[-1:]:
        assert (int(w), int(h)) == (css_w, css_h)
        assert pixels(base64.b64decode(data)).size == (2 * css_w, 2 * css_h)


def test_explorer_live_image_is_given_its_css_size(made):
    pytest.importorskip("ipywidgets")
    _, ex, _ = made
    # one view: the background and the frames (every one, or those fetched), at the figure's CSS width
    view = ex.widget().children[-1]
    assert view.fetched is not ex.framed
    assert view.css_width == ex.css_size[0], "the live image must not be stretched to the cell"
    assert "max-width:100%" in view._esm and "width:100%;height:auto" in view._esm
    for image in (view.background, view.frames[0], view.frames[-1]):
        assert pixels(image).size[0] == 2 * ex.css_size[0]


def test_frame_over_background_is_the_figure(made):
    """A static frame laid over the background is the live figure at that combination (up to rounding)."""
    name, ex, page = made
    src = re.findall(r'<img src="data:image/webp;base64,([^"]+)"', page)
    background = pixels(ex.background()).convert("RGBA")
    oracle = getattr(explorers, name)()
    last = [c.static_values[-1] for c in oracle.controls]
    oracle.update(**{c.name: v for c, v in zip(oracle.controls, last, strict=True)})
    shown = Image.alpha_composite(background, pixels(base64.b64decode(src[-1])).convert("RGBA"))
    want = np.asarray(pixels(oracle.png()).convert("RGBA"), dtype=int)
    diff = np.abs(np.asarray(shown, dtype=int) - want)
    assert diff.max() <= 3, f"{name}: the last frame differs from the figure by up to {diff.max()} levels"


# ---------------------------------------------------------------- the live view's PNG encoder
@pytest.mark.parametrize("name", ["lookup_explorer", "logits_explorer", "alignment_explorer"])
def test_live_png_is_exactly_the_canvas(name):
    """The banded encoder's PNG decodes to the canvas, pixel for pixel, after every move."""
    ex = getattr(explorers, name)()
    for c in ex.controls:
        for v in (c.values[0], c.values[-1], c.value):
            ex.update(**{c.name: v})
            got = np.asarray(pixels(ex.live_png()).convert("RGBA"))
            np.testing.assert_array_equal(got, np.asarray(ex.fig.canvas.buffer_rgba()))


def test_banded_png_round_trips_random_changes():
    rng = np.random.default_rng(0)
    background = np.full((37, 23, 4), 255, np.uint8)
    encoder = BandedPNG(background, band=5)
    for _ in range(5):
        img = background.copy()
        rows = rng.choice(37, size=4, replace=False)
        img[rows] = rng.integers(0, 256, size=(4, 23, 4), dtype=np.uint8)
        np.testing.assert_array_equal(np.asarray(pixels(encoder.encode(img))), img)
    np.testing.assert_array_equal(np.asarray(pixels(encoder.encode(background))), background)


# ---------------------------------------------------------------- static figures (notebook_setup)
def notebook_figures():
    """Figures drawn the way the notebooks draw them (D's arrows, E's two scatters), and a pyplot one."""
    import matplotlib.pyplot as plt

    fig_d, ax = plots.new_figure((4.4, 4.4))
    plots.arrows([[-0.9, 0.2], [-1, 0], [1, 0]], ax, labels=["e_2 (the)", "h_A", "h_B"], limit=1.25)
    ax.set_xlabel("first axis")
    ax.set_ylabel("rest of e_2's direction")
    ax.set_title("h_A aligns with e_2, h_B opposes it")
    fig_e, axes = plots.new_figure((6.4, 3.0), ncols=2)
    for a in axes:
        a.plot([0, 1], [1, 0], "o")
        a.set_xlabel("z_cat")
        a.set_ylabel("z_dog")
        a.set_title("real rows")
        a.set_aspect("equal")
    with plots.style():
        fig_p, ax_p = plt.subplots(figsize=(8, 3))
        ax_p.plot([0, 1], [0, 1], label="a line")
        ax_p.legend()
        ax_p.set_title("a pyplot figure, wider than the column")
    plt.close(fig_p)
    return {"arrows": fig_d, "two scatters": fig_e, "pyplot": fig_p}


@pytest.mark.parametrize("which", ["arrows", "two scatters", "pyplot"])
def test_static_figure_is_sharp_column_wide_and_readable(which):
    fig = notebook_figures()[which]
    size_before = tuple(fig.get_size_inches())
    data, metadata = display.figure_png(fig)
    assert metadata == {"width": display.CSS_WIDTH}
    assert pixels(data).size[0] == 2 * metadata["width"]
    assert tuple(fig.get_size_inches()) == size_before, "showing a figure must not resize it"
    display.fit(fig)
    fig.canvas.draw()
    for shown in (metadata["width"], display.NARROWEST_COLUMN):
        assert not small_texts(fig, shown), f"{which} shown {shown} CSS px wide: {small_texts(fig, shown)}"


def test_the_text_check_can_fail():
    fig, ax = plots.new_figure()
    display.fit(fig)
    ax.text(0.5, 0.5, "tiny", fontsize=7)
    fig.canvas.draw()
    assert [t for t, _ in small_texts(fig, display.NARROWEST_COLUMN)] == ["tiny"]


def test_notebook_setup_makes_inline_figures_sharp():
    """In IPython, after notebook_setup, a figure displays as a 2x PNG declared at its CSS width."""
    pytest.importorskip("IPython")
    import matplotlib as mpl
    from IPython.core.interactiveshell import InteractiveShell

    from embedlab import notebook_setup

    shell = InteractiveShell.instance()
    try:
        with mpl.rc_context():
            notebook_setup()
            assert mpl.rcParams["axes.titleweight"] == "bold", "the package style is on"
            fig = notebook_figures()["arrows"]
            data, metadata = shell.display_formatter.format(fig)
        png = data["image/png"]
        png = base64.b64decode(png) if isinstance(png, str) else png
        assert metadata["image/png"] == {"width": display.CSS_WIDTH}
        assert pixels(png).size[0] == 2 * display.CSS_WIDTH
    finally:
        InteractiveShell.clear_instance()


def chapter_figures():
    """Every static figure the chapter's notebooks draw, made the way the notebooks make them."""
    from embedlab import E_TOY, figures

    rng = np.random.default_rng(0)
    z = rng.normal(size=(50, 4))
    made = {
        "projection_panels": figures.projection_panels([0.5, 0.2, -0.3], E_TOY)[0],
        "alignment_arrows": figures.alignment_arrows(E_TOY[2], {"h_A": [-1.0, 0, 0]})[0],
        "saturation_curves": figures.saturation_curves()[0],
        "gradient_sizes": figures.gradient_sizes()[0],
        "output_path_panels": figures.output_path_panels(
            np.outer([0.1, 0.2, -0.3, 0.0], [1.0, 1.0, -2.0]), np.eye(4, 3), [1.0, 1.0, -2.0]
        )[0],
        "tie_scatter": figures.tie_scatter(z, z)[0],
        "embedding_shares": figures.embedding_shares()[0],
    }
    return made


@pytest.mark.parametrize("which", sorted(chapter_figures()))
def test_chapter_figures_are_readable_where_shown(which):
    fig = chapter_figures()[which]
    data, metadata = display.figure_png(fig)
    assert pixels(data).size[0] == 2 * metadata["width"]
    display.fit(fig)
    fig.canvas.draw()
    for shown in (metadata["width"], display.NARROWEST_COLUMN):
        assert not small_texts(fig, shown), f"{which} shown {shown} CSS px wide: {small_texts(fig, shown)}"


def test_training_explorer_is_readable_and_sharp():
    from embedlab import compare
    from embedlab.train_plots import training_explorer

    ex = training_explorer(compare(seeds=(0, 1), d=8, steps=30, n_checkpoints=4))
    ex.fig.canvas.draw()
    assert not small_texts(ex.fig, display.NARROWEST_COLUMN), small_texts(ex.fig, display.NARROWEST_COLUMN)
    assert pixels(ex.live_png()).size[0] == 2 * ex.css_size[0]


def notebook_i_figures():
    """Notebook I's static figures, at the sizes the notebook draws them."""
    from embedlab import compare
    from embedlab import train_plots as tp
    from embedlab.sweep import load_results

    res = compare(seeds=(0, 1), d=8, steps=30, n_checkpoints=4)
    made = {}
    fig, axes = plots.new_figure((6.4, 7.2), ncols=1, nrows=2)
    tp.loss_curves(res, axes[0], zoom=None)
    tp.loss_curves(res, axes[1], which="train", zoom=None, legend=False)
    made["loss_curves"] = fig
    fig, axes = plots.new_figure((6.4, 6.4), ncols=2, nrows=2)
    tp.gap_plot(load_results(), axes)
    made["gap_plot"] = fig
    fig, ax = plots.new_figure((6.4, 3.6))
    tp.geometry_summary(res, ax)
    made["geometry_summary"] = fig
    fig, _ = plots.new_figure((6.4, 4.0), ncols=3)
    tp.geometry_panels(res, 0, fig)
    made["geometry_panels"] = fig
    return made


@pytest.mark.parametrize("which", ["loss_curves", "gap_plot", "geometry_summary", "geometry_panels"])
def test_notebook_i_figures_are_readable_where_shown(which):
    fig = notebook_i_figures()[which]
    display.fit(fig)
    fig.canvas.draw()
    for shown in (display.CSS_WIDTH, display.NARROWEST_COLUMN):
        assert not small_texts(fig, shown), f"{which} shown {shown} CSS px wide: {small_texts(fig, shown)}"


def test_sweep_explorer_is_readable_and_sharp():
    from embedlab.sweep import load_results
    from embedlab.train_plots import sweep_explorer

    ex = sweep_explorer(load_results())
    ex.fig.canvas.draw()
    assert not small_texts(ex.fig, display.NARROWEST_COLUMN), small_texts(ex.fig, display.NARROWEST_COLUMN)
    assert pixels(ex.live_png()).size[0] == 2 * ex.css_size[0]
