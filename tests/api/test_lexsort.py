"""lexsort and sort_complex against NumPy: several keys of several dtypes, axes, strided views, NaN and
complex keys (NumPy's complex order), 0-d and empty keys, bad input."""

import numpy as np
import pytest

import kdsl as kd

RNG = np.random.default_rng(0)


def _keys(shape, seed=0):
    rng = np.random.default_rng(seed)
    floats = rng.normal(size=shape).round(0).astype(np.float32)
    floats[rng.random(shape) < 0.2] = np.nan
    return [rng.integers(0, 3, shape).astype(np.int16), floats, rng.integers(0, 2, shape).astype(bool),
            rng.integers(0, 4, shape).astype(np.uint8)]


def _same_indices(expected, got):
    assert isinstance(got, kd.Array)
    out = got.numpy()
    assert out.dtype == expected.dtype and out.shape == expected.shape
    assert np.array_equal(out, expected)


@pytest.mark.parametrize("nkeys", [1, 2, 4])
@pytest.mark.parametrize("shape,axis", [((17,), -1), ((17,), 0), ((4, 9), -1), ((4, 9), 0), ((3, 4, 5), 1)])
def test_lexsort_matches_numpy(nkeys, shape, axis):
    keys = _keys(shape)[:nkeys]
    _same_indices(np.lexsort(keys, axis=axis), kd.lexsort([kd.asarray(k) for k in keys], axis=axis))


def test_lexsort_of_a_2d_array_views_and_host_keys():
    k = RNG.integers(0, 3, (3, 10))
    _same_indices(np.lexsort(k), kd.lexsort(kd.asarray(k)))  # rows are the keys
    _same_indices(np.lexsort(k.T[::2].T), kd.lexsort(kd.asarray(k).T[::2].T))
    _same_indices(np.lexsort(k[:, ::-1]), kd.lexsort(kd.asarray(k)[:, ::-1]))
    _same_indices(np.lexsort(tuple(k)), kd.lexsort(tuple(k)))  # host keys
    _same_indices(np.lexsort([k[0], np.float64([0.5] * 10)]), kd.lexsort([kd.asarray(k[0]), np.float64([0.5] * 10)]))


def test_lexsort_of_nan_and_complex_keys():
    z = (RNG.integers(0, 3, 30) + 1j * RNG.integers(0, 3, 30)).astype(np.complex128)
    z[RNG.random(30) < 0.2] = complex(np.nan, 1)
    z[RNG.random(30) < 0.2] = complex(1, np.nan)
    z[RNG.random(30) < 0.1] = complex(np.nan, np.nan)
    other = RNG.integers(0, 2, 30)
    _same_indices(np.lexsort([z]), kd.lexsort([kd.asarray(z)]))
    _same_indices(np.lexsort([other, z]), kd.lexsort([kd.asarray(other), kd.asarray(z)]))
    _same_indices(np.lexsort([z, other]), kd.lexsort([kd.asarray(z), kd.asarray(other)]))
    f = np.array([np.nan, 1.0, -np.inf, np.inf, np.nan, 0.0])
    _same_indices(np.lexsort([f]), kd.lexsort([kd.asarray(f)]))


def test_lexsort_of_0d_and_empty_keys():
    _same_indices(np.lexsort([np.array(3)]), kd.lexsort([kd.asarray(3)]))
    empty = np.zeros((0, 4), np.float32)
    _same_indices(np.lexsort([empty, empty], axis=0), kd.lexsort([kd.asarray(empty), kd.asarray(empty)], axis=0))


def test_lexsort_dispatches_from_numpy():
    keys = _keys((12,))
    got = np.lexsort(tuple(kd.asarray(k) for k in keys))  # NumPy dispatches on a tuple of keys (not a list)
    assert isinstance(got, kd.Array)
    _same_indices(np.lexsort(keys), got)


@pytest.mark.parametrize("call,error,match", [
    (lambda: kd.lexsort([]), TypeError, "len > 0"),
    (lambda: kd.lexsort(kd.asarray(3)), TypeError, "len > 0"),
    (lambda: kd.lexsort([kd.asarray([1, 2]), kd.asarray([1, 2, 3])]), ValueError, "same shape"),
    (lambda: kd.lexsort([kd.asarray([1, 2])], axis=1), np.exceptions.AxisError, "axis"),
])
def test_lexsort_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


def _complex_data(shape, dtype):
    rng = np.random.default_rng(5)
    z = (rng.integers(-2, 3, shape) + 1j * rng.integers(-2, 3, shape)).astype(dtype)
    z[rng.random(shape) < 0.15] = complex(np.nan, 2)
    z[rng.random(shape) < 0.15] = complex(-1, np.nan)
    z[rng.random(shape) < 0.1] = complex(np.inf, -np.inf)
    return z


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(25,), (4, 7), (2, 3, 6), (0,), (1,)])
def test_sort_complex_of_complex(dtype, shape):
    z = _complex_data(shape, dtype)
    got = kd.sort_complex(kd.asarray(z))
    expected = np.sort_complex(z)
    assert got.numpy().dtype == expected.dtype and got.shape == expected.shape
    assert np.array_equal(got.numpy(), expected, equal_nan=True)
    if z.ndim == 2:
        assert np.array_equal(kd.sort_complex(kd.asarray(z).T[::2]).numpy(), np.sort_complex(z.T[::2]), equal_nan=True)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.float16, np.float32, np.float64,
                                   np.bool_])
def test_sort_complex_of_real(dtype):
    data = np.array([[3, 1, 2, 0], [5, -1, 4, 4]]).astype(dtype) if dtype != np.bool_ else np.array([True, False])
    if np.dtype(dtype).kind == "f":
        data[0, 1] = np.nan
    got = kd.sort_complex(kd.asarray(data))
    expected = np.sort_complex(data)
    assert got.numpy().dtype == expected.dtype
    assert np.array_equal(got.numpy(), expected, equal_nan=True)


def test_sort_complex_dispatch_and_bad_input():
    z = _complex_data((9,), np.complex64)
    got = np.sort_complex(kd.asarray(z))
    assert isinstance(got, kd.Array) and np.array_equal(got.numpy(), np.sort_complex(z), equal_nan=True)
    with pytest.raises(np.exceptions.AxisError):
        kd.sort_complex(kd.asarray(1 + 1j))


def test_many_keys_realise_the_running_order(monkeypatch):
    """``np.lexsort(a.T)`` of wide rows: one stable sort per key, the running order realised every REALIZE_EVERY
    keys (2000 keys: 3.5 s -> 0.6 s on lavapipe; a long lazy chain grew quadratically)."""
    from kdsl.frontend.array import lexicographic

    monkeypatch.setattr(lexicographic, "REALIZE_EVERY", 4)
    a = np.random.default_rng(8).integers(0, 2, (12, 30)).astype(np.float64)
    np.testing.assert_array_equal(kd.lexsort(kd.asarray(a).T).numpy(), np.lexsort(a.T))
