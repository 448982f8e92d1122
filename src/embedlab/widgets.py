"""Thin interactive figures: one display object, alive in JupyterLab and in the static book.

An :class:`Explorer` wraps a kept matplotlib figure and a few :class:`Control` s. Its
``_repr_mimebundle_`` returns three formats of the same thing:

* the live ipywidgets view (sliders plus an image redrawn by updating artists, never a new
  figure); JupyterLab ranks it first, so the learner sees only this;
* ``text/html``: the same figure pre-rendered at every combination of the controls' static
  values, with ``<input type=range>`` controls that swap frames through an inline handler, so
  the book stays interactive without a kernel (no ids, no ``<script>``);
* a short stable ``text/plain``.

The maths under a figure lives in the tested modules; the ``setup`` function given to an
Explorer only draws and reports, and can be tested as a plain function (ipywidgets swallows
exceptions raised inside callbacks).
"""

from __future__ import annotations

import base64
import html
import io
import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image

from .plots import new_figure, style

#: ``update(**values) -> str``: redraws the kept figure's artists, returns a sentence saying what it shows.
Update = Callable[..., str]


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
        How a value is shown to the reader: a format string or a function of the value.
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
        object.__setattr__(self, "values", tuple(self.values))
        if not self.values:
            raise ValueError(f"values of control {self.name!r} must not be empty")
        if self.value is None:
            object.__setattr__(self, "value", self.values[0])
        elif self.value not in self.values:
            raise ValueError(f"value of control {self.name!r} must be one of its values, got {self.value!r}")
        if not isinstance(self.static_every, int) or self.static_every < 1:
            raise ValueError(f"static_every must be a positive int, got {self.static_every!r}")

    def show(self, value: Any) -> str:
        return self.fmt(value) if callable(self.fmt) else self.fmt.format(value)

    def snap(self, value: Any) -> Any:
        """The allowed value nearest ``value``: a control never leaves the range it was built for.

        Numbers snap to the nearest number on the list (NaN to the starting value); any other
        value must be on the list.
        """
        if value in self.values:
            return self.values[self.values.index(value)]  # the list's own element (2, not 2.0)
        numeric = all(_is_number(v) for v in self.values)
        if not (numeric and _is_number(value)):
            shown = ", ".join(self.show(v) for v in self.values)
            raise ValueError(f"{self.name} must be one of {shown}, got {value!r}")
        try:
            x = float(value)
        except OverflowError:  # an int too large for a float
            x = math.inf if value > 0 else -math.inf
        if math.isnan(x):
            return self.value
        lo, hi = min(self.values), max(self.values)
        if x <= lo:
            return lo
        if x >= hi:
            return hi
        return min(self.values, key=lambda v: abs(float(v) - x))

    @property
    def static_values(self) -> tuple[Any, ...]:
        picked = list(self.values[:: self.static_every])
        if picked[-1] != self.values[-1]:
            picked.append(self.values[-1])
        if self.value not in picked:  # the starting value always has a frame
            picked = sorted(set(picked) | {self.value}, key=self.values.index)
        return tuple(picked)


def float_range(start: float, stop: float, step: float, digits: int = 6) -> tuple[float, ...]:
    """Evenly spaced floats from ``start`` to ``stop`` inclusive, rounded so labels stay clean.

    Examples
    --------
    >>> float_range(-1, 1, 0.5)
    (-1.0, -0.5, 0.0, 0.5, 1.0)
    """
    n = round((stop - start) / step)
    return tuple(round(start + i * step, digits) + 0.0 for i in range(n + 1))


def png_bytes(fig: Any, *, colors: int | None = None) -> bytes:
    """Encode a drawn figure as PNG; ``colors`` quantizes to a palette (smaller frames for the book)."""
    canvas = fig.canvas
    image = Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    image = image.convert("RGB")
    if colors:
        # Octree quantization: several times faster than median cut, and smaller files for plots.
        image = image.quantize(colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=9 if colors else 1)
    return out.getvalue()


# Inline handler of the static explorer: mixed-radix index of the controls' positions selects a frame.
_HANDLER = (
    "var r=this.closest('.embedlab-explorer'),k=0;"
    "r.querySelectorAll('input[type=range]').forEach(function(e){"
    "k=k*(Number(e.max)+1)+Number(e.value);"
    "var s=e.dataset.labels.split('|')[Number(e.value)];"
    "e.setAttribute('aria-valuetext',s);e.parentNode.querySelector('output').textContent=s;});"
    "var f=r.querySelectorAll('img');"
    "f.forEach(function(m,i){m.hidden=(i!==k);});"
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
        static_colors: int = 48,
    ) -> None:
        self.title = title
        self.controls = tuple(controls)
        names = [c.name for c in self.controls]
        if len(set(names)) != len(names):
            raise ValueError(f"control names must be unique, got {names}")
        self.fig, self.axes = new_figure(figsize, ncols)
        with style():  # titles and labels set in setup take the package style too
            self._update, dynamic = setup(self.fig, self.axes)
        self._dynamic = list(_flatten_artists(dynamic))
        for artist in self._dynamic:
            artist.set_animated(True)  # left out of the background, drawn on top at each update
        self.static_colors = static_colors
        self.values = {c.name: c.value for c in self.controls}
        self._background: Any = None
        self.readout = self.update()
        self._widget: Any = None

    # -- the maths-free core, testable without a browser ------------------------------------
    def update(self, **changes: Any) -> str:
        """Apply control values (snapped to their lists), redraw the kept figure, return the readout.

        Only the artists that move are redrawn, over a saved background (blitting): axes, ticks
        and labels are drawn once.
        """
        for name, value in changes.items():
            self.values[name] = self._control(name).snap(value)
        self.readout = self._update(**self.values)
        canvas = self.fig.canvas
        if self._background is None:
            canvas.draw()  # runs the layout once and draws everything that does not move
            # Freeze the layout: the constrained-layout solver would otherwise rerun on each draw.
            self.fig.set_layout_engine("none")
            self._background = canvas.copy_from_bbox(self.fig.bbox)
        else:
            canvas.restore_region(self._background)
        for artist in self._dynamic:
            self.fig.draw_artist(artist)
        return self.readout

    def _control(self, name: str) -> Control:
        for c in self.controls:
            if c.name == name:
                return c
        raise ValueError(f"no control named {name!r}; the controls are {[c.name for c in self.controls]}")

    def png(self, colors: int | None = None) -> bytes:
        return png_bytes(self.fig, colors=colors)

    def timed_update(self, **changes: Any) -> float:
        """Seconds taken by one update, compute plus redraw plus PNG encode (for ``make bench``)."""
        t0 = time.perf_counter()
        self.update(**changes)
        self.png()
        return time.perf_counter() - t0

    # -- live view ------------------------------------------------------------------------
    def widget(self) -> Any:
        """The ipywidgets view: one slider per control above the figure and its readout."""
        if self._widget is not None:
            return self._widget
        import ipywidgets as w

        sliders = []
        for c in self.controls:
            slider = w.SelectionSlider(
                options=[(c.show(v), v) for v in c.values],
                value=self.values[c.name],
                description=c.label,
                continuous_update=True,
                style={"description_width": "initial"},
                layout=w.Layout(width="95%"),
            )
            slider.observe(self._on_change(c.name), names="value")
            sliders.append(slider)
        image = w.Image(value=self.png(), format="png", layout=w.Layout(max_width="100%"))
        readout = w.HTML(value=f'<p class="embedlab-readout">{html.escape(self.readout)}</p>')
        self._widget = w.VBox([*sliders, image, readout], layout=w.Layout(width="100%"))
        self._image, self._readout_widget = image, readout
        return self._widget

    def _on_change(self, name: str) -> Callable[[dict[str, Any]], None]:
        def handler(change: dict[str, Any]) -> None:
            text = self.update(**{name: change["new"]})
            self._image.value = self.png()
            self._readout_widget.value = f'<p class="embedlab-readout">{html.escape(text)}</p>'

        return handler

    # -- static view ----------------------------------------------------------------------
    def frames(self) -> list[tuple[bytes, str]]:
        """PNG and readout at every combination of the controls' static values (last control fastest)."""
        start = dict(self.values)
        out = []
        for combo in itertools.product(*(c.static_values for c in self.controls)):
            text = self.update(**dict(zip((c.name for c in self.controls), combo, strict=True)))
            out.append((self.png(colors=self.static_colors), text))
        self.update(**start)
        return out

    def to_html(self) -> str:
        """Self-contained HTML: range inputs that swap pre-rendered frames, no script and no ids."""
        esc = html.escape
        frames = self.frames()
        statics = [c.static_values for c in self.controls]
        # Start each control at the pre-rendered value nearest its current one.
        start = [
            min(range(len(s)), key=lambda i, c=c, s=s: abs(c.values.index(s[i]) - c.values.index(self.values[c.name])))
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
                f'<label class="embedlab-control">{esc(c.label)} '
                f'<input type="range" min="0" max="{len(s) - 1}" step="1" value="{i}" '
                f'data-labels="{esc("|".join(shown))}" aria-valuetext="{esc(shown[i])}" '
                f'oninput="{esc(_HANDLER)}"> <output>{esc(shown[i])}</output></label><br>'
            )
        for k, (png, text) in enumerate(frames):
            data = base64.b64encode(png).decode("ascii")
            hidden = "" if k == k0 else " hidden"
            parts.append(f'<img src="data:image/png;base64,{data}" alt="{esc(text)}"{hidden}>')
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


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


def _flatten_artists(items: Any) -> Any:
    """Artists from artists, bar containers (bars and their value labels) and quivers (with labels)."""
    for item in items:
        if hasattr(item, "patches"):  # BarContainer from plots.bars (a tuple: test it first)
            yield from item.patches
            yield from getattr(item, "annotations", [])
        elif isinstance(item, (list, tuple)):
            yield from _flatten_artists(item)
        else:
            yield item
            yield from getattr(item, "labels", [])  # Quiver from plots.arrows
