"""Every device limit a call can exceed is checked before anything is recorded, with the limit and the value in
the error; every limit is read from the device (never lavapipe's numbers).

Before: ``m.sequence(0, 10**9)`` took 5.8 s and 3.6 GB before hanging; ``local_size`` 64x64, too much shared
memory (through kp, ``kd.raw_kernel`` and ``kd.shared``) and ``OpCopy([t, t])`` were recorded and dispatched.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

import kdsl as kd
import kdsl.kp as kp
from kdsl.runtime.sequence_resources import MAX_TIMESTAMPS


def _shader(body: str = "", local: str = "local_size_x = 1", decls: str = "") -> bytes:
    return kp.compile_source(f"""#version 450
layout({local}) in;
layout(set = 0, binding = 0) buffer X {{ float x[]; }};
{decls}
void main() {{ {body} }}""")


def test_huge_timestamp_count_is_refused_at_once(mgr):
    start = time.perf_counter()
    with pytest.raises(RuntimeError, match=rf"total_timestamps=1000000000 .*\({MAX_TIMESTAMPS}"):
        mgr.sequence(0, 10**9)
    assert time.perf_counter() - start < 1.0
    with pytest.raises(TypeError, match="total_timestamps must be an int"):
        mgr.sequence(0, 2.5)
    seq = mgr.sequence(0, 4)  # a sane count still works
    seq.destroy()


def test_workgroup_size_over_the_invocation_limit(mgr, props):
    limit = props["max_work_group_invocations"]
    side = int(np.ceil(np.sqrt(limit + 1)))
    side = max(side, 2)
    while side * side <= limit:
        side += 1
    sizes = props["max_work_group_size"]
    if side > min(sizes[0], sizes[1]):
        pytest.skip("this device's per-axis limit is below the invocation limit's square root")
    t = mgr.tensor([1.0])
    with pytest.raises(RuntimeError, match=rf"is {side * side} invocations, more than this device's "
                                           rf"maxComputeWorkGroupInvocations of {limit}"):
        mgr.algorithm([t], _shader(local=f"local_size_x = {side}, local_size_y = {side}"))


def test_workgroup_size_over_an_axis_limit_through_a_spec_constant(mgr, props):
    """``local_size_x_id``: the size comes from the specialization constants, so the check reads them."""
    limit = props["max_work_group_size"][0]
    t = mgr.tensor([1.0])
    spirv = _shader(local="local_size_x_id = 0")
    with pytest.raises(RuntimeError, match=rf"local_size_x is {limit + 1}, more than this device's "
                                           rf"maxComputeWorkGroupSize\[0\] of {limit}"):
        mgr.algorithm([t], spirv, spec_consts=np.array([limit + 1], np.uint32))
    algo = mgr.algorithm([t], spirv, spec_consts=np.array([1], np.uint32))
    algo.destroy()


def test_shared_memory_over_the_limit_through_kp(mgr, props):
    limit = props["max_shared_memory_size"]
    n = limit // 4 + 1
    spirv = _shader("s[gl_LocalInvocationID.x] = 1.0; x[0] = s[0];", decls=f"shared float s[{n}];")
    t = mgr.tensor([1.0])
    with pytest.raises(RuntimeError, match=rf"declares {4 * n} bytes of shared memory, more than this device's "
                                           rf"maxComputeSharedMemorySize of {limit} bytes"):
        mgr.algorithm([t], spirv)
    fits = _shader("s[gl_LocalInvocationID.x] = 1.0; x[0] = s[0];", decls=f"shared float s[{limit // 8}];")
    mgr.algorithm([t], fits).destroy()


def test_shared_memory_over_the_limit_through_raw_kernel_and_kd_shared():
    limit = kd.device().manager.get_device_properties()["max_shared_memory_size"]
    n = limit // 4 + 1
    raw = kd.raw_kernel(f"""#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer X {{ float x[]; }};
shared float s[{n}];
void main() {{ s[gl_LocalInvocationID.x] = 1.0; x[0] = s[0]; }}""")
    with pytest.raises(RuntimeError, match="maxComputeSharedMemorySize"):
        raw(np.zeros(1, np.float32), grid=1)

    @kd.kernel(block=(1,))
    def uses_shared(x: kd.f32[:]):
        buf = kd.shared((n,), kd.f32)
        buf[kd.local_id(0)] = 1.0
        x[0] = buf[0]

    with pytest.raises(RuntimeError, match="maxComputeSharedMemorySize"):
        uses_shared(np.zeros(1, np.float32), grid=1)


def test_workgroup_count_over_the_limit(mgr, props):
    limit = props["max_work_group_count"][0]
    t = mgr.tensor([1.0])
    with pytest.raises(RuntimeError, match=rf"axis x allows at most {limit} groups"):
        mgr.algorithm([t], _shader(), workgroup=(limit + 1, 1, 1))
    algo = mgr.algorithm([t], _shader())
    with pytest.raises(RuntimeError, match=rf"axis x allows at most {limit} groups"):
        algo.set_workgroup((limit + 1, 1, 1))
    algo.destroy()


def test_push_constants_over_the_limit(mgr, props):
    limit = props["max_push_constants_size"]
    n = limit // 4 + 1
    spirv = _shader("x[0] = p[0];", decls=f"layout(push_constant) uniform P {{ float p[{n}]; }};")
    t = mgr.tensor([1.0])
    with pytest.raises(RuntimeError, match=rf"push constants of {4 * n} bytes exceed this device's "
                                           rf"maxPushConstantsSize of {limit} bytes"):
        mgr.algorithm([t], spirv, push_consts=np.zeros(n, np.float32))


def test_overlapping_copies_are_refused(mgr):
    a, b = mgr.tensor([1.0, 2.0]), mgr.tensor([0.0, 0.0])
    with pytest.raises(RuntimeError, match="both the source and destination 1 .overlapping copy"):
        kp.OpCopy([a, a])
    with pytest.raises(RuntimeError, match="both destination 1 and destination 2"):
        kp.OpCopy([a, b, b])
    mgr.sequence().eval(kp.OpCopy([a, b]))
    np.testing.assert_array_equal(b.data(), [1.0, 2.0])


def test_limits_come_from_the_device(props):
    """What the runtime reads from VkPhysicalDeviceLimits for these checks."""
    for key in ("max_work_group_count", "max_work_group_size", "max_work_group_invocations",
                "max_shared_memory_size", "max_push_constants_size", "max_storage_buffer_range",
                "max_memory_allocation_count", "max_bound_descriptor_sets", "max_per_stage_storage_buffers"):
        assert key in props, key
    assert props["max_work_group_invocations"] > 0 and props["max_shared_memory_size"] > 0


def test_more_storage_buffers_than_the_device_binds(mgr, props):
    """The issue's training-loop crash: a kernel binding 33 buffers past lavapipe's 32."""
    limit = props["max_per_stage_storage_buffers"]
    if limit > 200:
        pytest.skip(f"this device binds {limit} storage buffers per stage; the test would be slow")
    n = limit + 1
    decls = "\n".join(f"layout(set = 0, binding = {i}) buffer B{i} {{ float b{i}[]; }};" for i in range(1, n))
    spirv = _shader("x[0] = 1.0;" + "".join(f"b{i}[0] = 1.0;" for i in range(1, n)), decls=decls)
    tensors = [mgr.tensor([0.0]) for _ in range(n)]
    with pytest.raises(RuntimeError, match=rf"binds {n} memory objects .* maxPerStageDescriptorStorageBuffers "
                                           rf"is {limit}"):
        mgr.algorithm(tensors, spirv)
