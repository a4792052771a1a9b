"""The transforms' argument errors, of NumPy's types and kdsl's: NumPy raises TypeError for a non-integer
length (``operator.index``), ZeroDivisionError for ``fftfreq(0)`` and IndexError for 0-d input; kdsl raised
ValueError for all three, so each class is both (as NumPy's own AxisError is a ValueError and an IndexError).

Example:
    >>> issubclass(LengthTypeError, TypeError) and issubclass(LengthTypeError, ValueError)
    True
"""

from __future__ import annotations

from kdsl.errors import numpy_exception_class


class LengthTypeError(TypeError, ValueError):
    """A transform length that is not an integer (NumPy: TypeError)."""


class ZeroLengthError(ZeroDivisionError, ValueError):
    """``fftfreq(0)`` / ``rfftfreq(0)``: no sample spacing to divide by (NumPy: ZeroDivisionError)."""


class ZeroDimensionalError(IndexError, ValueError):
    """A transform of 0-d input: no axis to transform (NumPy: IndexError)."""


class OutputCastingError(numpy_exception_class("_UFuncOutputCastingError")):  # type: ignore[misc]
    """``out=`` of a dtype the transform's result does not cast to (``same_kind``): NumPy's class, kdsl's
    message (NumPy's is built from a ufunc object, which a transform is not).

    >>> str(OutputCastingError("Cannot cast ufunc 'fft' output")), isinstance(OutputCastingError("x"), TypeError)
    ("Cannot cast ufunc 'fft' output", True)
    """

    def __init__(self, message: str) -> None:
        TypeError.__init__(self, message)

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


OutputCastingError.__name__ = OutputCastingError.__qualname__ = "UFuncTypeError"  # as NumPy's tracebacks name it
