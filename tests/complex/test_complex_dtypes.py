"""complex64/complex128 as dtypes: NumPy mapping, promotion, the array API's dtype functions, host round trips."""

import warnings

import numpy as np
import pytest
from cx_testing import CDTYPES, csample, need

import kdsl as kd
from kdsl import dtype as dt
from kdsl.dtype import promotion
from kdsl.frontend.array.inplace import UFuncTypeError

REAL = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
        "float64"]


def test_dtype_singletons():
    assert kd.complex64 is dt.as_dtype(np.complex64) is dt.as_dtype("complex64")
    assert kd.complex128 is dt.as_dtype(np.dtype(np.complex128))
    assert dt.as_dtype(complex) is kd.complex64  # Python complex: kdsl's default complex, as float -> float32
    assert kd.complex64 == np.complex64 and kd.complex128 != kd.complex64
    assert (kd.complex64.kind, kd.complex64.itemsize, kd.complex128.itemsize) == ("c", 8, 16)
    assert kd.complex64.real_dtype is kd.float32 and kd.complex128.real_dtype is kd.float64
    assert kd.complex64.is_complex and not kd.complex64.is_float and not kd.float32.is_complex
    assert kd.complex64(1 + 2j) == np.complex64(1 + 2j)
    assert kd.complex64 in kd.dtypes and kd.complex128 in kd.dtypes


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("other", REAL + CDTYPES)
def test_promotion_matches_numpy(cd, other):
    for a, b in ((cd, other), (other, cd)):
        assert promotion.promote(dt.as_dtype(a), dt.as_dtype(b)).np == np.promote_types(a, b)
        assert promotion.op_signature("add", [dt.as_dtype(a), dt.as_dtype(b)])[0].np == np.result_type(a, b)
    assert kd.result_type(dt.as_dtype(cd), dt.as_dtype(other)).np == np.result_type(cd, other)


@pytest.mark.parametrize("frm", REAL + CDTYPES)
@pytest.mark.parametrize("to", CDTYPES + ["float32", "float64", "int32", "bool"])
def test_can_cast_matches_numpy(frm, to):
    assert kd.can_cast(dt.as_dtype(frm), dt.as_dtype(to)) == np.can_cast(frm, to)


def test_weak_python_complex():
    # NEP 50: the scalar adopts the array's precision; int/bool arrays meet it in kdsl's default complex64
    # (NumPy: complex128), as they meet a Python float in float32.
    cases = {"float32": "complex64", "float16": "complex64", "float64": "complex128", "complex64": "complex64",
             "complex128": "complex128", "int32": "complex64", "int64": "complex64", "bool": "complex64"}
    for arr, want in cases.items():
        assert promotion.op_signature("mul", [dt.as_dtype(arr), 1j])[0].name == want, arr
        assert kd.result_type(dt.as_dtype(arr), 2j).name == want
    assert promotion.op_signature("add", [1j, 2])[0] is kd.complex64
    assert promotion.op_signature("add", [kd.complex64, 1.5])[0] is kd.complex64  # a Python float stays weak
    assert promotion.op_signature("add", [kd.complex64, 2**40])[0] is kd.complex64
    assert dt.scalar_dtype(1j) is kd.complex64
    assert kd.result_type(1j) is kd.complex64 and kd.result_type(1.0) is kd.float32  # scalars alone: defaults
    assert kd.where(kd.asarray([True, False]), 1j, 0).dtype is kd.complex64


def test_abs_real_imag_keep_the_complex_operand():
    out, ins = promotion.op_signature("abs", [kd.complex128])
    assert (out, ins) == (kd.float64, [kd.complex128])
    assert promotion.op_signature("real", [kd.complex64]) == (kd.float32, [kd.complex64])
    assert promotion.op_signature("eq", [kd.complex64, 1.0]) == (kd.bool_, [kd.complex64, kd.complex64])


def test_finfo_isdtype_namespace_info():
    for cd, fd in (("complex64", np.float32), ("complex128", np.float64)):
        f, nf = kd.finfo(dt.as_dtype(cd)), np.finfo(cd)
        assert (f.bits, f.eps, f.max, f.min, f.smallest_normal) == \
            (nf.bits, float(nf.eps), float(nf.max), float(nf.min), float(nf.smallest_normal))
        assert f.dtype.np == fd  # the array API: finfo of a complex dtype describes its real components
    assert kd.isdtype(kd.complex64, "complex floating") and kd.isdtype(kd.complex128, "numeric")
    assert not kd.isdtype(kd.complex64, "real floating") and not kd.isdtype(kd.float32, "complex floating")
    info = kd.__array_namespace_info__()
    assert info.default_dtypes()["complex floating"] is kd.complex64
    assert set(info.dtypes(kind="complex floating")) <= {"complex64", "complex128"}
    assert "complex64" in info.dtypes(kind="complex floating")
    with pytest.raises(TypeError, match="iinfo"):
        kd.iinfo(kd.complex64)


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("shape", [(0,), (1,), (5,), (3, 4), (2, 1, 3)])
def test_round_trip_is_exact(cd, shape):
    need(cd)
    a = csample(shape, cd, special=True)
    a.reshape(-1)[:1] = complex(np.finfo(cd).max, np.finfo(cd).tiny) if a.size else a.reshape(-1)[:1]
    x = kd.asarray(a)
    assert x.dtype.np == a.dtype and x.shape == shape
    back = np.asarray(x)
    assert back.dtype == a.dtype
    np.testing.assert_array_equal(back.view(np.uint8), a.view(np.uint8))  # bit for bit: -0.0 and NaN too


@pytest.mark.parametrize("cd", CDTYPES)
def test_round_trip_of_non_contiguous_and_big_endian(cd):
    need(cd)
    a = csample((6, 5), cd)
    for host in (a[::2, 1::2], a.T, a.astype(np.dtype(cd).newbyteorder(">"))):
        x = kd.asarray(host)
        np.testing.assert_array_equal(x.numpy(), host)
        assert x.numpy().dtype == np.dtype(cd)


def test_python_complex_data():
    x = kd.asarray([1 + 2j, 3, -0.5j])
    assert x.dtype is kd.complex64
    np.testing.assert_array_equal(x.numpy(), np.array([1 + 2j, 3, -0.5j], np.complex64))
    assert kd.asarray([1, 2], dtype=kd.complex128).dtype is kd.complex128
    assert kd.asarray(np.complex64(1j)).dtype is kd.complex64
    assert kd.asarray(2j).shape == () and complex(kd.asarray(2j)) == 2j


def test_scalar_conversions():
    z = kd.asarray(np.array(3 - 4j, np.complex64))
    assert complex(z) == 3 - 4j and z.item() == 3 - 4j and isinstance(z.item(), complex)
    assert kd.asarray([[1 + 1j]]).tolist() == [[1 + 1j]]
    assert complex(kd.asarray(2.5)) == 2.5 + 0j  # a real array converts as NumPy's does
    with pytest.raises(TypeError, match="0-dimensional"):
        complex(kd.asarray([1j, 2j]))
    assert bool(kd.asarray(np.array(1j, np.complex64))) and not bool(kd.asarray(np.array(0j, np.complex64)))
    assert "complex64" in repr(kd.asarray([1j]))


@pytest.mark.parametrize("cd", CDTYPES)
def test_astype(cd):
    need(cd)
    a = csample((9,), cd, special=True)
    x = kd.asarray(a)
    other = "complex128" if cd == "complex64" else "complex64"
    np.testing.assert_array_equal(x.astype(other).numpy(), a.astype(other))
    np.testing.assert_array_equal(x.astype(kd.bool).numpy(), a.astype(bool))  # no warning: NaN is True
    with pytest.warns(np.exceptions.ComplexWarning, match="discards the imaginary part"):
        got = x.astype(kd.float32).numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        np.testing.assert_array_equal(got, a.astype(np.float32))
    r = np.array([1.5, -0.0, np.inf, np.nan, -7.0], np.float32)
    np.testing.assert_array_equal(kd.asarray(r).astype(cd).numpy(), r.astype(cd))
    i = np.array([-3, 0, 2**31 - 1], np.int32)
    np.testing.assert_array_equal(kd.asarray(i).astype(cd).numpy(), i.astype(cd))
    b = np.array([True, False])
    np.testing.assert_array_equal(kd.asarray(b).astype(cd).numpy(), b.astype(cd))


def test_complex_into_real_array_is_refused():
    a = kd.zeros(3)
    with pytest.raises(TypeError, match="complex number"):
        a[0] = 1j
    with pytest.raises(UFuncTypeError):
        a += 1j  # same_kind: complex does not cast back to float32
    z = kd.zeros(3, dtype=kd.complex64)
    z[1] = 2 - 1j
    z += 1
    np.testing.assert_array_equal(z.numpy(), np.array([1, 3 - 1j, 1], np.complex64))


def test_complex_scalar_constants_in_kernels():
    # A complex Python scalar is a push constant (two words; four for complex128): one kernel, any value.
    x = kd.asarray(np.arange(4, dtype=np.complex64))
    for c in (1j, -2.5 + 0.5j, complex(np.inf, -0.0)):
        np.testing.assert_array_equal((x * 0 + c).numpy(), np.arange(4, dtype=np.complex64) * 0 + np.complex64(c))
    y = kd.asarray(np.arange(3, dtype=np.complex128))
    np.testing.assert_array_equal((y + (1e300 + 1e-300j)).numpy(), np.arange(3) + (1e300 + 1e-300j))
