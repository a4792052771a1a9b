"""Reductions' ``initial=`` and ``out=`` as NumPy computes them (found by differential fuzzing against NumPy):
``initial`` is converted to the result dtype as NumPy stores it (truncated, or NumPy's error), a sum or product
into an ``out`` of another dtype runs in the promotion of both dtypes, ``ptp(out=)`` subtracts in out's dtype,
``std``/``nanstd(out=)`` take sqrt's cast rule and ``nanargmax``/``nanargmin(out=)`` argmax's; ``isin(kind='table')``
refuses test elements whose range overflows their dtype, as NumPy's."""

import warnings

import numpy as np
import pytest

import kdsl as kd
from kdsl.frontend.array.ufunc_errors import UFuncTypeError


def _both(fn, data, **kw):
    """NumPy's and kdsl's result of ``fn(data, **kw)``, or the exception class each raised."""
    out = []
    for mod, arr in ((np, data), (kd, kd.asarray(data))):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = getattr(mod, fn)(arr, **kw)
            out.append(np.asarray(r.numpy() if isinstance(r, kd.Array) else r))
        except Exception as e:  # noqa: BLE001 - the class is compared with NumPy's
            out.append(type(e))
    return out


INTS = np.array([[1, 2, 3], [-4, 5, 6]], np.int8)


@pytest.mark.parametrize("fn", ["sum", "prod", "nansum", "nanprod", "max", "min", "nanmax", "nanmin"])
@pytest.mark.parametrize("initial", [2.5, -2.5, np.float64(2.7), 300, 2**40, 1e30, float("nan"), float("inf"),
                                     3 + 1j, np.int64(-1), True])
@pytest.mark.parametrize("axis", [None, 1])
def test_initial_converted_as_numpy(fn, initial, axis):
    want, got = _both(fn, INTS, initial=initial, axis=axis)
    if isinstance(want, type):
        assert isinstance(got, type) and issubclass(got, want), (want, got)
    else:
        assert got.dtype == want.dtype and np.array_equal(got, want), (want, got)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint32, np.int64, np.uint64, np.float16, np.float32, np.complex64])
def test_initial_in_each_result_dtype(dtype):
    data = np.array([7, 3, 250], dtype) if np.dtype(dtype).kind in "ui" else np.array([7.5, -3, 250], dtype)
    for fn in ("sum", "prod", "max", "min"):
        for initial in (2.5, -1, 2**33 + 1, 1e30):
            want, got = _both(fn, data, initial=initial)
            if isinstance(want, type):
                assert isinstance(got, type) and issubclass(got, want), (fn, initial, want, got)
            else:
                assert got.dtype == want.dtype, (fn, initial)
                np.testing.assert_allclose(got, want, rtol=1e-3, err_msg=f"{fn} {initial}")


def test_uint32_sum_initial_float_not_rounded_to_float32():
    # the bug: a float initial made the sum a float32 one, so 3597353589 + 2.5 came back as 3597353472
    a = np.array(3597353589, np.uint32)
    assert int(kd.sum(kd.asarray(a), initial=2.5)) == int(np.sum(a, initial=2.5)) == 3597353591


def test_max_of_empty_takes_converted_initial():
    e = np.zeros((0, 2), np.int16)
    want = np.max(e, axis=0, initial=7.9)
    got = kd.max(kd.asarray(e), axis=0, initial=7.9)
    assert got.dtype == want.dtype and got.tolist() == want.tolist() == [7, 7]


def _into(fn, data, out_dtype, shape, **kw):
    """``fn(data, out=...)`` in NumPy and in kdsl (the out array returned; an exception class if raised)."""
    res = []
    for mod, arr in ((np, data), (kd, kd.asarray(data))):
        o = np.zeros(shape, out_dtype) if mod is np else kd.zeros(shape, dtype=out_dtype)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = getattr(mod, fn)(arr, out=o, **kw)
            if mod is kd:
                assert r is o
            res.append(np.asarray(o.numpy() if mod is kd else o))
        except Exception as e:  # noqa: BLE001 - the class is compared with NumPy's
            res.append(type(e))
    return res


BIG = np.array([[2**62, 2**62, 2**62, 7], [3, -2**62, 5, 1]], np.int64)


@pytest.mark.parametrize("fn,shape", [("sum", (2,)), ("prod", (2,)), ("nansum", (2,)), ("nanprod", (2,)),
                                      ("cumsum", (2, 4)), ("cumprod", (2, 4)), ("nancumsum", (2, 4)),
                                      ("nancumprod", (2, 4)), ("cumulative_sum", (2, 4)),
                                      ("cumulative_prod", (2, 4))])
@pytest.mark.parametrize("out_dtype", [np.float32, np.float64, np.uint64, np.int64, np.complex128])
def test_sum_into_out_computes_in_promoted_dtype(fn, shape, out_dtype):
    # int64 data into a float32 out: NumPy adds in float64 (the promotion), kdsl wrapped in int64 before
    want, got = _into(fn, BIG, out_dtype, shape, axis=1)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_sum_into_out_small_cases():
    u = np.array([2**64 - 1, 2**63 + 11], np.uint64)
    want, got = _into("sum", u, np.int64, ())  # promotion: float64, so the huge sum saturates as NumPy's cast
    assert got.tolist() == want.tolist()
    f = np.array([1.5, 2.5])
    assert _into("sum", f, np.int64, ())[1].tolist() == 4  # float loop, then the cast: not 1 + 2
    assert _into("prod", np.array([-1.5, 2.5]), np.int64, ())[1].tolist() == -3
    b = np.ones(300, bool)
    want, got = _into("sum", b, np.int8, ())
    assert got.tolist() == want.tolist() == 44


@pytest.mark.parametrize("data", [np.array([[100, -100, 7], [1, 2, 3]], np.int8),
                                  np.array([[1.5, -2.5, 0.0], [3.0, np.nan, 1.0]]),
                                  np.array([[1 + 1j, 2 - 1j, 0j], [3j, 1, 2]], np.complex64),
                                  np.array([[True, False, True], [False, False, False]])])
@pytest.mark.parametrize("out_dtype", [np.bool_, np.int8, np.int64, np.uint64, np.float16, np.float64,
                                       np.complex64])
def test_ptp_into_out(data, out_dtype):
    # NumPy: the maximum into out, then subtract(out, minimum, out=out) under same_kind
    want, got = _into("ptp", data, out_dtype, (3,), axis=0)
    if isinstance(want, type):
        assert isinstance(got, type) and issubclass(got, want), (want, got)
    else:
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, equal_nan=True)


def test_ptp_int8_into_float_out_does_not_wrap():
    a = np.array([100, -122, 3], np.int8)
    o = kd.zeros((), dtype=kd.float64)
    kd.ptp(kd.asarray(a), out=o)
    assert float(o) == 222.0 == np.ptp(a, out=np.zeros(()))  # kdsl gave -34 (the int8 wrap)


@pytest.mark.parametrize("fn", ["std", "nanstd"])
@pytest.mark.parametrize("data", [np.arange(6, dtype=np.int16).reshape(2, 3),
                                  np.array([[1.0, 4.0, np.nan], [2.0, 8.0, 1.0]], np.float32),
                                  np.array([[1 + 2j, 3j, 1], [2, 2, 1j]]),
                                  np.array([[True, False, True], [True, True, False]])])
@pytest.mark.parametrize("out_dtype", [np.bool_, np.int8, np.int64, np.float16, np.float32, np.float64,
                                       np.complex128])
def test_std_into_out(fn, data, out_dtype):
    want, got = _into(fn, data, out_dtype, (3,), axis=0)
    if isinstance(want, type):
        assert isinstance(got, type) and issubclass(got, want), (want, got)
    else:
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=2e-3, equal_nan=True)


def test_std_integer_out_is_sqrt_error():
    with pytest.raises(UFuncTypeError, match="sqrt"):
        kd.std(kd.asarray([1, 2, 3]), out=kd.zeros((), dtype=kd.int64))
    with pytest.raises(UFuncTypeError, match="float16"):  # sqrt's loop of bool is float16, as NumPy's message
        kd.nanstd(kd.asarray([1, 2], dtype=kd.int8), out=kd.zeros((), dtype=kd.bool))


def test_std_integer_dtype_into_float_out():
    # NumPy: the integer variance into out, then sqrt of it there (not the integer root)
    a = np.arange(5)
    want = np.std(a, dtype=np.int64, out=np.zeros(()))
    o = kd.zeros((), dtype=kd.float64)
    kd.std(kd.asarray(a), dtype=kd.int64, out=o)
    assert float(o) == pytest.approx(float(want)) and float(want) != int(want)


@pytest.mark.parametrize("fn", ["nanargmax", "nanargmin", "argmax", "argmin"])
@pytest.mark.parametrize("out_dtype", [np.int8, np.int64, np.uint64, np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("data", [np.array([[1, 5, 2], [7, 0, 3]], np.int16),
                                  np.array([[1.0, np.nan, 2], [7, 0, np.nan]])])
def test_arg_reductions_out_dtype_checked(fn, out_dtype, data):
    want, got = _into(fn, data, out_dtype, (3,), axis=0)
    if isinstance(want, type):
        assert isinstance(got, type) and issubclass(got, want), (want, got)
    else:
        assert got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("test, ok", [(np.array([-100, 100], np.int8), False), (np.array([-10, 100], np.int8), True),
                                      (np.array([-100, 100], np.int16), True), (np.array([0, 255], np.uint8), True),
                                      (np.array([-2**63, 5]), False), (np.array([True, False]), True),
                                      (np.array([], np.int8), True)])
def test_isin_table_range_overflow(test, ok):
    # NumPy's kind='table' indexes a table by test - test.min() in test's dtype: a range beyond it is its error
    data = np.array([1, 2, 100], test.dtype)
    want = np.isin(data, test, kind="table") if ok else None
    if ok:
        assert kd.isin(kd.asarray(data), kd.asarray(test), kind="table").tolist() == want.tolist()
    else:
        with pytest.raises(RuntimeError, match="kind='table'"):
            kd.isin(kd.asarray(data), kd.asarray(test), kind="table")
        assert kd.isin(kd.asarray(data), kd.asarray(test)).tolist() == np.isin(data, test).tolist()
