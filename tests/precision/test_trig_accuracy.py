"""kdsl's own float32 sin/cos/tan (kdsl.codegen.trig) against the exact values (NumPy in float64, rounded):
within about 1 ulp up to |x| = 2**17 (beyond: test_trig_large_arguments.py), relatively accurate near zero
(GPUs' built-ins are only absolutely accurate there), signed zeros kept, NaN for inf and NaN."""

import numpy as np
import pytest

import kdsl as kd

FUNCS = ["sin", "cos", "tan"]
BOUND = {"sin": 1.0, "cos": 1.0, "tan": 1.0}  # ulps of the float32 result (tan: 2.5 before its quotient was corrected)


def _ulps(got: np.ndarray, x: np.ndarray, name: str) -> np.ndarray:
    exact = getattr(np, name)(x.astype(np.float64))
    unit = np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)
    return np.abs(got.astype(np.float64) - exact) / unit


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("limit", [4.0, 1e4, 1.3e5])
def test_ulp_error_over_a_wide_range(name, limit):
    x = np.random.default_rng(7).uniform(-limit, limit, 20000).astype(np.float32)
    got = getattr(kd, name)(kd.asarray(x)).numpy()
    assert _ulps(got, x, name).max() <= BOUND[name]


@pytest.mark.parametrize("name", FUNCS)
def test_relative_accuracy_near_zero_and_at_multiples_of_half_pi(name):
    rng = np.random.default_rng(3)
    tiny = (10.0 ** rng.uniform(-37, -1, 4000) * rng.choice([-1, 1], 4000)).astype(np.float32)
    # floats nearest to k pi/2: the reduction must keep the digits that cancel
    near = (np.arange(-2000, 2000) * (np.pi / 2)).astype(np.float32)
    near = near[np.abs(near) > 0]
    x = np.concatenate([tiny, near, np.nextafter(near, np.float32(np.inf))])
    got = getattr(kd, name)(kd.asarray(x)).numpy()
    assert _ulps(got, x, name).max() <= BOUND[name]


@pytest.mark.parametrize("name", FUNCS)
def test_zeros_subnormals_and_specials(name):
    x = np.array([0.0, -0.0, 1e-45, -1e-45, 1e-40, np.inf, -np.inf, np.nan], np.float32)
    got = getattr(kd, name)(kd.asarray(x)).numpy()
    with np.errstate(invalid="ignore"):
        want = getattr(np, name)(x)
    assert np.isnan(got[5:]).all()
    if name == "cos":
        np.testing.assert_array_equal(got[:2], [1.0, 1.0])
    else:  # sin and tan of +-0 are +-0
        np.testing.assert_array_equal(np.signbit(got[:2]), [False, True])
        np.testing.assert_array_equal(got[:2], want[:2])
    # subnormals: the value itself, unless the device flushes them (then a zero of the same sign)
    sub = got[2:5]
    assert all(g == w or (g == 0 and np.signbit(g) == np.signbit(w)) for g, w in zip(sub, want[2:5], strict=True))


def test_complex_functions_use_it_near_zero():
    z = np.array([1e-13 + 3e-13j, -2e-12 + 1e-12j], np.complex64)
    for name in ("sinh", "tan", "expm1"):
        got = getattr(kd, name)(kd.asarray(z)).numpy()
        want = getattr(np, name)(z.astype(np.complex128))
        np.testing.assert_allclose(got.real, want.real, rtol=1e-6)
        np.testing.assert_allclose(got.imag, want.imag, rtol=1e-6)


def test_float64_shares_the_generator():
    x = np.random.default_rng(1).uniform(-1e6, 1e6, 4000)
    for name in FUNCS:
        got = getattr(kd, name)(kd.asarray(x)).numpy()
        np.testing.assert_allclose(got, getattr(np, name)(x), rtol=2e-15, atol=1e-300)
