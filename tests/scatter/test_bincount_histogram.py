"""kd.bincount and kd.histogram (equal bins) against NumPy."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("dtype", ["int32", "uint8", "int64"])
def test_bincount(dtype):
    x = np.random.default_rng(4).integers(0, 30, 500).astype(dtype)
    got = kd.bincount(kd.asarray(x))
    assert got.dtype.np == np.bincount(x).dtype
    np.testing.assert_array_equal(got.numpy(), np.bincount(x))
    np.testing.assert_array_equal(kd.bincount(x, minlength=40).numpy(), np.bincount(x, minlength=40))


def test_bincount_weights():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 20, 300)
    w = rng.standard_normal(300)
    got = kd.bincount(kd.asarray(x), weights=kd.asarray(w), minlength=25)
    np.testing.assert_allclose(got.numpy(), np.bincount(x, weights=w, minlength=25), rtol=1e-12, atol=1e-12)
    wi = rng.integers(0, 5, 300).astype(np.int32)
    np.testing.assert_array_equal(kd.bincount(x, weights=wi).numpy(), np.bincount(x, weights=wi))


def test_bincount_edges():
    np.testing.assert_array_equal(kd.bincount(kd.asarray(np.zeros(0, np.int32))).numpy(), np.bincount([]))
    np.testing.assert_array_equal(kd.bincount([], minlength=3).numpy(), np.bincount([], minlength=3))
    with pytest.raises(ValueError, match="negative"):
        kd.bincount(kd.asarray([1, -1]))


@pytest.mark.parametrize("dtype", ["int32", "uint8", "int64"])
@pytest.mark.parametrize("weights", [np.zeros(0), np.zeros(0, np.float32), np.zeros(0, np.int32), [1.0]])
@pytest.mark.parametrize("minlength", [0, 1, 3])
def test_bincount_of_nothing_is_int_counts_whatever_the_weights(dtype, weights, minlength):
    # NumPy returns before it reads the weights: int64 zeros (numpy-100's D_sums = np.bincount(S, weights=D))
    e = np.bincount(np.zeros(0, dtype), weights=weights, minlength=minlength)
    for x in (np.zeros(0, dtype), np.arange(4, dtype=dtype)[4:], np.zeros((2, 0), dtype)[0]):
        for w in (weights, kd.asarray(np.asarray(weights))):
            got = kd.bincount(kd.asarray(x), weights=w, minlength=minlength)
            assert got.dtype.np == e.dtype and got.shape == e.shape
            np.testing.assert_array_equal(got.numpy(), e)


def test_bincount_edges_errors():
    with pytest.raises(TypeError, match="Cannot cast"):
        kd.bincount(kd.asarray([1.0]))
    with pytest.raises(ValueError, match="same length"):
        kd.bincount([0, 1], weights=[1.0])


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
@pytest.mark.parametrize("bins", [1, 7, 10])
def test_histogram(dtype, bins):
    rng = np.random.default_rng(6)
    a = (rng.standard_normal(1000) * 10).astype(dtype)
    a[:5] = a.max()  # values on the closed last edge
    got, edges = kd.histogram(kd.asarray(a), bins=bins)
    want, wedges = np.histogram(a, bins=bins)
    assert edges.dtype.np == wedges.dtype and got.dtype.np == want.dtype
    np.testing.assert_array_equal(edges.numpy(), wedges)
    np.testing.assert_array_equal(got.numpy(), want)
    got, edges = kd.histogram(kd.asarray(a), bins=bins, range=(-5, 5.5))
    want, wedges = np.histogram(a, bins=bins, range=(-5, 5.5))
    np.testing.assert_array_equal(edges.numpy(), wedges)
    np.testing.assert_array_equal(got.numpy(), want)


def test_histogram_weights_nan_and_constant():
    rng = np.random.default_rng(7)
    a = rng.random(200).astype(np.float32)
    w = rng.random(200).astype(np.float32)
    got, _ = kd.histogram(kd.asarray(a), bins=5, weights=kd.asarray(w))
    want, _ = np.histogram(a, bins=5, weights=w)
    assert got.dtype.np == want.dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    a[3] = np.nan
    np.testing.assert_array_equal(kd.histogram(kd.asarray(a), 4, range=(0, 1))[0].numpy(),
                                  np.histogram(a, 4, range=(0, 1))[0])
    with pytest.raises(ValueError, match="not finite"):
        kd.histogram(kd.asarray(a))
    c = np.full(5, 2.0)
    for got_x, want_x in zip(kd.histogram(kd.asarray(c), 3), np.histogram(c, 3), strict=True):
        np.testing.assert_array_equal(got_x.numpy(), want_x)
    e = np.zeros(0, np.float64)
    for got_x, want_x in zip(kd.histogram(kd.asarray(e), 2), np.histogram(e, 2), strict=True):
        np.testing.assert_array_equal(got_x.numpy(), want_x)


def test_histogram_bad_arguments():
    with pytest.raises(ValueError, match="increase monotonically"):
        kd.histogram(kd.asarray([1.0]), bins=[1.0, 0.0])
    with pytest.raises(TypeError, match="must be an integer"):
        kd.histogram(kd.asarray([1.0]), bins=2.5)
    with pytest.raises(ValueError, match="positive"):
        kd.histogram(kd.asarray([1.0]), bins=0)
    with pytest.raises(ValueError, match="larger"):
        kd.histogram(kd.asarray([1.0]), range=(2, 1))
