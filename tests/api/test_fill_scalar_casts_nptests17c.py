"""Scalars stored into integer arrays (``fill``, ``a[...] = v``, ``a[i] = v``) as NumPy 2 stores them: a Python
float is converted to a Python int and must fit (NumPy's OverflowError / ValueError otherwise); a NumPy float
scalar (``np.float64`` included, a subclass of ``float``) is checked the same way into a signed int array and
cast unsafely, as ``astype``, into an unsigned one; complex values stored into real arrays keep their real part
with NumPy's ComplexWarning."""

import warnings

import numpy as np
import pytest

import kdsl as kd

STORES = {
    "fill": lambda a, v: a.fill(v),
    "ellipsis": lambda a, v: a.__setitem__(Ellipsis, v),
    "item": lambda a, v: a.__setitem__((0,) * a.ndim, v),
    "strided": lambda a, v: a[..., ::2].fill(v),
}
SHAPES = [(5,), (2, 3), (1, 4), (0, 3)]


def _both(store, dtype, shape, value):
    """The array after the store, from NumPy and from kdsl, or the exception type each raised."""
    results = []
    for lib in (np, kd):
        a = lib.zeros(shape, dtype=getattr(lib, dtype))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's "invalid value in cast" for NaN
                STORES[store](a, value)
        except (OverflowError, ValueError, TypeError, IndexError) as e:
            results.append(type(e))
        else:
            results.append(np.asarray(a).tolist())
    return results


@pytest.mark.parametrize("store", STORES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(("dtype", "value"), [
    ("uint8", -1.5), ("uint8", 300.7), ("uint8", 255.9), ("uint8", -0.5), ("int8", 128.0), ("int8", -128.9),
    ("int32", 2.5e9), ("int16", float("nan")), ("int16", float("-inf")), ("uint16", 65535.5),
])
def test_python_floats_must_fit(store, shape, dtype, value):
    numpy_result, kdsl_result = _both(store, dtype, shape, value)
    assert kdsl_result == numpy_result


@pytest.mark.parametrize("store", STORES)
@pytest.mark.parametrize(("dtype", "value"), [
    ("uint8", np.float64(300.5)), ("uint8", np.float64(-1.5)), ("uint16", np.float32(-1.5)),
    ("uint8", np.int64(-1)), ("uint32", np.float64(np.inf)), ("uint8", np.float16(300)),
    ("float32", np.float64(0.1)), ("float16", np.float64(1e6)), ("int8", np.float64(-1.75)),
])
def test_numpy_scalars_cast_unsafely(store, dtype, value):
    numpy_result, kdsl_result = _both(store, dtype, (2, 3), value)
    assert isinstance(numpy_result, list)
    assert kdsl_result == numpy_result


@pytest.mark.parametrize("store", STORES)
@pytest.mark.parametrize(("dtype", "value"), [
    ("int8", np.float64(200.25)), ("int16", np.float64(-40000.5)), ("int8", np.float32(128.0)),
    ("int32", np.float64(np.nan)), ("int8", np.float16(-np.inf)), ("int64", np.float64(1e19)),
])
def test_numpy_float_scalars_into_signed_ints_must_fit(store, dtype, value):
    numpy_result, kdsl_result = _both(store, dtype, (2, 3), value)
    assert not isinstance(numpy_result, list)
    assert kdsl_result == numpy_result


@pytest.mark.parametrize("value", [np.complex128(3.5 + 2j), np.complex64(-1 - 1j)])
@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8"])
def test_complex_scalars_into_real_arrays_warn(value, dtype):
    a = kd.zeros((2, 2), dtype=getattr(kd, dtype))
    h = np.zeros((2, 2), dtype=dtype)
    with pytest.warns(np.exceptions.ComplexWarning):
        h[...] = value
    with pytest.warns(np.exceptions.ComplexWarning):
        a[...] = value
    np.testing.assert_array_equal(a.numpy(), h)


def test_complex_arrays_into_real_arrays_warn():
    values = np.array([1 + 2j, np.nan + 1j, -np.inf - 0j], np.complex64)
    a = kd.zeros(3, dtype=kd.float32)
    with pytest.warns(np.exceptions.ComplexWarning):
        a[...] = kd.asarray(values)
    np.testing.assert_array_equal(a.numpy(), values.real)
    b = kd.zeros(3, dtype=kd.bool)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # complex -> bool keeps both parts: no warning, as NumPy's
        b[...] = kd.asarray(values)
    assert b.tolist() == [True, True, True]
