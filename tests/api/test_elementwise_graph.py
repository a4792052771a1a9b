"""`elementwise_graph.reads_elementwise`: what `kd.vectorize` and `kd.piecewise` may run with whole arrays.

porting23b: `np.vectorize(lambda v: v / np.max(v))(x)` gave `x / x.max()` (NumPy: 1.0 each, an element is its own
maximum) and `np.vectorize(lambda v: np.roll(v, 1))` rolled the whole array; such functions now run NumPy's loop.
"""

import warnings

import numpy as np
import pytest

import kdsl as kd
from kdsl.frontend.array.elementwise_graph import reads_elementwise

X = np.array([[3.0, 1.0, 2.0], [0.5, -4.0, 6.0]])


@pytest.mark.parametrize("func", [lambda v: v / np.max(v), lambda v: v - np.min(v), lambda v: np.roll(v, 1),
                                  lambda v: np.flip(v), lambda v: (v - np.mean(v)) * 2 + v])
def test_vectorize_of_functions_that_are_not_elementwise_is_numpys_loop(func):
    want = np.vectorize(func)(X)
    with pytest.warns(kd.PerformanceWarning, match="not elementwise"):
        got = kd.vectorize(_ported(func))(kd.asarray(X))
    np.testing.assert_allclose(got.numpy(), want)


def _ported(func):
    """``func`` with NumPy's namespace swapped for kdsl's (its code names ``np``)."""
    return type(func)(func.__code__, {**func.__globals__, "np": kd})


def test_elementwise_functions_stay_lazy_and_silent():
    xs, ys = kd.asarray([0.0, 1.0, 2.0]), kd.asarray([0.0, 10.0, 40.0])
    lut = kd.asarray([5.0, 6.0, 7.0, 8.0])
    a = kd.asarray(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = [kd.vectorize(lambda t: kd.interp(t, xs, ys))(a),
               kd.vectorize(lambda i: lut[i])(kd.asarray([[0, 3], [2, 1]])),
               kd.vectorize(lambda x, y: kd.where(x > y, x, y * 2))(a, a[0]),
               kd.vectorize(lambda x, y: kd.hypot(x, y))(*kd.meshgrid(a[0], a[:, 1]))]
    np.testing.assert_allclose(out[0].numpy(), np.interp(X, [0.0, 1, 2], [0.0, 10, 40]))
    np.testing.assert_array_equal(out[1].numpy(), [[5.0, 8.0], [7.0, 6.0]])
    np.testing.assert_array_equal(out[2].numpy(), np.where(X > X[0], X, X[0] * 2))


def test_the_walk():
    x = kd.asarray([1.0, 2.0, 6.0])
    assert reads_elementwise(kd.sqrt(x) * 2 + kd.asarray(3.0), [x])
    assert reads_elementwise(kd.asarray([9.0, 8.0, 7.0])[kd.clip(x, 0, 2).astype(kd.int32)], [x])
    for value in (x - x.mean(), x[::-1] + 0, kd.sort(x), kd.cumsum(x), kd.roll(x, 1)):
        assert not reads_elementwise(value, [x])
    rows = kd.asarray(X)
    assert not reads_elementwise(kd.roll(rows[0], 1) + rows[1], [rows[0], rows[1]])  # views fold onto the source
    assert reads_elementwise(rows[0] * 2 + rows[1], [rows[0], rows[1]])
    assert reads_elementwise(x + kd.arange(3.0), [x]) and not reads_elementwise(x + kd.arange(3.0), [x], strict=True)
