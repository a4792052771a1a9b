"""What every transform shares: input conversion, the axis and length arguments, padding, normalisation.

Example:
    >>> scale("ortho", 16, inverse=False)
    0.25
    >>> normalize_axes((4, 5, 6), s=None, axes=(0, -1))
    ([0, 2], [4, 6])
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.fft.transform import c2c, c2c_inner

_NORMS = ("backward", "ortho", "forward")


def as_complex(x: Any) -> Any:
    """A kdsl complex array: complex input as it is, float64 as complex128, everything else complex64."""
    x = x if isinstance(x, kd.Array) else kd.asarray(x)
    if x.dtype in (kd.complex64, kd.complex128):
        return x
    return x.astype(kd.complex128 if x.dtype == kd.float64 else kd.complex64)


def as_real(x: Any, name: str) -> Any:
    """A kdsl float array (float32 or float64) for the real transforms; complex input is refused."""
    x = x if isinstance(x, kd.Array) else kd.asarray(x)
    if x.dtype in (kd.complex64, kd.complex128):
        raise TypeError(f"kd.fft.{name} takes real input, got {x.dtype.name}; use kd.fft.fft for complex input")
    return x if x.dtype in (kd.float32, kd.float64) else x.astype(kd.float32)


def check_norm(norm: str | None) -> str:
    norm = "backward" if norm is None else norm
    if norm not in _NORMS:
        raise ValueError(f"norm must be one of {_NORMS} or None, got {norm!r}")
    return norm


def scale(norm: str | None, n: int, inverse: bool) -> float:
    """The factor a transform of length ``n`` is multiplied by under ``norm``."""
    norm = check_norm(norm)
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    return 1.0 / n if (norm == "backward") == inverse else 1.0


def check_out(out: Any) -> None:
    if out is not None:
        raise TypeError("kd.fft functions do not take out=: kdsl arrays are values; assign the result "
                        "(y[...] = kd.fft.fft(x)) instead")


def check_length(n: int | None, default: int, name: str) -> int:
    n = default if n is None else n
    if not isinstance(n, (bool, np.bool_)) and hasattr(n, "__index__"):  # np.int64, a 0-d integer array
        try:
            n = operator.index(n)
        except TypeError:
            pass
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"kd.fft.{name}: invalid number of data points ({n}); n must be a positive int")
    return n


def resize(x: Any, n: int, axis: int) -> Any:
    """``x`` cut or zero-padded to ``n`` along ``axis`` (as NumPy's ``n=`` argument)."""
    have = x.shape[axis]
    if have == n:
        return x
    if have > n:
        index = [slice(None)] * x.ndim
        index[axis] = slice(0, n)
        return x[tuple(index)]
    shape = list(x.shape)
    shape[axis] = n - have
    return kd.concatenate([x, kd.zeros(tuple(shape), dtype=x.dtype)], axis=axis)


def c2c_axis(x: Any, n: int | None, axis: int, norm: str | None, inverse: bool, name: str) -> Any:
    """The complex transform of length ``n`` along ``axis`` (cut or padded first), normalised."""
    n = check_length(n, x.shape[axis], name)
    x = resize(x, n, axis)
    if x.size == 0:
        return x
    return _along(x, n, axis, inverse, scale(norm, n, inverse))


def _along(x: Any, n: int, axis: int, inverse: bool, factor: float) -> Any:
    """The transform along ``axis`` times ``factor``: in place of the axis when one launch can read it
    strided, else on a copy with the axis moved last."""
    inner = math.prod(x.shape[axis + 1:])
    if inner > 1:
        out = c2c_inner(x.reshape(math.prod(x.shape[:axis]), n, inner), inverse, factor)
        if out is not None:
            return out.reshape(x.shape)
    if axis == x.ndim - 1:  # rows already (c2c reads any leading shape: no reshape views to build)
        return c2c(x, inverse, scale=factor)
    return kd.moveaxis(c2c(kd.moveaxis(x, axis, -1), inverse, scale=factor), -1, axis)


def whole_axes(x: Any, axes: list[int], lengths: list[int]) -> bool:
    """Whether an n-d transform is one program's work (:func:`kdsl.fft.transform.nd`): several distinct axes,
    each transformed at its full length (no cut, no padding) of at least 2, and data to transform."""
    return len(axes) > 1 and len(set(axes)) == len(axes) and x.size > 0 and \
        all(x.shape[a] == n > 1 for a, n in zip(axes, lengths, strict=True))


def normalize_axes(shape: Sequence[int], s: Sequence[int] | None, axes: Sequence[int] | None
                   ) -> tuple[list[int], list[int]]:
    """NumPy's rules for ``s``/``axes`` of the n-d transforms: axes default to all (or the last ``len(s)``),
    lengths to the axes' sizes."""
    ndim = len(shape)
    if axes is None:
        axes = list(range(ndim)) if s is None else list(range(ndim - len(s), ndim))
    axes = [_axis(a, ndim) for a in axes]
    if s is None:
        s = [shape[a] for a in axes]
    if len(s) != len(axes):
        raise ValueError(f"s and axes must have the same length, got {len(s)} and {len(axes)}")
    return axes, list(s)


def _axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)  # a ValueError and an IndexError (NumPy's fft raises the latter)
    return axis % ndim
