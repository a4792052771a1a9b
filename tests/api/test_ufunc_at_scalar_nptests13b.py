"""``ufunc.at`` of a 0-d array (``np.add.at(a, (), v)``: ``()`` or ``...`` selects its one element) and a
binary ufunc's ``.at`` without its values (NumPy's ValueError) (NumPy's test_ufunc.py: test_ufunc_at_0D,
test_ufunc_at_basic)."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8"])
@pytest.mark.parametrize("ufunc", ["add", "subtract", "multiply", "maximum", "minimum", "power", "bitwise_or"])
@pytest.mark.parametrize("key", [(), Ellipsis, (Ellipsis,)])
def test_binary_at_of_a_scalar(ufunc, dtype, key):
    if ufunc == "bitwise_or" and dtype.startswith("float"):  # no float bitwise_or: NumPy's TypeError, ours too
        with pytest.raises(TypeError, match="bitwise_or"):
            np.bitwise_or.at(np.array(3, dtype=dtype), key, 2)
        with pytest.raises(TypeError, match="bitwise_or"):
            kd.bitwise_or.at(kd.asarray(np.array(3, dtype=dtype)), key, 2)
        return
    want = np.array(3, dtype=dtype)
    getattr(np, ufunc).at(want, key, 2)
    got = kd.asarray(np.array(3, dtype=dtype))
    getattr(kd, ufunc).at(got, key, 2)
    assert got.shape == () and got.dtype == want.dtype
    assert got.item() == want.item()


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf, -0.0])
def test_special_values_into_a_scalar(value):
    for ufunc in ("add", "maximum", "fmax"):
        want = np.array(1.5, dtype=np.float32)
        getattr(np, ufunc).at(want, (), value)
        got = kd.asarray(np.array(1.5, dtype=np.float32))
        getattr(kd, ufunc).at(got, (), value)
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("ufunc", ["negative", "sqrt", "invert"])
def test_unary_at_of_a_scalar(ufunc):
    dtype = np.int16 if ufunc == "invert" else np.float64
    want = np.array(4, dtype=dtype)
    getattr(np, ufunc).at(want, ())
    got = kd.asarray(np.array(4, dtype=dtype))
    getattr(kd, ufunc).at(got, ())
    assert got.item() == want.item() and got.dtype == want.dtype


def test_scalar_view_writes_through_to_its_base():
    want = np.arange(6.0).reshape(2, 3)
    np.add.at(want[1, 2, ...], (), 10)
    base = kd.asarray(np.arange(6.0).reshape(2, 3))
    kd.add.at(base[1, 2, ...], (), 10)
    np.testing.assert_array_equal(base.numpy(), want)


@pytest.mark.parametrize("key, values, error", [
    (0, 1, IndexError), ([0], 1, IndexError), ((0,), 1, IndexError), ((), [1], ValueError),
    ((), np.ones(1), ValueError)])
def test_scalar_keys_and_values_numpy_refuses(key, values, error):
    with pytest.raises(error):
        np.add.at(np.array(1.0), key, values)
    with pytest.raises(error):
        kd.add.at(kd.asarray(np.array(1.0)), key, values)


@pytest.mark.parametrize("shape", [(0,), (1,), (2, 3)])
def test_binary_at_without_values(shape):
    for ufunc in ("add", "multiply", "power"):
        with pytest.raises(ValueError, match="second operand needed"):
            getattr(np, ufunc).at(np.ones(shape), ())
        with pytest.raises(ValueError, match="second operand needed"):
            getattr(kd, ufunc).at(kd.ones(shape), ())
