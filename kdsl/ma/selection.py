"""``kd.ma``'s selections and differences, as ``numpy.ma``'s: ``take``, ``repeat``, ``diagonal``, ``compress`` and
``copy`` do to the mask what they do to the data; ``trace`` sums the unmasked diagonal; ``diff`` subtracts
neighbours (masked where either is, ``prepend``/``append`` joined first); ``clip`` clips the data and keeps the
mask; ``nonzero`` gives the unmasked nonzero entries; ``trapezoid`` sums the unmasked trapezoids (numpy.ma has
none: it is what ``np.trapezoid`` of a np.ma array computes). Also methods (``x.take(i)``...), and what
``kd.take(x, i)``, ``np.diff(x)``... of a masked array run.

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([1, 4, 9, 16], mask=[0, 0, 1, 0])
    >>> kd.ma.diff(x).tolist(), kd.ma.take(x, [3, 2]).tolist(), kd.ma.repeat(x, 2)[:4].tolist()
    ([3, None, None], [16, None], [1, 1, 4, 4])
"""

from __future__ import annotations

from typing import Any

import kdsl as kd
from kdsl.ma import operands, operators
from kdsl.ma.constants import masked, nomask
from kdsl.ma.functions import concatenate, getdata, getmask, getmaskarray, hstack
from kdsl.ma.masked_array import MaskedArray


def _masked(a: Any) -> MaskedArray:
    return a if isinstance(a, MaskedArray) else MaskedArray(a)


def _both(x: MaskedArray, fn: Any) -> MaskedArray:
    """``fn`` applied to the data and to the mask (nomask stays nomask)."""
    return MaskedArray.wrap(fn(x._data), nomask if x._mask is nomask else fn(x._mask), x._fill_value)


def take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: str = "raise") -> Any:
    """NumPy's ``np.ma.take``: the entries at ``indices`` (their masks with them). Masked indices take entry 0
    (whatever their data, as NumPy fills them with 0) and mask what they pick."""
    _no_out(out, "take")
    index_mask = nomask
    if isinstance(indices, MaskedArray):
        index_mask, indices = indices._mask, indices.filled(0)
    result = _both(_masked(a), lambda v: kd.take(v, indices, axis=axis, mode=mode))
    if index_mask is not nomask:
        result = MaskedArray.wrap(result._data, _index_mask_on(result, index_mask, axis))
    result._fill_value = None  # NumPy's take makes a new masked array: the default fill value
    return result[()] if result.ndim == 0 else result


def _index_mask_on(result: MaskedArray, index_mask: Any, axis: Any) -> Any:
    """The mask of ``take``'s result with the masked indices' picks masked too: the index mask sits at ``axis``
    of the result (the whole result for ``axis=None``), broadcast along the axes after it."""
    if axis is not None:
        after = result.ndim - (axis % (result.ndim - index_mask.ndim + 1)) - index_mask.ndim
        index_mask = index_mask.reshape(tuple(index_mask.shape) + (1,) * after)
    picked = kd.broadcast_to(index_mask, result.shape)
    return picked if result._mask is nomask else result._mask | picked


def choose(indices: Any, choices: Any, out: Any = None, mode: str = "raise") -> MaskedArray:
    """NumPy's ``np.ma.choose``: ``kd.choose`` of the choices' data by the indices (masked indices take
    choice 0), masked where the chosen entry is masked or the index is."""
    _no_out(out, "choose")
    index_mask: Any = nomask
    if isinstance(indices, MaskedArray):
        index_mask, indices = indices._mask, indices.filled(0)
    picks = [_masked(c) for c in choices]
    data = kd.choose(indices, [c._data for c in picks], mode=mode)
    mask: Any = nomask
    if any(c._mask is not nomask for c in picks):
        mask = kd.choose(indices, [getmaskarray(c) for c in picks], mode=mode)
    if index_mask is not nomask:
        mask = kd.broadcast_to(index_mask, data.shape) if mask is nomask else mask | index_mask
    return MaskedArray.wrap(data, operands.shrunk(mask))  # NumPy's make_mask(shrink=True)


def put(a: Any, indices: Any, values: Any, mode: str = "raise") -> None:
    """NumPy's ``np.ma.put``: ``values`` written at the flat ``indices`` of ``a`` in place, their mask with them
    (unmasking where they are unmasked); a hard mask keeps its masked entries unwritten."""
    if not isinstance(a, MaskedArray):
        raise TypeError("kd.ma.put: a must be a kd.ma masked array (it is changed in place); for a plain kdsl "
                        "array use kd.put")
    index = kd.asarray(indices).ravel()
    vdata, vmask = getdata(values).ravel(), getmask(values)
    if index.size == 0 or vdata.size == 0:  # NumPy's put writes nothing then
        return
    # values repeat to the indices' length, as NumPy's put cycles them; the mask with them
    vdata = kd.resize(vdata, index.shape)
    vmask = nomask if vmask is nomask else kd.resize(kd.asarray(vmask).ravel(), index.shape)
    if a._hardmask and a._mask is not nomask:  # masked entries keep their values (and masks)
        keep = ~kd.take(a._mask.ravel(), index, mode=mode)
        index, vdata = index[keep], vdata[keep]
        vmask = nomask if vmask is nomask else vmask[keep]
    kd.put(a._data, index, vdata, mode=mode)
    if a._mask is nomask and vmask is nomask:
        return
    flat = getmaskarray(a).ravel().copy()
    kd.put(flat, index, False if vmask is nomask else vmask, mode=mode)
    a._mask = operands.shrunk(flat.reshape(a.shape))  # NumPy's put: make_mask(shrink=True)


def repeat(a: Any, repeats: Any, axis: Any = None) -> MaskedArray:
    """NumPy's ``np.ma.repeat``: each entry (and its mask) repeated."""
    return _both(_masked(a), lambda v: kd.repeat(v, repeats, axis=axis))


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> MaskedArray:
    """NumPy's ``np.ma.diagonal``: the diagonal of the data and of the mask."""
    return _both(_masked(a), lambda v: kd.diagonal(v, offset, axis1, axis2))


def compress(condition: Any, a: Any, axis: Any = None, out: Any = None) -> MaskedArray:
    """NumPy's ``np.ma.compress``: the slices where ``condition`` holds (reads its true count, as ``kd.compress``)."""
    _no_out(out, "compress")
    # NumPy takes np.asarray(condition): a masked condition counts by its data, whatever its mask
    condition = condition._data if isinstance(condition, MaskedArray) else condition
    return _both(_masked(a), lambda v: kd.compress(condition, v, axis=axis))


def copy(a: Any, order: str = "C", subok: bool = True) -> Any:
    """NumPy's ``np.ma.copy``: data and mask copied. ``subok=False`` (what ``kd.copy(x, subok=False)`` and
    ``np.copy(x, subok=False)`` pass here) copies the data alone, a plain kdsl array, as NumPy's ``np.copy``
    gives a plain ndarray then.

    >>> import kdsl as kd
    >>> x = kd.ma.array([1, 2, 3], mask=[False, True, False])
    >>> type(kd.copy(x, subok=True)).__name__, kd.copy(x, subok=False).tolist()
    ('MaskedArray', [1, 2, 3])
    """
    x = _masked(a)
    return _both(x, kd.copy) if subok else kd.copy(x._data, order)


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None, out: Any = None) -> Any:
    """NumPy's ``np.ma.trace``: the sum of the unmasked diagonal entries (0 where all are masked)."""
    _no_out(out, "trace")
    x = _masked(a)
    if x._mask is nomask:
        return kd.trace(x._data, offset, axis1, axis2, dtype=dtype)
    d = diagonal(x, offset, axis1, axis2)
    return kd.sum((d if dtype is None else d.astype(dtype)).filled(0), axis=-1)


def ediff1d(arr: Any, to_end: Any = None, to_begin: Any = None) -> MaskedArray:
    """NumPy's ``np.ma.ediff1d``: the differences of the flattened array (masked where either neighbour is), with
    ``to_begin`` before and ``to_end`` after them (``kd.ma.masked`` as one masked entry)."""
    x = _masked(arr).ravel()
    pieces = [x[1:] - x[:-1]]  # numpy.ma's subtraction: its mask stays, as NumPy's (diff's ufunc shrinks it)
    for value, first in ((to_begin, True), (to_end, False)):
        if value is None:
            continue
        if value is masked:
            piece = MaskedArray.wrap(kd.zeros((1,), dtype=x.dtype), kd.ones((1,), dtype=kd.bool_))
        else:
            piece = _masked(value).ravel()
        pieces.insert(0, piece) if first else pieces.append(piece)
    return hstack(pieces) if len(pieces) > 1 else pieces[0]  # NumPy's hstack: a full mask


def diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> MaskedArray:
    """NumPy's ``np.ma.diff``: ``n``-th differences along ``axis``, masked where either neighbour is."""
    x = _masked(a)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    axis = axis % x.ndim if x.ndim else 0
    pieces = [_edge(p, x, axis) for p in (prepend,) if p is not None] + [x] + \
        [_edge(p, x, axis) for p in (append,) if p is not None]
    x = concatenate(pieces, axis=axis) if len(pieces) > 1 else x
    lead = (slice(None),) * axis
    for _ in range(n):
        x = x[lead + (slice(1, None),)] - x[lead + (slice(None, -1),)]
    # NumPy's diff subtracts with its ufunc, whose masked result shrinks the mask (np.ma.subtract does not)
    return x if n == 0 else MaskedArray.wrap(x._data, operands.shrunk(x._mask), x._fill_value)


def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Any:
    """NumPy's ``np.trapezoid`` of a masked array: the trapezoids whose two ends are unmasked, summed (a trapezoid
    with a masked end is left out, as NumPy's masked sum leaves it; all left out: ``kd.ma.masked``).

    >>> import kdsl as kd
    >>> float(kd.trapezoid(kd.ma.array([1.0, 2.0, 3.0, 4.0, 5.0], mask=[0, 0, 1, 0, 0])))
    6.0
    """
    y = _masked(y)
    axis = axis % y.ndim
    lead = (slice(None),) * axis
    if x is None:
        d: Any = dx
    else:
        xs = _masked(x)
        if xs.ndim == 1:  # spacing along ``axis``, broadcast over the other axes (NumPy's rule)
            d = diff(xs)
            d = d.reshape(tuple(d.shape[0] if a == axis else 1 for a in range(y.ndim)))
        else:
            d = diff(xs, axis=axis)
    return (d * (y[lead + (slice(1, None),)] + y[lead + (slice(None, -1),)]) / 2.0).sum(axis)


def _edge(value: Any, x: MaskedArray, axis: int) -> MaskedArray:
    """``prepend``/``append`` as a masked array of ``x``'s shape but 1 (or its own length) along ``axis``."""
    v = _masked(value)
    if v.ndim == 0:
        shape = x.shape[:axis] + (1,) + x.shape[axis + 1:]
        return _both(v, lambda d: kd.broadcast_to(d, shape))
    return v


def clip(a: Any, a_min: Any = None, a_max: Any = None, out: Any = None, **kwargs: Any) -> MaskedArray:
    """NumPy's ``np.ma.clip``: the data clipped, masked where ``a`` or a masked bound is."""
    _no_out(out, "clip")
    return operators.clip(a, kwargs.get("min", a_min), kwargs.get("max", a_max))


def nonzero(a: Any) -> Any:
    """NumPy's ``np.ma.nonzero``: the indices of the unmasked nonzero entries."""
    return _masked(a).nonzero()  # type: ignore[attr-defined]


def _no_out(out: Any, name: str) -> None:
    if out is not None:
        raise TypeError(f"kd.ma.{name}: out= is not supported; use the returned masked array")


for _name in ("take", "repeat", "diagonal", "compress", "trace"):
    setattr(MaskedArray, _name, (lambda f: lambda self, *args, **kwargs: f(self, *args, **kwargs))(globals()[_name]))
MaskedArray.compress = lambda self, condition, axis=None, out=None: compress(condition, self, axis, out)  # type: ignore[attr-defined]

__all__ = ["choose", "clip", "compress", "copy", "diagonal", "diff", "nonzero", "put", "repeat", "take", "trace"]
