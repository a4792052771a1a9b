"""``kd.unwrap`` of integer data takes ``abs`` of the steps in the data's dtype, as NumPy's ``abs(dd) < discont``
(found by differential fuzzing): kdsl took it after the cast to float64, so a step that wraps to the dtype's
minimum (``int16 [-1, 32767]``: -32768, whose int16 ``abs`` stays -32768, below any ``discont``) was
corrected: **65533.8 where NumPy keeps 32767**."""

import numpy as np
import pytest

import kdsl as kd

CASES = [(np.array([-1, 32767], np.int16), {}), (np.array([-1, 32767], np.int16), {"discont": 10.0}),
         (np.array([-1, 32767, -5, 100], np.int16), {"period": 10}), (np.array([-100, 100, -28], np.int8), {}),
         (np.array([2**31 - 1, -2**31, 5], np.int32), {}), (np.array([[-128, 127], [0, 1]], np.int8).T, {"axis": 0}),
         (np.array([True, False, True]), {}), (np.array([5, 3, 250], np.uint8), {"discont": 2.0}),
         (np.array([0.0, 7.0, 3.0], np.float16), {"discont": 1.0})]


@pytest.mark.parametrize(("p", "kw"), CASES, ids=lambda c: str(c.tolist()) if isinstance(c, np.ndarray) else str(c))
def test_matches_numpy(p, kw):
    want = np.unwrap(p, **kw)
    got = kd.unwrap(kd.asarray(p), **kw).numpy()
    assert (got.shape, got.dtype) == (want.shape, want.dtype)
    np.testing.assert_allclose(got, want, rtol=1e-12)
