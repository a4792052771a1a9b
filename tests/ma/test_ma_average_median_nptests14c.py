"""kd.ma.average and kd.ma.median against numpy.ma: average's masked weights leave their entries out (kd.ma used
their data), weights shaped as the reduced axes of a tuple ``axis`` (a broadcast error before) and NumPy's errors
for mismatched weights; median over a tuple of axes (TypeError before), NaN propagation among unmasked entries (a
number before) and ``out=`` (ignored before). Several shapes, dtypes, masks, views, NaN and inf."""

import numpy as np
import pytest
from ma_testing import assert_same, pair

import kdsl as kd

CASES = [((3, 4), np.float32, "some", "contiguous"), ((2, 3, 5), np.float64, "some", "strided"),
         ((4, 3), np.int32, "nomask", "transposed"), ((1, 4), np.float32, "all", "contiguous"),
         ((3, 1), np.float64, "none", "contiguous")]


def _weights(n, axis, masked, seed=3):
    rng = np.random.default_rng(seed)
    axes = tuple(range(n.ndim)) if axis is None else (axis,) if isinstance(axis, int) else axis
    shape = n.shape if axis is None else tuple(n.shape[ax] for ax in axes)
    w = rng.integers(1, 5, shape).astype(np.float64)
    mask = rng.random(shape) < 0.4 if masked else np.ma.nomask
    return np.ma.array(w, mask=mask), kd.ma.array(kd.asarray(w), mask=mask if masked else kd.ma.nomask)


@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), (1, 0)])
@pytest.mark.parametrize("case", CASES)
def test_average_weights(case, axis, masked):
    n, k = pair(*case)
    nw, kw = _weights(n, axis, masked)
    assert_same(kd.ma.average(k, axis=axis, weights=kw), np.ma.average(n, axis=axis, weights=nw),
                check_dtype=False, rtol=1e-5)


def test_average_weight_errors_are_numpys():
    n, k = pair((2, 3), np.float32, "some")
    for kwargs, error in [(dict(weights=np.ones(3)), TypeError), (dict(axis=0, weights=np.ones(3)), ValueError)]:
        with pytest.raises(error) as want:
            np.ma.average(n, **kwargs)
        with pytest.raises(error) as got:
            kd.ma.average(k, **{**kwargs, "weights": kd.asarray(kwargs["weights"])})
        assert str(got.value) == str(want.value)


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1), (2, 0), (0, 1, 2)])
@pytest.mark.parametrize("case", [((2, 3, 5), np.float32, "some", "contiguous"),
                                  ((3, 2, 4), np.int32, "some", "strided"),
                                  ((4, 3, 2), np.float64, "nomask", "transposed"),
                                  ((2, 1, 3), np.float32, "all", "contiguous"),
                                  ((2, 0, 3), np.float32, "some", "contiguous")])
def test_median_axes(case, axis, keepdims):
    n, k = pair(*case)
    if n.size == 0 and axis not in (0, -1):
        return  # numpy.ma's median of empty slices warns and gives NaN, or fails to reshape: not in this test
    with np.errstate(all="ignore"):
        want = np.ma.median(n, axis=axis, keepdims=keepdims)
    assert_same(kd.ma.median(k, axis=axis, keepdims=keepdims), want, check_dtype=False)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("masked", [False, True])
def test_median_nan_propagates(axis, masked):
    data = np.array([[1.0, np.nan, 3.0, np.inf], [1.0, 2.0, -np.inf, 4.0], [5.0, 6.0, 7.0, np.nan]])
    mask = np.array([[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 1]], bool) if masked else np.ma.nomask
    n = np.ma.array(data, mask=mask)
    k = kd.ma.array(kd.asarray(data), mask=kd.asarray(mask) if masked else kd.ma.nomask)
    assert_same(kd.ma.median(k, axis=axis), np.ma.median(n, axis=axis))
    assert_same(kd.ma.median(k[:, ::2], axis=axis), np.ma.median(n[:, ::2], axis=axis))


def test_median_out():
    n, k = pair((3, 4), np.float32, "some")
    out = kd.ma.zeros(4, dtype=kd.float32)
    got = kd.ma.median(k, axis=0, out=out)
    assert got is out
    assert_same(out, np.ma.median(n, axis=0))
    plain = kd.zeros((3,), dtype=kd.float32)
    assert kd.ma.median(k, axis=1, out=plain) is plain
    np.testing.assert_allclose(plain.numpy(), np.ma.median(n, axis=1).data, rtol=1e-6)
