"""nansum/nanprod/nanmean/nanvar/nanstd/nanmax/nanmin against NumPy, and the AttributeError of a missing name."""

import warnings

import numpy as np
import pytest

import kdsl as kd

DATA = np.array([[1.0, np.nan, 3.0, -0.0], [np.nan, np.nan, np.nan, np.nan], [np.inf, 2.0, 5.0, -np.inf],
                 [0.5, -2.0, np.nan, 4.0]], np.float32)
FNS = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin"]


def _check(fn, data, x, **kwargs):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy warns on all-NaN slices
        expected = getattr(np, fn)(data, **kwargs)
    got = getattr(kd, fn)(x, **kwargs).numpy()
    assert got.shape == np.shape(expected) and got.dtype == np.asarray(expected).dtype, (got, expected)
    np.testing.assert_allclose(got, expected, rtol=1e-5, equal_nan=True)


@pytest.mark.parametrize("fn", FNS)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_nan_reductions(fn, axis, keepdims):
    _check(fn, DATA, kd.asarray(DATA), axis=axis, keepdims=keepdims)
    _check(fn, DATA.T[:, ::2], kd.asarray(DATA).T[:, ::2], axis=axis, keepdims=keepdims)  # a strided view


@pytest.mark.parametrize("fn", FNS)
@pytest.mark.parametrize("dtype", ["float16", "float64", "int16", "bool"])
def test_nan_reductions_other_dtypes(fn, dtype):
    data = DATA[:, :3].astype(dtype) if dtype[0] == "f" else np.arange(12).reshape(4, 3).astype(dtype)
    if dtype == "bool" and fn in ("nanvar", "nanstd", "nanmean"):
        return  # NumPy has no bool var loop
    _check(fn, data, kd.asarray(data), axis=1)


@pytest.mark.parametrize("ddof", [0, 1, 3])
def test_nanvar_ddof_and_correction(ddof):
    _check("nanvar", DATA, kd.asarray(DATA), axis=1, ddof=ddof)
    got = kd.nanstd(kd.asarray(DATA), axis=0, correction=ddof).numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        np.testing.assert_allclose(got, np.nanstd(DATA, axis=0, ddof=ddof), rtol=1e-5, equal_nan=True)


@pytest.mark.parametrize("fn", FNS)
def test_nan_reductions_of_empty_and_size_one(fn):
    one = np.array([[np.nan]], np.float32)
    _check(fn, one, kd.asarray(one), axis=0)
    empty = np.zeros((0, 3), np.float32)
    if fn in ("nanmax", "nanmin"):
        with pytest.raises(ValueError):
            getattr(kd, fn)(kd.asarray(empty), axis=0)
    else:
        _check(fn, empty, kd.asarray(empty), axis=1)


@pytest.mark.parametrize("name,hint", [("asnumpy", "a.numpy"), ("no_such_name", "docs/numpy-api.md"),
                                       ("memmap", "np.memmap"), ("complex_", "kd.complex64"),
                                       ("no_such_function", "docs/numpy-api.md"),
                                       ("busday_count", "np.busday_count on the host"),
                                       ("char", "no strings"), ("recarray", "one kdsl array per field")])
def test_missing_names_say_what_to_do(name, hint):
    with pytest.raises(AttributeError, match=f"no attribute '{name}'.*{hint}"):
        getattr(kd, name)
    assert not hasattr(kd, name)
