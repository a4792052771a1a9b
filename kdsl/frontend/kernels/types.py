"""Types inside kernels: the annotations ``kd.f32``, ``kd.i32[:, :]``, ``kd.constexpr``.

The scalar types are kdsl's own :class:`~kdsl.dtype.DType` singletons under short names (``kd.f32 is
kd.float32``); subscripted they make array annotations (:class:`~kdsl.dtype.ArrayType`). Arrays may hold any
of the twelve dtypes; arithmetic happens in the seven *value* dtypes (bool, int32, uint32, int64, uint64,
float32, float64): 8/16-bit integers widen to 32 bits on load and narrow (wrapping) on store, float16 computes
in float32 (``DType.value``).

Example:
    >>> from kdsl.frontend.kernels.types import f32, i32, u8
    >>> f32[:, :], f32 is as_kernel_dtype("float32"), u8.value
    (kdsl.float32[:, :], True, kdsl.uint32)
"""

from __future__ import annotations

from typing import Any

from kdsl import dtype as dt
from kdsl.dtype import ArrayType, DType

VALUE_DTYPES = (dt.bool_, dt.int32, dt.uint32, dt.int64, dt.uint64, dt.float32, dt.float64)


def as_kernel_dtype(obj: Any) -> DType:
    """The DType of an annotation or dtype spelling (``kd.f32``, ``np.int8``, ``"uint16"``, ``float`` as in
    ``kd.asarray``: float32); ValueError naming the choices otherwise."""
    try:
        return dt.as_dtype(obj)
    except TypeError:
        raise ValueError(f"{obj!r} is not a kernel dtype; use one of "
                         f"{', '.join(d.name for d in dt.ALL)}") from None


class Constexpr:
    """Annotation of a parameter whose value is baked into the kernel (one compiled variant per value), e.g.
    a tile size used in ``kd.shared((T, T), kd.f32)`` or an unrolled loop bound."""

    def __repr__(self) -> str:
        return "kd.constexpr"


constexpr = Constexpr()

boolean = dt.bool_
i8, u8, i16, u16 = dt.int8, dt.uint8, dt.int16, dt.uint16
i32, u32, i64, u64 = dt.int32, dt.uint32, dt.int64, dt.uint64
f16, f32, f64 = dt.float16, dt.float32, dt.float64

__all__ = ["ArrayType", "DType", "VALUE_DTYPES", "as_kernel_dtype", "constexpr", "boolean", "i8", "u8", "i16",
           "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64"]
