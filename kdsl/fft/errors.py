"""The transforms' argument errors, of NumPy's types and kdsl's: NumPy raises TypeError for a non-integer
length (``operator.index``), ZeroDivisionError for ``fftfreq(0)`` and IndexError for 0-d input; kdsl raised
ValueError for all three, so each class is both (as NumPy's own AxisError is a ValueError and an IndexError).

Example:
    >>> issubclass(LengthTypeError, TypeError) and issubclass(LengthTypeError, ValueError)
    True
"""

from __future__ import annotations


class LengthTypeError(TypeError, ValueError):
    """A transform length that is not an integer (NumPy: TypeError)."""


class ZeroLengthError(ZeroDivisionError, ValueError):
    """``fftfreq(0)`` / ``rfftfreq(0)``: no sample spacing to divide by (NumPy: ZeroDivisionError)."""


class ZeroDimensionalError(IndexError, ValueError):
    """A transform of 0-d input: no axis to transform (NumPy: IndexError)."""
