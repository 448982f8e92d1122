"""Tests for embedlab.model: the tiny tied model's loss against a hand-written forward pass, its two
gradient paths against finite differences of a two-table version of the model (lookup table and
output head as separate matrices), and the argument checks."""

import numpy as np
import pytest

from embedlab import E_TOY
from embedlab.model import finite_difference_grad, tiny_model_grads, tiny_model_loss
from tests.oracles import central_diff

RNG = np.random.default_rng(2024)


def two_table_loss(E_in, E_out, ids, target, W):
    """Hand-written forward pass: mean of looked-up rows, tanh body, head E_out, cross-entropy."""
    ids = np.asarray(ids).reshape(-1)
    x = np.mean([E_in[i] for i in ids], axis=0)
    h = np.tanh(x @ W)
    z = E_out @ h
    m = z.max()
    return float(m + np.log(np.sum(np.exp(z - m))) - z[target])


CASES = [
    # (V, d, ids, target)
    (4, 3, [2, 1], 3),
    (4, 3, [0], 0),
    (5, 3, [1, 1, 3], 2),  # repeated id
    (6, 4, [2, 2, 2, 2], 2),  # one id only, and it is the target
    (7, 2, [[0, 6], [6, 3]], 5),  # 2-D ids
    (3, 5, [0, 1, 2, 0], 1),
]


@pytest.mark.parametrize(("V", "d", "ids", "target"), CASES)
def test_loss_matches_hand_forward_pass(V, d, ids, target):
    E = RNG.standard_normal((V, d))
    W = RNG.standard_normal((d, d))
    assert tiny_model_loss(E, ids, target, W) == pytest.approx(two_table_loss(E, E, ids, target, W), rel=1e-12)


def test_loss_docstring_value_by_hand():
    x = (E_TOY[2] + E_TOY[0]) / 2
    z = [float(row @ np.tanh(x)) for row in E_TOY]
    expected = np.log(np.sum(np.exp(z))) - z[1]
    assert tiny_model_loss(E_TOY, [2, 0], 1, np.eye(3)) == pytest.approx(expected, rel=1e-12)
    assert round(tiny_model_loss(E_TOY, [2, 0], 1, np.eye(3)), 4) == 1.2902


@pytest.mark.parametrize(("V", "d", "ids", "target"), CASES)
def test_grads_sum_matches_finite_difference_grad(V, d, ids, target):
    E = RNG.standard_normal((V, d))
    W = RNG.standard_normal((d, d)) * 0.8
    g_in, g_out = tiny_model_grads(E, ids, target, W)
    assert g_in.shape == g_out.shape == (V, d)
    fd = finite_difference_grad(lambda M: tiny_model_loss(M, ids, target, W), E)
    np.testing.assert_allclose(g_in + g_out, fd, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize(("V", "d", "ids", "target"), CASES)
def test_each_path_matches_its_own_finite_difference(V, d, ids, target):
    """Input path = d loss / d lookup table; output path = d loss / d head (separate copies of E)."""
    E = RNG.standard_normal((V, d))
    W = RNG.standard_normal((d, d)) * 0.8
    g_in, g_out = tiny_model_grads(E, ids, target, W)
    fd_in = central_diff(lambda A: two_table_loss(A, E, ids, target, W), E)
    fd_out = central_diff(lambda A: two_table_loss(E, A, ids, target, W), E)
    np.testing.assert_allclose(g_in, fd_in, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(g_out, fd_out, rtol=1e-6, atol=1e-8)
    # rows never looked up get nothing on the input path
    unused = sorted(set(range(V)) - set(np.asarray(ids).reshape(-1).tolist()))
    np.testing.assert_array_equal(g_in[unused], 0.0)


def test_repeated_id_counts_twice():
    """ids [1, 1, 3]: row 1 is looked up twice, so its input gradient is twice row 3's."""
    E = RNG.standard_normal((5, 3))
    W = RNG.standard_normal((3, 3))
    g_in, _ = tiny_model_grads(E, [1, 1, 3], 0, W)
    np.testing.assert_allclose(g_in[1], 2 * g_in[3], rtol=1e-12)


def test_grads_do_not_modify_inputs():
    E = RNG.standard_normal((4, 3))
    W = RNG.standard_normal((3, 3))
    E0, W0 = E.copy(), W.copy()
    tiny_model_grads(E, [0, 1], 2, W)
    tiny_model_loss(E, [0, 1], 2, W)
    np.testing.assert_array_equal(E, E0)
    np.testing.assert_array_equal(W, W0)


# ---------------------------------------------------------------- argument checks
@pytest.mark.parametrize("shape", [(3, 4), (4, 3), (2, 2), (3,), (3, 3, 1)])
@pytest.mark.parametrize("fn", [tiny_model_loss, tiny_model_grads])
def test_bad_W_shape_raises_naming_W(fn, shape):
    with pytest.raises(ValueError, match=r"\bW\b"):
        fn(E_TOY, [0, 1], 2, np.ones(shape))


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_W_raises(bad):
    W = np.eye(3)
    W[1, 2] = bad
    with pytest.raises(ValueError, match=r"W must be finite"):
        tiny_model_grads(E_TOY, [0], 1, W)


def test_bad_ids_raise():
    with pytest.raises(ValueError, match="ids"):
        tiny_model_grads(E_TOY, [4], 1, np.eye(3))
    with pytest.raises(TypeError, match="ids"):
        tiny_model_grads(E_TOY, [0.5], 1, np.eye(3))


# ---------------------------------------------------------------- finite_difference_grad
def test_finite_difference_grad_of_known_function():
    A = RNG.standard_normal((3, 4))
    C = RNG.standard_normal((3, 4))
    g = finite_difference_grad(lambda M: float(np.sum(C * M) + 0.5 * np.sum(M**2)), A)
    np.testing.assert_allclose(g, C + A, rtol=1e-6, atol=1e-8)


def test_finite_difference_grad_leaves_E_alone_and_passes_float64():
    E = np.array([[1.0, 2.0]], dtype=np.float32)
    seen = []

    def loss(M):
        seen.append(M.dtype)
        M_sum = float(M.sum())
        return M_sum

    g = finite_difference_grad(loss, E)
    np.testing.assert_array_equal(E, [[1.0, 2.0]])
    assert set(seen) == {np.dtype(np.float64)}
    np.testing.assert_allclose(g, [[1.0, 1.0]], rtol=1e-6)


def test_finite_difference_grad_custom_eps():
    g = finite_difference_grad(lambda M: float(M[0, 0] ** 3), np.array([[2.0]]), eps=1e-3)
    # central difference of x^3: 3x^2 + eps^2, exactly
    assert g[0, 0] == pytest.approx(12.0 + 1e-6, rel=1e-9)


@pytest.mark.parametrize(
    ("eps", "error"),
    [(0.0, ValueError), (-1e-6, ValueError), (np.nan, ValueError), ("1e-6", TypeError), (None, TypeError)],
)
def test_finite_difference_grad_bad_eps_raises(eps, error):
    with pytest.raises(error, match="eps"):
        finite_difference_grad(lambda M: float(M.sum()), np.ones((2, 2)), eps=eps)


def test_finite_difference_grad_infinite_eps_raises():
    """An infinite step can give no derivative.

    BUG (src/embedlab/model.py, finite_difference_grad): eps=inf passes the check
    ``isinstance(eps, float) and eps > 0`` and the result is NaN, silently.
    """
    with pytest.raises(ValueError, match="eps"):
        finite_difference_grad(lambda M: float((M**2).sum()), np.ones((1, 2)), eps=float("inf"))
