"""Questions about dtypes answered without data: NumPy's ``min_scalar_type common_type mintypecode typename``.

``min_scalar_type`` returns a kdsl DType where NumPy returns a dtype (the DType compares equal to it, and
``np.dtype(kd_dtype)`` is NumPy's); ``common_type`` returns NumPy's scalar type, as NumPy's does, so ported
checks such as ``np.common_type(a) is np.float64`` hold. ``mintypecode`` and ``typename`` work on NumPy's
one-letter type codes and return strings, exactly as NumPy's do.

Example:
    >>> import kdsl as kd
    >>> kd.min_scalar_type(10), kd.common_type(kd.arange(3)), kd.mintypecode("if"), kd.typename("d")
    (kdsl.uint8, <class 'numpy.float64'>, 'f', 'double precision')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array


def _as_numpy_dtype(x: Any) -> np.dtype:
    return x.np if isinstance(x, dt.DType) else np.dtype(x)


def min_scalar_type(a: Any, /) -> dt.DType:
    """The smallest dtype that holds the scalar ``a`` (NumPy's ``np.min_scalar_type``: ``10`` -> uint8,
    ``-1`` -> int8, ``1.0`` -> float16); an array's own dtype for an array.

    >>> import kdsl as kd
    >>> kd.min_scalar_type(-1), kd.min_scalar_type(1e50), kd.min_scalar_type(kd.zeros(3))
    (kdsl.int8, kdsl.float64, kdsl.float32)
    >>> kd.min_scalar_type(kd.asarray([1, 200, 3]).max())
    kdsl.uint8
    """
    if isinstance(a, Array):
        if a.ndim:
            return a.dtype  # NumPy's answer for an array that is not 0-d
        a = a.numpy()  # a 0-d one (a NumPy scalar's stand-in) is read back: its value decides, as NumPy's
    return dt.as_dtype(np.min_scalar_type(a))


def common_type(*arrays: Any) -> type[np.inexact]:
    """The inexact type all ``arrays`` convert to, as NumPy's scalar type (NumPy's ``np.common_type``: integers
    count as float64; float16 stays float16). It is a type, not a dtype, as NumPy's: ``common_type(a) is
    np.float64`` holds, and ``a.astype(common_type(a))`` takes it as any dtype argument.

    >>> import kdsl as kd, numpy as np
    >>> kd.common_type(kd.zeros(2, dtype=kd.float16), kd.zeros(2, dtype=kd.float32))
    <class 'numpy.float32'>
    >>> kd.common_type(kd.arange(3)) is np.float64
    True
    """
    dtypes = [a.dtype.np if isinstance(a, Array) else np.asarray(a).dtype for a in arrays]
    return np.common_type(*[np.empty(0, d) for d in dtypes])


def mintypecode(typechars: Iterable[Any], typeset: str = "GDFgdf", default: str = "d") -> str:
    """The type code in ``typeset`` that every type in ``typechars`` casts to safely (NumPy's
    ``np.mintypecode``); ``typechars`` may hold type codes, arrays or dtypes.

    >>> import kdsl as kd
    >>> kd.mintypecode(["d", "f", "S"]), kd.mintypecode([kd.ones(1, dtype=kd.complex64)])
    ('d', 'F')
    """
    codes = typechars if isinstance(typechars, str) else [
        t.dtype.np.char if isinstance(t, Array) else _as_numpy_dtype(t).char if not isinstance(t, str) else t
        for t in typechars]
    return np.mintypecode(codes, typeset, default)


def typename(char: str) -> str:
    """The description of a NumPy type code (NumPy's ``np.typename``).

    >>> import kdsl as kd
    >>> kd.typename("f"), kd.typename("b")
    ('single precision', 'signed char')
    """
    name: str = np.typename(char)  # type: ignore[call-overload]  # (NumPy types it per literal code)
    return name
