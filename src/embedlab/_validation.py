"""Checks at the public boundary, in the manner of scikit-learn's ``utils/validation.py``.

Each check names the argument, says what was expected and what arrived. ``TypeError`` for a
wrong type, ``ValueError`` for a wrong value or shape. Checks never scan more data than the
operation itself reads: a lookup of a few rows never looks at the whole of ``E``.

Messages stay short: what arrived is described by its type, dtype and shape, and any repr is
cut to a few dozen characters, so a huge input is never repeated in its own error message.

dtype policy (the README's "dtype policy" section)
--------------------------------------------------
* Floating arrays of any width (float16, float32, float64, longdouble) are read as they are,
  never copied to change dtype; integer arrays become float64; bool, complex, object, string,
  datetime and masked arrays are refused with ``TypeError``.
* Arithmetic that *accumulates* (sums, dot products, softmax normalisers) runs in at least
  float32: float16 inputs are widened to float32 for the accumulation (:func:`work_dtype`),
  and the result is rounded back once, at the end.
* Arrays come back in the input's floating dtype (NumPy's promotion of the inputs when there
  are several); functions that return one number return a Python ``float``.
* A result that does not fit its dtype (it would overflow to ``inf``) is refused with a
  ``ValueError`` naming the argument responsible, never returned as ``inf`` and never shown as
  a NumPy ``RuntimeWarning``. One exception, by design: a log-probability is ``-inf`` where the
  probability is 0 in the dtype (:func:`embedlab.log_softmax` of a masked ``-inf`` logit, or of
  logits spanning the dtype's whole range), as ``log(0)`` is.
"""

from __future__ import annotations

import abc
import collections
import decimal
import enum
import itertools
import math
import numbers
import operator
import os
import re
import string
import sys
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from pathlib import Path, PurePath
from typing import Any

import numpy as np

#: Longest repr of an input quoted in a message.
_REPR_LIMIT = 40


#: Widest field (and most decimals) a format string may ask for: a number is never shown wider.
MAX_FORMAT_WIDTH = 1000
#: Longest format string: with each field at most MAX_FORMAT_WIDTH wide, what it prints stays small.
MAX_FORMAT_LENGTH = 200


def check_format(fmt: str, name: str) -> None:
    """Refuse a format string that asks for a field wider, or more decimals, than :data:`MAX_FORMAT_WIDTH`.

    ``"{:>2000000000}".format(x)`` would allocate gigabytes before any error; every run of digits
    in a field's format spec (width, precision, even a digit fill) is read as a size and bounded, and
    the string itself is at most :data:`MAX_FORMAT_LENGTH` characters (so are its fields).
    """
    if len(fmt) > MAX_FORMAT_LENGTH:  # a few fields each: the total it can print stays bounded
        raise ValueError(f"{name} must be at most {MAX_FORMAT_LENGTH:,} characters, got {len(fmt):,}")
    try:
        fields = list(string.Formatter().parse(fmt))
    except ValueError as exc:
        raise ValueError(f"{name} must be a valid format string, got {short_repr(fmt)} ({exc})") from None
    for _, _, spec, _ in fields:
        if spec and "{" in spec:  # a nested field takes its width from the value itself: never bounded
            raise ValueError(f"{name} must not nest a field inside a format spec, got {short_repr(fmt)}")
        for digits in re.findall(r"\d+", spec or ""):
            if len(digits) > 4 or int(digits) > MAX_FORMAT_WIDTH:
                raise ValueError(
                    f"{name} must not ask for a width or precision above {MAX_FORMAT_WIDTH}, got {short_repr(fmt)}"
                )


#: Built-in containers shown a few levels and items deep (never their whole, which may be nested or shared).
_CONTAINERS = (list, tuple, dict, set, frozenset)
_SHOWN_ITEMS, _SHOWN_LEVELS = 30, 3


def _safe_repr_types() -> tuple[type, ...]:
    """Types whose repr is short whatever the value and runs no caller's code: shown as repr gives them."""
    import datetime
    import fractions

    numpy_scalars = {np.dtype(c).type for c in np.typecodes["All"] if c not in "OVSU"}  # no records, no text
    stdlib = {fractions.Fraction, type(None), type(...), range}
    stdlib |= {datetime.date, datetime.datetime, datetime.time, datetime.timedelta, datetime.timezone}
    return tuple(numpy_scalars | stdlib)


_SAFE_REPR = _safe_repr_types()
#: Packages whose objects' reprs are short (a figure, an axes, an artist): shown as repr gives them.
_SHORT_REPR_PACKAGES = ("embedlab", "matplotlib")


def short_repr(x: Any, limit: int = _REPR_LIMIT) -> str:
    """``repr(x)`` cut to ``limit`` characters, never the whole of a huge input.

    Built-in containers are shown at most three levels and thirty items deep, so a self-referring
    or shared nesting is shown at once; numbers, text and a few other short kinds as repr gives
    them; anything else by its class alone (its repr may hold its whole content, or run code).
    """
    try:
        text = _bounded_repr(x, limit, _SHOWN_LEVELS)
    except Exception:  # a class whose own __eq__, __hash__ or attributes fail: shown by its name
        text = f"<{type_name(x)}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_one_of(kind: type, types: tuple[type, ...]) -> bool:
    """``kind in types`` by identity: a metaclass's own == never runs."""
    if type(kind) is type:  # type's own == and hash: by identity already
        return kind in types
    return any(kind is t for t in types)


def odd_metaclass(kind: type) -> bool:
    """Whether the metaclass of ``kind`` redefines how classes compare, hash or answer attribute lookups.

    ``isinstance(x, numbers.Real)`` hashes ``type(x)`` (an abstract class keeps a cache of the
    classes it has seen) and may read its ``__mro__``; ``type(x) in (list, tuple)`` compares it;
    ``type(x).__name__`` looks it up. For such a class each runs the caller's metaclass code, which
    may raise anything. Python's own metaclasses (``type``, ``ABCMeta``, ``EnumType``) and NumPy's
    are trusted.
    """
    meta = type(kind)
    if _is_trusted_meta(meta):
        return False
    for k in _TYPE_MRO.__get__(meta):
        if _is_trusted_meta(k) or k is object:
            continue
        namespace = _TYPE_DICT.__get__(k)
        if any(name in namespace for name in _META_COMPARISONS):  # even `__hash__ = None`: no class is hashable
            return True
        # A metaclass's own __module__ or __qualname__ is plain text about it; only code (a function, a
        # property, any descriptor) under one of these names runs when a class of it is looked at.
        if any(hasattr(type(namespace[name]), "__get__") for name in _META_LOOKUPS if name in namespace):
            return True
    return False


def _is_trusted_meta(meta: type) -> bool:
    return any(meta is m for m in _TRUSTED_METAS)


_META_COMPARISONS = ("__eq__", "__ne__", "__hash__")
_META_LOOKUPS = (
    "__getattribute__", "__getattr__", "__mro__", "mro", "__dict__", "__name__", "__qualname__", "__module__",
    "__bases__", "__class__", "__instancecheck__", "__subclasscheck__",
)  # fmt: skip
_TRUSTED_METAS = (type, abc.ABCMeta, enum.EnumType, type(type(np.dtype("f8"))))


def is_a(x: Any, types: Any) -> bool:
    """``isinstance(x, types)`` for abstract types (``numbers.Real``), False for an object whose
    class's metaclass redefines comparisons or lookups (:func:`odd_metaclass`: the check would run that code).
    By ``type(x)``: isinstance would read ``x.__class__``, which an object's own ``__getattribute__`` can answer
    or fail."""
    return is_sub(type(x), types)


def is_sub(kind: type, types: Any) -> bool:
    """``issubclass(kind, types)`` for abstract types, False for a class of an :func:`odd_metaclass`."""
    try:
        return not odd_metaclass(kind) and issubclass(kind, types)
    except Exception:  # an ABC's __subclasshook__ (anyone's, registered anywhere) that fails: not one of them
        return False


def _bounded_repr(x: Any, room: int, levels: int) -> str:
    """The repr of ``x``, or of its first items and levels: about ``room`` characters are needed."""
    kind = type(x)  # by type, not isinstance: an object may lie about its class
    if odd_metaclass(kind):  # shown as what it is, which says why it is refused (its value may look plain)
        return f"<{type_name(x)}, whose metaclass redefines how classes compare or are looked up>"
    if issubclass(kind, np.ndarray):
        return (
            f"array(dtype={np.ndarray.__dict__['dtype'].__get__(x)}, shape={np.ndarray.__dict__['shape'].__get__(x)})"
        )
    if _is_one_of(kind, _CONTAINERS):
        return _container_repr(x, room, levels)
    if issubclass(kind, _CONTAINERS):  # its own __repr__ never runs, nor its own __len__
        base = next(b for b in _CONTAINERS if issubclass(kind, b))
        return f"<{type_name(x)} of {base.__len__(x):,} items>"
    if issubclass(kind, (str, bytes)) and (str.__len__(x) if issubclass(kind, str) else bytes.__len__(x)) > 4 * room:
        x = (str if issubclass(kind, str) else bytes).__getitem__(x, slice(0, 2 * room))  # cut before quoting
    if issubclass(kind, int) and int.bit_length(x) > 4 * max(room, _REPR_LIMIT):
        return f"<an int of {int.bit_length(x):,} bits>"  # repr of a huge int is slow, or refused past 4300 digits
    # A subclass of a built-in shown as the value it holds: its own __repr__ never runs (nor misreports it).
    plain = next((base for base in (bool, int, float, complex, str, bytes) if issubclass(kind, base)), None)
    if plain is not None:
        return plain.__repr__(x)
    if kind is decimal.Decimal:  # short unless it holds many digits (its size tells, without listing them)
        size = sys.getsizeof(x)
        return repr(x) if size <= 256 else f"<a Decimal of {size:,} bytes>"
    module = type.__dict__["__module__"].__get__(kind)
    known = type(module) is str and module.split(".")[0] in _SHORT_REPR_PACKAGES
    if not (_is_one_of(kind, _SAFE_REPR) or known):
        return f"<{type_name(x)}>"  # its repr may hold its whole content (a bytearray, a view, an exception)
    try:
        return repr(x)  # no caller's code: numbers, dates, and embedlab's or matplotlib's own objects
    except Exception:  # a broken __repr__ must not turn a clean error into another one
        return f"<{type_name(x)}>"


def _container_repr(x: Any, room: int, levels: int) -> str:
    """A built-in list, tuple, dict, set or frozenset, its first items to ``levels`` levels."""
    kind = type(x)
    empty = {list: "[]", tuple: "()", dict: "{}", set: "set()", frozenset: "frozenset()"}[kind]
    if not kind.__len__(x):
        return empty
    if levels == 0:
        return (
            empty[:-1].replace("()", "(") + "...)"
            if _is_one_of(kind, (set, frozenset))
            else empty[0] + "..." + empty[-1]
        )
    # The first items taken before any is shown: an item's repr may change the container meanwhile.
    items = list(itertools.islice(dict.items(x) if kind is dict else kind.__iter__(x), _SHOWN_ITEMS + 1))
    parts: list[str] = []
    used = 0
    for i, item in enumerate(items):
        if i == _SHOWN_ITEMS or used > room:
            parts.append("...")
            break
        if kind is dict:
            key, value = item
            part = f"{_bounded_repr(key, room - used, levels - 1)}: {_bounded_repr(value, room - used, levels - 1)}"
        else:
            part = _bounded_repr(item, room - used, levels - 1)
        parts.append(part)
        used += len(part) + 2
    body = ", ".join(parts)
    if kind is tuple and len(parts) == 1 and parts[0] != "...":
        body += ","
    opening, closing = {list: "[]", tuple: "()", dict: "{}", set: "{}", frozenset: "{}"}[kind]
    text = opening + body + closing
    return f"frozenset({text})" if kind is frozenset else text


def _describe(x: Any) -> str:
    """A short description of what arrived, for error messages."""
    if issubclass(type(x), np.ndarray):
        dtype, shape = (np.ndarray.__dict__[a].__get__(x) for a in ("dtype", "shape"))  # not the subclass's own
        return f"an array of dtype {dtype} and shape {shape}"
    return f"{type_name(x)} {short_repr(x)}"


def type_name(x: Any) -> str:
    """The name of ``x``'s class, cut to 60 characters (a caller's class may have any name, or a metaclass
    that lies about it)."""
    kind = type.__dict__["__name__"].__get__(type(x))
    return kind if len(kind) <= 60 else kind[:57] + "..."


#: Address space kept free under ``RLIMIT_AS`` for what NumPy's BLAS allocates inside a product.
BLAS_RESERVE = 512 * 2**20


def _address_space_used() -> int:
    """Bytes of address space this process already holds (what ``RLIMIT_AS`` counts); 0 where unknown."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * int(os.sysconf("SC_PAGE_SIZE"))
    except (OSError, ValueError, IndexError, AttributeError):
        return 0


def _max_bytes() -> int:
    """What this process may allocate: the physical memory, or what is left of the address-space limit
    (``RLIMIT_AS``, less what the process already holds) when one is set and lower (2**40 if neither is
    known). No result may be larger."""
    try:
        limit = int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        limit = 1 << 40
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            # less what the process holds, and room for the BLAS library's own buffers during a product
            limit = min(limit, int(soft) - _address_space_used() - BLAS_RESERVE)
    except (ImportError, AttributeError, ValueError, OSError):  # not on this platform
        pass
    return limit


def check_nbytes(shape: tuple[int, ...], dtype: Any, name: str) -> None:
    """Refuse, before allocating, a result of ``shape`` that would not fit in this machine's memory.

    The size is computed with Python ints, so an absurd size such as ``2**63 - 1`` neither
    overflows nor reaches the allocator (which would raise ``MemoryError`` or, worse, wrap around).
    """
    nbytes = math.prod(int(n) for n in shape) * np.dtype(dtype).itemsize
    limit = _max_bytes()
    if nbytes > limit and limit <= 0:
        raise ValueError(
            f"{name} is too large: this process may allocate nothing more under its address-space limit (RLIMIT_AS)"
        )
    if nbytes > limit:
        shown = "(" + ", ".join(short_repr(int(n), 24) for n in shape) + ("," if len(shape) == 1 else "") + ")"
        amount = f"{nbytes:,}" if nbytes < 10**24 else f"at least 2**{nbytes.bit_length() - 1}"
        raise ValueError(
            f"{name} is too large: the result of shape {shown} would take {amount} bytes, "
            f"more than this machine's {limit:,} bytes of memory"
        )


def check_size(value: Any, name: str) -> int:
    """Return ``value`` as a Python int, requiring a positive integer (not a bool)."""
    _no_false_class(value, name)
    if issubclass(type(value), (bool, np.bool_)) or not is_a(value, numbers.Integral):
        raise TypeError(f"{name} must be a positive integer, got {_describe(value)}")
    value = _plain_int(value, name)
    if abs(int(value)).bit_length() > 8192:  # no size is this large; past 4,300 digits Python will not print it
        raise ValueError(f"{name} must be a positive integer below 2**8192, got {short_repr(int(value))}")
    if value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {short_repr(int(value))}")
    return int(value)


def plain_str(x: Any) -> Any:
    """A str of a subclass as the plain str it holds (its own ``==``, hash or format never run); else ``x``."""
    return str.__str__(x) if issubclass(type(x), str) else x


def check_path(path: Any, name: str, what: str = "a str or pathlib.Path") -> Path:
    """``path`` (a str or a ``pathlib`` path, of a subclass too) as a plain :class:`pathlib.Path`,
    read by str's and PurePath's own methods: a subclass's ``__str__`` or ``__fspath__`` never runs."""
    kind = type(path)
    if issubclass(kind, str):
        return Path(str.__str__(path))
    if issubclass(kind, PurePath) and not issubclass(kind, _SYSTEM_PURE_PATH):  # a Windows path on Linux, say
        raise TypeError(f"{name} must be {what} of this system, got {type_name(path)}")
    if issubclass(kind, PurePath) and not odd_metaclass(kind):
        try:
            return Path(PurePath.__str__(path))
        except Exception:  # a subclass that broke what PurePath reads
            raise TypeError(f"{name} must be {what}, got {type_name(path)}, whose path cannot be read") from None
    raise TypeError(f"{name} must be {what}, got {_describe(path)}")


_SYSTEM_PURE_PATH = type(PurePath())  # PurePosixPath here, PureWindowsPath on Windows


def plain_items(x: Any, name: str, what: str) -> list[Any]:
    """The items of a list or tuple (of a subclass too), read through list's or tuple's own methods: a
    subclass's ``__len__``, ``__iter__`` or ``__getitem__`` never runs. Anything else is refused by name."""
    kind = type(x)
    base = list if issubclass(kind, list) else tuple if issubclass(kind, tuple) else None
    if base is None or odd_metaclass(kind):
        raise TypeError(f"{name} must be {what}, got {_describe(x)}")
    return [base.__getitem__(x, i) for i in range(base.__len__(x))]


def iter_items(x: Any, name: str, what: str) -> Iterator[Any]:
    """The items of an iterable argument, lazily: a list or tuple (a subclass too) read through list's or
    tuple's own methods, any other iterable through its iterator, whose failure (whatever it raises) is
    refused as a TypeError naming ``name``. A str, bytes or dict is refused: it is no sequence of items."""
    kind = type(x)
    if issubclass(kind, (str, bytes, dict)) or odd_metaclass(kind):
        raise TypeError(f"{name} must be {what}, got {_describe(x)}")
    base = list if issubclass(kind, list) else tuple if issubclass(kind, tuple) else None
    if base is not None:
        return _base_items(x, base)
    try:
        iterator = iter(x)
    except Exception:  # not iterable, or an __iter__ of its own that fails
        raise TypeError(f"{name} must be {what}, got {_describe(x)}") from None
    return _guarded(iterator, name, what)


def _base_items(x: list | tuple, base: type) -> Iterator[Any]:
    i = 0
    while i < base.__len__(x):  # re-read each time: a list shortened meanwhile ends the items
        yield base.__getitem__(x, i)
        i += 1


def _guarded(iterator: Any, name: str, what: str) -> Iterator[Any]:
    while True:
        try:
            item = next(iterator)
        except StopIteration:
            return
        except Exception as exc:  # a caller's iterator that fails part-way, whatever it raises
            raise TypeError(f"{name} must be {what}; reading its items failed ({type_name(exc)})") from None
        yield item


def check_choice(value: Any, name: str, options: tuple[str, ...]) -> str:
    """``value`` as the plain str it holds, required to be one of ``options`` (compared as str, so a
    caller's own ``==`` or hash never runs)."""
    listed = ", ".join(repr(o) for o in options[:-1]) + f" or {options[-1]!r}"
    if not issubclass(type(value), str):
        raise TypeError(f"{name} must be {listed}, got {_describe(value)}")
    plain = str.__str__(value)
    if plain not in options:
        raise ValueError(f"{name} must be {listed}, got {short_repr(plain)}")
    return plain


def check_flag(value: Any, name: str) -> bool:
    """Require a real bool, so that ``tied="no"`` is not silently truthy."""
    _no_false_class(value, name)
    if not issubclass(type(value), (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {_describe(value)}")
    return bool(value)


def check_real(value: Any, name: str, *, finite: bool = True) -> float:
    """Return a real number (int or float, numpy scalars too, not a bool) as a Python float."""
    _no_false_class(value, name)
    value = unwrap_0d(value)
    if issubclass(type(value), (bool, np.bool_)) or not is_a(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {_describe(value)}")
    value = _plain_real(value, name)
    try:
        with np.errstate(over="ignore"):  # a longdouble beyond float64 becomes inf
            x = float(value)
    except OverflowError:  # an int beyond float range
        x = math.inf if value > 0 else -math.inf
    if finite and not math.isfinite(x):
        if is_a(value, numbers.Rational) or (issubclass(type(value), np.floating) and np.isfinite(value)):
            raise ValueError(f"{name} must lie within float64's range (below 1.8e308 in size), got {short_repr(value)}")
        raise ValueError(f"{name} must be finite, got {short_repr(value)}")
    return x


def _not_masked(x: Any, name: str) -> None:
    if issubclass(type(x), np.ma.MaskedArray):
        raise TypeError(
            f"{name} must be a plain array: masked arrays are not supported (the mask would be silently "
            f"dropped); pass {name}.filled(...) or {name}.compressed()"
        )


def frozen_copy(a: np.ndarray) -> np.ndarray:
    """A C-contiguous copy of ``a`` over immutable bytes: no one can write it, nor make it writable again
    (NumPy refuses the flag over a read-only buffer). What an object keeps of a small array it has checked,
    so that no later write, through the object or through the caller's own array, can undo the check."""
    return np.frombuffer(np.ascontiguousarray(a).tobytes(), dtype=a.dtype).reshape(a.shape)


def range_len(x: range | list | tuple) -> int:
    """``len(x)``, also for a range longer than ``sys.maxsize`` (where ``len`` raises OverflowError), and
    read by list's or tuple's own method for their subclasses."""
    if issubclass(type(x), range):
        return max(0, -((x.start - x.stop) // x.step))  # ceil((stop - start) / step), exact in ints
    return list.__len__(x) if issubclass(type(x), list) else tuple.__len__(x)  # a subclass's own __len__ never runs


def as_array(x: Any, name: str, what: str) -> np.ndarray:
    """``np.asarray(x)``, refusing masked arrays and turning NumPy's ragged-list error into ours."""
    _no_false_class(x, name)
    _not_masked(x, name)
    seen: dict[str, int] = {}  # what the walk of a list saw: an int subclass with its own __float__
    if issubclass(type(x), range):
        check_nbytes((range_len(x),), np.float64, name)  # a range(10**12) is sized before NumPy builds it
    elif not is_a(x, (np.ndarray, numbers.Number)) and (
        issubclass(type(x), (list, tuple, memoryview, str, bytes))
        or _has(x, "__len__", name)
        or _is_array_like(x, name)
    ):  # a list of broadcast arrays, a memoryview, a sequence object, an array-like: sized as NumPy would
        # copy them, four times over: NumPy's conversion of nested Python sequences, and the work arrays after it
        x = read_once(x, name, what)  # what is sized is what NumPy converts (a caller reads what read_once gave)
        check_nbytes((4 * _sequence_bytes([x], name, seen),), np.uint8, name)
    try:
        arr = np.asarray(x)
    except ValueError:  # ragged nested lists
        raise ValueError(
            f"{name} must be a rectangular array of {what}, got a ragged nested sequence (rows of different lengths)"
        ) from None
    except Exception as exc:  # an object whose own conversion fails, however it fails
        raise TypeError(f"{name} must be an array of {what}, got {_describe(x)} ({type_name(exc)})") from None
    if seen.get("own_float") and arr.dtype.kind in "fc":
        arr = _held_values(x, arr, name)
    return arr


def _held_values(x: Any, arr: np.ndarray, name: str) -> np.ndarray:
    """The float array NumPy made of a list holding int subclasses, made again from the values they hold:
    NumPy read each by its own ``__float__``, which may say another number (ints that fit 64 bits: larger
    ones made an object array)."""
    flat = _items(x, arr, name)
    if flat is None:
        return arr
    # the int itself, not float() of it: a longdouble array holds 2**60 + 1 exactly, as NumPy's own would
    values = [int.__index__(v) if issubclass(type(v), int) and type(v) is not bool else v for v in flat]
    return np.array(values, dtype=arr.dtype).reshape(arr.shape)


#: Python numbers and NumPy's: NumPy stores each in at most 8 bytes (16 or 32 for the widest, within
#: the four-fold margin of :func:`as_array`).
_PLAIN_NUMBERS = (float, int, bool, complex, np.number, np.bool_)

#: Bytes a Python-level sequence item (an item of a custom sequence) costs while NumPy converts it:
#: the Python object and a pointer to it.
_PER_PYTHON_ITEM = 40

#: NumPy's limit on dimensions: a list nested deeper is refused before it is walked.
_MAX_DEPTH = 64

#: The most lists, tuples and sequence objects one argument may nest (a million rows of a matrix
#: pass; a lazy tree of 2**41 sequence objects is refused after this many, not walked to its end).
_MAX_SEQUENCES = 2_000_000


#: The dtype NumPy gives Python's own numbers (bool before int: a bool is an int).
_PYTHON_DTYPE = {bool: np.dtype(bool), int: np.dtype(np.int64), float: np.dtype(float), complex: np.dtype(complex)}


def _number_text(dtype: np.dtype) -> int:
    """Characters NumPy gives a number of ``dtype`` when it writes it beside text (``np.array(['a', 1.5])``
    is ``<U32``, a longdouble ``<U48``); 96, the widest, where it has no text form."""
    try:
        return np.promote_types(dtype, "U1").itemsize // 4
    except Exception:  # a dtype with no text form (datetime64, void, object): NumPy makes objects or refuses
        return 96


#: Types whose instances are read as numbers without a second look: Python's own and NumPy's scalars.
_EXACT_NUMBERS = frozenset({float, int, bool, complex, *(np.dtype(c).type for c in "?bBhHiIlLqQefdgFDG")})
_EXACT_NUMBER_IDS = frozenset(map(id, _EXACT_NUMBERS))  # the same, by identity (these types live as long as NumPy)
_ROW_IDS = frozenset({id(list), id(tuple)})
#: The dtype NumPy gives each of those numbers, by its type's identity.
_EXACT_DTYPES = {id(t): _PYTHON_DTYPE[t] if t in _PYTHON_DTYPE else np.dtype(t) for t in _EXACT_NUMBERS}

#: An ndarray's own attributes, read by NumPy's getters: a subclass's properties of the same names never run.
_ND_DTYPE = np.ndarray.__dict__["dtype"]
_ND_SIZE = np.ndarray.__dict__["size"]
_ND_NDIM = np.ndarray.__dict__["ndim"]
_SCALAR_DTYPE = np.generic.__dict__["dtype"]

#: Bytes NumPy keeps for each list, tuple or array it meets while it converts a nested list (its record of
#: what it found), and for each buffer (an array made of it): a million references to one short row cost
#: more than the row. Counted before the four-fold margin of :func:`as_array`.
_NUMPY_PER_SEQUENCE = 16
_NUMPY_PER_BUFFER = 160

#: Kinds of arrays a list may hold: numbers, text and objects (each read as what NumPy makes of it). A
#: structured, datetime or variable-width string array inside a list becomes, beside an object, a Python
#: object of arrays an entry (a kilobyte each), or copies strings no size tells.
_LIST_ARRAY_KINDS = "biufcUSO"


def _exact_flags(items: Iterable[Any]) -> Iterator[bool]:
    """For each item, whether it is one of Python's or NumPy's own numbers (by its type's identity, in C)."""
    return map(_EXACT_NUMBER_IDS.__contains__, map(id, map(type, items)))


def _only_numbers(items: Iterable[Any]) -> bool:
    """Whether every item is one of Python's or NumPy's own numbers (in C: no caller's code runs)."""
    return _EXACT_NUMBER_IDS.issuperset(map(id, map(type, items)))


def is_0d(v: Any) -> bool:
    """Whether ``v`` is a 0-d array, by NumPy's own getter (a subclass's ``ndim`` property never runs)."""
    return issubclass(type(v), np.ndarray) and _ND_NDIM.__get__(v) == 0


def unwrap_0d(v: Any) -> Any:
    """A 0-d array's scalar, read by NumPy's own methods (a subclass's ``ndim`` or ``__getitem__`` never runs);
    anything else as it is."""
    return np.ndarray.__getitem__(v, ()) if is_0d(v) else v


_TYPE_MRO = type.__dict__["__mro__"]  # read through type itself: a metaclass cannot redefine what these give
_TYPE_DICT = type.__dict__["__dict__"]
_TYPE_FLAGS = type.__dict__["__flags__"]
_TYPE_NAME = type.__dict__["__qualname__"]
_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class written in Python (a builtin or NumPy's own is not)


def _lies_about_class(kind: type) -> bool:
    """Whether ``kind`` (or its metaclass) can make ``isinstance`` answer for a class it is not.

    ``isinstance(x, C)`` asks ``x.__class__`` when ``type(x)`` is not ``C``: a class that redefines
    ``__class__``, or a class written in Python that redefines ``__getattribute__`` (which answers
    that lookup), can pass for any class. A metaclass that redefines ``__mro__`` or ``__dict__``
    could hide either; the class's MRO and namespaces are read through ``type`` itself.
    """
    if type(kind) is not type and any(m in _TYPE_DICT.__get__(type(kind)) for m in ("__mro__", "__dict__")):
        return True
    for k in _TYPE_MRO.__get__(kind)[:-1]:
        namespace = _TYPE_DICT.__get__(k)
        module = namespace.get("__module__")
        if type(module) is str and module.split(".")[0] == "numpy":  # NumPy's own (recarray): it tells the truth
            continue
        if "__class__" in namespace:
            return True
        getattribute = namespace.get("__getattribute__")
        # A class written in C (functools.partial) lists its own attribute lookup as a slot wrapper of itself.
        own_c_slot = type(getattribute) is _SLOT_WRAPPER and getattribute.__objclass__ is k
        if getattribute is not None and _TYPE_FLAGS.__get__(k) & _HEAP_TYPE and not own_c_slot:
            return True
    return False


_SLOT_WRAPPER = type(object.__getattribute__)


#: Number types read by their stored value (their subclasses too, through the base's own methods).
_REAL_NUMBER_BASES = (int, float, complex, np.number, np.bool_)


def _only_registered(kind: type) -> bool:
    """Whether ``kind`` is a number only by registration (``numbers.Number`` is not among its bases)."""
    return not _is_one_of(numbers.Number, _TYPE_MRO.__get__(kind))


def _no_false_class(x: Any, name: str) -> None:
    """Refuse an object whose class can lie about its class: every isinstance check would ask it what it is."""
    kind = type(x)
    if _is_one_of(kind, _EXACT_NUMBERS):
        return
    if odd_metaclass(kind):  # NumPy itself fails on it (SystemError), as would isinstance with an ABC
        raise TypeError(
            f"{name} must hold plain values, got an object of {short_repr(_TYPE_NAME.__get__(kind))}, "
            "whose metaclass redefines how classes compare or are looked up"
        )
    if _lies_about_class(kind):
        raise TypeError(
            f"{name} must hold numbers, got {short_repr(_TYPE_NAME.__get__(kind))}, which redefines __class__ "
            "or __getattribute__, or its class's __mro__"
        )
    if issubclass(kind, np.timedelta64):  # NumPy's duration: a time, not a number to compute with
        raise TypeError(f"{name} must hold plain numbers, not a NumPy timedelta64 (a duration)")
    if issubclass(kind, np.number):  # a subclass of a NumPy scalar: NumPy reads it by its own methods
        raise TypeError(
            f"{name} must hold plain numbers (Python's or NumPy's own), got {short_repr(_TYPE_NAME.__get__(kind))}"
        )
    if is_a(x, numbers.Number) and not issubclass(kind, _REAL_NUMBER_BASES) and _only_registered(kind):
        raise TypeError(  # registered with numbers.Number, not derived: only its own methods say what it holds
            f"{name} must hold plain numbers (Python's or NumPy's own), got {short_repr(_TYPE_NAME.__get__(kind))}, "
            "a class registered as a number"
        )


def _plain_int(value: Any, name: str) -> int:
    """The exact value of an integer as a plain Python int, read without the value's own methods where
    Python or NumPy holds it (a subclass of int may redefine ``__int__``, ``__index__`` or ``<=``)."""
    kind = type(value)
    if kind is int:
        return value
    if _is_one_of(kind, _EXACT_NUMBERS):  # NumPy's own integer scalars: no Python method of the caller's runs
        return int(value)
    if issubclass(kind, int):
        return int.__index__(value)  # int's own: the stored value, whatever the subclass redefines
    if issubclass(kind, np.generic):  # a NumPy scalar of a subclass (or timedelta64): its conversions are its own
        raise TypeError(f"{name} must be an integer (Python's or NumPy's own), got {_describe(value)}")
    try:  # another Integral (registered with numbers): only its own conversion can say
        out = int.__index__(int(value))
    except Exception as exc:
        raise TypeError(
            f"{name} must be an integer, got {_describe(value)} whose int() fails ({type_name(exc)})"
        ) from None
    return out


def _int_of(x: Any, name: str) -> int:
    """``int(x)`` of an item already read as an integer, through int's own method for an int subclass
    (whose ``__int__`` may raise or lie); another Integral's own conversion failing is refused by name."""
    if issubclass(type(x), int):
        return int.__index__(x)
    try:
        return int.__index__(int(x))
    except Exception as exc:
        raise TypeError(f"{name} must hold integers, got {_describe(x)} whose int() fails ({type_name(exc)})") from None


def _int_item(x: Any, name: str) -> int:
    """An item of a sequence or object array already read as an integer, as the plain int it holds: an item
    lying about its class, a NumPy scalar subclass or a class only registered as Integral is refused by name."""
    _no_false_class(x, name)
    return _int_of(x, name)


def exact_int(value: Any, name: str) -> int:
    """``value``, already known to be an Integral, as a plain int: refused if it lies about its class."""
    _no_false_class(value, name)
    return _plain_int(value, name)


def exact_real(value: Any, name: str) -> Any:
    """``value``, already known to be a Real, as a plain int or float: refused if it lies about its class."""
    _no_false_class(value, name)
    return _plain_real(value, name)


def _plain_real(value: Any, name: str) -> Any:
    """A real number as a plain Python int or float (or NumPy longdouble), read as :func:`_plain_int` does."""
    kind = type(value)
    if _is_one_of(kind, (int, float)) or kind is np.longdouble:
        return value
    if _is_one_of(kind, _EXACT_NUMBERS) and issubclass(kind, np.floating):  # NumPy's own: float16 stays float16
        return value
    if is_sub(kind, numbers.Integral) and not issubclass(kind, (bool, np.bool_)):
        return _plain_int(value, name)
    if issubclass(kind, float):
        return float.__float__(value)  # float's own (NumPy's float64 is one)
    if issubclass(kind, np.generic):  # a NumPy scalar of a subclass: its conversions are its own
        raise TypeError(f"{name} must be a real number (Python's or NumPy's own), got {_describe(value)}")
    try:  # another Real: a Rational as a plain Fraction (exact, however large), any other by its float()
        if is_a(value, numbers.Rational):
            return Fraction(int.__index__(int(value.numerator)), int.__index__(int(value.denominator)))
        with np.errstate(over="ignore"):
            return float.__float__(float(value))
    except Exception as exc:
        raise TypeError(
            f"{name} must be a real number, got {_describe(value)} whose conversion fails ({type_name(exc)})"
        ) from None


def _has(x: Any, attribute: str, name: str) -> bool:
    """``hasattr``, refusing by name an object whose attribute lookup raises something else."""
    try:
        return hasattr(x, attribute)
    except Exception as exc:  # a __getattr__ that raises KeyError, say
        raise TypeError(
            f"{name} must be an array or a sequence of numbers, got {_describe(x)} whose attribute lookup "
            f"fails ({type_name(exc)})"
        ) from None


def read_once(x: Any, name: str, what: str) -> Any:
    """An array-like or a sequence object read once, as NumPy would read it: the array it offers, or a
    list of the items its iterator gives; anything else (a list, a tuple, an array, a number) as it is.

    Read again, it could say something else: an ``__array__`` that answers differently each time, or
    a ``len()`` of 2 over an iterator of 10**8 items, would be sized as one thing and converted as
    another. A sequence object is read up to one item past its ``len()``, and refused if it has that
    item. Public readers call this first and then read only what it returns.
    """
    kind = type(x)
    if issubclass(kind, (list, tuple, np.ndarray, np.generic, memoryview, str, bytes, range, dict)) or is_a(
        x, numbers.Number
    ):
        return x
    if _is_array_like(x, name):
        try:
            return np.asarray(x)  # the array it offers, as a view where it is one
        except Exception as exc:  # an array-like whose own conversion fails, however it fails
            raise TypeError(f"{name} must be an array of {what}, got {_describe(x)} ({type_name(exc)})") from None
    try:
        memoryview(x).release()  # a buffer (array.array, bytearray): NumPy reads its memory, not its items
        return x
    except Exception:
        pass
    if not (_has(kind, "__getitem__", name) and _has(kind, "__len__", name)):  # not a sequence to NumPy
        return x
    try:
        n = len(x)
    except Exception as exc:
        raise TypeError(
            f"{name} must be an array of {what}, got {_describe(x)} whose len() fails ({type_name(exc)})"
        ) from None
    check_nbytes((_PER_PYTHON_ITEM * n,), np.uint8, name)  # its items as Python objects, before they are read
    try:
        items = list(itertools.islice(iter(x), n + 1))  # as NumPy reads it (its __iter__, or __getitem__ to the end)
    except Exception as exc:
        raise TypeError(
            f"{name} must be an array of {what}, got {_describe(x)} whose items cannot be read ({type_name(exc)})"
        ) from None
    if len(items) > n:
        raise ValueError(
            f"{name} must be a sequence whose len() counts its items, got {_describe(x)}: len() is {n:,}, "
            f"yet it has more items"
        )
    return items


def _is_array_like(x: Any, name: str) -> bool:
    return any(_has(x, a, name) for a in ("__array__", "__array_interface__", "__array_struct__"))


def _sequence_bytes(x: list | tuple, name: str, seen: dict[str, int] | None = None) -> int:
    """The bytes NumPy would take to make an array of a (nested) sequence, counted before it does.

    Arrays, memoryviews and array-likes count their full size (a broadcast as the array it would
    become); ranges count as Python objects, one per item; other sequence objects are walked item
    by item, as NumPy reads them; a sublist reached twice counts twice (NumPy copies it twice) but is
    walked once. Text makes NumPy pad every item to the longest, so it counts as the longest text
    times the number of items. Stops as soon as the total passes what the process may allocate; a
    list that contains itself, or is nested deeper than NumPy's 64 dimensions, is refused.
    """
    limit = _max_bytes()
    sizes: dict[int, int] = {}  # bytes of each sublist already walked, by id
    counted: dict[int, int] = {}  # the items each sublist already walked added to text["items"], by id
    walking: set[int] = set()
    kept: list[Any] = []  # every object walked stays alive, so no id is reused by a later temporary
    # the widest text item, every item that NumPy would pad to it, whether there is text at all, and the widest
    # text a number becomes beside text (NumPy writes 1.5 as '1.5' in a <U32: 32 characters for any float)
    text = {"longest": 0, "items": 0, "text": 0, "numbers": 0, "own_float": 0}

    widths: dict[np.dtype, int] = {}

    def numbers(dtype: np.dtype) -> None:
        if dtype not in widths:
            widths[dtype] = _number_text(dtype)
        text["numbers"] = max(text["numbers"], widths[dtype])

    def items(seq: Any, depth: int) -> int:
        key = id(seq)
        if key in sizes:
            text["items"] += counted[key]  # NumPy pads its items to the longest text again, each time it copies it
            return sizes[key]
        if key in walking:
            raise ValueError(f"{name} must not contain itself (a list inside its own items)")
        if depth > _MAX_DEPTH:
            raise ValueError(f"{name} must have at most {_MAX_DEPTH} dimensions, got a sequence nested deeper")
        walking.add(key)
        kept.append(seq)
        before = text["items"]
        if len(kept) > _MAX_SEQUENCES + 2:  # the wrapper list as_array adds, and the caller's own: not nested
            raise ValueError(
                f"{name} must hold at most {_MAX_SEQUENCES:,} nested lists, tuples or sequence objects, got more"
            )
        # A list or tuple is read as NumPy reads it, through its own storage: a subclass's __iter__,
        # __len__ or __getitem__ never runs.
        base = list if issubclass(type(seq), list) else tuple if issubclass(type(seq), tuple) else None
        if (
            base
            and type(seq) is not base
            and any(getattr(type(seq), m) is not getattr(base, m) for m in ("__iter__", "__len__", "__getitem__"))
        ):
            # NumPy would read it through its own methods, which may raise or never end
            raise TypeError(
                f"{name} must be plain lists, tuples or arrays, got a {base.__name__} subclass "
                f"({short_repr(type(seq).__name__)}) with its own __iter__, __len__ or __getitem__"
            )
        try:
            n = base.__len__(seq) if base else len(seq)
        except Exception:  # a __len__ that fails: NumPy's own conversion below says so
            n = 0
        get = base.__getitem__ if base else type(seq).__getitem__
        total = 0
        if base and _only_numbers(base.__iter__(seq)):
            total = 8 * n  # the common case: a row of numbers
            text["items"] += n
            rows.append(lambda: base.__iter__(seq))  # their kinds are read only if there is text to pad them to
        elif (
            base
            and depth < _MAX_DEPTH
            and _ROW_IDS.issuperset(map(id, map(type, base.__iter__(seq))))
            and _only_numbers(itertools.chain.from_iterable(base.__iter__(seq)))
        ):  # the common case again, a matrix: plain lists or tuples of numbers, sized in C, not row by row
            found = sum(map(len, base.__iter__(seq)))
            total = 8 * (found + n) + _NUMPY_PER_SEQUENCE * n  # an empty row counts 8 bytes, as the walk below
            text["items"] += found
            rows.append(lambda: itertools.chain.from_iterable(base.__iter__(seq)))
        elif not issubclass(type(seq), (list, tuple)) and _PER_PYTHON_ITEM * n > limit:
            total = _PER_PYTHON_ITEM * n  # a sequence object too long to walk: sized by its length alone
        elif base and n <= 8:  # a short row: item by item, its numbers without a second look
            for v in base.__iter__(seq):
                dtype = _EXACT_DTYPES.get(id(type(v)))
                if dtype is None:
                    total += max(size(v, depth + 1), 8)
                else:
                    total += 8
                    text["items"] += 1
                    numbers(dtype)
        elif base:  # each distinct item sized once, times the number of places it holds (a [row] * 10**7)
            # numbers counted in C, by their type's identity (a caller's __eq__ or __hash__ never runs) ...
            plain = sum(_exact_flags(base.__iter__(seq)))
            total = 8 * plain
            text["items"] += plain
            if plain:
                rows.append(lambda: itertools.compress(base.__iter__(seq), _exact_flags(base.__iter__(seq))))
            others = list(itertools.compress(base.__iter__(seq), map(operator.not_, _exact_flags(base.__iter__(seq)))))
            # ... and every other item once, by identity: a plain row of numbers in bulk (a matrix with one array row)
            counts = collections.Counter(map(id, others))
            distinct = dict(zip(map(id, others), others, strict=True))
            number_rows: list[Any] = []
            for key_, times in counts.items():
                v = distinct[key_]
                if depth < _MAX_DEPTH and (type(v) is list or type(v) is tuple) and _only_numbers(v):
                    found = len(v)  # a plain list's or tuple's own length
                    total += (8 * max(found, 1) + _NUMPY_PER_SEQUENCE) * times
                    text["items"] += found * times
                    number_rows.append(v)
                    continue
                before_item = text["items"]
                total += max(size(v, depth + 1), 8) * times
                text["items"] += (text["items"] - before_item) * (times - 1)  # padded each time NumPy copies it
                if total > limit:
                    break
            if number_rows:
                rows.append(lambda: itertools.chain.from_iterable(number_rows))
        else:
            for index in range(n):
                try:
                    v = get(seq, index)
                except Exception:  # an item that fails: NumPy's own conversion below says so
                    break
                total += max(size(v, depth + 1), _PER_PYTHON_ITEM)
                if total > limit:
                    break
        walking.discard(key)
        sizes[key] = total + _NUMPY_PER_SEQUENCE  # each time NumPy meets it, it keeps a record of it
        counted[key] = text["items"] - before
        return sizes[key]

    def size(item: Any, depth: int) -> int:
        if type(item) is list or type(item) is tuple:  # the common case, with nothing of its own to look at
            return items(item, depth)
        _no_false_class(item, name)  # by type: an item's own __class__ never runs
        if issubclass(type(item), np.ma.MaskedArray):  # np.ma.masked too: NumPy would drop the mask (and warn)
            raise TypeError(
                f"{name} must hold plain arrays: masked arrays are not supported (the mask would be silently "
                f"dropped), got {_describe(item)} inside it; pass its .filled(...) or .compressed()"
            )
        if issubclass(type(item), (list, tuple)) and _is_array_like(item, name):  # its class's or its own
            # NumPy reads it as the array it offers, a reader of its items as what it holds: two answers
            kind = "list" if issubclass(type(item), list) else "tuple"
            raise TypeError(
                f"{name} must be plain lists, tuples or arrays, got a {kind} subclass "
                f"({short_repr(type(item).__name__)}) that is also an array-like (its own __array__ or array interface)"
            )
        if issubclass(type(item), _PLAIN_NUMBERS):
            text["items"] += 1
            kind = type(item)
            if issubclass(kind, int) and kind is not bool and kind.__float__ is not int.__float__:
                text["own_float"] = 1  # NumPy reads it by its own __float__ where the array is of floats
            dtype = next((d for k, d in _PYTHON_DTYPE.items() if issubclass(kind, k)), None)  # a dtype's bool is False
            numbers(np.dtype(kind) if dtype is None else dtype)
            return 8
        if issubclass(type(item), np.void) and _SCALAR_DTYPE.__get__(item).fields is not None:
            raise TypeError(f"{name} must hold numbers, got a structured NumPy scalar (dtype {item.dtype}) inside it")
        if issubclass(type(item), (str, bytes, np.generic)):  # text, bytes, and NumPy's str_, bytes_ and void
            # 4 bytes a character; bytes too, which beside str become str of as many characters
            try:
                width = (
                    str.__len__(item) * 4
                    if issubclass(type(item), str)
                    else bytes.__len__(item) * 4
                    if issubclass(type(item), bytes)
                    else int(item.itemsize) * (4 if issubclass(type(item), np.bytes_) else 1)
                )
            except Exception:  # a NumPy scalar whose itemsize fails: NumPy's own conversion says so
                width = 8
            text["longest"] = max(text["longest"], width)
            text["items"] += 1
            if issubclass(type(item), (str, bytes, np.str_, np.bytes_)):
                text["text"] = 1
            return max(width, 8)
        if issubclass(type(item), np.ndarray):
            dtype, count = _ND_DTYPE.__get__(item), _ND_SIZE.__get__(item)  # not a subclass's own properties
            list_array_kind(dtype, item)
            array_text(dtype, dtype.itemsize, count)
            return count * max(dtype.itemsize, 8) + _NUMPY_PER_SEQUENCE
        if issubclass(type(item), memoryview):
            try:
                return buffer_bytes(item)
            except ValueError:  # a released memoryview
                raise ValueError(f"{name} must not hold a released memoryview") from None
        if not issubclass(type(item), (list, tuple, range)):
            try:  # a buffer (array.array, bytearray): NumPy reads its memory, so it is sized by it, not walked
                with memoryview(item) as view:
                    return buffer_bytes(view)
            except TypeError:  # no buffer
                pass
            except Exception:  # a buffer that fails: NumPy's own conversion below says so
                return 8
        if issubclass(type(item), range):
            text["items"] += range_len(item)
            numbers(_PYTHON_DTYPE[int])
            return _PER_PYTHON_ITEM * range_len(item) + _NUMPY_PER_SEQUENCE
        if depth > 1 and _is_array_like(item, name):  # inside the caller's list: NumPy would ask it again
            # what it holds, and could get another answer than the one sized here
            raise TypeError(
                f"{name} must hold plain lists, tuples or arrays, got {_describe(item)} (an array-like) inside it; "
                "convert it with np.asarray() first"
            )
        if issubclass(type(item), (list, tuple)):
            return items(item, depth)
        if _has(item, "__len__", name) and _has(item, "__getitem__", name) and not issubclass(type(item), dict):
            if depth > 1:  # inside the caller's list (depth 1 is the caller's own argument, read by read_once)
                # NumPy reads it by its own iterator, which no count made here can bound
                raise TypeError(
                    f"{name} must hold plain lists, tuples or arrays, got {_describe(item)} inside it; "
                    "convert it with list() first"
                )
            return items(item, depth)
        text["items"] += 1
        return 8

    def array_text(dtype: np.dtype, itemsize: int, count: int) -> None:
        text["items"] += count
        if dtype.kind in "US":  # text: each of its items, and every other item, as wide as its widest
            text["text"] = 1
            text["longest"] = max(text["longest"], itemsize * (4 if dtype.kind == "S" else 1))
        else:
            numbers(dtype)

    def buffer_bytes(view: memoryview) -> int:
        count = view.nbytes // max(view.itemsize, 1)
        try:  # the array NumPy reads from it, a view of its memory (dropped before the buffer is released)
            a = np.asarray(view)
            dtype = a.dtype
            del a
        except Exception:  # a format NumPy cannot read as an array: NumPy's own conversion says so
            dtype = _PYTHON_DTYPE[complex]
        list_array_kind(dtype, view)
        array_text(dtype, dtype.itemsize, count)  # each one padded to the longest text
        return max(view.nbytes, 8 * count) + _NUMPY_PER_BUFFER

    def list_array_kind(dtype: np.dtype, item: Any) -> None:
        if dtype.kind not in _LIST_ARRAY_KINDS:
            shown = _describe(item) if issubclass(type(item), np.ndarray) else f"a buffer of dtype {dtype}"
            raise TypeError(f"{name} must hold arrays of numbers, got {shown} inside it")

    rows: list[Callable[[], Iterator[Any]]] = []  # rows of numbers, read again only beside text
    total = size(x, 0)
    if seen is not None:
        seen["own_float"] = text["own_float"]
    if text["text"]:
        for row in rows:  # builtin and NumPy number types only: hashing them runs no caller's code
            for k in set(map(id, map(type, row()))):
                numbers(_EXACT_DTYPES[k])  # beside text, every number becomes text as wide as NumPy writes its dtype
        return max(total, max(text["longest"], 4 * text["numbers"]) * text["items"])
    return max(total, text["longest"] * text["items"])


def check_ids(ids: Any, vocab_size: int, name: str = "ids") -> np.ndarray:
    """Return ``ids`` as an ``intp`` array with every entry in ``[0, vocab_size)``.

    Negative ids are refused: NumPy would silently read from the end of the table.
    """
    _no_false_class(ids, name)
    if issubclass(type(ids), (bool, np.bool_)):
        raise TypeError(f"{name} must be integer token ids, got a bool ({ids!r})")
    if issubclass(type(ids), (str, bytes)):
        raise TypeError(
            f"{name} must be integer token ids, got the string {short_repr(ids)}; "
            "use embedlab.token_id(token) to turn a token into its id"
        )
    ids = read_once(ids, name, "integer token ids")  # an array-like or a sequence object: read here, once
    arr = as_array(ids, name, "integer token ids")
    if arr.size == 0:  # before the dtype: np.asarray([]) is float64, which is not the problem
        raise ValueError(f"{name} must hold at least one token id, got an empty array of shape {arr.shape}")
    if arr.dtype.kind == "O" or (not issubclass(type(ids), np.ndarray) and arr.dtype.kind in "iuf"):
        # A list such as [True, 2] becomes an int array: look for the bools NumPy hid. A list mixing
        # np.int64 and np.uint64 becomes float64, and Python ints beyond int64 an object array: the
        # caller passed integers all the same, so they are read one by one, exactly. An object array
        # broadcast from one value is read once (compact), and sized as what it would become.
        objects = compact(arr) if issubclass(type(ids), np.ndarray) else _objects(ids, arr, name)
        flat = [unwrap_0d(v) for v in objects.ravel()]
        if any(issubclass(type(x), (bool, np.bool_)) for x in flat):
            raise TypeError(f"{name} must be integer token ids, got a sequence containing bools")
        subclassed = any(id(k) not in _EXACT_NUMBER_IDS for k in types_of(flat))  # read by NumPy's __index__
        if (arr.dtype.kind in "Of" or subclassed) and all(is_a(x, numbers.Integral) for x in flat):
            # plain ints, read by the value they hold: a subclass's own comparisons or conversions never run, and
            # a NumPy scalar subclass, a class only registered as Integral or one lying about its class is refused
            ints = [x if type(x) is int else _int_item(x, name) for x in flat]
            lo, hi = min(ints), max(ints)
            _check_id_range(lo, hi, vocab_size, name)  # beyond int64, no vocabulary is that large
            check_nbytes(arr.shape, np.intp, name)
            exact = np.array(ints, dtype=np.intp).reshape(objects.shape)
            return np.broadcast_to(exact, arr.shape).copy() if exact.shape != arr.shape else exact
    if arr.dtype.kind not in "iu":
        if arr.dtype.kind == "b":
            what = "bool"
        elif arr.dtype.kind in "fc":
            what = f"floating values (dtype {arr.dtype})"
        elif arr.dtype.kind == "O":
            what = "objects that are not all integers (dtype object)"
        elif arr.dtype.kind in "US":
            what = f"non-numeric values (dtype {arr.dtype})"
        else:
            what = f"dtype {arr.dtype}"
        raise TypeError(f"{name} must be integer token ids, got {what}")
    data = compact(arr)  # a broadcast view's own values, not their repetitions
    _check_id_range(int(data.min()), int(data.max()), vocab_size, name)
    if arr.dtype != np.intp:
        check_nbytes(arr.shape, np.intp, name)  # the cast below writes every entry, broadcast or not
    # Checked to be in [0, vocab_size): the cast to NumPy's index type is exact.
    return arr.astype(np.intp, copy=False)


def _check_id_range(lo: int, hi: int, vocab_size: int, name: str) -> None:
    if lo < 0:
        raise ValueError(
            f"{name} must be in [0, {vocab_size - 1}] (ids are zero-indexed), got {short_repr(lo)}; "
            "negative ids are refused because NumPy would silently return a row counted from the end"
        )
    if hi >= vocab_size:
        raise ValueError(
            f"{name} must be in [0, {vocab_size - 1}] for a vocabulary of {vocab_size}, got {short_repr(hi)}"
        )


def check_float_array(
    x: Any, name: str, *, ndim: int | None = None, min_ndim: int = 0, convert_int: bool = True
) -> np.ndarray:
    """Return ``x`` as a floating array without copying a floating input.

    Integer input is converted to float64 (it has no floating dtype to keep) unless
    ``convert_int`` is False; bools, strings, objects, complex numbers and masked arrays are refused.
    """
    if issubclass(type(x), (str, bytes)):
        raise TypeError(f"{name} must be an array of real numbers, got the string {short_repr(x)}")
    x = read_once(x, name, "real numbers")  # an array-like or a sequence object: read here, once
    arr = as_array(x, name, "real numbers")
    ints = passed_ints(x, arr, name)
    if ints is None and big_ints_among(x, arr, name):
        raise_big_ints(name)
    if ints is not None:  # integers NumPy promoted to float64 or objects: kept as the integers they are
        try:
            arr = object_ints(ints, name)
        except ValueError:  # beyond 64 bits
            big = max((_int_of(v, name) for v in ints.ravel()), key=abs)
            raise ValueError(
                f"{name} must hold integers of at most 2**53 in size, which float64 holds exactly, got "
                f"{short_repr(big)}; pass floats if rounding them is what you mean"
            ) from None
    if arr.dtype.kind == "O" and arr.size:
        first = arr.ravel()[0]
        raise TypeError(
            f"{name} must be an array of real numbers, got {_describe(arr)}, holding Python objects such as "
            f"{type_name(first)} {short_repr(first, 40)}; convert it to a numeric dtype first, for example with "
            "np.asarray(x, dtype=float) (ints beyond 64 bits, Fractions and Decimals have no exact NumPy dtype)"
        )
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be an array of real numbers, got {_describe(arr)}")
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got {arr.ndim}-D with shape {arr.shape}")
    if arr.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if arr.dtype.kind in "iu" and convert_int:
        data = compact(arr)
        if arr.dtype.itemsize > 4 and (int(data.max()) > 2**53 or int(data.min()) < -(2**53)):
            big = int(data.max()) if int(data.max()) > 2**53 else int(data.min())
            raise ValueError(
                f"{name} must hold integers of at most 2**53 in size, which float64 holds exactly, got "
                f"{short_repr(big)}; pass floats if rounding them is what you mean"
            )
        check_nbytes(arr.shape, np.float64, name)  # the conversion writes every entry, broadcast or not
        arr = arr.astype(np.float64)
    return arr


#: Bytes an entry costs when a list is read again item by item (NumPy's object array of it): a Python
#: object for each entry of an array inside it, and the pointers to it in each list made of them.
_PER_OBJECT_ENTRY = 2 * _PER_PYTHON_ITEM


def _objects(x: Any, arr: np.ndarray, name: str) -> np.ndarray:
    """``np.asarray(x, dtype=object)``, sized first: each entry of an array inside the list becomes a
    Python object (a list holding one array of 10**8 floats would become 10**8 of them)."""
    check_nbytes((arr.size,), np.dtype((np.void, _PER_OBJECT_ENTRY)), name)
    return np.asarray(x, dtype=object)


def _items(x: Any, arr: np.ndarray, name: str) -> list | None:
    """The numbers a (nested) list held, as scalars (0-d arrays unwrapped), or None where NumPy's array
    does not line up with them item for item."""
    objects = _objects(x, arr, name)
    if objects.shape != arr.shape:
        return None
    flat = objects.ravel().tolist()  # the objects themselves, in C
    if any(issubclass(k, np.ndarray) for k in types_of(flat)):
        flat = [unwrap_0d(v) for v in flat]
    return flat


def types_of(items: list) -> list[type]:
    """The distinct types of ``items``, by identity and in C (no caller's ``__hash__`` or ``__eq__`` runs):
    a check that depends only on an item's type is made once a type, not once an item."""
    return list(dict(zip(map(id, map(type, items)), map(type, items), strict=True)).values())


def _is_int(v: Any) -> bool:
    return _is_int_type(type(v))  # by type: an item's own __class__ never runs


def _is_int_type(kind: type) -> bool:
    return is_sub(kind, numbers.Integral) and not issubclass(kind, (bool, np.bool_))


def passed_ints(x: Any, arr: np.ndarray, name: str) -> np.ndarray | None:
    """The integers a sequence held, where NumPy turned them into something else, as an object array.

    A list mixing ``np.int64`` and ``np.uint64`` (or 0-d arrays of them) becomes float64, and one
    holding a Python int beyond 64 bits an object array; the caller passed integers all the same.
    None when ``x`` is an array (its dtype is what it is) or holds anything but integers (bools are
    not integers here). A list NumPy made an int array of is read again only if it holds an int
    subclass: NumPy read it by its ``__index__``, which may say another number than the one it holds.
    """
    if issubclass(type(x), np.ndarray) or arr.dtype.kind not in "fOiu" or not arr.size:
        return None
    if arr.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            finite = np.isfinite(arr)
            if not np.all(finite & (arr == np.round(arr))):
                return None  # a float that is not a whole number: not a list of integers
            if float(np.max(np.abs(arr))) < 2**53:  # in Python floats: 2**53 as a float16 overflows
                return None  # whole numbers below 2**53: the float array holds each exactly (2**53 may be 2**53 + 1)
    items = _items(x, arr, name)
    kinds = types_of(items) if items is not None else []
    if items is None or not all(_is_int_type(k) for k in kinds):
        return None
    if arr.dtype.kind in "iu" and all(id(k) in _EXACT_NUMBER_IDS for k in kinds):
        return None  # Python's and NumPy's own ints: NumPy's array holds each as it is
    return np.array([*items, None], dtype=object)[:-1].reshape(arr.shape)


def raise_big_ints(name: str) -> None:
    """Refuse a list holding, next to other numbers, integers its array would round."""
    raise ValueError(
        f"{name} must hold integers of at most 2**53 in size next to other numbers: the array NumPy makes "
        "of the list would round them; pass floats if rounding them is what you mean"
    )


def big_ints_among(x: Any, arr: np.ndarray, name: str) -> bool:
    """Whether a sequence holds, next to other numbers, an integer that NumPy's array of it rounds.

    NumPy makes ``[2**60 + 1, 0.5]`` float64, rounding the integer; a longdouble array holds it.
    """
    if issubclass(type(x), np.ndarray) or arr.dtype.kind not in "fO" or not arr.size:
        return False
    if arr.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            if float(np.max(np.abs(np.where(np.isfinite(arr), arr, 0.0)))) < 2**53:
                return False  # every entry below 2**53: any integer among them is held exactly (2**53 may be rounded)
    items = _items(x, arr, name)
    kinds = types_of(items) if items is not None else []
    if items is None or not all(is_sub(k, (numbers.Real, bool, np.bool_)) for k in kinds):
        return False  # not all numbers (None, str): refused as such elsewhere
    if not any(_is_int_type(k) for k in kinds):
        return False
    for v in items:
        if _is_int(v) and abs(_int_of(v, name)) > 2**53:
            if arr.dtype.kind == "O":
                return True
            try:
                if int(arr.dtype.type(_int_of(v, name))) != _int_of(v, name):
                    return True
            except (OverflowError, ValueError):
                return True
    return False


def object_ints(arr: np.ndarray, name: str) -> np.ndarray:
    """An object array of Python ints (what NumPy makes of ints beyond 64 bits) as int64 or uint64.

    Ints that fit neither, and objects that are not ints (Fractions, Decimals, None), are refused:
    no NumPy number holds them exactly.
    """
    flat = arr.ravel()
    if not all(is_a(x, numbers.Integral) and not issubclass(type(x), (bool, np.bool_)) for x in flat):
        raise TypeError(
            f"{name} must be an array of real numbers NumPy holds (ints or floats), got objects (dtype object), "
            "such as Fractions, Decimals or None"
        )
    ints = [x if type(x) is int else _int_item(x, name) for x in flat]  # as check_ids reads them
    lo, hi = (min(ints), max(ints)) if ints else (0, 0)
    if lo >= -(2**63) and hi < 2**63:
        return np.array(ints, dtype=np.int64).reshape(arr.shape)
    if lo >= 0 and hi < 2**64:
        return np.array(ints, dtype=np.uint64).reshape(arr.shape)
    big = hi if hi >= 2**63 else lo
    raise ValueError(f"{name} must hold integers that fit in 64 bits, got {short_repr(big)}")


def work_dtype(*dtypes: Any) -> np.dtype:
    """The dtype to accumulate in: NumPy's promotion of ``dtypes``, but at least float32."""
    return np.result_type(np.float32, *dtypes)


def compact(arr: np.ndarray) -> np.ndarray:
    """A view of ``arr`` with each broadcast (zero-stride) axis cut to length 1: the same values, none repeated.

    Checks run on it cost what the data costs, not what the broadcast shape would.
    """
    if arr.ndim and any(s == 0 and n > 1 for s, n in zip(arr.strides, arr.shape, strict=True)):
        cut = tuple(
            slice(0, 1) if s == 0 and n > 1 else slice(None) for s, n in zip(arr.strides, arr.shape, strict=True)
        )
        return arr[cut]
    return arr


def check_finite(arr: np.ndarray, name: str) -> None:
    """Refuse NaN and infinite entries, saying how many and where the first one is."""
    arr = compact(arr)  # a broadcast view is checked on its own data, never expanded
    if arr.size == 0 or arr.dtype.kind in "iub":
        return
    with np.errstate(invalid="ignore"):
        if np.isfinite(arr.min()) and np.isfinite(arr.max()):  # NaN propagates; no temporary the size of arr
            return
    finite = np.isfinite(arr)
    if not finite.all():
        bad = np.argwhere(~finite)
        first = tuple(int(i) for i in bad[0])
        raise ValueError(f"{name} must be finite, got {len(bad)} NaN or infinite value(s), the first at index {first}")


def check_fits(result: np.ndarray, name: str, dtype: Any) -> np.ndarray:
    """Round ``result`` to ``dtype``, refusing values that overflow it (finite inputs, infinite output)."""
    with np.errstate(over="ignore", invalid="ignore"):
        out = result.astype(dtype, copy=False)
    if not np.isfinite(out).all():
        raise ValueError(
            f"{name} gives a result too large for dtype {np.dtype(dtype).name} (it overflows to inf); "
            "scale the input down or use a wider dtype"
        )
    return out


def check_embedding(E: Any, *, convert_int: bool = True) -> np.ndarray:
    """Return ``E`` as a 2-D floating array of shape ``(V, d)``, never copying a float input."""
    return check_float_array(E, "E", ndim=2, convert_int=convert_int)


def check_axis(axis: Any, ndim: int, name: str = "axis") -> int:
    _no_false_class(axis, name)
    if issubclass(type(axis), (bool, np.bool_)) or not is_a(axis, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {_describe(axis)}")
    axis = _plain_int(axis, name)
    if not -ndim <= axis < ndim:
        raise ValueError(
            f"{name} must be in [{-ndim}, {ndim - 1}] for an array with {ndim} dimension(s), got {short_repr(axis)}"
        )
    return int(axis) % ndim


_INT_TYPES = frozenset({int, *(np.dtype(c).type for c in "bBhHiIlLqQ")})


def exact_key(x: Any) -> Any:
    """A finite number of Python's or NumPy's own types as a Python number of the same exact value, or None.

    Ints, floats, Fractions and complex numbers compare and hash exactly with each other in Python
    (``2**53 + 1 != float(2**53)``), where NumPy's ``==`` first rounds a Python number to the NumPy
    operand's dtype (``np.float32(0.1) == 0.1`` is True). Bools, subclasses and anything else give None.
    """
    kind = type(x)
    if _is_one_of(kind, _INT_TYPES):
        return int(x)
    if _is_one_of(kind, (float, np.float16, np.float32, np.float64)):
        return float(x) if math.isfinite(x) else None  # exact: each of these widths fits a float64
    if kind is np.longdouble:
        return Fraction(*x.as_integer_ratio()) if np.isfinite(x) else None
    if kind is Fraction:
        return x
    if _is_one_of(kind, (complex, np.complex64, np.complex128)):
        return complex(x) if np.isfinite(x) else None
    if kind is np.clongdouble:
        re, im = x.real, x.imag
        if not (np.isfinite(re) and np.isfinite(im)):
            return None
        if np.longdouble(float(re)) == re and np.longdouble(float(im)) == im:
            return complex(float(re), float(im))  # equal to the complex number of that value
        return ("clongdouble", Fraction(*re.as_integer_ratio()), Fraction(*im.as_integer_ratio()))
    return None
