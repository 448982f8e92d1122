"""A tiny tied language model, small enough to check its gradient by finite differences (example H).

Context tokens are looked up in ``E``, averaged, passed through a fixed body ``h = tanh(x @ W)``,
and scored by the tied head ``z = h @ E.T``; the loss is cross-entropy against the next token.
``E`` is used twice, so its gradient has two paths, which :func:`tiny_model_grads` returns apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._validation import check_embedding, check_finite, check_float_array, check_ids, check_real, short_repr, type_name
from .grads import embedding_grad, output_grad
from .logits import tied_logits
from .lookup import lookup
from .softmax import cross_entropy, cross_entropy_grad

__all__ = [
    "MAX_FD_ENTRIES",
    "finite_difference_grad",
    "tiny_model_grads",
    "tiny_model_loss",
]


def _check_body(W: Any, d: int) -> np.ndarray:
    W = check_float_array(W, "W", ndim=2)
    if W.shape != (d, d):
        raise ValueError(f"W must have shape ({d}, {d}) to match E's width, got shape {W.shape}")
    check_finite(W, "W")
    return W


def _check_model(E: Any, ids: Any, target: Any, W: Any) -> tuple[np.ndarray, np.ndarray, int, np.ndarray]:
    E = check_embedding(E)
    V, d = E.shape
    check_finite(E, "E")  # the tiny model reads all of E anyway, in its tied head
    W = _check_body(W, d)
    ids = check_ids(ids, V).reshape(-1)  # (n,)
    t = check_ids(target, V, name="target")
    if t.ndim != 0:
        raise ValueError(f"target must be one token id, got shape {t.shape}")
    return E, ids, int(t), W


def _body(x: np.ndarray, W: np.ndarray) -> np.ndarray:
    """``tanh(x @ W)``, refusing an ``x @ W`` too large for its dtype (partial sums could be inf - inf)."""
    with np.errstate(all="ignore"):
        pre = x @ W  # (d,)
    if not np.isfinite(pre).all():
        raise ValueError(f"W and E give x @ W too large for dtype {pre.dtype.name} (it overflows); scale W or E down")
    return np.tanh(pre)  # (d,)


def tiny_model_loss(E: Any, ids: Any, target: int, W: Any) -> float:
    """Cross-entropy of the tiny tied model predicting ``target`` after the context ``ids``.

    Examples
    --------
    >>> from embedlab import E_TOY
    >>> round(tiny_model_loss(E_TOY, [2, 0], 1, np.eye(3)), 4)
    1.2902
    """
    E, ids, target, W = _check_model(E, ids, target, W)
    x = lookup(E, ids).mean(axis=0)  # (d,)
    h = _body(x, W)  # (d,)
    return cross_entropy(tied_logits(h, E), target)


def tiny_model_grads(E: Any, ids: Any, target: int, W: Any) -> tuple[np.ndarray, np.ndarray]:
    """The two gradients of :func:`tiny_model_loss` with respect to ``E``: ``(input path, output path)``.

    Their sum is the whole gradient of the tied ``E``.

    Examples
    --------
    >>> from embedlab import E_TOY
    >>> g_in, g_out = tiny_model_grads(E_TOY, [2, 0], 1, np.eye(3))
    >>> g_in.shape, g_out.shape
    ((4, 3), (4, 3))
    """
    E, ids, target, W = _check_model(E, ids, target, W)
    V, d = E.shape
    x = lookup(E, ids).mean(axis=0)  # (d,)
    h = _body(x, W)  # (d,)
    z = tied_logits(h, E)  # (V,)
    dz = cross_entropy_grad(z, target)  # (V,)
    g_out = output_grad(h, dz)  # path 1: E as the output projection
    with np.errstate(all="ignore"):
        dh = dz @ E  # (d,)
        dx = (dh * (1.0 - h**2)) @ W.T  # back through tanh and W
    if not np.isfinite(dx).all():
        raise ValueError(f"W and E give a gradient too large for dtype {dx.dtype.name} (it overflows); scale them down")
    upstream = np.broadcast_to(dx / len(ids), (len(ids), d))  # each looked-up row got 1/n of x
    g_in = embedding_grad(ids, upstream, V)  # path 2: E as the input table
    return g_in, g_out


#: Most entries of ``E`` that :func:`finite_difference_grad` perturbs, one at a time.
MAX_FD_ENTRIES = 100_000


def finite_difference_grad(loss: Callable[[np.ndarray], float], E: Any, eps: float = 1e-6) -> np.ndarray:
    """Central finite differences ``(L(E + eps) - L(E - eps)) / 2 eps``, one entry of ``E`` at a time.

    An independent check of an analytic gradient: it knows nothing of the chain rule.

    Examples
    --------
    >>> finite_difference_grad(lambda M: float((M ** 2).sum()), np.array([[1.0, -2.0]])).round(6)
    array([[ 2., -4.]])
    """
    if not callable(loss) or issubclass(type(loss), type):  # a class is called to make an object, not a loss
        raise TypeError(f"loss must be a function loss(E) -> float, got {type_name(loss)}")
    E = check_embedding(E)
    if E.size > MAX_FD_ENTRIES:
        raise ValueError(
            f"E must have at most {MAX_FD_ENTRIES:,} entries for finite differences (two loss calls each), "
            f"got shape {E.shape}"
        )
    given = E
    with np.errstate(over="ignore"):  # a longdouble past float64's range becomes inf, refused below
        E = np.array(given, dtype=np.float64)  # a private float64 copy to perturb
    if not np.all(np.isfinite(E)):
        biggest = given.flat[int(np.argmax(np.abs(given)))]
        raise ValueError(f"E must fit float64 (finite differences run in float64), got an entry {short_repr(biggest)}")
    eps = check_real(eps, "eps")
    if not 0 < eps <= 1:
        raise ValueError(f"eps must be a positive number, at most 1, got {short_repr(eps)}")
    if eps < 64 * float(np.spacing(np.abs(E).max())):  # E + eps would round back to E: a difference of 0
        raise ValueError(f"eps must be well above the spacing of floats at E's largest entry, got {eps:g}")
    grad = np.zeros_like(E)
    for idx in np.ndindex(*E.shape):
        old = E[idx]
        E[idx] = old + eps
        up = check_real(loss(E), "loss(E)")
        E[idx] = old - eps
        down = check_real(loss(E), "loss(E)")
        E[idx] = old
        with np.errstate(over="ignore"):
            grad[idx] = (up - down) / (2 * eps)
        if not np.isfinite(grad[idx]):
            raise ValueError(f"loss(E) changes too fast for eps {eps:g}: its central difference at {idx} overflows")
    return grad
