"""kd.mgrid / kd.ogrid of one slice (not a tuple) as NumPy's (numpy/lib/tests/test_index_tricks.py's
test_accepts_npfloating, test_nd): NumPy computes np.arange(start, stop, step), whose dtype NumPy scalars do not
set (int64 or float64); a tuple of slices and a complex step keep NumPy's result_type. kdsl gave np.float32
bounds a float32 grid, np.int8 ones an int8 grid."""

import numpy as np
import pytest

import kdsl as kd

SLICES = [
    slice(np.int8(0), np.int8(5)), slice(np.uint8(1), np.uint8(9), np.uint8(3)), slice(np.int32(-3), 4),
    slice(np.float16(0), np.float16(1), np.float16(0.25)), slice(np.float32(0.1), np.float32(0.33), np.float32(0.1)),
    slice(0, 5, np.float32(1)), slice(0.5, 3), slice(5), slice(-2, 3, 0.5), slice(3, 0), slice(0, 1, np.float32(2)),
    slice(np.float32(0), 1, 5j), slice(np.float32(0), np.float32(1), np.complex64(3j)), slice(0, 1, 1j),
]


@pytest.mark.parametrize("grid", ["mgrid", "ogrid"])
@pytest.mark.parametrize("s", SLICES, ids=repr)
def test_one_slice(grid, s):
    expected, got = getattr(np, grid)[s], getattr(kd, grid)[s]
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("s", [s for s in SLICES if s != slice(3, 0)], ids=repr)  # NumPy: negative dimensions
def test_a_tuple_of_one_slice_keeps_result_type(s):
    expected, got = np.mgrid[s, ], kd.mgrid[s, ]
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)
