"""Products and statistics built on matmul and reductions: ``matrix_transpose tensordot vecdot inner kron cov
corrcoef``.

``tensordot``/``inner`` permute and reshape their operands (views) into one :func:`kdsl.matmul`; ``vecdot`` is
a fused product-and-sum; ``kron`` a broadcast product.

Example:
    >>> import kdsl as kd
    >>> a = kd.arange(6).reshape(2, 3)
    >>> kd.tensordot(a, a, axes=([1], [1])).tolist(), kd.vecdot(a, a).tolist()
    ([[5, 14], [14, 50]], [5, 50])
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import promotion
from kdsl.errors import shape_text
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops, scalar_like
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.complex_math import complex_from_parts, conj, imag, real
from kdsl.frontend.array.cov_weights import weighted_centred
from kdsl.frontend.array.creation import as_array, as_array_beside, as_arrays, zeros
from kdsl.frontend.array.gufunc_axes import vecdot_axes
from kdsl.frontend.array.joining import atleast_2d
from kdsl.frontend.array.linalg import matmul
from kdsl.frontend.array.reductions import mean
from kdsl.frontend.array.reductions import sum as ksum
from kdsl.frontend.array.shape_ops import concatenate, expand_dims, moveaxis
from kdsl.frontend.array.ufunc_errors import output_casting_error


def _pair(x1: Any, x2: Any) -> tuple[Array, Array]:
    dev = ops.device_of((x1, x2))
    a, b = as_arrays(x1, x2, device=dev)
    return a, b


def matrix_transpose(x: Any, /) -> Array:
    """The last two axes swapped (a view; the array API standard's ``matrix_transpose``, same as ``x.mT``)."""
    a = as_array(x)
    if a.ndim < 2:  # NumPy's message (x.mT words it differently, as NumPy's does)
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {a.ndim}")
    return a.mT


def _axes_count(axes: Any) -> Any:
    """``tensordot``'s ``axes`` as a Python int where it is one integer (``np.int64(1)``, a 0-d array such as
    ``a.ndim - k`` or ``mask.sum()``, as NumPy takes them); pairs of axis sequences as given.

    >>> import numpy as np, kdsl as kd
    >>> _axes_count(np.int64(1)), _axes_count(kd.asarray(2)), _axes_count(([0], [1]))
    (1, 2, ([0], [1]))
    """
    if isinstance(axes, (bool, np.bool_)) or getattr(axes, "ndim", 0) != 0 or isinstance(axes, (tuple, list)):
        return axes
    try:
        return operator.index(axes)
    except TypeError:
        return axes


def _axis_lists(axes: Any) -> tuple[list[Any], list[Any]]:
    """``tensordot``'s ``axes`` as the two lists of axes to sum over, read as NumPy reads them: an int ``n`` is
    the last ``n`` axes of ``a`` (``-n ... -1``) and the first ``n`` of ``b``, so a negative ``n`` (as 0) sums
    over none: an outer product; a pair holds two axis sequences or two single axes (``(1, 0)``,
    ``np.int64``s); a repeated axis in either list is NumPy's ValueError.

    >>> import numpy as np
    >>> _axis_lists(2), _axis_lists(-1), _axis_lists((np.int64(1), [0]))
    (([-2, -1], [0, 1]), ([], []), ([np.int64(1)], [0]))
    """
    axes = _axes_count(axes)
    if isinstance(axes, int):
        ax_a, ax_b = list(range(-axes, 0)), list(range(axes))
    else:
        try:
            ax_a_raw, ax_b_raw = axes
        except TypeError:  # NumPy's range(axes) of a float or None
            raise TypeError(f"tensordot: axes must be an int or a pair of axis sequences, got "
                            f"{type(axes).__name__}") from None
        ax_a, ax_b = _axis_list(ax_a_raw), _axis_list(ax_b_raw)
    for listed in (ax_a, ax_b):
        if len(set(listed)) != len(listed):
            raise ValueError("duplicate axes are not allowed in tensordot")
    return ax_a, ax_b


def _axis_list(axes: Any) -> list[Any]:
    """One side of a ``tensordot`` axes pair as a list: a sequence as it is, a single axis (anything without a
    length: an int, ``np.int64``, a 0-d array) as a list of one, as NumPy's ``len()`` test."""
    try:
        len(axes)
    except TypeError:
        return [axes]
    return list(axes)


def tensordot(a: Any, b: Any, axes: Any = 2) -> Array:
    """Sum of products over the last ``axes`` axes of ``a`` and the first of ``b`` (an int; 0 or negative: an
    outer product, as NumPy's), or over the given axis pairs (two sequences). One matmul of permuted views.

    >>> import kdsl as kd
    >>> kd.tensordot(kd.ones((2, 3, 4)), kd.ones((3, 4, 5))).shape
    (2, 5)
    """
    a, b = _pair(a, b)
    ax_a, ax_b = _axis_lists(axes)
    if len(ax_a) != len(ax_b):
        raise ValueError(f"tensordot: {len(ax_a)} axes of x1 against {len(ax_b)} of x2")
    ax_a = [mv.normalize_axis(k, a.ndim) for k in ax_a]
    ax_b = [mv.normalize_axis(k, b.ndim) for k in ax_b]
    for i, j in zip(ax_a, ax_b, strict=True):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"tensordot: shape mismatch for sum: axis {i} of x1 has {a.shape[i]}, "
                             f"axis {j} of x2 has {b.shape[j]}")
    free_a = [k for k in range(a.ndim) if k not in ax_a]
    free_b = [k for k in range(b.ndim) if k not in ax_b]
    k = math.prod(a.shape[i] for i in ax_a)
    out_shape = tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b)
    am = a.transpose(tuple(free_a + ax_a)).reshape(math.prod(a.shape[i] for i in free_a), k)
    bm = b.transpose(tuple(ax_b + free_b)).reshape(k, math.prod(b.shape[j] for j in free_b))
    # a fresh result, no view links; a 0-d one is NumPy's 0-d array (its reshape of dot), so += updates it
    return scalar_like.made_as_array(Array(mv.reshape_node(matmul(am, bm)._n, out_shape)))


def vecdot(x1: Any, x2: Any, /, *, axis: Any = None, axes: Any = None, keepdims: bool = False) -> Array:
    """Dot products of vectors along ``axis`` (default the last; broadcasting the other axes). NumPy's gufunc
    keywords: ``axes=[axis of x1, axis of x2(, output axis)]`` picks each input's axis, ``keepdims=True`` keeps
    a size-1 axis there (at ``axis``, or at the output entry of ``axes``; last by default).

    >>> import kdsl as kd
    >>> kd.vecdot(kd.asarray([[1, 2], [3, 4]]), kd.asarray([1, 1])).tolist()
    [3, 7]
    >>> kd.vecdot(kd.asarray([[1, 2], [3, 4]]), kd.asarray([[1], [1]]), axes=[0, 0], keepdims=True).tolist()
    [[4], [6]]
    """
    a, b = _pair(x1, x2)
    ax1, ax2, out_axis = vecdot_axes(axis, axes, keepdims)
    for i, x in enumerate((a, b)):
        if x.ndim == 0:
            raise ValueError(f"vecdot: Input operand {i} does not have enough dimensions (has 0, gufunc core with "
                             "signature (n),(n)->() requires 1)")
    ax_a, ax_b = mv.normalize_axis(ax1, a.ndim), mv.normalize_axis(ax2, b.ndim)
    if keepdims:  # checked before the sizes, as NumPy: the result keeps max(ndim) dimensions
        out_axis = mv.normalize_axis(out_axis, max(a.ndim, b.ndim))
    if a.shape[ax_a] != b.shape[ax_b]:
        raise ValueError(f"vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"(n),(n)->() (size {b.shape[ax_b]} is different from {a.shape[ax_a]})")
    # The axis of each operand (NumPy's gufunc rule; the same as the broadcast axis for negative ``axis``,
    # the standard's case) moves last, the rest broadcasts.
    if a.dtype.kind == "c":  # the standard's (and NumPy's) vecdot conjugates x1
        a = conj(a)
    prod = moveaxis(a, ax_a, -1) * moveaxis(b, ax_b, -1)
    if prod.dtype is dt.bool_:  # NumPy's vecdot of bools is a logical or of ands
        result = prod.any(axis=-1)
    else:
        result = ksum(prod, axis=-1, dtype=prod.dtype)
    if keepdims:  # the reduced axis comes back, size 1, where the output's core axis is
        result = expand_dims(result, out_axis)
    return result


def inner(a: Any, b: Any) -> Array:
    """Sum of products over the last axes of ``a`` and ``b`` (products for 0-d operands).

    >>> import kdsl as kd
    >>> int(kd.inner(kd.asarray([1, 2, 3]), kd.asarray([0, 1, 0])))
    2
    """
    x, y = _pair(a, b)
    if x.ndim == 0 or y.ndim == 0:
        return x * y
    if x.shape[-1] != y.shape[-1]:  # NumPy's words: its dot of x with y's last axis moved to y's second-to-last
        k = max(y.ndim - 2, 0)
        moved = y.shape[:k] + y.shape[-1:] + y.shape[k:-1]
        raise ValueError(f"shapes {shape_text(x.shape)} and {shape_text(moved)} not aligned: {x.shape[-1]} "
                         f"(dim {x.ndim - 1}) != {y.shape[-1]} (dim {k})")
    return scalar_like.as_result(tensordot(x, y, axes=([-1], [-1])))  # NumPy's inner of 1-d arrays: a scalar


def kron(a: Any, b: Any) -> Array:
    """The Kronecker product: blocks ``a[i] * b`` (a broadcast product, reshaped).

    >>> import kdsl as kd
    >>> kd.kron(kd.asarray([1, 10]), kd.asarray([1, 2])).tolist()
    [1, 2, 10, 20]
    """
    x, y = _pair(a, b)
    nd = max(x.ndim, y.ndim)
    xs, ys = (1,) * (nd - x.ndim) + x.shape, (1,) * (nd - y.ndim) + y.shape
    xw = x.reshape(tuple(v for n in xs for v in (n, 1)))
    yw = y.reshape(tuple(v for n in ys for v in (1, n)))
    return (xw * yw).reshape(tuple(p * q for p, q in zip(xs, ys, strict=True)))


def _observations(m: Any, y: Any, rowvar: bool, dtype: Any) -> Array:
    x = as_array(m)
    if x.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    d = dt.as_dtype(dtype) if dtype is not None else _work_dtype(x)
    if y is not None and dtype is None:
        d = promotion.promote(d, _work_dtype(as_array_beside(y, x, x.device)))
    one_d = x.ndim == 1
    x = atleast_2d(x).astype(d)
    if not rowvar and not one_d:
        x = x.T
    if y is not None:
        yy = atleast_2d(as_array_beside(y, x, x.device)).astype(d)  # a float list beside float64 at float64
        if not rowvar and yy.shape[0] != 1:
            yy = yy.T
        x = concatenate([x, yy], axis=0)
    return x


def _work_dtype(x: Array) -> dt.DType:
    """float32/float64/complex data keeps its dtype, float16 computes in float32; integers and bools in float64
    as ``kd.mean`` of them (NumPy's), float32 on a device without float64."""
    d = x.dtype
    if d.kind == "c" or (d.is_float and d is not dt.float16):
        return d
    if d.is_float:
        return dt.float32
    return dt.float64 if x.device.supports(dt.float64) else dt.float32


def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False, ddof: int | None = None,
        fweights: Any = None, aweights: Any = None, *, dtype: Any = None) -> Array:
    """The covariance matrix of the variables in the rows of ``m`` (columns when ``rowvar`` is False).

    NumPy computes it in float64 (complex128) for every input; kdsl keeps float32, float64 and complex input's
    dtype, computes float16 in float32 and integers in float64 (as ``kd.mean``; float32 without float64).
    Complex data: ``X @ X^H``, as NumPy. ``fweights`` (integer repeat counts) and ``aweights`` (relative
    importances) weight the observations as NumPy's do (cov_weights.py).

    >>> import kdsl as kd
    >>> kd.cov(kd.asarray([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])).tolist()
    [[1.0, -1.0], [-1.0, 1.0]]
    >>> kd.cov(kd.asarray([1j, -1j])).tolist()
    (2+0j)
    """
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    ddof = int(ddof) if ddof is not None else (0 if bias else 1)
    empty = _without_variables(m, y, rowvar)
    if empty is not None:
        return empty
    if fweights is not None or aweights is not None:
        x = _observations(m, y, rowvar, dtype)
        wide = _weighted_dtype(x, dtype)
        centred, w, factor = weighted_centred(x.astype(wide), fweights, aweights, ddof)
        centred = _in_dtype(centred, x.dtype).astype(wide)  # NumPy's X -= avg rounds to X's dtype
        out = matmul(centred, _adjoint(centred * w)) * factor
    else:
        centred, scale = _centred(m, y, rowvar, dtype, ddof)
        out = _nan_without_observations(matmul(centred, _adjoint(centred)) * scale, centred.shape[1])
    return out.reshape(()) if out.shape == (1, 1) else out


def _without_variables(m: Any, y: Any, rowvar: bool) -> Array | None:
    """NumPy's result when ``m`` has no variables (no rows; no columns of a 2-d ``m`` when ``rowvar`` is False):
    an empty float64 (0, 0) array whatever the dtypes, before ``y`` and the weights are looked at; else None."""
    x = as_array(m)
    if x.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None and as_array_beside(y, x, x.device).ndim > 2:
        raise ValueError("y has more than 2 dimensions")
    rows = x.shape[0] if x.ndim == 2 and rowvar else x.shape[1] if x.ndim == 2 else 1
    if rows:
        return None
    return zeros((0, 0), dt.float64 if x.device.supports(dt.float64) else dt.float32, device=x.device)


def _in_dtype(centred: Array, d: dt.DType) -> Array:
    """The centred data in ``d``, the ``dtype=`` the data was converted to, as NumPy's in-place ``X -= avg``
    leaves it; an integer or bool ``d`` is that subtraction's casting error (its float mean cannot go back)."""
    if not (d.is_float or d.is_complex):
        raise output_casting_error("subtract", dt.float64, d, "same_kind",
                                   "NumPy centres the data in place in dtype=: pass a float dtype")
    return centred.astype(d)


def _weighted_dtype(x: Array, dtype: Any) -> dt.DType:
    """The dtype a weighted covariance computes in: NumPy's weights are float64 arrays, so an explicit
    ``dtype=float16/float32/complex64`` gives a float64 (complex128) result there; kdsl's own choice for data of
    those dtypes (``dtype`` None) stays."""
    if dtype is None or not x.device.supports(dt.float64):
        return x.dtype
    return promotion.promote(x.dtype, dt.float64)


def _nan_without_observations(out: Array, n: int) -> Array:
    """``out``, or NaN everywhere when there are no observations (NumPy's ``0 * inf``: the empty sums are 0 and
    their factor infinite; said explicitly, as the empty sum may be folded to a constant 0 whose product a
    shader compiler may simplify to 0)."""
    if n:
        return out
    return out + (complex(math.nan, math.nan) if out.dtype.kind == "c" else math.nan)


def _centred(m: Any, y: Any, rowvar: bool, dtype: Any, ddof: int) -> tuple[Array, float]:
    """(the observations minus their means, one variable per row; the factor ``1 / max(n - ddof, 0)``)."""
    x = _observations(m, y, rowvar, dtype)
    dof = x.shape[1] - ddof
    return _in_dtype(x - mean(x, axis=1, keepdims=True), x.dtype), (1.0 / dof if dof > 0 else float("inf"))


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, *, dtype: Any = None) -> Array:
    """Pearson correlation coefficients (the covariance scaled by the standard deviations, clipped to [-1, 1]).

    >>> import kdsl as kd
    >>> kd.corrcoef(kd.asarray([[0.0, 1.0, 2.0], [0.0, 2.0, 4.0]])).tolist()
    [[1.0, 1.0], [1.0, 1.0]]
    """
    empty = _without_variables(x, y, rowvar)
    if empty is not None:
        return empty
    centred, _ = _centred(x, y, rowvar, dtype, 0)  # the 1/n factors cancel
    c = matmul(centred, _adjoint(centred))
    # The norms come from their own reduction, not from the diagonal of ``c``: a view of a reduction read by
    # that reduction's own epilogue is not supported by the fusion engine yet.
    square = centred * conj(centred) if centred.dtype.kind == "c" else centred * centred
    norm = ops.apply("sqrt", real(ksum(square, axis=1)))
    out = _nan_without_observations(c / norm.reshape(-1, 1) / norm.reshape(1, -1), centred.shape[1])
    if out.dtype.kind == "c":  # NumPy clips the real and imaginary parts each
        out = complex_from_parts(_clip1(real(out)), _clip1(imag(out))).astype(out.dtype)
    else:
        out = _clip1(out)
    return out.reshape(()) if out.shape == (1, 1) else out


def _clip1(x: Array) -> Array:
    return ops.apply("minimum", ops.apply("maximum", x, -1.0), 1.0)


def _adjoint(x: Array) -> Array:
    """The conjugate transpose of a 2-d array (the transpose for real data)."""
    return conj(x).T if x.dtype.kind == "c" else x.T
