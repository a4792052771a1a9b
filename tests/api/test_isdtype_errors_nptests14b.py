"""kd.isdtype's errors as np.isdtype's: the same class, and a message that starts with NumPy's (NumPy's
test_numerictypes.py TestIsDType.test_isdtype_invalid_args), kdsl's hint after it."""

import re

import numpy as np
import pytest

import kdsl as kd

BAD = [("int64", np.int64), (1, "numeric"), (None, "bool"), (np.int64, 1), (np.int64, int), (np.int64, (np.int8, 2.5)),
       (np.int64, "int64"), (np.float32, "bool "), (np.int8, ("real", "integral")), (kd.float32, "")]


@pytest.mark.parametrize("dtype, kind", BAD)
def test_errors_start_with_numpys(dtype, kind):
    with pytest.raises((TypeError, ValueError)) as ref:
        np.isdtype(dtype.np if isinstance(dtype, kd.dtype) else dtype, kind)
    with pytest.raises(type(ref.value)) as got:
        kd.isdtype(dtype, kind)
    numpy_text = str(ref.value).rstrip(".")
    assert str(got.value).startswith(numpy_text), (str(got.value), numpy_text)


@pytest.mark.parametrize("name", ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex64"])
def test_valid_calls_unchanged(name):
    d = getattr(kd, name)
    for kind in ("bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating",
                 "numeric"):
        assert kd.isdtype(d, kind) == np.isdtype(np.dtype(name), kind)
        assert kd.isdtype(kd.zeros((0,), dtype=name).dtype, (kind,)) == np.isdtype(np.dtype(name), (kind,))
    assert kd.isdtype(d, d) and kd.isdtype(getattr(np, name), d)
    assert re.fullmatch(r"\w+", d.__name__)
