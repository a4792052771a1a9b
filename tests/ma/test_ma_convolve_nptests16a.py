"""kd.ma.convolve / kd.ma.correlate against numpy.ma's (numpy/ma/tests/test_core.py's TestMaskedArrayFunctions
test_convolve): modes, propagate_mask, masks on either side, NaN under a mask (kd.ma had neither)."""

import numpy as np
import pytest
from ma_testing import assert_same

import kdsl as kd

A = np.ma.array([1.0, 2.0, np.nan, 4.0, -1.0, 0.5, 3.0], mask=[0, 0, 1, 0, 0, 0, 0])
V = np.ma.array([1.0, -2.0, 0.5], mask=[0, 1, 0])


@pytest.mark.parametrize("name", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("propagate_mask", [True, False])
@pytest.mark.parametrize("masks", ["both", "a", "v", "none"])
def test_against_numpy(name, mode, propagate_mask, masks):
    a = A if masks in ("both", "a") else np.ma.array(np.nan_to_num(A.data))
    v = V if masks in ("both", "v") else np.ma.array(V.data)
    got = getattr(kd.ma, name)(kd.ma.array(a), kd.ma.array(v), mode=mode, propagate_mask=propagate_mask)
    assert_same(got, getattr(np.ma, name)(a, v, mode=mode, propagate_mask=propagate_mask), rtol=1e-9)


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_dtypes_views_and_defaults(dtype):
    a = np.ma.array(np.arange(10, dtype=dtype), mask=np.arange(10) % 4 == 1)
    v = np.ma.array(np.array([2, 1, 3], dtype), mask=[0, 0, 1])
    ka, kv = kd.ma.array(a), kd.ma.array(v)
    assert_same(kd.ma.convolve(ka[::2], kv), np.ma.convolve(a[::2], v), check_dtype=False)
    assert_same(kd.ma.correlate(ka[::-1], kv[:2]), np.ma.correlate(a[::-1], v[:2]), check_dtype=False)
    assert_same(kd.ma.convolve(ka, kd.asarray(v.data)), np.ma.convolve(a, v.data), check_dtype=False)
    assert_same(kd.ma.correlate(kd.ma.array(a[:1]), kv, mode="full"), np.ma.correlate(a[:1], v, mode="full"),
                check_dtype=False)


def test_fully_masked_kernel_masks_everything():
    a = np.ma.array([1.0, 2.0, 3.0])
    v = np.ma.array([1.0, 1.0], mask=[1, 1])
    for propagate in (True, False):
        assert_same(kd.ma.convolve(kd.ma.array(a), kd.ma.array(v), propagate_mask=propagate),
                    np.ma.convolve(a, v, propagate_mask=propagate))


def test_numpys_convolve_does_not_run_kd_ma():
    with pytest.raises(TypeError, match="kd.ma.convolve"):
        np.convolve(kd.ma.array(A), [1.0, 2.0])
