"""Float powers fused into one kernel, nested and side by side, against NumPy.

Written when ``kd.power.reduce`` (three or more float powers fused into one kernel) disagreed with NumPy on
the H200 machine: the next GPU run showed kdsl's values were right there too and NumPy's own float
``power.reduce`` was wrong on that machine's CPU. The fused chains stay in the suite on every device.
"""

import numpy as np
import pytest

import kdsl as kd


def _operands(dtype, k):
    rng = np.random.default_rng(k)
    return [(rng.random(6) * 1.5 + 0.5).astype(dtype) for _ in range(k)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("depth", [2, 3, 4, 6])
def test_nested_powers_in_one_kernel(dtype, depth):
    """((x0 ** x1) ** x2) ** ... computed as one fused expression."""
    if not kd.device().supports(kd.dtype(dtype)):
        pytest.skip("no float64 on this device")
    xs = _operands(dtype, depth + 1)
    want, got = xs[0], kd.asarray(xs[0])
    for x in xs[1:]:
        want, got = np.power(want, x), kd.power(got, kd.asarray(x))
    np.testing.assert_allclose(got.numpy(), want, rtol=2e-5 if dtype == np.float32 else 1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_powers_side_by_side_in_one_kernel(dtype):
    """x0 ** x1 + x2 ** x3 + x4 ** x5 + x6 ** x7: four powers, none an operand of another."""
    if not kd.device().supports(kd.dtype(dtype)):
        pytest.skip("no float64 on this device")
    xs = _operands(dtype, 8)
    want = sum(np.power(xs[i], xs[i + 1]) for i in range(0, 8, 2))
    got = sum(kd.power(kd.asarray(xs[i]), kd.asarray(xs[i + 1])) for i in range(0, 8, 2))
    np.testing.assert_allclose(got.numpy(), want, rtol=2e-5 if dtype == np.float32 else 1e-12)
