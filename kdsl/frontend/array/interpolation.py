"""``interp``: one-dimensional piecewise-linear interpolation, NumPy 2's semantics (``left``, ``right``,
``period``; complex ``fp``).

How it runs, lazily on the device: ``searchsorted(xp, x, side="right") - 1`` finds each ``x``'s interval
``xp[j] <= x < xp[j + 1]`` (the same interval NumPy's binary search finds), the two neighbours are gathered
and ``slope * (x - xp[j]) + fp[j]`` evaluated as NumPy's C loop does: exactly ``fp[j]`` where ``x == xp[j]``,
the other end's formula where the first gives NaN (an infinite ``fp``), ``left``/``right`` outside ``xp``'s
range and NaN for NaN ``x``. With ``period`` the points are wrapped into ``[0, period)`` and ``xp`` sorted
(``argsort`` + gathers) first. Everything is float64 (complex128 for complex ``fp``) as in NumPy; float32 on
devices without float64. Nothing synchronises. ``xp`` must be increasing (not checked, as in NumPy).

Example:
    >>> import kdsl as kd
    >>> kd.interp(kd.asarray([0.5, 1.5, 9.0]), kd.asarray([0.0, 1.0, 2.0]), kd.asarray([0.0, 10.0, 0.0])).tolist()
    [5.0, 5.0, 0.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.complex_math import complex_from_parts, imag, real
from kdsl.frontend.array.creation import as_array, as_arrays, widened
from kdsl.frontend.array.math import isnan, maximum, minimum, remainder, where
from kdsl.frontend.array.shape_ops import concatenate
from kdsl.frontend.array.sorting import argsort, searchsorted
from kdsl.frontend.array.take import take


def _points(xp: Any, fp: Any, device: Any) -> tuple[Array, Array]:
    xpa, fpa = as_arrays(xp, fp, device=device)
    if xpa.ndim != 1 or fpa.ndim != 1:
        raise ValueError(f"interp's xp and fp must be 1-D sequences, not of shapes {xpa.shape} and {fpa.shape}")
    if xpa.shape[0] != fpa.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xpa.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    return xpa, fpa


def _wrapped(x: Array, xp: Array, fp: Array, period: Any) -> tuple[Array, Array, Array]:
    """NumPy's periodic case: ``x`` and ``xp`` modulo ``period``, ``xp`` sorted, one point added each side."""
    if period == 0:
        raise ValueError("period must be a non-zero value")
    p = abs(float(period))
    x, xp = remainder(x, p), remainder(xp, p)
    order = argsort(xp)
    xp, fp = take(xp, order, mode="clip"), take(fp, order, mode="clip")
    xp = concatenate([xp[-1:] - p, xp, xp[:1] + p])
    fp = concatenate([fp[-1:], fp, fp[:1]])
    return x, xp, fp


def _interp_real(x: Array, xp: Array, fp: Array, left: Any, right: Any) -> Array:
    """The interpolation of a real ``fp`` (NumPy's ``compiled_interp``), all operands of one float dtype."""
    n = xp.shape[0]
    lval = fp[0] if left is None else left
    rval = fp[n - 1] if right is None else right
    if n == 1:  # NumPy's single-point rule (a NaN x gets fp[0] there)
        return where(x < xp[0], lval, where(x > xp[0], rval, fp[0]))
    j = searchsorted(xp, x, side="right") - 1  # xp[j] <= x < xp[j + 1]
    jj = minimum(maximum(j, 0), n - 1)  # the found point (exact matches; x == xp[-1] gives j == n - 1)
    k = minimum(maximum(j, 0), n - 2)  # the interval's left end
    x0, x1 = take(xp, k, mode="clip"), take(xp, k + 1, mode="clip")
    y0, y1 = take(fp, k, mode="clip"), take(fp, k + 1, mode="clip")
    slope = (y1 - y0) / (x1 - x0)
    value = slope * (x - x0) + y0
    value = where(isnan(value), slope * (x - x1) + y1, value)  # NaN one way (inf fp): try the other end
    value = where(isnan(value) & (y0 == y1), y0, value)
    value = where(x == take(xp, jj, mode="clip"), take(fp, jj, mode="clip"), value)
    value = where(x < xp[0], lval, value)
    value = where(x > xp[n - 1], rval, value)
    return where(isnan(x), x, value)


def _parts(value: Any, part: Any) -> Any:
    """The real or imaginary part of a complex ``left``/``right`` (None stays None)."""
    return None if value is None else part(value)


def interp(x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None, period: Any = None) -> Array:
    """The piecewise-linear interpolant of the points ``(xp, fp)`` at ``x`` (any shape), as NumPy's ``interp``:
    ``left``/``right`` (default ``fp[0]``/``fp[-1]``) outside ``xp``'s range, NaN at NaN; ``period`` makes
    ``xp`` periodic (``left``/``right`` are then ignored). float64 (complex128 for complex ``fp``). ``xp``
    must be increasing (unchecked, as in NumPy). Runs on the device without synchronising.

    Example:
        >>> import kdsl as kd
        >>> kd.interp([-1.0, 0.25, 3.0], [0.0, 1.0], [1.0, 3.0], left=-5.0).tolist()
        [-5.0, 1.5, 3.0]
        >>> kd.interp([0.0, 355.0], [350.0, 10.0], [1.0, 3.0], period=360).tolist()  # 350 -> 370 (= 10)
        [2.0, 1.5]
    """
    for name, value in (("left", left), ("right", right), ("period", period)):
        if isinstance(value, (str, bytes)):  # NumPy converts them with float()/complex(): its TypeError
            raise TypeError(f"must be real number, not str (interp's {name}={value!r}); pass a number")
    dev = next((v.device for v in (x, xp, fp) if isinstance(v, Array)), None)
    xa = as_array(x, dev)
    xpa, fpa = _points(xp, fp, xa.device)
    d = dt.float64 if xa.device.supports(dt.float64) else dt.float32
    if d is dt.float64:  # interp computes in float64: fp=[0.0, 0.6] holds NumPy's 0.6, not float32's rounding
        xa, xpa, fpa = widened(x, xa, xa.device), widened(xp, xpa, xa.device), widened(fp, fpa, xa.device)
    is_complex = fpa.dtype.kind == "c" or isinstance(left, complex) or isinstance(right, complex)
    if fpa.dtype.kind not in "biufc":
        raise TypeError(f"interp's fp must hold numbers, not {fpa.dtype.name}")
    for points in (xa, xpa):  # astype would drop the imaginary parts; NumPy refuses the cast to float
        if points.dtype.kind == "c":
            raise TypeError(f"Cannot cast array data from dtype('{points.dtype.name}') to dtype('float64') according "
                            "to the rule 'safe' (interp's x and xp are real)")
    xa, xpa = xa.astype(d), xpa.astype(d)
    if is_complex and fpa.dtype.kind != "c":
        raise TypeError("interp: a complex left/right needs a complex fp (NumPy cannot cast it to float)")
    fpa = fpa.astype(dt.complex128 if d is dt.float64 else dt.complex64) if is_complex else fpa.astype(d)
    if period is not None:
        left = right = None
        xa, xpa, fpa = _wrapped(xa, xpa, fpa, period)
    if not is_complex:
        return _interp_real(xa, xpa, fpa, _float(left), _float(right))
    re = _interp_real(xa, xpa, real(fpa), _parts(_complex(left), np.real), _parts(_complex(right), np.real))
    im = _interp_real(xa, xpa, imag(fpa), _parts(_complex(left), np.imag), _parts(_complex(right), np.imag))
    if xpa.shape[0] > 1:
        im = where(isnan(xa), 0.0, im)  # NumPy's complex loop gives NaN x the value complex(x, 0)
    return complex_from_parts(re, im)


def _float(value: Any) -> float | None:
    if isinstance(value, Array):
        raise TypeError("interp's left and right must be scalars (host numbers), not kdsl arrays")
    return None if value is None else float(value)


def _complex(value: Any) -> complex | None:
    if isinstance(value, Array):
        raise TypeError("interp's left and right must be scalars (host numbers), not kdsl arrays")
    return None if value is None else complex(value)


__all__ = ["interp"]
