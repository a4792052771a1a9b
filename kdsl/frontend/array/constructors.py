"""Matrix and range constructors: ``eye identity logspace geomspace diag diagonal trace tril triu``.

``diagonal`` is a zero-copy strided view; ``tril``/``triu``/``diag`` are lazy ``where`` over index generators
(they fuse into their consumers); ``logspace``/``geomspace`` are computed like NumPy's, in float64 on the host
(as :func:`kdsl.linspace` is), and uploaded once.

Example:
    >>> import kdsl as kd
    >>> m = kd.arange(9).reshape(3, 3)
    >>> kd.diagonal(m).tolist(), kd.triu(m, 1).tolist(), int(kd.trace(m))
    ([0, 4, 8], [[0, 1, 2], [0, 0, 5], [0, 0, 0]], 12)
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import promotion
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array, asarray, iota
from kdsl.frontend.array.creation_keywords import check_like, check_order
from kdsl.frontend.array.host_dtypes import typed_range_dtype
from kdsl.frontend.array.memory_order import fortran, fortran_copy
from kdsl.frontend.array.ops import apply, const_node, where
from kdsl.frontend.array.padding import pad
from kdsl.frontend.array.reductions import sum as ksum
from kdsl.frontend.array.shape_arguments import host_length
from kdsl.ir.graph import Node
from kdsl.ir.view import View


def _check_eye_dims(n, m) -> tuple[int, int]:
    """eye's sizes as NumPy checks them: ints (TypeError), not negative (ValueError)."""
    n, m = host_length(n), host_length(m)
    for v in (n, m):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"'{type(v).__name__}' object cannot be interpreted as an integer (eye's n and m are "
                            "ints)")
    if n < 0 or m < 0:
        raise ValueError(f"negative dimensions are not allowed: eye({n}, {m})")
    return int(n), int(m)


def eye(N: int, M: int | None = None, k: int = 0, dtype=float, order="C", *, device=None, like=None) -> Array:
    """The ``n`` x ``m`` identity (ones on diagonal ``k``), generated lazily on the device.

    >>> import kdsl as kd
    >>> kd.eye(-2)
    Traceback (most recent call last):
    ...
    ValueError: negative dimensions are not allowed: eye(-2, -2)
    """
    check_order("eye", order, "CF")
    check_like("eye", like)
    n, m = _check_eye_dims(N, N if M is None else M)
    k = operator.index(k)
    if order != "C" and fortran(order):  # NumPy's Fortran-ordered identity
        return fortran_copy(eye(n, m, k, dtype, device=device))
    rows, cols = iota((n, m), 0, device), iota((n, m), 1, device)
    return apply("eq", cols - rows, k).astype(float if dtype is None else dtype)  # None: float32


def identity(n: int, dtype: Any = None, *, like: Any = None, device: Any = None) -> Array:
    """The ``n`` x ``n`` identity matrix (float32 unless ``dtype`` says otherwise; ``like`` as :func:`kdsl.eye`)."""
    return eye(n, dtype=dtype, device=device, like=like)


def _host_range(values: np.ndarray, dtype: Any, device: Any, work: Any = None) -> Array:
    """NumPy's float64 (or complex128) values in ``dtype``; without one, the dtype of kdsl array endpoints
    (``work``) or else kdsl's default float or complex."""
    default = dt.default_complex if values.dtype.kind == "c" else dt.default_float
    d = (work or default) if dtype is None else dt.as_dtype(dtype)
    if dtype is None and values.dtype.kind == "c" and d.kind != "c":  # a complex result of real kdsl endpoints
        d = dt.complex128 if d is dt.float64 else dt.default_complex
    with np.errstate(all="ignore"):
        return asarray(values.astype(d.np), device=device)


def _host_endpoints(*values: Any) -> tuple[list[Any], Any, Any]:
    """Endpoints (and ``base``) on the host, NumPy's inputs: kdsl arrays among them (``np.logspace(np.log10(
    x.min()), np.log10(x.max()), 20)``; np.logspace of them would dispatch back here) are read back, and give
    the result's dtype (their float dtype, as :func:`kdsl.linspace` keeps it) and device."""
    arrays = [v for v in values if isinstance(v, Array)]
    if not arrays:
        return list(values), None, None
    work = promotion.promote(*[a.dtype for a in arrays])
    if work.kind not in "fc":
        work = dt.default_float
    return [v.numpy() if isinstance(v, Array) else v for v in values], work, arrays[0].device


def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: Any = 10.0,
             dtype: Any = None, axis: int = 0, *, device: Any = None) -> Array:
    """``base ** linspace(start, stop, num)`` (float32 unless ``dtype``, kdsl array endpoints or typed host ones,
    ``np.float64(x)``, say otherwise).

    >>> import kdsl as kd
    >>> kd.logspace(0, 3, 4).tolist()
    [1.0, 10.0, 100.0, 1000.0]
    >>> x = kd.asarray([2.0, 500.0], dtype=kd.float64)
    >>> kd.logspace(kd.log10(x.min()), kd.log10(x.max()), 3).round(6).tolist()
    [2.0, 31.622777, 500.0]
    """
    (start, stop, base), work, dev = _host_endpoints(start, stop, base)
    values = np.logspace(start, stop, num, endpoint, base, axis=axis)
    return _host_range(values, dtype, device or dev, work or typed_range_dtype(values, (start, stop, base), device))


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
              axis: int = 0, *, device: Any = None) -> Array:
    """``num`` numbers from ``start`` to ``stop`` spaced evenly on a log scale (kdsl array endpoints are read
    back, as :func:`logspace`'s).

    >>> import kdsl as kd
    >>> kd.geomspace(1, 1000, 4).tolist()
    [1.0, 10.0, 100.0, 1000.0]
    """
    (start, stop), work, dev = _host_endpoints(start, stop)
    # NumPy computes in the result type of the endpoints and ``dtype``: a complex dtype makes real endpoints a
    # spiral (geomspace(-1, 1, 3, dtype=complex) passes through 1j, not NaN)
    wide = np.complex128 if dtype is not None and dt.as_dtype(dtype).kind == "c" else None
    values = np.geomspace(start, stop, num, endpoint, dtype=wide, axis=axis)
    return _host_range(values, dtype, device or dev, work or typed_range_dtype(values, (start, stop), device))


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    """The diagonal ``offset`` of the 2-d slices over ``axis1``/``axis2``, as the last axis (a strided view:
    nothing is copied; writes into ``a`` show in it, as in NumPy's; NumPy's is read-only, and writes into kdsl's
    do not reach ``a``: it keeps its own values from then on).

    >>> import kdsl as kd
    >>> kd.diagonal(kd.arange(6).reshape(2, 3), 1).tolist()
    [1, 5]
    """
    x, offset = as_array(a), operator.index(host_length(offset))
    if x.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    i, j = mv.normalize_axis(axis1, x.ndim, "axis1"), mv.normalize_axis(axis2, x.ndim, "axis2")
    if i == j:
        raise ValueError("axis1 and axis2 cannot be the same")
    n1, n2 = x.shape[i], x.shape[j]
    k = max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))
    start1, start2 = (0, offset) if offset >= 0 else (-offset, 0)
    base, view = mv.view_base(x._node)
    keep = [ax for ax in range(x.ndim) if ax not in (i, j)]
    start = view.offset + (start1 * view.strides[i] + start2 * view.strides[j] if k else 0)
    new = View(tuple(view.shape[ax] for ax in keep) + (k,),
               tuple(view.strides[ax] for ax in keep) + (view.strides[i] + view.strides[j],), start)
    out = Array(mv.view_node(base, new.canonical()))
    if x is a:  # NumPy's view: writes into a show in it
        out._follow(lambda: x, lambda now: diagonal(now, offset, axis1, axis2), x)
    return out


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None, out: Any = None) -> Array:
    """Sum of the diagonal ``offset`` (over the last axis of :func:`diagonal`); NumPy's result dtype; ``out`` (a
    kdsl array) takes the result.

    >>> import kdsl as kd
    >>> float(kd.trace(kd.eye(3)))
    3.0
    """
    return ksum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


class BandDimensionError(ValueError, TypeError):
    """``tril``/``triu`` of a 0-d array: NumPy fails with a TypeError (its ``tri()`` called without ``N``); the
    error is a ValueError too, for what it is (the input has too few dimensions)."""


def _band(x: Array, k: int, lower: bool) -> Array:
    if x.ndim < 1:
        raise BandDimensionError(f"{'tril' if lower else 'triu'} needs an array of at least 1 dimension; "
                                 "got a 0-d array")
    shape = x.shape[-2:] if x.ndim >= 2 else x.shape * 2  # a 1-d row as NumPy's: repeated into (n, n)
    rows, cols = iota(shape, 0, x.device), iota(shape, 1, x.device)
    keep = (cols - rows <= k) if lower else (cols - rows >= k)
    return where(keep, x, Array(_zero(x)))


def _zero(x: Array) -> Node:
    return const_node(0, x.dtype, x.device)


def _offset(k: Any) -> int:
    """A diagonal offset ``k`` as an int; text is NumPy's TypeError (``int('1')`` would take it)."""
    if isinstance(k, (str, bytes)):
        raise TypeError(f"the diagonal offset k must be an integer, not {type(k).__name__} ({k!r})")
    return int(k)


def tril(m: Any, k: int = 0) -> Array:
    """``m`` with the elements above diagonal ``k`` zeroed (the last two axes).

    >>> import kdsl as kd
    >>> kd.tril(kd.ones((2, 3), dtype=kd.int32)).tolist()
    [[1, 0, 0], [1, 1, 0]]
    """
    return _band(as_array(m), _offset(k), lower=True)


def triu(m: Any, k: int = 0) -> Array:
    """``m`` with the elements below diagonal ``k`` zeroed (the last two axes).

    >>> import kdsl as kd
    >>> kd.triu(kd.ones((3, 2), dtype=kd.int32), -1).tolist()
    [[1, 1], [1, 1], [0, 1]]
    >>> kd.triu(kd.asarray([1, 2, 3])).tolist()  # a 1-d array: its rows, as NumPy's
    [[1, 2, 3], [0, 2, 3], [0, 0, 3]]
    """
    return _band(as_array(m), _offset(k), lower=False)


def diag(v: Any, k: int = 0) -> Array:
    """The diagonal ``k`` of a 2-d array, or a 2-d array with the 1-d ``v`` on diagonal ``k``.

    >>> import kdsl as kd
    >>> kd.diag(kd.asarray([1, 2]), 1).tolist()
    [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    """
    x, k = as_array(v), operator.index(host_length(k))  # k may be a 0-d integer array, as NumPy's
    if x.ndim == 2:
        return diagonal(x, k)
    if x.ndim != 1:
        raise ValueError(f"diag takes a 1-d or 2-d array, got {x.ndim} dimensions")
    m = x.shape[0]
    n = m + abs(k)
    full = pad(x, (0, abs(k)))  # element i of row i (k >= 0) or of column i (k < 0)
    vals = full.reshape(n, 1) if k >= 0 else full.reshape(1, n)
    rows, cols = iota((n, n), 0, x.device), iota((n, n), 1, x.device)
    return where(cols - rows == k, vals, Array(_zero(x)))
