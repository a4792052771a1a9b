"""float64 ``cbrt``: the Newton step's residual ``t - y**3`` taken exactly (Dekker's products), so the result rounds
about once: within 1 ulp of the correctly rounded cube root (mpmath) and equal to it nearly always (before: 8% of
random arguments off it); subnormal, huge, zero, infinite and NaN arguments as NumPy's."""

from __future__ import annotations

import numpy as np
import pytest
from ulps import assert_special_values, ulps

import kdsl as kd

mp = pytest.importorskip("mpmath", reason="mpmath is a test-only dependency (pip install kdsl[test])")
pytestmark = pytest.mark.skipif(not kd.device().supports(kd.float64), reason="the device has no float64")


def test_cbrt_rounds_as_the_exact_result():
    rng = np.random.default_rng(31)
    wide = 10.0 ** rng.uniform(-320, 308, 1000) * rng.choice([-1, 1], 1000)
    x = np.concatenate([rng.uniform(-1000, 1000, 1500), wide, np.arange(-30, 31).astype(np.float64) ** 3])
    got = kd.cbrt(kd.asarray(x)).numpy()
    with mp.workprec(200):
        exact = np.array([float(mp.sign(v) * mp.cbrt(abs(mp.mpf(float(v))))) for v in x])
    err = ulps(got, exact)
    assert err.max() <= 1, f"cbrt({x[np.argmax(err)]!r}) = {got[np.argmax(err)]!r}: {err.max()} ulp"
    assert np.mean(err > 0) < 0.005, f"{np.mean(err > 0):.2%} not correctly rounded"
    np.testing.assert_array_equal(got[-61:], np.arange(-30, 31))  # exact cubes give their roots


def test_cbrt_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 2.2250738585072014e-308,
                  1.7976931348623157e308, -1.7976931348623157e308, 1e-300])
    got = kd.cbrt(kd.asarray(x)).numpy()
    want = np.cbrt(x)
    assert_special_values(got, want)
