"""nanmedian / nanquantile / nanpercentile / nanargmax / nanargmin against NumPy: axes, keepdims, every
quantile method, q shapes, dtypes, strided views, all-NaN and empty lines, inf, bad input."""

import warnings

import numpy as np
import pytest

import kdsl as kd

METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]


def _data(shape=(5, 8), dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=shape).round(1).astype(dtype)
    if a.dtype.kind == "f":
        a[rng.random(shape) < 0.3] = np.nan
        a[1] = np.nan  # an all-NaN line (not the first: NumPy's result dtype then changes, see the module)
        a.flat[0] = 1.5
        a.flat[3] = np.inf
        a.flat[5] = -0.0
    return a


def _numpy(fn, *args, **kwargs):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices warn in NumPy, not in kdsl
        return fn(*args, **kwargs)


def _same(expected, got, rtol=1e-6, atol=0.0):
    expected = np.asarray(expected)
    assert isinstance(got, kd.Array)
    out = got.numpy()
    assert out.shape == expected.shape, (out.shape, expected.shape)
    assert out.dtype == expected.dtype, (out.dtype, expected.dtype)
    np.testing.assert_allclose(out, expected, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("q", [0.3, [0.0, 0.25, 0.5, 0.9, 1.0]])
def test_nanquantile_methods(method, q):
    a = _data()
    for axis in (None, 1):
        _same(_numpy(np.nanquantile, a, q, axis=axis, method=method),
              kd.nanquantile(kd.asarray(a), q, axis=axis, method=method))


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (1, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_nanquantile_axes_and_keepdims(axis, keepdims):
    a = _data((3, 4, 5))
    # a 2-D q (its shape comes first); 1-D with several axes, where NumPy 2.4 puts a 2-D q's axes elsewhere
    q = np.array([[0.1, 0.5], [0.75, 1.0]]) if not isinstance(axis, tuple) else np.array([0.1, 0.5, 1.0])
    _same(_numpy(np.nanquantile, a, q, axis=axis, keepdims=keepdims),
          kd.nanquantile(kd.asarray(a), q, axis=axis, keepdims=keepdims))
    _same(_numpy(np.nanpercentile, a, 40, axis=axis, keepdims=keepdims),
          kd.nanpercentile(kd.asarray(a), 40, axis=axis, keepdims=keepdims))
    _same(_numpy(np.nanmedian, a, axis=axis, keepdims=keepdims),
          kd.nanmedian(kd.asarray(a), axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("dtype", [np.float16, np.float64, np.int16, np.int64, np.uint8, np.bool_])
@pytest.mark.parametrize("method", ["linear", "lower", "nearest", "midpoint", "weibull"])
def test_nan_order_statistics_dtypes(dtype, method):
    a = _data((4, 6), dtype=np.float64) if np.dtype(dtype).kind == "f" else np.arange(24).reshape(4, 6) % 7
    a = a.astype(dtype)
    rtol = 1e-3 if dtype == np.float16 else 1e-6
    # float16 interpolations cancel near zero; a device with float16 arithmetic (the H200) rounds the steps
    # otherwise than NumPy's float32-then-round loops: an absolute error of a few ulps of the data's scale
    atol = 4e-3 * float(np.nanmax(np.abs(a.astype(np.float64)))) if dtype == np.float16 else 0.0
    calls = [(np.nanquantile, q, 1) for q in (0.35, 1, [0.2, 0.8])]  # Python float, Python int, array q
    for fn, q, axis in calls + [(np.nanpercentile, [10, 90], 0)]:
        try:
            expected = _numpy(fn, a, q, axis=axis, method=method)
        except TypeError:  # bool data: NumPy cannot interpolate (it subtracts booleans)
            with pytest.raises(TypeError):
                getattr(kd, fn.__name__)(kd.asarray(a), q, axis=axis, method=method)
            continue
        _same(expected, getattr(kd, fn.__name__)(kd.asarray(a), q, axis=axis, method=method), rtol, atol)
    _same(_numpy(np.nanmedian, a, axis=1), kd.nanmedian(kd.asarray(a), axis=1), rtol, atol)


def test_nan_order_statistics_of_views():
    a = _data((6, 9))
    x = kd.asarray(a)
    for view, host in ((x.T, a.T), (x[::2, 1::3], a[::2, 1::3]), (x[:, ::-1], a[:, ::-1])):
        _same(_numpy(np.nanmedian, host, axis=0), kd.nanmedian(view, axis=0))
        _same(_numpy(np.nanquantile, host, 0.3, axis=1), kd.nanquantile(view, 0.3, axis=1))
        # an array q: float64 (NumPy: float32 when its first line is all NaN, see the module's note)
        got = kd.nanquantile(view, [0.3, 0.6], axis=1)
        assert got.dtype == kd.float64
        np.testing.assert_allclose(got.numpy(), _numpy(np.nanquantile, host, [0.3, 0.6], axis=1), rtol=1e-6,
                                   equal_nan=True)
        _same(_numpy(np.nanpercentile, host, 50), kd.nanpercentile(view, 50))


@pytest.mark.parametrize("shape,axis", [((0,), None), ((0, 3), 0), ((3, 0), 1), ((1, 4), 0), ((4, 1), 1),
                                        ((1,), None), ((), None)])
def test_nan_order_statistics_of_empty_and_size_one(shape, axis):
    a = np.full(shape, 2.5, np.float32)
    _same(_numpy(np.nanmedian, a, axis=axis), kd.nanmedian(kd.asarray(a), axis=axis))
    _same(_numpy(np.nanquantile, a, 0.4, axis=axis), kd.nanquantile(kd.asarray(a), 0.4, axis=axis))
    _same(_numpy(np.nanpercentile, a, [5, 95], axis=axis), kd.nanpercentile(kd.asarray(a), [5, 95], axis=axis))


def test_nan_order_statistics_of_all_nan_and_inf_lines():
    a = np.array([[np.inf, np.inf, 1.0], [np.nan, np.nan, np.nan], [np.inf, np.nan, -np.inf],
                  [-0.0, 0.0, np.nan]], np.float32)
    _same(_numpy(np.nanmedian, a, axis=1), kd.nanmedian(kd.asarray(a), axis=1))
    for method in ("linear", "midpoint", "hazen", "lower"):
        for q in (0.0, 0.5, 1, [0.0, 0.5, 1.0]):
            _same(_numpy(np.nanquantile, a, q, axis=1, method=method),
                  kd.nanquantile(kd.asarray(a), q, axis=1, method=method))


def test_array_q_over_float32_gives_float64_even_when_the_first_line_is_all_nan():
    a = np.array([[np.nan, np.nan], [1.0, 2.0]], np.float32)
    got = kd.nanquantile(kd.asarray(a), [0.5], axis=1)
    assert got.dtype == kd.float64  # NumPy: float32 here (its apply_along_axis takes the first line's dtype)
    expected = _numpy(np.nanquantile, a[::-1], [0.5], axis=1)[:, ::-1]  # the common case's dtype, same values
    _same(expected, got)


def test_nanmedian_does_not_overflow_odd_counts():
    big = np.finfo(np.float32).max
    a = np.array([big, np.nan, big, big], np.float32)
    _same(np.nanmedian(a), kd.nanmedian(kd.asarray(a)))


def test_numpy_dispatches_to_kdsl():
    a = _data()
    x = kd.asarray(a)
    for fn, args in ((np.nanmedian, ()), (np.nanquantile, (0.5,)), (np.nanpercentile, (50,))):
        got = fn(x, *args, axis=1)
        assert isinstance(got, kd.Array)
        _same(_numpy(fn, a, *args, axis=1), got)
    assert isinstance(np.nanargmax(x, axis=0), kd.Array)


@pytest.mark.parametrize("call,error,match", [
    (lambda x: kd.nanquantile(x, 1.5), ValueError, "range \\[0, 1\\]"),
    (lambda x: kd.nanquantile(x, [-0.1, 0.5]), ValueError, "range \\[0, 1\\]"),
    (lambda x: kd.nanpercentile(x, 101), ValueError, "range \\[0, 100\\]"),
    (lambda x: kd.nanquantile(x, 0.5, method="no_such"), ValueError, "not a valid method"),
    (lambda x: kd.nanquantile(x, 0.5, axis=2), np.exceptions.AxisError, "axis"),
    (lambda x: kd.nanquantile(x.astype(kd.complex64), 0.5), TypeError, "real numbers"),
    (lambda x: kd.nanmedian(x, out=x), ValueError, "out="),  # out of the wrong shape
    (lambda x: kd.nanquantile(x, 0.5, weights=x), ValueError, "Only method 'inverted_cdf' supports weights"),
])
def test_nan_quantile_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call(kd.asarray(_data()))


@pytest.mark.parametrize("fn", ["nanargmax", "nanargmin"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_nanargmax_nanargmin(fn, axis, keepdims):
    a = np.array([[np.nan, 3.0, -np.inf, 3.0], [2.0, np.nan, 2.0, -1.0], [-0.0, 0.0, np.inf, np.nan]], np.float32)
    expected = getattr(np, fn)(a, axis=axis, keepdims=keepdims)
    got = getattr(kd, fn)(kd.asarray(a), axis=axis, keepdims=keepdims)
    assert got.numpy().dtype == expected.dtype and np.array_equal(got.numpy(), expected)
    view = a.T[::-1]
    assert np.array_equal(getattr(kd, fn)(kd.asarray(a).T[::-1], axis=axis).numpy(), getattr(np, fn)(view, axis=axis))


@pytest.mark.parametrize("fn", ["nanargmax", "nanargmin"])
@pytest.mark.parametrize("dtype", [np.float64, np.float16, np.int32, np.uint8, np.bool_])
def test_nanargmax_nanargmin_dtypes(fn, dtype):
    a = (np.arange(12).reshape(3, 4) * 5 % 7).astype(dtype)
    if a.dtype.kind == "f":
        a[0, 0] = np.nan
    for axis in (None, 0, 1):
        assert np.array_equal(getattr(kd, fn)(kd.asarray(a), axis=axis).numpy(), getattr(np, fn)(a, axis=axis))


@pytest.mark.parametrize("fn", ["nanargmax", "nanargmin"])
def test_nanargmax_nanargmin_raise_like_numpy(fn):
    a = np.array([[np.nan, np.nan], [1.0, np.nan]], np.float32)
    for axis in (1, None):
        if axis is None:
            a = np.full((2, 2), np.nan, np.float32)
        with pytest.raises(ValueError, match="All-NaN slice encountered"):
            getattr(np, fn)(a, axis=axis)
        with pytest.raises(ValueError, match="All-NaN slice encountered"):
            getattr(kd, fn)(kd.asarray(a), axis=axis)
    mixed = np.array([[np.nan, 2.0], [1.0, np.nan]], np.float32)
    assert np.array_equal(getattr(kd, fn)(kd.asarray(mixed), axis=0).numpy(), getattr(np, fn)(mixed, axis=0))
    with pytest.raises(ValueError, match="empty"):
        getattr(kd, fn)(kd.asarray(np.zeros((0, 2), np.float32)), axis=0)
