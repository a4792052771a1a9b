"""kd.finfo / kd.iinfo against NumPy's: errors of the wrong kind, scalars and arrays as their dtype, repr, one
object per dtype (NumPy's test_getlimits.py)."""

import numpy as np
import pytest

import kdsl as kd

FLOATS = ["float16", "float32", "float64", "complex64", "complex128"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


@pytest.mark.parametrize("name", FLOATS)
def test_finfo_repr_str_and_identity_as_numpy(name):
    f = kd.finfo(getattr(kd, name))
    assert repr(f) == repr(np.finfo(name)) and str(f) == str(np.finfo(name))
    assert kd.finfo(name) is f and kd.finfo(np.dtype(name)) is f  # NumPy returns one object per dtype


@pytest.mark.parametrize("name", INTS)
def test_iinfo_repr_str_and_identity_as_numpy(name):
    i = kd.iinfo(getattr(kd, name))
    assert repr(i) == repr(np.iinfo(name)) and str(i) == str(np.iinfo(name))
    assert kd.iinfo(name) is i and kd.iinfo(getattr(np, name)) is i


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
@pytest.mark.parametrize("shape", [(0,), (1,), (3, 1), (4, 5)])
def test_finfo_of_arrays_and_scalars(name, shape):
    ref = np.finfo(name)
    a = kd.ones(shape, dtype=name)
    for x in (a, a.T, a[..., ::2], np.ones(shape, name), getattr(np, name)(1.5), getattr(np, name)(np.nan),
              getattr(np, name)(-np.inf)):
        f = kd.finfo(x)
        assert (f.bits, f.eps, f.max, f.min) == (ref.bits, float(ref.eps), float(ref.max), float(ref.min))


@pytest.mark.parametrize("name", INTS)
def test_iinfo_of_arrays_and_scalars(name):
    ref = np.iinfo(name)
    a = kd.zeros((3, 1), dtype=name)
    for x in (a, a[::2], kd.zeros((0,), dtype=name), np.zeros(2, name), getattr(np, name)(7)):
        i = kd.iinfo(x)
        assert (i.bits, i.min, i.max) == (ref.bits, ref.min, ref.max)


def test_python_scalars_give_kdsl_defaults():
    # a Python number stands for the dtype kd.asarray makes of it (kdsl's float32/int32 defaults)
    assert kd.iinfo(12) is kd.iinfo(int) is kd.iinfo(kd.asarray(12).dtype)
    assert kd.finfo(1.2) is kd.finfo(float) is kd.finfo(kd.asarray(1.2).dtype)
    assert kd.finfo(1j).dtype is kd.asarray(1j).dtype.real_dtype


def test_object_with_a_dtype_attribute():
    class WithDtype:  # gh-23867: unhashable, only a dtype attribute
        __hash__ = None
        dtype = np.dtype("float32")

    class WithKdslDtype:
        dtype = kd.int16

    assert kd.finfo(WithDtype()) is kd.finfo(kd.float32)
    assert kd.iinfo(WithKdslDtype()) is kd.iinfo(kd.int16)


@pytest.mark.parametrize("fn, arg", [
    ("finfo", "i4"), ("finfo", kd.int32), ("finfo", np.int64(1)), ("finfo", kd.arange(3)), ("finfo", bool),
    ("iinfo", "f4"), ("iinfo", 10.0), ("iinfo", kd.float32), ("iinfo", kd.ones(2)), ("iinfo", "hi"),
    ("iinfo", bool), ("iinfo", True), ("iinfo", object()), ("iinfo", kd.complex64),
])
def test_wrong_kind_is_numpys_value_error(fn, arg):
    np_arg = arg.numpy() if isinstance(arg, kd.Array) else (arg.np if isinstance(arg, kd.dtype) else arg)
    with pytest.raises(ValueError):
        getattr(np, fn)(np_arg)
    with pytest.raises(ValueError, match="info|dtype"):
        getattr(kd, fn)(arg)
    with pytest.raises(TypeError):  # kdsl's earlier error class still catches it
        getattr(kd, fn)(arg)
