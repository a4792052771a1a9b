"""kd.ma's operators and masked ufuncs against numpy.ma: mask unions, domain masking (divide by zero, log and
sqrt of invalid values, non-finite results), reflected operators with scalars, kdsl and NumPy arrays, and the
dispatch of kd.<ufunc> / np.<ufunc> on masked arrays."""

import operator

import numpy as np
import pytest
from ma_testing import LAYOUTS, assert_same, pair

import kdsl as kd

ARITH = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod]
# the ops whose data under the mask numpy.ma defines (the first operand's); for the others only the mask and the
# unmasked data are compared
KEEPS_DATA = (operator.add, operator.sub, operator.mul, operator.truediv, operator.eq, operator.ne)
COMPARE = [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]


@pytest.mark.parametrize("op", ARITH + COMPARE, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("kinds", [("some", "some"), ("some", "nomask"), ("nomask", "nomask"), ("all", "none")])
def test_binary_operators(op, dtype, kinds):
    n1, k1 = pair((3, 5), dtype, kinds[0], seed=0)
    n2, k2 = pair((3, 5), dtype, kinds[1], seed=5)
    with np.errstate(all="ignore"):
        expected = op(n1, n2)
    assert_same(op(k1, k2), expected, masked_data=op in KEEPS_DATA)


@pytest.mark.parametrize("op", ARITH + COMPARE, ids=lambda f: f.__name__)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_broadcasting_and_views(op, layout):
    n1, k1 = pair((4, 6), np.float64, "some", layout)
    n2, k2 = pair((6,) if layout != "transposed" else (4,), np.float64, "some", seed=3)
    with np.errstate(all="ignore"):
        assert_same(op(k1, k2), op(n1, n2))
        assert_same(op(k2, k1), op(n2, n1))


@pytest.mark.parametrize("op", ARITH + [operator.pow] + COMPARE, ids=lambda f: f.__name__)
@pytest.mark.parametrize("other", [2, 0, 1.5, "numpy", "kdsl"])
def test_with_scalars_and_plain_arrays(op, other):
    n, k = pair((2, 4), np.float64, "some")
    if other == "numpy":
        nother = kother = np.linspace(-1.0, 2.0, 4)
    elif other == "kdsl":
        nother = np.linspace(-1.0, 2.0, 4)
        kother = kd.asarray(nother)
    else:
        nother = kother = other
    with np.errstate(all="ignore"):
        assert_same(op(k, kother), op(n, nother), masked_data=op in KEEPS_DATA[:4])
        assert_same(op(kother, k), op(nother, n), masked_data=op in KEEPS_DATA[:4])


@pytest.mark.parametrize("name", ["sqrt", "log", "log2", "log10", "arcsin", "arccos", "arccosh",
                                  "arctanh", "exp", "sin", "cos", "tanh", "absolute", "negative", "floor"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["some", "nomask"])
def test_unary_functions_domain(name, dtype, kind):
    base = np.array([[4.0, -1.0, 0.0, 0.5], [np.nan, np.inf, -np.inf, 1.0], [2.0, -0.5, 1e-3, 0.99]], dtype)
    mask = np.ma.nomask if kind == "nomask" else np.array([[0, 0, 0, 1], [0, 0, 1, 0], [1, 0, 0, 0]], bool)
    n = np.ma.array(base, mask=mask)
    k = kd.ma.array(kd.asarray(base), mask=mask)
    with np.errstate(all="ignore"):
        expected = getattr(np.ma, name)(n)
        assert_same(getattr(kd.ma, name)(k), expected, rtol=5e-6, masked_data=True)
        # kd's and NumPy's ufuncs of a masked array are NumPy's ufunc under numpy.ma's __array_wrap__, not np.ma's
        # function (it masked non-finite results; test_ma_ufunc_calls.py)
        wrapped = getattr(np, name)(n)
        assert_same(getattr(kd, name)(k), wrapped, rtol=5e-6, masked_data=True)
        assert_same(getattr(np, name)(k), wrapped, rtol=5e-6, masked_data=True)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide",
                                  "remainder", "power", "maximum", "minimum", "equal", "less", "greater_equal",
                                  "arctan2", "hypot"])
def test_binary_functions(name):
    a = np.array([[1.0, -2.0, 0.0, 4.0], [np.inf, 3.0, 2.0, -1.0]])
    b = np.array([[0.0, 2.0, 0.0, 0.5], [1.0, np.nan, -3.0, 1e-320]])
    na = np.ma.array(a, mask=[[0, 0, 0, 1], [0, 0, 0, 0]])
    nb = np.ma.array(b, mask=[[0, 1, 0, 0], [0, 0, 0, 0]])
    ka = kd.ma.array(kd.asarray(a), mask=[[0, 0, 0, 1], [0, 0, 0, 0]])
    kb = kd.ma.array(kd.asarray(b), mask=[[0, 1, 0, 0], [0, 0, 0, 0]])
    with np.errstate(all="ignore"):
        expected = getattr(np.ma, name)(na, nb)
        keeps = name in ("add", "subtract", "multiply", "divide", "true_divide")
        assert_same(getattr(kd.ma, name)(ka, kb), expected, masked_data=keeps)
        # NumPy's ufunc of masked arrays, not np.ma's function: the division family's domain filled with 1 and
        # masked, non-finite results (of power too) not masked (the data under other ufuncs' masks: np.ma's)
        ufunc = getattr(np, name)(na, nb)
        division = name in ("divide", "true_divide", "floor_divide", "remainder", "power")
        assert_same(getattr(kd, name)(ka, kb), ufunc, masked_data=division)
        assert_same(getattr(np, name)(ka, kb), ufunc, masked_data=division)


@pytest.mark.parametrize("dtype", [np.int32, np.bool_])
def test_integer_and_bool_operators(dtype):
    n1, k1 = pair((3, 4), dtype, "some")
    n2, k2 = pair((3, 4), dtype, "some", seed=4)
    for op in (operator.and_, operator.or_, operator.xor, operator.eq, operator.ne):
        assert_same(op(k1, k2), op(n1, n2))
    assert_same(~k1, ~n1)
    if dtype == np.int32:
        assert_same(-k1, -n1)
        assert_same(abs(k1), abs(n1))
        with np.errstate(all="ignore"):
            assert_same(k1 // k2, n1 // n2)
            assert_same(k1 / k2, n1 / n2)


def test_scalar_results_and_masked_constant():
    n = np.ma.array([1.0, 2.0], mask=[True, False])
    k = kd.ma.array(kd.asarray(np.array([1.0, 2.0])), mask=[True, False])
    assert k[0] + 1 is kd.ma.masked
    assert_same(k[1] * 3, n[1] * 3)
    assert_same(kd.ma.divide(k[1], 0.0), np.ma.divide(n[1], 0.0))
    assert_same(k + kd.ma.masked, n + np.ma.masked, check_data=False, check_dtype=False)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int8, np.bool_])
@pytest.mark.parametrize("scalar", [1, 1.5, True])
def test_python_scalars_are_strong(dtype, scalar):
    """numpy.ma takes Python scalars as 0-d arrays: float32 data + 1.0 is float64, int8 data * 2 is int64."""
    n, k = pair((2, 3), dtype, "some")
    for op in (operator.add, operator.mul, operator.eq, operator.lt):
        assert_same(op(k, scalar), op(n, scalar))
        assert_same(op(scalar, k), op(scalar, n))


def test_unary_of_integers():
    n, k = pair((3, 4), np.int32, "some")
    for name in ("sqrt", "log", "exp", "negative", "absolute"):
        with np.errstate(all="ignore"):
            assert_same(getattr(kd.ma, name)(k), getattr(np.ma, name)(n), rtol=5e-6)


def test_plain_ufunc_keeps_the_mask():
    n, k = pair((3, 4), np.float64, "some")
    with np.errstate(all="ignore"):
        assert_same(kd.log1p(k), np.log1p(n), check_data=False)
        assert_same(np.expm1(k), np.expm1(n))


def test_empty_arrays():
    n, k = pair((0, 3), np.float32, "some")
    assert_same(k + 1.0, n + 1.0)
    assert_same(kd.ma.log(k), np.ma.log(n))


@pytest.mark.parametrize("op", ["__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("other", ["masked", "plain", "scalar"])
def test_inplace_operators_keep_dtype_and_data(op, dtype, other):
    n, k = pair((3, 4), dtype, "some")
    if other == "masked":
        no, ko = pair((3, 4), dtype, "some", seed=8)
    elif other == "plain":
        no = np.arange(1, 5).astype(dtype)
        ko = kd.asarray(no)
    else:
        no = ko = 2
    if dtype == np.int32 and op == "__itruediv__":  # the float quotient cannot be cast back to int32
        with pytest.raises(TypeError), np.errstate(all="ignore"):
            getattr(n, op)(no)
        with pytest.raises(TypeError):
            getattr(k, op)(ko)
        return
    with np.errstate(all="ignore"):
        expected = getattr(n, op)(no)
    got = getattr(k, op)(ko)
    assert got is k
    assert_same(got, expected, masked_data=True)


@pytest.mark.parametrize("op", ["__imod__", "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__"])
def test_inplace_integer_operators_write_in_place(op):
    """``m %= 3``, ``flags |= other``... were Python's ``m = m % 3``: views of ``m`` kept the old values."""
    n, k = pair((3, 4), np.int32, "some")
    no, ko = pair((3, 4), np.int32, "some", seed=8)
    no, ko = no % 5 + 1, ko % 5 + 1  # shifts and divisors in range
    nv, kv = n[1:], k[1:]
    with np.errstate(all="ignore"):
        expected = getattr(n, op)(no)
    got = getattr(k, op)(ko)
    assert got is k
    assert_same(got, expected, masked_data=True)
    np.testing.assert_array_equal(kv.data.numpy(), nv.data)


def test_divmod():
    n, k = pair((2, 3), np.int32, "some")
    for got, expected in zip(divmod(k, 3), divmod(n, 3), strict=True):
        assert_same(got, expected)
    with np.errstate(divide="ignore"):  # numpy.ma's % leaves 0 under its mask: NumPy divides by it there
        pairs = divmod(7, n % 4 + 1)
    for got, expected in zip(divmod(7, k % 4 + 1), pairs, strict=True):
        assert_same(got, expected)


@pytest.mark.parametrize("kind", ["some", "nomask"])
def test_round_clip_nonzero_methods(kind):
    n, k = pair((3, 4), np.float64, kind)
    assert_same(k.round(1), n.round(1))
    assert_same(k.clip(-1.0, 1.0), n.clip(-1.0, 1.0))
    for got, expected in zip(k.nonzero(), n.nonzero(), strict=True):
        np.testing.assert_array_equal(got.numpy(), expected)
