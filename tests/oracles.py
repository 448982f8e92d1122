"""Independent oracles shared by several test modules (written apart from the code under test)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def central_diff(f: Callable[[np.ndarray], float], A: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """Central finite differences of ``f`` at ``A``, one entry at a time, in float64."""
    A = np.array(A, dtype=np.float64)
    g = np.zeros_like(A)
    for idx in np.ndindex(*A.shape):
        old = A[idx]
        A[idx] = old + eps
        up = f(A)
        A[idx] = old - eps
        down = f(A)
        A[idx] = old
        g[idx] = (up - down) / (2 * eps)
    return g
