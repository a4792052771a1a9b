"""frexp, ldexp, spacing against NumPy, bit for bit: normals, subnormals, zeros of both signs, infinities,
NaN, the largest values, over- and underflowing exponents; dtypes, broadcasting, scalars, views, bad input."""

import numpy as np
import pytest
from api_testing import numpy_kdsl_allclose, sample

import kdsl as kd

FLOATS = ["float16", "float32", "float64"]


def _values(dtype, n=300, seed=3):
    """Random magnitudes over the whole exponent range, and every special value of ``dtype``."""
    f = np.finfo(dtype)
    rng = np.random.default_rng(seed)
    with np.errstate(all="ignore"):
        wide = (rng.standard_normal(n) * 10.0 ** rng.integers(-330, 310, n)).astype(dtype)
    special = [0, -0.0, 1, -1, 0.75, np.inf, -np.inf, np.nan, f.max, -f.max, f.smallest_normal,
               -f.smallest_normal, f.smallest_subnormal, -f.smallest_subnormal, 3 * f.smallest_subnormal,
               f.smallest_normal - f.smallest_subnormal, f.smallest_normal * 1.5]
    return np.concatenate([wide, np.array(special, dtype)])


def _assert_bits_equal(got, expected):
    got = got.numpy() if isinstance(got, kd.Array) else got
    assert got.dtype == expected.dtype, f"dtype {got.dtype} != NumPy's {expected.dtype}"
    assert got.shape == expected.shape
    nan = np.isnan(expected) if expected.dtype.kind == "f" else np.zeros(expected.shape, bool)
    assert (np.isnan(got) == nan).all() if got.dtype.kind == "f" else True
    u = f"u{got.itemsize}"
    np.testing.assert_array_equal(got[~nan].view(u), expected[~nan].view(u))


@pytest.mark.parametrize("dtype", FLOATS)
def test_frexp_is_bit_exact(dtype):
    x = _values(dtype)
    m, e = kd.frexp(kd.asarray(x))
    em, ee = np.frexp(x)
    _assert_bits_equal(m, em)
    _assert_bits_equal(e, ee)


@pytest.mark.parametrize("dtype", FLOATS)
def test_spacing_is_bit_exact(dtype):
    x = _values(dtype)
    with np.errstate(all="ignore"):
        expected = np.spacing(x)
    _assert_bits_equal(kd.spacing(kd.asarray(x)), expected)


@pytest.mark.parametrize("exp_dtype", ["int32", "int64", "int8"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_ldexp_is_bit_exact_and_rounds_subnormals_half_to_even(dtype, exp_dtype):
    x = _values(dtype)
    f = np.finfo(dtype)
    rng = np.random.default_rng(4)
    top = min(3 * f.maxexp, np.iinfo(exp_dtype).max)
    n = rng.integers(-top, top, x.size).astype(exp_dtype)
    for nn in (n, np.clip(n, -40, 40).astype(exp_dtype), np.full(x.size, -f.nmant - 2, exp_dtype)):
        with np.errstate(all="ignore"):
            expected = np.ldexp(x, nn)
        _assert_bits_equal(kd.ldexp(kd.asarray(x), kd.asarray(nn)), expected)


@pytest.mark.parametrize("dtype", FLOATS)
def test_ldexp_ties_at_the_subnormal_boundary(dtype):
    f = np.finfo(dtype)
    x = np.array([1.5, 2.5, 3.5, 1.25, 1.75, 1.0, -1.5, -2.5], dtype)
    for n in (f.minexp - f.nmant - 1, f.minexp - f.nmant, f.minexp - f.nmant + 1, f.minexp - 1):
        _assert_bits_equal(kd.ldexp(kd.asarray(x), n), np.ldexp(x, n))


@numpy_kdsl_allclose(rtol=0)
@pytest.mark.parametrize("shape", [(0,), (1,), (3, 1), (2, 5)])
def test_ldexp_broadcasts_and_takes_scalars_and_views(xp, shape):
    x = xp.asarray(sample(shape, "float32", seed=1)).T
    n = xp.asarray(np.arange(-3, 2, dtype=np.int32))
    return xp.ldexp(x[..., None], n), xp.ldexp(x, 3), xp.frexp(x), xp.spacing(x[::-1])


def test_ldexp_of_a_python_float_and_an_int_array():
    n = np.arange(-3, 3, dtype=np.int32)
    got = kd.ldexp(2.0, kd.asarray(n))  # kdsl's weak-float rule: float32 (NumPy: float64), same values
    assert got.dtype == kd.float32
    np.testing.assert_array_equal(got.numpy(), np.ldexp(2.0, n))


@numpy_kdsl_allclose(accept_error=(TypeError,))
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "int32", "int64", "complex64"])
def test_integer_and_complex_inputs(xp, dtype):
    x = xp.asarray(np.array([0, 1, 2, 3, 7], dtype=dtype))
    return xp.frexp(x), xp.spacing(x), xp.ldexp(x, 2)


@pytest.mark.parametrize("bad", [1.5, np.array([1.0, 2.0])])
def test_ldexp_with_a_float_exponent_raises_type_error(bad):
    with pytest.raises(TypeError):
        np.ldexp(np.ones(2), bad)
    with pytest.raises(TypeError):
        kd.ldexp(kd.ones(2), kd.asarray(bad) if isinstance(bad, np.ndarray) else bad)


def test_numpy_dispatches_to_kdsl():
    x = kd.asarray(np.array([0.5, -3.0, 1e-40], np.float32))
    m, e = np.frexp(x)
    assert isinstance(m, kd.Array) and isinstance(e, kd.Array)
    assert isinstance(np.ldexp(m, e), kd.Array) and isinstance(np.spacing(x), kd.Array)
    _assert_bits_equal(np.ldexp(m, e), x.numpy())
