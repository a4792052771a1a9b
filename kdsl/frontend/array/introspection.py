"""Questions about arrays and dtypes that need no computation: ``ndim shape size isscalar issubdtype
promote_types``, and ``array_equiv`` (a lazy comparison), NumPy's names and semantics.

The metadata functions read an Array's shape and dtype (host data: NumPy's answer, nothing is uploaded).

Example:
    >>> import kdsl as kd
    >>> a = kd.ones((2, 3))
    >>> kd.ndim(a), kd.shape(a), kd.size(a, axis=1), kd.isscalar(1.5), kd.isscalar(a)
    (2, (2, 3), 3, True, False)
    >>> kd.promote_types(kd.int8, kd.uint8), kd.issubdtype(kd.float32, kd.float32)
    (kdsl.int16, True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import promotion
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_arrays


def ndim(a: Any) -> int:
    """The number of dimensions of ``a`` (an Array, or host data such as nested lists).

    >>> import kdsl as kd
    >>> kd.ndim(kd.zeros((2, 3, 4))), kd.ndim([[1, 2]]), kd.ndim(5)
    (3, 2, 0)
    """
    return a.ndim if isinstance(a, Array) else int(np.ndim(a))


def shape(a: Any) -> tuple[int, ...]:
    """The shape of ``a`` (an Array, or host data such as nested lists).

    >>> import kdsl as kd
    >>> kd.shape(kd.zeros((2, 3))), kd.shape([1, 2, 3]), kd.shape(1.0)
    ((2, 3), (3,), ())
    """
    return a.shape if isinstance(a, Array) else tuple(np.shape(a))


def size(a: Any, axis: int | tuple[int, ...] | None = None) -> int:
    """The number of elements of ``a``, or along ``axis`` (an int or a tuple of ints: the product of those
    axes' lengths, as NumPy 2.4's ``np.size``).

    >>> import kdsl as kd
    >>> kd.size(kd.zeros((2, 3, 4))), kd.size(kd.zeros((2, 3, 4)), -1), kd.size(kd.zeros((2, 3, 4)), (0, 2))
    (24, 4, 8)
    """
    if not isinstance(a, Array):
        return int(np.size(a, axis))
    if axis is None:
        return a.size
    return math.prod(a.shape[k] for k in mv.normalize_axes(axis, a.ndim))


def isscalar(element: Any) -> bool:
    """Whether ``element`` is a scalar (Python number, str, bytes or NumPy scalar); arrays - a kdsl Array of
    any shape, 0-d ones included - are not (NumPy's rule).

    >>> import kdsl as kd, numpy as np
    >>> kd.isscalar(3), kd.isscalar(np.float32(1)), kd.isscalar(kd.asarray(3)), kd.isscalar([3])
    (True, True, False, False)
    """
    return False if isinstance(element, Array) else bool(np.isscalar(element))


# NumPy's abstract scalar types, the second argument of issubdtype (``kd.issubdtype(x.dtype, kd.floating)``):
# NumPy's own classes, since kdsl dtypes answer to NumPy's hierarchy.
generic = np.generic
number = np.number
integer = np.integer
signedinteger = np.signedinteger
unsignedinteger = np.unsignedinteger
inexact = np.inexact
floating = np.floating
complexfloating = np.complexfloating


def _np_dtype_or_type(x: Any) -> Any:
    """A kdsl DType as its NumPy dtype; anything else (NumPy dtypes, abstract types such as ``np.floating``,
    Python types, names) unchanged for NumPy to interpret."""
    return x.np if isinstance(x, dt.DType) else x


def issubdtype(arg1: Any, arg2: Any) -> bool:
    """Whether ``arg1`` is lower than or equal to ``arg2`` in NumPy's type hierarchy; kdsl dtypes are the
    NumPy dtypes of the same name (``kd.issubdtype(kd.float32, np.floating)`` is True).

    >>> import kdsl as kd, numpy as np
    >>> kd.issubdtype(kd.int8, kd.integer), kd.issubdtype(kd.float32, kd.float64), kd.issubdtype("f4", float)
    (True, False, False)
    """
    return bool(np.issubdtype(_np_dtype_or_type(arg1), _np_dtype_or_type(arg2)))


def promote_types(type1: Any, type2: Any) -> dt.DType:
    """The smallest dtype both ``type1`` and ``type2`` can be safely cast to (NumPy's table), as a kdsl dtype.
    Python ``float``/``int`` mean kdsl's defaults (float32/int32), as everywhere in kdsl.

    >>> import kdsl as kd
    >>> kd.promote_types(kd.int16, kd.float16), kd.promote_types("uint8", "int64"), kd.promote_types(int, float)
    (kdsl.float32, kdsl.int64, kdsl.float64)
    """
    if type1 is None or type2 is None:  # np.dtype(None) is float64, but np.promote_types refuses None
        raise TypeError("did not understand one of the types; promote_types takes two dtypes, got None")
    return promotion.promote(dt.as_dtype(type1), dt.as_dtype(type2))


def array_equiv(a1: Any, a2: Any) -> Array:
    """Whether ``a1`` and ``a2`` broadcast to one shape with equal elements: a lazy 0-d bool array (NumPy gives
    a bool; ``bool(...)`` reads it). Shapes that do not broadcast give False without computing anything.

    >>> import kdsl as kd
    >>> bool(kd.array_equiv([1, 2], [[1, 2], [1, 2]])), bool(kd.array_equiv([1, 2], [1, 2, 3]))
    (True, False)
    """
    dev = ops.device_of((a1, a2))
    a, b = as_arrays(a1, a2, device=dev)
    try:
        ops.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        return Array(ops.const_node(False, dt.bool_, dev))
    return (a == b).all()
