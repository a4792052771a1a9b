"""``kd.float32(a)``, ``kd.uint8(img)``: NumPy's scalar types called with an array cast it, ``np.float32(a)`` being
``np.asarray(a, np.float32)`` (the same array when its dtype already is float32; a C cast otherwise: 300.0 as
int8 is 44). kdsl's DTypes stand for those types, so called with a kdsl array, a NumPy array of one dimension or
more, or a list, tuple or range, they give a kdsl array of their dtype (lazy: no host round trip) where they gave
NumPy's host array, which a later ``f += kd_array`` could not write into. Numbers, strings and 0-d arrays
still make NumPy's scalars (``kd.float64(x.sum())`` is ``np.float64``), as NumPy's types do.

Installed into :mod:`kdsl.dtype` (which imports nothing of kdsl) when this module is imported.

Example:
    >>> import kdsl as kd, numpy as np
    >>> img = kd.asarray(np.array([[0, 128], [255, 64]], dtype=np.uint8))
    >>> f = kd.float32(img) / 255.0
    >>> type(f).__name__, f.dtype.name, kd.uint8(f * 255).numpy().tolist()
    ('Array', 'float32', [[0, 128], [255, 64]])
    >>> kd.float64(kd.asarray([1.5, 2.5]).sum())
    np.float64(4.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray


def convert(value: Any, dtype: dt.DType) -> Any:
    """``value`` as a kdsl array of ``dtype`` when NumPy's ``dtype.type(value)`` would give an array, else
    NotImplemented (NumPy's scalar type makes the scalar)."""
    if isinstance(value, Array):
        return NotImplemented if value.ndim == 0 else asarray(value, dtype=dtype)
    if isinstance(value, np.ndarray):  # (text arrays: NumPy parses them, np.float32(np.array(['1.5'])))
        numeric = value.dtype.kind in "biufc"
        return asarray(value, dtype=dtype) if numeric and value.ndim > 0 else NotImplemented
    if isinstance(value, (list, tuple, range)):
        return asarray(value, dtype=dtype)
    return NotImplemented


dt.set_array_conversion(convert)

__all__ = ["convert"]
