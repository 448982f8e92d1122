"""Figures of notebook I (tying in training), in the shape of :mod:`embedlab.plots`.

``ax=None`` makes a figure, the artists are returned, ``plt.show()`` is never called. The slider
over training checkpoints is :func:`training_explorer`, an :class:`~embedlab.widgets.Explorer`
like those of :mod:`embedlab.explorers`.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure

from . import plots
from ._validation import (
    _describe,
    _no_false_class,
    _plain_real,
    as_array,
    check_choice,
    check_flag,
    check_nbytes,
    check_real,
    exact_int,
    is_a,
    plain_items,
    plain_str,
    short_repr,
    type_name,
)
from .plots import BLACK, BLUE, GREEN, GREY, ORANGE, PURPLE, SKY, VERMILLION, _check_label, _values, new_figure, style
from .sweep import CONFIGS, Sweep
from .train import CompareResult, geometry_track, pca_2d
from .widgets import Control, Explorer

__all__ = [
    "AGAINST",
    "CLASS_STYLE",
    "CONFIG_COLORS",
    "MAX_ROWS",
    "drift_bars",
    "gap_plot",
    "geometry_panels",
    "geometry_scatter",
    "geometry_summary",
    "loss_curves",
    "sweep_explorer",
    "training_explorer",
    "update_counts",
    "update_geometry",
]

#: Most rows of E a geometry scatter draws (a vocabulary of GPT-2's size fits).
MAX_ROWS = 100_000

#: One colour per configuration of :func:`~embedlab.train.compare`.
CONFIG_COLORS = {"tied": BLUE, "untied": VERMILLION, "untied, same params": GREEN}

#: Colour and marker of each word class: a verb shares its colour with the objects it takes,
#: nouns are circles and verbs triangles, so no class is told apart by colour alone.
CLASS_STYLE = {
    "start": (GREY, "*"),
    "det": (BLACK, "s"),
    "adj": (SKY, "D"),
    "agent": (VERMILLION, "o"),
    "food": (ORANGE, "o"),
    "vehicle": (BLUE, "o"),
    "tool": (GREEN, "o"),
    "v-agent": (VERMILLION, "^"),
    "v-food": (ORANGE, "^"),
    "v-vehicle": (BLUE, "^"),
    "v-tool": (GREEN, "^"),
    "v-intrans": (PURPLE, "^"),
}


def _ax(ax: Axes | None, figsize: tuple[float, float] = (6.0, 3.2)) -> Axes:
    """A new pair of axes of ``figsize``, or the caller's, checked as every plot checks them (2-D Axes)."""
    if ax is None:
        _, ax = new_figure(figsize)
        return ax
    return plots._ax(ax)


def _check_names(res: CompareResult, names: Any) -> list[str]:
    """``names`` as a non-empty list of ``res``'s configurations (None: all of them)."""
    if names is None:
        return list(res.configs)
    if issubclass(type(names), (str, bytes)) or not issubclass(type(names), (list, tuple)):
        raise TypeError(f"names must be a list of {list(res.configs)}, got {type_name(names)}")
    names = plain_items(names, "names", f"a list of {list(res.configs)}")  # a subclass's own len or iter never runs
    plain = [str.__str__(n) if issubclass(type(n), str) else None for n in names]  # no caller's own hash runs
    if not names or not all(n is not None and n in res.configs for n in plain):
        raise ValueError(f"names must be a non-empty list of {list(res.configs)}, got {short_repr(names)}")
    return plain


def _check_result(res: Any) -> CompareResult:
    if not issubclass(type(res), CompareResult):
        raise TypeError(f"res must be a CompareResult (see embedlab.compare), got {type_name(res)}")
    return res._checked()  # checked again: its fields and arrays can be changed after it was made


def loss_curves(
    res: CompareResult,
    ax: Axes | None = None,
    *,
    which: str = "valid",
    names: Sequence[str] | None = None,
    zoom: float | None = 0.6,
    legend: bool = True,
) -> dict[str, Any]:
    """Loss at each checkpoint, mean over seeds with a band of ± one standard deviation, per configuration.

    Parameters
    ----------
    res : CompareResult
    ax : matplotlib Axes, optional
    which : {"valid", "train"}
    names : sequence of str, optional
        Configurations to draw; default all.
    zoom : float or None, default 0.6
        Show only losses up to ``zoom`` nats above the lowest mean, where the curves part, and
        say on the axes where it is cut and where step 0 lies; None shows the whole descent.
    legend : bool, default True

    Returns
    -------
    dict
        For each configuration, ``line`` (Line2D) and ``band`` (the PolyCollection of the spread);
        ``cut``, the note on a cut axis, when there is one.
    """
    res = _check_result(res)
    which = check_choice(which, "which", ("valid", "train"))
    names = _check_names(res, names)
    if zoom is not None:
        if issubclass(type(zoom), (bool, np.bool_)) or not is_a(zoom, numbers.Real):
            raise TypeError(f"zoom must be a positive number of nats or None, got {_describe(zoom)}")
        _no_false_class(zoom, "zoom")
        zoom = _plain_real(zoom, "zoom")
        if issubclass(type(zoom), np.floating):  # compared as a Python float: 1e6 does not fit a float16
            with np.errstate(over="ignore"):
                zoom = float(zoom)
        if not 1e-3 <= zoom <= 1e6:
            raise ValueError(f"zoom must be a number of nats in [0.001, 1e6] or None, got {short_repr(zoom)}")
        zoom = float(zoom)
    legend = check_flag(legend, "legend")  # NumPy's bool too, as a plain bool
    ax = _ax(ax)
    out = {}
    lowest = np.inf
    with style():
        for name in names:
            curves = res.curves(name, which)  # (seeds, c)
            steps = res.runs[name][0].checkpoint_steps
            mean, std = curves.mean(axis=0), curves.std(axis=0, ddof=1 if len(curves) > 1 else 0)
            cfg = res.configs[name]
            color = CONFIG_COLORS.get(name, BLACK)
            label = f"{name} (d = {cfg['d']}, {cfg['n_params']:,} params)"
            (line,) = ax.plot(steps, mean, color=color, label=_check_label(label, "res"), marker="o", markersize=3)
            band = ax.fill_between(steps, mean - std, mean + std, color=color, alpha=0.2, linewidth=0)
            out[name] = {"line": line, "band": band}
            lowest = min(lowest, float(mean.min()))
        start = max(float(res.curves(n, which)[:, 0].mean()) for n in names)
        # cut only where the window is a visible part of the losses' scale (not below float64's resolution there)
        if zoom is not None and lowest + zoom < start and zoom > 1e-6 * abs(lowest):
            ax.set_ylim(lowest - 0.1 * zoom, lowest + zoom)
            out["cut"] = ax.annotate(
                f"axis cut at {lowest + zoom:.2f} nats: at step 0 the loss is {start:.2f}",
                (0.01, 0.02), xycoords="axes fraction", ha="left", va="bottom", fontsize=10,
            )  # fmt: skip
        ax.set_xlabel("training step")
        ax.set_ylabel("cross-entropy (nats)")
        ax.set_title(f"{'Validation' if which == 'valid' else 'Training'} loss, mean ± std over {len(res.seeds)} seeds")
        if legend:
            ax.legend(loc="upper right", fontsize=10)
    return out


def drift_bars(res: CompareResult, ax: Axes | None = None, *, names: Sequence[str] = ("tied", "untied")) -> dict:
    """How far rows of ``E`` moved from their initialisation, by how often the token is read in training.

    Three groups of tokens: read in some training context, only ever predicted (sentence-final
    words), absent from training. Each bar is ``||E_final[r] - E_init[r]||`` averaged over the
    group's tokens and the seeds; the error bar is the spread over seeds.

    Returns
    -------
    dict
        The ``BarContainer`` of each configuration, and ``values``: ``{name: (means, stds)}``.
    """
    res = _check_result(res)
    names = _check_names(res, names)
    ax = _ax(ax)
    corpus = res.corpus
    groups = {
        "read (not <s>)": np.setdiff1d(np.arange(1, corpus.vocab_size), corpus.never_read()),
        "only predicted": corpus.target_only(),
        "absent": corpus.unseen(),
    }
    groups = {label: ids for label, ids in groups.items() if len(ids)}
    for name in names:  # each group's rows, seed by seed: sized before any is read
        check_nbytes((len(res.seeds) + 1, corpus.vocab_size, max(1, res.configs[name]["d"])), np.float64, "res")
    width = 0.8 / len(names)
    out: dict[str, Any] = {"values": {}}
    with style():
        for j, name in enumerate(names):
            per_seed = np.array([res.drift(name, ids).mean(axis=1) for ids in groups.values()])  # (groups, seeds)
            means, stds = per_seed.mean(axis=1), per_seed.std(axis=1, ddof=1 if per_seed.shape[1] > 1 else 0)
            x = np.arange(len(groups)) + (j - (len(names) - 1) / 2) * width
            color = CONFIG_COLORS.get(name, BLACK)
            bars = ax.bar(x, means, width, yerr=stds, color=color, label=_check_label(name, "res"), capsize=3)
            for xi, m, sd in zip(x, means, stds, strict=True):
                text = "0\nexactly" if m == 0 else f"{m:.2f}"
                ax.annotate(text, (xi, m + sd), ha="center", fontsize=9, xytext=(0, 3), textcoords="offset points")
            out[name] = bars
            out["values"][name] = (means, stds)
        ax.set_xticks(np.arange(len(groups)), [f"{label}\n({len(ids)} tokens)" for label, ids in groups.items()])
        ax.set_xlabel("tokens, by how they occur in training")
        ax.set_ylabel("||E_final[r] - E_init[r]||")
        ax.set_ylim(0, 1.35 * max(float((m + sd).max()) for m, sd in out["values"].values()) or 1.0)  # no drift: 0 to 1
        ax.set_title("How far rows of E moved (whiskers: std over seeds)")
        ax.legend(loc="upper left", ncols=len(names))
    return out


def geometry_scatter(
    coords: Any, classes: Any, ax: Axes | None = None, *, limit: float | None = None, title: str = "E in 2-D"
) -> dict[str, Any]:
    """The rows of ``E`` projected to 2-D (:func:`~embedlab.train.pca_2d`), one colour and marker per word class.

    Returns
    -------
    dict
        The PathCollection of each class present; move them with :func:`update_geometry`.
    """
    coords, classes = _check_geometry(coords, classes)
    if limit is not None:
        limit = check_real(limit, "limit")
        if limit <= 0 or limit > 1e300:
            raise ValueError(f"limit must be positive and at most 1e300, got {short_repr(limit)}")
    title = _check_label(title, "title")
    ax = _ax(ax, (5.0, 4.2))
    plots._equal_aspect(ax, "ax")
    out = {}
    with style():
        extra = [str(c) for c in dict.fromkeys(classes.tolist()) if c not in CLASS_STYLE]  # drawn as grey crosses
        for name in [*CLASS_STYLE, *extra]:
            rows = classes == name
            if rows.any():
                color, mark = CLASS_STYLE.get(name, (GREY, "x"))
                out[name] = ax.scatter(
                    *coords[rows].T, s=28, color=color, marker=mark, label=_check_label(name, "classes"), alpha=0.85
                )
        lim = limit if limit is not None else 1.1 * float(np.abs(coords).max() or 1.0)
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        ax.set_xlabel("principal axis 1")
        ax.set_ylabel("principal axis 2")
        ax.set_title(title)
    return out


def update_geometry(artists: dict[str, Any], coords: Any, classes: Any) -> None:
    """Move the points of :func:`geometry_scatter` to new coordinates."""
    # A plain dict of plain str keys, read by dict's own methods: no key's (or subclass's) own code runs.
    if (
        type(artists) is not dict
        or not all(type(k) is str for k in artists)
        or not all(issubclass(type(a), PathCollection) for a in artists.values())
    ):
        raise TypeError(f"artists must be the dict geometry_scatter returned, got {_describe(artists)}")
    coords, classes = _check_geometry(coords, classes)
    for name, collection in artists.items():
        rows = classes == name
        if len(collection.get_offsets()) != int(rows.sum()):
            raise ValueError(
                f"classes must give class {short_repr(name)} the {len(collection.get_offsets())} rows it was "
                f"drawn with, got {int(rows.sum())}"
            )
        collection.set_offsets(coords[rows])


def _check_geometry(coords: Any, classes: Any) -> tuple[np.ndarray, np.ndarray]:
    """``coords`` as a finite float64 (V, 2) array to draw and ``classes`` as V strings, one per row."""
    coords = _values(coords, "coords", ndim=2)
    if coords.shape[1] != 2 or coords.size > 2 * MAX_ROWS:
        raise ValueError(f"coords must have shape (V, 2) with V at most {MAX_ROWS:,}, got {coords.shape}")
    if issubclass(type(classes), (str, bytes)):
        raise TypeError(f"classes must be one class name per row of coords, got the string {short_repr(classes)}")
    classes = as_array(classes, "classes", "class names")
    if classes.dtype.kind not in "UO" or not all(issubclass(type(c), str) for c in classes.ravel().tolist()):
        raise TypeError(f"classes must hold str class names, got dtype {classes.dtype}")
    if classes.shape != coords.shape[:1]:
        raise ValueError(f"classes must name each of the {len(coords)} rows of coords, got shape {classes.shape}")
    classes = np.array([str.__str__(c) for c in classes.tolist()], dtype=object)  # the names as the text they hold
    for name in dict.fromkeys(classes.tolist()):  # each class name a legend entry, drawn as typed
        _check_label(name, "classes")
    return coords, classes


def update_counts(res: CompareResult, ax: Axes | None = None, *, names: Sequence[str] = ("tied", "untied")) -> dict:
    """The share of steps at which each row of ``E`` got a non-zero gradient, tokens ordered by how often they are read.

    Tied, the output path reaches every row at every step; untied, only the rows of tokens in the
    step's contexts. Averaged over seeds.

    Returns
    -------
    dict
        The Line2D of each configuration.
    """
    res = _check_result(res)
    names = _check_names(res, names)
    ax = _ax(ax)
    inputs, _ = res.corpus.counts()
    order = np.argsort(-inputs, kind="stable")
    out = {}
    with style():
        for name in names:
            runs = res.runs[name]
            share = np.mean([r.row_updates / r.steps for r in runs], axis=0)[order]
            per_step = np.mean([r.rows_touched.mean() for r in runs])
            color = CONFIG_COLORS.get(name, BLACK)
            label = f"{name}: {per_step:.1f} of {res.corpus.vocab_size} rows per step"
            (out[name],) = ax.step(
                np.arange(len(order)), share, where="mid", color=color, label=_check_label(label, "res")
            )
        ax.set_xlabel("token, sorted by how often it is read in training")
        ax.set_ylabel("share of steps with a gradient")
        ax.set_ylim(-0.05, 1.1)
        ax.set_title("How often each row of E gets a gradient")
        ax.legend(loc="center right")
    return out


def training_explorer(res: CompareResult, name: str = "tied", seed_index: int = 0) -> Explorer:
    """A slider over training checkpoints: the loss curves with a moving marker, and ``E`` at that step.

    ``E`` of configuration ``name`` (its run ``seed_index``) is projected at every checkpoint onto
    the principal plane of its final state (:func:`~embedlab.train.geometry_track`), so the slider
    moves the rows, not the axes.
    """
    res = _check_result(res)
    if not issubclass(type(name), str) or plain_str(name) not in res.runs:
        raise ValueError(f"name must be one of {sorted(res.runs)}, got {short_repr(name)}")
    name = plain_str(name)
    if issubclass(type(seed_index), bool) or not is_a(seed_index, numbers.Integral):
        raise TypeError(f"seed_index must be an int, got {type_name(seed_index)}")
    seed_index = exact_int(seed_index, "seed_index")
    if not 0 <= seed_index < len(res.seeds):
        raise ValueError(
            f"seed_index must be in [0, {len(res.seeds) - 1}] (one run per seed), got {short_repr(seed_index)}"
        )
    run = res.runs[name][seed_index]
    track = geometry_track(run.E_checkpoints)  # (c, V, 2)
    steps = tuple(int(s) for s in run.checkpoint_steps)
    classes = res.corpus.classes
    limit = 1.1 * float(np.abs(track).max() or 1.0)  # all rows at the origin: a unit square around it
    valid = {n: res.curves(n).mean(axis=0) for n in res.configs}
    names, seed = tuple(valid), res.seeds[seed_index]  # read once: the frames never go back to res

    def setup(fig: Any, axes: Any) -> Any:
        curves_ax, geo_ax = axes
        loss_curves(res, curves_ax)
        curves_ax.set_title("Validation loss")
        marker = curves_ax.axvline(steps[-1], color=BLACK, linewidth=1.2, linestyle="--")
        points = geometry_scatter(track[-1], classes, geo_ax, limit=limit)
        geo_ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), ncols=1)
        title = geo_ax.set_title("")

        def update(step: int) -> str:
            i = steps.index(step)
            marker.set_xdata([step, step])
            update_geometry(points, track[i], classes)
            title.set_text(f"E ({name}) at step {step}")
            losses = ", ".join(f"{n} {valid[n][i]:.3f}" for n in names)
            return (
                f"Step {step}: mean validation loss {losses}. Right: the rows of E of the {name} model "
                f"(seed {seed}) on the principal plane of its final state, one colour per word class."
            )

        return update, [marker, title, *points.values()]

    control = Control("step", "training step", steps, value=steps[-1])
    return Explorer("Training, checkpoint by checkpoint", [control], setup, figsize=(11.0, 4.2), ncols=2)


# -- the sweep (embedlab.sweep) and geometry over seeds -------------------------------------------


#: How the gap plot and the sweep explorer name the two comparisons.
AGAINST = {"untied": "same width", "untied, same params": "same parameter count"}


def _check_sweep(sweep: Any) -> Sweep:
    if not issubclass(type(sweep), Sweep):
        raise TypeError(f"sweep must be an embedlab.sweep.Sweep (see load_results), got {type_name(sweep)}")
    return sweep  # checked when it was made, and read-only since


def gap_plot(sweep: Sweep, axes: Any = None) -> dict[tuple[str, bool, int], Any]:
    """Test loss of tied minus untied, with its 95 % interval, over data size, one line per width.

    Four panels: rows compare with the untied model at the same width and at the same parameter
    count; columns are with and without the hidden layer. Below the dashed zero line tying is better.

    Parameters
    ----------
    sweep : Sweep
    axes : array of 2 x 2 matplotlib Axes, optional

    Returns
    -------
    dict
        The ``ErrorbarContainer`` of each ``(other, hidden, d)``; its line's y data are the mean
        gaps over the data sizes.
    """
    sweep = _check_sweep(sweep)
    spec = sweep.spec
    if axes is None:
        _, axes = new_figure((6.4, 5.6), ncols=len(spec.hidden), nrows=2)
    grid = f"2 x {len(spec.hidden)} matplotlib Axes"
    flat = plots._axes_list(axes, 2 * len(spec.hidden), "axes", grid)
    if len(flat) != 2 * len(spec.hidden):
        raise ValueError(f"axes must be {grid}, got {len(flat)}")
    axes = plots._axes_array(flat)
    axes = axes.reshape(2, len(spec.hidden))
    widths = spec.widths
    palette = (ORANGE, BLUE, GREEN, PURPLE, VERMILLION, SKY, BLACK)
    colors = {d: palette[i % len(palette)] for i, d in enumerate(widths)}
    x = np.arange(len(spec.data_sizes))
    out = {}
    with style():
        for row, other in enumerate(CONFIGS[1:]):
            for col, hidden in enumerate(spec.hidden):
                ax = axes[row, col]
                ax.axhline(0.0, color=GREY, linestyle="--", linewidth=1)
                for j, d in enumerate(widths):
                    gaps = [sweep.gap(n, d, hidden, other) for n in spec.data_sizes]
                    mean = np.array([g["mean"] for g in gaps])
                    err = np.array([[g["mean"] - g["low"] for g in gaps], [g["high"] - g["mean"] for g in gaps]])
                    offset = (j - (len(widths) - 1) / 2) * 0.12
                    out[(other, hidden, d)] = ax.errorbar(
                        x + offset, mean, yerr=err, color=colors[d], marker="o", markersize=4, capsize=3,
                        label=f"d = {d}",
                    )  # fmt: skip
                ax.set_xticks(x, [f"{n:,}" for n in spec.data_sizes])
                ax.set_title(f"same {'width' if other == 'untied' else 'size'}, layer {'on' if hidden else 'off'}")
                if row == 1:
                    ax.set_xlabel("training sentences")
                if col == 0:
                    ax.set_ylabel("tied − untied (nats)\nbelow 0: tied better")
        handles = [out[(CONFIGS[1], spec.hidden[0], d)] for d in widths]
        axes[0, 0].figure.legend(handles=handles, loc="outside lower center", ncols=len(widths))
    return out


def geometry_summary(res: CompareResult, ax: Axes | None = None) -> dict[str, Any]:
    """Within-class minus between-class cosine of each matrix, one dot per seed: all rows and rows read.

    Returns
    -------
    dict
        ``values``: ``{(subset, matrix): (n_seeds,) gaps}``; ``dots``: the PathCollection of each.
    """
    res = _check_result(res)
    ax = _ax(ax, (6.4, 3.4))
    corpus = res.corpus
    subsets = {
        "all rows": np.arange(1, corpus.vocab_size),
        "rows read in training": np.setdiff1d(np.arange(1, corpus.vocab_size), corpus.never_read()),
    }
    colors = {"tied E": BLUE, "untied E (input)": VERMILLION, "untied W (output)": GREEN}
    out: dict[str, Any] = {"values": {}, "dots": {}}
    with style():
        for i, (subset, ids) in enumerate(subsets.items()):
            geo = res.geometry(ids)
            for j, (title, stats) in enumerate(geo.items()):
                gap = stats[:, 0] - stats[:, 1]
                xs = np.full(len(gap), i * 4 + j, dtype=float)
                label = title if i == 0 else None
                out["dots"][(subset, title)] = ax.scatter(xs, gap, color=colors[title], s=22, label=label, zorder=3)
                ax.hlines(gap.mean(), xs[0] - 0.3, xs[0] + 0.3, color=colors[title], linewidth=2)
                out["values"][(subset, title)] = gap
        ax.set_xticks([1, 5], list(subsets))
        ax.set_ylabel("cosine within − between classes")
        ax.set_ylim(bottom=min(0.0, ax.get_ylim()[0]))
        ax.set_title(f"Class structure of each matrix, {len(res.seeds)} seeds (bar: mean)")
        ax.legend(loc="upper left", fontsize=9)
    return out


def geometry_panels(res: CompareResult, seed_index: int = 0, fig: Any = None) -> dict[str, Any]:
    """The three matrices of one seed on their principal planes, side by side, with one class legend.

    Returns
    -------
    dict
        For each matrix, the artists of :func:`geometry_scatter`; ``legend``, the figure's legend.
    """
    res = _check_result(res)
    if issubclass(type(seed_index), bool) or not issubclass(type(seed_index), (int, np.integer)):
        raise TypeError(f"seed_index must be an int, got {type_name(seed_index)}")
    seed_index = exact_int(seed_index, "seed_index")
    if not 0 <= seed_index < len(res.seeds):
        raise ValueError(f"seed_index must be in [0, {len(res.seeds)}), got {short_repr(seed_index)}")
    if fig is None:
        fig, _ = new_figure((6.4, 3.6), ncols=3)
    elif not issubclass(type(fig), Figure) or len(fig.axes) != 3:
        raise ValueError(f"fig must be a matplotlib Figure with 3 axes or None, got {type_name(fig)}")
    elif what := next(filter(None, map(plots._unplottable, fig.axes)), None):  # as every plot refuses them
        raise TypeError(f"fig must hold 3 two-dimensional Axes, got {what} among them")
    res._tied_and_untied()
    tied, untied = res.runs["tied"][seed_index], res.runs["untied"][seed_index]
    mats = {
        "tied E": tied.params["E"],
        "untied E\n(input)": untied.params["E"],
        "untied W\n(output)": untied.params["W"],
    }
    out: dict[str, Any] = {}
    with style():
        for ax, (title, M) in zip(fig.axes, mats.items(), strict=True):
            out[title] = geometry_scatter(pca_2d(M)[0], res.corpus.classes, ax, title=title)
            ax.set_xlabel("axis 1")
            ax.set_ylabel("axis 2" if ax is fig.axes[0] else "")
        handles = list(out["tied E"].values())
        out["legend"] = fig.legend(handles=handles, loc="outside lower center", ncols=6, fontsize=9)
    return out


def sweep_explorer(sweep: Sweep) -> Explorer:
    """Sliders over the sweep (training sentences, width, hidden layer): curves from step 0 and the gaps.

    Left: the mean validation loss of each configuration's reported runs from step 0 (over the
    runs still training at each step), with each run's best checkpoint as a dot. Right: the paired
    test-loss gap, tied minus untied at the same width and at the same size, with its 95 %
    interval, on one scale for every frame; a gap beyond that scale is drawn at its edge and
    labelled with its value.
    """
    sweep = _check_sweep(sweep)
    spec = sweep.spec
    others = CONFIGS[1:]
    data = {}
    for n, d, h in sweep.cells():
        curves = {cfg: sweep.mean_curve(n, d, h, cfg) for cfg in CONFIGS}
        best = {
            cfg: np.array([[r["best_step"], r["best_valid"]] for r in sweep.chosen(n, d, h, cfg)]) for cfg in CONFIGS
        }
        gaps = {o: {**sweep.gap(n, d, h, o), "verdict": sweep.verdict(n, d, h, o)} for o in others}
        tests = {cfg: sweep.test_loss(n, d, h, cfg)[0] for cfg in CONFIGS}
        data[(n, d, h)] = (curves, best, gaps, tests)
    x_max = 1.03 * max(
        max(float(c[0][-1]) for curves, *_ in data.values() for c in curves.values()),
        max(float(b[:, 0].max()) for _, best, *_ in data.values() for b in best.values()),
        1.0,
    )  # every curve and every run's best checkpoint inside the axes
    curve_lo = min(float(c[1].min()) for curves, *_ in data.values() for c in curves.values())
    curve_hi = max(float(c[1].max()) for curves, *_ in data.values() for c in curves.values())
    top = min(
        curve_hi + 0.05,
        max(float(np.percentile(c[1], 50)) for curves, *_ in data.values() for c in curves.values()) + 0.3,
    )
    # The gap scale: wide enough for every interval of the cells with the hidden layer (or of all
    # cells, when there are none), always including 0; larger gaps are clamped and labelled.
    scale_cells = [c for c in data if c[2]] or list(data)
    ends = [v for c in scale_cells for g in data[c][2].values() for v in (g["low"], g["high"])] + [0.0]
    pad = max(0.1 * (max(ends) - min(ends)), 0.005)
    g_lo, g_hi = min(ends) - pad, max(ends) + pad

    def clamp(v: float) -> float:
        return min(max(v, g_lo), g_hi)

    def setup(fig: Any, axes: Any) -> Any:
        curve_ax, gap_ax = axes
        lines, dots = {}, {}
        for cfg in CONFIGS:
            color = CONFIG_COLORS[cfg]
            (lines[cfg],) = curve_ax.plot([], [], color=color, label=cfg)
            dots[cfg] = curve_ax.scatter([], [], color=color, s=14, zorder=3)
        bars = [gap_ax.plot([i, i], [0, 0], color=CONFIG_COLORS[o], linewidth=3)[0] for i, o in enumerate(others)]
        marks = gap_ax.scatter([0, 1], [0, 0], color=[CONFIG_COLORS[o] for o in others], s=36, zorder=3, clip_on=False)
        notes = [gap_ax.text(i, g_hi - 0.1 * (g_hi - g_lo), "", ha="center", va="top") for i in range(len(others))]
        gap_ax.axhline(0.0, color=GREY, linestyle="--", linewidth=1)
        # Steps on a symlog axis (linear to 100, then logarithmic): the short runs of small data and
        # the long ones of large data both stay legible. The loss axis is cut above `top`.
        curve_ax.set_xscale("symlog", linthresh=100, linscale=0.5)
        curve_ax.set_xlim(0, x_max)
        curve_ax.set_ylim(curve_lo - 0.05, top)
        curve_ax.set_xlabel("training step")
        curve_ax.set_ylabel("validation loss (nats)")
        # below the panels: every corner of the curve panel holds a curve in some frame
        fig.legend(handles=list(lines.values()), loc="outside lower center", ncol=3, fontsize=9)
        # drawn once (each frame's own start is in its readout): every cell's curves start above the cut
        above = all(float(c[1][0]) > top for curves, *_ in data.values() for c in curves.values())
        curve_ax.annotate(
            f"axis cut at {top:.1f}" + (";\nstep 0 lies above it" if above else ""),
            (0.03, 0.03),
            xycoords="axes fraction",
            fontsize=9,
        )
        gap_ax.set_xlim(-0.6, len(others) - 0.4)
        gap_ax.set_ylim(g_lo, g_hi)
        gap_ax.set_xticks(range(len(others)), ["same\nwidth", "same\nsize"])
        gap_ax.set_ylabel("tied − untied (nats)\nbelow 0: tied better")
        gap_ax.set_title("Gap, 95 % interval")
        title = curve_ax.set_title("")

        def update(n_train: int, d: int, hidden: bool) -> str:
            curves, best, gaps, tests = data[(n_train, d, hidden)]
            for cfg in CONFIGS:
                lines[cfg].set_data(*curves[cfg])
                dots[cfg].set_offsets(best[cfg])
            for i, o in enumerate(others):
                g = gaps[o]
                bars[i].set_data([i, i], [clamp(g["low"]), clamp(g["high"])])
                off = g["low"] > g_hi or g["high"] < g_lo
                notes[i].set_text(f"off scale:\n{g['mean']:+.2f}" if off else "")
            marks.set_offsets(np.array([[i, clamp(gaps[o]["mean"])] for i, o in enumerate(others)]))
            title.set_text(f"{n_train:,} sentences, d = {d}, layer {'on' if hidden else 'off'}")
            at_start = ", ".join(f"{cfg} {float(curves[cfg][1][0]):.2f}" for cfg in CONFIGS)  # each mean curve
            said = ", ".join(f"{cfg} {tests[cfg]:.3f} ({np.exp(tests[cfg]):.2f} perplexity)" for cfg in CONFIGS)
            gap_text = "; ".join(
                f"{AGAINST[o]}: {gaps[o]['mean']:+.3f} [{gaps[o]['low']:+.3f}, {gaps[o]['high']:+.3f}], "
                f"{gaps[o]['verdict']}"
                for o in others
            )
            return (
                f"{n_train:,} training sentences, width {d}, {'with' if hidden else 'without'} the hidden layer. "
                f"Test loss {said}. Tied minus untied at the {gap_text}. Dots: each run's best validation checkpoint. "
                f"At step 0{' (above the cut axis)' if above else ''}: {at_start}."
            )

        return update, [*lines.values(), *dots.values(), *bars, marks, *notes, title]

    controls = [
        Control("n_train", "training sentences", spec.data_sizes, fmt="{:,}"),
        Control("d", "width d", spec.widths, value=spec.widths[len(spec.widths) // 2]),
        Control("hidden", "hidden layer", spec.hidden, fmt=lambda h: "on" if h else "off"),
    ]
    return Explorer("The sweep, cell by cell", controls, setup, figsize=(11.0, 4.2), ncols=2)
