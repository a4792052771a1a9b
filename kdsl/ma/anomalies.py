"""``kd.ma.anom`` (``anomalies``, ``x.anom()``): each entry's deviation from the mean of the unmasked entries,
as ``numpy.ma``'s (masked entries stay masked; a line with nothing unmasked is all masked). Like NumPy's, an
``axis`` of 0 or None subtracts the mean as it broadcasts (NumPy tests ``if not axis``).

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([[1.0, 2.0, 6.0], [4.0, 0.0, 8.0]], mask=[[0, 0, 0], [0, 1, 0]])
    >>> x.anom(axis=1).tolist()
    [[-2.0, -1.0, 3.0], [-2.0, None, 2.0]]
"""

from __future__ import annotations

from typing import Any

from kdsl.ma.functions import expand_dims
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.reductions import mean


def anom(a: Any, axis: Any = None, dtype: Any = None) -> Any:
    """NumPy's ``np.ma.anom``: ``a`` minus its mean along ``axis`` (of the unmasked entries)."""
    x = a if isinstance(a, MaskedArray) else MaskedArray(a)
    m = mean(x, axis, dtype)
    if not axis:  # NumPy's test: axis 0 broadcasts as it is
        return x - m
    return x - expand_dims(m, axis)


anomalies = anom
MaskedArray.anom = anom  # type: ignore[attr-defined]

__all__ = ["anom", "anomalies"]
