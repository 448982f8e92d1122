"""Tests for embedlab.softmax: softmax, log_softmax, naive_softmax, cross_entropy(_grad), saturation_prob."""

import math

import numpy as np
import pytest

from embedlab import (
    E_TOY,
    cross_entropy,
    cross_entropy_grad,
    log_softmax,
    naive_softmax,
    one_hot,
    saturation_prob,
    softmax,
    tied_logits,
)

Z_EX = [-0.24, -0.14, -0.49, 0.51]
RNG = np.random.default_rng(2)


def softmax_by_hand(z):
    """Independent oracle in plain Python (math.exp), for moderate logits."""
    e = [math.exp(v) for v in z]
    s = sum(e)
    return [v / s for v in e]


# ---------------------------------------------------------------- softmax values
def test_worked_example_softmax():
    """softmax(z) for the worked example is about [0.2000, 0.2210, 0.1557, 0.4233]."""
    p = softmax(Z_EX)
    np.testing.assert_allclose(p, softmax_by_hand(Z_EX), rtol=1e-14)
    np.testing.assert_allclose(p, [0.2000, 0.2210, 0.1557, 0.4233], atol=5e-5)


def test_worked_example_is_not_the_draft_numbers():
    """The hand-written draft's [0.19, 0.21, 0.15, 0.40] does not sum to 1 and is wrong."""
    p = softmax(Z_EX)
    assert not np.allclose(p, [0.19, 0.21, 0.15, 0.40], atol=5e-3)
    assert sum([0.19, 0.21, 0.15, 0.40]) != pytest.approx(1.0)


def test_worked_example_from_tied_logits():
    """The full pipeline h -> tied_logits -> softmax gives the hand-computed probabilities."""
    z = tied_logits([0.5, 0.2, -0.3], E_TOY)
    np.testing.assert_allclose(softmax(z), softmax_by_hand(Z_EX), rtol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_random_rows_against_math_exp(seed):
    """Random moderate logits, a 2-D batch, each row checked against the plain-Python oracle."""
    z = np.random.default_rng(seed).uniform(-10, 10, size=(3, 6))
    p = softmax(z)
    for i in range(3):
        np.testing.assert_allclose(p[i], softmax_by_hand(z[i].tolist()), rtol=1e-13)


def test_uniform_logits_give_uniform_probabilities():
    """Equal logits give 1/V each."""
    np.testing.assert_allclose(softmax([3.0] * 5), [0.2] * 5, rtol=1e-15)


def test_large_logit_gives_one_hot_and_is_finite():
    """[1000, 0, 0, 0] gives [1, 0, 0, 0] (no overflow, no NaN) where naive exp overflows."""
    p = softmax([1000.0, 0.0, 0.0, 0.0])
    assert np.isfinite(p).all()
    assert p[0] == 1.0
    np.testing.assert_allclose(p, [1.0, 0.0, 0.0, 0.0], rtol=0, atol=1e-300)


def test_softmax_shift_invariance_at_huge_offset():
    """Adding 1000 to every logit changes nothing (the stable form subtracts the max)."""
    np.testing.assert_allclose(softmax(np.add(Z_EX, 1000.0)), softmax(Z_EX), rtol=1e-12)
    np.testing.assert_allclose(softmax(np.add(Z_EX, -1000.0)), softmax(Z_EX), rtol=1e-12)


def test_minus_inf_gets_exactly_zero():
    """A masked (-inf) token gets probability exactly 0; the rest renormalise."""
    p = softmax([1.0, -np.inf, 2.0, -np.inf])
    assert p[1] == 0.0
    assert p[3] == 0.0
    np.testing.assert_allclose(p[[0, 2]], softmax_by_hand([1.0, 2.0]), rtol=1e-15)


@pytest.mark.parametrize("func", [softmax, log_softmax])
def test_float16_logits_are_normalised_in_float32(func):
    """The float16 sum of 128256 equal terms overflows; the result must still be 1/V each."""
    out = func(np.zeros(128256, np.float16))
    assert out.dtype == np.float16
    expected = np.float16(1 / 128256) if func is softmax else np.float16(-np.log(128256))
    np.testing.assert_array_equal(out, expected)


def test_softmax_refuses_a_masked_array():
    with pytest.raises(TypeError, match=r"z must be a plain array: masked arrays are not supported"):
        softmax(np.ma.masked_array([1.0, 2.0], mask=[0, 1]))


def test_saturation_prob_with_more_others_than_a_float_holds():
    """n_others beyond float range: P0 = sigmoid(t - log n), no OverflowError."""
    assert saturation_prob(0.0, 2**2000) == 0.0
    assert saturation_prob(2000.0, 2**2000) == pytest.approx(1.0)


def test_softmax_keeps_float32():
    """float32 logits give float32 probabilities summing to 1 in float32 precision."""
    p = softmax(np.array(Z_EX, dtype=np.float32))
    assert p.dtype == np.float32
    np.testing.assert_allclose(p, softmax_by_hand(Z_EX), rtol=1e-6)


def test_softmax_integer_input_is_float64():
    """Integer logits are converted to float64."""
    p = softmax([0, 0])
    assert p.dtype == np.float64
    np.testing.assert_array_equal(p, [0.5, 0.5])


def test_softmax_axis_zero_on_2d():
    """axis=0 normalises columns: equal to softmax of the transpose, transposed back."""
    z = RNG.uniform(-3, 3, size=(4, 5))
    p = softmax(z, axis=0)
    np.testing.assert_allclose(p.sum(axis=0), np.ones(5), rtol=1e-14)
    for j in range(5):
        np.testing.assert_allclose(p[:, j], softmax_by_hand(z[:, j].tolist()), rtol=1e-13)
    np.testing.assert_allclose(softmax(z, axis=-2), p, rtol=0, atol=0)


def test_softmax_does_not_modify_input():
    """The caller's logits are left unchanged."""
    z = np.array(Z_EX)
    softmax(z)
    np.testing.assert_array_equal(z, Z_EX)


# ---------------------------------------------------------------- softmax bad input
@pytest.mark.parametrize(
    ("z", "message"),
    [
        ([0.0, np.nan], r"z must not contain NaN, got 1 NaN value\(s\)"),
        ([np.inf, 0.0], r"z must not contain \+inf \(softmax would be inf/inf\), got 1 \+inf value\(s\)"),
        (
            [-np.inf, -np.inf],
            r"z must keep at least one finite entry along axis 0: a row of all -inf masks every token",
        ),
        ([[0.0, 1.0], [-np.inf, -np.inf]], r"at least one finite entry along axis 1"),
        ([], r"z must not be empty, got shape \(0,\)"),
        (np.zeros((2, 0)), r"z must not be empty, got shape \(2, 0\)"),
        (1.0, r"z must have at least 1 dimension\(s\), got shape \(\)"),
    ],
)
@pytest.mark.parametrize("func", [softmax, log_softmax])
def test_bad_logits_are_value_error(func, z, message):
    """NaN, +inf, an all -inf row, empty or 0-D logits are refused by softmax and log_softmax."""
    with pytest.raises(ValueError, match=message):
        func(z)


@pytest.mark.parametrize(
    ("axis", "exc", "message"),
    [
        (2, ValueError, r"axis must be in \[-2, 1\] for an array with 2 dimension\(s\), got 2"),
        (-3, ValueError, r"axis must be in \[-2, 1\] .* got -3"),
        (1.0, TypeError, r"axis must be an int, got float 1\.0"),
        (True, TypeError, r"axis must be an int, got bool True"),
        (None, TypeError, r"axis must be an int, got NoneType None"),
    ],
)
def test_bad_axis(axis, exc, message):
    """The axis must be an int in range."""
    with pytest.raises(exc, match=message):
        softmax(np.zeros((2, 3)), axis=axis)


@pytest.mark.parametrize(
    ("z", "message"),
    [("abc", r"got the string 'abc'"), ([True, False], r"got an array of dtype bool and shape \(2,\)")],
)
def test_non_real_logits_are_type_error(z, message):
    """Strings and bools are not logits."""
    with pytest.raises(TypeError, match=r"z must be an array of real numbers, " + message):
        softmax(z)


# ---------------------------------------------------------------- log_softmax
def test_log_softmax_against_math():
    """log_softmax equals log of the plain-Python softmax for moderate logits."""
    np.testing.assert_allclose(log_softmax(Z_EX), [math.log(p) for p in softmax_by_hand(Z_EX)], rtol=1e-13)


def test_log_softmax_is_finite_where_softmax_rounds_to_zero():
    """log_softmax([0, -1000]) is exactly -1000 - log(1 + e^-1000) = -1000, not log(0) = -inf."""
    out = log_softmax([0.0, -1000.0])
    assert softmax([0.0, -1000.0])[1] == 0.0
    np.testing.assert_allclose(out, [0.0, -1000.0], rtol=1e-15, atol=0)


def test_log_softmax_of_masked_token_is_minus_inf():
    """A -inf logit has log-probability -inf, the others are unaffected."""
    out = log_softmax([0.0, -np.inf, 0.0])
    assert out[1] == -np.inf
    np.testing.assert_allclose(out[[0, 2]], [-math.log(2)] * 2, rtol=1e-15)


def test_log_softmax_axis():
    """axis works for log_softmax too."""
    z = RNG.uniform(-3, 3, size=(3, 4))
    np.testing.assert_allclose(log_softmax(z, axis=0), np.log(softmax(z, axis=0)), rtol=1e-13)


# ---------------------------------------------------------------- naive_softmax (the foil)
def test_naive_softmax_matches_for_moderate_logits():
    """For small logits the naive form agrees with the stable one."""
    np.testing.assert_allclose(naive_softmax(Z_EX), softmax_by_hand(Z_EX), rtol=1e-14)


def test_naive_softmax_overflows_to_nan_without_warning():
    """The foil shows exp(1000) overflow as NaN, with its warnings silenced (filterwarnings=error)."""
    out = naive_softmax([1000.0, 0.0])
    assert math.isnan(out[0])
    assert out[1] == 0.0


# ---------------------------------------------------------------- cross_entropy
def test_cross_entropy_single_row_by_hand():
    """Loss = -log p[target], with p from plain Python."""
    p = softmax_by_hand(Z_EX)
    for t in range(4):
        assert cross_entropy(Z_EX, t) == pytest.approx(-math.log(p[t]), rel=1e-13)


def test_cross_entropy_is_mean_over_rows():
    """For a batch of shape (2, 3, V) the loss is the mean of the per-row losses."""
    z = RNG.uniform(-4, 4, size=(2, 3, 5))
    t = RNG.integers(0, 5, size=(2, 3))
    per_row = [-math.log(softmax_by_hand(z[i, j].tolist())[t[i, j]]) for i in range(2) for j in range(3)]
    loss = cross_entropy(z, t)
    assert isinstance(loss, float)
    assert loss == pytest.approx(sum(per_row) / 6, rel=1e-13)


def test_cross_entropy_uniform_is_log_V():
    """Uniform logits give log V."""
    assert cross_entropy(np.zeros(7), 3) == pytest.approx(math.log(7), rel=1e-15)


def test_cross_entropy_large_logits_stays_finite():
    """A confident wrong answer costs ~1000 nats, not inf or NaN."""
    assert cross_entropy([1000.0, 0.0], 1) == pytest.approx(1000.0, rel=1e-15)
    assert cross_entropy([1000.0, 0.0], 0) == pytest.approx(0.0, abs=1e-300)


@pytest.mark.parametrize(
    ("logits", "targets", "exc", "message"),
    [
        (
            np.zeros((2, 4)),
            [0, 1, 2],
            ValueError,
            r"targets must have shape \(2,\) \(one target per row of logits\), got shape \(3,\)",
        ),
        (
            np.zeros(4),
            [1],
            ValueError,
            r"targets must have shape \(\) \(one target per row of logits\), got shape \(1,\)",
        ),
        (np.zeros((2, 4)), 1, ValueError, r"targets must have shape \(2,\) .* got shape \(\)"),
        (np.zeros(4), 4, ValueError, r"targets must be in \[0, 3\] for a vocabulary of 4, got 4"),
        (np.zeros(4), -1, ValueError, r"targets must be in \[0, 3\] \(ids are zero-indexed\), got -1"),
        (np.zeros(4), 1.0, TypeError, r"targets must be integer token ids, got floating values"),
        (np.zeros(4), True, TypeError, r"targets must be integer token ids, got a bool"),
        ([np.nan, 0.0], 0, ValueError, r"logits must not contain NaN"),
    ],
)
@pytest.mark.parametrize("func", [cross_entropy, cross_entropy_grad])
def test_cross_entropy_bad_input(func, logits, targets, exc, message):
    """Bad targets (shape, range, type) and bad logits are refused by the loss and its gradient."""
    with pytest.raises(exc, match=message):
        func(logits, targets)


# ---------------------------------------------------------------- cross_entropy_grad
def test_cross_entropy_grad_is_softmax_minus_one_hot_over_n():
    """The gradient is (softmax - one_hot(targets)) / n_rows, built independently."""
    z = RNG.uniform(-3, 3, size=(4, 5))
    t = np.array([0, 4, 4, 2])
    expected = (np.array([softmax_by_hand(r) for r in z.tolist()]) - one_hot(t, 5)) / 4
    np.testing.assert_allclose(cross_entropy_grad(z, t), expected, rtol=1e-13, atol=1e-16)


@pytest.mark.parametrize("shape", [(5,), (3, 5), (2, 2, 5)])
def test_cross_entropy_grad_matches_finite_differences(shape):
    """Central differences of cross_entropy agree with cross_entropy_grad on every logit."""
    rng = np.random.default_rng(len(shape))
    z = rng.uniform(-2, 2, size=shape)
    t = rng.integers(0, shape[-1], size=shape[:-1])
    g = cross_entropy_grad(z, t)
    assert g.shape == z.shape
    eps = 1e-6
    fd = np.zeros_like(z)
    for idx in np.ndindex(*shape):
        zp, zm = z.copy(), z.copy()
        zp[idx] += eps
        zm[idx] -= eps
        fd[idx] = (cross_entropy(zp, t) - cross_entropy(zm, t)) / (2 * eps)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-9)


def test_cross_entropy_grad_rows_sum_to_zero():
    """Each row of (softmax - one_hot) sums to 0."""
    g = cross_entropy_grad(RNG.uniform(-3, 3, size=(3, 6)), [1, 2, 3])
    np.testing.assert_allclose(g.sum(axis=-1), 0.0, atol=1e-16)


def test_cross_entropy_grad_does_not_modify_logits():
    """The gradient is computed without writing into the caller's array."""
    z = np.array(Z_EX)
    cross_entropy_grad(z, 1)
    np.testing.assert_array_equal(z, Z_EX)


# ---------------------------------------------------------------- saturation_prob
@pytest.mark.parametrize("t", [-20.0, -5.0, -1.0, 0.0, 0.3, 1.0, 5.0, 20.0, 30.0])
def test_saturation_prob_closed_form(t):
    """P0(t) = e^t / (e^t + 3), computed with math for moderate t."""
    assert saturation_prob(t) == pytest.approx(math.exp(t) / (math.exp(t) + 3), rel=1e-14)


@pytest.mark.parametrize("t", [-3.0, 0.0, 2.5])
def test_saturation_prob_matches_softmax(t):
    """P0(t) is the first entry of softmax([t, 0, 0, 0]) (a second, independent route)."""
    assert saturation_prob(t) == pytest.approx(float(softmax([t, 0.0, 0.0, 0.0])[0]), rel=1e-14)


@pytest.mark.parametrize("n", [1, 2, 9])
def test_saturation_prob_other_n(n):
    """With n_others = n, P0(t) = e^t / (e^t + n); at t = 0 it is 1/(n+1)."""
    assert saturation_prob(0.0, n_others=n) == pytest.approx(1 / (n + 1), rel=1e-15)
    assert saturation_prob(1.5, n_others=n) == pytest.approx(math.exp(1.5) / (math.exp(1.5) + n), rel=1e-14)


@pytest.mark.parametrize(("t", "p0"), [(1000.0, 1.0), (np.inf, 1.0), (-1000.0, 0.0), (-np.inf, 0.0)])
def test_saturation_prob_limits(t, p0):
    """The limits are reached exactly at +-1000 and +-inf, with no NaN."""
    p = saturation_prob(t)
    assert isinstance(p, float)
    assert p == pytest.approx(p0, abs=1e-300)


@pytest.mark.parametrize("t", [-1000.0, -np.inf, -50.0])
def test_others_tend_to_one_third(t):
    """As t -> -inf each of the 3 other tokens tends to 1/3."""
    assert (1.0 - saturation_prob(t)) / 3 == pytest.approx(1 / 3, rel=1e-15)


def test_saturation_prob_tiny_tail_is_not_rounded_to_zero():
    """For t = -700 the exact value e^-700 / 3 is representable and must be returned (relative accuracy)."""
    assert saturation_prob(-700.0) == pytest.approx(math.exp(-700.0) / 3, rel=1e-12)


def test_saturation_prob_array():
    """An array t gives an array, each entry equal to the scalar result; int t works."""
    ts = np.array([-2.0, 0.0, 2.0])
    out = saturation_prob(ts)
    assert isinstance(out, np.ndarray)
    np.testing.assert_allclose(out, [saturation_prob(float(t)) for t in ts], rtol=0)
    assert saturation_prob(0) == pytest.approx(0.25, rel=1e-15)


def test_saturation_prob_is_increasing():
    """P0 is monotone in t."""
    p = saturation_prob(np.linspace(-30, 30, 201))
    assert (np.diff(p) >= 0).all()


@pytest.mark.parametrize(
    ("t", "n", "exc", "message"),
    [
        (np.nan, 3, ValueError, r"t must not be NaN"),
        ([0.0, np.nan], 3, ValueError, r"t must not be NaN"),
        ("1", 3, TypeError, r"t must be a real number or array of real numbers, got str '1'"),
        (True, 3, TypeError, r"t must be a real number or array of real numbers, got bool True"),
        (1j, 3, TypeError, r"got complex 1j"),
        (0.0, 0, ValueError, r"n_others must be a positive integer, got 0"),
        (0.0, 3.0, TypeError, r"n_others must be a positive integer, got float 3\.0"),
        (0.0, True, TypeError, r"n_others must be a positive integer, got bool True"),
    ],
)
def test_saturation_prob_bad_input(t, n, exc, message):
    """NaN, non-real t and bad n_others are refused."""
    with pytest.raises(exc, match=message):
        saturation_prob(t, n_others=n)
