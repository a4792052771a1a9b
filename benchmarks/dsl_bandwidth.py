"""The fused chain ``sin(a)*b + c*2 - sqrt(abs(a))`` against the device's copy bandwidth and PyTorch.

Measured in one run on one device: a hand-written vec4 copy shader through ``kdsl.kp`` (the bandwidth
ceiling), the chain through kdsl (plain code and ``kd.jit``), NumPy on the CPU, and when PyTorch with CUDA is
importable the same chain in PyTorch eager and ``torch.compile``. Bandwidth counts bytes moved: 2 x 4 N for
the copy, 4 x 4 N for the chain (three reads, one write). Inputs are drawn on the device.

Targets on a GPU: the chain reaches >= 90% of the copy bandwidth, and matches or beats ``torch.compile``.
Run: python benchmarks/dsl_bandwidth.py [--log2n 28] [--repeat 20]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from dsl_common import best_ms, table, torch_module

import kdsl as kd
import kdsl.kp as kp

COPY = """#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Src { vec4 src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { vec4 dst[]; };
layout(push_constant) uniform P { uint n4; uint stride; };
void main() {
    for (uint i = gl_GlobalInvocationID.x; i < n4; i += stride) { dst[i] = src[i]; }
}
"""


def chain(a, b, c):
    return kd.sin(a) * b + c * 2 - kd.sqrt(kd.abs(a))


def copy_loop(n: int):
    """A pre-recorded vec4 copy of ``n`` floats, as a closure running it once."""
    mgr = kd.device().manager
    src, dst = mgr.tensor_empty(n, np.float32), mgr.tensor_empty(n, np.float32)
    groups = min(-(-n // 4 // 256), 65535)
    push = np.array([n // 4, groups * 256], np.uint32)
    algo = mgr.algorithm([src, dst], kp.compile_source(COPY), workgroup=(groups, 1, 1), push_consts=push)
    return mgr.sequence().record(kp.OpAlgoDispatch(algo)).eval


def warm_up(fn, seconds: float) -> None:
    """GPU clocks idle low and ramp up under load: run ``fn`` for ``seconds`` before timing."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        fn()


def main(log2n: int, repeat: int, warm: float) -> None:
    n = 1 << log2n
    kd.random.seed(0)
    a, b, c = (kd.random.uniform(-1, 1, size=n) for _ in range(3))
    kd.realize(a, b, c)
    jitted = kd.jit(chain)
    runs = {"copy (hand-written vec4, kdsl.kp)": (copy_loop(n), 2),
            "chain, kdsl": (lambda: kd.realize(chain(a, b, c)), 4),
            "chain, kdsl kd.jit": (lambda: kd.realize(jitted(a, b, c)), 4)}
    torch = torch_module()
    if torch is not None and torch.cuda.is_available():
        ta, tb, tc = (torch.rand(n, device="cuda") * 2 - 1 for _ in range(3))

        def torch_chain(x, y, z):
            return torch.sin(x) * y + z * 2 - torch.sqrt(torch.abs(x))

        compiled = torch.compile(torch_chain)

        def synced(fn):
            def run():
                fn(ta, tb, tc)
                torch.cuda.synchronize()
            return run

        runs["chain, PyTorch eager"] = (synced(torch_chain), 4)
        runs["chain, torch.compile"] = (synced(compiled), 4)
    for fn, _ in runs.values():
        warm_up(fn, warm)
    times = {name: best_ms(fn, repeat) for name, (fn, _) in runs.items()}
    rng = np.random.default_rng(0)
    x, y, z = (rng.uniform(-1, 1, n).astype(np.float32) for _ in range(3))
    runs["chain, NumPy (CPU)"] = (None, 4)
    times["chain, NumPy (CPU)"] = best_ms(lambda: np.sin(x) * y + z * 2 - np.sqrt(np.abs(x)), min(repeat, 3))
    copy_gbs = 2 * 4 * n / times["copy (hand-written vec4, kdsl.kp)"] / 1e6
    rows = []
    for name, (_, arrays) in runs.items():
        gbs = arrays * 4 * n / times[name] / 1e6
        rows.append([name, times[name], gbs, gbs / copy_gbs])
    print(f"device: {kd.device().manager.get_device_properties()['device_name']}; N = 2^{log2n} float32; "
          f"best of {repeat} after {warm:.1f} s warm-up per row")
    table("chain bandwidth vs copy", ["implementation", "ms", "GB/s", "of copy GB/s"], rows)
    if "chain, torch.compile" in times:
        best_kdsl = min(times["chain, kdsl"], times["chain, kdsl kd.jit"])
        print(f"kdsl chain time / torch.compile time: {best_kdsl / times['chain, torch.compile']:.2f}x "
              "(<= 1.00 means kdsl matches or beats it)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log2n", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--warm", type=float, default=1.0)
    args = parser.parse_args()
    main(args.log2n, args.repeat, args.warm)
