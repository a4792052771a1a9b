"""``kd.ndarray(shape, dtype=, buffer=, offset=, strides=, order=)``, NumPy's constructor form (kdsl raised
TypeError): an array of that shape as ``kd.empty`` makes it, or a copy of NumPy's view of a buffer; NumPy's
errors. ``kd.ndarray`` stays ``kd.Array`` (isinstance checks); an integer is a length (it was a 0-d array), a
Fraction or float (``statistics``' conversion) a 0-d array."""

import fractions

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("shape", [(2, 3), [4], (0, 2), (1, 1, 1), 5, (), np.int64(3)], ids=repr)
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.bool_, np.complex64])
def test_shape_and_dtype_as_numpy(shape, dtype):
    want = np.ndarray(shape, dtype)
    for got in (kd.ndarray(shape, dtype), kd.ndarray(shape=shape, dtype=dtype)):
        assert isinstance(got, kd.ndarray) and type(got) is kd.Array
        assert got.shape == want.shape and got.dtype == want.dtype and got.size == want.size
        np.testing.assert_array_equal(got.numpy(), np.zeros(want.shape, want.dtype))  # kd.empty's zeros
    assert kd.ndarray(shape).shape == want.shape  # a lone integer too: a length, as NumPy's
    assert kd.ndarray(shape).dtype == kd.empty(shape).dtype  # kdsl's default float, as kd.empty


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.int16])
def test_buffer_offset_and_strides_copy_numpys_view(dtype):
    buf = np.arange(24).astype(dtype)
    size = buf.itemsize
    cases = [dict(shape=(2, 3), buffer=buf), dict(shape=(3,), buffer=buf, offset=2 * size),
             dict(shape=(2, 2), buffer=buf, strides=(6 * size, 2 * size)),  # a strided, non-contiguous view
             dict(shape=(3, 2), buffer=buf, order="F"), dict(shape=(0,), buffer=buf)]
    for kw in cases:
        want = np.ndarray(dtype=dtype, **kw)
        got = kd.ndarray(dtype=dtype, **kw)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want)
    got = kd.ndarray((2, 2), dtype, strides=(2 * size, size))
    np.testing.assert_array_equal(got.numpy(), np.zeros((2, 2), dtype))


def test_numpys_errors():
    for bad in [lambda m: m.ndarray(), lambda m: m.ndarray((2, -1)), lambda m: m.ndarray((4,), np.int32, b"12"),
                lambda m: m.ndarray((2,), np.int32, np.zeros(2, np.int32), offset=8)]:
        with pytest.raises((TypeError, ValueError)) as want:
            bad(np)
        with pytest.raises(type(want.value)):
            bad(kd)


def test_ndarray_is_still_the_array_class_and_numbers_stay_zero_d():
    assert kd.ndarray is kd.Array
    a = kd.asarray(np.arange(6.0).reshape(2, 3))
    assert isinstance(a.T, kd.ndarray) and isinstance(a[:, ::2], kd.ndarray)
    assert not isinstance(np.zeros(2), kd.ndarray)
    # (Array(number) takes the dtype of the last 0-d array whose exact value this thread read, kdsl/frontend/
    # array/scalar_number.py: an earlier test's integer numerator made it int32 when files ran in another order)
    kd.asarray(0.5).as_integer_ratio()
    assert kd.Array(2.5).shape == () and kd.Array(fractions.Fraction(7, 2)).item() == 3.5  # statistics' numbers
    written = kd.ndarray((2, 2), np.float32)
    written[0] = 1.5
    np.testing.assert_array_equal(written.numpy(), [[1.5, 1.5], [0, 0]])
