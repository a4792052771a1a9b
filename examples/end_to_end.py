"""Kompute's README example on kdsl's runtime: only the import changes.

Two float inputs, two uint outputs, a spec constant (2) and a push constant (2.0, then 3.0 as an override).
Run it with ``python examples/end_to_end.py``; it prints::

    out_a = [4, 8, 12]
    out_b = [10, 10, 10]
"""

import numpy as np

import kdsl.kp as kp

SHADER = """
#version 450
layout (local_size_x = 1) in;

// The input tensors bind index is relative to index in parameter passed
layout(set = 0, binding = 0) buffer buf_in_a { float in_a[]; };
layout(set = 0, binding = 1) buffer buf_in_b { float in_b[]; };
layout(set = 0, binding = 2) buffer buf_out_a { uint out_a[]; };
layout(set = 0, binding = 3) buffer buf_out_b { uint out_b[]; };

// Kompute supports push constants updated on dispatch
layout(push_constant) uniform PushConstants { float val; } push_const;

// Kompute also supports spec constants on initialization
layout(constant_id = 0) const uint const_one = 0;

void main() {
    uint index = gl_GlobalInvocationID.x;
    out_a[index] += uint(in_a[index] * in_b[index]);
    out_b[index] += uint(const_one * push_const.val);
}
"""


def main() -> tuple[np.ndarray, np.ndarray]:
    """Run the example; return (out_a, out_b) as read back from the device."""
    mgr = kp.Manager()

    tensor_in_a = mgr.tensor_t(np.array([2, 2, 2], dtype=np.float32))
    tensor_in_b = mgr.tensor_t(np.array([1, 2, 3], dtype=np.float32))
    tensor_out_a = mgr.tensor_t(np.array([0, 0, 0], dtype=np.uint32))
    tensor_out_b = mgr.tensor_t(np.array([0, 0, 0], dtype=np.uint32))
    params = [tensor_in_a, tensor_in_b, tensor_out_a, tensor_out_b]

    spirv = kp.compile_source(SHADER)
    algo = mgr.algorithm(params, spirv, workgroup=(3, 1, 1),
                         spec_consts=np.array([2], dtype=np.uint32),
                         push_consts=np.array([2.0], dtype=np.float32))

    # Upload, then dispatch with the algorithm's push constant (2.0): out_a += a*b, out_b += 2*2.
    (mgr.sequence()
        .record(kp.OpSyncDevice(params))
        .record(kp.OpAlgoDispatch(algo))
        .eval())

    # Dispatch again with a push constant override (3.0): out_a += a*b, out_b += 2*3.
    push_consts_b = np.array([3.0], dtype=np.float32)
    mgr.sequence().record(kp.OpAlgoDispatch(algo, push_consts_b)).eval()

    # Read back asynchronously.
    sq = mgr.sequence()
    sq.eval_async(kp.OpSyncLocal(params))
    sq.eval_await()

    return tensor_out_a.data().copy(), tensor_out_b.data().copy()


if __name__ == "__main__":
    out_a, out_b = main()
    print("out_a =", out_a.tolist())
    print("out_b =", out_b.tolist())
