"""Tapering windows of signal processing: ``bartlett blackman hamming hanning kaiser`` (NumPy's formulas),
computed on the device from an ``arange``.

They are kdsl's default float (float32), as ``kd.linspace`` and ``kd.ones`` are; NumPy's are float64.
``kaiser`` needs the modified Bessel function I0: :func:`_i0e` evaluates it exponentially scaled on the device.

Example:
    >>> import kdsl as kd
    >>> [round(v, 4) for v in kd.hanning(5).tolist()]
    [0.0, 0.5, 1.0, 0.5, 0.0]
"""

from __future__ import annotations

import math
from typing import Any

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import arange, ones, zeros

# Abramowitz & Stegun 9.8.1 and 9.8.2: I0 on |x| <= 3.75 in powers of (x/3.75)^2, and sqrt(x) exp(-x) I0(x)
# above in powers of 3.75/x; both within 2e-7 relative, float32's resolution.
_SMALL = (1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.0360768, 0.0045813)
_LARGE = (0.39894228, 0.01328592, 0.00225319, -0.00157565, 0.00916281, -0.02057706, 0.02635537, -0.01647633,
          0.00392377)


def _horner(coefficients: tuple[float, ...], t: Any) -> Any:
    out = coefficients[-1]
    for c in reversed(coefficients[:-1]):
        out = out * t + c
    return out


def _i0e(x: Array) -> Array:
    """``exp(-|x|) * I0(x)`` (the scaled form cannot overflow), elementwise on the device."""
    ax = km.abs(x)
    small = _horner(_SMALL, (ax / 3.75) ** 2) * km.exp(-ax)
    big = _horner(_LARGE, 3.75 / km.maximum(ax, 3.75)) / km.sqrt(km.maximum(ax, 3.75))
    return km.where(ax <= 3.75, small, big)


def _i0e_host(x: float) -> float:
    """:func:`_i0e` of a Python float, on the host (the normalising constant of ``kaiser``)."""
    ax = abs(x)
    if ax <= 3.75:
        return _horner(_SMALL, (ax / 3.75) ** 2) * math.exp(-ax)
    return _horner(_LARGE, 3.75 / ax) / math.sqrt(ax)


def _length(M: Any) -> float:
    """``M`` as a float (NumPy accepts float lengths too). A 0-d kdsl array (``np.hanning(np.count_nonzero(m))``:
    kdsl's stand-in for NumPy's scalar) is read back to the host: a length, not data."""
    if isinstance(M, Array) and M.ndim == 0 and (M.dtype.is_int or M.dtype.is_float) and M.dtype is not dt.bool_:
        return float(M)
    if isinstance(M, (Array, str)):
        raise TypeError(f"the window length M must be a Python number, not {type(M).__name__}")
    return float(M)


def _symmetric(M: Any) -> tuple[Array | None, float]:
    """``(n, M)`` with ``n = arange(1 - M, M, 2)`` in float32, or ``(result, M)`` for the trivial lengths."""
    m = _length(M)
    if m < 1:
        return zeros(0, dtype=dt.default_float), m
    if m == 1:
        return ones(1, dtype=dt.default_float), m
    return None, m


def _n(m: float) -> Array:
    return arange(1 - m, m, 2, dtype=dt.default_float)


def _cosine_window(M: Any, coefficients: tuple[float, ...]) -> Array:
    """The generalised cosine window ``sum_k a_k cos(k pi n / (M - 1))`` for ``n = 1-M, 3-M, ..., M-1``: the
    Hann, Hamming and Blackman windows differ only in their coefficients ``a_k``."""
    trivial, m = _symmetric(M)
    if trivial is not None:
        return trivial
    t = _n(m) * (math.pi / (m - 1))
    out = coefficients[0] + coefficients[1] * km.cos(t)
    for k, a in enumerate(coefficients[2:], start=2):
        out = out + a * km.cos(float(k) * t)
    return out


def hanning(M: Any) -> Array:
    """The Hann window of ``M`` points: ``0.5 + 0.5 cos(pi n / (M - 1))`` for ``n = 1-M, 3-M, ..., M-1``.

    >>> import kdsl as kd
    >>> [round(v, 4) for v in kd.hanning(4).tolist()]
    [0.0, 0.75, 0.75, 0.0]
    """
    return _cosine_window(M, (0.5, 0.5))


def hamming(M: Any) -> Array:
    """The Hamming window of ``M`` points: ``0.54 + 0.46 cos(pi n / (M - 1))``.

    >>> import kdsl as kd
    >>> [round(v, 4) for v in kd.hamming(3).tolist()]
    [0.08, 1.0, 0.08]
    """
    return _cosine_window(M, (0.54, 0.46))


def blackman(M: Any) -> Array:
    """The Blackman window of ``M`` points: ``0.42 + 0.5 cos(pi n / (M-1)) + 0.08 cos(2 pi n / (M-1))``.

    >>> import kdsl as kd
    >>> [round(v, 4) for v in kd.blackman(3).tolist()]
    [-0.0, 1.0, -0.0]
    """
    return _cosine_window(M, (0.42, 0.5, 0.08))


def bartlett(M: Any) -> Array:
    """The Bartlett (triangular) window of ``M`` points, zero at both ends.

    >>> import kdsl as kd
    >>> kd.bartlett(5).tolist()
    [0.0, 0.5, 1.0, 0.5, 0.0]
    """
    trivial, m = _symmetric(M)
    if trivial is not None:
        return trivial
    n = _n(m)
    return km.where(n <= 0, 1 + n / (m - 1), 1 - n / (m - 1))


def kaiser(M: Any, beta: float) -> Array:
    """The Kaiser window of ``M`` points and shape ``beta``: ``I0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / I0(beta)``
    for ``n = 0 .. M-1``; I0 is evaluated exponentially scaled, so a large ``beta`` does not overflow.

    >>> import kdsl as kd
    >>> [round(v, 4) for v in kd.kaiser(3, 5.0).tolist()]
    [0.0367, 1.0, 0.0367]
    """
    if isinstance(beta, Array):
        raise TypeError("kaiser: beta must be a Python number, not a kdsl array")
    beta = float(beta)
    trivial, m = _symmetric(M)
    if trivial is not None:
        return trivial
    alpha = (m - 1) / 2.0
    r = (arange(0, m, dtype=dt.default_float) - alpha) / alpha
    root = km.sqrt(1.0 - r * r)
    # I0(arg) / I0(beta) = i0e(arg) / i0e(beta) * exp(|arg| - |beta|), with |arg| <= |beta|: no overflow;
    # |arg| - |beta| = -|beta| r^2 / (1 + root) without the cancellation of the difference
    drop = -abs(beta) * (r * r) / (1.0 + root)
    return _i0e(beta * root) * km.exp(drop) / _i0e_host(beta)


__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]
