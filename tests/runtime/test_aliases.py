"""Kompute's current names and its release 0.9.0 names, kept as aliases, behave the same."""

from __future__ import annotations

import numpy as np
import pytest
from rt_glsl import MULTIPLY, spirv

import kdsl.kp as kp

NAMES = ["Manager", "Memory", "Tensor", "Image", "Algorithm", "Sequence", "OpBase", "OpSyncDevice", "OpSyncLocal",
         "OpCopy", "OpAlgoDispatch", "OpMult", "OpMemoryBarrier", "MemoryTypes", "DataTypes"]


@pytest.mark.parametrize("name", NAMES)
def test_current_names_exist(name):
    assert hasattr(kp, name)


@pytest.mark.parametrize("alias, name", [("OpTensorSyncDevice", "OpSyncDevice"), ("OpTensorSyncLocal", "OpSyncLocal"),
                                         ("OpTensorCopy", "OpCopy"), ("TensorTypes", "MemoryTypes")])
def test_release_0_9_aliases_are_the_same_objects(alias, name):
    assert getattr(kp, alias) is getattr(kp, name)


def test_memory_type_values():
    assert [int(kp.MemoryTypes.device), int(kp.MemoryTypes.host), int(kp.MemoryTypes.storage),
            int(kp.MemoryTypes.deviceAndHost)] == [0, 1, 2, 3]
    assert (kp.device, kp.host, kp.storage, kp.deviceAndHost) == (
        kp.MemoryTypes.device, kp.MemoryTypes.host, kp.MemoryTypes.storage, kp.MemoryTypes.deviceAndHost)


def test_data_type_values():
    expected = {"bool": 0, "int": 1, "uint": 2, "float": 3, "double": 4, "custom": 5, "short": 6, "ushort": 7,
                "char": 8, "uchar": 9}
    for name, value in expected.items():
        assert int(getattr(kp.DataTypes, name)) == value
        assert getattr(kp, name) == getattr(kp.DataTypes, name)


def test_tensor_type_keyword_and_method(mgr):
    t = mgr.tensor_t(np.ones(3, np.float32), tensor_type=kp.TensorTypes.host)
    assert t.memory_type() == kp.MemoryTypes.host
    assert t.tensor_type() == t.memory_type()
    u = mgr.tensor([1, 2], tensor_type=kp.TensorTypes.deviceAndHost)
    assert u.tensor_type() == kp.MemoryTypes.deviceAndHost


def test_tensors_are_memory(mgr):
    t = mgr.tensor([1, 2, 3])
    assert isinstance(t, kp.Tensor) and isinstance(t, kp.Memory)


def test_get_tensors_is_get_mem_objects(mgr):
    ts = [mgr.tensor_t(np.ones(2, np.float32)) for _ in range(3)]
    algo = mgr.algorithm(ts, spirv(MULTIPLY))
    assert list(algo.get_tensors()) == list(algo.get_mem_objects()) == ts


def test_0_9_program_runs_with_old_names(mgr):
    """Kompute 0.9.0's array multiplication, written with the old names."""
    a, b = mgr.tensor([2, 2, 2]), mgr.tensor([1, 2, 3])
    out = mgr.tensor([0, 0, 0])
    algo = mgr.algorithm([a, b, out], spirv(MULTIPLY))
    (mgr.sequence().record(kp.OpTensorSyncDevice([a, b])).record(kp.OpAlgoDispatch(algo))
     .record(kp.OpTensorSyncLocal([out])).eval())
    copy = mgr.tensor([0, 0, 0])
    mgr.sequence().eval(kp.OpTensorCopy([out, copy]))
    np.testing.assert_array_equal(copy.data(), [2, 4, 6])
