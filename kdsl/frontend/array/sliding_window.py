"""``kd.lib.stride_tricks.sliding_window_view``: every window of an array, as NumPy's, a zero-copy view.

The windows are one strided view of the data (each window axis steps like the axis it slides along), so
``sliding_window_view(x, 3).mean(axis=-1)`` reads ``x`` in the kernel that averages, with no copy. As NumPy's
(read-only by default), writing into the windows does not reach ``x``. The namespace ``kd.lib.stride_tricks``
(also importable as ``kdsl.lib.stride_tricks``) is NumPy's ``np.lib.stride_tricks`` for ported code.

    >>> import kdsl as kd
    >>> w = kd.lib.stride_tricks.sliding_window_view(kd.arange(5), 3)
    >>> w.tolist(), w.sum(axis=-1).tolist()
    ([[0, 1, 2], [1, 2, 3], [2, 3, 4]], [3, 6, 9])
"""

from __future__ import annotations

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
    base, view = mv._base(a._node)  # noqa: SLF001 - a view of the same data, as every movement op makes
    shape = list(view.shape)
    for w, ax in zip(sizes, axes, strict=True):
        if w > shape[ax]:
            raise ValueError("window shape cannot be larger than input array shape")
        shape[ax] -= w - 1
    strides = view.strides + tuple(view.strides[ax] for ax in axes)
    windows = View(tuple(shape) + sizes, strides, view.offset)
    return Array(mv._make(base, windows))  # noqa: SLF001


def _namespace() -> types.ModuleType:
    """``kd.lib`` with its ``stride_tricks``, registered so that ``from kdsl.lib.stride_tricks import ...``
    works as ``from numpy.lib.stride_tricks import ...`` does."""
    lib = types.ModuleType("kdsl.lib", "NumPy's np.lib names kdsl has (kd.lib.stride_tricks.sliding_window_view).")
    tricks = types.ModuleType("kdsl.lib.stride_tricks", "NumPy's np.lib.stride_tricks names kdsl has.")
    tricks.sliding_window_view = sliding_window_view  # type: ignore[attr-defined]
    lib.stride_tricks = tricks  # type: ignore[attr-defined]
    sys.modules.setdefault("kdsl.lib", lib)
    sys.modules.setdefault("kdsl.lib.stride_tricks", tricks)
    return sys.modules["kdsl.lib"]


lib = _namespace()
