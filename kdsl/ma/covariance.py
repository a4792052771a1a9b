"""``kd.ma.cov`` and ``kd.ma.corrcoef``, as ``numpy.ma``'s: the covariance (correlation) of variables with missing
observations. Each variable is centred on the mean of its own unmasked observations; a pair of variables is
summed over the observations unmasked in both, and divided by that pair's count less ``ddof``. An entry whose
divisor is not positive is masked. With ``y`` of ``x``'s shape the two share one mask (an observation masked in
either is masked in both), as NumPy's. ``allow_masked=False`` raises NumPy's ValueError when anything is masked.

Integer and bool data compute in float64, as NumPy's (float32 on a device without float64, as ``kd.mean``),
float16 in float32; float32 and complex data keep their dtype (as ``kd.cov``; NumPy computes in float64 and
drops the imaginary part with a ComplexWarning).

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([[1.0, 2.0, 4.0, 7.0], [2.0, 1.0, 0.0, 3.0]], mask=[[0, 1, 0, 0], [0, 0, 0, 1]])
    >>> kd.ma.cov(x).tolist()
    [[9.0, -3.0], [-3.0, 1.0]]
    >>> kd.ma.cov(x, bias=True).tolist()[0][0]
    6.0
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.ma.constants import masked, nomask
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.operands import parts


def _observations(x: Any) -> tuple[Any, Any]:
    """(data as a 2-d array of the working dtype, its full bool mask) of ``x``, as NumPy's ``ndmin=2``."""
    d, m = parts(x)
    d = kd.asarray(d)
    if d.ndim > 2:
        raise ValueError("array has more than 2 dimensions")
    if d.dtype.kind not in "fc":  # integers and bools: float64, as NumPy's dtype=float (and kd.mean's, kd.cov's)
        d = d.astype(kd.float64 if d.device.supports(kd.float64) else kd.float32)
    elif d.dtype == kd.float16:  # as kd.cov: float32 (NumPy: float64)
        d = d.astype(kd.float32)
    shape = (1,) * (2 - d.ndim) + tuple(d.shape)
    mask = kd.zeros(shape, dtype=kd.bool_) if m is nomask else kd.asarray(m).reshape(shape)
    return d.reshape(shape), mask


def _check_unmasked(mask: Any, allow_masked: bool) -> None:
    if not allow_masked and bool(kd.any(mask)):
        raise ValueError("Cannot process masked data.")


def _variables(x: Any, y: Any, rowvar: bool, allow_masked: bool) -> tuple[Any, Any]:
    """(data, mask) with one variable per row: ``x``'s then ``y``'s, masks shared where their shapes agree."""
    xd, xm = _observations(x)
    _check_unmasked(xm, allow_masked)
    rowvar = bool(rowvar) or xd.shape[0] == 1  # NumPy: a single row is one variable whatever rowvar says
    if y is not None:
        yd, ym = _observations(y)
        _check_unmasked(ym, allow_masked)
        if yd.shape == xd.shape:  # one observation masked in either is masked in both
            xm = ym = xm | ym
        axis = 0 if rowvar else 1
        xd, xm = kd.concatenate((xd, yd), axis=axis), kd.concatenate((xm, ym), axis=axis)
    return (xd, xm) if rowvar else (xd.T, xm.T)


def _adjoint(x: Any) -> Any:
    return kd.conj(x).T if x.dtype.kind == "c" else x.T


def cov(x: Any, y: Any = None, rowvar: bool = True, bias: bool = False, allow_masked: bool = True,
        ddof: Any = None) -> MaskedArray:
    """NumPy's ``np.ma.cov``: the covariance matrix over pairwise unmasked observations (module docstring).
    Like NumPy's, a single variable gives a 0-d masked array."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be an integer")
    ddof = (0 if bias else 1) if ddof is None else int(ddof)
    data, mask = _variables(x, y, rowvar, allow_masked)
    present = ~mask
    count = kd.sum(present, axis=1, keepdims=True).astype(data.real.dtype)  # int counts would promote float32
    total = kd.sum(kd.where(present, data, 0), axis=1, keepdims=True)
    mean = total / kd.where(count == 0, 1, count)  # a variable with nothing unmasked has no pairs to centre
    centred = kd.where(present, data - mean, 0)
    weights = present.astype(kd.float32 if max(data.shape) <= 2 ** 24 else kd.float64)  # exact counts
    fact = kd.matmul(weights, weights.T).astype(data.real.dtype) - ddof
    empty = fact <= 0
    result = kd.matmul(centred, _adjoint(centred)) / kd.where(empty, 1, fact)
    if result.shape == (1, 1):  # NumPy's squeeze
        return MaskedArray.wrap(result.reshape(()), empty.reshape(()))
    return MaskedArray.wrap(result, empty)


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, allow_masked: bool = True) -> Any:
    """NumPy's ``np.ma.corrcoef``: ``cov`` scaled by the outer product of its diagonal's square roots. Like
    NumPy's, a single variable (a 0-d covariance, which has no diagonal) gives ``kd.ma.masked``."""
    c = cov(x, y, rowvar, allow_masked=allow_masked)
    if c.ndim == 0:
        return masked
    data, empty = c._data, c._mask
    diag = kd.diagonal(data).real if data.dtype.kind == "c" else kd.diagonal(data)
    bad = kd.diagonal(empty) | (diag < 0)  # NumPy's masked sqrt: a negative variance is out of its domain
    std = kd.sqrt(kd.where(bad, 1, diag))
    scale = kd.outer(std, std)
    zero = scale == 0
    result = data / kd.where(zero, 1, scale)
    # NumPy's masked divide: division by zero and NaN or infinite quotients are masked
    mask = empty | bad[:, None] | bad[None, :] | zero | ~kd.isfinite(result)
    return MaskedArray.wrap(result, mask)


__all__ = ["corrcoef", "cov"]
