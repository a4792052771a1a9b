"""kd.ma's ``compress_rows``/``compress_cols``/``compress_rowcols``/``compress_nd`` and ``mask_rows``/``mask_cols``/
``mask_rowcols`` against numpy.ma ("drop the rows with a missing value": an AttributeError in a port before)."""

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd


@pytest.mark.parametrize("kind", ["some", "none", "all", "nomask"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_compress_and_mask_rows_cols(kind, layout, dtype):
    n, k = pair((5, 4), dtype, kind, layout)
    for name in ["compress_rows", "compress_cols"]:
        got, want = getattr(kd.ma, name)(k), getattr(np.ma, name)(n)
        np.testing.assert_array_equal(got.numpy(), want)
        assert got.dtype == want.dtype
    for axis in [None, 0, 1, -1]:
        np.testing.assert_array_equal(kd.ma.compress_rowcols(k, axis).numpy(), np.ma.compress_rowcols(n, axis))
        assert_same(kd.ma.mask_rowcols(k, axis), np.ma.mask_rowcols(n, axis))
    assert_same(kd.ma.mask_rows(k), np.ma.mask_rows(n))
    assert_same(kd.ma.mask_cols(k), np.ma.mask_cols(n))


def test_compress_nd_and_2d_only():
    n = np.ma.masked_equal(np.arange(24).reshape(2, 3, 4), 5)
    k = kd.ma.masked_equal(kd.arange(24).reshape(2, 3, 4), 5)
    for axis in [None, 0, (1, 2), -1]:
        np.testing.assert_array_equal(kd.ma.compress_nd(k, axis).numpy(), np.ma.compress_nd(n, axis))
    for name in ["compress_rows", "compress_cols", "compress_rowcols", "mask_rowcols"]:
        with pytest.raises(NotImplementedError, match="2D arrays only"):
            getattr(kd.ma, name)(k)
