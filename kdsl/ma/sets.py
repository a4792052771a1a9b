"""``numpy.ma``'s set functions: ``unique intersect1d union1d setdiff1d setxor1d in1d isin``. As NumPy's, every
masked entry counts as one and the same element, ``masked``: a set holds it once (last, after the sorted unmasked
values) when any entry is masked; ``a`` and ``b`` share it when both have a masked entry. The unmasked values
run kdsl's own set functions on the device. Whether an input has a masked entry is read back (one bool): the
result's length depends on it, as it does on the values.

``in1d``/``isin``: an unmasked entry gets an unmasked answer; a masked entry is masked when the test elements
have a masked entry (NumPy compares ``masked == masked``) or either input an unmasked NaN (NumPy compares
masked with the NaN sorted after it), else ``invert``. NumPy also masks the answer of an unmasked entry that
sorts right before a masked one (the largest value, when it is not among the test elements); kdsl does not.

Example:
    >>> import kdsl as kd
    >>> a = kd.ma.array([3, 1, 2, 3, 9], mask=[0, 0, 1, 0, 1])
    >>> kd.ma.unique(a).tolist()
    [1, 3, None]
    >>> kd.ma.union1d(a, kd.asarray([4, 1])).tolist()
    [1, 3, 4, None]
    >>> kd.ma.isin(a, kd.asarray([1, 2])).tolist()
    [False, True, False, False, False]
"""

from __future__ import annotations

from typing import Any, NamedTuple

import kdsl as kd
from kdsl.ma.constants import nomask
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.operands import fill_of, parts


class _Flat(NamedTuple):
    """An input, flattened: its data, its mask (or None), and whether anything is masked (read back)."""

    data: Any
    mask: Any
    has_masked: bool

    @property
    def unmasked(self) -> Any:
        return self.data if self.mask is None else self.data[~self.mask]


def _flat(ar: Any) -> _Flat:
    d, m = parts(ar)
    d = kd.asarray(d).ravel()
    if m is nomask:
        return _Flat(d, None, False)
    m = kd.asarray(m).ravel()
    return _Flat(d, m, bool(kd.any(m)))


def _with_masked(values: Any, masked_last: bool, mask_array: bool = False, fill: Any = None) -> MaskedArray:
    """``values`` (sorted) as a masked array (with the ``fill`` value), with one masked entry when
    ``masked_last``: after the numbers, before the NaNs (where NumPy's masked sort puts it); ``mask_array``: a
    mask with nothing set rather than ``nomask`` where none is (NumPy's result keeps the mask its masked inputs
    gave it)."""
    if not masked_last:
        return MaskedArray.wrap(values, kd.zeros(values.shape, dtype=kd.bool_) if mask_array else nomask, fill)
    n = int(values.shape[0])
    k = int(kd.count_nonzero(~kd.isnan(values))) if values.dtype.kind in "fc" else n
    data = kd.concatenate((values[:k], kd.zeros((1,), dtype=values.dtype), values[k:]))
    return MaskedArray.wrap(data, kd.arange(n + 1) == k, fill)


def unique(ar1: Any, return_index: bool = False, return_inverse: bool = False) -> Any:
    """NumPy's ``np.ma.unique``: the sorted unique unmasked values, then one masked entry if any is masked;
    ``return_index`` (the first occurrence; the first masked entry's for ``masked``) and ``return_inverse``
    (of the input's shape) as ``np.unique``'s."""
    x = _flat(ar1)
    if not x.has_masked:
        d, m = parts(ar1)
        out = kd.unique(kd.asarray(d), return_index=return_index, return_inverse=return_inverse)
        # NumPy's unique of the masked array keeps its fill value, and a mask with nothing set (of the values)
        values = _with_masked(out[0] if isinstance(out, tuple) else out, False, m is not nomask, fill_of(ar1))
        return (values,) + tuple(out[1:]) if isinstance(out, tuple) else values
    kept = kd.flatnonzero(~x.mask)
    values, first, inverse = kd.unique(x.data[kept], return_index=True, return_inverse=True)
    out = _with_masked(values, True, fill=fill_of(ar1))
    at = int(kd.argmax(out._mask))  # where masked sits: before the NaNs
    result: list[Any] = [out]
    if return_index:
        first_masked = kd.argmax(x.mask).reshape(1).astype(kept.dtype)
        result.append(kd.concatenate((kept[first][:at], first_masked, kept[first][at:])))
    if return_inverse:
        # each unmasked entry's rank among the unmasked ones picks its inverse; masked ones point at masked
        rank = kd.maximum(kd.cumsum(~x.mask) - 1, 0)
        inv = inverse.ravel()[rank] if kept.shape[0] else kd.zeros(rank.shape, dtype=inverse.dtype)
        full = kd.where(x.mask, at, kd.where(inv >= at, inv + 1, inv))
        result.append(full.astype(inverse.dtype).reshape(tuple(kd.asarray(parts(ar1)[0]).shape)))
    return result[0] if len(result) == 1 else tuple(result)


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> MaskedArray:
    """NumPy's ``np.ma.intersect1d``: the sorted values in both; ``masked`` when both have a masked entry."""
    a, b = _flat(ar1), _flat(ar2)
    values = kd.intersect1d(a.unmasked, b.unmasked, assume_unique=assume_unique)
    return _with_masked(values, a.has_masked and b.has_masked, a.has_masked or b.has_masked)


def union1d(ar1: Any, ar2: Any) -> MaskedArray:
    """NumPy's ``np.ma.union1d``: the sorted values in either; ``masked`` when either has a masked entry."""
    a, b = _flat(ar1), _flat(ar2)
    return _with_masked(kd.union1d(a.unmasked, b.unmasked), a.has_masked or b.has_masked)


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> MaskedArray:
    """NumPy's ``np.ma.setxor1d``: the sorted values in exactly one; ``masked`` when exactly one has a masked
    entry."""
    a, b = _flat(ar1), _flat(ar2)
    values = kd.setxor1d(a.unmasked, b.unmasked, assume_unique=assume_unique)
    return _with_masked(values, a.has_masked != b.has_masked, a.has_masked or b.has_masked)


def _membership(a: _Flat, b: _Flat, assume_unique: bool, invert: bool) -> MaskedArray:
    """Each entry of ``a`` in ``b`` (module docstring), flat."""
    found = kd.isin(a.data, b.unmasked, assume_unique=assume_unique, invert=invert)
    if a.mask is None:
        return MaskedArray.wrap(found, nomask)
    if b.has_masked:  # masked == masked: a masked answer (its data True, as NumPy's, or False inverted)
        return MaskedArray.wrap(kd.where(a.mask, not invert, found), a.mask)
    # NumPy sorts masked before NaN and compares the two: a masked answer when a NaN is in either input
    nan = _has_nan(a.data[~a.mask]) | _has_nan(b.unmasked)
    return MaskedArray.wrap(kd.where(a.mask, invert, found), a.mask & nan)


def _has_nan(values: Any) -> Any:
    """A lazy 0-d bool: whether ``values`` hold a NaN (False for integers)."""
    if values.dtype.kind not in "fc":
        return kd.asarray(False)
    return kd.any(kd.isnan(values))


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> MaskedArray:
    """NumPy's ``np.ma.setdiff1d``: the sorted values of ``ar1`` not in ``ar2`` (``ar1``'s entries in their order
    with ``assume_unique``); ``masked`` when only ``ar1`` has a masked entry."""
    a, b = _flat(ar1), _flat(ar2)
    if not assume_unique:
        values = kd.setdiff1d(a.unmasked, b.unmasked)
        return _with_masked(values, a.has_masked and not b.has_masked, a.mask is not None)
    keep = _membership(a, b, True, True).data  # its data, as NumPy indexes with the masked answer
    return MaskedArray.wrap(a.data[keep], nomask if a.mask is None else a.mask[keep])


def in1d(ar1: Any, ar2: Any, assume_unique: bool = False, invert: bool = False) -> MaskedArray:
    """NumPy's ``np.ma.in1d``: whether each entry of ``ar1`` (flattened) is in ``ar2`` (module docstring)."""
    return _membership(_flat(ar1), _flat(ar2), assume_unique, invert)


def isin(element: Any, test_elements: Any, assume_unique: bool = False, invert: bool = False) -> MaskedArray:
    """NumPy's ``np.ma.isin``: ``in1d`` in ``element``'s shape."""
    shape = tuple(kd.asarray(parts(element)[0]).shape)
    return in1d(element, test_elements, assume_unique, invert).reshape(shape)


__all__ = ["in1d", "intersect1d", "isin", "setdiff1d", "setxor1d", "union1d", "unique"]
