"""cumsum / cumprod (parallel reduce-then-scan), cumulative_sum / cumulative_prod, nancumsum / nancumprod against
NumPy 2: shapes, axes, dtypes, empty arrays, size-1 axes, views, long axes past the loop budget, overflow, NaN/inf."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(9)


def _data(shape, dtype, op):
    if np.dtype(dtype).kind == "f":  # near 1 for products: long products stay finite
        return (RNG.uniform(0.99, 1.01, shape) if op == "prod" else RNG.standard_normal(shape)).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return RNG.random(shape) < 0.7
    lo = 0 if np.dtype(dtype).kind == "u" else -3
    return RNG.integers(lo, 4, shape).astype(dtype)


def _check(got, want, rtol=1e-4):
    got = np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-4)
    else:
        np.testing.assert_array_equal(got, want)


SHAPES = [((7,), 0), ((4, 5), 0), ((4, 5), 1), ((4, 5), -1), ((2, 3, 4), 1), ((0,), 0), ((0, 3), 0),
          ((3, 0), 1), ((3, 0), 0), ((1, 6), 0), ((6, 1), 1), ((2, 3), None), ((), None)]


@pytest.mark.parametrize("op", ["sum", "prod"])
@pytest.mark.parametrize("shape,axis", SHAPES)
@pytest.mark.parametrize("dtype", ["float32", "int32", "int8", "uint16", "bool"])
def test_cum_matches_numpy(op, shape, axis, dtype):
    a = _data(shape, dtype, op)
    _check(getattr(kd, f"cum{op}")(kd.asarray(a), axis=axis), getattr(np, f"cum{op}")(a, axis=axis))


@pytest.mark.parametrize("shape,axis", [((3000,), 0), ((3, 2000), 1), ((2000, 3), 0), ((5, 7, 300), 2),
                                        ((300, 2, 5), 0)])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_cumprod_multi_level(small_budget, shape, axis, dtype):
    """Past the (small) budget: block products, their scan (recursively), the final pass."""
    a = _data(shape, dtype, "prod")
    if dtype == "int32":  # mostly ones with a few -1 and 2: exact, and the sign flips cross block boundaries
        a = np.where(RNG.random(shape) < 0.995, 1, RNG.choice([-1, 2], shape)).astype(dtype)
    steps = kd.explain(kd.cumprod(kd.asarray(a), axis=axis))
    assert "block totals" in steps and "cumprod" in steps
    _check(kd.cumprod(kd.asarray(a), axis=axis), np.cumprod(a, axis=axis), rtol=1e-3)


def test_long_axes_on_the_real_budget():
    """100 000 along an axis is past every device's per-invocation loop budget (lavapipe's is ~65 535)."""
    assert 100_000 > kd.device().loop_budget
    ones = np.where(RNG.random(100_000) < 0.9999, 1, -1).astype(np.int32)
    _check(kd.cumprod(kd.asarray(ones)), np.cumprod(ones))
    f = RNG.uniform(0.9999, 1.0001, (100_000, 2)).astype(np.float32)
    _check(kd.cumprod(kd.asarray(f), axis=0), np.cumprod(f.astype(np.float64), axis=0).astype(np.float32), 1e-3)
    i = RNG.integers(-5, 5, (100_000, 2)).astype(np.int32)
    _check(kd.cumsum(kd.asarray(i), axis=0), np.cumsum(i, axis=0))


@pytest.mark.parametrize("dtype,acc", [("int32", "int32"), ("int64", None), ("uint32", "uint32"),
                                       ("int8", "int8"), ("uint8", "uint8"), ("int16", None)])
def test_integer_overflow_wraps(dtype, acc):
    a = np.full(70, 3, dtype)
    a[::7] = -5 if np.dtype(dtype).kind == "i" else 7
    with np.errstate(over="ignore"):
        want = np.cumprod(a, dtype=acc)
    _check(kd.cumprod(kd.asarray(a), dtype=acc), want)
    big = np.full(50, np.iinfo(dtype).max // 3, dtype)
    _check(kd.cumsum(kd.asarray(big), dtype=acc), np.cumsum(big, dtype=acc))


def test_float_nan_inf_propagate():
    a = np.array([2.0, np.inf, 3.0, 0.0, 4.0, -1.0, np.nan, 5.0, -0.0, 1e30, 1e30], np.float32)
    for sl in (slice(None), slice(0, 3), slice(4, 6), slice(7, None)):
        with np.errstate(invalid="ignore", over="ignore"):
            _check(kd.cumprod(kd.asarray(a[sl])), np.cumprod(a[sl]))
            _check(kd.cumsum(kd.asarray(a[sl])), np.cumsum(a[sl]))
    signs = np.signbit(np.asarray(kd.cumprod(kd.asarray(np.array([-0.0, 2.0, -3.0], np.float32)))))
    np.testing.assert_array_equal(signs, [True, True, False])  # -0.0 * 2 * -3 is +0.0, as NumPy's


def test_non_contiguous_views_and_expressions(small_budget):
    a = RNG.uniform(0.9, 1.1, (60, 40)).astype(np.float32)
    x = kd.asarray(a)
    _check(kd.cumprod(x[::-2, 1::3], axis=0), np.cumprod(a[::-2, 1::3], axis=0))
    _check(kd.cumprod(x.T, axis=1), np.cumprod(a.T, axis=1))
    _check(kd.cumprod(x[5] * 2.0), np.cumprod(a[5] * 2.0))
    _check(x[::3].cumprod(axis=1), a[::3].cumprod(axis=1))
    _check(x[::3].cumsum(), a[::3].cumsum())


def test_dtype_argument_and_errors():
    a = np.arange(1, 6, dtype=np.int32)
    _check(kd.cumprod(kd.asarray(a), dtype=np.float32), np.cumprod(a, dtype=np.float32))
    _check(kd.cumprod(kd.asarray(a), dtype="int16"), np.cumprod(a, dtype="int16"))
    with pytest.raises(np.exceptions.AxisError):
        kd.cumprod(kd.asarray(a), axis=1)


def test_multiply_accumulate_through_numpy():
    a = np.array([[1, 2], [3, 4]], np.int32)
    got = np.multiply.accumulate(kd.asarray(a))
    assert isinstance(got, kd.Array)
    _check(got, np.multiply.accumulate(a))


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("shape,axis", [((5,), None), ((5,), 0), ((3, 4), 0), ((3, 4), -1), ((0,), None),
                                        ((2, 0), 1), ((2, 0), 0), ((1, 3), 0), ((), None), ((), 0)])
@pytest.mark.parametrize("include_initial", [False, True])
@pytest.mark.parametrize("dtype", ["int8", "float32"])
def test_cumulative_functions(name, shape, axis, include_initial, dtype):
    a = _data(shape, dtype, "prod")
    got = getattr(kd, name)(kd.asarray(a), axis=axis, include_initial=include_initial)
    _check(got, getattr(np, name)(a, axis=axis, include_initial=include_initial))


def test_cumulative_dtype_and_axis_rules():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    _check(kd.cumulative_sum(kd.asarray(a), axis=1, dtype=np.float32, include_initial=True),
           np.cumulative_sum(a, axis=1, dtype=np.float32, include_initial=True))
    with pytest.raises(ValueError, match="axis"):
        kd.cumulative_sum(kd.asarray(a))
    with pytest.raises(ValueError, match="axis"):
        kd.cumulative_prod(kd.asarray(a))
    with pytest.raises(TypeError):
        kd.cumulative_sum(x=kd.asarray(a[0]))  # positional-only, as the standard says


@pytest.mark.parametrize("shape,axis", [((9,), None), ((4, 6), 0), ((4, 6), 1), ((4, 6), None), ((0, 2), 0)])
def test_nan_scans(shape, axis):
    a = RNG.uniform(0.5, 1.5, shape).astype(np.float32)
    a[RNG.random(shape) < 0.3] = np.nan
    if a.size:
        a.flat[0] = np.nan  # a leading NaN: 0 / 1 first, as NumPy
    _check(kd.nancumsum(kd.asarray(a), axis=axis), np.nancumsum(a, axis=axis))
    _check(kd.nancumprod(kd.asarray(a), axis=axis), np.nancumprod(a, axis=axis))
    i = RNG.integers(-3, 3, shape).astype(np.int16)
    _check(kd.nancumsum(kd.asarray(i), axis=axis), np.nancumsum(i, axis=axis))
    _check(kd.nancumprod(kd.asarray(i), axis=axis), np.nancumprod(i, axis=axis))
    _check(kd.nancumprod(kd.asarray(a), axis=axis, dtype=np.float64 if kd.device().supports(kd.float64)
                         else np.float32), np.nancumprod(a, axis=axis,
                                                         dtype=np.float64 if kd.device().supports(kd.float64)
                                                         else np.float32))
