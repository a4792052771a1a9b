"""Running sums and products beyond ``cumsum``/``cumprod``: the array API's ``cumulative_sum`` and
``cumulative_prod`` (with ``include_initial``) and NumPy's ``nancumsum`` / ``nancumprod``, NumPy 2's semantics.

Each is a composition over the parallel scan of :func:`kdsl.cumsum` / :func:`kdsl.cumprod`: the NaN-ignoring
ones scan ``where(isnan(x), identity, x)`` (the ``where`` fuses into the scan kernel), ``include_initial``
concatenates the identity (0 or 1) in front of the scan along the axis.

Example:
    >>> import kdsl as kd
    >>> kd.cumulative_sum(kd.asarray([1, 2, 3]), include_initial=True).tolist()
    [0, 1, 3, 6]
    >>> kd.nancumprod(kd.asarray([2.0, float("nan"), 3.0])).tolist()
    [2.0, 2.0, 6.0]
"""

from __future__ import annotations

from typing import Any

from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import reduction_where as rw
from kdsl.frontend.array import reductions as red
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array, full
from kdsl.frontend.array.ops import apply, const_node, where
from kdsl.frontend.array.shape_ops import concatenate


def _cumulative(x: Any, op: str, axis: int | None, dtype: Any, include_initial: bool) -> Array:
    a = as_array(x)
    if a.ndim == 0:  # NumPy 2 treats a scalar as a 1-element line
        a = a.reshape(1)
    if axis is None:
        if a.ndim > 1:
            raise ValueError(f"cumulative_{op}: an array of {a.ndim} dimensions needs axis=...; pass the axis "
                             f"to accumulate along (or flatten first: x.reshape(-1))")
        axis = 0
    ax = mv.normalize_axis(axis, a.ndim)
    out = (red.cumsum if op == "sum" else red.cumprod)(a, ax, dtype)
    if not include_initial:
        return out
    shape = out.shape[:ax] + (1,) + out.shape[ax + 1:]
    return concatenate([full(shape, 0 if op == "sum" else 1, out.dtype, device=out.device), out], axis=ax)


def cumulative_sum(x: Any, /, *, axis: int | None = None, dtype: Any = None, out: Any = None,
                   include_initial: bool = False) -> Array:
    """Running sum along ``axis`` (required when ``x`` has more than one dimension); ``include_initial`` puts
    the empty sum (0) first, so the axis grows by one. Small integers accumulate in int64 as NumPy's do.

    >>> import kdsl as kd
    >>> kd.cumulative_sum(kd.asarray([[1, 2], [3, 4]]), axis=1).tolist()
    [[1, 3], [3, 7]]
    """
    return rw.into(_cumulative(x, "sum", axis, dtype, include_initial), out)


def cumulative_prod(x: Any, /, *, axis: int | None = None, dtype: Any = None, out: Any = None,
                    include_initial: bool = False) -> Array:
    """Running product along ``axis`` (required when ``x`` has more than one dimension); ``include_initial``
    puts the empty product (1) first, so the axis grows by one.

    >>> import kdsl as kd
    >>> kd.cumulative_prod(kd.asarray([2, 3, 4]), include_initial=True).tolist()
    [1, 2, 6, 24]
    """
    return rw.into(_cumulative(x, "prod", axis, dtype, include_initial), out)


def _filled(x: Array, value: float) -> Array:
    """``x`` with NaNs replaced by ``value`` (integers and bools have none: unchanged; a complex element is NaN
    when either part is, as in NumPy's ``isnan``)."""
    if x.dtype.kind not in "fc":
        return x
    return where(apply("isnan", x), Array(const_node(value, x.dtype, x.device)), x)


def nancumsum(a: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Array:
    """``cumsum`` treating NaN as 0 (a leading run of NaNs gives zeros).

    >>> import kdsl as kd
    >>> kd.nancumsum(kd.asarray([float("nan"), 1.0, float("nan"), 2.0])).tolist()
    [0.0, 1.0, 1.0, 3.0]
    """
    return red.cumsum(_filled(as_array(a), 0.0), axis, dtype, out)


def nancumprod(a: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Array:
    """``cumprod`` treating NaN as 1 (a leading run of NaNs gives ones)."""
    return red.cumprod(_filled(as_array(a), 1.0), axis, dtype, out)
