"""Forecasts and graded exercises: one display object, live in JupyterLab and kernel-free in the book.

A :class:`Forecast` asks before the steps and keeps its reveal hidden until the learner answers;
an :class:`Exercise` grades a typed number or a picked answer, names the likely slip when a wrong
answer matches a known one, and shows its worked solution only on request.

Like :class:`embedlab.widgets.Explorer`, each object's ``_repr_mimebundle_`` returns the live
ipywidgets view (JupyterLab shows only that), a ``text/html`` form graded by an inline handler
(the book: no ``<script>``, no ids, no network) and a short ``text/plain``.

The grading rule exists twice, once here in Python (:func:`parse_number`, :func:`grade_number`,
:func:`grade_choice`, used by the live view and unit-tested) and once in the inline handler
``_GRADE_JS`` (used by the static page, tested in Chromium against the same cases). Every message
the learner can read is computed here and carried by the HTML's ``data-`` attributes, so both
views say the same words.
"""

from __future__ import annotations

import html
import itertools
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Real
from typing import Any

from ._validation import check_flag, check_format, exact_real, is_a, iter_items, plain_str, short_repr, type_name

__all__ = [
    "BLANK",
    "FORECAST_WRONG",
    "MAX_CHOICES",
    "MAX_SLIPS",
    "NOT_A_NUMBER",
    "NO_PERCENT",
    "PICK_ONE",
    "READ_DECIMAL",
    "READ_THOUSANDS",
    "RIGHT",
    "WRONG_CHOICE",
    "WRONG_NUMBER",
    "Exercise",
    "Forecast",
    "Grade",
    "Slip",
    "ambiguous_readings",
    "grade_choice",
    "grade_number",
    "is_blank",
    "parse_number",
    "within",
]


BLANK = "Type a number first (for example 0.42, .42, 42% or 4.2e-1)."
NOT_A_NUMBER = "That is not a number this page can read: try 0.42, .42, 42%, 4.2e-1 or 0,42."
PICK_ONE = "Pick one of the answers first."
WRONG_NUMBER = "Not yet. Check each step of your working and try again."
WRONG_CHOICE = "Not this one. Reread the question and try again."
RIGHT = "Right."
FORECAST_WRONG = "Not quite: see below."
#: Said after the verdict when "1,946" could be either number: what it was read as, and how to type the other.
READ_THOUSANDS = "(Read as {a}, the comma separating thousands; for {b}, type {b}.)"
READ_DECIMAL = "(Read as {b}, with a decimal comma.)"
#: A percentage is read only where the question asks for a fraction or a probability (``percent=True``).
NO_PERCENT = "Percentages are not read here: this answer is not a fraction or a probability. Give the value itself."

# One way to match each number (\d+(?:\.\d*)? never splits a run of digits two ways), so matching is linear.
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?"
_FULL = re.compile(rf"^({_NUMBER})(?:/({_NUMBER}))?$", re.IGNORECASE | re.ASCII)  # ASCII digits, as in JS
# 262,668,288 and 1,000e3 (but not 0,420)
_THOUSANDS = re.compile(r"^[+-]?[1-9]\d{0,2}(?:,\d{3})+(?:e[+-]?\d+)?$", re.ASCII | re.IGNORECASE)
_ONE_COMMA = re.compile(r"^[^,.]*,[^,.]*$")  # 0,42: a decimal comma
#: Spacing an answer may carry, written out: Python's and JavaScript's ``\s`` differ (U+FEFF, U+001C-U+001F,
#: U+0085), so both graders drop this one list: every character either calls space, and the underscore.
_SPACE_CHARS = "".join(
    sorted({c for c in map(chr, range(0x10000)) if c.isspace()} | set("\ufeff\u00a0\u1680\u2028\u2029\u205f\u3000_"))
)
_SPACE_CLASS = "[" + "".join(f"\\u{ord(c):04x}" for c in _SPACE_CHARS) + "]"  # the same text in both languages
_SPACES = re.compile(_SPACE_CLASS)
# 1,946 (or 1,946e3): thousands, or 1.946 with a comma
_AMBIGUOUS = re.compile(r"^[+-]?[1-9]\d{0,2},\d{3}(?:e[+-]?\d+)?%?$", re.ASCII | re.IGNORECASE)


#: Most choices a question may offer, and most slips it may name.
MAX_CHOICES = MAX_SLIPS = 100

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")  # what HTML rewrites or cannot hold


def parse_number(text: str) -> float | None:
    """Read a typed number the way the static page does; None when blank or not a number.

    Accepted: ``0.42``, ``.42``, ``42%`` (a percentage: 0.42), ``4.2e-1``, a decimal comma
    ``0,42``, thousands separated by commas, spaces or underscores (``262,668,288``), a Unicode
    minus, and a fraction of two numbers (``1/3``). A lone comma followed by exactly three
    digits after a non-zero integer part (``1,234``, ``1,234e3``) is read as a thousands separator. Inside a
    fraction there are no thousands separators: one comma is a decimal comma (``1,5/2`` and
    ``1,234/2`` are 0.75 and 0.617), and ``1,234,567/1000`` is not a number (type ``1234567/1000``).

    >>> [parse_number(t) for t in ["1,234", "1,234/2", "1,5/2", "1,234,567/1000"]]
    [1234.0, 0.617, 0.75, None]

    Examples
    --------
    >>> [parse_number(t) for t in ["0.42", ".42", "42%", "4.2e-1", "0,42", "1/4", "", "abc"]]
    [0.42, 0.42, 0.42, 0.42, 0.42, 0.25, None, None]
    """
    if not issubclass(type(text), str):
        raise TypeError(f"text must be a str, got {type_name(text)}")
    t = _SPACES.sub("", text).replace("\u2212", "-")
    if not t:
        return None
    percent = t.endswith("%")
    if percent:
        t = t[:-1]
    if _THOUSANDS.match(t):
        t = t.replace(",", "")
    elif _ONE_COMMA.match(t):
        t = t.replace(",", ".")
    m = _FULL.match(t)
    if not m:
        return None
    x = float(m.group(1))
    if m.group(2) is not None:
        q = float(m.group(2))
        if q == 0:
            return None
        x = x / q
    if percent:
        x = x / 100
    return x if math.isfinite(x) else None


def ambiguous_readings(text: str) -> tuple[str, str] | None:
    """The two ways to read an entry such as ``1,946``: (thousands, decimal comma); None if unambiguous.

    Examples
    --------
    >>> ambiguous_readings("1,946"), ambiguous_readings("0,42"), ambiguous_readings("262,668,288")
    (('1946', '1.946'), None, None)
    """
    _check_text(text)
    t = _SPACES.sub("", text).replace("\u2212", "-")
    if not _AMBIGUOUS.match(t):
        return None
    return t.replace(",", ""), t.replace(",", ".")


def _finite(x: Any, name: str) -> float:
    """``x`` as a finite float: a plain number (not a bool, not a str), so both graders read it alike."""
    if issubclass(type(x), bool) or not is_a(x, Real) or type_name(x) == "bool_":
        raise TypeError(f"{name} must be a finite number, got {short_repr(x)}")
    x = exact_real(x, name)
    try:
        value = float(x)
    except OverflowError:
        raise ValueError(f"{name} must be a finite number of float size, got {short_repr(x)}") from None
    if not math.isfinite(value):
        if math.isinf(value) and not x == value:  # a finite longdouble beyond float64's range
            raise ValueError(f"{name} must be a finite number of float size, got {short_repr(x)}")
        raise ValueError(f"{name} must be a finite number, got {short_repr(value)}")
    return value


def is_blank(text: str) -> bool:
    """Whether ``text`` holds nothing but spacing characters (the page's grader reads it alike)."""
    _check_text(text)
    return not _SPACES.sub("", text)


def _check_text(text: Any) -> None:
    if not issubclass(type(text), str):
        raise TypeError(f"text must be a str, got {type_name(text)}")


def within(x: float, target: float, abs_tol: float, rel_tol: float = 0.0) -> bool:
    """``|x - target| <= max(abs_tol, rel_tol * |target|)``, with a hair of slack for rounding.

    Where ``x - target`` overflows (two numbers near float64's largest, of opposite signs), every
    term is halved first, which is exact there, so the comparison is of finite numbers. The page's
    grader follows the same rule.
    """
    x, target = _finite(x, "x"), _finite(target, "target")
    abs_tol, rel_tol = _finite(abs_tol, "abs_tol"), _finite(rel_tol, "rel_tol")
    if abs_tol < 0 or rel_tol < 0:
        raise ValueError(f"abs_tol and rel_tol must be >= 0, got {short_repr(abs_tol)} and {short_repr(rel_tol)}")
    if math.isinf(x - target):
        x, target, abs_tol = x / 2, target / 2, abs_tol / 2
    return abs(x - target) <= max(abs_tol, rel_tol * abs(target)) * (1 + 1e-9)


@dataclass(frozen=True)
class Slip:
    """A known wrong answer (a number, or the text of a wrong choice) and what to tell the learner."""

    value: float | str
    feedback: str


@dataclass(frozen=True)
class Grade:
    """The verdict on one answer: ``status`` is right, slip, wrong, blank or nan."""

    status: str
    message: str

    @property
    def right(self) -> bool:
        return self.status == "right"

    @property
    def answered(self) -> bool:
        """Whether the answer counts as a committed guess (not blank, not unreadable)."""
        return self.status in ("right", "slip", "wrong")


def _check_messages(slips: Any, right: Any, wrong: Any) -> tuple[Slip, ...]:
    """The graders' shared arguments: a sequence of Slip with str feedback, and str messages."""
    for name, value in (("right", right), ("wrong", wrong)):
        if not issubclass(type(value), str):
            raise TypeError(f"{name} must be a str, got {short_repr(value)}")
    if issubclass(type(slips), (str, bytes, Slip, dict)) or not issubclass(type(slips), (list, tuple)):
        raise TypeError(f"slips must be a list or tuple of Slip, got {short_repr(slips)}")
    slips = tuple(itertools.islice(iter_items(slips, "slips", "a list or tuple of Slip"), MAX_SLIPS + 1))
    if len(slips) > MAX_SLIPS:
        raise ValueError(f"slips must hold at most {MAX_SLIPS} slips")
    for slip in slips:
        if not issubclass(type(slip), Slip) or not issubclass(type(slip.feedback), str):
            raise TypeError(f"slips must hold Slip(value, feedback) with a str feedback, got {short_repr(slip)}")
    for name, value in (("right", right), ("wrong", wrong), *(("a slip's feedback", s.feedback) for s in slips)):
        _check_page_text(value, name)  # shown by the page too: text HTML would rewrite is refused
    # Values and feedback as what they hold (a subclass's own +, format or __float__ never runs).
    return tuple(Slip(_plain_value(s.value), plain_str(s.feedback)) for s in slips)


def _plain_value(value: Any) -> Any:
    """A slip's value as the plain str or number it holds; anything else as it is (refused later by name)."""
    if issubclass(type(value), str):
        return plain_str(value)
    if is_a(value, Real) and not issubclass(type(value), bool) and type_name(value) != "bool_":
        return exact_real(value, "a slip's value")
    return value


def _check_page_text(value: Any, name: str) -> str:
    """A choice (or a message) as the page will hold it: a str without control characters, which HTML
    would rewrite (a carriage return becomes a line feed, NUL becomes U+FFFD), so the two graders would
    differ."""
    if not issubclass(type(value), str):
        raise TypeError(f"{name} must be a str, got {short_repr(value)}")
    bad = _CONTROL.search(value)
    if bad:
        raise ValueError(
            f"{name} must not hold control characters (the page's HTML would rewrite them), "
            f"got U+{ord(bad.group()):04X} in {short_repr(value)}"
        )
    return value


def grade_number(
    text: str,
    answer: float,
    *,
    abs_tol: float,
    rel_tol: float = 0.0,
    slips: Sequence[Slip] = (),
    right: str = RIGHT,
    wrong: str = WRONG_NUMBER,
    percent: bool = True,
) -> Grade:
    """Grade a typed number against ``answer`` (see :func:`within`); slips are matched with the same tolerance.

    With ``percent=False`` (an answer that is not a fraction or a probability) an entry ending in
    ``%`` is not graded right: it gets its slip's feedback if its value matches a slip (``50%``
    for a fraction saved), else the prompt :data:`NO_PERCENT`.

    Examples
    --------
    >>> grade_number("42%", 0.4233, abs_tol=0.005).status
    'right'
    >>> grade_number("0.95", 0.0233, abs_tol=0.001, slips=[Slip(0.95, "That is the draft's sum.")]).message
    "That is the draft's sum."
    >>> grade_number("", 1.0, abs_tol=0.1).status, grade_number("abc", 1.0, abs_tol=0.1).status
    ('blank', 'nan')
    """
    percent = check_flag(percent, "percent")  # NumPy's bool too, as a plain bool
    answer = _finite(answer, "answer")
    abs_tol, rel_tol = _finite(abs_tol, "abs_tol"), _finite(rel_tol, "rel_tol")
    if abs_tol < 0 or rel_tol < 0:
        raise ValueError(f"abs_tol and rel_tol must be >= 0, got {short_repr(abs_tol)} and {short_repr(rel_tol)}")
    slips = _check_messages(slips, right, wrong)
    right, wrong = plain_str(right), plain_str(wrong)
    for slip in slips:
        _finite(slip.value, "a slip's value")
    _check_text(text)
    if is_blank(text):
        return Grade("blank", BLANK)
    x = parse_number(text)
    if x is None:
        return Grade("nan", NOT_A_NUMBER)
    if not percent and _SPACES.sub("", text).endswith("%"):
        for slip in slips:
            if within(x, float(slip.value), abs_tol, rel_tol):
                return Grade("slip", slip.feedback)
        return Grade("nan", NO_PERCENT)
    readings = ambiguous_readings(text)
    if readings is None:
        return _grade_value(x, answer, abs_tol, rel_tol, slips, right, wrong, "")
    # "1,946": both readings are graded, and the feedback says which was used. A right reading wins
    # (thousands first), then a slip (thousands first); a wrong entry is reported as read in thousands.
    a, b = readings
    graded = [_grade_value(x, answer, abs_tol, rel_tol, slips, right, wrong, " " + READ_THOUSANDS.format(a=a, b=b))]
    decimal = parse_number(b)
    if decimal is not None:
        note = " " + READ_DECIMAL.format(b=b)
        graded.append(_grade_value(decimal, answer, abs_tol, rel_tol, slips, right, wrong, note))
    for status in ("right", "slip"):
        for g in graded:
            if g.status == status:
                return g
    return graded[0]


def _grade_value(
    x: float, answer: float, abs_tol: float, rel_tol: float, slips: Sequence[Slip], right: str, wrong: str, note: str
) -> Grade:
    if within(x, answer, abs_tol, rel_tol):
        return Grade("right", right + note)
    for slip in slips:
        if within(x, float(slip.value), abs_tol, rel_tol):
            return Grade("slip", slip.feedback + note)
    return Grade("wrong", wrong + note)


def grade_choice(
    choice: str | None,
    answer: str,
    *,
    slips: Sequence[Slip] = (),
    right: str = RIGHT,
    wrong: str = WRONG_CHOICE,
) -> Grade:
    """Grade a picked choice (None when nothing is picked).

    Examples
    --------
    >>> grade_choice("dog", "cat", slips=[Slip("dog", "Compare dot products, not angles.")]).status
    'slip'
    """
    _check_page_text(answer, "answer")
    slips = _check_messages(slips, right, wrong)
    right, wrong = plain_str(right), plain_str(wrong)
    for slip in slips:
        _check_page_text(slip.value, "a slip's value")
    if choice is None:
        return Grade("blank", PICK_ONE)
    if not issubclass(type(choice), str):
        raise TypeError(f"choice must be a str or None, got {short_repr(choice)}")
    choice, answer = plain_str(choice), plain_str(answer)  # compared as the text they hold
    if choice == answer:
        return Grade("right", right)
    for slip in slips:
        if plain_str(slip.value) == choice:
            return Grade("slip", slip.feedback)
    return Grade("wrong", wrong)


# The static page's grader: the same rule as parse_number/grade_number/grade_choice, reading the
# answer, tolerances, slips and every message from the question's data- attributes.
_PARSE_JS = (
    "function(x){var t=x.replace(/" + _SPACE_CLASS + "/g,'').replace(/\\u2212/g,'-');"
    "if(t==='')return null;var pc=t.slice(-1)==='%';if(pc)t=t.slice(0,-1);"
    "if(/^[+-]?[1-9]\\d{0,2}(?:,\\d{3})+(?:e[+-]?\\d+)?$/i.test(t))t=t.replace(/,/g,'');"
    "else if(/^[^,.]*,[^,.]*$/.test(t))t=t.replace(',','.');"
    "var N='[+-]?(?:\\\\d+(?:\\\\.\\\\d*)?|\\\\.\\\\d+)(?:e[+-]?\\\\d+)?',"
    "m=new RegExp('^('+N+')(?:/('+N+'))?$','i').exec(t);if(!m)return NaN;"
    "var v=Number(m[1]);if(m[2]!==undefined){var q=Number(m[2]);if(q===0)return NaN;v=v/q;}"
    "if(pc)v=v/100;return isFinite(v)?v:NaN;}"
)
_GRADE_JS = (
    "var q=this.closest('.embedlab-quiz'),d=q.dataset,s,m=null;"
    "function w(x,a){var t=Number(d.abs);if(Math.abs(x-a)===Infinity){x/=2;a/=2;t/=2;}"
    "return Math.abs(x-a)<=Math.max(t,Number(d.rel)*Math.abs(a))*(1+1e-9);}"
    "var sl=JSON.parse(d.slips);"
    "function G(x,n){if(w(x,Number(d.answer)))return['right',d.right+n];"
    "for(var i=0;i<sl.length;i++){if(w(x,Number(sl[i][0])))return['slip',sl[i][1]+n];}return['wrong',d.wrong+n];}"
    "if(d.kind==='number'){var P=" + _PARSE_JS + ",raw=q.querySelector('input[type=text]').value,x=P(raw),g;"
    "var c=raw.replace(/" + _SPACE_CLASS + "/g,'').replace(/\\u2212/g,'-');"
    "if(x===null)s='blank';else if(isNaN(x))s='nan';"
    "else if(c.slice(-1)==='%'&&d.pct!=='1'){s='nan';m=d.nopct;"
    "for(var k=0;k<sl.length;k++){if(w(x,Number(sl[k][0]))){s='slip';m=sl[k][1];break;}}}"
    "else if(/^[+-]?[1-9]\\d{0,2},\\d{3}(?:e[+-]?\\d+)?%?$/i.test(c)){"
    "var ra=c.replace(',',''),rb=c.replace(',','.'),xd=P(rb);"
    "var gs=[G(x,' '+d.readk.split('{a}').join(ra).split('{b}').join(rb))];"
    "if(xd!==null&&!isNaN(xd))gs.push(G(xd,' '+d.readd.split('{b}').join(rb)));g=gs[0];"
    "for(var k=gs.length-1;k>=0;k--){if(gs[k][0]==='slip')g=gs[k];}"
    "for(k=gs.length-1;k>=0;k--){if(gs[k][0]==='right')g=gs[k];}"
    "s=g[0];m=g[1];}"
    "else{g=G(x,'');s=g[0];m=g[1];}}"
    "else{var c=q.querySelector('input[type=radio]:checked');if(!c)s='blank';"
    "else if(c.value===d.answer)s='right';"
    "else{s='wrong';for(var j=0;j<sl.length;j++){if(sl[j][0]===c.value){s='slip';m=sl[j][1];break;}}}}"
    "var f=q.querySelector('.embedlab-quiz-feedback');f.textContent=(m===null?d[s]:m);f.dataset.status=s;"
    "if(s==='right'||s==='slip'||s==='wrong'){var r=q.querySelector('.embedlab-quiz-reveal');"
    "if(r){r.querySelector('.embedlab-quiz-verdict').textContent=d['v'+s];r.hidden=false;r.style.display='';}"
    "var b=q.querySelector('.embedlab-quiz-show');if(b){b.hidden=false;b.style.display='';}}"
    "return false;"
)
_SHOW_JS = (
    "var q=this.closest('.embedlab-quiz'),o=q.querySelector('.embedlab-quiz-solution');"
    "o.hidden=false;o.style.display='';"
    "this.setAttribute('aria-expanded','true');return false;"
)


class _Question:
    """What a forecast and an exercise share: the question, its control, its grading, both views."""

    kind_label = "Question"

    def __init__(
        self,
        question: str,
        answer: float | str,
        *,
        choices: Sequence[str] | None = None,
        abs_tol: float | None = None,
        rel_tol: float = 0.0,
        unit: str = "",
        fmt: str = "{:.4g}",
        slips: Sequence[Slip] = (),
        wrong: str | None = None,
        title: str = "",
        percent: bool = False,
    ) -> None:
        if not issubclass(type(question), str):
            raise TypeError(f"question must be a non-empty str, got {short_repr(question)}")
        question = plain_str(question)  # every text field as the text it holds: a subclass's own methods never run
        if not question.strip():
            raise ValueError("question must be a non-empty str")
        percent = check_flag(percent, "percent")  # NumPy's bool too, as a plain bool
        for field, value in (("title", title), ("unit", unit), ("fmt", fmt)):
            if not issubclass(type(value), str):
                raise TypeError(f"{field} must be a str, got {short_repr(value)}")
        if wrong is not None and not issubclass(type(wrong), str):
            raise TypeError(f"wrong must be a str or None, got {short_repr(wrong)}")
        title, unit, fmt, wrong = plain_str(title), plain_str(unit), plain_str(fmt), plain_str(wrong)
        if wrong is not None:
            _check_page_text(wrong, "wrong")
        if choices is not None:
            if issubclass(type(choices), (str, bytes)) or not hasattr(choices, "__iter__"):
                raise TypeError(f"choices must be a sequence of str, got {short_repr(choices)}")
            items = iter_items(choices, "choices", "a sequence of str")  # a failing iterator refused by name
            choices = tuple(itertools.islice(items, MAX_CHOICES + 1))
            if len(choices) > MAX_CHOICES:
                raise ValueError(f"choices must hold at most {MAX_CHOICES} choices")
            for choice in choices:
                if not issubclass(type(choice), str):
                    raise TypeError(f"choices must be a sequence of str, got an item {short_repr(choice)}")
                _check_page_text(choice, "choices")
        slips = _check_messages(slips, RIGHT, "")
        self.percent = percent  # whether "42%" is read as 0.42: only for a fraction or a probability
        self.question = question
        self.title = title
        self.choices = tuple(plain_str(c) for c in choices) if choices is not None else None  # the text they hold
        self.slips = tuple(slips)
        self.unit = unit
        self.fmt = fmt
        if self.choices is not None:
            if len(self.choices) < 2 or len(set(self.choices)) != len(self.choices):
                raise ValueError(f"choices must be at least two distinct strings, got {short_repr(self.choices)}")
            if not issubclass(type(answer), str):
                raise TypeError(f"answer must be one of the choices (a str), got {short_repr(answer)}")
            answer = plain_str(answer)  # the text it holds, as the choices are read
            if answer not in self.choices:
                raise ValueError(
                    f"answer must be one of the choices {short_repr(self.choices)}, got {short_repr(answer)}"
                )
            for slip in self.slips:
                if type(slip.value) is not str:
                    raise TypeError(f"a slip must name a wrong choice (a str), got {short_repr(slip.value)}")
                if slip.value not in self.choices or slip.value == answer:
                    raise ValueError(f"a slip must name a wrong choice, got {short_repr(slip.value)}")
            self.answer: float | str = answer
            self.abs_tol, self.rel_tol = 0.0, 0.0
            self.wrong = wrong or WRONG_CHOICE
        else:
            self.answer = _finite(answer, "answer")
            if abs_tol is None:
                raise ValueError("a numeric question needs a stated tolerance: abs_tol >= 0 (and rel_tol >= 0)")
            self.abs_tol, self.rel_tol = _finite(abs_tol, "abs_tol"), _finite(rel_tol, "rel_tol")
            if self.abs_tol < 0 or self.rel_tol < 0:
                raise ValueError(
                    f"abs_tol and rel_tol must be >= 0, got {short_repr(self.abs_tol)} and {short_repr(self.rel_tol)}"
                )
            for slip in self.slips:
                if not issubclass(type(slip), Slip):
                    raise TypeError(f"slips must hold Slip objects, got {short_repr(slip)}")
                _finite(slip.value, "a slip's value")
            for slip in self.slips:
                if within(float(slip.value), self.answer, self.abs_tol, self.rel_tol):
                    raise ValueError(
                        f"slip {short_repr(slip.value)} would be graded right: it lies within the tolerance"
                    )
            self.wrong = wrong or WRONG_NUMBER
            check_format(fmt, "fmt")
            try:
                shown = fmt.format(self.answer)
            except (ValueError, KeyError, IndexError, AttributeError, TypeError) as exc:
                raise ValueError(f"fmt must format the answer, got {short_repr(fmt)} ({type_name(exc)})") from None
            if not issubclass(type(shown), str):
                raise TypeError(f"fmt must format the answer as a str, got {short_repr(fmt)}")
            # the answer as shown is part of the page's messages: text HTML would rewrite is refused here
            _check_page_text(shown, "fmt (the answer as it formats it)")
            _check_page_text(unit, "unit")
        self._widget: Any = None

    def __setattr__(self, name: str, value: Any) -> None:
        # a field, once set, stays as checked: the grader, the page's grader and the views are made from it
        if not name.startswith("_") and (name in self.__dict__ or hasattr(type(self), name)):
            raise AttributeError(f"{type(self).__name__}.{name} is read-only; make a new {type(self).__name__} instead")
        object.__setattr__(self, name, value)

    def __getstate__(self) -> dict[str, Any]:
        # a copy or a pickle holds the question, not its live view: widgets cannot be copied, and a copy
        # shown makes a view of its own
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")} | {"_widget": None}

    def __delattr__(self, name: str) -> None:
        if not name.startswith("_"):
            raise AttributeError(f"{type(self).__name__}.{name} is read-only; make a new {type(self).__name__} instead")
        object.__delattr__(self, name)

    # -- grading (the live view calls this; the static page runs _GRADE_JS) ---------------------
    @property
    def is_choice(self) -> bool:
        return self.choices is not None

    @property
    def right_text(self) -> str:
        return RIGHT

    def grade(self, response: str | None) -> Grade:
        """Grade a typed text (numeric question) or a picked choice (None: nothing picked)."""
        if response is not None and not issubclass(type(response), str):
            raise TypeError(f"response must be a str (or None: nothing given), got {type_name(response)}")
        if self.is_choice:
            return grade_choice(
                plain_str(response), plain_str(self.answer), slips=self.slips, right=self.right_text, wrong=self.wrong
            )
        return grade_number(
            plain_str(response) or "",
            float(self.answer),
            abs_tol=self.abs_tol,
            rel_tol=self.rel_tol,
            slips=self.slips,
            right=self.right_text,
            wrong=self.wrong,
            percent=self.percent,
        )

    @property
    def answer_text(self) -> str:
        if self.is_choice:
            return str(self.answer)
        return self.fmt.format(self.answer) + (f" {self.unit}" if self.unit else "")

    @property
    def tolerance_text(self) -> str:
        """The stated grading rule, shown under a numeric question."""
        if self.is_choice:
            return ""
        if self.rel_tol and self.rel_tol * abs(float(self.answer)) >= self.abs_tol:
            if self.rel_tol >= 1:  # a percentage past 100 says less (and 100 times a huge one overflows)
                return f"Graded right within {self.rel_tol:g} times the size of the answer."
            return f"Graded right within {self.rel_tol * 100:g}% of the answer."
        if self.abs_tol == 0:
            return "Graded right only when exact."
        if self.abs_tol < 1:
            return f"Graded right within ±{self.abs_tol:g}."
        return f"Graded right within ±{self.abs_tol:,g}."

    # -- the pieces each view adds ----------------------------------------------------------------
    def _verdicts(self) -> dict[str, str]:
        return {}

    def _extra_html(self) -> str:
        return ""

    def _extra_widgets(self, w: Any) -> list[Any]:
        return []

    def _after_grade(self, grade: Grade) -> None:
        pass

    # -- static view --------------------------------------------------------------------------
    def to_html(self) -> str:
        """Self-contained HTML graded by an inline handler: no script, no ids, no network."""
        esc = html.escape
        data = {
            "kind": "choice" if self.is_choice else "number",
            "answer": str(self.answer) if self.is_choice else repr(float(self.answer)),
            "abs": repr(self.abs_tol),
            "rel": repr(self.rel_tol),
            "slips": json.dumps([[s.value if self.is_choice else float(s.value), s.feedback] for s in self.slips]),
            "right": self.right_text,
            "wrong": self.wrong,
            "blank": PICK_ONE if self.is_choice else BLANK,
            "nan": NOT_A_NUMBER,
        }
        if not self.is_choice:
            data.update(
                {
                    "readk": READ_THOUSANDS,
                    "readd": READ_DECIMAL,
                    "nopct": NO_PERCENT,
                    "pct": "1" if self.percent else "0",
                }
            )
        data.update(self._verdicts())
        attrs = " ".join(f'data-{k}="{esc(v)}"' for k, v in data.items())
        label = self.title or self.kind_label
        parts = [
            f'<div class="embedlab-quiz embedlab-{self.kind_label.lower()}" role="group" '
            f'aria-label="{esc(label)}" {attrs}>',
            f'<form class="embedlab-quiz-form" onsubmit="{esc(_GRADE_JS)}">',
        ]
        if self.title:
            parts.append(f'<p class="embedlab-quiz-title"><strong>{esc(self.title)}</strong></p>')
        if self.is_choice:
            question = _paragraphs(self.question, "span")
            parts.append(f'<fieldset><legend class="embedlab-quiz-question">{question}</legend>')
            for choice in self.choices or ():
                parts.append(
                    f'<label class="embedlab-quiz-choice"><input type="radio" name="embedlab-choice" '
                    f'value="{esc(choice)}"> {esc(choice)}</label>'
                )
            parts.append("</fieldset>")
        else:
            parts.append(f'<div class="embedlab-quiz-question">{_paragraphs(self.question)}</div>')
            unit = f" ({esc(self.unit)})" if self.unit else ""
            parts.append(
                f'<label class="embedlab-quiz-answer">Your answer{unit} '
                '<input type="text" inputmode="decimal" autocomplete="off" spellcheck="false"></label>'
            )
            parts.append(f'<p class="embedlab-quiz-tolerance">{esc(self.tolerance_text)}</p>')
        parts.append(f'<button type="submit" class="embedlab-quiz-check">{esc(self._check_label())}</button>')
        parts.append("</form>")
        parts.append('<p class="embedlab-quiz-feedback" role="status" aria-live="polite"></p>')
        parts.append(self._extra_html())
        parts.append("</div>")
        return "\n".join(p for p in parts if p)

    def _check_label(self) -> str:
        return "Check"

    # -- live view ----------------------------------------------------------------------------
    def widget(self) -> Any:
        """The ipywidgets view: the control, a Check button, the feedback, and what follows an answer."""
        if self._widget is not None:
            return self._widget
        import ipywidgets as w

        title = [w.HTML(f'<p class="embedlab-quiz-title"><strong>{html.escape(self.title)}</strong></p>')]
        question = w.HTML(f'<div class="embedlab-quiz-question">{_paragraphs(self.question)}</div>')
        if self.is_choice:
            self._control = w.RadioButtons(options=list(self.choices or ()), value=None, layout=w.Layout(width="auto"))
            control: list[Any] = [self._control]
        else:
            self._control = w.Text(
                value="",
                placeholder="a number, e.g. 0.42",
                description="Your answer" + (f" ({self.unit})" if self.unit else ""),
                continuous_update=False,
                style={"description_width": "initial"},
            )
            self._control.observe(lambda change: self.check(), names="value")  # Enter (or leaving the box)
            tolerance = w.HTML(f'<p class="embedlab-quiz-tolerance">{html.escape(self.tolerance_text)}</p>')
            control = [self._control, tolerance]
        button = w.Button(description=self._check_label(), button_style="primary")
        button.on_click(lambda _: self.check())
        self._feedback = w.HTML(value=_feedback_html(None))
        head = [*(title if self.title else []), question]
        box = w.VBox([*head, *control, button, self._feedback, *self._extra_widgets(w)])
        box.add_class("embedlab-quiz-live")
        self._widget = box
        return box

    def check(self, response: str | None = None) -> Grade:
        """Grade the live control's value (or ``response``), show the feedback, return the grade."""
        if response is None and self._widget is not None:
            response = self._control.value
        grade = self.grade(response)
        if self._widget is not None:
            self._feedback.value = _feedback_html(grade)
        self._after_grade(grade)
        return grade

    def __repr__(self) -> str:
        kind = "choose one of " + ", ".join(self.choices) if self.choices else "type a number"
        head = f"{self.kind_label}: {self.title}. " if self.title else f"{self.kind_label}: "
        return f"{head}{self.question} ({kind})"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        bundle: dict[str, Any] = {"text/plain": repr(self), "text/html": self.to_html()}
        try:
            view = self.widget()._repr_mimebundle_()
        except Exception:  # no kernel with a widget comm: the static form still shows
            view = None
        if view:
            bundle.update({k: v for k, v in view.items() if k != "text/plain"})
        return bundle


class Forecast(_Question):
    """A guess committed before the steps; its reveal stays hidden until the learner answers.

    Parameters
    ----------
    question : str
        Asked before any step; must not be answered by anything printed or stated above it.
    answer : float or str
        The right number, or the right choice (one of ``choices``).
    trap : str
        Names the tempting wrong guess and why it tempts.
    settles : str
        Where the notebook settles it, e.g. "Step 2 computes all four logits."
    choices : sequence of str, optional
        For a multiple-choice forecast; otherwise the learner types a number.
    abs_tol, rel_tol : float
        Tolerance of a numeric forecast (stated to the learner).
    percent : bool, default False
        Whether ``42%`` is read as 0.42: set it for a fraction or a probability only.
    slips : sequence of Slip
        Feedback for particular wrong answers (a wrong choice, or a number from a known slip).

    The reveal (verdict, trap, where it is settled) appears after the first readable answer,
    right or wrong; a blank or unreadable answer gets a prompt and keeps it hidden.
    """

    kind_label = "Forecast"

    def __init__(self, question: str, answer: float | str, *, trap: str, settles: str, **kwargs: Any) -> None:
        kwargs.setdefault("wrong", FORECAST_WRONG)
        super().__init__(question, answer, **kwargs)
        for field, value in (("trap", trap), ("settles", settles)):
            if not issubclass(type(value), str):
                raise TypeError(f"{field} must be a str, got {short_repr(value)}")
        trap, settles = plain_str(trap), plain_str(settles)
        if not trap.strip() or not settles.strip():
            raise ValueError("a forecast needs trap (the common wrong guess and why) and settles (the step)")
        self.trap, self.settles = trap, settles

    @property
    def right_text(self) -> str:
        return f"Right: {self.answer_text}."

    def _check_label(self) -> str:
        return "Commit my forecast"

    def _verdicts(self) -> dict[str, str]:
        told = f"The answer is {self.answer_text}."
        return {"vright": f"You were right: {self.answer_text}.", "vslip": told, "vwrong": told}

    def verdict(self, grade: Grade) -> str:
        """What the reveal says after a committed answer: ``grade`` is what :meth:`grade` returned for it."""
        if type(grade) is not Grade:
            raise TypeError(f"grade must be a Grade, as grade() returns, got {type_name(grade)}")
        status = grade.status
        if type(status) is not str or status not in ("right", "slip", "wrong"):  # a plain str: no caller's own +
            raise ValueError(
                "grade must be of a committed answer (right, slip or wrong): the reveal stays hidden for any "
                f"other, got status {short_repr(status)}"
            )
        return self._verdicts()["v" + status]

    def _reveal_body(self) -> str:
        esc = html.escape
        return (
            f'<p class="embedlab-quiz-trap">{esc(self.trap)}</p>'
            f'<p class="embedlab-quiz-settles"><strong>Where it is settled:</strong> {esc(self.settles)}</p>'
        )

    def _extra_html(self) -> str:
        return (
            '<div class="embedlab-quiz-reveal" hidden style="display:none"><p class="embedlab-quiz-verdict"></p>'
            f"{self._reveal_body()}</div>"
        )

    def _extra_widgets(self, w: Any) -> list[Any]:
        self._reveal = w.HTML(value="", layout=w.Layout(display="none"))
        self._reveal.add_class("embedlab-quiz-reveal")
        return [self._reveal]

    def _after_grade(self, grade: Grade) -> None:
        if grade.answered and self._widget is not None:
            self._reveal.value = (
                f'<p class="embedlab-quiz-verdict">{html.escape(self.verdict(grade))}</p>{self._reveal_body()}'
            )
            self._reveal.layout.display = None


class Exercise(_Question):
    """A graded exercise: a typed number or a picked answer, slip feedback, and a worked solution on request.

    Parameters
    ----------
    question, answer, choices, abs_tol, rel_tol, unit, fmt, slips
        As for :class:`Forecast`.
    solution : str
        The worked solution (paragraphs separated by blank lines), hidden until "Show answer".
    title : str
        E.g. "C2 · Probability of the winner".
    misconception : str, optional
        The misconception the exercise aims at (for the notes and the exercise list).
    cell : str
        The scenario-matrix cell it covers, "A" to "H".
    wrong : str, optional
        The generic hint for a wrong answer that matches no slip (must not give the answer away).
    """

    kind_label = "Exercise"

    def __init__(
        self,
        question: str,
        answer: float | str,
        *,
        solution: str,
        cell: str = "",
        misconception: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(question, answer, **kwargs)
        for field, value in (("solution", solution), ("cell", cell)):
            if not issubclass(type(value), str):
                raise TypeError(f"{field} must be a str, got {short_repr(value)}")
        if misconception is not None and not issubclass(type(misconception), str):
            raise TypeError(f"misconception must be a str or None, got {short_repr(misconception)}")
        self.solution, self.cell, self.misconception = plain_str(solution), plain_str(cell), plain_str(misconception)

    def _solution_html(self) -> str:
        return (
            f'<p class="embedlab-quiz-answer-text"><strong>Answer:</strong> {html.escape(self.answer_text)}</p>'
            f"{_paragraphs(self.solution)}"
        )

    def _extra_html(self) -> str:
        return (
            '<button type="button" class="embedlab-quiz-show" aria-expanded="false" hidden style="display:none" '
            f'onclick="{html.escape(_SHOW_JS)}">Show answer</button>'
            f'<div class="embedlab-quiz-solution" hidden style="display:none">{self._solution_html()}</div>'
        )

    def _extra_widgets(self, w: Any) -> list[Any]:
        show = w.Button(description="Show answer", layout=w.Layout(display="none"))
        self._show = show
        self._solution = w.HTML(value="", layout=w.Layout(display="none"))
        self._solution.add_class("embedlab-quiz-solution")

        def reveal(_: Any) -> None:
            self._solution.value = self._solution_html()
            self._solution.layout.display = None

        show.on_click(reveal)
        return [show, self._solution]

    def _after_grade(self, grade: Grade) -> None:
        if grade.answered and self._widget is not None:
            self._show.layout.display = None  # the answer can be revealed once the learner has tried


def _paragraphs(text: str, tag: str = "p") -> str:
    """Plain text to HTML: blank lines separate paragraphs, single newlines are kept as line breaks."""
    paras = [p.strip() for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]
    return "".join(f"<{tag}>{html.escape(p).replace(chr(10), '<br>')}</{tag}>" for p in paras)


def _feedback_html(grade: Grade | None) -> str:
    status = f' data-status="{grade.status}"' if grade else ""
    text = html.escape(grade.message) if grade else ""
    return f'<p class="embedlab-quiz-feedback" role="status" aria-live="polite"{status}>{text}</p>'
