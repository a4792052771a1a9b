"""out= of kd.ma's reductions against numpy.ma's (test_core.py's TestMaskedArrayMethods / MathMethods test_*_out
cases): a kd.ma out takes the result's mask; a plain out keeps the filled values (NaN for min/max/ptp where
nothing is unmasked; MaskError for an integer out). kd.ma raised TypeError("out= is not supported")."""

import warnings

import numpy as np
import pytest

import kdsl as kd

DATA = np.array([[1.0, 2.0, np.inf], [3.0, 4.0, 5.0], [np.nan, -1.0, 0.5], [6.0, 7.0, 8.0]])
MASK = np.array([[1, 1, 1], [0, 1, 0], [1, 0, 1], [0, 0, 0]], bool)  # row 0 fully masked; NaN, inf masked
NAMES = ["sum", "prod", "mean", "var", "std", "min", "max", "ptp", "any", "all"]


def numpy_into(name, x, out, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(x, name)(out=out, **kwargs)


def check_masked_out(got_out, want_out):
    np.testing.assert_array_equal(np.ma.getmaskarray(got_out.to_numpy()), np.ma.getmaskarray(want_out))
    np.testing.assert_allclose(got_out.data.numpy(), want_out.data, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("axis", [1, 0])
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_into_a_masked_array(name, axis, layout):
    x = np.ma.array(DATA, mask=MASK)
    if layout == "strided":
        x = x[::-1, ::2]
    kx = kd.ma.array(x)
    n = x.shape[1 - axis]
    want = np.ma.array(np.full(n, 9.0), mask=np.zeros(n, bool))
    got = kd.ma.array(kd.asarray(np.full(n, 9.0)))  # nomask: the reduction's mask still lands on it
    assert getattr(kx, name)(axis=axis, out=got) is got
    numpy_into(name, x, want, axis=axis)
    check_masked_out(got, want)
    got2 = kd.ma.zeros(n)
    assert getattr(kd.ma, name)(kx, axis=axis, out=got2) is got2  # the function form too
    check_masked_out(got2, want)


@pytest.mark.parametrize("name", NAMES)
def test_into_a_plain_float_array(name):
    x = np.ma.array(DATA, mask=MASK)
    want = np.full(4, 9.0)
    numpy_into(name, x, want, axis=1)
    got = kd.asarray(np.full(4, 9.0))
    assert getattr(kd.ma.array(x), name)(axis=1, out=got) is got
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("name", ["min", "max", "ptp"])
def test_min_max_into_an_integer_array_raise_masked_error(name):
    x = np.ma.array(np.arange(6).reshape(2, 3), mask=[[0, 0, 0], [0, 1, 0]])
    out = kd.zeros(2, dtype=kd.int64)
    with pytest.raises(np.ma.MaskError, match="Masked data information would be lost"):
        getattr(kd.ma.array(x), name)(axis=1, out=out)
    with pytest.raises(np.ma.MaskError):  # as NumPy: whether or not anything is masked
        getattr(x, name)(axis=1, out=np.zeros(2, np.int64))


@pytest.mark.parametrize("dtype", [np.int32, np.float32])
def test_scalar_and_keepdims_and_dtype(dtype):
    x = np.ma.array(np.arange(6, dtype=dtype).reshape(2, 3), mask=[[1, 0, 0], [0, 0, 1]])
    kx = kd.ma.array(x)
    got, want = kd.ma.zeros(()), np.ma.zeros(())
    kx.sum(out=got)
    x.sum(out=want)
    check_masked_out(got, want)
    got, want = kd.ma.zeros((2, 1)), np.ma.zeros((2, 1))
    kx.max(axis=1, keepdims=True, out=got)  # (NumPy's mean(keepdims=True, out=) fails on its own flat copy)
    x.max(axis=1, keepdims=True, out=want)
    check_masked_out(got, want)
    got = kd.asarray(np.zeros(3, np.float64))
    kx.prod(axis=0, dtype=np.float64, out=got)
    np.testing.assert_allclose(got.numpy(), x.prod(axis=0, dtype=np.float64, out=np.zeros(3)))


def test_min_max_positional_arguments_are_numpys():
    # np.ma.min(a, axis, out, fill_value): the third is out, not a dtype
    x = np.ma.array([[3.0, 1.0], [2.0, 5.0]], mask=[[0, 1], [0, 0]])
    got = kd.ma.zeros(2)
    assert kd.ma.min(kd.ma.array(x), 1, got) is got
    check_masked_out(got, np.ma.min(x, 1, np.ma.zeros(2)))
    np.testing.assert_array_equal(kd.ma.max(kd.ma.array(x), 0, None, -5.0).data.numpy(), [3.0, 5.0])


def test_empty_input_and_arg_and_cumulative():
    x = np.ma.array(np.zeros((0, 3)), mask=np.zeros((0, 3), bool))
    got, want = kd.ma.zeros(3), np.ma.zeros(3)
    kd.ma.array(x).sum(axis=0, out=got)
    x.sum(axis=0, out=want)
    check_masked_out(got, want)
    y = np.ma.array(DATA, mask=MASK)
    ky = kd.ma.array(y)
    got_i = kd.ma.array(kd.zeros(4, dtype=kd.int64), mask=[1, 0, 0, 0])
    want_i = np.ma.array(np.zeros(4, int), mask=[1, 0, 0, 0])
    ky.argmax(axis=1, out=got_i)
    y.argmax(axis=1, out=want_i)
    check_masked_out(got_i, want_i)  # the mask stays as it was, as NumPy's
    got_c, want_c = kd.ma.zeros((4, 3)), np.ma.zeros((4, 3))
    ky.cumsum(axis=1, out=got_c)
    y.cumsum(axis=1, out=want_c)
    check_masked_out(got_c, want_c)
    plain = kd.zeros(4)
    assert np.sum(ky, axis=1, out=plain) is plain  # NumPy's function with out= runs kd.ma's
    np.testing.assert_allclose(plain.numpy(), y.sum(axis=1, out=np.zeros(4)))
