"""Plot helpers in matplotlib's own shape: ``ax=None`` makes a figure, artists are returned,
``plt.show()`` is never called. Update helpers change the data of artists already drawn, so a
slider moves a figure that is kept rather than building a new one.

Data to draw is checked like the library's inputs (finite real arrays of the right shape, any
float dtype, drawn in float64); a bad argument raises ``TypeError`` or ``ValueError`` naming it,
not an error from deep inside matplotlib.
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, ClassVar

import matplotlib.pyplot as plt
import numpy as np
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.quiver import Quiver
from matplotlib.text import Annotation
from matplotlib.transforms import IdentityTransform

from . import display
from ._validation import (
    _describe,
    _is_one_of,
    check_finite,
    check_flag,
    check_float_array,
    check_real,
    check_size,
    exact_int,
    is_a,
    odd_metaclass,
    plain_items,
    plain_str,
    range_len,
    short_repr,
    unwrap_0d,
)

__all__ = [
    "GREY",
    "MAX_AXES",
    "MAX_DRAWN",
    "MAX_DRAWN_VALUE",
    "PROJECTIONS",
    "STYLE",
    "arrows",
    "bars",
    "curve",
    "figure_and_ax",
    "heatmap",
    "marker",
    "new_figure",
    "set_highlight_row",
    "signed2",
    "style",
    "update_arrows",
    "update_bars",
]

#: The package's one style file, ``embedlab/embedlab.mplstyle``.
STYLE = "embedlab.embedlab"
#: Most axes one figure may hold.
MAX_AXES = 64

#: Okabe-Ito colours, distinguishable with the common forms of colour blindness.
BLUE, ORANGE, GREEN, VERMILLION, PURPLE, SKY, YELLOW, BLACK = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#F0E442",
    "#000000",
)
GREY = "#9e9e9e"


def style() -> AbstractContextManager[None]:
    """Context manager applying embedlab's style to the figures and artists made inside it."""
    return plt.style.context(STYLE)


#: The projections :func:`new_figure` draws in (matplotlib's own names).
PROJECTIONS = ("rectilinear", "polar")


def new_figure(
    figsize: tuple[float, float] = (6.0, 3.2), ncols: int = 1, nrows: int = 1, *, projection: str = "rectilinear"
) -> tuple[Figure, Any]:
    """An off-screen ``Figure`` (Agg canvas, not registered with pyplot) and its axes.

    Kept figures are redrawn with ``fig.canvas.draw()``; pyplot never shows them twice.
    ``projection`` is one of :data:`PROJECTIONS`; anything else about the axes (limits, ticks)
    is set on them afterwards, through matplotlib's own checks.
    """
    figsize = display.check_figsize(figsize)
    ncols, nrows = check_size(ncols, "ncols"), check_size(nrows, "nrows")
    if ncols * nrows > MAX_AXES:
        raise ValueError(f"ncols times nrows must be at most {MAX_AXES} axes, got {ncols} x {nrows}")
    if not issubclass(type(projection), str):
        raise TypeError(f"projection must be one of {PROJECTIONS}, got {_describe(projection)}")
    projection = plain_str(projection)  # the text it holds
    if projection not in PROJECTIONS:
        raise ValueError(f"projection must be one of {PROJECTIONS}, got {short_repr(projection)}")
    with style():
        fig = Figure(figsize=figsize, layout="constrained")
        FigureCanvasAgg(fig)
        axes = fig.subplots(nrows, ncols, subplot_kw={"projection": projection})
    return fig, axes


def figure_and_ax(ax: Axes | None, figsize: tuple[float, float]) -> tuple[Figure, Axes]:
    """``ax`` and its figure, or a new figure of ``figsize`` and its axes when ``ax`` is None."""
    if ax is None:
        return new_figure(figsize)
    ax = _ax(ax)
    return ax.figure, ax


def _ax(ax: Axes | None) -> Axes:
    if ax is None:
        _, ax = new_figure()
    elif not issubclass(type(ax), Axes) or odd_metaclass(type(ax)):  # by its type: an object may lie about it
        raise TypeError(f"ax must be a matplotlib Axes or None, got {_describe(ax)}")
    elif _unplottable(ax):
        raise TypeError(f"ax must be a 2-D matplotlib Axes or None, got {_unplottable(ax)}")
    return ax


def _unplottable(ax: Axes) -> str | None:
    """What kind of Axes the chapter's plots cannot draw on (3-D or polar, a map projection, a log scale,
    one removed from its figure), or None."""
    from matplotlib.projections.geo import GeoAxes

    if ax.get_figure(root=True) is None:
        return "an Axes removed from its figure"
    if type(ax).name in ("3d", "polar"):  # patches take three coordinates; angles are not lengths
        return f"a {'3-D' if type(ax).name == '3d' else 'polar'} Axes"
    if issubclass(type(ax), GeoAxes):
        return f"a {type(ax).name} map projection"
    scales = (ax.get_xscale(), ax.get_yscale())
    if scales != ("linear", "linear"):  # limits through 0 and negative data: a log scale would warn
        return f"an Axes of {'/'.join(scales)} scales (set a log scale after drawing)"
    return None


def _equal_aspect(ax: Axes, name: str) -> None:
    """Give ``ax`` an equal aspect kept by resizing its box, so the limits set after it hold (with
    ``adjustable="datalim"`` matplotlib would move them, and log that it did); a twinned Axes, which
    cannot resize its box alone, is refused before anything is drawn on it."""
    aspect, adjustable = ax.get_aspect(), ax.get_adjustable()
    ax.set_aspect("equal", adjustable="box")
    try:
        ax.apply_aspect()
    except RuntimeError:  # matplotlib: "Adjustable 'box' is not allowed in a twinned Axes"
        ax.set_aspect(aspect, adjustable=adjustable)
        raise ValueError(
            f"{name} must be an Axes of its own, not a twinned one (made by twinx or twiny): the plot keeps an "
            "equal aspect by resizing its box, which a twinned Axes cannot"
        ) from None


def _axes_list(axes: Any, n: int, name: str, what: str) -> list[Axes]:
    """``axes`` (an Axes, or a list, tuple or array of them, nested at most once) as a flat list of ``n``
    or more 2-D Axes, read without NumPy: a deeply nested or self-referring list is refused at once.
    ``what`` says what the caller must pass, after "must be" ("2 x 2 matplotlib Axes")."""
    if issubclass(type(axes), Axes):
        flat: list[Any] = [axes]
    elif issubclass(type(axes), np.ndarray):
        if axes.dtype != object or axes.size > MAX_AXES:
            raise TypeError(f"{name} must be {what} (at most {MAX_AXES}), got {_describe(axes)}")
        flat = list(axes.flat)
    elif _is_one_of(type(axes), (list, tuple)) and len(axes) <= MAX_AXES:
        flat = []
        for item in axes:  # a row of a grid: one level, read by len, never by NumPy
            if _is_one_of(type(item), (list, tuple)) and len(item) <= MAX_AXES:
                flat.extend(item)
            elif type(item) is np.ndarray and item.dtype == object and item.size <= MAX_AXES:
                flat.extend(item.flat)
            else:
                flat.append(item)
            if len(flat) > MAX_AXES:
                break
    else:
        raise TypeError(f"{name} must be {what} (at most {MAX_AXES}), got {_describe(axes)}")
    if not n <= len(flat) <= MAX_AXES or not all(issubclass(type(ax), Axes) for ax in flat):
        raise ValueError(f"{name} must be {what}, got {_describe(axes)}")
    for ax in flat:
        if _unplottable(ax):
            raise TypeError(f"{name} must be {what}, 2-D, got {_unplottable(ax)} among them")
    return flat


def _axes_array(axes: list[Axes]) -> np.ndarray:
    """A flat object array of Axes (filled item by item: NumPy never looks inside them)."""
    out = np.empty(len(axes), dtype=object)
    for i, ax in enumerate(axes):
        out[i] = ax
    return out


def signed2(value: float) -> str:
    """``value`` with a sign and two decimals, never "-0.00": a value that rounds to zero is "0.00".

    >>> signed2(-0.001), signed2(0.25), signed2(-1.5)
    ('0.00', '+0.25', '-1.50')
    """
    text = f"{check_real(value, 'value'):+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text


#: Most numbers one drawing takes from one array: a figure of more points than this shows nothing more.
MAX_DRAWN = 1_000_000

#: Largest size of a number drawn: matplotlib's transforms and tick locators overflow near float64's range,
#: and no figure of the chapter needs more than a few billion (bytes, parameters).
MAX_DRAWN_VALUE = 1e15

#: Most arrows one arrow plot draws, and most bars one bar chart: more could not be told apart.
MAX_ARROWS, MAX_BARS = 100, 1000


def _values(x: Any, name: str, **kw: Any) -> np.ndarray:
    """A finite float64 array to draw (plots work in float64 whatever the input dtype)."""
    arr = check_float_array(x, name, **kw)
    if arr.size > MAX_DRAWN:
        raise ValueError(f"{name} must hold at most {MAX_DRAWN:,} numbers to be drawn, got {arr.size:,}")
    check_finite(arr, name)
    out = _in_float64(arr, name)
    if np.abs(out).max() > MAX_DRAWN_VALUE:
        raise ValueError(
            f"{name} must be at most {MAX_DRAWN_VALUE:g} in size to be drawn, got {float(np.abs(out).max())!r}"
        )
    return out


def _in_float64(arr: np.ndarray, name: str) -> np.ndarray:
    """A finite float array as float64, refused if a longdouble part lies beyond float64's range or
    below it (where it would be drawn as 0)."""
    with np.errstate(over="ignore", under="ignore"):
        out = arr.astype(np.float64)
    if not np.all(np.isfinite(out)):  # the input was checked finite: a longdouble beyond float64's range
        raise ValueError(f"{name} must be drawable in float64: its entries are beyond float64's range")
    if arr.dtype == np.longdouble and arr.size and np.any(arr):
        scale = np.max(np.abs(arr))
        if np.max(np.abs(out.astype(np.longdouble) - arr)) > 1e-9 * scale:
            raise ValueError(f"{name} must be drawable in float64: its entries are below float64's range")
    return out


def _drawn_real(value: Any, name: str) -> float:
    """One finite number small enough to draw (see :data:`MAX_DRAWN_VALUE`)."""
    if type(value) is np.longdouble and np.isfinite(value):  # below float64's range it would be drawn as 0
        _in_float64(np.asarray(value), name)
    x = check_real(value, name)
    if abs(x) > MAX_DRAWN_VALUE:
        raise ValueError(f"{name} must be at most {MAX_DRAWN_VALUE:g} in size to be drawn, got {short_repr(x)}")
    return x


#: Longest text a figure draws as one label (a tick, a legend entry, an arrow's name).
MAX_LABEL = 1000


@functools.cache
def _fonts() -> tuple[Any, ...]:
    """The faces the figures draw text in: the style's regular face and its bold (titles)."""
    from matplotlib import font_manager, ft2font

    with style():
        return tuple(
            ft2font.FT2Font(font_manager.findfont(font_manager.FontProperties(weight=w))) for w in ("normal", "bold")
        )


def _missing_glyphs(text: str) -> str:
    """The characters of ``text`` (other than spaces and line breaks) that some face of the figures cannot
    draw: a tab, a NUL or a glyph the fonts lack would make matplotlib warn, a lone surrogate fail."""
    return "".join(
        sorted(
            {
                c
                for c in text
                if c not in " \n"
                and ("\ud800" <= c <= "\udfff" or any(f.get_char_index(ord(c)) == 0 for f in _fonts()))
            }
        )
    )


def _check_label(text: Any, name: str, *, escape: bool = True) -> str:
    """``text`` as a plain str the figures draw as typed: a ``$`` starts no math text (escaped unless
    ``escape`` is False, for text checked here and escaped where it is drawn), and every character has
    a glyph. Refused by name otherwise (a ``TypeError`` for a non-str, a ``ValueError`` for text that
    cannot be drawn)."""
    if not issubclass(type(text), str):
        raise TypeError(f"{name} must be a str, got {_describe(text)}")
    text = str.__str__(text)  # the characters it holds, not a subclass's own methods
    if len(text) > MAX_LABEL:
        raise ValueError(f"{name} must be at most {MAX_LABEL:,} characters to be drawn, got {len(text):,}")
    missing = _missing_glyphs(text)
    if missing:
        shown = ", ".join(f"U+{ord(c):04X}" for c in missing[:8]) + (", ..." if len(missing) > 8 else "")
        raise ValueError(f"{name} must be text the figures' fonts can draw; it holds {shown}")
    if text.startswith("_"):  # matplotlib leaves a legend entry starting with "_" out: a zero-width space keeps it
        text = "\u200b" + text
    return text.replace("$", r"\$") if escape else text


def _check_color(color: Any, name: str) -> str:
    """A colour matplotlib knows, as a plain str ('#0072B2', 'C1', 'black'): refused by name here, not later
    when the figure is drawn."""
    from matplotlib.colors import is_color_like

    if not issubclass(type(color), str):
        raise TypeError(f"{name} must be a colour such as '#0072B2' (a str), got {_describe(color)}")
    color = str.__str__(color)  # the text it holds
    if len(color) > 100 or not is_color_like(color):
        raise ValueError(f"{name} must be a colour matplotlib knows, such as '#0072B2', got {short_repr(color)}")
    return color


def _labels(labels: Any, n: int, name: str) -> list[str]:
    # a plain list or tuple: a subclass's own len or items are not trusted
    if not _is_one_of(type(labels), (list, tuple)):
        raise TypeError(f"{name} must be a sequence of str (a list or tuple), got {_describe(labels)}")
    if len(labels) != n:
        raise ValueError(f"{name} must have one entry per value ({n}), got {len(labels)}")
    return [_check_label(x, name) for x in labels]


def _index(i: Any, n: int, name: str) -> int | None:
    """None, or an int in [0, n)."""
    if i is None:
        return None
    if issubclass(type(i), (bool, np.bool_)) or not issubclass(type(i), (int, np.integer)):
        raise TypeError(f"{name} must be None or an int, got {_describe(i)}")
    i = exact_int(i, name)
    if not 0 <= i < n:
        raise ValueError(f"{name} must be None or in [0, {n - 1}], got {short_repr(i)}")
    return int(i)


#: The settings Agg's text drawing reads besides the text's own properties.
_TEXT_RCPARAMS = ("text.hinting", "text.hinting_factor", "text.kerning_factor", "font.enable_last_resort")


class _TextImages:
    """A renderer whose plain text is rasterized once per string, font, colour and resolution, then copied.

    A bar's value label is redrawn on every slider move, and laying out and rasterizing its glyphs
    was half the work of a move. Here a string is drawn once by the real renderer, on a small
    transparent canvas, and later draws copy those pixels (``draw_image``) to the whole pixel
    nearest where the text would go. Everything else (and any text that is math, rotated, hatched,
    clipped to a path, long or huge) goes to the real renderer unchanged.
    """

    MAX_BYTES = 16 * 2**20  # pixels kept (a label takes a few KB; a slider's labels, a few hundred of them)
    MAX_CHARS, MAX_PIXELS = 64, 250_000  # longer or larger text is drawn as usual
    ENTRY_BYTES = 2048  # what an entry holds besides its pixels (its key, the tuple, the array's header)
    kept_bytes: ClassVar[int] = 0

    images: ClassVar[dict[tuple[Any, ...], tuple[np.ndarray | None, int, int]]] = {}  # shared: a new figure reuses them

    def __init__(self, renderer: RendererAgg) -> None:
        self._renderer = renderer

    def __getattr__(self, name: str) -> Any:
        return getattr(self._renderer, name)

    def draw_text(
        self, gc: Any, x: float, y: float, s: str, prop: Any, angle: float, ismath: Any = False, mtext: Any = None
    ) -> None:
        r = self._renderer
        plain = type(s) is str and len(s) <= self.MAX_CHARS and not ismath and angle == 0
        if not plain or gc.get_hatch() is not None or gc.get_clip_path() != (None, None):
            r.draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)
            return
        key = (
            s,
            tuple(prop.get_family()),
            prop.get_slant(),
            prop.get_variant(),
            prop.get_weight(),
            prop.get_stretch(),
            prop.get_size_in_points(),
            str(prop.get_file()),
            _font_files(prop),  # the fonts the family resolves to now (rcParams may change them)
            prop.get_math_fontfamily(),
            *(repr(getattr(mtext, f"get_{k}", lambda: None)()) for k in ("fontfeatures", "language")),
            tuple(gc.get_rgb()),
            gc.get_alpha(),
            gc.get_antialiased(),
            r.dpi,
            *(repr(plt.rcParams.get(k)) for k in _TEXT_RCPARAMS),
        )
        image = self.images.get(key)
        if image is None:
            image = self._rasterize(gc, s, prop, mtext)
            if image is None:  # too big to keep: drawn as usual
                r.draw_text(gc, round(x), round(y), s, prop, angle, mtext=mtext)
                return
            size = self.ENTRY_BYTES + (0 if image[0] is None else image[0].nbytes)
            if _TextImages.kept_bytes + size > self.MAX_BYTES:
                self.images.clear()
                _TextImages.kept_bytes = 0
            self.images[key] = image
            _TextImages.kept_bytes += size
        pixels, dx, dy = image
        if pixels is None:  # nothing visible (spaces)
            return
        top = round(y) + dy  # y counts down from the canvas's top here, as draw_text's does for Agg
        g = r.new_gc()
        g.copy_properties(gc)
        g.set_alpha(1.0)  # the pixels carry the text's own alpha already
        r.draw_image(g, round(x) + dx, r.height - top - pixels.shape[0], pixels)  # draw_image counts up from the bottom
        g.restore()

    def _rasterize(self, gc: Any, s: str, prop: Any, mtext: Any) -> tuple[np.ndarray | None, int, int] | None:
        """The text drawn by the real renderer at a whole pixel of a transparent canvas, cropped; and its offset."""
        w, h, _ = self._renderer.get_text_width_height_descent(s, prop, ismath=False)
        pad = math.ceil(h) + 4  # room for glyphs that overhang their advance
        # font features may set the text wider than the measure says: room for half as much again
        width, height = math.ceil(1.5 * w) + 2 * pad, math.ceil(h) + 2 * pad
        if width * height > self.MAX_PIXELS:
            return None
        scratch = RendererAgg(width, height, self._renderer.dpi)
        g = scratch.new_gc()
        g.copy_properties(gc)
        g.set_clip_rectangle(None)
        scratch.draw_text(g, pad, height - pad, s, prop, 0, mtext=mtext)
        g.restore()
        rgba = np.asarray(scratch.buffer_rgba())
        rows, cols = np.nonzero(rgba[..., 3])
        if rows.size == 0:
            return None, 0, 0
        if rows.min() == 0 or cols.min() == 0 or rows.max() == height - 1 or cols.max() == width - 1:
            return None  # the text reached the canvas's edge: it may be cut, so it is drawn as usual
        crop = rgba[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]
        # draw_image takes the bottom row first
        return np.ascontiguousarray(crop[::-1]), int(cols.min()) - pad, int(rows.min()) - (height - pad)


def _font_files(prop: Any) -> tuple[str, ...]:
    """The font files Agg draws ``prop`` with: the first, then its fallbacks where matplotlib has them."""
    manager = font_manager.fontManager
    found = (
        manager._find_fonts_by_props(prop)
        if hasattr(manager, "_find_fonts_by_props")
        else [font_manager.findfont(prop)]
    )
    return tuple((str(f), getattr(f, "face_index", 0)) for f in found)  # a .ttc holds several faces


class _ValueLabel(Annotation):
    """A bar's value label: an ``Annotation`` whose text, on an Agg canvas, is drawn by :class:`_TextImages`."""

    def draw(self, renderer: Any) -> None:
        if issubclass(type(renderer), RendererAgg):
            images = renderer.__dict__.get("_embedlab_text_images")
            if images is None:  # one per renderer: matplotlib caches text layouts by renderer
                images = renderer.__dict__["_embedlab_text_images"] = _TextImages(renderer)
            renderer = images
        super().draw(renderer)


def _value_label(ax: Axes, x: float) -> _ValueLabel:
    """An empty value label above ``x`` (set by :func:`update_bars`), added as ``ax.annotate`` adds its own."""
    note = _ValueLabel("", (x, 0), ha="center", fontsize=9, xytext=(0, 2), textcoords="offset points")
    note.set_transform(IdentityTransform())
    ax._add_text(note)
    return note


def heatmap(
    matrix: Any,
    ax: Axes | None = None,
    *,
    row_labels: Sequence[str] | None = None,
    highlight_row: int | None = None,
    annotate: bool = True,
) -> dict[str, Any]:
    """Draw a matrix as a heatmap with its values written in, optionally outlining one row.

    Returns
    -------
    dict
        ``image`` (AxesImage), ``box`` (Rectangle around the highlighted row) and ``texts``.
    """
    m = _values(matrix, "matrix", ndim=2)
    annotate = check_flag(annotate, "annotate")
    if max(m.shape) > 1000:
        raise ValueError(f"matrix must have at most 1,000 rows and columns to be drawn with their ticks, got {m.shape}")
    if m.size > 10_000 and annotate:
        raise ValueError(f"matrix is too large to write every value in ({m.shape}); pass annotate=False")
    if row_labels is not None:
        row_labels = _labels(row_labels, m.shape[0], "row_labels")
    highlight_row = _index(highlight_row, m.shape[0], "highlight_row")
    ax = _ax(ax)
    lim = float(np.abs(m).max()) or 1.0
    with style():
        image = ax.imshow(m, cmap="PuOr", vmin=-lim, vmax=lim, aspect="auto")
        ax.grid(False)
        texts = []
        if annotate:
            for (i, j), value in np.ndenumerate(m):
                ink = "white" if abs(value) > 0.6 * lim else BLACK  # readable on the map's dark ends
                shown = f"{value:+.1f}" if abs(value) < 1e4 else f"{value:+.2g}"  # a large value stays short
                texts.append(ax.text(j, i, shown, ha="center", va="center", fontsize=11, color=ink))
        ax.set_xticks(range(m.shape[1]), [f"dim {j}" for j in range(m.shape[1])])
        labels = row_labels if row_labels is not None else [str(i) for i in range(m.shape[0])]
        ax.set_yticks(range(m.shape[0]), [f"{i}: {label}" for i, label in enumerate(labels)])
        box = Rectangle((-0.5, -0.5), m.shape[1], 1, fill=False, edgecolor=BLACK, linewidth=3)
        ax.add_patch(box)
    set_highlight_row(box, highlight_row)
    return {"image": image, "box": box, "texts": texts}


def set_highlight_row(box: Rectangle, row: int | None) -> None:
    """Move the outline made by :func:`heatmap` to ``row`` (hide it for None)."""
    if not issubclass(type(box), Rectangle):
        raise TypeError(f"box must be the Rectangle made by heatmap, got {_describe(box)}")
    row = _index(row, 2**31, "row")
    box.set_visible(row is not None)
    if row is not None:
        box.set_y(row - 0.5)


def bars(
    values: Any,
    labels: Sequence[str],
    ax: Axes | None = None,
    *,
    highlight: int | None = None,
    color: str = BLUE,
    highlight_color: str = ORANGE,
    offset: float = 0.0,
    width: float = 0.8,
    label: str | None = None,
    annotate: bool = True,
) -> BarContainer:
    """A bar chart of ``values`` with one bar optionally highlighted; values written above bars.

    Returns the ``BarContainer``; move it with :func:`update_bars`.
    """
    v = _values(values, "values", ndim=1)
    if v.size > MAX_BARS:
        raise ValueError(f"values must hold at most {MAX_BARS:,} bars to be told apart, got {v.size:,}")
    labels = _labels(labels, v.size, "labels")
    label = None if label is None else _check_label(label, "label")
    color, highlight_color = _check_color(color, "color"), _check_color(highlight_color, "highlight_color")
    annotate = check_flag(annotate, "annotate")
    highlight = _index(highlight, v.size, "highlight")
    offset = check_real(offset, "offset")
    width = check_real(width, "width")
    if width <= 0:
        raise ValueError(f"width must be positive, got {short_repr(width)}")
    ax = _ax(ax)
    x = np.arange(len(labels)) + offset
    with style():
        container = ax.bar(x, v, width=width, color=color, label=label)
        ax.set_xticks(np.arange(len(labels)), labels)
        ax.axhline(0, color=BLACK, linewidth=0.8)
        container.annotations = [_value_label(ax, xi) for xi in x] if annotate else []  # type: ignore[attr-defined]
    container.base_color = color  # type: ignore[attr-defined]
    container.highlight_color = highlight_color  # type: ignore[attr-defined]
    update_bars(container, values, highlight)
    return container


def update_bars(container: BarContainer, values: Any, highlight: int | Sequence[int] | None = None) -> None:
    """Set the heights of bars made by :func:`bars`, their value labels, and the highlighted bar or bars.

    ``highlight`` is one bar's index, a sequence of indexes (tied winners, say), or None.
    """
    if not hasattr(container, "base_color"):
        raise TypeError(f"container must be the BarContainer made by bars, got {_describe(container)}")
    values = _values(values, "values", ndim=1)
    if values.size != len(container.patches):
        raise ValueError(f"values must have one entry per bar ({len(container.patches)}), got {values.size}")
    highlight = unwrap_0d(highlight)  # a 0-d array is one index
    if issubclass(type(highlight), (list, tuple, np.ndarray)):
        # sized and read by list's, tuple's or NumPy's own methods: a subclass's own len or iter never runs
        if issubclass(type(highlight), np.ndarray):
            if highlight.ndim != 1:
                raise TypeError(
                    f"highlight must be None, an int, or a 1-D sequence of ints, got {_describe(highlight)}"
                )
            size = highlight.shape[0]
        else:
            size = range_len(highlight)
        if size > values.size:
            raise ValueError(f"highlight must name at most {values.size} bars, got {size:,}")
        highlight = (
            np.asarray(highlight).tolist()
            if issubclass(type(highlight), np.ndarray)
            else plain_items(highlight, "highlight", "None, an int, or a sequence of ints")
        )
        if any(i is None for i in highlight):
            raise TypeError("highlight must be None, an int, or a sequence of ints (no None inside)")
        lit = {_index(i, values.size, "highlight") for i in highlight}
    else:
        lit = {_index(highlight, values.size, "highlight")}
    for i, (rect, value) in enumerate(zip(container.patches, values, strict=True)):
        rect.set_height(value)
        rect.set_facecolor(container.highlight_color if i in lit else container.base_color)  # type: ignore[attr-defined]
    for note, rect, value in zip(container.annotations, container.patches, values, strict=False):  # type: ignore[attr-defined]
        x = rect.get_x() + rect.get_width() / 2
        note.xy = (x, max(value, 0.0))
        note.set_text(signed2(value) if value < 0 else f"{value:.2f}")


def arrows(
    vectors: Any,
    ax: Axes | None = None,
    *,
    labels: Sequence[str] = (),
    colors: Sequence[str] = (BLUE, ORANGE, GREEN, VERMILLION),
    limit: float | None = None,
) -> Quiver:
    """Draw 2-D vectors as arrows from the origin at their true length, on an equal-aspect axes.

    Returns the ``Quiver``; move it with :func:`update_arrows`.
    """
    v = _vectors_2d(vectors)
    if limit is not None:
        limit = _drawn_real(limit, "limit")
        if limit <= 0:
            raise ValueError(f"limit must be positive, got {short_repr(limit)}")
    if len(v) > MAX_ARROWS:
        raise ValueError(f"vectors must hold at most {MAX_ARROWS} arrows to be told apart, got {len(v):,}")
    for name, texts in (("labels", labels), ("colors", colors)):
        # a plain list or tuple: a subclass's own len or items are not trusted
        if not _is_one_of(type(texts), (list, tuple)):
            raise TypeError(f"{name} must be a sequence of str (a list or tuple), got {_describe(texts)}")
    if len(labels) > len(v):  # sizes first: no item is read from a sequence longer than the arrows
        raise ValueError(f"labels must name at most one arrow each ({len(v)}), got {len(labels)}")
    if len(colors) < len(v):
        raise ValueError(f"colors must hold one colour per arrow ({len(v)}), got {len(colors)}")
    labels, colors = list(labels), list(colors[: len(v)])  # only the colours drawn are read
    for name, texts in (("labels", labels), ("colors", colors)):
        for t in texts:
            if not issubclass(type(t), str):
                raise TypeError(f"{name} must be a sequence of str, got an item {_describe(t)}")
    labels = [_check_label(t, "labels") for t in labels]
    colors = [_check_color(c, "colors") for c in colors]
    ax = _ax(ax)
    _equal_aspect(ax, "ax")
    lim = limit if limit is not None else 1.15 * float(np.abs(v).max() or 1.0)
    with style():
        # angles/scale_units/scale = "xy"/"xy"/1: an arrow's length is its length in data units.
        q = ax.quiver(
            np.zeros(len(v)),
            np.zeros(len(v)),
            v[:, 0],
            v[:, 1],
            color=list(colors)[: len(v)],
            angles="xy",
            scale_units="xy",
            scale=1,
            width=0.012,
        )
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        ax.axhline(0, color=GREY, linewidth=0.8, zorder=0.5)  # beneath the arrows (a quiver's zorder is 1)
        ax.axvline(0, color=GREY, linewidth=0.8, zorder=0.5)
        q.labels = [  # type: ignore[attr-defined]
            ax.annotate(
                text, (0, 0), color=color, fontsize=11, fontweight="bold", xytext=(4, 4), textcoords="offset points"
            )
            for text, color in zip(labels, colors, strict=False)
        ]
    update_arrows(q, v)
    return q


def update_arrows(q: Quiver, vectors: Any) -> None:
    """Point the arrows of :func:`arrows` at new 2-D vectors (labels follow the tips)."""
    if not hasattr(q, "labels"):
        raise TypeError(f"q must be the Quiver made by arrows, got {_describe(q)}")
    v = _vectors_2d(vectors)
    if len(v) != q.N:
        raise ValueError(f"vectors must hold {q.N} vector(s), one per arrow, got {len(v)}")
    q.set_UVC(v[:, 0], v[:, 1])
    span = float(np.ptp(q.axes.get_xlim())) if q.axes is not None else 1.0
    scaled = v / (span or 1.0)  # distances in axis widths, computed without overflow
    slots: list[int] = []
    for k, (note, tip) in enumerate(zip(q.labels, v, strict=False)):  # type: ignore[attr-defined]
        note.xy = tuple(tip)
        near = [j for j in range(k) if float(np.hypot(*(scaled[k] - scaled[j]))) < 0.15]  # nearby earlier tips
        taken = {slots[j] for j in near}
        below = bool(near) and scaled[k][1] < np.mean([scaled[j][1] for j in near])  # a lower tip looks down first
        sign = -1 if below else 1
        order = [0, *(sign * t * m for t in range(1, k + 2) for m in (1, -1))]
        slot = next(s for s in order if s not in taken)
        slots.append(slot)
        note.xyann = (4, 4 + 16 * slot)  # each label near others gets a line of its own


def _vectors_2d(vectors: Any) -> np.ndarray:
    """Vectors of shape (2,) or (n, 2) as an (n, 2) float64 array."""
    v = _values(vectors, "vectors", min_ndim=1)
    if v.ndim > 2 or v.shape[-1] != 2:
        raise ValueError(
            f"vectors must have shape (2,) or (n, 2), one (x, y) row per arrow, got shape {v.shape}; "
            "project d-dimensional vectors into a plane first (embedlab.plane_basis(a, b) @ v)"
        )
    return v.reshape(-1, 2)  # (n, 2)


#: The line-style keywords :func:`curve` takes, by the kind of value each holds.
CURVE_TEXT_KEYWORDS = ("linestyle", "ls", "marker", "drawstyle", "solid_capstyle", "dash_capstyle")
CURVE_NUMBER_KEYWORDS = ("linewidth", "lw", "markersize", "ms", "markeredgewidth", "mew", "alpha", "zorder")
CURVE_COLOR_KEYWORDS = ("markerfacecolor", "mfc", "markeredgecolor", "mec")


def curve(x: Any, y: Any, ax: Axes | None = None, *, label: str | None = None, color: str = BLUE, **kw: Any) -> Any:
    """A line plot of ``y`` against ``x``; returns the ``Line2D``.

    ``kw`` takes the line's style: ``linestyle``/``ls``, ``marker``, ``drawstyle``, the cap styles
    (text); ``linewidth``/``lw``, ``markersize``/``ms``, ``markeredgewidth``/``mew`` (0, or 0.01 to 1000),
    ``alpha`` (0 to 1), ``zorder`` (numbers); the marker's colours (``mfc``, ``mec``).
    """
    xs = _values(x, "x", ndim=1)
    ys = _values(y, "y", ndim=1)
    if xs.shape != ys.shape:
        raise ValueError(f"x and y must have the same length, got {xs.size} and {ys.size}")
    label = None if label is None else _check_label(label, "label")
    ax = _ax(ax)
    known = (*CURVE_TEXT_KEYWORDS, *CURVE_NUMBER_KEYWORDS, *CURVE_COLOR_KEYWORDS)
    kw = {str.__str__(k): v for k, v in kw.items()}  # each keyword as the text it holds
    unknown = [short_repr(k, 60) for k in kw if k not in known]
    if unknown:
        raise TypeError(
            f"curve got keyword arguments it does not take: {', '.join(unknown[:5])}; it takes the line's style, "
            f"{', '.join(known)}"
        )
    color = _check_color(color, "color")
    for key, value in kw.items():
        if key in CURVE_TEXT_KEYWORDS:  # a line style or marker: short text, read as the text it holds
            if not issubclass(type(value), str):
                raise TypeError(f"{key} must be a str, got {_describe(value)}")
            if len(value) > 100:
                raise ValueError(f"{key} must be at most 100 characters, got {len(value):,}")
            kw[key] = str.__str__(value)
            if "$" in kw[key]:  # a math-text marker goes to matplotlib's TeX parser, which fails in many ways
                raise ValueError(f"{key} must be a name or symbol, not math text, got {short_repr(kw[key])}")
        elif key in CURVE_COLOR_KEYWORDS:
            kw[key] = _check_color(value, key)
        else:  # a width or a marker size: a few points, not 1e308 of them
            if issubclass(type(value), (bool, np.bool_)) or not is_a(value, numbers.Real):
                raise TypeError(f"{key} must be a number, got {_describe(value)}")
            kw[key] = number = check_real(value, key)
            if key == "alpha" and not 0 <= number <= 1:
                raise ValueError(f"alpha must be in [0, 1], got {short_repr(number)}")
            if not abs(number) <= 1000:
                raise ValueError(f"{key} must be at most 1000 in size, got {short_repr(number)}")
            if key != "zorder" and not (number == 0 or number >= 0.01):  # dashes scale with the width
                raise ValueError(f"{key} must be 0 or at least 0.01 points, got {short_repr(number)}")
    with style():
        try:
            (line,) = ax.plot(xs, ys, color=color, label=label, **kw)
        except (ValueError, TypeError, AttributeError, KeyError, RecursionError) as exc:  # a style it does not know
            raise ValueError(
                f"curve's keyword arguments {', '.join(sorted(kw))} must be values a line takes: "
                f"{short_repr(str(exc), 200)}"
            ) from None
    return line


def marker(x: float, y: float, ax: Axes | None = None, *, color: str = ORANGE, label: str | None = None) -> Any:
    """A single point, moved later with ``line.set_data([x], [y])``; returns the ``Line2D``."""
    x, y = _drawn_real(x, "x"), _drawn_real(y, "y")
    label = None if label is None else _check_label(label, "label")
    color = _check_color(color, "color")
    ax = _ax(ax)
    with style():
        (point,) = ax.plot([x], [y], "o", color=color, markersize=9, zorder=5, label=label)
    return point
