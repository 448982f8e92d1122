"""Tests for embedlab.tokens: the toy vocabulary, E_TOY and token_id."""

import numpy as np
import pytest

from embedlab import E_TOY, TOKENS, token_id


def test_tokens_are_the_worked_example_vocabulary():
    """The id order is fixed by the worked examples: cat=0, dog=1, the=2, ran=3."""
    assert TOKENS == ("cat", "dog", "the", "ran")


@pytest.mark.parametrize(("token", "expected"), [("cat", 0), ("dog", 1), ("the", 2), ("ran", 3)])
def test_token_id_is_zero_indexed_position(token, expected):
    """token_id returns the zero-based position and round-trips through TOKENS."""
    assert token_id(token) == expected
    assert TOKENS[token_id(token)] == token
    assert type(token_id(token)) is int


def test_token_id_accepts_numpy_str():
    """A NumPy string scalar is a str and must work like one."""
    assert token_id(np.str_("ran")) == 3


def test_E_TOY_values_and_shape():
    """E_TOY holds the published 4x3 matrix, row i being the vector of TOKENS[i]."""
    expected = [
        [0.2, -0.5, 0.8],
        [0.3, -0.4, 0.7],
        [-0.9, 0.1, 0.2],
        [0.6, 0.3, -0.5],
    ]
    assert E_TOY.shape == (4, 3)
    assert E_TOY.dtype == np.float64
    np.testing.assert_array_equal(E_TOY, np.array(expected))


def test_E_TOY_is_read_only():
    """No notebook may change the numbers every other example relies on."""
    assert not E_TOY.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        E_TOY[0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        E_TOY[1] += 1.0
    assert E_TOY[0, 0] == 0.2


@pytest.mark.parametrize("token", ["bird", "Cat", "", " cat"])
def test_unknown_token_lists_known_tokens(token):
    """An unknown token is a ValueError whose message lists the vocabulary."""
    with pytest.raises(ValueError, match=r"token must be one of 'cat', 'dog', 'the', 'ran', got "):
        token_id(token)


@pytest.mark.parametrize(
    ("token", "message"),
    [
        (0, r"token must be a str, got int 0"),
        (b"cat", r"token must be a str, got bytes b'cat'"),
        (None, r"token must be a str, got NoneType None"),
        (["cat"], r"token must be a str, got list \['cat'\]"),
    ],
)
def test_non_str_token_is_type_error(token, message):
    """Only str tokens are accepted; ids and bytes are refused with a TypeError."""
    with pytest.raises(TypeError, match=message):
        token_id(token)
