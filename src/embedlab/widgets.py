"""Thin interactive figures: one display object, alive in JupyterLab and in the static book.

An :class:`Explorer` wraps a kept matplotlib figure and a few :class:`Control` s. Its
``_repr_mimebundle_`` returns three formats of the same thing:

* the live ipywidgets view; JupyterLab ranks it first, so the learner sees only this. When every
  combination of values is pre-rendered (:attr:`Explorer.framed`), the browser itself swaps the
  frames on each move, over the background sent once (an anywidget view whose positions are
  linked to the sliders with ``jslink``, every frame decoded once and kept): no move waits for
  the kernel, and a drag shows the latest position, never a backlog. Otherwise (too many
  combinations) the same view is *fetched*: the kernel draws a frame (the moving artists alone,
  as a PNG) when the view lacks it; after each move it draws at once the frames the moved slider
  is heading for, and the others one step away once the hand rests, so a key press or a drag
  mostly finds its frame already in the page;
* ``text/html``: the same figure pre-rendered at every combination of the controls' static
  values, with ``<input type=range>`` controls that swap frames through an inline handler, so
  the book stays interactive without a kernel (no ids, no ``<script>``). The part of the figure
  that never moves is sent once, as the frames' CSS background; each frame holds only the moving
  artists on a transparent ground (lossless WebP), which keeps a sharp 2x figure small;
* a short stable ``text/plain``.

The maths under a figure lives in the tested modules; the ``setup`` function given to an
Explorer only draws and reports, and can be tested as a plain function (ipywidgets swallows
exceptions raised inside callbacks).
"""

from __future__ import annotations

import asyncio
import base64
import datetime
import functools
import html
import inspect
import io
import itertools
import math
import numbers
import struct
import sys
import time
import types
import warnings
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from PIL import Image

from . import display
from ._validation import (
    _EXACT_NUMBERS,
    _base_items,
    _describe,
    _is_one_of,
    _no_false_class,
    check_format,
    check_real,
    check_size,
    exact_int,
    exact_key,
    exact_real,
    frozen_copy,
    is_a,
    plain_items,
    plain_str,
    range_len,
    short_repr,
    type_name,
)
from .plots import new_figure, style

__all__ = [
    "MAX_CONTROL_VALUES",
    "MAX_DIGITS",
    "MAX_FRAMES",
    "MAX_SHOWN",
    "BandedPNG",
    "Control",
    "Explorer",
    "float_range",
    "png_bytes",
    "webp_bytes",
]

#: Most values a slider may hold: each is a position, and the static book may render each one.
MAX_CONTROL_VALUES = 100_000

#: Most pixels one encoded frame may have (a 2x figure of the book's width is about 1.5 million).
MAX_PIXELS = display.MAX_PIXELS

#: Longest text a control's fmt may show for one value (a slider's readout).
MAX_SHOWN = 1000

#: Longest readout text one update may return (the sentence under the figure, and each frame's alt text).
MAX_READOUT = 10_000

#: Most values of one control that are neither numbers nor str (each is compared with every value by ==).
MAX_OTHER_VALUES = 300

#: Most controls one Explorer may have (each multiplies the static frames).
MAX_CONTROLS = 8

#: Most pre-rendered frames an Explorer may ask of the static book (the product over its controls).
MAX_FRAMES = 4096

#: Frames a fetched view's kernel keeps drawn (a move back to one is sent without drawing it again).
MAX_KEPT_LAYERS = 512

#: Seconds without a move after which a fetched view's kernel draws the frames next to the last one.
AHEAD_AFTER = 0.1

#: Frames a fetched view's kernel draws at once in the direction a slider moves (a drag finds them ready).
AHEAD_STEPS = 32

#: ``update(**values) -> str``: redraws the kept figure's artists, returns a sentence saying what it shows.
Update = Callable[..., str]


def _finite(v: Any) -> bool:
    """Whether a float, complex or NumPy scalar is a number that equals itself (no NaN, inf or NaT)."""
    if issubclass(type(v), (np.datetime64, np.timedelta64)):
        return not np.isnat(v)
    return bool(np.isfinite(v))


@dataclass(frozen=True)
class Control:
    """A slider over a fixed list of values, so no position can leave the range it was built for.

    Parameters
    ----------
    name : str
        Keyword passed to the update function.
    label : str
        What the reader sees beside the slider (also its accessible name).
    values : sequence
        Allowed values, in slider order.
    value : optional
        Starting value (must be one of ``values``); default the first.
    fmt : str or callable, default "{}"
        How a value is shown to the reader: a format string or a function of the value
        returning a str. Every value is formatted once at construction, so a bad ``fmt``
        raises ``ValueError`` (or ``TypeError``) here rather than at the first redraw.
    static_every : int, default 1
        The static book pre-renders every ``static_every``-th value (ends always included),
        to keep pages small when several controls multiply their frames.
    """

    name: str
    label: str
    values: tuple[Any, ...]
    value: Any = None
    fmt: str | Callable[[Any], str] = "{}"
    static_every: int = 1

    def __post_init__(self) -> None:
        for field in ("name", "label"):
            if not issubclass(type(getattr(self, field)), str):
                raise TypeError(f"{field} of a control must be a str, got {_describe(getattr(self, field))}")
            object.__setattr__(self, field, plain_str(getattr(self, field)))  # the text it holds
        if len(self.name) > 100:  # a keyword of update, named in messages: never a huge one
            raise ValueError(f"name of a control must be at most 100 characters, got {len(self.name):,}")
        if not self.name.isidentifier():
            raise ValueError(
                f"name of a control must be a Python identifier (a keyword of update), got {short_repr(self.name)}"
            )
        if issubclass(type(self.values), (str, bytes)) or not is_a(self.values, Iterable):
            raise TypeError(f"values of control {self.name!r} must be a sequence, got {_describe(self.values)}")
        try:  # before building a tuple; a range longer than sys.maxsize too, a list's or tuple's by its own method
            size = range_len(self.values) if issubclass(type(self.values), (range, list, tuple)) else len(self.values)
        except TypeError:  # not sized, or a 0-d array (sized by type, not in fact): refused below if need be
            size = 0
        except Exception as exc:  # a __len__ of the caller's own that fails (or answers past sys.maxsize)
            raise TypeError(
                f"values of control {self.name!r} must be a sequence, got {_describe(self.values)} "
                f"whose len() fails ({type_name(exc)})"
            ) from None
        if size > MAX_CONTROL_VALUES:
            raise ValueError(
                f"values of control {self.name!r} must hold at most {MAX_CONTROL_VALUES:,} values, got {size:,}"
            )
        try:  # at most one value past the limit is read: an endless iterator is refused below, not exhausted
            # a list or tuple subclass is read by list's or tuple's own methods (its own iter never runs)
            items = _base_items_of(self.values)
            object.__setattr__(self, "values", tuple(itertools.islice(items, MAX_CONTROL_VALUES + 1)))
        except Exception as exc:  # a 0-d array (iterable by type, not in fact), or an iterator that fails
            raise TypeError(
                f"values of control {self.name!r} must be a sequence, got {_describe(self.values)} "
                f"that could not be read ({type_name(exc)})"
            ) from None
        if not self.values:
            raise ValueError(f"values of control {self.name!r} must not be empty")
        if any(v is None for v in self.values):  # a slider reads None as "nothing selected"
            raise ValueError(f"values of control {self.name!r} must not hold None (a slider reads it as no value)")
        if len(self.values) > MAX_CONTROL_VALUES:
            raise ValueError(
                f"values of control {self.name!r} must hold at most {MAX_CONTROL_VALUES:,} values, "
                f"got {len(self.values):,}"
            )
        # Numbers of a subclass (whose own ==, < or hash could raise or lie) become the plain numbers they hold.
        where = f"values of control {self.name!r}"
        object.__setattr__(self, "values", tuple(_plain(v, where) for v in self.values))
        for v in self.values:
            inexact = (float, complex, np.inexact, np.datetime64, np.timedelta64)
            if issubclass(type(v), np.ndarray) or (issubclass(type(v), inexact) and not _finite(v)):
                raise ValueError(
                    f"values of control {self.name!r} must be plain values (no arrays, NaN or inf), got {short_repr(v)}"
                )
        numeric = [_is_number(v) for v in self.values]
        if any(numeric) and not all(numeric):
            raise TypeError(
                f"values of control {self.name!r} must be all numbers or all other values, got "
                f"{short_repr(self.values, 80)}"
            )
        if any(issubclass(type(v), np.datetime64) for v in self.values) and any(
            issubclass(type(v), datetime.date) for v in self.values
        ):  # np.datetime64('2020') == date(2020, 1, 1), with another hash: a repeat no set would see
            raise TypeError(
                f"values of control {self.name!r} must not mix NumPy datetime64 with Python dates, got "
                f"{short_repr(self.values, 80)}"
            )
        try:
            distinct = len(set(self.values)) == len(self.values)
        except Exception:  # unhashable, or a __hash__ or __eq__ of the caller's own that fails
            raise TypeError(
                f"values of control {self.name!r} must be hashable plain values, got {short_repr(self.values, 80)}"
            ) from None
        if not distinct:
            raise ValueError(
                f"values of control {self.name!r} must not repeat a value, got {short_repr(self.values, 80)}"
            )
        others = [v for v in self.values if not _is_number(v) and type(v) is not str]
        if len(others) > MAX_OTHER_VALUES:  # each is compared with every value below: a long list would take long
            raise ValueError(
                f"values of control {self.name!r} must hold at most {MAX_OTHER_VALUES:,} values that are neither "
                f"numbers nor str, got {len(others):,}"
            )
        unequal = _unequal_pair(others, self.values) if others else None
        if unequal is not None:  # traitlets and ipywidgets compare a slider's values with ==: it must say False
            raise ValueError(
                f"values of control {self.name!r} must be told apart by ==, but {short_repr(unequal[0])} == "
                f"{short_repr(unequal[1])} gives {unequal[2]}"
            )
        clash = _numpy_equal_pair(self.values)
        if clash is not None:  # a slider (ipywidgets) finds a value by ==: it would pick the first of the two
            raise ValueError(
                f"values of control {self.name!r} must be told apart by ==, but NumPy's == cannot tell "
                f"{short_repr(clash[0])} from {short_repr(clash[1])} (it calls them equal, or overflows)"
            )
        # Each number by its exact value: NumPy's own == would round a listed number to its dtype first.
        numbers_at, others_at = {}, {}
        for i, v in enumerate(self.values):
            key = exact_key(v)
            if key is not None:
                numbers_at[(_kind(v), key)] = i
                continue
            try:
                others_at[v] = i  # hashable and distinct, as checked above
            except Exception:  # a __hash__ or __eq__ that failed only now
                raise TypeError(
                    f"values of control {self.name!r} must be hashable plain values, got {short_repr(v)}"
                ) from None
        if len(others_at) + len(numbers_at) != len(self.values):  # a hash that changed between two calls
            raise ValueError(
                f"values of control {self.name!r} must keep their hash: two of them fell together, "
                f"{short_repr(self.values, 80)}"
            )
        object.__setattr__(self, "_numbers_at", numbers_at)
        object.__setattr__(self, "_others_at", others_at)
        object.__setattr__(self, "value", _plain(self.value, f"value of control {self.name!r}"))
        if self.value is None:
            object.__setattr__(self, "value", self.values[0])
        elif (at := self._position(self.value)) is None:
            raise ValueError(f"value of control {self.name!r} must be one of its values, got {short_repr(self.value)}")
        else:  # the list's own element (2, not 2.0): every update gets the values of the list
            object.__setattr__(self, "value", self.values[at])
        object.__setattr__(self, "static_every", check_size(self.static_every, "static_every"))
        if not (issubclass(type(self.fmt), str) or callable(self.fmt)):
            raise TypeError(
                f"fmt of control {self.name!r} must be a format string or a callable, got {_describe(self.fmt)}"
            )
        if issubclass(type(self.fmt), str):
            object.__setattr__(self, "fmt", plain_str(self.fmt))  # its text: a subclass's own format never runs
            check_format(self.fmt, f"fmt of control {self.name!r}")
        # Format every value now, so a bad fmt fails here, at construction, not at the first redraw.
        labels = []
        for v in self.values:
            shown = self._format(v)
            if "|" in shown:  # the static page splits a slider's labels on "|"
                if self.fmt == "{}":  # the value's own text: the caller's values are what to change
                    raise ValueError(
                        f"values of control {self.name!r} must not show a '|' (the page splits a slider's labels "
                        f"on it), got {short_repr(v)}"
                    )
                raise ValueError(
                    f"fmt of control {self.name!r} must not show a '|', got {short_repr(shown)} for {short_repr(v)}"
                )
            labels.append(shown)
        object.__setattr__(self, "_shown", tuple(labels))  # the slider's text for each value, in order

    def _format(self, v: Any) -> str:
        """``v`` as fmt shows it, or a ValueError or TypeError naming fmt (a callable fmt may fail at any time)."""
        if issubclass(type(self.fmt), str) and _is_one_of(type(v), (np.longdouble, np.clongdouble)):
            # A format string reads a longdouble as a float64 (a complex one as a complex128): beyond float64's
            # range it would show inf or 0, with a warning.
            parts = (v.real, v.imag) if type(v) is np.clongdouble else (v,)
            if any(x != 0 and not sys.float_info.min <= abs(float(x)) < math.inf for x in parts):
                if self.fmt == "{}":
                    return str(v)  # NumPy's own text, to the value's full range
                raise ValueError(
                    f"fmt of control {self.name!r} cannot show the value {short_repr(v)}: a format string reads it "
                    "in float64, where it is out of range; use fmt='{}' or a callable"
                )
        try:
            shown = self.fmt(v) if callable(self.fmt) else self.fmt.format(v)
        except Exception as exc:
            raise ValueError(
                f"fmt of control {self.name!r} cannot show the value {short_repr(v)}: "
                f"{type_name(exc)}: {short_repr(str(exc), 80)}"
            ) from None
        if not issubclass(type(shown), str):
            raise TypeError(
                f"fmt of control {self.name!r} must return a str, got {_describe(shown)} for {short_repr(v)}"
            )
        shown = plain_str(shown)  # the text it holds: a subclass's own `in` or format never runs
        if len(shown) > MAX_SHOWN:
            raise ValueError(
                f"fmt of control {self.name!r} must show a value in at most {MAX_SHOWN} characters, "
                f"got {len(shown):,} for {short_repr(v)}"
            )
        return shown

    def _position(self, value: Any) -> int | None:
        """Where ``value`` is on the list, or None (``==`` that cannot raise: arrays compare elementwise).

        The values are distinct, so at most one equals ``value``; it must also be of its kind
        (True is not 1, nor 1+0j 1).
        """
        if issubclass(type(value), np.ndarray):
            return None
        key = exact_key(value)
        if key is not None:  # a number: found by its exact value
            return self._numbers_at.get((_kind(value), key))
        try:  # by hash, the listed object itself first: no == runs across the whole list
            at = self._others_at.get(value)
        except Exception:  # an unhashable value, or an == that fails (NumPy's across datetime64 units, say)
            return None
        return at if at is not None and _kind(self.values[at]) == _kind(value) else None

    def show(self, value: Any) -> str:
        """The text shown for ``value``, one of the control's values."""
        at = self._position(_plain(plain_str(value), f"value of control {self.name!r}"))  # by the value it holds
        if at is None:
            raise ValueError(f"value must be one of control {self.name!r}'s values, got {short_repr(value)}")
        return self._shown[at]  # as checked when the control was made

    def snap(self, value: Any) -> Any:
        """The allowed value nearest ``value``: a control never leaves the range it was built for.

        Numbers (Python's and NumPy's ints and floats) snap to the nearest number on the list (NaN
        to the starting value); any other value (a ``Fraction`` too) must be on the list. A ``Decimal``
        is refused, as a value and on the list: a class only registered as a number, whose own methods
        alone say what it holds.
        """
        value = _plain(value, self.name)
        at = self._position(value)
        if at is not None:
            return self.values[at]  # the list's own element (2, not 2.0)
        numeric = all(_is_number(v) for v in self.values)
        if not (numeric and _is_number(value)):
            shown = short_repr(", ".join(self.show(v) for v in self.values[:8]), 120).strip("'")
            if len(self.values) > 8:
                shown += f", ... ({len(self.values)} values)"
            raise ValueError(f"{self.name} must be one of {shown}, got {short_repr(value)}")
        x = _as_float(value)
        if math.isnan(x):
            return self.value
        # the ends by exact value: NumPy's own < would round a Python number to a NumPy value's dtype first
        lo, hi = min(self.values, key=_exact), max(self.values, key=_exact)
        if issubclass(type(value), (float, np.floating)) and np.isinf(value):  # a float +-inf: an end of the list
            return lo if value < 0 else hi
        if all(_in_float64(v) for v in self.values) and _in_float64(value):
            if x <= _as_float(lo) or x >= _as_float(hi):  # beyond an end (distances far out would round to ties)
                return lo if x <= _as_float(lo) else hi
            # every value a float64: the fast way. Rounding keeps the order of distances but can make two equal
            # (1 from -1e16 and from 1e16): the nearest is among the float-nearest, told apart exactly.
            gaps = [abs(_as_float(v) - x) for v in self.values]
            least = min(gaps)
            nearest = [v for v, g in zip(self.values, gaps, strict=True) if g == least]
            if len(nearest) == 1:
                return nearest[0]
            exact = _exact(value)
            return min(nearest, key=lambda v: abs(_exact(v) - exact))
        exact = _exact(value)  # ints beyond float64, or longdouble: compared exactly, not as +-inf
        return min(self.values, key=lambda v: abs(_exact(v) - exact))

    @property
    def static_values(self) -> tuple[Any, ...]:
        n = len(self.values)
        keep = set(range(0, n, self.static_every)) | {n - 1}  # ends always included
        at = self._position(self.value)
        if at is None:  # a value changed (its hash or ==) since the control was made
            raise ValueError(
                f"value of control {self.name!r} is no longer found among its values: "
                "a value changed after the control was made"
            )
        keep.add(at)  # the starting value always has a frame
        return tuple(self.values[i] for i in sorted(keep))


MAX_DIGITS = 341  # decimal places that still tell apart float64's smallest subnormals (4.9e-324)


def float_range(start: float, stop: float, step: float, digits: int = 6) -> tuple[float, ...]:
    """Evenly spaced floats from ``start`` to ``stop`` inclusive, rounded so labels stay clean.

    ``stop`` is included when it lies on the grid; no value ever passes it. ``digits`` counts
    decimal places (0 to ``MAX_DIGITS``), so a step of 1e-20 needs at least 20 of them.

    Raises
    ------
    TypeError, ValueError
        If an end or the step is not a finite real number, the step is 0 or points away from
        ``stop``, the range would hold more than ``MAX_CONTROL_VALUES`` values, or ``digits``
        places would merge values or pass ``stop`` (the message names the places that would not).

    Examples
    --------
    >>> float_range(-1, 1, 0.5)
    (-1.0, -0.5, 0.0, 0.5, 1.0)
    """
    given = (start, stop)
    start = check_real(start, "start")
    stop = check_real(stop, "stop")
    step = check_real(step, "step")
    if start == stop and all(is_a(x, numbers.Integral) for x in given) and int(given[0]) != int(given[1]):
        raise ValueError(
            f"start and stop must be distinct as float64s: {short_repr(given[0])} and {short_repr(given[1])} "
            f"are both {start:g}"
        )
    if issubclass(type(digits), (bool, np.bool_)) or not is_a(digits, numbers.Integral):
        raise TypeError(f"digits must be an int, got {_describe(digits)}")
    digits = exact_int(digits, "digits")
    if not 0 <= digits <= MAX_DIGITS:
        raise ValueError(
            f"digits must be in [0, {MAX_DIGITS}] (decimal places down to float64's smallest value, 4.9e-324, "
            f"and its 17 significant digits), got {short_repr(digits)}"
        )
    if step == 0.0:
        raise ValueError("step must be non-zero, got 0")
    if not math.isfinite(stop - start):
        raise ValueError(f"start and stop must lie less than 1.8e308 apart (a float64), got {start:g} and {stop:g}")
    if start == stop:  # one value: rounded as any start is, and refused below if rounding passes stop
        span = 0.0
    elif abs(step) < max(math.ulp(start), math.ulp(stop)):
        raise ValueError(
            f"step must be at least the spacing of floats at start and stop ({math.ulp(start):g} and "
            f"{math.ulp(stop):g}), or the values would not be distinct; got {step:g}"
        )
    elif (stop - start) / step < 0:
        raise ValueError(f"step must go from start to stop: got start={start:g}, stop={stop:g}, step={step:g}")
    else:
        span = (stop - start) / step
    if not span <= MAX_CONTROL_VALUES - 1:  # also catches an infinite span (finite ends, tiny step)
        raise ValueError(
            f"start, stop and step must make at most {MAX_CONTROL_VALUES:,} values: {start:g} to {stop:g} "
            f"in steps of {step:g} would make more"
        )
    values = _rounded_grid(start, stop, step, span, digits)
    if values is None:
        # Suggest places that keep the values apart and within stop: the six nearest the caller's (more
        # places first on a tie), then those from the step's leading digit on, then the next nearest. Past
        # 17 significant digits of the larger end rounding changes nothing, so no search goes beyond that.
        lead = -math.floor(math.log10(abs(step)))
        big = max(abs(start), abs(stop))
        last = min(MAX_DIGITS, 17 - math.floor(math.log10(big)) if big > 0 else MAX_DIGITS)
        near = sorted(range(last + 1), key=lambda k: (abs(k - digits), -k))[:25]
        order = [d for d in dict.fromkeys([*near[:6], *range(max(lead, 0), last + 1), *near]) if d != digits]
        tries = max(1, 2_000_000 // (int(span) + 1))  # about a second of rounding at most, then no suggestion
        enough = next((d for d in order[:tries] if _rounded_grid(start, stop, step, span, d)), None)
        raise ValueError(
            f"digits must keep every value distinct and within stop: {digits} decimal places round steps of "
            f"{step:g} from {start:g} onto repeated values or past {stop:g}"
            + (f"; digits={enough} keeps them" if enough is not None else "")
        )
    return values


def _rounded_grid(start: float, stop: float, step: float, span: float, digits: int) -> tuple[float, ...] | None:
    """The grid of float_range rounded to ``digits`` places, or None where rounding merges values or passes stop."""
    # Whole steps that fit. The slack covers 0.1-type rounding of step, and ends written in decimal that
    # float64 holds to half an ulp each (large ends a small step apart still reach stop); below 1/2 step.
    slack = 8 * sys.float_info.epsilon * max(1.0, span) + min(
        0.25, (math.ulp(start) + math.ulp(stop)) / (2 * abs(step))
    )
    n = math.floor(span + slack)
    values = tuple(round(start + i * step, digits) + 0.0 for i in range(n + 1))
    direction = 1.0 if step > 0 else -1.0
    # stop itself where the last value misses it by a few units of the last place (3 x 0.1 is 0.30000000000000004)
    values = tuple(stop if 0 < direction * (v - stop) <= 4 * math.ulp(stop) else v for v in values)
    past = any(direction * (v - stop) > 0 for v in values)  # no value passes stop, by any amount
    if past or any(direction * (b - a) <= 0 for a, b in itertools.pairwise(values)):
        return None
    return values


def png_bytes(fig: Any, *, colors: int | None = None) -> bytes:
    """Encode a drawn figure as PNG; ``colors`` quantizes to a palette (smaller frames for the book)."""
    display.check_figure(fig)
    colors = _check_colors(colors, "colors")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not issubclass(type(fig.canvas), FigureCanvasAgg):  # a bare Figure(): give it the off-screen canvas
        FigureCanvasAgg(fig)
    canvas = fig.canvas
    width, height = canvas.get_width_height()
    if getattr(canvas, "renderer", None) is None or canvas.buffer_rgba().nbytes != 4 * width * height:
        with display.quiet_layout(), display._drawing("fig"):
            canvas.draw()  # never drawn, or resized since: draw it, so the pixels are the whole figure's
    image = Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    image = image.convert("RGB")
    if colors:
        # Octree quantization: several times faster than median cut, and smaller files for plots.
        image = image.quantize(colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=9 if colors else 1)
    return out.getvalue()


def webp_bytes(rgba: np.ndarray) -> bytes:
    """Lossless WebP of an (h, w, 4) RGBA array: alpha and every visible pixel exact (the colour under
    a fully transparent pixel is not kept), and transparent areas cost almost nothing."""
    _check_rgba(rgba, "rgba")
    if rgba.shape[0] * rgba.shape[1] > MAX_PIXELS:
        raise ValueError(f"rgba must hold at most {MAX_PIXELS:,} pixels, got {rgba.shape[0]} x {rgba.shape[1]}")
    out = io.BytesIO()
    try:
        Image.fromarray(np.ascontiguousarray(rgba), "RGBA").save(
            out, format="WEBP", lossless=True, quality=50, method=4
        )
    except (OSError, ValueError) as exc:  # Pillow's encoder refusing an image it cannot hold
        raise ValueError(f"rgba could not be encoded as WebP ({exc})") from None
    return out.getvalue()


def _check_rgba(rgba: Any, name: str) -> None:
    """An image as the canvas gives it: a uint8 array (h, w, 4) with sides from 1 to 16383 (WebP's limit)."""
    if not (issubclass(type(rgba), np.ndarray) and rgba.dtype == np.uint8) or issubclass(type(rgba), np.ma.MaskedArray):
        raise TypeError(f"{name} must be a uint8 NumPy array of shape (h, w, 4), got {_describe(rgba)}")
    if rgba.ndim != 3 or rgba.shape[2] != 4 or not (1 <= min(rgba.shape[:2]) and max(rgba.shape[:2]) <= 16383):
        raise ValueError(f"{name} must have shape (h, w, 4) with sides from 1 to 16383, got {rgba.shape}")


def _png_chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def _adler32_combine(adler1: int, adler2: int, len2: int) -> int:
    """Adler-32 of A + B from those of A and B and B's length (zlib's ``adler32_combine``)."""
    base = 65521
    rem = len2 % base
    s1, s2 = adler1 & 0xFFFF, adler1 >> 16
    sum1 = (s1 + (adler2 & 0xFFFF) - 1) % base
    sum2 = (rem * s1 + s2 + (adler2 >> 16) - rem) % base
    return (sum2 << 16) | sum1


class BandedPNG:
    """PNG encoder for a figure redrawn over a fixed background: only the rows that differ are compressed.

    A sharp figure has ten times the pixels of the old 1x one, and compressing all of them on every
    slider move would triple the live view's latency. The image is cut into bands of ``band`` rows;
    each band is compressed as its own deflate segment (ended by a full flush, so segments can be
    joined), and a band whose pixels equal the background's reuses the background's segment. The
    result is one ordinary PNG (RGBA, 8 bit), identical in pixels to the canvas.
    """

    def __init__(self, background: np.ndarray, band: int = 16) -> None:
        _check_rgba(background, "background")
        if background.shape[0] * background.shape[1] > MAX_PIXELS:
            raise ValueError(f"background must hold at most {MAX_PIXELS:,} pixels, got {background.shape[:2]}")
        band = check_size(band, "band")
        # (h, w, 4) RGBA, its own copy, which no one can write or make writable: the cached segments are of it
        kept = frozen_copy(np.asarray(background, dtype=np.uint8))
        self._band = band
        self._background = kept
        self._h, self._w = kept.shape[:2]
        self._bg32 = kept.view(np.uint32)[..., 0]  # (h, w): one number per pixel
        self._bands = tuple((y, min(y + band, self._h)) for y in range(0, self._h, band))
        self._cached = [self._segment(kept[a:b]) for a, b in self._bands]
        ihdr = struct.pack(">IIBBBBB", self.w, self.h, 8, 6, 0, 0, 0)  # 8-bit RGBA
        self._head = b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr)
        self._tail = _png_chunk(b"IEND", b"")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # a copy or a pickle is made again by the constructor, over a background of its own no one can write
        return (type(self), (np.array(self._background), self._band))

    @property
    def background(self) -> np.ndarray:
        """The background, ``(h, w, 4)`` RGBA, read-only (the cached bands are of it)."""
        return self._background

    @property
    def bands(self) -> tuple[tuple[int, int], ...]:
        """The rows ``(start, stop)`` of each band."""
        return self._bands

    @property
    def h(self) -> int:
        """Height in pixels."""
        return self._h

    @property
    def w(self) -> int:
        """Width in pixels."""
        return self._w

    def _segment(self, rows: np.ndarray) -> tuple[bytes, int, int]:
        n = rows.shape[0]
        raw = np.empty((n, self._w * 4 + 1), np.uint8)  # each row: filter byte 0 (none), then RGBA
        raw[:, 0] = 0
        raw[:, 1:] = rows.reshape(n, self._w * 4)  # a plain copy: dropping alpha would cost more than it saves
        c = zlib.compressobj(1, zlib.DEFLATED, -15)  # raw deflate, fastest level
        return c.compress(raw) + c.flush(zlib.Z_FULL_FLUSH), zlib.adler32(raw), raw.size

    def encode(self, rgba: np.ndarray) -> bytes:
        """PNG of ``rgba`` (same shape as the background), compressing only the bands that differ."""
        _check_rgba(rgba, "rgba")
        if rgba.shape != self._background.shape:
            raise ValueError(f"rgba must have the background's shape {self._background.shape}, got {rgba.shape}")
        rgba = np.ascontiguousarray(rgba)
        dirty_rows = (rgba.view(np.uint32)[..., 0] != self._bg32).any(axis=1)  # (h,)
        dirty = np.logical_or.reduceat(dirty_rows, [a for a, _ in self._bands])  # (bands,)
        parts, adler = [b"\x78\x01"], 1  # zlib header: deflate, 32 KiB window, fastest
        for (a, b), cached, changed in zip(self._bands, self._cached, dirty, strict=True):
            data, band_adler, length = self._segment(rgba[a:b]) if changed else cached
            parts.append(data)
            adler = _adler32_combine(adler, band_adler, length)
        parts.append(zlib.compressobj(1, zlib.DEFLATED, -15).flush())  # an empty final block
        parts.append(struct.pack(">I", adler))
        return self._head + _png_chunk(b"IDAT", b"".join(parts)) + self._tail


# The live view of a framed explorer (an anywidget module). Every frame is sent once, as binary, and decoded
# once into an image the page keeps; a move (a slider's position, linked in the page) puts in a new <img> of
# the frame at the positions, which the browser draws in the next frame from the picture it already holds,
# and sets the readout in the same frame. A picture not yet decoded is put in once it is (the old one stays
# meanwhile): the axes never show empty. New elements, not a new src on one, so that each showing is a
# first paint the browser's Element Timing reports (the JupyterLab test measures with it).
_FRAMED_ESM = """
const HELD = 64;  // decoded frames a fetched view keeps at once (each is width x height x 4 bytes)
const KEPT = 1024;  // frames (PNG blobs) a fetched view keeps at once

function render({ model, el }) {
  const sizes = model.get("sizes"), fetched = model.get("fetched");
  const blob = (bytes, type) => URL.createObjectURL(new Blob([bytes], { type }));
  const urls = new Map(), texts = new Map(), held = new Map();  // frame k: its blob: URL, readout, decoded image
  const keep = (k, bytes, text) => {
    urls.set(k, blob(bytes, fetched ? "image/png" : "image/webp")); texts.set(k, text);
    const i = new Image(); i.src = urls.get(k); i.decode().catch(() => {});
    held.set(k, i);  // decoded once, before it is shown; a fetched view keeps the latest HELD decoded
    if (fetched && held.size > HELD) held.delete(held.keys().next().value);
    if (fetched && urls.size > KEPT) {  // and the latest KEPT frames: an older one is asked for again
      const old = urls.keys().next().value;
      URL.revokeObjectURL(urls.get(old)); urls.delete(old); texts.delete(old);
    }
  };
  if (fetched) keep(model.get("first"), model.get("frames")[0], model.get("texts")[0]);
  else model.get("frames").forEach((bytes, k) => keep(k, bytes, model.get("texts")[k]));
  const ground = blob(model.get("background"), "image/webp");
  const picture = (cls, src, alt) => {
    const i = document.createElement("img");
    i.className = cls; i.src = src; i.alt = alt;
    i.style.cssText = "grid-area:1/1/2/2;display:block;width:100%;height:auto;margin:0";
    return i;
  };
  const figure = document.createElement("div");
  figure.className = "embedlab-figure";
  figure.style.cssText = "display:grid;grid-template-columns:100%;max-width:100%;margin:2px;contain:layout paint";
  figure.style.width = `${model.get("css_width")}px`;  // its CSS size, half its pixels: sharp at 2x
  figure.append(picture("embedlab-background", ground, ""));
  const readout = document.createElement("p");
  readout.className = "embedlab-readout";
  const at = () => sizes.reduce((k, n, i) => k * n + model.get(`p${i}`), 0);  // the last control fastest
  let layer = null, wanted = -1;
  const show = () => {
    const k = at();
    wanted = k;
    if (!urls.has(k)) return;  // fetched, not here yet: the kernel sends it, and it is shown then
    const next = picture("embedlab-layer", urls.get(k), texts.get(k));
    const swap = () => {
      if (wanted !== k) return;  // a later move came first
      if (layer) layer.replaceWith(next); else figure.append(next);
      layer = next;
      readout.textContent = texts.get(k);
    };
    if (next.complete) swap(); else next.decode().then(swap, swap);
  };
  // A fetched view tells the kernel where it is, one message at a time: while one is answered, later
  // moves only update `wanted`, and the latest is sent when the answer comes (a drag leaves no backlog).
  let told = -1, asking = false;
  const tell = () => {
    if (asking || wanted === told) return;
    asking = true;
    model.send({ at: wanted, from: told, missing: !urls.has(wanted) });
    told = wanted;
  };
  const moved = () => { show(); if (fetched) tell(); };
  readout.textContent = texts.get(at()) ?? "";
  el.append(figure, readout);
  show();
  sizes.forEach((_, i) => model.on(`change:p${i}`, moved));
  if (fetched) {
    model.on("msg:custom", (msg, buffers) => {
      if (typeof msg.answered === "number") { asking = false; tell(); return; }  // the next position, if moved
      if (typeof msg.frame !== "number" || urls.has(msg.frame) || !buffers.length) return;
      keep(msg.frame, buffers[0], msg.text);
      if (msg.frame === wanted) show();
    });
    tell();  // its frame if it lacks it, and the frames around it
  }
  return () => { held.clear(); urls.forEach((u) => URL.revokeObjectURL(u)); URL.revokeObjectURL(ground); };
}
export default { render };
"""


@functools.cache
def _framed_view_class() -> type:
    """:class:`FramedView`'s class, made on first use (anywidget and traitlets are imported only for a live view).

    Its state: the frames (lossless WebP, sent as binary) and their readouts, the background, the number
    of values of each control, the CSS width, and ``p0`` ... ``p7``, the controls' positions.

    A *fetched* view starts with one frame (``first``) and receives the others from the kernel as
    custom messages ``{"frame": k, "text": readout}`` with the PNG as a buffer. On each move it tells
    the kernel where it is, ``{"at": k, "from": j, "missing": bool}``, one message at a time: the
    kernel sends frame ``k`` if the view lacks it, answers ``{"answered": k}``, then draws ahead
    (:meth:`Explorer._draw_ahead`).
    """
    import anywidget
    import traitlets

    def synced(trait: Any) -> Any:
        return trait.tag(sync=True)

    attributes = {
        "__doc__": "The browser side of a framed explorer: pre-rendered frames swapped by slider positions.",
        "__module__": __name__,
        "_esm": _FRAMED_ESM,
        "frames": synced(traitlets.List(traitlets.Bytes())),
        "texts": synced(traitlets.List(traitlets.Unicode())),
        "fetched": synced(traitlets.Bool(False)),  # frames come from the kernel as they are needed (PNG)
        "first": synced(traitlets.Int(0)),  # fetched: the index of the one frame the view starts with
        "background": synced(traitlets.Bytes()),
        "sizes": synced(traitlets.List(traitlets.Int())),
        "css_width": synced(traitlets.Int()),
        **{f"p{i}": synced(traitlets.Int(0)) for i in range(MAX_CONTROLS)},
    }
    return type("FramedView", (anywidget.AnyWidget,), attributes)


# Inline handler of the static explorer: mixed-radix index of the controls' positions selects a frame.
_HANDLER = (
    "var r=this.closest('.embedlab-explorer'),k=0;"
    "r.querySelectorAll('input[type=range]').forEach(function(e){"
    "k=k*(Number(e.max)+1)+Number(e.value);"
    "var s=e.dataset.labels.split('|')[Number(e.value)];"
    "e.setAttribute('aria-valuetext',s);e.parentNode.querySelector('output').textContent=s;});"
    "var f=r.querySelectorAll('img');"
    "f.forEach(function(m,i){m.hidden=(i!==k);m.style.display=(i!==k)?'none':'block';});"
    "r.querySelector('.embedlab-readout').textContent=f[k].alt;"
)


class Explorer:
    """A kept figure driven by sliders, live in JupyterLab and pre-rendered for the static book.

    Parameters
    ----------
    title : str
        What the figure explores; names the control group.
    controls : sequence of Control
    setup : callable
        ``setup(fig, axes) -> (update, artists)``. Draws the figure once; ``update(**values)``
        then moves ``artists`` (the only ones that change: lines, bars, arrows, texts) for new
        control values and returns a sentence saying what the figure shows (used as the
        readout and as the alt text of the static frames).
    figsize : (float, float)
        Proportions of the figure. The explorer lays every figure out at the book's width
        (:func:`embedlab.display.fitted_size`) and renders it at twice its CSS size, so it is
        sharp on high-density screens, fills the text column, and its text stays readable.
    ncols : int
        Number of axes side by side passed to ``setup``.
    """

    def __init__(
        self,
        title: str,
        controls: Sequence[Control],
        setup: Callable[[Any, Any], tuple[Update, Sequence[Any]]],
        *,
        figsize: tuple[float, float] = (6.0, 3.2),
        ncols: int = 1,
    ) -> None:
        if not issubclass(type(title), str):
            raise TypeError(f"title must be a str, got {_describe(title)}")
        title = plain_str(title)  # the text it holds
        if len(title) > 1000:
            raise ValueError(f"title must be at most 1,000 characters, got {len(title):,}")
        # read by list's or tuple's own methods: a subclass's own iterator or len never runs
        self._controls = tuple(plain_items(controls, "controls", "a list or tuple of Control"))
        self._title = title
        if len(self.controls) > MAX_CONTROLS:
            raise ValueError(f"controls must hold at most {MAX_CONTROLS} controls")
        for c in self.controls:
            if not issubclass(type(c), Control):
                raise TypeError(f"controls must be a sequence of Control, got an item {_describe(c)}")
        if not self.controls:
            raise ValueError("controls must hold at least one Control (a figure without one needs no explorer)")
        names = [c.name for c in self.controls]
        if len(set(names)) != len(names):
            raise ValueError(
                f"controls must have unique names (each is a keyword of update), got {short_repr(names, 80)}"
            )
        if math.prod(len(c.values) for c in self.controls) > 2**53:  # a live frame's index, exact in the page
            raise ValueError("controls must have at most 2**53 combinations of values (the live view numbers them)")
        n_frames = math.prod(len(c.static_values) for c in self.controls)
        if n_frames > MAX_FRAMES:
            raise ValueError(
                f"controls would need {n_frames:,} pre-rendered frames for the static book, more than {MAX_FRAMES:,}; "
                "raise static_every on some controls"
            )
        if not callable(setup) or issubclass(type(setup), type):  # a class makes an object, not (update, artists)
            raise TypeError(f"setup must be a function setup(fig, axes) -> (update, artists), got {_describe(setup)}")
        try:
            inspect.signature(setup).bind(None, None)
        except TypeError:
            raise TypeError(f"setup must accept two arguments, setup(fig, axes), got {_describe(setup)}") from None
        except ValueError:  # some builtins have no signature to inspect: let the call decide
            pass
        except Exception as exc:  # a callable whose own __signature__ or attributes fail
            raise TypeError(
                f"setup must be a function setup(fig, axes), got {_describe(setup)}, whose signature cannot be read "
                f"({type_name(exc)})"
            ) from None
        size = display.check_figsize(figsize, "figsize")  # a pair of inches: a tuple, list or 1-D array
        fitted = display.fitted_size(size)
        if fitted[1] * display.DPI < 2:  # laid out at the book's width: under a CSS pixel tall
            raise ValueError(
                f"figsize must not be so wide for its height that the figure, laid out {display.FIGURE_WIDTH:g} "
                f"inches wide, is under one CSS pixel tall; got {short_repr(figsize)}"
            )
        wide, tall = fitted[0] * display.DPI, fitted[1] * display.DPI
        if not wide * tall <= display.MAX_PIXELS:  # display.fit's own test, with the caller's figsize named
            raise ValueError(
                f"figsize must fit the book's width ({display.FIGURE_WIDTH:g} inches) in at most "
                f"{display.MAX_PIXELS:,} pixels, got {display._short(figsize)}: "
                f"{display._pixels(wide)} x {display._pixels(tall)} pixels once fitted"
            )
        if issubclass(type(ncols), (bool, np.bool_)) or not is_a(ncols, numbers.Integral):
            raise TypeError(f"ncols must be a positive int, got {_describe(ncols)}")
        ncols = exact_int(ncols, "ncols")
        if not 1 <= ncols <= 16:
            raise ValueError(f"ncols must be in [1, 16], got {short_repr(ncols)}")
        self._stale = False  # the kept figure lags the values (a framed view's move): drawn when next read
        self._syncing = False  # the view's sliders being moved to the kept values: their handlers wait
        self._fig, self._axes = new_figure(fitted, int(ncols))
        display.fit(self._fig)  # the book's width and resolution: CSS_WIDTH css px, PIXEL_RATIO x that in pixels
        with style():  # titles and labels set in setup take the package style too
            made = setup(self._fig, self._axes)  # errors raised inside the caller's setup are theirs, unchanged
        try:  # setup may have resized the figure: its pixels are checked before anything is drawn
            display.check_figure(self._fig, "fig")
        except ValueError as exc:
            raise ValueError(f"setup must leave the figure drawable: {exc}") from None
        pair = plain_items(made, "setup's result", "a pair") if issubclass(type(made), tuple) else None
        if not (pair is not None and len(pair) == 2 and callable(pair[0])):  # read by tuple's own methods
            _close_coroutine(made)
            raise TypeError(f"setup must return a pair (update, artists) with update callable, got {_describe(made)}")
        self._update, dynamic = pair
        if issubclass(type(dynamic), (str, bytes)) or not is_a(dynamic, Iterable):
            _close_coroutine(dynamic)
            raise TypeError(f"setup must return a sequence of artists as its second item, got {_describe(dynamic)}")
        if not issubclass(type(dynamic), (list, tuple)):
            raise TypeError(
                f"setup must return a list or tuple of artists as its second item, got {_describe(dynamic)}"
            )
        dynamic = plain_items(dynamic, "setup's artists", "a list or tuple")  # read by list's or tuple's own methods
        try:
            self._dynamic = list(_flatten_artists(dynamic))
        except RecursionError:
            raise TypeError("setup must return artists as its second item, got a list that contains itself") from None
        except Exception as exc:  # an item whose own attributes fail, or hold no artists
            raise TypeError(
                f"setup must return matplotlib artists as its second item, got an item that is not one "
                f"({type_name(exc)})"
            ) from None
        from matplotlib.artist import Artist

        for artist in self._dynamic:
            if not issubclass(type(artist), Artist):
                raise TypeError(f"setup must return matplotlib artists as its second item, got {_describe(artist)}")
        for artist in self._dynamic:
            artist.set_animated(True)  # left out of the background, drawn on top at each update
        self._values = {c.name: c.value for c in self.controls}
        self._background: Any = None
        self._encoder: BandedPNG | None = None
        self._frames: list[tuple[bytes, str]] | None = None
        self._layers: dict[int, tuple[bytes, str]] = {}  # a fetched view's frames drawn so far (the latest kept)
        self._layer_encoder: BandedPNG | None = None
        self._widget: Any = None
        self._readout = self.update()

    # -- the maths-free core, testable without a browser ------------------------------------
    def update(self, **changes: Any) -> str:
        """Apply control values (snapped to their lists), redraw the kept figure, return the readout.

        Only the artists that move are redrawn, over a saved background (blitting): axes, ticks
        and labels are drawn once.
        """
        values, moved = self._snapped(changes)
        readout = self._render(values)
        self._values, self._readout = values, readout
        if self._widget is not None:  # shown: its sliders move too, and a fetched view gets the new frame
            self._move_sliders(moved)
            k = self._index(values)
            if not self.framed and k not in self._sent:  # the artists are at values already
                self._send_layer(k, readout)
        return self._readout

    def _snapped(self, changes: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
        """The values after ``changes`` (each snapped to its control's list) and the names of the controls moved.

        Every change is checked before any is kept: a refused call leaves values, readout and figure as they were.
        """
        values, moved = dict(self._values), set()
        for name, value in changes.items():
            c = self._control(name)
            values[c.name] = c.snap(value)
            moved.add(c.name)  # the control's own name: a caller's str subclass is not compared again
        return values, moved

    def _render(self, values: dict[str, Any], draw: bool = True) -> str:
        """Draw the kept figure at ``values`` (or, without ``draw``, only move its artists there) and return
        its readout, keeping nothing else; if it is refused, the artists and the figure are put back at
        :attr:`values`."""
        drawn = False
        try:
            readout = self._update(**values)  # moves the artists: from here, a failure moves them back
            if not issubclass(type(readout), str):
                _close_coroutine(readout)
                raise TypeError(f"setup's update must return the readout text, a str, got {_describe(readout)}")
            readout = plain_str(readout)  # the text it holds: a subclass's own methods never run
            if len(readout) > MAX_READOUT:
                raise ValueError(
                    f"setup's update must return a readout of at most {MAX_READOUT:,} characters, got {len(readout):,}"
                )
            self._check_drawable()
            drawn = True
            if draw:
                self._draw()
        except BaseException:
            self._put_back(drawn)
            raise
        return readout

    def _move_sliders(self, names: set[str]) -> None:
        """The shown sliders of ``names`` to the kept values, without their handlers running again."""
        self._syncing = True
        try:
            for c, slider in zip(self.controls, self._sliders, strict=True):
                if c.name in names:
                    slider.index = c._position(self._values[c.name])
        finally:
            self._syncing = False

    def _check_drawable(self) -> None:
        """Refuse what setup's update did that no drawing can show: a moving artist taken out, a resize."""
        for artist in self._dynamic:
            if artist.get_figure(root=True) is not self._fig:
                raise ValueError("setup's update must keep its moving artists in the figure; one was removed from it")
        if self._encoder is None:  # the first drawing: the figure as setup and its update left it, checked first
            from matplotlib.backends.backend_agg import FigureCanvasAgg

            if type(self._fig.canvas) is not FigureCanvasAgg:
                raise ValueError("setup must leave the figure its Agg canvas (it is drawn and encoded off-screen)")
            try:
                display.check_figure(self._fig, "fig")
            except ValueError as exc:
                raise ValueError(f"setup must leave the figure drawable: {exc}") from None
            return
        if self._fig.canvas is not self._canvas:
            raise ValueError("setup's update must keep the figure's canvas; it gave the figure another")
        if (tuple(self._fig.get_size_inches()), self._fig.dpi) != self._size:
            raise ValueError("setup's update must keep the figure's size and resolution; it changed them")

    def _draw(self) -> None:
        """Draw the moving artists, at the values ``setup``'s update last gave them, over the background."""
        canvas = self._fig.canvas
        with display._drawing("setup's figure"):
            if self._background is None:
                with display.quiet_layout():
                    canvas.draw()  # runs the layout once and draws everything that does not move
                # Freeze the layout: the constrained-layout solver would otherwise rerun on each draw.
                self._fig.set_layout_engine("none")
                self._background = canvas.copy_from_bbox(self._fig.bbox)
                self._encoder = BandedPNG(np.asarray(canvas.buffer_rgba()))
                self._size = (tuple(self._fig.get_size_inches()), self._fig.dpi)  # kept: a resize is refused
                self._canvas = canvas
            else:
                canvas.restore_region(self._background)
            for artist in self._dynamic:
                self._fig.draw_artist(artist)
        self._stale = False

    def _put_back(self, drawn: bool) -> None:
        """After a refused update: the artists back at the kept values and, if ``drawn`` (the canvas was drawn
        on) or the figure was resized, the figure drawn again; if that fails too, it is drawn when next read."""
        if self._background is None:  # the first drawing failed: there is no explorer to put back
            return
        # setup's update may have drawn on the canvas itself (canvas.draw, savefig): drawn again whenever every
        # moving artist is still there to draw; without one, the canvas is left as it is
        drawn = drawn or all(a.get_figure(root=True) is self._fig for a in self._dynamic)
        try:
            if self._fig.canvas is not self._canvas:  # another canvas: its own back
                self._fig.set_canvas(self._canvas)
                drawn = True
            size, dpi = self._size
            if tuple(self._fig.get_size_inches()) != size or self._fig.dpi != dpi:  # resized: its own size back
                self._fig.set_size_inches(size, forward=False)
                self._fig.set_dpi(dpi)
                drawn = True
            self._update(**self._values)
            if drawn:
                self._draw()
        except Exception:  # the first failure is the one reported
            self._stale = True

    def _redraw(self) -> None:
        """The kept figure drawn at :attr:`values`; :attr:`readout` stays the one noted with them."""
        self._update(**self._values)
        self._check_drawable()
        self._draw()

    @property
    def fig(self) -> Any:
        """The kept matplotlib figure, drawn at the current :attr:`values`."""
        if self._stale:  # a framed view's moves were noted, not drawn: draw them now
            self._redraw()
        return self._fig

    @property
    def axes(self) -> Any:
        """The figure's axes, as ``setup`` received them, drawn at the current :attr:`values`."""
        self.fig  # noqa: B018  (brings the drawing up to date)
        return self._axes

    def _follow(self, c: Control, value: Any) -> None:
        """Note a framed view's move: the values and the readout of its frame, the drawing left for later.

        The browser already shows the pre-rendered frame; redrawing the kept figure on every move
        would only take CPU from the browser painting it. :attr:`fig`, :meth:`png` and the next
        :meth:`update` draw it when it is read.
        """
        values = dict(self._values)
        values[c.name] = value  # one of c's own values: the slider's position
        k = self._index(values)
        if self.framed:
            frames = self._frames if self._frames is not None else self.frames()  # made once, read without a copy
            text = frames[k][1]
        else:  # fetched: the frame drawn now if need be, and sent if the view lacks it (the view asks for more)
            text = self._layer(k)[1]
            if k not in self._sent:
                self._send_layer(k)
            try:  # a slider moved: the frames around wait until the hand rests
                self._moved_at = asyncio.get_running_loop().time()
            except RuntimeError:  # outside a kernel's event loop: nothing is drawn ahead
                pass
        self._values, self._readout, self._stale = values, text, True

    def _control(self, name: str) -> Control:
        name = plain_str(name)  # compared as the text it holds
        for c in self.controls:
            if c.name == name:
                return c
        raise ValueError(
            f"no control named {short_repr(name)}; the controls are {short_repr([c.name for c in self.controls], 200)}"
        )

    def png(self, colors: int | None = None) -> bytes:
        """The figure as drawn now, as a PNG (``colors`` quantizes it)."""
        return png_bytes(self.fig, colors=colors)

    def live_png(self) -> bytes:
        """The figure as drawn now, as the live view sends it: same pixels as :meth:`png`, made faster."""
        assert self._encoder is not None  # set by the first update, in __init__
        return self._encoder.encode(np.asarray(self.fig.canvas.buffer_rgba()))

    @property
    def css_size(self) -> tuple[int, int]:
        """(width, height) in CSS pixels the figure is shown at: half its pixels, at most."""
        return display.css_size(self.fig)

    def timed_update(self, **changes: Any) -> float:
        """Apply ``changes`` as a shown view's move does, and return the seconds of kernel work it took
        (``make bench``): for an explorer whose frames the kernel draws (not :attr:`framed`), drawing
        the moving artists at the new values and encoding them as the PNG the view is sent, never
        reusing a frame drawn before; for a framed one, noting the values (the browser shows the frame)."""
        values, moved = self._snapped(changes)
        k = self._index(values)
        if self.framed:
            self.frames()  # rendered once, before a view is shown
        else:
            self._layers.pop(k, None)  # drawn afresh, as for a frame the view has not been sent
        t0 = time.perf_counter()
        text = self._frames[k][1] if self.framed else self._layer(k)[1]  # type: ignore[index]
        elapsed = time.perf_counter() - t0
        self._values, self._readout, self._stale = values, text, True
        if self._widget is not None:  # shown: its sliders move too, and a fetched view gets the frame
            self._move_sliders(moved)
            if not self.framed and k not in self._sent:
                self._send_layer(k)
        return elapsed

    # -- live view ------------------------------------------------------------------------
    @property
    def framed(self) -> bool:
        """Whether every combination of values is pre-rendered (no ``static_every`` above 1).

        Then the live view swaps the pre-rendered frames in the browser, as the book does: a move
        waits for no kernel. Otherwise the kernel draws the live view's frames as they are needed,
        and ahead of the hand.
        """
        return all(len(c.static_values) == len(c.values) for c in self.controls)

    def widget(self) -> Any:
        """The ipywidgets view: one slider per control above the figure and its readout.

        When the explorer is :attr:`framed`, the figure and readout are one anywidget view holding
        the background and every pre-rendered frame (sent once, as binary, and decoded once in the
        page), whose positions are linked in the browser (``jslink``) to the sliders: a key press or
        a drag shows the frame for the sliders' latest positions in the next frame the browser
        paints, and no move waits for the kernel (which still follows: :attr:`values` and
        :attr:`readout` are the slider's at once, and the kept figure is drawn at them when it is
        next read, so no redraw takes CPU from the browser's paint). Otherwise the view is
        fetched (:meth:`_fetched_view`): it holds the frames the kernel has sent, shows one at
        once when it has it, and else when it arrives; the kernel draws ahead of each move. A
        frame is swapped in once decoded: a move never shows the axes empty. Calling
        :meth:`update` once the view is shown moves its sliders too.
        """
        if self._widget is not None:
            return self._widget
        import ipywidgets as w

        sliders = []
        for c in self.controls:
            slider = w.SelectionSlider(
                options=list(zip(c._shown, c.values, strict=True)),  # no search per value: a long list is quick
                index=c._position(self._values[c.name]),  # by its exact value, not by NumPy's == (which rounds)
                equals=_same,  # ipywidgets finds a value by ==, which may round, fail, or call two values equal
                description=c.label,
                continuous_update=True,
                style={"description_width": "initial"},
                layout=w.Layout(width="95%"),
            )
            # by its position: traitlets compares an old value with a new one by ==, which may call two equal
            slider.observe(self._on_change(c), names="index")
            sliders.append(slider)
        # Shown at its CSS size (half its pixels), never stretched to the cell's width, so it stays
        # sharp; a narrower output area shrinks it.
        css_w, _ = self.css_size
        # its readout within it, changed in the same frame; the kernel sends nothing on a move it has a frame for
        figure = self._framed_view(w, sliders, css_w) if self.framed else self._fetched_view(w, sliders, css_w)
        parts = [*sliders, figure]
        self._sliders = sliders
        self._widget = w.VBox(parts, layout=w.Layout(width="100%"))
        return self._widget

    def _framed_view(self, w: Any, sliders: list[Any], css_w: int) -> Any:
        """The figure and readout of a framed view (:class:`FramedView`), each position linked to its slider."""
        frames = self.frames()
        positions = {f"p{i}": c._position(self._values[c.name]) for i, c in enumerate(self.controls)}
        view = _framed_view_class()(
            frames=[frame for frame, _ in frames],
            texts=[text for _, text in frames],
            background=self.background(),
            sizes=[len(c.values) for c in self.controls],
            css_width=css_w,
            **positions,
        )
        # The browser shows the frame, not the kernel: each slider's position is the view's, linked in the page.
        self._links: list[Any] = [w.jslink((s, "index"), (view, f"p{i}")) for i, s in enumerate(sliders)]
        return view

    def _fetched_view(self, w: Any, sliders: list[Any], css_w: int) -> Any:
        """The figure and readout of a view whose frames the kernel draws as they are needed (and just ahead).

        Too many combinations to pre-render (C's 9,261): the view starts with the frame at the
        sliders' positions; on a move it shows the frame at once if it has it, and otherwise when the
        kernel sends it. After each move the kernel draws ahead (:meth:`_draw_ahead`), one frame per
        turn of its event loop, so a key press or a drag mostly finds its frame already in the page.
        """
        k = self._index(self._values)
        layer, text = self._layer(k, None if self._stale else self._readout)  # not stale: the artists are at values
        self._sent: set[int] = {k}
        self._ahead = 0  # bumped by each move: the frames drawn ahead for an older position stop
        self._moved_at = -math.inf  # the event loop's time of the latest move the kernel heard of
        view = _framed_view_class()(
            frames=[layer],
            texts=[text],
            fetched=True,
            first=k,
            background=self.background(),
            sizes=[len(c.values) for c in self.controls],
            css_width=css_w,
            **{f"p{i}": c._position(self._values[c.name]) for i, c in enumerate(self.controls)},
        )
        view.on_msg(self._on_view_msg)
        self._view = view
        self._links: list[Any] = [w.jslink((s, "index"), (view, f"p{i}")) for i, s in enumerate(sliders)]
        return view

    def _index(self, values: dict[str, Any]) -> int:
        """The frame index of ``values`` over the controls' live values (the last control fastest)."""
        k = 0
        for c in self.controls:
            k = k * len(c.values) + c._position(values[c.name])
        return k

    def _positions(self, k: int) -> list[int]:
        """Each control's position in frame ``k`` (the inverse of :meth:`_index`)."""
        out = []
        for c in reversed(self.controls):
            k, p = divmod(k, len(c.values))
            out.append(p)
        return out[::-1]

    def _layer(self, k: int, text: str | None = None) -> tuple[bytes, str]:
        """Frame ``k`` of a fetched view: the moving artists alone on a transparent ground (PNG), and its
        readout. Kept (the latest :data:`MAX_KEPT_LAYERS`); the kept figure is drawn again when next read.
        Given ``text``, the artists are already at frame ``k``'s values, with that readout."""
        made = self._layers.get(k)
        if made is None:
            if text is None:
                positions = self._positions(k)
                values = {c.name: c.values[p] for c, p in zip(self.controls, positions, strict=True)}
                text = self._render(values, draw=False)  # the artists moved; drawn below, alone
            renderer = self._fig.canvas.get_renderer()
            renderer.clear()  # transparent
            for artist in self._dynamic:
                self._fig.draw_artist(artist)
            self._stale = True  # the canvas holds this layer alone: the figure is drawn at the values when read
            if self._layer_encoder is None:
                self._layer_encoder = BandedPNG(np.zeros_like(self._encoder.background))  # type: ignore[union-attr]
            made = (self._layer_encoder.encode(np.asarray(self._fig.canvas.buffer_rgba())), text)
            self._layers[k] = made
            if len(self._layers) > MAX_KEPT_LAYERS:
                del self._layers[next(iter(self._layers))]  # the oldest
        return made

    def _send_layer(self, k: int, text: str | None = None) -> None:
        """Send frame ``k`` to the fetched view (every copy of it shown keeps it); ``text`` as for :meth:`_layer`."""
        layer, text = self._layer(k, text)
        self._view.send({"frame": k, "text": text}, [layer])
        self._sent.add(k)

    def _on_view_msg(self, view: Any, content: Any, buffers: Any) -> None:
        """A fetched view moved to frame ``at`` from ``from``: its frame if it lacks it, then frames ahead."""
        if not issubclass(type(content), dict):
            return
        n = math.prod(len(c.values) for c in self.controls)
        at, came = content.get("at"), content.get("from")
        if type(at) is not int or not 0 <= at < n:  # from the page's own script: anything else is ignored
            return
        try:
            if content.get("missing") is True or at not in self._sent:
                self._send_layer(at)
        finally:  # answered, whatever happened: the view sends its latest position next
            view.send({"answered": at})
        self._draw_ahead(at, came if type(came) is int and 0 <= came < n else None)

    def _ahead_of(self, k: int, came: int | None) -> tuple[list[int], list[int]]:
        """Frames near ``k``, in two lists: those the hand is heading for (the moved slider's next
        :data:`AHEAD_STEPS` in its direction, drawn at once, even mid-drag), and the rest one step away
        (drawn once the hand rests)."""
        here = self._positions(k)
        heading: list[tuple[int, int]] = []
        if came is not None:
            moved = [i for i, (a, b) in enumerate(zip(here, self._positions(came), strict=True)) if a != b]
            if len(moved) == 1:
                i = moved[0]
                step = 1 if here[i] > self._positions(came)[i] else -1
                heading = [(i, n * step) for n in range(1, AHEAD_STEPS + 1)]
        around = [(i, s) for i in range(len(self.controls)) for s in (1, -1)]

        def frames(order: list[tuple[int, int]], seen: list[int]) -> list[int]:
            out = []
            for i, step in order:
                p = here[i] + step
                if 0 <= p < len(self.controls[i].values):
                    j = self._index({c.name: c.values[p if n == i else here[n]] for n, c in enumerate(self.controls)})
                    if j not in out and j not in seen:
                        out.append(j)
            return out

        first = frames(heading, [])
        return first, frames(around, first)

    def _draw_ahead(self, k: int, came: int | None) -> None:
        """Draw and send frames near ``k``, one per turn of the kernel's event loop (a move that arrives
        meanwhile is handled first, and stops this round): those the hand is heading for at once, the
        rest one step away once no move has come for :data:`AHEAD_AFTER` seconds."""

        self._ahead += 1
        round_ = self._ahead
        heading, around = self._ahead_of(k, came)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (outside a kernel): nothing is drawn ahead
            return
        self._moved_at = loop.time()

        def step(todo: list[int], then: list[int] | None) -> None:
            if round_ != self._ahead:  # a later move: its own round draws around it
                return
            if then is None and loop.time() - self._moved_at < AHEAD_AFTER:  # the hand moved a slider since
                loop.call_later(AHEAD_AFTER, step, todo, None)
                return
            while todo:
                j = todo.pop(0)
                if j not in self._sent:
                    try:
                        self._send_layer(j)
                    except Exception:  # setup's update refuses that value: the reader sees why on moving there
                        return
                    loop.call_soon(step, todo, then)
                    return
            if then is not None:  # the hand's next frames are in the page: the rest once it rests
                loop.call_later(AHEAD_AFTER, step, then, None)

        loop.call_soon(step, heading, around)

    def _on_change(self, control: Control) -> Callable[[dict[str, Any]], None]:
        def handler(change: dict[str, Any]) -> None:
            if self._syncing:  # moved by update itself, to the values it has just drawn
                return
            value = control.values[change["new"]]  # the slider's position: the listed value itself
            try:
                self._follow(control, value)  # the browser shows the frame; the kernel notes the values
            except BaseException:  # a fetched frame setup's update refuses: the slider back where the figure is
                self._move_sliders({control.name})
                raise

        return handler

    # -- static view ----------------------------------------------------------------------
    def background(self) -> bytes:
        """The parts of the figure that never move (axes, ticks, labels), as a lossless WebP."""
        assert self._encoder is not None
        return webp_bytes(self._encoder.background)

    def frames(self) -> list[tuple[bytes, str]]:
        """The moving artists alone on a transparent ground (lossless WebP) and the readout, at
        every combination of the controls' static values (last control fastest).

        Laid over :meth:`background`, a frame is the figure at that combination. Rendered once
        (the book's page and the live view share them); later calls return the same list.
        """
        if self._frames is not None:
            return list(self._frames)
        renderer = self.fig.canvas.get_renderer()
        out = []
        try:  # each frame drawn at its values; the explorer's own values, readout and sliders never change
            for combo in itertools.product(*(c.static_values for c in self.controls)):
                text = self._render({**self._values, **dict(zip((c.name for c in self.controls), combo, strict=True))})
                renderer.clear()  # transparent
                for artist in self._dynamic:
                    self._fig.draw_artist(artist)
                out.append((webp_bytes(np.asarray(self._fig.canvas.buffer_rgba())), text))
        finally:  # every frame made or not, the figure is drawn again at the explorer's values
            self._put_back(drawn=True)
        self._frames = out
        return list(out)

    @property
    def values(self) -> dict[str, Any]:
        """The value of each control, by name: a copy (move a control with :meth:`update`)."""
        return dict(self._values)

    @property
    def readout(self) -> str:
        """The sentence saying what the figure shows at :attr:`values`."""
        return self._readout

    @property
    def title(self) -> str:
        """What the figure explores (read-only: the frames and the live view are made for it)."""
        return self._title

    @property
    def controls(self) -> tuple[Control, ...]:
        """The sliders, in order (read-only: the frames and the live view are made for them)."""
        return self._controls

    def to_html(self) -> str:
        """Self-contained HTML: range inputs that swap pre-rendered frames, no script and no ids."""
        esc = html.escape
        frames = self.frames()
        statics = [c.static_values for c in self.controls]
        # Start each control at the pre-rendered value nearest its current one.
        start = [
            min(range(len(s)), key=lambda i, c=c, s=s: abs(c._position(s[i]) - c._position(self._values[c.name])))
            for c, s in zip(self.controls, statics, strict=True)
        ]
        k0 = 0
        for s, i in zip(statics, start, strict=True):
            k0 = k0 * len(s) + i
        parts = [f'<div class="embedlab-explorer" role="group" aria-label="{esc(self.title)}">']
        parts.append(f'<p class="embedlab-title"><strong>{esc(self.title)}</strong></p>')
        for c, s, i in zip(self.controls, statics, start, strict=True):
            shown = [c.show(v) for v in s]
            parts.append(
                f'<label class="embedlab-control"><span>{esc(c.label)}</span> '
                f'<input type="range" min="0" max="{len(s) - 1}" step="1" value="{i}" '
                f'data-labels="{esc("|".join(shown))}" aria-valuetext="{esc(shown[i])}" '
                f'oninput="{esc(_HANDLER)}"> <output>{esc(shown[i])}</output></label>'
            )
        # Shown at most at its CSS size (half its pixels), shrunk in narrower columns.
        css_w, css_h = self.css_size
        bg = base64.b64encode(self.background()).decode("ascii")
        # The layout is inline too: JupyterLab shows a stored output without the book's stylesheet.
        parts.append(
            f'<div class="embedlab-figure" style="max-width:{css_w}px;width:100%;'
            f"background-size:100% 100%;background-repeat:no-repeat;"
            f'background-image:url(data:image/webp;base64,{bg})">'
        )
        for k, (frame, text) in enumerate(frames):
            data = base64.b64encode(frame).decode("ascii")
            shown = k == k0
            parts.append(
                f'<img src="data:image/webp;base64,{data}" alt="{esc(text)}" width="{css_w}" height="{css_h}" '
                f'style="display:{"block" if shown else "none"};width:100%;height:auto"{"" if shown else " hidden"}>'
            )
        parts.append("</div>")
        parts.append(f'<p class="embedlab-readout" aria-live="polite">{esc(frames[k0][1])}</p></div>')
        return "\n".join(parts)

    def __repr__(self) -> str:
        names = ", ".join(c.label for c in self.controls)
        return f"Explorer: {self.title} (controls: {names})"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        bundle: dict[str, Any] = {"text/plain": repr(self), "text/html": self.to_html()}
        try:
            view = self.widget()._repr_mimebundle_()
        except Exception:  # no kernel with a widget comm (e.g. plain IPython): the static form still shows
            view = None
        if view:
            bundle.update({k: v for k, v in view.items() if k != "text/plain"})
        return bundle


def _readout_html(text: str) -> str:
    return f'<p class="embedlab-readout">{html.escape(text)}</p>'


def _img_html(image: bytes, cls: str, alt: str, kind: str = "webp") -> str:
    """An image (lossless WebP or PNG) as an ``<img>`` with a data: URL, as wide as its container: a browser
    draws it in the frame it is inserted, where an Image widget's new blob: URL shows nothing for a frame
    or two while it loads."""
    src = f"data:image/{kind};base64," + base64.b64encode(image).decode("ascii")
    style = "display:block;width:100%;height:auto;margin:0"
    return f'<img class="{cls}" src="{src}" alt="{html.escape(alt, quote=True)}" style="{style}">'


def _check_colors(colors: Any, name: str) -> int | None:
    """None (full colour) or a palette size in [2, 256]."""
    if colors is None:
        return None
    if issubclass(type(colors), (bool, np.bool_)) or not is_a(colors, numbers.Integral):
        raise TypeError(f"{name} must be None or an int in [2, 256], got {_describe(colors)}")
    colors = exact_int(colors, name)
    if not 2 <= colors <= 256:
        raise ValueError(f"{name} must be None or an int in [2, 256] (a PNG palette), got {short_repr(colors)}")
    return int(colors)


def _in_float64(x: Any) -> bool:
    """Whether float64 holds ``x`` exactly enough to compare: a float64 or narrower, or an int within 2**53."""
    if is_a(x, numbers.Integral):
        return abs(int(x)) <= 2**53
    return type(x) is not np.longdouble and math.isfinite(_as_float(x))


def _unequal_pair(others: list[Any], values: tuple[Any, ...]) -> tuple[Any, Any, str] | None:
    """A value of ``others`` and another of ``values`` whose ``==`` (either way round) gives anything but
    False, with what it gave, or None. (Two datetime64 of different units may be equal, or raise
    OverflowError; a tuple may equal a NumPy value elementwise.)"""
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning is an answer other than False too
        for a in others:
            for b in values:
                if a is b:
                    continue
                for x, y in ((a, b), (b, a)):
                    try:
                        same = x == y
                        if _is_one_of(type(same), (bool, np.bool_)) and not same:
                            continue
                        what = "True" if _is_one_of(type(same), (bool, np.bool_)) else f"a {type_name(same)}"
                    except (KeyboardInterrupt, SystemExit):  # the reader's own stop: theirs
                        raise
                    except BaseException as exc:  # GeneratorExit, or a BaseException of the caller's own
                        what = type_name(exc)
                    return x, y, what
    return None


def _close_coroutine(x: Any) -> None:
    """Close a refused coroutine (an ``async def`` setup or update), so it never warns "never awaited"."""
    if type(x) is types.CoroutineType:
        x.close()


def _same(x: Any, y: Any) -> bool:
    """Whether two control values are the same value: of one kind and exactly equal numbers, the same
    text, or the same object (a slider's own ``==``, never NumPy's, which rounds and may raise)."""
    if x is y:
        return True
    kx, ky = exact_key(x), exact_key(y)
    if kx is not None and ky is not None:
        return _kind(x) == _kind(y) and kx == ky
    return type(x) is str and type(y) is str and x == y


def _exact(x: Any) -> Fraction:
    """The exact value of a finite real number (an int, a float, a NumPy scalar of any width)."""
    if is_a(x, numbers.Integral):
        return Fraction(int(x))
    return Fraction(*x.as_integer_ratio())


def _as_float(x: Any) -> float:
    """``float(x)``, with ints too large for a float taken as +-inf rather than an OverflowError."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def _kind(x: Any) -> str:
    """What a control value is, for equality: a bool, a complex number, or anything else."""
    if issubclass(type(x), (bool, np.bool_)):
        return "bool"
    return "complex" if issubclass(type(x), (complex, np.complexfloating)) else "other"


def _numpy_equal_pair(values: tuple[Any, ...]) -> tuple[Any, Any] | None:
    """A listed NumPy float or complex and a listed Python number that NumPy's ``==`` calls equal though their
    values differ (``np.float32(0.1) == 0.1``: the Python number is rounded to the NumPy value's dtype), or None."""
    # A NumPy int beside an inexact value is read in the dtype NumPy's == promotes the two to (float64 for an
    # int64 beside a float32 or a Python float): np.int64(2**53 + 1) == np.float32(2**53)
    int_kinds = {type(v) for v in values if _is_one_of(type(v), _INT_NUMPY)}
    inexact_kinds = {
        type(v) for v in values if _is_one_of(type(v), _INEXACT_NUMPY) or _is_one_of(type(v), (float, complex))
    }
    for fkind in inexact_kinds:
        for ikind in int_kinds:
            common = np.result_type(ikind, fkind).type  # Python's float and complex: float64 and complex128
            with np.errstate(all="ignore"):  # exact for the inexact values: common is at least as wide
                listed = {exact_key(common(v)): v for v in values if type(v) is fkind}
                for v in values:
                    if type(v) is ikind:
                        key = exact_key(common(v))  # rounded, or inf beyond the dtype's range (no key)
                        if key is not None and key in listed and exact_key(listed[key]) != exact_key(v):
                            return v, listed[key]
    python = [v for v in values if _is_one_of(type(v), (int, float, complex))]
    kinds = {type(v) for v in values if _is_one_of(type(v), _INEXACT_NUMPY)}
    for kind in kinds:
        listed = {exact_key(v): v for v in values if type(v) is kind}
        for x in python:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a complex cast to a real dtype, say: not a clash
                try:
                    rounded = kind(x)  # how NumPy's == reads x beside a value of this kind
                except OverflowError:  # NumPy's == raises too (an int beyond float64 beside a float64)
                    return next(iter(listed.values())), x
                except (TypeError, ValueError):
                    continue
            key = exact_key(rounded)
            # beyond the kind's range: NumPy's == warns, overflowing
            if key is None and _is_one_of(type(x), (int, float)):
                return next(iter(listed.values())), x
            if key in listed and key != exact_key(x):
                return listed[key], x
    return None


_INT_NUMPY = frozenset(np.dtype(c).type for c in "bBhHiIlLqQ")
_INEXACT_NUMPY = frozenset(
    {np.float16, np.float32, np.float64, np.longdouble, np.complex64, np.complex128, np.clongdouble}
)


def _is_number(x: Any) -> bool:
    """Whether ``x`` is a real number, judged by its type (an object cannot pass for one by lying)."""
    return issubclass(type(x), (int, float, np.integer, np.floating)) and not issubclass(type(x), (bool, np.bool_))


def _base_items_of(x: Any) -> Iterator[Any]:
    """The items of a list or tuple (a subclass too) by its base type's own methods; of anything else, its iterator."""
    if issubclass(type(x), list):
        return _base_items(x, list)
    if issubclass(type(x), tuple):
        return _base_items(x, tuple)
    return iter(x)


def _plain(x: Any, name: str) -> Any:
    """A number of a subclass as the plain number it holds; any other value as it is."""
    if _is_one_of(type(x), _EXACT_NUMBERS):
        return x
    _no_false_class(x, name)
    # a complex or str of a subclass, whose own == could pick another value: the plain value it holds
    if issubclass(type(x), complex):
        return complex(complex.real.__get__(x), complex.imag.__get__(x))
    if issubclass(type(x), str):
        return str.__str__(x)
    return exact_real(x, name) if _is_number(x) else x


def _flatten_artists(items: Any) -> Any:
    """Artists from artists, bar containers (bars and their value labels) and quivers (with labels)."""
    from matplotlib.artist import Artist
    from matplotlib.container import BarContainer

    for item in items:
        if issubclass(type(item), BarContainer):  # from plots.bars (a tuple: test it first)
            yield from item.patches
            yield from getattr(item, "annotations", [])
        elif issubclass(type(item), (list, tuple)):
            yield from _flatten_artists(plain_items(item, "setup's artists", "a list or tuple"))
        else:
            yield item
            if issubclass(type(item), Artist):
                yield from getattr(item, "labels", [])  # Quiver from plots.arrows
