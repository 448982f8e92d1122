"""Tests for embedlab.ties: a tie is shared memory, and counting a tied model once or under each name."""

import numpy as np
import pytest

from embedlab.ties import MAX_NAMES, count_params, tie_groups


def _model(V=50, d=8, tied=True):
    rng = np.random.default_rng(0)
    E = rng.normal(size=(V, d))
    blocks = {f"h.{i}.w": rng.normal(size=(d, d)) for i in range(3)}
    head = E if tied else E.copy()
    return {"wte": E, **blocks, "lm_head": head}


def test_a_tie_is_one_array_under_two_names():
    named = _model()
    assert tie_groups(named) == [("wte", "lm_head")]
    assert count_params(named) == 50 * 8 + 3 * 64  # a parameter list: the matrix once
    assert count_params(named, once=False) == 2 * 50 * 8 + 3 * 64  # every name: the matrix twice


def test_equal_values_are_not_a_tie():
    named = _model(tied=False)
    assert np.array_equal(named["wte"], named["lm_head"])  # the copy starts equal...
    assert tie_groups(named) == []  # ...but it is a second array
    assert count_params(named) == count_params(named, once=False) == 2 * 50 * 8 + 3 * 64
    named["lm_head"] -= 0.1  # one training step on the head moves it alone
    assert not np.array_equal(named["wte"], named["lm_head"])


def test_a_transposed_view_is_the_same_matrix():
    E = np.arange(12.0).reshape(4, 3)
    assert tie_groups({"wte": E, "lm_head.T": E.T}) == [("wte", "lm_head.T")]
    assert count_params({"wte": E, "lm_head.T": E.T}) == 12


def test_resizing_the_vocabulary_breaks_the_tie_silently():
    named = _model()
    named["wte"] = np.vstack([named["wte"], np.zeros((3, 8))])  # three new tokens: a new, larger array
    assert named["wte"].shape == (53, 8) and named["lm_head"].shape == (50, 8)
    assert tie_groups(named) == []  # nothing failed, and the head no longer is the embedding


def test_three_names_and_two_ties_in_mapping_order():
    E, F = np.zeros((4, 2)), np.ones((5, 2))
    named = {"f_in": F, "e_in": E, "f_out": F, "w": np.zeros(3), "e_out": E, "e_again": E}
    assert tie_groups(named) == [("f_in", "f_out"), ("e_in", "e_out", "e_again")]
    assert count_params(named) == 10 + 8 + 3


def test_disjoint_slices_of_one_buffer_are_not_tied():
    buf = np.zeros((4, 6))
    assert tie_groups({"a": buf[:, ::2], "b": buf[:, 1::2]}) == []
    assert tie_groups({"a": buf[:2], "b": buf[2:]}) == []


def test_inputs_are_not_copied_or_changed():
    named = _model()
    before = {k: (v.copy(), v.__array_interface__["data"][0]) for k, v in named.items()}
    tie_groups(named)
    count_params(named)
    for k, (values, address) in before.items():
        assert np.array_equal(named[k], values) and named[k].__array_interface__["data"][0] == address


def test_empty_arrays_and_empty_mapping():
    assert tie_groups({}) == [] and count_params({}) == 0
    assert tie_groups({"a": np.zeros((0, 3)), "b": np.zeros((0, 3))}) == []


@pytest.mark.parametrize(
    ("named", "exc", "message"),
    [
        ([np.zeros(3)], TypeError, r"named must be a mapping of names to NumPy arrays \(a dict\), got list"),
        ({1: np.zeros(3)}, TypeError, r"named must have str keys \(parameter names\), got the key 1"),
        ({"wte": [[1.0]]}, TypeError, r"named\['wte'\] must be a NumPy array, got list"),
        ({"wte": None}, TypeError, r"named\['wte'\] must be a NumPy array, got NoneType"),
    ],
)
def test_bad_input(named, exc, message):
    for f in (tie_groups, count_params):
        with pytest.raises(exc, match=message):
            f(named)


def test_part_shared_memory_is_refused_not_counted():
    E = np.zeros((5, 3))
    with pytest.raises(ValueError, match=r"share memory but are not one array"):
        tie_groups({"wte": E, "first_rows": E[:2]})
    with pytest.raises(ValueError, match=r"share memory but are not one array"):
        count_params({"wte": E, "first_rows": E[:2]})
    with pytest.raises(TypeError, match=r"once must be True or False, got str 'no'"):
        count_params({"wte": E}, once="no")


def test_too_many_names_is_refused_before_comparing():
    class Huge(dict):
        def __len__(self):
            return MAX_NAMES + 1

    with pytest.raises(ValueError, match=r"named must hold at most 100,000 names, got 100,001"):
        tie_groups(Huge())


def test_many_names_sweep_is_exact():
    rng = np.random.default_rng(1)
    base = [rng.normal(size=(3, 2)) for _ in range(200)]
    named = {}
    for i in rng.permutation(600):
        named[f"p{i}"] = base[i % 200]
    groups = tie_groups(named)
    assert len(groups) == 200 and all(len(g) == 3 for g in groups)
    assert count_params(named) == 200 * 6 and count_params(named, once=False) == 600 * 6
