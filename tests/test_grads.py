"""Tests for embedlab.grads: embedding_grad, output_grad, tied_grad, and a finite-difference check
of the whole gradient of a small tied model."""

import numpy as np
import pytest

from embedlab import (
    cross_entropy,
    cross_entropy_grad,
    embedding_grad,
    lookup,
    one_hot,
    output_grad,
    tied_grad,
    tied_logits,
)

RNG = np.random.default_rng(3)


def add_at_oracle(ids, upstream, V):
    """Independent oracle: scatter-add with np.add.at."""
    ids = np.asarray(ids)
    upstream = np.asarray(upstream, dtype=float)
    d = upstream.shape[-1]
    out = np.zeros((V, d))
    np.add.at(out, ids.reshape(-1), upstream.reshape(-1, d))
    return out


# ---------------------------------------------------------------- embedding_grad
def test_embedding_grad_docstring_example_by_hand():
    """Repeated id 1 accumulates 1+2; id 3 gets its row; untouched rows are 0."""
    g = embedding_grad([1, 1, 3], [[1.0, 0.0], [2.0, 0.0], [0.0, 5.0]], vocab_size=4)
    np.testing.assert_array_equal(g, [[0, 0], [3, 0], [0, 0], [0, 5]])


@pytest.mark.parametrize("ids_shape", [(), (1,), (6,), (3, 4), (2, 2, 3)])
def test_embedding_grad_matches_add_at_and_one_hot(ids_shape):
    """embedding_grad equals np.add.at scatter-add and one_hot(ids).T @ upstream, for any ids shape."""
    V, d = 5, 3
    ids = RNG.integers(0, V, size=ids_shape)
    up = RNG.standard_normal((*ids_shape, d))
    g = embedding_grad(ids, up, V)
    assert g.shape == (V, d)
    np.testing.assert_allclose(g, add_at_oracle(ids, up, V), rtol=1e-14, atol=1e-15)
    oh = one_hot(ids, V).reshape(-1, V)
    np.testing.assert_allclose(g, oh.T @ up.reshape(-1, d), rtol=1e-14, atol=1e-15)


def test_embedding_grad_all_same_id():
    """All ids equal: one row is the sum of all upstream rows, the others are zero."""
    up = RNG.standard_normal((7, 2))
    g = embedding_grad([2] * 7, up, 3)
    np.testing.assert_allclose(g[2], up.sum(axis=0), rtol=1e-14)
    np.testing.assert_array_equal(g[[0, 1]], 0.0)


def test_embedding_grad_is_adjoint_of_lookup():
    """<lookup(E, ids), U> == <E, embedding_grad(ids, U)> for random E, U (the defining property)."""
    V, d = 6, 4
    ids = RNG.integers(0, V, size=(3, 5))
    E = RNG.standard_normal((V, d))
    U = RNG.standard_normal((3, 5, d))
    assert np.sum(lookup(E, ids) * U) == pytest.approx(np.sum(E * embedding_grad(ids, U, V)), rel=1e-12)


def test_embedding_grad_keeps_float32():
    """A float32 upstream gives a float32 gradient."""
    g = embedding_grad([0, 0, 1], np.ones((3, 2), dtype=np.float32), 2)
    assert g.dtype == np.float32
    np.testing.assert_array_equal(g, [[2, 2], [1, 1]])


def test_embedding_grad_integer_upstream_is_float64():
    """An integer upstream is converted to float64."""
    g = embedding_grad([1], [[3, 4]], 2)
    assert g.dtype == np.float64
    np.testing.assert_array_equal(g, [[0, 0], [3, 4]])


def test_embedding_grad_does_not_modify_inputs():
    """Sorting happens on copies: ids and upstream are unchanged."""
    ids = np.array([3, 0, 3, 1])
    up = RNG.standard_normal((4, 2))
    ids0, up0 = ids.copy(), up.copy()
    embedding_grad(ids, up, 4)
    np.testing.assert_array_equal(ids, ids0)
    np.testing.assert_array_equal(up, up0)


@pytest.mark.parametrize(
    ("ids", "up", "V", "exc", "message"),
    [
        ([0, 4], np.zeros((2, 2)), 4, ValueError, r"ids must be in \[0, 3\] for a vocabulary of 4, got 4"),
        ([-1], np.zeros((1, 2)), 4, ValueError, r"negative ids are refused"),
        ([0.0], np.zeros((1, 2)), 4, TypeError, r"ids must be integer token ids, got floating values"),
        ([True], np.zeros((1, 2)), 4, TypeError, r"ids must be integer token ids, got bool"),
        ("cat", np.zeros(2), 4, TypeError, r"got the string 'cat'"),
        (np.array([], dtype=int), np.zeros((0, 2)), 4, ValueError, r"ids must hold at least one token id"),
        (
            [0, 1],
            np.zeros((3, 2)),
            4,
            ValueError,
            r"upstream must have shape ids\.shape \+ \(d,\) = \(2, 'd'\), got shape \(3, 2\)",
        ),
        (
            [0, 1],
            np.zeros(2),
            4,
            ValueError,
            r"upstream must have shape ids\.shape \+ \(d,\) = \(2, 'd'\), got shape \(2,\)",
        ),
        (
            [0, 1],
            [[0.0, np.nan], [0.0, 0.0]],
            4,
            ValueError,
            r"upstream must be finite, got 1 NaN or infinite value\(s\), the first at index \(0, 1\)",
        ),
        (
            [0, 1],
            [[0.0, 0.0], [np.inf, 0.0]],
            4,
            ValueError,
            r"upstream must be finite, .* the first at index \(1, 0\)",
        ),
        ([0], np.zeros((1, 2), dtype=object), 4, TypeError, r"upstream must be an array of real numbers"),
        ([0], np.zeros((1, 2)), 0, ValueError, r"vocab_size must be a positive integer, got 0"),
        ([0], np.zeros((1, 2)), 4.0, TypeError, r"vocab_size must be a positive integer, got float 4\.0"),
        ([0], np.zeros((1, 2)), True, TypeError, r"vocab_size must be a positive integer, got bool True"),
    ],
)
def test_embedding_grad_bad_input(ids, up, V, exc, message):
    """Invalid ids, upstream of the wrong shape or with NaN/inf, and bad vocab sizes are refused."""
    with pytest.raises(exc, match=message):
        embedding_grad(ids, up, V)


# ---------------------------------------------------------------- output_grad
def test_output_grad_docstring_example_by_hand():
    """grad_logits^T h for a single context, written out."""
    np.testing.assert_array_equal(output_grad([1.0, 2.0], [0.5, 0.0, -0.5]), [[0.5, 1.0], [0.0, 0.0], [-0.5, -1.0]])


@pytest.mark.parametrize("lead", [(), (1,), (4,), (2, 3), (2, 1, 3)])
def test_output_grad_sums_over_all_leading_axes(lead):
    """output_grad equals einsum('nv,nd->vd') on flattened contexts and an explicit loop over every context."""
    V, d = 5, 3
    h = RNG.standard_normal((*lead, d))
    gz = RNG.standard_normal((*lead, V))
    g = output_grad(h, gz)
    assert g.shape == (V, d)
    np.testing.assert_allclose(g, np.einsum("nv,nd->vd", gz.reshape(-1, V), h.reshape(-1, d)), rtol=1e-13, atol=1e-14)
    loop = np.zeros((V, d))
    for idx in np.ndindex(*lead):
        for j in range(V):
            for k in range(d):
                loop[j, k] += gz[idx][j] * h[idx][k]
    np.testing.assert_allclose(g, loop, rtol=1e-13, atol=1e-14)


def test_output_grad_is_adjoint_of_tied_logits():
    """<tied_logits(h, E), G> == <E, output_grad(h, G)> (the defining property of the gradient)."""
    E = RNG.standard_normal((6, 4))
    h = RNG.standard_normal((2, 3, 4))
    G = RNG.standard_normal((2, 3, 6))
    assert np.sum(tied_logits(h, E) * G) == pytest.approx(np.sum(E * output_grad(h, G)), rel=1e-12)


def test_output_grad_float32():
    """float32 inputs give a float32 gradient."""
    g = output_grad(np.ones((2, 3), np.float32), np.ones((2, 4), np.float32))
    assert g.dtype == np.float32
    np.testing.assert_array_equal(g, np.full((4, 3), 2.0))


@pytest.mark.parametrize(
    ("h", "gz", "exc", "message"),
    [
        (
            np.zeros((2, 3)),
            np.zeros((3, 4)),
            ValueError,
            r"h and grad_logits must share their leading shape .* "
            r"got h of shape \(2, 3\) and grad_logits of shape \(3, 4\)",
        ),
        (np.zeros(3), np.zeros((1, 4)), ValueError, r"h and grad_logits must share their leading shape"),
        ([0.0, np.nan], [0.0, 0.0], ValueError, r"h must be finite, got 1 NaN or infinite value\(s\)"),
        (
            [0.0, 1.0],
            [0.0, np.nan, 0.0],
            ValueError,
            r"grad_logits must be finite, got 1 NaN or infinite value\(s\), the first at index \(1,\)",
        ),
        ([0.0, 1.0], [np.inf, 0.0, 0.0], ValueError, r"grad_logits must be finite, .* the first at index \(0,\)"),
        (0.0, [0.0], ValueError, r"h must have at least 1 dimension\(s\)"),
        ([0.0], 0.0, ValueError, r"grad_logits must have at least 1 dimension\(s\)"),
        ("h", [0.0], TypeError, r"h must be an array of real numbers, got the string 'h'"),
        ([0.0], [True], TypeError, r"grad_logits must be an array of real numbers, got an array of dtype bool"),
    ],
)
def test_output_grad_bad_input(h, gz, exc, message):
    """Mismatched leading shapes, NaN/inf and non-real inputs are refused."""
    with pytest.raises(exc, match=message):
        output_grad(h, gz)


# ---------------------------------------------------------------- tied_grad
def test_tied_grad_docstring_example():
    """Row 1 collects the input-path upstream plus 0.05 * h from the output path."""
    g = tied_grad([1], [[0.10, -0.20, 0.30]], [1.0, 0.0, 0.0], [0, 0.05, 0, 0], vocab_size=4)
    np.testing.assert_allclose(g[1], [0.15, -0.20, 0.30], rtol=1e-14)
    np.testing.assert_array_equal(g[[0, 2, 3]], 0.0)


def test_tied_grad_is_sum_of_paths():
    """tied_grad equals np.add.at scatter-add plus the einsum output gradient."""
    V, d = 5, 3
    ids = RNG.integers(0, V, size=(2, 4))
    up = RNG.standard_normal((2, 4, d))
    h = RNG.standard_normal((2, 4, d))
    gz = RNG.standard_normal((2, 4, V))
    expected = add_at_oracle(ids, up, V) + np.einsum("abv,abd->vd", gz, h)
    np.testing.assert_allclose(tied_grad(ids, up, h, gz, V), expected, rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize(
    ("h", "gz", "message"),
    [
        (
            np.zeros(3),
            np.zeros(5),
            r"grad_logits must have 4 columns \(vocab_size\) and h width 3 \(the width of upstream\), "
            r"got grad_logits of shape \(5,\) and h of shape \(3,\)",
        ),
        (
            np.zeros(2),
            np.zeros(4),
            r"grad_logits must have 4 columns .* got grad_logits of shape \(4,\) and h of shape \(2,\)",
        ),
    ],
)
def test_tied_grad_shape_mismatch(h, gz, message):
    """The two paths must agree on (V, d)."""
    with pytest.raises(ValueError, match=message):
        tied_grad([0], np.zeros((1, 3)), h, gz, 4)


# ---------------------------------------------------------------- a whole tied model vs finite differences
def per_position_model(E, W, ids, targets):
    """ids -> lookup -> h = tanh(x @ W) per position -> tied logits -> cross-entropy.

    Returns the loss and the analytic gradient of the loss with respect to E, chaining by hand
    through the body and using the library's gradient functions for the two paths into E.
    """
    x = lookup(E, ids)  # (..., d)
    h = np.tanh(x @ W)  # (..., d)
    z = tied_logits(h, E)  # (..., V)
    loss = cross_entropy(z, targets)
    gz = cross_entropy_grad(z, targets)  # dL/dz
    gh = gz @ E  # dL/dh (z = h @ E.T)
    gx = (gh * (1.0 - h**2)) @ W.T  # dL/dx through tanh(x @ W)
    grad = tied_grad(ids, gx, h, gz, E.shape[0])
    # the two paths, separately, must add up to the same thing
    np.testing.assert_allclose(grad, embedding_grad(ids, gx, E.shape[0]) + output_grad(h, gz), rtol=1e-14, atol=1e-16)
    return loss, grad


def averaged_model(E, W, ids, target):
    """ids -> lookup -> mean over positions -> h = tanh(mean @ W) -> tied logits -> cross-entropy."""
    x = lookup(E, ids)  # (T, d)
    m = x.mean(axis=0)  # (d,)
    h = np.tanh(m @ W)  # (d,)
    z = tied_logits(h, E)  # (V,)
    loss = cross_entropy(z, target)
    gz = cross_entropy_grad(z, target)  # (V,)
    gm = ((gz @ E) * (1.0 - h**2)) @ W.T  # (d,)
    gx = np.broadcast_to(gm / len(ids), x.shape)  # each position gets 1/T of it
    return loss, tied_grad(ids, gx, h, gz, E.shape[0])


def finite_difference(loss_of_E, E, eps=1e-6):
    """Central differences on every entry of E, in float64."""
    fd = np.zeros_like(E)
    for idx in np.ndindex(*E.shape):
        Ep, Em = E.copy(), E.copy()
        Ep[idx] += eps
        Em[idx] -= eps
        fd[idx] = (loss_of_E(Ep) - loss_of_E(Em)) / (2 * eps)
    return fd


@pytest.mark.parametrize("ids_shape", [(5,), (2, 3)])
def test_tied_model_gradient_matches_finite_differences(ids_shape):
    """Analytic gradient of a per-position tied model equals central differences on every entry of E.

    ids repeat, and the target tokens overlap the input tokens, so both paths reach the same rows.
    """
    rng = np.random.default_rng(10)
    V, d = 6, 4
    E = rng.standard_normal((V, d)) * 0.7
    W = rng.standard_normal((d, d)) * 0.7
    ids = rng.integers(0, V, size=ids_shape)
    ids.flat[0] = ids.flat[-1]  # force a repeat
    targets = rng.integers(0, V, size=ids_shape)
    _, grad = per_position_model(E, W, ids, targets)
    fd = finite_difference(lambda E_: per_position_model(E_, W, ids, targets)[0], E)
    assert np.abs(grad).max() > 1e-3  # the check is not vacuous
    np.testing.assert_allclose(grad, fd, rtol=1e-6, atol=1e-9)


def test_averaged_tied_model_gradient_matches_finite_differences():
    """Same check for a model that averages the context before the tied output layer."""
    rng = np.random.default_rng(11)
    V, d = 5, 3
    E = rng.standard_normal((V, d))
    W = rng.standard_normal((d, d))
    ids = np.array([1, 3, 1, 4])
    target = 1  # also an input token: both paths hit row 1
    _, grad = averaged_model(E, W, ids, target)
    fd = finite_difference(lambda E_: averaged_model(E_, W, ids, target)[0], E)
    np.testing.assert_allclose(grad, fd, rtol=1e-6, atol=1e-9)


def test_dropping_either_path_breaks_the_gradient():
    """Guard against a vacuous check: each path alone disagrees with finite differences."""
    rng = np.random.default_rng(12)
    V, d = 5, 3
    E = rng.standard_normal((V, d))
    W = rng.standard_normal((d, d))
    ids, targets = np.array([0, 2, 2]), np.array([2, 1, 0])
    fd = finite_difference(lambda E_: per_position_model(E_, W, ids, targets)[0], E)
    x = lookup(E, ids)
    h = np.tanh(x @ W)
    z = tied_logits(h, E)
    gz = cross_entropy_grad(z, targets)
    gx = ((gz @ E) * (1.0 - h**2)) @ W.T
    assert not np.allclose(embedding_grad(ids, gx, V), fd, rtol=1e-3, atol=1e-6)
    assert not np.allclose(output_grad(h, gz), fd, rtol=1e-3, atol=1e-6)
