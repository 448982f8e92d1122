"""Hostile tests of the whole public API: the contract holds at the edges, not only for nice input.

The contract, checked for every public function and for the interactive layer:

* valid input of any float dtype (float16 to longdouble), any layout (C, Fortran, strided,
  reversed, read-only) gives the right value, against a float64 or exact reference;
* invalid input gives a ``TypeError`` or ``ValueError`` whose message names the argument and
  stays short; never another exception type, never a NumPy warning, never a hang;
* inputs are never mutated, a large ``E`` is never copied, absurd sizes never reach the allocator;
* ``lookup`` works in threads, in a child made by ``fork`` and in ``atexit`` handlers.

Hypothesis runs derandomized with small example counts (the machine is shared); each fuzz test
mixes valid arguments with exactly one hostile one, so the error must name that argument.
"""

from __future__ import annotations

import abc
import collections
import contextlib
import copy
import dataclasses
import datetime
import decimal
import enum
import functools
import gc
import importlib
import inspect
import io
import itertools
import math
import os
import pathlib
import pkgutil
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import tracemalloc
import types as types_mod
import warnings
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import matplotlib.axes as matplotlib_axes_mod
import matplotlib.pyplot as plt_mod
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from matplotlib.text import Annotation

import embedlab
import embedlab._naive
from embedlab import (  # noqa: F401  (attributes of embedlab below)
    angle_deg,
    architectures,
    cosine,
    cross_entropy,
    cross_entropy_grad,
    display,
    dot,
    embedding_grad,
    explorers,
    gpt2,
    in_plane,
    log_softmax,
    lookup,
    naive_softmax,
    one_hot,
    one_hot_cost,
    output_grad,
    param_bytes,
    param_count,
    plane_basis,
    plots,
    saturation_prob,
    saved_fraction,
    softmax,
    sweep,
    tied_grad,
    tied_logits,
    token_id,
    train,
    train_plots,
    widgets,
)
from embedlab import architectures as architectures_mod
from embedlab import exercises as exercises_mod
from embedlab import explorers as explorers_mod
from embedlab import figures as figures_mod
from embedlab import plots as plots_mod
from embedlab import practice as practice_mod
from embedlab import quiz as quiz_mod
from embedlab import sweep as sweep_mod
from embedlab._validation import short_repr
from embedlab.claims import check
from embedlab.corpus import make_corpus
from embedlab.model import finite_difference_grad, tiny_model_grads, tiny_model_loss
from embedlab.sweep import SweepSpec, t_interval, t_quantile
from embedlab.train import fit
from embedlab.widgets import MAX_CONTROL_VALUES, Control, Explorer, float_range

if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):  # see test_properties.py
    set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "embedlab-hypothesis")

FAST = settings(
    max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
SLOW = settings(FAST, max_examples=12)  # matplotlib: each call draws a figure

FLOATS = (np.float16, np.float32, np.float64, np.longdouble)
MAX_MESSAGE = 400  # characters: a huge input must not be repeated in its own message


# ================================================================ the contract, as one function
def _snapshot(x: Any) -> Any:
    if isinstance(x, np.ndarray) and not x.flags.writeable and x.nbytes > 1 << 26:
        return ("opaque", None)  # a huge read-only view (broadcast): nothing can write to it
    if isinstance(x, np.ndarray):
        return ("array", x.copy(), x.flags.writeable, x.strides)
    try:
        return ("other", copy.deepcopy(x))
    except Exception:
        return ("opaque", None)


def _unchanged(before: Any, x: Any) -> bool:
    kind, saved, *rest = before
    if kind == "array":
        writeable, strides = rest
        same = saved.dtype == x.dtype and saved.shape == x.shape
        return (
            same
            and np.array_equal(saved, x, equal_nan=saved.dtype.kind in "fc")
            and x.flags.writeable == writeable
            and x.strides == strides
        )
    if kind == "other" and isinstance(x, list):
        return repr(saved) == repr(x)
    return True


def call(fn: Any, args: dict[str, Any], names: tuple[str, ...] | set[str] | None = None) -> tuple[str, Any]:
    """Call ``fn(**args)`` and assert the contract; return ``("ok", value)`` or ``("error", exc)``.

    ``names``: the argument(s) an error must name (default: any argument of the call).
    """
    before = {k: _snapshot(v) for k, v in args.items()}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            outcome: tuple[str, Any] = ("ok", fn(**args))
        except (TypeError, ValueError) as exc:
            outcome = ("error", exc)
        except BaseException as exc:
            raise AssertionError(f"{fn.__name__} raised {type(exc).__name__} outside the contract: {exc}") from exc
    assert not caught, f"{fn.__name__} warned: {[str(w.message) for w in caught]}"
    for k, v in args.items():
        assert _unchanged(before[k], v), f"{fn.__name__} mutated its argument {k}"
    if outcome[0] == "error":
        message = str(outcome[1])
        assert len(message) <= MAX_MESSAGE, f"message of {len(message)} characters: {message[:200]}..."
        wanted = names if names is not None else tuple(args)
        assert any(re.search(rf"(?<![\w.]){re.escape(n)}(?!\w)", message) for n in wanted), (
            f"{fn.__name__}: {type(outcome[1]).__name__} does not name {wanted}: {message}"
        )
    return outcome


# ================================================================ strategies
def _masked() -> np.ndarray:
    return np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])


HOSTILE_VALUES: list[Any] = [
    None,
    "",
    "cat",
    "x" * 100_000,  # a huge input, not to be repeated in the message
    b"bytes",
    True,
    np.bool_(False),
    1j,
    np.complex64(1 + 2j),
    2**70,
    -(2**70),
    2**63 - 1,
    -1,
    0,
    -0.0,
    0.5,
    math.nan,
    math.inf,
    -math.inf,
    1e308,
    np.float16(np.nan),
    np.longdouble("1e4000"),
    np.uint64(2**64 - 1),
    np.int8(-3),
    [],
    [[]],
    [[1, 2], [3]],
    [[1.0, 2.0], [3.0]],
    [True, 1],
    [1.5, 2.5],
    [1, None],
    ["a", "b"],
    [2**70, 1],
    np.array([], dtype=float),
    np.zeros((0, 3)),
    np.zeros((3, 0), np.float32),
    np.array(1.0),
    np.array(3),
    np.array([True, False]),
    np.array(["a"]),
    np.array([object()], dtype=object),
    np.array(["2020-01-01"], dtype="datetime64[D]"),
    np.array([1 + 1j, 2]),
    np.arange(200_000),  # large: the message must describe it, not print it
    np.full((2, 3), np.nan, np.float16),
    np.full((2, 3), np.inf, np.longdouble),
    np.full(3, 6e4, np.float16),
    {"a": 1},
    {1, 2},
    (x for x in range(3)),
    object(),
    len,
]


@st.composite
def hostile(draw: Any) -> Any:
    """Anything a caller might pass by mistake; fresh objects each time (some are consumed)."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.just(_masked()))
    if kind == 1:  # a random array of a random odd dtype and shape, special values included
        dtype = draw(st.sampled_from([*FLOATS, np.int8, np.uint64, np.bool_, np.complex128]))
        shape = draw(st.lists(st.integers(0, 3), min_size=0, max_size=3))
        base = np.asarray(draw(st.sampled_from([0.0, -1.0, 7.0, math.nan, math.inf, 1e30]))).astype(np.float64)
        with np.errstate(all="ignore"):
            return np.full(shape, base).astype(dtype)
    value = draw(st.sampled_from(HOSTILE_VALUES))
    if isinstance(value, type(x for x in ())):
        return (x for x in range(3))
    return copy.copy(value)


def layout(arr: np.ndarray, kind: str) -> np.ndarray:
    """The same values in another memory layout: Fortran, reversed, strided, read-only."""
    if kind == "fortran":
        return np.asfortranarray(arr)
    if kind == "reversed":  # negative strides
        out = np.flip(np.ascontiguousarray(np.flip(arr)))
        return out
    if kind == "strided":
        big = np.zeros((*arr.shape[:-1], 2 * arr.shape[-1]), arr.dtype) if arr.ndim else np.zeros(2, arr.dtype)
        if arr.ndim == 0:
            return arr
        big[..., ::2] = arr
        return big[..., ::2]
    if kind == "readonly":
        out = arr.copy()
        out.setflags(write=False)
        return out
    return arr


LAYOUTS = st.sampled_from(["c", "fortran", "reversed", "strided", "readonly"])


@st.composite
def float_matrix(draw: Any, rows: int, cols: int, lo: float = -100.0, hi: float = 100.0) -> np.ndarray:
    dtype = draw(st.sampled_from(FLOATS))
    values = draw(st.lists(st.floats(lo, hi, allow_nan=False, width=16), min_size=rows * cols, max_size=rows * cols))
    arr = np.asarray(values, dtype=np.float64).reshape(rows, cols).astype(dtype)
    return layout(arr, draw(LAYOUTS))


@st.composite
def float_vector(draw: Any, n: int, lo: float = -100.0, hi: float = 100.0) -> np.ndarray:
    return draw(float_matrix(1, n, lo, hi))[0]


@st.composite
def id_list(draw: Any, V: int, max_size: int = 6) -> Any:
    ids = draw(st.lists(st.integers(0, V - 1), min_size=1, max_size=max_size))
    form = draw(st.sampled_from(["list", "int64", "uint8", "scalar", "npscalar", "2d"]))
    if form == "int64":
        return layout(np.asarray(ids, np.int64), draw(LAYOUTS))
    if form == "uint8":
        return np.asarray(ids, np.uint8)
    if form == "scalar":
        return ids[0]
    if form == "npscalar":
        return np.int16(ids[0])
    if form == "2d":
        return [ids, ids]
    return ids


# ================================================================ the fuzz table
# Arguments whose errors may name each other (an id out of range of E's rows names ids, not E).
RELATED: dict[str, tuple[tuple[str, ...], ...]] = {
    "lookup": (("E", "ids"),),
    "one_hot": (("ids", "vocab_size"),),
    "softmax": (("z", "axis"),),
    "log_softmax": (("z", "axis"),),
    "cross_entropy": (("logits", "targets"),),
    "cross_entropy_grad": (("logits", "targets"),),
    "dot": (("a", "b"),),
    "cosine": (("a", "b"),),
    "angle_deg": (("a", "b"),),
    "plane_basis": (("a", "b"),),
    "embedding_grad": (("ids", "upstream", "vocab_size"),),
    "output_grad": (("h", "grad_logits"),),
    "tied_grad": (("ids", "upstream", "h", "grad_logits", "vocab_size"),),
    "tied_logits": (("h", "E", "bias"),),
    "tiny_model_loss": (("E", "ids", "target", "W"),),
    "tiny_model_grads": (("E", "ids", "target", "W"),),
    "finite_difference_grad": (("loss", "E"),),
    "check": (("draft", "computed"),),
    "Control": (("values", "fmt"),),
    "heatmap": (("matrix", "highlight_row"),),
    "bars": (("values", "labels"),),
    "curve": (("x", "y"),),
    "fit": (("max_steps", "eval_every"), ("optimizer", "weight_decay"), ("k", "corpus"), ("d", "tied")),
    "SweepSpec": (("max_steps", "eval_every"),),
}


def related(name: str, key: str) -> set[str]:
    """The names an error caused by a bad ``key`` may give: ``key`` itself, or a partner it is checked against."""
    out = {key}
    for group in RELATED.get(name, ()):
        if key in group:
            out.update(group)
    return out


# name -> (function, strategy of a dict of *valid* arguments that work together)
V, D = 5, 3


@st.composite
def _lookup_args(draw: Any) -> dict[str, Any]:
    return {"E": draw(float_matrix(V, D)), "ids": draw(id_list(V))}


@st.composite
def _logits_args(draw: Any) -> dict[str, Any]:
    return {"z": draw(float_matrix(2, V, -20, 20)), "axis": draw(st.sampled_from([-1, 0, 1, np.int64(1)]))}


@st.composite
def _ce_args(draw: Any) -> dict[str, Any]:
    return {
        "logits": draw(float_matrix(2, V, -20, 20)),
        "targets": draw(st.lists(st.integers(0, V - 1), min_size=2, max_size=2)),
    }


@st.composite
def _pair_args(draw: Any) -> dict[str, Any]:
    return {"a": draw(float_vector(D, 1, 10)), "b": draw(float_vector(D, -10, -1))}


@st.composite
def _grad_args(draw: Any) -> dict[str, Any]:
    ids = draw(st.lists(st.integers(0, V - 1), min_size=1, max_size=4))
    return {
        "ids": ids,
        "upstream": draw(float_matrix(len(ids), D)),
        "h": draw(float_matrix(2, D)),
        "grad_logits": draw(float_matrix(2, V)),
        "vocab_size": V,
    }


def _sub(strategy: Any, *keys: str, **extra: Any) -> Any:
    return strategy.map(lambda a: {**{k: a[k] for k in keys}, **extra})


W3 = np.eye(D)

TABLE: dict[str, tuple[Any, Any]] = {
    "lookup": (lookup, _lookup_args()),
    "one_hot": (one_hot, st.builds(lambda ids: {"ids": ids, "vocab_size": V}, id_list(V))),
    "one_hot_cost": (
        one_hot_cost,
        st.fixed_dictionaries(
            {"vocab_size": st.integers(1, 10**30), "d_model": st.integers(1, 9), "n_tokens": st.just(2)}
        ),
    ),
    "softmax": (softmax, _logits_args()),
    "log_softmax": (log_softmax, _logits_args()),
    "naive_softmax": (naive_softmax, _sub(_logits_args(), "z")),
    "cross_entropy": (cross_entropy, _ce_args()),
    "cross_entropy_grad": (cross_entropy_grad, _ce_args()),
    "saturation_prob": (
        saturation_prob,
        st.fixed_dictionaries({"t": st.floats(-1e308, 1e308) | float_vector(3), "n_others": st.integers(1, 2**2000)}),
    ),
    "dot": (dot, _pair_args()),
    "cosine": (cosine, _pair_args()),
    "angle_deg": (angle_deg, _pair_args()),
    "plane_basis": (plane_basis, _pair_args().map(lambda a: {"a": a["a"], "b": a["a"] + [0.0, 0.0, 5.0]})),
    "in_plane": (
        in_plane,
        st.fixed_dictionaries(
            {"angle_degrees": st.floats(-1e6, 1e6), "basis": st.just(np.eye(3)[:2]), "length": st.floats(-10, 10)}
        ),
    ),
    "embedding_grad": (embedding_grad, _sub(_grad_args(), "ids", "upstream", "vocab_size")),
    "output_grad": (output_grad, _sub(_grad_args(), "h", "grad_logits")),
    "tied_grad": (tied_grad, _grad_args()),
    "tied_logits": (
        tied_logits,
        st.fixed_dictionaries({"h": float_vector(D), "E": float_matrix(V, D), "bias": st.none() | float_vector(V)}),
    ),
    "param_count": (
        param_count,
        st.fixed_dictionaries(
            {"vocab_size": st.integers(1, 10**20), "d_model": st.integers(1, 10**6), "tied": st.booleans()}
        ),
    ),
    "saved_fraction": (
        saved_fraction,
        st.fixed_dictionaries({"vocab_size": st.integers(1, 10**20), "d_model": st.integers(1, 10**6)}),
    ),
    "param_bytes": (
        param_bytes,
        st.fixed_dictionaries(
            {
                "vocab_size": st.integers(1, 10**9),
                "d_model": st.integers(1, 10**4),
                "tied": st.booleans(),
                "dtype": st.sampled_from(["float32", "bfloat16", np.float16, "int8"]),
            }
        ),
    ),
    "token_id": (token_id, st.fixed_dictionaries({"token": st.sampled_from(embedlab.TOKENS)})),
    "tiny_model_loss": (
        tiny_model_loss,
        st.fixed_dictionaries(
            {"E": float_matrix(V, D, -2, 2), "ids": id_list(V), "target": st.just(1), "W": st.just(W3)}
        ),
    ),
    "tiny_model_grads": (
        tiny_model_grads,
        st.fixed_dictionaries(
            {"E": float_matrix(V, D, -2, 2), "ids": id_list(V), "target": st.just(1), "W": st.just(W3)}
        ),
    ),
    "finite_difference_grad": (
        finite_difference_grad,
        st.fixed_dictionaries(
            {"loss": st.just(lambda M: float(M.sum())), "E": float_matrix(2, 2), "eps": st.just(1e-3)}
        ),
    ),
    "check": (
        check,
        st.fixed_dictionaries(
            {
                "label": st.just("x"),
                "draft": st.floats(-9, 9),
                "computed": st.floats(-9, 9),
                "decimals": st.integers(0, 6),
            }
        ),
    ),
    "float_range": (
        float_range,
        st.fixed_dictionaries({"start": st.just(-1.0), "stop": st.just(1.0), "step": st.sampled_from([0.1, 0.5, 2])}),
    ),
    "fit": (
        fit,
        st.fixed_dictionaries(
            {
                "corpus": st.just(make_corpus(1, n_train=12, n_valid=6, n_test=6)),
                "tied": st.booleans(),
                "d": st.integers(2, 4),
                "lr": st.sampled_from([0.01, 0.1]),
                "optimizer": st.sampled_from(["sgd", "adam", "adamw"]),
                "max_steps": st.integers(1, 6),
                "eval_every": st.just(1),
                "patience": st.integers(1, 3),
                "batch_size": st.integers(1, 64),
            }
        ),
    ),
    "make_corpus": (
        make_corpus,
        st.fixed_dictionaries(
            {
                "seed": st.integers(0, 10),
                "n_train": st.integers(1, 20),
                "n_valid": st.integers(1, 5),
                "n_test": st.integers(1, 5),
            }
        ),
    ),
    "SweepSpec": (
        SweepSpec,
        st.fixed_dictionaries(
            {
                "data_sizes": st.just((10, 20)),
                "widths": st.just((4,)),
                "lrs": st.just((0.01,)),
                "seeds": st.just((0, 1)),
                "max_steps": st.integers(50, 100),
                "eval_every": st.integers(1, 50),
            }
        ),
    ),
    "t_quantile": (t_quantile, st.fixed_dictionaries({"p": st.floats(0.51, 0.9999), "df": st.integers(1, 1000)})),
    "t_interval": (
        t_interval,
        st.fixed_dictionaries(
            {"values": st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=8), "level": st.just(0.95)}
        ),
    ),
    "Control": (
        Control,
        st.fixed_dictionaries(
            {"name": st.just("x"), "label": st.just("x"), "values": st.just((1, 2, 3)), "fmt": st.just("{!r}")}
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(TABLE))
def test_valid_arguments_pass_the_contract(name):
    """Valid arguments in every dtype and layout: a value, no warning, nothing mutated."""
    fn, valid = TABLE[name]

    @FAST
    @given(valid)
    def run(args):
        kind, value = call(fn, args)
        assert kind == "ok", f"{name} refused valid arguments: {value}"

    run()


@pytest.mark.parametrize("name", sorted(TABLE))
def test_one_hostile_argument_is_named(name):
    """One argument replaced by something hostile: a value, or TypeError/ValueError naming it."""
    fn, valid = TABLE[name]

    @FAST
    @given(valid, st.data())
    def run(args, data):
        key = data.draw(st.sampled_from(sorted(args)))
        bad = data.draw(hostile())
        call(fn, {**args, key: bad}, names=related(name, key))

    run()


# ---------------------------------------------------------------- the interactive layer (slower)
def _setup(fig: Any, ax: Any) -> Any:
    (line,) = ax.plot([0, 1], [0, 1])
    return (lambda x: f"x = {x}"), [line]


PLOTS: dict[str, tuple[Any, Any]] = {
    "Explorer": (
        Explorer,
        st.fixed_dictionaries(
            {
                "title": st.just("t"),
                "controls": st.just([Control("x", "x", (1, 2))]),
                "setup": st.just(_setup),
                "figsize": st.just((2.0, 2.0)),
                "ncols": st.just(1),
            }
        ),
    ),
    "heatmap": (plots.heatmap, st.fixed_dictionaries({"matrix": float_matrix(2, 3), "highlight_row": st.just(1)})),
    "bars": (plots.bars, st.fixed_dictionaries({"values": float_vector(3), "labels": st.just(["a", "b", "c"])})),
    "arrows": (plots.arrows, st.fixed_dictionaries({"vectors": float_matrix(2, 2), "limit": st.just(2.0)})),
    "curve": (plots.curve, st.fixed_dictionaries({"x": float_vector(3), "y": float_vector(3)})),
    "marker": (plots.marker, st.fixed_dictionaries({"x": st.floats(-9, 9), "y": st.floats(-9, 9)})),
    "one_hot_cost_explorer": (
        explorers.one_hot_cost_explorer,
        st.fixed_dictionaries({"presets": st.just((("toy", 4, 3), ("wide", 10, 64)))}),
    ),
    "alignment_explorer": (explorers.alignment_explorer, st.fixed_dictionaries({"token": st.integers(0, 3)})),
    "saturation_explorer": (explorers.saturation_explorer, st.fixed_dictionaries({"n_others": st.just(3)})),
    "gradient_explorer": (
        explorers.gradient_explorer,
        st.fixed_dictionaries({"context": st.just((2, 1)), "W": st.none() | st.just(np.eye(3, dtype=np.float32))}),
    ),
}


@pytest.mark.parametrize("name", sorted(PLOTS))
def test_interactive_layer_names_a_hostile_argument(name):
    """Plot helpers and explorers: hostile arguments are refused by name, before matplotlib sees them."""
    fn, valid = PLOTS[name]

    @SLOW
    @given(valid, st.data())
    def run(args, data):
        key = data.draw(st.sampled_from(sorted(args)))
        bad = data.draw(hostile())
        if key == "W" and bad is None:
            return  # None is the documented default
        call(fn, {**args, key: bad}, names=related(name, key))

    run()


@pytest.mark.parametrize("name", sorted(PLOTS))
def test_interactive_layer_accepts_every_float_dtype(name):
    fn, valid = PLOTS[name]

    @settings(SLOW, max_examples=4)
    @given(valid)
    def run(args):
        assert call(fn, args)[0] == "ok"

    run()


@FAST
@given(hostile(), st.data())
def test_control_snap_and_show_stay_in_contract(value, data):
    """A slider refuses or snaps any value; it never raises anything else."""
    c = Control("x", "x", data.draw(st.sampled_from([(1, 2, 3), (0.5, 1.5), ("a", "b"), (0, 10**400)])))
    kind, out = call(c.snap, {"value": value}, names=("x",))
    if kind == "ok":
        assert out in c.values


@pytest.mark.parametrize(
    "fmt",
    ["{:d}", "{0[1]}", "{a}", "{.real.nope}", "{", "{:q}", lambda v: v, lambda v: 1 / 0, 3],
)
def test_control_with_bad_fmt_fails_at_construction(fmt):
    """A bad fmt is caught when the Control is made, not at the first redraw (as IndexError/KeyError/...)."""
    kind, _exc = call(Control, {"name": "x", "label": "x", "values": (0.5, 1.5), "fmt": fmt}, names=("fmt",))
    assert kind == "error"


@pytest.mark.parametrize(
    ("start", "stop", "step"),
    [
        (0, 1, 0),
        (0, 1, -0.1),
        (0, math.nan, 0.1),
        (0, math.inf, 0.1),
        (0, 1, 1e-300),
        (0, 1e308, 1e-308),
        (0, 2**2000, 1),
    ],
)
def test_float_range_refuses_degenerate_steps(start, stop, step):
    """No ZeroDivisionError, OverflowError or endless list: a ValueError naming the argument."""
    kind, _exc = call(float_range, {"start": start, "stop": stop, "step": step})
    assert kind == "error"


# ================================================================ right values, every dtype
TOL = {np.float16: 2e-3, np.float32: 1e-5, np.float64: 1e-13, np.longdouble: 1e-13}


@FAST
@given(float_matrix(V, D), st.lists(st.integers(0, V - 1), min_size=1, max_size=8))
def test_lookup_is_exact_in_every_dtype_and_layout(E, ids):
    """Rows come back bit for bit, in E's dtype, whatever the layout."""
    out = lookup(E, ids)
    assert out.dtype == E.dtype
    np.testing.assert_array_equal(out, np.array([E[i] for i in ids]))


@FAST
@given(st.sampled_from(FLOATS), st.integers(1, 300), st.floats(-30, 30), st.data())
def test_softmax_matches_a_float64_reference(dtype, n, spread, data):
    """softmax and log_softmax in the input's dtype, within that dtype's precision of the exact answer."""
    z = np.asarray(data.draw(st.lists(st.floats(-abs(spread), abs(spread)), min_size=n, max_size=n))).astype(dtype)
    zz = [Fraction(float(x)) for x in z]  # exact values of the rounded logits
    m = max(zz)
    ref = np.array([math.exp(float(x - m)) for x in zz])
    ref /= math.fsum(ref)
    p = call(softmax, {"z": z})[1]
    assert p.dtype == z.dtype
    np.testing.assert_allclose(p.astype(np.float64), ref, rtol=TOL[dtype] * 4, atol=np.finfo(dtype).smallest_subnormal)
    lp = call(log_softmax, {"z": z})[1]
    assert lp.dtype == z.dtype
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(lp.astype(np.float64), np.log(ref), rtol=TOL[dtype] * 4, atol=TOL[dtype] * 4)


@pytest.mark.parametrize("n", [128256, 70000])
def test_softmax_of_a_large_float16_vocabulary(n):
    """The sum of 128256 float16 ones overflows float16: it is taken in float32."""
    p = call(softmax, {"z": np.zeros(n, np.float16)})[1]
    assert p.dtype == np.float16
    np.testing.assert_allclose(p.astype(np.float64), 1 / n, rtol=1e-3, atol=np.finfo(np.float16).smallest_subnormal)
    g = call(cross_entropy_grad, {"logits": np.zeros(n, np.float16), "targets": 0})[1]
    assert g.dtype == np.float16 and abs(float(g[0]) + 1) < 1e-3
    loss = call(cross_entropy, {"logits": np.zeros(n, np.float16), "targets": 0})[1]
    assert loss == pytest.approx(math.log(n), rel=1e-5)


@pytest.mark.parametrize("dtype", FLOATS)
def test_softmax_of_logits_spanning_the_whole_range(dtype):
    """The largest and smallest finite logits together: no overflow warning, the right 1 and 0."""
    fi = np.finfo(dtype)
    z = np.array([fi.max, fi.min, 0], dtype)
    np.testing.assert_array_equal(call(softmax, {"z": z})[1], [1, 0, 0])
    assert call(log_softmax, {"z": z})[1][0] == 0


@FAST
@given(st.sampled_from(FLOATS), st.integers(1, 40), st.data())
def test_dot_cosine_angle_against_exact_arithmetic(dtype, n, data):
    a = np.asarray(data.draw(st.lists(st.floats(-1e3, 1e3), min_size=n, max_size=n))).astype(dtype)
    b = np.asarray(data.draw(st.lists(st.floats(-1e3, 1e3), min_size=n, max_size=n))).astype(dtype)
    exact = sum(Fraction(float(x)) * Fraction(float(y)) for x, y in zip(a, b, strict=True))
    scale = sum(abs(Fraction(float(x)) * Fraction(float(y))) for x, y in zip(a, b, strict=True))
    assert abs(Fraction(call(dot, {"a": a, "b": b})[1]) - exact) <= float(scale) * 1e-13 + 1e-300
    kind, c = call(cosine, {"a": a, "b": b})
    if not np.any(a) or not np.any(b):
        assert kind == "error"
        return
    # scale each vector by its largest entry first, so tiny (subnormal) vectors do not underflow the oracle
    sa, sb = max(abs(Fraction(float(x))) for x in a), max(abs(Fraction(float(x))) for x in b)
    na = math.sqrt(sum((Fraction(float(x)) / sa) ** 2 for x in a))
    nb = math.sqrt(sum((Fraction(float(x)) / sb) ** 2 for x in b))
    assert c == pytest.approx(float(exact / (sa * sb)) / (na * nb), abs=1e-12)
    assert call(angle_deg, {"a": a, "b": b})[1] == pytest.approx(math.degrees(math.acos(max(-1, min(1, c)))), abs=1e-4)


@FAST
@given(st.sampled_from(FLOATS), st.integers(2, 50), st.floats(-100, 100).filter(lambda k: abs(k) >= 0.01), st.data())
def test_plane_basis_refuses_parallel_vectors_in_every_dtype(dtype, n, k, data):
    """b = k a rounded to the input dtype is parallel: refused, not a 'basis' of rounding noise."""
    a64 = np.asarray(data.draw(st.lists(st.floats(-10, 10), min_size=n, max_size=n)))
    a64[np.abs(a64) < 0.01] = 0.0  # keep k * a out of float16's subnormals, where rounding is coarser
    if not np.any(a64):
        a64[0] = 1.0
    a = a64.astype(dtype)
    with np.errstate(all="ignore"):
        b = (k * a).astype(dtype)
    if not np.any(b):
        return
    kind, exc = call(plane_basis, {"a": a, "b": b}, names=("b",))
    assert kind == "error" and "parallel" in str(exc)


@FAST
@given(st.sampled_from(FLOATS), st.integers(2, 20), st.data())
def test_plane_basis_is_orthonormal_in_the_input_dtype(dtype, n, data):
    a = np.asarray(data.draw(st.lists(st.floats(-10, 10), min_size=n, max_size=n))).astype(dtype)
    b = np.asarray(data.draw(st.lists(st.floats(-10, 10), min_size=n, max_size=n))).astype(dtype)
    kind, basis = call(plane_basis, {"a": a, "b": b})
    if kind == "error":
        return  # zero or parallel, in that dtype's precision
    assert basis.dtype == a.dtype
    g = basis.astype(np.float64) @ basis.T.astype(np.float64)
    np.testing.assert_allclose(g, np.eye(2), atol=4 * np.finfo(dtype).eps + 1e-14)


@FAST
@given(st.sampled_from(FLOATS), st.integers(1, 30))
def test_embedding_grad_sums_float16_without_overflow(dtype, repeats):
    """Large rows that cancel: a float16 running sum would overflow at 65504; the result must not."""
    big = float(np.finfo(dtype).max) / 2 if dtype == np.float16 else 3e4
    up = np.array([[big]] * repeats + [[-big]] * repeats + [[1.0]], dtype=dtype)
    ids = [0] * (2 * repeats + 1)
    g = call(embedding_grad, {"ids": ids, "upstream": up, "vocab_size": 2})[1]
    assert g.dtype == dtype
    np.testing.assert_array_equal(g.astype(np.float64), [[1.0], [0.0]])


def test_overflow_is_refused_and_blamed_on_the_right_argument():
    E = np.ones((3, 2), np.float16)
    assert call(tied_logits, {"h": [4e4, 4e4], "E": E}, names=("h",))[0] == "error"
    kind, exc = call(tied_logits, {"h": [100.0, 100.0], "E": E, "bias": [65400.0, 0, 0]}, names=("bias",))
    assert kind == "error" and str(exc).startswith("bias")
    E2 = np.full((3, 2), 1e308)
    assert call(dot, {"a": E2[0], "b": E2[1]}, names=("a",))[0] == "error"
    up = np.full((2, 1), 6e4, np.float16)
    assert call(embedding_grad, {"ids": [0, 0], "upstream": up, "vocab_size": 1}, names=("upstream",))[0] == "error"


def test_cross_entropy_names_its_argument_logits():
    assert "logits" in str(call(cross_entropy, {"logits": [np.nan, 0.0], "targets": 0})[1])
    assert "logits" in str(call(cross_entropy_grad, {"logits": [np.inf, 0.0], "targets": 0})[1])


# ================================================================ the examples of the issue, one by one
@pytest.mark.parametrize(
    ("fn", "args", "name", "words"),
    [
        (lookup, {"E": embedlab.E_TOY, "ids": []}, "ids", "at least one token id"),
        (lookup, {"E": embedlab.E_TOY, "ids": [[1, 2], [3]]}, "ids", "ragged"),
        (dot, {"a": _masked(), "b": [1.0, 2.0, 3.0]}, "a", "masked arrays are not supported"),
        (softmax, {"z": _masked()}, "z", "masked arrays are not supported"),
        (lookup, {"E": np.ma.masked_array(np.ones((2, 2))), "ids": 0}, "E", "masked"),
        (one_hot, {"ids": 0, "vocab_size": 2**63 - 1}, "vocab_size", "too large"),
        (embedding_grad, {"ids": [0], "upstream": [[1.0]], "vocab_size": 2**62}, "vocab_size", "too large"),
        (token_id, {"token": "z" * 10**6}, "token", "must be one of"),
        (lookup, {"E": embedlab.E_TOY, "ids": 2**70}, "ids", "must be in"),
        (lookup, {"E": embedlab.E_TOY, "ids": [True, 1]}, "ids", "bools"),
    ],
)
def test_examples_of_the_issue(fn, args, name, words):
    kind, exc = call(fn, args, names=(name,))
    assert kind == "error" and words in str(exc)


def test_absurd_sizes_never_reach_the_allocator():
    """Memory stays bounded: the byte count is checked before anything is allocated."""
    tracemalloc.start()
    try:
        for fn, args in [
            (one_hot, {"ids": [0, 1], "vocab_size": 2**62}),
            (one_hot, {"ids": np.zeros(10**4, int), "vocab_size": 10**9}),
            (embedding_grad, {"ids": [0], "upstream": [[1.0]], "vocab_size": 2**60}),
            (float_range, {"start": 0.0, "stop": 1.0, "step": 1e-12}),
        ]:
            assert call(fn, args)[0] == "error"
        assert tracemalloc.get_traced_memory()[1] < 8 << 20
    finally:
        tracemalloc.stop()


# ================================================================ no copy of a large E
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("kind", ["c", "fortran", "reversed", "strided", "readonly"])
def test_lookup_never_copies_a_large_E(dtype, kind):
    """Reading three rows of a 16+ MB E allocates about three rows, whatever its dtype or layout."""
    rows = (16 << 20) // (np.dtype(dtype).itemsize * 256)
    E = layout(np.ones((rows, 256), dtype), kind)
    tracemalloc.start()
    try:
        out = lookup(E, [1, 5, rows - 1])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert out.shape == (3, 256)
    assert peak < E.nbytes // 8, f"lookup allocated {peak:,} bytes for a {E.nbytes:,}-byte E"


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_tied_logits_never_copies_a_large_E(dtype):
    E = np.asfortranarray(np.ones((1 << 16, 64), dtype))
    tracemalloc.start()
    try:
        tied_logits(np.ones(64), E)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < E.nbytes // 4


# ================================================================ fork, atexit and threads
def _run_python(script: str) -> subprocess.CompletedProcess:
    src = str(Path(embedlab.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run(
        # Python 3.12+ warns that fork() in a threaded process may deadlock: that is the very case tested.
        [sys.executable, "-W", "error", "-W", "ignore:This process:DeprecationWarning", "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


BIG_LOOKUP = """
import numpy as np, embedlab
E = np.arange(4000 * 256, dtype=np.float64).reshape(4000, 256)
ids = np.arange(4000)[::-1].repeat(2)  # 16 MB of result: the thread pool is used
def check():
    out = embedlab.lookup(E, ids)
    assert (out[:, 0] == ids * 256).all()
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_lookup_in_a_forked_child_does_not_hang():
    """The parent's pool threads do not exist in a fork: the child must make its own (or none)."""
    result = _run_python(
        BIG_LOOKUP
        + """
import multiprocessing as mp, os, signal, time
check()  # the parent creates its pool
time.sleep(0.5)  # its workers go idle, as they have long before a data loader forks
pid = os.fork()
if pid == 0:
    try:
        check()
    finally:
        os._exit(0)
for _ in range(300):
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        break
    time.sleep(0.1)
else:
    os.kill(pid, signal.SIGKILL)
    raise SystemExit("os.fork child hung")
assert os.waitstatus_to_exitcode(status) == 0, status
ctx = mp.get_context("fork")
p = ctx.Process(target=check)
p.start()
p.join(30)
if p.is_alive():
    p.kill()
    raise SystemExit("multiprocessing child hung")
assert p.exitcode == 0, p.exitcode
with ctx.Pool(2) as pool:  # a data loader's workers
    pool.apply(check)
print("ok")
"""
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-2000:]


def test_lookup_in_an_atexit_handler():
    """At exit the executor refuses new work ('cannot schedule new futures'): lookup must still answer."""
    result = _run_python(
        BIG_LOOKUP
        + """
import atexit
def at_exit():
    check()
    print("ok")
atexit.register(at_exit)
check()
"""
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok" and not result.stderr, result.stderr[-2000:]


def test_lookup_from_many_threads_at_once():
    E = np.arange(3000 * 128, dtype=np.float32).reshape(3000, 128)
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            ids = np.random.default_rng(seed).integers(0, 3000, 5000)
            out = lookup(E, ids)
            assert (out[:, 0] == ids * 128).all()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "a lookup thread hung"
    assert not errors, errors


def test_results_too_large_for_memory_are_refused_by_name():
    """Small inputs whose result would not fit: many ids of a wide E, a wide outer product, many logits."""
    wide = np.lib.stride_tricks.as_strided(np.zeros(1), shape=(2, 2**40), strides=(0, 0), writeable=False)
    assert "ids" in str(call(lookup, {"E": wide, "ids": np.zeros(10**4, int)})[1])
    one = np.lib.stride_tricks.as_strided(np.ones(1), shape=(1, 2**20), strides=(0, 0), writeable=False)
    assert call(output_grad, {"h": one, "grad_logits": one}, names=("h",))[0] == "error"
    h = np.lib.stride_tricks.as_strided(np.ones(1), shape=(2**20, 1), strides=(0, 0), writeable=False)
    assert call(tied_logits, {"h": h, "E": h}, names=("h",))[0] == "error"


@pytest.mark.parametrize(
    "setup",
    [len, lambda: None, lambda fig, ax: None, lambda fig, ax: (1, []), lambda fig, ax: (str, 5), print],
)
def test_explorer_refuses_a_malformed_setup_by_name(setup):
    """A setup that cannot take (fig, axes) or does not return (update, artists) is named, not unpacked."""
    args = {"title": "t", "controls": [Control("x", "x", (1, 2))], "setup": setup}
    assert call(Explorer, args, names=("setup",))[0] == "error"


# ================================================================ the hostile pass over issue 18's changes
def _ex(**kw):
    return quiz_mod.Exercise("q", kw.pop("answer", 1.0), abs_tol=kw.pop("abs_tol", 0.1), solution="s", **kw)


_G1 = np.outer([0.2, -0.6, 0.15, 0.25], [0.5, 0.2, -0.3])
_ZR = np.random.default_rng(0).normal(size=(50, 4))


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: _ex(rel_tol=math.nan), "rel_tol must be a finite number"),
        (lambda: _ex(abs_tol=math.inf), "abs_tol must be a finite number"),
        (lambda: _ex(slips=[quiz_mod.Slip(math.nan, "n")]), "a slip's value"),
        (lambda: _ex(rel_tol=0.01, slips=[quiz_mod.Slip(math.inf, "n")]), "a slip's value"),
        (lambda: _ex(slips=[quiz_mod.Slip("1_000", "n")]), "a slip's value"),
        (lambda: _ex(slips=[(3, "x")]), "slips must hold Slip"),
        (lambda: _ex(answer=10**400), "answer must be a finite number of float size"),
        (lambda: exercises_mod.get(None), "key must be"),
        (lambda: exercises_mod.get("x" * 100_000), "key must be one of"),
        (lambda: explorers_mod.one_hot_cost_explorer((("x", 10**150, 10**150),)), "must be at most 1e+15"),
        (lambda: plots_mod.update_bars(plots_mod.bars([1.0, 2.0], ["a", "b"]), [1.0, 2.0], [None]), "highlight"),
        (lambda: figures_mod.output_path_panels(np.ones((4, 1)), np.ones((4, 1)), [1.0]), "h must have at least 2"),
        (lambda: figures_mod.output_path_panels(np.full((4, 3), 1e308), _G1, [0.5, 0.2, -0.3]), "g_one must be"),
        (lambda: figures_mod.output_path_panels(_G1, _G1, [0.5, 0.2, -0.3], labels=None), "labels must be"),
        (
            lambda: figures_mod.output_path_panels(
                np.broadcast_to(0.5, (4, 3 * 10**8)),
                np.broadcast_to(0.5, (4, 3 * 10**8)),
                np.broadcast_to(1.0, (3 * 10**8,)),
            ),
            "g_one must hold at most",
        ),
        (lambda: figures_mod.tie_scatter(_ZR, _ZR[:, :2], i=0, j=3), "z_dup must have one column per token"),
        (lambda: figures_mod.tie_scatter(np.full((5, 4), 1.75e308), _ZR[:5]), "z_real must be at most 1e+15"),
        (lambda: figures_mod.tie_scatter(np.broadcast_to(1.0, (2 * 10**8, 4)), _ZR), "z_real must hold at most"),
        (lambda: figures_mod.tie_scatter(_ZR, _ZR, labels=None), "labels must be"),
        (lambda: architectures_mod.embedding_share("x" * 100_000), "name_or_config must be a known model"),
    ],
)
def test_issue_18_changes_refuse_by_name(make, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises((TypeError, ValueError)) as info:
            make()
    assert words in str(info.value) and len(str(info.value)) < 2000


def test_issue_18_changes_give_the_right_values():
    """Values the pass found wrong: float32 rank, tiny and huge h, a 0-d highlight, BERT untied, solve_half."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        h = np.array([0.5, 0.2, -0.3])
        _fig, art = figures_mod.output_path_panels(_G1.astype(np.float32), _G1.astype(np.float32), h.astype(np.float32))
        assert art["ranks"] == [1, 1]
        for dtype in (np.float16, np.longdouble):
            assert figures_mod.output_path_panels(_G1.astype(dtype), _G1, h)[1]["ranks"] == [1, 1]
        for tiny_or_huge in ([1e-200, 0.0, 0.0], [1e200, 1e200, 0.0]):
            u1 = figures_mod.output_path_panels(_G1, _G1, tiny_or_huge)[1]["plane"][0]
            assert np.linalg.norm(u1) == pytest.approx(1.0) and np.all(np.isfinite(u1))
        b = plots_mod.bars([1.0, 2.0], ["a", "b"])
        plots_mod.update_bars(b, [1.0, 2.0], np.array(1))
        assert b.patches[1].get_facecolor() != b.patches[0].get_facecolor()
        assert exercises_mod.solve_half(10**30) == pytest.approx(math.log(10**30), abs=1e-6)
        bert = architectures_mod.get_config("BERT-base uncased")
        untied = architectures_mod.embedding_share(dataclasses.replace(bert, tied=False))
        assert untied["head"] == bert.vocab_size * bert.d_model + bert.vocab_size


# ================================================================ issue 19: the sample of the issue, one row each
class _StrEnum(str, enum.Enum):
    CAT = "cat"


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: embedlab.train.adam_state(None), "params must be a non-empty dict"),
        (
            lambda: embedlab.train.adam_step({"E": np.ones((3, 2))}, {"E": np.full((3, 2), np.nan)}, {"t": 0}, 0.1),
            "grads['E'] must be finite",
        ),
        (
            lambda: embedlab.train.adam_step({"E": np.ones((3, 2))}, {"E": np.ones((1, 2))}, {"t": 0}, 0.1),
            "must have the shape of params['E']",
        ),
        (lambda: _adam({"lr": math.nan}), "lr must be finite"),
        (lambda: _adam({"eps": 0.0}), "eps must be in [1e-30, 1]"),
        (lambda: embedlab.train.init_params(10**9, 10**4, tied=True), "vocab_size and d is too large"),
        (lambda: embedlab.train.pca_2d([[1.0, 2.0, 3.0]]), "at least 2 rows"),
        (lambda: plots_mod.curve([1.0, 2.0], [1.0, 2.0], bogus=1), "bogus"),
        (lambda: figures_mod.saturation_curves((1, 2, 3, 4, 5, 6, 7)), "ns must hold 1 to 6"),
        (lambda: quiz_mod.Forecast("q", "a", choices=["a", "b"], trap=None, settles="s"), "trap must be a str"),
        (lambda: quiz_mod.Forecast("q", "a", choices=["a", "b"], trap="t", settles="s", title=5), "title must be"),
        (lambda: quiz_mod.Exercise("q", 1.0, abs_tol=0.1, solution="s", fmt="{x}"), "fmt must format"),
        (lambda: quiz_mod.Exercise("q", 1, choices=[1, 2], solution="s"), "choices must be a sequence of str"),
        (lambda: embedlab.gpt2.load_encoding("/", "/"), "encoder_path must be the path of a regular file"),
        (lambda: embedlab.saved_fraction(4, 3, tied_bias="yes"), "tied_bias must be True or False"),
        (lambda: Control("x", "x", range(10**12)), "at most 100,000 values"),
        (lambda: lookup(embedlab.E_TOY, range(10**12)), "ids is too large"),
        (lambda: embedlab.corpus.context_windows([np.array([0, 5, 7, 9])], k=10**12), "k is too large"),
        (lambda: make_corpus(0, 10**12), "n_train must be at most"),
    ],
)
def test_issue_19_sample_refused_by_name(make, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises((TypeError, ValueError)) as info:
            make()
    assert words in str(info.value)


def _adam(kw):
    p = {"E": np.ones((3, 2))}
    return embedlab.train.adam_step(
        p, {"E": np.ones((3, 2))}, embedlab.train.adam_state(p), kw.get("lr", 0.1), eps=kw.get("eps", 1e-8)
    )


def test_issue_19_sample_right_values():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float_range(0, 1, 0.6) == (0.0, 0.6) and float_range(-1, 1, 0.1)[-1] == 1.0
        assert embedlab.exercises.solve_half(10**30) == pytest.approx(math.log(10**30), abs=1e-6)
        assert embedlab.cross_entropy(np.array([[-1.5e308, 0.0], [0.0, -1.5e308]]), [0, 1]) == pytest.approx(1.5e308)
        assert len(figures_mod.saturation_curves((1, 2, 3, 4, 5, 6))[1]["lines"]) == 6
        assert embedlab.gpt2.encode(_StrEnum.CAT) == embedlab.gpt2.encode("cat")
        E16 = np.array([[60000, 1000], [50000, 2000], [-1000, 60000], [-2000, 50000]], dtype=np.float16)
        within, between = embedlab.train.class_cosine(E16, ["a", "a", "b", "b"])
        assert within > 0.99 and abs(between) < 0.1
        for same in (0.125, math.inf, 2.0**60):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                check("x", same, same, 2)
            assert "agrees" in out.getvalue(), same


def test_issue_19_a_panicking_tokenizer_is_a_value_error():
    """tiktoken panics (a BaseException) on a million spaces: embedlab turns it into a ValueError naming text."""
    with pytest.raises(ValueError, match="text could not be tokenized"):
        embedlab.gpt2.encode(" " * 1_000_000 + "a")


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: embedlab.softmax(np.broadcast_to(0.0, (10**5, 10**5))), "z is too large"),
        (lambda: embedlab.cross_entropy(np.broadcast_to(0.0, (10**5, 10**5)), np.zeros(10**5, int)), "too large"),
        (
            lambda: embedlab.embedding_grad(np.zeros(10**6, int), np.broadcast_to(1.0, (10**6, 10**4)), 4),
            "upstream is too large",
        ),
        (
            lambda: embedlab.output_grad(np.broadcast_to(1.0, (10**7, 10**4)), np.broadcast_to(1.0, (10**7, 10**3))),
            "h is too large",
        ),
    ],
)
def test_broadcast_views_are_counted_as_what_they_would_become(make, words):
    """A zero-stride view is sized as the array it would become, before anything is allocated."""
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=words):
            make()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20, f"allocated {peak:,} bytes before refusing"


def test_a_nan_in_a_broadcast_view_is_found_without_expanding_it():
    with pytest.raises(ValueError, match="must not contain NaN"):
        embedlab.softmax(np.broadcast_to([1.0, np.nan, 3.0], (10**6, 3)))


def test_forking_while_the_vocabulary_lock_is_held_does_not_hang():
    """A child forked while another thread holds GPT-2's loader lock gets a lock of its own."""
    code = textwrap.dedent(
        """
        import os, sys, threading
        from embedlab import gpt2
        held, release = threading.Event(), threading.Event()
        def hold():
            with gpt2._lock:
                held.set()
                release.wait(30)
        threading.Thread(target=hold, daemon=True).start()
        held.wait(10)
        pid = os.fork()
        if pid == 0:
            os._exit(0 if gpt2.vocab_facts().vocab_size == 50257 else 3)
        _, status = os.waitpid(pid, 0)
        release.set()
        sys.exit(os.waitstatus_to_exitcode(status))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], timeout=60, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def test_hostile_pass_3_rows(tmp_path):
    """Pass 3 (whole library): FIFOs refused instead of hanging, in-place Adam on arrays only, float16 moments in
    float32, float_range never repeating a value or passing stop."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="must be the path of a regular file"):
        embedlab.gpt2.load_encoding(fifo, fifo)
    with pytest.raises(ValueError, match="must name a regular file"):
        embedlab.sweep.load_results().save(fifo)
    with pytest.raises(TypeError, match="writable NumPy float array"):
        p = {"E": [[1.0, 2.0]]}
        embedlab.train.adam_step(p, {"E": np.array([[0.5, 0.0]])}, embedlab.train.adam_state(p), lr=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = {"E": np.ones((2, 2), np.float16)}
        state = embedlab.train.adam_state(p)
        embedlab.train.adam_step(p, {"E": np.full((2, 2), 300, np.float16)}, state, lr=0.1)
        assert state["v"]["E"].dtype == np.float32 and np.all(np.isfinite(p["E"]))
    for args in [(0, 0.7, 0.6, 0), (0, 1, 0.1, 0)]:
        with pytest.raises(ValueError, match="digits must keep every value distinct"):
            float_range(*args)
    with pytest.raises(ValueError, match="step must be at least the spacing of floats"):
        float_range(1e16, 1e16 + 8, 1, 6)  # floats 2 apart there: steps of 1 cannot be distinct


# ---------------------------------------------------------------- issue 19: what hostile pass 3 left
_SMALL_COMPARE: list[Any] = []


def _small_compare():
    if not _SMALL_COMPARE:
        _SMALL_COMPARE.append(embedlab.train.compare(seeds=(0, 1), steps=4, n_checkpoints=2))
    return _SMALL_COMPARE[0]


def _setup_without_readout(fig, axes):
    line = axes.plot([0, 1], [0, 1])[0]
    return (lambda x: None), [line]


@pytest.mark.parametrize(
    ("make", "words"),
    [
        # loops bounded by a size checked first (each of these ran for minutes or for ever)
        (lambda: embedlab.gpt2.decode(np.broadcast_to(0, 10**9)), "ids must hold at most"),
        (lambda: embedlab.train.compare(seeds=range(10**12)), "seeds must hold at most 1,000"),
        (lambda: embedlab.train.compare(seeds=range(10**20)), "seeds must hold at most 1,000"),
        (lambda: plots_mod.new_figure(ncols=10**6), "ncols times nrows must be at most"),
        (lambda: plots_mod.new_figure((1e308, 1.0)), "figsize must be two positive numbers"),
        # sizes checked before allocating, broadcast views counted as what they would become
        (lambda: embedlab.train.pca_2d(np.broadcast_to(1.0, (10**6, 10**5))), "E is too large"),
        (
            lambda: embedlab.train.loss(
                embedlab.train.init_params(5, 3, tied=True),
                (np.broadcast_to(0, (10**8, 10**3)), np.broadcast_to(0, 10**8)),
            ),
            "batch is too large",
        ),
        (lambda: t_interval(np.broadcast_to(1.0, 10**11)), "values must hold at most"),
        (lambda: check("x", np.broadcast_to(1.0, 10**11), np.broadcast_to(1.0, 10**11), 2), "draft must hold at most"),
        (lambda: _small_compare().drift("tied", ids=np.broadcast_to(0, 10**10)), "ids is too large"),
        # values a caller could pass that gave a wrong answer or failed late
        (lambda: Control("x", "x", [1, 1, 2]), "must not repeat a value"),
        (lambda: Control("x", "x", [1, "a"]), "all numbers or all other values"),
        (lambda: embedlab.widgets.Explorer("t", [], lambda f, a: (lambda: "", [])), "controls must hold at least one"),
        (
            lambda: embedlab.widgets.Explorer("t", [Control("x", "x", [0, 1])] * 2, lambda f, a: (lambda x: "", [])),
            "controls must have unique names",
        ),
        (
            lambda: embedlab.widgets.Explorer("t", [Control("x", "x", [0, 1])], _setup_without_readout),
            "update must return the readout text",
        ),
        (lambda: embedlab.train.pca_2d(np.eye(3), basis=np.full((3, 2), np.nan)), "basis must be finite"),
        (
            lambda: embedlab.train.adam_step(
                {"E": np.ones((2, 2))},
                {"E": np.ones((2, 2))},
                {"t": 0, "m": {"E": np.zeros((2, 2))}, "v": {"E": -np.ones((2, 2))}},
                0.1,
            ),
            "state['v']['E'] must be non-negative",
        ),
        (
            lambda: embedlab.train.adam_step(
                {"E": np.ones((2, 2))},
                {"E": np.ones((2, 2))},
                {"t": 10**400, "m": {"E": np.zeros((2, 2))}, "v": {"E": np.zeros((2, 2))}},
                0.1,
            ),
            "state['t'] must count the steps",
        ),
        # other exception types, now TypeError or ValueError naming the argument
        (lambda: embedlab.display.fitted_size((1e308, 1e308)), "figsize must be two positive numbers"),
        (lambda: embedlab.widgets.png_bytes("x"), "fig must be a matplotlib Figure"),
        (lambda: embedlab.widgets.webp_bytes(3), "rgba must be a uint8 NumPy array"),
        (lambda: embedlab.display.css_size(None), "fig must be a matplotlib Figure"),
        (lambda: figures_mod.embedding_shares(ax="x"), "ax must be a matplotlib Axes"),
        (
            lambda: embedlab.train.CompareResult(**{**vars(_small_compare()), "corpus": None}),
            "corpus must be an embedlab.corpus.Corpus",
        ),
        (lambda: embedlab.train_plots.update_counts(_small_compare(), names=("x",)), "names must be a non-empty list"),
        (lambda: embedlab.train_plots.training_explorer(_small_compare(), seed_index=9), "seed_index must be in"),
        (lambda: embedlab.train.geometry_track(np.ones((2, 3, 1))), "E_checkpoints[-1] must have at least 2 columns"),
        (lambda: embedlab.train.compare(seeds=[-1]), "seeds must hold non-negative ints"),
    ],
)
def test_hostile_pass_3_leftovers_refused_by_name(make, words):
    _refused_by_name_before_allocating(make, words)


def _refused_by_name_before_allocating(make, words):
    """``make()`` raises TypeError/ValueError holding ``words``, with no warning and under 200 MiB allocated."""
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises((TypeError, ValueError)) as info:
                make()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert words in str(info.value)
    assert peak < 200 * 2**20, f"allocated {peak:,} bytes before refusing"


def test_hostile_pass_3_leftovers_right_values():
    """float16 and longdouble where linalg has no kernel for them; float16 statistics without overflow warnings."""
    rng = np.random.default_rng(0)
    E = rng.standard_normal((6, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ref, _ = embedlab.train.pca_2d(E)
        for dtype, tol in ((np.float16, 5e-3), (np.float32, 1e-5), (np.longdouble, 1e-12)):
            coords, _ = embedlab.train.pca_2d(E.astype(dtype))
            np.testing.assert_allclose(np.abs(coords), np.abs(ref), atol=tol * 10)
        mean, lo, hi = t_interval(np.array([1, 2, 3], np.float16))
        half = 4.302652729749464 / np.sqrt(3)  # t(0.975, 2 df) times the standard error of 1, 2, 3
        assert mean == 2.0 and lo == pytest.approx(2 - half, abs=1e-9) and hi == pytest.approx(2 + half, abs=1e-9)
        assert SweepSpec(lrs=(np.float16(0.5),)).lrs == (0.5,)
    run = embedlab.train.train(tied=True, steps=3, n_checkpoints=5)
    assert len(run.checkpoint_steps) == 4  # steps + 1, as documented


# ---------------------------------------------------------------- issue 19: every public name, every argument
# One valid call of every callable in every module's __all__ (and of the public methods of the objects a reader
# holds). Each argument in turn is replaced by each hostile value: the call must give a result or refuse with a
# TypeError or ValueError, with no warning and no other exception. Records (plain data whose values are checked
# where they are used) are listed apart, with that consumer named.
class _Touchy(float):
    """A float whose comparisons, hash and repr raise: the library must read the number it holds."""

    def _boom(self, *args):
        raise ZeroDivisionError("a method of the caller's float subclass ran")

    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = __hash__ = __repr__ = __str__ = __format__ = _boom


class _TouchyInt(int):
    """An int whose comparisons, hash and repr raise."""

    _boom = _Touchy._boom
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = __hash__ = __repr__ = __str__ = __format__ = _boom


class _TouchyMeta(type):
    """A metaclass whose ==, != and hash raise: an ABC's cache or a test of membership in a tuple runs them."""

    def _boom(cls, *args):
        raise RuntimeError("a method of the caller's metaclass ran")

    __eq__ = __ne__ = __hash__ = _boom


class _MetaInt(int, metaclass=_TouchyMeta):
    """An int whose class compares and hashes by raising."""


class _MetaFloat(float, metaclass=_TouchyMeta):
    """A float whose class compares and hashes by raising."""


class _MetaThing(metaclass=_TouchyMeta):
    """Neither a number nor a container, of a class that compares and hashes by raising."""


EVERY_ARGUMENT_VALUES = [
    None,
    "x",
    True,
    -1,
    0,
    10**400,
    float("nan"),
    float("inf"),
    0.5,
    [],
    [[1, 2], [3]],
    np.ones((2, 2, 2)),
    np.broadcast_to(0.0, (10**6, 10**6)),
    np.ma.array([1.0], mask=[True]),
    object(),
    b"x",
    -(10**400),
    2**63,
    1 + 1j,
    (),
    {"a": 1},
    np.array([]),
    np.array(5),
    np.float32("inf"),
    np.broadcast_to(np.int64(0), (10**11,)),
    np.ldexp(np.longdouble(1), 16000),  # beyond float64 (where longdouble is wider)
    10**5000,  # past the 4,300 digits Python will write out: a message must not try
    -(10**5000),
    "x" * 10**6,  # a message must not repeat it whole
    _Touchy(0.5),  # a float whose own comparisons and repr raise: read by the value it holds
    _TouchyInt(1),
    _MetaInt(1),  # a number whose class's own == and hash raise (isinstance against an ABC hashes the class)
    _MetaFloat(0.5),
    _MetaThing(),
    _MetaInt,  # a class, where a dtype or a type may be passed
]

#: Plain records: not called with hostile values here, because the function named checks them where they are used.
RECORDS = {
    "quiz.Slip": "quiz.grade_number, quiz.grade_choice and the questions",
    "quiz.Grade": "made only by the graders",
    "sweep.Point": "sweep.run_point",
    "architectures.ShareRow": "made only by architectures.share_table",
    "architectures.Counts": "made only by architectures.counts",
    "architectures.Flops": "made only by architectures.flops_per_token",
    "gpt2.VocabFacts": "made only by gpt2.vocab_facts",
    "gpt2.ChecksumError": "an exception class",
    "train.TrainResult": "made only by train.train; CompareResult checks its runs",
    "train.FitResult": "made only by train.fit",
    "practice.Case": "made only by embedlab.practice; practice.task(...).cases() hands out copies",
    "practice.Report": "made only by practice.check",
    "practice.Task": "made only by embedlab.practice; practice.task returns them",
}


def _learners_embed_rows(E, ids):
    return E[ids]


def _setup_ok(fig, axes):
    (line,) = axes.plot([0, 1], [0, 1])
    return (lambda x: f"x = {x}"), [line]


@functools.cache
def _fixtures():
    small = make_corpus(0, n_train=20, n_valid=10, n_test=10)
    res = embedlab.train.compare(seeds=(0, 1), corpus=small, steps=3, n_checkpoints=2, d=4)
    sw = sweep.load_results()
    n_train, d, hidden = sw.cells()[0]
    spec = sweep.SweepSpec(
        data_sizes=(20,), widths=(4,), hidden=(False,), lrs=(0.02,), seeds=(0, 1), draws=(0,),
        n_valid=10, n_test=10, max_steps=4, eval_every=2, patience=1,
    )  # fmt: skip
    E = np.array(embedlab.E_TOY)
    fig, ax = plots_mod.new_figure()
    q = plots_mod.arrows([[1.0, 0.0], [0.0, 1.0]], ax)
    bars = plots_mod.bars([1.0, 2.0], ["a", "b"], ax)
    heat = plots_mod.heatmap(E, ax=plots_mod.new_figure()[1])
    geo = train_plots.geometry_scatter(np.ones((2, 2)), ["det", "adj"])
    explorer = Explorer("t", [Control("x", "x", (0, 1))], _setup_ok)
    return {
        "small": small, "res": res, "sweep": sw, "cell": (n_train, d, hidden), "spec": spec, "E": E,
        "ax": ax, "q": q, "bars": bars, "heat": heat, "geo": geo, "explorer": explorer, "fig": fig,
    }  # fmt: skip


def _valid_calls() -> dict[str, tuple[Any, tuple, dict]]:
    """``qualified name -> (callable, args, kwargs)``: one call of each that must succeed."""
    f = _fixtures()
    E, res, sw, small = f["E"], f["res"], f["sweep"], f["small"]
    n_train, d, hidden = f["cell"]
    p = embedlab.train.init_params(5, 3, tied=True)
    g = {k: np.ones_like(v) for k, v in p.items()}
    batch = (np.array([[0, 1], [2, 2]]), np.array([3, 4]))
    cfg = architectures.get_config("GPT-2 small")
    calls = {
        "architectures.DecoderConfig": ((), vars(cfg)) if isinstance(cfg, architectures.DecoderConfig) else None,
        "architectures.BertConfig": ((), vars(architectures.get_config("BERT-base uncased"))),
        "architectures.T5Config": ((), vars(architectures.get_config("T5-small"))),
        "architectures.get_config": (("GPT-2 small",), {}),
        "architectures.total_params": (("GPT-2 small",), {}),
        "architectures.pretraining_head_params": (("BERT-base uncased",), {}),
        "architectures.embedding_share": (("GPT-2 small",), {}),
        "architectures.share_table": ((), {}),
        "architectures.counts": (("GPT-2 small",), {}),
        "architectures.flops_per_token": (("GPT-2 small",), {"n_ctx": 1024}),
        "budget.memory_bytes": ((50257, 768), {"tied": True, "output_bias": False, "regime": "float32 Adam"}),
        "budget.padded_vocab": ((50257, 64), {}),
        "scale.convention_factor": (("T5-small",), {}),
        "scale.random_logits": ((64,), {"factor": 0.125, "vocab_size": 100, "seed": 3}),
        "explorers.training_memory_explorer": ((), {}),
        "explorers.scale_explorer": ((), {}),
        "ties.tie_groups": (({"wte": E, "lm_head": E, "block": np.ones((3, 3))},), {}),
        "ties.count_params": (({"wte": E, "lm_head": E, "block": np.ones((3, 3))},), {"once": True}),
        "budget.param_count": ((50257, 768), {"tied": True, "output_bias": False}),
        "budget.param_bytes": ((50257, 768), {"tied": True, "output_bias": False, "dtype": "float16"}),
        "budget.saved_fraction": ((50257, 768), {"untied_bias": False, "tied_bias": False}),
        "claims.check": (("a label", 0.5, 0.5, 2), {}),
        "corpus.Corpus": ((small.train, small.valid, small.test, small.vocab, small.classes, 0), {}),
        "corpus.make_corpus": ((0, 20, 10, 10), {"zipf_exponent": 1.3, "p_adjective": 0.3, "p_intransitive": 0.2}),
        "corpus.context_windows": (([np.array([0, 5, 7, 9])], 2), {}),
        "Corpus.counts": ((small.counts, ("train",), {})),
        "Corpus.never_read": ((small.never_read, ("train",), {})),
        "Corpus.target_only": ((small.target_only, ("train",), {})),
        "Corpus.unseen": ((small.unseen, ("valid",), {})),
        "display.check_figsize": (((6.0, 3.0),), {"name": "figsize"}),
        "display.check_figure": ((f["fig"],), {"name": "fig"}),
        "display.fitted_size": (((6.0, 3.0),), {}),
        "display.fit": ((plots_mod.new_figure()[0],), {}),
        "display.css_size": ((f["fig"],), {}),
        "display.text_sizes_css": ((f["fig"],), {"shown_width": 600.0}),
        "display.figure_png": ((f["fig"],), {}),
        "display.notebook_setup": ((), {}),
        "display.quiet_layout": ((), {}),
        "exercises.solve_half": ((3,), {}),
        "exercises.warmup": ((), {}),
        "exercises.get": (("F1",), {}),
        "exercises.bank": ((), {}),
        "practice.task": (("embed_rows",), {}),
        "practice.check": ((_learners_embed_rows,), {"name": "embed_rows"}),
        "Task.check": ((practice_mod.task("stable_softmax").check, (_learners_embed_rows,), {})),
        "Task.describe": ((practice_mod.task("step_grad").describe, (), {})),
        "Task.cases": ((practice_mod.task("angle_between").cases, (), {})),
        "explorers.lookup_explorer": ((), {}),
        "explorers.one_hot_cost_explorer": (((("the toy", 4, 3), ("GPT-2 small", 50257, 768)),), {}),
        "explorers.logits_explorer": ((), {}),
        "explorers.alignment_explorer": ((2,), {}),
        "explorers.flatten_explorer": ((), {}),
        "explorers.saturation_explorer": ((3,), {}),
        "explorers.budget_explorer": ((), {}),
        "explorers.gradient_explorer": (((2, 1), None), {}),
        "figures.drawing_plane": (([2.0, 0.0, 0.0], [4.0, 0.0, 0.0]), {}),
        "figures.projection_panels": (([0.5, 0.2, -0.3], E), {"labels": embedlab.TOKENS}),
        "figures.alignment_arrows": ((E[2], {"h_A": [-1.0, 0, 0]}), {"e_label": "e", "ax": None}),
        "figures.saturation_curves": (((3, 100),), {"t": np.linspace(-5, 5, 11), "ax": None}),
        "figures.gradient_sizes": ((3,), {"t": np.linspace(-5, 5, 11), "ax": None}),
        "figures.output_path_panels": (
            (np.ones((4, 3)), np.ones((4, 3)), [0.5, 0.2, -0.3]), {"labels": embedlab.TOKENS}
        ),
        "figures.tie_scatter": ((np.arange(8.0).reshape(2, 4), np.arange(8.0).reshape(2, 4) + 1), {"i": 0, "j": 1}),
        "figures.embedding_shares": ((), {"ax": None}),
        "geometry.dot": (([1.0, 2.0], [3.0, 4.0]), {}),
        "geometry.cosine": (([1.0, 2.0], [3.0, 4.0]), {}),
        "geometry.angle_deg": (([1.0, 2.0], [3.0, 4.0]), {}),
        "geometry.plane_basis": (([1.0, 0.0, 0.0], [1.0, 1.0, 0.0]), {}),
        "geometry.in_plane": ((30.0, [[1.0, 0.0], [0.0, 1.0]]), {"length": 2.0}),
        "gpt2.data_files": ((), {}),
        "gpt2.load_encoding": ((*embedlab.gpt2.data_files(),), {}),
        "gpt2.vocab_facts": ((), {}),
        "gpt2.encode": (("Hello world",), {"allow_special": False}),
        "gpt2.decode": (([15496, 995],), {}),
        "gpt2.token_bytes": (([15496, 995],), {}),
        "gpt2.tokens": (([15496, 995],), {}),
        "gpt2.tokens_text": (("Hello world",), {"allow_special": False}),
        "gpt2.tokens_html": (("Hello world",), {"allow_special": False}),
        "gpt2.explorer_html": ((("The cat sat.",),), {}),
        "grads.embedding_grad": (([0, 2], np.ones((2, 3)), 4), {}),
        "grads.output_grad": ((np.ones(3), np.ones(4)), {}),
        "grads.tied_grad": (([0, 2], np.ones((2, 3)), np.ones(3), np.ones(4), 4), {}),
        "logits.check_context": ((np.ones(3), 3, np.dtype(np.float64)), {}),
        "logits.tied_logits": ((np.ones(3), E), {"bias": np.zeros(4)}),
        "lookup.lookup": ((E, [0, 2]), {}),
        "lookup.one_hot": (([0, 2], 4), {}),
        "lookup.one_hot_cost": ((50257, 768), {"n_tokens": 2}),
        "model.tiny_model_loss": ((E, [0, 1], 2, np.eye(3)), {}),
        "model.tiny_model_grads": ((E, [0, 1], 2, np.eye(3)), {}),
        "model.finite_difference_grad": ((lambda M: float(M.sum()), np.ones((2, 2))), {"eps": 1e-6}),
        "plots.style": ((), {}),
        "plots.new_figure": (((4.0, 3.0), 2, 1), {}),
        "plots.figure_and_ax": ((None, (4.0, 3.0)), {}),
        "plots.signed2": ((0.25,), {}),
        "plots.heatmap": ((E,), {"ax": None, "row_labels": embedlab.TOKENS, "highlight_row": 1, "annotate": True}),
        "plots.set_highlight_row": ((f["heat"]["box"], 2), {}),
        "plots.bars": (([1.0, 2.0], ["a", "b"]), {"ax": None, "highlight": 1, "offset": 0.0, "width": 0.8}),
        "plots.update_bars": ((f["bars"], [2.0, 1.0]), {"highlight": 0}),
        "plots.arrows": (([[1.0, 0.0], [0.0, 1.0]],), {"ax": None, "labels": ["a", "b"], "limit": 2.0}),
        "plots.update_arrows": ((f["q"], [[0.5, 0.5], [1.0, 0.0]]), {}),
        "plots.curve": (([0.0, 1.0], [1.0, 2.0]), {"ax": None, "label": "c"}),
        "plots.marker": ((0.5, 0.5), {"ax": None, "label": "m"}),
        "quiz.parse_number": (("0.42",), {}),
        "quiz.ambiguous_readings": (("1,946",), {}),
        "quiz.is_blank": ((" ",), {}),
        "quiz.within": ((1.0, 1.05, 0.1), {"rel_tol": 0.0}),
        "quiz.grade_number": (("0.42", 0.42), {"abs_tol": 0.01, "rel_tol": 0.0, "slips": (), "percent": True}),
        "quiz.grade_choice": (("a", "b"), {"slips": [quiz_mod.Slip("a", "no")], "right": "yes", "wrong": "no"}),
        "quiz.Forecast": (("q?", 0.5), {"trap": "t", "settles": "s", "abs_tol": 0.1}),
        "quiz.Exercise": (("q?", 0.5), {"solution": "s", "abs_tol": 0.1}),
        "softmax.softmax": (([1.0, 2.0],), {"axis": -1}),
        "softmax.log_softmax": (([1.0, 2.0],), {"axis": -1}),
        "softmax.naive_softmax": (([1.0, 2.0],), {}),
        "softmax.cross_entropy": (([[1.0, 2.0]], [1]), {}),
        "softmax.cross_entropy_grad": (([[1.0, 2.0]], [1]), {}),
        "softmax.saturation_prob": ((2.0,), {"n_others": 3}),
        "sweep.SweepSpec": ((), dataclasses.asdict(f["spec"])),
        "sweep.model_of": (("tied", 127, 8, True), {}),
        "sweep.run_point": ((sweep.Point(0, 20, 4, False, "tied", 0.02, 0), f["spec"]), {}),
        "sweep.t_quantile": ((0.975, 2), {}),
        "sweep.t_interval": (([1.0, 2.0, 3.0],), {"level": 0.95}),
        "sweep.Sweep": ((sw.spec, sw.records, sw.meta), {}),
        "sweep.run_sweep": ((f["spec"],), {}),
        "sweep.load_results": ((None,), {}),
        "Sweep.runs": ((sw.runs, (0, n_train, d, hidden, "tied", sw.spec.lrs[0]), {})),
        "Sweep.chosen_lr": ((sw.chosen_lr, (0, n_train, d, hidden, "tied"), {})),
        "Sweep.chosen": ((sw.chosen, (n_train, d, hidden, "tied"), {})),
        "Sweep.test_loss": ((sw.test_loss, (n_train, d, hidden, "tied"), {})),
        "Sweep.gap": ((sw.gap, (n_train, d, hidden), {"other": "untied"})),
        "Sweep.verdict": ((sw.verdict, (n_train, d, hidden), {"other": "untied"})),
        "Sweep.mean_curve": ((sw.mean_curve, (n_train, d, hidden, "tied"), {})),
        "tokens.token_id": (("cat",), {}),
        "train.init_params": ((5, 3), {"tied": False, "hidden": True, "seed": 0}),
        "train.model_param_count": ((5, 3), {"tied": False, "hidden": True}),
        "train.matched_width": ((127, 16), {"hidden": True}),
        "train.loss": ((p, batch), {}),
        "train.loss_and_grads": ((p, batch), {}),
        "train.adam_state": ((p,), {}),
        "train.adam_step": (
            ({k: v.copy() for k, v in p.items()}, g, embedlab.train.adam_state(p), 0.01), {"betas": (0.9, 0.999)}
        ),
        "train.train": ((small,), {"tied": True, "d": 4, "k": 2, "steps": 3, "batch_size": 8, "n_checkpoints": 2}),
        "train.fit": ((small,), {"tied": True, "d": 4, "k": 2, "max_steps": 4, "eval_every": 2, "patience": 1}),
        "train.CompareResult": ((res.corpus, res.configs, res.runs, res.seeds), {"seconds": 1.0}),
        "train.compare": (((0,), small), {"d": 4, "hidden": False, "steps": 3, "n_checkpoints": 2}),
        "CompareResult.curves": ((res.curves, ("tied",), {"which": "train"})),
        "CompareResult.summary": ((res.summary, (), {})),
        "CompareResult.drift": ((res.drift, ("tied",), {"ids": [0, 1]})),
        "CompareResult.geometry": ((res.geometry, (), {"ids": None})),
        "train.pca_2d": ((np.arange(12.0).reshape(4, 3) ** 2,), {"basis": None}),
        "train.geometry_track": ((np.arange(24.0).reshape(2, 4, 3) ** 2,), {}),
        "train.class_cosine": ((np.arange(12.0).reshape(4, 3) ** 2, ["a", "a", "b", "b"]), {"ids": None}),
        "train_plots.loss_curves": ((res,), {"ax": None, "which": "valid", "names": None, "zoom": 0.6}),
        "train_plots.drift_bars": ((res,), {"ax": None, "names": ("tied", "untied")}),
        "train_plots.geometry_scatter": ((np.ones((2, 2)), ["det", "adj"]), {"limit": 2.0, "title": "t"}),
        "train_plots.update_geometry": ((f["geo"], np.zeros((2, 2)), ["det", "adj"]), {}),
        "train_plots.update_counts": ((res,), {"ax": None, "names": ("tied", "untied")}),
        "train_plots.training_explorer": ((res,), {"name": "tied", "seed_index": 0}),
        "train_plots.gap_plot": ((sw,), {"axes": None}),
        "train_plots.geometry_summary": ((res,), {"ax": None}),
        "train_plots.geometry_panels": ((res,), {"seed_index": 0, "fig": None}),
        "train_plots.sweep_explorer": ((sw,), {}),
        "widgets.Control": (("x", "x", (0, 1, 2)), {"value": 1, "fmt": "{}", "static_every": 1}),
        "widgets.float_range": ((0.0, 1.0, 0.25), {"digits": 6}),
        "widgets.png_bytes": ((f["fig"],), {"colors": 64}),
        "widgets.webp_bytes": ((np.zeros((4, 4, 4), np.uint8),), {}),
        "widgets.BandedPNG": ((np.zeros((4, 4, 4), np.uint8),), {"band": 2}),
        "BandedPNG.encode": (
            (embedlab.widgets.BandedPNG(np.zeros((4, 4, 4), np.uint8)).encode, (np.ones((4, 4, 4), np.uint8),), {})
        ),
        "widgets.Explorer": (("t", [Control("x", "x", (0, 1))], _setup_ok), {"figsize": (4.0, 3.0), "ncols": 1}),
        "Explorer.update": ((f["explorer"].update, (), {"x": 1})),
        "Explorer.png": ((f["explorer"].png, (), {"colors": 64})),
        "Explorer.timed_update": ((f["explorer"].timed_update, (), {"x": 0})),
        "Control.show": ((Control("x", "x", (0, 1)).show, (1,), {})),
        "Control.snap": ((Control("x", "x", (0, 1)).snap, (1,), {})),
    }  # fmt: skip
    out = {}
    for qualified, call in calls.items():
        assert call is not None, f"{qualified}: the table's valid call could not be built"
        if len(call) == 3:  # a bound method: (method, args, kwargs)
            out[qualified] = call
        else:
            module, name = qualified.split(".")
            obj = getattr(importlib.import_module(f"embedlab.{module}"), name)
            out[qualified] = (obj, *call)
    return out


def _public_callables() -> set[str]:
    names = set()
    for info in pkgutil.iter_modules(embedlab.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"embedlab.{info.name}")
        assert hasattr(module, "__all__"), f"embedlab.{info.name} has no __all__"
        for name in module.__all__:
            if callable(getattr(module, name)) and not isinstance(getattr(module, name), dict):
                names.add(f"{info.name}.{name}")
    return names


def test_every_module_lists_its_public_names_and_each_callable_has_a_row():
    """A public function added without a row here fails: the table is the contract's list of names."""
    for info in pkgutil.iter_modules(embedlab.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"embedlab.{info.name}")
        defined = {
            name
            for name, obj in vars(module).items()
            if not name.startswith("_")
            and getattr(obj, "__module__", None) == module.__name__
            and (callable(obj) and not isinstance(obj, dict))
        }
        assert defined <= set(module.__all__), (
            f"embedlab.{info.name}.__all__ misses {sorted(defined - set(module.__all__))}"
        )
    listed = {name for name in _valid_calls() if name.split(".")[0].islower()}
    assert _public_callables() - set(RECORDS) == listed


#: Arguments where None is a valid call of a long computation, not a hostile one.
NONE_RUNS_LONG = {("sweep.run_sweep", "argument 0")}  # spec=None: the chapter's 80-minute sweep


def where_of(i, key):
    return f"argument {i}" if key is None else key


class _Hang(BaseException):
    pass


def _alarm(signum, frame):
    raise _Hang


def _call_refused_or_right(label, fn, args, kwargs, names=()):
    """``fn(*args, **kwargs)`` gives a value, or a TypeError/ValueError whose message holds one of ``names``."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(60)
    unnamed = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                fn(*args, **kwargs)
            except (TypeError, ValueError) as exc:
                if names and not any(name in str(exc) for name in names):
                    unnamed = str(exc)[:200]
                elif len(str(exc)) > MAX_MESSAGE * 3:
                    unnamed = f"a message of {len(str(exc)):,} characters: {str(exc)[:200]}"
    except _Hang:
        pytest.fail(f"{label} ran for more than 60 s")
    except BaseException as exc:
        pytest.fail(f"{label} raised {type(exc).__name__}: {str(exc)[:200]}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    if unnamed is not None:
        pytest.fail(f"{label} refused without naming {' or '.join(names)}: {unnamed}")


@pytest.mark.parametrize("qualified", sorted(_public_callables() - set(RECORDS) | {
    "Corpus.counts", "Corpus.never_read", "Corpus.target_only", "Corpus.unseen", "Sweep.runs", "Sweep.chosen_lr",
    "Sweep.chosen", "Sweep.test_loss", "Sweep.gap", "Sweep.verdict", "Sweep.mean_curve", "CompareResult.curves",
    "CompareResult.summary", "CompareResult.drift", "CompareResult.geometry", "BandedPNG.encode",
    "Explorer.update", "Explorer.png", "Explorer.timed_update", "Control.show", "Control.snap",
    "Task.check", "Task.describe", "Task.cases",
}))  # fmt: skip
def test_every_public_name_refuses_hostile_arguments_by_type_or_value(qualified):
    fn, args, kwargs = _valid_calls()[qualified]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fn(*args, **kwargs)  # the row's call is valid: a hostile value below is the only change
    slots = [(i, None) for i in range(len(args))] + [(None, k) for k in kwargs]
    for i, key in slots:
        for value in EVERY_ARGUMENT_VALUES:
            if value is None and (qualified, where_of(i, key)) in NONE_RUNS_LONG:
                continue
            a, kw = list(args), dict(kwargs)
            if key is None:
                a[i] = value
            else:
                kw[key] = value
            where = where_of(i, key)
            param = key if key is not None else _parameters(fn)[i]
            names = (param, *ALSO_NAMED.get((qualified, param), ()))
            _call_refused_or_right(f"{qualified} with {where} = {short_repr(value)}", fn, a, kw, names)


def _parameters(fn):
    return list(inspect.signature(fn).parameters)


#: Where a refusal may name something other than the argument replaced: the pair it is checked against, or
#: the object whose field it is (each entry says what the message names instead).
ALSO_NAMED: dict[tuple[str, str], tuple[str, ...]] = {
    ("Control.snap", "value"): ("x must be one of",),  # the control is named "x": its values are listed
    ("lookup.one_hot", "ids"): ("vocab_size is too large",),  # the (n, V) result: ids and vocab_size together
    # a vocabulary of 1 (an int subclass holding 1) is valid; the row's ids are then out of its range
    ("lookup.one_hot", "vocab_size"): ("for a vocabulary of 1",),
    ("grads.embedding_grad", "vocab_size"): ("for a vocabulary of 1",),
    ("grads.tied_grad", "vocab_size"): ("for a vocabulary of 1",),
}


# ---------------------------------------------------------------- issue 19: what hostile pass 4 found
_P = embedlab.train.init_params(5, 3, tied=True)
_BATCH = (np.array([[0, 1], [2, 2]]), np.array([3, 4]))


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (
            lambda: embedlab.train.loss_and_grads(
                {"E": np.broadcast_to(1.0, (10**6, 10**4))}, (np.zeros((1, 1), int), np.zeros(1, int))
            ),
            "params is too large",
        ),
        (
            lambda: embedlab.train.loss_and_grads(_P, (np.broadcast_to(0, (10**8, 2)), np.broadcast_to(0, 10**8))),
            "batch is too large",
        ),
        (
            lambda: embedlab.train.loss_and_grads(
                {"E": np.full((3, 2), 1e200), "W": np.full((3, 2), 1e200)}, (np.zeros((1, 1), int), np.zeros(1, int))
            ),
            "params are too large for this batch",
        ),
        (lambda: embedlab.train.train(tied=True, steps=2, lr=10**400), "lr must be a positive finite number"),
        (lambda: embedlab.train.train(tied=True, steps=2, batch_size=10**12), "batch_size is too large"),
        (lambda: embedlab.train.compare(seeds=np.array(0)), "seeds must be a sequence of ints"),
        (lambda: embedlab.train.compare(seeds="01"), "seeds must be a sequence of ints"),
        (
            lambda: embedlab.corpus.Corpus(
                (np.ma.array([0, 5, 7], mask=[0, 0, 1]),), (), (), ("<s>", "a", "b"), np.array(["s", "x", "x"]), 0
            ),
            "train[0] must be a 1-D int NumPy array",
        ),
        (lambda: quiz_mod.grade_choice(5, 5), "answer must be a str"),
        (lambda: quiz_mod.grade_choice("a", "b", slips=3), "slips must be a list or tuple of Slip"),
        (lambda: quiz_mod.grade_choice("a", "a\r"), "answer must not hold control characters"),
        (lambda: quiz_mod.Forecast("q?", "a", choices=["a", "b\x00"], trap="t", settles="s"), "choices must not hold"),
        (lambda: quiz_mod.within(10**400, 1.0, 0.1), "x must be a finite number"),
        (lambda: embedlab.gpt2.load_encoding("/nowhere/encoder.json"), "encoder_path must be the path of encoder.json"),
        (lambda: embedlab.gpt2.decode(range(10**12)), "ids must hold at most"),
        (lambda: embedlab.gpt2.tokens(range(10**20)), "ids must hold at most"),
        (lambda: embedlab.gpt2.token_bytes(range(10**12)), "ids must hold at most"),
        (lambda: figures_mod.drawing_plane(3.0, 4.0), "a must be 1-D"),
        (lambda: figures_mod.drawing_plane([1.0], [2.0]), "a and b must have at least 2 entries"),
        (lambda: figures_mod.alignment_arrows([1.0, 1.0], None), "contexts must be a dict"),
        (
            lambda: figures_mod.alignment_arrows([1.0, 1.0], {"h": [1.0, 0.0, 0.0]}),
            "contexts['h'] must have e's length",
        ),
        (lambda: figures_mod.alignment_arrows(np.ones(10**6 + 1), {"h": [1.0]}), "e must hold at most"),
        (lambda: figures_mod.saturation_curves(ax="a"), "ax must be a matplotlib Axes"),
        (lambda: plots_mod.signed2(10**400), "value must lie within float64's range"),
        (lambda: embedlab.train_plots.geometry_scatter(np.ones((2, 2)), "ab"), "classes must be one class name"),
        (lambda: embedlab.train_plots.update_geometry(None, np.ones((2, 2)), ["a", "b"]), "artists must be the dict"),
        (lambda: embedlab.train_plots.geometry_scatter(np.ones((2, 2)), ["a", "b"], limit=10**400), "limit must "),
        (lambda: embedlab.widgets.BandedPNG(np.zeros((4, 4, 3), np.uint8)), "background must have shape (h, w, 4)"),
        (
            lambda: embedlab.widgets.BandedPNG(np.zeros((4, 4, 4), np.uint8)).encode(np.zeros((0, 4, 4), np.uint8)),
            "rgba",
        ),
        (lambda: embedlab.widgets.BandedPNG(np.zeros((4, 4, 4), np.uint8), band=0), "band must be a positive integer"),
        (lambda: embedlab.logits.check_context(np.ones(3), np.ones(3), np.float64), "d must be a positive integer"),
        (lambda: naive_softmax(np.broadcast_to(0.0, (10**6, 10**6))), "z is too large"),
        (lambda: embedlab.saturation_prob(np.broadcast_to(0.0, (10**6, 10**6))), "t is too large"),
        (lambda: embedlab.dot(np.broadcast_to(0, 10**11), np.broadcast_to(0, 10**11)), "a is too large"),
        (lambda: embedlab.corpus.context_windows(np.broadcast_to(0, 10**11), 2), "sentences must be 1-D int arrays"),
        (lambda: embedlab.train.class_cosine(np.eye(3), ["a", "a", "b"], ids=np.broadcast_to(0, 10**11)), "ids must"),
        (lambda: Explorer("t", np.broadcast_to(0, 10**11), _setup_ok), "controls must"),
    ],
)
def test_hostile_pass_4_rows(make, words):
    _refused_by_name_before_allocating(make, words)


def test_hostile_pass_4_right_values():
    """float16 parameters: gradients computed in float32 agree with float64's; overflow-free params still train."""
    p16 = {k: v.astype(np.float16) for k, v in _P.items()}
    L, g = embedlab.train.loss_and_grads(_P, _BATCH)
    L16, g16 = embedlab.train.loss_and_grads(p16, _BATCH)
    assert L16 == pytest.approx(L, rel=2e-3)
    for name in g:
        assert g16[name].dtype == np.float32  # accumulated and returned in float32, not rounded to float16
        scale = np.abs(g[name]).max()
        np.testing.assert_allclose(g16[name], g[name], atol=5e-3 * scale)
    # large but finite: the hidden layer's tanh keeps the logits finite, and the answer is returned
    big = {k: v * 1e150 for k, v in _P.items()}
    assert np.isfinite(embedlab.train.loss(big, _BATCH))
    assert quiz_mod.grade_choice("a\n", "a\n").right  # a line feed is kept by HTML: allowed


# ---------------------------------------------------------------- issue 19: what hostile pass 5 found
@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: quiz_mod.is_blank(None), "text must be a str"),
        (lambda: quiz_mod.ambiguous_readings(5), "text must be a str"),
        (lambda: quiz_mod.grade_number(None, 1.0, abs_tol=0.1), "text must be a str"),
        (lambda: quiz_mod.grade_number("1", 1.0, abs_tol=0.1, slips=np.array(5)), "slips must be a list or tuple"),
        (lambda: quiz_mod.grade_choice("a", "b", slips=np.array(5)), "slips must be a list or tuple"),
        (lambda: float_range(-1.7e308, 1.7e308, 1e308), "start and stop must lie less than"),
        (
            lambda: embedlab.widgets.webp_bytes(np.broadcast_to(np.uint8(0), (16383, 16383, 4))),
            "rgba must hold at most",
        ),
        (lambda: embedlab.corpus.context_windows([np.array([0, -5, 7])], k=2), "sentences must be in [0, "),
        (lambda: embedlab.corpus.context_windows(np.array(5), 2), "sentences must be a sequence"),
        (lambda: embedlab.train.class_cosine(np.zeros((4, 3)), ["a", "a", "b", "b"]), "E must have no zero row"),
        (lambda: plots_mod.arrows([[1.0, 0.0], [0.0, 1.0]], labels=None), "labels must be a sequence of str"),
        (lambda: plots_mod.heatmap(np.eye(2), annotate=np.ones((2, 2, 2))), "annotate must be True or False"),
        (lambda: plots_mod.new_figure(np.array(5)), "figsize must be a (width, height) pair"),
        (lambda: embedlab.display.fitted_size(np.array(5)), "figsize must be a (width, height) pair"),
        (lambda: figures_mod.projection_panels([0.5, 0.2, -0.3], np.eye(4, 3), labels=None), "labels must be a list"),
        (lambda: figures_mod.gradient_sizes(0), "n must be a positive integer"),
        (lambda: embedlab.train_plots.gap_plot(sweep.load_results(), axes=[[1, 2], [3]]), "axes must be 2 x 2"),
        (lambda: embedlab.gpt2.tokens_html("a" * (2**20 + 1)), "text must hold at most"),
        (lambda: embedlab.gpt2.explorer_html(["a"] * 1001), "sentences must hold at most 1,000"),
    ],
)
def test_hostile_pass_5_rows(make, words):
    _refused_by_name_before_allocating(make, words)


def test_hostile_pass_5_right_values(capsys):
    # angles reduced in degrees before radians: 1e300 is a multiple of 360, 1e20 degrees is 280 degrees
    np.testing.assert_allclose(embedlab.in_plane(1e300, np.eye(2)), [1.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(
        embedlab.in_plane(1e20, np.eye(2)), [math.cos(math.radians(280)), math.sin(math.radians(280))]
    )
    # a grid whose ends are large and close: stop is reached (the draft's rule: stop included on the grid)
    values = float_range(-372253.0968395644, -372253.0908395644, 0.001)
    assert len(values) == 7 and values[-1] == pytest.approx(-372253.0908395644, abs=1e-6)  # 6 digits kept
    # the verdict agrees with the line printed: values that round the other way differ
    check("x", 1, 1.5000000005, 0)
    check("y", 0.12, 0.125000000004, 2)
    check("z", 0.01, 0.005, 2)  # 0.005 is 0.005000000000000000104...: it rounds to 0.01
    assert capsys.readouterr().out.splitlines() == [
        "x: draft 1, computed 2 -> DIFFERS",
        "y: draft 0.12, computed 0.13 -> DIFFERS",
        "z: draft 0.01, computed 0.01 -> agrees",
    ]
    # a learning rate given as float32 or float16 finds the runs of the listed rate it equals
    sw = sweep.load_results()
    n_train, d, hidden = sw.cells()[0]
    assert sw.runs(0, n_train, d, hidden, "tied", np.float32(sw.spec.lrs[0])) == sw.runs(
        0, n_train, d, hidden, "tied", sw.spec.lrs[0]
    )
    # an empty split counts nothing; a never-drawn or bare figure is drawn before it is encoded
    small = make_corpus(0, n_train=20, n_valid=10, n_test=10)
    empty = embedlab.corpus.Corpus(small.train, (), small.test, small.vocab, small.classes, 0)
    assert empty.counts("valid")[0].sum() == 0 and empty.counts("valid")[1].sum() == 0
    from matplotlib.figure import Figure

    for fig in (plots_mod.new_figure()[0], Figure()):
        assert embedlab.widgets.png_bytes(fig).startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "call",
    [
        "embedlab.cosine(np.ones(10**8), np.ones(10**8))",
        "embedlab.dot(np.broadcast_to(1.0, 350 * 10**6), np.broadcast_to(1.0, 350 * 10**6))",
        "embedlab.in_plane(30.0, np.broadcast_to(np.eye(2, 1), (2, 175 * 10**6)))",
        "embedlab.cross_entropy_grad(np.zeros((110, 10**6)), np.zeros(110, int))",
        "embedlab.output_grad(np.ones(1000), np.ones(325000))",
        "embedlab.train.pca_2d(np.broadcast_to(1.0, (120000, 1000)))",
        "embedlab.corpus.context_windows([np.zeros(10**8, int)], k=3)",
    ],
)
def test_hostile_pass_5_sizes_under_an_address_space_limit(call):
    """Under `ulimit -v 3 GiB` each call is refused by name before allocating, not by a MemoryError."""
    out = _under_3_gib(call)
    assert out.returncode == 0 and "too large" in out.stdout, (out.stdout[-300:], out.stderr[-500:])


def _under_3_gib(call: str) -> subprocess.CompletedProcess:
    """Run ``call`` in a fresh Python whose address space is limited to 3 GiB; it prints "ran" or "refused: ..."."""
    code = textwrap.dedent(
        f"""
        import resource, warnings
        import numpy as np
        import embedlab, embedlab.train, embedlab.corpus
        warnings.simplefilter("error")
        resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, resource.RLIM_INFINITY))
        try:
            {call}
            print("ran")
        except (TypeError, ValueError) as exc:
            print("refused:", exc)
        """
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def _refused_under_3_gib(setup: str, call: str, words: str) -> None:
    """``setup; call`` in a fresh Python limited to 3 GiB is refused, with a message that starts with ``words``."""
    out = _under_3_gib(f"{setup}; {call}" if setup else call)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith(f"refused: {words}"), out.stdout[:500]


# ---------------------------------------------------------------- issue 19: what hostile pass 6 found
@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: float_range(1e300, 1.0000000000000002e300, 1.0), "step must be at least the spacing"),
        (lambda: Control("x", "x", (0, 1), fmt=lambda v: ["zero", "one"][v]).show(5), "value must be one of"),
        (lambda: Control("x", "x", (0.5, 1.5), fmt="{:.1f}").show("a"), "value must be one of"),
        (lambda: Control("x", "x", ("a|b", "c")), "must not show a '|'"),
        (lambda: plots_mod.heatmap(np.full((2, 2), 1e300)), "matrix must be at most"),
        (lambda: plots_mod.bars([1.7e308, -1.7e308], ["a", "b"]), "values must be at most"),
        (lambda: plots_mod.curve([0, 1], [1.7e308, -1.7e308]), "y must be at most"),
        (lambda: plots_mod.curve([1e308, 1e308], [0, 1]), "x must be at most"),
        (lambda: plots_mod.marker(1e308, 0.0), "x must be at most"),
        (lambda: plots_mod.arrows([[1.7e308, 0], [0, -1.7e308]]), "vectors must be at most"),
        (lambda: figures_mod.projection_panels([1e308] * 3, np.array(embedlab.E_TOY)), "h must be at most"),
        (lambda: figures_mod.projection_panels([1e15] * 3, np.array(embedlab.E_TOY)), "h and E must have lengths"),
        (lambda: figures_mod.alignment_arrows([1e300, 0.0], {"h": [0.0, 1e300]}), "e must be at most"),
        (
            lambda: embedlab.train_plots.geometry_scatter(np.array([[1e308, -1e308], [0, 0]]), ["a", "b"]),
            "coords must be at most",
        ),
        (lambda: figures_mod.saturation_curves((1, 10**300)), "ns must hold counts of at most"),
        (lambda: figures_mod.saturation_curves((1, 10**20)), "ns must hold counts of at most"),
    ],
)
def test_hostile_pass_6_rows(make, words):
    _refused_by_name_before_allocating(make, words)


def test_hostile_pass_6_right_values():
    assert float_range(1e300, 1e300, 1.0) == (1e300,)  # one value, as float_range(5.0, 5.0, 1.0) gives (5.0,)
    assert float_range(1e20, 1e20, 1.0) == (1e20,)
    assert float_range(1e15, 1e15 + 3, 1.0, 0) == (1e15, 1e15 + 1, 1e15 + 2, 1e15 + 3)  # never past stop
    assert Control("x", "x", (0, 1, 2), static_every=np.int64(2)).static_values == (0, 2)
    small = make_corpus(0, n_train=20, n_valid=10, n_test=10)
    empty = embedlab.corpus.Corpus(small.train, (), small.test, small.vocab, small.classes, 0)
    assert 0 not in empty.unseen("valid").tolist() and len(empty.unseen("valid")) == small.vocab_size - 1
    # a drawn figure of large (not huge) values draws without a warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for fig in (
            plots_mod.heatmap(np.full((2, 2), 1e14))["image"].figure,
            plots_mod.bars([1e15, -1e15], ["a", "b"]).patches[0].figure,
            plots_mod.curve([1e15, 1e15], [0, 1]).figure,
            figures_mod.saturation_curves((1, 10**15))[0],
        ):
            assert embedlab.widgets.png_bytes(fig).startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "call",
    [
        "embedlab.tied_logits(np.ones((3, 1000)), np.broadcast_to(1.0, (4 * 10**5, 1000)))",
        "embedlab.tied_logits(np.ones((3300, 100)), np.ones((10**5, 100)))",
        "embedlab.tied_logits(np.ones((2200, 100)), np.ones((10**5, 100)), bias=np.zeros(10**5))",
        "embedlab.naive_softmax(np.broadcast_to(0.0, 2 * 10**8))",
        "embedlab.train.loss_and_grads({'E': np.ones((10**5, 2))}, (np.zeros((1100, 1), int), np.zeros(1100, int)))",
        "embedlab.train.class_cosine(np.random.default_rng(0).normal(size=(15000, 2)), np.arange(15000) % 2)",
    ],
)
def test_hostile_pass_6_sizes_under_an_address_space_limit(call):
    """Under `ulimit -v 3 GiB`: a value, or a refusal by name, never a MemoryError."""
    out = _under_3_gib(call)
    assert out.returncode == 0 and ("too large" in out.stdout or out.stdout == "ran\n"), (
        out.stdout[-300:],
        out.stderr[-500:],
    )


# ---------------------------------------------------------------- issue 19: what hostile pass 7 found
def _adam_on_ones(g, **kw):
    p = {"E": np.ones((2, 2))}
    return embedlab.train.adam_step(p, {"E": np.full((2, 2), g)}, embedlab.train.adam_state(p), 0.1, **kw)


def _cliff(M):
    """A loss that jumps from -1.7e308 to 1.7e308 at 0.5: its central difference there overflows."""
    return 1.7e308 if M[0, 0] > 0.5 else -1.7e308


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: plots_mod.arrows([[1, 0]], limit=1e308), "limit must be at most"),
        (lambda: plots_mod.curve([0, 1], [0, 1], marker="o", markersize=1e308), "markersize must be at most 1000"),
        (lambda: plots_mod.heatmap(np.zeros((1, 40_000)), annotate=False), "matrix must have at most 1,000 rows"),
        (lambda: plots_mod.bars(np.ones(10_000), ["a"] * 10_000), "values must hold at most 1,000 bars"),
        (lambda: plots_mod.arrows(np.ones((3000, 2)), labels=["a"] * 3000), "vectors must hold at most 100 arrows"),
        (lambda: _adam_on_ones(1e200), "grads['E'] and lr give a step that overflows"),
        (lambda: _adam_on_ones(1.0, eps=1e-300), "eps must be in [1e-30, 1]"),
        (lambda: finite_difference_grad(lambda M: float(M.sum()), np.ones((1, 1)), eps=1e-300), "eps must be well"),
        (lambda: finite_difference_grad(_cliff, np.full((1, 1), 0.5)), "central difference at (0, 0) overflows"),
        (lambda: embedlab.one_hot([0], 10**5000), "vocab_size must be a positive integer below 2**8192"),
        (lambda: make_corpus(0, 10**5000), "n_train must be a positive integer below 2**8192"),
        (lambda: embedlab.widgets.BandedPNG(np.broadcast_to(np.uint8(0), (8192, 8192, 4))), "background must hold"),
    ],
)
def test_hostile_pass_7_rows(make, words):
    _refused_by_name_before_allocating(make, words)


def test_hostile_pass_7_right_values():
    assert float_range(0, 2.9999999995, 1.0, 17) == (0.0, 1.0, 2.0)  # 3.0 would pass stop
    assert float_range(0, 999.9999995, 1.0) == tuple(float(i) for i in range(1000))
    assert float_range(2.0**53, 2.0**53 + 8, 2.0, 0) == tuple(2.0**53 + 2 * i for i in range(5))
    assert float_range(0, 0.3, 0.1, 17) == (0.0, 0.1, 0.2, 0.3)  # stop itself, not 0.30000000000000004
    big = Control("x", "x", (0, 10**400))
    assert big.snap(10**399) == 0 and big.snap(6 * 10**399) == 10**400 and big.snap(float("inf")) == 10**400
    bert = architectures_mod.BertConfig("x", np.uint8(200), np.uint8(200), 1, 1, 1, True, 1, 1)
    assert architectures_mod.total_params(bert) == 243_201  # uint8 sizes held as Python ints, no wrap-around
    small = make_corpus(0, n_train=20, n_valid=10, n_test=10)
    assert (
        embedlab.corpus.Corpus(small.train, small.valid, small.test, small.vocab, small.classes, np.int64(0)).seed == 0
    )
    assert embedlab.display.text_sizes_css(plots_mod.curve([0, 1], [0, 1]).figure, np.int64(640))
    np.testing.assert_allclose(finite_difference_grad(lambda M: float(M.sum()), np.ones((1, 1)), eps=1), [[1.0]])
    # a thin figure, a crowded one, a long label: drawn in their plain layout, without a warning
    from matplotlib.figure import Figure

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        embedlab.display.figure_png(Figure(figsize=(12, 0.8)))
        embedlab.widgets.png_bytes(plots_mod.new_figure((1.0, 1.0), ncols=4)[0])
        embedlab.widgets.png_bytes(plots_mod.bars([1.0, 2.0], ["x" * 400, "y"]).patches[0].figure)


@pytest.mark.parametrize("call", ["embedlab.tied_logits(np.ones((3660, 100)), np.ones((10**5, 100)))"])
def test_hostile_pass_7_blas_room_under_an_address_space_limit(call):
    """OpenBLAS's own buffers get room under `ulimit -v`: a refusal by name or a value, never an exit."""
    test_hostile_pass_6_sizes_under_an_address_space_limit(call)


# ---------------------------------------------------------------- issue 19: what hostile pass 8 found
def test_hostile_pass_8_rows():
    # ints beyond 2**53 are compared exactly, not rounded to float64
    assert Control("x", "x", (2**54, 2**54 + 3)).snap(2**54 + 2) == 2**54 + 3
    assert Control("x", "x", (np.uint64(2**64 - 1), np.uint64(2**64 - 4))).snap(np.uint64(2**64 - 2)) == 2**64 - 1
    with pytest.raises(ValueError, match="no arrays, NaN or inf"):
        Control("x", "x", (-math.inf, 0.0))
    p = {"E": np.ones((1, 1), np.float32)}
    with pytest.raises(ValueError, match=r"eps must be at least 1\.1e-17 for moments in float32"):
        embedlab.train.adam_step(
            p, {"E": np.full((1, 1), 1e-25, np.float32)}, embedlab.train.adam_state(p), 0.1, eps=1e-30
        )
    assert p["E"][0, 0] == 1.0  # refused before any change
    with pytest.raises(ValueError, match=r"got 1000000000000000\.1"):  # the value itself, not rounded by :g
        plots_mod.curve([1e15, 1e15 + 0.125], [0, 1])


def test_hostile_pass_9_rows():
    # float_range with start == stop: rounded like any start, and refused where rounding passes stop
    with pytest.raises(ValueError, match=r"0 decimal places .* past 0\.7; digits=1 keeps them"):
        float_range(0.7, 0.7, 0.1, 0)
    with pytest.raises(ValueError, match=r"past 1e-07; digits=7 keeps them"):
        float_range(1e-7, 1e-7, -1.0)
    assert float_range(0.7, 0.7, 0.1, 1) == (0.7,)
    # a refusal suggests places near the caller's, fewer as well as more
    with pytest.raises(ValueError, match=r"digits=15 keeps them"):
        float_range(11.99667, -0.00333, -3.0, 17)
    assert float_range(11.99667, -0.00333, -3.0, 15)[-1] == -0.00333
    with pytest.raises(ValueError, match=r"digits=11 keeps them"):
        float_range(25000.000000007, 7e-09, -25.0, 17)
    # in_plane reduces an int or longdouble angle exactly: 2**64 + 90 degrees is 106 degrees
    for angle, exact in ((2**64 + 90, 106), (np.longdouble(2**64) + 90, 106), (2**53 + 1, 33), (10**20 + 90, 10)):
        expected = [math.cos(math.radians(exact)), math.sin(math.radians(exact))]
        np.testing.assert_allclose(embedlab.in_plane(angle, np.eye(2)), expected, atol=1e-12)
    # integer logits beyond 2**53: softmax depends on their differences, taken exactly
    np.testing.assert_allclose(embedlab.softmax(np.array([2**53 + 1, 2**53])), [0.7310585786, 0.2689414214])
    np.testing.assert_allclose(embedlab.log_softmax(np.array([2**62 + 1, 2**62])), [-0.3132616875, -1.3132616875])
    assert embedlab.cross_entropy(np.array([[2**62 + 1, 2**62]]), [1]) == pytest.approx(1.3132616875)
    np.testing.assert_allclose(
        embedlab.softmax(np.array([2**64 - 1, 2**64 - 2], np.uint64)), [0.7310585786, 0.2689414214]
    )
    np.testing.assert_allclose(embedlab.softmax([10**30 + 1, 10**30]), [0.7310585786, 0.2689414214])
    np.testing.assert_allclose(embedlab.softmax(np.array([-(2**63), 2**63 - 1])), [0.0, 1.0])
    # where an integer would be rounded silently, it is refused by name
    with pytest.raises(ValueError, match=r"E must hold integers of at most 2\*\*53"):
        embedlab.tied_logits(np.array([1, -1]), np.array([[2**64 - 1, 2**64 - 2]], np.uint64))
    with pytest.raises(ValueError, match=r"a must hold integers of at most 2\*\*53 in size"):
        embedlab.dot([10**30], [1])
    # saturation_prob takes ints of any size: P0 is 0 or 1 long before they leave float64
    assert embedlab.saturation_prob(2**64) == 1.0 and embedlab.saturation_prob(-(2**63) - 1) == 0.0
    assert embedlab.saturation_prob(10**30) == 1.0
    np.testing.assert_array_equal(embedlab.saturation_prob([10**400, -(10**400), 0]), [1.0, 0.0, 0.25])
    # pca_2d of float32 rows near float32's largest value: centred without overflowing the sum
    near_max = embedlab.train.pca_2d(np.array([[3e38, 0, 0], [3e38, 1, 0], [3e38, 0, 2]], np.float32))
    at_zero = embedlab.train.pca_2d(np.array([[0, 0, 0], [0, 1, 0], [0, 0, 2]], np.float32))
    np.testing.assert_allclose(near_max[0], at_zero[0], rtol=1e-6)
    # ids NumPy promotes to float64 or to objects are still the integers the caller passed
    E = np.arange(12.0).reshape(4, 3)
    np.testing.assert_array_equal(embedlab.lookup(E, [np.int64(1), np.uint64(2)]), E[[1, 2]])
    np.testing.assert_array_equal(embedlab.lookup(E, np.array([1, 2], dtype=object)), E[[1, 2]])
    with pytest.raises(TypeError, match=r"ids must be integer token ids, got objects that are not all integers"):
        embedlab.lookup(E, np.array([1.5], dtype=object))


def test_hostile_pass_10_rows():
    from embedlab import claims, scale, ties

    p = [0.7310585786, 0.2689414214]
    # an exact difference beyond float64 is -inf, not an OverflowError
    np.testing.assert_array_equal(embedlab.softmax([2**1024 - 1, 0]), [1.0, 0.0])
    np.testing.assert_array_equal(embedlab.cross_entropy_grad([[2**1024 - 1, 0]], [1]), [[1.0, -1.0]])
    # integers NumPy promotes to float64 (np.uint64 next to np.int64) keep their differences
    np.testing.assert_allclose(embedlab.softmax([np.uint64(2**60 + 1), np.int64(2**60)]), p)
    assert embedlab.cross_entropy([[np.uint64(2**60 + 1), np.int64(2**60)]], [1]) == pytest.approx(1.3132616875)
    with pytest.raises(ValueError, match=r"a must hold integers of at most 2\*\*53"):
        embedlab.dot([np.uint64(2**60 + 1), np.int64(-(2**60))], [1, 1])
    # a Python int beyond 64 bits next to a float: refused by name (pass 12: the exact path for mixed lists
    # kept meeting new number types; one rule, no rounding, is the contract)
    for mixed in ([2**70, 0.5], [10**400, 0.5]):
        with pytest.raises(ValueError, match=r"z must hold integers of at most 2\*\*53 in size next to"):
            embedlab.softmax(mixed)
    np.testing.assert_allclose(embedlab.saturation_prob([10**400, 0.5]), [1.0, math.exp(0.5) / (math.exp(0.5) + 3)])
    # object broadcasts are read once and sized as what they would become
    huge = np.broadcast_to(np.array(1, dtype=object), (10**10,))
    for call in (lambda: embedlab.lookup(np.eye(3), huge), lambda: embedlab.one_hot(huge, 4)):
        with pytest.raises(ValueError, match=r"ids is too large"):
            call()
    with pytest.raises(ValueError, match=r"t is too large"):
        embedlab.saturation_prob(np.broadcast_to(np.array(5, dtype=object), (10**10,)))
    np.testing.assert_array_equal(embedlab.lookup(np.eye(3), huge[:4]), np.eye(3)[[1, 1, 1, 1]])
    # random_logits is sized before drawing (under 3 GiB: refused by name), and judged on the logits
    out = _under_3_gib("import embedlab.scale; embedlab.scale.random_logits(65536, vocab_size=100_000)")
    assert out.returncode == 0 and "vocab_size is too large" in out.stdout, (out.stdout, out.stderr[-300:])
    assert np.isfinite(scale.random_logits(8, factor=3.2983268327820393e307, vocab_size=1)).all()
    # ties: many names of one array are grouped without comparing pairs; too many overlapping views refused
    E = np.zeros((5, 3))
    assert len(ties.tie_groups({f"p{i}": E for i in range(20_000)})[0]) == 20_000
    M = np.zeros((3, 3000))
    with pytest.raises(ValueError, match=r"named must hold at most 1,000,000 pairs"):
        ties.tie_groups({f"c{i}": M[:, i] for i in range(3000)})
    b = np.arange(8.0)
    with pytest.raises(ValueError, match=r"share memory but are not one array"):
        ties.tie_groups({"A": b.reshape(2, 4)[:, ::3], "B": b.reshape(4, 2)[::3]})  # elements 0,3,4,7 and 0,1,6,7
    assert ties.tie_groups({"wte": E, "transposed": E.T, "reversed": E[::-1]}) == [("wte", "transposed", "reversed")]
    with pytest.raises(ValueError, match=r"dtypes float64 and int64"):  # pass 12: the same bytes as ints are not E
        ties.tie_groups({"wte": E, "as ints": E.view(np.int64)})

    class Liar(dict):
        def __len__(self):
            return 1

        def items(self):
            yield from ((f"k{i}", E) for i in itertools.count())

    with pytest.raises(ValueError, match=r"named must hold at most 100,000 names, got more"):
        ties.tie_groups(Liar())
    # pca_2d: rows whose mean overflows but whose centred values fit
    coords, _ = embedlab.train.pca_2d(np.array([[-1e308, 0], [1e308, 1], [0, 3]]))
    np.testing.assert_allclose(coords[:, 1], [-5 / 6, -5 / 6, 5 / 3], rtol=1e-9)
    coords, _ = embedlab.train.pca_2d(np.array([[-3e38, 0, 0], [3e38, 1, 0], [0, 0, 2]], np.float32))
    assert np.isfinite(coords).all() and abs(coords[0, 0]) == pytest.approx(3e38, rel=1e-6)
    # claims.check compares ints exactly, or refuses those float64 would round
    with pytest.raises(ValueError, match=r"draft must be a number float64 holds exactly"):
        claims.check("n", 2**53 + 1, 2**53, 0)
    with pytest.raises(ValueError, match=r"draft must fit in float64"):
        claims.check("n", np.longdouble("1e4000"), np.longdouble("2e4000"), 0)
    claims.check("n", 10**20, 10**20, 0)  # prints "agrees": an int float64 holds exactly
    # messages: a Fraction angle is reduced exactly; a config's huge norm is shown short
    exact = float(Fraction(10**400, 3) % 360)  # the angle reduced in exact arithmetic
    expected = [math.cos(math.radians(exact)), math.sin(math.radians(exact))]
    np.testing.assert_allclose(embedlab.in_plane(Fraction(10**400, 3), np.eye(2)), expected, atol=1e-12)
    with pytest.raises(ValueError, match=r"norm must be one of") as err:
        dataclasses.replace(architectures.get_config("GPT-2 small"), norm=["x"] * 10**6)
    assert len(str(err.value)) < 400


def test_hostile_pass_11_rows():
    from embedlab import claims, ties

    p = [0.7310585786, 0.2689414214, 0.0]

    class IE(enum.IntEnum):
        A = 2**62 + 1
        B = 2**62

    # integers beyond 2**53 next to a float, a masked -inf or a narrower float: refused by name, never rounded
    for mixed in (
        [2**60 + 1, 2**60, 0.5],
        [np.uint64(2**60 + 1), np.int64(2**60), -np.inf],
        [IE.A, IE.B, 0.5],
        *([2**70, other] for other in (-np.inf, np.float32(0.5), np.float16(0.5), math.nan)),
    ):
        with pytest.raises(ValueError, match=r"z must hold integers of at most 2\*\*53 in size next to"):
            embedlab.softmax(mixed)
    with pytest.raises(ValueError, match=r"logits must hold integers of at most 2\*\*53"):
        embedlab.cross_entropy([[2**60 + 1, 2**60, 0.5]], [1])
    np.testing.assert_allclose(embedlab.softmax([IE.A, IE.B]), p[:2], atol=1e-12)  # integers alone: exact
    # elsewhere such a list is refused by name, as the same integers alone are
    mixed = [np.uint64(2**60 + 1), np.int64(-(2**60)), 0.5]
    for call, name in (
        (lambda: embedlab.dot(mixed, [1, 1, 0]), "a"),
        (lambda: embedlab.cosine(mixed, [1, 1, 0]), "a"),
        (lambda: embedlab.tied_logits(mixed, np.array([[1.0, 1.0, 0.0]])), "h"),
    ):
        with pytest.raises(ValueError, match=rf"{name} must hold integers of at most 2\*\*53 in size next to"):
            call()
    # claims.check: ints exactly (no hair from 2**52 on), mixed lists item by item
    with pytest.raises(ValueError, match=r"draft must be a number float64 holds exactly"):
        claims.check("n", [np.uint64(2**60 + 1), np.int64(1)], [np.uint64(2**60), np.int64(1)], 0)
    with pytest.raises(ValueError, match=r"draft must be a number float64 holds exactly"):
        claims.check("n", [2**60 + 1, 0.5], [2**60, 0.5], 0)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        claims.check("a", 2**53, 2**53 + 2, 0)
        claims.check("b", np.uint64(2**63), np.uint64(2**63 + 2048), 0)
        claims.check("c", 1e20, np.nextafter(1e20, 2e20), 0)
        claims.check("d", [2**70, 0.5], [2**70, 0.5], 1)
        claims.check("e", Fraction(1, 4), 0.25, 2)
    verdicts = [line.rsplit("-> ", 1)[1] for line in out.getvalue().splitlines()]
    assert verdicts == ["DIFFERS", "DIFFERS", "DIFFERS", "agrees", "agrees"]
    # ties: a broadcast and its source are not one array, in either order
    r = np.arange(4.0)
    for named in ({"r": r, "b": np.broadcast_to(r, (3, 4))}, {"b": np.broadcast_to(r, (3, 4)), "r": r}):
        with pytest.raises(ValueError, match=r"share memory but are not one array"):
            ties.count_params(named)
    # sequences of broadcast arrays are sized as the arrays NumPy would copy them into
    huge = [np.broadcast_to(1.0, (10**10,))] * 2  # 160 GB as NumPy would copy it: past any machine here
    for call, name in ((lambda: embedlab.softmax(huge), "z"), (lambda: embedlab.saturation_prob(huge), "t")):
        with pytest.raises(ValueError, match=rf"{name} is too large"):
            call()
    # an object broadcast is worked on its own data
    wide = np.broadcast_to(np.array([2**70 + 1, 2**70], dtype=object), (10**6, 2))
    np.testing.assert_allclose(embedlab.softmax(wide)[-1], p[:2], atol=1e-12)
    # messages: a finite number beyond float64 is said to be so; huge config fields are shown short
    with pytest.raises(ValueError, match=r"length must lie within float64's range"):
        embedlab.in_plane(0, np.eye(2), length=2**1100)
    with pytest.raises(ValueError, match=r"n_positions must be a non-negative integer") as err:
        dataclasses.replace(architectures.get_config("GPT-2 small"), n_positions=-(10**5000))
    assert len(str(err.value)) < 400


def test_hostile_pass_12_rows():
    from embedlab import claims

    big = np.longdouble(2**62) + 1  # longdouble holds 2**62 + 1 exactly
    np.testing.assert_allclose(embedlab.softmax([2**62, big]), [0.2689414214, 0.7310585786])
    assert embedlab.dot([2**62, np.longdouble(1)], [1, 0]) == 2.0**62
    # 0-d arrays in a list are the numbers they hold
    with pytest.raises(ValueError, match=r"a must hold integers of at most 2\*\*53 in size next to"):
        embedlab.dot([np.array(2**60 + 1), np.array(-(2**60)), 0.5], [1, 1, 0])
    E = np.eye(3)
    np.testing.assert_array_equal(
        embedlab.lookup(E, [np.array(1, dtype=np.uint64), np.array(2, dtype=np.int64)]), E[[1, 2]]
    )
    # claims.check: no hair near 2**52 past a tenth of the half unit; longdoubles and Fractions exactly
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        claims.check("a", 2**52 - 5, 2**52 - 1, 0)
        claims.check("b", 2**50, 2**50 + 2, 0)
        claims.check("c", 2.0**47 + 0.1, 2.0**47 + 0.2, 1)
        claims.check("d", 0.01, 0.005, 2)  # the half-way case the hair is for still agrees
    verdicts = [line.rsplit("-> ", 1)[1] for line in out.getvalue().splitlines()]
    assert verdicts == ["DIFFERS", "DIFFERS", "DIFFERS", "agrees"]
    for draft, computed, name in (
        (np.longdouble(2**60) + 1, 2**60, "draft"),
        (2**60, Fraction(2**60 + 1), "computed"),
        (0, Fraction(1, 2) + Fraction(1, 10**30), "computed"),
        ([np.array(2**60 + 1), 0.5], [2**60, 0.5], "draft"),
    ):
        with pytest.raises(ValueError, match=rf"{name} must be a number float64 holds exactly"):
            claims.check("n", draft, computed, 0)
    # lists of arrays are sized in full, however long
    b = np.broadcast_to(1.0, (10**4,))
    with pytest.raises(ValueError, match=r"z is too large"):
        embedlab.softmax([b] * 1_000_001 * 2)  # 2 x 10**10 numbers as NumPy would copy them
    with pytest.raises(ValueError, match=r"z is too large"):
        embedlab.softmax([range(10**11)])
    # a non-number next to a big int is refused as not real
    with pytest.raises(TypeError, match=r"z must be an array of real numbers"):
        embedlab.softmax([None, 2**60])


def test_hostile_pass_13_rows():
    from embedlab import claims

    # a bool next to big integers hides nothing: the list is refused by name, as without the bool
    for call, name in (
        (lambda: embedlab.softmax([True, 2**60 + 1, 2**60, 0.5]), "z"),
        (lambda: embedlab.dot([True, 2**60 + 1, -(2**60), 0.5], [0, 1, 1, 0]), "a"),
        (lambda: embedlab.lookup([[True, 2**60 + 1], [0.5, 0.5]], [0]), "E"),
    ):
        with pytest.raises(ValueError, match=rf"{name} must hold integers of at most 2\*\*53 in size next to"):
            call()
    # nested lists: a list inside itself is refused, shared sublists are walked once and sized in full
    a = [1.0]
    a.append(a)
    with pytest.raises(ValueError, match=r"z must not contain itself"):
        embedlab.softmax(a)
    y = [0.0]
    for _ in range(60):
        y = [y, y]  # 2**60 numbers as NumPy would copy them, from 61 lists
    with pytest.raises(ValueError, match=r"z is too large"):
        embedlab.softmax(y)
    for big in ([range(3 * 10**8)], memoryview(np.broadcast_to(1.0, (10**10,)))):
        with pytest.raises(ValueError, match=r"z is too large"):
            embedlab.softmax(big)
    # claims.check in exact decimal arithmetic: a value that rounds the other way never agrees
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        claims.check("a", 2**47, 2.0**47 + 0.53125, 0)
        claims.check("b", 2.0**44, 2.0**44 + 0.05 + 2**-8, 1)
        claims.check("c", 0.12, np.nextafter(0.125, 1), 2)
        claims.check("d", 0.01, 0.005, 2)  # 0.005 as stored is 0.005000000000000000104: it rounds up
        claims.check("e", 2.67, 2.675, 2)  # 2.675 as stored is 2.67499999999999982236431605997495353221893310546875
    verdicts = [line.rsplit("-> ", 1)[1] for line in out.getvalue().splitlines()]
    assert verdicts == ["DIFFERS", "DIFFERS", "DIFFERS", "agrees", "agrees"]


@pytest.mark.parametrize(
    ("setup", "call", "words"),
    [
        # a sequence object is walked item by item, as NumPy reads it, not sized by its length alone
        ("B = np.broadcast_to(1.0, (10**9,)); S = type('S', (), {'__len__': lambda s: 2, "
         "'__getitem__': lambda s, i: B if i < 2 else [][i]})", "embedlab.softmax(S())", "z is too large"),
        ("B = np.broadcast_to(1.0, (10**9,)); S = type('S', (), {'__len__': lambda s: 2, "
         "'__getitem__': lambda s, i: B if i < 2 else [][i]})", "embedlab.softmax([S()])",
         "z must hold plain lists, tuples or arrays"),  # nested, NumPy would iterate it unbounded (pass 72)
        # an array-like is sized as the array it gives, at the top and inside a list
        ("B = np.broadcast_to(1.0, (10**9,)); A = type('A', (), {'__array__': lambda s, dtype=None, copy=None: B})",
         "embedlab.softmax(A())", "z is too large"),
        ("B = np.broadcast_to(1.0, (10**9,)); A = type('A', (), {'__array__': lambda s, dtype=None, copy=None: B})",
         "embedlab.dot(A(), A())", "a and b is too large"),  # read once as the view it is, sized where it is used
        ("B = np.broadcast_to(1.0, (10**9,)); A = type('A', (), {'__array__': lambda s, dtype=None, copy=None: B})",
         "embedlab.saturation_prob(A())", "t is too large"),
        ("B = np.broadcast_to(1.0, (10**9,)); I = type('I', (), {'__array_interface__': B.__array_interface__, "
         "'keep': B})", "embedlab.softmax([I(), I()])", "z must hold plain lists, tuples or arrays"),  # (pass 76)
        # text is padded to its longest item by NumPy: sized that way
        ("", "embedlab.softmax(['x' * 10**7] * 100)", "z is too large"),
        ("", "embedlab.lookup(np.eye(3), ['x' * 10**7] * 100)", "ids is too large"),
        ("from embedlab import claims", "claims.check('n', ['x' * 10**7] * 100, 1.0, 0)", "draft is too large"),
        ("", "embedlab.softmax([np.void(b'\\0' * 10**7)] * 400)", "z is too large"),
        ("", "embedlab.softmax(['x' * 10**7] + ['a'] * 1000)", "z is too large"),
        # context_windows sizes each sentence before NumPy builds it
        ("", "embedlab.corpus.context_windows([range(10**9)], 2)", "sentences is too large"),
    ],
)  # fmt: skip
def test_hostile_pass_14_sizes_under_an_address_space_limit(setup, call, words):
    _refused_under_3_gib(setup, call, words)


def test_hostile_pass_14_rows():
    import decimal

    from embedlab import claims
    from embedlab.corpus import context_windows

    # a list nested deeper than NumPy's 64 dimensions is refused by name, not by a RecursionError
    deep = [1.0]
    for _ in range(1000):
        deep = [deep]
    for call, name in (
        (lambda: embedlab.softmax(deep), "z"),
        (lambda: embedlab.lookup(np.eye(3), deep), "ids"),
        (lambda: claims.check("n", deep, 1.0, 0), "draft"),
        (lambda: embedlab.saturation_prob(deep), "t"),
    ):
        with pytest.raises(ValueError, match=rf"{name} must have at most 64 dimensions"):
            call()
    ok = [[1.0, 2.0]]
    for _ in range(40):
        ok = [ok]  # 42 dimensions: within NumPy's limit, and converted
    assert embedlab.softmax(ok).shape == (1,) * 41 + (2,)
    # uint64 ids past 2**63 are refused, not wrapped to negative ones
    with pytest.raises(ValueError, match=r"sentences must be in \[0, 9223372036854775807\]"):
        context_windows([np.array([0, 2**63 + 5], dtype=np.uint64)], 1)
    # claims.check reads a float32 or float16 draft as the figure typed, in rational arithmetic,
    # whatever the caller's decimal context
    out = io.StringIO()
    with contextlib.redirect_stdout(out), decimal.localcontext() as ctx:
        ctx.prec = 6
        ctx.traps[decimal.Inexact] = True
        claims.check("a", np.float32(0.1), 0.15000000000000002, 1)
        claims.check("b", np.float32(0.1), 0.14, 1)
        claims.check("c", [np.float16(0.1), 0.2], [0.1, 0.26], 1)
        claims.check("d", 0.1, 0.15000001, 1)
        claims.check("e", 0.1, 0.15, 1)
        claims.check("f", 0.0, 0.5000000000000001, 0)  # just past half a unit (a typed 0.5 at 0 places is a tie)
        claims.check("g", np.array([0.1, 0.3], dtype=np.float32), [0.14, 0.25], 1)
    verdicts = [line.rsplit("-> ", 1)[1] for line in out.getvalue().splitlines()]
    assert verdicts == ["DIFFERS", "agrees", "DIFFERS", "DIFFERS", "agrees", "DIFFERS", "agrees"]
    # one_hot_cost_explorer: presets it cannot draw, or names too long to show, are refused by name
    with pytest.raises(ValueError, match=r"presets: V x d of 'a' must be at most 1e\+15"):
        explorers_mod.one_hot_cost_explorer([("a", 2**27, 2**27)])
    with pytest.raises(ValueError, match=r"presets must have names of at most 80 characters") as info:
        explorers_mod.one_hot_cost_explorer([("x" * 10**6, 1, 1)])
    assert len(str(info.value)) < 300
    explorer = explorers_mod.one_hot_cost_explorer([("$^$", 10, 10), ("$x$", 4, 3)])
    assert explorer.png().startswith(b"\x89PNG")  # a name with dollars is drawn as text, not parsed as math


@pytest.mark.parametrize(
    ("setup", "call", "words"),
    [
        # sublists made anew by a sequence object are all sized: no id of a freed one hides a later one
        ("S = type('S', (), {'__len__': lambda s: 3000, '__getitem__': lambda s, i: ['a'] if i < 2 else "
         "['a' * 10**6] if i < 3000 else [][i]})", "embedlab.softmax(S())", "z is too large"),
        # a broadcast sentence is sized before it is read
        ("", "embedlab.corpus.context_windows([np.broadcast_to(np.int64(0), (10**12,))], 2)",
         "sentences is too large"),
    ],
)  # fmt: skip
def test_hostile_pass_15_sizes_under_an_address_space_limit(setup, call, words):
    _refused_under_3_gib(setup, call, words)


class _RaisingLookup:
    def __getattr__(self, key):
        raise KeyError(key)

    def __call__(self, *args):
        return 1


def test_hostile_pass_15_rows():
    from embedlab import claims

    # objects whose attribute lookup, __array__ or __getitem__ raise are refused by name
    class RaisingArray:
        def __array__(self, dtype=None, copy=None):
            return 1 / 0

    class RaisingItems:
        def __len__(self):
            return 2

        def __getitem__(self, i):
            return 1 / 0

    released = memoryview(b"abcd")
    released.release()
    for value, words in (
        (_RaisingLookup(), "z must be an array or a sequence of numbers"),
        ([_RaisingLookup()], "z must be an array or a sequence of numbers"),
        (RaisingArray(), "z must be an array of real numbers"),
        (RaisingItems(), "z must be an array of real numbers"),
        (released, "z must not hold a released memoryview"),
        ([released], "z must not hold a released memoryview"),
    ):
        with pytest.raises((TypeError, ValueError), match=words):
            embedlab.softmax(value)
    # claims.check: a longdouble holding a float64 reads as that float64; float32 inside lists as typed
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        claims.check("a", np.longdouble(0.12), 0.125, 2)
        claims.check("b", [np.array([0.1], np.float32)], [[0.1]], 9)
        claims.check("c", [np.array(0.1, np.float32)], [0.1], 9)
        claims.check("d", [np.float32(0.1), np.array([0.2], np.float32)[0]], [0.1, 0.2], 9)
    lines = out.getvalue().splitlines()
    assert [line.rsplit("-> ", 1)[1] for line in lines] == ["agrees"] * 4
    assert "draft [0.100000000]" in lines[2]  # shown as typed, not as the float64 it widens to
    # preset names must be printable: no glyph warnings, no FreeType errors
    for bad in ("a\tb", "a\ud800"):
        with pytest.raises(ValueError, match=r"presets must have names of printable characters"):
            explorers_mod.one_hot_cost_explorer([(bad, 10, 10)])


def _hostile_answers():
    """Learners' functions that return, raise or change things a check must survive (hostile pass 15)."""

    class FloatRaising(float):
        def __float__(self):
            return 1 / 0

    class UfuncRaising(np.ndarray):
        def __array_ufunc__(self, *a, **k):
            raise ZeroDivisionError

    class AlwaysEqual(np.ndarray):
        def __eq__(self, other):
            return np.ones(np.shape(other), bool)

    class RaisingArray:
        def __array__(self, dtype=None, copy=None):
            return 1 / 0

    class OddWarning(RuntimeWarning):
        calls = 0

        def __str__(self):
            OddWarning.calls += 1
            if OddWarning.calls > 1:
                raise RuntimeError("x")
            return "w"

    def put_array_in_ids(E, ids):
        ids[0] = np.array([3, 3])
        return E[[2]]

    def print_options(z):
        np.set_printoptions(precision=2, sign="+", nanstr="N" * 90)
        return np.full(np.shape(z), np.nan)

    def long_warning(z):
        warnings.warn("w" * 100_000, RuntimeWarning, stacklevel=2)
        return embedlab.softmax(z)

    def odd_warning(z):
        warnings.warn(OddWarning(), stacklevel=2)
        return embedlab.softmax(z)

    async def coroutine(z):
        return z

    def acos_without_clip(u, v):
        dot = sum(a * b for a, b in zip(u, v, strict=True))
        norms = math.sqrt(sum(a * a for a in u)) * math.sqrt(sum(b * b for b in v))
        return math.degrees(math.acos(dot / norms))

    return [
        ("angle_between", lambda u, v: 10**400),
        ("head_params", lambda V, d, tied, bias: 10**400),
        ("angle_between", lambda u, v: np.array(None, dtype=object)),
        ("angle_between", lambda u, v: np.array(90 + 0j)),
        ("angle_between", lambda u, v: FloatRaising(90.0)),
        ("angle_between", lambda u, v: np.longdouble("1e400")),
        ("stable_softmax", lambda z: np.full(np.shape(z), np.longdouble("1e400"))),
        ("stable_softmax", lambda z: embedlab.softmax(z) + 0j),
        ("stable_softmax", lambda z: [np.broadcast_to(0.0, (10**6, 10**6))]),
        ("stable_softmax", lambda z: np.broadcast_to(np.int8(0), (10**6, 10**6))),
        ("stable_softmax", lambda z: [RaisingArray()]),
        ("stable_softmax", lambda z: embedlab.softmax(z).view(UfuncRaising)),
        ("embed_rows", put_array_in_ids),
        ("angle_between", lambda u, v: np.array(repr(embedlab.angle_deg(u, v)))),
        ("p_top", lambda t, n: np.array(repr(embedlab.saturation_prob(t, n)))),
        ("embed_rows", lambda E, ids: np.zeros((len(ids), E.shape[1]), E.dtype).view(AlwaysEqual)),
        ("stable_softmax", lambda z: np.ma.array(np.zeros(np.shape(z)), mask=True)),
        ("angle_between", acos_without_clip),
        ("stable_softmax", print_options),
        ("head_params", lambda V, d, tied, bias: 24.0),
        ("stable_softmax", lambda z: (_ for _ in ()).throw(ValueError("see https://" + "x" * 90))),
        ("stable_softmax", long_warning),
        ("stable_softmax", lambda z: np.zeros(3, dtype=[("a" * 60, "f8"), ("b" * 60, "f8")])),
        ("stable_softmax", coroutine),
        ("stable_softmax", lambda z: print),
        ("stable_softmax", odd_warning),
    ]


@pytest.mark.parametrize(("name", "fn"), _hostile_answers())
def test_hostile_pass_15_the_check_survives_any_answer_and_fails_wrong_ones(name, fn):
    from embedlab import practice

    options = np.get_printoptions()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = practice.check(fn, name)
    assert not report.passed, f"{name}: a wrong answer passed"
    text = str(report)
    assert all(len(line) <= practice.WIDTH for line in text.splitlines()), text
    assert " at 0x" not in text  # no memory address: the text is the same on every run
    assert np.get_printoptions() == options, "the learner's print options outlived the check"


def test_hostile_pass_15_check_arguments_are_refused_by_name():
    from embedlab import practice

    class Name(str):
        def __eq__(self, other):
            return 1 / 0

        __hash__ = str.__hash__

    with pytest.raises(ValueError, match="fn must be named after its exercise"):
        practice.check(_RaisingLookup())
    assert practice.check(lambda E, ids: E[ids], Name("embed_rows")).case == 6  # read as a plain str
    assert practice.check(lambda V, d, tied, bias: 24.0, "head_params").started is not False  # not a stub


@pytest.mark.parametrize(
    ("setup", "call", "words"),
    [
        # a lazy tree of 2**41 sequence objects is refused at its first nested one, not walked to its end
        ("T = type('T', (), {'__init__': lambda s, d=0: setattr(s, 'd', d), '__len__': lambda s: 2, "
         "'__getitem__': lambda s, i: (T(s.d + 1) if s.d < 40 else 1.0) if i < 2 else [][i]})",
         "embedlab.softmax(T())", "z must hold plain lists, tuples or arrays"),  # nested: refused (pass 72)
        # every sentence so far is sized before the next is read
        ("", "embedlab.corpus.context_windows([np.broadcast_to(np.int64(0), (10**8,))] * 10**4, 2)",
         "sentences is too large"),
    ],
)  # fmt: skip
def test_hostile_pass_16_sizes_under_an_address_space_limit(setup, call, words):
    _refused_under_3_gib(setup, call, words)


def test_hostile_pass_16_rows():
    import itertools

    from embedlab import claims, corpus, practice

    # a list subclass with its own __iter__ is refused by name: NumPy would read it through that __iter__
    raising = type("L", (list,), {"__iter__": lambda s: iter([1 / 0])})([1.0, 2.0])
    endless = type("L", (list,), {"__iter__": lambda s: itertools.repeat(1.0)})([1.0, 2.0])
    for value in (raising, endless, [endless]):
        with pytest.raises(TypeError, match="z must be plain lists, tuples or arrays"):
            embedlab.softmax(value)
    plain = type("P", (list,), {})([1.0, 2.0])  # a subclass that keeps list's own methods is read as a list
    np.testing.assert_allclose(embedlab.softmax(plain), embedlab.softmax([1.0, 2.0]))
    with pytest.raises(TypeError, match="sentences must be"):
        corpus.context_windows(_RaisingLookup(), 2)
    # claims: a float32 draft is compared as typed; past 2**53 the same float agrees however typed
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        claims.check("a", np.float32(0.1), 0.10000000149011612, 9)
        claims.check("b", np.float32(0.1), 0.10000000149011612, 17)
        claims.check("c", 1e23, 1e23, 0)
        claims.check("d", np.float32(1e23), 1e23, 0)
        claims.check("e", memoryview(np.float32([0.1])), [0.1], 9)
        claims.check("f", type("S", (), {"__array__": lambda s, dtype=None, copy=None: np.float32([0.1])})(), [0.1], 9)
    verdicts = [line.rsplit("-> ", 1)[1] for line in out.getvalue().splitlines()]
    assert verdicts == ["DIFFERS", "DIFFERS", "agrees", "agrees", "agrees", "agrees"]
    # preset names the font cannot draw are refused by name, before a glyph warning
    with pytest.raises(ValueError, match=r"presets must have names the figure's font can draw"):
        explorers_mod.one_hot_cost_explorer([("\u901a\u4e49\u5343\u95ee", 151936, 896)])
    # practice: counts are ints, NumPy integers or 0-d integer arrays, never timedeltas or look-alikes
    count = embedlab.param_count
    assert not practice.check(
        lambda V, d, tied, bias: np.timedelta64(count(V, d, tied=tied, output_bias=bias)), "head_params"
    ).passed
    assert not practice.check(lambda V, d, tied, bias: np.timedelta64(24, "s"), "head_params").passed
    assert practice.check(
        lambda V, d, tied, bias: np.array(count(V, d, tied=tied, output_bias=bias)), "head_params"
    ).passed
    fake = type("Fake", (), {"__class__": property(lambda s: np.ndarray)})
    assert not practice.check(lambda z: fake(), "stable_softmax").passed
    # practice: answers the listed cases once let through now fail
    assert not practice.check(
        lambda t, n: 1 / (1 + n * math.exp(-t)) if t >= 0 else 0.0, "p_top"
    ).passed  # 0 for every negative t
    assert not practice.check(
        lambda z: (lambda e: e / e.sum(-1, keepdims=True))(np.exp(z - z.mean(-1, keepdims=True))), "stable_softmax"
    ).passed  # shifted by the mean
    long_name = type("E" * 10**6, (Exception,), {})
    report = practice.check(lambda z: (_ for _ in ()).throw(long_name()), "stable_softmax")
    assert all(len(line) <= practice.WIDTH for line in str(report).splitlines())
    formatwarning = warnings.formatwarning
    practice.check(lambda z: (setattr(warnings, "formatwarning", lambda *a, **k: "x"), embedlab.softmax(z))[1],
                   "stable_softmax")  # fmt: skip
    assert warnings.formatwarning is formatwarning


def test_hostile_pass_17_rows():
    import collections

    from embedlab import claims, corpus, practice

    # practice: answers right only on the listed cases of pass 16 now fail
    wrong = [
        ("angle_between", lambda u, v: float(np.degrees(np.arccos(round(float(u @ v / (np.linalg.norm(u) *
                                                                                     np.linalg.norm(v))), 9))))),
        ("embed_rows", lambda E, ids: E[ids] if ids[0] >= 0 else (_ for _ in ()).throw(ValueError("negative"))),
        ("p_top", lambda t, n: 0.0 if t < -30 else (1 / (1 + n * math.exp(-t)) if t >= 0
                                                    else math.exp(t) / (math.exp(t) + n))),
        ("logit_gap", lambda p, n: min(30.0, max(-30.0, math.log(n) + math.log(p) - math.log1p(-p)))),
    ]  # fmt: skip
    for name, fn in wrong:
        assert not practice.check(fn, name).passed, name
    report = practice.check(lambda z: (_ for _ in ()).throw(ValueError("bad input\n" + "b" * 200)), "stable_softmax")
    assert all(len(line) <= practice.WIDTH for line in str(report).splitlines())
    action = warnings.defaultaction
    practice.check(lambda z: (setattr(warnings, "defaultaction", "ignore"), embedlab.softmax(z))[1], "stable_softmax")
    assert warnings.defaultaction == action
    # claims: a whole number a float32 holds is read as itself; a namedtuple or list subclass as a list
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        claims.check("a", np.float32(2**30), 2**30, 0)
        claims.check("b", np.float16(32768), 32768, 0)
        claims.check("c", np.float32(2**40), np.float32(2**40), 0)
        point = collections.namedtuple("P", "a b")
        claims.check("d", point(np.float32(0.1), 0.2), [0.1, 0.2], 9)
        claims.check("e", type("L", (list,), {})([np.float32(0.1), 0.2]), [0.1, 0.2], 9)
    assert [line.rsplit("-> ", 1)[1] for line in out.getvalue().splitlines()] == ["agrees"] * 5
    # _validation: an item's own __class__ never runs while a list is sized
    with pytest.raises(TypeError, match="z must hold numbers, got 'X', which redefines __class__"):
        embedlab.softmax([type("X", (), {"__class__": property(lambda s: 1 / 0)})()])
    # context_windows reads mixed NumPy integer ids exactly, and names the range past intp
    contexts, targets = corpus.context_windows([[np.int64(0), np.uint64(3)]], 1)
    assert contexts.tolist() == [[0]] and targets.tolist() == [3]
    with pytest.raises(ValueError, match=r"sentences must be in \[0, "):
        corpus.context_windows([[0, 2**70]], 1)
    # preset names the bold face (titles) cannot draw are refused too
    with pytest.raises(ValueError, match="presets must have names the figure's font can draw"):
        explorers_mod.one_hot_cost_explorer([("\U0001d5a0\U0001d5a1 model", 1000, 64)])


def test_hostile_pass_18_rows():
    from embedlab import claims, corpus, practice

    # a number subclass that redefines __class__ is refused by name, in a list and bare
    int_liar = type("I", (int,), {"__class__": property(lambda s: 1 / 0)})
    float_liar = type("F", (float,), {"__class__": property(lambda s: 1 / 0)})
    for call, name in (
        (lambda: embedlab.lookup(np.eye(3), [0, int_liar(1)]), "ids"),
        (lambda: corpus.context_windows([[0, int_liar(1)]], 1), "sentences"),
        (lambda: embedlab.one_hot([int_liar(1)], 3), "ids"),
        (lambda: claims.check("x", [float_liar(1.0)], 1.0, 0), "draft"),
        (lambda: embedlab.softmax(float_liar(1.0)), "z"),
        (lambda: embedlab.saturation_prob(float_liar(1.0), 3), "t"),
        (lambda: embedlab.param_count(int_liar(3), 4, tied=True), "vocab_size"),
    ):
        with pytest.raises(TypeError, match=rf"{name} must hold numbers, got '[IF]', which redefines __class__"):
            call()
    # the largest id below 2**63 is a token id
    assert corpus.context_windows([[0, 2**63 - 1]], 1)[1].tolist() == [2**63 - 1]

    # a near miss is not blamed on float32 or rounding alone; case 5's hint is its own, not a mean shift's
    def eps_softmax(z):
        e = np.exp(z - z.max(axis=-1, keepdims=True))
        return e / (e.sum(axis=-1, keepdims=True) + 1e-7)

    assert "an epsilon" in practice.check(eps_softmax, "stable_softmax").hint

    def clipped_softmax(z):
        e = np.exp(z - z.max(axis=-1, keepdims=True))
        return np.clip(e / e.sum(axis=-1, keepdims=True), 1e-7, 1)

    report = practice.check(clipped_softmax, "stable_softmax")
    assert report.label == "a row from -1000 to 1000" and "mean or a median" not in report.hint


def test_hostile_pass_19_rows():
    """A metaclass that redefines __mro__ can neither run code in the __class__ guard nor hide a redefinition."""

    class RaisingMro(type):
        __mro__ = property(lambda c: 1 / 0)

    class HidingMro(type):
        __mro__ = property(lambda c: (c, object))

    class OddMro(type):
        __mro__ = property(lambda c: (1, 2))

    class Liar:
        __class__ = property(lambda s: float)

    raising = RaisingMro("F", (float,), {})
    hidden = HidingMro("H", (Liar,), {"__float__": lambda s: 1.0})
    odd = OddMro("G", (float,), {})
    for call, name in (
        (lambda: embedlab.softmax([raising(1.0), 2.0]), "z"),
        (lambda: embedlab.softmax(raising(1.0)), "z"),
        (lambda: embedlab.saturation_prob(hidden(), 3), "t"),
        (lambda: embedlab.softmax([odd(1.0), 2.0]), "z"),
    ):
        with pytest.raises(
            TypeError,
            match=rf"{name} must hold (numbers|plain values), got (an object of )?'[FHG]', "
            "(which redefines __class__|whose metaclass redefines)",
        ):
            call()


def test_float_range_digits_are_decimal_places_down_to_the_smallest_float():
    # digits counts decimal places, so a step of 1e-20 needs more than 17 of them; the refusal says how many
    assert float_range(1e-20, 5e-20, 1e-20, 21) == (1e-20, 2e-20, 3e-20, 4e-20, 5e-20)  # clean labels
    with pytest.raises(ValueError, match=r"17 decimal places round steps of 1e-20 .*; digits=20 keeps them"):
        float_range(1e-20, 5e-20, 1e-20, 17)
    with pytest.raises(ValueError, match=r"digits must be in \[0, 341\].*got 342"):
        float_range(0, 1, 0.5, 342)
    # every suggested digits is one that works, and the value it gives is the grid itself
    rng = np.random.default_rng(19)
    for _ in range(300):
        step = float(10.0 ** rng.uniform(-300, 2) * rng.choice([1, 1.5, 2.5, 3]))
        start = float(rng.integers(-5, 5)) * step
        steps = int(rng.integers(1, 40))
        stop = start + steps * step
        digits = int(rng.integers(0, 8))
        try:
            values = float_range(start, stop, step, digits)
        except ValueError as err:
            suggested = re.search(r"digits=(\d+) keeps them", str(err))
            assert suggested, err
            digits = int(suggested.group(1))
            values = float_range(start, stop, step, digits)
        assert all(b > a for a, b in itertools.pairwise(values)) and values[-1] <= stop
        assert len(values) == steps + 1, (start, stop, step, digits)  # stop is on the grid: it is reached
        # each value is within half a unit of its last place of the grid, so each gap within one unit of step
        assert np.allclose(np.diff(values), step, rtol=1e-9, atol=10.0**-digits), (start, stop, step, digits)


def test_hostile_pass_8_adam_sized_under_an_address_space_limit():
    call = (
        "p = {'E': np.ones((90000, 1000), np.float32)}; st = embedlab.train.adam_state(p); "
        "embedlab.train.adam_step(p, {'E': np.full_like(p['E'], 0.5)}, st, 0.1)"
    )
    test_hostile_pass_6_sizes_under_an_address_space_limit(call)


# ---------------------------------------------------------------- issue 19: what hostile pass 20 found
def _boom(*args: Any) -> Any:
    raise ZeroDivisionError("boom")


class _RaisingInt(int):  # an int whose own conversions and comparisons raise
    __int__ = __index__ = __lt__ = __le__ = __gt__ = __ge__ = _boom


class _RaisingFloat(float):  # a float whose own conversion and comparisons raise
    __float__ = __lt__ = __le__ = __gt__ = __ge__ = _boom


def _liar(claims: type) -> Any:
    """An object that claims, through __getattribute__, to be of class ``claims``; its conversions raise."""
    cls = type(
        "G",
        (),
        {
            "__getattribute__": lambda s, n: claims if n == "__class__" else object.__getattribute__(s, n),
            "__int__": _boom,
            "__index__": _boom,
            "__float__": _boom,
        },
    )
    return cls()


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: embedlab.saturation_prob(_liar(float), 3), "t"),
        (lambda: embedlab.param_count(_liar(int), 4, tied=True), "vocab_size"),
        (lambda: embedlab.lookup(np.eye(3), _liar(int)), "ids"),
        (lambda: embedlab.lookup(np.eye(3), [0, _liar(int)]), "ids"),
        (lambda: embedlab.softmax(np.ones((2, 2)), axis=_liar(int)), "axis"),
        (lambda: float_range(0, 1, 0.5, _liar(int)), "digits"),
        (lambda: practice_mod.task(_liar(int)), "name"),
        (lambda: make_corpus(seed=_liar(int)), "seed"),
        (lambda: Control("a", "a", (1, 2)).snap(_liar(int)), "a"),
        (lambda: Control("a", "a", (_liar(float), 2.0)), "values of control 'a'"),
    ],
)
def test_hostile_pass_20_liars_through_getattribute_are_refused(call, name):
    """A class that answers __class__ through __getattribute__ passes for any class: refused by name."""
    with pytest.raises(TypeError, match=rf"^{re.escape(name)} must"):
        call()


@pytest.mark.parametrize(
    ("call", "plain"),
    [
        (lambda: embedlab.param_count(_RaisingInt(3), _RaisingInt(4), tied=True), lambda: param_count(3, 4, tied=True)),
        (lambda: embedlab.one_hot([0, 2], _RaisingInt(3)), lambda: one_hot([0, 2], 3)),
        (lambda: in_plane(_RaisingFloat(30.0), np.eye(2, 3)), lambda: in_plane(30.0, np.eye(2, 3))),
        (lambda: embedlab.budget.padded_vocab(_RaisingInt(50257), _RaisingInt(64)), lambda: 50304),
        (lambda: embedlab.scale.random_logits(8, seed=_RaisingInt(1)), lambda: embedlab.scale.random_logits(8, seed=1)),
        (lambda: softmax(np.ones((2, 3)), axis=_RaisingInt(1)), lambda: softmax(np.ones((2, 3)), axis=1)),
        (lambda: float_range(0, 1, 0.5, _RaisingInt(2)), lambda: (0.0, 0.5, 1.0)),
        (lambda: t_quantile(_RaisingFloat(0.975), 10), lambda: t_quantile(0.975, 10)),
        (lambda: t_interval([1.0, 2.0, 4.0], level=_RaisingFloat(0.9)), lambda: t_interval([1.0, 2.0, 4.0], level=0.9)),
        (lambda: quiz_mod.within(_RaisingFloat(1.0), 1.05, 0.1), lambda: True),
        (lambda: display.check_figsize((_RaisingFloat(5.0), 3)), lambda: (5.0, 3.0)),
        (lambda: Control("a", "a", (_RaisingInt(1), 2)).snap(_RaisingFloat(1.9)), lambda: 2),
        (
            lambda: make_corpus(seed=_RaisingInt(0), n_train=5, zipf_exponent=_RaisingFloat(1.3)).train[0].tolist(),
            lambda: make_corpus(seed=0, n_train=5).train[0].tolist(),
        ),
    ],
)
def test_hostile_pass_20_number_subclasses_are_read_by_their_stored_value(call, plain):
    """An int or float subclass whose own __int__, __float__ or comparisons raise is read by the value it
    holds (as Python's and NumPy's own types hold it): the right answer, never the subclass's exception."""
    got, want = call(), plain()
    if isinstance(want, np.ndarray):
        np.testing.assert_array_equal(got, want)
    else:
        assert got == want


def test_hostile_pass_20_practice_reports_what_the_learners_function_does():
    """A raised exception whose metaclass breaks __name__, and exit(), are reported, not raised."""

    class Meta(type):
        __name__ = property(_boom)

    Broken = Meta("Broken", (Exception,), {})

    def raises(z):
        raise Broken()

    def returns(z):
        return Broken()

    def leaves(z):
        raise SystemExit(3)

    for fn, words in ((raises, "raised Broken"), (returns, "Broken"), (leaves, "raised SystemExit")):
        report = practice_mod.check(fn, "stable_softmax")
        assert not report.passed and words in str(report), str(report)


@pytest.mark.timeout(60)
def test_hostile_pass_20_report_wraps_a_long_word_in_linear_time():
    # The wrap's pattern once retried from every letter of a long word: 400,000 letters took hours.
    text = str(practice_mod.Report("t", 1, passed=False, case=1, label="a" * 400_000))
    assert text.count("a") >= 400_000


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: explorers_mod.one_hot_cost_explorer([("a", 10**200, 10**200)]), ValueError, "presets: V x d"),
        (lambda: explorers_mod.one_hot_cost_explorer([("a|b", 4, 3)]), ValueError, "presets must have names"),
        (lambda: explorers_mod.one_hot_cost_explorer([("a", 4, 3)] * 10**5), ValueError, "presets must hold at most"),
        (
            lambda: explorers_mod.one_hot_cost_explorer([type("L", (list,), {"__iter__": _boom})(["a", 4, 3])]),
            TypeError,
            "presets must hold",
        ),
        (lambda: display.check_figsize((10**400, 3)), ValueError, "figsize must be two positive numbers"),
        (lambda: display.check_figsize({0: "5", 1: "3"}), TypeError, "figsize must be a"),
        (lambda: display.check_figsize({1.0, 2.0}), TypeError, "figsize must be a"),
        (lambda: plots_mod.new_figure(figsize=(5e-324, 3.0)), ValueError, "figsize must be two positive numbers"),
        (lambda: embedlab.widgets.png_bytes(_tiny_figure()), ValueError, "fig must be a figure of at"),
        (lambda: Control("a", "a", itertools.count()), ValueError, "values of control 'a' must hold at most"),
        (lambda: Control("a", "a", (type("H", (), {"__hash__": _boom})(),)), TypeError, "values of control 'a'"),
        (lambda: quiz_mod.Exercise("q?", 0.5, solution="s", abs_tol=0.1, fmt="{:>1500000000}"), ValueError, "fmt"),
        (lambda: quiz_mod.Exercise("q?", 0.5, solution="s", abs_tol=0.1, fmt="{:.500000000f}"), ValueError, "fmt"),
        (lambda: Control("a", "a", (1, 2), fmt="{:>2000000000}"), ValueError, "fmt of control 'a' must not"),
        (lambda: embedlab.logits.check_context(np.ones(3), 10**400, np.float64), ValueError, "d must be"),
    ],
)
def test_hostile_pass_20_rows(call, error, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(error, match=f"^{re.escape(words)}"):
            call()


def _tiny_figure() -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(5e-324, 3.0))


@pytest.mark.timeout(120)
def test_hostile_pass_20_endless_sentences_are_refused_at_the_count():
    """An endless iterator of sentences is refused once it passes the most sentences allowed (it once took minutes)."""
    with pytest.raises(ValueError, match="sentences must hold at most 1,500,000 sentences"):
        embedlab.corpus.context_windows(itertools.repeat([0, 1]), 2)


# ---------------------------------------------------------------- issue 19: what hostile pass 21 found
class _NumpyLiar(np.int64):  # a NumPy int whose own conversion answers another number
    def __int__(self) -> int:
        return 0

    __index__ = __int__


class _RegisteredInt:  # an Integral by registration only: only its own methods could say what it holds
    __int__ = __index__ = __lt__ = __float__ = _boom


class _RegisteredReal:
    __float__ = _boom


import numbers as _numbers  # noqa: E402

_numbers.Integral.register(_RegisteredInt)
_numbers.Real.register(_RegisteredReal)


def _sized(length: int, items: Any = ()) -> Any:
    """A list subclass whose __len__ answers ``length`` and whose __iter__ yields ``items``."""
    return type("L", (list,), {"__len__": lambda s: length, "__iter__": lambda s: iter(items)})()


def _setup_resizing(fig, ax):
    fig.set_size_inches(100, 100)
    return (lambda a: "x"), []


def _partly(n: int) -> Any:
    yield from range(n)
    raise RuntimeError("partway")


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: Control("a", "a", [10**9], fmt="{0:{0}}"), ValueError, "fmt of control 'a' must not nest"),
        (
            lambda: quiz_mod.Exercise("q?", 5e9, abs_tol=1, solution="s", fmt="{0:{0:.0f}}"),
            ValueError,
            "fmt must not nest",
        ),
        (lambda: embedlab._validation.check_size(_NumpyLiar(5), "n"), TypeError, "n must hold plain numbers"),
        (lambda: lookup(embedlab.E_TOY, _NumpyLiar(1)), TypeError, "ids must hold plain numbers"),
        (lambda: lookup(embedlab.E_TOY, [_NumpyLiar(1), 0]), TypeError, "ids must hold plain numbers"),
        (lambda: check("x", _NumpyLiar(1), 0.25, 2), TypeError, "draft must hold plain numbers"),
        (lambda: lookup(embedlab.E_TOY, _RegisteredInt()), TypeError, "ids must hold plain numbers"),
        (lambda: lookup(embedlab.E_TOY, [_RegisteredInt(), 1]), TypeError, "ids must hold plain numbers"),
        (lambda: check("x", _RegisteredReal(), 0.25, 2), TypeError, "draft must hold plain numbers"),
        (lambda: param_count(_RegisteredInt(), 3, tied=True), TypeError, "vocab_size must"),
        (lambda: embedlab._validation.check_size(np.timedelta64(3), "n"), TypeError, "n must hold plain numbers"),
        (lambda: embedlab.widgets.png_bytes(_figure((100, 100), 300)), ValueError, "fig must be a figure of at"),
        (lambda: embedlab.widgets.png_bytes(_figure((1, 1), 0.001)), ValueError, "fig must be a figure of at"),
        (lambda: display.css_size(_figure((1, 1), float("nan"))), ValueError, "fig must be a figure of at"),
        (
            lambda: Explorer("t", [Control("a", "a", (1, 2))], _setup_resizing),
            ValueError,
            "setup must leave the figure drawable",
        ),
        (lambda: display.check_figsize(_sized(2, itertools.repeat(2.0))), TypeError, "figsize must be a"),
        (lambda: explorers_mod.one_hot_cost_explorer(_sized(2**70)), TypeError, "presets must be a sequence"),
        (
            lambda: explorers_mod.one_hot_cost_explorer(_sized(1, [("a", 2, 3)] * 10**6)),
            TypeError,
            "presets must be a sequence",
        ),
        (
            lambda: explorers_mod.one_hot_cost_explorer([(type("S", (str,), {"isprintable": _boom})("ab"), 2, 3)]),
            TypeError,
            "presets must hold",
        ),
        (lambda: Control("a", "a", _sized(2**70)), ValueError, "values of control 'a' must not be empty"),  # as held
        (lambda: Control("a", "a", _partly(3)), TypeError, "values of control 'a' must be a sequence"),
        (lambda: Control("a", "a", [None, "x"]), ValueError, "values of control 'a' must not hold None"),
    ],
)
def test_hostile_pass_21_rows(call, error, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(error, match=f"^{re.escape(words)}"):
            call()


def _figure(size: tuple[float, float], dpi: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=size, dpi=dpi)


def test_hostile_pass_21_drawable_figures_are_not_refused():
    """Figures a caller may pass, and what fit makes of them, stay drawable; a float16 width warns nothing."""
    from matplotlib.figure import Figure

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert display.text_sizes_css(Figure(), np.float16(2.5)) == []
        for size in ((1, 50), (100, 1)):
            fig = display.fit(Figure(figsize=size))
            w, h = display.css_size(fig)
            assert w == display.CSS_WIDTH and h >= 1
            assert display.figure_png(fig)[1] == {"width": display.CSS_WIDTH}
        ex = Explorer("t", [Control("a", "a", (1, 2))], lambda f, a: ((lambda a: "x"), []), figsize=(50, 0.25))
        assert ex.css_size[1] >= 1
    assert Control("a", "a", [1, 2], value=2.0).value == 2 and type(Control("a", "a", [1, 2], value=2.0).value) is int


# ---------------------------------------------------------------- issue 19: what hostile pass 22 found
def test_hostile_pass_22_int_subclasses_in_lists_are_read_by_their_stored_value():
    """Items of a list are read through int's own methods too (a subclass's __int__ raises here)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(lookup(np.eye(3), [_RaisingInt(1), np.uint64(2)]), np.eye(3)[[1, 2]])
        assert cross_entropy(np.zeros((2, 3)), [_RaisingInt(1), np.uint64(2)]) == pytest.approx(math.log(3))
        assert check("x", [_RaisingInt(3), 0.5], [3, 0.5], 1) == check("x", [3, 0.5], [3, 0.5], 1)
        assert embedlab.train.matched_width(100, _RaisingInt(16)) == embedlab.train.matched_width(100, 16)
        np.testing.assert_array_equal(softmax([_RaisingInt(2**60), 0.5]), [1.0, 0.0])  # exp(0.5 - 2**60) is 0
        with pytest.raises(ValueError, match=r"^a must hold integers of at most 2\*\*53"):
            dot([_RaisingInt(2**60 + 1), 0.5], [1, 1])


def test_hostile_pass_22_uint64_token_indexes_draw_the_same_figure():
    z = np.random.default_rng(22).normal(size=(50, 4))
    fig_int, _ = figures_mod.tie_scatter(z, z + 0.1, 0, 1)
    fig_u64, _ = figures_mod.tie_scatter(z, z + 0.1, np.uint64(0), 1)
    assert embedlab.widgets.png_bytes(fig_u64) == embedlab.widgets.png_bytes(fig_int)


def test_hostile_pass_22_figures_fitted_for_the_book():
    """figure_png judges a figure at the size it draws it (fitted), and leaves it as it was, refused or not."""
    import matplotlib.pyplot as plt

    tall = plt.figure(figsize=(6.4, 60), dpi=100)
    with pytest.raises(ValueError, match=r"^fig must fit the book's width"):
        display.figure_png(tall)
    assert tuple(tall.get_size_inches()) == (6.4, 60.0) and tall.dpi == 100
    sharp = plt.subplots(figsize=(20, 12), dpi=300)[0]
    assert display.figure_png(sharp)[1] == {"width": display.CSS_WIDTH} and sharp.dpi == 300
    wide = display.fit(plt.figure(figsize=(150, 10), dpi=10))
    assert display.css_size(wide)[0] == display.CSS_WIDTH
    plt.close("all")
    ex = Explorer("t", [Control("a", "a", (1, 2))], lambda f, a: ((lambda a: "x"), []), figsize=np.array([6.0, 3.2]))
    assert ex.css_size[0] == display.CSS_WIDTH
    halves = make_corpus(n_train=5, p_adjective=Fraction(1, 2)).train, make_corpus(n_train=5, p_adjective=0.5).train
    assert [s.tolist() for s in halves[0]] == [s.tolist() for s in halves[1]]
    with pytest.raises(ValueError, match=r"^values of control 'a' must hold at most 100,000 values, got 1"):
        Control("a", "a", range(10**20))


# ---------------------------------------------------------------- issue 19: what hostile pass 23 found
# An Integral by inheritance (not registration) whose every method raises, its own conversions too.
_DerivedIntegral = type(
    "_DerivedIntegral", (_numbers.Integral,), {m: _boom for m in (*_numbers.Integral.__abstractmethods__, "__index__")}
)


class _RaisingComparisons(int):
    __lt__ = __gt__ = __le__ = __ge__ = _boom


def _setup_returning(dynamic: Any) -> Any:
    return lambda fig, ax: ((lambda a: ""), dynamic)


_SELF_CONTAINING: list = []
_SELF_CONTAINING.append(_SELF_CONTAINING)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: lookup(embedlab.E_TOY, [_DerivedIntegral(), 1]), TypeError, "ids must hold integers"),
        (lambda: softmax([_DerivedIntegral(), 2]), TypeError, "z must hold integers"),
        (
            lambda: embedlab._validation.check_float_array([_RaisingComparisons(3), -(2**70), 2**64 - 1], "x"),
            ValueError,
            "x must hold integers",
        ),
        (lambda: Explorer("T", [Control("a", "A", (0, 1))], _setup_returning([5])), TypeError, "setup must return"),
        (lambda: Explorer("T", [Control("a", "A", (0, 1))], _setup_returning([None])), TypeError, "setup must return"),
        (
            lambda: Explorer("T", [Control("a", "A", (0, 1))], _setup_returning({"a": 1})),
            TypeError,
            "setup must return",
        ),
        (
            lambda: Explorer("T", [Control("a", "A", (0, 1))], _setup_returning(_SELF_CONTAINING)),
            TypeError,
            "setup must return",
        ),
        (lambda: Control("x", "X", (0, 1, 2)).snap(True), ValueError, "x must be one of"),
        (lambda: Control("x", "X", (0, 1, 2)).snap(1 + 0j), ValueError, "x must be one of"),
        (lambda: Control("x", "X", (0, 1, 2), value=True), ValueError, "value of control 'x' must be one of"),
        (
            lambda: quiz_mod.Exercise("q", np.array(["a", "b"]), choices=["a", "b"], solution="s"),
            TypeError,
            "answer must be one of the choices",
        ),
        (lambda: quiz_mod.Exercise("q", 1.0, abs_tol=0.1, solution="s").check(1.0), TypeError, "response must be"),
    ],
)
def test_hostile_pass_23_rows(call, error, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(error, match=f"^{re.escape(words)}"):
            call()


def test_hostile_pass_23_int_subclass_comparisons_never_run():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(softmax([_RaisingComparisons(3), 2**70]), softmax([3, 2**70]))


def test_hostile_pass_23_huge_figures_fit_and_dollar_labels_draw():
    from matplotlib.figure import Figure

    assert display.css_size(display.fit(Figure(figsize=(1e308, 1e308)))) == (display.CSS_WIDTH, display.CSS_WIDTH)
    z = np.random.default_rng(23).normal(size=(4, 4))
    fig, _ = figures_mod.tie_scatter(z, z + 0.1, 0, 1, labels=["$\\foo$", "b", "c", "d"])
    assert embedlab.widgets.png_bytes(fig)  # drawn as typed, not read as mathtext


# ---------------------------------------------------------------- issue 19: what hostile pass 24 found
def test_hostile_pass_24_params_with_a_non_str_key_are_refused_by_name():
    params = {**embedlab.train.init_params(5, 3, tied=True), 1: np.ones(1)}
    with pytest.raises(TypeError, match=r"^params must have str keys"):
        embedlab.train.loss(params, (np.array([[0, 1, 2]]), np.array([3])))


# ---------------------------------------------------------------- hostile pass 25 (explorers, train, train_plots)
def _c25():
    return make_corpus(0, n_train=20, n_valid=10, n_test=10)


def _r25():
    return embedlab.train.compare((0, 1), _c25(), d=4, steps=2, n_checkpoints=2)


def _touchy_zoom():
    return type("F", (float,), {"__ge__": lambda *a: 1 / 0, "__le__": lambda *a: 1 / 0})(0.6)


def _hand_result(**change):
    """A CompareResult built by hand from a real one, with one part changed."""
    R = _r25()
    parts = {"corpus": R.corpus, "configs": R.configs, "runs": R.runs, "seeds": R.seeds, **change}
    return embedlab.train.CompareResult(**parts)


def _np_int_subclass_in_objects():
    L = type("L", (np.int64,), {"__int__": lambda s: 0, "__index__": lambda s: 0})
    a = np.empty(1, object)
    a[0] = L(1)
    return a


def _liar_in_objects():
    Liar = type("Liar", (), {"__class__": property(lambda s: int), "__int__": lambda s: 1})
    a = np.empty(1, object)
    a[0] = Liar()
    return a


def _huge_font_setup(fig, ax):
    return (lambda x: "r"), [ax.text(0, 0, "x", fontsize=1e5)]


def _drawn(fig):
    return embedlab.widgets.png_bytes(fig)


def _bars_with(labels=("a", "b"), label=None):
    ax = plots_mod.new_figure()[1]
    plots_mod.bars([1.0, 2.0], list(labels), ax, label=label)
    return _drawn(ax.figure)


def _other_checkpoints():
    C = _c25()
    a = embedlab.train.compare((0, 1), C, d=4, steps=2, n_checkpoints=3)
    b = embedlab.train.compare((0, 1), C, d=4, steps=2, n_checkpoints=2)
    return embedlab.train.CompareResult(C, a.configs, {**a.runs, "untied": b.runs["untied"]}, a.seeds)


def _no_steps(run):
    return dataclasses.replace(run, steps=0)


HUGE = 10**5000
LONG = "x" * 10**6
TP = embedlab.train_plots


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        # integers past 4,300 digits named, not written out
        (lambda: embedlab.train.init_params(5, 3, tied=True, seed=-HUGE), ValueError, "seed"),
        (lambda: embedlab.train.compare((-HUGE,), _c25(), d=4, steps=2), ValueError, "seeds"),
        (lambda: embedlab.train.train(_c25(), tied=True, d=4, steps=2, optimizer=HUGE), TypeError, "optimizer"),
        (
            lambda: embedlab.train.train(_c25(), tied=True, d=4, steps=2, optimizer="adamw", weight_decay=HUGE),
            ValueError,
            "weight_decay",
        ),
        (lambda: make_corpus(-HUGE, n_train=5), ValueError, "seed"),
        (
            lambda: SweepSpec(
                data_sizes=(-HUGE,), widths=(4,), hidden=(False,), lrs=(0.02,), seeds=(0, 1), draws=(0,),
                n_valid=10, n_test=10, max_steps=4, eval_every=2, patience=1,
            ),
            ValueError,
            "data_sizes",
        ),
        (lambda: TP.geometry_panels(_r25(), HUGE), ValueError, "seed_index"),
        (lambda: TP.training_explorer(_r25(), "tied", HUGE), ValueError, "seed_index"),
        (lambda: TP.loss_curves(_r25(), zoom=HUGE), ValueError, "zoom"),
        (lambda: _r25().curves("tied", HUGE), TypeError, "which"),
        (lambda: embedlab.logits.check_context([1.0], 1, HUGE), TypeError, "dtype"),
        (lambda: plots_mod.curve([0, 1], [0, 1], label=HUGE), TypeError, "label"),
        (lambda: plots_mod.marker(0, 1, label=HUGE), TypeError, "label"),
        # a subclass's own comparisons never run
        (lambda: TP.loss_curves(_r25(), zoom=_touchy_zoom()), None, None),
        (lambda: TP.loss_curves(_r25(), zoom=np.float32(0.6)), None, None),
        # object arrays read as check_ids reads lists
        (lambda: embedlab.lookup(embedlab.E_TOY, _np_int_subclass_in_objects()), TypeError, "ids"),
        (lambda: embedlab.lookup(embedlab.E_TOY, _liar_in_objects()), TypeError, "ids"),
        (lambda: explorers_mod.alignment_explorer(range(2, 3)), TypeError, "token"),
        # what matplotlib cannot draw is refused by name
        (lambda: Explorer("t", [Control("x", "x", (0, 1))], _huge_font_setup), ValueError, "setup"),
        (lambda: _bars_with(("a\tb", "b")), ValueError, "labels"),
        (lambda: _bars_with(("a\x00", "b")), ValueError, "labels"),
        (lambda: _bars_with(("\ud800", "b")), ValueError, "labels"),
        (lambda: _bars_with(label="a\tb"), ValueError, "label"),
        (lambda: figures_mod.alignment_arrows([1.0, 1.0], {"h\x00": [1.0, 0.0]}), ValueError, "contexts"),
        # the tokenizer's paths
        (lambda: embedlab.gpt2.load_encoding(encoder_path="x" * 5000), ValueError, "encoder_path"),
        (lambda: embedlab.gpt2.load_encoding(encoder_path="a\x00b"), ValueError, "encoder_path"),
        # a CompareResult built by hand is checked where it is made, or where it is read
        (lambda: TP.geometry_panels(_hand_result(runs={"tied": _r25().runs["tied"]},
                                                 configs={"tied": _r25().configs["tied"]})), ValueError, "res"),
        (lambda: _hand_result(configs={k: {"d": v["d"]} for k, v in _r25().configs.items()}), TypeError, "configs"),
        (lambda: _hand_result(runs={**_r25().runs, "untied": _r25().runs["tied"]}), ValueError, "runs"),
        (_other_checkpoints, ValueError, "checkpoints"),
        (lambda: _hand_result(configs={k: {**v, "d": "x"} for k, v in _r25().configs.items()}), TypeError, "d"),
        (
            lambda: _hand_result(runs={**_r25().runs, "tied": [_no_steps(r) for r in _r25().runs["tied"]]}),
            ValueError,
            "steps",
        ),
    ],
)  # fmt: skip
def test_hostile_pass_25_rows(make, error, words):
    _value_or_short_refusal(make, error, words)


def _value_or_short_refusal(make, error, words):
    """``make()`` gives a value with no warning (``error`` None), or refuses with ``error`` naming ``words`` briefly."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if error is None:
            make()
            return
        with pytest.raises(error) as info:
            make()
    message = str(info.value)
    assert words in message, message[:300]
    assert len(message) < 3 * MAX_MESSAGE, f"a message of {len(message):,} characters"


def _legend_drawn(draw):
    """Draw on a new axes, show its legend, return the figure's PNG (math text would fail here)."""
    ax = plots_mod.new_figure()[1]
    draw(ax)
    if ax.get_legend_handles_labels()[1]:
        ax.legend()
    return _drawn(ax.figure)


BAD_MATH = "$\\foo$"  # math text matplotlib cannot parse: drawn as typed, it is plain text


@pytest.mark.parametrize(
    "draw",
    [
        lambda ax: plots_mod.bars([1.0, 2.0], [BAD_MATH, "b"], ax),
        lambda ax: plots_mod.bars([1.0, 2.0], ["a", "b"], ax, label=BAD_MATH),
        lambda ax: plots_mod.heatmap([[1.0], [2.0]], ax, row_labels=[BAD_MATH, "b"]),
        lambda ax: plots_mod.arrows([[1.0, 0.0]], ax, labels=[BAD_MATH]),
        lambda ax: plots_mod.curve([0, 1], [0, 1], ax, label=BAD_MATH),
        lambda ax: plots_mod.marker(0, 1, ax, label=BAD_MATH),
        lambda ax: figures_mod.alignment_arrows([1.0, 1.0], {BAD_MATH: [1.0, 0.0]}, e_label=BAD_MATH, ax=ax),
        lambda ax: TP.geometry_scatter(np.zeros((2, 2)), np.array([BAD_MATH, "b"]), ax),
    ],
)
def test_hostile_pass_25_dollar_signs_are_drawn_as_typed(draw):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _legend_drawn(draw).startswith(b"\x89PNG")


def test_hostile_pass_25_values_read_by_what_they_hold():
    p = {"E": np.ones((2, 2))}
    s = embedlab.train.adam_state(p)
    s["t"] = type("I", (int,), {k: (lambda *a: 1 / 0) for k in ("__lt__", "__le__", "__gt__", "__ge__")})(1)
    embedlab.train.adam_step(p, {"E": np.ones((2, 2))}, s, 0.1)
    assert s["t"] == 2 and type(s["t"]) is int
    A = architectures_mod
    d = vars(A.get_config("GPT-2 small")).copy()
    d["n_positions"] = type("I", (int,), {"__lt__": lambda *a: 1 / 0})(1024)
    assert A.total_params(A.DecoderConfig(**d)) == A.total_params(A.get_config("GPT-2 small"))
    slip = quiz_mod.Slip(type("F", (float,), {"__repr__": lambda s: 1 / 0})(1.0), "f")
    with pytest.raises(ValueError, match="slip"):
        quiz_mod.Exercise("q?", 1.0, abs_tol=0.1, slips=[slip], solution="s")


@pytest.mark.parametrize(
    "make",
    [
        lambda: embedlab.train.train(_c25(), tied=True, d=4, steps=2, optimizer=LONG),
        lambda: _r25().curves("tied", LONG),
        lambda: make_corpus(0, n_train=5).counts(LONG),
        lambda: quiz_mod.Exercise("q?", LONG, choices=["a", "b"], solution="s"),
        lambda: embedlab.gpt2.decode(LONG),
        lambda: Control("a" * 10**6, "l", (1, 2)),
    ],
)
def test_hostile_pass_25_huge_inputs_are_not_repeated_in_messages(make):
    with pytest.raises((TypeError, ValueError)) as info:
        make()
    assert len(str(info.value)) < 3 * MAX_MESSAGE, f"a message of {len(str(info.value)):,} characters"


# ---------------------------------------------------------------- hostile pass 26
def _touchy_str(text):
    """A str whose own ==, hash, format and repr raise: the library must read the text it holds."""
    return _str_with(text, __eq__=1, __hash__=1, __format__=1, __repr__=1)


def _int_with_own_int(value):
    return type("I", (int,), {"__int__": lambda s: value})(90)


@pytest.mark.parametrize(
    "make",
    [
        lambda: architectures_mod.get_config(_touchy_str("GPT-2 small")),
        lambda: architectures_mod.total_params(_touchy_str("GPT-2 small")),
        lambda: architectures_mod.DecoderConfig(
            **{**vars(architectures_mod.get_config("GPT-2 small")), "norm": _touchy_str("layernorm")}
        ),
        lambda: embedlab.budget.param_bytes(50257, 768, tied=True, dtype=_touchy_str("float16")),
        lambda: exercises_mod.get(_touchy_str("F1")),
        lambda: quiz_mod.grade_choice(_touchy_str("a"), "b"),
        lambda: quiz_mod.grade_choice("a", _touchy_str("b")),
        lambda: quiz_mod.Exercise("q?", "a", choices=["a", "b"], solution="s").grade(_touchy_str("a")),
        lambda: embedlab.tokens.token_id(_touchy_str("cat")),
        lambda: embedlab.sweep.model_of(_touchy_str("tied"), 127, 8, True),
        lambda: _r25().curves(_touchy_str("tied")),
        lambda: _r25().drift(_touchy_str("tied")),
        lambda: check(_touchy_str("a"), 0.5, 0.5, 2),
        lambda: Control(_touchy_str("x"), "x", (0, 1)),
    ],
)
def test_hostile_pass_26_str_subclasses_read_as_the_text_they_hold(make):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with contextlib.redirect_stdout(io.StringIO()):
            make()  # a value: none of the subclass's own methods ran


def _setup_with_title(title):
    def setup(fig, ax):
        ax.set_title(title)
        return (lambda x: "r"), []

    return setup


def _bad_title_png(title, draw):
    f, ax = plots_mod.new_figure()
    ax.set_title(title)
    return draw(f)


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: embedlab.geometry.in_plane(_int_with_own_int(0), [[1.0, 0.0], [0.0, 1.0]]), None, None),
        (lambda: check("\ud800", 0.5, 0.5, 2), ValueError, "label"),
        (lambda: _bad_title_png("$\\foo$", embedlab.widgets.png_bytes), ValueError, "fig"),
        (lambda: _bad_title_png("$\\foo$", embedlab.display.figure_png), ValueError, "fig"),
        (lambda: _bad_title_png("a\tb", embedlab.widgets.png_bytes), ValueError, "fig"),
        (lambda: _bad_title_png("a\tb", embedlab.display.figure_png), ValueError, "fig"),
        (
            lambda: Explorer("t", [Control("x", "x", (0, 1))], _setup_with_title("$\\foo$")),
            ValueError,
            "setup",
        ),
    ],
)  # fmt: skip
def test_hostile_pass_26_rows(make, error, words):
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("error")
        if error is None:
            assert np.allclose(make(), [0.0, 1.0])  # 90 degrees, read by the value the int holds
            return
        with pytest.raises(error) as info:
            make()
    assert words in str(info.value) and len(str(info.value)) < 3 * MAX_MESSAGE, str(info.value)[:300]


def test_hostile_pass_26_legend_names_starting_with_an_underscore_are_drawn():
    R = _r25()
    renamed = embedlab.train.CompareResult(
        R.corpus, {"_" + k: v for k, v in R.configs.items()}, {"_" + k: v for k, v in R.runs.items()}, R.seeds
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ax = plots_mod.new_figure()[1]
        TP.loss_curves(renamed, ax)
        shown = [t.get_text() for t in ax.get_legend().get_texts()]
    assert [s.lstrip("\u200b").split(" (d = ")[0] for s in shown] == ["_" + k for k in R.configs]


def test_hostile_pass_26_geometry_track_is_one_pass_over_the_checkpoints(monkeypatch):
    """A million checkpoints of a 96-byte broadcast view: one projection of all, not a Python loop (was 108 s)."""
    view = np.broadcast_to(np.arange(12.0).reshape(1, 4, 3) ** 2, (10**6, 4, 3))
    calls = []
    real = embedlab.train._pca_2d
    monkeypatch.setattr(embedlab.train, "_pca_2d", lambda *a: calls.append(a[2]) or real(*a))
    track = embedlab.train.geometry_track(view)
    assert calls == ["E_checkpoints[-1]"]  # the final checkpoint's axes only; the projection is one product
    assert track.shape == (10**6, 4, 2)
    np.testing.assert_array_equal(track[0], real(view[-1], None, "E")[0])


# ---------------------------------------------------------------- hostile pass 27
def _eq_raises(text, hash_raises=False):
    """A str whose own == raises (and its hash too, when asked)."""
    methods = {"__eq__": lambda *a: 1 / 0, "__hash__": (lambda *a: 1 / 0) if hash_raises else str.__hash__}
    return type("S", (str,), methods)(text)


def _repr_raises(text):
    return _str_with(text, __repr__=1)


def _two_controls():
    return Explorer(
        "t", [Control("x", "x", (0, 1, 2)), Control("y", "y", (0, 1))], lambda f, a: ((lambda x, y: f"x={x}"), [])
    )


def _params_with(key):
    return {**embedlab.train.init_params(5, 3, tied=True), key: 1}


def _spec_dict(**extra):
    return {**embedlab.sweep.load_results().spec.to_dict(), **extra}


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: embedlab.display.check_figsize((6.0, -3.0), name="x" * 10**6), ValueError, "name"),
        (lambda: embedlab.display.check_figure(None, name="x" * 10**6), ValueError, "name"),
        (lambda: embedlab.display.check_figsize((6.0, -3.0), name=5), TypeError, "name"),
        (lambda: embedlab.train.loss(_params_with("x" * 10**6), ([[0, 1]], [3])), ValueError, "params"),
        (lambda: embedlab.train.loss(_params_with(10**5000), ([[0, 1]], [3])), TypeError, "params"),
        (lambda: embedlab.train.adam_state({"x" * 10**6: np.array([np.nan])}), ValueError, "params"),
        (lambda: embedlab.ties.tie_groups({"x" * 10**6: [1.0]}), TypeError, "named"),
        (lambda: SweepSpec.from_dict(_spec_dict(**{"x" * 10**6: 1})), ValueError, "data"),
        (lambda: SweepSpec.from_dict({**_spec_dict(), 10**5000: 1}), TypeError, "data"),
        (lambda: embedlab.train.train(_c25(), tied=True, d=4, steps=2, lr="x" * 10**6), TypeError, "lr"),
        (lambda: _two_controls().update(**{"x" * 10**6: 1}), ValueError, "control"),
        (lambda: embedlab.train.train(_c25(), tied=True, d=4, steps=2, optimizer=_eq_raises("adam", True)), None, None),
        (lambda: TP.training_explorer(_r25(), _eq_raises("tied", True)), None, None),
        (lambda: quiz_mod.Exercise("q?", "a", choices=[_eq_raises("a"), "b"], solution="s"), None, None),
        (lambda: embedlab.train.adam_state({_repr_raises("E"): np.ones(2)}), TypeError, "params"),
        (lambda: TP.loss_curves(_r25(), zoom=np.float16(0.6)), None, None),
        (
            lambda: embedlab.train.CompareResult(
                _r25().corpus, {_eq_raises(k): v for k, v in _r25().configs.items()},
                {_eq_raises(k): v for k, v in _r25().runs.items()}, _r25().seeds,
            ),
            TypeError,
            "configs",
        ),
        (lambda: SweepSpec.from_dict({_eq_raises(k): v for k, v in _spec_dict().items()}), TypeError, "data"),
    ],
)  # fmt: skip
def test_hostile_pass_27_rows(make, error, words):
    _value_or_short_refusal(make, error, words)


def test_hostile_pass_27_a_refused_update_changes_nothing():
    ex = _two_controls()
    before = (dict(ex.values), ex.readout, ex.png())
    for bad in ({"x": 2, "y": "nope"}, {"x": 1, "zz": 3}):
        with pytest.raises(ValueError):
            ex.update(**bad)
        assert (ex.values, ex.readout, ex.png()) == before
    box = ex.widget()
    with pytest.raises(ValueError):
        ex.update(x=2, y="nope")
    assert ex.values == before[0] and [s.index for s in box.children[:2]] == [0, 0]


# ---------------------------------------------------------------- hostile pass 28
def _str_with(text, **methods):
    """A str whose named own methods raise: the library must read the text it holds."""
    return type("S", (str,), {k: (lambda *a, **kw: 1 / 0) for k in methods})(text)


def _point(**change):
    return embedlab.sweep.SweepSpec().points()[0]._replace(**change)


def _records_with(key, value):
    W = embedlab.sweep.load_results()
    records = copy.deepcopy(W.records)
    records[0][key] = value
    return embedlab.sweep.Sweep(W.spec, records, dict(W.meta))


_G28 = np.array([[1.0, 0.0], [0.5, 0.5]])
_ONES3 = np.ones(3)  # one array under two names, one of them part of it


def _exercise(**kw):
    return quiz_mod.Exercise("q?", 1.0, abs_tol=0.1, solution="s", **kw)


def _adam_step_long_key():
    key = "x" * 10**6
    state = embedlab.train.adam_state({key: np.ones(2)})
    return embedlab.train.adam_step({key: np.ones(2)}, {key: np.ones(3)}, state, 0.1)


def _gpt2_named(name):
    return dataclasses.replace(architectures_mod.get_config("GPT-2 small"), name=name)


def _paths(**kw):
    return figures_mod.output_path_panels(_G28, 2 * _G28, [1.0, 0.0], labels=["a", "b"], **kw)


_INT_EQ_RAISES = type("I", (int,), {"__eq__": lambda *a: 1 / 0, "__ne__": lambda *a: 1 / 0, "__hash__": int.__hash__})
_FLOAT_LE_RAISES = type("F", (float,), {"__le__": lambda *a: 1 / 0})
_INT_INT_RAISES = type("I", (int,), {"__int__": lambda s: 1 / 0})
_ZERO_ROW = np.array([[1.0, 0.0], [0.0, 0.0]])


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: embedlab.gpt2.encode(_str_with("abc", encode=1)), None, None),
        (lambda: quiz_mod.Exercise(_str_with("q?", strip=1), 1.0, abs_tol=0.1, solution="s"), None, None),
        (lambda: _exercise(fmt=_str_with("{:.3g}", format=1)), None, None),
        (lambda: quiz_mod.Forecast("q?", 1.0, abs_tol=0.1, trap=_str_with("t", strip=1), settles="s"), None, None),
        (lambda: repr(_exercise(title=_str_with("t", __format__=1))), None, None),
        (lambda: quiz_mod.grade_number("0.5", 0.42, abs_tol=0.01, wrong=_str_with("w", __add__=1)), None, None),
        (lambda: quiz_mod.Exercise(5, 1.0, abs_tol=0.1, solution="s"), TypeError, "question"),
        (_adam_step_long_key, ValueError, "grads"),
        (lambda: embedlab.sweep.run_point(_point(lr=10**400)), ValueError, "lr"),
        (lambda: embedlab.sweep.run_point(_point(draw=_INT_INT_RAISES(0))), None, None),
        (lambda: _records_with("draw", _INT_EQ_RAISES(0)), TypeError, "records"),
        (lambda: _records_with("best_valid", _FLOAT_LE_RAISES(1.0)), TypeError, "records"),
        (lambda: figures_mod.projection_panels([1.0, 1.0], _ZERO_ROW, labels=["a", "\\" * 1000]), ValueError, "row"),
        (lambda: embedlab.ties.tie_groups({"x" * 10**6: _ONES3, "b": _ONES3[:2]}), ValueError, "named"),
        (lambda: architectures_mod.pretraining_head_params(_gpt2_named("x" * 10**6)), ValueError, "name_or_config"),
        (lambda: repr(Explorer(_str_with("t", __format__=1), [Control("x", "x", (0, 1))], _setup_with_title("t"))),
         None, None),
        (lambda: _drawn(_paths(batch_label="$\\foo$")[0]), None, None),  # drawn as typed
        (lambda: _paths(batch_label="a\tb"), ValueError, "batch_label"),
        (lambda: plots_mod.marker(0.5, 0.5, color=_str_with("#E69F00", __eq__=1, __hash__=1)), None, None),
        (lambda: plots_mod.curve([0, 1], [0, 1], color=10**5000), TypeError, "color"),
        (lambda: plots_mod.marker(0.5, 0.5, color="x" * 10**6), ValueError, "color"),
        (lambda: plots_mod.curve([0, 1], [0, 1], linestyle="x" * 10**6), ValueError, "linestyle"),
        (lambda: plots_mod.bars([1.0, 2.0], ["a", "b"], highlight_color="notacolor"), ValueError, "highlight_color"),
    ],
)  # fmt: skip
def test_hostile_pass_28_rows(make, error, words):
    with contextlib.redirect_stdout(io.StringIO()):
        _value_or_short_refusal(make, error, words)


# ---------------------------------------------------------------- pass 29


class _LongSequence(Sequence):
    """An honest sequence of a billion short strings: nothing may walk it before checking its length."""

    def __len__(self):
        return 10**9

    def __getitem__(self, i):
        if not 0 <= range(10**9)[i]:
            raise IndexError(i)
        return "a"


_KEY_EQ_RAISES = type("K", (), {"__eq__": lambda s, o: 1 / 0, "__hash__": object.__hash__})
_FLOAT_FLOAT_RAISES = type("F", (float,), {"__float__": lambda s: 1 / 0})
_FLOAT_FLOAT_LIES = type("F", (float,), {"__float__": lambda s: 0.75})
_STR_REPR_LIES = type("S", (str,), {"__repr__": lambda s: "FAKE"})


def _geometry_update(key):
    classes = np.array(["a", "a"])
    drawn = embedlab.train_plots.geometry_scatter(np.zeros((2, 2)), classes, plots_mod.new_figure()[1])
    return embedlab.train_plots.update_geometry({key: drawn["a"]}, np.zeros((2, 2)), classes)


def _compare_with_inner_key():
    res = embedlab.train.compare((0,), embedlab.corpus.make_corpus(0, n_train=5), d=4, steps=2)
    key = type(
        "K", (), {"on": False, "__hash__": lambda s: hash("tied"), "__eq__": lambda s, o: 1 / 0 if s.on else False}
    )
    inner = key()
    configs = {**res.configs, "tied": {inner: 0, **res.configs["tied"]}}
    inner.on = True
    return embedlab.train.CompareResult(res.corpus, configs, res.runs, res.seeds)


def _adam_step_dict_subclass():
    params = {"E": np.ones((2, 2))}
    state = type("D", (dict,), {"get": lambda *a: 1 / 0})(embedlab.train.adam_state(params))
    return embedlab.train.adam_step(params, {"E": np.ones((2, 2))}, state, 0.1)


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: _geometry_update("x" * 10**6), ValueError, "classes"),
        (lambda: _geometry_update(_KEY_EQ_RAISES()), TypeError, "artists"),
        (lambda: plots_mod.arrows([[1.0, 0.0]], labels=_LongSequence()), TypeError, "labels"),
        (lambda: plots_mod.arrows([[1.0, 0.0]], colors=_LongSequence()), TypeError, "colors"),
        (lambda: plots_mod.curve([0, 1], [0, 1], transform=5), TypeError, "transform"),
        (lambda: plots_mod.curve([0, 1], [0, 1], figure=5), TypeError, "figure"),
        (lambda: plots_mod.curve([0, 1], [0, 1], path_effects=5), TypeError, "path_effects"),
        (lambda: plots_mod.curve([0, 1], [0, 1], agg_filter=5), TypeError, "agg_filter"),
        (lambda: plots_mod.curve([0, 1], [0, 1], alpha=2.0), ValueError, "alpha"),
        (lambda: plots_mod.curve([0, 1], [0, 1], mec="notacolor"), ValueError, "mec"),
        (lambda: plots_mod.curve([0, 1], [0, 1], linestyle="--", marker="o", ms=4, lw=1.5, mfc="white"), None, None),
        (lambda: quiz_mod.grade_number("0.5", 1.0, abs_tol=0.1, slips=[quiz_mod.Slip(_FLOAT_FLOAT_RAISES(0.5), "f")]),
         None, None),
        (lambda: _exercise(fmt="{0:999}" * 5 * 10**6), ValueError, "fmt"),
        (lambda: _exercise(fmt="{0:9}" * 50), ValueError, "fmt"),
        (lambda: Control("x", "x", (1, 2), fmt=lambda v: "|" * 10**6), ValueError, "fmt"),
        (lambda: Control("x", "x", (1, 2), fmt="{0:>999}{0:>999}|"), ValueError, "fmt"),
        (lambda: Control("x", "x", (1, 2), fmt=lambda v: _str_with("a", __contains__=1)), None, None),
        (lambda: embedlab.train.class_cosine([[1.0, 0.0], [2.0, 0.1], [0.0, 1.0]], [_KEY_EQ_RAISES()] * 3),
         TypeError, "classes"),
        (_compare_with_inner_key, TypeError, "configs"),
        (_adam_step_dict_subclass, TypeError, "state"),
        (lambda: embedlab.sweep.model_of(_STR_REPR_LIES("nope"), 127, 8, True), ValueError, "'nope'"),
        (lambda: architectures_mod.get_config(_STR_REPR_LIES("nope")), ValueError, "'nope'"),
        (lambda: _exercise(wrong="a\rb"), ValueError, "wrong"),
        (lambda: quiz_mod.grade_number("5", 1.0, abs_tol=0.1, slips=[quiz_mod.Slip(9.0, "a\x00b")]), ValueError,
         "feedback"),
        (lambda: embedlab.claims.check("x", [_FLOAT_FLOAT_LIES(0.5), 2**60], [0.5, 2.0**60], 2), None, None),
    ],
)  # fmt: skip
def test_hostile_pass_29_rows(make, error, words):
    with contextlib.redirect_stdout(io.StringIO()):
        _value_or_short_refusal(make, error, words)


def test_hostile_pass_29_slip_values_are_read_by_what_they_hold():
    """A slip's value is the number it holds, whatever its own __float__ says."""
    lying = type("F", (float,), {"__float__": lambda s: 1.0})(0.5)
    exercise = _exercise(slips=[quiz_mod.Slip(lying, "half")])  # 0.5 is outside 1.0 +- 0.1: a real slip
    assert exercise.grade("0.5").status == "slip"
    assert exercise.grade("1.0").status == "right"
    got = quiz_mod.grade_number("0.5", 1.0, abs_tol=0.1, slips=[quiz_mod.Slip(lying, "half")])
    assert (got.status, got.message) == ("slip", "half")


# ---------------------------------------------------------------- pass 30


_COS4 = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0], [0.8, 0.6]])


class _OneSentence(Sequence):
    """A sequence of one sentence whose items never run out: read by position, it is one sentence."""

    def __len__(self):
        return 1

    def __getitem__(self, i):
        return "a"


def _adam_step_int_moments():
    params = {"E": np.ones((1, 2))}
    state = embedlab.train.adam_state(params)
    state["m"]["E"] = np.zeros((1, 2), int)
    return embedlab.train.adam_step(params, {"E": np.ones((1, 2))}, state, 0.1)


def _label_pixels_after(change, **first):
    """A bar label drawn, changed by ``change``, drawn again: (pixels, pixels drawn with nothing kept)."""
    fig, ax = plots_mod.new_figure()
    note = plots_mod.bars([1.0], ["a"], ax).annotations[0]
    note.set(**first)
    fig.canvas.draw()
    change(note)
    fig.canvas.draw()
    kept = np.array(fig.canvas.buffer_rgba(), dtype=int)
    saved = dict(plots_mod._TextImages.images)
    try:
        plots_mod._TextImages.images.clear()
        fig.canvas.draw()
        fresh = np.array(fig.canvas.buffer_rgba(), dtype=int)
    finally:
        plots_mod._TextImages.images.update(saved)
    return kept, fresh


@pytest.mark.parametrize(
    ("change", "first"),
    [
        (lambda n: n.set_fontfeatures(["-kern"]), {"text": "AVAVAV", "fontsize": 30}),
        (lambda n: n.set_language("sr"), {"text": "бгдпт", "fontsize": 30, "style": "italic"}),
        (lambda n: plt_mod.rcParams.__setitem__("font.sans-serif", ["DejaVu Serif"]),
         {"text": "0.25", "fontsize": 30, "family": "sans-serif"}),
    ],
)  # fmt: skip
def test_hostile_pass_30_label_pixels_follow_what_changes_them(change, first):
    if first["text"] != "0.25" and not hasattr(Annotation, "set_fontfeatures"):
        pytest.skip("this matplotlib has no font features or language (3.11 added them)")
    with plt_mod.rc_context():
        kept, fresh = _label_pixels_after(change, **first)
    assert np.abs(kept - fresh).max() <= 2


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: plots_mod.curve([0, 1], [0, 1], marker="${}$"), ValueError, "marker"),
        (lambda: plots_mod.curve([0, 1], [0, 1], marker="$" + "{" * 31 + "x" + "}" * 31 + "$"), ValueError, "marker"),
        (lambda: quiz_mod.Forecast("How far?", 3.0, abs_tol=0.1, trap="t", settles="s", unit="m\r"), ValueError,
         "unit"),
        (lambda: quiz_mod.Forecast("How far?", 3.0, abs_tol=0.1, trap="t", settles="s", fmt="{:.4g}\x00"),
         ValueError, "fmt"),
        (_adam_step_int_moments, TypeError, "state['m']"),
        (lambda: embedlab.claims.check("x", _FLOAT_FLOAT_LIES(0.1), 0.1, 2), None, None),
        (lambda: embedlab.train.class_cosine(_COS4, [1, "1", 2, 2]), TypeError, "classes"),
        (lambda: embedlab.train.class_cosine(np.eye(3), ["a", "a", "a"]), ValueError, "classes must include"),
        (lambda: embedlab.gpt2.explorer_html(_OneSentence()), TypeError, "sentences"),
        (lambda: plots_mod.signed2(type("A" * 5000, (), {})()), TypeError, "value"),
        (lambda: plots_mod.curve([0, 1], [0, 1], lw=type("F" * 5000, (float,), {})(1.0)), None, None),
    ],
)  # fmt: skip
def test_hostile_pass_30_rows(make, error, words):
    with contextlib.redirect_stdout(io.StringIO()):
        _value_or_short_refusal(make, error, words)


def test_hostile_pass_30_values_read_rightly():
    """A float subclass that says another number is read by what it holds; labels of NumPy's own types count."""
    lying = type("C", (float,), {"__float__": lambda s: 0.9})
    with contextlib.redirect_stdout(io.StringIO()) as out:
        embedlab.claims.check("x", lying(0.1), 0.1, 2)
    assert "agrees" in out.getvalue()
    want = embedlab.train.class_cosine(_COS4, ["a", "b", "c", "c"])
    assert embedlab.train.class_cosine(_COS4, np.array([np.str_(c) for c in "abcc"], dtype=object)) == want
    assert embedlab.train.class_cosine(_COS4, np.array([np.int64(i) for i in (1, 2, 3, 3)], dtype=object)) == want
    html_out = embedlab.gpt2.explorer_html(["a\x00b\x1b\r c"])
    assert "\x00" not in html_out and "\x1b" not in html_out and "\r" not in html_out
    assert "a\\x00b\\x1b\\r c" in html_out


# ---------------------------------------------------------------- pass 31


def _two_drift_free_runs():
    return embedlab.train.compare((0, 1), embedlab.corpus.make_corpus(0, n_train=5), d=4, steps=2, lr=1e-300)


def _compare_with(**change):
    res = embedlab.train.compare((0, 1), embedlab.corpus.make_corpus(0, n_train=5), d=4, steps=2)
    runs = {k: [dataclasses.replace(x, **{f: v(x) for f, v in change.items()}) for x in v] for k, v in res.runs.items()}
    return embedlab.train.CompareResult(res.corpus, res.configs, runs, res.seeds)


def _compare_config_subclass():
    res = embedlab.train.compare((0, 1), embedlab.corpus.make_corpus(0, n_train=5), d=4, steps=2)
    odd = type("I", (int,), {"__format__": lambda *a: 1 / 0})
    configs = {k: dict(v, n_params=odd(v["n_params"])) for k, v in res.configs.items()}
    return embedlab.train_plots.loss_curves(embedlab.train.CompareResult(res.corpus, configs, res.runs, res.seeds))


def _meta_with_touchy_keys():
    w = embedlab.sweep.load_results()
    key = type("K", (str,), {"__lt__": lambda *a: 1 / 0, "__gt__": lambda *a: 1 / 0})
    return embedlab.sweep.Sweep(w.spec, list(w.records), {key("a"): 1, key("b"): 2})


class _RaisingMapping(Mapping):
    """A mapping whose own __getitem__ fails: reading its items must be refused by name."""

    def __len__(self):
        return 1

    def __iter__(self):
        return iter(["a"])

    def __getitem__(self, key):
        return 1 / 0


_INT_MUL_LIES = type("I", (int,), {"__mul__": lambda s, o: 0, "__rmul__": lambda s, o: 0})
_RAISING_ITEMS = type("D", (dict,), {"items": lambda s: 1 / 0})
_RAISING_GETITEM = type("L", (list,), {"__getitem__": lambda s, i: 1 / 0})


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: plots_mod.curve([0, 1, 2], [0, 1, 0], ls=":", lw=1e-300), ValueError, "lw"),
        (lambda: _drawn(plots_mod.curve([0, 1, 2], [0, 1, 0], ls="--", lw=0.01).figure), None, None),
        (lambda: plots_mod.bars([1.0, 2.0], range(10**20)), TypeError, "labels"),
        (lambda: plots_mod.arrows([[1.0, 0.0]], labels=range(10**20)), TypeError, "labels"),
        (lambda: embedlab.gpt2.explorer_html(range(10**20)), TypeError, "sentences"),
        (lambda: Control("x", "x", (1, 2), fmt=_str_with("{}", format=1)), None, None),
        (lambda: figures_mod.projection_panels([1.0, 0.0], [[1.0, 0.0]], labels=["a"], axes=5), TypeError, "axes"),
        (lambda: figures_mod.projection_panels([1.0, 0.0], [[1.0, 0.0]], labels=["a"], axes=[]), ValueError, "axes"),
        (lambda: figures_mod.projection_panels([1.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], labels=["a", "b"],
                                               axes=plots_mod.new_figure()[1]), ValueError, "axes"),
        (lambda: figures_mod.tie_scatter(np.zeros((3, 4)), np.zeros((3, 4))), None, None),
        (lambda: figures_mod.alignment_arrows([1.0, 0.0], _RAISING_ITEMS({"a": [1.0, 0.0]})), TypeError, "contexts"),
        (lambda: embedlab.train_plots.drift_bars(_two_drift_free_runs()), None, None),
        (lambda: _compare_with(valid_loss=lambda x: np.full(len(x.valid_loss), np.inf)), ValueError, "valid_loss"),
        (lambda: _compare_with(checkpoint_steps=lambda x: np.array(["a"] * len(x.checkpoint_steps))), ValueError,
         "checkpoint_steps"),
        (lambda: _compare_with(rows_touched=lambda x: np.array(["x", "y"])), ValueError, "rows_touched"),
        (_compare_config_subclass, None, None),
        (_meta_with_touchy_keys, TypeError, "meta"),
        (lambda: embedlab.sweep.SweepSpec.from_dict(_RAISING_ITEMS(embedlab.sweep.SweepSpec().to_dict())),
         TypeError, "data"),
        (lambda: embedlab.train.adam_state(_RAISING_ITEMS(E=np.ones((2, 2)))), TypeError, "params"),
        (lambda: plots_mod.arrows([[1.0, 0.0]], labels=_RAISING_GETITEM(["a"])), TypeError, "labels"),
        (lambda: plots_mod.bars([1.0], _RAISING_GETITEM(["a"])), TypeError, "labels"),
        (lambda: embedlab.ties.tie_groups(types_mod.MappingProxyType({"a": np.ones(2)})), None, None),
        (lambda: embedlab.ties.tie_groups(_RaisingMapping()), TypeError, "named"),
        (lambda: embedlab.corpus.context_windows(_RAISING_GETITEM([np.array([0, 1])]), 1), TypeError, "sentences"),
        (lambda: plots_mod.bars([1.0], ["a"], plt_mod.figure().add_subplot(projection="3d")), TypeError, "ax"),
    ],
)  # fmt: skip
def test_hostile_pass_31_rows(make, error, words):
    with contextlib.redirect_stdout(io.StringIO()):
        _value_or_short_refusal(make, error, words)


def test_hostile_pass_31_values_read_rightly():
    """Sizes of a configuration and a control's fmt are read by what they hold; the label cache knows its fonts."""
    config = dataclasses.replace(architectures_mod.get_config("GPT-2 small"), vocab_size=_INT_MUL_LIES(50257))
    assert architectures_mod.total_params(config) == architectures_mod.total_params("GPT-2 small")
    lying_fmt = type("S", (str,), {"format": lambda *a, **k: "LIE"})("{}")
    assert Control("x", "x", (1, 2), fmt=lying_fmt)._shown == ("1", "2")
    if "font.enable_last_resort" in plt_mod.rcParams:
        with plt_mod.rc_context(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the glyph is missing from the font, by design
            kept, fresh = _label_pixels_after(
                lambda n: plt_mod.rcParams.__setitem__("font.enable_last_resort", False), text="\ue000", fontsize=30
            )
        assert np.abs(kept - fresh).max() <= 2
    if hasattr(Annotation, "set_fontfeatures"):
        fig, ax = plots_mod.new_figure()
        note = plots_mod.bars([1.0], ["a"], ax).annotations[0]
        note.set(text="AV" * 12, fontsize=20, fontfeatures=["-kern"])
        fig.canvas.draw()
        got = np.array(fig.canvas.buffer_rgba(), dtype=int)
        note.__class__ = Annotation  # matplotlib's own drawing: the text set wider than its measure is drawn whole
        fig.canvas.draw()
        want = np.array(fig.canvas.buffer_rgba(), dtype=int)
        assert abs(int((got < 128).sum()) - int((want < 128).sum())) < 0.1 * int((want < 128).sum())


_BROADCAST_BIG = 10**9  # a width whose full (V, d) arrays would not fit: only their broadcast views exist


def _compare_broadcast():
    res = embedlab.train.compare((0, 1), embedlab.corpus.make_corpus(0, n_train=5), d=4, steps=2)
    V, d = res.corpus.vocab_size, _BROADCAST_BIG
    flat = np.broadcast_to(0.0, (V, d))
    configs = {k: dict(v, d=d) for k, v in res.configs.items()}
    runs = {
        k: [
            dataclasses.replace(
                x, d=d, params={n: flat for n in x.params}, E_init=flat,
                E_checkpoints=np.broadcast_to(0.0, (len(x.checkpoint_steps), V, d)),
                W_checkpoints=None if x.tied else np.broadcast_to(0.0, (len(x.checkpoint_steps), V, d)),
            )
            for x in v
        ]
        for k, v in res.runs.items()
    }  # fmt: skip
    return embedlab.train.CompareResult(res.corpus, configs, runs, res.seeds)


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: _compare_with(valid_loss=lambda x: x.valid_loss[:0], train_loss=lambda x: x.train_loss[:0],
                               checkpoint_steps=lambda x: x.checkpoint_steps[:0]), ValueError, "checkpoint_steps"),
        (lambda: _compare_with(E_checkpoints=lambda x: x.E_checkpoints[:1]), ValueError, "E_checkpoints"),
        (lambda: _compare_with(E_checkpoints=lambda x: x.E_checkpoints[:, :5]), ValueError, "E_checkpoints"),
        (lambda: _compare_with(E_checkpoints=lambda x: np.full_like(x.E_checkpoints, np.nan)), ValueError,
         "E_checkpoints"),
        (lambda: _compare_with(steps=lambda x: 10**400), ValueError, "steps"),
        (lambda: _compare_with(E_init=lambda x: x.E_init * 1e200), ValueError, "E_init"),
        (lambda: _compare_with(valid_loss=lambda x: np.full(len(x.valid_loss), 1e308)), ValueError, "valid_loss"),
        (lambda: _compare_with(E_init=lambda x: x.E_init.astype(np.longdouble) * np.longdouble("1e4000")),
         ValueError, "E_init"),
        (_compare_broadcast, None, None),
        (lambda: embedlab.train.class_cosine(np.broadcast_to(np.array([[1.0], [2.0], [3.0]]), (3, 10**10)),
                                             ["a", "a", "b"]), ValueError, "E"),
        (lambda: figures_mod.projection_panels([1.0, 0.0], [[1e-300, 1e-300]], labels=["a"]), None, None),
        (lambda: figures_mod.projection_panels([1.0, 0.0], [[1.0, 0.0]], labels=["a"],
                                               axes=np.array(plots_mod.new_figure()[1], dtype=object)), None, None),
        (lambda: Control("x", "x", (np.longdouble("1e4000"), 2.0), fmt="{:.2f}"), ValueError, "fmt"),
        (lambda: Control("x", "x", ("a|b", "c")), ValueError, "values of control"),
    ],
)  # fmt: skip
def test_hostile_pass_32_rows(make, error, words):
    with contextlib.redirect_stdout(io.StringIO()):
        _value_or_short_refusal(make, error, words)


def test_hostile_pass_32_values_read_rightly():
    """Tiny rows projected at their true direction; the graders' tolerance past float64's largest; longdouble shown."""
    title = figures_mod.projection_panels([1.0, 0.0], [[3e-162, 0.0]], labels=["a"])[1]["titles"][0].get_text()
    assert title.startswith("a: +1.00 x"), title
    title = figures_mod.projection_panels([1.0, 0.0], [[1e-300, 1e-300]], labels=["a"])[1]["titles"][0].get_text()
    assert title.startswith(f"a: +{1 / np.sqrt(2):.2f} x"), title
    # |1e308 - (-1e308)| = 2e308 against 1.9 x 1e308 (exact, in fractions): outside; against 2.1 x 1e308: inside
    for rel in (1.9, 2.1):
        exact = abs(Fraction(1e308) - Fraction(-1e308)) <= Fraction(rel) * Fraction(1e308)
        assert quiz_mod.within(1e308, -1e308, 0.0, rel) is exact
        status = quiz_mod.grade_number("1e308", -1e308, abs_tol=0.0, rel_tol=rel).status
        assert status == ("right" if exact else "wrong")
    c = Control("x", "x", (np.longdouble("1e4000"), 2.0))
    assert c.show(np.longdouble("1e4000")) == str(np.longdouble("1e4000")) != "inf"
    res = _compare_broadcast()  # accepted unexpanded; what would expand it is sized first, by name
    assert res.summary()["tied"]["d"] == _BROADCAST_BIG
    for refused in (lambda: res.drift("tied"), res.geometry, lambda: embedlab.train_plots.drift_bars(res)):
        with pytest.raises(ValueError, match=r"^res('s E)? is too large"):
            refused()


def _compare_replaced(name=None, **fields):
    """compare's small result with ``fields`` replaced in every run (or only in ``name``'s first run)."""
    res = embedlab.train.compare((0, 1), embedlab.corpus.make_corpus(0, n_train=5), d=4, steps=2)
    runs = {
        k: [dataclasses.replace(r, **fields) if name in (None, k) and (name is None or i == 0) else r
            for i, r in enumerate(v)]
        for k, v in res.runs.items()
    }  # fmt: skip
    return dataclasses.replace(res, runs=runs)


def _e_pair(dtype, value):
    return {"params": {"E": np.full((127, 4), value, dtype)}, "E_init": np.zeros((127, 4), dtype)}


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: _compare_replaced("tied", **_e_pair(np.float16, 300)).drift("tied", [1]), None, None),
        (lambda: _compare_replaced("tied", **_e_pair(np.float32, 1e20)).drift("tied", [1]), None, None),
        (lambda: embedlab.train_plots.drift_bars(_compare_replaced("tied", **_e_pair(np.float16, 300))), None, None),
        (lambda: _compare_replaced(valid_loss=np.array([6e4, 6e4, 6e4], np.float16)).summary(), None, None),
        (lambda: embedlab.train_plots.loss_curves(_compare_replaced(valid_loss=np.array([6e4] * 3, np.float16))),
         None, None),
        (lambda: embedlab.train_plots.loss_curves(_compare_replaced(valid_loss=np.array([2e17, 1e17, 1e17]))),
         None, None),
        (lambda: _compare_replaced(valid_loss=np.array([0.0, -1e17, -1e17])), ValueError, "valid_loss"),
        (lambda: _compare_replaced(rows_touched=np.broadcast_to(np.int64(5), (10**12,))), ValueError,
         "rows_touched"),
        (lambda: _compare_replaced(checkpoint_steps=np.array([0, 0, 0])), ValueError, "checkpoint_steps"),
        (lambda: embedlab.train.class_cosine(np.ones((3000, 2)), np.broadcast_to(np.array(["a" * 10**7]), (3000,))),
         ValueError, "classes"),
        (lambda: embedlab.train.class_cosine(np.eye(4) + 0.1, np.array([np.nan, np.nan, 2.0, 2.0])), TypeError,
         "classes"),
        (lambda: Control("x", "x", (np.clongdouble(np.longdouble("1e4000")),)), None, None),
        (lambda: Control("x", "x", (np.clongdouble(np.longdouble("1e4000")),), fmt="{:.2f}"), ValueError, "fmt"),
        (lambda: figures_mod.projection_panels([1.0, 0.0], [[1.0, 0.0]] * 200, ["a"] * 200), ValueError, "E"),
    ],
)  # fmt: skip
def test_hostile_pass_33_rows(make, error, words):
    with contextlib.redirect_stdout(io.StringIO()):
        _value_or_short_refusal(make, error, words)


def test_hostile_pass_33_values_read_rightly():
    """Drift and summaries in float64 whatever the recorded dtype; labels compared as labels."""
    res = _compare_replaced("tied", **_e_pair(np.float16, 300))
    assert res.drift("tied", [1])[0, 0] == pytest.approx(600.0)
    res = _compare_replaced("tied", **_e_pair(np.float32, 1e20))
    assert res.drift("tied", [1])[0, 0] == pytest.approx(2e20, rel=1e-6)
    tiny = _compare_replaced("tied", **_e_pair(np.float64, 1e-300))
    assert tiny.drift("tied", [1])[0, 0] == pytest.approx(2e-300)
    summary = _compare_replaced(valid_loss=np.array([6e4, 6e4, 6e4], np.float16)).summary()
    assert summary["tied"]["final_valid"] == pytest.approx(float(np.float16(6e4)))
    within, between = embedlab.train.class_cosine(np.eye(4) + 0.1, np.array([7, 7, 2, 2]))
    assert (within, between) == embedlab.train.class_cosine(np.eye(4) + 0.1, ["p", "p", "q", "q"])
    assert within == pytest.approx(0.1935, abs=1e-4) and between == pytest.approx(0.1935, abs=1e-4)
    assert Control("x", "x", (np.clongdouble(np.longdouble("1e4000")),))._shown == ("(1e+4000+0j)",)


def _compare_seeds_differ():
    res = embedlab.train.compare((0, 1), embedlab.corpus.make_corpus(0, n_train=5), d=4, steps=2)
    later = {"steps": 4, "checkpoint_steps": np.array([0, 2, 4]), "rows_touched": np.zeros(4, int)}
    runs = {k: [v[0], dataclasses.replace(v[1], **later)] for k, v in res.runs.items()}
    return dataclasses.replace(res, runs=runs)


def _compare_many_checkpoints():
    """300 seeds of a million steps each, their losses broadcast: fine to hold, too large to stack (4.8 GB)."""
    res = embedlab.train.compare((0, 1), embedlab.corpus.make_corpus(0, n_train=5), d=4, steps=2)
    steps, c = 10**6, 10**6 + 1
    V, seeds = res.corpus.vocab_size, tuple(range(300))

    def run(r):
        return dataclasses.replace(
            r, steps=steps, checkpoint_steps=np.arange(c), rows_touched=np.broadcast_to(np.int64(1), (steps,)),
            train_loss=np.broadcast_to(1.0, (c,)), valid_loss=np.broadcast_to(1.0, (c,)),
            E_checkpoints=np.broadcast_to(0.0, (c, V, r.d)),
            W_checkpoints=None if r.tied else np.broadcast_to(0.0, (c, V, r.d)),
        )  # fmt: skip

    runs = {k: [run(v[0])] * len(seeds) for k, v in res.runs.items()}
    return embedlab.train.CompareResult(res.corpus, res.configs, runs, seeds)


def _compare_at_origin():
    res = embedlab.train.compare((0, 1), embedlab.corpus.make_corpus(0, n_train=5), d=4, steps=2)
    runs = {k: [dataclasses.replace(r, E_checkpoints=np.zeros_like(r.E_checkpoints)) for r in v]
            for k, v in res.runs.items()}  # fmt: skip
    return dataclasses.replace(res, runs=runs)


_E_LONG = np.array([[1.0, 0.0], [2.0, 0.1], [0.0, 1.0]], dtype=np.longdouble)


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: _compare_replaced("tied", checkpoint_steps=np.array([0, 2, 1], dtype=np.uint64)), ValueError,
         "checkpoint_steps"),
        (lambda: _compare_replaced("tied", E_init=np.ma.masked_all((127, 4))), ValueError, "E_init"),
        (lambda: _compare_replaced("tied", valid_loss=np.ma.masked_array([1.0, 1.0, 1.0])), ValueError,
         "valid_loss"),
        (lambda: _compare_replaced("tied", rows_touched=np.array([-5, -5])), ValueError, "rows_touched"),
        (lambda: _compare_replaced("tied", row_updates=np.full(127, 2**62)), ValueError, "row_updates"),
        (_compare_seeds_differ, ValueError, "checkpoint_steps"),
        (lambda: embedlab.train.class_cosine(_E_LONG * np.longdouble("1e4000"), ["a", "a", "b"]), None, None),
        (lambda: embedlab.train_plots.training_explorer(_compare_at_origin()), None, None),
        (lambda: figures_mod.projection_panels(np.ones(1), np.ones((2, 1)), ["a", "b"]), ValueError, "h and E"),
        (lambda: embedlab._naive.naive_explorer(np.array(["lookup_explorer"])), ValueError, "name"),
    ],
)  # fmt: skip
def test_hostile_pass_34_rows(make, error, words):
    with contextlib.redirect_stdout(io.StringIO()):
        _value_or_short_refusal(make, error, words)


def test_hostile_pass_34_losses_sized_before_they_are_stacked():
    """Stacking every seed's losses is sized first: refused by name under a 3 GiB address space, not a MemoryError."""
    _refused_under_3_gib(
        "from tests.test_hostile import _compare_many_checkpoints",
        "_compare_many_checkpoints().summary()",
        "res is too large",
    )


def test_hostile_pass_34_values_read_rightly():
    """class_cosine of a longdouble E beyond float64's range, large or small, is the cosine of its directions."""
    want = embedlab.train.class_cosine(np.asarray(_E_LONG, dtype=np.float64), ["a", "a", "b"])
    for scale in ("1e4000", "1e-4000"):
        got = embedlab.train.class_cosine(_E_LONG * np.longdouble(scale), ["a", "a", "b"])
        assert got == pytest.approx(want, rel=1e-12)


def _figure_near_the_limit():
    fig = plt_mod.Figure()
    fig.add_subplot().plot([0, 1e308], [0, 1e308])
    return fig


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: embedlab.display.figure_png(_figure_near_the_limit()), None, None),
        (lambda: embedlab.display.text_sizes_css(_figure_near_the_limit()), None, None),
        (lambda: Explorer("t", [Control("a", "A", (0, 1))],
                          lambda fig, ax: (lambda a: "x", ax.plot([0, 1e308], [0, 1e308]))), None, None),
        (lambda: float_range(2**60, 2**60 + 4, 1, 0), ValueError, "start and stop"),
    ],
)  # fmt: skip
def test_hostile_pass_35_rows(make, error, words):
    with contextlib.redirect_stdout(io.StringIO()):
        _value_or_short_refusal(make, error, words)


def test_hostile_pass_35_values_read_rightly():
    """Snap to the exactly nearest value; cosines at most 1."""
    assert Control("a", "A", (-1e16, 1e16)).snap(1.0) == 1e16
    assert Control("a", "A", (-1e17, 1e17)).snap(-3.0) == -1e17
    many = Control("a", "A", tuple(float(i) for i in range(MAX_CONTROL_VALUES)))  # one pass over the values
    assert many.snap(3.3) == 3.0 and many.snap(7.5) in (7.0, 8.0)
    within, between = embedlab.train.class_cosine(np.ones((10, 3)), [0, 0, 1, 1, 2, 2, 0, 1, 2, 0])
    assert within <= 1.0 and between <= 1.0 and within == pytest.approx(1.0)


# ---------------------------------------------------------------- hostile pass 36
def _compare_untied_named_tied():
    """A result whose 'untied' configuration holds the tied runs (no W)."""
    R = _r25()
    configs = {"tied": R.configs["tied"], "untied": R.configs["tied"]}
    return embedlab.train.CompareResult(R.corpus, configs, {"tied": R.runs["tied"], "untied": R.runs["tied"]}, R.seeds)


def _compare_checkpoints_differ():
    """One run checkpointed at other steps than the rest: the message shows both lists."""
    res = embedlab.train.compare((0, 1), embedlab.corpus.make_corpus(0, n_train=5), d=4, steps=4, n_checkpoints=3)
    runs = dict(res.runs, tied=[dataclasses.replace(res.runs["tied"][0]), res.runs["tied"][1]])
    runs["tied"][1] = dataclasses.replace(runs["tied"][1], checkpoint_steps=np.array([0, 1, 4]))
    return dataclasses.replace(res, runs=runs)


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: _compare_untied_named_tied().geometry(), ValueError, "'untied' configuration has tied=True"),
        (lambda: embedlab.train_plots.geometry_panels(_compare_untied_named_tied()), ValueError, "'untied'"),
        (lambda: embedlab.train_plots.geometry_summary(_compare_untied_named_tied()), ValueError, "'untied'"),
        (lambda: Control("x", "x", [complex("nan"), complex("nan")]), ValueError, "NaN or inf"),
        (lambda: Control("x", "x", [complex(1, float("inf")), 1j]), ValueError, "NaN or inf"),
        (lambda: Control("x", "x", [np.datetime64("NaT"), np.datetime64("2020-01-01")]), ValueError, "NaN or inf"),
        (_compare_checkpoints_differ, ValueError, "checkpoint_steps [0, 2, 4], got [0, 1, 4]"),
    ],
)  # fmt: skip
def test_hostile_pass_36_rows(make, error, words):
    with contextlib.redirect_stdout(io.StringIO()):
        _value_or_short_refusal(make, error, words)


# ---------------------------------------------------------------- hostile pass 37
@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: Control("x", "x", (np.datetime64("2020"), datetime.date(2020, 1, 1))), TypeError, "datetime64"),
    ],
)  # fmt: skip
def test_hostile_pass_37_rows(make, error, words):
    _value_or_short_refusal(make, error, words)


def test_hostile_pass_37_claims_read_rightly(capsys):
    """A float32 draft past 2**53 agrees with the float64 it holds or the one its typed decimal is; every figure
    shown is written exactly at ``decimals`` places, with no float64 noise (checked against Decimal)."""
    from decimal import Decimal

    check("a", np.float32(1e20), np.float32(1e20), 0)
    check("b", np.float32(2**60), 2**60, 0)
    check("c", np.float32(1e16), 1e16, 0)  # typed as 1e16 (hostile pass 16: a float32 1e23 is the 1e23 typed)
    check("d", np.float32(1e20), 1e21, 0)
    verdicts = [line.rsplit("-> ", 1)[1] for line in capsys.readouterr().out.splitlines()]
    assert verdicts == ["agrees", "agrees", "agrees", "DIFFERS"]
    cases = [(0.3, 0.2, 17), (2399.145, 2399.145, 14), (np.float32(-5550.951), -5550.951284, 15)]
    for draft, computed, places in cases:
        check("x", draft, computed, places)
        shown = capsys.readouterr().out.split("draft ", 1)[1].split(", computed ")[0].replace(",", "")
        typed = np.format_float_positional(draft, unique=True) if isinstance(draft, np.floating) else repr(draft)
        assert Decimal(shown) == Decimal(typed).quantize(Decimal(1).scaleb(-places)), (draft, shown)


# ---------------------------------------------------------------- hostile pass 38
_EQ_ALL_COMPLEX = type("C", (complex,), {"__eq__": lambda s, o: True, "__hash__": complex.__hash__})
_EQ_ALL_STR = type("S", (str,), {"__eq__": lambda s, o: True, "__hash__": str.__hash__})


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: embedlab.corpus.context_windows([[5, 7, 9]], 2), ValueError, "start with <s>"),
        (lambda: embedlab.corpus.context_windows([np.array([0, 5]), np.array([3, 4])], 1), ValueError, "sentence 1"),
    ],
)  # fmt: skip
def test_hostile_pass_38_rows(make, error, words):
    _value_or_short_refusal(make, error, words)


def test_hostile_pass_38_values_read_rightly():
    """A complex or str of a subclass with its own == never picks the value a control returns."""
    c = Control("t", "t", [_EQ_ALL_COMPLEX(1, 2), 1j])
    assert c.snap(1j) == 1j and type(c.snap(1j)) is complex and c.show(1j) == "1j"
    assert Control("t", "t", [_EQ_ALL_COMPLEX(1, 2), 1j], value=1j).value == 1j
    s = Control("t", "t", [_EQ_ALL_STR("a"), "b"])
    assert s.snap("b") == "b" and s.show("b") == "b" and all(type(v) is str for v in s.values)


# ---------------------------------------------------------------- hostile pass 39
def _self_holding_list():
    items: list[Any] = []
    items.extend([items] * 10)
    return items


def _shared_lists():
    a: Any = [0]
    for _ in range(21):
        a = [a] * 8
    return a


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: embedlab.sweep.Sweep(embedlab.sweep.SweepSpec(), [], {"m": _self_holding_list()}), ValueError, "meta"),
        (lambda: embedlab.sweep.Sweep(embedlab.sweep.SweepSpec(), [], {"m": _shared_lists()}), ValueError, "meta"),
    ],
)  # fmt: skip
def test_hostile_pass_39_rows(make, error, words):
    """A meta that holds itself or shares its lists is refused at once, not walked for ever."""
    _value_or_short_refusal(make, error, words)


# ---------------------------------------------------------------- hostile pass 40
@functools.cache
def _chapter_records() -> tuple[dict[str, Any], ...]:
    """The shipped sweep's records, one per point of the default spec (what run_point returns for each)."""
    return tuple(embedlab.sweep.load_results().records)


def _records_with(**changes: Any) -> Any:
    """A map_fn returning the shipped records, each with ``changes``."""
    return lambda f, points: [dict(r, **changes) for r in _chapter_records()]


def _sweep_of(**cast: Any) -> Any:
    """A Sweep of the shipped records with each named field cast (an int for the bool ``hidden``, say)."""
    records = [dict(r, **{k: f(r[k]) for k, f in cast.items()}) for r in _chapter_records()]
    return embedlab.sweep.Sweep(embedlab.sweep.SweepSpec(), records, {})


class _GetFails(dict):
    def get(self, *args):
        return 1 / 0


def _odd_dicts(f: Any, points: Any) -> list[dict[str, Any]]:
    """The shipped records as dicts of a subclass whose own get fails."""
    return [_GetFails(r) for r in _chapter_records()]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: embedlab.sweep.run_sweep(map_fn=_records_with(seconds=np.int64(2**62))), TypeError, "seconds"),
        (lambda: embedlab.sweep.run_sweep(map_fn=_records_with(seconds=decimal.Decimal("sNaN"))), TypeError, "map_fn"),
        (lambda: embedlab.sweep.run_sweep(map_fn=_records_with(seconds=1e308)), ValueError, "map_fn"),
        (lambda: embedlab.sweep.run_sweep(map_fn=_odd_dicts), TypeError, "map_fn"),
        (lambda: embedlab.sweep.run_sweep(map_fn=lambda f, ps: iter(int, 1)), ValueError, "map_fn"),
        (lambda: embedlab.sweep.run_sweep(map_fn=lambda f, ps: 5), TypeError, "map_fn"),
        (lambda: embedlab.sweep.run_sweep(map_fn=_records_with(best_step=-1)), ValueError, "map_fn"),
        (lambda: _sweep_of(hidden=int), ValueError, "points() order"),
        (lambda: _sweep_of(draw=float), ValueError, "points() order"),
    ],
)  # fmt: skip
def test_hostile_pass_40_rows(make, error, words):
    """run_sweep reads map_fn's records no further than one too many and checks them before adding their
    seconds; a record's point fields are of their own types."""
    _value_or_short_refusal(make, error, words)


def test_hostile_pass_40_run_sweep_keeps_good_records():
    """The check does not refuse what run_point returns: the shipped records make the shipped sweep."""
    made = embedlab.sweep.run_sweep(map_fn=lambda f, ps: [dict(r) for r in _chapter_records()])
    assert made.records == list(_chapter_records())
    want = round(math.fsum(r["seconds"] for r in _chapter_records()), 1)
    assert made.meta["cpu_seconds"] == want and made.meta["points"] == len(_chapter_records())


def test_hostile_pass_40_wide_meta_refused_before_allocating():
    """A wide list in meta is counted, not stacked item by item, before it is refused."""
    wide = {"a": [0] * 10**6}
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="meta"):
            embedlab.sweep.Sweep(embedlab.sweep.SweepSpec(), [], wide)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20, f"refusing an 8 MB list allocated {peak:,} bytes"


def test_hostile_pass_40_practice_reports_any_exception_but_an_interrupt():
    """A learner's BaseException of their own is reported; the reader's KeyboardInterrupt passes through."""
    stop = type("Stop", (BaseException,), {})

    def raises(kind):
        def fn(t, n):
            raise kind()

        return fn

    report = str(embedlab.practice.check(raises(stop), "p_top"))
    assert "raised Stop" in report
    with pytest.raises(KeyboardInterrupt):
        embedlab.practice.check(raises(KeyboardInterrupt), "p_top")


def test_hostile_pass_40_timedelta_named_as_what_it_is():
    """A NumPy duration is refused as one, not as a NumPy scalar that is not NumPy's own."""
    with pytest.raises(TypeError, match="not a NumPy timedelta64"):
        Control("x", "x", [np.timedelta64(1, "h"), np.timedelta64(2, "h")])


# ---------------------------------------------------------------- hostile pass 41
def _text_explorer(values, text_at):
    """An explorer whose one moving text becomes ``text_at(a)`` (math text that may not parse)."""

    def setup(fig, ax):
        t = ax.text(0, 0, "x")

        def update(a):
            t.set_text(text_at(a))
            return f"a={a}"

        return update, [t]

    return Explorer("t", [Control("a", "a", values)], setup)


def _removing_explorer():
    def setup(fig, ax):
        t = ax.text(0, 0, "x")

        def update(a):
            if a == 2:
                t.remove()
            return "r"

        return update, [t]

    return Explorer("t", [Control("a", "a", (1, 2))], setup)


class _ReplaceFails(str):
    def replace(self, *args):
        return 1 / 0


class _NoLength(str):
    def __len__(self):
        return 0


class _Stop(BaseException):
    pass


class _StrStops(Exception):
    def __str__(self):
        raise _Stop


class _EqStops:
    def __eq__(self, other):
        raise _Stop


def _raise(error):
    raise error


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: figures_mod.alignment_arrows([1.0, 1.0], {"h": np.array([60000, 60000], np.float16)}), None, ""),
        (lambda: figures_mod.alignment_arrows([1, 1, 0], {"h": np.full(3, 6e4, np.float16)}), ValueError, "plane"),
        (lambda: plots_mod.new_figure(xticks=range(30000)), TypeError, "xticks"),
        (lambda: plots_mod.new_figure(projection="nope"), ValueError, "projection"),
        (lambda: _removing_explorer().update(a=2), ValueError, "moving artists"),
        (lambda: gpt2.encode(_NoLength("a " * 4 * gpt2.MAX_TEXT)), ValueError, "text must hold at most"),
        (lambda: gpt2.explorer_html([_NoLength("a" * 2 * gpt2.MAX_TEXT)]), ValueError, "at most"),
        (lambda: embedlab._naive.naive_move(None, {"word": 1, "start": 0}), TypeError, "spec"),
        (lambda: embedlab.sweep.run_sweep(map_fn=_records_with(seconds=np.float64(1.0))), TypeError, "seconds"),
    ],
)  # fmt: skip
def test_hostile_pass_41_rows(make, error, words):
    _value_or_short_refusal(make, error, words)


def test_hostile_pass_41_a_refused_update_leaves_the_explorer_as_it_was():
    """A drawing that fails (math text that does not parse) leaves values, readout and pixels as they were,
    in update and half-way through frames."""
    for call in ("update", "frames"):
        ex = _text_explorer((1, 2, 3), lambda a: "$\\frac{$" if a == 3 else "ok")
        before = (dict(ex.values), ex.readout, ex.png())
        with pytest.raises(ValueError, match="setup's figure"):
            ex.update(a=3) if call == "update" else ex.frames()
        assert (ex.values, ex.readout, ex.png()) == before, call


def test_hostile_pass_41_readout_read_as_plain_text():
    """A readout of a str subclass is kept as the text it holds: its own methods never run."""
    ex = Explorer("t", [Control("a", "a", (1, 2))], lambda f, ax: ((lambda a: _ReplaceFails(f"r{a}")), []))
    assert type(ex.readout) is str and "r1" in ex.to_html()


def test_hostile_pass_41_practice_reports_what_a_learner_raises_anywhere():
    """A BaseException from the message of the learner's exception, or from the == of what it left in an
    argument, is reported, not raised."""
    assert not embedlab.practice.check(lambda *a: _raise(_StrStops()), "embed_rows").passed

    def mutates(E, ids):
        if type(ids) is list and ids:
            ids[0] = _EqStops()

    assert not embedlab.practice.check(mutates, "embed_rows").passed


def test_hostile_pass_41_a_resized_figure_is_refused_by_update():
    """A setup whose update resizes the figure is refused at that update, naming what it did."""

    def setup(fig, ax):
        def update(a):
            if a == 2:
                fig.set_size_inches(3, 3)
            return "r"

        return update, []

    ex = Explorer("t", [Control("a", "a", (1, 2))], setup)
    with pytest.raises(ValueError, match="size and resolution"):
        ex.update(a=2)
    assert ex.values == {"a": 1}


# ---------------------------------------------------------------- hostile pass 42
def _counting_explorer(fail_at: int):
    """An explorer whose setup's update returns no readout (a number) at its ``fail_at``-th call only, counting
    its calls."""
    calls = [0]

    def setup(fig, ax):
        def update(x):
            calls[0] += 1
            return 5 if calls[0] == fail_at else f"r{calls[0]}"

        return update, []

    return Explorer("t", [Control("x", "x", (1, 2, 3, 4), static_every=2)], setup), calls


def test_hostile_pass_42_a_shown_explorer_updates_once_per_move():
    """update moves a shown widget's slider without its handler running setup's update a second time."""
    ex, calls = _counting_explorer(fail_at=3)
    ex.widget()
    assert ex.update(x=2) == "r2" and calls == [2] and ex.values == {"x": 2}


def test_hostile_pass_42_reading_the_figure_keeps_the_readout():
    """The figure drawn again when read (after a refused update) leaves the readout noted with the values."""
    ex, _ = _counting_explorer(fail_at=2)
    with pytest.raises(TypeError, match="readout"):
        ex.update(x=2)
    assert ex.readout == "r1" and ex.values == {"x": 1}
    ex.png()  # drawn again at x = 1: the setup's third call, which says "r3"
    assert ex.readout == "r1"


def test_hostile_pass_42_a_refused_removal_keeps_the_pixels():
    """An update that takes a moving artist out is refused; the figure's pixels stay readable, as they were."""
    ex = _removing_explorer()
    before = ex.png()
    with pytest.raises(ValueError, match="moving artists"):
        ex.update(a=2)
    assert ex.values == {"a": 1} and ex.png() == before


def test_hostile_pass_42_a_refused_slider_move_goes_back():
    """A slider move the setup refuses puts the slider back where the figure is."""

    def setup(fig, ax):
        def update(x):
            if x == 3:
                raise ValueError("no 3")
            return "r"

        return update, []

    ex = Explorer("t", [Control("x", "x", (1, 2, 3, 4), static_every=2)], setup)
    slider = ex.widget().children[0]
    with pytest.raises(ValueError, match="no 3"):
        slider.value = 3
    assert slider.value == 1 and ex.values == {"x": 1}


@pytest.mark.parametrize(
    ("values", "given", "want"),
    [
        ((1.0001, 1.0), np.float16(1.0), 1.0),
        ((1.0001, 1.0), np.float32(1.0), 1.0),
        ((2**53 + 1, 2**53), np.float64(2**53), 2**53),
        ((2**53 + 1, 2**53), np.longdouble(2**53), 2**53),
        ((0.1, 0.2), np.float16(0.1), 0.1),  # np.float16(0.1) is 0.0999755859375: the nearest is 0.1
    ],
)
def test_hostile_pass_42_control_finds_a_number_by_its_exact_value(values, given, want):
    """A listed number is found by its exact value, never by NumPy's == after rounding it to the given dtype."""
    c = Control("x", "x", values)
    assert c.snap(given) == want and type(c.snap(given)) is type(want)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: figures_mod.alignment_arrows([1, 1, 0], {"c": [0, 0, 1e-10]}), ValueError, "plane"),
        (lambda: figures_mod.alignment_arrows([1e-12, 1e-12, 0], {"c": [0, 0, 1e-12]}), ValueError, "plane"),
        (lambda: figures_mod.alignment_arrows([1, 0, 1e-13], {"c": [0, 1, 0]}), ValueError, "e must lie"),
        (lambda: figures_mod.alignment_arrows([1, 0, 0], {"c": [0, 1, 0]}), None, ""),
        (lambda: practice_mod.check(lambda E, ids: _ClassFails(), "embed_rows"), None, ""),
        (lambda: embedlab.sweep.Sweep(embedlab.sweep.SweepSpec(), [], {"a": 10**5000}), ValueError, "meta"),
        (lambda: embedlab.sweep.Sweep(embedlab.sweep.SweepSpec(), [], {"a": math.nan}), TypeError, "meta"),
        (lambda: embedlab.sweep.Sweep(embedlab.sweep.SweepSpec(), _records_with_deep(), {}), ValueError, "record 0"),
    ],
)  # fmt: skip
def test_hostile_pass_42_rows(make, error, words):
    _value_or_short_refusal(make, error, words)


class _ClassFails:
    @property
    def __class__(self):
        return 1 / 0


def _records_with_deep():
    """The shipped records, each with a value 100 lists deep beside its keys."""
    return [dict(r, x=_deep_list()) for r in _chapter_records()]


def _deep_list():
    d: list[Any] = []
    for _ in range(100):
        d = [d]
    return d


def test_hostile_pass_42_sweep_repr_is_short():
    s = embedlab.sweep.load_results()
    assert len(repr(s)) < 1000 and f"{len(s.records):,} records" in repr(s)


# ---------------------------------------------------------------- hostile pass 43
def _line_explorer(values=(1, 2, 3), every=2, setup=None):
    """An explorer with one moving line and a readout naming x."""
    setup = setup or (lambda f, a: (lambda x: f"x={x}", [a.plot([0, 1])[0]]))
    return Explorer("t", [Control("x", "x", values, static_every=every)], setup)


def _tiny_sweep(**grid: Any) -> Any:
    spec = embedlab.sweep.SweepSpec(data_sizes=(500,), hidden=(True,), seeds=(0, 1), draws=(0,), **grid)
    records = [
        dict(p._asdict(), best_valid=1.0, best_test=2.0, best_step=0, capped=False, valid_curve=[1.0])
        for p in spec.points()
    ]
    return embedlab.sweep.Sweep(spec, records, {})


def _resizing_setup(f, a):
    line = a.plot([0, 1])[0]

    def update(x):
        if x == 2:
            f.set_size_inches(3, 3)
        return f"x={x}"

    return update, [line]


def _moves_then_fails(f, a):
    line = a.plot([0, 1], [0, 1])[0]

    def update(x):
        line.set_ydata([0, x])
        if x == 2:
            raise ZeroDivisionError("the setup's own failure")
        return f"x={x}"

    return update, [line]


@pytest.mark.parametrize(
    ("values", "given", "want"),
    [
        ((np.float32(1), 1.5), 2.0, 1.5),  # a pair NumPy calls equal is refused (pass 44): these are told apart
        ((np.float32(-16777216), -16777218), -17e6, -16777218),
        ((np.clongdouble(1j), np.clongdouble(2j)), 2j, np.clongdouble(2j)),
    ],
)
def test_hostile_pass_43_control_by_exact_value(values, given, want):
    c = Control("x", "x", values)
    assert c.snap(given) == want and type(c.snap(given)) is type(want)


def test_hostile_pass_43_start_value_found_exactly_everywhere():
    """The starting value has its frame, the page starts there and the slider too (not at a float32 NumPy
    calls equal)."""
    with pytest.raises(ValueError, match="told apart"):  # since pass 44: a list NumPy's == cannot tell apart
        Control("x", "x", (np.float32(0.1), 0.1, 0.5), value=0.1, static_every=2)
    c = Control("x", "x", (np.float32(0.25), 0.1, 0.5), value=0.1, static_every=2)
    assert type(c.value) is float and any(type(v) is float and v == 0.1 for v in c.static_values)
    ex = Explorer("t", [Control("x", "x", (np.float32(0.25), 0.1), value=0.1)], lambda f, a: (lambda x: repr(x), []))
    assert ex.readout == "0.1" and ">0.1</p>" in ex.to_html() and ex.widget().children[0].index == 1


def test_hostile_pass_43_shown_kernel_view_follows_update_and_frames_leave_it():
    ex = _line_explorer()
    box = ex.widget()
    view, sent = box.children[-1], []
    view.send = lambda content, buffers=None: sent.append(content)
    ex.update(x=2)  # the slider moves, and the fetched view is sent the frame
    assert box.children[0].value == 2 and sent[-1]["text"] == "x=2"
    ex.to_html()
    assert ex.values == {"x": 2} and box.children[0].value == 2 and ex.readout == "x=2"


def test_hostile_pass_43_a_refused_resize_keeps_the_figure():
    ex = _line_explorer(values=(1, 2), every=1, setup=_resizing_setup)
    before, live = ex.png(), ex.live_png()
    with pytest.raises(ValueError, match="size and resolution"):
        ex.update(x=2)
    assert ex.values == {"x": 1} and ex.png() == before and ex.live_png() == live


def test_hostile_pass_43_setup_failing_after_moving_an_artist_moves_it_back():
    ex = _line_explorer(values=(1, 2), every=1, setup=_moves_then_fails)
    with pytest.raises(ZeroDivisionError):
        ex.update(x=2)
    assert list(ex.axes.lines[0].get_ydata()) == [0, 1]


def test_hostile_pass_43_longdouble_e_below_float64_is_refused():
    with pytest.raises(ValueError, match="e must lie"):
        figures_mod.alignment_arrows(np.array([1, 0, np.longdouble("1e-4000")]), {"c": [0, 0, 1]})


def test_hostile_pass_43_sweep_finds_a_listed_point_by_its_exact_value():
    """np.float16(2052) is the listed 2052, not 2051; np.float32(0.1) is exactly the second listed rate."""
    widths = _tiny_sweep(widths=(2051, 2052), lrs=(0.01,)).runs(0, 500, np.float16(2052), True, "tied", 0.01)
    assert [r["d"] for r in widths] == [2052, 2052]
    lrs = _tiny_sweep(widths=(8,), lrs=(0.1, 0.10000000149011612)).runs(0, 500, 8, True, "tied", np.float32(0.1))
    assert [r["lr"] for r in lrs] == [0.10000000149011612] * 2


# ---------------------------------------------------------------- hostile pass 44
def _dpi_doubling(f, ax):
    line = ax.plot([0, 1], lw=3)[0]

    def update(a):
        if a:  # the same pixels, at twice the resolution: the moving artists would be drawn twice as large
            f.set_size_inches(f.get_size_inches() / 2, forward=False)
            f.set_dpi(2 * f.dpi)
        return "x"

    return update, [line]


def _huge_dpi(f, ax):
    def update(a):
        if a:
            f.set_dpi(1e308)
        return "x"

    return update, []


def _new_canvas(f, ax):
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    def update(a):
        if a:
            FigureCanvasSVG(f)
        return "x"

    return update, []


@pytest.mark.parametrize("setup", [_dpi_doubling, _huge_dpi, _new_canvas], ids=["dpi", "huge-dpi", "canvas"])
def test_hostile_pass_44_figure_kept_as_it_was_drawn(setup):
    """An update that changes the figure's resolution or canvas is refused, and the figure is put back."""
    ex = Explorer("t", [Control("a", "A", [0, 1])], setup)
    before = ex.png()
    with pytest.raises(ValueError, match="setup's update must keep the figure's"):
        ex.update(a=1)
    assert ex.values == {"a": 0} and ex.png() == before


def test_hostile_pass_44_longdouble_context_below_float64_refused():
    with pytest.raises(ValueError, match="below float64's range"):
        figures_mod.alignment_arrows(np.array([1.0, 1, 0]), {"x": np.array([0, 0, np.longdouble(2) ** -16000])})


def test_hostile_pass_44_fractions_found_by_exact_value():
    assert Control("a", "a", [Fraction(1, 2), Fraction(1)]).show(0.5) == "1/2"


@pytest.mark.parametrize(
    "values",
    [[np.float32(0.1), 0.1], [np.float64(2**53), 2**53 + 1], [np.complex64(0.1j), 0.1j]],
    ids=["float32", "float64-int", "complex64"],
)
def test_hostile_pass_44_values_numpy_calls_equal_are_refused(values):
    """A slider finds a value by ==: two listed values NumPy's == calls equal would be one position."""
    with pytest.raises(ValueError, match="told apart by =="):
        Control("x", "x", values)


def test_hostile_pass_44_a_shown_slider_value_selects_its_own_value():
    ex = Explorer("t", [Control("a", "A", [np.float32(0.1), 0.2])], lambda f, ax: ((lambda a: repr(a)), []))
    slider = ex.widget().children[0]
    slider.value = 0.2
    assert ex.values == {"a": 0.2} and slider.index == 1


# ---------------------------------------------------------------- hostile pass 45
def _draws_then_refuses(how):
    def setup(f, a):
        line = a.plot([0, 1])[0]

        def update(x):
            line.set_ydata([0, x])
            if x == 2:
                f.canvas.draw() if how == "draw" else f.savefig(io.BytesIO(), dpi=50)
                return 0  # no readout: refused
            return "r"

        return update, [line]

    return setup


@pytest.mark.parametrize("how", ["draw", "savefig"])
def test_hostile_pass_45_setup_drawing_then_refused_keeps_the_pixels(how):
    ex = Explorer("t", [Control("x", "x", (1, 2))], _draws_then_refuses(how))
    before, live = ex.png(), ex.live_png()
    with pytest.raises(TypeError, match="readout"):
        ex.update(x=2)
    assert ex.values == {"x": 1} and ex.png() == before and ex.live_png() == live


def _first_update_resizes(f, a):
    return (lambda x: f.set_size_inches(2000, 2000) or "r"), []


def _svg_canvas(f, a):
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    FigureCanvasSVG(f)
    return (lambda x: "r"), []


@pytest.mark.parametrize(
    ("setup", "words"),
    [(_first_update_resizes, "setup must leave the figure drawable"), (_svg_canvas, "Agg canvas")],
    ids=["huge", "svg"],
)
def test_hostile_pass_45_first_drawing_checked_first(setup, words):
    with pytest.raises(ValueError, match=words):
        Explorer("t", [Control("x", "x", (1, 2))], setup)


def test_hostile_pass_45_marker_below_float64_refused():
    _, ax = plots_mod.new_figure((4, 3))
    with pytest.raises(ValueError, match="below float64's range"):
        plots_mod.marker(np.longdouble("1e-4000"), 1, ax)


# ---------------------------------------------------------------- hostile pass 46
@pytest.mark.parametrize(
    "values", [(np.int64(2**53 + 1), 2.0**53), (np.uint64(2**64 - 1), np.float64(2.0**64))], ids=["int64", "uint64"]
)
def test_hostile_pass_46_numpy_int_and_float_numpy_calls_equal_refused(values):
    with pytest.raises(ValueError, match="told apart by =="):
        Control("x", "x", values)


def _huge_draws() -> Any:
    return _sweep_listing(data_sizes=(500,), draws=(0, 10**400))


def _big_sizes() -> Any:
    return _sweep_listing(data_sizes=(500, 70000), draws=(0,))


def _sweep_listing(**grid: Any) -> Any:
    spec = embedlab.sweep.SweepSpec(widths=(8,), lrs=(0.01,), seeds=(0, 1), max_steps=100, eval_every=10, **grid)
    records = [
        dict(p._asdict(), best_valid=1.0, best_test=1.0, best_step=0, capped=False, valid_curve=[1.0])
        for p in spec.points()
    ]
    return embedlab.sweep.Sweep(spec, records, {})


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: _huge_draws().runs(np.float64(0.5), 500, 8, True, "tied", 0.01), ValueError, "draw must be one of"),
        (lambda: _big_sizes().test_loss(np.float16(501), 8, True, "tied"), ValueError, "n_train must be one of"),
    ],
)  # fmt: skip
def test_hostile_pass_46_rows(make, error, words):
    _value_or_short_refusal(make, error, words)


# ---------------------------------------------------------------- hostile pass 47
@pytest.mark.parametrize(
    "values",
    [
        (np.int64(2**53 + 1), np.float32(2**53)),  # NumPy reads both as float64
        (np.uint64(2**53 + 1), np.float32(2**53)),
        (np.float16(2048), np.int64(2**53 + 1), np.float32(2**53)),
    ],
    ids=["int64-float32", "uint64-float32", "among-others"],
)
def test_hostile_pass_47_numpy_int_beside_narrow_float_refused(values):
    with pytest.raises(ValueError, match="told apart by =="):
        Control("x", "x", values)


def _datetimes() -> tuple[Any, Any]:
    """Two datetime64 values whose NumPy == raises OverflowError (no common unit holds both)."""
    return np.datetime64("2020-01-01", "D"), np.datetime64(0, "as")


def test_hostile_pass_47_values_whose_equality_raises_are_refused():
    """Found by hash they would be, but a slider compares values with ==: refused when the control is made
    (before pass 48, accepted, then never found: "must be one of its values")."""
    with pytest.raises(ValueError, match=r"told apart by ==, but .* gives OverflowError"):
        Control("a", "a", _datetimes())


def _datetime_setup(fig: Any, ax: Any) -> Any:
    (line,) = ax.plot([0, 1])

    def update(a: Any) -> str:
        line.set_ydata([0, int((a - np.datetime64("2020-01-01", "D")) / np.timedelta64(1, "D"))])
        return f"a = {a}"

    return update, [line]


@pytest.mark.parametrize("static_every", [1, 2], ids=["framed", "kernel"])
def test_hostile_pass_47_slider_finds_values_without_numpy_equality(static_every):
    """The slider finds a value as the control does: moving it shows that very value, figure and readout."""
    a = np.datetime64("2020-01-01", "D")
    values = (a, a + 1, a + 2)
    ex = Explorer("t", [Control("a", "a", values, static_every=static_every)], _datetime_setup)
    slider = ex.widget().children[0]
    for k in (1, 2, 0, 2):
        slider.index = k
        assert ex.values["a"] is values[k] and slider.value is values[k] and ex.readout == f"a = {values[k]}"
    assert f"a = {values[2]}" in ex.to_html()


@pytest.mark.parametrize(
    ("grid", "call"),
    [
        ({"lrs": (0.01, 1e5)}, lambda s: s.runs(0, 500, 8, True, "tied", np.float16("inf"))),
        ({"draws": (0, 70000)}, lambda s: s.runs(np.float16("inf"), 500, 8, True, "tied", 0.01)),
        ({"draws": (0, 2**200)}, lambda s: s.runs(np.float32("inf"), 500, 8, True, "tied", 0.01)),
        ({"data_sizes": (500, 100000)}, lambda s: s.test_loss(np.float16("inf"), 8, True, "tied")),
    ],
    ids=["lr", "draw-float16", "draw-float32", "n_train"],
)
def test_hostile_pass_47_sweep_refuses_inf_beside_a_value_beyond_its_dtype(grid, call):
    """NumPy's == reads a listed 1e5 as inf in float16: an inf lr, draw or size is still no listed value."""
    grid = {"data_sizes": (500,), "widths": (8,), "lrs": (0.01,), "draws": (0,), **grid}
    spec = embedlab.sweep.SweepSpec(seeds=(0, 1), max_steps=100, eval_every=10, **grid)
    records = [
        dict(p._asdict(), best_valid=1.0, best_test=1.0, best_step=0, capped=False, valid_curve=[1.0])
        for p in spec.points()
    ]
    sweep = embedlab.sweep.Sweep(spec, records, {})
    with pytest.raises(ValueError, match=r"(lr|draw|n_train) must be one of"):
        call(sweep)


async def _async_setup(fig: Any, ax: Any) -> Any:
    (line,) = ax.plot([0, 1])
    return (lambda a: "x"), [line]


def _async_update_setup(fig: Any, ax: Any) -> Any:
    (line,) = ax.plot([0, 1])

    async def update(a: Any) -> str:
        return "x"

    return update, [line]


def _coroutine_artists_setup(fig: Any, ax: Any) -> Any:
    async def artists() -> list:
        return []

    return (lambda a: "x"), artists()


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        (_async_setup, "setup must return a pair"),
        (_async_update_setup, "must return the readout text"),
        (_coroutine_artists_setup, "sequence of artists"),
    ],
    ids=["setup", "update", "artists"],
)
def test_hostile_pass_47_refused_coroutines_are_closed(setup, words):
    """An `async def` setup or update is refused, and its coroutine closed: no "never awaited" warning."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with pytest.raises(TypeError, match=words):
            Explorer("t", [Control("a", "a", (1, 2))], setup)
        gc.collect()
    assert not [w for w in seen if "never awaited" in str(w.message)]


def test_hostile_pass_47_readout_length_checked():
    def setup(fig: Any, ax: Any) -> Any:
        (line,) = ax.plot([0, 1])
        return (lambda a: "x" * (embedlab.widgets.MAX_READOUT + 1)), [line]

    with pytest.raises(ValueError, match="readout of at most"):
        Explorer("t", [Control("a", "a", (1, 2))], setup)


# ---------------------------------------------------------------- hostile pass 48
class _EqualToAll:
    """Distinct hashes, but == says True to anything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return id(self)


@pytest.mark.parametrize(
    ("values", "gives"),
    [
        ((np.datetime64("2020-01"), np.datetime64("2019-12-30", "W")), "True"),  # the same day, two units
        ((np.datetime64(0, "D"), np.datetime64(1, "ps")), "OverflowError"),  # no common unit holds both
        ((np.complex64(0.1), (np.float32(0.1),)), "a ndarray"),  # elementwise
        ((np.datetime64("2020-01-01"), (1, 2)), "a ndarray"),
        (("a", _EqualToAll(), "b"), "True"),
    ],
    ids=["datetime-units", "datetime-overflow", "complex-tuple", "datetime-tuple", "equal-to-all"],
)
def test_hostile_pass_48_values_equality_cannot_tell_apart_refused(values, gives):
    """A slider compares its values with == (traitlets, ipywidgets): each pair must give False, or the
    control is refused, naming what == gave."""
    with pytest.raises(ValueError, match=f"told apart by ==, but .* gives {gives}$"):
        Control("t", "T", values)


def test_hostile_pass_48_many_values_compared_by_equality_refused():
    values = tuple(np.datetime64("2020-01-01") + np.arange(embedlab.widgets.MAX_OTHER_VALUES + 1))
    with pytest.raises(ValueError, match="neither numbers nor str"):
        Control("t", "T", values)


@pytest.mark.parametrize(
    "draw",
    [
        lambda res, ax: embedlab.train_plots.loss_curves(res, ax),
        lambda res, ax: embedlab.train_plots.drift_bars(res, ax),
        lambda res, ax: embedlab.train_plots.geometry_summary(res, ax),
        lambda res, ax: embedlab.train_plots.update_counts(res, ax),
        lambda res, ax: embedlab.train_plots.geometry_scatter(np.zeros((2, 2)), np.array(["a", "b"]), ax=ax),
    ],
    ids=["loss_curves", "drift_bars", "geometry_summary", "update_counts", "geometry_scatter"],
)
def test_hostile_pass_48_training_plots_refuse_3d_axes(draw):
    """A 3-D Axes is refused by name before anything is drawn, as every plot of plots refuses it."""
    ax = plt_mod.figure().add_subplot(projection="3d")
    try:
        with pytest.raises(TypeError, match="ax must be a 2-D matplotlib Axes"):
            draw(_small_compare(), ax)
        assert not ax.lines and not ax.collections and not ax.patches
    finally:
        plt_mod.close(ax.figure)


def test_hostile_pass_48_geometry_panels_refuse_3d_axes():
    fig = plt_mod.figure()
    try:
        fig.add_subplot(1, 3, 1), fig.add_subplot(1, 3, 2), fig.add_subplot(1, 3, 3, projection="3d")
        with pytest.raises(TypeError, match="fig must hold 3 two-dimensional Axes"):
            embedlab.train_plots.geometry_panels(_small_compare(), fig=fig)
    finally:
        plt_mod.close(fig)


# ---------------------------------------------------------------- hostile pass 49
@pytest.mark.parametrize(
    "values",
    [
        (np.float64(1.0), 10**400),  # NumPy's == raises OverflowError
        (10**400, np.float64(1.0)),
        (np.float32(1.0), 2**200),  # NumPy's == warns of an overflow in a cast
        (np.float16(1.0), 70000),
        (np.float32(1.0), 1e300),
    ],
    ids=["float64-huge-int", "huge-int-first", "float32-int", "float16-int", "float32-float"],
)
def test_hostile_pass_49_numbers_numpy_cannot_compare_refused(values):
    """A slider compares its values with NumPy's ==, which raises or warns here: refused when made."""
    with pytest.raises(ValueError, match="NumPy's == cannot tell"):
        Control("a", "A", values)


class _EqualityRaises:
    def __init__(self, error: type[BaseException]) -> None:
        self.error = error

    def __eq__(self, other: object) -> bool:
        raise self.error

    __hash__ = object.__hash__


class _OwnBaseError(BaseException):
    pass


@pytest.mark.parametrize("error", [GeneratorExit, _OwnBaseError], ids=["GeneratorExit", "own-BaseException"])
def test_hostile_pass_49_equality_raising_any_base_exception_refused(error):
    with pytest.raises(ValueError, match=f"gives {error.__name__}$"):
        Control("a", "A", [_EqualityRaises(error), _EqualityRaises(error)])


def _self_referring() -> list:
    loop: list = []
    loop.append(loop)
    loop.append(loop)
    return loop


def _doubling() -> Any:
    x = None
    for _ in range(30):
        x = [x, x]  # 2**30 leaves, from 30 lists
    return x


@pytest.mark.parametrize(
    "make",
    [
        lambda axes: embedlab.train_plots.gap_plot(_sweep_listing(data_sizes=(500,), draws=(0,)), axes),
        lambda axes: figures_mod.projection_panels(np.zeros(2), np.eye(3, 2), ["a", "b", "c"], axes=axes),
    ],
    ids=["gap_plot", "projection_panels"],
)
@pytest.mark.parametrize("axes", [_self_referring, _doubling], ids=["self-referring", "doubling"])
def test_hostile_pass_49_nested_axes_refused_without_expanding(make, axes):
    """Axes are read one level deep by len, never expanded by NumPy: refused at once, with little memory."""
    given = axes()
    tracemalloc.start()
    try:
        with pytest.raises((TypeError, ValueError), match="axes must be"):
            make(given)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MiB allocated to refuse nested axes"


class _Restless:
    """A hash that fails from its third call: after Control's first look at it."""

    calls = 0

    def __hash__(self) -> int:
        _Restless.calls += 1
        if _Restless.calls > 2:
            raise KeyError("late")
        return _Restless.calls

    def __eq__(self, other: object) -> bool:
        return self is other


class _Keyed:
    def __init__(self, k: int) -> None:
        self.k = k

    def __hash__(self) -> int:
        return hash(self.k)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Keyed) and other.k == self.k


def test_hostile_pass_49_hash_failing_late_or_changing_refused_by_name():
    _Restless.calls = 0
    with pytest.raises(TypeError, match="must be hashable plain values"):
        Control("a", "A", [_Restless(), _Restless()], fmt=lambda v: str(id(v)))
    first = _Keyed(1)
    c = Control("a", "A", [first, _Keyed(2)], fmt=lambda v: str(v.k))
    first.k = 5
    with pytest.raises(ValueError, match="no longer found among its values"):
        c.static_values  # noqa: B018


@pytest.mark.parametrize("projection", ["mollweide", "aitoff", "hammer", "lambert"])
@pytest.mark.parametrize(
    "draw",
    [
        lambda ax: embedlab.train_plots.loss_curves(_small_compare(), ax),
        lambda ax: embedlab.train_plots.drift_bars(_small_compare(), ax),
        lambda ax: figures_mod.saturation_curves(ax=ax),
        lambda ax: plots_mod.curve([0, 1], [0, 1], ax),
    ],
    ids=["loss_curves", "drift_bars", "saturation_curves", "curve"],
)
def test_hostile_pass_49_map_projections_refused_by_name(draw, projection):
    ax = plt_mod.figure().add_subplot(projection=projection)
    try:
        with pytest.raises(TypeError, match=f"ax must be a 2-D matplotlib Axes or None, got a {projection} map"):
            draw(ax)
        assert not ax.lines and not ax.collections and not ax.patches
    finally:
        plt_mod.close(ax.figure)


def test_hostile_pass_49_longdouble_beyond_float64_answer_named():
    with pytest.raises(ValueError, match="answer must be a finite number of float size"):
        embedlab.quiz.grade_number("1", np.longdouble("1e4000"), abs_tol=0.1)


# ---------------------------------------------------------------- hostile pass 50
def _shared_nesting(levels: int = 40) -> list:
    x: list = []
    for _ in range(levels):
        x = [x, x]  # 2**40 leaves, from 40 lists: a full repr never ends
    return x


def _raise_zero_division(self: Any) -> str:
    raise ZeroDivisionError


_FakeInt = type("int", (), {"__repr__": _raise_zero_division})  # named "int": reprlib took it for the built-in


class _ReprRaisesBase:
    def __repr__(self) -> str:
        raise _OwnBaseError


class _SubList(list):
    pass


def _object_array_holding(x: Any) -> np.ndarray:
    out = np.empty(1, dtype=object)
    out[0] = x
    return out


@pytest.mark.parametrize(
    "odd",
    [
        [10**5000],  # an int past Python's 4,300-digit repr limit, inside a list
        {"a": 10**5000},
        (frozenset({10**5000}),),
        [_FakeInt()],
        [_ReprRaisesBase()],
        collections.deque([_shared_nesting()]),
        types_mod.SimpleNamespace(a=_shared_nesting()),
        [_SubList(_shared_nesting())],
        [collections.OrderedDict(a=_shared_nesting())],
        [_object_array_holding(_shared_nesting())],
        [b"\0" * 200_000_000],
    ],
    ids=[
        "huge-int", "huge-int-dict", "huge-int-frozenset", "named-int", "repr-base-exception", "deque",
        "namespace", "list-subclass", "ordered-dict", "object-array", "big-bytes",
    ],
)  # fmt: skip
def test_hostile_pass_50_messages_show_odd_containers_at_once(odd):
    """Every message shows what arrived in a few levels and items: no hang, no repr of the whole, no
    other exception type, however the containers nest or their items' reprs behave."""
    tracemalloc.start()
    try:
        with pytest.raises(TypeError, match=r"^vocab_size must be"):
            embedlab.budget.param_count(odd, 2, tied=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MiB allocated to describe the input"


def test_hostile_pass_50_control_and_quiz_describe_huge_ints_in_lists():
    with pytest.raises((TypeError, ValueError), match="control 'a'"):
        Control("a", "a", (1, (10**5000,)))
    with pytest.raises(TypeError, match=r"^x must be a finite number, got \[<an int of 16,610 bits>\]$"):
        embedlab.quiz.within([10**5000], 0.0, 0.1)


class _PosingAsAxes:
    @property
    def __class__(self) -> type:
        return matplotlib_axes_mod.Axes


@pytest.mark.parametrize(
    "draw",
    [
        lambda fake: plots_mod.curve([0, 1], [0, 1], ax=fake),
        lambda fake: figures_mod.projection_panels([0.5, 0.2, -0.3], embedlab.E_TOY, axes=[fake] * 4),
        lambda fake: figures_mod.projection_panels([0.5, 0.2, -0.3], embedlab.E_TOY, axes=[[fake, fake]] * 2),
    ],
    ids=["curve", "projection_panels", "projection_panels-grid"],
)
def test_hostile_pass_50_object_posing_as_axes_refused(draw):
    with pytest.raises((TypeError, ValueError), match=r"^axe?s? must be"):
        draw(_PosingAsAxes())


def _log_axes(x: str = "linear", y: str = "log") -> Any:
    ax = plt_mod.figure().add_subplot()
    ax.set_xscale(x)
    ax.set_yscale(y)
    return ax


@pytest.mark.parametrize(
    "draw",
    [
        lambda: figures_mod.embedding_shares(ax=_log_axes()),
        lambda: plots_mod.heatmap(np.eye(3), ax=_log_axes()),
        lambda: figures_mod.alignment_arrows([1.0, 0.0], {"a": [0.0, 1.0]}, ax=_log_axes("log", "log")),
        lambda: plots_mod.arrows(np.array([[1.0, 0.0], [-1.0, 1.0]]), ax=_log_axes("log", "linear")),
    ],
    ids=["embedding_shares", "heatmap", "alignment_arrows", "arrows"],
)
def test_hostile_pass_50_log_scaled_axes_refused_without_warning(draw):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError, match="scales \\(set a log scale after drawing\\)"):
            draw()
    plt_mod.close("all")


def test_hostile_pass_50_claims_refuse_shared_nesting_at_once_and_bools_in_lists():
    shared = [0.5] * 200
    for _ in range(3):
        shared = [shared] * 200  # 1.6 billion values, from a few KB of lists
    with pytest.raises(ValueError, match=r"^draft must hold at most 10,000 values"):
        embedlab.claims.check("x", shared, 1.0, 0)
    for draft, computed in (([True, 2.0], [1.0, 2.0]), ([np.bool_(True), 2.0], [1.0, 2.0]), ([1.0, 2.0], [True, 2.0])):
        with pytest.raises(TypeError, match=r"must be a number or an array of numbers, got (np\.)?True_? among them"):
            embedlab.claims.check("x", draft, computed, 0)


# ---------------------------------------------------------------- hostile pass 51
class _GrowsOnRepr:
    """Its repr adds a key to the dict that holds it."""

    def __init__(self, owner: dict) -> None:
        self.owner = owner

    def __repr__(self) -> str:
        self.owner[object()] = 1
        return "k"


def _dict_growing_on_repr() -> dict:
    d: dict = {}
    d[_GrowsOnRepr(d)] = 1
    return d


class _ModuleComparesBadly:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("module ==")

    __hash__ = object.__hash__


def _odd_module_object() -> Any:
    """An object whose class's __module__ is no str, and compares by raising."""
    kind = type("OddModule", (), {})
    kind.__module__ = _ModuleComparesBadly()
    return kind()


@pytest.mark.parametrize(
    "odd",
    [
        bytearray(4 * 10**8),  # kinds whose repr holds their whole content: never called
        decimal.Decimal("1" * 10**7),
        _dict_growing_on_repr(),
        _odd_module_object(),
    ],
    ids=["bytearray", "decimal", "dict-growing", "odd-module"],
)
def test_hostile_pass_51_messages_never_repr_what_may_be_whole(odd):
    """Described at once, by class or a few items, whatever the input holds or does when shown."""
    tracemalloc.start()
    try:
        with pytest.raises(TypeError, match=r"^x must be a finite number"):
            embedlab.quiz.within(odd, 0.0, 0.1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * 2**20, f"{peak / 2**20:.1f} MiB allocated to describe the input"


@pytest.mark.parametrize(
    "odd",
    ["slice(x)", "ValueError(x)", "{0: x}.values()"],
    ids=["slice", "exception", "dict-keys"],
)
def test_hostile_pass_51_messages_never_walk_a_shared_nesting_held_by_another_kind(odd):
    """In a fresh process (a hang in C cannot be stopped from within): a slice, an exception or a dict
    view holding a nesting of 2**40 shared leaves is described at once."""
    code = (
        "import embedlab.quiz\n"
        "x = ()\n"
        "for _ in range(40):\n"
        "    x = (x, x)\n"
        "x = list(x)\n"
        "try:\n"
        f"    embedlab.quiz.within({odd}, 0.0, 0.1)\n"
        "except TypeError as exc:\n"
        "    print(exc)\n"
    )
    try:
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"within({odd}, 0.0, 0.1) ran for more than 60 s")
    assert run.returncode == 0 and run.stdout.startswith("x must be a finite number, got <"), run.stderr[-500:]


@pytest.mark.parametrize(
    ("draft", "computed"),
    [
        ([[[[[True, 0.5]]]]], [[[[[1.0, 0.5]]]]]),  # deeper than the old 4 levels
        ([np.array(True), 0.5], [1.0, 0.5]),  # a bool array among numbers
        ([np.array([True]), np.array([0.5])], [[1.0], [0.5]]),
        ([[[[[1.0, 0.5]]]]], [[[[[np.True_, 0.5]]]]]),
    ],
    ids=["deep", "0-d-array", "1-d-arrays", "computed"],
)
def test_hostile_pass_51_claims_refuse_bools_at_any_depth(draft, computed):
    with pytest.raises(TypeError, match=r"must be a number or an array of numbers, got .* among them"):
        embedlab.claims.check("x", draft, computed, 1)


def test_hostile_pass_51_claims_count_arrays_and_deep_lists_before_copying():
    rows = [[0.5] * 1000] * 1000
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"^draft must hold at most 10,000 values"):
            embedlab.claims.check("x", [[[[rows] * 10]]], 0.5, 1)
        with pytest.raises(ValueError, match=r"^draft must hold at most 10,000 values"):
            embedlab.claims.check("x", [np.zeros(20_000)], 0.5, 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MiB allocated before refusing"


def _polar_axes() -> Any:
    return plt_mod.figure().add_subplot(projection="polar")


def _removed_axes() -> Any:
    ax = plt_mod.figure().add_subplot()
    ax.remove()
    return ax


@pytest.mark.parametrize(
    ("make", "what"),
    [(_removed_axes, "an Axes removed from its figure"), (_polar_axes, "a polar Axes")],
    ids=["removed", "polar"],
)
@pytest.mark.parametrize(
    "draw",
    [
        lambda ax: figures_mod.saturation_curves(ax=ax),
        lambda ax: figures_mod.embedding_shares(ax=ax),
        lambda ax: plots_mod.heatmap(np.eye(3), ax),
        lambda ax: plots_mod.arrows(np.array([[1.0, 0.0], [0.0, 1.0]]), ax),
    ],
    ids=["saturation_curves", "embedding_shares", "heatmap", "arrows"],
)
def test_hostile_pass_51_removed_and_polar_axes_refused_before_drawing(make, what, draw):
    ax = make()
    try:
        with pytest.raises(TypeError, match=f"^ax must be a 2-D matplotlib Axes or None, got {what}$"):
            draw(ax)
        assert not ax.lines and not ax.collections and not ax.patches
    finally:
        plt_mod.close("all")


# ---------------------------------------------------------------- issue 19: what hostile pass 51 left open


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: embedlab.lookup(np.eye(3), [[_MetaInt(1)]]), "ids must hold plain values"),
        (lambda: embedlab.softmax([0.0, _MetaFloat(0.5)]), "z must hold plain values"),
        (lambda: embedlab.widgets.Control("x", "x", [1, _MetaInt(2)]), "must hold plain values"),
        (lambda: embedlab.quiz.within(_MetaFloat(0.5), 1.0, 0.1), "x must be a finite number"),
        (lambda: embedlab.model.finite_difference_grad(_MetaInt, np.ones((2, 2))), "loss must be a function"),
        (lambda: embedlab.widgets.Explorer("t", [embedlab.widgets.Control("x", "x", [1, 2])], _MetaInt), "setup must"),
    ],
    ids=["nested-id", "nested-logit", "control-value", "quiz-number", "loss-class", "setup-class"],
)
def test_hostile_pass_51_a_metaclass_whose_eq_or_hash_raises_is_refused_by_name(make, words):
    with pytest.raises((TypeError, ValueError), match=re.escape(words)):
        make()


@pytest.mark.parametrize(
    "draw",
    [
        lambda ax: plots_mod.arrows(np.array([[1.0, 0.5]]), ax, limit=1.25),
        lambda ax: embedlab.train_plots.geometry_scatter(np.array([[1.0, 0.5], [0.2, -0.3]]), ["a", "b"], ax),
    ],
    ids=["arrows", "geometry_scatter"],
)
def test_hostile_pass_51_equal_aspect_plots_keep_their_limits_or_refuse_a_twinned_axes(draw, caplog):
    fig, ax = plt_mod.subplots()
    try:
        twin = ax.twinx()
        with pytest.raises(ValueError, match=r"^ax must be an Axes of its own, not a twinned one"):
            draw(twin)
        assert not twin.lines and not twin.collections and not twin.patches
        fig, ax = plt_mod.subplots()  # an Axes of its own (the first is twinned too now)
        ax.set_adjustable("datalim")  # matplotlib would move the limits set, and log that it did
        with caplog.at_level("WARNING", logger="matplotlib"):
            draw(ax)
            fig.canvas.draw()
        assert not caplog.records, [r.getMessage() for r in caplog.records]
        assert ax.get_xlim() == ax.get_ylim()  # the square the plot asked for, kept
    finally:
        plt_mod.close("all")


def test_hostile_pass_51_a_class_written_in_c_is_not_said_to_redefine_its_class():
    with pytest.raises(TypeError) as info:
        embedlab.budget.param_count(functools.partial(print), 3, tied=True)
    assert "vocab_size" in str(info.value) and "redefines" not in str(info.value)


# ---------------------------------------------------------------- issue 19: what hostile pass 52 found
def _odd_classes() -> dict[str, type]:
    """Classes of metaclasses whose attribute lookup, or __mro__, raises (made here, not at module level,
    where pytest's collection would look them up)."""

    class LookupMeta(type):
        def __getattribute__(cls, name):
            raise RuntimeError(f"a method of the caller's metaclass ran ({name})")

    class MroMeta(type):
        @property
        def __mro__(cls):
            raise RuntimeError("a method of the caller's metaclass ran (__mro__)")

    class LookupList(list, metaclass=LookupMeta):
        pass

    class LookupFloat(float, metaclass=LookupMeta):
        pass

    class MroThing(metaclass=MroMeta):
        pass

    return {"list": LookupList, "float": LookupFloat, "mro": MroThing}


_ODD = _odd_classes()  # a dict: pytest's collection does not look inside it


class _LenRaises(tuple):
    def __len__(self):
        raise RuntimeError("the caller's tuple subclass's __len__ ran")


def _setup_returning(artists):
    return lambda fig, ax: ((lambda **values: "x"), artists)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: embedlab.lookup(np.eye(3), _ODD["list"]([1])), "ids must hold plain values"),
        (lambda: embedlab.softmax([1.0, _ODD["list"]([1.0])]), "z must hold plain values"),
        (lambda: quiz_mod.grade_number("1", _ODD["float"](1.0), abs_tol=0.1), "answer must be a finite number"),
        (
            lambda: quiz_mod.grade_number("1", 1.0, abs_tol=0.1, slips=[quiz_mod.Slip(_ODD["float"](1.0), "x")]),
            "a slip's value must be a finite number",
        ),
        (lambda: embedlab.sweep.SweepSpec(data_sizes=_ODD["mro"]()), "data_sizes must be a sequence"),
        (lambda: embedlab.widgets.Control("a", "a", _ODD["mro"]()), "values of control 'a' must be a sequence"),
        (
            lambda: embedlab.widgets.Explorer(
                "t", [embedlab.widgets.Control("a", "a", (1, 2))], _setup_returning(_ODD["mro"]())
            ),
            "setup must return a sequence of artists",
        ),
        (lambda: embedlab.sweep.t_quantile(np.longdouble(0.5) + np.longdouble(1e-19), 1), "p must be above 0.5"),
        (lambda: embedlab.sweep.t_quantile(Fraction(1, 2) + Fraction(1, 10**400), 1), "p must be above 0.5"),
    ],
    ids=["nested-list", "list-item", "answer", "slip", "data_sizes", "control", "setup", "longdouble-p", "fraction-p"],
)
def test_hostile_pass_52_odd_metaclasses_and_unreadable_p_refused_by_name(make, words):
    with pytest.raises((TypeError, ValueError), match=re.escape(words)):
        make()


def test_hostile_pass_52_run_point_reads_a_tuple_subclass_by_tuple_itself(monkeypatch):
    class Ran(Exception):
        pass

    def fit(*args, **kwargs):  # the run itself, stubbed: reached only once the point has been read
        raise Ran

    monkeypatch.setattr(embedlab.sweep, "fit", fit)
    point = embedlab.sweep.SweepSpec().points()[0]
    with pytest.raises(Ran):
        embedlab.sweep.run_point(_LenRaises(point))


# ---------------------------------------------------------------- issue 19: what hostile pass 53 found
class _RaisingStr(str):
    def __str__(self):
        raise RuntimeError("the caller's str subclass's __str__ ran")


class _RaisingPath(type(Path())):
    def __str__(self):
        raise RuntimeError("the caller's Path subclass's __str__ ran")

    def __fspath__(self):
        raise RuntimeError("the caller's Path subclass's __fspath__ ran")


class _PathLiar:
    __class__ = property(lambda self: Path)


class _EndlessTuple(tuple):
    def __iter__(self):
        return itertools.count(3)


class _LenRaisingList(list):
    def __len__(self):
        raise RuntimeError("the caller's list subclass's __len__ ran")


class _FloatRaisingFraction(Fraction):
    def __float__(self):
        raise RuntimeError("the caller's Fraction subclass's __float__ ran")


class _FloatLyingFraction(Fraction):
    def __float__(self):
        return 0.75


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: embedlab.sweep.load_results(_RaisingStr("/nowhere/x.json")), "path '/nowhere/x.json' is not a file"),
        (lambda: embedlab.sweep.load_results(_RaisingPath("/nowhere/x.json")), "path '/nowhere/x.json' is not a file"),
        (lambda: embedlab.sweep.load_results(_PathLiar()), "path must be a str or pathlib.Path"),
        (lambda: embedlab.gpt2.load_encoding(_RaisingPath("/nowhere/e.json")), "encoder_path must be the path"),
        (lambda: embedlab.gpt2.load_encoding(_PathLiar()), "encoder_path must be the path of encoder.json"),
        (lambda: embedlab.sweep.load_results().save(_PathLiar()), "path must be a str or pathlib.Path"),
    ],
    ids=["str-subclass", "path-subclass", "path-liar", "encoder-path-subclass", "encoder-path-liar", "save-liar"],
)
def test_hostile_pass_53_paths_read_as_the_path_they_hold(make, words):
    with pytest.raises((TypeError, ValueError), match=re.escape(words)):
        make()


def test_hostile_pass_53_sequences_read_by_list_or_tuple_itself():
    """A subclass's endless __iter__ or raising __len__ never runs: the figure is drawn from the items held."""
    try:
        _, parts = figures_mod.saturation_curves(_EndlessTuple((3, 4)))
        assert len(parts["lines"]) == 2
        _, parts = figures_mod.saturation_curves(_LenRaisingList([3]))
        assert len(parts["lines"]) == 1
        figures_mod.projection_panels(np.array([1.0, 0.5, -0.2]), np.eye(3), _EndlessTuple(("a", "b", "c")))
    finally:
        plt_mod.close("all")


@pytest.mark.parametrize("kind", [_FloatRaisingFraction, _FloatLyingFraction])
def test_hostile_pass_53_a_fraction_subclass_is_read_by_its_fields(kind, capsys):
    embedlab.claims.check("x", kind(1, 4), 0.25, 2)
    assert capsys.readouterr().out.strip() == "x: draft 0.25, computed 0.25 -> agrees"


def test_hostile_pass_53_a_live_view_numbers_at_most_2_to_the_53_combinations():
    controls = [Control(f"c{i}", "c", tuple(range(10_000)), static_every=10_000) for i in range(4)]
    with pytest.raises(ValueError, match=re.escape("controls must have at most 2**53 combinations")):
        Explorer("big", controls, lambda fig, ax: ((lambda **v: "x"), []))


def test_hostile_pass_53_timed_update_on_a_shown_view_moves_its_sliders():
    pytest.importorskip("ipywidgets")
    ex = _line_explorer()
    box = ex.widget()
    view, sent = box.children[-1], []
    view.send = lambda content, buffers=None: sent.append(content)
    ex.timed_update(x=3)
    assert box.children[0].value == 3 and ex.values == {"x": 3} and sent[-1] == {"frame": 2, "text": "x=3"}


# ---------------------------------------------------------------- issue 19: what hostile pass 54 found
class _ArrayFraction(Fraction):
    def __array__(self, dtype=None, copy=None):
        return np.array(0.25)


class _PlainMeta(type):
    """A metaclass that redefines nothing (its own __module__ and __qualname__ are plain text)."""


class _PlainMetaFloat(float, metaclass=_PlainMeta):
    pass


_ABC_META_FLOAT = type("MA", (abc.ABCMeta,), {})("MAFloat", (float,), {})  # a subclass of ABCMeta, as is


class _RaisingClass:
    __class__ = property(lambda self: 1 / 0)


class _StrLiar:
    __class__ = property(lambda self: str)

    def __len__(self):
        return 1


def test_hostile_pass_54_a_windows_path_on_this_system_is_refused_before_writing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TypeError, match=r"^path must be a str or pathlib\.Path of this system, got PureWindowsPath"):
        embedlab.sweep.load_results().save(pathlib.PureWindowsPath(str(tmp_path / "w.json")))
    assert list(tmp_path.iterdir()) == []


def test_hostile_pass_54_claims_read_a_fraction_subclass_by_its_fields(capsys):
    embedlab.claims.check("x", _ArrayFraction(1, 2), 0.5, 2)
    assert capsys.readouterr().out.strip() == "x: draft 0.50, computed 0.50 -> agrees"


@pytest.mark.parametrize("kind", [_PlainMetaFloat, _ABC_META_FLOAT], ids=["plain-metaclass", "abcmeta-subclass"])
def test_hostile_pass_54_a_metaclass_that_redefines_nothing_is_accepted(kind, capsys):
    embedlab.claims.check("x", kind(0.25), 0.25, 2)
    assert capsys.readouterr().out.strip() == "x: draft 0.25, computed 0.25 -> agrees"
    assert Control("a", "a", [kind(0.5), kind(1.5)]).values == (0.5, 1.5)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: embedlab.gpt2.encode(_RaisingClass()), "text must be a str"),
        (lambda: embedlab.claims.check(_RaisingClass(), 0.5, 0.5, 1), "label must be a str"),
        (lambda: Control("a", _RaisingClass(), [1, 2]), "label of a control must be a str"),
        (lambda: Control(_StrLiar(), "x", [1, 2]), "name of a control must be a str"),
        (lambda: Control("a", _StrLiar(), [1, 2]), "label of a control must be a str"),
        (lambda: embedlab.gpt2.encode(_StrLiar()), "text must be a str"),
    ],
    ids=["encode-raising", "claims-raising", "control-label-raising", "name-liar", "label-liar", "encode-liar"],
)
def test_hostile_pass_54_an_object_lying_about_its_class_is_refused_by_name(make, words):
    with pytest.raises(TypeError, match=re.escape(words)):
        make()


# ---------------------------------------------------------------- issue 19: what hostile pass 55 found
class _RaisingWindowsPath(pathlib.PureWindowsPath):
    def __str__(self):
        raise RuntimeError("the caller's path subclass's __str__ ran")


class _PairRaising(tuple):
    def __len__(self):
        raise RuntimeError("the caller's tuple subclass's __len__ ran")

    def __getitem__(self, i):
        raise RuntimeError("the caller's tuple subclass's __getitem__ ran")


class _AttributesRaise:
    def __getattr__(self, name):
        raise RuntimeError(f"the caller's __getattr__ ran ({name})")


class _PatchesInt:
    patches = 5


class _PlainList(list):
    pass


def _setup_giving(make):
    def setup(fig, ax):
        (line,) = ax.plot([0, 1])
        return make(lambda **values: "r", line)

    return setup


def test_hostile_pass_55_a_path_of_another_system_is_refused_without_its_own_str():
    words = r"^path must be a str or pathlib\.Path of this system, got _RaisingWindowsPath$"
    with pytest.raises(TypeError, match=words):
        embedlab.sweep.load_results(_RaisingWindowsPath("C:/x.json"))


def test_hostile_pass_55_setup_results_read_by_tuple_and_list_themselves():
    controls = [Control("a", "a", (1, 2))]
    assert Explorer("t", controls, _setup_giving(lambda u, line: _PairRaising((u, [line])))).readout == "r"
    explorer = Explorer("t", _PlainList(controls), _setup_giving(lambda u, line: (u, _PlainList([line]))))
    assert explorer.readout == "r" and explorer.controls == tuple(controls)
    for odd in (_AttributesRaise(), _PatchesInt()):
        with pytest.raises(TypeError, match=r"^setup must return matplotlib artists as its second item"):
            Explorer("t", controls, _setup_giving(lambda u, line, odd=odd: (u, [odd])))
    plt_mod.close("all")


def test_hostile_pass_55_a_numpy_record_array_is_not_said_to_lie_about_its_class():
    records = np.recarray((4, 3), float)
    with pytest.raises(TypeError) as info:
        embedlab.lookup(records, [0, 1])
    assert str(info.value).startswith("E must") and "redefines" not in str(info.value)


# ---------------------------------------------------------------- issue 19: what hostile pass 56 found
class _ListLenLies(list):
    def __len__(self):
        return 0


class _ListLenRaises(list):
    def __len__(self):
        raise KeyError("the caller's list subclass's __len__ ran")


class _ListLenHuge(list):
    def __len__(self):
        return 2**70


class _TupleIterRaises(tuple):
    def __iter__(self):
        raise IndexError("the caller's tuple subclass's __iter__ ran")


class _TupleLenRaises(tuple):
    def __len__(self):
        raise KeyError("the caller's tuple subclass's __len__ ran")


def _fails_part_way(first):
    yield first
    raise KeyError("the caller's iterator failed part-way")


@pytest.mark.parametrize("kind", [_ListLenLies, _ListLenRaises, _ListLenHuge])
@pytest.mark.parametrize("read", [embedlab.gpt2.decode, embedlab.gpt2.tokens, embedlab.gpt2.token_bytes])
def test_hostile_pass_56_gpt2_sizes_token_ids_by_lists_own_length(read, kind):
    """decode(Z([464, 3797])) gave '' (Z's len said 0), KeyError or OverflowError: now refused by name."""
    with pytest.raises(TypeError, match=r"^ids must be plain lists, tuples or arrays, got a list subclass"):
        read(kind([464, 3797]))


@pytest.mark.parametrize("seeds", [_ListLenRaises([0]), _TupleIterRaises((0,)), _ListLenHuge([0])])
def test_hostile_pass_56_compare_reads_seeds_by_lists_own_methods(seeds):
    """compare(K([0]), ...) raised KeyError, compare(TI((0,)), ...) IndexError: the seeds are what they hold."""
    res = embedlab.compare(seeds, make_corpus(0), d=4, steps=2, n_checkpoints=2)
    assert sorted(res.configs) == ["tied", "untied", "untied, same params"]


def test_hostile_pass_56_an_iterator_that_fails_part_way_is_refused_by_name():
    with pytest.raises(TypeError, match=r"^seeds must be a sequence of ints; reading its items failed \(KeyError\)$"):
        embedlab.compare(_fails_part_way(0), make_corpus(0), d=4, steps=2, n_checkpoints=2)
    with pytest.raises(TypeError, match=r"^data_sizes must be a sequence of ints; reading its items failed"):
        SweepSpec(data_sizes=_fails_part_way(500))
    with pytest.raises(TypeError, match=r"^choices must be a sequence of str; reading its items failed"):
        quiz_mod.Exercise("q", "a", choices=_fails_part_way("a"), solution="s")


@pytest.mark.parametrize("field", ["data_sizes", "seeds", "draws", "widths", "lrs"])
def test_hostile_pass_56_sweep_grids_read_by_tuples_own_methods(field):
    """SweepSpec(data_sizes=TI((500,))) raised IndexError, a list subclass KeyError."""
    default = getattr(SweepSpec(), field)
    assert getattr(SweepSpec(**{field: _TupleIterRaises(default)}), field) == default
    assert getattr(SweepSpec(**{field: _ListLenRaises(default)}), field) == default


def test_hostile_pass_56_quiz_choices_and_slips_read_by_tuples_own_methods():
    """Exercise(choices=TI(...)) and grade_number(slips=TI(...)) raised IndexError."""
    assert quiz_mod.Exercise("q", "a", choices=_TupleIterRaises(("a", "b")), solution="s").choices == ("a", "b")
    slip = quiz_mod.Slip(2.0, "that is twice it")
    assert quiz_mod.grade_number("2", 1.0, abs_tol=0.1, slips=_TupleIterRaises((slip,))).message == "that is twice it"
    assert quiz_mod.grade_number("2", 1.0, abs_tol=0.1, slips=_TupleLenRaises((slip,))).status == "slip"


def test_hostile_pass_56_training_reads_batch_and_betas_by_tuples_own_methods():
    """loss(p, TI2(batch)) and adam_step(betas=TI2(...)) raised KeyError from the subclass's __len__."""
    p = embedlab.train.init_params(10, 4, tied=True, seed=0)
    contexts, targets = np.array([[1, 2, 3], [2, 3, 4]]), np.array([4, 5])
    plain = embedlab.train.loss(p, (contexts, targets))
    assert embedlab.train.loss(p, _TupleLenRaises((contexts, targets))) == plain
    assert embedlab.train.loss_and_grads(p, _TupleLenRaises((contexts, targets)))[0] == plain
    grads = {k: np.full_like(v, 0.5) for k, v in p.items()}
    a, b = {k: v.copy() for k, v in p.items()}, {k: v.copy() for k, v in p.items()}
    embedlab.train.adam_step(a, grads, embedlab.train.adam_state(a), 0.01, betas=(0.8, 0.99))
    embedlab.train.adam_step(b, grads, embedlab.train.adam_state(b), 0.01, betas=_TupleLenRaises((0.8, 0.99)))
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_hostile_pass_56_valid_subclasses_and_numpy_bools_are_accepted():
    """A str-subclass answer, percent=np.True_ and a namedtuple figsize were refused."""

    class Answer(str):
        pass

    exercise = quiz_mod.Exercise("q", Answer("a"), choices=["a", "b"], solution="s")
    assert type(exercise.answer) is str and exercise.answer == "a"
    assert quiz_mod.grade_number("50%", 0.5, abs_tol=0.01, percent=np.True_).right
    assert quiz_mod.grade_number("50%", 0.5, abs_tol=0.01, percent=np.False_).status == "nan"
    size = collections.namedtuple("Size", "width height")
    assert embedlab.display.check_figsize(size(6.0, 3.0)) == (6.0, 3.0)
    assert embedlab.display.check_figsize(_TupleIterRaises((1, 2))) == (1.0, 2.0)  # pass 21 refused it; read now
    with pytest.raises(TypeError, match=r"^figsize must be a \(width, height\) pair"):
        embedlab.display.check_figsize(size(6.0, 3.0)[:1])


# ---------------------------------------------------------------- issue 19: what hostile pass 57 found
def _tuple_of(base_items, **methods):
    return type("Odd", (tuple,), methods)(base_items)


def _list_of(base_items, **methods):
    return type("Odd", (list,), methods)(base_items)


def _raise_key(*_):
    raise KeyError("the caller's own method ran")


def test_hostile_pass_57_a_corpus_reads_its_vocab_and_splits_by_tuples_own_methods():
    """Corpus(vocab=T(...)) leaked KeyError or OverflowError, hung on an endless __iter__, took a split whose
    __len__ said 0 without checking its ids, and kept a vocab whose __iter__ reordered the words."""
    c = make_corpus()
    assert dataclasses.replace(c, vocab=_tuple_of(c.vocab, __len__=_raise_key)).vocab == c.vocab
    reordered = _tuple_of(c.vocab, __iter__=lambda s: iter(tuple(reversed(tuple.__getitem__(s, slice(None))))))
    assert dataclasses.replace(c, vocab=reordered).vocab == c.vocab
    endless = _tuple_of(c.train, __iter__=lambda s: itertools.repeat(c.train[0]))
    again = dataclasses.replace(c, train=endless)
    assert type(again.train) is tuple and len(again.train) == len(c.train)
    assert len(dataclasses.replace(c, train=_tuple_of(c.train, __len__=lambda s: 2**70)).train) == len(c.train)
    hidden_ids = _tuple_of((*c.train[:3], np.array([0, 10**6])), __len__=lambda s: 0)
    with pytest.raises(ValueError, match=r"^train must hold token ids in \[0, 126\], got ids in \[0, 1000000\]$"):
        dataclasses.replace(c, train=hidden_ids)


@pytest.mark.parametrize(
    "methods",
    [{"__iter__": lambda s: itertools.count()}, {"__len__": lambda s: 2**70}, {"__len__": _raise_key}],
    ids=["endless-iter", "huge-len", "raising-len"],
)
def test_hostile_pass_57_update_bars_reads_highlight_by_lists_own_methods(methods):
    """update_bars(highlight=L([0])) hung (an endless __iter__) or leaked OverflowError or KeyError."""
    container = plots_mod.bars([1.0, 2.0, 3.0], ["a", "b", "c"])
    plots_mod.update_bars(container, [1.0, 2.0, 3.0], highlight=_list_of([0, 2], **methods))
    colors = [p.get_facecolor() for p in container.patches]
    assert colors[0] == colors[2] != colors[1]
    plt_mod.close("all")


def test_hostile_pass_57_sweep_spec_from_dict_reads_lists_by_lists_own_methods():
    """from_dict gave seeds (0, 1, 2) for a list holding [0, 1] whose __iter__ lied, and hung on an endless one."""
    data = SweepSpec().to_dict()
    data["seeds"] = _list_of([0, 1], __iter__=lambda s: iter([0, 1, 2]))
    data["lrs"] = _list_of([0.01], __iter__=lambda s: itertools.count())
    spec = SweepSpec.from_dict(data)
    assert spec.seeds == (0, 1) and spec.lrs == (0.01,)


def test_hostile_pass_57_control_reads_a_list_by_lists_own_methods():
    """Control('a', 'a', L([1, 2, 3])).values was (7, 8, 9), what L's own __iter__ said."""
    assert Control("a", "a", _list_of([1, 2, 3], __iter__=lambda s: iter([7, 8, 9]))).values == (1, 2, 3)
    assert Control("a", "a", _tuple_of((1, 2), __len__=_raise_key)).values == (1, 2)


def test_hostile_pass_57_dot_of_products_past_the_float_range_that_cancel():
    """dot([1e300, 1e300], [1e10, -1e10]) said the dot product overflows; it is 0."""
    assert embedlab.dot([1e300, 1e300], [1e10, -1e10]) == 0.0
    assert embedlab.dot([1e300, 3e300], [1e5, -0.5e5]) == pytest.approx(-5e304, rel=1e-15)
    with pytest.raises(ValueError, match="a and b have a dot product too large for a float"):
        embedlab.dot([1e300, 3e300], [1e10, -0.5e10])


# ---------------------------------------------------------------- issue 19: what hostile pass 58 found
@pytest.mark.parametrize(
    "methods",
    [
        {"__len__": lambda s: 2**70},
        {"__iter__": lambda s: itertools.count()},
        {"__iter__": lambda s: iter(["untied"])},
        {"__len__": lambda s: 0},
        {"__iter__": _raise_key},
    ],
    ids=["huge-len", "endless-iter", "other-items", "len-0", "raising-iter"],
)
def test_hostile_pass_58_train_plots_read_names_by_lists_own_methods(methods):
    """loss_curves(res, names=L(["tied"])) leaked OverflowError, KeyError or StopIteration, hung, or judged
    the items L's own __iter__ made up: the names are what the list holds."""
    res = embedlab.compare((0,), make_corpus(0, n_train=60, n_valid=20, n_test=20), d=4, steps=20, n_checkpoints=4)
    drawn = embedlab.train_plots.loss_curves(res, names=_list_of(["tied"], **methods))
    assert sorted(k for k in drawn if k != "cut") == ["tied"] and drawn["tied"]["line"].get_label().startswith("tied (")
    plt_mod.close("all")


def test_hostile_pass_58_a_range_context_and_numpys_bool_for_legend_are_accepted():
    """gradient_explorer(range(3)) and loss_curves(legend=np.True_) were refused (minor: valid inputs)."""
    assert explorers_mod.gradient_explorer(range(3)).readout == explorers_mod.gradient_explorer([0, 1, 2]).readout
    with pytest.raises(ValueError, match=r"^context must be a flat sequence of at most 64 token ids, got 1,000,000"):
        explorers_mod.gradient_explorer(range(10**12))
    res = embedlab.compare((0,), make_corpus(0, n_train=60, n_valid=20, n_test=20), d=4, steps=20, n_checkpoints=4)
    assert embedlab.train_plots.loss_curves(res, legend=np.False_)["tied"]["line"].axes.get_legend() is None
    plt_mod.close("all")


# ---------------------------------------------------------------- issue 19: what hostile pass 60 found
@pytest.mark.parametrize(
    "change",
    [
        lambda s: [r.__setitem__("valid_curve", []) for r in s.records],
        lambda s: [r.pop("best_test") for r in s.records],
        lambda s: [r.__setitem__("best_valid", float("nan")) for r in s.records],
        lambda s: s.chosen(500, 8, True, "tied")[0].__setitem__("best_test", None),
        lambda s: s.meta.clear(),
    ],
    ids=["empty-curve", "missing-key", "nan-loss", "chosen-record", "meta"],
)
def test_hostile_pass_60_a_sweeps_records_cannot_be_changed_after_loading(change):
    """sweep_explorer(s) of a Sweep whose records were changed after loading raised IndexError or KeyError,
    or drew NaN dots (pass 60); its own methods did too (pass 61). What a Sweep gives out is a copy:
    an edit to it never reaches the sweep's answers."""
    fresh, changed = embedlab.sweep.load_results(), embedlab.sweep.load_results()
    change(changed)
    assert changed == fresh
    for cell in ((500, 8, True), (5000, 32, False)):
        assert changed.gap(*cell)["values"].tolist() == fresh.gap(*cell)["values"].tolist()
        assert changed.test_loss(*cell, "tied") == fresh.test_loss(*cell, "tied")
    assert changed.capped() == fresh.capped()
    drawn = embedlab.train_plots.sweep_explorer(changed)
    assert drawn.readout == embedlab.train_plots.sweep_explorer(fresh).readout
    plt_mod.close("all")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("spec", None),
        ("records", []),
        ("meta", None),
        ("spec", dataclasses.replace(embedlab.sweep.SweepSpec(), seeds=(0, 1))),
    ],
    ids=["no-spec", "no-records", "no-meta", "other-spec"],
)
def test_hostile_pass_61_a_sweeps_fields_are_read_only(name, value):
    """s.spec = None, s.records = [] or another spec made gap, capped and the others raise AttributeError or
    KeyError, or answer from the old records: the fields cannot be set."""
    s = embedlab.sweep.load_results()
    with pytest.raises(AttributeError, match="has no setter"):
        setattr(s, name, value)
    assert s == embedlab.sweep.load_results()


# ---------------------------------------------------------------- issue 19: what hostile pass 61 found
@functools.cache
def _r61() -> Any:
    return embedlab.compare((0, 1), make_corpus(0, n_train=60, n_valid=20, n_test=20), d=4, steps=20, n_checkpoints=4)


def _set_run(field, value):  # a TrainResult is frozen: the run is replaced by one changed so
    return lambda r: r.runs["tied"].__setitem__(0, dataclasses.replace(r.runs["tied"][0], **{field: value}))


_RES_EDITS = {
    "no-corpus": lambda r: setattr(r, "corpus", None),
    "no-runs": lambda r: r.runs.__setitem__("tied", []),
    "config-popped": lambda r: r.configs.pop("tied"),
    "no-configs": lambda r: setattr(r, "configs", None),
    "run-popped": lambda r: r.runs.pop("tied"),
    "E-popped": lambda r: r.runs["tied"][0].params.pop("E"),
    "W-popped": lambda r: r.runs["untied"][0].params.pop("W"),
    "E-reshaped": lambda r: r.runs["tied"][0].params.__setitem__("E", np.zeros((3, 3))),
    "no-checkpoints": _set_run("checkpoint_steps", np.array([], int)),
    "no-rows-touched": _set_run("rows_touched", None),
    "no-steps": _set_run("steps", 0),
    "more-seeds": lambda r: setattr(r, "seeds", (0, 1, 2)),
    "nan-loss": lambda r: r.runs["tied"][0].valid_loss.__setitem__(0, np.nan),
    "nan-E": lambda r: r.runs["tied"][1].params["E"].__setitem__((0, 0), np.inf),
}

_RES_READERS = {
    "drift_bars": lambda r: embedlab.train_plots.drift_bars(r),
    "loss_curves": lambda r: embedlab.train_plots.loss_curves(r),
    "update_counts": lambda r: embedlab.train_plots.update_counts(r),
    "geometry_summary": lambda r: embedlab.train_plots.geometry_summary(r),
    "geometry_panels": lambda r: embedlab.train_plots.geometry_panels(r),
    "training_explorer": lambda r: embedlab.train_plots.training_explorer(r),
    "curves": lambda r: r.curves("untied"),
    "summary": lambda r: r.summary(),
    "drift": lambda r: r.drift("untied"),
    "geometry": lambda r: r.geometry(),
}


@pytest.mark.parametrize("edit", list(_RES_EDITS))
@pytest.mark.parametrize("reader", list(_RES_READERS))
def test_hostile_pass_61_a_compare_result_changed_after_it_was_made_is_checked_again(edit, reader):
    """A CompareResult whose corpus, configs, runs or seeds, or a run's fields or arrays, were changed after
    compare made it raised AttributeError, IndexError or KeyError, warned, or drew NaN and a wrong seed count
    in every method and plot that reads it: each checks it again, and names it."""
    res = copy.deepcopy(_r61())
    _RES_EDITS[edit](res)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises((TypeError, ValueError), match=r"^res must hold a result as compare makes it, unchanged"):
            _RES_READERS[reader](res)
    plt_mod.close("all")


def test_hostile_pass_61_a_runs_fields_are_read_only():
    """r.steps = 0 or r.rows_touched = None on a run of a result reached every plot of it: a TrainResult (and
    a FitResult) is frozen."""
    run = _r61().runs["tied"][0]
    for field, value in (("steps", 0), ("rows_touched", None), ("valid_loss", np.array([]))):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(run, field, value)
    assert dataclasses.fields(embedlab.train.FitResult) and embedlab.train.FitResult.__dataclass_params__.frozen


def test_hostile_pass_61_dot_keeps_small_products_beside_cancelling_large_ones():
    """dot([1e200, -1e200, 1], [1e200, 1e200, 1]) gave 0: the fallback for products past the float range
    scaled everything down and flushed the small products to zero."""
    assert embedlab.dot([1e200, -1e200, 1.0], [1e200, 1e200, 1.0]) == 1.0
    assert embedlab.dot([1e200, -1e200, 3e-100], [1e200, 1e200, 1e100]) == 3.0
    assert embedlab.dot([1e300, -1e300, 1e-100], [1e300, 1e300, 1e-100]) == 1e-200  # 1e-200 = 1e-100 * 1e-100
    assert embedlab.dot([1e300, -1e300, 5e-324], [1e300, 1e300, 1.0]) == 5e-324
    rng = np.random.default_rng(61)
    for _ in range(200):  # against the exact sum of the exact products, rounded once
        n = int(rng.integers(2, 12))
        a = rng.normal(size=n) * 10.0 ** rng.integers(-300, 300, size=n)
        b = rng.normal(size=n) * 10.0 ** rng.integers(-300, 300, size=n)
        a[1], b[1] = -a[0], b[0]  # two products that cancel exactly
        exact = sum(Fraction(float(x)) * Fraction(float(y)) for x, y in zip(a, b, strict=True))
        if abs(exact) < 1.7e308:
            got = embedlab.dot(a, b)
            bound = sum(abs(Fraction(float(x)) * Fraction(float(y))) for x, y in zip(a[2:], b[2:], strict=True))
            assert abs(Fraction(got) - exact) <= bound * Fraction(2) ** -50 + Fraction(2) ** -1074


def test_hostile_pass_61_banded_png_keeps_the_background_it_was_made_with():
    """bp.background[:] = 7 left the cached bands of the old pixels, so encode(all 7) gave the old image;
    bp.background = None raised AttributeError: the background is a read-only copy, its fields read-only."""
    rng = np.random.default_rng(0)
    bg = rng.integers(0, 255, (40, 30, 4), dtype=np.uint8)
    bp = embedlab.widgets.BandedPNG(bg)
    with pytest.raises(ValueError, match="read-only"):
        bp.background[:] = 7
    for name in ("background", "bands", "h", "w"):
        with pytest.raises(AttributeError, match="has no setter"):
            setattr(bp, name, None)
    bg[:] = 9  # the caller's own array is theirs to change: the encoder kept a copy
    seven = np.full_like(bg, 7)
    from PIL import Image

    np.testing.assert_array_equal(np.asarray(Image.open(io.BytesIO(bp.encode(seven)))), seven)
    np.testing.assert_array_equal(np.asarray(Image.open(io.BytesIO(bp.encode(bg)))), bg)


def test_hostile_pass_61_an_explorers_values_and_readout_are_read_only():
    """e.values = {} gave KeyError in to_html; e.values["scale"] = 12345.5 drew off the control's list: values
    is a copy, and values and readout cannot be set (move a control with update)."""
    e = explorers_mod.flatten_explorer()
    page = e.to_html()
    for name, value in (("values", {}), ("readout", None), ("title", 5)):
        with pytest.raises(AttributeError, match="has no setter"):
            setattr(e, name, value)
    e.values["scale"] = 12345.5
    assert e.values["scale"] != 12345.5 and e.to_html() == page
    plt_mod.close("all")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("answer", 10**400),
        ("fmt", None),
        ("fmt", "{:>100000000}"),
        ("slips", (1,)),
        ("wrong", None),
        ("question", None),
        ("solution", None),
        ("kind_label", None),
    ],
)
def test_hostile_pass_61_a_quiz_objects_fields_are_read_only(field, value):
    """e.answer = 10**400 then grade() raised OverflowError; fmt, slips, wrong, question or solution set to
    None raised AttributeError in to_html; fmt = "{:>100000000}" built a 100-million-character page. The
    fields were checked when the object was made: they cannot be set again, nor deleted."""
    e = quiz_mod.Exercise("Q?", 0.5, abs_tol=0.1, solution="s")
    page = e.to_html()
    with pytest.raises(AttributeError, match=rf"^Exercise\.{field} is read-only"):
        setattr(e, field, value)
    if field != "kind_label":
        with pytest.raises(AttributeError, match=rf"^Exercise\.{field} is read-only"):
            delattr(e, field)
    assert e.to_html() == page and e.grade("0.5").right


def test_hostile_pass_61_a_corpus_holds_its_sentences_read_only():
    """c.train[0][1] = 10**12 made counts() allocate 7 TiB (MemoryError), and 10**6 gave arrays of a
    million counts: a corpus keeps read-only views of the sentences it checked (no copy)."""
    c = make_corpus(0, n_train=60, n_valid=20, n_test=20)
    inputs = c.counts()[0]
    for split in (c.train, c.valid, c.test):
        with pytest.raises(ValueError, match="read-only"):
            split[0][1] = 10**6
    with pytest.raises(ValueError, match="read-only"):
        c.classes[0] = "x"
    np.testing.assert_array_equal(c.counts()[0], inputs)
    mine = np.array([0, 1, 2])
    hand = dataclasses.replace(c, train=(mine,))
    assert mine.flags.writeable and hand.train[0].tolist() == [0, 1, 2]  # the caller's array left as it was


# ---------------------------------------------------------------- issue 19: what hostile pass 62 found
def test_hostile_pass_62_dot_sums_products_past_the_float_range_exactly():
    """The pass-61 fallback rounded each product to float64 before summing, so products that differ in their
    last bits cancelled: 0.0 for an exact 2**936, and 0.0 for sums past the float range (a ValueError)."""
    a, b = [2.0**520 * (1 + 2**-52), -(2.0**520) * (1 + 2**-51)], [2.0**520 * (1 + 2**-52), 2.0**520]
    exact = sum(Fraction(x) * Fraction(y) for x, y in zip(a, b, strict=True))
    assert exact == 2**936 and embedlab.dot(a, b) == 2.0**936
    too_large = "a and b have a dot product too large for a float"
    with pytest.raises(ValueError, match=too_large):
        embedlab.dot([2.0**600 * (1 + 2**-52), -(2.0**600) * (1 + 2**-51)], [2.0**600 * (1 + 2**-52), 2.0**600])
    L = np.longdouble
    if np.finfo(L).nmant > 52:  # a longdouble wider than float64 (x86's 80-bit, or quad)
        with pytest.raises(ValueError, match=too_large):
            embedlab.dot(np.array([L(2) ** 8200 * (1 + L(2) ** -60), -(L(2) ** 8200)]), np.array([L(2) ** 8200] * 2))
    rng = np.random.default_rng(62)
    for _ in range(300):  # products past the range that nearly cancel, among small ones: exact, rounded once
        n = int(rng.integers(2, 10))
        x = rng.normal(size=n) * 10.0 ** rng.integers(-300, 300, size=n)
        y = rng.normal(size=n) * 10.0 ** rng.integers(-300, 300, size=n)
        x[0], y[0] = rng.normal() * 1e250, rng.normal() * 1e150
        x[1], y[1] = -x[0] * (1 + int(rng.integers(-3, 4)) * 2**-52), y[0]
        exact = sum(Fraction(float(p)) * Fraction(float(q)) for p, q in zip(x, y, strict=True))
        if abs(exact) < 2**1023:
            assert embedlab.dot(x, y) == float(exact)
        else:
            with pytest.raises(ValueError, match=too_large):
                embedlab.dot(x, y)


def test_hostile_pass_62_kept_arrays_cannot_be_made_writable_again():
    """p.background.flags.writeable = True, then a write, made encode give the old pixels; a corpus's
    sentences and classes likewise, and a caller's own array edited after the check reached counts(): the
    arrays kept are copies over immutable bytes, whose flag NumPy refuses to set."""
    p = embedlab.widgets.BandedPNG(np.zeros((16, 4, 4), np.uint8))
    c = make_corpus(0, n_train=30, n_valid=20, n_test=20)
    for kept in (p.background, c.train[0], c.valid[-1], c.test[3], c.classes):
        with pytest.raises(ValueError, match="cannot set WRITEABLE flag"):
            kept.flags.writeable = True
    mine = np.array([0, 5, 7])
    hand = dataclasses.replace(c, train=(mine,))
    mine[1] = 10**5
    assert hand.counts()[0].shape == (c.vocab_size,) and hand.train[0].tolist() == [0, 5, 7]


def test_hostile_pass_62_a_refused_init_leaves_a_sweep_as_it_was():
    """sw.__init__(sw.spec, [], {}) was refused but left records and meta empty while gap answered from the
    old index (and with another spec, KeyError): a Sweep's state is replaced all at once or not at all."""
    sw = embedlab.sweep.load_results()
    other = dataclasses.replace(sw.spec, data_sizes=(100,), widths=(4,), hidden=(True,))
    for args in ((sw.spec, [], {}), (other, sw.records, sw.meta)):
        with pytest.raises(ValueError, match="records must hold"):
            sw.__init__(*args)
        assert sw == embedlab.sweep.load_results() and sw.gap(500, 8, True)["values"].size == 10


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (np.array([]), ValueError),
        (None, TypeError),
        (np.zeros((2, 2)), ValueError),
        (np.array([1.0, np.nan]), ValueError),
    ],
)
def test_hostile_pass_62_final_valid_loss_names_the_field(value, error):
    """final_valid_loss of a TrainResult made by dataclasses.replace with an empty valid_loss raised
    IndexError; None or a 2-D array, TypeErrors naming nothing; NaN came back as nan."""
    run = dataclasses.replace(_r61().runs["tied"][0], valid_loss=value)
    with pytest.raises(error, match=r"^valid_loss must"):
        _ = run.final_valid_loss


def test_hostile_pass_62_quiz_objects_copy_and_pickle_after_their_view_is_made():
    """copy.deepcopy(q) after q.widget() raised NotImplementedError (widgets cannot be copied) and pickle
    AttributeError: a copy holds the question, not its live view, and makes its own."""
    import pickle

    for q in [exercises_mod.warmup(), *exercises_mod.bank()]:
        q.widget()
        for other in (copy.deepcopy(q), copy.copy(q), pickle.loads(pickle.dumps(q))):
            assert other.to_html() == q.to_html()
            right = q.answer if q.is_choice else q.answer_text.replace(" bytes", "")
            assert other.grade(right).right
        assert other.widget() is not q.widget()


# ---------------------------------------------------------------- issue 19: what hostile pass 63 found
def test_hostile_pass_63_dots_exact_fallback_counts_its_work_before_making_it():
    """dot of 10**7 entries whose products pass the float range, with room for what a and b's check counted
    but not for the exact fallback's work, raised MemoryError: the fallback counts its arrays first."""
    code = textwrap.dedent(
        """
        import resource
        import numpy as np
        import embedlab
        n = 10**7
        a = np.full(n, 0.1); b = a.copy(); a[0] = b[0] = b[1] = 1e300; a[1] = -1e300
        used = int(open("/proc/self/statm").read().split()[0]) * 4096
        resource.setrlimit(resource.RLIMIT_AS, (used + 1300 * 2**20, resource.RLIM_INFINITY))
        try:
            print("ran", embedlab.dot(a, b))
        except (TypeError, ValueError) as exc:
            print("refused:", exc)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-1000:]
    assert out.stdout.startswith("refused: a and b is too large"), out.stdout[:300]


def test_hostile_pass_63_copies_and_pickles_stay_read_only_and_compare_equal():
    """copy.deepcopy or pickle of a Corpus (and of a result holding one) or a BandedPNG gave writable arrays, so
    c.train[0][1] = 10**12 made counts() raise MemoryError and res's plots IndexError; two equal corpora could not
    be compared (NumPy's ambiguous truth value) nor hashed. A copy is made again by the constructor."""
    import pickle

    c = make_corpus(0, n_train=60, n_valid=20, n_test=20)
    res = copy.deepcopy(_r61())
    p = embedlab.widgets.BandedPNG(np.zeros((40, 30, 4), np.uint8))
    for other in (copy.deepcopy(c), pickle.loads(pickle.dumps(c)), dataclasses.replace(c), res.corpus):
        for kept in (other.train[0], other.valid[0], other.test[0], other.classes):
            with pytest.raises(ValueError, match="read-only"):
                kept[0] = 10**12 if kept.dtype.kind == "i" else "x"
        assert other == (c if other is not res.corpus else _r61().corpus) and hash(other) == hash(other)
    assert c != dataclasses.replace(c, seed=1) and len({c, copy.deepcopy(c)}) == 1
    for q in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        with pytest.raises(ValueError, match="read-only"):
            q.background[0, 0, 0] = 7
        assert q.bands == p.bands


def test_hostile_pass_63_training_explorer_reads_the_result_once():
    """training_explorer(r)'s frames read r.seeds and r.configs when drawn: changed afterwards, update and
    to_html raised IndexError or KeyError. The explorer reads what it shows once, when it is made."""
    r = copy.deepcopy(_r61())
    e = embedlab.train_plots.training_explorer(r, "tied", 1)
    page = e.to_html()
    steps = e.controls[0].values
    readouts = [e.update(step=s) for s in steps]
    r.seeds = (0,)
    r.configs["zz"] = dict(r.configs["tied"])
    assert [e.update(step=s) for s in steps] == readouts and e.to_html() == page
    plt_mod.close("all")


# ---------------------------------------------------------------- issue 19: what hostile pass 64 found
def test_hostile_pass_64_dots_exact_fallback_over_a_wide_spread_of_exponents():
    """Products spread over some 850 bits made the exact fallback take ~19 passes over every entry as Python
    floats (13.6 s for a million; measured by hand, not here): it now extracts and sums whole arrays. Exact."""
    rng = np.random.default_rng(64)
    n = 20_000
    a = np.ldexp(rng.uniform(0.5, 1, n), (np.arange(n) % 18 * 50).astype(np.int32))
    b = rng.uniform(0.5, 1, n)
    a[:2], b[:2] = [1e300, -1e300], [1e300, 1e300]
    exact = sum(Fraction(float(x)) * Fraction(float(y)) for x, y in zip(a, b, strict=True))
    assert embedlab.dot(a, b) == float(exact)


def test_hostile_pass_64_c4s_slips_each_name_their_own_answer():
    """get("C4").grade("0.021"), the rescaled draft to three places, was told to round only at the end: the
    rounding slip (0.0200) lay within the tolerance too and was checked first."""
    e = exercises_mod.get("C4")
    rescale = next(s for s in e.slips if "rescales" in s.feedback)
    for typed in ("0.021", f"{rescale.value:.4f}", repr(float(rescale.value))):
        assert e.grade(typed).message == rescale.feedback, typed


def test_hostile_pass_64_a_sweep_reads_hidden_as_a_flag():
    """sweep.verdict(500, 16, np.True_) was refused, and hidden=1 gave ValueError: hidden is read as a flag."""
    s = embedlab.sweep.load_results()
    assert s.verdict(500, 16, np.True_) == s.verdict(500, 16, True)
    with pytest.raises(TypeError, match=r"^hidden must be True or False, got int 1"):
        s.gap(500, 16, 1)


def test_hostile_pass_65_t_quantile_and_t_interval_compare_exactly_not_in_the_callers_dtype():
    """t_quantile(np.float16(1.0), 1) returned the bisection's bracket, 2**40 (0.9999 is 1.0 in float16), and
    t_interval computed 0.5 + level / 2 in level's dtype: float16(0.9995) gave +-13 million, float32(0.95) a
    bound off in the sixth digit. Both now compare and halve exactly."""
    with pytest.raises(ValueError, match=r"^p must be in"):
        t_quantile(np.float16(1.0), 1)
    with pytest.raises(ValueError, match=r"^level must be in"):
        t_interval([1.0, 2.0, 3.0], np.float16(1.0))
    for level in (np.float16(0.9995), np.float32(0.95)):
        # the same level as the float64 it is exactly: one answer, whatever the dtype that carried it
        assert t_interval([1.0, 2.0, 3.0], level) == t_interval([1.0, 2.0, 3.0], float(level))
    # two values 1 and 3 (sd sqrt 2, n 2): the half-width is the 1-degree quantile, tan(pi level / 2), and
    # float16(0.9995) is exactly 0.99951171875
    m, _, hi = t_interval([1.0, 3.0], np.float16(0.9995))
    assert hi - m == pytest.approx(math.tan(math.pi * 0.99951171875 / 2), rel=1e-7)


def test_hostile_pass_65_finite_differences_refuse_an_e_past_float64_by_name():
    """finite_difference_grad(lambda M: 0.0, np.full((1, 2), np.longdouble("1e4000"))) warned (overflow in
    cast) and handed loss an E of inf."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"^E must fit float64"):
            finite_difference_grad(lambda M: 0.0, np.full((1, 2), np.longdouble("1e4000")))


def test_hostile_pass_65_vocab_facts_copy_and_pickle():
    """copy.deepcopy(gpt2.vocab_facts()) and pickle.dumps(...) raised TypeError (a mappingproxy field)."""
    import pickle

    from embedlab import gpt2 as gpt2_mod

    facts = gpt2_mod.vocab_facts()
    for back in (copy.deepcopy(facts), pickle.loads(pickle.dumps(facts))):
        assert back == facts and dict(back.special_tokens) == dict(facts.special_tokens)
        with pytest.raises(TypeError):
            back.special_tokens["<|new|>"] = 1  # type: ignore[index]  # still read-only


def test_hostile_pass_65_a_huge_relative_tolerance_is_stated_without_overflow():
    """Exercise(..., rel_tol=1e307).tolerance_text said 'within inf%'."""
    text = quiz_mod.Exercise("q", 1.0, abs_tol=0.0, rel_tol=1e307, solution="s").tolerance_text
    assert "inf" not in text and "1e+307" in text


def test_hostile_pass_66_t_quantile_and_t_interval_refuse_inf_and_nan_by_name():
    """After pass 65's exact comparison, t_quantile(inf, 2) raised OverflowError and a NaN a ValueError
    naming nothing ('cannot convert NaN to integer ratio')."""
    for bad in (math.inf, -math.inf, math.nan, np.float16("inf"), np.longdouble("nan")):
        with pytest.raises(ValueError, match=r"^p must be in"):
            t_quantile(bad, 2)
        with pytest.raises(ValueError, match=r"^level must be in"):
            t_interval([1.0, 2.0, 3.0], bad)


def test_hostile_pass_66_a_forecasts_verdict_refuses_what_is_no_committed_grade():
    """warmup().verdict(warmup().grade('')) raised KeyError ('vblank'); verdict('right') AttributeError."""
    w = exercises_mod.warmup()
    for grade in (w.grade(""), w.grade("nan")):
        with pytest.raises(ValueError, match=r"^grade must be of a committed answer"):
            w.verdict(grade)
    for grade in ("right", None):
        with pytest.raises(TypeError, match=r"^grade must be a Grade"):
            w.verdict(grade)


def test_hostile_pass_66_the_report_shows_what_the_function_returned_on_the_failing_case():
    """A function reusing one output buffer was shown, in 'got', the value it wrote on a later case (the check
    ran it again to confirm a mistake): [7. 7. 7.] against a problem line quoting 0.1353."""
    last: list[np.ndarray] = []

    def stable_softmax(z):
        if last:
            last[-1].fill(7.0)
        last.append(np.exp(z - z.max(-1, keepdims=True)))
        return last[-1]

    report = practice_mod.check(stable_softmax)
    assert "0.1353" in report.got and "7." not in report.got


def test_hostile_pass_66_compute_in_float64_only_for_an_answer_that_is_close():
    """p_top returning np.float32(0.5) for 0.25 was told to compute in float64."""
    report = practice_mod.check(lambda t, n: np.float32(0.5), "p_top")
    assert not report.passed and "float64" not in report.hint


def test_hostile_pass_66_figsize_is_compared_exactly_not_in_float32():
    """check_figsize((np.float32(0.005), 1.0)) returned 0.004999999888 (below MIN_INCHES): 0.005 rounded too."""
    from embedlab import display as display_mod

    with pytest.raises(ValueError, match=r"^figsize must be"):
        display_mod.check_figsize((np.float32(0.005), 1.0))


def test_hostile_pass_67_t_interval_keeps_its_width_for_tiny_values():
    """t_interval([1e-200, 2e-200]) gave a zero-width interval: the squared deviations underflowed to 0. The
    interval scales with the values: 1e-200 times the interval of [1, 2], which is 1.5 -+ tan(0.475 pi) / 2."""
    half = math.tan(0.475 * math.pi) / 2  # one degree of freedom: the quantile is tan(pi level / 2); sd/sqrt(n) = 1/2
    for scale in (1.0, 1e-200, 1e-300):
        m, lo, hi = t_interval([1.0 * scale, 2.0 * scale])
        assert (m, lo, hi) == pytest.approx((1.5 * scale, (1.5 - half) * scale, (1.5 + half) * scale), rel=1e-7, abs=0)


def test_hostile_pass_67_a_float32_answer_where_float32_is_due_is_not_told_to_compute_in_float64():
    """embed_rows on 'a float32 E' with rows off by 1e-4 said '(yours is float32)' and 'Compute in float64',
    though the answer must be float32: following the hint is refused as the wrong dtype."""

    def embed_rows(E, ids):
        rows = np.asarray(E)[np.asarray(ids)]
        return rows * np.float32(1.0001) if rows.dtype == np.float32 else rows

    report = practice_mod.check(embed_rows)
    assert not report.passed and "float32" in report.label
    assert "yours is float32" not in report.problem and "float64" not in report.hint


def test_hostile_pass_68_the_same_float_agrees_at_any_number_of_places(capsys):
    """claims.check said DIFFERS for one float64 given as draft and computed when ``decimals`` asked for more
    digits than the float holds (0.1 at 17 places: the draft read as 0.10000000000000000, the computed float as
    0.1000000000000000055...). A draft cannot say more than which float64 it is. Oracle: the draft's figure and
    the computed figure printed alike; a neighbouring float that Decimal rounds apart at those places differs."""
    from decimal import Decimal

    rng = np.random.default_rng(68)
    samples = [1e15 + 0.3, 0.1, 1234567.1, 2.675, 1 / 3, -0.35, 5e-324, 1e300, 123.456]
    samples += [float(x) for x in rng.normal(0, 10.0 ** rng.integers(-8, 16, size=200))]
    for x in samples:
        for decimals in (0, 2, 6, 12, 15, 17):
            check("x", x, x, decimals)
            line = capsys.readouterr().out
            assert line.endswith(" -> agrees\n"), (x, decimals, line)
            shown = line.split(": ", 1)[1].rsplit(" -> ", 1)[0]
            draft_text, computed_text = shown.removeprefix("draft ").split(", computed ")
            assert draft_text == computed_text, (x, decimals, line)
    for x in (0.1, 0.7, 1234567.1):  # the next float up is a different figure at 17 places (Decimal says so)
        up = float(np.nextafter(x, np.inf))
        unit = Decimal(1).scaleb(-17)
        if Decimal(repr(up)).quantize(unit) != Decimal(x).quantize(unit):
            check("x", up, x, 17)
            assert capsys.readouterr().out.endswith(" -> DIFFERS\n"), (x, up)


def test_hostile_pass_68_a_fitted_size_stays_a_size_the_library_accepts():
    """fitted_size((1, 99.9999)) returned a height of 100.0000044 inches (a hair over the rounded pixel height),
    which check_figsize refuses; an Explorer given that figsize quoted the fitted size, not the caller's."""
    for figsize in [(1, 99.9999), (6.4, 100), (0.005, 100), (6.4, 99.99999), (3, 0.005), (100, 100)]:
        w, h = display.fitted_size(figsize)
        assert display.check_figsize((w, h)) == (w, h)
        assert h <= display.MAX_INCHES and w == display.FIGURE_WIDTH
    for figsize in [(1, 99.9999), (6.4, 60)]:  # too many pixels at the book's width: the caller's figsize is named
        with pytest.raises(ValueError, match=r"^figsize must fit the book's width") as err:
            Explorer("t", [Control("a", "a", (1, 2))], lambda f, a: ((lambda a: "x"), []), figsize=figsize)
        assert short_repr(figsize) in str(err.value)


def test_hostile_pass_69_claims_same_float_in_its_own_precision_and_half_even_ties(capsys):
    """A float32 or float16 compared with itself said DIFFERS past its own digits (float32 0.1 at 9 places: draft
    0.100000000, computed 0.100000001): each is the same decimal typed in its own precision. A float32 draft
    against the float64 it widens to still differs there (pass 16). A shared tie was shown rounded down (-2.5 at
    0 places as -3, 3.5 as 3); it is shown half to even, as Python's round gives it."""
    for x, places in [(np.float32(0.1), 9), (np.float16(0.1), 5), (np.float32(56.4), 6), (np.float16(-73.3125), 3)]:
        check("x", x, x, places)
        draft_text, computed_text = capsys.readouterr().out.split(": ", 1)[1].split(" -> ")[0].split(", computed ")
        assert draft_text.removeprefix("draft ") == computed_text, (x, places)
    for x, places in [(np.float32(0.1), 9), (np.float16(0.1), 5)]:
        assert verdict_of(capsys, "x", x, x, places) == "agrees"
        assert verdict_of(capsys, "x", x, float(x), places) == "DIFFERS"  # the float64 says more: 0.100000001
    for x, places in [(-2.5, 0), (3.5, 0), (-0.125, 2), (0.375, 2), (2.5, 0)]:
        check("x", x, x, places)
        expected = f"{round(x, places):.{places}f}"
        assert capsys.readouterr().out == f"x: draft {expected}, computed {expected} -> agrees\n", (x, places)


def verdict_of(capsys, *args) -> str:
    check(*args)
    return capsys.readouterr().out.rstrip("\n").rsplit(" -> ", 1)[1]


def test_hostile_pass_69_claims_label_is_one_printable_line(capsys):
    """A label holding a newline printed a forged 'agrees' line before the real DIFFERS one; control and
    direction characters passed too, though the message promised printable text."""
    for label in ["a\nforged: draft 1, computed 1 -> agrees", "a\rb", "a\x00", "\x1b[31mred", "a\u202eb", "\ud800"]:
        with pytest.raises(ValueError, match=r"^label must be printable text"):
            check(label, 0.1, 0.9, 1)
    assert capsys.readouterr().out == ""
    check("h_A . e_2 (naive) -> é", 0.9, 0.9, 1)
    assert capsys.readouterr().out.endswith("-> agrees\n")


def test_hostile_pass_69_figure_size_messages_quote_the_callers_numbers():
    """Explorer quoted an array figsize as 'array(dtype=float64, shape=(2,))' and a namedtuple as '<NT of 2
    items>'; display.fit gave '1.165e+04 pixels' where Explorer said '11,652'; check_figsize quoted ('6', 3)
    inside stray double quotes."""
    import collections

    import matplotlib.figure

    size = collections.namedtuple("Size", "w h")
    for figsize in [np.array([6.4, 51.79]), size(6.4, 51.79), [6.4, 51.79]]:
        with pytest.raises(ValueError, match=r"^figsize must fit the book's width") as err:
            Explorer("t", [Control("a", "a", (1, 2))], lambda f, a: ((lambda a: "x"), []), figsize=figsize)
        assert "6.4, 51.79" in str(err.value) and "11,652 pixels" in str(err.value)
    with pytest.raises(ValueError, match=r"^fig must fit the book's width") as err:
        display.fit(matplotlib.figure.Figure(figsize=(6.4, 51.79)))
    assert "1,440 x 11,652 pixels" in str(err.value)
    with pytest.raises(TypeError) as err:
        display.check_figsize(("6", 3))
    assert str(err.value).endswith("got ('6', 3)")
    with pytest.raises(ValueError) as err:
        display.check_figsize(np.array([0.0, 3.0]))
    assert str(err.value).endswith("got array([0.0, 3.0])")


def test_hostile_pass_70_a_list_that_is_also_an_array_like_is_refused():
    """A list subclass with its own __array__ was read two ways by claims.check: NumPy took the array it offers
    (2**60), the reading of the items as typed took what the list holds (1), so the same draft agreed with 1 and
    with 2**60. Such a list is refused by name wherever arrays are read."""
    offers = type("B", (list,), {"__array__": lambda s, dtype=None, copy=None: np.array([2.0**60])})
    interface = type("T", (tuple,), {"__array_interface__": property(lambda s: np.array([1.0]).__array_interface__)})
    for value in (offers([1]), [offers([1])], interface((1.0,))):
        for call, name in [
            (lambda v: check("x", v, [1.0], 0), "draft"),
            (lambda v: check("x", [1.0], v, 0), "computed"),
            (lambda v: embedlab.softmax(v), "z"),
            (lambda v: embedlab.lookup(np.eye(3), v), "ids"),
        ]:
            with pytest.raises(TypeError, match=rf"^{name} must be plain lists, tuples or arrays, got a .* array-like"):
                call(value)


def test_hostile_pass_70_figsize_messages_read_object_arrays_and_one_item_tuples():
    """display._short called .item() on each item of a small array: an object array (np.array([1000.0, 2.0],
    dtype=object)) raised AttributeError from check_figsize, fitted_size and Explorer. A one-item tuple was
    quoted as '(0.001)', a float16 array by the float64 it widens to (0.0010004043579101562)."""
    for figsize, quoted in [
        (np.array([1000.0, 2.0], dtype=object), "array([1000.0, 2.0])"),
        (np.array([1, 2, 3], dtype=object), "array([1, 2, 3])"),
        ((0.001,), "(0.001,)"),
        (np.array([0.001, 1], dtype=np.float16), "array([0.001, 1.0])"),
    ]:
        for call in (display.check_figsize, display.fitted_size):
            with pytest.raises((TypeError, ValueError)) as err:
                call(figsize)
            assert str(err.value).startswith("figsize must") and str(err.value).endswith(f"got {quoted}")
    with pytest.raises(ValueError, match=r"^figsize must fit the book's width .* got array\(\[6, 60\]\): "):
        Explorer(
            "t",
            [Control("a", "a", (1, 2))],
            lambda f, a: ((lambda a: "x"), []),
            figsize=np.array([6, 60], dtype=object),
        )


def test_hostile_pass_71_an_array_offered_by_the_instance_is_refused_too():
    """Pass 70's refusal looked for __array__ on the class only: a list or namedtuple subclass instance given its
    own __array__ or __array_interface__ (or a class __getattr__ serving one) was read two ways again."""
    import collections

    listy = type("L", (list,), {})
    named = type("NTd", (collections.namedtuple("NT", "a b"),), {})
    served = type(
        "G",
        (list,),
        {
            "__getattr__": lambda s, k: (
                np.array([5.0]).__array_interface__ if k == "__array_interface__" else object.__getattribute__(s, k)
            )
        },
    )
    a, b, c, d = listy([1]), named(1, 2), listy([0, 1, 2]), served([1.0])
    a.__array__ = lambda *args, **kw: np.array([7.0])
    b.__array__ = lambda *args, **kw: np.array([7, 9])
    c.__array_interface__ = np.array([0, 1, 0]).__array_interface__
    for call, name in [
        (lambda: check("x", [a], [[1.0]], 0), "draft"),
        (lambda: check("x", [[1.0, 2.0]], [b], 0), "computed"),
        (lambda: embedlab.softmax(b), "z"),
        (lambda: embedlab.one_hot(c, 3), "ids"),
        (lambda: embedlab.softmax(d), "z"),
    ]:
        with pytest.raises(TypeError, match=rf"^{name} must be plain lists, tuples or arrays, got a .* array-like"):
            call()


def test_hostile_pass_71_an_array_like_or_sequence_object_is_read_once():
    """one_hot and lookup read an array-like three times (sizing, conversion, then item by item): an __array__
    answering [0, 1, 2], then [0., 1., 2.], then [0, 0] gave a raw broadcast error naming nothing. A sequence
    object whose len() said 2 while it held 10**8 items was sized as 2 and converted as 10**8."""

    class Shifting:
        def __init__(self):
            self.calls = 0

        def __array__(self, dtype=None, copy=None):
            self.calls += 1
            return [np.array([0, 1, 2]), np.array([0.0, 1.0, 2.0]), np.array([0, 0])][min(self.calls - 1, 2)]

    ids = Shifting()
    np.testing.assert_array_equal(embedlab.one_hot(ids, 3), np.eye(3))  # the first answer, the only one read
    assert ids.calls == 1
    np.testing.assert_array_equal(
        embedlab.lookup(np.arange(6.0).reshape(3, 2), Shifting()), np.arange(6.0).reshape(3, 2)
    )

    class LenLie:
        def __len__(self):
            return 2

        def __getitem__(self, i):
            if i < 10**8:
                return float(i)
            raise IndexError(i)

    with pytest.raises(ValueError, match=r"^z must be a sequence whose len\(\) counts its items"):
        embedlab.softmax(LenLie())

    class Seq:  # an honest sequence object is read as before
        def __init__(self, v):
            self.v = v

        def __len__(self):
            return len(self.v)

        def __getitem__(self, i):
            return self.v[i]

    np.testing.assert_allclose(embedlab.softmax(Seq([1.0, 2.0])), embedlab.softmax([1.0, 2.0]))
    np.testing.assert_array_equal(embedlab.one_hot(Seq([0, 2]), 3), np.eye(3)[[0, 2]])


def test_hostile_pass_72_sequence_objects_are_read_once_as_numpy_reads_them():
    """Pass 71's read by index made a deque of 3 million floats take 128 s (indexing a deque is linear), lost
    the bools, mixed int types and big ints a list's readers see (deque([True, 2]) looked up row 1; dot of
    deque([2**64 - 1, 1]) rounded silently), and handed some objects back unread (one with a keys attribute
    hung NumPy's conversion). A sequence object is now read once by its iterator, up to one item past len(),
    and every reader after that reads the list it became; one nested in a list is refused by name (NumPy would
    iterate it unbounded); compare's seeds lookup refuses a failing __getattr__ by name."""
    import collections

    endless = type("S", (), {"__len__": lambda s: 2, "__getitem__": lambda s, i: 1.0})
    with pytest.raises(TypeError, match=r"^z must hold plain lists, tuples or arrays, got S"):
        embedlab.softmax([endless()])
    with pytest.raises(TypeError, match=r"^z must hold plain lists, tuples or arrays, got deque"):
        embedlab.softmax([collections.deque([1.0, 2.0])])
    keyed = type("K", (), {"keys": None, "__len__": lambda s: 2, "__getitem__": lambda s, i: 1.0})
    with pytest.raises(ValueError, match=r"^z must be a sequence whose len\(\) counts its items"):
        embedlab.softmax(keyed())
    np.testing.assert_allclose(
        embedlab.softmax(collections.deque([0.5] * 300_000)), np.full(300_000, 1 / 300_000), rtol=1e-12
    )
    E = embedlab.E_TOY
    with pytest.raises(TypeError, match=r"^ids must be integer token ids, got a sequence containing bools"):
        embedlab.lookup(E, collections.deque([True, 2]))
    ids = collections.deque([np.int64(1), np.uint64(2)])
    np.testing.assert_array_equal(embedlab.lookup(E, ids), embedlab.lookup(E, [np.int64(1), np.uint64(2)]))
    with pytest.raises(ValueError, match=r"^ids must be in \[0, 3\] for a vocabulary of 4, got 9223372036854775808"):
        embedlab.lookup(E, collections.deque([0, 2**63]))
    with pytest.raises(ValueError, match=r"^a must hold integers of at most 2\*\*53"):
        embedlab.dot(collections.deque([2**64 - 1, 1]), [1.0, 0.0])
    with pytest.raises(TypeError, match=r"^seeds must"):
        embedlab.compare(type("K", (), {"__getattr__": lambda s, n: {}[n]})())


def test_hostile_pass_72_plane_basis_reads_its_arguments_once():
    """plane_basis read a and b again with np.asarray for their dtype: an __array__ that worked once and then
    raised gave a RuntimeError."""

    class Once:
        def __init__(self):
            self.calls = 0

        def __array__(self, dtype=None, copy=None):
            self.calls += 1
            if self.calls > 1:
                raise RuntimeError("read twice")
            return np.array([2.0, 0.0, 0.0])

    a = Once()
    np.testing.assert_array_equal(embedlab.plane_basis(a, [1.0, 1.0, 0.0]), [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    assert a.calls == 1


def test_hostile_pass_73_integers_at_2_53_buffers_and_masked_items():
    """softmax([2**53 + 1, np.uint64(2**53)]) gave [0.5, 0.5]: NumPy made the list float64, 2**53 + 1 became
    2**53, and the integers were recovered only above 2**53. An array.array or bytearray was walked item by item
    (28 s for 240 MB, then refused as 4.8 GB); nested, refused as a sequence object. A masked array or
    np.ma.masked inside a list had its mask dropped (with NumPy's UserWarning)."""
    import array

    z = [2**53 + 1, 2**53]
    expected = [1 / (1 + math.exp(-1)), 1 / (1 + math.exp(1))]
    np.testing.assert_allclose(embedlab.softmax([2**53 + 1, np.uint64(2**53)]), expected, rtol=1e-15)
    np.testing.assert_allclose(embedlab.softmax(z), expected, rtol=1e-15)
    with pytest.raises(ValueError, match=r"^a must hold integers of at most 2\*\*53"):
        embedlab.dot([np.uint64(2**53 + 1), np.int64(0)], [1.0, 0.0])
    assert embedlab.dot([np.uint64(2**53), np.int64(0)], [1.0, 0.0]) == 2.0**53  # exactly 2**53 is held
    big = array.array("d", bytes(8 * 2_000_000))
    np.testing.assert_array_equal(embedlab.softmax(big), np.full(2_000_000, 1 / 2_000_000))
    assert embedlab.softmax(array.array("f", [1, 2])).dtype == np.float32
    np.testing.assert_allclose(embedlab.softmax([array.array("d", [1, 2])]), embedlab.softmax([[1.0, 2.0]]))
    np.testing.assert_array_equal(embedlab.lookup(embedlab.E_TOY, bytearray(b"\x01\x02")), embedlab.E_TOY[[1, 2]])
    for value in ([np.ma.masked, 2.0, 3.0], [np.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0])]):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(TypeError, match=r"^z must hold plain arrays: masked arrays are not supported"):
                embedlab.softmax(value)


def test_hostile_pass_74_buffers_and_repeated_lists_count_toward_text_padding():
    """A string among buffers makes NumPy pad every item to the string's width: 1,000 array.array rows beside a
    row holding a 4,000-character string would be a 64 GB array, estimated at 32 MB (a buffer's items were not
    counted), and NumPy started building it. A list repeated by reference was counted once in the same way."""
    import array

    width, n, k = 4000, 1000, 1000
    row = ["x" * width] + [0] * (n - 1)
    for rows in (
        [array.array("b", bytes(n)) for _ in range(k)],
        [bytearray(n) for _ in range(k)],
        [[0] * n] * k,  # one list, k times
    ):
        with pytest.raises(ValueError, match=r"^z is too large"):
            embedlab.softmax([*rows, row])


def test_hostile_pass_75_numbers_beside_text_are_sized_as_the_text_numpy_makes_of_them():
    """NumPy pads every item of a list mixing text and numbers to the widest text, and writes each number as text
    as wide as its kind (a float in 32 characters, a complex in 64). The sizer counted no items for memoryviews and
    ranges, no text for U/S arrays, and 8 bytes a number: each input below would be tens of GB as NumPy builds it,
    and NumPy began building it (a MemoryError under a ulimit). Each is refused by size before."""
    import array

    width = 8000
    text_row = ["a" * width] + [0] * 999
    for value in (
        [memoryview(array.array("d", [0] * 1000))] * 1000 + [text_row],
        [range(1000)] * 1000 + [text_row],
        [np.array(["a" * width])] + [[0]] * 1_000_000,
        [np.array([b"a" * (4 * width)])] + [[0]] * 1_000_000,
        [["a"] * 1000] + [[1j] * 1000] * 200_000,  # one row of complex numbers, repeated beside a row of text
    ):
        with pytest.raises(ValueError, match=r"^z is too large"):
            embedlab.softmax(value)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        ("embedlab.softmax([memoryview(np.array(['x' * 10**6]))] + [[1.0]] * 2000)", "z is too large"),
        ("embedlab.softmax([array.array('u', 'a' * 1000)] + [[1.0] * 1000] * 40000)", "z is too large"),
        ("embedlab.softmax([array.array('u', 'a')] + [[np.clongdouble(1)] * 1000] * 20000)", "z is too large"),
        ("embedlab.softmax(['a'] + [[np.longdouble(1)] * 1000] * 60000)", "z is too large"),
        ("embedlab.softmax([b'x' * 10**6, 'a'] + [[1.0]] * 1000)", "z is too large"),
        ("embedlab.softmax([np.array([b'x' * 10**6]), 'a'] + [[1.0]] * 1000)", "z is too large"),
        ("embedlab.lookup(np.eye(3), [memoryview(np.array([b'x' * 10**6]))] + [[b'a']] * 8000)", "ids is too large"),
        # after the size check a list is read again as Python objects, one an entry (4 GB more here)
        ("embedlab.softmax([np.full(6 * 10**7, 2.0**60)])", "z is too large"),
        ("embedlab.lookup(np.eye(3), [np.arange(7 * 10**7)])", "ids is too large"),
        ("embedlab.softmax([['a' * 5000] * 2, *([[1.0, 2.0]] * 10**5)])", "z is too large"),  # text beside a matrix
    ],
)  # fmt: skip
def test_hostile_pass_76_text_in_buffers_wide_numbers_and_second_readings_are_sized(call, words):
    """A buffer holding text (a memoryview of a str array, array.array('u')) counted as numbers; bytes beside str
    counted one byte a character (NumPy makes them str: four); a longdouble beside text counted 32 characters
    (NumPy writes 48, a clongdouble 96); the object array readers make of a list after the size check was not
    sized. The buffer rows and the first object row let NumPy begin gigabytes under a 3 GiB limit (a MemoryError);
    the others were refused in time, within the four-fold margin, and guard the same rules."""
    _refused_under_3_gib("import array", call, words)


def test_hostile_pass_76_an_array_like_inside_a_list_is_refused_not_read_twice():
    """NumPy asks an array-like inside a list for its array again after the size check: one that answered 8 bytes
    first and a broadcast of 10**9 floats next made NumPy build 8 GB. Inside a list it is refused by name; at the
    top it is read once, as before."""

    class Changes:
        def __init__(self):
            self.calls = 0

        def __array__(self, dtype=None, copy=None):
            self.calls += 1
            return np.zeros(1) if self.calls == 1 else np.broadcast_to(np.zeros(1), (10**9,))

    for call, name in (
        (lambda: embedlab.softmax([Changes()]), "z"),
        (lambda: embedlab.dot([Changes()], [1.0]), "a"),
        (lambda: embedlab.lookup(np.eye(3), [Changes()]), "ids"),
    ):
        with pytest.raises(TypeError, match=rf"^{name} must hold plain lists, tuples or arrays, got .*an array-like"):
            call()
    np.testing.assert_array_equal(embedlab.softmax(Changes()), [1.0])


def test_hostile_pass_76_lists_of_big_whole_numbers_and_ids_are_still_read_exactly():
    """The size check before a list is read again item by item leaves small lists as they were."""
    np.testing.assert_array_equal(embedlab.softmax([[2**60, 2**60]]), [[0.5, 0.5]])
    np.testing.assert_array_equal(embedlab.softmax([np.int64(2**60), np.uint64(2**60)]), [0.5, 0.5])
    np.testing.assert_array_equal(embedlab.lookup(np.eye(3), [np.arange(3)]), [np.eye(3)])


def test_hostile_pass_76_a_repeated_row_and_a_long_matrix_are_sized_quickly_and_right():
    """[[1.0]] * 10**7 walked every reference (36 s); a matrix of 2 million rows took 15 s to size. Both are read in
    bulk now: a value check, not a timing (tests never time): the result is NumPy's, and text still counts."""
    x = [[1.0]] * 10**6
    np.testing.assert_array_equal(embedlab.softmax(x), np.ones((10**6, 1)))
    rows = [[float(i % 50), 0.0] for i in range(10**5)]
    np.testing.assert_allclose(embedlab.softmax(rows)[:, 1], 1 / (1 + np.exp(np.arange(10**5) % 50.0)), rtol=1e-12)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        # a structured array beside objects became a tuple of arrays an entry (a kilobyte each; a crash at 3e6)
        ("N = 10**6; embedlab.softmax([np.zeros(N, [(c, 'u1', (1,)) for c in 'abcdefgh']), [None] * N])",
         "z must hold arrays of numbers"),
        # a variable-width string array copies strings no itemsize tells (4 GB from a 64 KB estimate)
        ("embedlab.softmax([np.broadcast_to(np.array(['x' * 10**6], dtype=np.dtypes.StringDType()), (4000,))])",
         "z must hold arrays of numbers"),
        # NumPy keeps a record of every list, array and buffer it meets: a million references cost more than a row
        ("embedlab.softmax([eval('[' * 62 + '1.5' + ']' * 62)] * 2_000_000)", "z is too large"),
        ("embedlab.softmax([bytearray(b'\\x01')] * 10**7)", "z is too large"),
        ("embedlab.softmax([[np.array(1.5)]] * 50_000_000)", "z is too large"),
        # an ndarray subclass's own size property is not what NumPy copies
        ("L = type('L', (np.ndarray,), {'size': 1}); "
         "embedlab.softmax([np.broadcast_to(np.zeros(1), (10**9,)).view(L)])",
         "z is too large"),
    ],
)  # fmt: skip
def test_hostile_pass_78_what_numpy_keeps_while_it_converts_a_list_is_sized(call, words):
    """Each of these passed the size check and then NumPy took gigabytes (a MemoryError, or a crash, under a
    3 GiB limit): structured and variable-width string arrays in a list, NumPy's own record of each nested list
    or buffer, an ndarray subclass's lying size. Each is refused first."""
    _refused_under_3_gib("", call, words)


def test_hostile_pass_78_ndarray_subclass_attributes_and_int_subclass_conversions_never_run():
    """The walk read size, dtype and ndim through a caller's ndarray subclass, and softmax's fallback for ints
    beyond 64 bits called int() (an int subclass's own __int__): a ZeroDivisionError, or [1, 0, 0] for a lying
    __int__ where the values say [0, 0.73, 0.27]."""
    boom = property(lambda s: 1 / 0)
    sized = np.zeros(3).view(type("S", (np.ndarray,), {"size": boom}))
    np.testing.assert_array_equal(embedlab.softmax([sized]), np.full((1, 3), 1 / 3))
    zero_d = np.array(1).view(type("N", (np.ndarray,), {"ndim": boom}))
    np.testing.assert_array_equal(embedlab.lookup(np.eye(3), [zero_d, 1]), np.eye(3)[[1, 1]])
    raising = type("B", (int,), {"__int__": lambda s: 1 / 0})
    np.testing.assert_array_equal(embedlab.softmax([raising(2), 2**70]), [0.0, 1.0])
    lying = type("B", (int,), {"__int__": lambda s: 10**100})
    expected = [0.0, 1 / (1 + math.exp(-1)), math.exp(-1) / (1 + math.exp(-1))]  # 2 is 2**70 below the top
    np.testing.assert_allclose(embedlab.softmax([lying(2), 2**70, 2**70 - 1]), expected, rtol=1e-15)
    np.testing.assert_allclose(embedlab.log_softmax([lying(2), 2**70, 2**70 - 1])[1:], np.log(expected[1:]))


def test_hostile_pass_78_a_long_list_with_one_odd_item_is_read_in_bulk_and_right():
    """Ten million floats and one 0-d array took 18.5 s to size, a matrix with one array row 10 s: numbers and
    plain rows among other items are counted in C now. Values, not timings: the results are NumPy's."""
    x = [float(i % 7) for i in range(10**6)] + [np.array(0.5)]
    expected = np.exp(np.asarray(x, dtype=float) - 6.0)
    np.testing.assert_allclose(embedlab.softmax(x), expected / expected.sum(), rtol=1e-12)
    rows = [[float(i % 5), 1.0] for i in range(10**5)] + [np.array([1.0, 2.0])]
    p = embedlab.softmax(rows)
    np.testing.assert_allclose(p[:-1, 0], 1 / (1 + np.exp(1.0 - np.arange(10**5) % 5)), rtol=1e-12)
    np.testing.assert_allclose(p[-1], np.exp([-1.0, 0.0]) / np.exp([-1.0, 0.0]).sum())


class _AttributesFail:
    """Every attribute lookup fails, __class__ included: isinstance against an ABC asks for it."""

    def __getattribute__(self, attribute):
        raise AttributeError(attribute)


class _AttributesFailOddly:
    def __getattribute__(self, attribute):
        raise KeyError(attribute)


@pytest.mark.parametrize("odd", [_AttributesFail, _AttributesFailOddly])
@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda x: embedlab.lookup(x, [0]), "E"),
        (lambda x: embedlab.softmax(x), "z"),
        (lambda x: embedlab.dot(x, [1.0]), "a"),
        (lambda x: embedlab.cosine(x, [1.0]), "a"),
        (lambda x: embedlab.tied_logits(x, np.eye(2)), "h"),
        (lambda x: embedlab.saturation_prob(x), "t"),
        (lambda x: embedlab.train.pca_2d(x), "E"),
        (lambda x: embedlab.cross_entropy_grad(x, 0), "logits"),
    ],
)
def test_hostile_pass_77_an_object_whose_attribute_lookup_fails_is_refused_by_name(odd, call, name):
    """isinstance(x, numbers.Real) reads x.__class__ through x's own __getattribute__: its AttributeError (or
    whatever it raised) escaped from 63 public callables. Types are read from type(x) now."""
    with pytest.raises(TypeError, match=rf"^{name} must"):
        call(odd())


def test_hostile_pass_77_context_windows_refuses_an_iterator_that_fails_by_name():
    def failing():
        yield np.array([0, 1, 2])
        raise KeyError("x")

    with pytest.raises(TypeError, match=r"^sentences must be a sequence of 1-D int arrays; reading its items failed"):
        embedlab.corpus.context_windows(failing(), 2)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        # 2**24 copies of a 128-byte token: 2 GiB of text, and tiktoken panicked (a BaseException) without room
        ("g.decode([35496] * g.MAX_IDS)", "ids is too large"),
        ("g.tokens(np.broadcast_to(35496, (2**24,)))", "ids is too large"),
        # text within MAX_TEXT whose characters are four tokens each: gigabytes of HTML
        ("g.tokens_html(chr(0x10000) * g.MAX_TEXT)", "text is too large"),
        ("g.explorer_html([chr(0x10000) * g.MAX_TEXT])", "sentences is too large"),
        # each passed its size check and then held one array more than it counted
        ("embedlab.cross_entropy_grad(np.zeros((100_000, 1000)), np.zeros(100_000, int))", "logits is too large"),
        ("embedlab.saturation_prob(np.zeros(100_000_000, np.float16))", "t is too large"),
        ("embedlab.train.pca_2d(np.random.default_rng(0).standard_normal((40_000_000, 4), dtype=np.float32))",
         "E is too large"),
    ],
)  # fmt: skip
def test_hostile_pass_77_results_are_sized_as_they_are_built(call, words):
    """Each raised MemoryError (or tiktoken's PanicException) under a 4 GB limit, the first four under 3 GiB too;
    each is refused by size."""
    _refused_under_3_gib("import embedlab.gpt2 as g", call, words)


def test_hostile_pass_77_training_sizes_its_checkpoints_twice_as_np_stack_copies_them():
    """The kept checkpoints were counted once, then np.stack copied them: a MemoryError after the training."""
    corpus = "embedlab.corpus.make_corpus(0, 50, 10, 10)"
    call = f"embedlab.train.train({corpus}, tied=False, d=670, steps=1100, n_checkpoints=1100, batch_size=4)"
    _refused_under_3_gib("", call, "n_checkpoints is too large")


def test_hostile_pass_77_the_grader_reads_a_comma_inside_a_fraction_as_its_docstring_says():
    """The docstring promised thousands separators everywhere; inside a fraction a comma is a decimal comma."""
    assert quiz_mod.parse_number("1,234") == 1234.0
    assert quiz_mod.parse_number("1,234/2") == pytest.approx(0.617)
    assert quiz_mod.parse_number("1,234,567/1000") is None


def test_hostile_pass_79_a_failing_abc_elsewhere_in_the_process_does_not_break_every_call():
    """A numbers.Real subclass whose __subclasshook__ raises (defined anywhere) made issubclass raise KeyError
    for every argument: softmax([1.0, 2.0]) failed. Run apart: the hook stays in numbers.Real for the process."""
    code = textwrap.dedent(
        """
        import numbers, warnings
        import embedlab
        warnings.simplefilter("error")

        class Bad(numbers.Real):
            __subclasshook__ = classmethod(lambda cls, other: (_ for _ in ()).throw(KeyError("hook")))

        print(embedlab.softmax([0.0, 0.0]).tolist(), embedlab.lookup(embedlab.E_TOY, [1]).tolist())
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-1500:]
    assert out.stdout.strip() == f"[0.5, 0.5] {embedlab.E_TOY[[1]].tolist()}"


def test_hostile_pass_79_tokens_html_sizes_at_least_what_it_takes_for_text_with_spaces():
    """The visible space makes the whole page two bytes a character: text of spaces and NULs took 1.4 times the
    estimate (measured with tracemalloc, not timed)."""
    import tracemalloc

    from embedlab import gpt2

    text = " \x00" * 2**13
    ids = gpt2.encode(text)
    gpt2.tokens_html("warm up")  # the vocabulary and the length table, loaded before the measurement
    gpt2._token_lengths()
    tracemalloc.start()
    try:
        gpt2.tokens_html(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert gpt2._output_bytes(ids, gpt2._HTML_PER_ID, gpt2._HTML_PER_BYTE) >= peak


@pytest.mark.parametrize(
    ("text", "value", "readings"),
    [
        ("1,000e3", 1e6, ("1000e3", "1.000e3")),
        ("2,500E2", 250000.0, ("2500E2", "2.500E2")),
        ("-1,000e3", -1e6, ("-1000e3", "-1.000e3")),
        ("1,234,567e0", 1234567.0, None),
        ("12,34e1", 123.4, None),  # not three digits after the comma: a decimal comma, as 12,34 is
    ],
)
def test_hostile_pass_80_thousands_with_an_exponent_are_read_as_thousands(text, value, readings):
    """A comma and three digits is a thousands separator, said the docstring, but not before an exponent:
    1,000e3 was read as 1.000e3 (1000.0, where 1,000 is 1000 and 1 000e3 is 10**6), with no note that the comma
    could mean either. Both graders share the rule; the page's is checked on the same strings elsewhere."""
    assert quiz_mod.parse_number(text) == value
    assert quiz_mod.ambiguous_readings(text) == readings


def test_hostile_pass_79_int_subclasses_are_read_by_their_value_when_numpy_makes_an_int_array():
    """NumPy makes an int array of a list of int subclasses by their __index__; embedlab reads int subclasses by
    the value they hold everywhere else. A lying __index__ gave softmax([MyI(0), MyI(1)]) = [0.5, 0.5] (both read
    as 99) and refused lookup(E, [MyI(0)]) for an id 99 the caller never passed."""
    lying = type("MyI", (int,), {"__int__": lambda s: 99, "__index__": lambda s: 99})
    expected = np.exp([0.0, 1.0]) / np.exp([0.0, 1.0]).sum()
    np.testing.assert_allclose(embedlab.softmax([lying(0), lying(1)]), expected, rtol=1e-15)
    np.testing.assert_allclose(embedlab.log_softmax([lying(0), lying(1)]), np.log(expected), rtol=1e-15)
    assert embedlab.saturation_prob(lying(0)) == 0.25  # 1 / (1 + 3 e^0)
    np.testing.assert_array_equal(embedlab.lookup(embedlab.E_TOY, [lying(0)]), embedlab.E_TOY[[0]])
    np.testing.assert_array_equal(embedlab.one_hot([lying(0), lying(1)], 3), np.eye(3)[:2])
    assert embedlab.dot([lying(1), lying(2)], [1, 1]) == 3.0


def test_hostile_pass_81_saturation_prob_reads_int_subclasses_by_the_value_they_hold():
    """saturation_prob rounded the re-read ints with float(x), which runs an int subclass's own __float__."""
    lying = type("Lie", (int,), {"__index__": lambda s: 3, "__int__": lambda s: 2, "__float__": lambda s: 9.5})
    p1 = 1 / (1 + 3 * math.exp(-1.0))
    np.testing.assert_allclose(embedlab.saturation_prob([lying(1), lying(0)]), [p1, 0.25], rtol=1e-15)
    assert embedlab.saturation_prob(lying(1)) == pytest.approx(p1, rel=1e-15)
    assert embedlab.saturation_prob(np.array(lying(1), dtype=object).reshape(())) == pytest.approx(p1, rel=1e-15)


def test_hostile_pass_81_an_int_subclass_beside_floats_is_read_by_the_value_it_holds():
    """NumPy makes a float array of [Lie(1), 0.5] through the int subclass's own __float__ (9.5 here): softmax
    gave [0.99988, 0.00012] and dot 10.0. The walk sees the subclass, and the array is made again from the value
    it holds."""
    lying = type("Lie", (int,), {"__index__": lambda s: 3, "__int__": lambda s: 2, "__float__": lambda s: 9.5})
    expected = np.exp([1.0, 0.5]) / np.exp([1.0, 0.5]).sum()
    np.testing.assert_allclose(embedlab.softmax([lying(1), 0.5]), expected, rtol=1e-15)
    assert embedlab.dot([lying(1), 0.5], [1, 1]) == 1.5
    np.testing.assert_allclose(
        embedlab.saturation_prob([lying(1), 0.5]), [1 / (1 + 3 * math.exp(-1.0)), 1 / (1 + 3 * math.exp(-0.5))]
    )


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: sweep_mod.SweepSpec(data_sizes=[10**5000]), r"^data_sizes must hold ints of at most"),
        (lambda: sweep_mod.SweepSpec(widths=[10**5000]), r"^widths must hold ints of at most"),
        (lambda: sweep_mod.SweepSpec(seeds=[10**5000, 1]), r"^seeds must hold ints of at most"),
        (lambda: sweep_mod.SweepSpec(draws=[10**5000]), r"^draws must hold ints of at most"),
    ],
)
def test_hostile_pass_82_sweep_grids_refuse_huge_ints_by_name(make, words):
    """The message itself formatted the int ({v:,}: Python's 4,300-digit limit raised, naming nothing); seeds and
    draws had no bound, and the spec then failed in its own repr."""
    with pytest.raises(ValueError, match=words):
        make()


def test_hostile_pass_83_an_int_subclass_beside_a_longdouble_keeps_its_exact_value():
    """The array rebuilt from held values went through float(), rounding 2**60 + 1 to 2**60 though longdouble
    holds it: softmax gave [0.5, 0.5] where the plain int gives [0.731, 0.269]."""
    own_float = type("S", (int,), {"__float__": lambda s: 999.0})
    for value in ([own_float(2**60 + 1), np.longdouble(2**60)], [[own_float(2**60 + 1), np.longdouble(2**60)]]):
        plain = [[2**60 + 1, np.longdouble(2**60)]] if isinstance(value[0], list) else [2**60 + 1, np.longdouble(2**60)]
        np.testing.assert_array_equal(embedlab.softmax(value), embedlab.softmax(plain))
        np.testing.assert_array_equal(embedlab.log_softmax(value), embedlab.log_softmax(plain))
    if np.finfo(np.longdouble).nmant >= 60:  # where longdouble holds 2**60 + 1 (x86's 80-bit format)
        np.testing.assert_allclose(
            embedlab.softmax([own_float(2**60 + 1), np.longdouble(2**60)]).astype(float), [0.7310585786, 0.2689414214]
        )
