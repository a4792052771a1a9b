"""An in-place operator on a NumPy array with a kdsl operand (``d -= kd_x``: NumPy's ``np.subtract(d, kd_x,
out=(d,))`` dispatched to kdsl) is refused by design (no silent copy to the host: docs/numpy-api.md, "Deliberate
differences"); the TypeError names both ways to write it, and both give NumPy's values
(kdsl/frontend/array/numpy_protocol.py)."""

import numpy as np
import pytest

import kdsl as kd

SHAPES = [(0,), (1,), (5,), (3, 1), (2, 3)]
DTYPES = [np.float64, np.float32, np.int32, np.uint8]


def _data(shape, dtype, seed):
    values = np.random.default_rng(seed).integers(0, 9, shape)
    return values.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_the_message_names_both_alternatives_and_both_match_numpy(shape, dtype):
    d, x = _data(shape, dtype, 1), _data(shape, dtype, 2)
    with pytest.raises(TypeError, match=r"out= \(numpy\.ndarray\).*d = kd\.asarray\(d\).*np\.asarray\(x\)"):
        host = d.copy()
        host += kd.asarray(x)
    expected = d + x
    on_device = kd.asarray(d)
    on_device += kd.asarray(x)
    np.testing.assert_array_equal(on_device.numpy(), expected)
    on_host = d.copy()
    on_host += np.asarray(kd.asarray(x))
    np.testing.assert_array_equal(on_host, expected)


def test_ufunc_out_reduce_out_and_a_host_view_are_refused_alike():
    d = np.arange(6.0).reshape(2, 3)
    k = kd.asarray(np.ones((2, 3)))
    for call in (lambda: np.add(d, k, out=d), lambda: np.multiply(k, 2.0, out=d[:, ::2][:, :1]),
                 lambda: np.add.reduce(k, axis=0, out=d[0]), lambda: np.subtract.outer(k[0], k[0], out=d)):
        with pytest.raises(TypeError, match=r"kd\.asarray\(d\)"):
            call()
    np.testing.assert_array_equal(d, np.arange(6.0).reshape(2, 3))  # nothing was written


def test_nan_and_inf_go_through_the_device_alternative():
    d = np.array([np.nan, np.inf, -1.0])
    x = np.array([1.0, -np.inf, np.inf])
    a = kd.asarray(d)
    a -= kd.asarray(x)
    np.testing.assert_array_equal(a.numpy(), d - x)
