"""Every float16 intermediate of a fused kernel is rounded to float16, as NumPy rounds each float16 operation:
in elementwise chains, after a division, in a matmul's epilogue, in a scan's and a reduction's consumers.
Each case is built so that skipping one rounding changes the result (a GPU compiler that folds the
``float(float16_t(x))`` round trip of the hardware rounding away fails here; see codegen/half.py)."""

import numpy as np
import pytest

import kdsl as kd

H = np.float16


def _check(fn, *arrays):
    with np.errstate(all="ignore"):
        expected = fn(np, *arrays)
    got = fn(kd, *(kd.asarray(a) for a in arrays))
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.numpy(), expected)


CHAINS = {
    "product past 65504 then halved": lambda xp, a, b: (a * b) * H(0.5),  # inf, not 35000
    "sum that rounds then difference": lambda xp, a, b: (a + b) - a,  # 2048 + 1 rounds to 2048: 0, not 1
    "quotient times divisor": lambda xp, a, b: (a / b) * b,
    "square root of a product": lambda xp, a, b: xp.sqrt(a * b),
    "exp then log": lambda xp, a, b: xp.log(xp.exp(a / H(4096))),
    "mixed with a float32 operand": lambda xp, a, b: (a + b).astype(np.float32) * np.float32(3),
}


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_elementwise_chains_round_each_step(name):
    a = np.array([2048, 300, 1000, -2048, 65504, 0.1, 7, 3], H)
    b = np.array([1, 300, 3, -1, 2, 3, 11, 0.001], H)
    _check(CHAINS[name], a, b)
    _check(CHAINS[name], a[::-2], b[::2])  # strided views


def test_a_matmul_product_rounds_before_its_epilogue():
    a = np.array([[2048, 1], [300, 300]], H)
    b = np.array([[1, 0], [1, 1]], H)  # rows: 2048 + 1 (rounds to 2048), 600
    _check(lambda xp, a, b: (a @ b) - a[:, :1], a, b)
    _check(lambda xp, a, b: (a @ b) * H(200), a, b)  # 2048 * 200 > 65504: inf


@pytest.mark.parametrize("op", ["sum", "mean", "prod", "max"])
def test_a_reduction_is_rounded_for_its_consumer(op):
    a = np.array([[2048, 1, 0.5], [40000, 40000, 1], [3, 7, 11]], H)
    _check(lambda xp, a: getattr(xp, op)(a, axis=1) - a[:, 0], a)
    _check(lambda xp, a: getattr(xp, op)(a, axis=1) * H(3), a)


def test_a_cumulative_sum_is_rounded_for_its_consumer():
    # kdsl's float16 scan rounds each output of a float32 running sum once (docs/numpy-api.md: NumPy's rounds
    # every step); its consumer reads the rounded outputs: 2048 + 1 + 1 = 2050 (exact in float16), 2049 -> 2048
    a = np.array([2048, 1, 1, 1, 40000, 40000, 1], H)
    expected = np.cumsum(a, dtype=np.float32).astype(H) - H(2048)
    got = kd.cumsum(kd.asarray(a)) - H(2048)
    np.testing.assert_array_equal(got.numpy(), expected)
    assert list(expected[:4]) == [0, 0, 2, 4]


def test_the_rounding_of_an_intermediate_is_exact_at_every_float16_midpoint():
    """kd_half_f (kdsl.codegen.half) against NumPy's float32 -> float16 cast: every finite float16 value, every
    midpoint between neighbours (ties to even) and the float32 values next to each midpoint, both signs,
    overflow to inf, NaN and inf."""
    h = np.arange(0, 0x7C00, dtype=np.uint16).view(H).astype(np.float32)
    mid = ((h[:-1].astype(np.float64) + h[1:]) / 2).astype(np.float32)
    x = np.concatenate([h, mid, np.nextafter(mid, np.float32(0)), np.nextafter(mid, np.float32(np.inf)),
                        np.float32([65504, 65519.996, 65520, 1e9, 1e-30, np.inf])])
    x = np.concatenate([x, -x, np.float32([np.nan])])
    got = (kd.asarray(x).astype(H).astype(np.float32) * np.float32(1)).numpy()  # one kernel: an intermediate
    with np.errstate(over="ignore"):
        expected = x.astype(H).astype(np.float32)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.signbit(got)[:-1], np.signbit(expected)[:-1])


@pytest.mark.skipif(not kd.device().supports(kd.float64), reason="the device has no float64")
def test_a_float32_intermediate_of_float64_data_is_rounded():
    """The same round trip one size up: float64 -> float32 -> float64 inside one kernel must round to float32
    (a compiler that drops the conversion pair would leave the float64 value)."""
    x = np.random.default_rng(3).standard_normal(4096) * np.logspace(-40, 40, 4096)
    f = np.random.default_rng(4).standard_normal(2048).astype(np.float32) * np.float32(1e-38) ** np.float32(
        np.random.default_rng(5).uniform(-1, 1, 2048))  # float32 values of every binade, subnormals too
    mid = (f.astype(np.float64) + np.nextafter(f, np.float32(np.inf)).astype(np.float64)) / 2  # ties to even
    x = np.concatenate([x, mid, np.nextafter(mid, 0), [1 + 2.0 ** -24, 1 + 3 * 2.0 ** -24, 3.5e38, -1e-46,
                                                       3.4028235677973366e38, 3.4028235677973362e38, np.inf,
                                                       -0.0, 2.0 ** -150, 3 * 2.0 ** -150, np.nan]])
    got = (kd.asarray(x).astype(np.float32).astype(np.float64) * 1.0).numpy()
    with np.errstate(over="ignore"):
        expected = x.astype(np.float32).astype(np.float64)
    # a float32 subnormal result may be flushed to a signed zero by the conversion (the H200 does: 142 of these
    # values), a device's float32 subnormal behaviour, not a skipped rounding
    flushed = (got == 0) & (np.abs(expected) < np.finfo(np.float32).tiny)
    got = np.where(flushed, expected, got)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.signbit(got)[:-1], np.signbit(expected)[:-1])
