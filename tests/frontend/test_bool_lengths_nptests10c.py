"""Booleans are not lengths: ``reshape(True, -1)``, ``zeros((True, 2))`` and ``broadcast_to(x, (True, 3))`` are
NumPy 2's TypeError (kdsl read them as the length 1); ``tile``'s counts still take them, as NumPy's do."""

import numpy as np
import pytest

import kdsl as kd

BOOLS = [True, False, np.True_, np.False_]


@pytest.mark.parametrize("flag", BOOLS, ids=repr)
@pytest.mark.parametrize("call", [
    lambda m, a, f: m.reshape(a, (f, -1)),
    lambda m, a, f: a.reshape(f, -1),
    lambda m, a, f: m.zeros((f, 2)),
    lambda m, a, f: m.ones(f),
    lambda m, a, f: m.full((2, f), 1.0),
    lambda m, a, f: m.broadcast_to(a.reshape(-1)[:1], (f, 3)),
], ids=["reshape", "method", "zeros", "ones", "full", "broadcast_to"])
def test_bool_length_is_a_type_error(call, flag):
    host = np.ones((1, 1, 1), np.float32)
    with pytest.raises(TypeError):
        call(np, host, flag)
    with pytest.raises(TypeError):
        call(kd, kd.asarray(host), flag)


@pytest.mark.parametrize("reps", [True, (2, False), (np.True_, 2)], ids=repr)
def test_tile_counts_take_booleans(reps):
    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    want = np.tile(host, reps)
    got = kd.tile(kd.asarray(host), reps)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("shape", [(2, 3), (6,), (np.int64(3), 2), (1, -1)])
def test_integer_lengths_still_work(shape):
    host = np.arange(6, dtype=np.int32)
    np.testing.assert_array_equal(kd.asarray(host).reshape(shape).numpy(), host.reshape(shape))
