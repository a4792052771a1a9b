"""float64 ``arcsinh``, ``arccosh``, ``arctanh`` (kdsl.codegen.fp64_inverse_hyperbolic): their log1p/log arguments as
double-word values, so each rounds about once: within 1 ulp of the correctly rounded result (mpmath), equal to it in
nearly every argument (before: arccosh 2 ulp near 1, ~13% of arguments of each off); NumPy's special values."""

from __future__ import annotations

import numpy as np
import pytest
from ulps import assert_special_values, ulps

import kdsl as kd

mp = pytest.importorskip("mpmath", reason="mpmath is a test-only dependency (pip install kdsl[test])")
pytestmark = pytest.mark.skipif(not kd.device().supports(kd.float64), reason="the device has no float64")


RNG = np.random.default_rng(19)
SIGNED = 10.0 ** RNG.uniform(-12, 300, 1500) * RNG.choice([-1, 1], 1500)
CASES = {
    "arcsinh": (np.concatenate([SIGNED, RNG.uniform(-3, 3, 800)]), mp.asinh),
    "arccosh": (np.concatenate([1 + 10.0 ** RNG.uniform(-15, 0.5, 1200), 10.0 ** RNG.uniform(0, 300, 600)]),
                mp.acosh),
    "arctanh": (np.concatenate([RNG.uniform(-1, 1, 1500), (1 - 10.0 ** RNG.uniform(-15, -1, 300)),
                                10.0 ** RNG.uniform(-12, -1, 300)]), mp.atanh),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rounds_as_the_exact_result(name):
    x, fn = CASES[name]
    got = getattr(kd, name)(kd.asarray(x)).numpy()
    with mp.workprec(200):
        exact = np.array([float(fn(mp.mpf(float(v)))) for v in x])
    err = ulps(got, exact)
    assert err.max() <= 1, f"{name}({x[np.argmax(err)]!r}) = {got[np.argmax(err)]!r}: {err.max()} ulp"
    assert np.mean(err > 0) < 0.01, f"{name}: {np.mean(err > 0):.2%} not correctly rounded"
    assert ulps(got, getattr(np, name)(x)).max() <= 1


@pytest.mark.parametrize("name", sorted(CASES))
def test_special_values_are_numpys(name):
    x = np.array([0.0, -0.0, 1.0, -1.0, 2.0, 0.5, -0.5, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1e-300,
                  1.7976931348623157e308, -1.7976931348623157e308, 268435457.0, 0.9999999999999999])
    got = getattr(kd, name)(kd.asarray(x)).numpy()
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x)
    assert_special_values(got, want)
