"""``numpy.ma``'s wrappers of NumPy's shape functions (``atleast_1d/2d/3d``, ``diagflat``, ``column_stack``,
``dstack``, ``hsplit``, ``diag``, ``resize``, ``append``) and its shape queries (``shape``, ``ndim``, ``size``).
As ``numpy.ma.extras``' ``_fromnxfunction`` wrappers do, the kdsl function runs once on the data and once on the
full mask, so the mask follows the data whatever the function moves; nothing is read back.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([1, 2], mask=[False, True])
    >>> print(kd.ma.column_stack([x, kd.ma.array([3, 4])]))
    [[1 3]
     [-- 4]]
    >>> kd.ma.shape(x), kd.ma.ndim(x), kd.ma.size(x)
    ((2,), 1, 2)
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.ma.constants import nomask
from kdsl.ma.functions import concatenate, getdata, getmask, getmaskarray
from kdsl.ma.masked_array import MaskedArray


def _each_arg(name: str) -> Any:
    """NumPy's ``_fromnxfunction_allargs``: ``kd.<name>`` of each argument's data and full mask; one result
    for one argument, else a list."""
    def fn(*arys: Any, **kwargs: Any) -> Any:
        fun = getattr(kd, name)
        out = [MaskedArray.wrap(fun(getdata(a), **kwargs), fun(getmaskarray(a), **kwargs)) for a in arys]
        return out[0] if len(out) == 1 else out
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"NumPy's ``np.ma.{name}``: ``kd.{name}`` of each argument's data and of its mask."
    return fn


def _sequence(name: str) -> Any:
    """NumPy's ``_fromnxfunction_seq``: ``kd.<name>`` of the sequence's data and of its full masks."""
    def fn(tup: Any, **kwargs: Any) -> MaskedArray:
        pieces = list(tup)
        fun = getattr(kd, name)
        return MaskedArray.wrap(fun([getdata(a) for a in pieces], **kwargs),
                                fun([getmaskarray(a) for a in pieces], **kwargs))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"NumPy's ``np.ma.{name}``: ``kd.{name}`` of the arrays' data and of their masks."
    return fn


atleast_1d, atleast_2d, atleast_3d, diagflat = (_each_arg(n) for n in ("atleast_1d", "atleast_2d", "atleast_3d",
                                                                       "diagflat"))
column_stack, dstack = (_sequence(n) for n in ("column_stack", "dstack"))


def hsplit(a: Any, indices_or_sections: Any) -> MaskedArray:
    """NumPy's ``np.ma.hsplit``: as NumPy's, the pieces of ``kd.hsplit`` come back stacked into one masked array
    (``numpy.ma`` builds a masked array from the list of pieces), masks split alike."""
    data = kd.stack(kd.hsplit(getdata(a), indices_or_sections))
    mask = kd.stack(kd.hsplit(getmaskarray(a), indices_or_sections))
    return MaskedArray.wrap(data, mask)


def diag(v: Any, k: int = 0) -> MaskedArray:
    """NumPy's ``np.ma.diag``: ``kd.diag`` of the data, and of the mask when there is one."""
    m = getmask(v)
    return MaskedArray.wrap(kd.diag(getdata(v), k), nomask if m is nomask else kd.diag(m, k))


def resize(x: Any, new_shape: Any) -> MaskedArray:
    """NumPy's ``np.ma.resize``: the data and the mask repeated in order to fill ``new_shape`` (unlike
    ``kd.resize`` of a masked array, which drops the mask)."""
    m = getmask(x)
    data = kd.resize(getdata(x), new_shape)
    return MaskedArray.wrap(data, nomask if m is nomask or data.ndim == 0 else kd.resize(m, new_shape))


def append(a: Any, b: Any, axis: Any = None) -> MaskedArray:
    """NumPy's ``np.ma.append``: ``b`` after ``a`` along ``axis`` (both flattened when ``axis`` is None)."""
    if axis is None:
        a, b = (x.ravel() if isinstance(x, MaskedArray) else kd.ravel(getdata(x)) for x in (a, b))
        axis = 0
    return concatenate([a, b], axis)


def shape(obj: Any) -> tuple[int, ...]:
    """NumPy's ``np.ma.shape``: the shape of ``obj``'s data."""
    return tuple(getdata(obj).shape)


def ndim(obj: Any) -> int:
    """NumPy's ``np.ma.ndim``: the number of dimensions of ``obj``'s data."""
    return getdata(obj).ndim


def size(obj: Any, axis: Any = None) -> int:
    """NumPy's ``np.ma.size``: the number of elements of ``obj``'s data (along ``axis`` when given)."""
    return kd.size(getdata(obj), axis)


__all__ = ["append", "atleast_1d", "atleast_2d", "atleast_3d", "column_stack", "diag", "diagflat", "dstack",
           "hsplit", "ndim", "resize", "shape", "size"]
