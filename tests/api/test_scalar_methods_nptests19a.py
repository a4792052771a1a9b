"""NumPy's ``test_scalar_methods.py`` and ``test_scalar_ctors.py`` ported to kdsl's scalar types (``kd.float32(x)``)
and to what NumPy code does with 0-d results (``a.sum().bit_count()``, ``a.max().as_integer_ratio()``):
``as_integer_ratio`` (also of ``kd.ldexp`` of a NumPy float64 scalar, which was float32), ``is_integer``,
``bit_count`` (0-d integer arrays had none), constructors from strings and bytes."""

import fractions

import numpy as np
import pytest

import kdsl as kd

FLOATS = ["float16", "float32", "float64"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
R = fractions.Fraction


def _zero_d(value, name):
    """A 0-d kdsl result holding ``value`` (a reduction, as NumPy code gets them) and NumPy's."""
    return kd.asarray([value], dtype=name).sum(), np.asarray([value], dtype=name).sum()


@pytest.mark.parametrize("name", FLOATS)
@pytest.mark.parametrize("f", [0.875, -0.875, 0.0, 11.5, 2.5, 0.5, -2100.0, 2.1, -2.1])
def test_as_integer_ratio(name, f):
    want = getattr(np, name)(f).as_integer_ratio()
    assert getattr(kd, name)(f).as_integer_ratio() == want
    x, y = _zero_d(f, name)
    assert x.as_integer_ratio() == y.as_integer_ratio() == want
    assert R(*x.as_integer_ratio()) == R(*want)


@pytest.mark.parametrize("name", FLOATS)
def test_as_integer_ratio_errors(name):
    for value, error in (("inf", OverflowError), ("-inf", OverflowError), ("nan", ValueError)):
        with pytest.raises(error):
            getattr(np, name)(value).as_integer_ratio()
        with pytest.raises(error):
            getattr(kd, name)(value).as_integer_ratio()
        with pytest.raises(error):
            _zero_d(float(value), name)[0].as_integer_ratio()


@pytest.mark.parametrize("name, frac_vals, exp_vals", [
    ("float16", [0.0, 0.01154830649280303, 0.31082276347447274, 0.527350517124794, 0.8308562335072596],
     [0, 1, 0, -8, 12]),
    ("float32", [0.0, 0.09248576989263226, 0.8160498218131407, 0.17389442853722373, 0.7956044195067877],
     [0, 12, 10, 17, -26]),
    ("float64", [0.0, 0.031066908499895136, 0.5214135908877832, 0.45780736035689296, 0.5906586745934036],
     [0, -801, 51, 194, -653]),
])
def test_as_integer_ratio_roundtrip_through_ldexp(name, frac_vals, exp_vals):
    for frac, exp in zip(frac_vals, exp_vals, strict=True):
        want = np.ldexp(getattr(np, name)(frac), exp)
        got = kd.ldexp(getattr(kd, name)(frac), exp)  # kd.float64(x) is a NumPy scalar: strong, as NumPy's
        assert got.dtype == want.dtype
        n, d = got.as_integer_ratio()
        assert (n, d) == want.as_integer_ratio() and float(R(n, d)) == float(want)


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "int8", "int64", "uint8", "uint64"])
@pytest.mark.parametrize("exponent", [1, np.int64(3), np.int8(-2)])
def test_ldexp_of_numpy_scalars_keeps_their_dtype(name, exponent):
    x = getattr(np, name)(3)  # integer mantissas take NumPy's float dtype for them (int8: float16)
    want = np.ldexp(x, exponent)
    got = kd.ldexp(x, exponent)
    assert got.dtype == want.dtype and got.item() == want.item()


@pytest.mark.parametrize("name", FLOATS)
def test_is_integer(name):
    for s in ("inf", "-inf", "nan"):
        assert not getattr(kd, name)(s).is_integer() and not _zero_d(float(s), name)[0].is_integer()
    for v in np.arange(-5, 5):
        x, y = _zero_d(float(v), name)
        assert x.is_integer() and y.is_integer()
        x, y = (kd.asarray([v], dtype=name) * 1.1)[0], (np.asarray([v], dtype=name) * 1.1)[0]
        assert x.is_integer() == y.is_integer() == (v == 0)


@pytest.mark.parametrize("name", INTS)
def test_bit_count(name):
    lo = max(np.iinfo(name).min, -5)
    for a in range(lo, 128):
        want = getattr(np, name)(a).bit_count()
        assert getattr(kd, name)(a).bit_count() == want == a.bit_count()
        assert _zero_d(a, name)[0].bit_count() == want  # a.sum().bit_count(): 0-d integer results have it
    assert kd.asarray([3, 4], dtype=name).sum().is_integer()


def test_bit_count_of_uint64_and_where_numpy_has_none():
    for exp in (10, 17, 63):
        a = 2 ** exp
        for v in (a, a - 1, a ^ 63, (a - 1) ^ 510):
            x = kd.asarray([v], dtype=kd.uint64).max()
            assert x.bit_count() == np.uint64(v).bit_count() == v.bit_count()
    for no in (kd.asarray([1.5]).sum(), kd.asarray([True]).any(), kd.asarray([[1, 2]], dtype=kd.int32).sum(0)):
        with pytest.raises(AttributeError, match="bit_count"):
            no.bit_count()  # NumPy's floating and bool scalars, and arrays, have none
        assert not hasattr(no, "bit_count")


@pytest.mark.parametrize("name", FLOATS)
def test_constructors_from_strings_and_bytes(name):
    kt, nt = getattr(kd, name), getattr(np, name)
    for s in ("1.234", b"1.234", "-0.0", "1e10000", "-1e10000", "nan", "inf", " 2.5 "):
        got, want = kt(s), nt(s)
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        assert np.signbit(got) == np.signbit(want)
    with pytest.raises(ValueError):
        nt("abc")
    with pytest.raises(ValueError):
        kt("abc")


def test_integer_and_complex_constructors():
    with pytest.raises(OverflowError):
        np.uint64(-2)
    with pytest.raises(OverflowError):
        kd.uint64(-2)
    assert int(kd.int32("12")) == int(kd.int32(b"12")) == 12 and int(kd.int64(1024)) == 1024
    for name in ("complex64", "complex128"):
        kt, nt = getattr(kd, name), getattr(np, name)
        for args in ((2,), (1 + 3j,), (1, 2), (), ("1+2j",)):
            assert complex(kt(*args)) == complex(nt(*args)) and np.asarray(kt(*args)).dtype == name
        for args in ((1j, 1j), (1, None), (None, 1)):
            with pytest.raises(TypeError):
                nt(*args)
            with pytest.raises(TypeError):
                kt(*args)
