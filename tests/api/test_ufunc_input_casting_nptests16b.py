"""A ufunc call without ``dtype=`` checks its inputs against the loop NumPy resolves, under ``casting``:
``kd.add(int32, float32, casting='no')`` raises as NumPy's (its loop is float64; kdsl computed float64 silently),
Python scalars stay weak (``kd.add(f4, 2.5, casting='no')`` is float32) (NumPy's test_numeric.py TestClip and
test_ufunc.py casting checks)."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd


def _outcome(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except TypeError:
        return TypeError


_PAIRS = [("int32", "float32"), ("int32", "int64"), ("float32", "float32"), ("int8", "uint8"), ("float64", "int64"),
          ("uint64", "int64"), ("complex64", "float64"), ("bool", "int16")]


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("left, right", _PAIRS)
@pytest.mark.parametrize("name", ["add", "less", "maximum"])
def test_binary_inputs_under_casting(name, left, right, casting):
    x = np.array([[1, 0, 2]], dtype=left)
    y = np.array([[3], [1]], dtype=right)  # broadcast: a size-1 axis each
    got = _outcome(getattr(kd, name), kd.asarray(x), kd.asarray(y)[::-1][::-1], casting=casting)
    want = _outcome(getattr(np, name), x, y, casting=casting)
    if want is TypeError:
        assert got is TypeError
    else:
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("casting", ["no", "safe"])  # (NumPy 2.4's 'equiv' refuses weak scalars, 'no' does not)
@pytest.mark.parametrize("dtype, scalar", [("float32", 2.5), ("float64", 2.5), ("int16", 3), ("float64", np.nan),
                                           ("float32", np.inf), ("uint8", True), ("bool", False)])
def test_python_scalars_stay_weak(dtype, scalar, casting):
    x = np.array([1, 2, 0], dtype=dtype)
    want = _outcome(np.multiply, x, scalar, casting=casting)
    got = _outcome(kd.multiply, kd.asarray(x), scalar, casting=casting)
    if want is TypeError:
        assert got is TypeError
    else:
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("casting", ["no", "safe"])
@pytest.mark.parametrize("name, dtype", [("sqrt", "int32"), ("sqrt", "float32"), ("isnan", "float16"),
                                         ("negative", "uint8"), ("exp", "int8")])
def test_unary_and_empty_inputs(name, dtype, casting):
    for x in (np.array([1, 4], dtype=dtype), np.zeros((0, 2), dtype=dtype)):
        want = _outcome(getattr(np, name), x, casting=casting)
        got = _outcome(getattr(kd, name), kd.asarray(x), casting=casting)
        if want is TypeError:
            assert got is TypeError
        else:
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_mixed_loops_and_through_numpy():
    f, i = np.ones(3, np.float32), np.arange(3, dtype=np.int32)
    got = kd.ldexp(kd.asarray(f), kd.asarray(i), casting="no")  # ldexp's loop (f4, i4): no cast needed
    np.testing.assert_array_equal(got.numpy(), np.ldexp(f, i, casting="no"))
    with pytest.raises(TypeError):
        np.add(kd.asarray(i), kd.asarray(f), casting="equiv")  # through __array_ufunc__
    with pytest.raises(TypeError):
        kd.add(kd.asarray(i), [1.5, 2.5, 0.5], casting="no")  # a list is float64 to NumPy
