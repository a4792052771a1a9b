"""NumPy's RuntimeWarnings for means and variances of slices with nothing (or too little) in them:
"Mean of empty slice" (``mean``, ``nanmean``) and "Degrees of freedom <= 0 for slice" (``var``/``std``; NumPy's
``nanvar``/``nanstd`` end it with a period). The results themselves are NaN (or inf) on the device either way.

kdsl warns where the counts are known on the host: ``where=True`` (the reduced axes' size) or a ``where=`` mask
given as host data (a NumPy array, a list, a bool). A kdsl array mask's counts are on the device, and reading
them back would end the laziness: that warning (and the NaN-functions' for slices that only NaNs leave empty)
comes when the result is read back (read_warnings.py).

    >>> import warnings, kdsl as kd
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = kd.mean(kd.asarray([[1.0, 2.0]]), axis=1, where=[[False, False]])
    >>> [str(w.message) for w in caught]
    ['Mean of empty slice']
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array


def host_counts(shape: tuple[int, ...], axes: tuple[int, ...], where: Any) -> np.ndarray | None:
    """How many elements each reduced slice takes, where the host knows it (see the module docstring); None for
    a kdsl array mask, or one that does not broadcast (the reduction itself raises NumPy's error for that)."""
    if where is True:
        return np.asarray(math.prod(shape[a] for a in axes))
    if isinstance(where, Array):
        return None
    try:
        mask = np.broadcast_to(np.asarray(where, dtype=bool), shape)
    except ValueError:
        return None
    return np.asarray(mask.sum(axis=axes))


def warn_empty(shape: tuple[int, ...], axes: tuple[int, ...], where: Any, ddof: float | None = None,
               nan_function: bool = False, stacklevel: int = 3) -> bool:
    """NumPy's warning when some slice has no element (a mean: ``ddof`` None) or ``count <= ddof`` (a
    variance); ``nan_function``: the NaN-functions' variance message (its trailing period). True if it warned."""
    counts = host_counts(shape, axes, where)
    if counts is None:
        return False
    if ddof is None:
        if (counts == 0).any():
            warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=stacklevel)
            return True
    elif (counts <= ddof).any():
        end = "." if nan_function else ""
        warnings.warn(f"Degrees of freedom <= 0 for slice{end}", RuntimeWarning, stacklevel=stacklevel)
        return True
    return False


__all__ = ["host_counts", "warn_empty"]
