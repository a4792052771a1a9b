"""Host data that carries its own element type keeps it, as NumPy arrays do: ``array.array('d')``, a
``memoryview`` of typed data, and array-likes with ``__array__`` or ``__array_interface__`` (pandas, xarray,
h5py datasets); only Python numbers and lists take kdsl's float32/int32 defaults
(kdsl/frontend/array/host_dtypes.py)."""

import array

import numpy as np
import pytest

import kdsl as kd


class ArrayLike:
    """An object NumPy converts through ``__array__`` (as pandas' Series, h5py's Dataset)."""

    def __init__(self, a):
        self.a = a

    def __array__(self, dtype=None, copy=None):
        return self.a if dtype is None else self.a.astype(dtype)


class Interface:
    """An object NumPy converts through ``__array_interface__``."""

    def __init__(self, a):
        self.a = a
        self.__array_interface__ = a.__array_interface__


DTYPES = [np.float64, np.float32, np.int64, np.int32, np.int16, np.uint8, np.bool_, np.complex128]


def _sources(host):
    yield "array_like", ArrayLike(host)
    yield "interface", Interface(host)
    yield "memoryview", memoryview(host)
    code = {np.float64: "d", np.float32: "f", np.int64: "q", np.int32: "i", np.int16: "h", np.uint8: "B"}.get(
        host.dtype.type)
    if code and host.ndim == 1:
        yield "array.array", array.array(code, host.tolist())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5,), (2, 3), (0,), ()])
def test_typed_host_data_keeps_its_dtype(dtype, shape):
    host = (np.arange(int(np.prod(shape))) * 3 - 4).reshape(shape).astype(dtype) / (1 if dtype != np.float64 else 7)
    host = np.asarray(host.astype(dtype))  # (a 0-d result of `/` is a NumPy scalar)
    for name, src in _sources(host):
        got = kd.asarray(src)
        expected = np.asarray(src)
        assert got.dtype == expected.dtype, name
        np.testing.assert_array_equal(got.numpy(), expected, err_msg=name)


def test_python_data_keeps_kdsl_defaults():
    assert kd.asarray([1.5, 2.0]).dtype == kd.float32 and kd.asarray((1, 2)).dtype == kd.int32
    assert kd.asarray(1.5).dtype == kd.float32 and kd.asarray(bytearray(b"ab")).dtype == kd.uint8


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.float32])
def test_array_likes_as_operands(dtype):
    host = np.arange(1, 5).astype(dtype)
    w = ArrayLike(host)
    for got, expected in [(kd.log(w), np.log(host)), (kd.ones(4, dtype=dtype) + w, np.ones(4, dtype) + host),
                          (kd.maximum(w, 2), np.maximum(host, 2)), (kd.sum(w), np.sum(host)),
                          (kd.where(kd.asarray(host) > 2, w, 0), np.where(host > 2, host, 0))]:
        assert got.dtype == expected.dtype
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


def test_explicit_dtype_still_wins():
    assert kd.asarray(ArrayLike(np.arange(3.0)), dtype=kd.float32).dtype == kd.float32
    assert kd.asarray(array.array("d", [1.0]), dtype=kd.float16).dtype == kd.float16


def test_untyped_objects_still_refused():
    with pytest.raises(TypeError, match="unsupported operand"):
        kd.log(object())


def grid_class(xp):
    """A ported container whose ``__array__`` builds its array with the namespace it was written for: under
    kdsl, ``np.eye`` is ``kd.eye`` and ``__array__`` returns a kdsl array (NumPy's own check refuses that)."""

    class ScaledIdentity:
        def __init__(self, n, value):
            self.n, self.value = n, value

        def __array__(self, dtype=None, copy=None):
            return self.value * xp.eye(self.n, dtype=dtype)

    return ScaledIdentity


@pytest.mark.parametrize("n, value", [(3, 2.0), (1, -0.5), (0, 1.0), (4, 3)])
def test_array_method_returning_a_kdsl_array(n, value):
    results = []
    for xp in (np, kd):
        obj = grid_class(xp)(n, value)
        results.append([xp.asarray(obj), xp.asarray(obj, dtype=xp.float64), xp.sqrt(xp.abs(obj)),
                        obj + xp.ones((n, n)), xp.ones((n, n)) * obj, xp.array([obj, obj]).sum(axis=0),
                        xp.concatenate([obj, obj])])
    for got, want in zip(results[1], results[0], strict=True):
        assert isinstance(got, kd.Array) and got.shape == want.shape
        assert got.dtype.kind == want.dtype.kind
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    assert results[1][1].dtype == kd.float64


def test_array_method_errors_keep_numpys_words():
    class NotAnArray:
        def __array__(self, dtype=None, copy=None):
            return [1, 2]  # NumPy: "object __array__ method not producing an array"

    with pytest.raises(ValueError, match="cannot make an array from NotAnArray"):
        kd.asarray(NotAnArray())
