"""The elementwise chain ``sin(a)*b + c*2 - sqrt(abs(a))``: kdsl (one fused kernel; plain, and through
``kd.jit`` which skips rebuilding the graph) against NumPy, PyTorch (when importable) and a hand-written GLSL
shader for the same chain run through ``kdsl.kp`` in this process.

Target: kdsl within 1.2x of the hand-written shader. Run: python benchmarks/dsl_chain.py [--sizes 1e6,16e6]
"""

from __future__ import annotations

import argparse

import numpy as np
from dsl_common import best_ms, table, torch_device, torch_module, torch_sync

import kdsl as kd
import kdsl.kp as kp
from kdsl.runtime.compiler import compile_source

HAND_WRITTEN = """#version 450
layout(local_size_x = 256) in;
layout(std430, binding = 0) buffer Out { float y[]; };
layout(std430, binding = 1) readonly buffer A { float a[]; };
layout(std430, binding = 2) readonly buffer B { float b[]; };
layout(std430, binding = 3) readonly buffer C { float c[]; };
layout(push_constant) uniform P { uint n; uint stride; } p;
void main() {
    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += p.stride) {
        float x = a[i];
        y[i] = sin(x) * b[i] + c[i] * 2.0 - sqrt(abs(x));
    }
}
"""


def hand_written(arrays, n: int):
    """A timed closure dispatching the hand-written shader on the same buffers."""
    mgr = kd.device().manager
    out = mgr.tensor_empty(n, np.float32)
    groups = min(-(-n // 256), kd.device().max_groups)
    push = np.array([n, groups * 256], np.uint32)
    algo = mgr.algorithm([out] + [x._buffer() for x in arrays], compile_source(HAND_WRITTEN),
                         workgroup=(groups, 1, 1), push_consts=push)
    seq = mgr.sequence()
    seq.record(kp.OpAlgoDispatch(algo, push))
    return seq.eval


def measure(n: int, torch) -> list:
    """One table row: the chain on ``n`` floats with every implementation."""
    rng = np.random.default_rng(0)
    host = [rng.uniform(-1, 1, n).astype(np.float32) for _ in range(3)]
    a, b, c = (kd.asarray(h) for h in host)

    def run_kdsl():
        kd.realize(kd.sin(a) * b + c * 2 - kd.sqrt(kd.abs(a)))

    @kd.jit
    def chain(a, b, c):
        return kd.sin(a) * b + c * 2 - kd.sqrt(kd.abs(a))

    def run_numpy():
        x, y, z = host
        return np.sin(x) * y + z * 2 - np.sqrt(np.abs(x))

    reps = 5 if n <= 4_000_000 else 3
    t_kd = best_ms(run_kdsl, reps)
    t_jit = best_ms(lambda: chain(a, b, c), reps)
    t_hand = best_ms(hand_written([a, b, c], n), reps)
    t_np = best_ms(run_numpy, reps)
    row = [f"{n:.0e}", t_np, t_kd, t_jit, t_hand, t_kd / t_hand, t_jit / t_hand, t_np / t_kd]
    if torch is not None:
        dev = torch_device(torch)
        ta, tb, tc = (torch.from_numpy(h).to(dev) for h in host)

        def run_torch():
            r = torch.sin(ta) * tb + tc * 2 - torch.sqrt(torch.abs(ta))
            torch_sync(torch)
            return r
        row.append(best_ms(run_torch, reps))
    y = (kd.sin(a) * b + c * 2 - kd.sqrt(kd.abs(a))).numpy()
    np.testing.assert_allclose(y, run_numpy(), rtol=1e-4, atol=1e-5)
    return row


def main(sizes: list[int]) -> None:
    torch = torch_module()
    rows = [measure(n, torch) for n in sizes]
    header = ["n", "numpy ms", "kdsl ms", "kd.jit ms", "hand GLSL ms", "kdsl/hand", "jit/hand", "numpy/kdsl"]
    table("sin(a)*b + c*2 - sqrt(abs(a))", header + (["torch ms"] if torch is not None else []), rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1e6,16e6")
    args = parser.parse_args()
    main([int(float(s)) for s in args.sizes.split(",")])
