"""NumPy 2's ``copy=`` keyword, and the copies that an ``order=`` request makes of an existing kdsl array.

``copy`` is read as NumPy reads it: ``None`` copies only when needed, ``False`` never copies (``ValueError``
when a copy is needed), anything else by its truth; ``np._CopyMode`` members are understood and a string is
NumPy's ``ValueError``. Whether ``order='C'`` or ``'F'`` needs a copy follows the array's ``flags``
(``array_flags.py``: what NumPy reports for the equivalent NumPy array), so that ``kd.asarray(a.T, order='C')``
is a new array as NumPy's is (writes to it do not reach ``a``) and ``kd.asarray(a.T, order='F')`` is ``a.T``
itself. The copy has the order asked ('F': ``memory_order.fortran_copy``).

Example:
    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> copy_mode(None), copy_mode(0), needs_layout_copy(a.T, "C"), needs_layout_copy(a.T, "F")
    (None, False, True, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from kdsl.frontend.array.array_flags import contiguity

if TYPE_CHECKING:
    from kdsl.frontend.array.array import Array

NEEDS_COPY = ("Unable to avoid copy while creating an array as requested: copy=False, but this needs a copy (host "
              "data is always copied to the device; so is a dtype, device or memory-order change); pass copy=None "
              "to allow it")


def copy_mode(copy: Any) -> bool | None:
    """``copy`` as None (copy if needed), True (always) or False (never), NumPy's reading of it."""
    if copy is None:
        return None
    if isinstance(copy, np._CopyMode):  # noqa: SLF001 - NumPy's public enum lives under this name
        return None if copy is np._CopyMode.IF_NEEDED else bool(copy.value)  # noqa: SLF001
    if isinstance(copy, str):
        raise ValueError("strings are not allowed for 'copy' keyword. Use True/False/None instead.")
    return bool(copy)


def needs_layout_copy(x: Array, order: Any, contiguous_a: bool = False) -> bool:
    """Whether NumPy must copy ``x`` to give it ``order``: 'C' (or 'F') when ``x`` is not C- (F-) contiguous;
    'A' only with ``contiguous_a`` (``astype``'s 'A' asks for one of the two, ``asarray``'s keeps any layout);
    'K' and None never."""
    if not isinstance(order, str) or order.upper() not in "CFA" or x.ndim == 0:
        return False
    c, f = contiguity(x)
    return {"C": not c, "F": not f, "A": contiguous_a and not (c or f)}[order.upper()]


def with_layout(x: Array, order: Any, copy: bool | None, contiguous_a: bool = False) -> Array:
    """``x`` itself, or its copy where ``order`` needs one (``ValueError`` with ``copy=False``)."""
    if not needs_layout_copy(x, order, contiguous_a):
        return x
    if copy is False:
        raise ValueError(NEEDS_COPY)
    return x.copy("F" if order.upper() == "F" else "C")
