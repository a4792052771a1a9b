"""Comparisons of int64 with uint64 arrays are exact, as NumPy 2's: their common type float64 rounded past 2**53,
so ``int64(2**60) < uint64(2**60 + 1)`` was False and ``==`` True; negative int64 values are below every uint64."""

import operator

import numpy as np
import pytest

import kdsl as kd

SIGNED = np.array([-2**63, -5, -1, 0, 1, 2**53 + 1, 2**60, 2**60 + 1, 2**63 - 1], np.int64)
UNSIGNED = np.array([0, 1, 5, 2**53, 2**53 + 1, 2**60, 2**60 + 1, 2**63 - 1, 2**63, 2**64 - 1], np.uint64)
NAMES = ["less", "less_equal", "greater", "greater_equal", "equal", "not_equal"]
OPERATORS = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("signed_left", [True, False])
def test_ufuncs_every_pair(name, signed_left):
    a, b = SIGNED[:, None], UNSIGNED[None, :]
    if not signed_left:
        a, b = UNSIGNED[:, None], SIGNED[None, :]
    got = getattr(kd, name)(kd.asarray(a), kd.asarray(b))
    want = getattr(np, name)(a, b)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("op", OPERATORS, ids=lambda o: o.__name__)
def test_operators_views_and_empty(op):
    a = SIGNED[::-2]
    b = UNSIGNED[1:11:2]
    np.testing.assert_array_equal(op(kd.asarray(SIGNED)[::-2], kd.asarray(UNSIGNED)[1:11:2]).numpy(), op(a, b))
    np.testing.assert_array_equal(op(kd.asarray(b), kd.asarray(a)).numpy(), op(b, a))
    empty = op(kd.zeros((0, 1), dtype=np.int64), kd.ones((1, 3), dtype=np.uint64))
    assert empty.shape == (0, 3) and empty.dtype == np.bool_
    single = op(kd.asarray(np.array([[2**60]], np.int64)), kd.asarray(np.array([2**60 + 1], np.uint64)))
    assert single.tolist() == op(np.array([[2**60]], np.int64), np.array([2**60 + 1], np.uint64)).tolist()


def test_other_integer_pairs_unchanged():
    a = np.array([-3, 0, 7], np.int32)
    b = np.array([0, 7, 4000000000], np.uint32)
    np.testing.assert_array_equal(kd.less(kd.asarray(a), kd.asarray(b)).numpy(), np.less(a, b))
    f = np.array([np.nan, -1.0, 2.0**60])
    np.testing.assert_array_equal(kd.equal(kd.asarray(f), kd.asarray(SIGNED[:3])).numpy(), np.equal(f, SIGNED[:3]))
