"""Index arrays and NumPy's clip modes (``mode='raise' | 'wrap' | 'clip'``), shared by ``put``, ``choose`` and
``ravel_multi_index``.

An index argument becomes a lazy integer Array of kdsl's index dtype (int64, NumPy's intp, where the device has
it) under NumPy's rule for index arrays: it must cast to intp 'safely' (bools and integers other than uint64).
``'wrap'`` and ``'clip'`` map every index into ``[0, n)`` lazily; ``'raise'`` checks the bounds: host indices on
the host, device indices by reading back their minimum and maximum (one synchronisation).

Example:
    >>> import kdsl as kd
    >>> idx = index_array([-1, 7, 2], kd.device())
    >>> in_range(idx, 5, "wrap").tolist(), in_range(idx, 5, "clip").tolist()
    ([4, 2, 2], [0, 4, 2])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.reductions import max as amax
from kdsl.frontend.array.reductions import min as amin

MODES = ("raise", "wrap", "clip")


def index_dtype(device) -> dt.DType:
    """NumPy's intp: int64, or int32 on devices without 64-bit integers (as ``kd.nonzero`` returns)."""
    return dt.int64 if device.supports(dt.int64) else dt.int32


def check_mode(mode: Any) -> str:
    """``mode`` if it is one of NumPy's clip modes, else NumPy's ValueError."""
    if mode not in MODES:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    return mode


def _check_safe(d: np.dtype) -> None:
    if d.kind not in "biu" or d == np.uint64:
        raise TypeError(f"Cannot cast array data from dtype('{d}') to dtype('int64') according to the rule 'safe'"
                        "; index arrays must hold integers (convert with .astype(int) if truncation is meant)")


def index_array(x: Any, device, empty_ok: bool = True) -> Array:
    """``x`` (a kdsl Array, NumPy array, list or int) as a lazy index-dtype Array on ``device``. An empty list is
    NumPy's float64: taken as no indices when ``empty_ok`` (``put``), refused otherwise as NumPy does."""
    d = index_dtype(device)
    if isinstance(x, Array):
        if x.device is not device:
            raise ValueError("the index array lives on another device than the array; move it with kd.asarray")
        _check_safe(x.dtype.np)
        return x if x.dtype is d else x.astype(d)
    host = np.asarray(x)
    if host.size == 0 and host.dtype == np.float64 and not isinstance(x, np.ndarray):
        if not empty_ok:
            raise TypeError("indices must be integral: the provided empty sequence was inferred as float. Wrap it "
                            "with 'np.array(indices, dtype=np.intp)'")
        host = host.astype(np.int64)
    _check_safe(host.dtype)
    return asarray(host.astype(d.np), device=device)


def bounds(idx: Array) -> tuple[int, int]:
    """(min, max) of a non-empty index array: one synchronisation for a lazy or stored device array."""
    lo, hi = amin(idx), amax(idx)
    realize(*([lo, hi] if idx._n.realized else [idx, lo, hi]))  # a lazy idx is computed once, for both uses
    return int(lo), int(hi)


def in_range(idx: Array, n: int, mode: str) -> Array:
    """``idx`` mapped into ``[0, n)`` by ``'wrap'`` (modulo, as Python's ``%``) or ``'clip'`` (negative -> 0);
    ``'raise'`` leaves it as it is (the caller checks the bounds with :func:`bounds`). ``n`` > 0."""
    if mode == "wrap":
        return idx % n
    if mode == "clip":
        return km.clip(idx, 0, n - 1)
    return idx
