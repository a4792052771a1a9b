"""kd.float32() and kd.complex64(re, im): the dtypes' scalar types take NumPy's arguments."""
import numpy as np
import pytest

import kdsl as kd

COMPLEX = ["complex64", "complex128"]
ALL = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
       "float64", *COMPLEX]


@pytest.mark.parametrize("name", COMPLEX)
@pytest.mark.parametrize("parts", [(1, 2), (1, np.nan), (np.nan, 1), (np.inf, -0.0), (0.5,), ()])
def test_complex_from_parts(name, parts):
    got, want = getattr(kd, name)(*parts), getattr(np, name)(*parts)
    assert type(got) is type(want)
    np.testing.assert_array_equal(got, want)
    assert np.signbit(got.imag) == np.signbit(want.imag)


@pytest.mark.parametrize("name", ALL)
def test_no_argument_is_zero(name):
    got, want = getattr(kd, name)(), getattr(np, name)()
    assert type(got) is type(want) and got == want


@pytest.mark.parametrize("name", ALL)
def test_one_value_and_arrays(name):
    data = np.array([[1, 0], [3, 2]], np.int8)[:, ::-1]  # a non-contiguous view
    np.testing.assert_array_equal(getattr(kd, name)(data), getattr(np, name)(data))
    assert getattr(kd, name)(np.zeros((0, 1))).shape == (0, 1)


def test_errors_as_numpy():
    for m in (np, kd):
        with pytest.raises(TypeError):
            m.float32(1, 2)
        with pytest.raises(TypeError):
            m.complex64(1, 2, 3)
