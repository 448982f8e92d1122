"""Tests for embedlab.corpus and embedlab.train: the model's whole gradient against central finite
differences and a hand-written forward pass, determinism, which rows of E move under each scheme,
the corpus's structure, the geometry helpers, and the argument checks."""

import numpy as np
import pytest

from embedlab import param_count
from embedlab.corpus import CLASSES, OBJECT_OF, context_windows, make_corpus
from embedlab.train import (
    adam_state,
    adam_step,
    class_cosine,
    compare,
    fit,
    geometry_track,
    init_params,
    loss,
    loss_and_grads,
    matched_width,
    model_param_count,
    pca_2d,
    train,
)
from tests.oracles import central_diff

RNG = np.random.default_rng(7)
CORPUS = make_corpus(0)
SHORT = {"steps": 40, "n_checkpoints": 5}


def hand_loss(params, contexts, targets):
    """Independent forward pass, one example at a time with Python loops."""
    E = params["E"]
    head = params.get("W", E)
    total = 0.0
    for ctx, y in zip(contexts, targets, strict=True):
        x = sum(E[i] for i in ctx) / len(ctx)
        h = np.tanh(x @ params["Wh"] + params["bh"]) if "Wh" in params else x
        z = np.array([h @ head[j] for j in range(len(head))])
        total += np.log(np.sum(np.exp(z - z.max()))) + z.max() - z[y]
    return total / len(targets)


def small_problem(tied, hidden, V=7, d=3, k=2, n=6, seed=0):
    params = init_params(V, d, tied=tied, hidden=hidden, seed=seed)
    if hidden:
        params["bh"] = 0.1 * RNG.standard_normal(d)  # a non-zero bias, so its gradient is tested away from 0
    contexts = RNG.integers(0, V - 2, size=(n, k))  # rows V-2 and V-1 are never read
    contexts[0] = [1, 1]  # a repeated id
    targets = RNG.integers(0, V, size=n)
    return params, (contexts, targets)


# ---------------------------------------------------------------- the gradient
@pytest.mark.parametrize("tied", [True, False])
@pytest.mark.parametrize("hidden", [True, False])
def test_loss_matches_hand_forward_pass(tied, hidden):
    params, (ctx, y) = small_problem(tied, hidden)
    assert loss(params, (ctx, y)) == pytest.approx(hand_loss(params, ctx, y), rel=1e-12)


@pytest.mark.parametrize("tied", [True, False])
@pytest.mark.parametrize("hidden", [True, False])
def test_full_gradient_matches_central_differences(tied, hidden):
    """Every parameter's analytic gradient against central differences of the hand-written loss."""
    params, (ctx, y) = small_problem(tied, hidden)
    L, grads = loss_and_grads(params, (ctx, y))
    assert L == pytest.approx(hand_loss(params, ctx, y), rel=1e-12)
    assert sorted(grads) == sorted(params)
    for name, value in params.items():
        numeric = central_diff(lambda A, name=name: hand_loss({**params, name: A}, ctx, y), value)
        assert grads[name].shape == value.shape
        np.testing.assert_allclose(grads[name], numeric, rtol=1e-6, atol=1e-8, err_msg=name)


@pytest.mark.parametrize("hidden", [True, False])
def test_tied_gradient_is_the_sum_of_the_two_untied_paths(hidden):
    """An untied model whose W equals E has the same loss; its two gradients add up to the tied one."""
    tied, batch = small_problem(True, hidden)
    untied = {**tied, "W": tied["E"].copy()}
    L_tied, g_tied = loss_and_grads(tied, batch)
    L_untied, g_untied = loss_and_grads(untied, batch)
    assert L_tied == L_untied
    np.testing.assert_allclose(g_tied["E"], g_untied["E"] + g_untied["W"], rtol=1e-12, atol=1e-15)


def test_rows_with_gradient_input_path_only_rows_read_output_path_every_row():
    params, (ctx, y) = small_problem(False, True)
    _, g = loss_and_grads(params, (ctx, y))
    np.testing.assert_array_equal(np.flatnonzero(np.any(g["E"] != 0, axis=1)), np.unique(ctx))
    assert np.all(np.any(g["W"] != 0, axis=1))
    _, g_tied = loss_and_grads({k: v for k, v in params.items() if k != "W"}, (ctx, y))
    assert np.all(np.any(g_tied["E"] != 0, axis=1))


def test_param_count_counts_the_arrays():
    """model_param_count (example G's formula plus the hidden layer) equals the sizes of init_params' arrays."""
    for tied in (True, False):
        for hidden in (True, False):
            p = init_params(127, 16, tied=tied, hidden=hidden)
            assert model_param_count(127, 16, tied=tied, hidden=hidden) == sum(a.size for a in p.values())
    assert model_param_count(127, 16, tied=False, hidden=False) == param_count(127, 16, tied=False)


def test_matched_width_is_nearest_in_parameters():
    target = model_param_count(127, 16, tied=True)
    w = matched_width(127, 16)
    gaps = {d: abs(model_param_count(127, d, tied=False) - target) for d in range(1, 17)}
    assert gaps[w] == min(gaps.values())


# ---------------------------------------------------------------- training
def test_adam_step_against_the_paper_and_zero_gradients_never_move():
    """Two steps against Kingma and Ba's update written out; an entry whose gradient stays 0 keeps its value."""
    p = {"E": np.array([[1.0, -2.0]]), "bh": np.array([0.5])}
    st = adam_state(p)
    g1, g2 = np.array([[0.3, 0.0]]), np.array([[-0.1, 0.0]])
    adam_step(p, {"E": g1, "bh": np.zeros(1)}, st, lr=0.1)
    adam_step(p, {"E": g2, "bh": np.zeros(1)}, st, lr=0.1)
    m1, v1 = 0.1 * 0.3, 0.001 * 0.09
    m2, v2 = 0.9 * m1 + 0.1 * -0.1, 0.999 * v1 + 0.001 * 0.01
    x = 1.0 - 0.1 * (m1 / 0.1) / (np.sqrt(v1 / 0.001) + 1e-8)
    x -= 0.1 * (m2 / (1 - 0.9**2)) / (np.sqrt(v2 / (1 - 0.999**2)) + 1e-8)
    assert p["E"][0, 0] == pytest.approx(x, rel=1e-12)
    assert p["E"][0, 1] == -2.0 and p["bh"][0] == 0.5 and st["t"] == 2


def test_training_lowers_the_loss_and_records_the_shapes():
    r = train(CORPUS, tied=False, **SHORT)
    V, d = CORPUS.vocab_size, 16
    c = len(r.checkpoint_steps)
    assert r.checkpoint_steps[0] == 0 and r.checkpoint_steps[-1] == 40
    assert r.E_checkpoints.shape == (c, V, d) and r.W_checkpoints.shape == (c, V, d)
    assert r.train_loss.shape == r.valid_loss.shape == (c,)
    assert r.batch_loss.shape == r.rows_touched.shape == (40,)
    assert r.valid_loss[-1] < r.valid_loss[0] - 1.0
    np.testing.assert_array_equal(r.E_checkpoints[0], r.E_init)
    np.testing.assert_array_equal(r.E_checkpoints[-1], r.params["E"])


def test_same_seed_same_run_other_seed_other_run():
    a, b = train(CORPUS, tied=True, seed=3, **SHORT), train(CORPUS, tied=True, seed=3, **SHORT)
    np.testing.assert_array_equal(a.E_checkpoints, b.E_checkpoints)
    np.testing.assert_array_equal(a.batch_loss, b.batch_loss)
    np.testing.assert_array_equal(a.valid_loss, b.valid_loss)
    c = train(CORPUS, tied=True, seed=4, **SHORT)
    assert not np.array_equal(a.E_init, c.E_init)


def test_corpus_is_deterministic():
    a, b = make_corpus(5, 50, 20), make_corpus(5, 50, 20)
    assert all(np.array_equal(x, y) for x, y in zip(a.train + a.valid, b.train + b.valid, strict=True))
    c = make_corpus(6, 50, 20)
    assert not all(np.array_equal(x, y) for x, y in zip(a.train, c.train, strict=True))


def test_untied_rows_never_read_stay_exactly_at_init_tied_rows_move():
    never = CORPUS.never_read()
    untied = train(CORPUS, tied=False, **SHORT)
    tied = train(CORPUS, tied=True, **SHORT)
    for E in untied.E_checkpoints:
        np.testing.assert_array_equal(E[never], untied.E_init[never])  # bit for bit
    assert np.all(untied.row_updates[never] == 0)
    read = np.setdiff1d(np.arange(CORPUS.vocab_size), never)
    assert np.all(np.linalg.norm(untied.params["E"][read] - untied.E_init[read], axis=1) > 0)
    assert np.all(np.linalg.norm(tied.params["E"][never] - tied.E_init[never], axis=1) > 0.05)
    # untied, the output matrix W moves everywhere, the never-read rows included
    assert np.all(np.linalg.norm(untied.W_checkpoints[-1] - untied.W_checkpoints[0], axis=1) > 0.05)


def test_update_counts_tied_every_row_every_step_untied_only_rows_read():
    tied = train(CORPUS, tied=True, **SHORT)
    untied = train(CORPUS, tied=False, **SHORT)
    V = CORPUS.vocab_size
    assert np.all(tied.rows_touched == V) and np.all(tied.row_updates == 40)
    n_read = V - len(CORPUS.never_read())
    assert np.all(untied.rows_touched <= n_read) and untied.rows_touched.max() < V
    assert untied.row_updates.max() <= 40 and untied.row_updates.sum() == untied.rows_touched.sum()


def test_compare_summary_and_drift():
    res = compare(seeds=(0, 1), d=8, steps=30, n_checkpoints=3)
    s = res.summary()
    assert list(s) == ["tied", "untied", "untied, same params"]
    assert s["tied"]["n_params"] == model_param_count(CORPUS.vocab_size, 8, tied=True)
    assert s["untied, same params"]["d"] == matched_width(CORPUS.vocab_size, 8)
    assert res.curves("tied").shape == (2, 3)
    assert res.drift("untied").shape == (2, len(CORPUS.never_read()))
    assert np.all(res.drift("untied") == 0) and np.all(res.drift("untied, same params") == 0)
    assert np.all(res.drift("tied") > 0)
    for name in s:
        assert s[name]["final_valid"] == pytest.approx(res.curves(name)[:, -1].mean())


# ---------------------------------------------------------------- corpus
def test_sentences_follow_the_grammar():
    cls = CORPUS.classes
    for s in CORPUS.train + CORPUS.valid:
        c = [str(cls[i]) for i in s]
        assert c[0] == "start" and c[1] == "det"
        i = 3 if c[2] == "adj" else 2
        assert c[i] == "agent"
        verb = c[i + 1]
        if verb == "v-intrans":
            assert len(c) == i + 2
        else:
            obj = c[i + 2 :]
            assert obj[0] == "det" and obj[-1] == OBJECT_OF[verb] and len(obj) in (2, 3)


def test_target_only_tokens_are_never_in_a_training_context():
    ctx, y = context_windows(CORPUS.train, 3)
    only = CORPUS.target_only()
    assert len(only) > 10
    assert not np.isin(ctx, only).any() and np.isin(only, y).all()
    assert not np.isin(ctx, CORPUS.unseen()).any() and not np.isin(CORPUS.unseen(), y).any()
    inputs, targets = CORPUS.counts()
    assert inputs[0] > 0 and targets[0] == 0  # <s> is read, never predicted
    assert set(CORPUS.never_read()) == set(only) | set(CORPUS.unseen())


def test_vocabulary_classes_and_zipf_tail():
    assert CORPUS.vocab_size == sum(len(t) for t in CLASSES.values())
    assert len(set(CORPUS.vocab)) == CORPUS.vocab_size
    _, targets = CORPUS.counts()
    for name in ("food", "vehicle", "tool", "agent"):
        ids = np.flatnonzero(CORPUS.classes == name)
        assert targets[ids[0]] > 5 * max(targets[ids[-1]], 1)  # the head is far commoner than the tail


def test_context_windows_against_loops():
    sentences = [RNG.integers(1, 9, size=n) for n in (2, 5, 7)]
    sentences = [np.r_[0, s] for s in sentences]
    ctx, y = context_windows(sentences, 3)
    want_ctx, want_y = [], []
    for s in sentences:
        padded = [0, 0, *s]
        for t in range(1, len(s)):
            want_ctx.append(padded[t - 1 : t + 2])  # s[t] sits at padded[t + 2]
            want_y.append(s[t])
    np.testing.assert_array_equal(ctx, want_ctx)
    np.testing.assert_array_equal(y, want_y)


# ---------------------------------------------------------------- geometry
def test_pca_2d_keeps_distances_of_planar_rows():
    plane = RNG.standard_normal((10, 2))
    Q, _ = np.linalg.qr(RNG.standard_normal((5, 2)))
    E = plane @ Q.T + 3.0  # rows on a shifted plane in 5-D
    coords, basis = pca_2d(E)
    dist = lambda A: np.linalg.norm(A[:, None] - A[None], axis=-1)  # noqa: E731
    np.testing.assert_allclose(dist(coords), dist(E), atol=1e-10)
    np.testing.assert_allclose(basis.T @ basis, np.eye(2), atol=1e-12)


def test_geometry_track_uses_the_final_plane():
    stack = RNG.standard_normal((4, 9, 5))
    track = geometry_track(stack)
    np.testing.assert_allclose(track[-1], pca_2d(stack[-1])[0])
    _, basis = pca_2d(stack[-1])
    np.testing.assert_allclose(track[0], (stack[0] - stack[0].mean(axis=0)) @ basis)


def test_class_cosine_separates_clustered_rows():
    centres = np.eye(4)[:3] * 5
    classes = np.repeat(["a", "b", "c"], 4)
    E = np.repeat(centres, 4, axis=0) + 0.1 * RNG.standard_normal((12, 4))
    within, between = class_cosine(E, classes)
    assert within > 0.95 and abs(between) < 0.1


# ---------------------------------------------------------------- argument checks
def test_loss_and_grads_refuses_bad_params():
    p, batch = small_problem(True, True)
    with pytest.raises(TypeError, match="params must be a dict"):
        loss_and_grads([p["E"]], batch)
    with pytest.raises(ValueError, match="params must hold 'E'"):
        loss_and_grads({"W": p["E"]}, batch)
    with pytest.raises(ValueError, match="both 'Wh' and 'bh'"):
        loss_and_grads({"E": p["E"], "Wh": p["Wh"]}, batch)
    with pytest.raises(ValueError, match=r"W must have shape \(7, 3\)"):
        loss_and_grads({**p, "W": np.zeros((7, 4))}, batch)
    with pytest.raises(ValueError, match="Wh must be finite"):
        loss_and_grads({**p, "Wh": np.full((3, 3), np.nan)}, batch)
    with pytest.raises(TypeError, match="E must be an array of real numbers"):
        loss_and_grads({"E": "abc"}, batch)


def test_loss_and_grads_refuses_bad_batches():
    p, (ctx, y) = small_problem(False, False)
    with pytest.raises(TypeError, match="batch must be a tuple"):
        loss_and_grads(p, [ctx, y])
    with pytest.raises(ValueError, match="contexts must be in"):
        loss_and_grads(p, (ctx - 5, y))
    with pytest.raises(ValueError, match="targets must be in"):
        loss_and_grads(p, (ctx, y + 7))
    with pytest.raises(ValueError, match=r"contexts of shape \(n, k\)"):
        loss_and_grads(p, (ctx, y[:-1]))
    with pytest.raises(TypeError, match="targets must be integer token ids"):
        loss_and_grads(p, (ctx, y.astype(float)))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"tied": "yes"}, TypeError, "tied must be True or False"),
        ({"tied": True, "hidden": 1}, TypeError, "hidden must be True or False"),
        ({"tied": True, "d": 0}, ValueError, "d must be a positive integer"),
        ({"tied": True, "steps": 2.5}, TypeError, "steps must be a positive integer"),
        ({"tied": True, "lr": -0.1}, ValueError, "lr must be a positive finite number"),
        ({"tied": True, "lr": "fast"}, TypeError, "lr must be a positive real number"),
        ({"tied": True, "n_checkpoints": 1}, ValueError, "n_checkpoints must be at least 2"),
        ({"tied": True, "seed": -1}, ValueError, "seed must be a non-negative int"),
    ],
)
def test_train_refuses_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        train(CORPUS, **kwargs)


def test_train_and_compare_refuse_a_bad_corpus_and_seeds():
    with pytest.raises(TypeError, match=r"corpus must be an embedlab\.corpus\.Corpus"):
        train([[0, 1, 2]], tied=True)
    with pytest.raises(TypeError, match="seeds must be a sequence of ints"):
        compare(seeds=3)
    with pytest.raises(ValueError, match="seeds must hold at least one seed"):
        compare(seeds=())
    with pytest.raises(TypeError, match="compare sets 'tied' itself"):
        compare(seeds=(0,), tied=True)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"seed": -2}, ValueError, "seed must be a non-negative int"),
        ({"seed": 1.0}, TypeError, "seed must be a non-negative int"),
        ({"n_train": 0}, ValueError, "n_train must be a positive integer"),
        ({"p_adjective": 1.5}, ValueError, r"p_adjective must be in \[0.0, 1.0\]"),
        ({"zipf_exponent": "1"}, TypeError, "zipf_exponent must be a real number"),
    ],
)
def test_make_corpus_refuses_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        make_corpus(**kwargs)


def test_geometry_helpers_refuse_bad_input():
    with pytest.raises(ValueError, match="at least 2 columns"):
        pca_2d(np.ones((4, 1)))
    with pytest.raises(ValueError, match=r"basis must have shape \(3, 2\)"):
        pca_2d(np.ones((4, 3)), basis=np.ones((2, 2)))
    with pytest.raises(ValueError, match="one label per row"):
        class_cosine(np.ones((4, 3)), ["a", "b"])
    with pytest.raises(ValueError, match="split must be 'train', 'valid' or 'test'"):
        CORPUS.counts("dev")
    with pytest.raises(ValueError, match="which must be 'valid' or 'train'"):
        compare(seeds=(0,), steps=2, n_checkpoints=2).curves("tied", "test")


# -- early stopping, splits and optimizers -------------------------------------------------------

SMALL = make_corpus(3, n_train=80, n_valid=40, n_test=40)


def _split_loss(params, sentences, k=3):
    ctx, y = context_windows(sentences, k)
    return loss(params, (ctx, y))


def test_fit_reports_its_best_checkpoint_on_every_split():
    r = fit(SMALL, tied=False, d=6, lr=0.05, max_steps=400, eval_every=20, patience=3)
    assert r.eval_steps[0] == 0 and np.all(np.diff(r.eval_steps) == 20)
    i = int(np.argmin(r.valid_curve))
    assert r.best_step == r.eval_steps[i] and r.best_valid == r.valid_curve[i]
    # Early stopping: exactly `patience` evaluations after the best, unless the cap came first.
    assert r.capped or r.eval_steps[-1] == r.best_step + 3 * 20
    # The reported numbers are the kept parameters' losses, recomputed here on whole splits.
    assert r.best_valid == pytest.approx(_split_loss(r.params, SMALL.valid), rel=1e-12)
    assert r.best_test == pytest.approx(_split_loss(r.params, SMALL.test), rel=1e-12)
    assert r.best_test != pytest.approx(r.best_valid, rel=1e-6)  # a split of its own


def test_fit_stops_at_the_cap_and_says_so():
    r = fit(SMALL, tied=True, d=4, lr=0.001, max_steps=30, eval_every=20, patience=5)
    assert r.capped and r.stopped_step == 30 and r.eval_steps.tolist() == [0, 20, 30]


def test_corpus_splits_are_disjoint_streams_and_train_grows_by_extension():
    a, b = make_corpus(5, n_train=30), make_corpus(5, n_train=90)
    assert all(np.array_equal(x, y) for x, y in zip(a.train, b.train[:30], strict=True))
    assert all(np.array_equal(x, y) for x, y in zip(a.valid, b.valid, strict=True))
    assert all(np.array_equal(x, y) for x, y in zip(a.test, b.test, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a.valid, a.test, strict=False))


def test_sgd_is_the_plain_gradient_step():
    r0 = train(SMALL, tied=True, d=4, steps=1, lr=0.5, optimizer="sgd", n_checkpoints=2, seed=2)
    p = init_params(SMALL.vocab_size, 4, tied=True, seed=2)
    ctx, y = context_windows(SMALL.train, 3)
    idx = np.random.default_rng([2, 1]).permutation(len(y))[:128]
    _, g = loss_and_grads(p, (ctx[idx], y[idx]))
    for name in p:
        np.testing.assert_allclose(r0.params[name], p[name] - 0.5 * g[name], rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("optimizer", ["sgd", "adam", "adamw"])
def test_rows_never_read_under_each_optimizer(optimizer):
    """Untied: SGD and Adam leave them exactly; AdamW's decay shrinks them by (1 - lr * wd) ** steps."""
    lr, steps = 0.02 if optimizer != "sgd" else 1.0, 50
    r = train(SMALL, tied=False, d=4, steps=steps, lr=lr, optimizer=optimizer, n_checkpoints=2)
    never = SMALL.never_read()
    assert len(never) > 10
    if optimizer == "adamw":
        factor = (1 - lr * 0.01) ** steps
        np.testing.assert_allclose(r.params["E"][never], factor * r.E_init[never], rtol=1e-12)
    else:
        assert np.array_equal(r.params["E"][never], r.E_init[never])
    tied = train(SMALL, tied=True, d=4, steps=steps, lr=lr, optimizer=optimizer, n_checkpoints=2)
    assert np.all(np.linalg.norm(tied.params["E"][never] - tied.E_init[never], axis=1) > 0)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"optimizer": "rmsprop"}, ValueError, "optimizer must be one of"),
        ({"optimizer": None}, TypeError, "optimizer must be one of"),
        ({"optimizer": "adam", "weight_decay": 0.1}, ValueError, "weight_decay is AdamW's"),
        ({"optimizer": "adamw", "weight_decay": 1.0}, ValueError, "weight_decay must be in"),
        ({"optimizer": "adamw", "weight_decay": "0.1"}, TypeError, "weight_decay must be a real"),
        ({"max_steps": 2**50}, ValueError, "max_steps must be at most"),
        ({"max_steps": 10, "eval_every": 20}, ValueError, "eval_every must be at most max_steps"),
        ({"patience": 0}, ValueError, "patience must be a positive"),
        ({"lr": float("nan")}, ValueError, "lr must be a positive finite"),
        ({"d": 10**9}, ValueError, "d"),
        ({"k": 10**12}, ValueError, "k must be at most the longest sentence"),
    ],
)
def test_fit_refuses_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        fit(SMALL, tied=True, **kwargs)


def test_train_refuses_absurd_step_counts():
    with pytest.raises(ValueError, match="steps must be at most"):
        train(SMALL, tied=True, steps=2**50)


def test_compare_geometry_is_class_cosine_seed_by_seed():
    res = compare(seeds=(0, 1), corpus=SMALL, d=4, **SHORT)
    read = np.setdiff1d(np.arange(1, SMALL.vocab_size), SMALL.never_read())
    geo = res.geometry(read)
    assert set(geo) == {"tied E", "untied E (input)", "untied W (output)"}
    expected = class_cosine(res.runs["untied"][1].params["W"], SMALL.classes, read)
    assert tuple(geo["untied W (output)"][1]) == expected


def test_a_diverging_run_is_blamed_on_lr_without_a_warning():
    with pytest.raises(ValueError, match=r"lr 1e\+308 is too large: training diverged"):
        fit(SMALL, tied=True, d=4, lr=1e308, max_steps=50, eval_every=5)
    with pytest.raises(ValueError, match="lr times weight_decay must be below 1"):
        fit(SMALL, tied=True, optimizer="adamw", lr=3.0, weight_decay=0.9)


def test_class_cosine_refuses_repeated_ids():
    with pytest.raises(ValueError, match="ids must not repeat"):
        class_cosine(np.eye(4), ["a", "a", "b", "b"], [0, 0, 1, 2])


def test_sizes_are_checked_against_the_address_space_limit():
    """Under `ulimit -v` (RLIMIT_AS) a model too large for the limit is refused before training."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(
        """
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, resource.RLIM_INFINITY))
        from embedlab.corpus import make_corpus
        from embedlab.train import fit
        try:
            fit(make_corpus(0, n_train=20, n_valid=5, n_test=5), tied=False, d=12000, max_steps=1, eval_every=1)
        except ValueError as exc:
            print("refused:", exc)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.startswith("refused:") and "d" in out.stdout, out.stderr[-500:]


def test_class_cosine_is_scale_invariant_and_sized_before_allocating():
    M = np.array([[1.0, 0.0], [1.0, 0.1], [0.0, 1.0], [0.1, 1.0]])
    for scale in (1e-200, 1e-13, 1.0, 1e200):
        assert class_cosine(M * scale, list("aabb")) == pytest.approx(class_cosine(M, list("aabb")), rel=1e-12)
    with pytest.raises(TypeError, match="classes"):
        class_cosine(np.eye(3), np.ma.array(["a", "a", "b"], mask=[0, 0, 1]))


def test_fit_names_a_malformed_corpus_and_not_lr():
    from embedlab.corpus import Corpus

    with pytest.raises(ValueError, match=r"test must hold token ids in \[0, 126\], got ids in \[0, 500\]"):
        Corpus(SMALL.train, SMALL.valid, (np.array([0, 500]),), SMALL.vocab, SMALL.classes, 3)
    masked = np.ma.array([0, 5, 7], mask=[0, 0, 1])
    with pytest.raises(TypeError, match=r"valid\[0\] must be a 1-D int NumPy array"):
        Corpus(SMALL.train, (masked,), SMALL.test, SMALL.vocab, SMALL.classes, 3)
    with pytest.raises(TypeError, match="vocab must be a non-empty tuple of str"):
        Corpus(SMALL.train, SMALL.valid, SMALL.test, list(SMALL.vocab), SMALL.classes, 3)
    empty = Corpus(SMALL.train, SMALL.valid, (), SMALL.vocab, SMALL.classes, 3)
    with pytest.raises(ValueError, match="its test split has none"):
        fit(empty, tied=True, d=4)


def test_make_corpus_with_an_integer_zipf_exponent():
    assert make_corpus(0, n_train=5, n_valid=5, n_test=5, zipf_exponent=100).vocab_size == 127


# ---------------------------------------------------------------- checks at the boundary, kernels in the loop
def composed_from_public_functions(params, batch):
    """The model's loss and gradients built from embedlab's public, checking functions, one call each."""
    from embedlab import cross_entropy, cross_entropy_grad, embedding_grad, lookup, output_grad, tied_grad

    ctx, y = batch
    E, V = params["E"], params["E"].shape[0]
    n, k = ctx.shape
    x = lookup(E, ctx).mean(axis=1)
    h = np.tanh(x @ params["Wh"] + params["bh"]) if "Wh" in params else x
    head = params.get("W", E)
    logits = h @ head.T
    dz = cross_entropy_grad(logits, y)
    grads = {}
    dh = dz @ head
    if "Wh" in params:
        da = dh * (1.0 - h**2)
        grads["Wh"], grads["bh"], dx = x.T @ da, da.sum(axis=0), da @ params["Wh"].T
    else:
        dx = dh
    up = np.broadcast_to((dx / k)[:, None, :], (n, k, x.shape[1]))
    if "W" in params:
        grads["E"], grads["W"] = embedding_grad(ctx, up, V), output_grad(h, dz)
    else:
        grads["E"] = tied_grad(ctx, up, h, dz, V)
    return cross_entropy(logits, y), grads


@pytest.mark.parametrize("tied", [True, False])
@pytest.mark.parametrize("hidden", [True, False])
def test_the_loop_kernels_give_the_public_functions_results_bit_for_bit(tied, hidden):
    """The kernels the loop runs are the public functions' own maths: the same bits, not merely close ones."""
    params = init_params(CORPUS.vocab_size, 6, tied=tied, hidden=hidden, seed=3)
    ctx, y = context_windows(CORPUS.train[:60], 3)
    L, g = loss_and_grads(params, (ctx, y))
    L_pub, g_pub = composed_from_public_functions(params, (ctx, y))
    assert L == L_pub and loss(params, (ctx, y)) == L_pub
    assert sorted(g) == sorted(g_pub)
    for name in g:
        np.testing.assert_array_equal(g[name], g_pub[name])


def validation_calls(fn):
    """How many times fn() enters an argument check of embedlab._validation (not counting the two helpers
    the maths itself uses: ``work_dtype``, which picks the dtype to sum in, and ``check_fits``, which
    rounds a result and refuses one that overflowed)."""
    import sys

    import embedlab._validation as validation

    calls, maths = [0], ("work_dtype", "check_fits")

    def profile(frame, event, arg):
        code = frame.f_code
        if event == "call" and code.co_filename == validation.__file__ and code.co_name not in maths:
            calls[0] += 1

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return calls[0]


@pytest.mark.parametrize("optimizer", ["adam", "sgd"])
def test_training_checks_its_inputs_once_not_at_every_step(optimizer):
    """Fifty more steps make no more argument checks: the loop runs kernels on data checked where it entered."""
    run = dict(corpus=CORPUS, tied=True, d=4, batch_size=16, n_checkpoints=3, optimizer=optimizer)
    few = validation_calls(lambda: train(steps=10, **run))
    many = validation_calls(lambda: train(steps=60, **run))
    assert few > 0  # the arguments are checked at the start
    assert many == few
