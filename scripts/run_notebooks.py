"""Execute every notebook in notebooks/ in a fresh kernel, top to bottom, and save it normalised.

Run by ``make notebooks``. Re-running on an unchanged tree gives byte-identical files: timing
metadata is not recorded, widget state is not stored, and the random widget model ids in
outputs are replaced by ids numbered per notebook.

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


def normalise(nb: nbformat.NotebookNode, stem: str) -> None:
    """Drop volatile metadata and number widget model ids, so equal runs save equal bytes."""
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    count = 0
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view is not None:
                count += 1
                view["model_id"] = f"{stem}-widget-{count}"


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
    normalise(nb, path.stem)
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
