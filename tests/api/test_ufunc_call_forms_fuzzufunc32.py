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


@pytest.mark.parametrize("call", [
    lambda xp: xp.isinf(xp.asarray([1.5, np.inf]), signature="?->?"),  # the input cast to bool: same_kind refuses
    lambda xp: xp.isnan(xp.asarray(np.array([1, 2], np.int8)), signature="?->?"),
    lambda xp: xp.logical_not(np.uint16(7), signature=(np.bool_, np.bool_)),
    lambda xp: xp.less(xp.asarray(np.array([1, 2], np.int8)), xp.asarray([1.5, 3.0]), signature="ii->?"),
    lambda xp: xp.less(xp.asarray([1.0]), 2.5, signature="dd->d"),  # a comparison's output is bool
    lambda xp: xp.less(xp.asarray([1.0]), xp.asarray([2.0]), signature="fd->?"),  # one loop dtype
])
def test_signature_of_bool_output_ufuncs_names_the_inputs_loop(call):
    """**kd.isinf(x, signature='?->?') computed isinf of x and cast the answer** (NumPy casts x to bool first,
    and refuses under 'same_kind'); ``'dd->?'`` was refused as a mix of dtypes."""
    _raises_like_numpy(call)


@pytest.mark.parametrize("name, args, signature", [
    ("less", (np.array([1, 2], np.int8), 2.5), "dd->?"),
    ("greater_equal", (np.array([1.5, -2.0], np.float32), np.array([1, -3], np.int64)), "dd->?"),
    ("logical_and", (np.array([1, 0], np.int8), np.array([1.5, np.inf])), "dd->?"),
    ("isinf", (np.array([1, 2], np.int8),), "d->?"),
    ("signbit", (np.array([-0.0, 1.5]),), "f->?"),
    ("equal", (np.array([1, 2], np.int8), 2.5), "ii->?"),  # NumPy truncates the Python float (see below)
    ("less", (np.array([1, 2], np.int8), np.array([1.5, 3.0])), (None, None, "?")),
])
def test_signature_of_bool_output_ufuncs_computes_as_numpy(name, args, signature):
    want = getattr(np, name)(*args, signature=signature)
    got = getattr(kd, name)(*(kd.asarray(a) if isinstance(a, np.ndarray) else a for a in args), signature=signature)
    assert got.dtype == want.dtype and got.tolist() == want.tolist()


@pytest.mark.parametrize("name, args, signature, casting", [
    ("fmod", (0.5, -5), "ii->i", "same_kind"),
    ("bitwise_xor", (np.array(2, np.uint8), 1.94), "ll->l", "safe"),
    ("remainder", (3.6, np.array(7, np.uint32)), (np.int8, None, np.int8), "same_kind"),
    ("add", (np.array([1, 2], np.int8), 2.7), (None, np.int8, np.int8), "same_kind"),
    ("add", (np.array([1, 2], np.int8), 2.5), "bb->b", "no"),
])
def test_python_scalars_in_a_signature_loop_convert_as_numpy(name, args, signature, casting):
    """A Python scalar at an input whose dtype ``signature=`` names converts as Python converts it, unchecked
    (NumPy: ``np.fmod(0.5, -5, signature='ii->i')`` is 0; ``dtype=np.int32`` raises); kdsl raised."""
    want = getattr(np, name)(*args, signature=signature, casting=casting)
    got = getattr(kd, name)(*(kd.asarray(a) if isinstance(a, np.ndarray) else a for a in args),
                            signature=signature, casting=casting)
    assert got.dtype == np.asarray(want).dtype and np.asarray(got.tolist()).tolist() == np.asarray(want).tolist()


@pytest.mark.parametrize("call", [
    lambda xp: xp.add(xp.asarray(np.array([1], np.int8)), 300, signature="bb->b"),  # OverflowError
    lambda xp: xp.add(xp.asarray(np.array([1], np.int8)), 1j, signature="dd->d"),  # float(1j): TypeError
    lambda xp: xp.add(xp.asarray(np.array([1], np.int8)), float("nan"), signature="bb->b"),  # int(nan)
    lambda xp: xp.add(xp.asarray(np.array([1.0], np.float32)), 2.5, signature="ff->f", casting="equiv"),
    # a Python scalar where the signature has None is checked, as under dtype=
    lambda xp: xp.bitwise_xor(xp.asarray(np.uint8(0)), 0.88, signature=(np.int32, None, np.int32), casting="safe"),
    lambda xp: xp.add(1e10, xp.asarray(np.zeros(1, np.uint8)), signature=(None, np.int16, np.int16)),
])
def test_python_scalars_in_a_signature_loop_fail_as_numpy(call):
    _raises_like_numpy(call)


@pytest.mark.parametrize("dtype, signature", [(np.float64, None), (np.float32, None), (None, "D->d"),
                                              (None, (None, np.float32))])
def test_absolute_of_complex_with_a_real_dtype_runs_numpys_loop(dtype, signature):
    """``kd.abs(z, dtype=np.float64)`` raised (kdsl cast z to float64, which 'same_kind' refuses): NumPy's
    ``dtype=`` names the output and runs the ``'D->d'`` loop, |z| in that precision."""
    z = np.array([3 + 4j, -0.0 + 1e-30j, np.inf - 1j], np.complex64)
    given = {"dtype": dtype} if dtype is not None else {"signature": signature}
    want = np.absolute(z, **given)
    got = kd.absolute(kd.asarray(z), **given)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("call", [
    lambda xp: xp.square(-5, dtype=np.uint16),  # a lone Python int is int64 there: UFuncTypeError
    lambda xp: xp.square(xp.asarray(np.array([3], np.int64)), dtype=np.uint16, casting="safe"),
    # Python scalars convert before the arrays' casts are checked: NumPy's OverflowError
    lambda xp: xp.remainder(xp.asarray(np.array([-3, 1], np.int64)), -129, dtype=np.uint16),
    lambda xp: xp.bitwise_and(xp.asarray(np.array([1 + 2j])), -3, dtype=np.uint16),
    # the output's cast fails first where the loop's input cast passes (complex64 into 'D->d')
    lambda xp: xp.absolute(xp.asarray(np.array([1j], np.complex64)), dtype=np.float64, casting="safe",
                           out=xp.zeros(1, bool)),
    lambda xp: xp.frexp(xp.asarray(np.array([1.5], np.float16)), dtype=np.float32),  # no such loop
    lambda xp: xp.logical_not(xp.asarray(np.array([1.5], np.float16)), signature="?->?"),
])
def test_dtype_loops_fail_as_numpy(call):
    _raises_like_numpy(call)


@pytest.mark.parametrize("name, args, given", [
    ("square", (-5,), {"dtype": np.uint16, "casting": "unsafe"}),  # int64 -5 wrapped, as NumPy's
    ("logical_or", (np.array([0.0, 1.5], np.float16), np.array([4, 0], np.uint8)), {"signature": "??->?"}),
    ("logical_xor", (np.array([0.0, 1.5], np.float16), 2), {"signature": "??->?", "casting": "no"}),
    ("ldexp", (np.array([1.5], np.float32), np.array([3], np.int32)), {"dtype": np.float64}),
    ("add", (np.array([1, 2], np.int8), 300), {"dtype": np.int16}),
    ("equal", (np.array([1, 2], np.int8), 2.5), {"dtype": bool}),
])
def test_dtype_loops_compute_as_numpy(name, args, given):
    """The loop is NumPy's (binary logical ufuncs take any input into '??->?', as NumPy's; logical_not does not)."""
    want = getattr(np, name)(*args, **given)
    got = getattr(kd, name)(*(kd.asarray(a) if isinstance(a, np.ndarray) else a for a in args), **given)
    assert got.dtype == np.asarray(want).dtype
    assert np.asarray(got.tolist()).tolist() == np.asarray(want).tolist()


@pytest.mark.parametrize("name, args, given", [
    ("add", (np.array([[2]], np.int8), np.float32(np.nan)), {"dtype": np.int64, "casting": "unsafe"}),
    ("add", (np.array([3, 5], np.int16), np.float64(-2.7)), {"dtype": np.int32, "casting": "unsafe"}),
    ("logaddexp2", (np.array([0, 3], np.int16), np.complex128(1 + 2j)), {"dtype": np.float32, "casting": "unsafe"}),
])
def test_numpy_scalars_are_cast_into_the_dtype_loop(name, args, given):
    """NumPy scalars are cast into the loop before the function runs, as NumPy casts each input first
    (``kd.add(int16s, np.float64(-2.7), dtype=np.int32, casting='unsafe')``: -2.7 is -2, 3 + -2.7 gives 1, not
    0; a complex scalar into the float32 loop of logaddexp2)."""
    want = getattr(np, name)(*args, **given)
    got = getattr(kd, name)(*(kd.asarray(a) if isinstance(a, np.ndarray) else a for a in args), **given)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)
