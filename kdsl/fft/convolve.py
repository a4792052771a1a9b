"""``convolve`` and ``correlate`` (1-D, NumPy's modes): a fused sum of shifted slices for short kernels, FFTs
for long ones. An inf or NaN reaches only the outputs whose window covers it, as in NumPy's direct sum: a long
float convolution reads back whether its inputs are all finite (so a ``kd.jit`` function holding one runs
eagerly) and, where not, takes :mod:`kdsl.fft.nonfinite_convolution`'s route. Complex inf/NaN follow the
elementwise product's; NumPy's complex convolve runs its BLAS dot, whose inf/NaN can differ.

Example:
    >>> import kdsl as kd
    >>> kd.convolve(kd.asarray([1.0, 2.0, 3.0]), kd.asarray([0.0, 1.0, 0.5])).tolist()
    [0.0, 1.0, 2.5, 4.0, 1.5]
    >>> kd.correlate(kd.asarray([1.0, 2.0, 3.0]), kd.asarray([0.0, 1.0, 0.5])).tolist()
    [3.5]
"""

from __future__ import annotations

from typing import Any

import numpy as np

import kdsl as kd
from kdsl.fft import nonfinite_convolution
from kdsl.fft.derivatives import fft, ifft, irfft, rfft  # differentiable: long convolutions have gradients

DIRECT_LIMIT = 32
"""Kernels up to this length are summed directly (one fused kernel of shifted slices); longer ones use FFTs."""
_MODES = ("full", "same", "valid")
_INEXACT = (kd.float16, kd.float32, kd.float64, kd.complex64, kd.complex128)


def convolve(a: Any, v: Any, mode: str = "full") -> Any:
    """The discrete linear convolution of two 1-D arrays, as ``np.convolve`` (``mode``: ``'full'``,
    ``'same'`` or ``'valid'``). Integer and bool inputs give NumPy's exact results (integers wrapping as NumPy's
    do) at any length: they are summed directly, as NumPy sums. Floats are summed directly when the shorter input
    has at most ``DIRECT_LIMIT`` elements and through FFTs beyond (an FFT's rounding is relative to the largest
    values: outputs far smaller than them, a decaying tail, carry errors of that size).

    >>> import kdsl as kd
    >>> kd.convolve(kd.asarray([1, 2]), kd.asarray([1, 2, 3, 4]), mode="same").tolist()
    [1, 4, 7, 10]
    """
    a, v = _operands(a, v, "convolve")
    mode = _mode(mode)
    if v.shape[0] > a.shape[0]:
        a, v = v, a  # convolution commutes; the shorter one is the kernel
    n, m = a.shape[0], v.shape[0]
    full = _direct(a, v) if m <= DIRECT_LIMIT else _long(a, v) if a.dtype in _INEXACT else _exact(a, v)
    if mode == "full":
        return full
    if mode == "same":
        start = (m - 1) // 2
        return full[start:start + n]
    return full[m - 1:n]


def _mode(mode: Any) -> str:
    """``mode`` by name, or by NumPy's legacy integers (0 valid, 1 same, 2 full); NumPy's errors otherwise.

    >>> _mode("same"), _mode(2)
    ('same', 'full')
    """
    if isinstance(mode, str):
        if mode not in _MODES:
            raise ValueError(f"convolve/correlate: mode must be one of {_MODES}, got {mode!r}")
        return mode
    if isinstance(mode, (int, np.integer)) and not isinstance(mode, (bool, np.bool_)):
        if not 0 <= mode <= 2:
            raise ValueError(f"integer convolve/correlate mode must be 0, 1, or 2, got {mode}")
        return ("valid", "same", "full")[int(mode)]
    raise TypeError(f"convolve/correlate mode not understood: {mode!r}; use 'full', 'same' or 'valid'")


def correlate(a: Any, v: Any, mode: str = "valid") -> Any:
    """The cross-correlation ``c[k] = sum_n a[n + k] * conj(v[n])`` of two 1-D arrays, as ``np.correlate``
    (default mode ``'valid'``).

    >>> import kdsl as kd
    >>> kd.correlate(kd.asarray([1, 2]), kd.asarray([1, 2, 3, 4]), mode="full").tolist()
    [4, 11, 8, 5, 2]
    """
    a, v = _operands(a, v, "correlate")
    if v.dtype in (kd.complex64, kd.complex128):
        v = kd.conj(v)
    mode = _mode(mode)
    n, m = a.shape[0], v.shape[0]
    if mode != "same" or m <= n:
        return convolve(a, kd.flip(v), mode)
    # NumPy correlates the longer input against the shorter and reverses the result, so its 'same' window
    # of a shorter `a` starts at n // 2 of the full correlation, not (n - 1) // 2 (they differ for even n)
    start = n // 2
    return convolve(a, kd.flip(v), "full")[start:start + m]


_WIDER = {"float32": "float64", "complex64": "complex128"}


def _as_operand(x: Any, dev: Any, wide: bool) -> Any:
    """``x`` as a kdsl array; host floats beside a float64/complex128 operand at that precision (as kdsl's other
    functions convert operands together: ``convolve(a64, [0.1])`` keeps 0.1, not its float32 rounding)."""
    if isinstance(x, kd.Array):
        return x
    y = kd.asarray(x, device=dev)
    return kd.asarray(x, dtype=_WIDER[y.dtype.name], device=dev) if wide and y.dtype.name in _WIDER else y


def _operands(a: Any, v: Any, name: str) -> tuple[Any, Any]:
    dev = a.device if isinstance(a, kd.Array) else v.device if isinstance(v, kd.Array) else None
    wide = any(isinstance(x, kd.Array) and x.dtype in (kd.float64, kd.complex128) for x in (a, v))
    a, v = (_as_operand(x, dev, wide) for x in (a, v))
    if name == "convolve":  # NumPy's convolve reads a 0-d operand as one sample (ndmin=1); correlate does not
        a, v = kd.atleast_1d(a), kd.atleast_1d(v)
    if a.ndim == 0 or v.ndim == 0:
        raise ValueError(f"object of too small depth for desired array: {name} takes 1-D arrays, got shapes "
                         f"{a.shape} and {v.shape}")
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError(f"{name} takes 1-D arrays, got shapes {a.shape} and {v.shape}; for n-d arrays use "
                         f"kd.fft.rfftn / irfftn products")
    if a.shape[0] == 0:
        raise ValueError(f"{name}: a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError(f"{name}: v cannot be empty")
    dtype = kd.result_type(a, v)
    return a.astype(dtype), v.astype(dtype)


def _direct(a: Any, v: Any) -> Any:
    """``full[k] = sum_j v[j] * a[k - j]`` as one fused expression of ``m`` shifted slices of padded ``a``;
    for floats, each product only where ``a[k - j]`` exists (an inf ``v[j]`` times the padding would be NaN,
    where NumPy's sum has no such product)."""
    n, m = a.shape[0], v.shape[0]
    zeros = kd.zeros(m - 1, dtype=a.dtype)
    padded = kd.concatenate([zeros, a, zeros])
    k = kd.arange(n + m - 1) if a.dtype in _INEXACT else None

    def term(j: int) -> Any:
        product = v[j] * padded[m - 1 - j:m - 1 - j + n + m - 1]
        return product if k is None or m == 1 else kd.where((k >= j) & (k < j + n), product, 0)

    total = term(0)
    for j in range(1, m):
        total = total + term(j)
    return total.astype(a.dtype)


def _exact(a: Any, v: Any) -> Any:
    """The full convolution of integer or bool inputs, ``full[k] = sum_j v[j] * a[k - j]``, summed as NumPy's
    direct sum (exact, wrapping as NumPy's integers do): ``m`` rows of products, row ``r`` the window of ``a``
    padded with zeros that ``v[m - 1 - r]`` multiplies. The rows stay lazy, read by the reduction over them
    without being stored: ``n * m`` products in ``O(n + m)`` memory. (Through float64 FFTs, 276 outputs of the
    convolution of ``arange(4096) * 255`` with itself were one off: an FFT's rounding grows with the values.)

    >>> import kdsl as kd
    >>> _exact(kd.asarray([1, 2, 3]), kd.asarray([1, 1])).tolist()
    [1, 3, 5, 3]
    """
    n, m = a.shape[0], v.shape[0]
    zeros = kd.zeros(m - 1, dtype=a.dtype)
    windows = kd.lib.stride_tricks.sliding_window_view(kd.concatenate([zeros, a, zeros]), n + m - 1)
    products = kd.flip(v)[:, None] * windows
    if a.dtype == kd.bool:
        return kd.any(products, axis=0)
    return kd.sum(products, axis=0, dtype=a.dtype)


def _long(a: Any, v: Any) -> Any:
    """The full convolution of floats by FFTs, or, where ``a`` or ``v`` holds inf or NaN (one bool read back),
    with NumPy's direct sum's inf and NaN (:mod:`kdsl.fft.nonfinite_convolution`)."""
    finite = kd.all(kd.isfinite(a)) & kd.all(kd.isfinite(v))
    full = _by_fft(a, v) if bool(finite) else nonfinite_convolution.full_convolution(a, v, _by_fft)
    # the result reads the flag: a kd.jit trace sees the host read and runs eagerly, not replaying this branch
    return kd.where(finite, full, full)


def _by_fft(a: Any, v: Any) -> Any:
    n, m = a.shape[0], v.shape[0]
    size = n + m - 1
    length = 1 << (size - 1).bit_length()
    if a.dtype in (kd.complex64, kd.complex128):
        return ifft(fft(a, length) * fft(v, length))[:size]
    out = irfft(rfft(a, length) * rfft(v, length), length)[:size]
    return out.astype(a.dtype)
