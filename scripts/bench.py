"""Measure embedlab's speed on this machine and print it as Markdown tables (``make bench``).

Usage::

    .venv/bin/python scripts/bench.py [--quick] [--repeat N] [--slow-repeat M] [--snapshot]

Four sections, each figure the median of several timed runs after a warm-up, each shown with a
baseline (timed in the same run; or, where its row says so, timed on a smaller input and scaled,
or computed: a bandwidth floor, a sum of separate runs) and the ratio ``measured time / baseline time`` (lower is
better; below 1 the measured route is the faster):

1. the library at GPT-2 scale (V = 50,257, d = 768, float32, seeded RNG) against a naive NumPy
   route, against PyTorch on the CPU when ``torch`` is importable (same thread count), and,
   for tied logits of one context (memory-bound: it reads all of E once), against the time to
   read E at the copy bandwidth measured here (the bandwidth floor);
2. one slider move of each explorer in the kernel (what the figure waits for: nothing where the
   browser swaps pre-rendered frames, else compute, redraw, PNG encode) against building a new
   figure for every move, and a drag (20 moves at 60 per second) from its last move to the final
   figure, against the same drag drawn the naive way; then one training step of notebook I's
   small model against the same step in bare NumPy and in PyTorch on the CPU, one ``compare()``
   against its steps alone, and the cost per point of notebook I's sweep (``make experiments``);
3. ``pytest --nbval`` per notebook and in total, and the book's cold and warm build in a
   temporary copy of the repository (the real ``_build/`` is untouched); skipped by ``--quick``;
4. the JupyterLab key-press-to-figure latencies and drags of the last ``make test``, each notebook's
   against the naive twins of its explorers, shown in the same page and pressed in turn with it, when
   ``_build/bench/lab-latency.json`` exists.

``--repeat N`` (default 5) sets the timed runs of sections 1 and 2 and ``--slow-repeat M``
(default 3) those of section 3; a full run takes about eight minutes on a quiet 2-core machine,
``--quick`` under one. Other work on the cores slows every figure: the table records the load.
Every run writes ``_build/bench/bench.json`` and ``_build/bench/bench.md``; ``--snapshot`` also
copies the Markdown to ``benchmarks/snapshot.md``, which the book's performance page includes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import numpy as np

import embedlab
from embedlab import explorers
from embedlab._naive import CHAPTER_EXPLORERS, capture_spec, naive_move

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "_build" / "bench"
SNAPSHOT = ROOT / "benchmarks" / "snapshot.md"
LAB_LATENCY = OUT / "lab-latency.json"
BIN = Path(sys.executable).parent  # the venv's bin/, as `make bench` runs it

V, D = 50257, 768  # GPT-2's vocabulary and width
N_IDS, N_CTX = 4096, 64
EXPLORERS = CHAPTER_EXPLORERS
DRAG_MOVES, DRAG_RATE = 20, 60  # a drag: 20 moves at 60 per second
NBVAL_TARGET = 60.0  # seconds for all notebooks
WARM_BOOK_TARGET = 10.0  # seconds


@dataclass
class Row:
    """One line of a table: a measured time, what it is compared with, and the target if any."""

    section: str
    what: str
    seconds: float | None
    runs: int
    against: str = ""
    against_seconds: float | None = None
    target: str = ""
    met: bool | None = None

    @property
    def ratio(self) -> float | None:
        if self.seconds is None or not self.against_seconds:
            return None
        return self.seconds / self.against_seconds


def median_times(
    funcs: dict[str, Callable[[], Any]], repeat: int = 5, number: int = 1, warmup: float = 0.25
) -> dict[str, float]:
    """Median over ``repeat`` runs of the seconds per call of each function (a run times ``number`` calls).

    Each function is first warmed up: called once, then again until ``warmup`` seconds have passed
    (PyTorch needs about ten calls before its CPU kernels reach their steady speed). The functions
    then take turns, run by run, so that a change in the machine's load during the measurement
    slows all of them alike and their ratios stay fair.
    """
    for f in funcs.values():
        t0 = time.perf_counter()
        f()
        while time.perf_counter() - t0 < warmup:
            f()
    runs: dict[str, list[float]] = {name: [] for name in funcs}
    for _ in range(repeat):
        for name, f in funcs.items():
            t0 = time.perf_counter()
            for _ in range(number):
                f()
            runs[name].append((time.perf_counter() - t0) / number)
    return {name: statistics.median(r) for name, r in runs.items()}


def median_time(f: Callable[[], Any], repeat: int = 5, number: int = 1, warmup: float = 0.25) -> float:
    """Median over ``repeat`` runs of the seconds per call of ``f``: ``timeit.repeat`` reporting the median."""
    return median_times({"f": f}, repeat, number, warmup)["f"]


def fmt_time(s: float | None) -> str:
    if s is None:
        return "—"
    if s < 1e-3:
        return f"{s * 1e6:.0f} µs"
    if s < 1:
        return f"{s * 1e3:.3g} ms"
    return f"{s:.3g} s"


def load_average() -> float | None:
    """The 1-minute load average: other work on the machine slows every figure."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else None


def cpu_clock() -> tuple[float, float, float] | None:
    """Wall seconds, busy CPU seconds of the whole machine, CPU seconds of this run (with its finished children)."""
    try:
        f = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:8]]
    except (OSError, ValueError):
        return None
    busy = (f[0] + f[1] + f[2] + f[5] + f[6]) / os.sysconf("SC_CLK_TCK")  # user nice system irq softirq
    t = os.times()
    return time.perf_counter(), busy, t.user + t.system + t.children_user + t.children_system


def others_share(before: tuple[float, float, float] | None) -> float | None:
    """Share of all cores' time used by other processes (not this run's) since ``before``."""
    after = cpu_clock()
    if before is None or after is None or after[0] <= before[0]:
        return None
    others = (after[1] - before[1]) - (after[2] - before[2])
    return min(1.0, max(0.0, others / ((after[0] - before[0]) * (os.cpu_count() or 1))))


def fmt_load(load: float | None) -> str:
    return "unknown" if load is None else f"{load:.2f}"


def n_threads() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


# -- machine ---------------------------------------------------------------------------------


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def load_torch() -> Any:
    """PyTorch if importable (set to the same thread count as NumPy's BLAS), else None."""
    try:
        import torch
    except Exception:  # absent, or an install that fails to import: measured as absent
        return None
    torch.set_num_threads(n_threads())
    return torch


def machine_info(torch: Any) -> dict[str, Any]:
    import matplotlib as mpl

    blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    return {
        "date": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "threads": n_threads(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "blas": f"{blas.get('name', '?')} {blas.get('version', '')}".strip(),
        "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "default (one per core)"),
        "matplotlib": mpl.__version__,
        "torch": torch.__version__ if torch else "absent",
        "embedlab": embedlab.__version__,
        "platform": platform.platform(),
        "load_at_start": load_average(),
    }


def copy_functions(threads: int, nbytes: int = 512 * 2**20) -> dict[str, Callable[[], Any]]:
    """``np.copyto`` of a large float32 array, on one thread and on ``threads`` threads each copying a slice."""
    src = np.ones(nbytes // 4, dtype=np.float32)
    dst = np.zeros_like(src)
    np.copyto(dst, src)  # every page of dst exists before timing
    cuts = np.linspace(0, src.size, threads + 1).astype(int)

    def one() -> None:
        np.copyto(dst, src)

    def many() -> None:  # np.copyto releases the GIL, so the slices are copied in parallel
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(lambda i: np.copyto(dst[cuts[i] : cuts[i + 1]], src[cuts[i] : cuts[i + 1]]), range(threads)))

    return {"copy, 1 thread": one, f"copy, {threads} threads": many}


# -- 1. library ------------------------------------------------------------------------------


def bench_library(repeat: int, torch: Any, meta: dict[str, Any]) -> list[Row]:
    """Each operation against its naive route, PyTorch, and (tied logits, 1 context) the bandwidth floor.

    An operation and PyTorch take turns run by run (:func:`median_times`); the naive routes run apart.
    """
    rng = np.random.default_rng(0)
    E = (0.02 * rng.standard_normal((V, D))).astype(np.float32)
    ids = rng.integers(0, V, N_IDS)
    h1 = rng.standard_normal(D).astype(np.float32)
    h64 = rng.standard_normal((N_CTX, D)).astype(np.float32)
    upstream = rng.standard_normal((N_IDS, D)).astype(np.float32)
    grad_logits = (1e-3 * rng.standard_normal((N_CTX, V))).astype(np.float32)
    if torch is not None:
        F = torch.nn.functional
        E_t, ids_t, h1_t, h64_t = (torch.from_numpy(a) for a in (E, ids, h1, h64))
        up_t, gl_t = torch.from_numpy(upstream), torch.from_numpy(grad_logits)
    parity = "≤ 1 (parity)"
    rows: list[Row] = []

    def measure(
        what: str,
        mine: Callable[[], Any],
        naive: dict[str, tuple[Callable[[], Any], float]],
        how: str,
        theirs: Callable[[], Any] | None,
        extra: dict[str, Callable[[], Any]] | None = None,
    ) -> dict:
        """Time ``mine`` in turns with PyTorch (and ``extra``), then the naive routes apart.

        The naive routes, far slower and allocating hundreds of MB, are kept out of the turns so
        that they do not disturb the close race; each comes with the factor scaling it to full size.
        """
        funcs = {"mine": mine, **(extra or {})}
        if torch is not None:
            funcs["torch"] = theirs
        t = median_times(funcs, repeat)
        for label, (f, scale) in naive.items():
            t[label] = median_time(f, repeat)
            rows.append(Row("library", what, t["mine"], repeat, label, t[label] * scale))
        if torch is None:
            rows.append(Row("library", what, t["mine"], repeat, f"PyTorch `{how}`: torch absent", None, parity))
        else:
            against = f"PyTorch CPU `{how}`, {n_threads()} threads"
            rows.append(Row("library", what, t["mine"], repeat, against, t["torch"], parity, t["mine"] <= t["torch"]))
        return t

    # The one-hot product at all 4,096 ids would need a 1.6 GB matrix: it is timed at 64 ids and scaled,
    # with E in float64 (the one-hot's dtype) made once, so the per-call copy of E is not scaled with it.
    k = 64
    E64 = E.astype(np.float64)
    one_hot_route = f"naive `one_hot(ids, V) @ E` (float64) at {k} ids, time ×{N_IDS // k}"
    measure(
        f"`lookup(E, ids)`, {N_IDS:,} ids",
        lambda: embedlab.lookup(E, ids),
        {one_hot_route: (lambda: embedlab.one_hot(ids[:k], V) @ E64, N_IDS / k)},
        "F.embedding",
        lambda: F.embedding(ids_t, E_t),
    )

    naive64 = "naive float64: `h @ E.astype(float64).T`, E copied per call"
    copies = copy_functions(n_threads())
    what = "`tied_logits(h, E)`, 1 context"
    t = measure(
        what,
        lambda: embedlab.tied_logits(h1, E),
        {naive64: (lambda: h1.astype(np.float64) @ E.astype(np.float64).T, 1)},
        "F.linear(h, E)",
        lambda: F.linear(h1_t, E_t),
        extra=copies,
    )
    nbytes = 512 * 2**20
    one, many = (2 * nbytes / t[name] for name in copies)  # bytes read + written per second
    meta["bandwidth"] = {"one_thread": one, "all_threads": many, "bytes": nbytes}
    floor = E.nbytes / max(one, many)
    against = f"bandwidth floor: all of E, {E.nbytes / 1e6:.0f} MB read"
    rows.append(Row("library", what, t["mine"], repeat, against, floor, "≤ 1.5", t["mine"] <= 1.5 * floor))

    measure(
        f"`tied_logits(h, E)`, {N_CTX} contexts",
        lambda: embedlab.tied_logits(h64, E),
        {naive64: (lambda: h64.astype(np.float64) @ E.astype(np.float64).T, 1)},
        "F.linear(h, E)",
        lambda: F.linear(h64_t, E_t),
    )

    def add_at() -> np.ndarray:
        g = np.zeros((V, D), dtype=np.float32)
        np.add.at(g, ids, upstream)
        return g

    c = 8

    def outer_sum() -> np.ndarray:
        g = np.zeros((V, D), dtype=np.float32)
        for i in range(c):
            g += np.outer(grad_logits[i], h64[i])
        return g

    naive_in = "naive `np.add.at` into zeros"
    naive_out = f"naive sum of `np.outer` per context, at {c} contexts, time ×{N_CTX // c}"
    t_in = measure(
        f"`embedding_grad(ids, upstream, V)`, {N_IDS:,} ids",
        lambda: embedlab.embedding_grad(ids, upstream, V),
        {naive_in: (add_at, 1)},
        "zeros(V, d).index_add_",
        lambda: torch.zeros(V, D).index_add_(0, ids_t, up_t),
    )
    t_out = measure(
        f"`output_grad(h, grad_logits)`, {N_CTX} contexts",
        lambda: embedlab.output_grad(h64, grad_logits),
        {naive_out: (outer_sum, N_CTX / c)},
        "grad_logits.T @ h",
        lambda: gl_t.T @ h64_t,
    )
    what = f"`tied_grad(...)`, {N_IDS:,} ids + {N_CTX} contexts"
    t = measure(
        what,
        lambda: embedlab.tied_grad(ids, upstream, h64, grad_logits, V),
        {},
        "zeros.index_add_(...).addmm_(grad_logits.T, h)",
        lambda: torch.zeros(V, D).index_add_(0, ids_t, up_t).addmm_(gl_t.T, h64_t),
    )
    naive = t_in[naive_in] + t_out[naive_out] * N_CTX / c
    rows.insert(-1, Row("library", what, t["mine"], repeat, "naive: the two naive figures above, added", naive))
    return rows


# -- 2. sliders ------------------------------------------------------------------------------


def route(ex: Any) -> str:
    return "frames in the browser" if ex.framed else "frame drawn by the kernel"


def bench_sliders(repeat: int) -> list[Row]:
    """One move of each control, in the kernel, against a new figure per move (the naive route).

    A framed explorer's figure does not wait for the kernel (the browser swaps pre-rendered frames);
    its kernel still follows each move, noting the values and the frame's readout (``Explorer._follow``: no
    drawing, which waits until the figure is read), timed here.
    Every other explorer's view is fetched: a move to a frame the page lacks waits for ``timed_update``
    (compute, the moving artists drawn alone, PNG encode of that layer).
    """
    rows: list[Row] = []
    kernel_moves: list[float] = []  # the moves whose figure waits for the kernel, and their naive baseline
    kernel_naive: list[float] = []
    naive_label = "new figure per move (Figure, setup, full draw, PNG)"
    for name in EXPLORERS:
        factory = getattr(explorers, name)
        ex, spec = factory(), capture_spec(factory)
        start = dict(ex.values)

        def move(changes: dict[str, Any], ex: Any = ex) -> float:
            if not ex.framed:
                return ex.timed_update(**changes)
            ex.frames()  # rendered once, before the view is shown
            ((name, value),) = changes.items()
            t0 = time.perf_counter()
            # what a shown framed view's slider calls: the values noted, nothing drawn
            ex._follow(ex._control(name), value)
            return time.perf_counter() - t0

        for c in ex.controls:
            move({c.name: c.values[-1]})  # warm-up
            naive_move(spec, start)  # warm-up
            mine, naive = [], []
            for sweep in range(repeat):  # the naive route, far slower, sweeps once, in turn with the first sweep
                for v in c.values:
                    mine.append(move({c.name: v}))
                    if sweep == 0:
                        t0 = time.perf_counter()
                        naive_move(spec, {**start, c.name: v})
                        naive.append(time.perf_counter() - t0)
            ex.update(**start)
            med = statistics.median(mine)
            what = f"`{name}()`: {c.label} ({len(c.values)} values; {route(ex)})"
            if ex.framed:  # the figure waits for no kernel: its work is reported, not graded against the target
                what += ", the kernel following: values noted, nothing drawn"
                rows.append(Row("sliders", what, med, len(mine), naive_label, statistics.median(naive)))
            else:
                kernel_moves += mine
                kernel_naive += naive
                # not graded: the goals are the reader's, end to end, graded in the JupyterLab table
                rows.append(Row("sliders", what, med, len(mine), naive_label, statistics.median(naive)))
    if kernel_moves:
        med = statistics.median(kernel_moves)
        rows.append(
            Row(
                "sliders",
                "**every move the figure waits for** (C's explorer): the kernel's share (compute, redraw, PNG; the "
                "message round trip and the browser's decode are in the JupyterLab table)",
                med,
                len(kernel_moves),
                naive_label,
                statistics.median(kernel_naive),
            )
        )
    return rows


def simulate_drag(handle: Callable[[Any], Any], positions: list[Any]) -> float:
    """Seconds from a drag's last move to the end of the handler for the final position.

    The moves come at ``DRAG_RATE`` per second. The front end is modelled as ipywidgets' own
    throttle: one message in flight per slider, later moves merged into one buffered message
    that is sent (with the latest position) when the kernel is done. The handler runs for real.
    """
    start = time.perf_counter()
    times = [start + i / DRAG_RATE for i in range(len(positions))]
    seen, pending, done_at, done_with = 0, None, start, None
    while True:
        now = time.perf_counter()
        while seen < len(positions) and times[seen] <= now:
            pending, seen = seen, seen + 1
        if pending is not None:
            handle(positions[pending])
            done_at, done_with, pending = time.perf_counter(), pending, None
        elif seen < len(positions):
            time.sleep(max(0.0, times[seen] - time.perf_counter()))
        else:
            break
    assert done_with == len(positions) - 1, "the drag's last position was never drawn"
    return max(0.0, done_at - times[-1])


def bench_drags(repeat: int) -> list[Row]:
    """A drag of each explorer's first slider across its values: last move to the final figure, in the kernel.

    Measured for the kernel's share of the live view (``timed_update``: a frame drawn and encoded
    where the view is fetched, the values noted where the browser holds every frame; the lab test
    measures the browser's own time), and for the naive route, each under the same moves.
    """
    rows = []
    for name in EXPLORERS:
        factory = getattr(explorers, name)
        ex, spec = factory(), capture_spec(factory)
        c = ex.controls[0]
        positions = [c.values[round(i * (len(c.values) - 1) / (DRAG_MOVES - 1))] for i in range(DRAG_MOVES)]
        start = dict(ex.values)
        mine = [simulate_drag(lambda v, c=c, ex=ex: ex.timed_update(**{c.name: v}), positions) for _ in range(repeat)]
        naive = [
            simulate_drag(lambda v, c=c, spec=spec, start=start: naive_move(spec, {**start, c.name: v}), positions)
            for _ in range(max(1, repeat // 2))
        ]
        med = statistics.median(mine)
        rows.append(
            Row(
                "drag",
                f"`{name}()`: {c.label}, "
                + (
                    "a frame drawn and encoded per move (the kernel's share)"
                    if not ex.framed
                    else "the values noted per move (the browser swaps frames)"
                ),
                med,
                len(mine),
                "the naive route, same drag",
                statistics.median(naive),
            )  # not graded: the 100 ms goal is the reader's, end to end, graded on the JupyterLab drags
        )
    return rows


# -- 2b. training (notebook I) ---------------------------------------------------------------


def training_batch(k: int = 3, batch_size: int = 128) -> tuple[Any, np.ndarray, np.ndarray]:
    """The corpus of notebook I and one minibatch of its (context, target) pairs, as ``train`` draws them."""
    from embedlab.corpus import context_windows, make_corpus

    corpus = make_corpus(0)
    ctx, y = context_windows(corpus.train, k)
    idx = np.random.default_rng(0).permutation(len(y))[:batch_size]
    return corpus, ctx[idx], y[idx]


def torch_training_step(torch: Any, params: dict[str, np.ndarray], ctx: np.ndarray, y: np.ndarray, lr: float) -> Any:
    """The same step in PyTorch: embedding, mean, tanh layer, tied or untied head, cross-entropy,
    autograd, ``torch.optim.Adam``; float64 like embedlab. Returns ``(step, tensors)``."""
    F = torch.nn.functional
    t = {name: torch.tensor(v, requires_grad=True) for name, v in params.items()}
    ctx_t, y_t = torch.from_numpy(ctx), torch.from_numpy(y)
    opt = torch.optim.Adam(t.values(), lr=lr, betas=(0.9, 0.999), eps=1e-8)

    def step() -> None:
        opt.zero_grad(set_to_none=False)
        x = F.embedding(ctx_t, t["E"]).mean(dim=1)
        h = torch.tanh(x @ t["Wh"] + t["bh"])
        logits = h @ t.get("W", t["E"]).T
        F.cross_entropy(logits, y_t).backward()
        opt.step()

    return step, t


def bare_numpy_step(params: dict[str, np.ndarray], ctx: np.ndarray, y: np.ndarray, lr: float) -> Any:
    """The tied step written inline in NumPy with no argument checks (``np.add.at`` for the lookup's
    gradient): what embedlab's validation and shared functions cost at this size. Returns ``(step, params)``."""
    p = {name: v.copy() for name, v in params.items()}
    m = {name: np.zeros_like(v) for name, v in p.items()}
    v2 = {name: np.zeros_like(v) for name, v in p.items()}
    n, k = ctx.shape
    rows = np.arange(n)
    count = [0]

    def step() -> None:
        E, Wh = p["E"], p["Wh"]
        x = E[ctx].mean(axis=1)
        h = np.tanh(x @ Wh + p["bh"])
        z = h @ E.T
        e = np.exp(z - z.max(axis=1, keepdims=True))
        dz = e / e.sum(axis=1, keepdims=True)
        dz[rows, y] -= 1
        dz /= n
        gE = dz.T @ h
        da = (dz @ E) * (1 - h**2)
        g = {"Wh": x.T @ da, "bh": da.sum(axis=0)}
        np.add.at(gE, ctx.reshape(-1), np.repeat(da @ Wh.T / k, k, axis=0))
        g["E"] = gE
        count[0] += 1
        t = count[0]
        for name, gi in g.items():
            m[name] = 0.9 * m[name] + 0.1 * gi
            v2[name] = 0.999 * v2[name] + 0.001 * gi**2
            p[name] -= lr * (m[name] / (1 - 0.9**t)) / (np.sqrt(v2[name] / (1 - 0.999**t)) + 1e-8)

    return step, p


def bench_training(repeat: int, torch: Any) -> list[Row]:
    """One training step of notebook I's model (forward, backward, Adam) against PyTorch, a bare NumPy
    step, and ``compare()`` (5 seeds x 3 configurations) against the cost of its steps alone.

    Before timing, each route takes one step from the same parameters, and the results must agree:
    the routes compute the same thing.
    """
    from embedlab.train import _adam_step, _loss_and_grads, adam_state, adam_step, compare, init_params, loss_and_grads

    corpus, ctx, y = training_batch()
    V, d, lr = corpus.vocab_size, 16, 0.02
    shape = f"V = {V}, d = {d}, 3-token contexts, batch {len(y)}, float64"
    rows: list[Row] = []
    route = {}
    for tied in (True, False):
        params = init_params(V, d, tied=tied, seed=0)
        mine_p = {name: v.copy() for name, v in params.items()}
        state = adam_state(mine_p)

        loop_p = {name: v.copy() for name, v in params.items()}
        loop_state = adam_state(loop_p)

        def mine(loop_p: dict = loop_p, state: dict = loop_state) -> None:  # what train() runs at each step
            _adam_step(loop_p, _loss_and_grads(loop_p, ctx, y)[1], state, lr)

        def public(mine_p: dict = mine_p, state: dict = state) -> None:  # the same step through checking functions
            adam_step(mine_p, loss_and_grads(mine_p, (ctx, y))[1], state, lr)

        funcs: dict[str, Callable[[], Any]] = {"mine": mine, "public": public}
        first = {name: v.copy() for name, v in params.items()}
        adam_step(first, loss_and_grads(first, (ctx, y))[1], adam_state(first), lr)
        kernel_first = {name: v.copy() for name, v in params.items()}
        _adam_step(kernel_first, _loss_and_grads(kernel_first, ctx, y)[1], adam_state(kernel_first), lr)
        if any(not np.array_equal(kernel_first[name], first[name]) for name in first):
            raise RuntimeError("the training loop's kernels and the public functions disagree")
        if tied:
            funcs["bare"], _ = bare_numpy_step(params, ctx, y, lr)
            check_bare, bare_p = bare_numpy_step(params, ctx, y, lr)
            check_bare()
            if not np.allclose(bare_p["E"], first["E"], rtol=0, atol=1e-12):
                raise RuntimeError("the bare NumPy step and embedlab's step disagree")
        t = median_times(funcs, repeat, number=20)
        if torch is not None:
            check_step, tensors = torch_training_step(torch, params, ctx, y, lr)
            check_step()
            if not np.allclose(tensors["E"].detach().numpy(), first["E"], rtol=0, atol=1e-10):
                raise RuntimeError("the PyTorch step and embedlab's step disagree")
            # Timed apart, not in turns, and on 1 thread as well as on all: a step this small has no
            # work worth splitting, and on a busy 2-core machine PyTorch's OpenMP threads waiting for
            # each other (and for OpenBLAS's, still spinning after NumPy's calls) took 3 to 130 ms a step.
            for threads in sorted({1, n_threads()}):
                torch.set_num_threads(threads)
                step = torch_training_step(torch, params, ctx, y, lr)[0]
                t[f"torch {threads}"] = median_time(step, repeat, number=20)
            torch.set_num_threads(n_threads())
        what = f"one training step, {'tied' if tied else 'untied'} ({shape}): the loop's kernels, as `train` runs them"
        route[tied] = t["mine"]
        against = "the same step through the public, checking `loss_and_grads` + `adam_step`"
        rows.append(Row("training", what, t["mine"], repeat, against, t["public"]))
        if tied:
            rows.append(
                Row("training", what, t["mine"], repeat, "bare NumPy: the same step inline, no checks", t["bare"])
            )
        if torch is None:
            rows.append(Row("training", what, t["mine"], repeat, "PyTorch: torch absent", None))
        else:
            for threads in sorted({1, n_threads()}):
                against = (
                    f"PyTorch CPU: autograd + `torch.optim.Adam`, float64, {threads} thread{'s' if threads > 1 else ''}"
                )
                rows.append(Row("training", what, t["mine"], repeat, against, t[f"torch {threads}"]))
    t0 = time.perf_counter()
    res = compare(corpus=corpus)
    total = time.perf_counter() - t0
    steps = sum(r.steps for runs in res.runs.values() for r in runs)
    bare = sum(r.steps * route[r.tied] for runs in res.runs.values() for r in runs)  # untied at d = 16 for both
    rows.append(
        Row(
            "training",
            f"`compare()`: {len(res.seeds)} seeds x {len(res.runs)} configurations, 300 steps each, with checkpoints",
            total,
            1,
            f"its {steps:,} steps at the step times above (the training alone)",
            bare,
            "< 30 s",
            total < 30,
        )
    )
    rows += bench_sweep(route)
    return rows


def bench_sweep(step_seconds: dict[bool, float]) -> list[Row]:
    """The sweep's cost per point (``make experiments``): a sample of its points re-run here, each
    against its steps alone at the step times above, and the whole sweep as ``make experiments``
    recorded it in the results file."""
    from embedlab import sweep

    results = sweep.load_results()
    spec = results.spec
    rows: list[Row] = []
    mid_d, mid_lr = spec.widths[len(spec.widths) // 2], spec.lrs[len(spec.lrs) // 2]
    sample = [
        p for p in spec.points()
        if p.draw == spec.draws[0] and p.seed == spec.seeds[0] and p.hidden and p.d == mid_d and p.lr == mid_lr
        and p.n_train in (spec.data_sizes[0], spec.data_sizes[-1])
    ]  # fmt: skip
    for point in sample:
        t0 = time.perf_counter()
        record = sweep.run_point(point, spec)
        seconds = time.perf_counter() - t0
        tied = point.config == "tied"
        rows.append(
            Row(
                "training",
                f"one sweep point: {point.config}, {point.n_train:,} sentences, d = {point.d}, lr {point.lr}: "
                f"{record['stopped_step']:,} steps, validation every {spec.eval_every}",
                seconds,
                1,
                "its steps alone at the step time above",
                record["stopped_step"] * step_seconds[tied],
            )
        )
    meta = results.meta
    per_point = meta["cpu_seconds"] / meta["points"]
    rows.append(
        Row(
            "training",
            f"the whole sweep as `make experiments` ran it: {meta['points']:,} points "
            f"({meta.get('reused', 0):,} reused), {meta['wall_seconds']:,.0f} s wall on {meta['jobs']} workers; "
            "mean time per point, each in its own worker (wall)",
            per_point,
            1,
            "the sampled points above, mean",
            sum(r.seconds for r in rows) / len(rows),
        )
    )
    return rows


# -- 3. validation and build -----------------------------------------------------------------


def run_timed(cmd: list[str], cwd: Path) -> tuple[float, int, str]:
    """Wall seconds, exit code and the last lines of output of a subprocess."""
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    seconds = time.perf_counter() - t0
    tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-3:])
    return seconds, proc.returncode, tail


def timed_runs(cmd: list[str], cwd: Path, repeat: int) -> tuple[float, str]:
    """Median wall seconds of ``repeat`` runs, and a note naming any run that failed."""
    times, failures = [], []
    for _ in range(repeat):
        seconds, rc, tail = run_timed(cmd, cwd)
        times.append(seconds)
        if rc != 0:
            failures.append(f"exit {rc}: {tail.splitlines()[-1] if tail else ''}")
    return statistics.median(times), "; ".join(failures)


EMPTY_NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [], "source": "x = 1"}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def bench_notebooks(repeat: int) -> tuple[list[Row], float]:
    pytest = [str(BIN / "python"), "-m", "pytest", "--nbval", "-q", "-p", "no:cacheprovider"]
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="embedlab-bench-") as tmp:
        base = Path(tmp)
        for name in ("pyproject.toml", "conftest.py"):
            shutil.copy(ROOT / name, base / name)
        (base / "notebooks").mkdir()
        (base / "notebooks" / "empty.ipynb").write_text(json.dumps(EMPTY_NOTEBOOK))
        fixed, _ = timed_runs([*pytest, "notebooks/empty.ipynb"], base, repeat)
    fixed_label = "fixed cost: the same command on a one-cell notebook"
    total_separate = 0.0
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        seconds, failed = timed_runs([*pytest, f"notebooks/{nb.name}"], ROOT, repeat)
        total_separate += seconds
        what = f"`pytest --nbval notebooks/{nb.name}`" + (f" — FAILED ({failed})" if failed else "")
        rows.append(Row("validation", what, seconds, repeat, fixed_label, fixed))
    seconds, failed = timed_runs([*pytest, "notebooks/"], ROOT, repeat)
    what = "**all notebooks, one `pytest --nbval notebooks/`**" + (f" — FAILED ({failed})" if failed else "")
    ok = seconds < NBVAL_TARGET and not failed
    rows.append(
        Row("validation", what, seconds, repeat, "the separate runs above, added", total_separate, "< 60 s", ok)
    )
    return rows, seconds


def copy_tree(dest: Path) -> None:
    """Copy the files git would see (tracked, plus untracked ones not ignored): no _build, no .venv."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for rel in filter(None, listed.split("\0")):
        src = ROOT / rel
        if src.is_file():  # skips files deleted in the work tree
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def bench_book(repeat: int, nbval_total: float | None) -> list[Row]:
    cold, warm, failures = [], [], []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="embedlab-book-") as tmp:
            copy_tree(Path(tmp))
            cmd = [str(BIN / "jupyter-book"), "build", "-W", "-n", "--keep-going", tmp]
            for times in (cold, warm):
                seconds, rc, tail = run_timed(cmd, ROOT)
                times.append(seconds)
                if rc != 0:
                    failures.append(f"exit {rc}: {tail.splitlines()[-1] if tail else ''}")
    failed = f" — FAILED ({', '.join(sorted(set(failures)))})" if failures else ""
    cold_s, warm_s = statistics.median(cold), statistics.median(warm)
    against = "executing the notebooks: the one-run `pytest --nbval` above"
    return [
        Row("build", f"`make book`, cold (fresh copy, no `_build`){failed}", cold_s, repeat, against, nbval_total),
        Row(
            "build",
            f"**`make book`, warm (same copy, nothing changed)**{failed}",
            warm_s,
            repeat,
            "the cold build above",
            cold_s,
            "< 10 s",
            warm_s < WARM_BOOK_TARGET and not failures,
        ),
    ]


# -- 4. JupyterLab latency -------------------------------------------------------------------


def lab_latency() -> tuple[list[Row], str | None]:
    """Rows for ``_build/bench/lab-latency.json`` (written by tests/test_lab.py), and the file's date.

    Each notebook's key-to-figure median is set against the naive explorers' median measured in
    the same JupyterLab server by the same run; the drags come from the same run too.
    """
    if not LAB_LATENCY.exists():
        return [], None
    stamp = dt.datetime.fromtimestamp(LAB_LATENCY.stat().st_mtime).astimezone().isoformat(timespec="seconds")
    try:
        data = json.loads(LAB_LATENCY.read_text())
        stamp = data.get("when", stamp)  # the run's own time (UTC), not the file's
        if not data.get("notebooks") or not data.get("naive"):
            return [
                Row("lab", f"`{LAB_LATENCY.name}` holds no key presses: run the whole tests/test_lab.py", None, 0)
            ], stamp
        target, ratio_goal = data.get("target_median_ms"), data.get("target_ratio")
        naive_ms = data.get("naive_median_ms")
        naive_label = (
            f"the naive twins, pressed in turn ({data.get('naive_presses', 0)} presses, "
            f"IQR {iqr_text(data.get('naive_iqr_ms'))})"
            if naive_ms
            else ""
        )
        naive_s = naive_ms / 1e3 if naive_ms else None
        goal = f"< {target} ms, ratio ≤ {ratio_goal}" if target and ratio_goal else ""

        def met(ms: float) -> bool | None:
            if not (target and ratio_goal and naive_ms):
                return None
            return ms < target and ms / naive_ms <= ratio_goal

        rows = []
        for name, nb in data.get("notebooks", {}).items():
            ms, runs = nb["median_ms"], len(nb.get("samples_ms", []))
            title = f"`{name}` ({runs} presses, IQR {iqr_text(nb.get('iqr_ms'))})"
            own = nb.get("naive_median_ms")  # its explorers' naive twins, pressed in turn with them
            if own:
                twins = ", ".join(f"`{e}`" for e in nb.get("explorers", []) if e in data.get("naive", {}))
                label = (
                    f"its naive twins {twins}, pressed in turn ({len(nb.get('naive_samples_ms', []))} presses, "
                    f"IQR {iqr_text(nb.get('naive_iqr_ms'))})"
                )
                ok = ms < target and ms / own <= ratio_goal if target and ratio_goal else None
                rows.append(Row("lab", title, ms / 1e3, runs, label, own / 1e3, goal, ok))
            else:  # no naive version of these explorers: no ratio, the median only
                ok = ms < target if target else None
                label = "no naive twin of its explorers: no ratio"
                rows.append(Row("lab", title, ms / 1e3, runs, label, None, f"< {target} ms", ok))
        ms = data.get("overall_median_ms")
        presses = data.get("presses", 0)
        if ms is not None:
            pooled = data.get("overall_of")
            of = f" of {', '.join(f'`{n}`' for n in pooled)}, whose explorers have naive twins" if pooled else ""
            rows.append(
                Row(
                    "lab",
                    f"**every key press**{of} ({presses}, IQR {iqr_text(data.get('overall_iqr_ms'))})",
                    ms / 1e3,
                    presses,
                    naive_label,
                    naive_s,
                    goal,
                    met(ms),
                )
            )
        drag_goal = data.get("target_drag_ms")
        drags = data.get("drags", {})
        for label, d in drags.items():
            if d.get("baseline") is None:
                continue  # a naive drag: shown as the baseline of its explorer's own
            ms = d["last_move_to_final_ms"]
            base = drags.get(d["baseline"])
            n = d.get("drags", 1)
            rate = d.get("achieved_rate_per_s")
            seen = f"{rate:g}/s as the page saw them" if rate is not None else f"{d['rate_per_s']}/s asked"
            rows.append(
                Row(
                    "lab",
                    f"drag, {label}: last move to final figure, median of {n} drag{'s' if n != 1 else ''} "
                    f"({d['moves']} moves at {seen}, {d['figures_shown']} figures shown)",
                    ms / 1e3,
                    n,
                    f"{d['baseline']} ({base.get('achieved_rate_per_s', '?')}/s as the page saw them, "
                    f"{base['figures_shown']} figures shown)"
                    if base
                    else "",
                    base["last_move_to_final_ms"] / 1e3 if base else None,
                    f"< {drag_goal} ms" if drag_goal else "",
                    ms < drag_goal if drag_goal else None,
                )
            )
    except (OSError, ValueError, KeyError, TypeError, AttributeError, ZeroDivisionError) as exc:
        return [Row("lab", f"unreadable `{LAB_LATENCY.name}`: {type(exc).__name__} {exc}", None, 0)], stamp
    return rows, stamp


def iqr_text(iqr: Any) -> str:
    """A [first, third] quartile pair from the lab file, as text ("n/a" when it has none)."""
    return f"{iqr[0]:.1f}-{iqr[1]:.1f} ms" if isinstance(iqr, list) and len(iqr) == 2 else "n/a"


def lab_load() -> str:
    """The 1-minute load average at the start and end of the lab run, as recorded by the test."""
    try:
        data = json.loads(LAB_LATENCY.read_text())
        start, end = data.get("load_1min_at_start"), data.get("load_1min_at_end")
    except (OSError, ValueError, AttributeError):
        return "not recorded"
    if start is None or end is None:
        return "not recorded"
    return f"{start:g} at its start, {end:g} at its end"


def lab_cpu() -> str | None:
    try:
        return json.loads(LAB_LATENCY.read_text()).get("cpu")
    except (OSError, ValueError, AttributeError):
        return None


# -- output ----------------------------------------------------------------------------------


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(rows: list[Row], mine_header: str) -> list[str]:
    out = [
        f"| measured | {mine_header} | against | its time | ratio | target | met? |",
        "| --- | ---: | --- | ---: | ---: | --- | --- |",
    ]
    for r in rows:
        ratio = f"{r.ratio:.3g}" if r.ratio is not None else "—"
        met = "—" if r.met is None else ("yes" if r.met else "**no**")
        out.append(
            "| "
            + " | ".join(
                cell(x)
                for x in (
                    r.what,
                    fmt_time(r.seconds),
                    r.against or "—",
                    fmt_time(r.against_seconds),
                    ratio,
                    r.target or "—",
                    met,
                )
            )
            + " |"
        )
    return out


def markdown(meta: dict[str, Any], rows: list[Row]) -> str:
    m = meta["machine"]
    bw = meta["bandwidth"]
    by_hand = " (`make bench` runs it without `--snapshot`, leaving this file as it is)"
    lines = [
        f"Measured {m['date']} by `scripts/bench.py{meta['args']}`{by_hand if '--snapshot' in meta['args'] else ''}"
        f", in {meta['seconds']:.0f} s, on:",
        "",
        f"- CPU: {m['cpu']}, {m['cores']} cores ({m['threads']} usable); no GPU used",
        f"- Python {m['python']}, NumPy {m['numpy']} ({m['blas']}, threads: {m['blas_threads']}), "
        f"matplotlib {m['matplotlib']}, PyTorch {m['torch']}, embedlab {m['embedlab']}",
        f"- copy bandwidth (`np.copyto` of {bw['bytes'] // 2**20} MiB, read + write counted): "
        f"{bw['one_thread'] / 1e9:.1f} GB/s on one thread, {bw['all_threads'] / 1e9:.1f} GB/s "
        f"on {m['threads']}; the floors use the faster",
        f"- 1-minute load average when the run started: {fmt_load(m['load_at_start'])} "
        "(work already running on the cores slows every figure; each section below says how much of the "
        "cores other processes used while it ran)",
        "",
        "Each time is a median of the runs its section states, after warm-up calls where the process is reused. "
        "**ratio = measured time / the baseline's time, lower is better** (below 1 the measured route is faster; "
        "against the bandwidth floor, 1 is streaming E at the measured copy bandwidth).",
        "",
    ]
    sections = {
        "library": f"**The library at GPT-2 scale** (V = {V:,}, d = {D}, float32, seeded RNG; "
        + (
            "PyTorch on the CPU with the same thread count; median of {n} runs, each operation taking turns "
            "with PyTorch and the copy run by run)"
            if m["torch"] != "absent"
            else "PyTorch absent; median of {n} runs, tied logits of 1 context taking turns with the copy run by run)"
        ).format(n=meta["repeat"]),
        "sliders": "**Slider moves in the kernel**: one update of each control over all its values. Where every "
        "value is pre-rendered (frames in the browser) the figure waits for no kernel, which still follows, noting "
        "the values and the frame's readout (the kept figure is drawn only when read), timed here; elsewhere "
        "(C's explorer) a move to a frame the page lacks waits for the kernel's work (compute, the moving artists "
        "drawn alone, PNG encode of that layer, as `Explorer.timed_update` times it) and the message round trip, "
        "which the JupyterLab table below includes; the kernel draws the frames one step away while idle, so a key "
        "press mostly finds its frame in the page. No row here is graded: the goals are the reader's, from key to "
        "figure, graded in that table; "
        f"median of every move over {meta['repeat']} sweeps of the values, the naive route over one",
        "drag": "**A drag in the kernel**: 20 moves at 60 per second across the first slider's values, "
        "ipywidgets' throttle modelled (one message in flight, the latest position buffered; the message's round "
        "trip to the browser is left out, so this is the kernel's share), each move's "
        "kernel work run for real (`Explorer.timed_update`: compute, the frame drawn and encoded); time from the "
        "last move to the end of the final frame's encode. Only C's explorer has its frames drawn live; the "
        "others swap pre-rendered frames in the browser (their rows time the kernel noting the values). No row here "
        "is graded: the goal of 100 ms is from the "
        "reader's last move to the figure on the screen, graded on the drags of the JupyterLab table below (C's "
        "and F's; the others' browser drags are not measured) "
        f"(median of {meta['repeat']} drags, the naive route of {max(1, meta['repeat'] // 2)})",
        "training": "**Training (notebook I)**: one step of the small model, forward, backward and Adam "
        f"(median of {meta['repeat']} runs of 20 steps; embedlab and bare NumPy take turns, "
        "PyTorch runs apart, on 1 thread and on all), and one `compare()`",
        "validation": "**Notebook validation**: wall time of "
        f"`python -m pytest --nbval -q -p no:cacheprovider`, a fresh process each run; median of {meta['slow_repeat']}",
        "build": "**Book build**: `jupyter-book build -W -n --keep-going` (what `make book` runs) "
        f"in a temporary copy of the repository; median of {meta['slow_repeat']}",
        "lab": "**JupyterLab, key press to new figure**, measured by the last whole run of `tests/test_lab.py` "
        "(part of `make test`) "
        f"(`_build/bench/lab-latency.json`, dated {meta.get('lab_latency_date')}, on {meta.get('lab_cpu')}): "
        "from the moment the browser took the key or the pointer move (the event's own time stamp, so a page "
        "busy with its figure shows its lag) to the frame that first painted the new figure (the `renderTime` "
        "Chromium's Element Timing API gives the image: its decode, raster and presentation counted, for the "
        "naive route too); each notebook's presses against the naive twins of its explorers, shown in the same "
        "notebook page and pressed in turn with them (one twin press after each press), with the interquartile "
        "range beside each median; drags of 20 pointer moves sent at 60 per second without waiting for the page "
        "(the rate the page saw, from the moves' own time stamps, is in each row, the baseline's too); each "
        "verdict is of this one run; 1-minute load average "
        f"{meta.get('lab_load', 'not recorded')}",
    }
    for key, intro in sections.items():
        part = [r for r in rows if r.section == key]
        share = meta["others_cpu"].get(key)
        if share is not None:
            intro += f"; other processes used {share:.0%} of the cores meanwhile"
        if part:
            lines += [intro + ":", "", *table(part, "time" if key != "lab" else "latency"), ""]
        elif key in ("validation", "build") and meta["quick"]:
            lines += [intro.split(":")[0] + ": skipped (`--quick`).", ""]
    if not meta.get("lab_latency_date"):
        lines += [
            "**JupyterLab latency**: no `_build/bench/lab-latency.json` (written by `make test`'s browser tests).",
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip notebook validation and the book build")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per figure, library and sliders")
    parser.add_argument("--slow-repeat", type=int, default=3, help="timed runs per figure, validation and build")
    parser.add_argument("--snapshot", action="store_true", help="also write benchmarks/snapshot.md")
    args = parser.parse_args()
    started = time.perf_counter()
    torch = load_torch()
    meta: dict[str, Any] = {"machine": machine_info(torch), "quick": args.quick}
    meta.update(repeat=args.repeat, slow_repeat=args.slow_repeat)
    meta["args"] = "".join(f" {a}" for a in sys.argv[1:])
    print(f"embedlab bench on {meta['machine']['cpu']}, torch {meta['machine']['torch']}", file=sys.stderr)

    others = meta["others_cpu"] = {}

    def section(name: str, run: Callable[[], list[Row]]) -> list[Row]:
        clock = cpu_clock()
        rows = run()
        others[name] = others_share(clock)
        print(f"{name} done", file=sys.stderr)
        return rows

    rows = section("library", lambda: bench_library(args.repeat, torch, meta))
    rows += section("sliders", lambda: bench_sliders(args.repeat))
    rows += section("drag", lambda: bench_drags(args.repeat))
    rows += section("training", lambda: bench_training(args.repeat, torch))
    if not args.quick:
        nbval_total: list[float] = []

        def validation() -> list[Row]:
            nb_rows, total = bench_notebooks(args.slow_repeat)
            nbval_total.append(total)
            return nb_rows

        rows += section("validation", validation)
        rows += section("build", lambda: bench_book(args.slow_repeat, nbval_total[0]))
    lab_rows, meta["lab_latency_date"] = lab_latency()
    meta["lab_cpu"] = lab_cpu()
    meta["lab_load"] = lab_load()
    rows += lab_rows
    meta["seconds"] = time.perf_counter() - started

    text = markdown(meta, rows)
    OUT.mkdir(parents=True, exist_ok=True)
    records = [{**asdict(r), "ratio": r.ratio} for r in rows]
    doc = {
        "meta": meta,
        "ratio": "measured seconds / against_seconds (lower is better)",
        "rows": records,
    }
    (OUT / "bench.json").write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    (OUT / "bench.md").write_text(text)
    if args.snapshot:
        SNAPSHOT.write_text(text)
    print(text)
    written = "_build/bench/bench.json, _build/bench/bench.md" + (", benchmarks/snapshot.md" if args.snapshot else "")
    print(f"wrote {written} in {meta['seconds']:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
