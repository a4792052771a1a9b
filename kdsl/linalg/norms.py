"""Norms: the array API's ``vector_norm`` and ``matrix_norm`` and NumPy's ``norm``. Reductions of kdsl's
elementwise kernels, except the spectral and nuclear norms, which take the singular values
(:func:`kdsl.linalg.svd.svdvals`).

Example:
    >>> import kdsl as kd
    >>> float(vector_norm(kd.asarray([3.0, 4.0])))
    5.0
    >>> float(matrix_norm(kd.asarray([[1.0, -2.0], [3.0, 4.0]]), ord=1))
    6.0
"""

from __future__ import annotations

import math
import operator

import numpy as np

import kdsl as kd
from kdsl.linalg.common import as_array, check_matrices
from kdsl.linalg.derivatives import svdvals  # (differentiable: the 2-norms and nuclear norm get gradients)


def _floating(a: kd.Array) -> kd.Array:
    if a.dtype.name in ("float16", "float32", "float64", "complex64", "complex128"):
        return a
    return a.astype(kd.float64 if kd.device().supports(kd.float64) else kd.float32)


def vector_norm(x, /, *, axis=None, keepdims: bool = False, ord=2) -> kd.Array:  # noqa: A002 - the standard's name
    """The ``ord`` norm of the vectors along ``axis`` (an int, a tuple, or None for all elements):
    ``inf``/``-inf`` largest/smallest magnitude, 0 the count of non-zeros, else ``sum(|x|**ord)**(1/ord)``."""
    a = _floating(as_array(x))
    if axis is None:
        axes = tuple(range(a.ndim))
    elif isinstance(axis, int):
        axes = (axis,)
    else:
        axes = tuple(axis)
    mag = kd.abs(a)
    if ord == math.inf:
        out = kd.max(mag, axis=axes, keepdims=keepdims, initial=0)  # NumPy: 0 for no elements
    elif ord == -math.inf:
        out = kd.min(mag, axis=axes, keepdims=keepdims)
    elif ord == 0:
        out = kd.sum((a != 0).astype(mag.dtype), axis=axes, keepdims=keepdims)
    elif ord == 1:
        out = kd.sum(mag, axis=axes, keepdims=keepdims)
    elif ord == 2:
        out = kd.sqrt(kd.sum(mag * mag, axis=axes, keepdims=keepdims))
    else:
        try:
            p = float(ord)
        except (TypeError, ValueError):  # 'fro', 'nuc' or any other name: NumPy's ValueError and words
            raise ValueError(f"Invalid norm order {ord!r} for vectors") from None
        out = kd.sum(mag ** p, axis=axes, keepdims=keepdims) ** (1.0 / p)
    return out


def matrix_norm(x, /, *, keepdims: bool = False, ord="fro") -> kd.Array:  # noqa: A002 - the standard's name
    """The ``ord`` norm of each matrix of the stack ``x``: ``'fro'``, ``'nuc'``, ``1``/``-1`` (largest/smallest
    column sum of magnitudes), ``inf``/``-inf`` (row sums), ``2``/``-2`` (largest/smallest singular value)."""
    a = _floating(as_array(x))
    if a.ndim < 2:  # NumPy reduces axes (-2, -1): its AxisError names the missing one
        raise np.exceptions.AxisError(-2, a.ndim)
    check_matrices(a, "matrix_norm", square=False)
    if ord == "fro":
        mag = kd.abs(a) if a.dtype.kind == "c" else a
        out = kd.sqrt(kd.sum(mag * mag, axis=(-2, -1)))
    elif ord == "nuc":
        out = kd.sum(svdvals(a), axis=-1)
    elif ord in (2, -2):
        s = svdvals(a)
        out = kd.max(s, axis=-1, initial=0) if ord == 2 else kd.min(s, axis=-1)
    elif ord in (1, -1):
        sums = kd.sum(kd.abs(a), axis=-2)
        out = kd.max(sums, axis=-1, initial=0) if ord == 1 else kd.min(sums, axis=-1)
    elif ord in (math.inf, -math.inf):
        sums = kd.sum(kd.abs(a), axis=-1)
        out = kd.max(sums, axis=-1, initial=0) if ord == math.inf else kd.min(sums, axis=-1)
    else:
        raise ValueError(f"matrix_norm: invalid norm order {ord!r}; use 'fro', 'nuc', 1, -1, 2, -2, inf or -inf")
    return out[..., None, None] if keepdims else out


def norm(x, ord=None, axis=None, keepdims: bool = False) -> kd.Array:  # noqa: A002 - NumPy's name
    """NumPy's ``norm``: a vector norm over one axis (or a 1-d array), a matrix norm over two (or a 2-d
    array), the 2-norm of all elements when neither ``ord`` nor ``axis`` is given."""
    a = _floating(as_array(x))
    if axis is None:
        if ord is None:
            out = vector_norm(a, axis=None, keepdims=keepdims)
            return out
        if a.ndim == 1:
            return vector_norm(a, ord=ord, keepdims=keepdims)
        if a.ndim == 2:
            return norm(a, ord, (0, 1), keepdims)
        raise ValueError(f"norm: improper number of dimensions to norm ({a.ndim}-d with ord={ord!r}); give axis")
    if not isinstance(axis, (tuple, list)):  # np.int64 or a 0-d integer array: one axis, as NumPy's
        axis = operator.index(axis)
    if isinstance(axis, int) or len(axis) == 1:
        ax = axis if isinstance(axis, int) else axis[0]
        if isinstance(ord, str):
            raise ValueError(f"norm: invalid norm order {ord!r} for vectors")
        return vector_norm(a, axis=ax, keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axis) != 2:
        raise ValueError(f"norm: improper number of dimensions to norm: axis={axis!r}")
    r, c = (kd.lib.array_utils.normalize_axis_index(operator.index(ax), a.ndim) for ax in axis)  # AxisError as NumPy
    if r == c:
        raise ValueError("norm: duplicate axes given")
    moved = kd.moveaxis(a, (r, c), (-2, -1))
    out = matrix_norm(moved, ord="fro" if ord is None else ord)
    if keepdims:
        for ax in sorted((r, c)):
            out = kd.expand_dims(out, ax)
    return out


__all__ = ["matrix_norm", "norm", "vector_norm"]
