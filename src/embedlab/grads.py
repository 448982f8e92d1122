"""The two gradient paths into a tied ``E`` (worked example H).

``E`` is used twice, as the input table and as the output projection, so by the chain rule
over a shared variable its gradient is the sum of what reaches it along each path.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._validation import check_finite, check_fits, check_float_array, check_ids, check_nbytes, check_size, work_dtype

__all__ = [
    "embedding_grad",
    "output_grad",
    "tied_grad",
]


def embedding_grad(ids: Any, upstream: Any, vocab_size: int) -> np.ndarray:
    """Gradient reaching ``E`` through the lookup: row ``i`` sums the upstream rows of every ``i`` in ``ids``.

    Repeated ids accumulate. No Python loop over ids and no one-hot matrix: the ids are sorted
    once and each run of equal ids is summed with ``np.add.reduceat``.

    Parameters
    ----------
    ids : int or array_like of int
        Token ids that were looked up, any shape, each in ``[0, vocab_size)``.
    upstream : array_like of shape ``ids.shape + (d,)``
        Gradient of the loss with respect to the looked-up rows; finite.
    vocab_size : int
        V, the number of rows of the result.

    Returns
    -------
    numpy.ndarray of shape (vocab_size, d)
        In ``upstream``'s floating dtype (float16 rows are summed in float32, rounded once);
        rows of ids never looked up are 0.

    Raises
    ------
    TypeError, ValueError
        For invalid ids, a non-positive ``vocab_size`` (or one whose ``(V, d)`` result would not
        fit in memory), an ``upstream`` of the wrong shape, NaN/inf in ``upstream``, or sums
        that overflow ``upstream``'s dtype.

    Examples
    --------
    >>> embedding_grad([1, 1, 3], [[1.0, 0.0], [2.0, 0.0], [0.0, 5.0]], vocab_size=4)
    array([[0., 0.],
           [3., 0.],
           [0., 0.],
           [0., 5.]])
    """
    V = check_size(vocab_size, "vocab_size")
    ids, upstream = _check_upstream(ids, upstream, V)
    check_nbytes((V, upstream.shape[-1]), upstream.dtype, "vocab_size")
    return _embedding_grad(ids, upstream, V)


def _check_upstream(ids: Any, upstream: Any, V: int) -> tuple[np.ndarray, np.ndarray]:
    """Checked ``ids`` and ``upstream`` (finite floats of shape ``ids.shape + (d,)``)."""
    ids = check_ids(ids, V)
    upstream = check_float_array(upstream, "upstream", min_ndim=1)
    if upstream.shape[:-1] != ids.shape:
        raise ValueError(f"upstream must have shape ids.shape + (d,) = {(*ids.shape, 'd')}, got shape {upstream.shape}")
    check_finite(upstream, "upstream")
    check_nbytes(upstream.shape, work_dtype(upstream.dtype), "upstream")  # its rows are gathered in id order, whole
    return ids, upstream


def output_grad(h: Any, grad_logits: Any) -> np.ndarray:
    """Gradient reaching ``E`` through the tied output projection ``z = h @ E.T``.

    Since ``z[..., j] = h[...] . E[j]``, the gradient is ``grad_logits^T h``, summed over every
    leading axis (every context in the batch).

    Parameters
    ----------
    h : array_like of shape (..., d)
        The contexts that were scored; finite.
    grad_logits : array_like of shape (..., V)
        Gradient of the loss with respect to the logits, same leading shape as ``h``; finite.

    Returns
    -------
    numpy.ndarray of shape (V, d)
        In the promoted dtype of ``h`` and ``grad_logits``, accumulated in at least float32.

    Raises
    ------
    TypeError, ValueError
        If ``h`` or ``grad_logits`` is not a finite real array, their leading shapes differ,
        or the gradient overflows their dtype.

    Examples
    --------
    >>> output_grad([1.0, 2.0], [0.5, 0.0, -0.5])
    array([[ 0.5,  1. ],
           [ 0. ,  0. ],
           [-0.5, -1. ]])
    """
    return _output_grad(*_check_output_path(h, grad_logits))


def _check_output_path(h: Any, grad_logits: Any) -> tuple[np.ndarray, np.ndarray]:
    """Checked ``h`` (..., d) and ``grad_logits`` (..., V): finite floats with one row of logits per context."""
    h = check_float_array(h, "h", min_ndim=1)
    grad_logits = check_float_array(grad_logits, "grad_logits", min_ndim=1)
    if h.shape[:-1] != grad_logits.shape[:-1]:
        raise ValueError(
            "h and grad_logits must share their leading shape (one row of logits per context), "
            f"got h of shape {h.shape} and grad_logits of shape {grad_logits.shape}"
        )
    check_finite(h, "h")
    check_finite(grad_logits, "grad_logits")
    d, V = h.shape[-1], grad_logits.shape[-1]
    dtype = np.result_type(h.dtype, grad_logits.dtype)
    check_nbytes(h.shape, work_dtype(dtype), "h")  # the product reads each input whole, broadcast views expanded
    check_nbytes(grad_logits.shape, work_dtype(dtype), "grad_logits")
    # in total: the inputs in the working dtype, the (V, d) product and its cast to the inputs' dtype
    check_nbytes((2 * V * d + h.size + grad_logits.size,), work_dtype(dtype), "h and grad_logits")
    return h, grad_logits


def tied_grad(ids: Any, upstream: Any, h: Any, grad_logits: Any, vocab_size: int) -> np.ndarray:
    """The whole gradient of a tied ``E``: :func:`embedding_grad` plus :func:`output_grad`.

    Computed without materialising the input path as a dense ``(V, d)`` array: its few
    non-zero rows are added into the output path's gradient in place.

    Parameters
    ----------
    ids, upstream, vocab_size
        As for :func:`embedding_grad` (the input path).
    h, grad_logits
        As for :func:`output_grad` (the output path); ``grad_logits`` must have ``vocab_size``
        columns and ``h`` the same width ``d`` as ``upstream``.

    Returns
    -------
    numpy.ndarray of shape (vocab_size, d)

    Examples
    --------
    >>> g = tied_grad([1], [[0.10, -0.20, 0.30]], [1.0, 0.0, 0.0], [0, 0.05, 0, 0], vocab_size=4)
    >>> g[1].round(2)
    array([ 0.15, -0.2 ,  0.3 ])
    """
    V = check_size(vocab_size, "vocab_size")
    ids, upstream = _check_upstream(ids, upstream, V)  # input path
    h, grad_logits = _check_output_path(h, grad_logits)  # output path
    d = upstream.shape[-1]
    if grad_logits.shape[-1] != V or h.shape[-1] != d:
        raise ValueError(
            f"grad_logits must have {V} columns (vocab_size) and h width {d} "
            f"(the width of upstream), got grad_logits of shape {grad_logits.shape} and h of shape {h.shape}"
        )
    return _tied_grad(ids, upstream, h, grad_logits)


# -- kernels: the maths alone, for inputs already checked (shared with the training loop) -------------


def _row_sums(ids: np.ndarray, upstream: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ids and, for each, the sum of its upstream rows: ``(rows (k,), sums (k, d))``."""
    d = upstream.shape[-1]
    flat_ids = ids.reshape(-1)  # (n,)
    order = np.argsort(flat_ids, kind="stable")
    sorted_ids = flat_ids[order]
    starts = np.flatnonzero(np.r_[True, sorted_ids[1:] != sorted_ids[:-1]])  # first index of each run
    # float16 rows are summed in float32 and rounded once: float16 sums overflow at 65504.
    rows_sorted = upstream.reshape(-1, d)[order].astype(work_dtype(upstream.dtype), copy=False)
    with np.errstate(over="ignore", invalid="ignore"):
        sums = np.add.reduceat(rows_sorted, starts, axis=0)  # (k, d)
    return sorted_ids[starts], check_fits(sums, "upstream", upstream.dtype)


def _embedding_grad(ids: np.ndarray, upstream: np.ndarray, V: int) -> np.ndarray:
    """:func:`embedding_grad` for checked inputs."""
    rows, sums = _row_sums(ids, upstream)
    grad = np.zeros((V, sums.shape[1]), dtype=sums.dtype)  # (V, d)
    grad[rows] = sums
    return grad


def _output_grad(h: np.ndarray, grad_logits: np.ndarray) -> np.ndarray:
    """:func:`output_grad` for checked inputs."""
    d, V = h.shape[-1], grad_logits.shape[-1]
    dtype = np.result_type(h.dtype, grad_logits.dtype)
    w = work_dtype(dtype)
    with np.errstate(all="ignore"):
        g = grad_logits.reshape(-1, V).T.astype(w, copy=False) @ h.reshape(-1, d).astype(w, copy=False)  # (V, d)
    if not (np.isfinite(g.min()) and np.isfinite(g.max())):  # no (V, d) temporary
        raise ValueError(
            f"h and grad_logits give a gradient too large for dtype {np.dtype(w).name} (it overflows to inf); "
            "scale them down"
        )
    return check_fits(g, "h and grad_logits", dtype)


def _tied_grad(ids: np.ndarray, upstream: np.ndarray, h: np.ndarray, grad_logits: np.ndarray) -> np.ndarray:
    """:func:`tied_grad` for checked inputs."""
    rows, sums = _row_sums(ids, upstream)  # input path, only the rows that were looked up
    grad = _output_grad(h, grad_logits)  # output path: every row, (V, d), freshly allocated
    grad = grad.astype(np.result_type(grad, sums), copy=False)
    with np.errstate(over="ignore", invalid="ignore"):
        grad[rows] += sums  # rows are distinct, so fancy-indexed += adds each sum once
    if not np.isfinite(grad[rows]).all():
        raise ValueError(
            f"upstream and grad_logits give a gradient too large for dtype {grad.dtype.name}: "
            "the sum of the two paths overflows; scale them down"
        )
    return grad
