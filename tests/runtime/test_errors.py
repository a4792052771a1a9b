"""Every misuse is a clear Python exception: RuntimeError for misuse, TypeError for wrong argument types."""

from __future__ import annotations

import numpy as np
import pytest
from rt_glsl import ADD_PUSH, MULTIPLY, SEED_SHADER, spirv
from rt_util import run_python

import kdsl.kp as kp


@pytest.fixture
def t(mgr):
    return mgr.tensor_t(np.zeros(4, np.float32))


def test_bad_queue_index(mgr):
    with pytest.raises(RuntimeError, match="queue"):
        mgr.sequence(queue_index=len(mgr.get_device_properties().get("queue_families", [])) + 64)
    with pytest.raises(RuntimeError, match="queue"):
        mgr.sequence(queue_index=1)  # the default Manager has exactly one queue
    with pytest.raises((RuntimeError, TypeError)):
        mgr.sequence(queue_index=-1)


def test_numpy_integer_queue_index(mgr):
    """Indices often come from NumPy (np.arange, array elements): np.int64(0) is queue 0."""
    assert mgr.sequence(queue_index=np.int64(0)).is_init()


def test_negative_await_timeout(mgr, t):
    seq = mgr.sequence().eval_async(kp.OpSyncDevice([t]))
    try:
        with pytest.raises((ValueError, RuntimeError, TypeError), match="timeout"):
            seq.eval_await(-1)
    finally:
        seq.eval_await()


CROSS_MANAGER = """
import numpy as np, kdsl.kp as kp
a, b = kp.Manager(), kp.Manager()
t = a.tensor_t(np.zeros(4, np.float32))
spv = kp.compile_source("#version 450\\nlayout(local_size_x=1) in;\\n"
                        "layout(set=0,binding=0) buffer B { float x[]; };\\nvoid main(){ x[0]=1.0; }")
try:
    {misuse}
    print("accepted")
except RuntimeError as exc:
    print("RuntimeError", exc)
"""


@pytest.mark.parametrize("misuse", ["b.algorithm([t], spv)", "b.sequence().eval(kp.OpSyncDevice([t]))",
                                    "b.sequence().eval(kp.OpCopy([b.tensor_t(np.zeros(4, np.float32)), t]))"])
def test_memory_of_another_manager_is_refused(misuse):
    """Binding, syncing or copying another Manager's (another VkDevice's) memory must raise, not crash.

    In a subprocess: with the validation layer on, the unchecked call dies in a segmentation fault.
    """
    out = run_python(CROSS_MANAGER.replace("{misuse}", misuse), env={"KDSL_VALIDATION": "1"}).stdout
    assert out.startswith("RuntimeError"), out


def test_destroyed_tensor_cannot_be_read(t):
    t.destroy()
    with pytest.raises(RuntimeError, match="destroy"):
        t.data()


@pytest.mark.parametrize("op", [kp.OpSyncDevice, kp.OpSyncLocal])
def test_destroyed_tensor_cannot_be_synced(mgr, t, op):
    t.destroy()
    with pytest.raises(RuntimeError):
        mgr.sequence().record(op([t]))


def test_destroyed_tensor_cannot_be_copied(mgr, t):
    other = mgr.tensor_t(np.zeros(4, np.float32))
    t.destroy()
    with pytest.raises(RuntimeError):
        mgr.sequence().record(kp.OpCopy([other, t]))


def test_destroyed_tensor_cannot_be_bound(mgr, t):
    t.destroy()
    with pytest.raises(RuntimeError):
        mgr.algorithm([t], spirv(ADD_PUSH), push_consts=[1.0])


def test_tensor_destroyed_after_recording_refuses_eval(mgr, t):
    """A sequence that recorded a since-destroyed tensor must not submit commands touching freed memory."""
    seq = mgr.sequence().record(kp.OpSyncDevice([t]))
    t.destroy()
    with pytest.raises(RuntimeError):
        seq.eval()


def test_destroyed_manager_refuses_work():
    m = kp.Manager()
    x = m.tensor_t(np.ones(2, np.float32))
    m.destroy()
    assert not x.is_init()
    with pytest.raises(RuntimeError):
        m.tensor_t(np.ones(2, np.float32))
    with pytest.raises(RuntimeError):
        m.sequence()
    with pytest.raises(RuntimeError):
        x.data()


@pytest.mark.parametrize("blob", [b"", b"not spir-v at all", b"\x03\x02\x23\x07" + b"\x00" * 16,
                                  b"\x03\x02\x23\x07\x00\x03"])
def test_invalid_spirv(mgr, t, blob):
    with pytest.raises(RuntimeError):
        mgr.algorithm([t], blob)


def test_truncated_spirv(mgr, t):
    good = spirv(ADD_PUSH)
    with pytest.raises(RuntimeError):
        mgr.algorithm([t], good[: len(good) // 2], push_consts=[1.0])


def test_spirv_must_be_bytes(mgr, t):
    with pytest.raises(TypeError):
        mgr.algorithm([t], ADD_PUSH, push_consts=[1.0])  # GLSL text, not compiled


def test_timestamps_when_not_enabled(mgr):
    with pytest.raises(RuntimeError, match="timestamp"):
        mgr.sequence().get_timestamps()


def test_copy_size_mismatch(mgr, t):
    with pytest.raises(RuntimeError):
        mgr.sequence().record(kp.OpCopy([t, mgr.tensor_t(np.zeros(5, np.float32))]))


def test_copy_dtype_mismatch(mgr, t):
    with pytest.raises(RuntimeError):
        mgr.sequence().record(kp.OpCopy([t, mgr.tensor_t(np.zeros(4, np.uint32))]))


@pytest.mark.parametrize("empty", [[], np.array([], np.float32), np.zeros((0, 3), np.float32)])
def test_empty_data(mgr, empty):
    with pytest.raises(RuntimeError, match="zero|empty"):
        if isinstance(empty, list):
            mgr.tensor(empty)
        else:
            mgr.tensor_t(empty)


def test_zero_sized_tensor_empty(mgr):
    with pytest.raises(RuntimeError):
        mgr.tensor_empty(0, np.float32)


def test_list_where_ndarray_required(mgr):
    with pytest.raises(TypeError):
        mgr.tensor_t([1.0, 2.0, 3.0])


def test_unsupported_dtype(mgr):
    with pytest.raises(RuntimeError):
        mgr.tensor_t(np.zeros(3, "m8[s]"))  # complex64 is a supported (vec2) element type since kdsl's complex dtypes
    with pytest.raises((RuntimeError, TypeError)):
        mgr.tensor_t(np.array(["a", "b"]))


def test_non_tensor_in_algorithm(mgr, t):
    with pytest.raises(TypeError):
        mgr.algorithm([t, np.zeros(4, np.float32)], spirv(MULTIPLY))


def test_ops_need_memory_objects(mgr, t):
    with pytest.raises(TypeError):
        kp.OpSyncDevice(np.zeros(3))
    with pytest.raises(TypeError):
        kp.OpSyncLocal([np.zeros(3)])


@pytest.mark.parametrize("workgroup", [(1, 1, 1, 1), (-1, 1, 1), (1.5, 1, 1), (2**40, 1, 1)])
def test_malformed_workgroup(mgr, t, workgroup):
    with pytest.raises((RuntimeError, TypeError, ValueError)):
        mgr.algorithm([t], spirv(ADD_PUSH), workgroup=workgroup, push_consts=[1.0])


def test_workgroup_larger_than_device_allows(mgr, props, t):
    limit = props["max_work_group_count"]
    for axis in range(3):
        group = [1, 1, 1]
        group[axis] = limit[axis] + 1
        with pytest.raises(RuntimeError, match="workgroup|work group"):
            mgr.algorithm([t], spirv(ADD_PUSH), workgroup=tuple(group), push_consts=[1.0])


def test_local_size_larger_than_device_allows(mgr, props, t):
    too_many = props["max_work_group_invocations"] * 2
    source = ADD_PUSH.replace("local_size_x = 1", f"local_size_x = {too_many}")
    with pytest.raises(RuntimeError):
        mgr.algorithm([t], spirv(source), workgroup=(1, 1, 1), push_consts=[1.0])


def test_allocation_larger_than_device_allows(mgr, props):
    limit = props["max_storage_buffer_range"]
    with pytest.raises(RuntimeError, match="max|large|range|limit"):
        mgr.tensor_empty(limit // 4 + 1, np.float32)


def test_push_constant_size_mismatch_at_creation(mgr, t):
    with pytest.raises(RuntimeError, match="push"):
        mgr.algorithm([t], spirv(ADD_PUSH), push_consts=np.zeros(3, np.float32))


def test_push_constant_missing_at_creation(mgr, t):
    """The shader has a 4-byte push block: dispatching without push constants would read garbage."""
    with pytest.raises(RuntimeError, match="push"):
        mgr.algorithm([t], spirv(ADD_PUSH))


def test_push_constant_size_mismatch_at_record(mgr, t):
    algo = mgr.algorithm([t], spirv(ADD_PUSH), push_consts=np.zeros(1, np.float32))
    with pytest.raises(RuntimeError, match="12.*4|4.*12"):
        mgr.sequence().record(kp.OpAlgoDispatch(algo, np.zeros(3, np.float32)))
    with pytest.raises(RuntimeError):
        mgr.sequence().record(kp.OpAlgoDispatch(algo, np.zeros(1, np.float64)))


def test_too_few_tensors_for_the_shader(mgr, t):
    with pytest.raises(RuntimeError, match="binding|tensor"):
        mgr.algorithm([t, t], spirv(MULTIPLY))


def test_image_bound_to_buffer_binding(mgr, t):
    img = mgr.image_t(np.zeros(4, np.float32), 2, 2, 1)
    with pytest.raises(RuntimeError):
        mgr.algorithm([t, img, t], spirv(MULTIPLY))


def test_storage_data_raises(mgr):
    s = mgr.tensor_t(np.zeros(3, np.float32), kp.MemoryTypes.storage)
    with pytest.raises(RuntimeError, match="storage"):
        s.data()


def test_spec_constant_dtype_unsupported(mgr):
    tensors = [mgr.tensor_t(np.zeros(3, np.float32)) for _ in range(2)] + \
        [mgr.tensor_t(np.zeros(3, np.uint32)) for _ in range(2)]
    with pytest.raises((RuntimeError, TypeError)):
        mgr.algorithm(tensors, spirv(SEED_SHADER), spec_consts=np.array([1 + 2j]),
                      push_consts=np.array([1], np.float32))


def test_eval_while_running_raises(mgr, t):
    algo = mgr.algorithm([t], spirv(ADD_PUSH), push_consts=[1.0])
    seq = mgr.sequence().eval_async(kp.OpAlgoDispatch(algo))
    try:
        with pytest.raises(RuntimeError):
            seq.eval_async(kp.OpAlgoDispatch(algo))
    finally:
        seq.eval_await()


def test_family_without_compute_is_refused(monkeypatch):
    """A transfer-only family would lose the device at the first dispatch (seen on the H200): refuse it."""
    from kdsl.runtime import instance

    real = instance.queue_families

    def with_transfer_family(physical):
        return real(physical) + [{"compute": False, "graphics": False, "transfer": True, "queue_count": 2,
                                  "timestamp_valid_bits": 64}]

    transfer_only = len(kp.list_devices()[0]["queue_families"])  # the index the fake family gets
    monkeypatch.setattr(instance, "queue_families", with_transfer_family)
    with pytest.raises(RuntimeError, match="no compute capability"):
        kp.Manager(0, [0, transfer_only])


def test_out_of_bounds_writes_stay_inside_their_buffer(mgr):
    """CPU drivers run with robustBufferAccess: a kernel indexing past its buffer must not touch other memory."""
    if mgr.get_device_properties()["device_type"] != "cpu":
        pytest.skip("robust buffer access is on by default on CPU drivers only (KDSL_ROBUST=1 elsewhere)")
    victims = [mgr.tensor_t(np.full(64, 7, np.float32), kp.MemoryTypes.host) for _ in range(4)]
    target = mgr.tensor_t(np.zeros(4, np.float32), kp.MemoryTypes.host)
    reach = spirv("""#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { float v[]; };
void main() { v[gl_GlobalInvocationID.x * 4096u + 4u] = -1.0; v[0] = v[123456789u]; }""")
    mgr.sequence().eval(kp.OpAlgoDispatch(mgr.algorithm([target], reach, (64, 1, 1))))
    for victim in victims:
        assert (victim.data() == 7).all()
    assert set(target.data().tolist()) <= {0.0, -1.0}  # robust writes may only land inside the bound range


def test_descriptor_set_other_than_zero_is_refused(mgr):
    t = mgr.tensor([1, 2])
    code = spirv("""#version 450
layout(local_size_x = 1) in;
layout(set = 1, binding = 0) buffer B { float v[]; };
void main() { v[0] = 1.0; }""")
    with pytest.raises(RuntimeError, match=r"descriptor set\(s\) \[1\]"):
        mgr.algorithm([t], code)
