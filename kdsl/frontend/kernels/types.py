"""Types inside kernels: annotations (``kd.f32``, ``kd.i32[:, :]``, ``kd.constexpr``) and the promotion rules.

Arrays may hold any of twelve element dtypes; arithmetic happens in the seven *value* dtypes (bool, int32,
uint32, int64, uint64, float32, float64): 8/16-bit integers widen to 32 bits on load and narrow (wrapping) on
store, float16 computes in float32. That needs only the 8/16-bit *storage* features, which nearly every Vulkan
device has, not the rarer 8/16-bit arithmetic ones.

Example:
    >>> from kdsl.frontend.kernels.types import f32, i32, promote
    >>> f32[:, :]
    kd.f32[:, :]
    >>> promote("int32", "float32"), promote("int32", "uint32"), value_dtype("uint8")
    ('float32', 'int32', 'uint32')
"""

from __future__ import annotations

import numpy as np

DTYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64")
VALUE_DTYPES = ("bool", "int32", "uint32", "int64", "uint64", "float32", "float64")
GLSL_TYPES = {"bool": "bool", "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "uint16": "uint16_t",
              "int32": "int", "uint32": "uint", "int64": "int64_t", "uint64": "uint64_t",
              "float16": "float16_t", "float32": "float", "float64": "double"}
# The Vulkan device feature each dtype needs in a storage buffer (names of kdsl.runtime.list_devices()).
STORAGE_FEATURE = {**dict.fromkeys(("bool", "int8", "uint8"), "storage_buffer_8bit"),
                   **dict.fromkeys(("int16", "uint16", "float16"), "storage_buffer_16bit"),
                   "int64": "int64", "uint64": "int64", "float64": "float64"}


def is_float(dtype: str) -> bool:
    return dtype.startswith("float")


def is_int(dtype: str) -> bool:
    return "int" in dtype


def is_signed(dtype: str) -> bool:
    return dtype.startswith("int") or is_float(dtype)


def bits(dtype: str) -> int:
    return 8 if dtype == "bool" else int("".join(c for c in dtype if c.isdigit()))


def value_dtype(dtype: str) -> str:
    """The dtype a stored element has once loaded: small ints widen to 32 bits, float16 to float32."""
    if dtype in ("int8", "int16"):
        return "int32"
    if dtype in ("uint8", "uint16"):
        return "uint32"
    return "float32" if dtype == "float16" else dtype


def promote(a: str, b: str) -> str:
    """The value dtype of ``a op b``. Floats win (keeping the wider one, float32 + int64 stays float32, as in
    PyTorch and JAX rather than NumPy); mixed-sign integers give the signed type of the wider width; bool
    arithmetic gives int32.

    Example:
        >>> promote("bool", "bool"), promote("uint32", "int64"), promote("float64", "int32")
        ('int32', 'int64', 'float64')
    """
    a, b = value_dtype(a), value_dtype(b)
    if a == b:
        return "int32" if a == "bool" else a
    if is_float(a) or is_float(b):
        floats = [d for d in (a, b) if is_float(d)]
        return max(floats, key=bits)
    if a == "bool" or b == "bool":
        return b if a == "bool" else a
    width = max(bits(a), bits(b))
    if is_signed(a) == is_signed(b):
        return a if bits(a) >= bits(b) else b
    return f"int{width}"


def dtype_name(obj) -> str:
    """The kdsl dtype name of a KType, a NumPy dtype or type, or a dtype name; ValueError otherwise."""
    if isinstance(obj, KType):
        return obj.dtype
    if isinstance(obj, str) and obj in _ALIASES:
        return _ALIASES[obj]
    if not isinstance(obj, str) and getattr(obj, "name", None) in DTYPES:  # kdsl.dtype.DType, np.dtype
        return obj.name
    try:
        name = np.dtype(obj).name
    except TypeError:
        name = None
    if name not in DTYPES:
        raise ValueError(f"{obj!r} is not a kernel dtype; use one of {', '.join(DTYPES)}")
    return name


class KType:
    """A scalar element type usable as an annotation (``n: kd.i32``), a cast inside kernels (``kd.f32(x)``)
    and, subscripted, an array annotation (``x: kd.f32[:]``, ``m: kd.f32[:, :]``).

    Example:
        >>> i32.dtype, i32[:].ndim, f64[:, :, :].dtype
        ('int32', 1, 'float64')
    """

    def __init__(self, short: str, dtype: str):
        self.short, self.dtype = short, dtype

    def __getitem__(self, dims) -> ArrayType:
        dims = dims if isinstance(dims, tuple) else (dims,)
        if not all(isinstance(d, slice) and d == slice(None) for d in dims):
            raise TypeError(f"array annotations use bare colons, one per dimension: kd.{self.short}[:, :]")
        return ArrayType(self.dtype, len(dims), self.short)

    def __call__(self, value):
        """Outside kernels a KType converts like NumPy: ``kd.f32(2)`` is ``np.float32(2)``."""
        return np.dtype(self.dtype).type(value)

    def __repr__(self) -> str:
        return f"kd.{self.short}"


class ArrayType:
    """An array annotation: element dtype and number of dimensions (``kd.f32[:, :]``)."""

    def __init__(self, dtype: str, ndim: int, short: str = ""):
        self.dtype, self.ndim, self.short = dtype, ndim, short or dtype

    def __repr__(self) -> str:
        return f"kd.{self.short}[{', '.join(':' * self.ndim)}]"

    def __eq__(self, other) -> bool:
        return isinstance(other, ArrayType) and (self.dtype, self.ndim) == (other.dtype, other.ndim)

    def __hash__(self) -> int:
        return hash((self.dtype, self.ndim))


class _Constexpr:
    """Annotation of a parameter whose value is baked into the kernel (one compiled variant per value), e.g.
    a tile size used in ``kd.shared((T, T), kd.f32)`` or an unrolled loop bound."""

    def __repr__(self) -> str:
        return "kd.constexpr"


constexpr = _Constexpr()

boolean = KType("boolean", "bool")
i8, u8, i16, u16 = KType("i8", "int8"), KType("u8", "uint8"), KType("i16", "int16"), KType("u16", "uint16")
i32, u32 = KType("i32", "int32"), KType("u32", "uint32")
i64, u64 = KType("i64", "int64"), KType("u64", "uint64")
f16, f32, f64 = KType("f16", "float16"), KType("f32", "float32"), KType("f64", "float64")
KTYPES = {t.dtype: t for t in (boolean, i8, u8, i16, u16, i32, u32, i64, u64, f16, f32, f64)}
_ALIASES = {**{t.short: t.dtype for t in KTYPES.values()}, **{d: d for d in DTYPES}, "bool_": "bool"}
