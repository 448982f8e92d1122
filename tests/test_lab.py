"""End to end in a real JupyterLab: every notebook runs clean and its explorer's sliders drive the figure.

One ``jupyter lab`` server (isolated folders, token in the URL) and one headless Chromium serve the
whole module. Each notebook, on a temporary copy, is opened, restarted and run through the Kernel
menu; then errors are mapped to cells (only cells tagged ``raises-exception`` may show one), and
every slider of the explorer is moved with the keyboard: the figure must change and the readout
follow, and moving back must restore both.

The time from key press to the frame that painted the new figure (Chromium's Element Timing) is
measured and reported (``_build/bench/lab-latency.json`` and the end-of-session summary), never
asserted, against the naive twins of the notebook's explorers (a new figure per move), appended to
the same notebook copy and pressed in turn with it. Drags send their pointer moves at 60 per second
without waiting for the page. A last test breaks the redraw on purpose and checks that the slider
check catches it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import platform
import re
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from embedlab._naive import CHAPTER_EXPLORERS
from tests.browser import chromium_path
from tests.lab_server import LabServer, lab_server

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
# The eight worked examples and notebook I (the self-check notebook is tested in tests/test_quiz_lab.py).
NOTEBOOKS = sorted(p.name for p in (REPO / "notebooks").glob("[A-I]-*.ipynb"))
ARTIFACTS = REPO / "_build" / "test-artifacts" / "lab"
LATENCY_JSON = REPO / "_build" / "bench" / "lab-latency.json"

PRESSES_PER_NOTEBOOK = 8  # at least; each slider is moved there and back
NAIVE_NOTEBOOK = "naive-baseline.ipynb"  # every explorer drawn the naive way: the drags' baselines
# The explorers of notebooks A to H, each of which has a naive twin (embedlab._naive): the baselines.
NAIVE_EXPLORERS = CHAPTER_EXPLORERS
DRAG_MOVES, DRAG_RATE = 20, 60  # a drag: 20 pointer moves at 60 per second
DRAG_REPEATS = 3  # drags per route, each across the whole track (back and forth): the median is reported
# Goals (issue 22), reported beside the measurements, never asserted: machines differ up to 4x.
TARGET_MEDIAN_MS, TARGET_RATIO, TARGET_DRAG_MS = 50, 0.25, 100
RUN_TIMEOUT_S = 180  # restart and run all cells
FIGURE_TIMEOUT_MS = 10_000  # key press to new figure (the measured median is far below)

# -- page scripts -----------------------------------------------------------------------------
# textContent, not innerText: JupyterLab skips rendering off-screen cells (content-visibility).

_CELLS_JS = """() => {
  // The status bar's kernel item reads "Python 3 (ipykernel) | Idle" once a kernel is connected
  // (the toolbar's indicator already says idle while there is no kernel yet).
  const kernel = [...document.querySelectorAll('#jp-main-statusbar .jp-StatusBar-TextItem')]
    .find(e => e.title.startsWith('Change kernel'));
  const cells = [...document.querySelectorAll('.jp-NotebookPanel .jp-Notebook .jp-Cell')];
  return {
    kernel: kernel ? kernel.textContent.trim() : null,
    // a cell whose source is folded away (a worked solution) shows its count on its result instead
    prompts: cells.map(c => c.classList.contains('jp-CodeCell')
      ? ((c.querySelector('.jp-InputPrompt')?.textContent ?? '').trim()
         || (c.querySelector('.jp-OutputPrompt')?.textContent ?? '').trim()) : null),
    // each cell's errors (and anything else it wrote to stderr)
    errors: cells.map(c => [...c.querySelectorAll(
      '.jp-RenderedText[data-mime-type="application/vnd.jupyter.stderr"]')].map(e => e.textContent)),
  };
}"""

_STATE_JS = """(box) => ({
  src: box.querySelector('img.embedlab-layer')?.src ?? null,
  readout: box.querySelector('.embedlab-readout')?.textContent ?? null,
  sliders: [...box.querySelectorAll('.widget-slider')].map(s => ({
    label: s.querySelector('.widget-label').textContent,
    now: Number(s.querySelector('.noUi-handle').getAttribute('aria-valuenow')),
    max: Number(s.querySelector('.noUi-handle').getAttribute('aria-valuemax')),
    shown: s.querySelector('.widget-readout').textContent,
  })),
})"""

# SHA-256 of the picture itself: a new src alone (a blob: or data: URL) does not prove a new figure. A
# data: URL holds its bytes; a pre-rendered frame's blob: URL is read as the pixels the page decoded
# (fetching it made the page decode the frame again on its next showing, a delay no reader would meet).
_PICTURE_HASH_JS = """async (img) => {
  let bytes;
  if (img.src.startsWith('blob:')) {
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext('2d');
    context.drawImage(img, 0, 0);
    bytes = context.getImageData(0, 0, canvas.width, canvas.height).data;
  } else {
    bytes = await (await fetch(img.src)).arrayBuffer();
  }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map(b => b.toString(16).padStart(2, '0')).join('');
}"""

# Timestamps in the page: the key's keydown (its event's timeStamp, caught in the capture phase before
# the slider sees it) and the frame that shows the new figure: the moving layer's image in the explorer
# gets a new src (the kernel sent a new PNG) or another image takes its place (a pre-rendered frame). The
# image is then tagged for the Element Timing API, and the time is the renderTime Chromium reports for
# it: the frame that first painted the new picture, its decode included (1 ms resolution). A picture
# replaced before any frame painted it is never shown and not counted.
_PROBE_INSTALL_JS = """(box) => {
  const shown = () => box.querySelector('img.embedlab-layer');
  const tagged = new Map();  // elementtiming identifier -> the probe armed when that picture arrived
  let serial = 0;
  box.__embedlabShown = shown;  // armed again each time this explorer is pressed (_PROBE_ARM_JS)
  window.__embedlabProbe = {key: null, change: null, src: shown()?.src ?? null, changes: []};
  window.__embedlabShown = shown;  // the explorer under test (a page may hold several)
  if (!window.__embedlabKeys) {
    window.__embedlabKeys = true;
    window.addEventListener('keydown', (event) => {
      const p = window.__embedlabProbe;
      if (p.key === null) p.key = event.timeStamp;  // when the browser took the key, however late this runs
    }, true);
  }
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const p = tagged.get(entry.identifier);
      if (p === undefined || window.__embedlabProbe !== p) continue;  // re-armed meanwhile: a later move's probe
      const t = entry.renderTime || entry.loadTime;
      if (p.change === null) p.change = t;
      p.changes.push(t);
    }
  }).observe({type: 'element', buffered: true});
  new MutationObserver(() => {
    if (window.__embedlabShown !== shown) return;  // an explorer tested before
    const p = window.__embedlabProbe, img = shown();
    if (img !== null && img.src !== p.src) {
      p.src = img.src;
      const id = `embedlab-probe-${++serial}`;
      tagged.set(id, p);
      img.setAttribute('elementtiming', id);  // read when the picture is painted, after this callback
    }
  }).observe(box, {attributes: true, childList: true, subtree: true});  // an image's src is set before it is shown
}"""
_PROBE_ARM_JS = (  # given the explorer's box, whose probe is installed
    "(box) => { window.__embedlabShown = box.__embedlabShown; "
    "window.__embedlabProbe = {key: null, change: null, src: box.__embedlabShown()?.src ?? null, changes: []}; }"
)


# -- notebook copies ----------------------------------------------------------------------------


def copy_without_counts(
    src: Path, dest: Path, *, insert_before_explorer: str | None = None, after_explorers: str | None = None
) -> None:
    """Copy a notebook with execution counts cleared, so a finished run shows in its prompts.

    Outputs stay (the learner opens the notebook with them). ``insert_before_explorer`` adds a
    code cell with that source before the cell that displays the explorer; ``after_explorers``, one
    after the last cell that shows an explorer.
    """
    nb = json.loads(src.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["execution_count"] = None
            for out in cell.get("outputs", []):
                if "execution_count" in out:
                    out["execution_count"] = None
    if insert_before_explorer is not None:
        at = next(
            i
            for i, c in enumerate(nb["cells"])
            if c["cell_type"] == "code" and "explorer(" in "".join(c["source"]) and "import" not in "".join(c["source"])
        )
        nb["cells"].insert(
            at,
            {
                "cell_type": "code",
                "execution_count": None,
                "id": "break-the-redraw",
                "metadata": {},
                "outputs": [],
                "source": insert_before_explorer,
            },
        )
    if after_explorers is not None:
        shows = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code" and _shows_explorer(c)]
        cell = {"cell_type": "code", "execution_count": None, "id": "naive-twins", "metadata": {}, "outputs": []}
        nb["cells"].insert(shows[-1] + 1, {**cell, "source": after_explorers})
    dest.write_text(json.dumps(nb, indent=1), encoding="utf-8")


def _shows_explorer(cell: dict[str, Any]) -> bool:
    """Whether a code cell's last line calls an ``*_explorer`` (so the cell shows it)."""
    last = "".join(cell["source"]).strip().splitlines()[-1:]
    return bool(last) and re.search(r"_explorer\(.*\)\s*$", last[0]) is not None


def cell_tags(nb_path: Path) -> list[tuple[str, list[str], str]]:
    """(cell type, tags, source) of each cell of a notebook file, in order."""
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        out.append((cell["cell_type"], list(cell.get("metadata", {}).get("tags", [])), source))
    return out


# -- fixtures -----------------------------------------------------------------------------------


def serve_copies(tmp_path_factory: pytest.TempPathFactory, prefix: str, names: list[str]) -> Iterator[LabServer]:
    """A JupyterLab server on temporary copies of some notebooks (the repository's files stay untouched)."""
    chromium_path()  # skip (or fail under CI) before starting anything
    base = tmp_path_factory.mktemp(prefix)
    root = base / "notebooks"
    root.mkdir()
    for name in names:
        copy_without_counts(REPO / "notebooks" / name, root / name)
    with lab_server(base / "server", root) as server:
        yield server


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    """A JupyterLab server on a temporary copy of the chapter's notebooks, and the naive baseline's notebook."""
    for server in serve_copies(tmp_path_factory, "lab", NOTEBOOKS):
        write_naive_notebook(server.root / NAIVE_NOTEBOOK)
        yield server


def write_naive_notebook(path: Path) -> None:
    """A notebook showing every explorer of the chapter drawn the naive way (a new figure on each move)."""
    sources = ["from embedlab._naive import naive_explorer", *(f'naive_explorer("{n}")' for n in NAIVE_EXPLORERS)]
    cells = [
        {"cell_type": "code", "execution_count": None, "id": f"naive-{i}", "metadata": {}, "outputs": [], "source": src}
        for i, src in enumerate(sources)
    ]
    nb = {
        "cells": cells,
        "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb, indent=1), encoding="utf-8")


@pytest.fixture(scope="module")
def browser(lab: LabServer, chromium: Any) -> Iterator[Any]:
    """The session's headless Chromium (tests/conftest.py); the server is up before it is used."""
    yield chromium


class LatencyReport:
    """Key-press-to-figure times per notebook, the naive presses taken in turn with them, and drags."""

    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = {}
        self.alongside: dict[str, list[float]] = {}  # notebook -> naive presses taken in turn with its presses
        self.naive: dict[str, list[float]] = {}  # naive explorer -> its presses
        self.drags: dict[str, dict[str, Any]] = {}
        self.shows: dict[str, list[str]] = {}  # notebook -> the explorers it shows
        self.load_at_start = load_average()  # work already on the cores slows every figure

    def summary(self) -> dict[str, Any]:
        pooled = [name for name in self.samples if self.alongside.get(name)]
        every = [ms for name in pooled for ms in self.samples[name]]
        naive = [ms for name in pooled for ms in self.alongside[name]]
        live_ms = round(statistics.median(every), 1) if every else None
        naive_ms = round(statistics.median(naive), 1) if naive else None
        return {
            "measured": "JupyterLab: keydown on a slider handle to the explorer's figure painted (ms)",
            "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "cpu": cpu_model(),
            "load_1min_at_start": self.load_at_start,
            "load_1min_at_end": load_average(),
            "target_median_ms": TARGET_MEDIAN_MS,
            "target_ratio": TARGET_RATIO,
            "target_drag_ms": TARGET_DRAG_MS,
            "overall_median_ms": live_ms,  # pooled over the notebooks whose explorers have naive twins
            "overall_iqr_ms": quartiles(every),
            "overall_of": pooled,
            "presses": len(every),
            "naive_median_ms": naive_ms,
            "naive_iqr_ms": quartiles(naive),
            "naive_presses": len(naive),
            "ratio": round(live_ms / naive_ms, 3) if live_ms and naive_ms else None,
            "notebooks": {
                name: {
                    "median_ms": round(statistics.median(s), 1),
                    "iqr_ms": quartiles(s),
                    "samples_ms": [round(x, 1) for x in s],
                    "explorers": self.shows.get(name, []),
                    # the naive twins of its explorers, pressed in turn with them (None: no twin)
                    "naive_median_ms": round(statistics.median(self.alongside[name]), 1)
                    if self.alongside.get(name)
                    else None,
                    "naive_iqr_ms": quartiles(self.alongside.get(name, [])),
                    "naive_samples_ms": [round(x, 1) for x in self.alongside.get(name, [])],
                }
                for name, s in self.samples.items()
            },
            "naive": {
                name: {"median_ms": round(statistics.median(s), 1), "samples_ms": [round(x, 1) for x in s]}
                for name, s in self.naive.items()
            },
            "drags": self.drags,
        }

    def complete(self) -> bool:
        """Whether every notebook, the naive baseline and every drag were measured (a whole run, not a -k part)."""
        notebooks = {n.removesuffix(".ipynb") for n in NOTEBOOKS}
        return notebooks <= set(self.samples) and bool(self.alongside) and {d[3] for d in DRAGS} <= set(self.drags)

    def write(self) -> None:
        """The JSON that ``make bench`` reads, written only by a whole run: a part would replace it with less."""
        if self.complete():
            LATENCY_JSON.parent.mkdir(parents=True, exist_ok=True)
            LATENCY_JSON.write_text(json.dumps(self.summary(), indent=2) + "\n", encoding="utf-8")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not (self.samples or self.drags):
            return
        data = self.summary()
        write = terminalreporter.write_line
        terminalreporter.section("JupyterLab slider latency (key press to new figure; reported, not asserted)")
        for name, entry in data["notebooks"].items():
            naive = entry["naive_median_ms"]
            against = (
                f"; naive in turn {naive:.1f} ms (IQR {iqr_text(entry['naive_iqr_ms'])}, "
                f"{len(entry['naive_samples_ms'])} presses), ratio {entry['median_ms'] / naive:.3f}"
                if naive
                else "; no naive twin"
            )
            write(
                f"{name:<22} median {entry['median_ms']:6.1f} ms (IQR {iqr_text(entry['iqr_ms'])}, "
                f"{len(entry['samples_ms'])} presses{against})"
            )
        if data["overall_median_ms"] is not None:
            write(
                f"{'overall':<22} median {data['overall_median_ms']:6.1f} ms (IQR {iqr_text(data['overall_iqr_ms'])}, "
                f"{data['presses']} presses of {', '.join(data['overall_of'])}; goal < {TARGET_MEDIAN_MS} ms)"
            )
        for name, entry in data["naive"].items():
            write(f"{'naive ' + name:<22} median {entry['median_ms']:6.1f} ms ({len(entry['samples_ms'])} presses)")
        if data["naive_median_ms"] is not None:
            write(
                f"{'naive overall':<22} median {data['naive_median_ms']:6.1f} ms "
                f"(IQR {iqr_text(data['naive_iqr_ms'])}, {data['naive_presses']} presses)"
            )
        if data["ratio"] is not None:
            write(f"ratio explorers / naive, pressed in turn: {data['ratio']:.3f} (goal ≤ {TARGET_RATIO})")
        for name, d in data["drags"].items():
            write(
                f"drag {name}: {d['moves']} moves at {d['achieved_rate_per_s']}/s (asked {d['rate_per_s']}/s), last "
                f"move to final figure {d['last_move_to_final_ms']:.1f} ms, median of {d['drags']} "
                f"{d['runs_last_move_to_final_ms']} (goal ≤ {TARGET_DRAG_MS} ms); {d['figures_shown']} figures shown"
            )
        write(f"1-minute load average {data['load_1min_at_start']} at the start, {data['load_1min_at_end']} at the end")
        where = f"written to {LATENCY_JSON.relative_to(REPO)}" if self.complete() else "a part of the run: not written"
        write(f"on {data['cpu']}; {where}")


def quartiles(samples: list[float]) -> list[float] | None:
    """[first quartile, third quartile] of ``samples`` (None for fewer than two): the spread beside a median."""
    if len(samples) < 2:
        return None
    q1, _, q3 = statistics.quantiles(samples, n=4, method="inclusive")
    return [round(q1, 1), round(q3, 1)]


def iqr_text(iqr: list[float] | None) -> str:
    return "n/a" if iqr is None else f"{iqr[0]:.1f}-{iqr[1]:.1f}"


def load_average() -> float | None:
    """The 1-minute load average (None where the system does not give one)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo on Linux), which the latencies depend on."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


@pytest.fixture(scope="module")
def latency(request: pytest.FixtureRequest) -> Iterator[LatencyReport]:
    report = LatencyReport()
    plugins = request.config.pluginmanager
    if plugins.has_plugin("embedlab-lab-latency"):
        plugins.unregister(name="embedlab-lab-latency")
    plugins.register(report, "embedlab-lab-latency")  # its pytest_terminal_summary runs at session end
    yield report
    report.write()


# -- steps ---------------------------------------------------------------------------------------


@contextmanager
def notebook_page(context: Any, lab: LabServer, name: str, label: str) -> Iterator[Any]:
    """Open ``name`` in its own workspace; on failure save a screenshot; then close it and its kernel."""
    page = context.new_page()
    try:
        workspace = re.sub(r"[^A-Za-z0-9-]", "-", label)
        page.goto(lab.page_url(f"lab/workspaces/{workspace}/tree/{name}"))
        page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for(timeout=60_000)
        wait_for(page, kernel_idle, 60, "the kernel to start")
        yield page
    except BaseException:
        shot = ARTIFACTS / f"{label}.png"
        try:
            shot.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shot))
            print(f"screenshot: {shot}")
        except Exception as exc:  # the page may be gone; the test's own error matters more
            print(f"no screenshot ({exc})")
        print(f"server log: {lab.log}")
        raise
    finally:
        try:
            page.close()
            lab.shutdown_kernels()
        except Exception as exc:  # do not hide the test's own error; the server teardown reports leftovers
            print(f"cleanup after {label} failed: {exc!r}")


def kernel_idle(state: dict[str, Any]) -> bool:
    return bool(state["kernel"]) and state["kernel"].endswith("| Idle") and not state["kernel"].startswith("No Kernel")


def wait_for(page: Any, done: Any, timeout_s: float, what: str, *, settle: int = 1) -> dict[str, Any]:
    """Poll the notebook's cells until ``done(state)`` holds ``settle`` times in a row."""
    deadline = time.monotonic() + timeout_s
    hits = 0
    while True:
        state = page.evaluate(_CELLS_JS)
        hits = hits + 1 if done(state) else 0
        if hits >= settle:
            return state
        if time.monotonic() > deadline:
            pytest.fail(
                f"timed out after {timeout_s:.0f} s waiting for {what}; kernel {state['kernel']!r}, "
                f"prompts {[p for p in state['prompts'] if p is not None]}"
            )
        page.wait_for_timeout(250)


def restart_and_run_all(page: Any) -> dict[str, Any]:
    """Kernel > Restart Kernel and Run All Cells…, accept the dialog, wait until every queued cell is done."""
    page.locator("#jp-MainMenu").get_by_role("menuitem", name="Kernel", exact=True).click()
    page.get_by_role("menuitem", name="Restart Kernel and Run All Cells…").click()
    dialog = page.locator(".jp-Dialog")
    dialog.wait_for()
    dialog.locator("button.jp-mod-accept").click()  # "Restart"
    dialog.wait_for(state="detached")

    def started(s: dict[str, Any]) -> bool:  # the copies have no counts: any count or * means it runs
        return any(p and p != "[ ]:" for p in s["prompts"])

    def finished(s: dict[str, Any]) -> bool:
        # a cell whose source is folded shows no "*" while it waits: its prompt stays blank until its result shows
        # (between two cells the kernel is idle while the page draws the last one's output)
        prompts = [p for p in s["prompts"] if p is not None]
        return kernel_idle(s) and not any("*" in p for p in prompts) and all(prompts)

    wait_for(page, started, 60, "the run to start")
    return wait_for(page, finished, RUN_TIMEOUT_S, "all cells to run", settle=3)


def check_cells(state: dict[str, Any], nb_path: Path) -> None:
    """Only ``raises-exception`` cells show an error (and they do); every code cell ran once, in order."""
    cells = cell_tags(nb_path)
    assert len(state["prompts"]) == len(cells), "JupyterLab shows a different number of cells than the file has"
    problems = []
    for i, ((_, tags, source), errors) in enumerate(zip(cells, state["errors"], strict=True)):
        first_line = source.strip().splitlines()[0] if source.strip() else ""
        where = f"cell {i} ({first_line[:60]!r})"
        if errors and "raises-exception" not in tags:
            last = [line for line in errors[-1].strip().splitlines() if line.strip()][-1:]
            problems.append(f"{where} shows an error: {' '.join(last)[:300]}")
        elif not errors and "raises-exception" in tags:
            problems.append(f"{where} is tagged raises-exception but shows no error")
    assert not problems, f"{nb_path.name}:\n" + "\n".join(problems)
    ran = [p for (kind, _, src), p in zip(cells, state["prompts"], strict=True) if kind == "code" and src.strip()]
    expected = [f"[{n}]:" for n in range(1, len(ran) + 1)]
    assert ran == expected, f"{nb_path.name}: not every code cell ran once, in order, in a fresh kernel: {ran}"


def picture_hash(img: Any) -> str:
    """Hash of the figure's image bytes (retried: an Image widget revokes the blob: URL it replaces)."""
    for attempt in range(3):
        try:
            return img.evaluate(_PICTURE_HASH_JS)
        except Exception:
            if attempt == 2:
                raise
            img.page.wait_for_timeout(200)
    raise AssertionError("unreachable")


def shown_explorers(notebook: Path) -> int:
    """How many explorers a notebook shows: code cells whose last line calls an ``*_explorer``."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return sum(c["cell_type"] == "code" and _shows_explorer(c) for c in cells)


def explorer_boxes(page: Any, expected: int | None = None, naive: bool = False) -> Any:
    """The explorers (sliders, figure, readout) the open notebook shows, once the first is shown: the
    notebook's own, or (``naive``) those drawn the naive way (:mod:`embedlab._naive`)."""
    which = ".embedlab-naive" if naive else ":not(.embedlab-naive)"
    boxes = page.locator(f".jp-NotebookPanel .widget-vbox{which}:has(img.embedlab-layer):has(.embedlab-readout)")
    try:
        boxes.first.wait_for(timeout=30_000)
    except PlaywrightTimeoutError:
        raise AssertionError("no live explorer (sliders, image, readout) is shown") from None
    if expected is not None:
        assert boxes.count() == expected, f"expected {expected} explorer(s), found {boxes.count()}"
    return boxes


def explorer_names(notebook: Path) -> list[str]:
    """The explorer factories a notebook's code cells call, in order (``logits_explorer``, say)."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return list(dict.fromkeys(re.findall(r"\b(\w+_explorer)\(", code)))


def check_explorer(
    page: Any, presses: int = PRESSES_PER_NOTEBOOK, expected: int | None = None, twins: Any = None
) -> tuple[list[float], list[float]]:
    """Move every slider of each of the notebook's explorers with the keyboard, there and back.

    Each move must move the slider, change the figure (src and picture) and the readout; moving back
    must restore the first figure and readout. Raises AssertionError naming what did not follow.
    ``twins``, an iterator of the naive twins' presses (:func:`explorer_presses` of another page),
    is pressed once after each of these presses, so the two are measured in turn, under the same load.
    Returns the latencies (ms) of every explorer's moves, and of the twins' presses taken in turn.
    """
    boxes = explorer_boxes(page, expected)
    latencies: list[float] = []
    alongside: list[float] = []
    for i in range(boxes.count()):
        for ms in explorer_presses(page, boxes.nth(i), presses):
            if ms is not None:
                latencies.append(ms)
            if twins is not None:
                naive = next(twins)
                if naive is not None:
                    alongside.append(naive)
    return latencies, alongside


def explorer_presses(page: Any, box: Any, presses: int | None) -> Iterator[float | None]:
    """Press the explorer's sliders there and back, ``presses`` times (None: for ever), checking each move;
    yield each press's key-to-figure time (ms; None when the key's time was not caught)."""
    box.scroll_into_view_if_needed()
    img = box.locator("img.embedlab-layer")
    # Sharp, not stretched: the image is shown at its CSS size, half its pixels (it is rendered at 2x).
    img.evaluate("i => i.decode()")
    size = img.evaluate("i => ({shown: i.getBoundingClientRect().width, pixels: i.naturalWidth})")
    assert abs(size["shown"] - size["pixels"] / 2) <= 1, (
        f"the live figure is {size['pixels']} px shown {size['shown']} CSS px wide"
    )
    handles = box.locator(".widget-slider .noUi-handle")
    box_el = box.element_handle()  # the VBox stays; its readout paragraph does not
    start = box.evaluate(_STATE_JS)
    assert start["sliders"], "the explorer has no slider"
    assert start["readout"], "the explorer has no readout text"
    start_hash = picture_hash(img)
    box.evaluate(_PROBE_INSTALL_JS)

    def press(k: int, key: str, expect_back: bool) -> float | None:
        box.scroll_into_view_if_needed()  # pressed in turn with another explorer of its page, maybe
        before = box.evaluate(_STATE_JS)
        label = before["sliders"][k]["label"]
        what = f"after {key} on slider {label!r} (at {before['sliders'][k]['shown']!r})"
        handles.nth(k).focus()
        box.evaluate(_PROBE_ARM_JS)
        page.keyboard.press(key)
        try:
            page.wait_for_function(
                "([b, k, now]) => Number(b.querySelectorAll('.noUi-handle')[k].getAttribute('aria-valuenow')) !== now",
                arg=[box_el, k, before["sliders"][k]["now"]],
                timeout=2_000,
            )
        except PlaywrightTimeoutError:
            raise AssertionError(f"the slider did not move {what}") from None
        try:
            page.wait_for_function("() => window.__embedlabProbe.change !== null", timeout=FIGURE_TIMEOUT_MS)
        except PlaywrightTimeoutError:
            raise AssertionError(f"the figure did not change within {FIGURE_TIMEOUT_MS} ms {what}") from None
        probe = page.evaluate("() => window.__embedlabProbe")
        target = start["readout"] if expect_back else before["readout"]
        try:  # the HTML widget replaces its <p> on each update: look it up each time
            page.wait_for_function(
                "([b, t, back]) => { const r = b.querySelector('.embedlab-readout');"
                " return r !== null && (back ? r.textContent === t : r.textContent !== t); }",
                arg=[box_el, target, expect_back],
                timeout=5_000,
            )
        except PlaywrightTimeoutError:
            now = box.evaluate(_STATE_JS)["readout"]
            raise AssertionError(f"the readout did not follow {what}: still {now!r}") from None
        changed = picture_hash(img)
        if expect_back:
            assert changed == start_hash, f"moving back did not restore the first figure {what}"
        else:
            assert changed != start_hash, f"the figure's src changed but not its picture {what}"
        return None if probe["key"] is None else probe["change"] - probe["key"]

    done = 0
    while presses is None or done < presses:
        for k, slider in enumerate(start["sliders"]):
            at_end = slider["now"] >= slider["max"]
            forward, back = ("ArrowLeft", "ArrowRight") if at_end else ("ArrowRight", "ArrowLeft")
            yield press(k, forward, expect_back=False)
            yield press(k, back, expect_back=True)
            done += 2


def cycle_twins(page: Any, names: list[str], record: dict[str, list[float]]) -> Iterator[float | None] | None:
    """The naive twins ``names`` shown on the page, in that order, one press each in turn, for ever, each
    press's time also added to ``record[name]``; None when there is none."""
    if not names:
        return None
    boxes = explorer_boxes(page, expected=len(names), naive=True)
    runs = [(n, explorer_presses(page, boxes.nth(i), None)) for i, n in enumerate(names)]

    def presses() -> Iterator[float | None]:
        for name, run in itertools.cycle(runs):
            ms = next(run)
            if ms is not None:
                record.setdefault(name, []).append(ms)
            yield ms

    return presses()


# -- tests ---------------------------------------------------------------------------------------


def test_every_chapter_notebook_found() -> None:
    assert len(NOTEBOOKS) == 9, f"expected the eight worked examples and notebook I in notebooks/, found {NOTEBOOKS}"


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", NOTEBOOKS, ids=[n.removesuffix(".ipynb") for n in NOTEBOOKS])
def test_notebook_runs_and_explorer_responds(name: str, lab: LabServer, browser: Any, latency: LatencyReport) -> None:
    """Restart and run all in JupyterLab: no unexpected error, then every slider drives figure and readout.

    The copy run here ends with a cell showing the naive twins of the notebook's explorers (a new figure
    per move); each press on the notebook's own explorers is followed by one on a twin, so the baseline is
    measured in the same page, in turn with the presses it is set against.
    """
    key = name.removesuffix(".ipynb")
    names = explorer_names(REPO / "notebooks" / name)
    calls = explorer_calls(REPO / "notebooks" / name)
    twinned = [n for n in names if n in NAIVE_EXPLORERS]
    copy = f"twinned-{name}"
    twins_cell = naive_cell([(n, calls[n]) for n in twinned]) if twinned else None
    copy_without_counts(REPO / "notebooks" / name, lab.root / copy, after_explorers=twins_cell)
    with notebook_page(browser, lab, copy, f"test-{key}") as page:
        state = restart_and_run_all(page)
        check_cells(state, lab.root / copy)
        latency.shows[key] = names
        twins = cycle_twins(page, twinned, latency.naive)
        live, alongside = check_explorer(page, expected=shown_explorers(lab.root / name), twins=twins)
        latency.samples[key], latency.alongside[key] = live, alongside


def naive_cell(calls: list[tuple[str, str]]) -> str:
    """A cell showing the explorers of ``calls`` (a factory's name, its arguments as the notebook writes them)
    drawn the naive way, each built from the same arguments as the notebook's own."""
    lines = [
        "# Appended by tests/test_lab.py: this notebook's explorers drawn the naive way (a new figure per move),",
        "# pressed in turn with them: the baseline of the key-to-figure ratio.",
        "from IPython.display import display",
        "from embedlab._naive import naive_explorer",
        "",
    ]
    for factory, args in calls:
        lines.append(f"display(naive_explorer({', '.join([repr(factory), *([args] if args else [])])}))")
    return "\n".join(lines)


def explorer_calls(notebook: Path) -> dict[str, str]:
    """Each explorer a notebook shows, and the keyword arguments its cell passes (``"context=..., W=W"``)."""
    calls = {}
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "code" and _shows_explorer(cell):
            last = "".join(cell["source"]).strip().splitlines()[-1]
            match = re.search(r"(\w+_explorer)\((.*)\)\s*$", last)
            calls[match.group(1)] = match.group(2).strip()
    return calls


# Each animation frame: whether the explorer shows its moving layer, drawn (an image in the page, visible,
# complete). A frame without one shows the axes empty.
_BLANK_WATCH_JS = """(box) => {
  const w = window.__embedlabBlank = {frames: 0, blank: 0, stop: false};
  const tick = () => {
    if (w.stop) return;
    const drawn = [...box.querySelectorAll('img.embedlab-layer')]
      .some(i => i.offsetParent !== null && i.naturalWidth > 0);  // a new src keeps the old picture meanwhile
    w.frames += 1;
    if (!drawn) w.blank += 1;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", ["F-saturation.ipynb", "C-tied-logits.ipynb"], ids=["F frames", "C kernel"])
def test_no_frame_shows_empty_axes_while_the_slider_moves(name: str, lab: LabServer, browser: Any) -> None:
    """Every animation frame during key presses shows a drawn figure: a move never blanks the moving layer.

    (A pre-rendered frame shown as an Image widget in a Stack blanked for a frame or two on every move:
    the Stack builds a new view, whose blob: URL loads after the frame is painted.)
    """
    with notebook_page(browser, lab, name, f"test-blank-{name[0]}") as page:
        check_cells(restart_and_run_all(page), lab.root / name)
        box = explorer_boxes(page).first
        box.scroll_into_view_if_needed()
        box.locator("img.embedlab-layer").evaluate("i => i.decode()")
        box.evaluate(_BLANK_WATCH_JS)
        handle = box.locator(".widget-slider .noUi-handle").first
        for key in ["ArrowRight"] * 4 + ["ArrowLeft"] * 4:
            handle.focus()
            page.keyboard.press(key)
            page.wait_for_timeout(300)
        watch = page.evaluate("() => { window.__embedlabBlank.stop = true; return window.__embedlabBlank; }")
    assert watch["frames"] >= 40, f"too few animation frames sampled to judge: {watch['frames']}"
    assert watch["blank"] == 0, f"{watch['blank']} of {watch['frames']} frames showed the axes without the figure"


THREE_SLIDERS = """\
from embedlab.widgets import Control, Explorer


def setup(fig, ax):
    (line,) = ax.plot([0, 1], [0, 0])
    ax.set_ylim(-1, 6)

    def update(a, b, c):
        line.set_ydata([a, b + c])
        return f"a={a} b={b} c={c}"

    return update, [line]


controls = [Control("a", "a", (0, 1)), Control("b", "b", (0, 1, 2)), Control("c", "c", (0, 1, 2, 3))]
Explorer("three sliders", controls, setup)
"""


@pytest.mark.timeout(300)
@pytest.mark.parametrize("route", ["framed", "fetched"])
def test_live_view_shows_the_frame_of_every_slider_position(lab: LabServer, browser: Any, route: str) -> None:
    """With three sliders of 2, 3 and 4 values, each key press shows the frame whose readout names the
    positions every slider shows: the page picks frames in the order the kernel rendered them, whether
    it holds every frame (framed) or the kernel sends them as they are needed (fetched: one control is
    not pre-rendered at every value)."""
    name = f"three-sliders-{route}.ipynb"
    source = THREE_SLIDERS
    if route == "fetched":
        source = THREE_SLIDERS.replace(
            'Control("c", "c", (0, 1, 2, 3))', 'Control("c", "c", (0, 1, 2, 3), static_every=2)'
        )
        assert source != THREE_SLIDERS
    nb = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {}, "outputs": [],
                   "source": source}],
        "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip
    (lab.root / name).write_text(json.dumps(nb), encoding="utf-8")
    with notebook_page(browser, lab, name, f"test-three-sliders-{route}") as page:
        check_cells(restart_and_run_all(page), lab.root / name)
        box = explorer_boxes(page, expected=1).first
        box.scroll_into_view_if_needed()
        handles = box.locator(".widget-slider .noUi-handle")
        seen = set()
        right, left = "ArrowRight", "ArrowLeft"
        keys = [(2, right)] * 3 + [(1, right)] * 2 + [(0, right), (2, left), (1, left), (0, left), (2, left)]
        for k, key in keys:
            handles.nth(k).focus()
            page.keyboard.press(key)
            page.wait_for_timeout(150)
            state = box.evaluate(_STATE_JS)
            want = "a={} b={} c={}".format(*(s["shown"] for s in state["sliders"]))
            try:
                page.wait_for_function(
                    "([b, t]) => { const r = b.querySelector('.embedlab-readout');"
                    " const i = b.querySelector('img.embedlab-layer');"
                    " return r && r.textContent === t && i && i.alt === t && i.complete; }",
                    arg=[box.element_handle(), want],
                    timeout=5_000,
                )
            except PlaywrightTimeoutError:
                shown = box.evaluate(
                    "b => [b.querySelector('.embedlab-readout')?.textContent,"
                    " b.querySelector('img.embedlab-layer')?.alt]"
                )
                raise AssertionError(
                    f"after {key} on slider {k}, the sliders show {want!r}; readout, frame: {shown}"
                ) from None
            seen.add(want)
    assert len(seen) >= 8, f"too few positions visited to judge: {sorted(seen)}"


BREAK_REDRAW = """\
# Inserted by tests/test_lab.py: sliders still move, the figure never redraws (neither the
# kernel's redraw nor the browser's links to the pre-rendered frames).
import ipywidgets
from embedlab.widgets import Explorer

Explorer._on_change = lambda self, control: (lambda change: None)
ipywidgets.jslink = lambda *links: None
"""


@pytest.mark.timeout(300)
def test_broken_redraw_is_caught(lab: LabServer, browser: Any) -> None:
    """A slider whose callback stops redrawing makes the explorer check fail (the check can fail)."""
    name = "broken-redraw.ipynb"
    copy_without_counts(REPO / "notebooks" / NOTEBOOKS[0], lab.root / name, insert_before_explorer=BREAK_REDRAW)
    with notebook_page(browser, lab, name, "test-broken-redraw") as page:
        check_cells(restart_and_run_all(page), lab.root / name)
        with pytest.raises(AssertionError, match="the figure did not change"):
            check_explorer(page, presses=2)


# A drag's pointer moves, as the slider itself receives them, each timed by its event's timeStamp: the
# moment the browser took the input, not the moment a busy page got round to running the listener, so a
# page that lags behind the hand shows its lag (both clocks count from the page's time origin).
_POINTER_JS = """() => {
  window.__embedlabMoves = [];
  if (!window.__embedlabPointer) {
    window.__embedlabPointer = true;
    window.addEventListener('pointermove', (event) => {
      if (!window.__embedlabMoves) return;
      const raw = event.getCoalescedEvents?.() ?? [];  // moves a busy page received as one event, each timed
      for (const e of raw.length ? raw : [event]) window.__embedlabMoves.push(e.timeStamp);
    }, true);
  }
}"""

DRAGS = [  # (notebook, explorer on the page, slider, what it shows): each route, and its naive baseline
    ("F-saturation.ipynb", 0, 0, "F, pre-rendered frames"),
    (NAIVE_NOTEBOOK, NAIVE_EXPLORERS.index("saturation_explorer"), 0, "F drawn the naive way"),
    ("C-tied-logits.ipynb", 0, 0, "C, frames drawn by the kernel"),
    (NAIVE_NOTEBOOK, NAIVE_EXPLORERS.index("logits_explorer"), 0, "C drawn the naive way"),
]


def _mouse_events(cdp: Any, events: list[tuple[str, float, float]], rate: float | None = None) -> None:
    """Send left-button mouse events through the DevTools protocol, the i-th at i / ``rate`` s.

    Each is sent at its time without waiting for the page to take the one before (Playwright's
    ``mouse.move`` waits for that acknowledgement, so a page busy with its figure slowed the drag down to
    25-52 moves per second): the hand keeps its pace and a busy page falls behind it, as with a real
    mouse. The last event (the release) is sent once every move before it was taken.
    """
    impl = cdp._impl_obj  # the async session under the sync API: its send() can be scheduled unawaited

    def send(kind: str, x: float, y: float) -> Any:
        buttons = 0 if kind == "mouseReleased" else 1
        params = {"type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1}
        return impl.send("Input.dispatchMouseEvent", params, None)

    async def run() -> None:
        loop = asyncio.get_running_loop()
        start, sent = loop.time(), []
        for i, event in enumerate(events[:-1] if rate else events):
            if rate:
                await asyncio.sleep(max(0.0, start + (i + 1) / rate - loop.time()))
            sent.append(asyncio.ensure_future(send(*event)))
        await asyncio.gather(*sent)
        if rate:
            await send(*events[-1])

    cdp._sync(run())  # runs on Playwright's own event loop, as its sync calls do


def drag_once(page: Any, box: Any, slider: int, label: str) -> dict[str, float]:
    """One drag of ``slider`` from its handle to the far end of the track (20 moves at 60 per second): the time
    from the last pointer move to the last change of the figure, the first move to the first change, the pointer
    moves the page saw during the drag and their rate, and the figures shown."""
    before = box.evaluate(_STATE_JS)["sliders"][slider]
    box.locator(".widget-slider").nth(slider).scroll_into_view_if_needed()
    page.wait_for_timeout(300)  # JupyterLab may still be settling its scroll
    box.locator(".widget-slider").nth(slider).scroll_into_view_if_needed()
    track = box.locator(".widget-slider .noUi-base").nth(slider).bounding_box()
    handle = box.locator(".widget-slider .noUi-handle").nth(slider).bounding_box()
    x0, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    x1 = track["x"] + track["width"] if x0 < track["x"] + track["width"] / 2 else track["x"]
    page.evaluate(_POINTER_JS)
    page.mouse.move(x0, y)
    cdp = page.context.new_cdp_session(page)
    try:
        _mouse_events(cdp, [("mousePressed", x0, y)])
        page.evaluate(_POINTER_JS)  # the moves of the drag only, not the hover before it
        box.evaluate(_PROBE_ARM_JS)
        start = time.monotonic()
        moves = [("mouseMoved", x0 + (x1 - x0) * i / DRAG_MOVES, y) for i in range(1, DRAG_MOVES + 1)]
        _mouse_events(cdp, [*moves, ("mouseReleased", x1, y)], rate=DRAG_RATE)
    finally:
        cdp.detach()
    last_seen, quiet_since = -1, time.monotonic()
    while time.monotonic() - quiet_since < 1.5:  # until the figure has not changed for 1.5 s
        n = page.evaluate("() => window.__embedlabProbe.changes.length")
        if n != last_seen:
            last_seen, quiet_since = n, time.monotonic()
        assert time.monotonic() - start < 30, "the figure was still changing 30 s after the drag"
        page.wait_for_timeout(100)
    probe = page.evaluate("() => window.__embedlabProbe")
    moves = page.evaluate("() => window.__embedlabMoves")
    now = box.evaluate(_STATE_JS)["sliders"][slider]
    assert now["now"] != before["now"], f"the drag did not move the slider ({label})"
    assert probe["changes"], f"the figure did not change during the drag ({label})"
    assert len(moves) >= 2, f"the page saw {len(moves)} pointer moves during the drag ({label})"
    return {
        # The last moves may sit past the track's end, on the final value already shown: the figure was final
        # when the hand stopped, so the wait is 0, not negative.
        "last": max(0.0, max(probe["changes"]) - max(moves)),
        "first": probe["changes"][0] - min(moves),
        "moves": len(moves),
        "rate": (len(moves) - 1) / ((max(moves) - min(moves)) / 1e3),
        "shown": len(probe["changes"]),
    }


@pytest.mark.timeout(600)
@pytest.mark.parametrize(("name", "index", "slider", "label"), DRAGS, ids=[d[3] for d in DRAGS])
def test_drag_ends_on_the_final_figure(
    name: str, index: int, slider: int, label: str, lab: LabServer, browser: Any, latency: LatencyReport
) -> None:
    """Drag a slider (20 moves at 60 per second): the figure follows, and ends on the final value's figure.

    Reported: the time from the last pointer move to the last change of the figure. Checked: the
    figure after the drag is the one the keyboard shows for that value (move away and back).
    """
    with notebook_page(browser, lab, name, f"test-drag-{label}") as page:
        check_cells(restart_and_run_all(page), lab.root / name)
        box = explorer_boxes(page, naive=name == NAIVE_NOTEBOOK).nth(index)
        box.scroll_into_view_if_needed()
        box.evaluate(_PROBE_INSTALL_JS)
        runs = [drag_once(page, box, slider, label) for _ in range(DRAG_REPEATS)]  # each across the whole track
        after = box.evaluate(_STATE_JS)
        latency.drags[label] = {
            "notebook": name.removesuffix(".ipynb"),
            "route": label.split(", ", 1)[-1] if name != NAIVE_NOTEBOOK else "naive",
            "baseline": None if name == NAIVE_NOTEBOOK else f"{label.split(',')[0]} drawn the naive way",
            "moves": DRAG_MOVES,
            "rate_per_s": DRAG_RATE,  # asked for; what the page saw is below
            "drags": len(runs),
            "achieved_rate_per_s": round(statistics.median(r["rate"] for r in runs), 1),
            "pointer_moves_seen": [r["moves"] for r in runs],
            "figures_shown": round(statistics.median(r["shown"] for r in runs)),
            "last_move_to_final_ms": round(statistics.median(r["last"] for r in runs), 1),
            "runs_last_move_to_final_ms": [round(r["last"], 1) for r in runs],
            "first_move_to_first_figure_ms": round(statistics.median(r["first"] for r in runs), 1),
        }
        # The figure left by the drag is the one the keyboard shows for the final value.
        settled = picture_hash(box.locator("img.embedlab-layer"))
        at_end = after["sliders"][slider]["now"] >= after["sliders"][slider]["max"]
        handles = box.locator(".widget-slider .noUi-handle")
        for key in ("ArrowLeft", "ArrowRight") if at_end else ("ArrowRight", "ArrowLeft"):
            handles.nth(slider).focus()
            box.evaluate(_PROBE_ARM_JS)
            page.keyboard.press(key)
            page.wait_for_function("() => window.__embedlabProbe.change !== null", timeout=FIGURE_TIMEOUT_MS)
        page.wait_for_function(
            "([b, t]) => b.querySelector('.embedlab-readout')?.textContent === t",
            arg=[box.element_handle(), after["readout"]],
            timeout=5_000,
        )
        assert picture_hash(box.locator("img.embedlab-layer")) == settled, (
            f"the figure after the drag is not the final value's figure ({label})"
        )
