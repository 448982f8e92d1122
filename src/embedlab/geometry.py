"""Dot products, cosines and angles: the geometry of alignment (worked example D)."""

from __future__ import annotations

import fractions
import math
import numbers
from typing import Any

import numpy as np

from ._validation import (
    check_finite,
    check_fits,
    check_float_array,
    check_nbytes,
    check_real,
    exact_real,
    is_a,
    short_repr,
    unwrap_0d,
)

__all__ = [
    "angle_deg",
    "cosine",
    "dot",
    "in_plane",
    "plane_basis",
]


def _vector(x: Any, name: str) -> np.ndarray:
    x = check_float_array(x, name, ndim=1)
    check_finite(x, name)
    return x


def _pair(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    a, b = _vector(a, "a"), _vector(b, "b")
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same length, got {a.shape[0]} and {b.shape[0]}")
    # the working copies and temporaries of dot, cosine, angle_deg and plane_basis, broadcast views counted
    check_nbytes((8 * a.shape[0],), np.result_type(a.dtype, b.dtype, np.float64), "a and b")
    return a, b


def dot(a: Any, b: Any) -> float:
    """Multiply matching slots and add: the score a tied output layer gives a token.

    Examples
    --------
    >>> round(dot([0.5, 0.2, -0.3], [0.6, 0.3, -0.5]), 10)
    0.51
    """
    a, b = _pair(a, b)
    w = np.result_type(a.dtype, b.dtype, np.float64)  # float64 (longdouble stays): a Python float comes back
    with np.errstate(over="ignore", invalid="ignore"):
        # products, then NumPy's pairwise sum: one order of additions on every processor (a BLAS dot
        # picks its kernel by CPU, and the last bits of a sum that cancels, as D's orthogonal case does, differ)
        a, b = a.astype(w, copy=False), b.astype(w, copy=False)
        out = float(np.add.reduce(np.multiply(a, b)))
    if not np.isfinite(out):  # products past the float range may still cancel
        out = _dot_by_exponent(a, b)
    if not np.isfinite(out):
        raise ValueError("a and b have a dot product too large for a float (it overflows to inf); scale them down")
    return out


def _dot_by_exponent(a: np.ndarray, b: np.ndarray) -> float:
    """The dot product of vectors whose products pass the float range, which may cancel, summed exactly
    and rounded once. Each entry is split as mantissa times a power of 2 (the mantissa into float64 parts,
    one for float64, more for a longdouble); each product of parts is an exact pair (Dekker's product);
    the pairs are summed exactly in bands of 2**900 (:func:`_exact_sum`) and the bands added as fractions.
    A global scale would flush the small products to zero, and products rounded to float64 would cancel
    bits that do not: [1e200, -1e200, 1] . [1e200, 1e200, 1] is 1."""
    n, wide = a.shape[0], np.finfo(a.dtype).nmant > 52
    k = 3 if wide else 1  # float64 parts of each mantissa (x86's longdouble needs 2, a quad 3)
    check_nbytes((n, 24 + 2 * k * k), np.float64, "a and b")  # the work arrays below, counted before any is made
    ma, ea = np.frexp(a)
    mb, eb = np.frexp(b)
    e = ea.astype(np.int64) + eb
    band = e // 900
    shift = (e - 900 * band).astype(np.int32)  # each term below is under 2**900 in size, over 2**-400
    terms = [np.ldexp(t, shift) for pa in _float64_parts(ma) for pb in _float64_parts(mb) for t in _two_product(pa, pb)]
    del ma, mb, ea, eb, e, shift
    total = fractions.Fraction(0)
    for k in np.unique(band).tolist():
        inside = band == k
        part = _exact_sum(np.concatenate([t[inside] for t in terms]))
        total += part * fractions.Fraction(2) ** (900 * k)
    try:
        return float(total)
    except OverflowError:  # the sum itself is past the float range
        return math.inf


def _exact_sum(t: np.ndarray) -> fractions.Fraction:
    """The exact sum of float64 entries (each under 2**900 in size), by repeated extraction (Rump, Ogita and
    Oishi's AccSum): added to a power of 2 ``sigma`` above n times the largest, each entry's high part is a
    multiple of sigma's last bit, so the high parts add up exactly in any order; what is left is smaller by
    some 2**30 (for a million entries), and goes round again. A few vectorised passes, not one per entry."""
    total = fractions.Fraction(0)
    grow = 2.0 ** (math.ceil(math.log2(t.size + 2)) + 1)  # sigma is at least 2(n + 2) times the largest
    for _ in range(4096):  # at most some 1,400 / (52 - log2(4n)) passes: the bound only guards the loop
        t = t[t != 0]
        if not t.size:
            break
        sigma = grow * 2.0 ** math.ceil(math.log2(float(np.abs(t).max())))
        high = (sigma + t) - sigma  # exact: a multiple of sigma's last bit, at most sigma / 2 in all
        total += fractions.Fraction(float(np.add.reduce(high)))
        t = t - high  # exact: the part below sigma's last bit
    return total


def _float64_parts(m: np.ndarray) -> list[np.ndarray]:
    """Float64 arrays that add up to ``m`` exactly (one for float64; two for x86's longdouble)."""
    parts, rest = [], m
    while True:
        part = rest.astype(np.float64)
        parts.append(part)
        rest = rest - part  # exact: what float64 could not hold
        if not rest.any():
            return parts


def _two_product(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(p, err)`` with ``p + err == x * y`` exactly (Dekker), for entries of size at most 1."""
    p = x * y
    xh, xl = _halves(x)
    yh, yl = _halves(y)
    return p, ((xh * yh - p) + xh * yl + xl * yh) + xl * yl


def _halves(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = 134217729.0 * x  # 2**27 + 1: Veltkamp's split into two 26-bit halves
    high = c - (c - x)
    return high, x - high


def cosine(a: Any, b: Any) -> float:
    """Cosine of the angle between two non-zero vectors.

    Raises
    ------
    ValueError
        If either vector is zero (it has no direction).

    Examples
    --------
    >>> cosine([1.0, 0.0], [-2.0, 0.0])
    -1.0
    """
    ua, ub = _unit(a, b)
    return float(np.clip(ua @ ub, -1.0, 1.0))


def _lengths(v: np.ndarray) -> np.ndarray:
    """Euclidean lengths along the last axis, each vector scaled by its largest entry first so the squares
    neither overflow nor all underflow; in float64 (longdouble stays longdouble). Zero vectors have length 0."""
    v = v.astype(np.result_type(v.dtype, np.float64), copy=False)
    top = np.abs(v).max(axis=-1, initial=0.0)
    scale = np.where(top > 0, top, 1.0)
    with np.errstate(under="ignore"):
        return top * np.linalg.norm(v / scale[..., None], axis=-1)


def _unit(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors along ``a`` and ``b``, scaled first so that norms neither overflow nor underflow.

    Computed in float64 (longdouble stays longdouble) whatever the input dtype.
    """
    a, b = _pair(a, b)
    w = np.result_type(a.dtype, b.dtype, np.float64)
    out = []
    for name, v in (("a", a), ("b", b)):
        v = v.astype(w, copy=False)
        top = np.abs(v).max()
        if top == 0.0:
            raise ValueError(f"{name} must be a non-zero vector to have a direction, got the zero vector")
        v = v / top  # largest entry +-1: the squares below neither overflow nor all underflow
        with np.errstate(under="ignore"):
            out.append(v / np.sqrt(v @ v))
    return out[0], out[1]


def angle_deg(a: Any, b: Any) -> float:
    """Angle between two non-zero vectors, in degrees, in [0, 180].

    Examples
    --------
    >>> angle_deg([1.0, 0.0], [0.0, 3.0])
    90.0
    """
    ua, ub = _unit(a, b)
    # Kahan's form, 2 atan2(|ua - ub|, |ua + ub|): accurate near 0 and 180 degrees, where arccos is not.
    d, s = ua - ub, ua + ub
    return float(np.degrees(2.0 * np.arctan2(np.sqrt(d @ d), np.sqrt(s @ s))))


def plane_basis(a: Any, b: Any) -> np.ndarray:
    """An orthonormal basis ``(u1, u2)`` of the plane spanned by ``a`` and ``b``, with ``u1`` along ``a``.

    Drawing two d-dimensional vectors in this plane keeps their true lengths and the angle between them.

    Returns
    -------
    numpy.ndarray of shape (2, d)
        In the promoted floating dtype of ``a`` and ``b`` (float64 for integers), computed in
        float64 or wider.

    Raises
    ------
    ValueError
        If ``a`` is zero or ``b`` is parallel to ``a`` (they span no plane). Parallel means: up to
        the rounding error of the inputs' own dtype, so ``b = 3 * a`` rounded to float32 is
        parallel even though its float32 rounding leaves a tiny perpendicular part.

    Examples
    --------
    >>> plane_basis([2.0, 0.0, 0.0], [1.0, 1.0, 0.0])
    array([[1., 0., 0.],
           [0., 1., 0.]])
    """
    a, b = _pair(a, b)  # read once: the checks and the dtype below see the same arrays
    u1, ub = _unit(a, b)
    dtype = np.result_type(*(v.dtype if v.dtype.kind == "f" else np.float64 for v in (a, b)))
    rest = ub - (ub @ u1) * u1  # the part of b's direction not along a
    rest = rest - (rest @ u1) * u1  # once more: the first pass leaves a rounding-sized part along a
    nr = float(np.sqrt(rest @ rest))
    # Rounding b to its dtype moves its direction by up to eps/2; anything below a generous
    # multiple of that is noise, not a second direction (1e-12 covers float64 arithmetic).
    tol = max(32 * float(np.finfo(dtype).eps), 1e-12)
    if nr <= tol:
        raise ValueError(
            f"b must not be parallel to a: together they span no plane (the part of b's direction "
            f"not along a is {nr:.2g}, within the rounding error of dtype {dtype.name})"
        )
    return np.stack([u1, rest / nr]).astype(dtype, copy=False)  # (2, d)


def _reduced_degrees(angle: Any) -> float:
    """``angle`` mod 360, reduced exactly in the angle's own type before it becomes a float64.

    An int is reduced as an int and a longdouble in longdouble (fmod is exact), so 2**64 + 90 degrees
    is 106 degrees, not the float64 nearest 2**64 + 90; 1e300 degrees is the angle it is, not noise.
    """
    angle = unwrap_0d(angle)
    check_real(angle, "angle_degrees", finite=False)  # the type, and no bool
    if is_a(angle, numbers.Rational):  # an int or a Fraction, read by the value it holds, reduced exactly
        return float(exact_real(angle, "angle_degrees") % 360)
    if issubclass(type(angle), np.floating):
        if not np.isfinite(angle):
            raise ValueError(f"angle_degrees must be finite, got {short_repr(angle)}")
        return float(np.fmod(angle, angle.dtype.type(360)))
    return math.fmod(check_real(angle, "angle_degrees"), 360.0)


def in_plane(angle_degrees: float, basis: Any, length: float = 1.0) -> np.ndarray:
    """The d-dimensional vector at ``angle_degrees`` from ``basis[0]`` towards ``basis[1]``.

    Returns
    -------
    numpy.ndarray of shape (d,)
        In ``basis``'s floating dtype, computed in float64 or wider.

    Raises
    ------
    TypeError, ValueError
        If ``basis`` is not a finite ``(2, d)`` array, or ``angle_degrees`` or ``length`` is not a
        finite real number, or the vector overflows ``basis``'s dtype.

    Examples
    --------
    >>> in_plane(90.0, [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]).round(12)
    array([0., 1., 0.])
    """
    basis = check_float_array(basis, "basis", ndim=2)
    if basis.shape[0] != 2:
        raise ValueError(f"basis must have shape (2, d), got shape {basis.shape}")
    check_finite(basis, "basis")
    theta = np.radians(_reduced_degrees(angle_degrees))
    check_nbytes((4, basis.shape[1]), np.result_type(basis.dtype, np.float64), "basis")  # the worked rows
    length = check_real(length, "length")
    w = np.result_type(basis.dtype, np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        v = length * (np.cos(theta) * basis[0].astype(w) + np.sin(theta) * basis[1].astype(w))
    return check_fits(v, "length", basis.dtype)  # (d,) in basis's dtype
