"""A ufunc's ``out=`` may be larger than its inputs' broadcast shape when they broadcast to it: NumPy fills all of
``out`` (``np.add([1, 2], 1, out=np.zeros((3, 2)))``); an ``out`` they do not broadcast to is still a ValueError."""

import numpy as np
import pytest

import kdsl as kd

CASES = [((2,), (3, 2)), ((), (2, 3)), ((1, 3), (4, 3)), ((3, 1), (3, 4)), ((0,), (2, 0)), ((1,), (2, 0))]


@pytest.mark.parametrize("dtype", [np.float32, np.int32], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape, out_shape", CASES, ids=str)
def test_binary(dtype, shape, out_shape):
    host = (np.arange(int(np.prod(shape))).reshape(shape) + 1).astype(dtype)
    want = np.zeros(out_shape, dtype)
    np.add(host, 2, out=want)
    out = kd.zeros(out_shape, dtype=dtype)
    assert kd.add(kd.asarray(host), 2, out=out) is out
    np.testing.assert_array_equal(out.numpy(), want)


def test_unary_where_and_views():
    host = np.array([[0.0, np.nan, -np.inf]])
    where = np.array([[True], [False]])
    want = np.full((2, 3), 7.0)
    np.exp(host, out=want, where=where)
    out = kd.full((2, 3), 7.0)
    kd.exp(kd.asarray(host), out=out, where=kd.asarray(where))
    np.testing.assert_array_equal(out.numpy(), want)
    base = kd.zeros((4, 6))
    kd.multiply(kd.asarray([1.0, 2.0, 3.0]), 2.0, out=base[::2, 1::2])
    want_base = np.zeros((4, 6))
    np.multiply([1.0, 2.0, 3.0], 2.0, out=want_base[::2, 1::2])
    np.testing.assert_array_equal(base.numpy(), want_base)


@pytest.mark.parametrize("shape, out_shape", [((3, 2), (2,)), ((3,), (2, 2)), ((2, 3), (1, 3))], ids=str)
def test_non_broadcastable_out_raises(shape, out_shape):
    with pytest.raises(ValueError):
        np.add(np.ones(shape), 1, out=np.zeros(out_shape))
    with pytest.raises(ValueError, match="non-broadcastable output"):
        kd.add(kd.ones(shape), 1, out=kd.zeros(out_shape))
