"""Array multiplication on kdsl's runtime (Kompute's first example): out = a * b, checked against NumPy.

Run it with ``python examples/array_multiplication.py``; it prints ``[2.0, 4.0, 6.0]``.
"""

import numpy as np

import kdsl.kp as kp

SHADER = """
#version 450
layout (local_size_x = 1) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
layout(set = 0, binding = 1) buffer B { float b[]; };
layout(set = 0, binding = 2) buffer Out { float out_[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    out_[i] = a[i] * b[i];
}
"""


def multiply(mgr: kp.Manager, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a * b`` elementwise on the device (float32).

    Example:
        >>> multiply(kp.Manager(), np.array([2, 2, 2.]), np.array([1, 2, 3.])).tolist()
        [2.0, 4.0, 6.0]
    """
    tensor_a = mgr.tensor(a)
    tensor_b = mgr.tensor(b)
    tensor_out = mgr.tensor(np.zeros_like(a))
    params = [tensor_a, tensor_b, tensor_out]
    algo = mgr.algorithm(params, kp.compile_source(SHADER))  # workgroup (0,0,0): one invocation per element
    (mgr.sequence()
        .record(kp.OpSyncDevice([tensor_a, tensor_b]))
        .record(kp.OpAlgoDispatch(algo))
        .record(kp.OpSyncLocal([tensor_out]))
        .eval())
    return tensor_out.data().copy()


if __name__ == "__main__":
    manager = kp.Manager()
    result = multiply(manager, np.array([2, 2, 2], dtype=np.float32), np.array([1, 2, 3], dtype=np.float32))
    print(result.tolist())
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(1000).astype(np.float32), rng.standard_normal(1000).astype(np.float32)
    assert np.array_equal(multiply(manager, x, y), x * y), "device result differs from NumPy"
