"""The toy vocabulary and embedding matrix of the worked examples."""

from __future__ import annotations

import numpy as np

from ._validation import _describe, plain_str, short_repr

__all__ = [
    "E_TOY",
    "TOKENS",
    "token_id",
]

#: The four tokens of the worked examples, in id order: "cat" is id 0, "ran" is id 3.
TOKENS: tuple[str, ...] = ("cat", "dog", "the", "ran")

#: The 4x3 embedding matrix of the worked examples: row ``i`` is the vector of ``TOKENS[i]``.
#: Read-only, so that no notebook can change the numbers every other example relies on.
E_TOY: np.ndarray = np.array(
    [
        [0.2, -0.5, 0.8],  # cat
        [0.3, -0.4, 0.7],  # dog
        [-0.9, 0.1, 0.2],  # the
        [0.6, 0.3, -0.5],  # ran
    ]
)  # (V, d) = (4, 3)
E_TOY.setflags(write=False)


def token_id(token: str) -> int:
    """Return the zero-indexed id of a token of the toy vocabulary.

    Parameters
    ----------
    token : str
        One of ``TOKENS``.

    Returns
    -------
    int
        Its position in ``TOKENS``, counting from 0.

    Raises
    ------
    TypeError
        If ``token`` is not a string.
    ValueError
        If ``token`` is not in the vocabulary; the message lists the known tokens.

    Examples
    --------
    >>> token_id("the")
    2
    >>> token_id("cat")
    0
    """
    if not issubclass(type(token), str):
        raise TypeError(f"token must be a str, got {_describe(token)}")
    token = plain_str(token)  # compared as the text it holds
    if token not in TOKENS:
        known = ", ".join(repr(t) for t in TOKENS)
        raise ValueError(f"token must be one of {known}, got {short_repr(token)}")
    return TOKENS.index(token)
