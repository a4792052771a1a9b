"""NaN-ignoring order statistics: ``nanmedian``, ``nanquantile`` and ``nanpercentile``, NumPy 2's semantics.

How it runs, all lazily on the device: the reduced axes are merged into one last axis and each line is sorted
(NaNs sort last, so a line's ``count`` non-NaN values come first); ``count`` is a sum of ``~isnan``. Each
quantile's virtual index is computed per line from its own ``count`` (NumPy's formula of the chosen
``method``), the neighbouring sorted values are gathered along the line and interpolated with NumPy's
two-sided lerp. Lines without a non-NaN value give NaN (and NumPy's warning when the result is read back,
read_warnings.py). Every one of NumPy's 13 methods is there; nothing synchronises.

Where kdsl differs: NumPy's result dtype can depend on the data: with an array ``q`` over float32 (float16)
data it is float64, except when the first line (or, without ``axis``, the whole array) is all NaN, where
NumPy's ``apply_along_axis`` keeps float32. kdsl always gives the dtype of the common case (float64), which
needs no read-back.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([[1.0, float("nan"), 3.0], [4.0, 5.0, 6.0]])
    >>> kd.nanmedian(x, axis=1).tolist(), kd.nanquantile(x, 0.25, axis=1).tolist()
    ([2.0, 5.0], [1.5, 4.5])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import ops, read_warnings
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array, asarray
from kdsl.frontend.array.math import ceil, floor, isnan, maximum, minimum, rint, where
from kdsl.frontend.array.nan_functions import nanmean

# the sorting module's internals: a line-wise sort and an along-axis gather without the index read-back
from kdsl.frontend.array.quantiles import keep_reduced_dims, lines_last, reshaped_result
from kdsl.frontend.array.reduction_where import into
from kdsl.frontend.array.reductions import sum as asum
from kdsl.frontend.array.shape_ops import broadcast_values_to, stack
from kdsl.frontend.array.sorting import sort, sort_node
from kdsl.frontend.array.take import gather_node
from kdsl.frontend.array.weighted_quantiles import weighted

# Hyndman and Fan's continuous methods: virtual index n*q + alpha + q*(1 - alpha - beta) - 1.
_ALPHA_BETA = {"interpolated_inverted_cdf": (0.0, 1.0), "hazen": (0.5, 0.5), "weibull": (0.0, 0.0),
               "median_unbiased": (1 / 3.0, 1 / 3.0), "normal_unbiased": (3 / 8.0, 3 / 8.0)}
_DISCRETE = ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")
_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
            "hazen", "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint",
            "nearest")


def _check(x: Array, method: str) -> None:
    """NumPy's errors for a complex ``a`` and an unknown method (weights are checked by weighted_quantiles)."""
    if x.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    if method not in _METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: {_METHODS}")


def _result_dtype(fn: Any, x: Array, q: Any, axis: Any, method: str) -> dt.DType:
    """NumPy's result dtype, from NumPy's function on a tiny array of ``x``'s dtype and rank (metadata only)."""
    probe = np.zeros((1,) * x.ndim, x.dtype.np)
    with np.errstate(all="ignore"):
        d = dt.as_dtype(np.asarray(fn(probe, q, axis=axis, method=method)).dtype)
    return d if x.device.supports(d) else dt.float32


def _float_dtype(x: Array) -> dt.DType:
    """The dtype virtual indices are computed in: float64 as NumPy's, float32 where the device has no float64."""
    return dt.float64 if x.device.supports(dt.float64) else dt.float32


def _along(s: Array, index: Array) -> Array:
    """``s[..., index[...]]``: one element of each line of ``s`` (``index`` in range by construction)."""
    lead = s.shape[:-1]
    picked = gather_node(s, index.reshape(lead + (1,)), s.ndim - 1, along=True, mode="clip")
    return picked.reshape(lead)


def _virtual(n: Array, q: float, method: str) -> Array:
    """NumPy's virtual index of quantile ``q`` in lines of ``n`` values (``n`` a float array)."""
    if method in ("linear", "lower", "higher", "nearest", "midpoint"):
        return (n - 1) * q
    if method in ("inverted_cdf", "averaged_inverted_cdf"):
        return n * q - 1
    if method == "closest_observation":
        return n * q - 1 - 0.5
    alpha, beta = _ALPHA_BETA[method]
    return n * q + (alpha + q * (1 - alpha - beta)) - 1


def _discrete_index(v: Array, method: str) -> Array:
    """The index a discrete method takes (before clamping into the line)."""
    if method == "lower":
        return floor(v)
    if method == "higher":
        return ceil(v)
    if method == "nearest":
        return rint(v)  # NumPy's around: halves to even
    below = floor(v)
    exact = v - below == 0
    if method == "closest_observation":  # an exact index stays only where floor(v) is odd (floored modulo)
        exact = exact & (below - floor(below * 0.5) * 2 == 1)
    return where(exact, below, below + 1)


def _gamma(v: Array, method: str) -> Array:
    """The interpolation weight of a continuous method (NumPy's ``fix_gamma``)."""
    if method == "midpoint":
        return where(v - floor(v) == 0, 0.0, 0.5)
    frac = v - floor(v)
    if method == "averaged_inverted_cdf":
        return where(frac == 0, 0.5, 1.0)
    return frac


def _lerp(a: Array, b: Array, diff: Array, t: Array) -> Array:
    """NumPy's ``_lerp`` (``diff`` is ``b - a``): from ``a`` for t < 0.5, from ``b`` otherwise (exact at both
    ends)."""
    return where(t >= 0.5, b - diff * (1 - t), a + diff * t)


def _clamp(i: Array, count: Array) -> Array:
    return maximum(minimum(i, count - 1), 0)


def _one_quantile(s: Array, count: Array, q: float, method: str, d: dt.DType) -> Array:
    """Quantile ``q`` of each sorted line of ``s`` over its first ``count`` values, as ``d``."""
    idx_dtype = count.dtype
    n = count.astype(_float_dtype(s))
    if method == "midpoint":
        v = _virtual(n, q, method)
        v = (floor(v) + ceil(v)) * 0.5
    else:
        v = _virtual(n, q, method)
    if method in _DISCRETE:
        return _along(s, _clamp(_discrete_index(v, method).astype(idx_dtype), count)).astype(d)
    below = floor(v)
    lo = _clamp(below.astype(idx_dtype), count)
    hi = _clamp((below + 1).astype(idx_dtype), count)
    a, b = _along(s, lo), _along(s, hi)
    # NumPy subtracts in the data's dtype and only then promotes (float32 data, array q: float64 results)
    diff = (b - a if s.dtype is not dt.bool_ else b.astype(d) - a.astype(d)).astype(d)
    return _lerp(a.astype(d), b.astype(d), diff, _gamma(v, method).astype(d))


def _nan_full(shape: tuple[int, ...], d: dt.DType, device: Any) -> Array:
    d = d if d.is_float else dt.float64 if device.supports(dt.float64) else dt.float32
    return broadcast_values_to(Array(ops.const_node(float("nan"), d, device)), shape)


def _quantiles(x: Array, qs: np.ndarray, axis: Any, keepdims: bool, method: str, d: dt.DType) -> Array:
    lines, axes = lines_last(x, axis)
    lead = lines.shape[:-1]
    if lines.shape[-1] == 0:
        result = _nan_full(qs.shape + lead, d, x.device)
    else:
        s = sort_node(lines, lines.ndim - 1, False, "values")  # NaNs last: each line's values come first
        idx_dtype = dt.int64 if x.device.supports(dt.int64) else dt.int32
        valid = ~isnan(lines) if x.dtype.is_float else broadcast_values_to(asarray(True, device=x.device), lines.shape)
        count = asum(valid, axis=-1, dtype=idx_dtype)
        picks = []
        for q in qs.reshape(-1).tolist():
            value = _one_quantile(s, count, q, method, d)
            if d.is_float:
                value = where(count == 0, float("nan"), value)
            picks.append(value)
        result = reshaped_result(stack(picks), qs.shape + lead) if picks else _nan_full(qs.shape + lead, d, x.device)
    return keep_reduced_dims(result, x.shape, axes, qs.shape) if keepdims else result


def _in_range(qs: np.ndarray) -> bool:
    """NumPy's check of quantiles in [0, 1]: an empty list passes, an empty q of other dimensions raises its
    ``min``'s ValueError (NumPy checks those through ``q.min()``)."""
    return (qs.ndim == 1 and qs.size == 0) or bool(qs.min() >= 0 and qs.max() <= 1)


def _valid_q(qs: np.ndarray) -> None:
    if not _in_range(qs):
        raise ValueError("Quantiles must be in the range [0, 1]")


def nanquantile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
                method: str = "linear", keepdims: bool = False, *, weights: Any = None) -> Array:
    """The ``q``-th quantiles (``q`` in [0, 1], a scalar or an array of host values) of ``a`` over ``axis``,
    ignoring NaNs; the result has ``q``'s shape first. ``method`` is any of NumPy's 13 (default 'linear').
    All-NaN (or empty) lines give NaN. Runs on the device without synchronising.

    Example:
        >>> import kdsl as kd
        >>> x = kd.asarray([1.0, float("nan"), 2.0, 3.0, 4.0])
        >>> kd.nanquantile(x, [0.0, 0.5, 0.9]).tolist()
        [1.0, 2.5, 3.7]
        >>> float(kd.nanquantile(x, 0.5, method="lower"))
        2.0
    """
    if out is not None:  # NumPy's out=: the result written into a kdsl array
        inner = nanquantile(a, q, axis, None, overwrite_input, method, keepdims, weights=weights)
        return read_warnings.carry(inner, into(inner, out))
    x, host_q = _operands(a, q, method)
    qs = np.asarray(host_q, dtype=np.float64)
    _valid_q(qs)
    return _nan_quantiles(np.nanquantile, x, host_q, qs, axis, keepdims, method, weights)


def nanpercentile(a: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
                  method: str = "linear", keepdims: bool = False, *, weights: Any = None) -> Array:
    """The ``q``-th percentiles (``q`` in [0, 100]) of ``a`` over ``axis``, ignoring NaNs:
    ``nanquantile(a, q / 100)``.

    Example:
        >>> import kdsl as kd
        >>> float(kd.nanpercentile(kd.asarray([1.0, float("nan"), 3.0, 5.0]), 25))
        2.0
    """
    if out is not None:  # NumPy's out=: the result written into a kdsl array
        inner = nanpercentile(a, q, axis, None, overwrite_input, method, keepdims, weights=weights)
        return read_warnings.carry(inner, into(inner, out))
    x, host_q = _operands(a, q, method)
    qs = np.true_divide(np.asarray(host_q, dtype=np.float64), 100)
    if not _in_range(qs):
        raise ValueError("Percentiles must be in the range [0, 100]")
    return _nan_quantiles(np.nanpercentile, x, host_q, qs, axis, keepdims, method, weights)


def _operands(a: Any, q: Any, method: str) -> tuple[Array, Any]:
    """``a`` as an Array, checked with ``method``, and ``q`` on the host (NumPy reads it there)."""
    x = as_array(a)
    _check(x, method)
    return x, q.numpy() if isinstance(q, Array) else q


def _nan_quantiles(fn: Any, x: Array, host_q: Any, qs: np.ndarray, axis: Any, keepdims: bool, method: str,
                   weights: Any) -> Array:
    """What ``nanquantile`` and ``nanpercentile`` (``fn``, NumPy's, for the result dtype) share once ``q`` is
    checked and ``qs`` holds the quantiles in [0, 1]."""
    if weights is not None:
        return _warn_all_nan(weighted(x, qs, axis, keepdims, weights, method, ignore_nan=True), x, axis)
    if x.size == 0:  # NumPy answers an empty array with nanmean's NaNs (no q axes)
        return nanmean(x, axis, keepdims=keepdims)
    d = _result_dtype(fn, x, host_q, axis, method)
    if fn is np.nanquantile and method == "linear" and np.asarray(host_q).dtype.kind in "iu":
        method = "lower"  # integer q: NumPy takes the element itself (no lerp: an inf stays inf)
    return _warn_all_nan(_quantiles(x, qs, axis, keepdims, method, d), x, axis)


def _warn_all_nan(result: Array, x: Array, axis: Any) -> Array:
    """``result``, warning NumPy's "All-NaN slice encountered" when read back if a line of ``x`` is all NaN."""
    if x.dtype.kind not in "fc" or x.size == 0:
        return result
    return read_warnings.defer(result, read_warnings.any_all_nan(x, axis), "All-NaN slice encountered")


def nanmedian(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
              keepdims: bool = False) -> Array:
    """The median over ``axis`` of the non-NaN values (the mean of the two middle ones for even counts; NaN
    where a line has none). Integers give float64 as NumPy's. Runs on the device without synchronising.

    Example:
        >>> import kdsl as kd
        >>> kd.nanmedian(kd.asarray([[1.0, 9.0, float("nan"), 4.0], [5.0, 5.0, 6.0, 0.0]]), axis=1).tolist()
        [4.0, 5.0]
    """
    if out is not None:  # NumPy's out=: the result written into a kdsl array
        inner = nanmedian(a, axis, None, overwrite_input, keepdims)
        return read_warnings.carry(inner, into(inner, out))
    x = as_array(a)
    if x.size == 0:  # NumPy answers an empty array with nanmean's NaNs
        return nanmean(x, axis, keepdims=keepdims)
    probe = np.zeros((1,) * x.ndim, x.dtype.np)
    d = dt.as_dtype(np.nanmedian(probe, axis=axis).dtype)
    d = d if x.device.supports(d) else dt.float32
    lines, axes = lines_last(x, axis)
    lead = lines.shape[:-1]
    if lines.shape[-1] == 0:
        result = _nan_full(lead, d, x.device)
    else:
        result = _median_lines(lines, x, d)
    return _warn_all_nan(keep_reduced_dims(result, x.shape, axes, ()) if keepdims else result, x, axis)


def _median_lines(lines: Array, x: Array, d: dt.DType) -> Array:
    """The NaN-ignoring median of each line of ``lines`` (the mean of the two middle values, added in at least
    float32 as NumPy's mean does). Complex lines sort in NumPy's lexicographic order, values with a NaN part
    last; a line of NaNs only gives ``nan+0j``, as NumPy's for more than one line."""
    s = sort(lines, axis=-1) if x.dtype.kind == "c" else sort_node(lines, lines.ndim - 1, False, "values")
    idx_dtype = dt.int64 if x.device.supports(dt.int64) else dt.int32
    if x.dtype.is_float or x.dtype.kind == "c":
        count = asum(~isnan(lines), axis=-1, dtype=idx_dtype)
    else:
        count = broadcast_values_to(asarray(lines.shape[-1], dtype=idx_dtype, device=x.device), lines.shape[:-1])
    lo_i = _clamp((count - 1) // 2, count)
    hi_i = _clamp(count // 2, count)
    work = dt.float32 if d is dt.float16 else d
    lo, hi = _along(s, lo_i).astype(work), _along(s, hi_i).astype(work)
    value = where(lo_i == hi_i, lo, (lo + hi) / 2).astype(d)  # odd counts: the middle value itself (no overflow)
    if d.kind == "c":
        return where(count == 0, complex(float("nan"), 0.0), value).astype(d)
    return where(count == 0, float("nan"), value) if d.is_float else value


__all__ = ["nanmedian", "nanpercentile", "nanquantile"]
