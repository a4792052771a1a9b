"""``np.hanning(np.count_nonzero(mask))``, ``np.kaiser(n, beta)`` with ``n`` a 0-d result (kdsl's stand-in for
NumPy's ``np.int64``/``np.float64`` scalars) was a TypeError ("M must be a Python number")."""

import numpy as np
import pytest

import kdsl as kd

WINDOWS = ["hanning", "hamming", "blackman", "bartlett"]


@pytest.mark.parametrize("name", WINDOWS + ["kaiser"])
@pytest.mark.parametrize("m", [0, 1, 2, 5, 16])
@pytest.mark.parametrize("dtype", [kd.int32, kd.int64, kd.uint8, kd.float32, kd.float64])
def test_zero_d_length(name, m, dtype):
    mask = kd.asarray(np.arange(20) < m)
    M = kd.count_nonzero(mask).astype(dtype)
    args = (5.0,) if name == "kaiser" else ()
    got = getattr(kd, name)(M, *args)
    want = getattr(np, name)(np.int64(m), *args)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=2e-6, atol=2e-7)


@pytest.mark.parametrize("name", WINDOWS)
def test_zero_d_float_length(name):
    got = getattr(kd, name)(kd.array(6.0, dtype=kd.float64))
    np.testing.assert_allclose(got.numpy(), getattr(np, name)(np.float64(6.0)), rtol=2e-6, atol=2e-7)


@pytest.mark.parametrize("name", WINDOWS)
@pytest.mark.parametrize("bad", [kd.array([3, 4]), kd.array(True), kd.array(3 + 0j), "4"])
def test_not_a_length_refused(name, bad):
    with pytest.raises(TypeError, match="window length M"):
        getattr(kd, name)(bad)


def test_windowed_segment():
    """The program's form: a window as long as a masked segment."""
    x = kd.asarray(np.sin(np.arange(64) / 3.0))
    gate = kd.arange(64) >= 20
    seg = x[gate] * kd.hanning(kd.count_nonzero(gate))
    want = np.sin(np.arange(64) / 3.0)[20:] * np.hanning(44)
    np.testing.assert_allclose(seg.numpy(), want, rtol=1e-5, atol=1e-6)
