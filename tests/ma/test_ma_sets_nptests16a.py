"""kd.ma's set functions against numpy.ma's (numpy/ma/tests/test_extras.py's TestArraySetOps): unique (index,
inverse), intersect1d, union1d, setdiff1d, setxor1d, in1d, isin; masked entries count as one element (kd.ma had
none of them)."""

import numpy as np
import pytest
from ma_testing import assert_same

import kdsl as kd

CASES = {
    "ints": (np.ma.array([5, 7, 1, 2, 1, 5, 7, 5], mask=[0, 0, 0, 0, 0, 0, 1, 1]),
             np.ma.array([2, 4, 3, 3, 2, 1, 5, 5], mask=[0, 0, 0, 0, 0, 1, 0, 1])),
    "one masked": (np.ma.array([5.0, 7.0, 1.0, 2.0, np.nan], mask=[0, 1, 0, 0, 0]),
                   np.ma.array([2.0, 7.0, np.inf, np.nan])),
    "other masked": (np.ma.array([5, 7, 1, 2], dtype=np.int32),
                     np.ma.array([2, 4, 3, 8], mask=[0, 0, 1, 0], dtype=np.int32)),
    "2-d": (np.ma.array([[1.0, 2.0, 2.0], [3.0, 1.0, 9.0]], mask=[[0, 1, 0], [1, 0, 0]]),
            np.ma.array([[1.0, 0.5], [9.0, 9.0]], mask=[[0, 0], [1, 0]])),
    "all masked": (np.ma.array([1, 2], mask=[1, 1]), np.ma.array([1, 3], mask=[0, 1])),
    "empty": (np.ma.array(np.zeros(0, np.float32)), np.ma.array([1.0, 2.0], mask=[0, 1], dtype=np.float32)),
    "no masks": (np.ma.array([3, 1, 3, 0]), np.ma.array([0, 3, 4])),
}


def as_kd(a):
    return kd.ma.array(a)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("name", ["intersect1d", "union1d", "setdiff1d", "setxor1d"])
def test_two_set_functions(case, name):
    a, b = CASES[case]
    assert_same(getattr(kd.ma, name)(as_kd(a), as_kd(b)), getattr(np.ma, name)(a, b), check_dtype=False)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("side", [0, 1])
def test_unique(case, side):
    a = CASES[case][side]
    got, index, inverse = kd.ma.unique(as_kd(a), return_index=True, return_inverse=True)
    want, windex, winverse = np.ma.unique(a, return_index=True, return_inverse=True)
    assert_same(got, want)
    np.testing.assert_array_equal(index.numpy(), windex)
    np.testing.assert_array_equal(inverse.numpy(), winverse)
    assert_same(kd.ma.unique(as_kd(a)), np.ma.unique(a))


def numpy_membership(a, b, invert):
    """numpy.ma's in1d, with the mask kept only on masked entries: NumPy also masks an unmasked entry that sorts
    next to a masked one (its comparison with it), which kd.ma does not."""
    want = np.ma.isin(a, b, invert=invert)
    return np.ma.array(want.data, mask=np.ma.getmaskarray(want) & np.ma.getmaskarray(a))


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("invert", [False, True])
def test_isin_and_in1d(case, invert):
    a, b = CASES[case]
    want = numpy_membership(a, b, invert)
    assert_same(kd.ma.isin(as_kd(a), as_kd(b), invert=invert), want)
    assert_same(kd.ma.in1d(as_kd(a), as_kd(b), invert=invert), want.ravel())
    assert_same(kd.ma.isin(as_kd(a), b.compressed(), invert=invert), numpy_membership(a, b.compressed(), invert))


def test_views_and_plain_arrays():
    a = np.ma.array(np.arange(12).reshape(3, 4) % 5, mask=np.arange(12).reshape(3, 4) % 7 == 0)
    ka = kd.ma.array(a)
    assert_same(kd.ma.unique(ka.T), np.ma.unique(a.T))
    assert_same(kd.ma.unique(ka[::2, ::-1]), np.ma.unique(a[::2, ::-1]))
    assert_same(kd.ma.union1d(ka[:, 1], kd.asarray([7, 1])), np.ma.union1d(a[:, 1], np.array([7, 1])))
    assert_same(kd.ma.intersect1d(kd.asarray([4, 0, 3]), ka[1:]), np.ma.intersect1d(np.array([4, 0, 3]), a[1:]))


def test_assume_unique():
    a = np.ma.array([4, 1, 3, 9], mask=[0, 0, 1, 0])
    b = np.ma.array([9, 2, 4])
    got = kd.ma.setdiff1d(as_kd(a), as_kd(b), assume_unique=True)  # ar1's order kept, its masked entry too
    assert_same(got, np.ma.setdiff1d(a, b, assume_unique=True))
    assert_same(kd.ma.intersect1d(as_kd(a), as_kd(b), assume_unique=True),
                np.ma.intersect1d(a, b, assume_unique=True))


def test_setdiff_assume_unique_with_nans():
    a = np.ma.array([4.0, np.nan, 3.0, 9.0], mask=[0, 0, 1, 0])
    for b in (np.ma.array([9.0, np.nan]), np.ma.array([9.0, 1.0], mask=[0, 1])):
        assert_same(kd.ma.setdiff1d(as_kd(a), as_kd(b), assume_unique=True), np.ma.setdiff1d(a, b, assume_unique=True))


@pytest.mark.parametrize("name", ["isin", "intersect1d", "union1d", "setdiff1d", "setxor1d", "cov", "corrcoef"])
def test_numpys_namesakes_do_not_run_kd_ma(name):
    # NumPy's np.isin / np.cov... of a np.ma array do not do what np.ma's do: no silent switch to kd.ma's
    x = kd.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    args = (x,) if name in ("cov", "corrcoef") else (x, [1.0])
    with pytest.raises(TypeError, match=f"kd.ma.{name}"):
        getattr(np, name)(*args)


def test_np_unique_runs_kd_ma_unique():
    a = np.ma.array([3, 1, 3, 2], mask=[0, 0, 1, 0])
    assert_same(np.unique(kd.ma.array(a)), np.unique(a))
