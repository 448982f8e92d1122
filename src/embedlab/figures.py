"""The chapter's static figures, one function each, so the notebooks stay thin and the tests can
read back what every figure drew (arrow ends, line data, bar heights) against the maths.

Each function returns ``(fig, artists)``: the off-screen figure and a dict of the artists that
carry the figure's claim. No maths is written here: every number comes from the tested modules.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.lines import Line2D

from . import plots
from ._validation import (
    _describe,
    check_finite,
    check_float_array,
    check_size,
    exact_int,
    plain_items,
    range_len,
    short_repr,
)
from .geometry import _lengths, _pair, dot, plane_basis
from .softmax import saturation_prob
from .tokens import TOKENS

__all__ = [
    "MAX_DRAWN",
    "alignment_arrows",
    "drawing_plane",
    "embedding_shares",
    "gradient_sizes",
    "output_path_panels",
    "projection_panels",
    "saturation_curves",
    "tie_scatter",
]


def drawing_plane(a: Any, b: Any) -> np.ndarray:
    """An orthonormal ``(2, d)`` basis of a plane holding ``a`` and ``b``, with its first axis along ``a``.

    Like :func:`embedlab.plane_basis`, but when ``b`` is parallel to ``a`` (one line, no plane)
    the second axis is any unit vector at right angles to ``a``, so both can still be drawn.

    Examples
    --------
    >>> drawing_plane([2.0, 0.0, 0.0], [4.0, 0.0, 0.0]).round(12)
    array([[1., 0., 0.],
           [0., 1., 0.]])
    """
    a, b = _pair(a, b)  # 1-D, finite, one length: refused by name before any fallback
    if a.shape[0] < 2:
        raise ValueError(f"a and b must have at least 2 entries to be drawn in a plane, got {a.shape[0]}")
    try:
        return plane_basis(a, b)
    except ValueError:
        if not np.any(a):
            raise  # a is zero: no first axis
        axis = np.zeros_like(a)
        axis[int(np.argmin(np.abs(a)))] = 1  # the coordinate axis least like a
        return plane_basis(a, axis)


def projection_panels(h: Any, E: Any, labels: Sequence[str] = TOKENS, *, axes: Any = None) -> tuple[Any, dict]:
    """One panel per row of ``E``: the row, ``h``, and ``h``'s projection on the row's line.

    Each panel is drawn in the plane of ``h`` and that row, at true lengths and angles. The
    logit is ``h . e_j = (projection of h on e_j's direction) x |e_j|``: the title of each
    panel writes that product out.

    Returns
    -------
    fig, dict
        ``arrows`` (one Quiver per panel: the row, then h), ``projections`` (Line2D, drawn just
        under the row's line, from 0 to the signed length of h's shadow on it), ``drops``
        (dashed Line2D from h's tip to the shadow's end), ``titles`` (Text), and ``planes``
        (the (2, d) basis of each panel).
    """
    h = plots._values(h, "h", ndim=1)
    E = plots._values(E, "E", ndim=2)
    if E.shape[1] != h.shape[0]:
        raise ValueError(f"h must have E's width d = {E.shape[1]}, got length {h.shape[0]}")
    if E.shape[1] < 2:
        raise ValueError(f"h and E must have at least 2 entries per vector to be drawn in a plane, got {E.shape[1]}")
    labels = _check_labels(labels, E.shape[0])
    if axes is None:
        ncols = 2 if E.shape[0] > 1 else 1
        nrows = -(-E.shape[0] // ncols)
        if E.shape[0] > plots.MAX_AXES:  # one panel each, in a figure of at most MAX_AXES axes
            raise ValueError(
                f"E must have at most {plots.MAX_AXES} rows to draw one panel each, got {E.shape[0]}; pass axes"
            )
        fig, axes = plots.new_figure((6.4, 2.6 * nrows), ncols=ncols, nrows=nrows)
    else:
        axes = plots._axes_array(
            plots._axes_list(axes, E.shape[0], "axes", f"a matplotlib Axes for each of the {E.shape[0]} rows of E")
        )  # one per row of E
        fig = axes[0].figure
    axes = np.atleast_1d(axes).ravel()[: E.shape[0]]
    out: dict[str, list] = {"arrows": [], "projections": [], "drops": [], "titles": [], "planes": []}
    lim = 1.15 * float(max(_lengths(h), _lengths(E).max()))
    if lim > plots.MAX_DRAWN_VALUE:
        raise ValueError(f"h and E must have lengths of at most {plots.MAX_DRAWN_VALUE / 1.15:g} to be drawn")
    for ax, e, label in zip(axes, E, labels, strict=True):
        norm_e = float(_lengths(e))
        if norm_e == 0.0:
            raise ValueError(f"row {short_repr(label)} of E is zero: it has no direction to project on")
        basis = drawing_plane(e, h)  # first axis along the row
        e2, h2 = basis @ e, basis @ h  # (2,), (2,): true lengths and angle
        along = float(h.astype(np.float64) @ basis[0])  # signed length of h's shadow on the row's line
        q = plots.arrows([e2, h2], ax, labels=[label, "h"], colors=[plots.BLUE, plots.ORANGE], limit=lim)
        below = -0.12 * lim  # the shadow is drawn just under the row's line, so it hides no arrow
        with plots.style():
            (proj,) = ax.plot([0.0, along], [below, below], color=plots.VERMILLION, linewidth=5, solid_capstyle="butt")
            (drop,) = ax.plot([h2[0], along], [h2[1], below], color=plots.GREY, linestyle="--", linewidth=1.2)
            title = ax.set_title(f"{label}: {along:+.2f} x {norm_e:.2f} = {dot(h, e):+.2f}", fontsize=12)
            ax.set_xticks([])
            ax.set_yticks([])
            for spine in ax.spines.values():
                spine.set_visible(False)
        out["arrows"].append(q)
        out["projections"].append(proj)
        out["drops"].append(drop)
        out["titles"].append(title)
        out["planes"].append(basis)
    return fig, out


def alignment_arrows(e: Any, contexts: dict[str, Any], *, e_label: str = "e", ax: Any = None) -> tuple[Any, dict]:
    """Worked example D: a row ``e`` and several contexts, drawn in the plane of the first axis and ``e``.

    Every context must lie in that plane (the figure refuses one that does not, rather than
    drawing its shadow as if it were the vector).

    Returns
    -------
    fig, dict
        ``arrows`` (Quiver: e first, then the contexts in order), ``points`` (their (n, 2)
        coordinates) and ``plane`` (the (2, d) basis).
    """
    given = e
    e = plots._values(e, "e", ndim=1)  # float64: a longdouble part below float64's range becomes 0 here
    across = bool(np.any(check_float_array(given, "e", ndim=1)[1:] != 0))  # the part across the first axis, as given
    e_label = plots._check_label(e_label, "e_label", escape=False)  # escaped where drawn
    if type(contexts) is not dict or not 1 <= len(contexts) <= 4 or not all(type(k) is str for k in contexts):
        raise TypeError(f"contexts must be a dict of 1 to 4 str names -> vectors, got {short_repr(contexts)}")
    for k in contexts:
        plots._check_label(k, "contexts' names")
    if e.shape[0] < 2 or e.shape[0] > MAX_DRAWN:
        raise ValueError(f"e must have 2 to {MAX_DRAWN:,} entries to be drawn in a plane, got {e.shape[0]}")
    first_axis = np.zeros(e.shape[0])
    first_axis[0] = 1.0
    try:
        basis = plane_basis(first_axis, e)
    except ValueError:  # along the first axis, up to rounding: exactly along it, any second axis will do
        if across:  # a part across it too small to fix a plane: which plane is meant is not known
            raise ValueError(
                "e must lie along the first axis exactly or clearly off it: its part across the first axis is "
                "below rounding, too small to fix the plane of the drawing"
            ) from None
        basis = drawing_plane(first_axis, e)
    vectors = [e]
    for k, v in contexts.items():
        v = plots._values(v, f"contexts[{short_repr(k)}]", ndim=1)
        if v.shape != e.shape:
            raise ValueError(f"contexts[{short_repr(k)}] must have e's length {e.shape[0]}, got {v.shape[0]}")
        vectors.append(v)
    with np.errstate(over="ignore", invalid="ignore"):
        points = np.array([basis @ v for v in vectors])  # (n, 2)
    if not np.all(np.isfinite(points)) or np.abs(points).max() > 1e300:
        raise ValueError("contexts and e must be small enough to draw: their coordinates overflow float64")
    for (name, v), p in zip(contexts.items(), points[1:], strict=True):
        with np.errstate(over="ignore", invalid="ignore"):  # a longdouble beyond float64 becomes inf: refused below
            wide = np.asarray(v, dtype=np.float64)  # float16 read in float64: its norm never overflows float16
        # math.hypot neither overflows nor underflows, whatever the size of the entries
        off_plane = math.hypot(*(wide - p @ basis)) if np.all(np.isfinite(wide)) else math.inf
        if not off_plane <= 1e-9 * math.hypot(*wide):  # relative: a tiny context off the plane is off it
            raise ValueError(f"contexts[{short_repr(name)}] does not lie in the plane of the first axis and e")
    fig, ax = plots.figure_and_ax(ax, (5.0, 5.0))
    colors = [plots.BLUE, plots.ORANGE, plots.GREEN, plots.VERMILLION, plots.PURPLE][: len(points)]
    q = plots.arrows(points, ax, labels=[e_label, *contexts], colors=colors, limit=1.25)
    ax.set_xlabel("first axis")
    ax.set_ylabel(f"across the first axis, toward {plots._check_label(e_label, 'e_label')}")
    return fig, {"arrows": q, "points": points, "plane": basis}


def saturation_curves(
    ns: Sequence[int] | np.ndarray = (3, 100, 50256), t: Any = None, *, ax: Any = None
) -> tuple[Any, dict]:
    """Worked example F: ``P0(t) = e^t / (e^t + n)`` for several numbers ``n`` of other tokens at 0.

    Each curve crosses 1/2 at ``t = ln n``, marked with a point.

    Returns
    -------
    fig, dict
        ``lines`` (one Line2D per n) and ``halves`` (one marker Line2D per n at (ln n, 1/2)).
    """
    t = np.linspace(-6.0, 18.0, 241) if t is None else _drawable(t, "t", 1)[0]
    colors = (plots.BLUE, plots.ORANGE, plots.GREEN, plots.VERMILLION, plots.PURPLE, plots.SKY)
    if type(ns) is range or (type(ns) is np.ndarray and ns.ndim == 1):
        # counted without len() (a range's len overflows past sys.maxsize), read no further than needed
        count = ns.size if type(ns) is np.ndarray else range_len(ns)
        if not 1 <= count <= len(colors):
            raise ValueError(f"ns must hold 1 to {len(colors)} counts (one colour each), got {count:,}")
        ns = [ns[i] for i in range(count)]
    ns = plain_items(ns, "ns", "a list, tuple, range or 1-D array of token counts")
    if not 1 <= len(ns) <= len(colors):
        raise ValueError(f"ns must hold 1 to {len(colors)} counts (one colour each), got {len(ns)}")
    ns = [check_size(n, "ns") for n in ns]
    if max(ns) > plots.MAX_DRAWN_VALUE:
        raise ValueError(f"ns must hold counts of at most {plots.MAX_DRAWN_VALUE:g}, got {short_repr(max(ns))}")
    fig, ax = plots.figure_and_ax(ax, (7.0, 3.6))
    lines, halves = [], []
    for n, color in zip(ns, colors, strict=False):
        lines.append(
            plots.curve(t, saturation_prob(t, n), ax, label=f"n = {n:,} other{'' if n == 1 else 's'}", color=color)
        )
        halves.append(plots.marker(float(np.log(n)), 0.5, ax, color=color))
    with plots.style():
        ax.axhline(0.5, color=plots.GREY, linestyle=":", linewidth=1)
        ax.set_xlabel("t, the logit of token 0 (the n others at 0)")
        ax.set_ylabel("P0(t)")
        ax.set_title("P0 = 1/2 where t = ln n")
        ax.legend(loc="upper left")
    return fig, {"lines": lines, "halves": halves}


def gradient_sizes(n: int = 3, t: Any = None, *, ax: Any = None) -> tuple[Any, dict]:
    """Worked example F: the slope ``P0 (1 - P0)`` against the cross-entropy gradient ``p0 - y0``.

    The slope vanishes at both ends; the loss gradient on token 0's logit does not when the
    model is sure of the wrong token (target elsewhere, t large: ``p0 - 0`` tends to 1).

    Returns
    -------
    fig, dict
        ``slope``, ``target_0`` and ``target_other`` (Line2D each).
    """
    n = check_size(n, "n")
    t = np.linspace(-10.0, 10.0, 201) if t is None else _drawable(t, "t", 1)[0]
    p0 = saturation_prob(t, n)
    fig, ax = plots.figure_and_ax(ax, (7.0, 3.6))
    target_0 = plots.curve(t, p0 - 1.0, ax, label="p0 - y0, target 0", color=plots.GREEN)
    target_other = plots.curve(t, p0, ax, label="p0 - y0, target not 0", color=plots.VERMILLION)
    # the slope runs along the orange curve for t < 0: drawn last and dashed, so both stay visible
    slope = plots.curve(t, p0 * (1 - p0), ax, label="slope P0 (1 - P0)", linestyle="--", zorder=3)
    with plots.style():
        ax.axhline(0, color=plots.BLACK, linewidth=0.8)
        ax.set_xlabel(f"t, the logit of token 0 ({n} others at 0)")
        ax.set_ylabel("value")
        ax.set_title("P0's slope vanishes, not the gradient when wrong")
        ax.legend(loc="lower right", fontsize=11)  # the curves leave the bottom right empty
    return fig, {"slope": slope, "target_0": target_0, "target_other": target_other}


#: Most numbers a drawing function accepts in one array: a figure of more points than this shows nothing more.
MAX_DRAWN = 1_000_000


def _drawable(x: Any, name: str, ndim: int, most: float | None = None) -> tuple[np.ndarray, np.dtype]:
    """``x`` as a finite float64 array of at most :data:`MAX_DRAWN` numbers (sized before any copy), and its dtype."""
    arr = check_float_array(x, name, ndim=ndim)
    if arr.size > MAX_DRAWN:
        raise ValueError(f"{name} must hold at most {MAX_DRAWN:,} numbers to be drawn, got {arr.size:,}")
    check_finite(arr, name)
    out = plots._in_float64(arr, name)  # small by the check above; float16 and longdouble alike
    most = plots.MAX_DRAWN_VALUE if most is None else most
    if np.abs(out).max(initial=0.0) > most:
        raise ValueError(f"{name} must be at most {most:g} in size to be drawn")
    return out, arr.dtype


def _check_labels(labels: Any, n: int, name: str = "labels") -> list[str]:
    labels = plain_items(labels, name, "a list or tuple of str")
    if len(labels) != n or not all(issubclass(type(t), str) for t in labels):
        raise ValueError(f"{name} must hold one str per token ({n}), got {short_repr(labels)}")
    return [plots._check_label(t, name) for t in labels]  # drawn as typed: a "$" starts no mathtext


def output_path_panels(
    g_one: Any, g_batch: Any, h: Any, labels: Sequence[str] = TOKENS, *, batch_label: str = "a minibatch"
) -> tuple[Any, dict]:
    """Worked example H: the output path's gradient rows for one prediction and for a minibatch step.

    Both panels use one plane: ``h``'s direction across, and up the direction at right angles to
    ``h`` along which the minibatch's rows reach furthest. For one prediction every row is
    ``(p_j - y_j) h``, so every arrow lies on the horizontal axis (rank one); a minibatch sums one
    such term per position, and its rows leave the axis. A matrix that was not rank one could not
    hide in this view: its rows would leave the axis too.

    Returns
    -------
    fig, dict
        ``arrows`` (one Quiver per panel, one arrow per row, longest drawn first; ``q.rows`` gives
        the row of each arrow), ``points`` (each panel's (V, 2) arrow ends, in row order), ``plane``
        (the (2, d) basis) and ``ranks`` (numerical rank of each matrix).
    """
    g_one, dt_one = _drawable(g_one, "g_one", 2)
    g_batch, dt_batch = _drawable(g_batch, "g_batch", 2)
    h = _drawable(h, "h", 1, most=1e300)[0]  # h gives only a direction (scaled to unit size below)
    if h.shape[0] < 2:
        raise ValueError(f"h must have at least 2 components to span a plane, got {h.shape[0]}")
    for name, g in (("g_one", g_one), ("g_batch", g_batch)):
        if g.shape[1] != h.shape[0]:
            raise ValueError(f"{name} must have shape (V, {h.shape[0]}), one row per token, got {g.shape}")
    if g_one.shape != g_batch.shape:
        raise ValueError(f"g_batch must have the shape of g_one {g_one.shape}, got {g_batch.shape}")
    labels = _check_labels(labels, g_one.shape[0])
    batch_label = plots._check_label(batch_label, "batch_label")  # drawn as typed in a title
    scale_h = float(np.abs(h).max())
    if scale_h == 0.0:
        raise ValueError("h must not be the zero vector: it gives the plane its first direction")
    colors = [plots.BLUE, plots.ORANGE, plots.GREEN, plots.VERMILLION, plots.PURPLE, plots.SKY]
    if len(labels) > len(colors):
        raise ValueError(f"labels must name at most {len(colors)} rows to draw, got {len(labels)}")
    u1 = h / scale_h  # scaled first, so a tiny or huge h neither underflows nor overflows
    u1 /= np.linalg.norm(u1)
    scale_g = float(np.abs(g_batch).max()) or 1.0
    off = g_batch / scale_g
    off = off - np.outer(off @ u1, u1)  # the batch rows' parts at right angles to h
    if np.abs(off).max() > 1e-12:
        u2 = np.linalg.svd(off, full_matrices=False)[2][0]
    else:  # nothing leaves h: any direction at right angles will do
        u2 = np.eye(h.shape[0])[int(np.argmin(np.abs(u1)))]
    u2 = u2 - (u2 @ u1) * u1
    u2 /= np.linalg.norm(u2)
    basis = np.array([u1, u2])  # (2, d)

    def rank(g: np.ndarray, dtype: np.dtype) -> int:
        """Numerical rank, with NumPy's cut-off for the input's own precision (float32 input is not rank 3)."""
        g = g / (float(np.abs(g).max()) or 1.0)
        sv = np.linalg.svd(g, compute_uv=False)
        eps = np.finfo(dtype).eps if np.issubdtype(dtype, np.floating) else np.finfo(np.float64).eps
        return int(np.sum(sv > max(g.shape) * max(eps, np.finfo(np.float64).eps) * sv[0])) if sv[0] > 0 else 0

    fig, axes = plots.new_figure((8.0, 4.4), ncols=2)
    out: dict[str, Any] = {
        "arrows": [],
        "points": [],
        "plane": basis,
        "ranks": [rank(g_one, dt_one), rank(g_batch, dt_batch)],
    }
    titles = (f"one prediction: rank {out['ranks'][0]}", f"{batch_label}: rank {out['ranks'][1]}")
    for ax, g, title in zip(axes, (g_one, g_batch), titles, strict=True):
        points = g @ basis.T  # (V, 2)
        limit = 1.2 * float(np.abs(points).max() or 1.0)
        order = np.argsort(-np.linalg.norm(points, axis=1), kind="stable")  # longest first: short arrows on top
        q = plots.arrows(points[order], ax, colors=[colors[j] for j in order], limit=limit)
        q.rows = order  # type: ignore[attr-defined]  # which row each arrow is
        with plots.style():
            ax.set_xlabel("along h")
            ax.set_ylabel("at right angles to h")
            ax.set_title(title)
        out["arrows"].append(q)
        out["points"].append(points)
    handles = [Line2D([], [], color=c, linewidth=3) for c in colors[: len(labels)]]
    with plots.style():
        fig.legend(handles, [f"row of {t}" for t in labels], loc="outside lower center", ncols=len(labels), fontsize=11)
    return fig, out


def tie_scatter(
    z_real: Any, z_dup: Any, i: int = 0, j: int = 1, labels: Sequence[str] = TOKENS, far: int | None = None
) -> tuple[Any, dict]:
    """Worked example E: logit ``i`` against logit ``j`` over many contexts, real rows and duplicated rows.

    With ``far``, a first panel plots logit ``i`` against logit ``far`` with the real rows: a pair
    of rows far apart, for contrast with ``i`` and ``j``, which may already lie close together.

    Returns
    -------
    fig, dict
        ``points`` (one Line2D of markers per panel, left to right), ``diagonals`` and ``pairs``
        (the ``(x column, y column)`` of each panel).
    """
    panels = [_drawable(z, name, 2)[0] for z, name in ((z_real, "z_real"), (z_dup, "z_dup"))]
    n_tokens = panels[0].shape[1]
    if panels[1].shape[1] != n_tokens:
        raise ValueError(f"z_dup must have one column per token like z_real ({n_tokens}), got {panels[1].shape[1]}")
    plain = {}
    for name, k in (("i", i), ("j", j), *((("far", far),) if far is not None else ())):
        if issubclass(type(k), (bool, np.bool_)) or not issubclass(type(k), (int, np.integer)):
            raise TypeError(f"{name} must be a token index, an int in [0, {n_tokens}), got {_describe(k)}")
        plain[name] = exact_int(k, name)  # a Python int: a uint64 beside an int would index as a float
        if not 0 <= plain[name] < n_tokens:
            raise ValueError(f"{name} must be a token index in [0, {n_tokens}), got {short_repr(k)}")
    i, j, far = plain["i"], plain["j"], plain.get("far")
    labels = _check_labels(labels, n_tokens)
    pair = f"{labels[i]} and {labels[j]}"
    specs = [(panels[0], i, j, f"{pair}\nreal rows"), (panels[1], i, j, f"{pair}\nidentical rows")]
    if far is not None:
        specs.insert(0, (panels[0], i, far, f"{labels[i]} and {labels[far]}\nreal rows"))
    fig, axes = plots.new_figure((3.5 * len(specs), 3.6), ncols=len(specs))
    lim = 1.05 * max(float(np.abs(z[:, [a, b]]).max()) for z, a, b, _ in specs)
    lim = lim or 1.0  # all logits zero: a unit square, not an empty one
    points, diagonals = [], []
    for ax, (z, a, b, title) in zip(np.atleast_1d(axes), specs, strict=True):
        with plots.style():
            (pts,) = ax.plot(z[:, a], z[:, b], "o", markersize=3, alpha=0.6)
            (diag,) = ax.plot([-lim, lim], [-lim, lim], color=plots.GREY, linewidth=1)
            ax.set_xlim(-lim, lim)
            ax.set_ylim(-lim, lim)
            ax.set_xlabel(f"z_{labels[a]}")
            ax.set_ylabel(f"z_{labels[b]}")
            ax.set_title(title, fontsize=12)
            ax.set_aspect("equal")
        points.append(pts)
        diagonals.append(diag)
    return fig, {"points": points, "diagonals": diagonals, "pairs": [(a, b) for _, a, b, _ in specs]}


def embedding_shares(*, ax: Any = None) -> tuple[Any, dict]:
    """Worked example G: the token embedding and output head's share of each real model, as built.

    Returns
    -------
    fig, dict
        ``embedding`` and ``head`` (BarContainer of horizontal bars, in % of each model's whole
        parameter count; the head's bars start where the embedding's end) and ``rows`` (the
        :func:`embedlab.architectures.share_table` rows drawn, top to bottom).
    """
    from . import architectures  # whole-model counts from the models' configurations

    rows = architectures.share_table()
    emb = [100 * architectures.embedding_share(r.name)["embedding"] / r.total for r in rows]
    head = [100 * architectures.embedding_share(r.name)["head"] / r.total for r in rows]
    fig, ax = plots.figure_and_ax(ax, (7.5, 6.2))
    y = np.arange(len(rows))
    with plots.style():
        b_emb = ax.barh(y, emb, color=plots.BLUE, label="token embedding")
        b_head = ax.barh(y, head, left=emb, color=plots.ORANGE, label="output head")
        for yi, (e_, h_) in enumerate(zip(emb, head, strict=True)):
            ax.text(e_ + h_ + 0.6, yi, f"{e_ + h_:.1f}%", va="center", fontsize=12)
        ax.set_yticks(y, [f"{r.name} ({'tied' if r.tied else 'untied'})" for r in rows])
        ax.invert_yaxis()
        ax.set_xlim(0, 1.2 * max(e_ + h_ for e_, h_ in zip(emb, head, strict=True)))
        ax.set_xlabel("% of the whole model's parameters")
        ax.set_title("Embedding and head, share of each model")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncols=2, fontsize=12)
    return fig, {"embedding": b_emb, "head": b_head, "rows": rows}
