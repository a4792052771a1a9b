"""Ufunc call forms the differential fuzzer (test_differential_ufunc_calls.py) found apart from NumPy 2.4:
``signature=`` spelt as one dtype, ``casting=`` with weak Python scalars, ``float_power`` and ``fmin``/``fmax``
next to Python scalars, and the ``out=`` tuples of ufuncs with two outputs."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd


def _raises_like_numpy(call):
    """NumPy's exception class from ``call(np)``, and kdsl's ``call(kd)`` raising an instance of it."""
    with pytest.raises(Exception) as want:
        call(np)
    with pytest.raises(want.type):
        call(kd)


@pytest.mark.parametrize("signature", [np.float64, np.dtype("float32"), kd.float32, "d", "?"])
def test_signature_of_one_dtype_is_numpys_type_error(signature):
    """NumPy 2 refuses a bare dtype or a one-letter type code as ``signature=`` (``dtype=`` is that spelling)."""
    _raises_like_numpy(lambda xp: xp.add(xp.asarray([1.0, 2.0]), 1, signature=signature))
    _raises_like_numpy(lambda xp: xp.sqrt(xp.asarray([1.0, 2.0]), signature=signature))
    assert kd.add(kd.asarray([1.0]), 1, dtype=np.float64).dtype == kd.float64  # the way the error names


@pytest.mark.parametrize("call", [
    lambda xp: xp.cos(xp.asarray(4), casting="no"),  # NumPy: int64 into the float64 loop
    lambda xp: xp.arcsin(1, casting="equiv"),
    lambda xp: xp.multiply(xp.asarray(np.array([3], np.int32)), -2, casting="equiv"),
    lambda xp: xp.arctan2(7, xp.asarray([1.0, -2.0]), casting="equiv"),
    lambda xp: xp.fmax(xp.asarray(np.array([6], np.int8)), -1, casting="equiv"),
    lambda xp: xp.add(xp.asarray(np.array([1], np.int8)), 2.0, casting="no"),
])
def test_weak_scalars_under_strict_casting_raise_as_numpy(call):
    _raises_like_numpy(call)


@pytest.mark.parametrize("name, a, b, casting", [
    ("logical_xor", np.array([65535], np.uint16), np.uint8(1), "no"),
    ("logical_and", np.array([11, 8, 1], np.int32), -0.67, "no"),
    ("logical_or", np.array([1 + 2j, 0j], np.complex64), np.array([0.0], np.float32), "equiv"),
    ("add", np.array([1.5], np.float32), 2, "no"),
    ("arcsin", None, 1.0, "no"),
])
def test_calls_numpy_allows_under_strict_casting_compute(name, a, b, casting):
    """Logical ufuncs take any input under any casting (their loops exist for every dtype); a Python scalar of
    the loop's kind passes 'no' next to an array, as in NumPy."""
    args = (b,) if a is None else (a, b)
    want = getattr(np, name)(*args, casting=casting)
    got = getattr(kd, name)(*(kd.asarray(x) if isinstance(x, np.ndarray) else x for x in args), casting=casting)
    assert got.dtype == (np.float32 if a is None else want.dtype)  # a Python float alone: kdsl's float32
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


@pytest.mark.parametrize("x, p", [(np.array([5, 2], np.uint32), 3.71), (np.array([3, -2], np.int8), 0.5),
                                  (np.array([True, False]), 2.5), (np.array([4, 9], np.int16), 0.5 + 1j)])
def test_float_power_of_integers_and_python_floats_is_double(x, p):
    """**float_power(int_array, 3.71) was float32 (3.71 rounded to float32): NumPy's float_power computes in
    float64 (complex128) whatever it meets.**"""
    want = np.float_power(x, p)
    got = kd.float_power(kd.asarray(x), p)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-15)


@pytest.mark.parametrize("name", ["fmin", "fmax"])
def test_fmin_fmax_of_integers_and_python_complex_follow_the_complex_default(name):
    """A Python complex next to integer arrays is weak (complex64, docs/numpy-api.md "Complex defaults"), as in
    kd.minimum and kd.add; fmin/fmax made it a strong complex64 array (complex128 results)."""
    x = np.array([5, 0, 7], np.uint32)
    got = getattr(kd, name)(kd.asarray(x), -0.29 + 1j)
    assert got.dtype == kd.minimum(kd.asarray(x), -0.29 + 1j).dtype == kd.complex64
    np.testing.assert_allclose(got.numpy(), getattr(np, name)(x, -0.29 + 1j), rtol=1e-7)
    y = np.array([1 + 1j, np.nan], np.complex128)  # a complex128 array keeps its precision
    np.testing.assert_array_equal(getattr(kd, name)(kd.asarray(y), 0.1 + 2j).numpy(), getattr(np, name)(y, 0.1 + 2j))


@pytest.mark.parametrize("call", [
    lambda xp: xp.frexp(xp.asarray(np.float16(-0.0)), out=(xp.zeros((), np.float32), xp.zeros(2, np.int32))),
    lambda xp: xp.divmod(xp.asarray([5]), xp.asarray([True]), out=(xp.zeros(2, np.int16), xp.zeros((), np.int16))),
    lambda xp: xp.modf(xp.asarray([1.5, 2.5]), out=(xp.zeros((2, 2)), xp.zeros(2))),
    # the casts are checked before the shapes, as NumPy's: its UFuncTypeError, not the shape's ValueError
    lambda xp: xp.modf(xp.asarray(np.zeros(0, np.uint32)), out=(xp.zeros((4, 0), np.int16), xp.zeros(0, np.uint8))),
    lambda xp: xp.lcm(0.26, xp.asarray(np.array([11, 9], np.uint8)), dtype=np.uint64, casting="no"),
    lambda xp: xp.add(True, xp.asarray(np.array([1], np.int8)), dtype=np.int8, casting="no"),
])
def test_two_output_ufuncs_check_out_shapes_and_casts_as_numpy(call):
    """**frexp/divmod/modf wrote a broadcast result into an out tuple whose arrays had different shapes** (NumPy:
    every out has the one iteration shape, else ValueError)."""
    _raises_like_numpy(call)


def test_two_output_results_without_out_take_the_iteration_shape():
    want = np.divmod(7, np.array(2), out=(None, np.zeros(3, np.int64)))
    got = kd.divmod(7, kd.asarray(np.array(2)), out=(None, kd.zeros(3, kd.int64)))
    assert [g.shape for g in got] == [w.shape for w in want]
    assert [g.tolist() for g in got] == [w.tolist() for w in want]
    m, e = kd.zeros(2), kd.zeros(2, kd.int32)
    assert kd.frexp(kd.asarray([1.5, 8.0]), out=(m, e))[0] is m
    assert (m.tolist(), e.tolist()) == ([0.75, 0.5], [1, 4])


def test_where_false_keeps_out_values_its_dtype_holds():
    """**kd.arccosh(c64, out=u64, where=False, casting='unsafe') overwrote out's 2**64 - 1 with 0**: the kept
    values went through complex128 (the promotion of the result and out) before going back into uint64."""
    z = np.array([-0.58 - 0.57j], np.complex64)
    want = np.full(1, 2**64 - 1, np.uint64)
    np.arccosh(z, out=want, where=False, casting="unsafe")
    got = kd.asarray(np.full(1, 2**64 - 1, np.uint64))
    kd.arccosh(kd.asarray(z), out=got, where=False, casting="unsafe")
    assert got.tolist() == want.tolist() == [2**64 - 1]
