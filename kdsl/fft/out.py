"""NumPy's ``out=`` of the transforms: the result written into a kdsl array the caller gives, which is returned.

NumPy's rules: ``out`` must be an array (TypeError), of the result's shape exactly (ValueError: no
broadcasting), and of a dtype the result casts to under ``same_kind`` (TypeError: complex results do not go
into float arrays). ``out`` may be the input itself (an in-place transform): the transform's result is a new
array, assigned into ``out`` afterwards.

Example:
    >>> import kdsl as kd
    >>> y = kd.zeros(2, dtype=kd.complex64)
    >>> kd.fft.fft(kd.asarray([1.0, 1.0]), out=y) is y, y.real.tolist()
    (True, [2.0, 0.0])
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.fft.errors import OutputCastingError


def deliver(result: Any, out: Any, name: str) -> Any:
    """``result`` itself without ``out``; else ``result`` written into ``out`` (checked as NumPy checks it),
    and ``out``."""
    if out is None:
        return result
    if not isinstance(out, kd.Array):
        raise TypeError(f"kd.fft.{name}(out=...): return arrays must be of ArrayType (a kdsl Array; a NumPy out "
                        "would mean a copy to the host)")
    if out.shape != result.shape:
        raise ValueError(f"kd.fft.{name}: output array has wrong shape: {out.shape}, the result's is {result.shape}")
    if not kd.can_cast(result.dtype, out.dtype, "same_kind"):
        raise OutputCastingError(f"Cannot cast ufunc {name!r} output from dtype('{result.dtype.name}') to "
                        f"dtype('{out.dtype.name}') with casting rule 'same_kind'")
    out[...] = result
    return out
