"""kd.ma.take / MaskedArray.take with masked indices, as numpy.ma's: a masked index picks entry 0 (NumPy fills
masked indices with 0, so an out-of-range one under the mask is no error) and masks what it picks. kd.ma passed
the masked indices' data on (IndexError for an out-of-range masked index, unmasked picks)."""

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd

A = np.array([40, 18, 37, 9, 22], np.int32)
IND = np.arange(3)[None, :] + np.arange(5)[:, None]


def _masked_indices(ind, mask):
    return np.ma.array(ind, mask=mask), kd.ma.array(kd.asarray(ind.astype(np.int64)), mask=kd.asarray(mask))


@pytest.mark.parametrize("data_mask", [None, [0, 1, 0, 0, 0], [1, 1, 1, 1, 1]])
@pytest.mark.parametrize("as_method", [False, True])
def test_out_of_range_masked_indices(data_mask, as_method):
    ni, ki = _masked_indices(IND, IND >= len(A))
    n = np.ma.array(A, mask=np.ma.nomask if data_mask is None else data_mask)
    k = kd.ma.array(kd.asarray(A), mask=kd.ma.nomask if data_mask is None else data_mask)
    got = k.take(ki) if as_method else kd.ma.take(k, ki)
    assert_same(got, n.take(ni) if as_method else np.ma.take(n, ni))


def test_plain_data_masked_indices_and_clip():
    ni, ki = _masked_indices(IND, IND >= len(A))
    assert_same(kd.ma.take(kd.asarray(A), ki), np.ma.take(A, ni))
    assert_same(kd.ma.take(kd.asarray(A), ki, mode="clip"), np.ma.take(A, ni, mode="clip"))


@pytest.mark.parametrize("case", [((3, 4), np.float32, "some", "contiguous"), ((4, 3), np.float64, "nomask",
                                                                                 "transposed"),
                                  ((5, 6), np.int32, "all", "strided"), ((2, 0), np.float32, "some", "contiguous")])
def test_last_axis_and_views(case):
    n, k = pair(*case)
    size = n.shape[-1]
    ind = np.array([[0, size + 3], [size - 1, 1]]) if size else np.array([[0, 5]])
    mask = ind >= max(size, 1) if size else np.array([[True, True]])
    ni, ki = _masked_indices(ind % max(size, 1) if size else ind, mask)
    if size == 0:
        return  # nothing to pick: NumPy's take of an empty axis raises for any index
    assert_same(kd.ma.take(k, ki, axis=-1), np.ma.take(n, ni, axis=-1))
    assert_same(kd.ma.take(k, ki, axis=1), np.ma.take(n, ni, axis=1))


def test_other_axes_mask_what_each_index_picks():
    # NumPy's own np.ma.take fails to broadcast its index mask here; the rule is the same: a masked index masks
    # the slice it picks
    data = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    mask = data % 5 == 0
    k = kd.ma.array(kd.asarray(data), mask=kd.asarray(mask))
    ni, ki = _masked_indices(np.array([1, 0, 7]), np.array([False, False, True]))
    for axis in (0, 1):
        got = kd.ma.take(k, ki, axis=axis)
        picked = np.take(data, ni.filled(0), axis=axis)
        shape = [1] * 3
        shape[axis] = 3
        want = np.ma.array(picked, mask=np.take(mask, ni.filled(0), axis=axis) | ni.mask.reshape(shape))
        assert_same(got, want)


def test_nan_inf_data():
    data = np.array([np.nan, np.inf, -np.inf, 1.0])
    n, k = np.ma.array(data, mask=[0, 0, 1, 0]), kd.ma.array(kd.asarray(data), mask=[0, 0, 1, 0])
    ni, ki = _masked_indices(np.array([0, 1, 2, 9]), np.array([0, 0, 0, 1], bool))
    assert_same(kd.ma.take(k, ki), np.ma.take(n, ni))
