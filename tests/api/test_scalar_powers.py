"""``x ** s`` and ``power(x, s)`` with a scalar exponent, as NumPy's loops and operator compute them: 0.5 is sqrt
(signed zeros, ``-inf``), 2 and -1 are exact products and quotients (no ulp from exp/log), and on complex arrays the
operator's 2, -1 and 0.5 are square, reciprocal and sqrt."""

import numpy as np
import pytest

import kdsl as kd

SPECIAL = [-0.0, 0.0, np.inf, -np.inf, np.nan, 1e-40, -3.5, 7.25, 1e30, -1e-30]


def _real(dtype, n=500):
    x = np.random.default_rng(5).uniform(-50, 50, n)
    return np.concatenate([x, SPECIAL]).astype(dtype)


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    both_nan = np.isnan(got) & np.isnan(want)
    assert np.array_equal(got[~both_nan], want[~both_nan])
    assert np.array_equal(np.signbit(got[~both_nan]), np.signbit(want[~both_nan]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("exponent", [2, -1, 2.0, -1.0])
def test_real_operator_and_power_match_numpy_bit_for_bit(dtype, exponent):
    x = _real(dtype)
    with np.errstate(all="ignore"):
        _same((kd.asarray(x) ** exponent).numpy(), x ** exponent)
        _same(kd.power(kd.asarray(x), exponent).numpy(), np.power(x, exponent))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_half_is_sqrt(dtype):
    """``x ** 0.5`` is the device's ``kd.sqrt`` bit for bit, with NumPy's special values; NVIDIA's float32 sqrt
    may be an ulp off NumPy's and flushes subnormal arguments, so finite values compare within an ulp."""
    x = _real(dtype)
    a = kd.asarray(x)
    with np.errstate(all="ignore"):
        want = x ** 0.5
        for got in ((a ** 0.5).numpy(), kd.power(a, 0.5).numpy()):
            _same(got, kd.sqrt(a).numpy())
            special = ~np.isfinite(x) | (x == 0) | (x < 0)
            _same(got[special], want[special])
            normal = ~special & (x >= np.finfo(dtype).tiny)
            np.testing.assert_array_max_ulp(got[normal], want[normal], maxulp=1)


@pytest.mark.parametrize("exponent", [2, -1])
def test_views_and_shapes(exponent):
    x = _real(np.float32, 94).reshape(8, 13)
    a = kd.asarray(x)
    for view, want in ((a.T, x.T), (a[::2, 1:], x[::2, 1:]), (a[:0], x[:0]), (a[:1, :1], x[:1, :1])):
        with np.errstate(all="ignore"):
            _same((view ** exponent).numpy(), want ** exponent)


def test_an_array_of_halves_is_still_power():
    x = np.array([-0.0, -np.inf, 4.0], np.float32)
    with np.errstate(all="ignore"):
        want = np.power(x, np.full(3, 0.5, np.float32))  # NumPy's pow: +0 and +inf
        _same(kd.power(kd.asarray(x), kd.full(3, 0.5)).numpy(), want)


def test_integers_keep_integer_powers():
    x = np.arange(-4, 5, dtype=np.int32)
    assert np.array_equal((kd.asarray(x) ** 2).numpy(), x ** 2)
    with pytest.raises(ValueError, match="negative integer powers"):
        kd.asarray(x) ** -1


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("exponent", [0.5, 2, -1, 2.0, 3])
def test_complex_operator_matches_numpy(dtype, exponent):
    vals = [0.0, 1.0, -2.5, np.inf, -np.inf, np.nan]
    z = np.array([complex(a, b) for a in vals for b in vals] + [1 + 2j, -3 - 0.5j], dtype)
    with np.errstate(all="ignore"):
        want = z ** exponent
    got = (kd.asarray(z) ** exponent).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == np.complex64 else 1e-12, equal_nan=True)
    # NaN and infinity patterns part by part, as NumPy gives them
    for part in (np.real, np.imag):
        assert np.array_equal(np.isnan(part(got)), np.isnan(part(want)))
        assert np.array_equal(np.isinf(part(got)), np.isinf(part(want)))


def test_gradients_through_the_rewritten_powers():
    x = kd.asarray(np.array([1.0, 2.0, 4.0], np.float32))
    g = kd.grad(lambda x: (x ** 2 + x ** 0.5 + x ** -1).sum())(x).numpy()
    v = np.array([1.0, 2.0, 4.0])
    np.testing.assert_allclose(g, 2 * v + 0.5 / np.sqrt(v) - 1 / v ** 2, rtol=1e-6)


@pytest.mark.parametrize("exponent", [1.5, 3, 0.3, -2.7, 13.0, 0.25, 40.5])
def test_float32_power_within_an_ulp_of_numpy(exponent):
    """On devices with float64, float32 ``pow`` is computed in float64 (kdsl.codegen.wide_pow): within an ulp of
    NumPy's ``powf`` (the float path was up to 7 ulp off at 1.5 on lavapipe)."""
    if not kd.device().supports(kd.float64):
        pytest.skip("this device has no float64: float32 pow keeps the float helper")
    x = np.random.default_rng(9).uniform(0, 8, 5000).astype(np.float32)
    with np.errstate(all="ignore"):
        want = x ** np.float32(exponent)
    got = (kd.asarray(x) ** exponent).numpy()
    finite = np.isfinite(want) & (want != 0)
    assert np.array_equal(np.isinf(got), np.isinf(want)) and np.array_equal(got == 0, want == 0)
    ulps = np.abs(got[finite].astype(np.float64) - want[finite]) / np.spacing(np.abs(want[finite]))
    assert ulps.max() <= 1.0
