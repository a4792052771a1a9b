"""kd.vecdot takes NumPy 2's gufunc keywords ``axes=`` and ``keepdims=`` (and ``axis=``), with NumPy's errors."""
import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(12)


def _data(shape, dtype):
    x = RNG.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dtype)


CALLS = [
    ((2, 3), (3, 2), dict(axes=[1, 0])),
    ((2, 3), (3, 2), dict(axes=[1, 0, ()])),
    ((2, 3), (2, 3), dict(axes=[(0,), (0,)])),
    ((2, 3), (2, 3), dict(axes=[0, 0], keepdims=True)),
    ((2, 3), (2, 3), dict(axes=[1, 1, 0], keepdims=True)),
    ((2, 3), (2, 3), dict(axes=[0, 0, (-2,)], keepdims=True)),
    ((2, 3), (2, 3), dict(axis=0, keepdims=True)),
    ((4, 1, 3), (5, 3), dict(keepdims=True)),
    ((4, 1, 3), (3, 5), dict(axes=[-1, 0])),
    ((3,), (3,), dict(keepdims=True)),
    ((2, 0), (2, 0), dict(keepdims=True)),
    ((0, 3), (3,), dict(axes=[1, 0])),
    ((1, 3), (1, 3), dict(axis=np.int64(-1))),
]


@pytest.mark.parametrize("shape1, shape2, kwargs", CALLS)
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.complex64])
def test_vecdot_keywords_as_numpy(shape1, shape2, kwargs, dtype):
    a, b = _data(shape1, dtype), _data(shape2, dtype)
    want = np.vecdot(a, b, **kwargs)
    got = np.asarray(kd.vecdot(kd.asarray(a), kd.asarray(b), **kwargs))
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-4)


def test_vecdot_axes_of_views_nan_and_bools():
    a = np.array([[1.0, np.nan, 2.0, 0.5], [np.inf, 1.0, 0.0, 3.0]], np.float32)[:, ::2]
    np.testing.assert_array_equal(np.asarray(kd.vecdot(kd.asarray(a), kd.asarray(a.T), axes=[0, 1])),
                                  np.vecdot(a, a.T, axes=[0, 1]))
    m = np.array([[True, False], [False, False]])
    np.testing.assert_array_equal(np.asarray(kd.vecdot(kd.asarray(m), kd.asarray(m), axes=[0, 0], keepdims=True)),
                                  np.vecdot(m, m, axes=[0, 0], keepdims=True))


@pytest.mark.parametrize("kwargs, error", [
    (dict(axes=[0]), ValueError), (dict(axes=[0, 0, (), 0]), ValueError), (dict(axes=0), TypeError),
    (dict(axes=(0, 0)), TypeError), (dict(axes=[1, 0, 0]), np.exceptions.AxisError),
    (dict(axes=[(0, 1), 0]), np.exceptions.AxisError), (dict(axes=[0, 0, ()], keepdims=True), np.exceptions.AxisError),
    (dict(axes=[2, 0]), np.exceptions.AxisError), (dict(axis=0, axes=[0, 0]), TypeError),
    (dict(axes=[1, 1]), ValueError), (dict(axes=[0, 0, 5], keepdims=True), np.exceptions.AxisError)])
def test_vecdot_keyword_errors_as_numpy(kwargs, error):
    a, b = np.ones((2, 3), np.float32), np.ones((3, 2), np.float32)
    with pytest.raises(error):
        np.vecdot(a, b, **kwargs)
    with pytest.raises(error):
        kd.vecdot(kd.asarray(a), kd.asarray(b), **kwargs)


def test_linalg_vecdot_keeps_axis_only():
    a = _data((2, 3), np.float32)
    np.testing.assert_allclose(np.asarray(kd.linalg.vecdot(kd.asarray(a), kd.asarray(a), axis=0)),
                               np.linalg.vecdot(a, a, axis=0), rtol=1e-5)
