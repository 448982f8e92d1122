"""Tests for embedlab.budget: param_count, saved_fraction, param_bytes and REAL_MODELS."""

import numpy as np
import pytest

from embedlab import REAL_MODELS, param_bytes, param_count, saved_fraction

GPT2_V, GPT2_D = 50257, 768
GPT2_TIED_TOTAL = 124_439_808  # the published GPT-2 small parameter count (tied)
GPT2_UNTIED_TOTAL = 163_037_184  # the same model with a separate output matrix


# ---------------------------------------------------------------- param_count
def test_param_count_small_by_hand():
    """V=4, d=3: untied 2*12, tied 12, bias adds 4 either way."""
    assert param_count(4, 3, tied=False) == 24
    assert param_count(4, 3, tied=True) == 12
    assert param_count(4, 3, tied=False, output_bias=True) == 28
    assert param_count(4, 3, tied=True, output_bias=True) == 16


def test_param_count_gpt2_draft_numbers():
    """The draft's 77,194,752 (untied) and 38,647,633 (tied + bias) for GPT-2 small."""
    assert param_count(GPT2_V, GPT2_D, tied=False) == 77_194_752
    assert param_count(GPT2_V, GPT2_D, tied=True, output_bias=True) == 38_647_633
    assert param_count(GPT2_V, GPT2_D, tied=True) == 38_597_376


def test_param_count_gpt2_whole_model():
    """Untying GPT-2 small's head turns 124,439,808 into 163,037,184: a difference of 50257*768."""
    untied_minus_tied = param_count(GPT2_V, GPT2_D, tied=False) - param_count(GPT2_V, GPT2_D, tied=True)
    assert untied_minus_tied == 50257 * 768 == 38_597_376
    assert GPT2_TIED_TOTAL + untied_minus_tied == GPT2_UNTIED_TOTAL
    body = GPT2_TIED_TOTAL - param_count(GPT2_V, GPT2_D, tied=True)
    assert body + param_count(GPT2_V, GPT2_D, tied=False) == GPT2_UNTIED_TOTAL


def test_param_count_returns_python_int_for_numpy_sizes():
    """NumPy integer sizes are accepted and the result is an exact Python int (no int32 overflow)."""
    n = param_count(np.int32(256000), np.int32(16384), tied=False)
    assert type(n) is int
    assert n == 2 * 256000 * 16384  # > 2**31


def test_param_count_accepts_numpy_bool_flag():
    """np.bool_ is a real boolean and is accepted."""
    assert param_count(4, 3, tied=np.bool_(True)) == 12


@pytest.mark.parametrize(
    ("args", "kwargs", "exc", "message"),
    [
        ((0, 768), {"tied": True}, ValueError, r"vocab_size must be a positive integer, got 0"),
        ((50257, -1), {"tied": True}, ValueError, r"d_model must be a positive integer, got -1"),
        ((50257.0, 768), {"tied": True}, TypeError, r"vocab_size must be a positive integer, got float 50257\.0"),
        ((50257, 768.5), {"tied": True}, TypeError, r"d_model must be a positive integer, got float 768\.5"),
        ((True, 768), {"tied": True}, TypeError, r"vocab_size must be a positive integer, got bool True"),
        (("50257", 768), {"tied": True}, TypeError, r"vocab_size must be a positive integer, got str '50257'"),
        ((50257, 768), {"tied": "no"}, TypeError, r"tied must be True or False, got str 'no'"),
        ((50257, 768), {"tied": 1}, TypeError, r"tied must be True or False, got int 1"),
        ((50257, 768), {"tied": None}, TypeError, r"tied must be True or False, got NoneType None"),
        ((50257, 768), {"tied": True, "output_bias": 0}, TypeError, r"output_bias must be True or False, got int 0"),
    ],
)
def test_param_count_bad_input(args, kwargs, exc, message):
    """Sizes must be positive ints (not bools), flags must be real bools."""
    with pytest.raises(exc, match=message):
        param_count(*args, **kwargs)


def test_param_count_tied_is_keyword_only_and_required():
    """tied has no default: the caller must say which (TypeError from Python itself)."""
    with pytest.raises(TypeError, match="tied"):
        param_count(4, 3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="positional"):
        param_count(4, 3, True)  # type: ignore[misc]


# ---------------------------------------------------------------- saved_fraction
@pytest.mark.parametrize(("V", "d"), [(4, 3), (GPT2_V, GPT2_D), (32000, 4096)])
def test_saved_fraction_is_half_without_bias(V, d):
    """Tying removes exactly half of 2Vd."""
    assert saved_fraction(V, d) == 0.5


@pytest.mark.parametrize("d", [1, 3, 768])
def test_saved_fraction_draft_comparison(d):
    """Untied without bias vs tied with bias saves (d - 1) / (2d)."""
    assert saved_fraction(GPT2_V, d, tied_bias=True) == pytest.approx((d - 1) / (2 * d), rel=1e-14, abs=1e-15)


def test_saved_fraction_bias_both_sides():
    """A bias on both sides: (2Vd + V - Vd - V) / (2Vd + V) = d / (2d + 1)."""
    assert saved_fraction(10, 5, untied_bias=True, tied_bias=True) == pytest.approx(5 / 11, rel=1e-15)


def test_saved_fraction_bad_input():
    """Validation is inherited from param_count."""
    with pytest.raises(ValueError, match=r"d_model must be a positive integer, got 0"):
        saved_fraction(10, 0)
    with pytest.raises(TypeError, match=r"tied_bias must be True or False, got str 'yes'"):  # the name the caller used
        saved_fraction(10, 5, tied_bias="yes")


# ---------------------------------------------------------------- param_bytes
@pytest.mark.parametrize(
    ("dtype", "size"),
    [("float32", 4), (np.float32, 4), ("float16", 2), ("bfloat16", 2), (np.float64, 8), ("int8", 1)],
)
def test_param_bytes_is_itemsize_times_count(dtype, size):
    """Bytes = bytes per parameter * parameter count."""
    assert param_bytes(GPT2_V, GPT2_D, tied=True, dtype=dtype) == size * 38_597_376


def test_param_bytes_default_is_float32_and_passes_flags():
    """The default dtype is float32, and tied/output_bias reach param_count."""
    assert param_bytes(4, 3, tied=False) == 4 * 24
    assert param_bytes(4, 3, tied=True, output_bias=True) == 4 * 16


def test_param_bytes_bad_dtype():
    """An unknown dtype is a TypeError naming 'bfloat16' as the one extra choice."""
    with pytest.raises(TypeError, match=r"dtype must be a NumPy dtype or 'bfloat16', got 'float33'"):
        param_bytes(4, 3, tied=True, dtype="float33")


def test_param_bytes_bad_flag():
    """Flags are validated for param_bytes too."""
    with pytest.raises(TypeError, match=r"tied must be True or False"):
        param_bytes(4, 3, tied="True")


# ---------------------------------------------------------------- REAL_MODELS
def test_real_models_entries_are_well_formed():
    """Each entry has a name, positive int sizes and a real bool, and works with param_count."""
    names = [m["name"] for m in REAL_MODELS]
    assert len(names) == len(set(names))
    for m in REAL_MODELS:
        assert set(m) == {"name", "vocab_size", "d_model", "tied", "output_bias"}
        assert type(m["output_bias"]) is bool
        assert type(m["vocab_size"]) is int and m["vocab_size"] > 0
        assert type(m["d_model"]) is int and m["d_model"] > 0
        assert type(m["tied"]) is bool
        n = param_count(m["vocab_size"], m["d_model"], tied=m["tied"])
        assert n == (1 if m["tied"] else 2) * m["vocab_size"] * m["d_model"]


@pytest.mark.parametrize(
    ("name", "V", "d", "tied"),
    [
        ("GPT-2 small", 50257, 768, True),
        ("GPT-2 XL", 50257, 1600, True),
        ("Llama 2 7B", 32000, 4096, False),
        ("Llama 3 8B", 128256, 4096, False),
        ("Llama 3.2 1B", 128256, 2048, True),
        ("BERT-base uncased", 30522, 768, True),
    ],
)
def test_real_models_known_configs(name, V, d, tied):
    """Spot-check entries against the public configs."""
    m = next(m for m in REAL_MODELS if m["name"] == name)
    assert (m["vocab_size"], m["d_model"], m["tied"]) == (V, d, tied)


def test_real_models_output_biases():
    """Heads with their own bias: GPT-J's untied lm_head (a Linear with bias) and BERT's tied MLM decoder."""
    with_bias = {m["name"] for m in REAL_MODELS if m["output_bias"]}
    assert with_bias == {"GPT-J 6B", "BERT-base uncased"}


# ---------------------------------------------------------------- memory in training, and padding
def test_regimes_bytes_per_parameter_against_published_figures():
    from embedlab.budget import REGIMES

    per = {k: sum(n for _, n in parts) for k, parts in REGIMES.items()}
    # Rajbhandari et al. (2020), ZeRO, section 3.1: mixed-precision Adam holds 2 + 2 + 12 = 16 bytes per
    # parameter, so "a 1.5B parameter GPT-2 model" needs 24 GB of model states
    assert per["mixed-precision Adam"] * 1.5e9 == 24e9
    assert per["float32 Adam"] == 4 * per["float32 at rest"]  # weight, gradient and Adam's two moments
    assert per["bfloat16 at rest"] * 2 == per["float32 at rest"]


def test_memory_bytes_tying_saves_every_copy_in_training():
    from embedlab.budget import memory_bytes

    V, d = GPT2_V, GPT2_D
    for regime, per in (("float32 at rest", 4), ("float32 Adam", 16), ("mixed-precision Adam", 16)):
        saved = memory_bytes(V, d, tied=False, regime=regime) - memory_bytes(V, d, tied=True, regime=regime)
        assert saved == per * V * d
    at_rest = memory_bytes(V, d, tied=False) - memory_bytes(V, d, tied=True)
    in_training = memory_bytes(V, d, tied=False, regime="float32 Adam") - memory_bytes(
        V, d, tied=True, regime="float32 Adam"
    )
    assert in_training == 4 * at_rest
    assert memory_bytes(4, 3, tied=True, output_bias=True, regime="float32 Adam") == 16 * (12 + 4)


@pytest.mark.parametrize(
    ("kwargs", "exc", "message"),
    [
        ({"regime": "adam"}, ValueError, r"regime must be one of \['float32 at rest'"),
        ({"regime": None}, TypeError, r"regime must be a str"),
        ({"tied": "yes"}, TypeError, r"tied must be True or False"),
    ],
)
def test_memory_bytes_bad_input(kwargs, exc, message):
    from embedlab.budget import memory_bytes

    with pytest.raises(exc, match=message):
        memory_bytes(50257, 768, **{"tied": True, **kwargs})


def test_padded_vocab_against_nanogpt_and_megatron():
    from embedlab.budget import padded_vocab

    assert padded_vocab(50257) == 50304  # nanoGPT's GPTConfig vocab_size, "padded up to nearest multiple of 64"
    assert padded_vocab(50257, 128) == 50304  # Megatron-LM pads to make_vocab_size_divisible_by=128: the same
    assert padded_vocab(50304) == 50304 and padded_vocab(1) == 64 and padded_vocab(65, 1) == 65
    assert (padded_vocab(50257) - 50257) * 768 == 36_096  # the parameters the padding adds to GPT-2 small
    with pytest.raises(ValueError, match="multiple must be a positive integer, got 0"):
        padded_vocab(50257, 0)
    with pytest.raises(TypeError, match="vocab_size must be a positive integer, got float"):
        padded_vocab(50257.0)
