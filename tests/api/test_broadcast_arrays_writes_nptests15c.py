"""Writes into ``broadcast_arrays`` results warn as NumPy 2.4's (DeprecationWarning "Numpy has detected that you
(may be) writing to an array with overlapping memory from np.broadcast_arrays...", once per array; reading
``flags.writeable`` warns FutureWarning; ``setflags(write=...)`` silences them), and an input that already has
the broadcast shape comes back as itself, unmarked (kdsl broadcast it too, and never warned)."""

import warnings

import numpy as np
import pytest

import kdsl as kd


def _caught(action):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        action()
    return [w.category.__name__ for w in caught]


def _pair(m, dtype):
    return m.arange(2).astype(dtype), m.arange(4).reshape((2, 2)).astype(dtype)


def _set(x, key, value):
    x[key] = value


ACTIONS = {
    "setitem": lambda m, u, v: _set(u, (0, 0), 5),
    "setitem twice": lambda m, u, v: (_set(u, (0, 0), 5), _set(u, (1, 1), 6)),
    "iadd": lambda m, u, v: u.__iadd__(v),
    "ufunc out": lambda m, u, v: m.add(u, 1, out=u),
    "unbroadcast input": lambda m, u, v: _set(v, (0, 0), 7),
    "flag read": lambda m, u, v: u.flags.writeable,
    "after setflags": lambda m, u, v: (u.setflags(write=True), _set(u, (0, 0), 1)),
    "view then base": lambda m, u, v: (_set(u[0], 0, 1), _set(u, (1, 0), 2)),
    "slice view": lambda m, u, v: _set(u[:, ::-1], (0, 0), 3),
    "read only": lambda m, u, v: u + v,
}


@pytest.mark.parametrize("dtype", ["int64", "float32"])
@pytest.mark.parametrize("action", list(ACTIONS))
def test_warnings_as_numpy(action, dtype):
    results = []
    for m in (np, kd):
        u, v = m.broadcast_arrays(*_pair(m, dtype))
        results.append(_caught(lambda m=m, u=u, v=v: ACTIONS[action](m, u, v)))
    assert results[1] == results[0]


def test_same_shape_inputs_come_back():
    a, b = kd.arange(3), kd.ones((2, 3))
    u, v = kd.broadcast_arrays(a, b)
    assert v is b and u is not a and u.strides == (0, 4)  # (int32: kdsl's default int)
    assert type(kd.broadcast_arrays(a, a)) is tuple and kd.broadcast_arrays(a, a)[0] is a
    assert _caught(lambda: _set(v, (0, 0), 2.0)) == []


def test_empty_and_size_one():
    u, v = kd.broadcast_arrays(kd.zeros((0, 1)), kd.zeros((1, 3)))
    assert u.shape == v.shape == (0, 3)
    w, z = kd.broadcast_arrays(kd.asarray([np.nan]), kd.zeros((2, 1)))
    assert _caught(lambda: _set(w, (0, 0), 1.0)) == ["DeprecationWarning"]
    np.testing.assert_array_equal(w.numpy(), [[1.0], [np.nan]])  # kdsl: the write changes that element only
