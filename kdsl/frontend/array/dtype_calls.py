"""``kd.float32(a)``, ``kd.uint8(img)``: NumPy's scalar types called with an array cast it, ``np.float32(a)`` being
``np.asarray(a, np.float32)`` (the same array when its dtype already is float32; a C cast otherwise: 300.0 as
int8 is 44). kdsl's DTypes stand for those types, so called with a kdsl array, a NumPy array of one dimension or
more, or a list, tuple or range, they give a kdsl array of their dtype (lazy: no host round trip) where they gave
NumPy's host array, which a later ``f += kd_array`` could not write into; a ``kd.ma`` masked array is cast with
its mask (reading it back dropped the mask). Numbers, strings and 0-d arrays still make NumPy's scalars
(``kd.float64(x.sum())`` is ``np.float64``), as NumPy's types do.

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


def _masked(value: Any) -> bool:
    """A kd.ma masked array (kdsl.ma is a layer above this one, so it is known by its methods): NumPy's
    ``np.float32`` of a masked array casts its data and keeps its mask; reading it back dropped the mask."""
    return all(callable(getattr(value, name, None)) for name in ("astype", "filled")) and hasattr(value, "mask")


def convert(value: Any, dtype: dt.DType) -> Any:
    """``value`` as a kdsl array of ``dtype`` when NumPy's ``dtype.type(value)`` would give an array, else
    NotImplemented (NumPy's scalar type makes the scalar)."""
    if isinstance(value, Array):
        return NotImplemented if value.ndim == 0 else asarray(value, dtype=dtype)
    if isinstance(value, np.ma.MaskedArray):  # NumPy's own: np.float32(x) keeps the mask (a host masked array)
        return NotImplemented
    if isinstance(value, np.ndarray):  # (text arrays: NumPy parses them, np.float32(np.array(['1.5'])))
        numeric = value.dtype.kind in "biufc"
        return asarray(value, dtype=dtype) if numeric and value.ndim > 0 else NotImplemented
    if _masked(value):  # kd.ma's arrays: cast with their mask, as np.float32(np.ma array) is
        return NotImplemented if value.ndim == 0 else value.astype(dtype)
    if isinstance(value, (list, tuple, range)):
        return asarray(value, dtype=dtype)
    return NotImplemented


dt.set_array_conversion(convert)

__all__ = ["convert"]
