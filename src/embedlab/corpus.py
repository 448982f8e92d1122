"""A small seeded synthetic language with word classes, for training tied and untied models (notebook I).

Every sentence is ``<s> DET [ADJ] AGENT VERB ...``. Transitive verbs choose what kind of object
follows (``eats`` a food, ``drives`` a vehicle, ``holds`` a tool, ``sees`` an agent); intransitive
verbs end the sentence. Within each class the tokens play the same role and are drawn with Zipf
weights, so every class has a few common tokens and a long tail of rare ones.

The model predicts each token from the tokens before it, but nothing is predicted after the last
token of a sentence. So the sentence-final words (objects and intransitive verbs) are only ever
*targets*, never *inputs*: a model that reads them through ``E`` never reads their rows. The rarest
objects do not occur in the training split at all.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import (
    _has,
    _is_one_of,
    as_array,
    check_choice,
    check_ids,
    check_nbytes,
    check_size,
    exact_int,
    exact_real,
    frozen_copy,
    is_0d,
    is_a,
    iter_items,
    plain_items,
    short_repr,
    type_name,
)

__all__ = [
    "CLASSES",
    "MAX_SENTENCES",
    "OBJECT_OF",
    "Corpus",
    "context_windows",
    "make_corpus",
]

#: The word classes in vocabulary order, each a tuple of tokens, commonest first.
CLASSES: dict[str, tuple[str, ...]] = {
    "start": ("<s>",),
    "det": ("the", "a", "this", "that", "every", "some"),
    "adj": ("big", "small", "old", "new", "red", "quiet", "happy", "green", "tired", "shiny"),
    "agent": (
        "dog", "cat", "man", "woman", "child", "bird", "farmer", "teacher",
        "horse", "doctor", "fox", "sailor", "baker", "owl", "pilot", "monk",
    ),
    "v-food": ("eats", "cooks", "buys", "tastes"),
    "v-vehicle": ("drives", "rides", "parks", "repairs"),
    "v-tool": ("holds", "uses", "drops", "sharpens"),
    "v-agent": ("sees", "chases", "helps", "calls"),
    "v-intrans": ("sleeps", "runs", "sings", "waits", "laughs", "swims", "dreams", "shivers"),
    "food": (
        "bread", "apple", "soup", "rice", "cheese", "fish", "cake", "egg", "pear", "plum",
        "bean", "corn", "fig", "grape", "honey", "lemon", "melon", "nut", "olive", "onion",
        "peach", "pie", "radish", "salad", "stew", "taco", "toast", "yam", "kiwi", "leek",
    ),
    "vehicle": (
        "car", "bus", "bike", "truck", "boat", "train", "van", "cart", "scooter", "tram",
        "canoe", "sled", "wagon", "yacht", "jeep", "ferry", "glider", "rickshaw", "barge", "kayak",
    ),
    "tool": (
        "hammer", "knife", "saw", "rope", "brush", "pen", "drill", "wrench", "shovel", "axe",
        "chisel", "rake", "ladder", "needle", "trowel", "pliers", "lathe", "awl", "sickle", "adze",
    ),
}  # fmt: skip

#: Most sentences a split may hold (100 times the chapter's largest training set).
MAX_SENTENCES = 500_000

#: Which class of object each kind of transitive verb takes.
OBJECT_OF = {"v-food": "food", "v-vehicle": "vehicle", "v-tool": "tool", "v-agent": "agent"}


@dataclass(frozen=True)
class Corpus:
    """Sentences of the synthetic language as token ids, and its vocabulary.

    Attributes
    ----------
    train, valid, test : tuple of numpy.ndarray
        The sentences of each split, each an int array starting with ``<s>`` (id 0). Training
        fits the parameters, validation chooses the learning rate and the stopping step, test is
        what is reported.
    vocab : tuple of str
        Token ``i`` is ``vocab[i]``.
    classes : numpy.ndarray of str, shape (V,)
        The word class of each token (a key of :data:`CLASSES`).
    seed : int
        The seed that generated it.
    """

    train: tuple[np.ndarray, ...]
    valid: tuple[np.ndarray, ...]
    test: tuple[np.ndarray, ...]
    vocab: tuple[str, ...]
    classes: np.ndarray
    seed: int

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # a copy or a pickle is made again by the constructor: its arrays checked and read-only as these are
        return (type(self), (self.train, self.valid, self.test, self.vocab, np.array(self.classes), self.seed))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return (
            (self.vocab, self.seed) == (other.vocab, other.seed)
            and all(
                len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
                for a, b in ((self.train, other.train), (self.valid, other.valid), (self.test, other.test))
            )
            and np.array_equal(self.classes, other.classes)
        )

    def __hash__(self) -> int:
        return hash((self.vocab, self.seed, len(self.train), len(self.valid), len(self.test)))

    def __post_init__(self) -> None:
        """A hand-built corpus is checked as one from :func:`make_corpus` would be: refused by the field at fault."""
        vocab = self.vocab
        if issubclass(type(vocab), tuple):  # a subclass too, read by tuple's own methods: its own never run
            vocab = tuple(plain_items(vocab, "vocab", "a non-empty tuple of str"))
        if not issubclass(type(vocab), tuple) or not vocab or not all(issubclass(type(w), str) for w in vocab):
            raise TypeError(f"vocab must be a non-empty tuple of str, got {short_repr(vocab)}")
        vocab = tuple(str.__str__(w) for w in vocab)  # the words as the text they hold
        object.__setattr__(self, "vocab", vocab)
        if len(set(vocab)) != len(vocab):
            raise ValueError("vocab must not repeat a token")
        V = len(vocab)
        classes = self.classes
        if (
            not issubclass(type(classes), np.ndarray)
            or issubclass(type(classes), np.ma.MaskedArray)
            or classes.dtype.kind != "U"
        ):
            raise TypeError(f"classes must be a NumPy array of str (one per token), got {short_repr(classes)}")
        if classes.shape != (V,):
            raise ValueError(f"classes must have shape ({V},), one per token of vocab, got {classes.shape}")
        object.__setattr__(self, "classes", frozen_copy(classes))
        if issubclass(type(self.seed), (bool, np.bool_)) or not is_a(self.seed, numbers.Integral):
            raise TypeError(f"seed must be a non-negative int, got {short_repr(self.seed)}")
        object.__setattr__(self, "seed", exact_int(self.seed, "seed"))
        if self.seed < 0:
            raise ValueError(f"seed must be a non-negative int, got {short_repr(self.seed)}")
        for split in ("train", "valid", "test"):
            sentences = getattr(self, split)
            if not issubclass(type(sentences), tuple):
                raise TypeError(f"{split} must be a tuple of 1-D int arrays, got {type_name(sentences)}")
            if tuple.__len__(sentences) > MAX_SENTENCES:  # tuple's own length: a subclass's never runs
                raise ValueError(
                    f"{split} must hold at most {MAX_SENTENCES:,} sentences, got {tuple.__len__(sentences):,}"
                )
            sentences = tuple(plain_items(sentences, split, "a tuple of 1-D int arrays"))
            for i, s in enumerate(sentences):
                if type(s) is not np.ndarray or s.ndim != 1 or s.dtype.kind not in "iu":
                    raise TypeError(f"{split}[{i}] must be a 1-D int NumPy array, got {short_repr(s)}")
                if len(s) < 2 or s[0] != 0:
                    raise ValueError(f"{split}[{i}] must start with <s> (id 0) and hold at least two tokens")
            if sentences:
                check_nbytes((sum(len(s) for s in sentences),), np.intp, split)  # every token, once
                lo = min(int(s.min()) for s in sentences)
                hi = max(int(s.max()) for s in sentences)
                if lo < 0 or hi >= V:
                    raise ValueError(f"{split} must hold token ids in [0, {V - 1}], got ids in [{lo}, {hi}]")
                # the corpus's own copy, in one buffer no one can write: an id edited after the check
                # (through the corpus or the caller's arrays) would reach counts() and training unchecked
                tokens = frozen_copy(np.concatenate([s.astype(np.intp, copy=False) for s in sentences]))
                sentences = tuple(np.split(tokens, np.cumsum([len(s) for s in sentences])[:-1]))
            object.__setattr__(self, split, sentences)  # kept as the plain tuple it holds

    def counts(self, split: str = "train") -> tuple[np.ndarray, np.ndarray]:
        """How often each token is read and how often predicted in ``split``: ``(inputs (V,), targets (V,))``.

        Every token but the last of a sentence is an input; every token but ``<s>`` is a target.
        """
        sentences = _split(self, split)
        if not sentences:  # an empty split reads and predicts nothing
            return np.zeros(self.vocab_size, np.intp), np.zeros(self.vocab_size, np.intp)
        inputs = np.bincount(np.concatenate([s[:-1] for s in sentences]), minlength=self.vocab_size)
        targets = np.bincount(np.concatenate([s[1:] for s in sentences]), minlength=self.vocab_size)
        return inputs, targets

    def never_read(self, split: str = "train") -> np.ndarray:
        """Ids of the tokens no context of ``split`` reads: sentence-final words and tokens absent from it."""
        inputs, _ = self.counts(split)
        return np.flatnonzero(inputs == 0)

    def target_only(self, split: str = "train") -> np.ndarray:
        """Ids of the tokens that occur in ``split`` as targets but never as inputs."""
        inputs, targets = self.counts(split)
        return np.flatnonzero((inputs == 0) & (targets > 0))

    def unseen(self, split: str = "train") -> np.ndarray:
        """Ids of the tokens (other than ``<s>``) that never occur in ``split``."""
        inputs, targets = self.counts(split)
        ids = np.flatnonzero((inputs == 0) & (targets == 0))
        return ids[ids != 0]  # <s> is not a word: it is never unseen


def _split(corpus: Corpus, split: str) -> tuple[np.ndarray, ...]:
    split = check_choice(split, "split", ("train", "valid", "test"))
    if split == "train":
        return corpus.train
    if split == "valid":
        return corpus.valid
    if split == "test":
        return corpus.test
    raise ValueError(f"split must be 'train', 'valid' or 'test', got {split!r}")


def _zipf(n: int, exponent: float) -> np.ndarray:
    w = 1.0 / np.arange(1, n + 1, dtype=np.float64) ** float(exponent)
    return w / w.sum()


def make_corpus(
    seed: int = 0,
    n_train: int = 500,
    n_valid: int = 400,
    n_test: int = 400,
    *,
    zipf_exponent: float = 1.3,
    p_adjective: float = 0.3,
    p_intransitive: float = 0.2,
) -> Corpus:
    """Generate the synthetic language: ``n_train``, ``n_valid`` and ``n_test`` sentences, reproducibly from ``seed``.

    Each split has a random stream of its own, so the training sentences of a larger corpus
    begin with those of a smaller one (same ``seed``), and its validation and test sentences
    are the same whatever ``n_train`` is: growing the data changes nothing else.

    Parameters
    ----------
    seed : int, default 0
        Seed of ``np.random.default_rng``; the same seed gives the same corpus.
    n_train, n_valid, n_test : int, default 500, 400 and 400
        Sentences in each split; at most :data:`MAX_SENTENCES` each.
    zipf_exponent : float, default 1.3
        Token ``r`` (0-based rank) of a class has weight ``1 / (r + 1) ** zipf_exponent``: larger
        makes the tail rarer; at most 100.
    p_adjective : float, default 0.3
        Chance of an adjective before each noun.
    p_intransitive : float, default 0.2
        Chance that the verb is intransitive and ends the sentence.

    Returns
    -------
    Corpus

    Raises
    ------
    TypeError
        If ``seed`` or a sentence count is not an int, or a rate is not a real number.
    ValueError
        If a count is not positive, ``seed`` is negative, or a probability is outside ``[0, 1]``.

    Examples
    --------
    >>> c = make_corpus(seed=0)
    >>> c.vocab_size, len(c.train), len(c.valid)
    (127, 500, 400)
    >>> bigger = make_corpus(seed=0, n_train=1500)
    >>> all(np.array_equal(a, b) for a, b in zip(bigger.train, c.train))  # the first 500 are c's
    True
    >>> " ".join(c.vocab[i] for i in c.train[0])
    '<s> a big dog uses this needle'
    >>> sorted({str(c.classes[i]) for i in c.target_only()})  # sentence-final words
    ['food', 'tool', 'v-intrans', 'vehicle']
    >>> len(c.target_only()), len(c.unseen())  # predicted but never read; absent from training
    (60, 18)
    """
    if issubclass(type(seed), bool) or not issubclass(type(seed), (int, np.integer)):
        raise TypeError(f"seed must be a non-negative int, got {type_name(seed)} {short_repr(seed)}")
    seed = exact_int(seed, "seed")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {short_repr(seed)}")
    n_train = check_size(n_train, "n_train")
    n_valid = check_size(n_valid, "n_valid")
    n_test = check_size(n_test, "n_test")
    for name, n in (("n_train", n_train), ("n_valid", n_valid), ("n_test", n_test)):
        if n > MAX_SENTENCES:
            raise ValueError(f"{name} must be at most {MAX_SENTENCES:,} sentences, got {n:,}")
    rates = []
    for name, value, lo, hi in (
        ("zipf_exponent", zipf_exponent, 0.0, 100.0),
        ("p_adjective", p_adjective, 0.0, 1.0),
        ("p_intransitive", p_intransitive, 0.0, 1.0),
    ):
        if issubclass(type(value), (bool, np.bool_)) or not is_a(value, numbers.Real):
            raise TypeError(f"{name} must be a real number, got {type_name(value)} {short_repr(value)}")
        value = exact_real(value, name)
        if not lo <= value <= hi:
            raise ValueError(f"{name} must be in [{lo}, {hi}], got {short_repr(value)}")
        rates.append(float(value))
    zipf_exponent, p_adjective, p_intransitive = rates  # plain floats: the checked values, and only they, are used

    vocab = tuple(token for tokens in CLASSES.values() for token in tokens)
    classes = np.array([name for name, tokens in CLASSES.items() for _ in tokens])
    ids = {name: np.flatnonzero(classes == name) for name in CLASSES}
    weights = {name: _zipf(len(tokens), zipf_exponent) for name, tokens in CLASSES.items()}
    verb_kinds = ("v-food", "v-vehicle", "v-tool", "v-agent")

    def sentences(n: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        def draw(name: str) -> int:
            return int(rng.choice(ids[name], p=weights[name]))

        def noun_phrase(noun_class: str) -> list[int]:
            phrase = [draw("det")]
            if rng.random() < p_adjective:
                phrase.append(draw("adj"))
            return [*phrase, draw(noun_class)]

        def sentence() -> np.ndarray:
            words = [0, *noun_phrase("agent")]
            if rng.random() < p_intransitive:
                words.append(draw("v-intrans"))
            else:
                kind = verb_kinds[rng.integers(len(verb_kinds))]
                words += [draw(kind), *noun_phrase(OBJECT_OF[kind])]
            return np.array(words, dtype=np.intp)

        return tuple(sentence() for _ in range(n))

    # One stream per split: train from `seed` itself, so a larger n_train extends a smaller one.
    train = sentences(n_train, np.random.default_rng(seed))
    valid = sentences(n_valid, np.random.default_rng([seed, 1]))
    test = sentences(n_test, np.random.default_rng([seed, 2]))
    return Corpus(train=train, valid=valid, test=test, vocab=vocab, classes=classes, seed=int(seed))


def _plain_sentence(s: Any) -> np.ndarray | None:
    """A sentence that needs no closer look, as an intp array: a list or tuple of at least two plain
    ints, or a 1-D intp array with a stride, every id in [0, 2**63); None for anything else."""
    if _is_one_of(type(s), (list, tuple)):
        if len(s) < 2 or len(s) > 4096 or not all(type(v) is int and 0 <= v < 2**63 for v in s):
            return None
        return np.array(s, dtype=np.intp)
    if type(s) is np.ndarray and s.dtype == np.intp and s.ndim == 1 and len(s) >= 2 and s.strides[0] != 0:
        if s.min() < 0:
            return None
        return s
    return None


def context_windows(sentences: Any, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Every (context, next token) pair of ``sentences``: the ``k`` tokens before each target.

    Contexts that would reach before the start of a sentence are padded with ``<s>`` (id 0).

    Parameters
    ----------
    sentences : sequence of 1-D int arrays
        Each starting with ``<s>``, as in :attr:`Corpus.train`.
    k : int
        Context length.

    Returns
    -------
    contexts : numpy.ndarray of shape (n, k)
    targets : numpy.ndarray of shape (n,)

    Examples
    --------
    >>> ctx, y = context_windows([np.array([0, 5, 7, 9])], k=2)
    >>> ctx.tolist(), y.tolist()
    ([[0, 0], [0, 5], [5, 7]], [5, 7, 9])
    """
    k = check_size(k, "k")
    if issubclass(type(sentences), (str, bytes)) or not _has(sentences, "__iter__", "sentences"):
        raise TypeError(f"sentences must be a sequence of 1-D int arrays, got {type_name(sentences)}")
    if is_0d(sentences):
        raise TypeError("sentences must be a sequence of 1-D int arrays, got a 0-d array")
    if issubclass(type(sentences), (list, tuple, dict)) and not _is_one_of(type(sentences), (list, tuple)):
        raise TypeError(f"sentences must be a plain list or tuple of 1-D int arrays, got {type_name(sentences)}")
    arrays = []
    total = 0  # ids in all the sentences so far: sized before any of them is read
    # checked one by one, so a long sequence of scalars is refused at its first; an iterator that fails, by name
    for s in iter_items(sentences, "sentences", "a sequence of 1-D int arrays"):
        if len(arrays) == 3 * MAX_SENTENCES:  # before the next is read: an endless iterator stops here
            raise ValueError(f"sentences must hold at most {3 * MAX_SENTENCES:,} sentences")
        plain = _plain_sentence(s)
        if plain is not None:  # plain ints or an int array: sized by its length, read at once
            total += len(plain)
            check_nbytes((total,), np.intp, "sentences")
            arrays.append(plain)
            continue
        if issubclass(type(s), np.ma.MaskedArray):
            raise TypeError("sentences must be plain int arrays: masked arrays are not supported")
        raw, s = s, as_array(s, "sentences", "token ids")  # sized before NumPy builds it
        if s.ndim != 1 or s.dtype.kind not in "iufO" or len(s) < 2:  # f, O: mixed or big ints, read by check_ids
            raise ValueError("sentences must be 1-D int arrays of at least two tokens, <s> first")
        # every id so far, sized before this sentence is read (broadcasts of 10**12 ids are refused, not scanned)
        total += len(s)
        check_nbytes((total,), np.intp, "sentences")
        s = check_ids(raw, 2**63, "sentences")  # non-negative ints below 2**63, read exactly, as intp
        arrays.append(s)
    if not arrays:
        raise ValueError("sentences must hold at least one sentence")
    late = next((i for i, s in enumerate(arrays) if s[0] != 0), None)
    if late is not None:  # its first token would be read as <s> and never be a target
        raise ValueError(
            f"sentences must each start with <s> (id 0), as Corpus.train's do; sentence {late} starts with "
            f"{int(arrays[late][0])}"
        )
    n = sum(len(s) - 1 for s in arrays)
    # every window (n, k), the targets, and one padded sentence at a time, sized before any is made
    check_nbytes((n * (k + 1) + max(len(s) for s in arrays) + k,), np.intp, "k")
    contexts, targets = [], []
    for s in arrays:
        padded = np.concatenate([np.zeros(k - 1, dtype=s.dtype), s])
        windows = np.lib.stride_tricks.sliding_window_view(padded[:-1], k)  # (len(s) - 1, k)
        contexts.append(windows)
        targets.append(s[1:])
    return np.concatenate(contexts).astype(np.intp, copy=False), np.concatenate(targets).astype(np.intp, copy=False)
