"""kdsl's dtypes hash as the NumPy dtypes they equal (NumPy's test_dtype.py assert_dtype_equal: equal dtypes
hash alike), so dicts and sets mix them."""

import numpy as np
import pytest

import kdsl as kd

NAMES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
         "float64", "complex64", "complex128"]


@pytest.mark.parametrize("name", NAMES)
def test_equal_dtypes_hash_alike(name):
    d, ref = getattr(kd, name), np.dtype(name)
    for other in (ref, ref.newbyteorder("=")):
        assert d == other and hash(d) == hash(other)
    assert {ref: name}[d] == name and {d: name}[ref] == name
    assert len({d, ref, kd.dtype(name)}) == 1


@pytest.mark.parametrize("name", NAMES)
def test_array_dtypes_as_keys(name):
    arrays = [kd.zeros((0,), dtype=name), kd.ones((3, 1), dtype=name).T, kd.ones((5,), dtype=name)[::2]]
    table = {np.dtype(name): "numpy"}
    assert all(table[a.dtype] == "numpy" for a in arrays)


def test_python_types_keep_kdsl_defaults():
    # kd.dtype(float) is float32 (kdsl's default), and hashes as float32, not as NumPy's float64
    assert hash(kd.dtype(float)) == hash(np.dtype("float32")) and kd.dtype(float) != np.dtype("float64")
    assert hash(kd.dtype(int)) == hash(np.dtype("int32"))
    assert len({getattr(kd, n) for n in NAMES}) == len(NAMES)
