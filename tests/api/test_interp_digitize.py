"""interp, digitize and histogram_bin_edges against NumPy: shapes, dtypes, strided views, NaN/inf/-0.0,
left/right/period, complex fp, decreasing bins, estimators, bad input."""

import numpy as np
import pytest

import kdsl as kd

XP = np.array([-2.0, 0.0, 1.0, 1.0, 2.5, 4.0])  # a repeated point: NumPy's search picks its last copy
FP = np.array([3.0, -1.0, 0.5, 2.0, np.inf, 1.0])
X = np.array([-3.0, -2.0, -1.0, -0.0, 0.25, 1.0, 1.5, 2.5, 3.0, 4.0, 5.0, np.nan, np.inf, -np.inf])


def _same(expected, got, rtol=1e-12):
    assert isinstance(got, kd.Array)
    out, expected = got.numpy(), np.asarray(expected)
    assert out.shape == expected.shape and out.dtype == expected.dtype, (out.shape, out.dtype, expected.dtype)
    np.testing.assert_allclose(out, expected, rtol=rtol, atol=0, equal_nan=True)


@pytest.mark.parametrize("kwargs", [{}, {"left": -7.0}, {"right": 9}, {"left": np.nan, "right": -np.inf},
                                    {"period": 5.0}, {"period": -3}])
def test_interp_matches_numpy(kwargs):
    with np.errstate(invalid="ignore"):
        expected = np.interp(X, XP, FP, **kwargs)
    _same(expected, kd.interp(kd.asarray(X), kd.asarray(XP), kd.asarray(FP), **kwargs))


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.uint8, np.bool_])
def test_interp_dtypes_give_float64(dtype):
    x = np.array([0, 1, 2, 3, 7]).astype(dtype)
    xp, fp = np.array([0, 2, 6]).astype(dtype), np.array([1, 0, 5]).astype(dtype)
    _same(np.interp(x, xp, fp), kd.interp(kd.asarray(x), kd.asarray(xp), kd.asarray(fp)), rtol=1e-6)


def test_interp_shapes_and_views():
    rng = np.random.default_rng(0)
    x = rng.uniform(-3, 5, size=(4, 6))
    xp = np.sort(rng.uniform(-2, 4, 9))
    fp = rng.normal(size=9)
    kx, kxp, kfp = kd.asarray(x), kd.asarray(xp), kd.asarray(fp)
    _same(np.interp(x, xp, fp), kd.interp(kx, kxp, kfp))
    _same(np.interp(x.T[::2], xp[::2], fp[::2]), kd.interp(kx.T[::2], kxp[::2], kfp[::2]))
    _same(np.interp(2.0, xp, fp), kd.interp(2.0, kxp, kfp))  # a scalar x: a 0-d result
    _same(np.interp([], xp, fp), kd.interp(kd.asarray(np.zeros(0)), kxp, kfp))  # empty x
    _same(np.interp(x, xp[:1], fp[:1], left=-1.0), kd.interp(kx, kxp[:1], kfp[:1], left=-1.0))  # one point
    _same(np.interp(list(X), list(XP), list(FP)), kd.interp(list(X), list(XP), list(FP)))  # host sequences


def test_interp_complex_fp():
    fp = np.empty(FP.shape, np.complex128)  # parts set one by one: inf * 1j would give a NaN real part
    fp.real, fp.imag = FP, FP[::-1]
    with np.errstate(invalid="ignore"):
        expected = np.interp(X, XP, fp), np.interp(X, XP, fp, left=1 + 2j, right=-1j)
    _same(expected[0], kd.interp(kd.asarray(X), kd.asarray(XP), kd.asarray(fp)))
    _same(expected[1], kd.interp(kd.asarray(X), kd.asarray(XP), kd.asarray(fp), left=1 + 2j, right=-1j))


def test_interp_python_floats_at_float64():
    """interp computes in float64: Python floats (kdsl's float32 default elsewhere) keep NumPy's float64 values, so an
    ADSR envelope's sustain level ``fp=[0.0, 1.0, 0.6, 0.6]`` compares equal to 0.6 (tests/porting audiofx22)."""
    xp, fp = [0, 5, 15, 35], [0.0, 1.0, 0.6, 0.6]
    _same(np.interp(np.arange(40), xp, fp), kd.interp(kd.arange(40), xp, fp))
    _same(np.interp(0.3, [0.1, 0.7], [0.1j, 0.6]), kd.interp(0.3, (0.1, 0.7), (0.1j, 0.6)))
    assert kd.interp([0.1], [0, 1], kd.asarray(np.float32([0, 1]))).item() == 0.1  # x a list of Python floats


def test_interp_dispatches_from_numpy():
    got = np.interp(kd.asarray(X), kd.asarray(XP), kd.asarray(FP))
    assert isinstance(got, kd.Array)
    _same(np.interp(X, XP, FP), got)


@pytest.mark.parametrize("call,error,match", [
    (lambda: kd.interp([1.0], [1.0, 2.0], [1.0, 2.0, 3.0]), ValueError, "same length"),
    (lambda: kd.interp([1.0], [], []), ValueError, "empty"),
    (lambda: kd.interp([1.0], [[1.0, 2.0]], [[1.0, 2.0]]), ValueError, "1-D"),
    (lambda: kd.interp([1.0], [1.0, 2.0], [1.0, 2.0], period=0), ValueError, "period"),
    (lambda: kd.interp([1.0], [1.0, 2.0], [1.0, 2.0], left=kd.asarray(1.0)), TypeError, "scalars"),
])
def test_interp_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


BINS = np.array([-1.0, 0.0, 0.0, 2.5, 4.0, 10.0])  # a repeated edge


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("decreasing", [False, True])
def test_digitize_matches_numpy(right, decreasing):
    bins = BINS[::-1].copy() if decreasing else BINS
    x = np.array([-2.0, -1.0, -0.0, 0.0, 1.0, 2.5, 3.0, 10.0, 11.0, np.inf, -np.inf, np.nan])
    expected = np.digitize(x, bins, right=right)
    got = kd.digitize(kd.asarray(x), kd.asarray(bins), right=right)
    assert got.numpy().dtype == expected.dtype and np.array_equal(got.numpy(), expected)
    assert np.array_equal(kd.digitize(kd.asarray(x), bins, right=right).numpy(), expected)  # host bins


@pytest.mark.parametrize("dtype", [np.int16, np.uint8, np.float32, np.float64])
def test_digitize_dtypes_shapes_and_views(dtype):
    x = (np.arange(24).reshape(4, 6) % 11).astype(dtype)
    bins = np.array([1, 3, 3, 8]).astype(dtype)
    kx = kd.asarray(x)
    assert np.array_equal(kd.digitize(kx, kd.asarray(bins)).numpy(), np.digitize(x, bins))
    assert np.array_equal(kd.digitize(kx.T[::2], kd.asarray(bins)[::-1]).numpy(), np.digitize(x.T[::2], bins[::-1]))
    assert np.array_equal(kd.digitize(kx, kd.asarray(bins[:1])).numpy(), np.digitize(x, bins[:1]))
    assert np.array_equal(kd.digitize(kx, kd.asarray(bins[:0])).numpy(), np.digitize(x, bins[:0]))
    assert np.array_equal(kd.digitize(kd.asarray(x[:0]), bins).numpy(), np.digitize(x[:0], bins))
    assert np.array_equal(kd.digitize(kd.asarray(bins), kd.asarray(np.full(3, bins[1]))).numpy(),
                          np.digitize(bins, np.full(3, bins[1])))  # constant bins count as increasing


@pytest.mark.parametrize("call,error,match", [
    (lambda: kd.digitize(kd.asarray([1.0]), kd.asarray([1.0, 3.0, 2.0])), ValueError, "monotonically"),
    (lambda: kd.digitize(kd.asarray([1.0]), [[1.0, 2.0]]), ValueError, "1-D"),
    (lambda: kd.digitize(kd.asarray([1j]), [1.0, 2.0]), TypeError, "complex"),
])
def test_digitize_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


DATA = {
    "normal32": np.random.default_rng(1).normal(size=300).astype(np.float32),
    "ints": np.random.default_rng(2).integers(-50, 50, size=(10, 10)),
    "int8": np.random.default_rng(3).integers(-100, 100, size=64).astype(np.int8),
    "exp64": np.random.default_rng(4).exponential(size=57),
    "constant": np.full(5, 3.0),
}


@pytest.mark.parametrize("name", sorted(DATA))
@pytest.mark.parametrize("bins", [10, 1, 7, "auto", "fd", "doane", "scott", "rice", "sturges", "sqrt"])
@pytest.mark.parametrize("rng", [None, (-1, 2)])
def test_histogram_bin_edges_matches_numpy(name, bins, rng):
    data = DATA[name]
    expected = np.histogram_bin_edges(data, bins, rng)
    _same(expected, kd.histogram_bin_edges(kd.asarray(data), bins, rng), rtol=1e-6)


def test_histogram_bin_edges_arrays_views_and_empty():
    data = DATA["normal32"]
    for bins in ([0, 1, 5], np.array([-1.5, 0.0, 0.0, 2.0], np.float32), kd.asarray([0.0, 0.5, 3.0])):
        expected = np.histogram_bin_edges(data, np.asarray(bins))
        _same(expected, kd.histogram_bin_edges(kd.asarray(data), bins))
    _same(np.histogram_bin_edges(data[::3], 4), kd.histogram_bin_edges(kd.asarray(data)[::3], 4), rtol=1e-6)
    _same(np.histogram_bin_edges(data[:0], 3), kd.histogram_bin_edges(kd.asarray(data[:0]), 3))
    _same(np.histogram_bin_edges(data[:0], "auto"), kd.histogram_bin_edges(kd.asarray(data[:0]), "auto"))
    _same(np.histogram_bin_edges(data[:1], "fd"), kd.histogram_bin_edges(kd.asarray(data[:1]), "fd"))
    _same(np.histogram_bin_edges(data, 3, weights=data), kd.histogram_bin_edges(kd.asarray(data), 3,
                                                                                 weights=kd.asarray(data)))


@pytest.mark.parametrize("call,error,match", [
    (lambda x: kd.histogram_bin_edges(x, 0), ValueError, "positive"),
    (lambda x: kd.histogram_bin_edges(x, 2.5), TypeError, "integer, a string, or an array"),
    (lambda x: kd.histogram_bin_edges(x, [[1.0, 2.0]]), ValueError, "1d"),
    (lambda x: kd.histogram_bin_edges(x, [2.0, 1.0]), ValueError, "monotonically"),
    (lambda x: kd.histogram_bin_edges(x, kd.asarray([2.0, 1.0])), ValueError, "monotonically"),
    (lambda x: kd.histogram_bin_edges(x, "nope"), ValueError, "not a valid estimator"),
    (lambda x: kd.histogram_bin_edges(x, "auto", weights=x), TypeError, "weighted"),
    (lambda x: kd.histogram_bin_edges(x, 3, range=(2, 1)), ValueError, "max must be larger than min"),
    (lambda x: kd.histogram_bin_edges(x, 3, range=(0, np.inf)), ValueError, "not finite"),
    (lambda x: kd.histogram_bin_edges(x, 3, weights=x[:2]), ValueError, "same shape"),
])
def test_histogram_bin_edges_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call(kd.asarray(DATA["exp64"]))


@pytest.mark.parametrize("bins", [[np.nan, 0.0, 2.0], [np.nan, 0.0], [0.0, np.nan], [2.0, 2.0, 1.0],
                                  [1.0, 1.0, np.nan, 2.0], [np.nan, np.nan], [3.0, 1.0, 2.0]])
def test_digitize_monotonicity_as_numpys_with_nan_bins(bins):
    # [nan, 0, 2]: NumPy's check reads the NaN step as decreasing and refuses the bins; kdsl binned silently
    x, b = np.array([0.5, 1.5]), np.array(bins)
    try:
        want = np.digitize(x, b)
    except ValueError:
        with pytest.raises(ValueError, match="monotonically"):
            kd.digitize(kd.asarray(x), kd.asarray(b))
        return
    np.testing.assert_array_equal(kd.digitize(kd.asarray(x), kd.asarray(b)).numpy(), want)
