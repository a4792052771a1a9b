"""``rng.permutation(mask.sum())`` (a 0-d count: kdsl's stand-in for NumPy's ``np.int64``) was an AxisError ("x must
be an integer or at least 1-dimensional"); NumPy permutes ``range(n)``."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("n", [0, 1, 2, 7, 40])
@pytest.mark.parametrize("dtype", [kd.int32, kd.int64, kd.uint8, kd.int16])
def test_permutation_of_zero_d_count(n, dtype):
    count = kd.count_nonzero(kd.arange(50) < n).astype(dtype)
    got = kd.random.default_rng(3).permutation(count).numpy()
    want = np.random.default_rng(3).permutation(np.int64(n))
    assert got.shape == want.shape and got.dtype.kind == want.dtype.kind
    np.testing.assert_array_equal(np.sort(got), np.sort(want))


@pytest.mark.parametrize("bad", [kd.array(2.5), kd.array(True)])
def test_zero_d_non_integer_refused(bad):
    with pytest.raises(np.exceptions.AxisError):
        np.random.default_rng(0).permutation(np.asarray(bad.numpy()))
    with pytest.raises(np.exceptions.AxisError):
        kd.random.default_rng(0).permutation(bad)


def test_negative_zero_d_count_refused():
    with pytest.raises(ValueError, match="negative"):
        kd.random.default_rng(0).permutation(kd.array(-2))


@pytest.mark.parametrize("x", [[3, 1, 2], [[1, 2], [3, 4], [5, 6]]])
def test_arrays_still_shuffled(x):
    got = kd.random.default_rng(1).permutation(kd.asarray(x)).numpy()
    np.testing.assert_array_equal(np.sort(got, axis=0), np.sort(np.asarray(x), axis=0))
