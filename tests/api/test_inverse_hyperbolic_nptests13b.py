"""float32/float16 ``arcsinh``, ``arccosh``, ``arctanh`` within a few ulps of NumPy's over the whole range
(drivers' textbook forms overflowed past 1.8e19 and gave 0 for small arguments: NumPy's test_umath.py
TestComplexFunctions.test_loss_of_precision compares the real functions with the complex ones)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import kdsl as kd

FUNCS = ["arcsinh", "arccosh", "arctanh"]
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 1e-20, -1e-20, 1e-10, 3e38, -3e38]


def _ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """ulps between float32 arrays (NaN against NaN counts 0; a NaN's sign is not compared)."""
    def key(v):
        i = v.astype(np.float32).view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)
    d = np.abs(key(a) - key(b))
    d[np.isnan(a) & np.isnan(b)] = 0
    return d


def _inputs() -> np.ndarray:
    rng = np.random.default_rng(7)
    mag = 10.0 ** rng.uniform(-38, 38, 600)
    return np.concatenate([mag, -mag, rng.uniform(-3, 3, 300), 1 + 10.0 ** rng.uniform(-7, 0, 100),
                           SPECIAL]).astype(np.float32)


def _numpy(name: str, x: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(np, name)(x)


@pytest.mark.parametrize("name", FUNCS)
def test_float32_within_4_ulps(name):
    x = _inputs()
    got = getattr(kd, name)(kd.asarray(x)).numpy()
    want = _numpy(name, x)
    assert got.dtype == want.dtype
    d = _ulps(got, want)
    assert d.max() <= 4, (x[d.argmax()], got[d.argmax()], want[d.argmax()])
    assert np.array_equal(np.signbit(got[~np.isnan(want)]), np.signbit(want[~np.isnan(want)]))


@pytest.mark.parametrize("name", FUNCS)
def test_float16_rounds_like_numpy(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # 3e38 and 1e30 become float16's inf
        x = np.concatenate([_inputs(), np.arange(-70000, 70000, 97)]).astype(np.float16)
    got = getattr(kd, name)(kd.asarray(x)).numpy()
    want = _numpy(name, x)
    assert got.dtype == np.float16
    close = np.isclose(got.astype(np.float32), want.astype(np.float32), rtol=1e-3, atol=0, equal_nan=True)
    assert close.all(), (x[~close][:4], got[~close][:4], want[~close][:4])


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("shape", [(0,), (1,), (1, 5), (3, 4)])
def test_shapes_and_views(name, shape):
    x = np.linspace(-0.9, 0.9, max(1, int(np.prod(shape))) * 2, dtype=np.float32)[::2]
    x = (x[: int(np.prod(shape))] + (1.5 if name == "arccosh" else 0)).reshape(shape)
    base = kd.asarray(np.ascontiguousarray(x.T))
    got = getattr(kd, name)(base.T).numpy()  # a transposed (non-contiguous) view
    np.testing.assert_allclose(got, _numpy(name, x), rtol=3e-7, atol=0)


@pytest.mark.parametrize("name", FUNCS)
def test_float64_unchanged(name):
    x = _inputs().astype(np.float64)
    got = getattr(kd, name)(kd.asarray(x)).numpy()
    np.testing.assert_allclose(got, _numpy(name, x), rtol=4e-16, atol=0)
