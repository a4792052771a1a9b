"""kd.piecewise against NumPy: an empty condition list is NumPy's IndexError (kdsl filled the 'otherwise' value),
conditions of different shapes NumPy's ValueError, and a function that is not element-wise gets NumPy's argument
``x[cond]`` (whole sub-arrays for a condition of leading axes; kdsl flattened them) and no call for an empty
selection. Every function that is not provably pure element-wise arithmetic is called exactly as NumPy calls it
(kdsl called each once more, on the whole array, to test whether it is element-wise)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import kdsl as kd


def _recorded(lib, x, condlist, funclist):
    """The result (or error) and, per function, the shapes it was called with."""
    calls: list[list[tuple[int, ...]]] = [[] for _ in funclist]

    def recording(i, f):
        def g(v, *args, **kw):
            calls[i].append(tuple(v.shape))
            return f(v, *args, **kw)
        return g if callable(f) else f

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            result = np.asarray(lib.piecewise(x, condlist, [recording(i, f) for i, f in enumerate(funclist)]))
    except (IndexError, ValueError) as err:
        return (type(err), str(err)), calls
    return result, calls


def _kd(c):
    return kd.asarray(c) if isinstance(c, np.ndarray) else c


def _same(expected, got) -> None:
    if isinstance(expected, tuple):
        assert got == expected
    else:
        assert not isinstance(got, tuple), got
        assert (got.shape, got.dtype) == (expected.shape, expected.dtype)
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("condlist", [[], (), np.array([], dtype=bool), np.zeros((0, 4), bool)])
@pytest.mark.parametrize("funclist", [[5], [], [lambda v: v * 2]])
def test_empty_condition_list_is_numpys_index_error(condlist, funclist):
    x = np.arange(4.0)
    expected, _ = _recorded(np, x, condlist, funclist)
    got, _ = _recorded(kd, kd.asarray(x), _kd(condlist), funclist)
    _same(expected, got)


def test_conditions_of_different_shapes_are_numpys_value_error():
    x = np.arange(6.0).reshape(2, 3)
    for condlist in ([x > 1, np.array([True, False])], [np.array([True, False]), x > 1]):
        expected, _ = _recorded(np, x, condlist, [1, 2])
        got, _ = _recorded(kd, kd.asarray(x), [kd.asarray(c) for c in condlist], [1, 2])
        _same(expected, got)


X2 = np.array([[3.0, -1.0, 2.0, np.nan], [0.5, -0.0, 4.0, 1.0], [-2.0, 6.0, 1.5, 2.5]])
ROWS = [np.array([True, False, True]), np.array([False, False, False]), np.array([True, True, True])]
NOT_ELEMENTWISE = [lambda v: v - np.nanmean(v), lambda v: v.sum(axis=-1, keepdims=True) + v,
                   lambda v: np.cumsum(v, axis=0), lambda v: v[::-1]]


@pytest.mark.parametrize("rows", range(len(ROWS)))
@pytest.mark.parametrize("f", range(len(NOT_ELEMENTWISE)))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_condition_of_leading_axes_passes_whole_rows(rows, f, dtype):
    x = X2.astype(dtype)
    funclist = [NOT_ELEMENTWISE[f], lambda v: v * 2]
    expected, np_calls = _recorded(np, x, [ROWS[rows]], funclist)
    got, kd_calls = _recorded(kd, kd.asarray(x), [kd.asarray(ROWS[rows])], funclist)
    _same(expected, got)
    assert kd_calls == np_calls  # NumPy's calls, with NumPy's shapes (kdsl made one more, on the whole array)


@pytest.mark.parametrize("x", [np.array([-2.0, -1.0, 0.0, 1.0, 2.0, 3.0]), np.arange(-3, 5, dtype=np.int32),
                               np.linspace(-1, 1, 9, dtype=np.float32)[::2]])
def test_full_shape_conditions_call_with_numpys_selection(x):
    mean_centred = lambda v: v - v.mean()  # noqa: E731
    for condlist in ([x < 0], [x < -10], [x < 0, x > 1], [x > -100]):
        funclist = [mean_centred] * len(condlist) + [7]
        expected, np_calls = _recorded(np, x, condlist, funclist)
        got, kd_calls = _recorded(kd, kd.asarray(x), [kd.asarray(c) for c in condlist], funclist)
        _same(expected, got)
        assert kd_calls == np_calls  # no call with an empty selection (NumPy makes none)


@pytest.mark.parametrize("x", [np.arange(-3.0, 4.0), np.arange(12, dtype=np.int64).reshape(3, 4) - 5,
                               np.array([np.nan, -np.inf, -0.0, 2.5], np.float32), np.zeros((0, 2)),
                               np.array([1.5]), np.arange(10.0)[::3]])
def test_recorded_element_wise_functions_are_called_as_numpy_calls_them(x):
    # a function with a side effect is not pure: NumPy's one call per non-empty selection, NumPy's shapes (kdsl
    # called an element-wise one on the whole array even where its condition selected nothing)
    for condlist in ([x < 0], [x < -100], [x > -100], [x < 0, x > 1]):
        for funclist in ([lambda v: v * v] * len(condlist) + [lambda v: v + 1], [lambda v: v * 2] * len(condlist)):
            expected, np_calls = _recorded(np, x, condlist, funclist)
            got, kd_calls = _recorded(kd, kd.asarray(x), [kd.asarray(c) for c in condlist], funclist)
            _same(expected, got)
            assert kd_calls == np_calls


def test_side_effect_counts_match_numpys():
    # the brief's case: a counter in a function that is not element-wise (kdsl called it twice)
    x = np.array([-2.0, -1.0, 1.0, 3.0, 4.0])
    counts = {np: 0, kd: 0}

    def centred(v, lib):
        counts[lib] += 1
        return v - v.mean()

    for lib, a in ((np, x), (kd, kd.asarray(x))):
        got = lib.piecewise(a, [a < 0, a > 2], [lambda v, lib=lib: centred(v, lib)] * 2 + [0.0])
        if lib is np:
            want = got
    np.testing.assert_array_equal(np.asarray(got), want)
    assert counts[kd] == counts[np] == 2
