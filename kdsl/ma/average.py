"""``kd.ma.average``, as ``numpy.ma``'s: the weighted mean of the unmasked entries. Weights may have the data's
shape or, with ``axis``, the shape of the reduced axes (in ``axis``'s order); masked weights count as absent, as
masked data does. A line whose weights add to zero (or that has nothing unmasked) is masked; with
``axis=None``, as NumPy's scalar division, such an average is NaN (or inf), masked only if everything is.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([[1.0, 2.0], [3.0, 4.0]], mask=[[True, False], [False, False]])
    >>> w = kd.ma.array([1.0, 3.0], mask=[False, True])
    >>> kd.ma.average(x, axis=0, weights=w).tolist()
    [None, 2.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

import kdsl as kd
from kdsl.ma.constants import nomask
from kdsl.ma.operands import masked_result, parts
from kdsl.ma.reductions import as_masked, mean, not_finite


def _weights_along(w: Any, shape: tuple[int, ...], axis: Any) -> Any:
    """``w`` shaped to broadcast against data of ``shape``, with NumPy's checks and messages."""
    if tuple(w.shape) == tuple(shape):
        return w
    if axis is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    axes = np.lib.array_utils.normalize_axis_tuple(axis, len(shape), argname="axis")
    if tuple(w.shape) != tuple(shape[ax] for ax in axes):
        raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
    w = kd.transpose(w, tuple(int(i) for i in np.argsort(axes)))  # weights' axes in the data's order
    return w.reshape(tuple(n if ax in axes else 1 for ax, n in enumerate(shape)))


def average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False, keepdims: bool = False) -> Any:
    """NumPy's ``np.ma.average``: the weighted mean of the unmasked entries (see the module docstring)."""
    if weights is None:
        result = mean(a, axis=axis, keepdims=keepdims)
        if returned:  # the count in the mean's dtype, as NumPy's avg.dtype.type(a.count(axis))
            count = kd.asarray(as_masked(a).count(axis=axis, keepdims=keepdims))
            return result, count.astype(parts(result)[0].dtype)
        return result
    da, ma = parts(a)
    da = kd.asarray(da)
    w, wm = parts(weights)
    if isinstance(weights, (list, tuple)) and da.dtype in (kd.float64, kd.complex128):  # at a's float64, not
        w = kd.asarray(weights, dtype=kd.result_type(da.dtype, w.dtype))  # the float32 rounding of 0.1
    w = kd.asarray(w)
    # NumPy's sum of weights is in the result's dtype: float64 at least for integer or bool data
    floor = (kd.float64,) if da.dtype.kind in "iub" else ()
    result_dtype = kd.result_type(da.dtype, w.dtype, *floor)
    # NumPy's sum of weights of the axes' shape, against unmasked data, has the sum's shape before NumPy
    # broadcasts it to the average's: a plain array (np.broadcast_to drops the mask)
    plain_sum = ma is nomask and tuple(w.shape) != tuple(da.shape)
    w = _weights_along(w, tuple(da.shape), axis)
    if wm is not nomask:  # a masked weight leaves its entries out, as numpy.ma's masked product does
        absent = kd.broadcast_to(_weights_along(kd.asarray(wm), tuple(da.shape), axis), da.shape)
        ma = absent if ma is nomask else ma | absent
    w = kd.broadcast_to(w, da.shape)
    if ma is not nomask:
        w = kd.where(ma, 0, w)
        da = kd.where(ma, 0, da)
    axis = None if axis is None else np.lib.array_utils.normalize_axis_tuple(axis, da.ndim, argname="axis")
    wsum = kd.sum(w, axis=axis, keepdims=keepdims, dtype=result_dtype)
    total = kd.sum(w * da, axis=axis, keepdims=keepdims)
    if total.ndim == 0:  # NumPy divides the two sums as scalars: 0 / 0 is NaN, x / 0 inf; masked if all is
        result = masked_result(total / wsum, nomask if ma is nomask else kd.all(ma))
    else:
        quotient = total / kd.where(wsum == 0, 1, wsum)
        result = masked_result(quotient, (wsum == 0) | not_finite(quotient))  # numpy.ma's division masks NaN, inf
    if not returned or plain_sum:
        return (result, wsum) if returned else result
    # NumPy's sum of weights is the masked weights' sum (masked where a whole line is): a masked array; w is 0
    # under the mask, so that sum is wsum
    return result, masked_result(wsum, nomask if ma is nomask else kd.all(ma, axis=axis, keepdims=keepdims))


__all__ = ["average"]
