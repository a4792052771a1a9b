"""polyval polyadd polysub polymul polyder polyint polyfit against NumPy: dtypes, lengths, leading zeros,
views, constants, weights, full/cov outputs and errors."""

import warnings

import numpy as np
import pytest
from api_testing import numpy_kdsl_allclose, sample

import kdsl as kd

DTYPES = ["int8", "int32", "int64", "float32", "float64"]


def _coeffs(n, dtype, seed=0):
    return sample((n,), dtype, seed=seed, special=False, low=-5, high=5)


@numpy_kdsl_allclose(rtol=1e-5)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 4])
def test_polyval(xp, dtype, n):
    p = xp.asarray(_coeffs(n, dtype))
    x = xp.asarray(sample((3, 2), dtype, seed=1, special=False, low=-3, high=3))
    return xp.polyval(p, x), xp.polyval(p, x.T[::-1])


@numpy_kdsl_allclose(rtol=1e-6)
@pytest.mark.parametrize("pdtype,xdtype", [("int32", "float64"), ("float32", "int16"), ("float64", "float32")])
def test_polyval_mixed(xp, pdtype, xdtype):
    return xp.polyval(xp.asarray(_coeffs(3, pdtype)), xp.asarray(sample((5,), xdtype, special=False, low=-2, high=2)))


@numpy_kdsl_allclose(rtol=1e-5)
def test_polyval_special_values(xp):
    return xp.polyval(xp.asarray(np.array([1.0, -2.0, 0.5])), xp.asarray(sample((9,), "float64")))


@numpy_kdsl_allclose()  # per-dtype tolerance: float16 sums may round differently
@pytest.mark.parametrize("fn", ["polyadd", "polysub", "polymul"])
@pytest.mark.parametrize("dtype", DTYPES + ["float16"])
@pytest.mark.parametrize("n,m", [(1, 1), (4, 2), (2, 5), (3, 3)])
def test_arithmetic(xp, fn, dtype, n, m):
    a, b = xp.asarray(_coeffs(n, dtype)), xp.asarray(_coeffs(m, dtype, seed=1))
    return getattr(xp, fn)(a, b)


@numpy_kdsl_allclose(rtol=1e-6)
@pytest.mark.parametrize("fn", ["polyadd", "polysub", "polymul"])
def test_arithmetic_mixed_and_views(xp, fn):
    a = xp.asarray(_coeffs(8, "float64"))
    b = xp.asarray(_coeffs(3, "int32", seed=2))
    return getattr(xp, fn)(a[::2], b), getattr(xp, fn)(b[::-1], a[1:4])


@numpy_kdsl_allclose()
@pytest.mark.parametrize("a,b", [([0, 0, 1, 2], [3, 1]), ([0, 0], [1, 2]), ([0.0, -0.0, 2.0], [0.0, 1.0, 5.0]),
                                 ([True, False], [True]), ([0.0, 1.0], [np.nan, 2.0])])
def test_polymul_drops_leading_zeros_as_numpy(xp, a, b):
    return xp.polymul(xp.asarray(np.array(a)), xp.asarray(np.array(b)))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("m", [0, 1, 2, 3, 6])
def test_polyder(xp, dtype, m):
    return xp.polyder(xp.asarray(_coeffs(5, dtype)), m)


@numpy_kdsl_allclose(rtol=1e-12)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("m,k", [(0, None), (1, None), (2, None), (1, 3.0), (3, 2.0), (2, [1.0, -2.0]),
                                 (2, [1.0, 2.0, 3.0]), (1, np.array([4], np.int32))])
def test_polyint(xp, dtype, m, k):
    return xp.polyint(xp.asarray(_coeffs(4, dtype)), m, k=k)


@numpy_kdsl_allclose(rtol=1e-12)
def test_polyint_of_device_constants(xp):
    return xp.polyint(xp.asarray(_coeffs(3, "float64")), 2, k=xp.asarray(np.array([1.5, -1.0])))


@numpy_kdsl_allclose(accept_error=(ValueError,))
@pytest.mark.parametrize("case", ["der", "int", "k_short"])
def test_derivative_errors(xp, case):
    p = xp.asarray(np.array([1.0, 2.0, 3.0]))
    if case == "der":
        return xp.polyder(p, -1)
    if case == "int":
        return xp.polyint(p, -1)
    return xp.polyint(p, 3, k=[1.0, 2.0])


X = np.linspace(-2.0, 3.0, 25)
Y = 0.5 * X ** 3 - X + 1.0 + sample((25,), "float64", seed=7, special=False, low=-0.1, high=0.1)


@numpy_kdsl_allclose(rtol=1e-7, atol=1e-10)
@pytest.mark.parametrize("deg", [0, 1, 3, 6])
@pytest.mark.parametrize("weighted", [False, True])
def test_polyfit(xp, deg, weighted):
    w = xp.asarray(sample((25,), "float64", seed=8, special=False, low=0.5, high=2.0)) if weighted else None
    return xp.polyfit(xp.asarray(X), xp.asarray(Y), deg, w=w)


@numpy_kdsl_allclose(rtol=1e-6, atol=1e-9)
@pytest.mark.parametrize("xdtype,ydtype", [("float32", "float32"), ("int32", "int64"), ("float64", "float32")])
def test_polyfit_dtypes(xp, xdtype, ydtype):
    x = xp.asarray(np.arange(-4, 6).astype(xdtype))
    y = xp.asarray((np.arange(-4, 6) ** 2 - 3).astype(ydtype))
    return xp.polyfit(x, y, 2)


@numpy_kdsl_allclose(rtol=1e-7, atol=1e-10)
@pytest.mark.parametrize("kwargs", [{"full": True}, {"cov": True}, {"cov": "unscaled"}])
@pytest.mark.parametrize("two_d", [False, True])
def test_polyfit_outputs(xp, kwargs, two_d):
    y = xp.asarray(np.stack([Y, 2 * Y - X], axis=1) if two_d else Y)
    out = xp.polyfit(xp.asarray(X), y, 2, **kwargs)
    return tuple(v if isinstance(v, float) else xp.asarray(v) for v in out)  # full's rank: a NumPy scalar


@numpy_kdsl_allclose(rtol=1e-7, atol=1e-10)
def test_polyfit_of_views(xp):
    x, y = xp.asarray(np.stack([X, Y])), xp.asarray(np.stack([Y, X]))
    return xp.polyfit(x[0, ::2], y[0, ::2], 2), xp.polyfit(x[0, ::-1], y.T[::-1], 1)


def test_polyfit_warns_when_rank_deficient():
    with pytest.warns(np.exceptions.RankWarning):
        kd.polyfit(kd.asarray(np.ones(5)), kd.asarray(np.arange(5.0)), 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kd.polyfit(kd.asarray(np.ones(5)), kd.asarray(np.arange(5.0)), 2, full=True)  # full: no warning


@numpy_kdsl_allclose(accept_error=(ValueError, TypeError))
@pytest.mark.parametrize("case", ["deg", "x2d", "empty", "y3d", "length", "w2d", "wlength", "cov_points"])
def test_polyfit_errors(xp, case):
    x, y = xp.asarray(X), xp.asarray(Y)
    args = {"deg": (x, y, -1), "x2d": (x.reshape(5, 5), y, 1), "empty": (x[:0], y[:0], 1),
            "y3d": (x, y.reshape(25, 1, 1), 1), "length": (x, y[:-1], 1)}
    if case in args:
        return xp.polyfit(*args[case])
    if case == "w2d":
        return xp.polyfit(x, y, 1, w=xp.asarray(np.ones((25, 1))))
    if case == "wlength":
        return xp.polyfit(x, y, 1, w=xp.asarray(np.ones(3)))
    return xp.polyfit(x[:3], y[:3], 2, cov=True)


def test_numpy_dispatches():
    p = kd.asarray(np.array([1.0, 2.0]))
    for got in (np.polyval(p, p), np.polyadd(p, p), np.polymul(p, p), np.polyder(p), np.polyint(p),
                np.polyfit(p, p, 1)):
        assert isinstance(got, kd.Array)
