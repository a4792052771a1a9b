"""NumPy's constructor form ``np.ndarray(shape, dtype=float, buffer=None, offset=0, strides=None, order=None)``
for ``kd.ndarray`` (which is :class:`kdsl.Array`): ``kd.ndarray((2, 3), dtype=float)`` is an array of that
shape, as ``kd.empty`` makes it (zeros, kdsl's default float32 for ``dtype=float``); with a ``buffer`` it holds
a copy of NumPy's view of the buffer (kdsl arrays live on the device, they cannot share host memory).

An integer is a length, as NumPy's (``kd.ndarray(3)`` has shape ``(3,)``); another number keeps its kdsl
meaning, ``kd.Array(2.5)`` a 0-d array (NumPy's scalar types' constructor, which ``statistics`` calls with the
Fraction or float it computed).

    >>> import kdsl as kd
    >>> kd.ndarray((2, 3)).shape, kd.ndarray(shape=4, dtype=kd.int8).dtype, kd.ndarray(3, float).shape
    ((2, 3), kdsl.int8, (3,))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.ir.graph import Node

NO_SHAPE: Any = type("NoShape", (), {"__repr__": lambda self: "<no shape>"})()  # Array() without arguments


def is_constructor_call(first: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether ``Array(first, *args, **kwargs)`` is NumPy's ``ndarray(shape, ...)`` (not a graph node or a
    lone number)."""
    if isinstance(first, (int, np.integer)) and not isinstance(first, (bool, np.bool_)):
        return True  # np.ndarray(3): shape (3,) (statistics converts Fractions and floats, never ints)
    return bool(args or kwargs) or first is NO_SHAPE or isinstance(first, (tuple, list))


def construct(first: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Node:
    """The node of ``Array(first, *args, **kwargs)`` as NumPy's ``ndarray(...)`` (``first`` NO_SHAPE: not
    given, the shape may come as ``shape=``)."""
    return constructed_node(*(() if first is NO_SHAPE else (first,)), *args, **kwargs)


def constructed_node(shape: Any = NO_SHAPE, dtype: Any = float, buffer: Any = None, offset: int = 0,
                     strides: Any = None, order: Any = None) -> Node:
    """The node of ``ndarray(shape, dtype, buffer, offset, strides, order)``, NumPy's arguments and errors."""
    from kdsl.frontend.array.creation import asarray, empty  # cycle: creation builds Arrays

    if shape is NO_SHAPE:
        raise TypeError("ndarray() missing required argument 'shape' (pos 1)")
    if buffer is None and strides is None:
        dims = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
        if any(int(n) < 0 for n in dims):
            raise ValueError("negative dimensions are not allowed")
        return empty(dims, dtype=dtype, order="C" if order is None else order)._n
    host = np.ndarray(shape, _numpy_dtype(dtype), buffer, offset, strides, order)  # NumPy's checks
    if buffer is None:  # strides without a buffer: NumPy's memory is uninitialised, kdsl's zeros
        host = np.zeros(host.shape, host.dtype)
    return asarray(np.array(host), dtype=dt.as_dtype(host.dtype))._n


def _numpy_dtype(dtype: Any) -> np.dtype:
    """``dtype`` as NumPy's dtype of kdsl's meaning (``float`` is float32, kdsl's default)."""
    return dt.as_dtype(float if dtype is None else dtype).np


__all__ = ["NO_SHAPE", "construct", "constructed_node", "is_constructor_call"]
