"""Wrong answers found by porting NumPy code, each fixed in the scheduler or the renderer."""

import numpy as np
import pytest

import kdsl as kd


def test_reduction_read_at_other_positions_is_not_an_epilogue():
    """``M / diag(M)``: the division reads the matmul at its own position and, through a strided view, at the
    diagonal. Absorbing it as the matmul's epilogue inlined the reduction and failed (or read wrong values)."""
    m = np.arange(9, dtype=np.float32).reshape(3, 3) / 10 + np.eye(3, dtype=np.float32)
    M = kd.asarray(m) @ kd.asarray(m)
    d = M.reshape(-1)[::4]
    mm = m @ m
    dn = mm.reshape(-1)[::4]
    np.testing.assert_allclose((M / d.reshape(-1, 1) / d.reshape(1, -1)).numpy(),
                               mm / dn.reshape(-1, 1) / dn.reshape(1, -1), rtol=1e-5)
    np.testing.assert_allclose((M * 0.5 / kd.sqrt(d).reshape(-1, 1)).numpy(), mm * 0.5 / np.sqrt(dn).reshape(-1, 1),
                               rtol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_epilogue_not_absorbed_when_its_inputs_are_read_elsewhere(dtype):
    """scikit-learn's logistic loss: ``raw = X @ w + b`` feeds a kept ``e = exp(raw)`` and, elsewhere,
    ``where(raw <= c, e, log1p(e)) - y * raw``. Absorbing ``exp`` as the product's epilogue dropped the stored
    product while the second kernel still inlined ``raw`` (the reduction): GLSL compile error."""
    rng = np.random.default_rng(0)
    x, w, y = rng.standard_normal((30, 10)).astype(dtype), rng.standard_normal(10).astype(dtype), \
        rng.standard_normal(30).astype(dtype)

    def loss(xp, X, W, Y):
        raw = X @ W + 0.5
        e = xp.exp(raw)
        return xp.sum(xp.where(raw <= -2.0, e, xp.log1p(e)) - Y * raw), e / (1.0 + e)

    want, grad = loss(np, x, w, y)
    got, kgrad = loss(kd, kd.asarray(x), kd.asarray(w), kd.asarray(y))
    np.testing.assert_allclose(float(got), want, rtol=1e-4)
    np.testing.assert_allclose(kgrad.numpy(), grad, rtol=1e-4)
    # The same shape through a plain reduction seen through a reshape.
    m = kd.asarray(x).reshape(1, 30, 10).sum(axis=2).reshape(30) + 0.5
    e = kd.exp(m)
    h = x.sum(1) + 0.5
    np.testing.assert_allclose(float(kd.sum(kd.log1p(e) - m)), np.sum(np.log1p(np.exp(h)) - h), rtol=1e-4)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_x_minus_x_is_nan_for_nan_and_inf(dtype):
    """A shader compiler may fold ``x - x`` to 0; IEEE (and NumPy) give NaN for NaN and inf."""
    h = np.array([np.nan, np.inf, -np.inf, 1.5, -0.0], dtype)
    x = kd.asarray(h)
    with np.errstate(invalid="ignore"):
        for got, want in [(x - x, h - h), (x + (-x), h + (-h)), ((x * 2) - (x * 2), (h * 2) - (h * 2))]:
            np.testing.assert_array_equal(got.numpy(), want)


def test_many_random_draws_in_one_expression():
    """Each draw takes three push-constant words; past the device's push space the keys are baked into the
    kernel (as scalars are) instead of overflowing maxPushConstantsSize. Fused or realised one by one, the same
    seeded draws give the same numbers."""
    fused = kd.random.default_rng(7)
    total = fused.standard_normal(8)
    for _ in range(13):
        total = total + fused.standard_normal(8)
    alone = kd.random.default_rng(7)
    expected = alone.standard_normal(8).numpy()
    for _ in range(13):
        expected = expected + alone.standard_normal(8).numpy()
    np.testing.assert_array_equal(total.numpy(), expected)
