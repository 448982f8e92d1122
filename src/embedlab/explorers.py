"""The interactive figure of each worked example, A to H: what the notebooks display.

Each function returns an :class:`~embedlab.widgets.Explorer`. Its ``setup`` draws once; its
``update`` calls the tested maths and moves the artists. No maths is written here.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.ticker import MaxNLocator, NullLocator

from . import plots
from ._validation import _describe, _is_one_of, check_ids, check_size, range_len, short_repr
from .budget import REAL_MODELS
from .geometry import plane_basis
from .logits import tied_logits
from .lookup import lookup, one_hot_cost
from .model import _check_body, tiny_model_grads
from .softmax import saturation_prob, softmax
from .tokens import E_TOY, TOKENS
from .widgets import Control, Explorer, float_range

__all__ = [
    "H_EXAMPLE",
    "MAX_PRESETS",
    "MAX_PRESET_NAME",
    "SIZE_PRESETS",
    "alignment_explorer",
    "budget_explorer",
    "flatten_explorer",
    "gradient_explorer",
    "logits_explorer",
    "lookup_explorer",
    "one_hot_cost_explorer",
    "saturation_explorer",
    "scale_explorer",
    "training_memory_explorer",
]

H_EXAMPLE = (0.5, 0.2, -0.3)  # the context vector of worked example C


def _vec(v: Any, signed: bool = True, digits: int = 2) -> str:
    """Numbers in brackets, signed (never "-0.00") or not, to ``digits`` decimals."""
    zero, sign = f"{0:.{digits}f}", "+" if signed else ""
    shown = (f"{x + 0.0:{sign}.{digits}f}" for x in np.asarray(v, dtype=float))
    return "[" + ", ".join(zero if s.lstrip("+-") == zero else s for s in shown) + "]"


def _token_label(i: int) -> str:
    return f"{i}: {TOKENS[i]}"


def lookup_explorer() -> Explorer:
    """A: pick a word and where ids start counting; see the row ``lookup`` returns, or its error.

    Counting from 0, the word's own row comes back. Counting from 1, every word but the last
    silently returns the next word's row, and the last raises ``ValueError`` (no such row).
    """

    def setup(fig: Any, ax: Any) -> Any:
        art = plots.heatmap(E_TOY, ax, row_labels=TOKENS, highlight_row=2)  # heatmap numbers the rows
        error = ax.text(
            1.0,
            1.5,
            "",
            ha="center",
            va="center",
            fontsize=12,
            color=plots.VERMILLION,
            fontweight="bold",
            bbox={"facecolor": "white", "edgecolor": plots.VERMILLION, "boxstyle": "round,pad=0.4"},
        )
        title = ax.set_title("")

        def update(word: int, start: int) -> str:
            token_id = word + start  # the id of `word` for a reader who counts from `start`
            try:
                row = lookup(E_TOY, token_id)
            except ValueError as exc:
                plots.set_highlight_row(art["box"], None)
                error.set_text(f"lookup(E, {token_id}):\nValueError, no row {token_id}")
                error.set_visible(True)
                title.set_text(f'"{TOKENS[word]}" counted from {start}: id {token_id}')
                return f'"{TOKENS[word]}" counted from {start} is id {token_id}: lookup raises ValueError ({exc}).'
            plots.set_highlight_row(art["box"], token_id)
            error.set_visible(False)
            title.set_text(f'"{TOKENS[word]}" counted from {start}: id {token_id}, row of "{TOKENS[token_id]}"')
            if token_id == word:
                verdict = "the right row"
            else:
                verdict = f'the row of "{TOKENS[token_id]}", the wrong word, with no error'
            return (
                f'"{TOKENS[word]}" counted from {start} is id {token_id}: lookup returns row {token_id}, '
                f"{_vec(row)}: {verdict}."
            )

        return update, [art["box"], error, title]

    controls = [
        Control("word", "word", tuple(range(len(TOKENS))), value=2, fmt=lambda i: TOKENS[i]),
        Control("start", "ids count from", (0, 1), value=0),
    ]
    return Explorer("Lookup: which row comes back", controls, setup, figsize=(5.5, 3.2))


#: (name, V, d) pairs that occur together: the toy and real models from :data:`REAL_MODELS`.
SIZE_PRESETS: tuple[tuple[str, int, int], ...] = (
    ("the toy", len(TOKENS), E_TOY.shape[1]),
    *sorted(
        (
            (m["name"], m["vocab_size"], m["d_model"])
            for m in REAL_MODELS
            if m["name"] in ("T5-small", "BERT-base uncased", "GPT-2 small", "Llama 3.2 1B", "Llama 3 8B", "Gemma 2B")
        ),
        key=lambda preset: preset[1] * preset[2],
    ),
)


#: The longest preset name :func:`one_hot_cost_explorer` shows on its slider and title.
MAX_PRESET_NAME = 80


#: Most presets the one-hot cost explorer takes: each is a slider position and a pre-rendered frame.
MAX_PRESETS = 256


def one_hot_cost_explorer(presets: tuple[tuple[str, int, int], ...] = SIZE_PRESETS) -> Explorer:
    """B: the one-hot product's arithmetic against a lookup's, for real (V, d) pairs.

    Each slider position is a model's own vocabulary and width (never a V of one model with the
    d of another). Bars on a log scale: multiplications of ``one_hot @ E`` against numbers a
    lookup copies.
    """
    # a plain tuple or list: a subclass's own len or iter is not trusted
    if not _is_one_of(type(presets), (tuple, list)):
        raise TypeError(f"presets must be a sequence of (name, V, d) triples, got {_describe(presets)}")
    if len(presets) > MAX_PRESETS:
        raise ValueError(
            f"presets must hold at most {MAX_PRESETS} triples (one slider position each), got {len(presets):,}"
        )
    presets = tuple(presets)
    if not presets:
        raise ValueError("presets must hold at least one (name, V, d) triple, got none")
    for preset in presets:
        if not (_is_one_of(type(preset), (tuple, list)) and len(preset) == 3 and type(preset[0]) is str):
            raise TypeError(
                "presets must hold (name, V, d) triples (plain tuples or lists) with a str name, "
                f"got {_describe(preset)}"
            )
        if "|" in preset[0]:
            raise ValueError(
                f"presets must have names without '|' (the book's slider splits on it), got {short_repr(preset[0])}"
            )
        if not preset[0].isprintable():
            raise ValueError(
                f"presets must have names of printable characters (no tabs, newlines or lone surrogates), "
                f"got {short_repr(preset[0])}"
            )
        missing = plots._missing_glyphs(preset[0][: MAX_PRESET_NAME + 1])
        if missing:
            raise ValueError(
                f"presets must have names the figure's font can draw, got {short_repr(preset[0])}, whose "
                f"{short_repr(missing)} the font has no glyph for"
            )
        if len(preset[0]) > MAX_PRESET_NAME:
            raise ValueError(
                f"presets must have names of at most {MAX_PRESET_NAME} characters (a slider label), "
                f"got {short_repr(preset[0])} ({len(preset[0]):,} characters)"
            )
    presets = tuple(
        (name, check_size(v, f"presets: V of {name!r}"), check_size(d, f"presets: d of {name!r}"))
        for name, v, d in presets
    )
    for name, v, d in presets:
        if v * d > plots.MAX_DRAWN_VALUE:
            raise ValueError(
                f"presets: V x d of {name!r} must be at most {plots.MAX_DRAWN_VALUE:g} to be drawn, "
                f"got {short_repr(v * d)}"
            )
    labels = ["one-hot @ E: multiplications", "lookup: numbers copied"]

    def setup(fig: Any, ax: Any) -> Any:
        b = plots.bars([1.0, 1.0], labels, ax, color=plots.BLUE, highlight_color=plots.GREEN, annotate=False)
        ax.set_yscale("log")
        top = math.ceil(math.log10(max(v * d for _, v, d in presets))) + 1  # Python ints: exact, no overflow
        ax.set_ylim(1, 10.0**top)
        ax.set_yticks([10.0**k for k in range(0, top + 1, 2)])  # each labelled tick 100 times the one below
        ax.yaxis.set_minor_locator(NullLocator())
        ax.set_ylabel("operations per token (log scale)")
        notes = [
            ax.annotate("", (i, 1), ha="center", fontsize=12, xytext=(0, 3), textcoords="offset points")
            for i in range(2)
        ]
        title = ax.set_title("")

        def update(preset: int) -> str:
            name, vocab_size, d_model = presets[preset]
            cost = one_hot_cost(vocab_size, d_model)
            counts = [cost["multiplies"], cost["lookup_copies"]]
            plots.update_bars(b, counts, highlight=1)
            for i, (note, c) in enumerate(zip(notes, counts, strict=True)):
                note.xy = (i, c)
                note.set_text(f"{c:,}")
            title.set_text(f"{name.replace('$', chr(92) + '$')}: V = {vocab_size:,}, d = {d_model:,}")  # no math text
            return (
                f"{name} (V = {vocab_size:,}, d = {d_model:,}): one-hot @ E does {cost['multiplies']:,} "
                f"multiplications per token, {cost['wasted_multiplies']:,} of them by zero; lookup copies "
                f"{cost['lookup_copies']:,} numbers ({cost['multiplies'] // cost['lookup_copies']:,} times as many "
                "multiplications as numbers copied)."
            )

        return update, [b, notes, title]

    control = Control("preset", "model", tuple(range(len(presets))), value=0, fmt=lambda i: presets[i][0])
    return Explorer("One-hot @ E against lookup in real models", [control], setup, figsize=(6.0, 3.2))


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
            top = [int(j) for j in np.flatnonzero(np.isclose(z, z.max(), rtol=0.0, atol=1e-12))]  # ties included
            plots.update_bars(bz, z, top)
            plots.update_bars(bp, p, top)
            if len(top) == 1:
                verdict = f'"{TOKENS[top[0]]}" wins with p = {p[top[0]]:.2f}'
            else:
                verdict = (
                    "a tie: " + ", ".join(f'"{TOKENS[j]}"' for j in top) + f" share the top, p = {p[top[0]]:.2f} each"
                )
            return f"h = {_vec([h0, h1, h2])}: logits {_vec(z)}, probabilities {_vec(p, signed=False)}; {verdict}."

        return update, [bz, bp]

    grid = float_range(-1.0, 1.0, 0.1)
    controls = [Control(f"h{i}", f"h[{i}]", grid, value=H_EXAMPLE[i], fmt="{:+.1f}", static_every=5) for i in range(3)]
    return Explorer("Tied logits: move the context h", controls, setup, figsize=(6.4, 2.8), ncols=2)


def _unit_circle(angle: int) -> tuple[float, float]:
    """(cos, sin) of a whole number of degrees, exact at the quarter turns (so 90 degrees gives 0, not 6e-17)."""
    exact = {0: (1.0, 0.0), 90: (0.0, 1.0), 180: (-1.0, 0.0), 270: (0.0, -1.0)}
    if angle % 360 in exact:
        return exact[angle % 360]
    theta = np.radians(angle)
    return float(np.cos(theta)), float(np.sin(theta))


def alignment_explorer(token: int = 2) -> Explorer:
    """D: rotate a unit context ``h`` around ``e_token`` in a plane holding it; watch the sign of the dot,
    and the token's probability against the uniform share (which the sign alone does not settle).

    The control is the angle between ``h`` and ``e``, so its values hold the peak (0 degrees),
    the two exact zero crossings (90 and 270) and the most negative score (180).
    """
    ids = check_ids(token, len(TOKENS), name="token")
    if ids.ndim != 0:  # a list, a range, an array of ids: one row is drawn
        raise TypeError(f"token must be one token id (an int), got {_describe(token)}")
    token = int(ids)
    e = lookup(E_TOY, token)
    basis = plane_basis(e, [1.0, 0.0, 0.0])  # u1 along e, u2 the first axis's remaining direction
    e_2d = basis @ e  # (|e|, 0): true length kept

    def setup(fig: Any, ax: Any) -> Any:
        q = plots.arrows(
            [e_2d, [1.0, 0.0]], ax, labels=[f"e ({TOKENS[token]})", "h"], colors=[plots.BLUE, plots.ORANGE], limit=1.25
        )
        ax.set_xlabel(f"along e ({TOKENS[token]})")
        ax.set_ylabel("across e, in the plane")
        title = ax.set_title("")

        def update(angle: int) -> str:
            c, s_ = _unit_circle(angle)
            h = c * basis[0] + s_ * basis[1]  # (3,) unit vector at `angle` from e
            score = float(tied_logits(h, E_TOY)[token])
            plots.update_arrows(q, [e_2d, basis @ h])
            if abs(score) < 1e-12:
                sign = "zero: at right angles"
            elif angle % 360 == 0:
                sign = "positive: the largest it can be, h along e"
            elif angle % 360 == 180:
                sign = "negative: the most negative, h opposite e"
            else:
                sign = "positive: aligned" if score > 0 else "negative: anti-aligned"
            title.set_text(f"h . e = {plots.signed2(score)}, {sign.split(':')[0]}")
            between = min(angle % 360, 360 - angle % 360)  # the angle between h and e, 0 to 180 degrees
            turned = f"h turned {angle} degrees from e" + (
                f" (an angle of {between} degrees)" if between != angle else ""
            )
            p = float(softmax(tied_logits(h, E_TOY))[token])
            side = "above" if p > 1 / len(TOKENS) else "below" if p < 1 / len(TOKENS) else "equal to"
            return (
                f"{turned}, h = {_vec(h)}, e = {_vec(e)}: "
                f"dot product |h| |e| cos({between} deg) = {plots.signed2(score)}, {sign}. "
                f"P({TOKENS[token]}) = {p:.3f}, {side} the uniform share 1/{len(TOKENS)}."
            )

        return update, [q, title]

    control = Control("angle", "turn h from e (degrees)", tuple(range(0, 360, 15)), value=45, fmt="{} deg")
    return Explorer("Sign of alignment: rotate h around e", [control], setup, figsize=(4.4, 4.4))


def flatten_explorer() -> Explorer:
    """E: scale the context toward zero; the distribution flattens to uniform."""

    def setup(fig: Any, ax: Any) -> Any:
        b = plots.bars(softmax(tied_logits(H_EXAMPLE, E_TOY)), TOKENS, ax)
        ax.axhline(1 / len(TOKENS), color=plots.GREY, linestyle="--", linewidth=1)
        for note in b.annotations:  # a label near 0.25 sits on the uniform line: a white ground keeps it legible
            note.set_verticalalignment("bottom")  # the ground starts above the bar, not inside it
            note.set_bbox({"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none"})
        ax.set_ylim(0, 1.05)
        ax.set_ylabel("probability")
        title = ax.set_title("")

        def update(scale: float) -> str:
            h = scale * np.asarray(H_EXAMPLE)
            p = softmax(tied_logits(h, E_TOY))
            plots.update_bars(b, p, int(np.argmax(p)) if scale > 0 else None)
            title.set_text(f"softmax(tied_logits({scale:g} x h))")
            return (
                f"Context {scale:g} x h = {_vec(h, digits=3)}: probabilities {_vec(p, signed=False)} "
                f"(uniform would be {1 / len(TOKENS):.2f} each)."
            )

        return update, [b, title]

    control = Control("scale", "scale of h", float_range(0.0, 5.0, 0.25), value=1.0, fmt="{:g}")
    return Explorer("Degenerate input: shrink h to zero", [control], setup, figsize=(5.0, 3.0))


def saturation_explorer(n_others: int = 3) -> Explorer:
    """F: slide token 0's logit ``t``; ``P0(t) = e^t / (e^t + 3)`` saturates at 0 and 1."""
    n_others = check_size(n_others, "n_others")
    if n_others > 10_000:
        raise ValueError(f"n_others must be at most 10,000 (one bar of softmax per token), got {n_others:,}")
    ts = np.linspace(-8, 8, 161)

    def setup(fig: Any, ax: Any) -> Any:
        plots.curve(ts, saturation_prob(ts, n_others), ax, label="P0(t), token 0")
        others = (1 - saturation_prob(ts, n_others)) / n_others
        plots.curve(ts, others, ax, label=f"each of the other {n_others}", color=plots.GREEN)
        limit = 1 / n_others
        ax.axhline(limit, color=plots.GREY, linestyle=":", linewidth=1)
        high = limit > 0.8  # near the top: write the note under its line
        ax.annotate(
            f"1/{n_others}, each other's limit",
            (-8.0, limit),
            xytext=(2, -4 if high else 4),
            textcoords="offset points",
            va="top" if high else "bottom",
            fontsize=11,
        )
        turn = float(np.log(n_others))  # P0 = 1/2 here, where the curve is steepest
        if turn <= 8.0:  # on the slider's range: mark it, the note on the side with room
            ax.axvline(turn, color=plots.GREY, linestyle="--", linewidth=1)
            right = turn < 2.0
            ax.annotate(
                f"P0 = 1/2 at t = ln {n_others}",
                (turn, 0.5),
                xytext=(6 if right else -6, -4),
                textcoords="offset points",
                ha="left" if right else "right",
                fontsize=11,
            )
        ax.set_xlim(-8.8, 8.8)
        p0 = plots.marker(0.0, 0.25, ax, color=plots.BLUE)  # on the P0 curve, in its colour
        p1 = plots.marker(0.0, 0.25, ax, color=plots.GREEN)  # on the other tokens' curve, in its colour
        ax.set_xlabel("t, the logit of token 0 (others at 0)")
        ax.set_ylabel("probability")
        ax.set_ylim(-0.03, 1.03)
        ax.set_title("Softmax saturation")
        ax.legend(loc="upper left" if n_others > 1 else "center left")  # where no curve passes

        def update(t: float) -> str:
            p = softmax([t] + [0.0] * n_others)
            p0.set_data([t], [p[0]])
            p1.set_data([t], [p[1]])
            return f"t = {t:+.1f}: P0 = {p[0]:.3f}, each other token {p[1]:.3f}."

        return update, [p0, p1]

    control = Control("t", "t", float_range(-8.0, 8.0, 0.5), value=0.0, fmt="{:+.1f}")
    return Explorer("Saturation: push one logit", [control], setup, figsize=(6.0, 3.2))


def _two_stacked_bars(ax: Any, parts: tuple[str, ...], colors: tuple[str, ...], xlabel: str) -> tuple:
    """G's two stacked horizontal bars (as built, and the other choice), one segment per part, with a
    label above each bar, a note after it and a title, all to be set by the explorer's update."""
    y = np.arange(2)
    segments = [
        ax.barh(y, [1.0, 1.0], left=[0.0, 0.0], color=color, height=0.55, label=part)
        for part, color in zip(parts, colors, strict=True)
    ]
    ax.set_ylim(-0.75, 1.45)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.legend(loc="upper center", ncols=3, bbox_to_anchor=(0.5, -0.28), fontsize=12)
    labels = [ax.text(0, i - 0.32, "", va="bottom", ha="left", fontsize=12) for i in range(2)]
    notes = [ax.text(0, i, "", va="center", ha="left", fontsize=12, fontweight="bold") for i in range(2)]
    ax.set_yticks([])
    return segments, labels, notes, ax.set_title("")


def budget_explorer() -> Explorer:
    """G: choose a real model; see what its embedding and output head are of the whole model, tied and untied.

    Two stacked bars, in % of each variant's whole-model count: the model as built and the same
    model with the other choice (tied made untied by adding a ``V x d`` head; untied made tied by
    dropping its head). What moves from model to model is the share, which ranges from a few
    percent to a third.
    """
    from . import architectures  # whole-model counts, from each model's configuration

    models = [m["name"] for m in REAL_MODELS]
    parts = ("embedding V x d", "output head", "the rest")
    colors = (plots.BLUE, plots.ORANGE, plots.GREY)

    def variants(name: str) -> list[tuple[str, int, int, int]]:
        """(label, embedding, head, rest) as built, then with the other choice."""
        s_ = architectures.embedding_share(name)
        emb, head, total = s_["embedding"], s_["head"], s_["total"]
        rest = total - emb - head
        built = ("as built, " + ("tied" if s_["tied"] else "untied"), emb, head, rest)
        other_head = head + emb if s_["tied"] else head - emb  # the V x d matrix added or dropped, any bias kept
        other = ("if " + ("untied" if s_["tied"] else "tied"), emb, other_head, rest)
        return [built, other]

    def setup(fig: Any, ax: Any) -> Any:
        segments, labels, notes, title = _two_stacked_bars(ax, parts, colors, "% of the whole model's parameters")
        ax.set_xlim(0, 100)

        def update(model: int) -> str:
            name = models[model]
            rows = variants(name)
            for i, (label, emb, head, rest) in enumerate(rows):
                total = emb + head + rest
                widths = [100 * emb / total, 100 * head / total, 100 * rest / total]
                left = 0.0
                for seg, w in zip(segments, widths, strict=True):
                    seg.patches[i].set_x(left)
                    seg.patches[i].set_width(w)
                    left += w
                labels[i].set_text(label)
                notes[i].set_text(f"{widths[0] + widths[1]:.1f}%")
                notes[i].set_position((widths[0] + widths[1] + 1.0, i))
            title.set_text(name)
            (lb, e0, h0, r0), (lo, e1, h1, r1) = rows
            t0, t1 = e0 + h0 + r0, e1 + h1 + r1
            return (
                f"{name}: {lb}, the token embedding ({e0:,}) and output head ({h0:,}) are "
                f"{100 * (e0 + h0) / t0:.1f}% of {t0:,} parameters; {lo}, they would be "
                f"{100 * (e1 + h1) / t1:.1f}% of {t1:,}."
            )

        artists = [p for seg in segments for p in seg.patches]
        return update, [artists, labels, notes, title]

    control = Control("model", "model", tuple(range(len(models))), value=0, fmt=lambda i: models[i])
    return Explorer("Embedding and head: their share of a real model", [control], setup, figsize=(7.0, 3.0))


def training_memory_explorer() -> Explorer:
    """G: the memory of a real model at rest and in training with Adam, as built and with the other choice.

    Two stacked bars in GB (10**9 bytes): embedding, output head and the rest of the model, each
    part's parameters times the bytes a parameter costs (:data:`embedlab.budget.REGIMES`): in
    float32 at rest, or in training with Adam, where float32 and mixed precision as the ZeRO paper
    counts it both cost 16 bytes. The axis is fixed per model, so moving from "at rest" to "in training" shows the bars,
    and the gap tying closes, grow fourfold. (bfloat16 at rest is in G's table, not here: two
    regimes keep the page's pre-rendered frames few.)
    """
    from . import architectures
    from .budget import REGIMES

    models = [m["name"] for m in REAL_MODELS]
    regimes = ["float32 at rest", "float32 Adam"]
    labels_ = {"float32 at rest": "float32 at rest", "float32 Adam": "training with Adam"}
    per_param = {r: sum(n for _, n in REGIMES[r]) for r in regimes}
    if per_param["float32 Adam"] != sum(n for _, n in REGIMES["mixed-precision Adam"]):
        raise RuntimeError("the explorer's 'training with Adam' stands for float32 and mixed precision alike")
    parts = ("embedding V x d", "output head", "the rest")
    colors = (plots.BLUE, plots.ORANGE, plots.GREY)

    def variants(name: str) -> list[tuple[str, int, int, int]]:
        """(label, embedding, head, rest) in parameters: as built, then with the other choice."""
        s_ = architectures.embedding_share(name)
        emb, head, total = s_["embedding"], s_["head"], s_["total"]
        other_head = head + emb if s_["tied"] else head - emb  # the V x d matrix added or dropped, any bias kept
        return [
            ("as built, " + ("tied" if s_["tied"] else "untied"), emb, head, total - emb - head),
            ("if " + ("untied" if s_["tied"] else "tied"), emb, other_head, total - emb - head),
        ]

    def setup(fig: Any, ax: Any) -> Any:
        segments, labels, notes, title = _two_stacked_bars(ax, parts, colors, "GB (10^9 bytes)")

        def update(model: int, regime: int) -> str:
            name, r = models[model], regimes[regime]
            rows = variants(name)
            largest = max(per_param.values()) * max(sum(v[1:]) for v in rows)
            ax.set_xlim(0, 1.3 * largest / 1e9)  # room for the note after the longer bar
            ax.xaxis.set_major_locator(MaxNLocator(nbins=6))
            ticks = [t for t in ax.xaxis.get_major_locator()() if 0 <= t <= 1.2 * largest / 1e9]
            ax.set_xticks(ticks)  # none at the very edge, where its label would be cut
            for i, (label, *counts) in enumerate(rows):
                left = 0.0
                for seg, n in zip(segments, counts, strict=True):
                    width = per_param[r] * n / 1e9
                    seg.patches[i].set_x(left)
                    seg.patches[i].set_width(width)
                    left += width
                labels[i].set_text(label)
                notes[i].set_text(f"{left:,.2f} GB")
                notes[i].set_position((left + 0.01 * largest / 1e9, i))
            title.set_text(f"{name}, {labels_[r]}")
            (lb, e0, h0, r0), (lo, e1, h1, r1) = rows
            built, other = per_param[r] * (e0 + h0 + r0), per_param[r] * (e1 + h1 + r1)
            gap = abs(other - built)
            return (
                f"{name}, {labels_[r]} ({per_param[r]} bytes a parameter"
                + (": float32, or mixed precision as the ZeRO paper counts it" if r == "float32 Adam" else "")
                + f"): {lb}, {built / 1e9:,.2f} GB; {lo}, "
                f"{other / 1e9:,.2f} GB. Tying {'saves' if lb == 'as built, tied' else 'would save'} "
                f"{gap / 1e9:,.2f} GB, {per_param[r]} bytes for each of the {e0:,} entries of the V x d matrix."
            )

        artists = [p for seg in segments for p in seg.patches]
        return update, [ax.xaxis, artists, labels, notes, title]  # the axis first: under the bars, as drawn in full

    controls = [
        Control("model", "model", tuple(range(len(models))), value=0, fmt=lambda i: models[i]),
        Control("regime", "memory", tuple(range(len(regimes))), value=0, fmt=lambda i: labels_[regimes[i]]),
    ]
    return Explorer("Memory at rest and in training", controls, setup, figsize=(7.0, 3.2))


def scale_explorer() -> Explorer:
    """G: tied logits of random rows at growing width d, with and without T5's factor ``d ** -0.5``.

    The ten largest probabilities of the softmax over 1,000 tokens, on a log axis, averaged over
    20 draws of :func:`embedlab.scale.random_logits` (rows and hidden vector with entries of size
    about 1, as a normalized stream has): one draw can be untypical, the average is not.
    """
    from .scale import random_logits

    widths = (2, 8, 32, 128, 512, 2048)
    factors = ("none (unit-scale rows)", "d^-1/2 (T5)")
    top, draws = 10, 20

    drawn: dict[int, list[np.ndarray]] = {}  # each width's unscaled logits, drawn once

    def setup(fig: Any, ax: Any) -> Any:
        b = plots.bars(np.full(top, 1e-6), [str(k + 1) for k in range(top)], ax, annotate=False)
        ax.set_yscale("log")
        ax.set_ylim(1e-6, 1.5)
        ax.set_xlabel("tokens, most probable first (below 10^-6: not drawn)")
        ax.set_ylabel("probability, mean of 20")
        title = ax.set_title("")

        def update(d: int, factor: int) -> str:
            f = 1.0 if factor == 0 else d**-0.5
            if d not in drawn:
                drawn[d] = [random_logits(d, seed=s) for s in range(draws)]
            zs = [f * z for z in drawn[d]]  # T5's factor on h multiplies every logit by it
            ps = [np.sort(softmax(z))[::-1] for z in zs]
            mean = np.mean([p[:top] for p in ps], axis=0)
            plots.update_bars(b, mean)
            spread = float(np.mean([z.std() for z in zs]))
            # the effective number of tokens, e to the entropy: 1 for one-hot, 1,000 for uniform
            effective = float(np.mean([np.exp(-np.sum(p * np.log(np.where(p > 0, p, 1.0)))) for p in ps]))
            title.set_text(f"d = {d}, unit-scale rows, " + ("no factor" if factor == 0 else f"logits x {f:.3g}"))
            return (
                f"d = {d}, rows and h at unit scale, {'no factor' if factor == 0 else f'factor d^-1/2 = {f:.3g}'}, "
                f"mean of {draws} draws: "
                f"the 1,000 logits spread {spread:.2f} (standard deviation); the most probable token takes "
                f"{mean[0]:.3f} of the probability; e to the entropy, the effective number of tokens, is "
                f"{effective:,.1f} of 1,000."
            )

        return update, [b, title]

    controls = [
        Control("d", "width d", widths, value=512),
        Control("factor", "factor", (0, 1), value=0, fmt=lambda i: factors[i]),
    ]
    return Explorer("Tied logits at width d: with a factor and without", controls, setup, figsize=(6.0, 3.2))


def gradient_explorer(context: tuple[int, ...] = (2, 1), W: Any = None) -> Explorer:
    """H: the two gradient paths into each row of a tied ``E``, for a choice of next token."""
    if not issubclass(type(context), (list, tuple, range, np.ndarray)):
        raise TypeError(f"context must be a sequence of token ids, got {_describe(context)}")
    if issubclass(type(context), range) and range_len(context) > 64:  # sized before it is listed
        raise ValueError(f"context must be a flat sequence of at most 64 token ids, got {range_len(context):,}")
    ids = check_ids(context, len(TOKENS), name="context")
    if ids.ndim != 1 or ids.size > 64:
        raise ValueError(f"context must be a flat sequence of at most 64 token ids, got shape {ids.shape}")
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
