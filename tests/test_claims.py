"""Tests for embedlab.claims.check: the draft's figure agrees when the computed value, rounded to
the draft's own precision, is the draft's figure; it DIFFERS otherwise."""

import numpy as np
import pytest

from embedlab.claims import check


def verdict(capsys, *args) -> str:
    check(*args)
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # one line per claim
    assert out.endswith(" -> agrees\n") or out.endswith(" -> DIFFERS\n")
    return out.rstrip("\n").rsplit(" -> ", 1)[1]


@pytest.mark.parametrize(
    ("draft", "computed", "decimals", "expected"),
    [
        (0.4993, 0.499349, 4, "agrees"),  # tying with a bias saves (d - 1) / 2d, d = 768
        (0.4994, 0.499349, 4, "DIFFERS"),
        (0.50, 0.499349, 2, "agrees"),
        (0.499, 0.499349, 3, "agrees"),
        (0.19, 0.2000, 2, "DIFFERS"),
        (0.20, 0.2000, 2, "agrees"),
        (0.20, 0.1951, 2, "agrees"),
        (0.19, 0.1949, 2, "agrees"),
        (0.42, 0.4166, 2, "agrees"),
        (0.41, 0.4166, 2, "DIFFERS"),
        (0.25, 1 / 4, 2, "agrees"),
        (77194752, 2 * 50257 * 768, 0, "agrees"),
        (77194753, 2 * 50257 * 768, 0, "DIFFERS"),
        (-0.24, -0.2400000001, 2, "agrees"),
        (-0.24, 0.24, 2, "DIFFERS"),
        (1.0, 0.9996, 3, "agrees"),
        (1.0, 0.9994, 3, "DIFFERS"),
    ],
)
def test_check_verdict(capsys, draft, computed, decimals, expected):
    assert verdict(capsys, "claim", draft, computed, decimals) == expected


def test_check_prints_label_draft_and_rounded_computed(capsys):
    check("saved fraction", 0.4993, 0.499349, 4)
    assert capsys.readouterr().out == "saved fraction: draft 0.4993, computed 0.4993 -> agrees\n"
    check("P0", 0.19, 0.2000, 2)
    assert capsys.readouterr().out == "P0: draft 0.19, computed 0.20 -> DIFFERS\n"
    check("params", 77194752, 77194752, 0)
    assert capsys.readouterr().out == "params: draft 77,194,752, computed 77,194,752 -> agrees\n"


def test_check_arrays_all_must_agree(capsys):
    assert verdict(capsys, "p", [0.20, 0.22, 0.16, 0.42], [0.2012, 0.2224, 0.1580, 0.4184], 2) == "agrees"
    assert verdict(capsys, "p", [0.20, 0.22, 0.16, 0.41], [0.2012, 0.2224, 0.1580, 0.4184], 2) == "DIFFERS"
    check("z", [[-0.24, 0.51]], np.array([[-0.2400001, 0.51]]), 2)
    assert capsys.readouterr().out == "z: draft [-0.24, 0.51], computed [-0.24, 0.51] -> agrees\n"


def test_check_independent_oracle_on_random_values(capsys):
    """Against string formatting: agrees iff the draft equals the computed value formatted at that precision."""
    rng = np.random.default_rng(5)
    for _ in range(200):
        decimals = int(rng.integers(0, 5))
        computed = float(rng.uniform(-10, 10))
        shown = float(f"{np.round(computed, decimals):.{decimals}f}")
        off = float(rng.choice([0.0, 1.0, -1.0, 2.0])) * 10.0**-decimals
        draft = round(shown + off, decimals)
        expected = "agrees" if off == 0.0 else "DIFFERS"
        assert verdict(capsys, "x", draft, computed, decimals) == expected, (draft, computed, decimals)


@pytest.mark.parametrize(
    ("draft", "computed"),
    [([0.1, 0.2], [0.1, 0.2, 0.3]), (0.5, [0.5, 0.5]), ([[0.1, 0.2]], [0.1, 0.2])],
)
def test_check_shape_mismatch_raises(capsys, draft, computed):
    with pytest.raises(ValueError, match="same shape"):
        check("bad", draft, computed, 2)
    assert capsys.readouterr().out == ""  # nothing printed for a malformed claim


def test_check_reads_a_longer_draft_at_its_places(capsys):
    """Hostile passes 35 and 36: a draft given to more places than ``decimals`` agrees when it rounds as the computed
    value does: 0.6 at 0 places (1) differs from 0.1 (0); the same float typed and computed agrees, even half-way
    (0.35 typed is a tie, 0.35 computed is 0.3499...). Oracle: Decimal, rounding half up and half down (two figures
    at a tie), the draft from its decimal and the computed value from its exact binary; agree iff they share one."""
    from decimal import ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal

    check("x", 0.6, 0.1, 0)
    assert capsys.readouterr().out == "x: draft 1, computed 0 -> DIFFERS\n"
    for same, places in [(0.35, 1), (0.45, 1), (0.05, 1), (2.675, 2), (np.float32(0.35), 1), (1 / 3, 6)]:
        assert verdict(capsys, "x", same, float(same), places) == "agrees", (same, places)

    def figures(x: Decimal, decimals: int) -> set[Decimal]:
        unit = Decimal(1).scaleb(-decimals)
        return {x.quantize(unit, rounding=ROUND_HALF_UP), x.quantize(unit, rounding=ROUND_HALF_DOWN)}

    rng = np.random.default_rng(35)
    for _ in range(400):
        decimals = int(rng.integers(0, 4))
        draft = round(float(rng.uniform(-5, 5)), decimals + int(rng.integers(1, 4)))
        if rng.random() < 0.3:  # half-way drafts
            draft = round(float(rng.integers(-500, 500)) / 10**decimals + 0.5 / 10**decimals, decimals + 1)
        pick = rng.random()
        computed = (
            draft if pick < 0.3 else float(rng.uniform(-5, 5)) if pick < 0.5 else draft + rng.normal(0, 10.0**-decimals)
        )
        shared = figures(Decimal(repr(draft)), decimals) & figures(Decimal(computed), decimals)
        expected = "agrees" if shared or draft == computed else "DIFFERS"  # the same float64 always agrees
        assert verdict(capsys, "x", draft, computed, decimals) == expected, (draft, computed, decimals)
