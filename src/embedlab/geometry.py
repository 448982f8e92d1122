"""Dot products, cosines and angles: the geometry of alignment (worked example D)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._validation import check_finite, check_float_array


def _vector(x: Any, name: str) -> np.ndarray:
    x = check_float_array(x, name, ndim=1)
    check_finite(x, name)
    return x


def _pair(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    a, b = _vector(a, "a"), _vector(b, "b")
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same length, got {a.shape[0]} and {b.shape[0]}")
    return a, b


def dot(a: Any, b: Any) -> float:
    """Multiply matching slots and add: the score a tied output layer gives a token.

    Examples
    --------
    >>> round(dot([0.5, 0.2, -0.3], [0.6, 0.3, -0.5]), 10)
    0.51
    """
    a, b = _pair(a, b)
    return float(a @ b)


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


def _unit(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors along ``a`` and ``b``, scaled first so that norms neither overflow nor underflow."""
    a, b = _pair(a, b)
    out = []
    for name, v in (("a", a), ("b", b)):
        top = float(np.abs(v).max())
        if top == 0.0:
            raise ValueError(f"{name} must be a non-zero vector to have a direction, got the zero vector")
        v = v / top
        out.append(v / np.linalg.norm(v))
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
    return float(np.degrees(2.0 * np.arctan2(np.linalg.norm(ua - ub), np.linalg.norm(ua + ub))))


def plane_basis(a: Any, b: Any) -> np.ndarray:
    """An orthonormal basis ``(u1, u2)`` of the plane spanned by ``a`` and ``b``, with ``u1`` along ``a``.

    Drawing two d-dimensional vectors in this plane keeps their true lengths and the angle between them.

    Returns
    -------
    numpy.ndarray of shape (2, d)

    Raises
    ------
    ValueError
        If ``a`` is zero or ``b`` is parallel to ``a`` (they span no plane).

    Examples
    --------
    >>> plane_basis([2.0, 0.0, 0.0], [1.0, 1.0, 0.0])
    array([[1., 0., 0.],
           [0., 1., 0.]])
    """
    u1, ub = _unit(a, b)
    rest = ub - (ub @ u1) * u1  # the part of b's direction not along a
    nr = float(np.linalg.norm(rest))
    if nr <= 1e-12:
        raise ValueError("b must not be parallel to a: together they span no plane")
    return np.stack([u1, rest / nr])  # (2, d)


def in_plane(angle_degrees: float, basis: Any, length: float = 1.0) -> np.ndarray:
    """The d-dimensional vector at ``angle_degrees`` from ``basis[0]`` towards ``basis[1]``.

    Examples
    --------
    >>> in_plane(90.0, [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]).round(12)
    array([0., 1., 0.])
    """
    basis = check_float_array(basis, "basis", ndim=2)
    if basis.shape[0] != 2:
        raise ValueError(f"basis must have shape (2, d), got shape {basis.shape}")
    theta = np.radians(float(angle_degrees))
    if not np.isfinite(theta):
        raise ValueError(f"angle_degrees must be finite, got {angle_degrees!r}")
    return length * (np.cos(theta) * basis[0] + np.sin(theta) * basis[1])
