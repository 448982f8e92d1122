"""Tests for embedlab.widgets: Control (values, snap, static_values, fmt), float_range, png_bytes,
the Explorer core (update, blitting, to_html and its inline handler, _repr_mimebundle_), on a small
hand-made explorer whose every frame is known in advance."""

import base64
import html
import io
import itertools
import math
import re
import threading
from html.parser import HTMLParser

import numpy as np
import pytest
from PIL import Image

from embedlab import plots
from embedlab.widgets import _HANDLER, Control, Explorer, float_range, png_bytes


# ---------------------------------------------------------------- helpers
def decode(png: bytes) -> np.ndarray:
    """A PNG as an (h, w, 3) uint8 array, decoded by PIL (independent of the encoder's settings)."""
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def over(background: bytes, frame: bytes) -> np.ndarray:
    """A static frame (moving artists on transparent) laid over the background, as an (h, w, 3) int array."""
    bg = Image.open(io.BytesIO(background)).convert("RGBA")
    return np.asarray(
        Image.alpha_composite(bg, Image.open(io.BytesIO(frame)).convert("RGBA")).convert("RGB"), dtype=int
    )


class _Collect(HTMLParser):
    """Every start tag with its attributes, in document order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.readout_text: list[str] = []
        self._in_readout = False

    def handle_starttag(self, tag, attrs):
        d = dict(attrs)
        self.tags.append((tag, d))
        self._in_readout = tag == "p" and "embedlab-readout" in (d.get("class") or "")

    def handle_endtag(self, tag):
        self._in_readout = False

    def handle_data(self, data):
        if self._in_readout:
            self.readout_text.append(data)


def parse(page: str) -> _Collect:
    p = _Collect()
    p.feed(page)
    p.close()
    return p


def mixed_radix(positions, sizes) -> int:
    """The frame index the inline handler computes: k = k * (max + 1) + value over the inputs in order."""
    k = 0
    for pos, size in zip(positions, sizes, strict=True):
        k = k * size + pos
    return k


# A small explorer whose figure and readout are known: a bar at height a, a marker at (b, b).
A_VALUES = (0, 1, 2, 3)
B_VALUES = (-1.0, 0.0, 0.5, 1.0)


def toy_setup(fig, ax):
    b = plots.bars([0.0], ["a"], ax, annotate=False)
    m = plots.marker(0.0, 0.0, ax)
    ax.set_ylim(-1.2, 3.5)
    ax.set_xlim(-1.5, 1.5)

    def update(a, b_):
        plots.update_bars(b, [a])
        m.set_data([b_], [b_])
        return f"a = {a}, b = {b_:+.1f} & <ok>"

    return update, [b, m]


def toy_explorer(a=1, b=0.5, every_b=1) -> Explorer:
    controls = [
        Control("a", "height a", A_VALUES, value=a, fmt="a={}"),
        Control("b_", "point b", B_VALUES, value=b, fmt=lambda v: f"{v:+.1f}", static_every=every_b),
    ]
    return Explorer("Toy <explorer>", controls, toy_setup, figsize=(3.0, 2.0))


@pytest.fixture(scope="module")
def toy_html():
    ex = toy_explorer()
    return ex, ex.to_html()


# ---------------------------------------------------------------- Control: construction
def test_control_default_value_is_first():
    c = Control("x", "x", [3, 1, 2])
    assert c.value == 3
    assert c.values == (3, 1, 2)
    assert isinstance(c.values, tuple)


def test_control_values_from_generator_are_kept():
    c = Control("x", "x", (i * i for i in range(4)), value=4)
    assert c.values == (0, 1, 4, 9)
    assert c.value == 4


def test_control_empty_values_raises_naming_control():
    with pytest.raises(ValueError, match="'speed'"):
        Control("speed", "speed", ())


def test_control_start_value_not_in_values_raises():
    with pytest.raises(ValueError, match=r"'x'.*one of its values"):
        Control("x", "x", (1, 2, 3), value=5)


@pytest.mark.parametrize(("every", "error"), [(0, ValueError), (-1, ValueError), (1.5, TypeError), ("2", TypeError)])
def test_control_bad_static_every_raises(every, error):
    with pytest.raises(error, match="static_every"):
        Control("x", "x", (1, 2, 3), static_every=every)


def test_control_is_frozen():
    c = Control("x", "x", (1, 2))
    with pytest.raises(AttributeError):
        c.value = 2


# ---------------------------------------------------------------- Control: snap
GRID = (-8.0, -4.0, 0.0, 4.0, 8.0)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (-8.0, -8.0),
        (0.0, 0.0),
        (1.9, 0.0),
        (2.1, 4.0),
        (-5.0, -4.0),
        (7, 8.0),
        (100.0, 8.0),
        (-100, -8.0),
        (np.float32(3.5), 4.0),
        (np.int64(-7), -8.0),
    ],
)
def test_snap_numbers_to_nearest(value, expected):
    c = Control("t", "t", GRID, value=4.0)
    got = c.snap(value)
    assert got == expected
    assert got in c.values


def test_snap_nearest_by_brute_force():
    """Against an independent oracle: the list value with the smallest |v - x| (ties excluded)."""
    c = Control("t", "t", float_range(-2.0, 2.0, 0.25), value=0.0)
    rng = np.random.default_rng(0)
    for x in rng.uniform(-5, 5, 200):
        dists = sorted(abs(v - x) for v in c.values)
        if dists[1] - dists[0] < 1e-9:
            continue
        best = min(c.values, key=lambda v: abs(v - x))
        assert c.snap(float(x)) == best


def test_snap_nan_goes_to_start_value():
    c = Control("t", "t", GRID, value=4.0)
    assert c.snap(float("nan")) == 4.0
    assert c.snap(np.nan) == 4.0
    assert Control("t", "t", GRID).snap(math.nan) == -8.0  # default start is the first value


def test_snap_unsorted_values_nearest_not_first():
    c = Control("x", "x", (10, 0, 5), value=0)
    assert c.snap(9) == 10
    assert c.snap(6) == 5
    assert c.snap(-3) == 0


def test_snap_negative_infinity_goes_to_smallest_value():
    c = Control("t", "t", GRID, value=0.0)
    assert c.snap(-math.inf) == -8.0


def test_snap_positive_infinity_goes_to_largest_value():
    """+inf is nearest to the largest value.

    BUG (src/embedlab/widgets.py, Control.snap): |v - inf| is inf for every v, so min() keeps
    the first value: snap(+inf) returns -8.0 on an ascending list.
    """
    c = Control("t", "t", GRID, value=0.0)
    assert c.snap(math.inf) == 8.0


@pytest.mark.parametrize("huge", [1e20, 1e300])
def test_snap_huge_float_goes_to_largest_value(huge):
    """A huge number is nearest to the largest value.

    BUG (Control.snap): |v - 1e20| rounds to 1e20 for every small v, so all distances tie and
    min() returns the first value (-8.0) instead of 8.0.
    """
    c = Control("t", "t", GRID, value=0.0)
    assert c.snap(huge) == 8.0
    assert c.snap(-huge) == -8.0


def test_snap_huge_int_does_not_overflow():
    """A Python int too large for a float is still a number and snaps to the largest value.

    BUG (Control.snap): float(10**400) raises OverflowError.
    """
    c = Control("t", "t", GRID, value=0.0)
    assert c.snap(10**400) == 8.0


def test_snap_returns_an_element_of_values_with_its_type():
    """A control never leaves the list it was built for: 1.0 on an int list snaps to the int 1.

    BUG (Control.snap): ``1.0 in (0, 1, 2, 3)`` is True, so snap returns the float 1.0 itself,
    which then reaches the update function (see test_explorers: lookup_explorer raises TypeError).
    """
    c = Control("i", "i", (0, 1, 2, 3), value=2)
    for x in (1.0, np.float64(2.0)):
        got = c.snap(x)
        assert got == x
        assert type(got) is int


def test_snap_non_numeric_unknown_value_raises_naming_control():
    c = Control("colour", "colour", ("red", "green"), value="green")
    assert c.snap("red") == "red"
    with pytest.raises(ValueError, match=r"colour must be one of red, green, got 'blue'"):
        c.snap("blue")


def test_snap_string_on_numeric_control_raises_with_shown_values():
    c = Control("token", "token", (0, 1, 2), fmt=lambda v: f"#{v}")
    with pytest.raises(ValueError, match=r"token must be one of #0, #1, #2, got 'cat'"):
        c.snap("cat")


def test_snap_number_on_string_control_raises():
    c = Control("mode", "mode", ("a", "b"))
    with pytest.raises(ValueError, match="mode"):
        c.snap(1)


def test_snap_bool_is_not_a_number_on_float_list():
    c = Control("t", "t", (0.5, 1.5))
    with pytest.raises(ValueError, match="t must be one of"):
        c.snap(True)


# ---------------------------------------------------------------- Control: static_values and fmt
def test_static_values_every_one_is_all():
    c = Control("x", "x", tuple(range(7)))
    assert c.static_values == tuple(range(7))


def test_static_values_subsample_keeps_ends_and_start():
    c = Control("x", "x", tuple(range(10)), value=4, static_every=3)
    assert c.static_values == (0, 3, 4, 6, 9)


def test_static_values_last_appended_when_step_misses_it():
    c = Control("x", "x", tuple(range(11)), value=0, static_every=4)
    assert c.static_values == (0, 4, 8, 10)


def test_static_values_start_value_on_grid_not_duplicated():
    c = Control("x", "x", tuple(range(11)), value=5, static_every=5)
    assert c.static_values == (0, 5, 10)


@pytest.mark.parametrize("every", [1, 2, 3, 4, 5, 7, 20, 100])
@pytest.mark.parametrize("start_index", [0, 5, 12, 20])
def test_static_values_properties(every, start_index):
    """Ends and start always present; in slider order; a subset; every every-th value present."""
    values = float_range(-1.0, 1.0, 0.1)
    c = Control("h", "h", values, value=values[start_index], static_every=every)
    s = c.static_values
    assert s[0] == values[0]
    assert s[-1] == values[-1]
    assert values[start_index] in s
    idx = [values.index(v) for v in s]
    assert idx == sorted(set(idx))
    assert set(values[::every]) <= set(s)
    assert len(s) <= len(values[::every]) + 2


def test_show_with_format_string_and_callable():
    assert Control("v", "V", (50257,), fmt="{:,}").show(50257) == "50,257"
    assert Control("h", "h", (0.5,), fmt="{:+.1f}").show(0.5) == "+0.5"
    assert Control("t", "t", (2,), fmt=lambda i: f"{i}: the").show(2) == "2: the"
    assert Control("x", "x", (1,)).show(1) == "1"


# ---------------------------------------------------------------- float_range
def test_float_range_clean_values():
    r = float_range(-1.0, 1.0, 0.1)
    assert len(r) == 21
    assert r[0] == -1.0
    assert r[-1] == 1.0
    assert 0.3 in r
    assert 0.5 in r
    assert all(isinstance(x, float) for x in r)
    assert r == tuple(round(-1.0 + i / 10, 6) for i in range(21))


def test_float_range_no_negative_zero():
    r = float_range(-1.0, 1.0, 0.25)
    zero = r[4]
    assert zero == 0.0
    assert math.copysign(1.0, zero) == 1.0
    assert str(zero) == "0.0"


def test_float_range_single_point():
    assert float_range(2.0, 2.0, 0.5) == (2.0,)


# ---------------------------------------------------------------- png_bytes
def test_png_bytes_encodes_the_canvas():
    fig, ax = plots.new_figure((2.0, 1.0))
    fig.patch.set_facecolor("#ff0000")
    ax.set_axis_off()
    fig.canvas.draw()
    img = decode(png_bytes(fig))
    w, h = fig.canvas.get_width_height()
    assert img.shape == (h, w, 3)
    assert (img == [255, 0, 0]).all(axis=-1).any()
    np.testing.assert_array_equal(img, np.asarray(fig.canvas.buffer_rgba())[..., :3])


def test_png_bytes_quantized_uses_a_small_palette():
    fig, ax = plots.new_figure((3.0, 2.0))
    ax.imshow(np.linspace(0, 1, 400).reshape(20, 20), cmap="viridis")
    fig.canvas.draw()
    full = Image.open(io.BytesIO(png_bytes(fig)))
    small = Image.open(io.BytesIO(png_bytes(fig, colors=8)))
    assert full.mode == "RGB"
    assert small.mode == "P"
    assert len(small.convert("RGB").getcolors(1 << 16)) <= 8
    assert len(full.getcolors(1 << 16)) > 8
    assert small.size == full.size


# ---------------------------------------------------------------- Explorer core
def test_explorer_starts_at_control_values():
    ex = toy_explorer()
    assert ex.values == {"a": 1, "b_": 0.5}
    assert ex.readout == "a = 1, b = +0.5 & <ok>"


def test_explorer_duplicate_control_names_raise():
    c = Control("a", "a", (1, 2))
    with pytest.raises(ValueError, match="unique"):
        Explorer("t", [c, c], toy_setup)


def test_explorer_update_snaps_and_remembers():
    ex = toy_explorer()
    assert ex.update(a=2.6) == "a = 3, b = +0.5 & <ok>"
    assert ex.update(b_=-0.7) == "a = 3, b = -1.0 & <ok>"  # a kept, b snapped
    assert ex.values == {"a": 3, "b_": -1.0}
    assert ex.update(b_=float("nan")) == "a = 3, b = +0.5 & <ok>"  # NaN to the start value
    assert ex.readout == "a = 3, b = +0.5 & <ok>"


def test_explorer_update_unknown_control_raises():
    ex = toy_explorer()
    with pytest.raises(ValueError, match=r"no control named 'c'.*\['a', 'b_'\]"):
        ex.update(c=1)


def test_explorer_figure_moves_with_update():
    ex = toy_explorer()
    before = decode(ex.png())
    ex.update(a=3)
    after = decode(ex.png())
    assert not np.array_equal(before, after)
    ex.update(a=1)
    np.testing.assert_array_equal(decode(ex.png()), before)


def test_explorer_blit_matches_fresh_explorer():
    """After moving through several values, the figure equals a fresh explorer's at the same values."""
    a = toy_explorer()
    for av, bv in [(3, -1.0), (0, 1.0), (2, 0.0), (3, 1.0)]:
        a.update(a=av, b_=bv)
    a.update(a=2, b_=-1.0)
    b = toy_explorer(a=2, b=-1.0)
    np.testing.assert_array_equal(decode(a.png()), decode(b.png()))


def test_explorer_dynamic_artists_are_animated_and_only_those():
    ex = toy_explorer()
    animated = ex.fig.findobj(lambda o: o.get_animated())
    assert len(animated) == 2  # the bar's rectangle and the marker
    kinds = sorted(type(o).__name__ for o in animated)
    assert kinds == ["Line2D", "Rectangle"]


def test_explorer_repr_is_short_and_stable():
    a, b = toy_explorer(), toy_explorer(a=3)
    assert repr(a) == "Explorer: Toy <explorer> (controls: height a, point b)"
    assert repr(a) == repr(b)
    assert "0x" not in repr(a)


# ---------------------------------------------------------------- to_html
def test_to_html_deterministic(toy_html):
    ex, page = toy_html
    assert ex.to_html() == page


def test_title_and_controls_cannot_be_reassigned(toy_html):
    # the frames and the live view are made for them: a new title or control list would break to_html
    ex, page = toy_html
    for name, value in (("title", None), ("controls", ())):
        with pytest.raises(AttributeError, match="no setter"):
            setattr(ex, name, value)
    assert ex.title == "Toy <explorer>" and [c.name for c in ex.controls] == ["a", "b_"]
    assert ex.to_html() == page


def test_to_html_leaves_explorer_where_it_was():
    ex = toy_explorer()
    ex.update(a=3, b_=-1.0)
    before = decode(ex.png())
    ex.to_html()
    assert ex.values == {"a": 3, "b_": -1.0}
    assert ex.readout == "a = 3, b = -1.0 & <ok>"
    np.testing.assert_array_equal(decode(ex.png()), before)


def test_to_html_no_script_no_ids(toy_html):
    _, page = toy_html
    assert "<script" not in page.lower()
    tags = parse(page).tags
    assert all("id" not in attrs for _, attrs in tags)
    assert not re.search(r"\sid\s*=", page)


def test_to_html_inputs(toy_html):
    ex, page = toy_html
    inputs = [a for t, a in parse(page).tags if t == "input"]
    assert len(inputs) == len(ex.controls)
    for c, attrs in zip(ex.controls, inputs, strict=True):
        assert attrs["type"] == "range"
        assert attrs["min"] == "0"
        assert int(attrs["max"]) == len(c.static_values) - 1
        assert attrs["data-labels"].split("|") == [c.show(v) for v in c.static_values]
        assert int(attrs["value"]) == c.static_values.index(c.value)
        assert attrs["aria-valuetext"] == c.show(c.value)
        assert attrs["oninput"] == _HANDLER  # unescaped by the parser: the handler survives escaping


def test_to_html_images(toy_html):
    ex, page = toy_html
    imgs = [a for t, a in parse(page).tags if t == "img"]
    assert len(imgs) == math.prod(len(c.static_values) for c in ex.controls) == 16
    visible = [i for i, a in enumerate(imgs) if "hidden" not in a]
    assert len(visible) == 1
    # Laid out without the book's stylesheet (JupyterLab shows a stored output without it): the frame
    # shown and only it displayed, at the figure's width, over a background scaled to the same box.
    assert [i for i, a in enumerate(imgs) if a["style"].startswith("display:block;")] == visible
    assert all(a["style"].startswith("display:none;") for i, a in enumerate(imgs) if i not in visible)
    assert all("width:100%;height:auto" in a["style"] for a in imgs)
    (figure,) = [a for t, a in parse(page).tags if t == "div" and a.get("class") == "embedlab-figure"]
    assert "background-size:100% 100%" in figure["style"] and "width:100%" in figure["style"]
    assert all(a["alt"].strip() for a in imgs)
    assert all(a["src"].startswith("data:image/webp;base64,") for a in imgs)


def test_to_html_alt_text_is_escaped(toy_html):
    _, page = toy_html
    assert "& <ok>" not in page  # raw readout text must not appear unescaped
    assert html.escape("a = 1, b = +0.5 & <ok>") in page
    assert "Toy &lt;explorer&gt;" in page


def test_to_html_handler_selects_the_right_frame(toy_html):
    """Simulate the inline handler: positions -> mixed-radix k -> frame k's alt is the readout there."""
    ex, page = toy_html
    p = parse(page)
    inputs = [a for t, a in p.tags if t == "input"]
    imgs = [a for t, a in p.tags if t == "img"]
    sizes = [int(a["max"]) + 1 for a in inputs]
    oracle = toy_explorer()
    for positions in itertools.product(*(range(n) for n in sizes)):
        k = mixed_radix(positions, sizes)
        combo = {c.name: c.static_values[i] for c, i in zip(ex.controls, positions, strict=True)}
        expected = f"a = {combo['a']}, b = {combo['b_']:+.1f} & <ok>"
        assert imgs[k]["alt"] == expected
        assert oracle.update(**combo) == expected


def test_to_html_frame_pixels_match_the_combination(toy_html):
    """Frame k laid over the background is the explorer's figure at that combination (up to rounding)."""
    ex, page = toy_html
    imgs = [a for t, a in parse(page).tags if t == "img"]
    sizes = [len(c.static_values) for c in ex.controls]
    oracle = toy_explorer()
    import base64

    for positions in [(0, 0), (3, 3), (1, 2), (2, 0)]:
        k = mixed_radix(positions, sizes)
        combo = {c.name: c.static_values[i] for c, i in zip(ex.controls, positions, strict=True)}
        oracle.update(**combo)
        frame = over(ex.background(), base64.b64decode(imgs[k]["src"].split(",", 1)[1]))
        assert np.abs(frame - decode(oracle.png()).astype(int)).max() <= 3
    # and two different combinations give different pictures
    f0 = imgs[0]["src"]
    assert any(a["src"] != f0 for a in imgs[1:])


def test_to_html_visible_frame_and_readout_are_the_start(toy_html):
    ex, page = toy_html
    p = parse(page)
    imgs = [a for t, a in p.tags if t == "img"]
    inputs = [a for t, a in p.tags if t == "input"]
    k = mixed_radix([int(a["value"]) for a in inputs], [int(a["max"]) + 1 for a in inputs])
    assert "hidden" not in imgs[k]
    assert imgs[k]["alt"] == ex.readout
    assert "".join(p.readout_text) == ex.readout
    outputs = re.findall(r"<output>(.*?)</output>", page)
    assert [html.unescape(o) for o in outputs] == [c.show(c.value) for c in ex.controls]


def test_to_html_static_every_reduces_frames():
    ex = toy_explorer(b=0.5, every_b=2)
    assert ex.controls[1].static_values == (-1.0, 0.5, 1.0)  # every 2nd, last added
    page = ex.to_html()
    imgs = [a for t, a in parse(page).tags if t == "img"]
    assert len(imgs) == 4 * 3
    inputs = [a for t, a in parse(page).tags if t == "input"]
    assert inputs[1]["max"] == "2"
    assert inputs[1]["data-labels"] == "-1.0|+0.5|+1.0"


def test_handler_is_plain_inline_javascript():
    assert "<" not in _HANDLER
    assert '"' not in _HANDLER
    assert "embedlab-explorer" in _HANDLER
    assert "k=k*(Number(e.max)+1)+Number(e.value)" in _HANDLER


# ---------------------------------------------------------------- _repr_mimebundle_ and widget
def test_repr_mimebundle_has_plain_and_html():
    ex = toy_explorer()
    bundle = ex._repr_mimebundle_()
    assert bundle["text/plain"] == repr(ex)
    assert len(bundle["text/plain"]) < 200
    assert "0x" not in bundle["text/plain"]
    assert bundle["text/html"] == ex.to_html()
    assert bundle["text/plain"] == toy_explorer(a=3)._repr_mimebundle_()["text/plain"]


def test_repr_mimebundle_falls_back_when_widget_fails(monkeypatch):
    ex = toy_explorer()

    def broken():
        raise RuntimeError("no comm")

    monkeypatch.setattr(ex, "widget", broken)
    bundle = ex._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}


def _over(background: bytes, layer: bytes) -> np.ndarray:
    """A frame as the page shows it: its layer over the background."""
    shown = Image.alpha_composite(
        Image.open(io.BytesIO(background)).convert("RGBA"), Image.open(io.BytesIO(layer)).convert("RGBA")
    )
    return np.asarray(shown, dtype=int)


def _figure_at(a, b) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(toy_explorer(a=a, b=b).png())).convert("RGBA"), dtype=int)


def test_unframed_widget_is_a_fetched_view_sent_each_frame_it_lacks():
    """Not every value pre-rendered: the view starts with the frame at the sliders, and the kernel sends
    each frame (its layer and readout) the view lacks, once; over the background it is the figure."""
    pytest.importorskip("ipywidgets")
    ex = toy_explorer(every_b=2)
    assert not ex.framed
    box = ex.widget()
    assert ex.widget() is box  # built once
    sliders, view = box.children[:2], box.children[2]
    assert len(box.children) == 3 and view.fetched
    assert [s.description for s in sliders] == ["height a", "point b"]
    assert [s.value for s in sliders] == [1, 0.5]
    assert list(sliders[0].options) == [("a=0", 0), ("a=1", 1), ("a=2", 2), ("a=3", 3)]
    assert view.sizes == [len(A_VALUES), len(B_VALUES)] and [view.p0, view.p1] == [1, 2]
    assert view.first == 1 * len(B_VALUES) + 2 and view.texts == ["a = 1, b = +0.5 & <ok>"]
    assert np.abs(_over(view.background, view.frames[0]) - _figure_at(1, 0.5)).max() <= 3
    sent = []
    view.send = lambda content, buffers=None: "frame" in content and sent.append((content, buffers))  # frames
    sliders[0].value = 3  # the slider's own message: the kernel follows, and sends the frame the view lacks
    assert ex.values["a"] == 3 and ex.readout == "a = 3, b = +0.5 & <ok>"
    k = 3 * len(B_VALUES) + 2
    assert [c for c, _ in sent] == [{"frame": k, "text": "a = 3, b = +0.5 & <ok>"}]
    assert np.abs(_over(view.background, sent[0][1][0]) - _figure_at(3, 0.5)).max() <= 3
    np.testing.assert_array_equal(decode(ex.png()), decode(toy_explorer(a=3, b=0.5).png()))
    answers = []
    view.send = lambda content, buffers=None: (answers if "answered" in content else sent).append((content, buffers))
    ex._on_view_msg(view, {"at": k, "from": view.first, "missing": False}, [])  # the view's word: it has it
    assert answers == [({"answered": k}, None)]  # answered, so the view may send its next position
    assert len(sent) == 1  # not sent again (outside a kernel's event loop nothing is drawn ahead)
    ex._on_view_msg(view, {"at": k, "from": -1, "missing": True}, [])  # a view shown again lacks it
    assert [c["frame"] for c, _ in sent] == [k, k]
    for odd in ({"at": 10**6}, {"at": "3"}, {"at": True}, "junk", {"at": -1}):  # the page's own script only
        ex._on_view_msg(view, odd, [])
    assert len(sent) == 2
    ex.update(b_=-1.0)  # from code: the sliders move, and the view is sent the frame
    assert [s.value for s in sliders] == [3, -1.0]
    assert sent[-1][0] == {"frame": 3 * len(B_VALUES) + 0, "text": "a = 3, b = -1.0 & <ok>"}


def _catching(failed: list, fn) -> None:
    try:
        fn()
    except BaseException as exc:  # reported by the test's thread
        failed.append(exc)


def test_fetched_view_draws_ahead_of_the_hand_then_around_it_once_it_rests():
    """After a move, the kernel sends at once the frames the moved slider heads for (AHEAD_STEPS of them,
    within its range), then, once no other move has come for AHEAD_AFTER seconds, the rest one step away;
    a move before then starts a new round."""
    import asyncio

    from embedlab import widgets

    pytest.importorskip("ipywidgets")
    ex = toy_explorer(every_b=2)
    view = ex.widget().children[2]
    sent = []
    view.send = lambda content, buffers=None: "frame" in content and sent.append(content["frame"])
    n_b = len(B_VALUES)
    here, came = 1 * n_b + 1, 1 * n_b + 2  # b moved down one step, from position 2 to 1
    there = 2 * n_b + 1  # then a moved up one step, from 1 to 2

    async def moves(second: bool) -> None:
        ex._on_view_msg(view, {"at": here, "from": came, "missing": True}, [])
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert sent == [here, 1 * n_b + 0]  # b's next position in its direction (the one left in range), at once
        if second:
            await asyncio.sleep(widgets.AHEAD_AFTER / 5)
            ex._on_view_msg(view, {"at": there, "from": here, "missing": True}, [])
        await asyncio.sleep(3 * widgets.AHEAD_AFTER)
        for _ in range(20):
            await asyncio.sleep(0)

    def run(second: bool) -> None:  # in a thread of its own: a test process may already run an event loop
        failed = []
        worker = threading.Thread(target=lambda: _catching(failed, lambda: asyncio.run(moves(second))))
        worker.start()
        worker.join(timeout=60)
        assert not worker.is_alive() and not failed, failed

    run(second=False)
    # b's position 0 next (its direction), then a's 2 and 0; b's 2 is the frame the view came from
    assert sent == [here, 1 * n_b + 0, 2 * n_b + 1, 0 * n_b + 1]
    sent.clear()
    ex._sent.clear()
    run(second=True)
    # the first round stopped before its rest (a's 0 never drawn); the second: a's 3 (its direction; a's 4 is
    # past the end) at once, then b's 2 and 0
    assert sent == [here, 1 * n_b + 0, there, 3 * n_b + 1, 2 * n_b + 2, 2 * n_b + 0]


def _img_of(html_widget, cls, kind="webp"):
    """The image bytes of the one ``<img class=cls>`` an HTML widget shows, from its data: URL."""
    found = re.findall(rf'<img class="{cls}" src="data:image/{kind};base64,([A-Za-z0-9+/=]+)"', html_widget.value)
    assert len(found) == 1, html_widget.value[:200]
    return base64.b64decode(found[0])


def test_framed_widget_swaps_prerendered_frames_in_the_browser():
    """Every value pre-rendered: one view holds the background and every frame with its readout, its
    positions linked to the sliders (the browser picks frame ``sum``, the last control fastest)."""
    w = pytest.importorskip("ipywidgets")
    ex = toy_explorer()
    assert ex.framed
    box = ex.widget()
    sliders, view = box.children[:2], box.children[2]
    assert len(box.children) == 3  # the readout is the view's own, changed with the frame
    assert view.background == ex.background() and view.css_width == ex.css_size[0]
    assert view.sizes == [len(A_VALUES), len(B_VALUES)]
    # Each slider's position is the view's p<k>, linked in the browser: a jslink from its index.
    links = {(id(lk.source[0]), lk.source[1], id(lk.target[0]), lk.target[1]) for lk in ex._links}
    assert all(isinstance(lk, w.widget_link.Link) for lk in ex._links)
    assert links == {(id(sliders[k]), "index", id(view), f"p{k}") for k in range(2)}
    # Frame i * len(B) + j is the figure and readout at (A[i], B[j]), as the view's module reads it.
    assert "k * n + model.get(`p${i}`)" in view._esm
    frames = ex.frames()
    assert view.frames == [f for f, _ in frames] and view.texts == [t for _, t in frames]
    for i, a in enumerate(A_VALUES):
        for j, b in enumerate(B_VALUES):
            frame, text = view.frames[i * len(B_VALUES) + j], view.texts[i * len(B_VALUES) + j]
            assert text == f"a = {a}, b = {b:+.1f} & <ok>"
            shown = Image.alpha_composite(
                Image.open(io.BytesIO(view.background)).convert("RGBA"),
                Image.open(io.BytesIO(frame)).convert("RGBA"),
            )
            oracle = toy_explorer(a=a, b=b)
            want = np.asarray(Image.open(io.BytesIO(oracle.png())).convert("RGBA"), dtype=int)
            diff = np.abs(np.asarray(shown, dtype=int) - want)
            assert diff.max() <= 3, f"frame at a={a}, b={b} differs from the figure by {diff.max()} levels"
    # The view starts at the sliders' positions, and the kernel follows a move (values, figure, readout).
    assert [view.p0, view.p1] == [s.index for s in sliders] == [1, 2]
    sliders[1].value = -1.0
    assert ex.values == {"a": 1, "b_": -1.0} and ex.readout == "a = 1, b = -1.0 & <ok>"
    np.testing.assert_array_equal(decode(ex.png()), decode(toy_explorer(a=1, b=-1.0).png()))


def test_framed_view_moves_draw_nothing_until_the_figure_is_read():
    """A framed view's move only notes the values and the frame's readout (the browser shows the frame);
    the kept figure is drawn when read, at the latest values, once however many moves came before."""
    pytest.importorskip("ipywidgets")
    ex = toy_explorer()
    calls = []
    ex._update = (lambda inner: lambda **v: calls.append(dict(v)) or inner(**v))(ex._update)
    sliders = ex.widget().children[:2]
    calls.clear()
    for b in (-1.0, 1.0, 0.0):
        sliders[1].value = b
    sliders[0].value = 3
    assert calls == []  # no drawing on a move
    assert ex.values == {"a": 3, "b_": 0.0} and ex.readout == "a = 3, b = +0.0 & <ok>"
    bar = ex.axes.patches[0]  # reading the axes draws the figure, once, at the values of the last move
    assert calls == [{"a": 3, "b_": 0.0}] and bar.get_height() == 3
    np.testing.assert_array_equal(decode(ex.png()), decode(toy_explorer(a=3, b=0.0).png()))
    assert len(calls) == 1  # already drawn: not again
    sliders[0].value = 0
    assert ex.fig is ex.fig and calls[1:] == [{"a": 0, "b_": 0.0}]


def test_to_html_after_moving_to_a_value_without_a_frame():
    """Displaying an explorer whose slider sits between static frames must still work.

    BUG (src/embedlab/widgets.py, Explorer.to_html): the start index is
    ``static_values.index(self.values[name])``; static_values holds the control's *starting*
    value, not the current one, so after ``update(b_=0.0)`` (0.0 is not pre-rendered when
    static_every=2) to_html, and so _repr_mimebundle_, raises ``ValueError: tuple.index(x): x not
    in tuple``.
    """
    ex = toy_explorer(b=0.5, every_b=2)
    ex.update(b_=0.0)
    page = ex.to_html()
    imgs = [a for t, a in parse(page).tags if t == "img"]
    assert len(imgs) == 12
    assert sum("hidden" not in a for a in imgs) == 1
    assert ex.values == {"a": 1, "b_": 0.0}


@pytest.mark.parametrize(
    ("fmt", "exc"),
    [
        ("{0[1]}", ValueError),
        ("{a}", ValueError),
        ("{.nope}", ValueError),
        ("{:d}", ValueError),
        (lambda v: 1, TypeError),
        (3, TypeError),
    ],
)
def test_control_bad_fmt_raises_at_construction(fmt, exc):
    """IndexError, KeyError, AttributeError of a bad fmt become an error naming fmt, at once."""
    with pytest.raises(exc, match=r"fmt of control 'x'"):
        Control("x", "x", (0.5, 1.5), fmt=fmt)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 1, 0), r"step must be non-zero, got 0"),
        ((0, 1, -0.5), r"step must go from start to stop"),
        ((0, float("nan"), 0.5), r"stop must be finite, got nan"),
        ((0, float("inf"), 0.5), r"stop must be finite, got inf"),
        ((0, 1, 1e-9), r"start, stop and step must make at most 100,000 values"),
        (("0", 1, 0.5), r"start must be a real number, got str '0'"),
    ],
)
def test_float_range_bad_arguments(args, message):
    with pytest.raises((TypeError, ValueError), match=message):
        float_range(*args)
