"""kdsl's data types: the NumPy <-> GLSL mapping, promotion, and what each needs from the device.

Every array has one :class:`DType`. In a shader a value lives in two forms: its *storage* type (how the buffer
declares it, e.g. ``uint8_t`` needs ``GL_EXT_shader_8bit_storage``) and its *compute* type (what expressions work
in: 8/16-bit integers compute as ``int``/``uint`` and wrap back on every operation, float16 computes as ``float``
and rounds back on every operation, bool as ``bool``). That keeps arithmetic in the types every Vulkan device has.

Result types (:mod:`kdsl.dtype.promotion`) follow NumPy 2 (NEP 50: Python scalars are *weak*): kdsl asks NumPy itself
which dtype a ufunc returns for the operand dtypes, so ``int8 + int16 -> int16`` and ``sqrt(int16) -> float32`` match
exactly. Where NumPy would pick its *default* types, kdsl picks GPU-friendly ones: Python floats make float32 arrays,
Python ints make int32 arrays, and ``int_array + 1.5`` is float32 (NumPy: float64).

A DType is also what ``@kd.kernel`` annotations and casts are made of: ``kd.f32`` *is* ``kd.float32``,
``kd.f32[:, :]`` is a 2-D array annotation and ``kd.f32(2)`` converts like ``np.float32(2)``.

Example:
    >>> from kdsl.dtype import as_dtype, float32, int8
    >>> as_dtype("float32") is float32, as_dtype(int8).glsl_compute
    (True, 'int')
    >>> float32[:, :], float32(2), int8.value
    (kdsl.float32[:, :], np.float32(2.0), kdsl.int32)
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

_NumpyDType = np.dtype  # (inside DType, ``np`` is the field)
_ScalarType = type  # (inside DType, ``type`` is the property)

# ``kd.float32(a)`` of an array: set by the array frontend at import (kdsl/frontend/array/dtype_calls.py), which
# returns a kdsl array, or NotImplemented for the scalars NumPy's type makes (numbers, strings, 0-d arrays)
_ARRAY_CONVERSION: Callable[[Any, DType], Any] | None = None


def set_array_conversion(convert: Callable[[Any, DType], Any]) -> None:
    """Install what ``DType.__call__`` does with one argument before NumPy's scalar type sees it."""
    global _ARRAY_CONVERSION
    _ARRAY_CONVERSION = convert


@dataclass(frozen=True, eq=False)
class DType:
    """One kdsl element type. Singletons: compare with ``is`` or ``==``."""

    name: str
    np: np.dtype
    glsl_storage: str  # buffer element type in GLSL
    glsl_compute: str  # the type expressions compute in
    feature: str | None  # device feature the storage type needs (kdsl.runtime feature names)
    extension: str | None  # GLSL extension the storage type needs

    @property
    def dtype(self) -> _NumpyDType:
        """The NumPy dtype, so ``np.dtype(kd.float32)`` works (NumPy reads an object's ``.dtype``: libraries
        such as Dask call ``np.dtype(chunk.dtype)``)."""
        return self.np

    @property
    def type(self) -> _ScalarType:
        """NumPy's scalar type (``np.float32`` for ``kd.float32``), as ``np.dtype.type``."""
        return self.np.type

    @property
    def __name__(self) -> str:
        """The name of NumPy's scalar type (``np.float32.__name__``, ``'bool'`` for ``kd.bool_``), so ported
        code such as ``getattr(np, t.__name__)`` or ``f"{t.__name__}"`` works with kdsl's dtypes."""
        return self.np.type.__name__

    @property
    def itemsize(self) -> int:
        return self.np.itemsize

    @property
    def kind(self) -> str:
        """'b' bool, 'i' signed int, 'u' unsigned int, 'f' float, 'c' complex (NumPy's kinds)."""
        return self.np.kind

    @property
    def is_complex(self) -> bool:
        return self.np.kind == "c"

    @property
    def real_dtype(self) -> DType:
        """The float dtype of a complex dtype's components (complex64 -> float32); other dtypes: themselves."""
        return _COMPONENT.get(self.name, self)

    @property
    def is_float(self) -> bool:
        return self.np.kind == "f"

    @property
    def is_int(self) -> bool:
        return self.np.kind in "iu"

    @property
    def wraps(self) -> bool:
        """True when the compute type is wider than the storage type (results must be narrowed per op)."""
        return self.name in ("int8", "uint8", "int16", "uint16", "float16")

    @property
    def value(self) -> DType:
        """The dtype a value of this type has in arithmetic: 8/16-bit integers compute as 32-bit ones,
        float16 as float32 (kdsl needs only the 8/16-bit *storage* features, not the arithmetic ones)."""
        return _VALUE.get(self.name, self)

    def __repr__(self) -> str:
        return f"kdsl.{self.name}"

    def __str__(self) -> str:
        """The bare name, as NumPy's ``str(np.dtype('float32'))``: ``f"{a.dtype}"`` prints ``float32``."""
        return self.name

    def __getattr__(self, attr: str) -> Any:
        """NumPy's other dtype attributes (``char``, ``str``, ``num``, ``byteorder``, ``alignment``...) from the
        NumPy dtype; only called for names this class lacks."""
        if attr.startswith("_") or attr in ("np", "name"):  # not during unpickling/copy, before the fields exist
            raise AttributeError(attr)
        return getattr(self.np, attr)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled by name, so it unpickles as the same singleton (``pickle.loads(pickle.dumps(f32)) is f32``)."""
        return as_dtype, (self.name,)

    def __getitem__(self, dims: Any) -> ArrayType:
        """``kd.f32[:, :]``: the annotation of a 2-D float32 array argument of a ``@kd.kernel``."""
        dims = dims if isinstance(dims, tuple) else (dims,)
        if not dims or not all(isinstance(d, slice) and d == slice(None) for d in dims):
            raise TypeError(f"array annotations use bare colons, one per dimension: {self!r}[:, :]")
        return ArrayType(self, len(dims))

    def __call__(self, *args: Any) -> Any:
        """Convert like NumPy: ``kd.f32(2)`` is ``np.float32(2)`` (inside a kernel: a cast); NumPy's other forms
        too: ``kd.float32()`` is 0.0 and ``kd.complex64(1, 2)`` is ``1+2j`` (real and imaginary parts). An
        array (kdsl's or NumPy's, of one dimension or more) or a list is cast to a kdsl array of this dtype,
        as NumPy's ``np.float32(a)`` is ``np.asarray(a, np.float32)``: the frontend's hook
        (:func:`set_array_conversion`) decides, since this layer imports nothing of kdsl."""
        if len(args) == 1 and _ARRAY_CONVERSION is not None:
            converted = _ARRAY_CONVERSION(args[0], self)
            if converted is not NotImplemented:
                return converted
        return self.np.type(*args)

    def __instancecheck__(self, obj: Any) -> bool:
        """``isinstance(x, kd.float64)`` as NumPy's ``isinstance(x, np.float64)``: the dtype stands for its
        scalar type, which ``kd.float64(x)`` makes (a 0-d kdsl array is an array, not an instance)."""
        return isinstance(obj, self.np.type)

    def __subclasscheck__(self, cls: Any) -> bool:
        """``issubclass(a.dtype.type, kd.float64)``, as NumPy's with ``np.float64`` (and ``issubclass(kd.float64,
        kd.float64)``: a kdsl dtype stands for its scalar type on either side)."""
        cls = cls.np.type if isinstance(cls, DType) else cls
        return isinstance(cls, type) and issubclass(cls, self.np.type)

    def __or__(self, other: Any) -> Any:
        """``kd.float64 | None`` in a ported annotation (``scale: np.float64 | None = None``): NumPy's scalar
        types' union, ``np.float64 | None``."""
        return self.np.type | (other.np.type if isinstance(other, DType) else other)

    def __ror__(self, other: Any) -> Any:
        return (other.np.type if isinstance(other, DType) else other) | self.np.type

    @property
    def __bases__(self) -> tuple[_ScalarType]:
        """NumPy's scalar type, so ``issubclass(kd.float64, kd.floating)`` (ported ``issubclass(np.float64,
        np.floating)``, ``issubclass(dtype, np.integer)`` of a dtype argument) answers as NumPy's: Python's
        ``issubclass`` takes an object with ``__bases__`` for a class and walks them.

        Example:
            >>> import numpy as np
            >>> issubclass(float32, np.floating), issubclass(int8, (np.unsignedinteger, float))
            (True, False)
        """
        return (self.np.type,)

    def __hash__(self) -> int:
        """NumPy's dtype's hash: ``kd.int32 == np.dtype('int32')``, so the two must hash alike (a dict keyed
        by NumPy dtypes finds kdsl's, and a set of both holds one)."""
        return hash(self.np)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DType):
            return self is other
        if other is None:  # np.dtype(None) is float64, but no dtype equals None
            return False
        try:
            return as_dtype(other) is self
        except Exception:  # noqa: BLE001 - any object that is no dtype is unequal, whatever converting it raises
            return False


@dataclass(frozen=True)
class ArrayType:
    """An array annotation of ``@kd.kernel`` parameters: element dtype and number of dimensions."""

    dtype: DType
    ndim: int

    def __repr__(self) -> str:
        return f"{self.dtype!r}[{', '.join(':' * self.ndim)}]"


_8BIT, _16BIT = "GL_EXT_shader_8bit_storage", "GL_EXT_shader_16bit_storage"
_I64 = "GL_EXT_shader_explicit_arithmetic_types_int64"

bool_ = DType("bool", np.dtype(np.bool_), "uint8_t", "bool", "storage_buffer_8bit", _8BIT)
int8 = DType("int8", np.dtype(np.int8), "int8_t", "int", "storage_buffer_8bit", _8BIT)
uint8 = DType("uint8", np.dtype(np.uint8), "uint8_t", "uint", "storage_buffer_8bit", _8BIT)
int16 = DType("int16", np.dtype(np.int16), "int16_t", "int", "storage_buffer_16bit", _16BIT)
uint16 = DType("uint16", np.dtype(np.uint16), "uint16_t", "uint", "storage_buffer_16bit", _16BIT)
int32 = DType("int32", np.dtype(np.int32), "int", "int", None, None)
uint32 = DType("uint32", np.dtype(np.uint32), "uint", "uint", None, None)
int64 = DType("int64", np.dtype(np.int64), "int64_t", "int64_t", "int64", _I64)
uint64 = DType("uint64", np.dtype(np.uint64), "uint64_t", "uint64_t", "int64", _I64)
float16 = DType("float16", np.dtype(np.float16), "float16_t", "float", "storage_buffer_16bit", _16BIT)
float32 = DType("float32", np.dtype(np.float32), "float", "float", None, None)
float64 = DType("float64", np.dtype(np.float64), "double", "double", "float64", None)
# Complex numbers are two interleaved components (real, imag): NumPy's byte layout, a vec2/dvec2 in GLSL.
complex64 = DType("complex64", np.dtype(np.complex64), "vec2", "vec2", None, None)
complex128 = DType("complex128", np.dtype(np.complex128), "dvec2", "dvec2", "float64", None)

ALL: tuple[DType, ...] = (bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64,
                          float16, float32, float64, complex64, complex128)
_BY_NAME = {d.name: d for d in ALL}
_BY_NAME["bool_"] = bool_
_BY_NP = {d.np: d for d in ALL}
_VALUE = {"int8": int32, "int16": int32, "uint8": uint32, "uint16": uint32, "float16": float32}
_COMPONENT = {"complex64": float32, "complex128": float64}

default_float = float32
default_int = int32
default_complex = complex64


def as_dtype(x: Any) -> DType:
    """Any dtype spelling (DType, NumPy dtype or type, name, Python type) -> the kdsl DType.

    >>> as_dtype(float) is float32, as_dtype(int) is int32, as_dtype("uint8").name
    (True, True, 'uint8')
    """
    if isinstance(x, DType):
        return x
    if x is float:
        return default_float
    if x is int:
        return default_int
    if x is bool:
        return bool_
    if x is complex:
        return default_complex
    if isinstance(x, str) and x in _BY_NAME:
        return _BY_NAME[x]
    carried = _carried_dtype(x)
    if carried is not None:
        return carried
    try:
        npd = np.dtype(x)
    except TypeError:
        raise TypeError(f"{x!r} is not a dtype kdsl knows; use one of {', '.join(d.name for d in ALL)}") from None
    if not npd.isnative:  # big-endian data is converted on upload; the element type is the same
        npd = npd.newbyteorder("=")
    if npd not in _BY_NP:
        raise TypeError(f"dtype {npd} is not supported by kdsl{_UNSUPPORTED.get(npd.kind, _instead(npd))}")
    return _BY_NP[npd]


def _carried_dtype(x: Any) -> DType | None:
    """The kdsl dtype in ``x.dtype`` when ``x`` (a class or an object, not an array) carries one: NumPy reads a
    ``dtype`` attribute holding a NumPy dtype, but refuses one holding kdsl's, so kdsl reads that itself."""
    carried = getattr(x, "dtype", None)
    return carried if isinstance(carried, DType) and not hasattr(x, "shape") else None


# The kdsl way for each kind of NumPy dtype without a device dtype (kd.object_, kd.str_, kd.datetime64...)
_UNSUPPORTED = {
    "O": ": kdsl arrays hold numbers; keep Python objects in NumPy arrays or lists, and upload their numbers",
    "U": ": kdsl arrays hold numbers; keep strings on the host (NumPy, lists) and upload codes or lengths",
    "S": ": kdsl arrays hold numbers; view bytes as uint8 (np.frombuffer(b, np.uint8)) and upload those",
    "V": ": kdsl arrays hold numbers; upload each field of a structured array as its own array",
    "M": ": store datetimes as int64 counts of a unit (d.astype('datetime64[ns]').astype(np.int64)) and convert "
         "back on the host",
    "m": ": store durations as int64 counts of a unit (t.astype('timedelta64[ns]').astype(np.int64)) and convert "
         "back on the host",
}


def _instead(npd: np.dtype) -> str:
    if npd.kind in "fc" and npd.itemsize > 16 - 8 * (npd.kind == "f"):  # longdouble, clongdouble
        return f": kdsl has no extended precision; use {'float64' if npd.kind == 'f' else 'complex128'}"
    return f"; supported: {', '.join(d.name for d in ALL)}"


def scalar_dtype(value: Any) -> DType:
    """The dtype kdsl gives a Python scalar when it becomes an array on its own (``kd.asarray(1.5)``)."""
    if isinstance(value, (bool, np.bool_)):
        return bool_
    if isinstance(value, np.generic):
        return as_dtype(value.dtype)
    if isinstance(value, int):
        return default_int
    if isinstance(value, float):
        return default_float
    if isinstance(value, complex):
        return default_complex
    raise TypeError(f"cannot make an array element of {type(value).__name__} {value!r}; "
                    "use bool, int, float, complex or a NumPy scalar")


def require(dtype: DType, features: set[str], device_name: str) -> None:
    """Raise a clear error when the device cannot store ``dtype``."""
    if dtype.feature is not None and dtype.feature not in features:
        raise TypeError(f"dtype {dtype.name} needs the device feature '{dtype.feature}', which {device_name} "
                        f"does not have; use another dtype (e.g. float32 or int32)")


class _CallableModule(types.ModuleType):
    """This module, also NumPy's ``np.dtype`` for ported code: ``kd.dtype('float32')`` is ``kd.float32`` and
    ``isinstance(a.dtype, kd.dtype)`` holds (``kd.dtype.float32`` etc. still name this module's contents)."""

    def __call__(self, dtype: Any, align: bool = False, copy: bool = False) -> DType | np.dtype:
        """``kd.dtype(x)`` is kdsl's DType; one of another byte order (``kd.dtype('>u4')``) stays NumPy's
        dtype, so the readers that go through NumPy (``kd.frombuffer(buf, kd.dtype('>u4'))``, ``fromfile``) read
        big-endian bytes as NumPy does (kdsl's DType has no byte order); arrays made with it are native.

        >>> import kdsl as kd, numpy as np
        >>> kd.dtype("float32") is kd.float32, kd.dtype(">u4")
        (True, dtype('>u4'))
        >>> kd.frombuffer(np.array([2051, 28], dtype=">u4").tobytes(), dtype=kd.dtype(">u4")).tolist()
        [2051, 28]
        """
        if not isinstance(dtype, DType):
            try:
                npd = np.dtype(dtype)
            except (TypeError, ValueError):  # not NumPy's (a kdsl dtype in a .dtype attribute): as_dtype decides
                npd = None
            if npd is not None and not npd.isnative:
                return npd
        return as_dtype(dtype)

    def __instancecheck__(self, obj: Any) -> bool:
        return isinstance(obj, DType) or (isinstance(obj, np.dtype) and not obj.isnative)  # (what __call__ gives)

    def __getitem__(self, scalar: Any) -> Any:
        """``kd.dtype[kd.float64]`` in a ported annotation: NumPy's ``np.dtype[np.float64]`` (a kdsl dtype stands
        for its scalar type), so ``def f(x: kd.ndarray[Any, kd.dtype[kd.float64]])`` runs as NumPy's.

        >>> import kdsl as kd
        >>> kd.dtype[kd.float64]
        numpy.dtype[numpy.float64]
        """
        return np.dtype[scalar.np.type if isinstance(scalar, DType) else scalar]  # type: ignore[misc]


sys.modules[__name__].__class__ = _CallableModule
