"""``np.cumsum(a, dtype=bool)``, ``cumprod(..., dtype=bool)``, ``nancumsum``/``cumulative_sum`` with a bool dtype:
NumPy adds bools as ``or`` and multiplies them as ``and``; kdsl's scan failed to compile (GLSL has no ``+`` of
bools: ShaderCompileError)."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("func", ["cumsum", "cumprod", "nancumsum", "nancumprod"])
@pytest.mark.parametrize("data,axis", [([0, 3, 0, 1], None), ([[0.5, 0.0, np.nan], [0.0, 0.0, 2.0]], 1),
                                       ([[False, True], [False, False]], 0), ([1j, 0j, 2.0], 0)])
def test_bool_dtype_scan_as_numpys(func, data, axis):
    a = np.array(data)
    want = getattr(np, func)(a, axis=axis, dtype=bool)
    got = getattr(kd, func)(kd.asarray(a), axis=axis, dtype=bool)
    assert got.dtype == kd.bool_
    np.testing.assert_array_equal(got.numpy(), want)


def test_bool_dtype_method_out_and_cumulative_sum():
    a = np.array([0, 2, 0, 0])
    np.testing.assert_array_equal(kd.asarray(a).cumsum(dtype=bool).numpy(), a.cumsum(dtype=bool))
    out = kd.zeros(4, dtype=kd.bool_)
    kd.cumprod(kd.asarray(a + 1), dtype=bool, out=out)
    np.testing.assert_array_equal(out.numpy(), np.cumprod(a + 1, dtype=bool))
    np.testing.assert_array_equal(kd.cumulative_sum(kd.asarray(a), dtype=bool, include_initial=True).numpy(),
                                  np.cumulative_sum(a, dtype=bool, include_initial=True))
