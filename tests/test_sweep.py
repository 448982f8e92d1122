"""Tests for embedlab.sweep: the protocol's choices, the intervals against closed forms, and the
committed results file against a re-run of a sample of its points (counts, and curves to the file's four
decimals, exactly; losses to 12 significant digits: the file may come from a processor whose vector
instructions round differently)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import embedlab
from embedlab import sweep
from embedlab.sweep import CONFIGS, Point, Sweep, SweepSpec, load_results, run_point, t_interval, t_quantile

TINY = SweepSpec(
    data_sizes=(60, 120), widths=(4,), hidden=(True, False), lrs=(0.01, 0.03), seeds=(0, 1), draws=(0, 1),
    n_valid=40, n_test=40, max_steps=60, eval_every=20, patience=2,
)  # fmt: skip


@pytest.fixture(scope="module")
def results() -> Sweep:
    return load_results()


# -- intervals ---------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [0.9, 0.95, 0.975, 0.995, 0.999])
def test_t_quantile_matches_the_closed_forms_of_one_and_two_degrees_of_freedom(p):
    assert t_quantile(p, 1) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-9)  # Cauchy
    assert t_quantile(p, 2) == pytest.approx((2 * p - 1) / math.sqrt(2 * p * (1 - p)), rel=1e-9)


def test_t_quantile_tends_to_the_normal_quantile():
    def normal_quantile(p: float) -> float:  # by bisection on math.erf: independent of the t density
        lo, hi = 0.0, 10.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < p else (lo, mid)
        return lo

    z = normal_quantile(0.975)
    assert 0 < t_quantile(0.975, 1000) - z < 0.003 and 0 < t_quantile(0.975, 100) - z < 0.03
    assert t_quantile(0.975, 9) == pytest.approx(2.262157, abs=1e-6)  # printed tables
    assert t_quantile(0.975, 1000) == pytest.approx(1.962339, abs=1e-6)


def test_t_interval_of_three_values():
    mean, lo, hi = t_interval([1.0, 2.0, 3.0])
    half = (2 * 0.975 - 1) / math.sqrt(2 * 0.975 * 0.025) / math.sqrt(3)  # s = 1, df = 2
    assert (mean, lo, hi) == pytest.approx((2.0, 2.0 - half, 2.0 + half), rel=1e-9)


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (lambda: t_quantile(0.4, 3), ValueError, "p must be in"),
        (lambda: t_quantile("0.9", 3), TypeError, "p must be a real"),
        (lambda: t_quantile(0.9, 0), ValueError, "df must be a positive"),
        (lambda: t_quantile(0.9, 1001), ValueError, "df must be at most"),
        (lambda: t_quantile(1 - 2**-53, 1), ValueError, "p must be in"),
        (lambda: t_interval([1.0, 2.0], level=1 - 2**-52), ValueError, "level must be in"),
        (lambda: t_interval([1.0, 2.0], level=1e-17), ValueError, "level must be in"),
        (lambda: t_interval([1.0]), ValueError, "values must be 1-D with at least 2"),
        (lambda: t_interval([1.0, np.nan]), ValueError, "values must be finite"),
        (lambda: t_interval([0.0, np.longdouble("1e4000")]), ValueError, "values must be finite"),
        (lambda: t_interval(""), TypeError, "values must be"),
        (lambda: t_interval([1.0, 2.0], level=1.5), ValueError, "level must be in"),
        (lambda: t_interval(np.ma.array([1.0, 2.0, 3.0], mask=[0, 0, 1])), TypeError, "values"),
    ],
)
def test_interval_helpers_refuse_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# -- the spec ----------------------------------------------------------------------------------


def test_spec_points_cover_the_grid_once_in_order():
    pts = TINY.points()
    assert len(pts) == 2 * 1 * 2 * 3 * 2 * 2 * 2 == len(set(pts))
    assert pts[0] == Point(0, 60, 4, True, "tied", 0.01, 0) and pts[-1] == Point(1, 120, 4, False, CONFIGS[-1], 0.03, 1)
    assert SweepSpec.from_dict(TINY.to_dict()) == TINY


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"data_sizes": ()}, ValueError, "data_sizes must hold at least one"),
        ({"data_sizes": (500, 500)}, ValueError, "data_sizes must not repeat"),
        ({"data_sizes": (1.5,)}, TypeError, "data_sizes must hold ints"),
        ({"data_sizes": (10**9,)}, ValueError, "data_sizes must hold ints of at most"),
        ({"widths": (0,)}, ValueError, "widths must hold positive"),
        ({"widths": 16}, TypeError, "widths must be a sequence"),
        ({"seeds": (-1,)}, ValueError, "seeds must hold non-negative"),
        ({"hidden": (1,)}, TypeError, "hidden must be"),
        ({"hidden": ()}, ValueError, "hidden must hold"),
        ({"lrs": (0.0,)}, ValueError, "lrs must hold positive finite"),
        ({"lrs": (float("nan"),)}, ValueError, "lrs must hold positive finite"),
        ({"lrs": ("0.1",)}, TypeError, "lrs must hold positive numbers"),
        ({"max_steps": 10**9}, ValueError, "max_steps must be at most"),
        ({"eval_every": 20000}, ValueError, "eval_every must be at most max_steps"),
        ({"patience": 0}, ValueError, "patience must be a positive"),
        ({"seeds": range(10**6)}, ValueError, "at most 100,000"),
        ({"seeds": (0,), "draws": (0,)}, ValueError, "at least 2 runs per configuration"),
        ({"lrs": (10**400,)}, ValueError, "lrs must hold positive finite"),
        ({"data_sizes": np.float16(0)}, TypeError, "data_sizes must be a sequence"),
    ],
)
def test_spec_refuses_bad_grids_by_name(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        SweepSpec(**kwargs)


def test_sweep_refuses_malformed_records():
    good = _fake({(c, lr): 2.0 for c in CONFIGS for lr in TINY.lrs}, {(c, lr): 3.0 for c in CONFIGS for lr in TINY.lrs})
    records = [dict(r) for r in good.records]
    records[5]["best_valid"] = float("nan")
    with pytest.raises(ValueError, match=r"records must hold losses in \[0, 100\] nats"):
        Sweep(TINY, records, {})
    del records[5]["best_valid"]
    with pytest.raises(ValueError, match="lacks 'best_valid'"):
        Sweep(TINY, records, {})
    with pytest.raises(ValueError, match="one record per point"):
        Sweep(TINY, good.records[::-1], {})
    with pytest.raises(TypeError, match="records must be a list of dicts"):
        Sweep(TINY, [None] * len(good.records), {})
    with pytest.raises(ValueError, match="lr must be one of"):
        good.runs(0, 60, 4, True, "tied", 0.02)
    with pytest.raises(ValueError, match="draw must be one of"):
        good.runs(7, 60, 4, True, "tied", 0.01)


def test_run_point_refuses_a_point_outside_its_spec():
    with pytest.raises(ValueError, match=r"point must be one of spec\.points"):
        run_point(Point(0, 61, 4, True, "tied", 0.01, 0), TINY)
    with pytest.raises(TypeError, match="point must be a Point"):
        run_point("tied", TINY)
    with pytest.raises(TypeError, match="spec must be a SweepSpec"):
        run_point(TINY.points()[0], {"lrs": (0.1,)})
    with pytest.raises(TypeError, match="its hidden is 1"):
        run_point(Point(0, 60, 4, 1, "tied", 0.01, 0), TINY)


# -- the protocol's choices, on a sweep with made-up numbers ---------------------------------


def _fake(valid: dict[tuple, float], test: dict[tuple, float]) -> Sweep:
    """A Sweep of TINY whose records hold the given losses (keyed by (config, lr)), the same in every cell."""
    records = []
    for p in TINY.points():
        records.append(
            {**p._asdict(), "best_valid": valid[(p.config, p.lr)] + 0.001 * p.seed,
             "best_test": test[(p.config, p.lr)] + 0.001 * p.seed + 0.01 * p.draw,
             "valid_curve": [5.0] * (3 + p.seed), "capped": False, "best_step": 20}
        )  # fmt: skip
    return Sweep(TINY, records, {})


def test_the_learning_rate_is_chosen_on_validation_never_on_test():
    # Validation prefers lr 0.01 for every config; test would prefer 0.03. The report must use 0.01.
    valid = {(c, lr): 2.0 + (lr == 0.03) for c in CONFIGS for lr in TINY.lrs}
    test = {(c, lr): 3.0 - (lr == 0.03) + 0.1 * CONFIGS.index(c) for c in CONFIGS for lr in TINY.lrs}
    sw = _fake(valid, test)
    assert sw.chosen_lr(0, 60, 4, True, "tied") == 0.01
    chosen = sw.chosen(60, 4, True, "untied")
    assert {r["lr"] for r in chosen} == {0.01} and len(chosen) == len(TINY.seeds) * len(TINY.draws)
    gap = sw.gap(60, 4, True, "untied")
    # tied 3.0, untied 3.1 at lr 0.01, paired by (draw, seed): every difference is -0.1.
    np.testing.assert_allclose(gap["values"], -0.1)
    assert gap["mean"] == pytest.approx(-0.1) and gap["per_draw"] == pytest.approx([-0.1, -0.1])
    assert sw.verdict(60, 4, True, "untied") == "tied better"


def test_verdict_is_level_when_the_interval_holds_zero():
    valid = {(c, lr): 2.0 for c in CONFIGS for lr in TINY.lrs}
    test = {(c, lr): 3.0 for c in CONFIGS for lr in TINY.lrs}
    sw = _fake(valid, test)
    records = sw.records
    for r in records:  # untied better in draw 0, worse in draw 1: the mean is 0, the interval wide
        if r["config"] == "untied":
            r["best_test"] += 0.05 if r["draw"] == 0 else -0.05
    sw = Sweep(TINY, records, {})
    assert sw.verdict(120, 4, False, "untied") == "level"
    assert sw.gap(120, 4, False, "untied")["per_draw"] == pytest.approx([-0.05, 0.05])


def test_ties_in_validation_go_to_the_smaller_learning_rate():
    valid = {(c, lr): 2.0 for c in CONFIGS for lr in TINY.lrs}
    sw = _fake(valid, valid)
    assert sw.chosen_lr(1, 120, 4, False, "untied, same params") == 0.01


def test_mean_curve_runs_while_half_the_runs_train():
    sw = _fake({(c, lr): 2.0 for c in CONFIGS for lr in TINY.lrs}, {(c, lr): 2.0 for c in CONFIGS for lr in TINY.lrs})
    steps, mean = sw.mean_curve(60, 4, True, "tied")
    # curves of length 3 (seed 0) and 4 (seed 1) in each of 2 draws: half the runs reach length 4.
    assert steps.tolist() == [0, 20, 40, 60] and mean.tolist() == [5.0] * 4


def test_cell_arguments_are_checked(results):
    with pytest.raises(ValueError, match="n_train must be one of"):
        results.gap(501, 16, True)
    with pytest.raises(ValueError, match="other must be one of"):
        results.gap(500, 16, True, other="tied")
    with pytest.raises(TypeError, match="hidden must be True or False, got int 1"):  # 1 is not True
        results.chosen(500, 16, 1, "tied")
    assert results.chosen(500, 16, np.True_, "tied") == results.chosen(500, 16, True, "tied")  # NumPy's bool reads


def test_save_and_load_round_trip(tmp_path):
    sw = _fake(
        {(c, lr): 2.0 + lr for c in CONFIGS for lr in TINY.lrs}, {(c, lr): 3.0 for c in CONFIGS for lr in TINY.lrs}
    )
    sw.save(tmp_path / "s.json")
    back = load_results(tmp_path / "s.json")
    assert back.records == sw.records and back.spec == TINY
    (tmp_path / "bad.json").write_text('{"records": []}')
    with pytest.raises(ValueError, match="keys spec, meta, records"):
        load_results(tmp_path / "bad.json")
    for text in ("[" * 100_000, "{", '{"spec": NaN}'):
        (tmp_path / "bad.json").write_text(text)
        with pytest.raises(ValueError, match="path"):
            load_results(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="is not a file"):
        load_results(tmp_path)
    with pytest.raises(ValueError, match="is not a file"):
        load_results(tmp_path / "missing.json")
    with pytest.raises(TypeError, match=r"path must be a str or pathlib\.Path"):
        load_results(3)


def test_run_sweep_on_a_tiny_grid_is_deterministic():
    small = SweepSpec(**{**TINY.to_dict(), "data_sizes": (60,), "hidden": (True,), "draws": (0,), "seeds": (0, 1)})
    a, b = sweep.run_sweep(small), sweep.run_sweep(small)
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in a.records]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in b.records]
    assert a.meta["embedlab"] == embedlab.__version__ and a.meta["points"] == len(small.points())


# -- the committed results file ----------------------------------------------------------------


def test_the_results_file_is_the_chapters_sweep(results):
    assert results.spec == SweepSpec(), "the file was made with other settings: run `make experiments`"
    assert results.meta["embedlab"] == embedlab.__version__
    assert len(results.records) == len(SweepSpec().points())
    for r in results.records:
        assert 0 <= r["best_step"] <= r["stopped_step"] <= results.spec.max_steps
        assert r["best_valid"] == pytest.approx(min(r["valid_curve"]), abs=10**-sweep.CURVE_DIGITS)
        assert all(math.isfinite(r[k]) for k in ("best_valid", "best_test", "best_train"))
    # The largest data size has ten times the training sentences of notebook I's corpus.
    assert max(results.spec.data_sizes) >= 10 * min(results.spec.data_sizes)


def _sample(results: Sweep) -> list[Point]:
    """One reported point per configuration, with and without the hidden layer, small and large data."""
    spec = results.spec
    out = []
    for i, config in enumerate(CONFIGS):
        n = spec.data_sizes[0] if i != 1 else spec.data_sizes[-1]
        d = spec.widths[i % len(spec.widths)]
        hidden = i != 2
        draw = spec.draws[i % len(spec.draws)]
        lr = results.chosen_lr(draw, n, d, hidden, config)
        out.append(Point(draw, n, d, hidden, config, lr, spec.seeds[i % len(spec.seeds)]))
    return out


def test_a_sample_of_the_results_file_re_runs(results):
    """Provenance: each sampled point, trained again here, gives the numbers in the file: every count,
    flag and curve exactly, every loss to 12 significant digits (NumPy and OpenBLAS choose their vector
    kernels by processor, so the file's last bits may come from another machine's order of additions)."""
    for point in _sample(results):
        stored = results._index[tuple(point)]
        fresh = run_point(point, results.spec)
        assert fresh.keys() == stored.keys()
        for key in stored:
            if type(stored[key]) is float and key != "seconds":
                assert math.isclose(fresh[key], stored[key], rel_tol=1e-12), (
                    f"{point}: {key} is {fresh[key]!r}, the file says {stored[key]!r}"
                )
            elif key != "seconds":
                assert fresh[key] == stored[key], f"{point}: {key} is {fresh[key]!r}, the file says {stored[key]!r}"


def test_records_with_impossible_values_are_refused_by_name():
    good = _fake({(c, lr): 2.0 for c in CONFIGS for lr in TINY.lrs}, {(c, lr): 3.0 for c in CONFIGS for lr in TINY.lrs})
    for key, bad in (("best_valid", 10**400), ("best_test", 1e308), ("best_step", "x"), ("capped", "no")):
        records = [dict(r) for r in good.records]
        records[3][key] = bad
        with pytest.raises(ValueError, match="records must hold"):
            Sweep(TINY, records, {})
    deep: dict = {}
    for _ in range(100_000):
        deep = {"x": deep}
    with pytest.raises(ValueError, match="plain JSON values at most 20 deep"):
        Sweep(TINY, good.records, deep).save("/tmp/never-written.json")


def test_reused_records_are_what_a_fresh_run_gives(tmp_path):
    """``run_experiments.py --reuse``: a record is reused only when a fresh run must give it again."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "scripts" / "run_experiments.py"
    module_spec = importlib.util.spec_from_file_location("run_experiments", path)
    run_experiments = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(run_experiments)
    small = SweepSpec(**{**TINY.to_dict(), "data_sizes": (60,), "hidden": (True,), "draws": (0,), "max_steps": 120})
    old = sweep.run_sweep(small)
    old.save(tmp_path / "old.json")
    assert any(r["capped"] for r in old.records) and not all(r["capped"] for r in old.records)
    grown = SweepSpec(**{**small.to_dict(), "max_steps": 400, "lrs": (0.01, 0.03, 0.05)})
    reused = run_experiments.reusable(grown, tmp_path / "old.json")
    assert all(not r["capped"] for r in reused.values()) and all(key[5] in small.lrs for key in reused)
    for key, record in reused.items():  # each one re-run under the new spec: the same numbers
        fresh = run_point(Point(*key), grown)
        assert {k: v for k, v in fresh.items() if k != "seconds"} == {k: v for k, v in record.items() if k != "seconds"}
