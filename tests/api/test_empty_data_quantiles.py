"""``percentile``/``quantile`` (and the nan* ones) of empty data, and weighted ones with no quantiles, against
NumPy: NumPy's answer depends on the dtype (an integer or bool array with ``q=[]`` under 'linear' gives an empty
float64 result, float data an IndexError; a non-empty ``q`` of integers 'index 0', of floats 'index -1'), the
NaN-ignoring ones give nanmean's NaNs, and ``weights=`` with ``q=[]`` an empty result once the weights are
checked. kdsl raised "index -1" for all of them, and "need at least one array to stack" for weighted ``q=[]``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import kdsl as kd


def _outcome(lib, name, a, q, **kw):
    """The result as a host array, or the error's type and message."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return np.asarray(getattr(lib, name)(a, q, **kw))
    except (IndexError, ValueError, TypeError) as err:
        return type(err), str(err)


def _same(expected, got) -> None:
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and got == expected, got
        return
    assert not isinstance(got, tuple), got
    assert (got.shape, got.dtype) == (expected.shape, expected.dtype)
    np.testing.assert_array_equal(got, expected)


def _q(name, q):
    return q if "percentile" in name else np.asarray(q, dtype=np.float64) / 100


NAMES = ["percentile", "quantile", "nanpercentile", "nanquantile"]
DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int32, np.int8, np.uint8, np.bool_]
SHAPES = [((0,), {}), ((0, 3), {"axis": 0}), ((0, 3), {}), ((3, 0), {"axis": 1}), ((0, 3), {"axis": 1}),
          ((2, 0, 3), {"axis": (0, 1), "keepdims": True})]
QS = [[], 50, [50], [10, 90], np.zeros((2, 0))]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("method", ["linear", "nearest", "inverted_cdf"])
def test_empty_data_as_numpy(name, dtype, method):
    for shape, kw in SHAPES:
        a = np.zeros(shape, dtype)
        for q in QS:
            expected = _outcome(np, name, a, _q(name, q), method=method, **kw)
            _same(expected, _outcome(kd, name, kd.asarray(a), _q(name, q), method=method, **kw))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8])
def test_weighted_empty_q_and_empty_data(name, dtype):
    shapes = SHAPES + [((4,), {}), ((3, 4), {"axis": 1}), ((3, 4), {"axis": 0, "keepdims": True})]
    for shape, kw in shapes:
        a = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)[..., ::-1]
        w = np.ones(shape)
        for q in QS:
            args = {"method": "inverted_cdf", **kw}
            expected = _outcome(np, name, a, _q(name, q), weights=w, **args)
            _same(expected, _outcome(kd, name, kd.asarray(a), _q(name, q), weights=kd.asarray(w), **args))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("weights", [np.zeros(4), -np.ones(4), np.array([1.0, np.nan, 1.0, 1.0])])
def test_weighted_empty_q_still_checks_weights(name, weights):
    a = np.arange(4.0)
    expected = _outcome(np, name, a, [], weights=weights, method="inverted_cdf")
    assert isinstance(expected, tuple)  # NumPy checks the weights before it sees that q is empty
    _same(expected, _outcome(kd, name, kd.asarray(a), [], weights=kd.asarray(weights), method="inverted_cdf"))


def test_non_empty_data_unchanged():
    h = np.array([[3, 1, 2], [7, 0, 5]], np.int16)[:, ::-1]
    for q in [[50.0], [0.0, 100.0], 25.0, []]:
        for name in NAMES:
            _same(_outcome(np, name, h, _q(name, q), axis=1), _outcome(kd, name, kd.asarray(h), _q(name, q), axis=1))
