"""Errors of `searchsorted(side=)` and `meshgrid(indexing=)` carry NumPy's type and words (porting15b probes)."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("side", ["middle", "LEFT", "", "lefty"])
@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_searchsorted_side_message_is_numpys(side, dtype):
    a = np.arange(6, dtype=dtype)
    with pytest.raises(ValueError) as want:
        np.searchsorted(a, 3, side=side)
    with pytest.raises(ValueError) as got:
        kd.searchsorted(kd.asarray(a), 3, side=side)
    # NumPy words a value starting with l/L/r/R differently ("must be one of"); both start alike
    assert str(got.value).startswith("search side must be")
    if side[:1].lower() not in ("l", "r"):
        assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="search side must be 'left' or 'right'"):
        kd.asarray(a).searchsorted(kd.asarray(a[:2]), side=side)


@pytest.mark.parametrize("indexing", ["xyz", "ji", ""])
def test_meshgrid_indexing_message_starts_with_numpys(indexing):
    x, y = np.arange(3.0), np.arange(4)
    with pytest.raises(ValueError) as want:
        np.meshgrid(x, y, indexing=indexing)
    with pytest.raises(ValueError) as got:
        kd.meshgrid(kd.asarray(x), kd.asarray(y), indexing=indexing)
    assert str(got.value).startswith(str(want.value))
    assert repr(indexing) in str(got.value)


def test_valid_sides_and_indexings_still_work():
    a = np.array([1, 2, 2, 3])
    for side in ("left", "right"):
        assert kd.searchsorted(kd.asarray(a), kd.asarray([2, 5]), side=side).tolist() == \
            np.searchsorted(a, [2, 5], side=side).tolist()
    for indexing in ("xy", "ij"):
        got = kd.meshgrid(kd.asarray([1, 2, 3]), kd.asarray([4, 5]), indexing=indexing)
        want = np.meshgrid([1, 2, 3], [4, 5], indexing=indexing)
        assert [g.numpy().tolist() for g in got] == [w.tolist() for w in want]
