"""Leaks and bounds: thousands of steps of same-shape and of distinct-shape work keep the live Vulkan objects
(``kdsl.runtime.vk.live_objects()``), the engine's per-device caches (``kdsl.engine.state.state(dev)``: pool,
programs, recorded batches, staging, readbacks, custom-kernel Algorithms) and Python's memory (``tracemalloc``)
bounded: a steady loop stops growing after its first steps."""

from __future__ import annotations

import gc
import tracemalloc

import numpy as np
import pytest
from reliab16_workloads import WORKLOADS, close

import kdsl as kd
from kdsl.engine import buffers
from kdsl.engine import plan as plan_cache
from kdsl.engine.state import cache_limits, set_cache_limits, state
from kdsl.runtime import vk


def _sizes(st) -> dict[str, int]:
    """Everything the engine keeps for a device, and the Vulkan objects alive."""
    return {"pool_bytes": st.pool_bytes, "pool_count": st.pool_count, "programs": len(st.programs),
            "batches": len(st.batches.recorded) if st.batches is not None else 0, "staging": len(st.staging),
            "readbacks": len(st.readbacks), "algorithms": len(st.algorithms), "plans": len(plan_cache._plans),
            **vk.live_objects()}


@kd.jit
def _update(w, g):
    return w - 0.01 * g


def _step(a, a_np, w, i):
    """One step of a steady loop: elementwise, reductions, a sort, a jit replay, a download and a scalar read."""
    s = (kd.sin(a) * 2 + 1).sum(axis=0)
    order = kd.argsort(a[0], stable=True)
    w = _update(w, s)
    if i % 50 == 0:  # (checked now and then: NumPy's side costs more than kdsl's here)
        close(s, (np.sin(a_np) * 2 + 1).sum(axis=0), atol=1e-3)
        np.testing.assert_array_equal(order.numpy(), np.argsort(a_np[0], stable=True))
    assert float(a[1, 2]) == float(a_np[1, 2])
    return w


def test_a_steady_loop_keeps_its_caches_objects_and_host_memory_constant():
    st = state(kd.device())
    a_np = np.random.default_rng(0).standard_normal((8, 700)).astype(np.float32)
    a, w = kd.asarray(a_np), kd.zeros(700)
    for i in range(100):  # warm: every plan, program, pooled buffer and recorded batch of the step
        w = _step(a, a_np, w, i)
    gc.collect()
    tracemalloc.start()
    try:
        before, host0 = _sizes(st), tracemalloc.get_traced_memory()[0]
        for i in range(1500):
            w = _step(a, a_np, w, i)
        gc.collect()
        after, host1 = _sizes(st), tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert after == before
    assert host1 - host0 < 64 << 10, f"{host1 - host0} bytes more after 1500 steps"


def test_every_workload_repeated_keeps_caches_and_objects_constant():
    """After its first rounds, each round of every workload leaves the engine's caches and the Vulkan objects
    as they were. (After a long run of other tests a cache may still be filling in the first rounds: an
    Algorithm kept bound more, a pipeline's descriptor pool; what must not happen is growth round after round.)"""
    st = state(kd.device())
    rng = np.random.default_rng(1)
    rounds = []
    for _ in range(10):
        for work in WORKLOADS:
            work(rng, 1)
        gc.collect()
        rounds.append(_sizes(st))
    assert all(r == rounds[-1] for r in rounds[-5:]), [r for r in rounds if r != rounds[-1]]


def test_uploads_of_many_distinct_sizes_keep_the_pool_bounded():
    """Before: every distinct size stayed pooled until the pool held a quarter of the device's memory (a loop
    over varying lengths: 12 000 VkBuffers and 40 MB of host objects after 6 000 steps, and growing)."""
    st = state(kd.device())
    kd.empty_cache()
    buffers._pool_limit(st)
    limit = st.pool_count_limit
    assert 0 < limit <= buffers._POOL_TENSORS
    base = vk.live_objects().get("VkBuffer", 0)
    for n in range(1, limit + 2000):
        x = kd.asarray(np.full(n, 2, np.float32))
        if n % 997 == 0:
            assert float(x[-1]) == 2.0
        del x
    assert st.pool_count <= limit
    assert st.pool_count == sum(len(b) for b in st.pool.values())
    assert vk.live_objects().get("VkBuffer", 0) <= base + limit + 10
    assert ("float32", limit + 1998) in st.pool  # the newest sizes stay, the oldest went
    assert ("float32", 1) not in st.pool
    kd.empty_cache()
    assert st.pool_count == 0


@pytest.fixture
def small_caches():
    old = cache_limits()
    set_cache_limits(programs=12, plans=20)
    yield
    set_cache_limits(**old)


def test_distinct_shapes_of_every_kind_of_work_stay_within_the_limits(small_caches):
    """Each step a new shape: new plans, kernels, staging and readbacks every time; every cache stays within
    its limit and the Vulkan objects alive stop growing."""
    st = state(kd.device())
    rng = np.random.default_rng(2)
    seen = []
    for n in range(40, 76):
        x = rng.standard_normal((3, n)).astype(np.float32)
        a = kd.asarray(x)
        close((a * 2 + 1).max(axis=1), (x * 2 + 1).max(axis=1))
        np.testing.assert_array_equal(kd.sort(a, axis=1).numpy(), np.sort(x, axis=1))
        close(kd.cumsum(a, axis=1), np.cumsum(x, axis=1), atol=1e-4)
        sizes = _sizes(st)
        assert sizes["programs"] <= 12 and sizes["plans"] <= 20 and sizes["batches"] <= 16, sizes
        seen.append(sum(v for k, v in sizes.items() if k.startswith("Vk") and k != "VkBuffer"
                        and k != "VkDeviceMemory"))
    assert max(seen[18:]) <= max(seen[:18]) + 8, seen
