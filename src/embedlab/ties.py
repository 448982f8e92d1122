"""Is a matrix tied? Checking a tie by memory, and counting a tied model's parameters (worked example G).

A tie is one array reached under two names, ``wte`` and ``lm_head`` say. Equal values do not make a
tie: a copy starts equal and then drifts, because training updates the two separately. So a tie is
checked on memory, with :func:`numpy.shares_memory`, never with ``==``.

Two ways of listing a model's parameters differ on a tie. A *parameter list* yields each array once
(:func:`count_params` with ``once=True``); a *name-to-array mapping*, the way a checkpoint lists a
model, names the array under each of its names (``once=False``), so adding up its entries counts
the tied matrix twice.

Import on demand: ``from embedlab import ties``.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.lib.array_utils import byte_bounds

from ._validation import _describe, check_flag, is_a, short_repr, type_name

__all__ = [
    "MAX_NAMES",
    "MAX_PAIRS",
    "count_params",
    "tie_groups",
]

#: The most names :func:`tie_groups` compares (a large model lists a few thousand).
MAX_NAMES = 100_000

#: The most pairs of distinct arrays with overlapping memory ranges it compares (each is a
#: ``numpy.shares_memory`` call): views of one buffer under many names, counted before comparing.
MAX_PAIRS = 1_000_000

# Work allowed to numpy.shares_memory for one pair of strided views; the exact answer for two views of
# one matrix (a matrix and its transpose, a matrix and itself) takes a handful of steps.
_MAX_WORK = 100_000


def _check_named(named: Any) -> list[tuple[str, np.ndarray]]:
    if not is_a(named, Mapping):
        raise TypeError(f"named must be a mapping of names to NumPy arrays (a dict), got {_describe(named)}")
    try:
        size = len(named)
    except Exception as exc:  # a mapping's own __len__ (or one past sys.maxsize)
        raise TypeError(
            f"named must be a mapping of names to NumPy arrays (a dict), got one whose len() fails ({type_name(exc)})"
        ) from None
    if size > MAX_NAMES:
        raise ValueError(f"named must hold at most {MAX_NAMES:,} names, got {size:,}")
    items = []
    try:  # a mapping's own items() (and the __getitem__ it calls) may fail however it fails
        pairs = list(itertools.islice(named.items(), MAX_NAMES + 1))
    except Exception as exc:
        raise TypeError(
            f"named must be a mapping of names to NumPy arrays (a dict) whose items can be read; "
            f"reading them failed ({type_name(exc)})"
        ) from None
    for count, pair in enumerate(pairs):
        if not (type(pair) is tuple and len(pair) == 2):
            raise TypeError("named must be a mapping of names to NumPy arrays (a dict): its items are not pairs")
        key, value = pair
        if count == MAX_NAMES:  # a mapping whose len() understates what it yields
            raise ValueError(f"named must hold at most {MAX_NAMES:,} names, got more")
        if type(key) is not str:  # a plain str: a subclass's own ==, hash or repr never runs
            raise TypeError(f"named must have str keys (parameter names), got the key {short_repr(key)}")
        if not issubclass(type(value), np.ndarray):
            raise TypeError(f"named[{short_repr(key)}] must be a NumPy array, got {_describe(value)}")
        items.append((key, value))
    return items


def tie_groups(named: Mapping[str, np.ndarray]) -> list[tuple[str, ...]]:
    """The names that reach one array: groups of two or more names whose arrays share their memory.

    Parameters
    ----------
    named : dict of str to numpy.ndarray
        A model's parameters by name, as a checkpoint lists them. Never copied or changed.

    Returns
    -------
    list of tuple of str
        One tuple per tie, names in the mapping's order; groups in the order of their first name.
        A name whose array shares memory with no other is in no group.

    Raises
    ------
    TypeError
        If ``named`` is not a dict of str to arrays.
    ValueError
        If two arrays share memory without being one array (a slice and its matrix, a broadcast
        and its source, one buffer read as two dtypes): that is no tie, and
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
    # Names whose arrays have the same start, shape, strides and dtype reach the very same elements:
    # grouped at once, without comparing memory. Only one array per such key goes on.
    firsts: dict[tuple, int] = {}
    parent = list(range(len(items)))
    for i, (_, a) in enumerate(items):
        if a.size:
            key = (a.__array_interface__["data"][0], a.shape, a.strides, a.dtype.str)
            parent[i] = firsts.setdefault(key, i)
    distinct = [i for i in range(len(items)) if parent[i] == i and items[i][1].size]

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # Only arrays whose byte ranges overlap can share memory. Count those pairs first (a sweep over
    # sorted starts and ends), and refuse a mapping with too many to compare, before comparing any.
    spans = sorted((*byte_bounds(items[i][1]), i) for i in distinct)
    ends = sorted(end for _, end, _ in spans)
    pairs = sum(k - bisect.bisect_right(ends, start) for k, (start, _, _) in enumerate(spans))
    if pairs > MAX_PAIRS:
        raise ValueError(
            f"named must hold at most {MAX_PAIRS:,} pairs of distinct arrays whose memory ranges overlap, "
            f"got {pairs:,} (views of one buffer under many names); compare fewer views at a time"
        )
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


def _elements(a: np.ndarray) -> tuple:
    """A canonical description of the bytes ``a``'s elements occupy: equal for two views of one set.

    Start at the lowest element, drop axes of length 1, make every stride positive, sort the axes
    by stride and merge axes that continue one another. A broadcast (a zero stride) lists elements
    more than once: it is described as itself alone, so it is one array only with an identical view.
    """
    start = a.__array_interface__["data"][0]
    axes = []
    for n, s in zip(a.shape, a.strides, strict=True):
        if n == 1:
            continue
        if s == 0:  # a broadcast repeats its elements: never one array with its source (None is unequal)
            return (None, id(a))
        if s < 0:
            start += s * (n - 1)
            s = -s
        axes.append((s, n))
    axes.sort()
    merged: list[list[int]] = []
    for s, n in axes:
        if merged and merged[-1][0] * merged[-1][1] == s:  # this axis continues the previous one
            merged[-1][1] *= n
        else:
            merged.append([s, n])
    # the dtype too: the same bytes read as another dtype are not one array
    return start, a.dtype.str, tuple(map(tuple, merged))


def _shares(first: tuple[str, np.ndarray], second: tuple[str, np.ndarray]) -> bool:
    """Whether two arrays are one tie (the same elements), refusing arrays that share memory otherwise."""
    (name_a, a), (name_b, b) = first, second
    pair = f"named[{short_repr(name_a)}] and named[{short_repr(name_b)}]"
    try:
        shared = np.shares_memory(a, b, max_work=_MAX_WORK)
    except np.exceptions.TooHardError:
        raise ValueError(
            f"{pair} are strided views too intricate to tell whether they share memory; pass the arrays themselves"
        ) from None
    if not shared:
        return False
    if _elements(a) != _elements(b):
        raise ValueError(
            f"{pair} share memory but are not one array (shapes {a.shape} "
            f"and {b.shape}, dtypes {a.dtype} and {b.dtype}, strides {a.strides} and {b.strides}): a tie is "
            "one array under two names, not part of one, a broadcast of one or the same bytes read as "
            "another dtype"
        )
    return True


def count_params(named: Mapping[str, np.ndarray], *, once: bool = True) -> int:
    """Count a model's parameters, a tied array once (``once=True``) or under each of its names.

    ``once=True`` counts as a parameter list does, each array once whatever names reach it;
    ``once=False`` counts every name's array, as adding up a checkpoint's entries does.

    Parameters
    ----------
    named : dict of str to numpy.ndarray
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
