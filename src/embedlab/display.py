"""How big a figure is shown, and how it stays sharp: one geometry for every figure of the book.

Every figure, an explorer's or a notebook's static one, is laid out :data:`FIGURE_WIDTH` inches
wide and shown :data:`CSS_WIDTH` CSS pixels wide (or narrower, when the column is narrower),
rendered with :data:`PIXEL_RATIO` device pixels per CSS pixel so it is sharp on high-density
screens. One point of text is then ``CSS_WIDTH / FIGURE_WIDTH / 72`` CSS pixels (about 1.56):
the style's smallest text, 9 pt, is 14 CSS px at full width and still 12.5 CSS px in the
narrowest desktop column the book is designed for (:data:`NARROWEST_COLUMN`, sphinx-book-theme
at 1280 px; measured columns there run from 624 to 895 CSS px).

This module imports matplotlib only inside its functions, so ``import embedlab`` stays NumPy-only.
"""

from __future__ import annotations

import io
import math
import numbers
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from ._validation import is_a

__all__ = [
    "CSS_WIDTH",
    "DPI",
    "FIGURE_WIDTH",
    "MAX_INCHES",
    "MAX_PIXELS",
    "MIN_INCHES",
    "MIN_TEXT_CSS_PX",
    "NARROWEST_COLUMN",
    "PIXEL_RATIO",
    "check_figsize",
    "check_figure",
    "css_size",
    "figure_png",
    "fit",
    "fitted_size",
    "notebook_setup",
    "quiet_layout",
    "text_sizes_css",
]

#: Width (CSS px) a figure is shown at when the column allows it; narrower columns shrink it.
CSS_WIDTH = 720
#: Device pixels per CSS pixel the figures are rendered with (2 = sharp on "retina" screens).
PIXEL_RATIO = 2
#: Width (inches) every figure is laid out at; text sizes in points are relative to it.
FIGURE_WIDTH = 6.4
#: Narrowest column (CSS px) a desktop reader sees a figure in: text must stay readable there.
NARROWEST_COLUMN = 640
#: Smallest text (CSS px) allowed at the narrowest column: body text is 16 px.
MIN_TEXT_CSS_PX = 12.0

#: Rendering resolution: FIGURE_WIDTH inches become CSS_WIDTH * PIXEL_RATIO pixels.
DPI = CSS_WIDTH * PIXEL_RATIO / FIGURE_WIDTH
#: Largest side (inches) a figure may be given: 100 inches at :data:`DPI` is 22,500 pixels.
MAX_INCHES = 100.0
#: Smallest side (inches) a figure may be given: about one pixel at :data:`DPI` (a fitted figure is at least two).
MIN_INCHES = 0.005
#: Most pixels a figure may be drawn with (a 2x figure of the book's width is about 1.5 million).
MAX_PIXELS = 2**24


def _check_name(name: Any) -> str:
    """The name an error message will give the argument: a short plain str."""
    if not issubclass(type(name), str):
        raise TypeError(f"name must be a str (the argument's name in messages), got {_short(name)}")
    name = str.__str__(name)
    if not 0 < len(name) <= 100:
        raise ValueError(f"name must be 1 to 100 characters (the argument's name in messages), got {len(name):,}")
    return name


def check_figsize(figsize: Any, name: str = "figsize") -> tuple[float, float]:
    """``figsize`` as two floats: (width, height) in inches, each from :data:`MIN_INCHES` to :data:`MAX_INCHES`."""
    from ._validation import exact_real, plain_items

    name = _check_name(name)

    if issubclass(type(figsize), (list, tuple)):  # a subclass too (a namedtuple), read by the base type's methods
        pair = plain_items(figsize, name, "a (width, height) pair of inches")
    elif type(figsize) is np.ndarray and figsize.ndim == 1 and figsize.size == 2:  # sized before it is listed
        pair = list(figsize)
    else:
        pair = ()
    if len(pair) != 2:
        raise TypeError(f"{name} must be a (width, height) pair of inches, got {_short(figsize)}")
    sides = []
    for side in pair:
        if issubclass(type(side), (bool, np.bool_)) or not is_a(side, numbers.Real):
            raise TypeError(f"{name} must be a pair of real numbers of inches, got {_short(figsize)}")
        side = exact_real(side, name)
        if type(side) in (np.float16, np.float32):  # compared as the float64 it is exactly, not in its own dtype
            side = float(side)
        if not MIN_INCHES <= side <= MAX_INCHES:  # compared before any conversion: an int past float range too
            raise ValueError(
                f"{name} must be two positive numbers of inches, from {MIN_INCHES:g} to {MAX_INCHES:g}, "
                f"got {_short(figsize)}"
            )
        sides.append(float(side))
    return sides[0], sides[1]


def _check_figure_type(fig: Any, name: str) -> None:
    """A matplotlib ``Figure`` of finite, positive size in inches (its pixels are checked apart)."""
    from matplotlib.figure import Figure

    if not issubclass(type(fig), Figure):
        from ._validation import type_name

        raise TypeError(f"{name} must be a matplotlib Figure, got {type_name(fig)}")
    with np.errstate(all="ignore"):
        w, h = (float(x) for x in fig.get_size_inches())
    if not (math.isfinite(w) and math.isfinite(h) and w > 0 and h > 0):
        raise ValueError(f"{name} must have a finite, positive size in inches, got {w:.4g} x {h:.4g}")


def check_figure(fig: Any, name: str = "fig") -> Any:
    """``fig`` if it is a matplotlib ``Figure`` drawable at its own size and dpi; else an error naming ``name``."""
    name = _check_name(name)
    _check_figure_type(fig, name)
    # Its size in pixels, checked before anything is drawn: at least one pixel each way, at most MAX_PIXELS.
    with np.errstate(all="ignore"):
        w, h = (float(x) * float(fig.dpi) for x in fig.get_size_inches())
    if not (math.isfinite(w) and math.isfinite(h) and w >= 1 and h >= 1 and w * h <= MAX_PIXELS):
        raise ValueError(
            f"{name} must be a figure of at least one pixel each way and at most {MAX_PIXELS:,} pixels, "
            f"got {w:.4g} x {h:.4g} pixels (size in inches times dpi)"
        )
    return fig


def _short(value: Any) -> str:
    from ._validation import short_repr

    base = tuple if issubclass(type(value), tuple) else list if issubclass(type(value), list) else None
    if base is not None and base.__len__(value) <= 4:  # a figsize, read by the base type's own methods
        inner = ", ".join(short_repr(v, 28) for v in base.__iter__(value))  # each side cut on its own (10**5000)
        text = f"({inner}{',' if base.__len__(value) == 1 else ''})" if base is tuple else f"[{inner}]"
    elif type(value) is np.ndarray and value.ndim == 1 and value.size <= 4:  # its numbers, not its shape alone
        if value.dtype.kind in "biuf":  # each number as its own dtype prints it: a float16 0.001 as 0.001
            parts = [str(v)[:28] for v in value]
        else:  # objects and the rest: each item as short_repr shows it
            parts = [short_repr(v, 28) for v in value.tolist()]
        text = f"array([{', '.join(parts)}])"
    else:
        return short_repr(value, 60)
    return text if len(text) <= 60 else text[:57] + "..."


def _pixels(count: float) -> str:
    """A pixel count as a message gives it: 11,652, or 1.165e+20 past what a whole number shows well."""
    return f"{count:,.0f}" if count < 1e12 else f"{count:.4g}"


def fitted_size(figsize: tuple[float, float]) -> tuple[float, float]:
    """The size a figure is laid out at: :data:`FIGURE_WIDTH` wide.

    A narrower figure keeps its height (its axes get more room; an equal-aspect plot gets margins),
    a wider one keeps its aspect ratio. The height is nudged to a whole number of CSS pixels, so the
    rendered image is exactly ``PIXEL_RATIO`` times its CSS size.

    Examples
    --------
    >>> [round(x, 3) for x in fitted_size((4.4, 4.4))]
    [6.4, 4.4]
    >>> [round(x, 3) for x in fitted_size((12.8, 4.0))]
    [6.4, 2.0]
    """
    return _fitted(*check_figsize(figsize))


def _fitted(w: float, h: float) -> tuple[float, float]:
    """:func:`fitted_size` of a checked, finite, positive (width, height)."""
    h = h if w <= FIGURE_WIDTH else h * (FIGURE_WIDTH / w)  # the ratio first: 1e308 x 1e308 fits too
    if not math.isfinite(h * DPI):  # a figure's own size may be any finite one
        raise ValueError(f"fig must be a figure of finite size, got {w:.4g} x {h:.4g} inches")
    css_h = max(1, round(h * DPI / PIXEL_RATIO))
    # a hair over the exact height: matplotlib truncates the pixel size, and 675.9999 would lose a row;
    # but no more than MAX_INCHES for a height that was at most that (MAX_INCHES * DPI is whole pixels)
    height = (css_h * PIXEL_RATIO + 1e-3) / DPI
    return (FIGURE_WIDTH, min(height, MAX_INCHES) if h <= MAX_INCHES else height)


def fit(fig: Any) -> Any:
    """Give ``fig`` the book's geometry in place: :func:`fitted_size` at :data:`DPI`. Returns ``fig``."""
    _check_figure_type(fig, "fig")
    size = _fitted(*(float(x) for x in fig.get_size_inches()))  # any finite positive size fits
    with np.errstate(all="ignore"):
        pixels = size[0] * DPI * size[1] * DPI
    if not pixels <= MAX_PIXELS:  # checked before the figure is changed
        raise ValueError(
            f"fig must fit the book's width in at most {MAX_PIXELS:,} pixels, got a figure of "
            f"{_pixels(size[0] * DPI)} x {_pixels(size[1] * DPI)} pixels once fitted"
        )
    fig.set_size_inches(*size, forward=False)
    fig.set_dpi(DPI)
    return fig


def css_size(fig: Any) -> tuple[int, int]:
    """CSS pixels (width, height) a fitted figure is shown at: its pixel size over :data:`PIXEL_RATIO`."""
    check_figure(fig)
    w, h = fig.get_size_inches() * fig.dpi / PIXEL_RATIO
    return round(w), round(h)


def text_sizes_css(fig: Any, shown_width: float | None = None) -> list[tuple[str, float]]:
    """(text, size in CSS px) of every visible, non-empty text of a drawn figure shown ``shown_width`` CSS px wide.

    ``shown_width`` defaults to the figure's own CSS width (:func:`css_size`).
    """
    from matplotlib.text import Text

    check_figure(fig)
    if shown_width is not None:
        if issubclass(type(shown_width), (bool, np.bool_)) or not is_a(shown_width, numbers.Real):
            from ._validation import type_name

            raise TypeError(f"shown_width must be a number of CSS pixels, got {type_name(shown_width)}")
        from ._validation import check_real

        shown_width = check_real(shown_width, "shown_width", finite=False)  # a plain float (a float16 too)
        if not 0 < shown_width < 1e9:  # a Python int beyond float range compares without overflowing
            raise ValueError(f"shown_width must be a positive number of CSS px below 1e9, got {_short(shown_width)}")
    width_in = fig.get_size_inches()[0]
    shown = css_size(fig)[0] if shown_width is None else shown_width
    px_per_pt = shown / width_in / 72
    # Tick labels of ticks outside the view exist but are never drawn: count only the drawn ones.
    every_tick_label, drawn_tick_labels = set(), set()
    with np.errstate(all="ignore"):  # the tick locators' own arithmetic on data near float64's limits
        for ax in fig.axes:
            for axis in (ax.xaxis, ax.yaxis):
                for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                    every_tick_label.update((id(tick.label1), id(tick.label2)))
                drawn_tick_labels.update(id(t) for t in axis.get_ticklabels(which="both"))
        texts = fig.findobj(Text)
    out = []
    for t in texts:
        if id(t) in every_tick_label and id(t) not in drawn_tick_labels:
            continue
        if t.get_visible() and t.get_text().strip():
            out.append((t.get_text(), t.get_fontsize() * px_per_pt))
    return out


@contextmanager
def _geometry(fig: Any) -> Iterator[Any]:
    """Temporarily fit ``fig``: a notebook's figure keeps the size its code gave it."""
    size, dpi = tuple(fig.get_size_inches()), fig.dpi
    try:  # restored if fitting refuses too: a refused figure is left as it was
        fit(fig)
        yield fig
    finally:
        fig.set_size_inches(*size, forward=False)
        fig.set_dpi(dpi)


@contextmanager
def _drawing(name: str = "fig") -> Iterator[None]:
    """Draw, refusing by ``name`` (a ``ValueError``) a figure matplotlib cannot render as typed: FreeType's
    and Agg's failures (a text hundreds of thousands of points tall) are ``RuntimeError`` s, math text that
    does not parse a ``ValueError`` naming nothing, and a character without a glyph only a warning."""
    # matplotlib's own arithmetic on data near float64's limits (tick locators) may overflow: that is
    # its business while it draws, not a warning to the caller
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        # a glyph the fonts lack is drawn as an empty box: refused as text the figure cannot show
        warnings.filterwarnings("error", message=r"Glyph \d+ .*missing from font", category=UserWarning)
        try:
            yield
        except UserWarning as exc:
            raise ValueError(f"{name} must hold text its fonts can draw: {str(exc)[:200]}") from None
        except (RuntimeError, ValueError) as exc:  # FreeType, Agg, and math text that does not parse
            if issubclass(type(exc), ValueError) and f"{name} must" in str(exc):
                raise
            raise ValueError(
                f"{name} must hold what matplotlib can draw; drawing it failed: {' '.join(str(exc).split())[:200]}"
            ) from None


@contextmanager
def quiet_layout() -> Iterator[None]:
    """Draw without matplotlib's warning that constrained layout gave up (axes too small for their labels,
    a very long label): the figure is then drawn with its plain layout, which is the caller's to judge."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="constrained_layout not applied", category=UserWarning)
        yield


def figure_png(fig: Any) -> tuple[bytes, dict[str, int]]:
    """A figure as a sharp PNG and its display metadata: ``PIXEL_RATIO`` x the pixels of its CSS width.

    The metadata gives only the width (``{"width": CSS_WIDTH}``): Jupyter Book writes it as the
    image's CSS width and the theme's ``max-width: 100%`` shrinks it in a narrower column, keeping
    its aspect; JupyterLab does the same.
    """
    _check_figure_type(fig, "fig")  # its pixels are checked once fitted (it is drawn at the book's size)
    out = io.BytesIO()
    with _geometry(fig), quiet_layout(), _drawing("fig"):
        fig.savefig(out, format="png", dpi=DPI, facecolor="white", metadata={"Software": None})
        width = css_size(fig)[0]
    return out.getvalue(), {"width": width}


def notebook_setup() -> None:
    """Set a notebook up for the book's figures: package style, sharp column-wide inline images.

    Call once in a notebook's setup cell, after ``%matplotlib inline``. Every matplotlib figure a
    cell then shows (``fig`` as a cell's last line, or pyplot's own figures) is laid out
    :data:`FIGURE_WIDTH` inches wide, rendered at :data:`PIXEL_RATIO` x its CSS width, and shown
    :data:`CSS_WIDTH` CSS px wide at most. Outside IPython only the style is set.
    """
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    from .plots import STYLE

    plt.style.use(STYLE)
    try:
        from IPython import get_ipython
    except ImportError:  # plain Python: nothing displays figures
        return
    shell = get_ipython()
    if shell is None:
        return
    formatters = shell.display_formatter.formatters
    formatters["image/png"].for_type(Figure, figure_png)
    for mime in ("image/svg+xml", "image/jpeg", "application/pdf"):  # one picture per figure, the sharp one
        formatters[mime].pop(Figure, None)
