"""``scripts/bench.py`` runs: the slider and drag benchmarks of the live explorers, at their smallest.

Their numbers are not checked here (tests never time): only that ``make bench`` can take each
route a live view takes, the framed one and the fetched one, and reports a row for each.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "scripts" / "bench.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("embedlab_bench_script", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


@pytest.mark.parametrize("name", ["logits_explorer", "saturation_explorer"])  # fetched, framed
def test_bench_moves_and_drags_a_live_explorer(bench, monkeypatch, name):
    monkeypatch.setattr(bench, "EXPLORERS", [name])
    sliders = [r for r in bench.bench_sliders(1) if name in r.what]
    drags = bench.bench_drags(1)
    assert sliders and len(drags) == 1
    for row in [*sliders, *drags]:
        assert row.seconds is not None and row.seconds >= 0 and row.against_seconds > 0
    route = "frame drawn by the kernel" if name == "logits_explorer" else "frames in the browser"
    assert all(route in r.what for r in sliders)
