"""Memory-layout requests from NumPy code: ``isfortran``, ``asfortranarray`` and ``require``.

A kdsl array's data is C-ordered (row-major), contiguous, aligned and in device memory; its views report the
``flags`` NumPy's equivalent views have (``array_flags.py``: ``a.T`` is Fortran-contiguous). ``asfortranarray``
and ``require`` copy exactly what NumPy copies, judged by those flags, so writes to the result reach ``a`` or not
as they do in NumPy; a Fortran-ordered copy is the transpose of a C-ordered copy of ``a.T``
(``memory_order.fortran_copy``): its ``flags``, ``strides``, ``ravel('K')``, ``tobytes('A')`` and
``np.asarray`` are NumPy's, but it is a view of that copy (``flags.owndata`` False, so ``require(a, 'FO')``
copies it again). Elementwise results are C-ordered (NumPy's keep a Fortran-ordered operand's order).

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
from kdsl.frontend.array.copy_keyword import with_layout
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.memory_order import fortran_laid

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
    """``a`` as a kdsl array of at least one axis with NumPy's ``np.asfortranarray`` values, dtype and
    sharing: a Fortran-contiguous view (a transpose, anything with fewer than 2 axes) is returned as it is, as
    NumPy's; any other array is copied into Fortran order (see the module docstring). A 0-d array becomes
    shape (1,), as in NumPy.

    >>> import kdsl as kd
    >>> a = kd.asarray([[1, 2], [3, 4]])
    >>> kd.asfortranarray(a).tolist(), kd.asfortranarray(a.T) is a.T, kd.asfortranarray(a) is a
    ([[1, 2], [3, 4]], False, False)
    >>> t = a.T; kd.asfortranarray(t) is t, kd.asfortranarray(kd.asarray(5)).shape
    (True, (1,))
    """
    out = asarray(a, dtype)
    if out.ndim == 0:
        return out.reshape(1)
    return with_layout(out, "F", None) if out is a else fortran_laid(out)


def require(a: Any, dtype: Any = None, requirements: str | list[str] | None = None, *, like: Any = None) -> Array:
    """``a`` as a kdsl array of ``dtype`` meeting ``requirements`` (NumPy's ``np.require``: 'C', 'F', 'A',
    'W', 'O', 'E' or their long names), copied exactly where NumPy copies: an array whose ``flags`` lack 'C' or
    'F' contiguity, data ownership ('O': a view) or writeability ('W': a read-only array). 'F' copies are
    Fortran-ordered views of a hidden copy (see the module docstring); 'C' and 'F' together raise ValueError,
    as in NumPy.

    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> kd.require(a, requirements=["C", "W"]) is a, kd.require(a[0], requirements="O") is a[0]
    (True, False)
    >>> t = a.T; kd.require(t, requirements="F") is t, kd.require(t, requirements="C") is t
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
    order = "C" if "C" in wanted else "F" if "F" in wanted else "K"
    if out is not a:  # converted: a new array, which meets every requirement (laid out in Fortran order for 'F')
        return fortran_laid(out) if order == "F" else out
    out = with_layout(out, order, None)  # NumPy copies what lacks the asked contiguity, owner or writeability
    return out.copy(order) if out is a and (("O" in wanted and not out.flags.owndata) or
                                            ("W" in wanted and not out.flags.writeable)) else out
