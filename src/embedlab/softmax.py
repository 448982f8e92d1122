"""Softmax, cross-entropy and saturation (worked examples C, E and F)."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from ._validation import (
    _describe,
    _int_item,
    _no_false_class,
    as_array,
    big_ints_among,
    check_axis,
    check_float_array,
    check_ids,
    check_nbytes,
    check_size,
    compact,
    is_a,
    object_ints,
    passed_ints,
    raise_big_ints,
    read_once,
    work_dtype,
)

__all__ = [
    "cross_entropy",
    "cross_entropy_grad",
    "log_softmax",
    "naive_softmax",
    "saturation_prob",
    "softmax",
]


def _int_logits_shifted(z: Any, name: str, axis: Any) -> Any:
    """Integer logits less their maximum along ``axis``, exactly, as float64; any other input as its array.

    Softmax depends only on differences, and float64 rounds ints beyond 2**53: 2**53 + 1 and 2**53
    would become equal. The differences are taken in the integers first (modulo 2**64 for 64-bit
    arrays, where every difference of two entries fits; in Python's ints beyond that), so only the
    result is rounded. A list holding such integers next to other numbers is refused by name.
    """
    _no_false_class(z, name)
    if issubclass(type(z), (str, bytes, bool, np.bool_)):
        return z
    z = read_once(z, name, "real numbers")  # an array-like or a sequence object: read here, once
    arr = as_array(z, name, "real numbers")  # a list is converted (and walked, and sized) here once
    if arr.ndim == 0 or arr.size == 0:
        return arr
    ints = passed_ints(z, arr, name)  # a list NumPy made float64 or objects, though it held integers
    if ints is None and big_ints_among(z, arr, name):
        raise_big_ints(name)
    if ints is not None:
        arr = ints
    if arr.dtype.kind not in "iuO":
        return arr
    axis = check_axis(axis, arr.ndim)
    check_nbytes((3, *arr.shape), np.float64, name)  # the differences, in two steps, and the floats
    if arr.dtype.kind == "O":
        values = compact(arr)  # a broadcast is worked on its own data, then broadcast again
        if not all(is_a(v, numbers.Integral) and not issubclass(type(v), (bool, np.bool_)) for v in values.ravel()):
            return arr  # not all integers: refused, as every other object array, by check_float_array
        try:
            return np.broadcast_to(_int_logits_shifted(object_ints(values, name), name, axis), arr.shape)
        except ValueError:  # beyond 64 bits: the differences in Python's ints
            exact = np.frompyfunc(lambda v: _int_item(v, name), 1, 1)(values)  # int's own value: no __int__ runs
            top = exact.max(axis=axis, keepdims=True)
            below = np.frompyfunc(_minus_float, 1, 1)(top - exact).astype(np.float64)
            return np.broadcast_to(below, arr.shape)
    top = arr.max(axis=axis, keepdims=True)
    return -(top.astype(np.uint64) - arr.astype(np.uint64)).astype(np.float64)


def _minus_float(x: Any) -> float:
    """``-x`` for an exact non-negative difference, as the nearest float64, or -inf beyond it."""
    try:
        return -float(x)
    except OverflowError:
        return -math.inf


def _check_logits(z: Any, name: str, axis: int) -> tuple[np.ndarray, int]:
    z = check_float_array(_int_logits_shifted(z, name, axis), name, min_ndim=1)
    axis = check_axis(axis, z.ndim)
    # the result, the shifted logits and their exponentials: three arrays of z's shape, broadcast or not
    check_nbytes((3, *z.shape), work_dtype(z.dtype), name)
    data = compact(z)  # checks on the data itself, not on a broadcast view's expansion
    if np.isnan(data).any():
        raise ValueError(f"{name} must not contain NaN, got {int(np.isnan(data).sum())} NaN value(s)")
    if np.isposinf(data).any():
        raise ValueError(
            f"{name} must not contain +inf (softmax would be inf/inf), got {int(np.isposinf(data).sum())} +inf value(s)"
        )
    if not np.isfinite(data).any(axis=axis).all():
        raise ValueError(
            f"{name} must keep at least one finite entry along axis {axis}: a row of all -inf masks every token"
        )
    return z, axis


def _shifted(z: np.ndarray, axis: int) -> np.ndarray:
    """``z - max(z)`` along ``axis`` in the working dtype (float32 for float16 logits).

    The largest entry becomes 0, so ``exp`` cannot overflow. Logits spanning more than the
    dtype's range (``-1e308`` next to ``1e308``) shift to ``-inf``: their probability is 0 in
    that dtype anyway, so the overflow is the right answer and not a warning.
    """
    w = z.astype(work_dtype(z.dtype), copy=False)
    with np.errstate(over="ignore"):
        return w - w.max(axis=axis, keepdims=True)


def softmax(z: Any, axis: int = -1) -> np.ndarray:
    """Turn logits into probabilities that sum to 1 along ``axis``.

    Numerically stable: the largest logit is subtracted first, so logits like 1000 neither
    overflow nor lose the answer. ``-inf`` marks a masked token, which gets probability 0.

    Parameters
    ----------
    z : array_like
        Logits: real, no NaN, no ``+inf``; each slice along ``axis`` keeps a finite entry.
    axis : int, default -1
        The axis that runs over tokens.

    Returns
    -------
    numpy.ndarray
        Probabilities of the same shape, in ``z``'s floating dtype (float64 for integer ``z``).
        float16 logits are exponentiated and summed in float32, then rounded to float16 once:
        a float16 sum of 128256 terms would overflow.

    Raises
    ------
    TypeError
        If ``z`` is not real (or is a masked array) or ``axis`` is not an int.
    ValueError
        If ``z`` is empty or holds NaN or ``+inf``, a slice is all ``-inf``, or ``axis`` is out of range.

    Examples
    --------
    >>> softmax([0.0, 0.0, 0.0, 0.0])
    array([0.25, 0.25, 0.25, 0.25])
    >>> softmax([1000.0, 0.0, -np.inf])
    array([1., 0., 0.])
    """
    z, axis = _check_logits(z, "z", axis)
    e = np.exp(_shifted(z, axis))  # in (0, 1], the largest exactly 1
    with np.errstate(under="ignore"):  # a probability below float16's smallest subnormal is 0
        return (e / e.sum(axis=axis, keepdims=True)).astype(z.dtype, copy=False)


def log_softmax(z: Any, axis: int = -1) -> np.ndarray:
    """Return ``log(softmax(z))`` computed without taking the log of a rounded-off 0.

    A log-probability below the dtype's range is ``-inf``, the log of a probability that is 0 in
    that dtype: a masked ``-inf`` logit gives ``-inf``, and so do logits spanning the dtype's whole
    range (``[-65504, 65504]`` in float16, where the true -131008 has no float16).

    Examples
    --------
    >>> log_softmax([0.0, 0.0]).round(4)
    array([-0.6931, -0.6931])
    """
    return _log_softmax(z, axis, "z")


def _log_softmax(z: Any, axis: int, name: str) -> np.ndarray:
    z, axis = _check_logits(z, name, axis)
    shifted = _shifted(z, axis)
    logp = shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))
    # A log-probability below the dtype's range (only for logits spanning it) rounds to -inf.
    with np.errstate(over="ignore"):
        return logp.astype(z.dtype, copy=False)


def naive_softmax(z: Any) -> np.ndarray:
    """Softmax as first written, ``exp(z) / sum(exp(z))``: a foil, not for use.

    It exists to show what the stable :func:`softmax` avoids: ``exp(1000)`` overflows to inf and
    the answer becomes ``inf / inf = nan``. NumPy's overflow warnings are silenced so the NaN
    itself is what the reader sees.

    Examples
    --------
    >>> naive_softmax([1000.0, 0.0])
    array([nan,  0.])
    """
    z = check_float_array(z, "z", min_ndim=1)  # checked like softmax's input; only the maths is naive
    check_nbytes((3, *z.shape), np.float64, "z")  # z in float64, its exponentials and the result
    if np.isnan(compact(z)).any():
        raise ValueError(f"z must not contain NaN, got {int(np.isnan(compact(z)).sum())} NaN value(s)")
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(z.astype(np.float64))  # always float64: the overflow shown is float64's
        return e / e.sum(axis=-1, keepdims=True)


def _check_targets(logits: np.ndarray, targets: Any) -> np.ndarray:
    targets = check_ids(targets, logits.shape[-1], name="targets")
    if targets.shape != logits.shape[:-1]:
        raise ValueError(
            f"targets must have shape {logits.shape[:-1]} (one target per row of logits), got shape {targets.shape}"
        )
    return targets


def cross_entropy(logits: Any, targets: Any) -> float:
    """Mean negative log-probability of the target tokens.

    Parameters
    ----------
    logits : array_like of shape (..., V)
    targets : int or array_like of int, shape ``logits.shape[:-1]``
        The id of the correct next token for each row of logits.

    Returns
    -------
    float
        Computed in at least float32 (float16 logits are widened).

    Raises
    ------
    TypeError, ValueError
        For logits that :func:`softmax` refuses (named ``logits``), and targets that are not
        valid token ids of the right shape; also if the loss overflows (a target's logit more
        than the dtype's range below the largest).

    Examples
    --------
    >>> round(cross_entropy([0.0, 0.0, 0.0, 0.0], 2), 4)  # log(4)
    1.3863
    """
    z, _ = _check_logits(logits, "logits", -1)
    return _cross_entropy(z, _check_targets(z, targets))


def cross_entropy_grad(logits: Any, targets: Any) -> np.ndarray:
    """Gradient of :func:`cross_entropy` with respect to the logits: ``(softmax - one_hot) / n``.

    Examples
    --------
    >>> cross_entropy_grad([0.0, 0.0, 0.0, 0.0], 2)
    array([ 0.25,  0.25, -0.75,  0.25])
    """
    z, _ = _check_logits(logits, "logits", -1)
    targets = _check_targets(z, targets)
    # the shifted logits, their exponentials, and the gradient with its temporary: four arrays of z's shape
    check_nbytes((4, *z.shape), work_dtype(z.dtype), "logits")
    e, total = _exp_parts(z)[1:]  # the shifted logits are let go before the gradient is made
    return _softmax_minus_one_hot(e, total, targets, z.dtype)


# -- kernels: the maths alone, for inputs already checked (shared with the training loop) -------------


def _exp_parts(z: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(shifted, exp(shifted), sum of exp(shifted))`` along the last axis, in the working dtype."""
    shifted = _shifted(z, -1)
    e = np.exp(shifted)
    return shifted, e, e.sum(axis=-1, keepdims=True)


def _mean_nll(shifted: np.ndarray, total: np.ndarray, targets: np.ndarray, dtype: np.dtype) -> float:
    """Mean of ``-log softmax`` at ``targets``, from :func:`_exp_parts`; ValueError if it is infinite."""
    at = _target_index(targets)
    picked = (shifted[at] - np.log(total[..., 0]))[..., None]  # log-softmax at the targets, working dtype
    work = np.result_type(picked.dtype, np.float64)
    n = picked.size
    with np.errstate(over="ignore"):  # each term divided by n first: the mean of large losses is representable
        loss = float(-(picked.astype(work, copy=False) / n).sum(dtype=work)) + 0.0  # never -0.0
    if not np.isfinite(loss):
        raise ValueError(
            "logits give an infinite loss: a target's logit is further below the largest logit than "
            f"dtype {np.dtype(dtype)} can represent"
        )
    return loss


def _softmax_minus_one_hot(e: np.ndarray, total: np.ndarray, targets: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``(softmax - one_hot) / n`` from :func:`_exp_parts`, rounded to ``dtype``."""
    grad = e / total  # softmax in the working dtype, a fresh array
    grad[_target_index(targets)] -= 1
    with np.errstate(under="ignore"):
        return (grad / targets.size).astype(dtype, copy=False)


def _target_index(targets: np.ndarray) -> tuple[np.ndarray, ...]:
    """The index of each row's target entry in an array of shape ``targets.shape + (V,)``."""
    return (*np.indices(targets.shape, sparse=True), targets)


def _cross_entropy(z: np.ndarray, targets: np.ndarray) -> float:
    """:func:`cross_entropy` for checked logits and targets."""
    shifted, _, total = _exp_parts(z)
    return _mean_nll(shifted, total, targets, z.dtype)


def _cross_entropy_and_grad(z: np.ndarray, targets: np.ndarray) -> tuple[float, np.ndarray]:
    """:func:`cross_entropy` and :func:`cross_entropy_grad` for checked inputs, exponentiating once."""
    shifted, e, total = _exp_parts(z)
    return _mean_nll(shifted, total, targets, z.dtype), _softmax_minus_one_hot(e, total, targets, z.dtype)


def _real_to_float(x: Any) -> float:
    """A real number as the nearest float64, or +-inf beyond it (ints and Fractions of any size); an int
    subclass by the value it holds (its own ``__float__`` never runs)."""
    if issubclass(type(x), int):
        x = int.__index__(x)
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def saturation_prob(t: Any, n_others: int = 3) -> Any:
    """Probability of token 0 when its logit is ``t`` and ``n_others`` logits are 0.

    ``P0(t) = e^t / (e^t + n_others)``, computed from ``e^-|t|`` so that nothing overflows
    for ``t`` of any size: it tends to 1 as ``t -> +inf`` and to 0 as
    ``t -> -inf``, where each other token tends to ``1 / n_others``.

    Parameters
    ----------
    t : float or array_like
        The winner's logit; ``+-inf`` give the limits. NaN is refused.
    n_others : int, default 3
        How many other tokens sit at logit 0.

    Returns
    -------
    float or numpy.ndarray
        A Python float for a scalar ``t``; otherwise an array in ``t``'s floating dtype
        (float64 for integers), computed in float64 (or longdouble).

    Examples
    --------
    >>> saturation_prob(0.0)
    0.25
    >>> saturation_prob(1000.0), saturation_prob(-np.inf)
    (1.0, 0.0)
    """
    n = check_size(n_others, "n_others")
    _no_false_class(t, "t")
    if issubclass(type(t), (str, bytes, bool, np.bool_, complex, np.complexfloating)):
        raise TypeError(f"t must be a real number or array of real numbers, got {_describe(t)}")
    t = read_once(t, "t", "real numbers")  # an array-like or a sequence object: read here, once
    raw = as_array(t, "t", "real numbers")
    ints = passed_ints(t, raw, "t")  # a list NumPy made float64 or objects, though it held integers
    if ints is not None:
        raw = ints
    elif raw.dtype.kind == "f":
        t = raw  # a list's floats, or ints NumPy rounded to float64: harmless here (see below)
    # Ints of any size, and other real objects (a Python int beyond 64 bits next to a float), are
    # rounded to float64, or +-inf beyond it: P0 changes with t alone, not with differences, and it
    # is 0 or 1 to the last place long before ints and floats part. A broadcast is read once.
    if raw.dtype.kind in "iu" and raw.size and raw.dtype.itemsize > 4:
        check_nbytes(raw.shape, np.float64, "t")
        t = raw.astype(np.float64)
    elif raw.dtype.kind == "O" and raw.size:
        data = compact(raw)
        if all(is_a(x, numbers.Real) and not issubclass(type(x), (bool, np.bool_)) for x in data.ravel()):
            check_nbytes(raw.shape, np.float64, "t")
            floats = np.array([_real_to_float(x) for x in data.ravel()], dtype=np.float64).reshape(data.shape)
            t = np.broadcast_to(floats, raw.shape) if floats.shape != raw.shape else floats
    arr = check_float_array(t, "t")
    # the working copy, the exponentials, both branches of np.where and their temporaries, and the result
    check_nbytes((8, *arr.shape), np.result_type(arr.dtype, np.float64), "t")
    if np.isnan(compact(arr)).any():
        raise ValueError(f"t must not be NaN, got {int(np.isnan(compact(arr)).sum())} NaN value(s)")
    w = arr.astype(np.result_type(arr.dtype, np.float64), copy=False)  # float64, or longdouble
    with np.errstate(under="ignore", over="ignore"):
        if n < 2**1000:
            nf = w.dtype.type(n)
            e = np.exp(-np.abs(w))  # in [0, 1]: never overflows
            # t >= 0: 1 / (1 + n e^-t);  t < 0: e^t / (e^t + n). Both exact at t = 0 (1 / (1 + n)).
            p = np.where(w >= 0, 1.0 / (1.0 + nf * e), e / (e + nf))
        else:  # n beyond float range: P0 = sigmoid(t - log n), with log n taken of the exact int
            x = w - math.log(n)
            ex = np.exp(-np.abs(x))
            p = np.where(x >= 0, 1.0 / (1.0 + ex), ex / (1.0 + ex))
    if p.ndim == 0:
        return float(p)
    with np.errstate(under="ignore"):
        return p.astype(arr.dtype, copy=False)
