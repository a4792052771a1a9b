"""kd.histogram / kd.histogram_bin_edges against NumPy where the range and the data differ in precision: a range
given as an array of a wider float dtype is compared with the data in that dtype (NumPy scalars are strong), so a
value just outside the range is not counted; equal bins that rounding leaves without width raise NumPy's
"Too many bins" ValueError instead of counting into zero-width bins; an estimator's bins ('auto'...) have
NumPy's edges for float32 data; a device without float64 gets float32 edges instead of a TypeError."""

import numpy as np
import pytest

import kdsl as kd

PAIRS = [(np.float16, np.float32), (np.float16, np.float64), (np.float32, np.float64)]


def _same(got, want):
    np.testing.assert_array_equal(got[0].numpy(), want[0])
    assert got[0].dtype.np == want[0].dtype
    np.testing.assert_array_equal(got[1].numpy(), want[1])
    assert got[1].dtype.np == want[1].dtype


@pytest.mark.parametrize(("small", "large"), PAIRS)
@pytest.mark.parametrize("side", ["lower", "upper"])
def test_range_of_a_wider_dtype(small, large, side):
    eps = np.finfo(large).eps
    rng = np.array([1.0 + eps, 2.0] if side == "lower" else [0.0, 1.0 - eps], large)
    data = np.array([1.0, 1.5, 0.5, np.nan, np.inf], small)
    want = np.histogram(data, bins=3, range=rng)
    _same(kd.histogram(kd.asarray(data), bins=3, range=rng), want)


@pytest.mark.parametrize(("small", "large"), PAIRS)
def test_range_of_a_wider_dtype_non_contiguous(small, large):
    eps = np.finfo(large).eps
    data = np.array([[1.0, 9.0], [1.25, 9.0], [2.0, 9.0], [-1.0, 9.0]], small)
    rng = (large(1.0 + eps), large(2.0))
    want = np.histogram(data[::-1, 0], bins=2, range=rng, weights=np.arange(4.0))
    got = kd.histogram(kd.asarray(data)[::-1, 0], bins=2, range=rng, weights=kd.asarray(np.arange(4.0)))
    _same(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("rng", [(0.25, 0.75), (np.float64(0.25), np.float64(0.75)), None])
def test_python_and_numpy_ranges_unchanged(dtype, rng):
    data = (np.arange(12).reshape(3, 4) / (11.0 if dtype != np.int32 else 1)).astype(dtype)
    want = np.histogram(data, bins=4, range=rng)
    _same(kd.histogram(kd.asarray(data), bins=4, range=rng), want)


def test_empty_and_size_one():
    for data in (np.zeros(0, np.float16), np.ones(1, np.float16)):
        rng = np.array([1.0 + np.finfo(np.float32).eps, 2.0], np.float32)
        _same(kd.histogram(kd.asarray(data), bins=2, range=rng), np.histogram(data, bins=2, range=rng))


@pytest.mark.parametrize("bins", [10, "sqrt", "sturges"])
def test_too_many_bins(bins):
    data = np.array([1, 1 + 2e-16] * 10)
    with pytest.raises(ValueError, match="Too many bins for data range. Cannot create") as want:
        np.histogram(data, bins=bins)
    with pytest.raises(ValueError, match="Too many bins for data range. Cannot create") as got:
        kd.histogram(kd.asarray(data), bins=bins)
    assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="Too many bins"):
        kd.histogram_bin_edges(kd.asarray(data), bins=bins)


def test_too_many_bins_for_a_float32_range():
    data = np.array([1.0, np.nextafter(np.float32(1), np.float32(2))] * 3, np.float32)
    with pytest.raises(ValueError, match="Cannot create 4 finite-sized bins"):
        np.histogram(data, bins=4)
    with pytest.raises(ValueError, match="Cannot create 4 finite-sized bins"):
        kd.histogram(kd.asarray(data), bins=4)
    _same(kd.histogram(kd.asarray(data), bins=1), np.histogram(data, bins=1))


@pytest.mark.parametrize("bins", ["auto", "fd", "sturges", "stone", "sqrt"])
@pytest.mark.parametrize("rng", [None, (0, 2), (np.float32(0.1), np.float32(2.5))], ids=["data", "int", "f4"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_estimator_edges_as_numpy(bins, rng, dtype):
    """An estimator's equal bins span NumPy's outer edges in their own dtype (histogram re-derived them from
    its float32 edges as Python floats: one ulp off NumPy's and kd.histogram_bin_edges' edges)."""
    data = np.array([0.25, 0.5, 1.0, 3.0, 1.75, 0.3], dtype)
    want = np.histogram(data, bins=bins, range=rng)
    _same(kd.histogram(kd.asarray(data), bins=bins, range=rng), want)
    _same(kd.histogram(kd.asarray(data)[::2], bins=bins, range=rng), np.histogram(data[::2], bins=bins, range=rng))
    edges = kd.histogram_bin_edges(kd.asarray(data), bins=bins, range=rng)
    np.testing.assert_array_equal(edges.numpy(), want[1])


@pytest.mark.parametrize("data", [np.array([0.25, 0.5, 1.0, 3.0], np.float32), np.array([0, 1, 1, 3, 7], np.int32),
                                  np.array([5, 5], np.int16)], ids=["f4", "i4", "equal"])
@pytest.mark.parametrize("kw", [{"range": (np.float64(0.0), np.float64(1.0))}, {"range": (0, 4)}, {},
                                {"bins": "auto"}, {"density": True}], ids=["f8range", "intrange", "none", "auto",
                                                                           "density"])
def test_without_float64(monkeypatch, data, kw):
    """A device without float64 (MoltenVK's): the edges NumPy makes float64 are float32 (they raised TypeError
    for the float64 upload), the counts NumPy's."""
    want = np.histogram(data, **{"bins": 2, **kw})
    d = kd.device()
    monkeypatch.setattr(d, "features", d.features - {"float64"})
    got = kd.histogram(kd.asarray(data), **{"bins": 2, **kw})
    assert got[1].dtype == kd.float32
    np.testing.assert_allclose(got[0].numpy(), want[0], rtol=1e-6)
    np.testing.assert_allclose(got[1].numpy(), want[1].astype(np.float32), rtol=1e-6)
    edges = kd.histogram_bin_edges(kd.asarray(data), **{"bins": 2, **{k: v for k, v in kw.items() if k != "density"}})
    np.testing.assert_array_equal(edges.numpy(), got[1].numpy())
