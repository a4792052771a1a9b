"""Array's unary operators, ``divmod`` and ``@`` (the binary arithmetic operators are built in
:mod:`kdsl.frontend.array.array` from :func:`kdsl.frontend.array.ops.apply`). These functions are
:class:`Array`'s methods.

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([[1, -2], [3, 4]])
    >>> (-a).tolist(), abs(a).tolist(), (a @ a).tolist()
    ([[-1, 2], [-3, -4]], [[1, 2], [3, 4]], [[-5, -10], [15, 10]])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import promotion
from kdsl.frontend.array import ops, ufunc_overrides
from kdsl.frontend.array.inplace import check_inplace, refuse_cast, store_inplace
from kdsl.frontend.array.operator_deferral import operator_defers

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array


def binary(name: str, reflected: bool = False):
    """The method of binary operator ``name`` (``reflected``: ``other op self``) on :func:`ops.apply`."""
    if reflected:
        def method(self, other):
            try:
                return ops.apply(name, other, self)
            except TypeError:
                if ufunc_overrides.overrides(other):  # NEP 13: np.add(other, self) runs other's __array_ufunc__
                    return ufunc_overrides.operator(name, other, self)
                raise
    else:
        def method(self, other):
            try:
                return ops.apply(name, self, other)
            except TypeError:
                if operator_defers(other):  # kd.ma.MaskedArray; NumPy's __array_priority__ rule
                    return NotImplemented
                if ufunc_overrides.overrides(other):  # NEP 13: np.add(self, other) runs other's __array_ufunc__
                    return ufunc_overrides.operator(name, self, other)
                if name in ("eq", "ne") and _not_a_number(other):
                    return _never_equal(self, name == "ne")
                raise
    method.__name__ = f"__{'r' if reflected else ''}{name}__"
    return method


def _not_a_number(other) -> bool:
    """Whether ``a == other`` compares every element with ``other`` as one Python object (None, a string, an
    ``object()``...), which NumPy finds never equal; data (sequences, arrays, NumPy scalars) keeps its errors."""
    return not isinstance(other, (list, tuple, range, np.ndarray, np.generic)) and not hasattr(other, "__array__")


def _never_equal(self, value: bool) -> Array:
    """``a == None``, ``a != "x"``: NumPy compares every element with the object (Python's ``==``, never equal
    for numbers), an array of ``value``.

    >>> import kdsl as kd
    >>> (kd.asarray([1.0, 2.0]) == None).tolist(), (kd.asarray([1, 2]) != "x").tolist()  # noqa: E711
    ([False, False], [True, True])
    >>> (kd.asarray([1, 2]) == object()).tolist()
    [False, False]
    """
    from kdsl.frontend.array.creation import full  # cycle: creation builds Arrays

    return full(self.shape, value, dtype=dt.bool_, device=self.device)


def __divmod__(self, other) -> tuple[Array, Array]:  # divmod(a, b): NumPy's (a // b, a % b)
    if ufunc_overrides.overrides(other):  # NEP 13: np.divmod(a, b) runs other's __array_ufunc__ once
        return ufunc_overrides.operator("divmod", self, other)
    return self // other, self % other


def __rdivmod__(self, other) -> tuple[Array, Array]:
    if ufunc_overrides.overrides(other):
        return ufunc_overrides.operator("divmod", other, self)
    return other // self, other % self


def __neg__(self) -> Array:
    if self.dtype is dt.bool_:
        raise TypeError("The numpy boolean negative, the `-` operator, is not supported, "
                        "use the `~` operator or the logical_not function instead.")
    return ops.apply("neg", self)


def __pos__(self) -> Array:
    """``+a``: NumPy's ``positive``, a new array (TypeError for booleans)."""
    from kdsl.frontend.array.math import positive  # cycle: math builds on the Array class this module fills

    return positive(self)


def __abs__(self) -> Array:
    return ops.apply("abs", self)


def __invert__(self) -> Array:
    return ops.apply("invert", self)


def __matmul__(self, other) -> Array:
    from kdsl.frontend.array.linalg import matmul  # cycle: that module builds Arrays

    try:
        return matmul(self, other)
    except TypeError:
        if operator_defers(other):  # NumPy's __array_priority__ rule: other.__rmatmul__ runs
            return NotImplemented
        if ufunc_overrides.overrides(other):  # NEP 13: np.matmul(self, other) runs other's __array_ufunc__
            return ufunc_overrides.operator("matmul", self, other)
        raise


def __rmatmul__(self, other) -> Array:
    from kdsl.frontend.array.linalg import matmul  # cycle: that module builds Arrays

    try:
        return matmul(other, self)
    except TypeError:
        if ufunc_overrides.overrides(other):  # NEP 13: np.matmul(other, a) runs other's __array_ufunc__
            return ufunc_overrides.operator("matmul", other, self)
        raise


def __imatmul__(self, other) -> Array:
    other = ops.as_operand(other, self.device)
    # NumPy resolves the loop's dtype (and refuses the cast back) before it looks at the operands' dimensions
    out = promotion.result_dtype(np.multiply, self.dtype, other.dtype if isinstance(other, type(self)) else other)
    if out is not self.dtype and not np.can_cast(out.np, self.dtype.np, casting="same_kind"):
        refuse_cast("matmul", out, self)
    result = self.__matmul__(other)
    if result.shape != self.shape:  # NumPy: a @= b keeps a's shape
        raise ValueError(f"matmul: output operand of shape {self.shape} does not match the result's shape "
                         f"{result.shape} (a @= b keeps a's shape); write `a = a @ b`")
    check_inplace("matmul", self, other, result)
    return store_inplace(self, result)
