"""kdsl.kp misuse that tests/runtime/test_errors.py leaves: each a clear Python exception naming the object and
the fix (no Vulkan error, no validation message, no crash), and Kompute's workgroup default where a count is 0."""

from __future__ import annotations

import numpy as np
import pytest
from rt_glsl import ADD_PUSH, spirv

import kdsl.kp as kp


@pytest.fixture
def t(mgr):
    return mgr.tensor_t(np.zeros(4, np.float32))


def _run(mgr, algo, t):
    mgr.sequence().record(kp.OpSyncDevice([t])).record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([t])).eval()
    return t.data()


def test_algorithm_destroyed_after_recording_refuses_eval(mgr, t):
    algo = mgr.algorithm([t], spirv(ADD_PUSH), workgroup=(4, 1, 1), push_consts=[1.0])
    seq = mgr.sequence().record(kp.OpAlgoDispatch(algo))
    algo.destroy()
    with pytest.raises(RuntimeError, match="was destroyed; record the operations again"):
        seq.eval()


def test_recording_after_a_recorded_tensor_was_destroyed_is_refused(mgr, t):
    """Vulkan makes the open command buffer invalid when a buffer it uses is destroyed: recording more into it
    was a validation error (vkCmdPipelineBarrier on an invalid buffer); now a RuntimeError, and clear() lets the
    sequence record again."""
    algo = mgr.algorithm([t], spirv(ADD_PUSH), workgroup=(4, 1, 1), push_consts=[1.0])
    seq = mgr.sequence().record(kp.OpAlgoDispatch(algo))
    t.destroy()
    other = mgr.tensor_t(np.full(4, 3.0, np.float32))
    with pytest.raises(RuntimeError, match="cannot record: .* was destroyed; clear"):
        seq.record(kp.OpSyncLocal([other]))
    with pytest.raises(RuntimeError, match="was destroyed"):
        seq.eval()
    seq.clear()
    seq.record(kp.OpSyncDevice([other])).record(kp.OpSyncLocal([other])).eval()
    np.testing.assert_array_equal(other.data(), [3.0] * 4)


def test_recording_goes_on_when_an_unrelated_object_is_destroyed(mgr, t):
    seq = mgr.sequence().record(kp.OpSyncDevice([t]))
    mgr.tensor_t(np.zeros(2, np.float32)).destroy()
    seq.record(kp.OpSyncLocal([t])).eval()
    np.testing.assert_array_equal(t.data(), [0.0] * 4)


def test_algorithm_of_another_manager_is_refused_by_the_sequence(mgr, t):
    other = kp.Manager()
    try:
        algo = other.algorithm([other.tensor_t(np.zeros(4, np.float32))], spirv(ADD_PUSH), workgroup=(4, 1, 1),
                               push_consts=[1.0])
        with pytest.raises(RuntimeError, match="belongs to another Manager"):
            mgr.sequence().record(kp.OpAlgoDispatch(algo))
    finally:
        other.destroy()


def test_record_takes_operations_only(mgr):
    with pytest.raises(TypeError, match=r"Sequence.record takes a kp operation .*not str"):
        mgr.sequence().record("OpSyncDevice")


def test_push_constants_of_the_wrong_size_at_dispatch(mgr, t):
    algo = mgr.algorithm([t], spirv(ADD_PUSH), workgroup=(4, 1, 1), push_consts=[1.0])
    with pytest.raises(RuntimeError, match="push constant total memory size provided is 8 but expected 4"):
        mgr.sequence().record(kp.OpAlgoDispatch(algo, push_consts=[1.0, 2.0])).eval()


@pytest.mark.parametrize("blob", [b"not spirv at all", b"\x03\x02\x23\x07" + b"\x00" * 15])
def test_bytes_that_are_not_spirv(mgr, t, blob):
    with pytest.raises(RuntimeError, match="invalid SPIR-V"):
        mgr.algorithm([t], blob, workgroup=(4, 1, 1), push_consts=[1.0])


def test_tensor_of_objects_is_a_type_error(mgr):
    with pytest.raises(TypeError, match="tensor data must be numbers"):
        mgr.tensor(np.array([object()]))


@pytest.mark.parametrize("workgroup", [(0, 1, 1), None])
def test_workgroup_x_of_0_takes_the_first_tensors_size(mgr, t, workgroup):
    """Kompute's rule (docs/runtime.md): no x count means one invocation per element of the first tensor."""
    algo = mgr.algorithm([t], spirv(ADD_PUSH), workgroup=workgroup, push_consts=[2.0])
    assert algo.get_workgroup() == (4, 1, 1)
    np.testing.assert_array_equal(_run(mgr, algo, t), [2.0] * 4)
