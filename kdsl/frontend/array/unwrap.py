"""``unwrap``: remove the jumps of a periodic signal (a phase in radians by default), NumPy's ``unwrap``.

Every step ``d`` along the axis is mapped into ``[-period/2, period/2)`` (a step of exactly ``period/2`` keeps
its sign), and where ``|d| >= discont`` the difference is a correction; the running sum of the corrections
(a lazy ``cumsum``) is added to every element after the first. All lazy, no host round trip.

Example:
    >>> import kdsl as kd
    >>> [round(v, 3) for v in kd.unwrap(kd.asarray([0.0, 1.0, 6.5, 7.0])).tolist()]  # 6.5 - 1.0 > pi: a jump
    [0.0, 1.0, 0.217, 0.717]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.joining import diff
from kdsl.frontend.array.ops import apply, where
from kdsl.frontend.array.shape_ops import concatenate


def _result_dtype(p: Array, period: Any) -> dt.DType:
    """NumPy's ``result_type(diff(p), period)``: a Python float period makes integer ``p`` float64 (float32 on a
    device without float64)."""
    d = dt.as_dtype((np.empty(0, p.dtype.np) + period).dtype)  # diff keeps p's dtype; period is weak (NEP 50)
    if d is dt.float64 and not p.device.supports(dt.float64):
        return dt.float32
    return p.device.check(d)


def _along(ndim: int, axis: int, part: slice) -> tuple[slice, ...]:
    return tuple(part if k == axis else slice(None) for k in range(ndim))


def unwrap(p: Any, discont: float | None = None, axis: int = -1, *, period: float = 2 * math.pi) -> Array:
    """Unwrap ``p`` along ``axis`` by changing steps of ``discont`` or more (default ``period / 2``) to their
    equivalent modulo ``period``; integer ``p`` with an integer ``period`` stays integer, as in NumPy.

    >>> import kdsl as kd
    >>> kd.unwrap(kd.asarray([0, 2, 4, 6, 0, 2]), period=8).tolist()
    [0, 2, 4, 6, 8, 10]
    """
    x = p if isinstance(p, Array) else asarray(p)
    if x.dtype.kind == "c":
        raise TypeError("unwrap of complex arrays is not supported (NumPy raises too); unwrap kd.angle(z)")
    if x.ndim == 0:
        raise ValueError("unwrap needs an array of at least one dimension (diff requires it)")
    ax = mv.normalize_axis(axis, x.ndim)
    d = _result_dtype(x, period)
    if d.is_float:
        high, ambiguous = period / 2, True
    else:
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    if d.kind == "u" and high:  # NumPy steps by -period // 2 in the array's dtype: its NEP 50 error, not a result
        raise OverflowError(f"Python integer {-high} out of bounds for {d.name}: unwrap of unsigned integers with an "
                            "integer period; unwrap a signed copy (p.astype(kd.int64))")
    if x.shape[ax] < 2:
        return x.astype(d)
    raw = diff(x, axis=ax)  # in p's dtype, as NumPy's dd (integer steps wrap)
    step = raw.astype(d)
    if discont is None:
        discont = period / 2
    wrapped = apply("mod", step + high, period) - high  # into [-high, high)
    if ambiguous:  # a step of exactly +period/2 stays +period/2
        wrapped = where((wrapped == -high) & (step > 0), high, wrapped)
    # NumPy's abs(dd) < discont takes abs in p's dtype (abs of int16's -32768 stays -32768: no correction there)
    size = raw if raw.dtype is dt.bool_ else apply("abs", raw)
    fix = where(size.astype(d) < discont, 0, wrapped - step)
    head = x[_along(x.ndim, ax, slice(0, 1))].astype(d)
    tail = x[_along(x.ndim, ax, slice(1, None))].astype(d) + fix.cumsum(axis=ax, dtype=d)
    return concatenate([head, tail], axis=ax)
