"""``kd.c_`` with a string directive keeps ``c_``'s own defaults for what the directive leaves out (found by
differential fuzzing): ``'axis'`` and ``'axis,ndmin'`` reset ndmin to 1 and trans1d to -1, ``r_``'s values, so
``kd.c_['0', a, b]`` of 1-d items was ``(6,)`` where NumPy's is ``(6, 1)`` (the items made columns), and
``kd.c_['0,2', [1, 0], [1]]`` raised where NumPy joins two columns. A directive of four or more fields raised
ValueError; NumPy reads its first two (and a third only when there are exactly three) and ignores the rest."""

import numpy as np
import pytest

import kdsl as kd

A, B = np.array([1.5, -0.0, 3.0]), np.array([4, 5], np.int16)
WIDE, EMPTY = np.arange(4.0).reshape(2, 2), np.ones((2, 0), np.float32)
KEYS = [("0", A, B), ("-1", A), ("0", A, 7, slice(0, 2)), ("0,2", [1, 0], [1], B), ("1,3", EMPTY, WIDE),
        ("0,2,0", A, B), ("0,2,-1", A), ("1,2", A, A), ("0,3", A, WIDE), ("-1,3,-2", A, A), ("1", WIDE, WIDE),
        ("-1", [0, 3], [1], B), ("1,2,3,4", A, A), ("0,2,x,4", A, B), ("1,", A), (",1", A), ("0,x", A)]


def _kd(item):
    return kd.asarray(item) if isinstance(item, np.ndarray) else item


@pytest.mark.parametrize("name", ["c_", "r_"])
@pytest.mark.parametrize("key", KEYS, ids=lambda k: k[0])
def test_directive_keeps_the_concatenators_other_defaults(name, key):
    try:
        want = getattr(np, name)[key]
    except ValueError:
        with pytest.raises(ValueError):
            getattr(kd, name)[tuple(_kd(k) for k in key)]
        return
    got = getattr(kd, name)[tuple(_kd(k) for k in key)].numpy()
    assert (got.shape, got.dtype) == (want.shape, want.dtype)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_c_axis_directive_makes_columns():
    got = kd.c_["0", kd.asarray([1, 2, 3]), kd.asarray([4, 5, 6])]
    assert got.shape == (6, 1) and got.numpy()[:, 0].tolist() == [1, 2, 3, 4, 5, 6]
