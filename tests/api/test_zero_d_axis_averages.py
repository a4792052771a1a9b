"""``np.ptp(a, axis=k)``, ``np.average(a, axis=k, weights=w)`` and ``np.gradient(f, axis=k)`` with ``k`` a 0-d integer
(``k = np.argmax(a.shape)``: kdsl's stand-in for NumPy's ``np.int64``) raised "iteration over a 0-d array"."""

import numpy as np
import pytest

import kdsl as kd

SHAPES = [(3, 4), (5, 1), (2, 3, 4)]


def _zero_d(k):
    return kd.array([k, -9]).max()


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("k", [0, -1, 1])
@pytest.mark.parametrize("dtype", [np.float64, np.int16, np.uint8])
def test_ptp(shape, k, dtype):
    a = (np.arange(int(np.prod(shape))) * 7 % 11).reshape(shape).astype(dtype)
    got = kd.ptp(kd.asarray(a), axis=_zero_d(k))
    np.testing.assert_array_equal(got.numpy(), np.ptp(a, axis=np.int64(k)))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("k", [0, -1])
def test_average_weights(shape, k):
    a = np.linspace(-1, 1, int(np.prod(shape))).reshape(shape)
    w = np.arange(1.0, shape[k] + 1)
    got = kd.average(kd.asarray(a), axis=_zero_d(k), weights=kd.asarray(w))
    np.testing.assert_allclose(got.numpy(), np.average(a, axis=np.int64(k), weights=w), rtol=1e-6)


@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4)])
@pytest.mark.parametrize("k", [0, 1, -1])
def test_gradient(shape, k):
    f = (np.arange(int(np.prod(shape)), dtype=np.float64) ** 2).reshape(shape)
    got = kd.gradient(kd.asarray(f), axis=_zero_d(k))
    np.testing.assert_allclose(got.numpy(), np.gradient(f, axis=np.int64(k)), rtol=1e-6)


@pytest.mark.parametrize("bad", [kd.array(1.5), kd.array([0, 1, 1])])
def test_non_integer_or_repeated_axis_refused(bad):
    a = kd.ones((2, 3))
    with pytest.raises((TypeError, ValueError)):
        kd.ptp(a, axis=bad)
    with pytest.raises((TypeError, ValueError)):
        np.ptp(np.ones((2, 3)), axis=bad.numpy() if bad.ndim else float(bad))


def test_out_of_range_zero_d_axis():
    with pytest.raises(np.exceptions.AxisError):
        kd.ptp(kd.ones((2, 3)), axis=kd.array(2))
