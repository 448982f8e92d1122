"""Embedding lookup, and the one-hot product it is equal to (worked examples A and B)."""

from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from typing import Any

import numpy as np

from ._validation import check_embedding, check_ids, check_nbytes, check_size

__all__ = [
    "lookup",
    "one_hot",
    "one_hot_cost",
]


def lookup(E: Any, ids: Any) -> np.ndarray:
    """Return the rows of ``E`` for the token ids ``ids``.

    Lookup is retrieval, not arithmetic: the result holds rows of ``E`` exactly.

    Parameters
    ----------
    E : array_like of shape (V, d)
        The embedding matrix, one row per token. A floating array of any dtype (float16 to
        longdouble) and any layout (C, Fortran, strided views) is read in place, never copied.
        An integer array is read in place too; only the looked-up rows become float64.
    ids : int or array_like of int
        Zero-indexed token ids, any shape, each in ``[0, V)``.

    Returns
    -------
    numpy.ndarray of shape ``ids.shape + (d,)``
        Row ``E[i]`` for each id ``i``, in the dtype of ``E`` (float64 for an integer ``E``).

    Raises
    ------
    TypeError
        If ``ids`` are not integers (floats, bools, strings), or ``E`` is not real, or either
        is a masked array.
    ValueError
        If an id is negative or ``>= V``, ``ids`` is empty or ragged, or ``E`` is not 2-D.

    Notes
    -----
    Safe to call from several threads, from a child process made by ``fork`` and from ``atexit``
    handlers: a large gather uses a thread pool that is re-created in a forked child and is
    bypassed when the interpreter is shutting down.

    Examples
    --------
    >>> from embedlab import E_TOY
    >>> lookup(E_TOY, 2)
    array([-0.9,  0.1,  0.2])
    >>> lookup(E_TOY, [[0, 3]]).shape
    (1, 2, 3)
    """
    E = check_embedding(E, convert_int=False)  # an integer E is converted row by row, below, not whole
    ids = check_ids(ids, E.shape[0])
    check_nbytes((*ids.shape, E.shape[1]), np.result_type(E.dtype, np.float16), "ids")  # many ids of a wide E
    rows = _gather_rows(E, ids)  # (*ids.shape, d)
    return rows if rows.dtype.kind == "f" else rows.astype(np.float64)


# Above this many bytes of result, the gather is split across threads (np.take releases the GIL).
_PARALLEL_BYTES = 1 << 20

# The pool is created on first use and forgotten in a child made by fork (its threads do not
# exist there); the lock makes creation safe when several threads call lookup at once.
_pool_lock = threading.Lock()
_pool_instance: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _pool_instance
    with _pool_lock:
        if _pool_instance is None:
            _pool_instance = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="embedlab-gather")
        return _pool_instance


def _forget_pool_after_fork() -> None:
    """In a forked child the parent's worker threads are gone: start afresh (never wait on them)."""
    global _pool_instance, _pool_lock
    _pool_instance = None
    _pool_lock = threading.Lock()  # the parent may have held it at the moment of the fork


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_forget_pool_after_fork)


def _gather_rows(E: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """``E[ids]`` for ids already checked to be in range, never copying ``E``.

    ``np.take`` is faster than fancy indexing here, and a large gather is memory-bound, so it is
    split into one chunk per core. ``mode="clip"`` skips a second bounds check (and the
    buffering NumPy does for ``out=`` in the default mode); the ids were checked already.
    ``np.take`` first makes a C-contiguous copy of a non-contiguous ``E`` (all of it, to read a
    few rows), so such an ``E`` is read with fancy indexing instead, which follows its strides.
    When threads cannot be used (interpreter shutting down, pool shut down) the gather runs here.
    """
    flat = ids.reshape(-1)
    if not E.flags.c_contiguous:
        return E[flat].reshape(*ids.shape, E.shape[1])  # (*ids.shape, d), no copy of E
    out = np.empty((flat.size, E.shape[1]), dtype=E.dtype)  # (n, d)
    workers = os.cpu_count() or 1
    if out.nbytes < _PARALLEL_BYTES or workers == 1 or sys.is_finalizing():
        np.take(E, flat, axis=0, out=out, mode="clip")
    else:
        bounds = np.linspace(0, flat.size, workers + 1).astype(int)
        jobs = []
        for a, b in pairwise(bounds):
            try:
                jobs.append(_pool().submit(np.take, E, flat[a:b], 0, out[a:b], "clip"))
            except RuntimeError:  # "cannot schedule new futures" in atexit handlers or after shutdown
                np.take(E, flat[a:b], axis=0, out=out[a:b], mode="clip")
        for job in jobs:
            job.result()
    return out.reshape(*ids.shape, E.shape[1])


def one_hot(ids: Any, vocab_size: int) -> np.ndarray:
    """Return one-hot rows for ``ids``: a 1 at each id, 0 elsewhere.

    Parameters
    ----------
    ids : int or array_like of int
        Zero-indexed token ids, any shape, each in ``[0, vocab_size)``.
    vocab_size : int
        V, the length of each one-hot vector.

    Returns
    -------
    numpy.ndarray of shape ``ids.shape + (vocab_size,)``, float64

    Raises
    ------
    TypeError, ValueError
        For ids that are not valid token ids, or a ``vocab_size`` that is not a positive int.

    Examples
    --------
    >>> one_hot(1, 4)
    array([0., 1., 0., 0.])
    >>> one_hot([0, 3], 4) @ np.eye(4)[:, :2]
    array([[1., 0.],
           [0., 0.]])
    """
    vocab_size = check_size(vocab_size, "vocab_size")
    ids = check_ids(ids, vocab_size)
    check_nbytes((*ids.shape, vocab_size), np.float64, "vocab_size")
    out = np.zeros((ids.size, vocab_size))  # (n, V)
    out[np.arange(ids.size), ids.reshape(-1)] = 1.0
    return out.reshape(*ids.shape, vocab_size)  # (*ids.shape, V)


def one_hot_cost(vocab_size: int, d_model: int, n_tokens: int = 1) -> dict[str, int]:
    """Count the arithmetic of ``one_hot(ids) @ E`` against a lookup of the same rows.

    The product does ``V * d`` multiplications and ``(V - 1) * d`` additions per token, all but
    ``d`` of the multiplications by zero; the lookup does no arithmetic and copies ``d`` numbers.

    Parameters
    ----------
    vocab_size, d_model : int
        V and d.
    n_tokens : int, default 1
        How many ids are embedded.

    Returns
    -------
    dict
        ``multiplies``, ``adds``, ``wasted_multiplies`` (by zero) for the product, and
        ``lookup_copies`` (numbers copied by the lookup).

    Examples
    --------
    >>> one_hot_cost(4, 3)
    {'multiplies': 12, 'adds': 9, 'wasted_multiplies': 9, 'lookup_copies': 3}
    """
    V = check_size(vocab_size, "vocab_size")
    d = check_size(d_model, "d_model")
    n = check_size(n_tokens, "n_tokens")
    return {
        "multiplies": n * V * d,
        "adds": n * (V - 1) * d,
        "wasted_multiplies": n * (V - 1) * d,
        "lookup_copies": n * d,
    }
