"""NumPy's ufunc methods (``np.add.reduce``, ``np.maximum.accumulate``, ``np.add.reduceat``, ``np.multiply.outer``,
``np.add.at``) and kdsl's (``kd.add.reduce``...) with kd.ma operands, as NumPy's methods treat numpy.ma arrays.

numpy.ma defines no ``__array_ufunc__``: NumPy runs the method on the data and wraps the result with numpy.ma's
``__array_wrap__``. So the folds (``reduce``, ``accumulate``, ``reduceat``) reduce the data *under the mask too*
and give a masked array with nothing masked (``np.ma.add.reduce``, kd.ma's ``kd.ma.add.reduce``, leaves masked
entries out instead); ``outer`` computes every pair and masks a pair where either entry is masked; ``at`` updates
the data in place and keeps the mask. Before, NumPy's methods raised an unhelpful TypeError on kd.ma arrays and
kdsl's dropped the mask (``kd.add.outer(x, y)`` gave unmasked values where NumPy masks them).

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([1.0, 2.0, 3.0], mask=[False, True, False])
    >>> print(kd.multiply.outer(x, kd.asarray([1.0, 10.0])))
    [[1.0 10.0]
     [-- --]
     [3.0 30.0]]
    >>> kd.add.reduce(x).tolist(), kd.ma.add.reduce(x).tolist()  # the data's sum; numpy.ma's leaves 2.0 out
    (6.0, 4.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

import kdsl as kd
from kdsl.ma.constants import nomask
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.operands import parts, shrunk

_FOLDS = ("reduce", "accumulate", "reduceat")


def method_call(name: str, method: str, args: tuple, kwargs: dict) -> Any:
    """``kd.<name>.<method>(*args, **kwargs)`` with a kd.ma operand among ``args``, as NumPy's method on numpy.ma
    arrays (see the module docstring); NotImplemented for a ufunc kdsl lacks."""
    ufunc = getattr(kd, name, None)
    if ufunc is None or not hasattr(ufunc, method):
        return NotImplemented
    if method in _FOLDS:
        return _fold(ufunc, method, args, kwargs)
    if method == "outer":
        return _outer(ufunc, args, kwargs)
    if method == "at":
        return _at(ufunc, args, kwargs)
    return NotImplemented


def _data(x: Any) -> Any:
    """A masked operand's data; anything else as it is (index tuples, lists, scalars: the method reads them)."""
    return parts(x)[0] if isinstance(x, (MaskedArray, np.ma.MaskedArray)) else x


def _fill(*operands: Any) -> Any:
    """The first masked operand's fill value (a NumPy masked array's too: ``np.ma.masked``'s 1e20)."""
    for x in operands:
        if isinstance(x, MaskedArray):
            return x._fill_value
        if isinstance(x, np.ma.MaskedArray):  # (its fill_value property writes, which masked refuses)
            own = getattr(x, "_fill_value", None)
            return np.ma.default_fill_value(x.dtype) if own is None else np.asarray(own).item()
    return None


def _fold(ufunc: Any, method: str, args: tuple, kwargs: dict) -> Any:
    """The fold of the data (masked entries included, as NumPy's), a masked array with nothing masked (``out=``:
    NumPy's result is ``out`` itself)."""
    kwargs = {k: _data(v) if k == "where" else v for k, v in kwargs.items()}
    result = getattr(ufunc, method)(_data(args[0]), *(_data(a) for a in args[1:]), **kwargs)
    if kwargs.get("out") is not None:
        return result
    return MaskedArray.wrap(result, nomask, _fill(args[0]))


def _outer(ufunc: Any, args: tuple, kwargs: dict) -> Any:
    """Every pair computed; a pair masked where either entry is (``nomask`` where nothing is, as numpy.ma's
    ``mask_or``); the first masked operand's fill value. A two-output ufunc (``divmod``) gives two such arrays."""
    a, b = args
    result = ufunc.outer(_data(a), _data(b), **kwargs)
    ma, mb = kd.ma.getmaskarray(a), kd.ma.getmaskarray(b)
    mask = shrunk(kd.logical_or(ma.reshape(ma.shape + (1,) * mb.ndim), mb))
    fill = _fill(a, b)
    if isinstance(result, tuple):
        return tuple(MaskedArray.wrap(r, mask, fill) for r in result)
    return MaskedArray.wrap(result, mask, fill)


def _at(ufunc: Any, args: tuple, kwargs: dict) -> None:
    """``ufunc.at`` on the target's data in place (a masked target keeps its mask); masked values and indices
    count by their data, as NumPy's."""
    target, rest = args[0], tuple(_data(a) for a in args[1:])
    ufunc.at(target._data if isinstance(target, MaskedArray) else target, *rest, **kwargs)


__all__ = ["method_call"]
