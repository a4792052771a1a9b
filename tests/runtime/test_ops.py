"""The operations: OpSyncDevice, OpSyncLocal, OpCopy, OpAlgoDispatch, OpMult, OpMemoryBarrier."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import vulkan as vk
from rt_glsl import ADD_PUSH, INCREMENT, MULTIPLY, spirv

import kdsl.kp as kp


def test_sync_device_then_local_round_trip_several_tensors(mgr):
    arrays = [np.arange(5, dtype=np.float32), np.arange(3, dtype=np.int32) - 1, np.array([7], np.uint32)]
    tensors = [mgr.tensor_t(a.copy()) for a in arrays]
    mgr.sequence().eval(kp.OpSyncDevice(tensors))
    for t in tensors:
        t.data()[:] = 0
    mgr.sequence().eval(kp.OpSyncLocal(tensors))
    for t, a in zip(tensors, arrays, strict=True):
        np.testing.assert_array_equal(t.data(), a)


@pytest.mark.parametrize("memory", ["host", "deviceAndHost"])
def test_syncs_on_host_visible_memory_keep_data(mgr, memory):
    a = np.arange(6, dtype=np.float32)
    t = mgr.tensor_t(a.copy(), getattr(kp.MemoryTypes, memory))
    mgr.sequence().record(kp.OpSyncDevice([t])).record(kp.OpSyncLocal([t])).eval()
    np.testing.assert_array_equal(t.data(), a)


def test_host_memory_is_seen_by_the_gpu_without_sync(mgr):
    """Host memory is one coherent buffer: a kernel sees host writes and the host sees kernel writes."""
    t = mgr.tensor_t(np.zeros(3, np.float32), kp.MemoryTypes.host)
    algo = mgr.algorithm([t], spirv(ADD_PUSH), push_consts=np.array([2], np.float32))
    t.data()[:] = [1, 2, 3]
    mgr.sequence().eval(kp.OpAlgoDispatch(algo))
    np.testing.assert_array_equal(t.data(), [3, 4, 5])


@pytest.mark.parametrize("memory", ["device", "host", "deviceAndHost"])
def test_copy_to_several_tensors(mgr, memory):
    kind = getattr(kp.MemoryTypes, memory)
    a = np.arange(8, dtype=np.int32) * 3
    src = mgr.tensor_t(a.copy(), kind)
    dsts = [mgr.tensor_t(np.zeros(8, np.int32), kind) for _ in range(2)]
    mgr.sequence().eval(kp.OpSyncDevice([src] + dsts))
    mgr.sequence().eval(kp.OpCopy([src] + dsts))
    for d in dsts:
        np.testing.assert_array_equal(d.data(), a)  # host copies are made at once
        if memory == "device":
            d.data()[:] = -1  # only the staging copy: the device copy must come back below
    mgr.sequence().eval(kp.OpSyncLocal(dsts))
    for d in dsts:
        np.testing.assert_array_equal(d.data(), a)  # and the device copies too


def test_copy_between_memory_types(mgr):
    a = np.linspace(0, 1, 9, dtype=np.float32)
    chain = [mgr.tensor_t(a.copy()), mgr.tensor_empty(9, np.float32), mgr.tensor_t(np.zeros(9, np.float32),
                                                                                   kp.MemoryTypes.deviceAndHost),
             mgr.tensor_t(np.zeros(9, np.float32), kp.MemoryTypes.host)]
    seq = mgr.sequence().record(kp.OpSyncDevice([chain[0]]))
    for src, dst in itertools.pairwise(chain):
        seq.record(kp.OpCopy([src, dst]))
    seq.eval()
    np.testing.assert_array_equal(chain[-1].data(), a)


def test_copy_size_mismatch_raises_when_recorded(mgr):
    a, b = mgr.tensor_t(np.zeros(3, np.float32)), mgr.tensor_t(np.zeros(4, np.float32))
    with pytest.raises(RuntimeError):
        mgr.sequence().record(kp.OpCopy([a, b]))


def test_copy_dtype_mismatch_raises_when_recorded(mgr):
    a, b = mgr.tensor_t(np.zeros(3, np.float32)), mgr.tensor_t(np.zeros(3, np.int32))
    with pytest.raises(RuntimeError):
        mgr.sequence().record(kp.OpCopy([a, b]))


@pytest.mark.parametrize("op, count", [(kp.OpSyncDevice, 0), (kp.OpSyncLocal, 0), (kp.OpCopy, 1)])
def test_too_few_tensors_raise(mgr, op, count):
    tensors = [mgr.tensor_t(np.zeros(2, np.float32)) for _ in range(count)]
    with pytest.raises(RuntimeError):
        mgr.sequence().record(op(tensors))


def test_algo_dispatch_with_push_constants(mgr):
    t = mgr.tensor_t(np.zeros(4, np.float32))
    algo = mgr.algorithm([t], spirv(ADD_PUSH), push_consts=np.array([0], np.float32))
    (mgr.sequence().record(kp.OpSyncDevice([t])).record(kp.OpAlgoDispatch(algo, np.array([1.5], np.float32)))
     .record(kp.OpAlgoDispatch(algo, np.array([2], np.float32))).record(kp.OpSyncLocal([t])).eval())
    np.testing.assert_array_equal(t.data(), [3.5] * 4)


def test_algo_dispatch_push_size_mismatch_raises_when_recorded(mgr):
    t = mgr.tensor_t(np.zeros(4, np.float32))
    algo = mgr.algorithm([t], spirv(ADD_PUSH), push_consts=np.array([0], np.float32))
    with pytest.raises(RuntimeError, match="12.*4|4.*12"):
        mgr.sequence().record(kp.OpAlgoDispatch(algo, np.array([1, 2, 3], np.float32)))


ADD3 = MULTIPLY.replace("c[i] = a[i] * b[i]", "c[i] = a[i] + b[i]")


def test_op_mult(mgr):
    """OpMult replaces the algorithm's shader (here an addition) with its built-in multiplication."""
    a, b = np.array([2, 4, 6], np.float32), np.array([1, 0.5, -3], np.float32)
    ta, tb, tout = mgr.tensor_t(a), mgr.tensor_t(b), mgr.tensor_t(np.zeros(3, np.float32))
    algo = mgr.algorithm([ta, tb, tout], spirv(ADD3))
    (mgr.sequence().record(kp.OpSyncDevice([ta, tb])).record(kp.OpMult([ta, tb, tout], algo))
     .record(kp.OpSyncLocal([tout])).eval())
    np.testing.assert_array_equal(tout.data(), a * b)


def test_op_mult_needs_three_tensors(mgr):
    ts = [mgr.tensor_t(np.zeros(3, np.float32)) for _ in range(3)]
    algo = mgr.algorithm(ts, spirv(ADD3))
    with pytest.raises(RuntimeError):
        mgr.sequence().record(kp.OpMult(ts[:2], algo))
    with pytest.raises(RuntimeError):
        mgr.sequence().record(kp.OpMult(ts + ts[:1], algo))


def test_memory_barrier_between_dispatches(mgr):
    """c = a * b, explicit barrier, then c += 1 twice: the chain sees every earlier write."""
    a, b = np.arange(6, dtype=np.float32), np.full(6, 2, np.float32)
    ta, tb, tc = mgr.tensor_t(a), mgr.tensor_t(b), mgr.tensor_t(np.zeros(6, np.float32))
    mult = mgr.algorithm([ta, tb, tc], spirv(MULTIPLY))
    add = mgr.algorithm([tc], spirv(ADD_PUSH), push_consts=np.array([1], np.float32))
    barrier = kp.OpMemoryBarrier([tc], vk.VK_ACCESS_SHADER_WRITE_BIT, vk.VK_ACCESS_SHADER_READ_BIT,
                                 vk.VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, vk.VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT)
    (mgr.sequence().record(kp.OpSyncDevice([ta, tb])).record(kp.OpAlgoDispatch(mult)).record(barrier)
     .record(kp.OpAlgoDispatch(add)).record(barrier).record(kp.OpAlgoDispatch(add))
     .record(kp.OpSyncLocal([tc])).eval())
    np.testing.assert_array_equal(tc.data(), a * b + 2)


def test_memory_barrier_on_secondary_flag(mgr):
    t = mgr.tensor_t(np.zeros(2, np.uint32))
    inc = mgr.algorithm([t], spirv(INCREMENT))
    barrier = kp.OpMemoryBarrier([t], vk.VK_ACCESS_SHADER_WRITE_BIT, vk.VK_ACCESS_TRANSFER_READ_BIT,
                                 vk.VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, vk.VK_PIPELINE_STAGE_TRANSFER_BIT, False)
    (mgr.sequence().record(kp.OpSyncDevice([t])).record(kp.OpAlgoDispatch(inc)).record(barrier)
     .record(kp.OpSyncLocal([t])).eval())
    np.testing.assert_array_equal(t.data(), [1, 1])


def test_ops_are_op_base(mgr):
    t, u = mgr.tensor_t(np.zeros(2, np.float32)), mgr.tensor_t(np.zeros(2, np.float32))
    algo = mgr.algorithm([t], spirv(ADD_PUSH), push_consts=[0.0])
    for op in (kp.OpSyncDevice([t]), kp.OpSyncLocal([t]), kp.OpCopy([t, u]), kp.OpAlgoDispatch(algo)):
        assert isinstance(op, kp.OpBase)
