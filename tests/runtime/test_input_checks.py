"""Bad input that used to be accepted or silently wrong: each gets a clear error naming the problem.

Also: devices are enumerated once per process (``kd.device()`` built two VkInstances per call).
"""

from __future__ import annotations

import numpy as np
import pytest

import kdsl.kp as kp
from kdsl.runtime import instance

_FLOAT_BUFFER = """#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Values { float v[]; };
void main() { v[gl_GlobalInvocationID.x] += 1.0; }"""

_DOUBLE_BUFFER = _FLOAT_BUFFER.replace("float v[]", "double v[]")
_UINT_BUFFER = _FLOAT_BUFFER.replace("float v[]", "uint v[]").replace("+= 1.0", "+= 1u")
_INT_BUFFER = _FLOAT_BUFFER.replace("float v[]", "int v[]").replace("+= 1.0", "+= 1")


def test_tensor_of_none_is_a_type_error(mgr):
    with pytest.raises(TypeError, match="tensor data must be numbers, got None"):
        mgr.tensor(None)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_integer_tensor_bound_to_a_float_buffer(mgr, features, dtype):
    if np.dtype(dtype).itemsize == 8 and not {"float64", "int64"} <= features:
        pytest.skip("needs float64 and int64")
    t = mgr.tensor_t(np.array([1, 2], dtype))
    source = _FLOAT_BUFFER if np.dtype(dtype).itemsize == 4 else _DOUBLE_BUFFER
    width = 8 * np.dtype(dtype).itemsize
    with pytest.raises(TypeError, match=rf"binding 0 \(Values\) of the shader is a buffer of float{width} but the "
                                        rf"tensor bound to it holds {np.dtype(dtype)}"):
        mgr.algorithm([t], kp.compile_source(source))
    floats = mgr.tensor_t(np.array([1.0, 2.0], f"float{width}"))
    algo = mgr.algorithm([floats], kp.compile_source(source))
    with pytest.raises(TypeError, match="holds " + str(np.dtype(dtype))):
        algo.update_bindings([t])
    algo.destroy()


def test_float_tensor_bound_to_an_int_buffer(mgr):
    with pytest.raises(TypeError, match="buffer of int32 but the tensor bound to it holds float32"):
        mgr.algorithm([mgr.tensor([1.0])], kp.compile_source(_INT_BUFFER))


def test_raw_bits_and_other_widths_are_allowed(mgr):
    """A shader may read any data as uint words (bit tricks, packing), uint words as anything (a placeholder
    tensor on an unused binding), and data of another width."""
    floats = mgr.tensor_t(np.array([1.0, -2.0], np.float32))
    mgr.algorithm([floats], kp.compile_source(_UINT_BUFFER)).destroy()
    ints = mgr.tensor_t(np.array([1, 2], np.int32))
    mgr.algorithm([ints], kp.compile_source(_UINT_BUFFER)).destroy()
    words = mgr.tensor_t(np.array([1, 2], np.uint32))
    mgr.algorithm([words], kp.compile_source(_FLOAT_BUFFER)).destroy()
    doubles = mgr.tensor_t(np.zeros(2, np.float64))  # read as pairs of 32-bit words
    mgr.algorithm([doubles], kp.compile_source(_INT_BUFFER)).destroy()


def test_spec_constants_beyond_those_declared(mgr):
    spirv = kp.compile_source("""#version 450
layout(local_size_x = 1) in;
layout(constant_id = 0) const float A = 1.0;
layout(constant_id = 1) const float B = 2.0;
layout(set = 0, binding = 0) buffer X { float x[]; };
void main() { x[0] = A + B; }""")
    t = mgr.tensor([0.0])
    with pytest.raises(RuntimeError, match=r"3 specialization constant\(s\) given \(ids 0-2\) but the shader "
                                           r"declares constant_id 0 \(A: float32\), 1 \(B: float32\)"):
        mgr.algorithm([t], spirv, spec_consts=[1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="but the shader declares constant_id none"):
        mgr.algorithm([t], kp.compile_source(_FLOAT_BUFFER), spec_consts=[1.0])
    with pytest.raises(RuntimeError, match=r"constant 0 \(A\) is a float32 but the values given are float64"):
        mgr.algorithm([t], spirv, spec_consts=np.array([1.0, 2.0]))
    algo = mgr.algorithm([t], spirv, spec_consts=[5.0, 6.0])
    mgr.sequence().record(kp.OpAlgoDispatch(algo)).record(kp.OpSyncLocal([t])).eval()
    assert t.data()[0] == 11.0


def test_devices_are_enumerated_once(monkeypatch):
    made = []
    real = instance.Instance

    class Counting(real):
        def __init__(self):
            made.append(1)
            super().__init__()

    monkeypatch.setattr(instance, "Instance", Counting)
    first = kp.list_devices()
    for _ in range(3):
        assert kp.list_devices() == first
    assert len(made) <= 1
    first[0]["device_name"] = "changed"  # callers get copies
    assert kp.list_devices()[0]["device_name"] != "changed"
