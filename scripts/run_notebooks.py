"""Build every notebook from its text source, execute it in a fresh kernel, and save it normalised.

The MyST Markdown files in ``notebooks/sources/`` (jupytext's ``md:myst`` format) are the single
source of truth for each notebook's cells, tags and metadata. ``make notebooks`` turns each one
into ``notebooks/<name>.ipynb``: read with jupytext, executed top to bottom with nbclient in
``notebooks/``, normalised, written. The result is byte-identical on every machine and every run:

- cell ids are derived from the cell's position and text, not drawn at random;
- timing metadata, widget state and jupytext's own header are not stored;
- consecutive prints to one stream are saved as one output, however the kernel split them;
- the live-widget entry of each output (a random model id that only exists while a kernel runs)
  is dropped, so an unopened notebook shows the explorer's kernel-free figure;
- a deliberate error keeps the learner's cell frame and the final ``TypeError: ...`` line, and
  drops the library's internal frames (they hold the checkout's absolute path and line numbers).

Usage::

    python scripts/run_notebooks.py                # format the sources' code, rebuild every notebook
    python scripts/run_notebooks.py A-lookup       # rebuild one (by name, source or notebook path)
    python scripts/run_notebooks.py --check        # rebuild in memory; exit 1 if a committed .ipynb differs
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import re
import subprocess
import sys
import time
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SOURCES = NOTEBOOKS / "sources"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
FIX = "edit notebooks/sources/{name}.md if needed, then run `make notebooks` and commit both files"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def source_path(name: str) -> Path:
    return SOURCES / f"{name}.md"


def notebook_path(name: str) -> Path:
    return NOTEBOOKS / f"{name}.ipynb"


def names() -> list[str]:
    """Every notebook name that has a source, sorted (A-lookup, B-one-hot, ...)."""
    return sorted(p.stem for p in SOURCES.glob("*.md") if p.name != "README.md")


def from_source(path: Path) -> nbformat.NotebookNode:
    """The unexecuted notebook a source describes: its cells, tags and metadata, with stable ids."""
    nb = jupytext.read(path, fmt="md:myst")
    nb.metadata.pop("jupytext", None)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    for index, cell in enumerate(nb.cells):
        digest = hashlib.sha1(f"{cell.cell_type}\n{cell.source}".encode()).hexdigest()[:8]
        cell["id"] = f"{index:02d}-{digest}"  # unique by position, stable across runs and machines
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    return nb


def _is_library_frame(line: str) -> bool:
    return _ANSI.sub("", line).lstrip().startswith("File ")


def normalise(nb: nbformat.NotebookNode) -> None:
    """Drop what differs between equal runs or between machines."""
    nb.metadata.pop("widgets", None)
    nb.metadata["language_info"] = {"name": "python"}  # the kernel fills in its own Python version
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        merged: list = []
        for output in cell.get("outputs", []):
            # A loop's prints reach the kernel's client in one or several messages depending on
            # timing: merge runs of the same stream so the saved bytes do not depend on it.
            previous = merged[-1] if merged else None
            if (
                output.get("output_type") == "stream"
                and previous is not None
                and previous.get("output_type") == "stream"
                and previous.get("name") == output.get("name")
            ):
                previous["text"] += output["text"]
            else:
                merged.append(output)
        if "outputs" in cell:
            cell.outputs = merged
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)
            if output.get("output_type") == "error":
                output["traceback"] = [t for t in output["traceback"] if not _is_library_frame(t)]


def format_source(name: str) -> None:
    """Format the code cells of a source in place with the project's ruff (jupytext pipes each cell through it).

    The .ipynb is generated from the source, so formatting the source keeps `ruff format --check`
    of the notebooks green without ever editing a generated file.
    """
    ruff = Path(sys.executable).with_name("ruff")
    subprocess.run(
        [
            str(Path(sys.executable).with_name("jupytext")),
            "--quiet",
            "--pipe",
            f"{ruff} format --quiet --stdin-filename cell.py -",
            str(source_path(name)),
        ],
        cwd=ROOT,
        check=True,
    )


def build(name: str) -> tuple[str, float]:
    """Execute the source of ``name`` in a fresh kernel; return the .ipynb text and the seconds it took."""
    nb = from_source(source_path(name))
    start = time.perf_counter()
    client = NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
        store_widget_state=False,
        record_timing=False,
    )
    client.execute()
    seconds = time.perf_counter() - start
    normalise(nb)
    nbformat.validate(nb)
    text = nbformat.writes(nb, version=4)
    return (text if text.endswith("\n") else text + "\n"), seconds


def structure_mismatch(name: str) -> str | None:
    """Compare the committed .ipynb's cells (type, text, tags, metadata) with its source, without executing.

    Returns None when they agree, else a message that names both files, the first differing cell
    and the command that fixes it.
    """
    src, ipynb = source_path(name), notebook_path(name)
    if not src.exists():
        return f"notebooks/{name}.ipynb has no text source notebooks/sources/{name}.md; {FIX.format(name=name)}"
    if not ipynb.exists():
        return f"notebooks/sources/{name}.md has no executed notebook notebooks/{name}.ipynb; {FIX.format(name=name)}"
    want = from_source(src)
    have = nbformat.read(ipynb, as_version=4)
    if len(want.cells) != len(have.cells):
        return (
            f"notebooks/{name}.ipynb has {len(have.cells)} cells but its source notebooks/sources/{name}.md "
            f"has {len(want.cells)}; {FIX.format(name=name)}"
        )
    for index, (w, h) in enumerate(zip(want.cells, have.cells, strict=True)):
        for what, a, b in (
            ("type", w.cell_type, h.cell_type),
            ("text", w.source, h.source),
            ("metadata (tags)", dict(w.metadata), {k: v for k, v in h.metadata.items() if k != "execution"}),
            ("id", w.get("id"), h.get("id")),
        ):
            if a != b:
                detail = ""
                if what == "text":
                    diff = difflib.unified_diff(b.splitlines(), a.splitlines(), "ipynb", "source", lineterm="", n=0)
                    detail = "\n" + "\n".join(list(diff)[:8])
                return (
                    f"notebooks/{name}.ipynb is out of step with notebooks/sources/{name}.md: "
                    f"cell {index} differs in its {what}; {FIX.format(name=name)}{detail}"
                )
    return None


def output_mismatch(name: str, built: str) -> str | None:
    """Compare freshly built text with the committed .ipynb byte for byte; describe the first difference."""
    committed = notebook_path(name).read_text(encoding="utf-8") if notebook_path(name).exists() else ""
    if committed == built:
        return None
    diff = list(difflib.unified_diff(committed.splitlines(), built.splitlines(), "committed", "rebuilt", n=0))
    shown = "\n".join(line[:160] for line in diff[2:10])
    return (
        f"notebooks/{name}.ipynb differs from what `make notebooks` produces from notebooks/sources/{name}.md "
        f"(stale outputs or hand edits); run `make notebooks` and commit both files. First differences:\n{shown}"
    )


def _name(arg: str) -> str:
    return Path(arg).stem


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="*", help="names (A-lookup), sources or .ipynb paths; default all")
    parser.add_argument("--check", action="store_true", help="rebuild in memory and report stale notebooks")
    args = parser.parse_args(argv)
    todo = [_name(a) for a in args.notebooks] or names()
    failures = []
    orphans = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb") if not source_path(p.stem).exists())
    for orphan in orphans:
        failures.append(structure_mismatch(orphan))
    for name in todo:
        if not source_path(name).exists():
            failures.append(f"no source notebooks/sources/{name}.md")
            continue
        if not args.check:
            format_source(name)
        text, seconds = build(name)
        if args.check:
            problem = output_mismatch(name, text)
            print(f"notebooks/{name}.ipynb: {'STALE' if problem else 'up to date'} ({seconds:.1f} s)", flush=True)
            if problem:
                failures.append(problem)
        else:
            notebook_path(name).write_text(text, encoding="utf-8")
            print(f"notebooks/{name}.ipynb: built from sources/{name}.md in {seconds:.1f} s", flush=True)
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
