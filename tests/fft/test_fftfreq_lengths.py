"""``np.fft.rfftfreq(n, d)`` with ``n`` a 0-d result (``n = x.max() + 1``, ``m = np.sum(mask)``: kdsl's stand-in for
NumPy's ``np.int64`` scalar) was refused (ValueError: n must be a positive int); ``d`` a 0-d array (``t[1] - t[0]``)
too is checked here."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("n", [1, 2, 7, 8, 33])
@pytest.mark.parametrize("dtype", [kd.int32, kd.int64, kd.uint8, kd.int16])
def test_n_as_zero_d_integer(name, n, dtype):
    k = kd.array([n - 1, 0], dtype=dtype).max() + 1
    got = getattr(kd.fft, name)(k, 0.25)
    want = getattr(np.fft, name)(np.int64(n), 0.25)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    assert got.shape == want.shape


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("n", [5, np.int64(6), np.int32(9)])
def test_d_as_zero_d_spacing(name, n):
    t_np = np.linspace(0, 2, 21)
    got = getattr(kd.fft, name)(n, d=kd.asarray(t_np)[1] - kd.asarray(t_np)[0])
    np.testing.assert_allclose(got.numpy(), getattr(np.fft, name)(n, d=t_np[1] - t_np[0]), rtol=1e-5)


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("bad", [kd.array(2.5), kd.array([3, 4]), kd.array(0), kd.array(True), 0, -3, 2.0])
def test_bad_lengths_refused(name, bad):
    with pytest.raises(ValueError, match="n must be a positive int"):
        getattr(kd.fft, name)(bad)


def test_frequency_axis_of_a_spectrum():
    """The program's form: the bin count read from a reduction, the spacing from the time axis."""
    t = kd.linspace(0, 1, 65)[:-1]
    x = kd.sin(2 * np.pi * 5 * t)
    spec = kd.abs(kd.fft.rfft(x))
    f = kd.fft.rfftfreq(kd.sum(kd.ones_like(t, dtype=kd.int64)), d=t[1] - t[0])
    assert f.shape == spec.shape
    assert float(f[int(spec.argmax())]) == pytest.approx(5.0)


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("axis", [0, 1, -1, -2])
@pytest.mark.parametrize("shape", [(3, 4), (5, 1), (0, 3)])
def test_shift_axes_as_zero_d(name, axis, shape):
    a = np.arange(int(np.prod(shape))).reshape(shape)
    ax = kd.array([axis, -5]).max()
    got = getattr(kd.fft, name)(kd.asarray(a), axes=ax)
    np.testing.assert_array_equal(got.numpy(), getattr(np.fft, name)(a, axes=np.int64(axis)))
    got_np_int = getattr(kd.fft, name)(kd.asarray(a), axes=np.int64(axis))
    np.testing.assert_array_equal(got_np_int.numpy(), getattr(np.fft, name)(a, axes=axis))


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("d,expect", [(0.5, "float32"), (2, "float32"), (np.float64(0.01), "float64"),
                                      (np.float32(0.25), "float64"), (np.array(0.1), "float64"),
                                      (np.linspace(0, 1, 11)[1], "float64")])
def test_the_spacing_s_type_picks_the_dtype(name, d, expect):
    """Python numbers: kdsl's default float32; typed host data (``t[1] - t[0]`` of a NumPy float64 array,
    NumPy scalars): NumPy's float64, as kd.linspace's endpoints."""
    got = getattr(kd.fft, name)(10, d)
    want = getattr(np.fft, name)(10, d)
    assert got.dtype.name == expect
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_a_kdsl_spacing_keeps_its_precision():
    if "float64" not in kd.device().features:
        pytest.skip("the device has no float64")
    assert kd.fft.fftfreq(8, kd.asarray(0.5, dtype=kd.float64)).dtype == kd.float64
    assert kd.fft.fftfreq(8, kd.asarray(0.5)).dtype == kd.float32
    assert kd.fft.rfftfreq(8, np.float64(0.5), dtype=kd.float32).dtype == kd.float32
