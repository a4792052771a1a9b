"""Every public name of kdsl's custom-kernel features, in one place for ``kdsl/__init__.py`` to re-export.

``@kd.kernel`` / ``@kd.func``, the in-kernel intrinsics (``kd.global_id``, ``kd.shared``, ``kd.barrier``,
``kd.atomic_*``, ``kd.subgroup_*``...), the kernel scalar types (``kd.f32``, ``kd.i32[:]``, ``kd.constexpr``),
``kd.compute``, ``kd.elementwise`` / ``kd.reduction`` and ``kd.raw_kernel``.

Example:
    >>> import kdsl.frontend.kernel_api as kd
    >>> kd.f32[:, :], kd.constexpr
    (kd.f32[:, :], kd.constexpr)
"""

from .factories import ElementwiseKernel, ReductionKernel, elementwise, reduction
from .kernel import Kernel, kernel
from .kernel_errors import KernelSyntaxError, KernelTypeError
from .kernel_func import Func, func
from .kernel_intrinsics import (
                                atomic_add,
                                atomic_and,
                                atomic_cas,
                                atomic_exchange,
                                atomic_max,
                                atomic_min,
                                atomic_or,
                                atomic_sub,
                                atomic_xor,
                                barrier,
                                block_size,
                                global_id,
                                grid_size,
                                group_id,
                                local_array,
                                local_id,
                                num_groups,
                                shared,
                                subgroup_add,
                                subgroup_and,
                                subgroup_barrier,
                                subgroup_broadcast_first,
                                subgroup_elect,
                                subgroup_exclusive_add,
                                subgroup_id,
                                subgroup_inclusive_add,
                                subgroup_invocation_id,
                                subgroup_max,
                                subgroup_min,
                                subgroup_mul,
                                subgroup_or,
                                subgroup_shuffle,
                                subgroup_size,
                                subgroup_xor,
)
from .kernel_types import boolean, constexpr, f16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from .lang import KdslError, KdslSyntaxError, compute
from .raw import RawKernel, raw_kernel

__all__ = [
    "kernel", "Kernel", "func", "Func", "KernelSyntaxError", "KernelTypeError",
    "global_id", "local_id", "group_id", "num_groups", "grid_size", "block_size", "shared", "local_array",
    "barrier", "atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor",
    "atomic_exchange", "atomic_cas", "subgroup_add", "subgroup_mul", "subgroup_min", "subgroup_max",
    "subgroup_and", "subgroup_or", "subgroup_xor", "subgroup_inclusive_add", "subgroup_exclusive_add",
    "subgroup_broadcast_first", "subgroup_shuffle", "subgroup_size", "subgroup_invocation_id", "subgroup_id",
    "subgroup_elect", "subgroup_barrier",
    "boolean", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64", "constexpr",
    "compute", "KdslError", "KdslSyntaxError", "elementwise", "reduction", "ElementwiseKernel", "ReductionKernel",
    "raw_kernel", "RawKernel",
]
