"""Checking the hand-written draft's numbers against what embedlab computes.

The draft is a claim; the computation wins. :func:`check` prints one line per claim, so a
notebook shows the reader exactly which of the draft's figures hold.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _show(x: np.ndarray, decimals: int) -> str:
    if x.ndim == 0:
        return f"{float(x):,.{decimals}f}"
    return "[" + ", ".join(f"{v:.{decimals}f}" for v in x.ravel()) + "]"


def check(label: str, draft: Any, computed: Any, decimals: int) -> None:
    """Print whether the draft's figure matches the computed one to the draft's own precision.

    The computed value is rounded to ``decimals`` places (the precision the draft wrote) and
    compared with the draft's figure.

    Parameters
    ----------
    label : str
        What the figure is.
    draft : float or array_like
        The draft's figure, as written.
    computed : float or array_like
        embedlab's value.
    decimals : int
        Decimal places the draft wrote.

    Examples
    --------
    >>> check("P0 at t = 0", 0.25, 1 / 4, 2)
    P0 at t = 0: draft 0.25, computed 0.25 -> agrees
    >>> check("softmax", [0.19, 0.21], [0.2000, 0.2210], 2)
    softmax: draft [0.19, 0.21], computed [0.20, 0.22] -> DIFFERS
    """
    d = np.asarray(draft, dtype=float)
    c = np.round(np.asarray(computed, dtype=float), decimals)
    if d.shape != c.shape:
        raise ValueError(f"draft and computed must have the same shape, got {d.shape} and {c.shape}")
    ok = bool(np.allclose(d, c, rtol=0, atol=0.5 * 10.0**-decimals))
    print(f"{label}: draft {_show(d, decimals)}, computed {_show(c, decimals)} -> {'agrees' if ok else 'DIFFERS'}")
