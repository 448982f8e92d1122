"""The interactive figure of each worked example, A to H: what the notebooks display.

Each function returns an :class:`~embedlab.widgets.Explorer`. Its ``setup`` draws once; its
``update`` calls the tested maths and moves the artists. No maths is written here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import plots
from ._validation import _describe, check_ids, check_size
from .budget import REAL_MODELS, param_bytes, param_count
from .geometry import angle_deg, in_plane, plane_basis
from .logits import tied_logits
from .lookup import lookup, one_hot_cost
from .model import _check_body, tiny_model_grads
from .softmax import saturation_prob, softmax
from .tokens import E_TOY, TOKENS
from .widgets import Control, Explorer, float_range

H_EXAMPLE = (0.5, 0.2, -0.3)  # the context vector of worked example C


def _vec(v: Any, signed: bool = True) -> str:
    fmt = "{:+.2f}" if signed else "{:.2f}"
    return "[" + ", ".join(fmt.format(x) for x in np.asarray(v, dtype=float)) + "]"


def _token_label(i: int) -> str:
    return f"{i}: {TOKENS[i]}"


def lookup_explorer() -> Explorer:
    """A: pick a token; its row of ``E`` lights up in the heatmap."""

    def setup(fig: Any, ax: Any) -> Any:
        art = plots.heatmap(E_TOY, ax, row_labels=TOKENS, highlight_row=2)
        ax.set_title("E (4 x 3): lookup reads one row")

        def update(token_id: int) -> str:
            plots.set_highlight_row(art["box"], token_id)
            row = lookup(E_TOY, token_id)
            return f'Heatmap of E with row {token_id} ("{TOKENS[token_id]}") outlined: lookup returns {_vec(row)}.'

        return update, [art["box"]]

    control = Control("token_id", "token", tuple(range(len(TOKENS))), value=2, fmt=_token_label)
    return Explorer("Lookup: pick a token, read its row", [control], setup, figsize=(5.5, 3.0))


def one_hot_cost_explorer(d_model: int = 768) -> Explorer:
    """B: the one-hot product's arithmetic against a lookup's, as the vocabulary grows."""
    d_model = check_size(d_model, "d_model")
    sizes = (4, 10, 100, 1000, 10000, 30522, 50257, 128256, 256000)
    grid = np.unique(np.logspace(0, np.log10(300000), 60).astype(int))

    def setup(fig: Any, ax: Any) -> Any:
        costs = [one_hot_cost(int(v), d_model) for v in grid]
        plots.curve(grid, [c["multiplies"] for c in costs], ax, label="one-hot @ E: multiplications")
        plots.curve(
            grid,
            [c["lookup_copies"] for c in costs],
            ax,
            label="lookup: numbers copied",
            color=plots.GREEN,
        )
        point = plots.marker(sizes[0], 1.0, ax, label="this V")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("vocabulary size V")
        ax.set_ylabel(f"operations per token (d = {d_model})")
        ax.set_title("Why nobody builds the one-hot")
        ax.legend(loc="upper left")

        def update(vocab_size: int) -> str:
            cost = one_hot_cost(vocab_size, d_model)
            point.set_data([vocab_size], [cost["multiplies"]])
            return (
                f"At V = {vocab_size:,} and d = {d_model}, one-hot @ E does {cost['multiplies']:,} multiplications "
                f"per token, {cost['wasted_multiplies']:,} of them by zero; lookup copies {cost['lookup_copies']:,} "
                f"numbers ({cost['multiplies'] // cost['lookup_copies']:,} times less work)."
            )

        return update, [point]

    control = Control("vocab_size", "V", sizes, value=4, fmt="{:,}")
    return Explorer("One-hot @ E against lookup as V grows", [control], setup, figsize=(6.0, 3.2))


def logits_explorer() -> Explorer:
    """C: move the context ``h``; the four tied logits and their softmax follow."""

    def setup(fig: Any, axes: Any) -> Any:
        ax_z, ax_p = axes
        z0 = tied_logits(H_EXAMPLE, E_TOY)
        bz = plots.bars(z0, TOKENS, ax_z)
        bp = plots.bars(softmax(z0), TOKENS, ax_p)
        ax_z.set_ylim(-2.4, 2.4)
        ax_p.set_ylim(0, 1.1)
        ax_z.set_title("logits z = h @ E.T")
        ax_p.set_title("softmax(z)")

        def update(h0: float, h1: float, h2: float) -> str:
            z = tied_logits([h0, h1, h2], E_TOY)
            p = softmax(z)
            win = int(np.argmax(p))
            plots.update_bars(bz, z, win)
            plots.update_bars(bp, p, win)
            return (
                f"h = {_vec([h0, h1, h2])}: logits {_vec(z)}, probabilities {_vec(p, signed=False)}; "
                f'"{TOKENS[win]}" wins with p = {p[win]:.2f}.'
            )

        return update, [bz, bp]

    grid = float_range(-1.0, 1.0, 0.1)
    controls = [Control(f"h{i}", f"h[{i}]", grid, value=H_EXAMPLE[i], fmt="{:+.1f}", static_every=5) for i in range(3)]
    return Explorer("Tied logits: move the context h", controls, setup, figsize=(6.4, 2.8), ncols=2)


def alignment_explorer(token: int = 2) -> Explorer:
    """D: rotate a unit context ``h`` in the plane of the first axis and ``e_token``; watch the sign of the dot."""
    if isinstance(token, (list, tuple, np.ndarray)) and np.asarray(token, dtype=object).ndim != 0:
        raise TypeError(f"token must be one token id (an int), got {_describe(token)}")
    token = int(check_ids(token, len(TOKENS), name="token"))
    e = lookup(E_TOY, token)
    basis = plane_basis([1.0, 0.0, 0.0], e)  # u1 = first axis, u2 = e's remaining direction
    e_2d = basis @ e  # e's coordinates in that plane: true length kept

    def setup(fig: Any, ax: Any) -> Any:
        q = plots.arrows(
            [e_2d, [1.0, 0.0]], ax, labels=[f"e ({TOKENS[token]})", "h"], colors=[plots.BLUE, plots.ORANGE], limit=1.25
        )
        ax.set_xlabel("first axis")
        ax.set_ylabel("rest of e's direction")
        title = ax.set_title("")

        def update(angle: int) -> str:
            h = in_plane(angle, basis)  # (3,) unit vector
            score = float(tied_logits(h, E_TOY)[token])
            plots.update_arrows(q, [e_2d, basis @ h])
            sign = "aligned (positive)" if score > 1e-12 else "anti-aligned (negative)" if score < -1e-12 else "zero"
            title.set_text(f"h . e = {score:+.2f}: {sign}")
            return (
                f"Arrows h = {_vec(h)} at {angle} degrees from the first axis and e = {_vec(e)}: "
                f"angle between them {angle_deg(h, e):.0f} degrees, dot product {score:+.2f}, {sign}."
            )

        return update, [q, title]

    control = Control("angle", "angle of h (degrees)", tuple(range(0, 360, 15)), value=180, fmt="{} deg")
    return Explorer("Sign of alignment: rotate h", [control], setup, figsize=(4.4, 4.4))


def flatten_explorer() -> Explorer:
    """E: scale the context toward zero; the distribution flattens to uniform."""

    def setup(fig: Any, ax: Any) -> Any:
        b = plots.bars(softmax(tied_logits(H_EXAMPLE, E_TOY)), TOKENS, ax)
        ax.axhline(1 / len(TOKENS), color=plots.GREY, linestyle="--", linewidth=1)
        ax.set_ylim(0, 1.05)
        ax.set_ylabel("probability")
        title = ax.set_title("")

        def update(scale: float) -> str:
            h = scale * np.asarray(H_EXAMPLE)
            p = softmax(tied_logits(h, E_TOY))
            plots.update_bars(b, p, int(np.argmax(p)) if scale > 0 else None)
            title.set_text(f"softmax(tied_logits({scale:g} x h))")
            return (
                f"Context {scale:g} x h = {_vec(h)}: probabilities {_vec(p, signed=False)} "
                f"(uniform would be {1 / len(TOKENS):.2f} each)."
            )

        return update, [b, title]

    control = Control("scale", "scale of h", float_range(0.0, 5.0, 0.25), value=1.0, fmt="{:g}")
    return Explorer("Degenerate input: shrink h to zero", [control], setup, figsize=(5.0, 3.0))


def saturation_explorer(n_others: int = 3) -> Explorer:
    """F: slide the winner's logit ``t``; ``P0(t) = e^t / (e^t + 3)`` saturates at 0 and 1."""
    n_others = check_size(n_others, "n_others")
    if n_others > 10_000:
        raise ValueError(f"n_others must be at most 10,000 (one bar of softmax per token), got {n_others:,}")
    ts = np.linspace(-8, 8, 161)

    def setup(fig: Any, ax: Any) -> Any:
        plots.curve(ts, saturation_prob(ts, n_others), ax, label="P0(t), the winner")
        others = (1 - saturation_prob(ts, n_others)) / n_others
        plots.curve(ts, others, ax, label=f"each of the other {n_others}", color=plots.GREEN)
        ax.axhline(1 / n_others, color=plots.GREY, linestyle=":", linewidth=1)
        p0 = plots.marker(0.0, 0.25, ax)
        p1 = plots.marker(0.0, 0.25, ax, color=plots.VERMILLION)
        ax.set_xlabel("t, the logit of token 0 (others at 0)")
        ax.set_ylabel("probability")
        ax.set_ylim(-0.03, 1.03)
        ax.set_title("Softmax saturation")
        ax.legend(loc="center right")

        def update(t: float) -> str:
            p = softmax([t] + [0.0] * n_others)
            p0.set_data([t], [p[0]])
            p1.set_data([t], [p[1]])
            return f"t = {t:+.1f}: P0 = {p[0]:.3f}, each other token {p[1]:.3f}."

        return update, [p0, p1]

    control = Control("t", "t", float_range(-8.0, 8.0, 0.5), value=0.0, fmt="{:+.1f}")
    return Explorer("Saturation: push one logit", [control], setup, figsize=(6.0, 3.2))


def model_names(vocab_size: int, d_model: int) -> list[str]:
    """Names of the real models in :data:`REAL_MODELS` with this ``V`` and ``d``."""
    return [m["name"] for m in REAL_MODELS if m["vocab_size"] == vocab_size and m["d_model"] == d_model]


def budget_explorer() -> Explorer:
    """G: choose V and d (every value some real model uses); the parameter budget follows."""
    vs = tuple(sorted({m["vocab_size"] for m in REAL_MODELS}))
    ds = tuple(sorted({m["d_model"] for m in REAL_MODELS}))
    labels = ["untied: 2Vd", "tied: Vd", "tied + bias: Vd + V"]

    def setup(fig: Any, ax: Any) -> Any:
        b = plots.bars([100, 50, 50], labels, ax, color=plots.BLUE, highlight_color=plots.GREEN, annotate=False)
        ax.set_ylabel("% of the untied count")
        ax.set_ylim(0, 125)
        notes = [
            ax.annotate("", (i, 0), ha="center", fontsize=9, xytext=(0, 2), textcoords="offset points")
            for i in range(3)
        ]
        title = ax.set_title("")

        def update(vocab_size: int, d_model: int) -> str:
            counts = [
                param_count(vocab_size, d_model, tied=False),
                param_count(vocab_size, d_model, tied=True),
                param_count(vocab_size, d_model, tied=True, output_bias=True),
            ]
            shares = [100 * c / counts[0] for c in counts]
            plots.update_bars(b, shares, highlight=1)
            for i, (note, c, share) in enumerate(zip(notes, counts, shares, strict=True)):
                note.xy = (i, share)
                note.set_text(f"{c:,}")
            names = model_names(vocab_size, d_model)
            named = f" ({', '.join(names)})" if names else ""
            title.set_text(f"V = {vocab_size:,}, d = {d_model:,}{named}")
            mib = [param_bytes(vocab_size, d_model, tied=t) / 2**20 for t in (False, True)]
            return (
                f"V = {vocab_size:,}, d = {d_model:,}{named}: untied {counts[0]:,} parameters "
                f"({mib[0]:,.0f} MiB in float32), tied {counts[1]:,} ({mib[1]:,.0f} MiB), tied with a bias "
                f"{counts[2]:,}; tying saves {100 - shares[1]:.1f}% without a bias, "
                f"{100 - shares[2]:.2f}% if the tied head keeps one."
            )

        return update, [b, notes, title]

    controls = [
        Control("vocab_size", "V (rows)", vs, value=50257, fmt="{:,}"),
        Control("d_model", "d (width)", ds, value=768, fmt="{:,}"),
    ]
    return Explorer("Memory budget of the embedding and output layers", controls, setup, figsize=(5.6, 3.0))


def gradient_explorer(context: tuple[int, ...] = (2, 1), W: Any = None) -> Explorer:
    """H: the two gradient paths into each row of a tied ``E``, for a choice of next token."""
    if not isinstance(context, (list, tuple, np.ndarray)):
        raise TypeError(f"context must be a sequence of token ids, got {_describe(context)}")
    ids = check_ids(context, len(TOKENS), name="context")
    if ids.ndim != 1:
        raise ValueError(f"context must be a flat sequence of token ids, got shape {ids.shape}")
    context = tuple(int(i) for i in ids)
    W = np.eye(3) if W is None else _check_body(W, E_TOY.shape[1])
    comps = ["dim 0", "dim 1", "dim 2"]

    def setup(fig: Any, ax: Any) -> Any:
        width = 0.27
        paths = (
            ("input path (lookup)", plots.BLUE, -width),
            ("output path (tied head)", plots.ORANGE, 0.0),
            ("sum = gradient of E", plots.GREEN, width),
        )
        b_in, b_out, b_sum = (
            plots.bars([0, 0, 0], comps, ax, color=c, offset=o, width=width, label=label, annotate=False)
            for label, c, o in paths
        )
        ax.set_ylim(-0.9, 0.9)
        ax.legend(loc="lower left", ncols=1)
        title = ax.set_title("")

        def update(row: int, target: int) -> str:
            g_in, g_out = tiny_model_grads(E_TOY, list(context), target, W)
            for bars_, g in ((b_in, g_in[row]), (b_out, g_out[row]), (b_sum, g_in[row] + g_out[row])):
                plots.update_bars(bars_, g)
            title.set_text(f'row "{TOKENS[row]}", next token "{TOKENS[target]}"')
            return (
                f'Gradient of row {row} ("{TOKENS[row]}") when the context is '
                f'{", ".join(TOKENS[i] for i in context)} and the next token is "{TOKENS[target]}": '
                f"input path {_vec(g_in[row])} + output path {_vec(g_out[row])} = {_vec(g_in[row] + g_out[row])}."
            )

        return update, [b_in, b_out, b_sum, title]

    controls = [
        Control("row", "row of E", tuple(range(len(TOKENS))), value=1, fmt=_token_label),
        Control("target", "next token", tuple(range(len(TOKENS))), value=3, fmt=_token_label),
    ]
    return Explorer("Two gradient paths into one row", controls, setup, figsize=(6.0, 3.2))
