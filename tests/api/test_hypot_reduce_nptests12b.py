"""``kd.hypot.identity`` is NumPy's 0, so ``kd.hypot.reduce`` works on empty axes, over several axes and with
``where=`` (masked-out elements count as 0), in hypot's float type (int8 -> float16), as NumPy's."""

import numpy as np
import pytest

import kdsl as kd


def test_identity():
    assert kd.hypot.identity == np.hypot.identity == 0


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape, axis", [((0,), 0), ((0, 3), 0), ((3, 0), 1), ((2, 3), None), ((2, 3, 4), (0, 2)),
                                         ((1, 5), 0), ((4, 1), 1), ((3, 4), -1)], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduce(dtype, shape, axis, keepdims):
    host = (np.arange(int(np.prod(shape))).reshape(shape) % 7 - 3).astype(dtype)
    got = kd.hypot.reduce(kd.asarray(host), axis=axis, keepdims=keepdims)
    want = np.hypot.reduce(host, axis=axis, keepdims=keepdims)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=2e-3 if want.dtype == np.float16 else 1e-6)


@pytest.mark.parametrize("where", [[True, True, False], [False, False, False], [[True], [False]]], ids=str)
def test_where(where):
    host = np.array([[3.0, 4.0, 12.0], [5.0, np.inf, 1.0]])
    a = kd.asarray(host)
    got = kd.hypot.reduce(a, axis=1, where=kd.asarray(where))
    want = np.hypot.reduce(host, axis=1, where=where)
    np.testing.assert_allclose(got.numpy(), want)
    got = kd.hypot.reduce(a, axis=None, where=kd.asarray(where), initial=2.0)
    np.testing.assert_allclose(got.numpy(), np.hypot.reduce(host, axis=None, where=where, initial=2.0))


def test_nan_inf_and_views():
    host = np.array([[np.nan, 3.0, np.inf, 4.0], [-3.0, 4.0, -0.0, np.nan], [1.0, 1.0, 1.0, 1.0]], np.float32)
    got = kd.hypot.reduce(kd.asarray(host)[::2, ::-1].T, axis=0)
    np.testing.assert_allclose(got.numpy(), np.hypot.reduce(host[::2, ::-1].T, axis=0), rtol=1e-6)


def test_no_identity_still_needs_initial():
    with pytest.raises(ValueError, match="identity"):
        kd.lcm.reduce(kd.asarray([2, 3]), where=kd.asarray([True, False]))
    got = kd.lcm.reduce(kd.asarray([2, 3, 4]), where=kd.asarray([True, False, True]), initial=1)
    assert got.item() == np.lcm.reduce([2, 3, 4], where=[True, False, True], initial=1)
