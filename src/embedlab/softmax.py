"""Softmax, cross-entropy and saturation (worked examples C, E and F)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._validation import check_axis, check_float_array, check_ids, check_size


def _check_logits(z: Any, name: str, axis: int) -> tuple[np.ndarray, int]:
    z = check_float_array(z, name, min_ndim=1)
    axis = check_axis(axis, z.ndim)
    if np.isnan(z).any():
        raise ValueError(f"{name} must not contain NaN, got {int(np.isnan(z).sum())} NaN value(s)")
    if np.isposinf(z).any():
        raise ValueError(
            f"{name} must not contain +inf (softmax would be inf/inf), got {int(np.isposinf(z).sum())} +inf value(s)"
        )
    if not np.isfinite(z).any(axis=axis).all():
        raise ValueError(
            f"{name} must keep at least one finite entry along axis {axis}: a row of all -inf masks every token"
        )
    return z, axis


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
        Probabilities of the same shape, in ``z``'s floating dtype.

    Raises
    ------
    TypeError
        If ``z`` is not real or ``axis`` is not an int.
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
    shifted = z - z.max(axis=axis, keepdims=True)  # largest entry becomes 0: exp cannot overflow
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(z: Any, axis: int = -1) -> np.ndarray:
    """Return ``log(softmax(z))`` computed without taking the log of a rounded-off 0.

    Examples
    --------
    >>> log_softmax([0.0, 0.0]).round(4)
    array([-0.6931, -0.6931])
    """
    z, axis = _check_logits(z, "z", axis)
    shifted = z - z.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


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
    z = np.asarray(z, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(z)
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

    Examples
    --------
    >>> round(cross_entropy([0.0, 0.0, 0.0, 0.0], 2), 4)  # log(4)
    1.3863
    """
    logp = log_softmax(logits)
    targets = _check_targets(logp, targets)
    picked = np.take_along_axis(logp, targets[..., None], axis=-1)
    return float(-picked.mean())


def cross_entropy_grad(logits: Any, targets: Any) -> np.ndarray:
    """Gradient of :func:`cross_entropy` with respect to the logits: ``(softmax - one_hot) / n``.

    Examples
    --------
    >>> cross_entropy_grad([0.0, 0.0, 0.0, 0.0], 2)
    array([ 0.25,  0.25, -0.75,  0.25])
    """
    probs = softmax(logits)
    targets = _check_targets(probs, targets)
    grad = probs.copy()
    np.put_along_axis(grad, targets[..., None], np.take_along_axis(probs, targets[..., None], axis=-1) - 1, axis=-1)
    return grad / max(targets.size, 1)


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
        A Python float for a scalar ``t``.

    Examples
    --------
    >>> saturation_prob(0.0)
    0.25
    >>> saturation_prob(1000.0), saturation_prob(-np.inf)
    (1.0, 0.0)
    """
    n = check_size(n_others, "n_others")
    arr = np.asarray(t)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"t must be a real number or array of real numbers, got {type(t).__name__} {t!r}")
    arr = arr.astype(np.float64)
    if np.isnan(arr).any():
        raise ValueError("t must not be NaN")
    e = np.exp(-np.abs(arr))  # in (0, 1]: never overflows
    # t >= 0: 1 / (1 + n e^-t);  t < 0: e^t / (e^t + n). Both exact at t = 0 (1 / (1 + n)).
    p = np.where(arr >= 0, 1.0 / (1.0 + n * e), e / (e + n))
    return float(p) if p.ndim == 0 else p
