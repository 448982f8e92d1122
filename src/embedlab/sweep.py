"""Tied against untied as an experiment: a protocol, a sweep over data size and width, and intervals (notebook I).

The protocol, for every cell of the sweep (a corpus draw, a training-set size, a width, the
hidden layer on or off) and every configuration in it:

* three splits (:func:`~embedlab.make_corpus`): training fits the weights; validation picks the
  learning rate from :attr:`SweepSpec.lrs` and the stopping step (:func:`~embedlab.train.fit`);
  test is what is reported, and plays no part in any choice;
* the learning rate of a configuration is the one whose runs (one per seed) have the lowest mean
  best validation loss, chosen separately for each corpus draw;
* each run is reported at its own best validation checkpoint.

The gap between tied and untied is paired: the tied run and the untied run with the same seed
on the same corpus draw make one difference, and the interval is Student's t over those
differences (:func:`t_interval`). The sweep is run by ``make experiments`` into a JSON file that
records its settings and the library's version (:func:`load_results` reads it).

Examples
--------
>>> spec = SweepSpec(data_sizes=(100,), widths=(4,), hidden=(True,), lrs=(0.02,), seeds=(0, 1), draws=(0,),
...                  n_valid=50, n_test=50, max_steps=50, eval_every=25, patience=2)
>>> len(spec.points()), spec.points()[0]
(6, Point(draw=0, n_train=100, d=4, hidden=True, config='tied', lr=0.02, seed=0))
"""

from __future__ import annotations

import fractions
import functools
import itertools
import json
import math
import numbers
import platform
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from importlib import resources
from typing import Any, NamedTuple

import numpy as np

from ._validation import (
    _describe,
    _is_one_of,
    check_flag,
    check_float_array,
    check_path,
    check_size,
    exact_int,
    exact_key,
    exact_real,
    is_a,
    iter_items,
    plain_str,
    short_repr,
    type_name,
)
from .corpus import MAX_SENTENCES, Corpus, make_corpus
from .train import MAX_STEPS, fit, matched_width

__all__ = [
    "CONFIGS",
    "CURVE_DIGITS",
    "DF_MAX",
    "MAX_LOSS",
    "MAX_POINTS",
    "MAX_RESULTS_BYTES",
    "P_MAX",
    "RECORD_KEYS",
    "RESULTS_FILE",
    "Point",
    "Sweep",
    "SweepSpec",
    "load_results",
    "model_of",
    "run_point",
    "run_sweep",
    "t_interval",
    "t_quantile",
]

#: The three configurations, in the order tables list them.
CONFIGS = ("tied", "untied", "untied, same params")

#: Most points (training runs) a sweep may hold.
MAX_POINTS = 100_000

#: Where ``make experiments`` writes the chapter's sweep, inside the package.
RESULTS_FILE = "sweep.json"

#: The largest probability and degrees of freedom :func:`t_quantile` answers (enough for a 99.98 %
#: interval of up to a thousand and one values).
P_MAX = 0.9999
DF_MAX = 1000

#: The largest results file :func:`load_results` reads (the chapter's is about 3.8 MB).
MAX_RESULTS_BYTES = 64 * 2**20

#: Digits kept of each validation curve in the results file (the curves are drawn, never compared).
CURVE_DIGITS = 4


class Point(NamedTuple):
    """One training run of the sweep."""

    draw: int  # corpus seed
    n_train: int  # training sentences
    d: int  # width of the tied model (and of the untied model at the same width)
    hidden: bool
    config: str  # one of CONFIGS
    lr: float
    seed: int  # initialisation and batch order


def _items(values: Any, name: str, what: str) -> Iterable[Any]:
    """Iterate ``values`` lazily (a huge range is refused by its length, not listed), or refuse it by name."""
    if issubclass(type(values), (str, bytes, dict)) or not is_a(values, Iterable):
        raise TypeError(f"{name} must be a sequence of {what}, got {short_repr(values)}")
    if issubclass(type(values), np.ndarray) and values.ndim != 1:
        raise TypeError(f"{name} must be a sequence of {what}, got an array of shape {values.shape}")
    return iter_items(values, name, f"a sequence of {what}")  # a failing iterator refused by name


def _int_grid(values: Any, name: str, *, positive: bool = True, most: int | None = None) -> tuple[int, ...]:
    out = []
    for v in _items(values, name, "ints"):
        if issubclass(type(v), bool) or not is_a(v, numbers.Integral):
            raise TypeError(f"{name} must hold ints, got {short_repr(v)}")
        v = exact_int(v, name)
        if v < (1 if positive else 0):
            raise ValueError(f"{name} must hold {'positive' if positive else 'non-negative'} ints, got {short_repr(v)}")
        if most is not None and v > most:
            shown = f"{most:,}" if most < 10**18 else f"2**{most.bit_length() - 1}"
            raise ValueError(f"{name} must hold ints of at most {shown}, got {short_repr(v)}")
        out.append(int(v))
        if len(out) > MAX_POINTS:
            raise ValueError(f"{name} must hold at most {MAX_POINTS:,} values")
    if not out:
        raise ValueError(f"{name} must hold at least one value, got an empty sequence")
    if len(set(out)) != len(out):
        raise ValueError(f"{name} must not repeat a value, got {short_repr(tuple(out))}")
    return tuple(out)


@dataclass(frozen=True)
class SweepSpec:
    """The grid and the training settings of a sweep; the defaults are the chapter's.

    Parameters
    ----------
    data_sizes : tuple of int, default (500, 1500, 5000)
        Training sentences per corpus (500 is notebook I's corpus; the largest is ten times it).
    widths : tuple of int, default (8, 16, 32)
        Width ``d`` of the tied model; the untied models are built from it (:func:`model_of`).
    hidden : tuple of bool, default (True, False)
        With and without the hidden layer.
    lrs : tuple of float, default (0.00125, 0.0025, 0.005, 0.01, 0.02)
        Adam's learning rates to choose from, on validation.
    seeds : tuple of int, default (0, 1, 2, 3, 4)
        Initialisation and batch order of each run.
    draws : tuple of int, default (0, 1)
        Corpus seeds: each draw is a different sample of training, validation and test sentences.
    n_valid, n_test : int, default 400
        Sentences of the validation and test splits.
    k, batch_size, max_steps, eval_every, patience : int
        As in :func:`~embedlab.train.fit`.
    """

    data_sizes: tuple[int, ...] = (500, 1500, 5000)
    widths: tuple[int, ...] = (8, 16, 32)
    hidden: tuple[bool, ...] = (True, False)
    lrs: tuple[float, ...] = (0.00125, 0.0025, 0.005, 0.01, 0.02)
    seeds: tuple[int, ...] = (0, 1, 2, 3, 4)
    draws: tuple[int, ...] = (0, 1)
    n_valid: int = 400
    n_test: int = 400
    k: int = 3
    batch_size: int = 128
    max_steps: int = 12000
    eval_every: int = 25
    patience: int = 10

    def __post_init__(self) -> None:
        set_ = functools.partial(object.__setattr__, self)
        set_("data_sizes", _int_grid(self.data_sizes, "data_sizes", most=MAX_SENTENCES))
        set_("widths", _int_grid(self.widths, "widths", most=4096))
        # at most 2**4096 (1,234 digits): Python writes ints of up to 4,300 digits, so the spec's repr holds
        set_("seeds", _int_grid(self.seeds, "seeds", positive=False, most=2**4096))
        set_("draws", _int_grid(self.draws, "draws", positive=False, most=2**4096))
        hidden = tuple(check_flag(h, "hidden") for h in itertools.islice(_items(self.hidden, "hidden", "bools"), 3))
        if not hidden or len(set(hidden)) != len(hidden):
            raise ValueError(f"hidden must hold True, False or both, once each, got {short_repr(hidden)}")
        set_("hidden", hidden)
        lrs = []
        for lr in _items(self.lrs, "lrs", "positive numbers"):
            if issubclass(type(lr), bool) or not is_a(lr, numbers.Real):
                raise TypeError(f"lrs must hold positive numbers, got {short_repr(lr)}")
            lr = exact_real(lr, "lrs")
            try:
                with np.errstate(over="ignore"):  # a longdouble beyond float64 becomes inf, refused below
                    value = float(lr)  # float16 compared as float64
            except OverflowError:  # an int beyond float64
                value = math.inf
            if not 0 < value <= 1e6:
                raise ValueError(f"lrs must hold positive finite numbers of at most 1e6, got {short_repr(lr)}")
            lrs.append(value)
            if len(lrs) > MAX_POINTS:
                raise ValueError(f"lrs must hold at most {MAX_POINTS:,} values")
        if not lrs or len(set(lrs)) != len(lrs):
            raise ValueError(f"lrs must hold at least one value and repeat none, got {short_repr(tuple(lrs))}")
        set_("lrs", tuple(lrs))
        for name in ("n_valid", "n_test"):
            n = check_size(getattr(self, name), name)
            if n > MAX_SENTENCES:
                raise ValueError(f"{name} must be at most {MAX_SENTENCES:,}, got {n:,}")
            set_(name, n)
        for name in ("k", "batch_size", "eval_every", "patience"):
            set_(name, check_size(getattr(self, name), name))
        set_("max_steps", check_size(self.max_steps, "max_steps"))
        if self.max_steps > MAX_STEPS:
            raise ValueError(f"max_steps must be at most {MAX_STEPS:,}, got {self.max_steps:,}")
        if self.eval_every > self.max_steps:
            raise ValueError(f"eval_every must be at most max_steps ({self.max_steps}), got {self.eval_every}")
        if len(self.seeds) * len(self.draws) < 2:
            raise ValueError("seeds and draws must make at least 2 runs per configuration (an interval needs 2)")
        n = len(CONFIGS) * math.prod(
            len(g) for g in (self.data_sizes, self.widths, self.hidden, self.lrs, self.seeds, self.draws)
        )
        if n > MAX_POINTS:
            raise ValueError(f"the sweep must hold at most {MAX_POINTS:,} points (runs), these grids make {n:,}")

    def points(self) -> list[Point]:
        """Every run of the sweep, in a fixed order (draw, data size, width, hidden, configuration, lr, seed)."""
        return [
            Point(*p)
            for p in itertools.product(
                self.draws, self.data_sizes, self.widths, self.hidden, CONFIGS, self.lrs, self.seeds
            )
        ]

    def to_dict(self) -> dict[str, Any]:
        return {f.name: list(v) if issubclass(type(v := getattr(self, f.name)), tuple) else v for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Any) -> SweepSpec:
        if type(data) is not dict:  # a plain dict: a subclass's own items or get never run
            raise TypeError(f"data must be a dict of SweepSpec fields, got {type_name(data)}")
        odd = next((k for k in data if type(k) is not str), None)
        if odd is not None:  # a plain str: a key's own ==, hash or repr never runs
            raise TypeError(f"data must have plain str keys (SweepSpec's fields), got the key {_describe(odd)}")
        unknown = sorted(set(data) - {f.name for f in fields(cls)})
        if unknown:
            raise ValueError(f"data has keys SweepSpec does not know: {short_repr(unknown, 200)}")
        return cls(**data)  # each grid read by SweepSpec itself (a list subclass by list's own methods)


def _config(value: Any, name: str, allowed: tuple[str, ...]) -> str:
    """A configuration's name as the plain str it holds (its own == or hash never runs), one of ``allowed``."""
    if not issubclass(type(value), str) or plain_str(value) not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {short_repr(value)}")
    return plain_str(value)


def model_of(config: str, vocab_size: int, d: int, hidden: bool) -> tuple[bool, int]:
    """``(tied, width)`` of a configuration built from the tied model's width ``d``.

    Examples
    --------
    >>> [model_of(c, 127, 16, True) for c in CONFIGS]
    [(True, 16), (False, 16), (False, 9)]
    """
    config = _config(config, "config", CONFIGS)
    vocab_size, d, hidden = check_size(vocab_size, "vocab_size"), check_size(d, "d"), check_flag(hidden, "hidden")
    if d > 4096:
        raise ValueError(f"d must be at most 4,096, got {d:,}")
    if config == "tied":
        return True, d
    if config == "untied":
        return False, d
    return False, matched_width(vocab_size, d, hidden=hidden)


@functools.lru_cache(maxsize=8)
def _corpus(draw: int, n_train: int, n_valid: int, n_test: int) -> Corpus:
    return make_corpus(draw, n_train=n_train, n_valid=n_valid, n_test=n_test)


def run_point(point: Any, spec: SweepSpec | None = None) -> dict[str, Any]:
    """Train one point of the sweep with early stopping and return its record (JSON-ready).

    Parameters
    ----------
    point : Point
        One of ``spec.points()``.
    spec : SweepSpec, optional
        Default ``SweepSpec()``, the chapter's.

    Returns
    -------
    dict
        The point's fields, the model's ``width`` and ``n_params``, and from
        :func:`~embedlab.train.fit`: ``best_step``, ``best_valid``, ``best_test``, ``best_train``,
        ``stopped_step``, ``capped`` and ``valid_curve`` (every ``spec.eval_every`` steps from
        step 0, rounded to :data:`CURVE_DIGITS` digits), and ``seconds``.
    """
    spec = SweepSpec() if spec is None else spec
    if not issubclass(type(spec), SweepSpec):
        raise TypeError(f"spec must be a SweepSpec, got {type_name(spec)}")
    # read through tuple itself: a subclass's own __len__, __iter__ or __getitem__ never runs
    if not issubclass(type(point), tuple) or tuple.__len__(point) != len(Point._fields):
        raise TypeError(f"point must be a Point of {Point._fields}, got {short_repr(point)}")
    point = Point(*(tuple.__getitem__(point, i) for i in range(len(Point._fields))))
    kinds = (numbers.Integral, numbers.Integral, numbers.Integral, bool, str, numbers.Real, numbers.Integral)
    for name, value, kind in zip(Point._fields, point, kinds, strict=True):
        if not is_a(value, kind) or (kind is not bool and issubclass(type(value), bool)):
            raise TypeError(f"point must be a Point of plain values; its {name} is {short_repr(value)}")
    # plain Python values in the record, each read by the value it holds (a subclass's own int() never runs)
    point = Point(
        *(
            bool(v)
            if kind is bool
            else plain_str(v)
            if kind is str
            else exact_int(v, f"point's {name}")
            if kind is numbers.Integral
            else exact_real(v, f"point's {name}")
            for name, v, kind in zip(Point._fields, point, kinds, strict=True)
        )
    )
    try:  # an int, a float or a Fraction, as the float a record holds
        lr = float(point.lr)
    except OverflowError:
        lr = math.inf
    if not (math.isfinite(lr) and lr > 0):
        raise ValueError(f"point's lr must be a positive finite number, got {short_repr(point.lr)}")
    point = point._replace(lr=lr)
    if point not in set(spec.points()):
        raise ValueError(f"point must be one of spec.points(), got {short_repr(point)}")
    corpus = _corpus(point.draw, point.n_train, spec.n_valid, spec.n_test)
    tied, width = model_of(point.config, corpus.vocab_size, point.d, point.hidden)
    r = fit(
        corpus, tied=tied, d=width, hidden=point.hidden, k=spec.k, lr=point.lr, seed=point.seed,
        batch_size=spec.batch_size, max_steps=spec.max_steps, eval_every=spec.eval_every, patience=spec.patience,
    )  # fmt: skip
    return {
        **point._asdict(),
        "width": width,
        "n_params": r.n_params,
        "best_step": r.best_step,
        "best_valid": r.best_valid,
        "best_test": r.best_test,
        "best_train": r.best_train,
        "stopped_step": r.stopped_step,
        "capped": r.capped,
        "valid_curve": [round(float(v), CURVE_DIGITS) for v in r.valid_curve],
        "seconds": round(r.seconds, 3),
    }


# -- reading a sweep ---------------------------------------------------------------------------


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t distribution with ``df`` degrees of freedom.

    Computed from the density by Simpson's rule and bisection (no SciPy), for ``p`` in
    ``(0.5, P_MAX]`` and ``df`` up to ``DF_MAX``: accurate to about ``1e-9`` relative there.

    Examples
    --------
    >>> round(t_quantile(0.975, 9), 4)  # the 95 % interval of a mean of 10 values
    2.2622
    >>> round(t_quantile(0.975, 1), 4)  # Cauchy: tan(0.475 pi)
    12.7062
    """
    if issubclass(type(p), bool) or not is_a(p, numbers.Real):
        raise TypeError(f"p must be a real number in (0.5, {P_MAX}], got {short_repr(p)}")
    p = exact_real(p, "p")
    if not _is_finite(p):  # NaN or inf, in any dtype: no exact fraction to compare
        raise ValueError(f"p must be in (0.5, {P_MAX}], got {short_repr(p)}")
    if not fractions.Fraction(1, 2) < _exactly(p) <= fractions.Fraction(P_MAX):  # not in p's own dtype: a
        raise ValueError(f"p must be in (0.5, {P_MAX}], got {short_repr(p)}")  # float16 reads 0.9999 as 1
    if not 0.5 < float(p):  # computed in float64: a p above 0.5 by less than its spacing there reads as 0.5
        raise ValueError(f"p must be above 0.5 in float64 (by at least 2**-53), got {short_repr(p)}")
    df = check_size(df, "df")
    if df > DF_MAX:
        raise ValueError(f"df must be at most {DF_MAX:,}, got {short_repr(df)}")
    p = float(p)
    # With t = sqrt(df) tan(theta) the density becomes a smooth cos(theta) ** (df - 1) on a bounded
    # interval, which Simpson's rule integrates accurately even far in the tail. The integral is
    # compared with p - 0.5, not 0.5 + integral with p, so quantiles near the median keep their digits.
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(math.pi)
    target = p - 0.5

    def mass(x: float) -> float:  # P(0 <= T <= x)
        theta = np.linspace(0.0, math.atan(x / math.sqrt(df)), 2001)
        f = np.exp(log_c + (df - 1) * np.log(np.cos(theta)))
        return float((f[0] + f[-1] + 4 * f[1:-1:2].sum() + 2 * f[2:-1:2].sum()) * (theta[1] - theta[0]) / 3)

    lo, hi = 0.0, 1.0
    for _ in range(40):  # the 0.9999 quantile of one degree of freedom is 3,183: 12 doublings reach it
        if mass(hi) >= target:
            break
        lo, hi = hi, 2 * hi
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if mass(mid) < target else (lo, mid)
    return (lo + hi) / 2


def _is_finite(x: Any) -> bool:
    """Whether a plain real number (as :func:`exact_real` gives) is finite: an int or Fraction always is."""
    return isinstance(x, (int, fractions.Fraction)) or bool(np.isfinite(x))


def _exactly(x: Any) -> fractions.Fraction:
    """A plain real number (int, Fraction, float or NumPy float of any width) as the exact fraction it is."""
    if isinstance(x, (int, fractions.Fraction)):
        return fractions.Fraction(x)
    return fractions.Fraction(*x.as_integer_ratio())


def t_interval(values: Any, level: float = 0.95) -> tuple[float, float, float]:
    """Mean of ``values`` and Student's t interval for it: ``(mean, low, high)``.

    The interval assumes the values are independent draws from one distribution; it covers the
    mean of that distribution with probability ``level``.

    Examples
    --------
    >>> m, lo, hi = t_interval([1.0, 2.0, 3.0])
    >>> round(m, 3), round(lo, 3), round(hi, 3)
    (2.0, -0.484, 4.484)
    """
    x = check_float_array(values, "values")
    if x.ndim != 1 or len(x) < 2:
        raise ValueError(f"values must be 1-D with at least 2 values, got shape {x.shape}")
    if len(x) - 1 > DF_MAX:
        raise ValueError(f"values must hold at most {DF_MAX + 1:,} values, got {len(x):,}")
    with np.errstate(over="ignore"):  # a longdouble beyond float64 becomes inf, refused below
        x = x.astype(np.float64)  # float16 compared and summed in float64
    if not np.all(np.isfinite(x)) or np.abs(x).max() > 1e150:
        raise ValueError("values must be finite, and at most 1e150 in size (their squares must fit a float64)")
    if issubclass(type(level), bool) or not is_a(level, numbers.Real):
        raise TypeError(f"level must be a real number in [0.01, {2 * P_MAX - 1:.4f}], got {short_repr(level)}")
    level = exact_real(level, "level")
    if not _is_finite(level):  # NaN or inf, in any dtype: no exact fraction to compare
        raise ValueError(f"level must be in [0.01, {2 * P_MAX - 1:.4f}], got {short_repr(level)}")
    exact = _exactly(level)  # compared and halved exactly, not in level's own dtype (float16 has 3 digits)
    if not fractions.Fraction(1, 100) <= exact <= 2 * fractions.Fraction(P_MAX) - 1:
        raise ValueError(f"level must be in [0.01, {2 * P_MAX - 1:.4f}], got {short_repr(level)}")
    mean = float(x.mean())
    dev = x - mean
    scale = float(np.abs(dev).max())  # deviations scaled to at most 1 before squaring: tiny values do not underflow
    sd = scale * math.sqrt(float(np.sum((dev / scale) ** 2)) / (len(x) - 1)) if scale > 0 else 0.0
    p = min(float(fractions.Fraction(1, 2) + exact / 2), P_MAX)  # P_MAX at most, were it to round past it
    half = t_quantile(p, len(x) - 1) * sd / math.sqrt(len(x))
    return mean, mean - half, mean + half


#: The largest loss (nats) a record may hold: far above any model's (uniform guessing over 127 tokens is 4.8).
MAX_LOSS = 100.0

#: What every record of a sweep holds (the point's fields and what :func:`run_point` measures).
RECORD_KEYS = (*Point._fields, "best_valid", "best_test", "best_step", "capped", "valid_curve")


def _listed(value: Any, allowed: tuple[Any, ...], name: str) -> Any:
    """The element of ``allowed`` that ``value`` (a number, not a bool or an array) equals, or None.

    ``value`` is read by the number it holds (:func:`exact_real`), so a subclass's own ``==`` never runs.
    The element of exactly its value wins; failing that, a NumPy float matches the one element that
    rounds to it in its dtype (a float32 0.00125 is the listed 0.00125), never one of several.
    """
    if not is_a(value, numbers.Real) or issubclass(type(value), (bool, np.bool_)):
        return None
    plain = exact_real(value, name)
    exact = exact_key(plain)  # its exact value first: NumPy's == rounds a listed value to the given dtype
    if exact is None:  # NaN or inf: no listed value, though NumPy's == would take one beyond the dtype's range as inf
        return None
    hit = next((a for a in allowed if a == exact), None)
    if hit is not None:
        return hit
    near = []  # a float32 0.00125 is the listed 0.00125, rounded: if only one is
    for a in allowed:
        try:
            with np.errstate(all="ignore"):  # a listed value beyond the given dtype's range: no match
                if a == plain:
                    near.append(a)
        except OverflowError:  # a listed int beyond float64's range: no match
            continue
    return near[0] if len(near) == 1 else None


def _loss(v: Any) -> bool:
    """Whether ``v`` is a plain number that can be a loss in nats (finite, 0 to MAX_LOSS)."""
    return issubclass(type(v), (int, float)) and not issubclass(type(v), bool) and 0 <= v <= MAX_LOSS


class Sweep:
    """The records of a sweep, with the protocol's choices and comparisons.

    Parameters
    ----------
    spec : SweepSpec
    records : list of dict
        One per point, as :func:`run_point` returns them, in ``spec.points()`` order.
    meta : dict
        Versions and timing recorded by ``make experiments``.

    The sweep keeps its own copy of what it checked: :attr:`spec`, :attr:`records` and :attr:`meta`
    are read-only, and ``records``, ``meta``, :meth:`runs` and :meth:`chosen` give fresh copies, so an
    edit to what they return never reaches the sweep's answers.
    """

    def __init__(self, spec: SweepSpec, records: list[dict[str, Any]], meta: dict[str, Any]) -> None:
        _check_sweep(spec, records, meta)
        records, meta = [_json_copy(r) for r in records], _json_copy(meta)
        index = {tuple(r[f] for f in Point._fields): r for r in records}
        self._spec, self._records, self._meta, self._index = spec, records, meta, index  # all or nothing

    @property
    def spec(self) -> SweepSpec:
        """The grid and protocol of the sweep."""
        return self._spec

    @property
    def records(self) -> list[dict[str, Any]]:
        """One record per point, in ``spec.points()`` order (a copy)."""
        return [_json_copy(r) for r in self._records]

    @property
    def meta(self) -> dict[str, Any]:
        """Versions and timing recorded by ``make experiments`` (a copy)."""
        return _json_copy(self._meta)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return (self._spec, self._records, self._meta) == (other._spec, other._records, other._meta)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Sweep({self._spec!r}, {len(self._records):,} records, meta keys {short_repr(sorted(self._meta), 200)})"

    def _check_cell(self, n_train: Any, d: Any, hidden: Any) -> tuple[int, int, bool]:
        """The spec's own (n_train, d, hidden) that the arguments name, refused by name if not listed."""
        listed_n = _listed(n_train, self._spec.data_sizes, "n_train")
        if listed_n is None:
            raise ValueError(
                f"n_train must be one of {short_repr(self._spec.data_sizes, 200)}, got {short_repr(n_train)}"
            )
        listed_d = _listed(d, self._spec.widths, "d")
        if listed_d is None:
            raise ValueError(f"d must be one of {short_repr(self._spec.widths, 200)}, got {short_repr(d)}")
        hidden = check_flag(hidden, "hidden")  # a bool (NumPy's too); 1 is not True
        if hidden not in self._spec.hidden:
            raise ValueError(f"hidden must be one of {self._spec.hidden}, got {short_repr(hidden)}")
        return listed_n, listed_d, hidden

    def runs(self, draw: int, n_train: int, d: int, hidden: bool, config: str, lr: float) -> list[dict[str, Any]]:
        """The records of one configuration at one learning rate, one per seed (copies)."""
        return [_json_copy(r) for r in self._runs(draw, n_train, d, hidden, config, lr)]

    def _runs(self, draw: int, n_train: int, d: int, hidden: bool, config: str, lr: float) -> list[dict[str, Any]]:
        n_train, d, hidden = self._check_cell(n_train, d, hidden)
        config = _config(config, "config", CONFIGS)
        listed_draw = _listed(draw, self._spec.draws, "draw")
        if listed_draw is None:
            raise ValueError(f"draw must be one of {short_repr(self._spec.draws, 200)}, got {short_repr(draw)}")
        listed_lr = _listed(lr, self._spec.lrs, "lr")
        if listed_lr is None:
            raise ValueError(f"lr must be one of {short_repr(self._spec.lrs, 200)}, got {short_repr(lr)}")
        # the spec's own values as keys: a float32 0.00125 equals the listed lr but hashes as its exact value
        key = (listed_draw, n_train, d, hidden, config, listed_lr)
        return [self._index[(*key, s)] for s in self._spec.seeds]

    def chosen_lr(self, draw: int, n_train: int, d: int, hidden: bool, config: str) -> float:
        """The learning rate with the lowest mean best validation loss over seeds (ties: the smaller)."""
        means = [
            np.mean([r["best_valid"] for r in self._runs(draw, n_train, d, hidden, config, lr)])
            for lr in self._spec.lrs
        ]
        return sorted(zip(means, self._spec.lrs, strict=True))[0][1]

    def chosen(self, n_train: int, d: int, hidden: bool, config: str) -> list[dict[str, Any]]:
        """The reported runs of a configuration: each draw at its chosen lr, one per (draw, seed) (copies)."""
        return [_json_copy(r) for r in self._chosen(n_train, d, hidden, config)]

    def _chosen(self, n_train: int, d: int, hidden: bool, config: str) -> list[dict[str, Any]]:
        n_train, d, hidden = self._check_cell(n_train, d, hidden)
        config = _config(config, "config", CONFIGS)
        return [
            r
            for draw in self._spec.draws
            for r in self._runs(draw, n_train, d, hidden, config, self.chosen_lr(draw, n_train, d, hidden, config))
        ]

    def test_loss(self, n_train: int, d: int, hidden: bool, config: str) -> tuple[float, float, float]:
        """Mean test loss (nats) of the reported runs, with its 95 % t interval."""
        return t_interval([r["best_test"] for r in self._chosen(n_train, d, hidden, config)])

    def gap(self, n_train: int, d: int, hidden: bool, other: str = "untied") -> dict[str, Any]:
        """Test loss of tied minus ``other``, paired by (draw, seed): negative means tying is better.

        Returns
        -------
        dict
            ``mean``, ``low``, ``high`` (95 % t interval over the paired differences), ``per_draw``
            (the mean difference in each corpus draw) and ``values``.
        """
        other = _config(other, "other", CONFIGS[1:])
        tied = self._chosen(n_train, d, hidden, "tied")
        them = self._chosen(n_train, d, hidden, other)
        values = np.array([a["best_test"] - b["best_test"] for a, b in zip(tied, them, strict=True)])
        mean, low, high = t_interval(values)
        per_draw = values.reshape(len(self._spec.draws), len(self._spec.seeds)).mean(axis=1)
        return {"mean": mean, "low": low, "high": high, "per_draw": per_draw.tolist(), "values": values}

    def verdict(self, n_train: int, d: int, hidden: bool, other: str = "untied") -> str:
        """``"tied better"``, ``"untied better"`` or ``"level"``: whether the gap's interval excludes 0."""
        g = self.gap(n_train, d, hidden, other)
        return "tied better" if g["high"] < 0 else "untied better" if g["low"] > 0 else "level"

    def mean_curve(self, n_train: int, d: int, hidden: bool, config: str) -> tuple[np.ndarray, np.ndarray]:
        """Validation loss of the reported runs from step 0: ``(steps, mean)``.

        Runs stop at different steps; each step's mean is over the runs still training, and the
        curve ends where fewer than half of them are.
        """
        curves = [np.asarray(r["valid_curve"]) for r in self._chosen(n_train, d, hidden, config)]
        length = sorted((len(c) for c in curves), reverse=True)[(len(curves) - 1) // 2]
        mean = np.array([np.mean([c[i] for c in curves if len(c) > i]) for i in range(length)])
        return np.arange(length) * self._spec.eval_every, mean

    def cells(self) -> list[tuple[int, int, bool]]:
        """Every (n_train, d, hidden) of the sweep, hidden layer first, then by width and data size."""
        return [(n, d, h) for h in self._spec.hidden for d in self._spec.widths for n in self._spec.data_sizes]

    def capped(self) -> int:
        """How many reported runs reached ``max_steps`` still improving (0 means early stopping always decided)."""
        return sum(r["capped"] for c in self.cells() for cfg in CONFIGS for r in self._chosen(*c, cfg))

    def save(self, path: Any) -> None:
        """Write the sweep as JSON (floats round-trip exactly)."""
        target = check_path(path, "path")
        data = {"spec": self._spec.to_dict(), "meta": self._meta, "records": self._records}
        try:
            text = json.dumps(data, indent=0, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as exc:
            raise ValueError(f"records and meta must hold plain JSON values only ({type_name(exc)})") from None
        try:
            special = target.exists() and not target.is_file()  # a FIFO blocks for ever, a folder cannot be written
        except (OSError, ValueError):
            special = False  # left to the write below, which names the problem
        if special:
            raise ValueError(f"path {short_repr(str(target))} must name a regular file, not an existing special file")
        try:
            target.write_text(text + "\n", encoding="utf-8")
        except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
            reason = getattr(exc, "strerror", None) or str(exc)
            raise ValueError(f"path {short_repr(str(target))} cannot be written: {reason}") from None


def _check_sweep(spec: Any, records: Any, meta: Any) -> None:
    """Refuse, by the field at fault, a sweep that run_point and the spec could not have made."""
    if not issubclass(type(spec), SweepSpec):
        raise TypeError(f"spec must be a SweepSpec, got {type_name(spec)}")
    # plain lists and dicts: a subclass's own iterator, items or __getitem__ never runs
    if type(records) is not list or not all(type(r) is dict for r in records):
        raise TypeError("records must be a list of dicts, one per point (see run_point)")
    if type(meta) is not dict:
        raise TypeError(f"meta must be a dict, got {type_name(meta)}")
    odd = _plain_json(meta)
    if odd == "type":
        raise TypeError(
            "meta must hold plain JSON values only: dicts with plain str keys, lists, str and finite numbers"
        )
    if odd == "size":
        raise ValueError(
            f"meta must hold plain JSON values at most 20 deep, {MAX_META_NODES:,} values in all and ints "
            "below 2**63 in size (a list that holds itself has no end)"
        )
    for i, r in enumerate(records):
        odd = next((k for k in r if type(k) is not str), None)
        if odd is not None:  # plain str keys: a subclass's own ==, hash or repr never runs
            raise TypeError(f"records must have plain str keys; record {i} has the key {_describe(odd)}")
    missing = [(i, key) for i, r in enumerate(records) for key in RECORD_KEYS if key not in r]
    if missing:
        raise ValueError(f"records must hold the keys of run_point; record {missing[0][0]} lacks {missing[0][1]!r}")
    for i, r in enumerate(records):  # what run_point adds beyond the keys read here: plain JSON too
        extra = {k: v for k, v in r.items() if k not in RECORD_KEYS}
        odd = _plain_json(extra)
        if odd:
            raise (TypeError if odd == "type" else ValueError)(
                f"records must hold plain JSON values (finite numbers; at most 20 deep and {MAX_META_NODES:,} "
                "values each); "
                f"record {i} holds {'another type' if odd == 'type' else 'more'} beside its keys"
            )
    for i, r in enumerate(records):  # plain values: a subclass's own == or <= never runs below
        for key in RECORD_KEYS:
            v = r[key]
            items = v if type(v) is list else [v]
            odd = next((x for x in items if not _is_one_of(type(x), (int, float, bool, str))), None)
            if odd is not None or (key == "valid_curve" and type(v) is not list):
                raise TypeError(
                    f"records must hold plain numbers, bools and str (a list for valid_curve); "
                    f"record {i}'s {key} holds {_describe(odd if odd is not None else v)}"
                )
    keys = [tuple(r[f] for f in Point._fields) for r in records]
    expected = [tuple(p) for p in spec.points()]
    # each field of its own type too: 1 is not True, nor 0.0 the draw 0
    if keys != expected or any(
        type(a) is not type(b) for k, e in zip(keys, expected, strict=True) for a, b in zip(k, e, strict=True)
    ):
        raise ValueError("records must hold one record per point of spec, in spec.points() order")
    for i, r in enumerate(records):
        losses = [r[k] for k in ("best_valid", "best_test")]
        curve = r["valid_curve"]
        step = r["best_step"]
        if not (all(map(_loss, losses)) and issubclass(type(curve), list) and curve and all(map(_loss, curve))):
            raise ValueError(
                f"records must hold losses in [0, {MAX_LOSS:g}] nats and a non-empty validation curve; "
                f"record {i} does not"
            )
        if issubclass(type(step), bool) or not issubclass(type(step), int) or not 0 <= step <= spec.max_steps:
            raise ValueError(f"records must hold a best_step in [0, max_steps]; record {i} has {short_repr(step)}")
        if not issubclass(type(r["capped"]), bool):
            raise ValueError(f"records must hold capped as true or false; record {i} has {short_repr(r['capped'])}")


def run_sweep(
    spec: SweepSpec | None = None,
    *,
    map_fn: Callable[..., Iterable[dict[str, Any]]] = map,
) -> Sweep:
    """Run every point of ``spec`` (``map_fn`` may be a process pool's ``map``) and collect a :class:`Sweep`."""
    from . import __version__

    spec = SweepSpec() if spec is None else spec
    if not issubclass(type(spec), SweepSpec):
        raise TypeError(f"spec must be a SweepSpec, got {type_name(spec)}")
    if not callable(map_fn):
        raise TypeError(f"map_fn must be callable like map(f, points), got {type_name(map_fn)}")
    points = spec.points()
    results = map_fn(functools.partial(run_point, spec=spec), points)
    try:
        results = iter(results)
    except TypeError:
        raise TypeError(f"map_fn must return an iterable of records, got {type_name(results)}") from None
    records = list(itertools.islice(results, len(points) + 1))  # read no further than one record too many
    if len(records) != len(points):
        got = "more" if len(records) > len(points) else f"{len(records):,}"
        raise ValueError(f"map_fn must return one record per point, {len(points):,}, got {got}")
    for i, r in enumerate(records):  # plain dicts: a subclass's own get or items never runs
        if type(r) is not dict:
            raise TypeError(f"map_fn must return run_point's records (dicts); record {i} is {type_name(r)}")
        seconds = r.get("seconds", 0.0)
        if not _is_one_of(type(seconds), (int, float)):  # plain numbers, as run_point writes them
            raise TypeError(
                f"map_fn must return records whose seconds are plain numbers; record {i} has {_describe(seconds)}"
            )
        if not 0 <= seconds <= MAX_SECONDS:
            raise ValueError(
                f"map_fn must return records whose seconds are numbers in [0, {MAX_SECONDS:g}]; "
                f"record {i} has {short_repr(seconds)}"
            )
    meta = {
        "embedlab": __version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "points": len(points),
        "cpu_seconds": round(math.fsum(r.get("seconds", 0.0) for r in records), 1),
    }
    try:
        return Sweep(spec, records, meta)
    except (TypeError, ValueError) as exc:  # the records came from map_fn: named as its
        raise type(exc)(f"map_fn must return run_point's records: {exc}") from None


#: Longest a run of the sweep may report it took, in seconds (a year).
MAX_SECONDS = 365 * 24 * 3600


#: Most values (dicts, lists, keys and leaves, counted each time they are reached) a sweep's meta may hold.
MAX_META_NODES = 100_000


def _json_copy(x: Any) -> Any:
    """A copy of plain JSON data (dicts and lists copied, at most 20 deep as checked; leaves are immutable)."""
    if type(x) is dict:
        return {k: _json_copy(v) for k, v in x.items()}
    if type(x) is list:
        return [_json_copy(v) for v in x]
    return x


def _plain_json(x: Any) -> str:
    """What keeps ``x`` from being plain JSON: "" when it is made only of plain dicts (plain str keys),
    lists, str, bool, int, float and None; "type" for any other value; "size" when it is nested more
    than 20 deep or holds more than :data:`MAX_META_NODES` values, shared ones counted each time they are
    reached (as JSON would write them), so a list that holds itself is refused, not walked for ever."""
    stack, seen = [(x, 0)], 1  # seen: the values reached, stacked or walked; counted before any is stacked
    while stack:
        v, depth = stack.pop()
        if depth > 20:
            return "size"
        if _is_one_of(type(v), (dict, list)):
            seen += len(v)  # a container's values counted before any is stacked: a wide list allocates nothing
            if seen > MAX_META_NODES:
                return "size"
        if type(v) is dict:
            if not all(type(k) is str for k in v):
                return "type"
            stack.extend((c, depth + 1) for c in v.values())
        elif type(v) is list:
            stack.extend((c, depth + 1) for c in v)
        elif not (_is_one_of(type(v), (str, bool, int, float)) or v is None):
            return "type"
        elif type(v) is float and not math.isfinite(v):  # JSON has no NaN or infinity
            return "type"
        elif type(v) is int and abs(v) >= 2**63:  # an int JSON readers (and repr's digit limit) can hold
            return "size"
    return ""


def load_results(path: Any = None) -> Sweep:
    """Read a sweep written by :meth:`Sweep.save`; default the chapter's, shipped in the package."""
    if path is None:
        source: Any = resources.files("embedlab").joinpath("data", RESULTS_FILE)
        name = f"embedlab's data/{RESULTS_FILE} (run `make experiments`)"
    else:
        source = check_path(path, "path")
        name = f"path {short_repr(str(source))}"
    try:
        is_file = source.is_file()
        if is_file:
            with source.open("rb") as f:
                raw = f.read(MAX_RESULTS_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"{name} cannot be read: {exc.strerror}") from None
    if not is_file:
        raise ValueError(f"{name} is not a file")
    if len(raw) > MAX_RESULTS_BYTES:
        raise ValueError(f"{name} is larger than {MAX_RESULTS_BYTES // 2**20} MiB: not a sweep file")
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ValueError(f"{name} does not hold a sweep's JSON ({type_name(exc)}: {str(exc)[:80]})") from None
    if not issubclass(type(data), dict) or set(data) != {"spec", "meta", "records"}:
        raise ValueError(f"{name} must hold a sweep written by Sweep.save (keys spec, meta, records)")
    try:
        return Sweep(SweepSpec.from_dict(data["spec"]), data["records"], data["meta"])
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} does not hold a valid sweep: {str(exc)[:200]}") from None


def _refuse_constant(name: str) -> float:
    raise ValueError(f"a sweep file holds no {name}")
