"""NaN-ignoring reductions: ``nansum nanprod nanmean nanvar nanstd nanmax nanmin``, NumPy's semantics.

Each is the plain reduction of a ``where(isnan(x), identity, x)`` that fuses into the reduction kernel.
Integer and bool inputs have no NaNs and go straight to the plain reduction. NumPy warns on all-NaN slices
(``nanmean``, ``nanmax``...) and returns NaN; kdsl warns as NumPy when the result is read back
(``read_warnings.py``: the condition is on the device).

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([1.0, float("nan"), 3.0])
    >>> float(kd.nansum(x)), float(kd.nanmean(x)), float(kd.nanmax(x))
    (4.0, 2.0, 3.0)
"""

from __future__ import annotations

from typing import Any

from kdsl import dtype as dt
from kdsl.frontend.array import empty_slices, read_warnings
from kdsl.frontend.array import reduction_where as rw
from kdsl.frontend.array import reductions as red
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array
from kdsl.frontend.array.ops import apply, const_node
from kdsl.frontend.array.ops import where as where_  # ``where`` is NumPy's keyword here


def _filled(x: Array, value: float) -> Array:
    return where_(apply("isnan", x), Array(const_node(value, x.dtype, x.device)), x)


def nansum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False,
           initial: Any = red.NO_INITIAL, where: Any = True) -> Array:
    """Sum over ``axis`` treating NaN as 0 (``out initial where`` as :func:`kdsl.sum`)."""
    x = as_array(a)
    return red.sum(_filled(x, 0.0) if x.dtype.kind in "fc" else x, axis, dtype, out, keepdims, initial, where)


def nanprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False,
            initial: Any = red.NO_INITIAL, where: Any = True) -> Array:
    """Product over ``axis`` treating NaN as 1 (``out initial where`` as :func:`kdsl.prod`)."""
    x = as_array(a)
    return red.prod(_filled(x, 1.0) if x.dtype.kind in "fc" else x, axis, dtype, out, keepdims, initial, where)


def _count(x: Array, axis: Any, d: dt.DType, keepdims: bool, where: Any = True) -> Array:
    """How many non-NaN elements (of those ``where`` includes) each reduction sees, as ``d``."""
    return red.sum(~apply("isnan", x), axis, dtype=d, keepdims=keepdims, where=where)


def _check_inexact(dtype: Any, out: Any) -> None:
    """NumPy's refusal of an integer or bool ``dtype`` or ``out`` for the mean or variance of inexact data (the
    non-NaN count divides, so an integer result would truncate)."""
    if dtype is not None and dt.as_dtype(dtype).kind not in "fc":
        raise TypeError(f"If a is inexact, then dtype must be inexact (got {dt.as_dtype(dtype).name}): pass a "
                        "float dtype, or round the float result")
    if out is not None and getattr(out, "dtype", None) is not None and dt.as_dtype(out.dtype).kind not in "fc":
        raise TypeError(f"If a is inexact, then out must be inexact (got an out of {dt.as_dtype(out.dtype).name}):"
                        " pass a float array as out")


def nanmean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False, *,
            where: Any = True) -> Array:
    """Mean over ``axis`` of the non-NaN elements (NaN where there are none; ``where``: only those elements).

    >>> import kdsl as kd
    >>> kd.nanmean(kd.asarray([[1.0, float("nan")], [float("nan"), float("nan")]]), axis=1).tolist()
    [1.0, nan]
    """
    x = as_array(a)
    if x.dtype.kind not in "fc":  # complex: a NaN in either component drops the element, as in NumPy
        return red.mean(x, axis, dtype, out, keepdims, where=where)
    _check_inexact(dtype, out)
    warned = empty_slices.warn_empty(x.shape, red.reduce_axes(axis, x.ndim), where)
    d = x.dtype if dtype is None else dt.as_dtype(dtype)
    count = _count(x, axis, d, keepdims, where)
    result = _quiet_nanmean(x, axis, dtype, out, keepdims, where, count)
    return result if warned else read_warnings.defer(result, count == 0, "Mean of empty slice")


def _quiet_nanmean(x: Array, axis: Any, dtype: Any, out: Any, keepdims: bool, where: Any,
                   count: Array | None = None) -> Array:
    """:func:`nanmean` of float or complex ``x`` without its warning (``nanvar`` warns its own)."""
    d = x.dtype if dtype is None else dt.as_dtype(dtype)
    total = red.sum(_filled(x, 0.0), axis, dtype=d, keepdims=keepdims, where=where)
    count = _count(x, axis, d, keepdims, where) if count is None else count
    return rw.into(total / count, out)  # 0 / 0 is NaN: the all-NaN slices


def nanvar(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0, keepdims: bool = False,
           *, where: Any = True, mean: Any = None, correction: Any = None) -> Array:
    """Variance over ``axis`` of the non-NaN elements (NaN where ``count - ddof <= 0``); ``where`` and ``mean``
    (the mean already computed, ``keepdims=True``'s shape) as NumPy 2's."""
    x = as_array(a)
    ddof = red.ddof_or_correction(ddof, correction)
    if x.dtype.kind not in "fc":
        return red.var(x, axis, dtype, out, ddof, keepdims, where=where, mean=mean)
    _check_inexact(dtype, out)
    warned = empty_slices.warn_empty(x.shape, red.reduce_axes(axis, x.ndim), where, ddof, nan_function=True)
    d = x.dtype if dtype is None else dt.as_dtype(dtype)
    xd = x.astype(d)
    zero = Array(const_node(0.0, d, x.device))
    centre = _quiet_nanmean(xd, axis, None, None, True, where) if mean is None else as_array(mean).astype(d)
    centred = where_(apply("isnan", xd), zero, xd - centre)  # inf - inf stays NaN
    # complex: |x - mean|**2, a real number
    squares = centred * centred if d.kind != "c" else apply("real", centred) ** 2 + apply("imag", centred) ** 2
    d = d.real_dtype
    total = red.sum(squares, axis, dtype=d, keepdims=keepdims, where=where)
    dof = _count(x, axis, d, keepdims, where) - ddof
    nan = Array(const_node(float("nan"), d, x.device))
    result = rw.into(where_(dof > 0, total / dof, nan), out)
    return result if warned else read_warnings.defer(result, dof <= 0, "Degrees of freedom <= 0 for slice.")


def nanstd(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0, keepdims: bool = False,
           *, where: Any = True, mean: Any = None, correction: Any = None) -> Array:
    """Standard deviation over ``axis`` of the non-NaN elements (``sqrt(nanvar)``)."""
    if as_array(a).dtype.kind in "fc":
        _check_inexact(None, out)
    variance = nanvar(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean, correction=correction)
    if out is not None:  # NumPy: the variance into out, then sqrt(out, out=out) (an integer out is its error)
        return read_warnings.carry(variance, rw.root_into(variance, out))
    return read_warnings.carry(variance, apply("sqrt", variance))


def _nan_extreme(a: Any, axis: Any, out: Any, keepdims: bool, initial: Any, where: Any, largest: bool) -> Array:
    x = as_array(a)
    fn = red.max if largest else red.min
    if x.dtype.kind not in "fc":  # no NaNs
        return fn(x, axis, out, keepdims, initial, where)
    filled = _filled(x, float("-inf") if largest else float("inf"))
    if initial is not None:  # NumPy folds initial in: a slice of NaNs gives initial, not NaN
        return fn(filled, axis, out, keepdims, initial, where)
    rw.no_identity("fmax" if largest else "fmin", initial, where)
    red.require_nonempty(x, red.reduce_axes(axis, x.ndim), "fmax" if largest else "fmin")
    best = fn(filled, axis, keepdims=keepdims)
    all_nan = red.all(apply("isnan", x), axis, keepdims=keepdims)
    result = rw.into(where_(all_nan, _first(x, red.reduce_axes(axis, x.ndim), keepdims), best), out)
    return read_warnings.defer(result, all_nan, "All-NaN slice encountered")


def _first(x: Array, axes: tuple[int, ...], keepdims: bool) -> Array:
    """The first element of each slice over ``axes``: what NumPy's ``fmax.reduce`` leaves for an all-NaN slice
    (that NaN itself: its sign, payload and, for complex values, its other part)."""
    index = tuple(slice(0, 1) if a in axes else slice(None) for a in range(x.ndim))
    first = x[index]
    return first if keepdims else first.reshape(tuple(n for a, n in enumerate(x.shape) if a not in axes))


def nanmax(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, initial: Any = None,
           where: Any = True) -> Array:
    """Largest non-NaN element over ``axis`` (NaN where all are NaN; ``where`` needs ``initial``, as NumPy's)."""
    return _nan_extreme(a, axis, out, keepdims, initial, where, largest=True)


def nanmin(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False, initial: Any = None,
           where: Any = True) -> Array:
    """Smallest non-NaN element over ``axis`` (NaN where all are NaN; ``where`` needs ``initial``, as NumPy's)."""
    return _nan_extreme(a, axis, out, keepdims, initial, where, largest=False)
