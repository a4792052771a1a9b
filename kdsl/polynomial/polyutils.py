"""What every basis of ``kd.polynomial`` shares (NumPy's ``np.polynomial.polyutils``): coefficient series as
floating 1-D kdsl arrays (``as_series``), trimming trailing zeros (``trimseq``, ``trimcoef``), and the affine
maps between a domain and a window (``getdomain``, ``mapparms``, ``mapdomain``).

Synchronisation: a trimmed series' length depends on its values, so ``trimseq``/``trimcoef`` read back where the
last kept coefficient is (one small read); ``getdomain`` reads back the data's min and max (two scalars).

Example:
    >>> import kdsl as kd
    >>> kd.polynomial.polyutils.trimseq(kd.asarray([1.0, 2.0, 0.0, 0.0])).tolist()
    [1.0, 2.0]
    >>> kd.polynomial.polyutils.mapparms([0.0, 4.0], [-1.0, 1.0])
    (-1.0, 0.5)
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

import kdsl as kd


def floating(a: kd.Array) -> kd.Array:
    """``a + 0.0`` as NumPy computes it: booleans and integers become float64 (float32 on a device without it)."""
    if a.dtype.kind in "fc":
        return a
    return a.astype(kd.float64 if a.device.supports(kd.float64) else kd.float32)


def points(x: Any, device: Any = None) -> Any:
    """``x`` as NumPy's value functions (``polyval``, ``chebval``...) take it: a kdsl array, or a Python number
    kept as it is (weak: float32 coefficients give a float32 value, as NumPy's), anything else uploaded.

    >>> import kdsl as kd
    >>> points(1.5), points([1.0, 2.0]).shape
    (1.5, (2,))
    """
    if isinstance(x, (kd.Array, bool, int, float, complex)):
        return x
    return kd.asarray(np.asarray(x), device=device)


def as_array(v: Any, device: Any = None) -> kd.Array:
    """``v`` as a kdsl array (host data is uploaded once)."""
    return v if isinstance(v, kd.Array) else kd.asarray(np.asarray(v), device=device)


def _last_kept(keep: kd.Array) -> int:
    """The index of the last True of 1-D ``keep`` (-1 if none): one read back of two scalars."""
    found, last = kd.any(keep), keep.shape[0] - 1 - kd.argmax(kd.flip(keep))
    kd.realize(found, last)
    return int(last) if bool(found) else -1


def trimseq(seq: Any) -> kd.Array:
    """``seq`` without its trailing zeros, keeping at least one coefficient (one read back).

    >>> import kdsl as kd
    >>> kd.polynomial.polyutils.trimseq(kd.asarray([0.0, 0.0])).tolist()
    [0.0]
    """
    c = as_array(seq)
    if c.ndim != 1 or c.shape[0] <= 1:
        return c
    return c[:max(_last_kept(c != 0), 0) + 1]


def trimcoef(c: Any, tol: float = 0) -> kd.Array:
    """``c`` without the trailing coefficients of magnitude ``<= tol`` (``[0]`` if none is left), as NumPy's
    ``trimcoef`` (one read back).

    >>> import kdsl as kd
    >>> kd.polynomial.polyutils.trimcoef([1.0, 1e-3, 1e-9], tol=1e-6).tolist()
    [1.0, 0.001]
    """
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [s] = as_series([c])
    last = _last_kept(kd.abs(s) > tol)
    return s[:1] * 0 if last < 0 else s[:last + 1]


def as_series(alist: Any, trim: bool = True) -> list[kd.Array]:
    """Each item as a 1-D floating kdsl array, all of one dtype (their common one), trailing zeros trimmed
    unless ``trim`` is False. Empty or multi-dimensional coefficients raise ValueError, as NumPy's.

    >>> import kdsl as kd
    >>> [a.tolist() for a in kd.polynomial.polyutils.as_series([[1, 2, 0], [3.5]])]
    [[1.0, 2.0], [3.5]]
    """
    device = next((a.device for a in alist if isinstance(a, kd.Array)), None)
    arrays = [kd.atleast_1d(as_array(a, device)) for a in alist]
    for a in arrays:
        if a.size == 0:
            raise ValueError("Coefficient array is empty")
        if a.ndim != 1:
            raise ValueError("Coefficient array is not 1-d")
    if trim:
        arrays = [trimseq(a) for a in arrays]
    common = kd.result_type(*[floating(a).dtype for a in arrays])
    return [a.astype(common) for a in arrays]


def getdomain(x: Any) -> np.ndarray:
    """``[min(x), max(x)]``, the domain a fit maps onto its window (complex ``x``: the corners of the box of its
    real and imaginary parts). A host array: the extremes are read back.

    >>> import kdsl as kd
    >>> kd.polynomial.polyutils.getdomain(kd.asarray([3.0, -1.0, 2.0])).tolist()
    [-1.0, 3.0]
    """
    [a] = as_series([x], trim=False)
    if a.dtype.kind == "c":
        parts = [kd.min(a.real), kd.min(a.imag), kd.max(a.real), kd.max(a.imag)]
        kd.realize(*parts)
        lo_r, lo_i, hi_r, hi_i = (float(p) for p in parts)
        return np.array([complex(lo_r, lo_i), complex(hi_r, hi_i)])
    lo, hi = kd.min(a), kd.max(a)
    kd.realize(lo, hi)
    return np.array([float(lo), float(hi)])


def mapparms(old: Any, new: Any) -> tuple[Any, Any]:
    """``(off, scl)`` of the affine map ``off + scl*x`` that takes the interval ``old`` onto ``new`` (host
    numbers: domains are metadata; NumPy scalars for arrays, as NumPy's).

    >>> import kdsl as kd, numpy as np
    >>> kd.polynomial.polyutils.mapparms([-1.0, 1.0], [0.0, 10.0])
    (5.0, 5.0)
    >>> kd.polynomial.polyutils.mapparms(np.array([-1.0, 1.0]), np.array([0.0, 10.0]))
    (np.float64(5.0), np.float64(5.0))
    """
    (o0, o1), (n0, n1) = _interval(old), _interval(new)
    scl = (n1 - n0) / (o1 - o0)
    off = (o1 * n0 - o0 * n1) / (o1 - o0)
    return off, scl


def _interval(v: Any) -> tuple[Any, Any]:
    """The two ends of ``v``: Python numbers from a list or tuple, NumPy scalars of its dtype from an array, as
    NumPy's arithmetic on them gives (a series' float64 domain makes float32 points float64, as NumPy's)."""
    h = np.asarray(v.numpy() if isinstance(v, kd.Array) else v)
    if h.shape != (2,):
        raise ValueError(f"a domain or window must hold two numbers, not an array of shape {h.shape}")
    if isinstance(v, (list, tuple)):
        lo, hi = h.tolist()
        return lo, hi
    return h[0], h[1]


def mapdomain(x: Any, old: Any, new: Any) -> Any:
    """``x`` mapped from the interval ``old`` onto ``new`` (lazy on a kdsl array).

    >>> import kdsl as kd
    >>> kd.polynomial.polyutils.mapdomain(kd.asarray([0.0, 2.0, 4.0]), [0, 4], [-1, 1]).tolist()
    [-1.0, 0.0, 1.0]
    """
    off, scl = mapparms(old, new)
    xs = x if isinstance(x, kd.Array) else kd.asarray(np.asarray(x))
    return off + scl * floating(xs)


def as_int(value: Any, desc: str) -> int:
    """``value`` as an int (anything with ``__index__``), or NumPy's TypeError naming ``desc``.

    >>> as_int(2, "deg"), as_int(np.int64(3), "deg")
    (2, 3)
    >>> as_int(1.5, "deg")
    Traceback (most recent call last):
    TypeError: deg must be an integer, received 1.5
    """
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{desc} must be an integer, received {value}") from None


__all__ = ["as_int", "as_series", "getdomain", "mapdomain", "mapparms", "trimcoef", "trimseq"]
