"""``kd.ma``'s helpers on masks and data (``getmask``, ``mask_or``, ``filled``, ``compressed``...) and the
functions that join or choose between masked arrays (``where``, ``concatenate``, ``stack``).

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([1, 2, 3], mask=[False, True, False])
    >>> kd.ma.getmask(kd.ma.array([1, 2])) is kd.ma.nomask, kd.ma.count_masked(x), kd.ma.is_masked(x)
    (True, np.int64(1), True)
    >>> print(kd.ma.concatenate([x, kd.ma.array([4])]))
    [1 -- 3 4]
"""

from __future__ import annotations

from typing import Any

import numpy as np

import kdsl as kd
from kdsl.ma.constants import MaskType, masked, nomask, numpy_dtype
from kdsl.ma.masked_array import MaskedArray, as_mask_array
from kdsl.ma.operands import parts, shrunk, strong


def getmask(a: Any) -> Any:
    """The mask of ``a``: a kdsl bool array, or ``nomask`` for unmasked arrays and non-masked inputs. A NumPy
    masked array's mask as a kdsl array: ``np.ma.masked`` (a reduction of nothing but masked entries) is masked.

    >>> import numpy as np, kdsl as kd
    >>> kd.ma.getmaskarray(np.ma.masked).tolist(), kd.ma.getmask(np.ma.array([1, 2])) is kd.ma.nomask
    (True, True)
    """
    if isinstance(a, MaskedArray):
        return a._mask
    if isinstance(a, np.ma.MaskedArray):
        return parts(a)[1]
    return nomask


def getmaskarray(arr: Any) -> Any:
    """The mask of ``arr`` as a full kdsl bool array (all False where there is no mask)."""
    m = getmask(arr)
    if m is nomask:
        data, _ = parts(arr)
        return kd.zeros(kd.asarray(data).shape, dtype=kd.bool_)
    return m


def getdata(a: Any, subok: bool = True) -> Any:
    """The data of ``a`` as a kdsl array (``a`` itself when it is one)."""
    data, _ = parts(a)
    return data if isinstance(data, kd.Array) else kd.asarray(data)


def isMaskedArray(x: Any) -> bool:
    """Whether ``x`` is a (kdsl or NumPy) masked array."""
    return isinstance(x, (MaskedArray, np.ma.MaskedArray))


isMA = isarray = isMaskedArray


def is_masked(x: Any) -> bool:
    """Whether anything of ``x`` is masked (one bool read back)."""
    if x is masked:
        return True
    m = getmask(x)
    return m is not nomask and bool(kd.any(m))


def make_mask(m: Any, copy: bool = False, shrink: bool = True, dtype: Any = MaskType) -> Any:
    """NumPy's ``np.ma.make_mask``: ``m`` as a bool mask; ``nomask`` for ``nomask`` (and, with ``shrink``, when
    nothing is set: one bool read back)."""
    if m is nomask:
        return nomask
    mask = as_mask_array(m, kd.asarray(getdata(m)).shape)
    if shrink and not bool(kd.any(mask)):
        return nomask
    if copy and mask is m:  # a bool array given: itself (as NumPy's), or with copy=True its own copy
        mask = mask.copy()
    return mask


def flatten_mask(mask: Any) -> Any:
    """NumPy's ``np.ma.flatten_mask``: ``mask`` as a flat bool array (masks of kdsl's dtypes have no nested
    fields to collapse)."""
    return getdata(mask).astype(kd.bool_).ravel()


def ids(a: Any) -> tuple[int, int]:
    """NumPy's ``np.ma.ids``: identifiers of the data and of the mask (``id`` of the kdsl arrays holding them;
    NumPy gives memory addresses, which kdsl's device arrays do not have)."""
    data, mask = parts(a)
    return id(data), id(mask)


def make_mask_none(newshape: Any, dtype: Any = None) -> Any:
    """A mask of ``newshape`` with nothing masked."""
    return kd.zeros(newshape, dtype=kd.bool_)


def mask_or(m1: Any, m2: Any, copy: bool = False, shrink: bool = True) -> Any:
    """NumPy's ``np.ma.mask_or``: the union of two masks (``nomask`` when both are)."""
    if m1 is nomask or m1 is False:
        return nomask if (m2 is nomask or m2 is False) else make_mask(m2, shrink=shrink)
    if m2 is nomask or m2 is False:
        return make_mask(m1, shrink=shrink)
    a, b = getdata(m1).astype(kd.bool_), getdata(m2).astype(kd.bool_)
    if a.shape != b.shape:
        raise ValueError(f"Incompatible shapes for mask_or: {a.shape} and {b.shape}")
    return make_mask(a | b, shrink=shrink)


def filled(a: Any, fill_value: Any = None) -> Any:
    """NumPy's ``np.ma.filled``: the data with masked entries replaced (a kdsl array)."""
    if isinstance(a, MaskedArray):
        return a.filled(fill_value)
    return getdata(a)


def compressed(x: Any) -> Any:
    """NumPy's ``np.ma.compressed``: the unmasked values, 1-D (its length is read back)."""
    return x.compressed() if isinstance(x, MaskedArray) else getdata(x).ravel()


def count_masked(arr: Any, axis: Any = None) -> Any:
    """The number of masked entries (NumPy's ``np.int64`` for ``axis=None``, read back; else a kdsl int64
    array)."""
    m = getmaskarray(arr)
    counts = kd.sum(m, axis=axis, dtype=kd.int64)
    return np.int64(int(counts)) if axis is None else counts


def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    """NumPy's ``np.ma.where``: ``x`` where ``condition`` else ``y``, masked where the chosen operand is or the
    condition is masked. With only ``condition``: the indices of its true unmasked entries."""
    if x is None and y is None:
        return kd.nonzero(filled(condition, False) if isinstance(condition, MaskedArray) else getdata(condition))
    if x is None or y is None:
        raise ValueError("Must provide both 'x' and 'y' or neither.")
    cd, cm = parts(condition)
    cond = kd.asarray(cd).astype(kd.bool_) if cm is nomask else kd.where(cm, False, cd).astype(kd.bool_)
    xd, xm = parts(x)
    yd, ym = parts(y)
    # numpy.ma's masked stands for a 0 of the other operand's dtype (masked.dtype is float64: an int32 x with
    # masked stays int32); both masked: masked's own float64
    if x is masked:
        xd, xm = kd.zeros((), dtype=kd.float64 if y is masked else kd.asarray(yd).dtype), True
    if y is masked:
        yd, ym = kd.zeros((), dtype=kd.asarray(xd).dtype), True
    xd, yd = strong(xd, yd)  # numpy.ma's Python scalars are 0-d arrays: float32 data with 0.0 is float64
    data = kd.where(cond, xd, yd)
    shape = data.shape
    xm = nomask if xm is nomask else kd.asarray(xm)
    ym = nomask if ym is nomask else kd.asarray(ym)
    if xm is nomask and ym is nomask and cm is nomask:
        return MaskedArray.wrap(data)
    mask = kd.where(cond, xm if xm is not nomask else False, ym if ym is not nomask else False)
    if cm is not nomask:
        mask = mask | cm
    mask = shrunk(mask)  # NumPy's: nomask where nothing chosen is masked
    return MaskedArray.wrap(data, kd.broadcast_to(mask, shape) if mask is not nomask and mask.shape != shape else mask)


def _joined(fn: Any, arrays: Any, axis: int, dtype: Any = None, casting: str = "same_kind",
            mask_array: bool = False) -> MaskedArray:
    """``fn`` (kd.concatenate or kd.stack) of the data (with NumPy's ``dtype``/``casting``) and of the masks;
    ``mask_array``: a mask array even where no piece has one (NumPy's stack/hstack/vstack; its concatenate keeps
    ``nomask``)."""
    pieces = list(arrays)
    datas = [getdata(a) for a in pieces]
    data = fn(datas, axis=axis, **({} if dtype is None and casting == "same_kind" else
                                   {"dtype": dtype, "casting": casting}))
    if all(getmask(a) is nomask for a in pieces):
        return MaskedArray.wrap(data, kd.zeros(data.shape, dtype=kd.bool_) if mask_array else nomask)
    masks = [getmaskarray(a) if getmask(a) is not nomask else kd.zeros(d.shape, dtype=kd.bool_)
             for a, d in zip(pieces, datas, strict=True)]
    joined = fn(masks, axis=axis)
    return MaskedArray.wrap(data, joined if mask_array else shrunk(joined))  # NumPy's concatenate shrinks it


def concatenate(arrays: Any, axis: int = 0) -> MaskedArray:
    """NumPy's ``np.ma.concatenate``: data and masks joined along ``axis``."""
    return _joined(kd.concatenate, arrays, axis)


def stack(arrays: Any, axis: int = 0, out: Any = None, *, dtype: Any = None,
          casting: str = "same_kind") -> MaskedArray:
    """NumPy's ``np.ma.stack``: data (as ``dtype``, cast by ``casting``) and masks stacked along a new ``axis``."""
    return _joined(kd.stack, arrays, axis, dtype, casting, mask_array=True)


def hstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> MaskedArray:
    """NumPy's ``np.ma.hstack``: data (as ``dtype``, cast by ``casting``) and masks joined along the columns
    (axis 0 of 1-d arrays)."""
    pieces = [_atleast_1d(a) for a in tup]
    return _joined(kd.concatenate, pieces, 0 if pieces and pieces[0].ndim == 1 else 1, dtype, casting,
                   mask_array=True)


def vstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> MaskedArray:
    """NumPy's ``np.ma.vstack`` (``row_stack``): data (as ``dtype``, cast by ``casting``) and masks joined as
    rows."""
    return _joined(kd.concatenate, [_atleast_2d(a) for a in tup], 0, dtype, casting, mask_array=True)


# NumPy's np.ma functions that call the array's own method: a plain kdsl (or NumPy) array gives kd's plain array
# (np.ma.transpose of an ndarray is an ndarray, of a list a masked array); expand_dims is plain for any input
_PLAIN_FOR_ARRAYS = ("reshape", "transpose")
_PLAIN_FOR_ANY = ("expand_dims",)


def _shape_function(name: str) -> Any:
    def fn(a: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(a, MaskedArray) and (name in _PLAIN_FOR_ANY or (
                name in _PLAIN_FOR_ARRAYS and isinstance(a, (kd.Array, np.ndarray)))):
            return getattr(kd, name)(a if isinstance(a, kd.Array) else kd.asarray(a), *args, **kwargs)
        x = a if isinstance(a, MaskedArray) else MaskedArray(a)
        return x._apply(lambda d: getattr(kd, name)(d, *args, **kwargs))
    fn.__name__ = fn.__qualname__ = name
    plain = (" (a plain array's is kd's plain result, as NumPy's)" if name in _PLAIN_FOR_ARRAYS + _PLAIN_FOR_ANY
             else "")
    fn.__doc__ = f"NumPy's ``np.ma.{name}``: ``kd.{name}`` of the data and of the mask{plain}."
    return fn


# the one-argument atleast_* that hstack/vstack use (kd.ma.atleast_*, several arguments: shape_functions.py)
reshape, ravel, transpose, swapaxes, squeeze, expand_dims, _atleast_1d, _atleast_2d = (
    _shape_function(n) for n in ("reshape", "ravel", "transpose", "swapaxes", "squeeze", "expand_dims",
                                 "atleast_1d", "atleast_2d"))


def asarray(a: Any, dtype: Any = None, order: Any = None) -> MaskedArray:
    """NumPy's ``np.ma.asarray``: ``a`` as a masked array (itself when it is one of that dtype)."""
    if isinstance(a, MaskedArray) and (dtype is None or numpy_dtype(a.dtype) == numpy_dtype(dtype)):
        return a
    return MaskedArray(a, dtype=dtype)


asanyarray = asarray


def allequal(a: Any, b: Any, fill_value: bool = True) -> bool:
    """NumPy's ``np.ma.allequal``: whether the unmasked entries are equal (masked ones count as ``fill_value``)."""
    da, ma = parts(a)
    db, mb = parts(b)
    eq = kd.asarray(da == db)
    m = ma if mb is nomask else mb if ma is nomask else ma | mb
    if m is not nomask:
        eq = kd.where(m, fill_value, eq)
    return bool(kd.all(eq))


def allclose(a: Any, b: Any, masked_equal: bool = True, rtol: float = 1e-05, atol: float = 1e-08) -> bool:
    """NumPy's ``np.ma.allclose``: whether the unmasked entries are close (masked ones equal with
    ``masked_equal``)."""
    da, ma = parts(a)
    db, mb = parts(b)
    close = kd.isclose(kd.asarray(da), kd.asarray(db), rtol=rtol, atol=atol, equal_nan=False)
    m = ma if mb is nomask else mb if ma is nomask else ma | mb
    if m is not nomask:
        close = kd.where(m, masked_equal, close)
    return bool(kd.all(close))
