"""A float16 (or 8/16-bit integer) row reduction read by the same row's elementwise output, as in a float16
softmax ``e / e.sum(axis=-1, keepdims=True)``, reads the sum NumPy's float16 result holds (folded in float32,
rounded once to float16): the fused row kernel read the float32 fold, so ``[0.1353, 0.3679, 1.0] / its sum``
gave 0.665 where NumPy gives 0.6655 (kdsl/codegen/rownorm.py)."""

import numpy as np
import pytest

import kdsl as kd

# short rows run one invocation per row, long ones a workgroup per row
SHAPES = [(3,), (1, 5), (4, 1), (6, 7), (2, 700), (3, 2, 33), (0, 4), (5, 0)]


def _exact_halves(shape, seed):
    """float16 values k/64: every float32 sum of them is exact in any order, so NumPy's float16 sum is the
    exact sum rounded once, and a consumer of the unrounded fold differs from it."""
    k = np.random.default_rng(seed).integers(1, 200, shape)
    return (k / 64).astype(np.float16)


@pytest.mark.parametrize("shape", SHAPES)
def test_divided_by_its_row_sum(shape):
    a = _exact_halves(shape, 1)
    expected = a / a.sum(axis=-1, keepdims=True)
    got = kd.asarray(a) / kd.asarray(a).sum(axis=-1, keepdims=True)
    assert got.dtype == kd.float16
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("shape", [(6, 7), (2, 700), (3, 40)])
def test_minus_its_row_mean_and_on_views(shape):
    a = _exact_halves(shape, 2)
    x = kd.asarray(a)
    np.testing.assert_array_equal((x - x.mean(axis=-1, keepdims=True)).numpy(), a - a.mean(axis=-1, keepdims=True))
    v, ref = x[::-1, ::2], a[::-1, ::2]  # a non-contiguous view
    np.testing.assert_array_equal((v * v.sum(axis=1, keepdims=True)).numpy(), ref * ref.sum(axis=1, keepdims=True))
    np.testing.assert_array_equal((v.T / v.T.sum(axis=0)).numpy(), ref.T / ref.T.sum(axis=0))


def test_overflowing_and_non_finite_rows():
    a = np.array([[60000, 30000, 1], [1, np.nan, 2], [np.inf, 1, 1], [-np.inf, np.inf, 0]], np.float16)
    with np.errstate(all="ignore"):
        expected = a / a.sum(axis=1, keepdims=True)  # the first row's sum is inf in float16: zeros and NaN
    got = kd.asarray(a) / kd.asarray(a).sum(axis=1, keepdims=True)
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("n", [5, 300])
def test_float16_softmax(n):
    z = np.random.default_rng(3).normal(0, 2, (4, n)).astype(np.float16)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    expected = e / e.sum(axis=1, keepdims=True)
    x = kd.asarray(z)
    ek = kd.exp(x - x.max(axis=1, keepdims=True))
    got = (ek / ek.sum(axis=1, keepdims=True)).numpy()
    assert got.dtype == np.float16
    # exp's own float16 rounding may differ by an ulp (libm's float vs the device's)
    np.testing.assert_allclose(got.astype(np.float32), expected.astype(np.float32), rtol=2e-3, atol=1e-6)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16"])
def test_narrow_integer_row_sums(dtype):
    a = np.random.default_rng(4).integers(0, 100, (5, 9)).astype(dtype)
    with np.errstate(all="ignore"):
        expected = a.astype(np.float32) / a.sum(axis=1, keepdims=True, dtype=dtype)
    x = kd.asarray(a)
    got = x.astype(kd.float32) / x.sum(axis=1, keepdims=True, dtype=dtype)
    np.testing.assert_array_equal(got.numpy(), expected)
