"""kd.copy / np.copy of a kd.ma masked array take NumPy's ``subok``: True keeps the mask (a masked copy),
False copies the data alone into a plain array, as NumPy's np.copy of an np.ma array does (it raised TypeError)."""

import numpy as np
import pytest

import kdsl as kd

DATA = np.array([[1.5, -2.0, 3.0], [4.0, 5.5, -6.0]], np.float32)
MASK = np.array([[False, True, False], [True, False, False]])


@pytest.mark.parametrize("copy", [kd.copy, np.copy])
@pytest.mark.parametrize("order", ["K", "C"])
def test_subok_false_is_the_data(copy, order):
    x = kd.ma.array(DATA, mask=MASK)
    want = np.copy(np.ma.array(DATA, mask=MASK), order=order, subok=False)
    got = copy(x, order=order, subok=False)
    assert type(got) is kd.Array and type(want) is np.ndarray
    np.testing.assert_array_equal(got.numpy(), want)
    got[0, 0] = 99.0  # a copy: the masked array is unchanged
    assert float(x.data[0, 0]) == 1.5


@pytest.mark.parametrize("copy", [kd.copy, np.copy])
def test_subok_true_keeps_the_mask(copy):
    x = kd.ma.array(DATA, mask=MASK)
    want = np.copy(np.ma.array(DATA, mask=MASK), subok=True)
    got = copy(x, subok=True)
    assert isinstance(got, kd.ma.MaskedArray) and isinstance(want, np.ma.MaskedArray)
    np.testing.assert_array_equal(got.mask.numpy(), want.mask)
    np.testing.assert_array_equal(got.filled(0).numpy(), want.filled(0))
