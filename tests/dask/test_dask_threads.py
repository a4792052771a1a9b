"""Dask arrays of kdsl chunks on Dask's threaded scheduler (one process), checked against NumPy: every chunk
operation runs on the device through NumPy's protocols, ``compute()`` returns a kdsl array."""

import dask
import dask.array as da
import numpy as np
import pytest

import kdsl as kd
import kdsl.dask as kdd

RNG = np.random.default_rng(7)
X = RNG.standard_normal((10, 7)).astype(np.float32)


@pytest.fixture(autouse=True)
def _threads():
    with dask.config.set(scheduler="threads"):
        yield


def _check(result, expected, rtol=1e-5, atol=1e-5):
    assert isinstance(result, kd.Array)
    np.testing.assert_allclose(result.numpy(), expected, rtol=rtol, atol=atol)


def test_dask_sees_a_chunks_device_bytes():
    from dask.sizeof import sizeof
    assert sizeof(kd.ones((1000, 10))) == 40000 and sizeof(kd.ones(3, dtype=kd.float16)) == 6


def test_chunks_are_kdsl_arrays_and_meta_too():
    x = kdd.from_array(X, chunks=(4, 3))
    assert isinstance(x._meta, kd.Array) and x.dtype == np.float32 and x.chunks == ((4, 4, 2), (3, 3, 1))
    assert all(isinstance(b, kd.Array) for b in dask.compute(*x.to_delayed().ravel()))
    assert kdd.meta(3, np.int32).shape == (0, 0, 0)


@pytest.mark.parametrize("chunks", [(4, 3), (1, 7), (3, -1)])
def test_elementwise_and_reductions(chunks):
    x = kdd.from_array(X, chunks=chunks)
    _check((da.sin(x) * 2 + x ** 2 - 1).compute(), np.sin(X) * 2 + X ** 2 - 1)
    _check(x.sum().compute(), X.sum(), rtol=1e-4)
    _check(x.sum(axis=0).compute(), X.sum(axis=0), rtol=1e-4)
    _check(x.mean(axis=1).compute(), X.mean(axis=1), rtol=1e-4)
    _check(x.max(axis=0).compute(), X.max(axis=0))
    _check(x.min().compute(), X.min())
    _check(x.std(axis=0).compute(), X.std(axis=0), rtol=1e-4)
    _check(x.argmax(axis=1).compute(), X.argmax(axis=1))
    _check((x > 0).any(axis=0).compute(), (X > 0).any(axis=0))
    _check(da.prod(x[:, :2] + 2, axis=0).compute(), np.prod(X[:, :2] + 2, axis=0), rtol=1e-4)


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_other_dtypes(dtype):
    if not kd.device().supports(dtype):
        pytest.skip(f"this device has no {np.dtype(dtype).name}")
    a = (X * 10).astype(dtype)
    x = kdd.from_array(a, chunks=(3, 4))
    _check((x * 3 - 1).compute(), a * 3 - 1)
    _check(x.sum(axis=1).compute(), a.sum(axis=1), rtol=1e-9)


def test_nan_inf_and_empty_chunks():
    a = np.array([[np.nan, 1, -np.inf], [2, np.inf, -0.0]], np.float32)
    x = kdd.from_array(a, chunks=1)
    _check(da.nansum(x, axis=0).compute(), np.nansum(a, axis=0))
    _check(da.isnan(x).sum().compute(), 1)
    _check(x.max(axis=1).compute(), a.max(axis=1))
    empty = kdd.from_array(np.zeros((0, 3), np.float32), chunks=2)
    _check(empty.sum(axis=0).compute(), np.zeros(3))


def test_matmul_tensordot_slicing_rechunk():
    x = kdd.from_array(X, chunks=(4, 3))
    _check((x @ x.T).compute(), X @ X.T, rtol=1e-4, atol=1e-4)
    _check(da.tensordot(x, x, axes=([0], [0])).compute(), np.tensordot(X, X, axes=([0], [0])), rtol=1e-4, atol=1e-4)
    _check(x[1:9:3, ::-2].compute(), X[1:9:3, ::-2])
    _check(x.T[2].compute(), X.T[2])
    r = x.rechunk((5, 2))
    assert r.chunks == ((5, 5), (2, 2, 2, 1))
    _check(r.compute(), X)
    _check(da.concatenate([x, x], axis=1).compute(), np.concatenate([X, X], axis=1))


@kd.kernel
def _leaky_relu(x: kd.f32[:], y: kd.f32[:], slope: kd.f32):
    i = kd.global_id(0)
    v = x[i]
    y[i] = v if v > 0.0 else v * slope


def _leaky_block(block):
    out = kd.empty(block.size, kd.float32)  # the kernel writes a whole array (writes into a view would be lost)
    _leaky_relu[block.size](block.reshape(-1), out, 0.1)
    return out.reshape(block.shape)


def test_map_blocks_with_a_kernel_and_a_kdsl_function():
    x = kdd.from_array(X, chunks=(4, 3))
    _check(x.map_blocks(_leaky_block).compute(), np.where(X > 0, X, X * np.float32(0.1)))
    _check(x.map_blocks(kd.tanh).compute(), np.tanh(X), rtol=1e-5)


def test_numpy_conversions():
    x = kdd.from_numpy(da.from_array(X, chunks=5))
    assert isinstance(x._meta, kd.Array)
    out = kdd.to_numpy(x * 2).compute()
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, X * 2)
    with pytest.raises(TypeError, match="from_array"):
        kdd.from_numpy(X)
    with pytest.raises(TypeError, match="dask.array"):
        kdd.to_numpy(X)


def test_mixing_a_dask_array_with_a_kdsl_array():
    x = kdd.from_array(X, chunks=(4, 3))
    w = kd.asarray(X[0])
    assert isinstance(x + w, da.Array)
    _check((x + w).compute(), X + X[0])
    _check((x @ w).compute(), X @ X[0], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("make", [
    lambda a: np.empty_like(a, shape=(0, 0)), lambda a: np.zeros_like(a, dtype=np.int32, order="F"),
    lambda a: np.ones_like(a, subok=False), lambda a: np.full_like(a, 3), lambda a: np.empty((0, 2), like=a),
    lambda a: np.zeros(2, dtype=np.float32, like=a), lambda a: np.ones(3, like=a), lambda a: np.full(3, 2.0, like=a),
    lambda a: np.array([[1, 2]], like=a, ndmin=3), lambda a: np.asarray([1.0], like=a),
])
def test_meta_arrays_through_numpys_creation_functions(make):
    """Dask makes meta arrays (and empty results) with NumPy's creation functions on a chunk or like= one."""
    a = kd.ones((2, 3))
    got = make(a)
    expected = make(np.ones((2, 3), np.float32))
    assert isinstance(got, kd.Array) and got.shape == expected.shape and got.dtype.kind == expected.dtype.kind
    if expected.size:  # (empty ones have no values to compare)
        np.testing.assert_array_equal(got.numpy(), expected)
