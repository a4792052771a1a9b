"""``a.choose(c0, c1, c2)``: as NumPy's method, several positional arguments are the choices (kdsl took the
second as ``out`` and failed); one positional argument is the sequence of choices, ``out``/``mode`` by keyword."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "bool"])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_positional_choices(dtype, mode):
    idx = np.array([[2, 0, 1], [1, 1, 0]])
    choices = [np.arange(3).astype(dtype), (np.arange(6).reshape(2, 3) * 3).astype(dtype), np.array(5).astype(dtype)]
    want = idx.choose(*choices, mode=mode)
    got = kd.asarray(idx).choose(*[kd.asarray(c) for c in choices], mode=mode)
    assert got.dtype.name == want.dtype.name
    np.testing.assert_array_equal(got.numpy(), want)


def test_positional_choices_special_values():
    idx = np.array([1, 0, 1, 0])[::2]  # a strided view
    want = idx.choose([np.nan, np.inf], [-np.inf, 0.0])
    got = kd.asarray(np.array([1, 0, 1, 0]))[::2].choose(kd.asarray([np.nan, np.inf]), [-np.inf, 0.0])
    np.testing.assert_array_equal(got.numpy(), want)


def test_empty_and_size_one():
    idx = np.zeros((0, 1), np.int64)
    assert kd.asarray(idx).choose([1.0], [2.0]).shape == idx.choose([1.0], [2.0]).shape
    np.testing.assert_array_equal(kd.asarray([1]).choose([3], [4]).numpy(), np.array([1]).choose([3], [4]))


def test_sequence_and_out_keyword():
    idx = np.array([1, 0, 1])
    out = kd.zeros(3, dtype=kd.int64)
    got = kd.asarray(idx).choose([[1, 2, 3], [4, 5, 6]], out=out)
    assert got is out
    np.testing.assert_array_equal(out.numpy(), idx.choose([[1, 2, 3], [4, 5, 6]]))


def test_no_choices_is_numpy_type_error():
    with pytest.raises(TypeError) as want:
        np.arange(3).choose()
    with pytest.raises(TypeError) as got:
        kd.arange(3).choose()
    assert str(got.value) == str(want.value)


def test_out_of_range_raises():
    with pytest.raises(ValueError):
        np.array([2]).choose([1], [2])
    with pytest.raises(ValueError):
        kd.asarray([2]).choose([1], [2])
