"""Tied output logits: the output projection *is* the embedding matrix (worked examples C-E)."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ._validation import (
    _describe,
    check_embedding,
    check_finite,
    check_float_array,
    check_nbytes,
    check_size,
    compact,
    is_a,
    short_repr,
)

__all__ = [
    "check_context",
    "tied_logits",
]


def check_context(h: Any, d: int, dtype: np.dtype) -> np.ndarray:
    """Return ``h`` of shape ``(..., d)`` in ``dtype``: finite, with ``d`` matching ``E``'s width."""
    d = check_size(d, "d")
    if is_a(dtype, numbers.Number):  # np.dtype would read a number's own methods, or fail to print it
        raise TypeError(f"dtype must be a NumPy floating dtype, got {_describe(dtype)}")
    try:
        dtype = np.dtype(dtype)
    except Exception:  # any object np.dtype cannot read is refused as the dtype it is not
        raise TypeError(f"dtype must be a NumPy floating dtype, got {_describe(dtype)}") from None
    if dtype.kind != "f":
        raise TypeError(f"dtype must be a NumPy floating dtype, got {dtype}")
    h = check_float_array(h, "h", min_ndim=1)
    if h.shape[-1] != d:
        if d.bit_length() > 64:  # no array is this wide: the width itself is what is wrong
            raise ValueError(f"d must be an array's width (below 2**64), got {short_repr(d)}")
        raise ValueError(f"h must have shape (..., {d}) to match E's width d={d}, got shape {h.shape}")
    check_finite(h, "h")
    if h.dtype != dtype:
        check_nbytes(h.shape, dtype, "h")  # the cast below writes every entry, broadcast or not
    # Cast the (small) context to E's dtype rather than letting NumPy upcast the (large) E.
    with np.errstate(over="ignore"):
        cast = h.astype(dtype, copy=False)
    if not np.isfinite(cast).all():
        raise ValueError(
            f"h must fit in E's dtype {np.dtype(dtype).name}: some entries overflow it "
            f"(largest |h| is {float(np.abs(h).max()):.3g})"
        )
    return cast


def tied_logits(h: Any, E: Any, bias: Any = None) -> np.ndarray:
    """Score every token against the context: ``z = h @ E.T (+ bias)``.

    This is weight tying: the output projection is ``E`` itself, transposed, so the logit of
    token ``j`` is the dot product of the context with token ``j``'s own embedding row.

    Parameters
    ----------
    h : array_like of shape (..., d)
        Context vector(s), finite.
    E : array_like of shape (V, d)
        The embedding matrix. Used in place and in its own dtype: a float32 ``E`` is neither
        copied nor upcast (``h`` is cast to ``E``'s dtype instead).
    bias : array_like of shape (V,), optional
        An output bias, added to every row of logits.

    Returns
    -------
    numpy.ndarray of shape (..., V)
        The logits, in ``E``'s dtype.

    Raises
    ------
    TypeError
        If ``h``, ``E`` or ``bias`` is not an array of real numbers.
    ValueError
        If ``h``'s last axis is not ``d``, ``bias`` is not of length ``V``, ``h`` or ``bias`` holds
        NaN or inf, or the logits come out non-finite: NaN or inf inside ``E`` (blamed on ``E``),
        ``h @ E.T`` too large for ``E``'s dtype (blamed on ``h`` and ``E``), or adding ``bias``
        overflows (blamed on ``bias``).

    Examples
    --------
    >>> from embedlab import E_TOY
    >>> tied_logits([0.5, 0.2, -0.3], E_TOY).round(2)
    array([-0.24, -0.14, -0.49,  0.51])
    >>> tied_logits(np.zeros((2, 3)), E_TOY, bias=[0.0, 1.0, 0.0, 0.0])
    array([[0., 1., 0., 0.],
           [0., 1., 0., 0.]])
    """
    E = check_embedding(E)
    V, d = E.shape
    h = check_context(h, d, E.dtype)
    check_nbytes((*h.shape[:-1], V), E.dtype, "h")  # one logit per context and token
    if compact(E).shape != E.shape:  # a broadcast E: the product reads it expanded, as the array it would be
        check_nbytes(E.shape, E.dtype, "E")
    if bias is not None:
        bias = check_float_array(bias, "bias")
        if bias.shape != (V,):
            raise ValueError(f"bias must have shape ({V},), one entry per token, got shape {bias.shape}")
        check_finite(bias, "bias")
        with np.errstate(over="ignore"):
            if not np.isfinite(bias.astype(E.dtype, copy=False)).all():
                raise ValueError(
                    f"bias must fit in E's dtype {E.dtype.name}: some entries overflow it "
                    f"(largest |bias| is {float(np.abs(bias).max()):.3g})"
                )
    # NaN/inf inside E, or an overflow, shows up in z; it is reported below, not as a NumPy warning.
    # (NumPy's float16 matmul accumulates in float32 and rounds each logit once.)
    with np.errstate(all="ignore"):
        z = h @ E.T  # (..., V)   <- tying: the output weights are E itself, read in place
    # Checking the V logits costs far less than computing them, and catches NaN/inf inside E
    # without a scan of E on every call.
    if not (np.isfinite(z.min()) and np.isfinite(z.max())):  # NaN propagates; no temporary the size of z
        rows = np.unique(np.argwhere(~np.isfinite(z))[:, -1])[:5].tolist()
        if not np.isfinite(E[rows]).all():
            raise ValueError(
                f"E must be finite: the logits of token id(s) {rows} came out NaN or infinite "
                "(those rows of E hold NaN or inf)"
            )
        raise ValueError(
            f"h and E give logits too large for dtype {E.dtype.name}: h @ E.T overflows for token id(s) {rows}; "
            "scale h or E down, or use a wider dtype"
        )
    if bias is not None:
        with np.errstate(all="ignore"):
            z += bias.astype(z.dtype, copy=False)  # z is this call's own array: added in place, no second copy
        if not (np.isfinite(z.min()) and np.isfinite(z.max())):
            raise ValueError(
                f"bias must keep the logits finite in dtype {E.dtype.name}: adding it overflows for token id(s) "
                f"{np.unique(np.argwhere(~np.isfinite(z))[:, -1])[:5].tolist()}"
            )
    return z
