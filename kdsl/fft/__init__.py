"""``kd.fft``: discrete Fourier transforms on the device, with NumPy's (and the array API's) names.

Every transform runs as GPU kernels (:mod:`kdsl.fft.transform`): Stockham stages in shared memory for lengths
whose prime factors are 2, 3, 5 and 7, the four-step method for lengths past one workgroup, Bluestein's
algorithm for every other length. float32/complex64 input gives complex64 and float64/complex128 gives
complex128 (as NumPy 2 does); integer and bool input transform as complex64, kdsl's default precision (NumPy
gives complex128: pass ``x.astype(kd.float64)`` for that). ``kd.grad`` differentiates every transform
(:mod:`kdsl.fft.derivatives`).

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([1.0, 2.0, 3.0, 4.0])
    >>> kd.fft.fft(x).tolist()
    [(10+0j), (-2+2j), (-2+0j), (-2-2j)]
    >>> kd.fft.irfft(kd.fft.rfft(x)).tolist()
    [1.0, 2.0, 3.0, 4.0]
"""

from __future__ import annotations

from kdsl.fft.derivatives import (  # the transforms with their derivatives (kd.grad differentiates them)
    fft,
    fft2,
    fftn,
    hfft,
    ifft,
    ifft2,
    ifftn,
    ihfft,
    irfft,
    irfft2,
    irfftn,
    rfft,
    rfft2,
    rfftn,
)
from kdsl.fft.frequencies import fftfreq, fftshift, ifftshift, rfftfreq

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn",
           "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
