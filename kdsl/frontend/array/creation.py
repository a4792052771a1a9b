"""Making arrays: from host data (uploaded once), or as lazy generators that cost no upload and fuse into
whatever consumes them (``zeros``, ``full``, integer ``arange``, ``eye``).

Python data gets kdsl's default types: floats -> float32, ints -> int32 (NumPy arrays keep their dtype).
``empty`` returns zeros (a lazy constant: it allocates nothing until used).

Example:
    >>> import kdsl as kd
    >>> kd.asarray([1.5, 2.0]).dtype.name, kd.arange(4).tolist(), kd.eye(2).tolist()
    ('float32', [0, 1, 2, 3], [[1.0, 0.0], [0.0, 1.0]])
"""

from __future__ import annotations

import math

import numpy as np

from kdsl import dtype as dt
from kdsl.device import device as current_device
from kdsl.engine.realize import upload
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.ir.graph import Node


def _shape(shape) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    try:
        shape = tuple(int(n) for n in shape)
    except TypeError:
        raise TypeError(f"shape must be an int or a tuple of ints, got {shape!r}") from None
    if any(n < 0 for n in shape):
        raise ValueError(f"negative dimensions are not allowed: {shape}")
    return shape


def _host_dtype(x, arr: np.ndarray) -> dt.DType:
    """kdsl's dtype for host data: NumPy arrays keep theirs; Python floats/ints get the defaults."""
    if isinstance(x, (np.ndarray, np.generic)):
        return dt.as_dtype(arr.dtype)
    if arr.dtype == np.float64:
        return dt.default_float
    if arr.dtype == np.int64:
        return dt.default_int
    return dt.as_dtype(arr.dtype)


def asarray(x, dtype=None, device=None, copy=None) -> Array:
    """An Array from an Array, NumPy array, nested lists or a scalar (copied to the device once).
    ``copy=True`` always gives a new array; ``copy=False`` refuses (ValueError) whatever needs a copy: host
    data, a dtype change, another device (the array API standard's rule).

    >>> import kdsl as kd, numpy as np
    >>> kd.asarray(np.arange(3, dtype=np.int16)).dtype.name
    'int16'
    """
    dev = current_device(device)
    if copy is not None:
        return _asarray_copy(x, dtype, dev, bool(copy))
    if isinstance(x, Array):
        if x.device is not dev:
            x = asarray(x.numpy(), device=dev)
        return x if dtype is None else x.astype(dtype)
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"cannot make an array from {type(x).__name__}: {exc}") from None
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        raise TypeError(f"cannot make a kdsl array from data of dtype {arr.dtype}; use numbers or booleans")
    d = dt.as_dtype(dtype) if dtype is not None else _host_dtype(x, arr)
    dev.check(d)
    return Array(upload(arr, d, dev))


def _asarray_copy(x, dtype, dev, copy: bool) -> Array:
    if copy:
        out = asarray(x, dtype, dev)
        return out.copy() if out is x else out
    same = isinstance(x, Array) and x.device is dev and (dtype is None or dt.as_dtype(dtype) is x.dtype)
    if not same:
        raise ValueError("asarray(copy=False): this needs a copy (host data is always copied to the device; so "
                         "is a dtype or device change); pass copy=None to allow it")
    return x


def array(x, dtype=None, copy: bool = True, device=None) -> Array:
    """Like :func:`asarray`, but an existing Array is copied (NumPy's ``array``)."""
    if isinstance(x, Array) and copy:
        return asarray(x, dtype, device).copy()
    return asarray(x, dtype, device)


def full(shape, fill_value, dtype=None, device=None) -> Array:
    """An array of ``shape`` filled with ``fill_value`` (lazy: fused into its consumers, nothing uploaded)."""
    dev = current_device(device)
    if isinstance(fill_value, Array):
        fill_value = fill_value.item()
    d = dt.as_dtype(dtype) if dtype is not None else dt.scalar_dtype(fill_value)
    dev.check(d)
    node = ops.const_node(fill_value, d, dev)
    return Array(mv.broadcast_node(node, _shape(shape)))


def zeros(shape, dtype=None, device=None) -> Array:
    """Zeros of ``shape``; ``dtype=None`` is the default float (float32)."""
    return full(shape, 0, float if dtype is None else dtype, device)


def ones(shape, dtype=None, device=None) -> Array:
    """Ones of ``shape``; ``dtype=None`` is the default float (float32)."""
    return full(shape, 1, float if dtype is None else dtype, device)


def empty(shape, dtype=None, device=None) -> Array:
    """Like NumPy's ``empty``; kdsl returns zeros (a lazy constant costs nothing until used)."""
    return full(shape, 0, float if dtype is None else dtype, device)


def _like(a, dtype, shape):
    return (a.dtype if dtype is None else dtype), (a.shape if shape is None else shape)


def zeros_like(a, dtype=None, shape=None, *, device=None) -> Array:
    d, s = _like(asarray(a) if not isinstance(a, Array) else a, dtype, shape)
    return zeros(s, d, device if device is not None else getattr(a, "device", None))


def ones_like(a, dtype=None, shape=None, *, device=None) -> Array:
    d, s = _like(asarray(a) if not isinstance(a, Array) else a, dtype, shape)
    return ones(s, d, device if device is not None else getattr(a, "device", None))


def full_like(a, fill_value, dtype=None, shape=None, *, device=None) -> Array:
    d, s = _like(asarray(a) if not isinstance(a, Array) else a, dtype, shape)
    return full(s, fill_value, d, device if device is not None else getattr(a, "device", None))


def empty_like(a, dtype=None, shape=None, *, device=None) -> Array:
    return zeros_like(a, dtype, shape, device=device)


def iota(shape: tuple[int, ...], axis: int, device=None) -> Array:
    """int32 array whose element at index ``i`` is ``i[axis]`` (a lazy generator)."""
    dev = current_device(device)
    return Array(Node("iota", (), dt.int32, shape, axis, device=dev))


def arange(start, stop=None, step=1, dtype=None, device=None) -> Array:
    """Evenly spaced values in [start, stop) (NumPy's ``arange``; Python ints give int32, floats float32).

    >>> import kdsl as kd
    >>> kd.arange(2, 11, 3).tolist()
    [2, 5, 8]
    """
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ZeroDivisionError("arange: step must not be zero")
    n = max(0, math.ceil((stop - start) / step))
    if dtype is None:
        d = dt.default_float if any(isinstance(v, float) for v in (start, stop, step)) else dt.default_int
    else:
        d = dt.as_dtype(dtype)
    if d.is_float:  # NumPy computes float ranges in float64: do the same on the host for identical values
        return asarray(np.arange(start, stop, step, dtype=np.float64).astype(d.np), device=device)
    i = iota((n,), 0, device)
    return (i * int(step) + int(start)).astype(d) if (step, start) != (1, 0) else i.astype(d)


def linspace(start, stop, num: int = 50, endpoint: bool = True, dtype=None, device=None) -> Array:
    """``num`` evenly spaced values from ``start`` to ``stop`` (computed like NumPy, in float64 on the host)."""
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    values = np.linspace(start, stop, num, endpoint=endpoint)
    d = dt.default_float if dtype is None else dt.as_dtype(dtype)
    return asarray(values.astype(d.np), device=device)


def eye(n: int, m: int | None = None, k: int = 0, dtype=float, device=None) -> Array:
    """The ``n`` x ``m`` identity (ones on diagonal ``k``), generated lazily on the device."""
    m = n if m is None else m
    rows, cols = iota((n, m), 0, device), iota((n, m), 1, device)
    return ops.apply("eq", cols - rows, k).astype(float if dtype is None else dtype)  # None: float32
