"""kd.searchsorted on a device without float64 (MoltenVK's): host float64 data (NumPy arrays, np.float64 scalars)
and NumPy's float64 comparisons (int arrays against floats) run in float32 there, with NumPy's answers where
float32 tells the values apart (they raised TypeError). Devices with float64 keep NumPy's float64."""

import numpy as np
import pytest

import kdsl as kd

A32 = np.array([-np.inf, 0.0, 1.0, 2.5, 2.5, 7.0, np.inf, np.nan], np.float32)
AINT = np.array([-3, 1, 3, 3, 5, 100], np.int32)


@pytest.fixture
def no_float64(monkeypatch):
    d = kd.device()
    monkeypatch.setattr(d, "features", d.features - {"float64"})


def _check(a, v, **kw):
    want = np.searchsorted(np.asarray(a), np.asarray(v) if isinstance(v, list) else v, **kw)
    got = kd.searchsorted(kd.asarray(a) if isinstance(a, np.ndarray) and a.dtype != np.float64 else a, v, **kw)
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("v", [
    np.array([0.5, 2.5, 3.0, np.nan, -np.inf, np.inf]), np.float64(2.5), np.zeros(0), np.array([[1.0], [7.0]]),
    np.arange(12.0)[::-3], [2.5, np.nan], 2.5,
], ids=["f8", "np.float64", "empty", "2d", "strided", "list", "py-float"])
def test_float64_values(no_float64, v, side):
    _check(A32, v, side=side)
    _check(AINT, v, side=side)  # NumPy compares int32 with float64 in float64: float32 here


@pytest.mark.parametrize("side", ["left", "right"])
def test_float64_host_a_and_sorter(no_float64, side):
    a = np.array([7.0, -1.0, 2.5, np.nan, 0.0])
    sorter = np.argsort(a, kind="stable")
    _check(a[sorter], [0.0, 2.5, 10.0], side=side)
    got = kd.searchsorted(a, [0.0, 2.5, 10.0], side=side, sorter=sorter)
    np.testing.assert_array_equal(np.asarray(got), np.searchsorted(a, [0.0, 2.5, 10.0], side=side, sorter=sorter))
    one = np.array([1.0])
    _check(one, np.array([0.0, 1.0, 2.0]), side=side)


def test_int64_and_float16_data(no_float64):
    _check(np.array([1, 3, 5], np.int64), np.array([2.5, 5.0]))
    _check(np.array([1, 3, 5], np.float16), np.float64(3.0), side="right")


def test_float64_devices_unchanged():
    if not kd.device().supports(kd.float64):
        pytest.skip("the device has no float64")
    a = np.array([1.0, 1.0 + 2.0**-40, 2.0])  # needs float64 to tell apart
    got = kd.searchsorted(kd.asarray(a), np.array([1.0 + 2.0**-41]))
    assert got.tolist() == np.searchsorted(a, [1.0 + 2.0**-41]).tolist() == [1]
    assert kd.searchsorted(kd.asarray(a), np.float64(1.0 + 2.0**-40)).item() == 1
