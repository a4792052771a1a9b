"""NumPy's ``piecewise``: a function defined by cases, as lazy whole-array selects.

NumPy calls each function on the selected elements only (``f(x[cond])``, once per condition that selects
something); so does kdsl, reading each selection's size from the device, unless the function is provably pure
element-wise arithmetic (a ufunc, or a function whose code only combines its arguments, numbers and ufuncs:
``lambda v: v * v``, ``lambda t: 1 - np.abs(t)``; ``pure_elementwise.py``). Such a function is called once on the
whole of ``x`` and its values kept where the condition holds (``kd.where``), so everything stays on the device and
fuses; as it has no side effects, the extra or missing call is unobservable, and values computed for excluded
elements are discarded (on the GPU an invalid one is a silent NaN, never an error). Any other function (``v -
v.mean()``, ``np.cumsum(v)``, ``v[::-1]``, one that records its calls) sees NumPy's arguments, NumPy's number of
times: whole sub-arrays for a condition of ``x``'s leading axes, no call where nothing is selected.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([-2.0, -0.5, 0.5, 2.0])
    >>> kd.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * v]).tolist()
    [2.0, 0.5, 0.25, 4.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray, zeros_like
from kdsl.frontend.array.elementwise_graph import reads_elementwise
from kdsl.frontend.array.pure_elementwise import is_pure_elementwise
from kdsl.frontend.array.shape_ops import broadcast_values_to


def _condition_items(x: Array, condlist: Any) -> list[Any]:
    """``condlist`` as a list of conditions, as NumPy reads it: one bare condition is a list of one, an array of
    2 or more axes a stack of conditions (one per row); an empty list is NumPy's IndexError (``condlist[0]``)."""
    if isinstance(condlist, (bool, np.bool_)) or (isinstance(condlist, (Array, np.ndarray)) and condlist.ndim == 0):
        return [condlist]
    if isinstance(condlist, (Array, np.ndarray)) and condlist.shape[0] == 0:
        raise IndexError("index 0 is out of bounds for axis 0 with size 0")
    if isinstance(condlist, Sequence) and not condlist:
        _ = condlist[0]  # Python's IndexError, as NumPy's condlist[0] raises it ("list index out of range")
    if isinstance(condlist, (Array, np.ndarray)) and condlist.ndim >= 2:
        return [condlist[i] for i in range(condlist.shape[0])]
    if isinstance(condlist, (Array, np.ndarray)) or (
            isinstance(condlist, Sequence) and not isinstance(condlist[0], (Array, np.ndarray, list, tuple))
            and x.ndim != 0):
        return [condlist]
    return list(condlist)


def _conditions(x: Array, condlist: Any) -> list[Array]:
    """``condlist`` as boolean arrays of one shape: ``x``'s, or that of its leading axes (NumPy indexes ``x``
    with each condition: a boolean index, not a broadcast)."""
    conds = []
    for c in _condition_items(x, condlist):
        c = asarray(c)
        if c.dtype is not dt.bool_:  # NumPy reads numbers as truth values (``(x > 3) * (x <= 5)`` of Python
            c = c != 0  # bools is an int): nonzero holds
        conds.append(c)
    if len({c.shape for c in conds}) > 1:  # NumPy stacks them first (np.asarray(condlist, dtype=bool)): its error
        np.asarray([np.broadcast_to(np.False_, c.shape) for c in conds], dtype=bool)
        raise ValueError(f"piecewise: the conditions have different shapes {[c.shape for c in conds]}")
    return conds


def _spread(cond: Array, shape: tuple[int, ...]) -> Array:
    """A condition of ``x``'s leading axes (or all of them) broadcast to ``x``'s ``shape``, for ``where``."""
    return broadcast_values_to(cond.reshape(cond.shape + (1,) * (len(shape) - cond.ndim)), shape)


def _leading(cond: Array, shape: tuple[int, ...]) -> Array:
    """A condition of ``x``'s leading axes (NumPy's boolean index of fewer axes selects whole sub-arrays) given
    trailing size-1 axes; any other shape is NumPy's IndexError for the boolean index."""
    if cond.ndim > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, but {cond.ndim} were "
                         "indexed")
    for axis, (n, m) in enumerate(zip(shape, cond.shape, strict=False)):
        if n != m:
            raise IndexError(f"boolean index did not match indexed array along axis {axis}; size of axis is {n} "
                             f"but size of corresponding boolean axis is {m}")
    return cond.reshape(cond.shape + (1,) * (len(shape) - cond.ndim))


def _value(func: Any, x: Array, cond: Array, out: Array, args: Any, kw: Any) -> tuple[Array, Any]:
    """A constant, or ``func(x)`` where that is provably NumPy's ``func(x[cond])`` at the selected places and
    calling it on all of ``x`` is unobservable (``pure_elementwise.py``); otherwise ``out`` with NumPy's values
    assigned there, ``func`` called as NumPy calls it (returned as ``(out, None)``)."""
    if not callable(func):
        return out, func
    if is_pure_elementwise(func):
        try:
            value = func(x, *args, **kw)
        except Exception:  # noqa: BLE001 - NumPy raises it only if it calls func: not where nothing is selected
            value = None  # (a one-argument function beside piecewise's *args): NumPy's calls below decide
        if value is not None and (not isinstance(value, Array) or value.size <= 1 or (
                value.shape == x.shape and reads_elementwise(value, [x], strict=True))):
            return out, value
        # an argument in args made it more than element-wise (a pure function: a second call is unobservable)
    # NumPy's y[cond] = func(x[cond], ...): the function sees the selected elements only (whole sub-arrays for a
    # condition of leading axes), once, and is not called where nothing is selected
    selected = x[cond]
    if selected.size:
        out = out.copy()
        out[cond] = func(selected, *args, **kw)
    return out, None


def piecewise(x: Any, condlist: Any, funclist: Sequence[Any], *args: Any, **kw: Any) -> Array:
    """``funclist[i](x, *args, **kw)`` where ``condlist[i]`` holds (later conditions win), 0 elsewhere, in
    ``x``'s dtype (NumPy's ``np.piecewise``). A function list one longer than the conditions ends with the
    value where none holds; an entry that is not callable is a constant. See the module docstring for how
    kdsl evaluates the functions.

    >>> import kdsl as kd
    >>> x = kd.arange(-2, 3)
    >>> kd.piecewise(x, [x < 0, x > 0], [-1, 1]).tolist(), kd.piecewise(x, [x < 0], [0, lambda v: v]).tolist()
    ([-1, -1, 0, 1, 1], [0, 0, 0, 1, 2])
    """
    x = asarray(x)
    conds = _conditions(x, condlist)
    if len(funclist) == len(conds) + 1:
        covered = conds[0]
        for c in conds[1:]:
            covered = covered | c
        conds.append(~covered)
    elif len(funclist) != len(conds):
        raise ValueError(f"with {len(conds)} condition(s), either {len(conds)} or {len(conds) + 1} functions are "
                         f"expected")
    if conds[0].ndim and conds[0].shape != x.shape:  # after the count, as NumPy indexes x only then
        _leading(conds[0], x.shape)  # NumPy's IndexError for a shape that is not x's leading axes
    out = zeros_like(x)
    for cond, func in zip(conds, funclist, strict=True):
        out, value = _value(func, x, cond, out, args, kw)
        if value is None:  # assigned as NumPy does (a function that is not element-wise)
            continue
        if isinstance(value, Array):
            value = asarray(value).astype(x.dtype)
        elif isinstance(value, (int, float, complex)):  # NumPy's y[cond] = value: 300 into uint8 raises
            value = np.asarray(value, dtype=x.dtype.np)  # OverflowError there (where() would wrap it to 44)
        out = km.where(_spread(cond, x.shape), value, out).astype(x.dtype)
    return out
