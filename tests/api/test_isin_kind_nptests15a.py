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
