"""Forecasts and exercises on the static book, in Chromium with the network blocked, keyboard only.

- Every notebook page opens with a forecast whose reveal is hidden until the learner answers.
- On the self-check, every exercise grades its computed answer right, a wrong answer wrong (with
  the slip's own feedback where the answer matches a known slip), a blank or a non-number with a
  prompt; the feedback sits in an aria-live region; "Show answer" appears after a try.
- The page's inline grader reads typed numbers exactly as the Python grader does.
"""

from __future__ import annotations

import html
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from embedlab import exercises, quiz
from tests.browser import PageWatch
from tests.quiz_cases import AMBIGUOUS_CASES, PARSE_CASES, PERCENT_CASES, TOLERANCE_CASES, random_entries

ROOT = Path(__file__).resolve().parents[1]
SELF_CHECK = "notebooks/S-self-check.html"
NOTEBOOK_PAGES = sorted(f"notebooks/{p.stem}.html" for p in (ROOT / "notebooks").glob("*.ipynb"))

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


def submit(page: Any, box: Any) -> dict[str, str | None]:
    """Press the question's submit button with the keyboard; return the feedback's status and text."""
    box.locator("button[type=submit]").focus()
    page.keyboard.press("Enter")
    feedback = box.locator(".embedlab-quiz-feedback")
    return {"status": feedback.get_attribute("data-status"), "text": feedback.inner_text()}


def type_number(page: Any, box: Any, text: str) -> dict[str, str | None]:
    """Type into the question's text box and press Enter (the form's implicit submission)."""
    field = box.locator("input[type=text]")
    field.focus()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    if text:
        page.keyboard.insert_text(text)
    page.keyboard.press("Enter")
    feedback = box.locator(".embedlab-quiz-feedback")
    return {"status": feedback.get_attribute("data-status"), "text": feedback.inner_text()}


def pick(page: Any, box: Any, value: str) -> dict[str, str | None]:
    """Select a choice with the keyboard (focus, Space), then submit."""
    radio = box.locator("input[type=radio]").filter(has=None)
    for i in range(radio.count()):
        if radio.nth(i).get_attribute("value") == value:
            radio.nth(i).focus()
            page.keyboard.press("Space")
            break
    else:
        raise AssertionError(f"no choice {value!r}")
    return submit(page, box)


@pytest.mark.parametrize("path", NOTEBOOK_PAGES)
def test_every_notebook_opens_with_a_forecast_hidden_until_answered(watch: PageWatch, path: str) -> None:
    page = watch.open(path)
    forecasts = page.locator(".embedlab-forecast")
    assert forecasts.count() >= 1, f"{path} has no forecast (embedlab.quiz.Forecast)"
    steps = page.locator("article h2", has_text="Step")
    if steps.count():  # the forecast comes before the steps
        first_step = steps.first.bounding_box()["y"]
        assert forecasts.first.bounding_box()["y"] < first_step, f"{path}: the forecast is not before Step 1"
    for k in range(forecasts.count()):
        box = forecasts.nth(k)
        reveal = box.locator(".embedlab-quiz-reveal")
        assert reveal.count() == 1 and not reveal.is_visible(), f"{path}: forecast {k} shows its reveal unanswered"
        feedback = box.locator(".embedlab-quiz-feedback")
        assert feedback.get_attribute("aria-live") == "polite"
        if box.get_attribute("data-kind") == "choice":
            assert submit(page, box)["status"] == "blank"
            assert not reveal.is_visible(), "a blank forecast must not reveal"
            result = pick(page, box, box.locator("input[type=radio]").last.get_attribute("value"))
        else:
            assert type_number(page, box, "abc")["status"] == "nan"
            assert not reveal.is_visible(), "an unreadable forecast must not reveal"
            result = type_number(page, box, "0")
        assert result["status"] in ("right", "slip", "wrong") and result["text"]
        assert reveal.is_visible(), f"{path}: forecast {k} did not reveal after an answer"
        assert box.locator(".embedlab-quiz-verdict").inner_text().strip()
        assert box.locator(".embedlab-quiz-trap").inner_text().strip()
    assert not watch.errors and not watch.blocked, (watch.errors, watch.blocked)


def wrong_number(e: quiz.Exercise) -> str:
    """A readable number that is neither right nor any slip."""
    x = float(e.answer) * 3 + 7.77
    assert e.grade(repr(x)).status == "wrong"
    return repr(x)


def test_every_exercise_grades_right_wrong_blank_and_non_numbers(watch: PageWatch) -> None:
    page = watch.open(SELF_CHECK)
    boxes = page.locator(".embedlab-exercise")
    bank = {e.title: e for e in exercises.bank()}
    assert boxes.count() == len(bank) >= 12
    for k in range(boxes.count()):
        box = boxes.nth(k)
        title = box.get_attribute("aria-label")
        e = bank[title]
        where = f"{title}:"
        # the answer the build computed is embedlab's
        stored = box.get_attribute("data-answer")
        if e.is_choice:
            assert stored == e.answer, where
        else:
            assert math.isclose(float(stored), float(e.answer), rel_tol=1e-12), where
            assert box.locator(".embedlab-quiz-tolerance").inner_text() == e.tolerance_text
        feedback = box.locator(".embedlab-quiz-feedback")
        assert feedback.get_attribute("aria-live") == "polite" and feedback.get_attribute("role") == "status"
        show = box.locator(".embedlab-quiz-show")
        solution = box.locator(".embedlab-quiz-solution")
        assert not show.is_visible() and not solution.is_visible(), f"{where} answer offered before a try"
        if e.is_choice:
            assert submit(page, box) == {"status": "blank", "text": quiz.PICK_ONE}, where
            assert not show.is_visible()
            slips = {s.value: s.feedback for s in e.slips}
            for choice in e.choices or ():
                if choice == e.answer:
                    continue
                got = pick(page, box, choice)
                want = (
                    {"status": "slip", "text": slips[choice]}
                    if choice in slips
                    else {"status": "wrong", "text": e.wrong}
                )
                assert got == want, f"{where} {choice!r}"
            assert pick(page, box, str(e.answer)) == {"status": "right", "text": quiz.RIGHT}, where
        else:
            assert type_number(page, box, "") == {"status": "blank", "text": quiz.BLANK}, where
            assert type_number(page, box, "abc") == {"status": "nan", "text": quiz.NOT_A_NUMBER}, where
            assert not show.is_visible()
            for slip in e.slips:
                got = type_number(page, box, repr(float(slip.value)))
                assert got == {"status": "slip", "text": slip.feedback}, f"{where} slip {slip.value!r}"
            assert type_number(page, box, wrong_number(e)) == {"status": "wrong", "text": e.wrong}, where
            typed = stored if k % 2 else e.answer_text.replace(" bytes", "")  # raw and as shown (0.3460, 262,668,288)
            assert type_number(page, box, typed) == {"status": "right", "text": quiz.RIGHT}, f"{where} {typed!r}"
        assert show.is_visible() and not solution.is_visible(), f"{where} no Show answer after a try"
        show.focus()
        page.keyboard.press("Enter")
        assert solution.is_visible() and show.get_attribute("aria-expanded") == "true"
        assert e.answer_text in solution.inner_text(), where
    assert not watch.errors and not watch.blocked, (watch.errors, watch.blocked)


def test_page_grader_reads_numbers_as_python_does(watch: PageWatch) -> None:
    """Point one exercise's stored answer at each case's expected value and grade the typed text."""
    page = watch.open(SELF_CHECK)
    box = page.locator(".embedlab-exercise[data-kind=number]").first
    problems = []
    for text, expected in PARSE_CASES:
        target = 1.0 if expected is None else expected
        box.evaluate(
            "(b, a) => { b.dataset.answer = String(a); b.dataset.abs = '1e-12'; b.dataset.rel = '0';"
            " b.dataset.slips = '[]'; b.dataset.pct = '1'; }",
            target,
        )
        python = quiz.grade_number(text, target, abs_tol=1e-12)
        page_says = type_number(page, box, text)
        if page_says != {"status": python.status, "text": python.message}:
            problems.append(f"{text!r}: page {page_says}, python {python.status!r}")
        if expected is not None and python.status != "right":
            problems.append(f"{text!r}: python does not read it as {expected}")
    assert not problems, "\n".join(problems)


def test_page_grader_says_how_an_ambiguous_entry_was_read(watch: PageWatch) -> None:
    """ "1,946": the page gives the same status and the same words as Python (what it was read as)."""
    page = watch.open(SELF_CHECK)
    box = page.locator(".embedlab-exercise[data-kind=number]").first
    problems = []
    for text, answer, tol, slip, percent in [(*c, True) for c in AMBIGUOUS_CASES] + PERCENT_CASES:
        slips = [[slip, "A slip."]] if slip is not None else []
        box.evaluate(
            "(b, c) => { b.dataset.answer = String(c[0]); b.dataset.abs = String(c[1]); b.dataset.rel = '0';"
            " b.dataset.slips = JSON.stringify(c[2]); b.dataset.pct = c[3] ? '1' : '0'; }",
            [answer, tol, slips, percent],
        )
        python = quiz.grade_number(
            text, answer, abs_tol=tol, slips=[quiz.Slip(v, m) for v, m in slips], percent=percent
        )
        page_says = type_number(page, box, text)
        if page_says != {"status": python.status, "text": python.message}:
            problems.append(f"{text!r} against {answer}: page {page_says}, python {python}")
    assert not problems, "\n".join(problems)
    assert not watch.errors, watch.errors


def test_page_grader_compares_at_float64s_edges_as_python_does(watch: PageWatch) -> None:
    """Tolerances where the difference or the bound overflows: the page's verdict is Python's."""
    page = watch.open(SELF_CHECK)
    box = page.locator(".embedlab-exercise[data-kind=number]").first
    problems = []
    for text, answer, abs_tol, rel_tol in TOLERANCE_CASES:
        box.evaluate(
            "(b, c) => { b.dataset.answer = String(c[0]); b.dataset.abs = String(c[1]); b.dataset.rel = String(c[2]);"
            " b.dataset.slips = '[]'; b.dataset.pct = '1'; }",
            [answer, abs_tol, rel_tol],
        )
        python = quiz.grade_number(text, answer, abs_tol=abs_tol, rel_tol=rel_tol)
        page_says = type_number(page, box, text)
        if page_says != {"status": python.status, "text": python.message}:
            problems.append(
                f"{text!r} against {answer} (abs {abs_tol}, rel {rel_tol}): page {page_says}, python {python}"
            )
    assert not problems, "\n".join(problems)
    assert not watch.errors, watch.errors


def test_the_page_holds_every_exercise_and_no_script(site: Path) -> None:
    """The built page carries each exercise once, as embedlab makes it now, with valid JSON slips."""
    text = (site / SELF_CHECK).read_text(encoding="utf-8")
    assert text.count('class="embedlab-quiz embedlab-exercise"') == len(exercises.bank())
    for raw in re.findall(r'data-slips="([^"]*)"', text):
        assert isinstance(json.loads(html.unescape(raw)), list)
    for e in exercises.bank():  # exactly the HTML embedlab makes now (no script, no id: tests/test_quiz.py)
        assert e.to_html() in text, f"{e.title}: the built page differs from embedlab's exercise"


GRADE_IN_PAGE = """(args) => {
  const box = document.createElement('div');
  box.innerHTML = args.html;
  document.body.appendChild(box);
  const form = box.querySelector('form'), input = box.querySelector('input[type=text]');
  const feedback = box.querySelector('.embedlab-quiz-feedback');
  const out = args.texts.map((t) => { input.value = t; form.onsubmit.call(form);
    return [feedback.dataset.status, feedback.textContent]; });
  box.remove();
  return out;
}"""


@pytest.mark.parametrize("key", ["C2", "F1", "G1", "H2"])
def test_the_two_graders_agree_on_ten_thousand_random_entries(watch: PageWatch, key: str) -> None:
    """One rule written twice: the page's inline handler and grade_number give the same status and words."""
    page = watch.open(SELF_CHECK)
    e = exercises.get(key)
    texts = random_entries(10_000, seed=sum(map(ord, key)), around=float(e.answer))
    texts += ["1" * 64_000 + "x", " " * 100_000 + "1", "1,946", "\ufeff0.5", "0.5\x85", "\x1c1"]
    page_says = page.evaluate(GRADE_IN_PAGE, {"html": e.to_html(), "texts": texts})
    differ = []
    for text, (status, message) in zip(texts, page_says, strict=True):
        g = e.grade(text)
        if (status, message) != (g.status, g.message):
            differ.append(f"{text[:40]!r}: page {status} {message!r}, python {g.status} {g.message!r}")
    assert not differ, f"{len(differ)} of {len(texts)} differ:\n" + "\n".join(differ[:10])
    assert not watch.errors, watch.errors
