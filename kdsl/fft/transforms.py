"""The complex transforms: ``fft ifft fft2 ifft2 fftn ifftn`` (NumPy's signatures; array API keywords).

Example (rounded: a GPU's twiddles are not exact, and its zeros may be -0.0):
    >>> import kdsl as kd
    >>> (kd.fft.ifft(kd.fft.fft(kd.asarray([1.0, 0.0, -1.0]))).real.numpy().round(6) + 0).tolist()
    [1.0, 0.0, -1.0]
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.fft.axes import as_input, c2c_axis, check_norm, normalize_axes, program_axes, scale
from kdsl.fft.errors import ZeroDimensionalError
from kdsl.fft.out import deliver
from kdsl.fft.replay import replayable
from kdsl.fft.transform import nd


@replayable
def fft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None) -> Any:
    """The discrete Fourier transform along ``axis`` (length ``n``: cut or zero-padded), as ``np.fft.fft``.

    >>> import kdsl as kd
    >>> (kd.fft.fft(kd.asarray([0.0, 1.0]), n=4).numpy().round(6) + 0).tolist()
    [(1+0j), -1j, (-1+0j), 1j]
    """
    x = as_input(a)
    return deliver(c2c_axis(x, n, axis1(x, axis), norm, False, "fft"), out, "fft")


@replayable
def ifft(a: Any, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None) -> Any:
    """The inverse transform along ``axis`` (``1/n`` by default), as ``np.fft.ifft``.

    >>> import kdsl as kd
    >>> (kd.fft.ifft(kd.asarray([4.0, 0.0, 0.0, 0.0])).real.numpy().round(6) + 0).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    x = as_input(a)
    return deliver(c2c_axis(x, n, axis1(x, axis), norm, True, "ifft"), out, "ifft")


@replayable
def fftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str | None = None,
         out: Any = None) -> Any:
    """The n-dimensional transform over ``axes`` (all by default), as ``np.fft.fftn``.

    >>> import kdsl as kd
    >>> (kd.fft.fftn(kd.ones((2, 2))).numpy().round(6) + 0).tolist()
    [[(4+0j), 0j], [0j, 0j]]
    """
    return _nd(a, s, axes, norm, out, inverse=False, name="fftn")


@replayable
def ifftn(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str | None = None,
          out: Any = None) -> Any:
    """The inverse n-dimensional transform, as ``np.fft.ifftn``."""
    return _nd(a, s, axes, norm, out, inverse=True, name="ifftn")


@replayable
def fft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None,
         out: Any = None) -> Any:
    """The 2-dimensional transform over the last two axes, as ``np.fft.fft2``."""
    return _nd(a, s, axes, norm, out, inverse=False, name="fft2")


@replayable
def ifft2(a: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None,
          out: Any = None) -> Any:
    """The inverse 2-dimensional transform, as ``np.fft.ifft2``."""
    return _nd(a, s, axes, norm, out, inverse=True, name="ifft2")


def _nd(a: Any, s: Any, axes: Any, norm: str | None, out: Any, inverse: bool, name: str) -> Any:
    return deliver(_transform_nd(a, s, axes, norm, inverse, name), out, name)


def _transform_nd(a: Any, s: Any, axes: Any, norm: str | None, inverse: bool, name: str) -> Any:
    check_norm(norm)
    x = as_input(a)
    axes, lengths = normalize_axes(x.shape, s, axes, name)
    if not axes:  # no axis to transform: NumPy hands the input back as it is (its dtype too)
        return kd.asarray(a)
    if program_axes(x, axes, lengths):  # one program, one submission for every axis
        done = nd(x, axes, inverse, [scale(norm, n, inverse) for n in lengths], lengths=lengths)
        if done is not None:
            return done
    for axis, n in reversed(list(zip(axes, lengths, strict=True))):
        x = c2c_axis(x, n, axis, norm, inverse, name)
    return x


def axis1(x: Any, axis: int) -> int:
    if x.ndim == 0:  # NumPy's IndexError (no axis to index the shape with); kdsl's ValueError too
        raise ZeroDimensionalError("kd.fft needs an array of at least one dimension, got a 0-d array")
    axis = operator.index(axis)  # (NumPy's TypeError for axis=1.0, where kdsl said "out of bounds")
    if not -x.ndim <= axis < x.ndim:
        raise np.exceptions.AxisError(axis, x.ndim)  # a ValueError and an IndexError (NumPy's fft raises the latter)
    return axis % x.ndim
