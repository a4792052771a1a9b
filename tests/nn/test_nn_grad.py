"""kd.grad through kd.nn (the functions are built from differentiable array operations): gradients against
central finite differences in float64."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(3)


def numeric_grad(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (float(f(kd.asarray(x + d))) - float(f(kd.asarray(x - d)))) / (2 * eps)
    return g


W = RNG.standard_normal((2, 3, 3, 2))
LABELS = kd.asarray(np.array([0, 2, 1], np.int32))
CLASS_W = kd.asarray(np.array([0.5, 2.0, 1.0, 1.5]))
PROBS = kd.asarray(RNG.dirichlet(np.ones(4), 3))
SCALE = kd.asarray(RNG.standard_normal((1, 2, 3, 3)))  # makes a pooled output's gradient non-uniform
CASES = {
    "gelu": (lambda x: (kd.nn.gelu(x) * kd.arange(6.0, dtype=kd.float64).reshape(2, 3)).sum(), (2, 3)),
    "layer_norm": (lambda x: (kd.nn.layer_norm(x, 3) ** 3).sum(), (2, 3)),
    "cross_entropy": (lambda x: kd.nn.cross_entropy(x, LABELS, label_smoothing=0.1), (3, 4)),
    "conv2d": (lambda x: (kd.nn.conv2d(x, kd.asarray(W), padding=1) ** 2).sum(), (1, 3, 3, 4)),
    "max_pool2d": (lambda x: (kd.nn.max_pool2d(x, 2) ** 2).sum(), (1, 1, 4, 4)),
    "max_pool2d ceil_mode": (lambda x: (kd.nn.max_pool2d(x, 3, 2, 1, ceil_mode=True) * SCALE).sum(), (1, 2, 4, 4)),
    "avg_pool2d ceil_mode": (lambda x: (kd.nn.avg_pool2d(x, 3, 2, 1, True, False) * SCALE).sum(), (1, 2, 4, 4)),
    "avg_pool1d": (lambda x: (kd.nn.avg_pool1d(x, 2, ceil_mode=True) ** 2).sum(), (1, 2, 5)),
    "adaptive_avg_pool2d": (lambda x: (kd.nn.adaptive_avg_pool2d(x, 3) * SCALE).sum(), (1, 2, 5, 4)),
    "cross_entropy weighted": (lambda x: kd.nn.cross_entropy(x, LABELS, CLASS_W, label_smoothing=0.1), (3, 4)),
    "cross_entropy probabilities": (lambda x: kd.nn.cross_entropy(x, PROBS, CLASS_W), (3, 4)),
    "attention": (lambda x: kd.nn.scaled_dot_product_attention(x, x, x, is_causal=True).sum(), (1, 3, 2)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_grad_matches_finite_differences(name):
    f, shape = CASES[name]
    x = RNG.standard_normal(shape)
    got = kd.grad(f)(kd.asarray(x)).numpy()
    np.testing.assert_allclose(got, numeric_grad(f, x), rtol=1e-4, atol=1e-6)
