"""Error-message helpers shared by every layer (no kdsl imports: any module may use them).

Example:
    >>> import numpy as np
    >>> print(caret_block("x = a +", 7))
    x = a +
           ^
    >>> shape_text((3, 4)), shape_text((2,)), shape_text(())
    ('(3,4)', '(2,)', '()')
    >>> reshape_target_text((4, 2)), reshape_target_text((-1, 4)), reshape_target_text((2, -1, 4))
    ('(4,2)', '(4)', '(2,newaxis,4)')
    >>> check_host_readable(np.dtype("U3"), "loadtxt")
    Traceback (most recent call last):
    TypeError: loadtxt read dtype <U3, which a kdsl array cannot hold (kdsl arrays hold numbers and booleans); \
read it with np.loadtxt and convert the numeric fields
    >>> issubclass(TooLargeError, MemoryError) and issubclass(TooLargeError, ValueError)
    True
    >>> check_fit_samples(np.zeros(3), np.zeros((3, 2)))
    >>> check_fit_samples(np.zeros(3), np.zeros(2))
    Traceback (most recent call last):
    TypeError: expected x and y to have same length
    >>> numpy_exception_class("UFuncTypeError").__name__, numpy_exception_class("NoSuchError")
    ('UFuncTypeError', <class 'TypeError'>)
"""

from __future__ import annotations

import importlib
from typing import Any


def caret_block(text: str, column: int) -> str:
    """``text`` followed by a caret under 0-based ``column`` (tabs kept so the caret lines up)."""
    pad = "".join(c if c == "\t" else " " for c in text[:column])
    return f"{text}\n{pad}^"


def shape_text(shape: tuple[int, ...]) -> str:
    """``shape`` as NumPy's indexing errors print it, without spaces: ``(3,4)``, ``(2,)``, ``()``."""
    return str(tuple(shape)).replace(" ", "")


def reshape_target_text(shape: tuple[int, ...]) -> str:
    """A reshape target as NumPy's "cannot reshape" error prints it: no spaces, a -1 is ``newaxis`` and leading
    ones are left out (NumPy's ``convert_shape_to_string``), so ``(-1, 4)`` reads ``(4)``."""
    lead = next((i for i, n in enumerate(shape) if n >= 0), len(shape))
    if lead == len(shape):
        return "()"
    parts = ["newaxis" if n < 0 else str(n) for n in shape[lead:]]
    return "(" + ",".join(parts) + (",)" if len(shape) == 1 else ")")


def check_fit_samples(x: Any, y: Any) -> None:
    """NumPy's TypeErrors for the samples of a least-squares fit: ``x`` a non-empty 1-D vector, ``y`` 1-D or 2-D
    with as many rows (``np.polyfit`` and ``np.polynomial``'s fits check the same; here because kd.linalg and
    kd.polynomial may not import each other). Any arrays with ``ndim``, ``size`` and ``shape``."""
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")


def numpy_exception_class(name: str) -> type[TypeError]:
    """NumPy's private exception class ``name`` (``numpy._core._exceptions`` in NumPy 2, ``numpy.core`` in 1.x),
    so that an ``except`` clause written for NumPy's class catches kdsl's; TypeError where NumPy lacks it.
    (Here, not in the ufunc layer, because kd.fft sees only the public API and needs the same classes.)"""
    for module in ("numpy._core._exceptions", "numpy.core._exceptions"):
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
    return TypeError


def check_host_readable(dtype: Any, source: str, wrap: str = "kd.asarray", unpack: bool = True) -> None:
    """``TypeError`` for a NumPy reader's result of ``dtype`` (``source``: the reader's name) that a kdsl array
    cannot hold: a structured dtype (naming its fields) or one of strings or objects, saying what to do
    (``wrap``: the kdsl function that takes one field; ``unpack``: whether ``unpack=True`` reads the fields).

    >>> import numpy as np
    >>> check_host_readable(np.dtype("f8"), "loadtxt")
    >>> check_host_readable(np.dtype([("a", "f8"), ("b", "i4")]), "genfromtxt", "kd.ma.array", unpack=False)
    Traceback (most recent call last):
    TypeError: genfromtxt read a structured array (fields a, b: dtype [('a', '<f8'), ('b', '<i4')]); kdsl has no \
structured arrays: read it with np.genfromtxt and take fields (kd.ma.array(out['name']))
    """
    if dtype.names is not None:  # names=, dtype=None of mixed columns, or a list of fields
        fields = "pass unpack=True for one kdsl array per field, or " if unpack else ""
        raise TypeError(f"{source} read a structured array (fields {', '.join(dtype.names)}: dtype {dtype}); kdsl "
                        f"has no structured arrays: {fields}read it with np.{source} and take fields "
                        f"({wrap}(out['name']))")
    if dtype.kind not in "biufc":
        raise TypeError(f"{source} read dtype {dtype}, which a kdsl array cannot hold (kdsl arrays hold numbers "
                        f"and booleans); read it with np.{source} and convert the numeric fields")


class TooLargeError(ValueError, MemoryError):
    """An array or kernel too large for the device (one buffer, one dispatch): NumPy raises MemoryError
    ("Unable to allocate ...") for data that large, so ``except MemoryError`` catches it as in NumPy; it stays
    the ValueError kdsl raised before, for code that caught that."""
