"""Custom kernels written in Python: ``@kd.kernel`` / ``@kd.func`` (source -> AST lowering -> GLSL), the
in-kernel intrinsics (``kd.global_id``, ``kd.shared``, ``kd.barrier``, ``kd.atomic_*``, ``kd.subgroup_*``...),
the kernel scalar types (``kd.f32``, ``kd.i32[:]``, ``kd.constexpr``), ``kd.raw_kernel`` and ``kd.RawProgram``
(several raw-kernel launches as one recorded submission). Every public name
is in ``__all__`` for ``kdsl/__init__.py`` to re-export.

Example:
    >>> import kdsl.frontend.kernels as kd
    >>> kd.f32[:, :], kd.constexpr, kd.f32 is kd.float32
    (kdsl.float32[:, :], kd.constexpr, True)
"""

from kdsl.frontend.kernels.errors import KernelSyntaxError, KernelTypeError
from kdsl.frontend.kernels.func import Func, func
from kdsl.frontend.kernels.intrinsics import (
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
from kdsl.frontend.kernels.kernel import Kernel, kernel
from kdsl.frontend.kernels.program import RawLaunch, RawProgram
from kdsl.frontend.kernels.raw import RawKernel, raw_kernel
from kdsl.frontend.kernels.types import boolean, constexpr, f16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64

float32, bool_ = f32, boolean  # the same DType objects as kdsl.float32 / kdsl.bool_

__all__ = [
    "kernel", "Kernel", "func", "Func", "KernelSyntaxError", "KernelTypeError",
    "global_id", "local_id", "group_id", "num_groups", "grid_size", "block_size", "shared", "local_array",
    "barrier", "atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor",
    "atomic_exchange", "atomic_cas", "subgroup_add", "subgroup_mul", "subgroup_min", "subgroup_max",
    "subgroup_and", "subgroup_or", "subgroup_xor", "subgroup_inclusive_add", "subgroup_exclusive_add",
    "subgroup_broadcast_first", "subgroup_shuffle", "subgroup_size", "subgroup_invocation_id", "subgroup_id",
    "subgroup_elect", "subgroup_barrier",
    "boolean", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64", "constexpr",
    "raw_kernel", "RawKernel", "RawProgram", "RawLaunch",
]
