"""The GPU kernels' common machinery: GLSL compiled per real type and workgroup size, batched launches (one
workgroup per matrix, or per matrix and column), and splitting a factorisation's steps into dispatches that stay
within the device's loop budget.

Every linalg kernel is a ``kd.raw_kernel`` whose source is written over ``T`` (the element type: ``float``,
``double``, or ``vec2``/``dvec2`` for complex64/complex128), ``REAL`` (its real scalar), the element
arithmetic ``MUL DIV CONJ RE IM CPLX NORM2 ABS ABSMAX ABS1 IS_ZERO FROM_REAL`` (plain operators for real
types, functions for complex ones, for which ``COMPLEX`` is defined too) and ``WG`` (the workgroup size, a
power of two; ``LOG_WG`` its log). Kernels that only serve real types still use ``REAL`` for their elements.
Matrices live in global memory (declared ``coherent``), so one
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
from kdsl.linalg import graph

# element type T and its real scalar REAL per dtype: a complex number is a vec2/dvec2 (real, imaginary)
_TYPES = {"float32": ("float", "float"), "float64": ("double", "double"),
          "complex64": ("vec2", "float"), "complex128": ("dvec2", "double")}
_HEADER = """#version 450
#define T {elem}
#define REAL {real}
#define WG {wg}u
#define LOG_WG {log_wg}u
#define SAFE_LOW REAL({low})
#define SAFE_HIGH REAL({high})
layout(local_size_x = {wg}) in;
"""
# a sum of squares in [SAFE_LOW, SAFE_HIGH] neither overflowed nor lost digits to squares that underflowed
_SAFE = {"float": ("1e-20", "1e30"), "double": ("1e-200LF", "1e300LF")}
# The element arithmetic kernels are written over, so one source serves real and complex types. ABS1 is
# |re| + |im| (LAPACK's cabs1: the pivot magnitude of izamax, cheaper than |z| and free of overflow);
# DIV is Smith's scaled complex division, which does not overflow for large divisors as a * conj(b) / |b|^2.
_REAL_OPS = """#define MUL(a, b) ((a) * (b))
#define DIV(a, b) ((a) / (b))
#define CONJ(a) (a)
#define RE(a) (a)
#define IM(a) REAL(0)
#define CPLX(re, im) (re)
#define NORM2(a) ((a) * (a))
#define ABSMAX(a) abs(a)
#define ABS(a) abs(a)
#define ABS1(a) abs(a)
#define IS_ZERO(a) ((a) == REAL(0))
#define FROM_REAL(r) T(r)
"""
_COMPLEX_OPS = """T c_mul(T a, T b) { return T(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
T c_div(T a, T b) {
    if (abs(b.x) >= abs(b.y)) {
        REAL r = b.y / b.x, d = b.x + b.y * r;
        return T((a.x + a.y * r) / d, (a.y - a.x * r) / d);
    }
    REAL r = b.x / b.y, d = b.y + b.x * r;
    return T((a.x * r + a.y) / d, (a.y * r - a.x) / d);
}
#define MUL(a, b) c_mul(a, b)
#define DIV(a, b) c_div(a, b)
#define CONJ(a) T((a).x, -(a).y)
#define COMPLEX 1
#define RE(a) ((a).x)
#define IM(a) ((a).y)
#define CPLX(re, im) T(re, im)
#define NORM2(a) dot(a, a)
#define ABSMAX(a) max(abs((a).x), abs((a).y))
#define ABS(a) length(a)
#define ABS1(a) (abs((a).x) + abs((a).y))
#define IS_ZERO(a) all(equal(a, T(0)))
#define FROM_REAL(r) T(r, REAL(0))
"""
# a batch index from a 2-D grid of workgroups (workgroup counts per axis are limited, batches are not)
BATCH_INDEX = "uint batch_index() { return gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x; }\n"


class Kernel:
    """A compiled linalg kernel: ``kernel(*arrays, *push_values, groups=...)`` launches it now, or records
    the launch when a :class:`kdsl.linalg.graph.Plan` is being recorded on this thread."""

    def __init__(self, raw: kd.RawKernel):
        self.raw = raw

    def __call__(self, *args, groups) -> None:
        graph.launch(self.raw, args, groups)


# The workgroup's sum (max) of v by subgroup arithmetic, then every thread combining the subgroups' results: two
# barriers, where a shared-memory tree takes log2(WG). The kernel declares ``shared REAL red[]`` with an entry
# per subgroup.
SUBGROUP_REDUCTIONS = """
REAL reduce_sum(REAL v) {
    v = subgroupAdd(v);
    if (subgroupElect()) red[gl_SubgroupID] = v;
    barrier();
    REAL r = REAL(0);
    for (uint g = 0u; g < gl_NumSubgroups; ++g) r += red[g];
    barrier();
    return r;
}

REAL reduce_max(REAL v) {
    v = subgroupMax(v);
    if (subgroupElect()) red[gl_SubgroupID] = v;
    barrier();
    REAL r = red[0];
    for (uint g = 1u; g < gl_NumSubgroups; ++g) r = max(r, red[g]);
    barrier();
    return r;
}
"""
SUBGROUP_EXTENSIONS = ("GL_KHR_shader_subgroup_basic", "GL_KHR_shader_subgroup_arithmetic",
                       "GL_KHR_shader_subgroup_shuffle")


@cache
def compiled(name: str, source: str, dtype_name: str, wg: int, extensions: tuple[str, ...] = ()) -> Kernel:
    """``source`` (written over T, REAL, the arithmetic macros and WG) compiled for one element type and
    workgroup size (cached), with the GLSL ``extensions`` enabled."""
    elem, real = _TYPES[dtype_name]
    low, high = _SAFE[real]
    header = _HEADER.format(elem=elem, real=real, wg=wg, log_wg=wg.bit_length() - 1, low=low, high=high)
    header = header.replace("\n", "\n" + "".join(f"#extension {e} : require\n" for e in extensions), 1)
    ops = _COMPLEX_OPS if dtype_name.startswith("complex") else _REAL_OPS
    return Kernel(kd.raw_kernel(header + ops + BATCH_INDEX + source, name=f"linalg.{name}"))


def max_threads() -> int:
    """The most invocations one workgroup may have on this device (Vulkan guarantees 128)."""
    return int(kd.device().manager.get_device_properties().get("max_work_group_invocations", 128))


def cpu_device() -> bool:
    """Whether kdsl runs on a CPU driver (lavapipe): there a dispatch costs far more than on a GPU, and a
    workgroup's invocations share one core, so fewer, longer dispatches win."""
    return kd.device().info["device_type"] == "cpu"


def workgroup_size(work: int) -> int:
    """Threads per matrix: enough for ``work`` parallel items per step, a power of two from 32 to 256 (1024
    for work over 256 x 256 items, where one workgroup per matrix must go as far as it can) and within the
    device's limit."""
    limit = max_threads()
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


def run_steps(kernel: Kernel, arrays: Sequence[kd.Array], push: Callable[[int, int], Sequence[float]],
              costs: Sequence[int], count: int) -> None:
    """Dispatch ``kernel`` over ``count`` workgroups once per chunk of steps; ``push(start, stop)`` gives the
    push constants of a chunk."""
    for start, stop in step_chunks(costs, loop_budget()):
        kernel(*arrays, *push(start, stop), groups=groups(count))


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def pair_lanes(pairs: int, rows: int, wg: int) -> int:
    """Invocations per pair in a Jacobi round's rotation loops (``lanes``): the power of two ``L`` up to ``wg``
    whose split of the workgroup (``wg / L`` pairs at a time, each by ``L`` invocations taking rows ``lane,
    lane + L, ...``) needs the fewest loop trips, ``ceil(pairs / (wg / L)) * ceil(rows / L)``; the smallest on
    ties. An invocation finds its pair's indices once per pair, where one loop over all ``pairs * rows`` elements
    divided each element's index (``e / rows``, ``e % rows`` and the pair's ``%``): lavapipe runs integer
    division lane by lane, and that was half of an SVD's sweep there.

    Example:
        >>> pair_lanes(100, 400, 1024), pair_lanes(2, 4, 32)
        (64, 4)
    """
    best, best_trips, lanes = 1, None, 1
    while lanes <= wg:
        trips = cdiv(pairs, wg // lanes) * cdiv(rows, lanes)
        if best_trips is None or trips < best_trips:
            best, best_trips = lanes, trips
        lanes *= 2
    return best


_COPY = """
layout(set = 0, binding = 0) readonly buffer S_ { T src[]; };
layout(set = 0, binding = 1) buffer D_ { T dst[]; };
layout(push_constant) uniform Push { uint count; };

void main() {
    uint i = batch_index() * WG + gl_LocalInvocationID.x;
    if (i < count) dst[i] = src[i];
}
"""


def copy_into(dst: kd.Array, src: kd.Array) -> None:
    """``dst[...] = src`` element by element in place (same dtype and size; ``src`` any layout): how a
    recorded plan's work array takes a call's input without being replaced."""
    count = dst.size
    if count == 0:
        return
    kern = compiled("copy", _COPY, dst.dtype.name, 256)
    kern(src, dst, count, groups=groups(cdiv(count, 256)))


def subgroups() -> bool:
    """Whether workgroup sums may combine subgroups with subgroup arithmetic (the device's choice for its
    reductions: GPUs that have it; not lavapipe, which emulates it slowly)."""
    return kd.device().reduce_subgroup > 0


def shared_limit() -> int:
    """Bytes of shared memory one workgroup may use on this device."""
    return int(kd.device().manager.get_device_properties().get("max_shared_memory_size", 16384))


_ZERO_FLAGS = """
layout(set = 0, binding = 0) buffer F_ { uint flag[]; };
layout(push_constant) uniform Push { uint count; };

void main() {
    uint i = batch_index() * WG + gl_LocalInvocationID.x;
    if (i < count) flag[i] = 0u;
}
"""


def zero_flags(flag: kd.Array) -> None:
    """Set the uint32 array ``flag`` to zeros in place (a recorded plan's per-run reset)."""
    if flag.size:
        kern = compiled("zero_flags", _ZERO_FLAGS, "float32", 256)
        kern(flag, flag.size, groups=groups(cdiv(flag.size, 256)))
