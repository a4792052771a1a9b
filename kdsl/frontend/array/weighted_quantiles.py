"""NumPy 2's weighted quantiles: ``kd.quantile(a, q, weights=w, method="inverted_cdf")`` and ``kd.percentile``
(the only method NumPy weights). Each line of the reduced axes is sorted stably on the device with its weights;
the weights' running sum, divided by its total (float64 where the device has it, as NumPy's), is the empirical
CDF, and the ``q``-th quantile is the first sorted value whose CDF reaches ``q`` (leading zero weights never
win, NaN lines give NaN). Checking the weights (non-negative; finite and not all zero per line) reads one flag
back each, as NumPy raises before it computes.

Example:
    >>> import kdsl as kd
    >>> a, w = kd.asarray([3.0, 1.0, 2.0, 5.0]), kd.asarray([1.0, 2.0, 0.0, 1.0])
    >>> kd.quantile(a, [0.5, 0.75, 1.0], weights=w, method="inverted_cdf").tolist()
    [1.0, 3.0, 5.0]
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array, full
from kdsl.frontend.array.cumulative import cumsum
from kdsl.frontend.array.math import isfinite, isnan, minimum, where
from kdsl.frontend.array.nan_functions import nanmean
from kdsl.frontend.array.quantiles import lines_last
from kdsl.frontend.array.shape_ops import broadcast_values_to, stack
from kdsl.frontend.array.sorting import argsort
from kdsl.frontend.array.take import take_along_axis


def weighted(x: Array, qs: np.ndarray, axis: Any, keepdims: bool, weights: Any, method: str,
             ignore_nan: bool = False) -> Array:
    """``quantile(x, qs, axis, weights=weights, method=method)`` for quantiles ``qs`` already checked to lie in
    [0, 1] (see the module docstring); ``ignore_nan``: ``nanquantile``'s, where NaNs weigh nothing and only a line
    of NaNs gives NaN."""
    if method != "inverted_cdf":
        raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
    # NumPy's own checks of q on one host value (an empty q of 2 or more dimensions: its min's ValueError)
    np.quantile(np.zeros(1), qs, method="inverted_cdf", weights=np.ones(1))
    w = _weights_like(x, as_array(weights, device=x.device), axis)
    lines, axes = lines_last(x, axis)
    wl, _ = lines_last(w, axis)
    n = lines.shape[-1]
    if x.size == 0:
        return _empty_data(x, qs, axis, keepdims, w.shape, ignore_nan)
    nans = ignore_nan and lines.dtype.is_float
    if nans:
        wl = where(isnan(lines), 0, wl).astype(wl.dtype)
    order = argsort(lines, axis=-1, kind="stable")
    s, sw = take_along_axis(lines, order, -1), take_along_axis(wl, order, -1)
    wide = dt.float64 if x.device.supports(dt.float64) else dt.float32
    cdf = cumsum(sw.astype(wide), axis=-1)
    total = cdf[..., -1:]
    bad = ~isfinite(total) | (total == 0)
    if nans:  # a line of NaNs gives NaN, not an error
        bad = bad & ~isnan(s[..., :1])
    if bool(bad.any()):
        raise ValueError("Weights included NaN, inf or were all zero.")
    cdf = cdf / total
    cdf = where(cdf == 0, -1.0, cdf)  # leading zero weights: never the first value whose CDF reaches q = 0
    out_dtype = dt.as_dtype(np.quantile(np.zeros(1, x.dtype.np), 0.5, method="inverted_cdf").dtype)
    if qs.size == 0:  # no quantiles, once the weights are checked as NumPy's: q's empty shape, then the lines'
        return _filled(0, out_dtype, qs.shape + _reduced_shape(x.shape, axes, keepdims), x.device)
    # NaNs sort last: one poisons its line, or (ignoring NaNs) the line is all NaN when its first value is
    nan_line = isnan(s[..., 0] if nans else s[..., -1]) if s.dtype.is_float else None
    picks = []
    for q in qs.reshape(-1).tolist():
        first = minimum((cdf < q).sum(axis=-1), n - 1)  # searchsorted(cdf, q, side="left"), line by line
        value = take_along_axis(s, first[..., None].astype(dt.int32), -1)[..., 0]
        if nan_line is not None:
            value = where(nan_line, float("nan"), value)
        picks.append(value.astype(out_dtype))
    result = picks[0] if qs.ndim == 0 else stack(picks).reshape(qs.shape + picks[0].shape)
    if keepdims:
        result = result.reshape(qs.shape + _reduced_shape(x.shape, axes, keepdims))
    return result


def _reduced_shape(shape: tuple[int, ...], axes: Any, keepdims: bool) -> tuple[int, ...]:
    """``shape`` without the reduced ``axes`` (kept as 1s with ``keepdims``)."""
    if keepdims:
        return tuple(1 if k in axes else m for k, m in enumerate(shape))
    return tuple(m for k, m in enumerate(shape) if k not in axes)


def _filled(value: Any, dtype: dt.DType, shape: tuple[int, ...], device: Any) -> Array:
    """A lazy constant of ``shape``: nothing to compute."""
    return broadcast_values_to(full((), value, dtype=dtype, device=device), shape)


def _empty_data(x: Array, qs: np.ndarray, axis: Any, keepdims: bool, w_shape: tuple[int, ...],
                ignore_nan: bool) -> Array:
    """The answer for empty data: NumPy's own call on empty host data (its IndexError for an empty line, or an
    empty result; nanquantile's NaNs for each empty line, without q's axes), as a lazy constant."""
    fn = np.nanquantile if ignore_nan else np.quantile
    with warnings.catch_warnings():  # NumPy's "Mean of empty slice": kdsl's reads warn (nan_quantiles.py)
        warnings.simplefilter("ignore", RuntimeWarning)
        host = np.asarray(fn(np.zeros(x.shape, x.dtype.np), qs, axis=axis, method="inverted_cdf",
                             keepdims=keepdims, weights=np.ones(w_shape)))
    if ignore_nan:  # nanmean's NaNs and its "Mean of empty slice" warning, as NumPy's (and the unweighted one's)
        return nanmean(x, axis, keepdims=keepdims)
    d = dt.as_dtype(host.dtype)
    d = d if x.device.supports(d) else dt.float32
    return _filled(host.reshape(-1)[0].item() if host.size else 0, d, host.shape, x.device)


def _weights_like(x: Array, w: Array, axis: Any) -> Array:
    """``w`` broadcast to ``x``'s shape: NumPy's rules (the same shape, or the shape of the reduced axes in the
    order ``axis`` names them) and its errors; negative weights are refused."""
    if w.shape != x.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        named = (axis,) if not isinstance(axis, (tuple, list)) else tuple(axis)
        axes = [mv.normalize_axis(a, x.ndim) for a in named]
        if w.shape != tuple(x.shape[a] for a in axes):
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
        w = w.transpose(tuple(int(i) for i in np.argsort(axes)))  # the reduced axes in ascending order
        shape = [1] * x.ndim
        for a in sorted(axes):
            shape[a] = x.shape[a]
        w = broadcast_values_to(w.reshape(tuple(shape)), x.shape)
    if w.size and bool((w < 0).any()):
        raise ValueError("Weights must be non-negative.")
    return w


__all__ = ["weighted"]
