"""kd.bincount's weighted sums as NumPy's: host weights (lists, NumPy arrays) are summed in float64, as NumPy
casts them to double (a list of Python floats was uploaded as kdsl's float32 default first: ``0.3 + 0.2`` gave
0.50000001); and each bin's sum depends on its own weights only (the sums were differences of one running total,
so ``bincount([0, 1], [1e16, 1.0])`` gave ``[1e16, 0]`` and ``0.3 + 0.2`` gave 0.49999999999999994). The same
sums serve kd.histogram's weights. Boolean input counts False and True as bins 0 and 1, as NumPy's."""

import numpy as np
import pytest

import kdsl as kd

X = [1, 2, 4, 5, 2]
W = [0.2, 0.3, 0.5, 0.1, 0.2]


@pytest.mark.parametrize("weights", [W, tuple(W), np.array(W), np.array(W, np.float32), [1, 2, 3, 4, 2 ** 60 + 1],
                                     [True, False, True, True, False], [0.1, np.nan, np.inf, -np.inf, 1e300]],
                         ids=["list", "tuple", "f8", "f4", "bigint", "bool", "nonfinite"])
@pytest.mark.parametrize("minlength", [0, 9])
def test_host_weights_exact(weights, minlength):
    want = np.bincount(X, weights=weights, minlength=minlength)
    for x in (X, kd.asarray(np.array(X))):
        got = kd.bincount(x, weights=weights, minlength=minlength)
        assert got.dtype.np == want.dtype
        np.testing.assert_array_equal(got.numpy(), want)


def test_non_contiguous_and_size_one():
    xs = np.array([[3, 0], [1, 0], [3, 0]])
    want = np.bincount(xs[:, 0], weights=[0.1, 0.7, 0.2])
    np.testing.assert_array_equal(kd.bincount(kd.asarray(xs)[:, 0], weights=[0.1, 0.7, 0.2]).numpy(), want)
    np.testing.assert_array_equal(kd.bincount([2], weights=[0.1]).numpy(), np.bincount([2], weights=[0.1]))


def test_empty_and_refusals():
    want = np.bincount(np.zeros(0, np.int64), weights=[], minlength=3)
    got = kd.bincount(kd.asarray(np.zeros(0, np.int64)), weights=[], minlength=3)
    assert got.dtype.np == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)
    with pytest.raises(TypeError):
        np.bincount(X, weights=[1j, 2, 3, 4, 5])
    with pytest.raises(TypeError):
        kd.bincount(X, weights=[1j, 2, 3, 4, 5])
    with pytest.raises(ValueError):
        kd.bincount(X, weights=W[:3])


def test_kdsl_weights_keep_their_values():
    w32 = kd.asarray(np.array(W, np.float32))
    want = np.bincount(X, weights=np.array(W, np.float32))
    np.testing.assert_array_equal(kd.bincount(X, weights=w32).numpy(), want)


@pytest.mark.parametrize("wdtype", [np.float64, np.float32])
def test_each_bin_rounds_alone(wdtype):
    x = np.array([0, 3, 1, 1, 2, 3, 0, 4, 4, 4])  # the run of three sums exactly (NumPy adds in order)
    w = np.array([1e16 if wdtype == np.float64 else 1e8, 1.0, 0.3, 0.2, 3.0, -1.0, 1.0, 0.5, 0.25, -0.125], wdtype)
    want = np.bincount(x, weights=w)
    np.testing.assert_array_equal(kd.bincount(kd.asarray(x), weights=kd.asarray(w)).numpy(), want)
    np.testing.assert_array_equal(kd.bincount(kd.asarray(x)[::-1], weights=kd.asarray(w)[::-1]).numpy(),
                                  np.bincount(x[::-1], weights=w[::-1]))


def test_non_finite_weights_stay_in_their_bin():
    x = np.array([0, 0, 1, 1, 2, 3, 3, 5])
    w = np.array([np.inf, -np.inf, np.nan, 1.0, np.inf, -np.inf, 2.0, 1.5])
    np.testing.assert_array_equal(kd.bincount(kd.asarray(x), weights=kd.asarray(w)).numpy(),
                                  np.bincount(x, weights=w))


@pytest.mark.parametrize("wdtype", [np.float64, np.float32])
def test_histogram_weights(wdtype):
    a = np.array([0.5, 1.5, 1.5, 2.5, 0.25, 9.0])
    w = np.array([1e16 if wdtype == np.float64 else 1e8, 0.3, 0.2, 1.0, -1.0, 5.0], wdtype)
    want = np.histogram(a, bins=3, range=(0, 3), weights=w)
    got = kd.histogram(kd.asarray(a), bins=3, range=(0, 3), weights=kd.asarray(w))
    assert got[0].dtype.np == want[0].dtype
    np.testing.assert_array_equal(got[0].numpy(), want[0])


@pytest.mark.parametrize("x", [np.array([True, False, True]), np.array([False]), np.zeros(0, bool),
                               np.array([[True, False], [True, True]])[:, 1]], ids=["mixed", "one", "empty", "view"])
@pytest.mark.parametrize("minlength", [0, 4])
@pytest.mark.parametrize("weighted", [False, True])
def test_boolean_input(x, minlength, weighted):
    """NumPy casts booleans safely to its index type: False and True are bins 0 and 1 (kdsl refused them)."""
    w = np.linspace(0.5, 2.0, x.size) if weighted else None
    want = np.bincount(x, weights=w, minlength=minlength)
    for xs in (x, kd.asarray(x)):
        got = kd.bincount(xs, weights=w, minlength=minlength)
        assert got.dtype.np == want.dtype
        np.testing.assert_array_equal(got.numpy(), want)
