"""A small next-token model trained tied and untied, in NumPy with embedlab's own gradients (notebook I).

The model reads the ``k`` tokens before each target, averages their rows of ``E``, optionally passes
the mean through one hidden layer, and scores every token of the vocabulary::

    x = mean(E[ctx])                      # (n, d)
    h = tanh(x @ Wh + bh)  or  h = x      # (n, d), with or without the hidden layer
    logits = h @ E.T   (tied)             # (n, V): the output projection *is* E
    logits = h @ W.T   (untied)           # (n, V): a separate output matrix W
    loss = cross_entropy(logits, targets)

The backward pass is :func:`~embedlab.cross_entropy_grad`, :func:`~embedlab.output_grad` and
:func:`~embedlab.embedding_grad` (added up by :func:`~embedlab.tied_grad` when tied): one copy of the
maths. Training is minibatch Adam; every random choice comes from ``np.random.default_rng(seed)``.
"""

from __future__ import annotations

import itertools
import math
import numbers
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._validation import (
    _describe,
    _has,
    _is_one_of,
    as_array,
    check_choice,
    check_finite,
    check_fits,
    check_flag,
    check_float_array,
    check_ids,
    check_nbytes,
    check_real,
    check_size,
    compact,
    exact_int,
    exact_real,
    is_a,
    iter_items,
    plain_items,
    plain_str,
    range_len,
    short_repr,
    type_name,
    work_dtype,
)
from .budget import param_count
from .corpus import Corpus, context_windows, make_corpus
from .geometry import _lengths
from .grads import _embedding_grad, _output_grad, _tied_grad
from .lookup import _gather_rows
from .softmax import _cross_entropy, _cross_entropy_and_grad

__all__ = [
    "ADAMW_DECAY",
    "EVAL_PAIRS",
    "MAX_ADAM_T",
    "MAX_SEEDS",
    "MAX_STEPS",
    "OPTIMIZERS",
    "PARAM_NAMES",
    "CompareResult",
    "FitResult",
    "TrainResult",
    "adam_state",
    "adam_step",
    "class_cosine",
    "compare",
    "fit",
    "geometry_track",
    "init_params",
    "loss",
    "loss_and_grads",
    "matched_width",
    "model_param_count",
    "pca_2d",
    "train",
]

PARAM_NAMES = ("E", "W", "Wh", "bh")
EVAL_PAIRS = 2000  # the training loss at a checkpoint is measured on this many pairs, a fixed sample


# -- the model ---------------------------------------------------------------------------------


def init_params(vocab_size: int, d: int, *, tied: bool, hidden: bool = True, seed: int = 0) -> dict[str, np.ndarray]:
    """Initial parameters: ``E`` (V, d), ``W`` (V, d) when untied, ``Wh`` (d, d) and ``bh`` (d,) with a hidden layer.

    ``E`` is drawn first from the seeded generator, so a tied and an untied model with the same
    seed start from the same ``E``. Entries are normal with standard deviation ``1 / sqrt(d)``
    (``Wh``) and 0.5 (``E``, ``W``); ``bh`` starts at 0.

    Examples
    --------
    >>> p = init_params(10, 4, tied=False, seed=1)
    >>> sorted(p), p["E"].shape, p["W"].shape
    (['E', 'W', 'Wh', 'bh'], (10, 4), (10, 4))
    >>> np.array_equal(p["E"], init_params(10, 4, tied=True, seed=1)["E"])
    True
    """
    V = check_size(vocab_size, "vocab_size")
    d = check_size(d, "d")
    tied = check_flag(tied, "tied")
    hidden = check_flag(hidden, "hidden")
    check_nbytes((3 * V + d + 1, d), np.float64, "vocab_size and d")  # E, the W drawn either way, a temporary, Wh
    rng = np.random.default_rng(_check_seed(seed))
    params = {"E": 0.5 * rng.standard_normal((V, d))}  # (V, d)
    W = 0.5 * rng.standard_normal((V, d))  # drawn either way, so what follows does not depend on tying
    if not tied:
        params["W"] = W  # (V, d)
    if hidden:
        params["Wh"] = rng.standard_normal((d, d)) / np.sqrt(d)  # (d, d)
        params["bh"] = np.zeros(d)  # (d,)
    return params


def model_param_count(vocab_size: int, d: int, *, tied: bool, hidden: bool = True) -> int:
    """Parameters of the model: example G's :func:`~embedlab.param_count` plus the hidden layer's ``d*d + d``.

    Examples
    --------
    >>> model_param_count(127, 16, tied=True), model_param_count(127, 16, tied=False)
    (2304, 4336)
    """
    hidden = check_flag(hidden, "hidden")
    d = check_size(d, "d")
    return param_count(vocab_size, d, tied=tied) + (d * d + d if hidden else 0)


def matched_width(vocab_size: int, d: int, *, hidden: bool = True) -> int:
    """The width ``d'`` of an untied model whose parameter count is nearest a tied model's of width ``d``.

    Ties between two widths go to the smaller.

    Examples
    --------
    >>> matched_width(127, 16)  # 2376 parameters against the tied model's 2304
    9
    """
    target = model_param_count(vocab_size, d, tied=True, hidden=hidden)
    d = check_size(d, "d")  # a plain int (checked by model_param_count too): the search below uses only it
    if d > 65_536:  # one Python-level count per candidate width: bounded, so the search stays fast
        raise ValueError(f"d must be at most 65,536, got {d:,}")
    widths = np.arange(1, d + 1)
    gaps = [abs(model_param_count(vocab_size, int(w), tied=False, hidden=hidden) - target) for w in widths]
    return int(widths[int(np.argmin(gaps))])


def _check_params(params: Any) -> tuple[dict[str, np.ndarray], bool, bool]:
    """Validate a parameter dict; return it with float arrays, and whether it is tied and has a hidden layer."""
    if type(params) is not dict:  # a plain dict: a subclass's own items or get never run
        raise TypeError(f"params must be a dict of arrays (see init_params), got {type_name(params)}")
    if not all(type(k) is str for k in params):
        odd = next(k for k in params if type(k) is not str)
        raise TypeError(f"params must have str keys (plain str), got the key {_describe(odd)}")
    unknown = sorted(set(params) - set(PARAM_NAMES))
    if unknown or "E" not in params:
        raise ValueError(
            f"params must hold 'E' and optionally 'W', 'Wh', 'bh'; got keys {short_repr(sorted(params), 200)}"
        )
    if ("Wh" in params) != ("bh" in params):
        raise ValueError("params must hold both 'Wh' and 'bh' (a hidden layer) or neither")
    out = {name: check_float_array(value, name) for name, value in params.items()}
    E = out["E"]
    if E.ndim != 2:
        raise ValueError(f"E must be 2-D (vocab_size, d), got shape {E.shape}")
    V, d = E.shape
    expected = {"E": (V, d), "W": (V, d), "Wh": (d, d), "bh": (d,)}
    for name, value in out.items():
        if value.shape != expected[name]:
            raise ValueError(
                f"{name} must have shape {expected[name]} to match E of shape {E.shape}, got {value.shape}"
            )
        check_finite(value, name)
    return out, "W" not in out, "Wh" in out


def _check_batch(batch: Any, V: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    if not (issubclass(type(batch), tuple) and tuple.__len__(batch) == 2):  # a subclass's own len never runs
        raise TypeError(f"batch must be a tuple (contexts, targets), got {type_name(batch)}")
    contexts = check_ids(tuple.__getitem__(batch, 0), V, name="contexts")
    targets = check_ids(tuple.__getitem__(batch, 1), V, name="targets")
    if contexts.ndim != 2 or targets.shape != contexts.shape[:1]:
        raise ValueError(
            "batch must be (contexts of shape (n, k), targets of shape (n,)), "
            f"got contexts of shape {contexts.shape} and targets of shape {targets.shape}"
        )
    return contexts, targets


def _check_work(p: dict[str, np.ndarray], contexts: np.ndarray) -> np.dtype:
    """Refuse, before anything is allocated, a forward and backward pass the machine cannot hold, counted in
    total and broadcast views as the arrays they become; return the dtype the pass runs in (float16 in float32)."""
    dtype = work_dtype(*(value.dtype for value in p.values()))
    V, d = p["E"].shape
    n, k = contexts.shape
    params = sum(value.size for value in p.values())
    # the parameters in the working dtype, their gradients, the transposes a product may make
    check_nbytes((3 * params + d * d,), dtype, "params")
    # the rows looked up (n, k, d); logits, shifted logits, exponentials, softmax, its gradient and a cast
    # (n, V) each; the hidden layer and its gradients (n, d)
    check_nbytes((3 * params + d * d + n * k * d + 6 * n * V + 6 * n * d,), dtype, "batch")
    return dtype


def _on_callers_params(kernel: Any, p: dict[str, np.ndarray], contexts: np.ndarray, targets: np.ndarray) -> Any:
    """``kernel`` on a caller's checked parameters and batch: float16 computed in float32, and an overflow
    refused by name instead of warned about or returned as inf."""
    dtype = _check_work(p, contexts)
    p = {name: value.astype(dtype, copy=False) for name, value in p.items()}  # a copy only for float16
    too_large = (
        f"params are too large for this batch: the logits or gradients overflow {dtype} "
        "(the parameters must be scaled down)"
    )
    try:
        with np.errstate(all="ignore"):
            out = kernel(p, contexts, targets)
    except ValueError:  # the parameters and batch were checked: only an overflow gets here
        raise ValueError(too_large) from None
    L, grads = out if issubclass(type(out), tuple) else (out, {})
    if not np.isfinite(L) or not all(np.isfinite(g).all() for g in grads.values()):
        raise ValueError(too_large)
    return out


def _forward(p: dict[str, np.ndarray], contexts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(x, h, logits)`` for already-validated parameters and contexts."""
    x = _gather_rows(p["E"], contexts).mean(axis=1)  # (n, d)
    h = np.tanh(x @ p["Wh"] + p["bh"]) if "Wh" in p else x  # (n, d)
    head = p.get("W", p["E"])  # tied: the output projection is E itself, the same array
    return x, h, h @ head.T  # logits (n, V)


def _eval_loss(p: dict[str, np.ndarray], contexts: np.ndarray, targets: np.ndarray, chunk: int = 256) -> float:
    """Mean cross-entropy over many pairs, in chunks: a few small products beat one large one on a busy
    2-core machine, where a multithreaded product waits for a thread that is descheduled."""
    total = 0.0
    for i in range(0, len(targets), chunk):
        ctx, y = contexts[i : i + chunk], targets[i : i + chunk]
        total += len(y) * _cross_entropy(_forward(p, ctx)[2], y)
    return total / len(targets)


def loss(params: dict[str, Any], batch: tuple[Any, Any]) -> float:
    """Mean cross-entropy of the model on ``batch = (contexts (n, k), targets (n,))``.

    Examples
    --------
    >>> p = init_params(5, 3, tied=True, seed=0)
    >>> round(loss(p, (np.array([[0, 1], [2, 2]]), np.array([3, 4]))), 4)
    1.487
    """
    p, _, _ = _check_params(params)
    contexts, targets = _check_batch(batch, *p["E"].shape)
    return _on_callers_params(_batch_loss, p, contexts, targets)


def _batch_loss(p: dict[str, np.ndarray], contexts: np.ndarray, targets: np.ndarray) -> float:
    return _cross_entropy(_forward(p, contexts)[2], targets)


def loss_and_grads(params: dict[str, Any], batch: tuple[Any, Any]) -> tuple[float, dict[str, np.ndarray]]:
    """The loss of :func:`loss` and its gradient with respect to every parameter.

    Parameters
    ----------
    params : dict of str to array_like
        ``E`` (V, d); ``W`` (V, d) for an untied head (absent: tied); ``Wh`` (d, d) and ``bh`` (d,)
        for the hidden layer (absent: none). Finite floats.
    batch : tuple (contexts, targets)
        ``contexts`` int array (n, k) of the ``k`` tokens before each target, ``targets`` (n,).

    Returns
    -------
    loss : float
    grads : dict of str to numpy.ndarray
        One gradient per parameter, same keys and shapes. When tied, ``grads["E"]`` is the sum
        of the input path (:func:`~embedlab.embedding_grad`) and the output path
        (:func:`~embedlab.output_grad`), added by :func:`~embedlab.tied_grad`.

    Raises
    ------
    TypeError, ValueError
        For parameters of the wrong keys, types or shapes, ids outside ``[0, V)``, a pass too large for
        this machine's memory, or parameters so large that the logits or gradients overflow.

    Notes
    -----
    float16 parameters are computed in float32, and their gradients are returned in float32.

    Examples
    --------
    >>> p = init_params(5, 3, tied=True, seed=0)
    >>> L, g = loss_and_grads(p, (np.array([[0, 1], [2, 2]]), np.array([3, 4])))
    >>> round(L, 4), sorted(g), g["E"].shape
    (1.487, ['E', 'Wh', 'bh'], (5, 3))
    """
    p, _, _ = _check_params(params)
    contexts, targets = _check_batch(batch, *p["E"].shape)
    return _on_callers_params(_loss_and_grads, p, contexts, targets)


def _loss_and_grads(
    p: dict[str, np.ndarray], contexts: np.ndarray, targets: np.ndarray
) -> tuple[float, dict[str, np.ndarray]]:
    """:func:`loss_and_grads` for checked parameters and batch: the kernel the training loop runs."""
    V, d = p["E"].shape
    n, k = contexts.shape
    x, h, logits = _forward(p, contexts)
    L, dz = _cross_entropy_and_grad(logits, targets)  # dz (n, V): (softmax - one_hot) / n
    grads: dict[str, np.ndarray] = {}
    dh = dz @ p.get("W", p["E"])  # (n, d)
    if "Wh" in p:
        da = dh * (1.0 - h**2)  # back through tanh, (n, d)
        grads["Wh"] = x.T @ da  # (d, d)
        grads["bh"] = da.sum(axis=0)  # (d,)
        dx = da @ p["Wh"].T  # (n, d)
    else:
        dx = dh
    upstream = np.broadcast_to((dx / k)[:, None, :], (n, k, d))  # each of the k rows read got 1/k of x
    if "W" not in p:
        # Both paths reach the one matrix: input (rows read) + output (every row).
        grads["E"] = _tied_grad(contexts, upstream, h, dz)  # (V, d)
    else:
        grads["E"] = _embedding_grad(contexts, upstream, V)  # input path only: rows read, others exactly 0
        grads["W"] = _output_grad(h, dz)  # the output path lands on W instead, (V, d)
    return L, grads


# -- training ----------------------------------------------------------------------------------

#: The optimizers :func:`train` and :func:`fit` know: plain SGD, Adam, and AdamW (Adam with decoupled weight decay).
OPTIMIZERS = ("sgd", "adam", "adamw")

#: AdamW's weight decay when none is given: ``torch.optim.AdamW``'s default.
ADAMW_DECAY = 0.01

#: Most training steps one run may take (a bound on the loop and on the per-step records).
MAX_STEPS = 1_000_000

#: Most steps Adam's state may count (2**53: the largest run of ints a float64 holds exactly).
MAX_ADAM_T = 2**53

#: Most seeds :func:`compare` runs.
MAX_SEEDS = 1_000


def _check_param_dict(params: Any, name: str, *, in_place: bool = False) -> dict[str, np.ndarray]:
    """A dict of named finite floating arrays (no copies); with ``in_place``, writable NumPy arrays."""
    if type(params) is not dict or not params:  # a plain dict: a subclass's own items or get never run
        raise TypeError(f"{name} must be a non-empty dict of name -> float array, got {type_name(params)}")
    out = {}
    for key, value in params.items():
        if type(key) is not str:  # a plain str: a subclass's own ==, hash or repr never runs
            raise TypeError(f"{name} must have plain str keys, got {_describe(key)}")
        where = f"{name}[{short_repr(key)}]"
        if in_place and not (issubclass(type(value), np.ndarray) and value.flags.writeable):
            raise TypeError(
                f"{where} must be a writable NumPy float array (it is updated in place), got {_kind(value)}"
            )
        arr = check_float_array(value, where, convert_int=False)
        check_finite(arr, where)
        out[key] = arr
    return out


def _kind(value: Any) -> str:
    if issubclass(type(value), np.ndarray):
        return "a read-only array (a broadcast view, say)"
    return type(value).__name__


def adam_state(params: dict[str, np.ndarray]) -> dict[str, Any]:
    """Adam's state for ``params``: the step count and both moments of every parameter, at zero."""
    params = _check_param_dict(params, "params")
    for k, v in params.items():
        check_nbytes((2, *v.shape), work_dtype(v.dtype), f"params[{k!r}]")  # both moments, broadcast views expanded
    # float16 parameters keep float32 moments: a gradient of 300 squared would overflow float16
    return {
        "t": 0,
        "m": {k: np.zeros(v.shape, work_dtype(v.dtype)) for k, v in params.items()},
        "v": {k: np.zeros(v.shape, work_dtype(v.dtype)) for k, v in params.items()},
    }


def adam_step(
    params: dict[str, np.ndarray],
    grads: dict[str, np.ndarray],
    state: dict[str, Any],
    lr: float,
    betas: tuple[float, float] = (0.9, 0.999),
    eps: float = 1e-8,
) -> None:
    """One Adam update of ``params`` in place (Kingma and Ba, 2015; the form of ``torch.optim.Adam``).

    A parameter entry whose gradient has always been 0 keeps its first moment at 0 and so does
    not move at all: an untied row of ``E`` that is never read stays exactly at its initialisation.

    Examples
    --------
    >>> p = {"E": np.array([[1.0, 2.0]])}
    >>> st = adam_state(p)
    >>> adam_step(p, {"E": np.array([[0.5, 0.0]])}, st, lr=0.1)
    >>> p["E"].round(6).tolist(), st["t"]
    ([[0.9, 2.0]], 1)
    """
    params = _check_param_dict(params, "params", in_place=True)
    grads = _check_param_dict(grads, "grads")
    for key, g in grads.items():
        if key not in params:
            raise ValueError(
                f"grads must name parameters of params {short_repr(sorted(params))}, got {short_repr(key)}"
            )
        if g.shape != params[key].shape:  # a (1, d) gradient must not be broadcast onto every row
            raise ValueError(
                f"grads[{short_repr(key)}] must have the shape of params[{short_repr(key)}] {params[key].shape}, "
                f"got {g.shape}"
            )
    lr = check_real(lr, "lr")
    if lr <= 0:
        raise ValueError(f"lr must be positive, got {short_repr(lr)}")
    pair = plain_items(betas, "betas", "a pair of floats in [0, 1)") if issubclass(type(betas), (tuple, list)) else ()
    if len(pair) != 2:
        raise TypeError(f"betas must be a pair of floats in [0, 1), got {short_repr(betas)}")
    b1, b2 = (check_real(b, "betas") for b in pair)
    if not (0 <= b1 < 1 and 0 <= b2 < 1):
        raise ValueError(f"betas must be in [0, 1), got {short_repr(betas)}")
    eps = check_real(eps, "eps")
    if not 1e-30 <= eps <= 1.0:  # below it, squared gradients that underflow to 0 would give steps of 1/eps
        raise ValueError(
            f"eps must be in [1e-30, 1] (it keeps the step finite where a gradient was 0), got {short_repr(eps)}"
        )
    # Plain dicts with plain str keys, as adam_state makes them: no key's (or dict subclass's) own code runs.
    plain_keys = type(state) is dict and all(type(k) is str for k in state)
    plain_keys = plain_keys and all(type(state.get(p)) is dict and all(type(k) is str for k in state[p]) for p in "mv")
    t = state.get("t") if plain_keys else None
    if not (plain_keys and {"t", "m", "v"} <= set(state) and issubclass(type(t), int)):
        raise TypeError("state must be the dict adam_state(params) made")
    if issubclass(type(t), bool):
        raise TypeError(f"state['t'] must count the steps taken, an int, got {_describe(t)}")
    t = int.__index__(t)  # the count it holds: a subclass's own comparisons never run
    if not 0 <= t < MAX_ADAM_T:
        raise ValueError(f"state['t'] must count the steps taken, an int in [0, {MAX_ADAM_T:,}), got {short_repr(t)}")
    for part in ("m", "v"):
        for key in grads:
            held = state[part].get(key)
            if not issubclass(type(held), np.ndarray):
                raise ValueError(
                    f"state must be adam_state(params) for these params: its {part!r} lacks {short_repr(key)}"
                )
            where = f"state[{part!r}][{short_repr(key)}]"
            if held.shape != params[key].shape:
                raise ValueError(
                    f"{where} must have the shape of params[{short_repr(key)}] {params[key].shape}, got {held.shape}"
                )
            if held.dtype.kind != "f":  # a running mean: float, as adam_state makes it
                raise TypeError(f"{where} must be a float array (a running mean), got {_describe(held)}")
            check_finite(check_float_array(held, where, convert_int=False), where)
            if part == "v" and (compact(held) < 0).any():
                raise ValueError(f"{where} must be non-negative (a running mean of squared gradients)")
    # new moments, parameters and the step's temporaries, for every parameter at once, sized before any is made
    work = work_dtype(*(state["m"][k].dtype for k in grads))
    check_nbytes((6 * sum(params[k].size for k in grads),), work, "params")
    moment_dtype = np.result_type(*(state["m"][k].dtype for k in grads))
    if eps < 100 * np.sqrt(np.finfo(moment_dtype).tiny):  # squared gradients below tiny underflow to 0
        raise ValueError(
            f"eps must be at least {100 * np.sqrt(np.finfo(moment_dtype).tiny):.1e} for moments in {moment_dtype}: "
            f"a smaller gradient's square underflows to 0 and its step would be g / eps, got {short_repr(eps)}"
        )
    # The step is computed aside and kept only if every moment and parameter is finite: an overflow is refused
    # by name and leaves params and state as they were.
    t += 1
    new = {}
    with np.errstate(all="ignore"):
        for name, g in grads.items():
            g = g.astype(state["m"][name].dtype, copy=False)  # the same arithmetic as the loop's kernel below
            m = b1 * state["m"][name] + (1 - b1) * g
            v = b2 * state["v"][name] + (1 - b2) * g**2
            p = params[name] - lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + eps)
            p_cast = p.astype(params[name].dtype, copy=False)
            if not all(np.isfinite(a.min()) and np.isfinite(a.max()) for a in (m, v, p_cast)):
                raise ValueError(
                    f"grads[{short_repr(name)}] and lr give a step that overflows dtype {params[name].dtype} "
                    "(a moment or the parameter would become inf); scale the gradients or lr down"
                )
            new[name] = (m, v, p_cast)
    for name, (m, v, p) in new.items():
        state["m"][name], state["v"][name] = m, v
        params[name][...] = p
    state["t"] = t


def _adam_step(
    params: dict[str, np.ndarray],
    grads: dict[str, np.ndarray],
    state: dict[str, Any],
    lr: float,
    betas: tuple[float, float] = (0.9, 0.999),
    eps: float = 1e-8,
) -> None:
    """:func:`adam_step` without its checks: the training loop's kernel, on arrays checked where they entered."""
    b1, b2 = betas
    state["t"] += 1
    t = state["t"]
    for name, g in grads.items():
        g = g.astype(state["m"][name].dtype, copy=False)  # float16 gradients squared in float32 (a no-op for float64)
        m = state["m"][name] = b1 * state["m"][name] + (1 - b1) * g
        v = state["v"][name] = b2 * state["v"][name] + (1 - b2) * g**2
        params[name] -= lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + eps)


def _check_optimizer(optimizer: Any, weight_decay: Any) -> tuple[str, float]:
    if not issubclass(type(optimizer), str):
        raise TypeError(f"optimizer must be one of {OPTIMIZERS}, got {_describe(optimizer)}")
    optimizer = plain_str(optimizer)  # compared as the text it holds
    if optimizer not in OPTIMIZERS:
        raise ValueError(f"optimizer must be one of {OPTIMIZERS}, got {short_repr(optimizer)}")
    if weight_decay is None:
        return optimizer, ADAMW_DECAY if optimizer == "adamw" else 0.0
    if optimizer != "adamw":
        raise ValueError(
            "weight_decay is AdamW's (optimizer='adamw'); "
            f"got weight_decay={short_repr(weight_decay)} with {optimizer!r}"
        )
    if issubclass(type(weight_decay), bool) or not is_a(weight_decay, numbers.Real):
        raise TypeError(f"weight_decay must be a real number in [0, 1), got {type_name(weight_decay)}")
    weight_decay = exact_real(weight_decay, "weight_decay")
    if not 0 <= weight_decay < 1:
        raise ValueError(f"weight_decay must be in [0, 1), got {short_repr(weight_decay)}")
    return optimizer, float(weight_decay)


_NUMPY_INTS = frozenset(t for t in np.sctypeDict.values() if issubclass(type(t), type) and issubclass(t, np.integer))


def _numpy_type(x: Any) -> bool:
    """Whether ``x``'s class is one of NumPy's own integer types (not a subclass made elsewhere)."""
    return _is_one_of(type(x), _NUMPY_INTS)


def _plain_dict(d: Any) -> bool:
    """Whether ``d`` is a plain dict (not a subclass) with plain str keys: read without running a caller's code."""
    return type(d) is dict and all(type(k) is str for k in d)


def _check_seed(seed: Any, name: str = "seed") -> int:
    """A seed: a non-negative int. ``name`` is ``"seeds"`` for one of :func:`compare`'s."""
    must = f"{name} must be a non-negative int" if name == "seed" else f"{name} must hold non-negative ints"
    if issubclass(type(seed), bool) or not is_a(seed, numbers.Integral):
        raise TypeError(f"{must}, got {type_name(seed)} {short_repr(seed)}")
    seed = exact_int(seed, name)
    if seed < 0:
        raise ValueError(f"{must}, got {short_repr(seed)}")
    return int(seed)


def _check_positive_float(value: Any, name: str) -> float:
    if issubclass(type(value), bool) or not is_a(value, numbers.Real):
        raise TypeError(f"{name} must be a positive real number, got {_describe(value)}")
    value = exact_real(value, name)
    try:
        with np.errstate(over="ignore"):  # a longdouble beyond float64 becomes inf, refused below
            number = float(value)
    except OverflowError:  # an int beyond float64
        number = np.inf
    if not 0 < number < np.inf:
        raise ValueError(f"{name} must be a positive finite number, got {short_repr(value)}")
    return number


def _check_steps(steps: Any, name: str) -> int:
    steps = check_size(steps, name)
    if steps > MAX_STEPS:
        raise ValueError(f"{name} must be at most {MAX_STEPS:,}, got {steps:,}")
    return steps


class _Run:
    """One model, its data and its optimizer: what :func:`train` and :func:`fit` share.

    Random streams: the initialisation from ``seed`` (:func:`init_params`), the batch order from
    ``[seed, 1]`` and the sample on which the training loss is measured from ``[seed, 2]``.
    """

    def __init__(
        self,
        corpus: Any,
        *,
        tied: Any,
        d: Any,
        hidden: Any,
        k: Any,
        batch_size: Any,
        lr: Any,
        seed: Any,
        optimizer: Any,
        weight_decay: Any,
    ) -> None:
        if corpus is None:
            corpus = make_corpus(0)
        if not issubclass(type(corpus), Corpus):
            raise TypeError(f"corpus must be an embedlab.corpus.Corpus (see make_corpus), got {type_name(corpus)}")
        self.tied = check_flag(tied, "tied")
        self.hidden = check_flag(hidden, "hidden")
        self.d, self.k = check_size(d, "d"), check_size(k, "k")
        self.batch_size = check_size(batch_size, "batch_size")
        self.lr = _check_positive_float(lr, "lr")
        self.seed = _check_seed(seed)
        self.optimizer, self.weight_decay = _check_optimizer(optimizer, weight_decay)
        if self.lr * self.weight_decay >= 1:
            raise ValueError(
                f"lr times weight_decay must be below 1 (AdamW multiplies every weight by 1 - lr * weight_decay), "
                f"got lr {self.lr} and weight_decay {self.weight_decay}"
            )
        for split in ("train", "valid", "test"):
            sentences = getattr(corpus, split)
            if not issubclass(type(sentences), tuple) or not sentences:
                raise ValueError(f"corpus must hold at least one sentence in each split, its {split} split has none")
        self.corpus = corpus
        V = self.V = corpus.vocab_size
        # Parameters, gradients, two moments and kept copies: refuse a model the machine cannot hold.
        model = 16 * (V + self.d) * self.d  # with room for the step's temporaries
        check_nbytes((model,), np.float64, "d")
        if self.k > max(len(s) for s in corpus.train):
            raise ValueError(
                f"k must be at most the longest sentence ({max(len(s) for s in corpus.train)}), got {self.k}"
            )
        # and, in total with it, a step's batch: rows looked up, logits, exponentials, their gradient
        check_nbytes((model + self.batch_size * (self.k * self.d + 3 * V + 6 * self.d),), np.float64, "batch_size")
        windows = {}
        for split in ("train", "valid", "test"):
            try:
                ctx, y = context_windows(getattr(corpus, split), self.k)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"corpus has a malformed {split} split: {exc}") from None
            if min(ctx.min(), y.min()) < 0 or max(ctx.max(), y.max()) >= V:
                raise ValueError(f"corpus's {split} split holds token ids outside [0, {V - 1}]")
            windows[split] = (ctx, y)
        self.train_ctx, self.train_y = windows["train"]  # (N, k), (N,)
        self.valid_ctx, self.valid_y = windows["valid"]
        self.test_windows = windows["test"]
        self.probe = np.random.default_rng([self.seed, 2]).permutation(len(self.train_y))[:EVAL_PAIRS]
        self.params = init_params(V, self.d, tied=self.tied, hidden=self.hidden, seed=self.seed)
        self.rng = np.random.default_rng([self.seed, 1])  # the batch order: a stream apart from the initialisation
        self.state = adam_state(self.params) if self.optimizer != "sgd" else None
        self.order, self.cursor = self.rng.permutation(len(self.train_y)), 0
        self.n_params = model_param_count(V, self.d, tied=self.tied, hidden=self.hidden)

    def step(self) -> tuple[float, np.ndarray]:
        """One minibatch update; returns the batch's loss before it and which rows of ``E`` had a gradient."""
        if self.cursor + self.batch_size > len(self.order):
            self.order, self.cursor = self.rng.permutation(len(self.train_y)), 0
        idx = self.order[self.cursor : self.cursor + self.batch_size]
        self.cursor += self.batch_size
        # The data and parameters were checked once, when the run began: each step runs the kernels.
        L, grads = self._guarded(_loss_and_grads, self.params, self.train_ctx[idx], self.train_y[idx])
        touched = np.any(grads["E"] != 0, axis=1)  # (V,) rows of E with a gradient this step
        with np.errstate(all="ignore"):  # a step too large to represent is reported below, not warned
            if self.optimizer == "sgd":
                for name, g in grads.items():
                    self.params[name] -= self.lr * g
            else:
                if self.optimizer == "adamw":
                    # Decoupled weight decay (Loshchilov and Hutter, 2019; torch.optim.AdamW): every
                    # weight shrinks towards 0 at every step, gradient or not, before Adam's update.
                    for value in self.params.values():
                        value *= 1.0 - self.lr * self.weight_decay
                _adam_step(self.params, grads, self.state, self.lr)
        if not all(np.isfinite(v).all() for v in self.params.values()):
            raise ValueError(f"lr {self.lr} is too large: training diverged (a parameter became NaN or inf)")
        return L, touched

    def _guarded(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` on parameters that training produced: an overflow there means a diverged run."""
        try:
            with np.errstate(all="ignore"):
                return fn(*args)
        except ValueError as exc:  # the inputs were checked at the start: only divergence gets here
            raise ValueError(f"lr {self.lr} is too large: training diverged ({str(exc)[:120]})") from None

    def train_loss(self, params: dict[str, np.ndarray] | None = None) -> float:
        params = self.params if params is None else params
        return self._guarded(_eval_loss, params, self.train_ctx[self.probe], self.train_y[self.probe])

    def valid_loss(self) -> float:
        return self._guarded(_eval_loss, self.params, self.valid_ctx, self.valid_y)

    def test_loss(self, params: dict[str, np.ndarray]) -> float:
        return self._guarded(_eval_loss, params, *self.test_windows)


@dataclass(frozen=True)
class TrainResult:
    """What :func:`train` records.

    Attributes
    ----------
    tied, hidden, d, k, seed, steps, lr, optimizer, weight_decay : as passed to :func:`train`
    n_params : int
        :func:`model_param_count` of the model.
    params : dict of str to numpy.ndarray
        The final parameters.
    E_init : numpy.ndarray (V, d)
        A copy of ``E`` before the first step.
    batch_loss : numpy.ndarray (steps,)
        The loss of each step's minibatch, before its update.
    checkpoint_steps : numpy.ndarray (c,)
        Steps after which the state was recorded; 0 is the initialisation, the last is ``steps``.
    train_loss, valid_loss : numpy.ndarray (c,)
        Loss over the whole training and validation split at each checkpoint.
    E_checkpoints : numpy.ndarray (c, V, d)
        ``E`` at each checkpoint.
    W_checkpoints : numpy.ndarray (c, V, d) or None
        The untied output matrix at each checkpoint (None when tied).
    rows_touched : numpy.ndarray (steps,)
        How many rows of ``E`` got a non-zero gradient at each step.
    row_updates : numpy.ndarray (V,)
        At how many steps each row of ``E`` got a non-zero gradient.
    seconds : float
        Wall time of the training loop.
    """

    tied: bool
    hidden: bool
    d: int
    k: int
    seed: int
    steps: int
    n_params: int
    params: dict[str, np.ndarray]
    E_init: np.ndarray
    batch_loss: np.ndarray
    checkpoint_steps: np.ndarray
    train_loss: np.ndarray
    valid_loss: np.ndarray
    E_checkpoints: np.ndarray
    W_checkpoints: np.ndarray | None
    rows_touched: np.ndarray
    row_updates: np.ndarray
    lr: float = 0.02
    optimizer: str = "adam"
    weight_decay: float = 0.0
    seconds: float = field(repr=False, default=0.0)

    @property
    def final_valid_loss(self) -> float:
        """The validation loss at the last checkpoint."""
        v = self.valid_loss  # a TrainResult is frozen, but one made by hand or by dataclasses.replace is unchecked
        if type(v) is not np.ndarray:
            raise TypeError(f"valid_loss must be a NumPy array of losses, as train records it, got {_describe(v)}")
        if v.ndim != 1 or not v.size or v.dtype.kind != "f":
            raise ValueError(
                f"valid_loss must be a non-empty 1-D float array, as train records it, got {short_repr(v)}"
            )
        loss = float(v[-1])
        if not 0 <= loss <= _MAX_RECORDED:
            raise ValueError(f"valid_loss must end with a loss (finite, at least 0), got {short_repr(loss)}")
        return loss


def train(
    corpus: Corpus | None = None,
    *,
    tied: bool,
    d: int = 16,
    hidden: bool = True,
    k: int = 3,
    steps: int = 300,
    batch_size: int = 128,
    lr: float = 0.02,
    n_checkpoints: int = 16,
    seed: int = 0,
    optimizer: str = "adam",
    weight_decay: float | None = None,
) -> TrainResult:
    """Train the model on ``corpus`` for a fixed number of steps and record loss curves, checkpoints and row updates.

    For a run that stops at its best validation loss, see :func:`fit`.

    Parameters
    ----------
    corpus : Corpus, optional
        Default ``make_corpus(0)``.
    tied : bool
        Whether the output projection is ``E`` itself.
    d : int, default 16
        Width of ``E`` (and ``W``).
    hidden : bool, default True
        Whether a hidden layer ``tanh(x @ Wh + bh)`` sits between the mean of the context and the head.
    k : int, default 3
        Tokens of context before each target.
    steps, batch_size : int, default 300 and 128
        Optimizer steps, each on ``batch_size`` (context, target) pairs drawn without replacement.
    lr : float, default 0.02
        The step size (Adam's and AdamW's with betas 0.9 and 0.999, or SGD's).
    n_checkpoints : int, default 16
        How many times to record the state, spread evenly over training; at least 2 (start and end).
        At most ``steps + 1`` are recorded (one per step and the start): more would repeat steps.
    seed : int, default 0
        Seeds the initialisation and the order of the minibatches.
    optimizer : {"adam", "adamw", "sgd"}, default "adam"
        ``"sgd"`` is plain SGD (no momentum); ``"adamw"`` is Adam with decoupled weight decay.
    weight_decay : float, optional
        AdamW's decay per unit of ``lr``, in ``[0, 1)``; default :data:`ADAMW_DECAY`. Only with AdamW.

    Returns
    -------
    TrainResult

    Raises
    ------
    TypeError, ValueError
        For a corpus that is not a :class:`~embedlab.corpus.Corpus`, non-bool flags, sizes that are
        not positive ints (or more than :data:`MAX_STEPS` steps), a non-positive ``lr``, fewer than
        2 checkpoints, or an unknown optimizer.

    Examples
    --------
    >>> r = train(tied=True, steps=20, n_checkpoints=3)
    >>> r.checkpoint_steps.tolist(), r.n_params
    ([0, 10, 20], 2304)
    >>> round(float(r.valid_loss[0]), 3) > round(float(r.valid_loss[-1]), 3)
    True
    """
    steps = _check_steps(steps, "steps")
    n_checkpoints = check_size(n_checkpoints, "n_checkpoints")
    if n_checkpoints < 2:
        raise ValueError(f"n_checkpoints must be at least 2 (the start and the end), got {short_repr(n_checkpoints)}")
    run = _Run(
        corpus, tied=tied, d=d, hidden=hidden, k=k, batch_size=batch_size, lr=lr, seed=seed,
        optimizer=optimizer, weight_decay=weight_decay,
    )  # fmt: skip
    params = run.params
    n_checkpoints = min(n_checkpoints, steps + 1)  # more would only repeat steps
    check_nbytes((2 * n_checkpoints, 2 * run.V, run.d), np.float64, "n_checkpoints")  # kept, then np.stack's copy
    E_init = params["E"].copy()
    ckpt = np.unique(np.linspace(0, steps, n_checkpoints).round().astype(int))

    batch_loss = np.zeros(steps)
    rows_touched = np.zeros(steps, dtype=np.intp)
    row_updates = np.zeros(run.V, dtype=np.intp)
    E_ckpt, W_ckpt, train_loss, valid_loss = [], [], [], []

    def record() -> None:
        E_ckpt.append(params["E"].copy())
        if not run.tied:
            W_ckpt.append(params["W"].copy())
        train_loss.append(run.train_loss())
        valid_loss.append(run.valid_loss())

    started = time.perf_counter()
    record()
    for step in range(1, steps + 1):
        L, touched = run.step()
        batch_loss[step - 1] = L
        rows_touched[step - 1] = int(touched.sum())
        row_updates += touched
        if step in ckpt:
            record()
    seconds = time.perf_counter() - started
    return TrainResult(
        tied=run.tied,
        hidden=run.hidden,
        d=run.d,
        k=run.k,
        seed=run.seed,
        steps=steps,
        n_params=run.n_params,
        params=params,
        E_init=E_init,
        batch_loss=batch_loss,
        checkpoint_steps=ckpt,
        train_loss=np.array(train_loss),
        valid_loss=np.array(valid_loss),
        E_checkpoints=np.stack(E_ckpt),
        W_checkpoints=np.stack(W_ckpt) if W_ckpt else None,
        rows_touched=rows_touched,
        row_updates=row_updates,
        lr=run.lr,
        optimizer=run.optimizer,
        weight_decay=run.weight_decay,
        seconds=seconds,
    )


@dataclass(frozen=True)
class FitResult:
    """What :func:`fit` records: one run, stopped early at its best validation loss.

    Attributes
    ----------
    tied, hidden, d, k, seed, lr, optimizer : as passed to :func:`fit`
    n_params : int
    best_step : int
        The step whose parameters had the lowest validation loss (0 is the initialisation).
    best_valid, best_test, best_train : float
        Loss at ``best_step`` on the validation split, the test split, and the fixed sample of the
        training split.
    stopped_step : int
        The last step taken.
    capped : bool
        Whether training reached ``max_steps`` before ``patience`` evaluations passed without an
        improvement (the best step may then lie beyond the cap).
    eval_steps, valid_curve : numpy.ndarray
        The steps at which validation was measured, and its loss there, from step 0.
    params : dict of str to numpy.ndarray
        The parameters at ``best_step``.
    seconds : float
    """

    tied: bool
    hidden: bool
    d: int
    k: int
    seed: int
    lr: float
    optimizer: str
    n_params: int
    best_step: int
    best_valid: float
    best_test: float
    best_train: float
    stopped_step: int
    capped: bool
    eval_steps: np.ndarray
    valid_curve: np.ndarray
    params: dict[str, np.ndarray] = field(repr=False)
    seconds: float = field(repr=False, default=0.0)


def fit(
    corpus: Corpus | None = None,
    *,
    tied: bool,
    d: int = 16,
    hidden: bool = True,
    k: int = 3,
    lr: float = 0.02,
    seed: int = 0,
    batch_size: int = 128,
    optimizer: str = "adam",
    weight_decay: float | None = None,
    max_steps: int = 4000,
    eval_every: int = 25,
    patience: int = 10,
) -> FitResult:
    """Train with early stopping: measure validation every ``eval_every`` steps, keep the best parameters.

    Training stops once ``patience`` evaluations in a row have not improved on the best validation
    loss, or at ``max_steps``. The result reports the best checkpoint on all three splits, so
    the test split plays no part in any choice.

    Parameters
    ----------
    corpus : Corpus, optional
        Default ``make_corpus(0)``; its ``test`` split is what is reported.
    tied, d, hidden, k, lr, seed, batch_size, optimizer, weight_decay
        As in :func:`train`.
    max_steps : int, default 4000
        At most this many steps (at most :data:`MAX_STEPS`).
    eval_every : int, default 25
        Steps between two validation measurements; at most ``max_steps``.
    patience : int, default 10
        Evaluations without a new best before stopping.

    Returns
    -------
    FitResult

    Raises
    ------
    TypeError, ValueError
        As :func:`train`, and for an ``eval_every`` larger than ``max_steps``.

    Examples
    --------
    >>> r = fit(tied=True, max_steps=200, eval_every=50, patience=2)
    >>> r.eval_steps.tolist()[:3], r.best_step in r.eval_steps, r.best_valid == float(r.valid_curve.min())
    ([0, 50, 100], True, True)
    """
    max_steps = _check_steps(max_steps, "max_steps")
    eval_every = check_size(eval_every, "eval_every")
    if eval_every > max_steps:
        raise ValueError(f"eval_every must be at most max_steps ({max_steps}), got {short_repr(eval_every)}")
    patience = check_size(patience, "patience")
    run = _Run(
        corpus, tied=tied, d=d, hidden=hidden, k=k, batch_size=batch_size, lr=lr, seed=seed,
        optimizer=optimizer, weight_decay=weight_decay,
    )  # fmt: skip
    started = time.perf_counter()
    best = run.valid_loss()
    best_step, best_params = 0, {name: v.copy() for name, v in run.params.items()}
    eval_steps, curve = [0], [best]
    waited, step = 0, 0
    while step < max_steps and waited < patience:
        for _ in range(min(eval_every, max_steps - step)):
            run.step()
            step += 1
        loss_now = run.valid_loss()
        eval_steps.append(step)
        curve.append(loss_now)
        if loss_now < best:
            best, best_step, waited = loss_now, step, 0
            best_params = {name: v.copy() for name, v in run.params.items()}
        else:
            waited += 1
    return FitResult(
        tied=run.tied,
        hidden=run.hidden,
        d=run.d,
        k=run.k,
        seed=run.seed,
        lr=run.lr,
        optimizer=run.optimizer,
        n_params=run.n_params,
        best_step=best_step,
        best_valid=float(best),
        best_test=float(run.test_loss(best_params)),
        best_train=float(run.train_loss(best_params)),
        stopped_step=step,
        capped=waited < patience,
        eval_steps=np.array(eval_steps),
        valid_curve=np.array(curve),
        params=best_params,
        seconds=time.perf_counter() - started,
    )


# -- experiments -------------------------------------------------------------------------------


# The largest magnitude a run's recorded weights and losses may hold: far beyond anything training makes, and
# small enough that a norm, a mean or a spread over them stays finite in float64.
_MAX_RECORDED = 1e150


def _check_recorded(a: np.ndarray, name: str) -> None:
    """Refuse NaN, inf and magnitudes above ``_MAX_RECORDED`` in a recorded array (a broadcast one unexpanded)."""
    check_finite(a, name)
    a = compact(a)
    if a.size and np.longdouble(max(a.max(), -a.min())) > _MAX_RECORDED:  # exact in every float dtype
        raise ValueError(f"{name} must hold values of magnitude at most {_MAX_RECORDED:g}, as training makes them")


def _steps_text(steps: np.ndarray) -> str:
    """A run's checkpoint steps for a message: the values when there are a few, else a short summary."""
    if steps.size <= 12:
        return "[" + ", ".join(str(int(s)) for s in steps) + "]"
    return short_repr(steps)


@dataclass
class CompareResult:
    """Tied against untied over several seeds: what :func:`compare` returns.

    Attributes
    ----------
    corpus : Corpus
        The one corpus every run trained on.
    configs : dict of str to dict
        For each configuration name (``"tied"``, ``"untied"``, ``"untied, same params"``), its
        ``tied``, ``d``, ``hidden`` and ``n_params``.
    runs : dict of str to list of TrainResult
        One run per seed, in the order of ``seeds``.
    seeds : tuple of int
    seconds : float
        Wall time of all the runs.
    """

    corpus: Corpus
    configs: dict[str, dict[str, Any]]
    runs: dict[str, list[TrainResult]]
    seeds: tuple[int, ...]
    seconds: float = field(repr=False, default=0.0)

    def curves(self, name: str, which: str = "valid") -> np.ndarray:
        """Loss at each checkpoint of each seed, ``(n_seeds, c)``; ``which`` is ``"valid"`` or ``"train"``."""
        self._checked()
        return self._curves(name, which)

    def _curves(self, name: str, which: str) -> np.ndarray:
        which = check_choice(which, "which", ("valid", "train"))
        runs = self._runs(name)
        check_nbytes((2, len(runs), len(runs[0].checkpoint_steps)), np.float64, "res")  # stacked, then in float64
        return np.stack([getattr(r, f"{which}_loss") for r in runs]).astype(np.float64)

    def summary(self) -> dict[str, dict[str, float]]:
        """Per configuration: width, parameters, and mean and standard deviation over seeds (``ddof=1``)
        of the final and the best (lowest over checkpoints) validation loss, and of the final training loss."""
        self._checked()
        out = {}
        for name, cfg in self.configs.items():
            valid, train_ = self._curves(name, "valid"), self._curves(name, "train")
            ddof = 1 if len(self.seeds) > 1 else 0
            out[name] = {
                "d": cfg["d"],
                "n_params": cfg["n_params"],
                "final_valid": float(valid[:, -1].mean()),
                "final_valid_std": float(valid[:, -1].std(ddof=ddof)),
                "best_valid": float(valid.min(axis=1).mean()),
                "best_valid_std": float(valid.min(axis=1).std(ddof=ddof)),
                "final_train": float(train_[:, -1].mean()),
                "final_train_std": float(train_[:, -1].std(ddof=ddof)),
            }
        return out

    def drift(self, name: str, ids: Any = None) -> np.ndarray:
        """``||E_final[r] - E_init[r]||`` for each seed and each token ``r`` of ``ids``, ``(n_seeds, len(ids))``.

        ``ids`` defaults to the tokens no training context reads (:meth:`Corpus.never_read`).
        """
        self._checked()
        given = ids is not None
        ids = check_ids(ids, self.corpus.vocab_size).reshape(-1) if given else self.corpus.never_read()
        d = max(1, self.configs[self._name(name)]["d"])
        check_nbytes((len(self.seeds) + 1, ids.size, d), np.float64, "ids" if given else "res's E")
        # in float64 (recorded values are at most _MAX_RECORDED), each row's length scaled: no overflow, no underflow
        return np.stack(
            [
                _lengths(r.params["E"][ids].astype(np.float64) - r.E_init[ids].astype(np.float64))
                for r in self._runs(name)
            ]
        )

    def geometry(self, ids: Any = None) -> dict[str, np.ndarray]:
        """:func:`class_cosine` of the tied ``E`` and of the untied model's ``E`` and ``W``, seed by seed.

        Parameters
        ----------
        ids : array_like of int, optional
            The tokens to compare; default every token but ``<s>``.

        Returns
        -------
        dict
            ``"tied E"``, ``"untied E (input)"`` and ``"untied W (output)"``, each an array
            ``(n_seeds, 2)`` of (within a class, between classes).
        """
        self._checked()
        self._tied_and_untied()
        V = self.corpus.vocab_size
        given = ids is not None
        ids = check_ids(ids, V).reshape(-1) if given else np.arange(1, V)
        d = max(self.configs["tied"]["d"], self.configs["untied"]["d"])
        check_nbytes((3, ids.size, d), np.float64, "ids" if given else "res's E")  # as class_cosine reads rows
        classes = self.corpus.classes
        mats = {
            "tied E": [r.params["E"] for r in self._runs("tied")],
            "untied E (input)": [r.params["E"] for r in self._runs("untied")],
            "untied W (output)": [r.params["W"] for r in self._runs("untied")],
        }
        return {title: np.array([class_cosine(M, classes, ids) for M in Ms]) for title, Ms in mats.items()}

    def _tied_and_untied(self) -> None:
        """Refuse, naming the result, a geometry question of one made without both compared models."""
        if not {"tied", "untied"} <= set(self.runs):
            raise ValueError(
                "the geometry compares the 'tied' and 'untied' configurations of res (as compare makes them); "
                f"this one holds {short_repr(sorted(self.runs))}"
            )
        for name, tied in (("tied", True), ("untied", False)):
            if self.configs[name]["tied"] is not tied:
                raise ValueError(
                    f"the geometry compares a tied and an untied model, but res's {name!r} configuration has "
                    f"tied={self.configs[name]['tied']!r}"
                )

    def _name(self, name: str) -> str:
        if not issubclass(type(name), str) or plain_str(name) not in self.runs:
            raise ValueError(f"name must be one of {sorted(self.runs)}, got {short_repr(name)}")
        return plain_str(name)

    def _runs(self, name: str) -> list[TrainResult]:
        return self.runs[self._name(name)]

    def __post_init__(self) -> None:
        self._check()

    def _checked(self) -> CompareResult:
        """The result, checked again: its fields (and its runs' arrays) can be changed after it was made."""
        try:
            self._check()
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"res must hold a result as compare makes it, unchanged since: {exc}") from None
        return self

    def _check(self) -> None:
        if not issubclass(type(self.corpus), Corpus):
            raise TypeError(f"corpus must be an embedlab.corpus.Corpus, got {type_name(self.corpus)}")
        if type(self.seeds) is not tuple or not self.seeds:  # a plain tuple: a subclass's own iterator never runs
            raise TypeError(f"seeds must be a non-empty tuple of ints, got {short_repr(self.seeds)}")
        for s in self.seeds:
            _check_seed(s, "seeds")
        for part in (self.configs, self.runs):
            odd = next((k for k in part if type(k) is not str), None) if type(part) is dict else None
            if odd is not None:  # plain str names: a subclass's own ==, hash or repr never runs
                raise TypeError(f"configs and runs must be named by plain str, got the name {_describe(odd)}")
        if not (type(self.configs) is dict and type(self.runs) is dict) or set(self.configs) != set(self.runs):
            raise TypeError("configs and runs must be dicts with the same configuration names, as compare makes them")
        if not self.runs:
            raise ValueError("runs must hold at least one configuration")
        V = self.corpus.vocab_size
        checkpoints = None
        plain_configs = {}
        for name, runs in self.runs.items():
            if not issubclass(type(name), str) or len(name) > 200:
                raise TypeError(f"configs must be named by short str, as compare makes them, got {_describe(name)}")
            where = f"configs[{short_repr(name)}]"
            cfg = self.configs[name]
            if not _plain_dict(cfg) or not {"tied", "d", "n_params"} <= set(cfg):
                raise TypeError(f"{where} must be a dict with tied, d and n_params, as compare makes it")
            tied = check_flag(cfg["tied"], f"{where}['tied']")
            d = check_size(cfg["d"], f"{where}['d']")
            n_params = check_size(cfg["n_params"], f"{where}['n_params']")
            plain_configs[name] = {**cfg, "tied": tied, "d": d, "n_params": n_params}  # the values they hold
            where = f"runs[{short_repr(name)}]"
            if not (type(runs) is list and len(runs) == len(self.seeds)):
                raise ValueError(f"{where} must be a list of one TrainResult per seed ({len(self.seeds)})")
            for r in runs:
                if not issubclass(type(r), TrainResult):
                    raise TypeError(f"{where} must hold TrainResult objects, got {_describe(r)}")
                if check_flag(r.tied, f"{where}'s tied") != tied or check_size(r.d, f"{where}'s d") != d:
                    raise ValueError(
                        f"{where} must hold runs made with {where.replace('runs', 'configs')}'s tied and d"
                    )
                if not _plain_dict(r.params):
                    raise TypeError(f"{where} must hold runs whose params is a plain dict of str keys (as train makes)")
                n_steps = _check_steps(r.steps, f"{where}'s steps")
                steps = r.checkpoint_steps
                if not (type(steps) is np.ndarray and steps.ndim == 1 and steps.dtype.kind in "iu" and steps.size):
                    raise ValueError(f"{where} must hold runs whose checkpoint_steps is a non-empty 1-D int array")
                c = len(steps)
                if (
                    c > n_steps + 1
                    or steps.min() < 0
                    or steps.max() > n_steps
                    or not (steps[1:] > steps[:-1]).all()  # compared, not subtracted: unsigned steps wrap
                ):
                    raise ValueError(
                        f"{where} must hold runs whose checkpoint_steps rise from 0 to their steps ({n_steps})"
                    )
                arrays = {"E": (r.params.get("E"), (V, d)), "E_init": (r.E_init, (V, d))}
                arrays["E_checkpoints"] = (r.E_checkpoints, (c, V, d))
                if not tied:
                    arrays["W"] = (r.params.get("W"), (V, d))
                    arrays["W_checkpoints"] = (r.W_checkpoints, (c, V, d))
                arrays["train_loss"], arrays["valid_loss"] = (r.train_loss, (c,)), (r.valid_loss, (c,))  # one each
                for key, (a, shape) in arrays.items():
                    if not (type(a) is np.ndarray and a.shape == shape and a.dtype.kind == "f"):  # not masked
                        raise ValueError(f"{where} must hold runs whose {key} is a float array of shape {shape}")
                    _check_recorded(a, f"{where}'s {key}")
                    if key.endswith("_loss") and compact(a).min() < 0:
                        raise ValueError(f"{where} must hold runs whose {key} is a cross-entropy, at least 0")
                counts = (r.row_updates, r.rows_touched)
                if not all(type(a) is np.ndarray and a.dtype.kind in "iu" for a in counts):
                    raise ValueError(f"{where} must hold runs whose row_updates and rows_touched are int counts")
                if r.row_updates.shape != (V,):
                    raise ValueError(f"{where} must hold runs with one row_updates count per token ({V})")
                if r.rows_touched.shape != (n_steps,):
                    raise ValueError(f"{where} must hold runs with rows_touched, one count per step ({n_steps})")
                for key, a, most in (("row_updates", r.row_updates, n_steps), ("rows_touched", r.rows_touched, V)):
                    a = compact(a)
                    if a.min() < 0 or a.max() > most:
                        raise ValueError(f"{where} must hold runs whose {key} counts lie in [0, {most}]")
                if checkpoints is None:
                    checkpoints = steps
                elif c != len(checkpoints) or not (steps == checkpoints).all():
                    raise ValueError(
                        f"runs must all have the same checkpoints, at checkpoint_steps {_steps_text(checkpoints)}, "
                        f"got {_steps_text(steps)} in {where}"
                    )
        self.configs = {k: plain_configs[k] for k in self.configs}  # in their own order


def compare(
    seeds: Any = (0, 1, 2, 3, 4),
    corpus: Corpus | None = None,
    *,
    d: int = 16,
    hidden: bool = True,
    **train_kwargs: Any,
) -> CompareResult:
    """Train tied at width ``d``, untied at width ``d`` and untied at the same parameter count, for every seed.

    The third model's width is :func:`matched_width`: the untied width whose parameter count is
    nearest the tied model's.

    Parameters
    ----------
    seeds : sequence of int, default (0, 1, 2, 3, 4)
        One run of each configuration per seed (initialisation and batch order; the corpus is shared).
    corpus : Corpus, optional
        Default ``make_corpus(0)``.
    d : int, default 16
    hidden : bool, default True
    **train_kwargs
        Passed on to :func:`train` (``k``, ``steps``, ``batch_size``, ``lr``, ``n_checkpoints``).

    Returns
    -------
    CompareResult

    Examples
    --------
    >>> res = compare(seeds=(0, 1), steps=20, n_checkpoints=2)
    >>> {name: (cfg["d"], cfg["n_params"]) for name, cfg in res.configs.items()}
    {'tied': (16, 2304), 'untied': (16, 4336), 'untied, same params': (9, 2376)}
    >>> float(res.drift("untied").max())  # rows never read never move
    0.0
    """
    if (
        is_a(seeds, (numbers.Number, str, bytes, dict))
        or not _has(seeds, "__iter__", "seeds")
        or (issubclass(type(seeds), np.ndarray) and seeds.ndim != 1)
    ):
        raise TypeError(f"seeds must be a sequence of ints, got {type_name(seeds)} {short_repr(seeds)}")
    if issubclass(type(seeds), (range, list, tuple)) and range_len(seeds) > MAX_SEEDS:  # a range(10**20) too
        raise ValueError(f"seeds must hold at most {MAX_SEEDS:,} seeds")
    items = iter_items(seeds, "seeds", "a sequence of ints")  # no __len__ or __iter__ of a list subclass runs
    seeds = tuple(_check_seed(s, "seeds") for s in itertools.islice(items, MAX_SEEDS + 1))
    if len(seeds) > MAX_SEEDS:
        raise ValueError(f"seeds must hold at most {MAX_SEEDS:,} seeds")
    if not seeds:
        raise ValueError("seeds must hold at least one seed, got an empty sequence")
    if corpus is None:
        corpus = make_corpus(0)
    if not issubclass(type(corpus), Corpus):
        raise TypeError(f"corpus must be an embedlab.corpus.Corpus (see make_corpus), got {type_name(corpus)}")
    d = check_size(d, "d")
    hidden = check_flag(hidden, "hidden")
    for key in ("tied", "d", "hidden", "seed"):
        if key in train_kwargs:
            raise TypeError(f"compare sets {key!r} itself; pass it to train instead")
    V = corpus.vocab_size
    widths = {
        "tied": (True, d),
        "untied": (False, d),
        "untied, same params": (False, matched_width(V, d, hidden=hidden)),
    }
    configs = {
        name: {"tied": t, "d": w, "hidden": hidden, "n_params": model_param_count(V, w, tied=t, hidden=hidden)}
        for name, (t, w) in widths.items()
    }
    started = time.perf_counter()
    runs = {
        name: [train(corpus, tied=t, d=w, hidden=hidden, seed=s, **train_kwargs) for s in seeds]
        for name, (t, w) in widths.items()
    }
    return CompareResult(corpus, configs, runs, seeds, time.perf_counter() - started)


# -- geometry ----------------------------------------------------------------------------------


def pca_2d(E: Any, basis: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """Project the rows of ``E`` onto its first two principal axes (or onto ``basis``).

    The rows are centred on their mean; the axes come from ``np.linalg.svd`` and each is signed
    so that its largest-magnitude entry is positive, which makes the picture reproducible.

    Parameters
    ----------
    E : array_like of shape (V, d), d >= 2
    basis : array_like of shape (d, 2), optional
        Axes to project onto instead of ``E``'s own (for instance the final checkpoint's).

    Returns
    -------
    coords : numpy.ndarray of shape (V, 2)
    basis : numpy.ndarray of shape (d, 2)

    Examples
    --------
    >>> coords, axes = pca_2d([[2.0, 0.0, 0.0], [-2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, -1.0, 0.0]])
    >>> coords.round(3).tolist()
    [[2.0, 0.0], [-2.0, 0.0], [0.0, 1.0], [0.0, -1.0]]
    """
    E = check_float_array(E, "E", ndim=2)
    coords, axes = _pca_2d(E, basis, "E")
    return check_fits(coords, "E", E.dtype), check_fits(axes, "E", E.dtype)  # the input's dtype


def _pca_2d(E: Any, basis: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
    E = check_float_array(E, name, ndim=2)
    check_finite(E, name)
    if E.shape[1] < 2:
        raise ValueError(f"{name} must have at least 2 columns to project onto a plane, got shape {E.shape}")
    if basis is None and E.shape[0] < 2:
        raise ValueError(f"{name} must have at least 2 rows to find its principal axes, got shape {E.shape}")
    # float16 is centred in float32 (its mean could overflow); longdouble in float64, which linalg supports.
    dtype = np.float64 if E.dtype == np.longdouble else work_dtype(E.dtype)
    # the rows in the working dtype, centred, and the SVD's U, Vt and LAPACK workspace (gesdd: a few d x d)
    # in float64 at least: LAPACK's gesdd may work in double precision for a float32 matrix
    check_nbytes((4 * E.shape[0] + 8 * E.shape[1] + 8, E.shape[1]), np.promote_types(dtype, np.float64), name)
    if basis is not None:
        basis = check_float_array(basis, "basis", ndim=2)
        if basis.shape != (E.shape[1], 2):
            raise ValueError(f"basis must have shape ({E.shape[1]}, 2), got {basis.shape}")
        check_finite(basis, "basis")
        basis = basis.astype(dtype, copy=False)
    with np.errstate(over="ignore", invalid="ignore"):
        Ew = E.astype(dtype, copy=False)
        centred = Ew - Ew.mean(axis=0)  # (V, d)
        if not np.isfinite(centred).all():
            # The sum in the mean overflowed (rows near the dtype's largest value). Centre on each
            # column's midpoint first, which leaves every entry within half the column's span, then
            # take the mean of entries divided by V first, which cannot overflow. PCA ignores the shift.
            mid = Ew.min(axis=0) / 2 + Ew.max(axis=0) / 2
            centred = Ew - mid
            centred -= (centred / centred.shape[0]).sum(axis=0)
    if not np.isfinite(centred).all():
        raise ValueError(f"{name} spans more than dtype {np.dtype(dtype).name} can centre; scale it down")
    if basis is None:
        # The largest singular value is at most the Frobenius norm: where that passes the dtype's largest
        # value, the axes (which a scale does not move) are found on the rows scaled by their largest entry.
        big = max(float(centred.max()), -float(centred.min()))
        frobenius = big * math.sqrt(float(((centred / big) ** 2).sum())) if big > 0 else 0.0
        if not math.isfinite(frobenius) or frobenius >= float(np.finfo(centred.dtype).max):
            _, _, vt = np.linalg.svd(centred / big, full_matrices=False)
        else:
            _, _, vt = np.linalg.svd(centred, full_matrices=False)
        basis = vt[:2].T  # (d, 2)
        pivots = np.abs(basis).argmax(axis=0)
        basis = basis * np.sign(basis[pivots, [0, 1]])
    with np.errstate(over="ignore", invalid="ignore"):
        coords = centred @ basis  # (V, 2)
    if not np.isfinite(coords).all():
        raise ValueError(f"{name} and basis give coordinates too large for dtype {np.dtype(dtype).name}")
    return coords, basis


def geometry_track(E_checkpoints: Any) -> np.ndarray:
    """Every checkpoint of ``E`` projected onto the final checkpoint's principal plane, ``(c, V, 2)``.

    One plane for all steps, so that a slider over checkpoints shows the rows moving, not the axes.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> geometry_track(rng.standard_normal((3, 6, 4))).shape
    (3, 6, 2)
    """
    stack = check_float_array(E_checkpoints, "E_checkpoints", ndim=3)
    check_nbytes((2 * stack.shape[0] + 2, stack.shape[1], max(2, stack.shape[2])), np.float64, "E_checkpoints")
    _, basis = _pca_2d(stack[-1], None, "E_checkpoints[-1]")
    check_finite(stack, "E_checkpoints")
    # Every checkpoint centred on its own mean and projected, all at once (no Python loop over checkpoints):
    # the same sums, in the same order, as pca_2d of each, in the dtype pca_2d works in.
    dtype = basis.dtype
    with np.errstate(over="ignore", invalid="ignore"):
        Ew = stack.astype(dtype, copy=False)
        centred = Ew - Ew.mean(axis=1, keepdims=True)  # (c, V, d)
        if not np.isfinite(centred).all():  # as in pca_2d: centre on the midpoint, then on the scaled mean
            centred = Ew - (Ew.min(axis=1, keepdims=True) / 2 + Ew.max(axis=1, keepdims=True) / 2)
            centred -= (centred / centred.shape[1]).sum(axis=1, keepdims=True)
        if not np.isfinite(centred).all():
            raise ValueError(f"E_checkpoints spans more than dtype {dtype.name} can centre; scale it down")
        coords = centred @ basis  # (c, V, 2)
    if not np.isfinite(coords).all():
        raise ValueError(f"E_checkpoints gives coordinates too large for dtype {dtype.name}")
    return check_fits(coords, "E_checkpoints", stack.dtype)


def class_cosine(E: Any, classes: Any, ids: Any = None) -> tuple[float, float]:
    """Mean cosine similarity of rows of ``E`` within a word class and between classes.

    A learned geometry in which tokens of one role sit together has ``within`` well above
    ``between``; random rows have both near 0.

    Parameters
    ----------
    E : array_like of shape (V, d)
    classes : array_like of shape (V,)
        A label per token (:attr:`Corpus.classes`).
    ids : array_like of int, optional
        The tokens to compare; default all of them.

    Returns
    -------
    within, between : float

    Examples
    --------
    >>> within, between = class_cosine([[1.0, 0.0], [2.0, 0.1], [0.0, 1.0]], ["a", "a", "b"])
    >>> round(within, 4), round(between, 4)
    (0.9988, 0.025)
    """
    E = check_float_array(E, "E", ndim=2)
    check_finite(E, "E")
    given = classes
    classes = as_array(classes, "classes", "labels")
    if classes.shape != (E.shape[0],):
        raise ValueError(f"classes must have shape ({E.shape[0]},), one label per row of E, got {classes.shape}")
    if classes.dtype.kind not in "iuUO":  # labels are compared for equality: a float NaN would differ from itself
        raise TypeError(f"classes must hold str or int labels, got an array of {classes.dtype}")
    if classes.dtype == object or _is_one_of(type(given), (list, tuple)):
        # Labels compared with ==: plain str or int (NumPy's own too), so no label's own == runs; and of one
        # kind, for NumPy would turn [1, "1"] into two equal strings.
        items = given if _is_one_of(type(given), (list, tuple)) else classes.tolist()
        texts = 0
        for c in items:
            if not _is_one_of(type(c), (str, int, np.str_)) and not (
                issubclass(type(c), np.integer) and _numpy_type(c)
            ):
                raise TypeError(f"classes must hold str or int labels, got an item {_describe(c)}")
            texts += issubclass(type(c), str)
        if 0 < texts < len(items):
            raise TypeError("classes must hold labels of one kind, all str or all int (1 and '1' would be one)")
    given_ids = ids is not None
    ids = np.arange(E.shape[0]) if ids is None else check_ids(ids, E.shape[0]).reshape(-1)
    if len(ids) > E.shape[0] or len(np.unique(ids)) != len(ids):  # more ids than rows must repeat one
        raise ValueError("ids must not repeat a token (a repeated row would count as a pair with itself)")
    # every pair's cosine, and the masks and selections made of it
    check_nbytes((4, len(ids), len(ids)), np.float64, "ids" if given_ids else "E")
    check_nbytes((3, len(ids), E.shape[1]), np.float64, "E")  # the rows in float64, scaled, then normalized
    # Scale each row by its largest entry first, so the norm neither overflows nor underflows: in float64,
    # or in longdouble before the cast, where a row may lie beyond float64's range.
    rows = E[ids] if E.dtype.itemsize > 8 else E[ids].astype(np.float64)
    top = np.abs(rows).max(axis=1, keepdims=True)
    if not top.all():  # as embedlab.cosine refuses it: a zero row has no direction
        zero = int(ids[int(np.argmin(top[:, 0]))])
        raise ValueError(f"E must have no zero row among ids: row {zero} is zero, so its cosine is undefined")
    rows = (rows / top).astype(np.float64)
    rows = rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), np.finfo(np.float64).tiny)
    cos = rows @ rows.T  # (n, n)
    check_nbytes((3, len(ids)), classes.dtype, "classes")  # the chosen labels, sorted, then one code each
    codes = np.unique(classes[ids], return_inverse=True)[1].reshape(-1)  # labels compared once each, by sorting
    same = codes[:, None] == codes[None, :]
    off = ~np.eye(len(ids), dtype=bool)
    if not (same & off).any() or not (~same).any():
        raise ValueError(
            f"{'ids' if given_ids else 'classes'} must include two tokens of one class and two of different classes"
        )
    cos = np.clip(cos, -1.0, 1.0)  # unit rows whose product rounds a hair past 1
    return float(cos[same & off].mean()), float(cos[~same].mean())
