"""kd.multiply.at / bitwise_and.at / bitwise_or.at / bitwise_xor.at (segmented-scan folds) and ufunc.at with
slices, None, Ellipsis and boolean masks in the index, against NumPy's unbuffered ufunc.at."""

import numpy as np
import pytest

import kdsl as kd

FOLDS = ["multiply", "bitwise_and", "bitwise_or", "bitwise_xor"]


def _both(name, a_host, indices, values, host_indices=None):
    want = a_host.copy()
    getattr(np, name).at(want, indices if host_indices is None else host_indices, values)
    a = kd.asarray(a_host)
    getattr(kd, name).at(a, indices, values)
    return a.numpy(), want


@pytest.mark.parametrize("name", FOLDS)
@pytest.mark.parametrize("dtype", ["int32", "int8", "uint8", "int64", "bool"])
@pytest.mark.parametrize("n_idx", [0, 1, 7, 200])
def test_integer_folds_exact(name, dtype, n_idx):
    rng = np.random.default_rng(n_idx)
    a = rng.integers(1, 100, 33).astype(dtype)
    idx = rng.integers(-33, 33, n_idx)
    v = rng.integers(1, 100, n_idx).astype(dtype)  # int8 products wrap, as NumPy's sequential ones
    got, want = _both(name, a, idx, v)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_float_and_complex_products(dtype):
    rng = np.random.default_rng(3)
    a = (rng.uniform(0.5, 2.0, 20) + (1j * rng.uniform(-1, 1, 20) if dtype == "complex64" else 0)).astype(dtype)
    idx = rng.integers(0, 20, 90)
    v = rng.uniform(0.8, 1.25, 90).astype(dtype)
    v[5] = np.nan if dtype != "complex64" else v[5]
    got, want = _both("multiply", a, idx, v)
    np.testing.assert_allclose(got, want, rtol=1e-5 if dtype != "float64" else 1e-12, equal_nan=True)


def test_multiply_at_two_d_scalar_and_device_indices():
    a = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
    got, want = _both("multiply", a, (kd.asarray([0, 0, 2]), kd.asarray([1, 1, -1])), 3,
                      host_indices=(np.array([0, 0, 2]), np.array([1, 1, -1])))
    np.testing.assert_array_equal(got, want)
    got, want = _both("bitwise_or", a, [2, 2], np.array([[1, 2, 4, 8], [16, 0, 0, 0]], np.int32))
    np.testing.assert_array_equal(got, want)


KEYS = [(slice(None), [0, 0, 2]), (0, slice(1, 3), [1, 1]), (Ellipsis, [3, 3, 0]), ([1, 1], slice(None), 2),
        (slice(None, None, -1), [0, 0], slice(None)), ([0, 1], None, [2, 2], 0), ([[0], [1]], slice(0, 2), [1, 1, 3]),
        (np.array([True, False]),), (slice(1, 2),)]


@pytest.mark.parametrize("name", ["add", "subtract", "maximum", "minimum", "multiply"])
@pytest.mark.parametrize("key", KEYS, ids=range(len(KEYS)))
@pytest.mark.parametrize("strided", [False, True])
def test_slices_none_ellipsis_masks_in_the_key(name, key, strided):
    """np.add.at(a, (slice(None), idx), v): kdsl took integer arrays on the leading axes only."""
    base = np.arange(48, dtype=np.float32).reshape(2, 3, 8) - 20
    a = base[:, :, ::2] if strided else base[:, :, :4]
    k = key if len(key) > 1 else key[0]
    sel = a[k]
    v = (np.arange(sel.size, dtype=np.float32).reshape(sel.shape) % 5) - 2
    got, want = _both(name, np.ascontiguousarray(a), k, v)
    np.testing.assert_array_equal(got, want)
    got, want = _both(name, np.ascontiguousarray(a), k, 2.0)
    np.testing.assert_array_equal(got, want)


def test_mask_key_and_errors():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    got, want = _both("add", a, a > 5, 10)
    np.testing.assert_array_equal(got, want)
    got, want = _both("add", a, kd.asarray(a % 3 == 0), 1, host_indices=a % 3 == 0)
    np.testing.assert_array_equal(got, want)
    with pytest.raises(IndexError):
        kd.add.at(kd.asarray(a), (slice(None), [4]), 1)
    with pytest.raises(ValueError, match="broadcast"):
        kd.add.at(kd.asarray(a), (slice(None), [0, 1]), [1, 2, 3])
    got, want = _both("power", a, [0, 0], 2)  # NumPy has power.at (applied in rounds here)
    np.testing.assert_array_equal(got, want)
