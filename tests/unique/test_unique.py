"""kd.unique (axis=None) and the array API's unique_values/counts/inverse/all against NumPy 2: several shapes and
dtypes, NaN (collapsed or not), -0.0 == 0.0, inf, empty and 0-d input, all-equal, all-NaN, non-contiguous views."""

import numpy as np
import pytest

import kdsl as kd

DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64"]


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    out = rng.integers(-3, 4, shape).astype(dtype) if dtype != "bool" else rng.integers(0, 2, shape).astype(bool)
    if np.dtype(dtype).kind == "f" and out.size >= 6:
        out.flat[[0, 2, 3, 4, 5]] = [np.nan, -0.0, np.nan, np.inf, 0.0]
    return out


def _same(got, want):
    got = got.numpy() if isinstance(got, kd.Array) else np.asarray(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)  # -0.0 == 0.0 and NaN == NaN here, as unique treats them


def _check_all(a, h, **kw):
    got = kd.unique(a, return_index=True, return_inverse=True, return_counts=True, **kw)
    want = np.unique(h, return_index=True, return_inverse=True, return_counts=True, **kw)
    for g, w in zip(got, want, strict=True):
        _same(g, w)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(9,), (3, 5), (1, 6, 1)])
def test_unique_every_output_matches_numpy(shape, dtype):
    h = _data(shape, dtype)
    _check_all(kd.asarray(h), h)
    _same(kd.unique(kd.asarray(h)), np.unique(h))


@pytest.mark.parametrize("flags", [(True, False, False), (False, True, False), (False, False, True),
                                   (True, False, True)])
def test_unique_returns_what_was_asked_in_numpys_order(flags):
    h = _data((4, 5), "int32", seed=1)
    got = kd.unique(kd.asarray(h), *flags)
    want = np.unique(h, *flags)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        _same(g, w)


@pytest.mark.parametrize("equal_nan", [True, False])
def test_nans_collapse_only_with_equal_nan(equal_nan):
    h = np.array([np.nan, 1.0, np.nan, -0.0, 0.0, np.nan, -np.inf], np.float32)
    _check_all(kd.asarray(h), h, equal_nan=equal_nan)
    assert kd.unique(kd.asarray(h), equal_nan=equal_nan).shape == (4 if equal_nan else 6,)


@pytest.mark.parametrize("h", [np.full(6, 7, np.int32), np.full((2, 3), np.nan, np.float32),
                               np.array([-0.0, 0.0, -0.0], np.float64), np.array([True] * 5),
                               np.array(3.5, np.float32), np.array([42], np.int64)],
                         ids=["all-equal", "all-nan", "signed-zeros", "all-true", "0-d", "one"])
def test_degenerate_inputs(h):
    _check_all(kd.asarray(h), h)
    _check_all(kd.asarray(h), h, equal_nan=False)


@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0)])
def test_empty_input(shape):
    h = np.zeros(shape, np.float32)
    _check_all(kd.asarray(h), h)
    r = kd.unique_all(kd.asarray(h))
    assert r.values.shape == (0,) and r.inverse_indices.shape == shape


def test_non_contiguous_views():
    h = _data((6, 8), "float32", seed=2)
    a = kd.asarray(h)
    for view, want in [(a[::2, ::-1], h[::2, ::-1]), (a.T, h.T), (a[1:5, 3], h[1:5, 3])]:
        _check_all(view, want)


def test_lazy_input_and_a_larger_array():
    h = np.random.default_rng(3).integers(0, 500, 20_000).astype(np.int32)
    a = kd.asarray(h) * 2 - 1  # a lazy expression, not a buffer
    _check_all(a, h * 2 - 1)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_array_api_functions_match_numpy(dtype):
    h = _data((4, 6), dtype, seed=4)
    a = kd.asarray(h)
    # NumPy >= 2.3 leaves unique_values' order unspecified; kdsl sorts (NaNs last, every NaN kept)
    _same(kd.unique_values(a), np.sort(np.unique_values(h)))
    want = np.unique(h, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)
    r = kd.unique_all(a)
    assert r._fields == np.unique_all(h)._fields == ("values", "indices", "inverse_indices", "counts")
    for g, w in zip(r, want, strict=True):
        _same(g, w)
    c, i = kd.unique_counts(a), kd.unique_inverse(a)
    assert c._fields == np.unique_counts(h)._fields and i._fields == np.unique_inverse(h)._fields
    _same(c.values, want[0])
    _same(c.counts, want[3])
    _same(i.values, want[0])
    _same(i.inverse_indices, want[2])


def test_inverse_rebuilds_the_input():
    h = _data((5, 7), "float32", seed=5)
    values, inverse = kd.unique(kd.asarray(h), return_inverse=True)
    np.testing.assert_array_equal(kd.take(values, inverse.reshape(-1)).numpy().reshape(h.shape), h)


def test_bad_axis_raises_numpys_error():  # unique(axis=k) itself: tests/unique/test_unique_axis.py
    with pytest.raises(np.exceptions.AxisError):
        kd.unique(kd.asarray([[1, 2], [1, 2]]), axis=2)


def test_one_read_back_and_numpy_dispatch():
    a = kd.asarray(np.array([3, 1, 3, 2, 1], np.int32))
    kd.realize(a)
    before = kd.stats()["downloads"]
    values, index, inverse, counts = kd.unique(a, True, True, True)
    assert values.shape == (3,) and kd.stats()["downloads"] == before + 1  # the count only; the rest is lazy
    got = np.unique(a, return_counts=True, sorted=True)  # __array_function__ reaches kd.unique
    _same(got[1], np.array([2, 1, 2]))
