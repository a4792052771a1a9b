"""``finfo`` and ``iinfo``: the machine limits of a dtype, as the array API standard and NumPy give them.

The standard's fields are Python numbers; NumPy's other ``finfo`` attributes are NumPy's own. As NumPy's, the
objects print as ``finfo(resolution=..., min=..., max=..., dtype=float32)`` / ``iinfo(min=..., max=...,
dtype=int16)``, one object per dtype is returned each time, a scalar or an array stands for its dtype, and a
dtype of the wrong kind (or no dtype at all) is a ValueError (also a TypeError, which kdsl raised before).

Example:
    >>> import kdsl as kd
    >>> kd.iinfo(kd.int16)
    iinfo(min=-32768, max=32767, dtype=int16)
    >>> kd.finfo(kd.float32) is kd.finfo(kd.ones(3)), kd.iinfo(7).dtype
    (True, kdsl.int32)
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array

# NumPy's finfo attributes beyond the standard's, answered as NumPy's (its scalars of the dtype, or ints)
NUMPY_FINFO = ("epsneg", "tiny", "resolution", "smallest_subnormal", "precision", "iexp", "machep", "maxexp",
               "minexp", "negep", "nexp", "nmant")


class LimitsDTypeError(ValueError, TypeError):
    """``finfo``/``iinfo`` of something that is not a dtype of their kind: NumPy's ValueError, and a TypeError
    as kdsl raised before (code catching either keeps working)."""


class finfo_object(NamedTuple):  # noqa: N801 - the standard's name for what finfo returns
    """Machine limits of a floating-point dtype (the standard's ``finfo_object``). The standard's fields are
    Python floats (``eps``, ``max``, ``min``, ``smallest_normal``; NumPy gives scalars of the dtype, which print
    as float32 where kdsl's print the same value as a Python float); NumPy's other attributes (``tiny``,
    ``resolution``, ``epsneg``, ``nmant``...) are NumPy's own values and types.

    >>> import kdsl as kd
    >>> kd.finfo(kd.float32).tiny, kd.finfo(kd.float32).resolution, kd.finfo(kd.float16).nmant
    (np.float32(1.1754944e-38), np.float32(1e-06), 10)
    """

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: dt.DType

    def __getattr__(self, name: str) -> Any:
        if name in NUMPY_FINFO:
            return getattr(np.finfo(self.dtype.np), name)
        raise AttributeError(f"'finfo_object' object has no attribute {name!r}")

    def __repr__(self) -> str:
        # NumPy's text: its fields print in the dtype's own precision (max=3.4028235e+38 for float32)
        return repr(np.finfo(self.dtype.np))

    def __str__(self) -> str:
        return str(np.finfo(self.dtype.np))


class iinfo_object(NamedTuple):  # noqa: N801 - the standard's name for what iinfo returns
    """Machine limits of an integer dtype (the standard's ``iinfo_object``; ``kind`` as NumPy's: ``'i'``/``'u'``)."""

    bits: int
    max: int
    min: int
    dtype: dt.DType

    @property
    def kind(self) -> str:
        return str(np.dtype(self.dtype.np).kind)

    def __repr__(self) -> str:
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype.name})"

    def __str__(self) -> str:
        return str(np.iinfo(self.dtype.np))


def _limits_dtype(x: Any) -> dt.DType:
    """The dtype ``x`` stands for: a dtype or type, an array (kdsl or NumPy), a scalar (NumPy's, or a Python
    number: kdsl's default for its type), or any object with a ``dtype`` attribute."""
    if isinstance(x, Array):
        return x.dtype
    if isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic):
        return dt.as_dtype(type(x))  # 12 -> int32 and 1.5 -> float32, as kd.asarray makes them
    if not isinstance(x, (type, str, dt.DType, np.dtype)) and hasattr(x, "dtype"):
        return _limits_dtype(x.dtype)  # NumPy scalars and arrays, and any object carrying a dtype
    try:
        return dt.as_dtype(x)
    except (TypeError, ValueError) as e:
        raise LimitsDTypeError(str(e)) from e


def finfo(type: Any, /) -> finfo_object:  # noqa: A002 - the standard's parameter name
    """Limits of a floating-point dtype (or of an array's or a scalar's dtype); complex dtypes give their
    components' (complex64: float32), as NumPy's.

    >>> import kdsl as kd
    >>> f = kd.finfo(kd.float16)
    >>> f.bits, f.max, f.dtype
    (16, 65504.0, kdsl.float16)
    """
    d = _limits_dtype(type).real_dtype
    if not d.is_float:
        raise LimitsDTypeError(f"data type {d.name} not inexact: finfo takes a floating-point dtype; "
                               "use kd.iinfo for integers")
    return _finfo_of(d)


@functools.cache
def _finfo_of(d: dt.DType) -> finfo_object:
    """One finfo object per dtype (NumPy returns the same object each time)."""
    info = np.finfo(d.np)
    return finfo_object(info.bits, float(info.eps), float(info.max), float(info.min), float(info.smallest_normal), d)


def iinfo(type: Any, /) -> iinfo_object:  # noqa: A002 - the standard's parameter name
    """Limits of an integer dtype (or of an array's or a scalar's dtype).

    >>> import kdsl as kd
    >>> kd.iinfo(kd.uint16).max, kd.iinfo(kd.int32).bits
    (65535, 32)
    """
    d = _limits_dtype(type)
    if not d.is_int:
        raise LimitsDTypeError(f"Invalid integer data type {d.name!r}: iinfo takes an integer dtype; "
                               "use kd.finfo for floating-point types")
    return _iinfo_of(d)


@functools.cache
def _iinfo_of(d: dt.DType) -> iinfo_object:
    """One iinfo object per dtype, as NumPy's."""
    info = np.iinfo(d.np)
    return iinfo_object(info.bits, int(info.max), int(info.min), d)
