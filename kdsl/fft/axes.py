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
import os
import sys
import warnings
from collections.abc import Sequence
from types import FrameType
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.fft import replay
from kdsl.fft.errors import LengthTypeError
from kdsl.fft.transform import c2c, c2c_inner, resize

_NORMS = ("backward", "ortho", "forward")
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # kdsl/


def as_complex(x: Any) -> Any:
    """A kdsl complex array: complex input as it is, float64 as complex128, everything else complex64."""
    x = x if isinstance(x, kd.Array) else kd.asarray(x)
    if x.dtype in (kd.complex64, kd.complex128):
        return x
    return x.astype(kd.complex128 if x.dtype == kd.float64 else kd.complex64)


def as_input(x: Any) -> Any:
    """``x`` as the complex transforms read it: a float32, float64 or complex kdsl array as it is (the kernels
    read reals as complex numbers with zero imaginary parts: no conversion pass), anything else as
    :func:`as_complex` makes it."""
    x = x if isinstance(x, kd.Array) else kd.asarray(x)
    return x if x.dtype in (kd.float32, kd.float64, kd.complex64, kd.complex128) else as_complex(x)


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


def check_length(n: Any, default: int, name: str) -> int:
    """``n`` (``default`` for None) as a positive Python int: an ``np.int64`` or a 0-d integer array is one;
    anything else that is not an integer raises NumPy's TypeError (also a ValueError, kdsl's former type)."""
    n = default if n is None else n
    try:
        if isinstance(n, (bool, np.bool_)):
            raise TypeError(f"{type(n).__name__!r} object is not a length")
        n = operator.index(n)
    except TypeError as err:
        raise LengthTypeError(f"kd.fft.{name}: n must be a positive int, got {n!r} ({err})") from None
    if n < 1:
        raise ValueError(f"kd.fft.{name}: Invalid number of FFT data points ({n}) specified.")
    return n


def c2c_axis(x: Any, n: int | None, axis: int, norm: str | None, inverse: bool, name: str) -> Any:
    """The complex transform of length ``n`` along ``axis`` (cut or padded first), normalised."""
    check_norm(norm)  # (an empty input returns before any scale is computed: NumPy checks it all the same)
    n = check_length(n, x.shape[axis], name)
    if x.size and n != x.shape[axis]:  # the kernel cuts or pads the rows or columns as it loads them
        if axis == x.ndim - 1:
            return c2c(x, inverse, scale=scale(norm, n, inverse), n=n)
        if math.prod(x.shape[axis + 1:]) > 1:
            out = c2c_inner(x, axis, inverse, scale(norm, n, inverse), n)
            if out is not None:
                return out
    x = resize(x, n, axis)
    if x.size == 0:
        return as_complex(x)
    return _along(x, n, axis, inverse, scale(norm, n, inverse))


def _along(x: Any, n: int, axis: int, inverse: bool, factor: float) -> Any:
    """The transform along ``axis`` times ``factor``: in place of the axis when one launch can read it
    strided, else on a copy with the axis moved last."""
    if math.prod(x.shape[axis + 1:]) > 1:
        out = c2c_inner(x, axis, inverse, factor)
        if out is not None:
            return out
    if axis == x.ndim - 1:  # rows already (c2c reads any leading shape: no reshape views to build)
        return c2c(x, inverse, scale=factor)
    return kd.moveaxis(c2c(kd.moveaxis(x, axis, -1), inverse, scale=factor), -1, axis)


def program_axes(x: Any, axes: list[int], lengths: list[Any]) -> bool:
    """Whether an n-d transform is one program's work (:func:`kdsl.fft.transform.nd`): several distinct axes,
    each transformed at a length of at least 2 (its own, or cut or padded as it is read), and data to
    transform."""
    return len(axes) > 1 and len(set(axes)) == len(axes) and x.size > 0 and \
        all(type(n) is int and n > 1 for n in lengths)


_AXES_NONE = ("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0): `s[i]` will correspond "
              "to the size along the transformed axis `axes[i]`; pass axes=[0, ..., k-1] to keep the current "
              "behaviour")
_S_NONE = ("Passing an array containing `None` values to `s` is deprecated in NumPy 2.0: pass the default of "
           "the corresponding 1-D transform's `n`, or omit `s` for every axis's default")


def _caller_stacklevel() -> int:
    """The ``stacklevel`` of a warning raised here that points at the first caller outside kdsl (however many
    kdsl frames lie between: a transform called directly, or through its derivative wrapper)."""
    level = 2  # normalize_axes's caller
    frame: FrameType | None = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        level, frame = level + 1, frame.f_back
    return level


def normalize_axes(shape: Sequence[int], s: Sequence[Any] | None, axes: Sequence[int] | None,
                   name: str = "fftn") -> tuple[list[int], list[Any]]:
    """NumPy's rules for ``s``/``axes`` of the n-d transforms: axes default to all (or the last ``len(s)``),
    lengths to the axes' sizes; an ``s[i]`` of -1 is the whole axis, None the 1-d transform's default length
    (left None here). ``s`` without ``axes`` and None in ``s`` warn as NumPy 2 deprecates them."""
    ndim = len(shape)
    if axes is None:
        if s is not None:
            replay.side_effect()
            warnings.warn(_AXES_NONE, DeprecationWarning, stacklevel=_caller_stacklevel())
        # (the last len(s) axes, counted from the end as NumPy does: an s longer than the shape names an axis
        # that is not there, where range(ndim - len(s), ndim) wrapped around and transformed axis 0 twice)
        axes = list(range(ndim)) if s is None else list(range(-len(s), 0))
    axes = [_axis(operator.index(a), ndim) for a in axes]
    if s is None:
        s = [shape[a] for a in axes]
    s = list(s)
    if len(s) != len(axes):
        raise ValueError(f"Shape and axes have different lengths: s has {len(s)}, axes {len(axes)}")
    if any(n is None for n in s):
        replay.side_effect()
        warnings.warn(_S_NONE, DeprecationWarning, stacklevel=_caller_stacklevel())
    whole = [shape[a] if _is_minus_one(n) else n for n, a in zip(s, axes, strict=True)]
    return axes, [None if n is None else check_length(n, 0, name) for n in whole]


def _is_minus_one(n: Any) -> bool:
    """Whether ``n`` is the integer -1 (a float -1.0 stays, for the length check's TypeError)."""
    try:
        return n is not None and not isinstance(n, (bool, np.bool_)) and operator.index(n) == -1
    except TypeError:
        return False


def _axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)  # a ValueError and an IndexError (NumPy's fft raises the latter)
    return axis % ndim
