"""Typed answers shared by the Python grading tests and the static page's grading in Chromium.

Both graders must read each text as the same number (None: blank or not a number).
"""

PARSE_CASES: list[tuple[str, float | None]] = [
    ("0.42", 0.42),
    (".42", 0.42),
    ("42%", 0.42),
    ("4.2e-1", 0.42),
    ("4.2E-1", 0.42),
    ("0,42", 0.42),
    (" 0.42 ", 0.42),
    ("+0.42", 0.42),
    ("\u22120.42", -0.42),  # a Unicode minus, as copied from a page
    ("-.42", -0.42),
    ("1/4", 0.25),
    ("262,668,288", 262_668_288.0),
    ("262 668 288", 262_668_288.0),
    ("262_668_288", 262_668_288.0),
    ("1,5", 1.5),
    ("0,420", 0.42),
    ("42 %", 0.42),
    ("", None),
    ("   ", None),
    ("abc", None),
    ("0.4.2", None),
    ("1,2,3", None),
    ("1/0", None),
    ("4e", None),
    ("e5", None),
    ("%", None),
    ("nan", None),
    ("inf", None),
    ("1e999", None),
    ("0x10", None),
    ("1,000e3", 1e6),  # thousands before an exponent, as 1,000 alone (hostile pass 80)
    ("2,500E2", 250_000.0),
    ("1,234,567e0", 1_234_567.0),
    ("12,34e1", 123.4),  # two digits after the comma: a decimal comma
]

#: (typed, answer, abs_tol, slip value or None): entries such as "1,946" that read two ways.
#: Both graders must give the same status and the same words, which say how the entry was read.
AMBIGUOUS_CASES: list[tuple[str, float, float, float | None]] = [
    ("1,946", 1.9459, 0.01, None),  # a decimal comma: right, read as 1.946
    ("1,946", 1946.0, 0.5, None),  # thousands: right, and says so
    ("1,946", 5.0, 0.01, None),  # neither: wrong, read as 1946
    ("1,946", 5.0, 0.01, 1946.0),  # a slip under the thousands reading
    ("-1,946", -1.9459, 0.01, None),
    ("1,946%", 0.019459, 0.0001, None),
    ("1 ,946", 1.9459, 0.01, None),
    ("12,500", 12.5, 0.01, None),
    ("0,946", 0.946, 0.001, None),  # not ambiguous: 0 cannot lead a thousands group
    ("1,9460", 1.946, 0.001, None),  # not ambiguous: four places
    ("1,946,000", 1.946, 0.001, None),  # not ambiguous: thousands
]
AMBIGUOUS_CASES += [
    ("2,079", 1.9459, 0.01, 2.0794),  # the ln 8 slip with a decimal comma: the slip's hint, read as 2.079
    ("1,946", 1.946, 0.01, 1946.0),  # right as decimals beats a slip as thousands
    ("1,000e3", 1e6, 0.5, None),  # thousands before an exponent: right, and says so
    ("1,000e3", 1000.0, 0.5, None),  # a decimal comma before an exponent: right, read as 1.000e3
]

#: (typed, answer, abs_tol, slip value or None, percent): "%" is read only where the question allows it.
PERCENT_CASES: list[tuple[str, float, float, float | None, bool]] = [
    ("159%", 1.59, 0.005, None, False),  # a gradient, not a fraction: refused with a prompt
    ("15%", 0.15, 0.005, None, False),  # a gradient of 0.15 is not 15%: refused though the value would match
    ("-10%", -0.1, 0.001, None, False),
    ("50%", 61_440_000.0, 0.5, 0.5, False),  # the fraction saved, typed for a count: the slip's hint
    ("90%", 0.0, 1.0, 1.5, False),  # within tolerance of both answer and slip: the slip, never "right"
    ("2.33%", 0.0233, 0.002, None, True),  # a probability difference: read as 0.0233
    ("-42%", -0.42, 0.005, None, True),
    ("100%", 1.0, 0.005, None, True),
    ("1,946%", 0.019459, 0.0001, None, True),
]


def random_entries(n: int, seed: int = 0, around: float = 1.0) -> list[str]:
    """``n`` typed strings built from the characters graders meet: digits, signs, separators, spacing of both
    languages' kinds (U+FEFF, U+001C, U+0085...), "%", "/", exponents, and numbers near ``around``."""
    import random

    rng = random.Random(seed)
    pieces = [*"0123456789", ".", ",", "-", "+", "e", "E", "%", "/", " ", "_", "x"]
    pieces += ["\u2212", "\ufeff", "\x1c", "\x1f", "\x85", "\u2009", "\u202f", "\u00a0", "\t", "\u3000", "\u2028"]
    out = []
    for i in range(n):
        if i % 4 == 0:  # a number near the answer, written in one of the accepted ways
            x = around * rng.uniform(0.5, 1.5)
            text = rng.choice([f"{x:.{rng.randint(0, 5)}f}", f"{x:.3g}", f"{x:,.3f}", f"{100 * x:.2f}%"])
            out.append(text.replace(".", ",") if rng.random() < 0.3 else text)
        else:
            out.append("".join(rng.choice(pieces) for _ in range(rng.randint(0, 10))))
    return out


#: (typed, answer, abs_tol, rel_tol): tolerances at the edges of float64, where ``typed - answer`` or
#: ``rel_tol * |answer|`` overflows. Both graders must agree with the exact comparison (in fractions).
TOLERANCE_CASES: list[tuple[str, float, float, float]] = [
    ("1e308", -1e308, 0.0, 1.9),  # |difference| 2e308 > 1.9e308: wrong, though both sides overflow to inf
    ("1e308", -1e308, 0.0, 2.1),  # 2e308 <= 2.1e308: right
    ("1.7e308", -1.7e308, 1.7976931348623157e308, 0.0),  # 3.4e308 > the largest tolerance: wrong
    ("-1.7e308", 1.7e308, 0.0, 2.0),  # exactly on the bound: right
    ("1e308", 1.5e308, 0.0, 0.4),  # a finite difference: 5e307 <= 6e307, right
    ("1e308", 1.5e308, 0.0, 0.3),  # 5e307 > 4.5e307: wrong
    ("5e-324", 0.0, 0.0, 0.0),  # the smallest subnormal: wrong against 0 with no tolerance
    ("5e-324", 0.0, 5e-324, 0.0),  # right with a tolerance of one subnormal
]
