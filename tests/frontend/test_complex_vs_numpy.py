"""Complex dtypes through the shared ``numpy_kdsl_allclose`` helper (which compares real and imaginary parts):
arithmetic, functions, reductions, products, views and writes against NumPy, NaN/inf in either part."""

import numpy as np
import pytest
from kd_testing import COMPLEX, numpy_kdsl_allclose, sample

import kdsl as kd

# Each of + - * / rounds a few times (Smith's quotient): a few units in the last place of the modulus.
ARITH_RTOL = 1e-5
FUNCS = ["exp", "log", "sqrt", "sin", "cos", "tanh", "square", "conj", "negative", "positive", "reciprocal"]


def data(xp, shape, dtype, seed=0, special=True):
    return xp.asarray(sample(shape, dtype, seed=seed, special=special, low=-3, high=3))


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide"])
@numpy_kdsl_allclose(rtol=ARITH_RTOL)
def test_arithmetic(xp, name, dtype):
    a, b = data(xp, (3, 4), dtype, special=False), data(xp, (4,), dtype, seed=1, special=False)
    f = getattr(xp, name)
    return [f(a, b), f(a.T[::-1], a.T), f(a, 2.5), f(1.5, a[:, ::2])]


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide"])
@numpy_kdsl_allclose(rtol=ARITH_RTOL)
def test_arithmetic_specials(xp, name, dtype):
    a, b = data(xp, (12,), dtype), data(xp, (12,), dtype, seed=3, special=False)
    return getattr(xp, name)(a, b)


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", FUNCS)
@numpy_kdsl_allclose(rtol=1e-5, atol=1e-6)  # transcendental functions: docs/complex.md's tolerance
def test_functions(xp, name, dtype):
    return getattr(xp, name)(data(xp, (4, 5), dtype, special=False))


@pytest.mark.parametrize("dtype", COMPLEX)
@numpy_kdsl_allclose(rtol=1e-6)
def test_parts_and_predicates(xp, dtype):
    a = data(xp, (4, 5), dtype)
    return [xp.real(a), xp.imag(a), xp.abs(a), xp.isnan(a), xp.isinf(a), xp.isfinite(a), a == a, a != a[::-1],
            a.astype(COMPLEX[1 - COMPLEX.index(dtype)])]


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("name", ["sum", "mean", "prod", "any", "all"])
@numpy_kdsl_allclose(rtol=1e-5, atol=1e-6)
def test_reductions(xp, name, axis, dtype):
    a = data(xp, (4, 6), dtype, seed=5, special=False)
    return getattr(xp, name)(a, axis=axis)


@pytest.mark.parametrize("dtype", COMPLEX)
@numpy_kdsl_allclose(rtol=1e-5, atol=1e-5)
def test_matmul_dot(xp, dtype):
    a, b = data(xp, (5, 3), dtype, special=False), data(xp, (3, 4), dtype, seed=1, special=False)
    return [a @ b, xp.dot(a[0], b[:, 1]), xp.matmul(a.T[:, ::2], a[::2]), xp.vdot(a[:, 0], a[:, 1])]


@pytest.mark.parametrize("dtype", COMPLEX)
@numpy_kdsl_allclose()
def test_views_and_joins(xp, dtype):
    a = data(xp, (4, 5), dtype)
    return [a[1], a[:, ::-2], a.T, a.reshape(2, 10), a[None, 1:3], xp.concatenate([a, a[:1]]),
            xp.stack([a[0], a[1]], axis=1), xp.flip(a, 1), xp.where(xp.real(a) > 0, a, -a)]


@pytest.mark.parametrize("dtype", COMPLEX)
@numpy_kdsl_allclose()
def test_setitem(xp, dtype):
    a = data(xp, (4, 5), dtype, special=False)
    a[1] = data(xp, (5,), dtype, seed=2)
    a[:, ::2] = 1 - 2j
    a[0, 0] = complex(np.nan, 1)
    return a


@pytest.mark.parametrize("shape", [(), (0,), (1,), (0, 3)])
@pytest.mark.parametrize("dtype", COMPLEX)
@numpy_kdsl_allclose()
def test_small_and_empty(xp, shape, dtype):
    a = xp.asarray(np.full(shape, 1 - 2j, dtype))
    return [a * a, xp.sum(a), xp.conj(a)]


def test_kdsl_mismatch_in_the_imaginary_part_fails():
    """The helper really compares the imaginary part of kdsl results."""
    @numpy_kdsl_allclose()
    def body(xp):
        a = xp.asarray(np.array([1 + 2j, 3 - 1j], np.complex64))
        return xp.conj(a) if xp is kd else a
    with pytest.raises(AssertionError, match="imag"):
        body()


@pytest.mark.parametrize("real", ["float32", "float64", "int32", "bool"])
@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "divide"])
@numpy_kdsl_allclose(rtol=ARITH_RTOL)
def test_real_and_complex_array_operands_with_specials(xp, name, dtype, real):
    """A real array promotes to (x, 0) before the complex op, as in NumPy: (inf+1j) * 2.0 is inf+nanj (a
    literal 0 imaginary part once let the driver fold inf * 0 to 0)."""
    z = data(xp, (12,), dtype)
    r = xp.asarray(sample((12,), real, seed=4))
    f = getattr(xp, name)
    return [f(z, r), f(r, z), f(z[::-1], r.astype(dtype))]
