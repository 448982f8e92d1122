"""Your turn: coding exercises the learner writes, and the check they call on their function.

Each worked example (A to I) ends with a function for the learner to write (C and F with two): the
function that the example is about. :func:`check` calls it, in the learner's own kernel and nowhere else, on cases
generated here (shapes, dtypes, and the traps the example teaches), compares what comes back with
embedlab's own answer, and reports the first failing case: what was expected, what came back, and a
hint. The hint is aimed at the mistake: when the learner's answer on the failing case equals what
a classic wrong version gives (counting from 1, an overflowing softmax, a transposed matrix, a
gradient path left out), the hint names that mistake; otherwise it names the trap the case sets.
The check shows values, never the reference code.

>>> def embed_rows(E, ids):
...     return E[[i - 1 for i in ids]]  # counted from 1
>>> report = check(embed_rows)
>>> report.passed, report.mistake
(False, 'counted from 1')
"""

from __future__ import annotations

import copy
import dis
import inspect
import math
import re
import textwrap
import types
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._validation import _describe, _is_one_of, as_array, short_repr
from .budget import param_count
from .geometry import angle_deg
from .grads import tied_grad
from .logits import tied_logits
from .lookup import lookup
from .softmax import saturation_prob, softmax
from .tokens import E_TOY, TOKENS

__all__ = ["N_RANDOM", "TASKS", "WIDTH", "Case", "Report", "Task", "check", "task"]


@dataclass(frozen=True)
class Case:
    """One call the check makes: its arguments, what it tests, and the hint if it fails."""

    label: str  #: what the case tests, in a few words
    args: tuple[Any, ...]  #: the positional arguments passed to the learner's function
    trap: str  #: the hint given when this case fails and no known mistake explains it
    raises: bool = False  #: the right answer is to refuse the input (ValueError or IndexError)


@dataclass(frozen=True)
class _Mistake:
    name: str
    hint: str
    model: Callable[..., Any]  # a learner's wrong version, to recognise the mistake by its answer


@dataclass(frozen=True)
class Report:
    """What :func:`check` found: all cases pass, or the first that fails, with a hint."""

    task: str
    n_cases: int
    passed: bool
    started: bool = True  #: False while the function still returns None on the first case
    case: int | None = None  #: 1-based number of the first failing case
    label: str = ""
    expected: str = ""
    got: str = ""
    problem: str = ""
    hint: str = ""
    mistake: str | None = None  #: the classic mistake the answer matches, if any
    arguments: str = ""  #: the failing case's arguments, for a random case (the listed ones are described)

    def __str__(self) -> str:
        if self.passed:
            return f"{self.task}: all {self.n_cases} cases pass."
        if not self.started:
            return "\n".join(
                _wrap(
                    f"{self.task}: not tried yet (it returns None). Write its body, run its cell, then run "
                    f"this one again. The check tries {self.n_cases} cases."
                )
            )
        lines = _wrap(f"{self.task}: case {self.case} of {self.n_cases} fails: {self.label}.", hanging="  ")
        if self.arguments:
            lines += _wrap(self.arguments, indent="  with:     ", hanging=" " * 12)
        for head, shown in (("  expected: ", self.expected), ("  got:      ", self.got)):
            first, *rest = shown.split("\n")  # an array's rows come already indented, one per line
            lines += [*_wrap(first, indent=head, hanging=" " * 12), *rest]
        if self.problem:
            lines += _wrap(self.problem, indent="  problem:  ", hanging=" " * 12)
        lines += _wrap(self.hint, indent="  hint:     ", hanging=" " * 12)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)


@dataclass(frozen=True)
class _Spec:
    kind: str  # "array", "float" or "int"
    rtol: float = 0.0
    atol: float = 0.0
    same_dtype: bool = False
    unit: str = ""  # what an absolute tolerance is counted in ("degrees"), for the description

    def tolerance(self) -> str:
        """How close an answer must be, in words (shown by :meth:`Task.describe`)."""
        if self.kind == "int":
            return "exactly, as an int"
        if not (self.rtol or self.atol):
            return "exactly, digit for digit" + (", in E's dtype" if self.same_dtype else "")
        if not self.rtol:
            return f"to within {self.atol:g} {self.unit}".rstrip()
        return f"to within {self.atol:g} plus a relative {self.rtol:g}"


@dataclass(frozen=True)
class Task:
    """A function for the learner to write: its name, signature and goal, and the cases the check tries."""

    name: str  #: the function's name, which :func:`check` finds it by
    example: str  #: the worked example it belongs to ("A" ... "I")
    signature: str  #: ``name(arguments)``
    goal: str  #: what it returns, in one sentence
    _spec: _Spec = field(repr=False)
    _reference: Callable[..., Any] = field(repr=False)
    _cases: Callable[[], list[Case]] = field(repr=False)
    _mistakes: tuple[_Mistake, ...] = field(repr=False, default=())

    def cases(self) -> list[Case]:
        """The cases the check tries, in order: the listed traps, then :data:`N_RANDOM` random ones.

        Fresh copies: changing them changes nothing here. The random cases are the same on every run.
        """
        rng = np.random.default_rng(sum(map(ord, self.name)))
        make = _RANDOM[self.name]
        trap = "A random case of the same kind as the ones above: look at its arguments, then at each step."
        return self._cases() + [Case(f"random case {k}", make(rng), trap) for k in range(1, N_RANDOM + 1)]

    def describe(self) -> str:
        """The signature, the goal, and one line per case the check tries, wrapped to fit a page."""
        names = self._arg_names()
        lines = [*_wrap(f"{self.signature}: {self.goal}."), "The check tries, in order:"]
        listed = self._cases()
        for n, c in enumerate(listed, 1):
            args = ", ".join(f"{k} = {_brief(a)}" for k, a in zip(names, c.args, strict=True))
            refuse = "; must raise ValueError or IndexError" if c.raises else ""
            lines += _wrap(f"{n}. {c.label}: {args}{refuse}", indent="  ", hanging="     ")
        lines += _wrap(
            f"then {N_RANDOM} random cases of the same kind (other sizes and values, the same on every run).",
            indent="  ",
            hanging="  ",
        )
        lines += _wrap(f"Answers are compared {self._spec.tolerance()}.")
        return "\n".join(lines)

    def check(self, fn: Callable[..., Any]) -> Report:
        """Call ``fn`` on every case, in this kernel, and report the first that fails."""
        if not callable(fn):
            raise TypeError(f"fn must be your function (a callable), got {_describe(fn)}")
        cases = self.cases()
        for number, case in enumerate(cases, 1):
            outcome = _run(fn, case.args, self._arg_names())
            problem = self._problem(case, outcome)
            if problem is None:
                continue
            if number == 1 and _is_stub(fn):
                return Report(self.name, len(cases), passed=False, started=False)
            got, fallback = _show_outcome(outcome), self._hint(case, outcome, problem)  # before fn runs again
            mistake = None if outcome.mutated else self._recognise(case, outcome, fn, cases)
            hint = mistake.hint if mistake else fallback
            if outcome.mutated:
                hint = (
                    f"Your function changed {outcome.mutated} in place, so the caller's array is no longer what it "
                    f"was: copy it first, or write {outcome.mutated} = {outcome.mutated} - ... rather than "
                    f"{outcome.mutated} -= ..."
                )
            return Report(
                self.name,
                len(cases),
                passed=False,
                case=number,
                label=case.label,
                expected="an error (ValueError or IndexError)" if case.raises else self._shown(self._expected(case)),
                got=got,
                problem=problem,
                hint=hint,
                mistake=mistake.name if mistake else None,
                arguments=self._arguments(number, case),
            )
        return Report(self.name, len(cases), passed=True)

    def _hint(self, case: Case, outcome: _Outcome, problem: str) -> str:
        """The hint when no classic mistake explains the answer: aimed at what is wrong with it."""
        if case.raises and outcome.error is not None:
            kind = _cut(_name_of(type(outcome.error)), 40)
            return f"Right to refuse it, but with a ValueError (or IndexError), not {kind}."
        if outcome.error is not None:
            said = ": its message is above" if _text(outcome.error) else ""
            return f"Your function raised {_cut(_name_of(type(outcome.error)), 40)}{said}. {case.trap}"
        if case.raises:
            return case.trap
        if outcome.value is None:
            return (
                "It returned None: is a `return` missing? (np.add.at and in-place operators change "
                "their array and return None.)"
            )
        if outcome.warned:
            if _difference(self._expected(case), outcome.value, self._spec) is None:
                return f"The values are right, but a step warned on the way ({outcome.warned}). {case.trap}"
            return f"A step warned ({outcome.warned}) and the values are wrong. {case.trap}"
        narrow = "(yours is float32)" in problem or "(yours is float16)" in problem
        if narrow and _near(self._expected(case), outcome.value, 2e-3):  # close (float16 keeps ~3 digits): precision
            return (
                "Compute in float64: float32 holds about 7 significant digits (float16 about 3), and the check's "
                "tolerance is tighter."
            )
        if problem.startswith("first difference") and _near(self._expected(case), outcome.value):
            return (
                "Close, but outside the tolerance: something small is off (an epsilon, a dropped term, a "
                "rounding, or float32 arithmetic)."
            )
        if problem.startswith(("shape", "dtype", "a count", "expected")):
            return f"Look at the type and shape of what you return: {problem}."
        return case.trap

    def _shown(self, value: Any) -> str:
        """The expected answer as the report shows it: to the tolerance's digits when that is absolute."""
        if self._spec.kind == "float" and not self._spec.rtol and self._spec.atol:
            digits = max(0, -math.floor(math.log10(self._spec.atol)) + 1)
            return f"{value:.{digits}f}"
        return _show(value)

    def _arguments(self, number: int, case: Case) -> str:
        """A random case's arguments, in brief, and where to find them in full."""
        if not case.label.startswith("random case"):
            return ""
        brief = ", ".join(f"{k} = {_brief(a)}" for k, a in zip(self._arg_names(), case.args, strict=True))
        if any(issubclass(type(a), np.ndarray) and "array of shape" in _brief(a) for a in case.args):
            brief += f" (all of them: practice.task({self.name!r}).cases()[{number - 1}].args)"
        return brief

    def _arg_names(self) -> tuple[str, ...]:
        return tuple(a.strip() for a in self.signature.split("(", 1)[1].rstrip(")").split(","))

    def _expected(self, case: Case) -> Any:
        return self._reference(*copy.deepcopy(case.args))

    def _problem(self, case: Case, outcome: _Outcome) -> str | None:
        if outcome.mutated:
            return f"it changed its argument {outcome.mutated} in place"
        if outcome.warned:
            return f"it warned: {outcome.warned}"
        if case.raises:
            if _isa(outcome.error, (ValueError, IndexError)):
                return None
            if outcome.error is not None:
                return f"it raised {_cut(_name_of(type(outcome.error)), 40)}, not ValueError or IndexError"
            return "it returned a value for an input it should refuse"
        if outcome.error is not None:
            return f"it raised {_cut(_name_of(type(outcome.error)), 40)}"
        return _difference(self._expected(case), outcome.value, self._spec)

    def _recognise(self, case: Case, outcome: _Outcome, fn: Callable[..., Any], cases: list[Case]) -> _Mistake | None:
        """The classic mistake whose wrong answer on this case the learner's answer is, if any.

        A mistake counts only where it gives a wrong answer itself: where its answer is right, the
        learner's failure has another cause. And one coincidence is not a diagnosis: where the mistake
        is wrong on other cases too, the learner's answer must match it on one of them (the first
        :data:`CORROBORATE` such cases are tried), or the hint names what the case tests instead.
        """
        # the mistake is chosen before the learner's function runs again (which could change what it returned)
        mistake = next((m for m in self._mistakes if self._same_mistake(case, outcome, _run(m.model, case.args))), None)
        if mistake is None:
            return None
        others = [c for c in cases if c is not case and self._problem(c, _run(mistake.model, c.args)) is not None]
        if not others or any(
            self._same_mistake(c, _run(fn, c.args, self._arg_names()), _run(mistake.model, c.args))
            for c in others[:CORROBORATE]
        ):
            return mistake
        return None

    def _same_mistake(self, case: Case, outcome: _Outcome, model: _Outcome) -> bool:
        """Whether the learner's outcome on ``case`` is the mistake's, where the mistake's is wrong."""
        if self._problem(case, model) is not None and outcome.mutated == "":
            if outcome.error is not None or model.error is not None:
                return (
                    type(outcome.error) is type(model.error)
                    and outcome.error is not None
                    and _text(outcome.error) == _text(model.error)
                    and _numpy_like(outcome.error)
                )
            expected = None if case.raises else self._expected(case)
            return outcome.value is not None and _matches(model.value, outcome.value, self._spec, expected)
        return False


#: How many other cases a recognised mistake is tried on before its hint is given.
CORROBORATE = 3


@dataclass
class _Outcome:
    value: Any = None
    error: BaseException | None = None
    mutated: str = ""
    warned: str = ""


def _run(fn: Callable[..., Any], args: tuple[Any, ...], names: tuple[str, ...] = ()) -> _Outcome:
    """Call ``fn`` on copies of ``args``, catching its exception, its warnings and any change to its inputs.

    Whatever ``fn`` does to NumPy's print options, error state or the warning filters is undone.
    """
    work = copy.deepcopy(args)
    outcome = _Outcome()
    printing, formatwarning, action = np.get_printoptions(), warnings.formatwarning, warnings.defaultaction
    try:
        with warnings.catch_warnings(record=True) as caught, np.errstate(over="warn", divide="warn", invalid="warn"):
            warnings.simplefilter("always")
            try:
                outcome.value = fn(*work)
            except KeyboardInterrupt:  # the reader's own stop (Jupyter's interrupt): theirs, not the answer's
                raise
            except BaseException as exc:  # reported, never re-raised (exit() and any BaseException of theirs too)
                outcome.error = exc
            if _isa(outcome.value, types.CoroutineType):
                outcome.value.close()  # an `async def` answer: closed, so it never warns "never awaited"
    finally:
        np.set_printoptions(**printing)
        warnings.formatwarning, warnings.defaultaction = formatwarning, action
    numpy_warnings = [w for w in caught if issubclass(w.category, RuntimeWarning)]
    if numpy_warnings:
        outcome.warned = _cut(_text(numpy_warnings[0].message), 100) or _cut(_name_of(numpy_warnings[0].category), 40)
    for position, (before, after) in enumerate(zip(args, work, strict=True)):
        if not _same(before, after):
            outcome.mutated = names[position] if position < len(names) else f"number {position + 1}"
            break
    return outcome


def _numpy_like(error: BaseException) -> bool:
    """Whether an error reads like NumPy's own about shapes or indices (not the learner's own raise)."""
    text = _text(error).lower()
    return any(w in text for w in ("shape", "dimension", "aligned", "operand", "broadcast", "out of bounds", "index"))


def _isa(x: Any, kinds: Any) -> bool:
    """``isinstance`` by the object's type alone: a learner's object cannot answer with a ``__class__`` of its own."""
    return issubclass(type(x), kinds)


def _text(x: Any) -> str:
    """``str(x)``, or "" when its own ``__str__`` fails."""
    try:
        text = str(x)
    except KeyboardInterrupt:  # the reader's own stop passes through
        raise
    except BaseException:  # a learner's exception or warning whose message fails
        return ""
    return text if type(text) is str else ""


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 3].rstrip() + "..."


def _same(a: Any, b: Any) -> bool:
    """Whether ``b`` is still ``a`` (a case's argument after the learner's function had it)."""
    try:
        if issubclass(type(a), np.ndarray):
            return (
                type(b) is np.ndarray
                and b.dtype == a.dtype
                and b.shape == a.shape
                and bool(np.array_equal(a, b, equal_nan=a.dtype.kind == "f"))
            )
        return type(b) is type(a) and bool(a == b)
    except KeyboardInterrupt:  # the reader's own stop passes through
        raise
    except BaseException:  # an argument changed into something that cannot even be compared
        return False


def _plain(x: Any, kind: str) -> np.ndarray | None:
    """A learner's answer as a float64 array (0-d for one number), or None when it is not plain numbers.

    Plain means a NumPy array (not a subclass), a list or tuple of numbers, or a Python or NumPy
    number: nothing whose own methods could decide the comparison. Never allocates more than the
    answer itself holds.
    """
    try:
        if _is_one_of(type(x), (list, tuple)):
            x = as_array(x, "the answer", "numbers")
        if type(x) is np.ndarray:
            if x.dtype.kind not in "fiu":
                return None
        elif kind == "int" and (type(x) is int or _isa(x, np.integer)):
            return None  # counts are compared exactly, as Python ints
        elif _is_one_of(type(x), (int, float)) or _is_one_of(type(x), _NUMPY_REALS):
            x = np.asarray(x)
        else:
            return None
        with np.errstate(all="ignore"):
            return np.asarray(x, dtype=np.float64) if x.size <= _MAX_ANSWER else None
    except KeyboardInterrupt:  # the reader's own stop passes through
        raise
    except BaseException:  # an answer NumPy cannot read as numbers
        return None


#: NumPy's real scalar types (exactly these, not subclasses).
_NUMPY_REALS = tuple(np.dtype(c).type for c in "bBhHiIlLqQefdg")

#: The most numbers an answer may hold: far more than any case's answer, far less than memory.
_MAX_ANSWER = 10**6


def _difference(expected: Any, got: Any, spec: _Spec) -> str | None:
    """None when ``got`` is the right answer under ``spec``, else what is wrong, in a few words."""
    if spec.kind == "int":
        count = _count(got)
        if count is None:
            return f"a count is a whole number (an int), got {_kind_of(got)}"
        return None if count == expected else "a different count"
    if _isa(got, np.ndarray) and type(got) is not np.ndarray:
        return f"expected a plain NumPy array, got {_kind_of(got)}"
    if _is_one_of(type(got), (list, tuple)) or type(got) is np.ndarray:
        shape = _shape(got)
        if shape is not None and shape != np.shape(expected):
            return f"shape {shape}, expected {np.shape(expected)}"
    a = _plain(got, spec.kind)
    if a is None:
        what = "one number" if spec.kind == "float" else "a NumPy array of numbers"
        return f"expected {what}, got {_kind_of(got)}"
    b = np.asarray(expected, dtype=np.float64)
    if a.shape != b.shape:
        return (
            f"shape {a.shape}, expected {b.shape}"
            if spec.kind == "array"
            else f"expected one number, got {_kind_of(got)}"
        )
    if spec.same_dtype and np.asarray(got).dtype != np.asarray(expected).dtype:
        return f"dtype {np.asarray(got).dtype}, expected {np.asarray(expected).dtype}"
    if not np.all(np.isfinite(a)):
        return "it holds NaN or inf"
    with np.errstate(all="ignore"):
        close = np.isclose(a, b, rtol=spec.rtol, atol=spec.atol) if spec.rtol or spec.atol else a == b
    if bool(np.all(close)):
        return None
    first = tuple(int(i) for i in np.argwhere(~close)[0]) if a.ndim else ()
    where = f" at [{', '.join(map(str, first))}]" if a.ndim else ""
    narrow = np.asarray(got).dtype if type(got) is np.ndarray or _isa(got, np.floating) else None
    wanted = np.asarray(expected).dtype if type(expected) is np.ndarray or _isa(expected, np.floating) else b.dtype
    # a float32 answer where float32 is due gets no note: only a dtype other than the expected one is named
    note = f" (yours is {narrow})" if narrow is not None and narrow != wanted else ""
    return f"first difference{where}: {a[first]:.10g} where {b[first]:.10g} was expected{note}"


#: NumPy's integer scalar types (exactly these: not bool, not timedelta64, not subclasses).
_NUMPY_INTS = tuple(np.dtype(c).type for c in "bBhHiIlLqQ")


def _count(x: Any) -> int | None:
    """A whole number as a Python int: an int, a NumPy integer or a 0-d integer array; None for anything else."""
    if type(x) is int:
        return x
    if _is_one_of(type(x), _NUMPY_INTS):
        return int(np.asarray(x).item())
    if type(x) is np.ndarray and x.ndim == 0 and x.dtype.type in _NUMPY_INTS:
        return int(x.item())
    return None


def _near(expected: Any, got: Any, rtol: float = 1e-5) -> bool:
    """Whether every entry of ``got`` is within a relative ``rtol`` of the right answer: a rounding, not a mistake."""
    a, b = _plain(got, "array"), np.asarray(expected, dtype=np.float64)
    if a is None or a.shape != b.shape:
        return False
    with np.errstate(all="ignore"):
        return bool(np.all(np.isclose(a, b, rtol=rtol, atol=1e-12 * float(np.max(np.abs(b), initial=0.0)))))


def _shape(x: Any) -> tuple[int, ...] | None:
    """The shape of an array, or of a list as NumPy would read it, without building it; None if unknown."""
    if type(x) is np.ndarray:
        return x.shape
    try:
        return np.shape(as_array(x, "the answer", "numbers"))
    except KeyboardInterrupt:  # the reader's own stop passes through
        raise
    except BaseException:  # a list NumPy cannot read: the comparison below says so
        return None


def _a(noun: str) -> str:
    """``noun`` after its indefinite article: "an int", "a float"."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _name_of(kind: type) -> str:
    """A class's own name, read through ``type`` itself: a metaclass cannot make it raise or lie."""
    return type.__dict__["__name__"].__get__(kind)


def _kind_of(x: Any) -> str:
    """What an answer is, in words that hold no memory address (the check's text is deterministic)."""
    kind = type(x)
    try:
        if issubclass(kind, np.ndarray):
            return f"{_cut(_name_of(kind), 30)} of dtype {_cut(str(x.dtype), 30)} and shape {x.shape}"
        if (
            _is_one_of(kind, (int, float, bool, complex, str))
            or _is_one_of(kind, _NUMPY_REALS)
            or _is_one_of(kind, (np.bool_, np.complex128))
        ):
            return f"{_name_of(kind)} {_cut(repr(x), 40)}"
    except KeyboardInterrupt:  # the reader's own stop passes through
        raise
    except BaseException:  # an answer whose own attributes fail
        pass
    return _a(_cut(_name_of(kind), 40))


def _is_stub(fn: Callable[..., Any]) -> bool:
    """Whether ``fn``'s body is empty (a docstring, comments, ``pass`` or ``...``): not tried yet."""
    if not inspect.isfunction(fn):
        return False
    steps = [(i.opname, i.argval) for i in dis.get_instructions(fn) if i.opname not in ("RESUME", "NOP", "CACHE")]
    return steps in ([("RETURN_CONST", None)], [("LOAD_CONST", None), ("RETURN_VALUE", None)])


def _matches(model: Any, got: Any, spec: _Spec, expected: Any) -> bool:
    """Whether the learner's answer is the mistake's answer (NaN where it has NaN, the same dtype if it counts).

    Within a billionth, relative to the size of the right answer: two tiny answers are not the
    same mistake just because both are tiny.
    """
    if spec.kind == "int":
        return _count(got) is not None and _count(got) == _count(model)
    a, b = _plain(model, spec.kind), _plain(got, spec.kind)
    if a is None or b is None or a.shape != b.shape:
        return False
    if spec.same_dtype and np.asarray(model).dtype != np.asarray(got).dtype:
        return False
    scale = 1.0 if expected is None else float(np.max(np.abs(np.asarray(expected, dtype=np.float64)), initial=0.0))
    with np.errstate(all="ignore"):
        return bool(np.allclose(a, b, rtol=1e-9, atol=1e-12 * scale, equal_nan=True))


#: The width of the check's text: it fits the book's code column and a JupyterLab output.
WIDTH = 78


def _wrap(text: str, indent: str = "", hanging: str = "") -> list[str]:
    """``text`` wrapped to :data:`WIDTH`, never inside a short bracket or around an ``=``."""
    keep = re.sub(r"\([^()\[\]]{0,24}\)|\[[^()\[\]]{0,24}\]", lambda m: m.group(0).replace(" ", "\xa0"), text)
    for op in (" = ", " @ ", " + ", " / ", " < ", " <= "):
        keep = keep.replace(op, op.replace(" ", "\xa0"))
    # Bounded and anchored at a word's start, so the search is linear in the text (an unbounded \w+ here
    # retried from every letter of a long word: quadratic).
    keep = re.sub(r"(?<!\w)\w{1,40} array of shape", lambda m: m.group(0).replace(" ", "\xa0"), keep)
    lines = textwrap.wrap(
        keep, WIDTH, initial_indent=indent, subsequent_indent=hanging or indent, break_on_hyphens=False
    )
    return [line.replace("\xa0", " ") for line in lines] or [indent]


def _fmt(x: Any) -> str:
    with np.printoptions(precision=4, suppress=True, threshold=12, edgeitems=2, linewidth=WIDTH - 12):
        return str(x)


def _show(x: Any) -> str:
    if _isa(x, np.ndarray):
        shown = textwrap.indent(_fmt(x), " " * 12)
        if x.ndim > 3 or any(len(line) > WIDTH for line in shown.splitlines()):
            return f"array of shape {x.shape}, {x.dtype}"
        return f"array of shape {x.shape}, {x.dtype}:\n" + shown
    if _isa(x, float):
        return f"{x:.10g}"
    return short_repr(x)


def _show_outcome(outcome: _Outcome) -> str:
    if outcome.error is not None:
        message, kind = _cut(" ".join(_text(outcome.error).split()), 120), _cut(_name_of(type(outcome.error)), 40)
        return f"{kind}: {message}" if message else kind
    value = outcome.value
    if value is None:
        return "None"
    if _is_one_of(type(value), (int, float)) or _is_one_of(type(value), _NUMPY_REALS):
        return _cut(repr(value) if type(value) is float else _show(value), 60)
    shown = _plain(value, "array") if _is_one_of(type(value), (list, tuple, np.ndarray)) else None
    if shown is not None and shown.size <= 100:
        text = _show(np.asarray(value) if type(value) is not np.ndarray else value)
        return text if type(value) is np.ndarray else f"{_a(_name_of(type(value)))}, as an " + text
    return _kind_of(value)


def _brief(x: Any) -> str:
    """An argument in a few words: a small float64 or int array as code that makes it, a large one by its shape."""
    if issubclass(type(x), np.ndarray):
        if x.size <= 6 and (x.dtype == np.float64 or x.dtype.kind in "iu"):
            return f"np.array({x.tolist()})"
        return f"{x.dtype} array of shape {x.shape}"
    return short_repr(x)


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _matrix(rng: np.random.Generator, rows: int, cols: int, dtype: Any = np.float64) -> np.ndarray:
    return rng.uniform(-1, 1, size=(rows, cols)).round(2).astype(dtype)


# -- A · embed_rows -------------------------------------------------------------------------------------


def _embed_rows_cases() -> list[Case]:
    rng = _rng(1)
    E7 = _matrix(rng, 7, 3)
    E5 = _matrix(rng, 5, 4, np.float32)
    E_toy = np.array(E_TOY)
    the = TOKENS.index("the")
    return [
        Case('the toy E, the id of "the"', (E_toy, [the]), "Ids count from 0: row 0 is the first token."),
        Case("ids 0 and V - 1: the first and the last row", (E7, [0, 6]), "Row 0 is the first; row V - 1 the last."),
        Case("a repeated id", (E7, [3, 1, 3]), "A repeated id reads the same row twice: one row per id, in order."),
        Case("a float32 E", (E5, [4, 0]), "Rows keep E's dtype: reading a row does no arithmetic."),
        Case("ids in a NumPy array", (E7, np.array([5, 2])), "ids may be a list or a NumPy array of ints: both work."),
        Case(
            "id -1 after a good id",
            (E7, [2, -1]),
            "A negative id is not a token, wherever it sits: check every id, and refuse it (NumPy would count "
            "it from the end).",
            True,
        ),
        Case("id V", (E7, [7]), "Ids run from 0 to V - 1: V itself is past the last row.", True),
    ]


def _embed_from_one(E: Any, ids: Any) -> Any:
    return E[[i - 1 for i in ids]]


def _embed_columns(E: Any, ids: Any) -> Any:
    return E[:, list(ids)].T


def _embed_wraps(E: Any, ids: Any) -> Any:
    return E[np.asarray(ids)]


def _embed_float64(E: Any, ids: Any) -> Any:
    return np.array([[float(x) for x in E[i]] for i in ids])


# -- B · one_hot_lookup ---------------------------------------------------------------------------------


def _one_hot_cases() -> list[Case]:
    rng = _rng(2)
    E6 = _matrix(rng, 6, 3)
    E4 = _matrix(rng, 4, 4)
    E5 = _matrix(rng, 5, 2, np.float32)
    E_toy = np.array(E_TOY)
    the = TOKENS.index("the")
    return [
        Case('the toy E, the id of "the"', (E_toy, the), "The one-hot vector has a 1 at the id, counted from 0."),
        Case("id 0", (E6, 0), "id 0 puts its 1 in the first entry."),
        Case("id V - 1", (E6, 5), "id V - 1 puts its 1 in the last entry."),
        Case(
            "a square E (V = d)",
            (E4, 1),
            "With V = d a product in the wrong order still runs: check which axis of E the one-hot vector meets "
            "(x @ E sums over the rows).",
        ),
        Case(
            "a float32 E",
            (E5, 3),
            "Build the one-hot vector in E's dtype, or the product is float64: twice the memory for the same row.",
        ),
    ]


def _one_hot_from_one(E: Any, token_id: Any) -> Any:
    x = np.zeros(E.shape[0], dtype=E.dtype)
    x[token_id - 1] = 1
    return x @ E


def _one_hot_right(E: Any, token_id: Any) -> Any:
    x = np.zeros(E.shape[0], dtype=E.dtype)
    x[token_id] = 1
    return E @ x


def _one_hot_transposed(E: Any, token_id: Any) -> Any:
    return np.eye(E.shape[0], dtype=E.dtype)[token_id] @ E.T


def _one_hot_right_length_d(E: Any, token_id: Any) -> Any:
    return E @ np.eye(E.shape[1], dtype=E.dtype)[token_id]


def _one_hot_float64(E: Any, token_id: Any) -> Any:
    x = np.zeros(E.shape[0])
    x[token_id] = 1
    return x @ E


# -- C · batch_logits ------------------------------------------------------------------------------------


def _logits_cases() -> list[Case]:
    rng = _rng(3)
    E_toy = np.array(E_TOY)
    E7 = _matrix(rng, 7, 3)
    H5 = _matrix(rng, 5, 3)
    E4 = _matrix(rng, 4, 4)
    H4 = _matrix(rng, 4, 4)
    return [
        Case(
            "the toy E, one context",
            (np.array([[0.5, 0.2, -0.3]]), E_toy),
            "A logit is the dot product of the context with one token's row: logits = H @ E.T.",
        ),
        Case("five contexts, seven tokens", (H5, E7), "One row of logits per context, one column per token: (n, V)."),
        Case(
            "a square E (V = d) and four contexts",
            (H4, E4),
            "With V = d = n every product has the right shape: check which axes meet (H @ E.T pairs each context "
            "with each token's row).",
        ),
    ]


def _logits_transposed_out(H: Any, E: Any) -> Any:
    return E @ H.T


def _logits_untransposed(H: Any, E: Any) -> Any:
    return H @ E


def _logits_untransposed_dot(H: Any, E: Any) -> Any:
    return np.dot(H, E)


def _logits_probabilities(H: Any, E: Any) -> Any:
    z = H @ E.T
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# -- C · stable_softmax ------------------------------------------------------------------------------------


def _softmax_cases() -> list[Case]:
    return [
        Case("small logits", (np.array([1.0, 2.0, 3.0]),), "softmax(z)_i = exp(z_i) / sum_j exp(z_j)."),
        Case(
            "logits near +1000",
            (np.array([1000.0, 999.0, 998.0]),),
            "exp(1000) overflows float64. Subtracting max(z) first changes nothing in the answer and keeps "
            "every exponent at or below 0.",
        ),
        Case(
            "logits near -1000",
            (np.array([-1000.0, -1000.0, -1001.0]),),
            "exp(-1000) underflows to 0, and 0 / 0 is NaN: subtract max(z) first.",
        ),
        Case(
            "a batch: one distribution per row",
            (np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]),),
            "Each row is its own distribution: take the max and the sum along the last axis, keepdims=True.",
        ),
        Case(
            "a row from -1000 to 1000",
            (np.array([-1000.0, 10.0, 1000.0, 1000.0]),),
            "A row from -1000 to 1000: only a shift by its maximum keeps every exponent at or below 0; the two "
            "largest logits then get 1/2 each, the others 0.",
        ),
        Case(
            "a batch of batches (3-D)",
            (np.array([[[1.0, 2.0], [3.0, 3.0]], [[0.0, -1.0], [5.0, 1.0]]]),),
            "One distribution along the last axis, whatever the number of dimensions: axis=-1, keepdims=True.",
        ),
        Case(
            "a batch with logits of ±1000",
            (np.array([[0.0, 1000.0], [-1000.0, 0.0]]),),
            "Shift each row by its own maximum.",
        ),
    ]


def _softmax_naive(z: Any) -> Any:
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def _softmax_minus_min(z: Any) -> Any:
    e = np.exp(z - z.min(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _softmax_mean(z: Any) -> Any:
    e = np.exp(z - z.mean(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _softmax_median(z: Any) -> Any:
    e = np.exp(z - np.median(z, axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _softmax_whole_array(z: Any) -> Any:
    e = np.exp(z - z.max())
    return e / e.sum()


def _softmax_unnormalised(z: Any) -> Any:
    return np.exp(z - z.max(axis=-1, keepdims=True))


# -- D · angle_between ---------------------------------------------------------------------------------------


def _angle_cases() -> list[Case]:
    E_toy = np.array(E_TOY)
    # cos θ of u and ±5u rounds past ±1 in float64 by every common route: @, dot, einsum, sums, fsum;
    # norms from np.linalg.norm, math.hypot, math.dist or square roots; unit vectors first or last;
    # and whether or not the processor's BLAS fuses a multiply into the add (a dot with FMA or without:
    # [-0.7, -0.4] and 3x itself, the pair before, stayed at 1 on a processor whose BLAS kernel differs).
    # Clipped, these routes then give exactly 0 or 180 degrees. The law of cosines, clipped, lands 2 ulps
    # below 1 (1.2e-6 degrees): the tolerance, 1e-5 degrees, lets it pass (one ulp of cos below 1 is
    # already 8.5e-7 degrees), while a margin of 1e-12 in the clip (8e-5 degrees) still fails
    u, five_u = np.array([-0.3, -0.75, 0.0]), np.array([-1.5, -3.75, 0.0])
    return [
        Case("perpendicular vectors", (np.array([1.0, 0.0]), np.array([0.0, 2.0])), "cos θ = u·v / (|u| |v|)."),
        Case(
            'the toy context and the row of "the"',
            (np.array([0.5, 0.2, -0.3]), E_toy[TOKENS.index("the")]),
            "This pair's dot product is negative: the angle is above 90 degrees (about 149).",
        ),
        Case(
            "a vector and five times itself",
            (u, five_u),
            "Rounding can make cos θ a hair above 1, and arccos of that is NaN (math.acos raises ValueError): "
            "clip cos θ to exactly [-1, 1], with no margin, so that parallel vectors give 0 degrees.",
        ),
        Case(
            "opposite vectors",
            (u, -five_u + 0.0),
            "Clip cos θ to exactly [-1, 1], with no margin: rounding can push it past -1; the answer is 180 degrees.",
        ),
        Case(
            "two nearly parallel vectors",
            (np.array([0.5, 0.0]), np.array([1.0, 3e-6])),  # u of length 1/2: u·v alone is not cos θ here
            "The angle is tiny but not 0 (about 0.00017 degrees): clip cos θ, do not round it.",
        ),
        Case(
            "half a degree apart",
            (np.array([1.0, 0.0]), np.array([1.0, 0.0087])),
            "About 0.5 degrees: arccos of the exact cos θ, with no shortcut for small angles.",
        ),
        Case(
            "two vectors a few degrees apart",
            (np.array([1.0, 0.0]), np.array([1.0, 0.05])),
            "A small angle is still an angle: about 2.9 degrees here.",
        ),
        Case(
            "an obtuse angle",
            (np.array([1.0, 2.0]), np.array([-3.0, 1.0])),
            "A negative dot product means an angle above 90 degrees: keep the sign of cos θ.",
        ),
    ]


def _angle_radians(u: Any, v: Any) -> Any:
    return float(np.arccos(np.clip(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)), -1, 1)))


def _angle_no_norm(u: Any, v: Any) -> Any:
    return float(np.degrees(np.arccos(np.clip(u @ v, -1, 1))))


def _angle_sign_dropped(u: Any, v: Any) -> Any:
    return float(np.degrees(np.arccos(np.clip(abs(u @ v) / (np.linalg.norm(u) * np.linalg.norm(v)), 0, 1))))


def _angle_clipped_at_0(u: Any, v: Any) -> Any:
    return float(np.degrees(np.arccos(np.clip(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)), 0, 1))))


def _angle_nan_to_zero(u: Any, v: Any) -> Any:
    with np.errstate(invalid="ignore"):
        return float(np.nan_to_num(np.degrees(np.arccos(u @ v / (np.linalg.norm(u) * np.linalg.norm(v))))))


def _angle_no_clip(u: Any, v: Any) -> Any:
    return float(np.degrees(np.arccos(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))))


def _angle_reference(u: Any, v: Any) -> float:
    return angle_deg(u, v)


# -- E · probs_with_bias ------------------------------------------------------------------------------------


def _bias_cases() -> list[Case]:
    rng = _rng(5)
    E_toy = np.array(E_TOY)
    b = np.array([0.5, 0.0, -1.0, 0.2])  # worked example E's bias (Step 4)
    E6 = _matrix(rng, 6, 3)
    return [
        Case(
            "the zero context, with a bias",
            (np.zeros(3), E_toy, b),
            "With h = 0 every h·e_j is 0, so the logits are b itself and the answer is softmax(b): probabilities, "
            "positive and adding up to 1.",
        ),
        Case(
            "the toy context, with a bias",
            (np.array([0.5, 0.2, -0.3]), E_toy, b),
            "logits = h @ E.T + b: the bias is added before the softmax, not after it.",
        ),
        Case(
            "two tokens with the same row",
            (np.array([1.0, -1.0, 0.5]), np.vstack([E6, E6[2]]), np.linspace(-1, 1, 7).round(2)),
            "Equal rows give equal dot products; only the bias can tell those two tokens apart.",
        ),
    ]


def _bias_forgotten(h: Any, E: Any, b: Any) -> Any:
    z = E @ h
    e = np.exp(z - z.max())
    return e / e.sum()


def _bias_after(h: Any, E: Any, b: Any) -> Any:
    p = _bias_forgotten(h, E, b) + b
    return p / p.sum()


def _bias_subtracted(h: Any, E: Any, b: Any) -> Any:
    return _softmax(E @ h - b)


def _softmax(z: Any) -> Any:
    e = np.exp(z - z.max())
    return e / e.sum()


def _bias_reference(h: Any, E: Any, b: Any) -> np.ndarray:
    return softmax(tied_logits(h, E, bias=b))


# -- F · p_top and logit_gap ----------------------------------------------------------------------------------


def _p_top_cases() -> list[Case]:
    return [
        Case(
            "t = 0 and three others",
            (0.0, 3),
            "P0 = exp(t) / (exp(t) + n): each of the n others has logit 0, so exp(0) = 1 each.",
        ),
        Case(
            "t = 2 and 50,256 others",
            (2.0, 50_256),
            "P0 is small here (about 1.5e-4): keep every term, in float64.",
        ),
        Case(
            "t = 1000",
            (1000.0, 3),
            "exp(1000) overflows. Divide top and bottom by exp(t): P0 = 1 / (1 + n exp(-t)); with an if, since "
            "np.where computes both of its branches.",
        ),
        Case(
            "t = 12 and 50,256 others",
            (12.0, 50_256),
            "t a little above ln n (about 10.8): P0 is about 0.76, far from 1; 1 - n exp(-t) is no approximation here.",
        ),
        Case(
            "t = -12 and one other",
            (-12.0, 1),
            "P0 is about 6e-6: exp(t) / (exp(t) + n), with nothing dropped from the bottom.",
        ),
        Case(
            "t = -1 and three others",
            (-1.0, 3),
            "For t < 0, P0 = exp(t) / (exp(t) + n): near t = 0 neither term in the bottom can be dropped.",
        ),
        Case(
            "t = -30",
            (-30.0, 3),
            "P0 is tiny here (about 3e-14) but not 0: exp(t) / (exp(t) + n) keeps it.",
        ),
        Case(
            "t = -34 and one other",
            (-34.0, 1),
            "P0 is about 1.7e-15 here, still above the tolerance: exp(t) / (exp(t) + n) keeps it.",
        ),
        Case(
            "t = -1000",
            (-1000.0, 3),
            "For t < 0, 1 / (1 + n exp(-t)) overflows in exp(-t): use exp(t) / (exp(t) + n) on that side "
            "(with an if: np.where computes both of its branches).",
        ),
    ]


def _p_top_naive(t: Any, n: Any) -> Any:
    return float(np.exp(t) / (np.exp(t) + n))


def _p_top_one_other(t: Any, n: Any) -> Any:
    return float(1 / (1 + np.exp(-t))) if t >= 0 else float(np.exp(t) / (np.exp(t) + 1))


def _p_top_counts_itself(t: Any, n: Any) -> Any:
    return float(1 / (1 + (n + 1) * np.exp(-t))) if t >= 0 else float(np.exp(t) / (np.exp(t) + n + 1))


def _p_top_reference(t: Any, n: Any) -> float:
    return float(saturation_prob(t, n))


def _gap_cases() -> list[Case]:
    return [
        Case("P0 = 0.9 with three others", (0.9, 3), "Solve P0 = exp(t) / (exp(t) + n) for t."),
        Case("P0 = 1/2 with three others", (0.5, 3), "exp(t) = n P0 / (1 - P0), so t = ln(n P0 / (1 - P0))."),
        Case(
            "P0 = 0.99 with 50,256 others",
            (0.99, 50_256),
            "A large n: t grows like ln n. Keep the whole formula, in float64.",
        ),
        Case(
            "P0 = 0.999999 with 50,256 others",
            (0.999999, 50_256),
            "P0 close to 1: t is large (about 25 here), so a search over a narrow range of t falls short; "
            "1 - P0 is small, but float64 holds it.",
        ),
        Case(
            "P0 = 1e-4 with three others",
            (1e-4, 3),
            "P0 small but not tiny: ln(n P0) is no approximation here; keep the 1 - P0 in the bottom.",
        ),
        Case(
            "P0 = 1e-15 with three others",
            (1e-15, 3),
            "P0 tiny: t is far below 0 (about -33), beyond a search over a narrow range of t.",
        ),
        Case(
            "P0 = 1 - 1e-12 with 50,256 others",
            (1 - 1e-12, 50_256),
            "P0 a hair below 1: t is about 38. Solve in closed form, or search on 1 - P0: P0 itself may be too "
            "close to 1 for a search on it to resolve t.",
        ),
    ]


def _gap_one_other(p: Any, n: Any) -> Any:
    return math.log(p / (1 - p))


def _gap_log10(p: Any, n: Any) -> Any:
    return math.log10(n * p / (1 - p))


def _gap_counts_itself(p: Any, n: Any) -> Any:
    return math.log((n + 1) * p / (1 - p))


def _gap_reference(p: float, n: int) -> float:
    """The t at which ``saturation_prob(t, n) == p``: from p = e^t / (e^t + n), t = ln n + ln p - ln(1 - p)."""
    return math.log(n) + math.log(p) - math.log1p(-p)


# -- G · head_params -----------------------------------------------------------------------------------


def _params_cases() -> list[Case]:
    return [
        Case("the toy, untied, no bias", (4, 3, False, False), "Untied: two V x d matrices, the table and the head."),
        Case("the toy, tied, no bias", (4, 3, True, False), "Tied: one matrix does both jobs, so count it once."),
        Case(
            "V = 50,257 and d = 768, tied, with an output bias",
            (50_257, 768, True, True),
            "The output bias has one entry per token: V of them.",
        ),
        Case("untied, with an output bias", (1_000, 64, False, True), "A bias adds V whether or not E is tied."),
    ]


def _params_tied_twice(V: Any, d: Any, tied: Any, bias: Any) -> Any:
    return 2 * V * d + (V if bias else 0)


def _params_bias_d(V: Any, d: Any, tied: Any, bias: Any) -> Any:
    return (1 if tied else 2) * V * d + (d if bias else 0)


def _params_no_bias(V: Any, d: Any, tied: Any, bias: Any) -> Any:
    return (1 if tied else 2) * V * d


def _params_reference(V: int, d: int, tied: bool, bias: bool) -> int:
    return param_count(V, d, tied=tied, output_bias=bias)


# -- H · tied_E_grad ---------------------------------------------------------------------------------------


def _tied_grad_cases() -> list[Case]:
    rng = _rng(8)
    g_in = np.array([[0.10, -0.20, 0.30]])
    h = np.array([[1.0, 1.0, -2.0]])
    g_logits = np.array([[0.15, 0.05, 0.10, -0.30]])
    return [
        Case(
            "worked example H: one lookup of dog",
            (np.array([1]), g_in, h, g_logits, 4),
            "E gets both gradients, added: the lookup's rows and the head's outer product.",
        ),
        Case(
            "three lookups, five tokens",
            (np.array([0, 4, 2]), _matrix(rng, 3, 2), _matrix(rng, 3, 2), _matrix(rng, 3, 5), 5),
            "Several lookups: each adds its upstream row to its own id's row, and the head adds grad_logits.T @ h "
            "(nothing is averaged here: the upstream gradients already carry any mean).",
        ),
        Case(
            "a repeated id",
            (np.array([3, 1, 3]), _matrix(rng, 3, 2), _matrix(rng, 3, 2), _matrix(rng, 3, 6), 6),
            "A token looked up twice gets both upstream rows, added: G[ids] += g assigns only one of them "
            "(np.add.at adds both).",
        ),
    ]


def _grad_output_only(ids: Any, upstream: Any, h: Any, grad_logits: Any, V: Any) -> Any:
    return grad_logits.T @ h


def _grad_input_only(ids: Any, upstream: Any, h: Any, grad_logits: Any, V: Any) -> Any:
    G = np.zeros((V, upstream.shape[1]))
    np.add.at(G, ids, upstream)
    return G


def _grad_assigned(ids: Any, upstream: Any, h: Any, grad_logits: Any, V: Any) -> Any:
    G = grad_logits.T @ h
    G[ids] += upstream
    return G


def _grad_transposed(ids: Any, upstream: Any, h: Any, grad_logits: Any, V: Any) -> Any:
    G = h.T @ grad_logits
    return G


# -- I · step_grad --------------------------------------------------------------------------------------------


def _step_cases() -> list[Case]:
    rng = _rng(9)
    E_toy = np.array(E_TOY)
    return [
        Case(
            'the toy E, one pair: "dog" then "ran"',
            (E_toy, np.array([TOKENS.index("dog")]), np.array([TOKENS.index("ran")])),
            "Forward: h = E[ids], logits = h @ E.T, p = softmax(logits). Backward: g = (p - y) / n.",
        ),
        Case(
            "six pairs, seven tokens",
            (_matrix(rng, 7, 3), np.array([0, 6, 2, 5, 1, 3]), np.array([6, 0, 4, 2, 2, 1])),
            "Six pairs: subtract 1 at each pair's own target (p[np.arange(n), targets]), and divide by n for the mean.",
        ),
        Case(
            "a repeated input id",
            (_matrix(rng, 5, 2), np.array([2, 2, 4]), np.array([0, 1, 2])),
            "E gets the head's g.T @ h plus the lookup's g @ E, added into the rows of ids; a repeated id gets "
            "every one of its rows (np.add.at).",
        ),
    ]


def _step_parts(E: Any, ids: Any, targets: Any) -> tuple[Any, Any, Any]:
    h = E[ids]
    z = h @ E.T
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    p[np.arange(len(ids)), targets] -= 1
    return h, p / len(ids), p


def _step_output_only(E: Any, ids: Any, targets: Any) -> Any:
    h, g, _ = _step_parts(E, ids, targets)
    return g.T @ h


def _step_input_only(E: Any, ids: Any, targets: Any) -> Any:
    _, g, _ = _step_parts(E, ids, targets)
    G = np.zeros_like(E)
    np.add.at(G, ids, g @ E)
    return G


def _step_summed(E: Any, ids: Any, targets: Any) -> Any:
    h, _, g = _step_parts(E, ids, targets)
    G = g.T @ h
    np.add.at(G, ids, g @ E)
    return G


def _step_assigned(E: Any, ids: Any, targets: Any) -> Any:
    h, g, _ = _step_parts(E, ids, targets)
    G = g.T @ h
    G[ids] += g @ E
    return G


def _step_reference(E: Any, ids: Any, targets: Any) -> np.ndarray:
    from .train import loss_and_grads

    return loss_and_grads({"E": E}, (np.asarray(ids)[:, None], targets))[1]["E"]


_MEAN_SHIFT = "Shift by the maximum: a mean or a median leaves exponents near +1000, which overflow."
_E_AT_X = (
    "The one-hot vector has V entries, one per token, and multiplies E from the left: x @ E (E @ x mixes E's columns)."
)

# -- random cases: other sizes and values, so that an answer cannot fit the listed cases alone ---------------

#: Random cases the check tries after the listed ones.
N_RANDOM = 20


def _small(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.uniform(-1, 1, size=shape).round(3)


def _random_embed(rng: np.random.Generator) -> tuple[Any, ...]:
    V, d = int(rng.integers(2, 10)), int(rng.integers(1, 6))
    E = _small(rng, V, d).astype(rng.choice([np.float32, np.float64]))
    return E, [int(i) for i in rng.integers(0, V, size=int(rng.integers(1, 7)))]


def _random_one_hot(rng: np.random.Generator) -> tuple[Any, ...]:
    E, ids = _random_embed(rng)
    return E, ids[0]


def _random_logits(rng: np.random.Generator) -> tuple[Any, ...]:
    n, d, V = (int(x) for x in rng.integers(1, 7, size=3))
    return _small(rng, n, d), _small(rng, V, d)


def _random_softmax(rng: np.random.Generator) -> tuple[Any, ...]:
    shape = (int(rng.integers(1, 3)), int(rng.integers(1, 5)), int(rng.integers(2, 7)))[int(rng.integers(0, 3)) :]
    z = _small(rng, *shape) * 10.0 ** int(rng.integers(0, 4)) + float(rng.choice([0.0, 1000.0, -1000.0]))
    return (z,)


def _random_angle(rng: np.random.Generator) -> tuple[Any, ...]:
    """Any two vectors, or two a small angle apart (1e-6 to 1e-1 radians): no shortcut fits both."""
    d = int(rng.integers(2, 6))
    u, v = _small(rng, d), _small(rng, d)
    u[0], v[-1] = u[0] or 0.5, v[-1] or -0.5  # never the zero vector
    if rng.integers(0, 2):
        v = u + np.linalg.norm(u) * 10.0 ** rng.uniform(-6, -1) * v / np.linalg.norm(v)
    return u, v


def _random_bias(rng: np.random.Generator) -> tuple[Any, ...]:
    V, d = int(rng.integers(2, 8)), int(rng.integers(1, 5))
    return _small(rng, d) * int(rng.integers(0, 2)), _small(rng, V, d), _small(rng, V)


def _random_p_top(rng: np.random.Generator) -> tuple[Any, ...]:
    """t near 0, near ln n (where P0 turns), and far out: no asymptote holds in all three."""
    n = int(rng.integers(1, 100_000))
    centre, reach = [(0.0, 5.0), (math.log(n), 20.0), (0.0, 60.0)][int(rng.integers(0, 3))]
    return round(float(rng.uniform(centre - reach, centre + reach)), 2), n


def _random_gap(rng: np.random.Generator) -> tuple[Any, ...]:
    """p anywhere in (0, 1), near 0 and near 1 too (drawn in log-odds from -25 to 25)."""
    odds = float(rng.uniform(-25, 25))
    return float(1 / (1 + math.exp(-odds))), int(rng.integers(1, 100_000))


def _random_params(rng: np.random.Generator) -> tuple[Any, ...]:
    return (
        int(rng.integers(1, 300_000)),
        int(rng.integers(1, 8_192)),
        bool(rng.integers(0, 2)),
        bool(rng.integers(0, 2)),
    )


def _random_tied_grad(rng: np.random.Generator) -> tuple[Any, ...]:
    n, d, V = int(rng.integers(1, 6)), int(rng.integers(1, 5)), int(rng.integers(2, 8))
    return rng.integers(0, V, size=n), _small(rng, n, d), _small(rng, n, d), _small(rng, n, V), V


def _random_step(rng: np.random.Generator) -> tuple[Any, ...]:
    n, d, V = int(rng.integers(1, 7)), int(rng.integers(1, 5)), int(rng.integers(2, 8))
    return _small(rng, V, d), rng.integers(0, V, size=n), rng.integers(0, V, size=n)


_RANDOM: dict[str, Callable[[np.random.Generator], tuple[Any, ...]]] = {
    "embed_rows": _random_embed,
    "one_hot_lookup": _random_one_hot,
    "batch_logits": _random_logits,
    "stable_softmax": _random_softmax,
    "angle_between": _random_angle,
    "probs_with_bias": _random_bias,
    "p_top": _random_p_top,
    "logit_gap": _random_gap,
    "head_params": _random_params,
    "tied_E_grad": _random_tied_grad,
    "step_grad": _random_step,
}

# -- the tasks ------------------------------------------------------------------------------------------------

_FLOAT = _Spec("array", rtol=1e-9, atol=1e-12)

_TASKS: tuple[Task, ...] = (
    Task(
        "embed_rows",
        "A",
        "embed_rows(E, ids)",
        "the rows of E for the token ids in ids, one row per id, in order; an id outside [0, V) is refused",
        _Spec("array", same_dtype=True),
        lookup,
        _embed_rows_cases,
        (
            _Mistake("counted from 1", "Ids count from 0, so row i - 1 is the previous token's row.", _embed_from_one),
            _Mistake("columns", "E has one row per token: E[i], not E[:, i].", _embed_columns),
            _Mistake(
                "wraps negative ids",
                "NumPy reads E[-1] as the last row, without a word. Check 0 <= id < V and raise ValueError.",
                _embed_wraps,
            ),
            _Mistake(
                "float64 copy",
                "Building the rows anew (through Python floats, or with dtype=float) turns float32 into "
                "float64: index E itself.",
                _embed_float64,
            ),
        ),
    ),
    Task(
        "one_hot_lookup",
        "B",
        "one_hot_lookup(E, token_id)",
        "row token_id of E, computed as a one-hot vector of length V times E (no indexing into E)",
        _Spec("array", same_dtype=True),
        lookup,
        _one_hot_cases,
        (
            _Mistake("counted from 1", "The 1 goes at index token_id, counted from 0.", _one_hot_from_one),
            _Mistake(
                "E @ one_hot",
                _E_AT_X,
                _one_hot_right,
            ),
            _Mistake(
                "E @ one_hot",
                _E_AT_X,
                _one_hot_right_length_d,
            ),
            _Mistake("E @ one_hot", _E_AT_X, _one_hot_transposed),
            _Mistake(
                "float64 one-hot",
                "A one-hot vector in another dtype (float64 by default, or int) makes x @ E float64: "
                "pass dtype=E.dtype.",
                _one_hot_float64,
            ),
        ),
    ),
    Task(
        "batch_logits",
        "C",
        "batch_logits(H, E)",
        "the tied logits of a batch of contexts H (n, d) against every token of E (V, d), shape (n, V)",
        _FLOAT,
        tied_logits,
        _logits_cases,
        (
            _Mistake("E @ H.T", "That is the transpose: one row per context, so H @ E.T.", _logits_transposed_out),
            _Mistake(
                "H @ E", "E's rows are tokens, so the contexts meet E.T: H @ E.T, not H @ E.", _logits_untransposed
            ),
            _Mistake(
                "H @ E", "E's rows are tokens, so the contexts meet E.T: H @ E.T, not H @ E.", _logits_untransposed_dot
            ),
            _Mistake(
                "probabilities",
                "Those are probabilities: the logits come before the softmax.",
                _logits_probabilities,
            ),
        ),
    ),
    Task(
        "stable_softmax",
        "C",
        "stable_softmax(z)",
        "softmax along the last axis of z (any number of dimensions), with no NumPy warning even for logits of ±1000",
        _FLOAT,
        softmax,
        _softmax_cases,
        (
            _Mistake("mean shift", _MEAN_SHIFT, _softmax_mean),
            _Mistake("median shift", _MEAN_SHIFT, _softmax_median),
            _Mistake(
                "no shift",
                "np.exp(z) overflows for z near 1000 and underflows for z near -1000: subtract max(z) first.",
                _softmax_naive,
            ),
            _Mistake(
                "minus min", "Subtract the maximum, not the minimum: exponents must stay <= 0.", _softmax_minus_min
            ),
            _Mistake(
                "whole array",
                "The max and the sum run over the whole batch: use axis=-1 with keepdims=True.",
                _softmax_whole_array,
            ),
            _Mistake(
                "not normalised",
                "Those are exp(z - max): divide by their sum so each row adds to 1.",
                _softmax_unnormalised,
            ),
        ),
    ),
    Task(
        "angle_between",
        "D",
        "angle_between(u, v)",
        "the angle between u and v in degrees, from 0 to 180",
        _Spec("float", rtol=0.0, atol=1e-5, unit="degrees"),
        _angle_reference,
        _angle_cases,
        (
            _Mistake("radians", "np.arccos answers in radians: convert with np.degrees.", _angle_radians),
            _Mistake("no norms", "u·v alone is not cos θ: divide by |u| |v|.", _angle_no_norm),
            _Mistake(
                "NaN made 0",
                "Rounding pushed cos θ past -1 here, and the NaN (or math.acos's ValueError) was turned into 0: "
                "clip cos θ to [-1, 1] instead, and arccos gives 180.",
                _angle_nan_to_zero,
            ),
            _Mistake(
                "sign dropped",
                "A negative cos θ means an angle above 90 degrees: keep its sign (no abs, no clip at 0).",
                _angle_sign_dropped,
            ),
            _Mistake(
                "sign dropped",
                "A negative cos θ means an angle above 90 degrees: keep its sign (no abs, no clip at 0).",
                _angle_clipped_at_0,
            ),
            _Mistake(
                "no clip",
                "Rounding put cos θ just past ±1, and arccos of that is NaN: np.clip(cos, -1, 1).",
                _angle_no_clip,
            ),
        ),
    ),
    Task(
        "probs_with_bias",
        "E",
        "probs_with_bias(h, E, b)",
        "the probabilities softmax(h @ E.T + b) of a tied head with an output bias b (V,)",
        _FLOAT,
        _bias_reference,
        _bias_cases,
        (
            _Mistake(
                "bias forgotten",
                "Those are the probabilities without the bias: add b to the logits.",
                _bias_forgotten,
            ),
            _Mistake("bias after softmax", "The bias is added to the logits, before the softmax.", _bias_after),
            _Mistake("bias subtracted", "The bias is added: h @ E.T + b.", _bias_subtracted),
        ),
    ),
    Task(
        "p_top",
        "F",
        "p_top(t, n)",
        "P0, the probability of a token whose logit is t when n other tokens have logit 0, for any t",
        _Spec("float", rtol=1e-9, atol=1e-15),
        _p_top_reference,
        _p_top_cases,
        (
            _Mistake(
                "overflow",
                "exp(t) overflows for large t (and NaN follows): rewrite with exp(-|t|) on each side.",
                _p_top_naive,
            ),
            _Mistake("one other", "There are n others, each adding exp(0) = 1 to the sum: n, not 1.", _p_top_one_other),
            _Mistake(
                "counted itself",
                "n counts the other tokens; the top token is exp(t), not one more 1.",
                _p_top_counts_itself,
            ),
        ),
    ),
    Task(
        "logit_gap",
        "F",
        "logit_gap(p, n)",
        "the logit t that gives the top token probability p (0 < p < 1) when n other tokens have logit 0",
        _Spec("float", rtol=1e-9, atol=1e-9),
        _gap_reference,
        _gap_cases,
        (
            _Mistake(
                "one other",
                "That t suits one other token; with n others e^t must be n times larger: t = ln n + ln(p / (1 - p)).",
                _gap_one_other,
            ),
            _Mistake("log10", "Logits are natural logarithms: np.log, not np.log10.", _gap_log10),
            _Mistake(
                "counted itself", "n already counts the other tokens: n P0 / (1 - P0), not (n + 1).", _gap_counts_itself
            ),
        ),
    ),
    Task(
        "head_params",
        "G",
        "head_params(V, d, tied, bias)",
        "the parameters of the embedding table plus the output head, tied or untied, with or without an output bias",
        _Spec("int"),
        _params_reference,
        _params_cases,
        (
            _Mistake("tied counted twice", "Tied means one matrix: V d once, not twice.", _params_tied_twice),
            _Mistake("bias of d", "The bias adds one number per token, V of them, not d.", _params_bias_d),
            _Mistake("bias forgotten", "With bias=True, add the V entries of the output bias.", _params_no_bias),
        ),
    ),
    Task(
        "tied_E_grad",
        "H",
        "tied_E_grad(ids, upstream, h, grad_logits, V)",
        "the gradient of a tied E (V, d): the lookup's path (upstream (n, d) into the rows of ids) plus "
        "the head's path (grad_logits (n, V) against h (n, d))",
        _FLOAT,
        tied_grad,
        _tied_grad_cases,
        (
            _Mistake("head only", "That is the head's path alone: add the lookup's upstream rows.", _grad_output_only),
            _Mistake(
                "lookup only", "That is the lookup's path alone: add the head's grad_logits.T @ h.", _grad_input_only
            ),
            _Mistake(
                "assigned, not added",
                "G[ids] += upstream keeps one row of a repeated id: np.add.at(G, ids, upstream) adds every one.",
                _grad_assigned,
            ),
            _Mistake(
                "transposed", "h.T @ grad_logits is (d, V): the gradient of E is grad_logits.T @ h.", _grad_transposed
            ),
        ),
    ),
    Task(
        "step_grad",
        "I",
        "step_grad(E, ids, targets)",
        "the gradient with respect to E of the mean cross-entropy of a tied bigram model over n pairs: "
        "h = E[ids], logits = h @ E.T, and targets (n,) the next tokens",
        _FLOAT,
        _step_reference,
        _step_cases,
        (
            _Mistake("head only", "That is the head's path alone: E is also the lookup table.", _step_output_only),
            _Mistake("lookup only", "That is the lookup's path alone: E is also the head.", _step_input_only),
            _Mistake("summed, not averaged", "The loss is the mean over the n pairs: divide by n.", _step_summed),
            _Mistake(
                "assigned, not added",
                "G[ids] += ... keeps one row of a repeated id: np.add.at adds every one.",
                _step_assigned,
            ),
        ),
    ),
)

#: The functions a learner writes, by name, in the order of the worked examples.
TASKS: tuple[str, ...] = tuple(t.name for t in _TASKS)


def task(name: str) -> Task:
    """The exercise whose function is called ``name`` (one of :data:`TASKS`)."""
    if not issubclass(type(name), str):
        raise TypeError(f"name must be the name of an exercise's function (a str), got {_describe(name)}")
    name = str.__str__(name)  # a plain str: a subclass's own __eq__ never runs
    for t in _TASKS:
        if t.name == name:
            return t
    raise ValueError(f"name must be one of {list(TASKS)}, got {short_repr(name)}")


def check(fn: Callable[..., Any], name: str | None = None) -> Report:
    """Check the learner's function ``fn`` against embedlab, in this kernel, and report the first failing case.

    Parameters
    ----------
    fn : callable
        The learner's function. It is called on copies of each case's arguments; what it raises,
        warns or changes in place is reported, never re-raised (a ``KeyboardInterrupt``, the reader's
        own stop, passes through).
    name : str, optional
        Which exercise (one of :data:`TASKS`); by default ``fn.__name__``.

    Returns
    -------
    Report
        ``passed``, and for the first failing case its label, the expected and the returned
        value, what is wrong, and a hint aimed at the likely mistake.
    """
    if not callable(fn):
        raise TypeError(f"fn must be your function (a callable), got {_describe(fn)}")
    if name is None:
        try:
            name = fn.__name__
        except KeyboardInterrupt:  # the reader's own stop passes through
            raise
        except BaseException:  # a callable without a name, or whose attribute lookup fails
            name = None
        if type(name) is not str or name not in TASKS:
            raise ValueError(
                f"fn must be named after its exercise, one of {list(TASKS)}, got a function named "
                f"{short_repr(name)}: rename it or pass name="
            )
    return task(name).check(fn)
