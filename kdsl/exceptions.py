"""``kd.exceptions``: NumPy's exceptions and warnings (``numpy.exceptions``), the very classes, so that ported
code catches kdsl's errors as it caught NumPy's: ``except kd.exceptions.AxisError`` and
``except np.exceptions.AxisError`` both catch an axis out of range (an ``AxisError`` is also a ``ValueError``
and an ``IndexError``, as in NumPy). kdsl raises NumPy's classes rather than look-alikes of its own;
``kd.linalg.LinAlgError`` subclasses ``numpy.linalg.LinAlgError`` (a ``ValueError``) the same way.

    >>> import kdsl as kd, numpy as np
    >>> try:
    ...     kd.sum(kd.ones((2, 3)), axis=2)
    ... except kd.exceptions.AxisError as e:
    ...     print(e, isinstance(e, ValueError) and isinstance(e, IndexError))
    axis 2 is out of bounds for array of dimension 2 True
"""

from __future__ import annotations

from numpy.exceptions import (
    AxisError,
    ComplexWarning,
    DTypePromotionError,
    ModuleDeprecationWarning,
    RankWarning,
    TooHardError,
    VisibleDeprecationWarning,
)

__all__ = ["AxisError", "ComplexWarning", "DTypePromotionError", "ModuleDeprecationWarning", "RankWarning",
           "TooHardError", "VisibleDeprecationWarning"]
