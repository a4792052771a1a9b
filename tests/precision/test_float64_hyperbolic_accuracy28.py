"""float64 ``expm1``, ``sinh``, ``cosh``, ``tanh`` (kdsl.codegen.fp64_hyperbolic): expm1 as a double-word value, the
quotients and sums after it with their residuals, so each rounds about once: within 1 ulp of the correctly rounded
result (mpmath), equal to it in all but ~1% of arguments (before: tanh 2 ulp and 24% off, sinh 2 ulp, expm1 11%,
cosh 10%). Special values and the overflow edges: test_float64_exp_pow_accuracy28.py."""

from __future__ import annotations

import numpy as np
import pytest
from ulps import ulps

import kdsl as kd

mp = pytest.importorskip("mpmath", reason="mpmath is a test-only dependency (pip install kdsl[test])")
pytestmark = pytest.mark.skipif(not kd.device().supports(kd.float64), reason="the device has no float64")


RNG = np.random.default_rng(13)
X = np.concatenate([RNG.uniform(-3, 3, 1500), RNG.uniform(-45, 45, 500), RNG.uniform(-709, 709, 200),
                    10.0 ** RNG.uniform(-20, 0, 300) * RNG.choice([-1, 1], 300), [-0.7, 0.7, 0.35, -0.35, 22.0]])
EXACT = {"expm1": mp.expm1, "sinh": mp.sinh, "cosh": mp.cosh, "tanh": mp.tanh}


@pytest.mark.parametrize("name", sorted(EXACT))
def test_rounds_as_the_exact_result(name):
    got = getattr(kd, name)(kd.asarray(X)).numpy()
    with mp.workprec(200):
        exact = np.array([float(EXACT[name](mp.mpf(float(v)))) for v in X])
    err = ulps(got, exact)
    assert err.max() <= 1, f"{name}({X[np.argmax(err)]!r}) = {got[np.argmax(err)]!r}: {err.max()} ulp"
    assert np.mean(err > 0) < 0.02, f"{name}: {np.mean(err > 0):.2%} not correctly rounded"
    with np.errstate(over="ignore"):
        assert ulps(got, getattr(np, name)(X)).max() <= 1


@pytest.mark.parametrize("name", sorted(EXACT))
def test_strided_and_size_one(name):
    x = RNG.uniform(-5, 5, (4, 6))
    a = kd.asarray(x)
    got = getattr(kd, name)(a[:, ::3]).numpy()
    assert got.shape == (4, 2)
    assert ulps(got.ravel(), getattr(np, name)(x[:, ::3]).ravel()).max() <= 1
    one = getattr(kd, name)(kd.asarray(np.array([0.25]))).numpy()
    assert ulps(one, getattr(np, name)(np.array([0.25]))).max() <= 1
