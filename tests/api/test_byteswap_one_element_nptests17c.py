"""``byteswap`` of a 0-d array or one element (numpy/_core/tests/test_regression.py's
test_byteswap_complex_scalar: ``z[0].byteswap()``): the bytes of the value (of each complex part) reversed, as
NumPy's. kdsl raised ValueError (the reversed one-element byte view could not be bit-cast back)."""

import numpy as np
import pytest

import kdsl as kd

DTYPES = ["int16", "uint32", "int64", "float16", "float32", "float64", "complex64", "complex128"]


def _bits(x):
    """The array's bytes in C order (a 0-d NumPy array cannot be viewed as bytes directly)."""
    return np.ascontiguousarray(np.asarray(x)).reshape(-1).view(np.uint8).tolist()


def _values(dtype):
    h = np.array([2.2 - 1.1j, np.nan, -np.inf, 0.0, 1e-3 + 7j]) if dtype.startswith("complex") else np.array(
        [2.25, np.nan, -np.inf, 0.0, 7.0])
    with np.errstate(invalid="ignore", over="ignore"):
        return h.astype(dtype) if not dtype.startswith(("int", "uint")) else np.array([1, 256, 0, 3, 258], dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_one_element_shapes(dtype):
    h = _values(dtype)
    a = kd.asarray(h)
    for key in [0, -1, (slice(1, 2),), (slice(None, None, -4),)]:
        assert _bits(a[key].byteswap()) == _bits(np.asarray(h[key]).byteswap()), key
    one = h[:1].reshape(1, 1, 1)
    assert _bits(kd.asarray(one).byteswap()) == _bits(one.byteswap())
    zero_d = np.asarray(h[2])
    assert _bits(kd.asarray(zero_d).byteswap()) == _bits(zero_d.byteswap())


@pytest.mark.parametrize("dtype", ["float32", "complex64", "int64"])
def test_parts_and_views(dtype):
    h = _values(dtype)
    a = kd.asarray(h)
    assert _bits(a[0].real.byteswap()) == _bits(np.asarray(h[0].real).byteswap())
    assert _bits(a[::-2].byteswap()) == _bits(h[::-2].byteswap())
    assert _bits(a[:0].byteswap()) == []
    assert _bits(a.byteswap().byteswap()) == _bits(h)


def test_inplace_one_element_view():
    h = np.array([1.0, 2.0])
    a = kd.asarray(h)
    a[1:].byteswap(inplace=True)
    h[1:].byteswap(inplace=True)
    assert _bits(a) == _bits(h)
