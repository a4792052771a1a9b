"""Bounded caches (issue 8 point 10), the buffer pool in reference cycles (issue 9), device lookup costs and
``KDSL_DEVICE`` errors (issue 8 point 11)."""

import gc
import os
import subprocess
import sys
import time
from collections import OrderedDict

import numpy as np
import pytest

import kdsl as kd
from kdsl.engine import plan as plan_cache
from kdsl.engine.buffers import Buffer, allocate
from kdsl.engine.programs import Program
from kdsl.engine.state import cache_limits, set_cache_limits, state
from kdsl.runtime.vk import VulkanError, vulkan


@pytest.fixture
def small_caches():
    old = cache_limits()
    set_cache_limits(programs=10, plans=15)
    yield
    set_cache_limits(**old)


def test_distinct_kernels_keep_at_most_the_bound_alive(small_caches):
    st = state(kd.device())
    n = 60  # (600 ran once by hand with the same bounds: each new kernel costs a glslang compile)
    base = kd.asarray(np.zeros(n, np.float32))
    alive_algos = []
    for k in range(n):  # n distinct kernels (one per index: the offset is part of the kernel)
        a = base + 0
        a[k] = 1.0
        a.realize()
        assert len(st.programs) <= 10 and len(plan_cache._plans) <= 15
        alive_algos.append(sum(len(p.algos) for p in st.programs.values()))
    assert max(alive_algos) <= 10 * 4
    np.testing.assert_array_equal(a.numpy()[-2:], [0, 1])
    evicted = [p for p in gc.get_objects() if type(p) is Program and not p.alive]  # the engine's (not RawProgram)
    assert all(not p.algos for p in evicted)  # an evicted program freed its Algorithms


def test_custom_kernel_algorithms_are_bounded(small_caches):
    st = state(kd.device())
    for k in range(25):
        k_ = kd.raw_kernel(f"""#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B {{ float x[]; }};
void main() {{ x[0] = {k}.0; }}""")
        x = np.zeros(1, np.float32)
        k_(x, grid=1)
        assert x[0] == k
    assert len(st.algorithms) <= 10


def test_one_batch_may_use_more_programs_than_the_limit():
    old = cache_limits()
    set_cache_limits(programs=2)
    try:
        a = kd.asarray(np.arange(8, dtype=np.float32))
        outs = [kd.sin(a) + k if k % 2 else kd.cos(a) * k for k in range(6)]  # one submission, 6 kernels
        outs += [a.sum(), (a * a).max()]
        kd.realize(*outs)
        assert len(state(kd.device()).programs) <= 2
        x = np.arange(8, dtype=np.float32)
        np.testing.assert_allclose(outs[3].numpy(), np.sin(x) + 3, rtol=1e-6)
        assert float(outs[-1]) == 49.0
    finally:
        set_cache_limits(**old)


def test_cache_limits_are_checked():
    with pytest.raises(ValueError, match="programs must be an int >= 1"):
        set_cache_limits(programs=0)


def test_pooled_tensor_destroyed_in_a_cycle_is_not_reused():
    dev = kd.device()
    for _ in range(3):
        # A Buffer and its tensor dying in one reference cycle: the collector runs the Buffer's finaliser
        # (which pools the tensor) and then the tensor's own (which destroys it). The Buffer is made first so
        # that CPython finalises it first, as happens by chance when arrays die in cycles.
        buf = Buffer(None, 0, kd.float32, dev)
        buf.tensor, buf.size, buf.pool = allocate(dev, 1234, kd.float32), 1234, state(dev)
        cycle = [buf]
        cycle.append(cycle)
        del buf, cycle
        gc.collect()
        b = kd.asarray(np.full(1234, 3, np.float32)) + 1  # the next array of that size
        np.testing.assert_array_equal(b.numpy(), np.full(1234, 4, np.float32))


def test_device_lookup_is_cached():
    kd.device()
    t0 = time.perf_counter()
    for _ in range(100):
        kd.device()
        kd.Device(kd.device().index)
    assert (time.perf_counter() - t0) / 100 < 1e-3  # was ~0.3 s per call: two Vulkan instances each


def test_bad_kdsl_device_names_the_variable_and_the_devices():
    code = "import kdsl as kd; kd.device()"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "KDSL_DEVICE": "abc"})
    assert out.returncode != 0
    assert "ValueError: KDSL_DEVICE='abc' is not a device index; set it to one of ['0: " in out.stderr


def test_a_replayed_pass_with_many_same_sized_intermediates_reuses_its_recording():
    """Ten same-sized intermediates in one kd.jit pass: the pool hands the same tensors back in the same order
    (first in, first out, all of them kept), so from the second call on the recorded command buffer replays
    instead of every kernel being rebound and the batch recorded again."""
    w = kd.asarray(np.eye(8, dtype=np.float32) * 0.5)

    @kd.jit
    def chain(x):
        for _ in range(10):
            x = kd.matmul(x, w) + 1.0
        return x

    x = kd.asarray(np.ones((8, 8), np.float32))
    want = chain(x).numpy()
    before = kd.stats()["replays"]
    for _ in range(3):
        np.testing.assert_allclose(chain(x).numpy(), want)
    assert kd.stats()["replays"] - before >= 2


def test_a_full_pool_lets_go_of_stale_sizes_so_a_loop_still_replays(monkeypatch):
    """A pool filled to its limit by sizes no longer used (a long program's past) lets go of those, least
    recently used first, to take a running loop's buffers: the loop stops allocating and replays its recording.
    (Before, a full pool took nothing new, and the loop re-recorded at every step.)"""
    dev = kd.device()
    st = state(dev)
    monkeypatch.setattr(st, "pool", OrderedDict())  # (an empty pool: other tests' sizes would go first)
    monkeypatch.setattr(st, "pool_bytes", 0)
    monkeypatch.setattr(st, "pool_count", 0)
    stale = [kd.zeros(1000 + i) for i in range(200)]
    kd.realize(*stale)
    for i in range(len(stale)):
        stale[i] = None  # freed in this order: 1199 is the newest stale size
    monkeypatch.setattr(st, "pool_limit", st.pool_bytes + 10_000)  # full: room for no step's buffers
    stale_keys = {("float32", 1000 + i) for i in range(200)}
    assert stale_keys <= set(st.pool)
    x = kd.asarray(np.linspace(-1, 1, 5000, dtype=np.float32))

    @kd.jit
    def step(v):
        return kd.sqrt(kd.abs(v) + 1.0) * 2.0 - v

    want = np.sqrt(np.abs(x.numpy()) + 1.0) * 2.0 - x.numpy()
    for _ in range(3):
        step(x).numpy()
    before = kd.stats()["replays"]
    for _ in range(3):
        np.testing.assert_allclose(step(x).numpy(), want, rtol=1e-6)
    assert kd.stats()["replays"] - before >= 3
    assert st.pool_bytes <= st.pool_limit
    assert not stale_keys <= set(st.pool)  # the oldest sizes went first
    assert ("float32", 1199) in st.pool  # ... and only as many as needed: the newest stale size stays


def _out_of_memory(monkeypatch, fails: int) -> list[int]:
    """Make the device's next ``fails`` allocations raise VK_ERROR_OUT_OF_DEVICE_MEMORY; the list counts calls."""
    manager = kd.device().manager
    real, calls = manager.tensor_empty, []

    def tensor_empty(*args, **kwargs):
        calls.append(len(calls))
        if len(calls) <= fails:
            raise VulkanError("vkAllocateMemory", vulkan.VK_ERROR_OUT_OF_DEVICE_MEMORY)
        return real(*args, **kwargs)

    monkeypatch.setattr(manager, "tensor_empty", tensor_empty)
    return calls


def test_an_allocation_out_of_device_memory_frees_the_pool_and_tries_again(monkeypatch):
    """Like PyTorch's caching allocator: a device out of memory first gets back what kdsl keeps for reuse."""
    st = state(kd.device())
    kd.realize(kd.zeros(3001) + 1)  # its buffer goes to the pool
    pooled = [t for bucket in st.pool.values() for _, t in bucket]
    assert pooled and st.pool_bytes > 0
    calls = _out_of_memory(monkeypatch, 1)
    x = kd.asarray(np.arange(5003, dtype=np.float32)) * 2  # a size the pool does not have
    np.testing.assert_array_equal(x.numpy(), np.arange(5003, dtype=np.float32) * 2)
    assert len(calls) >= 2 and st.pool_bytes >= 0
    assert all(t._destroyed for t in pooled)  # their memory was freed, not just forgotten


def test_out_of_device_memory_twice_raises_the_clear_error(monkeypatch):
    _out_of_memory(monkeypatch, 2)
    with pytest.raises(VulkanError, match="out of memory: free tensors or allocate less"):
        (kd.zeros(7013) + 1).numpy()


def test_empty_cache_frees_every_pooled_buffer_and_loops_still_run():
    st = state(kd.device())
    kd.realize(kd.ones(2003) * 3)
    assert st.pool_bytes >= 2003 * 4
    assert kd.empty_cache() >= 2003 * 4
    assert st.pool_bytes == 0 and not st.pool and kd.empty_cache() == 0
    for _ in range(3):  # recorded batches whose buffers were freed rebind instead of replaying stale ones
        np.testing.assert_array_equal((kd.ones(2003) * 3).numpy(), np.full(2003, 3, np.float32))
        kd.empty_cache()


def test_plan_keys_follow_the_device_policy_and_module_constants(monkeypatch):
    """A plan key names the device's policy and scan_blocked's constants by a small id (kdsl.engine.plan):
    a change of either gives another key (a new plan), the same values the same key, and the ids stay bounded."""
    from kdsl.codegen import scan_blocked

    dev = kd.device()
    x = kd.asarray(np.arange(8, dtype=np.float32))
    key = plan_cache.signature([(x + 1)._node])[0]
    assert plan_cache.signature([(x + 2)._node])[0] == key
    monkeypatch.setattr(dev, "loop_budget", dev.loop_budget + 1)
    changed = plan_cache.signature([(x + 1)._node])[0]
    assert changed != key and changed[1:] == key[1:]
    monkeypatch.setattr(dev, "loop_budget", dev.loop_budget - 1)  # the same values again: the same id
    assert plan_cache.signature([(x + 1)._node])[0] == key
    monkeypatch.setattr(scan_blocked, "ROWS", scan_blocked.ROWS * 2)
    assert plan_cache.signature([(x + 1)._node])[0] != key
    monkeypatch.setattr(scan_blocked, "ROWS", scan_blocked.ROWS // 2)
    assert plan_cache.signature([(x + 1)._node])[0] == key
    np.testing.assert_array_equal((x * 3).numpy(), np.arange(8) * 3)  # and the engine runs on
    for rows in range(2 * plan_cache._DEVICE_IDS):  # many distinct parts: the table stays bounded
        monkeypatch.setattr(scan_blocked, "ROWS", 1000 + rows)
        plan_cache.signature([(x + 1)._node])
        assert len(plan_cache._device_ids) <= plan_cache._DEVICE_IDS
    monkeypatch.undo()
    np.testing.assert_array_equal((x + 1).numpy(), np.arange(8) + 1)
