"""kd.fft's arguments as NumPy's fft tests expect (numpy/fft/tests/test_pocketfft.py): ``out=``, ``s`` entries
of -1 and None and ``s`` without ``axes`` (NumPy 2's DeprecationWarnings), and the error types of non-integer
lengths, 0-d input, ``fftfreq(0)`` and ``fftshift`` of 0-d input; hfft's messages name hfft."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(12)


def _signal(shape, dtype=np.complex128) -> np.ndarray:
    x = RNG.standard_normal(shape)
    return (x + 1j * RNG.standard_normal(shape)).astype(dtype) if np.dtype(dtype).kind == "c" else x.astype(dtype)


def _close(got, want, dtype=np.complex128) -> None:
    tol = 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10
    np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol * max(1.0, np.abs(want).max(initial=0)))


ONE_D = [("fft", np.complex128, lambda n: n), ("ifft", np.complex128, lambda n: n),
         ("rfft", np.float64, lambda n: n // 2 + 1), ("ihfft", np.float64, lambda n: n // 2 + 1),
         ("irfft", np.complex128, lambda n: 2 * (n - 1)), ("hfft", np.complex128, lambda n: 2 * (n - 1))]


@pytest.mark.parametrize("name, dtype, length", ONE_D)
@pytest.mark.parametrize("shape, axis", [((8,), -1), ((3, 5), 0), ((2, 6), 1), ((1, 4), 1), ((2, 1), 0)])
def test_out_is_filled_and_returned(name, dtype, length, shape, axis) -> None:
    x = _signal(shape, dtype)
    want = getattr(np.fft, name)(x, axis=axis)
    out = kd.zeros(want.shape, dtype=want.dtype)
    got = getattr(kd.fft, name)(kd.asarray(x), axis=axis, out=out)
    assert got is out
    assert want.shape[axis] == length(shape[axis])
    _close(out.numpy(), want)


def test_out_may_be_the_input_or_a_view() -> None:
    x = _signal((4, 6))
    kx = kd.asarray(x)
    got = kd.fft.fft(kx, axis=1, out=kx)
    assert got is kx
    _close(kx.numpy(), np.fft.fft(x, axis=1))
    base = kd.zeros((4, 12), dtype=kd.complex128)
    view = base[:, ::2]
    assert kd.fft.fft(kd.asarray(x), out=view) is view
    _close(base.numpy()[:, ::2], np.fft.fft(x))
    np.testing.assert_array_equal(base.numpy()[:, 1::2], 0)


@pytest.mark.parametrize("name", ["fftn", "ifftn", "fft2", "ifft2", "rfftn", "rfft2", "irfftn", "irfft2"])
def test_nd_out_and_s(name) -> None:
    x = _signal((4, 6), np.float64 if name.startswith("rfft") else np.complex128)
    want = getattr(np.fft, name)(x, s=(3, 4), axes=(0, 1))
    out = kd.zeros(want.shape, dtype=want.dtype)
    assert getattr(kd.fft, name)(kd.asarray(x), s=(3, 4), axes=(0, 1), out=out) is out
    _close(out.numpy(), want)
    with pytest.raises(ValueError, match="wrong shape"):
        getattr(kd.fft, name)(kd.asarray(x), s=(3, 4), axes=(0, 1), out=kd.zeros((4, 6), dtype=want.dtype))


def test_out_casts_same_kind_only() -> None:
    x = kd.asarray(_signal(8, np.float64))
    low = kd.zeros(8, dtype=kd.complex64)
    assert kd.fft.fft(x, out=low) is low  # complex128 -> complex64: same kind, as NumPy allows
    _close(low.numpy(), np.fft.fft(np.asarray(x)).astype(np.complex64), np.complex64)
    with pytest.raises(TypeError, match="Cannot cast ufunc 'fft' output"):
        kd.fft.fft(x, out=kd.zeros(8, dtype=kd.float64))
    with pytest.raises(TypeError, match="must be of ArrayType"):
        kd.fft.fft(x, out="")
    with pytest.raises(TypeError, match="must be of ArrayType"):
        kd.fft.fft(x, out=np.zeros(8, complex))
    with pytest.raises(ValueError, match="wrong shape"):
        kd.fft.fft(x, out=kd.zeros((2, 4), dtype=kd.complex128))
    with pytest.raises(ValueError, match="wrong shape"):  # no broadcasting into out
        kd.fft.fft(kd.ones((1, 8)), out=kd.zeros((3, 8), dtype=kd.complex64))


@pytest.mark.parametrize("name", ["fftn", "ifftn", "fft2", "ifft2", "rfftn", "irfftn"])
@pytest.mark.parametrize("s", [(-1, 5), (3, -1), (-1, -1)])
def test_s_minus_one_is_the_whole_axis(name, s) -> None:
    x = np.arange(60.0).reshape(6, 10)
    want = getattr(np.fft, name)(x, s=s, axes=(0, 1))
    _close(getattr(kd.fft, name)(kd.asarray(x), s=s, axes=(0, 1)), want)


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2"])
def test_s_without_axes_warns(name) -> None:
    x = np.arange(60.0).reshape(6, 10)
    with pytest.warns(DeprecationWarning, match="`axes` should not be `None` if `s`"):
        want = getattr(np.fft, name)(x, s=(-1, 5), axes=None)
    with pytest.warns(DeprecationWarning, match="`axes` should not be `None` if `s`"):
        got = getattr(kd.fft, name)(kd.asarray(x), s=(-1, 5), axes=None)
    _close(got, want)


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("s", [(4, None, 3), (None, None, None), (None, 5, None)])
def test_s_with_none_warns_and_uses_the_default(name, s) -> None:
    x = _signal((6, 4, 5), np.float64 if name == "rfftn" else np.complex128)
    with pytest.warns(DeprecationWarning, match="array containing `None` values to `s`"):
        want = getattr(np.fft, name)(x, s=s, axes=(0, 1, 2))
    with pytest.warns(DeprecationWarning, match="array containing `None` values to `s`"):
        got = getattr(kd.fft, name)(kd.asarray(x), s=s, axes=(0, 1, 2))
    _close(got, want)


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("n", [4.0, 2.5, "4", kd.asarray(4.0)])
def test_non_integer_lengths_raise_type_error(name, n) -> None:
    with pytest.raises(TypeError):
        getattr(np.fft, name)(np.ones(4), n=n if not isinstance(n, kd.Array) else np.asarray(4.0))
    with pytest.raises(TypeError):
        getattr(kd.fft, name)(kd.ones(4), n=n)


def test_non_integer_s_raises_type_error() -> None:
    with pytest.raises(TypeError):
        np.fft.fftn(np.ones((4, 4)), s=(4.0, 4), axes=(0, 1))
    with pytest.raises(TypeError):  # the whole-axes program path checks s too
        kd.fft.fftn(kd.ones((4, 4)), s=(4.0, 4), axes=(0, 1))


def test_integer_like_lengths_work() -> None:
    x = _signal(6)
    _close(kd.fft.fft(kd.asarray(x), n=np.int64(4)), np.fft.fft(x, n=4))
    _close(kd.fft.fft(kd.asarray(x), n=kd.asarray(8)), np.fft.fft(x, n=8))


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_zero_d_input_raises_index_error(name) -> None:
    with pytest.raises(IndexError):
        getattr(np.fft, name)(np.asarray(1.0))
    with pytest.raises(IndexError):
        getattr(kd.fft, name)(kd.asarray(1.0))


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_fftfreq_of_zero_raises_zero_division(name) -> None:
    with pytest.raises(ZeroDivisionError):
        getattr(np.fft, name)(0)
    with pytest.raises(ZeroDivisionError):
        getattr(kd.fft, name)(0)
    with pytest.raises(ZeroDivisionError):
        getattr(kd.fft, name)(kd.asarray(0))


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_shift_of_zero_d_raises(name) -> None:
    with pytest.raises(ValueError):
        getattr(np.fft, name)(np.asarray(1.0))
    with pytest.raises(ValueError):
        getattr(kd.fft, name)(kd.asarray(1.0))
    x = np.array([np.nan, np.inf, 1.0, -np.inf, 2.0])
    np.testing.assert_array_equal(getattr(kd.fft, name)(kd.asarray(x)).numpy(), getattr(np.fft, name)(x))


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("n", [0, -1])
def test_invalid_lengths_give_numpys_message_naming_the_function(name, n) -> None:
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(-?\d\) specified"):
        getattr(np.fft, name)(np.ones(4), n=n)
    with pytest.raises(ValueError, match=rf"kd.fft.{name}: Invalid number of FFT data points \({n}\) specified"):
        getattr(kd.fft, name)(kd.ones(4), n=n)


def test_empty_input_message() -> None:
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        kd.fft.ifft(kd.asarray(np.zeros(0)))


def test_nan_and_inf_stay_in_their_rows() -> None:
    x = np.zeros((3, 4))
    x[1, 2] = np.nan
    got = kd.fft.fft(kd.asarray(x), out=kd.zeros((3, 4), dtype=kd.complex128)).numpy()
    assert np.isnan(got[1]).all() and not np.isnan(got[[0, 2]]).any()


@pytest.mark.parametrize("name", ["fftn", "ifftn", "fft2", "ifft2", "rfftn", "irfftn", "rfft2", "irfft2"])
def test_deprecation_warnings_point_at_the_caller(name) -> None:
    with pytest.warns(DeprecationWarning) as record:
        getattr(kd.fft, name)(kd.ones((4, 4)), s=(None, 4), axes=(0, 1))
    assert {w.filename for w in record} == {__file__}


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("shape, s", [((4,), (2, 3)), ((4,), (-1, 2)), ((3, 4), (2, 2, 2))])
def test_s_longer_than_the_shape_names_an_axis_that_is_not_there(name, shape, s):
    """Without ``axes``, ``s`` names the last ``len(s)`` axes counted from the end, as NumPy does: one entry more
    than the dimensions is an AxisError (kdsl counted from the front, wrapped around and transformed axis 0
    twice: a result NumPy does not give)."""
    host = _signal(shape, np.float64 if name == "rfftn" else np.complex128)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # (s without axes: NumPy 2's deprecation)
        with pytest.raises(IndexError):  # (NumPy raises AxisError or IndexError, by the entry)
            getattr(np.fft, name)(host, s=s)
        with pytest.raises(np.exceptions.AxisError, match="out of bounds"):
            getattr(kd.fft, name)(kd.asarray(host), s=s)


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("shape, n", [((0, 3), None), ((2, 0, 4), None), ((0, 3), 5)])
def test_norm_is_checked_for_empty_input(name, shape, n):
    """An empty batch has nothing to scale, but NumPy refuses the norm all the same (kdsl returned)."""
    host = np.zeros(shape, np.float64 if name in ("rfft", "ihfft") else np.complex128)
    with pytest.raises(ValueError, match="norm"):
        getattr(np.fft, name)(host, n=n, norm="bad")
    with pytest.raises(ValueError, match="norm"):
        getattr(kd.fft, name)(kd.asarray(host), n=n, norm="bad")


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_a_float_axis_is_a_type_error(name):
    host = _signal(6, np.float64 if name in ("rfft", "ihfft") else np.complex128)
    with pytest.raises(TypeError):
        getattr(np.fft, name)(host, axis=0.0)
    with pytest.raises(TypeError, match="integer"):
        getattr(kd.fft, name)(kd.asarray(host), axis=0.0)


@pytest.mark.parametrize("name", ["fftn", "ifftn", "fft2", "ifft2"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int32, np.complex64])
def test_no_axes_give_the_input_back(name, dtype):
    """``axes=[]`` transforms nothing: NumPy returns the input as it is, dtype and all (kdsl made float16 and
    integers complex64)."""
    host = np.arange(6).reshape(2, 3).astype(dtype)
    want = getattr(np.fft, name)(host, axes=[])
    got = getattr(kd.fft, name)(kd.asarray(host), axes=[])
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("axes", [[], ()])
def test_shifts_over_no_axes_give_the_input_back(name, axes):
    host = np.arange(12).reshape(3, 4)
    want = getattr(np.fft, name)(host, axes=axes)
    np.testing.assert_array_equal(getattr(kd.fft, name)(kd.asarray(host), axes=axes).numpy(), want)


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_shifts_of_0d_input_raise_numpys_index_error(name):
    with pytest.raises(IndexError):
        getattr(np.fft, name)(np.float64(3.0), axes=0)
    with pytest.raises(IndexError, match="0-d"):
        getattr(kd.fft, name)(kd.asarray(3.0))
