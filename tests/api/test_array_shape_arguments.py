"""Shapes and axes given as 1-d integer arrays, as NumPy takes them: ``a.reshape(dims)``, ``np.reshape(a, dims)``,
``a.shape = dims``, ``np.resize(a, dims)``, ``a.transpose(order)``, ``np.moveaxis(a, src, dst)`` with ``dims`` a
kdsl (or NumPy) array, and ``np.linalg.norm(a, axis=k)`` with ``k`` a 0-d array or ``np.int64``; against NumPy
(tests/porting, porting7a)."""

import numpy as np
import pytest

import kdsl as kd

_DIMS = [(6,), (2, 3), (3, 2), (1, 6, 1), (3, -1), (0, 4)]


def _as(kind, values):
    return kd.asarray(np.asarray(values, np.int32)) if kind == "kd" else np.asarray(values, np.int64)


@pytest.mark.parametrize("dims", _DIMS)
@pytest.mark.parametrize("kind", ["kd", "np"])
@pytest.mark.parametrize("dtype", [np.float32, np.int8])
def test_reshape_by_integer_array(dims, kind, dtype):
    size = 0 if 0 in dims else 6
    x = np.arange(size, dtype=dtype)
    want = x.reshape(np.asarray(dims))
    for got in (kd.asarray(x).reshape(_as(kind, dims)), kd.reshape(kd.asarray(x), _as(kind, dims)),
                kd.reshape(kd.asarray(x), _as(kind, dims), copy=True)):
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("kind", ["kd", "np"])
def test_reshape_by_array_fortran_order_and_view(kind):
    x = np.arange(12.0)
    k = kd.asarray(x)
    np.testing.assert_array_equal(kd.reshape(k, _as(kind, [3, 4]), order="F").numpy(), x.reshape((3, 4), order="F"))
    v = k.reshape(_as(kind, [3, 4]))
    v[0, 0] = 99  # still NumPy's view
    assert k[0].item() == 99


@pytest.mark.parametrize("dims", [(2, 3), (6, 1), (-1, 2)])
def test_shape_attribute_set_by_array(dims):
    x, k = np.arange(6.0), kd.arange(6.0)
    x.shape = np.asarray(dims)
    k.shape = kd.asarray(dims)
    assert k.shape == x.shape
    np.testing.assert_array_equal(k.numpy(), x)


@pytest.mark.parametrize("dims", [(2, 3), (7,), (0,), (2, 2, 2)])
def test_resize_by_array(dims):
    x = np.arange(3)
    got = kd.resize(kd.asarray(x), kd.asarray(dims))
    np.testing.assert_array_equal(got.numpy(), np.resize(x, np.asarray(dims)))


@pytest.mark.parametrize("order", [(1, 0, 2), (2, 0, 1), (0, 1, 2), (-1, 0, 1)])
@pytest.mark.parametrize("kind", ["kd", "np"])
def test_transpose_by_integer_array(order, kind):
    x = np.arange(24).reshape(2, 3, 4)
    k = kd.asarray(x)
    want = x.transpose(np.asarray(order))
    for got in (k.transpose(_as(kind, order)), kd.transpose(k, _as(kind, order))):
        assert got.shape == want.shape
    np.testing.assert_array_equal(kd.transpose(k, _as(kind, order)).numpy(), want)
    np.testing.assert_array_equal(k[:, ::-1].transpose(_as(kind, order)).numpy(), x[:, ::-1].transpose(order))


@pytest.mark.parametrize("src,dst", [((0, 1), (1, 0)), ((0,), (-1,)), ((2, 0), (0, 1))])
def test_moveaxis_by_integer_arrays(src, dst):
    x = np.arange(24.0).reshape(2, 3, 4)
    got = kd.moveaxis(kd.asarray(x), kd.asarray(src), kd.asarray(dst))
    np.testing.assert_array_equal(got.numpy(), np.moveaxis(x, np.asarray(src), np.asarray(dst)))
    got = kd.moveaxis(kd.asarray(x), kd.asarray(src[0]), dst[0])  # 0-d arrays: one axis each
    np.testing.assert_array_equal(got.numpy(), np.moveaxis(x, src[0], dst[0]))


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("ord", [None, 1, np.inf])
def test_norm_axis_zero_d_array_or_numpy_int(axis, ord):
    x = np.arange(-3.0, 3.0).reshape(2, 3)
    want = np.linalg.norm(x, ord=ord, axis=axis)
    for ax in (kd.asarray(axis), np.int64(axis), kd.asarray([axis])[0]):
        got = kd.linalg.norm(kd.asarray(x), ord=ord, axis=ax)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_bad_shape_arrays_raise_as_numpy():
    k = kd.arange(6)
    with pytest.raises(TypeError):
        k.reshape(kd.asarray([2.0, 3.0]))
    with pytest.raises(ValueError, match="reshape"):
        k.reshape(kd.asarray([4, 2]))
    with pytest.raises(TypeError, match="scalar"):
        k.reshape(kd.ones((2, 2), dtype=kd.int32))  # a 2-d array is no shape (NumPy's TypeError too)
    with pytest.raises(ValueError):
        kd.arange(24).reshape(2, 3, 4).transpose(kd.asarray([0, 0, 1]))
    with pytest.raises(TypeError):
        kd.linalg.norm(kd.ones((2, 3)), axis=1.0)
