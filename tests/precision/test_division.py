"""float32 division rounds as IEEE (NumPy's) on every device: kd_div_f scales the operands with frexp and adds
back the exact residual, so no reciprocal of a huge divisor (|b| > 2**126) underflows to zero and no
approximate reciprocal (NVIDIA's a / b is a * rcp(b), 2 ulp) shows through. hypot, complex abs, division and
sign, and round(x, n) (rint(x * 10**n) / 10**n) rely on it."""

import numpy as np

import kdsl as kd

TINY = np.finfo(np.float32).tiny


def _keeps_subnormals() -> bool:
    """Whether this device keeps float32 subnormals (SPIR-V DenormPreserve); without it (the H200) a subnormal
    result may be flushed to a zero of its sign and a subnormal operand may act as one (docs/float-semantics.md)."""
    return 32 in kd.device().float_controls[1]


def _flushed(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Where ``got`` is what a device that flushes subnormals may give instead of ``want``: a zero of its sign."""
    if _keeps_subnormals():
        return np.zeros(want.shape, bool)
    return (want != 0) & (np.abs(want) < TINY) & (got == 0) & \
        (np.signbit(got) == np.signbit(want))


def _bit_patterns(n: int, seed: int) -> np.ndarray:
    """Finite float32 values of every exponent (normal results: subnormal quotients may round twice)."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0x00800000, 0x7F800000, n, dtype=np.uint32).view(np.float32)
    return np.where(rng.random(n) < 0.5, -x, x).astype(np.float32)


def test_quotients_are_bitwise_numpys():
    a, b = _bit_patterns(20000, 1), _bit_patterns(20000, 2)
    sub = np.random.default_rng(3).integers(1, 0x00800000, 2000, dtype=np.uint32).view(np.float32)
    if _keeps_subnormals():  # subnormal operands (a device that flushes them divides by zero instead)
        a, b = np.concatenate([a, sub, b[:2000]]), np.concatenate([b, b[:2000], sub])
    with np.errstate(all="ignore"):
        want = a / b
    got = (kd.asarray(a) / kd.asarray(b)).numpy()
    normal = (np.abs(want) >= np.finfo(np.float32).tiny) | (want == 0) | np.isinf(want)
    np.testing.assert_array_equal(got[normal], want[normal])


def test_huge_divisors_and_specials():
    a = np.array([3e38, 1e38, -2e38, 1.0, 0.0, -0.0, np.inf, 5.0, np.nan, 1e-30, 3e38], np.float32)
    b = np.array([2.9e38, -3e38, 1e38, 3e38, 5.0, 3e38, np.inf, 0.0, 1.0, 3e38, 1e-30], np.float32)
    with np.errstate(all="ignore"):
        want = a / b
    got = (kd.asarray(a) / kd.asarray(b)).numpy()
    ok = (got == want) | (np.isnan(got) & np.isnan(want)) | ((want != 0) & (np.abs(want) < 1.2e-38) & (got == 0))
    assert ok.all(), (got, want)
    np.testing.assert_array_equal(np.signbit(got[:6]), np.signbit(want[:6]))
    got = kd.reciprocal(kd.asarray(b[:4])).numpy()  # subnormal results: ldexp may round a second time
    want = np.reciprocal(b[:4])
    keep = ~_flushed(got, want)
    np.testing.assert_allclose(got[keep], want[keep], rtol=2e-7, atol=2e-45)


def test_hypot_and_complex_abs_of_huge_values():
    a = np.array([1e38, 2e38, 3e38, 1e-30, 1.5e-38, 4e-39], np.float32)  # and subnormal operands
    a = a if _keeps_subnormals() else a[:5]
    with np.errstate(over="ignore"):
        np.testing.assert_allclose(kd.hypot(kd.asarray(a), kd.asarray(a * 1.25)).numpy(), np.hypot(a, a * 1.25),
                                   rtol=1e-6)
        a = a if _keeps_subnormals() else a[a * 0.75 >= TINY]  # 1.5e-38 * 0.75 is a subnormal operand
        z = (a + 1j * (a * 0.75)).astype(np.complex64)
        np.testing.assert_allclose(kd.abs(kd.asarray(z)).numpy(), np.abs(z), rtol=1e-6)


def test_complex_division_by_huge_denominators():
    a = np.array([1e38 + 2e38j, 3e38 - 1e37j, 1.0 + 1.0j], np.complex64)
    b = np.array([3e38 + 1e38j, -2e38 + 2.5e38j, 2e38 + 3e38j], np.complex64)
    with np.errstate(all="ignore"):
        want = a / b  # NumPy's Smith's algorithm in float32: d overflows in the second, underflows in the third
    got = (kd.asarray(a) / kd.asarray(b)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-44)
    np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(want.imag))


def test_round_to_decimals_divides_exactly():
    x = np.array([3.6 + 0.6j, 2.6 + 2.6j, -1.3 + 3.8j], np.complex64)
    np.testing.assert_array_equal(kd.round(kd.asarray(x), 1).numpy(), np.round(x, 1))
    r = np.random.default_rng(5).uniform(-100, 100, 1000).astype(np.float32)
    np.testing.assert_array_equal(kd.round(kd.asarray(r), 2).numpy(), np.round(r, 2))
