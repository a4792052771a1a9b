"""kd.promote_types refuses None as np.promote_types does (TypeError; np.dtype(None) alone is float64, which
kdsl used to read), and answers as NumPy for every pair of kdsl's dtypes (NumPy's test_numeric.py TestTypes)."""

import itertools

import numpy as np
import pytest

import kdsl as kd

NAMES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
         "float64", "complex64", "complex128"]


@pytest.mark.parametrize("args", [("i4", None), (None, "i2"), (None, None), (kd.float32, None)])
def test_none_is_a_type_error(args):
    np_args = tuple(a.np if isinstance(a, kd.dtype) else a for a in args)
    with pytest.raises(TypeError):
        np.promote_types(*np_args)
    with pytest.raises(TypeError, match="did not understand one of the types"):
        kd.promote_types(*args)


def test_every_pair_as_numpy():
    bad = [(a, b) for a, b in itertools.product(NAMES, repeat=2)
           if kd.promote_types(getattr(kd, a), b).name != np.promote_types(a, b).name]
    assert bad == []


@pytest.mark.parametrize("shape", [(0,), (1,), (2, 3)])
def test_array_dtypes(shape):
    a, b = kd.zeros(shape, dtype="uint16")[..., ::2], kd.full(shape, np.nan, dtype="float16")
    assert kd.promote_types(a.dtype, b.dtype) is kd.float32 == np.promote_types("u2", "f2")
