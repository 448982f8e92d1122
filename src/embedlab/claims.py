"""Checking the hand-written draft's numbers against what embedlab computes.

The draft is a claim; the computation wins. :func:`check` prints one line per claim, so a
notebook shows the reader exactly which of the draft's numbers hold.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any

import numpy as np

from ._validation import (
    _describe,
    _int_of,
    _is_one_of,
    _no_false_class,
    _objects,
    as_array,
    exact_int,
    is_a,
    is_sub,
    plain_str,
    short_repr,
    type_name,
    unwrap_0d,
)

__all__ = [
    "MAX_VALUES",
    "check",
]


def _figure(v: Fraction | float, decimals: int, grouped: bool) -> str:
    """A figure at ``decimals`` places, written exactly (a Fraction's own digits, no float noise), or NaN/inf."""
    if not is_sub(type(v), Fraction):
        return f"{v:,.{decimals}f}" if grouped else f"{v:.{decimals}f}"
    n = v * 10**decimals
    digits = abs(n.numerator // n.denominator if n.denominator == 1 else round(n))
    whole, part = divmod(digits, 10**decimals)
    text = f"{whole:,}" if grouped else str(whole)
    return ("-" if v < 0 else "") + text + (f".{part:0{decimals}d}" if decimals else "")


def _show(figures: list[str], scalar: bool) -> str:
    return figures[0] if scalar else "[" + ", ".join(figures) + "]"


#: Most values one claim may compare: a draft prints a few numbers, not a matrix of millions.
MAX_VALUES = 10_000


def _exact_float(v: int, name: str) -> float:
    """An int as a float64, refusing one that float64 would round (a draft's 2**53 + 1 is not 2**53)."""
    try:
        f = float(v)
    except OverflowError:
        f = None
    if f is None or int(f) != v:
        raise ValueError(
            f"{name} must be a number float64 holds exactly to be compared, got the integer {short_repr(v)}, "
            "which float64 would round"
        )
    return f


def _written(draft: Any, d: np.ndarray, name: str = "draft") -> list[Fraction | None]:
    """Each figure of the draft as it was typed: the shortest decimal of its float in its own precision.

    A float32 0.1 was typed as 0.1, not as the float64 0.10000000149011612 it widens to. None where
    a figure is not finite.
    """
    items = list(_leaves(draft))
    if len(items) != d.size:  # a shape NumPy read differently as objects: the float64 figures stand
        items = list(d.ravel())
    out: list[Fraction | None] = []
    for v, f in zip(items, d.ravel().tolist(), strict=True):
        if not math.isfinite(f):
            out.append(None)
        elif is_a(v, numbers.Integral):
            out.append(Fraction(_int_of(v, name)))
        elif issubclass(type(v), np.floating) and v.dtype.itemsize < 8:  # float16, float32: typed in their own digits
            exact = Fraction(f)
            # a whole number float64 holds exactly (2**30 as a float32) was typed as itself, not as the
            # shortest decimal of its precision (1.0737418e+09)
            whole = exact.denominator == 1 and abs(exact) <= 2**53
            out.append(exact if whole else Fraction(np.format_float_positional(v, unique=True)))
        else:
            out.append(Fraction(repr(f)))
    return out


def _leaves(x: Any, depth: int = 0) -> Any:
    """The numbers of a draft in order, each as passed: a float32 inside a list stays a float32.

    Lists and tuples are walked; anything else (an array, a memoryview, an array-like, a number) is
    read as NumPy reads it, so its own dtype is kept.
    """
    if issubclass(type(x), (list, tuple)) and depth < 64:
        for item in list.__iter__(x) if issubclass(type(x), list) else tuple.__iter__(x):  # a namedtuple too
            yield from _leaves(item, depth + 1)
    elif is_a(x, (numbers.Number, np.generic)) and not issubclass(type(x), np.ndarray):
        yield x
    else:
        try:
            yield from np.asarray(x).ravel()  # NumPy scalars of its own dtype
        except Exception:  # the draft was converted once already; a second reading that fails changes nothing
            return


def _roundings(x: Fraction, decimals: int) -> tuple[Fraction, ...]:
    """The figures ``x`` rounds to at ``decimals`` places: one, or both neighbours when it lies exactly half-way.

    Exact rational arithmetic: no rounding error, and no dependence on the caller's ``decimal`` context.
    """
    scaled = x * 10**decimals
    low = math.floor(scaled)
    rest = scaled - low
    if rest == 0:
        ends: tuple[int, ...] = (low,)
    elif rest == Fraction(1, 2):
        ends = (low, low + 1)
    else:
        ends = (low + 1 if rest > Fraction(1, 2) else low,)
    return tuple(Fraction(e, 10**decimals) for e in ends)


def _exact_real(v: Any, name: str) -> float:
    """A real number as the float64 that equals it, refusing one float64 would round.

    NaN and infinities pass (a draft may show them; they just differ).
    """
    if is_a(v, numbers.Integral):
        return _exact_float(_int_of(v, name), name)
    if issubclass(type(v), float):  # the number it holds: a subclass's own __float__ or == never runs
        v = float.__float__(v)
    elif is_sub(type(v), Fraction):
        v = _plain_fraction(v, name)
    try:
        f = float(v)
    except OverflowError:
        f = math.inf if v > 0 else -math.inf
    if math.isfinite(f):
        exact = f == v if not issubclass(type(v), np.floating) else np.asarray(f).astype(v.dtype) == v
        if not exact:
            raise ValueError(
                f"{name} must be a number float64 holds exactly to be compared, got {short_repr(v)}, "
                "which float64 would round"
            )
    elif is_a(v, numbers.Rational) or (issubclass(type(v), np.floating) and np.isfinite(v)):
        raise ValueError(f"{name} must fit in float64 to be compared, got {short_repr(v)}")
    return f


def _plain_fraction(v: Fraction, name: str) -> Fraction:
    """A Fraction of a subclass as the plain Fraction it holds, read by Fraction's own fields (its own
    ``__float__``, ``__array__`` or ``numerator`` never run)."""
    if type(v) is Fraction:
        return v
    try:
        return Fraction(int.__index__(Fraction.numerator.__get__(v)), int.__index__(Fraction.denominator.__get__(v)))
    except Exception:  # a subclass that broke the fields Fraction keeps
        raise TypeError(f"{name} must hold plain numbers, got {type_name(v)}, whose value cannot be read") from None


def _plain_floats(x: Any, name: str, depth: int = 0) -> Any:
    """``x`` with each float of a subclass (alone, or in lists and tuples) as the plain float it holds:
    NumPy would read it through its own ``__float__``, which may say another number. One that lies about
    its class is refused by name."""
    if issubclass(type(x), float):
        _no_false_class(x, name)
        return float.__float__(x)
    if is_sub(type(x), Fraction):  # NumPy would read a subclass through its own __array__ or __len__
        return _plain_fraction(x, name)
    if depth and (
        issubclass(type(x), (bool, np.bool_)) or (issubclass(type(x), np.ndarray) and x.dtype == np.bool_)
    ):  # NumPy would read it beside numbers as 1 or 0
        raise TypeError(f"{name} must be a number or an array of numbers, got {short_repr(x)} among them")
    if _is_one_of(type(x), (list, tuple)):
        if depth == MAX_DEPTH:
            raise ValueError(
                f"{name} must have at most {MAX_DEPTH} dimensions (NumPy's limit), got lists nested deeper"
            )
        if depth == 0 and _count_items(x, MAX_VALUES) > MAX_VALUES:  # counted before anything is copied
            raise ValueError(f"{name} must hold at most {MAX_VALUES:,} values (figures a draft prints)")
        return [_plain_floats(v, name, depth + 1) for v in x]
    return x


#: Most levels of lists a draft may nest: NumPy's most dimensions (a table of figures needs two).
MAX_DEPTH = 64


def _count_items(x: Any, most: int, depth: int = 0) -> int:
    """How many numbers the lists and tuples of ``x`` hold (an array inside counts its size), counted
    until past ``most``: a shared nesting (``[[0.5] * 200] * 200``) is never walked whole."""
    if issubclass(type(x), np.ndarray):
        return int(np.ndarray.__dict__["size"].__get__(x))
    if not _is_one_of(type(x), (list, tuple)) or depth > MAX_DEPTH:
        return 1
    count = 0
    for v in x:
        count += _count_items(v, most - count, depth + 1)
        if count > most:
            break
    return count


def _as_float64(x: Any, name: str) -> np.ndarray:
    """A float64 array of the figure (NaN and inf allowed: a draft may show them, they just differ)."""
    if issubclass(type(x), (str, bytes)):
        raise TypeError(f"{name} must be a number or an array of numbers, got the string {short_repr(x)}")
    x = _plain_floats(x, name)
    arr = as_array(x, name, "numbers")
    if arr.size > MAX_VALUES:
        raise ValueError(f"{name} must hold at most {MAX_VALUES:,} values (figures a draft prints), got {arr.size:,}")
    from_list = issubclass(type(x), (list, tuple)) and arr.dtype.kind == "f"
    if from_list or arr.dtype.kind == "O":
        # A list NumPy made a float array or objects: ints beyond 2**53, mixed numpy int types,
        # longdoubles, Fractions. Each item is read as itself and must be a float64 exactly (or be
        # refused): a figure rounded before it is compared could agree where it differs.
        objects = _objects(x, arr, name) if from_list else arr  # sized first: one Python object an entry
        flat = [unwrap_0d(v) for v in objects.ravel()]
        if objects.shape == arr.shape and all(
            is_a(v, numbers.Real) and not issubclass(type(v), (bool, np.bool_)) for v in flat
        ):
            arr = np.array([_exact_real(v, name) for v in flat], dtype=np.float64).reshape(arr.shape)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be a number or an array of numbers, got {_describe(arr)}")
    if arr.dtype.kind in "iu" and arr.size and max(-int(arr.min()), int(arr.max())) > 2**53:
        for w in arr.ravel().tolist():  # beyond 2**53 not every int is a float64: compare only those that are
            _exact_float(int(w), name)
    if arr.dtype.kind == "f" and arr.dtype.itemsize > 8:
        finite = np.isfinite(arr)
        with np.errstate(over="ignore"):
            big = finite & ~np.isfinite(arr.astype(np.float64))
        if big.any():
            raise ValueError(
                f"{name} must fit in float64 to be compared, got {short_repr(arr[big].ravel()[0])} "
                "(beyond 1.8e308, it would show as inf)"
            )
        with np.errstate(over="ignore"):
            rounded = finite & (arr.astype(np.float64).astype(arr.dtype) != arr)
        if rounded.any():
            raise ValueError(
                f"{name} must be a number float64 holds exactly to be compared, got "
                f"{short_repr(arr[rounded].ravel()[0])}, which float64 would round"
            )
    with np.errstate(over="ignore"):
        return arr.astype(np.float64)


def check(label: str, draft: Any, computed: Any, decimals: int) -> None:
    """Print whether the draft's figure matches the computed one to the draft's own precision.

    The computed value is rounded to ``decimals`` places (the precision the draft wrote) and
    compared with the draft's figure. A draft given to more places than ``decimals`` (an exact
    1/3, say) is first rounded to ``decimals`` places, so it is read as the figure a reader sees.
    A draft that is the computed float64 agrees at any number of places: it cannot say more than
    which float it is.

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
    if not issubclass(type(label), str):
        raise TypeError(f"label must be a str, got {_describe(label)}")
    label = plain_str(label)  # printed as the text it holds
    if len(label) > 1000 or not label.isprintable():  # one line: no newline, control or direction character
        raise ValueError(f"label must be printable text of at most 1,000 characters, got {short_repr(label)}")
    if issubclass(type(decimals), (bool, np.bool_)) or not is_a(decimals, numbers.Integral):
        raise TypeError(f"decimals must be an int, got {_describe(decimals)}")
    decimals = exact_int(decimals, "decimals")
    if not 0 <= decimals <= 17:
        raise ValueError(f"decimals must be in [0, 17], the digits a float64 holds, got {short_repr(decimals)}")
    d = _as_float64(draft, "draft")
    exact = _as_float64(computed, "computed")
    if d.shape != exact.shape:
        raise ValueError(f"draft and computed must have the same shape, got {d.shape} and {exact.shape}")
    # The draft agrees when one figure it rounds to at ``decimals`` places is a figure the computed value
    # rounds to (a value exactly half-way rounds to both of its neighbours), in exact rational arithmetic.
    # The draft is read as the decimal it was written as (the shortest form of its float: 0.005, not
    # 0.005000000000000000104), the computed value as the exact binary number it is. A draft written to
    # ``decimals`` places is its own figure, so it agrees when the computed value is within half a unit
    # of it; one written to more places agrees when both round alike: 0.6 at 0 places (1) differs from
    # 0.1 (0), and a typed 0.35 (half-way: 0.3 or 0.4) agrees with the float 0.35 (0.3499...97, so 0.3).
    # No tolerance: a value that rounds the other way (1.5000000005 to 0 places) must not agree. A float
    # cannot say more than which float it is, so a draft that is the computed value agrees at any number
    # of places: the computed float64 of the decimal the draft typed (0.1 at 17 places, though the float
    # is 0.1000000000000000055...; 1e15 + 0.3 at 2, the float ...000.25 typed as ...000.2), or the same
    # decimal typed in each one's own precision (a float32 0.1 against a float32 0.1 at 9 places). Past
    # 2**53 every float64 is a whole number and is shown as that number (1e23 typed is the float 1e23
    # computed, 99,999,999,999,999,991,611,392).
    shown_draft: list[Fraction | float] = []
    shown_computed: list[Fraction | float] = []
    close = []
    written, written_computed = _written(draft, d), _written(computed, exact, "computed")
    for w, wc, typed, x in zip(written, written_computed, d.ravel().tolist(), exact.ravel().tolist(), strict=True):
        if w is None or not math.isfinite(x):  # NaN and infinities: shown as they are, compared below
            shown_draft.append(typed if w is None else round(w, decimals))
            shown_computed.append(x)
            close.append(False)
            continue
        common = set(_roundings(w, decimals)) & set(_roundings(Fraction(x), decimals))
        # the draft is the float64 of the decimal typed (a float32 0.1 is 0.1, not 0.10000000149011612); past
        # 2**53 it is the float64 it holds too: a float32 1e23 is the 1e23 typed, a float32 2**60 or 1e20 is
        # the float64 it equals
        same_float = w == wc or float(w) == x or (abs(x) >= 2.0**53 and typed == x)
        close.append(bool(common) or same_float)
        if same_float and abs(x) >= 2.0**53:
            shown_draft.append(Fraction(x))
            shown_computed.append(Fraction(x))
        elif common:  # the one figure both show: rounded half to even where both neighbours are common
            shown = round(w, decimals) if round(w, decimals) in common else min(common)
            shown_draft.append(shown)
            shown_computed.append(shown)
        elif same_float:  # the computed float is the decimal the draft typed, to as many places as asked
            shown_draft.append(round(w, decimals))
            shown_computed.append(round(w, decimals))
        else:  # each rounded half to even: the draft from its decimal, the computed value from its exact binary
            shown_draft.append(round(w, decimals))
            shown_computed.append(round(Fraction(x), decimals))
    same_infinity = np.isinf(d) & (d == exact)
    ok = bool(np.all(np.array(close, dtype=bool).reshape(d.shape) | same_infinity | (np.isnan(d) & np.isnan(exact))))
    grouped = d.ndim == 0
    draft_text = _show([_figure(v, decimals, grouped) for v in shown_draft], grouped)
    computed_text = _show([_figure(v, decimals, grouped) for v in shown_computed], grouped)
    print(f"{label}: draft {draft_text}, computed {computed_text} -> {'agrees' if ok else 'DIFFERS'}")
