"""kd.vectorize(f, otypes=[integer type]) against NumPy: values out of the type's range raise NumPy's
OverflowError (NaN: ValueError) at the first bad element, floats in range truncate, nothing else changes."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd
from kdsl.frontend.array import vectorize_otypes


def _outcome(call):
    """A call's result as a host array (a list of them for several outputs), or its error's type and message."""
    try:
        result = call()
        return [np.asarray(r) for r in result] if isinstance(result, tuple) else np.asarray(result)
    except (OverflowError, ValueError, TypeError) as err:
        return type(err), str(err)


def _same(expected, got) -> None:
    if isinstance(expected, tuple):
        assert got == expected
    elif isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected)
        for e, g in zip(expected, got, strict=True):
            _same(e, g)
    else:
        assert not isinstance(got, tuple), got
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)


CASES = [  # (input data, the function, otypes)
    (np.array([1, 2, 3]), lambda x: x * 100, [np.int8]),
    (np.array([1, 2, 3]), lambda x: x * 100, "b"),
    (np.array([1, 0, -1]), lambda x: x * 100, [np.int8]),
    (np.array([1, 2, 3]), lambda x: x * 100, "B"),
    (np.array([1, -1, 2]), lambda x: x * 100, [np.uint8]),
    (np.array([1, 2, 3]), lambda x: x * 100, [np.int16]),
    (np.array([[1, 2], [3, 400]], np.int16), lambda x: x + 1, [np.int8]),
    (np.array([1, -3], np.int32), lambda x: x, [np.uint32]),
    (np.array([1, -3], np.int64), lambda x: x, [np.uint64]),
    (np.array([1, 2**63], np.uint64), lambda x: x, [np.int64]),
    (np.array([1, 2**32], np.uint64), lambda x: x, [np.int32]),
    (np.array([1.7, -1.7, 127.9, -128.9]), lambda x: x, [np.int8]),
    (np.array([1.0, 128.0]), lambda x: x, [np.int8]),
    (np.array([-0.5, 1.0]), lambda x: x, [np.uint8]),
    (np.array([-1.0, 1.0]), lambda x: x, [np.uint8]),
    (np.array([1.0, np.nan, 300.0]), lambda x: x, [np.int8]),
    (np.array([300.0, np.nan]), lambda x: x, [np.int8]),
    (np.array([1.0, np.inf]), lambda x: x, [np.int16]),
    (np.array([1.0, -np.inf]), lambda x: x, [np.uint16]),
    (np.array([1.0, 2.0**31]), lambda x: x, [np.int32]),
    (np.array([1.0, -(2.0**31)]), lambda x: x, [np.int32]),
    (np.array([1.0, 2.0**63]), lambda x: x, [np.int64]),
    (np.array([1.0, -(2.0**63)]), lambda x: x, [np.int64]),
    (np.array([1.0, 1e19]), lambda x: x, [np.uint64]),
    (np.array([1.0, 2.0**64]), lambda x: x, [np.uint64]),
    (np.array([1.0, 2.0**70]), lambda x: x, [np.int8]),
    (np.array([1.0, -(2.0**63)]), lambda x: x, [np.uint8]),
    (np.array([1.5, 300.5], np.float32), lambda x: x, [np.uint8]),
    (np.array([1.5, 65504.0], np.float16), lambda x: x, [np.int16]),
    (np.array([1.5, -np.inf], np.float16), lambda x: x, [np.int32]),
    (np.array([True, False]), lambda x: x, [np.int8]),
    (np.array([2, 0]), lambda x: x, [np.bool_]),
    (np.array([1, 2**40]), lambda x: x, [np.float32]),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_otypes_range_as_numpy(case):
    data, func, otypes = CASES[case]
    expected = _outcome(lambda: np.vectorize(func, otypes=otypes)(data))
    _same(expected, _outcome(lambda: kd.vectorize(func, otypes=otypes)(kd.asarray(data))))


def _both(func, otypes, *args):
    """NumPy's outcome and kdsl's (host arrays turned into kdsl arrays) for one vectorized call."""
    expected = _outcome(lambda: np.vectorize(func, otypes=otypes)(*args))
    kd_args = [kd.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    return expected, _outcome(lambda: kd.vectorize(func, otypes=otypes)(*kd_args))


@pytest.mark.parametrize("y", [0, np.array([[0], [1], [2], [3]])])
def test_non_contiguous_and_broadcast_first_bad_element(y):
    data = np.arange(24).reshape(4, 6)[:, ::2] * 20  # the first value > 127 in C order is 160, not 140
    _same(*_both(lambda a, b: a + b, [np.int8], data, y))
    view = kd.asarray(np.arange(24).reshape(4, 6) * 20)[:, ::2]
    expected = _outcome(lambda: np.vectorize(lambda a, b: a + b, otypes=[np.int8])(data, y))
    _same(expected, _outcome(lambda: kd.vectorize(lambda a, b: a + b, otypes=[np.int8])(view, y)))


@pytest.mark.parametrize("data", [np.array([1, 2]), np.array([1, 0]), np.array([0, 40])])
def test_two_outputs_checked_in_order(data):
    _same(*_both(lambda x: (x * 100, x * 1000), [np.int8, np.int16], data))


@pytest.mark.parametrize("data", [np.array([], dtype=np.int64), np.array([5]), np.array(5), np.zeros((0, 3))])
@pytest.mark.parametrize("func", [lambda x: 300, lambda x: x * 300, lambda x: x + 1])
def test_constant_values_size_one_and_empty(data, func):
    _same(*_both(func, [np.int8], data))


@pytest.mark.parametrize("value", [300, -129, 2**63, 2**64, -(2**63), -(2**63) - 1, 1e19, 127.9, -0.5,
                                   float("nan"), float("inf"), -float("inf"), 2.0**64, -(2.0**64)])
@pytest.mark.parametrize("target", [np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64])
def test_host_error_is_numpys(value, target):
    # Python scalars: NumPy's loop hands the function Python ints and floats, so that is what it converts
    try:
        np.vectorize(lambda _: value, otypes=[target])(np.arange(1))
    except (OverflowError, ValueError) as err:
        got = vectorize_otypes.host_error(value, np.dtype(target))
        assert (type(got), str(got)) == (type(err), str(err))
    else:
        assert vectorize_otypes.host_error(value, np.dtype(target)) is None
