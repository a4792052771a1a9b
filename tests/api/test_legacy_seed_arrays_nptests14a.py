"""RandomState / kd.random.seed with array seeds: NumPy's error types for an empty seed (ValueError; kdsl
accepted it) and float or complex words (TypeError; kdsl raised ValueError). Valid 1-d int seeds still replay
the same stream (kdsl's own, not NumPy's Mersenne Twister)."""

import numpy as np
import pytest

import kdsl as kd


def _error(call):
    try:
        call()
    except (ValueError, TypeError) as e:
        return type(e)
    return None


@pytest.mark.parametrize("seed", [
    [], np.array([], dtype=np.int64), np.zeros((0, 2), dtype=np.int64), [-0.5], np.array([1.0, 2.0]),
    np.array([1 + 0j]), -0.5, 1.0, [[1, 2]], np.array([[1, 2], [3, 4]]), [1, -2], np.array([3, 1, 4])[::2],
    [0], np.array([7], dtype=np.uint8),
])
def test_seed_errors_as_numpy(seed):
    want = _error(lambda: np.random.RandomState(seed))
    assert _error(lambda: kd.random.RandomState(seed)) is want
    assert _error(lambda: kd.random.seed(seed)) is want


@pytest.mark.parametrize("seed", [[1, 2, 3], np.array([5], dtype=np.uint32), np.array([9, 8, 7, 6])[::-2]])
def test_same_array_seed_same_stream(seed):
    a = kd.random.RandomState(seed).random_sample((2, 3)).numpy()
    b = kd.random.RandomState(seed).random_sample((2, 3)).numpy()
    np.testing.assert_array_equal(a, b)
    kd.random.seed(seed)
    c = kd.random.random_sample((2, 3)).numpy()
    np.testing.assert_array_equal(a, c)
