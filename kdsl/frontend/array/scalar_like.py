"""0-d arrays where NumPy programs hold NumPy scalars. kdsl's reductions and integer indexing give 0-d arrays
(the array API's choice, see "Deliberate differences" in ``docs/numpy-api.md``); NumPy gives scalars, and
programs treat those as Python numbers. Most of that works through the 0-d array's own protocols
(``__float__``, ``__index__``, ``__format__``, ``__bool__``, ``__hash__``); two idioms need a scalar's rules:

* **Sequence repetition**: ``"-" * a.argmax()``, ``[0] * n`` with ``n`` a 0-d integer array repeat the
  sequence, as with an ``np.int64`` (not an elementwise product with the list as an array).
* **In-place operators that change the type**: ``total = a.sum(); total /= n`` on integers, ``x = a.argmax();
  x += 0.5`` or ``s = a.min(); s += row``: a NumPy scalar cannot be changed in place, so Python binds the name
  to the new value. A 0-d array that is not a view (so no other array sees it) does the same when the result
  does not fit it (another kind of dtype, or a larger shape); otherwise it is updated in place, as NumPy's 0-d
  arrays are. (A NumPy 0-d *array* raises NumPy's casting error there; kdsl cannot tell the two apart.)

    >>> import kdsl as kd
    >>> a = kd.asarray([3, 1, 4])
    >>> "ab" * a.argmax()
    'abab'
    >>> total = a.sum()
    >>> total /= 4
    >>> total.item()
    2.0
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl.frontend.array import ops

SEQUENCES = (str, bytes, list, tuple)


def multiply_operator(reflected: bool) -> Callable[[Any, Any], Any]:
    """``__mul__``/``__rmul__``: a sequence times a 0-d integer array repeats it (a NumPy integer's rule);
    everything else is kdsl's elementwise product."""
    def method(self: Any, other: Any) -> Any:
        if isinstance(other, SEQUENCES) and self.ndim == 0 and self.dtype.is_int and self.dtype.kind != "b":
            return other * operator.index(self)
        if reflected:
            return ops.apply("mul", other, self)
        try:
            return ops.apply("mul", self, other)
        except TypeError:
            if ops.operator_defers(other):  # kd.ma.MaskedArray; NumPy's __array_priority__ rule
                return NotImplemented
            raise

    method.__name__ = "__rmul__" if reflected else "__mul__"
    return method


def rebinds(target: Any, result: Any) -> bool:
    """Whether ``target op= ...`` gives ``result`` as a new value instead of writing it into ``target``: a 0-d
    array that is not a view, whose result has another shape or a dtype of another kind (see the module
    docstring)."""
    if target.ndim != 0 or target._parent is not None:
        return False
    return result.shape != () or not np.can_cast(result.dtype.np, target.dtype.np, "same_kind")


__all__ = ["multiply_operator", "rebinds"]
