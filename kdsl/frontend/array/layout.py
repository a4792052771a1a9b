"""Memory-layout requests from NumPy code: ``isfortran``, ``asfortranarray`` and ``require``.

A kdsl array has one layout: C order (row-major), contiguous, aligned, writeable, in device memory. So
``isfortran`` is False for every kdsl array; ``asfortranarray`` gives an array with the same values, still
C-ordered (a copy for 2 or more axes, so writes to it do not reach ``a``, as with NumPy's copy); and
``require`` checks the requirement letters and meets them all, with ``'F'`` as in ``asfortranarray`` and
``'O'`` (owns its data) by a copy. Code that only needs the values is unaffected; code that passes the buffer
to a Fortran routine must use ``np.asfortranarray(a.numpy())``.

Example:
    >>> import kdsl as kd
    >>> a = kd.ones((2, 3))
    >>> kd.isfortran(a), kd.asfortranarray(a).shape, kd.require(a, kd.float64, "C").dtype
    (False, (2, 3), kdsl.float64)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray

_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                 "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O",
                 "E": "E", "ENSUREARRAY": "E"}


def isfortran(a: Any) -> bool:
    """Whether ``a`` is Fortran-ordered and not C-ordered (NumPy's ``np.isfortran``): for a kdsl array, as NumPy
    answers for the equivalent NumPy array (a transpose of a C-ordered array is, ``a.flags``).

    >>> import kdsl as kd
    >>> kd.isfortran(kd.zeros((3, 3))), kd.isfortran(kd.arange(6).reshape(3, 2).T)
    (False, True)
    """
    if isinstance(a, Array):
        return a.flags.fnc
    return bool(np.isfortran(a))


def asfortranarray(a: Any, dtype: Any = None, *, like: Any = None) -> Array:
    """``a`` as a kdsl array with NumPy's ``np.asfortranarray`` values and dtype; kdsl arrays are C-ordered,
    so this is a C-ordered copy (an array with fewer than 2 axes is both orders and is returned as it is).

    >>> import kdsl as kd
    >>> kd.asfortranarray([[1, 2], [3, 4]]).tolist()
    [[1, 2], [3, 4]]
    """
    out = asarray(a, dtype)
    return out.copy() if out is a and out.ndim >= 2 else out


def require(a: Any, dtype: Any = None, requirements: str | list[str] | None = None, *, like: Any = None) -> Array:
    """``a`` as a kdsl array of ``dtype`` meeting ``requirements`` (NumPy's ``np.require``: 'C', 'F', 'A',
    'W', 'O', 'E' or their long names). Every kdsl array is C-contiguous, aligned and writeable; 'O' copies;
    'F' gives a C-ordered array (see the module docstring); 'C' and 'F' together raise ValueError, as in NumPy.

    >>> import kdsl as kd
    >>> a = kd.arange(3)
    >>> kd.require(a, requirements=["C", "W"]) is a, kd.require(a, requirements="O") is a
    (True, False)
    """
    wanted = set()
    for r in requirements or []:  # a string is a sequence of letters, as in NumPy ("CW")
        key = _REQUIREMENTS.get(r.upper())
        if key is None:
            raise KeyError(f"{r!r} is not a requirement: use C, F, A, W, O, E (or C_CONTIGUOUS, F_CONTIGUOUS, "
                           f"ALIGNED, WRITEABLE, OWNDATA, ENSUREARRAY)")
        wanted.add(key)
    if {"C", "F"} <= wanted:
        raise ValueError("Cannot specify both C and Fortran contiguous.")
    out = asarray(a, dtype)
    return out.copy() if "O" in wanted and out is a else out
