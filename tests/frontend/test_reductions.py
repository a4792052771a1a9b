"""Reductions and cumsum against NumPy: every axis form, keepdims, dtypes, NaN, empty and long inputs."""

import numpy as np
import pytest
from kd_testing import ALL_DTYPES, FLOATS, NUMERIC, numpy_kdsl_allclose, sample

import kdsl as kd

AXES = [None, 0, 1, -1, (0, 2), (1, 2), (0, 1, 2)]


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean", "any", "all"])
@numpy_kdsl_allclose(rtol=1e-5)
def test_reduce_axes(xp, name, axis):
    a = xp.asarray(sample((3, 4, 5), "float32", seed=1, special=False, low=0.5, high=1.5))
    return getattr(xp, name)(a, axis=axis)


@pytest.mark.parametrize("name", ["sum", "max", "mean", "argmax", "argmin"])
@pytest.mark.parametrize("keepdims", [False, True])
@numpy_kdsl_allclose(rtol=1e-5)
def test_keepdims(xp, name, keepdims):
    a = xp.asarray(sample((4, 6), "float32", seed=2, special=False))
    axis = 1 if name.startswith("arg") else (0, 1)
    return getattr(xp, name)(a, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@numpy_kdsl_allclose(rtol=2e-3)
def test_reduce_dtypes(xp, dtype):
    a = xp.asarray(sample((5, 7), dtype, seed=3, special=False, **({} if dtype == "bool" else
                                                                      {"low": 0, "high": 3})))
    return [xp.sum(a, axis=1), xp.max(a, axis=0), xp.min(a), xp.argmax(a, axis=1), xp.argmin(a),
            xp.any(a, axis=0), xp.all(a)]


@pytest.mark.parametrize("dtype", NUMERIC)
@numpy_kdsl_allclose(rtol=2e-3)
def test_prod_mean_dtypes(xp, dtype):
    a = xp.asarray(sample((3, 4), dtype, seed=4, special=False, low=1, high=3))
    return [xp.prod(a, axis=0), xp.mean(a, axis=1)]


@pytest.mark.parametrize("dtype", FLOATS)
@numpy_kdsl_allclose(rtol=2e-3)
def test_nan_and_inf(xp, dtype):
    a = xp.asarray(np.array([[1, np.nan, 3], [2, 5, -np.inf], [np.inf, 0, 1]], dtype))
    return [xp.max(a, axis=1), xp.min(a, axis=0), xp.argmax(a, axis=1), xp.argmin(a, axis=0), xp.sum(a, axis=0)]


@numpy_kdsl_allclose()
def test_argmax_ties_take_first(xp):
    a = xp.asarray(np.array([[3, 7, 7, 1], [2, 2, 2, 2]], np.int32))
    return [xp.argmax(a, axis=1), xp.argmin(a, axis=1), xp.argmax(a)]


@pytest.mark.parametrize("ddof", [0, 1])
@numpy_kdsl_allclose(rtol=1e-4)
def test_var_std(xp, ddof):
    a = xp.asarray(sample((6, 5), "float32", seed=5, special=False))
    return [xp.var(a, axis=0, ddof=ddof), xp.std(a, ddof=ddof), a.var(axis=1, keepdims=True)]


@numpy_kdsl_allclose()
def test_integer_sum_widens(xp):
    a = xp.asarray(np.full((300,), 120, np.int8))
    return [xp.sum(a), xp.cumsum(a)[-3:]]


@numpy_kdsl_allclose(rtol=1e-5)
def test_zero_d_and_empty(xp):
    a = xp.asarray(np.float32(2.5))
    e = xp.asarray(np.zeros((0, 3), np.float32))
    return [xp.sum(a), xp.max(a), xp.sum(e, axis=0), xp.prod(e, axis=0), xp.any(e, axis=0), xp.sum(e, axis=1)]


def test_empty_max_raises():
    e = kd.asarray(np.zeros((0, 3), np.float32))
    with pytest.raises(ValueError):
        kd.max(e, axis=0)
    with pytest.raises(ValueError):
        kd.argmax(e)


@pytest.mark.parametrize("n", [65536 * 2 + 7, 300_001])
def test_long_reduction_beyond_loop_cap(n):
    x = np.random.default_rng(6).uniform(0, 1, n).astype(np.float32)
    a = kd.asarray(x)
    np.testing.assert_allclose(float(a.sum()), x.astype(np.float64).sum(), rtol=1e-5)
    assert int(a.argmax()) == int(x.argmax())
    np.testing.assert_allclose(float(a.max()), x.max())


def test_many_short_reductions_thread_mode():
    x = np.random.default_rng(7).uniform(0, 1, (5000, 3)).astype(np.float32)
    a = kd.asarray(x)
    np.testing.assert_allclose(a.sum(axis=1).numpy(), x.sum(axis=1), rtol=1e-6)
    np.testing.assert_allclose(a.mean(axis=0).numpy(), x.mean(axis=0), rtol=1e-5)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("dtype", ["float32", "int32", "int8", "bool", "float64"])
@numpy_kdsl_allclose(rtol=1e-5)
def test_cumsum(xp, axis, dtype):
    a = xp.asarray(sample((4, 5), dtype, seed=8, special=False))
    return xp.cumsum(a, axis=axis)


def test_reduction_of_view_and_expression():
    x = np.random.default_rng(9).uniform(-1, 1, (6, 8)).astype(np.float32)
    a = kd.asarray(x)
    np.testing.assert_allclose(kd.sum(a.T[::2] * 2, axis=1).numpy(), (x.T[::2] * 2).sum(axis=1), rtol=1e-5)
    np.testing.assert_allclose((a - a.mean(axis=1, keepdims=True)).numpy(),
                               x - x.mean(axis=1, keepdims=True), rtol=1e-5, atol=1e-6)


def test_bad_axis():
    a = kd.zeros((2, 3))
    with pytest.raises(ValueError):
        a.sum(axis=2)
    with pytest.raises(ValueError):
        a.sum(axis=(0, 0))


def test_gpu_reduction_plans(monkeypatch):
    """The plans chosen on GPUs (workgroup trees over chunks), exercised on whatever device runs the tests."""
    d = kd.device()
    monkeypatch.setattr(d, "partials", 0)
    monkeypatch.setattr(d, "thread_outputs", 65536)
    x = np.random.default_rng(10).uniform(0, 1, (3, 200_003)).astype(np.float32)
    a = kd.asarray(x)
    np.testing.assert_allclose(a.sum(axis=1).numpy(), x.astype(np.float64).sum(axis=1), rtol=1e-5)
    np.testing.assert_allclose(float((a * 2).mean()), 2 * x.astype(np.float64).mean(), rtol=1e-5)
    np.testing.assert_allclose(a.max(axis=0)[:7].numpy(), x.max(axis=0)[:7])
