"""Median and quantiles with NumPy's semantics and its default "linear" method: ``median``, ``quantile`` and
``percentile``. Each sorts the reduced axes (merged into one last axis) on the device and interpolates
between the two order statistics around each quantile; a line holding a NaN gives NaN, as in NumPy (sorts
put NaNs last). The nan-ignoring variants are in nan_quantiles.py.

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([[1.0, 9.0, 3.0, 4.0], [5.0, 5.0, 6.0, 0.0]])
    >>> kd.median(a, axis=1).tolist(), kd.quantile(a, 0.5, axis=1).tolist()
    ([3.5, 5.0], [3.5, 5.0])
"""

from __future__ import annotations

import builtins
import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array import reduction_where as rw
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array
from kdsl.frontend.array.math import isnan, where
from kdsl.frontend.array.shape_ops import broadcast_values_to, stack
from kdsl.frontend.array.sorting import sort, sort_node
from kdsl.frontend.array.ufunc_errors import string_operand_error


def lines_last(x: Array, axis: Any) -> tuple[Array, tuple[int, ...]]:
    """``x`` with the reduced axes merged into one last axis; also the reduced axes."""
    axes = mv.normalize_axes(axis, x.ndim)
    kept = [k for k in range(x.ndim) if k not in axes]
    moved = x.transpose(tuple(kept + list(axes)))
    return moved.reshape(tuple(x.shape[k] for k in kept) + (math.prod(x.shape[k] for k in axes),)), axes


def _pick(s: Array, i: int) -> Array:
    return Array(mv.index_node(s._node, s.ndim - 1, i))


def _with_nan(s: Array, value: Array) -> Array:
    """NumPy's quantiles are NaN for lines holding a NaN (sorted last); a complex line's median is its last
    element then, as NumPy copies it (``nan+0j`` or ``1+nanj``)."""
    last = _pick(s, s.shape[-1] - 1)
    if s.dtype.kind == "c":
        return where(isnan(last), last.astype(value.dtype), value)
    if not s.dtype.is_float:
        return value
    return where(isnan(last), float("nan"), value)


def _sorted_lines(lines: Array) -> Array:
    """The lines (the last axis) sorted, complex ones in NumPy's lexicographic order (real part, then imaginary
    part, NaNs last), which NumPy's median takes its middle values from."""
    if lines.dtype.kind == "c":
        return sort(lines, axis=-1)
    return sort_node(lines, lines.ndim - 1, False, "values")


def keep_reduced_dims(out: Array, shape: tuple[int, ...], axes: tuple[int, ...], lead: tuple[int, ...]) -> Array:
    """``out`` (``lead`` axes, then the kept axes of ``shape``) with the reduced ``axes`` back as size 1."""
    return reshaped_result(out, lead + tuple(1 if k in axes else n for k, n in enumerate(shape)))


def reshaped_result(out: Array, shape: tuple[int, ...]) -> Array:
    """A new result array of ``shape`` on the temporary ``out``'s data, not a view of it: NumPy's result owns its
    data (``base`` None), and a 0-d one stands for a scalar (``m = kd.nanmedian(a); y = m; m += 1`` leaves y).

    >>> import kdsl as kd
    >>> reshaped_result(kd.ones(1) * 2, ()).base is None
    True
    """
    return Array(mv.reshape_node(out._n, shape))


def _host_q(q: Any) -> Any:
    """The quantiles as host values (they pick the order statistics on the host): a kdsl ``q`` such as
    ``kd.arange(10, 100, 10)`` is read back (a few values), or NumPy's dtype probe would dispatch to kdsl again."""
    if isinstance(q, Array):
        return q.numpy()
    if np.asarray(q).dtype.kind in "USO":  # quantile("x"): NumPy has no loop for text (its UFuncTypeError)
        raise string_operand_error(q)
    return q


def _real(a: Any) -> Array:
    """``a`` as an array of real numbers: complex data is NumPy's TypeError, raised before ``q`` is checked."""
    x = as_array(a)
    if x.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    return x


def _result_dtype(fn: Any, x: Array, q: Any) -> dt.DType:
    d = dt.as_dtype(fn(np.zeros(1, x.dtype.np), q).dtype)
    return d if x.device.supports(d) else dt.float32


def _nan_lines(x: Array, shape: tuple[int, ...], d: dt.DType) -> Array:
    """NaN for every empty line (NumPy's mean of nothing: ``nan+nanj`` for complex data)."""
    nan = complex(math.nan, math.nan) if d.kind == "c" else math.nan
    return broadcast_values_to(Array(ops.const_node(nan, d, x.device)), shape)


def quantile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
             method: str = "linear", keepdims: bool = False, *, weights: Any = None) -> Array:
    """The ``q``-th quantiles (``q`` in [0, 1], a scalar or any shape of host values) of ``a`` over ``axis``
    with any of NumPy's 13 methods (default 'linear'); the result has ``q``'s shape first. Lines with a NaN give
    NaN. ``weights`` (with ``method="inverted_cdf"``, as NumPy 2): :mod:`weighted_quantiles`.

    Example:
        >>> import kdsl as kd
        >>> kd.quantile(kd.asarray([1.0, 2.0, 3.0, 4.0]), [0.0, 0.5, 0.9]).tolist()
        [1.0, 2.5, 3.7]
    """
    a = _real(a)
    if out is not None:  # NumPy's out=: the result written into a kdsl array
        return rw.into(quantile(a, q, axis, None, overwrite_input, method, keepdims, weights=weights), out)
    if weights is not None:
        qs = np.asarray(q, dtype=np.float64)
        if not np.all((qs >= 0) & (qs <= 1)):
            raise ValueError("Quantiles must be in the range [0, 1]")
        from kdsl.frontend.array.weighted_quantiles import weighted  # cycle: it builds on this module

        return weighted(as_array(a), qs, axis, keepdims, weights, method)
    if method != "linear":
        return _by_method("nanquantile", a, q, axis, method, keepdims)
    q = _host_q(q)
    qs = np.asarray(q, dtype=np.float64)
    if qs.dtype.kind != "f" or not np.all((qs >= 0) & (qs <= 1)):
        raise ValueError("Quantiles must be in the range [0, 1]")
    x = as_array(a)
    if x.size == 0:  # NumPy's answer for empty data depends on its dtype: asked of NumPy itself
        return _by_method("nanquantile", x, q, axis, method, keepdims)
    d = _result_dtype(np.quantile, x, q)
    return _quantiles(x, qs, axis, keepdims, d)


def percentile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
               method: str = "linear", keepdims: bool = False, *, weights: Any = None) -> Array:
    """The ``q``-th percentiles (``q`` in [0, 100]) of ``a`` over ``axis``: ``quantile(a, q / 100)``.

    Example:
        >>> import kdsl as kd
        >>> float(kd.percentile(kd.asarray([1.0, 2.0, 3.0, 4.0, 5.0]), 25))
        2.0
    """
    a = _real(a)
    q = _host_q(q)
    qs = np.asarray(q, dtype=np.float64)
    if not np.all((qs >= 0) & (qs <= 100)):
        raise ValueError("Percentiles must be in the range [0, 100]")
    if out is not None:  # NumPy's out=: the result written into a kdsl array
        return rw.into(percentile(a, q, axis, None, overwrite_input, method, keepdims, weights=weights), out)
    if weights is not None:
        from kdsl.frontend.array.weighted_quantiles import weighted  # cycle: it builds on this module

        return weighted(as_array(a), qs / 100.0, axis, keepdims, weights, method)
    if method != "linear":
        return _by_method("nanpercentile", a, q, axis, method, keepdims)
    x = as_array(a)
    if x.size == 0:  # NumPy's answer for empty data depends on its dtype: asked of NumPy itself
        return _by_method("nanpercentile", x, q, axis, method, keepdims)
    d = _result_dtype(np.percentile, x, q)
    return _quantiles(x, qs / 100.0, axis, keepdims, d)


def _by_method(name: str, a: Any, q: Any, axis: Any, method: str, keepdims: bool) -> Array:
    """A quantile by another method than 'linear': the NaN-ignoring one's methods (``nan_quantiles.py``), with
    NaN where a line holds a NaN, as NumPy's ``quantile`` propagates it."""
    from kdsl.frontend.array import nan_quantiles  # cycle: that module builds on this one

    x = as_array(a)
    if x.size == 0:  # NumPy's own call on empty host data: its IndexError for an empty line (float data: index
        # -1, integers: index 0, except integers with an empty q under 'linear', which give an empty float64
        # result), else the empty result's shape and dtype (q's axes first: the NaN-ignoring ones lose them)
        host = getattr(np, name.removeprefix("nan"))(np.empty(x.shape, x.dtype.np), _host_q(q), axis=axis,
                                                     method=method, keepdims=keepdims)
        d = dt.as_dtype(host.dtype)
        d = d if x.device.supports(d) else dt.float32
        return broadcast_values_to(Array(ops.const_node(0, d, x.device)), host.shape)
    result = getattr(nan_quantiles, name)(x, q, axis, method=method, keepdims=keepdims)
    if x.dtype.kind not in "fc":
        return result
    poisoned = isnan(x).any(axis=axis, keepdims=keepdims)  # the reduced shape: broadcasts after q's axes
    return where(poisoned, float("nan"), result).astype(result.dtype)


def _quantiles(x: Array, qs: np.ndarray, axis: Any, keepdims: bool, d: dt.DType) -> Array:
    lines, axes = lines_last(x, axis)
    n = lines.shape[-1]  # at least 1: quantile and percentile answer empty data by NumPy's own call
    if qs.size == 0:  # no quantiles (percentile(a, [])): an empty result of q's shape, then the kept axes
        result = broadcast_values_to(Array(ops.const_node(0, d, x.device)), qs.shape + lines.shape[:-1])
        return keep_reduced_dims(result, x.shape, axes, qs.shape) if keepdims else result
    s = sort_node(lines, lines.ndim - 1, False, "values").astype(d)
    picks = []
    for qv in qs.reshape(-1).tolist():
        virtual = qv * (n - 1)
        lo = int(math.floor(virtual))
        hi = builtins.min(lo + 1, n - 1)
        t = virtual - lo
        a, b = _pick(s, lo), _pick(s, hi)
        diff = b - a
        value = b - diff * (1.0 - t) if t >= 0.5 else a + diff * t  # NumPy's _lerp (exact at both ends)
        picks.append(_with_nan(s, value).astype(d))
    result = picks[0] if qs.ndim == 0 else stack(picks).reshape(qs.shape + picks[0].shape)
    if keepdims:
        result = keep_reduced_dims(result, x.shape, axes, qs.shape)
    return result


def median(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
           keepdims: bool = False) -> Array:
    """The median over ``axis`` (the mean of the two middle values for even lengths; NaN when a line holds
    a NaN or is empty); integers give float64 as NumPy's; complex lines take NumPy's lexicographic order.

    Example:
        >>> import kdsl as kd
        >>> kd.median(kd.asarray([[1, 9, 3, 4], [5, 5, 6, 0]]), axis=1).tolist()
        [3.5, 5.0]
    """
    if out is not None:  # NumPy's out=: the result written into a kdsl array
        return rw.into(median(a, axis, None, overwrite_input, keepdims), out)
    x = as_array(a)
    d = _result_dtype(lambda z, _: np.median(z), x, None)
    lines, axes = lines_last(x, axis)
    n = lines.shape[-1]
    if n == 0:  # NumPy's median is the mean of nothing here, and warns as that mean does
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
        result = _nan_lines(x, lines.shape[:-1], d)
    else:
        s = _sorted_lines(lines)
        mid = _pick(s, n // 2).astype(d)
        value = mid if n % 2 else (_pick(s, n // 2 - 1).astype(d) + mid) * 0.5
        result = _with_nan(s, value).astype(d)
    return keep_reduced_dims(result, x.shape, axes, ()) if keepdims else result


__all__: Sequence[str] = ["median", "percentile", "quantile"]
