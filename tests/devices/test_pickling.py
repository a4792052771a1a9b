"""Pickling: arrays by value (lazy ones computed first, restored on the receiving process's current device),
dtypes as their singletons, devices by index, kernels by source, kd.elementwise / kd.reduction / kd.raw_kernel
by their text, kd.jit functions as the function they wrap - in process and through a multiprocessing spawn pool
(a fresh interpreter: nothing is shared but the pickles)."""

import inspect
import multiprocessing
import pickle

import cloudpickle
import numpy as np
import pytest

import kdsl as kd

OFFSET = 0.5  # a module constant the kernel reads: it travels with the kernel's source


@kd.func
def _twice(v: kd.f32) -> kd.f32:
    return v * 2


@kd.kernel
def _affine(x: kd.f32[:], y: kd.f32[:]):
    i = kd.global_id(0)
    y[i] = _twice(x[i]) + OFFSET


@kd.jit
def _step(w, g):
    return w - 0.1 * g


_RAW = """#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer X { float x[]; };
void main() { x[gl_GlobalInvocationID.x] += 1.0; }
"""


def _roundtrip(obj, dumps=pickle.dumps):
    return pickle.loads(dumps(obj))


@pytest.mark.parametrize("make", [
    lambda: kd.asarray(np.arange(12, dtype=np.float32).reshape(3, 4)),
    lambda: kd.asarray(np.arange(12, dtype=np.int32).reshape(3, 4)).T[1:],  # a non-contiguous view
    lambda: kd.sin(kd.arange(5.0)) * 2,  # lazy: computed first
    lambda: kd.asarray(np.array([np.nan, -0.0, np.inf], np.float32)),
    lambda: kd.zeros((0, 3), kd.uint8),
    lambda: kd.asarray(np.array([True, False])),
    lambda: kd.asarray(7, kd.int64),
])
def test_arrays_pickle_by_value(make):
    a = make()
    b = _roundtrip(a)
    assert isinstance(b, kd.Array) and b.device is kd.device()
    assert (b.shape, b.dtype) == (a.shape, a.dtype)
    np.testing.assert_array_equal(b.numpy(), a.numpy())


def test_dtypes_stay_singletons_and_devices_pickle_by_index():
    for d in kd.dtypes:
        assert _roundtrip(d) is d
    assert _roundtrip(kd.f32[:, :]) == kd.f32[:, :]
    assert _roundtrip(kd.device()) is kd.device()


def _check_kernels(kernel, ew, red, raw, jitted):
    x = kd.arange(4.0)
    y = kd.zeros(4)
    kernel[4](x, y)
    np.testing.assert_array_equal(y.numpy(), [0.5, 2.5, 4.5, 6.5])
    np.testing.assert_array_equal(ew(x).numpy(), [1, 3, 5, 7])
    assert float(red(x)) == pytest.approx(np.sqrt(14))
    z = kd.zeros(3)
    raw(z, grid=3)
    np.testing.assert_array_equal(z.numpy(), [1, 1, 1])
    np.testing.assert_allclose(jitted(x, x).numpy(), [0, 0.9, 1.8, 2.7], rtol=1e-6)


def _kernels():
    return (_affine, kd.elementwise("T x", "T z", "z = x * 2 + 1", "odd"),
            kd.reduction("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm"),
            kd.raw_kernel(_RAW, name="inc"), _step)


@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps])
def test_kernels_pickle_by_source(dumps):
    _check_kernels(*_roundtrip(_kernels(), dumps))


def test_a_kernels_source_is_readable_after_unpickling():
    k = _roundtrip(_affine)
    assert "y[i] = _twice(x[i]) + OFFSET" in inspect.getsource(k.fn)
    assert k.fn.__code__.co_firstlineno == _affine.fn.__code__.co_firstlineno + 1  # the decorator line is gone
    assert k.__name__ == "_affine" and k.block == _affine.block


def test_jit_pickles_by_reference_when_global_and_by_function_otherwise():
    assert _roundtrip(_step) is _step  # a module global: pickle stores its name
    local = kd.jit(lambda a: a + 1)
    assert _roundtrip(local, cloudpickle.dumps)(kd.arange(2.0)).tolist() == [1.0, 2.0]


def _in_child(payload: bytes) -> bytes:
    """Runs in a spawned process: unpickle arrays and kernels, compute, send results back pickled."""
    a, kernels = pickle.loads(payload)
    _check_kernels(*kernels)
    return pickle.dumps((a * 2, kd.sum(a)))


def test_through_a_spawn_pool():
    a = kd.asarray(np.arange(6, dtype=np.float32).reshape(2, 3)) + 1
    payload = pickle.dumps((a, _kernels()))
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        doubled, total = pickle.loads(pool.apply(_in_child, (payload,)))
    np.testing.assert_array_equal(doubled.numpy(), a.numpy() * 2)
    assert total.item() == 21.0
