"""Subgroup operations inside kernels: ``kd.subgroup_add(x)`` and the other ``kd.subgroup_*`` functions.

``subgroup_size`` / ``subgroup_invocation_id`` / ``subgroup_id`` / ``subgroup_elect`` / ``subgroup_barrier``
need only the basic subgroup extension; ``subgroup_broadcast_first``, ``subgroup_shuffle`` and the
reductions and scans (``add``, ``mul``, ``min``, ``max``, ``and``, ``or``, ``xor``, ``inclusive_add``,
``exclusive_add``) need the device features ``subgroup_ballot``, ``subgroup_shuffle`` and
``subgroup_arithmetic`` respectively.

Example:
    >>> REDUCTIONS["inclusive_add"]
    'subgroupInclusiveAdd'
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.frontend.kernels.call import IntrinsicCall
from kdsl.frontend.kernels.glsl import cast
from kdsl.frontend.kernels.ir import VOID, Expr

REDUCTIONS = {"add": "subgroupAdd", "mul": "subgroupMul", "min": "subgroupMin", "max": "subgroupMax",
              "and": "subgroupAnd", "or": "subgroupOr", "xor": "subgroupXor",
              "inclusive_add": "subgroupInclusiveAdd", "exclusive_add": "subgroupExclusiveAdd"}


def subgroup_call(c: IntrinsicCall, op: str) -> Expr:
    lw = c.lw
    lw.program.extensions.add("GL_KHR_shader_subgroup_basic")
    if op in ("size", "invocation_id", "id"):
        c.nargs(0)
        var = {"size": "gl_SubgroupSize", "invocation_id": "gl_SubgroupInvocationID", "id": "gl_SubgroupID"}[op]
        return Expr(f"int({var})", dt.int32, nonneg=True)
    if op == "elect":
        c.nargs(0)
        return Expr("subgroupElect()", dt.bool_)
    if op == "barrier":
        c.nargs(0)
        return Expr("subgroupBarrier()", VOID)
    if op == "broadcast_first":
        lw.need("subgroup_ballot", c.node, c.name)
        lw.program.extensions.add("GL_KHR_shader_subgroup_ballot")
        (x,) = c.values(1)
        return Expr(f"subgroupBroadcastFirst({x.code})", x.dtype)
    if op == "shuffle":
        lw.need("subgroup_shuffle", c.node, c.name)
        lw.program.extensions.add("GL_KHR_shader_subgroup_shuffle")
        x, lane = c.values(2)
        return Expr(f"subgroupShuffle({x.code}, uint({cast(lane, dt.int32).code}))", x.dtype)
    lw.need("subgroup_arithmetic", c.node, c.name)
    lw.program.extensions.add("GL_KHR_shader_subgroup_arithmetic")
    (x,) = c.values(1)
    if x.weak:
        x = cast(x, dt.int32 if x.dtype.is_int else x.dtype)
    if x.dtype is dt.bool_ and op not in ("and", "or", "xor"):
        x = cast(x, dt.int32)
    if op in ("and", "or", "xor") and x.dtype.is_float:
        raise c.error(f"{c.name}() needs integer or bool values, got {x.dtype.name}")
    return Expr(f"{REDUCTIONS[op]}({x.code})", x.dtype)
