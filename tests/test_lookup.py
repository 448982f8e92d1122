"""Tests for embedlab.lookup: lookup, one_hot and one_hot_cost."""

import importlib

import numpy as np
import pytest

from embedlab import E_TOY, lookup, one_hot, one_hot_cost
from embedlab._validation import check_embedding

RNG = np.random.default_rng(0)
E_RAND = RNG.standard_normal((7, 5))


# ---------------------------------------------------------------- lookup: values
@pytest.mark.parametrize("ids", [2, [0, 3], [[0, 3, 3], [1, 2, 0]], [3, 3, 3]])
def test_lookup_equals_one_hot_product(ids):
    """Lookup is the one-hot product one_hot(ids, V) @ E (an independent oracle)."""
    np.testing.assert_allclose(lookup(E_TOY, ids), one_hot(ids, 4) @ E_TOY, rtol=0, atol=0)


def test_lookup_rows_are_exact_copies_of_E():
    """Lookup is retrieval: each returned row equals the row of E bit for bit."""
    ids = np.array([[6, 0, 6], [2, 5, 1]])
    out = lookup(E_RAND, ids)
    for i in range(ids.shape[0]):
        for j in range(ids.shape[1]):
            np.testing.assert_array_equal(out[i, j], E_RAND[ids[i, j]])


def test_lookup_worked_example():
    """lookup(E_TOY, token 'the') is the published row [-0.9, 0.1, 0.2]."""
    np.testing.assert_array_equal(lookup(E_TOY, 2), [-0.9, 0.1, 0.2])


# ---------------------------------------------------------------- lookup: shapes
@pytest.mark.parametrize(
    ("ids", "shape"),
    [
        (1, (3,)),
        (np.int64(1), (3,)),
        ([1], (1, 3)),
        ([[0, 1, 2], [3, 2, 1]], (2, 3, 3)),
        (np.zeros((2, 1, 2), int), (2, 1, 2, 3)),
    ],
)
def test_lookup_shape_is_ids_shape_plus_d(ids, shape):
    """The result has shape ids.shape + (d,)."""
    assert lookup(E_TOY, ids).shape == shape


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint8, np.uint64])
def test_lookup_accepts_any_integer_dtype(dtype):
    """Integer ids of any width or signedness work."""
    np.testing.assert_array_equal(lookup(E_TOY, np.array([3, 0], dtype=dtype)), E_TOY[[3, 0]])


# ---------------------------------------------------------------- lookup: dtype and memory
def test_lookup_keeps_float32():
    """A float32 E gives a float32 result (E is not upcast)."""
    E32 = E_RAND.astype(np.float32)
    out = lookup(E32, [1, 4])
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, E32[[1, 4]])


def test_float_E_is_not_converted_or_copied_by_the_check():
    """The boundary check hands back the caller's float array itself, not a copy."""
    E32 = E_RAND.astype(np.float32)
    assert check_embedding(E32) is E32
    assert check_embedding(E_RAND) is E_RAND


@pytest.mark.parametrize("ids", [2, np.int64(2), [2], [[1, 2]]])
def test_lookup_result_does_not_alias_E(ids):
    """Writing into the result must not change E (the result owns its memory)."""
    E = E_RAND.copy()
    out = lookup(E, ids)
    assert not np.shares_memory(out, E)
    out[...] = 99.0
    np.testing.assert_array_equal(E, E_RAND)


def test_lookup_works_on_read_only_E_TOY():
    """Lookup of a read-only table works and gives a writable result."""
    out = lookup(E_TOY, [0, 1])
    out[0, 0] = 5.0
    assert E_TOY[0, 0] == 0.2


def test_lookup_integer_E_is_converted_to_float64():
    """An integer table has no float dtype to keep, so it becomes float64."""
    out = lookup([[1, 2], [3, 4]], 1)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, [3.0, 4.0])


@pytest.mark.parametrize("order", ["F", "strided", "reversed"])
def test_lookup_of_a_non_contiguous_E_is_exact_and_does_not_alias(order):
    """Fortran, strided and negatively strided E give the same rows as a C-ordered copy."""
    E = {"F": np.asfortranarray(E_RAND), "strided": np.repeat(E_RAND, 2, axis=0)[::2], "reversed": E_RAND[::-1, ::-1]}[
        order
    ]
    out = lookup(E, [[6, 0], [3, 3]])
    np.testing.assert_array_equal(out, np.ascontiguousarray(E)[[[6, 0], [3, 3]]])
    assert not np.shares_memory(out, E)


def test_lookup_of_an_integer_E_converts_only_the_rows_read():
    """An int E is gathered first, then the few rows become float64."""
    out = lookup(np.arange(12).reshape(4, 3), [3, 0])
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, [[9, 10, 11], [0, 1, 2]])


def test_forgetting_the_pool_after_fork_starts_a_fresh_one():
    """What a forked child runs: the parent's pool (whose threads it lacks) is never used again."""
    lookup_module = importlib.import_module("embedlab.lookup")

    before = lookup_module._pool()
    lookup_module._forget_pool_after_fork()
    after = lookup_module._pool()
    assert after is not before
    assert after is lookup_module._pool()  # cached again
    before.shutdown(wait=True)


def test_a_shut_down_pool_falls_back_to_the_calling_thread(monkeypatch):
    """When the executor refuses work (as in atexit handlers), the gather still completes."""
    from concurrent.futures import ThreadPoolExecutor

    lookup_module = importlib.import_module("embedlab.lookup")

    dead = ThreadPoolExecutor(max_workers=1)
    dead.shutdown()
    monkeypatch.setattr(lookup_module, "_pool", lambda: dead)
    monkeypatch.setattr(lookup_module.os, "cpu_count", lambda: 2)
    E = np.arange(2000 * 300, dtype=np.float64).reshape(2000, 300)
    ids = np.arange(2000)[::-1]
    np.testing.assert_array_equal(lookup(E, ids), E[ids])


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        ([[0, 1], [2]], r"ids must be a rectangular array of integer token ids, got a ragged nested sequence"),
        (np.ma.masked_array([0, 1], mask=[0, 1]), r"ids must be a plain array: masked arrays are not supported"),
        ([2**70], r"ids must be in \[0, 3\] for a vocabulary of 4, got 1180591620717411303424"),
        ([-(2**70), 0], r"ids must be in \[0, 3\] \(ids are zero-indexed\), got -1180591620717411303424"),
        ("cat" * 10**5, r"got the string 'catcatcat.*\.\.\.; use"),
    ],
)
def test_lookup_refuses_hostile_ids_by_name(ids, message):
    with pytest.raises((TypeError, ValueError), match=message) as info:
        lookup(E_TOY, ids)
    assert len(str(info.value)) < 300


def test_one_hot_refuses_an_absurd_vocab_size_before_allocating():
    with pytest.raises(ValueError, match=r"vocab_size is too large: the result of shape \(9223372036854775807,\)"):
        one_hot(0, 2**63 - 1)


def test_lookup_does_not_scan_rows_it_does_not_read():
    """A NaN in a row that is never looked up does not matter to lookup (retrieval only)."""
    E = E_RAND.copy()
    E[6, 0] = np.nan
    np.testing.assert_array_equal(lookup(E, [0, 1]), E_RAND[[0, 1]])


# ---------------------------------------------------------------- lookup: bad ids
@pytest.mark.parametrize(
    ("ids", "exc", "message"),
    [
        (-1, ValueError, r"ids must be in \[0, 3\] \(ids are zero-indexed\), got -1; negative ids are refused"),
        ([0, -4], ValueError, r"got -4; negative ids are refused because NumPy would silently"),
        (4, ValueError, r"ids must be in \[0, 3\] for a vocabulary of 4, got 4"),
        ([[0, 1], [2, 10]], ValueError, r"for a vocabulary of 4, got 10"),
        (1.0, TypeError, r"ids must be integer token ids, got floating values \(dtype float64\)"),
        ([0.0, 1.0], TypeError, r"got floating values \(dtype float64\)"),
        (np.array([1], dtype=np.float32), TypeError, r"got floating values \(dtype float32\)"),
        (True, TypeError, r"ids must be integer token ids, got a bool \(True\)"),
        (np.bool_(False), TypeError, r"got a bool \(np\.False_\)|got a bool \(False\)"),
        ([True, False], TypeError, r"ids must be integer token ids, got bool$"),
        ("cat", TypeError, r"got the string 'cat'; use embedlab\.token_id\(token\)"),
        (b"cat", TypeError, r"got the string b'cat'"),
        (["cat", "dog"], TypeError, r"got non-numeric values \(dtype <U3\)"),
        (np.array([0, "1"], dtype=object), TypeError, r"got objects that are not all integers \(dtype object\)"),
        ([1 + 0j], TypeError, r"got floating values \(dtype complex128\)"),
        ([], ValueError, r"ids must hold at least one token id, got an empty array of shape \(0,\)"),
        (
            np.array([], dtype=int),
            ValueError,
            r"ids must hold at least one token id, got an empty array of shape \(0,\)",
        ),
        (np.zeros((2, 0), dtype=int), ValueError, r"empty array of shape \(2, 0\)"),
    ],
)
def test_lookup_refuses_bad_ids(ids, exc, message):
    """Every kind of invalid id is refused with a message naming the problem."""
    with pytest.raises(exc, match=message):
        lookup(E_TOY, ids)


# ---------------------------------------------------------------- lookup: bad E
@pytest.mark.parametrize(
    ("E", "exc", "message"),
    [
        (np.zeros(3), ValueError, r"E must be 2-D, got 1-D with shape \(3,\)"),
        (np.zeros((2, 3, 4)), ValueError, r"E must be 2-D, got 3-D with shape \(2, 3, 4\)"),
        (np.zeros((4, 0)), ValueError, r"E must not be empty, got shape \(4, 0\)"),
        (np.ones((4, 3), dtype=object), TypeError, r"E must be an array of real numbers, got an array of dtype object"),
        (np.ones((4, 3), dtype=bool), TypeError, r"got an array of dtype bool"),
        (np.ones((4, 3), dtype=complex), TypeError, r"got an array of dtype complex128"),
        ("E", TypeError, r"E must be an array of real numbers, got the string 'E'"),
        ([[1.0, 2.0], [3.0]], ValueError, r"E must be a rectangular array of real numbers"),
    ],
)
def test_lookup_refuses_bad_E(E, exc, message):
    """E must be a real, non-empty, rectangular 2-D array."""
    with pytest.raises(exc, match=message):
        lookup(E, 0)


# ---------------------------------------------------------------- one_hot
def test_one_hot_values_by_hand():
    """One 1 at the id, 0 elsewhere, float64."""
    out = one_hot([2, 0], 4)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, [[0, 0, 1, 0], [1, 0, 0, 0]])


@pytest.mark.parametrize(("ids", "shape"), [(1, (5,)), ([1, 2], (2, 5)), ([[0, 1, 2], [3, 4, 0]], (2, 3, 5))])
def test_one_hot_shape_and_row_sums(ids, shape):
    """Shape is ids.shape + (V,), every row sums to exactly 1, argmax gives back the ids."""
    out = one_hot(ids, 5)
    assert out.shape == shape
    np.testing.assert_array_equal(out.sum(axis=-1), np.ones(shape[:-1]))
    np.testing.assert_array_equal(out.argmax(axis=-1), np.asarray(ids))


def test_one_hot_equals_identity_rows():
    """one_hot(ids, V) is the identity matrix's rows at ids (independent construction)."""
    ids = [3, 1, 1, 0]
    np.testing.assert_array_equal(one_hot(ids, 4), np.eye(4)[ids])


@pytest.mark.parametrize(
    ("ids", "V", "exc", "message"),
    [
        ([0, 4], 4, ValueError, r"ids must be in \[0, 3\] for a vocabulary of 4, got 4"),
        (-1, 4, ValueError, r"negative ids are refused"),
        (0, 0, ValueError, r"vocab_size must be a positive integer, got 0"),
        (0, -3, ValueError, r"vocab_size must be a positive integer, got -3"),
        (0, 4.0, TypeError, r"vocab_size must be a positive integer, got float 4\.0"),
        (0, True, TypeError, r"vocab_size must be a positive integer, got bool True"),
        (0.5, 4, TypeError, r"ids must be integer token ids, got floating values"),
    ],
)
def test_one_hot_refuses_bad_input(ids, V, exc, message):
    """Bad ids and bad vocabulary sizes are refused."""
    with pytest.raises(exc, match=message):
        one_hot(ids, V)


# ---------------------------------------------------------------- one_hot_cost
def test_one_hot_cost_counts_by_hand():
    """For V=4, d=3: 12 multiplies, 9 adds, 9 by zero, 3 copies (the docstring example, recounted)."""
    assert one_hot_cost(4, 3) == {"multiplies": 12, "adds": 9, "wasted_multiplies": 9, "lookup_copies": 3}


def test_one_hot_cost_matches_an_explicit_count():
    """Count the multiplications of one_hot(ids) @ E by brute force and compare."""
    V, d, ids = 5, 2, [1, 4, 4]
    oh = one_hot(ids, V)
    mults = sum(1 for row in oh for _ in range(d) for _v in row)
    wasted = sum(1 for row in oh for _ in range(d) for v in row if v == 0.0)
    cost = one_hot_cost(V, d, n_tokens=len(ids))
    assert cost["multiplies"] == mults
    assert cost["wasted_multiplies"] == wasted
    assert cost["adds"] == len(ids) * d * (V - 1)
    assert cost["lookup_copies"] == lookup(np.ones((V, d)), ids).size


def test_one_hot_cost_gpt2_scale():
    """GPT-2 small, one token: 50257*768 multiplies, all but 768 wasted."""
    cost = one_hot_cost(50257, 768)
    assert cost["multiplies"] == 38_597_376
    assert cost["wasted_multiplies"] == 38_597_376 - 768


@pytest.mark.parametrize(
    ("args", "exc", "message"),
    [
        ((0, 3), ValueError, r"vocab_size must be a positive integer, got 0"),
        ((4, -1), ValueError, r"d_model must be a positive integer, got -1"),
        ((4, 3, 0), ValueError, r"n_tokens must be a positive integer, got 0"),
        ((4, 3.5), TypeError, r"d_model must be a positive integer, got float 3\.5"),
        ((4, 3, False), TypeError, r"n_tokens must be a positive integer, got bool False"),
    ],
)
def test_one_hot_cost_refuses_bad_sizes(args, exc, message):
    """Sizes must be positive ints (bools refused)."""
    with pytest.raises(exc, match=message):
        one_hot_cost(*args)
