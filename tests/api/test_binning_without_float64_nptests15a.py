"""kd.digitize, kd.histogram and kd.histogramdd with host float bins (lists, float64 NumPy arrays) or integer data
(NumPy: float64 edges) on a device without float64 (MoltenVK's): the bins are float32 there and the answers are
NumPy's (the float64 uploads and comparisons raised TypeError). Devices with float64 keep NumPy's float64."""

import numpy as np
import pytest

import kdsl as kd

X = np.array([-1.0, 0.0, 0.5, 1.0, 1.5, 2.5, 9.0, np.nan, np.inf], np.float32)
BINS = [[0.0, 1.0, 2.5], [2.5, 1.0, 0.0], np.array([0.0, 0.5, 4.0]), [1.0], [0.0, 1.0, 1.0, 3.0]]


@pytest.fixture
def no_float64(monkeypatch):
    d = kd.device()
    monkeypatch.setattr(d, "features", d.features - {"float64"})


@pytest.mark.parametrize("bins", BINS, ids=str)
@pytest.mark.parametrize("right", [False, True])
def test_digitize(no_float64, bins, right):
    want = np.digitize(X, np.asarray(bins, np.float32), right=right)
    np.testing.assert_array_equal(kd.digitize(kd.asarray(X), bins, right=right).numpy(), want)
    np.testing.assert_array_equal(kd.digitize(kd.asarray(X)[::2], bins, right=right).numpy(), want[::2])


@pytest.mark.parametrize("bins", [b for b in BINS if np.all(np.diff(b) >= 0)], ids=str)
def test_histogram_edges(no_float64, bins):
    want = np.histogram(X[np.isfinite(X)], bins=np.asarray(bins, np.float32))
    got = kd.histogram(kd.asarray(X), bins=bins)
    np.testing.assert_array_equal(got[0].numpy(), want[0])
    assert got[1].dtype == kd.float32
    np.testing.assert_array_equal(got[1].numpy(), want[1])


def test_empty_and_float64_devices_unchanged():
    np.testing.assert_array_equal(kd.digitize(kd.asarray(np.zeros(0, np.float32)), [0.0, 1.0]).numpy(),
                                  np.digitize(np.zeros(0, np.float32), [0.0, 1.0]))
    x = np.array([1.0 + 2 ** -40, 1.0])  # needs the float64 bins to tell apart
    np.testing.assert_array_equal(kd.digitize(kd.asarray(x), [1.0, 1.0 + 2 ** -40]).numpy(),
                                  np.digitize(x, [1.0, 1.0 + 2 ** -40]))


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32])
@pytest.mark.parametrize("bins", [2, [3, [0, 1.5, 3.0]], [np.array([0.0, 2.0, 9.0]), 2]], ids=["2", "mixed", "f8"])
def test_histogramdd(no_float64, dtype, bins):
    """histogram2d/histogramdd of integer data or host float64 edges: float32 edges, NumPy's counts."""
    a = np.array([0, 3, 1, 2, 2, 7], dtype)
    b = a[::-1].copy()
    want = np.histogramdd(np.stack([a, b], axis=1), bins=bins)
    got = kd.histogramdd(kd.stack([kd.asarray(a), kd.asarray(b)], axis=1), bins=bins)
    np.testing.assert_array_equal(got[0].numpy(), want[0])
    for e, w in zip(got[1], want[1], strict=True):
        assert e.dtype == kd.float32
        np.testing.assert_allclose(e.numpy(), w, rtol=1e-6)
    got2 = kd.histogram2d(kd.asarray(a), kd.asarray(a)[::-1], bins=bins)
    np.testing.assert_array_equal(got2[0].numpy(), want[0])
