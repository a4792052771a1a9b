"""``kd.logaddexp``/``kd.logaddexp2`` to a few ulps of NumPy's in every float dtype: their log1p step took a
four-term series for ``t = exp(-|x1 - x2|) < 1e-2``, 2e-9 relative off in float64 (NumPy's test_umath.py
TestLogAddExp / TestLogAddExp2 *_values and *_range)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import kdsl as kd


def _numpy(name, a, b):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(np, name)(a, b)


def _relative_error_in_eps(got: np.ndarray, want: np.ndarray, scale: np.ndarray) -> float:
    """The error in eps of ``scale`` (the larger input: max + log1p(t) rounds at its size, so a result near 0
    from cancellation is only that accurate, in NumPy too)."""
    g, w = got.astype(np.float64), want.astype(np.float64)
    same = (g == w) | (np.isnan(g) & np.isnan(w))
    rel = np.where(same, 0.0, np.abs(g - w) / np.maximum(np.maximum(np.abs(w), scale), 1e-300))
    return float(rel.max(initial=0.0) / np.finfo(want.dtype).eps)


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2"])
@pytest.mark.parametrize("dtype, limit", [(np.float64, 4), (np.float32, 8), (np.float16, 1)])
def test_gaps_where_the_series_was_used(name, dtype, limit):
    rng = np.random.default_rng(5)
    a = rng.uniform(-30, 30, 2000)
    gap = np.concatenate([rng.uniform(4.6, 40, 1000), rng.uniform(0, 4.6, 1000)])  # t below and above 1e-2
    b = a - gap * (1 if name == "logaddexp" else 1.4427)
    a, b = a.astype(dtype), b.astype(dtype)
    got = getattr(kd, name)(kd.asarray(a), kd.asarray(b)).numpy()
    want = _numpy(name, a, b)
    assert got.dtype == want.dtype
    scale = np.maximum(np.abs(a), np.abs(b)).astype(np.float64)
    assert _relative_error_in_eps(got, want, scale) <= limit


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_special_values(name, dtype):
    a = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, np.inf, -np.inf, 1.0, -1e30], dtype=dtype)
    b = np.array([-0.0, 0.0, np.inf, -np.inf, 1.0, -np.inf, 5.0, np.nan, -1e30], dtype=dtype)
    got = getattr(kd, name)(kd.asarray(a), kd.asarray(b)).numpy()
    np.testing.assert_array_equal(got, _numpy(name, a, b))


@pytest.mark.parametrize("shape", [(0,), (1,), (1, 4), (3, 5)])
def test_shapes_views_and_broadcast(shape):
    n = int(np.prod(shape))
    x = np.linspace(-20, 20, 2 * max(n, 1))[::2][:n].reshape(shape)
    got = kd.logaddexp(kd.asarray(np.ascontiguousarray(x.T)).T, kd.asarray(-3.5)).numpy()  # a transposed view
    want = np.logaddexp(x, -3.5)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=4 * np.finfo(np.float64).eps)
