"""The orthogonal bases' ``der int mul mulx pow`` (computed through the power basis in float64) return the
dtype NumPy's do: float32 coefficients give float32, integers float64 (kdsl gave float64 for float32)."""

import numpy as np
import pytest

import kdsl as kd

FAMILIES = [("chebyshev", "cheb"), ("legendre", "leg"), ("hermite", "herm"), ("hermite_e", "herme"),
            ("laguerre", "lag"), ("polynomial", "poly")]
CALLS = {
    "der": lambda f, c, m: f(c, 2, axis=-1 if c.ndim > 1 else 0),
    "int": lambda f, c, m: f(c, 1, k=[1], lbnd=0.5),
    "mul": lambda f, c, m: f(c[..., 0] if c.ndim > 1 else c, [1, 2]),
    "mulx": lambda f, c, m: f(c[..., 0] if c.ndim > 1 else c),
    "pow": lambda f, c, m: f(c[..., 0] if c.ndim > 1 else c, 2),
}
COEFFICIENTS = {
    "float32": np.float32([1.5, -2.0, 0.25, 3.0]),
    "int32": np.array([1, -2, 3], np.int32),
    "float32 2-d strided": np.float32([[1.0, 2.0, 0.5], [-1.0, 0.0, 2.0], [3.0, 1.0, 1.0]])[:, ::-1],
    "complex64": np.complex64([1 + 1j, -2.0, 0.5j]),
    "float64 size-1": np.array([2.5]),
}


@pytest.mark.parametrize("family, prefix", FAMILIES)
@pytest.mark.parametrize("op", CALLS)
@pytest.mark.parametrize("name", COEFFICIENTS)
def test_dtype_and_values_as_numpy(family, prefix, op, name):
    c = COEFFICIENTS[name]
    want = CALLS[op](getattr(getattr(np.polynomial, family), prefix + op), c, np)
    got = CALLS[op](getattr(getattr(kd.polynomial, family), prefix + op), kd.asarray(c), kd)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=2e-5, atol=1e-5)
