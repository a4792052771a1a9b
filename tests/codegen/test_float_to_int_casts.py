"""Floats cast to integers give NumPy's results (x86's, where C leaves them undefined) on every device: a NaN,
an infinity or a value past int32 becomes int32's lowest value, so int8/int16/uint8/uint16 take its low bits
(0); narrow types wrap in-range values (uint8(300.0) is 44, uint8(-5.0) is 251). lavapipe's own conversion
saturated (uint8(nan) was 255) and NVIDIA's gives 0 for NaN: ``kd_f2i_f`` and its kin in
``kdsl/codegen/float_to_int.py``."""

import warnings

import numpy as np
import pytest

import kdsl as kd

VALUES = [np.nan, np.inf, -np.inf, -0.0, 0.5, -0.5, 300.0, -5.0, 70000.7, -70000.7, 3e9, -3e9, 2.0**31, 1e19, -1e19]
DEFINED_EVERYWHERE = ["int8", "uint8", "int16", "uint16", "int32", "int64"]


def _numpy_cast(values: np.ndarray, dtype: str) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # "invalid value encountered in cast"
        return values.astype(dtype)


@pytest.mark.parametrize("src", ["float16", "float32", "float64"])
@pytest.mark.parametrize("dst", DEFINED_EVERYWHERE)
def test_special_and_out_of_range_floats(src, dst):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # float16 overflows on the host side
        host = np.array(VALUES, dtype=src)
    got = kd.asarray(host).astype(dst)
    np.testing.assert_array_equal(np.asarray(got), _numpy_cast(host, dst))


@pytest.mark.parametrize("dst", ["uint32", "uint64"])
def test_wide_unsigned_keep_their_range_and_wrap_small_negatives(dst):
    """NumPy's results past these ranges differ between its SIMD and scalar loops, so only defined values are
    compared; NaN gives the top bit, as x86's conversion (and NumPy's scalar loop) does."""
    top = 2 ** (np.iinfo(dst).bits - 1)
    host = np.array([0.0, 7.9, -5.0, -0.5, float(top), float(top) + 2.0**20, np.nan], np.float64)
    got = np.asarray(kd.asarray(host).astype(dst))
    np.testing.assert_array_equal(got[:-1], _numpy_cast(host[:-1], dst))
    assert int(got[-1]) == top


def test_in_a_fused_expression():
    """The cast inside a longer kernel (pad's mean of an empty window is NaN, cast back to uint8)."""
    a = kd.asarray(np.arange(15, dtype=np.uint8).reshape(3, 5))
    got = kd.pad(a, ((1, 2), (3, 1)), mode="mean", stat_length=((2, 1), (9, 0)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's mean of an empty slice
        expected = np.pad(np.arange(15, dtype=np.uint8).reshape(3, 5), ((1, 2), (3, 1)), mode="mean",
                          stat_length=((2, 1), (9, 0)))
    np.testing.assert_array_equal(np.asarray(got), expected)
