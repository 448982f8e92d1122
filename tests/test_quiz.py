"""Grading of forecasts and exercises (embedlab.quiz): parsing, tolerances, slips, both views' texts."""

from __future__ import annotations

import html
import re
from fractions import Fraction

import pytest

from embedlab import quiz
from embedlab.quiz import Exercise, Forecast, Slip, grade_choice, grade_number, parse_number
from tests.quiz_cases import AMBIGUOUS_CASES, PARSE_CASES, PERCENT_CASES, TOLERANCE_CASES


@pytest.mark.parametrize(("text", "expected"), PARSE_CASES)
def test_parse_number(text: str, expected: float | None) -> None:
    got = parse_number(text)
    if expected is None:
        assert got is None
    else:
        assert got == pytest.approx(expected, rel=1e-15)


def test_parse_number_rejects_non_text() -> None:
    with pytest.raises(TypeError, match="text must be a str, got float"):
        parse_number(0.42)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["0.42", ".42", "42%", "4.2e-1", "0,42", "0.424", "0.416"])
def test_the_same_answer_in_every_spelling_is_right(text: str) -> None:
    assert grade_number(text, 0.42, abs_tol=0.005).status == "right"


def test_tolerance_is_inclusive_and_no_wider() -> None:
    assert grade_number("0.425", 0.42, abs_tol=0.005).right
    assert grade_number("0.415", 0.42, abs_tol=0.005).right
    assert grade_number("0.426", 0.42, abs_tol=0.005).status == "wrong"
    assert grade_number("0.414", 0.42, abs_tol=0.005).status == "wrong"


def test_relative_tolerance_for_large_counts() -> None:
    answer = 262_668_288
    assert grade_number("262,668,288", answer, abs_tol=0.5, rel_tol=0.001).right
    assert grade_number("262.7e6", answer, abs_tol=0.5, rel_tol=0.001).right
    assert not grade_number("263,000,000", answer, abs_tol=0.5, rel_tol=0.001).right  # 0.13 % off
    assert not grade_number("262,668,289", answer, abs_tol=0.5).right  # exact count: one off is wrong


def test_blank_and_unreadable_get_a_prompt_not_an_error() -> None:
    for text in ("", "  "):
        g = grade_number(text, 0.42, abs_tol=0.005)
        assert (g.status, g.message) == ("blank", quiz.BLANK) and not g.answered
    g = grade_number("abc", 0.42, abs_tol=0.005)
    assert (g.status, g.message) == ("nan", quiz.NOT_A_NUMBER) and not g.answered


def test_a_slip_gets_its_own_feedback_and_other_wrong_answers_the_hint() -> None:
    slips = [Slip(0.95, "That is the sum of the draft.")]
    slip = quiz.Grade("slip", "That is the sum of the draft.")
    assert grade_number("0.95", 0.0233, abs_tol=0.002, slips=slips) == slip
    assert grade_number("0.3", 0.0233, abs_tol=0.002, slips=slips) == quiz.Grade("wrong", quiz.WRONG_NUMBER)


def test_feedback_never_gives_the_answer_away() -> None:
    e = Exercise("What is P?", 0.6652, abs_tol=0.005, slips=[Slip(0.0067, "Divide by the sum.")], solution="s")
    for text in ("0.0067", "0.1", "", "abc"):
        assert "0.665" not in e.grade(text).message
    assert "0.665" not in re.sub(r"<[^>]+>", "", e.to_html().split('class="embedlab-quiz-solution"')[0])


def test_grade_choice() -> None:
    slips = [Slip("dog", "Compare dot products, not angles.")]
    assert grade_choice("cat", "cat", slips=slips).right
    assert grade_choice("dog", "cat", slips=slips).message == "Compare dot products, not angles."
    assert grade_choice("the", "cat", slips=slips).status == "wrong"
    assert grade_choice(None, "cat").status == "blank"


def test_questions_refuse_what_cannot_be_graded() -> None:
    with pytest.raises(ValueError, match="stated tolerance"):
        Exercise("q", 0.5, solution="s")
    with pytest.raises(ValueError, match="answer must be one of the choices"):
        Exercise("q", "x", choices=["a", "b"], solution="s")
    with pytest.raises(ValueError, match="within the tolerance"):
        Exercise("q", 0.5, abs_tol=0.01, slips=[Slip(0.505, "no")], solution="s")
    with pytest.raises(ValueError, match="answer must be a finite number"):
        Exercise("q", float("nan"), abs_tol=0.1, solution="s")
    # what the page's grader would read differently from Python's is refused up front
    with pytest.raises(ValueError, match="rel_tol must be a finite number"):
        Exercise("q", 1.0, abs_tol=0.1, rel_tol=float("nan"), solution="s")
    with pytest.raises(ValueError, match="abs_tol must be a finite number"):
        Exercise("q", 1.0, abs_tol=float("inf"), solution="s")
    with pytest.raises(ValueError, match="a slip's value must be a finite number"):
        Exercise("q", 1.0, abs_tol=0.1, slips=[Slip(float("nan"), "n")], solution="s")
    with pytest.raises(TypeError, match="a slip's value must be a finite number, got '1_000'"):
        Exercise("q", 1.0, abs_tol=0.1, slips=[Slip("1_000", "n")], solution="s")
    with pytest.raises(ValueError, match="answer must be a finite number of float size"):
        Exercise("q", 10**400, abs_tol=0.1, solution="s")
    with pytest.raises(ValueError, match="trap"):
        Forecast("q", "a", choices=["a", "b"], trap=" ", settles="Step 1")


def forecast() -> Forecast:
    return Forecast(
        "Which token wins?",
        "cat",
        choices=["cat", "dog"],
        slips=[Slip("dog", "Length matters too.")],
        trap="Most people pick dog: it points along h.",
        settles="Step 2 computes the logits.",
    )


def test_static_html_is_kernel_free_and_deterministic() -> None:
    f = forecast()
    text = f.to_html()
    assert text == forecast().to_html()
    assert "<script" not in text and " id=" not in text and "http" not in text
    assert 'aria-live="polite"' in text and 'role="group"' in text
    # hidden until answered, also where the attribute is dropped (JupyterLab's sanitizer, for an untrusted output)
    assert '<div class="embedlab-quiz-reveal" hidden style="display:none">' in text
    assert "onsubmit=" in text
    # what the learner can read before answering holds neither the answer nor the trap
    reveal = r"<div class=\"embedlab-quiz-reveal\" hidden style=\"display:none\">.*?</div>"
    visible = re.sub(reveal, "", text, flags=re.S)
    assert "Length matters" not in html.unescape(re.sub(r'data-[a-z]+="[^"]*"', "", visible))
    assert "Most people pick dog" not in visible


def test_mimebundle_has_html_and_plain_text() -> None:
    bundle = forecast()._repr_mimebundle_()
    assert bundle["text/plain"] == "Forecast: Which token wins? (choose one of cat, dog)"
    assert bundle["text/html"].startswith('<div class="embedlab-quiz embedlab-forecast"')


def test_live_forecast_reveals_only_after_an_answer() -> None:
    pytest.importorskip("ipywidgets")
    f = forecast()
    f.widget()
    assert f._reveal.layout.display == "none"
    assert f.check().status == "blank"  # nothing picked: still hidden
    assert f._reveal.layout.display == "none"
    f._control.value = "dog"
    g = f.check()
    assert g.status == "slip" and f._reveal.layout.display != "none"
    assert "Most people pick dog" in f._reveal.value and "The answer is cat." in f._reveal.value
    assert 'data-status="slip"' in f._feedback.value and "Length matters too." in f._feedback.value


def test_live_exercise_offers_the_answer_only_after_a_try() -> None:
    pytest.importorskip("ipywidgets")
    e = Exercise("P?", 0.6652, abs_tol=0.005, fmt="{:.4f}", solution="Softmax of the logits.", percent=True)
    e.widget()
    assert e._show.layout.display == "none"
    e._control.value = "abc"
    assert e._show.layout.display == "none"
    e._control.value = "66.5%"  # Enter in the text box grades it
    assert 'data-status="right"' in e._feedback.value
    assert e._show.layout.display != "none" and e._solution.value == ""
    e._show.click()
    assert "0.6652" in e._solution.value and e._solution.layout.display != "none"


@pytest.mark.parametrize(("text", "answer", "tol", "slip"), AMBIGUOUS_CASES)
def test_an_ambiguous_entry_says_how_it_was_read(text: str, answer: float, tol: float, slip: float | None) -> None:
    slips = [quiz.Slip(slip, "A slip.")] if slip is not None else []
    g = quiz.grade_number(text, answer, abs_tol=tol, slips=slips)
    digits = text.replace(" ", "")
    ambiguous = quiz.ambiguous_readings(text) is not None
    assert ambiguous == (
        digits.lstrip("-").split(",")[0] not in ("0",)
        and len(digits.split(",")) == 2
        and len(re.split("[eE]", digits.split(",")[1].rstrip("%"))[0]) == 3  # three digits, before any exponent
    )
    if not ambiguous:
        assert "Read as" not in g.message
        return
    as_thousands, as_decimal = digits.replace(",", ""), digits.replace(",", ".")
    scale = 100 if "%" in text else 1
    k, dec = float(as_thousands.rstrip("%")) / scale, float(as_decimal.rstrip("%")) / scale
    by_thousands = f"(Read as {as_thousands}, the comma separating thousands; for {as_decimal}, type {as_decimal}.)"
    by_decimal = f"(Read as {as_decimal}, with a decimal comma.)"
    if abs(k - answer) <= tol:
        want = ("right", by_thousands)
    elif abs(dec - answer) <= tol:
        want = ("right", by_decimal)
    elif slip is not None and abs(k - slip) <= tol:
        want = ("slip", by_thousands)
    elif slip is not None and abs(dec - slip) <= tol:
        want = ("slip", by_decimal)
    else:
        want = ("wrong", by_thousands)
    assert g.status == want[0] and g.message.endswith(" " + want[1]), (g, want)


@pytest.mark.parametrize(("text", "answer", "tol", "slip", "percent"), PERCENT_CASES)
def test_a_percentage_is_read_only_where_the_question_allows_it(text, answer, tol, slip, percent):
    slips = [quiz.Slip(slip, "A slip.")] if slip is not None else []
    g = quiz.grade_number(text, answer, abs_tol=tol, slips=slips, percent=percent)
    if percent:
        assert g.status == "right", g
    elif slip is not None:
        assert (g.status, g.message) == ("slip", "A slip.")
    else:
        assert (g.status, g.message) == ("nan", quiz.NO_PERCENT)


def test_grade_number_refuses_what_it_cannot_read_alike_on_the_page():
    with pytest.raises(TypeError, match="percent must be True or False"):
        quiz.grade_number("42%", 0.42, abs_tol=0.01, percent="no")
    with pytest.raises(ValueError, match="abs_tol must be a finite number"):
        quiz.grade_number("1", 1.0, abs_tol=float("nan"))
    with pytest.raises(TypeError, match="slips must hold Slip"):
        quiz.grade_number("1", 1.0, abs_tol=0.1, slips=[(0.5, "x")])


@pytest.mark.parametrize(("typed", "answer", "abs_tol", "rel_tol"), TOLERANCE_CASES)
def test_tolerance_at_float64s_edges_is_the_exact_comparison(typed, answer, abs_tol, rel_tol):
    """Where the difference or the bound overflows, the grader still compares as exact arithmetic does."""
    x = float(typed)
    bound = max(Fraction(abs_tol), Fraction(rel_tol) * abs(Fraction(answer))) * (1 + Fraction(1, 10**9))
    exact = abs(Fraction(x) - Fraction(answer)) <= bound
    assert quiz.within(x, answer, abs_tol, rel_tol) is exact
    assert grade_number(typed, answer, abs_tol=abs_tol, rel_tol=rel_tol).status == ("right" if exact else "wrong")
