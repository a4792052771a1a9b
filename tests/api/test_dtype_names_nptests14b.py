"""kdsl's dtypes name NumPy's scalar types: ``kd.float32.__name__`` is ``np.float32.__name__`` (NumPy's
test_numerictypes.py TestScalarTypeNames: ``getattr(np, t.__name__) is t``)."""

import numpy as np
import pytest

import kdsl as kd

NAMES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
         "float64", "complex64", "complex128"]


@pytest.mark.parametrize("name", NAMES)
def test_name_is_numpys_scalar_type_name(name):
    t = getattr(kd, name)
    assert t.__name__ == getattr(np, name).__name__ == t.type.__name__
    assert getattr(kd, t.__name__) is t and kd.dtype(t.__name__) is t


@pytest.mark.parametrize("name", NAMES)
def test_names_of_array_dtypes(name):
    for a in (kd.zeros((0,), dtype=name), kd.ones((3, 1), dtype=name).T, kd.ones((4,), dtype=name)[::2]):
        assert a.dtype.__name__ == a.numpy().dtype.type.__name__


def test_aliases_and_class_name():
    assert kd.bool_.__name__ == "bool" and kd.bool_ is kd.bool
    assert type(kd.float32).__name__ == "DType"  # the class keeps its own name
    assert len({getattr(kd, n).__name__ for n in NAMES}) == len(NAMES)
