"""Running sums and products: ``cumsum``/``cumprod`` (one parallel scan node), the array API's ``cumulative_sum``
and ``cumulative_prod`` (with ``include_initial``) and NumPy's ``nancumsum`` / ``nancumprod``, NumPy 2's semantics.

The others are compositions over the scan of :func:`cumsum` / :func:`cumprod`: the NaN-ignoring
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

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import reduction_where as rw
from kdsl.frontend.array import reductions as red
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array, full
from kdsl.frontend.array.ops import apply, cast_node, const_node, where
from kdsl.frontend.array.shape_ops import concatenate
from kdsl.ir.graph import Node


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
    out = (cumsum if op == "sum" else cumprod)(a, ax, dtype)
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
    return rw.into(_cumulative(x, "sum", axis, rw.loop_dtype(as_array(x), dtype, out), include_initial), out)


def cumulative_prod(x: Any, /, *, axis: int | None = None, dtype: Any = None, out: Any = None,
                    include_initial: bool = False) -> Array:
    """Running product along ``axis`` (required when ``x`` has more than one dimension); ``include_initial``
    puts the empty product (1) first, so the axis grows by one.

    >>> import kdsl as kd
    >>> kd.cumulative_prod(kd.asarray([2, 3, 4]), include_initial=True).tolist()
    [1, 2, 6, 24]
    """
    return rw.into(_cumulative(x, "prod", axis, rw.loop_dtype(as_array(x), dtype, out), include_initial), out)


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
    return cumsum(_filled(as_array(a), 0.0), axis, dtype, out)


def nancumprod(a: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Array:
    """``cumprod`` treating NaN as 1 (a leading run of NaNs gives ones)."""
    return cumprod(_filled(as_array(a), 1.0), axis, dtype, out)


def _scan(x, op: str, fn, axis, dtype) -> Array:
    """The inclusive running ``op`` ("sum" | "prod") along ``axis`` (flattened when None), NumPy's dtype."""
    x = as_array(x)
    if axis is None or (x.ndim == 0 and not red.reduce_axes(axis, 0)):  # NumPy: a 0-d input's axis 0 is its ravel's
        x, axis = x.reshape(-1), 0
    a = mv.normalize_axis(axis, x.ndim)
    d = red.numpy_dtype(fn, x, dtype)
    x.device.check(d)
    if d is dt.bool_:  # cumsum(a, dtype=bool): NumPy adds bools as `or` and multiplies them as `and`
        return _bool_scan(x, op, a)
    src = cast_node(x._node, d)
    return Array(Node("scan", (src,), d, x.shape, (op, a)))


def _bool_scan(x: Array, op: str, axis: int) -> Array:
    """The running ``or`` ("sum") or ``and`` ("prod") of ``x`` as bools along ``axis``: a running count of the
    True values (for ``or``) or the False ones (for ``and``) says where the result is True (GLSL has no ``+`` of
    bools, so a bool scan does not compile)."""
    hits = (x != 0) if op == "sum" else (x == 0)
    # a count that cannot wrap to 0 or below
    ct = dt.int32 if x.shape[axis] < 1 << 31 else red.fit_accumulator(dt.int64, x.device)
    counts = Array(Node("scan", (cast_node(hits._node, ct),), ct, x.shape, ("sum", axis)))
    return counts > 0 if op == "sum" else counts == 0


def cumsum(a, axis=None, dtype=None, out=None) -> Array:
    """Inclusive running sum along ``axis`` (the flattened array when ``axis`` is None); small integers and
    bools accumulate in int64 as NumPy's do, integer overflow wraps. float16 accumulates in float32 and rounds
    each output once (a parallel scan); NumPy's rounds every step, so its float16 running sums can stall
    (``np.cumsum`` of 5000 float16 0.1s stops at 256, kdsl's reaches 500: docs/numpy-api.md).

    >>> import kdsl as kd
    >>> kd.cumsum(kd.asarray([[1, 2], [3, 4]]), axis=0).tolist()
    [[1, 2], [4, 6]]
    """
    a = as_array(a)
    return rw.into(_scan(a, "sum", np.cumsum, axis, rw.loop_dtype(a, dtype, out)), out)


def cumprod(a, axis=None, dtype=None, out=None) -> Array:
    """Inclusive running product along ``axis`` (the flattened array when ``axis`` is None), a parallel scan as
    ``cumsum``: small integers and bools accumulate in int64 as NumPy's do, integer overflow wraps, float inf
    and NaN propagate; float16 accumulates in float32 and rounds each output once (NumPy's rounds every step).

    >>> import kdsl as kd
    >>> kd.cumprod(kd.asarray([1.0, 2.0, 3.0, 4.0])).tolist()
    [1.0, 2.0, 6.0, 24.0]
    """
    a = as_array(a)
    return rw.into(_scan(a, "prod", np.cumprod, axis, rw.loop_dtype(a, dtype, out)), out)
