"""Is a matrix tied? Checking a tie by memory, and counting a tied model's parameters (worked example G).

A tie is one array reached under two names, ``wte`` and ``lm_head`` say. Equal values do not make a
tie: a copy starts equal and then drifts, because training updates the two separately. So a tie is
checked on memory, with :func:`numpy.shares_memory`, never with ``==``.

Two ways of listing a model's parameters differ on a tie. A *parameter list* yields each array once
(:func:`count_params` with ``once=True``); a *name-to-array mapping*, what a checkpoint stores,
lists the array under each of its names (``once=False``), so it counts the tied matrix twice.

Import on demand: ``from embedlab import ties``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.lib.array_utils import byte_bounds

from ._validation import _describe, check_flag, short_repr

__all__ = [
    "MAX_NAMES",
    "count_params",
    "tie_groups",
]

#: The most names :func:`tie_groups` compares (a large model lists a few thousand).
MAX_NAMES = 100_000

# Work allowed to numpy.shares_memory for one pair of strided views; the exact answer for two views of
# one matrix (a matrix and its transpose, a matrix and itself) takes a handful of steps.
_MAX_WORK = 100_000


def _check_named(named: Any) -> list[tuple[str, np.ndarray]]:
    if not isinstance(named, Mapping):
        raise TypeError(f"named must be a mapping of names to NumPy arrays (a dict), got {_describe(named)}")
    if len(named) > MAX_NAMES:
        raise ValueError(f"named must hold at most {MAX_NAMES:,} names, got {len(named):,}")
    items = []
    for key, value in named.items():
        if not isinstance(key, str):
            raise TypeError(f"named must have str keys (parameter names), got the key {short_repr(key)}")
        if not isinstance(value, np.ndarray):
            raise TypeError(f"named[{key!r}] must be a NumPy array, got {_describe(value)}")
        items.append((key, value))
    return items


def tie_groups(named: Mapping[str, np.ndarray]) -> list[tuple[str, ...]]:
    """The names that reach one array: groups of two or more names whose arrays share their memory.

    Parameters
    ----------
    named : mapping of str to numpy.ndarray
        A model's parameters by name, as a checkpoint lists them. Never copied or changed.

    Returns
    -------
    list of tuple of str
        One tuple per tie, names in the mapping's order; groups in the order of their first name.
        A name whose array shares memory with no other is in no group.

    Raises
    ------
    TypeError
        If ``named`` is not a mapping of str to arrays.
    ValueError
        If two arrays share only part of their memory (a slice and its matrix): that is no tie, and
        no count of parameters is right for it.

    Examples
    --------
    >>> E = np.zeros((5, 3))
    >>> tie_groups({"wte": E, "lm_head": E})
    [('wte', 'lm_head')]
    >>> tie_groups({"wte": E, "lm_head": E.copy()})  # equal values, two arrays: no tie
    []
    """
    items = _check_named(named)
    parent = list(range(len(items)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # Sweep the arrays by where their bytes begin: only arrays whose byte ranges overlap can share memory.
    spans = sorted((*byte_bounds(a), i) for i, (_, a) in enumerate(items) if a.size)
    open_: list[tuple[int, int]] = []  # (end, index) of the ranges still open at this start
    for start, end, i in spans:
        open_ = [(e, j) for e, j in open_ if e > start]
        for _, j in open_:
            if _shares(items[j], items[i]):
                parent[root(i)] = root(j)
        open_.append((end, i))
    groups: dict[int, list[str]] = {}
    for i, (name, _) in enumerate(items):
        groups.setdefault(root(i), []).append(name)
    return [tuple(names) for names in groups.values() if len(names) > 1]


def _shares(first: tuple[str, np.ndarray], second: tuple[str, np.ndarray]) -> bool:
    """Whether two arrays are one tie (the same elements), refusing arrays that share part of their memory."""
    (name_a, a), (name_b, b) = first, second
    try:
        shared = np.shares_memory(a, b, max_work=_MAX_WORK)
    except np.exceptions.TooHardError:
        raise ValueError(
            f"named[{name_a!r}] and named[{name_b!r}] are strided views too intricate to tell whether they "
            "share memory; pass the arrays themselves"
        ) from None
    if not shared:
        return False
    if a.size != b.size or byte_bounds(a) != byte_bounds(b) or a.dtype != b.dtype:
        raise ValueError(
            f"named[{name_a!r}] and named[{name_b!r}] share part of their memory but are not one array "
            f"(shapes {a.shape} and {b.shape}): a tie is one array under two names"
        )
    return True


def count_params(named: Mapping[str, np.ndarray], *, once: bool = True) -> int:
    """Count a model's parameters, a tied array once (``once=True``) or under each of its names.

    ``once=True`` counts as a parameter list does, each array once whatever names reach it;
    ``once=False`` counts every name's array, as adding up a checkpoint's entries does.

    Parameters
    ----------
    named : mapping of str to numpy.ndarray
        A model's parameters by name.
    once : bool, default True
        Count each tied array once.

    Returns
    -------
    int

    Raises
    ------
    TypeError, ValueError
        As :func:`tie_groups`, or if ``once`` is not a bool.

    Examples
    --------
    >>> E, W = np.zeros((5, 3)), np.zeros((3, 3))
    >>> named = {"wte": E, "block": W, "lm_head": E}
    >>> count_params(named), count_params(named, once=False)
    (24, 39)
    """
    once = check_flag(once, "once")
    items = dict(_check_named(named))
    everything = sum(int(a.size) for a in items.values())
    if not once:
        return everything
    repeated = sum(int(items[name].size) for group in tie_groups(items) for name in group[1:])
    return everything - repeated
