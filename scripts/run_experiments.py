"""``make experiments``: run notebook I's sweep (embedlab.sweep) and write it into the package.

Every point trains one model with early stopping; the points run in worker processes, one BLAS
thread each (results are bit-identical to a run in one process). The file records the sweep's
settings and the library's version; ``tests/test_sweep.py`` re-runs a sample of its points and
requires the same numbers, bit for bit.

Usage: python scripts/run_experiments.py [--jobs N] [--out PATH]
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the JSON")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be a positive int, got {args.jobs}")
    spec = sweep.SweepSpec()
    n = len(spec.points())
    print(f"{n:,} runs on {args.jobs} worker(s) -> {args.out}", flush=True)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs, mp_context=get_context("spawn")) as pool:
        done = 0

        def progress(records):
            nonlocal done
            for r in records:
                done += 1
                if done % 100 == 0 or done == n:
                    print(f"  {done:5,} / {n:,} runs, {time.perf_counter() - started:6.0f} s", flush=True)
                yield r

        result = sweep.run_sweep(spec, map_fn=lambda f, pts: progress(pool.map(f, pts, chunksize=4)))
    result.meta["wall_seconds"] = round(time.perf_counter() - started, 1)
    result.meta["jobs"] = args.jobs
    result.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) in {result.meta['wall_seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
