"""``kd.positive(a)`` and ``+a`` return a new array, as NumPy's (writes into it leave ``a`` alone), and raise
NumPy's ``UFuncTypeError`` (a TypeError) for booleans, which have no ``positive`` loop."""

import numpy as np
import pytest

import kdsl as kd

DTYPES = [np.float32, np.float64, np.int8, np.int32, np.uint16, np.complex64]
SHAPES = [(), (0,), (1,), (3,), (2, 1, 3)]


def _host(shape, dtype):
    values = np.arange(int(np.prod(shape))).reshape(shape) - 1
    return values.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("spell", ["function", "operator"])
def test_values_and_new_array(dtype, shape, spell):
    host = _host(shape, dtype)
    a = kd.asarray(host)
    got = kd.positive(a) if spell == "function" else +a
    want = np.positive(host)
    assert got is not a
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


def test_writing_into_the_result_leaves_the_input():
    a = kd.asarray([1.0, 2.0, 3.0])
    b = +a
    b[0] = 9.0
    c = kd.positive(a)
    c += 1
    assert a.tolist() == [1.0, 2.0, 3.0]
    assert b.tolist() == [9.0, 2.0, 3.0] and c.tolist() == [2.0, 3.0, 4.0]


def test_nan_inf_and_views():
    host = np.array([[np.nan, -np.inf, 0.0], [-0.0, np.inf, 5.0]], np.float32)
    got = kd.positive(kd.asarray(host)[:, ::2].T)
    want = np.positive(host[:, ::2].T)
    np.testing.assert_array_equal(got.numpy(), want)
    assert np.signbit(got.numpy()).tolist() == np.signbit(want).tolist()


@pytest.mark.parametrize("spell", ["function", "operator"])
def test_booleans_raise_numpys_error(spell):
    host = np.array([True, False])
    with pytest.raises(TypeError) as want:
        np.positive(host) if spell == "function" else +host
    a = kd.asarray(host)
    with pytest.raises(TypeError) as got:
        kd.positive(a) if spell == "function" else +a
    assert isinstance(got.value, np._core._exceptions.UFuncTypeError)
    assert str(got.value) == str(want.value)
