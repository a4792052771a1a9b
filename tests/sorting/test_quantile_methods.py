"""``kd.quantile``/``kd.percentile`` with NumPy's other 12 methods (through the NaN-ignoring ones of
nan_quantiles.py, NaN where a line holds one), against NumPy."""

import numpy as np
import pytest

import kdsl as kd

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("with_nan", [False, True])
def test_quantile_methods(method, axis, with_nan):
    host = np.random.default_rng(0).normal(size=(4, 7)).astype(np.float32)
    if with_nan:
        host[1, 3] = np.nan
    q = [0.0, 0.1, 0.5, 0.93, 1.0]
    expected = np.quantile(host, q, axis=axis, method=method)
    got = kd.quantile(kd.asarray(host), q, axis=axis, method=method)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5, equal_nan=True)


@pytest.mark.parametrize("method", ["lower", "nearest", "midpoint", "hazen"])
@pytest.mark.parametrize("keepdims", [False, True])
def test_percentile_methods_on_views_and_ints(method, keepdims):
    host = np.arange(40, dtype=np.int32).reshape(5, 8)[:, ::-2] * 3 % 17
    expected = np.percentile(host, 30, axis=1, method=method, keepdims=keepdims)
    got = kd.percentile(kd.asarray(np.arange(40, dtype=np.int32).reshape(5, 8))[:, ::-2] * 3 % 17, 30, axis=1,
                        method=method, keepdims=keepdims)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


def test_unknown_method():
    with pytest.raises(ValueError, match="method"):
        kd.quantile(kd.ones(3), 0.5, method="no such method")


@pytest.mark.parametrize("method", ["nearest", "hazen"])
def test_empty_inputs(method):
    """An empty line is NumPy's IndexError for every method (the other methods gave NaN); an empty result keeps
    q's axes (``percentile(x[:, :0], [5, 50], axis=0)`` was (0,), NumPy's (2, 0)) and NumPy's dtype."""
    for shape, axis in (((0,), None), ((0, 3), 0)):
        with pytest.raises(IndexError):
            np.percentile(np.zeros(shape), 50, axis=axis, method=method)
        with pytest.raises(IndexError):
            kd.percentile(kd.zeros(shape), 50, axis=axis, method=method)
    host = np.arange(6, dtype=np.int16).reshape(2, 3)[:, :0]
    for keepdims in (False, True):
        expected = np.percentile(host, [5, 50], axis=0, method=method, keepdims=keepdims)
        got = kd.percentile(kd.asarray(host), [5, 50], axis=0, method=method, keepdims=keepdims)
        assert got.shape == expected.shape and got.dtype.name == expected.dtype.name
