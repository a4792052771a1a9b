"""kd.median / kd.percentile / kd.quantile (NumPy's default 'linear' method) against NumPy: axes None/int/
negative/tuple, keepdims, scalar and n-d q, result dtypes, NaN lines, empty input."""

import warnings

import numpy as np
import pytest
from sort_testing import sample

import kdsl as kd

A = sample((6, 7, 5), "float32", dups=False, seed=9)
A = np.where(np.isfinite(A), A, 1.25).astype(np.float32)  # NaN lines are tested on their own below
M = np.random.default_rng(1).integers(-50, 50, (4, 9)).astype(np.int16)


def close(got, ref, rtol=1e-6):
    g = np.asarray(got)
    assert g.shape == ref.shape and g.dtype == ref.dtype, (g.shape, ref.shape, g.dtype, ref.dtype)
    np.testing.assert_allclose(g, ref, rtol=rtol, atol=1e-6, equal_nan=True)


@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
@pytest.mark.parametrize("q", [0.5, [0.0, 0.25, 0.33, 1.0], [[0.1], [0.9]]])
@pytest.mark.parametrize("keepdims", [False, True])
def test_quantile(axis, q, keepdims):
    close(kd.quantile(kd.asarray(A), q, axis=axis, keepdims=keepdims).numpy(),
          np.quantile(A, q, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("axis", [None, 1, -2])
def test_percentile_of_ints_gives_float64(axis):
    close(kd.percentile(kd.asarray(M), [10, 50, 99.5], axis=axis).numpy(), np.percentile(M, [10, 50, 99.5], axis=axis),
          rtol=1e-12)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_median(axis, keepdims):
    close(kd.median(kd.asarray(A[0]), axis=axis, keepdims=keepdims).numpy(),
          np.median(A[0], axis=axis, keepdims=keepdims))
    close(kd.median(kd.asarray(M), axis=axis, keepdims=keepdims).numpy(), np.median(M, axis=axis, keepdims=keepdims))


def test_views_float16_and_float64():
    x = kd.asarray(A)
    close(kd.median(x.T[:, ::2], axis=0).numpy(), np.median(A.T[:, ::2], axis=0))
    h = A[:, 0].astype(np.float16)
    close(kd.quantile(kd.asarray(h), 0.3, axis=0).numpy(), np.quantile(h, 0.3, axis=0), rtol=2e-3)
    d = A.astype(np.float64)
    close(kd.quantile(kd.asarray(d), [0.2, 0.7], axis=1).numpy(), np.quantile(d, [0.2, 0.7], axis=1), rtol=1e-12)


def test_nan_lines_give_nan_and_empty_median_is_nan():
    a = A[0].copy()
    a[2, 3] = np.nan
    close(kd.median(kd.asarray(a), axis=1).numpy(), np.median(a, axis=1))
    close(kd.quantile(kd.asarray(a), 0.4, axis=0).numpy(), np.quantile(a, 0.4, axis=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ref = np.median(np.zeros((3, 0), np.float32), axis=1)
    close(kd.median(kd.zeros((3, 0)), axis=1).numpy(), ref)


def test_errors():
    x = kd.asarray(A)
    with pytest.raises(ValueError, match=r"range \[0, 1\]"):
        kd.quantile(x, 1.5)
    with pytest.raises(ValueError, match=r"range \[0, 100\]"):
        kd.percentile(x, -1)
    with pytest.raises(ValueError, match="method"):
        kd.quantile(x, 0.5, method="no such method")
    with pytest.raises(IndexError):
        kd.quantile(kd.zeros(0), 0.5)


@pytest.mark.parametrize("fn", ["quantile", "percentile", "nanquantile", "nanpercentile"])
@pytest.mark.parametrize("q", [[0.1, 0.5, 0.9], [[0.25], [1.0]], 0.3, [0.0]])
@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_q_as_a_kdsl_array(fn, q, method):
    """``np.percentile(v, np.arange(10, 100, 10))`` after the port: q a kdsl array (was endless recursion)."""
    scale = 100 if "percentile" in fn else 1
    qh = (np.asarray(q) * scale).astype(np.float32)
    for data in (A[0], M.astype(np.float32), A[1, ::2, ::-1]):
        ref = getattr(np, fn)(data, qh, axis=0, method=method)
        got = getattr(kd, fn)(kd.asarray(data), kd.asarray(qh), axis=0, method=method).numpy()
        np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-6)
        assert got.shape == ref.shape


def test_integer_q_kdsl_array_percentile():
    q = np.arange(10, 100, 10)
    ref = np.percentile(M, q, axis=1)
    got = kd.percentile(kd.asarray(M), kd.asarray(q), axis=1).numpy()
    close(got, ref, rtol=1e-12)
