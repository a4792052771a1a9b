"""signbit, copysign, hypot, logaddexp, nextafter, nan_to_num, isclose/allclose/array_equal, count_nonzero,
isin against NumPy (NaN, inf, -0.0, empty, size-1 and strided inputs)."""

import numpy as np
import pytest
from api_testing import FLOATS, NUMERIC, numpy_kdsl_allclose, sample, strided

import kdsl as kd

SHAPES = [(0,), (1,), (5, 8), (2, 1, 9)]
SPECIAL = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 2.5, -3.25, 1e-3, 7.0, -7.0], np.float32)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("shape", SHAPES)
def test_signbit(xp, dtype, shape):
    return xp.signbit(strided(xp, sample(shape, dtype)))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", FLOATS)
def test_signbit_of_signed_zeros_and_infinities(xp, dtype):
    return xp.signbit(xp.asarray(SPECIAL[1:].astype(dtype)))  # -NaN's sign bit is not read (documented)


@numpy_kdsl_allclose(rtol=1e-5)  # float16 takes RTOL's 2e-3: its ulp; exp/log1p of float64 run in float32
@pytest.mark.parametrize("dtype", FLOATS + ["int16"])
@pytest.mark.parametrize("fn", ["copysign", "hypot", "logaddexp"])
def test_binary_float_functions(xp, fn, dtype):
    a = sample((7, 12), dtype, seed=1)
    b = np.broadcast_to(SPECIAL.astype(dtype) if dtype in FLOATS else sample((12,), dtype), (7, 12))
    return getattr(xp, fn)(xp.asarray(a), xp.asarray(b))


@numpy_kdsl_allclose(rtol=1e-5)
@pytest.mark.parametrize("fn", ["copysign", "hypot", "logaddexp"])
@pytest.mark.parametrize("shape", [(0, 3), (1, 1), (3, 4)])
def test_binary_float_functions_with_scalars_and_views(xp, fn, shape):
    a = xp.asarray(sample(shape, "float32", seed=2)).T
    return getattr(xp, fn)(a, -0.0), getattr(xp, fn)(2.0, a)


def test_hypot_does_not_overflow_or_underflow():
    a = np.array([3e30, 3e-30, 1e38, 0.0], np.float32)
    got = kd.hypot(kd.asarray(a), kd.asarray(a * (4 / 3))).numpy()
    np.testing.assert_allclose(got, np.hypot(a, a * (4 / 3)), rtol=1e-6)


@pytest.mark.parametrize("dtype", FLOATS)
def test_nextafter_is_bit_exact(dtype):
    f = np.finfo(dtype)
    rng = np.random.default_rng(3)
    with np.errstate(over="ignore"):  # float16/32 overflow to inf: fine, inf is a case too
        wide = (rng.standard_normal(300) * 10.0 ** rng.integers(-40, 40, 300)).astype(dtype)
    x = np.concatenate([wide,
                        np.array([0, -0.0, 1, 0.75, np.inf, -np.inf, np.nan, f.max, -f.max, f.smallest_normal,
                                  f.smallest_subnormal, -f.smallest_subnormal, f.smallest_normal * 3,
                                  f.smallest_normal * 2 ** (f.nmant + 1), 2.0 ** -3], dtype)])
    y = np.concatenate([rng.standard_normal(300).astype(dtype), np.array(
        [1, -1, 0, 1, 0, np.inf, 1, np.inf, 0, 0, 0, 1, -1, 0, 0], dtype)])
    for a, b in ((x, y), (x, -y), (x, x)):
        with np.errstate(all="ignore"):
            expected = np.nextafter(a, b)
        got = kd.nextafter(kd.asarray(a), kd.asarray(b)).numpy()
        assert got.dtype == expected.dtype
        nan = np.isnan(expected)  # NaN payloads are not specified (NVIDIA's float16 NaN differs from NumPy's)
        assert (np.isnan(got) == nan).all()
        np.testing.assert_array_equal(got[~nan].view(f"u{got.itemsize}"), expected[~nan].view(f"u{got.itemsize}"))


@numpy_kdsl_allclose()
def test_nextafter_with_a_scalar_and_a_view(xp):
    a = xp.asarray(np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)).T
    return xp.nextafter(a, 0.0), xp.nextafter(a, float("inf"))


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8"])
def test_nan_to_num(xp, dtype):
    a = xp.asarray(SPECIAL.astype(dtype) if dtype in FLOATS else sample((6,), dtype))
    return xp.nan_to_num(a), xp.nan_to_num(a, nan=-1.5, posinf=9.0, neginf=-9.0)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("layout", ["plain", "strided"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_nan_to_num_complex_fixes_each_part(xp, dtype, layout):
    grid = np.empty((SPECIAL.size, SPECIAL.size), dtype)  # every (real, imag) pair of the special values
    grid.real, grid.imag = SPECIAL[:, None], SPECIAL[None, :]
    a = strided(xp, grid) if layout == "strided" else xp.asarray(grid)
    return xp.nan_to_num(a), xp.nan_to_num(a, nan=-1.5, posinf=9.0, neginf=-9.0)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int16", "bool"])
def test_nan_to_num_copy_false_replaces_in_place(xp, dtype):
    special = SPECIAL.astype(dtype) if dtype not in ("int16", "bool") else sample((12,), dtype)
    a = xp.asarray(special)
    base = xp.asarray(np.stack([special, special[::-1]]))
    view = base[1, ::2]  # a strided view: the replacement reaches its base
    got = xp.nan_to_num(a, copy=False, nan=-2.0)
    xp.nan_to_num(view, copy=False, posinf=5.0)
    return a, got is a, base


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
def test_nan_to_num_copy_true_is_a_new_array(xp, dtype):
    a = xp.asarray(SPECIAL.astype(dtype) if dtype in FLOATS else sample((12,), dtype))
    b = xp.nan_to_num(a)
    b[0] = 7  # writes into the copy only (int data too: NumPy copies it)
    return a, b, b is a


@numpy_kdsl_allclose()
@pytest.mark.parametrize("equal_nan", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_isclose(xp, dtype, equal_nan):
    a = SPECIAL.astype(dtype) if dtype in FLOATS else sample((12,), dtype)
    b = a.copy()
    b[5:] = b[5:] * (1 + np.array([1e-6, 1e-3, 0, -1e-6, 2e-5, 1e-7, 0], dtype=np.float32)).astype(dtype)
    m = np.stack([a, b[::-1], b])
    return xp.isclose(xp.asarray(m), xp.asarray(b), equal_nan=equal_nan), \
        xp.isclose(xp.asarray(m), xp.asarray(b), rtol=1e-3, atol=0.1, equal_nan=equal_nan)


def test_allclose_and_array_equal_are_lazy_booleans():
    a = np.array([[1.0, np.nan], [np.inf, -0.0]], np.float32)
    x = kd.asarray(a)
    for got, expected in [(kd.allclose(x, a), np.allclose(a, a)),
                          (kd.allclose(x, a, equal_nan=True), np.allclose(a, a, equal_nan=True)),
                          (kd.allclose(x, a + 1e-6), np.allclose(a, a + 1e-6)),
                          (kd.array_equal(x, a), np.array_equal(a, a)),
                          (kd.array_equal(x, a, equal_nan=True), np.array_equal(a, a, equal_nan=True)),
                          (kd.array_equal(x, x.T), np.array_equal(a, a.T)),
                          (kd.array_equal(x, x[0]), np.array_equal(a, a[0])),
                          (kd.array_equal(kd.zeros(0), kd.zeros(0)), True)]:
        assert isinstance(got, kd.Array) and got.shape == () and got.dtype is kd.bool
        assert bool(got) == bool(expected)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("dtype", ["bool", "int8", "float32"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1)])
def test_count_nonzero(xp, dtype, axis):
    a = xp.asarray(sample((4, 6), dtype, seed=4))[:, 1::2]
    out = xp.count_nonzero(a, axis=axis)
    return xp.asarray(out).astype(xp.int64)  # NumPy returns a Python int for axis=None


def test_count_nonzero_keepdims_and_empty():
    a = kd.zeros((0, 3))
    assert kd.count_nonzero(a, axis=0).tolist() == [0, 0, 0] and int(kd.count_nonzero(a)) == 0
    assert kd.count_nonzero(kd.eye(3), axis=1, keepdims=True).shape == (3, 1)


@numpy_kdsl_allclose()
@pytest.mark.parametrize("invert", [False, True])
@pytest.mark.parametrize("test", [[2, 4, 9], [], [[0]], [-0.0, float("nan")]])
def test_isin(xp, test, invert):
    a = xp.asarray(np.array([[1, 2, 0], [4, 4, -1]], np.float32)).T
    return xp.isin(a, xp.asarray(np.array(test, np.float32)), invert=invert)


@pytest.mark.parametrize("make", [set, frozenset, lambda v: dict.fromkeys(v).keys()])
def test_isin_of_a_set_names_the_list_way(make):
    # np.isin(a, {1, 2}) is all False (NumPy reads the set as one object: its documented pitfall); kdsl
    # refuses and names list(s), which gives NumPy's intended answer
    a = np.array([3, 1, 4, 1, 5])
    with pytest.raises(TypeError, match=r"list\(s\)"):
        kd.isin(kd.asarray(a), make([1, 5]))
    np.testing.assert_array_equal(kd.isin(kd.asarray(a), list(make([1, 5]))).numpy(), np.isin(a, [1, 5]))


_NAN_PAIRS = {
    "real_vs_imag": ([complex(np.nan, 1)], [complex(1, np.nan)]),
    "both_parts": ([complex(np.nan, np.nan), 2j], [complex(np.nan, 0), 2j]),
    "nan_vs_number": ([complex(np.nan, 0)], [1 + 0j]),
    "no_nan": ([1 + 2j, 3j], [1 + 2j, 3j]),
    "empty": ([], []),
}


@pytest.mark.parametrize("pair", _NAN_PAIRS)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("equal_nan", [True, False])
@pytest.mark.parametrize("view", [False, True])
def test_array_equal_complex_nan(pair, dtype, equal_nan, view):
    """np.array_equal(a, b, equal_nan=True) counts a NaN in either part as NaN (NumPy's docstring example)."""
    x, y = (np.asarray(v, dtype=dtype) for v in _NAN_PAIRS[pair])
    kx, ky = kd.asarray(x), kd.asarray(y)
    if view:  # every other element of a doubled array: non-contiguous views
        kx, ky = kd.asarray(np.repeat(x, 2))[::2], kd.asarray(np.repeat(y, 2))[::2]
    want = np.array_equal(x, y, equal_nan=equal_nan)
    assert bool(kd.array_equal(kx, ky, equal_nan=equal_nan)) == want
    assert bool(kd.array_equal(kx, y, equal_nan=equal_nan)) == want  # one operand on the host
