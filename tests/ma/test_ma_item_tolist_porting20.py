"""``x.item(i)`` of a 2-d masked array (a flat index: was ValueError "size 1"), ``x.item(j)`` of a masked entry
(NumPy's is the data's value), ``x.tolist(fill_value)`` (TypeError: no argument), ``x.searchsorted(v)`` and
``x.view(dtype)`` (AttributeError; numpy.ma's ``ptp`` example: ``y.ptp(axis=1).view(np.uint8)``), against numpy.ma."""

import numpy as np
import pytest

import kdsl as kd


def _pair():
    data, mask = np.array([[1.5, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32), [[1, 0, 0], [0, 0, 1]]
    return np.ma.array(data, mask=mask), kd.ma.array(kd.asarray(data), mask=mask)


@pytest.mark.parametrize("args", [(0,), (4,), (-1,), ((1, 2),), (0, 1), (1, 0)])
def test_item_is_numpys(args):
    n, k = _pair()
    assert k.item(*args) == n.item(*args)


def test_tolist_with_a_fill_value_and_searchsorted():
    n, k = _pair()
    assert k.tolist() == n.tolist() and k.tolist(-1) == n.tolist(-1) and k.tolist(fill_value=0) == n.tolist(0)
    n1, k1 = n.ravel(), k.ravel()
    ns, ks = np.ma.sort(n1), kd.ma.sort(k1)
    np.testing.assert_array_equal(ks.searchsorted([2.5, 5.0]).numpy(), ns.searchsorted([2.5, 5.0]))
    np.testing.assert_array_equal(ks.searchsorted(5.0, side="right").numpy(), ns.searchsorted(5.0, side="right"))


def test_view_keeps_the_mask():
    data = np.array([[250, 3, 7], [1, 2, 255]], np.uint8)
    n = np.ma.array(data, mask=[[0, 1, 0], [0, 0, 0]])
    k = kd.ma.array(kd.asarray(data), mask=[[0, 1, 0], [0, 0, 0]])
    np.testing.assert_array_equal(k.ptp(axis=1).view(kd.uint8).filled(0).numpy(),
                                  n.ptp(axis=1).view(np.uint8).filled(0))
    kv, nv = k.view(kd.int8), n.view(np.int8)
    np.testing.assert_array_equal(kv.filled(0).numpy(), nv.filled(0))
    np.testing.assert_array_equal(kv.mask.numpy(), nv.mask)
    assert isinstance(k.view(), kd.ma.MaskedArray) and isinstance(k.view(type=np.ndarray), kd.Array)
    with pytest.raises(ValueError):
        k.view(kd.uint16)  # 3 bytes a row: NumPy's ValueError
