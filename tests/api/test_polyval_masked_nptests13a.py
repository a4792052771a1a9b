"""``kd.polyval(p, x)`` (and ``np.polyval``) of a ``kd.ma`` masked ``x`` keeps ``x``'s mask, as NumPy's for a
``np.ma`` array (kdsl returned a plain array of the data, dropping the mask; ``np.polyval`` raised TypeError);
a masked ``p`` counts with its data, as NumPy's."""

import numpy as np
import pytest

import kdsl as kd


def _same_masked(got, want):
    assert isinstance(got, kd.ma.MaskedArray)
    host = got.to_numpy()
    assert host.shape == want.shape and host.dtype == want.dtype
    np.testing.assert_array_equal(np.ma.getmaskarray(host), np.ma.getmaskarray(want))
    np.testing.assert_allclose(host.compressed(), want.compressed(), rtol=1e-6)
    assert host.fill_value == want.fill_value


CASES = [([1.0, 2.0, 3.0], [0, 1, 0]), ([[1.0, -2.0], [np.nan, np.inf]], [[0, 1], [0, 1]]), ([4.0], [1]),
         (np.zeros((0, 2)), np.zeros((0, 2), bool)), ([[0.5], [2.0]], [[1], [0]])]


@pytest.mark.parametrize("data, mask", CASES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("p", [[1, 2], [3.0, 0.0, -1.0], [2], []], ids=str)
def test_mask_kept(data, mask, dtype, p):
    p = np.asarray(p, dtype)  # (kdsl's own default dtypes for Python lists are float32/int32)
    values = np.asarray(data) if np.dtype(dtype).kind == "f" else np.nan_to_num(np.asarray(data), posinf=9)
    host = np.ma.masked_array(values.astype(dtype), mask=mask, fill_value=7)
    x = kd.ma.masked_array(kd.asarray(host.data), mask=np.asarray(mask, bool), fill_value=7)
    want = np.polyval(p, host)
    _same_masked(kd.polyval(p, x), want)
    _same_masked(np.polyval(p, x), want)
    _same_masked(kd.polyval(p=p, x=x), want)


def test_views_nomask_and_masked_coefficients():
    host = np.ma.masked_array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], mask=[[0, 1, 0], [1, 0, 0]])
    x = kd.ma.masked_array(kd.asarray(host.data), mask=host.mask)
    _same_masked(kd.polyval([1.0, -1.0], x[:, ::2]), np.polyval([1.0, -1.0], host[:, ::2]))
    _same_masked(kd.polyval([1.0, -1.0], x.T), np.polyval([1.0, -1.0], host.T))
    plain = np.ma.masked_array([1.0, 2.0])
    _same_masked(kd.polyval([2.0, 1.0], kd.ma.masked_array(kd.asarray(plain.data))), np.polyval([2.0, 1.0], plain))
    p_host = np.ma.masked_array([1.0, 2.0], mask=[0, 1])  # p's mask drops: its data counts
    p = kd.ma.masked_array(kd.asarray([1.0, 2.0]), mask=[False, True])
    got = kd.polyval(p, kd.asarray([1.0, 3.0]))
    assert isinstance(got, kd.Array)
    np.testing.assert_array_equal(got.numpy(), np.polyval(p_host, np.array([1.0, 3.0])))
