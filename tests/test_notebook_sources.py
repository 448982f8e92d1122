"""The notebooks' text sources and the committed .ipynb files never drift apart.

``notebooks/sources/*.md`` (MyST Markdown, jupytext's ``md:myst``) is the one source of truth;
``make notebooks`` (``scripts/run_notebooks.py``) generates the executed ``notebooks/*.ipynb``.
These tests fail, naming the file and the command that fixes it, when a source was edited and
its notebook not rebuilt, when a notebook was edited by hand, or when the stored outputs differ
from a fresh run (stale figures, machine paths).
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "scripts" / "run_notebooks.py")
run_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_notebooks)

NAMES = run_notebooks.names()
IPYNB = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))


def test_every_notebook_has_exactly_one_source() -> None:
    assert NAMES, "no sources found in notebooks/sources/"
    assert NAMES == IPYNB, (
        f"sources {NAMES} and notebooks {IPYNB} do not pair up one to one; every notebooks/X.ipynb needs "
        "notebooks/sources/X.md (run `make notebooks` after adding a source, delete both to remove one)"
    )


@pytest.mark.parametrize("name", NAMES)
def test_cells_and_tags_match_the_source(name: str) -> None:
    problem = run_notebooks.structure_mismatch(name)
    assert problem is None, problem


@pytest.mark.parametrize("name", NAMES)
def test_source_is_wrapped_text(name: str) -> None:
    """Prose in a source is hard-wrapped, so a one-sentence edit is a one-line diff (code is left to ruff)."""
    text = run_notebooks.source_path(name).read_text(encoding="utf-8")
    assert text.startswith("---\njupytext:"), f"notebooks/sources/{name}.md lacks jupytext's header"
    long, in_code = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            in_code = line.startswith("```{code-cell}")
        elif not in_code and len(line) > 120 and not line.startswith("|"):
            long.append(number)
    assert not long, f"notebooks/sources/{name}.md has prose lines over 120 characters (wrap them): {long[:5]}"


@pytest.mark.parametrize("name", NAMES)
def test_code_the_book_hides_is_folded_in_jupyterlab(name: str) -> None:
    """A forecast's or an exercise's code holds its answer: the book drops it (remove-input), and in
    JupyterLab, where learners work, it is folded away (source_hidden) rather than on view above the question."""
    cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    shown = [
        i
        for i, cell in enumerate(cells)
        if "remove-input" in cell["metadata"].get("tags", [])
        and cell["metadata"].get("jupyter", {}).get("source_hidden") is not True
    ]
    assert not shown, f"notebooks/{name}.ipynb: cells {shown} are removed from the book but shown in JupyterLab"


@pytest.mark.parametrize("name", NAMES)
def test_one_title_per_notebook(name: str) -> None:
    """Exactly one level-1 heading, first in the notebook: the book's sidebar and page title."""
    import jupytext

    nb = jupytext.read(run_notebooks.source_path(name), fmt="md:myst")
    titles = [
        line
        for cell in nb.cells
        if cell.cell_type == "markdown"
        for line in cell.source.splitlines()
        if line.startswith("# ")
    ]
    assert len(titles) == 1, f"notebooks/sources/{name}.md has {len(titles)} level-1 headings: {titles}"
    assert titles[0].startswith(f"# {name[0]} · "), f"{name}'s title should start with its letter: {titles[0]}"


def test_readme_counts_the_notebooks_it_says_nbval_runs() -> None:
    words = {8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"all {words[len(IPYNB)]} notebooks" in readme, f"README must say all {len(IPYNB)} notebooks"


def test_no_machine_path_in_any_stored_output() -> None:
    home = re.compile(r"(/home/|/root/|/work/|/tmp/|/Users/|[A-Z]:\\\\)")
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            for output in cell.get("outputs", []):
                text = json.dumps(output)
                found = home.search(text)
                near = text[found.start() :][:80] if found else ""
                assert found is None, f"{path.name} cell {index} stores a machine path near {near!r}"


def test_one_sentence_edit_is_caught_and_is_a_one_line_diff(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Meta-test: edit one sentence of a copy of a source and the checker reports that notebook."""
    sources = tmp_path / "notebooks" / "sources"
    shutil.copytree(ROOT / "notebooks" / "sources", sources)
    for name in NAMES:
        shutil.copy(run_notebooks.notebook_path(name), tmp_path / "notebooks" / f"{name}.ipynb")
    monkeypatch.setattr(run_notebooks, "NOTEBOOKS", tmp_path / "notebooks")
    monkeypatch.setattr(run_notebooks, "SOURCES", sources)
    name = NAMES[0]
    for other in NAMES:
        assert run_notebooks.structure_mismatch(other) is None
    src = sources / f"{name}.md"
    before = src.read_text(encoding="utf-8").splitlines()
    # change one sentence of the first Markdown paragraph after the title
    prose = [i for i, line in enumerate(before) if line and not line.startswith(("#", "-", "`", ":", "+"))]
    index = next(i for i in prose if i > 12)
    after = list(before)
    after[index] = after[index] + " An edited sentence."
    src.write_text("\n".join(after) + "\n", encoding="utf-8")
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert changed == [index]
    problem = run_notebooks.structure_mismatch(name)
    assert problem is not None and f"notebooks/{name}.ipynb" in problem and "make notebooks" in problem
    assert "An edited sentence." in problem
    # a changed tag is caught too
    src.write_text("\n".join(before).replace(":tags: [remove-cell]", ":tags: [hide-input]", 1) + "\n", encoding="utf-8")
    problem = run_notebooks.structure_mismatch(name)
    assert problem is not None and "metadata" in problem
    # and a notebook without a source
    shutil.copy(run_notebooks.notebook_path(name), tmp_path / "notebooks" / "Z-orphan.ipynb")
    assert "has no text source" in run_notebooks.structure_mismatch("Z-orphan")


def test_stale_output_is_caught(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Meta-test: a committed notebook whose outputs differ from a rebuild is reported with the fix."""
    name = NAMES[0]
    committed = run_notebooks.notebook_path(name).read_text(encoding="utf-8")
    assert run_notebooks.output_mismatch(name, committed) is None
    stale = committed.replace('"execution_count": 2', '"execution_count": 3', 1)
    assert stale != committed
    problem = run_notebooks.output_mismatch(name, stale)
    assert problem is not None and f"notebooks/{name}.ipynb" in problem and "make notebooks" in problem


@pytest.mark.parametrize("name", NAMES)
def test_committed_notebook_is_what_make_notebooks_produces(name: str) -> None:
    """Execute the source in a fresh kernel, as `make notebooks` does, and compare byte for byte."""
    built, _ = run_notebooks.build(name)
    problem = run_notebooks.output_mismatch(name, built)
    assert problem is None, problem


def test_split_prints_are_saved_as_one_stream() -> None:
    """The kernel may deliver one cell's prints in several messages; the saved notebook must not depend on that."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("for t in range(3): print(t)")
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="0\n"),
        nbformat.v4.new_output("stream", name="stdout", text="1\n2\n"),
        nbformat.v4.new_output("display_data", data={"text/plain": "x"}),
        nbformat.v4.new_output("stream", name="stdout", text="after\n"),
    ]
    nb.cells.append(cell)
    run_notebooks.normalise(nb)
    kinds = [(o.output_type, o.get("text")) for o in nb.cells[0].outputs]
    assert kinds == [("stream", "0\n1\n2\n"), ("display_data", None), ("stream", "after\n")]
