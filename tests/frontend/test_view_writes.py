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
