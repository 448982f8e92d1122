"""The naive baseline (``embedlab._naive``): the same figure and the same message as a live explorer, by more work."""

import base64
import io
import re

import numpy as np
import pytest
from matplotlib.image import imread

from embedlab import explorers, widgets
from embedlab._naive import CHAPTER_EXPLORERS, capture_spec, naive_explorer, naive_move

_IMG = re.compile(
    r'^<img class="embedlab-layer" src="data:image/png;base64,([A-Za-z0-9+/=]+)" alt="[^"]*" style="[^"]*">$'
)


def _pixels(html: str) -> np.ndarray:
    found = _IMG.match(html)
    assert found, html[:120]
    rgba = imread(io.BytesIO(base64.b64decode(found.group(1))), format="png")
    if rgba.shape[-1] == 3:
        return rgba
    return rgba[..., :3] * rgba[..., 3:] + (1.0 - rgba[..., 3:])  # as the page shows it, on white


@pytest.mark.parametrize("name", ["logits_explorer", "flatten_explorer"])
def test_naive_move_sends_what_the_live_view_sends(name: str) -> None:
    """Same values: the same kind of <img>, the same readout, a picture of the same size that looks the same."""
    factory = getattr(explorers, name)
    ex, spec = factory(), capture_spec(factory)
    c = ex.controls[0]
    value = c.values[-1]
    readout = ex.update(**{c.name: value})
    live_picture = widgets._img_html(ex.png(), "embedlab-layer", readout, "png")  # the kept figure, drawn
    live_readout = widgets._readout_html(readout)
    naive_picture, naive_readout = naive_move(spec, {**ex.values, c.name: value})
    assert naive_readout == live_readout
    a, b = _pixels(live_picture), _pixels(naive_picture)
    assert a.shape == b.shape
    # the kept figure copies its labels' pixels to the nearest whole pixel: the pictures agree but for that
    assert np.mean(np.abs(a - b) > 0.05) < 0.005


def test_naive_explorer_shows_an_img_and_follows_its_slider() -> None:
    box = naive_explorer("logits_explorer")
    *sliders, image, readout = box.children
    before = image.value, readout.value
    assert _IMG.match(image.value) and readout.value.startswith('<p class="embedlab-readout">')
    sliders[0].index = (sliders[0].index + 3) % len(sliders[0].options)
    assert image.value != before[0] and readout.value != before[1]
    spec = capture_spec(explorers.logits_explorer)
    values = {c.name: c.value for c in spec.controls} | {spec.controls[0].name: sliders[0].value}
    assert (image.value, readout.value) == naive_move(spec, values)


def test_chapter_explorers_exist() -> None:
    assert all(callable(getattr(explorers, n)) for n in CHAPTER_EXPLORERS)
