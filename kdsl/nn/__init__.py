"""``kd.nn``: functional neural-network building blocks with PyTorch's names and semantics (``torch.nn.functional``),
built from kdsl's differentiable array operations, so each is a lazy expression that fuses with its neighbours
and gets its gradient from the graph. Parameter initialisers are in :mod:`kdsl.nn.init`. Guide: docs/nn.md.

Built on the public ``kdsl`` API only (the layer rule of tests/test_layers.py).

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.ones((2, 4), np.float32))
    >>> w = kd.nn.init.xavier_uniform((3, 4), key=0)
    >>> logits = kd.nn.linear(x, w, kd.nn.init.zeros(3))
    >>> kd.nn.cross_entropy(logits, kd.asarray([0, 2])).shape
    ()
"""

from kdsl.nn import init
from kdsl.nn.activations import erf, gelu, leaky_relu, log_softmax, relu, sigmoid, silu, softmax, tanh
from kdsl.nn.adaptive import adaptive_avg_pool1d, adaptive_avg_pool2d
from kdsl.nn.attention import scaled_dot_product_attention
from kdsl.nn.conv import conv1d, conv2d
from kdsl.nn.dropout import dropout
from kdsl.nn.linear import embedding, linear
from kdsl.nn.losses import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    mse_loss,
    nll_loss,
)
from kdsl.nn.normalization import layer_norm, rms_norm
from kdsl.nn.pooling import avg_pool1d, avg_pool2d, max_pool1d, max_pool2d
from kdsl.nn.unfold import unfold

__all__ = ["init", "erf", "gelu", "leaky_relu", "log_softmax", "relu", "sigmoid", "silu", "softmax", "tanh",
           "scaled_dot_product_attention", "conv1d", "conv2d", "dropout", "embedding", "linear",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy", "mse_loss", "nll_loss",
           "layer_norm", "rms_norm", "avg_pool1d", "avg_pool2d", "max_pool1d", "max_pool2d", "adaptive_avg_pool1d",
           "adaptive_avg_pool2d", "unfold"]
