"""NumPy masked-array programs with ``np`` replaced by ``kd``: the same code runs on both and agrees."""

import numpy as np
import pytest
from ma_testing import assert_same

import kdsl as kd


def _program(xp, data):
    x = xp.ma.masked_invalid(data)
    x[x > 4.0] = xp.ma.masked  # outliers
    x = xp.ma.masked_where(x < -4.0, x)
    x += 1.0
    centred = x - x.mean(axis=0)
    z = centred / x.std(axis=0, ddof=1)
    daily = xp.ma.concatenate([x.sum(axis=1, keepdims=True), x.count(axis=1, keepdims=True) + 0.0], axis=1)
    return z, daily, x.max(), x.argmax(), xp.ma.getmaskarray(z).sum(), z.filled(0.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_anomaly_program(dtype):
    rng = np.random.default_rng(3)
    data = (rng.standard_normal((12, 5)) * 3).astype(dtype)
    data[rng.random((12, 5)) < 0.1] = np.nan
    data[0, 2] = np.inf
    data[:, 4] = np.nan  # a fully masked column
    expected = _program(np, data)
    got = _program(kd, kd.asarray(data))
    for g, e in zip(got[:2], expected[:2], strict=True):
        assert_same(g, e, rtol=2e-5, atol=2e-5, check_dtype=False)
    assert float(got[2]) == pytest.approx(float(expected[2]), rel=1e-6)
    assert int(got[3]) == int(expected[3])
    assert int(got[4]) == int(expected[4])
    np.testing.assert_allclose(got[5].numpy(), expected[5], rtol=2e-5, atol=2e-5)


def test_namespace():
    assert [n for n in kd.ma.__all__ if not hasattr(kd.ma, n)] == []
    assert "ma" in kd.__all__
    common = ["MaskedArray", "masked_array", "array", "masked", "nomask", "MaskError", "MaskType", "getmask",
              "getmaskarray", "getdata", "is_masked", "isMaskedArray", "isMA", "make_mask", "mask_or", "filled",
              "compressed", "count", "count_masked", "fix_invalid", "where", "concatenate", "stack", "zeros",
              "ones", "empty", "arange", "sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax",
              "any", "all", "ptp", "sqrt", "log", "exp", "divide", "add", "masked_where", "masked_invalid",
              "masked_equal", "masked_not_equal", "masked_greater", "masked_greater_equal", "masked_less",
              "masked_less_equal", "masked_inside", "masked_outside", "masked_values"]
    assert [n for n in common if not hasattr(np.ma, n)] == []  # the names are NumPy's
    assert [n for n in common if not hasattr(kd.ma, n)] == []
