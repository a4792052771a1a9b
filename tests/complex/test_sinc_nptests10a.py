"""kd.sinc of complex arrays against NumPy's (they raised TypeError): ``sin(pi z) / (pi z)``, exactly 1 at 0."""

import numpy as np
import pytest

import kdsl as kd

VALUES = [0, 0.5 + 0.25j, 1j, -2.5 + 1j, 1e-8j, 3, -0.0, 2 - 3j]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(8,), (2, 4), (4, 1, 2)])
def test_complex_sinc(dtype, shape):
    a = np.array(VALUES, dtype).reshape(shape)
    got = kd.sinc(kd.asarray(a))
    want = np.sinc(a)
    assert got.dtype.np == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=2e-6 if dtype == np.complex64 else 1e-12, atol=1e-15)


def test_complex_sinc_zero_is_one():
    assert kd.sinc(kd.asarray(np.zeros(3, np.complex64))).tolist() == [1 + 0j] * 3
