"""kd.unique and the array API's unique_* of complex arrays (found by the array API suite: they raised, as the
plain argsort refuses complex numbers), against NumPy 2: NumPy's order (real part, then imaginary part, NaNs
last), -0.0 == 0.0 in either part, NaNs collapsed by ``unique`` and kept apart by ``unique_*``."""

import numpy as np
import pytest

import kdsl as kd


def _data(shape, dtype, nans, seed=0):
    rng = np.random.default_rng(seed)
    out = (rng.integers(-2, 3, shape) + 1j * rng.integers(-1, 2, shape)).astype(dtype)
    if out.size >= 6:
        out.flat[[0, 1]] = [complex(-0.0, 1.0), complex(0.0, -0.0)]
        if nans:
            out.flat[[2, 3, 4]] = [complex(np.nan, 1.0), complex(2.0, np.nan), complex(np.nan, 1.0)]
    return out


def _same(got, want):
    got = got.numpy()
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)


SHAPES = [(1,), (7,), (3, 4), (2, 1, 5), (0,), ()]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("nans", [False, True])
def test_unique_with_everything_like_numpy(dtype, shape, nans):
    h = _data(shape, dtype, nans)
    got = kd.unique(kd.asarray(h), return_index=True, return_inverse=True, return_counts=True)
    want = np.unique(h, return_index=True, return_inverse=True, return_counts=True)
    for g, w in zip(got, want, strict=True):
        _same(g, w)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape", SHAPES)
def test_array_api_unique_functions_like_numpy(dtype, shape):
    h = _data(shape, dtype, nans=False)
    a = kd.asarray(h)
    for name in ("unique_all", "unique_counts", "unique_inverse"):
        got, want = getattr(kd, name)(a), getattr(np, name)(h)
        for g, w in zip(got, want, strict=True):
            _same(g, w)
    _same(kd.unique_values(a), np.sort(np.unique_values(h)))  # NumPy's may be unsorted; kdsl's is sorted


def test_unique_functions_keep_every_nan_apart():
    h = _data((9,), np.complex64, nans=True)
    a = kd.asarray(h)
    values, counts = kd.unique_counts(a)
    assert int(kd.isnan(values).sum()) == int(np.isnan(h).sum()) == 3  # NaNs are distinct (the standard)
    assert counts.numpy()[np.isnan(values.numpy())].tolist() == [1, 1, 1]
    values, inverse = kd.unique_inverse(a)
    np.testing.assert_array_equal(values.numpy()[inverse.numpy()], h)  # values[inverse] rebuilds the input


def test_strided_view_and_transpose():
    h = _data((4, 6), np.complex128, nans=False)
    for view in (lambda x: x[::2, 1::2], lambda x: x.T):
        got = kd.unique_inverse(view(kd.asarray(h)))
        want = np.unique_inverse(view(h))
        _same(got.values, want.values)
        _same(got.inverse_indices, want.inverse_indices)
