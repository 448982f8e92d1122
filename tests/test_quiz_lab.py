"""The self-check notebook in a real JupyterLab: its forecast reveals after an answer, its exercises grade.

Reuses the server, browser and run helpers of tests/test_lab.py on a temporary copy of
notebooks/S-self-check.ipynb.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from embedlab import exercises, quiz
from tests.lab_server import LabServer
from tests.test_lab import check_cells, notebook_page, restart_and_run_all, serve_copies

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
NAME = "S-self-check.ipynb"


@pytest.fixture(scope="module")
def quiz_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    yield from serve_copies(tmp_path_factory, "quiz-lab", [NAME])


@pytest.mark.timeout(300)
def test_stored_untrusted_outputs_keep_answers_hidden(quiz_lab: LabServer, chromium: Any) -> None:
    """Opened as stored (not run, not trusted), the notebook shows each question and no answer: JupyterLab's
    sanitizer drops the ``hidden`` attribute, so the reveal, the button and the solution hide by their style."""
    with notebook_page(chromium, quiz_lab, NAME, "test-quiz-stored") as page:
        quizzes = page.locator(".jp-NotebookPanel .embedlab-quiz")
        expected = 1 + len(exercises.bank())
        quizzes.nth(expected - 1).wait_for(state="attached", timeout=30_000)
        assert quizzes.count() == expected
        for k in (0, expected // 2, expected - 1):  # the warm-up forecast, an exercise, the last exercise
            box = quizzes.nth(k)
            box.scroll_into_view_if_needed()
            assert box.locator(".embedlab-quiz-form").is_visible(), k
        hidden = ".embedlab-quiz-reveal, .embedlab-quiz-show, .embedlab-quiz-solution"
        shown = page.locator(f".jp-NotebookPanel :is({hidden})").evaluate_all(
            "els => els.filter(e => getComputedStyle(e).display !== 'none').length"
        )
        assert shown == 0, f"{shown} answer parts shown before any answer"
        assert page.locator(f".jp-NotebookPanel :is({hidden})").count() == 1 + 2 * len(exercises.bank())


@pytest.mark.timeout(300)
def test_forecast_reveals_after_an_answer_and_exercises_grade_live(quiz_lab: LabServer, chromium: Any) -> None:
    with notebook_page(chromium, quiz_lab, NAME, "test-quiz-self-check") as page:
        check_cells(restart_and_run_all(page), quiz_lab.root / NAME)
        live = page.locator(".jp-NotebookPanel .embedlab-quiz-live")
        live.first.wait_for(timeout=30_000)
        expected = 1 + len(exercises.bank())
        live.nth(expected - 1).wait_for(timeout=30_000)  # widgets render one by one
        assert live.count() == expected, "one live widget per forecast and exercise"

        # the forecast: hidden reveal, a blank commit keeps it hidden, an answer shows it
        forecast = live.first
        forecast.scroll_into_view_if_needed()
        reveal = forecast.locator(".embedlab-quiz-reveal")
        assert not reveal.is_visible()
        forecast.get_by_role("button", name="Commit my forecast").click()
        feedback = forecast.locator(".embedlab-quiz-feedback")
        feedback.wait_for()
        warmup = exercises.warmup()
        blank = quiz.PICK_ONE if warmup.is_choice else warmup.grade("").message
        assert feedback.inner_text() == blank and not reveal.is_visible()
        if warmup.is_choice:
            wrong = next(c for c in warmup.choices or () if c != warmup.answer)
            forecast.get_by_label(wrong, exact=True).check()
        else:  # the tempting wrong number, one of its slips
            wrong = repr(float(warmup.slips[0].value))
            forecast.locator("input[type=text]").fill(wrong)
        forecast.get_by_role("button", name="Commit my forecast").click()
        reveal.wait_for(state="visible", timeout=10_000)
        assert warmup.verdict(warmup.grade(wrong)) in reveal.inner_text()
        assert f"The answer is {warmup.answer_text}." in reveal.inner_text()
        assert warmup.trap in reveal.inner_text() and "Where it is settled" in reveal.inner_text()
        status = forecast.locator(".embedlab-quiz-feedback").get_attribute("data-status")
        assert status == warmup.grade(wrong).status and status in ("wrong", "slip")

        # a numeric exercise, by keyboard: a slip, then the right answer, then the solution
        e = exercises.get("D1")
        box = live.nth(1 + [x.title for x in exercises.bank()].index(e.title))
        box.scroll_into_view_if_needed()
        field = box.locator("input[type=text]")
        field.fill(repr(float(e.slips[0].value)))
        field.press("Enter")
        status = box.locator('.embedlab-quiz-feedback[data-status="slip"]')
        status.wait_for(timeout=10_000)
        assert status.inner_text() == e.slips[0].feedback
        field.fill(e.answer_text.replace(".", ","))  # a decimal comma
        field.press("Enter")
        box.locator('.embedlab-quiz-feedback[data-status="right"]').wait_for(timeout=10_000)
        box.get_by_role("button", name="Show answer").click()
        solution = box.locator(".embedlab-quiz-solution")
        solution.wait_for(state="visible", timeout=10_000)
        assert e.answer_text in solution.inner_text()
