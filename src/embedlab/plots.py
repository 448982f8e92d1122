"""Plot helpers in matplotlib's own shape: ``ax=None`` makes a figure, artists are returned,
``plt.show()`` is never called. Update helpers change the data of artists already drawn, so a
slider moves a figure that is kept rather than building a new one.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.quiver import Quiver

#: The package's one style file, ``embedlab/embedlab.mplstyle``.
STYLE = "embedlab.embedlab"

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


def new_figure(
    figsize: tuple[float, float] = (6.0, 3.2), ncols: int = 1, nrows: int = 1, **subplot_kw: Any
) -> tuple[Figure, Any]:
    """An off-screen ``Figure`` (Agg canvas, not registered with pyplot) and its axes.

    Kept figures are redrawn with ``fig.canvas.draw()``; pyplot never shows them twice.
    """
    with style():
        fig = Figure(figsize=figsize, layout="constrained")
        FigureCanvasAgg(fig)
        axes = fig.subplots(nrows, ncols, subplot_kw=subplot_kw or None)
    return fig, axes


def _ax(ax: Axes | None) -> Axes:
    if ax is None:
        _, ax = new_figure()
    return ax


def signed2(value: float) -> str:
    """``value`` with a sign and two decimals, never "-0.00": a value that rounds to zero is "0.00".

    >>> signed2(-0.001), signed2(0.25), signed2(-1.5)
    ('0.00', '+0.25', '-1.50')
    """
    text = f"{value:+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text


def _points(vectors: Any, name: str = "vectors") -> np.ndarray:
    """``vectors`` as an ``(n, 2)`` float array: one (x, y) row per arrow, nothing reshaped silently."""
    v = np.asarray(vectors, dtype=float)
    if v.ndim != 2 or v.shape[1] != 2 or v.shape[0] == 0:
        raise ValueError(
            f"{name} must have shape (n, 2), one (x, y) row per arrow, got shape {v.shape}; "
            "project d-dimensional vectors into a plane first (embedlab.plane_basis(a, b) @ v)"
        )
    if not np.isfinite(v).all():
        raise ValueError(f"{name} must be finite, got {v.tolist()}")
    return v


def _heights(values: Any, n: int, name: str = "values") -> np.ndarray:
    """``values`` as ``n`` finite bar heights, or a clear error."""
    v = np.asarray(values, dtype=float)
    if v.ndim != 1 or v.shape[0] != n:
        raise ValueError(f"{name} must be 1-D with one value per bar ({n}), got shape {v.shape}")
    if not np.isfinite(v).all():
        raise ValueError(f"{name} must be finite, got {v.tolist()}")
    return v


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
    m = np.asarray(matrix, dtype=float)
    if m.ndim != 2 or m.size == 0 or not np.isfinite(m).all():
        raise ValueError(f"matrix must be a non-empty finite 2-D array, got shape {m.shape}")
    if row_labels is not None and len(row_labels) != m.shape[0]:
        raise ValueError(f"row_labels must have one label per row ({m.shape[0]}), got {len(row_labels)}")
    ax = _ax(ax)
    lim = float(np.abs(m).max()) or 1.0
    with style():
        image = ax.imshow(m, cmap="PuOr", vmin=-lim, vmax=lim, aspect="auto")
        ax.grid(False)
        texts = []
        if annotate:
            for (i, j), value in np.ndenumerate(m):
                texts.append(ax.text(j, i, f"{value:+.1f}", ha="center", va="center", fontsize=11))
        ax.set_xticks(range(m.shape[1]), [f"dim {j}" for j in range(m.shape[1])])
        labels = row_labels if row_labels is not None else [str(i) for i in range(m.shape[0])]
        ax.set_yticks(range(m.shape[0]), [f"{i}: {label}" for i, label in enumerate(labels)])
        box = Rectangle((-0.5, -0.5), m.shape[1], 1, fill=False, edgecolor=BLACK, linewidth=3)
        ax.add_patch(box)
    set_highlight_row(box, highlight_row)
    return {"image": image, "box": box, "texts": texts}


def set_highlight_row(box: Rectangle, row: int | None) -> None:
    """Move the outline made by :func:`heatmap` to ``row`` (hide it for None)."""
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
    heights = _heights(values, len(labels))
    ax = _ax(ax)
    x = np.arange(len(labels)) + offset
    with style():
        container = ax.bar(x, heights, width=width, color=color, label=label)
        ax.set_xticks(np.arange(len(labels)), labels)
        ax.axhline(0, color=BLACK, linewidth=0.8)
        container.annotations = (
            [  # type: ignore[attr-defined]
                ax.annotate("", (xi, 0), ha="center", fontsize=9, xytext=(0, 2), textcoords="offset points") for xi in x
            ]
            if annotate
            else []
        )
    container.base_color = color  # type: ignore[attr-defined]
    container.highlight_color = highlight_color  # type: ignore[attr-defined]
    update_bars(container, values, highlight)
    return container


def update_bars(container: BarContainer, values: Any, highlight: int | None = None) -> None:
    """Set the heights of bars made by :func:`bars`, their value labels, and the highlighted bar."""
    values = _heights(values, len(container.patches))
    for i, (rect, value) in enumerate(zip(container.patches, values, strict=True)):
        rect.set_height(value)
        rect.set_facecolor(container.highlight_color if i == highlight else container.base_color)  # type: ignore[attr-defined]
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
    v = _points(vectors)
    if len(colors) < len(v):
        raise ValueError(f"colors must hold one colour per arrow ({len(v)}), got {len(colors)}")
    ax = _ax(ax)
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
        ax.set_aspect("equal")
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        ax.axhline(0, color=GREY, linewidth=0.8)
        ax.axvline(0, color=GREY, linewidth=0.8)
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
    v = _points(vectors)
    if len(v) != len(q.U):
        raise ValueError(f"vectors must have one row per arrow drawn ({len(q.U)}), got {len(v)}")
    q.set_UVC(v[:, 0], v[:, 1])
    for note, tip in zip(q.labels, v, strict=False):  # type: ignore[attr-defined]
        note.xy = tuple(tip)


def curve(x: Any, y: Any, ax: Axes | None = None, *, label: str | None = None, color: str = BLUE, **kw: Any) -> Any:
    """A line plot of ``y`` against ``x``; returns the ``Line2D``."""
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if xs.ndim != 1 or xs.shape != ys.shape:
        raise ValueError(f"x and y must be 1-D of the same length, got shapes {xs.shape} and {ys.shape}")
    ax = _ax(ax)
    with style():
        (line,) = ax.plot(xs, ys, color=color, label=label, **kw)
    return line


def marker(x: float, y: float, ax: Axes | None = None, *, color: str = ORANGE, label: str | None = None) -> Any:
    """A single point, moved later with ``line.set_data([x], [y])``; returns the ``Line2D``."""
    ax = _ax(ax)
    with style():
        (point,) = ax.plot([x], [y], "o", color=color, markersize=9, zorder=5, label=label)
    return point
