"""Manager: construction forms, device properties, destroy, and BYOV (a Manager on caller-owned handles)."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from rt_glsl import MULTIPLY, spirv
from rt_vulkan import OwnedDevice

import kdsl.kp as kp
import kdsl.runtime as rt

DEVICE_TYPES = {"discrete_gpu", "integrated_gpu", "virtual_gpu", "cpu", "other"}
FEATURES = {"float64", "int64", "float16", "int8", "int16", "storage_buffer_8bit", "storage_buffer_16bit",
            "subgroup_arithmetic", "subgroup_ballot", "subgroup_shuffle", "atomic_float32_add",
            "atomic_float64_add", "shared_atomic_float32_add", "int64_atomics", "vulkan_memory_model",
            "cooperative_matrix", "extended_subgroup_types"}


def multiply_on(manager) -> np.ndarray:
    """Run out = a * b on ``manager`` and return out."""
    a, b = np.array([1, 2, 3], np.float32), np.array([4, 5, 6], np.float32)
    ta, tb, tout = manager.tensor_t(a), manager.tensor_t(b), manager.tensor_t(np.zeros(3, np.float32))
    algo = manager.algorithm([ta, tb, tout], spirv(MULTIPLY))
    (manager.sequence().record(kp.OpSyncDevice([ta, tb])).record(kp.OpAlgoDispatch(algo))
     .record(kp.OpSyncLocal([tout])).eval())
    return tout.data().copy()


def test_device_properties(props):
    assert isinstance(props["device_name"], str) and props["device_name"]
    assert props["device_type"] in DEVICE_TYPES
    assert len(props["max_work_group_count"]) == 3 and min(props["max_work_group_count"]) >= 65535
    assert len(props["max_work_group_size"]) == 3 and props["max_work_group_size"][0] >= 128
    assert props["max_work_group_invocations"] >= 128
    assert isinstance(props["timestamps_supported"], bool)
    assert props["max_storage_buffer_range"] >= 1 << 27
    assert props["max_shared_memory_size"] >= 16384
    assert props["subgroup_size"] >= 1
    assert len(props["device_uuid"]) == 36 and props["device_uuid"].count("-") == 4  # what nvidia-smi -L shows
    assert isinstance(props["features"], (set, frozenset))
    assert set(props["features"]) <= FEATURES, "features are named from the documented set"


def test_list_devices_matches_manager(props):
    devices = kp.list_devices()
    assert devices and all(d["device_type"] in DEVICE_TYPES for d in devices)
    assert devices[0]["device_name"] == props["device_name"]
    assert len({d["device_uuid"] for d in devices}) == len(devices)  # each physical device once
    # The Manager enables what the device offers: the same feature names (subgroup ops need no enabling).
    assert set(devices[0]["features"]) == set(props["features"])
    assert rt.list_devices()[0]["max_work_group_count"] == props["max_work_group_count"]


def test_lavapipe_facts(props):
    """On the CPU device the facts measured in VULKAN_NOTES.md hold."""
    if props["device_type"] != "cpu":
        pytest.skip("a GPU: these are the CPU driver's (lavapipe's) measured limits")
    assert props["max_storage_buffer_range"] == 128 * 1024 * 1024
    optional = {"atomic_float32_add", "atomic_float64_add", "int64_atomics", "cooperative_matrix"}
    assert FEATURES - optional <= set(props["features"])
    assert "cooperative_matrix" not in props["features"] and props["cooperative_matrix_shapes"] == []


@pytest.mark.parametrize("args, kwargs", [((), {}), ((0,), {}), ((0, [0]), {}), ((), {"device": 0,
                                                                                       "family_queue_indices": [],
                                                                                       "desired_extensions": []})])
def test_construction_forms(args, kwargs):
    m = kp.Manager(*args, **kwargs)
    try:
        np.testing.assert_array_equal(multiply_on(m), [4, 10, 18])
    finally:
        m.destroy()


def test_bad_device_index_raises():
    with pytest.raises(RuntimeError, match="device"):
        kp.Manager(len(kp.list_devices()) + 3)


def test_bad_family_index_raises():
    with pytest.raises(RuntimeError, match="famil"):
        kp.Manager(0, [999])


def test_unsupported_extension_is_skipped_with_a_warning():
    with pytest.warns(Warning, match="VK_KDSL_no_such_extension"):
        m = kp.Manager(0, [], ["VK_KDSL_no_such_extension"])
    m.destroy()


def test_destroy_frees_everything_and_is_idempotent():
    m = kp.Manager()
    t = m.tensor([1, 2])
    algo = m.algorithm([t, t, t], spirv(MULTIPLY))
    seq = m.sequence().record(kp.OpAlgoDispatch(algo))
    m.destroy()
    m.destroy()
    assert not (t.is_init() or algo.is_init() or seq.is_init())


def test_collected_manager_frees_its_device():
    gc.collect()  # earlier tests' garbage must not be counted in the baseline
    before = rt.live_objects()
    m = kp.Manager()
    t = m.tensor([1, 2, 3])
    del m
    gc.collect()
    assert not t.is_init()
    del t
    gc.collect()
    assert rt.live_objects() == before


def test_manager_holds_objects_weakly():
    m = kp.Manager()
    try:
        gc.collect()
        baseline = rt.live_objects()
        for _ in range(5):
            m.tensor(np.ones(16))
        gc.collect()
        assert rt.live_objects() == baseline
    finally:
        m.destroy()


def test_data_view_outlives_manager_destroy_safely():
    """A NumPy view of mapped memory must stay readable (or its memory kept) after the Manager is destroyed."""
    m = kp.Manager()
    view = m.tensor_t(np.arange(4, dtype=np.float32), kp.MemoryTypes.host).data()
    m.destroy()
    assert not view.base.is_init()
    np.testing.assert_array_equal(view, np.arange(4))
    del view
    gc.collect()


def test_byov_runs_kernels_and_never_destroys_caller_handles():
    own = OwnedDevice(float64=True)
    try:
        gc.collect()
        before = rt.live_objects()
        features = {"float64"} if own.float64 else set()
        m = kp.Manager.from_handles(own.instance, own.physical, own.device, [own.queue], [own.family], features)
        np.testing.assert_array_equal(multiply_on(m), [4, 10, 18])
        if own.float64:
            m.tensor_t(np.ones(2, np.float64))
        m.destroy()
        gc.collect()
        assert rt.live_objects() == before, "BYOV must not create (or leave) a device or instance of its own"
        assert own.alive(), "the caller's device must survive the Manager"
    finally:
        own.destroy()


def test_byov_without_features_rejects_dtypes_that_need_them():
    own = OwnedDevice()
    try:
        m = kp.Manager.from_handles(own.instance, own.physical, own.device, [own.queue], [own.family])
        with pytest.raises(RuntimeError, match="int64"):
            m.tensor_t(np.ones(2, np.int64))
        with pytest.raises(RuntimeError, match="8bit|8_bit|int8"):
            m.tensor_t(np.ones(2, np.int8))
        del m
        gc.collect()
        assert own.alive()
    finally:
        own.destroy()


def test_byov_manager_collected_without_destroy():
    own = OwnedDevice()
    try:
        m = kp.Manager.from_handles(own.instance, own.physical, own.device, [own.queue], [own.family])
        multiply_on(m)
        del m
        gc.collect()
        assert own.alive()
    finally:
        own.destroy()


def test_context_manager_form():
    with kp.Manager() as m:
        t = m.tensor([1])
    assert not t.is_init()
