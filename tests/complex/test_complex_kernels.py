"""Complex arrays in @kd.kernel: the same helpers render the kernel face's arithmetic (one scalar library)."""

import numpy as np
import pytest

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
def _ordered(x: kd.complex64[:], y: kd.bool[:]):
    i = kd.global_id(0)
    y[i] = x[i] < x[i]


def test_complex_arithmetic_in_kernels():
    a = np.array([1 + 1j, 2j, -3 - 0.5j, 0.25], np.complex64)
    x, y, m = kd.asarray(a), kd.zeros(4, dtype=kd.complex64), kd.zeros(4)
    _poly[4](x, y)
    _modulus[4](x, m)
    np.testing.assert_allclose(y.numpy(), a * a + a / (a + np.float32(2)), rtol=2e-6)
    np.testing.assert_allclose(m.numpy(), np.abs(a), rtol=2e-6)


def test_ordered_comparison_in_a_kernel_is_refused():
    with pytest.raises(TypeError, match="complex64"):
        _ordered[2](kd.asarray(np.array([1j, 2], np.complex64)), kd.zeros(2, dtype=kd.bool))
