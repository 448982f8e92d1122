"""A learner's coding exercise in a real JupyterLab: type a wrong function, see the hint; type a right one, see it pass.

Reuses the server, browser and run helpers of tests/test_lab.py on a temporary copy of
notebooks/B-one-hot.ipynb.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from embedlab import practice
from tests.lab_server import LabServer
from tests.test_lab import check_cells, notebook_page, restart_and_run_all, serve_copies

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
NAME = "B-one-hot.ipynb"
TASK = "one_hot_lookup"


@pytest.fixture(scope="module")
def practice_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    yield from serve_copies(tmp_path_factory, "practice-lab", [NAME])


def _cell_index(source_start: str) -> int:
    """The index, among all cells, of the first code cell whose source starts with ``source_start``."""
    cells = json.loads((REPO / "notebooks" / NAME).read_text(encoding="utf-8"))["cells"]
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "code" and "".join(cell["source"]).startswith(source_start):
            return i
    raise AssertionError(f"{NAME} has no code cell starting with {source_start!r}")


def _type_and_check(page: Any, stub: int, lines: list[str]) -> str:
    """Replace the stub cell's code with ``lines`` (typed, as a learner types), run it and the check below it."""
    cells = page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell")
    before = cells.nth(stub + 1).locator(".jp-OutputArea-output").first.inner_text()
    editor = cells.nth(stub).locator(".cm-content")
    editor.scroll_into_view_if_needed()
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    for n, line in enumerate(lines):
        if n:
            page.keyboard.press("Enter")  # JupyterLab's editor indents the body after "def ...:" itself
        page.keyboard.type(line)
    page.keyboard.press("Shift+Enter")  # run the function's cell, move to the check
    page.keyboard.press("Shift+Enter")  # run the check
    cell = cells.nth(stub + 1).element_handle()
    page.wait_for_function(
        """([cell, before]) => {
             const out = cell.querySelector('.jp-OutputArea-output');
             return out !== null && out.innerText.trim() !== '' && out.innerText !== before;
           }""",
        arg=[cell, before],
        timeout=30_000,
    )
    return cells.nth(stub + 1).locator(".jp-OutputArea-output").first.inner_text()


@pytest.mark.timeout(300)
def test_a_wrong_then_a_right_function_changes_the_checks_answer(practice_lab: LabServer, chromium: Any) -> None:
    stub = _cell_index(f"def {TASK}(")
    with notebook_page(chromium, practice_lab, NAME, "test-practice-one-hot") as page:
        check_cells(restart_and_run_all(page), practice_lab.root / NAME)
        cells = page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell")
        assert "not tried yet" in cells.nth(stub + 1).locator(".jp-OutputArea-output").first.inner_text()
        # the worked solution is folded away: JupyterLab shows its first line (the signature the stub
        # already has) as a placeholder, and nothing of its body
        solution = cells.nth(stub + 3)
        solution.locator(".jp-InputPlaceholder").wait_for(timeout=10_000)
        assert "return x @ E" not in solution.inner_text(), "the solution's body shows before it is opened"

        # a classic mistake: a float64 one-hot vector (np.eye's default), which turns a float32 E into float64
        wrong = _type_and_check(page, stub, [f"def {TASK}(E, token_id):", "return np.eye(len(E))[token_id] @ E"])
        hint = next(m.hint for m in practice.task(TASK)._mistakes if m.name == "float64 one-hot")
        assert "fails" in wrong and hint in " ".join(wrong.split()), wrong

        right = _type_and_check(
            page, stub, [f"def {TASK}(E, token_id):", "return np.eye(len(E), dtype=E.dtype)[token_id] @ E"]
        )
        assert f"{TASK}: all {len(practice.task(TASK).cases())} cases pass." in right, right
