"""Tests for embedlab.architectures: whole-model counts against published sizes, and the shares built on them."""

import dataclasses
import math

import pytest

from embedlab import REAL_MODELS, param_count
from embedlab import architectures as arch

# The oracle: total parameter counts as reported by each model's own code or weight files, NOT by our formula.
# HF = Hugging Face transformers, ``model.num_parameters()`` or the safetensors header summed tensor by tensor.
PUBLISHED = {
    "GPT-2 small": 124_439_808,  # nanoGPT's count of the HF gpt2 weights (tied); HF num_parameters()
    "GPT-2 medium": 354_823_168,  # HF gpt2-medium num_parameters(); keras_hub gpt2_medium_en "params"
    "GPT-2 large": 774_030_080,  # HF gpt2-large; keras_hub gpt2_large_en "params"
    "GPT-2 XL": 1_557_611_200,  # HF gpt2-xl; keras_hub gpt2_extra_large_en "params"
    # HF GPTJForCausalLM: 285 parameter tensors of pytorch_model.bin summed (buffers excluded), and a
    # loaded model's printed "# of params". The model card's 6,053,381,344 counts differently: see below.
    "GPT-J 6B": 6_050_882_784,
    "GPT-NeoX-20B": 20_554_567_680,  # n_parameters in the gpt-neox-20b model card / EleutherAI/gpt-neox README
    "Llama 2 7B": 6_738_415_616,  # HF num_parameters() (PEFT "all params"); GGUF general.parameter_count
    "Llama 3 8B": 8_030_261_248,  # safetensors shards summed; GGUF general.parameter_count
    "Llama 3.2 1B": 1_235_814_400,  # HF num_parameters() (tied, counted once); safetensors total
    "Mistral 7B v0.1": 7_241_732_096,  # GGUF general.parameter_count; HF safetensors total
    "Gemma 2B": 2_506_172_416,  # keras_hub gemma_2b_en "params"; HF "all params"
    "Gemma 7B": 8_537_680_896,  # keras_hub gemma_7b_en "params"
    "Qwen2.5-0.5B": 494_032_768,  # HF Qwen2ForCausalLM num_parameters(); safetensors header (290 BF16 tensors)
    "Qwen2.5-7B": 7_615_616_512,  # HF safetensors total; GGUF general.parameter_count
    "BERT-base uncased": 109_482_240,  # HF BertModel.from_pretrained("bert-base-uncased") num_parameters()
    "T5-small": 60_506_624,  # keras_hub t5_small_multi "params"; DeepSpeed zero_to_fp32 total_numel of t5-small
}

# bert-base-uncased's model.safetensors holds BertForPreTraining weights
# (huggingface.js, parse-safetensors spec: F32 110,106,428).
BERT_FOR_PRETRAINING = 110_106_428

# GPT-J's model card and the mesh-transformer-jax README give n_parameters = 6,053,381,344. That number is
# ``hk.data_structures.tree_size(params)`` of the 8-way model-parallel JAX model (transformer_shard.py), whose
# params carry a leading shard axis: anything replicated on every shard is counted 8 times.
GPTJ_MESH_TRANSFORMER_JAX = 6_053_381_344
GPTJ_SHARDS = 8  # cores_per_replica in configs/6B_roto_256.json


# ---------------------------------------------------------------- totals against the oracle
@pytest.mark.parametrize("name", list(PUBLISHED))
def test_total_params_matches_published_count(name):
    """Our formula, from the config alone, reproduces the count the model's own code reports."""
    n = arch.total_params(name)
    assert type(n) is int
    assert n == PUBLISHED[name]


def test_gptj_model_card_count_is_the_sharded_jax_count():
    """The model card's 2,498,560 extra parameters are exactly GPT-J's replicated JAX parameters counted per shard.

    In mesh_transformer/layers.py each shard holds its own copy of every LayerNorm (scale + offset) and of the
    fc_out bias (``dense_proj_o``, a full-width bias), and EmbeddingShard's ``hk.Linear(d_model)`` gives every
    shard an embedding bias that the Hugging Face port does not have as a parameter.
    """
    c = arch.get_config("GPT-J 6B")
    d = c.d_model
    replicated = c.n_layers * (2 * d + d) + 2 * d  # per-layer LayerNorm and fc_out bias, plus ln_f
    embedding_bias = GPTJ_SHARDS * d  # one d-wide bias per shard, absent from the HF model
    extra = (GPTJ_SHARDS - 1) * replicated + embedding_bias
    assert GPTJ_MESH_TRANSFORMER_JAX - arch.total_params(c) == extra == 2_498_560


def test_bert_with_pretraining_heads_matches_safetensors():
    """BertModel plus the MLM transform, its LayerNorm, the output bias and the NSP head = the checkpoint."""
    name = "BERT-base uncased"
    assert arch.total_params(name) + arch.pretraining_head_params(name) == BERT_FOR_PRETRAINING


def test_pretraining_head_params_refuses_non_bert():
    with pytest.raises(ValueError, match=r"defined for BERT only, got 'GPT-2 small'"):
        arch.pretraining_head_params("GPT-2 small")


def test_gpt2_small_by_hand():
    """12 blocks of 12d^2 + 13d, plus wte, wpe and ln_f: the textbook breakdown."""
    d, L, V = 768, 12, 50257
    assert arch.total_params("GPT-2 small") == L * (12 * d * d + 13 * d) + V * d + 1024 * d + 2 * d


def test_untying_adds_exactly_the_head():
    """A tied model made untied grows by V*d (plus V with a head bias); nothing else changes."""
    c = arch.get_config("Llama 3.2 1B")
    untied = dataclasses.replace(c, tied=False)
    assert arch.total_params(untied) - arch.total_params(c) == c.vocab_size * c.d_model
    biased = dataclasses.replace(untied, head_bias=True)
    assert arch.total_params(biased) - arch.total_params(untied) == c.vocab_size


def test_configs_agree_with_budget_real_models():
    """Same models, same order, same V, d and tying as embedlab.budget.REAL_MODELS."""
    assert list(arch.CONFIGS) == [m["name"] for m in REAL_MODELS]
    for m in REAL_MODELS:
        c = arch.CONFIGS[m["name"]]
        assert (c.vocab_size, c.d_model, c.tied) == (m["vocab_size"], m["d_model"], m["tied"]), m["name"]


def test_configs_are_frozen_and_sourced():
    c = arch.get_config("Mistral 7B v0.1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.d_model = 1  # type: ignore[misc]
    for c in arch.CONFIGS.values():
        assert "config.json" in c.source, c.name


# ---------------------------------------------------------------- embedding_share
@pytest.mark.parametrize("name", list(PUBLISHED))
def test_embedding_share(name):
    s = arch.embedding_share(name)
    V, d, tied = s["vocab_size"], s["d_model"], s["tied"]
    assert s["embedding"] == V * d == param_count(V, d, tied=True)
    if name.startswith("BERT"):  # counted as the published checkpoint, its tied MLM head owning V biases
        assert s["total"] == BERT_FOR_PRETRAINING and s["head"] == V
    else:
        assert s["total"] == PUBLISHED[name]
    if tied:
        assert s["head"] == (V if name.startswith("BERT") else 0)
    else:
        assert s["head"] in (V * d, V * d + V)
    for key in ("embedding_share", "embedding_and_head_share"):
        assert type(s[key]) is float
        assert 0.0 < s[key] < 1.0
    assert s["embedding_share"] == s["embedding"] / s["total"]
    assert s["embedding_and_head_share"] == (s["embedding"] + s["head"]) / s["total"]


def test_embedding_share_heads():
    """GPT-J's lm_head has a bias, NeoX's embed_out does not; tied heads own nothing."""
    assert arch.embedding_share("GPT-J 6B")["head"] == 50400 * 4096 + 50400
    assert arch.embedding_share("GPT-NeoX-20B")["head"] == 50432 * 6144
    assert arch.embedding_share("Llama 3 8B")["head"] == 128256 * 4096
    assert arch.embedding_share("Gemma 2B")["head"] == 0


def test_embedding_share_gpt2_small_known_value():
    """38,597,376 of 124,439,808: the embedding is 31% of GPT-2 small."""
    assert math.isclose(arch.embedding_share("GPT-2 small")["embedding_share"], 38_597_376 / 124_439_808)


# ---------------------------------------------------------------- share_table
def test_share_table_rows():
    rows = arch.share_table()
    assert [r.name for r in rows] == [m["name"] for m in REAL_MODELS]
    for r in rows:
        s = arch.embedding_share(r.name)
        assert tuple(r) == (
            r.name,
            s["vocab_size"],
            s["d_model"],
            s["tied"],
            s["total"],
            s["embedding_share"],
            s["embedding_and_head_share"],
        )
        assert type(r.total) is int
        assert type(r.embedding_share) is float
        assert r.embedding_share <= r.embedding_and_head_share


# ---------------------------------------------------------------- validation
@pytest.mark.parametrize("func", [arch.total_params, arch.embedding_share, arch.get_config])
def test_unknown_name_lists_the_known_ones(func):
    with pytest.raises(
        ValueError,
        match=r"name_or_config must be a known model, got 'GPT-3'; known models are: 'GPT-2 small', .*'T5-small'",
    ):
        func("GPT-3")


@pytest.mark.parametrize("func", [arch.total_params, arch.embedding_share, arch.get_config])
@pytest.mark.parametrize(
    ("bad", "described"), [(None, "NoneType None"), (7, "int 7"), ({"name": "GPT-2 small"}, "dict")]
)
def test_wrong_type_is_a_type_error(func, bad, described):
    with pytest.raises(
        TypeError, match=rf"model name \(str\) or a DecoderConfig, BertConfig or T5Config, got {described}"
    ):
        func(bad)


@pytest.mark.parametrize(
    ("change", "exc", "message"),
    [
        ({"d_model": 0}, ValueError, r"d_model must be a positive integer, got 0"),
        ({"n_layers": 12.0}, TypeError, r"n_layers must be a positive integer, got float 12\.0"),
        ({"tied": "yes"}, TypeError, r"tied must be True or False, got str 'yes'"),
        ({"norm": "batchnorm"}, ValueError, r"norm must be one of \('layernorm', 'rmsnorm'\), got 'batchnorm'"),
        ({"n_positions": -1}, ValueError, r"n_positions must be a non-negative integer \(0 for rotary\), got -1"),
        ({"qkv_bias": 1}, TypeError, r"qkv_bias must be True or False, got int 1"),
    ],
)
def test_config_validation(change, exc, message):
    with pytest.raises(exc, match=message):
        dataclasses.replace(arch.get_config("GPT-2 small"), **change)


@pytest.mark.parametrize("name", ["BERT-base uncased", "GPT-J 6B", "GPT-2 small"])
def test_the_other_choice_adds_or_drops_exactly_one_matrix_and_keeps_any_bias(name):
    """What budget_explorer draws as 'if tied' / 'if untied': one V x d matrix more or less, the bias kept."""
    c = arch.get_config(name)
    flipped = dataclasses.replace(c, tied=not c.tied)
    s, f = arch.embedding_share(c), arch.embedding_share(flipped)
    step = c.vocab_size * c.d_model * (1 if c.tied else -1)
    assert f["total"] - s["total"] == step and f["head"] - s["head"] == step


# ---------------------------------------------------------------- counts: which count leaves out what
# Published figures for GPT-2 small, each from a source outside embedlab (book/sources.md):
GPT2_PAPER = 117_000_000  # Radford et al. (2019), Table 2: the smallest model, "117M"
NANOGPT_PRINTED = "123.65M"  # nanoGPT's "number of parameters" for GPT-2 small (get_num_params, positions left out)
GPT2_POSITIONS = 1024 * 768  # n_positions x n_embd in GPT-2's configuration


def test_counts_gpt2_small_against_published_figures():
    c = arch.counts("GPT-2 small")
    assert c.total == PUBLISHED["GPT-2 small"]
    assert c.position_embedding == GPT2_POSITIONS == 786_432
    assert f"{c.without_positions / 1e6:.2f}M" == NANOGPT_PRINTED
    assert c.total - c.without_positions == GPT2_POSITIONS
    # Kaplan et al. (2020): N ~ 12 n_layer d_model**2, leaving out biases and norms, which are small
    kaplan = 12 * 12 * 768**2
    assert abs(c.non_embedding - kaplan) / kaplan < 0.002 and round(c.non_embedding / 1e6) == 85
    # no count of the released model is the paper's 117M: each lies millions away
    assert all(abs(x - GPT2_PAPER) > 6_000_000 for x in (c.total, c.without_positions, c.non_embedding))


@pytest.mark.parametrize("name", list(PUBLISHED))
def test_counts_parts_add_up(name):
    c = arch.counts(name)
    s = arch.embedding_share(name)
    assert c.total == s["total"] and c.token_embedding == s["embedding"] and c.head == s["head"]
    assert c.non_embedding + c.token_embedding + c.head + c.position_embedding == c.total
    cfg = arch.get_config(name)
    assert c.position_embedding == getattr(cfg, "n_positions", 0) * cfg.d_model
    assert c.head == (0 if cfg.tied else cfg.vocab_size * cfg.d_model) + (
        cfg.vocab_size if getattr(cfg, "head_bias", False) or isinstance(cfg, arch.BertConfig) else 0
    )


@pytest.mark.parametrize("name", ["GPT-2 small", "GPT-2 medium", "GPT-2 large", "GPT-2 XL"])
def test_counts_non_embedding_near_kaplans_approximation(name):
    cfg = arch.get_config(name)
    kaplan = 12 * cfg.n_layers * cfg.d_model**2
    assert 1.0 < arch.counts(name).non_embedding / kaplan < 1.003  # biases and norms add a little


# ---------------------------------------------------------------- flops_per_token
@pytest.mark.parametrize("name", ["GPT-2 small", "GPT-2 medium", "GPT-2 large", "GPT-2 XL"])
def test_flops_three_times_is_nanogpts_training_estimate(name):
    """nanoGPT's estimate_mfu: 6N + 12 L H Q T per token, N = get_num_params() (positions left out)."""
    cfg = arch.get_config(name)
    n = arch.counts(name).without_positions
    T = 1024
    nanogpt = 6 * n + 12 * cfg.n_layers * cfg.n_heads * cfg.head_dim * T
    assert 3 * arch.flops_per_token(name, n_ctx=T).total == nanogpt


@pytest.mark.parametrize("name", [n for n in PUBLISHED if isinstance(arch.get_config(n), arch.DecoderConfig)])
def test_flops_head_is_kaplans_de_embed_row(name):
    """Kaplan et al. (2020), Table 1: the de-embedding costs 2 d_model n_vocab forward FLOPs per token."""
    cfg = arch.get_config(name)
    f = arch.flops_per_token(name, n_ctx=2048)
    assert f.head == 2 * cfg.d_model * cfg.vocab_size
    assert f.body == 2 * arch.counts(name).non_embedding
    assert f.total == f.head + f.body + f.attention and f.head_share == f.head / f.total
    longer = arch.flops_per_token(name, n_ctx=4096)
    assert longer.head == f.head and longer.attention == 2 * f.attention  # attention grows with the context


def test_flops_head_share_falls_with_width_in_gpt2():
    shares = [arch.flops_per_token(n, n_ctx=1024).head_share for n in ("GPT-2 small", "GPT-2 XL")]
    assert shares[0] > 0.25 > 0.05 > shares[1]


@pytest.mark.parametrize(
    ("args", "kwargs", "exc", "message"),
    [
        (("T5-small",), {"n_ctx": 512}, ValueError, r"name_or_config must be a decoder-only model.*'T5-small'"),
        (("BERT-base uncased",), {"n_ctx": 512}, ValueError, r"name_or_config must be a decoder-only"),
        (("GPT-2 small",), {"n_ctx": 0}, ValueError, r"n_ctx must be a positive integer, got 0"),
        (("GPT-2 small",), {"n_ctx": 1024.0}, TypeError, r"n_ctx must be a positive integer, got float"),
        (("GPT-5",), {"n_ctx": 1024}, ValueError, r"name_or_config must be a known model"),
    ],
)
def test_flops_bad_input(args, kwargs, exc, message):
    with pytest.raises(exc, match=message):
        arch.flops_per_token(*args, **kwargs)
