"""A ufunc's ``dtype=`` names NumPy's loop: no such loop raises TypeError, and Python scalar operands are cast
into it (under ``casting``) as NumPy's are (NumPy's test_ufunc.py: test_true_divide, test_cast_safety_scalar)."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd

NO_LOOP = "No loop matching the specified signature"


def _raises_like_numpy(call):
    """kdsl raises what NumPy raises (a TypeError subclass for each), with NumPy's message first."""
    with pytest.raises(TypeError) as want:
        call(np)
    with pytest.raises(TypeError) as got:
        call(kd)
    assert str(got.value).startswith(str(want.value).split(";")[0])


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "int64"])
@pytest.mark.parametrize("shape", [(0,), (1,), (3, 2)])
def test_divide_and_sqrt_have_no_integer_loop(dtype, shape):
    a = np.arange(1, 1 + int(np.prod(shape)), dtype=dtype).reshape(shape)
    _raises_like_numpy(lambda m: m.true_divide(m.asarray(a), m.asarray(a), dtype=dtype))
    _raises_like_numpy(lambda m: m.divide(m.asarray(a), 2, dtype=dtype, casting="unsafe"))
    _raises_like_numpy(lambda m: m.sqrt(m.asarray(a), dtype=dtype))
    _raises_like_numpy(lambda m: m.exp(m.asarray(a), signature=(dtype, dtype)))


@pytest.mark.parametrize("ufunc", ["equal", "less", "logical_and"])
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_comparison_dtype_other_than_bool_has_no_loop(ufunc, dtype):
    a = np.array([1.0, np.nan, np.inf, -0.0])
    _raises_like_numpy(lambda m: getattr(m, ufunc)(m.asarray(a), m.asarray(a), dtype=dtype))
    got = getattr(kd, ufunc)(kd.asarray(a), kd.asarray(a[::-1]), dtype=bool)
    np.testing.assert_array_equal(got.numpy(), getattr(np, ufunc)(a, a[::-1], dtype=bool))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int64", "float16", "float32", "float64"])
@pytest.mark.parametrize("ufunc", ["add", "multiply", "maximum"])
def test_python_scalars_compute_in_dtype(ufunc, dtype):
    want = getattr(np, ufunc)(3, 4, dtype=dtype)
    got = getattr(kd, ufunc)(3, 4, dtype=dtype)
    assert got.dtype == want.dtype
    assert got.item() == want.item()


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16"])
def test_python_float_scalars_unsafe_truncate(dtype):
    want = np.add(3.5, 4.75, dtype=dtype, casting="unsafe")
    got = kd.add(3.5, 4.75, dtype=dtype, casting="unsafe")
    assert got.dtype == want.dtype and got.item() == want.item()


@pytest.mark.parametrize("casting", ["same_kind", "safe"])
def test_python_float_to_int_loop_refused(casting):
    _raises_like_numpy(lambda m: m.add(3.0, 4.0, dtype=int, casting=casting))
    a = np.arange(6, dtype=np.int8).reshape(2, 3)[:, ::2]  # a non-contiguous view
    _raises_like_numpy(lambda m: m.add(m.asarray(a), 3.5, dtype=np.int16, casting=casting))
    _raises_like_numpy(lambda m: m.multiply(m.asarray(a), 1j, dtype=np.float32, casting=casting))


def test_python_scalars_under_equiv():
    _raises_like_numpy(lambda m: m.add(3.0, 4.0, dtype="float32", casting="equiv"))
    _raises_like_numpy(lambda m: m.add(3, 4, dtype="int8", casting="equiv"))
    got, want = kd.add(3, 4, dtype="int64", casting="equiv"), np.add(3, 4, dtype="int64", casting="equiv")
    assert got.dtype == want.dtype and got.item() == want.item()


def test_python_int_out_of_range_for_the_loop():
    a = np.arange(3, dtype=np.int8)
    with pytest.raises(OverflowError):
        np.add(a, 300, dtype=np.int8)
    with pytest.raises(OverflowError):
        kd.add(kd.asarray(a), 300, dtype=np.int8)


@pytest.mark.parametrize("shape", [(0,), (1, 1), (4,)])
def test_array_with_scalar_in_a_wider_loop(shape):
    a = np.full(shape, 100, dtype=np.int8)
    want = np.add(a, 100, dtype=np.int16)
    got = kd.add(kd.asarray(a), 100, dtype=np.int16)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)
    x = np.array([np.nan, np.inf, -np.inf, 1.5], dtype=np.float32)[::-1]
    np.testing.assert_array_equal(kd.add(kd.asarray(x), 0.25, dtype=np.float64).numpy(),
                                  np.add(x, 0.25, dtype=np.float64))
