"""One matrix, two roles, two scales: the factors tied models put on the embedding (worked example G).

A tied row plays two roles. As an input it joins the stream of hidden vectors; as an output weight it
is dotted with the final hidden vector ``h`` to make a logit. Dot products grow with the width: if
``h`` and the rows are independent, with entries of typical size 1, a logit has typical size
``sqrt(d)``, and the softmax of logits that spread that far is nearly one-hot. Some tied models put
a factor on one of the two roles (others, GPT-2 among them, on neither):

* the Transformer (Vaswani et al., 2017) and Gemma multiply the embedding by ``sqrt(d)`` as it is
  read in, so rows kept small for the head enter the stream at its scale;
* T5 multiplies the decoder's output by ``d ** -0.5`` before its tied head, so rows kept at the
  stream's scale give logits of size about 1.

Import on demand: ``from embedlab import scale``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._validation import _describe, check_nbytes, check_real, check_size, exact_int, short_repr
from .logits import tied_logits

__all__ = [
    "CONVENTIONS",
    "MAX_VOCAB",
    "MAX_WIDTH",
    "convention_factor",
    "random_logits",
]

#: Where each model puts its factor, and the power of d it uses; see the book's sources page.
#: ``d_model`` is the width of the model the factor is quoted for.
CONVENTIONS: tuple[dict[str, Any], ...] = (
    {"name": "Transformer (base)", "role": "input", "power": 0.5, "d_model": 512},
    {"name": "T5-small", "role": "output", "power": -0.5, "d_model": 512},
    {"name": "Gemma 2B", "role": "input", "power": 0.5, "d_model": 2048},
    {"name": "Gemma 7B", "role": "input", "power": 0.5, "d_model": 3072},
)

#: The largest width and vocabulary :func:`random_logits` draws (a teaching figure, not a model).
MAX_WIDTH = 65_536
MAX_VOCAB = 100_000


def convention_factor(name: str) -> float:
    """The factor a model of :data:`CONVENTIONS` applies: ``d_model ** power``.

    Examples
    --------
    >>> round(convention_factor("Transformer (base)"), 4)
    22.6274
    >>> round(convention_factor("T5-small"), 4)
    0.0442
    """
    if not issubclass(type(name), str):
        raise TypeError(f"name must be a str, one of {[c['name'] for c in CONVENTIONS]}, got {_describe(name)}")
    name = str.__str__(name)  # the characters it holds: a subclass's own == never runs
    for c in CONVENTIONS:
        if c["name"] == name:
            return float(c["d_model"] ** c["power"])
    raise ValueError(f"name must be one of {[c['name'] for c in CONVENTIONS]}, got {short_repr(name)}")


def random_logits(d_model: int, *, factor: float = 1.0, vocab_size: int = 1000, seed: int = 0) -> np.ndarray:
    """Tied logits of a random hidden vector against a random embedding, its output scaled by ``factor``.

    Every entry of ``E`` (``vocab_size x d_model``) and of ``h`` is drawn from a standard normal, so
    both sit at the scale 1 of a normalized stream; the logits are ``(factor * h) @ E.T``. Without a
    factor they spread about ``sqrt(d_model)``; with ``factor = d_model ** -0.5``, about 1.

    Parameters
    ----------
    d_model : int
        The width d, at most :data:`MAX_WIDTH`.
    factor : float, default 1.0
        The output-side factor, a finite number > 0.
    vocab_size : int, default 1000
        Rows of the random ``E``, at most :data:`MAX_VOCAB`.
    seed : int, default 0
        Seed of the generator; the same arguments give the same logits.

    Returns
    -------
    numpy.ndarray of shape (vocab_size,), float64

    Raises
    ------
    TypeError, ValueError
        If a size is not a positive int within its limit, ``factor`` is not a finite number > 0, or
        ``seed`` is not a non-negative int.

    Examples
    --------
    >>> z = random_logits(512)
    >>> bool(20 < z.std() < 25)  # about sqrt(512) = 22.6
    True
    >>> bool(0.8 < random_logits(512, factor=512 ** -0.5).std() < 1.2)
    True
    """
    d = check_size(d_model, "d_model")
    if d > MAX_WIDTH:
        raise ValueError(f"d_model must be at most {MAX_WIDTH:,}, got {d:,}")
    V = check_size(vocab_size, "vocab_size")
    if V > MAX_VOCAB:
        raise ValueError(f"vocab_size must be at most {MAX_VOCAB:,}, got {V:,}")
    f = check_real(factor, "factor")
    if not f > 0:
        raise ValueError(f"factor must be a number > 0, got {short_repr(factor)}")
    if issubclass(type(seed), (bool, np.bool_)) or not issubclass(type(seed), (int, np.integer)):
        raise TypeError(f"seed must be a non-negative int, got {_describe(seed)}")
    seed = exact_int(seed, "seed")
    if seed < 0 or int(seed).bit_length() > 128:
        raise ValueError(f"seed must be a non-negative int below 2**128, got {short_repr(seed)}")
    check_nbytes((V + 2, d), np.float64, "vocab_size")  # E, h and the logits, drawn in float64
    rng = np.random.default_rng(int(seed))
    E = rng.standard_normal((V, d))
    h = rng.standard_normal(d)
    with np.errstate(over="ignore"):
        scaled = f * h
    try:
        if not np.all(np.isfinite(scaled)):
            raise ValueError
        return tied_logits(scaled, E)
    except ValueError:  # factor x h, or a logit, beyond float64
        raise ValueError(f"factor must keep the logits finite in float64, got {short_repr(factor)}") from None
