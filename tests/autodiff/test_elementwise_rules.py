"""Derivatives of the elementwise ops against central finite differences (float64), with broadcasting."""

import numpy as np
import pytest
from autodiff_check import check_elementwise_grad, check_grad

import kdsl as kd

RNG = np.random.default_rng(1)
# op -> (function, input low, input high)
UNARY = {
    "negative": (kd.negative, -2, 2), "abs": (kd.abs, 0.2, 2), "abs_neg": (kd.abs, -2, -0.2),
    "exp": (kd.exp, -2, 2), "exp2": (kd.exp2, -2, 2), "log": (kd.log, 0.2, 3), "log2": (kd.log2, 0.2, 3),
    "log10": (kd.log10, 0.2, 3), "log1p": (kd.log1p, -0.5, 2), "expm1": (kd.expm1, -2, 2),
    "sqrt": (kd.sqrt, 0.2, 3), "rsqrt": (kd.rsqrt, 0.2, 3), "square": (kd.square, -2, 2),
    "reciprocal": (kd.reciprocal, 0.5, 2), "sin": (kd.sin, -3, 3), "cos": (kd.cos, -3, 3),
    "tan": (kd.tan, -1.2, 1.2), "arcsin": (kd.arcsin, -0.9, 0.9), "arccos": (kd.arccos, -0.9, 0.9),
    "arctan": (kd.arctan, -3, 3), "sinh": (kd.sinh, -2, 2), "cosh": (kd.cosh, -2, 2), "tanh": (kd.tanh, -2, 2),
    "arcsinh": (kd.arcsinh, -2, 2), "arccosh": (kd.arccosh, 1.2, 3), "arctanh": (kd.arctanh, -0.9, 0.9),
    "sigmoid": (kd.sigmoid, -3, 3), "erf": (kd.erf, -2.5, 2.5), "relu": (kd.relu, -2, 2),
    "positive": (kd.positive, -1, 1),
    "softplus": (lambda x: kd.log1p(kd.exp(x)), -3, 3), "pow_scalar": (lambda x: x ** 3, -2, 2),
    "rpow": (lambda x: 2.0 ** x, -2, 2), "clip": (lambda x: kd.clip(x, -0.5, 0.5), -2, 2),
    "hypot": (lambda x: kd.hypot(x, 2.0), -2, 2), "logaddexp": (lambda x: kd.logaddexp(x, 0.5), -2, 2),
}


def _away_from(x, points, gap=0.05):
    """Nudge samples off the kinks (finite differences straddling one are wrong by design)."""
    for p in points:
        x = np.where(np.abs(x - p) < gap, x + 2 * gap, x)
    return x


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name):
    fn, lo, hi = UNARY[name]
    x = _away_from(RNG.uniform(lo, hi, (2, 1, 3)), [0.0, -0.5, 0.5])
    check_elementwise_grad(fn, x)
    check_grad(fn, x[0, 0, 0])  # a 0-d array, against per-element differences


BINARY = {
    "add": (kd.add, (-2, 2), (-2, 2)), "subtract": (kd.subtract, (-2, 2), (-2, 2)),
    "multiply": (kd.multiply, (-2, 2), (-2, 2)), "divide": (kd.divide, (-2, 2), (0.5, 2)),
    "power": (kd.power, (0.5, 2), (-2, 2)), "arctan2": (kd.arctan2, (-2, 2), (0.5, 2)),
    "maximum": (kd.maximum, (-2, 2), (-2, 2)), "minimum": (kd.minimum, (-2, 2), (-2, 2)),
    "remainder": (kd.remainder, (0.1, 3), (0.7, 0.9)),
    "where": (lambda a, b: kd.where(a > 0, a * b, b), (-2, 2), (-2, 2)),
}
SHAPES = [((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 2)), ((4, 1, 2), (1, 3, 1))]


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_binary(name, shapes):
    fn, (alo, ahi), (blo, bhi) = BINARY[name]
    a, b = RNG.uniform(alo, ahi, shapes[0]), RNG.uniform(blo, bhi, shapes[1])
    if name in ("maximum", "minimum"):  # keep the operands apart (ties are a kink)
        b = np.where(np.abs(a - b) < 0.1, b + 0.3, b)
    if name == "remainder":
        a = np.where(np.abs(np.remainder(a, b)) < 0.05, a + 0.2, a)
        a = np.where(np.abs(np.remainder(a, b) - b) < 0.05, a + 0.2, a)
    check_grad(fn, a, b)


def test_nondifferentiable_points_follow_pytorch():
    x = kd.asarray(np.array([-1.0, 0.0, 2.0]))
    assert kd.grad(lambda x: kd.relu(x).sum())(x).tolist() == [0.0, 0.0, 1.0]
    assert kd.grad(lambda x: kd.abs(x).sum())(x).tolist() == [-1.0, 0.0, 1.0]
    assert kd.grad(lambda x: kd.clip(x, 0.0, 2.0).sum())(x).tolist() == [0.0, 0.0, 0.0]
    for step in (kd.sign, kd.floor, kd.ceil, kd.trunc, kd.rint):
        assert kd.grad(lambda x, s=step: s(x * 1.5).sum())(x).tolist() == [0.0, 0.0, 0.0]
    # two array operands tie: split evenly (PyTorch's and JAX's maximum)
    ga, gb = kd.grad(lambda a, b: kd.maximum(a, b).sum(), argnums=(0, 1))(x, kd.zeros(3, dtype=kd.float64))
    assert ga.tolist() == [0.0, 0.5, 1.0] and gb.tolist() == [1.0, 0.5, 0.0]
    # x ** y at x == 0: PyTorch's masks (no NaN from log(0))
    gx, gy = kd.grad(lambda a, b: (a ** b).sum(), argnums=(0, 1))(kd.zeros(2, dtype=kd.float64),
                                                                   kd.asarray(np.array([0.0, 2.0])))
    assert gx.tolist() == [0.0, 0.0] and gy.tolist() == [0.0, 0.0]


def test_float32_and_float16_gradients_keep_the_dtype():
    for d in (kd.float32, kd.float16):
        g = kd.grad(lambda x: (kd.exp(x) * x).sum())(kd.asarray([0.5, 1.0], dtype=d))
        assert g.dtype == d
        np.testing.assert_allclose(g.numpy().astype(np.float64), np.exp([0.5, 1.0]) * (1 + np.array([0.5, 1.0])),
                                   rtol=1e-2 if d == kd.float16 else 1e-5)


def test_mixed_dtypes_cast_back():
    x = kd.asarray(np.array([1.0, 2.0], np.float32))
    g = kd.grad(lambda x: (x.astype(kd.float64) * kd.asarray(np.array([3.0, 4.0]))).sum())(x)
    assert g.dtype == kd.float32 and g.tolist() == [3.0, 4.0]
    # an integer operand carries no gradient
    g = kd.grad(lambda x: (x * kd.arange(2)).sum())(x)
    assert g.tolist() == [0.0, 1.0]
