"""The transforms of real input and Hermitian spectra: ``rfft irfft rfft2 irfft2 rfftn irfftn hfft ihfft``.

``rfft`` keeps the ``n // 2 + 1`` non-negative frequencies of the complex transform; ``irfft`` rebuilds the
full Hermitian spectrum (``X[n - k] = conj(X[k])``) and keeps the real part of its inverse, which ignores the
imaginary parts of the zero and Nyquist frequencies as NumPy does.

Example (rounded: a GPU's twiddles are not exact, and its zeros may be -0.0):
    >>> import kdsl as kd
    >>> (kd.fft.rfft(kd.asarray([1.0, 1.0, 1.0, 1.0])).numpy().round(6) + 0).tolist()
    [(4+0j), 0j, 0j]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.fft import plan
from kdsl.fft.axes import (
    as_complex,
    as_real,
    c2c_axis,
    check_length,
    check_norm,
    normalize_axes,
    program_axes,
    scale,
)
from kdsl.fft.out import deliver
from kdsl.fft.real_rows import c2r
from kdsl.fft.replay import replayable
from kdsl.fft.transform import c2c, c2c_program, nd, resize
from kdsl.fft.transforms import axis1

_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


@replayable
def rfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None) -> Any:
    """The transform of real input: its ``n // 2 + 1`` non-negative frequencies, as ``np.fft.rfft``.

    >>> import kdsl as kd
    >>> (kd.fft.rfft(kd.asarray([0.0, 1.0, 0.0, -1.0])).numpy().round(6) + 0).tolist()
    [0j, -2j, 0j]
    """
    return deliver(_rfft(a, n, axis, norm, "rfft"), out, "rfft")


def _rfft(a: Any, n: int | None, axis: int, norm: str | None, name: str, inverse: bool = False) -> Any:
    """The half spectrum of real ``a``; ``inverse``: of the inverse transform (``ihfft``)."""
    x = as_real(a, name)
    ax = axis1(x, axis)
    n = check_length(n, x.shape[ax], name)
    if ax == x.ndim - 1 and x.size:  # rows: the kernel reads the reals (cut or padded to n as it loads them)
        return c2c(x, inverse=inverse, keep=n // 2 + 1, scale=scale(norm, n, inverse=inverse), n=n)
    full = c2c_axis(as_complex(x), n, ax, norm, inverse, name)
    return _take(full, n // 2 + 1, ax)


@replayable
def irfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None) -> Any:
    """The inverse of :func:`rfft`: a real signal of length ``n`` (default ``2 * (m - 1)``), as
    ``np.fft.irfft``.

    >>> import kdsl as kd
    >>> (kd.fft.irfft(kd.asarray([4.0, 0.0, 0.0])).numpy().round(6) + 0).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    return deliver(_numpy_half(_irfft(a, n, axis, norm, "irfft"), a), out, "irfft")


def _irfft(a: Any, n: int | None, axis: int, norm: str | None, name: str, conj: bool = False) -> Any:
    """The real signal of length ``n`` whose half spectrum is ``a`` along ``axis`` (``conj``: ``conj(a)``'s)."""
    x = as_complex(a)
    ax = axis1(x, axis)
    n = check_length(n, 2 * (x.shape[ax] - 1), name)
    factor = scale(norm, n, inverse=True)
    if ax == x.ndim - 1:  # rows: one launch reads the half spectra and stores the real rows
        done = c2r(x, [ax], [n], [factor], conj)
        if done is not None:
            return done
    if conj:
        x = kd.conj(x)
    if ax == x.ndim - 1 and n % 2 == 0 and n >= 4 and x.size:
        return _half_length(x, n, factor)
    half = resize(x, n // 2 + 1, ax)
    mirror = kd.conj(kd.flip(_take(half, n - n // 2, ax, start=1), axis=ax))
    full = kd.concatenate([half, mirror], axis=ax)
    return kd.real(c2c_axis(full, n, ax, norm, True, name))


def _half_length(x: Any, n: int, factor: float) -> Any:
    """The real rows of an even ``n`` whose half spectra are ``x``'s rows, where :func:`c2r` takes none (a
    half length past one launch, or with a prime factor past 7): the spectrum ``Z`` of ``x[2j] + i x[2j + 1]``
    in one elementwise pass (:meth:`kdsl.fft.stage.Stage._load_half`'s ``E + i O``, as ``X[k] P + conj(X[m -
    k]) Q``: each operand read once, so the pass fuses), then its inverse transform of length ``m = n / 2`` (half
    the work of the full spectrum's) storing into the real rows as pairs."""
    m = n // 2
    half = resize(x, m + 1, -1)
    double = x.dtype == kd.complex128
    p, q = plan.half_factors(m, double)
    # Z[0] from the real parts of X[0] and X[m] only: NumPy ignores their imaginary parts
    first = kd.real(half[..., :1]) * (0.5 + 0.5j) + kd.real(half[..., m:]) * (0.5 - 0.5j)
    z = kd.where(kd.arange(m) == 0, first, half[..., :m] * p + kd.conj(kd.flip(half[..., 1:], axis=-1)) * q)
    program = c2c_program(z, inverse=True, keep=m, scale=2.0 * factor)
    if program is None:  # (a half past three launches: step by step, then the pairs)
        rows = c2c(z, inverse=True, scale=2.0 * factor)
        return kd.stack([rows.real, rows.imag], axis=-1).reshape(*rows.shape[:-1], n)
    out = kd.Array._uninitialized((*x.shape[:-1], n), kd.float64 if double else kd.float32, x.device)
    program.run(z, out)
    return out


def _numpy_half(out: Any, a: Any) -> Any:
    """``out`` of an ``irfft``/``hfft`` of ``a`` in NumPy's dtype: float16 for float16 reals (NumPy's output
    dtype is ``result_type(a.real.dtype, 1.0)``; computed in float32 and rounded, as kdsl does)."""
    dtype = getattr(a, "dtype", None)
    half = dtype is not None and np.dtype(getattr(dtype, "np", dtype)) == np.float16
    return out.astype(kd.float16) if half else out


@replayable
def hfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None) -> Any:
    """The transform of a Hermitian-symmetric signal given by its first half: a real spectrum of length ``n``
    (default ``2 * (m - 1)``), as ``np.fft.hfft``."""
    spectrum = _irfft(a, n, axis, _SWAP[check_norm(norm)], "hfft", conj=True)
    return deliver(_numpy_half(spectrum, a), out, "hfft")


@replayable
def ihfft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None) -> Any:
    """The inverse of :func:`hfft`, as ``np.fft.ihfft``: NumPy's ``conj(rfft(a))`` under the swapped norm is
    the inverse transform's half spectrum, one program (so a warm call replays it)."""
    return deliver(_rfft(a, n, axis, norm, "ihfft", inverse=True), out, "ihfft")


@replayable
def rfftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str | None = None,
          out: Any = None) -> Any:
    """:func:`rfft` over the last of ``axes``, then the complex transform over the others, as
    ``np.fft.rfftn``."""
    return deliver(_rfftn(a, s, axes, norm), out, "rfftn")


def _rfftn(a: Any, s: Sequence[int] | None, axes: Sequence[int] | None, norm: str | None) -> Any:
    x = as_real(a, "rfftn")
    axes, lengths = normalize_axes(x.shape, s, axes, "rfftn")
    if axes[-1] == x.ndim - 1 and program_axes(x, axes, lengths):  # one program, one submission
        done = nd(x, axes, False, [scale(norm, n, inverse=False) for n in lengths], keep=lengths[-1] // 2 + 1,
                  lengths=lengths)
        if done is not None:
            return done
    y = _rfft(x, lengths[-1], axes[-1], norm, "rfftn")
    for axis, n in reversed(list(zip(axes[:-1], lengths[:-1], strict=True))):
        y = c2c_axis(y, n, axis, norm, False, "rfftn")
    return y


@replayable
def irfftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str | None = None,
           out: Any = None) -> Any:
    """The inverse of :func:`rfftn` (the last axis's length defaults to ``2 * (m - 1)``), as
    ``np.fft.irfftn``."""
    return deliver(_irfftn(a, s, axes, norm), out, "irfftn")


def _irfftn(a: Any, s: Sequence[int] | None, axes: Sequence[int] | None, norm: str | None) -> Any:
    x = as_complex(a)
    axes, lengths = normalize_axes(x.shape, s, axes, "irfftn")
    if s is None:
        lengths[-1] = 2 * (x.shape[axes[-1]] - 1)
    if program_axes(x, axes, lengths):
        done = c2r(x, axes, lengths, [scale(norm, n, inverse=True) for n in lengths])  # one program
        if done is not None:
            return done
    for axis, n in zip(axes[:-1], lengths[:-1], strict=True):
        x = c2c_axis(x, n, axis, norm, True, "irfftn")
    out = _irfft(x, lengths[-1], axes[-1], norm, "irfftn")
    return _numpy_half(out, a) if len(axes) == 1 else out  # (one axis: NumPy's irfft of a itself)


@replayable
def rfft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None,
          out: Any = None) -> Any:
    """:func:`rfftn` over the last two axes, as ``np.fft.rfft2``."""
    return deliver(_rfftn(a, s, axes, norm), out, "rfft2")


@replayable
def irfft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None,
           out: Any = None) -> Any:
    """:func:`irfftn` over the last two axes, as ``np.fft.irfft2``."""
    return deliver(_irfftn(a, s, axes, norm), out, "irfft2")


def _take(x: Any, stop: int, axis: int, start: int = 0) -> Any:
    """``x[start:stop]`` along ``axis``."""
    index = [slice(None)] * x.ndim
    index[axis] = slice(start, stop)
    return x[tuple(index)]
