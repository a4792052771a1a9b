"""NumPy 2's weighted quantiles (``weights=`` with ``method="inverted_cdf"``; kdsl/frontend/array/
weighted_quantiles.py) against NumPy: whole-shape and per-axis weights, zero and integer weights, NaN, keepdims,
integer data, the NaN-ignoring variants, and NumPy's errors."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(17)


def _both(fn, a, q, **kw):
    expect = getattr(np, fn)(a, q, method="inverted_cdf", **kw)
    if "weights" in kw:
        kw = dict(kw, weights=kd.asarray(kw["weights"]))
    got = getattr(kd, fn)(kd.asarray(a), q, method="inverted_cdf", **kw)
    assert got.shape == np.shape(expect) and got.dtype.kind == np.asarray(expect).dtype.kind
    np.testing.assert_array_equal(got.numpy(), expect)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("shape,axis,wshape", [((7,), None, (7,)), ((4, 9), 1, (4, 9)), ((4, 9), 1, (9,)),
                                               ((4, 9), 0, (4,)), ((3, 4, 5), (0, 2), (3, 5)),
                                               ((3, 4, 5), (2, 0), (5, 3)), ((3, 4, 5), None, (3, 4, 5)),
                                               ((1, 6), 1, (6,)), ((5, 1), 1, (1,))])
def test_weighted_quantiles_match_numpy(dtype, shape, axis, wshape):
    a = (RNG.random(shape) * 20).astype(dtype)
    w = RNG.integers(0, 4, wshape).astype(np.float64)  # zero weights, ties in the running sum
    w.reshape(-1)[0] = 1.0
    for q in (0.0, 0.5, [0.1, 0.25, 0.75, 1.0]):
        _both("quantile", a, q, axis=axis, weights=w)
    _both("percentile", a, [0, 37.5, 100], axis=axis, weights=w, keepdims=True)


def test_weighted_quantiles_of_a_view_with_nan_and_leading_zero_weights():
    a = RNG.standard_normal((6, 8)).astype(np.float32)[:, ::2]
    w = np.ones_like(a)
    w[:, 0] = 0.0
    _both("quantile", a, [0.0, 0.3], axis=1, weights=w)  # a zero-weight smallest value never wins
    a[2, 1] = np.nan
    _both("quantile", a, 0.5, axis=1, weights=w)  # NaN poisons its line
    _both("nanquantile", a, [0.5, 1.0], axis=1, weights=w)  # ... or weighs nothing
    a[4] = np.nan
    _both("nanpercentile", a, 50, axis=1, weights=w)  # a line of NaNs gives NaN


@pytest.mark.parametrize("call,error,match", [
    (lambda a, w: kd.quantile(a, 0.5, weights=w), ValueError, "Only method 'inverted_cdf' supports weights"),
    (lambda a, w: kd.quantile(a, 0.5, weights=w[0], method="inverted_cdf"), TypeError, "Axis must be specified"),
    (lambda a, w: kd.quantile(a, 0.5, axis=1, weights=w[:, 0], method="inverted_cdf"), ValueError,
     "Shape of weights must be consistent"),
    (lambda a, w: kd.quantile(a, 0.5, weights=-w, method="inverted_cdf"), ValueError, "must be non-negative"),
    (lambda a, w: kd.quantile(a, 0.5, axis=1, weights=w * 0, method="inverted_cdf"), ValueError,
     "all zero"),
    (lambda a, w: kd.percentile(a, 101, weights=w, method="inverted_cdf"), ValueError, "range"),
])
def test_weighted_quantiles_refuse_as_numpy(call, error, match):
    a = kd.asarray(RNG.random((3, 4)))
    with pytest.raises(error, match=match):
        call(a, kd.ones((3, 4), dtype=kd.float64))
