"""``kd.ma.dot`` (and ``x.dot(y)``), ``outer`` and ``inner``, as ``numpy.ma``'s. ``dot``: the product of the
data with masked entries as 0; an entry of the result is masked where no pair of unmasked entries meets in its sum
(``strict=False``), or, with ``strict=True``, where any masked entry takes part (a masked entry masks its whole row
of ``a`` / column of ``b``).

Example:
    >>> import kdsl as kd
    >>> a = kd.ma.array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [1, 1]])
    >>> kd.ma.dot(a, kd.ma.array([[1.0], [1.0]])).tolist()
    [[1.0], [None]]
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.ma.constants import nomask
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.operands import shrunk


def _spread(x: MaskedArray, axis: int) -> MaskedArray:
    """``x`` with every line along ``axis`` that holds a masked entry masked whole (NumPy's _mask_propagate)."""
    if x._mask is nomask:
        return x
    return MaskedArray.wrap(x._data, kd.broadcast_to(kd.any(x._mask, axis=axis, keepdims=True), x.shape))


def dot(a: Any, b: Any, strict: bool = False, out: Any = None) -> MaskedArray:
    """NumPy's ``np.ma.dot``: ``kd.dot`` of the data filled with 0, masked as the module docstring says;
    ``out`` (a kd.ma array, as NumPy's) receives the data and the mask."""
    if out is not None:
        if not isinstance(out, MaskedArray):
            raise TypeError("kd.ma.dot: out must be a kd.ma masked array, as NumPy's")
        result = dot(a, b, strict)
        out._data[...] = result._data
        out._ensure_mask()[...] = result._mask
        return out
    x = a if isinstance(a, MaskedArray) else MaskedArray(a)
    y = b if isinstance(b, MaskedArray) else MaskedArray(b)
    if strict is True and x.ndim and y.ndim:
        x, y = _spread(x, x.ndim - 1), _spread(y, y.ndim - 1 if y.ndim == 1 else y.ndim - 2)
    data = kd.dot(x.filled(0), y.filled(0))
    if x._mask is nomask and y._mask is nomask:  # NumPy's result has a full mask (none when 0-d)
        return MaskedArray.wrap(data, nomask if data.ndim == 0 else kd.zeros(data.shape, dtype=kd.bool_))
    some = kd.dot((~kd.ma.getmaskarray(x)).astype(kd.int32), (~kd.ma.getmaskarray(y)).astype(kd.int32)) > 0
    return MaskedArray.wrap(data, shrunk(~some) if data.ndim == 0 else ~some)  # a 0-d one unmasked: nomask


def outer(a: Any, b: Any) -> MaskedArray:
    """NumPy's ``np.ma.outer`` (``outerproduct``): the outer product of the flattened data with masked entries as
    0, masked where either factor is masked."""
    x = a if isinstance(a, MaskedArray) else MaskedArray(a)
    y = b if isinstance(b, MaskedArray) else MaskedArray(b)
    data = kd.outer(x.filled(0).ravel(), y.filled(0).ravel())
    if x._mask is nomask and y._mask is nomask:
        return MaskedArray.wrap(data)
    mask = kd.ma.getmaskarray(x).ravel()[:, None] | kd.ma.getmaskarray(y).ravel()[None, :]
    return MaskedArray.wrap(data, shrunk(mask))  # NumPy's make_mask: nomask where nothing is masked


def inner(a: Any, b: Any) -> Any:
    """NumPy's ``np.ma.inner`` (``innerproduct``): ``kd.inner`` of the data filled with 0, over the last axes;
    as NumPy's, the result carries no mask (a masked entry simply adds nothing), and a 0-d one is plain (NumPy's
    is a scalar)."""
    fa = a.filled(0) if isinstance(a, MaskedArray) else kd.asarray(a)
    fb = b.filled(0) if isinstance(b, MaskedArray) else kd.asarray(b)
    fa = fa.reshape((1,)) if fa.ndim == 0 else fa  # NumPy's 0-d operands act as 1-element vectors here
    fb = fb.reshape((1,)) if fb.ndim == 0 else fb
    result = kd.inner(fa, fb)
    return result if result.ndim == 0 else MaskedArray.wrap(result)


def kron(a: Any, b: Any) -> MaskedArray:
    """What ``kd.kron`` and ``np.kron`` give for masked arrays (as NumPy's on ``np.ma`` arrays; ``numpy.ma`` has no
    ``kron`` of its own): ``kd.kron`` of the data, an entry masked where either of its two factors is."""
    x = a if isinstance(a, MaskedArray) else MaskedArray(a)
    y = b if isinstance(b, MaskedArray) else MaskedArray(b)
    data = kd.kron(x._data, y._data)
    if x._mask is nomask and y._mask is nomask:
        return MaskedArray.wrap(data)
    # kron multiplies, which on booleans is "and": an entry is unmasked where both factors are unmasked
    kept = kd.kron(~kd.ma.getmaskarray(x), ~kd.ma.getmaskarray(y))
    return MaskedArray.wrap(data, ~kept)


outerproduct, innerproduct = outer, inner
MaskedArray.dot = lambda self, b, out=None, strict=False: dot(self, b, strict, out)  # type: ignore[attr-defined]

__all__ = ["dot", "inner", "innerproduct", "outer", "outerproduct"]
