"""``a.astype('>i2').tobytes()`` and ``a.view('>i4')`` (a dtype of the other byte order) against NumPy: kdsl
arrays are native, so these are refused with a TypeError naming the way to NumPy's bytes or values, and that
way gives exactly NumPy's result (never silently little-endian bytes)."""

import sys

import numpy as np
import pytest

import kdsl as kd

OTHER = ">" if sys.byteorder == "little" else "<"


@pytest.mark.parametrize("name", ["int16", "uint32", "float32", "int64", "float64"])
def test_astype_to_other_byte_order_names_the_byteswap_way(name):
    host = np.array([1, 2, -3, 250], dtype=np.int64)
    a = kd.asarray(host)
    spelled = OTHER + np.dtype(name).str[1:]
    with pytest.raises(TypeError, match=r"byte order.*byteswap\(\)\.tobytes\(\)"):
        a.astype(spelled)
    with pytest.raises(TypeError, match="byte order"):
        a.astype(np.dtype(spelled), copy=False, casting="unsafe")
    with pytest.raises(TypeError, match="byte order"):
        kd.astype(a, spelled)
    assert a.astype(name).byteswap().tobytes() == host.astype(spelled).tobytes()  # the way the message names


def test_view_as_other_byte_order_names_the_byteswap_way():
    host = np.array([1, 2, 65536], dtype=np.int32)
    a = kd.asarray(host)
    spelled = OTHER + "i4"
    with pytest.raises(TypeError, match=r"view.*byteswap\(\)"):
        a.view(spelled)
    np.testing.assert_array_equal(a.view("int32").byteswap().numpy(), host.view(spelled))


def test_native_and_one_byte_spellings_still_cast():
    host = np.array([1.5, -2.0, 30.0])
    a = kd.asarray(host)
    native = "<" if sys.byteorder == "little" else ">"
    for spelling in [native + "i4", "=f8", "|u1", np.dtype(">u1")]:
        assert a.astype(spelling).tobytes() == host.astype(spelling).tobytes()
    assert a.view(native + "u8").tobytes() == host.view(native + "u8").tobytes()
