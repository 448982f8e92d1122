"""Tests for embedlab.logits.tied_logits: z = h @ E.T (+ bias)."""

import numpy as np
import pytest

from embedlab import E_TOY, lookup, tied_logits

H_EX = [0.5, 0.2, -0.3]  # the context of the worked example
Z_EX = [-0.24, -0.14, -0.49, 0.51]  # its published logits
RNG = np.random.default_rng(1)


def logits_by_hand(h, E, bias=None):
    """Independent oracle: per-token Python sum of products, no NumPy arithmetic."""
    z = []
    for j, row in enumerate(E):
        s = sum(float(hk) * float(ek) for hk, ek in zip(h, row, strict=True))
        z.append(s + (float(bias[j]) if bias is not None else 0.0))
    return z


# ---------------------------------------------------------------- values
def test_worked_example_logits():
    """h = [0.5, 0.2, -0.3] with E_TOY gives z = [-0.24, -0.14, -0.49, 0.51]."""
    np.testing.assert_allclose(tied_logits(H_EX, E_TOY), Z_EX, rtol=0, atol=1e-12)


def test_worked_example_against_hand_loop():
    """The worked-example logits agree with an explicit Python sum of products."""
    np.testing.assert_allclose(tied_logits(H_EX, E_TOY), logits_by_hand(H_EX, E_TOY), rtol=1e-15, atol=1e-15)


def test_logit_of_token_is_dot_with_its_own_row():
    """Tying: logit j is h . E[j], where E[j] is exactly what lookup returns for id j."""
    z = tied_logits(H_EX, E_TOY)
    for j in range(4):
        assert z[j] == pytest.approx(float(np.dot(H_EX, lookup(E_TOY, j))), abs=1e-15)


def test_random_batch_against_hand_loop():
    """A batch of contexts, each row checked against the hand loop, with a bias."""
    E = RNG.standard_normal((6, 4))
    h = RNG.standard_normal((3, 4))
    bias = RNG.standard_normal(6)
    z = tied_logits(h, E, bias=bias)
    assert z.shape == (3, 6)
    for i in range(3):
        np.testing.assert_allclose(z[i], logits_by_hand(h[i], E, bias), rtol=1e-13, atol=1e-13)


def test_bias_is_added_to_every_row():
    """With h = 0 the logits are exactly the bias, in every row."""
    bias = [0.5, -1.0, 2.0, 0.0]
    np.testing.assert_array_equal(tied_logits(np.zeros((2, 3)), E_TOY, bias=bias), [bias, bias])


def test_integer_inputs_are_converted():
    """Integer h, E and bias are treated as float64 (no integer arithmetic surprises)."""
    z = tied_logits([1, 2], [[1, 0], [0, 1], [3, 4]], bias=[0, 0, 1])
    assert z.dtype == np.float64
    np.testing.assert_array_equal(z, [1.0, 2.0, 12.0])


# ---------------------------------------------------------------- shapes
@pytest.mark.parametrize("lead", [(), (1,), (5,), (2, 3), (2, 1, 4)])
def test_batch_shapes(lead):
    """h of shape (..., d) gives logits of shape (..., V), each slice equal to the 1-D result."""
    h = RNG.standard_normal((*lead, 3))
    z = tied_logits(h, E_TOY)
    assert z.shape == (*lead, 4)
    for idx in np.ndindex(*lead):
        np.testing.assert_allclose(z[idx], tied_logits(h[idx], E_TOY), rtol=1e-14, atol=1e-15)


# ---------------------------------------------------------------- dtype
def test_float32_E_stays_float32_with_float64_h():
    """E is used in its own dtype: float32 E and float64 h give float32 logits (E not upcast)."""
    E32 = E_TOY.astype(np.float32)
    z = tied_logits(np.array(H_EX, dtype=np.float64), E32)
    assert z.dtype == np.float32
    np.testing.assert_allclose(z, Z_EX, rtol=1e-6, atol=1e-6)


def test_float32_E_with_float64_bias_stays_float32():
    """A float64 bias does not upcast float32 logits either."""
    z = tied_logits(H_EX, E_TOY.astype(np.float32), bias=np.ones(4))
    assert z.dtype == np.float32
    np.testing.assert_allclose(z, np.add(Z_EX, 1.0), rtol=1e-6)


def test_float32_h_with_float64_E_is_float64():
    """The result follows E's dtype, not h's."""
    assert tied_logits(np.array(H_EX, dtype=np.float32), E_TOY).dtype == np.float64


def test_inputs_are_not_modified():
    """tied_logits writes into neither h, E nor bias."""
    E = RNG.standard_normal((4, 3))
    h = RNG.standard_normal((2, 3))
    b = RNG.standard_normal(4)
    E0, h0, b0 = E.copy(), h.copy(), b.copy()
    tied_logits(h, E, bias=b)
    np.testing.assert_array_equal(E, E0)
    np.testing.assert_array_equal(h, h0)
    np.testing.assert_array_equal(b, b0)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("h", "message"),
    [
        ([0.5, 0.2], r"h must have shape \(\.\.\., 3\) to match E's width d=3, got shape \(2,\)"),
        (np.zeros((2, 4)), r"h must have shape \(\.\.\., 3\) to match E's width d=3, got shape \(2, 4\)"),
        (0.5, r"h must have at least 1 dimension\(s\), got shape \(\)"),
        (np.zeros((0, 3)), r"h must not be empty, got shape \(0, 3\)"),
        ([0.5, np.nan, -0.3], r"h must be finite, got 1 NaN or infinite value\(s\), the first at index \(1,\)"),
        (
            [[0.0, 0.0, 0.0], [np.inf, -np.inf, 0.0]],
            r"h must be finite, got 2 NaN or infinite value\(s\), the first at index \(1, 0\)",
        ),
    ],
)
def test_bad_h_is_value_error(h, message):
    """h with the wrong width, no axes, no entries or non-finite entries is refused."""
    with pytest.raises(ValueError, match=message):
        tied_logits(h, E_TOY)


@pytest.mark.parametrize(
    ("h", "message"),
    [
        ("h", r"h must be an array of real numbers, got the string 'h'"),
        ([True, False, True], r"h must be an array of real numbers, got an array of dtype bool"),
        (np.array([1, 2, 3], dtype=object), r"got an array of dtype object"),
    ],
)
def test_bad_h_type_is_type_error(h, message):
    """Non-real h is a TypeError."""
    with pytest.raises(TypeError, match=message):
        tied_logits(h, E_TOY)


@pytest.mark.parametrize(
    ("bias", "exc", "message"),
    [
        ([0.0, 0.0, 0.0], ValueError, r"bias must have shape \(4,\), one entry per token, got shape \(3,\)"),
        (np.zeros((1, 4)), ValueError, r"bias must have shape \(4,\), one entry per token, got shape \(1, 4\)"),
        (0.0, ValueError, r"bias must have shape \(4,\), one entry per token, got shape \(\)"),
        (
            [0.0, np.nan, 0.0, 0.0],
            ValueError,
            r"bias must be finite, got 1 NaN or infinite value\(s\), the first at index \(1,\)",
        ),
        ([0.0, 0.0, 0.0, np.inf], ValueError, r"bias must be finite, .* the first at index \(3,\)"),
        (["a", "b", "c", "d"], TypeError, r"bias must be an array of real numbers"),
    ],
)
def test_bad_bias(bias, exc, message):
    """The bias must be a finite real vector of length V."""
    with pytest.raises(exc, match=message):
        tied_logits(H_EX, E_TOY, bias=bias)


@pytest.mark.parametrize(
    ("E", "exc", "message"),
    [
        (np.zeros(3), ValueError, r"E must be 2-D, got 1-D"),
        (np.zeros((4, 3, 1)), ValueError, r"E must be 2-D, got 3-D"),
        (np.zeros((4, 3), dtype=object), TypeError, r"E must be an array of real numbers"),
    ],
)
def test_bad_E_shape_or_type(E, exc, message):
    """E must be a real 2-D array."""
    with pytest.raises(exc, match=message):
        tied_logits(H_EX, E)


def test_nan_in_E_surfaces_as_value_error():
    """A NaN inside E is not silently passed on: the logits of that token are reported."""
    E = E_TOY.copy()
    E[1, 1] = np.nan
    with pytest.raises(
        ValueError, match=r"E must be finite: the logits of token id\(s\) \[1\] came out NaN or infinite"
    ):
        tied_logits(H_EX, E)


def test_nan_in_E_reported_for_every_bad_row_in_a_batch():
    """All bad token ids are listed, found from any row of the batch."""
    E = E_TOY.copy()
    E[0, 0] = np.nan
    E[3, 2] = np.nan
    with pytest.raises(ValueError, match=r"token id\(s\) \[0, 3\]"):
        tied_logits(np.ones((2, 3)), E)


def test_inf_in_E_surfaces_as_value_error():
    """An inf in E (times a non-zero h entry) is reported like a NaN."""
    E = E_TOY.copy()
    E[2, 0] = np.inf
    with pytest.raises(ValueError, match=r"E must be finite: the logits of token id\(s\) \[2\]"):
        tied_logits(H_EX, E)


def test_inf_in_E_met_by_zero_in_h_is_value_error():
    """inf * 0 in h @ E.T is NaN: the documented ValueError must arrive, not a stray RuntimeWarning.

    Under this project's filterwarnings=error the RuntimeWarning NumPy emits inside the matmul
    pre-empts the library's own ValueError.
    """
    E = E_TOY.copy()
    E[1, 1] = np.inf
    with pytest.raises(ValueError, match=r"E must be finite: the logits of token id\(s\) \[1\]"):
        tied_logits([0.5, 0.0, -0.3], E)


def test_overflowing_logits_are_value_error():
    """Finite h and E whose product overflows give the documented ValueError (not a RuntimeWarning)."""
    E = np.full((4, 3), 1e200)
    with pytest.raises(ValueError, match=r"h @ E\.T overflows"):
        tied_logits([1e200, 1e200, 1e200], E)


def test_h_out_of_float32_range_blames_h():
    """A finite float64 h too large for a float32 E overflows in the cast to E's dtype.

    The library checks h for finiteness before that cast, so the error should name h; it must
    not be a stray RuntimeWarning, nor a message claiming E holds NaN/inf.
    """
    E32 = E_TOY.astype(np.float32)
    with pytest.raises(ValueError, match=r"^h "):
        tied_logits([1e39, 0.0, 0.0], E32)
