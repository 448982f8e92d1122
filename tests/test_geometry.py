"""Tests for embedlab.geometry: dot, cosine, angle_deg, plane_basis, in_plane."""

import math
from fractions import Fraction

import numpy as np
import pytest

from embedlab import E_TOY, angle_deg, cosine, dot, in_plane, plane_basis, tied_logits

RNG = np.random.default_rng(4)


def norm(v):
    return math.sqrt(sum(x * x for x in v))


# ---------------------------------------------------------------- dot
def test_dot_by_hand():
    """0.5*0.6 + 0.2*0.3 + (-0.3)*(-0.5) = 0.51, the logit of 'ran' in the worked example."""
    assert dot([0.5, 0.2, -0.3], [0.6, 0.3, -0.5]) == pytest.approx(0.51, abs=1e-15)
    assert isinstance(dot([1.0], [2.0]), float)


def test_dot_is_the_tied_logit():
    """dot(h, E[j]) is logit j of tied_logits."""
    h = [0.5, 0.2, -0.3]
    z = tied_logits(h, E_TOY)
    for j in range(4):
        assert dot(h, E_TOY[j]) == pytest.approx(float(z[j]), abs=1e-15)


def test_dot_random_against_python_sum():
    """Random vectors vs an explicit Python sum of products."""
    a, b = RNG.standard_normal(7), RNG.standard_normal(7)
    assert dot(a, b) == pytest.approx(sum(x * y for x, y in zip(a.tolist(), b.tolist(), strict=True)), rel=1e-13)


# ---------------------------------------------------------------- cosine and angle
@pytest.mark.parametrize(
    ("a", "b", "cos"),
    [
        ([1.0, 0.0], [3.0, 0.0], 1.0),
        ([1.0, 0.0], [-2.0, 0.0], -1.0),
        ([1.0, 0.0], [0.0, 5.0], 0.0),
        ([1.0, 1.0], [1.0, 0.0], 1 / math.sqrt(2)),
        ([1.0, 2.0, 2.0], [2.0, 1.0, -2.0], 0.0),
    ],
)
def test_cosine_known_values(a, b, cos):
    """Cosines of textbook pairs."""
    assert cosine(a, b) == pytest.approx(cos, abs=1e-15)


def test_cosine_against_formula_in_python():
    """cos = a.b / (|a||b|) computed in plain Python."""
    a, b = RNG.standard_normal(5).tolist(), RNG.standard_normal(5).tolist()
    expected = sum(x * y for x, y in zip(a, b, strict=True)) / (norm(a) * norm(b))
    assert cosine(a, b) == pytest.approx(expected, rel=1e-13)


def test_cosine_cat_dog_are_close():
    """In E_TOY, 'cat' and 'dog' point almost the same way; 'cat' and 'ran' do not."""
    assert cosine(E_TOY[0], E_TOY[1]) > 0.98
    assert cosine(E_TOY[0], E_TOY[3]) < 0


def test_cosine_is_clipped_to_unit_interval():
    """Rounding never pushes |cos| above 1 (so arccos never gets NaN)."""
    for _ in range(50):
        v = RNG.standard_normal(9)
        c = cosine(v, v * 3.7)
        assert -1.0 <= c <= 1.0
        assert c == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("scale", [1e-200, 1e200])
def test_cosine_is_scale_invariant_at_extreme_magnitudes(scale):
    """cos(s*a, s*b) = cos(a, b): tiny or huge (finite, non-zero) vectors still have a direction.

    np.linalg.norm under/overflows for such vectors, so a naive a.b/(|a||b|) either calls a
    non-zero vector "the zero vector" or returns NaN.
    """
    a, b = np.array([1.0, 0.0]), np.array([1.0, 1.0])
    assert cosine(a * scale, b * scale) == pytest.approx(cosine(a, b), rel=1e-12)


@pytest.mark.parametrize(
    ("a", "b", "deg"),
    [
        ([1.0, 0.0], [0.0, 3.0], 90.0),
        ([1.0, 0.0], [1.0, 1.0], 45.0),
        ([1.0, 0.0], [-1.0, 0.0], 180.0),
        ([2.0, 0.0], [1.0, 0.0], 0.0),
    ],
)
def test_angle_deg_known_values(a, b, deg):
    """Angles of textbook pairs, in degrees."""
    assert angle_deg(a, b) == pytest.approx(deg, abs=1e-12)


@pytest.mark.parametrize(
    ("a", "b", "deg"),
    [([2.0, 2.0], [1.0, 1.0], 0.0), ([0.1, 0.7, 0.3], [0.3, 2.1, 0.9], 0.0), ([2.0, 2.0], [-1.0, -1.0], 180.0)],
)
def test_angle_deg_of_parallel_vectors_is_exact(a, b, deg):
    """Parallel (or anti-parallel) vectors make an angle of exactly 0 (or 180) degrees.

    arccos is ill-conditioned at +-1: a cosine that rounds to 1 - 2e-16 becomes 1.2e-6 degrees,
    so arccos(cosine) reports [2, 2] and [1, 1] as not parallel. A textbook answer should be 0.
    """
    assert angle_deg(a, b) == pytest.approx(deg, abs=1e-9)


def test_angle_deg_against_math():
    """angle = degrees(acos(cos)) computed with math, for random vectors."""
    a, b = RNG.standard_normal(4).tolist(), RNG.standard_normal(4).tolist()
    expected = math.degrees(math.acos(sum(x * y for x, y in zip(a, b, strict=True)) / (norm(a) * norm(b))))
    assert angle_deg(a, b) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("func", [cosine, angle_deg])
@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ([0.0, 0.0], [1.0, 0.0], r"a must be a non-zero vector to have a direction, got the zero vector"),
        ([1.0, 0.0], [0.0, 0.0], r"b must be a non-zero vector to have a direction, got the zero vector"),
    ],
)
def test_zero_vector_has_no_direction(func, a, b, message):
    """A zero vector has no cosine or angle with anything."""
    with pytest.raises(ValueError, match=message):
        func(a, b)


@pytest.mark.parametrize("func", [dot, cosine, angle_deg, plane_basis])
@pytest.mark.parametrize(
    ("a", "b", "exc", "message"),
    [
        ([1.0, 2.0], [1.0, 2.0, 3.0], ValueError, r"a and b must have the same length, got 2 and 3"),
        ([[1.0, 2.0]], [1.0, 2.0], ValueError, r"a must be 1-D, got 2-D with shape \(1, 2\)"),
        ([1.0, 2.0], 3.0, ValueError, r"b must be 1-D, got 0-D with shape \(\)"),
        (
            [1.0, np.nan],
            [1.0, 2.0],
            ValueError,
            r"a must be finite, got 1 NaN or infinite value\(s\), the first at index \(1,\)",
        ),
        ([1.0, 2.0], [np.inf, 2.0], ValueError, r"b must be finite, .* the first at index \(0,\)"),
        ([], [], ValueError, r"a must not be empty"),
        ("ab", [1.0, 2.0], TypeError, r"a must be an array of real numbers, got the string 'ab'"),
        ([1.0, 2.0], [True, False], TypeError, r"b must be an array of real numbers, got an array of dtype bool"),
    ],
)
def test_vector_pair_bad_input(func, a, b, exc, message):
    """All vector functions refuse mismatched, non-1-D, non-finite, empty or non-real input."""
    with pytest.raises(exc, match=message):
        func(a, b)


# ---------------------------------------------------------------- plane_basis
def test_plane_basis_docstring_example():
    """u1 along a, u2 the part of b perpendicular to a, normalised."""
    np.testing.assert_allclose(plane_basis([2.0, 0.0, 0.0], [1.0, 1.0, 0.0]), [[1, 0, 0], [0, 1, 0]], atol=1e-15)


@pytest.mark.parametrize("d", [2, 3, 10])
def test_plane_basis_is_orthonormal_and_spans_a_and_b(d):
    """Rows are orthonormal, u1 is along a, and both a and b lie in the plane (zero residual)."""
    a, b = RNG.standard_normal(d), RNG.standard_normal(d)
    B = plane_basis(a, b)
    assert B.shape == (2, d)
    np.testing.assert_allclose(B @ B.T, np.eye(2), atol=1e-14)
    np.testing.assert_allclose(B[0], a / np.linalg.norm(a), rtol=1e-14)
    for v in (a, b):
        np.testing.assert_allclose(B.T @ (B @ v), v, atol=1e-13)
    assert B[1] @ b > 0  # u2 points towards b's side


def test_plane_basis_preserves_lengths_and_angle():
    """Drawing a and b in the plane keeps their lengths and the angle between them."""
    a, b = RNG.standard_normal(6), RNG.standard_normal(6)
    B = plane_basis(a, b)
    a2, b2 = B @ a, B @ b
    assert np.linalg.norm(a2) == pytest.approx(np.linalg.norm(a), rel=1e-13)
    assert np.linalg.norm(b2) == pytest.approx(np.linalg.norm(b), rel=1e-13)
    assert angle_deg(a2, b2) == pytest.approx(angle_deg(a, b), rel=1e-10)


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ([1.0, 2.0, 3.0], [2.0, 4.0, 6.0], r"b must not be parallel to a: together they span no plane"),
        ([1.0, 2.0, 3.0], [-1.0, -2.0, -3.0], r"b must not be parallel to a"),
        ([1.0, 0.0], [0.0, 0.0], r"b must be a non-zero vector to have a direction, got the zero vector"),
        ([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], r"a must be a non-zero vector to have a direction, got the zero vector"),
    ],
)
def test_plane_basis_refuses_degenerate_pairs(a, b, message):
    """Parallel, anti-parallel or zero vectors span no plane."""
    with pytest.raises(ValueError, match=message):
        plane_basis(a, b)


def test_plane_basis_small_perpendicular_b_is_not_parallel():
    """b = [0, 1e-13] is perpendicular to a = [1, 0], not parallel; the plane is the x-y plane.

    The parallel test compares the perpendicular residual with an absolute floor
    (1e-12 * max(|b|, 1)), so short but perfectly perpendicular vectors are refused.
    """
    np.testing.assert_allclose(plane_basis([1.0, 0.0], [0.0, 1e-13]), [[1.0, 0.0], [0.0, 1.0]], atol=1e-15)


# ---------------------------------------------------------------- in_plane
@pytest.mark.parametrize("deg", [0.0, 30.0, 90.0, 135.0, 180.0, -45.0])
def test_in_plane_angle_and_length(deg):
    """The vector at angle θ has the given length, cosine cos θ with u1, and is cos θ u1 + sin θ u2."""
    a, b = RNG.standard_normal(5), RNG.standard_normal(5)
    B = plane_basis(a, b)
    v = in_plane(deg, B, length=2.5)
    assert np.linalg.norm(v) == pytest.approx(2.5, rel=1e-13)
    assert float(v @ B[0]) / 2.5 == pytest.approx(math.cos(math.radians(deg)), abs=1e-14)
    np.testing.assert_allclose(
        v, 2.5 * (math.cos(math.radians(deg)) * B[0] + math.sin(math.radians(deg)) * B[1]), atol=1e-14
    )


def test_in_plane_recovers_b_direction():
    """At the angle between a and b, in_plane points along b."""
    a, b = RNG.standard_normal(4), RNG.standard_normal(4)
    v = in_plane(angle_deg(a, b), plane_basis(a, b), length=float(np.linalg.norm(b)))
    np.testing.assert_allclose(v, b, atol=1e-10)


@pytest.mark.parametrize(
    ("angle", "basis", "exc", "message"),
    [
        (10.0, np.eye(3), ValueError, r"basis must have shape \(2, d\), got shape \(3, 3\)"),
        (10.0, np.ones(3), ValueError, r"basis must be 2-D, got 1-D"),
        (np.nan, np.eye(3)[:2], ValueError, r"angle_degrees must be finite, got nan"),
        (np.inf, np.eye(3)[:2], ValueError, r"angle_degrees must be finite, got inf"),
        (10.0, "basis", TypeError, r"basis must be an array of real numbers"),
    ],
)
def test_in_plane_bad_input(angle, basis, exc, message):
    """A basis that is not (2, d) and a non-finite angle are refused."""
    with pytest.raises(exc, match=message):
        in_plane(angle, basis)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.longdouble])
def test_plane_basis_refuses_b_equal_to_3a_in_every_dtype(dtype):
    """3a rounded to float32 has a perpendicular part of rounding noise: still parallel."""
    a = np.array([0.3, -1.7, 2.9, 0.11], dtype)
    with pytest.raises(ValueError, match=rf"b must not be parallel to a: .*dtype {np.dtype(dtype).name}"):
        plane_basis(a, (3 * a).astype(dtype))


def test_plane_basis_keeps_the_input_dtype():
    basis = plane_basis(np.array([1, 0, 0], np.float32), np.array([1, 1, 0], np.float32))
    assert basis.dtype == np.float32
    np.testing.assert_allclose(basis, [[1, 0, 0], [0, 1, 0]], atol=1e-7)


def test_dot_of_a_masked_array_is_refused():
    with pytest.raises(TypeError, match=r"a must be a plain array: masked arrays are not supported .* a\.filled"):
        dot(np.ma.masked_array([1.0, 2.0], mask=[0, 1]), [1.0, 1.0])


def test_dot_that_overflows_is_refused():
    with pytest.raises(ValueError, match=r"a and b have a dot product too large for a float"):
        dot([1e200, 1e200], [1e200, 1e200])


def test_dot_past_the_float_range_is_exact_on_a_long_vector():
    """The fallback on a long vector: products past the float range cancel exactly, the rest summed exactly."""
    n = 10**5
    a, b = np.full(n, 0.1), np.full(n, 0.1)
    a[0] = b[0] = b[1] = 1e300
    a[1] = -1e300
    exact = (n - 2) * Fraction(0.1) ** 2
    assert dot(a, b) == float(exact)
