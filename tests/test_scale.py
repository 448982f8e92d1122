"""Tests for embedlab.scale: the factors tied models put on the embedding, and logits at width d."""

import math

import numpy as np
import pytest

from embedlab import architectures
from embedlab.scale import CONVENTIONS, MAX_VOCAB, MAX_WIDTH, convention_factor, random_logits


def test_factors_against_published_figures():
    # Hugging Face's and Google's Gemma code: "sqrt(3072)=55.4256" (their comment on the rounding in 16 bits)
    assert f"{convention_factor('Gemma 7B'):.4f}" == "55.4256"
    # Vaswani et al. (2017): base model d_model = 512, embeddings multiplied by sqrt(d_model)
    assert convention_factor("Transformer (base)") == math.sqrt(512)
    # T5 (Hugging Face modeling_t5): sequence_output * model_dim**-0.5 before the tied head
    assert convention_factor("T5-small") == 512**-0.5


def test_conventions_match_the_model_configurations():
    for c in CONVENTIONS:
        if c["name"] in architectures.CONFIGS:
            cfg = architectures.get_config(c["name"])
            assert cfg.d_model == c["d_model"] and cfg.tied, c["name"]
    roles = {c["name"]: (c["role"], c["power"]) for c in CONVENTIONS}
    assert roles["T5-small"] == ("output", -0.5) and roles["Gemma 2B"] == ("input", 0.5)


def test_random_logits_is_h_times_E_transposed_from_the_seeded_draw():
    rng = np.random.default_rng(5)
    E, h = rng.standard_normal((40, 16)), rng.standard_normal(16)
    np.testing.assert_allclose(random_logits(16, factor=0.25, vocab_size=40, seed=5), (0.25 * h) @ E.T, rtol=1e-12)
    assert np.array_equal(random_logits(16, seed=2), random_logits(16, seed=2))


@pytest.mark.parametrize("d", [64, 512, 4096])
def test_spread_grows_like_sqrt_d_and_the_factor_removes_it(d):
    plain = random_logits(d, vocab_size=4000)
    scaled = random_logits(d, factor=d**-0.5, vocab_size=4000)
    rng = np.random.default_rng(0)  # the same draw: E first, then h
    rng.standard_normal((4000, d))
    norm_h = np.linalg.norm(rng.standard_normal(d))
    assert 0.85 < norm_h / math.sqrt(d) < 1.15  # |h| is about sqrt(d): the size of every logit's spread
    assert 0.95 < plain.std() / norm_h < 1.05  # given h, each logit h . e_j has standard deviation |h|
    assert 0.95 < scaled.std() / (norm_h / math.sqrt(d)) < 1.05
    np.testing.assert_allclose(scaled, plain * d**-0.5, rtol=1e-12, atol=1e-12 * np.abs(plain).max())  # same draw


@pytest.mark.parametrize(
    ("args", "kwargs", "exc", "message"),
    [
        ((0,), {}, ValueError, r"d_model must be a positive integer, got 0"),
        ((MAX_WIDTH + 1,), {}, ValueError, r"d_model must be at most 65,536, got 65,537"),
        ((8,), {"vocab_size": MAX_VOCAB + 1}, ValueError, r"vocab_size must be at most 100,000"),
        ((8,), {"factor": 0.0}, ValueError, r"factor must be a number > 0, got 0\.0"),
        ((8,), {"factor": -1}, ValueError, r"factor must be a number > 0, got -1"),
        ((8,), {"factor": math.nan}, ValueError, r"factor must be finite, got nan"),
        ((8,), {"factor": 1e308}, ValueError, r"factor must keep the logits finite"),
        ((8,), {"factor": "1"}, TypeError, r"factor must be a real number, got str"),
        ((8,), {"seed": -1}, ValueError, r"seed must be a non-negative int"),
        ((8,), {"seed": 1.0}, TypeError, r"seed must be a non-negative int, got float"),
        ((8.0,), {}, TypeError, r"d_model must be a positive integer, got float"),
    ],
)
def test_random_logits_bad_input(args, kwargs, exc, message):
    with pytest.raises(exc, match=message):
        random_logits(*args, **kwargs)


def test_convention_factor_bad_input():
    with pytest.raises(ValueError, match=r"name must be one of \['Transformer \(base\)'"):
        convention_factor("GPT-2 small")
    with pytest.raises(TypeError, match=r"name must be a str"):
        convention_factor(None)
