"""NumPy's ``where=`` argument (ufunc calls and methods, reductions, ``copyto``) as a boolean kdsl array.

NumPy casts ``where`` to bool with the ``'safe'`` rule: an array (kdsl or NumPy, 0-d included) must already be
boolean (``np.add(a, 1, where=np.array([1, 0]))`` is a TypeError), while Python data and NumPy scalars
(``[1, 0, 1]``, ``1``, ``np.float64(0.5)``) are read as truth values.

    >>> import kdsl as kd
    >>> where_mask([1, 0, 2]).tolist()
    [True, False, True]
    >>> where_mask(kd.asarray([1.0, 0.0]))
    Traceback (most recent call last):
    ...
    TypeError: Cannot cast array data from dtype('float32') to dtype('bool') according to the rule 'safe'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray


def where_mask(where: Any, device: Any = None) -> Array:
    """``where`` as a boolean kdsl array (on ``device`` when it is host data): NumPy's safe cast to bool, so a
    non-boolean array is NumPy's TypeError and anything else is converted by its truth values."""
    if isinstance(where, Array):
        check_boolean(where.dtype.np, where.ndim)
        return where
    if isinstance(where, np.ndarray):
        check_boolean(where.dtype, where.ndim)
        return asarray(where, device=device)
    return asarray(np.asarray(where, dtype=bool), device=device)


def check_boolean(dtype: np.dtype, ndim: int) -> None:
    """NumPy's TypeError for a ``where=`` array that is not boolean (its wording for 0-d and n-d arrays)."""
    if dtype != np.bool_:
        what = "scalar" if ndim == 0 else "array data"
        raise TypeError(f"Cannot cast {what} from {dtype!r} to dtype('bool') according to the rule 'safe'")


__all__ = ["where_mask", "check_boolean"]
