"""NumPy's ``reduce``/``accumulate`` of the binary ufuncs that are not associative (``kd.subtract.reduce``,
``kd.divide.accumulate``, ``kd.power.reduce``, ``kd.floor_divide.reduce``...): NumPy folds from the left,
``subtract.reduce(a) == ((a[0] - a[1]) - a[2]) - ...``, along one axis (several axes: NumPy's ValueError, the
fold has no order across them), and these ufuncs have no identity, so an empty axis needs ``initial=``.

How each fold runs, all with kdsl's lazy ops on the device:

* **Sequential** (every ufunc here; the only way for ``power``, ``floor_divide``, ``remainder``...): one lazy
  step per element of the axis, ``acc = op(acc, a[..., i])``. Exact: the same operations in NumPy's order, so
  the same bits, integer wrap-around and errors included. ``power`` has no shortcut: ``a0 ** prod(a[1:])``
  equals ``(a0 ** a1) ** a2`` only for positive bases and products that do not overflow (``(-2.0 ** 2) ** 0.5``
  is 2.0, ``-2.0 ** 1.0`` is -2.0), and ``floor_divide`` by a product rounds differently for negative
  divisors. A long axis is computed every ``CHUNK`` steps so the fused expression stays small (``n / CHUNK``
  submissions).
* **Summed** (``subtract``, ``divide``, axes longer than ``SHORT``): ``a0 - sum(a[1:])`` and ``a0 / prod(a[1:])``
  (their running forms ``a0 - cumsum(a[1:])``, ``a0 / cumprod(a[1:])`` for ``accumulate``): one reduction
  instead of ``n`` steps. Integers are exact, wrap-around included (the sum wraps in the same dtype, and
  subtraction modulo ``2**bits`` does not care about the order). Floats differ from NumPy's sequential fold by
  rounding only (the sum is pairwise, more accurate than NumPy's left fold), and ``divide`` can overflow or
  underflow in the product where the quotients would not (``1e-300 / 1e-200 / 1e-200`` is 1e100, but
  ``prod([1e-200, 1e-200])`` is 0 and gives inf): as ``kd.divide.at`` does (``scatter_segmented``).

    >>> import kdsl as kd
    >>> kd.subtract.reduce(kd.asarray([10, 1, 2, 3])).item(), kd.power.reduce(kd.asarray([2, 3, 2])).item()
    (4, 64)
    >>> kd.divide.accumulate(kd.asarray([8.0, 2.0, 2.0])).tolist()
    [8.0, 4.0, 2.0]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from kdsl.frontend.array import reduction_where as rw
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.movement import normalize_axis
from kdsl.frontend.array.where_masks import where_mask

# binary ufuncs whose reduce/accumulate fold from the left here (NumPy's reduce works on each: its loops take
# two operands of one type and give that type)
FOLDS = ("subtract", "divide", "floor_divide", "power", "float_power", "remainder", "fmod", "arctan2", "hypot",
         "copysign", "nextafter", "heaviside", "left_shift", "right_shift")
# folds with a one-reduction equivalent on long axes: the kdsl reduction / scan of the tail, and its identity
SUMMED = {"subtract": ("sum", "cumsum", 0), "divide": ("prod", "cumprod", 1)}
SHORT = 8  # axes up to this long fold sequentially even where SUMMED has a shortcut (NumPy's exact bits)
CHUNK = 16  # a sequential fold computes its accumulator every CHUNK steps (keeps each fused kernel small)

Fn = Callable[..., Any]


def _kd() -> Any:
    return sys.modules["kdsl"]  # the namespace's reductions (this module sits below it in the layers)


def fold_axis(name: str, ndim: int, axis: Any, method: str = "reduce") -> int | None:
    """The one axis a fold runs along (None: nothing to fold, ``axis=()``); NumPy's errors for several."""
    if axis is None:
        if ndim > 1:
            raise _several(name, method)
        return 0 if ndim == 1 else None
    if isinstance(axis, tuple):
        if len(axis) > 1:
            raise _several(name, method)
        if not axis:
            return None
        axis = axis[0]
    if ndim == 0 and method == "reduce" and axis in (0, -1):  # NumPy reduces a 0-d array along "axis 0"
        return None
    return normalize_axis(axis, ndim)


def _several(name: str, method: str) -> ValueError:
    if method == "accumulate":
        return ValueError("accumulate does not allow multiple axes")
    return ValueError(f"reduction operation '{name}' is not reorderable, so at most one axis may be specified")


def loop_dtype(fn: Fn, x: Array, dtype: Any) -> Any:
    """The dtype the fold computes in: ``dtype=``, else the ufunc's result for two operands of ``x``'s dtype
    (``divide`` of integers: float64); a ufunc that refuses the dtype raises its own TypeError here."""
    if dtype is not None:
        return _kd().dtype(dtype)
    empty = x.reshape(-1)[:0]
    return fn(empty, empty).dtype


def left_reduce(name: str, fn: Fn, a: Any, axis: Any = 0, dtype: Any = None, keepdims: bool = False,
                initial: Any = None, where: Any = True) -> Array:
    """``fn`` folded from the left along ``axis`` (see the module docstring), NumPy's ``ufunc.reduce``.

    >>> import kdsl as kd
    >>> left_reduce("subtract", kd.subtract, kd.asarray([[9, 1, 2], [5, 5, 5]]), axis=1).tolist()
    [6, -5]
    """
    kd = _kd()
    x = asarray(a)
    loop = loop_dtype(fn, x, dtype)  # first, as NumPy: a complex remainder is a TypeError whatever the axes
    ax = fold_axis(name, x.ndim, axis)
    if initial is None and where is not True:
        raise ValueError(f"reduction operation '{name}' does not have an identity, so to use a where mask "
                         "one has to specify 'initial'")
    if initial is not None:
        initial = rw.initial_in(initial, loop)  # NumPy's conversion: 2.5 into an int64 loop is 2
    if ax is None:  # nothing to fold: the values in the loop's dtype (NumPy's axis=() and 0-d reductions)
        return x.astype(loop) if initial is None else _unfolded(fn, x.astype(loop), initial, where)
    y = kd.moveaxis(x.astype(loop), ax, -1)
    mask = None if where is True else kd.moveaxis(kd.broadcast_to(where_mask(where, x.device), x.shape), ax, -1)
    if initial is None:
        if y.shape[-1] == 0:
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        start, rest = y[..., 0], y[..., 1:]
    else:
        start, rest = kd.full(y.shape[:-1], initial, dtype=loop), y
    if name in SUMMED and rest.shape[-1] > SHORT:
        result = _summed(name, fn, start, rest, mask)
    else:
        result = _sequential(fn, start, rest, mask)
    return kd.expand_dims(result, ax) if keepdims else result


def _unfolded(fn: Fn, x: Array, initial: Any, where: Any) -> Array:
    """A reduction over no axes from ``initial``: ``fn(initial, x)`` where ``where`` holds, else ``initial``."""
    kd = _kd()
    start = kd.full(x.shape, initial, dtype=x.dtype)
    step = fn(start, x).astype(x.dtype)
    return step if where is True else kd.where(kd.broadcast_to(where_mask(where, x.device), x.shape), step, start)


def _summed(name: str, fn: Fn, start: Array, rest: Array, mask: Array | None) -> Array:
    """``start - sum(rest)`` / ``start / prod(rest)`` (masked-out elements count as the reduction's identity)."""
    kd = _kd()
    reduction, _, identity = SUMMED[name]
    if mask is not None:
        rest = kd.where(mask, rest, kd.asarray(identity, dtype=rest.dtype))
    total = getattr(kd, reduction)(rest, axis=-1, dtype=rest.dtype)
    return fn(start, total).astype(rest.dtype)


def _sequential(fn: Fn, acc: Array, rest: Array, mask: Array | None, chunk: int = CHUNK) -> Array:
    """``acc = fn(acc, rest[..., i])`` for each ``i`` in order (where ``mask[..., i]``), computed every
    ``chunk`` steps."""
    kd = _kd()
    for i in range(rest.shape[-1]):
        step = fn(acc, rest[..., i]).astype(acc.dtype)
        acc = step if mask is None else kd.where(mask[..., i], step, acc)
        if (i + 1) % chunk == 0:
            realize(acc)
    return acc


def left_accumulate(name: str, fn: Fn, a: Any, axis: Any = 0, dtype: Any = None) -> Array:
    """Every prefix's left fold along ``axis``, NumPy's ``ufunc.accumulate``.

    >>> import kdsl as kd
    >>> left_accumulate("subtract", kd.subtract, kd.asarray([10, 1, 2])).tolist()
    [10, 9, 7]
    """
    kd = _kd()
    x = asarray(a)
    if x.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    ax = fold_axis(name, x.ndim, axis, "accumulate")
    assert ax is not None  # an array of at least one dimension always has its axis
    loop = loop_dtype(fn, x, dtype)
    y = kd.moveaxis(x.astype(loop), ax, -1)
    n = y.shape[-1]
    if n <= 1:
        return x.astype(loop)
    first = y[..., :1]
    if name in SUMMED and n - 1 > SHORT:
        scan = getattr(kd, SUMMED[name][1])(y[..., 1:], axis=-1, dtype=loop)
        steps = fn(first, scan).astype(loop)
    else:
        steps = _prefixes(fn, first[..., 0], y[..., 1:])
    return kd.moveaxis(kd.concatenate([first, steps], axis=-1), -1, ax)


def _prefixes(fn: Fn, acc: Array, rest: Array, chunk: int = CHUNK) -> Array:
    """The accumulator after each element of ``rest`` (stacked on a new last axis), computed every ``chunk``."""
    kd = _kd()
    out = []
    for i in range(rest.shape[-1]):
        acc = fn(acc, rest[..., i]).astype(acc.dtype)
        out.append(acc)
        if (i + 1) % chunk == 0:
            realize(*out[-chunk:])
    return kd.stack(out, axis=-1)


__all__ = ["FOLDS", "left_accumulate", "left_reduce"]
