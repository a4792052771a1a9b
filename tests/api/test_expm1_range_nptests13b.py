"""float32 ``kd.expm1`` stays finite up to NumPy's overflow threshold (88.72): its last step multiplied
``(e^x - 1) * x`` before dividing by ``log(e^x)``, which overflowed for x in (44, 88.7) (NumPy's test_umath.py
TestSpecialFloats.test_expm1 ranges)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import kdsl as kd


def _numpy_expm1(x: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.expm1(x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_large_arguments_finite(dtype):
    x = np.concatenate([np.linspace(40, 88.7, 500), [88.72, 89.0, 1e3, np.inf, -np.inf, np.nan, -0.0, 0.0,
                                                      -88.0, -1e3]]).astype(dtype)
    got = kd.expm1(kd.asarray(x)).numpy()
    want = _numpy_expm1(x)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(np.isfinite(got), np.isfinite(want))
    # the driver's exp is ~60 ulps off near float32's overflow; what matters is no spurious inf
    np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == np.float32 else 1e-14)
    assert np.signbit(got[x == 0]).tolist() == np.signbit(want[x == 0]).tolist()


@pytest.mark.parametrize("shape", [(0,), (1,), (2, 3)])
def test_views_and_shapes(shape):
    x = np.linspace(86, 88.5, 2 * max(1, int(np.prod(shape))), dtype=np.float32)[::2][: int(np.prod(shape))]
    x = x.reshape(shape)
    got = kd.expm1(kd.asarray(np.ascontiguousarray(x.T)).T).numpy()  # a transposed view
    np.testing.assert_allclose(got, _numpy_expm1(x), rtol=1e-5)


def test_float16_unchanged():
    x = np.linspace(-12, 11, 301).astype(np.float16)
    got = kd.expm1(kd.asarray(x)).numpy()
    np.testing.assert_allclose(got.astype(np.float32), _numpy_expm1(x).astype(np.float32), rtol=1e-3)
