"""The ufunc methods of :func:`kd.frompyfunc`'s result: ``outer``, ``reduce``, ``accumulate``, ``reduceat`` and
``at``.

NumPy's object ufuncs fold left, one element at a time: ``f.accumulate(a)`` is ``[a0, f(a0, a1),
f(f(a0, a1), a2), ...]`` (the "accumulate with my own function" idiom). kdsl folds the same way along the axis, but
each call takes a whole slice across the other axes, so a function of array math runs once per step of the axis
(lazy ops that fuse), and Python control flow on values works where the slices are single elements (1-D input:
``max(x, y)`` on 0-d arrays reads each to the host, as NumPy's per-element loop does).

Example:
    >>> import kdsl as kd
    >>> kd.frompyfunc(lambda x, y: x * 2 + y, 2, 1).accumulate(kd.asarray([1, 2, 3])).tolist()
    [1, 4, 11]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import scatter_rounds
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import arange, as_array, asarray, full
from kdsl.frontend.array.movement import normalize_axis
from kdsl.frontend.array.ops import where
from kdsl.frontend.array.shape_ops import broadcast_values_to, moveaxis, stack

NO_INITIAL: Any = object()  # no initial= given (None too means none, as in NumPy's object folds)


def _binary(nin: int, nout: int, method: str) -> None:
    if nin != 2 or nout != 1:
        raise ValueError(f"{method} only supported for binary functions (this one has nin={nin}, nout={nout})")


def _leading(x: Array, axis: int) -> Array:
    """``x`` with ``axis`` moved first, so that ``x[i]`` is one step of the fold."""
    return moveaxis(x, normalize_axis(axis, x.ndim), 0) if x.ndim else x


def outer(call: Callable[..., Any], nin: int, nout: int, a: Array, b: Array) -> Any:
    """``f(a[i, ...], b[j, ...])`` for every pair: shape ``a.shape + b.shape``."""
    _binary(nin, nout, "outer")
    return call(a.reshape(a.shape + (1,) * b.ndim), b)


def accumulate(call: Callable[..., Any], nin: int, nout: int, a: Array, axis: int = 0) -> Array:
    """The running left fold along ``axis`` (its first element unchanged), shape ``a.shape``."""
    _binary(nin, nout, "accumulate")
    if a.ndim == 0:
        raise TypeError("accumulate: cannot accumulate on a scalar (a 0-d array)")
    x = _leading(a, axis)
    if x.shape[0] == 0:
        return a
    acc = x[0]
    steps = [acc]
    for i in range(1, x.shape[0]):
        acc = call(acc, x[i])
        steps.append(acc)
    return moveaxis(stack(steps), 0, normalize_axis(axis, a.ndim))


def _fold_axes(a: Array, axis: Any) -> tuple[Array, tuple[int, ...]]:
    """``a`` with the reduced axes (None: all) moved first and merged into one, and those axes (normalised)."""
    axes = tuple(range(a.ndim)) if axis is None else tuple(
        normalize_axis(ax, a.ndim) for ax in (axis if isinstance(axis, tuple) else (axis,)))
    if len(set(axes)) != len(axes):
        raise ValueError(f"reduce: duplicate value in 'axis' ({axis})")
    rest = tuple(n for d, n in enumerate(a.shape) if d not in axes)
    front = moveaxis(a, axes, tuple(range(len(axes)))) if axes else a
    return front.reshape((-1, *rest)) if axes else front.reshape((1, *rest)), axes


def reduce(call: Callable[..., Any], nin: int, nout: int, identity: Any, a: Array, axis: Any = 0,
           keepdims: bool = False, initial: Any = NO_INITIAL, name: str = "f (vectorized)") -> Any:
    """The left fold along ``axis`` (a tuple: those axes in C order; None: all; both only with an ``identity``,
    as NumPy's); ``initial`` starts it. As for NumPy's object loops, the ``identity`` given to ``frompyfunc`` is
    only what an empty reduction gives."""
    _binary(nin, nout, "reduce")
    x, axes = _fold_axes(a, axis)
    if len(axes) > 1 and identity is None:
        raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one axis may be specified "
                         f"(give frompyfunc an identity=, or reduce one axis at a time)")
    acc: Any = None if initial is NO_INITIAL else initial
    if x.shape[0] == 0:
        if acc is None and identity is None:
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity (pass initial=)")
        acc = full(x.shape[1:], identity if acc is None else acc)
    for i in range(x.shape[0]):
        acc = x[i] if acc is None else call(acc, x[i])
    if keepdims:
        shape = tuple(1 if d in axes else n for d, n in enumerate(a.shape))
        acc = acc.reshape(shape)
    return acc


def reduceat(call: Callable[..., Any], nin: int, nout: int, a: Array, indices: Any, axis: int = 0,
             name: str = "f (vectorized)") -> Array:
    """NumPy's ``reduceat``: the left fold of ``a[indices[i]:indices[i + 1]]`` along ``axis`` for each ``i`` (to
    the end for the last; ``a[indices[i]]`` alone where the next index is not larger). The segments fold
    together, one call per step of the longest (inactive ones keep their value); the indices are read on the
    host, as they decide the segments.

    >>> import kdsl as kd
    >>> f = kd.frompyfunc(lambda u, v: u * 10 + v, 2, 1)
    >>> f.reduceat(kd.asarray([1, 2, 3, 4]), [0, 2, 1]).tolist()
    [12, 3, 234]
    """
    _binary(nin, nout, "reduceat")
    if a.ndim == 0:
        raise TypeError("reduceat: cannot reduce a scalar (a 0-d array)")
    x = _leading(a, axis)
    n = x.shape[0]
    starts = np.asarray(indices.numpy() if isinstance(indices, Array) else indices, dtype=np.int64).reshape(-1)
    for i in starts:
        if not 0 <= i < n:
            raise IndexError(f"index {i} out-of-bounds in {name}.reduceat [0, {n})")
    ends = np.append(starts[1:], n)
    lengths = np.where(ends > starts, ends - starts, 1)
    acc = x[asarray(starts, device=a.device)]
    for t in range(1, int(lengths.max(initial=1))):
        step = x[asarray(np.minimum(starts + t, n - 1), device=a.device)]
        active = asarray(lengths > t, device=a.device).reshape((-1,) + (1,) * (x.ndim - 1))
        acc = where(active, call(acc, step), acc)
    return moveaxis(acc, 0, normalize_axis(axis, a.ndim))


def at(call: Callable[..., Any], nin: int, a: Array, indices: Any, b: Any = None) -> None:
    """NumPy's unbuffered ``ufunc.at``: ``a[i] = f(a[i], b)`` (``f(a[i])`` for one input) for each selected
    element in index order, repeated indices applying again, each result cast back to ``a``'s dtype. Any index
    ``a[indices]`` takes (ints, slices, arrays, masks); the repeats run in rounds (``scatter_rounds.py``).

    >>> import kdsl as kd
    >>> a = kd.asarray([1, 2, 3])
    >>> kd.frompyfunc(lambda u, v: u * 10 + v, 2, 1).at(a, [0, 0, 2], 5)
    >>> a.tolist()
    [155, 2, 35]
    """
    if nin not in (1, 2):
        raise ValueError(f"at only supported for unary and binary functions (this one has nin={nin})")
    if (b is None) != (nin == 1):
        raise ValueError("second operand needed for ufunc" if nin == 2 else "second operand provided when ufunc "
                         "is unary")
    where_ = arange(a.size, dtype=dt.int64, device=a.device).reshape(a.shape)[indices]
    idx = where_.reshape(-1)
    if idx.size == 0:
        return
    values: Any = 0
    if nin == 2:
        values = b if isinstance(b, (bool, int, float, complex)) else broadcast_values_to(
            as_array(b, device=a.device), where_.shape).reshape(-1)
    fn = (lambda y, v: call(y, v)) if nin == 2 else (lambda y, _: call(y))
    a[...] = scatter_rounds.combined(fn, a.reshape(-1), idx, values, a.size).reshape(a.shape)
