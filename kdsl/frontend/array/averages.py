"""Weighted means and ranges: ``average`` and ``ptp`` (NumPy's), as fused products and reductions.

Synchronisation: ``average`` with ``weights`` reads back one bool (whether some weight sum is zero, which NumPy
reports as ``ZeroDivisionError``); nothing else does.

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([[1.0, 2.0], [3.0, 5.0]])
    >>> kd.average(a, axis=1, weights=kd.asarray([3.0, 1.0])).tolist(), kd.ptp(a, axis=0).tolist()
    ([1.25, 3.5], [2.0, 3.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array, as_array_beside, asarray
from kdsl.frontend.array.reduction_where import into
from kdsl.frontend.array.reductions import any as kany
from kdsl.frontend.array.reductions import max as kmax
from kdsl.frontend.array.reductions import mean, reduce_axes
from kdsl.frontend.array.reductions import min as kmin
from kdsl.frontend.array.reductions import sum as ksum
from kdsl.frontend.array.shape_arguments import host_length
from kdsl.frontend.array.shape_ops import broadcast_values_to
from kdsl.frontend.array.ufunc_arguments import written_into


def _axes(axis: Any, ndim: int) -> tuple[int, ...] | None:
    if axis is None:
        return None
    axis = host_length(axis)  # a 0-d integer axis (np.argmin(a.shape)), as NumPy's np.int64
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = tuple(mv.normalize_axis(k, ndim) for k in axes)  # int() would take "0" or 1.5: NumPy refuses them
    if len(set(out)) != len(out):
        raise ValueError("repeated axis")
    return out


def _fit(d: dt.DType, device: Any) -> dt.DType:
    """``d``, or float32 on a device without float64 (the widest float it has)."""
    return d if device.supports(d) else dt.float32


def _weights(w: Array, a: Array, axes: tuple[int, ...] | None) -> Array:
    """The weights shaped to broadcast against ``a`` (NumPy's rules: the shape of ``a``, or of its ``axis``)."""
    if w.shape == a.shape:
        return w
    if axes is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    if w.shape != tuple(a.shape[k] for k in axes):
        raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
    # weights list the axes in the order given; a's axes run in ascending order
    w = w.transpose(tuple(int(i) for i in np.argsort(axes)))
    return w.reshape(tuple(s if k in axes else 1 for k, s in enumerate(a.shape)))


def average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False, *,
            keepdims: bool = False) -> Array | tuple[Array, Array]:
    """The (weighted) mean of ``a`` along ``axis`` (an int, a tuple, or None for all), NumPy's ``average``.

    Without ``weights`` it is :func:`mean`; with them ``sum(a * w) / sum(w)`` in ``result_type(a, w)`` (at
    least float64 for integer or bool ``a``; float32 on a device without float64). ``returned=True`` also
    gives the sum of the weights (the element count without weights), broadcast to the result's shape.
    Raises ``ZeroDivisionError`` when some weights sum to zero, which reads back one bool (a sync).

    >>> import kdsl as kd
    >>> avg, wsum = kd.average(kd.asarray([1, 2, 4]), weights=kd.asarray([1, 1, 2]), returned=True)
    >>> avg.item(), wsum.item()
    (2.75, 4.0)
    """
    x = as_array(a)
    axes = _axes(axis, x.ndim)
    if weights is None:
        avg = mean(x, axis=axes, keepdims=keepdims)
        scl = asarray(x.size / avg.size, dtype=avg.dtype, device=x.device)  # NumPy's ZeroDivisionError if empty
    else:
        w = _weights(as_array_beside(weights, x, x.device), x, axes)  # a float list at a64's precision
        if x.dtype.is_int or x.dtype is dt.bool_:
            rd = dt.as_dtype(np.result_type(x.dtype.np, w.dtype.np, np.float64))
        else:
            rd = dt.as_dtype(np.result_type(x.dtype.np, w.dtype.np))
        rd = _fit(rd, x.device)
        wb = broadcast_values_to(w, x.shape).astype(rd)
        scl = ksum(wb, axis=axes, dtype=rd, keepdims=keepdims)
        if scl.size and bool(kany(scl == 0.0)):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = ksum(x.astype(rd) * wb, axis=axes, dtype=rd, keepdims=keepdims) / scl
    if not returned:
        return avg
    return avg, (scl if scl.shape == avg.shape else broadcast_values_to(scl, avg.shape))


def ptp(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Array:
    """Range of values (maximum minus minimum) along ``axis``, in ``a``'s dtype (integers wrap, as NumPy's).

    >>> import kdsl as kd
    >>> kd.ptp(kd.asarray([[4, 9, 2], [1, 7, 3]]), axis=1).tolist()
    [7, 6]
    """
    x = as_array(a)
    # a 0-d array takes axis 0 or -1 as NumPy's reductions do (nothing reduced): reduce_axes checks that
    axes = _axes(axis, x.ndim) if x.ndim or axis is None else reduce_axes(host_length(axis), 0)
    hi = kmax(x, axis=axes, keepdims=keepdims)  # first, as NumPy's: an empty bool array is its ValueError
    if out is not None:  # NumPy: the maximum written into out, then subtract(out, minimum, out=out)
        return _range_into(into(hi, out), kmin(x, axis=axes, keepdims=keepdims))
    if x.dtype is dt.bool_:
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the "
                        "`^` operator, or the logical_xor function instead.")
    return hi - kmin(x, axis=axes, keepdims=keepdims)


def _range_into(hi: Array, lo: Array) -> Array:
    """``hi - lo`` written into ``hi`` (the ``out`` the maximum went into) under subtract's ``same_kind`` rule:
    the difference is taken in the promotion of out's dtype with the data's, so int8 data into a float64 ``out``
    does not wrap, a float result into an integer ``out`` is NumPy's UFuncTypeError and a bool ``out`` of bool
    data is subtract's TypeError."""
    return written_into(hi - lo, hi, True, "same_kind", "subtract")


__all__ = ["average", "ptp"]
