"""``make experiments``: run notebook I's sweep (embedlab.sweep) and write it into the package.

Every point trains one model with early stopping; the points run in worker processes, one BLAS
thread each (results are bit-identical to a run in one process). The file records the sweep's
settings and the library's version; ``tests/test_sweep.py`` re-runs a sample of its points and
requires the same numbers (losses to 12 significant digits: another processor may round the last bits
of a sum differently).

Usage: python scripts/run_experiments.py [--jobs N] [--out PATH] [--reuse PATH]

``--reuse`` takes the records of an earlier results file for the points whose run cannot differ:
the same point, the same training settings, and a run that stopped by early stopping before the
new step cap (a capped run is trained again when the cap rises). Every reused record is what a
fresh run gives on the same machine, bit for bit (the tests re-run a sample); reuse only saves time.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy loads, here and in the workers

from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from embedlab import sweep

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "src" / "embedlab" / "data" / sweep.RESULTS_FILE


def reusable(spec: sweep.SweepSpec, path: Path) -> dict[tuple, dict]:
    """Records of ``path`` that a run under ``spec`` would reproduce exactly, by point."""
    earlier = sweep.load_results(path)
    same = ("n_valid", "n_test", "k", "batch_size", "eval_every", "patience")
    if any(getattr(earlier.spec, f) != getattr(spec, f) for f in same) or earlier.spec.max_steps > spec.max_steps:
        return {}
    wanted = {tuple(p) for p in spec.points()}
    return {
        key: r
        for r in earlier.records
        if (key := tuple(r[f] for f in sweep.Point._fields)) in wanted
        and not (r["capped"] and spec.max_steps > earlier.spec.max_steps)
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the JSON")
    parser.add_argument("--reuse", type=Path, default=None, help="an earlier results file to take unchanged runs from")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be a positive int, got {args.jobs}")
    spec = sweep.SweepSpec()
    old = reusable(spec, args.reuse) if args.reuse else {}
    todo = [p for p in spec.points() if tuple(p) not in old]
    n = len(todo)
    print(f"{n:,} runs ({len(old):,} reused) on {args.jobs} worker(s) -> {args.out}", flush=True)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs, mp_context=get_context("spawn")) as pool:
        done = 0

        def run_all(f, points):
            nonlocal done
            fresh = pool.map(f, [p for p in points if tuple(p) not in old], chunksize=2)
            for p in points:
                if tuple(p) in old:
                    yield old[tuple(p)]
                    continue
                done += 1
                if done % 100 == 0 or done == n:
                    print(f"  {done:5,} / {n:,} runs, {time.perf_counter() - started:6.0f} s", flush=True)
                yield next(fresh)

        result = sweep.run_sweep(spec, map_fn=run_all)
    result.meta["wall_seconds"] = round(time.perf_counter() - started, 1)
    result.meta["jobs"] = args.jobs
    result.meta["reused"] = len(old)  # records taken from --reuse; wall_seconds covers the others
    result.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) in {result.meta['wall_seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
