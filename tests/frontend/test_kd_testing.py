"""The NumPy-vs-kdsl comparison helper itself: it must catch what it claims to compare."""

import numpy as np
import pytest
from kd_testing import assert_match

import kdsl as kd


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize(("got", "expected"), [
    ([1 + 3j, 2], [1 + 2j, 2]),                                   # imaginary part differs
    ([complex(np.nan, 1)], [complex(np.nan, 5)]),                 # NaN real part, imaginary differs
    ([1 + 1j], [complex(1, np.nan)]),                             # NaN in the other part
    ([complex(np.inf, 0)], [complex(np.inf, 1)]),
    ([2 + 0j], [2 - 2e-3j]),
])
def test_complex_mismatch_is_caught(got, expected, dtype):
    with pytest.raises(AssertionError, match="imag"):
        assert_match(kd.asarray(np.array(got, dtype)), np.array(expected, dtype))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_real_part_mismatch_is_caught(dtype):
    with pytest.raises(AssertionError, match="real"):
        assert_match(np.array([1 + 1j], dtype), np.array([1.5 + 1j], dtype))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("values", [
    [1 + 2j, complex(np.nan, 1), complex(1, np.nan), complex(np.inf, -np.inf), -0.0 + 0j],
    [],
])
def test_complex_equal_values_pass(values, dtype):
    a = np.array(values, dtype)
    assert_match(kd.asarray(a), a)
    assert_match(np.array(values[0] if values else 0, dtype), np.array(values[0] if values else 0, dtype))


def test_complex_tolerance_scales_with_modulus():
    # a rounding-sized imaginary part next to a large real part is within tolerance, as for np.allclose
    assert_match(np.array([1e6 + 1e-3j]), np.array([1e6 + 0j]), rtol=1e-6)
    with pytest.raises(AssertionError):
        assert_match(np.array([1e6 + 10j]), np.array([1e6 + 0j]), rtol=1e-6)


def test_complex_dtype_still_checked():
    with pytest.raises(AssertionError, match="dtype"):
        assert_match(np.array([1 + 1j], np.complex64), np.array([1 + 1j], np.complex128))
    with pytest.raises(AssertionError, match="dtype"):
        assert_match(np.array([1.0]), np.array([1 + 0j]))
