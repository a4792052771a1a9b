"""NumPy's ``reduce``/``accumulate`` of the comparison ufuncs (``kd.equal.reduce``, ``kd.less.accumulate``...).

A comparison's loops give ``bool``, so NumPy folds one only where its operands are ``bool`` as well (the input
itself, or ``dtype=bool``); other inputs raise NumPy's ``TypeError`` ("No loop matching the specified signature
and casting was found"). NumPy treats these folds as left folds that cannot be reordered: one axis at most, no
identity (an empty axis, or ``where=``, needs ``initial``).

On bools each fold has a closed form over one axis, so it runs as a few scans instead of one step per element
(``c`` is the running count of True, ``k`` the position, ``x0`` the first element):

* ``not_equal`` is exclusive or: ``c`` odd; ``equal`` is its negation step by step: ``c + k`` odd;
* ``greater`` (``acc and not x``): ``x0`` and no later True: ``x0 and c == 1``;
* ``greater_equal`` (``acc or not x``): ``x0``, or a False after it: ``x0 or (count of False) >= 2``;
* ``less`` (``not acc and x``): True after an odd run of True at the end (``k - last False`` odd);
* ``less_equal`` (``not acc or x``): True after an even run of False at the end (``k - last True`` even).

``where=`` falls back to the step-by-step left fold (:mod:`kdsl.frontend.array.left_folds`).

    >>> import kdsl as kd
    >>> kd.less.accumulate(kd.asarray([True, True, False, True])).tolist()
    [True, False, False, True]
    >>> kd.equal.reduce(kd.asarray([True, False, False])).item()
    True
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl.frontend.array import left_folds
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.ufunc_errors import no_matching_loop_error

COMPARISONS = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")

Fn = Callable[..., Any]


def _kd() -> Any:
    return sys.modules["kdsl"]  # the namespace's scans (this module sits below it in the layers)


def bool_operand(name: str, a: Any, dtype: Any) -> Array:
    """``a`` as the fold's bool operand: NumPy's only loop for a comparison's fold is ``??->?``, so the input
    (or ``dtype=``) must be bool; anything else is NumPy's TypeError."""
    x = asarray(a)
    loop = np.dtype(_kd().dtype(dtype).np) if dtype is not None else np.dtype(x.dtype.np)
    if loop != np.bool_:
        raise no_matching_loop_error(name)
    return x.astype(_kd().bool)


def reduce(name: str, fn: Fn, a: Any, axis: Any = 0, dtype: Any = None, keepdims: bool = False,
           initial: Any = None, where: Any = True) -> Array:
    """``fn`` folded from the left along ``axis``, NumPy's ``ufunc.reduce`` of a comparison."""
    x = bool_operand(name, a, dtype)
    ax = left_folds.fold_axis(name, x.ndim, axis)
    if where is not True or ax is None or (x.shape[ax] == 0 and initial is None):  # NumPy's errors and 0-d cases
        return left_folds.left_reduce(name, fn, x, axis, None, keepdims, initial, where)
    result = _scan(name, _with_initial(x, ax, initial), ax)
    last = result.shape[ax] - 1
    picked = result[(slice(None),) * ax + (slice(last, last + 1),)]
    return picked if keepdims else _kd().squeeze(picked, axis=ax)


def accumulate(name: str, a: Any, axis: Any = 0, dtype: Any = None) -> Array:
    """Every prefix's left fold along ``axis``, NumPy's ``ufunc.accumulate`` of a comparison."""
    x = bool_operand(name, a, dtype)
    if x.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    ax = left_folds.fold_axis(name, x.ndim, axis, "accumulate")
    assert ax is not None  # an array of at least one dimension always has its axis
    return _scan(name, x, ax) if x.shape[ax] > 0 else x


def _with_initial(x: Array, ax: int, initial: Any) -> Array:
    """``x`` with NumPy's ``initial`` as the first element along ``ax`` (where the fold starts)."""
    if initial is None:
        return x
    kd = _kd()
    shape = x.shape[:ax] + (1,) + x.shape[ax + 1:]
    return kd.concatenate([kd.full(shape, bool(initial), dtype=kd.bool), x], axis=ax)


def _scan(name: str, x: Array, ax: int) -> Array:
    """The running fold of bool ``x`` along ``ax`` (length at least 1), by the closed forms above."""
    kd = _kd()
    y = kd.moveaxis(x, ax, -1)
    k = kd.arange(y.shape[-1], dtype=kd.int32)
    first = y[..., :1]
    if name in ("equal", "not_equal", "greater"):
        count = kd.cumsum(y, axis=-1, dtype=kd.int32)  # running count of True (parity survives wrap-around)
        if name == "greater":
            out = kd.logical_and(first, count == 1)
        else:
            out = ((count + k) if name == "equal" else count) % 2 == 1
    elif name == "greater_equal":
        out = kd.logical_or(first, kd.cumsum(~y, axis=-1, dtype=kd.int32) >= 2)
    else:  # less / less_equal: the length of the run at the end, from the last False / True so far
        marks = ~y if name == "less" else y
        last = kd.maximum.accumulate(kd.where(marks, k, -1), axis=-1)
        out = (k - last) % 2 == (1 if name == "less" else 0)
    return kd.moveaxis(out, -1, ax)


__all__ = ["COMPARISONS", "accumulate", "reduce"]
