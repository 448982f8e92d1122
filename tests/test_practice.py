"""The learner's coding exercises: right answers pass, each classic wrong version fails with its own hint.

The solutions and wrong versions below are written here, the way a learner would write them (loops,
other idioms), not copied from the models embedlab.practice uses to recognise mistakes.
"""

from __future__ import annotations

import inspect
import math
import os
import threading
import warnings

import numpy as np
import pytest

from embedlab import practice

# -- right answers, written as a learner might -------------------------------------------------------------


def embed_rows(E, ids):
    out = []
    for i in ids:
        if not 0 <= i < len(E):
            raise ValueError(f"id {i} is not in [0, {len(E)})")
        out.append(E[i])
    return np.stack(out)


def one_hot_lookup(E, token_id):
    x = np.zeros(E.shape[0], dtype=E.dtype)
    x[token_id] = 1
    return x @ E


def batch_logits(H, E):
    return np.einsum("nd,vd->nv", H, E)


def stable_softmax(z):
    shifted = z - np.max(z, axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=-1, keepdims=True)


def angle_between(u, v):
    cos = np.dot(u / np.linalg.norm(u), v / np.linalg.norm(v))
    return float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))))


def probs_with_bias(h, E, b):
    return stable_softmax(E @ h + b)


def p_top(t, n):
    if t >= 0:
        return 1.0 / (1.0 + n * math.exp(-t))
    return math.exp(t) / (math.exp(t) + n)


def logit_gap(p, n):
    return math.log(n) + math.log(p) - math.log1p(-p)


def head_params(V, d, tied, bias):
    matrices = 1 if tied else 2
    return matrices * V * d + (V if bias else 0)


def tied_E_grad(ids, upstream, h, grad_logits, V):
    G = np.zeros((V, h.shape[1]))
    for n, i in enumerate(ids):
        G[i] += upstream[n]  # one row at a time: repeats add up
        G += np.outer(grad_logits[n], h[n])
    return G


def step_grad(E, ids, targets):
    n = len(ids)
    h = E[ids]
    g = stable_softmax(h @ E.T)
    g[np.arange(n), targets] -= 1.0
    g /= n
    G = g.T @ h
    np.add.at(G, ids, g @ E)
    return G


RIGHT = {
    "embed_rows": embed_rows,
    "one_hot_lookup": one_hot_lookup,
    "batch_logits": batch_logits,
    "stable_softmax": stable_softmax,
    "angle_between": angle_between,
    "probs_with_bias": probs_with_bias,
    "p_top": p_top,
    "logit_gap": logit_gap,
    "head_params": head_params,
    "tied_E_grad": tied_E_grad,
    "step_grad": step_grad,
}


# -- classic wrong versions: (task, the mistake it must be recognised as, the function) --------------------


def _loop_rows(E, ids, shift=0):
    return np.array([E[i + shift] for i in ids])


def _softmax_rows(z, shift):
    z = np.atleast_2d(z)
    out = np.array([np.exp(r - shift(r)) / np.exp(r - shift(r)).sum() for r in z])
    return out


WRONG = [
    ("embed_rows", "counted from 1", lambda E, ids: np.stack([E[i - 1] for i in ids])),
    ("embed_rows", "columns", lambda E, ids: np.stack([E[:, i] for i in ids])),
    ("embed_rows", "wraps negative ids", lambda E, ids: np.take(E, ids, axis=0, mode="wrap")),
    (
        "embed_rows",
        "float64 copy",
        lambda E, ids: np.array([[float(x) for x in E[i]] for i in ids]),
    ),
    ("one_hot_lookup", "counted from 1", lambda E, i: np.eye(E.shape[0], dtype=E.dtype)[i - 1] @ E),
    ("one_hot_lookup", "E @ one_hot", lambda E, i: np.matmul(E, np.eye(E.shape[1], dtype=E.dtype)[i])),
    ("one_hot_lookup", "float64 one-hot", lambda E, i: np.eye(E.shape[0])[i] @ E),
    ("batch_logits", "E @ H.T", lambda H, E: np.einsum("nd,vd->vn", H, E)),
    ("batch_logits", "H @ E", lambda H, E: np.dot(H, E)),
    ("batch_logits", "probabilities", lambda H, E: stable_softmax(H @ E.T)),
    ("stable_softmax", "no shift", lambda z: np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True)),
    ("stable_softmax", "minus min", lambda z: _softmax_rows(z, np.min).reshape(np.shape(z))),
    ("stable_softmax", "whole array", lambda z: np.exp(z - z.max()) / np.exp(z - z.max()).sum()),
    ("stable_softmax", "not normalised", lambda z: np.exp(z - np.max(z, axis=-1, keepdims=True))),
    ("angle_between", "radians", lambda u, v: math.acos(max(-1.0, min(1.0, angle_cos(u, v))))),
    ("angle_between", "no norms", lambda u, v: math.degrees(math.acos(max(-1.0, min(1.0, float(u @ v)))))),
    ("angle_between", "no clip", lambda u, v: np.degrees(np.arccos(np.dot(u, v) / np.sqrt(u @ u) / np.sqrt(v @ v)))),
    ("probs_with_bias", "bias forgotten", lambda h, E, b: stable_softmax(E @ h)),
    ("probs_with_bias", "bias after softmax", lambda h, E, b: (stable_softmax(E @ h) + b) / (1 + b.sum())),
    ("probs_with_bias", "bias subtracted", lambda h, E, b: stable_softmax(E @ h - b)),
    ("p_top", "overflow", lambda t, n: np.exp(np.float64(t)) / (np.exp(np.float64(t)) + n)),
    ("p_top", "one other", lambda t, n: p_top(t, 1)),
    ("p_top", "counted itself", lambda t, n: p_top(t, n + 1)),
    ("logit_gap", "one other", lambda p, n: math.log(p) - math.log(1 - p)),
    ("logit_gap", "log10", lambda p, n: math.log10(p * n / (1 - p))),
    ("logit_gap", "counted itself", lambda p, n: logit_gap(p, n + 1)),
    ("head_params", "tied counted twice", lambda V, d, tied, bias: head_params(V, d, False, bias)),
    ("head_params", "bias of d", lambda V, d, tied, bias: head_params(V, d, tied, False) + d * bias),
    ("head_params", "bias forgotten", lambda V, d, tied, bias: head_params(V, d, tied, False)),
    ("tied_E_grad", "head only", lambda ids, up, h, g, V: sum(np.outer(g[n], h[n]) for n in range(len(ids)))),
    ("tied_E_grad", "lookup only", lambda ids, up, h, g, V: tied_E_grad(ids, up, np.zeros_like(h), g, V)),
    ("tied_E_grad", "assigned, not added", lambda ids, up, h, g, V: _assigned(ids, up, h, g, V)),
    ("tied_E_grad", "transposed", lambda ids, up, h, g, V: np.einsum("nd,nv->dv", h, g)),
    ("step_grad", "head only", lambda E, ids, t: _step(E, ids, t, paths=("head",))),
    ("step_grad", "lookup only", lambda E, ids, t: _step(E, ids, t, paths=("lookup",))),
    ("step_grad", "summed, not averaged", lambda E, ids, t: len(ids) * step_grad(E, ids, t)),
    ("step_grad", "assigned, not added", lambda E, ids, t: _step(E, ids, t, assign=True)),
]


def angle_cos(u, v):
    return float(u @ v) / (math.hypot(*u) * math.hypot(*v))


def _assigned(ids, up, h, g, V):
    G = g.T @ h
    G[ids] = G[ids] + up  # fancy-index assignment: a repeated id keeps only its last row
    return G


def _step(E, ids, targets, paths=("head", "lookup"), assign=False):
    n = len(ids)
    h = E[ids]
    g = stable_softmax(h @ E.T)
    g[np.arange(n), targets] -= 1.0
    g /= n
    G = np.zeros_like(E)
    if "head" in paths:
        G += g.T @ h
    if "lookup" in paths:
        if assign:
            G[ids] += g @ E
        else:
            np.add.at(G, ids, g @ E)
    return G


def test_every_task_has_a_right_version_and_three_wrong_ones():
    assert set(RIGHT) == set(practice.TASKS)
    assert len(practice.TASKS) >= 10
    for name in practice.TASKS:
        assert sum(task == name for task, _, _ in WRONG) >= 3, name
    examples = {practice.task(name).example for name in practice.TASKS}
    assert examples == set("ABCDEFGHI")


@pytest.mark.parametrize("name", practice.TASKS)
def test_a_right_version_passes_every_case(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = practice.check(RIGHT[name])
    assert report.passed, str(report)
    assert str(report) == f"{name}: all {len(practice.task(name).cases())} cases pass."


@pytest.mark.parametrize(("name", "mistake", "fn"), WRONG, ids=[f"{t}-{m}" for t, m, _ in WRONG])
def test_each_classic_mistake_fails_with_its_own_hint(name, mistake, fn):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the learner's warnings are caught and reported, never leaked
        report = practice.check(fn, name)
    assert not report.passed and report.started
    assert report.mistake == mistake, str(report)
    hints = {m.hint for m in practice.task(name)._mistakes}
    assert report.hint in hints
    text = str(report)
    assert f"case {report.case} of" in text and report.hint in " ".join(text.split())  # wrapped at WIDTH
    assert all(len(line) <= practice.WIDTH for line in text.splitlines()), text
    assert "expected:" in text and "got:" in text


def test_hints_differ_between_the_mistakes_of_a_task():
    for name in practice.TASKS:
        got = [practice.check(fn, name).hint for task, _, fn in WRONG if task == name]
        assert len(set(got)) == len(got), name


def test_a_stub_is_not_tried_yet():
    def embed_rows(E, ids):
        """Write me."""

    report = practice.check(embed_rows)
    assert not report.passed and not report.started
    assert "not tried yet" in str(report)


def test_a_missing_return_after_the_first_case_says_so():
    def embed_rows(E, ids):
        if ids == [2]:
            return E[[2]]

    report = practice.check(embed_rows)
    assert report.case == 2 and report.hint.startswith("It returned None")


def test_an_exception_is_reported_not_raised():
    def stable_softmax(z):
        return {}["no such key"]

    report = practice.check(stable_softmax)
    assert report.case == 1 and report.got.startswith("KeyError")
    assert report.problem == "it raised KeyError"


def test_a_changed_input_is_caught_even_when_the_values_are_right():
    def stable_softmax(z):
        z -= z.max(axis=-1, keepdims=True)
        np.exp(z, out=z)
        z /= z.sum(axis=-1, keepdims=True)
        return z

    report = practice.check(stable_softmax)
    assert report.case == 1 and "changed z in place" in report.hint
    assert report.mistake is None


def test_a_refused_id_must_be_a_value_or_index_error():
    def embed_rows(E, ids):
        if min(ids) < 0:
            raise RuntimeError("negative")
        return E[ids]

    report = practice.check(embed_rows)
    assert report.label == "id -1 after a good id" and "RuntimeError" in report.problem


def test_the_traps_of_the_issue_are_among_the_cases():
    labels = {name: " | ".join(c.label for c in practice.task(name).cases()) for name in practice.TASKS}
    assert "ids 0 and V - 1" in labels["embed_rows"] and "id -1" in labels["embed_rows"]
    assert "id 0" in labels["one_hot_lookup"] and "id V - 1" in labels["one_hot_lookup"]
    assert "+1000" in labels["stable_softmax"] and "-1000" in labels["stable_softmax"]
    assert "repeated" in labels["tied_E_grad"] and "repeated" in labels["step_grad"]
    assert "square E" in labels["batch_logits"]
    cases = practice.task("stable_softmax").cases()
    assert any(np.max(np.abs(c.args[0])) >= 1000 for c in cases)
    assert any(c.args[0].dtype == np.float32 for c in practice.task("embed_rows").cases())


def test_the_expected_values_are_embedlabs_own():
    """Spot checks against numbers worked out by hand, independent of the references."""
    t = practice.task("p_top")
    assert t._expected(t.cases()[0]) == pytest.approx(0.25)
    g = practice.task("logit_gap")
    assert g._expected(g.cases()[1]) == pytest.approx(math.log(3), abs=1e-9)  # P0 = 1/2: t = ln 3
    h = practice.task("head_params")
    assert [h._expected(c) for c in h.cases()[:2]] == [24, 12]
    a = practice.task("angle_between")
    assert a._expected(a.cases()[0]) == pytest.approx(90.0)


def test_the_check_runs_the_function_here_only():
    seen = []

    def head_params(V, d, tied, bias):
        seen.append((os.getpid(), threading.get_ident()))
        return (1 if tied else 2) * V * d + (V if bias else 0)

    assert practice.check(head_params).passed
    assert seen and set(seen) == {(os.getpid(), threading.get_ident())}


def test_the_report_never_shows_the_reference_code():
    """No line of a task's reference (embedlab's own function, or the practice wrapper around it) is shown."""
    source_lines = {
        line.strip()
        for name in practice.TASKS
        for line in inspect.getsource(practice.task(name)._reference).splitlines()
        if len(line.strip()) > 12 and not line.strip().startswith(("#", '"', "def ", ">>>", "..."))
    }
    assert len(source_lines) > 50
    for name, _, fn in WRONG:
        text = str(practice.check(fn, name))
        assert not any(line in text for line in source_lines), text


def test_the_descriptions_list_every_case_and_are_stable():
    for name in practice.TASKS:
        t = practice.task(name)
        text = t.describe()
        assert text == t.describe()
        assert text.startswith(t.signature)
        listed = t._cases()
        assert all(f"  {n}. {c.label}:" in text for n, c in enumerate(listed, 1))
        assert f"then {practice.N_RANDOM} random cases" in text
        assert len(t.cases()) == len(listed) + practice.N_RANDOM


@pytest.mark.parametrize("name", practice.TASKS)
def test_an_answer_fitted_to_the_listed_cases_fails_on_a_random_one(name):
    """A function that only knows the listed cases' answers (a lookup table) does not pass."""
    t = practice.task(name)
    table = [(c.args, t._expected(c)) for c in t._cases() if not c.raises]
    refused = [c.args for c in t._cases() if c.raises]

    def fitted(*args):
        if any(all(_same_arg(a, b) for a, b in zip(known, args, strict=True)) for known in refused):
            raise ValueError("a listed id it knows to refuse")
        for known, answer in table:
            if all(_same_arg(a, b) for a, b in zip(known, args, strict=True)):
                return answer
        return table[0][1]  # anything else: the first answer it knows

    report = practice.check(fitted, name)
    assert not report.passed and report.label.startswith("random case"), str(report)


def _same_arg(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.shape(a) == np.shape(b) and np.array_equal(a, b)
    return a == b


def test_changing_the_cases_given_out_changes_nothing():
    t = practice.task("embed_rows")
    cases = t.cases()
    cases[1].args[0][:] = 99.0
    assert not np.any(t.cases()[1].args[0] == 99.0)


def test_bad_arguments_are_refused_by_name():
    with pytest.raises(TypeError, match="fn must be your function"):
        practice.check(5)
    with pytest.raises(ValueError, match="fn must be named after its exercise"):
        practice.check(lambda E, ids: E[ids])
    with pytest.raises(ValueError, match="name must be one of"):
        practice.check(embed_rows, "embed")
    with pytest.raises(TypeError, match="name must be"):
        practice.task(3)
    with pytest.raises(TypeError, match="fn must be"):
        practice.task("embed_rows").check(None)


def test_a_missing_return_on_the_first_case_is_not_called_a_stub():
    def tied_E_grad(ids, upstream, h, grad_logits, V):
        G = grad_logits.T @ h
        return np.add.at(G, ids, upstream)  # np.add.at works in place and returns None

    report = practice.check(tied_E_grad)
    assert report.started and report.case == 1
    assert report.hint.startswith("It returned None") and "np.add.at" in report.hint


def test_a_right_value_that_warns_is_not_blamed_on_a_wrong_value_mistake():
    def p_top(t, n):
        return float(np.where(t >= 0, 1 / (1 + n * np.exp(-t)), np.exp(t) / (np.exp(t) + n)))

    report = practice.check(p_top)
    assert report.problem.startswith("it warned") and report.mistake is None
    assert report.hint.startswith("The values are right, but a step warned")


def test_a_float_count_is_told_to_be_an_int():
    def head_params(V, d, tied, bias):
        return float((1 if tied else 2) * V * d + (V if bias else 0))

    report = practice.check(head_params)
    assert report.mistake is None and report.problem.startswith("a count is a whole number")
    assert report.hint.startswith("Look at the type and shape")


def test_a_shape_slip_gets_a_hint_about_the_shape():
    def embed_rows(E, ids):
        return E[ids].squeeze()

    report = practice.check(embed_rows)
    assert report.case == 1 and report.mistake is None and "shape (3,), expected (1, 3)" in report.hint


@pytest.mark.parametrize(
    "angle_between",
    [
        lambda u, v: float(np.degrees(np.arccos((u / np.linalg.norm(u)) @ (v / np.linalg.norm(v))))),
        lambda u, v: float(np.degrees(np.arccos(u @ v / np.sqrt((u @ u) * (v @ v))))),
        lambda u, v: float(np.degrees(np.arccos(np.dot(u, v) / np.linalg.norm(u) / np.linalg.norm(v)))),
        lambda u, v: math.degrees(math.acos(float(u @ v) / (math.hypot(*u) * math.hypot(*v)))),
        lambda u, v: float(np.degrees(np.arccos(np.einsum("i,i", u, v) / (np.linalg.norm(u) * np.linalg.norm(v))))),
        lambda u, v: math.degrees(
            math.acos(math.fsum(a * b for a, b in zip(u, v, strict=True)) / (math.dist(u, 0 * u) * math.dist(v, 0 * v)))
        ),
        lambda u, v: math.degrees(
            math.acos(
                sum(a * b for a, b in zip(u, v, strict=True)) / math.sqrt(sum(a * a for a in u) * sum(b * b for b in v))
            )
        ),
    ],
)
def test_every_common_unclipped_angle_fails_on_parallel_vectors(angle_between):
    report = practice.check(angle_between, "angle_between")
    assert not report.passed and report.label in {"a vector and five times itself", "opposite vectors"}
    assert any(w in report.problem for w in ("NaN", "nan", "warned", "raised ValueError"))


def test_the_logit_gap_reference_agrees_with_bisection_on_embedlabs_probability():
    t = practice.task("logit_gap")
    for case in t.cases():
        p, n = case.args
        if not 1e-12 < p < 0.99:
            continue  # a search on P0 itself cannot resolve t where P0 is this close to 0 or 1
        lo, hi = -60.0, math.log(n) + 60.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if embedlab_saturation(mid, n) < p else (lo, mid)
        assert t._expected(case) == pytest.approx((lo + hi) / 2, abs=1e-9)


def embedlab_saturation(t, n):
    from embedlab import saturation_prob

    return saturation_prob(t, n)


def test_a_learners_own_error_is_not_blamed_on_a_numpy_shape_mistake():
    def batch_logits(H, E):
        if len(H) == 1:
            raise ValueError("only one context please")
        return H @ E.T

    report = practice.check(batch_logits)
    assert report.case == 1 and report.mistake is None
    assert report.hint.startswith("Your function raised ValueError: its message is above.")


def test_tiny_probabilities_are_not_blamed_on_counting_the_top_token():
    def p_top(t, n):
        p = 1 / (1 + n * math.exp(-t)) if t >= 0 else math.exp(t) / (math.exp(t) + n)
        return 0.0 if p < 1e-12 else p

    report = practice.check(p_top)
    assert not report.passed and report.mistake is None


def test_the_sigmoid_form_of_p_top_passes():
    def p_top(t, n):
        return 0.5 * (1 + math.tanh((t - math.log(n)) / 2))

    assert practice.check(p_top).passed


def test_a_numpy_integer_count_is_still_recognised_as_a_mistake():
    def head_params(V, d, tied, bias):
        return np.int64((1 if tied else 2) * V * d)  # the bias forgotten

    report = practice.check(head_params)
    assert report.mistake == "bias forgotten"


def test_float32_arithmetic_is_told_to_use_float64():
    def p_top(t, n):
        t = np.float32(t)
        return np.float32(1) / (np.float32(1) + np.float32(n) * np.exp(-t)) if t >= 0 else np.exp(t) / (np.exp(t) + n)

    report = practice.check(p_top)
    assert "float32" in report.problem and report.hint.startswith("Compute in float64")


def test_a_warning_hint_says_whether_the_values_were_right():
    def stable_softmax(z):
        e = np.exp(z - z.max())  # one maximum for the whole batch
        return e / e.sum(axis=-1, keepdims=True)

    report = practice.check(stable_softmax)
    assert "values are right" not in report.hint


def test_a_dropped_sign_is_named():
    def angle_between(u, v):
        cos = abs(u @ v) / (np.linalg.norm(u) * np.linalg.norm(v))
        return float(np.degrees(np.arccos(min(cos, 1.0))))

    assert practice.check(angle_between).mistake == "sign dropped"


def test_a_mistake_is_named_only_where_it_explains_more_than_one_case():
    """Rounding cos to 12 places fails a nearly parallel pair with 0 degrees, which is also what leaving out
    the norms gives there: one coincidence, not that mistake (on the other cases the norms were divided out)."""

    def rounded(u, v):
        cos = (u @ v) / (np.linalg.norm(u) * np.linalg.norm(v))
        return float(np.degrees(np.arccos(round(float(cos), 12))))

    def no_norms(u, v):
        return float(np.degrees(np.arccos(np.clip(u @ v, -1.0, 1.0))))

    coincidence = practice.check(rounded, name="angle_between")
    assert not coincidence.passed and coincidence.got.strip() == "0.0"
    assert coincidence.mistake is None and "norm" not in coincidence.hint
    assert practice.check(no_norms, name="angle_between").mistake is not None  # the real mistake is still named


def test_a_random_case_says_where_its_arguments_are():
    def step_grad(E, ids, targets):
        if E.shape not in {(4, 3), (7, 3), (5, 2)}:  # only the listed cases' shapes are right
            return np.zeros_like(E)
        n = len(ids)
        h = E[ids]
        g = np.exp(h @ E.T - (h @ E.T).max(axis=1, keepdims=True))
        g /= g.sum(axis=1, keepdims=True)
        g[np.arange(n), targets] -= 1
        g /= n
        G = g.T @ h
        np.add.at(G, ids, g @ E)
        return G

    report = practice.check(step_grad)
    assert report.label.startswith("random case")
    k = report.case - 1
    assert f"practice.task('step_grad').cases()[{k}].args" in str(report)
    assert practice.task("step_grad").cases()[k].args[0].shape not in {(4, 3), (7, 3), (5, 2)}


def test_answers_right_only_far_from_zero_fail_near_it():
    def p_top(t, n):
        return 1 / (1 + n * math.exp(-t)) if t >= 0 else math.exp(t - math.log(n))  # e^t / n, not e^t / (e^t + n)

    report = practice.check(p_top)
    assert not report.passed and report.label in {"t = -12 and one other", "t = -1 and three others"}


@pytest.mark.parametrize("shift", [np.mean, np.median])
def test_a_mean_or_median_shift_is_named(shift):
    def stable_softmax(z):
        e = np.exp(z - shift(z, axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    report = practice.check(stable_softmax)
    assert report.mistake in {"mean shift", "median shift"} and "a mean or a median" in report.hint


def test_a_rounded_answer_is_told_it_is_close():
    def angle_between(u, v):
        cos = np.clip(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)), -1, 1)
        return round(float(np.degrees(np.arccos(cos))), 4)

    report = practice.check(angle_between)
    assert report.hint.startswith("Close, but outside the tolerance")


def test_a_list_answer_is_shown_as_a_list():
    def embed_rows(E, ids):
        return (E[ids] + 1).tolist()

    assert practice.check(embed_rows).got.startswith("a list, as an array")


def test_a_nan_turned_into_zero_is_told_to_clip():
    def angle_between(u, v):
        c = float(u @ v) / (math.hypot(*u) * math.hypot(*v))
        try:
            return math.degrees(math.acos(c))
        except ValueError:
            return 0.0

    report = practice.check(angle_between)
    assert report.mistake == "NaN made 0" and "clip cos θ to [-1, 1]" in report.hint
