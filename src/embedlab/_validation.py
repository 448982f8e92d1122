"""Checks at the public boundary, in the manner of scikit-learn's ``utils/validation.py``.

Each check names the argument, says what was expected and what arrived. ``TypeError`` for a
wrong type, ``ValueError`` for a wrong value or shape. Checks never scan more data than the
operation itself reads: a lookup of a few rows never looks at the whole of ``E``.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np


def _describe(x: Any) -> str:
    """A short description of what arrived, for error messages."""
    if isinstance(x, np.ndarray):
        return f"an array of dtype {x.dtype} and shape {x.shape}"
    text = repr(x)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{type(x).__name__} {text}"


def check_size(value: Any, name: str) -> int:
    """Return ``value`` as a Python int, requiring a positive integer (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a positive integer, got {_describe(value)}")
    if value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {int(value)}")
    return int(value)


def check_flag(value: Any, name: str) -> bool:
    """Require a real bool, so that ``tied="no"`` is not silently truthy."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {_describe(value)}")
    return bool(value)


def check_ids(ids: Any, vocab_size: int, name: str = "ids") -> np.ndarray:
    """Return ``ids`` as an integer array with every entry in ``[0, vocab_size)``.

    Negative ids are refused: NumPy would silently read from the end of the table.
    """
    if isinstance(ids, (bool, np.bool_)):
        raise TypeError(f"{name} must be integer token ids, got a bool ({ids!r})")
    if isinstance(ids, (str, bytes)):
        raise TypeError(
            f"{name} must be integer token ids, got the string {ids!r}; "
            "use embedlab.token_id(token) to turn a token into its id"
        )
    arr = np.asarray(ids)
    if not isinstance(ids, np.ndarray) and arr.dtype.kind in "iu" and arr.size:
        # A list such as [True, 2] becomes an int array: look for the bools NumPy hid.
        if any(isinstance(x, (bool, np.bool_)) for x in np.asarray(ids, dtype=object).ravel()):
            raise TypeError(f"{name} must be integer token ids, got a sequence containing bools")
    if arr.dtype.kind not in "iu":
        if arr.dtype.kind == "b":
            what = "bool"
        elif arr.dtype.kind in "fc":
            what = f"floating values (dtype {arr.dtype})"
        elif arr.dtype.kind in "USO":
            what = f"non-numeric values (dtype {arr.dtype})"
        else:
            what = f"dtype {arr.dtype}"
        raise TypeError(f"{name} must be integer token ids, got {what}")
    if arr.size == 0:
        raise ValueError(f"{name} must hold at least one token id, got an empty array of shape {arr.shape}")
    lo, hi = int(arr.min()), int(arr.max())
    if lo < 0:
        raise ValueError(
            f"{name} must be in [0, {vocab_size - 1}] (ids are zero-indexed), got {lo}; "
            "negative ids are refused because NumPy would silently return a row counted from the end"
        )
    if hi >= vocab_size:
        raise ValueError(f"{name} must be in [0, {vocab_size - 1}] for a vocabulary of {vocab_size}, got {hi}")
    return arr


def check_float_array(x: Any, name: str, *, ndim: int | None = None, min_ndim: int = 0) -> np.ndarray:
    """Return ``x`` as a floating array without copying a floating input.

    Integer input is converted to float64 (it has no floating dtype to keep); bools, strings,
    objects and complex numbers are refused.
    """
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be an array of real numbers, got the string {x!r}")
    try:
        arr = np.asarray(x)
    except ValueError as exc:  # ragged nested lists
        raise ValueError(f"{name} must be a rectangular array of real numbers: {exc}") from None
    if arr.dtype.kind in "iu":
        arr = arr.astype(np.float64)
    elif arr.dtype.kind != "f":
        raise TypeError(f"{name} must be an array of real numbers, got {_describe(arr)}")
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got {arr.ndim}-D with shape {arr.shape}")
    if arr.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    return arr


def check_finite(arr: np.ndarray, name: str) -> None:
    """Refuse NaN and infinite entries, saying how many and where the first one is."""
    finite = np.isfinite(arr)
    if not finite.all():
        bad = np.argwhere(~finite)
        first = tuple(int(i) for i in bad[0])
        raise ValueError(f"{name} must be finite, got {len(bad)} NaN or infinite value(s), the first at index {first}")


def check_embedding(E: Any) -> np.ndarray:
    """Return ``E`` as a 2-D floating array of shape ``(V, d)``, never copying a float input."""
    return check_float_array(E, "E", ndim=2)


def check_axis(axis: Any, ndim: int, name: str = "axis") -> int:
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {_describe(axis)}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"{name} must be in [{-ndim}, {ndim - 1}] for an array with {ndim} dimension(s), got {axis}")
    return int(axis) % ndim
