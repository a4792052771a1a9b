"""In-place operators (``a += b``) and in-place stores, with NumPy's rules: the result keeps the left operand's
shape and casts back to its dtype under 'same_kind' (:class:`UFuncTypeError` otherwise), read-only arrays refuse
the write, and a view writes through to its base. A 0-d array that is not a view takes a NumPy scalar's rule
where its result does not fit it (``total = a.sum(); total /= n``: :mod:`kdsl.frontend.array.scalar_like`).

Example:
    >>> import kdsl as kd
    >>> a = kd.zeros(3, dtype=kd.int32)
    >>> row = a[1:]
    >>> row += 2
    >>> a.tolist()
    [0, 2, 2]
    >>> try:
    ...     a += 0.5
    ... except TypeError as e:
    ...     print(type(e).__name__)
    UFuncTypeError
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from kdsl.dtype import promotion
from kdsl.frontend.array import ops, scalar_like, ufunc_overrides
from kdsl.frontend.array.ufunc_errors import UFuncTypeError as UFuncTypeError  # re-exported: tests and users
from kdsl.frontend.array.ufunc_errors import output_casting_error

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array


def inplace_operator(name: str):
    """The method ``__i<name>__``: ``a op= b`` computes ``a op b``, checks it (:func:`check_inplace`) and stores it
    into ``a`` (:func:`store_inplace`)."""
    def method(self, other):
        try:
            result = ops.apply(name, self, other)
        except ValueError:  # NumPy refuses the cast back first: before the operands' shapes broadcast (int +=
            _check_cast_back(name, self, other)  # float of another shape) and before pow's negative exponent
            raise
        except TypeError:
            if ufunc_overrides.overrides(other):  # NEP 13: np.add(self, other, out=(self,)) runs other's override
                return ufunc_overrides.inplace(name, self, other)
            raise
        if scalar_like.rebinds(self, result):  # x = a.sum(); x /= n: a NumPy scalar's new value
            return result
        check_inplace(name, self, other, result)
        return store_inplace(self, result)
    method.__name__ = f"__i{name}__"
    return method


def _check_cast_back(name: str, target: Array, other) -> None:
    """:func:`check_inplace`'s dtype rule on the dtype ``target op other`` would have (the op itself failed)."""
    if target.ndim == 0 and target._parent is None:
        return  # a NumPy scalar's rule: its new value may take any dtype
    out, _ = ops.result_of(name, [target, ops.as_operand(other, target.device)])
    if out is not target.dtype and not np.can_cast(out.np, target.dtype.np, casting="same_kind"):
        refuse_cast(name, out, target)


def store_inplace(target: Array, result: Array) -> Array:
    """``target`` takes ``result``'s values (cast to its dtype); a view writes them through to its base."""
    from kdsl.frontend.array.array_flags import check_writeable  # cycle: that module reads Arrays

    check_writeable(target, "output array is read-only")
    if result.dtype is not target.dtype:
        result = result.astype(target.dtype)
    target._node = result._n
    target._stored()  # r = a[0]; r += 1 writes into a, as in NumPy
    return target


def check_inplace(name: str, target: Array, other, result: Array) -> None:
    """NumPy's rules for ``target op= other``: the result keeps ``target``'s shape and casts back to its dtype
    under the 'same_kind' rule (int += float is refused, int32 += int64 is allowed). The dtype is checked first,
    as NumPy resolves the loop before it broadcasts; a read-only target is refused before either, as NumPy's."""
    from kdsl.frontend.array.array_flags import check_writeable  # cycle: that module reads Arrays

    check_writeable(target, "output array is read-only")
    if result.dtype is not target.dtype and \
            not np.can_cast(result.dtype.np, target.dtype.np, casting="same_kind"):
        refuse_cast(name, result.dtype, target)
    if result.shape != target.shape:
        raise ValueError(f"non-broadcastable output operand with shape {target.shape} doesn't match the broadcast "
                         f"shape {result.shape}; write `a = a {_SYMBOL.get(name, name)} b` for a new array of the "
                         "broadcast shape")


def refuse_cast(name: str, out, target: Array) -> None:
    """NumPy's UFuncTypeError for ``target op= ...`` whose result dtype ``out`` does not cast back."""
    sym = _SYMBOL.get(name, name)
    raise output_casting_error(
        numpy_name(name), out, target.dtype, "same_kind",
        f"in-place operators keep the left operand's dtype: write `a = a {sym} b` for a new {out.name} array, or "
        f"cast the operand: `a {sym}= kd.asarray(b).astype(a.dtype)`")


def numpy_name(name: str) -> str:
    """NumPy's ufunc name for the op ``name`` (``'div'`` is ``'divide'``, ``'shl'`` ``'left_shift'``)."""
    entry = promotion.OP_SIGNATURES.get(name)
    return entry[0].__name__ if entry is not None else name


_SYMBOL = {"matmul": "@", "add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//", "mod": "%", "pow": "**",
           "and": "&", "or": "|", "xor": "^", "shl": "<<", "shr": ">>"}
