"""Tensor: creation, dtypes, the data() view, and a round trip of every dtype through every memory type."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from rt_glsl import TENSOR_DTYPES, affine_kernel, affine_oracle, features_for, sample, spirv
from rt_util import needs

import kdsl.kp as kp

MEMORY_TYPES = ["device", "host", "storage", "deviceAndHost"]


def test_tensor_from_list_is_flat_float32(mgr):
    t = mgr.tensor([[1, 2], [3, 4]])
    assert t.data().dtype == np.float32
    np.testing.assert_array_equal(t.data(), [1, 2, 3, 4])
    assert t.size() == 4 and len(t) == 4
    assert t.data_type() == kp.DataTypes.float
    assert t.memory_type() == kp.MemoryTypes.device


def test_tensor_from_float64_array_is_stored_as_float32(mgr):
    t = mgr.tensor(np.array([0.5, 1.5, 1e-3]))
    assert t.data().dtype == np.float32
    np.testing.assert_array_equal(t.data(), np.array([0.5, 1.5, 1e-3], dtype=np.float32))


@pytest.mark.parametrize("name", TENSOR_DTYPES)
def test_tensor_t_keeps_dtype(mgr, features, name):
    needs(features, *features_for(name))
    a = sample(np.dtype(name))
    t = mgr.tensor_t(a)
    assert t.data().dtype == a.dtype
    np.testing.assert_array_equal(t.data(), a)
    assert t.size() == a.size


@pytest.mark.parametrize("name, expected", [("float32", "float"), ("float64", "double"), ("int32", "int"),
                                            ("uint32", "uint"), ("bool", "bool"), ("int16", "short"),
                                            ("uint16", "ushort"), ("int8", "char"), ("uint8", "uchar")])
def test_data_type_names_follow_kompute(mgr, features, name, expected):
    needs(features, *features_for(name))
    t = mgr.tensor_t(sample(np.dtype(name), 4))
    assert t.data_type() == getattr(kp.DataTypes, expected)


@pytest.mark.parametrize("make", [lambda a: a.reshape(2, 3).T, lambda a: np.asfortranarray(a.reshape(2, 3)),
                                  lambda a: a[::2]])
def test_non_contiguous_input_is_flattened_in_c_order(mgr, make):
    arr = make(np.arange(6, dtype=np.float32))
    np.testing.assert_array_equal(mgr.tensor_t(arr).data(), arr.ravel())
    np.testing.assert_array_equal(mgr.tensor(arr).data(), arr.ravel())


def test_data_view_is_writable_and_based_on_the_tensor(mgr):
    t = mgr.tensor_t(np.arange(4, dtype=np.int32), kp.MemoryTypes.host)
    view = t.data()
    assert view.base is t
    view[2] = 40
    np.testing.assert_array_equal(t.data(), [0, 1, 40, 3])


def test_data_view_keeps_the_tensor_alive(mgr):
    t = mgr.tensor_t(np.arange(5, dtype=np.float32))
    view = t.data()
    del t
    gc.collect()
    assert view.base.is_init()
    np.testing.assert_array_equal(view, np.arange(5))


def test_data_survives_device_round_trip(mgr):
    """Staging -> device -> (staging overwritten) -> staging again gives the uploaded values back."""
    a = np.linspace(-1, 1, 33, dtype=np.float32)
    t = mgr.tensor_t(a.copy())
    mgr.sequence().eval(kp.OpSyncDevice([t]))
    t.data()[:] = 0
    mgr.sequence().eval(kp.OpSyncLocal([t]))
    np.testing.assert_array_equal(t.data(), a)


@pytest.mark.parametrize("memory", MEMORY_TYPES)
def test_memory_type_is_reported(mgr, memory):
    t = mgr.tensor_t(np.ones(3, np.float32), getattr(kp.MemoryTypes, memory))
    assert t.memory_type() == getattr(kp.MemoryTypes, memory)


@pytest.mark.parametrize("memory", MEMORY_TYPES)
@pytest.mark.parametrize("name", TENSOR_DTYPES)
def test_dtype_round_trip_through_kernel(mgr, features, name, memory):
    """Upload ``a``, run ``b = a * 3 + 1`` in the dtype on the GPU, read ``b`` back: NumPy gives the answer.

    Storage memory has no host copy, so data goes device tensor -> OpCopy -> storage -> kernel -> storage
    -> OpCopy -> host tensor.
    """
    needs(features, *features_for(name))
    a = sample(np.dtype(name))
    if memory == "storage":
        got = _storage_round_trip(mgr, a)
    else:
        kind = getattr(kp.MemoryTypes, memory)
        t_in, t_out = mgr.tensor_t(a, kind), mgr.tensor_t(np.zeros_like(a), kind)
        algo = mgr.algorithm([t_in, t_out], spirv(affine_kernel(a.dtype)), workgroup=(a.size, 1, 1))
        (mgr.sequence().record(kp.OpSyncDevice([t_in, t_out])).record(kp.OpAlgoDispatch(algo))
         .record(kp.OpSyncLocal([t_out])).eval())
        got = t_out.data()
    assert got.dtype == a.dtype
    np.testing.assert_array_equal(got, affine_oracle(a))


def _storage_round_trip(mgr, a: np.ndarray) -> np.ndarray:
    source = mgr.tensor_t(a)
    s_in = mgr.tensor_empty(a.size, a.dtype, kp.MemoryTypes.storage)
    s_out = mgr.tensor_empty(a.size, a.dtype, kp.MemoryTypes.storage)
    result = mgr.tensor_t(np.zeros_like(a), kp.MemoryTypes.host)
    algo = mgr.algorithm([s_in, s_out], spirv(affine_kernel(a.dtype)), workgroup=(a.size, 1, 1))
    (mgr.sequence().record(kp.OpSyncDevice([source])).record(kp.OpCopy([source, s_in]))
     .record(kp.OpAlgoDispatch(algo)).record(kp.OpCopy([s_out, result])).eval())
    return result.data()


@pytest.mark.parametrize("name", TENSOR_DTYPES)
def test_tensor_t_into_storage_uploads_its_data(mgr, features, name):
    """A storage tensor made from data holds that data on the device (read back through OpCopy)."""
    needs(features, *features_for(name))
    a = sample(np.dtype(name))
    stored = mgr.tensor_t(a, kp.MemoryTypes.storage)
    back = mgr.tensor_t(np.zeros_like(a), kp.MemoryTypes.host)
    mgr.sequence().eval(kp.OpCopy([stored, back]))
    np.testing.assert_array_equal(back.data(), a)


@pytest.mark.parametrize("memory", ["device", "host", "deviceAndHost"])
def test_tensor_empty_has_size_dtype_and_a_host_view(mgr, memory):
    t = mgr.tensor_empty(7, np.uint16, getattr(kp.MemoryTypes, memory))
    assert t.size() == 7 and t.memory_type() == getattr(kp.MemoryTypes, memory)
    assert t.data().dtype == np.uint16 and t.data().shape == (7,)


def test_tensor_empty_defaults_to_storage(mgr):
    t = mgr.tensor_empty(3, np.float32)
    assert t.memory_type() == kp.MemoryTypes.storage
    with pytest.raises(RuntimeError):
        t.data()


def test_destroy_is_idempotent(mgr):
    t = mgr.tensor_t(np.ones(3, np.float32))
    t.destroy()
    t.destroy()
    assert not t.is_init()
    assert t.size() == 0


def test_large_tensor_round_trip(mgr):
    a = np.random.default_rng(0).standard_normal(1 << 20).astype(np.float32)
    t = mgr.tensor_t(a.copy())
    mgr.sequence().record(kp.OpSyncDevice([t])).eval()
    t.data()[:] = 0
    mgr.sequence().eval(kp.OpSyncLocal([t]))
    np.testing.assert_array_equal(t.data(), a)
