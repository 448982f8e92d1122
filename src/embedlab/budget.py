"""Parameter and memory budgets of the embedding and output layers (worked example G)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._validation import _describe, check_flag, check_size, plain_str, short_repr

__all__ = [
    "REAL_MODELS",
    "REGIMES",
    "memory_bytes",
    "padded_vocab",
    "param_bytes",
    "param_count",
    "saved_fraction",
]


def param_count(vocab_size: int, d_model: int, *, tied: bool, output_bias: bool = False) -> int:
    """Parameters of the input embedding plus the output projection.

    Untied: two ``V x d`` matrices, ``2Vd``. Tied: one matrix serves both, counted once, ``Vd``.
    An output bias adds ``V`` either way.

    Parameters
    ----------
    vocab_size : int
        V, rows of the embedding matrix.
    d_model : int
        d, the width of each row.
    tied : bool
        Whether the output projection is the embedding matrix itself.
    output_bias : bool, default False
        Whether the output layer adds a bias of length V (GPT-2's does not).

    Returns
    -------
    int

    Raises
    ------
    TypeError
        If a size is not an int or a flag is not a bool.
    ValueError
        If a size is not positive.

    Examples
    --------
    >>> param_count(50257, 768, tied=False)
    77194752
    >>> param_count(50257, 768, tied=True, output_bias=True)
    38647633
    """
    V = check_size(vocab_size, "vocab_size")
    d = check_size(d_model, "d_model")
    tied = check_flag(tied, "tied")
    output_bias = check_flag(output_bias, "output_bias")
    matrices = 1 if tied else 2
    return matrices * V * d + (V if output_bias else 0)


def saved_fraction(vocab_size: int, d_model: int, *, untied_bias: bool = False, tied_bias: bool = False) -> float:
    """Fraction of the untied parameter count that tying removes.

    With no bias on either side this is exactly 1/2; the worked draft compares an untied pair
    without bias to a tied layer with one, which gives ``(d - 1) / (2d)``.

    Examples
    --------
    >>> saved_fraction(50257, 768)
    0.5
    >>> round(saved_fraction(50257, 768, tied_bias=True), 6)
    0.499349
    """
    untied_bias, tied_bias = check_flag(untied_bias, "untied_bias"), check_flag(tied_bias, "tied_bias")
    untied = param_count(vocab_size, d_model, tied=False, output_bias=untied_bias)
    tied = param_count(vocab_size, d_model, tied=True, output_bias=tied_bias)
    return (untied - tied) / untied


def param_bytes(vocab_size: int, d_model: int, *, tied: bool, output_bias: bool = False, dtype: Any = "float32") -> int:
    """Bytes taken by :func:`param_count` parameters stored in ``dtype``.

    Examples
    --------
    >>> param_bytes(50257, 768, tied=True)
    154389504
    >>> param_bytes(50257, 768, tied=True, dtype="bfloat16")
    77194752
    """
    if dtype is None:
        raise TypeError("dtype must be a NumPy dtype or 'bfloat16', got None")
    dtype = plain_str(dtype)  # a name of a str subclass read as the text it holds
    if issubclass(type(dtype), str) and dtype == "bfloat16":  # not a NumPy dtype, but 2 bytes like float16
        itemsize = 2
    else:
        try:
            dt = np.dtype(dtype)
        except Exception:  # NumPy raises TypeError, ValueError or others for what is not a dtype
            raise TypeError(f"dtype must be a NumPy dtype or 'bfloat16', got {short_repr(dtype)}") from None
        if dt.kind not in "fiuc" or dt.fields is not None or dt.subdtype is not None:
            raise TypeError(f"dtype must be a numeric dtype for parameters (float, int or complex), got {dt}")
        itemsize = dt.itemsize
    return itemsize * param_count(vocab_size, d_model, tied=tied, output_bias=output_bias)


#: Bytes each parameter costs, part by part, at rest and in training with Adam. Training keeps a
#: gradient and Adam's two moments (m and v) beside every weight. Mixed precision keeps 16-bit
#: weights and gradients beside a float32 master copy of the weights (Micikevicius et al., 2018);
#: with Adam's float32 moments that is the ZeRO paper's count (Rajbhandari et al., 2020),
#: 2 + 2 + 12 = 16 bytes. Other setups keep more (float32 gradients, say).
REGIMES: dict[str, tuple[tuple[str, int], ...]] = {
    "float32 at rest": (("weights", 4),),
    "bfloat16 at rest": (("weights", 2),),
    "float32 Adam": (("weights", 4), ("gradients", 4), ("Adam m", 4), ("Adam v", 4)),
    "mixed-precision Adam": (
        ("16-bit weights", 2),
        ("16-bit gradients", 2),
        ("float32 master weights", 4),
        ("Adam m", 4),
        ("Adam v", 4),
    ),
}


def memory_bytes(
    vocab_size: int, d_model: int, *, tied: bool, output_bias: bool = False, regime: str = "float32 at rest"
) -> int:
    """Bytes the embedding and output layers take in one of the :data:`REGIMES`.

    At rest a parameter is its weight alone; in training with Adam it also carries a gradient and
    two moments, so tying, which removes ``V x d`` parameters, removes every one of those copies.

    Parameters
    ----------
    vocab_size, d_model : int
        V and d.
    tied, output_bias : bool
        As for :func:`param_count`.
    regime : str, default "float32 at rest"
        A key of :data:`REGIMES`.

    Returns
    -------
    int

    Raises
    ------
    TypeError, ValueError
        If a size or flag is bad (as :func:`param_count`), or ``regime`` is not a key of :data:`REGIMES`.

    Examples
    --------
    >>> memory_bytes(50257, 768, tied=True)
    154389504
    >>> memory_bytes(50257, 768, tied=True, regime="float32 Adam")
    617558016
    """
    if not issubclass(type(regime), str):
        raise TypeError(f"regime must be a str, one of {list(REGIMES)}, got {_describe(regime)}")
    regime = str.__str__(regime)  # the characters it holds: a subclass's own hash or == never runs
    if regime not in REGIMES:
        raise ValueError(f"regime must be one of {list(REGIMES)}, got {short_repr(regime)}")
    per_param = sum(n for _, n in REGIMES[regime])
    return per_param * param_count(vocab_size, d_model, tied=tied, output_bias=output_bias)


def padded_vocab(vocab_size: int, multiple: int = 64) -> int:
    """The row count of an embedding padded up to a multiple of ``multiple``.

    nanoGPT pads GPT-2's 50,257 tokens to 50,304 rows, a multiple of 64, so that the matrix
    products with the vocabulary run on fast kernels. The extra rows are no token's id, so no
    lookup reads them and no target is one of them. They add ``(padded - V) x d`` parameters, and
    the head still scores them: they enter every softmax, get a gradient, and cost
    ``2 (padded - V) d`` operations a token.

    Examples
    --------
    >>> padded_vocab(50257)
    50304
    >>> padded_vocab(50304)
    50304
    """
    V = check_size(vocab_size, "vocab_size")
    m = check_size(multiple, "multiple")
    return -(-V // m) * m


#: Real models' embedding sizes (rows V, width d, tied?, does the output head add a bias of
#: length V?), from their public code and configs; see the book's sources page. ``vocab_size``
#: is the embedding's row count, possibly padded. GPT-J's ``lm_head`` is a Linear with a bias;
#: BERT's masked-LM head keeps its own output bias although its weights are tied.
REAL_MODELS: tuple[dict[str, Any], ...] = (
    {"name": "GPT-2 small", "vocab_size": 50257, "d_model": 768, "tied": True, "output_bias": False},
    {"name": "GPT-2 medium", "vocab_size": 50257, "d_model": 1024, "tied": True, "output_bias": False},
    {"name": "GPT-2 large", "vocab_size": 50257, "d_model": 1280, "tied": True, "output_bias": False},
    {"name": "GPT-2 XL", "vocab_size": 50257, "d_model": 1600, "tied": True, "output_bias": False},
    {"name": "GPT-J 6B", "vocab_size": 50400, "d_model": 4096, "tied": False, "output_bias": True},
    {"name": "GPT-NeoX-20B", "vocab_size": 50432, "d_model": 6144, "tied": False, "output_bias": False},
    {"name": "Llama 2 7B", "vocab_size": 32000, "d_model": 4096, "tied": False, "output_bias": False},
    {"name": "Llama 3 8B", "vocab_size": 128256, "d_model": 4096, "tied": False, "output_bias": False},
    {"name": "Llama 3.2 1B", "vocab_size": 128256, "d_model": 2048, "tied": True, "output_bias": False},
    {"name": "Mistral 7B v0.1", "vocab_size": 32000, "d_model": 4096, "tied": False, "output_bias": False},
    {"name": "Gemma 2B", "vocab_size": 256000, "d_model": 2048, "tied": True, "output_bias": False},
    {"name": "Gemma 7B", "vocab_size": 256000, "d_model": 3072, "tied": True, "output_bias": False},
    {"name": "Qwen2.5-0.5B", "vocab_size": 151936, "d_model": 896, "tied": True, "output_bias": False},
    {"name": "Qwen2.5-7B", "vocab_size": 152064, "d_model": 3584, "tied": False, "output_bias": False},
    {"name": "BERT-base uncased", "vocab_size": 30522, "d_model": 768, "tied": True, "output_bias": True},
    {"name": "T5-small", "vocab_size": 32128, "d_model": 512, "tied": True, "output_bias": False},
)
