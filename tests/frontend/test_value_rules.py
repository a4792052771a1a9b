"""NumPy 2's value rules (issue 8, point 6): Python ints never change value on the way in, in-place operators keep
the left operand's shape and dtype, assignments refuse values the dtype cannot hold. NumPy is run on the same
input as the oracle; where kdsl's defaults differ (int32 instead of int64 for Python ints that fit), that is said."""

import numpy as np
import pytest

import kdsl as kd

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


@pytest.mark.parametrize("data,dtype", [
    ([1, 2**40], "int64"), ([2**31], "int64"), ([-2**31 - 1], "int64"), ([-2**63, 2**63 - 1], "int64"),
    ([2**63], "uint64"), ([1, 2**64 - 1], "uint64"), (2**40, "int64"), (-2**40, "int64"), (2**63, "uint64"),
    ([[1, 2], [3, 2**33]], "int64"), ([1, 2**31 - 1, -2**31], "int32"), (7, "int32"), ([True, 2], "int32"),
])
@pytest.mark.parametrize("make", ["asarray", "array"])
def test_python_ints_keep_their_value(data, dtype, make):
    got = getattr(kd, make)(data)
    assert got.dtype.name == dtype
    np.testing.assert_array_equal(got.numpy(), np.asarray(data))  # NumPy's values, exactly


@pytest.mark.parametrize("data", [[2**64], [1, -2**63 - 1], 2**70, [[1], [2**64]], [-1, 2**63]])
def test_python_ints_no_dtype_holds_raise_overflow(data):
    with pytest.raises(OverflowError, match="Python integer"):
        kd.asarray(data)


@pytest.mark.parametrize("data,dtype", [
    ([300], "uint8"), ([-1], "uint8"), (-1, "uint32"), ([2**31], "int32"), ([128], "int8"), ([2**63], "int64"),
    ([1, 2, 70000], "int16"), ([1e20], "int32"),
])
def test_explicit_dtype_that_cannot_hold_raises_like_numpy(data, dtype):
    with pytest.raises(OverflowError) as np_err:
        np.asarray(data, dtype=dtype)
    with pytest.raises(OverflowError) as kd_err:
        kd.asarray(data, dtype=dtype)
    assert str(np_err.value) in str(kd_err.value)


def test_explicit_dtype_nan_to_int_raises_value_error():
    with pytest.raises(ValueError, match="NaN"):
        kd.asarray([1.0, np.nan], dtype=kd.int32)


@pytest.mark.parametrize("data,dtype", [([255, 0], "uint8"), ([-128, 127], "int8"), ([1.7, -1.7], "int32"),
                                        ([2**40], "float32"), ([2**63], "uint64"), ([0, 2], "bool")])
def test_explicit_dtype_that_can_hold_matches_numpy(data, dtype):
    got = kd.asarray(data, dtype=dtype)
    assert got.dtype.name == dtype
    np.testing.assert_array_equal(got.numpy(), np.asarray(data, dtype=dtype))


def test_numpy_arrays_cast_as_astype_does():
    host = np.array([300, -1])
    np.testing.assert_array_equal(kd.asarray(host, dtype=kd.uint8).numpy(), host.astype(np.uint8))


@pytest.mark.parametrize("value,dtype", [(2**40, "int64"), (-2**40, "int64"), (2**63, "uint64"), (5, "int32")])
def test_full_picks_numpys_dtype_for_big_ints(value, dtype):
    got = kd.full((2, 2), value)
    assert got.dtype.name == dtype
    np.testing.assert_array_equal(got.numpy(), np.full((2, 2), value))


@pytest.mark.parametrize("value,dtype", [(2**40, "int32"), (-1, "uint8"), (2**64, None)])
def test_full_out_of_range_raises_overflow(value, dtype):
    with pytest.raises(OverflowError):
        kd.full(3, value, dtype=dtype)


@pytest.mark.parametrize("call", [
    lambda xp, a: a + 2**40, lambda xp, a: 2**40 - a, lambda xp, a: a - 2**31,
    lambda xp, a: xp.maximum(a, 2**40), lambda xp, a: a.astype(xp.uint8) + 256,
])
def test_operators_with_out_of_range_python_ints_raise_overflow(call):
    with pytest.raises(OverflowError):
        call(np, np.arange(3, dtype=np.int32))
    with pytest.raises(OverflowError, match="out of bounds"):
        call(kd, kd.arange(3))


def test_operators_with_big_python_ints_on_wide_arrays_match_numpy():
    host = np.arange(3, dtype=np.int64)
    a = kd.asarray(host)
    np.testing.assert_array_equal((a + 2**40).numpy(), host + 2**40)
    np.testing.assert_array_equal((kd.arange(3) < 2**40).numpy(), np.arange(3, dtype=np.int32) < 2**40)


@pytest.mark.parametrize("call", [lambda xp: xp.add(2**40, 1), lambda xp: xp.add(1, -2**40),
                                  lambda xp: xp.multiply(True, 2**35)])
def test_scalar_only_ops_pick_numpys_int_dtype(call):
    got, want = call(kd), call(np)
    assert got.dtype.name == np.asarray(want).dtype.name
    assert int(got) == int(want)


# ----- in-place operators

def test_inplace_broadcast_to_a_bigger_shape_raises():
    a = kd.ones(3)
    with pytest.raises(ValueError, match=r"non-broadcastable output operand with shape \(3,\)"):
        a += kd.ones((2, 3))
    assert a.shape == (3,) and a.tolist() == [1.0, 1.0, 1.0]  # a is unchanged


@pytest.mark.parametrize("op", ["__iadd__", "__isub__", "__imul__", "__itruediv__", "__ipow__"])
@pytest.mark.parametrize("other", [1.5, "float32 array", "float64 array"])
def test_inplace_float_into_int_raises_ufunc_type_error(op, other):
    host = np.arange(1, 4, dtype=np.int32)
    operand = {"float32 array": np.full(3, 1.5, np.float32), "float64 array": np.full(3, 1.5)}.get(other, other)
    with pytest.raises(TypeError, match="same_kind"):
        getattr(host.copy(), op)(operand)
    a = kd.asarray(host)
    with pytest.raises(TypeError, match="same_kind") as err:
        getattr(a, op)(kd.asarray(operand) if isinstance(operand, np.ndarray) else operand)
    assert type(err.value).__name__ == "UFuncTypeError" and "a = a" in str(err.value)
    np.testing.assert_array_equal(a.numpy(), host)  # unchanged


def test_inplace_int_into_bool_raises():
    a = kd.asarray([True, False])
    with pytest.raises(TypeError, match="same_kind"):
        a += 1


@pytest.mark.parametrize("dtype,other", [("int32", "int64"), ("float32", "float64"), ("uint8", "uint16"),
                                         ("float16", "int32"), ("int16", "bool")])
@pytest.mark.parametrize("op", ["__iadd__", "__imul__", "__isub__"])
def test_inplace_same_kind_casts_match_numpy(dtype, other, op):
    host = np.arange(1, 7, dtype=dtype).reshape(2, 3)
    rhs = np.array([1, 0, 3]).astype(other)
    want = getattr(host.copy(), op)(rhs)
    a = kd.asarray(host)
    got = getattr(a, op)(kd.asarray(rhs))
    assert got is a and a.dtype.name == dtype and a.shape == (2, 3)
    np.testing.assert_array_equal(a.numpy(), want)


def test_inplace_on_a_view_writes_through():
    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    a = kd.asarray(host)
    row = a[1]
    row += 10
    col = a.T[0]  # taken after the write: views of the old a keep old values (kdsl's value semantics, documented)
    col *= 2
    host[1] += 10
    host.T[0] *= 2
    np.testing.assert_array_equal(a.numpy(), host)


def test_inplace_matmul_keeps_shape():
    a = kd.ones((2, 3))
    with pytest.raises(ValueError, match="a @= b keeps"):
        a @= kd.ones((3, 4))
    a @= kd.eye(3) * 2
    assert a.tolist() == [[2.0] * 3] * 2


# ----- assignment

_OUT_OF_RANGE = [(2**40, OverflowError), (np.nan, ValueError), (np.inf, OverflowError), (-np.inf, OverflowError),
                 (1e20, OverflowError)]


@pytest.mark.parametrize("value,error,dtype", [(v, e, "int32") for v, e in _OUT_OF_RANGE] +
                         [(v, e, "uint8") for v, e in _OUT_OF_RANGE + [(-1, OverflowError), (256, OverflowError)]])
def test_setitem_scalar_out_of_range(value, error, dtype):
    host = np.zeros(3, dtype)
    with pytest.raises(error):
        host[0] = value
    a = kd.zeros(3, dtype=dtype)
    with pytest.raises(error):
        a[0] = value
    assert a.tolist() == [0, 0, 0]


def test_setitem_values_that_fit_match_numpy():
    host = np.zeros((2, 3), np.int32)
    a = kd.asarray(host)
    for key, value in [(0, 1.7), ((1, 2), -3.9), (slice(None), [[1], [2]]), ((0, slice(1, None)), [2**31 - 1, 5]),
                       (1, np.ones((1, 1, 3), np.float64) * 4.5), (Ellipsis, True)]:
        host[key] = value
        a[key] = value
        np.testing.assert_array_equal(a.numpy(), host)


def test_setitem_list_with_out_of_range_int_raises():
    a = kd.zeros(3, dtype=kd.int32)
    with pytest.raises(OverflowError, match="1099511627776"):
        a[:] = [1, 2, 2**40]


def test_setitem_shape_mismatch_names_both_shapes():
    a = kd.zeros(3)
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(2,3\) into shape \(3,\)"):
        a[:] = kd.ones((2, 3))


def _kernels_for(key) -> int:
    a = kd.asarray(np.zeros((3, 4), np.float32))
    before = kd.stats()["kernels"]
    a[key] += 1
    a.realize()
    return kd.stats()["kernels"] - before


@pytest.mark.parametrize("key", [1, (1, slice(1, 3)), (slice(None), 2)])
def test_inplace_on_an_item_writes_once(key):
    """``a[k] += v`` writes the view back in ``__iadd__`` and Python assigns ``a[k]`` again: no second copy."""
    a = kd.asarray(np.zeros((3, 4), np.float32))
    single = _kernels_for(key)
    a[key] = a[key] + 1
    before = kd.stats()["kernels"]
    a.realize()
    assert single == kd.stats()["kernels"] - before


@pytest.mark.parametrize("x,y", [(2**40, 0), (1, -2**35), (2**40, 0.5), (3, 4)])
def test_where_of_python_scalars_picks_numpys_dtype(x, y):
    cond = np.array([True, False, True])
    want = np.where(cond, x, y)
    got = kd.where(kd.asarray(cond), x, y)
    if want.dtype.kind == "f":  # kdsl's default float is float32
        assert got.dtype.name == "float32"
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-7)
    else:
        assert got.dtype.name == ("int32" if want.dtype == np.int64 and max(abs(x), abs(y)) < 2**31 else
                                  want.dtype.name)
        np.testing.assert_array_equal(got.numpy(), want)


def test_where_of_a_uint64_scalar_keeps_its_value():
    got = kd.where(kd.asarray([True, False, True]), 2**63, 1)  # NumPy 2.4 wraps 2**63 to -2**63 here
    assert got.dtype.name == "uint64" and got.tolist() == [2**63, 1, 2**63]


def test_inplace_matmul_on_a_view_writes_through():
    host = np.arange(8, dtype=np.float32).reshape(2, 2, 2)
    a = kd.asarray(host)
    m = np.array([[0, 1], [1, 0]], np.float32)
    block = a[1]
    block @= kd.asarray(m)
    host[1] = host[1] @ m
    np.testing.assert_array_equal(a.numpy(), host)
