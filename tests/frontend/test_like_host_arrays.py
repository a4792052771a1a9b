"""``np.empty_like(x)`` / ``zeros_like`` / ``ones_like`` / ``full_like`` of a NumPy array (host data): NumPy 2's
``ndarray.device`` is the string ``"cpu"``, which kdsl took for a Vulkan device name (ValueError)."""

import numpy as np
import pytest

import kdsl as kd

SHAPES = [(0,), (1,), (5,), (3, 4), (2, 1, 3)]
DTYPES = [np.float64, np.float32, np.int16, np.uint8, np.bool_, np.complex64]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["zeros_like", "ones_like", "empty_like"])
def test_like_of_numpy_array(name, shape, dtype):
    host = np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)
    got = getattr(kd, name)(host)
    want = getattr(np, name)(host)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert got.device is kd.device()
    if name != "empty_like":
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("dtype", [None, np.int8, np.float32])
def test_full_like_of_numpy_view(dtype):
    host = np.linspace(0, 1, 12).reshape(3, 4).T[::2]
    got = kd.full_like(host, 7, dtype=dtype)
    np.testing.assert_array_equal(got.numpy(), np.full_like(host, 7, dtype=dtype))
    assert got.dtype == np.full_like(host, 7, dtype=dtype).dtype


def test_like_of_list_and_kdsl_array_keep_device():
    a = kd.arange(6).reshape(2, 3)
    assert kd.zeros_like(a).device is a.device
    np.testing.assert_array_equal(kd.ones_like([[1, 2], [3, 4]]).numpy(), np.ones((2, 2), dtype=np.int32))


def test_empty_like_then_fill_loop():
    """The EMA loop that failed: ``out = np.empty_like(x); out[0] = x[0]; out[i] = ...``."""
    x = np.random.default_rng(5).normal(size=8)
    got, want = kd.empty_like(x), np.empty_like(x)
    for out in (got, want):
        out[0] = x[0]
        for i in range(1, len(x)):
            out[i] = 0.5 * x[i] + 0.5 * out[i - 1]
    np.testing.assert_allclose(got.numpy(), want)


def test_bad_device_still_refused():
    with pytest.raises(ValueError, match="no device named"):
        kd.zeros_like(np.zeros(3), device="no-such-gpu")
