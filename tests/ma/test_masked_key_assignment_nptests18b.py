"""``x[key] = value`` with a masked-array key, as numpy.ma's (numpy/ma/tests/test_old_ma.py's
``test_assignment_by_condition``).

numpy.ma indexes with the key's data; when the value is not a masked array it writes only the data and leaves
the mask as it was, so ``a[a >= 3] = 5`` keeps ``a``'s masked entries masked. kd.ma unmasked every entry it
wrote (``a[2]`` became 5, unmasked). A masked-array value still sets the mask from its own.
"""

import numpy as np
import pytest

import kdsl as kd
import kdsl.ma as km


def _same(got, want):
    np.testing.assert_array_equal(np.asarray(got.data), want.data)
    np.testing.assert_array_equal(np.asarray(km.getmaskarray(got)), np.ma.getmaskarray(want))
    assert np.asarray(got.data).dtype == want.data.dtype


def _both(data, mask, act, dtype=np.int32):
    """``act(module, x)`` on numpy.ma's array and on kd.ma's, compared."""
    want = np.ma.array(np.asarray(data, dtype), mask=mask)
    got = km.array(kd.asarray(np.asarray(data, dtype)), mask=mask)
    act(np.ma, want)
    act(km, got)
    _same(got, want)


def _set(x, key, value):
    x[key] = value


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.uint8])
def test_condition_keeps_masked_entries(dtype):
    _both([1, 2, 3, 4], [1, 0, 1, 0], lambda M, a: _set(a, a >= 3, 5), dtype)
    _both([1, 2, 3, 4], [0, 0, 0, 0], lambda M, a: _set(a, a >= 3, 5), dtype)
    _both([1, 2, 3, 4], [1, 1, 1, 1], lambda M, a: _set(a, a > 0, 7), dtype)


def test_masked_key_with_a_masked_value_sets_the_mask():
    key = ([True, True, True, False], [0, 1, 0, 0])
    _both([1, 2, 3, 4], [1, 0, 1, 0],
          lambda M, a: _set(a, M.array(key[0], mask=key[1]), M.array([7, 8, 9], mask=[0, 0, 1])[[0, 1, 2]]))
    _both([1, 2, 3, 4], [1, 0, 1, 0], lambda M, a: _set(a, M.array(key[0], mask=key[1]), M.masked))


def test_key_masks_and_plain_keys():
    _both([1, 2, 3, 4], [1, 0, 1, 0], lambda M, a: _set(a, M.array([0, 2], mask=[0, 1]), 6))  # integer key
    _both([1, 2, 3, 4], [1, 0, 1, 0], lambda M, a: _set(a, np.array([True, False, True, False]), 6))  # unmasks
    _both([1, 2, 3, 4], None, lambda M, a: _set(a, M.array([True, False, True, False], mask=[0, 1, 0, 0]), 6))


def test_two_dimensional_and_views():
    data = np.arange(12).reshape(3, 4)
    mask = data % 5 == 0
    _both(data, mask, lambda M, a: _set(a, a > 4, -1))
    _both(data, mask, lambda M, a: _set(a, (a % 2 == 0), 0.0), dtype=np.float64)
    _both(data[:, ::-1].T, mask[:, ::-1].T, lambda M, a: _set(a, a < 6, 100))


def test_empty_and_size_one():
    _both(np.zeros(0), np.zeros(0, bool), lambda M, a: _set(a, a > 0, 1))
    _both([3], [1], lambda M, a: _set(a, a > 1, 9))
    _both([[3]], [[0]], lambda M, a: _set(a, a > 1, 9))


def test_nan_and_inf_data():
    data = [np.nan, np.inf, -np.inf, 1.0, 2.0]
    _both(data, [0, 1, 0, 1, 0], lambda M, a: _set(a, a > 0, 0.5), dtype=np.float64)
    _both(data, [0, 1, 0, 1, 0], lambda M, a: _set(a, M.masked_invalid(a) < 5, -2.0), dtype=np.float32)
