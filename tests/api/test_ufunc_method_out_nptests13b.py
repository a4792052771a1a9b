"""``ufunc.reduce/accumulate/reduceat(out=)`` take an ``out`` of the result's shape only (NumPy's ValueError
otherwise: the result is never broadcast into it), and ``reduce`` takes NumPy's seven positional arguments
(NumPy's test_ufunc.py: test_reduce_wrong_dimension_output, test_reduce_output_does_not_broadcast_input,
test_reduceat_and_accumulate_out_shape_mismatch, test_reduce_arguments)."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd

OUT_SHAPES = [(), (1,), (3,), (1, 1), (1, 3), (4, 3)]


@pytest.mark.parametrize("out_shape", OUT_SHAPES)
@pytest.mark.parametrize("keepdims", [True, False])
@pytest.mark.parametrize("ufunc", ["add", "minimum", "subtract", "bitwise_or"])
def test_reduce_out_must_have_the_result_shape(ufunc, keepdims, out_shape):
    a = np.arange(12, dtype=np.int32).reshape(4, 3)
    want = getattr(np, ufunc).reduce(a, axis=0, keepdims=keepdims)
    out = kd.zeros(out_shape, dtype=kd.int32)
    if out_shape != want.shape:
        with pytest.raises(ValueError):
            getattr(np, ufunc).reduce(a, axis=0, out=np.zeros(out_shape, np.int32), keepdims=keepdims)
        with pytest.raises(ValueError):
            getattr(kd, ufunc).reduce(kd.asarray(a), axis=0, out=out, keepdims=keepdims)
        np.testing.assert_array_equal(out.numpy(), np.zeros(out_shape, np.int32))  # left as it was
    else:
        got = getattr(kd, ufunc).reduce(kd.asarray(a), axis=0, out=out, keepdims=keepdims)
        assert got is out
        np.testing.assert_array_equal(out.numpy(), want)


def test_reduce_out_does_not_broadcast_the_input():
    a = kd.ones((1, 10), dtype=kd.float32)
    right = kd.zeros((1, 1), dtype=kd.float32)
    kd.add.reduce(a, axis=-1, out=right, keepdims=True)
    assert right.numpy().tolist() == [[10.0]]
    wrong = kd.zeros((3, 1), dtype=kd.float32)
    with pytest.raises(ValueError):
        kd.add.reduce(a, axis=-1, out=wrong, keepdims=True)
    with pytest.raises(ValueError):
        kd.add.reduce(a, axis=-1, out=wrong[:, 0], keepdims=False)  # a non-contiguous view


@pytest.mark.parametrize("ufunc", ["add", "maximum", "subtract"])
def test_accumulate_and_reduceat_out_shape(ufunc):
    f = getattr(kd, ufunc)
    with pytest.raises(ValueError, match="(shape|size)"):
        f.accumulate(kd.arange(5), out=kd.zeros(3, dtype=kd.int32))
    with pytest.raises(ValueError, match="(shape|size)"):
        f.accumulate(kd.arange(3), out=kd.zeros((2, 3), dtype=kd.int32))  # would broadcast
    if ufunc != "maximum":
        with pytest.raises(ValueError, match="(shape|size)"):
            f.reduceat(kd.arange(5), [0, 3], out=kd.zeros(3, dtype=kd.int32))
    out = kd.zeros(0, dtype=kd.float32)
    assert f.accumulate(kd.zeros(0, dtype=kd.float32), out=out) is out  # empty: the shapes match


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_reduce_positional_arguments(dtype):
    a = np.arange(1, 7, dtype=dtype).reshape(2, 3)
    where = np.array([True, False, True])
    want = np.add.reduce(a, 1, None, None, False, 0, where)
    got = kd.add.reduce(kd.asarray(a), 1, None, None, False, 0, kd.asarray(where))
    np.testing.assert_array_equal(got.numpy(), want)
    want = np.multiply.reduce(a, 0, None, None, True, 2)
    got = kd.multiply.reduce(kd.asarray(a), 0, None, None, True, 2)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
    out = kd.zeros((), dtype=dtype)
    assert kd.add.reduce(kd.asarray(a[:, ::2]), None, None, out) is out
    assert out.item() == np.add.reduce(a[:, ::2], None)


def test_reduce_nan_and_inf_into_out():
    a = np.array([[np.nan, 1.0], [np.inf, -np.inf]], dtype=np.float32)
    out = kd.zeros(2, dtype=kd.float32)
    kd.maximum.reduce(kd.asarray(a), axis=1, out=out)
    np.testing.assert_array_equal(out.numpy(), np.maximum.reduce(a, axis=1))
