"""embedlab: the maths of embedding layers and tied weights, one small module per idea.

Plots live in :mod:`embedlab.plots` and widgets in :mod:`embedlab.widgets`; they are imported
on demand so the maths needs nothing but NumPy.
"""

from .budget import REAL_MODELS, param_bytes, param_count, saved_fraction
from .corpus import Corpus, make_corpus
from .display import notebook_setup
from .geometry import angle_deg, cosine, dot, in_plane, plane_basis
from .grads import embedding_grad, output_grad, tied_grad
from .logits import tied_logits
from .lookup import lookup, one_hot, one_hot_cost
from .softmax import cross_entropy, cross_entropy_grad, log_softmax, naive_softmax, saturation_prob, softmax
from .tokens import E_TOY, TOKENS, token_id

# `train` itself stays in embedlab.train: re-exported here it would hide the module of the same name.
from .train import CompareResult, TrainResult, compare, loss_and_grads

__version__ = "0.1.0"

__all__ = [
    "E_TOY",
    "REAL_MODELS",
    "TOKENS",
    "CompareResult",
    "Corpus",
    "TrainResult",
    "angle_deg",
    "compare",
    "cosine",
    "cross_entropy",
    "cross_entropy_grad",
    "dot",
    "embedding_grad",
    "in_plane",
    "log_softmax",
    "lookup",
    "loss_and_grads",
    "make_corpus",
    "naive_softmax",
    "notebook_setup",
    "one_hot",
    "one_hot_cost",
    "output_grad",
    "param_bytes",
    "param_count",
    "plane_basis",
    "saturation_prob",
    "saved_fraction",
    "softmax",
    "tied_grad",
    "tied_logits",
    "token_id",
]
