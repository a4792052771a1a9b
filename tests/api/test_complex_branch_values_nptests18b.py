"""float64 arctan2 past a quarter turn, and complex arcsin/arccos/arcsinh/arccosh at 1 + i*tiny, as NumPy's.

* ``arctan2(y, x)`` with ``x < 0`` added pi's low part after rounding the angle, so ``arctan2(inf, -1)`` (and
  ``log(-1 + inf j)``, ``angle(-1e-300 + 1j)``) came out one ulp above NumPy's pi/2 (numpy/_core/tests/
  test_umath_complex.py's ``clog`` special values compare exactly).
* ``arcsin(1 + 1e-310j)``'s real part was 0, not pi/2: Hull, Fairgrieve and Tang's ``y * sqrt(1/d)`` overflowed
  for a subnormal ``y`` at ``x = 1`` (so did arccos, arcsinh and arccosh, which share that core).
"""

import warnings

import numpy as np
import pytest

import kdsl as kd


def _host(a):
    return np.asarray(a.numpy() if isinstance(a, kd.Array) else a)


def _numpy(f, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return getattr(np, f)(*args)


ATAN2_Y = np.array([np.inf, np.inf, 1e300, 1e20, 1.0, -np.inf, np.inf, 5.0, -0.0, 0.0, 3.0, -2.0, np.nan, 1e-300])
ATAN2_X = np.array([-1.0, 1.0, -1.0, -1.0, -1e-300, -1.0, -np.inf, 0.0, -1.0, -0.0, -4.0, -7.5, -1.0, -1.0])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_arctan2_quarter_turns(dtype):
    with np.errstate(all="ignore"):
        y, x = ATAN2_Y.astype(dtype), ATAN2_X.astype(dtype)
    got = _host(kd.arctan2(kd.asarray(y), kd.asarray(x)))
    assert got.dtype == dtype
    want = np.arctan2(y, x)
    if dtype is np.float64:  # exact, signed zeros and NaNs included
        np.testing.assert_array_equal(got, want)
    else:  # within an ulp: NumPy's float32 arctan2 depends on the machine's SIMD path (arctan2(1e20, -1) is
        # 1.5707963705 on one machine, 1.5707962513 on another)
        np.testing.assert_allclose(got, want, rtol=2.0**-23, atol=0)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_arctan2_float64_random_left_half_plane():
    # x < 0 is where the low part of pi was added late; the results are within an ulp (mostly exact)
    rng = np.random.default_rng(5)
    y = rng.standard_normal(4000) * 10.0 ** rng.integers(-20, 20, 4000)
    x = -np.abs(rng.standard_normal(4000)) * 10.0 ** rng.integers(-20, 20, 4000)
    got, want = _host(kd.arctan2(kd.asarray(y), kd.asarray(x))), np.arctan2(y, x)
    np.testing.assert_array_max_ulp(got, want, maxulp=1)
    assert (got == want).mean() > 0.9


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_log_and_angle_at_infinite_imaginary_parts(dtype):
    z = np.array([complex(-1, np.inf), complex(-1e30, np.inf), complex(-1, -np.inf), complex(1, np.inf),
                  complex(-np.inf, np.inf), complex(-np.inf, 1), -1e-30 + 1j], dtype)
    for f in ("log", "angle"):
        got, want = _host(getattr(kd, f)(kd.asarray(z))), _numpy(f, z)
        if dtype == np.complex128:
            np.testing.assert_array_equal(got, want)
        else:  # NumPy's float32 atan2(1, -1e-30) is itself one ulp below pi/2
            for part in ("real", "imag"):
                g, w = getattr(got, part), getattr(want, part)
                np.testing.assert_array_equal(np.isinf(g), np.isinf(w))
                np.testing.assert_array_max_ulp(np.where(np.isinf(w), 0, g), np.where(np.isinf(w), 0, w), 1)


def test_angle_of_a_strided_view():
    z = np.array([[complex(-1, np.inf), 0j, -1e-300 + 1j], [-2 + 1e20j, 1j, complex(-0.0, 0.0)]])
    got = _host(kd.angle(kd.asarray(z)[:, ::2].T))
    np.testing.assert_array_equal(got, np.angle(z[:, ::2].T))


TINY = {np.complex128: [1e-300, 1e-310, 1e-320], np.complex64: [1e-30, 1e-37]}


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("f", ["arcsin", "arccos", "arcsinh", "arccosh"])
def test_inverse_functions_near_one_with_tiny_imaginary_parts(dtype, f):
    # the point 1 + i*t and its mirror images (arcsinh's branch point is i, so i*(1 + i*t) too)
    t = np.array(TINY[dtype])
    base = np.concatenate([1 + 1j * t, -1 + 1j * t, 1 - 1j * t, -1 - 1j * t])
    z = np.concatenate([base, 1j * base]).astype(dtype)
    got, want = _host(getattr(kd, f)(kd.asarray(z))), _numpy(f, z)
    assert got.dtype == want.dtype
    rtol = 1e-12 if dtype == np.complex128 else 2e-6
    np.testing.assert_allclose(got.real, want.real, rtol=rtol, atol=0)
    np.testing.assert_allclose(got.imag, want.imag, rtol=rtol, atol=0)


@pytest.mark.parametrize("f", ["arcsin", "arccos", "arcsinh", "arccosh"])
def test_inverse_functions_empty_and_size_one(f):
    for z in (np.zeros((0, 3), np.complex128), np.array([[1 + 1e-310j]])):
        got = _host(getattr(kd, f)(kd.asarray(z)))
        assert got.shape == z.shape
        np.testing.assert_allclose(got, _numpy(f, z), rtol=1e-12, atol=0)
