"""Tests for embedlab.explorers: the eight interactive figures A to H.

* clamping: every position of every control (and out-of-range, NaN and infinite requests) gives a
  readout without NaN or an exception and a figure that is drawn and moves;
* the readouts and the drawn artists agree with the maths, recomputed here independently (plain
  ``math``, hand-written numpy, a hand-written finite difference);
* blitting: after any sequence of updates the figure equals a fresh explorer set to the same
  values, and equals a full (non-blitted) redraw;
* the static HTML: one range input per control, one frame per combination, the inline handler's
  mixed-radix index selecting the frame of that combination.
"""

import base64
import io
import itertools
import math
import random
import re
from html.parser import HTMLParser

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_rgba
from matplotlib.patches import Rectangle
from matplotlib.quiver import Quiver
from PIL import Image

from embedlab import E_TOY, REAL_MODELS, TOKENS, explorers, plots
from tests.oracles import central_diff

FACTORIES = {
    "lookup": explorers.lookup_explorer,
    "one_hot_cost": explorers.one_hot_cost_explorer,
    "logits": explorers.logits_explorer,
    "alignment": explorers.alignment_explorer,
    "flatten": explorers.flatten_explorer,
    "saturation": explorers.saturation_explorer,
    "budget": explorers.budget_explorer,
    "training_memory": explorers.training_memory_explorer,
    "scale": explorers.scale_explorer,
    "gradient": explorers.gradient_explorer,
}
NAMES = list(FACTORIES)
E = [[float(x) for x in row] for row in E_TOY]  # plain Python copy for the hand computations
H = (0.5, 0.2, -0.3)


# ---------------------------------------------------------------- helpers
def decode(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def check_readout(text) -> None:
    assert isinstance(text, str)
    assert text.strip()
    assert not re.search(r"\b(nan|inf|infinity)\b", text, re.IGNORECASE), text


def vectors(text: str) -> list[list[float]]:
    """Every bracketed list of numbers in a readout."""
    return [[float(x) for x in m.split(",")] for m in re.findall(r"\[([^\]]*)\]", text)]


def number_after(text: str, prefix: str) -> float:
    m = re.search(re.escape(prefix) + r"\s*([-+]?[\d,]*\.?\d+)", text)
    assert m, f"{prefix!r} not in {text!r}"
    return float(m.group(1).replace(",", ""))


def softmax_py(z):
    m = max(z)
    ex = [math.exp(v - m) for v in z]
    s = sum(ex)
    return [v / s for v in ex]


def logits_py(h):
    return [sum(hj * ej for hj, ej in zip(h, row, strict=True)) for row in E]


def bar_heights(ax, n_first=None):
    heights = [p.get_height() for p in ax.patches if type(p).__name__ == "Rectangle"]
    return heights if n_first is None else heights[:n_first]


def full_redraw(ex) -> np.ndarray:
    """The figure drawn from scratch, no blitting: animated artists un-animated and put on top
    (blitting draws them after everything else). Spoils ``ex`` for further blitting."""
    for artist in ex.fig.findobj(lambda o: o.get_animated()):
        artist.set_animated(False)
        artist.set_zorder(artist.get_zorder() + 1000)
    ex.fig.canvas.draw()
    return decode(ex.png())


# -- an independent model of example H: E used as two separate tables, loss written out by hand
def two_table_loss(E_in, E_out, ids, target, W):
    x = E_in[list(ids)].mean(axis=0)
    h = np.tanh(x @ W)
    z = h @ E_out.T
    m = z.max()
    return float(m + np.log(np.exp(z - m).sum()) - z[target])


def two_paths(ids, target, W=None):
    W = np.eye(3) if W is None else W
    E0 = np.array(E_TOY, dtype=np.float64)
    g_in = central_diff(lambda A: two_table_loss(A, E0, ids, target, W), E0)
    g_out = central_diff(lambda A: two_table_loss(E0, A, ids, target, W), E0)
    g_all = central_diff(lambda A: two_table_loss(A, A, ids, target, W), E0)
    return g_in, g_out, g_all


# ---------------------------------------------------------------- structure
@pytest.fixture(scope="module")
def made():
    """Each explorer built once (for read-only tests), with pyplot watched while they are built and drawn."""
    shown = []
    before = plt.get_fignums()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(plt, "show", lambda *a, **k: shown.append(a))
        built = {name: make() for name, make in FACTORIES.items()}
        for ex in built.values():
            ex.update()
            ex.png()
    return built, before, plt.get_fignums(), shown


def test_every_explorer_is_built(made):
    built = made[0]
    assert len(built) == 10  # one per worked example, and G's two on memory and scale
    for ex in built.values():
        assert ex.controls
        check_readout(ex.readout)
        assert ex.title


def test_construction_registers_no_pyplot_figure_and_never_shows(made):
    _, before, after, shown = made
    assert after == before
    assert shown == []


# ---------------------------------------------------------------- clamping: every position works
@pytest.mark.parametrize("name", NAMES)
def test_every_value_of_every_control(name):
    """Every slider position (others at default): valid readout; a drawn figure that is not flat,
    shows its moving artists, and changes at every step; a different readout at every value."""
    ex = FACTORIES[name]()
    default = dict(ex.values)
    ex.fig.canvas.draw()  # a full draw leaves the animated artists out: the static background
    background = decode(ex.png())
    for c in ex.controls:
        readouts, previous = [], None
        for v in c.values:
            text = ex.update(**{c.name: v})
            check_readout(text)
            assert text == ex.readout
            assert ex.values[c.name] == v
            img = decode(ex.png())
            assert img.ndim == 3
            assert img.shape[0] > 50
            assert img.shape[1] > 50
            assert (img != img[0, 0]).any(axis=-1).mean() > 0.02, "flat image"
            assert not np.array_equal(img, background), f"{c.name}={v}: moving artists not drawn"
            if previous is not None:
                assert not np.array_equal(img, previous), f"{c.name}={v}: figure did not change"
            previous = img
            readouts.append(text)
        assert len(set(readouts)) == len(c.values)
        ex.update(**{c.name: default[c.name]})
    assert ex.values == default


@pytest.mark.parametrize("name", NAMES)
def test_out_of_range_requests_snap(name):
    """Huge, negative, NaN and infinite requests to every (numeric) control snap onto the list and
    never raise; the readout is the one of the value snapped to."""
    ex = FACTORIES[name]()
    oracle = FACTORIES[name]()
    for c in ex.controls:
        assert all(isinstance(v, (int, float)) for v in c.values)
        expected = {1e6: max(c.values), -1e6: min(c.values), math.nan: c.value, -math.inf: min(c.values)}
        for request, snapped in expected.items():
            text = ex.update(**{c.name: request})
            check_readout(text)
            assert ex.values[c.name] == snapped
            assert text == oracle.update(**{c.name: snapped})
        # +inf: at least on the list and harmless (which end it snaps to: see test_widgets)
        text = ex.update(**{c.name: math.inf})
        check_readout(text)
        assert ex.values[c.name] in c.values
        ex.update(**{c.name: c.value})
        oracle.update(**{c.name: c.value})
    np.testing.assert_array_equal(decode(ex.png()), decode(oracle.png()))


def test_lookup_float_token_position_is_harmless():
    """A float that equals an allowed id (1.0) must work like 1.4 does (it snaps to 1)."""
    ex = explorers.lookup_explorer()
    expected = ex.update(word=1.4, start=0)
    assert ex.update(word=1.0, start=0) == expected
    assert ex.update(word=np.float64(1.0), start=np.float64(0.0)) == expected


# ---------------------------------------------------------------- readouts against the maths
def test_lookup_readout_and_box_for_each_word_and_each_way_of_counting():
    """From 0: the word's own row. From 1: the next word's row, silently; the last word: an error."""
    ex = explorers.lookup_explorer()
    assert ex.values == {"word": 2, "start": 0}
    box = ex.fig.findobj(lambda o: isinstance(o, Rectangle) and o.get_animated())[0]
    error = next(t for t in ex.axes.texts if t.get_animated())
    for i, tok in enumerate(TOKENS):
        text = ex.update(word=i, start=0)
        assert f'"{tok}" counted from 0 is id {i}' in text and "the right row" in text
        assert vectors(text) == [pytest.approx(E[i], abs=0.005)]
        assert box.get_visible() and box.get_y() == pytest.approx(i - 0.5) and not error.get_visible()
        text = ex.update(word=i, start=1)
        if i + 1 < len(TOKENS):
            assert f'row of "{TOKENS[i + 1]}", the wrong word, with no error' in text
            assert vectors(text) == [pytest.approx(E[i + 1], abs=0.005)]
            assert box.get_visible() and box.get_y() == pytest.approx(i + 0.5) and not error.get_visible()
        else:
            assert f"is id {len(TOKENS)}: lookup raises ValueError" in text
            assert not box.get_visible() and error.get_visible() and "ValueError" in error.get_text()
    assert "[-0.90, +0.10, +0.20]" in ex.update(word=2, start=0)


def test_one_hot_cost_ticks_step_by_a_hundred():
    """B's prose says each labelled tick is a hundred times the one below: read the drawn ticks back."""
    ex = explorers.one_hot_cost_explorer()
    ticks = [t for t in ex.axes.get_yticks() if ex.axes.get_ylim()[0] <= t <= ex.axes.get_ylim()[1]]
    assert len(ticks) >= 4
    assert all(b / a == pytest.approx(100) for a, b in itertools.pairwise(ticks))
    assert not ex.axes.yaxis.get_minorticklocs().size


def test_one_hot_cost_every_model_pairs_its_own_v_and_d():
    ex = explorers.one_hot_cost_explorer()
    real = {m["name"]: (m["vocab_size"], m["d_model"]) for m in REAL_MODELS}
    heights_seen = set()
    for i, (name, V, d) in enumerate(explorers.SIZE_PRESETS):
        if name != "the toy":
            assert real[name] == (V, d), f"{name} must be drawn with its own V and d"
        text = ex.update(preset=i)
        assert text.startswith(f"{name} (V = {V:,}, d = {d:,})")
        assert f"does {V * d:,} multiplications" in text
        assert f"{(V - 1) * d:,} of them by zero" in text
        assert f"copies {d:,} numbers" in text
        assert f"({V:,} times as many multiplications as numbers copied)" in text
        heights = bar_heights(ex.axes)
        assert heights == [V * d, d]
        heights_seen.add(tuple(heights))
        assert [t.get_text() for t in ex.axes.texts if t.get_animated()] == [f"{V * d:,}", f"{d:,}"]
    assert len(heights_seen) == len(explorers.SIZE_PRESETS), "the bars move with every model"


def check_logits(ex, h) -> None:
    """Readout and bars of logits_explorer at h, against math.exp."""
    text = ex.readout
    z = logits_py(h)
    p = softmax_py(z)
    vh, vz, vp = vectors(text)
    assert vh == pytest.approx(h, abs=0.0051)
    assert vz == pytest.approx(z, abs=0.0051)
    assert vp == pytest.approx(p, abs=0.0051)
    assert sum(vp) == pytest.approx(1.0, abs=0.021)
    top = [j for j in range(len(z)) if abs(z[j] - max(z)) <= 1e-12]  # every token that shares the top
    if len(top) == 1:
        m = re.search(r'"(\w+)" wins with p = ([\d.]+)\.$', text)
    else:
        m = re.search(r"a tie: (.+) share the top, p = ([\d.]+) each\.$", text)
    assert m, text
    names = [m.group(1)] if len(top) == 1 else [t.strip('"') for t in m.group(1).split(", ")]
    named = [TOKENS.index(t) for t in names]
    assert named == top, text
    assert float(m.group(2)) == pytest.approx(max(p), abs=0.0051)
    ax_z, ax_p = ex.axes
    assert bar_heights(ax_z) == pytest.approx(z, abs=1e-12)
    assert bar_heights(ax_p) == pytest.approx(p, abs=1e-12)
    colours = [p_.get_facecolor() for p_ in ax_p.patches]
    assert all((col == to_rgba(plots.ORANGE)) == (i in top) for i, col in enumerate(colours))
    assert all(col == to_rgba(plots.BLUE) for i, col in enumerate(colours) if i not in top)


def test_logits_readout_at_worked_example():
    ex = explorers.logits_explorer()
    assert ex.values == {"h0": 0.5, "h1": 0.2, "h2": -0.3}
    z = logits_py(H)
    p = softmax_py(z)
    assert p.index(max(p)) == 3
    assert round(p[3], 2) == 0.42
    assert ex.readout.endswith('"ran" wins with p = 0.42.')
    assert "logits [-0.24, -0.14, -0.49, +0.51]" in ex.readout
    check_logits(ex, H)


def test_logits_random_combinations():
    ex = explorers.logits_explorer()
    grid = ex.controls[0].values
    rng = random.Random(1234)
    combos = [tuple(rng.choice(grid) for _ in range(3)) for _ in range(30)]
    combos += [(0.0, 0.0, 0.0), (-1.0, -1.0, -1.0), (1.0, 1.0, 1.0), (1.0, -1.0, 1.0)]
    for h in combos:
        text = ex.update(h0=h[0], h1=h[1], h2=h[2])
        check_readout(text)
        check_logits(ex, h)
    # h = 0: every logit 0, every probability 1/4
    ex.update(h0=0.0, h1=0.0, h2=0.0)
    assert "probabilities [0.25, 0.25, 0.25, 0.25]" in ex.readout


def test_logits_explorer_names_and_lights_every_tied_winner():
    """At h = 0 all four tie; at [0, 0.5, 0.5] cat, dog and the tie: no single "winner" is named."""
    ex = explorers.logits_explorer()
    bars_z = next(c for c in ex.fig.axes[0].containers)
    for h, tied in (((0.0, 0.0, 0.0), [0, 1, 2, 3]), ((0.0, 0.5, 0.5), [0, 1, 2]), ((0.5, 0.0, 0.5), [0, 1])):
        text = ex.update(h0=h[0], h1=h[1], h2=h[2])
        z = [sum(a * b for a, b in zip(h, row, strict=True)) for row in E]
        assert all(abs(z[j] - max(z)) < 1e-12 for j in tied)
        assert "wins" not in text and "a tie: " + ", ".join(f'"{TOKENS[j]}"' for j in tied) + " share the top" in text
        lit = [j for j, r in enumerate(bars_z.patches) if to_rgba(r.get_facecolor()) == to_rgba(bars_z.highlight_color)]
        assert lit == tied


def test_alignment_values_hold_the_peak_and_the_exact_zero_crossings():
    ex = explorers.alignment_explorer()
    values = ex.controls[0].values
    assert {0, 90, 180, 270} <= set(values)
    ne = math.sqrt(sum(x * x for x in E[2]))
    assert "dot product |h| |e| cos(0 deg) = " + f"+{ne:.2f}" in ex.update(angle=0)
    assert "the largest it can be" in ex.readout
    for angle in (90, 270):
        assert "cos(90 deg) = 0.00, zero: at right angles." in ex.update(angle=angle)
        assert ex.axes.get_title() == "h . e = 0.00, zero"
    assert f"= -{ne:.2f}, negative: the most negative" in ex.update(angle=180)


def test_alignment_labels_never_overprint_at_any_angle():
    ex = explorers.alignment_explorer()
    quiver = next(c for c in ex.axes.collections if isinstance(c, Quiver))
    for angle in ex.controls[0].values:
        ex.update(angle=angle)
        ex.fig.canvas.draw()
        e_box, h_box = (t.get_window_extent(ex.fig.canvas.get_renderer()) for t in quiver.labels)
        assert not e_box.overlaps(h_box), angle


def test_alignment_every_angle():
    """h is drawn at the slider's angle from e, at true lengths; the dot is |e| cos(angle)."""
    ex = explorers.alignment_explorer()
    e = E[2]  # "the"
    ne = math.sqrt(sum(x * x for x in e))
    quiver = next(c for c in ex.axes.collections if isinstance(c, Quiver))
    for angle in ex.controls[0].values:
        text = ex.update(angle=angle)
        t = math.radians(angle)
        dot = ne * math.cos(t)  # |h| = 1
        vh, ve = vectors(text)
        assert math.sqrt(sum(x * x for x in vh)) == pytest.approx(1.0, abs=0.01)
        assert ve == pytest.approx(e, abs=0.0051)
        between = min(angle, 360 - angle)
        assert f"turned {angle} degrees from e" in text
        assert (f"an angle of {between} degrees" in text) == (between != angle)
        assert f"cos({between} deg)" in text
        shown = float(re.search(r"cos\(\d+ deg\) = ([+-]?[\d.]+)", text).group(1))
        assert shown == pytest.approx(dot, abs=0.0051)
        if abs(dot) > 1e-9:
            assert ("positive" in text) == (dot > 0) and ("negative" in text) == (dot < 0)
        # arrows: e along the first drawing axis at its true length, h at the angle from it
        np.testing.assert_allclose(quiver.U, [ne, math.cos(t)], atol=1e-12)
        np.testing.assert_allclose(quiver.V, [0.0, math.sin(t)], atol=1e-12)
        # the 3-D h in the readout really is at that angle from e
        cos_between = sum(a * b for a, b in zip(vh, e, strict=True)) / (ne * math.sqrt(sum(x * x for x in vh)))
        assert cos_between == pytest.approx(math.cos(t), abs=0.02)


def test_alignment_readout_gives_the_probability_against_the_uniform_share():
    """P(the) under h, by a softmax of our own over every token: the sign of the score does not settle it."""
    ex = explorers.alignment_explorer()
    e = E[2]
    ne = math.sqrt(sum(x * x for x in e))
    u1 = [x / ne for x in e]
    x_rest = [(1.0 if i == 0 else 0.0) - u1[0] * u1[i] for i in range(3)]  # the first axis, less its part along e
    nx = math.sqrt(sum(x * x for x in x_rest))
    u2 = [x / nx for x in x_rest]
    sides = {}
    for angle in ex.controls[0].values:
        text = ex.update(angle=angle)
        t = math.radians(angle)
        h = [math.cos(t) * a + math.sin(t) * b for a, b in zip(u1, u2, strict=True)]
        assert vectors(text)[0] == pytest.approx(h, abs=0.0051)
        p = softmax_py([sum(a * b for a, b in zip(h, row, strict=True)) for row in E])[2]
        assert number_after(text, "P(the) =") == pytest.approx(p, abs=0.0005)
        side = "above" if p > 0.25 else "below"
        assert f"{side} the uniform share 1/4" in text
        sides[angle] = side
    assert sides[90] != sides[270]  # a zero score both times, on either side of 1/4


def test_flatten_every_scale():
    ex = explorers.flatten_explorer()
    z0 = logits_py(H)
    for scale in ex.controls[0].values:
        text = ex.update(scale=scale)
        p = softmax_py([scale * z for z in z0])
        vh, vp = vectors(text)
        assert vh == pytest.approx([scale * x for x in H], abs=0.0051)
        assert vp == pytest.approx(p, abs=0.0051)
        assert "(uniform would be 0.25 each)" in text
        assert bar_heights(ex.axes) == pytest.approx(p, abs=1e-12)
        colours = [b.get_facecolor() for b in ex.axes.patches]
        if scale == 0:
            assert all(c == to_rgba(plots.BLUE) for c in colours)  # no winner at uniform
        else:
            assert colours[p.index(max(p))] == to_rgba(plots.ORANGE)
    ex.update(scale=0.0)
    assert "probabilities [0.25, 0.25, 0.25, 0.25]" in ex.readout
    # the distribution flattens monotonically towards uniform as the scale shrinks
    tops = [max(softmax_py([s * z for z in z0])) for s in ex.controls[0].values]
    assert tops == sorted(tops)


def test_saturation_every_t():
    ex = explorers.saturation_explorer()
    assert ex.readout == "t = +0.0: P0 = 0.250, each other token 0.250."
    markers = ex.fig.findobj(lambda o: o.get_animated())
    for t in ex.controls[0].values:
        text = ex.update(t=t)
        p0 = math.exp(t) / (math.exp(t) + 3)
        other = 1 / (math.exp(t) + 3)
        assert text.startswith(f"t = {t:+.1f}:")
        assert number_after(text, "P0 =") == pytest.approx(p0, abs=0.00051)
        assert number_after(text, "each other token") == pytest.approx(other, abs=0.00051)
        assert [m.get_xdata()[0] for m in markers] == [t, t]
        assert sorted(m.get_ydata()[0] for m in markers) == pytest.approx(sorted([p0, other]), abs=1e-12)
    assert "P0 = 0.999, each other token 0.000." in ex.update(t=8.0)  # e^8 / (e^8 + 3) = 0.998995
    assert "P0 = 0.000, each other token 0.333." in ex.update(t=-8.0)


def test_budget_every_model_bars_are_the_shares():
    """Each frame's segments are embedding, head and rest in % of that variant's whole model."""
    from embedlab import architectures

    ex = explorers.budget_explorer()
    seen = set()
    for i, m in enumerate(REAL_MODELS):
        text = ex.update(model=i)
        share = architectures.embedding_share(m["name"])
        V, d, total = m["vocab_size"], m["d_model"], share["total"]
        head = share["head"]
        assert share["embedding"] == V * d
        rest = total - V * d - head
        other_head = head + V * d if m["tied"] else head - V * d  # the matrix added or dropped; a bias stays
        other_total = V * d + other_head + rest
        expected = [
            [100 * V * d / total, 100 * head / total, 100 * rest / total],
            [100 * V * d / other_total, 100 * other_head / other_total, 100 * rest / other_total],
        ]
        rects = [p for p in ex.axes.patches if p.get_animated()]  # 3 parts x 2 rows, part by part
        widths = [[rects[2 * part + row].get_width() for part in range(3)] for row in range(2)]
        assert widths == [pytest.approx(w, rel=1e-12) for w in expected]
        for row in range(2):
            lefts = [rects[2 * part + row].get_x() for part in range(3)]
            assert lefts == pytest.approx([0.0, expected[row][0], expected[row][0] + expected[row][1]], abs=1e-9)
            assert sum(expected[row]) == pytest.approx(100.0)
        assert text.startswith(f"{m['name']}: as built, {'tied' if m['tied'] else 'untied'}")
        assert f"are {100 * (V * d + head) / total:.1f}% of {total:,} parameters" in text
        assert f"would be {100 * (V * d + other_head) / other_total:.1f}% of {other_total:,}." in text
        seen.add(round(expected[0][0], 6))
    assert len(seen) > len(REAL_MODELS) // 2, "the bars change from model to model"


def test_training_memory_bars_are_bytes_per_parameter_times_counts():
    """Each frame's segments are embedding, head and rest, in GB, at the regime's bytes per parameter,
    counted here from REAL_MODELS and the whole-model totals with the bytes written out by hand."""
    from embedlab import architectures

    hand = [4, 4 + 4 + 4 + 4]  # float32 weights; weights, gradients, m and v (mixed precision: 2 + 2 + 12)
    ex = explorers.training_memory_explorer()
    regimes = ex.controls[1].values
    assert len(regimes) == len(hand)
    for i, m in enumerate(REAL_MODELS):
        share = architectures.embedding_share(m["name"])
        V, d, total, head = m["vocab_size"], m["d_model"], share["total"], share["head"]
        other_head = head + V * d if m["tied"] else head - V * d
        rest = total - V * d - head
        for r, per in zip(regimes, hand, strict=True):
            text = ex.update(model=i, regime=r)
            rects = [p for p in ex.axes.patches if p.get_animated()]
            widths = [[rects[2 * part + row].get_width() for part in range(3)] for row in range(2)]
            expected = [
                [per * n / 1e9 for n in (V * d, head, rest)],
                [per * n / 1e9 for n in (V * d, other_head, rest)],
            ]
            assert widths == [pytest.approx(w, rel=1e-12) for w in expected]
            assert ex.axes.get_xlim()[1] >= 16 * max(total, V * d + other_head + rest) / 1e9  # fixed per model
            saved = per * V * d
            assert f"saves {saved / 1e9:,.2f} GB" in text if m["tied"] else f"would save {saved / 1e9:,.2f} GB" in text
    # in float32, the head GPT-2 small would add is four times as long in training as at rest
    ex.update(model=0, regime=regimes[0])
    rest_gap = sum(p.get_width() for p in [p for p in ex.axes.patches if p.get_animated()][2:4])
    ex.update(model=0, regime=regimes[1])
    adam_gap = sum(p.get_width() for p in [p for p in ex.axes.patches if p.get_animated()][2:4])
    assert adam_gap == pytest.approx(4 * rest_gap, rel=1e-12)


def test_scale_bars_are_the_top_ten_probabilities():
    """Bars against softmaxes computed here from the same seeded draws (E, 1,000 x d, then h), averaged."""
    ex = explorers.scale_explorer()
    for d in ex.controls[0].values:
        for factor, f in ((0, 1.0), (1, d**-0.5)):
            text = ex.update(d=d, factor=factor)
            tops, spreads, effective = [], [], []
            for seed in range(20):
                rng = np.random.default_rng(seed)
                E, h = rng.standard_normal((1000, d)), rng.standard_normal(d)
                z = (f * h) @ E.T
                p = np.exp(z - z.max())
                p = np.sort(p / p.sum())[::-1]
                tops.append(p[:10])
                spreads.append(z.std())
                nz = p[p > 0]
                effective.append(np.exp(-(nz * np.log(nz)).sum()))
            heights = [r.get_height() for r in ex.axes.patches if r.get_animated()]
            np.testing.assert_allclose(heights, np.mean(tops, axis=0), rtol=1e-9, atol=1e-15)
            assert f"spread {np.mean(spreads):.2f}" in text and f"takes {np.mean(tops, axis=0)[0]:.3f}" in text
            assert f"is {np.mean(effective):,.1f} of 1,000" in text
    # the factor holds the spread near 1 at every width; without it the spread grows like sqrt(d)
    for d in (32, 2048):
        plain, scaled = ex.update(d=d, factor=0), ex.update(d=d, factor=1)
        s_plain, s_scaled = (float(re.search(r"spread ([\d.]+)", t).group(1)) for t in (plain, scaled))
        assert 0.9 < s_scaled < 1.1 and 0.9 * d**0.5 < s_plain < 1.1 * d**0.5


def test_gradient_readout_every_combination():
    """Input path + output path = whole gradient, each against a hand-written finite difference
    of the model with E split into a lookup table and a separate output head."""
    ex = explorers.gradient_explorer()
    context = (2, 1)
    assert "context is the, dog" in ex.readout
    for target in range(4):
        g_in, g_out, g_all = two_paths(context, target)
        np.testing.assert_allclose(g_in + g_out, g_all, atol=1e-8)
        for row in range(4):
            text = ex.update(row=row, target=target)
            check_readout(text)
            assert f'row {row} ("{TOKENS[row]}")' in text
            assert f'next token is "{TOKENS[target]}"' in text
            a, b, s = vectors(text)
            assert s == pytest.approx([x + y for x, y in zip(a, b, strict=True)], abs=0.0101)
            assert a == pytest.approx(g_in[row], abs=0.0051)
            assert b == pytest.approx(g_out[row], abs=0.0051)
            assert s == pytest.approx(g_all[row], abs=0.0051)
            heights = bar_heights(ex.axes)
            assert len(heights) == 9
            np.testing.assert_allclose(heights[0:3], g_in[row], atol=1e-6)
            np.testing.assert_allclose(heights[3:6], g_out[row], atol=1e-6)
            np.testing.assert_allclose(heights[6:9], g_all[row], atol=1e-6)
            if row not in context:
                assert a == [0.0, 0.0, 0.0]  # a row not looked up gets nothing on the input path


def test_gradient_explorer_other_context_and_body():
    W = np.array([[0.5, 0.1, 0.0], [-0.2, 0.9, 0.3], [0.0, 0.4, -0.7]])
    ex = explorers.gradient_explorer(context=(0, 0, 3), W=W)
    g_in, g_out, g_all = two_paths((0, 0, 3), 2, W)
    text = ex.update(row=0, target=2)
    a, b, s = vectors(text)
    assert a == pytest.approx(g_in[0], abs=0.0051)
    assert b == pytest.approx(g_out[0], abs=0.0051)
    assert s == pytest.approx(g_all[0], abs=0.0051)


# ---------------------------------------------------------------- blitting
def target_state(ex):
    """A non-default combination: the last value of every control."""
    return {c.name: c.values[-1] if c.values[-1] != c.value else c.values[0] for c in ex.controls}


@pytest.mark.parametrize("name", NAMES)
def test_blit_matches_fresh_explorer(name):
    """Moved through many values, then to v: identical to a fresh explorer sent straight to v."""
    a = FACTORIES[name]()
    rng = random.Random(7)
    for c in a.controls:
        for v in rng.sample(c.values, min(8, len(c.values))):
            a.update(**{c.name: v})
    for _ in range(5):
        a.update(**{c.name: rng.choice(c.values) for c in a.controls})
    v = target_state(a)
    a.update(**v)
    b = FACTORIES[name]()
    b.update(**v)
    assert a.readout == b.readout
    img_a, img_b = decode(a.png()), decode(b.png())
    assert not np.array_equal(img_b, decode(FACTORIES[name]().png()))  # v is not the default picture
    np.testing.assert_array_equal(img_a, img_b)


@pytest.mark.parametrize("name", NAMES)
def test_blit_matches_full_redraw(name):
    """After several blitted updates, the figure equals a full redraw of the same artists."""
    ex = FACTORIES[name]()
    rng = random.Random(11)
    for _ in range(6):
        ex.update(**{c.name: rng.choice(c.values) for c in ex.controls})
    ex.update(**target_state(ex))
    blitted = decode(ex.png())
    np.testing.assert_array_equal(blitted, full_redraw(ex))


# ---------------------------------------------------------------- static HTML
class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


_PAGES: dict = {}


@pytest.fixture(scope="module", params=NAMES)
def page(request):
    """(name, explorer, its to_html(), parsed inputs, parsed imgs), rendered once per module."""
    name = request.param
    if name not in _PAGES:
        ex = FACTORIES[name]()
        text = ex.to_html()
        p = _Collect()
        p.feed(text)
        p.close()
        inputs = [a for t, a in p.tags if t == "input"]
        imgs = [a for t, a in p.tags if t == "img"]
        _PAGES[name] = (name, ex, text, inputs, imgs, p.tags)
    yield _PAGES[name]


def test_html_structure(page):
    _, ex, text, inputs, imgs, tags = page
    assert "<script" not in text.lower()
    assert all("id" not in attrs for _, attrs in tags)
    assert not re.search(r"\sid\s*=", text)
    assert len(inputs) == len(ex.controls)
    for c, a in zip(ex.controls, inputs, strict=True):
        assert a["type"] == "range"
        assert int(a["max"]) == len(c.static_values) - 1
        labels = a["data-labels"].split("|")
        assert len(labels) == len(c.static_values)
        assert labels == [c.show(v) for v in c.static_values]
        assert labels[int(a["value"])] == c.show(c.value)
    assert len(imgs) == math.prod(len(c.static_values) for c in ex.controls)
    assert sum("hidden" not in a for a in imgs) == 1
    for a in imgs:
        assert a["alt"].strip()
        check_readout(a["alt"])


def test_html_frame_counts(made):
    counts = {name: math.prod(len(c.static_values) for c in ex.controls) for name, ex in made[0].items()}
    assert counts == {
        "lookup": 4 * 2,  # four words, counted from 0 or from 1
        "one_hot_cost": len(explorers.SIZE_PRESETS),
        "logits": 5 * 6 * 6,  # every 5th of 21, plus the worked example's 0.2 and -0.3
        "alignment": 24,
        "flatten": 21,
        "saturation": 33,
        "budget": len(REAL_MODELS),
        "training_memory": len(REAL_MODELS) * 2,  # every model, at rest and in training
        "scale": 6 * 2,  # six widths, with the factor and without
        "gradient": 16,
    }


@pytest.mark.parametrize("name", ["lookup", "gradient"])
def test_html_deterministic(name):
    """Two renders of the same explorer, and a fresh explorer's render, are byte-identical."""
    ex = FACTORIES[name]()
    first = ex.to_html()
    assert ex.to_html() == first
    assert FACTORIES[name]().to_html() == first


def test_html_handler_selects_frame_of_the_combination(page):
    """The handler's k = k * (max + 1) + value picks the frame whose alt is the readout there."""
    name, ex, _, inputs, imgs, _ = page
    sizes = [int(a["max"]) + 1 for a in inputs]
    combos = list(itertools.product(*(range(n) for n in sizes)))
    if len(combos) > 40:
        combos = [combos[0], combos[-1], *random.Random(3).sample(combos, 30)]
    oracle = FACTORIES[name]()
    for positions in combos:
        k = 0
        for pos, n in zip(positions, sizes, strict=True):
            k = k * n + pos
        values = {c.name: c.static_values[i] for c, i in zip(ex.controls, positions, strict=True)}
        assert imgs[k]["alt"] == oracle.update(**values)
    # the visible frame is the explorer's starting state
    start = [int(a["value"]) for a in inputs]
    k0 = 0
    for pos, n in zip(start, sizes, strict=True):
        k0 = k0 * n + pos
    assert "hidden" not in imgs[k0]
    assert imgs[k0]["alt"] == ex.readout
    assert ex.readout == FACTORIES[name]().readout  # to_html put the explorer back


def test_html_frame_pictures_match(page):
    """The last frame laid over the background is the explorer's picture there (up to rounding)."""
    name, ex, _, inputs, imgs, _ = page
    sizes = [int(a["max"]) + 1 for a in inputs]
    oracle = FACTORIES[name]()
    last = len(imgs) - 1
    positions = np.unravel_index(last, sizes)
    oracle.update(**{c.name: c.static_values[int(i)] for c, i in zip(ex.controls, positions, strict=True)})
    bg = Image.open(io.BytesIO(ex.background())).convert("RGBA")
    top = Image.open(io.BytesIO(base64.b64decode(imgs[last]["src"].split(",", 1)[1]))).convert("RGBA")
    frame = np.asarray(Image.alpha_composite(bg, top).convert("RGB"), dtype=int)
    assert np.abs(frame - decode(oracle.png()).astype(int)).max() <= 3
    assert imgs[0]["src"] != imgs[last]["src"]


def test_repr_mimebundle_of_an_explorer():
    ex = explorers.lookup_explorer()
    bundle = ex._repr_mimebundle_()
    assert {"text/plain", "text/html"} <= set(bundle)
    plain = bundle["text/plain"]
    assert plain == "Explorer: Lookup: which row comes back (controls: word, ids count from)"
    assert plain == explorers.lookup_explorer()._repr_mimebundle_()["text/plain"]
    assert bundle["text/html"].startswith('<div class="embedlab-explorer" role="group"')


def test_saturation_marks_the_turning_point_and_colours_dots_like_their_curves():
    ex = explorers.saturation_explorer(3)
    curves = [ln for ln in ex.axes.lines if len(ln.get_xdata()) > 2]
    dots = [ln for ln in ex.axes.lines if ln.get_animated()]
    assert [to_rgba(d.get_color()) for d in dots] == [to_rgba(c.get_color()) for c in curves[:2]]
    verticals = [ln for ln in ex.axes.lines if len(set(ln.get_xdata())) == 1 and not ln.get_animated()]
    assert any(ln.get_xdata()[0] == pytest.approx(math.log(3)) for ln in verticals)
    assert any("ln 3" in t.get_text() for t in ex.axes.texts)


def test_saturation_legend_and_note_cover_no_curve_and_each_other():
    ex = explorers.saturation_explorer(3)
    ex.fig.canvas.draw()
    renderer = ex.fig.canvas.get_renderer()
    legend = ex.axes.get_legend().get_window_extent(renderer)
    note = next(t for t in ex.axes.texts if "ln 3" in t.get_text()).get_window_extent(renderer)
    assert not legend.overlaps(note)
    for line in (ln for ln in ex.axes.lines if len(ln.get_xdata()) > 2):
        xy = line.get_transform().transform(np.column_stack(line.get_data()))
        inside = (xy[:, 0] >= legend.x0) & (xy[:, 0] <= legend.x1) & (xy[:, 1] >= legend.y0) & (xy[:, 1] <= legend.y1)
        assert not inside.any(), line.get_label()


@pytest.mark.parametrize("n", [1, 2, 3, 20, 1000, 10_000])
def test_saturation_notes_fit_for_every_vocabulary_it_accepts(n):
    """Notes inside the axes, the legend over no curve and no note, the turning point marked when on range."""
    ex = explorers.saturation_explorer(n)
    ex.fig.canvas.draw()
    renderer = ex.fig.canvas.get_renderer()
    frame = ex.axes.get_window_extent(renderer)
    legend = ex.axes.get_legend().get_window_extent(renderer)
    for text in ex.axes.texts:
        box = text.get_window_extent(renderer)
        assert frame.x0 - 1 <= box.x0 and box.x1 <= frame.x1 + 1 and frame.y0 - 1 <= box.y0 and box.y1 <= frame.y1 + 1
        assert not legend.overlaps(box), text.get_text()
    for line in (ln for ln in ex.axes.lines if len(ln.get_xdata()) > 2):
        xy = line.get_transform().transform(np.column_stack(line.get_data()))
        inside = (xy[:, 0] >= legend.x0) & (xy[:, 0] <= legend.x1) & (xy[:, 1] >= legend.y0) & (xy[:, 1] <= legend.y1)
        assert not inside.any(), line.get_label()
    marked = any(f"ln {n}" in t.get_text() for t in ex.axes.texts)
    assert marked == (math.log(n) <= 8.0)
