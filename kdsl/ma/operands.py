"""The operands of ``kd.ma``'s functions as numpy.ma takes them: their data and mask (:func:`parts`), Python
scalars as NumPy's strong 0-d arrays (:func:`strong`), and how masks and fill values carry over to a result
(:func:`union`, :func:`shrunk`, :func:`fill_of`, :func:`masked_result`), what data a masked entry keeps
(:func:`keep_data`) and results with the ``masked`` constant (:func:`masked_constant_result`).

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([1.0, 2.0], mask=[False, True])
    >>> data, mask = parts(x)
    >>> data.tolist(), mask.tolist(), parts(3.0)[1] is kd.ma.nomask
    ([1.0, 2.0], [False, True], True)
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

import kdsl as kd
from kdsl.ma.constants import masked, nomask, numpy_dtype
from kdsl.ma.masked_array import MaskedArray


def parts(x: Any) -> tuple[Any, Any]:
    """(data, mask) of an operand: kdsl arrays for arrays, Python scalars stay scalars; mask may be nomask."""
    if isinstance(x, MaskedArray):
        return x._data, x._mask
    if isinstance(x, np.ma.MaskedArray):
        m = nomask if x.mask is nomask else kd.asarray(np.ma.getmaskarray(x))
        return kd.asarray(np.ma.getdata(x)), m
    if isinstance(x, (kd.Array, bool, int, float, complex)):
        return x, nomask
    return kd.asarray(x), nomask


def strong(da: Any, db: Any) -> tuple[Any, Any]:
    """The operands as numpy.ma takes them: a Python scalar next to an array is a 0-d array of NumPy's default
    dtype (strong, not NEP 50's weak scalar), so float32 data + 1.0 is float64 and int32 data + 1 is int64; the
    array operand is cast to that dtype (lazily) and the scalar stays a Python number."""
    for x, y, swap in ((da, db, False), (db, da, True)):
        if isinstance(x, kd.Array) and isinstance(y, (bool, int, float, complex)):
            own = numpy_dtype(x.dtype)
            target = np.result_type(own, np.asarray(y).dtype)
            if target != own:
                x = x.astype(target)
            return (y, x) if swap else (x, y)
    return da, db


def union(m1: Any, m2: Any, shape: tuple[int, ...]) -> Any:
    """The union of two masks broadcast to ``shape`` (nomask when both are)."""
    if m1 is nomask and m2 is nomask:
        return nomask
    m = m1 if m2 is nomask else m2 if m1 is nomask else kd.logical_or(m1, m2)
    return m if m.shape == shape else kd.broadcast_to(m, shape)


def shrunk(mask: Any) -> Any:
    """``mask``, or ``nomask`` where nothing is masked: numpy.ma's ``mask_or``/``make_mask`` shrink the masks of
    its comparisons, ``where``, ``concatenate``, ``outer`` and ``clip`` so (one bool read back, as NumPy's
    ``m.any()``).

    >>> import kdsl as kd
    >>> shrunk(kd.zeros(3, dtype=kd.bool_)) is kd.ma.nomask
    True
    """
    return nomask if mask is nomask or not bool(kd.any(mask)) else mask


def fill_of(*operands: Any) -> Any:
    """The fill value numpy.ma's elementwise functions carry over to their result (its ``_update_from``): the
    first masked operand's own, ``None`` (the dtype's default) where it has none."""
    for x in operands:
        if isinstance(x, MaskedArray):
            return x._fill_value
    return None


def masked_result(result: Any, empty: Any, fill: Any = None) -> Any:
    """``result`` masked where ``empty`` (nomask, or the all-masked test along the reduced axes): a masked array
    (with the ``fill`` value), or for a 0-d result the value or ``masked``."""
    if result.ndim == 0:
        if empty is not nomask and bool(empty):
            return masked
        return result
    return MaskedArray.wrap(result, empty, fill)


Casting = Literal["safe", "same_kind", "unsafe"]


def keep_data(mask: Any, original: Any, result: Any, casting: Casting = "same_kind") -> Any:
    """``result`` with the entries under ``mask`` taken from ``original`` where NumPy's copyto allows the cast
    (``casting``: ``'unsafe'`` for numpy.ma's binary ops, ``'same_kind'`` for its unary ones, ``'safe'`` for
    the domained ones, which put 0 where the cast is not safe)."""
    if mask is nomask:
        return result
    odt = numpy_dtype(original.dtype) if isinstance(original, kd.Array) else np.asarray(original).dtype
    rdt = numpy_dtype(result.dtype)
    if not np.can_cast(odt, rdt, casting):
        return kd.where(mask, 0, result) if casting == "safe" else result
    if isinstance(original, kd.Array):
        original = original.astype(result.dtype)
    return kd.where(mask, original, result)


def _shape(x: Any) -> tuple[int, ...]:
    return x.shape if isinstance(x, kd.Array) else ()


def _masked_result_dtype(name: str, da: Any, db: Any) -> Any:
    """The dtype of NumPy's ``<name>(a, b)`` where an operand is ``masked`` (a float64 0-d array): bool for the
    comparisons, the promoted type otherwise (NumPy's ufunc on 0-d stand-ins; a Python scalar stays weak)."""
    def stand_in(d: Any) -> Any:
        return np.zeros((), numpy_dtype(d.dtype)) if isinstance(d, (kd.Array, np.ndarray, np.generic)) else d
    with np.errstate(all="ignore"):
        return getattr(np, name)(stand_in(da), stand_in(db)).dtype


def masked_constant_result(name: str, a: Any, da: Any, db: Any, casting: Casting) -> Any:
    """numpy.ma's ``<name>(a, b)`` where ``a`` or ``b`` is ``masked``: all masked, of NumPy's shape and dtype
    (``masked`` itself for a 0-d result); the data are masked's own (0) where it comes first, else ``a``'s where
    the cast is allowed (:func:`keep_data`), as numpy.ma's copyto leaves them.

    >>> import kdsl as kd
    >>> r = masked_constant_result("multiply", kd.ma.masked, 0.0, kd.asarray([1, 2]), "unsafe")
    >>> r.mask.tolist(), r.dtype
    ([True, True], kdsl.float64)
    """
    shape = np.broadcast_shapes(_shape(da), _shape(db))
    if not shape:
        return masked
    full = kd.ones(shape, dtype=kd.bool_)
    data = kd.zeros(shape, dtype=_masked_result_dtype(name, da, db))
    if a is not masked:
        data = keep_data(full, kd.asarray(da), data, casting)
    return MaskedArray.wrap(data, full)
