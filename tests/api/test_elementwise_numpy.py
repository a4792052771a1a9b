"""fabs fmod fmax fmin deg2rad rad2deg degrees radians cbrt heaviside isposinf isneginf float_power logaddexp2
divmod modf fix sinc real_if_close against NumPy: dtypes (bool, ints, float16/32/64), NaN/inf/-0.0,
broadcasting, Python scalars, empty / size-1 / strided inputs, bad input, and np.<name>(a) dispatch."""

import numpy as np
import pytest
from api_testing import numpy_kdsl_allclose, sample, strided

import kdsl as kd

DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64"]
SHAPES = [(0,), (1,), (1, 7), (2, 1, 9)]
SPECIAL = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 2.5, -3.25, 1e-3, 7.0, -7.0], np.float32)
UNARY = ["fabs", "deg2rad", "rad2deg", "degrees", "radians", "cbrt", "fix", "sinc", "modf", "isposinf",
         "isneginf"]
BINARY = ["fmod", "fmax", "fmin", "heaviside", "float_power", "logaddexp2", "divmod"]


def _data(shape, dtype, seed=0):
    if dtype.startswith("int"):  # no extremes: sinc's pi * 2**63 is past kd.sin's float64 argument reduction
        return sample(shape, dtype, seed=seed, special=False, low=-100, high=100)
    return sample(shape, dtype, seed=seed)


@numpy_kdsl_allclose(atol=1e-6, accept_error=(TypeError,))  # sinc: sin near k*pi is absolutely accurate
@pytest.mark.parametrize("fn,dtype", [(f, d) for f in UNARY for d in DTYPES if (f, d) != ("sinc", "float16")])
def test_unary(xp, fn, dtype):
    return getattr(xp, fn)(strided(xp, _data((5, 8), dtype)))


# float16 sinc near its zeros: sin(pi x) cancels, and a device with float16 arithmetic (the H200) rounds
# pi * x otherwise than NumPy's float32-then-round loop: absolutely accurate to half an ulp of 1
@numpy_kdsl_allclose(atol=1e-3)
def test_sinc_float16(xp):
    return xp.sinc(strided(xp, _data((5, 8), "float16")))


@numpy_kdsl_allclose(atol=1e-6)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("fn", UNARY)
def test_unary_shapes_and_transposed_views(xp, fn, shape):
    return getattr(xp, fn)(xp.asarray(sample(shape, "float32", seed=3)).T)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("fn", ["fabs", "cbrt", "fix", "modf", "deg2rad", "rad2deg"])
def test_unary_signs_of_zeros_and_infinities(fn, dtype):
    x = SPECIAL[1:].astype(dtype)
    expected, got = getattr(np, fn)(x), getattr(kd, fn)(kd.asarray(x))
    for e, g in zip(*(((expected,), (got,)) if fn != "modf" else (expected, got)), strict=True):
        assert g.dtype.name == e.dtype.name
        np.testing.assert_array_equal(np.signbit(g.numpy()), np.signbit(e))
        np.testing.assert_allclose(g.numpy().astype(np.float64), e.astype(np.float64), rtol=2e-3)


@numpy_kdsl_allclose(rtol=1e-5, atol=1e-6, accept_error=(TypeError,))  # float16 takes its ulp (2e-3)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fn", BINARY)
def test_binary_broadcast(xp, fn, dtype):
    a = _data((7, 12), dtype, seed=1)
    if dtype.startswith("float"):
        b = np.broadcast_to(SPECIAL.astype(dtype), (7, 12))
    else:
        b = _data((12,), dtype, seed=2)
    return getattr(xp, fn)(xp.asarray(a), xp.asarray(b[0] if b.ndim == 2 else b))


@numpy_kdsl_allclose(rtol=1e-5, atol=1e-6)
@pytest.mark.parametrize("fn", BINARY)
@pytest.mark.parametrize("shape", [(0, 3), (1, 1), (3, 4)])
def test_binary_with_scalars_and_views(xp, fn, shape):
    a = xp.asarray(sample(shape, "float32", seed=2, special=False, low=0.5, high=4)).T
    return getattr(xp, fn)(a, 1.5), getattr(xp, fn)(2.5, a), getattr(xp, fn)(a, -0.0)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "uint32", "int64"])
def test_fmod_integers_truncate_and_keep_the_dividend_sign(xp, dtype):
    info = np.iinfo(dtype)
    a = np.array([7, -7, 7, -7, 0, 5, info.min, info.max, info.min], dtype=np.int64)
    b = np.array([2, 2, -2, -2, 3, 0, -1, 7, 3], dtype=np.int64)
    keep = (a >= info.min) & (a <= info.max) & (b >= info.min)
    return xp.fmod(xp.asarray(a[keep].astype(dtype)), xp.asarray(b[keep].astype(dtype)))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_fmod_is_exact_for_moderate_ratios(dtype):
    rng = np.random.default_rng(5)
    a = (rng.standard_normal(500) * 50).astype(dtype)
    b = (rng.standard_normal(500) * 3).astype(dtype)
    expected, got = np.fmod(a, b), kd.fmod(kd.asarray(a), kd.asarray(b)).numpy()
    np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))
    atol = float(np.finfo(dtype).eps) * 200  # |x1| < 200: a few units in the last place of x1
    np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64), rtol=0, atol=atol)


@pytest.mark.parametrize("fn", ["fmax", "fmin"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_fmax_fmin_ignore_nan(fn, dtype):
    a = np.array([np.nan, 1.0, np.nan, -0.0, 0.0, -np.inf, 3.0], dtype)
    b = np.array([2.0, np.nan, np.nan, 0.0, -0.0, np.inf, -3.0], dtype)
    got, expected = getattr(kd, fn)(kd.asarray(a), kd.asarray(b)).numpy(), getattr(np, fn)(a, b)
    np.testing.assert_array_equal(got, expected)  # the sign of a (0.0, -0.0) tie: NumPy's varies by length


@numpy_kdsl_allclose(rtol=1e-5)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logaddexp2_extremes(xp, dtype):
    a = np.array([1000.0, -1000.0, np.inf, -np.inf, np.inf, 0.0, 1e-30, 60.0], dtype)
    b = np.array([0.0, -1000.0, np.inf, -np.inf, -np.inf, -0.0, -1e-30, -60.0], dtype)
    return xp.logaddexp2(xp.asarray(a), xp.asarray(b))


@numpy_kdsl_allclose(rtol=1e-6)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cbrt_over_the_whole_range(xp, dtype):
    f = np.finfo(dtype)
    x = np.array([f.max, -f.max, f.smallest_normal, f.smallest_subnormal, -f.smallest_subnormal * 12345, -8.0,
                  27.0, 1e-20, -3.0, f.smallest_normal * 0.999], dtype)
    return xp.cbrt(xp.asarray(x))


def test_divmod_returns_both_parts_and_python_divmod_works():
    a = np.array([7, -7, 8, 0], np.int32)
    q, r = kd.divmod(kd.asarray(a), 3)
    assert (q.numpy() == a // 3).all() and (r.numpy() == a % 3).all()
    q2, r2 = divmod(kd.asarray(a), 3)
    assert (q2.numpy() == a // 3).all() and (r2.numpy() == a % 3).all()
    q3, r3 = divmod(10, kd.asarray(np.array([3, -4], np.int32)))
    assert q3.tolist() == [3, -3] and r3.tolist() == [1, -2]


def test_isposinf_isneginf_out_and_complex():
    x = kd.asarray(np.array([np.inf, -np.inf, 1.0], np.float32))
    out = kd.zeros(3, dtype=kd.bool_)
    assert kd.isposinf(x, out) is out and out.tolist() == [True, False, False]
    assert kd.isneginf(x, out=out).tolist() == [False, True, False]
    with pytest.raises(TypeError, match="ambiguous"):
        kd.isposinf(kd.asarray(np.array([1j])))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("fn", ["fabs", "cbrt", "fmod", "heaviside", "logaddexp2", "modf", "isneginf"])
def test_complex_input_raises_type_error(fn, dtype):
    z = np.array([1 + 2j, 3j], dtype)
    args = (z, z) if fn in BINARY else (z,)
    with pytest.raises(TypeError):
        getattr(np, fn)(*args)
    with pytest.raises(TypeError):
        getattr(kd, fn)(*(kd.asarray(v) for v in args))


def test_binary_shapes_that_do_not_broadcast_raise():
    with pytest.raises(ValueError, match="broadcast"):
        kd.fmod(kd.ones(3), kd.ones(4))


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32", "int32"])
@pytest.mark.parametrize("tol", [100, 1e-3, 1e6, 1e-12])
def test_real_if_close(dtype, tol):
    base = np.array([1.0, -2.5, 3.0])
    z = (base + 1j * np.array([0.0, 1e-9, -2e-9])).astype(dtype) if dtype.startswith("c") else base.astype(dtype)
    got, expected = kd.real_if_close(kd.asarray(z), tol=tol), np.real_if_close(z, tol=tol)
    assert got.dtype.name == expected.dtype.name
    np.testing.assert_array_equal(got.numpy(), expected)


def test_real_if_close_keeps_a_large_imaginary_part():
    z = np.array([1 + 1e-3j, 2 + 0j], np.complex64)
    got = kd.real_if_close(kd.asarray(z))
    assert got.dtype.name == "complex64"
    np.testing.assert_array_equal(got.numpy(), np.real_if_close(z))


@pytest.mark.parametrize("fn", UNARY + BINARY + ["real_if_close"])
def test_numpy_dispatches_to_kdsl(fn):
    x = kd.asarray(np.array([0.5, -2.0, 3.0], np.float32))
    args = (x, x) if fn in BINARY else (x,)
    got = getattr(np, fn)(*args)
    for g in (got if isinstance(got, tuple) else (got,)):
        assert isinstance(g, kd.Array)
    with np.errstate(all="ignore"):
        expected = getattr(np, fn)(*(v.numpy() for v in args))
    for g, e in zip(got if isinstance(got, tuple) else (got,), expected if isinstance(expected, tuple) else
                    (expected,), strict=True):
        np.testing.assert_allclose(g.numpy(), e, rtol=1e-6)


@pytest.mark.parametrize("axis", [0, 1, None])
@pytest.mark.parametrize("fn", ["fmax", "fmin"])
def test_fmax_fmin_reduce_through_numpy(fn, axis):
    a = np.array([[1.0, np.nan, 2.0], [np.nan, np.nan, -1.0], [3.0, 0.5, np.nan]], np.float32)
    got = getattr(np, fn).reduce(kd.asarray(a), axis=axis)
    assert isinstance(got, kd.Array)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got.numpy(), getattr(np, fn).reduce(a, axis=axis))


def _cbrt_correctly_rounded(x: np.float32, y: np.float32) -> bool:
    """Whether float32 ``y`` is the correctly rounded cube root of ``x``: the cubes of the midpoints to its
    neighbours bracket ``x`` (exact, in Fractions)."""
    from fractions import Fraction
    lo = (Fraction(float(y)) + Fraction(float(np.nextafter(y, np.float32(-np.inf))))) / 2
    hi = (Fraction(float(y)) + Fraction(float(np.nextafter(y, np.float32(np.inf))))) / 2
    return lo ** 3 <= Fraction(float(x)) <= hi ** 3


def test_float32_cbrt_is_correctly_rounded_and_numpys_where_numpys_is():
    """NumPy's float32 cbrt (libm's or SVML's) is an ulp off for a few percent of inputs; kdsl's is correctly
    rounded, so it equals NumPy's wherever NumPy's is correctly rounded (it was an ulp off there before)."""
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(0, 1e3, 1500), np.exp(rng.uniform(-100, 88, 1500)),
                        [np.finfo(np.float32).smallest_subnormal * 7, 1e-40, 3.0, 10.0, 0.1]]).astype(np.float32)
    got, expected = kd.cbrt(kd.asarray(x)).numpy(), np.cbrt(x)
    assert all(_cbrt_correctly_rounded(v, g) for v, g in zip(x, got, strict=True))
    numpy_right = np.array([_cbrt_correctly_rounded(v, e) for v, e in zip(x, expected, strict=True)])
    np.testing.assert_array_equal(got[numpy_right], expected[numpy_right])
    np.testing.assert_array_equal(kd.cbrt(kd.asarray(-x)).numpy(), -got)
