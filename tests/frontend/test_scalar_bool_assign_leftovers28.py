"""``a[True] = v`` and ``a[False] = v`` (a bare boolean key, NumPy's 0-d mask) against NumPy: kdsl raised
``IndexError: too many indices`` for a 0-d array; a True writes all of ``a``, a False nothing, and a 0-d
array refuses a value of two or more dimensions with NumPy's TypeError. With any scalar booleans in the key
(``a[..., False] = v`` too) the value must broadcast to the (possibly empty) result, one way, as NumPy's (kdsl
accepted ``[1.0, 2.0]`` for ``ones((1, 1))[False]``), and NaN into integers is NumPy's ValueError (kdsl stored
it)."""

import numpy as np
import pytest

import kdsl as kd

ARRAYS = {
    "0d": lambda: np.array(5.0),
    "0d_int": lambda: np.array(7, np.int32),
    "1d": lambda: np.arange(4.0),
    "2d": lambda: np.arange(6.0).reshape(2, 3),
    "strided": lambda: np.arange(12.0).reshape(3, 4)[::2, ::-1],
    "empty": lambda: np.zeros((0, 2)),
    "size_one": lambda: np.ones((1, 1)),
}
KEYS = [True, False, np.True_, np.False_, (True,), (Ellipsis, True), (True, True), (True, False), (None, True)]
VALUES = [3.0, -0.0, np.nan, [4.0], [[1.0, 2.0, 3.0]], [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]], [1.0, 2.0], []]


def _outcome(arr, key, value):
    try:
        arr[key] = value
    except (ValueError, TypeError, IndexError) as err:
        return type(err)
    return np.asarray(arr)


@pytest.mark.parametrize("name", list(ARRAYS))
@pytest.mark.parametrize("key", KEYS, ids=repr)
@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_boolean_key_assignment_as_numpy(name, key, value):
    host = ARRAYS[name]()
    expected = _outcome(host.copy(), key, value)
    got = _outcome(kd.asarray(host), key, value)
    if isinstance(expected, type):
        assert got is expected
    else:
        assert not isinstance(got, type), got
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


def test_boolean_key_assignment_takes_kdsl_values_and_writes_through_views():
    host = np.arange(12.0).reshape(3, 4)
    a = kd.asarray(host)
    host[1][True] = np.array([9.0, 8.0, 7.0, 6.0])
    a[1][True] = kd.asarray(np.array([9.0, 8.0, 7.0, 6.0]))
    np.testing.assert_array_equal(a.numpy(), host)
    z = kd.asarray(np.array(2.5))
    z[True] = kd.asarray(np.array(-1.25))
    assert z.item() == -1.25 and z.dtype == kd.float64
