"""kd.dtype of a class or an object carrying a ``dtype`` attribute, as np.dtype reads one (NumPy's test_dtype.py
TestFromDTypeAttribute): a kdsl dtype there works too (NumPy refuses it, so kdsl reads it itself)."""

import numpy as np
import pytest

import kdsl as kd

NAMES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64", "complex64", "complex128"]


def _carrier(d):
    return type("Carrier", (), {"dtype": d})


@pytest.mark.parametrize("name", NAMES)
def test_kdsl_dtype_attribute(name):
    cls = _carrier(getattr(kd, name))
    assert kd.dtype(cls) is getattr(kd, name) and kd.dtype(cls()) is getattr(kd, name)
    assert np.dtype(_carrier(np.dtype(name))) == np.dtype(name)  # NumPy's own rule, with its dtype


@pytest.mark.parametrize("name", NAMES)
def test_numpy_dtype_attribute_as_numpy(name):
    cls = _carrier(np.dtype(name))
    assert kd.dtype(cls) is getattr(kd, name) and kd.dtype(cls()) is getattr(kd, name)


@pytest.mark.parametrize("shape", [(0,), (1,), (2, 3)])
@pytest.mark.parametrize("name", ["int16", "float32", "float64", "complex64"])
def test_carrier_as_a_dtype_argument(name, shape):
    carrier = _carrier(getattr(kd, name))()
    a = kd.zeros(shape, dtype=carrier)
    ref = np.zeros(shape, dtype=name)
    assert a.dtype is getattr(kd, name) and a.shape == ref.shape
    b = kd.asarray(np.array([np.nan, np.inf, 1.5])[::2]).astype(carrier)
    np.testing.assert_array_equal(b.numpy(), np.array([np.nan, 1.5]).astype(name))


def test_recursive_and_array_attributes_still_refused():
    cls = type("Self", (), {})
    cls.dtype = cls
    with pytest.raises(ValueError):
        np.dtype(cls)
    with pytest.raises(ValueError):
        kd.dtype(cls)
    with pytest.raises((TypeError, ValueError)):  # an array is not a dtype (NumPy: TypeError)
        kd.dtype(kd.ones(3))
