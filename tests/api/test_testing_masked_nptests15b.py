"""kd.testing's assertions on kd.ma arrays compare as NumPy's do on np.ma arrays: masked entries are skipped
(numpy/lib/tests/test_shape_base.py's test_kron_ma compares through them); kdsl compared the data under the mask."""

import numpy as np
import pytest

import kdsl as kd

CHECKS = ["assert_array_equal", "assert_equal", "assert_allclose", "assert_array_almost_equal",
          "assert_almost_equal", "assert_array_less"]
CASES = [  # (data, mask, other): equal to ``other`` where unmasked, different under the mask
    ([1.0, 2.0, 3.0], [0, 1, 0], [1.0, 99.0, 3.0]),
    ([[1, 2], [3, 4]], [[0, 1], [1, 0]], [[1, -7], [8, 4]]),
    ([np.nan, np.inf, 0.5], [0, 0, 1], [np.nan, np.inf, -1.0]),
    (np.zeros((0, 3), np.float32), np.zeros((0, 3), bool), np.zeros((0, 3), np.float32)),
    ([5.0], [1], [0.0]),
]


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("i", range(len(CASES)))
def test_masked_entries_are_skipped_as_numpys(check, i):
    data, mask, other = CASES[i]
    if check == "assert_array_less":
        other = np.asarray(other, dtype=float) + 1  # strictly greater where unmasked
    np_fn, kd_fn = getattr(np.testing, check), getattr(kd.testing, check)
    masked = kd.ma.array(kd.asarray(np.asarray(data)), mask=np.asarray(mask, bool))
    try:
        np_fn(np.ma.array(data, mask=mask), other)
    except AssertionError:
        with pytest.raises(AssertionError):
            kd_fn(masked, other)
    else:
        kd_fn(masked, other)


def test_unmasked_differences_still_fail():
    masked = kd.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    with pytest.raises(AssertionError):
        kd.testing.assert_array_equal(masked, [1.0, 2.0, 4.0])
    with pytest.raises(AssertionError):
        kd.testing.assert_allclose([masked, masked.T], [[1.0, 0.0, 3.0], [1.0, 0.0, 3.5]])


def test_kron_of_masked_arrays_as_numpys_test():
    x = kd.ma.array([[1, 2], [3, 4]], mask=[[0, 1], [1, 0]])
    k = kd.ma.array(np.diag([1, 4, 4, 16]), mask=~np.identity(4, dtype=bool))
    kd.testing.assert_array_equal(k, kd.kron(x, x))
