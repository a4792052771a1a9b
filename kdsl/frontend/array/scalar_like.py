"""0-d arrays where NumPy programs hold NumPy scalars. kdsl's reductions and integer indexing give 0-d arrays
(the array API's choice, see "Deliberate differences" in ``docs/numpy-api.md``); NumPy gives scalars, and
programs treat those as Python numbers. Most of that works through the 0-d array's own protocols
(``__float__``, ``__index__``, ``__format__``, ``__bool__``, ``__hash__``); these need a scalar's rules:

* **Sequence repetition**: ``"-" * a.argmax()``, ``[0] * n`` with ``n`` a 0-d integer array repeat the
  sequence, as with an ``np.int64`` (not an elementwise product with the list as an array).
* **In-place operators that change the type**: ``total = a.sum(); total /= n`` on integers, ``x = a.argmax();
  x += 0.5`` or ``s = a.min(); s += row``: a NumPy scalar cannot be changed in place, so Python binds the name
  to the new value. A 0-d array that is not a view (so no other array sees it) does the same when the result
  does not fit it (another kind of dtype, or a larger shape). (A NumPy 0-d *array* raises NumPy's casting error
  there; kdsl cannot tell the two apart.)
* **In-place operators keep a scalar's value semantics**: ``t += dt; times.append(t)`` with ``dt`` a 0-d result
  must not change the ``t`` already in the list (a NumPy scalar's ``+=`` makes a new scalar). A 0-d array that
  stands for a NumPy scalar (the result of an operation, a reduction or an element read) rebinds the name;
  one made as an array (``kd.zeros(())``, ``kd.array(0.5)``, ``kd.asarray(x)``, a copy) is updated in place, as
  NumPy's 0-d arrays are, and so is a 0-d view (it writes through to its base).
* **Printing and conversions** (``stands_for_scalar``): a 0-d array that stands for a NumPy scalar prints as
  that scalar under every print option (``legacy="1.13"`` prints 0-d arrays otherwise) and ``float()``/``int()``
  of a complex one keep the real part with NumPy's ComplexWarning (a 0-d array's TypeError otherwise).

    >>> import kdsl as kd
    >>> a = kd.asarray([3, 1, 4])
    >>> "ab" * a.argmax()
    'abab'
    >>> total = a.sum()
    >>> total /= 4
    >>> total.item()
    2.0
    >>> t = a.max() * 0.5
    >>> times = [t]
    >>> t += 1
    >>> [float(v) for v in times + [t]]
    [2.0, 3.0]
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl.frontend.array import ops, ufunc_overrides
from kdsl.frontend.array.operator_deferral import operator_defers

SEQUENCES = (str, bytes, list, tuple)


def multiply_operator(reflected: bool) -> Callable[[Any, Any], Any]:
    """``__mul__``/``__rmul__``: a sequence times a 0-d integer array repeats it (a NumPy integer's rule);
    everything else is kdsl's elementwise product."""
    def method(self: Any, other: Any) -> Any:
        if isinstance(other, SEQUENCES) and self.ndim == 0 and self.dtype.is_int and self.dtype.kind != "b":
            return other * operator.index(self)
        try:
            return ops.apply("mul", other, self) if reflected else ops.apply("mul", self, other)
        except TypeError:
            if not reflected and operator_defers(other):  # kd.ma.MaskedArray; NumPy's __array_priority__ rule
                return NotImplemented
            if ufunc_overrides.overrides(other):  # NEP 13: np.multiply runs other's __array_ufunc__
                return ufunc_overrides.operator("mul", *((other, self) if reflected else (self, other)))
            raise

    method.__name__ = "__rmul__" if reflected else "__mul__"
    return method


def made_as_array(array: Any) -> Any:
    """``array``, marked as made as an array if it is 0-d (``kd.zeros(())``, ``kd.array(0.5)``,
    ``kd.asarray(x)``: NumPy gives 0-d arrays there), so in-place operators update it; other 0-d arrays are
    the results of operations, which stand for NumPy scalars."""
    if array.ndim == 0:
        array._zero_d_array = True
    return array


def as_result(array: Any) -> Any:
    """``array`` as an operation's result: a 0-d array made as an array becomes a new one on the same node that
    stands for a NumPy scalar (``inner`` of 1-d arrays on ``tensordot``'s 0-d array)."""
    return type(array)(array._n) if getattr(array, "_zero_d_array", False) else array


def stands_for_scalar(array: Any) -> bool:
    """Whether a 0-d array stands for a NumPy scalar (an element read, a reduction's or an operation's result,
    or the ``.real``/``.imag`` view of one), so that it prints and converts as that scalar; a 0-d array made as
    an array and a 0-d view of an array (``a[1, ...]``, ``a[:1].reshape(())``) are NumPy's 0-d arrays.

    >>> import kdsl as kd
    >>> a = kd.asarray([1.5, 2.5])
    >>> stands_for_scalar(a[1]), stands_for_scalar(a[1, ...]), stands_for_scalar(kd.array(1.5))
    (True, False, False)
    """
    while array.ndim == 0 and not getattr(array, "_zero_d_array", False):
        if array._parent is None:
            return True
        array = array._parent[0]
    return False


def copied(source: Any, copy: Any) -> Any:
    """``copy`` of ``source``: a copy of a 0-d array made as an array is one too (NumPy's ``a.copy()`` of a 0-d
    array is a 0-d array; of a scalar, a scalar)."""
    return made_as_array(copy) if getattr(source, "_zero_d_array", False) else copy


def rebinds(target: Any, result: Any) -> bool:
    """Whether ``target op= ...`` gives ``result`` as a new value instead of writing it into ``target``: a 0-d
    array that is not a view, and either stands for a NumPy scalar or gets a result that does not fit it
    (another shape, or a dtype of another kind; see the module docstring)."""
    if target.ndim != 0 or target._parent is not None:
        return False
    if not getattr(target, "_zero_d_array", False):
        return True  # a NumPy scalar's value semantics: names bound to the old value keep it
    return result.shape != () or not np.can_cast(result.dtype.np, target.dtype.np, "same_kind")


__all__ = ["as_result", "copied", "made_as_array", "multiply_operator", "rebinds", "stands_for_scalar"]
