"""``tan`` as a corrected quotient (kdsl.codegen.trig): sin and cos of the reduced argument carried in two parts
each and ``t = n / d`` corrected by the exact residual ``n - t d``, so tan rounds about once: within 1 ulp of the
correctly rounded result (mpmath) in float64 and float32, equal to it in all but a few percent (before: 2 ulp,
28% in float64; 2 ulp, 26% in float32), signed zeros and NaN as NumPy's."""

from __future__ import annotations

import numpy as np
import pytest
from ulps import ulps

import kdsl as kd

mp = pytest.importorskip("mpmath", reason="mpmath is a test-only dependency (pip install kdsl[test])")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_tan_rounds_as_the_exact_result(dtype):
    if dtype == np.float64 and not kd.device().supports(kd.float64):
        pytest.skip("the device has no float64")
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-10, 10, 1500), 10.0 ** rng.uniform(-8, 0, 300),
                        (rng.integers(1, 10**6, 300) * (np.pi / 2)) + rng.uniform(-1e-3, 1e-3, 300),
                        10.0 ** rng.uniform(5, 30, 300)]).astype(dtype)
    got = kd.tan(kd.asarray(x)).numpy()
    assert got.dtype == dtype
    with mp.workprec(200):
        exact = np.array([float(mp.tan(mp.mpf(float(v)))) for v in x]).astype(dtype)
    err = ulps(got, exact)
    assert err.max() <= 1, f"tan({x[np.argmax(err)]!r}) = {got[np.argmax(err)]!r}: {err.max()} ulp"
    assert np.mean(err > 0) < 0.06, f"{np.mean(err > 0):.2%} not correctly rounded"


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_tan_special_values(dtype):
    if dtype == np.float64 and not kd.device().supports(kd.float64):
        pytest.skip("the device has no float64")
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, np.pi / 2, -np.pi / 2, np.pi, 1e-300 if dtype == np.float64
                  else 1e-30, np.finfo(dtype).max], dtype)
    got = kd.tan(kd.asarray(x)).numpy()
    with np.errstate(invalid="ignore"):
        want = np.tan(x)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.signbit(got[:2]), [False, True])
    assert ulps(got[~np.isnan(want)], want[~np.isnan(want)]).max() <= 1
