"""The self-check's exercise bank: cells A-H, numbers of their own, every answer computed by embedlab.

:func:`bank` returns the graded exercises in order; :func:`warmup` the forecast that opens the
self-check. Nothing here is typed from a worked example: the exercises use their own five-token
matrix :data:`E5`, their own contexts and their own model sizes (no row of the toy ``E`` and no
``(V, d)`` pair of the real models in worked example G). The two exceptions are C3 and C4, "find
the slip", which hand the learner the draft's own softmax for C. Every answer, every slip value
and every number in a worked solution is computed below.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ._validation import _describe, check_size, plain_str, short_repr
from .architectures import DecoderConfig, counts
from .budget import param_bytes, param_count
from .geometry import angle_deg
from .grads import embedding_grad, output_grad
from .logits import tied_logits
from .lookup import lookup, one_hot_cost
from .quiz import Exercise, Forecast, Slip
from .softmax import cross_entropy_grad, saturation_prob, softmax
from .tokens import E_TOY, TOKENS

__all__ = [
    "B_SIZE",
    "DRAFT_C",
    "E5",
    "G_SIZE",
    "H_C",
    "VOCAB5",
    "bank",
    "get",
    "solve_half",
    "warmup",
]

#: A five-token vocabulary and its 5x2 embedding matrix: the self-check's own E (no worked example uses it).
VOCAB5: tuple[str, ...] = ("sun", "moon", "star", "sky", "sea")
E5: np.ndarray = np.array([[0.1, 0.4], [-0.3, 0.2], [0.5, -0.1], [0.0, 0.7], [-0.6, -0.2]])  # (5, 2)
E5.setflags(write=False)

#: Model sizes of the self-check's own (V, d): no real model of worked example G has them.
B_SIZE: tuple[int, int] = (60_000, 1_000)
G_SIZE: tuple[int, int] = (40_000, 1_536)

#: The draft's softmax for worked example C, as it was written by hand.
DRAFT_C = (0.19, 0.21, 0.15, 0.40)
H_C = (0.5, 0.2, -0.3)  # example C's context, only to check the draft


def _vec(v: np.ndarray | tuple[float, ...], digits: int = 2) -> str:
    return "[" + ", ".join(f"{x:.{digits}f}" for x in v) + "]"


def solve_half(n_others: int) -> float:
    """The logit t at which ``saturation_prob(t, n_others) == 1/2``, found by bisection on embedlab."""
    n_others = check_size(n_others, "n_others")
    lo, hi = -50.0, math.log(n_others) + 50.0  # P0 = 1/2 at t = ln n: the bracket always holds it
    for _ in range(200):
        mid = (lo + hi) / 2
        if saturation_prob(mid, n_others) < 0.5:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def warmup() -> Forecast:
    """The self-check's opening forecast: two tokens share a row of a tied E; how far apart are their rows
    after one training step with one of them as the target?"""
    E = np.vstack([E5, E5[1]])  # a sixth token with moon's row
    h, lr = np.array([0.6, -0.3]), 0.5  # |h| is not 1, so the learning rate alone is not the answer
    g_rows = output_grad(h, cross_entropy_grad(tied_logits(h, E), 1))  # moon (id 1) is the target
    E_after = E - lr * g_rows  # one step of gradient descent
    apart = float(np.linalg.norm(E_after[1] - E_after[5]))
    return Forecast(
        f"Two tokens share the same row of a tied E (no output bias), and neither is in the context. Take one "
        f"gradient-descent step on the cross-entropy loss, learning rate {lr:g}, for a context whose vector is "
        f"h = {_vec(h, 1)} and whose next token is the first of the two. What is the distance between their two "
        "rows afterwards (the length of their difference)?",
        apart,
        abs_tol=0.01,
        fmt="{:.2f}",
        slips=[
            Slip(0.0, "Equal rows do not always get equal gradients: what does each row's y contribute?"),
            Slip(lr, "The rows part along h: how long is h?"),
            Slip(float(np.linalg.norm(h)), "That is the length of h: the step is scaled by the learning rate."),
        ],
        trap="0 is tempting: the two rows are equal, so their gradients feel as if they must be too. But the "
        "output path gives each row (p_j − y_j) h: p is the same for both, y is 1 for the target and 0 for the "
        f"other, so the rows part by the learning rate times h, here {lr:g} × {_vec(h, 1)}, of length {apart:.2f}.",
        settles="worked example E (degenerate inputs), step 3, takes such a step and shows the two rows part.",
        title="Warm-up forecast",
    )


def get(key: str) -> Exercise:
    """The exercise of :func:`bank` whose title starts with ``key`` ("C1", "G2"...), made once per session.

    Examples
    --------
    >>> get("F1").title
    'F1 · Where P0 is one half'
    """
    if not issubclass(type(key), str):
        raise TypeError(f"key must be an exercise's key such as 'C1' (a str), got {_describe(key)}")
    key = plain_str(key)
    for exercise in _bank():
        if exercise.title.split(" ")[0] == key:
            return exercise
    keys = [e.title.split(" ")[0] for e in _bank()]
    raise ValueError(f"key must be one of {keys}, got {short_repr(key)}")


@functools.cache
def _bank() -> tuple[Exercise, ...]:
    return tuple(bank())


def bank() -> list[Exercise]:
    """Every exercise of the self-check, in order (A to H), freshly made."""
    out: list[Exercise] = []

    # -- A: lookup -------------------------------------------------------------------------------
    last = np.asarray(E5)[-1]  # what plain NumPy does with -1
    which = next(i for i, row in enumerate(E5) if np.array_equal(row, last))
    a1_choices = ("an IndexError", "a row of zeros", f"the row of '{VOCAB5[which]}'", f"the row of '{VOCAB5[0]}'")
    out.append(
        Exercise(
            f"The vocabulary is {', '.join(VOCAB5)} (ids in that order) and E has one row per token. "
            "In plain NumPy, what does E[-1] return?",
            a1_choices[2],
            choices=a1_choices,
            slips=[Slip("an IndexError", "NumPy does not raise here: a negative index means something to it.")],
            solution=f"NumPy counts negative indexes from the end, so E[-1] is the last row, the vector of "
            f"'{VOCAB5[which]}', {_vec(last, 1)}. No error is raised: a stray -1 id silently embeds the wrong token. "
            "That is why embedlab's lookup refuses negative ids with a ValueError.",
            title="A1 · A negative id",
            cell="A",
            misconception="A negative id raises an error (in NumPy it silently returns the last row).",
        )
    )
    star = VOCAB5.index("star")
    row = lookup(E5, star)  # (2,)
    rows_text = "; ".join(_vec(r, 1) for r in E5)  # unlabelled: the id alone says which row
    out.append(
        Exercise(
            f"Same vocabulary. E's rows, in id order, are {rows_text}. What is the second number of lookup(E, {star})?",
            float(row[1]),
            abs_tol=0.001,
            fmt="{:.1f}",
            slips=[
                Slip(
                    float(lookup(E5, star - 1)[1]),
                    f"That is row number {star} counting from 1: ids count from 0, so id {star} is the "
                    f"{('first', 'second', 'third', 'fourth', 'fifth')[star]} row.",
                )
            ],
            solution=f"Ids count from 0, so lookup(E, {star}) copies the row of id {star}, '{VOCAB5[star]}', "
            f"{_vec(row, 1)}. Its second number is {row[1]:.1f}.",
            title="A2 · Which row",
            cell="A",
            misconception="Ids count from 1 (they count from 0).",
        )
    )

    from . import gpt2  # GPT-2's real vocabulary, read from the verified files

    sentence = "the cat and the dog and the bird"
    ids_gpt2 = gpt2.encode(sentence)
    shown = gpt2.tokens(ids_gpt2)
    words = sentence.split()
    out.append(
        Exercise(
            f'GPT-2 turns "{sentence}" into {len(ids_gpt2)} tokens, one per word. '
            "How many different rows of its embedding matrix E does the lookup read?",
            len(set(ids_gpt2)),
            abs_tol=0,
            fmt="{:.0f}",
            slips=[
                Slip(len(set(words)), "That counts distinct words; the rows belong to distinct tokens."),
                Slip(len(ids_gpt2), "That counts lookups. A row read twice is still one row."),
            ],
            solution=f"The ids are {ids_gpt2}, the tokens {shown} (a leading space shown as ␣). "
            f"GPT-2 gives a word with a leading space its own token: 'the' is {ids_gpt2[0]} but '␣the' is "
            f"{ids_gpt2[3]}. So {len(ids_gpt2)} lookups read {len(set(ids_gpt2))} different rows.",
            title="A3 · Real ids",
            cell="A",
            misconception="A word is one token whatever its position (a leading space makes another token).",
        )
    )

    # -- B: one-hot times E ----------------------------------------------------------------------
    V, d = B_SIZE
    cost = one_hot_cost(V, d)
    out.append(
        Exercise(
            f"A model has V = {V:,} tokens and d = {d:,}. Embedding one token as one_hot(id, V) @ E, "
            "how many of the multiplications are by zero?",
            cost["wasted_multiplies"],
            abs_tol=0.5,
            fmt="{:,.0f}",
            slips=[
                Slip(cost["multiplies"], "That counts every multiplication; some of them are not by zero."),
                Slip(cost["lookup_copies"], "That is the number of useful multiplications, not the wasted ones."),
            ],
            solution=f"The product multiplies each of the V entries of the one-hot row by each of the d columns: "
            f"V × d = {cost['multiplies']:,}. Only the single 1 does useful work, on d = {d:,} numbers, so "
            f"(V − 1) × d = {cost['wasted_multiplies']:,} multiply by zero. A lookup copies the {d:,} numbers "
            "and multiplies nothing.",
            title="B1 · Multiplying by zero",
            cell="B",
        )
    )

    # -- C: tied logits --------------------------------------------------------------------------
    self_token = "sun"
    h = lookup(E5, VOCAB5.index(self_token))
    z = tied_logits(h, E5)
    winner = VOCAB5[int(np.argmax(z))]
    angles = {t: angle_deg(h, r) for t, r in zip(VOCAB5, E5, strict=True)}
    out.append(
        Exercise(
            f"Same five-token E: {rows_text}. The context is sun's own row, h = e_sun. "
            "With tied weights and no bias, which token gets the largest logit?",
            winner,
            choices=VOCAB5,
            slips=[
                Slip(
                    self_token,
                    f"Tempting: {self_token}'s row points exactly along h. But a logit is a dot product, "
                    "so the length of a row counts too. Compute all five.",
                )
            ]
            if winner != self_token
            else [],
            solution="The logits are h · e_j: "
            + ", ".join(f"{t} {v:+.2f}" for t, v in zip(VOCAB5, z, strict=True))
            + f". {winner} wins: its row is {np.linalg.norm(E5[VOCAB5.index(winner)]):.2f} long against "
            f"{self_token}'s {np.linalg.norm(h):.2f}, and only {angles[winner]:.0f}° away from h, so its dot product "
            f"with e_{self_token} is larger than e_{self_token} · e_{self_token}.",
            title="C1 · Which token scores highest?",
            cell="C",
            misconception="With h = e_j, token j must win (a logit is a dot product: length matters, not only angle).",
        )
    )
    h2 = np.array([0.6, -0.3])
    z2 = tied_logits(h2, E5)
    p2 = softmax(z2)
    j2 = int(np.argmax(p2))
    naive = z2 / z2.sum()
    out.append(
        Exercise(
            f"Same five-token E. The context is h = {_vec(h2, 1)}. What probability does the tied model "
            f"give to '{VOCAB5[j2]}'?",
            float(p2[j2]),
            abs_tol=0.005,
            fmt="{:.4f}",
            slips=[
                Slip(float(z2[j2]), "That is the logit. Turn the five logits into probabilities first."),
                Slip(float(math.exp(z2[j2])), "That is e to the logit: divide by the sum over all five tokens."),
                Slip(float(naive[j2]), "Dividing logits by their sum is not softmax: exponentiate first."),
                Slip(float(p2[np.argsort(p2)[-2]]), "That is the runner-up's probability: check which row you used."),
            ],
            solution="Logits z = h · e_j: "
            + ", ".join(f"{t} {v:+.2f}" for t, v in zip(VOCAB5, z2, strict=True))
            + ". Softmax exponentiates and divides by the sum: "
            + ", ".join(f"{t} {v:.4f}" for t, v in zip(VOCAB5, p2, strict=True))
            + f". So P({VOCAB5[j2]}) = {p2[j2]:.4f}.",
            title="C2 · Probability of the winner",
            percent=True,
            cell="C",
        )
    )
    truth = softmax(tied_logits(np.array(H_C), E_TOY))
    draft = np.array(DRAFT_C)
    rounding = 0.005 * len(draft)  # the most four two-place roundings can lose
    same_order = bool(np.argmax(draft) == np.argmax(truth))
    c3_choices = (
        "The order is wrong: another token should beat ran",
        "They do not add up to 1",
        "Nothing: rounding to two places explains it",
        "ran should get its logit, 0.51",
    )
    if not (abs(draft.sum() - 1) > rounding and same_order):  # the draft's slip is the sum, not the order
        raise RuntimeError("the find-the-slip exercise no longer matches the computed softmax")
    out.append(
        Exercise(
            f"Find the slip. The draft's softmax for worked example C (h = {_vec(H_C, 1)}, the toy E) reads "
            f"cat {DRAFT_C[0]:.2f}, dog {DRAFT_C[1]:.2f}, the {DRAFT_C[2]:.2f}, ran {DRAFT_C[3]:.2f}. "
            "What is wrong with it?",
            c3_choices[1],
            choices=c3_choices,
            slips=[
                Slip(c3_choices[2], "How far can rounding four numbers to two places move their sum?"),
                Slip(c3_choices[3], "A logit is not a probability: softmax turns logits into probabilities."),
            ],
            solution=f"The four add up to {draft.sum():.2f}, not 1; rounding four numbers to two places can move "
            f"a sum by {rounding:.2f} at most, so this is a slip: a softmax sums to 1 by construction. The order "
            "of the tokens was right (ran first); C4 asks how far off the draft is.",
            title="C3 · Find the slip: what is wrong",
            cell="C",
            misconception="A softmax that does not sum to 1 can pass as rounding.",
        )
    )
    ran = TOKENS.index("ran")
    out.append(
        Exercise(
            f"Find the slip, continued. How far is the draft's P(ran) = {DRAFT_C[ran]:.2f} from the true value? "
            f"The toy E's rows are "
            + ", ".join(f"{t} {_vec(row, 1)}" for t, row in zip(TOKENS, np.asarray(E_TOY), strict=True))
            + f", and h = {_vec(H_C, 1)}. Compute the true softmax and give (true − draft), with its sign.",
            float(truth[ran] - draft[ran]),
            abs_tol=0.001,
            fmt="{:.4f}",
            slips=[
                Slip(float(draft[ran] - truth[ran]), "Mind the sign: true minus draft, not draft minus true."),
                Slip(0.0, "That takes C3's 'rounding explains it': the draft's sum of 0.95 says it does not."),
                Slip(float(truth[ran]), "That is the true P(ran) itself; the question asks for true − draft."),
                Slip(float(1 - draft.sum()), "That is how far the whole sum falls short; the question is about ran."),
                Slip(
                    float(draft[ran] / draft.sum() - draft[ran]),
                    "That rescales the draft to sum to 1. The question asks for the true softmax of the logits.",
                ),
                Slip(float(round(truth[ran], 2) - draft[ran]), "Round only at the end: keep P(ran) to four places."),
                Slip(
                    float((truth[ran] - draft[ran]) / draft[ran]),
                    "That is the gap as a share of the draft's value; the question asks for the gap itself.",
                ),
                Slip(
                    float(tied_logits(np.array(H_C), E_TOY)[ran] - draft[ran]),
                    "That compares ran's logit with its probability: apply softmax first.",
                ),
            ],
            solution=f"Logits h · e_j = {_vec(tied_logits(np.array(H_C), E_TOY))}; softmax gives P(ran) = "
            f"{truth[ran]:.4f}. The draft says {draft[ran]:.2f}, so it is {truth[ran] - draft[ran]:.4f} too low. "
            f"Every entry is low: the draft's total is short by {1 - draft.sum():.2f}.",
            title="C4 · Find the slip: how far",
            percent=True,
            cell="C",
            misconception="A draft that does not sum to 1 is repaired by rescaling it (here, where the draft's numbers "
            "fit a wrong normaliser, that recovers two places, off by up to "
            f"{np.abs(draft / draft.sum() - truth).max():.4f}; the exact values need the logits).",
        )
    )

    # -- D: sign of alignment --------------------------------------------------------------------
    zd = np.array([-2.0, -3.0, -6.0])  # unequal gaps: not D's -3, -4, -5 shifted
    pd = softmax(zd)
    zs = [f"{z:g}".replace("-", "−") for z in zd]
    shifted = ", ".join(f"{z - zd[0]:g}".replace("-", "−") for z in zd)
    out.append(
        Exercise(
            f"Three tokens have logits {zs[0]}, {zs[1]} and {zs[2]}. Is the first token unlikely? "
            "Give its probability (to three decimal places).",
            float(pd[0]),
            abs_tol=0.0005,  # three places: 0.721 is right, 0.722 is not
            fmt="{:.3f}",
            slips=[
                Slip(float(math.exp(zd[0])), f"That is e^{zs[0]} alone: softmax divides by the sum over all three."),
                Slip(0.0, "A negative logit is not a zero or negative probability: only differences matter."),
                Slip(1 / 3, "Equal probabilities need equal logits; these differ."),
                Slip(float(pd[1]), "That is the second token's probability; the question asks about the first."),
                Slip(float(pd[2]), "That is the third token's probability; the question asks about the first."),
                Slip(float(softmax(-zd)[0]), "Keep the signs: the logits are negative."),
                Slip(float(zd[0] / zd.sum()), "A share of the summed logits is not a softmax: exponentiate first."),
                Slip(round(float(pd[0]), 2), "Right to two places: the question asks for three."),
            ],
            solution=f"Softmax depends only on differences between logits: {', '.join(zs)} give the same "
            f"probabilities as {shifted}. P = {_vec(pd, 4)}, so the first token is the likeliest, "
            f"P = {pd[0]:.4f}. Negative logits do not mean unlikely.",
            title="D1 · All logits negative",
            percent=True,
            cell="D",
            misconception="A negative logit means an unlikely token (only differences between logits matter).",
        )
    )
    hd = np.array([-0.2, 0.5])
    zp, zm = tied_logits(hd, E5), tied_logits(-hd, E5)
    win_p, win_m = VOCAB5[int(np.argmax(zp))], VOCAB5[int(np.argmax(zm))]
    runner_up = VOCAB5[int(np.argsort(zp)[-2])]
    out.append(
        Exercise(
            f"The five-token E again (tied, no output bias), context h = {_vec(hd, 1)}: '{win_p}' gets the "
            "largest logit. "
            "Flip the context to −h. Which token wins now?",
            win_m,
            choices=VOCAB5,
            slips=[Slip(runner_up, "Flipping h does not promote the runner-up: what does it do to each logit?")]
            if runner_up != win_m
            else [],
            solution="(−h) · e_j = −(h · e_j): every logit changes sign, so the order reverses. With h: "
            + ", ".join(f"{t} {v:+.2f}" for t, v in zip(VOCAB5, zp, strict=True))
            + "; with −h: "
            + ", ".join(f"{t} {v:+.2f}" for t, v in zip(VOCAB5, zm, strict=True))
            + f". The former last place, {win_m}, wins.",
            title="D2 · Flip the context",
            cell="D",
            misconception="Negating the context promotes the runner-up (it reverses the whole order).",
        )
    )

    # -- E: degenerate inputs --------------------------------------------------------------------
    bias = np.array([0.5, 0.0, -0.5, 1.0, 0.2])
    pe = softmax(tied_logits(np.zeros(2), E5, bias=bias))
    sky = VOCAB5.index("sky")
    out.append(
        Exercise(
            f"The five-token E, a context of all zeros, h = [0, 0], but the output layer adds a bias "
            f"b = {_vec(bias, 1)} (one per token: {', '.join(VOCAB5)}). Is the distribution uniform? Give P(sky).",
            float(pe[sky]),
            abs_tol=0.005,
            fmt="{:.4f}",
            slips=[
                Slip(
                    1 / len(VOCAB5), "Uniform holds only when every bias is equal: what are the logits when h is zero?"
                ),
                Slip(float(bias[sky]), "That is sky's logit; apply softmax to all five."),
            ],
            solution=f"With h = 0 every dot product is 0, so the logits are the bias itself, {_vec(bias, 1)}. "
            f"Softmax of the bias gives {_vec(pe, 4)}: not uniform. P(sky) = {pe[sky]:.4f}.",
            title="E1 · A zero context with a bias",
            percent=True,
            cell="E",
            misconception="A zero context always gives uniform probabilities (not when the head's biases differ).",
        )
    )

    # -- F: saturation ---------------------------------------------------------------------------
    n = 7
    t_half = solve_half(n)
    out.append(
        Exercise(
            f"{n} tokens sit at logit 0 and token 0 has logit t. At what t is P0 exactly 1/2?",
            t_half,
            abs_tol=0.01,
            fmt="{:.4f}",
            slips=[
                Slip(0.0, f"At t = 0 all {n + 1} tokens tie, so each gets 1/{n + 1}, not 1/2."),
                Slip(math.log(n + 1), "Count again: token 0 is not one of the tokens at 0."),
                Slip(float(n), "That is the count of other tokens, not the logit t: at P0 = 1/2, what must e^t equal?"),
            ],
            solution=f"P0 = e^t / (e^t + {n}). It is 1/2 when e^t = {n}, that is t = ln {n} = {t_half:.4f} "
            f"(embedlab.saturation_prob({t_half:.4f}, {n}) = {saturation_prob(t_half, n):.4f}).",
            title="F1 · Where P0 is one half",
            cell="F",
            misconception="P0 = 1/2 at t = 0 (with n others at 0 it is at t = ln n).",
        )
    )
    t2 = 3.0
    p_f2 = saturation_prob(t2, n)
    out.append(
        Exercise(
            f"Same setting: {n} tokens at logit 0, token 0 at t = {t2:g}. What is P0?",
            p_f2,
            abs_tol=0.005,
            fmt="{:.4f}",
            slips=[
                Slip(saturation_prob(t2, n + 1), "Count again: token 0 is not one of the tokens at 0."),
                Slip(saturation_prob(t2, 1), f"There are {n} other tokens, not one."),
            ],
            solution=f"P0 = e^{t2:g} / (e^{t2:g} + {n}) = {math.exp(t2):.3f} / {math.exp(t2) + n:.3f} = {p_f2:.4f}.",
            title="F2 · Saturating",
            percent=True,
            cell="F",
        )
    )

    # -- G: memory budget ------------------------------------------------------------------------
    Vg, dg = G_SIZE
    untied, tied = param_count(Vg, dg, tied=False), param_count(Vg, dg, tied=True)
    draft_saving = untied - param_count(Vg, dg, tied=True, output_bias=True)  # the draft's Vd + V on the tied side
    out.append(
        Exercise(
            f"A model ties its embeddings: V = {Vg:,}, d = {dg:,}, and its head has no output bias. "
            "How many parameters does tying save, compared with a separate output matrix?",
            untied - tied,
            abs_tol=0.5,
            fmt="{:,.0f}",
            slips=[
                Slip(untied, "That is the untied total of both matrices; the question is what tying removes."),
                Slip(0.5, "That is the fraction saved; the question asks for a count of parameters."),
                Slip(draft_saving, "That keeps a length-V bias on the tied side: this head has no output bias."),
                Slip(tied + Vg, "That is the tied layer with a bias, not what tying removes."),
            ],
            solution=f"Untied: two V × d matrices, {untied:,}. Tied: one, counted once, {tied:,}. "
            f"Tying saves V × d = {untied - tied:,} parameters, exactly half. (With a length-V output bias on "
            f"the tied side, as the draft assumes, it would save V × d − V = {draft_saving:,}.)",
            title="G1 · What tying saves",
            cell="G",
            misconception="Tying saves the whole 2Vd (it saves one of the two V x d matrices).",
        )
    )
    # in float32: at 2 bytes a number, the bytes saved (2Vd) would equal G1's slip, the untied count 2Vd
    saved_bf16 = param_bytes(Vg, dg, tied=False, dtype="bfloat16") - param_bytes(Vg, dg, tied=True, dtype="bfloat16")
    saved_f32 = param_bytes(Vg, dg, tied=False) - param_bytes(Vg, dg, tied=True)
    out.append(
        Exercise(
            "Same model, stored in float32 (4 bytes per number). How many bytes does tying save?",
            saved_f32,
            abs_tol=0.5,
            fmt="{:,.0f}",
            unit="bytes",
            slips=[
                Slip(
                    saved_bf16,
                    "That is the bytes at 2 per number (bfloat16), and also G1's untied total of parameters: "
                    "check the bytes per number, and what tying removes.",
                ),
                Slip(
                    4 * (tied + Vg), "That is the tied layer with a bias, in bytes: the question is what tying removes."
                ),
                Slip(untied - tied, "That is the count of parameters; each takes 4 bytes."),
                Slip(4 * untied, "That is both matrices of the untied head: tying removes one of them."),
                Slip(4 * draft_saving, "That keeps a length-V bias on the tied side: this head has no output bias."),
            ],
            solution=f"Tying saves {untied - tied:,} parameters; at 4 bytes each that is {saved_f32:,} bytes, "
            f"about {saved_f32 / 2**20:,.0f} MiB.",
            title="G2 · ... in bytes",
            cell="G",
        )
    )

    # which count leaves out what: a GPT-2-shaped model of the exercise's own size
    cfg = DecoderConfig(
        name="G3's model",
        vocab_size=Vg,
        d_model=dg,
        n_layers=24,
        d_ff=4 * dg,
        n_heads=16,
        n_kv_heads=16,
        head_dim=dg // 16,
        tied=True,
        norm="layernorm",
        qkv_bias=True,
        out_bias=True,
        mlp_bias=True,
        n_positions=2_500,
    )
    c = counts(cfg)
    out.append(
        Exercise(
            f"A tied, GPT-2-shaped model has V = {Vg:,} tokens of width d = {dg:,}, {cfg.n_positions:,} learned "
            f"position embeddings, and {c.total:,} parameters in all. Count exactly the parameters that are not "
            "embeddings (Kaplan et al.'s N, the scaling-law count that leaves out every embedding).",
            c.non_embedding,
            abs_tol=0.5,
            fmt="{:,.0f}",
            slips=[
                Slip(c.without_positions, "That leaves out the positions only, as nanoGPT's count does."),
                Slip(
                    c.total - Vg * dg, "That leaves out the token embedding only; N leaves out the positions as well."
                ),
                Slip(
                    c.total - 2 * Vg * dg - cfg.n_positions * dg,
                    "That takes the V x d matrix out twice: the model is tied, so it holds it once.",
                ),
                Slip(c.total, "That is every parameter; N leaves the embeddings out."),
                Slip(
                    12 * cfg.n_layers * dg**2,
                    "That is 12 n_layer d^2, the paper's approximation of N, which leaves out biases and norms; "
                    "the question asks for the exact count.",
                ),
            ],
            solution=f"Every parameter: {c.total:,}. The token embedding is V × d = {c.token_embedding:,}; the "
            f"position embeddings are {cfg.n_positions:,} × {dg:,} = {c.position_embedding:,}. The head is the "
            f"token embedding itself, so nothing more comes out: N = {c.non_embedding:,}. nanoGPT's default "
            f"count leaves out the positions only, {c.without_positions:,}.",
            title="G3 · Which count leaves out what",
            cell="G",
            misconception="A model has one parameter count (papers, code and scaling laws count different things).",
        )
    )

    # -- H: two gradient paths -------------------------------------------------------------------
    Vh, ids = 6, np.array([4, 1, 4])
    rng = np.random.default_rng(3)
    upstream = rng.normal(size=(3, 2))  # (3, 2): any non-zero gradient at the looked-up rows
    hs = rng.normal(size=(3, 2))  # (3, 2): the contexts that were scored
    logits = rng.normal(size=(3, Vh))  # (3, V)
    g_in = embedding_grad(ids, upstream, Vh)
    g_out = output_grad(hs, cross_entropy_grad(logits, [0, 2, 5]))
    rows_in = [i for i in range(Vh) if np.any(g_in[i])]
    rows_out = [i for i in range(Vh) if np.any(g_out[i])]

    def rows(r: list[int]) -> str:
        return "every row" if len(r) == Vh else "rows " + " and ".join(str(i) for i in r)

    h1_choices = (
        f"Input path: {rows(rows_in)}; output path: {rows(rows_in)} too",
        "Input path: every row; output path: only the target tokens' rows",
        "Both paths: only the target tokens' rows",
        f"Input path: {rows(rows_in)}; output path: {rows(rows_out)}",
    )
    out.append(
        Exercise(
            f"A tied E has V = {Vh} rows. A batch looks up the ids {ids.tolist()} and the head scores all "
            f"{Vh} tokens at each position (softmax and cross-entropy). "
            "Which rows of E receive a gradient from the input path, and which from the output path?",
            h1_choices[3],
            choices=h1_choices,
            slips=[
                Slip(h1_choices[0], "The head scores every token: which logits get a gradient from softmax?"),
                Slip(h1_choices[1], "The lookup touches only the rows it copied."),
                Slip(h1_choices[2], "Softmax gives every logit a gradient, not only the target's."),
            ],
            solution=f"The lookup copies rows {sorted(set(ids.tolist()))}, so only they get a gradient through it "
            "(embedding_grad is zero elsewhere). The head's logit z_j = h · e_j for every j, and softmax with "
            "cross-entropy gives every logit a non-zero gradient (p_j, minus 1 at the target), so every row of E "
            "gets a gradient through output_grad.",
            title="H1 · Which rows get a gradient",
            cell="H",
            misconception="Only the looked-up rows (or only the target's row) get a gradient in a tied E.",
        )
    )
    out.append(
        Exercise(
            f"Same batch, ids {ids.tolist()}. The gradients arriving at the three looked-up vectors are "
            + ", ".join(_vec(u, 2) for u in np.round(upstream, 2))
            + ". What is the first number of row 4's gradient through the input path?",
            float(embedding_grad(ids, np.round(upstream, 2), Vh)[4, 0]),
            abs_tol=0.005,
            fmt="{:.2f}",
            slips=[
                Slip(float(np.round(upstream, 2)[0, 0]), "Id 4 was looked up more than once."),
                Slip(float(np.round(upstream, 2)[2, 0]), "Id 4 was looked up more than once."),
                Slip(float(np.round(upstream, 2)[:, 0].sum()), "Only the positions that looked up id 4 count."),
            ],
            solution="Id 4 was looked up at positions 0 and 2, so its row receives the sum of both: "
            f"{np.round(upstream, 2)[0, 0]:.2f} + ({np.round(upstream, 2)[2, 0]:.2f}) = "
            f"{embedding_grad(ids, np.round(upstream, 2), Vh)[4, 0]:.2f}. Repeated ids accumulate.",
            title="H2 · A repeated id",
            cell="H",
            misconception="A repeated id's gradients overwrite each other (they add up).",
        )
    )
    return out
