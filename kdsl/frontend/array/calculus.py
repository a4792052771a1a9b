"""Numerical calculus on sampled data: ``trapezoid`` (the composite trapezoidal rule) and ``gradient`` (second
order central differences inside, first or second order one-sided differences at the ends), NumPy's, as
slices, fused arithmetic and a reduction on the device.

Example:
    >>> import kdsl as kd
    >>> y = kd.asarray([0.0, 1.0, 4.0, 9.0])
    >>> kd.trapezoid(y).item(), kd.gradient(y).tolist()
    (9.5, [1.0, 2.0, 4.0, 5.0])
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array, as_array_beside, asarray
from kdsl.frontend.array.joining import diff
from kdsl.frontend.array.math import where
from kdsl.frontend.array.reductions import all as reduce_all
from kdsl.frontend.array.reductions import sum as ksum
from kdsl.frontend.array.shape_arguments import host_length
from kdsl.frontend.array.shape_ops import concatenate


def _fit(d: Any, device: Any) -> dt.DType:
    """NumPy dtype ``d`` as kdsl's, or float32 on a device without float64."""
    out = dt.as_dtype(d)
    return out if device.supports(out) else dt.float32


def _cut(x: Array, axis: int, start: int | None, stop: int | None) -> Array:
    """``x[start:stop]`` along ``axis`` (a view)."""
    return x[(slice(None),) * axis + (slice(start, stop),)]


def _along(v: Array, axis: int, ndim: int) -> Array:
    """A 1-D ``v`` shaped to broadcast along ``axis`` of an ``ndim``-dimensional array."""
    return v.reshape(tuple(-1 if k == axis else 1 for k in range(ndim)))


def _placeholder(x: Any) -> Any:
    """What NumPy's dtype rules see of ``x``: Python and NumPy scalars as they are, arrays as empty arrays."""
    if isinstance(x, Array):
        return np.empty((0,) * x.ndim, x.dtype.np)
    return x if np.ndim(x) == 0 and not isinstance(x, np.ndarray) else np.empty(0, np.asarray(x).dtype)


def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Array:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule, at sample points ``x`` (1-D along ``axis``,
    or broadcasting with ``y``) or evenly spaced ``dx`` apart. The dtype is NumPy's (float64 for integers;
    float32 on a device without float64).

    >>> import kdsl as kd
    >>> kd.trapezoid(kd.asarray([1.0, 2.0, 3.0]), x=kd.asarray([0.0, 1.0, 3.0])).item()
    6.5
    """
    ys = as_array(y)
    ax = mv.normalize_axis(operator.index(axis), ys.ndim)
    if x is None:
        d: Any = dx
    else:
        xs = as_array_beside(x, ys, ys.device)  # a float list beside float64 y at float64
        if xs.ndim == 1:
            d = _along(diff(xs), ax, ys.ndim)
        else:
            d = diff(xs, axis=axis)
    hi, lo = _cut(ys, ax, 1, None), _cut(ys, ax, None, -1)
    # the pair sums run in y's dtype (integers wrap, bools or) before the product, as NumPy computes them
    pair = (hi | lo) if ys.dtype is dt.bool_ else hi + lo
    # NumPy's order: d * pair in their common dtype (integers wrap), then / 2.0 (floats), then the sum
    with np.errstate(all="ignore"):
        prod_np = (_placeholder(d) * np.empty(0, pair.dtype.np)).dtype
    prod_d = _fit(prod_np, ys.device)
    out = _fit((np.empty(0, prod_np) / 2.0).dtype, ys.device)
    if isinstance(d, Array):
        d = d.astype(prod_d)
    elif isinstance(d, np.ndarray) or np.ndim(d) != 0:
        d = asarray(np.asarray(d), dtype=prod_d, device=ys.device)
    else:  # a scalar stays weak (Python's), so it does not widen the product
        d = d.item() if isinstance(d, np.generic) else d
    return ksum((pair.astype(prod_d) * d).astype(out) / 2.0, axis=ax, dtype=out)


def _spacings(f: Array, axes: tuple[int, ...], varargs: tuple[Any, ...]) -> list[Any]:
    """Each axis's spacing: a Python scalar (uniform) or a 1-D kdsl array of the ``n - 1`` steps (NumPy's
    rules for ``varargs``; host coordinates that turn out evenly spaced become a scalar, as in NumPy)."""
    if not varargs:
        return [1.0] * len(axes)
    if len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        return [_scalar(varargs[0])] * len(axes)
    if len(varargs) != len(axes):
        raise TypeError("invalid number of arguments")
    out: list[Any] = []
    for spacing, ax in zip(varargs, axes, strict=True):
        if np.ndim(spacing) == 0:
            out.append(_scalar(spacing))
            continue
        if np.ndim(spacing) != 1:
            raise ValueError("distances must be either scalars or 1d")
        if len(spacing) != f.shape[ax]:
            raise ValueError("when 1d, distances must match the length of the corresponding dimension")
        if len(spacing) < 2:  # NumPy reads the first of no steps here, before its check of the shape
            raise IndexError(f"index 0 is out of bounds for axis 0 with size 0 (NumPy's error: the coordinates "
                             f"of axis {ax}, of length {len(spacing)}, have no step; a numerical gradient needs "
                             f"at least edge_order + 1 elements along it)")
        out.append(_steps(spacing, f.device))
    return out


def _scalar(spacing: Any) -> Any:
    return spacing if isinstance(spacing, Array) else np.asarray(spacing).item()


def _steps(coords: Any, device: Any) -> Any:
    """The steps between coordinates (float64 for integers); a scalar when host coordinates are uniform."""
    if isinstance(coords, Array):
        c = coords.astype(_fit(np.float64, device)) if coords.dtype.is_int or coords.dtype is dt.bool_ else coords
        return diff(c)
    host = np.asarray(coords)
    if np.issubdtype(host.dtype, np.integer):
        host = host.astype(np.float64)
    steps = np.diff(host)
    if steps.size and (steps == steps[0]).all():
        return steps[0]  # a NumPy scalar, as NumPy's step: strong beside float32 f (float64 arithmetic)
    return asarray(steps, device=device)


def gradient(f: Any, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Array | tuple[Array, ...]:
    """The gradient of sampled ``f`` along each axis of ``axis`` (default all): central differences inside,
    one-sided ones of order ``edge_order`` (1 or 2) at the ends. ``varargs``: one scalar spacing for all
    axes, or one per axis (a scalar, or the 1-D coordinates along that axis). One array for one axis, else a
    tuple; float64 for integer ``f`` (float32 on a device without float64). Evenly spaced coordinates use the
    even-spacing formula, as NumPy's (for coordinates in a kdsl array, both formulas are computed and one is
    selected on the device: nothing is read back).

    >>> import kdsl as kd
    >>> kd.gradient(kd.asarray([1.0, 2.0, 4.0, 7.0]), kd.asarray([0.0, 2.0, 4.0, 6.0])).tolist()
    [0.5, 0.75, 1.25, 1.5]
    """
    x = as_array(f)
    axes = tuple(range(x.ndim)) if axis is None else _axis_tuple(axis, x.ndim)
    spacings = _spacings(x, axes, varargs)  # NumPy checks the spacings first, then edge_order
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    if edge_order < 1:
        raise ValueError("'edge_order' must be 1 or 2")
    boolean = x.dtype is dt.bool_
    if not (x.dtype.is_float or x.dtype.is_complex or boolean):
        x = x.astype(_fit(np.float64, x.device))
    outs = []
    for ax, h in zip(axes, spacings, strict=True):
        if x.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least (edge_order "
                             "+ 1) elements are required.")
        if boolean:  # NumPy's differences of booleans, after its check of each axis's length
            raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the "
                            "`^` operator, or the logical_xor function instead.")
        parts = _uniform(x, ax, h, edge_order) if not isinstance(h, Array) or h.ndim == 0 else \
            _either(x, ax, h, edge_order)
        outs.append(concatenate(parts, axis=ax).astype(x.dtype))
    return outs[0] if len(outs) == 1 else tuple(outs)


def _axis_tuple(axis: Any, ndim: int) -> tuple[int, ...]:
    axis = host_length(axis)  # a 0-d integer axis (np.argmin(a.shape)), as NumPy's np.int64
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = tuple(mv.normalize_axis(operator.index(k), ndim) for k in axes)
    if len(set(out)) != len(out):
        raise ValueError("repeated axis")
    return out


def _uniform(f: Array, ax: int, h: Any, order: int) -> list[Array]:
    """[first, inside, last] of the gradient along ``ax`` with the constant step ``h``."""
    def at(i: int) -> Array:
        return _cut(f, ax, i, (i + 1) or None)
    inside = (_cut(f, ax, 2, None) - _cut(f, ax, None, -2)) / (2.0 * h)
    if order == 1:
        return [(at(1) - at(0)) / h, inside, (at(-1) - at(-2)) / h]
    # NumPy's weights divided by h first, then a weighted sum (its rounding; and for complex f an inf meets real
    # weights, not a complex division: NumPy's infinities and NaNs)
    first = (-1.5 / h) * at(0) + (2.0 / h) * at(1) + (-0.5 / h) * at(2)
    last = (0.5 / h) * at(-3) + (-2.0 / h) * at(-2) + (1.5 / h) * at(-1)
    return [first, inside, last]


def _either(f: Array, ax: int, dx: Array, order: int) -> list[Array]:
    """The gradient's parts for steps ``dx`` in a kdsl array: NumPy takes the even-spacing formula when the steps
    are all equal, which it reads on the host; kdsl computes both and selects on the device (no read-back), so
    an inf in ``f`` does not reach the next point through the uneven formula's zero middle weight (NaN)."""
    even = reduce_all(dx == dx[0])
    return [where(even, u, v) for u, v in zip(_uniform(f, ax, dx[0], order), _uneven(f, ax, dx, order), strict=True)]


def _uneven(f: Array, ax: int, dx: Array, order: int) -> list[Array]:
    """[first, inside, last] of the gradient along ``ax`` with the steps ``dx`` (second order accurate
    weights of the three neighbours inside)."""
    nd = f.ndim

    def at(i: int) -> Array:
        return _cut(f, ax, i, (i + 1) or None)

    def step(i: int) -> Array:
        return dx[i:(i + 1) or None]

    d1, d2 = _along(dx[:-1], ax, nd), _along(dx[1:], ax, nd)
    inside = (-d2 / (d1 * (d1 + d2)) * _cut(f, ax, None, -2) + (d2 - d1) / (d1 * d2) * _cut(f, ax, 1, -1)
              + d1 / (d2 * (d1 + d2)) * _cut(f, ax, 2, None))
    if order == 1:
        return [(at(1) - at(0)) / _along(step(0), ax, nd), inside, (at(-1) - at(-2)) / _along(step(-1), ax, nd)]
    a1, a2 = _along(step(0), ax, nd), _along(step(1), ax, nd)
    first = (-(2.0 * a1 + a2) / (a1 * (a1 + a2)) * at(0) + (a1 + a2) / (a1 * a2) * at(1)
             - a1 / (a2 * (a1 + a2)) * at(2))
    b1, b2 = _along(step(-2), ax, nd), _along(step(-1), ax, nd)
    last = (b2 / (b1 * (b1 + b2)) * at(-3) - (b2 + b1) / (b1 * b2) * at(-2)
            + (2.0 * b2 + b1) / (b2 * (b1 + b2)) * at(-1))
    return [first, inside, last]


__all__ = ["gradient", "trapezoid"]
