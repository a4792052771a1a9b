"""``kd.ma.add.reduce(x)``, ``kd.ma.maximum.reduce(x)`` and the other masked binary functions' ``reduce``, as
numpy.ma's: the data filled (0, or 1 for ``multiply`` and ``arctan2``; the dtype's extreme for ``maximum`` and
``minimum``, so masked entries never win) and reduced by the kdsl ufunc; the result masked where every entry
along the axis is. A 0-d result is ``kd.ma.masked`` when all its entries are masked, else a 0-d kdsl array.
``accumulate`` is the filled data's running result with no mask, as numpy.ma's.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([[1, 5], [3, 2]], mask=[[0, 1], [0, 1]])
    >>> kd.ma.add.reduce(x).tolist(), kd.ma.maximum.reduce(x, axis=1).tolist()
    ([4, None], [1, 3])
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.ma.constants import masked, maximum_fill_value, minimum_fill_value, nomask
from kdsl.ma.functions import getmaskarray, where
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.operands import parts
from kdsl.ma.operators import FUNCTIONS

# numpy.ma's fill for the reduce of each binary function (its "filly"); 0 for the others
_FILLS = {"multiply": 1, "arctan2": 1.0}
_REDUCED = ("add", "subtract", "multiply", "arctan2", "hypot", "logical_and", "logical_or", "logical_xor",
            "bitwise_and", "bitwise_or", "bitwise_xor")
_NO_AXIS: Any = object()


def _masked(target: Any) -> MaskedArray:
    return target if isinstance(target, MaskedArray) else MaskedArray(target)


def _result(data: kd.Array, mask: Any) -> Any:
    """The reduced data with its mask: ``masked`` for a fully masked 0-d result, a plain 0-d array otherwise."""
    if data.ndim == 0:
        return masked if mask is not nomask and bool(mask) else data
    return MaskedArray.wrap(data, mask)


def _binary_reduce(name: str) -> Callable[..., Any]:
    def reduce(target: Any, axis: Any = 0, dtype: Any = None) -> Any:
        x = _masked(target)
        data, mask = x.filled(_FILLS.get(name, 0)), x._mask
        if data.ndim == 0:  # numpy.ma reduces a 0-d target as a 1-element one
            data, mask = data.reshape(1), (mask if mask is nomask else mask.reshape(1))
        reduced = getattr(kd, name).reduce(data, axis=axis, dtype=dtype)
        return _result(reduced, nomask if mask is nomask else kd.all(mask, axis=axis))
    reduce.__doc__ = f"numpy.ma's ``{name}.reduce``: the filled data reduced, masked where all entries are."
    return reduce


def _binary_accumulate(name: str) -> Callable[..., Any]:
    def accumulate(target: Any, axis: int = 0) -> MaskedArray:
        return MaskedArray.wrap(getattr(kd, name).accumulate(_masked(target).filled(_FILLS.get(name, 0)), axis=axis),
                                nomask)
    accumulate.__doc__ = (f"numpy.ma's ``{name}.accumulate``: the running {name} of the filled data, with no mask "
                          f"(numpy.ma's result has none).")
    return accumulate


def _extreme_reduce(name: str, fill: Callable[[Any], Any]) -> Callable[..., Any]:
    def reduce(target: Any, axis: Any = _NO_AXIS) -> Any:
        x = _masked(target)
        if axis is _NO_AXIS:
            if x.ndim > 1:  # numpy.ma's default for n-d targets: the whole array, with its warning
                warnings.warn(f"In the future the default for ma.{name}.reduce will be axis=0, not the current "
                              f"None, to match np.{name}.reduce. Explicitly pass 0 or None to silence this "
                              f"warning.", np.ma.core.MaskedArrayFutureWarning, stacklevel=2)
            axis = None if x.ndim > 1 else 0
        mask = x._mask
        data = x._data if mask is nomask else x.filled(fill(x))
        reduced = getattr(kd, name).reduce(data, axis=axis)
        return _result(reduced, nomask if mask is nomask else kd.all(mask, axis=axis))
    reduce.__doc__ = f"numpy.ma's ``{name}.reduce``: masked entries never win; masked where all entries are."
    return reduce


def _binary_outer(name: str) -> Callable[..., Any]:
    def outer(a: Any, b: Any) -> Any:
        (da, ma), (db, mb) = parts(a), parts(b)
        data = getattr(kd, name).outer(kd.asarray(da), kd.asarray(db))
        if ma is nomask and mb is nomask:
            return _result(data, nomask)
        mask = kd.logical_or.outer(getmaskarray(a), getmaskarray(b))
        return _result(data, mask)
    outer.__doc__ = f"numpy.ma's ``{name}.outer``: ``kd.{name}.outer`` of the data, masked where either entry is."
    return outer


def _extreme_call(name: str, compare: Callable[..., Any]) -> Callable[..., Any]:
    def call(a: Any, b: Any) -> Any:
        return where(compare(a, b), a, b)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = (f"numpy.ma's ``{name}(a, b)``: ``where({compare.__name__}(a, b), a, b)``, so a NaN in ``a`` "
                    f"gives ``b`` (not NumPy's ufunc ``np.{name}``, which any NaN wins); ``.reduce``, ``.outer``.")
    return call


for _name in _REDUCED + ("maximum", "minimum") + tuple(n for n in ("equal", "not_equal", "less", "less_equal",
                                                                   "greater", "greater_equal", "divide",
                                                                   "true_divide", "power") if n in FUNCTIONS):
    FUNCTIONS[_name].outer = _binary_outer(_name)  # type: ignore[attr-defined]
for _name in _REDUCED:
    FUNCTIONS[_name].reduce = _binary_reduce(_name)  # type: ignore[attr-defined]
    FUNCTIONS[_name].accumulate = _binary_accumulate(_name)  # type: ignore[attr-defined]
FUNCTIONS["maximum"].reduce = _extreme_reduce("maximum", maximum_fill_value)  # type: ignore[attr-defined]
FUNCTIONS["minimum"].reduce = _extreme_reduce("minimum", minimum_fill_value)  # type: ignore[attr-defined]

# kd.ma.maximum / kd.ma.minimum themselves (np.maximum(x, y) of masked arrays stays the NaN-propagating ufunc)
EXTREMA = {"maximum": _extreme_call("maximum", FUNCTIONS["greater"]),
           "minimum": _extreme_call("minimum", FUNCTIONS["less"])}
for _name, _fn in EXTREMA.items():
    _fn.reduce = FUNCTIONS[_name].reduce  # type: ignore[attr-defined]
    _fn.outer = FUNCTIONS[_name].outer  # type: ignore[attr-defined]
