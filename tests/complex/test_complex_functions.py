"""Complex elementwise functions against NumPy: random values, special values (zeros of both signs, infinities,
NaN components), accuracy near the unit circle and branch cuts."""

import numpy as np
import pytest
from cx_testing import ARITH_RTOL, CDTYPES, FUNC_RTOL, assert_complex_close, csample, need, special_grid

import kdsl as kd

FUNCS = ["exp", "log", "sqrt", "sin", "cos", "tanh", "square", "reciprocal", "sign", "angle", "abs", "conj",
         "real", "imag", "negative"]
SHAPES = [(0,), (1,), (17,), (3, 5)]


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_functions_random(cd, name, shape):
    need(cd)
    a = csample(shape, cd, seed=5)
    got = getattr(kd, name)(kd.asarray(a))
    assert_complex_close(got, getattr(np, name)(a), FUNC_RTOL[cd], atol=FUNC_RTOL[cd], zero_sign=False)


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("name", FUNCS)
def test_functions_special_values(cd, name):
    """C99 Annex G's special values as NumPy computes them: NaN and inf placement, signs of infinities and
    zeros (every pair of 0, -0, 1, -2.5, 0.7, inf, -inf, NaN)."""
    need(cd)
    g = special_grid(cd)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(g)
    assert_complex_close(getattr(kd, name)(kd.asarray(g)), want, FUNC_RTOL[cd], atol=FUNC_RTOL[cd])


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("name", ["exp", "sin", "cos", "tanh"])
def test_large_arguments_of_sinh_cosh_parts(cd, name):
    """Real parts past exp's overflow threshold where the result is finite or infinite in NumPy (exp(89 + 0.1j)
    is finite in complex64; tanh(1e30 + 1j) is 1)."""
    need(cd)
    x = [88.9, -88.9, 300.0, -300.0, 1e30] if cd == "complex64" else [709.5, -709.5, 1e300, -1e300]
    a = np.array([complex(r, i) for r in x for i in (0.1, -2.0, 0.0)], cd)
    if name in ("sin", "cos"):
        a = a * np.dtype(cd).type(1j)  # sin(iy) = i sinh(y): the large part in the imaginary component
    with np.errstate(all="ignore"):
        want = getattr(np, name)(a)
    # atol: results below the smallest normal number may flush to zero (GPUs' float controls)
    assert_complex_close(getattr(kd, name)(kd.asarray(a)), want, 4 * FUNC_RTOL[cd], atol=np.finfo(cd).tiny,
                         zero_sign=False)


@pytest.mark.parametrize("cd", CDTYPES)
def test_sqrt_branch_cut_and_zero_signs(cd):
    need(cd)
    a = np.array([complex(-4, 0.0), complex(-4, -0.0), complex(0.0, -0.0), complex(-0.0, 0.0), complex(-1e-30, 0),
                  complex(4, -0.0), complex(-np.inf, -1.0), complex(3, -4)], cd)
    assert_complex_close(kd.sqrt(kd.asarray(a)), np.sqrt(a), FUNC_RTOL[cd])
    big = np.finfo(cd).max
    b = np.array([complex(big, big), complex(-big, big / 2), complex(big, -1)], cd)
    assert_complex_close(kd.sqrt(kd.asarray(b)), np.sqrt(b), FUNC_RTOL[cd])


@pytest.mark.parametrize("cd", CDTYPES)
def test_log_near_the_unit_circle(cd):
    """log1p keeps log|z| relatively accurate where |z| is within rounding of 1 (cancellation otherwise)."""
    need(cd)
    t = np.linspace(0.1, 3.0, 11)
    eps = 1e-4 if cd == "complex64" else 1e-9
    a = (np.exp(1j * t) * (1 + eps)).astype(cd)
    got = kd.log(kd.asarray(a)).numpy()
    want = np.log(a.astype(np.complex128))  # the exact log of the rounded inputs
    np.testing.assert_allclose(got.real, want.real, rtol=4 * ARITH_RTOL[cd])
    np.testing.assert_allclose(got.imag, want.imag, rtol=FUNC_RTOL[cd])


@pytest.mark.parametrize("cd", CDTYPES)
def test_power(cd):
    need(cd)
    a, b = csample((40,), cd, seed=7, scale=2.0), csample((40,), cd, seed=8, scale=2.0)
    x, y = kd.asarray(a), kd.asarray(b)
    assert_complex_close(x ** y, a ** b, 4 * FUNC_RTOL[cd], atol=FUNC_RTOL[cd], zero_sign=False)
    assert_complex_close(kd.power(x, 0.5), np.power(a, np.dtype(cd).type(0.5)), 4 * FUNC_RTOL[cd],
                         atol=FUNC_RTOL[cd], zero_sign=False)
    for n in (0, 1, 2, 3, 7, -1, -4, 99):  # whole exponents: repeated squaring, as NumPy (99 overflows some)
        with np.errstate(all="ignore"):
            want = a ** n
        assert_complex_close(x ** n, want, 4 * n * ARITH_RTOL[cd] if n > 0 else 8 * ARITH_RTOL[cd],
                             zero_sign=False)
    assert_complex_close(2 ** x, np.dtype(cd).type(2) ** a, 4 * FUNC_RTOL[cd], atol=FUNC_RTOL[cd],
                         zero_sign=False)
    zero = np.zeros(5, cd)
    e = np.array([2, 0.5 + 1j, -1, 1j, 0], cd)  # 0 ** z: 0 when Re z > 0, NaN otherwise, 1 for z = 0
    with np.errstate(all="ignore"):
        assert_complex_close(kd.asarray(zero) ** kd.asarray(e), zero ** e, 0)


@pytest.mark.parametrize("cd", CDTYPES)
def test_real_imag_angle(cd):
    need(cd)
    a = csample((4, 6), cd, seed=9, special=True)
    x = kd.asarray(a)
    for got, want in ((x.real, a.real), (x.imag, a.imag), (kd.real(x), np.real(a)), (kd.imag(x), np.imag(a)),
                      (x.conj(), a.conj()), (x.conjugate(), a.conjugate()), (kd.conjugate(x), np.conjugate(a)),
                      (kd.angle(x, deg=True), np.angle(a, deg=True))):
        assert_complex_close(got, want, FUNC_RTOL[cd])
    assert x.real.dtype.np == a.real.dtype
    assert_complex_close(x[::2, 1::2].imag, a[::2, 1::2].imag, 0)  # of a view


def test_real_imag_angle_of_real_arrays():
    r = np.array([1.5, -0.0, -2.0, np.nan], np.float32)
    x = kd.asarray(r)
    assert kd.real(x) is x and x.real is x and x.conj() is x  # NumPy: np.conj(x) is a new array, x.conj() x
    assert kd.conj(x) is not x
    np.testing.assert_array_equal(kd.imag(x).numpy(), np.imag(r))
    assert kd.imag(x).dtype is kd.float32
    np.testing.assert_allclose(kd.angle(x).numpy(), np.angle(r).astype(np.float32))


def test_is_complex_family():
    z = np.array([1 + 0j, 2j, -0.0 + 0j], np.complex64)
    x = kd.asarray(z)
    assert kd.iscomplexobj(x) and not kd.isrealobj(x) and kd.isrealobj(kd.ones(2)) and kd.iscomplexobj(1j)
    np.testing.assert_array_equal(kd.iscomplex(x).numpy(), np.iscomplex(z))
    np.testing.assert_array_equal(kd.isreal(x).numpy(), np.isreal(z))
    np.testing.assert_array_equal(kd.iscomplex(kd.ones(2)).numpy(), [False, False])
    np.testing.assert_array_equal(kd.isreal(kd.ones(2)).numpy(), [True, True])


@pytest.mark.parametrize("cd", CDTYPES)
def test_classification(cd):
    need(cd)
    g = special_grid(cd)
    x = kd.asarray(g)
    for name in ("isnan", "isinf", "isfinite"):
        np.testing.assert_array_equal(getattr(kd, name)(x).numpy(), getattr(np, name)(g))


@pytest.mark.parametrize("cd", CDTYPES)
def test_where_round_and_complex_from_parts(cd):
    need(cd)
    a, b = csample((3, 4), cd, seed=10), csample((4,), cd, seed=11)
    cond = a.real > 0
    assert_complex_close(kd.where(kd.asarray(cond), kd.asarray(a), kd.asarray(b)), np.where(cond, a, b), 0)
    assert_complex_close(kd.where(kd.asarray(cond), kd.asarray(a), 1j), np.where(cond, a, np.complex64(1j)).astype(cd),
                         0)
    assert_complex_close(kd.round(kd.asarray(a), 1), np.round(a, 1), 0)
    re, im = np.array([1.5, -0.0, np.inf], np.float32), np.array([np.inf, 2.0, -0.0], np.float32)
    z = kd.complex_from_parts(kd.asarray(re), kd.asarray(im))
    assert z.dtype is kd.complex64
    np.testing.assert_array_equal(z.numpy().view(np.float32).reshape(3, 2), np.stack([re, im], axis=1))
    assert kd.complex_from_parts(kd.asarray(re.astype(np.float64)), 0.0).dtype is kd.complex128
    with pytest.raises(TypeError, match="real parts"):
        kd.complex_from_parts(kd.asarray(a), 1.0)


_PART_VIEWS = {"whole": lambda x: x, "rows": lambda x: x[::2], "T": lambda x: x.T, "row": lambda x: x[1],
               "empty": lambda x: x[:0], "col1": lambda x: x[:, :1]}


@pytest.mark.parametrize("view", _PART_VIEWS)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("part", ["real", "imag"])
@pytest.mark.parametrize("value", [9, -2.5, np.nan, "row_values"])
def test_set_real_and_imag_parts(view, dtype, part, value):
    """a.real = 9, a.imag = np.array(...) write one part in place, through views (NumPy's docstrings)."""
    host = (np.arange(12) + 1j * np.arange(12, 24)).astype(dtype).reshape(4, 3)
    a = kd.asarray(host)
    hv, kv = _PART_VIEWS[view](host), _PART_VIEWS[view](a)
    v = np.linspace(-1, 1, hv.shape[-1]) if value == "row_values" else value
    setattr(hv, part, v)
    setattr(kv, part, v)
    assert kv.dtype == kd.dtype.as_dtype(dtype)
    np.testing.assert_array_equal(kv.numpy(), hv)
    np.testing.assert_array_equal(a.numpy(), host)  # the write reached the base, as NumPy's


@pytest.mark.parametrize("dtype", ["float32", "int32", "float64"])
def test_set_parts_of_real_arrays(dtype):
    host = np.arange(6, dtype=dtype).reshape(2, 3)
    a = kd.asarray(host)
    host.real, a.real = 5, 5
    np.testing.assert_array_equal(a.numpy(), host)
    with pytest.raises(TypeError) as want:
        host.imag = 1
    with pytest.raises(type(want.value), match="imaginary part"):
        a.imag = 1


def test_set_real_part_from_complex_warns():
    host, a = np.zeros(2, np.complex64), kd.zeros(2, dtype=kd.complex64)
    with pytest.warns(np.exceptions.ComplexWarning):
        host.real = np.array([1 + 5j, 2 + 6j])
    with pytest.warns(np.exceptions.ComplexWarning):
        a.real = kd.asarray([1 + 5j, 2 + 6j])
    np.testing.assert_array_equal(a.numpy(), host)
