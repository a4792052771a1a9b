"""Small correctness gaps held to NumPy (leftovers21): ``kd.ma``'s ``masked_*`` helpers with array values, the
type and mask of ``kd.ma`` functions of plain (not masked) arrays.

Each case runs the same call with NumPy and kdsl: the values, dtypes and kinds of result must be equal (NaN and
the sign of zero included), or both raise the same built-in exception class, kdsl's message naming the problem.
"""

import warnings

import numpy as np
import pytest
from bad_input_testing import A, check_exactly

import kdsl as kd


def _described(r, m):
    """A result as host values that say its kind: a masked array is ``("MA", data, mask)`` (the mask ``None``
    for ``nomask``; masked data as 0), a plain array ``("plain", values)``."""
    if isinstance(r, (tuple, list)):
        return [_described(x, m) for x in r]
    if isinstance(r, (np.ma.MaskedArray, kd.ma.MaskedArray)):
        mask = None if r.mask is np.ma.nomask else np.asarray(r.mask)
        data = np.array(r.data)
        if mask is not None:
            data[mask] = 0  # the data under the mask is not compared
        return ("MA", data, mask)
    if isinstance(r, (kd.Array, np.ndarray, np.generic)):
        return ("plain", np.asarray(r))
    return r


def _outcome(call, m):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return _described(call(m), m), None
        except Exception as e:  # noqa: BLE001 - every exception is compared with NumPy's
            return None, e


def check(call, words=None):
    """``call(m)`` with NumPy and kdsl alike (:func:`bad_input_testing.check_exactly`)."""
    check_exactly(call, words, _outcome)


# ----- 1. masked_* with an array value (broadcast against the data, as NumPy's)

X, V = [1.0, 2.0, 3.0, 4.0], [1.0, 5.0, 3.0, 0.0]
MASKED_BY = [
    ("equal", lambda m: m.ma.masked_equal(A(m, X), A(m, V))),
    ("equal_rows", lambda m: m.ma.masked_equal(A(m, [X, V]), A(m, V))),
    ("not_equal", lambda m: m.ma.masked_not_equal(A(m, X), A(m, V))),
    ("greater", lambda m: m.ma.masked_greater(A(m, X), A(m, V))),
    ("less_equal", lambda m: m.ma.masked_less_equal(A(m, X), A(m, V))),
    ("values", lambda m: m.ma.masked_values(A(m, X), A(m, V) + 0.01, rtol=0.1)),
    ("values_atol", lambda m: m.ma.masked_values(A(m, X), 2.05, atol=0.1)),
    ("where_list", lambda m: m.ma.masked_where([True, False, True, False], A(m, X))),
    ("inside_arrays", lambda m: m.ma.masked_inside(A(m, X), A(m, V), 3.5)),  # NumPy: ambiguous truth value
    ("object", lambda m: m.ma.masked_object(A(m, X), 2.0)),
    ("too_wide", lambda m: m.ma.masked_equal(A(m, [1.0, 2.0]), A(m, [[1.0], [2.0]]))),
]


@pytest.mark.parametrize("call", [c for _, c in MASKED_BY], ids=[i for i, _ in MASKED_BY])
def test_masked_by_array_values(call):
    check(call)


def test_masked_equal_array_value_keeps_the_default_fill_value():
    with pytest.warns(DeprecationWarning, match="filled"):  # NumPy's deprecation, saying what kdsl does
        x = kd.ma.masked_equal(A(kd, X), A(kd, V))
    assert x.fill_value == np.ma.array(X).fill_value == 1e20
    assert kd.ma.masked_equal(A(kd, X), 2.0).fill_value == 2.0


# ----- 2. kd.ma functions of plain arrays: NumPy's kind of result (ndarray, or a mask array or nomask); lists
# cast to int64 (kdsl's default int is int32)

P = [[3.0, 1.5], [0.5, -2.5]]
PLAIN_INPUT = [
    ("round", lambda m: m.ma.round(A(m, P))),
    ("round_list", lambda m: m.ma.round_([1, 2]).astype(np.int64)),
    ("round_decimals", lambda m: m.ma.round(A(m, P), 1)),
    ("around", lambda m: m.ma.around(A(m, P))),
    ("round_masked", lambda m: m.ma.round(m.ma.array(A(m, P), mask=[[1, 0], [0, 0]]))),
    ("sort", lambda m: m.ma.sort(A(m, P))),
    ("sort_none", lambda m: m.ma.sort(A(m, P), axis=None)),
    ("sort_list", lambda m: m.ma.sort([3, 1]).astype(np.int64)),
    ("transpose", lambda m: m.ma.transpose(A(m, P))),
    ("transpose_list", lambda m: m.ma.transpose([[1, 2]]).astype(np.int64)),
    ("reshape", lambda m: m.ma.reshape(A(m, P), (4,))),
    ("reshape_list", lambda m: m.ma.reshape([[1, 2]], (2,)).astype(np.int64)),
    ("expand_dims", lambda m: m.ma.expand_dims(A(m, P), 0)),
    ("expand_dims_list", lambda m: m.ma.expand_dims([1], 0).astype(np.int64)),
    ("swapaxes", lambda m: m.ma.swapaxes(A(m, P), 0, 1)),
    ("stack", lambda m: m.ma.stack([A(m, X), A(m, V)])),
    ("hstack", lambda m: m.ma.hstack([A(m, X), A(m, V)])),
    ("vstack", lambda m: m.ma.vstack([A(m, X), A(m, V)])),
    ("concatenate", lambda m: m.ma.concatenate([A(m, X), A(m, V)])),
    ("convolve", lambda m: m.ma.convolve(A(m, X), A(m, V[:2]))),
    ("correlate_no_propagate", lambda m: m.ma.correlate(A(m, X), A(m, V[:2]), propagate_mask=False)),
    ("apply_along_axis", lambda m: m.ma.apply_along_axis(lambda v: v * 2, 0, A(m, P))),
    ("count_masked", lambda m: type(m.ma.count_masked(A(m, P))).__name__),
    ("harden_mask", lambda m: m.ma.harden_mask(A(m, X)).hardmask),
]


@pytest.mark.parametrize("call", [c for _, c in PLAIN_INPUT], ids=[i for i, _ in PLAIN_INPUT])
def test_plain_input(call):
    check(call)


# ----- 3. convolve/correlate with inf and NaN: only the outputs whose window covers them (NumPy's direct sum),
# by FFT too (kernels over 32 long)

def _nonfinite(n, seed, *spots):
    x = np.random.default_rng(seed).standard_normal(n)
    for i, value in spots:
        x[i] = value
    return x


LONG_A = _nonfinite(48, 0, (20, np.inf), (30, -np.inf), (1, 0.0))
LONG_V = _nonfinite(36, 1, (0, np.nan), (17, 0.0), (35, -np.inf))
NONFINITE = [
    ("fft_full", lambda m: m.convolve(A(m, LONG_A), A(m, LONG_V))),
    ("fft_same", lambda m: m.convolve(A(m, LONG_A), A(m, LONG_V[1:]), mode="same")),
    ("fft_correlate", lambda m: m.correlate(A(m, LONG_A[:40]), A(m, LONG_V[1:]), mode="full")),
    ("fft_float32", lambda m: m.convolve(A(m, LONG_A, "f4"), A(m, np.ones(40), "f4"), mode="same")),
    ("direct_inf_kernel", lambda m: m.convolve(A(m, [1.0, 2.0, 0.0]), A(m, [1.0, 0.0, np.inf]))),
    ("direct_nan_kernel", lambda m: m.correlate(A(m, [1.0, 2.0, 3.0, 4.0]), A(m, [np.nan, 1.0]), mode="full")),
]


@pytest.mark.parametrize("call", [c for _, c in NONFINITE], ids=[i for i, _ in NONFINITE])
def test_convolve_nonfinite(call):
    want, got = np.asarray(call(np)), np.asarray(call(kd))
    assert got.dtype == want.dtype
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(np.isposinf(got), np.isposinf(want)) and np.array_equal(np.isneginf(got), np.isneginf(want))
    finite = np.isfinite(want)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-4, atol=1e-4)


def test_convolve_nonfinite_under_jit():
    """The inf check reads a bool back: a jitted convolution runs eagerly, never replaying the finite branch."""
    v = A(kd, np.ones(33))
    f = kd.jit(lambda a: kd.convolve(a, v, mode="valid"))
    f(A(kd, np.arange(40.0)))
    got = np.asarray(f(A(kd, LONG_A[:40])))
    assert np.array_equal(np.isinf(got), np.isinf(np.convolve(LONG_A[:40], np.ones(33), mode="valid")))


# ----- 6. Fortran order: what a user sees of it (flags, strides, memory-order reads) is NumPy's

F64 = np.arange(6.0).reshape(2, 3)


def _layout(a):
    return (a.tolist(), a.flags.c_contiguous, a.flags.f_contiguous, a.strides, a.ravel(order="K").tolist(),
            a.tobytes(order="A"))


FORTRAN = [
    ("asarray", lambda m: m.asarray(F64, order="F")),
    ("asarray_list", lambda m: m.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=np.float64, order="F")),
    ("array_K_of_F", lambda m: m.array(m.asfortranarray(A(m, F64)))),
    ("asfortranarray", lambda m: m.asfortranarray(A(m, F64))),
    ("copy_F", lambda m: A(m, F64).copy(order="F")),
    ("np_copy_K_of_F", lambda m: m.copy(m.asfortranarray(A(m, F64)))),
    ("astype_F", lambda m: A(m, F64).astype(np.float32, order="F")),
    ("astype_K_of_F", lambda m: m.asfortranarray(A(m, F64)).astype(np.float64)),
    ("zeros", lambda m: m.zeros((2, 3), np.float64, order="F")),
    ("full_row", lambda m: m.full((2, 3), A(m, [1.0, 2.0, 3.0]), order="F")),
    ("eye", lambda m: m.eye(2, 3, 1, np.float64, order="F")),
    ("ones_like_K", lambda m: m.ones_like(m.asfortranarray(A(m, F64)))),
    ("empty_like_C", lambda m: m.zeros_like(m.asfortranarray(A(m, F64)), order="C")),
    ("require_F", lambda m: m.require(F64, requirements="F")),
]


@pytest.mark.parametrize("call", [c for _, c in FORTRAN], ids=[i for i, _ in FORTRAN])
def test_fortran_order(call):
    assert _layout(call(kd)) == _layout(call(np))


def test_fortran_order_survives_writes():
    z = kd.zeros((2, 3), np.float64, order="F")
    z[0, 1] = 5.0
    want = np.zeros((2, 3), order="F")
    want[0, 1] = 5.0
    assert _layout(z) == _layout(want) and kd.isfortran(z)


# ----- 7. genfromtxt's refusals: one helper, the same words from kd.genfromtxt and its usemask=True reader

@pytest.mark.parametrize("usemask", [False, True])
def test_genfromtxt_refusals(usemask):
    import io

    with pytest.raises(TypeError, match=r"structured array \(fields a, b.*\(kd(\.ma)?\.(asarray|array)\(out"):
        kd.genfromtxt(io.StringIO("1 x"), dtype=None, names="a,b", encoding="utf-8", usemask=usemask)
    with pytest.raises(TypeError, match="cannot hold .*np.genfromtxt"):
        kd.genfromtxt(io.StringIO("x y"), dtype=str, usemask=usemask)


# ----- 8. more gaps of the same kind: numpy.ma's division masks NaN/inf results (mean, average, anom,
# corrcoef along an axis), masked_values/masked_object shrink an empty mask, polydiv by a zero polynomial,
# polypow without NumPy's (absent) power limit

def _nan_rows(m):
    return m.ma.array(A(m, [[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]]), mask=[[0, 0, 1], [0, 1, 0]])


MORE = [
    ("ma_mean_axis_nan", lambda m: _nan_rows(m).mean(axis=1)),
    ("ma_mean_keepdims_nan", lambda m: _nan_rows(m).mean(keepdims=True)),
    ("ma_mean_scalar_nan", lambda m: m.ma.array(A(m, [1.0, np.nan]), mask=[0, 0]).mean()),
    ("ma_average_weights_nan", lambda m: m.ma.average(_nan_rows(m), axis=1, weights=A(m, [1.0, 2.0, 3.0]))),
    ("ma_average_returned_nan", lambda m: m.ma.average(_nan_rows(m), axis=0, returned=True)),
    ("ma_anom_nan", lambda m: _nan_rows(m).anom(axis=0)),
    ("ma_corrcoef_nan", lambda m: m.ma.corrcoef(_nan_rows(m))),
    ("ma_masked_values_none_close", lambda m: m.ma.masked_values(A(m, [1.0, 2.0]), 3.0)),
    ("ma_masked_values_no_shrink", lambda m: m.ma.masked_values(A(m, [1.0, 2.0]), 3.0, shrink=False)),
    ("ma_masked_object_none_equal", lambda m: m.ma.masked_object(A(m, [1.0, 2.0]), 3.0)),
    ("ma_fix_invalid_all_finite", lambda m: m.ma.fix_invalid(A(m, [1.0, 2.0]))),
    ("ma_fix_invalid_nan", lambda m: m.ma.fix_invalid(A(m, [1.0, np.nan]))),
    ("polydiv_by_zero", lambda m: m.polydiv(A(m, [1.0, 2.0]), A(m, [0.0]))),
    ("polydiv_zero_lead", lambda m: m.polydiv(A(m, [1.0, 2.0, 3.0]), A(m, [0.0, 1.0, 1.0]))),
    ("polypow_17", lambda m: m.polynomial.polynomial.polypow(A(m, [1.0, 2.0]), 17)),
    ("chebpow_17", lambda m: m.polynomial.chebyshev.chebpow(A(m, [1.0, 2.0]), 17)),
]


@pytest.mark.parametrize("call", [c for _, c in MORE], ids=[i for i, _ in MORE])
def test_more_gaps(call):
    check(call)


def _grid(m):
    return m.ma.array(A(m, [[1.0, 2.0], [3.0, 4.0]]), mask=[[0, 1], [0, 0]])


MASKED_METHODS = [
    ("ravel_F", lambda m: _grid(m).ravel(order="F")),
    ("reshape_F", lambda m: _grid(m).reshape((4,), order="F")),
    ("flatten_F", lambda m: _grid(m).flatten("F")),
    ("equal_masked_dtype", lambda m: _grid(m) == m.ma.masked),
    ("add_masked_int", lambda m: m.ma.array(A(m, [1, 2], np.int64)) + m.ma.masked),
    ("maximum_nan", lambda m: m.ma.maximum(A(m, [np.nan, 1.0]), A(m, [1.0, np.nan]))),
    ("minimum_masked", lambda m: m.ma.minimum(_grid(m), A(m, [[0.0, 0.0], [9.0, 9.0]]))),
    ("np_maximum_nan", lambda m: np.maximum(m.ma.array(A(m, [np.nan, 1.0]), mask=[0, 1]), A(m, [1.0, 0.0]))),
    ("multiply_outer", lambda m: m.ma.multiply.outer(m.ma.array(A(m, [1.0, 2.0]), mask=[0, 1]), A(m, [3.0, 4.0]))),
    ("maximum_outer", lambda m: m.ma.maximum.outer(A(m, [1.0, 5.0]), A(m, [3.0, 4.0]))),
    ("inner_1d", lambda m: m.ma.inner(m.ma.array(A(m, [1.0, 2.0]), mask=[0, 1]), A(m, [3.0, 4.0]))),
    ("inner_2d", lambda m: m.ma.inner(_grid(m), A(m, [3.0, 4.0]))),
]


@pytest.mark.parametrize("call", [c for _, c in MASKED_METHODS], ids=[i for i, _ in MASKED_METHODS])
def test_masked_methods(call):
    check(call)


@pytest.mark.parametrize("order", [None, "K", "C"])
def test_fortran_host_array_keeps_its_order(order):
    host = np.asfortranarray(F64)
    assert _layout(kd.asarray(host, order=order)) == _layout(np.asarray(host, order=order))


# kd's functions of a masked array whose NumPy versions respect the mask: kd.ma's, or a TypeError (never the
# data alone)

def _one_masked(m):
    return m.ma.array(A(m, [1.0, 2.0, 3.0, 3.0]), mask=[0, 1, 0, 0])


@pytest.mark.parametrize("name", ["unique", "unique_values", "ediff1d"])
def test_kd_functions_of_masked_arrays(name):
    check(lambda m: getattr(m, name)(_one_masked(m)))


@pytest.mark.parametrize("name", ["nanmean", "argwhere", "unique_counts"])
def test_kd_functions_refuse_masked_arrays(name):
    with pytest.raises(TypeError, match="respects the mask"):
        getattr(kd, name)(_one_masked(kd))
