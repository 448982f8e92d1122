"""The self-check's exercise bank: coverage, and every answer checked against an independent oracle."""

from __future__ import annotations

import math
import re

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
    wanted = {
        "C1": "token j must win",
        "D1": "negative logit",
        "F1": "t = 0",
        "H1": "gradient",
        "G1": "Tying",
        "E1": "bias",
    }
    for key, phrase in wanted.items():
        assert phrase in (exercises.get(key).misconception or ""), key


def test_numbers_are_their_own() -> None:
    """No exercise (and not the warm-up) reuses a worked example's vectors or sizes; C3 and C4 are about C's draft."""
    toy_rows = [f"[{', '.join(f'{x:.1f}' for x in row)}]" for row in el.E_TOY]
    toy_names = [f"e_{t}" for t in el.TOKENS] + ["toy E", "cat, dog, the, ran"]
    real_sizes = {f"{m[k]:,}" for m in el.REAL_MODELS for k in ("vocab_size", "d_model")} | {"50,257", "768"}
    real_names = {m["name"].split(" ")[0] for m in el.REAL_MODELS}
    for e in [*BANK, exercises.warmup()]:
        if e.title.startswith(("C3", "C4")):
            continue
        text = e.question + getattr(e, "solution", "") + " ".join(e.choices or ())
        assert "[0.5, 0.2, -0.3]" not in text, e.title
        for shown in [*toy_rows, *toy_names]:
            assert shown not in text, f"{e.title} uses the toy E: {shown}"
        for size in real_sizes:
            assert not re.search(rf"(?<![\d,.]){re.escape(size)}(?![\d,])", text), f"{e.title} uses the size {size}"
        for name in real_names - {"GPT-2"}:  # A3 reads GPT-2's tokenizer, not a size
            assert name not in text, f"{e.title} names {name}"
    assert exercises.B_SIZE not in {(m["vocab_size"], m["d_model"]) for m in el.REAL_MODELS}
    assert exercises.G_SIZE not in {(m["vocab_size"], m["d_model"]) for m in el.REAL_MODELS}


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


def test_tolerance_excludes_the_draft_s_bias_mistake() -> None:
    """G1/G2: the saving computed with the draft's Vd + V tied side is named and graded as a slip, not right."""
    V, d = exercises.G_SIZE
    for key, wrong in (("G1", V * d - V), ("G2", 4 * (V * d - V))):
        e = exercises.get(key)
        for typed in (str(wrong), f"{wrong:,}"):
            g = e.grade(typed)
            assert g.status == "slip" and "bias" in g.message, (key, typed, g)


def decimal_comma_spellings(x: float) -> list[str]:
    """The answer written with a decimal comma at 1 to 4 places ("1,946" is ambiguous: thousands or decimals)."""
    return [f"{x:.{k}f}".replace(".", ",") for k in range(1, 5)]


def test_an_answer_with_a_decimal_comma_is_never_graded_wrong_in_silence() -> None:
    """Every numeric exercise: a right answer typed with a decimal comma is right, or says how it was read."""
    checked = 0
    for e in BANK:
        if e.is_choice:
            continue
        tol = max(e.abs_tol, e.rel_tol * abs(float(e.answer)))
        for typed in decimal_comma_spellings(float(e.answer)):
            if abs(float(typed.replace(",", ".")) - float(e.answer)) > tol:
                continue  # too few places to be right anyway
            g = e.grade(typed)
            checked += 1
            assert g.right or "Read as" in g.message, (e.title, typed, g)
            if g.right and "," in typed and len(typed.split(",")[1]) == 3 and 1 <= abs(float(e.answer)) < 1000:
                assert "Read as" in g.message and typed.replace(",", ".") in g.message, (e.title, typed, g)
    assert checked >= 10
    f1 = exercises.get("F1").grade("1,946")  # ln 7 with a decimal comma: the reading the page promises
    assert f1.right and "1.946" in f1.message


def test_get() -> None:
    assert exercises.get("G1") is exercises.get("G1")
    with pytest.raises(ValueError, match=r"key must be one of \[.*\], got 'Z9'"):
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
    assert get("B1").answer == (60_000 - 1) * 1_000
    E5 = exercises.E5.tolist()
    sun = E5[0]
    logits = [sum(a * b for a, b in zip(sun, row, strict=True)) for row in E5]
    assert get("C1").answer == exercises.VOCAB5[logits.index(max(logits))] == "sky"
    h = [0.6, -0.3]
    p = softmax_by_hand([sum(a * b for a, b in zip(h, row, strict=True)) for row in E5])
    assert get("C2").answer == pytest.approx(max(p), rel=1e-12)
    truth = softmax_by_hand([sum(a * b for a, b in zip([0.5, 0.2, -0.3], row, strict=True)) for row in E])
    assert get("C4").answer == pytest.approx(truth[3] - 0.40, rel=1e-12)
    assert sum(exercises.DRAFT_C) == pytest.approx(0.95)
    assert get("D1").answer == pytest.approx(softmax_by_hand([-2, -3, -6])[0], rel=1e-12)
    assert get("D2").answer == "star"  # -h = [0.2, -0.5]: star 0.10 + 0.05 = 0.15 is the largest
    assert get("E1").answer == pytest.approx(softmax_by_hand([0.5, 0.0, -0.5, 1.0, 0.2])[3], rel=1e-12)
    assert get("F1").answer == pytest.approx(math.log(7), abs=1e-9)
    assert get("F2").answer == pytest.approx(math.exp(3) / (math.exp(3) + 7), rel=1e-12)
    assert get("G1").answer == 40_000 * 1_536
    assert get("G2").answer == 4 * 40_000 * 1_536
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


def test_warmup_rows_part_by_the_learning_rate_times_h():
    """Two equal rows, one the target: the output path moves them by lr (p - y) h, so they part by lr |h|,
    read from the forecast's own question (p is the same for both and cancels)."""
    warmup = exercises.warmup()
    lr = float(re.search(r"learning rate ([\d.]+)", warmup.question).group(1))
    h = [float(x.replace("−", "-")) for x in re.search(r"h = \[([^\]]*)\]", warmup.question).group(1).split(",")]
    apart = lr * math.sqrt(sum(x * x for x in h))
    assert abs(apart - lr) > 0.05  # h is not of unit length, so the learning rate alone is no answer
    assert warmup.grade(f"{apart:.2f}").status == "right" and warmup.grade(f"{lr:.2f}").status != "right"
