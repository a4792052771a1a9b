"""NumPy's ``piecewise``: a function defined by cases, as lazy whole-array selects.

NumPy calls each function on the selected elements only (``f(x[cond])``); kdsl calls it once on the whole of
``x`` and keeps its values where the condition holds (``kd.where``), so everything stays on the device and
fuses. The results agree for element-wise functions (what piecewise is for); values computed for elements a
condition excludes are discarded (on the GPU an invalid one is a silent NaN, never an error). A function whose
result reads ``x`` through anything but element-wise operations (``v - v.mean()``, ``v / v.max()``,
``np.cumsum(v)``, ``v[::-1]``) or reads positions (``np.arange(len(v))``) would differ: such a function is called
again as NumPy calls it, on ``x[cond]`` (a read of the count from the device), and its values are assigned
into the selected places.

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
from kdsl.frontend.array.shape_ops import broadcast_values_to


def _conditions(x: Array, condlist: Any) -> list[Array]:
    """``condlist`` as a list of boolean arrays shaped like ``x`` (one bare condition is a list of one; as in
    NumPy, an array of 2 or more axes is a stack of conditions, one per row)."""
    if isinstance(condlist, (Array, np.ndarray)) and condlist.ndim >= 2:
        condlist = [condlist[i] for i in range(condlist.shape[0])]
    elif isinstance(condlist, (Array, np.ndarray, bool, np.bool_)) or (
            isinstance(condlist, Sequence) and condlist and not isinstance(condlist[0], (Array, np.ndarray,
                                                                                          list, tuple))
            and x.ndim != 0):
        condlist = [condlist]
    conds = []
    for c in condlist:
        c = asarray(c)
        if c.dtype is not dt.bool_:  # NumPy reads numbers as truth values (``(x > 3) * (x <= 5)`` of Python
            c = c != 0  # bools is an int): nonzero holds
        if c.ndim and c.shape != x.shape:  # NumPy indexes x with each condition: a boolean index, not broadcast
            c = _leading(c, x.shape)
        conds.append(broadcast_values_to(c, x.shape))
    return conds


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
    """``func(x)`` where that agrees with NumPy's ``func(x[cond])`` at the selected places; otherwise
    ``out`` with NumPy's values assigned there (returned as ``(out, None)``)."""
    value = func(x, *args, **kw) if callable(func) else func
    if not callable(func) or x.size <= 1 or not isinstance(value, Array) or value.size <= 1:
        return out, value
    if value.shape == x.shape and reads_elementwise(value, [x], strict=True):
        return out, value
    out = out.copy()  # NumPy's y[cond] = func(x[cond], ...): the function sees the selected elements only
    out[cond] = func(x[cond], *args, **kw)
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
        covered = conds[0] if conds else zeros_like(x, dtype=dt.bool_)
        for c in conds[1:]:
            covered = covered | c
        conds.append(~covered)
    elif len(funclist) != len(conds):
        raise ValueError(f"with {len(conds)} condition(s), either {len(conds)} or {len(conds) + 1} functions are "
                         f"expected")
    out = zeros_like(x)
    for cond, func in zip(conds, funclist, strict=True):
        out, value = _value(func, x, cond, out, args, kw)
        if value is None:  # assigned as NumPy does (a function that is not element-wise)
            continue
        if isinstance(value, Array):
            value = asarray(value).astype(x.dtype)
        elif isinstance(value, (int, float, complex)):  # NumPy's y[cond] = value: 300 into uint8 raises
            value = np.asarray(value, dtype=x.dtype.np)  # OverflowError there (where() would wrap it to 44)
        out = km.where(cond, value, out).astype(x.dtype)
    return out
