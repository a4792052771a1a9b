"""kd.raw_kernel: hand-written GLSL with bindings, push and spec constants found by reflection."""

import numpy as np
import pytest

from kdsl.frontend.kernels.raw import raw_kernel

SCALE = """
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float a; uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""


def test_bindings_and_push_constants_from_reflection():
    k = raw_kernel(SCALE)
    assert k.signature() == "(X: float32[], Y: float32[], a: float32, n: uint32)"
    x, y = np.arange(50, dtype=np.float32), np.ones(50, np.float32)
    k(x, y, 2.0, 50, grid=50)
    np.testing.assert_allclose(y, 2 * x + 1)
    k(x, y, 1.0, 10, groups=1)
    np.testing.assert_allclose(y[:10], 3 * x[:10] + 1)
    np.testing.assert_allclose(y[10:], 2 * x[10:] + 1)


def test_readonly_numpy_inputs_are_not_copied_back():
    k = raw_kernel(SCALE)
    x = np.arange(4, dtype=np.float32)
    x.setflags(write=False)  # a copy back would fail loudly
    k(x, np.zeros(4, np.float32), 1.0, 4, grid=4)


SPEC = """
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float K = 1.0;
layout(constant_id = 2) const int OFFSET = 0;
layout(set = 0, binding = 0) buffer Y { float y[]; };
void main() { y[gl_GlobalInvocationID.x] = K * float(gl_GlobalInvocationID.x) + float(OFFSET); }
"""


def test_spec_constants_by_name_and_local_size_id():
    k = raw_kernel(SPEC)
    y = np.zeros(16, np.float32)
    k(y, grid=16, spec={"K": 3.0, "OFFSET": 5, 0: 4})
    np.testing.assert_allclose(y, 3 * np.arange(16) + 5)
    y[:] = 0
    k(y, grid=16)  # defaults: local size 1, K = 1, OFFSET = 0
    np.testing.assert_allclose(y, np.arange(16))


def test_wrong_calls_raise_clearly():
    k = raw_kernel(SCALE)
    x = np.zeros(4, np.float32)
    with pytest.raises(TypeError, match=r"takes 2 array\(s\) then 2 push constant\(s\)"):
        k(x, x, 1.0, grid=4)
    with pytest.raises(TypeError, match="holds float32 but the array is int32"):
        k(x, np.zeros(4, np.int32), 1.0, 4, grid=4)
    with pytest.raises(TypeError, match="exactly one of grid="):
        k(x, x, 1.0, 4)
    with pytest.raises(KeyError, match="no specialization constant 'Q'"):
        raw_kernel(SPEC)(x, grid=4, spec={"Q": 1})


def test_non_buffer_bindings_rejected():
    src = """
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform U { float u; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
void main() { y[0] = u; }
"""
    with pytest.raises(ValueError, match="uniform_buffer"):
        raw_kernel(src)
