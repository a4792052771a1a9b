"""histogramdd and histogram2d against NumPy: bin counts and edge arrays, ranges, density, weights, sample
layouts, dtypes, NaN and edge values, views, empty samples and NumPy's errors."""

import numpy as np
import pytest
from api_testing import sample

import kdsl as kd

S = sample((60, 3), "float64", special=False)
W = sample((60,), "float64", seed=1, special=False, low=0.0, high=2.0)


def _match(got, expected, rtol=1e-12):
    """(hist, edges...) against NumPy's: the same dtypes and shapes, values within ``rtol``."""
    flat_got = [got[0], *got[1]] if isinstance(got[1], list) else list(got)
    flat_exp = [expected[0], *expected[1]] if isinstance(expected[1], list) else list(expected)
    assert len(flat_got) == len(flat_exp)
    for g, e in zip(flat_got, flat_exp, strict=True):
        g = g.numpy()
        assert g.shape == e.shape and g.dtype == e.dtype, (g.shape, e.shape, g.dtype, e.dtype)
        np.testing.assert_allclose(g, e, rtol=rtol)


@pytest.mark.parametrize("bins", [10, 1, (2, 3, 4), [3, np.array([-1.0, 0.0, 0.5, 2.0]), 5],
                                  [np.linspace(-4, 4, 9)] * 3])
@pytest.mark.parametrize("rng", [None, [(-1, 1), None, (0, 3)], [(-2, 2)] * 3])
def test_histogramdd_bins_and_range(bins, rng):
    _match(kd.histogramdd(kd.asarray(S), bins=bins, range=rng), np.histogramdd(S, bins=bins, range=rng))


@pytest.mark.parametrize("density", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_histogramdd_density_and_weights(density, weighted):
    w = W if weighted else None
    got = kd.histogramdd(kd.asarray(S), bins=(4, 2, 3), density=density,
                         weights=None if w is None else kd.asarray(w))
    _match(got, np.histogramdd(S, bins=(4, 2, 3), density=density, weights=w))
    _match(kd.histogramdd(kd.asarray(S), bins=3, weights=w, density=density),  # host weights
           np.histogramdd(S, bins=3, weights=w, density=density))


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "uint8", "int64"])
def test_histogramdd_dtypes(dtype):
    s = sample((40, 2), dtype, special=False)  # the edges take the data's dtype, as NumPy's do
    _match(kd.histogramdd(kd.asarray(s), bins=5), np.histogramdd(s, bins=5))
    _match(kd.histogramdd(kd.asarray(s), bins=[np.arange(-3, 4), [0, 50, 100]]),
           np.histogramdd(s, bins=[np.arange(-3, 4), [0, 50, 100]]))


def test_histogramdd_sample_layouts():
    x, y = S[:, 0], S[:, 1]
    _match(kd.histogramdd(kd.asarray(x)), np.histogramdd(x))  # 1-D: N points in one dimension
    _match(kd.histogramdd([kd.asarray(x), kd.asarray(y)], bins=4), np.histogramdd([x, y], bins=4))
    _match(kd.histogramdd([x, y], bins=4), np.histogramdd([x, y], bins=4))
    _match(kd.histogramdd(kd.asarray(S).T[::2].T, bins=3), np.histogramdd(S.T[::2].T, bins=3))  # a view
    _match(kd.histogramdd(kd.asarray(S)[::-3], bins=3), np.histogramdd(S[::-3], bins=3))


def test_histogramdd_edges_on_the_device():
    edges = [np.array([-2, 0, 1, 3]), np.linspace(-1.0, 1.0, 5), np.array([-0.5, 0.5], np.float32)]
    got = kd.histogramdd(kd.asarray(S), bins=[kd.asarray(e) for e in edges], weights=list(W))
    _match(got, np.histogramdd(S, bins=edges, weights=W))


def test_histogramdd_values_on_edges_nan_and_outside():
    s = np.array([[0.0, 1.0], [1.0, 1.0], [0.5, np.nan], [2.0, 0.5], [-0.0, 0.25], [1.0, -1.0]])
    bins = [[0.0, 0.5, 1.0], [0.0, 0.25, 1.0]]  # the last edge is in the last bin; NaN and outside drop
    _match(kd.histogramdd(kd.asarray(s), bins=bins), np.histogramdd(s, bins=bins))
    _match(kd.histogramdd(kd.asarray(s), bins=2, range=[(0, 1), (0, 1)]),
           np.histogramdd(s, bins=2, range=[(0, 1), (0, 1)]))


@pytest.mark.parametrize("shape", [(0, 2), (1, 2), (5, 1)])
def test_histogramdd_small(shape):
    s = sample(shape, "float64", special=False)
    _match(kd.histogramdd(kd.asarray(s), bins=3), np.histogramdd(s, bins=3))
    const = np.ones((4, 2))  # equal extremes: the range widens by 0.5 each way
    _match(kd.histogramdd(kd.asarray(const), bins=2), np.histogramdd(const, bins=2))


@pytest.mark.parametrize("bins", [10, (3, 5), np.linspace(-3, 3, 7), [np.linspace(-3, 3, 4), [-1.0, 0.0, 1.0]],
                                  [2, np.array([-1.0, 0.0, 1.0])]])
@pytest.mark.parametrize("density", [False, True])
def test_histogram2d(bins, density):
    x, y = S[:, 0], S[:, 2]
    got = kd.histogram2d(kd.asarray(x), kd.asarray(y), bins=bins, density=density, weights=kd.asarray(W))
    _match(got, np.histogram2d(x, y, bins=bins, density=density, weights=W))


def test_histogram2d_range():
    x, y = S[:, 0], S[:, 1]
    _match(kd.histogram2d(kd.asarray(x), kd.asarray(y), bins=4, range=[[-1, 1], [0, 2]]),
           np.histogram2d(x, y, bins=4, range=[[-1, 1], [0, 2]]))


@pytest.mark.parametrize("kwargs", [{"bins": 0}, {"bins": 2.5}, {"bins": [3, 3]}, {"bins": [[0.0, 1.0, 0.5]] * 3},
                                    {"bins": [np.ones((2, 2))] * 3}, {"range": [(0, 1)]},
                                    {"range": [(1, 0)] * 3}, {"range": [(0, np.inf)] * 3},
                                    {"weights": np.ones(5)}])
def test_histogramdd_errors(kwargs):
    kw = dict(kwargs)
    with pytest.raises(Exception) as expected:
        np.histogramdd(S, **kw)
    if "weights" in kw:
        kw["weights"] = kd.asarray(kw["weights"])
    with pytest.raises(type(expected.value)):
        kd.histogramdd(kd.asarray(S), **kw)


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="autodetected range of .* is not finite"):
        kd.histogramdd(kd.asarray(np.array([[0.0], [np.inf]])))
    with pytest.raises(ValueError, match="monotonically increasing"):
        kd.histogramdd(kd.asarray(S), bins=[kd.asarray(np.array([0.0, 1.0, 0.5]))] * 3)
    with pytest.raises(ValueError, match="same length"):
        kd.histogram2d(kd.asarray(S[:, 0]), kd.asarray(S[:5, 1]))


def test_numpy_dispatches():
    h, edges = np.histogramdd(kd.asarray(S), bins=3)
    assert isinstance(h, kd.Array) and all(isinstance(e, kd.Array) for e in edges)
    h2, xe, ye = np.histogram2d(kd.asarray(S[:, 0]), kd.asarray(S[:, 1]), bins=3)
    assert isinstance(h2, kd.Array) and isinstance(xe, kd.Array)
