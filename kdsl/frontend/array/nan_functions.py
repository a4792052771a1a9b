"""NaN-ignoring reductions: ``nansum nanprod nanmean nanvar nanstd nanmax nanmin``, NumPy's semantics.

Each is the plain reduction of a ``where(isnan(x), identity, x)`` that fuses into the reduction kernel.
Integer and bool inputs have no NaNs and go straight to the plain reduction. NumPy warns on all-NaN slices
(``nanmean``, ``nanmax``...) and returns NaN; kdsl returns NaN without a warning.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([1.0, float("nan"), 3.0])
    >>> float(kd.nansum(x)), float(kd.nanmean(x)), float(kd.nanmax(x))
    (4.0, 2.0, 3.0)
"""

from __future__ import annotations

from typing import Any

from kdsl import dtype as dt
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import reductions as red
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array
from kdsl.frontend.array.ops import apply, const_node, where


def _filled(x: Array, value: float) -> Array:
    return where(apply("isnan", x), Array(const_node(value, x.dtype, x.device)), x)


def nansum(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Array:
    """Sum over ``axis`` treating NaN as 0."""
    x = as_array(a)
    return red.sum(_filled(x, 0.0) if x.dtype.kind in "fc" else x, axis, dtype=dtype, keepdims=keepdims)


def nanprod(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Array:
    """Product over ``axis`` treating NaN as 1."""
    x = as_array(a)
    return red.prod(_filled(x, 1.0) if x.dtype.kind in "fc" else x, axis, dtype=dtype, keepdims=keepdims)


def _count(x: Array, axis: Any, d: dt.DType, keepdims: bool) -> Array:
    """How many non-NaN elements each reduction sees, as ``d``."""
    return red.sum(~apply("isnan", x), axis, dtype=d, keepdims=keepdims)


def nanmean(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Array:
    """Mean over ``axis`` of the non-NaN elements (NaN where there are none).

    >>> import kdsl as kd
    >>> kd.nanmean(kd.asarray([[1.0, float("nan")], [float("nan"), float("nan")]]), axis=1).tolist()
    [1.0, nan]
    """
    x = as_array(a)
    if x.dtype.kind not in "fc":  # complex: a NaN in either component drops the element, as in NumPy
        return red.mean(x, axis, dtype=dtype, keepdims=keepdims)
    d = x.dtype if dtype is None else dt.as_dtype(dtype)
    total = red.sum(_filled(x, 0.0), axis, dtype=d, keepdims=keepdims)
    return total / _count(x, axis, d, keepdims)  # 0 / 0 is NaN: the all-NaN slices


def nanvar(a: Any, axis: Any = None, dtype: Any = None, ddof: float = 0, keepdims: bool = False, *,
           correction: Any = None) -> Array:
    """Variance over ``axis`` of the non-NaN elements (NaN where ``count - ddof <= 0``)."""
    x = as_array(a)
    ddof = red.ddof_or_correction(ddof, correction)
    if x.dtype.kind not in "fc":
        return red.var(x, axis, dtype=dtype, ddof=ddof, keepdims=keepdims)
    d = x.dtype if dtype is None else dt.as_dtype(dtype)
    xd = x.astype(d)
    zero = Array(const_node(0.0, d, x.device))
    centred = where(apply("isnan", xd), zero, xd - nanmean(xd, axis, keepdims=True))  # inf - inf stays NaN
    # complex: |x - mean|**2, a real number
    squares = centred * centred if d.kind != "c" else apply("real", centred) ** 2 + apply("imag", centred) ** 2
    d = d.real_dtype
    total = red.sum(squares, axis, dtype=d, keepdims=keepdims)
    dof = _count(x, axis, d, keepdims) - ddof
    nan = Array(const_node(float("nan"), d, x.device))
    return where(dof > 0, total / dof, nan)


def nanstd(a: Any, axis: Any = None, dtype: Any = None, ddof: float = 0, keepdims: bool = False, *,
           correction: Any = None) -> Array:
    """Standard deviation over ``axis`` of the non-NaN elements (``sqrt(nanvar)``)."""
    return apply("sqrt", nanvar(a, axis, dtype, ddof, keepdims, correction=correction))


def _nan_extreme(a: Any, axis: Any, keepdims: bool, largest: bool) -> Array:
    x = as_array(a)
    fn = red.max if largest else red.min
    if not x.dtype.is_float:
        return fn(x, axis, keepdims=keepdims)
    red.require_nonempty(x, mv.normalize_axes(axis, x.ndim), "maximum" if largest else "minimum")
    best = fn(_filled(x, float("-inf") if largest else float("inf")), axis, keepdims=keepdims)
    all_nan = red.all(apply("isnan", x), axis, keepdims=keepdims)
    return where(all_nan, Array(const_node(float("nan"), x.dtype, x.device)), best)


def nanmax(a: Any, axis: Any = None, keepdims: bool = False) -> Array:
    """Largest non-NaN element over ``axis`` (NaN where all are NaN)."""
    return _nan_extreme(a, axis, keepdims, largest=True)


def nanmin(a: Any, axis: Any = None, keepdims: bool = False) -> Array:
    """Smallest non-NaN element over ``axis`` (NaN where all are NaN)."""
    return _nan_extreme(a, axis, keepdims, largest=False)
