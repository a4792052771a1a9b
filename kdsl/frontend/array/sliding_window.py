"""``kd.lib.stride_tricks.sliding_window_view`` and ``as_strided``: every window of an array, or any strided
view of its data, as NumPy's, zero-copy.

The windows are one strided view of the data (each window axis steps like the axis it slides along), so
``sliding_window_view(x, 3).mean(axis=-1)`` reads ``x`` in the kernel that averages, with no copy. As NumPy's
(read-only: ``w.flags.writeable`` is False and assigning raises ValueError), writing into the windows does
not reach ``x``; writes into ``x`` show in them, as in NumPy's views. The namespace ``kd.lib.stride_tricks``
(also importable as ``kdsl.lib.stride_tricks``) is NumPy's ``np.lib.stride_tricks`` for ported code.
``as_strided(x, shape, strides)`` takes NumPy's byte strides (``x.strides`` gives them); unlike NumPy's it checks
that the view stays inside ``x``'s data (ValueError). Writes into ``x`` show in it; writes into it reach ``x``
when its elements do not overlap and ``x`` is C-contiguous (``as_strided(a, (3,), (2 * a.itemsize,))[1] = 5``
sets ``a[2]``, as NumPy's); a self-overlapping view (whose writes NumPy leaves unpredictable) keeps its own
values from then on.

    >>> import kdsl as kd
    >>> w = kd.lib.stride_tricks.sliding_window_view(kd.arange(5), 3)
    >>> w.tolist(), w.sum(axis=-1).tolist()
    ([[0, 1, 2], [1, 2, 3], [2, 3, 4]], [3, 6, 9])
"""

from __future__ import annotations

import math
import sys
import types
from typing import Any

import numpy as np

from kdsl.frontend.array import movement as mv
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.ir.view import View


def _windows(window_shape: Any, axis: Any, ndim: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(window sizes, the axes they slide along), checked as NumPy checks them."""
    sizes = tuple(int(w) for w in np.atleast_1d(window_shape))
    if any(w < 0 for w in sizes):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        if len(sizes) != ndim:
            raise ValueError(f"Since axis is `None`, must provide window_shape for all dimensions of `x`; got "
                             f"{len(sizes)} window_shape elements and `x.ndim` is {ndim}.")
        return sizes, tuple(range(ndim))
    # in the given order, repeats allowed (a window slides along its axis again): not normalize_axes
    axes = tuple(mv.normalize_axis(int(ax), ndim) for ax in np.atleast_1d(axis))
    if len(axes) != len(sizes):
        raise ValueError(f"Must provide matching length window_shape and axis; got {len(sizes)} window_shape "
                         f"elements and {len(axes)} axes elements.")
    return sizes, axes


def sliding_window_view(x: Any, window_shape: Any, axis: Any = None, *, subok: bool = False,
                        writeable: bool = False) -> Array:
    """The windows of ``window_shape`` sliding along ``axis`` (all axes when None): shape
    ``x.shape`` with each slid axis shortened by its window less one, then the window axes (NumPy's)."""
    if writeable:
        raise ValueError("kdsl's sliding windows are read-only (their elements overlap); write into x instead")
    a = x if isinstance(x, Array) else asarray(x)
    sizes, axes = _windows(window_shape, axis, a.ndim)
    base, view = mv.view_base(a._node)  # noqa: SLF001 - a view of the same data, as every movement op makes
    shape = list(view.shape)
    for w, ax in zip(sizes, axes, strict=True):
        if w > shape[ax]:
            raise ValueError("window shape cannot be larger than input array shape")
        shape[ax] -= w - 1
    strides = view.strides + tuple(view.strides[ax] for ax in axes)
    windows = View(tuple(shape) + sizes, strides, view.offset)
    out = Array(mv.view_node(base, windows))  # noqa: SLF001
    out.setflags(write=False)  # NumPy's windows are read-only: assigning raises ValueError (array_flags.py)
    if a is x:  # NumPy's windows are a view: writes into x show in them
        out._follow(lambda: a, lambda now: sliding_window_view(now, window_shape, axis), a)  # noqa: SLF001
    return out


def as_strided(x: Any, shape: Any = None, strides: Any = None, subok: bool = False,
               writeable: bool = True) -> Array:
    """The view of ``x``'s data with ``shape`` and byte ``strides`` (defaults: ``x``'s), NumPy's ``as_strided``
    (checked: every element must lie inside the data ``x`` views).

    >>> import kdsl as kd
    >>> a = kd.arange(5)
    >>> kd.lib.stride_tricks.as_strided(a, shape=(3, 3), strides=(a.strides[0], a.strides[0])).tolist()
    [[0, 1, 2], [1, 2, 3], [2, 3, 4]]
    """
    a = x if isinstance(x, Array) else asarray(x)
    base, view = mv.view_base(a._node)  # noqa: SLF001 - a view of the same data
    if any(s == 0 and n > 1 for n, s in zip(view.shape, view.strides, strict=True)) and a.flags.c_contiguous:
        # a lazy constant (kd.zeros(12)) has no memory: its copy has the C-ordered layout NumPy's strides describe
        base, view = mv.view_base(a.copy()._node)  # noqa: SLF001
    size = a.dtype.itemsize
    target = tuple(int(n) for n in (a.shape if shape is None else np.atleast_1d(shape)))
    steps = tuple(int(s) for s in (a.strides if strides is None else np.atleast_1d(strides)))
    if len(steps) != len(target) or any(s % size for s in steps):
        raise ValueError(f"as_strided: strides {steps} must be one multiple of the itemsize ({size}) per axis of "
                         f"shape {target}")
    elems = tuple(s // size for s in steps)
    reach = [(n - 1) * e for n, e in zip(target, elems, strict=True)]
    low = view.offset + sum(r for r in reach if r < 0)
    high = view.offset + sum(r for r in reach if r > 0)
    if math.prod(target) and (low < 0 or high >= math.prod(base.shape)):
        raise ValueError(f"as_strided: shape {target} with strides {steps} reaches outside the array's data "
                         f"({math.prod(base.shape)} elements); kdsl reads no memory the array does not hold")
    out = Array(mv.view_node(base, View(target, elems, view.offset)))  # noqa: SLF001
    if not writeable:  # as NumPy's: assigning raises ValueError (array_flags.py)
        out.setflags(write=False)
    if a is not x:
        return out
    read = lambda now: as_strided(now, target, steps)  # noqa: E731 - NumPy's view: writes into x show in it
    if writeable and _writes_through(a, View(target, elems, view.offset), view):
        return out._view_of(a, _scatter_back(target, elems), read)  # noqa: SLF001
    out._follow(lambda: a, read, a)  # noqa: SLF001
    return out


def _writes_through(a: Array, strided: View, view: View) -> bool:
    """Whether writes into the strided view can go back into ``a``: ``a`` covers one C-ordered block of its
    data (so a data position is an element of ``a``), the strided view stays inside that block and no two of
    its elements share a position (each axis steps past everything the shorter-stepping axes reach)."""
    if not view.is_contiguous or a.size == 0:
        return False
    start = view.offset
    lo = strided.offset + sum((n - 1) * e for n, e in zip(strided.shape, strided.strides, strict=True) if e < 0)
    hi = strided.offset + sum((n - 1) * e for n, e in zip(strided.shape, strided.strides, strict=True) if e > 0)
    if lo < start or hi >= start + a.size:
        return False
    reach = 0
    for n, e in sorted(((n, abs(e)) for n, e in zip(strided.shape, strided.strides, strict=True) if n > 1),
                       key=lambda ne: ne[1]):
        if e <= reach:
            return False
        reach += (n - 1) * e
    return True


def _scatter_back(shape: tuple[int, ...], elems: tuple[int, ...]):
    """The write of a non-overlapping strided view into its C-contiguous array: each element to its position
    (index . ``elems``: the view starts where the array does) in the array's flat order. The positions are
    made at the first write (a view only read, such as a large im2col view, costs nothing on the host)."""
    made: list[np.ndarray] = []

    def write(base: Array, strided: Array) -> None:
        if not made:
            grids = np.indices(shape, sparse=True) if shape else ()
            made.append(sum((g * e for g, e in zip(grids, elems, strict=True)), np.zeros(shape, np.int64)))
        flat = base.reshape(-1)
        flat[asarray(made[0].reshape(-1), device=base.device)] = strided.reshape(-1)

    return write


def _namespace() -> types.ModuleType:
    """``kd.lib`` with its ``stride_tricks``, registered so that ``from kdsl.lib.stride_tricks import ...``
    works as ``from numpy.lib.stride_tricks import ...`` does."""
    lib = types.ModuleType("kdsl.lib", "NumPy's np.lib names kdsl has (kd.lib.stride_tricks.sliding_window_view).")
    tricks = types.ModuleType("kdsl.lib.stride_tricks", "NumPy's np.lib.stride_tricks names kdsl has.")
    tricks.sliding_window_view = sliding_window_view  # type: ignore[attr-defined]
    tricks.as_strided = as_strided  # type: ignore[attr-defined]
    lib.stride_tricks = tricks  # type: ignore[attr-defined]
    sys.modules.setdefault("kdsl.lib", lib)
    sys.modules.setdefault("kdsl.lib.stride_tricks", tricks)
    return sys.modules["kdsl.lib"]


lib = _namespace()
