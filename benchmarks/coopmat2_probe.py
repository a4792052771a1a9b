"""Workgroup-scope cooperative matrices (``VK_NV_cooperative_matrix2``) for a float16 matmul: an experiment.

kdsl's coopmat kernel uses subgroup-scope fragments (``VK_KHR_cooperative_matrix``). NVIDIA's
``VK_NV_cooperative_matrix2`` also allows matrices owned by a whole workgroup, which the driver stages through
shared memory itself. This probe asks the device whether it offers them (the ``vulkan`` package predates the
extension, so its feature and property structs are built by hand here), then times a plain kernel over square
float16 products with a few workgroup tile shapes: each ``BK`` slice of A and B loaded straight from global
memory with ``coopMatLoad``, one ``coopMatMulAdd`` of whole-tile matrices, the result stored as float32. Each
result is checked against NumPy on its first 64 rows; times are GPU timestamps (medians of 10 dispatches after
warm-up), next to kdsl's own kernel (``KDSL_DEBUG`` timestamps) and PyTorch's (CUDA events) where present.

    python3 benchmarks/coopmat2_probe.py                 # 4096 and 8192, the tiles of benchmarks/RESULTS.md
    python3 benchmarks/coopmat2_probe.py --sizes 1024    # a quick look

A device without the extension (every CPU driver) prints so and exits with status 0.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

import numpy as np
from dsl_common import kd
from matmul_sweep import gpu_ms, torch_ms

import kdsl.kp as kp
from kdsl.runtime import context
from kdsl.runtime import instance as inst
from kdsl.runtime.compiler import compile_source
from kdsl.runtime.vk import ffi, lib

EXTENSION = "VK_NV_cooperative_matrix2"
STYPE = 1000593000  # VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV (+1, +2: see below)
FEATURES = ("workgroup scope", "flexible dimensions", "reductions", "conversions", "per-element operations",
            "tensor addressing", "block loads")
TILES = [(128, 256, 64, 256), (128, 128, 64, 256), (128, 128, 64, 128), (128, 256, 32, 256), (256, 128, 64, 256)]

SOURCE = """#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = {wg}) in;
layout(std430, binding = 0) readonly buffer A {{ float16_t a[]; }};
layout(std430, binding = 1) readonly buffer B {{ float16_t b[]; }};
layout(std430, binding = 2) writeonly buffer C {{ float c[]; }};
void main() {{
    uint row = gl_WorkGroupID.y * {bm}u, col = gl_WorkGroupID.x * {bn}u;
    coopmat<float, gl_ScopeWorkgroup, {bm}, {bn}, gl_MatrixUseAccumulator> acc =
        coopmat<float, gl_ScopeWorkgroup, {bm}, {bn}, gl_MatrixUseAccumulator>(0.0);
    for (uint k = 0u; k < {n}u; k += {bk}u) {{
        coopmat<float16_t, gl_ScopeWorkgroup, {bm}, {bk}, gl_MatrixUseA> x;
        coopmat<float16_t, gl_ScopeWorkgroup, {bk}, {bn}, gl_MatrixUseB> y;
        coopMatLoad(x, a, row * {n}u + k, {n}u, gl_CooperativeMatrixLayoutRowMajor);
        coopMatLoad(y, b, k * {n}u + col, {n}u, gl_CooperativeMatrixLayoutRowMajor);
        acc = coopMatMulAdd(x, y, acc);
    }}
    coopMatStore(acc, c, row * {n}u + col, {n}u, gl_CooperativeMatrixLayoutRowMajor);
}}
"""


class _WithCoopmat2(inst.FeatureChain):
    """The feature chain with the extension's struct after the KHR cooperative-matrix one (raw memory: sType,
    pNext, then its seven VkBool32s from word 4), so a query fills it and device creation enables it."""

    def __init__(self, with_atomic_float: bool, with_coopmat: bool = False):
        super().__init__(with_atomic_float, with_coopmat)
        self.cm2 = ffi.new("uint32_t[12]")
        self.cm2[0] = STYPE
        if self.coopmat is not None:
            self.coopmat.pNext = ffi.cast("void*", self.cm2)


def report() -> bool:
    """Print what the device offers; True when it has workgroup-scope matrices."""
    instance = inst.Instance()
    try:
        physical = instance.physical_devices()[kd.device().index]
        if EXTENSION not in inst.device_extensions(physical):
            print(f"{kd.device().name}: no {EXTENSION}")
            return False
        if instance.layers:  # a validation layer knows no struct newer than its headers: it reports these as errors
            print(f"{kd.device().name}: has {EXTENSION}; not queried under the validation layer (KDSL_VALIDATION=0)")
            return False
        chain = _WithCoopmat2.query(physical)
        assert isinstance(chain, _WithCoopmat2)
        print("features:", {name: bool(chain.cm2[4 + i]) for i, name in enumerate(FEATURES)})
        props = ffi.new("uint32_t[8]")
        props[0] = STYPE + 2
        root = inst.new("VkPhysicalDeviceProperties2", sType=inst.vulkan.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                        pNext=ffi.cast("void*", props))
        lib.vkGetPhysicalDeviceProperties2(physical, root)
        print("largest workgroup, largest flexible dimension, reserved shared bytes:",
              [int(props[i]) for i in (4, 5, 6)])
        _flexible_shapes(instance, physical)
        return bool(chain.cm2[4])
    finally:
        instance.destroy()


def _flexible_shapes(instance: Any, physical: Any) -> None:
    """The float16 -> float32 granularities (M, N, K) and workgroup sizes the driver lists."""
    raw = lib.vkGetInstanceProcAddr(instance.handle,
                                    b"vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV")
    fn = ffi.cast("int(*)(void*, uint32_t*, void*)", raw)
    count = ffi.new("uint32_t*")
    fn(ffi.cast("void*", physical), count, ffi.NULL)
    words = 14  # sType, padding, pNext (2 words), then M, N, K, A, B, C, result, saturating, scope, invocations
    table = ffi.new("uint32_t[]", words * count[0])
    for i in range(count[0]):
        table[words * i] = STYPE + 1
    fn(ffi.cast("void*", physical), count, ffi.cast("void*", table))
    rows = [[int(table[words * i + j]) for j in range(4, 14)] for i in range(count[0])]
    print("float16 -> float32 (M, N, K granularity, invocations):",
          [(r[0], r[1], r[2], r[9]) for r in rows if r[3:7] == [0, 0, 1, 1]])


def timed(mgr: Any, tensors: list[Any], n: int, tile: tuple[int, int, int, int]) -> float:
    """Median GPU ms of one dispatch of the probe kernel with ``tile`` = (BM, BN, BK, invocations)."""
    bm, bn, bk, wg = tile
    spirv = compile_source(SOURCE.format(wg=wg, bm=bm, bn=bn, bk=bk, n=n), "1.3", "1.6")
    algo = mgr.algorithm(tensors, spirv, (n // bn, n // bm, 1))
    mgr.sequence().eval(kp.OpAlgoDispatch(algo))  # warm-up (and the compile)
    seq = mgr.sequence(total_timestamps=10)
    for _ in range(10):
        seq.record(kp.OpAlgoDispatch(algo))
    ticks = seq.eval().get_timestamps()
    period = kp.list_devices()[kd.device().index]["timestamp_period"] * 1e-6
    return statistics.median((t1 - t0) * period for t0, t1 in zip(ticks, ticks[1:], strict=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4096, 8192])
    args = parser.parse_args()
    if not report():
        return
    context.FeatureChain = _WithCoopmat2  # type: ignore[misc]  # so the Manager below enables its features
    mgr = kp.Manager(kd.device().index, [], [EXTENSION])
    rng = np.random.default_rng(0)
    for n in args.sizes:
        a, b = ((rng.standard_normal((n, n)) * 0.1).astype(np.float16) for _ in range(2))
        tensors = [mgr.tensor_t(a), mgr.tensor_t(b), mgr.tensor_t(np.zeros(n * n, np.float32))]
        mgr.sequence().eval(kp.OpTensorSyncDevice(tensors))
        want = a[:64].astype(np.float32) @ b.astype(np.float32)
        ours = _kdsl_ms(kd.asarray(a), kd.asarray(b))
        print(f"{n}^3: kdsl's subgroup-scope kernel {ours:.3f} ms" + _torch(a, b))
        for tile in TILES:
            if n % tile[0] or n % tile[1]:
                continue
            ms = timed(mgr, tensors, n, tile)
            mgr.sequence().eval(kp.OpTensorSyncLocal(tensors[2:]))
            err = float(np.abs(tensors[2].data().reshape(n, n)[:64] - want).max())
            print(f"  workgroup tile {tile[0]} x {tile[1]} x {tile[2]}, {tile[3]} invocations: {ms:.3f} ms "
                  f"({2 * n ** 3 / ms / 1e9:.0f} TFLOP/s), max error {err:.1e}")


def _kdsl_ms(x: Any, y: Any) -> float:
    return gpu_ms(lambda: kd.realize(x @ y))


def _torch(a: np.ndarray, b: np.ndarray) -> str:
    """PyTorch's time for the same product (``matmul_sweep.torch_ms``: CUDA events), where it has a GPU."""
    try:
        import torch
    except ImportError:
        return ""
    if not torch.cuda.is_available():
        return ""
    return f", cuBLAS {torch_ms(torch, torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()):.3f} ms"


if __name__ == "__main__":
    main()
