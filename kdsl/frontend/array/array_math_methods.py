"""Array's methods that call kdsl's math functions: the reductions (``a.sum()``, ``a.max(axis=0)``...), the
scans (``a.cumsum()``), ``a.nonzero()``, ``a.dot(b)``, ``a.round()`` and ``a.clip()``. These functions are
:class:`Array`'s methods; each imports its module when called (those modules build Arrays).

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> a.sum().item(), a.max(axis=0).tolist(), a.cumsum().tolist()
    (10.0, [3.0, 4.0], [1.0, 3.0, 6.0, 10.0])
"""

from __future__ import annotations

import builtins
import math as pymath
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array


def reduce(self, name, *args, **kwargs):
    from kdsl.frontend.array import reductions  # cycle: that module builds Arrays

    return getattr(reductions, name)(self, *args, **kwargs)


def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=np._NoValue, where=True):
    return self._reduce("sum", axis, dtype=dtype, keepdims=keepdims, out=out, initial=initial, where=where)


def prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=np._NoValue, where=True):
    return self._reduce("prod", axis, dtype=dtype, keepdims=keepdims, out=out, initial=initial, where=where)


def mean(self, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    return self._reduce("mean", axis, dtype=dtype, keepdims=keepdims, out=out, where=where)


def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    return self._reduce("var", axis, dtype=dtype, ddof=ddof, keepdims=keepdims, correction=correction, out=out,
                        where=where, mean=mean)


def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    return self._reduce("std", axis, dtype=dtype, ddof=ddof, keepdims=keepdims, correction=correction, out=out,
                        where=where, mean=mean)


def max(self, axis=None, out=None, keepdims=False, initial=None, where=True):
    return self._reduce("max", axis, keepdims=keepdims, out=out, initial=initial, where=where)


def min(self, axis=None, out=None, keepdims=False, initial=None, where=True):
    return self._reduce("min", axis, keepdims=keepdims, out=out, initial=initial, where=where)


def argmax(self, axis=None, out=None, *, keepdims=False):
    return self._reduce("argmax", axis, out, keepdims=keepdims)


def argmin(self, axis=None, out=None, *, keepdims=False):
    return self._reduce("argmin", axis, out, keepdims=keepdims)


def any(self, axis=None, out=None, keepdims=False, *, where=True):
    return self._reduce("any", axis, keepdims=keepdims, out=out, where=where)


def all(self, axis=None, out=None, keepdims=False, *, where=True):
    return self._reduce("all", axis, keepdims=keepdims, out=out, where=where)


def cumsum(self, axis=None, dtype=None, out=None):
    from kdsl.frontend.array import cumulative  # cycle: that module builds Arrays

    return cumulative.cumsum(self, axis, dtype=dtype, out=out)


def cumprod(self, axis=None, dtype=None, out=None):
    from kdsl.frontend.array import cumulative  # cycle: that module builds Arrays

    return cumulative.cumprod(self, axis, dtype=dtype, out=out)


def nonzero(self) -> tuple[Array, ...]:
    from kdsl.frontend.array.masks import nonzero  # cycle: that module builds Arrays

    return nonzero(self)


def dot(self, other, /, out=None) -> Array:
    from kdsl.frontend.array.linalg import dot  # cycle: that module builds Arrays

    return dot(self, other, out)


def __round__(self, ndigits: int | None = None) -> Array | int:
    """``round(x)`` of a 0-d array (a reduction's result, which stands for NumPy's scalar) is a Python int, as
    ``round(np.float64(2.5))`` is ``2``: it reads the value; ``round(x, 2)`` is a 0-d array, as NumPy's scalar
    stays a scalar. Arrays of one or more dimensions have no ``round()``, as NumPy's ndarray has no
    ``__round__`` (TypeError): ``kd.round(a)`` or ``a.round()`` round them element-wise. Nor have NumPy's bool
    and complex scalars: ``round()`` of a 0-d bool or complex array is that TypeError too.

    >>> import builtins, kdsl as kd  # (the doctest runs in this module, whose `round` is the method)
    >>> builtins.round(kd.asarray([0.75, 1.75]).sum()), builtins.round(kd.asarray(2.567), 2).shape
    (2, ())
    >>> builtins.round(kd.asarray([0.5, 2.5]))
    Traceback (most recent call last):
    ...
    TypeError: type Array doesn't define __round__ method for arrays of 1 or more dimensions, as NumPy's \
ndarray; use kd.round(a) or a.round()
    """
    if self.ndim:
        raise TypeError("type Array doesn't define __round__ method for arrays of 1 or more dimensions, as "
                        "NumPy's ndarray; use kd.round(a) or a.round()")
    if self.dtype.kind in "bc":  # NumPy's bool and complex scalars have no __round__ (nor have Python's complex)
        raise TypeError(f"type Array doesn't define __round__ method for 0-d {self.dtype.name} arrays, as NumPy's "
                        f"{self.dtype.name} scalar; use kd.round(x) (element-wise)")
    if ndigits is None:
        # Python's rounding (half to even, as NumPy's) and its NaN/inf errors; this module's `round` is the method
        return builtins.round(self.item())
    return self.round(ndigits)


def __trunc__(self) -> int:
    """``math.trunc(x)`` of a 0-d float64 array (as of NumPy's float64 scalar, a Python float) is the value
    truncated towards zero as a Python int: ``math.trunc(x.mean())`` of integer or float64 data. NumPy's other
    scalars and arrays of one or more dimensions have none (TypeError), nor do kdsl's: ``kd.trunc(a)`` truncates
    element-wise, ``math.trunc(float(x))`` a single value.

    >>> import math, kdsl as kd
    >>> math.trunc(kd.asarray([-1.5, -2.25], dtype=kd.float64).mean()), math.trunc(kd.asarray([7, 8]).mean())
    (-1, 7)
    """
    if self.ndim or self.dtype.name != "float64":
        what = "arrays of 1 or more dimensions, as NumPy's ndarray" if self.ndim else \
            f"0-d {self.dtype.name} arrays, as NumPy's {self.dtype.name} scalar"
        raise TypeError(f"type Array doesn't define __trunc__ method for {what}; use kd.trunc(a) element-wise "
                        "or math.trunc(float(x)) of one value")
    return pymath.trunc(self.item())


def round(self, decimals: int = 0, out=None) -> Array:
    from kdsl.frontend.array.math import round  # cycle: that module builds Arrays

    return round(self, decimals, out)


def clip(self, min=None, max=None, out=None, *, a_min=None, a_max=None, **kwargs) -> Array:  # noqa: A002
    from kdsl.frontend.array.math import clip  # cycle: that module builds Arrays

    if (a_min is not None and min is not None) or (a_max is not None and max is not None):
        raise ValueError("clip: pass each bound once, as a_min/a_max or as min/max (NumPy forbids both)")
    return clip(self, out=out, min=a_min if min is None else min, max=a_max if max is None else max, **kwargs)
