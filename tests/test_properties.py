"""Property-based tests (Hypothesis) for the identities the library is built on.

Deterministic and quick: derandomize=True, at most 50 examples each, no deadline, no example
database.
"""

import os
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.extra.numpy import array_shapes, arrays

from embedlab import embedding_grad, lookup, one_hot, output_grad, softmax, tied_grad

# Hypothesis caches files in ./.hypothesis by default. pyproject's norecursedirs replaces pytest's
# defaults without listing .hypothesis, so once that directory exists Hypothesis's pytest plugin
# warns on collection and filterwarnings=error turns the whole run into an error. Keep the cache
# out of the repository unless the caller has chosen a place.
if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
    set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "embedlab-hypothesis")

SETTINGS = settings(max_examples=50, deadline=None, derandomize=True, database=None)

finite = st.floats(min_value=-50.0, max_value=50.0, allow_nan=False, allow_infinity=False)
logit_arrays = arrays(np.float64, array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6), elements=finite)


@st.composite
def ids_and_table(draw):
    """A vocabulary size V, width d, an embedding table and ids (with repeats likely) of any shape."""
    V = draw(st.integers(1, 6))
    d = draw(st.integers(1, 4))
    E = draw(arrays(np.float64, (V, d), elements=finite))
    ids = draw(
        arrays(np.int64, array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), elements=st.integers(0, V - 1))
    )
    return V, d, E, ids


@SETTINGS
@given(logit_arrays, st.data())
def test_softmax_sums_to_one_and_is_in_range(z, data):
    """Along the chosen axis, probabilities are in [0, 1] and sum to 1."""
    axis = data.draw(st.integers(-z.ndim, z.ndim - 1))
    p = softmax(z, axis=axis)
    assert p.shape == z.shape
    assert np.all((p >= 0) & (p <= 1))
    np.testing.assert_allclose(p.sum(axis=axis), 1.0, rtol=1e-12)


@SETTINGS
@given(logit_arrays, st.floats(min_value=-500.0, max_value=500.0))
def test_softmax_is_shift_invariant(z, c):
    """softmax(z + c) == softmax(z) for any constant c."""
    np.testing.assert_allclose(softmax(z + c), softmax(z), rtol=1e-9, atol=1e-15)


@SETTINGS
@given(logit_arrays)
def test_softmax_preserves_order(z):
    """A larger logit never gets a smaller probability."""
    p = softmax(z)
    zi, pi = z.reshape(-1, z.shape[-1]), p.reshape(-1, z.shape[-1])
    for zr, pr in zip(zi, pi, strict=True):
        order = np.argsort(zr, kind="stable")
        assert np.all(np.diff(pr[order]) >= -1e-15)


@SETTINGS
@given(ids_and_table())
def test_lookup_equals_one_hot_product(case):
    """lookup(E, ids) == one_hot(ids, V) @ E, exactly the same rows."""
    V, _, E, ids = case
    np.testing.assert_allclose(lookup(E, ids), one_hot(ids, V) @ E, rtol=1e-15, atol=0)


@SETTINGS
@given(ids_and_table(), st.data())
def test_embedding_grad_equals_add_at(case, data):
    """embedding_grad equals scatter-add with np.add.at, repeats accumulating."""
    V, d, _, ids = case
    up = data.draw(arrays(np.float64, (*ids.shape, d), elements=finite))
    expected = np.zeros((V, d))
    np.add.at(expected, ids.reshape(-1), up.reshape(-1, d))
    np.testing.assert_allclose(embedding_grad(ids, up, V), expected, rtol=1e-12, atol=1e-12)


@SETTINGS
@given(ids_and_table(), st.data())
def test_tied_grad_is_sum_of_both_paths(case, data):
    """tied_grad == embedding_grad + output_grad for any compatible inputs."""
    V, d, _, ids = case
    up = data.draw(arrays(np.float64, (*ids.shape, d), elements=finite))
    lead = data.draw(array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=4))
    h = data.draw(arrays(np.float64, (*lead, d), elements=finite))
    gz = data.draw(arrays(np.float64, (*lead, V), elements=finite))
    np.testing.assert_allclose(
        tied_grad(ids, up, h, gz, V),
        embedding_grad(ids, up, V) + output_grad(h, gz),
        rtol=1e-12,
        atol=1e-12,
    )
