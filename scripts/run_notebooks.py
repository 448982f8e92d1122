"""Execute every notebook in notebooks/ in a fresh kernel, top to bottom, and save it normalised.

Run by ``make notebooks``. Re-running on an unchanged tree gives byte-identical files: timing
metadata is not recorded, widget state is not stored, and the live-widget entry of each output
(which holds a random model id, and points at a model that only exists while a kernel runs) is
dropped. What stays is the explorer's kernel-free HTML and its text: a notebook opened before
it is run shows the figure rather than "Error displaying widget: model not found", and running
the cell brings the live sliders back.

Usage: python scripts/run_notebooks.py [NOTEBOOK ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def normalise(nb: nbformat.NotebookNode) -> None:
    """Drop volatile metadata and live-widget entries, so equal runs save equal bytes."""
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)


def run(path: Path) -> float:
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    client = NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=False,
        record_timing=False,
    )
    client.execute()
    seconds = time.perf_counter() - start
    normalise(nb)
    nbformat.validate(nb)
    text = nbformat.writes(nb, version=4)
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    return seconds


def main(argv: list[str]) -> int:
    paths = [Path(a).resolve() for a in argv] or sorted((ROOT / "notebooks").glob("*.ipynb"))
    for path in paths:
        print(f"{path.relative_to(ROOT)}: executed in {run(path):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
