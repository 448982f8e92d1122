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
]
