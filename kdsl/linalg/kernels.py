"""The GPU kernels' common machinery: GLSL compiled per real type and workgroup size, batched launches (one
workgroup per matrix, or per matrix and column), and splitting a factorisation's steps into dispatches that stay
within the device's loop budget.

Every linalg kernel is a ``kd.raw_kernel`` whose source is written over ``REAL`` (``float`` or ``double``) and
``WG`` (the workgroup size, a power of two; ``LOG_WG`` its log): the complex types will add their own
``REAL``-like scalar and arithmetic macros here. Matrices live in global memory (declared ``coherent``), so one
workgroup can factor a matrix of any size: ``memoryBarrierBuffer(); barrier();`` orders the steps of one
factorisation, and a long factorisation is cut into several dispatches (:func:`step_chunks`) because drivers
such as lavapipe stop a shader invocation after about 65 535 loop iterations.

Example:
    >>> step_chunks([10, 10, 10, 10], 25)
    [(0, 2), (2, 4)]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache

import kdsl as kd

_REAL = {"float32": "float", "float64": "double"}
_HEADER = """#version 450
#define REAL {real}
#define WG {wg}u
#define LOG_WG {log_wg}u
layout(local_size_x = {wg}) in;
"""
# a batch index from a 2-D grid of workgroups (workgroup counts per axis are limited, batches are not)
BATCH_INDEX = "uint batch_index() { return gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x; }\n"


@cache
def compiled(name: str, source: str, dtype_name: str, wg: int) -> kd.RawKernel:
    """``source`` (written over REAL and WG) compiled for one real type and workgroup size (cached)."""
    header = _HEADER.format(real=_REAL[dtype_name], wg=wg, log_wg=wg.bit_length() - 1)
    return kd.raw_kernel(header + BATCH_INDEX + source, name=f"linalg.{name}")


def workgroup_size(work: int) -> int:
    """Threads per matrix: enough for ``work`` parallel items per step, a power of two from 32 to 256 (1024
    for work over 256 x 256 items, where one workgroup per matrix must go as far as it can) and within the
    device's limit."""
    limit = int(kd.device().manager.get_device_properties().get("max_work_group_invocations", 128))
    cap = 1024 if work > 256 * 256 else 256
    wg = 32
    while wg < min(work, cap, limit):
        wg *= 2
    return min(wg, max(32, _floor_pow2(limit)))


def _floor_pow2(n: int) -> int:
    return 1 << (max(n, 1).bit_length() - 1)


def groups(count: int) -> tuple[int, int, int]:
    """A 2-D workgroup grid with at least ``count`` workgroups (kernels skip the extra ones)."""
    limit = int(kd.device().manager.get_device_properties().get("max_work_group_count", (65535,) * 3)[0])
    gx = max(1, min(count, limit))
    return gx, max(1, math.ceil(count / gx)), 1


def loop_budget() -> int:
    """Loop iterations one dispatch may spend per invocation: half the device's budget, for safety (the
    estimates below count the loops of a step, not every instruction)."""
    return max(1024, kd.device().loop_budget // 2)


def step_chunks(costs: Sequence[int], budget: int) -> list[tuple[int, int]]:
    """Split steps with per-invocation loop ``costs`` into consecutive ``(start, stop)`` ranges whose total
    cost stays within ``budget`` (a single step over the budget still gets its own range)."""
    chunks, start, total = [], 0, 0
    for i, c in enumerate(costs):
        if i > start and total + c > budget:
            chunks.append((start, i))
            start, total = i, 0
        total += c
    if start < len(costs):
        chunks.append((start, len(costs)))
    return chunks


def run_steps(kernel: kd.RawKernel, arrays: Sequence[kd.Array], push: Callable[[int, int], Sequence[int]],
              costs: Sequence[int], count: int) -> None:
    """Dispatch ``kernel`` over ``count`` workgroups once per chunk of steps; ``push(start, stop)`` gives the
    push constants of a chunk."""
    for start, stop in step_chunks(costs, loop_budget()):
        kernel(*arrays, *push(start, stop), groups=groups(count))


def cdiv(a: int, b: int) -> int:
    return -(-a // b)
