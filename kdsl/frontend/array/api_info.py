"""The array API standard's data-type functions and inspection API: ``finfo iinfo isdtype result_type can_cast
astype broadcast_shapes`` and ``__array_namespace_info__`` (version 2024.12).

They answer from dtypes alone (nothing runs on the device); ``astype`` builds a lazy cast.

Example:
    >>> import kdsl as kd
    >>> kd.finfo(kd.float32).eps == 2.0 ** -23, kd.iinfo(kd.int8).min
    (True, -128)
    >>> kd.isdtype(kd.uint8, "unsigned integer"), kd.result_type(kd.int8, kd.uint8)
    (True, kdsl.int16)
    >>> kd.__array_namespace_info__().default_dtypes()["real floating"]
    kdsl.float32
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.device import Device, devices
from kdsl.device import device as current_device
from kdsl.dtype import promotion
from kdsl.dtype.byte_order import native_only, numpy_spelling
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array

# finfo/iinfo live in machine_limits.py; they are named here too, with the standard's other inspection functions
from kdsl.frontend.array.machine_limits import (  # noqa: F401 - re-exported
    NUMPY_FINFO,
    finfo,
    finfo_object,
    iinfo,
    iinfo_object,
)

API_VERSION = "2024.12"
# The versions whose namespace kdsl is (``x.__array_namespace__(api_version=...)`` accepts them).
API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")


def _dtype_of(x: Any) -> dt.DType:
    if isinstance(x, Array):
        return x.dtype
    if isinstance(x, (np.ndarray, np.generic)):  # NumPy arrays of any ndim and NumPy scalars are strong types
        return dt.as_dtype(x.dtype)
    return dt.as_dtype(x)


# The standard's kind names -> the NumPy kinds ('b', 'i', 'u', 'f') they cover.
_KINDS = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu", "real floating": "f",
    "complex floating": "c", "numeric": "iufc",
}


def _as_kd_dtype(x: Any, what: str) -> dt.DType:
    """A kdsl dtype, or a NumPy dtype or scalar type (``np.isdtype`` takes those), as a kdsl dtype; a string or
    any other object is a TypeError, as in NumPy (whose message starts kdsl's)."""
    if isinstance(x, dt.DType):
        return x
    if isinstance(x, np.dtype) or (isinstance(x, type) and issubclass(x, np.generic)):
        return dt.as_dtype(x)
    start = ("dtype argument must be a NumPy dtype, but it is a" if what == "dtype" else
             "kind argument must be comprised of NumPy dtypes or strings only, but is a")
    raise TypeError(f"{start} {type(x)}. isdtype takes a dtype as its {what} (kd.float32, np.float32, "
                    f"np.dtype('float32')), got {x!r}")


def isdtype(dtype: Any, kind: Any) -> bool:
    """Whether ``dtype`` is of ``kind``: a dtype, one of the standard's kind names (``'bool'``,
    ``'signed integer'``, ``'unsigned integer'``, ``'integral'``, ``'real floating'``, ``'complex floating'``,
    ``'numeric'``) or a tuple of those.

    >>> import kdsl as kd
    >>> kd.isdtype(kd.int8, ("integral", kd.float32)), kd.isdtype(kd.float16, "numeric")
    (True, True)
    """
    dtype = _as_kd_dtype(dtype, "dtype")
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, (dt.DType, np.dtype, type)):
        return dtype is _as_kd_dtype(kind, "kind")
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"kind argument is a string, but {kind!r} is not a known kind name (an unknown dtype "
                             f"kind; use one of {', '.join(map(repr, _KINDS))})")
        return dtype.kind in _KINDS[kind]
    raise TypeError(f"kind argument must be comprised of NumPy dtypes or strings only, but is a {type(kind)}. "
                    f"kind must be a dtype, a kind name or a tuple of them, got {kind!r}")


def result_type(*arrays_and_dtypes: Any) -> dt.DType:
    """The dtype NumPy's promotion gives these arrays (kdsl or NumPy, any ndim, 0-d included), dtypes,
    NumPy scalars and Python scalars (only Python scalars are weak, as in NumPy 2).

    >>> import kdsl as kd, numpy as np
    >>> kd.result_type(kd.int8, kd.int16), kd.result_type(kd.ones(2, dtype=kd.float16), 1.0)
    (kdsl.int16, kdsl.float16)
    >>> kd.result_type(np.array(1.0), kd.int8), kd.result_type(kd.asarray(2, dtype=kd.int64), np.uint8(1))
    (kdsl.float64, kdsl.int64)
    >>> kd.result_type(1, 2, 3), kd.result_type(kd.int8, 1, 2.5)
    (kdsl.int32, kdsl.float32)
    """
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    dtypes, scalars = [], []
    for x in arrays_and_dtypes:
        # np.float64 and np.complex128 subclass float and complex, but NumPy scalars are strong
        if isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic):
            scalars.append(x)
        else:
            dtypes.append(_dtype_of(x))
    if not dtypes:  # x + x has x's dtype: np.add needs two operands
        out = promotion.result_dtype(np.add, scalars[0], scalars[1 if len(scalars) > 1 else 0])
        rest = scalars[2:]
    else:
        out, rest = promotion.promote(*dtypes), scalars
    for s in rest:  # one weak scalar at a time: np.add takes two operands
        out = promotion.result_dtype(np.add, out, s)
    return out


def can_cast(from_: Any, to: Any, casting: str = "safe") -> bool:
    """Whether a value of ``from_`` (a dtype or an array) converts to ``to`` under ``casting`` (NumPy's rules;
    'safe' by default: without loss).

    >>> import kdsl as kd
    >>> kd.can_cast(kd.int8, kd.float32), kd.can_cast(kd.float32, kd.int32)
    (True, False)
    """
    return bool(np.can_cast(_cast_side(from_, _dtype_of), _cast_side(to, dt.as_dtype), casting=casting))  # type: ignore[arg-type]


def _cast_side(x: Any, as_kdsl: Any) -> np.dtype:
    """One side of :func:`can_cast` as a NumPy dtype: another byte order (``'>i8'``, a big-endian NumPy array)
    stays NumPy's, as ``casting='no'``/``'equiv'`` tell byte orders apart; everything else is kdsl's dtype."""
    if x is None:  # np.dtype(None) is float64, but np.can_cast refuses None
        raise TypeError("did not understand one of the types; 'None' not accepted")
    if isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic):
        raise TypeError("can_cast() does not support Python ints, floats, and complex because the result used to "
                        f"depend on the value; pass a dtype or a NumPy scalar, got {x!r}")
    if isinstance(x, np.ndarray) and not x.dtype.isnative:
        return x.dtype
    foreign = numpy_spelling(x)
    return foreign if foreign is not None else as_kdsl(x).np


def astype(x: Array, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Array:
    """``x`` as ``dtype`` (lazy). ``copy=False`` returns ``x`` itself when nothing changes.

    >>> import kdsl as kd
    >>> a = kd.asarray([1.7, -2.5])
    >>> kd.astype(a, kd.int32).tolist(), kd.astype(a, kd.float32, copy=False) is a
    ([1, -2], True)
    """
    if isinstance(x, (np.ndarray, np.generic)):  # NumPy's astype takes its arrays and scalars: uploaded as they are
        from kdsl.frontend.array.creation import asarray  # cycle: creation builds on this module

        x = asarray(x, device=device)
    if not isinstance(x, Array):
        raise TypeError(f"astype takes a kdsl Array, got {type(x).__name__}; use kd.asarray(x, dtype=...)")
    if device is not None and current_device(device) is not x.device:
        x = x.to_device(device)
    native_only(dtype, "astype")
    d = dt.as_dtype(dtype)
    if d is x.dtype:
        return x.copy() if copy else x
    return x.astype(d)


def broadcast_shapes(*shapes: Any) -> tuple[int, ...]:
    """The shape that arrays of ``shapes`` broadcast to (NumPy's rules).

    >>> import kdsl as kd
    >>> kd.broadcast_shapes((3, 1), (4,), ())
    (3, 4)
    """
    norm = [(int(s),) if isinstance(s, (int, np.integer)) else tuple(int(n) for n in s) for s in shapes]
    if any(n < 0 for s in norm for n in s):
        raise ValueError(f"negative dimensions are not allowed: {shapes}")
    return ops.broadcast_shapes(*norm) if norm else ()


def _all_devices() -> list[Device]:
    return devices()


class Info:
    """What ``kd.__array_namespace_info__()`` returns: the standard's inspection API."""

    def capabilities(self) -> dict[str, Any]:
        """kdsl has boolean-mask indexing (``x[mask]``, ``x[mask] = v``) and functions whose output shape
        depends on the data (``nonzero``, ``unique_*``, ``repeat`` with an array of counts); each of those reads
        one count back to the host (docs/masks.md). No limit on the number of dimensions.

        >>> import kdsl as kd
        >>> kd.__array_namespace_info__().capabilities()["boolean indexing"]
        True
        """
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": None}

    def default_device(self) -> Device:
        return current_device()

    def devices(self) -> list[Device]:
        return _all_devices()

    def default_dtypes(self, *, device: Any = None) -> dict[str, dt.DType]:
        """float32, complex64 and int32 (GPU-friendly); indices are int64 where the device has it (else
        int32)."""
        dev = current_device(device)
        return {"real floating": dt.default_float, "complex floating": dt.default_complex,
                "integral": dt.default_int,
                "indexing": dt.int64 if dev.supports(dt.int64) else dt.int32}

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, dt.DType]:
        """The standard's dtypes ``device`` can hold, by name, optionally only those of ``kind`` (as in
        :func:`isdtype`). float16 works in kdsl but is not one of the standard's dtypes, so it is not listed."""
        dev = current_device(device)
        return {d.name: d for d in dt.ALL
                if d is not dt.float16 and dev.supports(d) and (kind is None or isdtype(d, kind))}


def __array_namespace_info__() -> Info:
    """The standard's inspection API object (``capabilities``, ``default_device``, ``default_dtypes``,
    ``devices``, ``dtypes``)."""
    return Info()
