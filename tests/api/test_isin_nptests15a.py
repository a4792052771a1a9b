"""kd.isin's ``kind`` as NumPy's: ``kind='table'`` refuses float and complex arrays with NumPy's ValueError (kdsl
ignored it and answered), an unknown kind raises NumPy's message; every accepted kind gives NumPy's answer."""

import numpy as np
import pytest

import kdsl as kd

TABLE_REFUSED = "The 'table' method is only supported for boolean or integer arrays"

PAIRS = [
    (np.array([1.0, np.nan, 2.0, np.inf]), np.array([2, 5])),
    (np.array([3, 1, 2]), np.array([2.0, 0.5])),
    (np.array([1 + 1j, 2]), np.array([1 + 1j])),
    (np.zeros(0), np.array([1, 2])),
    (np.array([[1.5], [2.0]], np.float32), np.array([2], np.int8)),
    (np.array([1, 2, 3], np.uint8), np.zeros(0, np.float16)),
]


@pytest.mark.parametrize(("element", "test"), PAIRS)
@pytest.mark.parametrize("on_device", [True, False])
def test_table_refuses_non_integers(element, test, on_device):
    with pytest.raises(ValueError, match=TABLE_REFUSED):
        np.isin(element, test, kind="table")
    conv = kd.asarray if on_device else (lambda v: v)
    with pytest.raises(ValueError, match=TABLE_REFUSED):
        kd.isin(conv(element), conv(test), kind="table")


@pytest.mark.parametrize(("element", "test"), PAIRS)
@pytest.mark.parametrize("kind", [None, "sort"])
def test_other_kinds_answer(element, test, kind):
    want = np.isin(element, test, kind=kind)
    got = kd.isin(kd.asarray(element), kd.asarray(test), kind=kind)
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("invert", [False, True])
@pytest.mark.parametrize(("element", "test"), [
    (np.array([[3, 1], [2, 9]], np.int16), np.array([2, 9, 9], np.uint8)),
    (np.array([True, False]), np.array([True])),
    (np.arange(10)[::3], np.array([3, 6])),
    (np.array([5]), np.zeros(0, np.int64)),
])
def test_table_on_integers(element, test, invert):
    want = np.isin(element, test, kind="table", invert=invert)
    got = kd.isin(kd.asarray(element), kd.asarray(test), kind="table", invert=invert)
    np.testing.assert_array_equal(got.numpy(), want)


def test_unknown_kind():
    with pytest.raises(ValueError, match="Invalid kind: 'hash'") as want:
        np.isin([1], [1], kind="hash")
    with pytest.raises(ValueError) as got:
        kd.isin(kd.asarray([1]), [1], kind="hash")
    assert str(got.value) == str(want.value)


def _long(values, dtype, m=100):
    """``values`` repeated and padded with distinct filler up to ``m`` test elements (past the all-pairs limit)."""
    filler = np.arange(1000, 1000 + m, dtype=np.float64)
    return np.concatenate([np.asarray(values, np.float64), filler])[:m].astype(dtype)


LONG_CASES = [
    (np.array([1.0, np.nan, -0.0, np.inf, 5.5, 1000.0, 2e9]), [0.0, np.nan, np.inf, 1.0], np.float64),
    (np.array([1.0, np.nan, 0.0, -np.inf, 5.5, 1001.0], np.float32), [-0.0, -np.inf, 5.5], np.float32),
    (np.array([[3, 1], [1050, -7]], np.int32), [1, -7, 3], np.int64),
    (np.array([3, 1, 2 ** 40, 1003], np.int64), [3, 2 ** 40], np.float64),
    (np.array([0.5, 3.0, 1004.0], np.float16), [3, 0], np.int16),
    (np.array([2 ** 63 + 1, 7, 1002], np.uint64), [7, 2 ** 62], np.int64),
    (np.array([True, False]), [1], np.int32),
    (np.array([1 + 1j, 1005.0]), [1 + 1j], np.complex128),
    (np.zeros((0, 3)), [1], np.float64),
    (np.array(1006.0), [0], np.float64),
]


@pytest.mark.parametrize(("element", "values", "dtype"), LONG_CASES, ids=[str(i) for i in range(len(LONG_CASES))])
@pytest.mark.parametrize("invert", [False, True])
def test_long_test_lists(element, values, dtype, invert):
    """Test lists longer than the all-pairs limit are sorted and searched: the same answers as NumPy's."""
    test = _long(values, dtype) if dtype != np.complex128 else np.concatenate([np.asarray(values), np.arange(99.0)])
    want = np.isin(element, test, invert=invert)
    got = kd.isin(kd.asarray(element), kd.asarray(test), invert=invert)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
    got = kd.isin(kd.asarray(element), kd.asarray(test)[::-1], invert=invert)  # a reversed (strided) view
    np.testing.assert_array_equal(got.numpy(), want)


def test_long_lists_exact_for_large_integers():
    """int64 meeting uint64 compares exactly (NumPy's float64 would merge 2**60 and 2**60 + 1)."""
    x = np.array([2 ** 60 + 1, 5], np.int64)
    test = np.array([2 ** 60] + list(range(6, 106)), np.uint64)
    got = kd.isin(kd.asarray(x), kd.asarray(test)).numpy()
    np.testing.assert_array_equal(got, [False, False])


def test_long_lists_search_short_lists_compare():
    """The plan: a binary search past the all-pairs limit (no n * m comparison kernel), one fused comparison
    below it."""
    long_plan = kd.explain(kd.isin(kd.arange(1000), kd.arange(0, 2000, 3)))
    assert "Search" in long_plan and "Reduce" not in long_plan
    short_plan = kd.explain(kd.isin(kd.arange(1000), kd.arange(0, 20, 3)))
    assert "Search" not in short_plan
