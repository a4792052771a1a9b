"""Complex arrays in @kd.kernel: the same helpers render the kernel face's arithmetic (one scalar library)."""

import numpy as np

import kdsl as kd


@kd.kernel
def _poly(x: kd.complex64[:], y: kd.complex64[:]):
    i = kd.global_id(0)
    y[i] = x[i] * x[i] + x[i] / (x[i] + 2.0)


@kd.kernel
def _modulus(x: kd.complex64[:], y: kd.float32[:]):
    i = kd.global_id(0)
    y[i] = abs(x[i])


@kd.kernel
def _ordered(x: kd.complex64[:], z: kd.complex64[:], y: kd.bool[:]):
    i = kd.global_id(0)
    y[i] = x[i] < z[i]


def test_complex_arithmetic_in_kernels():
    a = np.array([1 + 1j, 2j, -3 - 0.5j, 0.25], np.complex64)
    x, y, m = kd.asarray(a), kd.zeros(4, dtype=kd.complex64), kd.zeros(4)
    _poly[4](x, y)
    _modulus[4](x, m)
    np.testing.assert_allclose(y.numpy(), a * a + a / (a + np.float32(2)), rtol=2e-6)
    np.testing.assert_allclose(m.numpy(), np.abs(a), rtol=2e-6)


def test_ordered_comparison_in_a_kernel_is_numpys_order():
    a = np.array([1j, 2, 1 + 1j, complex(1, np.nan)], np.complex64)
    b = np.array([2j, 2, 1 + 0j, 0j], np.complex64)
    y = kd.zeros(4, dtype=kd.bool)
    _ordered[4](kd.asarray(a), kd.asarray(b), y)
    np.testing.assert_array_equal(y.numpy(), a < b)
