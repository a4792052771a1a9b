"""Sample frequencies and spectrum shifts: ``fftfreq rfftfreq fftshift ifftshift``.

Example:
    >>> import kdsl as kd
    >>> kd.fft.fftfreq(4).tolist()
    [0.0, 0.25, -0.5, -0.25]
    >>> kd.fft.fftshift(kd.arange(5)).tolist()
    [3, 4, 0, 1, 2]
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.fft.errors import ZeroDimensionalError, ZeroLengthError


def fftfreq(n: int, d: float = 1.0, device: Any = None, *, dtype: Any = None) -> Any:
    """The frequency of each output of a length-``n`` :func:`kdsl.fft.fft` with sample spacing ``d``, in
    kdsl's default float dtype (float32; NumPy gives float64) for a Python number ``d``, NumPy's (float64) for
    typed host data (``np.float64(0.01)``, ``t[1] - t[0]`` of a NumPy array) and a kdsl array's own for a
    kdsl ``d``, unless ``dtype`` says otherwise.

    >>> import numpy as np, kdsl as kd
    >>> kd.fft.fftfreq(4, 0.5).dtype.name, kd.fft.fftfreq(4, np.float64(0.5)).dtype.name
    ('float32', 'float64')
    """
    n = _check_n(n, "fftfreq")
    return _frequencies(np.fft.fftfreq(n, _host(d)), d, device, dtype)


def rfftfreq(n: int, d: float = 1.0, device: Any = None, *, dtype: Any = None) -> Any:
    """The frequencies of :func:`kdsl.fft.rfft`'s outputs (``n // 2 + 1`` of them).

    >>> import kdsl as kd
    >>> kd.fft.rfftfreq(4, d=0.5).tolist()
    [0.0, 0.5, 1.0]
    """
    n = _check_n(n, "rfftfreq")
    return _frequencies(np.fft.rfftfreq(n, _host(d)), d, device, dtype)


def _host(d: Any) -> Any:
    """A kdsl array spacing read back (one number: a spacing, not data)."""
    return d.numpy() if isinstance(d, kd.Array) else d


def _frequencies(freqs: np.ndarray, d: Any, device: Any, dtype: Any) -> Any:
    """``freqs`` (NumPy's, float64) on the device in ``dtype``, else in the dtype of :func:`fftfreq`'s rule."""
    if dtype is None:
        dtype = kd.float32
        if isinstance(d, (np.generic, np.ndarray)):  # typed host data: NumPy's dtype, as kd.linspace does
            dtype = freqs.dtype
        elif isinstance(d, kd.Array) and d.dtype == kd.float64:
            dtype = kd.float64
        if not kd.device(device).supports(dtype):
            dtype = kd.float32
    return kd.asarray(freqs, dtype=dtype, device=device)


def fftshift(x: Any, axes: int | Sequence[int] | None = None) -> Any:
    """The zero frequency moved to the middle (a roll by ``n // 2`` along ``axes``, all by default)."""
    return _shift(x, axes, +1)


def ifftshift(x: Any, axes: int | Sequence[int] | None = None) -> Any:
    """The inverse of :func:`fftshift` (a roll by ``-(n // 2)``).

    >>> import kdsl as kd
    >>> kd.fft.ifftshift(kd.fft.fftshift(kd.arange(5))).tolist()
    [0, 1, 2, 3, 4]
    """
    return _shift(x, axes, -1)


def _shift(x: Any, axes: Any, sign: int) -> Any:
    x = x if isinstance(x, kd.Array) else kd.asarray(x)
    if x.ndim == 0:  # NumPy's IndexError (its axes index the empty shape); kdsl's earlier ValueError too
        raise ZeroDimensionalError(f"kd.fft.{'fftshift' if sign > 0 else 'ifftshift'}: a 0-d array has no axis "
                                   "to shift")
    axes = _host_int(axes)  # a 0-d integer axis, as NumPy's np.int64
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, (int, np.integer)):
        axes = (axes,)
    axes = tuple(axes)
    for a in axes:  # NumPy's IndexError, as an AxisError naming the axis (also a ValueError)
        if not -x.ndim <= a < x.ndim:
            raise np.exceptions.AxisError(a, x.ndim)
    return kd.roll(x, tuple(sign * (x.shape[a] // 2) for a in axes), axis=axes)


def _check_n(n: Any, name: str) -> int:
    """``n`` as a Python int; a 0-d integer kdsl array (``n = x.size // 2 + 1``-style results of reductions,
    kdsl's stand-in for NumPy's scalars) is read back to the host (a length, not data)."""
    n = _host_int(n)
    if not isinstance(n, bool) and isinstance(n, (int, np.integer)) and n == 0:  # NumPy divides by n * d
        raise ZeroLengthError(f"kd.fft.{name}: n must be a positive int, got 0 (float division by zero)")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"kd.fft.{name}: n must be a positive int, got {n!r}")
    return int(n)


def _host_int(v: Any) -> Any:
    """A 0-d integer kdsl array as a Python int (read back: a length or an axis, not data); anything else as is."""
    if isinstance(v, kd.Array) and v.ndim == 0 and v.dtype != kd.bool_:
        try:
            return operator.index(v)
        except TypeError:
            return v
    return v
