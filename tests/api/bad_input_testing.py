"""The runner of the bad-input tables (tests/api/test_bad_input_*_errors16.py): one call made with NumPy and with
kdsl, the way users err, and kdsl's answer held to NumPy's.

A case is ``(id, call, words)``: ``call(m, d)`` runs with ``m`` = ``numpy`` or ``kdsl`` and ``d`` a dtype;
``words`` (a regular expression, or None) must be found in kdsl's message when NumPy raises, so the message
names the problem. When NumPy raises, kdsl raises the same class or a subclass (kdsl's exceptions subclass
NumPy's), never an internal error; when NumPy answers, kdsl answers the same values.
"""

import re
import warnings

import numpy as np

import kdsl as kd

# errors that mean a bug in kdsl, not bad input, unless NumPy raises that very class itself
INTERNAL = (AttributeError, KeyError, UnboundLocalError, ZeroDivisionError, AssertionError, NameError,
            RecursionError, NotImplementedError)


def A(m, data, d=None):  # noqa: N802 - short, as the tables read
    """``data`` as an array of module ``m`` (NumPy's or kdsl's), of dtype ``d`` when given."""
    return m.asarray(np.asarray(data, dtype=d))


def host_values(r):
    """A result read back as nested host values (kdsl arrays run here: a lazy error shows now)."""
    if isinstance(r, (tuple, list)):
        return [host_values(x) for x in r]
    if isinstance(r, (kd.Array, np.ndarray, np.generic)):
        return np.asarray(r)
    return r


def outcome(call, m, d):
    """``(host values of call(m, d), None)``, or ``(None, the exception it raised)``; warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # RuntimeWarnings of the bad values are not the point here
        try:
            return host_values(call(m, d)), None
        except Exception as e:  # noqa: BLE001 - every exception is compared with NumPy's
            return None, e


def _same_values(got, want):
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            _same_values(g, w)
    elif isinstance(want, np.ndarray):
        assert got.shape == want.shape
        np.testing.assert_allclose(got.astype(np.result_type(want.dtype, np.float32)), want, rtol=1e-5)
    else:
        assert got == want


def check_like_numpy(call, words, d):
    """``call`` with NumPy and kdsl: kdsl raises NumPy's class (or a subclass) with ``words`` in its message, or
    both answer alike."""
    want, np_err = outcome(call, np, d)
    got, kd_err = outcome(call, kd, d)
    if np_err is None:
        assert kd_err is None, f"NumPy answers but kdsl raises {type(kd_err).__name__}: {kd_err}"
        _same_values(got, want)
        return
    assert kd_err is not None, f"NumPy raises {type(np_err).__name__}: {np_err}; kdsl answers {got!r}"
    assert isinstance(kd_err, type(np_err)), \
        f"NumPy raises {type(np_err).__name__} ({np_err}), kdsl {type(kd_err).__name__} ({kd_err})"
    if isinstance(kd_err, INTERNAL):
        assert isinstance(np_err, INTERNAL), f"internal error: {kd_err!r}"
    assert str(kd_err), "kdsl's error says nothing"
    if words is not None:
        assert re.search(words, str(kd_err), re.IGNORECASE), f"{words!r} not in kdsl's message: {kd_err}"


def same_exactly(got, want):
    """Equal nested host values: lists and tuples item by item; arrays of one dtype and shape, equal with their
    NaNs and with the same zero signs (not NaN signs: x86's default NaN is negative, a GPU's positive)."""
    if isinstance(want, (list, tuple)):
        assert isinstance(got, type(want)) and len(got) == len(want), (got, want)
        for g, w in zip(got, want, strict=True):
            same_exactly(g, w)
    elif isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype and got.shape == want.shape, (got, want)
        assert np.array_equal(got, want, equal_nan=want.dtype.kind in "fc"), (got, want)
        if want.dtype.kind == "f":
            real = ~np.isnan(want)
            assert np.array_equal(np.signbit(got[real]), np.signbit(want[real])), (got, want)
    else:
        assert got == want, (got, want)


def check_exactly(call, words, outcome_of):
    """``outcome_of(call, m)`` (``(values, None)`` or ``(None, exception)``) with NumPy and kdsl: the same values
    (:func:`same_exactly`), or the same built-in exception class with ``words`` in kdsl's message."""
    want, np_err = outcome_of(call, np)
    got, kd_err = outcome_of(call, kd)
    if np_err is None:
        assert kd_err is None, f"NumPy answers {want!r}, kdsl raises {type(kd_err).__name__}: {kd_err}"
        same_exactly(got, want)
        return
    builtin = next(c for c in type(np_err).__mro__ if c.__module__ == "builtins")  # UFuncTypeError: TypeError
    assert isinstance(kd_err, builtin), f"NumPy raises {np_err!r}, kdsl {kd_err!r}"
    if words is not None:
        assert re.search(words, str(kd_err)), f"{words!r} not in kdsl's message: {kd_err}"
