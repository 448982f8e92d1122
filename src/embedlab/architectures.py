"""Whole-model parameter counts of the real models in :data:`embedlab.budget.REAL_MODELS` (worked example G).

:mod:`embedlab.budget` counts only the embedding and the output head. To say what *share* of a real model
they are, we need the rest of the model too: every layer's attention, feed-forward and norms. Each model's
architecture is written down as a frozen dataclass, copied from its official ``config.json`` and model code,
and :func:`total_params` turns it into a count with an explicit formula, one function per family:

* decoder-only transformers (GPT-2, GPT-J, GPT-NeoX, Llama, Mistral, Gemma, Qwen2): :class:`DecoderConfig`;
* BERT, an encoder with token-type embeddings and a pooler: :class:`BertConfig`;
* T5, an encoder-decoder with relative attention biases: :class:`T5Config`.

The counts are what the models' Hugging Face classes hold (``model.num_parameters()``), a tied matrix
counted once. Positional encodings that are computed, not learned (rotary, sinusoidal), have no parameters.
Buffers such as GPT-2's causal mask are not parameters either.

Import on demand: ``from embedlab import architectures``.
"""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ._validation import _describe, _is_one_of, check_flag, check_size, exact_int, is_a, plain_str, short_repr

__all__ = [
    "CONFIGS",
    "BertConfig",
    "Counts",
    "DecoderConfig",
    "Flops",
    "ShareRow",
    "T5Config",
    "counts",
    "embedding_share",
    "flops_per_token",
    "get_config",
    "pretraining_head_params",
    "share_table",
    "total_params",
]

_NORMS = ("layernorm", "rmsnorm")


def _norm_params(kind: str, d: int) -> int:
    """LayerNorm has a weight and a bias; RMSNorm (and T5's LayerNorm, which is an RMSNorm) only a weight."""
    return 2 * d if kind == "layernorm" else d


@dataclass(frozen=True)
class DecoderConfig:
    """A decoder-only transformer: embedding, ``n_layers`` blocks, final norm, output head.

    Parameters
    ----------
    name : str
        The name used in :data:`embedlab.budget.REAL_MODELS`.
    vocab_size, d_model : int
        V and d: the token embedding is ``V x d``.
    n_layers : int
        Number of transformer blocks.
    d_ff : int
        Width of the feed-forward hidden layer.
    n_heads, n_kv_heads, head_dim : int
        Query heads, key/value heads (fewer than ``n_heads`` for grouped-query attention) and the width
        of each head. ``n_heads * head_dim`` need not equal ``d_model`` (Gemma 7B: 16 x 256 = 4096 != 3072).
    tied : bool
        Whether the output head is the embedding matrix itself (no parameters of its own).
    norm : {"layernorm", "rmsnorm"}
        LayerNorm has weight and bias (2d), RMSNorm weight only (d).
    norms_per_layer : int
        2 for a pre-norm block with one norm before attention and one before the MLP; 1 for GPT-J,
        whose attention and MLP run in parallel on the output of a single norm.
    gated_mlp : bool
        SwiGLU/GeGLU: three ``d x d_ff`` matrices (gate, up, down) instead of two.
    qkv_bias, out_bias, mlp_bias, head_bias : bool
        Which linear layers carry a bias: the query/key/value projections, the attention output
        projection, both MLP projections, the output head.
    n_positions : int
        Rows of a learned absolute position embedding (GPT-2); 0 when positions are rotary.
    source : str
        Where the configuration comes from.
    """

    name: str
    vocab_size: int
    d_model: int
    n_layers: int
    d_ff: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    tied: bool
    norm: str
    norms_per_layer: int = 2
    gated_mlp: bool = False
    qkv_bias: bool = False
    out_bias: bool = False
    mlp_bias: bool = False
    head_bias: bool = False
    n_positions: int = 0
    source: str = ""

    def __post_init__(self) -> None:
        _check_common(self)
        for field in ("d_ff", "n_kv_heads", "head_dim", "norms_per_layer"):
            check_size(getattr(self, field), field)
        for field in ("gated_mlp", "qkv_bias", "out_bias", "mlp_bias", "head_bias"):
            check_flag(getattr(self, field), field)
        if issubclass(type(self.n_positions), bool) or not is_a(self.n_positions, numbers.Integral):
            raise TypeError(f"n_positions must be a non-negative integer, got {_describe(self.n_positions)}")
        object.__setattr__(self, "n_positions", exact_int(self.n_positions, "n_positions"))  # the plain int it holds
        if self.n_positions < 0:
            raise ValueError(
                f"n_positions must be a non-negative integer (0 for rotary), got {short_repr(self.n_positions)}"
            )
        if self.n_heads % self.n_kv_heads:
            raise ValueError(
                f"n_kv_heads must divide n_heads (each key/value head serves a group of query heads), got "
                f"n_heads={short_repr(self.n_heads)} and n_kv_heads={short_repr(self.n_kv_heads)}"
            )


@dataclass(frozen=True)
class BertConfig:
    """BERT: an encoder with learned positions, token-type embeddings, an embedding LayerNorm and a pooler.

    Every linear layer has a bias and every norm is a LayerNorm. :func:`total_params` counts ``BertModel``
    (what ``from_pretrained`` gives for feature extraction). The pre-training heads are counted separately
    by :func:`pretraining_head_params`: the MLM head's transform (dense ``d x d`` + bias, LayerNorm), its
    output bias of length V (the decoder weight is tied to the embedding) and the next-sentence head.
    """

    name: str
    vocab_size: int
    d_model: int
    n_layers: int
    d_ff: int
    n_heads: int
    tied: bool
    n_positions: int
    type_vocab_size: int
    norm: str = "layernorm"
    source: str = ""

    def __post_init__(self) -> None:
        _check_common(self)
        for field in ("d_ff", "n_positions", "type_vocab_size"):
            check_size(getattr(self, field), field)
        if self.d_model % self.n_heads:
            raise ValueError(
                f"n_heads must divide d_model (each head is d_model / n_heads wide), got "
                f"d_model={short_repr(self.d_model)} and n_heads={short_repr(self.n_heads)}"
            )


@dataclass(frozen=True)
class T5Config:
    """T5: an encoder and a decoder stack sharing one token embedding, no biases, RMS-style norms.

    Each stack's first layer owns a relative attention bias table, ``num_buckets x n_heads``; the other
    layers reuse it. Decoder blocks add cross-attention and a third norm. The original T5 ties the
    output head to the shared embedding (T5 v1.1 does not).
    """

    name: str
    vocab_size: int
    d_model: int
    n_layers: int
    n_decoder_layers: int
    d_ff: int
    n_heads: int
    head_dim: int
    tied: bool
    relative_attention_num_buckets: int
    norm: str = "rmsnorm"
    source: str = ""

    def __post_init__(self) -> None:
        _check_common(self)
        for field in ("n_decoder_layers", "d_ff", "head_dim", "relative_attention_num_buckets"):
            check_size(getattr(self, field), field)


Config = DecoderConfig | BertConfig | T5Config


def _check_common(c: Any) -> None:
    # NumPy ints and bools stored as Python ones first: sums of uint8 or int64 sizes would wrap around
    for f in dataclasses.fields(c):
        value = getattr(c, f.name)
        if issubclass(type(value), np.bool_):
            object.__setattr__(c, f.name, bool(value))
        elif issubclass(type(value), np.integer):
            object.__setattr__(c, f.name, int(value))
        elif issubclass(type(value), str) and type(value) is not str:  # the text it holds, not its own methods
            object.__setattr__(c, f.name, plain_str(value))
        # the number it holds: its own * or +
        elif issubclass(type(value), int) and not _is_one_of(type(value), (int, bool)):
            object.__setattr__(c, f.name, exact_int(value, f.name))  # never runs in a count
    if not issubclass(type(c.name), str):
        raise TypeError(f"name must be a str, got {_describe(c.name)}")
    for field in ("vocab_size", "d_model", "n_layers", "n_heads"):
        check_size(getattr(c, field), field)
    check_flag(c.tied, "tied")
    if not issubclass(type(c.norm), str) or c.norm not in _NORMS:
        raise ValueError(f"norm must be one of {_NORMS}, got {short_repr(c.norm)}")


_HF = "https://huggingface.co/"

#: The architectures of :data:`embedlab.budget.REAL_MODELS`, in the same order, keyed by name.
CONFIGS: dict[str, Config] = {
    c.name: c
    for c in (
        # GPT-2: learned positions, LayerNorm with bias, biases everywhere (Conv1D), plain 4d GELU MLP,
        # output head = wte (tied). All four sizes share V = 50257 and 1024 positions.
        *(
            DecoderConfig(
                name=f"GPT-2 {size}",
                vocab_size=50257,
                d_model=d,
                n_layers=L,
                d_ff=4 * d,
                n_heads=h,
                n_kv_heads=h,
                head_dim=d // h,
                tied=True,
                norm="layernorm",
                qkv_bias=True,
                out_bias=True,
                mlp_bias=True,
                n_positions=1024,
                source=f"{_HF}openai-community/{repo}/blob/main/config.json; "
                "code: openai/gpt-2 src/model.py, transformers GPT2LMHeadModel",
            )
            for size, repo, L, d, h in (
                ("small", "gpt2", 12, 768, 12),
                ("medium", "gpt2-medium", 24, 1024, 16),
                ("large", "gpt2-large", 36, 1280, 20),
                ("XL", "gpt2-xl", 48, 1600, 25),
            )
        ),
        # GPT-J: one LayerNorm per block feeding attention and MLP in parallel; q/k/v/out without bias;
        # rotary on 64 of each head's 256 dims (no parameters); untied lm_head WITH a bias.
        DecoderConfig(
            name="GPT-J 6B",
            vocab_size=50400,
            d_model=4096,
            n_layers=28,
            d_ff=16384,
            n_heads=16,
            n_kv_heads=16,
            head_dim=256,
            tied=False,
            norm="layernorm",
            norms_per_layer=1,
            mlp_bias=True,
            head_bias=True,
            source=f"{_HF}EleutherAI/gpt-j-6b/blob/main/config.json (n_inner null = 4 x 4096); "
            "code: transformers GPTJForCausalLM; original kingoflolz/mesh-transformer-jax configs/6B_roto_256.json",
        ),
        # GPT-NeoX-20B: parallel residual but two LayerNorms per block; fused qkv and dense with bias;
        # rotary on 25% of each head; separate embed_out WITHOUT bias.
        DecoderConfig(
            name="GPT-NeoX-20B",
            vocab_size=50432,
            d_model=6144,
            n_layers=44,
            d_ff=24576,
            n_heads=64,
            n_kv_heads=64,
            head_dim=96,
            tied=False,
            norm="layernorm",
            qkv_bias=True,
            out_bias=True,
            mlp_bias=True,
            source=f"{_HF}EleutherAI/gpt-neox-20b/blob/main/config.json; "
            "code: transformers GPTNeoXForCausalLM; original EleutherAI/gpt-neox configs/20B.yml",
        ),
        # The Llama family: RMSNorm, rotary, SwiGLU MLP (gate, up, down), no biases.
        DecoderConfig(
            name="Llama 2 7B",
            vocab_size=32000,
            d_model=4096,
            n_layers=32,
            d_ff=11008,
            n_heads=32,
            n_kv_heads=32,
            head_dim=128,
            tied=False,
            norm="rmsnorm",
            gated_mlp=True,
            source=f"{_HF}meta-llama/Llama-2-7b-hf/blob/main/config.json; code: transformers LlamaForCausalLM",
        ),
        DecoderConfig(
            name="Llama 3 8B",
            vocab_size=128256,
            d_model=4096,
            n_layers=32,
            d_ff=14336,
            n_heads=32,
            n_kv_heads=8,  # grouped-query attention: k and v are 4096 x 1024
            head_dim=128,
            tied=False,
            norm="rmsnorm",
            gated_mlp=True,
            source=f"{_HF}meta-llama/Meta-Llama-3-8B/blob/main/config.json; code: transformers LlamaForCausalLM",
        ),
        DecoderConfig(
            name="Llama 3.2 1B",
            vocab_size=128256,
            d_model=2048,
            n_layers=16,
            d_ff=8192,
            n_heads=32,
            n_kv_heads=8,
            head_dim=64,
            tied=True,  # tie_word_embeddings: true
            norm="rmsnorm",
            gated_mlp=True,
            source=f"{_HF}meta-llama/Llama-3.2-1B/blob/main/config.json; code: transformers LlamaForCausalLM",
        ),
        DecoderConfig(
            name="Mistral 7B v0.1",
            vocab_size=32000,
            d_model=4096,
            n_layers=32,
            d_ff=14336,
            n_heads=32,
            n_kv_heads=8,
            head_dim=128,
            tied=False,
            norm="rmsnorm",
            gated_mlp=True,
            source=f"{_HF}mistralai/Mistral-7B-v0.1/blob/main/config.json; code: transformers MistralForCausalLM",
        ),
        # Gemma: GeGLU MLP, RMSNorm stored as (1 + w) (still d parameters), head_dim 256, tied head;
        # the embedding is multiplied by sqrt(d) on the way in, which costs no parameters.
        DecoderConfig(
            name="Gemma 2B",
            vocab_size=256000,
            d_model=2048,
            n_layers=18,
            d_ff=16384,
            n_heads=8,
            n_kv_heads=1,  # multi-query attention
            head_dim=256,
            tied=True,
            norm="rmsnorm",
            gated_mlp=True,
            source=f"{_HF}google/gemma-2b/blob/main/config.json; code: transformers GemmaForCausalLM",
        ),
        DecoderConfig(
            name="Gemma 7B",
            vocab_size=256000,
            d_model=3072,
            n_layers=28,
            d_ff=24576,
            n_heads=16,
            n_kv_heads=16,
            head_dim=256,  # 16 x 256 = 4096 wide attention on a 3072 residual stream
            tied=True,
            norm="rmsnorm",
            gated_mlp=True,
            source=f"{_HF}google/gemma-7b/blob/main/config.json; code: transformers GemmaForCausalLM",
        ),
        # Qwen2: Llama-like, but q, k and v carry biases (the output projection does not).
        DecoderConfig(
            name="Qwen2.5-0.5B",
            vocab_size=151936,
            d_model=896,
            n_layers=24,
            d_ff=4864,
            n_heads=14,
            n_kv_heads=2,
            head_dim=64,
            tied=True,
            norm="rmsnorm",
            gated_mlp=True,
            qkv_bias=True,
            source=f"{_HF}Qwen/Qwen2.5-0.5B/blob/main/config.json; code: transformers Qwen2ForCausalLM",
        ),
        DecoderConfig(
            name="Qwen2.5-7B",
            vocab_size=152064,
            d_model=3584,
            n_layers=28,
            d_ff=18944,
            n_heads=28,
            n_kv_heads=4,
            head_dim=128,
            tied=False,
            norm="rmsnorm",
            gated_mlp=True,
            qkv_bias=True,
            source=f"{_HF}Qwen/Qwen2.5-7B/blob/main/config.json; code: transformers Qwen2ForCausalLM",
        ),
        BertConfig(
            name="BERT-base uncased",
            vocab_size=30522,
            d_model=768,
            n_layers=12,
            d_ff=3072,
            n_heads=12,
            tied=True,  # the MLM decoder weight is the word embedding
            n_positions=512,
            type_vocab_size=2,
            source=f"{_HF}google-bert/bert-base-uncased/blob/main/config.json; "
            "code: google-research/bert modeling.py, transformers BertModel / BertForPreTraining",
        ),
        T5Config(
            name="T5-small",
            vocab_size=32128,  # 32100 tokens padded to a multiple of 128
            d_model=512,
            n_layers=6,
            n_decoder_layers=6,
            d_ff=2048,
            n_heads=8,
            head_dim=64,
            tied=True,
            relative_attention_num_buckets=32,
            source=f"{_HF}google-t5/t5-small/blob/main/config.json; "
            "code: google-research/text-to-text-transfer-transformer, transformers T5ForConditionalGeneration",
        ),
    )
}


def get_config(name_or_config: str | Config) -> Config:
    """The architecture of a model in :data:`CONFIGS`, or a configuration passed through unchanged.

    Raises
    ------
    TypeError
        If the argument is neither a str nor a configuration.
    ValueError
        If the name is not one of :data:`CONFIGS`; the message lists the known names.

    Examples
    --------
    >>> c = get_config("Llama 3 8B")
    >>> c.n_layers, c.n_kv_heads, c.tied
    (32, 8, False)
    """
    if issubclass(type(name_or_config), (DecoderConfig, BertConfig, T5Config)):
        return name_or_config
    if not issubclass(type(name_or_config), str):
        raise TypeError(
            "name_or_config must be a model name (str) or a DecoderConfig, BertConfig or T5Config, "
            f"got {_describe(name_or_config)}"
        )
    try:
        return CONFIGS[plain_str(name_or_config)]
    except KeyError:
        known = ", ".join(repr(n) for n in CONFIGS)
        raise ValueError(
            f"name_or_config must be a known model, got {short_repr(name_or_config)}; known models are: {known}"
        ) from None


# ---------------------------------------------------------------- the formulas, one per family
def _attention(d: int, n_heads: int, n_kv_heads: int, head_dim: int, *, qkv_bias: bool, out_bias: bool) -> int:
    """q: d -> n_heads*head_dim; k, v: d -> n_kv_heads*head_dim each; out: n_heads*head_dim -> d."""
    q_width, kv_width = n_heads * head_dim, n_kv_heads * head_dim
    weights = d * q_width + 2 * d * kv_width + q_width * d
    biases = (q_width + 2 * kv_width if qkv_bias else 0) + (d if out_bias else 0)
    return weights + biases


def _mlp(d: int, d_ff: int, *, gated: bool, bias: bool) -> int:
    """Plain: up (d -> d_ff) and down (d_ff -> d). Gated: a gate matrix beside up."""
    n_in = 2 if gated else 1
    return n_in * (d * d_ff + (d_ff if bias else 0)) + d_ff * d + (d if bias else 0)


def _decoder_total(c: DecoderConfig) -> int:
    V, d = c.vocab_size, c.d_model
    embedding = V * d + c.n_positions * d  # token rows, plus learned position rows (GPT-2 only)
    block = (
        _attention(d, c.n_heads, c.n_kv_heads, c.head_dim, qkv_bias=c.qkv_bias, out_bias=c.out_bias)
        + _mlp(d, c.d_ff, gated=c.gated_mlp, bias=c.mlp_bias)
        + c.norms_per_layer * _norm_params(c.norm, d)
    )
    final_norm = _norm_params(c.norm, d)
    return embedding + c.n_layers * block + final_norm + _head_params(c)


def _bert_total(c: BertConfig) -> int:
    V, d = c.vocab_size, c.d_model
    embeddings = (V + c.n_positions + c.type_vocab_size) * d + _norm_params(c.norm, d)  # three tables, one LN
    block = (
        _attention(d, c.n_heads, c.n_heads, d // c.n_heads, qkv_bias=True, out_bias=True)
        + _mlp(d, c.d_ff, gated=False, bias=True)
        + 2 * _norm_params(c.norm, d)  # post-norm: after attention and after the MLP
    )
    pooler = d * d + d  # dense + tanh on the [CLS] vector
    return embeddings + c.n_layers * block + pooler


def _t5_total(c: T5Config) -> int:
    d = c.d_model
    norm = _norm_params(c.norm, d)
    attn = _attention(d, c.n_heads, c.n_heads, c.head_dim, qkv_bias=False, out_bias=False)
    mlp = _mlp(d, c.d_ff, gated=False, bias=False)
    relative_bias = c.relative_attention_num_buckets * c.n_heads  # in each stack's first layer only
    encoder = c.n_layers * (attn + norm + mlp + norm) + relative_bias + norm
    decoder = c.n_decoder_layers * (attn + norm + attn + norm + mlp + norm) + relative_bias + norm  # + cross-attn
    shared = c.vocab_size * d  # one table for encoder input, decoder input and (tied) output
    return shared + encoder + decoder + _head_params(c)


def _head_params(c: Config) -> int:
    """The output head's own parameters: ``V x d`` unless it is the embedding, plus ``V`` for a bias.

    BERT's MLM output bias belongs to the pre-training head; see :func:`pretraining_head_params`.
    """
    matrix = 0 if c.tied else c.vocab_size * c.d_model
    return matrix + (c.vocab_size if getattr(c, "head_bias", False) else 0)


def total_params(name_or_config: str | Config) -> int:
    """Parameters of the whole model, each tied matrix counted once.

    Parameters
    ----------
    name_or_config : str or DecoderConfig or BertConfig or T5Config
        A name from :data:`CONFIGS` (the names of :data:`embedlab.budget.REAL_MODELS`) or a configuration.

    Returns
    -------
    int
        The count ``model.num_parameters()`` gives for the Hugging Face class (``BertModel`` for BERT).

    Raises
    ------
    TypeError
        If the argument is neither a str nor a configuration.
    ValueError
        If the name is unknown.

    Examples
    --------
    >>> total_params("GPT-2 small")
    124439808
    >>> total_params("Llama 2 7B")
    6738415616
    """
    c = get_config(name_or_config)
    if issubclass(type(c), BertConfig):
        return _bert_total(c)
    if issubclass(type(c), T5Config):
        return _t5_total(c)
    return _decoder_total(c)


def pretraining_head_params(name_or_config: str | BertConfig) -> int:
    """BERT's pre-training heads, which ``BertModel`` leaves out and ``BertForPreTraining`` adds.

    The MLM head: a ``d x d`` transform with bias, its LayerNorm, and an output bias of length V
    (the output weight is the tied word embedding). The next-sentence head: ``d x 2`` plus 2 biases.

    Raises
    ------
    ValueError
        If the model is not BERT.

    Examples
    --------
    >>> pretraining_head_params("BERT-base uncased")
    624188
    """
    c = get_config(name_or_config)
    if not issubclass(type(c), BertConfig):
        raise ValueError(
            "name_or_config must be a BERT model: pretraining_head_params is defined for BERT only, "
            f"got {short_repr(c.name)}"
        )
    d, V = c.d_model, c.vocab_size
    mlm = (d * d + d) + _norm_params(c.norm, d) + V
    nsp = d * 2 + 2
    return mlm + nsp


def embedding_share(name_or_config: str | Config) -> dict[str, Any]:
    """How much of a model is its token embedding, and its output head.

    Each model is counted as it makes its predictions over the vocabulary, head included. For BERT
    that is the published checkpoint, ``BertForPreTraining`` (:func:`total_params` plus
    :func:`pretraining_head_params`): its masked-LM head is tied to the embedding and owns only its
    ``V`` output biases, which are its ``head`` here, as in :data:`embedlab.budget.REAL_MODELS`.

    Parameters
    ----------
    name_or_config : str or DecoderConfig or BertConfig or T5Config
        A name from :data:`CONFIGS` or a configuration.

    Returns
    -------
    dict
        ``name``, ``vocab_size``, ``d_model``, ``tied``; ``embedding`` (the V x d token table, position
        tables excluded); ``head`` (the output head's own parameters: its ``V`` biases when tied with a
        bias, as BERT's, else 0; ``V*d`` plus ``V`` if it has a bias when untied); ``total`` (the whole
        model, head included: :func:`total_params`, plus :func:`pretraining_head_params` for BERT);
        ``embedding_share`` = embedding / total and ``embedding_and_head_share`` = (embedding + head) / total,
        as Python floats.

    Examples
    --------
    >>> s = embedding_share("GPT-2 small")
    >>> s["embedding"], s["head"], round(s["embedding_share"], 4)
    (38597376, 0, 0.3102)
    >>> s = embedding_share("GPT-J 6B")
    >>> s["head"], round(s["embedding_and_head_share"], 4)
    (206488800, 0.0682)
    """
    c = get_config(name_or_config)
    embedding = c.vocab_size * c.d_model
    head = _head_params(c)
    total = total_params(c)
    if issubclass(type(c), BertConfig):  # the checkpoint: encoder plus its masked-LM head (and NSP head)
        untied = 0 if c.tied else c.vocab_size * c.d_model  # a separate decoder matrix, if not tied
        head = untied + c.vocab_size  # the MLM head's own output bias, and its matrix when untied
        total += pretraining_head_params(c) + untied
    return {
        "name": c.name,
        "vocab_size": c.vocab_size,
        "d_model": c.d_model,
        "tied": c.tied,
        "embedding": embedding,
        "head": head,
        "total": total,
        "embedding_share": embedding / total,
        "embedding_and_head_share": (embedding + head) / total,
    }


class ShareRow(NamedTuple):
    """One row of :func:`share_table`."""

    name: str
    vocab_size: int
    d_model: int
    tied: bool
    total: int
    embedding_share: float
    embedding_and_head_share: float


def share_table() -> list[ShareRow]:
    """:func:`embedding_share` for every model, in :data:`embedlab.budget.REAL_MODELS` order.

    Examples
    --------
    >>> rows = share_table()
    >>> len(rows), rows[0].name, rows[0].total
    (16, 'GPT-2 small', 124439808)
    >>> r = rows[-1]
    >>> r.name, r.tied, round(r.embedding_share, 3)
    ('T5-small', True, 0.272)
    """
    return [ShareRow(**{field: s[field] for field in ShareRow._fields}) for s in map(embedding_share, CONFIGS)]


class Counts(NamedTuple):
    """The counts of one model that papers, code and model cards quote; see :func:`counts`."""

    name: str
    total: int
    without_positions: int
    non_embedding: int
    token_embedding: int
    position_embedding: int
    head: int


def counts(name_or_config: str | Config) -> Counts:
    """Every count of a model that is commonly quoted, each with what it leaves out.

    ``total``
        Every parameter, a tied matrix counted once (as :func:`embedding_share` counts the model).
    ``without_positions``
        ``total`` less the learned position embeddings: what nanoGPT's ``get_num_params()``
        reports by default, since the token embedding doubles as the tied output head.
    ``non_embedding``
        ``total`` less the token embedding, the output head's own parameters (``head``) and the
        position embeddings: the N of Kaplan et al.'s scaling laws (2020).

    Parameters
    ----------
    name_or_config : str or DecoderConfig or BertConfig or T5Config
        A name from :data:`CONFIGS` or a configuration.

    Returns
    -------
    Counts
        With ``token_embedding`` (V x d), ``position_embedding`` (learned rows x d, 0 for rotary or
        relative positions) and ``head`` (the head's own matrix and bias, as in
        :func:`embedding_share`: 0 for GPT-2, V x d + V for GPT-J), all ints.

    Examples
    --------
    >>> c = counts("GPT-2 small")
    >>> c.total, c.without_positions, c.non_embedding, c.position_embedding
    (124439808, 123653376, 85056000, 786432)
    """
    c = get_config(name_or_config)
    s = embedding_share(c)
    token, head, total = s["embedding"], s["head"], s["total"]
    positions = getattr(c, "n_positions", 0) * c.d_model
    return Counts(
        name=c.name,
        total=total,
        without_positions=total - positions,
        non_embedding=total - token - head - positions,
        token_embedding=token,
        position_embedding=positions,
        head=head,
    )


class Flops(NamedTuple):
    """Forward-pass floating-point operations per token; see :func:`flops_per_token`."""

    name: str
    head: int
    body: int
    attention: int
    total: int
    head_share: float


def flops_per_token(name_or_config: str | DecoderConfig, *, n_ctx: int) -> Flops:
    """Forward FLOPs per token of a decoder-only model: the output head against the rest.

    A matrix product of a length-d vector with a ``d x V`` matrix costs ``V x d`` multiply-adds, or
    ``2Vd`` FLOPs: that is the head (Kaplan et al., 2020, Table 1, "De-embed"), tied or not. The
    ``body`` is two FLOPs per non-embedding parameter (Kaplan's 2N), and ``attention`` the scores
    and the weighted sum over ``n_ctx`` earlier positions, ``4 x n_layers x n_ctx x (heads x
    head width)``, as nanoGPT's ``estimate_mfu`` counts it (its training figure is three times
    the forward one). Element-wise work (norms, activations, softmax) is left out, as in both.

    Parameters
    ----------
    name_or_config : str or DecoderConfig
        A decoder-only model of :data:`CONFIGS`, or its configuration.
    n_ctx : int
        The context the token attends over (at most the model's trained context, not checked).

    Returns
    -------
    Flops
        ``head``, ``body``, ``attention`` and ``total`` as ints, ``head_share = head / total``.

    Raises
    ------
    TypeError, ValueError
        If the model is unknown or not decoder-only (BERT, T5), or ``n_ctx`` is not a positive int.

    Examples
    --------
    >>> f = flops_per_token("GPT-2 small", n_ctx=1024)
    >>> f.head, f.body, round(f.head_share, 3)
    (77194752, 170112000, 0.271)
    """
    c = get_config(name_or_config)
    n_ctx = check_size(n_ctx, "n_ctx")
    if not issubclass(type(c), DecoderConfig):
        raise ValueError(
            "name_or_config must be a decoder-only model (one head call per generated token), got "
            f"{short_repr(c.name)}, an encoder or encoder-decoder"
        )
    head = 2 * c.vocab_size * c.d_model
    body = 2 * counts(c).non_embedding
    attention = 4 * c.n_layers * n_ctx * c.n_heads * c.head_dim
    total = head + body + attention
    return Flops(name=c.name, head=head, body=body, attention=attention, total=total, head_share=head / total)
