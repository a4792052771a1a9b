"""``percentile``/``quantile`` with no quantiles (``q=[]``, numpy/_core/tests/test_regression.py's
test_empty_percentile) give NumPy's empty result: q's shape before the kept axes, float64 as NumPy's. kdsl raised
"need at least one array to stack"."""

import warnings

import numpy as np
import pytest

import kdsl as kd

DATA = [np.arange(10).reshape(2, 5), np.arange(12.0, dtype=np.float32).reshape(3, 4)[:, ::-2],
        np.array([[np.nan, 1.0, np.inf]]), np.zeros((0, 3)), np.ones((2, 1), np.float16), np.arange(5, dtype=np.uint8)]
AXES = [(None, False), (None, True), (0, False), (-1, True), ((0, -1), True)]


def _result(lib, name, a, q, axis, keepdims, **kw):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            r = getattr(lib, name)(a, q, axis=axis, keepdims=keepdims, **kw)
    except (IndexError, ValueError, np.exceptions.AxisError) as e:
        return type(e)
    return np.asarray(r).shape, np.asarray(r).dtype


@pytest.mark.parametrize("name", ["percentile", "quantile", "nanpercentile", "nanquantile"])
@pytest.mark.parametrize("i", range(len(DATA)))
@pytest.mark.parametrize(("axis", "keepdims"), AXES)
def test_empty_q_as_numpy(name, i, axis, keepdims):
    h = DATA[i]
    if isinstance(axis, tuple) and h.ndim < 2:
        axis = 0
    expected = _result(np, name, h, [], axis, keepdims)
    assert _result(kd, name, kd.asarray(h), [], axis, keepdims) == expected
    if isinstance(expected, tuple):
        assert _result(kd, name, kd.asarray(h), np.array([]), axis, keepdims) == expected


@pytest.mark.parametrize("method", ["nearest", "lower", "midpoint"])
def test_other_methods(method):
    h = np.arange(10.0)
    assert kd.percentile(kd.asarray(h), [], method=method).shape == np.percentile(h, [], method=method).shape


def test_non_empty_q_unchanged():
    h = np.array([[3.0, 1.0, 2.0], [np.nan, 0.0, 5.0]])
    for q in [[50.0], [0.0, 100.0], 25.0]:
        np.testing.assert_allclose(kd.percentile(kd.asarray(h), q, axis=1).numpy(), np.percentile(h, q, axis=1))
