"""Combining one value per invocation across a whole workgroup: with subgroup operations where the device
has them (``GL_KHR_shader_subgroup_arithmetic`` / ``_shuffle`` in compute shaders) and the type allows, else a
shared-memory tree. Every invocation ends up holding the workgroup's total.

The subgroup path never assumes a subgroup size: it reads ``gl_SubgroupSize``, ``gl_SubgroupID`` and
``gl_NumSubgroups`` (lavapipe reports 8 lanes, NVIDIA 32, AMD 32 or 64). Float max / min combine lanes with a
butterfly of ``subgroupShuffleXor`` through kdsl's NaN-propagating helpers (``subgroupMax`` leaves NaN to the
driver); sums and products use ``subgroupAdd`` / ``subgroupMul``.

Example:
    >>> from collections.abc import Callable

from kdsl import dtype as dt
    >>> print(chr(10).join(workgroup_reduce("sum", dt.float32, "a", "s_v", 32)))
    a = subgroupAdd(a);
    if (subgroupElect()) { s_v[gl_SubgroupID] = a; }
    memoryBarrierShared(); barrier();
    a = s_v[0];
    for (uint q = 1u; q < gl_NumSubgroups; q++) { a = (a + s_v[q]); }
    memoryBarrierShared(); barrier();
"""

from __future__ import annotations

from collections.abc import Callable

from kdsl import dtype as dt
from kdsl.codegen.helpers import SUFFIX
from kdsl.ir.kernels import LOCAL

EXTENSIONS = ("GL_KHR_shader_subgroup_basic", "GL_KHR_shader_subgroup_arithmetic", "GL_KHR_shader_subgroup_shuffle")
_OPS = ("sum", "prod", "max", "min")
_SUBGROUP_OP = {"sum": "subgroupAdd", "prod": "subgroupMul", "max": "subgroupMax", "min": "subgroupMin"}


def subgroup_ok(op: str, t: dt.DType) -> bool:
    """Whether ``op`` over compute type ``t`` may use subgroup operations: 32-bit scalars only (8/16/64-bit
    types need the separate shaderSubgroupExtendedTypes feature; bool and complex use the tree)."""
    return op in _OPS and t.glsl_compute in ("float", "int", "uint")


def trips(subgroup: int) -> int:
    """Loop iterations one invocation spends in :func:`workgroup_reduce` (for the loop budget)."""
    if subgroup:
        return LOCAL // subgroup + subgroup.bit_length() + 2
    return LOCAL.bit_length() + 1


def with_extensions(src: str, subgroup: bool) -> str:
    """``src`` with the subgroup extensions enabled when the kernel uses them."""
    if not subgroup:
        return src
    head, rest = src.split("\n", 1)
    return "\n".join([head, *[f"#extension {e} : require" for e in EXTENSIONS], rest])


def _combine(op: str, t: dt.DType, a: str, b: str) -> str:
    if op == "sum":
        return f"({a} + {b})"
    if op == "prod":
        return f"({a} * {b})"
    if t.is_float:
        return f"kd_{op}_{SUFFIX[t.glsl_compute]}({a}, {b})"
    return f"{op}({a}, {b})"


def subgroup_reduce(op: str, t: dt.DType, var: str) -> list[str]:
    """GLSL combining ``var`` over the subgroup into ``var`` of every lane (:func:`subgroup_ok` types): float
    max / min by a butterfly through the NaN-propagating helper, the rest by the subgroup operation."""
    if op in ("max", "min") and t.is_float:
        return [f"for (uint w = gl_SubgroupSize >> 1; w > 0u; w >>= 1) "
                f"{{ {var} = {_combine(op, t, var, f'subgroupShuffleXor({var}, w)')}; }}"]
    return [f"{var} = {_SUBGROUP_OP[op]}({var});"]


def workgroup_reduce(op: str, t: dt.DType, var: str, shared: str, subgroup: int,
                     combine: Callable[[str, str], str] | None = None) -> list[str]:
    """GLSL combining ``var`` (one value per invocation, of compute type ``t``) over the workgroup into
    ``var`` of every invocation; ``shared`` names a ``LOCAL``-long shared array of ``t``. ``subgroup`` > 0 and
    :func:`subgroup_ok`: subgroup operations; else the tree (``combine(a, b)``: the caller's fold, for types
    only the tree handles, such as bool or complex)."""
    def fold(a: str, b: str) -> str:
        return combine(a, b) if combine is not None else _combine(op, t, a, b)

    barrier = "memoryBarrierShared(); barrier();"
    if subgroup and subgroup_ok(op, t):
        return subgroup_reduce(op, t, var) + [f"if (subgroupElect()) {{ {shared}[gl_SubgroupID] = {var}; }}", barrier,
                        f"{var} = {shared}[0];",
                        f"for (uint q = 1u; q < gl_NumSubgroups; q++) {{ {var} = {fold(var, f'{shared}[q]')}; }}",
                        barrier]
    return [f"{shared}[gl_LocalInvocationID.x] = {var};", barrier,
            f"for (uint w = {LOCAL // 2}u; w > 0u; w >>= 1) {{",
            f"    if (gl_LocalInvocationID.x < w) {{ {shared}[gl_LocalInvocationID.x] = "
            f"{fold(f'{shared}[gl_LocalInvocationID.x]', f'{shared}[gl_LocalInvocationID.x + w]')}; }}",
            f"    {barrier}", "}", f"{var} = {shared}[0];", barrier]
