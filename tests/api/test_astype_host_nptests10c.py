"""``kd.astype`` takes NumPy arrays and NumPy scalars, as ``np.astype`` does (uploaded with their own dtype, then
cast); other host data (lists, Python numbers) is still a clear TypeError naming ``kd.asarray``."""

import numpy as np
import pytest

import kdsl as kd

PAIRS = [(np.int64, np.float64), (np.float64, np.int32), (np.float32, np.float16), (np.int8, np.uint8),
         (np.float64, np.bool_)]


@pytest.mark.parametrize("src, dst", PAIRS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(), (4,), (2, 3), (0,)])
def test_numpy_arrays(src, dst, shape):
    host = (np.arange(int(np.prod(shape))) * 1.7 - 2).astype(src).reshape(shape)
    got = kd.astype(host, dst)
    want = np.astype(host, dst)
    assert isinstance(got, kd.Array) and got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("src, dst", PAIRS, ids=lambda d: np.dtype(d).name)
def test_numpy_scalars(src, dst):
    value = src(3)
    got = kd.astype(value, dst)
    want = np.astype(value, dst)
    assert got.shape == () and got.dtype == np.dtype(dst)
    assert got.item() == want.item()


@pytest.mark.parametrize("value", [[1, 2], 1.5, 3])
def test_other_host_data_is_a_clear_type_error(value):
    with pytest.raises(TypeError, match="kd.asarray"):
        kd.astype(value, kd.float32)
