"""The naive live route, kept only as a baseline to measure the explorers against.

A naive explorer builds a new figure on every move: a fresh Figure and axes, the explorer's own
``setup``, the update, a full draw and a PNG of the whole figure, sent as the same ``<img>`` with a data:
URL that the live explorers send (so the baseline differs from them only in the work done per move).
``make bench`` times it in the kernel, and ``tests/test_lab.py`` drives it in the same JupyterLab
as the real explorers, so each ratio is taken against a baseline measured in the same run.
Not part of the library's interface.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from unittest import mock

from . import display, explorers
from .plots import new_figure, style
from .widgets import Control, _img_html, _readout_html, png_bytes

#: The explorers of notebooks A to H (factories of :mod:`embedlab.explorers`), the baseline's subjects.
CHAPTER_EXPLORERS = (
    "lookup_explorer",
    "one_hot_cost_explorer",
    "logits_explorer",
    "alignment_explorer",
    "flatten_explorer",
    "saturation_explorer",
    "budget_explorer",
    "training_memory_explorer",
    "scale_explorer",
    "gradient_explorer",
)


@dataclass
class ExplorerSpec:
    """What an explorer factory passes to ``Explorer``, captured so the naive route reuses its ``setup``."""

    title: str
    controls: tuple[Control, ...]
    setup: Callable[..., Any]
    figsize: tuple[float, float] = (6.0, 3.2)
    ncols: int = 1


def capture_spec(factory: Callable[[], Any]) -> ExplorerSpec:
    """The title, controls and setup an explorer factory of :mod:`embedlab.explorers` builds its explorer from."""

    def record(title: str, controls: Any, setup: Any, *, figsize=(6.0, 3.2), ncols=1, **_: Any) -> ExplorerSpec:
        return ExplorerSpec(title, tuple(controls), setup, figsize, ncols)

    with mock.patch.object(explorers, "Explorer", record):
        return factory()


def naive_move(spec: ExplorerSpec, values: dict[str, Any]) -> tuple[str, str]:
    """A new figure for one move: fresh Figure and axes, the same setup, the update, a full draw, PNG, and the
    same HTML a live explorer sends (the ``<img>`` and the readout)."""
    if not issubclass(type(spec), ExplorerSpec):
        raise TypeError(f"spec must be an ExplorerSpec (see capture_spec), got {type(spec).__name__}")
    if type(values) is not dict or set(values) != {c.name for c in spec.controls}:
        raise TypeError(f"values must be a dict with one value per control {[c.name for c in spec.controls]}")
    values = {c.name: c.snap(values[c.name]) for c in spec.controls}  # as the explorer's own sliders allow
    fig, axes = new_figure(display.fitted_size(spec.figsize), spec.ncols)
    display.fit(fig)  # the same size and resolution as the explorer's kept figure
    with style():
        update, _ = spec.setup(fig, axes)
    readout = update(**values)
    with display.quiet_layout():
        fig.canvas.draw()
    return _img_html(png_bytes(fig), "embedlab-layer", readout, "png"), _readout_html(readout)


def naive_explorer(name: str, **kwargs: Any) -> Any:
    """The ipywidgets view of explorer ``name`` (e.g. ``"alignment_explorer"``) drawn the naive way.

    ``kwargs`` are passed to the factory, as the notebook passes them (H's context and body ``W``).
    """
    import ipywidgets as w

    if type(name) is not str or name not in CHAPTER_EXPLORERS:
        raise ValueError(f"name must be one of {list(CHAPTER_EXPLORERS)}, got {name!r}"[:300])
    factory = getattr(explorers, name)
    spec = capture_spec(lambda: factory(**kwargs))
    values = {c.name: c.value for c in spec.controls}
    picture, text = naive_move(spec, values)
    # Shown exactly as a live explorer shows its figure: an <img> with a data: URL in an HTML widget.
    image = w.HTML(
        value=picture, layout=w.Layout(width=f"{display.CSS_WIDTH}px", max_width="100%", margin="2px", padding="0")
    )
    readout = w.HTML(value=text)
    sliders = []
    for c in spec.controls:
        slider = w.SelectionSlider(
            options=[(c.show(v), v) for v in c.values], value=c.value, description=c.label, continuous_update=True
        )

        def moved(change: dict[str, Any], name: str = c.name) -> None:
            values[name] = change["new"]
            image.value, readout.value = naive_move(spec, values)

        slider.observe(moved, names="value")
        sliders.append(slider)
    box = w.VBox([*sliders, image, readout])
    box.add_class("embedlab-naive")  # told apart from the live explorers when both are on one page
    return box
