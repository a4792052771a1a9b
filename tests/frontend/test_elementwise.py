"""Elementwise ops against NumPy over dtypes, shapes (0-d, empty, size-1, views) and special values."""

import numpy as np
import pytest
from kd_testing import ALL_DTYPES, FLOATS, INTS, NUMERIC, SIGNED, numpy_kdsl_allclose, sample

import kdsl as kd

FLOAT_FUNCS = ["exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "sin", "cos", "tan", "arcsin",
               "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh"]
EXACT_FUNCS = ["floor", "ceil", "trunc", "rint", "abs", "negative", "sign", "square", "isnan", "isinf",
               "isfinite"]


@pytest.mark.parametrize("name", FLOAT_FUNCS)
@pytest.mark.parametrize("dtype", FLOATS + ["int8", "int32"])
@numpy_kdsl_allclose(rtol=3e-5, atol=1e-6)
def test_float_functions(xp, name, dtype):
    a = xp.asarray(sample((4, 6), dtype, low=-3, high=3, special=dtype in FLOATS))
    return getattr(xp, name)(a)


@pytest.mark.parametrize(("name", "dtype"), [(n, d) for n in EXACT_FUNCS for d in NUMERIC
                                              if not (d.startswith("uint") and n == "negative")])  # see below
@numpy_kdsl_allclose(rtol=0)
def test_exact_unary(xp, name, dtype):
    a = xp.asarray(sample((3, 5), dtype))
    return getattr(xp, name)(a)


@pytest.mark.parametrize("dtype", ["uint8", "uint32"])
@numpy_kdsl_allclose()
def test_unsigned_negative_wraps(xp, dtype):
    return -xp.asarray(np.array([0, 1, 5, 200], dtype))


@pytest.mark.parametrize("dtype", SIGNED + ["uint8", "uint16"])
@numpy_kdsl_allclose()
def test_integer_overflow_wraps(xp, dtype):
    info = np.iinfo(dtype)
    a = xp.asarray(np.array([info.max, info.min, info.max - 1, 7], dtype))
    b = xp.asarray(np.array([1, -1 if info.min else 1, 5, 3], dtype))
    return [a + b, a - b, a * b, a * a, xp.abs(a)]


ARITH = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "maximum", "minimum"]


@pytest.mark.parametrize("name", ARITH)
@pytest.mark.parametrize("dtype", NUMERIC)
@numpy_kdsl_allclose()
def test_binary_same_dtype(xp, name, dtype):
    a = xp.asarray(sample((4, 5), dtype, seed=1))
    b = xp.asarray(sample((4, 5), dtype, seed=2))
    return getattr(xp, name)(a, b)


@pytest.mark.parametrize("pair", [("int8", "uint8"), ("int32", "float32"), ("uint32", "int32"),
                                  ("float16", "int16"), ("bool", "int8"), ("uint64", "int64"),
                                  ("float32", "float64"), ("int16", "uint16")])
@pytest.mark.parametrize("name", ["add", "multiply", "divide", "maximum", "less", "equal"])
@numpy_kdsl_allclose()
def test_binary_mixed_dtypes(xp, name, pair):
    a = xp.asarray(sample((6,), pair[0], seed=3, special=False))
    b = xp.asarray(sample((6,), pair[1], seed=4, special=False))
    return getattr(xp, name)(a, b)


@pytest.mark.parametrize("dtype", INTS + ["float32", "float64"])
@numpy_kdsl_allclose()
def test_floor_divide_and_mod_signs(xp, dtype):
    signed = np.dtype(dtype).kind != "u"
    av = [7, -7, 7, -7, 0, 5, -1, 9] if signed else [7, 8, 0, 5, 1, 9, 200, 3]
    bv = [2, 2, -2, -2, 3, 0, 3, -4] if signed else [2, 3, 3, 0, 1, 4, 7, 1]
    a, b = xp.asarray(np.array(av, dtype)), xp.asarray(np.array(bv, dtype))
    return [a // b, a % b]


@pytest.mark.parametrize("name", ["less", "less_equal", "greater", "greater_equal", "equal", "not_equal"])
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@numpy_kdsl_allclose()
def test_comparisons(xp, name, dtype):
    a = xp.asarray(sample((10,), dtype, seed=5))
    b = xp.asarray(sample((10,), dtype, seed=5)[::-1].copy())
    return getattr(xp, name)(a, b)


@pytest.mark.parametrize("name", ["logical_and", "logical_or", "logical_xor"])
@pytest.mark.parametrize("dtype", ["bool", "int32", "float32"])
@numpy_kdsl_allclose()
def test_logical(xp, name, dtype):
    a = xp.asarray(sample((8,), dtype, seed=6))
    b = xp.asarray(sample((8,), dtype, seed=7))
    return [getattr(xp, name)(a, b), xp.logical_not(a)]


@pytest.mark.parametrize("dtype", ["bool"] + INTS)
@numpy_kdsl_allclose()
def test_bitwise(xp, dtype):
    a = xp.asarray(sample((9,), dtype, seed=8))
    b = xp.asarray(sample((9,), dtype, seed=9))
    return [a & b, a | b, a ^ b, ~a]


@pytest.mark.parametrize("dtype", INTS)
@numpy_kdsl_allclose()
def test_shifts(xp, dtype):
    a = xp.asarray(sample((8,), dtype, seed=10))
    s = xp.asarray(np.array([0, 1, 3, 7, 8, 15, 31, 63], dtype))
    return [a << s, a >> s]


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "int64"])
@numpy_kdsl_allclose()
def test_integer_power(xp, dtype):
    a = xp.asarray(sample((8,), dtype, seed=11, special=False, low=0, high=9))
    b = xp.asarray(sample((8,), dtype, seed=12, special=False, low=0, high=6))
    return a ** b


@pytest.mark.parametrize("dtype", FLOATS)
@numpy_kdsl_allclose(rtol=3e-5)
def test_float_power_special(xp, dtype):
    a = xp.asarray(np.array([2, -2, -2, 0, 0, np.nan, 1, -1, 4, np.inf, 0.5, -8], dtype))
    b = xp.asarray(np.array([3, 3, 0.5, -1, 0, 0, np.nan, np.inf, -0.5, 2, -np.inf, 1 / 3], dtype))
    return a ** b


@pytest.mark.parametrize("dtype", FLOATS)
@numpy_kdsl_allclose(rtol=3e-5)
def test_arctan2(xp, dtype):
    y = xp.asarray(np.array([1, -1, 0, -0.0, 0, 1, np.inf, -np.inf, 2], dtype))
    x = xp.asarray(np.array([1, 1, -1, -1, 0, 0, np.inf, 1, -3], dtype))
    return xp.arctan2(y, x)


@pytest.mark.parametrize("dtype", NUMERIC)
@numpy_kdsl_allclose()
def test_where_and_clip(xp, dtype):
    a = xp.asarray(sample((3, 4), dtype, seed=13, special=False))
    b = xp.asarray(sample((4,), dtype, seed=14, special=False))
    return [xp.where(a > b, a, b), xp.clip(a, 1, 50), xp.where(a > b, a, 0)]


@pytest.mark.parametrize("shape", [(), (0,), (1,), (3, 0, 2), (1, 1, 4), (2, 3, 1)])
@numpy_kdsl_allclose()
def test_shapes(xp, shape):
    a = xp.asarray(sample(shape, "float32", seed=15, special=False))
    return xp.exp(a) * 2 + a


@numpy_kdsl_allclose()
def test_broadcasting_and_views(xp):
    a = xp.asarray(sample((4, 1, 3), "float32", seed=16, special=False))
    b = xp.asarray(sample((5, 1), "float32", seed=17, special=False))
    c = xp.asarray(sample((6, 8), "float32", seed=18, special=False))
    return [a * b - a, c[::2, ::-3] + c[1::2, 1::3], c.T[2:5] * 3, xp.sin(c[:, 3]) + c[:, 0]]


@pytest.mark.parametrize("src", ALL_DTYPES)
@pytest.mark.parametrize("dst", ALL_DTYPES)
def test_astype_matrix(src, dst):
    data = sample((12,), src, seed=19, special=False)
    if np.dtype(src).kind == "f" and np.dtype(dst).kind in "iu":  # NumPy leaves out-of-range casts undefined
        data = np.clip(data, 0 if np.dtype(dst).kind == "u" else -3, 3)
    got = kd.asarray(data).astype(dst).numpy()
    np.testing.assert_array_equal(got, data.astype(dst))
    assert got.dtype == np.dtype(dst)


def test_special_kdsl_functions():
    x = np.array([-3, -0.5, 0, 0.25, 4, np.inf, -np.inf, np.nan], np.float32)
    a = kd.asarray(x)
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(kd.sigmoid(a).numpy(), 1 / (1 + np.exp(-x)), rtol=1e-6)
        np.testing.assert_allclose(kd.rsqrt(a).numpy(), 1 / np.sqrt(x), rtol=1e-5)
        np.testing.assert_allclose(kd.reciprocal(a).numpy(), 1 / x, rtol=1e-6)
        np.testing.assert_allclose(kd.relu(a).numpy(), np.maximum(x, 0))
    np.testing.assert_allclose(kd.round(a * 100, 1).numpy()[:5], np.round(x[:5] * 100, 1), rtol=1e-6)


def test_python_scalar_promotion():
    i8 = kd.asarray(np.array([1, 2], np.int8))
    f16 = kd.asarray(np.array([1, 2], np.float16))
    assert (i8 + 1).dtype == kd.int8 and (f16 * 2.5).dtype == kd.float16
    assert (i8 + 1.5).dtype == kd.float32  # kdsl's default float (NumPy: float64)
    assert (kd.asarray([True]) + 1).dtype == kd.int32
    assert kd.asarray(1.5).dtype == kd.float32 and kd.asarray(3).dtype == kd.int32
    with pytest.raises(OverflowError):
        i8 + 1000


def test_inplace_operators():
    a = kd.asarray(np.arange(4, dtype=np.int32))
    a += 3
    a *= 2
    np.testing.assert_array_equal(a.numpy(), (np.arange(4) + 3) * 2)
    with pytest.raises(TypeError):
        a /= 2  # float result into an int array: NumPy's same_kind rule refuses


def test_reflected_operators():
    a = kd.asarray(np.array([1.0, 2.0, 4.0], np.float32))
    np.testing.assert_allclose((1 - a).numpy(), [0, -1, -3])
    np.testing.assert_allclose((8 / a).numpy(), [8, 4, 2])
    np.testing.assert_allclose((2 ** a).numpy(), [2, 4, 16])
    np.testing.assert_allclose((np.float32(3) * a).numpy(), [3, 6, 12])


@numpy_kdsl_allclose()
def test_compare_with_out_of_range_python_int(xp):
    a = xp.asarray(np.array([0, 5, 255], np.uint8))
    b = xp.asarray(np.array([-128, 0, 127], np.int8))
    return [a < -1, a == 300, b > 1000, b >= -129, a != -5]


@pytest.mark.parametrize("value,decimals", [(np.float64(2.5), 0), (np.float32(1.25), 1), (2.567, 2), (7, -1),
                                            ([1.25, 2.5, -0.5], 1), ((3.5, 4.5), 0), (np.int64(1234), -2)])
def test_round_of_scalars_and_lists(value, decimals):
    got, expected = kd.round(value, decimals), np.round(value, decimals)
    assert isinstance(got, kd.Array) and got.shape == np.shape(expected)
    assert got.dtype.kind == np.asarray(expected).dtype.kind
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)
    assert int(kd.around(value, decimals).reshape(-1)[0]) == int(np.asarray(expected).reshape(-1)[0])
