"""The self-check's exercise bank: coverage, and every answer checked against an independent oracle."""

from __future__ import annotations

import math

import numpy as np
import pytest

import embedlab as el
from embedlab import exercises
from embedlab.quiz import Exercise

BANK = exercises.bank()
KEYS = [e.title.split(" ")[0] for e in BANK]


def test_enough_exercises_covering_every_cell() -> None:
    assert len(BANK) >= 12
    assert {e.cell for e in BANK} == set("ABCDEFGH")
    assert len(set(KEYS)) == len(KEYS), f"exercise keys must be unique: {KEYS}"
    assert all(isinstance(e, Exercise) for e in BANK)


def test_at_least_five_aim_at_a_misconception() -> None:
    aimed = [e for e in BANK if e.misconception]
    assert len(aimed) >= 5
    # the six the issue names
    wanted = {"C1": "dog", "D1": "negative logit", "F1": "t = 0", "H1": "gradient", "G1": "Tying", "E1": "bias"}
    for key, phrase in wanted.items():
        assert phrase in (exercises.get(key).misconception or ""), key


def test_numbers_are_their_own() -> None:
    """No exercise reuses a worked example's context or GPT-2's sizes (find-the-slip is about C's draft)."""
    for e in BANK:
        if e.title.startswith(("C3", "C4")):
            continue
        text = e.question + e.solution
        assert "[0.5, 0.2, -0.3]" not in text and "50,257" not in text and "768" not in text, e.title


def test_every_slip_is_wrong_and_every_answer_right() -> None:
    for e in BANK:
        if e.is_choice:
            assert e.grade(str(e.answer)).right, e.title
        else:
            assert e.grade(repr(float(e.answer))).right, e.title
            assert e.grade(e.answer_text.replace(" bytes", "")).right, f"{e.title}: the shown answer must grade right"
        for slip in e.slips:
            g = e.grade(str(slip.value) if e.is_choice else repr(float(slip.value)))
            assert g.status == "slip" and g.message == slip.feedback, e.title


def test_get() -> None:
    assert exercises.get("G1") is exercises.get("G1")
    with pytest.raises(ValueError, match="no exercise 'Z9'"):
        exercises.get("Z9")


# -- each answer against an oracle that does not go through the same embedlab call ----------------


def softmax_by_hand(z: list[float]) -> list[float]:
    total = sum(math.exp(v) for v in z)
    return [math.exp(v) / total for v in z]


def test_answers_against_independent_oracles() -> None:
    E = el.E_TOY.tolist()
    get = exercises.get
    assert get("A1").answer == "the row of 'sea'"
    assert get("A2").answer == exercises.E5.tolist()[2][1]
    assert get("B1").answer == (32000 - 1) * 4096
    dog = E[1]
    logits = [sum(a * b for a, b in zip(dog, row, strict=True)) for row in E]
    assert get("C1").answer == el.TOKENS[logits.index(max(logits))] == "cat"
    h = [0.4, -0.1, 0.6]
    p = softmax_by_hand([sum(a * b for a, b in zip(h, row, strict=True)) for row in E])
    assert get("C2").answer == pytest.approx(max(p), rel=1e-12)
    truth = softmax_by_hand([sum(a * b for a, b in zip([0.5, 0.2, -0.3], row, strict=True)) for row in E])
    assert get("C4").answer == pytest.approx(truth[3] - 0.40, rel=1e-12)
    assert sum(exercises.DRAFT_C) == pytest.approx(0.95)
    assert get("D1").answer == pytest.approx(softmax_by_hand([-5, -6, -7])[0], rel=1e-12)
    assert get("D2").answer == "ran"
    assert get("E1").answer == pytest.approx(softmax_by_hand([0.5, 0.0, -0.5, 1.0])[3], rel=1e-12)
    assert get("F1").answer == pytest.approx(math.log(7), abs=1e-9)
    assert get("F2").answer == pytest.approx(math.exp(3) / (math.exp(3) + 7), rel=1e-12)
    assert get("G1").answer == 128_256 * 2_048
    assert get("G2").answer == 2 * 128_256 * 2_048
    assert get("H1").answer == "Input path: rows 1 and 4; output path: every row"


def test_repeated_id_gradient_against_finite_differences() -> None:
    """H2: the input-path gradient of row 4, by central differences of a loss linear in the looked-up rows."""
    ids = np.array([4, 1, 4])
    up = np.array([[2.04, -2.56], [0.42, -0.57], [-0.45, -0.22]])
    assert f"{up[0, 0]:.2f}" in exercises.get("H2").question

    def loss(E: np.ndarray) -> float:
        return float(np.sum(E[ids] * up))

    E = np.zeros((6, 2))
    step = 1e-6
    bump = np.zeros_like(E)
    bump[4, 0] = step
    fd = (loss(E + bump) - loss(E - bump)) / (2 * step)
    assert exercises.get("H2").answer == pytest.approx(fd, abs=1e-6)
