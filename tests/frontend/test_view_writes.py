"""Writes into views reach the array they came from, as in NumPy (chained indexing, .T, reshape, ravel)."""

import numpy as np
import pytest

import kdsl as kd

WRITES = {
    "chained index": lambda a: a[0].__setitem__(1, 5),
    "row then slice": lambda a: a[1][::2].__setitem__(Ellipsis, -2),
    "transpose": lambda a: a.T.__setitem__(0, -1),
    "transpose axes": lambda a: a.transpose(1, 0, 2)[2].__setitem__(0, 7),
    "swapaxes": lambda a: a.swapaxes(0, 2)[1, 1].__setitem__(slice(None), 3),
    "reshape": lambda a: a.reshape(6, 4).__setitem__(slice(1, 3), 9),
    "ravel": lambda a: a.ravel().__setitem__(5, 100),
    "negative steps": lambda a: a[:, ::-1][0][0].__setitem__(slice(1, None, 2), -5),
    "view of a view of a view": lambda a: a[1][2][3:].__setitem__(0, 42),
}


@pytest.mark.parametrize("name", WRITES)
def test_write_through_a_view_matches_numpy(name):
    expected = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    got = kd.asarray(expected.copy())
    WRITES[name](expected)
    WRITES[name](got)
    np.testing.assert_array_equal(got.numpy(), expected)


def test_flatten_is_a_copy():
    a = kd.zeros(4)
    flat = a.flatten()
    flat[0] = 1
    np.testing.assert_array_equal(a.numpy(), np.zeros(4))
    assert flat.numpy()[0] == 1


ELEMENT_READS = {  # (shape, key): NumPy gives a scalar (a copy) for ints of every axis, a 0-d view with ``...``
    "1-d int": ((5,), 0),
    "1-d negative": ((5,), -2),
    "2-d ints": ((3, 4), (2, -1)),
    "3-d ints": ((2, 3, 4), (1, 0, 3)),
    "size-1 axes": ((1, 1), (0, 0)),
    "0-d empty tuple": ((), ()),
    "ellipsis then int": ((5,), (Ellipsis, 1)),
    "int then ellipsis": ((3, 4), (1, Ellipsis, 2)),
    "0-d ellipsis": ((), Ellipsis),
}


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.bool_])
@pytest.mark.parametrize("view", ["contiguous", "strided", "transposed"])
@pytest.mark.parametrize("name", ELEMENT_READS)
def test_element_read_then_write_matches_numpy(name, view, dtype):
    # x1[0] read before x1[0] = 3 keeps the old value (the book's ``x1[0]`` then ``x1[0] = 3.14159``)
    shape, key = ELEMENT_READS[name]
    base = (np.arange(2 * max(1, int(np.prod(shape))), dtype=np.float32) % 3 + 1).astype(dtype)
    make = {"contiguous": lambda b: b[: b.size // 2].reshape(shape),
            "strided": lambda b: b[::2].reshape(shape),
            "transposed": lambda b: b[: b.size // 2].reshape(shape[::-1]).T}[view]
    expected, got = make(base.copy()), make(kd.asarray(base.copy()))
    e, g = expected[key], got[key]
    expected[key] = 0
    got[key] = 0
    np.testing.assert_array_equal(np.asarray(g.numpy()), np.asarray(e))
    np.testing.assert_array_equal(got.numpy(), expected)


def test_element_read_keeps_in_place_updates():
    # x[i] += 1 on an element (Python reads x[i], adds, writes back) still reaches x
    a = np.arange(6).reshape(2, 3)
    k = kd.asarray(a.copy())
    a[1, 2] += 5
    a[0][1] -= 2
    k[1, 2] += 5
    k[0][1] -= 2
    np.testing.assert_array_equal(k.numpy(), a)
