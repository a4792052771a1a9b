"""float64 ``log2``, ``log10``, ``log1p`` (kdsl.codegen.fp64_log): ``log(1 + f)`` as a double-word value, scaled and
added with the products' errors kept, so each rounds about once: within 1 ulp of the correctly rounded result
(mpmath) and equal to it in nearly every argument (before: ~11% of log2/log10 arguments and 4% of log1p's off it,
log10 2 ulp from NumPy near 1); ``log2(2**k) == k``, ``log10(10**k) == k``, NumPy's special values."""

from __future__ import annotations

import numpy as np
import pytest
from ulps import assert_special_values, ulps

import kdsl as kd

mp = pytest.importorskip("mpmath", reason="mpmath is a test-only dependency (pip install kdsl[test])")
pytestmark = pytest.mark.skipif(not kd.device().supports(kd.float64), reason="the device has no float64")


RNG = np.random.default_rng(17)
POS = np.concatenate([10.0 ** RNG.uniform(-320, 308, 1000), 1 + RNG.uniform(-1e-2, 1e-2, 800),
                      RNG.uniform(0.5, 2.0, 500)])
EXACT = {"log2": lambda v: mp.log(v, 2), "log10": mp.log10, "log1p": mp.log1p}
ARGS = {"log2": POS, "log10": POS,
        "log1p": np.concatenate([RNG.uniform(-0.99, 3, 1200), 10.0 ** RNG.uniform(-200, 300, 600),
                                 -(10.0 ** RNG.uniform(-200, -0.01, 500))])}


@pytest.mark.parametrize("name", sorted(EXACT))
def test_rounds_as_the_exact_result(name):
    x = ARGS[name]
    got = getattr(kd, name)(kd.asarray(x)).numpy()
    with mp.workprec(200):
        exact = np.array([float(EXACT[name](mp.mpf(float(v)))) for v in x])
    err = ulps(got, exact)
    assert err.max() <= 1, f"{name}({x[np.argmax(err)]!r}) = {got[np.argmax(err)]!r}: {err.max()} ulp"
    assert np.mean(err > 0) < 0.005, f"{name}: {np.mean(err > 0):.2%} not correctly rounded"
    assert ulps(got, getattr(np, name)(x)).max() <= 1


def test_exact_powers_give_their_exponent():
    k = np.arange(-1074, 1024).astype(np.float64)
    np.testing.assert_array_equal(kd.log2(kd.asarray(np.exp2(k))).numpy(), k)
    k10 = np.arange(-22, 23).astype(np.float64)  # 10**k exact (or correctly rounded) as a double
    np.testing.assert_array_equal(kd.log10(kd.asarray(10.0 ** k10)).numpy(), np.log10(10.0 ** k10))


@pytest.mark.parametrize("name", sorted(EXACT))
def test_special_values_are_numpys(name):
    x = np.array([0.0, -0.0, -1.0, -1.5, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1e-300, -1e-300, 1.0,
                  2.2250738585072014e-308, 1.7976931348623157e308, -0.9999999999999999])
    got = getattr(kd, name)(kd.asarray(x)).numpy()
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x)
    assert_special_values(got, want)
