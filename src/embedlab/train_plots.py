"""Figures of notebook I (tying in training), in the shape of :mod:`embedlab.plots`.

``ax=None`` makes a figure, the artists are returned, ``plt.show()`` is never called. The slider
over training checkpoints is :func:`training_explorer`, an :class:`~embedlab.widgets.Explorer`
like those of :mod:`embedlab.explorers`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from .plots import BLACK, BLUE, GREEN, GREY, ORANGE, PURPLE, SKY, VERMILLION, new_figure, style
from .train import CompareResult, geometry_track
from .widgets import Control, Explorer

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
    if ax is None:
        _, ax = new_figure(figsize)
    return ax


def _check_result(res: Any) -> CompareResult:
    if not isinstance(res, CompareResult):
        raise TypeError(f"res must be a CompareResult (see embedlab.compare), got {type(res).__name__}")
    return res


def loss_curves(
    res: CompareResult,
    ax: Axes | None = None,
    *,
    which: str = "valid",
    names: Sequence[str] | None = None,
    zoom: float | None = 0.6,
) -> dict[str, dict[str, Any]]:
    """Loss at each checkpoint, mean over seeds with a band of ± one standard deviation, per configuration.

    Parameters
    ----------
    res : CompareResult
    ax : matplotlib Axes, optional
    which : {"valid", "train"}
    names : sequence of str, optional
        Configurations to draw; default all.
    zoom : float or None, default 0.6
        Show only losses up to ``zoom`` nats above the lowest mean, where the curves part;
        None shows the whole descent from the initial loss.

    Returns
    -------
    dict
        For each configuration, ``line`` (Line2D) and ``band`` (the PolyCollection of the spread).
    """
    res = _check_result(res)
    ax = _ax(ax)
    names = list(res.configs) if names is None else list(names)
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
            (line,) = ax.plot(steps, mean, color=color, label=label, marker="o", markersize=3)
            band = ax.fill_between(steps, mean - std, mean + std, color=color, alpha=0.2, linewidth=0)
            out[name] = {"line": line, "band": band}
            lowest = min(lowest, float(mean.min()))
        if zoom is not None:
            ax.set_ylim(lowest - 0.1 * zoom, lowest + zoom)
        ax.set_xlabel("training step")
        ax.set_ylabel("cross-entropy (nats)")
        ax.set_title(f"{'Validation' if which == 'valid' else 'Training'} loss, mean ± std over {len(res.seeds)} seeds")
        ax.legend(loc="upper right")
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
    ax = _ax(ax)
    corpus = res.corpus
    groups = {
        "read": np.setdiff1d(np.arange(1, corpus.vocab_size), corpus.never_read()),
        "only predicted": corpus.target_only(),
        "absent": corpus.unseen(),
    }
    groups = {label: ids for label, ids in groups.items() if len(ids)}
    width = 0.8 / len(names)
    out: dict[str, Any] = {"values": {}}
    with style():
        for j, name in enumerate(names):
            per_seed = np.array([res.drift(name, ids).mean(axis=1) for ids in groups.values()])  # (groups, seeds)
            means, stds = per_seed.mean(axis=1), per_seed.std(axis=1, ddof=1 if per_seed.shape[1] > 1 else 0)
            x = np.arange(len(groups)) + (j - (len(names) - 1) / 2) * width
            color = CONFIG_COLORS.get(name, BLACK)
            bars = ax.bar(x, means, width, yerr=stds, color=color, label=name, capsize=3)
            for xi, m, sd in zip(x, means, stds, strict=True):
                text = "0\nexactly" if m == 0 else f"{m:.2f}"
                ax.annotate(text, (xi, m + sd), ha="center", fontsize=9, xytext=(0, 3), textcoords="offset points")
            out[name] = bars
            out["values"][name] = (means, stds)
        ax.set_xticks(np.arange(len(groups)), [f"{label}\n({len(ids)} tokens)" for label, ids in groups.items()])
        ax.set_xlabel("tokens, by how they occur in training")
        ax.set_ylabel("||E_final[r] - E_init[r]||")
        ax.set_ylim(0, 1.35 * max(float((m + sd).max()) for m, sd in out["values"].values()))
        ax.set_title("How far each row of E moved in training")
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
    coords = np.asarray(coords, dtype=float)
    classes = np.asarray(classes)
    if coords.ndim != 2 or coords.shape[1] != 2 or classes.shape != coords.shape[:1]:
        raise ValueError(f"coords must be (V, 2) with one class per row, got {coords.shape} and {classes.shape}")
    ax = _ax(ax, (5.0, 4.2))
    out = {}
    with style():
        extra = [str(c) for c in dict.fromkeys(classes.tolist()) if c not in CLASS_STYLE]  # drawn as grey crosses
        for name in [*CLASS_STYLE, *extra]:
            rows = classes == name
            if rows.any():
                color, mark = CLASS_STYLE.get(name, (GREY, "x"))
                out[name] = ax.scatter(*coords[rows].T, s=28, color=color, marker=mark, label=name, alpha=0.85)
        lim = limit if limit is not None else 1.1 * float(np.abs(coords).max() or 1.0)
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        ax.set_aspect("equal")
        ax.set_xlabel("principal axis 1")
        ax.set_ylabel("principal axis 2")
        ax.set_title(title)
    return out


def update_geometry(artists: dict[str, Any], coords: Any, classes: Any) -> None:
    """Move the points of :func:`geometry_scatter` to new coordinates."""
    coords = np.asarray(coords, dtype=float)
    classes = np.asarray(classes)
    for name, collection in artists.items():
        collection.set_offsets(coords[classes == name])


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
            (out[name],) = ax.step(np.arange(len(order)), share, where="mid", color=color, label=label)
        ax.set_xlabel("token, most often read first")
        ax.set_ylabel("share of steps with a gradient")
        ax.set_ylim(-0.05, 1.1)
        ax.set_title("How often each row of E is updated")
        ax.legend(loc="lower left")
    return out


def training_explorer(res: CompareResult, name: str = "tied", seed_index: int = 0) -> Explorer:
    """A slider over training checkpoints: the loss curves with a moving marker, and ``E`` at that step.

    ``E`` of configuration ``name`` (its run ``seed_index``) is projected at every checkpoint onto
    the principal plane of its final state (:func:`~embedlab.train.geometry_track`), so the slider
    moves the rows, not the axes.
    """
    res = _check_result(res)
    if name not in res.runs:
        raise ValueError(f"name must be one of {sorted(res.runs)}, got {name!r}")
    run = res.runs[name][seed_index]
    track = geometry_track(run.E_checkpoints)  # (c, V, 2)
    steps = tuple(int(s) for s in run.checkpoint_steps)
    classes = res.corpus.classes
    limit = 1.1 * float(np.abs(track).max())
    valid = {n: res.curves(n).mean(axis=0) for n in res.configs}

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
            losses = ", ".join(f"{n} {valid[n][i]:.3f}" for n in res.configs)
            return (
                f"Step {step}: mean validation loss {losses}. Right: the rows of E of the {name} model "
                f"(seed {res.seeds[seed_index]}) on the principal plane of its final state, one colour per word class."
            )

        return update, [marker, title, *points.values()]

    control = Control("step", "training step", steps, value=steps[-1])
    return Explorer("Training, checkpoint by checkpoint", [control], setup, figsize=(11.0, 4.2), ncols=2)
