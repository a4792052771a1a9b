"""kd.histogram / kd.histogram_bin_edges against NumPy where the range and the data differ in precision: a range
given as an array of a wider float dtype is compared with the data in that dtype (NumPy scalars are strong), so a
value just outside the range is not counted; and equal bins that rounding leaves without width raise NumPy's
"Too many bins" ValueError instead of counting into zero-width bins."""

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
