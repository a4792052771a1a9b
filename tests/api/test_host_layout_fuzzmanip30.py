"""Host (NumPy) arrays handed to kdsl's flattening and reshaping functions (found by differential fuzzing):
``kd.ravel(x, 'K')`` of a NumPy view whose memory order is neither C nor Fortran gives NumPy's memory order (it
gave the C order of the device copy: silently other values); ``kd.reshape(x, s, copy=False)`` of host data
raises ``kd.asarray(x, copy=False)``'s ValueError (host data is always copied to the device; it copied
silently)."""

import numpy as np
import pytest

import kdsl as kd

BASE = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
VIEWS = {"permuted": BASE.transpose(2, 0, 1), "permuted-reversed": BASE.transpose(1, 2, 0)[::-1],
         "strided": BASE[:, ::2, 1::2], "transposed": BASE[0].T, "fortran": np.asfortranarray(BASE),
         "reversed-1d": BASE.ravel()[::-3], "0-d": BASE[1, 2, 3, ...], "empty": BASE[:, :0].transpose(2, 0, 1),
         "c-contiguous": BASE, "int8": BASE.astype(np.int8).transpose(1, 0, 2)[:, ::-1]}


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("name", sorted(VIEWS))
def test_ravel_of_host_views_takes_numpys_order(name, order):
    x = VIEWS[name]
    got = kd.ravel(x, order)
    assert isinstance(got, kd.Array)
    np.testing.assert_array_equal(got.numpy(), np.ravel(x, order))
    assert got.dtype == x.dtype


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_reshape_copy_false_of_host_data_is_refused(name):
    x = VIEWS[name]
    with pytest.raises(ValueError, match="copy=False"):
        kd.reshape(x, (-1,), copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        kd.reshape(x.tolist(), (-1,), copy=False)
    np.testing.assert_array_equal(kd.reshape(x, (-1,)).numpy(), np.reshape(x, (-1,)))
    np.testing.assert_array_equal(kd.reshape(x, (-1,), copy=True).numpy(), np.reshape(x, (-1,), copy=True))
