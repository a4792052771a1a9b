"""Reductions over an empty axis and matmuls with an empty inner dimension are their identity as a constant,
so what follows them computes as NumPy's does: ``sum(empty) * inf`` is NaN (a kernel whose empty loop left a
literal 0 let the shader compiler fold ``0 * inf`` to 0)."""

import numpy as np
import pytest

import kdsl as kd

INF = np.float32(np.inf)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex64])
@pytest.mark.parametrize("shape, axis", [((3, 0), 1), ((0, 4), 0), ((2, 0, 3), (1,)), ((0,), None), ((2, 0), None)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_empty_sum_and_prod_feed_what_follows(dtype, shape, axis, keepdims):
    x = np.zeros(shape, dtype)
    for name in ("sum", "prod"):
        want = getattr(np, name)(x, axis=axis, keepdims=keepdims)
        got = getattr(kd, name)(kd.asarray(x), axis=axis, keepdims=keepdims)
        assert got.shape == want.shape and got.dtype.kind == want.dtype.kind
        np.testing.assert_array_equal(got.numpy(), want)
        if x.dtype.kind == "f":
            with np.errstate(invalid="ignore"):
                np.testing.assert_array_equal((got * INF).numpy(), want * INF)
                np.testing.assert_array_equal((got * np.nan + 1).numpy(), want * np.nan + 1)


@pytest.mark.parametrize("keepdims", [False, True])
def test_empty_any_all(keepdims):
    x = np.zeros((3, 0, 2), bool)
    for name in ("any", "all"):
        got = getattr(kd, name)(kd.asarray(x), axis=1, keepdims=keepdims)
        np.testing.assert_array_equal(got.numpy(), getattr(np, name)(x, axis=1, keepdims=keepdims))


@pytest.mark.parametrize("a_shape, b_shape", [((3, 0), (0, 2)), ((2, 3, 0), (0, 4)), ((0,), (0,)), ((0,), (0, 3)),
                                              ((4, 0), (0,))])
def test_matmul_with_an_empty_inner_dimension(a_shape, b_shape):
    a, b = np.ones(a_shape, np.float32), np.ones(b_shape, np.float32)
    want = a @ b
    got = kd.asarray(a) @ kd.asarray(b)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal((got * INF).numpy(), want * INF)
